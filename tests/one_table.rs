//! Every front end plays at the same table: the same seeded game, seated alike, played through
//! `ludus play`, the protocol and `ludus serve`, gives the same record byte for byte (Python's
//! `ludus.Table` is compared in the Python package's tests). Games without dice, with dice,
//! and matches whose next games are started by the rules or by the starting ritual.

mod cli_common;
mod serve_common;

use serde_json::{json, Value};
use serve_common::Served;

/// The games compared: (rules, seats, seed, who starts: none for the rules' ritual).
const GAMES: [(&str, [&str; 2], u64, Option<u8>); 6] = [
    ("kalah", ["random", "greedy"], 3, Some(0)),
    ("oware", ["greedy", "random"], 11, Some(0)),
    ("backgammon", ["random", "greedy"], 5, Some(0)),
    // Backgammon's opening roll, drawn by the ritual in every front end.
    ("backgammon", ["greedy", "random"], 8, None),
    // A match whose next game the winner starts; one whose next round a ritual decides.
    ("tavli", ["greedy", "random"], 2, Some(0)),
    ("sat-gharva", ["greedy", "greedy"], 4, Some(0)),
];

fn terminal_record(rules: &str, seats: [&str; 2], seed: u64, first: Option<u8>) -> String {
    let dir = std::env::temp_dir().join(format!("ludus-one-table-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{rules}-{seed}.jsonl"));
    let seed_text = seed.to_string();
    let first_text = first.map(|p| p.to_string());
    let mut args = vec![
        "play",
        rules,
        "--south",
        seats[0],
        "--north",
        seats[1],
        "--seed",
        &seed_text,
        "--record",
        path.to_str().unwrap(),
    ];
    if let Some(p) = &first_text {
        args.extend(["--first", p]);
    }
    let out = cli_common::ludus(&args);
    assert!(out.status.success(), "{}", cli_common::stderr(&out));
    std::fs::read_to_string(&path).unwrap()
}

/// The protocol's client plays the seats itself: `go` with the seat's player, then `play`.
fn protocol_record(rules: &str, seats: [&str; 2], seed: u64, first: Option<u8>) -> String {
    let mut session = cli_common::Protocol::start();
    let mut ask = |request: Value| -> Value {
        let (answer, _) = session.ask(&request);
        assert_eq!(answer["ok"], true, "{request} -> {answer}");
        answer
    };
    ask(json!({"op": "load", "rules": rules}));
    let mut state =
        ask(json!({"op": "new", "seed": seed, "first": first, "players": seats}))["state"].clone();
    for _ in 0..100_000 {
        state = match state["phase"].as_str().unwrap() {
            "roll" => ask(json!({"op": "roll"}))["state"].clone(),
            "move" => {
                let p = state["to_move"].as_u64().unwrap() as usize;
                let chosen = ask(json!({"op": "go", "player": seats[p]}));
                let text = chosen["move"]["text"].as_str().unwrap().to_string();
                ask(json!({"op": "play", "move": text}))["state"].clone()
            }
            _ if state["match"].is_object() && state["match"]["over"] == false => {
                ask(json!({"op": "next"}))["state"].clone()
            }
            _ => break,
        };
    }
    let lines = ask(json!({"op": "record"}))["record"].clone();
    lines
        .as_array()
        .unwrap()
        .iter()
        .map(|l| format!("{l}\n"))
        .collect()
}

fn served_record(
    s: &Served,
    rules: &str,
    seats: [&str; 2],
    seed: u64,
    first: Option<u8>,
) -> String {
    let post = |path: &str, body: Value| -> Value {
        match ureq::post(&s.url(path)).send_json(body) {
            Ok(response) => response.into_json().unwrap(),
            Err(ureq::Error::Status(code, r)) => {
                panic!("POST {path}: {code} {}", r.into_string().unwrap())
            }
            Err(e) => panic!("POST {path}: {e}"),
        }
    };
    let mut v = post(
        "/api/games",
        json!({"rules": rules, "seats": seats, "first": first, "seed": seed}),
    );
    let id = v["id"].as_str().unwrap().to_string();
    for _ in 0..100_000 {
        let op = match v["awaiting"].as_str().unwrap() {
            "roll" => "roll",
            "move" => "computer",
            "next game" => "next",
            _ => break,
        };
        v = post(&format!("/api/games/{id}/{op}"), json!({}));
    }
    ureq::get(&s.url(&format!("/api/games/{id}/record")))
        .call()
        .unwrap()
        .into_string()
        .unwrap()
}

/// The protocol's JSON writes a header's keys in its own order: lines compared as JSON values
/// there, and as bytes between the terminal and the server.
fn as_values(record: &str) -> Vec<Value> {
    record
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn one_seeded_game_gives_one_record_in_every_front_end() {
    let s = Served::start();
    for (rules, seats, seed, first) in GAMES {
        let terminal = terminal_record(rules, seats, seed, first);
        assert!(
            terminal.lines().any(|l| l.starts_with("{\"end\"")),
            "{rules}: the game ends\n{terminal}"
        );
        let served = served_record(&s, rules, seats, seed, first);
        assert_eq!(served, terminal, "{rules}: the server's record");
        let protocol = protocol_record(rules, seats, seed, first);
        assert_eq!(
            as_values(&protocol),
            as_values(&terminal),
            "{rules}: the protocol's record"
        );
        if rules == "backgammon" && first.is_none() {
            // The opening roll: the starter's first roll is the two different dice thrown.
            let lines = as_values(&terminal);
            let (start, roll) = (&lines[1], &lines[2]["roll"]);
            assert!(start["first"].is_u64(), "{terminal}");
            let dice: Vec<u64> = serde_json::from_value(roll.clone()).unwrap();
            assert!(dice.len() == 2 && dice[0] > dice[1], "{terminal}");
        }
        if rules == "tavli" || rules == "sat-gharva" {
            assert!(
                terminal.contains("{\"game\":2,"),
                "{rules}: the match goes on to a second game\n{terminal}"
            );
        }
    }
}

/// Each computer move thinks with a seed of its own: seeded games of random players differ
/// from seed to seed (a game without dice once gave every move the same seed, and many seeds
/// the same game).
#[test]
fn seeded_random_games_differ_from_seed_to_seed() {
    let games: std::collections::HashSet<String> = (1..=8)
        .map(|seed| {
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_ludus"))
                .args(["play", "oware", "--south", "random", "--north", "random"])
                .args(["--seed", &seed.to_string()])
                .output()
                .expect("ludus runs");
            assert!(out.status.success());
            String::from_utf8_lossy(&out.stdout).into_owned()
        })
        .collect();
    assert_eq!(
        games.len(),
        8,
        "seeds 1 to 8 gave {} distinct games",
        games.len()
    );
}
