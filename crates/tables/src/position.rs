//! The board's geometry and the compact position: for each side, its checkers by its own point
//! number, with the borne-off checkers, the bar and the off-board pool in the same fixed array
//! (wildbg-style), so a step is a few array writes.

/// Most points a board may have.
pub const MAX_POINTS: usize = 36;
/// Index of the borne-off checkers in a side's array.
pub const OFF: usize = 0;
/// Index of the checkers on the bar: hit checkers, which enter before anything else moves.
pub const BAR: usize = MAX_POINTS + 1;
/// Index of the checkers waiting off the board to enter (Acey-deucey), which enter when their
/// owner likes while the others move on.
pub const POOL: usize = MAX_POINTS + 2;
// The move generator finds where a checker enters from by the parity of its place.
const _: () = assert!(!BAR.is_multiple_of(2) && POOL.is_multiple_of(2));
/// Places of a side's array: off, the points, bar and pool.
pub const SLOTS: usize = MAX_POINTS + 3;
/// Most checkers a side may have: counts then fit in four bits (see `Key`).
pub const MAX_CHECKERS: u8 = ludus_core::limits::LIMITS.checkers;

/// A side's checkers: `side[n]` on its own point n (1..=points), `side[OFF]`, `side[BAR]`,
/// `side[POOL]`.
pub type Side = [u8; SLOTS];

/// `[board] direction`: how the two sides' ways round the board meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Direction {
    /// The sides move towards each other (Backgammon).
    Opposite,
    /// Both move the same way round from opposite corners (Long Nardy, Fevga).
    Same,
    /// Both move along one path, from the same end to the same home (Russian Backgammon,
    /// Cab e Quinal).
    Shared,
}

/// The board: how many points, the home table's size, how the two numberings meet, and where
/// a hit checker goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub points: usize,
    pub home: usize,
    pub direction: Direction,
    /// `BAR` (it enters before anything else moves) or `POOL` (it enters when its owner likes).
    pub hit_to: usize,
    /// The point a checker in the pool counts its die from (one beyond the last point, as from
    /// the bar, unless `[board] pool_from` says otherwise).
    pub pool_from: usize,
    /// `[stacks] named_from = "start"`: a die of n names the n-th point of the way, not point n.
    pub stacks_from_start: bool,
}

impl Board {
    /// A board of `points` points (even, 2..=MAX_POINTS) with the home table `1..=home`, a hit
    /// checker going to the bar.
    pub fn new(points: usize, home: usize, direction: Direction) -> Board {
        Board {
            points,
            home,
            direction,
            hit_to: BAR,
            pool_from: points + 1,
            stacks_from_start: false,
        }
    }

    /// The point a die of `d` turns over (`[stacks]`), and the die naming point `d`: the same
    /// number counted from the end of the way, or from its start.
    #[inline]
    pub fn stack_point(&self, d: usize) -> usize {
        if self.stacks_from_start {
            self.points + 1 - d
        } else {
            d
        }
    }

    /// The field of a side's `Position::stacked` word holding point n's stacked checkers: the
    /// number of the die naming it, if n is a point and that is at most `STACK_POINTS`.
    #[inline]
    pub fn stack_field(&self, n: usize) -> Option<usize> {
        (1..=self.points)
            .contains(&n)
            .then(|| self.stack_point(n))
            .filter(|&f| f <= STACK_POINTS)
    }

    /// The standard board: 24 points, a home table of 6, sides moving towards each other.
    pub fn standard() -> Board {
        Board::new(24, 6, Direction::Opposite)
    }

    /// The other side's number of point `n` (1..=points) of either side: the same point
    /// counted from the other end, half the board on round it, or the same number on a shared
    /// path.
    #[inline]
    pub fn across(&self, n: usize) -> usize {
        let half = self.points / 2;
        match (self.direction, n > half) {
            (Direction::Opposite, _) => self.points + 1 - n,
            (Direction::Same, true) => n - half,
            (Direction::Same, false) => n + half,
            (Direction::Shared, _) => n,
        }
    }

