//! The doubling cube's decisions for every computer player but `random`: by the position's
//! estimated chance of winning (the rules' network's where there is one), against the
//! thresholds of money play (a double from about 68%,
//! none when too good, above 88%, where playing on for a gammon is worth more; a take down to
//! 22%, a beaver from 60%). A rule of thumb until an evaluation gives real equities.

use ludus_core::game::{CubeAction, Evaluator, Phase};

/// A player doubles from this chance of winning...
const DOUBLE_FROM: f64 = 0.68;
/// ...up to this one, where the position is too good to double.
const TOO_GOOD: f64 = 0.88;
/// A doubled player takes down to this chance of winning.
const TAKE_FROM: f64 = 0.22;
/// A doubled player beavers from this one.
const BEAVER_FROM: f64 = 0.60;
/// How a position's heuristic value (in units of material: checkers borne off, a tenth a
/// pip) turns into a chance of winning: a 10-pip lead in a race of about 100 pips (1.0) is
/// about 78%, as the race formulas say.
const SCALE: f64 = 1.25;

/// The estimated chance that the player to move at `state` wins: by the rules' learned
/// network where they name one that fits (`[ai] network`), else from the family's heuristic.
pub fn winning_chance<G: Evaluator>(game: &G, state: &G::State) -> Option<f64> {
    let Phase::Move(me) = game.phase(state) else {
        return None;
    };
    if let Some(net) = game.network() {
        let mut x = Vec::with_capacity(net.inputs);
        if game.features(state, &mut x) && x.len() == net.inputs {
            let p0 = f64::from(net.evaluate(&x)[0]);
            return Some(if me == 0 { p0 } else { 1.0 - p0 });
        }
    }
    let value = game.heuristic(state, me);
    Some(1.0 / (1.0 + (-SCALE * value).exp()))
}

/// The index of the cube decision to make among `moves`, when they are the cube's.
pub fn decide<G: Evaluator>(game: &G, state: &G::State, moves: &[G::Move]) -> Option<usize> {
    game.cube_action(moves.first()?)?;
    let p = winning_chance(game, state)?;
    let want = |a: CubeAction| moves.iter().position(|m| game.cube_action(m) == Some(a));
    let wanted = match game.cube_action(&moves[0])? {
        CubeAction::Roll | CubeAction::Double if (DOUBLE_FROM..TOO_GOOD).contains(&p) => {
            CubeAction::Double
        }
        CubeAction::Roll | CubeAction::Double => CubeAction::Roll,
        _ if p >= BEAVER_FROM && want(CubeAction::Beaver).is_some() => CubeAction::Beaver,
        _ if p >= TAKE_FROM => CubeAction::Take,
        _ => CubeAction::Drop,
    };
    want(wanted)
}
