//! The mechanics of a move (lift, sow, relay, take on drop, capture, move again) and the legal
//! moves.

use super::board::{Board, NO_SLOT, SLOTS, STORE};
use super::rules::{CaptureTo, GrandSlam, Relay, SkipOrigin, Target};
use super::scope::{Ctx, PitCond, View};
use super::state::SowingState;
use super::{CaptureRule, SowingGame};
use std::collections::HashSet;

/// How a move's sowing ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MoveEnd {
    /// The stones ran out (and no relay went on).
    #[default]
    Sown,
    /// A relay would have lifted a pit in a position already seen in this move: the move ends
    /// there, unlifted, with no capture.
    Cycle,
    /// The move reached the rules' lap cap: it ends there with no capture.
    LapCap,
}

impl MoveEnd {
    pub fn text(self) -> &'static str {
        match self {
            MoveEnd::Sown => "sown",
            MoveEnd::Cycle => "relay cycle: the position repeated within the move",
            MoveEnd::LapCap => "lap cap reached",
        }
    }
}

/// What a move did.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Report {
    /// Stones were sown into the opponent's pits.
    pub fed: bool,
    pub captured: u32,
    pub grand_slam: bool,
    pub again: bool,
    pub end: MoveEnd,
}

/// Where and how a move's sowing ended, for the capture.
#[derive(Clone, Copy)]
struct Ended {
    mover: usize,
    origin: usize,
    last: usize,
    /// Stones in `last` once the sowing has ended.
    last_count: u8,
    skip: usize,
    ply: u32,
    sown: u32,
    relays: u32,
    end: MoveEnd,
}

/// Positions seen before relay lifts within one move: a few on the stack, more in a hash set
/// only for long relay chains (a rules file may allow many laps).
struct Seen {
    near: [[u8; SLOTS + 1]; 24],
    len: usize,
    far: HashSet<[u8; SLOTS + 1]>,
}

impl Seen {
    fn new() -> Self {
        Seen {
            near: [[0; SLOTS + 1]; 24],
            len: 0,
            far: HashSet::new(),
        }
    }
    /// Records the key; false when it was seen before.
    fn insert(&mut self, key: [u8; SLOTS + 1]) -> bool {
        if self.near[..self.len].contains(&key) || self.far.contains(&key) {
            return false;
        }
        if self.len < self.near.len() {
            self.near[self.len] = key;
            self.len += 1;
        } else {
            self.far.insert(key);
        }
        true
    }
}

impl SowingGame {
    /// The next slot of `mover`'s circuit after `pos`, passing over closed pits and `skip`.
    /// Terminates: a move is only legal when its circuit has an open slot besides the origin.
    #[inline]
    fn step(&self, b: &Board, mover: usize, pos: usize, skip: usize) -> usize {
        self.step_on(&self.geo.next[mover], b, pos, skip)
    }

    /// The pit a relay looks at after `pos`: the next one, or the previous one when the rules
    /// relay backwards (the `next` and `beyond` views follow the same way).
    #[inline]
    fn look(&self, b: &Board, mover: usize, pos: usize, skip: usize) -> usize {
        match self.relay {
            Relay::Previous => self.step_on(&self.geo.prev[mover], b, pos, skip),
            _ => self.step(b, mover, pos, skip),
        }
    }

    #[inline]
    fn step_on(&self, next: &[u8; SLOTS], b: &Board, mut pos: usize, skip: usize) -> usize {
        loop {
            pos = usize::from(next[pos]);
            if pos != skip && !b.is_closed(pos) {
                return pos;
            }
        }
    }

    /// Sows `hand` stones one a slot after `pos`; returns the last slot.
    #[inline]
    fn drop_stones(
        &self,
        b: &mut Board,
        mover: usize,
        mut pos: usize,
        hand: u8,
        skip: usize,
        visited: &mut u64,
    ) -> usize {
        let next = &self.geo.next[mover];
        let mut left = hand;
        while left > 0 {
            pos = usize::from(next[pos]);
            if pos == skip || b.closed >> pos & 1 == 1 {
                continue;
            }
            b.count[pos] += 1;
            *visited |= 1 << pos;
            left -= 1;
        }
        pos
    }

