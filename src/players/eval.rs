//! The search players' measure of a position: finished games by their outcome; else the rules
//! file's `[ai] evaluate` when it has one, or by default the material each side has secured
//! (stones in stores; checkers borne off) and for tables a pip-count term.

use crate::game::{Material, Outcome, Player};

/// The value of a won game (a lost one is `-WIN`, a draw 0); far above any material count.
pub const WIN: f64 = 10_000.0;

/// What a pip is worth against one unit of material (a checker borne off).
pub const PIP: f64 = 0.1;

/// What a point held against the opponent is worth: it blocks their checkers.
pub const HELD: f64 = 0.25;

/// What a blot costs: about a third of a chance of being hit, and a hit costs many pips.
pub const BLOT: f64 = 0.4;

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
/// difference and less the player's blots where the game has them.
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
    if let (Some(mine), Some(theirs)) = (
        game.points_held(state, player),
        game.points_held(state, other),
    ) {
        value += HELD * f64::from(mine - theirs);
    }
    // Only the blots of the side not to move are at risk: the side to move may hit them.
    if let Some(to_move) = game.phase(state).to_move() {
        let exposed = 1 - to_move;
        if let Some(blots) = game.blots(state, exposed) {
            let sign = if exposed == player { -1.0 } else { 1.0 };
            value += sign * BLOT * f64::from(blots);
        }
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
