//! `mcts`: Monte Carlo tree search with UCT. A decision node tries each move once, then picks the
//! child with the best upper confidence bound; a chance node (dice awaited) draws a throw and
//! follows the child of that throw (made on first sight). One new node an iteration, then a
//! uniformly random playout to the end of the game: +1 for a win, -1 for a loss, 0 for a draw
//! (a playout stopped at its cap scores the material between). The move played is the one most
//! visited.
//!
//! The tree holds no positions: each iteration replays the moves and throws from the root. A
//! [`Memory`] keeps the trees between searches: when the next position asked about is one the
//! last search reached (after the player's move, the throw and the opponent's reply), its
//! subtree becomes the new tree and its visits count from the start.
//!
//! Several threads grow independent trees from the same root, each from its own seed (root
//! parallelism); their root moves' visits and results are added up. The trees share one
//! memory cap ([`Limits::search_bytes`](ludus_core::limits::Limits::search_bytes)), each an
//! equal part of it, so more threads never mean more memory; a full tree still plays out its
//! iterations, adding no node.

use super::eval::reward;
use super::DEFAULT_TIME;
use super::{parse_budget, random_play, Analysis, Budget, Computer, MoveStat, Search, WyRand};
use ludus_core::game::{Evaluator, Game, Phase, Player, Roll};
use ludus_core::limits::LIMITS;
use rand::seq::SliceRandom;
use rand::Rng;
use std::fmt;
use std::time::Instant;

/// The player: `threads` trees grow at once, each within the budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mcts {
    pub budget: Budget,
    pub threads: u32,
}

/// A bare `mcts`.
impl Default for Mcts {
    fn default() -> Self {
        Mcts {
            budget: Budget::Time(DEFAULT_TIME),
            threads: 1,
        }
    }
}

impl Computer for Mcts {
    const NAME: &'static str = "mcts";
    const USAGE: &'static str = "mcts[:BUDGET][:tTHREADS]";
    const THREADS: bool = true;

    fn parse(budget: Option<&str>, threads: u32) -> Result<Self, String> {
        let budget = match budget.map(parse_budget).transpose()? {
            None => Budget::Time(DEFAULT_TIME),
            Some(Budget::Depth(_)) => {
                return Err(
                    "mcts takes a time (250ms, 2s) or a number of iterations (20000), \
                            not a depth"
                        .into(),
                )
            }
            Some(b) => b,
        };
        Ok(Mcts { budget, threads })
    }

    fn budget(&self) -> Option<Budget> {
        Some(self.budget)
    }

    fn search(&self) -> Option<Search> {
        Some(Search {
            counts: "visits",
            scale: "mean result, -1 to 1",
        })
    }

    fn threads(&self) -> u32 {
        self.threads
    }

    fn analyse<G: Evaluator, R: Rng>(
        &self,
        game: &G,
        state: &G::State,
        moves: &[G::Move],
        _all: bool,
        memory: &mut Memory<G>,
        rng: &mut R,
    ) -> Option<Analysis> {
        Some(search(
            game,
            state,
            moves,
            self.budget,
            self.threads,
            memory,
            rng,
        ))
    }
}

impl fmt::Display for Mcts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", Self::NAME, self.budget)?;
        if self.threads != 1 {
            write!(f, ":t{}", self.threads)?;
        }
        Ok(())
    }
}

/// The exploration constant of UCT (results scaled to 0..1).
const EXPLORATION: f64 = 1.0;
/// Steps a playout runs before it is scored by material.
const PLAYOUT_PLIES: u32 = 2000;
const NONE: u32 = u32::MAX;

enum Kind<M> {
    /// `player` chooses among `moves` (shuffled once); `children[i]` follows `moves[i]`, and
    /// the first `tried` moves have one.
    Decision {
        player: Player,
        moves: Vec<M>,
        children: Vec<u32>,
        tried: usize,
    },
    /// Dice are awaited: one child per throw seen (the dice sorted high to low).
    Chance { children: Vec<(Roll, u32)> },
    /// Nothing more to choose: the result, from player 0's view.
    End { result: f64 },
}

