//! The mechanics of a move (lift, sow, relay, take on drop, capture, move again), its pauses
//! at the choices the rules leave to a player, and the legal moves.

use super::board::{Board, StoreRing, NO_SLOT, OTHER_WAY, SLOTS, STORE, STORE_WAY};
use super::moves::{MoveKind, SowingMove};
use super::rules::capture::{CaptureRule, PickAfter, CHAIN_COLUMN, CHAIN_OPPOSITE, CHAIN_PIT};
use super::rules::house::{AlsoPit, HouseRule};
use super::rules::{
    CannotFeed, CaptureAt, CaptureChoice, CaptureTo, ChainWay, DivertHand, GoOn, GrandSlam,
    HouseChoice, MustFeed, OpeningLast, Relay, RelayStores, SkipOrigin, SowFrom, SweepTo,
    TakeChoice, TakeTo, Taker, Target,
};
use super::scope::{Ctx, PitCond, View, VIEWS};
use super::state::{Memory, Previous, SowingState};
use super::SowingGame;
use ludus_core::expr::Expr;
use std::collections::HashSet;

/// The bits of the legal pits of one way round, in a legal-move mask.
pub(crate) const WAY_BITS: usize = 32;
/// The legal-move mask's bit that marks moves listed by [`SowingGame::listed_lifts`] (the
/// numbers of stones lifted, the store): the other way round of a pit 32, which a game with
/// them never has.
pub(crate) const MORE: u64 = 1 << 63;
/// Pit 1 sown either way round, in a legal-move mask (shifted left by k - 1 for pit k).
pub(crate) const BOTH_WAYS: u64 = 1 | 1 << WAY_BITS;

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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Report {
    /// Stones were sown into the opponent's pits.
    pub fed: bool,
    /// Stones captured, counted up to 65,535 (captures sown on may take the same stones lap
    /// after lap): small, so that the report fits in one register on the way back from the hot
    /// path.
    pub captured: u16,
    pub grand_slam: bool,
    pub again: bool,
    /// The watched conditions that held beside the capture and moving again, as their bits
    /// of [`Report::held`]: `sowing.take` matched a pit ([`TOOK`]), `house.when` matched the
    /// last pit ([`HOUSED`]), whether taken or claimed or not. One byte of bits rather than
    /// two `bool`s: with the two, `ludus bench oware` ran about 9% slower (0.47 -> 0.43).
    pub watched: u8,
    pub end: MoveEnd,
    /// The slot the move's last stone fell into.
    pub last: u8,
    /// The slot the move was sown from, and the stones lifted from it.
    pub origin: u8,
    pub lifted: u8,
    /// The move was sown against the rules' direction.
    pub other_way: bool,
}

impl Report {
    /// The rules' conditions that held in the move, as bits of [`WATCHED`].
    fn held(&self) -> u8 {
        u8::from(self.captured > 0) | self.watched | u8::from(self.again) << 3
    }
}

/// [`Report::watched`]'s bit: `sowing.take` matched a pit.
const TOOK: u8 = 1 << 1;
/// [`Report::watched`]'s bit: `house.when` matched the last pit.
const HOUSED: u8 = 1 << 2;
/// [`Report::watched`]'s bit: `sowing.relay_when` let a relay lift.
const RELAYED: u8 = 1 << 4;
/// [`Report::watched`]'s bit: `sowing.relay_choice` offered the mover to stop.
const STOP_OFFERED: u8 = 1 << 5;

/// The conditions `validate --simulate` watches, each with its bit in [`Report::held`]: a
/// capture made, a pit `take` matched, a house made, a move again, a relay lift `relay_when`
/// allowed, a stop `relay_choice` offered.
pub(crate) const WATCHED: [&str; 6] = [
    "capture.when",
    "sowing.take",
    "house.when",
    "turn.again",
    "sowing.relay_when",
    "sowing.relay_choice",
];

/// The ways round a sowing from a pit may go (see [`SowingGame::way_at`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Way {
    Rules,
    Other,
    Both,
}

/// What became of a drop that is not one stone into a pit in play (see
/// [`SowingGame::drop_counted`]).
enum Dropped {
    /// Into its pit, or into a store with the sowing going on: `take` checks the pit.
    Pit,
    /// Into a pit out of play across the board (`closed = "fill-across"`), where the stones stay.
    Stays,
    /// Into a store with the whole hand (`divert_hand = "all"`): the lap ended before this pit.
    LapOver,
}

impl SowingGame {
    /// The `got` stones a capture took go on being sown: as if lifted again from the lap's
    /// pit, on from the lap's last pit, or lifted there with that pit's own stones (a lift of
    /// its own).
    fn sow_on_captured(&self, b: &mut Board, cap: &CaptureRule, s: &mut Sowing, got: u32) {
        s.hand = got as u8;
        match cap.sow_from {
            SowFrom::Lap => s.pos = s.lap,
            SowFrom::Last => {}
            SowFrom::LastLifted => {
                s.hand += b.count[s.pos];
                b.count[s.pos] = 0;
                s.lap = s.pos;
                self.after_lift(b, s, s.pos);
            }
        }
    }

    /// What every lift after the move's first does to the pit lifted, where the rules say so:
    /// it is unlocked (`locks = "lift"`), and its first stone goes back into it
    /// (`first_drop = "origin-every-lift"`; a single stone moves on).
    fn after_lift(&self, b: &mut Board, s: &mut Sowing, from: usize) {
        if self.sowing.relay_unlocks {
            b.locked &= !(1 << from);
        }
        if self.sowing.relay_first_origin && s.hand > 1 {
            b.count[from] += 1;
            s.hand -= 1;
            s.sown += 1;
        }
    }
}

/// Where and how a move's sowing ended, for the capture.
#[derive(Clone, Copy)]
struct Ended {
    mover: usize,
    /// The way round the move sows (see [`Sowing::way`]).
    way: usize,
    origin: usize,
    last: usize,
    /// The pit the looks after the last pass over (`next`, `beyond`, the chain): the origin
    /// when the rules take it out of the whole move.
    skip: usize,
    /// The opponent's pits were empty when the move began and the rules judge feeding after
    /// the capture: taking everything back is no grand slam.
    opponent_was_empty: bool,
    /// The opponent's stones in play when the move began (`opponent_had`; 0 unless a
    /// capture's condition reads it).
    opponent_had: u32,
    ply: u32,
    sown: u32,
    /// Stones the move lifted from its pit (or store) to begin.
    lifted: u32,
    relays: u32,
    /// Stones captured so far in the move.
    captured: u32,
    /// Stones `sowing.take` took so far in the move.
    taken: u32,
    /// Slots that received a stone (bit = slot).
    visited: u64,
}

/// The other way round from circuit `way`: a store sown turns onto the moves' other way.
fn turned(way: usize) -> usize {
    let mover = way % OTHER_WAY;
    match way % STORE_WAY >= OTHER_WAY {
        true => mover,
        false => mover + OTHER_WAY,
    }
}

/// A move under way: where its sowing stands and what it has done and seen. A choice within
/// the move pauses it here, kept in the position until the decider answers.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Sowing {
    pub mover: usize,
    /// The circuit the move sows round: `mover`, or `mover + OTHER_WAY` the other way round.
    pub way: usize,
    /// The pit the move was sown from.
    pub origin: usize,
    /// The slot last sown (the last pit once the sowing has ended).
    pos: usize,
    /// The pit the current lap was lifted from: captured stones sown on start after it.
    lap: usize,
    /// Stones still to sow in this lap.
    pub hand: u8,
    /// Stones the move lifted from its pit.
    lifted: u8,
    skip: usize,
    /// The pit out of the whole move (the origin, with `skip_origin = "move"`), which the
    /// looks from the last pit pass over; with `"lap"` the skipped pit is still seen there.
    out_of_move: usize,
    /// See [`Ended::opponent_was_empty`].
    opponent_was_empty: bool,
    /// See [`Ended::opponent_had`].
    opponent_had: u32,
    ply: u32,
    /// Stones dropped so far.
    sown: u32,
    relays: u32,
    /// Stones `sowing.take` took so far.
    taken: u32,
    end: MoveEnd,
    /// Slots that received a stone (bit = slot), for the feeding rule.
    visited: u64,
    report: Report,
    /// The capture at this lap's end was declined: the relay comes next.
    declined: bool,
    /// The last drop went to a store (`sowing.divert`): a lap ending so is not relayed.
    diverted: bool,
    /// Boxed: a move carries its sowing by value, and most moves never relay.
    seen: Option<Box<Seen>>,
    /// The move is played out for people to watch: each lift, drop and capture is recorded
    /// (see [`crate::shown`]).
    pub shown: bool,
}

impl Sowing {
    /// A move of `mover` round circuit `way` that lifted `hand` stones from `origin` and sows
    /// them after slot `pos`; nothing is skipped, nothing done yet.
    fn lifted(
        (mover, way): (usize, usize),
        (origin, pos): (usize, usize),
        hand: u8,
        (opponent_was_empty, opponent_had): (bool, u32),
        (ply, shown): (u32, bool),
    ) -> Sowing {
        Sowing {
            mover,
            way,
            origin,
            pos,
            lap: pos,
            hand,
            lifted: hand,
            skip: NO_SLOT as usize,
            out_of_move: NO_SLOT as usize,
            opponent_was_empty,
            opponent_had,
            ply,
            sown: 0,
            relays: 0,
            taken: 0,
            end: MoveEnd::Sown,
            visited: 0,
            // The way the move began, whatever way its relays turn to (`sowing.relay_turn`).
            report: Report {
                other_way: way % STORE_WAY >= OTHER_WAY,
                ..Report::default()
            },
            declined: false,
            diverted: false,
            seen: None,
            shown,
        }
    }

    fn ended(&self) -> Ended {
        Ended {
            mover: self.mover,
            way: self.way,
            origin: self.origin,
            last: self.pos,
            skip: self.out_of_move,
            opponent_was_empty: self.opponent_was_empty,
            opponent_had: self.opponent_had,
            ply: self.ply,
            sown: self.sown,
            lifted: u32::from(self.lifted),
            relays: self.relays,
            captured: u32::from(self.report.captured),
            taken: self.taken,
            visited: self.visited,
        }
    }

    /// What decides the rest of the move (the in-move repetition left out), for position keys.
    pub fn key(&self) -> impl std::hash::Hash {
        let progress = [self.pos, self.lap, self.skip].map(|s| s as u8);
        let counts = [
            self.sown,
            self.relays,
            u32::from(self.report.captured),
            self.taken,
        ];
        (
            progress,
            self.way,
            self.hand,
            (self.opponent_was_empty, self.opponent_had),
            counts,
            self.visited,
            self.declined,
        )
    }
}

