//! The board drawn for a terminal the way players know it (from the viewer's side: their home
//! table bottom right, points numbered from their side), and as an SVG picture.

use super::position::{stacked_at, Board, Lone, Position, BAR, OFF, POOL};
use super::{GameRules, Stage, TablesGame, TablesState};
use ludus_core::game::Game;
use std::fmt::Write;

/// Checker symbols of player 0 and player 1.
const SYMBOLS: [char; 2] = ['X', 'O'];
/// Checkers drawn in one column before the count is written instead.
const STACK: usize = 5;

pub fn board(game: &TablesGame, state: &TablesState, viewer: usize) -> String {
    let pos = &state.pos;
    let rules = game.rules(state);
    let board = &rules.moves.board;
    let other = 1 - viewer;
    // A pinned checker is drawn in lower case at the bottom of its point's stack.
    let cell = |n: usize, row: usize| -> String {
        let mut first = 0;
        for Group {
            p,
            c,
            shown,
            pinned,
        } in stack_at(pos, board, viewer, n)
        {
            if row < first + shown {
                return if row + 1 == first + shown && c > shown {
                    format!("{c:>3}")
                } else if pinned {
                    format!("  {}", SYMBOLS[p].to_ascii_lowercase())
                } else {
                    format!("  {}", SYMBOLS[p])
                };
            }
            first += shown;
        }
        "  .".to_string()
    };
    let half = board.points / 2;
    let quarter = half / 2;
    let row_of = |points: &[usize], rows: &mut dyn Iterator<Item = usize>, s: &mut String| {
        for row in rows {
            for (i, &n) in points.iter().enumerate() {
                if i == quarter && quarter > 0 {
                    s.push_str("  |");
                }
                s.push_str(&cell(n, row));
            }
            s.push('\n');
        }
    };
    let label = |points: &[usize]| -> String {
        let mut s = String::new();
        for (i, n) in points.iter().enumerate() {
            if i == quarter && quarter > 0 {
                s.push_str("  |");
            }
            let _ = write!(s, "{n:>3}");
        }
        s
    };
    let top: Vec<usize> = (half + 1..=board.points).collect();
    let bottom: Vec<usize> = (1..=half).rev().collect();
    // The bar only where a checker can be sent there (or one stands there, set up by hand).
    let moves = &rules.moves;
    let hits = moves.lone == Lone::Hit || !moves.hits.is_empty() || !moves.strikes.is_empty();
    let bar = (hits && board.hit_to == BAR) || pos.sides.iter().any(|side| side[BAR] > 0);
    let mut s = String::new();
    let _ = writeln!(s, "{}", label(&top));
    row_of(&top, &mut (0..STACK), &mut s);
    if bar {
        let _ = writeln!(
            s,
            "{:>width$}  {} {}  {} {}",
            "BAR",
            SYMBOLS[viewer],
            pos.sides[viewer][BAR],
            SYMBOLS[other],
            pos.sides[other][BAR],
            width = 3 * quarter + 2
        );
    } else {
        s.push('\n');
    }
    row_of(&bottom, &mut (0..STACK).rev(), &mut s);
    let _ = writeln!(s, "{}", label(&bottom));
    for p in [viewer, other] {
        let pips = rules.moves.board.pips(&pos.sides[p]);
        let mut line = format!(
            "{} ({}): pip count {pips}",
            game.info.players[p], SYMBOLS[p]
        );
        if bar {
            let _ = write!(line, ", bar {}", pos.sides[p][BAR]);
        }
        if rules.uses_pool() {
            let _ = write!(line, ", pool {}", pos.sides[p][POOL]);
        }
        let _ = writeln!(
            s,
            "{line}, off {}{}",
            pos.sides[p][OFF],
            stacked_text(rules, pos, p)
        );
    }
    for p in [viewer, other].into_iter().filter(|&p| pos.pinned[p] != 0) {
        let _ = writeln!(
            s,
            "{}: a pinned checker of {}, under the {} checker pinning it",
            SYMBOLS[p].to_ascii_lowercase(),
            game.info.players[p],
            game.info.players[1 - p]
        );
    }
    if let Some(ids) = game.ids(state) {
        let _ = writeln!(s, "GNU Backgammon position ID: {}", ids.position);
        let _ = writeln!(s, "                 match ID: {}", ids.match_id);
        if let Some(x) = ids.xgid {
            let _ = writeln!(s, "{x}");
        }
    }
    if let Some(m) = game.match_standing(state) {
        let rotating = if game.rotation.len() > 1 {
            format!(" ({})", rules.title)
        } else {
            String::new()
        };
        let _ = writeln!(
            s,
            "match game {}{rotating}: {} {}, {} {}",
            m.game, game.info.players[0], m.points[0], game.info.players[1], m.points[1],
        );
    }
    if !rules.score.is_empty() {
        let _ = writeln!(
            s,
            "scored during play: {} {}, {} {}",
            game.info.players[0], state.scored[0], game.info.players[1], state.scored[1],
        );
    }
    if let Some(cube) = cube_text(game, state) {
        let _ = writeln!(s, "{cube}");
    }
    s
}