    /// Bits 1..=points: the board's points as a set.
    #[inline]
    pub fn point_bits(&self) -> u64 {
        (2 << self.points) - 2
    }

    /// `across` for a set of points (bits 1..=points) all at once.
    #[inline]
    pub fn across_bits(&self, points: u64) -> u64 {
        let points = points & self.point_bits();
        let half = self.points / 2;
        match self.direction {
            Direction::Same => {
                let low = (2 << half) - 2;
                (points >> half & low) | (points & low) << half
            }
            // Reversed, bit n is at 63 - n; `across(n)` is `self.points + 1 - n`.
            Direction::Opposite => points.reverse_bits() >> (62 - self.points),
            Direction::Shared => points,
        }
    }

    /// The point a checker entering from the bar or the pool counts from: one beyond the last.
    #[inline]
    pub fn entry(&self) -> usize {
        self.points + 1
    }

    /// The distance from `from` to the end of the way: the point's number, one beyond the last
    /// point for the bar, `pool_from` for the pool.
    #[inline]
    pub fn distance(&self, from: usize) -> usize {
        match from {
            POOL => self.pool_from,
            BAR => self.entry(),
            _ => from,
        }
    }
}

impl Board {
    /// The points a step `[from, to]` covers: the die it used, unless it bore off with a larger
    /// one (a step `[n, n]` turning checkers over used a die of n).
    pub fn step_length(&self, [from, to]: [u8; 2]) -> u8 {
        if from == to {
            // Checkers turned over (`[stacks]`) by the die naming their point.
            return self.stack_point(usize::from(from)) as u8;
        }
        (self.distance(usize::from(from)) - usize::from(to)) as u8
    }

    /// The pip count of `side`: the distance its checkers still have to travel, the bar and the
    /// pool counting as one beyond the last point.
    pub fn pips(&self, side: &Side) -> i32 {
        (1..SLOTS)
            .map(|n| self.distance(n) as i32 * i32::from(side[n]))
            .sum()
    }

    /// The checkers of `side` in its home table.
    pub fn in_home(&self, side: &Side) -> i32 {
        side[1..=self.home].iter().map(|&c| i32::from(c)).sum()
    }

    /// The points where `side` has a single checker (its blots).
    pub fn blots(&self, side: &Side) -> i32 {
        side[1..=self.points].iter().filter(|&&c| c == 1).count() as i32
    }
}

/// The places whose bits are set in `bits`, lowest first.
pub fn points_of(bits: u64) -> impl Iterator<Item = usize> {
    let mut left = bits;
    std::iter::from_fn(move || {
        let n = left.trailing_zeros() as usize;
        left &= left.wrapping_sub(1);
        (n < 64).then_some(n)
    })
}

/// Bit n set for each place n of `side` holding at least `k` checkers (1 <= k <= 16), found
/// eight places at a time.
#[inline]
pub fn places_with(side: &Side, k: u8) -> u64 {
    let mut bytes = [0; 40];
    bytes[..SLOTS].copy_from_slice(side);
    let add = u64::from_ne_bytes([0x80 - k; 8]);
    let mut bits = 0;
    for (i, chunk) in bytes.chunks_exact(8).enumerate() {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
        // A count is at most 15, so adding 128 - k sets a byte's top bit exactly when the
        // count is k or more, and never carries into the next byte.
        let tops = (word + add) >> 7 & 0x0101_0101_0101_0101;
        // Gathers the eight flags, byte i's into bit i of the top byte.
        bits |= (tops.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * i);
    }
    bits
}

/// Both sides' checkers, which are pinned, and what each side's `[[remember]]` rules hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub sides: [Side; 2],
    /// Bit n of `pinned[p]`: p's single checker on p's point n lies pinned under the other
    /// side's checkers (it may not move until they have all left).
    pub pinned: [u64; 2],
    /// Bit i of `remembered[p]`: the rules' i-th `[[remember]]` condition has held after a
    /// step of p's in this game.
    pub remembered: [u8; 2],
    /// Four bits for each of p's points 1..=STACK_POINTS in `stacked[p]`: how many of its
    /// checkers there are stacked (`[stacks]`).
    pub stacked: [u64; 2],
}

