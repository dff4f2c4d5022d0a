//! `[sowing]`: how a move sows: the pits a move may start from, the way round, the circuit,
//! stores sown into, relays, pits taken on a drop, and feeding.

use super::super::board::{CircuitSpec, StoreRing};
use super::capture::Count;
use super::{compiled, Cx, Laid, Rules, CONDITION};
use crate::fast::Closes;
use crate::scope::{Context, PitCond, Remembers, View};
use ludus_core::expr::{Expr, Type};
use ludus_core::limits::LIMITS;
use ludus_core::rules::reference::{KeyRef, SectionRef};
use ludus_core::rules::toml::constant_value;
use serde::Deserialize;
use std::fmt::Write;
use toml::Spanned;

/// The highest lap cap a rules file may ask for (a move is at most this many laps).
const MAX_LAPS: u32 = LIMITS.laps_per_move;
const DEFAULT_LAPS: u32 = 1_000;

/// `[sowing]` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sowing {
    #[serde(default)]
    pub direction: Direction,
    /// A move from a pit for which this holds sows the other way round (context `start`).
    #[serde(default)]
    pub reverse: Option<Spanned<String>>,
    /// The mover chooses the direction of a move from a pit for which this holds (context
    /// `start`).
    #[serde(default)]
    pub direction_choice: Option<Spanned<String>>,
    #[serde(default)]
    pub circuit: CircuitKind,
    #[serde(default)]
    pub stores: StoreSowing,
    /// Which pits a move may start from (context `start`).
    #[serde(default)]
    pub start: Option<Spanned<String>>,
    /// Whose pits a move may start from: the mover's, or any pit of the board.
    #[serde(default)]
    pub start_from: Option<Spanned<StartFrom>>,
    #[serde(default)]
    pub first_drop: FirstDrop,
    #[serde(default)]
    pub skip_origin: SkipOrigin,
    #[serde(default)]
    pub relay: Relay,
    /// A relay lift happens only when this holds (context `relay`); by default always.
    #[serde(default)]
    pub relay_when: Option<Spanned<String>>,
    /// Where this holds at a lap's end, the mover may stop the sowing there instead of the
    /// relay lift (context `relay`).
    #[serde(default)]
    pub relay_choice: Option<Spanned<String>>,
    /// Where this holds at a lap's end, the relay sows on the other way round (context
    /// `relay`).
    #[serde(default)]
    pub relay_turn: Option<Spanned<String>>,
    /// Whether every lap after the first chooses its way round as a move does.
    #[serde(default)]
    pub lap_way: Option<Spanned<LapWay>>,
    /// What a relay does at a store it reaches.
    #[serde(default)]
    pub relay_stores: RelayStores,
    /// A pit a relay is about to lift closes, out of play for the rest of the game, when this
    /// holds (context `relay`); its stones are sown on.
    #[serde(default)]
    pub close: Option<Spanned<String>>,
    /// What a sowing does at a pit out of play.
    #[serde(default)]
    pub closed: Option<Spanned<ClosedSowing>>,
    /// Every pit starts the game (and each round) locked, and is unlocked once a move is sown
    /// from it (or, with `"lift"`, once any lift takes it up).
    #[serde(default)]
    pub locks: Locks,
    /// As the sowing of a game or round begins and after every move, a pit for which this holds is locked
    /// (context `lock`).
    #[serde(default)]
    pub lock_when: Option<Spanned<String>>,
    /// After every move, a locked pit for which this holds is unlocked (context `lock`).
    #[serde(default)]
    pub unlock_when: Option<Spanned<String>>,
    /// The first move of a game or round changes each pit in play by this (context `opening`)
    /// instead of sowing.
    #[serde(default)]
    pub opening: Option<Spanned<String>>,
    /// The pit an opening move ends in.
    #[serde(default)]
    pub opening_last: Option<Spanned<OpeningLast>>,
    /// The sowing passes over a pit for which this holds (context `skip`).
    #[serde(default)]
    pub skip: Option<Spanned<String>>,
    /// On every drop, a pit for which this holds goes at once to its owner's store (context
    /// `drop`).
    #[serde(default)]
    pub take: Option<Spanned<String>>,
    /// How many stones each drop puts into its pit (context `drop`, before the drop).
    #[serde(default)]
    pub drops: Option<Spanned<Count>>,
    /// A drop into a pit for which this holds goes to a store instead (context `drop`, before
    /// the drop).
    #[serde(default)]
    pub divert: Option<Spanned<String>>,
    /// Whose store a drop `divert` matches goes to.
    #[serde(default)]
    pub divert_to: Option<Spanned<TakeTo>>,
    /// After a drop for which this holds (context `drop`), the mover decides whether another
    /// stone goes into the same pit.
    #[serde(default)]
    pub drop_choice: Option<Spanned<String>>,
    /// What of the hand a drop `divert` matches sends to the store.
    #[serde(default)]
    pub divert_hand: Option<Spanned<DivertHand>>,
    /// Who may take or leave a pit `take` matches (by default it is taken).
    #[serde(default)]
    pub take_choice: Option<Spanned<TakeChoice>>,
    /// Whose store a pit `take` matches goes to.
    #[serde(default)]
    pub take_to: Option<Spanned<TakeTo>>,
    /// A move that has sown this many laps of its circuit ends there (a guard for relays).
    #[serde(default)]
    pub max_laps: Option<Spanned<u32>>,
    /// When the opponent has no stones, a move must give them some.
    #[serde(default)]
    pub must_feed: MustFeed,
    /// What a player may do when no move would feed the opponent.
    #[serde(default)]
    pub cannot_feed: Option<Spanned<CannotFeed>>,
    /// The mover may sow their own store in place of a pit when this holds (context `start`,
    /// `pit` the store).
    #[serde(default)]
    pub store_move: Option<Spanned<String>>,
    /// The circuit a move sowing the store goes round.
    #[serde(default)]
    pub store_circuit: Option<Spanned<StoreCircuit>>,
    /// How many stones a move lifts: all, or as many as the mover chooses.
    #[serde(default)]
    pub lift: Option<Spanned<Lift>>,
    /// Which numbers of stones the mover may choose to lift (context `lift`).
    #[serde(default)]
    pub lift_when: Option<Spanned<String>>,
}

/// The circuit a move sowing the mover's store goes round, from the mover's first pit.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum StoreCircuit {
    /// The circuit of the other moves.
    #[default]
    Moves,
    /// The mover's own pits, round and round.
    Own,
    /// Both players' pits, no store.
    Pits,
    /// The mover's own pits, the mover choosing at their last pit: round again, or on.
    Chosen,
}

/// How many stones a move lifts.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Lift {
    /// Every stone of the pit (or store).
    #[default]
    All,
    /// As many as the mover chooses, from one up to all (`lift_when` may narrow it).
    Chosen,
}

/// What a sowing does at a pit out of play.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum ClosedSowing {
    /// It passes over it.
    #[default]
    Pass,
    /// It passes over the mover's own; a stone reaching one across the board falls into it and
    /// stays there, out of play, and a lap's last stone there ends the sowing (Deka).
    FillAcross,
}

/// What a player may do when the opponent's pits are empty and no move would feed them.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum CannotFeed {
    /// Nothing: they have no legal move.
    #[default]
    NoMove,
    /// Any move the other rules allow.
    AnyMove,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Direction {
    #[default]
    Counterclockwise,
    Clockwise,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum CircuitKind {
    /// Both players' pits (and the stores that are sown).
    #[default]
    Board,
    /// The mover's own pits only.
    Own,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum StoreSowing {
    #[default]
    None,
    /// The mover sows into their own store, never the opponent's.
    Own,
    Both,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum SkipOrigin {
    /// The emptied pit is sown into again when the sowing laps round.
    #[default]
    Never,
    /// Each lifted pit is skipped while its own stones are sown (Oware's 12+ rule).
    Lap,
    /// The move's origin pit is skipped for the whole move, relays included.
    Move,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Relay {
    #[default]
    None,
    /// After the last stone, the next pit along the circuit is lifted and sown on if it holds
    /// stones; the move ends at an empty next pit.
    Next,
    /// As `next`, with the pit before the last (against the sowing direction): the literal
    /// reading of Sat-gharva's seed ("the neighbour clockwise").
    Previous,
    /// The last stone's pit is lifted and sown on if it held stones before the drop.
    Last,
}

/// Whose pits a move may start from.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum StartFrom {
    /// The pits the mover holds (their side).
    #[default]
    Own,
    /// Any pit of the board, the opponent's too (NoSides, Eson Xorgol, Kapana Bona).
    Board,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum FirstDrop {
    /// The first stone goes into the pit after the one lifted.
    #[default]
    Next,
    /// The first stone goes back into the pit lifted (a single stone moves on): Toguz Korgool.
    Origin,
    /// The same for every lift, the move's and each relay's (Kisolo of the Lali).
    OriginEveryLift,
    /// The first stone of every lift, the move's and each relay's, goes into the mover's store
    /// (Sokusowo).
    Store,
}

/// Who decides whether a pit `sowing.take` matches goes to its owner's store.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum TakeChoice {
    /// Nobody: it is taken.
    #[default]
    None,
    /// The pit's owner, also during the opponent's sowing.
    Owner,
    /// The player sowing.
    Mover,
}

/// Whose store a pit `sowing.take` matches goes to.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum TakeTo {
    /// The pit's owner's.
    #[default]
    Owner,
    /// The player sowing's.
    Mover,
}

/// The way round of the laps after a move's first (`sowing.lap_way`).
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum LapWay {
    /// The way the lap before went (`relay_turn` aside).
    #[default]
    Kept,
    /// Chosen again at each lap's start, by `reverse` and `direction_choice`.
    Chosen,
}

/// The pit an opening move (`sowing.opening`) ends in, as a sowing's last pit.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum OpeningLast {
    /// The pit the mover chose.
    #[default]
    Origin,
    /// The pit facing it.
    Opposite,
}

/// What of the hand a drop `sowing.divert` matches sends to the store.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum DivertHand {
    /// That drop's stones; the sowing goes on.
    #[default]
    Drop,
    /// Every stone still in hand: the lap ends at the pit sown before (a bear-off).
    All,
}

