//! Board geometry and the compact position.
//!
//! Every pit and store has a slot: player p's pit k (in p's numbering) is slot `p * n + k - 1`
//! (n pits a side), player p's store is slot `STORE + p`. The sowing circuit of each mover is
//! precomputed as `next`/`prev` tables over slots, so a drop is one table look-up.

/// Most pits a player may own (the slots of both players and their stores fit in 64 bits).
pub const MAX_SIDE: usize = ludus_core::limits::LIMITS.pits_per_side;
/// Player p's store is slot `STORE + p`.
pub const STORE: usize = 2 * MAX_SIDE;
/// Pit and store slots.
pub const SLOTS: usize = STORE + 2;
const _: () = assert!(SLOTS <= 64, "every slot has a bit in a mask of 64");
/// "No such pit" (the pit opposite a store, the target past the end of a circuit).
pub const NO_SLOT: u8 = u8::MAX;

/// The stones on the board: a small `Copy` value, so trying a move costs a copy. Laid out by
/// hand: the counts stay 8-aligned (left to the compiler, they once moved to an offset of 12,
/// and the random-game benchmarks ran some 3% slower). Every mask is of pits (bit = slot).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C, align(8))]
pub struct Board {
    /// Pits out of play (bit = slot; stores never).
    pub closed: u64,
    /// Pits still locked (bit = slot): no move has yet been sown from them in this game or
    /// round (`sowing.locks`); 0 in every other game.
    pub locked: u64,
    pub count: [u8; SLOTS],
    /// Pits held by the player across the board from them (bit = slot): pits won in a match
    /// whose rounds change their owners (`[match] owners`); 0 in every other game.
    pub ceded: u64,
    /// Each player's houses (pits whose stones go to that player's store, or stay there for
    /// them), bit = slot.
    pub houses: [u64; 2],
    /// Each player's stage (`turn.stages`): 0 at the start of a game or round, and in every
    /// game without stages.
    pub stage: [u8; 2],
    /// The stones each player still holds to place before the sowing begins (`[setup]
    /// to_place`): none once it has begun, and in every game without them.
    pub to_place: [u8; 2],
}

const _: () = assert!(std::mem::size_of::<Board>() == 112, "a board is 112 bytes");

impl Board {
    /// Takes up `lift` stones of `slot` (0: all of them) and returns how many.
    #[inline]
    pub(crate) fn lift(&mut self, slot: usize, lift: u8) -> u8 {
        let hand = match lift {
            0 => self.count[slot],
            n => n,
        };
        self.count[slot] -= hand;
        hand
    }

