//! `[capture]`: what the mover takes once the sowing has ended (or after every lap, where
//! captures are sown on): the condition, the pits taken, the chain, grand slams.

use super::{compiled, Cx, Laid, CONDITION};
use crate::fast::Closes;
use crate::scope::{reads_opponent_had, Context, PitCond, View};
use ludus_core::expr::Expr;
use ludus_core::rules::reference::{KeyRef, SectionRef};
use ludus_core::rules::toml::constant_value;
use serde::Deserialize;
use std::fmt::Write;
use toml::Spanned;

/// `[capture]` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Capture {
    /// The condition at the end of the move (context `capture`).
    pub when: Spanned<String>,
    /// The pits taken when it holds.
    pub take: Spanned<Vec<Target>>,
    /// Then, walking back along the circuit from the first target, each pit is taken while this
    /// holds (context `chain`).
    #[serde(default)]
    pub chain: Option<Spanned<String>>,
    /// Which way the chain walks from the first target.
    #[serde(default)]
    pub chain_way: ChainWay,
    /// The most pits the chain adds, each way it walks.
    #[serde(default)]
    pub chain_max: Option<Spanned<u32>>,
    /// What each pit the chain reaches brings with it: itself, the pit facing it, its column.
    #[serde(default)]
    pub chain_take: Option<Spanned<Vec<ChainTake>>>,
    /// The most stones taken from each pit taken: a number, or an expression (context
    /// capture).
    #[serde(default)]
    pub take_max: Option<Spanned<Count>>,
    #[serde(default)]
    pub grand_slam: GrandSlam,
    /// Which pits a grand slam empties: the opponent's, or the row across the board.
    #[serde(default)]
    pub grand_slam_pits: SlamPits,
    /// Where the captured stones go.
    #[serde(default)]
    pub to: CaptureTo,
    /// Whose store the captured stones go to.
    #[serde(default)]
    pub taker: Option<Spanned<Taker>>,
    /// Where captured stones sown on start from (with `to = "sow"`).
    #[serde(default)]
    pub sow_from: Option<Spanned<SowFrom>>,
    /// When the capture is checked: once the sowing has ended, or after every lap.
    #[serde(default)]
    pub at: Option<Spanned<CaptureAt>>,
    /// With `at = "lap"`: how the sowing goes on after a lap that captured.
    #[serde(default)]
    pub go_on: Option<Spanned<GoOn>>,
    /// Whether the mover may decline the capture.
    #[serde(default)]
    pub choice: CaptureChoice,
    /// After a capture that took stones, the mover picks this many further pits and takes
    /// them, one after another.
    #[serde(default)]
    pub pick: Option<Spanned<Count>>,
    /// The pits a pick may take (context chain); the opponent's when left out.
    #[serde(default)]
    pub pick_from: Option<Spanned<String>>,
    /// The picks follow only a capture for which this holds (context capture, checked with
    /// the capture's condition).
    #[serde(default)]
    pub pick_when: Option<Spanned<String>>,
    /// Whether the picks follow only a capture that took stones.
    #[serde(default)]
    pub pick_after: Option<Spanned<PickAfter>>,
    /// A last stone in a store takes that store (`take` naming `"last"`).
    #[serde(default)]
    pub take_store: bool,
    /// After the capture step of every move: when this holds, the mover takes every stone left
    /// in play (context `sweep`).
    #[serde(default)]
    pub sweep: Option<Spanned<String>>,
    /// Who takes the stones a sweep takes.
    #[serde(default)]
    pub sweep_to: Option<Spanned<SweepTo>>,
}

/// Who takes the stones a sweep takes.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum SweepTo {
    /// The player who just moved.
    #[default]
    Mover,
    /// Their opponent.
    Opponent,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Target {
    Last,
    Opposite,
    Column,
    Next,
    Beyond,
    /// The pit facing `next` across the board.
    OppositeNext,
    /// The pit facing `beyond` across the board.
    OppositeBeyond,
    /// The mover's store (with `take_store`).
    Store,
}

/// A number a capture uses (the most stones it takes from each pit, the pits picked after it):
/// a number, or an expression of the capture's context worked out at each capture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Count {
    Number(i64),
    Expression(String),
}

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Count;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a whole number, or an expression in quotes")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Count, E> {
                Ok(Count::Number(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Count, E> {
                Ok(Count::Number(i64::try_from(v).unwrap_or(i64::MAX)))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Count, E> {
                Ok(Count::Expression(v.to_string()))
            }
        }
        d.deserialize_any(Visitor)
    }
}

/// The pits a chain takes at each pit it reaches.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum ChainTake {
    /// The pit reached.
    Pit,
    /// The pit facing it across the board.
    Opposite,
    /// The pits facing it across the board, in its column (both of a four-row board's).
    Column,
}

impl ChainTake {
    /// Its bit in [`CaptureRule::chain_take`].
    const fn bit(self) -> u8 {
        match self {
            ChainTake::Pit => CHAIN_PIT,
            ChainTake::Opposite => CHAIN_OPPOSITE,
            ChainTake::Column => CHAIN_COLUMN,
        }
    }
}

/// [`CaptureRule::chain_take`]'s bits.
pub(crate) const CHAIN_PIT: u8 = 1;
pub(crate) const CHAIN_OPPOSITE: u8 = 2;
pub(crate) const CHAIN_COLUMN: u8 = 4;

/// Which way a capture's chain walks from the first pit taken.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum ChainWay {
    /// Back over the pits just sown (against the sowing).
    #[default]
    Back,
    /// On, the way the move sowed.
    On,
    /// Both ways.
    Both,
    /// No walk: every pit of the board for which the chain holds.
    All,
    /// On, the way the move sowed, two pits a step: over an empty pit to the pit after it
    /// (captures over alternating empty and occupied pits).
    OverEmpty,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum GrandSlam {
    /// Captures as usual.
    #[default]
    Capture,
    /// Legal, captures nothing.
    NoCapture,
    /// Illegal while any other move is legal; as the only move it captures.
    Forbidden,
    /// Illegal, even as the only kind of move.
    Never,
    /// Captures all but the opponent's occupied pit nearest the mover's right hand (their
    /// leftmost), unless it is the only one.
    LeaveRight,
    /// Captures all but the opponent's occupied pit nearest the mover's left hand.
    LeaveLeft,
}

/// Whose store captured stones go to.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Taker {
    /// The mover's.
    #[default]
    Mover,
    /// The last pit's owner's: a last stone in the opponent's pit captures for them.
    Owner,
}