/// The feeding rule: what a move must do when the opponent's pits are empty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MustFeed {
    /// Nothing (`false`).
    #[default]
    No,
    /// Sow some stones into the opponent's pits (`true` or `"sown"`).
    Sown,
    /// Leave the opponent stones in their pits once the move, capture included, is over
    /// (`"kept"`); taking back what the move fed them is then a capture, never a grand slam.
    Kept,
}

/// Whether pits start locked, and what unlocks them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Locks {
    /// No pit is ever locked (`false`).
    #[default]
    No,
    /// A move sown from a pit unlocks it (`true` or `"move"`).
    Move,
    /// Any lift of a pit, a relay's too, unlocks it (`"lift"`).
    Lift,
}

/// What a relay does at a store on the circuit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RelayStores {
    /// The move ends there (`false`).
    #[default]
    End,
    /// The store's stones are lifted and sown on (`true` or `"lift"`).
    Lift,
    /// A store is no pit to relay from: the relay, the views `next` and `beyond` and the
    /// capture chains pass over it to the pit after (`"pass"`).
    Pass,
}

/// A key that takes `true`, `false` or one of some words: `false` and `true` name two of the
/// values, each word one.
macro_rules! bool_or_word {
    ($ty:ident, false => $no:ident, true => $yes:ident, $($word:literal => $value:ident),+) => {
        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct Visitor;
                impl serde::de::Visitor<'_> for Visitor {
                    type Value = $ty;
                    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                        f.write_str(concat!("`true`, `false`", $(", \"", $word, "\"",)+))
                    }
                    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<$ty, E> {
                        Ok(if v { $ty::$yes } else { $ty::$no })
                    }
                    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<$ty, E> {
                        match v {
                            $($word => Ok($ty::$value),)+
                            _ => Err(E::unknown_variant(v, &[$($word),+])),
                        }
                    }
                }
                d.deserialize_any(Visitor)
            }
        }
    };
}

bool_or_word!(RelayStores, false => End, true => Lift, "lift" => Lift, "pass" => Pass);
bool_or_word!(Locks, false => No, true => Move, "move" => Move, "lift" => Lift);
bool_or_word!(MustFeed, false => No, true => Sown, "sown" => Sown, "kept" => Kept);

pub(crate) const SECTION: SectionRef = SectionRef {
    name: "sowing",
    line: "how a move sows",
    required: false,
    repeated: false,
    keys: KEYS,
};

