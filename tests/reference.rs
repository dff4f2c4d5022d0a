//! The reference table of keys (each family's `REFERENCE`) is the one source of the help notes
//! and of `ludus explain`: it must agree with what the rules files accept and with the README's
//! rules-file reference, and its examples must be correct.

use ludus::registry::{check, REFERENCES};
use ludus::rules::FamilyRef;
use std::collections::BTreeSet;

const README: &str = include_str!("../docs/rules.md");

fn family(name: &str) -> &'static FamilyRef {
    REFERENCES.iter().find(|f| f.family == name).unwrap()
}

/// A bundled file of the family to edit.
fn base(family: &str) -> &'static str {
    match family {
        "sowing" => include_str!("../rules/kalah.toml"),
        _ => include_str!("../rules/mughrabieh.toml"),
    }
}

fn between<'a>(text: &'a str, from: &str, to: &str) -> &'a str {
    let start = text
        .find(from)
        .unwrap_or_else(|| panic!("{from} not found"));
    let rest = &text[start..];
    let end = rest.find(to).unwrap_or(rest.len());
    &rest[..end]
}

/// The (table, key) pairs the README's reference documents for a family.
fn readme_keys(family: &str) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    if family == "sowing" {
        let part = between(
            README,
            "### Reference: keys",
            "### Reference: expression names",
        );
        let mut section = String::new();
        for line in part.lines() {
            if let Some(h) = line.strip_prefix("#### `[") {
                section = h.split(']').next().unwrap().to_string();
            } else if let Some(row) = line.strip_prefix("| `") {
                let key = row.split('`').next().unwrap();
                out.insert((section.clone(), key.to_string()));
            }
        }
    } else {
        let part = between(
            between(README, "## Tables games", "### Expression names"),
            "### Keys",
            "### Expression names",
        );
        for line in part.lines() {
            let Some(row) = line.strip_prefix("| `") else {
                continue;
            };
            let cell = row.split('`').next().unwrap();
            let (header, keys) = cell.split_once(' ').unwrap();
            let section = header.trim_matches(|c| c == '[' || c == ']');
            for key in keys.split(", ") {
                out.insert((section.to_string(), key.trim().to_string()));
            }
        }
    }
    assert!(out.len() > 5, "{family}: README tables not found: {out:?}");
    out
}

fn table_keys(f: &FamilyRef) -> BTreeSet<(String, String)> {
    f.all_keys()
        .map(|k| (k.section.to_string(), k.key.to_string()))
        .collect()
}

#[test]
fn the_readme_documents_exactly_the_keys_of_the_table() {
    for f in REFERENCES {
        let readme = readme_keys(f.family);
        let table = table_keys(f);
        let undocumented: Vec<_> = table.difference(&readme).collect();
        assert!(
            undocumented.is_empty(),
            "{}: not in the README: {undocumented:?}",
            f.family
        );
        let unknown: Vec<_> = readme.difference(&table).collect();
        assert!(
            unknown.is_empty(),
            "{}: in the README, not in the table: {unknown:?}",
            f.family
        );
    }
}

/// `text` with `line` added at the top of `section` (the table added at the end when absent).
fn with_line(text: &str, section: &str, line: &str, repeated: bool) -> String {
    let header = if repeated {
        format!("[[{section}]]")
    } else {
        format!("[{section}]")
    };
    match text.lines().position(|l| l.trim() == header) {
        Some(at) => {
            let mut lines: Vec<&str> = text.lines().collect();
            lines.insert(at + 1, line);
            lines.join("\n") + "\n"
        }
        None => format!("{text}\n{header}\n{line}\n"),
    }
}

/// The names in a note `… : `a`, `b`, `c``.
fn listed(note: &str) -> Vec<String> {
    let list = note.split_once(": ").unwrap().1;
    list.split('`')
        .skip(1)
        .step_by(2)
        .map(|s| s.trim_matches(|c| c == '[' || c == ']').to_string())
        .collect()
}

