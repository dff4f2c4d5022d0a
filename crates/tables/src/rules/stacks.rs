//! `[stacks]`: checkers stacked on a point, which a die naming the point lays down (unstacks) or
//! stacks again, without moving them (Kiz Tavlasi, Yahoudieh, Ofanfelling).

use super::Cx;
use crate::movegen::Stacks;
use crate::position::{Board, Position, STACK_BOARD_POINTS, STACK_POINTS};
use crate::scope::step_scope;
use ludus_core::diagnostics::Diagnostic;
use ludus_core::expr::Type;
use ludus_core::rules::reference::{KeyRef, SectionRef};
use serde::Deserialize;
use std::fmt::Write;
use toml::Spanned;

/// `[stacks]` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StacksTable {
    /// Read as a [`Start`].
    #[serde(default)]
    pub start: Option<Spanned<String>>,
    /// Checkers one die turns over (1 by default).
    #[serde(default)]
    pub per_die: Option<Spanned<i64>>,
    /// When a die may lay down stacked checkers ("true" by default).
    #[serde(default)]
    pub unstack: Option<Spanned<String>>,
    /// When a die may stack flat checkers again (never, without it).
    #[serde(default)]
    pub restack: Option<Spanned<String>>,
    /// When a stacked checker may move (never, without it).
    #[serde(default, rename = "move")]
    pub move_: Option<Spanned<String>>,
    /// Read as a [`NamedFrom`].
    #[serde(default)]
    pub named_from: Option<Spanned<String>>,
}

/// `[stacks] named_from`: which end of the way a die's number counts its point from.
#[derive(Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(super) enum NamedFrom {
    /// Point n: the n-th from the end of the way.
    End,
    /// The n-th point from the start of the way (Doblet).
    Start,
}

/// `[stacks] start`: which checkers start stacked.
#[derive(Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(super) enum Start {
    All,
    None,
}

pub(crate) const SECTION: SectionRef = SectionRef {
    name: "stacks",
    line: "checkers stacked on a point, which a die naming the point lays down or stacks again without moving them",
    required: false,
    repeated: false,
    keys: KEYS,
};

const KEYS: &[KeyRef] = &[
    KeyRef {
        section: "stacks",
        key: "named_from",
        line: "which end of the way a die's number counts its point from",
        expects: "\"end\" or \"start\"",
        values: &["end", "start"],
        default: "\"end\"",
        example: "named_from = \"start\"",
        long: "\"end\": a die showing n names the mover's point n, counted from the end of the \
               way (the home table's stacks: Yahoudieh, Kiz Tavlasi); \"start\": it names the \
               n-th point from the start of the way, the mover's point `points + 1 - n` (Doblet's \
               stacks where the way begins: a 1 lays down the stack on point 24). Stacks stand \
               on the ten points the dice may name counted from that end; `stacked_at(n)` and \
               STATE's `stacked` still go by point.",
    },
    KeyRef {
        section: "stacks",
        key: "start",
        line: "which checkers start stacked",
        expects: "\"all\" or \"none\"",
        values: &["all", "none"],
        default: "\"all\"",
        example: "start = \"none\"",
        long: "\"all\": every checker of the start position stands stacked on its point (they \
               must stand on points 1 to 10); \"none\": none does, and only `restack` stacks \
               them.",
    },
    KeyRef {
        section: "stacks",
        key: "per_die",
        line: "how many checkers one die turns over",
        expects: "a whole number from 1 to 15",
        values: &[],
        default: "1",
        example: "per_die = 2",
        long: "A die showing n turns over this many of the mover's checkers on its point n, or \
               as many as there are: with 2, a stack of two is laid down by one die and a \
               stack of three by two (Yahoudieh); with 1, one checker a die (a double of n, \
               played four times, lays down a whole point: Kiz Tavlasi).",
    },
    KeyRef {
        section: "stacks",
        key: "unstack",
        line: "when a die may lay down stacked checkers",
        expects: "a condition in quotes, such as `\"true\"`",
        values: &[],
        default: "\"true\"",
        example: "unstack = \"not doubles\"",
        long: "A condition (the step names, from the mover's side; `from` and `to` are the \
               point the die names, `die` the die) tested before a die lays down stacked \
               checkers on the point its number names: a die showing n, played on the mover's \
               point n where checkers are stacked, lays down `per_die` of them there, and \
               uses the die as a step would (the most dice must be played, counting these). \
               The step is written `n/n`.",
    },
    KeyRef {
        section: "stacks",
        key: "restack",
        line: "when a die may stack flat checkers again",
        expects: "a condition in quotes, such as `\"laid_down and not restacked\"`",
        values: &[],
        default: "never",
        example: "restack = \"stacked_at(die) == 0\"",
        long: "A condition, read as `unstack` is, tested before a die stacks the mover's flat \
               checkers on the point its number names again (`per_die` of them), when it does \
               not lay any down there: the games that lay every checker down and then stack \
               them all again before bearing off (Yahoudieh, Ofanfelling), with \
               `[[remember]]` names for the phases.",
    },
    KeyRef {
        section: "stacks",
        key: "move",
        line: "when a stacked checker may move",
        expects: "a condition in quotes, such as `\"restacked\"`",
        values: &[],
        default: "never",
        example: "move = \"stacked == 15\"",
        long: "A condition (the step names, from the mover's side) tested before a stacked \
               checker moves: one moves only from a point where no checker lies flat, and it \
               lies flat where it lands. Flat checkers move as the other rules say (a \
               `[[moves.step]]` rule such as `\"stacked == 0\"` keeps them still until every \
               checker is laid down; those rules are not tested of a die that turns checkers \
               over).",
    },
];

