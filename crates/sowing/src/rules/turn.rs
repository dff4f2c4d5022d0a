//! `[turn]`: who moves next.

use super::Cx;
use crate::scope::Context;
use ludus_core::expr::Expr;
use ludus_core::rules::reference::{KeyRef, SectionRef};
use ludus_core::rules::toml::constant_value;
use serde::Deserialize;
use std::fmt::Write;
use toml::Spanned;

/// `[turn]` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Turn {
    /// The mover moves again when this holds (context `again`).
    #[serde(default)]
    pub again: Option<Spanned<String>>,
}

pub(crate) const SECTION: SectionRef = SectionRef {
    name: "turn",
    line: "who moves next",
    required: false,
    repeated: false,
    keys: KEYS,
};

const KEYS: &[KeyRef] = &[KeyRef {
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
}];

/// Who moves next, compiled.
#[derive(Clone, Debug, Default)]
pub(crate) struct TurnRule {
    /// The mover moves again when this holds.
    pub(crate) again: Option<Expr>,
}

/// Checks `[turn]` (absent: the players alternate); `None` when an error was reported.
pub(super) fn check(cx: &mut Cx, turn: Option<&Turn>) -> Option<TurnRule> {
    let Some(value) = turn.and_then(|t| t.again.as_ref()) else {
        return Some(TurnRule::default());
    };
    let again = cx.condition(Context::Again, value)?;
    if constant_value(&again) == Some(1) {
        cx.warn(
            value.span(),
            "`turn.again` is always true: the first player moves for ever and the opponent never does",
        );
    }
    Some(TurnRule { again: Some(again) })
}

impl TurnRule {
    /// Who moves next in plain words.
    pub(super) fn describe(&self, s: &mut String) {
        if let Some(a) = &self.again {
            let _ = writeln!(s, "Move again when `{}`.", a.text());
        }
    }
}