    /// The board turned round, `n` pits a side: each player's pit k holds what the other's
    /// held, and so do the stores, houses, closed and locked pits and the stones to place.
    pub fn mirrored(&self, n: usize) -> Board {
        let mut b = *self;
        for k in 0..n {
            b.count.swap(k, n + k);
        }
        b.count.swap(STORE, STORE + 1);
        // A pit's slot seen from the other side: its owner's pit k becomes the other's pit k.
        let side = (1u64 << n) - 1;
        let mirror = |m: u64| (m & side) << n | (m >> n & side);
        b.houses = [mirror(self.houses[1]), mirror(self.houses[0])];
        b.closed = mirror(self.closed);
        b.locked = mirror(self.locked);
        b.to_place.swap(0, 1);
        b
    }
    /// Every stone of the position: in the pits and stores, and still to place.
    #[inline]
    pub fn stones(&self) -> u32 {
        let counts: u32 = self.count.iter().map(|&c| u32::from(c)).sum();
        counts + u32::from(self.to_place[0]) + u32::from(self.to_place[1])
    }
    pub fn empty() -> Self {
        Board {
            count: [0; SLOTS],
            closed: 0,
            ceded: 0,
            houses: [0; 2],
            locked: 0,
            stage: [0; 2],
            to_place: [0; 2],
        }
    }
    /// Sends the stones in each house to its owner's store.
    #[inline]
    pub fn empty_houses(&mut self) {
        for p in 0..2 {
            let mut bits = self.houses[p];
            while bits != 0 {
                let h = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                self.count[STORE + p] += self.count[h];
                self.count[h] = 0;
            }
        }
    }
    /// Every house of both players (bit = slot).
    #[inline]
    pub fn house_mask(&self) -> u64 {
        self.houses[0] | self.houses[1]
    }
    /// The stones in the houses among `slots` (none but where houses keep their stones).
    #[inline]
    pub fn housed(&self, slots: u64) -> u32 {
        let mut bits = self.house_mask() & slots;
        let mut stones = 0;
        while bits != 0 {
            stones += u32::from(self.count[bits.trailing_zeros() as usize]);
            bits &= bits - 1;
        }
        stones
    }
    /// The player whose house `slot` is, if it is one.
    #[inline]
    pub fn house_owner(&self, slot: usize) -> Option<usize> {
        (0..2).find(|&p| slot < STORE && self.houses[p] >> slot & 1 == 1)
    }
    /// Whether pit `slot` is still locked (`sowing.locks`).
    #[inline]
    pub fn is_locked(&self, slot: usize) -> bool {
        slot < STORE && self.locked >> slot & 1 == 1
    }
    /// Whether `slot` is out of play (a store never is).
    #[inline]
    pub fn is_closed(&self, slot: usize) -> bool {
        self.closed >> slot & 1 == 1
    }
    /// The pits out of play, as a mask of any slot.
    #[inline]
    pub fn closed_mask(&self) -> u64 {
        self.closed
    }
    /// Bit k set when slot `base + k` holds stones, for k < n (n ≤ 31, base ≤ 31): eight
    /// bytes at a time, without a branch a pit.
    #[inline(always)]
    pub fn nonzero_mask(&self, base: usize, n: usize) -> u32 {
        const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        fn gather(x: u64) -> u32 {
            let high = ((x & LOW7).wrapping_add(LOW7) | x) & !LOW7;
            ((high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
        }
        let word = |i: usize| {
            u64::from_le_bytes(
                self.count[base + i..base + i + 8]
                    .try_into()
                    .expect("8 bytes"),
            )
        };
        // Further words only when needed: reading past freshly written bytes stalls.
        let mut mask = gather(word(0));
        if n > 8 {
            mask |= gather(word(8)) << 8;
            if n > 16 {
                mask |= self.nonzero_wide(base);
            }
        }
        mask & (u32::MAX >> (32 - n))
    }
    /// Bits 16 to 31 of [`Self::nonzero_mask`]: out of line, boards of more than 16 pits a
    /// side being rare.
    #[cold]
    #[inline(never)]
    fn nonzero_wide(&self, base: usize) -> u32 {
        (16..32)
            .filter(|&k| base + k < SLOTS && self.count[base + k] != 0)
            .fold(0, |mask, k| mask | 1 << k)
    }
    #[inline]
    pub fn store(&self, p: usize) -> u8 {
        self.count[STORE + p]
    }
}

/// The fixed shape of a board: places, owners, circuits, opposite pits.
#[derive(Clone, Debug)]
pub struct Geometry {
    /// Pits per player.
    pub n: usize,
    pub rows: usize,
    pub cols: usize,
    /// Each player's pits in a middle row both share (`[board] middle`), 0 on boards of two
    /// or four rows: row 1 is then the middle row, the owner's half on their right, and row
    /// 2 their own; no pit faces another.
    pub middle: usize,
    pub stores: bool,
    /// `[row, column]` of pit k (index k - 1) from the owner's seat: row 1 faces the opponent,
    /// column 1 is the owner's leftmost.
    pub place: Vec<(u8, u8)>,
    pub owner: [u8; SLOTS],
    /// Pit number in the owner's numbering (0 for a store).
    pub number: [u8; SLOTS],
    /// Per way (`mover`, `mover + 2` for the other way round, `mover + 4` for a move sowing
    /// the mover's store): the next / previous slot of that circuit (`NO_SLOT` off it).
    pub next: [[u8; SLOTS]; WAYS],
    pub prev: [[u8; SLOTS]; WAYS],
    /// Where a move sowing `mover`'s store starts: the slot before the mover's first pit
    /// along that circuit, so that its first stone falls into that pit (`sowing.store_move`).
    pub store_entry: [u8; 2],
    /// The opponent's pit facing this one in the corresponding row.
    pub opposite: [u8; SLOTS],
    /// The opponent's pits in this pit's column, front row first.
    pub column: [[u8; 2]; SLOTS],
    /// The opponent's other pit in this pit's column (not `opposite`; none on one-row boards).
    pub behind: [u8; SLOTS],
    /// Slots in each mover's circuit.
    pub circuit_len: [usize; 2],
    /// Each mover's circuit as a bitmask of slots.
    pub circuit_mask: [u64; 2],
    /// Each player's pits as a bitmask of slots.
    pub side_mask: [u64; 2],
    /// The rules' rounds may hand pits to the player across the board (`Board::ceded`): a
    /// condition reading a pit's owner is then not tabulated.
    pub owners_change: bool,
    /// The rules' houses keep their stones (`[house] keeps`): a house may hold stones, which
    /// the sums of a side's pits and the legal moves then leave out. (Other houses are always
    /// empty, and these paths pay nothing for them.)
    pub kept_houses: bool,
    /// A move may start from any pit of the board, the opponent's too (`start_from = "board"`).
    pub from_board: bool,
}

/// How the circuit of a move is laid out.
#[derive(Clone, Copy, Debug)]
pub struct CircuitSpec {
    pub clockwise: bool,
    /// Only the mover's own pits (else the whole board).
    pub own_only: bool,
    /// Which stores are sown: none, the mover's own, both.
    pub own_store: bool,
    pub other_store: bool,
    /// A move may start from any pit of the board (`start_from = "board"`).
    pub from_board: bool,
    /// The circuit a move sowing the mover's store goes round (`sowing.store_circuit`).
    pub store_ring: StoreRing,
}

/// The circuit a move sowing the mover's store goes round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StoreRing {
    /// The circuit of the other moves, stores included where they are sown.
    #[default]
    Moves,
    /// The mover's own pits, round and round.
    Own,
    /// Both players' pits, no store.
    Pits,
    /// The mover's own pits, and at their last one the mover chooses: round them again, or on
    /// into the opponent's pits along the circuit of the other moves.
    Chosen,
}

impl Geometry {
    /// `place[k-1]` is pit k's place; the caller has checked it is a permutation of the grid
    /// (of the grid less the other player's half of the middle row, with `middle` pits there).
    pub fn new(
        (rows, cols, middle): (usize, usize, usize),
        stores: bool,
        place: Vec<(u8, u8)>,
        c: CircuitSpec,
    ) -> Self {
        let n = place.len();
        let mut g = Geometry {
            n,
            rows,
            cols,
            middle,
            stores,
            place,
            owner: [0; SLOTS],
            number: [0; SLOTS],
            next: [[NO_SLOT; SLOTS]; WAYS],
            prev: [[NO_SLOT; SLOTS]; WAYS],
            store_entry: [NO_SLOT; 2],
            opposite: [NO_SLOT; SLOTS],
            column: [[NO_SLOT; 2]; SLOTS],
            behind: [NO_SLOT; SLOTS],
            circuit_len: [0; 2],
            circuit_mask: [0; 2],
            side_mask: [0; 2],
            owners_change: false,
            kept_houses: false,
            from_board: c.from_board,
        };
        for p in 0..2 {
            for k in 0..n {
                let s = p * n + k;
                g.owner[s] = p as u8;
                g.number[s] = (k + 1) as u8;
                g.side_mask[p] |= 1 << s;
            }
            g.owner[STORE + p] = p as u8;
        }
        // Facing pits: the opponent's column as they sit is the mirror of ours.
        let slot_at = |p: usize, row: u8, col: u8| -> u8 {
            let k = g.place.iter().position(|&pl| pl == (row, col)).unwrap_or(0);
            (p * n + k) as u8
        };
        let mut opposite = [NO_SLOT; SLOTS];
        let mut column = [[NO_SLOT; 2]; SLOTS];
        for p in 0..2 {
            for k in 0..n {
                let (row, col) = g.place[k];
                let facing = (cols + 1) as u8 - col;
                opposite[p * n + k] = slot_at(1 - p, row, facing);
                for (r, c) in column[p * n + k].iter_mut().take(rows).enumerate() {
                    *c = slot_at(1 - p, (r + 1) as u8, facing);
                }
            }
        }
        // Across a shared middle row no pit faces another.
        if middle == 0 {
            g.opposite = opposite;
            g.column = column;
            for s in 0..SLOTS {
                let [front, back] = column[s];
                g.behind[s] = if opposite[s] == front { back } else { front };
            }
        }
        // The ring in sowing order: player 0's pits by number, their store, player 1's, theirs.
        let ring_of = |mover: usize, own_only: bool, own_store: bool, other_store: bool| {
            let mut ring: Vec<u8> = Vec::with_capacity(SLOTS);
            for p in 0..2 {
                if own_only && p != mover {
                    continue;
                }
                ring.extend((0..n).map(|k| (p * n + k) as u8));
                let sown = if p == mover { own_store } else { other_store };
                if stores && sown {
                    ring.push((STORE + p) as u8);
                }
            }
            if c.clockwise {
                ring.reverse();
            }
            ring
        };
        for mover in 0..2 {
            let ring = ring_of(mover, c.own_only, c.own_store, c.other_store);
            let len = ring.len();
            // The rules' way round, then the other way (a move the rules reverse, or the mover).
            for i in 0..len {
                let (a, b) = (ring[i], ring[(i + 1) % len]);
                g.next[mover][a as usize] = b;
                g.prev[mover][b as usize] = a;
                g.next[mover + OTHER_WAY][b as usize] = a;
                g.prev[mover + OTHER_WAY][a as usize] = b;
            }
            g.circuit_len[mover] = len;
            g.circuit_mask[mover] = ring.iter().fold(0, |m, &s| m | 1 << s);
            // A store sown goes round its own circuit, from the mover's first pit along the
            // rules' way: pit 1 counterclockwise, pit n clockwise.
            let ring = match c.store_ring {
                StoreRing::Moves => ring,
                StoreRing::Own | StoreRing::Chosen => ring_of(mover, true, false, false),
                StoreRing::Pits => ring_of(mover, false, false, false),
            };
            let len = ring.len();
            let way = mover + STORE_WAY;
            for i in 0..len {
                let (a, b) = (ring[i], ring[(i + 1) % len]);
                g.next[way][a as usize] = b;
                g.prev[way][b as usize] = a;
            }
            let first = (mover * n + if c.clockwise { n - 1 } else { 0 }) as u8;
            g.store_entry[mover] = g.prev[way][first as usize];
        }
        g
    }

