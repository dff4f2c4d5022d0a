//! `[board]`: the points, the home table, and which way each side moves.

use super::Cx;
use crate::position::{Board, Direction, MAX_POINTS};
use crate::GameRules;
use ludus_core::diagnostics::Diagnostic;
use ludus_core::rules::reference::{KeyRef, SectionRef};
use serde::Deserialize;
use std::fmt::Write;
use toml::Spanned;

/// `[board]` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardTable {
    /// Points on the board (even; 24 by default).
    #[serde(default)]
    pub points: Option<Spanned<i64>>,
    /// Points of the home table, the last of each side's way (a quarter of the board by
    /// default).
    #[serde(default)]
    pub home: Option<Spanned<i64>>,
    /// Read as a [`Direction`].
    #[serde(default)]
    pub direction: Option<Spanned<String>>,
    /// The point pool checkers count their die from.
    #[serde(default)]
    pub pool_from: Option<Spanned<i64>>,
}

pub(crate) const SECTION: SectionRef = SectionRef {
    name: "board",
    line: "the points, the home table, and which way each side moves",
    required: false,
    repeated: false,
    keys: KEYS,
};

const KEYS: &[KeyRef] = &[
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
        line: "whether the sides move towards each other, the same way round, or along one path",
        expects: "\"opposite\", \"same\" or \"shared\"",
        values: &["opposite", "same", "shared"],
        default: "\"opposite\"",
        example: "direction = \"same\"",
        long: "\"opposite\": the sides move towards each other, so one side's point n is the \
               other's point points + 1 - n (Backgammon); \"same\": both move the same way round \
               the board from opposite corners, so one side's point n is the other's point n \
               plus half the board, counted round (Long Nardy, Fevga); \"shared\": both move \
               along one path, from the same end to the same home table, so a point has one \
               number for both (Russian Backgammon, Cab e Quinal; a hit checker enters again \
               where the hitter's own way began).",
    },
    KeyRef {
        section: "board",
        key: "pool_from",
        line: "the point a checker in the pool counts its die from",
        expects: "a point, from the faces of a die + 1 to the points + 1",
        values: &[],
        default: "one beyond the last point (as from the bar)",
        example: "pool_from = 24",
        long: "A checker waiting in the pool enters on `pool_from - die` (its owner's numbering); \
               checkers on the bar still count from one beyond the last point. Tawula: new \
               checkers count the point after the two that start on 24 as the first \
               (`pool_from = 24`), hit ones the start point itself (from the bar).",
    },
];

/// The board from `[board]` (the standard one without it): an even number of points and a
/// home table of at most half of them (a quarter by default).
pub(super) fn check(cx: &mut Cx, table: Option<&BoardTable>) -> Board {
    let Some(b) = table else {
        return Board::standard();
    };
    let mut points = cx.number(b.points.as_ref(), 24, 4..=MAX_POINTS as i64, "a board of") as usize;
    if points % 2 == 1 {
        cx.errors.push(
            Diagnostic::new(format!(
                "a board of {points} points cannot be split in two halves"
            ))
            .at(b.points.as_ref().map_or(0..0, |p| p.span()))
            .note("the number of points is even"),
        );
        points = 24;
    }
    let home = cx.number(
        b.home.as_ref(),
        (points / 4) as i64,
        1..=(points / 2) as i64,
        "a home table of",
    ) as usize;
    let direction = cx
        .option("board", "direction", b.direction.as_ref())
        .unwrap_or(Direction::Opposite);
    let mut board = Board::new(points, home, direction);
    board.pool_from = cx.number(
        b.pool_from.as_ref(),
        (points + 1) as i64,
        2..=(points + 1) as i64,
        "a pool counting from",
    ) as usize;
    board
}

/// Refuses a `pool_from` a die of `faces` faces would carry past point 1 (the board is read
/// before the dice).
pub(super) fn fit_pool(cx: &mut Cx, table: Option<&BoardTable>, board: &mut Board, faces: u8) {
    let Some(at) = table.and_then(|b| b.pool_from.as_ref()) else {
        return;
    };
    if board.pool_from <= usize::from(faces) {
        cx.errors.push(
            Diagnostic::new(format!(
                "a die of {faces} faces would carry a checker from the pool past point 1"
            ))
            .at(at.span())
            .note(format!(
                "`pool_from` is at least the faces + 1: {}",
                faces + 1
            )),
        );
        board.pool_from = board.entry();
    }
}

/// The board, with the checkers a side, in plain words.
pub(super) fn describe(rules: &GameRules, s: &mut String) {
    let board = &rules.moves.board;
    let _ = writeln!(
        s,
        "{} checkers a side on {} points, home tables of {}; {}.",
        rules.checkers,
        board.points,
        board.home,
        match board.direction {
            Direction::Same => "both sides move the same way round the board from opposite corners",
            Direction::Opposite => "the sides move towards each other",
            Direction::Shared =>
                "both sides move along one path, from the same end to the same home table",
        }
    );
}
