//! `alphabeta`: iterative-deepening negamax with alpha-beta pruning, a transposition table and
//! move ordering (the table's best move first, then the moves that gain most at once); at a
//! roll, the expectation over every distinct throw (`Dice::outcomes`), each weighted by its
//! probability, pruned by Ballard's Star2: every value lies within ±[`WIN`], and a throw's first
//! move bounds its value from below, so once the throws searched and probed bound the mean
//! outside the window the rest need not be searched. A throw is not a ply: depth counts moves.
//!
//! Players need not alternate (a sowing move may earn another turn): a child's value turns to
//! the parent's view only when the player to move changes.

use super::eval::{evaluate, outcome_value, WIN};
use super::{parse_budget, Analysis, Budget, Computer, Memory, MoveStat, Search};
use super::{DEFAULT_TIME, MAX_DEPTH};
use ludus_core::game::{Evaluator, Phase, Player, Roll};
use rand::Rng;
use std::collections::HashMap;
use std::fmt;
use std::time::Instant;

/// The player: deeper and deeper searches within the budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlphaBeta {
    pub budget: Budget,
}

impl Computer for AlphaBeta {
    const NAME: &'static str = "alphabeta";
    const USAGE: &'static str = "alphabeta[:BUDGET]";

    fn parse(budget: Option<&str>, _threads: u32) -> Result<Self, String> {
        let budget = match budget.map(parse_budget).transpose()? {
            None => Budget::Time(DEFAULT_TIME),
            Some(Budget::Iterations(_)) => {
                return Err(
                    "alphabeta takes a time (250ms, 2s) or a depth (d8), not a number \
                            of iterations"
                        .into(),
                )
            }
            Some(b) => b,
        };
        Ok(AlphaBeta { budget })
    }

    fn budget(&self) -> Option<Budget> {
        Some(self.budget)
    }

    fn search(&self) -> Option<Search> {
        Some(Search {
            counts: "nodes",
            scale: "material ahead",
        })
    }

    fn analyse<G: Evaluator, R: Rng>(
        &self,
        game: &G,
        state: &G::State,
        moves: &[G::Move],
        all: bool,
        _memory: &mut Memory<G>,
        _rng: &mut R,
    ) -> Option<Analysis> {
        Some(search(game, state, moves, self.budget, all))
    }
}

impl fmt::Display for AlphaBeta {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", Self::NAME, self.budget)
    }
}

/// Depth searched when a budget gives none (a number of iterations, which alphabeta does not
/// take).
const FALLBACK_DEPTH: u32 = 4;
/// Entries kept in the transposition table before it is cleared.
const TABLE_ENTRIES: usize = 1 << 21;
/// Values beyond this are decided games (a win less the plies to it).
const DECIDED: f64 = WIN / 2.0;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy)]
struct Entry {
    depth: u32,
    value: f64,
    bound: Bound,
    /// Index of the best move in the legal moves.
    best: u32,
}

struct Searcher<'g, G: Evaluator> {
    game: &'g G,
    table: HashMap<u64, Entry>,
    rolls: Vec<(Roll, f64)>,
    nodes: u64,
    deadline: Option<Instant>,
    stopped: bool,
    /// A leaf was cut by the depth limit in this iteration (else the search was exhaustive).
    cut: bool,
}

/// Searches `state` (awaiting a move of `moves`, non-empty) within `budget`. With `all`, every
/// root move gets an exact value (for hints); otherwise moves that cannot beat the best get
/// bounds.
pub fn search<G: Evaluator>(
    game: &G,
    state: &G::State,
    moves: &[G::Move],
    budget: Budget,
    all: bool,
) -> Analysis {
    let started = Instant::now();
    let (deadline, max_depth) = match budget {
        Budget::Time(t) => (Some(started + t), MAX_DEPTH),
        Budget::Depth(d) => (None, d.clamp(1, MAX_DEPTH)),
        Budget::Iterations(_) => (None, FALLBACK_DEPTH),
    };
    let mut s = Searcher {
        game,
        table: HashMap::new(),
        rolls: game.dice().map(|d| d.outcomes()).unwrap_or_default(),
        nodes: 0,
        deadline: None,
        stopped: false,
        cut: false,
    };
    let mover = game.phase(state).to_move().unwrap_or(0);
    let mut order: Vec<usize> = (0..moves.len()).collect();
    let mut done: Option<(Vec<MoveStat>, u32)> = None;
    for depth in 1..=max_depth {
        // The first iteration always completes, so there is always a move.
        s.deadline = if depth > 1 { deadline } else { None };
        s.cut = false;
        let stats = s.root(state, moves, mover, &order, depth, all);
        if s.stopped {
            break;
        }
        order = stats.iter().map(|m| m.index).collect();
        let decided = stats[0].value.abs() > DECIDED;
        done = Some((stats, depth));
        if !s.cut || (decided && !all) {
            break;
        }
    }
    let (moves, depth) = done.expect("the first iteration completes");
    Analysis {
        best: moves[0].index,
        value: moves[0].value,
        nodes: s.nodes,
        depth,
        moves,
    }
}