    /// Player p's pit k (1-based).
    #[inline]
    pub fn slot(&self, p: usize, k: usize) -> usize {
        p * self.n + k - 1
    }

    /// The pit the mover's pit number `pit` names, counting on along the board past their own
    /// pits: 1..n their own, n+1..2n the pits across the board (pits they may hold in a match
    /// whose rounds change owners).
    #[inline]
    pub fn slot_from(&self, mover: usize, pit: usize) -> usize {
        let s = mover * self.n + pit - 1;
        if s >= 2 * self.n {
            s - 2 * self.n
        } else {
            s
        }
    }

    /// Who holds `slot` now: its side's player, or the other for a ceded pit.
    #[inline]
    pub fn owner_of(&self, b: &Board, slot: usize) -> usize {
        usize::from(self.owner[slot]) ^ (b.ceded >> slot & 1) as usize
    }

    /// A move may name a pit across the board (`o3`): pits change owner, or a move may start
    /// anywhere.
    #[inline]
    pub fn moves_across(&self) -> bool {
        self.owners_change || self.from_board
    }

    /// The pits player `p` holds now, as a bitmask of slots.
    #[inline]
    pub fn held_mask(&self, b: &Board, p: usize) -> u64 {
        (self.side_mask[p] & !b.ceded) | (self.side_mask[1 - p] & b.ceded)
    }

