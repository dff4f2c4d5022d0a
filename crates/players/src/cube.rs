//! The doubling cube's decisions for every computer player but `random`, by cubeful equities in
//! Janowski's model: the cubeless chances of the position (the rules' network's: winning, and
//! the gammons and backgammons within; without a network, a chance of winning from the family's
//! heuristic) valued between a dead cube (the cubeless equity) and a perfectly live one (each
//! side doubling and cashing at its market), weighted by the cube's efficiency. A player
//! doubles when doubling gains (and not when the position is too good: playing on for a gammon
//! beats the opponent's drop), takes when taking loses less than dropping, and beavers when the
//! position is theirs. The model is money play's; in a match two facts of the score come first:
//! a player whose win at the present cube already wins the match does not double, and a player
//! whose drop would lose the match takes (and the opponent of such a player doubles).

use crate::{Analysis, MoveStat};
use ludus_core::game::{CubeAction, CubeView, Evaluator, Phase, Player};
use ludus_core::net::OUTPUTS;

/// The cube's efficiency: how much of a perfectly live cube's value a real game's cube has
/// (Janowski's x; about 0.68 for positions with contact).
const EFFICIENCY: f64 = 0.68;
/// How a position's heuristic value (in units of material: checkers borne off, a tenth a
/// pip) turns into a chance of winning where there is no network: a 10-pip lead in a race of
/// about 100 pips (1.0) is about 78%, as the race formulas say.
const SCALE: f64 = 1.25;

/// Who owns the cube, from the deciding player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Owner {
    Me,
    Middle,
    Opponent,
}

/// A player's cubeless chances: of winning, and what a win and a loss are worth on average
/// (1 a single game, more with gammons), in units of the cube.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Chances {
    win: f64,
    won: f64,
    lost: f64,
}

impl Chances {
    /// From a network's estimates (player 0's), for `me`.
    fn from_net(p: &[f32; OUTPUTS], me: Player) -> Chances {
        let [w, wg, wb, lg, lb] = p.map(f64::from);
        let (win, gammons_won, gammons_lost) = match me {
            0 => (w, wg + wb, lg + lb),
            _ => (1.0 - w, lg + lb, wg + wb),
        };
        let per = |g: f64, chance: f64| if chance > 1e-6 { 1.0 + g / chance } else { 1.0 };
        Chances {
            win: win.clamp(0.0, 1.0),
            won: per(gammons_won, win),
            lost: per(gammons_lost, 1.0 - win),
        }
    }

    /// The cubeless equity: the cube dead.
    fn dead(&self) -> f64 {
        self.win * self.won - (1.0 - self.win) * self.lost
    }

    /// The equity with a perfectly live cube owned by `owner`: linear between the points at
    /// which a side cashes (Janowski's take points, `L − ½` and `W − ½` over `W + L + ½`).
    fn live(&self, owner: Owner) -> f64 {
        let (p, w, l) = (self.win, self.won, self.lost);
        let take = (l - 0.5) / (w + l + 0.5);
        let cash = 1.0 - (w - 0.5) / (w + l + 0.5);
        match owner {
            Owner::Me if p >= cash => 1.0,
            Owner::Me => -l + (1.0 + l) * p / cash,
            Owner::Opponent if p <= take => -1.0,
            Owner::Opponent => -1.0 + (w + 1.0) * (p - take) / (1.0 - take),
            Owner::Middle if p <= take => -1.0,
            Owner::Middle if p >= cash => 1.0,
            Owner::Middle => -1.0 + 2.0 * (p - take) / (cash - take),
        }
    }

    /// The cubeful equity, in units of the cube; under the Jacoby rule (`jacoby`: the cube
    /// not yet turned) the dead cube's games count single, while the live cube, which doubling
    /// turns, keeps the gammons.
    fn cubeful(&self, owner: Owner, jacoby: bool) -> f64 {
        let dead = match jacoby {
            true => 2.0 * self.win - 1.0,
            false => self.dead(),
        };
        EFFICIENCY * self.live(owner) + (1.0 - EFFICIENCY) * dead
    }
}

