//! `[scoring]`: what the winner of a game scores.

use super::Cx;
use crate::scope::scoring_scope;
use crate::GameRules;
use ludus_core::diagnostics::Diagnostic;
use ludus_core::expr::{Expr, Type};
use ludus_core::rules::reference::{KeyRef, SectionRef};
use ludus_core::rules::toml::constant_value;
use serde::Deserialize;
use std::fmt::Write;
use toml::Spanned;

/// `[scoring]` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoringTable {
    /// An integer expression, from the winner's side (`1`, `1 + gammon + backgammon`,
    /// `loser_left`).
    pub points: Spanned<String>,
}

pub(crate) const SECTION: SectionRef = SectionRef {
    name: "scoring",
    line: "what the winner of a game scores",
    required: false,
    repeated: false,
    keys: KEYS,
};

const KEYS: &[KeyRef] = &[KeyRef {
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

/// `[scoring] points`, compiled; points that are never above 0 are warned about.
pub(super) fn check(cx: &mut Cx, table: &ScoringTable) -> Option<Expr> {
    let points = cx.expression(&table.points, &scoring_scope(), Type::Int)?;
    if constant_value(&points).is_some_and(|v| v <= 0) {
        cx.warnings.push(
            Diagnostic::warning("`points` is never above 0: no game scores anything")
                .at(table.points.span())
                .note("negative points count as 0; a match could never be won"),
        );
    }
    Some(points)
}

/// What the winner scores, in plain words.
pub(super) fn describe(rules: &GameRules, s: &mut String) {
    let _ = writeln!(
        s,
        "The winner scores `{}` point(s).",
        rules.scoring.as_ref().map_or("1", |e| e.text())
    );
}