    /// The pits whose stones are player `p`'s: the houses they hold and the other pits they
    /// hold (bit = slot).
    #[inline]
    pub fn owned_mask(&self, b: &Board, p: usize) -> u64 {
        (self.held_mask(b, p) & !b.house_mask()) | b.houses[p]
    }

    /// Every pit of the board (bit = slot).
    pub fn all_pits(&self) -> u64 {
        self.side_mask[0] | self.side_mask[1]
    }

    #[inline]
    pub fn is_pit(&self, slot: usize) -> bool {
        slot < 2 * self.n
    }

    /// The default numbering: pit 1 is the owner's leftmost (one row), or the rightmost pit of
    /// the front row running along it and back along the rear row (two rows); both are the
    /// counterclockwise sowing order.
    /// The numbering of a board with a shared middle row, `middle` pits of each player there:
    /// the owner's own row from their left, then their half of the middle row from its right
    /// end inward (the counterclockwise sowing order).
    pub fn middle_places(middle: usize) -> Vec<(u8, u8)> {
        let cols = 2 * middle;
        let own = (1..=cols).map(|c| (2, c as u8));
        own.chain((middle + 1..=cols).rev().map(|c| (1, c as u8)))
            .collect()
    }

    pub fn default_places(rows: usize, cols: usize) -> Vec<(u8, u8)> {
        let mut place = Vec::with_capacity(rows * cols);
        if rows == 1 {
            place.extend((1..=cols).map(|c| (1, c as u8)));
        } else {
            place.extend((1..=cols).rev().map(|c| (1, c as u8)));
            place.extend((1..=cols).map(|c| (2, c as u8)));
        }
        place
    }
}

/// Way `mover + 2` goes round `mover`'s circuit against the rules' direction.
pub const OTHER_WAY: usize = 2;
/// Way `mover + 4` is the circuit of a move sowing `mover`'s store.
pub const STORE_WAY: usize = 4;
/// The circuits: each mover's the rules' way, the other way, and from the store.
pub const WAYS: usize = 6;

/// A first lift sown in bulk: for each mover, own pit and remainder r, what r stones add after
/// that pit (one a slot along the circuit, the origin skipped when the rules skip it), so that
/// `hand` stones are `hand / len` laps plus one such run. Used when nothing needs to be checked
/// drop by drop.
#[derive(Clone, Debug)]
pub struct Runs {
    /// Slots a lap sows into, per mover (the circuit less the origin when it is skipped).
    len: [usize; 2],
    /// Runs per origin: the longest lap and the empty run (a lap's last slot).
    stride: usize,
    /// Every pit's slot is below `NARROW`: a run adds to those slots and the stores only.
    narrow: bool,
    /// `runs[(mover * n + k) * stride + r]`: one entry per run, so that a move reads one
    /// place (and checks one index) for all it needs; no more than the circuit needs, so that
    /// a small board's runs stay in the nearest cache.
    runs: Vec<Run>,
}

/// The run of r stones after an origin.
#[derive(Clone, Debug)]
struct Run {
    /// What the r stones add, slot by slot.
    add: [u8; SLOTS],
    /// The slot of the r-th stone; for r = 0, that of a whole lap's last stone (the last
    /// slot of a lift that ends a lap exactly).
    last: u8,
    /// Slots the r stones reach.
    reached: u64,
}

/// The slots a sowing run covers on boards of up to 16 pits a side, besides the stores (the
/// common boards pay for the wide ones' slots no more than a predictable branch).
const NARROW: usize = 32;

/// `ALL_BUT[s]`: every bit of every slot but slot `s` (a mask that empties `s`).
const ALL_BUT: [[u8; SLOTS]; SLOTS] = {
    let mut masks = [[u8::MAX; SLOTS]; SLOTS];
    let mut s = 0;
    while s < SLOTS {
        masks[s][s] = 0;
        s += 1;
    }
    masks
};

impl Runs {
    /// The runs of each mover's way round, `other_way` or the rules' direction.
    pub fn new(g: &Geometry, skip_origin: bool, other_way: bool) -> Self {
        let stride = g.circuit_len[0].max(g.circuit_len[1]) + 1;
        let size = 2 * g.n * stride;
        let empty = Run {
            add: [0; SLOTS],
            last: NO_SLOT,
            reached: 0,
        };
        let mut runs = Runs {
            len: [0; 2],
            stride,
            narrow: 2 * g.n <= NARROW,
            runs: vec![empty; size],
        };
        for mover in 0..2 {
            let next = &g.next[mover + if other_way { OTHER_WAY } else { 0 }];
            let len = g.circuit_len[mover] - usize::from(skip_origin);
            runs.len[mover] = len;
            for k in 0..g.n {
                let origin = mover * g.n + k;
                let base = (mover * g.n + k) * stride;
                let mut pos = origin;
                for r in 1..=len {
                    pos = usize::from(next[pos]);
                    if skip_origin && pos == origin {
                        pos = usize::from(next[pos]);
                    }
                    let before = &runs.runs[base + r - 1];
                    let mut run = Run {
                        add: before.add,
                        last: pos as u8,
                        reached: before.reached | 1 << pos,
                    };
                    run.add[pos] += 1;
                    runs.runs[base + r] = run;
                }
                runs.runs[base].last = runs.runs[base + len].last;
            }
        }
        runs
    }