const KEYS: &[KeyRef] = &[
    KeyRef {
        section: "sowing",
        key: "direction",
        line: "the way stones are sown round the circuit",
        expects: "\"counterclockwise\" or \"clockwise\"",
        values: &["counterclockwise", "clockwise"],
        default: "\"counterclockwise\"",
        example: "direction = \"clockwise\"",
        long: "The sowing circuit over the whole board is player 0's pits in their numbering, \
               player 0's store (when sown), player 1's pits, player 1's store; \"clockwise\" \
               reverses it. `reverse` and `direction_choice` make some moves sow the other way \
               round.",
    },
    KeyRef {
        section: "sowing",
        key: "reverse",
        line: "context start: a move from `pit` sows the other way round (against `direction`) when this holds",
        expects: CONDITION,
        values: &[],
        default: "none",
        example: "reverse = \"pit.number <= 2\"",
        long: "A condition (context start: the names of every context and the view `pit`) on \
               the pit a move starts from; when it holds, the move sows the other way round, \
               against `direction` (Um el-Bagara: the two leftmost pits sow clockwise, the two \
               rightmost counterclockwise). Relays, `next`, `beyond` and the capture's `chain` \
               follow the move's way round.",
    },
    KeyRef {
        section: "sowing",
        key: "direction_choice",
        line: "context start: the mover chooses the way round of a move from `pit` when this holds",
        expects: CONDITION,
        values: &[],
        default: "none",
        example: "direction_choice = \"pit.number == 3\"",
        long: "A condition (context start) on the pit a move starts from; when it holds, the \
               mover chooses which way round to sow, and the pit gives two legal moves, written \
               with their direction: `3ccw` (counterclockwise) and `3cw` (clockwise); a pit that \
               sows one way only is written `3` (Um el-Bagara's centre pit: \"pit.number == \
               3\"; `\"true\"`: every move). It takes precedence over `reverse`.",
    },
    KeyRef {
        section: "sowing",
        key: "circuit",
        line: "the pits a move sows: both players' or the mover's own",
        expects: "\"board\" or \"own\"",
        values: &["board", "own"],
        default: "\"board\"",
        example: "circuit = \"own\"",
        long: "\"board\": a move sows round both players' pits (and the stores that are sown). \
               \"own\": the mover's own pits only (Uuholo).",
    },
    KeyRef {
        section: "sowing",
        key: "start_from",
        line: "whose pits a move may start from: the mover's own, or any pit of the board",
        expects: "\"own\" or \"board\"",
        values: &["own", "board"],
        default: "\"own\"",
        example: "start_from = \"board\"",
        long: "\"own\": a move starts from a pit of the mover's. \"board\": from any pit of the \
               board, the opponent's too (games with no sides): a pit across the board is written \
               `o` and its number on that side (`o3`), and `start` still decides which pits may \
               start a move (`pit.side` names the row's owner). Needs `circuit = \"board\"`.",
    },
    KeyRef {
        section: "sowing",
        key: "stores",
        line: "the stores sown into: none, the mover's own, or both",
        expects: "\"none\", \"own\" or \"both\"",
        values: &["none", "own", "both"],
        default: "\"none\"",
        example: "stores = \"own\"",
        long: "\"none\": stores are never sown; \"own\": the mover sows into their own store, never \
               the opponent's (Kalah); \"both\": both stores are on the circuit. Needs \
               `board.stores = true`.",
    },
    KeyRef {
        section: "sowing",
        key: "start",
        line: "context start: may a move start from `pit`?",
        expects: CONDITION,
        values: &[],
        default: "\"pit.count > 0\"",
        example: "start = \"pit.count > 0\"",
        long: "A condition (context start: the names of every context and the view `pit`) that a \
               pit must meet for a move to start from it. A move always lifts at least one stone; \
               out-of-play pits never start one. A relay's lift starts no move: `start` is not \
               asked of it (`relay_when` is).",
    },
    KeyRef {
        section: "sowing",
        key: "first_drop",
        line: "where the first stone of a sowing goes: the next pit, or back into the pit lifted",
        expects: "\"next\", \"origin\", \"origin-every-lift\" or \"store\"",
        values: &["next", "origin", "origin-every-lift", "store"],
        default: "\"next\"",
        example: "first_drop = \"origin\"",
        long: "\"next\": the first stone goes into the pit after the one lifted; \"origin\": it \
               goes back into the pit lifted and the others follow from there, but a single stone \
               moves on to the next pit (Toguz Korgool); relay lifts always start with the next \
               pit; \"origin-every-lift\": the same for every lift, a relay's and one that sows \
               captured stones on (`capture.sow_from = \"last-lifted\"`) too (Kisolo of the \
               Lali: \"the first counter being sown into the hole from which the counters were \
               picked up\"). \"store\": the first stone of every lift, the move's and each relay's, goes \
               into the mover's store and the others are sown from the next pit (Sokusowo: \
               \"put the first seed of each lap into your own store\").",
    },
    KeyRef {
        section: "sowing",
        key: "skip_origin",
        line: "whether a sowing that laps round sows into the pit it started from",
        expects: "\"never\", \"lap\" or \"move\"",
        values: &["never", "lap", "move"],
        default: "\"never\"",
        example: "skip_origin = \"lap\"",
        long: "\"never\": a sowing that laps round sows into the emptied pit; \"lap\": the pit \
               being sown from is skipped by the sowing (Oware's 12+ rule; each relay lift skips \
               its own pit) but is still a pit to `next`, `beyond`, the capture's chain and a \
               relay's look; \"move\": the move's first pit is out of the move's circuit, skipped \
               by the sowing, relays included, and passed over by those looks (Sat-gharva).",
    },
    KeyRef {
        section: "sowing",
        key: "relay",
        line: "whether the sowing goes on from another pit after the last stone",
        expects: "\"none\", \"next\", \"previous\" or \"last\"",
        values: &["none", "next", "previous", "last"],
        default: "\"none\"",
        example: "relay = \"next\"",
        long: "\"next\": after the last stone, the next pit along the circuit is lifted and sown \
               on if it holds stones, and the move ends at an empty next pit (Sat-gharva); \
               \"previous\": the same with the pit before the last (against the sowing \
               direction); \"last\": the last stone's pit is lifted and sown on if it held \
               stones before; \"none\": the move ends with the last stone. A store is never \
               lifted (the move ends there) unless `relay_stores` says so.",
    },
    KeyRef {
        section: "sowing",
        key: "relay_stores",
        line: "what a relay does at a store the sowing reaches: ends, lifts it, or passes it",
        expects: "`true`, `false`, \"lift\" or \"pass\"",
        values: &["lift", "pass"],
        default: "false",
        example: "relay_stores = true",
        long: "With `true` (or \"lift\"), a relay whose next pit (or last pit) is a store on \
               the circuit (`stores = \"own\"` or `\"both\"`) lifts the store's stones and \
               sows them on from there, as it lifts a pit; `relay_when` may single it out with \
               `next.is_store` or `last.is_store`. CrossCapt (Eight): a lap ending in the \
               mover's rightmost pit goes on with the stones of their store. With `false` the \
               move ends at a store. With \"pass\" a store is no pit to look at: the relay, \
               the views `next` and `beyond` and the walks of `capture.chain` pass over it to \
               the pit after (Sonka: \"the \
               contents of the next hole are picked up\", a last stone before the mover's \
               store lifting the opponent's first pit).",
    },
    KeyRef {
        section: "sowing",
        key: "relay_when",
        line: "context relay: a relay lift happens only when this holds at the lap's last pit",
        expects: CONDITION,
        values: &[],
        default: "none (every relay the rule allows)",
        example: "relay_when = \"not (last.side == opponent and last.count in [2, 3])\"",
        long: "A condition (context relay: `last`, `next`, `beyond`, `opposite`, `behind`, \
               `origin`, `sown`, `laps`, `relays`) checked at the end of each lap, once `relay` \
               would lift a pit; the lift happens only when it holds, otherwise the sowing ends \
               there and the capture follows. A relay that stops where the capture would take \
               (\"not (<the capture's condition>)\"), on a count (\"last.count >= 4\"), or on a \
               side (\"last.side == mover\").",
    },
    KeyRef {
        section: "sowing",
        key: "relay_choice",
        line: "context relay: where this holds, the mover may stop the sowing instead of the relay lift",
        expects: CONDITION,
        values: &[],
        default: "none (every relay lift is made)",
        example: "relay_choice = \"last.row == 2 and last.column <= 2\"",
        long: "A condition (context relay, as `relay_when`) checked at the end of each lap once \
               the relay would lift a pit: where it holds, the mover decides, `take` (lift the \
               pit and sow on) or `leave` (the sowing ends there and the capture follows). \
               Misoro Tsoro: a lap ending in one of the mover's two misoro holes may end the \
               turn. A computer's trial of a move takes the lift.",
    },
    KeyRef {
        section: "sowing",
        key: "lap_way",
        line: "the way round of the laps after a move's first: the way the lap before went, or chosen again",
        expects: "\"kept\" or \"chosen\"",
        values: &["kept", "chosen"],
        default: "\"kept\"",
        example: "lap_way = \"chosen\"",
        long: "\"kept\": a relay and captured stones sown on go the way the lap before went \
               (`relay_turn` aside); \"chosen\": every lap after the move's first starts as a \
               move does: `reverse` and `direction_choice` (context start) are asked of the pit \
               it sows from, holding the stones about to be sown (a relay's pit as it is; \
               captured stones sown on counted in the pit they start from), and where both ways \
               are open the mover decides, `cw` or `ccw` (STATE `decision` `\"way\"`). \
               Kubuguza: a lap ending in one of four set holes may go on clockwise when that \
               sowing captures. Not with `relay_turn`, nor with a start condition that reads the \
               move before or the ways chosen (a lap's start has none).",
    },
    KeyRef {
        section: "sowing",
        key: "relay_turn",
        line: "context relay: where this holds at a lap's end, the relay sows on the other way round",
        expects: CONDITION,
        values: &[],
        default: "none (every lap the way the move began)",
        example: "relay_turn = \"true\"",
        long: "A condition (context relay, as `relay_when`) checked at the end of each lap once \
               the relay lifts a pit: where it holds, the stones lifted are sown the other way \
               round from the way the lap just sown went, and so on until another lap turns it \
               again. Uthi: `\"true\"`, every lap turns back. The capture and the views after \
               the sowing (`next`, `beyond`, the chain) follow the last lap's way.",
    },
    KeyRef {
        section: "sowing",
        key: "close",
        line: "context relay: a pit a relay is about to lift closes for the rest of the game when this holds",
        expects: CONDITION,
        values: &[],
        default: "none",
        example: "close = \"last.side == opponent and last.count == 3\"",
        long: "A condition (context relay: `last`, `next`, `beyond`, `opposite`, `behind`, \
               `origin`, `sown`, `laps`, `relays`) checked at the end of each lap, once `relay` \
               is about to lift a pit (the last pit with `relay = \"last\"`): when it holds, that \
               pit is closed for the rest of the game (out of play, shown in the STATE's \
               `out_of_play`) and its stones are lifted and sown on as usual. A hole brought to \
               three is covered and its three counters sown on (Deka: `relay = \"last\"`, \
               `close = \"last.count == 3\"`); `closed` says what later sowings do there.",
    },
    KeyRef {
        section: "sowing",
        key: "closed",
        line: "what a sowing does at a pit out of play: pass over it, or fill those across the board",
        expects: "\"pass\" or \"fill-across\"",
        values: &["pass", "fill-across"],
        default: "\"pass\"",
        example: "closed = \"fill-across\"",
        long: "\"pass\": a sowing passes over every pit out of play. \"fill-across\": it passes \
               over the mover's own pits out of play, while a stone reaching one across the \
               board falls into it and stays there, out of play (its owner's when the game \
               ends, as a closed pit's stones are); a lap's last stone falling there ends the \
               sowing (Deka: \"the counter that would fall into it is instead deposited into \
               the central hole; if this is the final counter, the turn ends\").",
    },
    KeyRef {
        section: "sowing",
        key: "lock_when",
        line: "context lock: as the sowing begins and after every move, a pit for which this holds is locked",
        expects: CONDITION,
        values: &[],
        default: "none",
        example: "lock_when = \"ply == 0 and pit.count < 4\"",
        long: "A condition (context lock: `pit` each pit in turn; `origin` and `last`, the pit \
               the move just played started from and where its last stone fell, none as the \
               sowing begins; `mover`, who just moved, or who moves first) checked for every pit \
               as the sowing of a game or round begins (after any stones are placed) and after \
               every move, once the capture is over: a pit for \
               which it holds is locked (`pit.locked`), until `unlock_when` (or, with `locks`, \
               a lift) unlocks it. Khrour's holes filled short at a refill, neither sown from \
               nor captured from until they hold a full hole's counters again: `\"ply == 0 and \
               pit.count < 4\"` with `unlock_when = \"pit.count >= 4\"`, and `not pit.locked` \
               in `start`, `not last.locked` in `capture.when`.",
    },
    KeyRef {
        section: "sowing",
        key: "unlock_when",
        line: "context lock: after every move, a locked pit for which this holds is unlocked",
        expects: CONDITION,
        values: &[],
        default: "none",
        example: "unlock_when = \"pit.count >= 4\"",
        long: "A condition (context lock, as `lock_when`) checked for every locked pit after \
               every move, before `lock_when`: a pit for which it holds is unlocked. A pit \
               blocked until the opponent's stones reach it, with a lock set on the pit a move \
               started from, `lock_when = \"pit.side == origin.side and pit.number == \
               origin.number\"`: `unlock_when = \"pit.side != mover and pit.count > 0\"`.",
    },
    KeyRef {
        section: "sowing",
        key: "opening",
        line: "context opening, an integer: the first move of a game or round changes each pit in play by this instead of sowing",
        expects: "an integer expression",
        values: &[],
        default: "none",
        example: "opening = \"if(steps == 0, 0, if(steps % 2 == 1, -1, 1))\"",
        long: "An integer expression (context opening: `pit` each pit in play in turn, `origin` \
               the pit the mover chose, as `start` allows, `steps` the pit's distance from it \
               along the mover's circuit the rules' way round, 0 for the origin) worked out for \
               every pit in play at the first move of every game and round: instead of sowing, \
               each pit gains that many stones (or loses them, below zero). A pit whose changes \
               would not add up to nothing, or would leave a pit below zero or above the game's \
               stones, may not open. The move then ends in `opening_last` as a sowing ends in \
               its last pit: houses, captures and moving again follow. Gabata's opening in \
               Mancala Games, one stone taken from every other pit round the board and put into \
               the next, the one over into the pit facing the origin: `\"if(steps == 0, 0, \
               if(steps % 2 == 1, -1, 1)) + if(pit.home != origin.home and pit.number + \
               origin.number == 7, 1, 0)\"` with `opening_last = \"opposite\"`.",
    },
    KeyRef {
        section: "sowing",
        key: "opening_last",
        line: "the pit an opening move ends in, as a sowing's last pit: the origin or the pit facing it",
        expects: "\"origin\" or \"opposite\"",
        values: &["origin", "opposite"],
        default: "\"origin\"",
        example: "opening_last = \"opposite\"",
        long: "\"origin\": the pit the mover chose; \"opposite\": the pit facing it. Houses, \
               captures and moving again read it as `last`, as after a sowing.",
    },
    KeyRef {
        section: "sowing",
        key: "locks",
        line: "every pit starts locked and is unlocked once a move is sown from it (`pit.locked`, `mover.locked`)",
        expects: "`true`, `false`, \"move\" or \"lift\"",
        values: &[],
        default: "false",
        example: "locks = true",
        long: "true (or \"move\"): every pit starts the game, and each round, locked, and is \
               unlocked for good once a move is sown from it (a relay's lift does not unlock \
               it); \"lift\": once any lift takes it up, a relay's too (Gabata: no weg is made \
               of a hole until its first counters have been moved). Conditions read \
               it: `pit.locked` (and `last.locked`, …) is true while the pit is locked, \
               `mover.locked` and `opponent.locked` count the player's locked pits in play. Each \
               of a player's first moves from a different pit (Adjiboto): `start = \"pit.count > \
               1 and (pit.locked or mover.locked == 0)\"`; no capture from a locked pit (Bechi in \
               Mancala Games): `\"… and not last.locked\"` in `capture.when` and `capture.chain`. \
               The STATE lists the locked pits (`locked`).",
    },
    KeyRef {
        section: "sowing",
        key: "skip",
        line: "context skip: before every drop, a pit for which this holds is passed over",
        expects: CONDITION,
        values: &[],
        default: "none (every pit of the circuit is sown)",
        example: "skip = \"pit.side == opponent and pit.count == 2\"",
        long: "A condition (context skip: `pit`, `sown`, `laps`, `relays`, `hand`: the stones \
               that would still be in hand after a drop into `pit`, 0 for a lap's last stone) \
               checked for each pit a stone is about to fall into: when it holds, the stone \
               passes over that pit to the next one, checked in turn. The opponent's pits of two \
               are not sown (\"pit.side == opponent and pit.count == 2\"); no pit grows past \
               seventeen (\"pit.count >= 17\"); the opponent's houses get only a lap's last \
               stone (\"pit.house == opponent and hand > 0\"). When every slot of the circuit \
               would be passed over, the stone falls into the first of them: a stone is never \
               lost.",
    },
    KeyRef {
        section: "sowing",
        key: "take",
        line: "context drop: after every drop, a pit for which this holds goes to its owner's store",
        expects: CONDITION,
        values: &[],
        default: "none",
        example: "take = \"pit.count == 4\"",
        long: "A condition (context drop: `pit`, `sown`, `laps`, `relays`, `hand`: the stones \
               still in hand, 0 at a lap's last stone) checked after every drop; a pit for which it holds goes at once to its owner's store (Sat-gharva's \
               fours, on both sides, also by the last stone).",
    },
    KeyRef {
        section: "sowing",
        key: "drops",
        line: "context drop: how many stones each drop puts into its pit (one by default)",
        expects: "a whole number, or an integer expression in quotes (context drop)",
        values: &[],
        default: "one stone a pit",
        example: "drops = \"if(ply < 2, if(sown == 0, 3, 2), 1)\"",
        long: "An integer expression (context drop: `pit` is the pit about to receive stones, \
               `hand` the stones in hand before the drop, `sown`, `laps`, `relays`, `origin`) \
               worked out before every drop: that many stones go into the pit at once, at \
               least one and at most those in hand. Luuth's fours (`4`); Uthi's first \
               move, three stones into the first pit and two into the second. Pits passed over \
               (`skip`, closed pits, the origin) receive none; `take` is checked after each \
               drop as usual.",
    },
    KeyRef {
        section: "sowing",
        key: "drop_choice",
        line: "context drop: after a drop for which this holds, the mover may drop another stone into the same pit",
        expects: CONDITION,
        values: &[],
        default: "none",
        example: "drop_choice = \"ply < 4\"",
        long: "A condition (context drop: `pit` the pit just sown into, `hand` the stones still \
               in hand, `sown`, `lifted`, `origin`) checked after every drop that leaves stones \
               in hand: where it holds, the mover decides, `take`, another stone goes into the \
               same pit (and the question comes again), or `leave`, the sowing goes on to the \
               next pit; the lap ends where the hand runs out. A decision like any other \
               (STATE `decision` `\"drop\"`). Ti: \"in the first and second moves, players may \
               choose to drop as many counters as they wish into the holes they are sowing \
               into\", each player's first two moves, `drop_choice = \"ply < 4\"`.",
    },
    KeyRef {
        section: "sowing",
        key: "divert",
        line: "context drop: a drop into a pit for which this holds goes to a store instead",
        expects: CONDITION,
        values: &[],
        default: "none",
        example: "divert = \"pit.side == opponent and total - mover.store - opponent.store <= 8\"",
        long: "A condition (context drop: `pit` the pit about to receive the drop, as it holds \
               before it; `hand` the stones still in hand after it, 0 for a lap's last stone; \
               `sown`, `laps`, `relays`, `origin`) checked before every drop: where it holds the \
               stone (or the stones of `drops`) goes into the store `divert_to` names instead of \
               the pit. It counts as sown, and the pit, as it is, is checked by `take` as after \
               any drop; a lap whose last stone is diverted ends at that pit, checked by the \
               captures as any lap's end, and is not relayed unless `take` took the pit. Meusueb's end game, the last eight stones: those sown on the \
               opponent's side are theirs, but for a last stone that captures.",
    },
    KeyRef {
        section: "sowing",
        key: "divert_to",
        line: "whose store a drop `divert` matches goes to: the pit's owner's or the mover's",
        expects: "\"owner\" or \"mover\"",
        values: &["owner", "mover"],
        default: "\"owner\"",
        example: "divert_to = \"mover\"",
        long: "\"owner\": a stone `divert` matches goes to the store of the pit's owner; \
               \"mover\": to the store of the player sowing.",
    },
    KeyRef {
        section: "sowing",
        key: "divert_hand",
        line: "what of the hand a drop `divert` matches sends to the store: that drop, or all of it",
        expects: "\"drop\" or \"all\"",
        values: &["drop", "all"],
        default: "\"drop\"",
        example: "divert_hand = \"all\"",
        long: "\"drop\": the stones of that drop go to the store and the sowing goes on; \
               \"all\": every stone still in hand goes with them and the lap ends at the pit the \
               stone before fell into (the pit it started from when it was the first), checked \
               by the captures and relayed as any lap's end: a bear-off, Andada's seeds carried \
               off the end of the mover's row once every pit holds one at most.",
    },
    KeyRef {
        section: "sowing",
        key: "take_to",
        line: "whose store a pit `take` matches goes to: its owner's or the mover's",
        expects: "\"owner\" or \"mover\"",
        values: &["owner", "mover"],
        default: "\"owner\"",
        example: "take_to = \"mover\"",
        long: "\"owner\": a pit `take` matches goes to its owner's store, whoever is sowing \
               (Sat-gharva's fours); \"mover\": to the store of the player sowing, from either \
               side of the board.",
    },
    KeyRef {
        section: "sowing",
        key: "take_choice",
        line: "who may take or leave a pit `take` matches: nobody (it is taken), its owner, or the mover",
        expects: "\"none\", \"owner\" or \"mover\"",
        values: &["none", "owner", "mover"],
        default: "\"none\"",
        example: "take_choice = \"owner\"",
        long: "\"none\": a pit `take` matches goes to its owner's store at once. \"owner\": its \
               owner decides, take or leave, also during the opponent's sowing (Sat-gharva's fours \
               as the Czech text has them); \"mover\": the player sowing decides. The sowing \
               pauses for the decision, a step of play of its own (`take` or `leave`) asked of \
               the decider; a pit left stays as it is and the sowing goes on.",
    },
    KeyRef {
        section: "sowing",
        key: "max_laps",
        line: "a move that has sown this many laps of its circuit ends there, with no capture",
        expects: "a whole number from 1 to 10000",
        values: &[],
        default: "1000",
        example: "max_laps = 1000",
        long: "A guard for relay sowing: a move that has sown this many laps of its circuit ends \
               there, with no capture (1 to 10000).",
    },
    KeyRef {
        section: "sowing",
        key: "must_feed",
        line: "when the opponent's pits are empty, only moves that give them stones are legal",
        expects: "`true`, `false`, `\"sown\"` or `\"kept\"`",
        values: &[],
        default: "false",
        example: "must_feed = true",
        long: "When the opponent has no stones in their pits, only moves that give them some are \
               legal; when there is none, the player has no legal move. `true` (or \"sown\"): \
               moves that sow stones into their pits; \"kept\": moves after which they hold \
               stones, judged once the move, capture included, is over (a capture that takes \
               back everything the move fed them is then an ordinary capture, not a grand \
               slam). See `cannot_feed` for a player who cannot feed.",
    },
    KeyRef {
        section: "sowing",
        key: "cannot_feed",
        line: "with `must_feed`, what a player may do when no move would feed the opponent",
        expects: "\"no-move\" or \"any-move\"",
        values: &["no-move", "any-move"],
        default: "\"no-move\"",
        example: "cannot_feed = \"any-move\"",
        long: "\"no-move\": a player who cannot give stones to an opponent with none has no legal \
               move (the game ends, or they pass, as `[end] no_move` says); \"any-move\": they \
               may then play any move the other rules allow (feed if you can).",
    },
    KeyRef {
        section: "sowing",
        key: "store_move",
        line: "context start: the mover may sow their own store in place of a pit when this holds (`pit` is the store)",
        expects: CONDITION,
        values: &[],
        default: "none",
        example: "store_move = \"pit.count >= 13\"",
        long: "A condition (context start, the view `pit` being the mover's store) for a move \
               that sows the mover's store instead of a pit, written `s` (I Pere, Iyogh, Okwe: \
               captured stones sown back onto the board). Its first stone falls into the \
               mover's first pit along the rules' direction (pit 1 counterclockwise, their last \
               pit clockwise) and it goes round `store_circuit`; relays, captures and moving \
               again follow as for any move (`origin.is_store` tells them apart). `start` is \
               not asked of the store, an empty store is never sown, and the board needs \
               stores (`[board] stores = true`). With `lift = \"chosen\"` the mover sows as \
               many of its stones as they choose: `s:5`.",
    },
    KeyRef {
        section: "sowing",
        key: "store_circuit",
        line: "the circuit a move sowing the store goes round",
        expects: "\"moves\", \"own\", \"pits\" or \"chosen\"",
        values: &["moves", "own", "pits", "chosen"],
        default: "\"moves\"",
        example: "store_circuit = \"own\"",
        long: "\"moves\": the circuit of the other moves (`circuit`, with the stores they sow); \
               \"own\": the mover's own pits, round and round (Okwe: the stones never leave \
               the mover's row); \"pits\": both players' pits and no store (I Pere: the store \
               sown passes over both stores); \"chosen\": the mover's own pits, and whenever \
               a stone falls into their last one with stones still in hand, the mover decides: \
               `take`, on into the opponent's pits along the circuit of the other moves (for \
               the rest of the move), or `leave`, round their own pits again (STATE `decision` \
               `\"circuit\"`; Azigo: \"sowing may continue from the leftmost hole or may \
               continue into the opponent's row\").",
    },
    KeyRef {
        section: "sowing",
        key: "lift",
        line: "how many stones a move lifts: all of them, or as many as the mover chooses",
        expects: "\"all\" or \"chosen\"",
        values: &["all", "chosen"],
        default: "\"all\"",
        example: "lift = \"chosen\"",
        long: "\"all\": a move lifts every stone of its pit (or store). \"chosen\": the mover \
               chooses how many, one up to all, and `lift_when` may narrow the choice; the \
               stones left stay in the pit. Such a move is written with its number of stones \
               after a colon: `3:5` (five stones of pit 3), `s:2` (two of the store). Relay \
               lifts still take every stone.",
    },
    KeyRef {
        section: "sowing",
        key: "lift_when",
        line: "context lift: may the mover lift `lift` stones from `pit` (with `lift = \"chosen\"`)?",
        expects: CONDITION,
        values: &[],
        default: "none (any number)",
        example: "lift_when = \"lift < pit.count\"",
        long: "A condition (context lift: the names of context start, and `lift`, the stones \
               the mover would lift) on each number the mover may choose; by default any \
               number from one up to all. Okwe (Achalla): `\"lift < pit.count\"` (at least one \
               stone stays); Okwe (Nigeria), all of a pit but some or all of the store: \
               `\"pit.is_store or lift == pit.count\"`. A pit or store with no number allowed gives no move.",
    },
];