/// Which pits a grand slam empties, where pits change owner.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum SlamPits {
    /// The pits the opponent owns now, wherever they are.
    #[default]
    Owned,
    /// The opponent's side of the board, whoever owns its pits.
    Across,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum CaptureTo {
    /// To the mover's store, once the sowing has ended.
    #[default]
    Store,
    /// Checked after every lap; the captured stones are sown on at once from the pit that lap
    /// was lifted from, and the move goes on (Omweso).
    Sow,
    /// Once the sowing has ended; the captured stones go into one pit the mover picks.
    Pick,
    /// Once the sowing has ended; the captured stones go into the last pit, kept on the board.
    Last,
    /// Once the sowing has ended; the captured stones go into the pit the move was sown from.
    Origin,
}

/// When a capture to the store is checked.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum CaptureAt {
    /// Once, when the sowing has ended.
    #[default]
    End,
    /// At the end of every lap, before the relay (Tegre, Tap-Urdy).
    Lap,
    /// Once, before the sowing: the pit about to be lifted is `last` (Gelech's captures across
    /// from the mover's singles before each sowing).
    Start,
}

/// With captures after every lap: how the sowing goes on after a lap that captured.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum GoOn {
    /// As after any lap: the relay rule decides.
    #[default]
    Relay,
    /// The lap's last pit is lifted and sown on, whatever it holds (the capturing stone alone
    /// included: Tegre).
    Last,
    /// The pit after the last is lifted and sown on; an empty one ends the move (Kotu Baendum).
    Next,
}

/// Where captured stones sown on (`capture.to = "sow"`) start from.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum SowFrom {
    /// As if lifted again from the pit the lap started from (Omweso).
    #[default]
    Lap,
    /// From the lap's last pit: the first stone goes into the pit after it.
    Last,
    /// From the lap's last pit, lifted with them: its own stones join the captured ones
    /// (Kisolo of the Lali).
    LastLifted,
}

/// Whether the mover may decline a capture.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum CaptureChoice {
    /// The capture is made.
    #[default]
    None,
    /// The mover makes it or leaves it.
    Mover,
}

/// Which captures the picks follow (`pick_after`).
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum PickAfter {
    /// A capture that took stones.
    #[default]
    Taking,
    /// Every capture whose conditions held, whether or not it took stones.
    When,
}

pub(crate) const SECTION: SectionRef = SectionRef {
    name: "capture",
    line: "what the mover takes once the sowing has ended",
    required: false,
    repeated: false,
    keys: KEYS,
};