/// A choice the rules leave to a player in the middle of a move: take or leave.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Question {
    /// The pit in `slot`, which `sowing.take` matched: to its owner's store, or left.
    Take { slot: u8 },
    /// The pit in `slot`, which `house.when` matched: the mover's house, or left.
    House { slot: u8, also: u8 },
    /// The capture of the pits in `taken` (bit = slot), once the sowing has ended or, with
    /// captures sown on, at a lap's end (`lap`).
    Capture {
        taken: u64,
        grand_slam: bool,
        lap: bool,
        /// The pits the mover picks after it, when it takes stones (`capture.pick`).
        picks: u8,
        /// The most stones it takes from each pit.
        most: u8,
    },
    /// After a capture that took stones (`capture.pick`): a pit for the mover to pick and
    /// take, `left` picks to go, this one included.
    Pick { left: u8 },
    /// After a capture with `to = "pick"`: the pit the captured stones (in hand) go into.
    Place,
    /// At a lap's end where `sowing.relay_choice` holds: lift the pit in `slot` and sow on
    /// (`take`), or stop there (`leave`).
    Relay { slot: u8 },
    /// After a drop into the pit in `slot` where `sowing.drop_choice` holds: another stone
    /// into it (`take`), or on to the next pit (`leave`).
    Drop { slot: u8 },
    /// A store sown round the mover's own pits (`store_circuit = "chosen"`) at their last
    /// one, the pit in `slot`, stones still in hand: on into the opponent's pits (`take`), or
    /// round the mover's again (`leave`).
    Circuit { slot: u8 },
    /// At a lap's start where both ways are open (`lap_way = "chosen"`): the stones sown from
    /// the pit in `slot` (lifted from it when `relay`, else captured stones in hand) go the
    /// other way round (`take`) or the rules' way (`leave`).
    Way { slot: u8, relay: bool },
}

/// A move paused at a question (the decider is the rules' chooser, see `choice.rs`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Paused {
    pub sowing: Sowing,
    pub question: Question,
}

/// What the capture condition found: the pits it takes.
#[derive(Clone, Copy)]
struct Hit {
    taken: u64,
    /// Stones in them.
    stones: u32,
    grand_slam: bool,
    /// Whose store they go to (`capture.taker`).
    taker: usize,
    /// The pits the mover picks after it (`capture.pick`, where `pick_when` holds).
    picks: u8,
    /// The most stones it takes from each pit (`capture.take_max`; `u8::MAX`: all).
    most: u8,
}

/// Positions seen before relay lifts within one move: a few on the stack, more in a hash set
/// only for long relay chains (a rules file may allow many laps).
#[derive(Clone, Debug, PartialEq)]
struct Seen {
    near: [[u8; SLOTS + 1]; 24],
    len: usize,
    far: HashSet<[u8; SLOTS + 1]>,
}