    #[inline]
    fn open_stones(&self, b: &Board, p: usize) -> u32 {
        let n = self.geo.n;
        if b.closed == 0 {
            return b.count[p * n..p * n + n]
                .iter()
                .map(|&c| u32::from(c))
                .sum();
        }
        (p * n..p * n + n)
            .filter(|&s| !b.is_closed(s))
            .map(|s| u32::from(b.count[s]))
            .sum()
    }

    /// Plays `mover`'s pit `pit` on `b`.
    pub(crate) fn sow(&self, b: &mut Board, mover: usize, pit: usize, ply: u32) -> Report {
        if !(self.plain && b.closed == 0) {
            return self.sow_general(b, mover, pit, ply);
        }
        // The common case: one precomputed run, then the capture and moving again.
        let g = &self.geo;
        let origin = g.slot(mover, pit);
        let skip = match self.skip_origin {
            SkipOrigin::Never => NO_SLOT as usize,
            SkipOrigin::Lap | SkipOrigin::Move => origin,
        };
        let hand = b.count[origin];
        b.count[origin] = 0;
        let (last, last_count, visited) = self.runs.sow(b, mover, origin, hand);
        let sowing = Ended {
            mover,
            origin,
            last,
            last_count,
            skip,
            ply,
            sown: u32::from(hand),
            relays: 0,
            end: MoveEnd::Sown,
        };
        let mut report = Report {
            fed: visited & g.side_mask[1 - mover] != 0,
            ..Report::default()
        };
        if let Some(cap) = &self.capture {
            // Most moves fail a tabulated condition: nothing else to compute.
            if cap.when.lookup(mover, last, last_count) != Some(false) {
                let (captured, grand_slam) = self.capture(b, cap, &sowing);
                report.captured = captured;
                report.grand_slam = grand_slam;
            }
        }
        if let Some(again) = &self.again {
            let mut ctx = Ctx::new(b, g, mover, ply);
            ctx.sown = sowing.sown;
            ctx.captured = report.captured;
            ctx.grand_slam = report.grand_slam;
            ctx.views[View::Last as usize] = last as u8;
            ctx.views[View::Origin as usize] = origin as u8;
            report.again = again.test(&ctx);
        }
        report
    }

    /// A move with what the common case leaves out: closed pits, relays, take on drop, the
    /// first stone back in its pit, houses, captures sown on.
    #[inline(never)]
    fn sow_general(&self, b: &mut Board, mover: usize, pit: usize, ply: u32) -> Report {
        let g = &self.geo;
        let origin = g.slot(mover, pit);
        let skip = match self.skip_origin {
            SkipOrigin::Never => NO_SLOT as usize,
            SkipOrigin::Lap | SkipOrigin::Move => origin,
        };
        let mut hand = b.count[origin];
        b.count[origin] = 0;
        // Toguz Korgool's sowing: the first stone back into the pit lifted (one stone moves on).
        let mut first = 0;
        if self.first_origin && hand > 1 {
            self.drop_first(b, mover, origin, ply);
            hand -= 1;
            first = 1;
        }
        // Nothing to check drop by drop and no relay: one precomputed run.
        if self.bulk && b.closed == 0 {
            let (last, mut last_count, visited) = self.runs.sow(b, mover, origin, hand);
            if self.house.is_some() {
                b.empty_houses();
                last_count = b.count[last];
            }
            let sowing = Ended {
                mover,
                origin,
                last,
                last_count,
                skip,
                ply,
                sown: u32::from(hand) + first,
                relays: 0,
                end: MoveEnd::Sown,
            };
            self.after_sowing(b, &sowing, visited, Report::default())
        } else {
            let mut report = Report::default();
            let (sowing, visited) =
                self.sow_stones(b, mover, origin, hand, skip, ply, first, &mut report);
            self.after_sowing(b, &sowing, visited, report)
        }
    }

