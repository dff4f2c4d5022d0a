//! Game records: every bundled game recorded as played (undos included) replays to the same
//! final position; `ludus play --record`, `ludus replay` and `ludus export --format mat` from
//! the command line; a record that is corrupt, illegal or of changed rules is refused at its
//! line; GNU Backgammon imports an exported match.

use ludus::game::{Game, Json, Notation, Phase};
use ludus::players::Spec;
use ludus::record::{self, Event, Header, RecordError, Recorder};
use ludus::registry::{self, AnyGame, AnyState};
use ludus::table;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::io::BufReader;
use std::path::PathBuf;
mod cli_common;
mod tools_common;
use cli_common::{ludus, run_with_input, stderr, stdout};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ludus-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Plays a whole match (at most `max_games` games) at random, writing every event; now and
/// then takes back the last two steps, as a player's undo would. Returns the record and the
/// final position.
fn play_recorded(game: &AnyGame, seed: u64, max_games: u32) -> (Vec<u8>, AnyState) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let header = Header {
        record: record::FORMAT.into(),
        rules: game.name().into(),
        digest: String::new(),
        seed: Some(seed),
        players: ["random".into(), "random".into()],
    };
    let mut out = Recorder::new(Vec::new(), &header).unwrap();
    let first = rng.gen_range(0..2);
    let mut states = vec![game.new_game(first)];
    out.write(&Event::Game {
        game: 1,
        first,
        deal: None,
    })
    .unwrap();
    let mut moves = Vec::new();
    let mut number = 1;
    loop {
        let state = states.last().unwrap().clone();
        match game.phase(&state) {
            Phase::Roll(_) => {
                let roll = game.dice().unwrap().sample(&mut rng);
                let mut next = state.clone();
                game.roll(&mut next, &roll).unwrap();
                out.write(&Event::Roll {
                    roll: roll.values().to_vec(),
                })
                .unwrap();
                states.push(next);
            }
            Phase::Move(_) => {
                game.legal_moves(&state, &mut moves);
                let mv = moves.choose(&mut rng).unwrap().clone();
                let text = game.move_text(&state, &mv);
                let mut next = state.clone();
                game.play(&mut next, &mv);
                out.write(&Event::Move { text }).unwrap();
                states.push(next);
                if states.len() > 3 && rng.gen_ratio(1, 40) {
                    out.write(&Event::Undo { undo: 2 }).unwrap();
                    states.truncate(states.len() - 2);
                }
            }
            Phase::Over => {
                let outcome = game.outcome(&state).unwrap();
                out.write(&Event::End {
                    end: (&outcome).into(),
                })
                .unwrap();
                let next_first = game.next_starter(&state).unwrap_or(1 - first);
                match game.next_game(&state, next_first) {
                    Some(next) if number < max_games => {
                        number += 1;
                        out.write(&Event::Game {
                            game: number,
                            first: next_first,
                            deal: None,
                        })
                        .unwrap();
                        states = vec![next];
                    }
                    _ => return (into_bytes(out), state),
                }
            }
        }
    }
}

/// Replays a record (its header read first) at a table of people; the final position and the
/// steps seen.
fn replay(game: &AnyGame, bytes: &[u8]) -> Result<(Option<AnyState>, usize), RecordError> {
    let mut input = BufReader::new(bytes);
    let header = record::read_header(&mut input)?;
    let mut steps = 0;
    let seats = [Spec::Human, Spec::Human];
    let table = table::replay(game.clone(), header, seats, &mut input, 1_000_000, |_| {
        steps += 1
    })?;
    Ok((table.state().ok().cloned(), steps))
}

fn into_bytes(recorder: Recorder<Vec<u8>>) -> Vec<u8> {
    recorder.into_inner()
}

#[test]
fn a_record_of_every_bundled_game_replays_to_the_same_final_position() {
    for (name, _) in ludus::rules::BUNDLED {
        let game = registry::load(name).unwrap().1;
        for seed in 0..3 {
            let (bytes, end) = play_recorded(&game, seed, 3);
            let (replayed, steps) =
                replay(&game, &bytes).unwrap_or_else(|e| panic!("{name} seed {seed}: {e}"));
            assert_eq!(replayed.as_ref(), Some(&end), "{name} seed {seed}");
            assert!(steps > 2, "{name}");
        }
    }
}

fn record_of(lines: &[&str]) -> Vec<u8> {
    let header = format!(
        "{{\"record\":\"ludus/1\",\"rules\":\"kalah\",\"digest\":\"\",\"seed\":1,\"players\":[\"a\",\"b\"]}}\n{}\n",
        lines.join("\n")
    );
    header.into_bytes()
}