/// The points that may hold stacked checkers: 1 to this (four bits each in a word).
pub const STACK_POINTS: usize = 10;
/// Most points of a board with stacks: the key keeps them in the fields of the points beyond
/// (25 to 34), empty on such a board.
pub const STACK_BOARD_POINTS: usize = 24;

/// The stacked checkers on point n of a side's `stacked` word.
#[inline]
pub fn stacked_at(stacked: u64, n: usize) -> u8 {
    if n <= STACK_POINTS {
        (stacked >> (4 * n) & 0xF) as u8
    } else {
        0
    }
}

/// The stacked checkers of a side's `stacked` word, on every point.
pub fn stacked_total(stacked: u64) -> u8 {
    (1..=STACK_POINTS).map(|n| stacked_at(stacked, n)).sum()
}

/// Most `[[remember]]` rules a game may have (bits of `Position::remembered`).
pub const MAX_REMEMBERED: usize = 8;
/// Most points of a board whose rules remember: the key keeps the bits in the fields of the
/// two last points, empty on such a board.
pub const REMEMBER_POINTS: usize = MAX_POINTS - 2;

impl Default for Position {
    fn default() -> Self {
        Position {
            sides: [[0; SLOTS]; 2],
            pinned: [0; 2],
            remembered: [0; 2],
            stacked: [0; 2],
        }
    }
}

/// What a landing does to a lone opposing checker (`[moves] lone_checker`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Lone {
    /// Sends it to the bar; two or more block a point.
    Hit,
    /// Nothing: a single checker blocks.
    #[serde(rename = "blocks")]
    Block,
    /// Pins it where it stands; two or more block a point.
    Pin,
    /// Nothing: a single checker owns its point and blocks it, while two or more own nothing
    /// and the opponent may land beside them (Blocking Backgammon).
    #[serde(rename = "owns")]
    Own,
}

impl Lone {
    /// Whether `c` checkers of a side on a point close it to the other side.
    pub fn blocks(self, c: u8) -> bool {
        match self {
            Lone::Block => c >= 1,
            Lone::Hit | Lone::Pin => c >= 2,
            Lone::Own => c == 1,
        }
    }
}

impl Position {
    /// Checkers of `p` still in play (on the board, the bar or in the pool).
    pub fn left(&self, p: usize) -> u8 {
        self.sides[p][1..].iter().sum()
    }

    /// Checkers of `p` outside its home table `1..=home`, the bar and pool included (they must
    /// come home before any bear-off).
    pub fn behind(&self, p: usize, home: usize) -> u8 {
        self.sides[p][home + 1..].iter().sum()
    }

    /// The first point (in player 0's numbering) where both sides stand, if any.
    pub fn shared_point(&self, board: &Board) -> Option<usize> {
        (1..=board.points).find(|&n| self.sides[0][n] > 0 && self.sides[1][board.across(n)] > 0)
    }

    /// The position from `mover`'s side.
    pub fn turn(&self, mover: usize) -> Turn {
        Turn {
            me: self.sides[mover],
            opp: self.sides[1 - mover],
            my_pins: self.pinned[mover],
            their_pins: self.pinned[1 - mover],
            remembered: self.remembered[mover],
        }
    }

    /// Puts back a side's view of this position.
    pub fn set_turn(&mut self, mover: usize, t: &Turn) {
        self.sides[mover] = t.me;
        self.sides[1 - mover] = t.opp;
        self.pinned[mover] = t.my_pins;
        self.pinned[1 - mover] = t.their_pins;
        self.remembered[mover] = t.remembered;
    }
}

/// A position as the side to move sees it: the one definition of a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    pub me: Side,
    pub opp: Side,
    /// Bit n: the mover's checker on its point n is pinned.
    pub my_pins: u64,
    /// Bit n: the opponent's checker on the opponent's point n is pinned.
    pub their_pins: u64,
    /// The mover's `[[remember]]` bits.
    pub remembered: u8,
}