    /// What follows the sowing: the house, the capture, moving again.
    #[inline(always)]
    fn after_sowing(
        &self,
        b: &mut Board,
        sowing: &Ended,
        visited: u64,
        mut report: Report,
    ) -> Report {
        let g = &self.geo;
        let (mover, origin) = (sowing.mover, sowing.origin);
        report.fed = visited & g.side_mask[1 - mover] != 0;
        report.end = sowing.end;
        if sowing.end != MoveEnd::Sown {
            return report;
        }
        let (pos, sown, relays) = (sowing.last, sowing.sown, sowing.relays);
        if let Some(house) = &self.house {
            self.make_house(b, house, sowing);
        }
        if let Some(cap) = self.capture.as_ref().filter(|c| c.to == CaptureTo::Store) {
            // Most moves fail a tabulated condition: nothing else to compute.
            let last_count = if self.house.is_some() {
                b.count[pos]
            } else {
                sowing.last_count
            };
            if cap.when.lookup(mover, pos, last_count) != Some(false) {
                let (captured, grand_slam) = self.capture(b, cap, sowing);
                report.captured += captured;
                report.grand_slam = grand_slam;
            }
        }
        if let Some(again) = &self.again {
            let mut ctx = Ctx::new(b, g, mover, sowing.ply);
            ctx.sown = sown;
            ctx.relays = relays;
            ctx.captured = report.captured;
            ctx.grand_slam = report.grand_slam;
            ctx.views[View::Last as usize] = pos as u8;
            ctx.views[View::Origin as usize] = origin as u8;
            report.again = again.test(&ctx);
        }
        report
    }

    /// The first stone of a sowing that starts in its own pit, with the checks of a drop.
    #[cold]
    fn drop_first(&self, b: &mut Board, mover: usize, origin: usize, ply: u32) {
        b.count[origin] = 1;
        if let Some(take) = &self.take {
            let mut ctx = Ctx::new(b, &self.geo, mover, ply);
            ctx.sown = 1;
            if take.test(&mut ctx, origin) {
                let owner = usize::from(self.geo.owner[origin]);
                b.count[STORE + owner] += b.count[origin];
                b.count[origin] = 0;
            }
        }
    }

    /// Once the sowing has ended: the last pit becomes the mover's house when the rules say so
    /// (a player has at most one; a house is never made twice, nor in a store or a closed pit).
    #[inline(never)]
    fn make_house(&self, b: &mut Board, house: &PitCond, at: &Ended) {
        let (mover, pos) = (at.mover, at.last);
        if b.house[mover] != NO_SLOT
            || pos >= STORE
            || b.is_closed(pos)
            || b.house.contains(&(pos as u8))
        {
            return;
        }
        let g = &self.geo;
        let mut ctx = Ctx::new(b, g, mover, at.ply);
        ctx.sown = at.sown;
        ctx.relays = at.relays;
        let next = self.look(b, mover, pos, at.skip);
        ctx.views = [
            NO_SLOT,
            pos as u8,
            next as u8,
            self.look(b, mover, next, at.skip) as u8,
            g.opposite[pos],
            at.origin as u8,
            g.behind[pos],
        ];
        if house.test(&mut ctx, pos) {
            b.house[mover] = pos as u8;
            b.empty_houses();
        }
    }