#[test]
fn the_first_bad_line_is_named() {
    let game = registry::load("backgammon").unwrap().1;
    for (lines, line, words) in [
        (vec![r#"{"roll":[3,1]}"#], 2, "no game has begun"),
        (
            vec![r#"{"game":2,"first":0}"#],
            2,
            "the first game of a record is game 1",
        ),
        (
            vec![r#"{"game":1,"first":0}"#, r#"{"move":"8/5 6/5"}"#],
            3,
            "move `8/5 6/5`",
        ),
        (
            vec![r#"{"game":1,"first":0}"#, r#"{"roll":[3,9]}"#],
            3,
            "roll",
        ),
        (
            vec![
                r#"{"game":1,"first":0}"#,
                r#"{"roll":[3,1]}"#,
                r#"{"move":"8/5 6/5"}"#,
                "oops",
            ],
            5,
            "`oops` is not an event",
        ),
        (
            vec![
                r#"{"game":1,"first":0}"#,
                r#"{"roll":[3,1]}"#,
                r#"{"undo":3}"#,
            ],
            4,
            "undo 3",
        ),
        (
            vec![
                r#"{"game":1,"first":0}"#,
                r#"{"end":{"winner":0,"scores":[1,0],"reason":"borne off"}}"#,
            ],
            3,
            "not over",
        ),
        (
            vec![r#"{"game":1,"first":0}"#, r#"{"game":2,"first":0}"#],
            3,
            "before game 1 is over",
        ),
    ] {
        let bytes = record_of(&lines);
        let e = replay(&game, &bytes).unwrap_err();
        assert_eq!(e.line, line, "{lines:?}: {e}");
        assert!(e.message.contains(words), "{lines:?}: {e}");
    }
    let mut input = BufReader::new(&b"{\"record\":\"other/2\"}\n"[..]);
    assert!(record::read_header(&mut input).is_err());
}

#[test]
fn play_record_replay_and_export_from_the_command_line() {
    // A human at Kalah who undoes a move, against greedy.
    let input = scratch("kalah.in");
    std::fs::write(
        &input,
        "3\nundo\n4\n".to_string() + &"1\n2\n3\n4\n5\n6\n".repeat(40),
    )
    .unwrap();
    let rec = scratch("kalah.rec");
    let o = ludus(&[
        "play",
        "kalah",
        "--south",
        "human",
        "--north",
        "greedy",
        "--seed",
        "5",
        "--input",
        input.to_str().unwrap(),
        "--record",
        rec.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&rec).unwrap();
    assert!(
        text.starts_with("{\"record\":\"ludus/1\",\"rules\":\"kalah\""),
        "{text}"
    );
    assert!(text.contains("{\"undo\":"), "{text}");
    let o = ludus(&["replay", rec.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("every one legal"), "{}", stdout(&o));
    let o = ludus(&["replay", rec.to_str().unwrap(), "--ply", "1"]);
    assert!(
        stdout(&o).contains("-- ply 1 (line 3): played 3"),
        "{}",
        stdout(&o)
    );
    let o = ludus(&["replay", rec.to_str().unwrap(), "--ply", "100000"]);
    assert!(!o.status.success() && stderr(&o).contains("no ply 100000"));

    // A line made illegal is named, with its number.
    let bad = scratch("bad.rec");
    let mut lines: Vec<&str> = text.lines().collect();
    lines[4] = "{\"move\":\"9\"}";
    std::fs::write(&bad, lines.join("\n")).unwrap();
    let o = ludus(&["replay", bad.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("bad.rec:5: move `9`"), "{}", stderr(&o));

    // Rules that changed since the record was made are refused.
    let file = scratch("my-kalah.toml");
    std::fs::write(&file, include_str!("../rules/kalah.toml")).unwrap();
    let rec2 = scratch("mine.rec");
    let o = ludus(&[
        "play",
        file.to_str().unwrap(),
        "--south",
        "random",
        "--north",
        "random",
        "--seed",
        "2",
        "--record",
        rec2.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(ludus(&["replay", rec2.to_str().unwrap()]).status.success());
    std::fs::write(
        &file,
        include_str!("../rules/kalah.toml").replace("Kalah", "Kalah!"),
    )
    .unwrap();
    let o = ludus(&["replay", rec2.to_str().unwrap()]);
    assert!(
        stderr(&o).contains("not the text the record was made with"),
        "{}",
        stderr(&o)
    );

    // `.mat` is for backgammon games only.
    let o = ludus(&["export", rec.to_str().unwrap(), "--format", "mat"]);
    assert!(
        stderr(&o).contains("`.mat` holds backgammon games"),
        "{}",
        stderr(&o)
    );
}

/// `ludus play RULES` between random players, recorded; the record's path.
fn recorded(rules: &str, name: &str) -> PathBuf {
    let rec = scratch(name);
    let o = ludus(&[
        "play",
        rules,
        "--white",
        "random",
        "--black",
        "random",
        "--seed",
        "1",
        "--record",
        rec.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{rules}: {}", stderr(&o));
    rec
}

#[test]
fn mat_export_holds_backgammon_games_only_as_the_rules_decide() {
    for (rules, why) in [
        ("plakoto", "a lone checker is pinned, not hit to the bar"),
        ("fevga", "both sides move the same way round the board"),
        ("long-nardy", "both sides move the same way round the board"),
        (
            "mughrabieh",
            "a lone checker blocks the point, and no checker is hit",
        ),
        ("had", "its checkers do not start where backgammon's do"),
        (
            "tavli",
            "game 2 of its match, `plakoto`: a lone checker is pinned",
        ),
        (
            "acey-deucey",
            "its checkers do not start where backgammon's do",
        ),
        ("hypergammon", "it has 3 checkers a side, not 15"),
    ] {
        let rec = recorded(rules, &format!("{rules}.rec"));
        let o = ludus(&["export", rec.to_str().unwrap(), "--format", "mat"]);
        assert_eq!(o.status.code(), Some(1), "{rules}: {}", stdout(&o));
        assert!(stdout(&o).is_empty(), "{rules}: {}", stdout(&o));
        let e = stderr(&o);
        assert!(
            e.contains("`.mat` holds backgammon games") && e.contains(why),
            "{rules}: {e}"
        );
    }
    // The rules decide, not the name: backgammon by another name is exported, and a file
    // named backgammon whose lone checkers are pinned is not.
    let backgammon = include_str!("../rules/backgammon.toml");
    let renamed = scratch("race.toml");
    std::fs::write(
        &renamed,
        backgammon.replace("name = \"backgammon\"", "name = \"race\""),
    )
    .unwrap();
    let rec = recorded(renamed.to_str().unwrap(), "race.rec");
    let o = ludus(&["export", rec.to_str().unwrap(), "--format", "mat"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains(" Game 1"), "{}", stdout(&o));
    let pinning = scratch("pinning.toml");
    std::fs::write(
        &pinning,
        // Without its network, which reads backgammon's positions only.
        backgammon
            .replace("lone_checker = \"hit\"", "lone_checker = \"pin\"")
            .replace("network = \"backgammon\"", ""),
    )
    .unwrap();
    let rec = recorded(pinning.to_str().unwrap(), "pinning.rec");
    let o = ludus(&["export", rec.to_str().unwrap(), "--format", "mat"]);
    assert!(
        stderr(&o).contains("`backgammon` is not one: a lone checker is pinned"),
        "{}",
        stderr(&o)
    );
    // Nor one whose first turn moves the opponent's checkers (a `.mat` move is the mover's).
    let theirs = scratch("theirs.toml");
    std::fs::write(
        &theirs,
        backgammon
            .replace("[setup]\n", "[setup]\nfirst_turn_moves = \"opponent\"\n")
            .replace("network = \"backgammon\"", ""),
    )
    .unwrap();
    let rec = recorded(theirs.to_str().unwrap(), "theirs.rec");
    let o = ludus(&["export", rec.to_str().unwrap(), "--format", "mat"]);
    assert!(
        stderr(&o).contains("its first turn moves the opponent's checkers"),
        "{}",
        stderr(&o)
    );
}

/// GNU Backgammon (the Debian package installs it in /usr/games); `None`, the test skipped,
/// where it is not installed.
fn gnubg() -> Option<PathBuf> {
    tools_common::optional_tool(
        "gnu_backgammon_imports_an_exported_game",
        "GNU Backgammon",
        &["/usr/games/gnubg", "/usr/bin/gnubg"],
        "gnubg",
    )
}

#[test]
fn gnu_backgammon_imports_an_exported_game() {
    let Some(gnubg) = gnubg() else {
        return;
    };
    // Backgammon, and Portes: backgammon's moves under other scoring; a money session with the
    // cube (random players double, take and drop at random), and a 7-point match with the cube
    // and the Crawford rule.
    for (rules, white, black, seed) in [
        ("backgammon", "greedy", "random", "11"),
        ("portes", "greedy", "random", "11"),
        ("backgammon-money", "random", "random", "2"),
        ("backgammon-match", "alphabeta:d1", "greedy", "5"),
        ("backgammon-match", "random", "greedy", "8"),
    ] {
        let rec = scratch(&format!("{rules}-{seed}-bg.rec"));
        let o = ludus(&[
            "play",
            rules,
            "--white",
            white,
            "--black",
            black,
            "--seed",
            seed,
            "--record",
            rec.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let played = stdout(&o);
        // Passes and all: the record replays.
        let o = ludus(&["replay", rec.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        let o = ludus(&["export", rec.to_str().unwrap(), "--format", "mat"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let mat = scratch(&format!("{rules}-{seed}.mat"));
        std::fs::write(&mat, stdout(&o)).unwrap();
        // As many turns in the export as moves of the checkers in the record, and as many
        // doubles, takes and drops.
        let record = std::fs::read_to_string(&rec).unwrap();
        let moved = |text: &str| record.lines().filter(|l| *l == text).count();
        let cube =
            ["double", "take", "drop", "roll"].map(|w| moved(&format!("{{\"move\":\"{w}\"}}")));
        let moves = record
            .lines()
            .filter(|l| l.starts_with("{\"move\""))
            .count()
            - cube.iter().sum::<usize>();
        let commands = format!(
            "import mat {}\nshow score\nset analysis chequerplay evaluation plies 0\nset analysis cubedecision evaluation plies 0\nanalyse match\nshow statistics match\n",
            mat.display()
        );
        let out = run_with_input(&gnubg.to_string_lossy(), &["-t", "-q"], &commands);
        let text = String::from_utf8_lossy(&out.stdout);
        let counts = |label: &str| -> usize {
            text.lines()
                .find(|l| l.starts_with(label))
                .unwrap_or_else(|| {
                    panic!(
                        "{rules}: gnubg did not import the match:\n{text}\n{}",
                        String::from_utf8_lossy(&out.stderr)
                    )
                })
                .split_whitespace()
                .filter_map(|w| w.parse::<usize>().ok())
                .sum()
        };
        if rules == "backgammon-money" {
            assert!(cube[0] > 0 && cube[1] > 0 && cube[2] > 0, "{cube:?}");
        }
        assert_eq!(counts("Total moves"), moves, "{rules}: {text}");
        assert_eq!(counts("Doubles "), cube[0], "{rules}: {text}");
        assert_eq!(counts("Takes "), cube[1], "{rules}: {text}");
        assert_eq!(counts("Passes "), cube[2], "{rules}: {text}");
        for word in ["arning", "rror:", "nvalid", "llegal"] {
            assert!(!text.contains(word), "{rules}: gnubg says {word}:\n{text}");
        }
        // The round trip: GNU Backgammon's own `.mat` of what it imported, read back by
        // `ludus import`, is the record's games, roll by roll and move by move.
        let again = scratch(&format!("{rules}-{seed}-gnubg.mat"));
        // And its own `.sgf` (whose moves name no hits: the points passed say them).
        let sgf = scratch(&format!("{rules}-{seed}-gnubg.sgf"));
        let commands = format!(
            "import mat {}\nexport match mat {}\nsave match {}\n",
            mat.display(),
            again.display(),
            sgf.display()
        );
        run_with_input(&gnubg.to_string_lossy(), &["-t", "-q"], &commands);
        for from in [&again, &sgf] {
            let imported = scratch(&format!("{rules}-{seed}-imported.rec"));
            let o = ludus(&[
                "import",
                from.to_str().unwrap(),
                "--rules",
                rules,
                "-o",
                imported.to_str().unwrap(),
            ]);
            assert!(
                o.status.success(),
                "{rules} {}: {}",
                from.display(),
                stderr(&o)
            );
            let events =
                |text: &str| -> Vec<String> { text.lines().skip(1).map(str::to_string).collect() };
            let back = std::fs::read_to_string(&imported).unwrap();
            assert_eq!(events(&back), events(&record), "{rules} {}", from.display());
            let o = ludus(&["replay", imported.to_str().unwrap()]);
            assert!(o.status.success(), "{}", stderr(&o));
        }
        if rules == "backgammon-match" {
            // The match's final score as Ludus played it: `match game 3: White 7, Black 2`.
            let last = played
                .lines()
                .rev()
                .find(|l| l.starts_with("match game "))
                .unwrap();
            let score = last.split(": ").nth(1).unwrap().replace(',', "");
            let (w, b) = match score.split(' ').collect::<Vec<_>>()[..] {
                [_, w, _, b] => (w.to_string(), b.to_string()),
                _ => panic!("{last}"),
            };
            assert!(
                text.contains(&format!("White {w}, Black {b} (match to 7 points)")),
                "{rules}: Ludus ended at {w}-{b}; gnubg:\n{text}"
            );
            let exported = std::fs::read_to_string(&mat).unwrap();
            assert!(exported.starts_with(" 7 point match"), "{exported}");
        }
    }
}

#[test]
fn the_protocol_record_replays() {
    let mut session = ludus::protocol::Session::default();
    let mut ask = |request: serde_json::Value| {
        let (answer, _) = session.handle_line(&request.to_string());
        assert_eq!(answer["ok"], true, "{request}: {answer}");
        answer
    };
    ask(serde_json::json!({"op": "load", "rules": "backgammon"}));
    let mut state = ask(serde_json::json!({"op": "new", "seed": 4}))["state"].clone();
    while state["phase"] != "over" {
        state = if state["phase"] == "roll" {
            ask(serde_json::json!({"op": "roll"}))["state"].clone()
        } else {
            let mv =
                ask(serde_json::json!({"op": "go", "player": "greedy"}))["move"]["text"].clone();
            ask(serde_json::json!({"op": "play", "move": mv}))["state"].clone()
        };
    }
    let lines = ask(serde_json::json!({"op": "record"}))["record"].clone();
    let text: String = lines
        .as_array()
        .unwrap()
        .iter()
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(text.contains("\"end\""), "{text}");
    let file = scratch("protocol.rec");
    std::fs::write(&file, text).unwrap();
    let o = ludus(&["replay", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("every one legal"), "{}", stdout(&o));
}

#[test]
fn a_game_ends_once_a_second_end_line_is_refused() {
    let game = registry::load("kalah").unwrap().1;
    let (bytes, _) = play_recorded(&game, 5, 3);
    let text = String::from_utf8(bytes).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let end = lines
        .iter()
        .position(|l| l.starts_with("{\"end\""))
        .expect("an end line");
    lines.insert(end + 1, lines[end]);
    let doubled = lines.join("\n") + "\n";
    let e = replay(&game, doubled.as_bytes()).unwrap_err();
    assert_eq!(e.line, end + 2, "{e}");
    assert!(e.message.contains("a second `end` line for game 1"), "{e}");
    // The record as written replays.
    assert!(replay(&game, text.as_bytes()).is_ok());
}

#[test]
fn a_replay_checks_the_typed_ending_and_still_reads_records_without_one() {
    let game = registry::load("kalah").unwrap().1;
    let (bytes, _) = play_recorded(&game, 6, 3);
    let text = String::from_utf8(bytes).unwrap();
    let end_line = text
        .lines()
        .find(|l| l.starts_with("{\"end\""))
        .expect("an end line")
        .to_string();
    let end: Value = serde_json::from_str(&end_line).unwrap();
    let ending = end["end"]["ending"].as_str().expect("a typed ending");
    let with = |changed: Value| text.replace(&end_line, &changed.to_string());
    // Other words for the same ending: the record stays valid.
    let mut reworded = end.clone();
    reworded["end"]["reason"] = json!("said otherwise");
    assert!(replay(&game, with(reworded).as_bytes()).is_ok());
    // Another ending: refused, on that line.
    let mut other = end.clone();
    other["end"]["ending"] = json!(if ending == "agreement" {
        "score"
    } else {
        "agreement"
    });
    let e = replay(&game, with(other).as_bytes()).unwrap_err();
    assert!(e.message.contains("the rules say"), "{e}");
    // A record of an earlier version, with no ending: its words are checked.
    let mut old = end.clone();
    old["end"].as_object_mut().unwrap().remove("ending");
    assert!(replay(&game, with(old.clone()).as_bytes()).is_ok());
    old["end"]["reason"] = json!("said otherwise");
    assert!(replay(&game, with(old).as_bytes()).is_err());
}

/// A table of Mangala IV (98 stones scattered at random) seeded with `seed`, its first game
/// begun and `moves` moves played (the first legal each time).
fn scattered_table(seed: Option<u64>, moves: usize) -> table::Table {
    let path = "docs/games/mancala-games/mangala-iv.toml";
    let game = registry::load(path).unwrap().1;
    let header = Header {
        record: record::FORMAT.into(),
        rules: path.into(),
        digest: String::new(),
        seed,
        players: ["a".into(), "b".into()],
    };
    let mut t = table::Table::new(game, header, [Spec::Human, Spec::Human], seed);
    t.start(Some(0));
    for _ in 0..moves {
        let p = t.to_move().unwrap();
        let mut legal = Vec::new();
        t.game().legal_moves(t.state().unwrap(), &mut legal);
        t.play_move(p, &legal[0]).unwrap();
    }
    t
}

fn pits_of(t: &table::Table) -> Value {
    t.game().state_json(t.state().unwrap())["pits"].clone()
}

#[test]
fn a_record_keeps_the_deal_of_stones_scattered_at_random() {
    // A seeded table deals the same stones again; another seed, others.
    let start = pits_of(&scattered_table(Some(7), 0));
    assert_eq!(pits_of(&scattered_table(Some(7), 0)), start);
    assert_ne!(pits_of(&scattered_table(Some(8), 0)), start);

    // The record's game line holds the deal, and the replay starts from it: a table without a
    // seed deals stones no generator could give again.
    let played = scattered_table(None, 6);
    let text = played.record().unwrap();
    let first: Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
    let deal = first["deal"].clone();
    assert_eq!(
        deal,
        played.game().state_json(&played.steps()[0].state)["pits"]
    );
    let game = played.game().clone();
    let (end, _) = replay(&game, text.as_bytes()).unwrap();
    assert_eq!(end.as_ref(), played.state().ok());

    // A deal the rules could not draw, or none, is refused at its line.
    let line = text.lines().nth(1).unwrap();
    let with_line = |l: &str| text.replacen(line, l, 1);
    let mut short = first.clone();
    short["deal"][0][0] = json!(1);
    let e = replay(&game, with_line(&short.to_string()).as_bytes()).unwrap_err();
    assert_eq!(e.line, 2, "{e}");
    assert!(
        e.message
            .contains("game 1's deal: South's pit 1 is dealt 1"),
        "{e}"
    );
    let mut none = first.clone();
    none.as_object_mut().unwrap().remove("deal");
    let e = replay(&game, with_line(&none.to_string()).as_bytes()).unwrap_err();
    assert!(e.message.contains("game 1 gives no `deal`"), "{e}");
    // Kalah scatters nothing.
    let kalah = registry::load("kalah").unwrap().1;
    let e = replay(
        &kalah,
        &record_of(&[r#"{"game":1,"first":0,"deal":[[4,4,4,4,4,4],[4,4,4,4,4,4]]}"#]),
    )
    .unwrap_err();
    assert!(e.message.contains("scatter no stones"), "{e}");
}

/// `ludus import`: a `.mat` file becomes the record it was exported from (no GNU Backgammon
/// needed), and a broken one is refused at its line with the reason.
#[test]
fn a_mat_file_is_imported_or_refused_at_its_line() {
    let rec = scratch("import-match.rec");
    let o = ludus(&[
        "play",
        "backgammon-match",
        "--white",
        "random",
        "--black",
        "greedy",
        "--seed",
        "5",
        "--record",
        rec.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = ludus(&["export", rec.to_str().unwrap(), "--format", "mat"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mat_text = stdout(&o);
    let mat = scratch("import-match.mat");
    std::fs::write(&mat, &mat_text).unwrap();
    let o = ludus(&["import", mat.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let events = |text: &str| -> Vec<String> { text.lines().skip(1).map(str::to_string).collect() };
    let record = std::fs::read_to_string(&rec).unwrap();
    assert_eq!(events(&stdout(&o)), events(&record));
    assert!(record.contains("\"double\""), "the match has a double");
    // Each broken file is refused at its line, with the reason.
    let refused = |name: &str, text: &str, args: &[&str], why: &str| {
        let file = scratch(name);
        std::fs::write(&file, text).unwrap();
        let o = ludus(&[&["import", file.to_str().unwrap()], args].concat());
        assert_eq!(o.status.code(), Some(1), "{name}: {}", stdout(&o));
        assert!(stderr(&o).contains(why), "{name}: {}", stderr(&o));
    };
    let line_of = |needle: &str| mat_text.lines().position(|l| l.contains(needle)).unwrap() + 1;
    // The first turn's move, changed to one the dice do not allow.
    let first_row = mat_text.lines().find(|l| l.starts_with("  1)")).unwrap();
    let cell = first_row[5..]
        .trim()
        .split("  ")
        .next()
        .unwrap()
        .to_string();
    let (dice, _) = cell.split_once(": ").unwrap();
    let illegal = mat_text.replacen(&cell, &format!("{dice}: 13/1"), 1);
    refused(
        "illegal.mat",
        &illegal,
        &[],
        &format!("illegal.mat:{}: `13/1` is not legal", line_of("  1)")),
    );
    refused(
        "garbage.mat",
        &mat_text.replacen(&cell, "xy: 13/1", 1),
        &[],
        "`xy: 13/1` is not a move, a cube action or a result",
    );
    refused("empty.mat", "", &[], "no game");
    refused(
        "five.mat",
        &mat_text.replace(" 7 point match", " 5 point match"),
        &[],
        "a match to 5 points: give a rules file for it with --rules",
    );
    refused(
        "plakoto.mat",
        &mat_text,
        &["--rules", "plakoto"],
        "`plakoto` is not backgammon as `.mat` files hold it",
    );
    refused(
        "money.mat",
        &mat_text,
        &["--rules", "backgammon-money"],
        "a match to 7 points; the rules `backgammon-money` play single games",
    );
    // A money session of several games: a record holds one, chosen with --game.
    let money = mat_text.replace(" 7 point match", " 0 point match");
    let games = record
        .lines()
        .filter(|l| l.starts_with("{\"game\":"))
        .count();
    assert!(games >= 3, "the match has {games} games");
    refused(
        "session.mat",
        &money,
        &[],
        &format!(
            "a money session of {games} games; a record holds one game of `backgammon-money`: \
             import each with --game K (1 to {games})"
        ),
    );
    let beyond = (games + 1).to_string();
    refused(
        "session-beyond.mat",
        &money,
        &["--game", &beyond],
        &format!("holds games 1 to {games}"),
    );
    refused(
        "match-2.mat",
        &mat_text,
        &["--game", "2"],
        "a match's record holds all its games",
    );
    let session = scratch("session-2.mat");
    std::fs::write(&session, &money).unwrap();
    let o = ludus(&["import", session.to_str().unwrap(), "--game", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Its rolls and moves are the match's second game's.
    let plays = |lines: &[String]| -> Vec<String> {
        lines
            .iter()
            .filter(|l| l.starts_with("{\"roll\"") || l.starts_with("{\"move\""))
            .cloned()
            .collect()
    };
    let all = events(&record);
    let second = all
        .iter()
        .position(|l| l.starts_with("{\"game\":2"))
        .unwrap();
    let third = all
        .iter()
        .position(|l| l.starts_with("{\"game\":3"))
        .unwrap();
    let imported = events(&stdout(&o));
    assert_eq!(plays(&imported), plays(&all[second..third]));
    assert!(!plays(&imported).is_empty());
    // A game won before it is over: a resignation (of a single game at the cube of 2).
    let game_1: Vec<&str> = mat_text.split("\n\n").collect();
    let first = game_1[1];
    // Its heading, score and first four rows of moves, then a result in the right column.
    let rows: Vec<&str> = first.lines().collect();
    let wins = format!("{}Wins 2 points", " ".repeat(34));
    let resigned = [&rows[..6], &[wins.as_str()]].concat().join("\n");
    let file = scratch("resigned.mat");
    std::fs::write(&file, format!("{}\n\n{resigned}\n", game_1[0])).unwrap();
    let o = ludus(&["import", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines = stdout(&o);
    assert!(
        lines.trim_end().ends_with(
            "{\"resigned\":\"single\"}\n{\"end\":{\"winner\":1,\"scores\":[0,2],\"reason\":\"resigned\",\"ending\":\"resigned\"}}"
        ),
        "{lines}"
    );
    // A resignation by the player whose turn it is not, and one no level scores.
    let wins = format!("{}Wins 1 point", " ".repeat(5));
    let out_of_turn = [&rows[..6], &[wins.as_str()]].concat().join("\n");
    refused(
        "out-of-turn.mat",
        &format!("{}\n\n{out_of_turn}\n", game_1[0]),
        &[],
        "but Black could not resign: it is not their turn",
    );
    refused(
        "five-points.mat",
        &format!(
            "{}\n\n{}\n",
            game_1[0],
            resigned.replace("Wins 2 points", "Wins 5 points")
        ),
        &[],
        "and no resignation scores that at a cube of 2",
    );
}

/// The rate `ludus review` gives a player, in thousandths a move, and its cube decisions.
fn reviewed(out: &str, player: &str) -> (f64, u32) {
    let line = out
        .lines()
        .find(|l| l.trim_start().starts_with(player))
        .unwrap_or_else(|| panic!("no line of {player}:\n{out}"));
    let before = line.split(" thousandths a move").next().unwrap();
    let rate = before.rsplit(", ").next().unwrap().parse().unwrap();
    let cube = line
        .split_once("; ")
        .map(|(_, c)| c.split(' ').next().unwrap().parse().unwrap());
    (rate, cube.unwrap_or(0))
}

#[test]
fn a_review_rates_each_player_by_the_reviewers_lights() {
    // A player reviewed by itself loses little; a random player loses a great deal, and its
    // worst decisions are listed with the reviewer's better move.
    let file = scratch("review.rec");
    let f = file.to_str().unwrap();
    for args in [
        ["backgammon", "--white", "random", "--black", "net"],
        ["backgammon-money", "--white", "random", "--black", "net"],
    ] {
        let mut all = vec!["play"];
        all.extend(args);
        all.extend(["--seed", "4", "--record", f]);
        let o = ludus(&all);
        assert!(o.status.success(), "{}", stderr(&o));
        let o = ludus(&["review", f]);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        assert!(out.starts_with("Review by net ("), "{out}");
        let (random, random_cube) = reviewed(&out, "White (random)");
        let (net, _) = reviewed(&out, "Black (net)");
        // Its own reviewer values every move a throw ahead where the player screened them first:
        // little is lost.
        assert!(net < 5.0, "{out}");
        assert!(random > 30.0, "{out}");
        assert!(
            out.contains("White played") && out.contains("; best "),
            "{out}"
        );
        if args[0] == "backgammon-money" {
            assert!(random_cube > 0, "{out}");
            assert!(
                out.contains("(casual player)")
                    || out.contains("(awful)")
                    || out.contains("(beginner)"),
                "{out}"
            );
        }
    }
    // Another reviewer; one that does not search is refused.
    let o = ludus(&["review", f, "--player", "alphabeta:d1"]);
    assert!(
        stdout(&o).starts_with("Review by alphabeta:d1 (material ahead)"),
        "{}",
        stdout(&o)
    );
    let o = ludus(&["review", f, "--player", "greedy"]);
    assert!(
        !o.status.success() && stderr(&o).contains("a reviewer must search"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn an_sgf_file_is_imported_or_refused_at_its_line() {
    // GNU Backgammon's own format: a 7-point match's first game, Black first; White's 6-1
    // `10/9 9/3` hits on 9 (the points passed say so); a double taken; Black resigns a gammon
    // at the cube of 2 (`RE[W+4R]`), after rolling.
    let game = "(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07.001]MI[length:7][game:0][ws:0][bs:0]\
                PW[Alice]PB[Bob]RU[Crawford]RE[W+4R]C[a comment \\] with a bracket]\n\
                ;B[52aclq]\n;W[35hcfc]\n;B[26ybag]\n;W[53mjmh]\n;B[22bdgisusu]\n;W[16jiic]\n\
                ;B[double]\n;W[take]\n;PL[B]DI[65])\n";
    let file = scratch("game.sgf");
    std::fs::write(&file, game).unwrap();
    let o = ludus(&["import", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let record = stdout(&o);
    for line in [
        r#""players":["Alice","Bob"]"#,
        r#"{"game":1,"first":1}"#,
        r#"{"move":"24/22 13/8"}"#,
        r#"{"move":"8/3* 6/3"}"#,
        r#"{"move":"10/9*/3"}"#,
        r#"{"move":"double"}"#,
        r#"{"roll":[6,5]}"#,
        r#"{"resigned":"gammon"}"#,
        r#""scores":[4,0],"reason":"resigned a gammon""#,
    ] {
        assert!(record.contains(line), "{line}:\n{record}");
    }
    let refused = |name: &str, text: &str, why: &str| {
        let file = scratch(name);
        std::fs::write(&file, text).unwrap();
        let o = ludus(&["import", file.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", stdout(&o));
        assert!(stderr(&o).contains(why), "{name}: {}", stderr(&o));
    };
    refused(
        "chess.sgf",
        "(;FF[4]GM[1];B[aa])",
        "chess.sgf:1: not a backgammon game (`GM[6]`)",
    );
    refused(
        "variation.sgf",
        "(;GM[6]MI[length:7]\n;B[52aclq]\n(;W[35hcfc]))",
        "variation.sgf:3: a variation: only the line of play is read",
    );
    refused(
        "open.sgf",
        "(;GM[6]MI[length:7]\n;B[52acl",
        "open.sgf:2: `B[` is not closed",
    );
    refused(
        "setup.sgf",
        "(;GM[6]MI[length:7]\n;AB[aa][bb])",
        "setup.sgf:2: `AB` sets up a position by hand",
    );
    refused(
        "bad-move.sgf",
        "(;GM[6]MI[length:7]\n;B[72aclq])",
        "bad-move.sgf:2: `B[72aclq]` is not a move or a cube action",
    );
    refused(
        "illegal.sgf",
        "(;GM[6]MI[length:7]\n;B[52aaaa])",
        "illegal.sgf:2: cannot read `24/24/24`",
    );
    refused(
        "bad-result.sgf",
        "(;GM[6]MI[length:7]RE[X+1]\n;B[52aclq])",
        "bad-result.sgf:1: `RE[X+1]` is not a result",
    );
    refused("junk.sgf", "(;GM[6] ; ]", "is not SGF");
}