/// One side's checkers on a point, as drawn.
struct Group {
    p: usize,
    c: usize,
    /// Rows drawn: a group with more checkers shows its count on its last row.
    shown: usize,
    pinned: bool,
}

/// The checkers on the viewer's point n, bottom first, in at most `STACK` rows: a pinned
/// checker under its pinner; on a point both sides share (`lone_checker = "owns"`), the
/// viewer's under the other side's.
fn stack_at(pos: &Position, board: &Board, viewer: usize, n: usize) -> Vec<Group> {
    let other = 1 - viewer;
    let a = board.across(n);
    let mine = (
        viewer,
        usize::from(pos.sides[viewer][n]),
        pos.pinned[viewer] & (1 << n) != 0,
    );
    let theirs = (
        other,
        usize::from(pos.sides[other][a]),
        pos.pinned[other] & (1 << a) != 0,
    );
    let [low, high] = if theirs.2 {
        [theirs, mine]
    } else {
        [mine, theirs]
    };
    // The upper group keeps up to half the rows when both would not fit.
    let low_rows = low.1.min(STACK - high.1.min(STACK / 2));
    let high_rows = high.1.min(STACK - low_rows);
    [(low, low_rows), (high, high_rows)]
        .into_iter()
        .filter(|((_, c, _), _)| *c > 0)
        .map(|((p, c, pinned), shown)| Group {
            p,
            c,
            shown,
            pinned,
        })
        .collect()
}

/// Where a side's checkers stand stacked (`[stacks]`), in its own numbering: `, stacked 6:3
/// 4:1`, `, none stacked`; nothing in a game without stacks.
fn stacked_text(rules: &GameRules, pos: &Position, p: usize) -> String {
    if rules.moves.stacks.is_none() {
        return String::new();
    }
    let board = &rules.moves.board;
    let points: Vec<String> = (1..=board.points)
        .rev()
        .filter_map(|n| Some((n, stacked_at(pos.stacked[p], board.stack_field(n)?))))
        .filter(|&(_, k)| k > 0)
        .map(|(n, k)| format!("{n}:{k}"))
        .collect();
    match points.is_empty() {
        true => ", none stacked".to_string(),
        false => format!(", stacked {}", points.join(" ")),
    }
}

/// What the player to move is to do (after their name); `None` once the game is over.
pub fn awaited(game: &TablesGame, state: &TablesState) -> Option<String> {
    // The first turn of a game whose starter plays the opponent's checkers says so.
    let side = game.rules(state).side(state);
    let theirs = match side == usize::from(state.to_move) {
        true => String::new(),
        false => format!(" {}'s checkers", game.info.players[side]),
    };
    match state.stage {
        Stage::Roll if !theirs.is_empty() => Some(format!("to roll and move{theirs}")),
        Stage::Roll => Some("to roll".to_string()),
        Stage::Move => Some(format!("to move{theirs} with {}", super::dice_text(state))),
        Stage::Over => None,
        Stage::Cube => Some(format!("to double (to {}) or roll", 2 * state.cube.value())),
        Stage::Answer => {
            let mut answers = Vec::new();
            game.cube_moves(state, &mut answers);
            let words: Vec<&str> = answers
                .iter()
                .filter_map(|m| m.cube_action().map(|a| a.word()))
                .collect();
            let (last, rest) = words.split_last().unwrap_or((&"", &[]));
            Some(format!(
                "to answer the double to {}: {} or {last}",
                2 * state.cube.value(),
                rest.join(", ")
            ))
        }
    }
}

