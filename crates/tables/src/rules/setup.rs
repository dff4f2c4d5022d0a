//! `[setup]`: where the checkers start and who starts.

use super::Cx;
use crate::notation::{format_setup, parse_setup};
use crate::position::{Board, Direction, Position};
use crate::{GameRules, TablesGame};
use ludus_core::diagnostics::Diagnostic;
use ludus_core::game::Ritual;
use ludus_core::rules::reference::{KeyRef, SectionRef};
use serde::Deserialize;
use std::fmt::Write;
use toml::Spanned;

/// `[setup]` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupTable {
    /// Each player's checkers in that player's own numbering, player 0 first:
    /// `["24:2 13:5 8:3 6:5", "24:2 13:5 8:3 6:5"]`.
    pub checkers: Spanned<Vec<Spanned<String>>>,
    /// Read as a [`Ritual`], of those the reference lists for tables games.
    #[serde(default)]
    pub ritual: Option<Spanned<String>>,
    /// Read as a [`FirstTurn`].
    #[serde(default)]
    pub first_turn_moves: Option<Spanned<String>>,
}

/// `[setup] first_turn_moves`: whose checkers the game's first turn moves.
#[derive(Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum FirstTurn {
    /// The starter's own, as in every other turn.
    Own,
    /// The opponent's: the starter plays them (Julbahar's opening throw).
    Opponent,
}

pub(crate) const SECTION: SectionRef = SectionRef {
    name: "setup",
    line: "where the checkers start and who starts (not in a match of `games`)",
    required: true,
    repeated: false,
    keys: KEYS,
};

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
        expects:
            "\"opening-roll\", \"higher-die-starts\", \"higher-die-chooses-colour\", \"higher-throw-plays\" or \"none\"",
        values: &[
            "opening-roll",
            "higher-die-starts",
            "higher-die-chooses-colour",
            "higher-throw-plays",
            "none",
        ],
        default: "\"none\"",
        example: "ritual = \"opening-roll\"",
        long:
            "Each player rolls one die (ties roll again), and then: \"opening-roll\": the higher \
               roller starts and plays the two dice rolled, so a first turn is never a double \
               (backgammon's standard rules); \"higher-die-starts\": the higher roller starts \
               with a fresh roll (Tavli); \"higher-die-chooses-colour\": the higher roller \
               chooses the colour and the lower starts with a fresh roll. \"higher-throw-plays\": \
               each player throws all the dice instead (ties throw again); a double beats any \
               other throw and a higher double a lower one, else the higher total wins, and the \
               winner starts and plays that throw (Julbahar). \"none\": player 0 \
               starts unless told otherwise. Only a game whose starter is not given holds the \
               ritual (`ludus play` without `--first`, the protocol's `new` without `first`); \
               `ludus analyze` draws who starts, and the opening roll where there is one.",
    },
    KeyRef {
        section: "setup",
        key: "first_turn_moves",
        line: "whose checkers the game's first turn moves",
        expects: "\"own\" or \"opponent\"",
        values: &["own", "opponent"],
        default: "\"own\"",
        example: "first_turn_moves = \"opponent\"",
        long: "\"opponent\": the player who starts plays the game's first turn with the \
               opponent's checkers (choosing their move, in their numbering), and the opponent \
               then plays on as usual (Julbahar, where the winner of the opening throw plays it \
               so). \"own\": every turn moves the mover's own checkers.",
    },
];

