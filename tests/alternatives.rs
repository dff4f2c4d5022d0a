//! The readings the source texts allow: every alternative a bundled file's comments offer is a
//! working rules file or snippet, and who starts each game of a match follows the texts (the
//! starting ritual before every game) unless a file chooses a rule.

use ludus::game::{Game, Json, Phase};
use ludus::protocol::Session;
use ludus::registry::{compile, AnyGame};
use ludus::rules::{Source, BUNDLED};
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::process::Command;

fn text(name: &str) -> String {
    Source::find(name).unwrap().text
}

/// Plays random whole matches; every game must end by the rules, never at the program's ply
/// guard.
fn plays_to_an_end(game: &AnyGame, seeds: u64) {
    let mut moves = Vec::new();
    for seed in 0..seeds {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut state = game.new_game(seed as usize % 2);
        loop {
            match game.phase(&state) {
                Phase::Over => {
                    let outcome = game.outcome(&state).unwrap();
                    // The rules' own ply limit is one of their endings (Uuholo's 200).
                    assert!(
                        game.guards().plies_by_rules || !outcome.reason.contains("limit"),
                        "{}: {}",
                        game.name(),
                        outcome.reason
                    );
                    let first = game
                        .next_starter(&state)
                        .unwrap_or_else(|| rng.gen_range(0..2));
                    match game.next_game(&state, first) {
                        Some(next) => state = next,
                        None => break,
                    }
                }
                Phase::Roll(_) => {
                    let roll = game.dice().unwrap().sample(&mut rng);
                    game.roll(&mut state, &roll).unwrap();
                }
                Phase::Move(_) => {
                    game.legal_moves(&state, &mut moves);
                    let i = rng.gen_range(0..moves.len());
                    game.play(&mut state, &moves[i]);
                }
            }
        }
    }
}

/// Every snippet a bundled file's comments offer, as (file, the line it replaces or the table
/// it joins, the new line).
const SNIPPETS: &[(&str, &str, &str)] = &[
    ("sat-gharva", "relay = \"next\"", "relay = \"previous\""),
    (
        "sat-gharva",
        "take = \"pit.count == 4\"",
        "take = \"pit.count == 4 and pit.side == mover\"",
    ),
    (
        "sat-gharva",
        "take = \"pit.count == 4\"\n",
        "take = \"pit.count == 4\"\ntake_choice = \"owner\"\n",
    ),
    (
        "sat-gharva",
        "take = [\"beyond\"]\n",
        "take = [\"beyond\"]\nchoice = \"mover\"\n",
    ),
    (
        "uuholo",
        "take = [\"opposite\"]\n",
        "take = [\"opposite\"]\nchoice = \"mover\"\n",
    ),
    (
        "uuholo-empty-pit",
        "take = [\"opposite\"]\n",
        "take = [\"opposite\"]\nchoice = \"mover\"\n",
    ),
    (
        "uuholo-both-rows",
        "take = [\"column\"]\n",
        "take = [\"column\"]\nchoice = \"mover\"\n",
    ),
    (
        "sat-gharva",
        "next_first = \"ritual\"",
        "next_first = \"loser\"",
    ),
    (
        "sat-gharva",
        "\n[end]\n",
        "\n[end]\nstop = \"mover.pits == 0 or opponent.pits == 0\"\n",
    ),
    (
        "mughrabieh",
        "next_first = \"ritual\"",
        "next_first = \"loser\"",
    ),
    ("tavli", "target = 5", "target = 7"),
    (
        "backgammon",
        "points = \"1\"",
        "points = \"1 + gammon + backgammon\"",
    ),
    ("backgammon-money", "jacoby = true", "jacoby = false"),
    (
        "backgammon-money",
        "jacoby = true",
        "jacoby = true\nbeavers = true",
    ),
    ("backgammon-match", "target = 7", "target = 5"),
    (
        "kalah",
        "stop = \"mover.pits == 0 or opponent.pits == 0\"\n",
        "",
    ),
    (
        "ayoayo",
        "take = [\"opposite\"]",
        "take = [\"opposite\", \"last\"]",
    ),
    (
        "bohnenspiel",
        "when = \"last.count in [2, 4, 6]\"",
        "when = \"last.side == opponent and last.count in [2, 4, 6]\"",
    ),
    (
        "bohnenspiel",
        "chain = \"pit.count in [2, 4, 6]\"",
        "chain = \"pit.side == opponent and pit.count in [2, 4, 6]\"",
    ),
    (
        "toguz-korgool",
        "[house]\n",
        "[house]\nchoice = \"mover\"\n",
    ),
    (
        "portes",
        "ritual = \"higher-die-starts\"",
        "ritual = \"opening-roll\"",
    ),
    (
        "plakoto",
        "ritual = \"higher-die-starts\"",
        "ritual = \"opening-roll\"",
    ),
    (
        "fevga",
        "ritual = \"higher-die-starts\"",
        "ritual = \"opening-roll\"",
    ),
];

