//! `[[score]]`: points a player scores during play, at the end of a turn (Julbahar's five
//! points to the opponent of a player who cannot move, when the opponent could).

use super::win::Winner;
use super::Cx;
use crate::scope::after_scope;
use crate::GameRules;
use ludus_core::diagnostics::Diagnostic;
use ludus_core::expr::{Expr, Type};
use ludus_core::rules::reference::{KeyRef, SectionRef};
use ludus_core::rules::toml::constant_value;
use serde::Deserialize;
use std::fmt::Write;
use toml::Spanned;

/// The most one rule scores at once: what keeps a game's points bounded.
pub(crate) const MAX_POINTS: i32 = 1000;

/// `[[score]]` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoreTable {
    /// A boolean expression on the turn just played (the `[[dice.after]]` names).
    pub when: Spanned<String>,
    /// An integer expression with the same names: the points scored.
    #[serde(default)]
    pub points: Option<Spanned<String>>,
    /// Read as a [`Winner`]: who scores, the mover or the opponent.
    #[serde(default)]
    pub to: Option<Spanned<String>>,
    /// The rule in plain words, as `ludus show` says it.
    #[serde(default)]
    pub said: Option<Spanned<String>>,
}

/// A `[[score]]` table compiled.
#[derive(Clone, Debug)]
pub(crate) struct ScoreRule {
    pub(crate) when: Expr,
    pub(crate) points: Expr,
    /// The opponent of the player whose turn met it scores.
    pub(crate) opponent: bool,
    /// `said`: the rule in plain words.
    pub(crate) said: Option<String>,
}

pub(crate) const SECTION: SectionRef = SectionRef {
    name: "score",
    line: "points scored during play, after a turn (any number of these tables)",
    required: false,
    repeated: true,
    keys: KEYS,
};

const KEYS: &[KeyRef] = &[
    KeyRef {
        section: "score",
        key: "when",
        line: "after a turn that leaves this true, `points` are scored",
        expects: "a condition in quotes on the turn just played, such as `\"played == 0\"`",
        values: &[],
        default: "—",
        example: "when = \"played == 0\"",
        long: "A condition on the turn just played, with the `[[dice.after]]` names (`played`, \
               `doubles`, `die`, ...), tested after every turn: when it holds, `to` scores \
               `points`. Points scored during play count for their player in the game's result \
               whoever wins it, and in a match they count at once: a player whose points reach \
               the target wins the game and the match there (Julbahar: `when = \"played == \
               0 and opponent_can_move\"`, `to = \"opponent\"`, `points = \"5\"`: five points \
               to the opponent of a player who cannot move, when the opponent could).",
    },
    KeyRef {
        section: "score",
        key: "points",
        line: "an integer expression: what the rule scores",
        expects: "an integer expression in quotes, such as `\"5\"`",
        values: &[],
        default: "\"1\"",
        example: "points = \"5\"",
        long: "An integer expression with the `when` names: the points scored, from 0 to 1000 \
               (a value outside is taken as the nearest).",
    },
    KeyRef {
        section: "score",
        key: "to",
        line: "who scores when the rule holds",
        expects: "\"mover\" or \"opponent\"",
        values: &["mover", "opponent"],
        default: "\"mover\"",
        example: "to = \"opponent\"",
        long: "\"mover\": the player whose turn met the rule scores; \"opponent\": the other \
               player does.",
    },
    KeyRef {
        section: "score",
        key: "said",
        line: "the rule in plain words",
        expects: "one line of words in quotes",
        values: &[],
        default: "the condition and the points, quoted",
        example: "said = \"a player who cannot move, while the opponent could, gives the opponent five points\"",
        long: "The rule as players say it: `ludus show` says it so (`Points scored during play: \
               a player who cannot move, while the opponent could, gives the opponent five \
               points`). Without it, the condition and the points are quoted.",
    },
];

/// The `[[score]]` tables compiled; a rule that never scores is warned about.
pub(super) fn check(cx: &mut Cx, tables: &[ScoreTable]) -> Vec<ScoreRule> {
    let mut rules = Vec::new();
    for table in tables {
        let when = cx.expression(&table.when, &after_scope(), Type::Bool);
        let points = match &table.points {
            Some(p) => cx.expression(p, &after_scope(), Type::Int),
            None => Expr::compile("1", &after_scope(), Type::Int).ok(),
        };
        if let Some(p) = &table.points {
            if points
                .as_ref()
                .and_then(constant_value)
                .is_some_and(|v| v <= 0)
            {
                cx.warnings.push(
                    Diagnostic::warning("`points` is never above 0: the rule scores nothing")
                        .at(p.span()),
                );
            }
        }
        let opponent = cx.option("score", "to", table.to.as_ref()) == Some(Winner::Opponent);
        let said = super::win::said(cx, table.said.as_ref());
        if let (Some(when), Some(points)) = (when, points) {
            rules.push(ScoreRule {
                when,
                points,
                opponent,
                said,
            });
        }
    }
    rules
}

/// The points scored during play, in plain words.
pub(super) fn describe(rules: &GameRules, s: &mut String) {
    for rule in &rules.score {
        let rule_said = match &rule.said {
            Some(said) => said.clone(),
            None => format!(
                "after a turn that leaves `{}` true, the {} scores `{}` point(s)",
                rule.when.text(),
                if rule.opponent { "opponent" } else { "mover" },
                rule.points.text()
            ),
        };
        let _ = writeln!(
            s,
            "Points scored during play: {rule_said} (in a match they count at once, and reaching the target there wins)."
        );
    }
}
