//! The engine protocol checked against recorded games: `tests/oracle/drive.py` (the project's
//! copy of `shared/oracle/drive.py`, extended to compare OpenSpiel's final positions and to
//! count skipped records, refused `set`s and quirk turns) drives `ludus protocol` through every
//! record and compares every state, legal set, result and final position. Records: OpenSpiel's (`tests/data/openspiel/`) and the
//! reference implementations of the spec (`tests/data/ref/`).
//!
//! The driver's verdict line is parsed and checked against the file itself: every game and
//! step the file holds was played and agreed, no record was skipped, no `set` was refused and
//! OpenSpiel's doubles quirk did not occur (its records here never list or choose a move that
//! uses fewer dice than possible).

use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// The driver's last line: `agree G/T games, S/U steps, skipped K records, refused R sets,
/// quirk Q turns, first disagreement: ...`.
#[derive(Debug, PartialEq)]
struct Verdict {
    games: (usize, usize),
    steps: (usize, usize),
    skipped: usize,
    refused_sets: usize,
    quirk_turns: usize,
    first_disagreement: String,
}

fn parse_verdict(line: &str) -> Option<Verdict> {
    let (counts, first) = line.split_once(", first disagreement: ")?;
    let fields: Vec<&str> = counts.split(", ").collect();
    let [games, steps, skipped, refused, quirk] = fields.as_slice() else {
        return None;
    };
    let ratio = |field: &str, head: &str, tail: &str| -> Option<(usize, usize)> {
        let (a, b) = field
            .strip_prefix(head)?
            .strip_suffix(tail)?
            .split_once('/')?;
        Some((a.parse().ok()?, b.parse().ok()?))
    };
    let number = |field: &str, head: &str, tail: &str| -> Option<usize> {
        field.strip_prefix(head)?.strip_suffix(tail)?.parse().ok()
    };
    Some(Verdict {
        games: ratio(games, "agree ", " games")?,
        steps: ratio(steps, "", " steps")?,
        skipped: number(skipped, "skipped ", " records")?,
        refused_sets: number(refused, "refused ", " sets")?,
        quirk_turns: number(quirk, "quirk ", " turns")?,
        first_disagreement: first.to_string(),
    })
}

/// Games and steps (plies; turns for tables) in a trace file, counted from the file.
fn count(path: &Path) -> (usize, usize) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let (mut games, mut steps) = (0, 0);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let rec: Value = serde_json::from_str(line).expect("a JSON record");
        let len = |v: &Value| v.as_array().expect("a list").len();
        if rec["format"] == "ludus-trace/1" {
            for game in rec["games"].as_array().expect("games") {
                games += 1;
                steps += len(&game["steps"]);
            }
        } else if rec.get("turns").is_some() {
            games += 1;
            steps += len(&rec["turns"]);
        } else {
            games += 1;
            steps += len(&rec["steps"]);
        }
    }
    (games, steps)
}

fn drive(trace: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root.join("tests/data").join(trace);
    let engine = format!("'{}' protocol", env!("CARGO_BIN_EXE_ludus"));
    let out = Command::new("python3")
        .arg(root.join("tests/oracle/drive.py"))
        .arg(&engine)
        .arg(&path)
        .args(["--timeout", "30"])
        .output()
        .expect("python3 is needed for the protocol's differential tests");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line = stdout.lines().last().unwrap_or_default();
    let verdict = parse_verdict(line)
        .unwrap_or_else(|| panic!("{trace}: unparsable verdict {line:?}\n{stdout}\n{stderr}"));
    let (games, steps) = count(&path);
    assert!(
        games > 0 && steps > games,
        "{trace}: {games} games, {steps} steps"
    );
    let expected = Verdict {
        games: (games, games),
        steps: (steps, steps),
        skipped: 0,
        refused_sets: 0,
        quirk_turns: 0,
        first_disagreement: "none".into(),
    };
    assert_eq!(verdict, expected, "{trace}\n{stdout}\n{stderr}");
    assert!(out.status.success(), "{trace}: {line}\n{stderr}");
}

#[test]
fn the_verdict_line_is_parsed() {
    let v = parse_verdict(
        "agree 3/4 games, 10/12 steps, skipped 1 records, refused 2 sets, quirk 5 turns, \
         first disagreement: record 3 (x) step 2: state.pits: a, b",
    )
    .unwrap();
    assert_eq!(v.games, (3, 4));
    assert_eq!(v.steps, (10, 12));
    assert_eq!((v.skipped, v.refused_sets, v.quirk_turns), (1, 2, 5));
    assert_eq!(
        v.first_disagreement,
        "record 3 (x) step 2: state.pits: a, b"
    );
    assert_eq!(
        parse_verdict("agree 3/4 games, 10/12 steps, first disagreement: none"),
        None
    );
}

#[test]
fn openspiel_oware() {
    drive("openspiel/oware-visible.jsonl");
}

#[test]
fn openspiel_backgammon() {
    drive("openspiel/backgammon-visible.jsonl");
}

#[test]
fn reference_oware() {
    drive("ref/oware.jsonl");
}

#[test]
fn reference_wari() {
    drive("ref/wari.jsonl");
}

#[test]
fn reference_warri() {
    drive("ref/warri.jsonl");
}

#[test]
fn reference_sat_gharva() {
    drive("ref/sat-gharva.jsonl");
}

#[test]
fn reference_uuholo() {
    drive("ref/uuholo.jsonl");
}

#[test]
fn reference_backgammon() {
    drive("ref/backgammon.jsonl");
}

#[test]
fn reference_had() {
    drive("ref/had.jsonl");
}

#[test]
fn reference_mughrabieh() {
    drive("ref/mughrabieh.jsonl");
}
