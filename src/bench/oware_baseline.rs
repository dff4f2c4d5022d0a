//! A hand-written Oware (Abapa) engine with OpenSpiel's rules, kept only as the speed baseline
//! the interpreter is measured against.
//!
//! The twelve pits live in one `u128`, one byte a pit (South's houses 0..6 in bytes 0..6,
//! North's in bytes 6..12, in sowing order), so sowing is one addition of a precomputed mask
//! and the legal moves of a row come from one addition and one `and`.

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
    pits: u128,
    scores: [u8; 2],
    to_move: usize,
    /// The mover's legal houses as the high bits of their bytes (see [`ROW_HIGH_BITS`]).
    legal: u64,
    end: Option<End>,
    /// Positions (pits and mover) since the last capture; scores are equal within it.
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

    pub fn pits(&self) -> [u8; PITS] {
        std::array::from_fn(|i| self.pit(i))
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
        (0..HOUSES).filter(|k| self.legal >> (8 * k + 7) & 1 == 1)
    }

    /// Sows from the mover's `house` (which must be legal), captures, and ends the game when
    /// the rules say so.
    pub fn play(&mut self, house: usize) {
        debug_assert!(
            self.legal >> (8 * house + 7) & 1 == 1,
            "illegal house {house}"
        );
        let mover = self.to_move;
        let origin = mover * HOUSES + house;
        let seeds = self.pit(origin) as usize;
        let (laps, rest) = (seeds / (PITS - 1), seeds % (PITS - 1));
        self.pits &= !(0xFFu128 << (8 * origin));
        self.pits += RUN[origin][PITS - 1] * laps as u128 + RUN[origin][rest];
        let last = (origin + if rest == 0 { PITS - 1 } else { rest }) % PITS;
        self.to_move = 1 - mover;

        if last / HOUSES != mover && self.capture(mover, last) {
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
            let mut legal = self.legal;
            for _ in 0..rng.below(legal.count_ones()) {
                legal &= legal - 1;
            }
            self.play(legal.trailing_zeros() as usize / 8);
            plies += 1;
        }
        plies
    }

    fn pit(&self, i: usize) -> u8 {
        (self.pits >> (8 * i)) as u8
    }

    fn row(&self, player: usize) -> u64 {
        (self.pits >> (48 * player)) as u64 & ROW
    }

    fn legal_mask(&self) -> u64 {
        let addend = if self.row(1 - self.to_move) == 0 {
            FEEDS
        } else {
            ANY_SEED
        };
        (self.row(self.to_move) + addend) & ROW_HIGH_BITS
    }

    /// `mover` captures backwards from `last` (in the opponent's row) while pits hold 2 or 3, unless
    /// that would take every seed of the row (a grand slam, legal but capturing nothing).
    /// Returns whether anything was captured.
    fn capture(&mut self, mover: usize, last: usize) -> bool {
        let first = last / HOUSES * HOUSES;
        let mut taken = 0u8;
        let mut cleared = 0u128;
        for pit in (first..=last).rev() {
            let seeds = self.pit(pit);
            if !(2..=3).contains(&seeds) {
                break;
            }
            taken += seeds;
            cleared |= 0xFFu128 << (8 * pit);
        }
        let after = self.pits & !cleared;
        let grand_slam = (after >> (8 * first)) as u64 & ROW == 0;
        if taken == 0 || grand_slam {
            return false;
        }
        self.pits = after;
        self.scores[mover] += taken;
        true
    }

    /// Each side takes the seeds left in its own row.
    fn finish(&mut self, end: End) {
        for player in 0..2 {
            // Byte sum of a row: its six bytes add up in the top byte (sums stay below 256).
            self.scores[player] +=
                (self.row(player).wrapping_mul(0x0101_0101_0101_0101) >> 56) as u8;
        }
        self.pits = 0;
        self.legal = 0;
        self.end = Some(end);
    }

    fn key(&self) -> u128 {
        self.pits | (self.to_move as u128) << 127
    }

    fn filter_bit(key: u128) -> (usize, u64) {
        let h = ((key as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (key >> 64) as u64)
            .wrapping_mul(0xBF58_476D_1CE4_E5B9)
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
