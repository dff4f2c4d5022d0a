//! A hand-written standard backgammon move generator (in the style of wildbg), kept only as the
//! speed baseline the interpreter is measured against.
//!
//! A position is seen from the player to move: 26 signed counts (the mover's checkers positive,
//! the opponent's negative), point 1..=24 with the mover's home at 1..=6, the mover's bar at 25
//! and the opponent's bar at 0; the two borne-off counts sit in the padding. After each turn the
//! board is flipped to the other player's view. A turn lists every distinct position the dice can
//! reach, with the standard rules: use as many dice as possible, the higher die when only one can
//! be used, bar first, bear off only with every checker home.

use super::WyRand;

const BAR: usize = 25;
const OPPONENT_BAR: usize = 0;
const MOVER_OFF: usize = 26;
const OPPONENT_OFF: usize = 27;
const CHECKERS: i8 = 15;
/// Slots of the deduplicating table; far more than the distinct positions of one roll.
const SLOTS: usize = 1024;

/// A position from the mover's view (see the module comment). Aligned and padded to 32 bytes so
/// copies, comparisons and hashing work on whole words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C, align(32))]
pub struct Position {
    pips: [i8; 32],
}

impl Position {
    /// The opening position.
    pub fn start() -> Position {
        let mut pips = [0i8; 32];
        for (point, count) in [(24, 2), (13, 5), (8, 3), (6, 5)] {
            pips[point] = count;
            pips[25 - point] = -count;
        }
        Position { pips }
    }

    /// A position from the mover's view: `mover[n - 1]` and `opponent[n - 1]` are the checkers on
    /// the mover's point `n`.
    pub fn from_points(
        mover: [u8; 24],
        opponent: [u8; 24],
        bars: [u8; 2],
        off: [u8; 2],
    ) -> Position {
        let mut pips = [0i8; 32];
        for n in 1..=24 {
            pips[n] = mover[n - 1] as i8 - opponent[n - 1] as i8;
        }
        pips[BAR] = bars[0] as i8;
        pips[OPPONENT_BAR] = -(bars[1] as i8);
        pips[MOVER_OFF] = off[0] as i8;
        pips[OPPONENT_OFF] = off[1] as i8;
        Position { pips }
    }

    /// The same position from the other player's view.
    pub fn flip(&self) -> Position {
        let mut pips = [0i8; 32];
        for (i, pip) in pips[..=BAR].iter_mut().enumerate() {
            *pip = -self.pips[BAR - i];
        }
        pips[MOVER_OFF] = self.pips[OPPONENT_OFF];
        pips[OPPONENT_OFF] = self.pips[MOVER_OFF];
        Position { pips }
    }

    /// The checkers the mover has borne off.
    pub fn mover_off(&self) -> u8 {
        self.pips[MOVER_OFF] as u8
    }

    /// Checkers of [mover, opponent] on the board, on the bar and borne off (15 each, always).
    pub fn checkers(&self) -> [i32; 2] {
        let on = |sign: i8| -> i32 { (0..=BAR).map(|i| (self.pips[i] * sign).max(0) as i32).sum() };
        [
            on(1) + self.pips[MOVER_OFF] as i32,
            on(-1) + self.pips[OPPONENT_OFF] as i32,
        ]
    }

    /// The mover's farthest checker (25 when on the bar), 0 when all are borne off.
    fn farthest(&self) -> usize {
        (1..=BAR).rev().find(|&i| self.pips[i] > 0).unwrap_or(0)
    }

    /// Moves a checker of the mover from `from` by `die`, when legal; `farthest` is
    /// `self.farthest()`.
    fn step(&self, from: usize, die: usize, farthest: usize) -> Option<Position> {
        let mut next = *self;
        next.pips[from] -= 1;
        if from > die {
            let to = from - die;
            match self.pips[to] {
                ..=-2 => return None,
                -1 => {
                    next.pips[to] = 1;
                    next.pips[OPPONENT_BAR] -= 1;
                }
                _ => next.pips[to] += 1,
            }
        } else {
            // Bearing off: all home, and a die larger than needed only from the farthest point.
            if farthest > 6 || (from < die && from != farthest) {
                return None;
            }
            next.pips[MOVER_OFF] += 1;
        }
        Some(next)
    }

    /// Points the mover may move from, farthest first, no farther than `limit`: only the bar
    /// while a checker is on it.
    fn sources(&self, farthest: usize, limit: usize) -> impl Iterator<Item = usize> + '_ {
        let (low, high) = if farthest == BAR {
            (BAR, BAR)
        } else {
            (1, limit.min(farthest))
        };
        (low..=high).rev().filter(|&i| self.pips[i] > 0)
    }

    fn hash_slot(&self) -> usize {
        let word =
            |i: usize| u64::from_le_bytes(std::array::from_fn(|b| self.pips[8 * i + b] as u8));
        let mixed = word(0).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ word(1).rotate_left(21)
            ^ word(2).wrapping_mul(0xBF58_476D_1CE4_E5B9)
            ^ word(3).rotate_left(43);
        (mixed.wrapping_mul(0x94D0_49BB_1331_11EB) >> 54) as usize
    }
}

