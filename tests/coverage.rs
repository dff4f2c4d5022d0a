//! The coverage list tells the truth: every rules file in `docs/games/` validates without an
//! error or a warning and plays random games to the end, and `docs/coverage.md` names exactly the
//! files that are there.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const COVERAGE: &str = include_str!("../docs/coverage.md");

fn ludus(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run ludus")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn games_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/games")
}

/// The rules files in `docs/games/` and its subdirectories, by path from there, sorted.
fn game_files() -> Vec<String> {
    let mut names = Vec::new();
    let mut dirs = vec![String::new()];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(games_dir().join(&dir)).expect("docs/games exists") {
            let e = e.unwrap();
            let name = format!("{dir}{}", e.file_name().to_string_lossy());
            if e.file_type().unwrap().is_dir() {
                dirs.push(format!("{name}/"));
            } else if name.ends_with(".toml") {
                names.push(name);
            }
        }
    }
    names.sort();
    names
}

/// The file names `docs/coverage.md` links to as `](games/PATH.toml)`, sorted and deduplicated.
fn named_in_coverage() -> Vec<String> {
    let mut names: Vec<String> = COVERAGE
        .match_indices("](games/")
        .filter_map(|(at, _)| {
            let rest = &COVERAGE[at + "](games/".len()..];
            let len = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || "-_./".contains(c)))
                .unwrap_or(rest.len());
            let name = &rest[..len];
            let linked = name.ends_with(".toml") && rest[len..].starts_with(')');
            linked.then(|| name.to_string())
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The files `tests/data/mancala-games.json` checks against the other engine, by path from
/// `docs/games/`.
fn checked_against_mancala_games() -> Vec<String> {
    let list: serde_json::Value =
        serde_json::from_str(include_str!("data/mancala-games.json")).expect("JSON");
    list.as_array()
        .expect("a list")
        .iter()
        .filter_map(|c| c["ludus"].as_str()?.strip_prefix("../../docs/games/"))
        .map(str::to_string)
        .collect()
}

#[test]
fn every_game_file_validates_without_warnings() {
    let files = game_files();
    assert!(!files.is_empty(), "no rules files in docs/games");
    let paths: Vec<String> = files.iter().map(|f| format!("docs/games/{f}")).collect();
    let args: Vec<&str> = ["validate", "--deny-warnings"]
        .into_iter()
        .chain(paths.iter().map(String::as_str))
        .collect();
    let o = ludus(&args);
    assert!(
        o.status.success(),
        "{}\n{}",
        text(&o.stdout),
        text(&o.stderr)
    );
    assert_eq!(text(&o.stdout).matches(": ok").count(), files.len());
}

#[test]
fn every_game_file_plays_random_games_to_the_end() {
    // The files checked against Mancala Games are played there, move by move, instead (some are
    // matches of many rounds, long for a random player).
    let checked = checked_against_mancala_games();
    for file in game_files().into_iter().filter(|f| !checked.contains(f)) {
        let path = format!("docs/games/{file}");
        for seed in ["1", "2", "3"] {
            let o = ludus(&[
                "play", &path, "--south", "random", "--north", "random", "--seed", seed,
            ]);
            let out = text(&o.stdout);
            assert!(
                o.status.success(),
                "{path} seed {seed}: {}\n{out}",
                text(&o.stderr)
            );
            let last = out.lines().last().unwrap_or_default();
            assert!(
                last.contains("wins") || last.contains("draw") || last.contains("Draw"),
                "{path} seed {seed}: the game did not end with a result: {last:?}"
            );
        }
    }
}

#[test]
fn the_coverage_table_names_exactly_the_game_files() {
    let named = named_in_coverage();
    let files = game_files();
    for name in &named {
        assert!(
            games_dir().join(name).is_file(),
            "docs/coverage.md names games/{name}, which does not exist"
        );
    }
    // A file directly in docs/games is a game of the list; one in a subdirectory (the Mancala
    // Games configurations) is named there or checked by tests/data/mancala-games.json.
    let checked = checked_against_mancala_games();
    for file in &files {
        assert!(
            named.contains(file) || (file.contains('/') && checked.contains(file)),
            "docs/games/{file} is not named in docs/coverage.md"
        );
    }
}

#[test]
fn every_writable_row_names_its_file() {
    for row in COVERAGE.lines().filter(|l| l.starts_with('|')) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        // | game | family | region | source | status | needs |: the status is cell 5.
        let Some(status) = cells.get(5) else { continue };
        if status.starts_with("writable") {
            assert!(
                status.contains("](games/") && status.contains(".toml)"),
                "a writable row without its file: {row}"
            );
        }
    }
}

#[test]
fn the_counts_add_up_the_rows() {
    let mut counts = std::collections::BTreeMap::<(&str, &str), usize>::new();
    let mut table = Vec::new();
    for row in COVERAGE.lines().filter(|l| l.starts_with('|')) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        match cells.len() {
            // | game | family | region | source | status | needs |
            8 if ["sowing", "tables"].contains(&cells[2]) => {
                let status = ["bundled", "writable", "not writable"]
                    .into_iter()
                    .find(|s| cells[5].starts_with(s))
                    .unwrap_or_else(|| panic!("a row without a status: {row}"));
                *counts.entry((cells[2], status)).or_default() += 1;
                if status == "not writable" && cells[6].starts_with("rules not known") {
                    *counts.entry((cells[2], "unknown")).or_default() += 1;
                }
            }
            // | family | bundled | writable | not writable | total |
            7 if ["sowing", "tables"].contains(&cells[1]) => table.push(cells[1..6].to_vec()),
            _ => {}
        }
    }
    assert_eq!(table.len(), 2, "the counts table has a row per family");
    for row in table {
        let family = row[0];
        let n = |s| counts.get(&(family, s)).copied().unwrap_or(0);
        let (b, w, x) = (n("bundled"), n("writable"), n("not writable"));
        let expected = [b, w, x, b + w + x].map(|v| v.to_string());
        assert_eq!(row[1..], expected, "the counts of {family}");
    }
    // The tables games whose rules nobody knows, said apart (rounded to a whole per cent).
    let n = |s| counts.get(&("tables", s)).copied().unwrap_or(0);
    let (unknown, known) = (n("unknown"), n("bundled") + n("writable"));
    let (not_writable, rules_known) = (n("not writable"), known + n("not writable") - unknown);
    let page = COVERAGE.split_whitespace().collect::<Vec<_>>().join(" ");
    for said in [
        format!("{} of the {not_writable} tables games not writable", words(unknown)),
        format!(
            "Of the {rules_known} tables games whose rules are known, {known} ({}%) are bundled or writable.",
            (100 * known + rules_known / 2) / rules_known
        ),
    ] {
        assert!(page.contains(&said), "docs/coverage.md should say: {said}");
    }
}

/// A count as the page writes it at the start of a sentence.
fn words(n: usize) -> String {
    const NAMES: [&str; 13] = [
        "None", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
        "Eleven", "Twelve",
    ];
    NAMES.get(n).map_or(n.to_string(), |w| w.to_string())
}