#[test]
fn every_key_the_files_accept_is_in_the_table_and_no_other() {
    for f in REFERENCES {
        // The tables: a bogus one is refused with the list of those accepted.
        let text = format!("{}\n[zzbogus]\nx = 1\n", base(f.family));
        let report = check(&text);
        let d = report
            .errors()
            .find(|d| d.message == "unknown table `[zzbogus]`")
            .unwrap_or_else(|| panic!("{:#?}", report.diagnostics));
        let note = d
            .notes
            .iter()
            .find(|n| n.starts_with("the tables of"))
            .unwrap();
        let accepted: BTreeSet<String> = listed(note).into_iter().collect();
        let top: BTreeSet<String> = f
            .sections
            .iter()
            .map(|s| s.name.split('.').next().unwrap().to_string())
            .collect();
        assert_eq!(accepted, top, "{}: tables", f.family);

        // The keys of each table (but `[define]`'s, which are the names a file gives).
        for s in f.sections.iter().filter(|s| s.name != "define") {
            let text = with_line(base(f.family), s.name, "zzbogus = 1", s.repeated);
            let report = check(&text);
            let wanted = format!("unknown field `zzbogus` in `{}`", s.header());
            let d = report
                .errors()
                .find(|d| d.message == wanted)
                .unwrap_or_else(|| panic!("{wanted}: {:#?}", report.diagnostics));
            let note = d
                .notes
                .iter()
                .find(|n| n.starts_with("the keys of"))
                .unwrap();
            let mut accepted: BTreeSet<String> = listed(note).into_iter().collect();
            // A table's sub-tables are keys to the parser, tables to the reference.
            accepted.retain(|k| f.section(&format!("{}.{k}", s.name)).is_none());
            let table: BTreeSet<String> = f
                .all_keys()
                .filter(|k| k.section == s.name)
                .map(|k| k.key.to_string())
                .collect();
            assert_eq!(accepted, table, "{}: keys of [{}]", f.family, s.name);
        }
    }
}

#[test]
fn every_example_is_correct() {
    for f in REFERENCES {
        for k in f.all_keys() {
            if k.key == "family" {
                continue;
            }
            let repeated = f.section(k.section).is_some_and(|s| s.repeated);
            // The key's own line (if any) gives way to the example.
            let own = format!("{} =", k.key);
            let text = base(f.family);
            let header = format!("[{}]", k.section);
            let kept: Vec<&str> = {
                let mut in_section = false;
                text.lines()
                    .filter(|l| {
                        if l.starts_with('[') {
                            in_section = l.trim().trim_matches(|c| c == '[' || c == ']')
                                == header.trim_matches(|c| c == '[' || c == ']');
                        }
                        !(in_section && l.starts_with(&own))
                    })
                    .collect()
            };
            let text = with_line(&(kept.join("\n") + "\n"), k.section, k.example, repeated);
            let line = text.lines().position(|l| l == k.example).unwrap() + 1;
            let report = check(&text);
            for d in report.errors() {
                let span = d.span.clone().unwrap_or(0..0);
                let at = text[..span.start].matches('\n').count() + 1;
                assert_ne!(at, line, "{}: example `{}`: {d:#?}", k.path(), k.example);
            }
        }
    }
}

#[test]
fn every_table_and_key_has_its_help() {
    for f in REFERENCES {
        assert!(family(f.family).section("game").is_some());
        for k in f.all_keys() {
            assert!(f.section(k.section).is_some(), "{}: no table", k.path());
            assert!(!k.line.is_empty() && !k.long.is_empty() && !k.expects.is_empty());
            assert!(
                k.example.starts_with(&format!("{} = ", k.key)),
                "{}: example {}",
                k.path(),
                k.example
            );
            let help = k.help();
            assert!(help.starts_with(&format!("help: {}: ", k.path())), "{help}");
        }
        // Every expression key is a key of the table.
        for (key, _) in (f.scopes)() {
            let (section, name) = key.rsplit_once('.').unwrap();
            assert!(f.key(section, name).is_some(), "{}: {key}", f.family);
        }
    }
}
