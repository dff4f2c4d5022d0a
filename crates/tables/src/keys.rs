//! The reference of tables rules files: every table and key, one line, what to write, the
//! default, an example and the full text (the README's "Keys" table says the same; a test keeps
//! the two in step).

use ludus_core::rules::reference::{FamilyRef, KeyRef, SectionRef, AI_SECTION, GAME_SECTION};

pub const REFERENCE: FamilyRef = FamilyRef {
    family: "tables",
    sections: SECTIONS,
    scopes: super::scope_reference,
    groups: &[],
};

const SECTIONS: &[SectionRef] = &[
    GAME_SECTION,
    SectionRef {
        name: "board",
        line: "the points, the home table, and which way each side moves",
        required: false,
        repeated: false,
        keys: BOARD_KEYS,
    },
    SectionRef {
        name: "dice",
        line: "what is thrown each turn and how it is played",
        required: false,
        repeated: false,
        keys: DICE_KEYS,
    },
    SectionRef {
        name: "dice.bonus",
        line: "a roll that gives more than its dice (Acey-deucey's 1-2)",
        required: false,
        repeated: false,
        keys: DICE_BONUS_KEYS,
    },
    SectionRef {
        name: "setup",
        line: "where the checkers start and who starts (not in a match of `games`)",
        required: true,
        repeated: false,
        keys: SETUP_KEYS,
    },
    SectionRef {
        name: "moves",
        line: "what a landing does to a lone checker, and what restricts a step",
        required: false,
        repeated: false,
        keys: MOVES_KEYS,
    },
    SectionRef {
        name: "moves.leave",
        line: "a condition for moving a checker off a point (any number of these tables)",
        required: false,
        repeated: true,
        keys: MOVES_LEAVE_KEYS,
    },
    SectionRef {
        name: "moves.step",
        line: "a condition every single step must meet (any number of these tables)",
        required: false,
        repeated: true,
        keys: MOVES_STEP_KEYS,
    },
    SectionRef {
        name: "scoring",
        line: "what the winner of a game scores",
        required: false,
        repeated: false,
        keys: SCORING_KEYS,
    },
    SectionRef {
        name: "win",
        line:
            "a position that wins at once for the player who made it (any number of these tables)",
        required: false,
        repeated: true,
        keys: WIN_KEYS,
    },
    SectionRef {
        name: "match",
        line: "games played until a player's points reach a target, maybe several in turn",
        required: false,
        repeated: false,
        keys: MATCH_KEYS,
    },
    SectionRef {
        keys: AI_KEYS,
        ..AI_SECTION
    },
];

/// The values of `direction`, `only_one`, `then`, `lone_checker`, `ritual` and `next_first`
/// are checked by the compiler against these lists.
const BOARD_KEYS: &[KeyRef] = &[
    KeyRef {
        section: "board",
        key: "points",
        line: "how many points the board has",
        expects: "an even whole number from 4 to 36",
        values: &[],
        default: "24",
        example: "points = 24",
        long: "The points round the board (even, 4..36), numbered by each side 1.. from its home \
               table's far end back to its start: the highest point is farthest from home.",
    },
    KeyRef {
        section: "board",
        key: "home",
        line: "how many points make the home table",
        expects: "a whole number from 1 to half the points",
        values: &[],
        default: "a quarter of the points (6 on 24)",
        example: "home = 6",
        long: "Each side's home table is its points 1..home; a side bears off only once every \
               checker of it is there.",
    },
    KeyRef {
        section: "board",
        key: "direction",
        line: "whether the sides move towards each other or the same way round",
        expects: "\"opposite\" or \"same\"",
        values: &["opposite", "same"],
        default: "\"opposite\"",
        example: "direction = \"same\"",
        long: "\"opposite\": the sides move towards each other, so one side's point n is the \
               other's point points + 1 - n (Backgammon); \"same\": both move the same way round \
               the board from opposite corners, so one side's point n is the other's point n \
               plus half the board, counted round (Long Nardy, Fevga).",
    },
];