impl Turn {
    /// Whether the mover may land on its point `to`, and whether that hits or pins a lone
    /// opposing checker.
    #[inline]
    pub fn landing(&self, board: &Board, lone: Lone, to: usize) -> Option<bool> {
        let a = board.across(to);
        let c = self.opp[a];
        match lone {
            Lone::Hit => (c < 2).then_some(c == 1),
            Lone::Block => (c == 0).then_some(false),
            Lone::Own => (c != 1).then_some(false),
            Lone::Pin => match c {
                0 => Some(false),
                // Already pinned by the mover: the mover's point.
                1 if self.their_pins & (1 << a) != 0 => Some(false),
                // A lone checker on top of the mover's pinned one holds the point.
                1 if self.me[to] > 0 => None,
                1 => Some(true),
                _ => None,
            },
        }
    }

    /// `landing` for every point at once: the points (bits 1..=points) the mover may not land
    /// on, and those where landing hits or pins.
    pub fn landing_bits(&self, board: &Board, lone: Lone) -> (u64, u64) {
        let theirs = |k| board.across_bits(places_with(&self.opp, k));
        let (some, two) = (theirs(1), theirs(2));
        let one = some & !two;
        match lone {
            Lone::Hit => (two, one),
            Lone::Block => (some, 0),
            Lone::Own => (one, 0),
            Lone::Pin => {
                let free = one & !board.across_bits(self.their_pins);
                let mine = places_with(&self.me, 1) & board.point_bits();
                // A lone checker on top of the mover's pinned one holds the point.
                (two | (free & mine), free & !mine)
            }
        }
    }

    /// Hits the lone opposing checker on each of the mover's points in `bits` (a step's hits
    /// from afar, `[[moves.hit]]`), sending it where hit checkers go.
    pub fn hit_afar(&mut self, board: &Board, bits: u64) {
        for n in points_of(bits) {
            self.opp[board.across(n)] = 0;
            self.opp[board.hit_to] += 1;
        }
    }

    /// Takes back `hit_afar(board, bits)`.
    pub fn unhit_afar(&mut self, board: &Board, bits: u64) {
        for n in points_of(bits) {
            self.opp[board.across(n)] = 1;
            self.opp[board.hit_to] -= 1;
        }
    }

    /// Moves one checker from `from` to `to` (checked legal by the caller); `lands_on` says
    /// the landing hits or pins a lone opposing checker. Leaving a point for good frees the
    /// checker pinned there.
    #[inline(always)]
    pub fn step(&mut self, board: &Board, lone: Lone, from: usize, to: usize, lands_on: bool) {
        self.me[from] -= 1;
        self.me[to] += 1;
        if lone == Lone::Pin && from <= board.points && self.me[from] == 0 {
            self.their_pins &= !(1 << board.across(from));
        }
        if lands_on {
            let a = board.across(to);
            match lone {
                Lone::Hit => {
                    self.opp[a] = 0;
                    self.opp[board.hit_to] += 1;
                }
                Lone::Pin => self.their_pins |= 1 << a,
                Lone::Block | Lone::Own => {}
            }
        }
    }
}

/// The stacked checkers (`[stacks]`) as the side to move sees them, kept beside its `Turn`
/// by the games that stack (the others never touch them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stacked {
    /// The mover's, four bits a point (`Position::stacked`).
    pub mine: u64,
    pub theirs: u64,
}

impl Stacked {
    pub fn of(pos: &Position, mover: usize) -> Stacked {
        Stacked {
            mine: pos.stacked[mover],
            theirs: pos.stacked[1 - mover],
        }
    }

    /// Puts them back into `pos`.
    pub fn put(&self, pos: &mut Position, mover: usize) {
        pos.stacked[mover] = self.mine;
        pos.stacked[1 - mover] = self.theirs;
    }