    /// Lifts the stones of `origin` (a pit of `mover`) and sows them with no closed pits;
    /// returns the stones lifted, the last slot sown, the stones now in it, and the slots
    /// reached. A lift that does not lap empties the origin in the same pass as the sowing:
    /// a byte stored there first would stall the wide read of the board just after it.
    #[inline(always)]
    pub fn lift_and_sow(
        &self,
        b: &mut Board,
        mover: usize,
        origin: usize,
        hand: u8,
    ) -> (usize, u8, u64) {
        let len = self.len[mover];
        if usize::from(hand) >= len {
            b.count[origin] = 0;
            return self.sow(b, mover, origin, hand);
        }
        // A run shorter than a lap never comes back to its origin.
        let run = &self.runs[origin * self.stride + usize::from(hand)];
        let last = usize::from(run.last);
        let count = b.count[last] + u8::from(hand > 0);
        let keep = &ALL_BUT[origin];
        self.each_run_slot(&mut b.count, |s, c| (c & keep[s]) + run.add[s]);
        (last, count, run.reached)
    }

    /// Sows `hand` stones after `origin` (a pit of `mover`, already emptied) with no closed
    /// pits; returns the last slot sown, the stones now in it, and the slots reached.
    /// Inlined: the three values come back in registers.
    #[inline(always)]
    pub fn sow(&self, b: &mut Board, mover: usize, origin: usize, hand: u8) -> (usize, u8, u64) {
        let len = self.len[mover];
        let hand = usize::from(hand);
        let base = origin * self.stride;
        if hand < len {
            // Most lifts do not lap: one run, no division, no multiplication.
            let run = &self.runs[base + hand];
            let last = usize::from(run.last);
            // Read before the additions: no wait for the stores to land.
            let count = b.count[last] + u8::from(hand > 0);
            self.each_run_slot(&mut b.count, |s, c| c + run.add[s]);
            return (last, count, run.reached);
        }
        let (laps, rest) = (hand / len, hand % len);
        let (lap, run) = (&self.runs[base + len], &self.runs[base + rest]);
        let last = usize::from(run.last);
        let count = b.count[last] + laps as u8 + u8::from(rest > 0);
        let times = laps as u8;
        self.each_run_slot(&mut b.count, |s, c| c + lap.add[s] * times + run.add[s]);
        (last, count, lap.reached)
    }

    /// Rewrites every slot a run may change, `op(slot, stones)`: on a narrow board the low
    /// slots and the stores only. On a copy: a local array is known not to alias the runs, so
    /// the loop is vectorised (in place, inlined, it was byte adds to memory, far slower).
    #[inline(always)]
    fn each_run_slot(&self, count: &mut [u8; SLOTS], op: impl Fn(usize, u8) -> u8) {
        #[inline(always)]
        fn low<const N: usize>(count: &mut [u8; SLOTS], op: &impl Fn(usize, u8) -> u8) {
            let mut low: [u8; N] = count[..N].try_into().expect("N slots");
            for (s, c) in low.iter_mut().enumerate() {
                *c = op(s, *c);
            }
            count[..N].copy_from_slice(&low);
        }
        if self.narrow {
            low::<NARROW>(count, &op);
            for s in [STORE, STORE + 1] {
                count[s] = op(s, count[s]);
            }
        } else {
            low::<SLOTS>(count, &op);
        }
    }
}
