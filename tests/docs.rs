//! The documentation tells the truth: every transcript in `docs/protocol.md` is replayed through
//! `ludus protocol` and must get the same responses, and what `ludus show` prints of the bundled
//! games names public references, not notes that live outside the repository.

use std::io::Write;
use std::process::{Command, Stdio};

const PROTOCOL_DOC: &str = include_str!("../docs/protocol.md");

/// The transcripts of a document: each ```text block holding `> ` request lines and `< `
/// response lines, as (requests, expected responses).
fn transcripts(doc: &str) -> Vec<(Vec<&str>, Vec<&str>)> {
    let mut out = Vec::new();
    let mut block: Option<(Vec<&str>, Vec<&str>)> = None;
    for line in doc.lines() {
        match (&mut block, line) {
            (None, "```text") => block = Some((Vec::new(), Vec::new())),
            (Some(_), "```") => {
                let (requests, responses) = block.take().unwrap();
                if !requests.is_empty() {
                    out.push((requests, responses));
                }
            }
            (Some((requests, responses)), l) => {
                if let Some(r) = l.strip_prefix("> ") {
                    requests.push(r);
                } else if let Some(r) = l.strip_prefix("< ") {
                    responses.push(r);
                }
            }
            (None, _) => {}
        }
    }
    out
}

fn run_protocol(requests: &[&str]) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .arg("protocol")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run ludus protocol");
    {
        let mut stdin = child.stdin.take().unwrap();
        for r in requests {
            // A session may end (quit) before every line is read.
            if writeln!(stdin, "{r}").is_err() {
                break;
            }
        }
    }
    let out = child.wait_with_output().expect("ludus protocol ends");
    assert!(out.status.success(), "exit status {}", out.status);
    String::from_utf8(out.stdout)
        .expect("UTF-8 output")
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn protocol_doc_transcripts_are_what_ludus_answers() {
    let sessions = transcripts(PROTOCOL_DOC);
    assert!(
        sessions.len() >= 10,
        "only {} transcripts found",
        sessions.len()
    );
    let mut ops = std::collections::BTreeSet::new();
    for (requests, expected) in &sessions {
        for r in requests {
            if let Ok(v) = serde_json::from_str::<serde_json::Value>(r) {
                if let Some(op) = v.get("op").and_then(|o| o.as_str()) {
                    ops.insert(op.to_string());
                }
            }
        }
        let got = run_protocol(requests);
        assert_eq!(
            got.len(),
            expected.len(),
            "session starting {:?}: {} responses, the document shows {}",
            requests[0],
            got.len(),
            expected.len()
        );
        for (i, (g, e)) in got.iter().zip(expected).enumerate() {
            assert_eq!(
                g,
                e,
                "session starting {:?}, response {}",
                requests[0],
                i + 1
            );
        }
    }
    for op in [
        "load", "new", "state", "legal", "play", "roll", "set", "next", "go", "record", "quit",
    ] {
        assert!(ops.contains(op), "no transcript uses `{op}`");
    }
}

#[test]
fn bundled_games_name_public_sources() {
    for (name, _) in ludus::rules::BUNDLED {
        let out = Command::new(env!("CARGO_BIN_EXE_ludus"))
            .args(["show", name])
            .output()
            .expect("run ludus show");
        assert!(out.status.success(), "ludus show {name} failed");
        let text = String::from_utf8_lossy(&out.stdout).to_lowercase();
        for internal in ["seed 0", "spec section", "games.md", "shared/"] {
            assert!(
                !text.contains(internal),
                "`ludus show {name}` mentions `{internal}`"
            );
        }
    }
}