impl Seen {
    fn new() -> Box<Self> {
        Box::new(Seen {
            near: [[0; SLOTS + 1]; 24],
            len: 0,
            far: HashSet::new(),
        })
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
    /// The next slot of circuit `way` after `pos`, passing over closed pits and `skip`.
    /// Terminates: a move is only legal when its circuit has an open slot besides the origin.
    #[inline]
    fn step(&self, b: &Board, way: usize, pos: usize, skip: usize) -> usize {
        self.step_on(&self.geo.next[way], b, pos, skip)
    }

    /// The pit a relay looks at after `pos`: the next one, or the previous one when the rules
    /// relay backwards (the `next` and `beyond` views follow the same way).
    #[inline]
    fn look(&self, b: &Board, way: usize, pos: usize, skip: usize) -> usize {
        let steps = match self.sowing.relay {
            Relay::Previous => &self.geo.prev[way],
            _ => &self.geo.next[way],
        };
        let mut pos = self.step_on(steps, b, pos, skip);
        // A circuit holds pits besides its stores: this ends.
        while self.passes_store(pos) {
            pos = self.step_on(steps, b, pos, skip);
        }
        pos
    }

    /// Whether `slot` is a store the rules pass over when they look along the circuit
    /// (`relay_stores = "pass"`).
    #[inline(always)]
    fn passes_store(&self, slot: usize) -> bool {
        slot >= STORE && self.sowing.relay_stores == RelayStores::Pass
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

    /// After a drop into `s.pos`: the pit marked as sown into, houses emptied where they keep
    /// nothing.
    #[inline(always)]
    fn dropped(&self, b: &mut Board, s: &mut Sowing) {
        s.visited |= 1 << s.pos;
        if self.empties_houses() {
            b.empty_houses();
        }
        self.show(b, s);
    }

    /// Records the board for people watching the move, when it is shown.
    #[inline(always)]
    fn show(&self, b: &Board, s: &Sowing) {
        if s.shown {
            crate::shown::record(b, s.hand);
        }
    }

    /// After a drop into `s.pos`, stones still in hand: the question whether another goes into
    /// the same pit, where `sowing.drop_choice` holds (only while `ask`: a trial sows on).
    #[cold]
    fn drop_more(&self, b: &Board, s: &Sowing, ask: bool) -> Option<Question> {
        let choice = self.sowing.drop_choice.as_ref()?;
        if !ask || s.hand == 0 || s.pos >= STORE || s.diverted {
            return None;
        }
        let mut ctx = self.move_ctx(b, s);
        ctx.hand = u32::from(s.hand);
        choice
            .test(&mut ctx, s.pos)
            .then_some(Question::Drop { slot: s.pos as u8 })
    }

    /// A store sown round the mover's own pits (`store_circuit = "chosen"`), at their last pit
    /// with stones in hand: the question whether it goes on into the opponent's pits (only
    /// while `ask`: a trial goes round again).
    #[cold]
    fn store_circuit(&self, s: &Sowing, ask: bool) -> Option<Question> {
        let at_end = s.way == s.mover + STORE_WAY
            && s.pos == usize::from(self.geo.store_entry[s.mover])
            && s.hand > 0;
        (ask && at_end && self.sowing.circuit.store_ring == StoreRing::Chosen)
            .then_some(Question::Circuit { slot: s.pos as u8 })
    }

    /// A drop into `s.pos` of as many stones as `sowing.drops` says (at least one, at most
    /// those in hand; one without the rule), or into a store where `sowing.divert` says so
    /// (with the whole hand, which ends the lap, where `divert_hand` says so).
    #[cold]
    #[inline(never)]
    fn drop_counted(
        &self,
        b: &mut Board,
        s: &mut Sowing,
        drops: Option<&Expr>,
        filling: bool,
    ) -> Dropped {
        let n = drops.map_or(1, |d| {
            let mut ctx = self.move_ctx(b, s);
            ctx.hand = u32::from(s.hand);
            ctx.views[View::Pit as usize] = s.pos as u8;
            d.eval(&ctx).clamp(1, i32::from(s.hand)) as u8
        });
        let diverted = self.sowing.divert.as_ref().is_some_and(|d| {
            let mut ctx = self.move_ctx(b, s);
            ctx.hand = u32::from(s.hand - n);
            d.test(&mut ctx, s.pos)
        });
        let all = diverted && self.sowing.divert_hand == DivertHand::All;
        let n = if all { s.hand } else { n };
        s.hand -= n;
        s.sown += u32::from(n);
        // A lap the whole hand left ends at the pit before, as any lap's end.
        s.diverted = diverted && !all;
        if diverted {
            let to = match self.sowing.divert_to {
                TakeTo::Owner => self.geo.owner_of(b, s.pos),
                TakeTo::Mover => s.mover,
            };
            b.count[STORE + to] += n;
            // The pit, as it is, is still checked by `take`.
            return if all { Dropped::LapOver } else { Dropped::Pit };
        }
        b.count[s.pos] += n;
        match filling && b.is_closed(s.pos) {
            true => Dropped::Stays,
            false => Dropped::Pit,
        }
    }

    /// The slot the next stone of `s` falls into: the next one along its circuit, or, where
    /// the rules pass over pits (`sowing.skip`), the first after it they do not; when they
    /// would pass over every slot of the circuit, the next one.
    #[inline]
    fn next_drop(&self, b: &Board, s: &Sowing) -> usize {
        let first = match self.sowing.fill_across && b.closed != 0 {
            true => self.step_filling(b, s),
            false => self.step(b, s.way, s.pos, s.skip),
        };
        let Some(skip) = &self.sowing.skip else {
            return first;
        };
        if b.is_closed(first) {
            return first;
        }
        let mut ctx = self.move_ctx(b, s);
        ctx.hand = u32::from(s.hand) - 1;
        let mut pos = first;
        for _ in 0..self.geo.circuit_len[s.mover] {
            if !skip.test(&mut ctx, pos) {
                return pos;
            }
            pos = self.step(b, s.way, pos, s.skip);
        }
        first
    }

    /// The next slot of the move's circuit after `s.pos` where pits out of play across the
    /// board are filled (`closed = "fill-across"`): the mover's own closed pits are passed over,
    /// one across the board is the stone's place.
    #[cold]
    fn step_filling(&self, b: &Board, s: &Sowing) -> usize {
        let next = &self.geo.next[s.way];
        let mut pos = s.pos;
        loop {
            pos = usize::from(next[pos]);
            let own = pos < STORE && usize::from(self.geo.owner[pos]) == s.mover;
            if pos != s.skip && !(b.is_closed(pos) && own) {
                return pos;
            }
        }
    }

    /// Sows `hand` stones one a slot after `pos`; returns the last slot.
    #[inline]
    fn drop_stones(
        &self,
        b: &mut Board,
        way: usize,
        mut pos: usize,
        hand: u8,
        skip: usize,
        visited: &mut u64,
    ) -> usize {
        let next = &self.geo.next[way];
        let mut left = hand;
        while left > 0 {
            pos = usize::from(next[pos]);
            if pos == skip || b.is_closed(pos) {
                continue;
            }
            b.count[pos] += 1;
            *visited |= 1 << pos;
            left -= 1;
        }
        pos
    }

    /// The pits of `opp` a grand slam empties (`capture.grand_slam_pits`): those they own, or
    /// their side of the board whoever owns it; in play, houses left out.
    #[inline]
    fn slam_pits(&self, b: &Board, cap: &CaptureRule, opp: usize) -> u64 {
        let pits = match cap.slam_across {
            false => self.geo.held_mask(b, opp),
            true => self.geo.side_mask[opp],
        };
        pits & !b.closed_mask() & !b.house_mask()
    }

    /// The stones in the pits of `opp` a grand slam empties.
    #[inline]
    /// What a move's captures judge by the position at its start: whether the opponent's
    /// pits were empty where the rules judge feeding after the capture (`must_feed =
    /// "kept"`), and the opponent's stones in play (`opponent_had`, counted only where a
    /// capture's condition reads it).
    fn at_start(&self, b: &Board, mover: usize) -> (bool, u32) {
        let kept = self.sowing.must_feed == MustFeed::Kept;
        let reads = [&self.capture, &self.capture_before]
            .iter()
            .any(|c| c.as_ref().is_some_and(|c| c.reads_opponent_had));
        let empty = kept && self.slam_left(b, self.capture.as_ref(), 1 - mover) == 0;
        let had = match reads {
            true => self.open_stones(b, 1 - mover),
            false => 0,
        };
        (empty, had)
    }

    fn slam_left(&self, b: &Board, cap: Option<&CaptureRule>, opp: usize) -> u32 {
        match cap {
            Some(cap) if cap.slam_across => {
                let pits = self.slam_pits(b, cap, opp);
                (0..2 * self.geo.n)
                    .filter(|&s| pits >> s & 1 == 1)
                    .map(|s| u32::from(b.count[s]))
                    .sum()
            }
            _ => self.open_stones(b, opp),
        }
    }

    #[inline]
    pub(crate) fn open_stones(&self, b: &Board, p: usize) -> u32 {
        let n = self.geo.n;
        if b.closed == 0 && b.ceded == 0 {
            let sum: u32 = b.count[p * n..p * n + n]
                .iter()
                .map(|&c| u32::from(c))
                .sum();
            return match self.geo.kept_houses {
                true => sum - b.housed(self.geo.side_mask[p]),
                false => sum,
            };
        }
        let held = self.geo.held_mask(b, p) & !b.closed_mask() & !b.house_mask();
        (0..2 * n)
            .filter(|&s| held >> s & 1 == 1)
            .map(|s| u32::from(b.count[s]))
            .sum()
    }

    /// Plays pit `pit` of the mover of circuit `way` (`mover`, `mover + OTHER_WAY` sown the
    /// other way round, or `mover + STORE_WAY`: their store, `pit` unread) on `b`, lifting
    /// `lift` stones (0: all of them). With a place for it in `pause`, a choice the rules leave
    /// to a player pauses the move there (the report is then void); without (a trial of the
    /// move), every choice is taken. (The report comes back in registers: a `Result` holding
    /// it would go through memory, a stall on the hot path.)
    pub(crate) fn sow(
        &self,
        b: &mut Board,
        (way, pit, lift): (usize, usize, u8),
        ply: u32,
        pause: Option<&mut Option<Box<Paused>>>,
    ) -> Report {
        if !(self.fast.plain && b.closed == 0) {
            return self.sow_general(b, (way, pit, lift), (ply, false), pause);
        }
        // A plain game sows the rules' way only: `way` is the mover.
        debug_assert!(way < OTHER_WAY);
        let mover = way;
        // The common case: one precomputed run, then the capture and moving again.
        let g = &self.geo;
        let origin = g.slot(mover, pit);
        let hand = b.count[origin];
        let (last, last_count, visited) = self.runs.lift_and_sow(b, mover, origin, hand);
        let mut report = Report {
            fed: visited & g.side_mask[1 - mover] != 0,
            last: last as u8,
            origin: origin as u8,
            lifted: hand,
            ..Report::default()
        };
        if let Some(cap) = &self.capture {
            // Most moves fail a tabulated condition: nothing else to compute.
            if cap.when.lookup(mover, last, last_count) != Some(false) {
                // Built only for a capture: most moves need none of it.
                let skip = match self.sowing.skip_origin {
                    SkipOrigin::Never | SkipOrigin::Lap => NO_SLOT as usize,
                    SkipOrigin::Move => origin,
                };
                let sowing = Ended {
                    mover,
                    way,
                    origin,
                    last,
                    skip,
                    opponent_was_empty: false,
                    // Counted in the general path only (`CaptureRule::reads_opponent_had`).
                    opponent_had: 0,
                    ply,
                    sown: u32::from(hand),
                    lifted: u32::from(hand),
                    relays: 0,
                    captured: 0,
                    taken: 0,
                    visited,
                };
                let (captured, grand_slam) = self.capture(b, cap, &sowing);
                report.captured = captured as u16;
                report.grand_slam = grand_slam;
            }
        }
        if let Some(again) = &self.turn.again {
            let mut ctx = Ctx::new(b, g, mover, ply);
            ctx.sown = u32::from(hand);
            ctx.lifted = u32::from(hand);
            ctx.visited = visited;
            ctx.captured = u32::from(report.captured);
            ctx.grand_slam = report.grand_slam;
            ctx.views[View::Last as usize] = last as u8;
            ctx.views[View::Origin as usize] = origin as u8;
            report.again = again.test(&ctx);
        }
        report
    }

    /// A move with what the common case leaves out: closed pits, relays, take on drop, the
    /// first stone back in its pit, houses, captures sown on, choices; and every move `shown`
    /// (played out stone by stone for people to watch).
    #[inline(never)]
    pub(crate) fn sow_general(
        &self,
        b: &mut Board,
        (way, pit, lift): (usize, usize, u8),
        (ply, shown): (u32, bool),
        pause: Option<&mut Option<Box<Paused>>>,
    ) -> Report {
        let ask = pause.is_some();
        let mover = way % OTHER_WAY;
        if way >= STORE_WAY {
            return self.sow_store(b, mover, lift, (ply, shown), pause);
        }
        let origin = self.geo.slot_from(mover, pit);
        if ply == 0 && self.fast.opens {
            return self.open(b, (mover, origin), ply, pause);
        }
        let skip = match self.sowing.skip_origin {
            SkipOrigin::Never => NO_SLOT as usize,
            SkipOrigin::Lap | SkipOrigin::Move => origin,
        };
        let out_of_move = match self.sowing.skip_origin {
            SkipOrigin::Move => origin,
            SkipOrigin::Never | SkipOrigin::Lap => NO_SLOT as usize,
        };
        let (opponent_was_empty, opponent_had) = self.at_start(b, mover);
        // A capture before the sowing, around the pit about to be lifted.
        let mut captured_first = (0, false);
        let before = self.capture_before.as_ref().or(self.capture.as_ref());
        if let Some(cap) = before.filter(|c| c.at == CaptureAt::Start) {
            let at = Ended {
                mover,
                way,
                origin,
                last: origin,
                skip: out_of_move,
                opponent_was_empty,
                opponent_had,
                ply,
                sown: 0,
                // The stones about to be lifted (0: all of them).
                lifted: u32::from(if lift == 0 { b.count[origin] } else { lift }),
                relays: 0,
                captured: 0,
                taken: 0,
                visited: 0,
            };
            captured_first = self.capture(b, cap, &at);
            if shown {
                crate::shown::record(b, 0);
            }
        }
        let hand = b.lift(origin, lift);
        // The move's pit is unlocked for good (`sowing.locks`).
        if self.sowing.locks {
            b.locked &= !(1 << origin);
        }
        let mut s = Sowing {
            skip,
            out_of_move,
            report: Report {
                captured: captured_first.0 as u16,
                grand_slam: captured_first.1,
                other_way: way >= OTHER_WAY,
                ..Report::default()
            },
            ..Sowing::lifted(
                (mover, way),
                (origin, origin),
                hand,
                (opponent_was_empty, opponent_had),
                (ply, shown),
            )
        };
        self.first_to_store(b, &mut s);
        // Toguz Korgool's sowing: the first stone back into the pit lifted (one stone moves on).
        let mut question = None;
        if self.sowing.first_origin && hand > 1 {
            b.count[origin] += 1;
            s.hand -= 1;
            s.sown = 1;
            question = self.take_on_drop(b, &mut s, ask);
        }
        self.show(b, &s);
        // Nothing to check drop by drop and no relay: one precomputed run.
        if self.fast.bulk && b.closed == 0 && !shown {
            let runs = if way >= OTHER_WAY {
                self.other_runs
                    .as_ref()
                    .expect("built for a game sown both ways")
            } else {
                &self.runs
            };
            let (last, _, visited) = runs.sow(b, mover, origin, s.hand);
            if self.empties_houses() {
                b.empty_houses();
            }
            s.pos = last;
            s.sown += u32::from(s.hand);
            s.hand = 0;
            s.visited = visited;
            question = self.end_sowing(b, &mut s, ask);
        } else if question.is_none() {
            question = self.sow_to_end(b, &mut s, ask);
        }
        self.report_or_pause(b, s, question, pause)
    }

    /// The move's report, or, at a question a player answers, the move paused there.
    #[inline(always)]
    fn report_or_pause(
        &self,
        b: &mut Board,
        s: Sowing,
        question: Option<Question>,
        pause: Option<&mut Option<Box<Paused>>>,
    ) -> Report {
        match (question, pause) {
            (Some(question), Some(pause)) => {
                *pause = Some(Box::new(Paused {
                    sowing: s,
                    question,
                }));
                Report::default()
            }
            _ => self.move_report(b, s),
        }
    }

    /// The counts an opening from `origin` leaves (`sowing.opening`): each pit in play changed
    /// by the rule, the pits counted from the origin along `mover`'s circuit; `None` when it
    /// may not open (the changes do not add up to nothing, or leave a pit below zero or above
    /// what a pit holds).
    #[cold]
    #[inline(never)]
    pub(crate) fn opening_counts(
        &self,
        b: &Board,
        (mover, origin): (usize, usize),
        ply: u32,
    ) -> Option<[u8; SLOTS]> {
        let (change, _) = self.sowing.opening.as_ref()?;
        let g = &self.geo;
        let mut ctx = Ctx::new(b, g, mover, ply);
        ctx.views[View::Origin as usize] = origin as u8;
        let mut counts = b.count;
        let (mut slot, mut steps, mut total) = (origin, 0, 0i64);
        // Once round the circuit (bounded, whatever the circuit).
        for _ in 0..SLOTS {
            if slot < STORE && !b.is_closed(slot) {
                ctx.views[View::Pit as usize] = slot as u8;
                ctx.hand = steps;
                let change = i64::from(change.eval(&ctx));
                let count = i64::from(b.count[slot]) + change;
                counts[slot] = u8::try_from(count).ok()?;
                total += change;
                steps += 1;
            }
            slot = usize::from(g.next[mover][slot]);
            if slot == origin || slot >= SLOTS {
                break;
            }
        }
        (total == 0).then_some(counts)
    }

    /// An opening move from `origin` (`sowing.opening`): the pits changed as the rule says,
    /// then what follows a sowing's end, from the pit `opening_last` names.
    #[cold]
    #[inline(never)]
    fn open(
        &self,
        b: &mut Board,
        (mover, origin): (usize, usize),
        ply: u32,
        pause: Option<&mut Option<Box<Paused>>>,
    ) -> Report {
        let start = self.at_start(b, mover);
        if let Some(counts) = self.opening_counts(b, (mover, origin), ply) {
            b.count = counts;
        }
        let last = match self.sowing.opening.as_ref().map(|o| o.1) {
            // Refused on a board where no pit faces another; the origin, should one slip by.
            Some(OpeningLast::Opposite) if usize::from(self.geo.opposite[origin]) < SLOTS => {
                usize::from(self.geo.opposite[origin])
            }
            _ => origin,
        };
        let mut s = Sowing::lifted(
            (mover, mover),
            (origin, last),
            0,
            (false, start.1),
            (ply, false),
        );
        let question = self.end_sowing(b, &mut s, pause.is_some());
        self.report_or_pause(b, s, question, pause)
    }

    /// A move sowing the mover's store (`sowing.store_move`): `lift` of its stones (0: all),
    /// the first into the mover's first pit along the store's circuit; what follows the last
    /// stone is as for any move.
    #[cold]
    fn sow_store(
        &self,
        b: &mut Board,
        mover: usize,
        lift: u8,
        (ply, shown): (u32, bool),
        pause: Option<&mut Option<Box<Paused>>>,
    ) -> Report {
        let origin = STORE + mover;
        let entry = usize::from(self.geo.store_entry[mover]);
        let start = self.at_start(b, mover);
        let hand = b.lift(origin, lift);
        // Stones sown on "from the lap's pit" start where the store's sowing did.
        let way = mover + STORE_WAY;
        let mut s = Sowing::lifted((mover, way), (origin, entry), hand, start, (ply, shown));
        self.show(b, &s);
        let question = self.sow_to_end(b, &mut s, pause.is_some());
        self.report_or_pause(b, s, question, pause)
    }

    /// Goes on with a paused move once its question is answered (`take` or `leave`, or the
    /// pit picked): the move's report, or the next question.
    pub(crate) fn resume(
        &self,
        b: &mut Board,
        paused: &mut Paused,
        answer: SowingMove,
    ) -> Option<Report> {
        let take = answer.kind() == MoveKind::Take;
        let s = &mut paused.sowing;
        let next = match paused.question {
            Question::Drop { slot } => {
                if take {
                    b.count[usize::from(slot)] += 1;
                    s.hand -= 1;
                    s.sown += 1;
                    self.dropped(b, s);
                }
                match take {
                    true => self.drop_more(b, s, true),
                    false => None,
                }
                .or_else(|| self.store_circuit(s, true))
                .or_else(|| self.take_on_drop(b, s, true))
                .or_else(|| self.sow_to_end(b, s, true))
            }
            Question::Circuit { .. } => {
                // On along the circuit of the other moves, for the rest of the move.
                if take {
                    s.way = s.mover;
                }
                self.take_on_drop(b, s, true)
                    .or_else(|| self.sow_to_end(b, s, true))
            }
            Question::Take { slot } => {
                if take {
                    self.take_pit(b, s, usize::from(slot));
                }
                self.sow_to_end(b, s, true)
            }
            Question::House { slot, also } => {
                if take {
                    self.claim_houses(b, s.mover, slot, also);
                }
                self.end_capture(b, s, true)
            }
            Question::Capture {
                taken,
                grand_slam,
                lap,
                picks,
                most,
            } => {
                let cap = self.capture.as_ref().expect("a capture was asked");
                let got = if take {
                    self.take_pits(b, cap, (s.mover, most), (taken, &s.ended()))
                } else {
                    0
                };
                s.report.captured = s.report.captured.saturating_add(got as u16);
                s.report.grand_slam = take && grand_slam;
                self.keep_on_board(b, cap, s, got);
                match lap {
                    true if take => {
                        self.sow_on_captured(b, cap, s, got);
                        match self.sowing.lap_way_chosen {
                            true => self
                                .choose_way(b, s, (s.pos, s.hand), true, false)
                                .or_else(|| self.sow_to_end(b, s, true)),
                            false => self.sow_to_end(b, s, true),
                        }
                    }
                    true => {
                        s.declined = true;
                        self.sow_to_end(b, s, true)
                    }
                    false if got > 0 && cap.to == CaptureTo::Pick => self.place(b, s, got, true),
                    false if got > 0 && picks > 0 => self.picks(b, s, picks, true),
                    false => None,
                }
            }
            Question::Pick { left } => {
                if let MoveKind::Pick { slot } = answer.kind() {
                    self.take_picked(b, s, usize::from(slot));
                }
                self.picks(b, s, left - 1, true)
            }
            Question::Place => {
                if let MoveKind::Pick { slot } = answer.kind() {
                    b.count[usize::from(slot)] += s.hand;
                    s.hand = 0;
                }
                None
            }
            Question::Relay { slot } if take && self.sowing.lap_way_chosen => {
                let from = usize::from(slot);
                self.choose_way(b, s, (from, b.count[from]), true, true)
                    .or_else(|| self.sow_on(b, s, Some(from)))
            }
            Question::Relay { slot } => match take {
                true => self.sow_on(b, s, Some(usize::from(slot))),
                false => self.end_sowing(b, s, true),
            },
            Question::Way { slot, relay } => {
                s.way = s.mover + OTHER_WAY * usize::from(take);
                self.sow_on(b, s, relay.then_some(usize::from(slot)))
            }
        };
        match next {
            None => Some(self.move_report(b, s.clone())),
            Some(question) => {
                paused.question = question;
                None
            }
        }
    }

    /// A paused sowing goes on, after the relay lifts `relay` where there is one: to its end,
    /// or, where the lift does not happen (the lap cap, a position seen before), from there.
    fn sow_on(&self, b: &mut Board, s: &mut Sowing, relay: Option<usize>) -> Option<Question> {
        match relay.is_none_or(|from| self.relay_lift(b, s, from)) {
            true => self.sow_to_end(b, s, true),
            false => self.end_sowing(b, s, true),
        }
    }

    /// The sowing from where `s` stands to its end, then the house and the capture; the
    /// question that pauses it, when one does.
    fn sow_to_end(&self, b: &mut Board, s: &mut Sowing, ask: bool) -> Option<Question> {
        self.sow_stones(b, s, ask)
            .or_else(|| self.end_sowing(b, s, ask))
    }

    /// Once the sowing has ended: the house, then the capture.
    #[inline(always)]
    fn end_sowing(&self, b: &mut Board, s: &mut Sowing, ask: bool) -> Option<Question> {
        // Read only by the feeding rule; a stone sown into a house feeds nobody's pits.
        if self.sowing.must_feed != MustFeed::No {
            let held = self.geo.held_mask(b, 1 - s.mover) & !b.house_mask();
            s.report.fed = s.visited & held != 0;
        }
        s.report.end = s.end;
        if s.end != MoveEnd::Sown {
            return None;
        }
        if let Some(house) = &self.house {
            if let Some((slot, also)) = self.house_pit(b, house, &s.ended()) {
                s.report.watched |= HOUSED;
                if ask && house.choice == HouseChoice::Mover {
                    return Some(Question::House { slot, also });
                }
                self.claim_houses(b, s.mover, slot, also);
            }
        }
        self.end_capture(b, s, ask)
    }

    /// The capture once the sowing has ended (and the house is settled).
    fn end_capture(&self, b: &mut Board, s: &mut Sowing, ask: bool) -> Option<Question> {
        let cap = self.capture.as_ref().filter(|c| c.at == CaptureAt::End)?;
        // Most moves fail a tabulated condition: nothing else to compute.
        if cap.when.lookup(s.mover, s.pos, b.count[s.pos]) == Some(false) {
            return None;
        }
        let at = s.ended();
        let hit = self.capture_pits(b, cap, &at)?;
        if ask && cap.choice == CaptureChoice::Mover && self.would_take(cap, &hit) {
            return Some(Question::Capture {
                taken: hit.taken,
                grand_slam: hit.grand_slam,
                lap: false,
                picks: hit.picks,
                most: hit.most,
            });
        }
        let (captured, grand_slam) = self.take_capture(b, cap, &at, hit);
        s.report.captured = s.report.captured.saturating_add(captured as u16);
        s.report.grand_slam = grand_slam;
        self.keep_on_board(b, cap, s, captured);
        match (captured, hit.picks) {
            (0, pick) if pick > 0 && cap.pick_after == PickAfter::When => {
                self.picks(b, s, pick, ask)
            }
            (0, _) => None,
            _ if cap.to == CaptureTo::Pick => self.place(b, s, captured, ask),
            (_, 0) => None,
            (_, pick) => self.picks(b, s, pick, ask),
        }
    }

    /// Captured stones kept on the board go into the last pit or the move's pit
    /// (`capture.to = "last"`, `"origin"`).
    #[inline]
    fn keep_on_board(&self, b: &mut Board, cap: &CaptureRule, s: &Sowing, captured: u32) {
        match cap.to {
            CaptureTo::Last => b.count[s.pos] += captured as u8,
            CaptureTo::Origin => b.count[s.origin] += captured as u8,
            CaptureTo::Store | CaptureTo::Sow | CaptureTo::Pick => {}
        }
    }

    /// The pits the mover may pick (`capture.pick`): in play, holding stones (any, where the
    /// captured stones are `placed`), of the opponent's or where `pick_from` holds (bit =
    /// slot).
    pub(crate) fn pick_pits(&self, b: &Board, s: &Sowing, placed: bool) -> u64 {
        let Some(cap) = &self.capture else {
            return 0;
        };
        let g = &self.geo;
        let mut ctx = self.move_ctx(b, s);
        ctx.views[View::Last as usize] = s.pos as u8;
        (0..2 * g.n)
            .filter(|&slot| (placed || b.count[slot] > 0) && !b.is_closed(slot))
            .filter(|&slot| match &cap.pick_from {
                Some(from) => from.test(&mut ctx, slot),
                None => usize::from(g.owner[slot]) != s.mover,
            })
            .fold(0, |pits, slot| pits | 1 << slot)
    }

    /// The picks after a capture, `left` to go: the question of the next, or, in a trial
    /// (`ask` false), each taken at once from the fullest pit (the lowest slot of equals).
    #[cold]
    fn picks(&self, b: &mut Board, s: &mut Sowing, left: u8, ask: bool) -> Option<Question> {
        for left in (1..=left).rev() {
            let pits = self.pick_pits(b, s, false);
            if pits == 0 {
                return None;
            }
            if ask {
                return Some(Question::Pick { left });
            }
            let fullest = (0..STORE)
                .filter(|&slot| pits >> slot & 1 == 1)
                .max_by_key(|&slot| (b.count[slot], std::cmp::Reverse(slot)))
                .expect("a pit to pick");
            self.take_picked(b, s, fullest);
        }
        None
    }

    /// The captured `stones` go into a pit the mover picks (`capture.to = "pick"`): the
    /// question, with the stones in hand; in a trial (`ask` false), the first pit that may be
    /// picked. A move that has won the game, or a board with no pit to pick, keeps them in the
    /// mover's store.
    #[cold]
    fn place(&self, b: &mut Board, s: &mut Sowing, stones: u32, ask: bool) -> Option<Question> {
        let won = self
            .end
            .win
            .as_ref()
            .is_some_and(|w| w.test(b, &self.geo, s.mover, s.ply));
        let pits = self.pick_pits(b, s, true);
        if won || pits == 0 {
            b.count[STORE + s.mover] += stones as u8;
            return None;
        }
        s.hand = stones as u8;
        if ask {
            return Some(Question::Place);
        }
        b.count[pits.trailing_zeros() as usize] += s.hand;
        s.hand = 0;
        None
    }

    /// The mover takes the pit picked.
    fn take_picked(&self, b: &mut Board, s: &mut Sowing, slot: usize) {
        let got = b.count[slot];
        b.count[slot] = 0;
        b.count[STORE + s.mover] += got;
        s.report.captured = s.report.captured.saturating_add(u16::from(got));
    }

    /// The report of a move whose sowing and capture are done: the sweep of the stones left,
    /// then whether the mover moves again.
    fn move_report(&self, b: &mut Board, s: Sowing) -> Report {
        let mut report = s.report;
        report.last = s.pos as u8;
        report.origin = s.origin as u8;
        report.lifted = s.lifted;
        let swept = self
            .capture
            .as_ref()
            .and_then(|c| Some((c.sweep.as_ref()?, c.sweep_to)));
        if let (Some((sweep, sweep_to)), MoveEnd::Sown) = (swept, s.end) {
            if sweep.test(&self.after_move(b, &s, &report)) {
                let to = match sweep_to {
                    SweepTo::Mover => s.mover,
                    SweepTo::Opponent => 1 - s.mover,
                };
                for slot in 0..2 * self.geo.n {
                    // A house's stones are its owner's.
                    if !b.is_closed(slot) && b.house_mask() >> slot & 1 == 0 {
                        b.count[STORE + to] += b.count[slot];
                        b.count[slot] = 0;
                    }
                }
            }
        }
        if let (Some(again), MoveEnd::Sown) = (&self.turn.again, s.end) {
            report.again = again.test(&self.after_move(b, &s, &report));
        }
        if let Some(up) = self.turn.stages.get(usize::from(b.stage[s.mover])) {
            if up.test(&self.after_move(b, &s, &report)) {
                b.stage[s.mover] += 1;
            }
        }
        report
    }

    /// The names of a move whose sowing and capture are done (contexts again and sweep).
    fn after_move<'a>(&'a self, b: &'a Board, s: &Sowing, report: &Report) -> Ctx<'a> {
        let mut ctx = self.move_ctx(b, s);
        ctx.captured = u32::from(report.captured);
        ctx.grand_slam = report.grand_slam;
        ctx.views[View::Last as usize] = s.pos as u8;
        ctx
    }

    /// The names of a move under way: what it has sown, lifted, captured and taken so far,
    /// and its pit (`origin`).
    fn move_ctx<'a>(&'a self, b: &'a Board, s: &Sowing) -> Ctx<'a> {
        let mut ctx = Ctx::new(b, &self.geo, s.mover, s.ply);
        ctx.sown = s.sown;
        ctx.lifted = u32::from(s.lifted);
        ctx.relays = s.relays;
        ctx.captured = u32::from(s.report.captured);
        ctx.taken = s.taken;
        ctx.visited = s.visited;
        ctx.views[View::Origin as usize] = s.origin as u8;
        ctx
    }

    /// After a drop into `s.pos`: a pit `take` matches goes to its owner's store, or, when the
    /// rules leave that to a player, is asked about (while `ask`).
    #[inline]
    fn take_on_drop(&self, b: &mut Board, s: &mut Sowing, ask: bool) -> Option<Question> {
        let take = self.sowing.take.as_ref()?;
        let pos = s.pos;
        // Only pits are taken from: a store that reaches the count stays.
        if pos >= STORE {
            return None;
        }
        // Most conditions read the pit alone: a table look-up, no context to build.
        let holds = take.lookup(s.mover, pos, b.count[pos]).unwrap_or_else(|| {
            let mut ctx = self.move_ctx(b, s);
            ctx.hand = u32::from(s.hand);
            take.test(&mut ctx, pos)
        });
        if !holds {
            return None;
        }
        s.report.watched |= TOOK;
        // A choice only where the answers differ: the pit holds stones.
        if ask && self.sowing.take_choice != TakeChoice::None && b.count[pos] > 0 {
            return Some(Question::Take { slot: pos as u8 });
        }
        self.take_pit(b, s, pos);
        None
    }

    /// Pit `slot`'s stones go to its owner's store, or the mover's as the rules say; the
    /// move counts them (`taken`).
    fn take_pit(&self, b: &mut Board, s: &mut Sowing, slot: usize) {
        // A lap whose last stone was diverted goes on after a take of its pit.
        s.diverted = false;
        let to = match self.sowing.take_to {
            TakeTo::Owner => self.geo.owner_of(b, slot),
            TakeTo::Mover => s.mover,
        };
        s.taken += u32::from(b.count[slot]);
        b.count[STORE + to] += b.count[slot];
        b.count[slot] = 0;
    }

    /// Once the sowing has ended: the last pit, when the rules make it the mover's house, and
    /// the second pit `also` makes one with it (else `NO_SLOT`). A player holds at most `most`;
    /// a house is never made twice, nor in a store or a closed pit.
    #[inline(never)]
    fn house_pit(&self, b: &Board, house: &HouseRule, at: &Ended) -> Option<(u8, u8)> {
        let (mover, pos) = (at.mover, at.last);
        if b.houses[mover].count_ones() >= house.most
            || pos >= STORE
            || b.is_closed(pos)
            || b.house_owner(pos).is_some()
        {
            return None;
        }
        let mut ctx = self.ended_ctx(b, at);
        ctx.views = self.views_after(b, at.way, pos, at.skip, at.origin);
        if !house.when.as_ref()?.test(&mut ctx, pos) {
            return None;
        }
        let also = house.also.as_ref().and_then(|(pit, cond)| {
            let s = match pit {
                AlsoPit::Prior => ctx.views[View::Prior as usize],
                AlsoPit::Opposite => ctx.views[View::Opposite as usize],
            };
            let free = usize::from(s) < STORE
                && !b.is_closed(usize::from(s))
                && b.house_owner(usize::from(s)).is_none()
                && b.houses[mover].count_ones() + 2 <= house.most;
            (free && cond.as_ref().is_none_or(|c| c.test(&mut ctx, pos))).then_some(s)
        });
        Some((pos as u8, also.unwrap_or(NO_SLOT)))
    }

    /// The last pit, and the second pit of a pair (unless `NO_SLOT`), become `mover`'s houses.
    fn claim_houses(&self, b: &mut Board, mover: usize, slot: u8, also: u8) {
        self.claim_house(b, mover, usize::from(slot));
        if also != NO_SLOT {
            self.claim_house(b, mover, usize::from(also));
        }
    }

    /// The views once a sowing (or a lap) has ended in `last`: `last`, `next` and `beyond`
    /// along way `way` (passing over `skip`), `opposite`, `behind` and `origin`.
    fn views_after(
        &self,
        b: &Board,
        way: usize,
        last: usize,
        skip: usize,
        origin: usize,
    ) -> [u8; VIEWS] {
        let g = &self.geo;
        let next = self.look(b, way, last, skip);
        [
            NO_SLOT,
            last as u8,
            next as u8,
            self.look(b, way, next, skip) as u8,
            g.opposite[last],
            origin as u8,
            g.behind[last],
            NO_SLOT,
            NO_SLOT,
            g.prev[way][last],
        ]
    }

    /// Pit `slot` becomes `mover`'s house: its stones go to their store, or stay in it.
    fn claim_house(&self, b: &mut Board, mover: usize, slot: usize) {
        b.houses[mover] |= 1 << slot;
        if self.empties_houses() {
            b.empty_houses();
        }
    }

    /// Houses send their stones to their owners' stores at once (they do not keep them).
    #[inline]
    fn empties_houses(&self) -> bool {
        self.fast.empties_houses
    }

    /// The general sowing of a move from where `s` stands: stones dropped one at a time (take
    /// on drop, closed pits), captures sown on, relays, the in-move repetition and the lap cap.
    /// Leaves `s` at the sowing's end, or returns the question that pauses it.
    #[inline(never)]
    fn sow_stones(&self, b: &mut Board, s: &mut Sowing, ask: bool) -> Option<Question> {
        let sow_captures = self.capture.as_ref().filter(|c| c.to == CaptureTo::Sow);
        let lap_captures = self
            .capture
            .as_ref()
            .filter(|c| c.to == CaptureTo::Store && c.at == CaptureAt::Lap);
        let drops = self.sowing.drops.as_ref();
        // Drops of several stones, into a store, or with a question after them.
        let counted = self.fast.counted;
        loop {
            let filling = self.sowing.fill_across && b.closed != 0;
            // One stone a drop into a pit in play, unless the rules say otherwise.
            let plain = !filling && !counted;
            if plain && self.sowing.take.is_none() && self.sowing.skip.is_none() && !s.shown {
                s.pos = self.drop_stones(b, s.way, s.pos, s.hand, s.skip, &mut s.visited);
                s.sown += u32::from(s.hand);
                s.hand = 0;
            }
            while s.hand > 0 {
                let before = s.pos;
                s.pos = self.next_drop(b, s);
                if plain {
                    b.count[s.pos] += 1;
                    s.hand -= 1;
                    s.sown += 1;
                } else {
                    match self.drop_counted(b, s, drops, filling) {
                        Dropped::Pit => {}
                        Dropped::Stays => continue,
                        Dropped::LapOver => {
                            s.pos = before;
                            break;
                        }
                    }
                    // A question about the pit just sown comes before `take` looks at it.
                    if let Some(q) = self
                        .drop_more(b, s, ask)
                        .or_else(|| self.store_circuit(s, ask))
                    {
                        self.dropped(b, s);
                        return Some(q);
                    }
                }
                self.dropped(b, s);
                if let Some(q) = self.take_on_drop(b, s, ask) {
                    return Some(q);
                }
                self.show(b, s);
            }
            if self.empties_houses() {
                b.empty_houses();
            }
            if let Some(cap) = sow_captures.filter(|_| !s.declined) {
                // The lap cap comes first: captured stones are never left in hand.
                if s.sown >= self.sowing.max_drops {
                    s.end = MoveEnd::LapCap;
                    return None;
                }
                let at = s.ended();
                match self.capture_pits(b, cap, &at) {
                    Some(hit)
                        if ask
                            && cap.choice == CaptureChoice::Mover
                            && self.would_take(cap, &hit) =>
                    {
                        return Some(Question::Capture {
                            taken: hit.taken,
                            grand_slam: hit.grand_slam,
                            lap: true,
                            picks: 0,
                            most: hit.most,
                        });
                    }
                    Some(hit) => {
                        let (got, grand_slam) = self.take_capture(b, cap, &at, hit);
                        s.report.captured = s.report.captured.saturating_add(got as u16);
                        s.report.grand_slam = grand_slam;
                        if got > 0 {
                            self.sow_on_captured(b, cap, s, got);
                            self.show(b, s);
                            if self.sowing.lap_way_chosen {
                                let at = (s.pos, s.hand);
                                if let Some(q) = self.choose_way(b, s, at, ask, false) {
                                    return Some(q);
                                }
                            }
                            continue;
                        }
                    }
                    None => s.report.grand_slam = false,
                }
            }
            s.declined = false;
            // A capture to the store after every lap; one that took stones may say where the
            // sowing goes on.
            let mut go_on = None;
            if let Some(cap) = lap_captures {
                let (got, grand_slam) = self.capture(b, cap, &s.ended());
                s.report.captured = s.report.captured.saturating_add(got as u16);
                s.report.grand_slam = grand_slam;
                self.show(b, s);
                if got > 0 {
                    go_on = match cap.go_on {
                        GoOn::Relay => None,
                        GoOn::Last => Some(s.pos),
                        GoOn::Next => Some(self.look(b, s.way, s.pos, s.out_of_move)),
                    };
                }
            }
            // A lap whose last stone went to a store is not relayed (unless `take` took the pit).
            if s.diverted && go_on.is_none() {
                return None;
            }
            let from = match (go_on, self.sowing.relay) {
                (Some(from), _) => from,
                (None, Relay::None) => return None,
                (None, Relay::Next | Relay::Previous) => self.look(b, s.way, s.pos, s.out_of_move),
                (None, Relay::Last) => s.pos,
            };
            let liftable = match (go_on, self.sowing.relay) {
                (None, Relay::Last) => b.count[from] > 1,
                _ => b.count[from] > 0,
            };
            // A house is never lifted (only one that keeps its stones has any).
            // A pit out of play is never lifted (a lap's last stone fell into one across the
            // board: `closed = "fill-across"`).
            if !liftable
                || (from >= STORE && self.sowing.relay_stores != RelayStores::Lift)
                || b.is_closed(from)
                || (self.geo.kept_houses && b.house_mask() >> from & 1 == 1)
            {
                return None;
            }
            // The lap's end seen only by rules that look at it.
            let looked = self.sowing.relay_when.is_some() || self.sowing.relay_choice.is_some();
            if go_on.is_none() && looked {
                let mut ctx = self.lap_end_ctx(b, s);
                let mut holds = |c: &Option<PitCond>| c.as_ref().map(|c| c.test(&mut ctx, s.pos));
                match holds(&self.sowing.relay_when) {
                    Some(false) => return None,
                    Some(true) => s.report.watched |= RELAYED,
                    None => {}
                }
                if holds(&self.sowing.relay_choice) == Some(true) {
                    s.report.watched |= STOP_OFFERED;
                    if ask {
                        return Some(Question::Relay { slot: from as u8 });
                    }
                }
            }
            if self.sowing.lap_way_chosen {
                if let Some(q) = self.choose_way(b, s, (from, b.count[from]), ask, true) {
                    return Some(q);
                }
            }
            if !self.relay_lift(b, s, from) {
                return None;
            }
        }
    }

    /// A lap's start where the rules choose its way again (`lap_way = "chosen"`): `reverse`
    /// and `direction_choice` asked of the pit the lap sows from, holding the `stones` about
    /// to be sown. Sets the way, or returns the question when both are open and the mover
    /// is asked (a computer's trial of a move takes the rules' way).
    #[cold]
    #[inline(never)]
    fn choose_way(
        &self,
        b: &mut Board,
        s: &mut Sowing,
        (from, stones): (usize, u8),
        ask: bool,
        relay: bool,
    ) -> Option<Question> {
        let held = std::mem::replace(&mut b.count[from], stones);
        let way = self.way_at(&mut Ctx::new(b, &self.geo, s.mover, s.ply), from);
        b.count[from] = held;
        if way == Way::Both && ask {
            return Some(Question::Way {
                slot: from as u8,
                relay,
            });
        }
        s.way = s.mover + OTHER_WAY * usize::from(way == Way::Other);
        None
    }

    /// A relay lifts `from` and the sowing goes on; false when the move ends there instead
    /// (the lap cap, or a position seen before in the move).
    #[inline(always)]
    fn relay_lift(&self, b: &mut Board, s: &mut Sowing, from: usize) -> bool {
        if s.sown >= self.sowing.max_drops {
            s.end = MoveEnd::LapCap;
            return false;
        }
        let turns = self.sowing.relay_turn.is_some() && self.relay_turns(b, s);
        let way = match turns {
            true => turned(s.way),
            false => s.way,
        };
        // The way sown next is part of where the move stands (a slot number is below 128).
        let mut key = [0u8; SLOTS + 1];
        key[..SLOTS].copy_from_slice(&b.count);
        key[SLOTS] = from as u8 | u8::from(way % STORE_WAY >= OTHER_WAY) << 7;
        if !s.seen.get_or_insert_with(Seen::new).insert(key) {
            s.end = MoveEnd::Cycle;
            return false;
        }
        s.way = way;
        if let Some(close) = &self.sowing.close {
            self.close_pit(b, s, close, from);
        }
        s.hand = b.lift(from, 0);
        self.after_lift(b, s, from);
        self.first_to_store(b, s);
        s.pos = from;
        s.lap = from;
        s.relays += 1;
        if self.sowing.skip_origin == SkipOrigin::Lap {
            s.skip = from;
        }
        self.show(b, s);
        true
    }

    /// Whether the relay at this lap's end sows on the other way round (`sowing.relay_turn`).
    #[cold]
    #[inline(never)]
    fn relay_turns(&self, b: &Board, s: &Sowing) -> bool {
        let turn = self.sowing.relay_turn.as_ref();
        turn.is_some_and(|t| t.test(&mut self.lap_end_ctx(b, s), s.pos))
    }

    /// Closes `from`, the pit a relay is about to lift, when `close` holds at the lap's end
    /// (`sowing.close`): out of play for the rest of the game.
    #[cold]
    fn close_pit(&self, b: &mut Board, s: &Sowing, close: &PitCond, from: usize) {
        if close.test(&mut self.lap_end_ctx(b, s), s.pos) {
            b.closed |= 1 << from;
        }
    }

    /// The names at a lap's end (context relay): the move's, and the views from its last pit.
    fn lap_end_ctx<'a>(&'a self, b: &'a Board, s: &Sowing) -> Ctx<'a> {
        let mut ctx = self.move_ctx(b, s);
        ctx.views = self.views_after(b, s.way, s.pos, s.out_of_move, s.origin);
        ctx
    }

    /// A lift's first stone to the mover's store, where the rules say so (Sokusowo; a lift
    /// holds at least one stone).
    #[inline]
    fn first_to_store(&self, b: &mut Board, s: &mut Sowing) {
        if self.sowing.first_to_store {
            s.hand -= 1;
            b.count[STORE + s.mover] += 1;
        }
    }

    /// The capture at the end of a move (or, when captures are sown, of a lap) whose sowing
    /// ended at `at.last`; returns the stones captured (in the mover's store, or in hand to be
    /// sown on).
    #[inline(always)]
    fn capture(&self, b: &mut Board, cap: &CaptureRule, at: &Ended) -> (u32, bool) {
        match self.capture_pits(b, cap, at) {
            Some(hit) => self.take_capture(b, cap, at, hit),
            None => (0, false),
        }
    }

    /// Whether taking `hit` moves stones (a choice is asked only then).
    fn would_take(&self, cap: &CaptureRule, hit: &Hit) -> bool {
        hit.stones > 0 && !(hit.grand_slam && cap.grand_slam == GrandSlam::NoCapture)
    }

    /// Takes the pits of `hit`, unless the rules make its grand slam capture nothing.
    #[inline(always)]
    fn take_capture(&self, b: &mut Board, cap: &CaptureRule, at: &Ended, hit: Hit) -> (u32, bool) {
        let mover = at.mover;
        let mut taken = hit.taken;
        if hit.grand_slam {
            match cap.grand_slam {
                GrandSlam::NoCapture => return (0, true),
                GrandSlam::LeaveRight | GrandSlam::LeaveLeft => {
                    taken = self.slam_kept(b, cap, mover, taken);
                }
                GrandSlam::Capture | GrandSlam::Forbidden | GrandSlam::Never => {}
            }
        }
        (
            self.take_pits(b, cap, (hit.taker, hit.most), (taken, at)),
            hit.grand_slam,
        )
    }

    /// A grand slam that leaves one pit: of `taken`, the pits the grand slam empties (see
    /// `slam_across`), without the occupied one nearest the mover's right hand or left hand;
    /// all of `taken` when only one of them holds stones.
    #[cold]
    fn slam_kept(&self, b: &Board, cap: &CaptureRule, mover: usize, taken: u64) -> u64 {
        let g = &self.geo;
        let slammed = self.slam_pits(b, cap, 1 - mover);
        let occupied: Vec<usize> = (0..2 * g.n)
            .filter(|&s| slammed >> s & 1 == 1 && b.count[s] > 0)
            .collect();
        // How far from the mover's right hand: across the board the opponent's leftmost
        // column is nearest; on the mover's side, their own rightmost. Then the row across,
        // then the front row.
        let key = |s: &usize| {
            let (row, col) = g.place[usize::from(g.number[*s]) - 1];
            let mine = usize::from(g.owner[*s]) == mover;
            let from_right = match mine {
                false => i32::from(col),
                true => g.cols as i32 + 1 - i32::from(col),
            };
            let from_right = match cap.grand_slam {
                GrandSlam::LeaveRight => from_right,
                _ => g.cols as i32 + 1 - from_right,
            };
            (from_right, mine, row)
        };
        match occupied.iter().copied().min_by_key(key) {
            Some(kept) if occupied.len() > 1 => taken & slammed & !(1 << kept),
            _ => taken,
        }
    }

    /// Empties the pits in `taken` (bit = slot) into the `taker`'s store, or into the hand
    /// when captures are sown on; returns the stones.
    #[inline(always)]
    fn take_pits(
        &self,
        b: &mut Board,
        cap: &CaptureRule,
        (taker, most): (usize, u8),
        (taken, at): (u64, &Ended),
    ) -> u32 {
        match cap.take_max_each {
            false => self.take_each(b, cap, (taker, taken), |_| most),
            true => self.take_pits_each(b, cap, (taker, taken), at),
        }
    }

    /// [`Self::take_pits`] where `take_max` is worked out pit by pit: on the board before
    /// anything is taken, as the capture was.
    #[cold]
    #[inline(never)]
    fn take_pits_each(
        &self,
        b: &mut Board,
        cap: &CaptureRule,
        (taker, taken): (usize, u64),
        at: &Ended,
    ) -> u32 {
        let most = self.take_limits(b, cap, at, taken);
        self.take_each(b, cap, (taker, taken), |s| most[s])
    }

    /// [`Self::take_pits`], `most(slot)` stones at most from each pit.
    #[inline(always)]
    fn take_each(
        &self,
        b: &mut Board,
        cap: &CaptureRule,
        (taker, taken): (usize, u64),
        most: impl Fn(usize) -> u8,
    ) -> u32 {
        let mut captured = 0u32;
        let mut bits = taken;
        while bits != 0 {
            let s = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let got = CaptureRule::takes(b.count[s], most(s));
            captured += u32::from(got);
            b.count[s] -= got;
        }
        if cap.to == CaptureTo::Store {
            b.count[STORE + taker] += captured as u8;
        }
        captured
    }

    /// A chain over alternating empty and occupied pits: on from `first` the way the move
    /// sowed, two pits a step, each pit taken while the pit before it is empty and `chain`
    /// holds for it (`chain_way = "over-empty"`); returns the pits added to `taken`.
    #[cold]
    fn walk_over_empty(
        &self,
        b: &Board,
        cap: &CaptureRule,
        ctx: &mut Ctx,
        first: usize,
        taken: u64,
        at: &Ended,
    ) -> u64 {
        let Some(chain) = &cap.chain else {
            return 0;
        };
        let (g, step) = (&self.geo, &self.geo.next[at.way]);
        let (mut p, mut added, mut gap, mut more) = (first, 0, true, 0u64);
        for _ in 0..g.circuit_len[at.mover] {
            if added == cap.chain_max || p >= SLOTS || step[p] == NO_SLOT {
                break;
            }
            p = usize::from(step[p]);
            if p == at.skip || b.is_closed(p) || self.passes_store(p) {
                continue;
            }
            if gap {
                if p >= STORE || b.count[p] != 0 {
                    break;
                }
                gap = false;
                continue;
            }
            if (taken | more) >> p & 1 == 1 || p >= STORE || !chain.test(ctx, p) {
                break;
            }
            more |= self.chained(b, cap, p);
            added += 1;
            gap = true;
        }
        more
    }

    /// The pits the chain takes at pit `p` (`chain_take`): itself, or with or instead of it
    /// the pits facing it.
    #[inline]
    fn chained(&self, b: &Board, cap: &CaptureRule, p: usize) -> u64 {
        if cap.chain_take == CHAIN_PIT {
            return 1 << p;
        }
        let g = &self.geo;
        let bit = |s: u8| match usize::from(s) {
            s if s < STORE && !b.is_closed(s) => 1u64 << s,
            _ => 0,
        };
        let mut m = 0;
        if cap.chain_take & CHAIN_PIT != 0 {
            m |= 1 << p;
        }
        if cap.chain_take & CHAIN_OPPOSITE != 0 {
            m |= bit(g.opposite[p]);
        }
        if cap.chain_take & CHAIN_COLUMN != 0 {
            m |= g.column[p][..g.rows].iter().fold(0, |m, &s| m | bit(s));
        }
        m
    }

    /// The names of a move whose sowing ended at `at.last`, its views left to the caller.
    #[inline(always)]
    fn ended_ctx<'a>(&'a self, b: &'a Board, at: &Ended) -> Ctx<'a> {
        let mut ctx = Ctx::new(b, &self.geo, at.mover, at.ply);
        ctx.sown = at.sown;
        ctx.lifted = at.lifted;
        ctx.opponent_had = at.opponent_had;
        ctx.relays = at.relays;
        ctx.captured = at.captured;
        ctx.taken = at.taken;
        ctx.visited = at.visited;
        ctx
    }

    /// The names of a capture's conditions once the sowing ended at `at.last`.
    #[inline(always)]
    fn capture_ctx<'a>(&'a self, b: &'a Board, cap: &CaptureRule, at: &Ended) -> Ctx<'a> {
        let g = &self.geo;
        let mut ctx = self.ended_ctx(b, at);
        let pos = at.last;
        let (next, beyond) = if cap.needs_next {
            let next = self.look(b, at.way, pos, at.skip);
            (next, self.look(b, at.way, next, at.skip))
        } else {
            (NO_SLOT as usize, NO_SLOT as usize)
        };
        ctx.views = [
            NO_SLOT,
            pos as u8,
            next as u8,
            beyond as u8,
            g.opposite[pos],
            at.origin as u8,
            g.behind[pos],
            NO_SLOT,
            NO_SLOT,
            NO_SLOT,
        ];
        ctx
    }

    /// The most stones a capture with the names `ctx` takes from the pit in `slot`, where
    /// `take_max` is worked out pit by pit (it reads `pit`).
    #[cold]
    #[inline(never)]
    fn limit_at(cap: &CaptureRule, ctx: &mut Ctx, slot: usize) -> u8 {
        ctx.views[View::Pit as usize] = slot as u8;
        cap.most(ctx)
    }

    /// [`Self::limit_at`] each pit of `taken` (bit = slot), for the capture at `at`.
    #[cold]
    fn take_limits(&self, b: &Board, cap: &CaptureRule, at: &Ended, taken: u64) -> [u8; SLOTS] {
        let mut ctx = self.capture_ctx(b, cap, at);
        let mut most = [u8::MAX; SLOTS];
        for (s, m) in most.iter_mut().enumerate() {
            if taken >> s & 1 == 1 {
                *m = Self::limit_at(cap, &mut ctx, s);
            }
        }
        most
    }

    /// The pits the capture condition takes, when it holds at `at.last`.
    #[inline]
    fn capture_pits(&self, b: &Board, cap: &CaptureRule, at: &Ended) -> Option<Hit> {
        let Ended {
            mover,
            way,
            last: pos,
            skip,
            opponent_was_empty,
            ..
        } = *at;
        let g = &self.geo;
        let opp = 1 - mover;
        let mut ctx = self.capture_ctx(b, cap, at);
        let (next, beyond) = (
            usize::from(ctx.views[View::Next as usize]),
            usize::from(ctx.views[View::Beyond as usize]),
        );
        let hit = match cap.when.lookup(mover, pos, b.count[pos]) {
            Some(hit) => hit,
            None => cap.when.test(&mut ctx, pos),
        };
        if !hit {
            return None;
        }
        // The pit facing a slot (none for a store or no slot).
        let facing = |s: usize| if s < SLOTS { g.opposite[s] } else { NO_SLOT };
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
                Target::OppositeNext => add(facing(next)),
                Target::OppositeBeyond => add(facing(beyond)),
                Target::Store => {}
            }
        }
        // Stores, where the rules take them (`take_store`): the last pit when it is one, the
        // mover's own when named.
        if cap.last_store && pos >= STORE {
            taken |= 1 << pos;
        }
        if cap.own_store {
            taken |= 1 << (STORE + mover);
        }
        match (&cap.chain, cap.chain_way, cap.targets.first()) {
            (Some(chain), ChainWay::All, _) => {
                // No walk: every pit in play the chain holds for, up to `chain_max` of them.
                let mut added = 0;
                for p in 0..2 * g.n {
                    if added == cap.chain_max {
                        break;
                    }
                    if taken >> p & 1 == 0 && !b.is_closed(p) && chain.test(&mut ctx, p) {
                        taken |= self.chained(b, cap, p);
                        added += 1;
                    }
                }
            }
            (Some(chain), chain_way, Some(first)) => {
                let first = match first {
                    Target::Last => pos,
                    Target::Next => next,
                    Target::Beyond => beyond,
                    Target::Opposite | Target::Column => usize::from(g.opposite[pos]),
                    Target::OppositeNext => usize::from(facing(next)),
                    Target::OppositeBeyond => usize::from(facing(beyond)),
                    Target::Store => STORE + mover,
                };
                let walks: &[&[u8; SLOTS]] = match chain_way {
                    ChainWay::Back => &[&g.prev[way]],
                    ChainWay::On => &[&g.next[way]],
                    ChainWay::Both | ChainWay::All => &[&g.prev[way], &g.next[way]],
                    // Its own walk, two pits a step.
                    ChainWay::OverEmpty => &[],
                };
                if chain_way == ChainWay::OverEmpty {
                    taken |= self.walk_over_empty(b, cap, &mut ctx, first, taken, at);
                }
                for step in walks {
                    let (mut p, mut added) = (first, 0);
                    for _ in 0..g.circuit_len[mover] {
                        if added == cap.chain_max || p >= SLOTS || step[p] == NO_SLOT {
                            break;
                        }
                        p = usize::from(step[p]);
                        if p == skip || b.is_closed(p) || self.passes_store(p) {
                            continue;
                        }
                        if taken >> p & 1 == 1 || p >= STORE || !chain.test(&mut ctx, p) {
                            break;
                        }
                        taken |= self.chained(b, cap, p);
                        added += 1;
                    }
                }
            }
            _ => {}
        }
        let mut stones = 0u32;
        let mut from_opp = 0u32;
        // A house's stones are its owner's, not in the opponent's pits.
        let slammed = self.slam_pits(b, cap, opp);
        let most = cap.most(&ctx);
        let mut bits = taken;
        while bits != 0 {
            let s = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let most = match cap.take_max_each {
                true => Self::limit_at(cap, &mut ctx, s),
                false => most,
            };
            let got = u32::from(CaptureRule::takes(b.count[s], most));
            stones += got;
            if slammed >> s & 1 == 1 {
                from_opp += got;
            }
        }
        Some(Hit {
            taken,
            stones,
            // The stones left counted only when the capture took some of them.
            grand_slam: !opponent_was_empty
                && from_opp > 0
                && self.slam_left(b, Some(cap), opp) == from_opp,
            taker: match cap.taker {
                Taker::Mover => mover,
                Taker::Owner => g.owner_of(b, pos),
            },
            picks: match &cap.pick_when {
                Some(when) if cap.pick > 0 && !when.test(&ctx) => 0,
                _ => cap.picks(&ctx),
            },
            most,
        })
    }

