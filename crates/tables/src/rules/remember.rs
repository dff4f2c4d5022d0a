//! `[[remember]]`: what a side's steps have done in this game, kept for the rest of it, by
//! name ("a checker has landed on point 12").

use super::Cx;
use crate::position::{Board, MAX_REMEMBERED, REMEMBER_POINTS};
use crate::scope::remember_scope;
use ludus_core::diagnostics::Diagnostic;
use ludus_core::expr::{Expr, Type};
use ludus_core::rules::define::DefineTable;
use ludus_core::rules::reference::{KeyRef, SectionRef};
use serde::Deserialize;
use std::fmt::Write;
use toml::Spanned;

/// `[[remember]]` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RememberTable {
    /// The name expressions read it by.
    pub name: Spanned<String>,
    /// A boolean expression, tested after every step of each side.
    pub when: Spanned<String>,
}

pub(crate) const SECTION: SectionRef = SectionRef {
    name: "remember",
    line: "something a side's steps have done in this game, kept by name for the rest of it (any number of these tables, at most 8)",
    required: false,
    repeated: true,
    keys: KEYS,
};

const KEYS: &[KeyRef] = &[
    KeyRef {
        section: "remember",
        key: "name",
        line: "the name the rules read it by",
        expects: "a name in quotes: lower-case letters, digits and `_`",
        values: &[],
        default: "—",
        example: "name = \"reached_12\"",
        long: "A name for the conditions of the file (leave, step, bear-off and win rules): true \
               for the side to move once `when` has held after a step of its own in this game, \
               and from then on (`remembered(n)` reads the n-th table, from 0, the same way).",
    },
    KeyRef {
        section: "remember",
        key: "when",
        line: "what a step must leave true to be remembered",
        expects: "a condition in quotes, such as `\"to == 12\"`",
        values: &[],
        default: "—",
        example: "when = \"to == 12\"",
        long: "A condition (the step names but `die`, from the mover's side) tested after every \
               step of each side, on the position it leaves: once it holds, the table's `name` \
               is true for that side for the rest of the game (\"a checker has landed on point \
               12\": `to == 12`; \"a checker has reached home\": `home > 0`). STATE's \
               `remembered` lists the names each side holds.",
    },
];

/// The `[[remember]]` tables compiled, in order, with their names; each name is added to
/// `defines` as `remembered(i)`, so that every expression of the file reads it.
pub(super) fn check(cx: &mut Cx, tables: &[RememberTable], board: &Board) -> Vec<(String, Expr)> {
    if tables.len() > MAX_REMEMBERED {
        cx.errors.push(
            Diagnostic::new(format!(
                "{} `[[remember]]` tables: at most {MAX_REMEMBERED}",
                tables.len()
            ))
            .at(tables[MAX_REMEMBERED].name.span()),
        );
        return Vec::new();
    }
    if let Some(first) = tables.first().filter(|_| board.points > REMEMBER_POINTS) {
        cx.errors.push(
            Diagnostic::new(format!(
                "a board of {} points cannot remember: at most {REMEMBER_POINTS}",
                board.points
            ))
            .at(first.name.span()),
        );
        return Vec::new();
    }
    tables
        .iter()
        .filter_map(|t| {
            let when = cx.expression(&t.when, &remember_scope(), Type::Bool)?;
            Some((t.name.get_ref().clone(), when))
        })
        .collect()
}

/// `[define]` with each `[[remember]]` name standing for `remembered(i)`; a name given twice
/// is an error.
pub(super) fn names(
    cx: &mut Cx,
    defines: Option<&DefineTable>,
    tables: &[RememberTable],
) -> Option<DefineTable> {
    if tables.is_empty() {
        return defines.cloned();
    }
    let mut all = defines.cloned().unwrap_or_default();
    for (i, t) in tables.iter().enumerate().take(MAX_REMEMBERED) {
        let name = Spanned::new(t.name.span(), t.name.get_ref().clone());
        if all.contains_key(&name) {
            cx.errors.push(
                Diagnostic::new(format!("`{}` is named twice", t.name.get_ref()))
                    .at(t.name.span())
                    .note("each `[[remember]]` and `[define]` name is a name of its own"),
            );
            continue;
        }
        all.insert(
            name,
            Spanned::new(t.name.span(), format!("remembered({i})")),
        );
    }
    Some(all)
}

/// What is remembered, in plain words.
pub(super) fn describe(names: &[String], remember: &[Expr], s: &mut String) {
    for (name, when) in names.iter().zip(remember) {
        let _ = writeln!(
            s,
            "`{name}` is remembered for the rest of the game once a step of its side leaves `{}` true.",
            when.text()
        );
    }
}
