//! A position of a sowing game and its protocol STATE form.

use super::board::{Board, NO_SLOT, STORE};
use super::choice::Pending;
use super::scope::{Ctx, View};
use super::sow::MoveEnd;
use super::SowingGame;
use ludus_core::game::{Ending, PhaseName, StateFields};
use ludus_core::limits::LIMITS;
use serde_json::{json, Map, Value};
use std::collections::HashSet;

/// A position: the board, whose turn, the legal moves (computed once per ply), the result, the
/// positions seen since the last capture, the match round, and a move paused at a choice.
#[derive(Clone, Debug, PartialEq)]
pub struct SowingState {
    pub(crate) board: Board,
    pub(crate) to_move: u8,
    /// Plies played in this game.
    pub(crate) ply: u32,
    /// Legal pits of the player to move: bit k - 1 = pit k.
    pub(crate) legal: u64,
    /// The first ply of a new game (a forced opening applies).
    pub(crate) opening: bool,
    pub(crate) result: Option<Finish>,
    /// Positions since the stores last changed (only they can recur).
    pub(crate) history: History,
    pub(crate) round: Round,
    pub(crate) last_end: MoveEnd,
    /// The rules' conditions that held in the last move (bits of `sow::WATCHED`).
    pub(crate) last_held: u8,
    /// A move of `to_move` paused at a choice within it.
    pub(crate) pending: Option<Pending>,
    /// The player to move cannot sow and must pass (`end.no_move = "pass"`).
    pub(crate) passing: bool,
    /// The player to sow first decides whether to turn the board round (`[setup] swap`).
    pub(crate) swapping: bool,
    /// The player to move gives the opponent a stone this turn (`[turn] give`).
    pub(crate) giving: bool,
    /// The player to move has given a stone this turn and now makes their move
    /// (`give_then = "move"`): one gift a turn.
    pub(crate) gave: bool,
    /// Who made the last move (at the start of a game: the player not starting).
    pub(crate) last_mover: u8,
    /// What the rules remember of the game (else always none).
    pub(crate) memory: Memory,
}

/// What start conditions may remember of the game: the move before, and the way round each
/// player first chose (`mover.way`: 0 not yet, 1 the rules' way, 2 the other way).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Memory {
    pub(crate) previous: Previous,
    pub(crate) ways: [u8; 2],
    /// The extra turns the player to move has taken in a row (`turn.again_max`).
    pub(crate) extra: u8,
}

impl Memory {
    /// A game's start: nothing remembered.
    pub(crate) const NONE: Memory = Memory {
        previous: Previous::NONE,
        ways: [0; 2],
        extra: 0,
    };
    /// Gives a start condition's context what is remembered.
    pub(crate) fn show(self, ctx: &mut Ctx) {
        ctx.views[View::PreviousOrigin as usize] = self.previous.origin;
        ctx.views[View::PreviousLast as usize] = self.previous.last;
        ctx.previous_lifted = u32::from(self.previous.lifted);
        ctx.previous_captured = u32::from(self.previous.captured);
        ctx.previous_way = self.previous.way;
        ctx.ways = self.ways;
    }
}

/// The move played just before: the pit it started from, where its last stone fell and the
/// stones it lifted (`previous_origin`, `previous_last`, `previous_lifted` in a start
/// condition). Recorded only for rules that read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Previous {
    pub(crate) origin: u8,
    pub(crate) last: u8,
    pub(crate) lifted: u8,
    pub(crate) captured: u16,
    /// The way round it began: 1 the rules' direction, 2 the other way (0: no move).
    pub(crate) way: u8,
}

impl Previous {
    /// No move before (a game's first move, after a pass, rules that remember none).
    pub(crate) const NONE: Previous = Previous {
        origin: NO_SLOT,
        last: NO_SLOT,
        lifted: 0,
        captured: 0,
        way: 0,
    };
}

/// Position keys with a 1024-bit filter in front, so most plies check a bit, not the list; a
/// long history (many plies without a capture) moves into a hash set, so a check never scans.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct History {
    filter: [u64; 16],
    keys: Vec<u128>,
    many: Option<HashSet<u128>>,
}

/// Keys kept in the plain list before they move into the hash set.
const LIST_KEYS: usize = 512;

