//! The engine protocol checked against recorded games: `tests/oracle/drive.py` (the project's
//! copy of `shared/oracle/drive.py`) drives `ludus protocol` through every record and compares
//! every state, legal set and result. Records: OpenSpiel's (`tests/data/openspiel/`) and the
//! reference implementations of the spec (`tests/data/ref/`).

use std::path::Path;
use std::process::Command;

fn drive(trace: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let engine = format!("'{}' protocol", env!("CARGO_BIN_EXE_ludus"));
    let out = Command::new("python3")
        .arg(root.join("tests/oracle/drive.py"))
        .arg(&engine)
        .arg(root.join("tests/data").join(trace))
        .args(["--timeout", "30"])
        .output()
        .expect("python3 is needed for the protocol's differential tests");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let verdict = stdout.lines().last().unwrap_or_default();
    assert!(
        out.status.success() && verdict.starts_with("agree") && verdict.ends_with("none"),
        "{trace}: {verdict}\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
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