/// The cube's line under the board: its value and owner, and a Crawford game's.
fn cube_text(game: &TablesGame, state: &TablesState) -> Option<String> {
    game.cube.as_ref()?;
    let owner = match state.cube.owner() {
        Some(p) => format!("{}'s", game.info.players[p]),
        None => "in the middle".into(),
    };
    let crawford = match state.crawford {
        super::Crawford::Now => " (the Crawford game: no doubling)",
        super::Crawford::After => " (post-Crawford)",
        super::Crawford::Before => "",
    };
    Some(format!("cube: {}, {owner}{crawford}", state.cube.value()))
}

/// Who is to do what, or how the game (and the match) ended.
pub fn status(game: &TablesGame, state: &TablesState) -> String {
    let names = &game.info.players;
    if let Some(what) = awaited(game, state) {
        return format!("{} {what}\n", names[usize::from(state.to_move)]);
    }
    let mut s = match state.winner {
        Some(w) => format!(
            "{} wins ({} point{}{})",
            names[usize::from(w)],
            state.score,
            if state.score == 1 { "" } else { "s" },
            match (state.resigned, state.declined) {
                (Some(r), _) => format!(", {}", r.reason()),
                (None, true) => ", double declined".into(),
                (None, false) if state.stalled => format!(", {}", crate::NO_MOVE),
                (None, false) if state.reached => format!(", {}", crate::REACHED),
                (None, false) => String::new(),
            }
        ),
        None => ludus_core::game::Game::outcome(game, state).map_or_else(String::new, |o| o.reason),
    };
    if let Some(w) = game.match_standing(state).and_then(|m| m.winner) {
        let _ = write!(s, " — {} wins the match", names[w]);
    }
    s + "\n"
}

/// How moves are typed, in the mover's numbering.
pub fn notation_help(game: &TablesGame, state: &TablesState) -> String {
    let rules = game.rules(state);
    let points = rules.moves.board.points;
    let pool = if rules.uses_pool() {
        "\n  `pool/20`      brings one in from the pool"
    } else {
        ""
    };
    let stacks = if rules.moves.stacks.is_some() {
        "\n  `4/4`          a die of 4 turns over the stacked (or flat) checkers of point 4"
    } else {
        ""
    };
    let cube = match game.cube {
        Some(c) if c.beavers => "\nThe cube: `double` or `roll` before rolling; `take`, `drop` or `beaver` to answer a double.",
        Some(_) => "\nThe cube: `double` or `roll` before rolling; `take` or `drop` to answer a double.",
        None => "",
    };
    let side = rules.side(state);
    let theirs = match side == usize::from(state.to_move) {
        true => String::new(),
        false => format!(
            "This turn moves {}'s checkers: write their paths in {}'s numbering, as they go.\n",
            game.info.players[side], game.info.players[side]
        ),
    };
    format!(
        "{theirs}A move lists each checker's path in your own numbering (the board is numbered from your\n\
         side: your checkers travel from {points} down to 1):\n\
         \x20 `24/18 13/11`  one checker from 24 to 18, another from 13 to 11\n\
         \x20 `24/18/13`     one checker moving twice     `13/7(2)`  two checkers from 13 to 7\n\
         \x20 `13/7*`        hits on 7                    `bar/22`   enters from the bar{pool}\n\
         \x20 `6/off`        bears off                    `pass`     when no die can be played{stacks}{cube}"
    )
}