/// The start position from `[setup] checkers`, checked: both sides have the same number of
/// checkers (1..15), none borne off, no point held by both.
pub(super) fn start(cx: &mut Cx, table: Option<&SetupTable>, board: &Board) -> Option<Position> {
    let Some(setup) = table else {
        // In the reader's words, which the reference annotates: "missing table `[setup]`".
        cx.errors
            .push(Diagnostic::new("missing key `setup`").at(0..0));
        return None;
    };
    let list = &setup.checkers;
    let [a, b] = list.get_ref().as_slice() else {
        cx.errors.push(
            Diagnostic::new("`checkers` lists exactly two sides, player 0 first")
                .at(list.span())
                .note("e.g. checkers = [\"24:2 13:5 8:3 6:5\", \"24:2 13:5 8:3 6:5\"]"),
        );
        return None;
    };
    let mut pos = Position::default();
    let mut ok = true;
    for (p, s) in [a, b].into_iter().enumerate() {
        match parse_setup(s.get_ref(), board.points) {
            Ok(side) => pos.sides[p] = side,
            Err(e) => {
                cx.errors.push(Diagnostic::in_string(cx.text, s, e));
                ok = false;
            }
        }
    }
    if !ok {
        return None;
    }
    for (p, s) in [a, b].into_iter().enumerate() {
        if pos.left(p) == 0 {
            cx.errors
                .push(Diagnostic::new("a side needs at least one checker").at(s.span()));
            ok = false;
        }
    }
    if ok && pos.left(0) != pos.left(1) {
        cx.errors.push(
            Diagnostic::new(format!(
                "the sides have different numbers of checkers ({} and {})",
                pos.left(0),
                pos.left(1)
            ))
            .at(list.span()),
        );
        ok = false;
    }
    if let Some(n) = pos.shared_point(board) {
        cx.errors.push(
            Diagnostic::new(format!(
                "both sides start on player 0's point {n} (player 1's point {})",
                board.across(n)
            ))
            .at(list.span())
            .note(match board.direction {
                Direction::Same => format!(
                    "player p's point n is the other side's point n + {} (counted round the board)",
                    board.points / 2
                ),
                Direction::Opposite => format!(
                    "player p's point n is the other side's point {} - n",
                    board.points + 1
                ),
                Direction::Shared => "both sides number the points alike".to_string(),
            }),
        );
        ok = false;
    }
    ok.then_some(pos)
}

/// `[setup] ritual`: how the first player is chosen (player 0 starts without one).
pub(super) fn ritual(cx: &mut Cx, table: Option<&SetupTable>) -> Ritual {
    cx.option("setup", "ritual", table.and_then(|s| s.ritual.as_ref()))
        .unwrap_or(Ritual::None)
}

/// `[setup] first_turn_moves`: whether the game's first turn moves the opponent's checkers.
pub(super) fn first_turn_theirs(cx: &mut Cx, table: Option<&SetupTable>) -> bool {
    let word = table.and_then(|s| s.first_turn_moves.as_ref());
    cx.option("setup", "first_turn_moves", word) == Some(FirstTurn::Opponent)
}

/// The start positions in plain words.
pub(super) fn describe(game: &TablesGame, rules: &GameRules, s: &mut String) {
    for p in 0..2 {
        let _ = writeln!(
            s,
            "{} starts with {} (its own numbering).",
            game.info.players[p],
            format_setup(&rules.start.sides[p])
        );
    }
    if rules.first_turn_theirs {
        let _ = writeln!(
            s,
            "The player who starts plays the game's first turn with the opponent's checkers; the opponent then plays on as usual."
        );
    }
    if rules.uses_pool() {
        let board = &rules.moves.board;
        let _ = match board.pool_from == board.entry() {
            true => writeln!(
                s,
                "Checkers in the pool enter at the start of their way as from the bar, whenever their owner likes."
            ),
            false => writeln!(
                s,
                "Checkers in the pool enter counting their die from point {} (a die of d on point {} - d), whenever their owner likes.",
                board.pool_from, board.pool_from
            ),
        };
    }
}

/// Who starts, in plain words.
pub(super) fn describe_ritual(ritual: Ritual, s: &mut String) {
    let Some(how) = ritual.decides() else {
        return;
    };
    let _ = writeln!(s, "Who starts: {}; {how}.", ritual.thrown());
}