    /// The legal moves of `mover` as a bit set of pit numbers: bit k - 1 = pit k sown the
    /// rules' way, bit k - 1 + `WAY_BITS` = pit k sown the other way round.
    #[inline(always)]
    pub(crate) fn legal_mask(
        &self,
        b: &Board,
        mover: usize,
        ply: u32,
        opening: bool,
        memory: &Memory,
    ) -> u64 {
        // Two copies: where pits never change owner, the pits of a side are the mover's
        // (a branch on the board's owners in the one copy cost Oware's benchmark some 2%).
        if self.geo.moves_across() {
            self.mask_of::<true>(b, mover, ply, opening, memory)
        } else {
            self.mask_of::<false>(b, mover, ply, opening, memory)
        }
    }

    /// [`Self::legal_mask`], `HELD`: pits may be held across the board.
    #[inline(always)]
    fn mask_of<const HELD: bool>(
        &self,
        b: &Board,
        mover: usize,
        ply: u32,
        opening: bool,
        memory: &Memory,
    ) -> u64 {
        let g = &self.geo;
        if b.closed != 0 {
            // Somewhere to sow besides the origin.
            let open = (g.circuit_mask[mover] & !b.closed).count_ones();
            if open < 2 {
                return 0;
            }
        }
        // Bit k - 1 = pit k: first every open pit holding stones, then the start condition.
        let mut mask = if !HELD || (b.ceded == 0 && !g.from_board) {
            let base = mover * g.n;
            u64::from(b.nonzero_mask(base, g.n)) & !(b.closed >> base)
        } else {
            self.held_pits(b, mover)
        };
        // One test for the common case: every pit holding stones starts a move, the rules' way.
        if !self.fast.plain_start {
            // Houses never start a move (only those that keep their stones hold any).
            if g.kept_houses {
                mask &= !self.pit_bits(b.house_mask(), mover);
            }
            if !self.fast.start_is_nonzero {
                let mut ctx = Ctx::new(b, g, mover, ply);
                memory.show(&mut ctx);
                let opening = ply == 0 && self.fast.opens;
                let mut bits = mask;
                while bits != 0 {
                    let k = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let slot = g.slot_from(mover, k + 1);
                    if !self.sowing.start.test(&mut ctx, slot)
                        || (opening && self.opening_counts(b, (mover, slot), ply).is_none())
                    {
                        mask &= !(1 << k);
                    }
                }
            }
            if self.sowing.directed {
                mask = self.ways(b, mover, ply, mask, memory);
            }
        }
        if let (true, Some(first)) = (opening, self.setup.first_move) {
            mask &= BOTH_WAYS << (first - 1);
        }
        let opp = (1 - mover) * g.n;
        let feed = self.sowing.must_feed != MustFeed::No
            && if !HELD || b.ceded == 0 {
                u64::from(b.nonzero_mask(opp, g.n)) & !(b.closed >> opp) == 0
            } else {
                self.open_stones(b, 1 - mover) == 0
            };
        let slam_rule = self.capture.as_ref().map(|c| c.grand_slam);
        let forbid = matches!(slam_rule, Some(GrandSlam::Forbidden | GrandSlam::Never));
        if !self.fast.plain_start && self.lifts() {
            // Each number lifted and the store are judged as moves of their own.
            return self.mark_lifts(b, (mover, ply, memory), mask, (feed, forbid));
        }
        if mask != 0 && (feed || forbid) {
            let (mut fed, mut slams) = (0u64, 0u64);
            let mut bits = mask;
            while bits != 0 {
                let bit = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let way = mover + OTHER_WAY * (bit / WAY_BITS);
                let (fed_now, slam) = self.trial(b, (way, bit % WAY_BITS + 1, 0), ply);
                fed |= u64::from(fed_now) << bit;
                slams |= u64::from(slam) << bit;
            }
            if self.feeds_only(feed, fed != 0) {
                mask = fed;
            }
            if self.slams_go(mask & !slams != 0) {
                mask &= !slams;
            }
        }
        mask
    }

