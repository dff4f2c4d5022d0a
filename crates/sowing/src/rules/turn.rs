//! `[turn]`: who moves next.

use super::Cx;
use crate::fast::Closes;
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
    /// A player's stage k goes up by one after a move of theirs for which the k-th condition
    /// holds (context `again`).
    #[serde(default)]
    pub stages: Option<Spanned<Vec<Spanned<String>>>>,
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
        long: "A condition (context again: `last`, `origin`, `sown`, `laps`, `relays`, `taken`, \
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
    KeyRef {
        section: "turn",
        key: "stages",
        line: "context again: a player's stage goes from k to k + 1 after a move of theirs for which the k-th condition holds",
        expects: "a list of conditions in quotes, such as `[\"origin.number == 16\"]`",
        values: &[],
        default: "none (every player stays at stage 0)",
        example: "stages = [\"origin.number == 16\"]",
        long: "Each player has a stage, 0 at the start of a game (and of each round), read as \
               `mover.stage` and `opponent.stage` by every other rule. After each move, checked \
               like `again` (context again: `last`, `origin`, `sown`, `captured`, `taken`, …), \
               the mover's stage k goes up by one when the k-th condition of the list holds; \
               past the last condition it stays. Isolo: each player's rightmost holes are not \
               sown into until that player has sown from their rightmost outer hole, `stages = \
               [\"origin.number == 16\"]` with `skip = \"mover.stage == 0 and pit.side == mover \
               and pit.number in [1, 16]\"`. The STATE carries the stages (`stages`).",
    },
];

/// Who moves next, compiled.
#[derive(Clone, Debug, Default)]
pub(crate) struct TurnRule {
    /// The mover moves again when this holds.
    pub(crate) again: Option<Expr>,
    /// At most this many times in a row.
    pub(crate) again_max: Option<u8>,
    /// The conditions that take a player from stage k to k + 1.
    pub(crate) stages: Vec<Expr>,
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
    let stages = stages(cx, turn)?;
    let Some(value) = turn.and_then(|t| t.again.as_ref()) else {
        return Some(TurnRule {
            again: None,
            again_max,
            stages,
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
        stages,
    })
}

/// The most stages a list may name (a stage is a byte).
const MOST_STAGES: usize = 255;

/// `turn.stages`: each condition compiled in the context `again`.
fn stages(cx: &mut Cx, turn: Option<&Turn>) -> Option<Vec<Expr>> {
    let Some(list) = turn.and_then(|t| t.stages.as_ref()) else {
        return Some(Vec::new());
    };
    if list.get_ref().len() > MOST_STAGES {
        cx.error(
            list.span(),
            format!("`stages` lists at most {MOST_STAGES} conditions"),
        );
        return None;
    }
    let compiled: Vec<Option<Expr>> = list
        .get_ref()
        .iter()
        .map(|c| cx.condition(Context::Again, c))
        .collect();
    compiled.into_iter().collect()
}

impl TurnRule {
    /// What the rule closes: stages are settled on the general path, after the sowing.
    pub(crate) fn closes(&self) -> Closes {
        Closes {
            plain: !self.stages.is_empty(),
            ..Closes::default()
        }
    }

    /// Who moves next in plain words.
    pub(super) fn describe(&self, s: &mut String) {
        if !self.stages.is_empty() {
            let list: Vec<String> = self
                .stages
                .iter()
                .map(|c| format!("`{}`", c.text()))
                .collect();
            let _ = writeln!(
                s,
                "Each player starts at stage 0 and goes from stage k to k + 1 after a move of theirs for which the k-th of these holds: {}.",
                list.join("; ")
            );
        }
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