const DICE_KEYS: &[KeyRef] = &[
    KeyRef {
        section: "dice",
        key: "count",
        line: "how many dice are thrown each turn",
        expects: "a whole number from 1 to 3",
        values: &[],
        default: "2",
        example: "count = 3",
        long: "Dice thrown each turn; each die is one step of one checker. Two equal dice are a \
               double (see `doubles`).",
    },
    KeyRef {
        section: "dice",
        key: "faces",
        line: "how many faces each die has",
        expects: "a whole number from 2 to 20 (at most the points)",
        values: &[],
        default: "6",
        example: "faces = 6",
        long: "Faces of each die, showing 1..faces, all equally likely.",
    },
    KeyRef {
        section: "dice",
        key: "doubles",
        line: "how many moves a double gives",
        expects: "4 or 2",
        values: &[],
        default: "4",
        example: "doubles = 2",
        long: "With two dice, a double gives 4 moves (each die played twice, as in Backgammon) \
               or 2 (played as rolled).",
    },
    KeyRef {
        section: "dice",
        key: "only_one",
        line: "which die is played when only one of two can be",
        expects: "\"larger\" or \"either\"",
        values: &["larger", "either"],
        default: "\"larger\"",
        example: "only_one = \"either\"",
        long: "As many dice as possible are always played. When only one of two different dice \
               can be played: \"larger\" (the larger, if it can be; Backgammon) or \"either\".",
    },
];

const DICE_BONUS_KEYS: &[KeyRef] = &[
    KeyRef {
        section: "dice.bonus",
        key: "roll",
        line: "the roll that gives a bonus",
        expects: "two dice such as `[1, 2]`",
        values: &[],
        default: "—",
        example: "roll = [1, 2]",
        long: "The two dice (in either order) of the roll that gives more than its own moves.",
    },
    KeyRef {
        section: "dice.bonus",
        key: "then",
        line: "what the bonus roll gives after its own moves",
        expects: "\"any-double\" or \"nothing\"",
        values: &["any-double", "nothing"],
        default: "\"any-double\"",
        example: "then = \"any-double\"",
        long: "\"any-double\": after playing the roll, the mover plays a double of its choosing \
               (as many of its moves as can be played; Acey-deucey); \"nothing\": only the roll.",
    },
    KeyRef {
        section: "dice.bonus",
        key: "again",
        line: "whether the mover rolls again after the bonus turn",
        expects: "true or false",
        values: &[],
        default: "false",
        example: "again = true",
        long: "true: after the bonus turn the same player rolls again.",
    },
];

const SETUP_KEYS: &[KeyRef] = &[
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
               `place:count` separated by spaces or commas, a place being a point, `bar` or \
               `pool` (`24:2 13:5 8:3 6:5`, `24:15`, `24:2 23:2 22:2 bar:9`, `pool:15`), each \
               place once. Both sides have the same number of checkers (1..15), none off, and no \
               point is held by both. Checkers in the pool enter like checkers on the bar, but \
               whenever their owner likes (Acey-deucey).",
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
];

const MOVES_KEYS: &[KeyRef] = &[KeyRef {
    section: "moves",
    key: "lone_checker",
    line: "what a landing does to a single opposing checker",
    expects: "\"hit\", \"blocks\" or \"pin\"",
    values: &["hit", "blocks", "pin"],
    default: "\"hit\"",
    example: "lone_checker = \"blocks\"",
    long: "\"hit\": a landing on a single opposing checker sends it to the bar (two or more \
               block a point); \"blocks\": one checker blocks a point and nobody is hit \
               (Mughrabieh, Long Nardy); \"pin\": a landing on a single opposing checker pins it \
               where it stands until every checker of the pinner's side has left the point, and \
               nothing lands on it meanwhile but the pinner's side (Plakoto; two or more block).",
}];

const MOVES_LEAVE_KEYS: &[KeyRef] = &[
    KeyRef {
        section: "moves.leave",
        key: "point",
        line: "the point the condition guards, in the mover's numbering",
        expects: "a point of the board (1 to 24 on the standard board)",
        values: &[],
        default: "—",
        example: "point = 24",
        long: "A checker may leave this point (the mover's numbering) only when the table's \
               `when` holds. Several tables may guard the same point: all must hold.",
    },
    KeyRef {
        section: "moves.leave",
        key: "when",
        line: "a checker may leave `point` only when this holds",
        expects: "a condition in quotes, such as `\"home + off > 0 or mine(24) == 15\"`",
        values: &[],
        default: "—",
        example: "when = \"home + off > 0 or mine(24) == 15\"",
        long: "A condition (the step names: `home`, `off`, `bar`, `die`, `to`, `mine(n)`, \
               `moved_off(n)`, `first_turn`, … from the mover's side) tested before every \
               single-die step from `point`, on the position as it stands after the turn's \
               earlier steps.",
    },
];

