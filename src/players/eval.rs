//! The search players' measure of a position: finished games by their outcome; else the rules
//! file's `[ai] evaluate` when it has one, or by default the material each side has secured
//! (stones in stores; checkers borne off) and for tables a pip-count term.

use crate::game::{Material, Outcome, Player};

/// The value of a won game (a lost one is `-WIN`, a draw 0); far above any material count.
pub const WIN: f64 = 10_000.0;

/// What a pip is worth against one unit of material (a checker borne off).
pub const PIP: f64 = 0.1;

/// The most a rules file's own evaluation may say: far below a won game, which the search tells
/// apart by its size.
const AUTHORED: f64 = WIN / 4.0;

/// A finished game from `player`'s view.
pub fn outcome_value(outcome: &Outcome, player: Player) -> f64 {
    match outcome.winner {
        Some(w) if w == player => WIN,
        Some(_) => -WIN,
        None => 0.0,
    }
}

/// The static value of `state` from `player`'s view: the outcome once over; else the rules
/// file's `[ai] evaluate` where it has one; else the material difference, plus the pip-count
/// difference where the game has one.
pub fn evaluate<G: Material>(game: &G, state: &G::State, player: Player) -> f64 {
    if let Some(outcome) = game.outcome(state) {
        return outcome_value(&outcome, player);
    }
    if let Some(value) = game.evaluation(state, player) {
        return f64::from(value).clamp(-AUTHORED, AUTHORED);
    }
    let other = 1 - player;
    let mut value = f64::from(game.material(state, player) - game.material(state, other));
    if let (Some(mine), Some(theirs)) = (game.pips(state, player), game.pips(state, other)) {
        value += PIP * f64::from(theirs - mine);
    }
    value
}

/// `evaluate` squashed into -1..1 (a won game 1), the scale of mcts's results.
pub fn reward<G: Material>(game: &G, state: &G::State, player: Player) -> f64 {
    if let Some(outcome) = game.outcome(state) {
        return outcome_value(&outcome, player) / WIN;
    }
    let v = evaluate(game, state, player);
    v / (v.abs() + 5.0)
}