/// Lists the positions a roll can reach, reusing its buffers from turn to turn.
#[derive(Clone, Debug)]
pub struct MoveGenerator {
    positions: Vec<Position>,
    /// Dice used by the positions listed so far (doubles keep only the longest plays).
    dice_used: usize,
    /// Deduplicating hash table of `stamp << 16 | index + 1` into `positions`; a slot whose
    /// stamp is not the current one is empty, so clearing is a stamp increment.
    slots: Box<[u32; SLOTS]>,
    stamp: u16,
}

impl Default for MoveGenerator {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveGenerator {
    pub fn new() -> MoveGenerator {
        MoveGenerator {
            positions: Vec::with_capacity(256),
            dice_used: 0,
            slots: Box::new([0; SLOTS]),
            stamp: 0,
        }
    }

    /// Every distinct position (still from the mover's view) the mover can reach with `dice`;
    /// empty when the mover cannot move.
    pub fn positions_after(&mut self, position: &Position, dice: [u8; 2]) -> &[Position] {
        self.positions.clear();
        self.dice_used = 0;
        let (high, low) = (dice[0].max(dice[1]) as usize, dice[0].min(dice[1]) as usize);
        if high == low {
            self.play_double(position, high, BAR, 0);
        } else {
            self.play_two(position, high, low);
        }
        &self.positions
    }

    /// Doubles: moving the checkers in order of non-increasing source point reaches every
    /// position once (no two such sequences end in the same position), so no deduplication.
    fn play_double(&mut self, position: &Position, die: usize, limit: usize, used: usize) {
        let farthest = position.farthest();
        let mut moved = false;
        for from in position.sources(farthest, limit) {
            if let Some(next) = position.step(from, die, farthest) {
                moved = true;
                if used + 1 == 4 {
                    self.keep_longest(next, 4);
                } else {
                    self.play_double(&next, die, from, used + 1);
                }
            }
        }
        if !moved && used > 0 {
            self.keep_longest(*position, used);
        }
    }

    fn keep_longest(&mut self, position: Position, used: usize) {
        if used > self.dice_used {
            self.positions.clear();
            self.dice_used = used;
        }
        if used == self.dice_used {
            self.positions.push(position);
        }
    }

    /// Two different dice: both orders, deduplicated; if no play uses both, the higher die when
    /// it can be played, else the lower.
    fn play_two(&mut self, position: &Position, high: usize, low: usize) {
        self.next_stamp();
        let farthest = position.farthest();
        for (first, second) in [(high, low), (low, high)] {
            for from in position.sources(farthest, BAR) {
                if let Some(middle) = position.step(from, first, farthest) {
                    let middle_farthest = middle.farthest();
                    for from in middle.sources(middle_farthest, BAR) {
                        if let Some(last) = middle.step(from, second, middle_farthest) {
                            self.insert_distinct(last);
                        }
                    }
                }
            }
        }
        if self.positions.is_empty() {
            for die in [high, low] {
                self.positions.extend(
                    position
                        .sources(farthest, BAR)
                        .filter_map(|from| position.step(from, die, farthest)),
                );
                if !self.positions.is_empty() {
                    return;
                }
            }
        }
    }

    fn next_stamp(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots.fill(0);
            self.stamp = 1;
        }
    }

    fn insert_distinct(&mut self, position: Position) {
        let stamp = (self.stamp as u32) << 16;
        let mut slot = position.hash_slot();
        loop {
            let entry = self.slots[slot];
            if entry & 0xFFFF_0000 != stamp {
                self.slots[slot] = stamp | (self.positions.len() as u32 + 1);
                self.positions.push(position);
                return;
            }
            if self.positions[(entry & 0xFFFF) as usize - 1] == position {
                return;
            }
            slot = (slot + 1) % SLOTS;
        }
    }
}

/// Random games: each turn a uniform roll, then a uniform choice among the distinct positions.
#[derive(Clone, Debug, Default)]
pub struct Backgammon {
    generator: MoveGenerator,
}

impl Backgammon {
    pub fn new() -> Backgammon {
        Backgammon::default()
    }

    /// Plays one random game from the opening position; returns the number of turns (a turn
    /// with no legal move counts too).
    pub fn play_random(&mut self, rng: &mut WyRand) -> u64 {
        let mut position = Position::start();
        let mut turns = 0;
        loop {
            turns += 1;
            let dice = [rng.below(6) as u8 + 1, rng.below(6) as u8 + 1];
            let reachable = self.generator.positions_after(&position, dice);
            if !reachable.is_empty() {
                position = reachable[rng.below(reachable.len() as u32) as usize];
                if position.pips[MOVER_OFF] == CHECKERS {
                    return turns;
                }
            }
            position = position.flip();
        }
    }
}