const KEYS: &[KeyRef] = &[
    KeyRef {
        section: "capture",
        key: "when",
        line: "context capture: checked once the sowing has ended",
        expects: "a condition in quotes, such as `\"last.side == opponent and last.count in [2, 3]\"`",
        values: &[],
        default: "—",
        example: "when = \"last.side == opponent and last.count in [2, 3]\"",
        long: "A condition (context capture: the views `last`, `next`, `beyond`, `opposite`, \
               `behind`, `origin`, and `sown`, `laps`, `relays`) checked once the sowing has ended \
               (after every lap with `to = \"sow\"`); when it holds, the pits of `take` are \
               captured.",
    },
    KeyRef {
        section: "capture",
        key: "take",
        line: "the pits captured when `when` holds",
        expects: "a list of pits such as `[\"last\"]` or `[\"opposite\", \"next\"]`",
        values: &[
            "last",
            "opposite",
            "column",
            "next",
            "beyond",
            "opposite-next",
            "opposite-beyond",
            "store",
        ],
        default: "—",
        example: "take = [\"last\"]",
        long: "The pits taken when `when` holds, any of \"last\", \"opposite\" (the pit facing \
               the last across the board: the mover's own when the last pit is the opponent's), \
               \"column\" (all the pits across the board in the last pit's column: inner and \
               outer), \"next\" (the pit after the last), \"beyond\" (the pit after \
               that), \"opposite-next\" and \"opposite-beyond\" (the pits facing those two: \
               a gap's far pit taken with the pit across from it), \"store\" (the mover's own \
               store, with `take_store`: taken for the opponent with `taker = \"owner\"`). \
               Captured stones go to the mover's store; stores (but with `take_store`) and \
               out-of-play pits are never taken.",
    },
    KeyRef {
        section: "capture",
        key: "chain",
        line: "context chain: then, walking back from the first target, each pit is taken while this holds",
        expects: CONDITION,
        values: &[],
        default: "none",
        example: "chain = \"pit.side == opponent and pit.count in [2, 3]\"",
        long: "A condition (context chain: `pit`, `last`, `origin`, `sown`, `laps`, `relays`): \
               after the targets are taken, walking back along the circuit from the first \
               target, each pit is taken while this holds (Oware); `chain_way` and \
               `chain_max` say which way it walks and how far.",
    },
    KeyRef {
        section: "capture",
        key: "chain_way",
        line: "which way the chain walks from the first target: back, on, both ways, or on over empty pits",
        expects: "\"back\", \"on\", \"both\", \"all\" or \"over-empty\"",
        values: &["back", "on", "both", "all", "over-empty"],
        default: "\"back\"",
        example: "chain_way = \"both\"",
        long: "\"back\": against the sowing, over the pits just sown (Oware); \"on\": the way \
               the move sowed, past the last pit; \"both\": back, then on from the first target \
               again; \"all\": no walk, every pit of the board in play for which `chain` holds, \
               wherever it is (a capture that also takes every opponent's pit of two: `chain = \
               \"pit.side == opponent and pit.count == 2\"`); \"over-empty\": on, the way the \
               move sowed, two pits a step, each pit taken while the pit before it is empty and \
               `chain` holds (captures over alternating empty and occupied pits: `take = \
               [\"beyond\"]`, `chain = \"pit.count > 0\"`). Out-of-play pits are passed over; a \
               store (unless `relay_stores = \"pass\"` passes over it) or a pit failing \
               `chain` ends a walk.",
    },
    KeyRef {
        section: "capture",
        key: "chain_max",
        line: "the most pits the chain adds, each way it walks",
        expects: "a whole number",
        values: &[],
        default: "none (no limit)",
        example: "chain_max = 1",
        long: "The chain stops once it has added this many pits, in each way it walks (with \
               `chain_way = \"all\"`, in all; a game \
               that takes the last pit and at most one before it: `chain_max = 1`).",
    },
    KeyRef {
        section: "capture",
        key: "chain_take",
        line: "what each pit the chain reaches takes: the pit, the pit facing it, its column",
        expects: "a list of \"pit\", \"opposite\", \"column\"",
        values: &["pit", "opposite", "column"],
        default: "[\"pit\"]",
        example: "chain_take = [\"pit\", \"opposite\"]",
        long: "Each pit for which `chain` holds takes these: \"pit\" (itself), \"opposite\" (the \
               pit facing it across the board), \"column\" (the pits facing it, both of a \
               four-row board's). Baqura and Li'b al-'Aqil take each even pit of the chain \
               with the pit facing it: `chain_take = [\"pit\", \"opposite\"]`. The walk goes \
               on from the pit reached, whatever it took.",
    },
    KeyRef {
        section: "capture",
        key: "take_max",
        line: "the most stones taken from each pit taken",
        expects: "a whole number from 1 to 255, or an expression in quotes (context take)",
        values: &[],
        default: "none (all)",
        example: "take_max = 2",
        long: "Each pit taken gives up at most this many stones; the rest stay in it. A last \
               stone in the opponent's house taken with one more of its stones (Weg, Um el \
               Banat): `when = \"last.house == opponent\"`, `take = [\"last\"]`, `take_max = \
               2` (with `[house] keeps`). An expression (context take: `when`'s names, and `pit`, \
               the pit taken) gives the number each capture takes, worked out when it is made, \
               pit by pit where it reads `pit`: Gabata's two from the opponent's weg, but three \
               from their last hole, leaving one, `\"if(last.house == opponent, 2, 3)\"`; the \
               last stone alone taken with the pit across, `take = [\"last\", \"opposite\"]`, \
               `take_max = \"if(pit.side == last.side and pit.number == last.number, 1, \
               255)\"`.",
    },
    KeyRef {
        section: "capture",
        key: "grand_slam",
        line: "what happens to a capture that would take every stone the opponent has in their pits",
        expects: "\"capture\", \"no-capture\", \"forbidden\", \"never\", \"leave-right\" or \"leave-left\"",
        values: &["capture", "no-capture", "forbidden", "never", "leave-right", "leave-left"],
        default: "\"capture\"",
        example: "grand_slam = \"no-capture\"",
        long: "A capture that would take every stone the opponent has in their pits: \"capture\" \
               (as usual), \"no-capture\" (legal, captures nothing: Abapa), \"forbidden\" \
               (illegal unless it is the only kind of move; then it captures: Wari), \"never\" \
               (illegal even as the only kind of move: a player whose every move would take \
               the opponent's last stones has no legal move), \"leave-right\" and \"leave-left\" \
               (it takes all but the opponent's occupied pit nearest the mover's right hand, \
               their leftmost, or nearest the mover's left hand; when only one of their pits \
               holds stones it is taken: Ayo).",
    },
    KeyRef {
        section: "capture",
        key: "taker",
        line: "whose store the captured stones go to: the mover's, or the last pit's owner's",
        expects: "\"mover\" or \"owner\"",
        values: &["mover", "owner"],
        default: "\"mover\"",
        example: "taker = \"owner\"",
        long: "\"mover\": the player who moved takes what the capture takes; \"owner\": the \
               owner of the last pit does, so a move whose last stone falls in the opponent's \
               pit captures for the opponent (Yovodi: a last stone in an empty pit takes the pit \
               facing it, for whoever owns the empty pit). `captured` counts the stones taken \
               either way. Not with `to = \"sow\"` or `choice = \"mover\"`.",
    },
    KeyRef {
        section: "capture",
        key: "grand_slam_pits",
        line: "which pits a grand slam empties where pits change owner: the opponent's, or the row across",
        expects: "\"owned\" or \"across\"",
        values: &["owned", "across"],
        default: "\"owned\"",
        example: "grand_slam_pits = \"across\"",
        long: "Where pits change owner between rounds (`[match] owners = \"filled\"`), a grand \
               slam is a capture that takes every stone in the pits the opponent owns (\"owned\") \
               or every stone on the opponent's side of the board, whoever owns its pits \
               (\"across\"; the pit `grand_slam = \"leave-right\"` leaves is then one of that \
               side's, and such a grand slam takes only that side's pits). Elsewhere both are \
               the same.",
    },
    KeyRef {
        section: "capture",
        key: "to",
        line: "where captured stones go: the mover's store, or sown on at once",
        expects: "\"store\", \"sow\", \"pick\", \"last\" or \"origin\"",
        values: &["store", "sow", "pick", "last", "origin"],
        default: "\"store\"",
        example: "to = \"store\"",
        long: "\"store\": the capture is checked once the sowing has ended and the stones go to \
               the mover's store; \"sow\": it is checked after every lap (before a relay) and the \
               captured stones are sown on at once, as if lifted again from the pit that lap \
               started from (the move's pit, or the last relay pit), and the move goes on \
               (Omweso); \"pick\": it is checked once the sowing has ended and the captured \
               stones all go into one pit the mover picks, of those `pick_from` allows (any of \
               the opponent's pits in play when it is left out, empty or not): a step of play \
               of its own, answered with the pit's name (`o3`); a move that has already won the \
               game (its `[end] win` holds for the mover) keeps them in the mover's store, as \
               does a board with no pit to pick (Mancala Games' SameSide: \"multiple capture on \
               evens but place captured seeds in opponent's hole of your choice\"); \"last\" \
               and \"origin\": it is checked once the sowing has ended and the captured stones \
               go into the last pit, or the pit the move was sown from, kept on the board (a \
               last seed in an empty hole pulling the seeds across into it: `take = \
               [\"opposite\"]`, `to = \"last\"`).",
    },
    KeyRef {
        section: "capture",
        key: "sow_from",
        line: "with `to = \"sow\"`, where captured stones are sown on from: the lap's pit, its last pit, or its last pit lifted with them",
        expects: "\"lap\", \"last\" or \"last-lifted\"",
        values: &["lap", "last", "last-lifted"],
        default: "\"lap\"",
        example: "sow_from = \"last\"",
        long: "\"lap\": the captured stones are sown on as if lifted again from the pit the lap \
               started from (Omweso); \"last\": they are sown on from the lap's last pit, the \
               first into the pit after it (the pit after the capturing one); \"last-lifted\": \
               the lap's last pit is lifted too and its stones sown on with the captured ones, \
               as a relay lift (Kisolo of the Lali: \"continues sowing with these counters and \
               the counters in the hole where the final counter was dropped\").",
    },
    KeyRef {
        section: "capture",
        key: "at",
        line: "when a capture to the store is checked: once the sowing has ended, after every lap, or before the sowing",
        expects: "\"end\", \"lap\" or \"start\"",
        values: &["end", "lap", "start"],
        default: "\"end\"",
        example: "at = \"lap\"",
        long: "\"end\": the capture is checked once, when the sowing has ended. \"lap\": it is \
               checked at the end of every lap, before the relay (the last lap included), the \
               stones going to the mover's store, and the sowing goes on as `go_on` says (a \
               relay that captures on its way: Tegre, Tap-Urdy). `captured` in `relay_when` is \
               then the stones the move has captured so far. \"start\": it is checked once, before \
               the sowing, with `last` the pit about to be lifted (still holding its stones) and \
               the other views around it: captures made before each sowing (Gelech: every pit \
               across from one of the mover's singles, `take = []`, `chain_way = \"all\"`, \
               `chain = \"pit.side == opponent and pit.facing == 1\"`).",
    },
    KeyRef {
        section: "capture",
        key: "go_on",
        line: "with `at = \"lap\"`, how the sowing goes on after a lap that captured",
        expects: "\"relay\", \"last\" or \"next\"",
        values: &["relay", "last", "next"],
        default: "\"relay\"",
        example: "go_on = \"next\"",
        long: "After a lap whose capture took stones: \"relay\": the relay rule decides, as after \
               any lap; \"last\": the lap's last pit is lifted and sown on, whatever it holds \
               (a single capturing stone sown on: Tegre); \"next\": the pit after the last is \
               lifted and sown on, and an empty one ends the move (a four captured and the \
               sowing going on from the next hole: Kotu Baendum). A lap that captured nothing \
               goes on by the relay rule.",
    },
    KeyRef {
        section: "capture",
        key: "choice",
        line: "whether the mover may decline a capture: \"none\" (it is made) or \"mover\"",
        expects: "\"none\" or \"mover\"",
        values: &["none", "mover"],
        default: "\"none\"",
        example: "choice = \"mover\"",
        long: "\"none\": a capture whose condition holds is made. \"mover\": the mover decides, a \
               step of play of its own (`take` or `leave`), whenever the capture would take stones \
               (Sat-gharva's pit beyond, which the mover \"smí\", may, take; Uuholo's capture, to \
               which the mover \"má právo\", has the right). A capture left takes nothing; the \
               move goes on as after a failed condition. The feeding and grand-slam checks of the \
               legal moves try each move with every choice taken.",
    },
    KeyRef {
        section: "capture",
        key: "pick",
        line: "after a capture that took stones, how many further pits the mover picks and takes",
        expects: "a whole number from 1 to 16, or an expression in quotes (context capture)",
        values: &[],
        default: "none",
        example: "pick = 1",
        long: "After a capture that took stones (`at = \"end\"`, to the store), the mover \
               picks a pit holding stones, of those `pick_from` allows (the opponent's when it \
               is left out), and takes it, then the next, this many times or until no pit is \
               left: a step of play of its own, answered with the pit's name as the picker sees \
               the board (`o3`: the opponent's pit 3; `3`: their own). Tshuba: \"the player may \
               also capture from another hole from the opponent's side of the board of their \
               choosing\", `pick = 1`. The stones go to the mover's store and count in \
               `captured`. An expression (context capture) gives the number at each capture, \
               0 to 16: Tsoro (Baia)'s five pits after a player's first capture, three after \
               their second, two after, `\"if(mover.stage == 0, 5, if(mover.stage == 1, 3, \
               2))\"` with `[turn] stages = [\"captured > 0\", \"captured > 0\"]`. The feeding \
               and grand-slam checks of the legal moves, which try moves without asking, take \
               the fullest pits.",
    },
    KeyRef {
        section: "capture",
        key: "take_store",
        line: "whether a last stone in a store takes that store (a store is otherwise never taken)",
        expects: "true or false",
        values: &[],
        default: "false",
        example: "take_store = true",
        long: "true: where the sowing ends in a store (`[sowing] stores`) and `when` holds, the \
               target \"last\" takes that store's stones into the taker's store: a last seed \
               sown into the opponent's store captures the seeds in it (`when = \"last.is_store \
               and last.side == opponent\"`, `take = [\"last\"]`). false: stores are never \
               taken.",
    },
    KeyRef {
        section: "capture",
        key: "pick_from",
        line: "context chain: the pits a pick may take (the opponent's when left out)",
        expects: CONDITION,
        values: &[],
        default: "\"pit.side == opponent\"",
        example: "pick_from = \"pit.side == opponent and pit.row == 1\"",
        long: "A condition (context chain: `pit` the pit that may be picked, `last`, `origin`): \
               with `pick`, the pits in play holding stones that the mover may pick. Left out, \
               any of the opponent's pits.",
    },
    KeyRef {
        section: "capture",
        key: "pick_when",
        line: "context capture: the picks follow only a capture for which this holds",
        expects: CONDITION,
        values: &[],
        default: "\"true\"",
        example: "pick_when = \"behind.count > 0\"",
        long: "A condition (context capture, as `when`, checked with it, before anything is \
               taken): with `pick`, a capture that took stones is followed by the picks only \
               when this holds too. Msuwa: the mover takes two more holes \"if counters in the \
               inner and outer row are captured\", `take = [\"column\"]`, `pick = 2`, \
               `pick_when = \"behind.count > 0\"`.",
    },
    KeyRef {
        section: "capture",
        key: "pick_after",
        line: "which captures the picks follow: one that took stones, or any whose conditions held",
        expects: "\"taking\" or \"when\"",
        values: &["taking", "when"],
        default: "\"taking\"",
        example: "pick_after = \"when\"",
        long: "With `pick`: \"taking\", the picks follow a capture that took stones; \"when\", \
               they follow every capture whose `when` (and `pick_when`) held, whether it took \
               stones or not. Gifia: a last counter making two or four takes them with the \
               neighbours that hold two or four, and any other last counter lets the mover take \
               one such neighbour: `when = \"true\"`, the takes as a chain over the last pit and \
               its neighbours, `pick = \"if(last.count in [2, 4], 0, 1)\"`, `pick_from` the \
               neighbours holding two or four, `pick_after = \"when\"`.",
    },
    KeyRef {
        section: "capture",
        key: "sweep",
        line: "context sweep: after the capture step of every move, the mover takes every stone left in play when this holds",
        expects: "a condition (context sweep)",
        values: &[],
        default: "none",
        example: "sweep = \"mover.pits + opponent.pits <= 4\"",
        long: "Checked after the capture step of every move, whether it captured or not (`captured \
               > 0` for a sweep on a capture only), before the mover may move again: when it holds, \
               every stone left in the pits in play goes to the mover's store (NamNam: \"if there \
               are 4 or fewer seeds left on the board the capture takes them as well\"). The \
               feeding checks of the legal moves see the board swept.",
    },
    KeyRef {
        section: "capture",
        key: "sweep_to",
        line: "who takes the stones a sweep takes: the mover or the opponent",
        expects: "\"mover\" or \"opponent\"",
        values: &["mover", "opponent"],
        default: "\"mover\"",
        example: "sweep_to = \"opponent\"",
        long: "\"mover\": the player who just moved takes the stones swept; \"opponent\": their \
               opponent does (a grand slam that hands the capturer's remaining stones to the \
               player left without any: `sweep = \"grand_slam\"`, `sweep_to = \"opponent\"`).",
    },
];

