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
    /// The most extra turns a player takes in a row.
    #[serde(default)]
    pub again_max: Option<Spanned<u32>>,
}

pub(crate) const SECTION: SectionRef = SectionRef {
    name: "turn",
    line: "who moves next",
    required: false,
    repeated: false,
    keys: KEYS,
};

const KEYS: &[KeyRef] = &[
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
        section: "turn",
        key: "again_max",
        line: "the most extra turns a player takes in a row",
        expects: "a whole number from 1 to 255",
        values: &[],
        default: "none (no limit)",
        example: "again_max = 1",
        long: "A player moves again (`again`) at most this many times in a row: with \
               `again_max = 1` a capture made in an extra turn gives no further one (Ali Guli \
               Mane). The count starts afresh at each turn; STATE `extra_turns` carries it.",
    },
];

/// Who moves next, compiled.
#[derive(Clone, Debug, Default)]
pub(crate) struct TurnRule {
    /// The mover moves again when this holds.
    pub(crate) again: Option<Expr>,
    /// At most this many times in a row.
    pub(crate) again_max: Option<u8>,
}

/// Checks `[turn]` (absent: the players alternate); `None` when an error was reported.
pub(super) fn check(cx: &mut Cx, turn: Option<&Turn>) -> Option<TurnRule> {
    let again_max = turn.and_then(|t| t.again_max.as_ref()).map(|m| {
        let most = *m.get_ref();
        if !(1..=255).contains(&most) {
            cx.error(m.span(), "`again_max` must be from 1 to 255");
        } else if turn.is_some_and(|t| t.again.is_none()) {
            cx.warn(
                m.span(),
                "`again_max` without `again`: nobody ever moves again",
            );
        }
        most.clamp(1, 255) as u8
    });
    let Some(value) = turn.and_then(|t| t.again.as_ref()) else {
        return Some(TurnRule {
            again: None,
            again_max,
        });
    };
    let again = cx.condition(Context::Again, value)?;
    if constant_value(&again) == Some(1) && again_max.is_none() {
        cx.warn(
            value.span(),
            "`turn.again` is always true: the first player moves for ever and the opponent never does",
        );
    }
    Some(TurnRule {
        again: Some(again),
        again_max,
    })
}

impl TurnRule {
    /// Who moves next in plain words.
    pub(super) fn describe(&self, s: &mut String) {
        if let Some(a) = &self.again {
            let most = match self.again_max {
                Some(1) => " (once in a row at most)".to_string(),
                Some(m) => format!(" ({m} times in a row at most)"),
                None => String::new(),
            };
            let _ = writeln!(s, "Move again when `{}`{most}.", a.text());
        }
    }
}
