//! `mcts`: Monte Carlo tree search with UCT. A decision node tries each move once, then picks the
//! child with the best upper confidence bound; a chance node (dice awaited) draws a throw and
//! follows the child of that throw (made on first sight). One new node an iteration, then a
//! uniformly random playout to the end of the game: +1 for a win, -1 for a loss, 0 for a draw
//! (a playout stopped at its cap scores the material between). The move played is the one most
//! visited.
//!
//! The tree holds no positions: each iteration replays the moves and throws from the root.

use super::eval::reward;
use super::{random_play, Analysis, Budget, MoveStat};
use crate::game::{Material, Phase, Player, Roll};
use rand::seq::SliceRandom;
use rand::Rng;
use std::time::Instant;

/// The exploration constant of UCT (results scaled to 0..1).
const EXPLORATION: f64 = 1.0;
/// Steps a playout runs before it is scored by material.
const PLAYOUT_PLIES: u32 = 2000;
/// Nodes the tree may hold; past it, iterations still play out but add no node.
const MAX_NODES: usize = 1 << 21;
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

struct Node<M> {
    kind: Kind<M>,
    visits: u32,
    /// Sum of the results from player 0's view.
    total: f64,
}

struct Tree<'g, G: Material> {
    game: &'g G,
    nodes: Vec<Node<G::Move>>,
    moves: Vec<G::Move>,
}

/// Searches `state` (awaiting a move of `moves`, non-empty) within `budget` (a time or a number
/// of iterations; a depth counts as that many thousand iterations).
pub fn search<G: Material, R: Rng>(
    game: &G,
    state: &G::State,
    moves: &[G::Move],
    budget: Budget,
    rng: &mut R,
) -> Analysis {
    let started = Instant::now();
    let (deadline, iterations) = match budget {
        Budget::Time(t) => (Some(started + t), u64::MAX),
        Budget::Iterations(n) => (None, n.max(1)),
        Budget::Depth(d) => (None, u64::from(d) * 1000),
    };
    let mover = game.phase(state).to_move().unwrap_or(0);
    let mut tree = Tree {
        game,
        nodes: Vec::new(),
        moves: Vec::new(),
    };
    // The root keeps the caller's order of moves, so its children map back to indices.
    tree.nodes.push(Node {
        kind: Kind::Decision {
            player: mover,
            moves: moves.to_vec(),
            children: vec![NONE; moves.len()],
            tried: 0,
        },
        visits: 0,
        total: 0.0,
    });
    let mut done = 0u64;
    let mut depth = 0u32;
    while done < iterations {
        if let Some(deadline) = deadline {
            if done > 0 && Instant::now() >= deadline {
                break;
            }
        }
        depth = depth.max(tree.iterate(state, rng));
        done += 1;
    }
    let Kind::Decision { children, .. } = &tree.nodes[0].kind else {
        unreachable!("the root is a decision")
    };
    let sign = if mover == 0 { 1.0 } else { -1.0 };
    let mut stats: Vec<MoveStat> = children
        .iter()
        .enumerate()
        .map(|(index, &c)| {
            let (visits, value) = match tree.nodes.get(c as usize) {
                Some(n) if n.visits > 0 => (n.visits, sign * n.total / f64::from(n.visits)),
                _ => (0, 0.0),
            };
            MoveStat {
                index,
                value,
                visits: u64::from(visits),
                exact: false,
            }
        })
        .collect();
    stats.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.value.total_cmp(&a.value))
            .then(a.index.cmp(&b.index))
    });
    Analysis {
        best: stats[0].index,
        value: stats[0].value,
        nodes: done,
        depth,
        moves: stats,
    }
}

impl<G: Material> Tree<'_, G> {
    /// One iteration from the root position: select, expand, play out, back up. Returns the
    /// depth reached in the tree.
    fn iterate<R: Rng>(&mut self, root: &G::State, rng: &mut R) -> u32 {
        let mut state = root.clone();
        let mut path = vec![0u32];
        let mut node = 0usize;
        let result = loop {
            match &mut self.nodes[node].kind {
                Kind::End { result } => break *result,
                Kind::Chance { children } => {
                    let Some(dice) = self.game.dice() else {
                        break reward(self.game, &state, 0);
                    };
                    let mut values = dice.sample(rng).values().to_vec();
                    values.sort_unstable_by(|a, b| b.cmp(a));
                    let roll = Roll::new(&values).expect("a throw of the dice");
                    if self.game.roll(&mut state, &roll).is_err() {
                        break reward(self.game, &state, 0);
                    }
                    if let Some(&(_, c)) = children.iter().find(|(r, _)| *r == roll) {
                        node = c as usize;
                        path.push(c);
                        continue;
                    }
                    if let Some(c) = self.add(&state, rng) {
                        let Kind::Chance { children } = &mut self.nodes[node].kind else {
                            unreachable!()
                        };
                        children.push((roll, c));
                        path.push(c);
                    }
                    break self.playout(state, rng);
                }
                Kind::Decision {
                    player,
                    moves,
                    tried,
                    ..
                } => {
                    if *tried < moves.len() {
                        let i = *tried;
                        let mv = moves[i].clone();
                        self.game.play(&mut state, &mv);
                        if let Some(c) = self.add(&state, rng) {
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
                        break self.playout(state, rng);
                    }
                    let sign = if *player == 0 { 1.0 } else { -1.0 };
                    let log_n = f64::from(self.nodes[node].visits.max(1)).ln();
                    let Kind::Decision {
                        moves, children, ..
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
                    self.game.play(&mut state, &moves[best]);
                    node = children[best] as usize;
                    path.push(children[best]);
                }
            }
        };
        for &n in &path {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            node.total += result;
        }
        path.len() as u32 - 1
    }

    /// A new node for `state`; `None` when the tree is full.
    fn add<R: Rng>(&mut self, state: &G::State, rng: &mut R) -> Option<u32> {
        if self.nodes.len() >= MAX_NODES {
            return None;
        }
        let kind = match self.game.phase(state) {
            Phase::Over => Kind::End {
                result: reward(self.game, state, 0),
            },
            Phase::Roll(_) => Kind::Chance {
                children: Vec::new(),
            },
            Phase::Move(player) => {
                let mut moves = Vec::new();
                self.game.legal_moves(state, &mut moves);
                if moves.is_empty() {
                    Kind::End {
                        result: reward(self.game, state, 0),
                    }
                } else {
                    moves.shuffle(rng);
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
        self.nodes.push(Node {
            kind,
            visits: 0,
            total: 0.0,
        });
        Some(self.nodes.len() as u32 - 1)
    }

    /// Random play to the end (or the cap); the result from player 0's view.
    fn playout<R: Rng>(&mut self, state: G::State, rng: &mut R) -> f64 {
        let end = random_play(self.game, state, rng, PLAYOUT_PLIES, &mut self.moves);
        reward(self.game, &end, 0)
    }
}