/// A capture, compiled.
#[derive(Clone, Debug)]
pub(crate) struct CaptureRule {
    pub(crate) when: PitCond,
    /// A condition reads `opponent_had`, worked out at each move's start for it.
    pub(crate) reads_opponent_had: bool,
    /// When it holds after a move's capture step, the mover (or the opponent, `sweep_to`)
    /// takes every stone left in play.
    pub(crate) sweep: Option<Expr>,
    pub(crate) sweep_to: SweepTo,
    /// The `next` and `beyond` pits are read by the condition or taken.
    pub(crate) needs_next: bool,
    pub(crate) targets: Vec<Target>,
    pub(crate) chain: Option<PitCond>,
    pub(crate) chain_way: ChainWay,
    /// The most pits the chain adds, each way it walks.
    pub(crate) chain_max: u32,
    /// What each pit the chain reaches brings (bits `CHAIN_PIT`, `CHAIN_OPPOSITE`,
    /// `CHAIN_COLUMN`).
    pub(crate) chain_take: u8,
    /// The most stones taken from each pit taken (`u8::MAX`: all).
    pub(crate) take_max: u8,
    /// Or the expression giving it at each capture.
    pub(crate) take_max_expr: Option<Expr>,
    /// The expression reads `pit`: worked out for each pit taken.
    pub(crate) take_max_each: bool,
    pub(crate) grand_slam: GrandSlam,
    /// A grand slam empties the row across the board rather than the opponent's pits.
    pub(crate) slam_across: bool,
    pub(crate) to: CaptureTo,
    pub(crate) taker: Taker,
    /// Where captured stones sown on start from.
    pub(crate) sow_from: SowFrom,
    /// When a capture to the store is checked.
    pub(crate) at: CaptureAt,
    /// How the sowing goes on after a lap that captured (with `at = "lap"`).
    pub(crate) go_on: GoOn,
    pub(crate) choice: CaptureChoice,
    /// The further pits the mover picks after a capture that took stones (0: none).
    pub(crate) pick: u8,
    /// Or the expression giving the picks at each capture (0 to 16).
    pub(crate) pick_expr: Option<Expr>,
    /// The pits a pick may take; `None`: the opponent's.
    pub(crate) pick_from: Option<PitCond>,
    /// The picks follow only a capture for which this holds; `None`: every capture.
    pub(crate) pick_when: Option<Expr>,
    /// Which captures the picks follow.
    pub(crate) pick_after: PickAfter,
    /// A last stone in a store takes it (`take_store` and the target `"last"`).
    pub(crate) last_store: bool,
    /// The mover's own store is taken (`take_store` and the target `"store"`).
    pub(crate) own_store: bool,
}

