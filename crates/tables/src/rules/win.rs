//! `[[win]]`: positions that end the game at once, won by the player who just moved (or by
//! the other player).

use super::Cx;
use crate::scope::{scoring_scope, step_scope};
use crate::GameRules;
use ludus_core::diagnostics::Diagnostic;
use ludus_core::expr::{Expr, Type};
use ludus_core::rules::reference::{KeyRef, SectionRef};
use serde::Deserialize;
use std::fmt::Write;
use toml::Spanned;

/// `[[win]]` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WinTable {
    /// A boolean expression, tested after every turn from the side of the player who moved.
    pub when: Spanned<String>,
    /// What the winner scores (the `[scoring]` names); `[scoring] points` when left out.
    #[serde(default)]
    pub points: Option<Spanned<String>>,
    /// Read as a [`Winner`].
    #[serde(default)]
    pub winner: Option<Spanned<String>>,
    /// The rule in plain words, as a game's ending says it.
    #[serde(default)]
    pub said: Option<Spanned<String>>,
}

/// `[[win]] winner`: who wins when the rule holds.
#[derive(Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Winner {
    /// The player whose turn met the rule.
    Mover,
    /// The other player (a game to lose: the first to bear off every checker loses).
    Opponent,
}

/// A `[[win]]` table compiled.
#[derive(Clone, Debug)]
pub(crate) struct WinRule {
    pub(crate) when: Expr,
    /// What the winner scores, when not `[scoring] points`.
    pub(crate) points: Option<Expr>,
    /// The opponent of the player whose turn met it wins.
    pub(crate) opponent: bool,
    /// `said`: the rule in plain words.
    pub(crate) said: Option<String>,
}

pub(crate) const SECTION: SectionRef = SectionRef {
    name: "win",
    line: "a position that wins at once for the player who made it (any number of these tables)",
    required: false,
    repeated: true,
    keys: KEYS,
};

const KEYS: &[KeyRef] = &[
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
    KeyRef {
        section: "win",
        key: "winner",
        line: "who wins when the rule holds",
        expects: "\"mover\" or \"opponent\"",
        values: &["mover", "opponent"],
        default: "\"mover\"",
        example: "winner = \"opponent\"",
        long: "\"mover\": the player whose turn met the rule wins; \"opponent\": the other player \
               does (a game to lose: `when = \"off == 15\"`, `winner = \"opponent\"`). The \
               `[[win]]` rules are tested before the win by bearing off every checker.",
    },
    KeyRef {
        section: "win",
        key: "said",
        line: "the rule in plain words",
        expects: "one line of words in quotes",
        values: &[],
        default: "the condition itself",
        example: "said = \"the opponent's last checker pinned on its starting point\"",
        long: "The position the rule wins by, as players say it (from the winner's side): how a \
               game this rule ends is told (`White wins (the opponent's last checker pinned on \
               its starting point)`) and the rule in `ludus show` (`A player whose turn leaves \
               … wins at once`). Without it both quote the condition.",
    },
];

/// The `[[win]]` tables compiled: each position's condition, and what it scores when it does
/// not score `[scoring] points`.
pub(super) fn check(cx: &mut Cx, tables: &[WinTable]) -> Vec<WinRule> {
    let mut wins = Vec::new();
    for rule in tables {
        let when = cx.expression(&rule.when, &step_scope(), Type::Bool);
        let points = rule
            .points
            .as_ref()
            .map(|p| cx.expression(p, &scoring_scope(), Type::Int));
        let opponent = cx.option("win", "winner", rule.winner.as_ref()) == Some(Winner::Opponent);
        let said = said(cx, rule.said.as_ref());
        if let (Some(when), None | Some(Some(_))) = (when, &points) {
            wins.push(WinRule {
                when,
                points: points.flatten(),
                opponent,
                said,
            });
        }
    }
    wins
}

/// A rule's `said`: one line of words, trimmed.
pub(super) fn said(cx: &mut Cx, said: Option<&Spanned<String>>) -> Option<String> {
    let said = said?;
    let words = said.get_ref().trim();
    if words.is_empty() || words.chars().any(char::is_control) {
        cx.errors.push(
            Diagnostic::new("`said` is one line of words, not empty or several lines")
                .at(said.span()),
        );
        return None;
    }
    Some(words.to_string())
}

/// The positions that win at once, in plain words.
pub(super) fn describe(rules: &GameRules, s: &mut String) {
    for rule in &rules.wins {
        let when = match &rule.said {
            Some(said) => format!("whose turn leaves {said}"),
            None => format!("whose turn leaves `{}` true", rule.when.text()),
        };
        let _ = writeln!(
            s,
            "A player {when} {} at once{}.",
            if rule.opponent {
                "loses: the opponent wins"
            } else {
                "wins"
            },
            rule.points
                .as_ref()
                .map_or(String::new(), |p| format!(", scoring `{}`", p.text()))
        );
    }
}
