//! The doubling cube's decisions for every computer player but `random`, by cubeful equities in
//! Janowski's model: the cubeless chances of the position (the rules' network's: winning, and
//! the gammons and backgammons within; without a network, a chance of winning from the family's
//! heuristic) valued between a dead cube (the cubeless equity) and a perfectly live one (each
//! side doubling and cashing at its market), weighted by the cube's efficiency. A player
//! doubles when doubling gains (and not when the position is too good: playing on for a gammon
//! beats the opponent's drop), takes when taking loses less than dropping, and beavers when the
//! position is theirs. In a match every result is valued by the chance of winning the match it
//! leaves ([`crate::met`]), and so are the points at which a double is dropped: the same model
//! in match-winning chances, reported as equities in points (GNU Backgammon's EMG, at the cube).

use crate::{met, Analysis, MoveStat};
use ludus_core::game::{Crawford, CubeAction, CubeView, Evaluator, Phase, Player};
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

/// A player's cubeless chances: of winning, and how their wins and losses split into single
/// games, gammons and backgammons (each split sums to 1).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Chances {
    win: f64,
    wins: [f64; 3],
    losses: [f64; 3],
}

/// Every game won or lost single.
const SINGLE: [f64; 3] = [1.0, 0.0, 0.0];

impl Chances {
    /// From a network's estimates (player 0's), for `me`.
    fn from_net(p: &[f32; OUTPUTS], me: Player) -> Chances {
        let [w, wg, wb, lg, lb] = p.map(f64::from);
        let (win, won, lost) = match me {
            0 => (w, (wg, wb), (lg, lb)),
            _ => (1.0 - w, (lg, lb), (wg, wb)),
        };
        // Gammons count backgammons among them.
        let split = |(gammons, backgammons): (f64, f64), chance: f64| {
            if chance <= 1e-6 {
                return SINGLE;
            }
            let g = (gammons / chance).clamp(0.0, 1.0);
            let b = (backgammons / chance).clamp(0.0, g);
            [1.0 - g, g - b, b]
        };
        let win = win.clamp(0.0, 1.0);
        Chances {
            win,
            wins: split(won, win),
            losses: split(lost, 1.0 - win),
        }
    }

    /// What a win is worth on average, in units of the cube (1 a single game, more with
    /// gammons); and a loss.
    fn won(&self) -> f64 {
        self.wins[0] + 2.0 * self.wins[1] + 3.0 * self.wins[2]
    }
    fn lost(&self) -> f64 {
        self.losses[0] + 2.0 * self.losses[1] + 3.0 * self.losses[2]
    }

    /// The cubeless equity: the cube dead.
    fn dead(&self) -> f64 {
        self.win * self.won() - (1.0 - self.win) * self.lost()
    }

    /// The equity with a perfectly live cube owned by `owner`: linear between the points at
    /// which a side cashes (Janowski's take points, `L − ½` and `W − ½` over `W + L + ½`).
    fn live(&self, owner: Owner) -> f64 {
        let (p, w, l) = (self.win, self.won(), self.lost());
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

    /// The chance of winning the match once the game is won at cube `c` (averaged over how
    /// it is won); and once it is lost.
    fn match_won(&self, score: &Score, c: i32) -> f64 {
        (1..=3)
            .map(|k| self.wins[k as usize - 1] * score.after(k * c))
            .sum()
    }
    fn match_lost(&self, score: &Score, c: i32) -> f64 {
        (1..=3)
            .map(|k| self.losses[k as usize - 1] * score.after(-k * c))
            .sum()
    }

    /// The chance of winning the match with the cube at `c` owned by `owner`, in the same
    /// model as money play's: between the dead cube and a live one, whose doubles are dropped
    /// at the take points the match's score sets (where taking the doubled game is worth what
    /// dropping is).
    fn match_cubeful(&self, score: &Score, c: i32, owner: Owner) -> f64 {
        let p = self.win;
        let (won, lost) = (self.match_won(score, c), self.match_lost(score, c));
        let dead = p * won + (1.0 - p) * lost;
        let (won2, lost2) = (self.match_won(score, 2 * c), self.match_lost(score, 2 * c));
        if !score.cube_alive || won2 - lost2 < 1e-9 {
            return dead;
        }
        let (cashed, dropped) = (score.after(c), score.after(-c));
        // My double is dropped from `cash` on; the opponent's, by me, up to `take`.
        let cash = ((cashed - lost2) / (won2 - lost2)).clamp(1e-9, 1.0);
        let take = ((dropped - lost2) / (won2 - lost2)).clamp(0.0, cash - 1e-9);
        let live = match owner {
            Owner::Me if p >= cash => cashed,
            Owner::Me => lost + (cashed - lost) * p / cash,
            Owner::Opponent | Owner::Middle if p <= take => dropped,
            Owner::Opponent => dropped + (won - dropped) * (p - take) / (1.0 - take),
            Owner::Middle if p >= cash => cashed,
            Owner::Middle => dropped + (cashed - dropped) * (p - take) / (cash - take),
        };
        EFFICIENCY * live + (1.0 - EFFICIENCY) * dead
    }
}

/// A match's score as the deciding player sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Score {
    /// The points the player and the opponent still need.
    away: [i32; 2],
    /// The Crawford game is still to come.
    crawford_ahead: bool,
    /// The cube may still be turned in this game (not the Crawford game).
    cube_alive: bool,
    /// The cube's value now.
    stakes: i32,
}

