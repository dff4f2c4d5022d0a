//! The reference of sowing rules files: every table and key, one line, what to write, the
//! default, an example and the full text (the README's "Reference: keys" says the same; a test
//! keeps the two in step).

use ludus_core::expr::Scope;
use ludus_core::rules::reference::{FamilyRef, KeyRef, SectionRef, AI_SECTION, GAME_SECTION};

pub const REFERENCE: FamilyRef = FamilyRef {
    family: "sowing",
    sections: SECTIONS,
    keys: KEYS,
    scopes,
    groups: VIEWS,
};

/// The pit views: each has the fields `count`, `side`, `number`, `row`, `column`, `is_store`,
/// `open` and `exists` (the README's "Pit views" says the same).
const VIEWS: &[(&str, &str)] = &[
    ("pit", "a pit view: the pit being checked (whether a move may start from it, a drop into it, a pit the capture's chain walks to)"),
    ("last", "a pit view: where the last stone fell (of the move, or of the lap in `sowing.relay_when`)"),
    ("next", "a pit view: the pit after `last` along the circuit, the way the move sows (before it with `relay = \"previous\"`)"),
    ("beyond", "a pit view: the pit after `next`, the same way"),
    ("opposite", "a pit view: the pit facing `last` across the board: the opponent's when `last` is the mover's, the mover's own when `last` is the opponent's"),
    ("behind", "a pit view: on a four-row board, the other pit across the board in `last`'s column (behind `opposite` when `last` is in the inner row); none on a two-row board"),
    ("origin", "a pit view: the pit the move started from"),
];

/// Each expression key with its names.
fn scopes() -> Vec<(&'static str, Scope)> {
    super::scope_reference()
        .into_iter()
        .map(|(c, s)| (c.key(), s))
        .collect()
}

const SECTIONS: &[SectionRef] = &[
    GAME_SECTION,
    SectionRef {
        name: "board",
        line: "the pits each player owns and how they are numbered",
        required: true,
        repeated: false,
    },
    SectionRef {
        name: "setup",
        line: "the starting position and who starts",
        required: true,
        repeated: false,
    },
    SectionRef {
        name: "sowing",
        line: "how a move sows",
        required: false,
        repeated: false,
    },
    SectionRef {
        name: "capture",
        line: "what the mover takes once the sowing has ended",
        required: false,
        repeated: false,
    },
    SectionRef {
        name: "house",
        line: "a pit that becomes the mover's house (tuzdyk) for the rest of the game",
        required: false,
        repeated: false,
    },
    SectionRef {
        name: "turn",
        line: "who moves next",
        required: false,
        repeated: false,
    },
    SectionRef {
        name: "end",
        line: "when a game ends and how its stones are counted",
        required: false,
        repeated: false,
    },
    SectionRef {
        name: "match",
        line: "games repeated as rounds, each player refilling their pits from the stones they won",
        required: false,
        repeated: false,
    },
    AI_SECTION,
];

const CONDITION: &str = "a condition in quotes, such as `\"pit.count > 0\"`";