/// How a move sows, compiled.
#[derive(Clone, Debug)]
pub(crate) struct SowingRule {
    pub(crate) circuit: CircuitSpec,
    /// Which pits a move may start from.
    pub(crate) start: PitCond,
    pub(crate) skip_origin: SkipOrigin,
    /// The first stone goes back into the pit lifted (unless it is the only one).
    pub(crate) first_origin: bool,
    /// So does every later lift's (relays, captured stones sown on with the last pit's).
    pub(crate) relay_first_origin: bool,
    /// The first stone of every lift goes into the mover's store.
    pub(crate) first_to_store: bool,
    pub(crate) relay: Relay,
    /// A relay lift happens only when this holds at the lap's last pit.
    pub(crate) relay_when: Option<PitCond>,
    /// Where this holds at a lap's end, the mover may stop the sowing instead of the lift.
    pub(crate) relay_choice: Option<PitCond>,
    /// Where this holds at a lap's end, the relay sows on the other way round.
    pub(crate) relay_turn: Option<PitCond>,
    /// Every lap after the first chooses its way round as a move does (`lap_way = "chosen"`).
    pub(crate) lap_way_chosen: bool,
    /// How many stones each drop puts into its pit (one when absent).
    pub(crate) drops: Option<Expr>,
    /// A drop into a pit for which this holds goes to a store instead.
    pub(crate) divert: Option<PitCond>,
    /// After a drop for which this holds, the mover may drop another stone into the pit.
    pub(crate) drop_choice: Option<PitCond>,
    pub(crate) divert_to: TakeTo,
    pub(crate) divert_hand: DivertHand,
    /// What a relay does at a store.
    pub(crate) relay_stores: RelayStores,
    pub(crate) must_feed: MustFeed,
    /// What a player may do when no move would feed the opponent.
    pub(crate) cannot_feed: CannotFeed,
    /// A move ends once it has sown this many stones (laps × the largest circuit).
    pub(crate) max_drops: u32,
    /// Pits sown the other way round.
    pub(crate) reverse: Option<PitCond>,
    /// Pits the mover may sow either way round.
    pub(crate) direction_choice: Option<PitCond>,
    /// `reverse` or `direction_choice`: a move may sow against `direction`.
    pub(crate) directed: bool,
    /// What the start conditions read of the game's memory: the position records it.
    pub(crate) remembers: Remembers,
    /// A pit a relay is about to lift closes when this holds.
    pub(crate) close: Option<PitCond>,
    /// A stone reaching a closed pit across the board falls into it (`closed = "fill-across"`).
    pub(crate) fill_across: bool,
    /// Pits start locked and a move unlocks its pit.
    pub(crate) locks: bool,
    /// A relay's lift unlocks its pit too.
    pub(crate) relay_unlocks: bool,
    /// As the sowing of a game or round begins and after every move, a pit for which this holds is locked.
    pub(crate) lock_when: Option<PitCond>,
    /// After every move, a locked pit for which this holds is unlocked.
    pub(crate) unlock_when: Option<PitCond>,
    /// The first move of a game or round changes each pit in play by this instead of
    /// sowing (`sowing.opening`), and ends in the pit `opening_last` names.
    pub(crate) opening: Option<(Expr, OpeningLast)>,
    /// Before every drop, a pit for which this holds is passed over.
    pub(crate) skip: Option<PitCond>,
    /// On every drop, a pit for which this holds is taken.
    pub(crate) take: Option<PitCond>,
    /// Who may take or leave a pit `take` matches.
    pub(crate) take_choice: TakeChoice,
    /// Whose store a pit `take` matches goes to.
    pub(crate) take_to: TakeTo,
    /// The mover may sow their store in place of a pit when this holds of it.
    pub(crate) store_move: Option<PitCond>,
    /// The mover chooses how many stones a move lifts.
    pub(crate) lift_chosen: bool,
    /// Which numbers of stones they may choose (`Ctx::hand` the number).
    pub(crate) lift_when: Option<PitCond>,
}