impl<M> Kind<M> {
    fn children_mut(&mut self) -> impl Iterator<Item = &mut u32> {
        let (decided, thrown): (&mut [u32], &mut [(Roll, u32)]) = match self {
            Kind::Decision {
                children, tried, ..
            } => (&mut children[..*tried], &mut []),
            Kind::Chance { children } => (&mut [], children),
            Kind::End { .. } => (&mut [], &mut []),
        };
        decided.iter_mut().chain(thrown.iter_mut().map(|(_, c)| c))
    }
}

struct Node<M> {
    kind: Kind<M>,
    visits: u32,
    /// Sum of the results from player 0's view.
    total: f64,
}

impl<M> Node<M> {
    /// Bytes the node holds outside the tree's list of nodes.
    fn held(&self) -> usize {
        use std::mem::size_of;
        match &self.kind {
            Kind::Decision {
                moves, children, ..
            } => moves.capacity() * size_of::<M>() + children.capacity() * size_of::<u32>(),
            Kind::Chance { children } => children.capacity() * size_of::<(Roll, u32)>(),
            Kind::End { .. } => 0,
        }
    }
}

/// One search tree; node 0 is the root (none yet when empty).
struct Tree<M> {
    nodes: Vec<Node<M>>,
    /// Bytes the nodes hold outside the list (their moves and children).
    held: usize,
    /// Bytes the tree may take, list and all; past it, no node is added.
    cap: usize,
}

/// What a player keeps from one search to the next: the position searched and one tree a
/// thread. A fresh `Memory` knows nothing.
pub struct Memory<G: Game> {
    root: Option<G::State>,
    trees: Vec<Tree<G::Move>>,
}

impl<G: Game> Default for Memory<G> {
    fn default() -> Self {
        Memory {
            root: None,
            trees: Vec::new(),
        }
    }
}

/// Searches `state` (awaiting a move of `moves`, non-empty) within `budget` for each of
/// `threads` trees (a time, or a number of iterations; a depth counts as that many thousand
/// iterations), starting from what `memory` kept of the last search and keeping the trees
/// grown, all of them within the search's memory cap.
pub fn search<G: Evaluator, R: Rng>(
    game: &G,
    state: &G::State,
    moves: &[G::Move],
    budget: Budget,
    threads: u32,
    memory: &mut Memory<G>,
    rng: &mut R,
) -> Analysis {
    let bytes = LIMITS.search_bytes;
    search_within(game, state, moves, budget, threads, memory, rng, bytes)
}

/// [`search`], its trees taking `bytes` at most together.
#[allow(clippy::too_many_arguments)]
fn search_within<G: Evaluator, R: Rng>(
    game: &G,
    state: &G::State,
    moves: &[G::Move],
    budget: Budget,
    threads: u32,
    memory: &mut Memory<G>,
    rng: &mut R,
    bytes: usize,
) -> Analysis {
    let started = Instant::now();
    let (deadline, iterations) = match budget {
        Budget::Time(t) => (Some(started + t), u64::MAX),
        Budget::Iterations(n) => (None, n.max(1)),
        Budget::Depth(d) => (None, u64::from(d) * 1000),
    };
    let threads = threads.max(1) as usize;
    let cap = bytes / threads;
    let kept = std::mem::take(&mut memory.trees);
    let mut trees: Vec<Tree<G::Move>> = match memory.root.take() {
        Some(from) if kept.len() == threads => kept
            .into_iter()
            .map(|tree| tree.regrown(game, &from, state, moves))
            .collect(),
        _ => (0..threads).map(|_| Tree::new(cap)).collect(),
    };
    // Seeds drawn in order, so a seeded search gives the same trees however threads are timed.
    let seeds: Vec<u64> = (0..threads).map(|_| rng.gen()).collect();
    let grow = |tree: &mut Tree<G::Move>, seed: u64| {
        tree.grow(game, state, deadline, iterations, &mut WyRand::new(seed))
    };
    let grown: Vec<(u64, u32)> = if threads == 1 {
        vec![grow(&mut trees[0], seeds[0])]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = trees
                .iter_mut()
                .zip(&seeds)
                .map(|(tree, &seed)| scope.spawn(move || grow(tree, seed)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a search thread panicked"))
                .collect()
        })
    };
    let mover = game.phase(state).to_move().unwrap_or(0);
    let sign = if mover == 0 { 1.0 } else { -1.0 };
    let mut visits = vec![0u64; moves.len()];
    let mut totals = vec![0.0; moves.len()];
    for tree in &trees {
        let &Kind::Decision {
            moves: ref tried_moves,
            ref children,
            tried,
            ..
        } = &tree.nodes[0].kind
        else {
            unreachable!("the root is a decision")
        };
        for (mv, &c) in tried_moves.iter().zip(&children[..tried]) {
            let index = moves.iter().position(|m| m == mv).expect("a legal move");
            visits[index] += u64::from(tree.nodes[c as usize].visits);
            totals[index] += tree.nodes[c as usize].total;
        }
    }
    let mut stats: Vec<MoveStat> = (0..moves.len())
        .map(|index| MoveStat {
            index,
            value: match visits[index] {
                0 => 0.0,
                n => sign * totals[index] / n as f64,
            },
            visits: visits[index],
            exact: false,
        })
        .collect();
    stats.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.value.total_cmp(&a.value))
            .then(a.index.cmp(&b.index))
    });
    memory.root = Some(state.clone());
    memory.trees = trees;
    Analysis {
        best: stats[0].index,
        value: stats[0].value,
        nodes: grown.iter().map(|g| g.0).sum(),
        depth: grown.iter().map(|g| g.1).max().unwrap_or(0),
        moves: stats,
    }
}

