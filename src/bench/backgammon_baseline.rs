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
/// Slots of the deduplicating table: more than the plays of two different dice (at most two
/// orders × 15 × 15), so a probe always finds a free slot.
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

    /// Bits `i` (1..=25) of the points holding a checker of the mover, and of the points the
    /// opponent blocks (two or more checkers). The blocked points cannot change during a turn.
    fn masks(&self) -> (u32, u32) {
        let (mut own, mut blocked) = (0, 0);
        for i in 1..=BAR {
            own |= ((self.pips[i] > 0) as u32) << i;
            blocked |= ((self.pips[i] < -1) as u32) << i;
        }
        (own, blocked)
    }

    /// Moves a checker of the mover from `from` by `die` (a legal move, from [`sources`]),
    /// hitting a blot; returns the position and its `own` mask.
    fn step(&self, own: u32, from: usize, die: usize) -> (Position, u32) {
        let mut next = *self;
        let mut own = own;
        next.pips[from] -= 1;
        if next.pips[from] == 0 {
            own &= !(1 << from);
        }
        if from > die {
            let to = from - die;
            if next.pips[to] == -1 {
                next.pips[to] = 1;
                next.pips[OPPONENT_BAR] -= 1;
            } else {
                next.pips[to] += 1;
            }
            own |= 1 << to;
        } else {
            next.pips[MOVER_OFF] += 1;
        }
        (next, own)
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

/// The points (as bits) from which the mover can move a checker by `die`: only the bar while a
/// checker is on it; a point whose destination is not blocked; bearing off once all checkers are
/// home, exactly, or from the farthest point with a larger die.
fn sources(own: u32, blocked: u32, die: usize) -> u32 {
    if own & 1 << BAR != 0 {
        return if blocked & 1 << (BAR - die) == 0 {
            1 << BAR
        } else {
            0
        };
    }
    let mut sources = own & !(blocked << die) & !((2 << die) - 1);
    if own != 0 && own < 1 << 7 {
        let farthest = 31 - own.leading_zeros();
        sources |= own & 1 << die;
        if farthest < die as u32 {
            sources |= 1 << farthest;
        }
    }
    sources
}

/// The set bits of `mask`, highest first.
fn points(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let point = 31 - mask.leading_zeros();
            mask &= !(1 << point);
            point as usize
        })
    })
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
        let (own, blocked) = position.masks();
        if high == low {
            self.play_double(position, own, blocked, high, BAR, 0);
        } else {
            self.play_two(position, own, blocked, high, low);
        }
        &self.positions
    }

    /// Doubles: moving the checkers in order of non-increasing source point reaches every
    /// position once (no two such sequences end in the same position), so no deduplication.
    fn play_double(
        &mut self,
        position: &Position,
        own: u32,
        blocked: u32,
        die: usize,
        limit: usize,
        used: usize,
    ) {
        let movable = sources(own, blocked, die) & ((2 << limit) - 1);
        if movable == 0 {
            if used > 0 {
                self.keep_longest(*position, used);
            }
            return;
        }
        for from in points(movable) {
            let (next, next_own) = position.step(own, from, die);
            if used + 1 == 4 {
                self.keep_longest(next, 4);
            } else {
                self.play_double(&next, next_own, blocked, die, from, used + 1);
            }
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

    /// Two different dice: the higher first, then the lower first where that can end
    /// elsewhere; deduplicated. If no play uses both dice, the higher die when it can be played,
    /// else the lower.
    fn play_two(&mut self, position: &Position, own: u32, blocked: u32, high: usize, low: usize) {
        self.next_stamp();
        let high_first = sources(own, blocked, high);
        for from in points(high_first) {
            let (middle, middle_own) = position.step(own, from, high);
            for from in points(sources(middle_own, blocked, low)) {
                self.insert_distinct(middle.step(middle_own, from, low).0);
            }
        }
        for from in points(sources(own, blocked, low)) {
            let (middle, middle_own) = position.step(own, from, low);
            // A point the higher die could leave at the start gives the same two moves as in
            // the first loop (the same result: blocks never change within a turn, and the
            // other order was legal too).
            for from in points(sources(middle_own, blocked, high) & !high_first) {
                self.insert_distinct(middle.step(middle_own, from, high).0);
            }
        }
        if self.positions.is_empty() {
            for die in [high, low] {
                let movable = sources(own, blocked, die);
                if movable != 0 {
                    self.positions
                        .extend(points(movable).map(|from| position.step(own, from, die).0));
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