/// The chances of `me` in `state`, a position with a player to roll (after their decision on
/// the cube): by the rules' network where it fits, else from the family's heuristic.
fn chances<G: Evaluator>(game: &G, state: &G::State, me: Player) -> Option<Chances> {
    if let Some(net) = game.network(state) {
        let mut x = Vec::with_capacity(net.inputs);
        if let Some(p) = crate::net::value(game, net, state, &mut x) {
            let mut c = Chances::from_net(&p, me);
            if game.scores_alike(state) {
                // Rules without gammons: every game is worth one.
                (c.won, c.lost) = (1.0, 1.0);
            }
            return Some(c);
        }
    }
    let roller = game.phase(state).to_move()?;
    let value = game.heuristic(state, roller);
    let p = 1.0 / (1.0 + (-SCALE * value).exp());
    Some(Chances {
        win: if roller == me { p } else { 1.0 - p },
        won: 1.0,
        lost: 1.0,
    })
}

/// Every cube decision of `moves` (the cube's, at a decision of it) with its cubeful equity in
/// points for the deciding player, best first, as an analysis; `None` for other moves.
pub fn analyse<G: Evaluator>(game: &G, state: &G::State, moves: &[G::Move]) -> Option<Analysis> {
    let Phase::Move(me) = game.phase(state) else {
        return None;
    };
    let cube = game.cube(state)?;
    let action = |i: usize| game.cube_action(&moves[i]);
    // The position is valued as it will be played: after rolling on, or after taking (the
    // doubler to roll).
    let on = (0..moves.len())
        .find(|&i| matches!(action(i), Some(CubeAction::Roll | CubeAction::Take)))?;
    let mut after = state.clone();
    game.play(&mut after, &moves[on]);
    let c = chances(game, &after, me)?;
    let stakes = f64::from(cube.value);
    let owner = match cube.owner {
        None => Owner::Middle,
        Some(p) if p == me => Owner::Me,
        Some(_) => Owner::Opponent,
    };
    let mut stats: Vec<MoveStat> = Vec::with_capacity(moves.len());
    for index in 0..moves.len() {
        let value = match action(index)? {
            CubeAction::Roll => stakes * c.cubeful(owner, cube.jacoby),
            CubeAction::Double => stakes * (2.0 * c.cubeful(Owner::Opponent, false)).min(1.0),
            CubeAction::Take => 2.0 * stakes * c.cubeful(Owner::Me, false),
            CubeAction::Beaver => 4.0 * stakes * c.cubeful(Owner::Me, false),
            CubeAction::Drop => -stakes,
        };
        stats.push(MoveStat {
            index,
            value,
            visits: 1,
            exact: true,
        });
    }
    stats.sort_by(|a, b| b.value.total_cmp(&a.value));
    if let Some(first) = by_score(game, moves, &cube, me, &stats) {
        let i = stats.iter().position(|s| s.index == first)?;
        let chosen = stats.remove(i);
        stats.insert(0, chosen);
    }
    let best = stats.first()?;
    Some(Analysis {
        best: best.index,
        value: best.value,
        nodes: 1,
        depth: 0,
        moves: stats,
    })
}

/// The decision a match's score makes whatever the equities say (see the module's words);
/// `None` where it makes none.
fn by_score<G: Evaluator>(
    game: &G,
    moves: &[G::Move],
    cube: &CubeView,
    me: Player,
    stats: &[MoveStat],
) -> Option<usize> {
    let away = cube.away?;
    let want = |a: CubeAction| {
        stats
            .iter()
            .map(|s| s.index)
            .find(|&i| game.cube_action(&moves[i]) == Some(a))
    };
    if want(CubeAction::Drop).is_some() {
        // Answering: a drop that gives the doubler the match is never right.
        return (cube.value >= away[1 - me])
            .then(|| want(CubeAction::Take))
            .flatten();
    }
    if cube.value >= away[me] {
        want(CubeAction::Roll)
    } else if cube.value >= away[1 - me] {
        want(CubeAction::Double)
    } else {
        None
    }
}

