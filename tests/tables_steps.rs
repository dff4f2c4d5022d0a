//! Turns played one step at a time reach exactly the positions whole turns reach: for every
//! turn met in random games of each bundled tables game (and of games whose turns are too big
//! to list whole), every sequence of step decisions ends in a position some whole-turn move
//! ends in, and every whole-turn move's position is reached by some sequence.

mod tables_common;
use tables_common::{load, position_key, step_ends, tables_compile};

use ludus::game::{Game, Json, Phase, Roll};
use ludus::tables::TablesGame;
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;

/// Plays `games` random games of `game`, comparing each turn's whole moves with its steps;
/// the number of turns compared.
fn compare(game: &TablesGame, games: usize, seed: u64) -> usize {
    let mut by_steps = game.clone();
    by_steps.set_by_steps(true);
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut compared = 0;
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut st = game.new_game(0);
        loop {
            match game.phase(&st) {
                Phase::Over => break,
                Phase::Roll(_) => {
                    let d = game.dice().unwrap();
                    let v: Vec<u8> = (0..d.count).map(|_| rng.gen_range(1..=d.faces)).collect();
                    game.roll(&mut st, &Roll::new(&v).unwrap()).unwrap();
                }
                Phase::Move(_) => {
                    game.legal_moves(&st, &mut moves);
                    if st.played().len == 0 && moves[0].die().is_none() {
                        let whole: BTreeSet<Vec<u8>> = moves
                            .iter()
                            .map(|m| {
                                let mut s = st;
                                game.play(&mut s, m);
                                position_key(s.position())
                            })
                            .collect();
                        assert_eq!(whole, step_ends(&by_steps, &st), "{st:?}");
                        compared += 1;
                    }
                    let m = moves[rng.gen_range(0..moves.len())];
                    game.play(&mut st, &m);
                }
            }
        }
    }
    compared
}

#[test]
fn steps_reach_what_whole_turns_reach_in_every_bundled_game() {
    for name in [
        "backgammon",
        "nackgammon",
        "hypergammon",
        "acey-deucey",
        "long-nardy",
        "plakoto",
        "fevga",
        "portes",
        "had",
        "mughrabieh",
    ] {
        let turns = compare(&load(name), 3, 11);
        assert!(turns > 50, "{name}: only {turns} turns compared");
    }
}

/// The same of every tables game of `docs/games`, one game each, and of a game that remembers
/// (what a step remembers changes what later steps of the same turn may do).
#[test]
fn steps_reach_what_whole_turns_reach_in_every_game_file_with_memory_and_stacks() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/games");
    let mut files = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        if path.extension().is_none_or(|e| e != "toml") || !text.contains("family = \"tables\"") {
            continue;
        }
        let game = tables_compile(&text).unwrap();
        let turns = compare(&game, 1, 12);
        assert!(turns > 5, "{}: only {turns} turns compared", path.display());
        files += 1;
    }
    assert!(files >= 40, "{files} files");
    let remembers = tables_compile(
        "[game]\nname = \"t\"\nfamily = \"tables\"\n[setup]\ncheckers = [\"24:2 13:5 8:3 6:5\", \"24:2 13:5 8:3 6:5\"]\n[[remember]]\nname = \"reached_12\"\nwhen = \"to == 12\"\n[[moves.step]]\nwhen = \"reached_12 or to > 11 or mine(to) <= 1 or to == 0\"",
    )
    .unwrap();
    assert!(compare(&remembers, 6, 13) > 200);
    // Stacks made and laid down while checkers move and hit around them.
    let stacks = tables_compile(
        "[game]\nname = \"t\"\nfamily = \"tables\"\n[setup]\ncheckers = [\"24:2 13:5 8:3 6:5\", \"24:2 13:5 8:3 6:5\"]\n[stacks]\nstart = \"none\"\nrestack = \"stacked < 6\"\nmove = \"die > 3\"",
    )
    .unwrap();
    assert!(compare(&stacks, 4, 14) > 100);
}