impl<M: Clone + PartialEq> Tree<M> {
    fn new(cap: usize) -> Self {
        Tree {
            nodes: Vec::new(),
            held: 0,
            cap,
        }
    }

    /// The bytes the tree would take with `more` bytes held and, when `grow` is set, room
    /// for one more node in its list (which doubles when full).
    fn bytes_with(&self, more: usize, grow: bool) -> usize {
        let room = match self.nodes.capacity() {
            full if grow && self.nodes.len() == full => (2 * full).max(4),
            room => room,
        };
        room * std::mem::size_of::<Node<M>>() + self.held + more
    }

    /// The tree for a search of `to` (awaiting one of `moves`), grown before from `from`: the
    /// subtree of `to` when the tree reached it, else an empty tree.
    fn regrown<G: Game<Move = M>>(
        mut self,
        game: &G,
        from: &G::State,
        to: &G::State,
        moves: &[M],
    ) -> Self {
        let Some(node) = self.find(game, from, to) else {
            return Tree::new(self.cap);
        };
        // A throw matched in another order must have given the same moves.
        match &self.nodes[node as usize].kind {
            Kind::Decision { moves: listed, .. }
                if listed.len() == moves.len() && listed.iter().all(|m| moves.contains(m)) =>
            {
                self.keep(node);
                self
            }
            _ => Tree::new(self.cap),
        }
    }