/// The circuit `[sowing]` sows round, and the warning for feeding on a circuit of one's own.
pub(super) fn circuit(cx: &mut Cx, rules: &Rules) -> CircuitSpec {
    let sowing = rules.sowing.as_ref();
    let spec = CircuitSpec {
        clockwise: sowing.is_some_and(|s| s.direction == Direction::Clockwise),
        own_only: sowing.is_some_and(|s| s.circuit == CircuitKind::Own),
        own_store: sowing.is_some_and(|s| s.stores != StoreSowing::None),
        other_store: sowing.is_some_and(|s| s.stores == StoreSowing::Both),
        from_board: sowing
            .and_then(|s| s.start_from.as_ref())
            .is_some_and(|f| *f.get_ref() == StartFrom::Board),
        store_ring: match sowing
            .and_then(|s| s.store_circuit.as_ref())
            .map(|c| *c.get_ref())
        {
            None | Some(StoreCircuit::Moves) => StoreRing::Moves,
            Some(StoreCircuit::Own) => StoreRing::Own,
            Some(StoreCircuit::Pits) => StoreRing::Pits,
            Some(StoreCircuit::Chosen) => StoreRing::Chosen,
        },
    };
    if let Some(m) = sowing
        .and_then(|s| s.store_move.as_ref())
        .filter(|_| !rules.board.get_ref().stores)
    {
        cx.error(
            m.span(),
            "`store_move` sows the mover's store, but the board has none (`stores = true`)",
        )
        .notes
        .push("add `stores = true` to `[board]`, or leave `store_move` out".to_string());
    }
    if let Some(f) = sowing
        .and_then(|s| s.start_from.as_ref())
        .filter(|_| spec.own_only && spec.from_board)
    {
        cx.error(
            f.span(),
            "`start_from = \"board\"` with `circuit = \"own\"`: a move from across the board \
             would start off the circuit it sows",
        );
    }
    if spec.own_only && sowing.is_some_and(|s| s.must_feed != MustFeed::No) {
        let at = cx
            .key_span(&["sowing", "must_feed"])
            .unwrap_or(rules.board.span());
        cx.warn(
            at,
            "`must_feed` with `circuit = \"own\"`: no move sows into the opponent's pits, so a \
             player whose opponent's pits are empty has no legal move",
        );
    }
    spec
}

