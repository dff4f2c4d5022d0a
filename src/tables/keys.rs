//! The reference of tables rules files: every table and key, one line, what to write, the
//! default, an example and the full text (the README's "Keys" table says the same; a test keeps
//! the two in step).

use crate::rules::reference::{FamilyRef, KeyRef, SectionRef, GAME_SECTION};

pub const REFERENCE: FamilyRef = FamilyRef {
    family: "tables",
    sections: SECTIONS,
    keys: KEYS,
    scopes: super::scope_reference,
};

const SECTIONS: &[SectionRef] = &[
    GAME_SECTION,
    SectionRef {
        name: "setup",
        line: "where the checkers start and who starts",
        required: true,
        repeated: false,
    },
    SectionRef {
        name: "moves",
        line: "what a landing does to a lone checker, and what restricts leaving a point",
        required: false,
        repeated: false,
    },
    SectionRef {
        name: "moves.leave",
        line: "a condition for moving a checker off a point (any number of these tables)",
        required: false,
        repeated: true,
    },
    SectionRef {
        name: "scoring",
        line: "what the winner of a game scores",
        required: false,
        repeated: false,
    },
    SectionRef {
        name: "match",
        line: "games played until a player's points reach a target",
        required: false,
        repeated: false,
    },
];

/// The values of `lone_checker`, `ritual` and `next_first` are checked by the compiler against
/// these lists.
const KEYS: &[KeyRef] = &[
    KeyRef {
        section: "setup",
        key: "checkers",
        line: "the two start positions, player 0 first, each in its owner's numbering",
        expects:
            "a list of two start positions such as `[\"24:2 13:5 8:3 6:5\", \"24:2 13:5 8:3 6:5\"]`",
        values: &[],
        default: "—",
        example: "checkers = [\"24:2 13:5 8:3 6:5\", \"24:2 13:5 8:3 6:5\"]",
        long: "Two start positions, player 0 first, each in its owner's numbering: entries \
               `place:count` separated by spaces or commas, a place being a point 1..24 or `bar` \
               (`24:2 13:5 8:3 6:5`, `24:15`, `24:2 23:2 22:2 bar:9`), each place once. Both sides \
               have the same number of checkers (1..15), none off, and no point is held by both.",
    },
    KeyRef {
        section: "setup",
        key: "ritual",
        line: "how the first player is chosen",
        expects: "\"higher-die-chooses-colour\" or \"none\"",
        values: &["higher-die-chooses-colour", "none"],
        default: "\"none\"",
        example: "ritual = \"higher-die-chooses-colour\"",
        long: "\"higher-die-chooses-colour\": each player rolls one die (ties again), the higher \
               roller chooses the colour, the lower starts with a fresh roll; \"none\": player 0 \
               starts unless told otherwise.",
    },
    KeyRef {
        section: "moves",
        key: "lone_checker",
        line: "what a landing does to a single opposing checker",
        expects: "\"hit\" or \"blocks\"",
        values: &["hit", "blocks"],
        default: "\"hit\"",
        example: "lone_checker = \"blocks\"",
        long: "\"hit\": a landing on a single opposing checker sends it to the bar (two or more \
               block a point); \"blocks\": one checker blocks a point and nobody is hit \
               (Mughrabieh).",
    },
    KeyRef {
        section: "moves.leave",
        key: "point",
        line: "the point the condition guards, in the mover's numbering",
        expects: "a point from 1 to 24",
        values: &[],
        default: "—",
        example: "point = 24",
        long: "A checker may leave this point (1..24, the mover's numbering) only when the \
               table's `when` holds. Several tables may guard the same point: all must hold.",
    },
    KeyRef {
        section: "moves.leave",
        key: "when",
        line: "a checker may leave `point` only when this holds",
        expects: "a condition in quotes, such as `\"home + off > 0 or mine(24) == 15\"`",
        values: &[],
        default: "—",
        example: "when = \"home + off > 0 or mine(24) == 15\"",
        long: "A condition (names `home`, `off`, `bar`, `die`, `mine(n)`, `theirs(n)`, from the \
               mover's side) tested before every single-die step from `point`, on the position as \
               it stands after the turn's earlier steps.",
    },
    KeyRef {
        section: "scoring",
        key: "points",
        line: "an integer expression: what the winner of a game scores",
        expects: "an integer expression in quotes, such as `\"1 + gammon + backgammon\"`",
        values: &[],
        default: "\"1\" (without `[scoring]`)",
        example: "points = \"1 + gammon + backgammon\"",
        long: "An integer expression (names `loser_off`, `loser_left`, `gammon`, `backgammon`, \
               from the winner's side once the game is over): what the winner scores; negative \
               values count as 0. A single game is \"1\", Mughrabieh's count \"loser_left\".",
    },
    KeyRef {
        section: "match",
        key: "target",
        line: "games are played until a player's points reach this",
        expects: "a whole number from 1 to 10000",
        values: &[],
        default: "—",
        example: "target = 7",
        long: "Games are played until a player's points reach `target` (1..10000); the protocol's \
               `next` starts the next game. Without `[match]`, a single game.",
    },
    KeyRef {
        section: "match",
        key: "next_first",
        line: "who starts the next game of a match",
        expects: "\"ritual\", \"loser\", \"winner\" or \"alternate\"",
        values: &["ritual", "loser", "winner", "alternate"],
        default: "\"ritual\"",
        example: "next_first = \"loser\"",
        long: "Who starts the next game: \"ritual\" (the starting ritual is held again before \
               every game, as the source texts describe it), \"loser\" or \"winner\" of the last \
               game, or \"alternate\" (the player who did not start); after a draw, \"loser\" and \
               \"winner\" also mean the player who did not start.",
    },
];