impl Score {
    /// The score of `cube`'s match for `me`; `None` in money play.
    fn of(cube: &CubeView, me: Player) -> Option<Score> {
        let away = cube.away?;
        Some(Score {
            away: [away[me], away[1 - me]],
            crawford_ahead: cube.crawford == Some(Crawford::Before),
            cube_alive: cube.crawford != Some(Crawford::Now),
            stakes: cube.value,
        })
    }

    /// The chance of winning the match once the game ends with `points` won (below 0: lost).
    fn after(&self, points: i32) -> f64 {
        let [me, opponent] = self.away;
        match points >= 0 {
            true => met::winning_chance(me - points, opponent, self.crawford_ahead),
            false => met::winning_chance(me, opponent + points, self.crawford_ahead),
        }
    }

    /// A chance of winning the match as an equity in points at the stakes (GNU Backgammon's
    /// EMG times the cube): winning the game single is the stakes, losing it single their
    /// opposite.
    fn points(&self, chance: f64) -> f64 {
        let (won, lost) = (self.after(self.stakes), self.after(-self.stakes));
        match won - lost > 1e-12 {
            true => f64::from(self.stakes) * (2.0 * chance - won - lost) / (won - lost),
            false => 0.0,
        }
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
                (c.wins, c.losses) = (SINGLE, SINGLE);
            }
            return Some(c);
        }
    }
    let roller = game.phase(state).to_move()?;
    let value = game.heuristic(state, roller);
    let p = 1.0 / (1.0 + (-SCALE * value).exp());
    Some(Chances {
        win: if roller == me { p } else { 1.0 - p },
        wins: SINGLE,
        losses: SINGLE,
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
    let value = |a: CubeAction| match Score::of(&cube, me) {
        // In a match, by the chances of winning it.
        Some(score) => {
            let v = cube.value;
            score.points(match a {
                CubeAction::Roll => c.match_cubeful(&score, v, owner),
                CubeAction::Double => c
                    .match_cubeful(&score, 2 * v, Owner::Opponent)
                    .min(score.after(v)),
                CubeAction::Take | CubeAction::Beaver => c.match_cubeful(&score, 2 * v, Owner::Me),
                CubeAction::Drop => score.after(-v),
            })
        }
        None => match a {
            CubeAction::Roll => stakes * c.cubeful(owner, cube.jacoby),
            CubeAction::Double => stakes * (2.0 * c.cubeful(Owner::Opponent, false)).min(1.0),
            CubeAction::Take => 2.0 * stakes * c.cubeful(Owner::Me, false),
            CubeAction::Beaver => 4.0 * stakes * c.cubeful(Owner::Me, false),
            CubeAction::Drop => -stakes,
        },
    };
    let mut stats: Vec<MoveStat> = Vec::with_capacity(moves.len());
    for index in 0..moves.len() {
        stats.push(MoveStat {
            index,
            value: value(action(index)?),
            visits: 1,
            exact: true,
        });
    }
    // Stable: of equal decisions, the first listed (rolling on, taking) is made.
    stats.sort_by(|a, b| b.value.total_cmp(&a.value));
    let best = stats.first()?;
    Some(Analysis {
        best: best.index,
        value: best.value,
        nodes: 1,
        depth: 0,
        moves: stats,
    })
}

/// The equity in points for `me` of a position a network estimates `p` (player 0's chances):
/// cubeless without a cube, else cubeful at the cube as it stands (in a match, by the chances of
/// winning it); the gammons counted only where the rules score them (`gammons`).
pub fn equity(p: &[f32; OUTPUTS], me: Player, cube: Option<CubeView>, gammons: bool) -> f64 {
    let mut c = Chances::from_net(p, me);
    if !gammons {
        (c.wins, c.losses) = (SINGLE, SINGLE);
    }
    let Some(cube) = cube else {
        return c.dead();
    };
    let owner = match cube.owner {
        None => Owner::Middle,
        Some(o) if o == me => Owner::Me,
        Some(_) => Owner::Opponent,
    };
    match Score::of(&cube, me) {
        Some(score) => score.points(c.match_cubeful(&score, cube.value, owner)),
        None => f64::from(cube.value) * c.cubeful(owner, cube.jacoby),
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
            wins: SINGLE,
            losses: SINGLE,
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
            wins: [0.2, 0.8, 0.0],
            losses: SINGLE,
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

    /// The cube's three values in a match, in chances of winning it: no double, double and
    /// take, double and drop (cube in the middle at `stakes`).
    fn decisions(win: f64, away: [i32; 2], stakes: i32, crawford: Crawford) -> [f64; 3] {
        let c = plain(win);
        let view = CubeView {
            value: stakes,
            owner: None,
            away: Some(away),
            jacoby: false,
            crawford: Some(crawford),
        };
        let score = Score::of(&view, 0).unwrap();
        [
            c.match_cubeful(&score, stakes, Owner::Middle),
            c.match_cubeful(&score, 2 * stakes, Owner::Opponent),
            score.after(stakes),
        ]
    }

    #[test]
    fn at_two_away_two_away_the_take_point_is_the_crawford_games_equity() {
        // Dropping leaves the taker 2-away against the Crawford game: 32.3%; taking plays the
        // match on this game. At 60% a double is taken, at 70% dropped; both are doubles.
        let [nd, dt, dp] = decisions(0.60, [2, 2], 1, Crawford::Before);
        assert!((dt - 0.60).abs() < 1e-9 && (dp - 0.67736).abs() < 1e-9);
        assert!(dt.min(dp) > nd, "nd {nd:.4} dt {dt:.4}");
        let [nd, dt, dp] = decisions(0.70, [2, 2], 1, Crawford::Before);
        assert!(dp < dt && dp > nd, "nd {nd:.4} dt {dt:.4} dp {dp:.4}");
        // The taker's view: at 32% of the game, a take; at 30%, a drop.
        for (win, take) in [(0.33, true), (0.31, false)] {
            let [_, dt, dp] = decisions(1.0 - win, [2, 2], 1, Crawford::Before);
            assert_eq!(1.0 - dt >= 1.0 - dp, take, "{win}");
        }
    }

    #[test]
    fn the_score_decides_what_money_play_would_not() {
        // Post-Crawford, the leader one point away never doubles: the game already wins the
        // match for them.
        let [nd, dt, dp] = decisions(0.75, [1, 4], 1, Crawford::After);
        assert!(dt.min(dp) <= nd + 1e-12, "nd {nd} dt {dt} dp {dp}");
        // The trailer doubles at once, even behind in the game.
        let [nd, dt, _] = decisions(0.45, [4, 1], 1, Crawford::After);
        assert!(dt > nd, "nd {nd} dt {dt}");
        // A player whose drop loses the match takes whatever the chances.
        let c = plain(0.05);
        let view = CubeView {
            value: 2,
            owner: Some(1),
            away: Some([3, 2]),
            jacoby: false,
            crawford: Some(Crawford::Before),
        };
        let score = Score::of(&view, 0).unwrap();
        assert_eq!(score.after(-2), 0.0);
        assert!(c.match_cubeful(&score, 4, Owner::Me) > score.after(-2));
        // In points: winning the game single is the stakes, a drop their opposite.
        assert!((score.points(score.after(2)) - 2.0).abs() < 1e-9);
        assert!((score.points(score.after(-2)) + 2.0).abs() < 1e-9);
    }
}
