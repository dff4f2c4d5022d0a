//! Bad input gets a clear error that says where and why, and changes nothing: never a panic, a
//! hang, unbounded memory or a wrapped number. One test (at least) for every case found by
//! trying the program as an attacker would.

use ludus::game::{Game, Json, Phase};
use ludus::limits::LIMITS;
use ludus::protocol::Session;
use ludus::registry::{compile, AnyGame};
use rand::SeedableRng;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

const OWARE: &str = include_str!("../rules/oware.toml");
const SAT_GHARVA: &str = include_str!("../rules/sat-gharva.toml");

fn ludus(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run ludus")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn scratch(name: &str, content: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ludus-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, content).unwrap();
    path
}

fn first_error(text: &str) -> String {
    match compile(text) {
        Ok(_) => panic!("accepted"),
        Err(d) => d[0].message.clone(),
    }
}

// --- Rule values never wrap -------------------------------------------------------------------

#[test]
fn huge_stone_counts_are_refused_not_wrapped() {
    // 357913962 × 12 wraps a u32 to 1,272 stones; 2147483649 × 12 to 12 (one a pit).
    for stones in ["357913962", "2147483649", "4294967295", "22"] {
        let text = OWARE.replace("stones = 4", &format!("stones = {stones}"));
        assert_eq!(
            first_error(&text),
            "at most 255 stones in a game",
            "stones = {stones}"
        );
    }
    let text = OWARE.replace("stones = 4", "stones = 21");
    assert!(compile(&text).is_ok(), "252 stones fit");
}

#[test]
fn huge_refill_is_refused_not_wrapped() {
    let text = SAT_GHARVA.replace("refill = 7", "refill = 2147483649");
    let message = first_error(&text);
    assert_eq!(
        message,
        "`refill` must be from 1 to 49 (half the 98 stones)"
    );
}

#[test]
fn a_layout_whose_sum_wraps_is_refused() {
    let text = OWARE.replace(
        "stones = 4",
        "layout = [[4294967295, 1, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]]",
    );
    assert_eq!(first_error(&text), "at most 255 stones in a game");
}

// --- Reading a rules source -------------------------------------------------------------------

