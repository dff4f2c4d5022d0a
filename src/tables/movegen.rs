//! Full-turn move generation: every way to play the dice one die at a time, cut to the moves
//! that use as many dice as possible (the larger die when only one can be played), each
//! distinct resulting position listed once. Fixed arrays, an exact 128-bit position key kept up
//! to date step by step, and a reused hash set: no allocation once warmed up.

use super::position::{hit_bit, key_of, Key, Position, BAR, HOME, OFF};
use super::scope::StepView;
use crate::expr::Expr;
use std::cell::RefCell;

/// A full-turn move: up to four single-die steps `[from, to]` in the order played, from the
/// mover's side (`from` 25 is the bar, `to` 0 is off). No steps is the pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct TablesMove {
    steps: [[u8; 2]; 4],
    len: u8,
}

impl TablesMove {
    pub const PASS: TablesMove = TablesMove {
        steps: [[0; 2]; 4],
        len: 0,
    };
    pub fn steps(&self) -> &[[u8; 2]] {
        &self.steps[..usize::from(self.len)]
    }
    pub fn is_pass(&self) -> bool {
        self.len == 0
    }
}

/// A condition on leaving a point, tested before every step from it.
#[derive(Clone, Debug)]
pub struct LeaveRule {
    pub point: u8,
    pub when: Expr,
}

/// The movement rules a rules file chose.
#[derive(Clone, Debug)]
pub struct MoveRules {
    /// This many opposing checkers close a point: 2 where a lone checker is hit, 1 where it
    /// blocks.
    pub block_at: u8,
    /// A landing on a lone opposing checker sends it to the bar.
    pub hits: bool,
    pub leave: Vec<LeaveRule>,
    /// Bit n set: some rule restricts leaving point n.
    pub leave_mask: u32,
}

impl MoveRules {
    /// Whether steps may be generated in non-increasing order of their starting points only.
    /// Under the plain rules a step from a lower point never makes a step from a higher one
    /// legal (nor the reverse illegal), so any legal sequence can be reordered that way with
    /// the same result; a leave rule may depend on what other checkers did first, so then
    /// every order is tried.
    fn ordered(&self) -> bool {
        self.leave.is_empty()
    }
}

/// Resulting positions already listed this turn: open addressing over exact keys.
#[derive(Default)]
struct Seen {
    slots: Vec<Key>,
    used: Vec<usize>,
}

impl Seen {
    fn clear(&mut self) {
        for &i in &self.used {
            self.slots[i] = 0;
        }
        self.used.clear();
    }

    /// Adds a key (never 0: the mover has checkers); true when it was not there yet.
    fn insert(&mut self, key: Key) -> bool {
        if self.used.len() * 2 >= self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = Self::hash(key) & mask;
        loop {
            match self.slots[i] {
                0 => {
                    self.slots[i] = key;
                    self.used.push(i);
                    return true;
                }
                k if k == key => return false,
                _ => i = (i + 1) & mask,
            }
        }
    }

    fn hash(key: Key) -> usize {
        let h = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
        (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize
    }

    fn grow(&mut self) {
        let keys: Vec<Key> = self.used.iter().map(|&i| self.slots[i]).collect();
        self.slots = vec![0; (self.slots.len() * 2).max(256)];
        self.used.clear();
        for k in keys {
            self.insert(k);
        }
    }
}

thread_local! {
    static SEEN: RefCell<Seen> = RefCell::new(Seen::default());
}

/// Writes every legal full-turn move of `mover` with `dice` into `out` (cleared first); a turn
/// without a legal step gives the single pass move.
pub fn generate(
    rules: &MoveRules,
    pos: &Position,
    mover: usize,
    dice: [u8; 2],
    out: &mut Vec<TablesMove>,
) {
    SEEN.with(|seen| {
        let seen = &mut *seen.borrow_mut();
        let [a, b] = dice;
        let mut gen = Gen::new(rules, pos, mover, out, seen);
        if a == b {
            gen.run(&[a; 4]);
        } else {
            gen.run(&[a, b]);
            if gen.best == 1 {
                // Only one die can be played: the larger one when it can.
                gen.run(&[a.max(b)]);
                if gen.best == 0 {
                    gen.run(&[a.min(b)]);
                }
            }
        }
        gen.seen.clear();
    });
}

/// The search over step sequences, on a private copy of the two sides.
struct Gen<'a> {
    rules: &'a MoveRules,
    me: [u8; 26],
    opp: [u8; 26],
    key: Key,
    /// Bit n set: the mover has a checker on point n (1..=24) or the bar (25).
    occupied: u32,
    /// The mover's checkers on the bar or outside the home table.
    behind: u8,
    dice: [u8; 4],
    ndice: usize,
    ordered: bool,
    /// Copies of the rules' `block_at` and `hits`, at hand.
    block_at: u8,
    hits: bool,
    steps: [[u8; 2]; 4],
    /// Most dice used by a move found so far.
    best: usize,
    out: &'a mut Vec<TablesMove>,
    seen: &'a mut Seen,
}

impl<'a> Gen<'a> {
    fn new(
        rules: &'a MoveRules,
        pos: &Position,
        mover: usize,
        out: &'a mut Vec<TablesMove>,
        seen: &'a mut Seen,
    ) -> Self {
        let me = pos.sides[mover];
        Gen {
            rules,
            me,
            opp: pos.sides[1 - mover],
            key: key_of(&me),
            occupied: (1..26).filter(|&n| me[n] > 0).fold(0, |m, n| m | 1 << n),
            behind: pos.behind(mover),
            dice: [0; 4],
            ndice: 0,
            ordered: rules.ordered(),
            block_at: rules.block_at,
            hits: rules.hits,
            steps: [[0; 2]; 4],
            best: 0,
            out,
            seen,
        }
    }

