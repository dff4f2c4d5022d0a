//! Every tables game of `docs/games` held to its known positions: for each file `NAME.toml`,
//! `tests/data/tables-known/NAME.jsonl` sets up positions, each testing one rule of the game
//! (`rule`), rolls the given dice, and says which moves the rules allow (`legal`), which they
//! forbid (`illegal`), how many there are (`count`), and what a legal move leaves (`after`:
//! fields of the STATE after playing the first legal move).

mod tables_common;
use tables_common::tables_compile;

use ludus::game::{Game, Json, Notation, Phase, Roll};
use ludus::tables::TablesGame;
use serde_json::Value;
use std::path::Path;

fn known_dir() -> &'static Path {
    Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/tables-known"
    ))
}

fn games_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/games"))
}

/// The tables game files of `docs/games`, by name.
fn tables_files() -> Vec<(String, TablesGame)> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(games_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        if !text.contains("family = \"tables\"") {
            continue;
        }
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let game = tables_compile(&text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        files.push((name, game));
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    files
}

/// Runs one check; the problems found, in words.
fn check(g: &TablesGame, c: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    let rule = c["rule"].as_str().unwrap_or("?");
    let mut st = match g.state_from_json(&c["state"]) {
        Ok(st) => st,
        Err(e) => return vec![format!("{rule}: the state is refused: {e:?}")],
    };
    if let Some(dice) = c["dice"].as_array() {
        let dice: Vec<u8> = dice.iter().map(|d| d.as_u64().unwrap() as u8).collect();
        if let Err(e) = g.roll(&mut st, &Roll::new(&dice).unwrap()) {
            return vec![format!("{rule}: the roll {dice:?} is refused: {e:?}")];
        }
    }
    if !matches!(g.phase(&st), Phase::Move(_)) {
        return vec![format!("{rule}: no move is awaited")];
    }
    let texts = |key: &str| -> Vec<String> {
        c[key]
            .as_array()
            .map(|a| a.iter().map(|t| t.as_str().unwrap().to_string()).collect())
            .unwrap_or_default()
    };
    for text in texts("legal") {
        if let Err(e) = g.parse_move(&st, &text) {
            problems.push(format!("{rule}: `{text}` is refused: {e:?}"));
        }
    }
    for text in texts("illegal") {
        if g.parse_move(&st, &text).is_ok() {
            problems.push(format!("{rule}: `{text}` is accepted"));
        }
    }
    if let Some(n) = c["count"].as_u64() {
        let mut moves = Vec::new();
        g.legal_moves(&st, &mut moves);
        if moves.len() as u64 != n {
            problems.push(format!("{rule}: {} legal moves, not {n}", moves.len()));
        }
    }
    if let (Some(after), Some(first)) = (c["after"].as_object(), texts("legal").first()) {
        if let Ok(mv) = g.parse_move(&st, first) {
            g.play(&mut st, &mv);
            let now = g.state_json(&st);
            for (field, want) in after {
                if &now[field] != want {
                    problems.push(format!(
                        "{rule}: after `{first}`, {field} is {}, not {want}",
                        now[field]
                    ));
                }
            }
        }
    }
    problems
}

#[test]
fn every_tables_game_file_meets_its_known_positions() {
    let mut problems = Vec::new();
    let mut checked = 0;
    for (name, g) in tables_files() {
        let path = known_dir().join(format!("{name}.jsonl"));
        let Ok(text) = std::fs::read_to_string(&path) else {
            problems.push(format!("{name}: no known positions ({})", path.display()));
            continue;
        };
        let checks: Vec<Value> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{name}: {e}: {l}")))
            .collect();
        if checks.len() < 2 {
            problems.push(format!("{name}: fewer than two known positions"));
        }
        for c in &checks {
            let found = check(&g, c);
            assert!(
                c["legal"].as_array().is_some_and(|a| !a.is_empty())
                    || c["illegal"].as_array().is_some_and(|a| !a.is_empty()),
                "{name}: a check that tests no move: {c}"
            );
            problems.extend(found.into_iter().map(|p| format!("{name}: {p}")));
            checked += 1;
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(checked >= 2, "{checked} checks");
}

/// A known-position file names a game file, and a check that is wrong is caught.
#[test]
fn known_positions_belong_to_game_files_and_catch_a_wrong_check() {
    let names: Vec<String> = tables_files().into_iter().map(|(n, _)| n).collect();
    for entry in std::fs::read_dir(known_dir()).unwrap() {
        let path = entry.unwrap().path();
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        assert!(
            names.contains(&stem),
            "{} names no game file",
            path.display()
        );
    }
    let g = tables_compile(&std::fs::read_to_string(games_dir().join("moultezim.toml")).unwrap())
        .unwrap();
    let mut start = g.state_json(&g.new_game(0));
    start["phase"] = "roll".into();
    // Moultezim: one checker leaves the stack until one has passed the opponent's start, so a
    // first 6-5 is 24/13 alone; this check says the opposite of each.
    let wrong: Value = serde_json::json!({
        "rule": "two checkers off the stack",
        "state": start,
        "dice": [6, 5],
        "legal": ["24/18 24/19"],
        "illegal": ["24/13"],
        "count": 3,
        "after": {"off": [1, 0]},
    });
    let found = check(&g, &wrong);
    assert!(
        found.iter().any(|p| p.contains("`24/18 24/19` is refused")),
        "{found:?}"
    );
    assert!(
        found.iter().any(|p| p.contains("`24/13` is accepted")),
        "{found:?}"
    );
    assert!(
        found.iter().any(|p| p.contains("1 legal moves, not 3")),
        "{found:?}"
    );
    let right: Value = serde_json::json!({
        "rule": "one checker off the stack",
        "state": start,
        "dice": [6, 5],
        "legal": ["24/13"],
        "illegal": ["24/18 24/19"],
        "count": 1,
        "after": {"off": [0, 0]},
    });
    assert_eq!(check(&g, &right), Vec::<String>::new());
}