    /// A move tried on a copy of `b`, every choice within it taken: whether it leaves the
    /// opponent stones as the feeding rule judges it, and whether it is a grand slam.
    pub(crate) fn trial(&self, b: &Board, spec: (usize, usize, u8), ply: u32) -> (bool, bool) {
        let mover = spec.0 % OTHER_WAY;
        let mut trial = *b;
        let r = self.sow(&mut trial, spec, ply, None);
        let fed = match self.sowing.must_feed {
            MustFeed::Kept => self.open_stones(&trial, 1 - mover) > 0,
            _ => r.fed,
        };
        (fed, r.grand_slam)
    }

    /// Whether only the moves tried that feed stay: the opponent has no stones (`feed`), and
    /// some move feeds them or the rules give no other move.
    pub(crate) fn feeds_only(&self, feed: bool, any_fed: bool) -> bool {
        feed && (any_fed || self.sowing.cannot_feed == CannotFeed::NoMove)
    }

    /// Whether the grand slams among the moves left go (`any_other`: some move left is none).
    pub(crate) fn slams_go(&self, any_other: bool) -> bool {
        match self.capture.as_ref().map(|c| c.grand_slam) {
            Some(GrandSlam::Never) => true,
            Some(GrandSlam::Forbidden) => any_other,
            _ => false,
        }
    }