const KEYS: &[KeyRef] = &[
    KeyRef {
        section: "board",
        key: "rows",
        line: "rows of pits per player: 1 or 2",
        expects: "1 or 2",
        values: &[],
        default: "1",
        example: "rows = 1",
        long: "Each player owns this many rows of pits: 1 (a two-row board, Oware) or 2 (a \
               four-row board, Uuholo). With one row, pit 1 is the owner's leftmost pit as they \
               sit; with two, pit 1 is the owner's rightmost pit of the inner row (facing the \
               opponent), 1..n run along that row and n+1..2n back along the outer row.",
    },
    KeyRef {
        section: "board",
        key: "pits",
        line: "pits in each row of each player (rows × pits ≤ 16)",
        expects: "a whole number from 1 to 16",
        values: &[],
        default: "—",
        example: "pits = 6",
        long: "The pits in each of a player's rows. A player owns rows × pits pits, at most 16.",
    },
    KeyRef {
        section: "board",
        key: "stores",
        line: "each player has a store on the board",
        expects: "`true` or `false`",
        values: &[],
        default: "false",
        example: "stores = true",
        long: "Whether each player has a store on the board. Captures go there; without stores \
               they are kept aside (the count is the same). Stores are sown only when \
               `sowing.stores` says so, which needs `stores = true`.",
    },
    KeyRef {
        section: "board",
        key: "numbering",
        line: "each player's pit numbering as [row, column] places from the owner's seat, pit 1 first",
        expects: "a list of `[row, column]` places such as `[[1, 1], [1, 2], [1, 3]]`",
        values: &[],
        default: "derived from `rows`",
        example: "numbering = [[1, 1], [1, 2], [1, 3], [1, 4], [1, 5], [1, 6]]",
        long: "Each player numbers their own pits 1, 2, … in the order they sow them. This lists \
               the places of pits 1, 2, … as [row, column] from the owner's seat: row 1 faces the \
               opponent, column 1 is the owner's leftmost. Every place of the board exactly once, \
               or a located error (`numbered twice`, `misses pits`, `not a pit of this board`).",
    },
    KeyRef {
        section: "setup",
        key: "stones",
        line: "stones in every pit at the start (one of `stones`, `layout`)",
        expects: "a whole number of 1 or more (at most 255 stones in a game)",
        values: &[],
        default: "— (or `layout`)",
        example: "stones = 4",
        long: "Every pit starts with this many stones. Give `stones` or `layout`, not both. A \
               game holds at most 255 stones.",
    },
    KeyRef {
        section: "setup",
        key: "layout",
        line: "stones per pit at the start in the owner's numbering: a list of lists, one used by both players or one per player",
        expects: "one or two lists of stones per pit such as `[[4, 4, 4, 4, 4, 4]]`",
        values: &[],
        default: "— (or `stones`)",
        example: "layout = [[4, 4, 4, 4, 4, 4]]",
        long: "The stones in each pit at the start, in the owner's numbering (pit 1 first): one \
               list used by both players, or two lists, player 0's first. Each list has one \
               number per pit of a player. Give `stones` or `layout`, not both; at most 255 \
               stones in a game.",
    },
    KeyRef {
        section: "setup",
        key: "first_move",
        line: "the first ply of a new game must sow this pit",
        expects: "a pit number from 1 to the pits a player owns",
        values: &[],
        default: "none",
        example: "first_move = 2",
        long: "The first ply of a new game must sow this pit, in the mover's numbering (Uuholo: \
               2). Not applied to positions set up by hand.",
    },
    KeyRef {
        section: "setup",
        key: "ritual",
        line: "how the first player of a match is chosen",
        expects: "\"none\" or \"odd-or-even\"",
        values: &["none", "odd-or-even"],
        default: "\"none\"",
        example: "ritual = \"odd-or-even\"",
        long: "\"odd-or-even\": the first player of a match is chosen by guessing whether a \
               handful of stones is odd or even (Sat-gharva). \"none\": player 0 starts unless \
               told otherwise.",
    },
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
               out-of-play pits never start one.",
    },
    KeyRef {
        section: "sowing",
        key: "first_drop",
        line: "where the first stone of a sowing goes: the next pit, or back into the pit lifted",
        expects: "\"next\" or \"origin\"",
        values: &["next", "origin"],
        default: "\"next\"",
        example: "first_drop = \"origin\"",
        long: "\"next\": the first stone goes into the pit after the one lifted; \"origin\": it \
               goes back into the pit lifted and the others follow from there, but a single stone \
               moves on to the next pit (Toguz Korgool). Relay lifts always start with the next \
               pit.",
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
               stones before; \"none\": the move ends with the last stone.",
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
               slam).",
    },
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
        values: &["last", "opposite", "column", "next", "beyond"],
        default: "—",
        example: "take = [\"last\"]",
        long: "The pits taken when `when` holds, any of \"last\", \"opposite\" (the pit facing \
               the last across the board: the mover's own when the last pit is the opponent's), \
               \"column\" (all the pits across the board in the last pit's column: inner and \
               outer), \"next\" (the pit after the last), \"beyond\" (the pit after \
               that). Captured stones go to the mover's store; stores and out-of-play pits are \
               never taken.",
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
        line: "which way the chain walks from the first target: back, on, or both ways",
        expects: "\"back\", \"on\" or \"both\"",
        values: &["back", "on", "both"],
        default: "\"back\"",
        example: "chain_way = \"both\"",
        long: "\"back\": against the sowing, over the pits just sown (Oware); \"on\": the way \
               the move sowed, past the last pit; \"both\": back, then on from the first target \
               again. Out-of-play pits are passed over; a store or a pit failing `chain` ends \
               a walk.",
    },
    KeyRef {
        section: "capture",
        key: "chain_max",
        line: "the most pits the chain adds, each way it walks",
        expects: "a whole number",
        values: &[],
        default: "none (no limit)",
        example: "chain_max = 1",
        long: "The chain stops once it has added this many pits, in each way it walks (a game \
               that takes the last pit and at most one before it: `chain_max = 1`).",
    },
    KeyRef {
        section: "capture",
        key: "grand_slam",
        line: "what happens to a capture that would take every stone the opponent has in their pits",
        expects: "\"capture\", \"no-capture\" or \"forbidden\"",
        values: &["capture", "no-capture", "forbidden"],
        default: "\"capture\"",
        example: "grand_slam = \"no-capture\"",
        long: "A capture that would take every stone the opponent has in their pits: \"capture\" \
               (as usual), \"no-capture\" (legal, captures nothing: Abapa), \"forbidden\" \
               (illegal unless it is the only kind of move; then it captures: Wari).",
    },
    KeyRef {
        section: "capture",
        key: "to",
        line: "where captured stones go: the mover's store, or sown on at once",
        expects: "\"store\" or \"sow\"",
        values: &["store", "sow"],
        default: "\"store\"",
        example: "to = \"store\"",
        long: "\"store\": the capture is checked once the sowing has ended and the stones go to \
               the mover's store; \"sow\": it is checked after every lap (before a relay) and the \
               captured stones are sown on at once, as if lifted again from the pit that lap \
               started from (the move's pit, or the last relay pit), and the move goes on \
               (Omweso).",
    },
    KeyRef {
        section: "capture",
        key: "sow_from",
        line: "with `to = \"sow\"`, where captured stones are sown on from: the lap's pit or its last pit",
        expects: "\"lap\" or \"last\"",
        values: &["lap", "last"],
        default: "\"lap\"",
        example: "sow_from = \"last\"",
        long: "\"lap\": the captured stones are sown on as if lifted again from the pit the lap \
               started from (Omweso); \"last\": they are sown on from the lap's last pit, the \
               first into the pit after it (the pit after the capturing one).",
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
        section: "house",
        key: "when",
        line: "context house: once the sowing has ended, the last pit becomes the mover's house when this holds",
        expects: "a condition in quotes, such as `\"last.side == opponent and last.count == 3\"`",
        values: &[],
        default: "—",
        example: "when = \"last.side == opponent and last.count == 3 and mover.house == 0\"",
        long: "A condition (context house: the views of context capture, `mover.house`, \
               `opponent.house`, `sown`, `laps`, `relays`) checked once the sowing has ended, \
               before the capture; when it holds, the last pit becomes the mover's house (Toguz \
               Korgool's tuzdyk) for the rest of the game: the stones in it, and every stone sown \
               into it later, go at once to the mover's store. A player has at most one house; \
               stores, out-of-play pits and houses never become one.",
    },
    KeyRef {
        section: "house",
        key: "choice",
        line: "whether the mover may decline a house: \"none\" (it is made) or \"mover\"",
        expects: "\"none\" or \"mover\"",
        values: &["none", "mover"],
        default: "\"none\"",
        example: "choice = \"mover\"",
        long: "\"none\": a pit `when` matches becomes the mover's house. \"mover\": the mover \
               decides, a step of play of its own (`take` to make the house, `leave` to decline \
               it), before the capture; a pit left stays an ordinary pit and the move goes on to \
               the capture (Toguz Korgool, where a player \"may\" make a tuzdyk). The feeding \
               and grand-slam checks of the legal moves try each move with every house made.",
    },
    KeyRef {
        section: "turn",
        key: "again",
        line: "context again: the mover moves again when this holds",
        expects: "a condition in quotes, such as `\"last.is_store\"`",
        values: &[],
        default: "none",
        example: "again = \"last.is_store\"",
        long: "A condition (context again: `last`, `origin`, `sown`, `laps`, `relays`, \
               `captured`, `grand_slam`) checked after the capture; when it holds the mover moves \
               again (Kalah: \"last.is_store\"; Warri: \"grand_slam\").",
    },
    KeyRef {
        section: "end",
        key: "win",
        line: "context win: a player for whom this holds wins at once (the mover checked first)",
        expects: "a condition in quotes, such as `\"opponent.pits == 0\"`",
        values: &[],
        default: "none",
        example: "win = \"opponent.pits == 0\"",
        long: "A condition (context win: the names of every context) checked after every move, \
               first, for the mover and then for the opponent (as `mover`); the first player for \
               whom it holds wins at once, whatever the stores say, the board left as it is. A \
               goal other than the most stones: depriving the opponent (\"opponent.pits == 0\"), \
               clearing one's own pits (\"mover.pits == 0\"), a store count.",
    },
    KeyRef {
        section: "end",
        key: "score",
        line: "context score: the game ends at once, the board left as it is",
        expects: "a condition in quotes, such as `\"mover.store >= 25 or opponent.store >= 25\"`",
        values: &[],
        default: "none",
        example: "score = \"mover.store >= 25 or opponent.store >= 25\"",
        long: "A condition (context score: the names of every context; `mover` is who just moved) \
               checked after every move, first; when it holds the game ends, the stones on the \
               board left uncounted.",
    },
    KeyRef {
        section: "end",
        key: "stop",
        line: "context stop: the game ends, the stones left on the board going as `leftover` says",
        expects: "a condition in quotes, such as `\"mover.pits == 0 or opponent.pits == 0\"`",
        values: &[],
        default: "none",
        example: "stop = \"mover.pits == 0 or opponent.pits == 0\"",
        long: "A condition (context stop) checked after every move, after `score`; when it holds \
               the game ends and the stones left on the board go as `leftover` says (Kalah).",
    },
    KeyRef {
        section: "end",
        key: "repetition",
        line: "a position that repeats ends the game",
        expects: "`true` or `false`",
        values: &[],
        default: "false",
        example: "repetition = true",
        long: "A position that repeats (pits, stores, player to move; the start counts) ends the \
               game.",
    },
    KeyRef {
        section: "end",
        key: "max_plies",
        line: "the game ends after this many plies",
        expects: "a whole number of 1 or more",
        values: &[],
        default: "none",
        example: "max_plies = 200",
        long: "The game ends after this many plies (`--max-plies` overrides it); every game ends \
               by 100000 plies at the latest, a guard against rules that never end.",
    },
    KeyRef {
        section: "end",
        key: "agreement",
        line: "the players may end the game by agreement",
        expects: "`true` or `false`",
        values: &[],
        default: "false",
        example: "agreement = true",
        long: "The players may end the game by agreement (`end` in `ludus play`; Uuholo).",
    },
    KeyRef {
        section: "end",
        key: "no_move",
        line: "what happens when the player to move has no legal move: the game ends, they pass, or they lose",
        expects: "\"ends\", \"pass\" or \"loses\"",
        values: &["ends", "pass", "loses"],
        default: "\"ends\"",
        example: "no_move = \"pass\"",
        long: "\"ends\": the game ends, scored as usual. \"pass\": the player passes and the \
               other moves on as long as they can; the game ends only when neither can move. \
               \"loses\": the game ends and the player who cannot move loses (a goal of \
               immobilising the opponent).",
    },
    KeyRef {
        section: "end",
        key: "leftover",
        line: "where the stones on the board go when the game ends otherwise than by `win` or `score`",
        expects: "\"owners\", \"none\", \"opponent\", \"mover\" or \"divided\"",
        values: &["owners", "none", "opponent", "mover", "divided"],
        default: "\"owners\"",
        example: "leftover = \"owners\"",
        long: "Stones on the board when the game ends otherwise than by `score`: \"owners\" (each \
               side's to its owner), \"none\" (not counted), \"opponent\" (all of them to the \
               opponent of the player to move: in a game ended because the player to move has no \
               legal move, to the player who moved last; Bohnenspiel, Ayoayo, Omweso), \"mover\" \
               (all of them to the player who made the last move, even after an extra turn), \
               \"divided\" (shared out evenly, an odd stone to the player with fewer in store, \
               when equal to the player who did not make the last move). Unless `win` or \
               `no_move = \"loses\"` names the winner, the player with more stones in their \
               store wins; equal is a draw.",
    },
    KeyRef {
        section: "match",
        key: "refill",
        line: "stones per pit when each player refills their pits at the end of a round",
        expects: "a whole number of 1 or more (at most half the stones in the game)",
        values: &[],
        default: "—",
        example: "refill = 7",
        long: "At the end of a round each player refills their pits with this many stones each \
               from the stones they hold (store and side); a player holding fewer than one pit's \
               worth loses the match. Stones beyond a full refill go to the store, where they stay \
               and count.",
    },
    KeyRef {
        section: "match",
        key: "min_pits",
        line: "the pits a player must be able to fill to play another round; fewer loses the match",
        expects: "a whole number of 1 or more",
        values: &[],
        default: "1",
        example: "min_pits = 4",
        long: "A player holding fewer than `min_pits` pits' worth of stones (`refill` each) at \
               the end of a round loses the match.",
    },
    KeyRef {
        section: "match",
        key: "fill_from",
        line: "the end a refill starts from",
        expects: "\"right\" or \"left\"",
        values: &["right", "left"],
        default: "\"right\"",
        example: "fill_from = \"right\"",
        long: "\"right\": from the player's highest-numbered pit down; \"left\": from pit 1 up.",
    },
    KeyRef {
        section: "match",
        key: "partial",
        line: "what becomes of the stones short of a full pit at a refill",
        expects: "\"closed\", \"open\" or \"store\"",
        values: &["closed", "open", "store"],
        default: "\"closed\"",
        example: "partial = \"closed\"",
        long: "\"closed\": the last, partly filled pit keeps its stones and is out of play with \
               the unfilled ones; \"open\": it stays in play; \"store\": those stones go to the \
               store and the pit stays empty, out of play. Out-of-play pits reopen when their \
               owner holds enough stones at a later refill.",
    },
    KeyRef {
        section: "match",
        key: "next_first",
        line: "who starts the next round of a match",
        expects: "\"ritual\", \"loser\", \"winner\" or \"alternate\"",
        values: &["ritual", "loser", "winner", "alternate"],
        default: "\"ritual\"",
        example: "next_first = \"loser\"",
        long: "Who starts the next round: \"ritual\" (the starting ritual is held again before \
               every round, as the source texts describe it), \"loser\" or \"winner\" of the last \
               round, or \"alternate\" (the player who did not start); after a draw, \"loser\" and \
               \"winner\" also mean the player who did not start.",
    },
    KeyRef {
        section: "ai",
        key: "evaluate",
        line: "context evaluate: a position's value for the computer players, from `mover`'s side",
        expects: "an integer expression in quotes, such as `\"mover.store - opponent.store\"`",
        values: &[],
        default: "the stones in the stores",
        example: "evaluate = \"mover.store - opponent.store\"",
        long: "An integer expression (context evaluate: the names of every context, `mover` being \
               the player the position is valued for) by which `alphabeta` values the positions \
               where its search stops and `mcts` its playouts cut short, instead of the default \
               `mover.store - opponent.store`. A finished game still counts by its result; values \
               beyond ±2500 count as ±2500. No rule of the game: it tunes the computer players \
               without recompiling (\"2 * mover.store - opponent.store + mover.pits / 4\": \
               keeping stones at home).",
    },
];