#[test]
fn only_regular_files_are_read() {
    for path in ["/dev/zero", "/dev/null", "/tmp"] {
        let o = ludus(&["validate", path]);
        assert_eq!(o.status.code(), Some(1), "{path}");
        assert!(
            stderr(&o).contains(&format!("`{path}` is not a regular file")),
            "{path}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn a_fifo_does_not_block_validate_or_the_protocol() {
    let dir = std::env::temp_dir().join(format!("ludus-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("rules.fifo");
    let status = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(status.success());
    let path = fifo.to_str().unwrap();
    // Nobody writes to the FIFO: a blocking open would hang here for ever.
    let o = ludus(&["validate", path]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("is not a regular file"),
        "{}",
        stderr(&o)
    );
    let mut session = Session::default();
    let (reply, _) = session.handle_line(&json!({"op": "load", "rules": path}).to_string());
    assert_eq!(reply["ok"], false);
    assert!(reply["error"]
        .as_str()
        .unwrap()
        .contains("not a regular file"));
}

#[test]
fn a_file_over_the_limit_is_refused() {
    let big = format!(
        "{OWARE}\n#{}\n",
        "x".repeat(LIMITS.rules_file_bytes as usize)
    );
    let path = scratch("big.toml", &big);
    let o = ludus(&["validate", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("larger than 1048576 bytes"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_file_that_is_not_utf8_names_its_line() {
    let mut bytes = OWARE.as_bytes().to_vec();
    let at = OWARE.find("stones = 4").unwrap();
    bytes[at] = 0xff;
    let line = OWARE[..at].matches('\n').count() + 1;
    let dir = std::env::temp_dir().join(format!("ludus-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("latin1.toml");
    std::fs::write(&path, bytes).unwrap();
    let o = ludus(&["validate", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains(&format!("is not UTF-8 text (line {line})")),
        "{}",
        stderr(&o)
    );
}

// --- Terminal input ---------------------------------------------------------------------------

#[test]
fn an_endless_input_line_in_play_is_an_error_not_an_abort() {
    let o = ludus(&[
        "play",
        "oware",
        "--south",
        "human",
        "--north",
        "random",
        "--first",
        "south",
        "--input",
        "/dev/zero",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("an input line is longer than 4096 bytes"),
        "{}",
        stderr(&o)
    );
}

// --- Output that cannot be written ------------------------------------------------------------

#[test]
fn a_full_disk_is_an_error_line_and_exit_1_not_a_panic() {
    let full = || std::fs::OpenOptions::new().write(true).open("/dev/full");
    for args in [
        &["list"][..],
        &["show", "oware"],
        &["validate", "oware"],
        &["play", "oware", "--south", "random", "--north", "random"],
        &["bench", "oware", "--seconds", "0.01"],
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_ludus"))
            .args(args)
            .stdout(full().expect("/dev/full"))
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).starts_with("error: cannot write to standard output"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

// --- Numbers on the command line --------------------------------------------------------------

#[test]
fn bench_seconds_must_be_a_positive_finite_number() {
    for seconds in ["NaN", "inf", "-5", "0", "1e9"] {
        let o = ludus(&["bench", "oware", &format!("--seconds={seconds}")]);
        assert_eq!(o.status.code(), Some(1), "{seconds}");
        assert!(
            stderr(&o).contains("--seconds must be a number of seconds above 0"),
            "{seconds}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn max_plies_zero_is_refused_as_in_a_rules_file() {
    let o = ludus(&["play", "oware", "--south", "random", "--max-plies", "0"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("--max-plies must be 1 to 100000, not 0"),
        "{}",
        stderr(&o)
    );
    let text = OWARE.replace("[end]", "[end]\nmax_plies = 0");
    assert_eq!(first_error(&text), "`max_plies` must be at least 1");
}

// --- Every game and match ends ----------------------------------------------------------------

/// Plays random moves (and dice) through whole matches; returns the final state.
fn play_out(game: &AnyGame, seed: u64) -> (ludus::registry::AnyState, u64) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut state = game.new_game(0);
    let mut moves = Vec::new();
    let mut steps = 0u64;
    loop {
        steps += 1;
        assert!(steps < 50_000_000, "no end after {steps} steps");
        match game.phase(&state) {
            Phase::Over => {
                let first = game
                    .next_starter(&state)
                    .unwrap_or_else(|| rand::Rng::gen_range(&mut rng, 0..2));
                match game.next_game(&state, first) {
                    Some(next) => state = next,
                    None => return (state, steps),
                }
            }
            Phase::Roll(_) => {
                let roll = game.dice().unwrap().sample(&mut rng);
                game.roll(&mut state, &roll).unwrap();
            }
            Phase::Move(_) => {
                game.legal_moves(&state, &mut moves);
                let i = rand::Rng::gen_range(&mut rng, 0..moves.len());
                game.play(&mut state, &moves[i]);
            }
        }
    }
}

#[test]
fn a_match_of_drawn_rounds_ends_at_the_match_guard() {
    // Every round ends drawn at once: nobody ever runs short of stones.
    let text = SAT_GHARVA.replace("\n[end]\n", "\n[end]\nscore = \"true\"\n");
    let game = compile(&text).unwrap();
    assert_eq!(game.guards().games, Some(LIMITS.games_per_match));
    let (end, _) = play_out(&game, 1);
    let standing = game.match_standing(&end).unwrap();
    assert!(standing.over);
    assert_eq!(standing.game, LIMITS.games_per_match);
    assert_eq!(standing.winner, None, "{standing:?}");
}

#[test]
fn a_tables_match_that_scores_nothing_ends_at_the_match_guard() {
    let text = include_str!("../rules/mughrabieh.toml")
        .replace("points = \"loser_left\"", "points = \"0\"");
    let game = compile(&text).unwrap();
    let (end, _) = play_out(&game, 2);
    let standing = game.match_standing(&end).unwrap();
    assert!(standing.over);
    assert_eq!(standing.game, LIMITS.games_per_match);
    assert_eq!(standing.points, [0, 0]);
    assert_eq!(standing.winner, None);
}

/// A tables game in which no checker can ever move: all start on the 24-point and may never
/// leave it, so every turn is a pass.
const PASSES: &str = r#"
[game]
name = "passes"
family = "tables"
[setup]
checkers = ["24:15", "24:15"]
[[moves.leave]]
point = 24
when = "false"
"#;

#[test]
fn a_tables_game_of_passes_ends_at_the_ply_guard() {
    let mut game = compile(PASSES).unwrap();
    let (end, steps) = play_out(&game, 4);
    assert_eq!(game.plies(&end), LIMITS.plies_per_game);
    let outcome = game.outcome(&end).unwrap();
    assert_eq!(outcome.winner, None);
    assert_eq!(outcome.reason, "drawn at the 100000-ply limit");
    // A roll and a pass a ply, and the last step sees the end.
    assert_eq!(steps, 2 * u64::from(LIMITS.plies_per_game) + 1);
    game.set_max_plies(500);
    let (end, _) = play_out(&game, 4);
    assert_eq!(game.plies(&end), 500);
    assert_eq!(
        game.outcome(&end).unwrap().reason,
        "drawn at the 500-ply limit"
    );
}

#[test]
fn bench_on_a_game_of_passes_returns() {
    let path = scratch("passes.toml", PASSES);
    let o = ludus(&["bench", path.to_str().unwrap(), "--seconds", "0.05"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("mean 100000.0 plies"), "{out}");
}

#[test]
fn show_says_which_guard_applies() {
    let out = |g: &str| String::from_utf8_lossy(&ludus(&["show", g]).stdout).into_owned();
    assert!(
        out("oware").contains("Guard: a game still going after 100000 plies ends there"),
        "{}",
        out("oware")
    );
    assert!(out("uuholo").contains("plies (the rules' limit)"));
    assert!(out("mughrabieh").contains("A match ends after 1000 games at most."));
    assert!(out("sat-gharva").contains("A match ends after 1000 games at most."));
}

// --- The protocol -----------------------------------------------------------------------------

fn request(session: &mut Session, value: Value) -> Value {
    session.handle_line(&value.to_string()).0
}

#[test]
fn a_refused_new_keeps_the_seed() {
    let rolls = |refused_first: bool| {
        let mut s = Session::default();
        request(&mut s, json!({"op": "load", "rules": "backgammon"}));
        request(&mut s, json!({"op": "new", "seed": 5, "first": 0}));
        if refused_first {
            let r = request(&mut s, json!({"op": "new", "seed": 6, "first": 7}));
            assert_eq!(r["ok"], false);
        }
        let r = request(&mut s, json!({"op": "roll"}));
        r["state"]["dice"].clone()
    };
    assert_eq!(rolls(true), rolls(false));
}

#[test]
fn sowing_set_refuses_what_does_not_fit_the_position() {
    let mut s = Session::default();
    request(&mut s, json!({"op": "load", "rules": "sat-gharva"}));
    let start = request(&mut s, json!({"op": "new", "first": 0}))["state"].clone();
    let with = |f: &dyn Fn(&mut Value)| {
        let mut v = start.clone();
        f(&mut v);
        v
    };
    for (state, message) in [
        (
            with(&|v| v["match"]["game"] = json!(4_294_967_297u64)),
            "`match.game` is a game number 1 to 1000",
        ),
        (
            with(&|v| v["match"]["points"] = json!([90, 90])),
            "`match.points` hold 180 stones, the rules have 98",
        ),
        (
            with(&|v| v["match"]["points"] = json!([98, 0])),
            "`match.points` are [98, 0]: a player holding fewer than 7 stones cannot fill a pit, \
             so the match would be over before this round",
        ),
        (
            with(&|v| v["phase"] = json!("over")),
            "`phase` is \"over\", but this position's phase is \"move\"",
        ),
        (
            with(&|v| v["ply"] = json!(-1)),
            "`ply` is a count 0 to 100000",
        ),
    ] {
        let r = request(&mut s, json!({"op": "set", "state": state}));
        assert_eq!(r["ok"], false, "{state}");
        assert_eq!(r["error"], message);
        // Nothing changed.
        let now = request(&mut s, json!({"op": "state"}));
        assert_eq!(now["state"], start);
    }
    let ok = request(&mut s, json!({"op": "set", "state": start}));
    assert_eq!(ok["ok"], true);
}

#[test]
fn a_huge_bad_move_is_not_echoed_whole() {
    let mut s = Session::default();
    request(&mut s, json!({"op": "load", "rules": "backgammon"}));
    request(&mut s, json!({"op": "new", "first": 0}));
    request(&mut s, json!({"op": "roll", "dice": [6, 1]}));
    for game in ["backgammon", "oware"] {
        if game == "oware" {
            request(&mut s, json!({"op": "load", "rules": "oware"}));
            request(&mut s, json!({"op": "new", "first": 0}));
        }
        let text = format!("24/18{}", "x".repeat(1 << 19));
        let r = request(&mut s, json!({"op": "play", "move": text}));
        assert_eq!(r["ok"], false);
        let error = r["error"].as_str().unwrap();
        assert!(error.len() < 400, "{game}: {} bytes", error.len());
        assert!(error.contains('…'), "{error}");
    }
    let r = request(&mut s, json!({"op": "x".repeat(100_000)}));
    assert!(r["error"].as_str().unwrap().len() < 300);
    let r = request(&mut s, json!({"op": "roll", "dice": vec![7; 100_000]}));
    assert!(r["error"].as_str().unwrap().len() < 300);
}

#[test]
fn loading_a_file_that_is_not_rules_never_shows_its_contents() {
    let secret = "root:x:0:0:secret-password-hash:/root:/bin/bash\n";
    let path = scratch("passwd", secret);
    let mut s = Session::default();
    let r = request(
        &mut s,
        json!({"op": "load", "rules": path.to_str().unwrap()}),
    );
    assert_eq!(r["ok"], false);
    let error = r["error"].as_str().unwrap();
    assert!(!error.contains("secret"), "{error}");
    assert!(!error.contains("root"), "{error}");
    assert!(error.contains("is not a rules file"), "{error}");
    // A real rules file with a mistake is still shown with its line, to help its author.
    let broken = scratch("broken.toml", &OWARE.replace("stones = 4", "stones = 400"));
    let r = request(
        &mut s,
        json!({"op": "load", "rules": broken.to_str().unwrap()}),
    );
    assert!(r["error"].as_str().unwrap().contains("stones = 400"), "{r}");
}

#[test]
fn a_protocol_line_over_the_limit_is_answered_and_the_session_goes_on() {
    let mut input = String::from("{\"op\":\"load\",\"rules\":\"oware\"}\n");
    input.push_str(&" ".repeat(LIMITS.protocol_line_bytes + 10));
    input.push_str("\n{\"op\":\"new\",\"first\":0}\n");
    let mut out = Vec::new();
    ludus::protocol::run(input.as_bytes(), &mut out, &LIMITS).unwrap();
    let lines: Vec<Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[1]["error"], "request longer than 1048576 bytes");
    assert_eq!(lines[2]["ok"], true);
}

#[test]
fn every_guard_in_the_state_json_round_trips() {
    let game = compile(OWARE).unwrap();
    let (end, _) = play_out(&game, 9);
    let json = game.state_json(&end);
    assert!(json["ply"].as_u64().unwrap() > 0);
    let back = game.state_from_json(&json).unwrap();
    assert_eq!(game.plies(&back), game.plies(&end));
}

#[test]
fn an_input_file_that_cannot_be_read_is_named() {
    let missing = std::env::temp_dir().join("ludus-no-such-input.txt");
    let o = ludus(&["play", "oware", "--input", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains(&format!("cannot read --input {}", missing.display())),
        "{e}"
    );
    assert!(!e.contains("panicked"), "{e}");
}

#[test]
fn tables_set_refuses_a_match_already_past_its_target() {
    let mut s = Session::default();
    request(&mut s, json!({"op": "load", "rules": "mughrabieh"}));
    let start = request(&mut s, json!({"op": "new", "first": 0}))["state"].clone();
    for points in [json!([40, 35]), json!([31, 0]), json!([0, 33])] {
        let mut state = start.clone();
        state["match"]["points"] = points.clone();
        let r = request(&mut s, json!({"op": "set", "state": state}));
        assert_eq!(r["ok"], false, "{points}");
        assert_eq!(
            r["error"],
            format!("match.points {points}: a match to 31 is over once a player reaches it")
                .replace(',', ", ")
        );
        // Nothing changed.
        let now = request(&mut s, json!({"op": "state"}));
        assert_eq!(now["state"], start);
    }
    // Short of the target, the match goes on.
    let mut state = start.clone();
    state["match"]["points"] = json!([30, 29]);
    let r = request(&mut s, json!({"op": "set", "state": state.clone()}));
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(r["state"]["match"]["points"], json!([30, 29]));
}

// --- Text from files reaches the terminal escaped ----------------------------------------------

/// Whether `text` holds a character that would act on a terminal rather than show.
fn acts_on_a_terminal(text: &str) -> bool {
    text.chars()
        .any(|c| (c.is_control() && c != '\n' && c != '\t') || c == '\u{202e}')
}

/// Runs `ludus ARGS`, which must succeed; its standard output, checked to be safe to print.
fn printed(args: &[&str]) -> String {
    let o = ludus(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(!acts_on_a_terminal(&out), "{args:?} printed raw: {out:?}");
    assert!(
        !acts_on_a_terminal(&stderr(&o)),
        "{args:?}: {:?}",
        stderr(&o)
    );
    out
}

#[test]
fn text_from_files_reaches_the_terminal_escaped() {
    let rules = OWARE
        .replacen("name = \"oware\"", "name = \"oware\\u001b[2J\\u202e\"", 1)
        .replacen(
            "title = \"Oware (Abapa)\"",
            "title = \"Oware\\u001b]0;owned\\u0007\\r\"",
            1,
        )
        .replacen(
            "players = [\"South\", \"North\"]",
            "players = [\"South\\u001b[31m\", \"North\\u009b2J\"]",
            1,
        );
    let file = scratch("hostile.toml", &rules);
    let file = file.to_str().unwrap();
    let shown = printed(&["show", file]);
    assert!(shown.contains("Oware\\u{1b}]0;owned\\u{7}\\r"), "{shown}");
    let record = scratch("hostile.jsonl", "");
    let record = record.to_str().unwrap();
    let played = printed(&[
        "play", file, "--south", "random", "--north", "random", "--seed", "1", "--record", record,
    ]);
    assert!(played.contains("South\\u{1b}[31m"), "{played}");
    // A record's header names the players as it likes.
    let text = std::fs::read_to_string(record).unwrap();
    let text = text.replacen(
        "\"players\":[\"random\",\"random\"]",
        "\"players\":[\"\\u001b[2J\\u001b[H\",\"random\"]",
        1,
    );
    std::fs::write(record, text).unwrap();
    let replayed = printed(&["replay", record, "--ply", "0"]);
    assert!(replayed.contains("\\u{1b}[2J"), "{replayed}");
    // A shard's rules name, merged.
    let part = scratch("hostile-part.jsonl", "");
    let part = part.to_str().unwrap();
    printed(&[
        "analyze", file, "--games", "2", "--shard", "0/1", "-o", part,
    ]);
    let merged = printed(&["merge", part]);
    assert!(merged.contains("oware\\u{1b}[2J\\u{202e}"), "{merged}");
    // Errors quote what they were given escaped too.
    let o = ludus(&["show", "no-such\u{1b}[2J.toml"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!acts_on_a_terminal(&stderr(&o)), "{:?}", stderr(&o));
}

// --- Errors quote input in short ---------------------------------------------------------------

/// Runs `ludus ARGS`, which must fail; its error, checked to be short.
fn short_error(args: &[&str]) -> String {
    let o = ludus(args);
    assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
    let e = stderr(&o);
    assert!(e.len() < 600, "{args:?}: an error of {} bytes", e.len());
    assert!(e.contains('…'), "{e}");
    e
}

#[test]
fn every_quote_of_input_in_an_error_is_cut_to_the_echo_limit() {
    let long = "x".repeat(900_000);
    // A record played, then its last `end` line given a reason of 900 KB (and no `ending`, so
    // that the words are what a replay checks).
    let record = scratch("long-reason.jsonl", "");
    let o = ludus(&[
        "play",
        "backgammon",
        "--white",
        "random",
        "--black",
        "random",
        "--seed",
        "1",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&record).unwrap();
    let lines: Vec<String> = text
        .lines()
        .map(|line| {
            let mut v: Value = serde_json::from_str(line).unwrap();
            if let Some(end) = v.get_mut("end").and_then(Value::as_object_mut) {
                end.remove("ending");
                end.insert("reason".into(), json!(long));
            }
            v.to_string()
        })
        .collect();
    std::fs::write(&record, lines.join("\n")).unwrap();
    let e = short_error(&["replay", record.to_str().unwrap()]);
    assert!(e.contains("the record says the game ended"), "{e}");
    // A header with a field of its own, or a seed that is a long string.
    let header = lines[0].clone();
    for bad in [
        header.replacen("\"seed\"", &format!("\"{long}\":1,\"seed\""), 1),
        header.replacen("\"seed\":1", &format!("\"seed\":\"{long}\""), 1),
        header.replacen(
            "\"rules\":\"backgammon\"",
            &format!("\"rules\":\"{long}\""),
            1,
        ),
    ] {
        assert_ne!(bad, header);
        let path = scratch("long-header.jsonl", &[bad.as_str(), &lines[1]].join("\n"));
        short_error(&["replay", path.to_str().unwrap()]);
    }
    // A shard's part with a field of its own; a part of rules with a long name, twice.
    let part = scratch("long-field.jsonl", &format!("{{\"{long}\":1}}\n"));
    short_error(&["merge", part.to_str().unwrap()]);
    let part = scratch("long-name.jsonl", "");
    let o = ludus(
        &["analyze", "kalah", "--games", "2", "--shard", "0/1", "-o"]
            .into_iter()
            .chain([part.to_str().unwrap()])
            .collect::<Vec<_>>(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let mut named: Value = serde_json::from_str(&std::fs::read_to_string(&part).unwrap()).unwrap();
    named["rules"] = json!(long);
    std::fs::write(&part, format!("{named}\n{named}\n")).unwrap();
    let e = short_error(&["merge", part.to_str().unwrap()]);
    assert!(e.contains("appears twice"), "{e}");
    // A point of a tables move written with 100,000 digits.
    let mut s = Session::default();
    request(&mut s, json!({"op": "load", "rules": "backgammon"}));
    request(&mut s, json!({"op": "new", "first": 0}));
    request(&mut s, json!({"op": "roll", "dice": [6, 1]}));
    let digits = format!("{}/18", "9".repeat(100_000));
    let r = request(&mut s, json!({"op": "play", "move": digits}));
    let error = r["error"].as_str().unwrap();
    assert!(error.len() < 300, "{} bytes", error.len());
}

#[test]
fn tables_set_refuses_a_finished_game_the_match_points_cannot_hold() {
    let mut s = Session::default();
    request(&mut s, json!({"op": "load", "rules": "mughrabieh"}));
    let start = request(&mut s, json!({"op": "new", "first": 0}))["state"].clone();
    // Game 3 over: Black (player 1) has borne off every checker, White none: Black scores
    // White's 15 checkers left.
    let mut over = start.clone();
    over["points"][1] = json!(vec![0; 24]);
    over["off"] = json!([0, 15]);
    over["phase"] = json!("over");
    over["ply"] = json!(40);
    over["to_move"] = Value::Null;
    over["match"]["game"] = json!(3);
    for (points, why) in [
        // White at the target before the game Black won: the match was over, and White would
        // be named its winner.
        (
            json!([31, 15]),
            "a match to 31 is over once a player reaches it",
        ),
        (
            json!([40, 20]),
            "a match to 31 is over once a player reaches it",
        ),
        // Black at the target before this game's points.
        (
            json!([5, 46]),
            "a match to 31 is over once a player reaches it",
        ),
        // The game's points not in the standing.
        (
            json!([3, 10]),
            "player 1 won this game's 15 point(s), which the standing counts",
        ),
    ] {
        let mut state = over.clone();
        state["match"]["points"] = points.clone();
        let r = request(&mut s, json!({"op": "set", "state": state}));
        assert_eq!(r["ok"], false, "{points}: {r}");
        let shown = points.to_string().replace(',', ", ");
        assert_eq!(r["error"], format!("match.points {shown}: {why}"));
        let now = request(&mut s, json!({"op": "state"}));
        assert_eq!(now["state"], start, "nothing changed");
    }
    // The game's points reaching the target end the match, won by the game's winner.
    let mut state = over.clone();
    state["match"]["points"] = json!([30, 31]);
    let r = request(&mut s, json!({"op": "set", "state": state}));
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(r["state"]["match"]["winner"], 1);
    assert_eq!(r["state"]["match"]["over"], true);
    // Without `match`, the finished game is the match's first: its points are the standing.
    let mut state = over.clone();
    state.as_object_mut().unwrap().remove("match");
    let r = request(&mut s, json!({"op": "set", "state": state}));
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(r["state"]["match"]["points"], json!([0, 15]));
}