/// Keys a new game's history has room for: one allocation rather than a string of
/// reallocations as the list grows (most stretches between captures are shorter).
pub(crate) const HISTORY_CAPACITY: usize = 64;

impl History {
    pub fn with_capacity(keys: usize) -> Self {
        History {
            keys: Vec::with_capacity(keys),
            ..History::default()
        }
    }
    /// The bytes the keys take on the heap (a hash set's slot: the key and a control byte).
    pub fn heap_bytes(&self) -> usize {
        let key = std::mem::size_of::<u128>();
        self.keys.capacity() * key + self.many.as_ref().map_or(0, |m| m.capacity() * (key + 1))
    }
    pub fn clear(&mut self) {
        self.filter = [0; 16];
        self.keys.clear();
        self.many = None;
    }
    /// Records `key`; false when it was recorded before.
    #[inline]
    pub fn insert(&mut self, key: u128) -> bool {
        let h =
            ((key as u64 ^ (key >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 54) as usize;
        let (word, bit) = (h >> 6, 1u64 << (h & 63));
        let maybe_seen = self.filter[word] & bit != 0;
        self.filter[word] |= bit;
        if self.keys.len() < LIST_KEYS {
            if maybe_seen && self.keys.contains(&key) {
                return false;
            }
            self.keys.push(key);
            return true;
        }
        self.insert_many(key)
    }

    /// A long history: the keys in a hash set (the list stays as it was, full).
    #[cold]
    #[inline(never)]
    fn insert_many(&mut self, key: u128) -> bool {
        let keys = &self.keys;
        self.many
            .get_or_insert_with(|| keys.iter().copied().collect())
            .insert(key)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Finish {
    pub winner: Option<u8>,
    pub scores: [i32; 2],
    pub reason: EndReason,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The rules' `end.win` condition held for the winner.
    Goal,
    /// The rules' `end.score` condition held.
    Score,
    /// The rules' `end.stop` condition held.
    Stop,
    Repetition,
    NoMove,
    PlyLimit,
    Agreement,
    /// A finished position was set up by hand.
    Set,
}

impl EndReason {
    const ALL: [EndReason; 8] = [
        EndReason::Goal,
        EndReason::Score,
        EndReason::Stop,
        EndReason::Repetition,
        EndReason::NoMove,
        EndReason::PlyLimit,
        EndReason::Agreement,
        EndReason::Set,
    ];

    /// The reason whose words for these scores are `text`.
    pub fn from_text(text: &str, scores: [i32; 2]) -> Option<EndReason> {
        Self::ALL.into_iter().find(|r| r.text(scores) == text)
    }

    /// The reason without the scores.
    pub fn ending(self) -> Ending {
        match self {
            EndReason::Goal => Ending::WinRule,
            EndReason::Score => Ending::Score,
            EndReason::Stop => Ending::Stop,
            EndReason::Repetition => Ending::Repetition,
            EndReason::NoMove => Ending::NoMove,
            EndReason::PlyLimit => Ending::PlyLimit,
            EndReason::Agreement => Ending::Agreement,
            EndReason::Set => Ending::SetUpOver,
        }
    }

    pub fn text(self, scores: [i32; 2]) -> String {
        match self {
            EndReason::Score if scores[0] == scores[1] => {
                format!("draw {}-{}", scores[0], scores[1])
            }
            EndReason::Score => format!("captured {}", scores[0].max(scores[1])),
            EndReason::Goal => "goal reached".into(),
            EndReason::Stop => "end of play".into(),
            EndReason::Repetition => "repetition".into(),
            EndReason::NoMove => "no legal move".into(),
            EndReason::PlyLimit => "ply limit".into(),
            EndReason::Agreement => "agreement".into(),
            EndReason::Set => "set up over".into(),
        }
    }
}

/// The match round a game belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Round {
    /// 1-based.
    pub game: u32,
    /// Stones each player held at the end of the previous round.
    pub points: [i32; 2],
    /// Who moved first in this round.
    pub starter: u8,
}

impl SowingState {
    /// Stones in player p's pit k.
    pub fn pit(&self, game: &SowingGame, p: usize, k: usize) -> u8 {
        self.board.count[game.geo.slot(p, k)]
    }
    pub fn store(&self, p: usize) -> u8 {
        self.board.store(p)
    }
    /// Player p's houses as (side, pit number), South's pits first.
    pub fn houses(&self, game: &SowingGame, p: usize) -> Vec<(usize, usize)> {
        (0..2 * game.geo.n)
            .filter(|&h| self.board.houses[p] >> h & 1 == 1)
            .map(|h| {
                (
                    usize::from(game.geo.owner[h]),
                    usize::from(game.geo.number[h]),
                )
            })
            .collect()
    }
    /// The player whose house player p's pit k is, if it is one.
    pub fn house_owner(&self, game: &SowingGame, p: usize, k: usize) -> Option<usize> {
        self.board.house_owner(game.geo.slot(p, k))
    }
    /// Whether player p's pit k is out of play.
    pub fn is_closed(&self, game: &SowingGame, p: usize, k: usize) -> bool {
        self.board.is_closed(game.geo.slot(p, k))
    }
    /// Whether player p's pit k is held by the other player (won in an earlier round).
    pub fn is_ceded(&self, game: &SowingGame, p: usize, k: usize) -> bool {
        self.board.ceded >> game.geo.slot(p, k) & 1 == 1
    }
    pub fn ply(&self) -> u32 {
        self.ply
    }
    /// The stones player p still holds to place before the sowing (`[setup] to_place`).
    pub fn to_place(&self, p: usize) -> u8 {
        self.board.to_place[p]
    }
    /// Stones in hand: those a move paused at a choice has still to sow.
    pub fn in_hand(&self) -> u8 {
        self.pending.as_ref().map_or(0, |p| p.paused.sowing.hand)
    }
}

impl SowingGame {
    /// STATE `previous`: the move before as `{"origin": [side, pit], "last": [side, pit],
    /// "lifted": stones, "captured": stones, "way": 1 or 2}` (pit 0: a store), or null.
    fn previous_json(&self, p: Previous) -> Value {
        if p == Previous::NONE {
            return Value::Null;
        }
        let place = |s: u8| {
            let s = usize::from(s);
            json!([self.geo.owner[s], self.geo.number[s]])
        };
        json!({"origin": place(p.origin), "last": place(p.last), "lifted": p.lifted,
               "captured": p.captured, "way": p.way})
    }

    /// Reads STATE `ways` (absent or null: no first move made yet).
    fn read_ways(&self, v: Option<&Value>) -> Result<[u8; 2], String> {
        let Some(v) = v.filter(|v| !v.is_null()) else {
            return Ok([0; 2]);
        };
        if !self.sowing.remembers.ways {
            return Err("`ways`: these rules do not remember the players' ways round".into());
        }
        let ways: Vec<u8> = v
            .as_array()
            .filter(|a| a.len() == 2)
            .and_then(|a| a.iter().map(|w| w.as_u64().filter(|&w| w <= 2).map(|w| w as u8)).collect())
            .ok_or("`ways` is [way of player 0, way of player 1], each 0 (no move yet), 1 (the rules' way) or 2 (the other way)")?;
        Ok([ways[0], ways[1]])
    }

    /// Reads STATE `locked` (rules with `sowing.locks`; absent or null: every pit, as at the
    /// start of a game).
    fn read_locked(&self, v: Option<&Value>) -> Result<u64, String> {
        let Some(v) = v.filter(|v| !v.is_null()) else {
            return Ok(if self.sowing.locks {
                self.geo.all_pits()
            } else {
                0
            });
        };
        if !self.sowing.locking() {
            return Err("`locked`: these rules never lock pits".into());
        }
        self.read_pits(v, "locked")
    }

    /// Reads a STATE field listing pits by side, `[[pit numbers], [pit numbers]]` (bit = slot).
    fn read_pits(&self, v: &Value, field: &str) -> Result<u64, String> {
        let n = self.geo.n;
        let rows = v
            .as_array()
            .filter(|r| r.len() == 2)
            .ok_or_else(|| format!("`{field}` is [[pit numbers], [pit numbers]]"))?;
        let mut pits = 0;
        for (p, row) in rows.iter().enumerate() {
            let row = row
                .as_array()
                .ok_or_else(|| format!("`{field}` rows are arrays"))?;
            for k in row {
                let k = k
                    .as_u64()
                    .filter(|k| (1..=n as u64).contains(k))
                    .ok_or_else(|| format!("`{field}`: {k} is not a pit number 1..{n}"))?;
                pits |= 1 << self.geo.slot(p, k as usize);
            }
        }
        Ok(pits)
    }

    /// Reads STATE `extra_turns` (absent or null: none taken).
    fn read_extra(&self, v: Option<&Value>) -> Result<u8, String> {
        let Some(v) = v.filter(|v| !v.is_null()) else {
            return Ok(0);
        };
        let Some(most) = self.turn.again_max else {
            return Err("`extra_turns`: these rules do not limit extra turns".into());
        };
        v.as_u64()
            .filter(|&n| n <= u64::from(most))
            .map(|n| n as u8)
            .ok_or_else(|| {
                format!("`extra_turns` is the extra turns the player to move has taken in a row, 0 to {most}")
            })
    }

    /// Reads STATE `previous` (absent or null: none).
    fn read_previous(&self, v: Option<&Value>) -> Result<Previous, String> {
        let Some(v) = v.filter(|v| !v.is_null()) else {
            return Ok(Previous::NONE);
        };
        if !self.sowing.remembers.previous {
            return Err("`previous`: these rules do not remember the move before".into());
        }
        let n = self.geo.n as u64;
        let bad = || {
            format!(
                "`previous` is {{\"origin\": [side, pit 1..{n}], \"last\": [side, pit 0..{n}] \
                 (0: the store), \"lifted\": stones, \"captured\": stones (0 when left out), \
                 \"way\": 1 the rules' direction or 2 the other way (1 when left out)}} or null"
            )
        };
        let place = |key: &str, store: bool| -> Result<u8, String> {
            let (side, k) = v
                .get(key)
                .and_then(Value::as_array)
                .filter(|a| a.len() == 2)
                .and_then(|a| Some((a[0].as_u64()?, a[1].as_u64()?)))
                .filter(|&(side, k)| side < 2 && k <= n && (k > 0 || store))
                .ok_or_else(bad)?;
            Ok(match k {
                0 if self.geo.stores => (STORE + side as usize) as u8,
                0 => return Err(bad()),
                k => self.geo.slot(side as usize, k as usize) as u8,
            })
        };
        let lifted = v
            .get("lifted")
            .and_then(Value::as_u64)
            .filter(|&l| l <= u64::from(u8::MAX))
            .ok_or_else(bad)?;
        let captured = match v.get("captured") {
            None => 0,
            Some(c) => c
                .as_u64()
                .filter(|&c| c <= u64::from(u16::MAX))
                .ok_or_else(bad)?,
        };
        let way = match v.get("way") {
            None => 1,
            Some(w) => w.as_u64().filter(|w| (1..=2).contains(w)).ok_or_else(bad)?,
        };
        Ok(Previous {
            origin: place("origin", false)?,
            last: place("last", true)?,
            lifted: lifted as u8,
            captured: captured as u16,
            way: way as u8,
        })
    }

    /// The sowing fields of a STATE object: pits, stores, the pits out of play when the rules
    /// close any, and a choice that waits.
    pub(crate) fn write_board_json(&self, st: &SowingState, fields: &mut Map<String, Value>) {
        let n = self.geo.n;
        let b = &st.board;
        let pits: Vec<&[u8]> = (0..2).map(|p| &b.count[p * n..p * n + n]).collect();
        fields.insert("pits".into(), json!(pits));
        fields.insert("stores".into(), json!([b.store(0), b.store(1)]));
        if let Some(rule) = &self.house {
            // One house a player: [side, pit] or null; several: a list of them.
            let houses: Vec<Value> = (0..2)
                .map(|p| {
                    let places = st.houses(self, p);
                    match (rule.most, places.first()) {
                        (1, None) => Value::Null,
                        (1, Some(&(side, k))) => json!([side, k]),
                        _ => json!(places.iter().map(|&(s, k)| [s, k]).collect::<Vec<_>>()),
                    }
                })
                .collect();
            fields.insert("houses".into(), json!(houses));
        }
        if self.closes_pits() {
            let closed: Vec<Vec<usize>> = (0..2)
                .map(|p| (1..=n).filter(|&k| st.is_closed(self, p, k)).collect())
                .collect();
            fields.insert("out_of_play".into(), json!(closed));
        }
        if !self.turn.stages.is_empty() {
            fields.insert("stages".into(), json!(b.stage));
        }
        if self.places_from_hand() {
            fields.insert("to_place".into(), json!(b.to_place));
        }
        if st.swapping {
            fields.insert("swap".into(), json!(true));
        }
        if st.opening && st.result.is_none() {
            fields.insert("opening".into(), json!(true));
        }
        if st.giving {
            fields.insert("give".into(), json!(true));
        }
        if self.sowing.locking() {
            let locked: Vec<Vec<usize>> = (0..2)
                .map(|p| {
                    (1..=n)
                        .filter(|&k| b.is_locked(self.geo.slot(p, k)))
                        .collect()
                })
                .collect();
            fields.insert("locked".into(), json!(locked));
        }
        if self.geo.owners_change {
            let owners: Vec<Vec<usize>> = (0..2)
                .map(|p| {
                    (1..=n)
                        .map(|k| self.geo.owner_of(b, self.geo.slot(p, k)))
                        .collect()
                })
                .collect();
            fields.insert("owners".into(), json!(owners));
        }
        if self.sowing.remembers.previous {
            fields.insert("previous".into(), self.previous_json(st.memory.previous));
        }
        if self.sowing.remembers.ways {
            fields.insert("ways".into(), json!(st.memory.ways));
        }
        if self.turn.again_max.is_some() {
            fields.insert("extra_turns".into(), json!(st.memory.extra));
        }
        if let Some(decision) = self.decision_json(st) {
            fields.insert("decision".into(), decision);
        }
    }

    /// Reads a STATE object: the shared fields, then the board; `result` and `legal` are
    /// ignored (but a finished position's `result.reason`), the end is recomputed.
    pub(crate) fn read_json(&self, v: &Value) -> Result<SowingState, String> {
        let n = self.geo.n;
        let shared = StateFields::read(v, LIMITS.plies_per_game)?;
        let to_move = shared.to_move.ok_or("missing `to_move`")?;
        let obj = shared.object;
        if obj.get("decision").is_some_and(|d| !d.is_null()) {
            return Err(
                "`decision`: a move paused at a choice cannot be set up; set the \
                        position before the move and play it"
                    .into(),
            );
        }
        let count = |v: &Value, what: &str| -> Result<u8, String> {
            match v.as_i64() {
                Some(c) if c < 0 => Err(format!("{what}: negative count {c}")),
                Some(c) if c <= i64::from(u8::MAX) => Ok(c as u8),
                _ => Err(format!("{what}: expected a stone count, got {v}")),
            }
        };
        let mut board = Board::empty();
        let pits = obj
            .get("pits")
            .and_then(Value::as_array)
            .ok_or("missing `pits`: [[player 0's pits], [player 1's pits]]")?;
        if pits.len() != 2 {
            return Err(format!("`pits` has {} rows, expected 2", pits.len()));
        }
        for (p, row) in pits.iter().enumerate() {
            let row = row.as_array().ok_or("`pits` rows are arrays")?;
            if row.len() != n {
                return Err(format!(
                    "player {p} has {} pits listed, the board has {n}",
                    row.len()
                ));
            }
            for (k, c) in row.iter().enumerate() {
                board.count[p * n + k] = count(c, &format!("player {p} pit {}", k + 1))?;
            }
        }
        let stores = obj
            .get("stores")
            .and_then(Value::as_array)
            .ok_or("missing `stores`: [s0, s1]")?;
        if stores.len() != 2 {
            return Err("`stores` lists two counts".into());
        }
        for (p, s) in stores.iter().enumerate() {
            board.count[STORE + p] = count(s, &format!("store {p}"))?;
        }
        if let Some(hands) = obj.get("to_place").filter(|v| !v.is_null()) {
            let list = hands
                .as_array()
                .filter(|l| l.len() == 2)
                .ok_or("`to_place` is [stones player 0 holds to place, player 1's]")?;
            for (p, v) in list.iter().enumerate() {
                board.to_place[p] = count(v, &format!("player {p}'s stones to place"))?;
            }
            if board.to_place != [0, 0] && !self.places_from_hand() {
                return Err(
                    "these rules place no stones from hand (`[setup] to_place`, `[match] arrange`)"
                        .into(),
                );
            }
            if let Some(p) =
                to_move.filter(|&p| board.to_place != [0, 0] && board.to_place[p.min(1)] == 0)
            {
                return Err(format!(
                    "`to_place`: player {p}, to move, holds no stones to place"
                ));
            }
        }
        let total = board.stones();
        if total != self.setup.total {
            return Err(format!(
                "the position holds {total} stones, the rules have {}",
                self.setup.total
            ));
        }
        // The pits off the board (`[setup] closed`) are out of play in every position.
        let off_board = self.setup.board.closed;
        board.closed = off_board;
        if let Some(closed) = obj.get("out_of_play").filter(|v| !v.is_null()) {
            let pits = self.read_pits(closed, "out_of_play")?;
            if pits != 0 && !self.closes_pits() {
                return Err("these rules never put pits out of play".into());
            }
            if pits & off_board != off_board {
                return Err(
                    "`out_of_play` leaves out a pit the rules keep off the board (`[setup] closed`)"
                        .into(),
                );
            }
            board.closed = pits;
        }
        if (0..STORE).any(|s| off_board >> s & 1 == 1 && board.count[s] > 0) {
            return Err(
                "a pit the rules keep off the board (`[setup] closed`) holds stones".into(),
            );
        }
        board.locked = self.read_locked(obj.get("locked"))?;
        if let Some(stages) = obj.get("stages").filter(|v| !v.is_null()) {
            let most = self.turn.stages.len();
            let bad = || match most {
                0 => "`stages`: these rules have none (`turn.stages`)".to_string(),
                _ => format!("`stages` is [stage of player 0, stage of player 1], each 0..{most}"),
            };
            let list = stages.as_array().filter(|l| l.len() == 2).ok_or_else(bad)?;
            for (p, v) in list.iter().enumerate() {
                let k = v.as_u64().filter(|&k| k <= most as u64).ok_or_else(bad)?;
                board.stage[p] = k as u8;
            }
        }
        if let Some(owners) = obj.get("owners").filter(|v| !v.is_null()) {
            let rows = owners
                .as_array()
                .filter(|r| r.len() == 2)
                .ok_or("`owners` is [[owner of each of player 0's pits], [… player 1's]]")?;
            for (p, row) in rows.iter().enumerate() {
                let row = row
                    .as_array()
                    .filter(|r| r.len() == n)
                    .ok_or_else(|| format!("`owners`: player {p}'s row lists {n} owners"))?;
                for (k, o) in row.iter().enumerate() {
                    let owner = o
                        .as_u64()
                        .filter(|&o| o < 2)
                        .ok_or_else(|| format!("`owners`: {o} is not a player, 0 or 1"))?;
                    if owner as usize != p {
                        if !self.geo.owners_change {
                            return Err("these rules never change the owner of a pit".into());
                        }
                        board.ceded |= 1 << (p * n + k);
                    }
                }
            }
        }
        if let Some(houses) = obj.get("houses").filter(|v| !v.is_null()) {
            let houses = houses.as_array().filter(|h| h.len() == 2).ok_or(
                "`houses` is [houses of player 0, houses of player 1], each [side, pit], a list \
                 of them, or null",
            )?;
            for (p, h) in houses.iter().enumerate() {
                let bad = || {
                    format!(
                        "`houses`: player {p}'s houses are [side 0 or 1, pit 1..{n}], a list of \
                         them, or null"
                    )
                };
                let place = |v: &Value| {
                    v.as_array()
                        .filter(|a| a.len() == 2)
                        .and_then(|a| Some((a[0].as_u64()?, a[1].as_u64()?)))
                        .filter(|&(side, k)| side < 2 && (1..=n as u64).contains(&k))
                };
                let places: Vec<(u64, u64)> = match h {
                    Value::Null => Vec::new(),
                    Value::Array(a) if a.iter().all(Value::is_array) => {
                        a.iter().map(place).collect::<Option<_>>().ok_or_else(bad)?
                    }
                    _ => vec![place(h).ok_or_else(bad)?],
                };
                let Some(rule) = &self.house else {
                    if places.is_empty() {
                        continue;
                    }
                    return Err("these rules make no houses".into());
                };
                if places.len() > rule.most as usize {
                    return Err(format!(
                        "`houses`: player {p} holds {} houses, more than the rules' {}",
                        places.len(),
                        rule.most
                    ));
                }
                for (side, k) in places {
                    let slot = self.geo.slot(side as usize, k as usize);
                    if board.house_owner(slot).is_some() {
                        return Err("`houses`: two houses in one pit".into());
                    }
                    if board.count[slot] != 0 && !rule.keeps {
                        return Err(format!(
                            "`houses`: player {p}'s house holds stones (they go to its owner's \
                             store)"
                        ));
                    }
                    board.houses[p] |= 1 << slot;
                }
            }
        }
        // `match` counts only in rules that play one.
        let (game, points) = match shared.match_.zip(self.match_rule.as_ref()) {
            Some((m, rule)) if rule.tally.is_some() => {
                // Points of rounds played afresh: any tally below the target, the stones apart.
                let target = rule.tally.as_ref().map_or(0, |t| t.target);
                let points = m.points.unwrap_or([0, 0]);
                if to_move.is_some() && points.iter().any(|&p| p >= target || p < 0) {
                    return Err(format!(
                        "`match.points` are {points:?}: each must be from 0 to {} (at {target} \
                         the match is over)",
                        target - 1
                    ));
                }
                (m.game.unwrap_or(1), points)
            }
            Some((m, rule)) => {
                let refill = i32::from(rule.refill);
                let points = match m.points {
                    Some(pts) if pts[0] + pts[1] != self.setup.total as i32 => {
                        return Err(format!(
                            "`match.points` hold {} stones, the rules have {}",
                            pts[0] + pts[1],
                            self.setup.total
                        ))
                    }
                    // A match ends when a player cannot fill a pit: a round being played began
                    // with each player holding a pit's worth at least.
                    Some(pts) if to_move.is_some() && pts.iter().any(|&p| p < refill) => {
                        return Err(format!(
                            "`match.points` are {pts:?}: a player holding fewer than {refill} \
                             stones cannot fill a pit, so the match would be over before this \
                             round"
                        ))
                    }
                    Some(pts) => pts,
                    None => self.held(&board),
                };
                (m.game.unwrap_or(1), points)
            }
            None => (1, self.first_points(&self.setup.board)),
        };
        let ply = shared.ply;
        let memory = Memory {
            previous: self.read_previous(obj.get("previous"))?,
            ways: self.read_ways(obj.get("ways"))?,
            extra: self.read_extra(obj.get("extra_turns"))?,
        };
        let swapping = match obj.get("swap").filter(|v| !v.is_null()) {
            None => false,
            Some(v) => {
                let swap = v
                    .as_bool()
                    .ok_or("`swap` is true while the board may be turned round")?;
                if swap && self.setup.swap == crate::rules::setup::Swap::No {
                    return Err("these rules offer no swap (`[setup] swap`)".into());
                }
                if swap && board.to_place != [0, 0] {
                    return Err(
                        "`swap`: the board is turned round only once every stone is placed".into(),
                    );
                }
                swap
            }
        };
        let opening = match obj.get("opening").filter(|v| !v.is_null()) {
            None => false,
            Some(v) => {
                let opening = v
                    .as_bool()
                    .ok_or("`opening` is true before the game's forced first move")?;
                if opening && self.setup.first_move.is_none() {
                    return Err("these rules force no first move (`[setup] first_move`)".into());
                }
                opening
            }
        };
        let mut st = match to_move {
            Some(p) => self.resumed(board, p, (game, points), ply, memory, (swapping, opening)),
            None => {
                // The result's reason, when it is one of ours, is kept; the scores are the
                // stores, the board stays as it is.
                let stores = [0, 1].map(|p| i32::from(board.count[STORE + p]));
                let reason = shared
                    .result
                    .and_then(|r| r.reason)
                    .and_then(|text| EndReason::from_text(text, stores))
                    .unwrap_or(EndReason::Set);
                self.finished(board, game, points, ply, reason)
            }
        };
        if let Some(p) = shared.starter {
            st.round.starter = p as u8;
        }
        // A given phase must be the position's own (a running game is not "over").
        let actual = if st.result.is_some() {
            PhaseName::Over
        } else {
            PhaseName::Move
        };
        if let Some(phase) = shared.phase.filter(|&phase| phase != actual) {
            return Err(format!(
                "`phase` is \"{}\", but this position's phase is \"{}\"",
                phase.name(),
                actual.name()
            ));
        }
        Ok(st)
    }
}
