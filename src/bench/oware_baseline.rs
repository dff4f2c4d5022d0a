//! A hand-written Oware (Abapa) engine with OpenSpiel's rules, kept only as the speed baseline
//! the interpreter is measured against.
//!
//! The twelve pits live in one `u128`, one byte a pit in sowing order, seen from the player to
//! move: the mover's houses in bytes 0..6, the opponent's in bytes 6..12 (the rows swap after
//! every move). Sowing is one addition of a precomputed mask and the legal moves come from one
//! addition and one `and`.

use super::WyRand;

/// A pit never holds more than the 48 seeds of the game, so byte lanes never overflow.
const PITS: usize = 12;
const HOUSES: usize = 6;
const SEEDS: u8 = 48;
/// The six bytes of one row.
const ROW: u64 = 0xFFFF_FFFF_FFFF;
/// The high bit of each of a row's six bytes.
const ROW_HIGH_BITS: u64 = 0x8080_8080_8080;

/// `RUN[origin][n]`: one seed in each of the `n` pits after `origin`, counter-clockwise
/// (`n` = 11 is one lap, which skips the origin).
const RUN: [[u128; PITS]; PITS] = {
    let mut run = [[0u128; PITS]; PITS];
    let mut origin = 0;
    while origin < PITS {
        let mut n = 1;
        while n < PITS {
            run[origin][n] = run[origin][n - 1] | 1u128 << (8 * ((origin + n) % PITS));
            n += 1;
        }
        origin += 1;
    }
    run
};

/// `SOW[house][seeds]`: what sowing `seeds` from the mover's `house` adds to the board (the
/// house loses them; wrapping arithmetic is exact because every resulting byte is in range).
const SOW: [[u128; SEEDS as usize + 1]; HOUSES] = {
    let mut sow = [[0u128; SEEDS as usize + 1]; HOUSES];
    let mut origin = 0;
    while origin < HOUSES {
        let mut seeds = 1;
        while seeds <= SEEDS as usize {
            let (laps, rest) = (seeds / (PITS - 1), seeds % (PITS - 1));
            sow[origin][seeds] = (RUN[origin][PITS - 1] * laps as u128 + RUN[origin][rest])
                .wrapping_sub((seeds as u128) << (8 * origin));
            seeds += 1;
        }
        origin += 1;
    }
    sow
};

/// `LAST[house][seeds]`: the pit the last seed falls in.
const LAST: [[u8; SEEDS as usize + 1]; HOUSES] = {
    let mut last = [[0u8; SEEDS as usize + 1]; HOUSES];
    let mut origin = 0;
    while origin < HOUSES {
        let mut seeds = 1;
        while seeds <= SEEDS as usize {
            let rest = seeds % (PITS - 1);
            last[origin][seeds] = ((origin + if rest == 0 { PITS - 1 } else { rest }) % PITS) as u8;
            seeds += 1;
        }
        origin += 1;
    }
    last
};

/// Per-byte addends that set a byte's high bit exactly when house `k` holds at least
/// `need(k)` seeds: any seed at all, or, when the opponent's row is empty, enough seeds to
/// reach it (`6 - k`), the feeding rule.
const fn threshold_addend(feeding: bool) -> u64 {
    let mut add = 0u64;
    let mut k = 0;
    while k < HOUSES {
        let need = if feeding { HOUSES - k } else { 1 };
        add |= ((0x80 - need) as u64) << (8 * k);
        k += 1;
    }
    add
}
/// `NTH_HOUSE[mask][i]`: the `i`-th house (counting from 0) of a mask of houses; the number of
/// houses at index [`COUNT`].
const COUNT: usize = 7;
const NTH_HOUSE: [[u8; 8]; 64] = {
    let mut table = [[0u8; 8]; 64];
    let mut mask = 0;
    while mask < 64 {
        let mut house = 0;
        while house < HOUSES {
            if mask >> house & 1 == 1 {
                table[mask][table[mask][COUNT] as usize] = house as u8;
                table[mask][COUNT] += 1;
            }
            house += 1;
        }
        mask += 1;
    }
    table
};

/// Four seeds in every pit.
const START: u128 = (RUN[0][PITS - 1] | 1) * 4;
const ANY_SEED: u64 = threshold_addend(false);
const FEEDS: u64 = threshold_addend(true);

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// A player captured more than half the seeds, or both captured half.
    Majority,
    /// A position repeated since the last capture; each side took the seeds of its own row.
    Repetition,
    /// The player to move had no legal move; each side took the seeds of its own row.
    NoLegalMove,
}

/// A game in progress, with the positions seen since the last capture.
#[derive(Clone, Debug)]
pub struct Oware {
    /// From the mover's view (see the module comment).
    pits: u128,
    scores: [u8; 2],
    to_move: usize,
    /// The mover's legal houses as the high bits of their bytes (see [`ROW_HIGH_BITS`]).
    legal: u64,
    end: Option<End>,
    /// Positions (pits and mover) since the last capture; scores are equal within them.
    history: Vec<u128>,
    /// A bit per hash of the positions in `history`, so most positions skip the scan.
    seen_filter: [u64; 32],
}

impl Default for Oware {
    fn default() -> Self {
        Self::new()
    }
}

impl Oware {
    /// The starting position, four seeds a pit, South to move.
    pub fn new() -> Oware {
        let mut game = Oware {
            pits: 0,
            scores: [0, 0],
            to_move: 0,
            legal: 0,
            end: None,
            history: Vec::with_capacity(256),
            seen_filter: [0; 32],
        };
        game.restart();
        game
    }

