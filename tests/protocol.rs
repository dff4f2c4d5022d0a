//! `ludus protocol` driven as a subprocess: every request of the spec, and bad requests
//! answered with `ok:false` without ending the session or changing the game.

mod cli_common;

use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};

/// Sends the requests (one a line) and returns the parsed responses and the exit status.
fn session(requests: &[&str]) -> (Vec<Value>, i32) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .arg("protocol")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start ludus protocol");
    {
        let mut stdin = child.stdin.take().unwrap();
        for r in requests {
            writeln!(stdin, "{r}").unwrap();
        }
    }
    let out = child.wait_with_output().unwrap();
    let responses = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("unparsable response {l:?}: {e}"))
        })
        .collect();
    (responses, out.status.code().unwrap_or(-1))
}

fn ok(v: &Value) -> bool {
    v["ok"] == json!(true)
}

#[test]
fn malformed_requests_are_answered_not_fatal() {
    let (r, code) = session(&[
        "this is not json",
        "{\"op\": 3}",
        "{\"op\":\"fly\"}",
        "{\"op\":\"state\"}",
        "{\"op\":\"load\"}",
        "{\"op\":\"load\",\"rules\":\"no-such-game\"}",
        "[1,2,3]",
        "{\"op\":\"legl\"}",
    ]);
    assert_eq!(code, 0);
    assert_eq!(r.len(), 8, "{r:?}");
    for (i, resp) in r.iter().enumerate() {
        assert!(!ok(resp), "request {i} should fail: {resp}");
        assert!(
            resp["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{resp}"
        );
    }
    assert!(r[2]["error"].as_str().unwrap().contains("unknown op"));
    assert!(r[3]["error"].as_str().unwrap().contains("load"));
    assert!(r[5]["error"].as_str().unwrap().contains("no-such-game"));
    assert!(r[7]["error"]
        .as_str()
        .unwrap()
        .ends_with("; did you mean `legal`?"));
}

#[test]
fn a_key_given_twice_is_refused_by_name() {
    let oware = r#""pits":[[4,4,4,4,4,4],[4,4,4,4,4,4]],"stores":[0,0]"#;
    let (r, _) = session(&[
        r#"{"op":"load","rules":"oware"}"#,
        &format!(r#"{{"op":"set","state":{{"to_move":0,{oware},"to_move":1}}}}"#),
        r#"{"op":"state","op":"quit"}"#,
        &format!(r#"{{"op":"set","state":{{"to_move":1,{oware}}}}}"#),
    ]);
    assert_eq!(r.len(), 4, "{r:?}");
    for (i, key) in [(1, "to_move"), (2, "op")] {
        let error = r[i]["error"].as_str().unwrap_or_default();
        assert!(error.contains(&format!("duplicate key `{key}`")), "{error}");
    }
    // The refused `set` changed nothing; the same state with its key once is read.
    assert!(ok(&r[3]), "{}", r[3]);
    assert_eq!(r[3]["state"]["to_move"], json!(1));
}

#[test]
fn quit_ends_the_session_and_later_lines_are_ignored() {
    let (r, code) = session(&["{\"op\":\"quit\"}", "{\"op\":\"load\",\"rules\":\"oware\"}"]);
    assert_eq!(code, 0);
    assert_eq!(r.len(), 1);
    assert!(ok(&r[0]));
}

#[test]
fn a_broken_rules_file_answers_with_located_diagnostics() {
    let dir = std::env::temp_dir().join(format!("ludus-protocol-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("broken.toml");
    std::fs::write(&path, "[game]\nname = \"x\"\nfamily = \"cards\"\n").unwrap();
    let load = json!({"op": "load", "rules": path.to_str().unwrap()}).to_string();
    let (r, _) = session(&[&load]);
    let error = r[0]["error"].as_str().unwrap();
    assert!(error.contains("broken.toml:3:10"), "{error}");
    assert!(error.contains("unknown family"), "{error}");
}

#[test]
fn oware_session_covers_every_request() {
    let (r, code) = session(&[
        r#"{"op":"load","rules":"oware"}"#,
        r#"{"op":"new","seed":7,"first":0}"#,
        r#"{"op":"legal"}"#,
        r#"{"op":"play","move":"3"}"#,
        r#"{"op":"play","move":"3"}"#,
        r#"{"op":"play","move":"banana"}"#,
        r#"{"op":"state"}"#,
        r#"{"op":"roll"}"#,
        r#"{"op":"next"}"#,
        r#"{"op":"set","state":{"to_move":1,"pits":[[0,0,0,0,0,1],[0,0,0,0,0,1]],"stores":[24,22]}}"#,
        r#"{"op":"set","state":{"to_move":1,"pits":[[0,0,0,0,0,-1],[0,0,0,0,0,1]],"stores":[24,22]}}"#,
        r#"{"op":"new","first":2}"#,
        r#"{"op":"quit"}"#,
    ]);
    assert_eq!(code, 0);
    assert_eq!(r.len(), 13, "{r:?}");
    assert_eq!(
        r[0]["game"],
        json!({"name": "oware", "family": "sowing", "players": 2})
    );
    let start = &r[1]["state"];
    assert_eq!(
        start["pits"],
        json!([[4, 4, 4, 4, 4, 4], [4, 4, 4, 4, 4, 4]])
    );
    assert_eq!(start["to_move"], json!(0));
    assert_eq!(start["phase"], json!("move"));
    assert_eq!(start["result"], Value::Null);
    let pits: Vec<i64> = r[2]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["pit"].as_i64().unwrap())
        .collect();
    assert_eq!(pits, vec![1, 2, 3, 4, 5, 6]);
    assert_eq!(
        r[3]["state"]["pits"],
        json!([[4, 4, 0, 5, 5, 5], [5, 4, 4, 4, 4, 4]])
    );
    assert_eq!(r[3]["state"]["to_move"], json!(1));
    assert!(ok(&r[4]), "North's pit 3: {}", r[4]);
    assert!(!ok(&r[5]));
    // The failed move changed nothing.
    assert_eq!(r[6]["state"], r[4]["state"]);
    assert!(!ok(&r[7]), "no dice in oware");
    assert!(!ok(&r[8]), "no match in oware");
    assert!(ok(&r[9]), "{}", r[9]);
    assert_eq!(r[9]["state"]["to_move"], json!(1));
    assert!(!ok(&r[10]), "negative count accepted");
    assert!(!ok(&r[11]), "first 2 accepted");
}

#[test]
fn an_endless_line_is_refused_without_ending_the_session() {
    let huge = format!("{{\"op\":\"load\",\"rules\":\"{}\"}}", "x".repeat(3 << 20));
    let (r, code) = session(&[&huge, "{\"op\":\"load\",\"rules\":\"oware\"}"]);
    assert_eq!(code, 0);
    assert_eq!(r.len(), 2, "{r:?}");
    assert!(
        r[0]["error"].as_str().unwrap().contains("longer than"),
        "{}",
        r[0]
    );
    assert!(ok(&r[1]), "{}", r[1]);
}

/// The peak memory (resident) of a live process in bytes, where the system says (Linux).
fn peak_memory(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[test]
fn a_turn_of_a_hundred_thousand_moves_is_played_step_by_step_in_bounded_memory() {
    let mut session = cli_common::Protocol::start();
    let mut ask = |request: Value| session.ask(&request);
    let rules = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/spread-deucey.toml");
    assert!(ok(&ask(json!({"op": "load", "rules": rules})).0));
    assert!(ok(&ask(json!({"op": "new", "seed": 1, "first": 0})).0));
    assert!(ok(&ask(json!({"op": "roll", "dice": [1, 2]})).0));
    // Acey-deucey's 1-2 with the checkers spread (146,771 whole moves, with the double after):
    // one die at a time, until the turn is over.
    let mut steps = 0;
    loop {
        let (legal, bytes) = ask(json!({"op": "legal"}));
        let moves = legal["moves"].as_array().unwrap().clone();
        assert_eq!(legal["count"], json!(moves.len()));
        assert!((1..=160).contains(&moves.len()), "{legal}");
        assert!(bytes < 100_000, "one answer of {bytes} bytes");
        assert!(moves.iter().all(|m| m["die"].is_u64()), "{legal}");
        // Its last step, so that every answer has a different list.
        let text = moves.last().unwrap()["text"].as_str().unwrap();
        let (played, _) = ask(json!({"op": "play", "move": text}));
        assert!(ok(&played), "{played}");
        steps += 1;
        let state = &played["state"];
        if state["phase"] == json!("roll") {
            break;
        }
        assert_eq!(state["played"].as_array().unwrap().len(), steps, "{state}");
        assert_eq!(state["to_move"], json!(0));
    }
    // The 1 and the 2, then a double four times.
    assert_eq!(steps, 6);
    if let Some(peak) = peak_memory(session.pid()) {
        assert!(peak < 100 << 20, "the protocol's peak memory: {peak} bytes");
    }
}

/// A list longer than one answer holds (`listed_moves` lowered to 5 here) is paged.
#[test]
fn a_long_list_of_moves_is_paged() {
    let mut session = cli_common::Protocol::start_with(&["--limit", "listed_moves=5"]);
    let mut ask = |request: Value| session.ask(&request);
    assert!(ok(&ask(json!({"op": "load", "rules": "backgammon"})).0));
    assert!(ok(&ask(json!({"op": "new", "seed": 1, "first": 0})).0));
    assert!(ok(&ask(json!({"op": "roll", "dice": [1, 1]})).0));
    let texts = |v: &Value| -> Vec<String> {
        v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["text"].as_str().unwrap().to_string())
            .collect()
    };
    let (first, _) = ask(json!({"op": "legal"}));
    let count = first["count"].as_u64().unwrap() as usize;
    assert!(count > 10, "{first}");
    assert_eq!(texts(&first).len(), 5);
    let mut all = texts(&first);
    for from in (5..count).step_by(5) {
        let (page, _) = ask(json!({"op": "legal", "from": from}));
        assert_eq!(page["count"], json!(count));
        all.extend(texts(&page));
    }
    let distinct: std::collections::HashSet<&String> = all.iter().collect();
    assert_eq!((all.len(), distinct.len()), (count, count));
    let (beyond, _) = ask(json!({"op": "legal", "from": 1_000_000}));
    assert_eq!(beyond["moves"], json!([]));
    let (bad, _) = ask(json!({"op": "legal", "from": -1}));
    assert!(
        !ok(&bad) && bad["error"].as_str().unwrap().contains("`from`"),
        "{bad}"
    );
    // A move of the last page, not in the first answer, is played by its text.
    let (played, _) = ask(json!({"op": "play", "move": all[count - 1]}));
    assert!(ok(&played), "{played}");
}

#[test]
fn a_game_scattered_at_random_starts_from_a_deal_given() {
    let deal = json!([[2, 2, 2, 2, 2, 2, 72], [2, 2, 2, 2, 2, 2, 2]]);
    let new = json!({"op": "new", "first": 1, "deal": deal}).to_string();
    let bad =
        json!({"op": "new", "first": 0, "deal": [[2, 2, 2, 2, 2, 2, 71], [2, 2, 2, 2, 2, 2, 2]]})
            .to_string();
    let (r, _) = session(&[
        r#"{"op":"load","rules":"docs/games/mancala-games/mangala-iv.toml"}"#,
        &new,
        &bad,
        r#"{"op":"new","deal":[[2,2],[2,2]]}"#,
        r#"{"op":"new","deal":"lots"}"#,
        r#"{"op":"state"}"#,
        r#"{"op":"new","seed":3,"first":0}"#,
        r#"{"op":"record"}"#,
    ]);
    assert!(ok(&r[1]), "{}", r[1]);
    assert_eq!(r[1]["state"]["pits"], deal);
    assert_eq!(r[1]["state"]["to_move"], json!(1));
    let e = r[2]["error"].as_str().unwrap();
    assert!(e.contains("97 stones dealt, the rules scatter 98"), "{e}");
    assert!(
        r[3]["error"]
            .as_str()
            .unwrap()
            .contains("two lists of 7 pits"),
        "{}",
        r[3]
    );
    assert!(
        r[4]["error"]
            .as_str()
            .unwrap()
            .contains("`deal` must be two lists"),
        "{}",
        r[4]
    );
    // The refused requests changed nothing.
    assert_eq!(r[5]["state"], r[1]["state"]);
    // Drawn by the seed, and kept in the record's game line.
    let pits = &r[6]["state"]["pits"];
    let total: u64 = pits
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p.as_array().unwrap())
        .map(|c| c.as_u64().unwrap())
        .sum();
    assert_eq!(total, 98);
    assert_eq!(r[7]["record"][1]["deal"], *pits, "{}", r[7]);
}