/// `[capture]` checked, its conditions compiled, before the board is laid out.
pub(super) struct Checked<'a> {
    table: &'a Capture,
    when: Expr,
    take_max: Option<Expr>,
    pick: Option<Expr>,
    chain: Option<Expr>,
    sweep: Option<Expr>,
    pick_from: Option<Expr>,
    pick_when: Option<Expr>,
}

/// Checks `[capture]`; `None` when an error was reported.
pub(super) fn check<'a>(cx: &mut Cx, c: &'a Capture, path: &[&str]) -> Option<Checked<'a>> {
    let when = cx.condition(Context::Capture, &c.when);
    let chain = c.chain.as_ref().map(|v| cx.condition(Context::Chain, v));
    let sweep = c.sweep.as_ref().map(|v| cx.condition(Context::Sweep, v));
    let pick_from = c
        .pick_from
        .as_ref()
        .map(|v| cx.condition(Context::Chain, v));
    let pick_when = c
        .pick_when
        .as_ref()
        .map(|v| cx.condition(Context::Capture, v));
    pick_checks(cx, c);
    if let (Some(to), None) = (&c.sweep_to, &c.sweep) {
        cx.warn(
            to.span(),
            "`sweep_to` without `sweep`: no stone is ever swept",
        );
    }
    if c.chain.is_none() {
        let stray = [
            (c.chain_way != ChainWay::Back, "chain_way"),
            (c.chain_max.is_some(), "chain_max"),
            (c.chain_take.is_some(), "chain_take"),
        ];
        for (_, key) in stray.iter().filter(|(set, _)| *set) {
            if let Some(at) = cx.key_span(&[path, &[*key]].concat()) {
                cx.warn(
                    at,
                    format!("`{key}` without `chain`: there is no chain to walk"),
                );
            }
        }
    }
    let at = c.at.as_ref().map(|a| *a.get_ref());
    match (&c.at, at, c.to) {
        (Some(a), Some(CaptureAt::Lap), CaptureTo::Sow) => {
            cx.warn(
                a.span(),
                "`at = \"lap\"` with `to = \"sow\"`: captures sown on are checked after every lap anyway",
            );
        }
        (Some(a), Some(CaptureAt::Start), CaptureTo::Sow) => {
            cx.error(
                a.span(),
                "`at = \"start\"` with `to = \"sow\"`: captures sown on are made during the sowing",
            );
        }
        (Some(a), Some(at @ (CaptureAt::Lap | CaptureAt::Start)), CaptureTo::Store)
            if c.choice == CaptureChoice::Mover =>
        {
            let at = if at == CaptureAt::Lap { "lap" } else { "start" };
            cx.error(
                a.span(),
                format!(
                    "a capture during the move is made, not chosen: `at = \"{at}\"` cannot go with `choice = \"mover\"`"
                ),
            );
        }
        _ => {}
    }
    if let Some(t) = c.taker.as_ref().filter(|t| *t.get_ref() == Taker::Owner) {
        if c.to == CaptureTo::Sow {
            cx.error(
                t.span(),
                "`taker = \"owner\"` with `to = \"sow\"`: captured stones sown on stay with the mover",
            );
        } else if c.choice == CaptureChoice::Mover {
            cx.error(
                t.span(),
                "`taker = \"owner\"` with `choice = \"mover\"`: the mover would choose a capture made for the opponent",
            );
        }
    }
    if let Some(g) = c.go_on.as_ref().filter(|_| at != Some(CaptureAt::Lap)) {
        cx.warn(
            g.span(),
            "`go_on` without `at = \"lap\"`: the capture ends the sowing, nothing goes on",
        );
    }
    if let Some(from) = c.sow_from.as_ref().filter(|_| c.to != CaptureTo::Sow) {
        cx.warn(
            from.span(),
            "`sow_from` without `to = \"sow\"`: captured stones go to the store, never sown on",
        );
    }
    if c.take.get_ref().is_empty() && !(c.chain.is_some() && c.chain_way == ChainWay::All) {
        cx.error(c.take.span(), "`take` names no pit to capture")
            .notes
            .push(
                "an empty list takes only what a chain over the whole board takes: `chain` with \
                 `chain_way = \"all\"`"
                    .to_string(),
            );
    }
    targets_warnings(cx, c.take.get_ref(), path);
    if c.take.get_ref().contains(&Target::Store) && !c.take_store {
        let spans = cx.doc.list_spans(&[path, &["take"]].concat());
        let i = c.take.get_ref().iter().position(|t| *t == Target::Store);
        let at = i
            .and_then(|i| spans.get(i).cloned())
            .unwrap_or(c.take.span());
        cx.error(
            at,
            "`take` names \"store\" without `take_store = true`: stores are never taken",
        )
        .notes
        .push("add take_store = true to let a capture take a store".to_string());
    }
    let take_max = count(cx, c.take_max.as_ref(), ("take_max", Context::Take), 255);
    let pick = count(cx, c.pick.as_ref(), ("pick", Context::Capture), 16);
    if let Some(when) = &when {
        if constant_value(when) == Some(0) {
            cx.warn(
                c.when.span(),
                "`capture.when` is always false: nothing is ever captured",
            )
            .notes
            .push("leave `[capture]` out for a game without captures".to_string());
        }
    }
    Some(Checked {
        table: c,
        when: when?,
        take_max: compiled(take_max)?,
        pick: compiled(pick)?,
        chain: compiled(chain)?,
        sweep: compiled(sweep)?,
        pick_from: compiled(pick_from)?,
        pick_when: compiled(pick_when)?,
    })
}

