//! Computer players, written once for every game through the [`Game`] trait.

use crate::game::{Game, Material};
use rand::seq::SliceRandom;
use rand::Rng;
use std::str::FromStr;

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agent {
    /// A person at the terminal.
    Human,
    /// Uniformly random among the legal moves.
    Random,
    /// The move that gains most at once (stones captured, checkers borne off); ties at random.
    Greedy,
}

impl FromStr for Agent {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "human" => Ok(Agent::Human),
            "random" => Ok(Agent::Random),
            "greedy" => Ok(Agent::Greedy),
            _ => Err(format!(
                "unknown player `{s}` (expected human, random or greedy)"
            )),
        }
    }
}

impl Agent {
    pub fn name(self) -> &'static str {
        match self {
            Agent::Human => "human",
            Agent::Random => "random",
            Agent::Greedy => "greedy",
        }
    }
}

/// A computer player's choice among `moves` (non-empty), as an index.
pub fn choose<G: Material, R: Rng>(
    game: &G,
    state: &G::State,
    moves: &[G::Move],
    agent: Agent,
    rng: &mut R,
) -> usize {
    match agent {
        Agent::Greedy => greedy(game, state, moves, rng),
        Agent::Random | Agent::Human => rng.gen_range(0..moves.len()),
    }
}

fn greedy<G: Material, R: Rng>(
    game: &G,
    state: &G::State,
    moves: &[G::Move],
    rng: &mut R,
) -> usize {
    let Some(me) = game.phase(state).to_move() else {
        return 0;
    };
    let mut best = Vec::new();
    let mut best_gain = i32::MIN;
    for (i, mv) in moves.iter().enumerate() {
        let mut after = state.clone();
        game.play(&mut after, mv);
        let gain = game.material(&after, me) - game.material(&after, 1 - me);
        if gain > best_gain {
            best_gain = gain;
            best.clear();
        }
        if gain == best_gain {
            best.push(i);
        }
    }
    *best.choose(rng).unwrap_or(&0)
}

/// Plays one game from `state` to its end with uniformly random moves and dice; returns the
/// winner (`None` for a draw). A cap on plies keeps a rules file's endless game from hanging
/// the caller.
pub fn playout<G: Game, R: Rng>(
    game: &G,
    mut state: G::State,
    rng: &mut R,
    max_plies: u32,
) -> Option<usize> {
    use crate::game::Phase;
    let mut moves = Vec::new();
    for _ in 0..max_plies {
        match game.phase(&state) {
            Phase::Over => break,
            Phase::Roll(_) => {
                let Some(dice) = game.dice() else { break };
                if game.roll(&mut state, &dice.sample(rng)).is_err() {
                    break;
                }
            }
            Phase::Move(_) => {
                game.legal_moves(&state, &mut moves);
                let Some(mv) = moves.choose(rng) else { break };
                game.play(&mut state, mv);
            }
        }
    }
    game.outcome(&state).and_then(|o| o.winner)
}
