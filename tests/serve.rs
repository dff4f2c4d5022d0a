//! `ludus serve` over HTTP: games played through the API in the protocol's STATE and MOVE
//! forms, records that replay, and bad requests answered 4xx without changing any game.

mod cli_common;
mod serve_common;

use cli_common::ludus;
use serde_json::{json, Value};
use serve_common::Served;
use std::io::{BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// Status and JSON body of a request (`body` None: no body).
fn call(method: &str, url: &str, body: Option<Value>) -> (u16, Value) {
    let request = ureq::request(method, url);
    let result = match body {
        Some(b) => request.send_json(b),
        None => request.call(),
    };
    let response = match result {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{method} {url}: {e}"),
    };
    let status = response.status();
    let text = response.into_string().expect("a body");
    let value = if text.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&text).unwrap_or_else(|_| json!({ "text": text }))
    };
    (status, value)
}

/// A new game's id and view.
fn new_game(s: &Served, request: Value) -> (String, Value) {
    let (status, v) = call("POST", &s.url("/api/games"), Some(request));
    assert_eq!(status, 201, "{v}");
    (v["id"].as_str().expect("an id").to_string(), v)
}

fn post(s: &Served, id: &str, op: &str, body: Option<Value>) -> (u16, Value) {
    call("POST", &s.url(&format!("/api/games/{id}/{op}")), body)
}

fn texts(v: &Value) -> Vec<String> {
    v["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_server_keeps_the_limits_it_was_started_with() {
    let s = Served::start_with(&[
        "--limit",
        "server_games=2",
        "--limit",
        "server_body_bytes=2000",
        "--limit",
        "server_think_seconds=1",
        "--limit",
        "server_steps=3",
    ]);
    let (id, _) = new_game(
        &s,
        json!({"rules": "oware", "first": 0, "seed": 1, "seats": ["human", "human"]}),
    );
    // Three steps (the start and two moves), then the game is full: a third move is refused.
    for pit in ["1", "1"] {
        let (status, v) = post(&s, &id, "move", Some(json!({"move": pit})));
        assert_eq!(status, 200, "{pit}: {v}");
    }
    let (status, v) = post(&s, &id, "move", Some(json!({"move": "2"})));
    assert_eq!(status, 409, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("reached 3 steps"),
        "{v}"
    );
    let (status, v) = call(
        "POST",
        &s.url("/api/games"),
        Some(json!({"rules": "oware", "seats": ["human", "mcts:2s"]})),
    );
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("at most 1s"), "{v}");
    new_game(&s, json!({"rules": "kalah"}));
    let (status, v) = call(
        "POST",
        &s.url("/api/games"),
        Some(json!({"rules": "oware"})),
    );
    assert_eq!(status, 503, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("holds 2 games"),
        "{v}"
    );
    let text = format!("# {}", "x".repeat(3000));
    let (status, v) = call("POST", &s.url("/api/check"), Some(json!({"text": text})));
    assert_eq!(status, 413, "{v}");
    assert!(v["error"].as_str().unwrap().contains("at most 2000"), "{v}");
}

#[test]
fn the_page_and_its_assets_are_served_from_the_binary_and_name_nothing_online() {
    let s = Served::start();
    // The icon, where the page names it and where browsers look for one unasked.
    for path in ["/favicon.svg", "/favicon.ico"] {
        let r = ureq::get(&s.url(path)).call().expect(path);
        assert_eq!(r.content_type(), "image/svg+xml", "{path}");
        assert!(r.into_string().unwrap().starts_with("<svg"), "{path}");
    }
    for (path, kind) in [
        ("/", "text/html"),
        ("/app.js", "text/javascript"),
        ("/style.css", "text/css"),
    ] {
        let r = ureq::get(&s.url(path)).call().expect(path);
        assert!(
            r.content_type().starts_with(kind),
            "{path}: {}",
            r.content_type()
        );
        let text = r.into_string().unwrap();
        assert!(
            !text.contains("http://") && !text.contains("https://"),
            "{path} loads something from the network"
        );
    }
    let (status, v) = call("GET", &s.url("/api/rules"), None);
    assert_eq!(status, 200);
    let names: Vec<&str> = v["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"oware") && names.contains(&"backgammon") && names.len() >= 20,
        "{names:?}"
    );
    let (status, v) = call("GET", &s.url("/nothing-here"), None);
    assert_eq!(status, 404);
    assert!(v["error"].as_str().unwrap().contains("no such"), "{v}");
}