    /// Back to the starting position, keeping the allocations.
    pub fn restart(&mut self) {
        self.pits = START;
        self.scores = [0, 0];
        self.to_move = 0;
        self.end = None;
        self.forget_positions();
        self.remember(self.key());
        self.legal = self.legal_mask();
    }

    /// South's houses then North's, in sowing order.
    pub fn pits(&self) -> [u8; PITS] {
        let bytes = self.pits.to_le_bytes();
        std::array::from_fn(|i| bytes[(i + HOUSES * self.to_move) % PITS])
    }
    pub fn scores(&self) -> [u8; 2] {
        self.scores
    }
    pub fn to_move(&self) -> usize {
        self.to_move
    }
    pub fn end(&self) -> Option<End> {
        self.end
    }
    /// The winner once the game is over (`None` also for the 24–24 draw).
    pub fn winner(&self) -> Option<usize> {
        self.end?;
        match self.scores[0].cmp(&self.scores[1]) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        }
    }
    /// The mover's legal houses (0..6, counted in sowing order from the mover's first house).
    pub fn legal_houses(&self) -> impl Iterator<Item = usize> + '_ {
        (0..HOUSES).filter(|k| self.houses_mask() >> k & 1 == 1)
    }

    /// Sows from the mover's `house` (which must be legal), captures, and ends the game when
    /// the rules say so.
    #[inline]
    pub fn play(&mut self, house: usize) {
        debug_assert!(
            self.legal >> (8 * house + 7) & 1 == 1,
            "illegal house {house}"
        );
        let seeds = self.mover_row() >> (8 * house) & 0xFF;
        self.pits = self.pits.wrapping_add(SOW[house][seeds as usize]);
        let last = LAST[house][seeds as usize] as usize;
        let captured = last >= HOUSES && self.capture(last - HOUSES);
        self.pits = self.pits >> 48 | (self.pits & ROW as u128) << 48;
        self.to_move = 1 - self.to_move;

        if captured {
            self.forget_positions();
            self.remember(self.key());
            let half = SEEDS / 2;
            let [s0, s1] = self.scores;
            if s0 > half || s1 > half || (s0 == half && s1 == half) {
                return self.finish(End::Majority);
            }
        } else {
            let key = self.key();
            if self.was_seen(key) {
                return self.finish(End::Repetition);
            }
            self.remember(key);
        }
        self.legal = self.legal_mask();
        if self.legal == 0 {
            self.finish(End::NoLegalMove);
        }
    }

    /// Plays uniformly random moves to the end; returns the number of plies.
    pub fn play_random(&mut self, rng: &mut WyRand) -> u64 {
        let mut plies = 0;
        while self.end.is_none() {
            // Tables instead of a bit-clearing loop: the loop's random trip count would cost a
            // branch misprediction a ply.
            let houses = &NTH_HOUSE[self.houses_mask()];
            self.play(houses[rng.below(houses[COUNT] as u32) as usize] as usize);
            plies += 1;
        }
        plies
    }

    /// The legal houses as bits 0..6.
    fn houses_mask(&self) -> usize {
        // Moves the high bit of byte k to bit 56 + k (the partial products never overlap).
        const GATHER: u64 = 1 << 56 | 1 << 49 | 1 << 42 | 1 << 35 | 1 << 28 | 1 << 21;
        ((self.legal >> 7).wrapping_mul(GATHER) >> 56) as usize
    }

    fn mover_row(&self) -> u64 {
        self.pits as u64 & ROW
    }

    fn opponent_row(&self) -> u64 {
        (self.pits >> 48) as u64
    }

    fn legal_mask(&self) -> u64 {
        let addend = if self.opponent_row() == 0 {
            FEEDS
        } else {
            ANY_SEED
        };
        (self.mover_row() + addend) & ROW_HIGH_BITS
    }

    /// The mover captures backwards from the opponent's `house` while pits hold 2 or 3.
    /// Returns whether anything was captured.
    fn capture(&mut self, house: usize) -> bool {
        let row = self.opponent_row();
        let mut taken = 0u8;
        let mut cleared = 0u64;
        for house in (0..=house).rev() {
            let seeds = (row >> (8 * house)) as u8;
            if !(2..=3).contains(&seeds) {
                break;
            }
            taken += seeds;
            cleared |= 0xFF << (8 * house);
        }
        // Taking every seed of the row is a grand slam: legal, but it captures nothing.
        if taken == 0 || row & !cleared == 0 {
            return false;
        }
        self.pits &= !((cleared as u128) << 48);
        self.scores[self.to_move] += taken;
        true
    }

    /// Each side takes the seeds left in its own row.
    fn finish(&mut self, end: End) {
        // Byte sum of a row: its six bytes add up in the top byte (sums stay below 256).
        let seeds = |row: u64| (row.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u8;
        self.scores[self.to_move] += seeds(self.mover_row());
        self.scores[1 - self.to_move] += seeds(self.opponent_row());
        self.pits = 0;
        self.legal = 0;
        self.end = Some(end);
    }

    fn key(&self) -> u128 {
        self.pits | (self.to_move as u128) << 127
    }

    fn filter_bit(key: u128) -> (usize, u64) {
        let h = ((key as u64) ^ ((key >> 64) as u64).rotate_left(29))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            >> 53;
        ((h >> 6) as usize, 1 << (h & 63))
    }

    fn was_seen(&self, key: u128) -> bool {
        let (word, bit) = Self::filter_bit(key);
        self.seen_filter[word] & bit != 0 && self.history.contains(&key)
    }

    fn remember(&mut self, key: u128) {
        let (word, bit) = Self::filter_bit(key);
        self.seen_filter[word] |= bit;
        self.history.push(key);
    }

    fn forget_positions(&mut self) {
        self.history.clear();
        self.seen_filter = [0; 32];
    }
}
