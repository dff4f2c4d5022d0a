//! A move in people's words, as the terminal and the page's move list say it: who played what
//! (in the numbering the board is drawn with, and in the mover's own when that differs), what
//! it captured, and a turn that goes on.

use crate::registry::{AnyGame, AnyMove, AnyState};
use ludus_core::game::{Evaluator, Game, Notation, Phase, Player, View};

/// The points scored during play from `before` to `after`, each player's after `lead`: "; Black
/// scores 5 points"; empty where none were.
pub fn scored_said(game: &AnyGame, before: &AnyState, after: &AnyState, lead: &str) -> String {
    let (Some(was), Some(now)) = (
        game.scored_during_play(before),
        game.scored_during_play(after),
    ) else {
        return String::new();
    };
    let names = game.player_names();
    let mut said = String::new();
    for q in 0..2 {
        let gained = now[q] - was[q];
        if gained > 0 {
            let s = if gained == 1 { "" } else { "s" };
            said.push_str(&format!("{lead}{} scores {gained} point{s}", names[q]));
        }
    }
    said
}

/// `p`'s move `mv` from `before` to `after`, seen from `viewer`'s side, the mover called
/// `mover`: "South plays 3 and captures 4 stones", "Black plays 8/2 (17/23 in Black's
/// numbering)", "North plays 5; North plays again".
pub fn move_said(
    game: &AnyGame,
    (before, mv, after): (&AnyState, &AnyMove, &AnyState),
    p: Player,
    mover: &str,
    viewer: Player,
) -> String {
    let names = game.player_names();
    if let Some(action) = game.cube_action(mv) {
        return format!("{mover} {}", action.said());
    }
    let text = game.move_text(before, mv);
    let seen = game.move_text_seen_by(before, mv, viewer);
    let mut said = format!("{mover} plays {seen}");
    if seen != text {
        let owner = game.numbering(before).unwrap_or(p);
        said.push_str(&format!(" ({text} in {}'s numbering)", names[owner]));
    }
    said.push_str(&scored_said(game, before, after, "; "));
    // At the end of a game the stones left may be swept into the stores: not a gain of the
    // move (the result says the scores).
    let phase = game.phase(after);
    if phase == Phase::Over {
        return said;
    }
    for q in [p, 1 - p] {
        let gained = game.material(after, q) - game.material(before, q);
        if let Some(words) = (gained > 0).then(|| game.gain_text(gained)).flatten() {
            match q == p {
                true => said.push_str(&format!(" and {words}")),
                false => said.push_str(&format!("; {} {words}", names[q])),
            }
        }
    }
    // A turn that goes on: the dice again, or (without dice, where a move is a whole turn)
    // another move. With dice, a move followed by a move of the same player is a step of one
    // turn, not a new one.
    match phase {
        Phase::Roll(q) if q == p => said.push_str(&format!("; {mover} rolls again")),
        Phase::Move(q) if q == p && game.dice().is_none() => {
            said.push_str(&format!("; {mover} plays again"))
        }
        _ => {}
    }
    said
}