/// The board as an SVG picture from `viewer`'s side, laid out as [`board`] is (the viewer's
/// home table bottom right): points as triangles with their numbers, up to five checkers drawn
/// on a point and the count written on the last when there are more, the bar in the middle,
/// borne-off (and pool) counts on the right, the dice, and each side's pip count.
pub fn svg(game: &TablesGame, state: &TablesState, viewer: usize) -> String {
    use ludus_core::game::Evaluator;
    use ludus_core::svg::{Anchor, Svg, BOARD, DARK, INK, LIGHT, SHADE};
    const W: f64 = 40.0;
    const R: f64 = 17.0;
    const TOP: f64 = 44.0;
    let pos = &state.pos;
    let rules = game.rules(state);
    let board = &rules.moves.board;
    let other = 1 - viewer;
    let colour = |p: usize| if p == 0 { LIGHT } else { DARK };
    let ink_on = |p: usize| if p == 0 { INK } else { LIGHT };
    let half = board.points / 2;
    let quarter = half / 2;
    let column = |i: usize| -> f64 {
        // The bar takes one column between the quarters.
        let bar = usize::from(quarter > 0 && i >= quarter);
        (i + bar) as f64 * W
    };
    let board_width = (half + 1) as f64 * W;
    let height_half = 2.0 * R * STACK as f64 + 10.0;
    let board_height = 2.0 * height_half + 2.0 * R + 10.0;
    let width = board_width + 2.0 * W + 20.0;
    let height = TOP + board_height + 70.0;
    let mut svg = Svg::new(width, height);
    svg.rect(0.0, TOP, board_width, board_height, BOARD, Some(INK));
    let bar_x = column(quarter) - W;
    if quarter > 0 {
        svg.rect(bar_x, TOP, W, board_height, SHADE, Some(INK));
    }
    let top: Vec<usize> = (half + 1..=board.points).collect();
    let bottom: Vec<usize> = (1..=half).rev().collect();
    for (points, upper) in [(&top, true), (&bottom, false)] {
        for (i, &n) in points.iter().enumerate() {
            let x = column(i);
            let (base, tip) = if upper {
                (TOP, TOP + height_half)
            } else {
                (TOP + board_height, TOP + board_height - height_half)
            };
            let fill = if i % 2 == 0 { SHADE } else { LIGHT };
            svg.polygon(&[(x, base), (x + W, base), (x + W / 2.0, tip)], fill);
            let label_y = if upper {
                TOP - 10.0
            } else {
                TOP + board_height + 12.0
            };
            svg.text(
                (x + W / 2.0, label_y),
                11.0,
                Anchor::Middle,
                false,
                INK,
                &n.to_string(),
            );
            // Whose checkers stand here, the lower group drawn first.
            let a = board.across(n);
            let mut slot = 0;
            for Group {
                p, c: count, shown, ..
            } in stack_at(pos, board, viewer, n)
            {
                for j in 0..shown {
                    let offset = R + 2.0 * R * (slot + j) as f64;
                    let cy = if upper {
                        TOP + offset
                    } else {
                        TOP + board_height - offset
                    };
                    svg.circle(x + W / 2.0, cy, R - 1.0, colour(p), Some(INK));
                    if j + 1 == shown && (count > shown || count > 1) {
                        let text = count.to_string();
                        svg.text(
                            (x + W / 2.0, cy),
                            14.0,
                            Anchor::Middle,
                            true,
                            ink_on(p),
                            &text,
                        );
                    }
                }
                slot += shown;
            }
            // The point in both sides' numbering, for the page to match moves of either.
            let (y0, y1) = if upper { (base, tip) } else { (tip, base) };
            svg.spot(
                x,
                y0,
                W,
                y1 - y0,
                &[
                    (&format!("p{viewer}"), n.to_string()),
                    (&format!("p{other}"), a.to_string()),
                ],
            );
        }
    }
    // The bar: the other side's checkers in the upper half, the viewer's in the lower.
    for (p, cy) in [
        (other, TOP + board_height / 2.0 - 2.0 * R),
        (viewer, TOP + board_height / 2.0 + 2.0 * R),
    ] {
        let on_bar = pos.sides[p][BAR];
        if on_bar > 0 {
            svg.circle(bar_x + W / 2.0, cy, R - 1.0, colour(p), Some(INK));
            svg.text(
                (bar_x + W / 2.0, cy),
                14.0,
                Anchor::Middle,
                true,
                ink_on(p),
                &on_bar.to_string(),
            );
        }
    }
    if quarter > 0 {
        svg.spot(bar_x, TOP, W, board_height, &[("spot", "bar".into())]);
    }
    // Borne off (and the pool, where the rules use one) on the right.
    let tray = board_width + 10.0;
    svg.spot(tray, TOP, 2.0 * W, board_height, &[("spot", "off".into())]);
    for (p, y) in [(other, TOP + 20.0), (viewer, TOP + board_height - 20.0)] {
        svg.rect(tray, y - 16.0, 2.0 * W, 32.0, colour(p), Some(INK));
        let text = format!("off {}", pos.sides[p][OFF]);
        svg.text((tray + W, y), 14.0, Anchor::Middle, true, ink_on(p), &text);
        if rules.uses_pool() {
            let py = if p == viewer { y - 40.0 } else { y + 40.0 };
            svg.text(
                (tray + W, py),
                13.0,
                Anchor::Middle,
                false,
                INK,
                &format!("pool {}", pos.sides[p][POOL]),
            );
            svg.spot(tray, py - 14.0, 2.0 * W, 28.0, &[("spot", "pool".into())]);
        }
    }
    // The doubling cube by the tray: in the middle, or on its owner's side.
    if game.cube.is_some() {
        let y = match state.cube.owner() {
            None => TOP + board_height / 2.0,
            Some(p) if p == viewer => TOP + board_height - 90.0,
            Some(_) => TOP + 90.0,
        };
        svg.rect(tray + W - 16.0, y - 16.0, 32.0, 32.0, LIGHT, Some(INK));
        let value = state.cube.value().to_string();
        svg.text((tray + W, y), 15.0, Anchor::Middle, true, INK, &value);
    }
    // The dice to play, in the right half of the board.
    let dice = state.dice().unwrap_or(&[]);
    let dice_x = column(quarter + quarter / 2) + W / 2.0 - dice.len() as f64 * 20.0;
    for (i, d) in dice.iter().enumerate() {
        let x = dice_x + i as f64 * 40.0;
        let y = TOP + board_height / 2.0 - 15.0;
        let p = usize::from(state.to_move);
        svg.rect(x, y, 30.0, 30.0, colour(p), Some(INK));
        svg.text(
            (x + 15.0, y + 15.0),
            18.0,
            Anchor::Middle,
            true,
            ink_on(p),
            &d.to_string(),
        );
    }
    let names = &game.info.players;
    let pips = |p: usize| game.pips(state, p).unwrap_or(0);
    let side = |p: usize| {
        let shade = if p == 0 { "light" } else { "dark" };
        format!(
            "{} ({shade}): pips {}, bar {}, off {}{}",
            names[p],
            pips(p),
            pos.sides[p][BAR],
            pos.sides[p][OFF],
            stacked_text(rules, pos, p)
        )
    };
    svg.text((8.0, 12.0), 13.0, Anchor::Start, false, INK, &side(other));
    svg.text(
        (8.0, TOP + board_height + 34.0),
        13.0,
        Anchor::Start,
        false,
        INK,
        &side(viewer),
    );
    let mover = &names[usize::from(state.to_move)];
    let status = match (game.outcome(state), state.stage) {
        (Some(o), _) => match o.winner {
            Some(w) => format!("{} wins ({})", names[w], o.reason),
            None => format!("Draw ({})", o.reason),
        },
        (None, Stage::Roll) => format!("{mover} to roll"),
        (None, _) => format!("{mover} to move with {}", super::dice_text(state)),
    };
    svg.text(
        (8.0, height - 12.0),
        14.0,
        Anchor::Start,
        true,
        INK,
        &status,
    );
    svg.finish()
}