/// A turn of over 140,000 whole moves (Acey-deucey's 1-2, then any double, with the checkers
/// spread out) is played one step at a time: each decision lists a few steps, and the steps
/// reach exactly the 146,771 positions the whole turn has (counted by the whole-turn generator
/// before turns were cut into steps).
#[test]
fn a_turn_too_big_to_list_is_played_step_by_step() {
    let text = std::fs::read_to_string("tests/data/spread-deucey.toml").unwrap();
    let game = tables_compile(&text).unwrap();
    let mut st = game.new_game(0);
    game.roll(&mut st, &Roll::new(&[1, 2]).unwrap()).unwrap();
    let mut moves = Vec::new();
    game.legal_moves(&st, &mut moves);
    assert!(moves.iter().all(|m| m.die().is_some()), "{moves:?}");
    assert!((10..=40).contains(&moves.len()), "{} steps", moves.len());
    let t = std::time::Instant::now();
    let ends = step_ends(&game, &st);
    eprintln!("{} ends in {:?}", ends.len(), t.elapsed());
    assert_eq!(ends.len(), 146_771);
}

/// A turn in progress comes back from its STATE (`played`), and impossible ones are refused
/// with the reason.
#[test]
fn a_turn_in_progress_is_read_back_and_impossible_ones_are_refused() {
    let game = load("acey-deucey");
    let state = |played: serde_json::Value| {
        serde_json::json!({
            "to_move": 0, "phase": "move", "dice": [1, 2], "ply": 10, "moved": [true, true],
            "points": [[1,1,1,1,1,1,1,0,1,1,1,1,1,1,1,0,0,0,0,0,0,0,0,1], vec![0; 24]],
            "bar": [0, 0], "off": [0, 0], "pool": [0, 15], "played": played,
        })
    };
    let st = game
        .state_from_json(&state(serde_json::json!([["pool", 24, 1]])))
        .unwrap();
    assert_eq!(st.played().dice(), [1]);
    let mut moves = Vec::new();
    game.legal_moves(&st, &mut moves);
    assert!(moves.iter().all(|m| m.die() == Some(2)), "{moves:?}");
    assert_eq!(game.state_from_json(&game.state_json(&st)).unwrap(), st);
    for (played, why) in [
        (serde_json::json!([]), "1 to 5 steps"),
        (serde_json::json!([[13, 10, 2]]), "a step that die makes"),
        (serde_json::json!([["off", 3, 1]]), "a step that die makes"),
        (
            serde_json::json!([["pool", 24, 7]]),
            "a step that die makes",
        ),
        (serde_json::json!([[3, "off", 3]]), "no die is left"),
        // `n/n` moves nothing: a stack turned over, which acey-deucey has not.
        (serde_json::json!([[3, 3, 3]]), "a step that die makes"),
        (
            serde_json::json!([
                ["pool", 24, 1],
                [15, 13, 2],
                [13, 10, 3],
                [10, 7, 3],
                [7, 4, 3],
                [4, 1, 3]
            ]),
            "1 to 5 steps",
        ),
    ] {
        let error = game.state_from_json(&state(played.clone())).unwrap_err();
        assert!(error.0.contains(why), "{played}: {}", error.0);
    }
    // In a game of stacks `n/n` read back is the stack the die names turned over, no other.
    let path = format!("{}/docs/games/dubblets.toml", env!("CARGO_MANIFEST_DIR"));
    let dubblets = tables_compile(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut start = dubblets.state_json(&dubblets.new_game(0));
    start["phase"] = "move".into();
    start["dice"] = serde_json::json!([5, 3]);
    start["played"] = serde_json::json!([[5, 5, 5]]);
    let st = dubblets.state_from_json(&start).unwrap();
    assert_eq!(
        dubblets.state_from_json(&dubblets.state_json(&st)).unwrap(),
        st
    );
    start["played"] = serde_json::json!([[5, 5, 3]]);
    let error = dubblets.state_from_json(&start).unwrap_err();
    assert!(error.0.contains("a step that die makes"), "{}", error.0);
}

/// Doubles whose every move is any number (Dubblets) and checkers borne off entering again
/// (Tables Rabbatuees), over several games each: where the die left after a step matters, the
/// steps must still reach every whole-turn position.
#[test]
fn steps_reach_what_whole_turns_reach_with_wild_doubles_and_checkers_entering_again() {
    for name in ["dubblets", "tables-rabbatuees"] {
        let path = format!("{}/docs/games/{name}.toml", env!("CARGO_MANIFEST_DIR"));
        let game = tables_compile(&std::fs::read_to_string(path).unwrap()).unwrap();
        let turns = compare(&game, 8, 15);
        assert!(turns > 200, "{name}: only {turns} turns compared");
    }
}