    /// The node of `to` among those reached from `from` (the root) in the plies between them.
    /// The tree keeps a throw's dice high to low; `to` may hold them in any order.
    fn find<G: Game<Move = M>>(&self, game: &G, from: &G::State, to: &G::State) -> Option<u32> {
        let plies = game.plies(to);
        if self.nodes.is_empty() || game.plies(from) > plies {
            return None;
        }
        let mut stack = vec![(0u32, from.clone())];
        while let Some((node, state)) = stack.pop() {
            if state == *to {
                return Some(node);
            }
            match &self.nodes[node as usize].kind {
                Kind::Decision {
                    moves,
                    children,
                    tried,
                    ..
                } if game.plies(&state) < plies => {
                    for (mv, &c) in moves.iter().zip(&children[..*tried]) {
                        let mut child = state.clone();
                        game.play(&mut child, mv);
                        stack.push((c, child));
                    }
                }
                Kind::Chance { children } => {
                    for &(roll, c) in children {
                        for (k, order) in orderings(roll).iter().enumerate() {
                            let mut child = state.clone();
                            if game.roll(&mut child, order).is_err() {
                                continue;
                            }
                            if k == 0 {
                                stack.push((c, child));
                            } else if child == *to {
                                return Some(c);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// Keeps only the subtree of `root`, renumbered from 0.
    fn keep(&mut self, root: u32) {
        let mut old = std::mem::take(&mut self.nodes);
        let mut take = |i: u32| {
            let empty = Node {
                kind: Kind::End { result: 0.0 },
                visits: 0,
                total: 0.0,
            };
            std::mem::replace(&mut old[i as usize], empty)
        };
        self.nodes.push(take(root));
        let mut next = 0;
        while next < self.nodes.len() {
            let mut kind = std::mem::replace(&mut self.nodes[next].kind, Kind::End { result: 0.0 });
            for c in kind.children_mut() {
                self.nodes.push(take(*c));
                *c = self.nodes.len() as u32 - 1;
            }
            self.nodes[next].kind = kind;
            next += 1;
        }
        self.held = self.nodes.iter().map(Node::held).sum();
    }

    /// Runs iterations from `root` until the deadline or the number of iterations; returns the
    /// iterations run and the deepest node reached.
    fn grow<G: Evaluator<Move = M>, R: Rng>(
        &mut self,
        game: &G,
        root: &G::State,
        deadline: Option<Instant>,
        iterations: u64,
        rng: &mut R,
    ) -> (u64, u32) {
        if self.nodes.is_empty() {
            self.add(game, root, rng);
        }
        let mut path = Vec::new();
        let mut moves = Vec::new();
        let mut done = 0u64;
        let mut depth = 0u32;
        while done < iterations {
            if let Some(deadline) = deadline {
                if done > 0 && Instant::now() >= deadline {
                    break;
                }
            }
            let reached = self.iterate(game, root, deadline, &mut path, &mut moves, rng);
            depth = depth.max(reached);
            done += 1;
        }
        (done, depth)
    }

    /// One iteration from the root position: select, expand, play out, back up. Returns the
    /// depth reached in the tree.
    fn iterate<G: Evaluator<Move = M>, R: Rng>(
        &mut self,
        game: &G,
        root: &G::State,
        deadline: Option<Instant>,
        path: &mut Vec<u32>,
        moves: &mut Vec<M>,
        rng: &mut R,
    ) -> u32 {
        let mut state = root.clone();
        path.clear();
        path.push(0);
        let mut node = 0usize;
        let playout = |state, rng: &mut R, moves: &mut Vec<M>| {
            let end = random_play(game, state, rng, PLAYOUT_PLIES, moves, deadline);
            reward(game, &end, 0)
        };
        let result = loop {
            match &mut self.nodes[node].kind {
                Kind::End { result } => break *result,
                Kind::Chance { children } => {
                    let Some(dice) = game.dice() else {
                        break reward(game, &state, 0);
                    };
                    let mut values = dice.sample(rng).values().to_vec();
                    values.sort_unstable_by(|a, b| b.cmp(a));
                    let roll = Roll::new(&values).expect("a throw of the dice");
                    if game.roll(&mut state, &roll).is_err() {
                        break reward(game, &state, 0);
                    }
                    if let Some(&(_, c)) = children.iter().find(|(r, _)| *r == roll) {
                        node = c as usize;
                        path.push(c);
                        continue;
                    }
                    if let Some(c) = self.add(game, &state, rng) {
                        let Kind::Chance { children } = &mut self.nodes[node].kind else {
                            unreachable!()
                        };
                        let before = children.capacity();
                        children.push((roll, c));
                        let grown = children.capacity() - before;
                        self.held += grown * std::mem::size_of::<(Roll, u32)>();
                        path.push(c);
                    }
                    break playout(state, rng, moves);
                }
                Kind::Decision {
                    player,
                    moves: choices,
                    tried,
                    ..
                } => {
                    if *tried < choices.len() {
                        let i = *tried;
                        game.play(&mut state, &choices[i]);
                        if let Some(c) = self.add(game, &state, rng) {
                            let Kind::Decision {
                                children, tried, ..
                            } = &mut self.nodes[node].kind
                            else {
                                unreachable!()
                            };
                            children[i] = c;
                            *tried += 1;
                            path.push(c);
                        }
                        break playout(state, rng, moves);
                    }
                    let sign = if *player == 0 { 1.0 } else { -1.0 };
                    let log_n = f64::from(self.nodes[node].visits.max(1)).ln();
                    let Kind::Decision {
                        moves: choices,
                        children,
                        ..
                    } = &self.nodes[node].kind
                    else {
                        unreachable!()
                    };
                    let mut best = 0;
                    let mut best_score = f64::NEG_INFINITY;
                    for (i, &c) in children.iter().enumerate() {
                        let child = &self.nodes[c as usize];
                        let n = f64::from(child.visits.max(1));
                        let mean = (sign * child.total / n + 1.0) / 2.0;
                        let score = mean + EXPLORATION * (log_n / n).sqrt();
                        if score > best_score {
                            best_score = score;
                            best = i;
                        }
                    }
                    game.play(&mut state, &choices[best]);
                    node = children[best] as usize;
                    path.push(children[best]);
                }
            }
        };
        for &n in path.iter() {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            node.total += result;
        }
        path.len() as u32 - 1
    }

    /// A new node for `state`; `None` when it would not fit in the tree's bytes.
    fn add<G: Evaluator<Move = M>, R: Rng>(
        &mut self,
        game: &G,
        state: &G::State,
        rng: &mut R,
    ) -> Option<u32> {
        if self.bytes_with(0, true) > self.cap {
            return None;
        }
        let kind = match game.phase(state) {
            Phase::Over => Kind::End {
                result: reward(game, state, 0),
            },
            Phase::Roll(_) => Kind::Chance {
                children: Vec::new(),
            },
            Phase::Move(player) => {
                let mut moves = Vec::new();
                game.legal_moves(state, &mut moves);
                if moves.is_empty() {
                    Kind::End {
                        result: reward(game, state, 0),
                    }
                } else {
                    moves.shuffle(rng);
                    moves.shrink_to_fit();
                    let children = vec![NONE; moves.len()];
                    Kind::Decision {
                        player,
                        moves,
                        children,
                        tried: 0,
                    }
                }
            }
        };
        let node = Node {
            kind,
            visits: 0,
            total: 0.0,
        };
        let held = node.held();
        if self.bytes_with(held, true) > self.cap {
            return None;
        }
        self.nodes.push(node);
        self.held += held;
        Some(self.nodes.len() as u32 - 1)
    }
}

/// Every distinct order of a throw's dice, the tree's own (high to low) first.
fn orderings(roll: Roll) -> Vec<Roll> {
    let mut values = roll.values().to_vec();
    let mut out = Vec::new();
    loop {
        out.push(Roll::new(&values).expect("a throw of the dice"));
        // The next order down, lexicographically (the standard previous permutation).
        let Some(i) = (1..values.len()).rev().find(|&i| values[i - 1] > values[i]) else {
            return out;
        };
        let j = (i..values.len())
            .rev()
            .find(|&j| values[j] < values[i - 1])
            .unwrap();
        values.swap(i - 1, j);
        values[i..].reverse();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludus_core::game::{Dice, Ending, Guards, MatchStanding, Outcome, RollError};
    use std::time::Duration;

    /// Take 1 to 8 from a heap of 200; who takes the last wins. Wide and deep enough that
    /// every iteration of a search adds a node.
    struct Take {
        /// The time listing a ply's moves takes (a rules file's slow plies).
        pause: Duration,
    }

    const TAKE: Take = Take {
        pause: Duration::ZERO,
    };

    #[derive(Clone, Debug, PartialEq)]
    struct Heap {
        left: u32,
        to_move: Player,
        plies: u32,
    }

    impl Game for Take {
        type State = Heap;
        type Move = u8;
        fn name(&self) -> &str {
            "take"
        }
        fn player_names(&self) -> [&str; 2] {
            ["A", "B"]
        }
        fn new_game(&self, first: Player) -> Heap {
            Heap {
                left: 200,
                to_move: first,
                plies: 0,
            }
        }
        fn next_game(&self, _: &Heap, _: Player) -> Option<Heap> {
            None
        }
        fn next_starter(&self, _: &Heap) -> Option<Player> {
            None
        }
        fn match_standing(&self, _: &Heap) -> Option<MatchStanding> {
            None
        }
        fn phase(&self, s: &Heap) -> Phase {
            match s.left {
                0 => Phase::Over,
                _ => Phase::Move(s.to_move),
            }
        }
        fn plies(&self, s: &Heap) -> u32 {
            s.plies
        }
        fn starter(&self, _: &Heap) -> Player {
            0
        }
        fn outcome(&self, s: &Heap) -> Option<Outcome> {
            (s.left == 0).then(|| Outcome {
                winner: Some(1 - s.to_move),
                scores: [0, 0],
                reason: "took the last".into(),
                ending: Ending::NoMove,
            })
        }
        fn legal_moves(&self, s: &Heap, out: &mut Vec<u8>) {
            std::thread::sleep(self.pause);
            out.clear();
            out.extend((1..=8).filter(|&n| u32::from(n) <= s.left));
        }
        fn play(&self, s: &mut Heap, n: &u8) {
            s.left -= u32::from(*n);
            s.to_move = 1 - s.to_move;
            s.plies += 1;
        }
        fn dice(&self) -> Option<Dice> {
            None
        }
        fn roll(&self, _: &mut Heap, _: &Roll) -> Result<(), RollError> {
            Ok(())
        }
        fn pieces(&self, _: &Heap) -> u32 {
            0
        }
        fn guards(&self) -> Guards {
            Guards {
                plies: 1000,
                plies_by_rules: false,
                games: None,
            }
        }
        fn set_max_plies(&mut self, _: u32) {}
    }

    impl Evaluator for Take {
        fn material(&self, _: &Heap, _: Player) -> i32 {
            0
        }
    }

    /// The bytes the trees `memory` kept take.
    fn kept(memory: &Memory<Take>) -> Vec<usize> {
        memory.trees.iter().map(|t| t.bytes_with(0, false)).collect()
    }

    #[test]
    fn the_threads_of_a_search_share_one_memory_cap() {
        let start = TAKE.new_game(0);
        let mut moves = Vec::new();
        TAKE.legal_moves(&start, &mut moves);
        let search = |threads: u32, memory: &mut Memory<Take>| {
            let budget = Budget::Iterations(3_000);
            let mut rng = WyRand::new(1);
            search_within(&TAKE, &start, &moves, budget, threads, memory, &mut rng, 1 << 20)
        };
        // One thread: 3,000 iterations fit in the cap, a node each.
        let mut one = Memory::default();
        search(1, &mut one);
        assert!(one.trees[0].nodes.len() > 3_000, "{}", one.trees[0].nodes.len());
        let alone = kept(&one)[0];
        assert!(alone <= 1 << 20, "{alone} bytes");
        // Eight threads: eight times the iterations, the same bytes in all.
        let mut eight = Memory::default();
        let analysis = search(8, &mut eight);
        assert_eq!(analysis.nodes, 8 * 3_000);
        let bytes = kept(&eight);
        assert!(bytes.iter().sum::<usize>() <= 1 << 20, "{bytes:?}");
        assert!(bytes.iter().all(|&b| b > alone / 8 / 2), "{bytes:?}");
    }

    #[test]
    fn a_time_budget_holds_when_the_plies_are_slow() {
        // Each ply lists its moves in 10 ms: a playout (some 45 plies) takes about 0.45 s, and
        // the first iteration's alone would overrun a 20 ms budget twentyfold.
        let slow = Take {
            pause: Duration::from_millis(10),
        };
        let start = slow.new_game(0);
        let mut moves = Vec::new();
        slow.legal_moves(&start, &mut moves);
        let budget = Budget::Time(Duration::from_millis(20));
        let began = Instant::now();
        let mut memory = Memory::default();
        let mut rng = WyRand::new(1);
        search_within(&slow, &start, &moves, budget, 1, &mut memory, &mut rng, 1 << 20);
        let took = began.elapsed();
        // The budget, a root to expand and a few plies between looks at the clock.
        assert!(took < Duration::from_millis(300), "{took:?}");
    }

    #[test]
    fn a_throw_comes_in_each_distinct_order_once() {
        let texts = |values: &[u8]| -> Vec<String> {
            let roll = Roll::new(values).unwrap();
            orderings(roll).iter().map(Roll::to_string).collect()
        };
        assert_eq!(texts(&[5, 2]), ["5-2", "2-5"]);
        assert_eq!(texts(&[4, 4]), ["4-4"]);
        assert_eq!(texts(&[3, 3, 1]), ["3-3-1", "3-1-3", "1-3-3"]);
        assert_eq!(orderings(Roll::new(&[4, 3, 2, 1]).unwrap()).len(), 24);
    }
}
