//! `ludus explain [KEY]`: the rules-file reference from the command line. A key (`pits`,
//! `sowing.skip_origin`, `capture.when`), a table (`board`, `[[moves.leave]]`) or an expression
//! name (`last.count`, `mine`) gets its full entry; nothing lists every table and key. Every
//! entry comes from the families' references, the same data the error notes use.

use crate::say;
use anyhow::Result;
use ludus_core::diagnostics::did_you_mean;
use ludus_core::expr::{Name, NameKind, Type};
use ludus_core::limits::printable;
use ludus_core::rules::reference::{FamilyRef, KeyRef, SectionRef, GAME_KEYS};
use ludus_table::registry::REFERENCES;
use std::fmt::Write as _;

/// Width the long texts are wrapped to.
const WIDTH: usize = 92;

pub fn run(key: Option<&str>) -> Result<bool> {
    let Some(query) = key else {
        say!("{}", index());
        return Ok(true);
    };
    match explain(query) {
        Ok(text) => {
            say!("{}", text.trim_end());
            Ok(true)
        }
        Err(message) => {
            eprintln!("error: {}", printable(&message));
            Ok(false)
        }
    }
}

/// The full entry (or entries) for a query, or why there is none.
pub fn explain(query: &str) -> Result<String, String> {
    let q = normalise(query);
    let mut out = Vec::new();
    for (i, family) in REFERENCES.iter().enumerate() {
        for k in family.all_keys() {
            let shared = k.section == "game";
            if shared && i > 0 {
                continue;
            }
            if q == k.key || q == k.path() {
                out.push(key_entry(family, k, shared));
            }
        }
        for s in family.sections {
            if s.name == q && (s.name != "game" || i == 0) {
                out.push(section_entry(family, s));
            }
        }
        let names = name_entries(family, &q);
        out.extend(names);
        if let Some((group, what)) = family.groups.iter().find(|(g, _)| *g == q) {
            out.push(group_entry(family, group, what));
        }
    }
    if out.is_empty() {
        let candidates = candidates();
        let mut message = format!(
            "`{}` is neither a key, a table nor an expression name of a rules file",
            ludus_core::limits::excerpt(query)
        );
        if let Some(close) = did_you_mean(&q, candidates.iter().map(String::as_str)) {
            let _ = write!(message, "; did you mean `{close}`?");
        }
        message.push_str(" (`ludus explain` lists every table and key)");
        return Err(message);
    }
    Ok(out.join("\n"))
}

/// `[board]` → `board`, `mine(n)` → `mine`, surrounding space gone.
fn normalise(query: &str) -> String {
    let q = query.trim();
    let q = q.trim_start_matches('[').trim_end_matches(']');
    let q = q.split('(').next().unwrap_or(q);
    q.trim().to_string()
}

/// Every word `explain` knows.
fn candidates() -> Vec<String> {
    let mut out = Vec::new();
    for family in REFERENCES {
        for k in family.all_keys() {
            out.push(k.key.to_string());
            out.push(k.path());
        }
        out.extend(family.sections.iter().map(|s| s.name.to_string()));
        out.extend(family.groups.iter().map(|(g, _)| g.to_string()));
        for (_, scope) in (family.scopes)() {
            out.extend(scope.names().iter().map(|n| n.name.to_string()));
        }
    }
    out.sort();
    out.dedup();
    out
}

fn key_entry(family: &FamilyRef, k: &KeyRef, shared: bool) -> String {
    let mut s = String::new();
    let whose = if shared {
        "every rules file".to_string()
    } else {
        format!("{} rules files", family.family)
    };
    let table = family
        .section(k.section)
        .map_or(format!("[{}]", k.section), SectionRef::header);
    let _ = writeln!(s, "{} — {whose}, table {table}", k.path());
    let _ = writeln!(s, "  {}", k.line);
    let _ = writeln!(s);
    let _ = writeln!(s, "  value:    {}", k.expects);
    let default = if k.default.starts_with('—') {
        format!("none: required{}", k.default.trim_start_matches('—'))
    } else {
        k.default.to_string()
    };
    let _ = writeln!(s, "  default:  {default}");
    let _ = writeln!(s, "  example:  {}", k.example);
    let _ = writeln!(s);
    s.push_str(&wrap(k.long, "  "));
    if let Some((_, scope)) = (family.scopes)()
        .into_iter()
        .find(|(key, _)| *key == k.path())
    {
        let _ = writeln!(s);
        let _ = writeln!(s, "  names in `{}`:", k.path());
        for n in scope.names() {
            let _ = writeln!(s, "    {:<16} {}", signature(n), n.help);
        }
    }
    s
}

fn section_entry(family: &FamilyRef, section: &SectionRef) -> String {
    let mut s = String::new();
    let whose = if section.name == "game" {
        "every rules file".to_string()
    } else {
        format!("{} rules files", family.family)
    };
    let required = if section.required { ", required" } else { "" };
    let _ = writeln!(s, "{} — {whose}{required}", section.header());
    let _ = writeln!(s, "  {}", section.line);
    let _ = writeln!(s);
    let keys: Vec<&KeyRef> = family
        .all_keys()
        .filter(|k| k.section == section.name)
        .collect();
    let width = keys.iter().map(|k| k.key.len()).max().unwrap_or(0);
    for k in keys {
        let _ = writeln!(s, "  {:<width$}  {}", k.key, k.line);
    }
    s
}