/// The equity in points for `me` of a position a network estimates `p` (player 0's chances):
/// cubeless without a cube, else cubeful at the cube as it stands (money play's model); the
/// gammons counted only where the rules score them (`gammons`).
pub fn equity(p: &[f32; OUTPUTS], me: Player, cube: Option<CubeView>, gammons: bool) -> f64 {
    let mut c = Chances::from_net(p, me);
    if !gammons {
        (c.won, c.lost) = (1.0, 1.0);
    }
    match cube {
        None => c.dead(),
        Some(cube) => {
            let owner = match cube.owner {
                None => Owner::Middle,
                Some(o) if o == me => Owner::Me,
                Some(_) => Owner::Opponent,
            };
            f64::from(cube.value) * c.cubeful(owner, cube.jacoby)
        }
    }
}

/// The index of the cube decision to make among `moves`, when they are the cube's.
pub fn decide<G: Evaluator>(game: &G, state: &G::State, moves: &[G::Move]) -> Option<usize> {
    game.cube_action(moves.first()?)?;
    analyse(game, state, moves).map(|a| a.best)
}

/// Whether the opponent of the player resigning at `state` accepts the resignation that ends
/// the game as `ended`: when it concedes at least what the opponent expects from playing on
/// (the cubeless equity at the stakes, by the rules' network where there is one, else from
/// the heuristic's chance of winning a single game).
pub fn accepts_resignation<G: Evaluator>(game: &G, state: &G::State, ended: &G::State) -> bool {
    let (Some(me), Some(outcome)) = (game.phase(state).to_move(), game.outcome(ended)) else {
        return false;
    };
    let other = 1 - me;
    let offered = f64::from(outcome.scores[other]);
    let stakes = game.cube(state).map_or(1.0, |c| f64::from(c.value));
    chances(game, state, other).is_none_or(|c| offered >= stakes * c.dead() - 1e-9)
}

/// The estimated chance that the player to move at `state` wins (cubeless).
pub fn winning_chance<G: Evaluator>(game: &G, state: &G::State) -> Option<f64> {
    let me = game.phase(state).to_move()?;
    chances(game, state, me).map(|c| c.win)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludus_core::net::equity;

    fn plain(win: f64) -> Chances {
        Chances {
            win,
            won: 1.0,
            lost: 1.0,
        }
    }

    #[test]
    fn live_cube_take_points_are_janowskis() {
        // No gammons: the live take point is 20%; the taker's equity there is the drop's.
        let c = plain(0.2);
        assert!((c.live(Owner::Opponent) + 1.0).abs() < 1e-9);
        assert!((c.live(Owner::Middle) + 1.0).abs() < 1e-9);
        // The owner cashes at 80%.
        assert!((plain(0.8).live(Owner::Me) - 1.0).abs() < 1e-9);
        // In between, the middle is linear: 50% is even.
        assert!(plain(0.5).live(Owner::Middle).abs() < 1e-9);
    }

    #[test]
    fn money_cube_decisions_follow_the_chances() {
        // (chance, double?, take?) without gammons, the cube in the middle: 60% is no double,
        // 72% a double and take, 85% a double and drop.
        for (win, double, take) in [(0.60, false, true), (0.72, true, true), (0.85, true, false)] {
            let c = plain(win);
            let nd = c.cubeful(Owner::Middle, false);
            let dt = 2.0 * c.cubeful(Owner::Opponent, false);
            assert_eq!(dt.min(1.0) > nd, double, "{win}: nd {nd:.3} dt {dt:.3}");
            assert_eq!(dt < 1.0, take, "{win}: dt {dt:.3}");
        }
        // Too good: 90% with most wins gammons is worth more played on than cashed.
        let c = Chances {
            win: 0.9,
            won: 1.8,
            lost: 1.0,
        };
        assert!(c.cubeful(Owner::Middle, false) > 1.0);
        // Under the Jacoby rule the gammons wait for the cube: doubling out is worth more.
        assert!(c.cubeful(Owner::Middle, true) < 1.0);
    }

    #[test]
    fn equity_matches_the_cubeless_model() {
        let p = [0.7f32, 0.2, 0.05, 0.05, 0.0];
        let c = Chances::from_net(&p, 0);
        assert!((c.dead() - f64::from(equity(&p))).abs() < 1e-5);
        let c1 = Chances::from_net(&p, 1);
        assert!((c1.dead() + f64::from(equity(&p))).abs() < 1e-5);
    }
}