/// `[sowing]` checked, its conditions compiled, before the board is laid out.
pub(super) struct Checked {
    start: Expr,
    reverse: Option<Expr>,
    direction_choice: Option<Expr>,
    relay_when: Option<Expr>,
    relay_choice: Option<Expr>,
    relay_turn: Option<Expr>,
    lap_way_chosen: bool,
    drops: Option<Expr>,
    divert: Option<Expr>,
    drop_choice: Option<Expr>,
    divert_to: TakeTo,
    divert_hand: DivertHand,
    relay_stores: RelayStores,
    close: Option<Expr>,
    fill_across: bool,
    locks: Locks,
    lock_when: Option<Expr>,
    unlock_when: Option<Expr>,
    opening: Option<(Expr, OpeningLast)>,
    skip: Option<Expr>,
    take: Option<Expr>,
    take_choice: TakeChoice,
    take_to: TakeTo,
    skip_origin: SkipOrigin,
    first_origin: bool,
    relay_first_origin: bool,
    first_to_store: bool,
    relay: Relay,
    must_feed: MustFeed,
    cannot_feed: CannotFeed,
    max_laps: u32,
    store_move: Option<Expr>,
    lift_chosen: bool,
    lift_when: Option<Expr>,
}

/// Checks `[sowing]` (absent: every default); `None` when an error was reported.
pub(super) fn check(cx: &mut Cx, sowing: Option<&Sowing>) -> Option<Checked> {
    let max_laps = match sowing.and_then(|s| s.max_laps.as_ref()) {
        Some(v) if !(1..=MAX_LAPS).contains(v.get_ref()) => {
            cx.error(v.span(), format!("`max_laps` must be from 1 to {MAX_LAPS}"));
            DEFAULT_LAPS
        }
        Some(v) => *v.get_ref(),
        None => DEFAULT_LAPS,
    };
    let start = match sowing.and_then(|s| s.start.as_ref()) {
        Some(v) => cx.condition(Context::Start, v),
        None => Some(
            Expr::compile("pit.count > 0", &Context::Start.scope(0), Type::Bool)
                .expect("the default start condition compiles"),
        ),
    };
    let mut condition = |c: Context, v: Option<&Spanned<String>>| v.map(|v| cx.condition(c, v));
    let reverse = condition(Context::Start, sowing.and_then(|s| s.reverse.as_ref()));
    let direction_choice = condition(
        Context::Start,
        sowing.and_then(|s| s.direction_choice.as_ref()),
    );
    let skip = condition(Context::Skip, sowing.and_then(|s| s.skip.as_ref()));
    let take = condition(Context::Drop, sowing.and_then(|s| s.take.as_ref()));
    let divert = condition(Context::Drop, sowing.and_then(|s| s.divert.as_ref()));
    let drop_choice = condition(Context::Drop, sowing.and_then(|s| s.drop_choice.as_ref()));
    let store_move = condition(Context::Start, sowing.and_then(|s| s.store_move.as_ref()));
    let lock_when = condition(Context::Lock, sowing.and_then(|s| s.lock_when.as_ref()));
    let unlock_when = condition(Context::Lock, sowing.and_then(|s| s.unlock_when.as_ref()));
    if let (Some(Some(e)), Some(v)) = (&skip, sowing.and_then(|s| s.skip.as_ref())) {
        if constant_value(e).is_some_and(|c| c != 0) {
            cx.warn(
                v.span(),
                "`skip` always holds: every pit would be passed over, so each stone falls into \
                 the next pit as if nothing were skipped",
            )
            .notes
            .push("leave `skip` out to sow every pit".to_string());
        }
    }
    let relay_when = sowing.and_then(|s| {
        let v = s.relay_when.as_ref()?;
        if s.relay == Relay::None {
            cx.warn(
                v.span(),
                "`relay_when` without `relay`: the sowing never relays, so it is never checked",
            );
        }
        Some(cx.condition(Context::Relay, v))
    });
    let relay_choice = sowing.and_then(|s| {
        let v = s.relay_choice.as_ref()?;
        if s.relay == Relay::None {
            cx.warn(
                v.span(),
                "`relay_choice` without `relay`: the sowing never relays, so there is nothing to stop",
            );
        }
        Some(cx.condition(Context::Relay, v))
    });
    let relay_turn = sowing.and_then(|s| {
        let v = s.relay_turn.as_ref()?;
        if s.relay == Relay::None {
            cx.warn(
                v.span(),
                "`relay_turn` without `relay`: the sowing never relays, so it never turns",
            );
        }
        Some(cx.condition(Context::Relay, v))
    });
    if let Some(u) = sowing.and_then(|s| s.unlock_when.as_ref()) {
        if lock_when.is_none() && sowing.is_some_and(|s| s.locks == Locks::No) {
            cx.warn(
                u.span(),
                "`unlock_when` without `locks` or `lock_when`: no pit is ever locked",
            );
        }
    }
    let opening = sowing
        .and_then(|s| s.opening.as_ref())
        .map(|v| cx.expression(Context::Opening, v, Type::Int));
    let opening_last = sowing
        .and_then(|s| s.opening_last.as_ref())
        .map_or(OpeningLast::Origin, |l| *l.get_ref());
    if let Some(l) = sowing.and_then(|s| s.opening_last.as_ref()) {
        if opening.is_none() {
            cx.warn(
                l.span(),
                "`opening_last` without `opening`: no move is an opening",
            );
        }
    }
    let lap_way = sowing
        .and_then(|s| s.lap_way.as_ref())
        .filter(|w| *w.get_ref() == LapWay::Chosen);
    if let Some(w) = lap_way {
        let chooses = [&reverse, &direction_choice];
        if chooses.iter().all(|c| c.is_none()) {
            cx.warn(
                w.span(),
                "`lap_way = \"chosen\"` without `direction_choice` or `reverse`: every lap sows the rules' way",
            );
        }
        if relay_turn.is_some() {
            cx.error(
                w.span(),
                "`lap_way = \"chosen\"` with `relay_turn`: a lap's way is either chosen at its start or turned at the lap's end, not both",
            );
        }
        let reads = chooses
            .iter()
            .filter_map(|c| c.as_ref()?.as_ref())
            .map(Remembers::of)
            .fold(Remembers::default(), Remembers::or);
        if reads.previous || reads.ways {
            cx.error(
                w.span(),
                "`lap_way = \"chosen\"` with a `reverse` or `direction_choice` that reads the move before or the ways chosen: a lap's start has neither",
            );
        }
    }
    let lap_way_chosen = lap_way.is_some();
    let drops = sowing
        .and_then(|s| s.drops.as_ref())
        .map(|v| match v.get_ref() {
            Count::Number(n) => {
                if !(1..=i64::from(LIMITS.stones)).contains(n) {
                    cx.error(
                        v.span(),
                        format!("`drops` must be from 1 to {}", LIMITS.stones),
                    );
                }
                Expr::compile(&n.to_string(), &Context::Drop.scope(0), Type::Int).ok()
            }
            Count::Expression(text) => cx.expression(
                Context::Drop,
                &Spanned::new(v.span(), text.clone()),
                Type::Int,
            ),
        });
    let close = sowing.and_then(|s| {
        let v = s.close.as_ref()?;
        if s.relay == Relay::None {
            cx.warn(
                v.span(),
                "`close` without `relay`: no pit is ever lifted by a relay, so none closes",
            );
        }
        Some(cx.condition(Context::Relay, v))
    });
    let take_choice = sowing.and_then(|s| s.take_choice.as_ref());
    if let (Some(choice), None) = (take_choice, &take) {
        if *choice.get_ref() != TakeChoice::None {
            cx.warn(
                choice.span(),
                "`take_choice` without `take`: no pit is ever taken, so there is nothing to choose",
            );
        }
    }
    let cannot_feed = sowing.and_then(|s| s.cannot_feed.as_ref());
    if let (Some(c), Some(MustFeed::No) | None) = (cannot_feed, sowing.map(|s| s.must_feed)) {
        cx.warn(
            c.span(),
            "`cannot_feed` without `must_feed`: no move is ever required to feed",
        );
    }
    let take_to = sowing.and_then(|s| s.take_to.as_ref());
    if let (Some(to), None) = (take_to, &take) {
        cx.warn(
            to.span(),
            "`take_to` without `take`: no pit is ever taken on a drop",
        );
    }
    let divert_to = sowing.and_then(|s| s.divert_to.as_ref());
    if let (Some(to), None) = (divert_to, &divert) {
        cx.warn(
            to.span(),
            "`divert_to` without `divert`: no stone is ever diverted",
        );
    }
    let divert_hand = sowing.and_then(|s| s.divert_hand.as_ref());
    if let (Some(h), None) = (divert_hand, &divert) {
        cx.warn(
            h.span(),
            "`divert_hand` without `divert`: no stone is ever diverted",
        );
    }
    let store_circuit = sowing.and_then(|s| s.store_circuit.as_ref());
    if let (Some(c), None) = (store_circuit, &store_move) {
        cx.warn(
            c.span(),
            "`store_circuit` without `store_move`: no move ever sows a store",
        );
    }
    let lift_chosen = sowing
        .and_then(|s| s.lift.as_ref())
        .is_some_and(|l| *l.get_ref() == Lift::Chosen);
    let lift_when = sowing.and_then(|s| {
        let v = s.lift_when.as_ref()?;
        if !lift_chosen {
            cx.warn(
                v.span(),
                "`lift_when` without `lift = \"chosen\"`: every move lifts all its stones, so it is never checked",
            );
        }
        Some(cx.condition(Context::Lift, v))
    });
    Some(Checked {
        start: start?,
        reverse: compiled(reverse)?,
        direction_choice: compiled(direction_choice)?,
        relay_when: compiled(relay_when)?,
        relay_choice: compiled(relay_choice)?,
        relay_turn: compiled(relay_turn)?,
        lap_way_chosen,
        drops: compiled(drops)?,
        divert: compiled(divert)?,
        drop_choice: compiled(drop_choice)?,
        divert_to: divert_to.map_or(TakeTo::Owner, |t| *t.get_ref()),
        divert_hand: divert_hand.map_or(DivertHand::Drop, |h| *h.get_ref()),
        relay_stores: sowing.map_or(RelayStores::End, |s| s.relay_stores),
        close: compiled(close)?,
        fill_across: sowing
            .and_then(|s| s.closed.as_ref())
            .is_some_and(|c| *c.get_ref() == ClosedSowing::FillAcross),
        locks: sowing.map_or(Locks::No, |s| s.locks),
        lock_when: compiled(lock_when)?,
        unlock_when: compiled(unlock_when)?,
        opening: match opening {
            Some(e) => Some((e?, opening_last)),
            None => None,
        },
        skip: compiled(skip)?,
        take: compiled(take)?,
        take_choice: take_choice.map_or(TakeChoice::None, |c| *c.get_ref()),
        take_to: take_to.map_or(TakeTo::Owner, |t| *t.get_ref()),
        skip_origin: sowing.map_or(SkipOrigin::Never, |s| s.skip_origin),
        first_origin: sowing.is_some_and(|s| {
            matches!(s.first_drop, FirstDrop::Origin | FirstDrop::OriginEveryLift)
        }),
        relay_first_origin: sowing.is_some_and(|s| s.first_drop == FirstDrop::OriginEveryLift),
        first_to_store: sowing.is_some_and(|s| s.first_drop == FirstDrop::Store),
        relay: sowing.map_or(Relay::None, |s| s.relay),
        must_feed: sowing.map_or(MustFeed::No, |s| s.must_feed),
        cannot_feed: cannot_feed.map_or(CannotFeed::NoMove, |c| *c.get_ref()),
        max_laps,
        store_move: compiled(store_move)?,
        lift_chosen,
        lift_when: compiled(lift_when)?,
    })
}