/// The entries of an expression name in a family: one per distinct meaning, with the keys whose
/// expressions may use it.
fn name_entries(family: &FamilyRef, q: &str) -> Vec<String> {
    let mut found: Vec<(Name, Vec<&'static str>)> = Vec::new();
    for (key, scope) in (family.scopes)() {
        if let Some(n) = scope.names().iter().find(|n| n.name == q) {
            match found
                .iter_mut()
                .find(|(m, _)| m.help == n.help && m.ty == n.ty)
            {
                Some((_, keys)) => keys.push(key),
                None => found.push((*n, vec![key])),
            }
        }
    }
    found
        .into_iter()
        .map(|(n, keys)| {
            let mut s = String::new();
            let _ = writeln!(
                s,
                "{} — an expression name of {} rules files ({})",
                signature(&n),
                family.family,
                type_name(n.ty)
            );
            let _ = writeln!(s, "  {}", n.help);
            let keys: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
            let _ = writeln!(s, "  in the expressions of {}", keys.join(", "));
            s
        })
        .collect()
}

/// A group of names (`opposite`): what it is, its fields and where they may be used.
fn group_entry(family: &FamilyRef, group: &str, what: &str) -> String {
    let prefix = format!("{group}.");
    let mut fields: Vec<Name> = Vec::new();
    let mut keys: Vec<&'static str> = Vec::new();
    for (key, scope) in (family.scopes)() {
        let mut used = false;
        for n in scope.names().iter().filter(|n| n.name.starts_with(&prefix)) {
            used = true;
            if !fields.iter().any(|f| f.name == n.name) {
                fields.push(*n);
            }
        }
        if used {
            keys.push(key);
        }
    }
    let mut s = String::new();
    let _ = writeln!(s, "{group} — in {} rules files", family.family);
    s.push_str(&wrap(what, "  "));
    let _ = writeln!(s);
    for f in &fields {
        let _ = writeln!(s, "  {:<20} {} ({})", f.name, f.help, type_name(f.ty));
    }
    let keys: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
    let _ = writeln!(s, "  in the expressions of {}", keys.join(", "));
    s
}

/// `last.count`, or `own(integer)` for a function.
fn signature(n: &Name) -> String {
    match n.kind {
        NameKind::Func { args, .. } => {
            let args: Vec<&str> = args.iter().map(|&t| type_name(t)).collect();
            format!("{}({})", n.name, args.join(", "))
        }
        _ => n.name.to_string(),
    }
}

fn type_name(ty: Type) -> &'static str {
    match ty {
        Type::Int => "integer",
        Type::Bool => "boolean",
        Type::Player => "player",
    }
}

/// Every table and key, one line each.
fn index() -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "The tables and keys of rules files (`ludus explain KEY` for one in full):\n"
    );
    let _ = writeln!(s, "every rules file");
    for k in GAME_KEYS {
        let _ = writeln!(s, "  {:<22} {}", k.path(), k.line);
    }
    for family in REFERENCES {
        let _ = writeln!(s, "\n{} rules files", family.family);
        for section in family.sections.iter().filter(|s| s.name != "game") {
            let _ = writeln!(s, "  {}  {}", section.header(), section.line);
            for k in section.keys {
                let _ = writeln!(s, "    {:<20} {}", k.path(), k.line);
            }
        }
        let scopes = (family.scopes)();
        let keys: Vec<String> = scopes.iter().map(|(k, _)| format!("`{k}`")).collect();
        let _ = writeln!(
            s,
            "  expressions: {} (`ludus explain` a name for its meaning)",
            keys.join(", ")
        );
    }
    s
}

/// `text` wrapped to [`WIDTH`] columns, each line after `indent`.
fn wrap(text: &str, indent: &str) -> String {
    let mut out = String::new();
    let mut line = String::from(indent);
    for word in text.split_whitespace() {
        if line.len() > indent.len() && line.chars().count() + 1 + word.chars().count() > WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line = String::from(indent);
        }
        if line.len() > indent.len() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if line.len() > indent.len() {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_tables_and_names_are_explained() {
        let pits = explain("pits").unwrap();
        assert!(
            pits.starts_with("board.pits — sowing rules files"),
            "{pits}"
        );
        assert!(pits.contains("example:  pits = 6"), "{pits}");
        let skip = explain("sowing.skip_origin").unwrap();
        assert!(skip.contains("\"lap\""), "{skip}");
        let when = explain("capture.when").unwrap();
        assert!(when.contains("last.count"), "{when}");
        let stores = explain("stores").unwrap();
        assert!(stores.contains("board.stores") && stores.contains("sowing.stores"));
        let count = explain("last.count").unwrap();
        assert!(count.contains("stones in the pit now"), "{count}");
        assert!(count.contains("`capture.when`"), "{count}");
        assert!(explain("mine(n)").unwrap().contains("mine(integer)"));
        assert!(explain("[[moves.leave]]").unwrap().contains("point"));
        assert!(explain("name").unwrap().contains("every rules file"));
    }

    #[test]
    fn an_unknown_key_gets_a_suggestion() {
        let e = explain("pitts").unwrap_err();
        assert!(e.contains("did you mean `pits`?"), "{e}");
        let e = explain("last.cuont").unwrap_err();
        assert!(e.contains("did you mean `last.count`?"), "{e}");
    }

    #[test]
    fn long_texts_are_wrapped() {
        let w = wrap(&"word ".repeat(50), "  ");
        assert!(w.lines().all(|l| l.len() <= WIDTH && l.starts_with("  ")));
    }
}
