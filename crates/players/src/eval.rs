//! The search players' measure of a position: finished games by their outcome; else the rules
//! file's `[ai] evaluate` when it has one, or by default the family's [`Evaluator::heuristic`].

use ludus_core::game::{Evaluator, Outcome, Player};

/// The value of a won game (a lost one is `-WIN`, a draw 0); far above any material count.
pub const WIN: f64 = 10_000.0;

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
/// file's `[ai] evaluate` where it has one; else the family's own measure.
pub fn evaluate<G: Evaluator>(game: &G, state: &G::State, player: Player) -> f64 {
    if let Some(outcome) = game.outcome(state) {
        return outcome_value(&outcome, player);
    }
    if let Some(value) = game.evaluation(state, player) {
        return f64::from(value).clamp(-AUTHORED, AUTHORED);
    }
    game.heuristic(state, player)
}

/// `evaluate` squashed into -1..1 (a won game 1), the scale of mcts's results.
pub fn reward<G: Evaluator>(game: &G, state: &G::State, player: Player) -> f64 {
    if let Some(outcome) = game.outcome(state) {
        return outcome_value(&outcome, player) / WIN;
    }
    let v = evaluate(game, state, player);
    v / (v.abs() + 5.0)
}
