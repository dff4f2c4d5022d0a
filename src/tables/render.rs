//! The board drawn for a terminal the way players know it (from the viewer's side: their home
//! table bottom right, points numbered from their side), and the rules in plain words.

use super::notation::format_setup;
use super::position::{BAR, OFF};
use super::{Stage, TablesGame, TablesState};
use crate::game::{Game, Ritual};
use std::fmt::Write;

/// Checker symbols of player 0 and player 1.
const SYMBOLS: [char; 2] = ['X', 'O'];
/// Checkers drawn in one column before the count is written instead.
const STACK: usize = 5;

pub fn board(game: &TablesGame, state: &TablesState, viewer: usize) -> String {
    let pos = &state.pos;
    let other = 1 - viewer;
    // Who stands on the viewer's point n, and how many.
    let at = |n: usize| -> Option<(usize, usize)> {
        if pos.sides[viewer][n] > 0 {
            Some((viewer, usize::from(pos.sides[viewer][n])))
        } else if pos.sides[other][25 - n] > 0 {
            Some((other, usize::from(pos.sides[other][25 - n])))
        } else {
            None
        }
    };
    let cell = |n: usize, row: usize| -> String {
        match at(n) {
            Some((_, c)) if row == STACK - 1 && c > STACK => format!("{c:>3}"),
            Some((p, c)) if row < c => format!("  {}", SYMBOLS[p]),
            _ => "  .".to_string(),
        }
    };
    let half = |points: [usize; 12], rows: &mut dyn Iterator<Item = usize>, s: &mut String| {
        for row in rows {
            for (i, &n) in points.iter().enumerate() {
                if i == 6 {
                    s.push_str("  |");
                }
                s.push_str(&cell(n, row));
            }
            s.push('\n');
        }
    };
    let label = |points: [usize; 12]| -> String {
        let mut s = String::new();
        for (i, n) in points.iter().enumerate() {
            if i == 6 {
                s.push_str("  |");
            }
            let _ = write!(s, "{n:>3}");
        }
        s
    };
    let top = [13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24];
    let bottom = [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1];
    let mut s = String::new();
    let _ = writeln!(s, "{}", label(top));
    half(top, &mut (0..STACK), &mut s);
    let _ = writeln!(
        s,
        "{:>20}  {} {}  {} {}",
        "BAR", SYMBOLS[viewer], pos.sides[viewer][BAR], SYMBOLS[other], pos.sides[other][BAR]
    );
    half(bottom, &mut (0..STACK).rev(), &mut s);
    let _ = writeln!(s, "{}", label(bottom));
    for p in [viewer, other] {
        let _ = writeln!(
            s,
            "{} ({}): bar {}, off {}",
            game.info.players[p], SYMBOLS[p], pos.sides[p][BAR], pos.sides[p][OFF]
        );
    }
    let mover = &game.info.players[usize::from(state.to_move)];
    match state.stage {
        Stage::Roll => {
            let _ = writeln!(s, "{mover} to roll");
        }
        Stage::Move => {
            let _ = writeln!(
                s,
                "{mover} to move with {}-{}",
                state.dice[0], state.dice[1]
            );
        }
        Stage::Over => match state.winner {
            Some(w) => {
                let _ = writeln!(
                    s,
                    "{} wins ({} point{})",
                    game.info.players[usize::from(w)],
                    state.score,
                    if state.score == 1 { "" } else { "s" }
                );
            }
            None => {
                let _ = writeln!(s, "drawn at the {}-ply limit", game.max_plies);
            }
        },
    }
    if let Some(m) = game.match_standing(state) {
        let _ = writeln!(
            s,
            "match game {}: {} {}, {} {}{}",
            m.game,
            game.info.players[0],
            m.points[0],
            game.info.players[1],
            m.points[1],
            match m.winner {
                Some(w) => format!(" — {} wins the match", game.info.players[w]),
                None => String::new(),
            }
        );
    }
    s
}

pub fn describe(game: &TablesGame) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{} ({}, tables family)", game.info.title, game.info.name);
    if !game.info.source.is_empty() {
        let _ = writeln!(s, "{}", game.info.source.trim());
    }
    let _ = writeln!(
        s,
        "{} checkers a side on 24 points, two dice, doubles played four times.",
        game.checkers
    );
    for p in 0..2 {
        let _ = writeln!(
            s,
            "{} starts with {} (its own numbering).",
            game.info.players[p],
            format_setup(&game.start.sides[p])
        );
    }
    if game.ritual == Ritual::HigherDieChoosesColour {
        let _ = writeln!(
            s,
            "Each player rolls one die; the higher roller chooses the colour, the lower starts."
        );
    }
    let _ = writeln!(
        s,
        "{}",
        if game.moves.hits {
            "Two or more checkers block a point; a lone checker is hit to the bar and must enter before anything else moves."
        } else {
            "A single checker blocks a point; there is no hitting."
        }
    );
    for r in &game.moves.leave {
        let _ = writeln!(
            s,
            "A checker may leave point {} only when `{}` (tested die by die).",
            r.point,
            r.when.text()
        );
    }
    let _ = writeln!(
        s,
        "Play as many dice as possible, the larger when only one can be played; bear off once all are home."
    );
    let _ = writeln!(
        s,
        "The winner scores `{}` point(s).",
        game.scoring.as_ref().map_or("1", |e| e.text())
    );
    if let Some(m) = &game.match_rules {
        let _ = writeln!(
            s,
            "A match is played to {} points; {}.",
            m.target,
            crate::game::next_first_text(m.next_first, "game")
        );
    }
    s
}