/// The snippets, those of Sat-gharva offered by its clockwise reading too.
fn snippets() -> Vec<(&'static str, &'static str, &'static str)> {
    let clockwise = SNIPPETS
        .iter()
        .filter(|s| s.0 == "sat-gharva")
        .map(|&(_, from, to)| ("sat-gharva-clockwise", from, to));
    SNIPPETS.iter().copied().chain(clockwise).collect()
}

#[test]
fn every_offered_snippet_is_a_working_variant() {
    for (name, from, to) in snippets() {
        let original = text(name);
        assert!(original.contains(from), "{name}: `{from}` not in the file");
        let variant = original.replacen(from, to, 1);
        let game = compile(&variant).unwrap_or_else(|d| panic!("{name} + `{to}`: {d:?}"));
        plays_to_an_end(&game, 20);
    }
}

/// Every `key = value` a bundled file's comments offer in backquotes is one of the snippets
/// above (or the line the file itself has): an alternative added to a comment gets a test.
#[test]
fn every_snippet_in_a_comment_is_tested() {
    for (name, text) in BUNDLED {
        for line in text.lines().filter(|l| l.trim_start().starts_with('#')) {
            for (i, part) in line.split('`').enumerate() {
                let looks_like_key = part.split_once(" = ").is_some_and(|(k, _)| {
                    !k.is_empty()
                        && k.chars()
                            .all(|c| c.is_ascii_lowercase() || c == '_' || c == '.')
                });
                if i % 2 == 0 || !looks_like_key {
                    continue;
                }
                // `capture.when = "..."` names the line `when = "..."` of `[capture]`.
                let bare = match part.split_once(" = ") {
                    Some((key, value)) => {
                        format!("{} = {value}", key.rsplit('.').next().unwrap_or(key))
                    }
                    None => part.to_string(),
                };
                let tested = snippets()
                    .iter()
                    .any(|(n, _, to)| n == name && to.contains(part))
                    || text
                        .lines()
                        .any(|l| l.trim() == part.trim() || l.trim() == bare);
                assert!(tested, "{name}: the comment's `{part}` is not tested");
            }
        }
    }
}