impl SowingRule {
    /// Whether conditions lock or unlock pits (`lock_when`, `unlock_when`).
    pub(crate) fn locks_by_rule(&self) -> bool {
        self.lock_when.is_some() || self.unlock_when.is_some()
    }

    /// Whether pits are ever locked: the STATE carries them.
    pub(crate) fn locking(&self) -> bool {
        self.locks || self.lock_when.is_some()
    }
}

impl Checked {
    /// The rule on the board laid out.
    pub(super) fn rule(self, laid: Laid, circuit: CircuitSpec) -> SowingRule {
        let remembers = [
            Some(&self.start),
            self.reverse.as_ref(),
            self.direction_choice.as_ref(),
        ]
        .into_iter()
        .flatten()
        .map(Remembers::of)
        .fold(Remembers::default(), Remembers::or);
        let pit = |e: Expr| laid.pit(e, View::Pit);
        let reverse = self.reverse.map(pit);
        let direction_choice = self.direction_choice.map(pit);
        let longest = laid.geo.circuit_len[0].max(laid.geo.circuit_len[1]) as u32;
        SowingRule {
            circuit,
            start: pit(self.start),
            skip_origin: self.skip_origin,
            first_origin: self.first_origin,
            relay_first_origin: self.relay_first_origin,
            first_to_store: self.first_to_store,
            relay: self.relay,
            relay_when: self.relay_when.map(|e| laid.pit(e, View::Last)),
            relay_choice: self.relay_choice.map(|e| laid.pit(e, View::Last)),
            relay_turn: self.relay_turn.map(|e| laid.pit(e, View::Last)),
            lap_way_chosen: self.lap_way_chosen,
            drops: self.drops,
            divert: self.divert.map(|e| laid.pit(e, View::Pit)),
            drop_choice: self.drop_choice.map(|e| laid.pit(e, View::Pit)),
            divert_to: self.divert_to,
            divert_hand: self.divert_hand,
            relay_stores: self.relay_stores,
            close: self.close.map(|e| laid.pit(e, View::Last)),
            fill_across: self.fill_across,
            locks: self.locks != Locks::No,
            relay_unlocks: self.locks == Locks::Lift,
            lock_when: self.lock_when.map(pit),
            unlock_when: self.unlock_when.map(pit),
            opening: self.opening,
            must_feed: self.must_feed,
            cannot_feed: self.cannot_feed,
            max_drops: self.max_laps * longest,
            directed: reverse.is_some() || direction_choice.is_some(),
            remembers,
            reverse,
            direction_choice,
            skip: self.skip.map(pit),
            take: self.take.map(pit),
            take_choice: self.take_choice,
            take_to: self.take_to,
            store_move: self.store_move.map(pit),
            lift_chosen: self.lift_chosen,
            lift_when: self.lift_when.map(pit),
        }
    }
}

impl SowingRule {
    /// The fast paths this rule closes.
    pub(crate) fn closes(&self) -> Closes {
        let SowingRule {
            // Settled before or after the sowing the paths differ in, or only with a rule
            // that closes the paths (`take`, a relay).
            circuit: _,
            start: _,
            skip_origin: _,
            max_drops: _,
            relay_when: _,
            // Asked only where a relay lifts, which closes the paths already.
            relay_choice: _,
            relay_turn: _,
            // Only with `reverse` or `direction_choice`, which close the paths already.
            lap_way_chosen: _,
            relay_stores: _,
            take_choice: _,
            take_to: _,
            divert_to: _,
            divert_hand: _,
            // Read in `FastPaths::of` itself.
            reverse: _,
            direction_choice: _,
            // Settled with the legal moves, after the move.
            remembers: _,
            // What closes a path.
            first_origin,
            first_to_store,
            relay,
            skip,
            take,
            drops,
            divert,
            drop_choice,
            directed,
            close,
            fill_across,
            locks,
            // Only with `locks`, which closes the paths already.
            relay_unlocks: _,
            // Settled after the move.
            lock_when: _,
            unlock_when: _,
            // What closes a path: a first move that moves stones by its rule, not by sowing.
            opening,
            // Only with `first_origin`, which closes them.
            relay_first_origin: _,
            // Settled with the legal moves.
            cannot_feed: _,
            lift_when: _,
            // What closes a path: a move that lifts less than its pit, or sows the store.
            store_move,
            lift_chosen,
            // Judged after the capture, feeding needs the position at the move's start.
            must_feed,
        } = self;
        Closes {
            // A precomputed run starts from the sower's own side.
            bulk: take.is_some()
                || skip.is_some()
                || drops.is_some()
                || divert.is_some()
                || drop_choice.is_some()
                || *relay != Relay::None
                || self.circuit.from_board,
            plain: *first_origin
                || *first_to_store
                || *directed
                || *must_feed == MustFeed::Kept
                || close.is_some()
                || *fill_across
                || *locks
                || store_move.is_some()
                || *lift_chosen
                || opening.is_some(),
            way: *directed,
            // The legal moves list the numbers lifted and the store, or the pits that may open.
            start: store_move.is_some() || *lift_chosen || opening.is_some(),
        }
    }