    /// What the step `t.step(board, lone, from, to, lands_on)` about to be played does to
    /// them: the checker leaving `from` is a stacked one when none there lies flat, and it
    /// lies flat where it lands; a lone checker hit leaves its stack.
    pub fn before_step(
        &mut self,
        t: &Turn,
        board: &Board,
        lone: Lone,
        [from, to]: [usize; 2],
        lands_on: bool,
    ) {
        if let Some(f) = board.stack_field(from) {
            let stacked = stacked_at(self.mine, f);
            if stacked > 0 && stacked == t.me[from] {
                self.mine -= 1 << (4 * f);
            }
        }
        if lands_on && lone == Lone::Hit {
            if let Some(f) = board.stack_field(board.across(to)) {
                self.theirs &= !(0xF << (4 * f));
            }
        }
    }

    /// Turns over up to `k` of the mover's checkers on point n (one with a stack field), of
    /// the `me` there: stacked ones laid down (`unstack`), or flat ones stacked again.
    pub fn turn_over(&mut self, board: &Board, me: &Side, n: usize, k: u8, unstack: bool) {
        let Some(f) = board.stack_field(n) else {
            return;
        };
        let stacked = stacked_at(self.mine, f);
        if unstack {
            self.mine -= u64::from(k.min(stacked)) << (4 * f);
        } else {
            self.mine += u64::from(k.min(me[n] - stacked)) << (4 * f);
        }
    }
}

/// The resulting position of a turn as one exact value, for listing each position once: the
/// mover's counts as 4-bit fields (slots 0..=38: three words, the last holding slots 32..=38 in
/// its low 28 bits) and, in the last word's high 36 bits, the points where a lone opposing
/// checker was hit, or is pinned by this turn. The opponent's side after the turn follows from
/// those, so equal keys mean equal positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct Key([u64; 3]);

/// Where the marks start in a key's last word: the bit of point n is `MARKS + n - 1`.
const MARKS: usize = 4 * (SLOTS - 32);
const MARK_MASK: u64 = !((1 << MARKS) - 1);

impl Key {
    /// The key of a side before any step of the turn.
    pub fn of(side: &Side) -> Key {
        // Word by word in a register: once a turn, and a loop through memory showed up there.
        let word = |slots: &[u8]| slots.iter().rev().fold(0, |w, &c| w << 4 | u64::from(c));
        Key([word(&side[..16]), word(&side[16..32]), word(&side[32..])])
    }

    /// One checker at `slot` as a key: each word written whole, never one chosen by index,
    /// so that a key stays in registers (an indexed store followed by the copy of the key
    /// into the table stalled the generator's hot path).
    #[inline]
    fn one_at(slot: usize) -> [u64; 3] {
        let one = 1 << (4 * (slot % 16));
        let word = slot / 16;
        [0, 1, 2].map(|w| one * u64::from(word.min(2) == w))
    }

    /// One more checker at `slot` (no count goes past 15, so fields never carry).
    #[inline]
    pub fn add(&mut self, slot: usize) {
        for (word, one) in self.0.iter_mut().zip(Key::one_at(slot)) {
            *word += one;
        }
    }

    /// One checker fewer at `slot`.
    #[inline]
    pub fn remove(&mut self, slot: usize) {
        for (word, one) in self.0.iter_mut().zip(Key::one_at(slot)) {
            *word -= one;
        }
    }

    /// Marks point n (1..=MAX_POINTS).
    #[inline]
    pub fn mark(&mut self, n: usize) {
        self.0[2] |= 1 << (MARKS + n - 1);
    }

    #[inline]
    pub fn unmark(&mut self, n: usize) {
        self.0[2] &= !(1 << (MARKS + n - 1));
    }

    /// The same key with the mover's `[[remember]]` bits, kept in the fields of the two last
    /// slots of points (empty on a board of at most `REMEMBER_POINTS` points).
    #[inline]
    pub fn with_remembered(&self, bits: u8) -> Key {
        const AT: usize = 4 * (MAX_POINTS - 1 - 32);
        let mut k = *self;
        k.0[2] = (k.0[2] & !(0xFF << AT)) | u64::from(bits) << AT;
        k
    }

