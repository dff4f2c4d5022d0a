//! The compact position: for each side, its checkers by its own point number, with the bar and
//! the borne-off checkers in the same fixed array (wildbg-style), so a step is two array writes.

/// Index of the borne-off checkers in a side's array.
pub const OFF: usize = 0;
/// Index of the checkers on the bar (they enter on the opponent's home table, i.e. on points
/// 24..19 of their own numbering, as if they stood on point 25).
pub const BAR: usize = 25;
/// Points of the home table are 1..=HOME.
pub const HOME: usize = 6;
/// Most checkers a side may have: counts then fit in four bits (see `Key`).
pub const MAX_CHECKERS: u8 = crate::limits::LIMITS.checkers;

/// Both sides' checkers. `sides[p][n]` is player p's count on p's own point n (1..=24), with
/// `sides[p][OFF]` borne off and `sides[p][BAR]` on the bar. Player p's point n is the other
/// side's point 25 - n.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Position {
    pub sides: [[u8; 26]; 2],
}

impl Position {
    /// Checkers of `p` still in play (on the board or the bar).
    pub fn left(&self, p: usize) -> u8 {
        self.sides[p][1..].iter().sum()
    }

    /// Checkers of `p` on the bar or outside its home table (they must come home before any
    /// bear-off).
    pub fn behind(&self, p: usize) -> u8 {
        self.sides[p][HOME + 1..].iter().sum()
    }

    /// Moves one checker of `mover` from `from` (a point or `BAR`) to `to` (a point or `OFF`);
    /// a lone opposing checker on the landing point goes to the bar when `hits` (the caller
    /// has checked the step is legal).
    pub fn step(&mut self, mover: usize, from: usize, to: usize, hits: bool) {
        let [me, opp] = self.split_mut(mover);
        me[from] -= 1;
        me[to] += 1;
        if to != OFF && hits && opp[25 - to] == 1 {
            opp[25 - to] = 0;
            opp[BAR] += 1;
        }
    }

    /// The mover's array and the opponent's, mutably.
    pub fn split_mut(&mut self, mover: usize) -> [&mut [u8; 26]; 2] {
        let [a, b] = &mut self.sides;
        if mover == 0 {
            [a, b]
        } else {
            [b, a]
        }
    }

    /// The first point (in player 0's numbering) where both sides stand, if any.
    pub fn shared_point(&self) -> Option<usize> {
        (1..=24).find(|&n| self.sides[0][n] > 0 && self.sides[1][25 - n] > 0)
    }
}

/// The resulting position of a turn as one exact number, for listing each position once: the
/// mover's 26 counts as 4-bit fields (bits 0..104) and the points where opposing checkers were
/// hit (bit 103 + n for the mover's point n). The opponent's side after the turn follows from
/// those hits, so equal keys mean equal positions.
pub type Key = u128;

/// The key of a side before any step of the turn.
pub fn key_of(side: &[u8; 26]) -> Key {
    side.iter()
        .enumerate()
        .fold(0, |k, (n, &c)| k | Key::from(c) << (4 * n))
}

/// The key bit recording a hit on the mover's point `n`.
pub fn hit_bit(n: usize) -> Key {
    1 << (103 + n)
}