/// A number of `[capture]` (`key`, 1 to `most`), or its expression compiled in `context`:
/// `Some` for an expression (`Some(None)` when it did not compile).
fn count(
    cx: &mut Cx,
    value: Option<&Spanned<Count>>,
    (key, context): (&str, Context),
    most: i64,
) -> Option<Option<Expr>> {
    let v = value?;
    match v.get_ref() {
        Count::Number(n) => {
            if !(1..=most).contains(n) {
                cx.error(v.span(), format!("`{key}` must be from 1 to {most}"));
            }
            None
        }
        Count::Expression(text) => {
            let text = Spanned::new(v.span(), text.clone());
            Some(cx.expression(context, &text, ludus_core::expr::Type::Int))
        }
    }
}

/// `pick` and `pick_from`: a count in range, picks only after a capture to the store once the
/// sowing has ended (a capture during the sowing goes on at once).
fn pick_checks(cx: &mut Cx, c: &Capture) {
    let placed = match c.to {
        CaptureTo::Pick => Some("pick"),
        CaptureTo::Last => Some("last"),
        CaptureTo::Origin => Some("origin"),
        CaptureTo::Store | CaptureTo::Sow => None,
    };
    if let Some(to) = placed {
        if let Some(a) = c.at.as_ref().filter(|a| *a.get_ref() != CaptureAt::End) {
            cx.error(
                a.span(),
                format!("`to = \"{to}\"` places the captured stones once the sowing has ended: not with `at = \"lap\"` or `at = \"start\"`"),
            );
        }
        if let Some(t) = c.taker.as_ref().filter(|t| *t.get_ref() == Taker::Owner) {
            cx.error(
                t.span(),
                format!(
                    "`taker = \"owner\"` with `to = \"{to}\"`: the captured stones go to no store"
                ),
            );
        }
    }
    match &c.pick {
        Some(p) if c.to == CaptureTo::Sow => {
            cx.error(
                p.span(),
                "`pick` with `to = \"sow\"`: picks follow a capture to the store",
            );
        }
        Some(p)
            if c.at
                .as_ref()
                .is_some_and(|a| *a.get_ref() != CaptureAt::End) =>
        {
            cx.error(
                p.span(),
                "`pick` follows the capture once the sowing has ended: not with `at = \"lap\"` or `at = \"start\"`",
            );
        }
        Some(p) if c.to == CaptureTo::Pick => {
            cx.error(
                p.span(),
                "`pick` with `to = \"pick\"`: the captured stones go into a pit picked, none is taken",
            );
        }
        Some(p)
            if c.taker
                .as_ref()
                .is_some_and(|t| *t.get_ref() == Taker::Owner) =>
        {
            cx.error(
                p.span(),
                "`pick` with `taker = \"owner\"`: the mover picks, for themselves",
            );
        }
        Some(_) => {}
        None => {
            if let Some(f) = c.pick_from.as_ref().filter(|_| c.to != CaptureTo::Pick) {
                cx.warn(
                    f.span(),
                    "`pick_from` without `pick` or `to = \"pick\"`: no pit is ever picked",
                );
            }
            if let Some(w) = &c.pick_when {
                cx.warn(
                    w.span(),
                    "`pick_when` without `pick`: no pit is ever picked",
                );
            }
            if let Some(a) = &c.pick_after {
                cx.warn(
                    a.span(),
                    "`pick_after` without `pick`: no pit is ever picked",
                );
            }
        }
    }
}