    /// The pits `mover` holds, in play and holding stones, in their numbering counted on
    /// along the board (bit k - 1 = pit k, pits across the board from n + 1): a board on which
    /// rounds have changed owners.
    #[cold]
    #[inline(never)]
    fn held_pits(&self, b: &Board, mover: usize) -> u64 {
        let g = &self.geo;
        let held = match g.from_board {
            true => g.side_mask[0] | g.side_mask[1],
            false => g.held_mask(b, mover),
        } & !b.closed_mask();
        (0..2 * g.n)
            .filter(|&k| {
                let s = g.slot_from(mover, k + 1);
                held >> s & 1 == 1 && b.count[s] > 0
            })
            .fold(0, |mask, k| mask | 1 << k)
    }

    /// The slots in `slots` as the mover's pit numbers (bit k - 1 = pit k, counted on along the
    /// board past pit n where pits change owner).
    fn pit_bits(&self, slots: u64, mover: usize) -> u64 {
        let g = &self.geo;
        (0..self.move_pits())
            .filter(|&k| slots >> g.slot_from(mover, k + 1) & 1 == 1)
            .fold(0, |bits, k| bits | 1 << k)
    }

    /// Splits the legal pits `mask` (bit k - 1 = pit k) by the way each sows: the rules' way,
    /// the other way round (`sowing.reverse`), or both (`sowing.direction_choice`).
    #[inline(never)]
    fn ways(&self, b: &Board, mover: usize, ply: u32, mask: u64, memory: &Memory) -> u64 {
        let g = &self.geo;
        let mut ctx = Ctx::new(b, &self.geo, mover, ply);
        memory.show(&mut ctx);
        let (mut out, mut bits) = (0, mask);
        while bits != 0 {
            let k = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            out |= match self.way_at(&mut ctx, g.slot_from(mover, k + 1)) {
                Way::Both => BOTH_WAYS << k,
                Way::Other => 1 << (k + WAY_BITS),
                Way::Rules => 1 << k,
            };
        }
        out
    }