const MOVES_STEP_KEYS: &[KeyRef] = &[KeyRef {
    section: "moves.step",
    key: "when",
    line: "every single step must leave this true",
    expects: "a condition in quotes, such as `\"not hits or home > 0\"`",
    values: &[],
    default: "—",
    example: "when = \"prime < 6 or prime_passed > 0\"",
    long: "A condition (the step names: `from`, `to`, `die`, `hits`, `pins`, `entering`, \
               `prime`, `prime_passed`, `moved_off(n)`, `first_turn`, `doubles`, … from the \
               mover's side) tested after every single-die step, on the position it leaves; a \
               step that makes it false is not legal.",
}];

const SCORING_KEYS: &[KeyRef] = &[KeyRef {
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
}];

const WIN_KEYS: &[KeyRef] = &[
    KeyRef {
        section: "win",
        key: "when",
        line: "the player whose turn leaves this true wins at once",
        expects: "a condition in quotes, such as `\"theirs(1) == 1 and pinned_theirs(1) == 1\"`",
        values: &[],
        default: "—",
        example: "when = \"theirs(1) == 1 and pinned_theirs(1) == 1\"",
        long: "A condition (the step names, from the side of the player who just moved; the step \
               itself reads as none) tested after every turn: when it holds, that player wins \
               (Plakoto's mother checker).",
    },
    KeyRef {
        section: "win",
        key: "points",
        line: "what such a win scores",
        expects: "an integer expression in quotes, such as `\"2\"`",
        values: &[],
        default: "`[scoring] points`",
        example: "points = \"2\"",
        long: "An integer expression with the `[scoring] points` names: what the winner scores \
               when this rule ends the game.",
    },
];

const MATCH_KEYS: &[KeyRef] = &[
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
    KeyRef {
        section: "match",
        key: "games",
        line: "the rules files of the games the match plays in turn",
        expects: "a list of 1 to 16 bundled names or paths, such as \
                  `[\"portes\", \"plakoto\", \"fevga\"]`",
        values: &[],
        default: "the file's own game",
        example: "games = [\"portes\", \"plakoto\", \"fevga\"]",
        long: "The match plays these games in turn, the first again after the last (Tavli): game \
               n by the rules of entry (n - 1) mod the number of entries. Each entry is a bundled \
               game or a path from this file's folder (a bundled file names bundled games only), \
               a single tables game with its own board, dice, setup, moves and scoring; the games \
               throw the same dice and start by the same ritual, and their own `[match]` is not \
               read. The file then has `[game]`, `[match]` and maybe `[ai]` only.",
    },
];

const AI_KEYS: &[KeyRef] = &[KeyRef {
    section: "ai",
    key: "evaluate",
    line: "a position's value for the computer players, from the side of the player valued",
    expects: "an integer expression in quotes, such as `\"mover.off - opponent.off\"`",
    values: &[],
    default: "checkers borne off and pip counts",
    example: "evaluate = \"mover.off - opponent.off\"",
    long: "An integer expression (names `mover.off`, `mover.bar`, `mover.pips`, \
               `mover.home`, `mover.blots` and the same of `opponent`; `mover` is the player the \
               position is valued for) by which `alphabeta` values the positions where its \
               search stops and `mcts` its playouts cut short, instead of the default (checkers \
               borne off, and a tenth of the pip-count difference). A finished game still counts \
               by its result; values beyond ±2500 count as ±2500. No rule of the game: it tunes \
               the computer players without recompiling (\"10 * (mover.off - opponent.off) + \
               opponent.pips - mover.pips - 3 * mover.blots\": safety first). In a file of \
               `[match] games` it serves every game of the match, in place of their own.",
}];