/// Checks `[stacks]`: the rule, with `start`'s checkers stacked; an error where the start
/// stacks checkers beyond point `STACK_POINTS`.
pub(super) fn check(
    cx: &mut Cx,
    table: Option<&StacksTable>,
    board: &mut Board,
    start: Option<&mut Position>,
) -> Option<Stacks> {
    let table = table?;
    board.stacks_from_start =
        cx.option("stacks", "named_from", table.named_from.as_ref()) == Some(NamedFrom::Start);
    if board.points > STACK_BOARD_POINTS {
        cx.errors.push(
            Diagnostic::new(format!(
                "a board of {} points cannot stack checkers: at most {STACK_BOARD_POINTS}",
                board.points
            ))
            .at(header(cx)),
        );
        return None;
    }
    let per_die = cx.number(table.per_die.as_ref(), 1, 1..=15, "a die turning") as u8;
    let condition = |cx: &mut Cx, v: &Option<Spanned<String>>| {
        v.as_ref()
            .and_then(|v| cx.expression(v, &step_scope(), Type::Bool))
    };
    let unstack = condition(cx, &table.unstack);
    let restack = condition(cx, &table.restack);
    let moves = condition(cx, &table.move_);
    let stacked = cx.option("stacks", "start", table.start.as_ref()) != Some(Start::None);
    if let (true, Some(pos)) = (stacked, start) {
        let beyond = (1..=board.points)
            .find(|&n| board.stack_field(n).is_none() && pos.sides.iter().any(|s| s[n] > 0));
        let (a, b) = (board.stack_point(1), board.stack_point(STACK_POINTS));
        match beyond {
            Some(n) => cx.errors.push(
                Diagnostic::new(format!(
                    "checkers on point {n} cannot start stacked: stacks stand on points {} to {}",
                    a.min(b),
                    a.max(b)
                ))
                .at(table
                    .start
                    .as_ref()
                    .map_or_else(|| header(cx), |s| s.span()))
                .note("start = \"none\" starts every checker flat"),
            ),
            None => {
                for p in 0..2 {
                    pos.stacked[p] = (1..=board.points)
                        .filter_map(|n| Some((n, board.stack_field(n)?)))
                        .fold(0, |w, (n, f)| w | u64::from(pos.sides[p][n]) << (4 * f));
                }
            }
        }
    }
    Some(Stacks {
        per_die,
        unstack,
        restack,
        moves,
    })
}

/// Where the file's `[stacks]` header stands (an error of a default value is located there).
fn header(cx: &Cx) -> std::ops::Range<usize> {
    let at = cx.text.find("[stacks]").unwrap_or(0);
    at..at + "[stacks]".len().min(cx.text.len() - at)
}

/// Stacks in plain words.
pub(super) fn describe(stacks: &Stacks, board: &Board, start: &Position, s: &mut String) {
    if start.stacked != [0; 2] {
        let _ = writeln!(s, "Every checker starts stacked on its point.");
    }
    let turns = match stacks.per_die {
        1 => "one checker".to_string(),
        n => format!("{n} checkers"),
    };
    let when = |e: &Option<ludus_core::expr::Expr>| {
        e.as_ref()
            .map_or(String::new(), |e| format!(" when `{}`", e.text()))
    };
    let _ = writeln!(
        s,
        "A die showing n may lay down {turns} stacked on {}{}, using the die without moving a checker.",
        if board.stacks_from_start {
            format!(
                "the n-th point of your way (your point {} - n, written as that point: {1}/{1} for a 1)",
                board.points + 1,
                board.points
            )
        } else {
            "your point n (written n/n)".to_string()
        },
        when(&stacks.unstack)
    );
    if let Some(r) = &stacks.restack {
        let _ = writeln!(
            s,
            "Where it lays none down, it may stack {turns} lying flat there again when `{}`.",
            r.text()
        );
    }
    match &stacks.moves {
        Some(m) => {
            let _ = writeln!(
                s,
                "A stacked checker moves (from a point where none lies flat) only when `{}`; it lies flat where it lands.",
                m.text()
            );
        }
        None => {
            let _ = writeln!(s, "A stacked checker never moves.");
        }
    }
}
