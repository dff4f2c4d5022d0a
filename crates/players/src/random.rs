//! `random`: a legal move at random, each as likely.

use super::{no_budget, Computer, Memory};
use ludus_core::game::Evaluator;
use rand::Rng;
use std::fmt;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Random;

impl Computer for Random {
    const NAME: &'static str = "random";
    const USAGE: &'static str = "random";
    /// A random player doubles, takes and drops at random too.
    const CUBE_BY_RULE: bool = false;

    fn parse(budget: Option<&str>, _threads: u32) -> Result<Self, String> {
        no_budget(Self::NAME, budget).map(|()| Random)
    }

    fn choose<G: Evaluator, R: Rng>(
        &self,
        _game: &G,
        _state: &G::State,
        moves: &[G::Move],
        _memory: &mut Memory<G>,
        rng: &mut R,
    ) -> usize {
        rng.gen_range(0..moves.len())
    }
}

impl fmt::Display for Random {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Self::NAME)
    }
}
