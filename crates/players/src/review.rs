//! A review of played decisions: each one searched by a reviewing player, what it lost against
//! the reviewer's best, summed for each player as GNU Backgammon rates a match (errors per
//! unforced move, and its rating words where the values are equities in points).

use crate::{analyse, Spec};
use ludus_core::game::Evaluator;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The decisions whose loss is at least this are listed (in the reviewer's units; GNU
/// Backgammon marks a move "bad" from 0.08 points of equity, "doubtful" from 0.04).
pub const WORTH_LISTING: f64 = 0.04;

/// One reviewed decision.
#[derive(Clone, Debug, PartialEq)]
pub struct Reviewed {
    /// Its index among the decisions reviewed.
    pub at: usize,
    pub player: usize,
    /// The move played and the reviewer's best, indices into the legal moves.
    pub played: usize,
    pub best: usize,
    /// The best move's value less the played one's (never below 0), in the reviewer's units
    /// per unit of the stakes (a cube at 4 divides by 4).
    pub loss: f64,
    /// A decision of the doubling cube.
    pub cube: bool,
}

/// What a review found for one player.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Moves (not the cube's) with more than one legal choice, and the loss summed over them.
    pub unforced: u32,
    pub move_loss: f64,
    /// Cube decisions, and the loss summed over them.
    pub cube_decisions: u32,
    pub cube_loss: f64,
}

impl Tally {
    /// The loss per unforced move, in thousandths (GNU Backgammon's mEMG where the values are
    /// equities in points).
    pub fn rate(&self) -> f64 {
        1000.0 * self.move_loss / f64::from(self.unforced.max(1))
    }
}

/// GNU Backgammon's words for a player's error rate per unforced move in thousandths of a point.
pub fn rating(rate: f64) -> &'static str {
    match rate {
        r if r < 2.0 => "supernatural",
        r if r < 5.0 => "world class",
        r if r < 8.0 => "expert",
        r if r < 12.0 => "advanced",
        r if r < 18.0 => "intermediate",
        r if r < 26.0 => "casual player",
        r if r < 35.0 => "beginner",
        _ => "awful",
    }
}

/// Reviews `decisions` (each a position awaiting a move and the index of the move played among
/// its legal moves, as `legal_moves` lists them) by `reviewer`: every decision with more than
/// one legal move searched with every move valued, the loss against the best. `None` when the
/// reviewer does not search; decisions it cannot value are left out.
pub fn review<G: Evaluator>(
    game: &G,
    decisions: &[(G::State, usize)],
    reviewer: Spec,
) -> Option<(Vec<Reviewed>, [Tally; 2])> {
    reviewer.search()?;
    let mut found = Vec::new();
    let mut tallies = [Tally::default(), Tally::default()];
    let mut moves = Vec::new();
    for (at, (state, played)) in decisions.iter().enumerate() {
        let Some(player) = game.phase(state).to_move() else {
            continue;
        };
        game.legal_moves(state, &mut moves);
        if moves.len() < 2 || *played >= moves.len() {
            continue;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(at as u64);
        let Some(analysis) = analyse(game, state, &moves, reviewer, true, &mut rng) else {
            continue;
        };
        let Some(value) = analysis.moves.iter().find(|m| m.index == *played) else {
            continue;
        };
        let stakes = game.cube(state).map_or(1.0, |c| f64::from(c.value));
        let loss = ((analysis.value - value.value) / stakes).max(0.0);
        let cube = game.cube_action(&moves[0]).is_some();
        let tally = &mut tallies[player];
        if cube {
            tally.cube_decisions += 1;
            tally.cube_loss += loss;
        } else {
            tally.unforced += 1;
            tally.move_loss += loss;
        }
        found.push(Reviewed {
            at,
            player,
            played: *played,
            best: analysis.best,
            loss,
            cube,
        });
    }
    Some((found, tallies))
}