    /// The general sowing of a move: stones dropped one at a time (take on drop, closed pits),
    /// relays, the in-move repetition and the lap cap. Returns how it ended and the slots
    /// reached.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn sow_stones(
        &self,
        b: &mut Board,
        mover: usize,
        origin: usize,
        mut hand: u8,
        mut skip: usize,
        ply: u32,
        first: u32,
        report: &mut Report,
    ) -> (Ended, u64) {
        let g = &self.geo;
        let mut pos = origin;
        // The pit the current lap was lifted from: captured stones sown on start after it.
        let mut lap = origin;
        let mut sown = first;
        let sow_captures = self.capture.as_ref().filter(|c| c.to == CaptureTo::Sow);
        let mut relays = 0u32;
        let mut end = MoveEnd::Sown;
        // Slots that received a stone (bit = slot), for the feeding rule.
        let mut visited = 0u64;
        let mut seen: Option<Seen> = None;
        loop {
            sown += u32::from(hand);
            pos = match &self.take {
                None => self.drop_stones(b, mover, pos, hand, skip, &mut visited),
                Some(take) => {
                    let mut dropped = sown - u32::from(hand);
                    while hand > 0 {
                        pos = self.step(b, mover, pos, skip);
                        b.count[pos] += 1;
                        hand -= 1;
                        dropped += 1;
                        visited |= 1 << pos;
                        if self.house.is_some() {
                            b.empty_houses();
                        }
                        let mut ctx = Ctx::new(b, g, mover, ply);
                        ctx.sown = dropped;
                        ctx.relays = relays;
                        // Only pits are taken from: a store that reaches the count stays.
                        if pos < STORE && take.test(&mut ctx, pos) {
                            let owner = usize::from(g.owner[pos]);
                            b.count[STORE + owner] += b.count[pos];
                            b.count[pos] = 0;
                        }
                    }
                    pos
                }
            };
            if self.house.is_some() {
                b.empty_houses();
            }
            if let Some(cap) = sow_captures {
                // The lap cap comes first: captured stones are never left in hand.
                if sown >= self.max_drops {
                    end = MoveEnd::LapCap;
                    break;
                }
                let at = Ended {
                    mover,
                    origin,
                    last: pos,
                    last_count: b.count[pos],
                    skip,
                    ply,
                    sown,
                    relays,
                    end,
                };
                let (got, grand_slam) = self.capture(b, cap, &at);
                report.captured += got;
                report.grand_slam = grand_slam;
                if got > 0 {
                    // The captured stones are sown on as if lifted again from the lap's pit.
                    hand = got as u8;
                    pos = lap;
                    continue;
                }
            }
            let from = match self.relay {
                Relay::None => break,
                Relay::Next | Relay::Previous => self.look(b, mover, pos, skip),
                Relay::Last => pos,
            };
            let liftable = match self.relay {
                Relay::Last => b.count[from] > 1,
                _ => b.count[from] > 0,
            };
            if !liftable || from >= STORE {
                break;
            }
            if sown >= self.max_drops {
                end = MoveEnd::LapCap;
                break;
            }
            let mut key = [0u8; SLOTS + 1];
            key[..SLOTS].copy_from_slice(&b.count);
            key[SLOTS] = from as u8;
            if !seen.get_or_insert_with(Seen::new).insert(key) {
                end = MoveEnd::Cycle;
                break;
            }
            hand = b.count[from];
            b.count[from] = 0;
            pos = from;
            lap = from;
            relays += 1;
            if self.skip_origin == SkipOrigin::Lap {
                skip = from;
            }
        }
        let sowing = Ended {
            mover,
            origin,
            last: pos,
            last_count: b.count[pos],
            skip,
            ply,
            sown,
            relays,
            end,
        };
        (sowing, visited)
    }

    /// The capture at the end of a move (or, when captures are sown, of a lap) whose sowing
    /// ended at `at.last`; returns the stones captured (in the mover's store, or in hand to be
    /// sown on).
    #[inline]
    fn capture(&self, b: &mut Board, cap: &CaptureRule, at: &Ended) -> (u32, bool) {
        let Ended {
            mover,
            origin,
            last: pos,
            skip,
            ply,
            sown,
            relays,
            ..
        } = *at;
        let g = &self.geo;
        let opp = 1 - mover;
        let mut ctx = Ctx::new(b, g, mover, ply);
        ctx.sown = sown;
        ctx.relays = relays;
        let (next, beyond) = if cap.needs_next {
            let next = self.look(b, mover, pos, skip);
            (next, self.look(b, mover, next, skip))
        } else {
            (NO_SLOT as usize, NO_SLOT as usize)
        };
        ctx.views = [
            NO_SLOT,
            pos as u8,
            next as u8,
            beyond as u8,
            g.opposite[pos],
            origin as u8,
            g.behind[pos],
        ];
        let hit = match cap.when.lookup(mover, pos, b.count[pos]) {
            Some(hit) => hit,
            None => cap.when.test(&mut ctx, pos),
        };
        if !hit {
            return (0, false);
        }
        {
            // The pits taken, as a bit set of slots.
            let mut taken = 0u64;
            let mut add = |s: u8| {
                if s != NO_SLOT && usize::from(s) < STORE && !b.is_closed(usize::from(s)) {
                    taken |= 1 << s;
                }
            };
            for t in &cap.targets {
                match t {
                    Target::Last => add(pos as u8),
                    Target::Opposite => add(g.opposite[pos]),
                    Target::Column => g.column[pos][..g.rows].iter().for_each(|&s| add(s)),
                    Target::Next => add(next as u8),
                    Target::Beyond => add(beyond as u8),
                }
            }
            if let (Some(chain), Some(first)) = (&cap.chain, cap.targets.first()) {
                let first = match first {
                    Target::Last => pos,
                    Target::Next => next,
                    Target::Beyond => beyond,
                    Target::Opposite | Target::Column => usize::from(g.opposite[pos]),
                };
                let prev = &g.prev[mover];
                let mut p = first;
                for _ in 0..g.circuit_len[mover] {
                    if p >= SLOTS || prev[p] == NO_SLOT {
                        break;
                    }
                    p = usize::from(prev[p]);
                    if p == skip || b.is_closed(p) {
                        continue;
                    }
                    if taken >> p & 1 == 1 || p >= STORE || !chain.test(&mut ctx, p) {
                        break;
                    }
                    taken |= 1 << p;
                }
            }
            let mut captured = 0u32;
            let mut from_opp = 0u32;
            let mut bits = taken;
            while bits != 0 {
                let s = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                captured += u32::from(b.count[s]);
                if usize::from(g.owner[s]) == opp {
                    from_opp += u32::from(b.count[s]);
                }
            }
            let grand_slam = from_opp > 0 && self.open_stones(b, opp) == from_opp;
            if !(grand_slam && cap.grand_slam == GrandSlam::NoCapture) {
                let mut bits = taken;
                while bits != 0 {
                    let s = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    b.count[s] = 0;
                }
                if cap.to == CaptureTo::Store {
                    b.count[STORE + mover] += captured as u8;
                }
                return (captured, grand_slam);
            }
            (0, grand_slam)
        }
    }

    /// The legal moves of `mover` as a bit set of pit numbers (bit k - 1 = pit k).
    #[inline(always)]
    pub(crate) fn legal_mask(&self, b: &Board, mover: usize, ply: u32, opening: bool) -> u32 {
        let g = &self.geo;
        if b.closed != 0 {
            // Somewhere to sow besides the origin.
            let open = (0..SLOTS)
                .filter(|&s| g.next[mover][s] != NO_SLOT && !b.is_closed(s))
                .count();
            if open < 2 {
                return 0;
            }
        }
        // Bit k - 1 = pit k: first every open pit holding stones, then the start condition.
        let base = mover * g.n;
        let mut mask = b.nonzero_mask(base, g.n) & !(b.closed >> base) as u32;
        if !self.start_is_nonzero {
            let mut ctx = Ctx::new(b, g, mover, ply);
            let mut bits = mask;
            while bits != 0 {
                let k = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if !self.start.test(&mut ctx, base + k) {
                    mask &= !(1 << k);
                }
            }
        }
        if let (true, Some(first)) = (opening, self.first_move) {
            mask &= 1 << (first - 1);
        }
        let opp = (1 - mover) * g.n;
        let feed = self.must_feed && b.nonzero_mask(opp, g.n) & !(b.closed >> opp) as u32 == 0;
        let forbid = self
            .capture
            .as_ref()
            .is_some_and(|c| c.grand_slam == GrandSlam::Forbidden);
        if mask != 0 && (feed || forbid) {
            let (mut fed, mut slams) = (0u32, 0u32);
            let mut bits = mask;
            while bits != 0 {
                let k = bits.trailing_zeros() as usize + 1;
                bits &= bits - 1;
                let mut trial = *b;
                let r = self.sow(&mut trial, mover, k, ply);
                fed |= u32::from(r.fed) << (k - 1);
                slams |= u32::from(r.grand_slam) << (k - 1);
            }
            if feed {
                mask = fed;
            }
            if forbid && mask & !slams != 0 {
                mask &= !slams;
            }
        }
        mask
    }

    /// Plays pit `pit` of the player to move and settles what follows.
    pub(crate) fn play_pit(&self, st: &mut SowingState, pit: usize) {
        let mover = usize::from(st.to_move);
        let stores = (st.board.store(0), st.board.store(1));
        let houses = st.board.house;
        let r = self.sow(&mut st.board, mover, pit, st.ply);
        st.ply += 1;
        st.opening = false;
        st.last_end = r.end;
        st.to_move = if r.again { mover } else { 1 - mover } as u8;
        let stores_changed = stores != (st.board.store(0), st.board.store(1))
            || (self.house.is_some() && houses != st.board.house);
        if stores_changed {
            // Stores only grow: no position before this one can recur.
            st.history.clear();
        }
        self.settle(st, mover, stores_changed);
    }
}
