//! `[turn]`: who moves next.

use super::{Cx, Laid};
use crate::fast::Closes;
use crate::scope::{Context, PitCond, ScoreCond, View};
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
    /// At the start of a turn for which this holds, the player to move gives one stone to the
    /// opponent instead of sowing (context give).
    #[serde(default)]
    pub give: Option<Spanned<String>>,
    /// The pits the stone given may come from (context start); any of the giver's holding
    /// stones when left out.
    #[serde(default)]
    pub give_from: Option<Spanned<String>>,
    /// The opponent's pit the stone given goes into, in their numbering.
    #[serde(default)]
    pub give_to: Option<Spanned<u32>>,
    /// After the gift: the turn passes, or the giver goes on to move.
    #[serde(default)]
    pub give_then: Option<GiveThen>,
}

/// What follows a gift (`give_then`).
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum GiveThen {
    /// The gift is the giver's turn: the opponent moves, from the stone given.
    #[default]
    Pass,
    /// The giver then makes their move.
    Move,
}

/// `give` compiled on the board laid out.
#[derive(Clone, Debug)]
pub(crate) struct GiveRule {
    pub(crate) when: ScoreCond,
    /// The pits the stone may come from; `None`: any of the giver's holding stones.
    pub(crate) from: Option<PitCond>,
    /// The opponent's pit it goes into, in their numbering.
    pub(crate) to: usize,
    pub(crate) then: GiveThen,
}

/// `give`, `give_from`, `give_to`, `give_then` checked, before the board is laid out.
pub(crate) struct GiveChecked {
    when: Expr,
    from: Option<Expr>,
    to: usize,
    then: GiveThen,
}

impl GiveChecked {
    pub(super) fn rule(self, laid: Laid) -> GiveRule {
        GiveRule {
            when: laid.score(self.when),
            from: self.from.map(|e| laid.pit(e, View::Pit)),
            to: self.to,
            then: self.then,
        }
    }
}

/// Checks the gift of `[turn]`: `Some(None)` without one, `None` when wrong.
pub(super) fn check_give(
    cx: &mut Cx,
    turn: Option<&Turn>,
    pits: Option<usize>,
) -> Option<Option<GiveChecked>> {
    let Some(turn) = turn else {
        return Some(None);
    };
    let Some(when) = &turn.give else {
        let stray = [
            (turn.give_from.as_ref().map(|v| v.span()), "give_from"),
            (turn.give_to.as_ref().map(|v| v.span()), "give_to"),
        ];
        for (span, key) in stray {
            if let Some(span) = span {
                cx.warn(
                    span,
                    format!("`{key}` without `give`: nothing is ever given"),
                );
            }
        }
        return Some(None);
    };
    let when = cx.condition(Context::Give, when);
    let from = turn
        .give_from
        .as_ref()
        .map(|v| cx.condition(Context::Start, v));
    let to = match (&turn.give_to, pits) {
        (Some(k), Some(n)) if !(1..=n as u32).contains(k.get_ref()) => {
            cx.error(k.span(), format!("pits are numbered 1 to {n}"));
            None
        }
        (Some(k), _) => Some(*k.get_ref() as usize),
        (None, _) => Some(1),
    };
    Some(Some(GiveChecked {
        when: when?,
        from: match from {
            Some(f) => Some(f?),
            None => None,
        },
        to: to?,
        then: turn.give_then.unwrap_or_default(),
    }))
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
    KeyRef {
        section: "turn",
        key: "give",
        line: "context give: at the start of a turn when this holds, the player to move gives the opponent a stone (their turn, or before their move)",
        expects: "a condition in quotes, such as `\"opponent.pits == 0\"`",
        values: &[],
        default: "none",
        example: "give = \"opponent.pits == 0\"",
        long: "A condition (context give: the names of every context, `mover` the player to \
               move) checked at the start of each turn; when it holds, that player first gives \
               one stone from a pit of theirs (`give_from`) into the opponent's pit `give_to`, \
               written as the pit it comes from (STATE `give`: true while it is due); that is \
               their turn, or they then move (`give_then`), one gift a turn. A player with \
               nothing to give has no move (`[end] no_move`). Li'b al-'Aqil: a player left with no counters is given \
               one into their leftmost hole, and sows it.",
    },
    KeyRef {
        section: "turn",
        key: "give_from",
        line: "context start: the pits a stone given may come from",
        expects: "a condition in quotes on `pit`, such as `\"pit.count >= 2\"`",
        values: &[],
        default: "any pit of the giver's holding stones",
        example: "give_from = \"pit.count >= 2\"",
        long: "A condition (context start) on each pit of the giver's holding stones: the stone \
               given may come from a pit for which it holds (Leab El-akil: a pit of two or \
               more).",
    },
    KeyRef {
        section: "turn",
        key: "give_to",
        line: "the opponent's pit the stone given goes into, in their numbering",
        expects: "a pit number from 1 to the pits a player owns",
        values: &[],
        default: "1",
        example: "give_to = 1",
        long: "The pit of the opponent's the stone given goes into, in the opponent's numbering \
               (pit 1: the first they sow round from).",
    },
    KeyRef {
        section: "turn",
        key: "give_then",
        line: "after a gift: the turn passes, or the giver goes on to make their move",
        expects: "\"pass\" or \"move\"",
        values: &["pass", "move"],
        default: "\"pass\"",
        example: "give_then = \"move\"",
        long: "\"pass\": the gift is the giver's turn (a ply), the opponent then moves from the \
               stone given. \"move\": the gift comes before the giver's regular turn, no ply \
               of its own, and the giver then makes their move (Leab El-akil).",
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
    /// A turn spent giving the opponent a stone (`give`).
    pub(crate) give: Option<GiveRule>,
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
            give: None,
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
        give: None,
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
            plain: !self.stages.is_empty() || self.give.is_some(),
            ..Closes::default()
        }
    }

    /// Who moves next in plain words.
    pub(super) fn describe(&self, s: &mut String) {
        if let Some(g) = &self.give {
            let _ = writeln!(
                s,
                "At the start of a turn when `{}`, the player to move gives one stone{} to the opponent's pit {}{}.",
                g.when.expr.text(),
                g.from
                    .as_ref()
                    .map_or(" from a pit of theirs".to_string(), |f| format!(" from a pit where `{}`", f.expr.text())),
                g.to,
                match g.then {
                    GiveThen::Pass => ", which is their turn",
                    GiveThen::Move => ", then makes their move",
                }
            );
        }
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