    /// The ways round a sowing from `slot` may go: both (`sowing.direction_choice`), the
    /// other way (`sowing.reverse`) or the rules' way; a move's and, with `lap_way =
    /// "chosen"`, a lap's.
    fn way_at(&self, ctx: &mut Ctx, slot: usize) -> Way {
        let holds =
            |c: &Option<PitCond>, ctx: &mut Ctx| c.as_ref().is_some_and(|c| c.test(ctx, slot));
        if holds(&self.sowing.direction_choice, ctx) {
            Way::Both
        } else if holds(&self.sowing.reverse, ctx) {
            Way::Other
        } else {
            Way::Rules
        }
    }

    /// Plays pit `pit` (sown against the rules' direction when `other_way`) of the player to
    /// move and settles what follows, or pauses the move at a choice the rules leave to a
    /// player.
    #[inline]
    pub(crate) fn play_pit(
        &self,
        st: &mut SowingState,
        pit: u8,
        other_way: bool,
        lift: u8,
        shown: bool,
    ) {
        let both = BOTH_WAYS << (pit - 1);
        let chose_way = self.sowing.remembers.ways && st.legal & both == both;
        let way = usize::from(st.to_move) + OTHER_WAY * usize::from(other_way);
        self.play_sowing(st, (way, usize::from(pit), lift), (chose_way, shown));
    }