#[test]
fn an_oware_game_is_played_answered_undone_and_its_record_replays() {
    let s = Served::start();
    let (id, v) = new_game(
        &s,
        json!({"rules": "oware", "seats": ["human", "greedy"], "first": 0, "seed": 7}),
    );
    assert_eq!(id.len(), 32);
    assert_eq!(
        v["state"]["pits"],
        json!([[4, 4, 4, 4, 4, 4], [4, 4, 4, 4, 4, 4]])
    );
    assert_eq!(v["awaiting"], "move");
    assert_eq!(v["computer"], false);
    assert_eq!(texts(&v), ["1", "2", "3", "4", "5", "6"]);
    // Each legal move carries the position it leads to.
    assert_eq!(
        v["legal"][2]["after"]["pits"],
        json!([[4, 4, 0, 5, 5, 5], [5, 4, 4, 4, 4, 4]])
    );
    assert!(v["svg"]
        .as_str()
        .unwrap()
        .contains(r#"data-side="0" data-pit="3""#));

    let (status, v) = post(&s, &id, "move", Some(json!({"move": "3"})));
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        v["state"]["pits"],
        json!([[4, 4, 0, 5, 5, 5], [5, 4, 4, 4, 4, 4]])
    );
    assert_eq!(
        (v["awaiting"].as_str(), v["computer"].as_bool()),
        (Some("move"), Some(true))
    );
    // A person may not move for the computer, nor the computer for a person.
    let (status, refused) = post(&s, &id, "move", Some(json!({"move": "1"})));
    assert_eq!(status, 409, "{refused}");
    assert!(
        refused["error"].as_str().unwrap().contains("computer"),
        "{refused}"
    );
    let (status, v) = post(&s, &id, "computer", None);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["state"]["to_move"], 0);
    // After a change, the move list carries only the steps it added.
    assert_eq!(
        (v["log_from"].as_u64(), v["log"].as_array().unwrap().len()),
        (Some(2), 1)
    );
    assert_eq!(v["log"][0]["player"], 1);
    assert_eq!(v["thought"]["player"], "greedy");
    let (status, refused) = post(&s, &id, "computer", None);
    assert_eq!(status, 409, "{refused}");
    assert!(
        refused["error"].as_str().unwrap().contains("person"),
        "{refused}"
    );

    // Undo takes back the person's move and the answer to it.
    let (status, v) = post(&s, &id, "undo", None);
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        v["state"]["pits"],
        json!([[4, 4, 4, 4, 4, 4], [4, 4, 4, 4, 4, 4]])
    );
    assert_eq!(
        (v["log_from"].as_u64(), v["log"][0]["text"].as_str()),
        (Some(3), Some("2 steps taken back"))
    );
    assert_eq!(v["undoable"], false);
    let (status, _) = post(&s, &id, "undo", None);
    assert_eq!(status, 409);
    // Every step stays reviewable.
    let (status, at1) = call("GET", &s.url(&format!("/api/games/{id}?at=1")), None);
    assert_eq!(status, 200);
    assert_eq!(
        at1["state"]["pits"],
        json!([[4, 4, 0, 5, 5, 5], [5, 4, 4, 4, 4, 4]])
    );
    assert_eq!(
        (
            at1["live"].as_bool(),
            at1["legal"].as_array().unwrap().len()
        ),
        (Some(false), 0)
    );
    let (status, _) = call("GET", &s.url(&format!("/api/games/{id}?at=99")), None);
    assert_eq!(status, 400);

    let (status, v) = post(&s, &id, "move", Some(json!({"move": "6"})));
    assert_eq!(status, 200, "{v}");
    post(&s, &id, "computer", None);
    let (status, hint) = post(&s, &id, "hint", None);
    assert_eq!(status, 200, "{hint}");
    assert!(!hint["moves"].as_array().unwrap().is_empty(), "{hint}");

    // The record replays with `ludus replay`, and as a served game.
    let response = ureq::get(&s.url(&format!("/api/games/{id}/record")))
        .call()
        .unwrap();
    assert!(response
        .header("content-disposition")
        .unwrap()
        .contains("oware.ludus.jsonl"));
    let record = response.into_string().unwrap();
    assert!(
        record.starts_with(r#"{"record":"ludus/1","rules":"oware""#),
        "{record}"
    );
    assert!(record.contains(r#"{"undo":2}"#), "{record}");
    let dir = std::env::temp_dir().join(format!("ludus-serve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.jsonl");
    std::fs::write(&file, &record).unwrap();
    let out = ludus(&["replay", file.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (_, replayed) = new_game(&s, json!({"record": record}));
    let original = call("GET", &s.url(&format!("/api/games/{id}")), None).1;
    assert_eq!(replayed["state"], original["state"]);
    assert_eq!(replayed["steps"], 6);
    assert_eq!(replayed["log"], original["log"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn backgammon_takes_rolled_and_typed_dice_and_moves_by_steps() {
    let s = Served::start();
    let (id, v) = new_game(
        &s,
        json!({"rules": "backgammon", "seats": ["human", "human"], "first": 0, "seed": 3}),
    );
    assert_eq!(
        (v["awaiting"].as_str(), v["state"]["phase"].as_str()),
        (Some("roll"), Some("roll"))
    );
    let (status, refused) = post(&s, &id, "roll", Some(json!({"dice": [7, 1]})));
    assert_eq!(status, 400, "{refused}");
    let (status, refused) = post(&s, &id, "move", Some(json!({"move": "13/7 8/7"})));
    assert_eq!(status, 409, "{refused}");
    let (status, v) = post(&s, &id, "roll", Some(json!({"dice": [6, 1]})));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["state"]["dice"], json!([6, 1]));
    let opening = v["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["text"] == "13/7 8/7")
        .expect("13/7 8/7");
    assert_eq!(opening["steps"].as_array().unwrap().len(), 2);
    let (status, v) = post(&s, &id, "move", Some(json!({"move": "13/7 8/7"})));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["state"]["points"][0][6], 2);
    assert_eq!(
        (v["state"]["to_move"].as_u64(), v["awaiting"].as_str()),
        (Some(1), Some("roll"))
    );
    // The server's own dice, then the board and its clickable points.
    let (status, v) = post(&s, &id, "roll", None);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["state"]["dice"].as_array().unwrap().len(), 2);
    let svg = v["svg"].as_str().unwrap();
    assert!(
        svg.contains(r#"data-p0="24" data-p1="1""#) && svg.contains(r#"data-spot="bar""#),
        "{svg}"
    );
    // Checkers entering from the pool (Acey-deucey) are clicked there.
    let (id, _) = new_game(
        &s,
        json!({"rules": "acey-deucey", "seats": ["human", "human"], "first": 0}),
    );
    let (_, v) = post(&s, &id, "roll", Some(json!({"dice": [6, 1]})));
    assert!(v["svg"].as_str().unwrap().contains(r#"data-spot="pool""#));
    assert_eq!(v["legal"][0]["steps"][0][0], "pool", "{}", v["legal"]);
}

#[test]
fn bad_requests_are_answered_4xx_with_a_message_and_change_nothing() {
    let s = Served::start();
    let (id, _) = new_game(
        &s,
        json!({"rules": "kalah", "seats": ["human", "human"], "first": 0}),
    );
    let game = s.url(&format!("/api/games/{id}"));
    let before = call("GET", &game, None).1;
    let refusals: Vec<(u16, &str, Option<Value>)> = vec![
        (400, "move", Some(json!({"move": "9"}))),
        (400, "move", Some(json!({"move": "x".repeat(10_000)}))),
        (422, "move", Some(json!({"mov": "1"}))),
        (422, "move", Some(json!({"move": 3}))),
        (422, "move", Some(json!({ "x".repeat(5000): 1 }))),
        (400, "roll", None),
        (400, "next", None),
        (409, "computer", None),
        (409, "undo", None),
        (400, "next", Some(json!({"first": 2}))),
    ];
    for (status, op, body) in refusals {
        let (got, v) = post(&s, &id, op, body.clone());
        assert_eq!(got, status, "{op} {body:?}: {v}");
        assert!(
            v["error"]
                .as_str()
                .is_some_and(|e| !e.is_empty() && e.len() < 400),
            "{v}"
        );
    }
    // Malformed and oversized bodies.
    let malformed = ureq::post(&format!("{game}/move"))
        .set("Content-Type", "application/json")
        .send_string("{not json");
    assert!(
        matches!(malformed, Err(ureq::Error::Status(400, _))),
        "{malformed:?}"
    );
    // A body over the limit is refused from its declared length, before it is read (written
    // by hand: a client still sending when the refusal comes would see its pipe broken).
    let address = s.base.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    let length = 5 << 20;
    write!(
        stream,
        "POST /api/games HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n\r\n{{\"text\":\""
    )
    .unwrap();
    let mut answer = String::new();
    let _ = BufReader::new(stream).read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(
        answer.contains(r#"{"error":"the request body has 5242880 bytes"#),
        "{answer}"
    );
    assert_eq!(call("GET", &game, None).1["version"], before["version"]);
    assert_eq!(call("GET", &game, None).1["state"], before["state"]);

    // Unknown games, paths instead of bundled names, bad players.
    assert_eq!(
        call(
            "GET",
            &s.url("/api/games/0123456789abcdef0123456789abcdef"),
            None
        )
        .0,
        404
    );
    for (request, status, words) in [
        (json!({"rules": "/etc/passwd"}), 404, "bundled"),
        (json!({"rules": "../rules/oware.toml"}), 404, "bundled"),
        (
            json!({"rules": "oware", "seats": ["human", "mcts:d3"]}),
            400,
            "time",
        ),
        (
            json!({"rules": "oware", "seats": ["human", "alphabeta:10m"]}),
            400,
            "budget",
        ),
        (
            json!({"rules": "oware", "seats": ["human", "mcts:60s"]}),
            400,
            "at most 30s",
        ),
        (
            json!({"rules": "backgammon", "seats": ["human", "net:d2"]}),
            400,
            "think for a time",
        ),
        (
            json!({"rules": "oware", "seats": ["human", "wizard"]}),
            400,
            "unknown player",
        ),
        (json!({"rules": "oware", "first": 3}), 400, "0 or 1"),
        (json!({"rules": "oware", "text": "[game]"}), 400, "either"),
        (json!({}), 400, "either"),
        (json!({"record": "not a record"}), 400, "record line 1"),
    ] {
        let (got, v) = call("POST", &s.url("/api/games"), Some(request.clone()));
        assert_eq!(got, status, "{request}: {v}");
        assert!(
            v["error"].as_str().unwrap().contains(words),
            "{request}: {v}"
        );
    }
    assert!(!call("GET", &s.url("/api/games/x"), None).1["error"]
        .as_str()
        .unwrap()
        .contains("passwd"));
}

#[test]
fn an_uploaded_rules_file_plays_and_a_broken_one_is_located() {
    let s = Served::start();
    let text = std::fs::read_to_string("rules/kalah.toml").unwrap();
    let (_, v) = new_game(
        &s,
        json!({"text": text, "seats": ["human", "random"], "first": 0}),
    );
    assert_eq!(v["game"]["name"], "kalah");
    assert!(
        v["game"]["description"]
            .as_str()
            .unwrap()
            .starts_with("Kalah"),
        "{}",
        v["game"]
    );
    assert_eq!(v["game"]["rules"], "uploaded.toml");
    let broken = text.replacen("pits = 6", "pits = 99", 1);
    assert_ne!(broken, text);
    let line = broken
        .lines()
        .position(|l| l.contains("pits = 99"))
        .unwrap()
        + 1;
    let (status, v) = call("POST", &s.url("/api/games"), Some(json!({"text": broken})));
    assert_eq!(status, 400, "{v}");
    assert_eq!(v["diagnostics"][0]["line"], line, "{v}");
    assert_eq!(v["diagnostics"][0]["column"], 8, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains(&format!("line {line}, column 8")),
        "{v}"
    );
    let (status, v) = call("POST", &s.url("/api/check"), Some(json!({"text": broken})));
    assert_eq!(status, 200);
    assert_eq!(v["errors"], 1);
    assert_eq!(v["diagnostics"][0]["line"], line);
    // A rules text naming other files may name bundled games only: the disk is never read.
    let tavli = std::fs::read_to_string("rules/tavli.toml").unwrap();
    let elsewhere = tavli.replacen("\"portes\"", "\"/etc/passwd\"", 1);
    assert_ne!(elsewhere, tavli);
    let (status, v) = call(
        "POST",
        &s.url("/api/check"),
        Some(json!({"text": elsewhere})),
    );
    assert_eq!(status, 200);
    assert!(v["errors"].as_u64().unwrap() >= 1, "{v}");
    assert!(!v.to_string().contains("root:"), "{v}");
}

#[test]
fn a_first_turn_played_with_the_opponents_checkers_names_their_numbering() {
    // Julbahar: White starts and plays the first throw with Black's checkers; the view says the
    // steps are in Black's numbering, which the page's points carry as `data-p1`.
    let s = Served::start();
    let text = std::fs::read_to_string("docs/games/julbahar.toml").unwrap();
    let (id, v) = new_game(
        &s,
        json!({"text": text, "seats": ["human", "human"], "first": 0}),
    );
    // Before the roll too: the moves to come are written in Black's numbering.
    assert_eq!(v["numbering"].as_u64(), Some(1));
    let (_, v) = post(&s, &id, "roll", Some(json!({"dice": [6, 4]})));
    assert_eq!(
        (v["numbering"].as_u64(), v["state"]["to_move"].as_u64()),
        (Some(1), Some(0))
    );
    assert!(v["svg"].as_str().unwrap().contains(r#"data-p1="24""#));
    let texts: Vec<&str> = (v["legal"].as_array().unwrap().iter())
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["24/20 24/18", "24/14"], "{v}");
    let (status, v) = post(&s, &id, "move", Some(json!({"move": "24/14"})));
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        (
            v["state"]["points"][1][13].as_u64(),
            v["state"]["points"][0][23].as_u64()
        ),
        (Some(1), Some(15))
    );
    // Then Black rolls and moves its own checkers, in its own numbering.
    let (_, v) = post(&s, &id, "roll", Some(json!({"dice": [6, 4]})));
    assert_eq!(
        (v["numbering"].as_u64(), v["state"]["to_move"].as_u64()),
        (Some(1), Some(1))
    );
}

#[test]
fn a_match_goes_on_to_its_next_game_and_shows_its_standing() {
    let s = Served::start();
    let (id, v) = new_game(
        &s,
        json!({"rules": "sat-gharva", "seats": ["greedy", "greedy"], "first": 0, "seed": 1}),
    );
    assert_eq!(v["state"]["match"]["game"], 1);
    let mut v = v;
    for _ in 0..3000 {
        if v["awaiting"] != "move" {
            break;
        }
        v = post(&s, &id, "computer", None).1;
    }
    assert_eq!(v["awaiting"], "next game", "{}", v["status"]);
    assert!(
        v["status"].as_str().unwrap().contains("round 1"),
        "{}",
        v["status"]
    );
    let (status, v) = post(&s, &id, "next", None);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["state"]["match"]["game"], 2);
    assert!(v["log"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["text"].as_str().unwrap().starts_with("game 2")));
}

#[test]
fn every_route_the_readme_lists_is_served() {
    let readme = include_str!("../docs/playing.md");
    let s = Served::start();
    let (id, _) = new_game(
        &s,
        json!({"rules": "oware", "seats": ["human", "human"], "first": 0}),
    );
    let mut routes = 0;
    for row in readme.lines().filter(|l| {
        l.starts_with("| `GET /") || l.starts_with("| `POST /") || l.starts_with("| `DELETE /")
    }) {
        let route = row[3..].split('`').next().unwrap();
        let (method, path) = route.split_once(' ').unwrap();
        let path = path.replace("{id}", &id);
        if path.ends_with("/events") {
            // A stream that goes on while the game lives: its head is enough.
            let response = ureq::get(&s.url(&path)).call().expect("the events");
            assert_eq!(response.content_type(), "text/event-stream", "{route}");
            routes += 1;
            continue;
        }
        // The route exists: whatever the body, the answer is not "no such route" (404 with
        // that message) nor "method not allowed" (405).
        let (status, v) = call(
            method,
            &s.url(&path),
            if method == "POST" {
                Some(json!({}))
            } else {
                None
            },
        );
        assert!(
            status != 405 && !(status == 404 && v.to_string().contains("no such page")),
            "{route}: {status} {v}"
        );
        routes += 1;
    }
    assert_eq!(routes, 17, "the README's API table changed");
}

#[test]
fn an_offer_to_end_is_answered_by_the_computer_or_by_the_person_opposite() {
    let s = Served::start();
    // Uuholo allows an ending by agreement; level at the start, the computer accepts.
    let (id, v) = new_game(
        &s,
        json!({"rules": "uuholo", "seats": ["human", "greedy"], "first": 0}),
    );
    assert_eq!(v["may_end"], true);
    let (status, v) = post(&s, &id, "end", None);
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        (v["accepted"].as_bool(), v["awaiting"].as_str()),
        (Some(true), Some("nothing"))
    );
    assert!(v["state"]["result"]["reason"].as_str().is_some(), "{v}");
    let record = ureq::get(&s.url(&format!("/api/games/{id}/record")))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    assert!(record.contains(r#"{"agreed":true}"#), "{record}");
    let (_, replayed) = new_game(&s, json!({"record": record}));
    assert_eq!(replayed["awaiting"], "nothing");

    // A person opposite answers through `accepted`; a refusal changes nothing.
    let (id, _) = new_game(
        &s,
        json!({"rules": "uuholo", "seats": ["human", "human"], "first": 0}),
    );
    let (status, refused) = post(&s, &id, "end", None);
    assert_eq!(status, 400, "{refused}");
    let (status, v) = post(&s, &id, "end", Some(json!({"accepted": false})));
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        (
            v["accepted"].as_bool(),
            v["awaiting"].as_str(),
            v["steps"].as_u64()
        ),
        (Some(false), Some("move"), Some(1))
    );
    // Rules without it refuse.
    let (id, v) = new_game(&s, json!({"rules": "oware", "seats": ["human", "human"]}));
    assert_eq!(v["may_end"], false);
    let (status, refused) = post(&s, &id, "end", Some(json!({"accepted": true})));
    assert_eq!(status, 409, "{refused}");
}

#[test]
fn a_resignation_is_answered_by_the_computer_or_by_the_person_opposite() {
    let s = Served::start();
    // At the start a single game is all the computer expects: it accepts.
    let (id, v) = new_game(
        &s,
        json!({"rules": "backgammon-money", "seats": ["human", "net"], "first": 0}),
    );
    assert_eq!(v["may_resign"], true);
    let (status, v) = post(&s, &id, "resign", None);
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        (
            v["accepted"].as_bool(),
            v["state"]["result"]["reason"].as_str()
        ),
        (Some(true), Some("resigned"))
    );
    let record = ureq::get(&s.url(&format!("/api/games/{id}/record")))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    assert!(record.contains(r#"{"resigned":"single"}"#), "{record}");
    let (_, replayed) = new_game(&s, json!({"record": record}));
    assert_eq!(replayed["awaiting"], "nothing");
    // A person opposite answers; a bad level is refused; sowing games have none.
    let (id, _) = new_game(
        &s,
        json!({"rules": "backgammon", "seats": ["human", "human"], "first": 0}),
    );
    let (status, _) = post(&s, &id, "resign", Some(json!({"resign": "gammon"})));
    assert_eq!(status, 400);
    let (status, v) = post(
        &s,
        &id,
        "resign",
        Some(json!({"resign": "triple", "accepted": true})),
    );
    assert_eq!(status, 400, "{v}");
    let (status, v) = post(
        &s,
        &id,
        "resign",
        Some(json!({"resign": "gammon", "accepted": false})),
    );
    assert_eq!((status, v["accepted"].as_bool()), (200, Some(false)), "{v}");
    let (id, v) = new_game(&s, json!({"rules": "oware", "seats": ["human", "human"]}));
    assert_eq!(v["may_resign"], false);
    let (status, refused) = post(&s, &id, "resign", Some(json!({"accepted": true})));
    assert_eq!(status, 409, "{refused}");
}

/// A raw connection to the server, reads timing out after `seconds`.
fn connect(s: &Served, seconds: u64) -> TcpStream {
    let c = TcpStream::connect(s.address()).expect("connect");
    c.set_read_timeout(Some(Duration::from_secs(seconds)))
        .unwrap();
    c
}

/// What the server sends before it closes the connection (or the read times out), and when.
fn answer(c: &mut TcpStream) -> (String, Duration) {
    let since = Instant::now();
    let mut got = Vec::new();
    let _ = c.read_to_end(&mut got);
    (String::from_utf8_lossy(&got).into_owned(), since.elapsed())
}

#[test]
fn slow_and_idle_connections_are_cut_off_and_each_client_has_a_share_of_connections() {
    let s = Served::start_with(&[
        "--limit",
        "server_request_seconds=1",
        "--limit",
        "server_client_connections=3",
    ]);
    // A connection that sends nothing, and one whose request head never ends, are closed after
    // the request time (not held for ever).
    let mut idle = connect(&s, 10);
    let mut head = connect(&s, 10);
    head.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").unwrap();
    for c in [&mut idle, &mut head] {
        let (got, after) = answer(c);
        assert!(got.is_empty(), "{got}");
        assert!(after < Duration::from_secs(5), "{after:?}");
    }
    // A body sent too slowly is answered 408, saying why.
    let mut body = connect(&s, 10);
    body.write_all(b"POST /api/check HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
        .unwrap();
    let (got, after) = answer(&mut body);
    assert!(got.starts_with("HTTP/1.1 408"), "{got}");
    assert!(got.contains("not all sent within 1 s"), "{got}");
    assert!(after < Duration::from_secs(5), "{after:?}");
    // Three connections open from this address: a fourth is refused at once, saying why
    // (once the server has taken the three in, which a loaded machine may delay).
    let got = refused_once_counted(&s, 3);
    assert!(got.starts_with("HTTP/1.1 503"), "{got}");
    assert!(got.contains("this address has 3 connections open"), "{got}");
    std::thread::sleep(Duration::from_millis(200));
    let (status, v) = call("GET", &s.url("/api/rules"), None);
    assert_eq!(status, 200, "{v}");

    // The whole server's cap, whoever connects.
    let s = Served::start_with(&["--limit", "server_connections=2"]);
    let got = refused_once_counted(&s, 2);
    assert!(got.contains("keeps 2 connections open"), "{got}");
}

/// The answer to one more connection once `open` are open, tried until the server refuses it
/// (at most five times, each after the server has had more time to take the open ones in; they
/// are opened anew each time, since an idle connection is closed after the request time).
fn refused_once_counted(s: &Served, open: usize) -> String {
    let mut got = String::new();
    for attempt in 1..=5 {
        let held: Vec<TcpStream> = (0..open).map(|_| connect(s, 10)).collect();
        std::thread::sleep(Duration::from_millis(100 * attempt));
        got = answer(&mut connect(s, 10)).0;
        drop(held);
        if got.starts_with("HTTP/1.1 503") {
            break;
        }
        // The connections just dropped are let go before the next try.
        std::thread::sleep(Duration::from_millis(300));
    }
    got
}

#[test]
fn ctrl_c_stops_the_server_even_while_clients_hold_half_sent_requests() {
    let mut s = Served::start();
    let mut head = connect(&s, 10);
    head.write_all(b"POST /api/check HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    let mut body = connect(&s, 10);
    body.write_all(b"POST /api/check HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
        .unwrap();
    let _idle = connect(&s, 10);
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        s.interrupt(Duration::from_secs(5)),
        "the server did not stop within 5 s of Ctrl-C"
    );
}

#[test]
fn each_client_holds_a_share_of_the_games_and_their_memory_is_bounded() {
    let s = Served::start_with(&["--limit", "server_client_games=2"]);
    let game = json!({"rules": "oware", "seats": ["human", "human"]});
    let (first, _) = new_game(&s, game.clone());
    new_game(&s, game.clone());
    let (status, v) = call("POST", &s.url("/api/games"), Some(game.clone()));
    assert_eq!(status, 429, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("holds 2 games, the most one client may"),
        "{v}"
    );
    let (status, _) = call("DELETE", &s.url(&format!("/api/games/{first}")), None);
    assert_eq!(status, 204);
    new_game(&s, game.clone());

    // A small memory budget: games are refused once the held ones take it, with the reason;
    // the server goes on answering, and dropping games makes room again.
    let s = Served::start_with(&["--limit", "server_bytes=40000"]);
    let mut held = Vec::new();
    let refused = loop {
        let (status, v) = call("POST", &s.url("/api/games"), Some(game.clone()));
        if status != 201 {
            break (status, v);
        }
        held.push(v["id"].as_str().unwrap().to_string());
        assert!(held.len() < 100, "no game refused in a 40000-byte budget");
    };
    assert!(held.len() >= 2, "{held:?}");
    assert_eq!(refused.0, 503, "{}", refused.1);
    assert!(
        refused.1["error"]
            .as_str()
            .unwrap()
            .contains("take 40000 bytes of memory"),
        "{}",
        refused.1
    );
    // Moves go on until the held games take the budget, then are refused too (each kept
    // position counts); a view is still answered.
    let (_, mut v) = call("GET", &s.url(&format!("/api/games/{}", held[0])), None);
    let mut moves = 0;
    let refused = loop {
        let legal = texts(&v);
        assert!(!legal.is_empty() && moves < 500, "no move refused: {v}");
        let (status, after) = post(&s, &held[0], "move", Some(json!({"move": legal[0]})));
        if status != 200 {
            break (status, after);
        }
        (moves, v) = (moves + 1, after);
    };
    assert_eq!(refused.0, 503, "{}", refused.1);
    assert!(
        refused.1["error"].as_str().unwrap().contains("of memory"),
        "{}",
        refused.1
    );
    let (status, _) = call("GET", &s.url(&format!("/api/games/{}", held[0])), None);
    assert_eq!(status, 200);
    for id in &held {
        let (status, _) = call("DELETE", &s.url(&format!("/api/games/{id}")), None);
        assert_eq!(status, 204);
    }
    new_game(&s, game);
}

#[test]
fn a_turn_of_a_hundred_thousand_moves_is_played_step_by_step_in_bounded_memory() {
    let s = Served::start();
    let rules = include_str!("data/spread-deucey.toml");
    let (id, _) = new_game(
        &s,
        json!({"text": rules, "seats": ["human", "human"], "first": 0, "seed": 1}),
    );
    let (status, mut view) = post(&s, &id, "roll", Some(json!({"dice": [1, 2]})));
    assert_eq!(status, 200, "{view}");
    // Acey-deucey's 1-2 with the checkers spread (146,771 whole moves): each view lists the
    // steps of one die, and the turn is played one of them at a time.
    let mut steps = 0;
    while view["state"]["phase"] == json!("move") {
        let legal = texts(&view);
        assert_eq!(view["legal_count"], json!(legal.len()));
        assert!((1..=160).contains(&legal.len()), "{legal:?}");
        assert!(
            view.to_string().len() < 1_000_000,
            "a view of {} bytes",
            view.to_string().len()
        );
        let (status, after) = post(&s, &id, "move", Some(json!({"move": legal[0]})));
        assert_eq!(status, 200, "{after}");
        view = after;
        steps += 1;
    }
    assert_eq!(steps, 6, "{}", view["state"]);
    let status = std::fs::read_to_string(format!("/proc/{}/status", s.pid()));
    if let Some(line) = status.ok().and_then(|t| {
        t.lines()
            .find(|l| l.starts_with("VmHWM:"))
            .map(String::from)
    }) {
        let kb: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        assert!(kb < 200 << 10, "the server's peak memory: {kb} KB");
    }
}

/// The events of a game's stream, read from a raw connection: each `data:` line's JSON.
struct Events(BufReader<TcpStream>);

impl Events {
    fn open(s: &Served, link: &str) -> Events {
        let mut c = connect(s, 5);
        write!(
            c,
            "GET /api/games/{link}/events HTTP/1.1\r\nHost: ludus\r\n\r\n"
        )
        .unwrap();
        let mut events = Events(BufReader::new(c));
        let head = events.line();
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        while !events.line().trim().is_empty() {}
        events
    }

    fn line(&mut self) -> String {
        let mut line = String::new();
        std::io::BufRead::read_line(&mut self.0, &mut line).expect("a line of the stream");
        line
    }

    /// The next event's count of changes.
    fn next(&mut self) -> u64 {
        loop {
            let line = self.line();
            if let Some(data) = line.trim().strip_prefix("data:") {
                let v: Value = serde_json::from_str(data.trim()).expect("JSON data");
                return v["changes"].as_u64().expect("a count");
            }
        }
    }
}

#[test]
fn a_move_is_played_out_stone_by_stone_for_every_link_and_bad_steps_are_refused() {
    let s = Served::start();
    let (id, v) = new_game(
        &s,
        json!({"rules": "oware", "seats": ["human", "friend"], "first": 0, "seed": 1}),
    );
    let friend = v["links"]["friends"][1].as_str().unwrap().to_string();
    let watch = v["links"]["watch"].as_str().unwrap().to_string();
    assert_eq!(post(&s, &id, "move", Some(json!({"move": "3"}))).0, 200);
    let moments = |link: &str, query: &str| {
        call(
            "GET",
            &s.url(&format!("/api/games/{link}/moments{query}")),
            None,
        )
    };
    // South's pit 3: lifted (4 in hand), then a stone into pits 4, 5 and 6; the last, into
    // North's pit 1, is the position after the move.
    for link in [&id, &friend, &watch] {
        let (status, m) = moments(link, "");
        assert_eq!(status, 200, "{m}");
        assert_eq!(m["step"], 1);
        let list = m["moments"].as_array().unwrap();
        let hands: Vec<u64> = list.iter().map(|x| x["hand"].as_u64().unwrap()).collect();
        assert_eq!(hands, [4, 3, 2, 1], "{m}");
        assert_eq!(
            list[1]["state"]["pits"],
            json!([[4, 4, 0, 5, 4, 4], [4, 4, 4, 4, 4, 4]])
        );
        assert!(list[1]["svg"].as_str().unwrap().starts_with("<svg"));
    }
    // The same moments by the step's number; none for the start; bad steps refused.
    assert_eq!(moments(&id, "?step=1").1, moments(&id, "").1);
    assert_eq!(moments(&id, "?step=0").1["moments"], json!([]));
    for (query, says) in [
        ("?step=2", "step 2 does not exist"),
        ("?step=-1", "invalid digit"),
        ("?stp=1", "unknown field"),
    ] {
        let (status, m) = moments(&id, query);
        assert_eq!(status, 400, "{query}: {m}");
        assert!(m["error"].as_str().unwrap().contains(says), "{query}: {m}");
    }
    assert_eq!(moments(&"0".repeat(32), "").0, 404);
    // Backgammon's moves are shown whole.
    let (bg, _) = new_game(
        &s,
        json!({"rules": "backgammon", "seats": ["human", "human"], "first": 0, "seed": 1}),
    );
    assert_eq!(post(&s, &bg, "roll", Some(json!({"dice": [3, 1]}))).0, 200);
    assert_eq!(
        post(&s, &bg, "move", Some(json!({"move": "8/5 6/5"}))).0,
        200
    );
    assert_eq!(moments(&bg, "").1["moments"], json!([]));
}

#[test]
fn a_friend_plays_by_their_own_link_spectators_watch_and_no_link_moves_for_another() {
    let s = Served::start();
    let (id, v) = new_game(
        &s,
        json!({"rules": "oware", "seats": ["human", "friend"], "first": 0, "seed": 1}),
    );
    assert_eq!(
        (&v["access"], &v["you"], &v["seats"], &v["turn"]),
        (
            &json!("owner"),
            &json!([true, false]),
            &json!(["human", "friend"]),
            &json!(0)
        )
    );
    assert!(v["links"]["friends"][0].is_null(), "{}", v["links"]);
    let friend = v["links"]["friends"][1].as_str().unwrap().to_string();
    let watch = v["links"]["watch"].as_str().unwrap().to_string();
    assert!(friend.len() == 32 && watch.len() == 32 && friend != id && watch != friend);

    // The friend's page follows the game: an event as it opens, one after each change.
    let mut follows = Events::open(&s, &friend);
    let opened = follows.next();
    assert_eq!(opened, v["changes"].as_u64().unwrap());

    // Out of turn, the friend's link moves nothing; the owner's move is announced at once.
    let (status, refused) = post(&s, &friend, "move", Some(json!({"move": "1"})));
    assert_eq!(status, 403, "{refused}");
    assert!(
        refused["error"].as_str().unwrap().contains("South's turn"),
        "{refused}"
    );
    let sent = Instant::now();
    let (status, v) = post(&s, &id, "move", Some(json!({"move": "3"})));
    assert_eq!(status, 200, "{v}");
    assert_eq!(follows.next(), opened + 1);
    assert!(
        sent.elapsed() < Duration::from_secs(1),
        "{:?}",
        sent.elapsed()
    );

    // The friend's view: their seat, the board from their side, none of the other links.
    let (status, theirs) = call("GET", &s.url(&format!("/api/games/{friend}")), None);
    assert_eq!(status, 200);
    assert_eq!(
        (&theirs["access"], &theirs["you"], &theirs["id"]),
        (&json!("seat"), &json!([false, true]), &json!(friend))
    );
    assert!(theirs.get("links").is_none(), "{theirs}");
    assert_eq!(theirs["state"], v["state"]);
    assert_ne!(theirs["svg"], v["svg"], "drawn from North's side");

    // Nobody else moves for the friend: not the owner, not a spectator, not a made-up link.
    let before = v["steps"].clone();
    let (status, refused) = post(&s, &id, "move", Some(json!({"move": "1"})));
    assert_eq!(status, 403, "{refused}");
    assert!(
        refused["error"].as_str().unwrap().contains("own link"),
        "{refused}"
    );
    for op in ["move", "undo", "next", "computer", "hint", "resign"] {
        let body = (op == "move").then(|| json!({"move": "1"}));
        let (status, refused) = post(&s, &watch, op, body);
        assert_eq!(status, 403, "{op}: {refused}");
    }
    let (status, _) = call("DELETE", &s.url(&format!("/api/games/{watch}")), None);
    assert_eq!(status, 403);
    let (status, _) = call("DELETE", &s.url(&format!("/api/games/{friend}")), None);
    assert_eq!(status, 403);
    let made_up = "0".repeat(32);
    let (status, _) = post(&s, &made_up, "move", Some(json!({"move": "1"})));
    assert_eq!(status, 404);
    let (status, _) = call("GET", &s.url(&format!("/api/games/{made_up}/events")), None);
    assert_eq!(status, 404, "no stream of a game that is not there");
    let (status, e) = call("GET", &s.url(&format!("/api/games/{friend}?from=x")), None);
    assert_eq!(status, 400, "{e}");
    let (status, e) = post(&s, &id, "answer", Some(json!({"accepted": "yes"})));
    assert_eq!(status, 422, "{e}");
    let (status, e) = call(
        "POST",
        &s.url("/api/games"),
        Some(json!({"rules": "oware", "seats": ["human", "frend"]})),
    );
    assert_eq!(status, 400, "{e}");
    assert!(e["error"].as_str().unwrap().contains("`friend`"), "{e}");
    let (_, watched) = call("GET", &s.url(&format!("/api/games/{watch}")), None);
    assert_eq!(
        (&watched["access"], &watched["you"], &watched["steps"]),
        (&json!("watcher"), &json!([false, false]), &before)
    );
    assert_eq!(watched["undoable"], false);

    // The friend moves; the owner cannot take that back, the friend can, before South plays on.
    let (status, v) = post(&s, &friend, "move", Some(json!({"move": "1"})));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["log"][0]["text"], "North plays 1");
    assert_eq!(follows.next(), opened + 2);
    let (status, _) = post(&s, &id, "undo", None);
    assert_eq!(status, 403);
    let (status, v) = post(&s, &friend, "undo", None);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["turn"], 1);
    let (_, v) = post(&s, &friend, "move", Some(json!({"move": "2"})));
    assert_eq!(v["turn"], 0);
    let (status, _) = post(&s, &id, "move", Some(json!({"move": "4"})));
    assert_eq!(status, 200);
    let (status, refused) = post(&s, &friend, "undo", None);
    assert_eq!(status, 403, "South has played on: {refused}");

    // The record holds both people's moves.
    let record = ureq::get(&s.url(&format!("/api/games/{watch}/record")))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    let moves = record.lines().filter(|l| l.starts_with(r#"{"move""#));
    assert_eq!(moves.count(), 4, "{record}");
}

#[test]
fn an_offer_to_a_friend_waits_for_their_answer_on_their_link() {
    let s = Served::start();
    let (id, v) = new_game(
        &s,
        json!({"rules": "backgammon", "seats": ["friend", "human"], "first": 0, "seed": 2}),
    );
    assert_eq!(v["you"], json!([false, true]));
    let friend = v["links"]["friends"][0].as_str().unwrap().to_string();
    // White (the friend) resigns a gammon: nobody answers for Black but Black's link.
    let (status, refused) = post(
        &s,
        &friend,
        "resign",
        Some(json!({"resign": "gammon", "accepted": true})),
    );
    assert_eq!(status, 400, "the friend cannot answer for Black: {refused}");
    let (status, v) = post(&s, &friend, "resign", Some(json!({"resign": "gammon"})));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["accepted"], Value::Null);
    assert_eq!(v["offer"], json!({"by": 0, "what": "gammon"}));
    assert_eq!(v["awaiting"], "roll");
    let (status, _) = post(&s, &friend, "answer", Some(json!({"accepted": true})));
    assert_eq!(status, 403, "the friend cannot answer their own offer");
    // Declined: play goes on and the offer is gone.
    let (status, v) = post(&s, &id, "answer", Some(json!({"accepted": false})));
    assert_eq!(status, 200, "{v}");
    assert_eq!((&v["accepted"], &v["offer"]), (&json!(false), &Value::Null));
    let (status, _) = post(&s, &id, "answer", Some(json!({"accepted": true})));
    assert_eq!(status, 409, "no offer awaits");
    // An offer lapses once the game changes.
    post(&s, &friend, "resign", None);
    let (status, v) = post(&s, &friend, "roll", None);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["offer"], Value::Null);
    let (status, _) = post(&s, &id, "answer", Some(json!({"accepted": true})));
    assert_eq!(status, 409);
    // Accepted: the game ends as resigned.
    post(&s, &friend, "resign", None);
    let (status, v) = post(&s, &id, "answer", Some(json!({"accepted": true})));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["state"]["result"]["reason"], "resigned");
    assert_eq!(v["state"]["result"]["winner"], 1);
}