impl Checked<'_> {
    /// The rule on the board laid out.
    pub(super) fn rule(self, laid: Laid) -> CaptureRule {
        let c = self.table;
        let when = laid.pit(self.when, View::Last);
        let far = |t: &Target| {
            matches!(
                t,
                Target::Next | Target::Beyond | Target::OppositeNext | Target::OppositeBeyond
            )
        };
        let reads_opponent_had = [Some(&when.expr), self.chain.as_ref(), self.pick.as_ref()]
            .into_iter()
            .chain([self.pick_from.as_ref(), self.pick_when.as_ref()])
            .flatten()
            .any(reads_opponent_had);
        CaptureRule {
            reads_opponent_had,
            needs_next: !when.is_tabulated() || c.take.get_ref().iter().any(far),
            when,
            sweep: self.sweep,
            sweep_to: c.sweep_to.as_ref().map_or(SweepTo::Mover, |t| *t.get_ref()),
            targets: c.take.get_ref().clone(),
            chain: self.chain.map(|e| laid.pit(e, View::Pit)),
            chain_way: c.chain_way,
            chain_max: c.chain_max.as_ref().map_or(u32::MAX, |m| *m.get_ref()),
            chain_take: c.chain_take.as_ref().map_or(CHAIN_PIT, |t| {
                t.get_ref().iter().fold(0, |m, t| m | t.bit())
            }),
            take_max: match c.take_max.as_ref().map(|m| m.get_ref()) {
                Some(Count::Number(n)) => u8::try_from(*n).unwrap_or(u8::MAX),
                _ => u8::MAX,
            },
            take_max_each: self.take_max.as_ref().is_some_and(|e| View::Pit.read_by(e)),
            take_max_expr: self.take_max,
            grand_slam: c.grand_slam,
            slam_across: c.grand_slam_pits == SlamPits::Across,
            to: c.to,
            taker: c.taker.as_ref().map_or(Taker::Mover, |t| *t.get_ref()),
            sow_from: c.sow_from.as_ref().map_or(SowFrom::Lap, |f| *f.get_ref()),
            at: match c.to {
                CaptureTo::Store => c.at.as_ref().map_or(CaptureAt::End, |a| *a.get_ref()),
                CaptureTo::Sow => CaptureAt::Lap,
                CaptureTo::Pick | CaptureTo::Last | CaptureTo::Origin => CaptureAt::End,
            },
            go_on: c.go_on.as_ref().map_or(GoOn::Relay, |g| *g.get_ref()),
            choice: c.choice,
            // An expression's picks are worked out at each capture; 16 stands for "some".
            pick: match c.pick.as_ref().map(|p| p.get_ref()) {
                Some(Count::Number(n)) => u8::try_from(*n).unwrap_or(16),
                Some(Count::Expression(_)) => 16,
                None => 0,
            },
            pick_expr: self.pick,
            pick_from: self.pick_from.map(|e| laid.pit(e, View::Pit)),
            pick_when: self.pick_when,
            pick_after: c
                .pick_after
                .as_ref()
                .map_or(PickAfter::Taking, |a| *a.get_ref()),
            last_store: c.take_store && c.take.get_ref().contains(&Target::Last),
            own_store: c.take_store && c.take.get_ref().contains(&Target::Store),
        }
    }
}

/// Warnings about `capture.take`: a pit listed twice, or already taken by another target.
fn targets_warnings(cx: &mut Cx, targets: &[Target], path: &[&str]) {
    let spans = cx.doc.list_spans(&[path, &["take"]].concat());
    let name = |t: &Target| match t {
        Target::Last => "last",
        Target::Opposite => "opposite",
        Target::Column => "column",
        Target::Next => "next",
        Target::Beyond => "beyond",
        Target::OppositeNext => "opposite-next",
        Target::OppositeBeyond => "opposite-beyond",
        Target::Store => "store",
    };
    for (i, t) in targets.iter().enumerate() {
        let Some(at) = spans.get(i).cloned() else {
            break;
        };
        if targets[..i].contains(t) {
            cx.warn(
                at,
                format!("\"{}\" is listed twice in `capture.take`", name(t)),
            )
            .notes
            .push("a pit is taken once; list it once".to_string());
        } else if *t == Target::Opposite && targets.contains(&Target::Column) {
            cx.warn(
                at,
                "\"opposite\" is already taken by \"column\" in `capture.take`",
            )
            .notes
            .push("\"column\" takes every opponent's pit in the last pit's column, the opposite one included".to_string());
        }
    }
}

impl CaptureRule {
    /// The stones taken from a pit of `count` by a capture that takes at most `most` a pit
    /// (`u8::MAX`: all).
    #[inline(always)]
    pub(crate) fn takes(count: u8, most: u8) -> u8 {
        match most {
            u8::MAX => count,
            most => count.min(most),
        }
    }

    /// The pits the mover picks after a capture in `ctx` (0 to 16).
    pub(crate) fn picks(&self, ctx: &crate::scope::Ctx) -> u8 {
        match &self.pick_expr {
            Some(e) => e.eval(ctx).clamp(0, 16) as u8,
            None => self.pick,
        }
    }

    /// The most a capture in `ctx` takes from each pit (`u8::MAX`: all).
    pub(crate) fn most(&self, ctx: &crate::scope::Ctx) -> u8 {
        match &self.take_max_expr {
            Some(e) => e.eval(ctx).clamp(0, 255) as u8,
            None => self.take_max,
        }
    }

    /// The fast paths this rule closes.
    pub(crate) fn closes(&self) -> Closes {
        let CaptureRule {
            reads_opponent_had,
            // Read the same way by every path.
            when: _,
            needs_next: _,
            targets: _,
            chain: _,
            chain_way: _,
            chain_max: _,
            chain_take: _,
            take_max: _,
            take_max_expr: _,
            take_max_each: _,
            pick_expr: _,
            grand_slam: _,
            slam_across: _,
            taker: _,
            sow_from: _,
            sweep_to: _,
            go_on: _,
            // What closes a path: captures during the sowing (after every lap), a choice, a
            // sweep (the plain path ends with the capture), the opponent's stones at the
            // move's start (the plain path does not count them).
            at,
            choice,
            sweep,
            pick,
            pick_from: _,
            pick_when: _,
            pick_after: _,
            to,
            last_store: _,
            own_store: _,
        } = self;
        Closes {
            bulk: *at == CaptureAt::Lap,
            // (A capture before the sowing is made in the general path, before its run.)
            plain: *choice != CaptureChoice::None
                || *reads_opponent_had
                || sweep.is_some()
                || *at != CaptureAt::End
                || *pick > 0
                || matches!(to, CaptureTo::Pick | CaptureTo::Last | CaptureTo::Origin),
            way: false,
            start: false,
        }
    }