impl<G: Evaluator> Searcher<'_, G> {
    /// Every root move searched to `depth`, best first (ties in the order searched).
    fn root(
        &mut self,
        state: &G::State,
        moves: &[G::Move],
        mover: Player,
        order: &[usize],
        depth: u32,
        all: bool,
    ) -> Vec<MoveStat> {
        let mut stats = Vec::with_capacity(moves.len());
        let mut alpha = f64::NEG_INFINITY;
        for &i in order {
            let before = self.nodes;
            let mut child = state.clone();
            self.game.play(&mut child, &moves[i]);
            let window = if all { f64::NEG_INFINITY } else { alpha };
            let value = self.value_for(&child, mover, depth - 1, window, f64::INFINITY, 1);
            if self.stopped {
                return stats;
            }
            stats.push(MoveStat {
                index: i,
                value,
                visits: self.nodes - before,
                exact: all || value > alpha || stats.is_empty(),
            });
            alpha = alpha.max(value);
        }
        // Stable: equal values keep the order searched (the previous iteration's best first).
        stats.sort_by(|a, b| b.value.total_cmp(&a.value));
        stats
    }

    /// The value of `state` from `me`'s view, within the window `(alpha, beta)` of `me`'s view.
    fn value_for(
        &mut self,
        state: &G::State,
        me: Player,
        depth: u32,
        alpha: f64,
        beta: f64,
        ply: u32,
    ) -> f64 {
        match self.game.phase(state) {
            Phase::Over => {
                let v = self
                    .game
                    .outcome(state)
                    .map_or(0.0, |o| outcome_value(&o, me));
                // A quicker win is worth more, a later loss less.
                v - v.signum() * f64::from(ply)
            }
            Phase::Move(p) | Phase::Roll(p) if p == me => {
                self.negamax(state, p, depth, alpha, beta, ply)
            }
            Phase::Move(p) | Phase::Roll(p) => -self.negamax(state, p, depth, -beta, -alpha, ply),
        }
    }

    /// The value of `state` (not over) from the view of `p`, the player to move or to roll.
    fn negamax(
        &mut self,
        state: &G::State,
        p: Player,
        depth: u32,
        mut alpha: f64,
        mut beta: f64,
        ply: u32,
    ) -> f64 {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            if let Some(deadline) = self.deadline {
                if Instant::now() >= deadline {
                    self.stopped = true;
                }
            }
        }
        if self.stopped {
            return 0.0;
        }
        if depth == 0 {
            self.cut = true;
            return self.estimate(state, p);
        }
        if matches!(self.game.phase(state), Phase::Roll(_)) {
            return self.expectation(state, p, depth, alpha, beta, ply);
        }
        let key = self.game.position_key(state);
        let alpha_in = alpha;
        let mut first = None;
        if let Some(e) = self.table.get(&key).copied() {
            first = Some(e.best as usize);
            if e.depth >= depth {
                let v = from_table(e.value, ply);
                match e.bound {
                    Bound::Exact => return v,
                    Bound::Lower => alpha = alpha.max(v),
                    Bound::Upper => beta = beta.min(v),
                }
                if alpha >= beta {
                    return v;
                }
            }
        }
        let mut moves = Vec::new();
        self.game.legal_moves(state, &mut moves);
        if moves.is_empty() {
            return self.estimate(state, p);
        }
        let order = self.order(state, p, &moves, first, depth);
        let mut best = f64::NEG_INFINITY;
        let mut best_index = order[0];
        for i in order {
            let mut child = state.clone();
            self.game.play(&mut child, &moves[i]);
            let v = self.value_for(&child, p, depth - 1, alpha, beta, ply + 1);
            if self.stopped {
                return 0.0;
            }
            if v > best {
                best = v;
                best_index = i;
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= alpha_in {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if self.table.len() >= TABLE_ENTRIES {
            self.table.clear();
        }
        self.table.insert(
            key,
            Entry {
                depth,
                value: to_table(best, ply),
                bound,
                best: best_index as u32,
            },
        );
        best
    }

    /// The rules' evaluation of an unfinished game, from `p`'s view, kept short of a decided
    /// game's value (Star1 relies on every value lying within ±WIN).
    fn estimate(&self, state: &G::State, p: Player) -> f64 {
        evaluate(self.game, state, p).clamp(-DECIDED, DECIDED)
    }

    /// The mean value over every throw of the dice, from `p`'s view (`p` rolls, then moves),
    /// within the window `(alpha, beta)`: Ballard's Star2. First each throw is probed (its
    /// first move only), which bounds its value from below; when those bounds already put the
    /// mean at `beta` or above, that is the answer. Then each throw is searched (Star1) within
    /// the window its value must reach to bring the mean inside `(alpha, beta)`, given the
    /// throws searched, the others' bounds from below and at best WIN; a value outside ends the
    /// search with a bound.
    fn expectation(
        &mut self,
        state: &G::State,
        p: Player,
        depth: u32,
        alpha: f64,
        beta: f64,
        ply: u32,
    ) -> f64 {
        let mut throws = Vec::with_capacity(self.rolls.len());
        for &(roll, probability) in &self.rolls {
            let mut child = state.clone();
            if self.game.roll(&mut child, &roll).is_err() {
                return self.estimate(state, p);
            }
            throws.push((child, probability, -WIN));
        }
        // The mean if every throw were worth its bound from below.
        let mut least = -WIN;
        for (child, probability, lower) in &mut throws {
            let needed = (beta - least) / *probability + *lower;
            if let Some(v) = self.probe(child, p, depth, needed.min(WIN), ply) {
                if self.stopped {
                    return 0.0;
                }
                least += *probability * (v - *lower);
                *lower = v;
                if least >= beta {
                    return least;
                }
            }
        }
        let mut sum = 0.0;
        let mut unsearched = 1.0;
        for (child, probability, lower) in &throws {
            unsearched -= probability;
            least -= probability * lower;
            let low = (alpha - sum - unsearched * WIN) / probability;
            let high = (beta - least) / probability;
            let v = self.value_for(child, p, depth, low.max(-WIN), high.min(WIN), ply);
            if self.stopped {
                return 0.0;
            }
            sum += probability * v;
            least += probability * v;
            if v <= low {
                return sum + unsearched * WIN;
            }
            if v >= high {
                return least;
            }
        }
        sum
    }

    /// A bound from below on the value of `state` (just thrown, `p` to move) from `p`'s view:
    /// the value of its first move in the search's order, searched below `beta`. `None` when
    /// another player moves, or when the move's value is only a bound from above.
    fn probe(
        &mut self,
        state: &G::State,
        p: Player,
        depth: u32,
        beta: f64,
        ply: u32,
    ) -> Option<f64> {
        if self.game.phase(state) != Phase::Move(p) {
            return None;
        }
        let mut moves = Vec::new();
        self.game.legal_moves(state, &mut moves);
        let first = self
            .table
            .get(&self.game.position_key(state))
            .map(|e| e.best as usize);
        let i = *self.order(state, p, &moves, first, depth).first()?;
        let mut child = state.clone();
        self.game.play(&mut child, &moves[i]);
        let v = self.value_for(&child, p, depth - 1, -WIN, beta, ply + 1);
        (v > -WIN).then_some(v)
    }

    /// The order to search `moves` in: the table's best move, then (deep enough to pay for it)
    /// by the material each gains at once.
    fn order(
        &self,
        state: &G::State,
        p: Player,
        moves: &[G::Move],
        first: Option<usize>,
        depth: u32,
    ) -> Vec<usize> {
        let mut order: Vec<usize> = (0..moves.len()).collect();
        if depth >= 3 && moves.len() > 1 {
            let gains: Vec<f64> = moves
                .iter()
                .map(|mv| {
                    let mut child = state.clone();
                    self.game.play(&mut child, mv);
                    evaluate(self.game, &child, p)
                })
                .collect();
            order.sort_by(|&a, &b| gains[b].total_cmp(&gains[a]));
        }
        if let Some(f) = first.filter(|&f| f < moves.len()) {
            if let Some(at) = order.iter().position(|&i| i == f) {
                order[..=at].rotate_right(1);
            }
        }
        order
    }
}

/// A decided value counts the plies from the root; the table keeps it from the node, so it
/// holds wherever the position recurs.
fn to_table(v: f64, ply: u32) -> f64 {
    if v.abs() > DECIDED {
        v + v.signum() * f64::from(ply)
    } else {
        v
    }
}

fn from_table(v: f64, ply: u32) -> f64 {
    if v.abs() > DECIDED {
        v - v.signum() * f64::from(ply)
    } else {
        v
    }
}