#[test]
fn sat_gharva_clockwise_is_the_mirror_image_within_a_round() {
    let ccw = compile(&text("sat-gharva")).unwrap();
    let cw = compile(&text("sat-gharva-clockwise")).unwrap();
    let mirror = |v: &Value| -> Value {
        let rows: Vec<Value> = v["pits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| {
                let mut r = row.as_array().unwrap().clone();
                r.reverse();
                Value::Array(r)
            })
            .collect();
        json!({"pits": rows, "stores": v["stores"], "to_move": v["to_move"]})
    };
    let plain =
        |v: &Value| json!({"pits": v["pits"], "stores": v["stores"], "to_move": v["to_move"]});
    let (mut ma, mut mb) = (Vec::new(), Vec::new());
    let mut plies = 0;
    for seed in 0..20 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let (mut a, mut b) = (
            ccw.new_game(seed as usize % 2),
            cw.new_game(seed as usize % 2),
        );
        while ccw.phase(&a) != Phase::Over {
            assert_eq!(plain(&cw.state_json(&b)), mirror(&ccw.state_json(&a)));
            ccw.legal_moves(&a, &mut ma);
            cw.legal_moves(&b, &mut mb);
            assert_eq!(ma.len(), mb.len());
            let i = rng.gen_range(0..ma.len());
            let pit = ccw.move_json(&a, &ma[i])["pit"].as_u64().unwrap();
            // Pit k sown counterclockwise is pit 8 - k sown clockwise.
            let j = mb
                .iter()
                .position(|m| cw.move_json(&b, m)["pit"].as_u64().unwrap() == 8 - pit)
                .expect("the mirrored pit is legal");
            ccw.play(&mut a, &ma[i]);
            cw.play(&mut b, &mb[j]);
            plies += 1;
        }
        assert_eq!(cw.phase(&b), Phase::Over);
        assert_eq!(ccw.outcome(&a), cw.outcome(&b));
        // In the next round the pits are refilled from the right in both: where pits close, the
        // mirror breaks.
        let (na, nb) = (ccw.next_game(&a, 0), cw.next_game(&b, 0));
        if let (Some(na), Some(nb)) = (na, nb) {
            if ccw.state_json(&na)["out_of_play"] != json!([[], []]) {
                assert_ne!(plain(&cw.state_json(&nb)), mirror(&ccw.state_json(&na)));
            }
        }
    }
    assert!(plies > 100, "{plies}");
}

#[test]
fn the_round_ends_when_either_side_is_empty_in_the_alternative_reading() {
    let variant = text("sat-gharva").replacen(
        "\n[end]\n",
        "\n[end]\nstop = \"mover.pits == 0 or opponent.pits == 0\"\n",
        1,
    );
    let game = compile(&variant).unwrap();
    let default = compile(&text("sat-gharva")).unwrap();
    // North's side is empty but South, to move, has stones: by default the round goes on.
    let position = json!({"to_move": 0, "pits": [[7, 7, 7, 7, 7, 7, 7], [0, 0, 0, 0, 0, 0, 0]],
        "stores": [20, 29], "out_of_play": [[], []]});
    let st = default.state_from_json(&position).unwrap();
    assert_eq!(default.phase(&st), Phase::Move(0));
    let mut after = st.clone();
    let mut moves = Vec::new();
    default.legal_moves(&st, &mut moves);
    default.play(&mut after, &moves[0]);
    // In the alternative reading the same position ends the round at South's next move if a
    // side is then empty; play one move in each and compare with what the condition says.
    let st = game.state_from_json(&position).unwrap();
    game.legal_moves(&st, &mut moves);
    let mut v = st.clone();
    game.play(&mut v, &moves[0]);
    let json = game.state_json(&v);
    let empty = |side: usize| {
        json["pits"][side]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c == 0)
    };
    assert_eq!(
        game.phase(&v) == Phase::Over,
        empty(0) || empty(1),
        "{json}"
    );
}

// --- Who starts each game of a match ---------------------------------------------------------

fn request(s: &mut Session, v: Value) -> Value {
    s.handle_line(&v.to_string()).0
}

/// Ends the current game of a match at once by setting up a finished position, then asks for
/// the next game; returns who starts it.
fn next_starter(s: &mut Session, rules: &str, next: Value) -> Value {
    let over = if rules == "sat-gharva" {
        json!({"to_move": null, "pits": [vec![0; 7], vec![0; 7]], "stores": [60, 38],
               "out_of_play": [[], []], "starter": 0})
    } else {
        let mut points = vec![0; 24];
        points[19] = 15;
        json!({"phase": "over", "points": [vec![0; 24], points], "bar": [0, 0], "off": [15, 0],
               "ply": 41, "starter": 0})
    };
    let r = request(s, json!({"op": "set", "state": over}));
    assert_eq!(r["ok"], true, "{r}");
    let r = request(s, next);
    assert_eq!(r["ok"], true, "{r}");
    r["state"]["to_move"].clone()
}