    /// Plays the move of circuit `way` from pit `pit` (or the store), lifting `lift` stones;
    /// `shown`, played out for people to watch.
    #[inline]
    pub(crate) fn play_sowing(
        &self,
        st: &mut SowingState,
        (way, pit, lift): (usize, usize, u8),
        (chose_way, shown): (bool, bool),
    ) {
        let mover = usize::from(st.to_move);
        st.last_held = 0;
        let before = Before {
            stores: [st.board.store(0), st.board.store(1)],
            houses: st.board.houses,
            stage: st.board.stage,
            chose_way,
        };
        let mut paused = None;
        let spec = (way, pit, lift);
        let r = match shown {
            false => self.sow(&mut st.board, spec, st.ply, Some(&mut paused)),
            true => self.sow_general(&mut st.board, spec, (st.ply, true), Some(&mut paused)),
        };
        match paused {
            None => self.end_move(st, mover, before, r),
            Some(paused) => self.pause(st, paused, before),
        }
    }

    /// A move is over: whose turn it is, the history, the end of the game.
    pub(crate) fn end_move(
        &self,
        st: &mut SowingState,
        mover: usize,
        before: Before,
        mut r: Report,
    ) {
        if let Some(most) = self.turn.again_max {
            // Extra turns in a row are counted; past the most, the turn passes.
            r.again &= st.memory.extra < most;
            st.memory.extra = if r.again { st.memory.extra + 1 } else { 0 };
        }
        st.ply += 1;
        st.opening = false;
        st.last_end = r.end;
        st.last_held = r.held();
        st.last_mover = mover as u8;
        st.to_move = if r.again { mover } else { 1 - mover } as u8;
        if self.sowing.remembers.previous {
            st.memory.previous = Previous {
                origin: r.origin,
                last: r.last,
                lifted: r.lifted,
                captured: r.captured,
                way: 1 + u8::from(r.other_way),
            };
        }
        if before.chose_way && st.memory.ways[mover] == 0 {
            st.memory.ways[mover] = 1 + u8::from(r.other_way);
        }
        // Locks that conditions change after the move change the position as a store does.
        let relocked = self.fast.relocks && self.relock_after(st, mover, &r);
        let stores_changed = relocked
            || before.stores != [st.board.store(0), st.board.store(1)]
            || (self.house.is_some() && before.houses != st.board.houses)
            || before.stage != st.board.stage;
        if stores_changed {
            // A position before this one cannot recur unless the stores change back, and
            // that clears the history again: keys need not hold the stores.
            st.history.clear();
        }
        self.settle(st, mover, stores_changed);
    }
}

impl SowingGame {
    /// [`Self::relock`] after `mover`'s move `r`; out of line, so that a move in the many
    /// games without these rules pays one test.
    #[cold]
    #[inline(never)]
    fn relock_after(&self, st: &mut SowingState, mover: usize, r: &Report) -> bool {
        self.relock(&mut st.board, (mover, st.ply), Some((r.origin, r.last)))
    }

    /// Locks and unlocks pits by the rules' conditions (`sowing.lock_when`, `unlock_when`):
    /// after a move of `mover`'s (`moved`: the slot it started from and where its last stone
    /// fell), or as the sowing begins (`None`: locks only). True when a lock changed.
    #[cold]
    #[inline(never)]
    pub(crate) fn relock(
        &self,
        b: &mut Board,
        (mover, ply): (usize, u32),
        moved: Option<(u8, u8)>,
    ) -> bool {
        let before = b.locked;
        let matching = |b: &Board, cond: &Option<PitCond>, among: u64| -> u64 {
            let Some(cond) = cond else {
                return 0;
            };
            let mut ctx = Ctx::new(b, &self.geo, mover, ply);
            if let Some((origin, last)) = moved {
                ctx.views[View::Origin as usize] = origin;
                ctx.views[View::Last as usize] = last;
            }
            (0..STORE)
                .filter(|&s| among >> s & 1 == 1 && cond.test(&mut ctx, s))
                .fold(0, |m, s| m | 1 << s)
        };
        if moved.is_some() {
            b.locked &= !matching(b, &self.sowing.unlock_when, before);
        }
        b.locked |= matching(b, &self.sowing.lock_when, self.geo.all_pits());
        b.locked != before
    }
}

/// The stores, houses and stages before a move: a move that changes them clears the history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Before {
    stores: [u8; 2],
    houses: [u64; 2],
    stage: [u8; 2],
    /// The mover chose the move's way round (rules that remember it only).
    chose_way: bool,
}