    /// The capture in plain words.
    pub(super) fn describe(&self, s: &mut String) {
        let targets: Vec<&str> = self
            .targets
            .iter()
            .map(|t| match t {
                Target::Last => "the last pit",
                Target::Opposite => "the pit opposite the last",
                Target::Column => "the opponent's pits in the last pit's column",
                Target::Next => "the pit after the last",
                Target::Beyond => "the pit beyond the next",
                Target::OppositeNext => "the pit facing the next",
                Target::OppositeBeyond => "the pit facing the one beyond the next",
                Target::Store => "the mover's store",
            })
            .collect();
        if self.last_store {
            let _ = writeln!(
                s,
                "A last stone in a store takes that store's stones when the capture's condition holds."
            );
        }
        // With no pit taken first, the chain alone takes.
        let targets = match targets.is_empty() {
            true => vec!["the pits of the chain"],
            false => targets,
        };
        let _ = writeln!(
            s,
            "Capture: when `{}`, {} {}{}.",
            self.when.expr.text(),
            match (self.choice, self.taker) {
                (CaptureChoice::None, Taker::Mover) => "take",
                (CaptureChoice::None, Taker::Owner) => "the last pit's owner takes",
                (CaptureChoice::Mover, _) => "the mover may take (or leave)",
            },
            targets.join(" and "),
            match (&self.take_max_expr, self.take_max) {
                (Some(e), _) => format!(" (at most `{}` stones from each)", e.text()),
                (None, u8::MAX) => String::new(),
                (None, m) => format!(
                    " (at most {m} stone{} from each)",
                    if m == 1 { "" } else { "s" }
                ),
            }
        );
        if let Some(ch) = &self.chain {
            let way = match self.chain_way {
                ChainWay::Back => "walking back (against the sowing), take each pit while",
                ChainWay::On => "walking on (the way the move sowed), take each pit while",
                ChainWay::Both => "walking both ways, take each pit while",
                ChainWay::All => "take every pit of the board in play where",
                ChainWay::OverEmpty => {
                    "walking on (the way the move sowed) over one empty pit at a time, take each pit after it while"
                }
            };
            let most = match (self.chain_max, self.chain_way) {
                (u32::MAX, _) => String::new(),
                (m, ChainWay::All) => format!(", at most {m}"),
                (m, _) => format!(
                    ", at most {m} pit{} each way",
                    if m == 1 { "" } else { "s" }
                ),
            };
            let brings = match self.chain_take {
                CHAIN_PIT => "",
                t if t & CHAIN_PIT != 0 && t & CHAIN_COLUMN != 0 => " (with the pits facing it)",
                t if t & CHAIN_PIT != 0 => " (with the pit facing it)",
                t if t & CHAIN_COLUMN != 0 => " (the pits facing it in its place)",
                _ => " (the pit facing it in its place)",
            };
            let _ = writeln!(s, "Then {way} `{}`{most}{brings}.", ch.expr.text());
        }
        if self.pick > 0 {
            let _ = writeln!(
                s,
                "After a capture {}{}, the mover picks {} further pit{} holding stones{} and takes {}.",
                match self.pick_after {
                    PickAfter::Taking => "that took stones",
                    PickAfter::When => "(whether or not it took stones)",
                },
                self.pick_when
                    .as_ref()
                    .map_or(String::new(), |w| format!(" and for which `{}` held", w.text())),
                match &self.pick_expr {
                    Some(e) => format!("`{}` (worked out at each capture)", e.text()),
                    None => self.pick.to_string(),
                },
                if self.pick == 1 { "" } else { "s" },
                self.pick_from
                    .as_ref()
                    .map_or(" of the opponent's".to_string(), |f| format!(" where `{}`", f.expr.text())),
                if self.pick == 1 { "it" } else { "them, one after another" },
            );
        }
        if self.at == CaptureAt::Start {
            let _ = writeln!(
                s,
                "The capture is made before the sowing, the pit about to be lifted standing as the last pit."
            );
        }
        if self.to == CaptureTo::Store && self.at == CaptureAt::Lap {
            let _ = writeln!(
                s,
                "Captures are checked after every lap, to the store; after a lap that captured, {}.",
                match self.go_on {
                    GoOn::Relay => "the relay goes on as after any lap",
                    GoOn::Last => "the lap's last pit is lifted and sown on, whatever it holds",
                    GoOn::Next => "the pit after the last is lifted and sown on (an empty one ends the move)",
                }
            );
        }
        if self.to == CaptureTo::Pick {
            let _ = writeln!(
                s,
                "The captured stones all go into one pit the mover picks{} (into the mover's store when the move has won the game).",
                self.pick_from
                    .as_ref()
                    .map_or(" of the opponent's".to_string(), |f| format!(" where `{}`", f.expr.text())),
            );
        }
        if matches!(self.to, CaptureTo::Last | CaptureTo::Origin) {
            let _ = writeln!(
                s,
                "The captured stones go into {}, and stay on the board.",
                if self.to == CaptureTo::Last {
                    "the last pit"
                } else {
                    "the pit the move was sown from"
                }
            );
        }
        if self.to == CaptureTo::Sow {
            let _ = writeln!(
                s,
                "Captures are checked after every lap; the captured stones are sown on at once from {}, and the move goes on.",
                match self.sow_from {
                    SowFrom::Lap => "the pit that lap was lifted from",
                    SowFrom::Last => "the lap's last pit",
                    SowFrom::LastLifted => "the lap's last pit, lifted with them",
                }
            );
        }
        if let Some(sweep) = &self.sweep {
            let _ = writeln!(
                s,
                "After the capture step of every move, when `{}`, {} takes every stone left in play.",
                sweep.text(),
                match self.sweep_to {
                    SweepTo::Mover => "the mover",
                    SweepTo::Opponent => "the mover's opponent",
                }
            );
        }
        let _ = writeln!(
            s,
            "Grand slam (taking every stone the opponent has): {}.",
            match self.grand_slam {
                GrandSlam::Capture => "captures as usual",
                GrandSlam::NoCapture => "legal, captures nothing",
                GrandSlam::Forbidden => "forbidden unless it is the only move",
                GrandSlam::Never => "never legal, even as the only move",
                GrandSlam::LeaveRight => {
                    "takes all but the opponent's occupied pit nearest the mover's right (unless it is their only one)"
                }
                GrandSlam::LeaveLeft => {
                    "takes all but the opponent's occupied pit nearest the mover's left (unless it is their only one)"
                }
            }
        );
    }
}