#[test]
fn the_protocol_holds_the_ritual_before_every_game() {
    for rules in ["sat-gharva", "mughrabieh"] {
        // Without `first`: drawn from the seeded generator, so both players start some games
        // although player 0 always wins (the loser rule would always give player 1).
        let mut starters = Vec::new();
        for seed in 0..16 {
            let mut s = Session::default();
            request(&mut s, json!({"op": "load", "rules": rules}));
            request(&mut s, json!({"op": "new", "seed": seed, "first": 0}));
            starters.push(next_starter(&mut s, rules, json!({"op": "next"})));
        }
        assert!(
            starters.contains(&json!(0)) && starters.contains(&json!(1)),
            "{rules}"
        );
        // The same seed draws the same start.
        let again: Vec<Value> = (0..16)
            .map(|seed| {
                let mut s = Session::default();
                request(&mut s, json!({"op": "load", "rules": rules}));
                request(&mut s, json!({"op": "new", "seed": seed, "first": 0}));
                next_starter(&mut s, rules, json!({"op": "next"}))
            })
            .collect();
        assert_eq!(starters, again, "{rules}");
        // With `first`: the ritual done at the table.
        for first in [0, 1] {
            let mut s = Session::default();
            request(&mut s, json!({"op": "load", "rules": rules}));
            request(&mut s, json!({"op": "new", "first": 0}));
            let got = next_starter(&mut s, rules, json!({"op": "next", "first": first}));
            assert_eq!(got, json!(first), "{rules}");
        }
        // A bad `first` changes nothing.
        let mut s = Session::default();
        request(&mut s, json!({"op": "load", "rules": rules}));
        request(&mut s, json!({"op": "new", "first": 0}));
        next_starter(&mut s, rules, json!({"op": "next", "first": 0}));
        let before = request(&mut s, json!({"op": "state"}));
        let r = request(&mut s, json!({"op": "next", "first": 2}));
        assert_eq!(r["error"], "`first` must be 0 or 1");
        assert_eq!(request(&mut s, json!({"op": "state"})), before);
    }
}

#[test]
fn with_the_loser_rule_the_loser_starts() {
    for rules in ["sat-gharva", "mughrabieh"] {
        let variant = text(rules).replace("next_first = \"ritual\"", "next_first = \"loser\"");
        let dir = std::env::temp_dir().join(format!("ludus-alt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{rules}-loser.toml"));
        std::fs::write(&path, variant).unwrap();
        for seed in 0..8 {
            let mut s = Session::default();
            request(
                &mut s,
                json!({"op": "load", "rules": path.to_str().unwrap()}),
            );
            request(&mut s, json!({"op": "new", "seed": seed, "first": 0}));
            // Player 0 won the set-up game: the loser, player 1, starts.
            assert_eq!(next_starter(&mut s, rules, json!({"op": "next"})), json!(1));
        }
    }
}

#[test]
fn play_holds_the_ritual_before_every_game_of_a_match() {
    let out = |args: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_ludus"))
            .args(args)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let sat = out(&[
        "play",
        "sat-gharva",
        "--south",
        "random",
        "--north",
        "random",
        "--seed",
        "3",
    ]);
    let games = sat.matches("=== Round ").count() + 1;
    assert!(games > 1, "{sat}");
    assert_eq!(sat.matches(" guesses ").count(), games, "{sat}");
    let mug = out(&[
        "play",
        "mughrabieh",
        "--white",
        "random",
        "--black",
        "random",
        "--seed",
        "3",
    ]);
    let games = mug.matches("=== Game ").count() + 1;
    assert!(games > 1, "{mug}");
    // The roll for the start before every game; the colours stay as the command line gave
    // them.
    assert_eq!(mug.matches(" chooses ").count(), 0, "{mug}");
    assert_eq!(
        mug.matches("the lower roller, starts").count(),
        games,
        "{mug}"
    );
}
