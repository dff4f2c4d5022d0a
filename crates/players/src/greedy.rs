//! `greedy`: the move that gains most at once (stones captured, checkers borne off: the
//! family's material); ties at random.

use super::{no_budget, Computer, Memory};
use ludus_core::game::Evaluator;
use rand::seq::SliceRandom;
use rand::Rng;
use std::fmt;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Greedy;

impl Computer for Greedy {
    const NAME: &'static str = "greedy";
    const USAGE: &'static str = "greedy";

    fn parse(budget: Option<&str>, _threads: u32) -> Result<Self, String> {
        no_budget(Self::NAME, budget).map(|()| Greedy)
    }

    fn choose<G: Evaluator, R: Rng>(
        &self,
        game: &G,
        state: &G::State,
        moves: &[G::Move],
        _memory: &mut Memory<G>,
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
}

impl fmt::Display for Greedy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Self::NAME)
    }
}