    /// The same key with the mover's stacked checkers (`Position::stacked`), kept in the
    /// fields of the points 25 to 34 (empty on a board of at most `STACK_BOARD_POINTS`):
    /// points 1 to 7 in the second word, 8 to 10 in the third.
    #[inline]
    pub fn with_stacked(&self, stacked: u64) -> Key {
        const LOW: u64 = 0xFFF_FFFF;
        let mut k = *self;
        k.0[1] = (k.0[1] & !(LOW << 36)) | (stacked >> 4 & LOW) << 36;
        k.0[2] = (k.0[2] & !0xFFF) | (stacked >> 32 & 0xFFF);
        k
    }

    /// The marked points: bit n for point n.
    pub fn marks(&self) -> u64 {
        (self.0[2] & MARK_MASK) >> (MARKS - 1)
    }

    /// The same key without its marks.
    pub fn counts_only(&self) -> Key {
        Key([self.0[0], self.0[1], self.0[2] & !MARK_MASK])
    }

    /// A well-mixed hash for the table of positions seen: every bit of the key reaches the
    /// high bits (a plain multiplication leaves a word's high bits out of them, and with them
    /// the counts on the farther points, which made long probes in games with many moves).
    #[inline]
    pub fn hash(&self) -> u64 {
        let a = self.0[0] ^ self.0[2].rotate_left(29) ^ 0x9E37_79B9_7F4A_7C15;
        let b = self.0[1] ^ 0xE703_7ED1_A0B4_28DB;
        let m = u128::from(a) * u128::from(b);
        (m >> 64) as u64 ^ m as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn points_of_lists_the_bits_set() {
        assert_eq!(points_of(0).count(), 0);
        assert_eq!(
            points_of(1 << 3 | 1 << 17 | 1 << 63).collect::<Vec<_>>(),
            [3, 17, 63]
        );
    }

    #[test]
    fn places_with_counts_each_place() {
        let mut side = [0; SLOTS];
        side[OFF] = 3;
        side[5] = 1;
        side[17] = 2;
        side[BAR] = 15;
        side[POOL] = 2;
        assert_eq!(
            places_with(&side, 1),
            1 | 1 << 5 | 1 << 17 | 1 << BAR | 1 << POOL
        );
        assert_eq!(places_with(&side, 2), 1 | 1 << 17 | 1 << BAR | 1 << POOL);
        assert_eq!(places_with(&side, 15), 1 << BAR);
    }

    #[test]
    fn landing_bits_agree_with_landing() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for points in [4, 12, 24, 36] {
            for direction in [Direction::Opposite, Direction::Same, Direction::Shared] {
                let board = Board::new(points, points / 4, direction);
                for n in 1..=points {
                    let back = board.across_bits(board.across_bits(1 << n));
                    assert_eq!(board.across_bits(1 << n), 1 << board.across(n));
                    assert_eq!(back, 1 << n);
                }
                for _ in 0..2000 {
                    let mut t = Turn {
                        me: [0; SLOTS],
                        opp: [0; SLOTS],
                        my_pins: 0,
                        their_pins: 0,
                        remembered: 0,
                    };
                    for n in 1..=points {
                        t.me[n] = rng.gen_range(0..3u8) * u8::from(rng.gen_range(0..3u8) == 0);
                        t.opp[n] = rng.gen_range(0..3u8) * u8::from(rng.gen_range(0..3u8) == 0);
                        if rng.gen_range(0..4u8) == 0 {
                            t.their_pins |= 1 << n;
                        }
                    }
                    for lone in [Lone::Hit, Lone::Block, Lone::Pin, Lone::Own] {
                        let (closed, lands) = t.landing_bits(&board, lone);
                        for n in 1..=points {
                            let want = t.landing(&board, lone, n);
                            assert_eq!(closed >> n & 1 == 1, want.is_none(), "{n} {lone:?}");
                            assert_eq!(lands >> n & 1 == 1, want == Some(true), "{n} {lone:?}");
                        }
                        assert_eq!((closed | lands) & !board.point_bits(), 0);
                    }
                }
            }
        }
    }
}