    fn run(&mut self, dice: &[u8]) {
        self.out.clear();
        self.seen.clear();
        self.best = 0;
        self.ndice = dice.len();
        self.dice[..dice.len()].copy_from_slice(dice);
        self.search(0, 0, BAR);
    }

    /// Tries every next step; a sequence that cannot go on is a candidate move.
    fn search(&mut self, depth: usize, used: u8, max_from: usize) {
        let mut extended = false;
        let mut tried = 0u8;
        for i in 0..self.ndice {
            let d = self.dice[i];
            if used & (1 << i) != 0 || tried & (1 << d) != 0 {
                continue;
            }
            tried |= 1 << d;
            let used = used | (1 << i);
            if self.me[BAR] > 0 {
                // Checkers on the bar enter before anything else moves.
                let to = BAR - usize::from(d);
                if let Some(hit) = self.landing(to) {
                    if self.leave_allowed(BAR, d) {
                        extended = true;
                        self.descend(depth, used, BAR, to, hit);
                    }
                }
                continue;
            }
            let top = if self.ordered { max_from } else { 24 };
            // Occupied points up to `top`, highest first.
            let mut points = self.occupied & ((2 << top) - 1);
            while points != 0 {
                let from = 31 - points.leading_zeros() as usize;
                points &= !(1 << from);
                if let Some((to, hit)) = self.target(from, d) {
                    if self.leave_allowed(from, d) {
                        extended = true;
                        self.descend(depth, used, from, to, hit);
                    }
                }
            }
        }
        if !extended {
            self.candidate(depth, self.key);
        }
    }

    /// Where a checker on `from` goes with die `d`, and whether it hits; `None` when blocked or
    /// when it may not bear off.
    #[inline]
    fn target(&self, from: usize, d: u8) -> Option<(usize, bool)> {
        let d = usize::from(d);
        if from > d {
            return self.landing(from - d).map(|hit| (from - d, hit));
        }
        // Bearing off: all checkers home; a larger die only from the highest occupied point.
        if self.behind > 0 || (from < d && self.occupied >> (from + 1) != 0) {
            return None;
        }
        Some((OFF, false))
    }

    /// Whether the mover may land on point `to`, and whether that hits.
    #[inline]
    fn landing(&self, to: usize) -> Option<bool> {
        let c = self.opp[25 - to];
        (c < self.block_at).then_some(self.hits && c == 1)
    }

    #[inline]
    fn leave_allowed(&self, from: usize, die: u8) -> bool {
        self.rules.leave_mask & (1 << from) == 0 || self.leave_rules_allow(from, die)
    }

    #[cold]
    fn leave_rules_allow(&self, from: usize, die: u8) -> bool {
        let view = StepView {
            me: &self.me,
            opp: &self.opp,
            die,
        };
        self.rules
            .leave
            .iter()
            .filter(|r| usize::from(r.point) == from)
            .all(|r| r.when.test(&view))
    }

    fn descend(&mut self, depth: usize, used: u8, from: usize, to: usize, hit: bool) {
        self.steps[depth] = [from as u8, to as u8];
        if depth + 1 == self.ndice {
            // The last die: the move is complete, only its key is needed.
            let mut key = self.key - (1 << (4 * from)) + (1 << (4 * to));
            if hit {
                key |= hit_bit(to);
            }
            self.candidate(depth + 1, key);
            return;
        }
        self.apply(from, to, hit);
        self.search(depth + 1, used, from);
        self.undo(from, to, hit);
    }

    #[inline]
    fn apply(&mut self, from: usize, to: usize, hit: bool) {
        self.me[from] -= 1;
        if self.me[from] == 0 {
            self.occupied &= !(1 << from);
        }
        self.me[to] += 1;
        self.occupied |= (1 << to) & !1;
        self.key = self.key - (1 << (4 * from)) + (1 << (4 * to));
        if from > HOME && to <= HOME {
            self.behind -= 1;
        }
        if hit {
            self.opp[25 - to] -= 1;
            self.opp[BAR] += 1;
            self.key |= hit_bit(to);
        }
    }

    #[inline]
    fn undo(&mut self, from: usize, to: usize, hit: bool) {
        if hit {
            self.opp[25 - to] += 1;
            self.opp[BAR] -= 1;
            self.key &= !hit_bit(to);
        }
        if from > HOME && to <= HOME {
            self.behind += 1;
        }
        self.key = self.key + (1 << (4 * from)) - (1 << (4 * to));
        self.me[to] -= 1;
        if self.me[to] == 0 {
            self.occupied &= !(1 << to);
        }
        self.me[from] += 1;
        self.occupied |= 1 << from;
    }

    /// A sequence that cannot be extended: kept when it uses the most dice seen so far.
    fn candidate(&mut self, depth: usize, key: Key) {
        if depth < self.best {
            return;
        }
        if depth > self.best {
            self.best = depth;
            self.out.clear();
            self.seen.clear();
        }
        if self.seen.insert(key) {
            self.out.push(TablesMove {
                steps: self.steps,
                len: depth as u8,
            });
        }
    }
}

/// The exact key of the position `mv` leads to, for matching a typed move to a legal one.
pub fn result_key(rules: &MoveRules, pos: &Position, mover: usize, mv: &TablesMove) -> Key {
    let mut p = *pos;
    let mut key = 0;
    for &[from, to] in mv.steps() {
        let to = usize::from(to);
        if to != OFF && rules.hits && p.sides[1 - mover][25 - to] == 1 {
            key |= hit_bit(to);
        }
        p.step(mover, usize::from(from), to, rules.hits);
    }
    key | key_of(&p.sides[mover])
}