    /// The sowing in plain words, up to the first stone.
    pub(super) fn describe(&self, s: &mut String) {
        let c = &self.circuit;
        let _ = writeln!(
            s,
            "Sowing: lift {} of one of {} where `{}` and sow one a pit {} round {}{}.",
            if self.lift_chosen {
                "stones"
            } else {
                "every stone"
            },
            if c.from_board {
                "the pits of the board, yours or your opponent's,"
            } else {
                "your pits"
            },
            self.start.expr.text(),
            if c.clockwise {
                "clockwise"
            } else {
                "counterclockwise"
            },
            if c.own_only {
                "your own pits only"
            } else {
                "the board"
            },
            match (c.own_store, c.other_store) {
                (true, true) => ", both stores included",
                (true, false) => ", your own store included",
                _ => "",
            }
        );
        let _ = writeln!(
            s,
            "{}",
            match self.skip_origin {
                SkipOrigin::Never =>
                    "The emptied pit is sown into again when the sowing laps round.",
                SkipOrigin::Lap => "The pit being sown from is skipped when the sowing laps round.",
                SkipOrigin::Move =>
                    "The move's first pit is skipped for the whole move, relays included.",
            }
        );
        let other_way = if c.clockwise {
            "counterclockwise"
        } else {
            "clockwise"
        };
        if let Some(r) = &self.reverse {
            let _ = writeln!(
                s,
                "A pit where `{}` is sown the other way round ({other_way}).",
                r.expr.text()
            );
        }
        if let Some(c) = &self.direction_choice {
            let _ = writeln!(
                s,
                "A pit where `{}` may be sown either way round, at your choice: such a move is written with its direction, `3ccw` (counterclockwise) or `3cw` (clockwise).",
                c.expr.text()
            );
        }
        if self.first_origin {
            let _ = writeln!(
                s,
                "The first stone {}goes back into the pit it was lifted from; a single stone moves on to the next pit.",
                if self.relay_first_origin {
                    "of every lift, relays included, "
                } else {
                    ""
                }
            );
        }
        if self.first_to_store {
            let _ = writeln!(
                s,
                "The first stone of every lift, relays included, goes into your store."
            );
        }
        if self.lift_chosen {
            let _ = writeln!(
                s,
                "You choose how many stones to lift{}: such a move is written with the number after a colon, `3:5` (five stones of pit 3); the rest stay in the pit. Relay lifts take every stone.",
                self.lift_when
                    .as_ref()
                    .map_or(String::new(), |w| format!(", any number where `{}`", w.expr.text()))
            );
        }
        if let Some(m) = &self.store_move {
            let _ = writeln!(
                s,
                "In place of a pit you may sow your store{} (written `s`{}): its first stone falls into your first pit along the sowing, and it goes round {}.",
                match m.expr.text() {
                    "true" => String::new(),
                    t => format!(" where `{t}` (`pit` being the store)"),
                },
                if self.lift_chosen { ", or `s:2` for two of its stones" } else { "" },
                match self.circuit.store_ring {
                    StoreRing::Moves => "the circuit of the other moves",
                    StoreRing::Own => "your own pits only",
                    StoreRing::Pits => "both players' pits, passing over the stores",
                    StoreRing::Chosen => "your own pits, and at your last pit, with stones still in hand, you choose: round them again (`leave`) or on into your opponent's pits (`take`)",
                }
            );
        }
        if let Some(k) = &self.skip {
            let _ = writeln!(
                s,
                "The sowing passes over every pit where `{}` (a stone no pit would take falls into the first one passed over).",
                k.expr.text()
            );
        }
    }

    /// The sowing in plain words, from the last stone: relays, takes and feeding.
    pub(super) fn describe_relay(&self, s: &mut String) {
        match self.relay {
            Relay::None => {}
            Relay::Next => {
                let _ = writeln!(s, "Relay: after the last stone, the next pit is lifted and sown on if it holds stones; the move ends at an empty pit.");
            }
            Relay::Previous => {
                let _ = writeln!(s, "Relay: after the last stone, the pit before it is lifted and sown on if it holds stones; the move ends at an empty pit.");
            }
            Relay::Last => {
                let _ = writeln!(s, "Relay: if the last stone lands in a pit that held stones, that pit is lifted and sown on.");
            }
        }
        if let Some(c) = &self.close {
            let _ = writeln!(
                s,
                "When `{}` at a lap's end, the pit the relay lifts is closed for the rest of the game.",
                c.expr.text()
            );
        }
        if self.locks {
            let _ = writeln!(
                s,
                "Every pit starts the game (and each round) locked, and is unlocked once {} from it.",
                if self.relay_unlocks {
                    "its stones are lifted, by a move or a relay,"
                } else {
                    "a move is sown"
                }
            );
        }
        if self.fill_across {
            let _ = writeln!(
                s,
                "A sowing passes over your own closed pits; a stone reaching a closed pit across the board stays in it, out of play (a lap's last stone there ends the sowing)."
            );
        }
        if let Some(r) = &self.relay_when {
            let _ = writeln!(s, "A relay lift happens only when `{}`.", r.expr.text());
        }
        if let Some(r) = &self.relay_turn {
            let _ = writeln!(
                s,
                "Where `{}` at a lap's end, the relay sows on the other way round.",
                r.expr.text()
            );
        }
        if let Some(l) = &self.lock_when {
            let _ = writeln!(
                s,
                "A pit where `{}` is locked as the sowing begins and after every move.",
                l.expr.text()
            );
        }
        if let Some(u) = &self.unlock_when {
            let _ = writeln!(
                s,
                "A locked pit where `{}` is unlocked after every move.",
                u.expr.text()
            );
        }
        if let Some((change, last)) = &self.opening {
            let _ = writeln!(
                s,
                "Opening: the first move of every game and round changes each pit in play by `{}` instead of sowing, and ends in {} as a sowing ends in its last pit.",
                change.text(),
                match last {
                    OpeningLast::Origin => "the pit chosen",
                    OpeningLast::Opposite => "the pit facing it",
                }
            );
        }
        if self.lap_way_chosen {
            let _ = writeln!(
                s,
                "Every lap after a move's first (a relay, captured stones sown on) chooses its way round as a move does: the mover decides where both are open."
            );
        }
        if let Some(d) = &self.divert {
            let _ = writeln!(
                s,
                "A drop into a pit where `{}` goes to {} store instead{}.",
                d.expr.text(),
                match self.divert_to {
                    TakeTo::Owner => "the pit's owner's",
                    TakeTo::Mover => "the sowing player's",
                },
                match self.divert_hand {
                    DivertHand::Drop => "",
                    DivertHand::All =>
                        ", with every stone still in hand, and the lap ends at the pit sown before",
                }
            );
        }
        if let Some(c) = &self.drop_choice {
            let _ = writeln!(
                s,
                "After a drop where `{}`, with stones still in hand, the mover may drop another stone into the same pit.",
                c.expr.text()
            );
        }
        if let Some(d) = &self.drops {
            let _ = writeln!(
                s,
                "Each drop puts `{}` stones into its pit (at least one, at most those in hand).",
                d.text()
            );
        }
        match self.relay_stores {
            RelayStores::End => {}
            RelayStores::Lift => {
                let _ = writeln!(
                    s,
                    "A relay reaching a store lifts its stones and sows them on."
                );
            }
            RelayStores::Pass => {
                let _ = writeln!(
                    s,
                    "A relay, the pits after the last (`next`, `beyond`) and capture chains pass over stores."
                );
            }
        }
        if let Some(r) = &self.relay_choice {
            let _ = writeln!(
                s,
                "Where `{}` at a lap's end, you may stop the sowing there instead of lifting the pit (`take`: lift it and sow on; `leave`: stop).",
                r.expr.text()
            );
        }
        if let Some(t) = &self.take {
            let store = match self.take_to {
                TakeTo::Owner => "its owner's store",
                TakeTo::Mover => "the sowing player's store",
            };
            let _ = writeln!(
                s,
                "On every drop: a pit where `{}` {}.",
                t.expr.text(),
                match self.take_choice {
                    TakeChoice::None => format!("goes at once to {store}"),
                    TakeChoice::Owner => format!(
                        "may go to {store}: its owner decides, take or leave, also during the opponent's sowing"
                    ),
                    TakeChoice::Mover =>
                        format!("may go to {store}: the player sowing decides, take or leave"),
                }
            );
        }
        match self.must_feed {
            MustFeed::No => {}
            MustFeed::Sown => {
                let _ = writeln!(s, "Feeding: when the opponent has no stones, you must sow some into their pits if you can.");
            }
            MustFeed::Kept => {
                let _ = writeln!(s, "Feeding: when the opponent has no stones, you must leave them some once your move, capture included, is over, if you can; taking back what you fed them is no grand slam.");
            }
        }
        if self.must_feed != MustFeed::No {
            let _ = writeln!(
                s,
                "{}",
                match self.cannot_feed {
                    CannotFeed::NoMove =>
                        "A player who cannot feed the opponent has no legal move.",
                    CannotFeed::AnyMove =>
                        "A player who cannot feed the opponent may play any move.",
                }
            );
        }
    }
}
