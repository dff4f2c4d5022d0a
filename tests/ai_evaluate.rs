//! `[ai] evaluate`: the rules file's own measure of a position for the search players. It
//! compiles against each family's names and gives known values on known positions; a bad
//! expression is a located error; it changes what `alphabeta` plays; `show` and `explain` say it.

mod sowing_common;
mod tables_common;

use ludus::diagnostics::{line_column, render};
use ludus::game::{Evaluator, Game, Json, Notation, View};
use ludus::players::eval::{evaluate, WIN};
use ludus::players::{analyse, AlphaBeta, Budget, Spec};
use ludus::registry::{check, compile, AnyGame};
use ludus::rules::Source;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::process::Command;

/// A bundled rules text without its own `[ai]` table (the backgammon files name a network
/// there; the table comes last).
fn without_ai(name: &str) -> String {
    let text = Source::find(name).unwrap().text;
    match text.split_once("\n[ai]\n") {
        Some((rules, _)) => format!("{rules}\n"),
        None => text,
    }
}

/// A bundled rules text with an `[ai] evaluate` appended (in place of its own `[ai]`).
fn with_evaluate(name: &str, expression: &str) -> String {
    let text = without_ai(name);
    format!("{text}\n[ai]\nevaluate = \"{expression}\"\n")
}

/// The move `alphabeta:d2` chooses, as written.
fn alphabeta_d2<G: Evaluator + Notation>(game: &G, state: &G::State) -> String {
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let spec = Spec::AlphaBeta(AlphaBeta {
        budget: Budget::Depth(2),
    });
    let a = analyse(game, state, &moves, spec, false, &mut rng).unwrap();
    game.move_text(state, &moves[a.best])
}

/// An Oware position, South to move: sowing pit 6 captures North's pit 1 (2 + 1 stones).
fn oware_capture(south_store: u64) -> Value {
    let pits = json!([[0, 0, 3, 0, 0, 1], [2, 4, 4, 4, 4, 4]]);
    // 48 stones in all: 26 on the board.
    json!({"to_move": 0, "phase": "move", "pits": pits, "stores": [south_store, 22 - south_store]})
}

/// A Backgammon bear-off, White to move with 4-2: `6/off` bears a checker off, `6/2 5/3` none
/// (Black's 15 checkers hold White's point 1).
fn backgammon_bear_off() -> Value {
    let mut white = vec![0; 24];
    (white[1], white[4], white[5]) = (1, 1, 1);
    let mut black = vec![0; 24];
    black[23] = 15;
    json!({"to_move": 0, "phase": "move", "dice": [4, 2], "points": [white, black],
           "bar": [0, 0], "off": [12, 0]})
}

#[test]
fn sowing_evaluation_reads_the_position_from_each_side() {
    let text = with_evaluate(
        "oware",
        "100 * mover.store + 10 * opponent.pits + own(3) - ply",
    );
    let game = compile(&text).unwrap();
    let state = game.state_from_json(&oware_capture(10)).unwrap();
    // South: 100 × 10 + 10 × 22 (North's pits) + 3 (South's pit 3).
    assert_eq!(game.evaluation(&state, 0), Some(1223));
    // North: 100 × 12 + 10 × 4 + 4 (North's pit 3).
    assert_eq!(game.evaluation(&state, 1), Some(1244));
    assert_eq!(evaluate(&game, &state, 0), 1223.0);
    assert_eq!(evaluate(&game, &state, 1), 1244.0);

    // Without `[ai]`: no evaluation, the stores' difference.
    let plain = compile(&Source::find("oware").unwrap().text).unwrap();
    assert_eq!(plain.evaluation(&state, 0), None);
    assert_eq!(evaluate(&plain, &state, 0), -2.0);
    assert_eq!(evaluate(&plain, &state, 1), 2.0);
}

#[test]
fn tables_evaluation_reads_the_position_from_each_side() {
    // White: 2:1 5:1 6:1, 12 off; Black: 14 on its 24, one on the bar.
    let mut white = vec![0; 24];
    (white[1], white[4], white[5]) = (1, 1, 1);
    let mut black = vec![0; 24];
    black[23] = 14;
    let v = json!({"to_move": 1, "phase": "roll", "points": [white, black],
                   "bar": [0, 1], "off": [12, 0]});
    // (name, value for White, value for Black).
    let expected = [
        ("mover.off", 12, 0),
        ("opponent.off", 0, 12),
        ("mover.bar", 0, 1),
        ("opponent.bar", 1, 0),
        ("mover.pips", 13, 14 * 24 + 25),
        ("opponent.pips", 14 * 24 + 25, 13),
        ("mover.home", 3, 0),
        ("opponent.home", 0, 3),
        ("mover.blots", 3, 0),
        ("opponent.blots", 0, 3),
    ];
    for (name, white_value, black_value) in expected {
        let game = tables_common::tables_compile(&with_evaluate("backgammon", name)).unwrap();
        let state = game.state_from_json(&v).unwrap();
        assert_eq!(game.evaluation(&state, 0), Some(white_value), "{name}");
        assert_eq!(game.evaluation(&state, 1), Some(black_value), "{name}");
    }
    // The default measure's pip count is the same count.
    let plain = tables_common::load("backgammon");
    let state = plain.state_from_json(&v).unwrap();
    assert_eq!(plain.evaluation(&state, 0), None);
    assert_eq!(plain.pips(&state, 0), Some(13));
    assert_eq!(plain.pips(&state, 1), Some(14 * 24 + 25));
}

#[test]
fn a_finished_game_counts_by_its_result_and_values_stay_below_a_win() {
    let game = compile(&with_evaluate("oware", "opponent.store - mover.store")).unwrap();
    // South at 22 captures 3 with pit 6: 25 wins.
    let mut state = game.state_from_json(&oware_capture(22)).unwrap();
    let six = game.parse_move(&state, "6").unwrap();
    game.play(&mut state, &six);
    assert!(game.outcome(&state).is_some_and(|o| o.winner == Some(0)));
    assert_eq!(evaluate(&game, &state, 0), WIN);
    assert_eq!(evaluate(&game, &state, 1), -WIN);

    // ±2500 at most, far below a win.
    let game = compile(&with_evaluate("oware", "1000 * mover.store")).unwrap();
    let state = game.state_from_json(&oware_capture(10)).unwrap();
    assert_eq!(game.evaluation(&state, 0), Some(10_000));
    assert_eq!(evaluate(&game, &state, 0), 2500.0);
    let game = compile(&with_evaluate("oware", "-1000 * mover.store")).unwrap();
    assert_eq!(evaluate(&game, &state, 0), -2500.0);
}

#[test]
fn a_perverse_evaluation_changes_the_sowing_move() {
    let plain = sowing_common::game("oware");
    let text = with_evaluate("oware", "opponent.store - mover.store");
    let perverse = sowing_common::from_text(&text);
    let state = plain.state_from_json(&oware_capture(10)).unwrap();
    // The default takes the three stones; a player that wants its opponent ahead does not.
    assert_eq!(alphabeta_d2(&plain, &state), "6");
    assert_eq!(alphabeta_d2(&perverse, &state), "3");
}

#[test]
fn an_authored_evaluation_changes_the_tables_move() {
    let plain = tables_common::load("backgammon");
    let text = with_evaluate("backgammon", "mover.off - opponent.off");
    let racer = tables_common::tables_compile(&text).unwrap();
    let state = plain.state_from_json(&backgammon_bear_off()).unwrap();
    assert_eq!(tables_common::legal(&plain, &state), ["6/2 5/3", "6/off"]);
    // The default weighs the checker borne off against the blots left (two, against one and a
    // point made) and plays safe; a measure of checkers borne off alone bears off.
    assert_eq!(alphabeta_d2(&plain, &state), "6/2 5/3");
    assert_eq!(alphabeta_d2(&racer, &state), "6/off");
}

/// The first error of a rules text: its message, `line:column`, notes and the rendered report.
fn first_error(text: &str) -> (String, (usize, usize), Vec<String>, String) {
    let report = check(text);
    assert!(report.game.is_none());
    let d = report.errors().next().expect("an error").clone();
    let at = line_column(text, d.span.clone().unwrap().start);
    let rendered = render("my.toml", text, std::slice::from_ref(&d));
    (d.message, at, d.notes, rendered)
}

#[test]
fn bad_evaluations_are_located_errors() {
    // Oware's file has 44 lines; `[ai]` is line 46, `evaluate` line 47.
    let text = with_evaluate("oware", "opponent.store - mover.stor");
    let (message, at, notes, rendered) = first_error(&text);
    assert_eq!(message, "unknown name `mover.stor`");
    assert_eq!(at, (47, 30));
    assert!(rendered.contains("my.toml:47:30"), "{rendered}");
    assert!(
        notes.contains(&"did you mean `mover.store`?".to_string()),
        "{notes:?}"
    );
    assert!(
        notes.iter().any(|n| n.starts_with("help: ai.evaluate:")),
        "{notes:?}"
    );

    let text = with_evaluate("oware", "mover.store > opponent.store");
    let (message, at, _, _) = first_error(&text);
    assert_eq!(
        message,
        "type error: expected an integer expression, this is a boolean"
    );
    assert_eq!(at, (47, 13));

    let lines = without_ai("backgammon").lines().count();
    let text = with_evaluate("backgammon", "mover.off - opponent.pip");
    let (message, at, notes, _) = first_error(&text);
    assert_eq!(message, "unknown name `opponent.pip`");
    assert_eq!(at, (lines + 3, 25));
    assert!(
        notes.contains(&"did you mean `opponent.pips`?".to_string()),
        "{notes:?}"
    );

    let text = with_evaluate("backgammon", "mover.off -");
    let (message, at, _, _) = first_error(&text);
    assert!(message.contains("expected"), "{message}");
    assert_eq!(at.0, lines + 3);

    // A name of another context, or of the other family, is unknown here.
    let text = with_evaluate("backgammon", "mover.store");
    assert_eq!(first_error(&text).0, "unknown name `mover.store`");
    let text = with_evaluate("oware", "last.count");
    assert_eq!(first_error(&text).0, "unknown name `last.count`");
}

#[test]
fn an_evaluation_that_reads_nothing_is_warned_about() {
    for name in ["oware", "backgammon"] {
        let report = check(&with_evaluate(name, "1 + 2"));
        assert!(report.game.is_some(), "{name}");
        let warnings: Vec<&str> = report.warnings().map(|d| d.message.as_str()).collect();
        assert_eq!(
            warnings,
            ["`ai.evaluate` reads nothing of the position: every position looks alike to the computer players"],
            "{name}"
        );
    }
    assert_eq!(
        check(&with_evaluate("oware", "mover.store"))
            .warnings()
            .count(),
        0
    );
}

#[test]
fn the_measure_of_a_match_file_serves_every_game() {
    let text = with_evaluate("tavli", "mover.pips - 1000 * opponent.bar");
    let report = check(&text);
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
    let game = report.game.unwrap();
    let state = game.new_game(0);
    // Portes starts as Backgammon does: 167 pips a side.
    assert_eq!(game.evaluation(&state, 0), Some(167));
    let described = game.describe();
    let line = "The computer players value a position by `mover.pips - 1000 * opponent.bar` \
                ([ai] evaluate), `mover` being the player valued.";
    assert_eq!(described.matches(line).count(), 3, "{described}");
}

#[test]
fn show_names_the_evaluation() {
    let game = compile(&with_evaluate("kalah", "mover.store - 2 * opponent.store")).unwrap();
    assert!(matches!(game, AnyGame::Sowing(_)));
    assert!(game.describe().contains(
        "The computer players value a position by `mover.store - 2 * opponent.store` \
         ([ai] evaluate), `mover` being the player valued."
    ));
    let plain = compile(&Source::find("kalah").unwrap().text).unwrap();
    assert!(!plain.describe().contains("value a position"));
}

#[test]
fn explain_lists_the_key_and_its_names() {
    let out = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["explain", "ai.evaluate"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let out = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.contains("ai.evaluate — sowing rules files, table [ai]"),
        "{out}"
    );
    assert!(
        out.contains("ai.evaluate — tables rules files, table [ai]"),
        "{out}"
    );
    assert!(out.contains("names in `ai.evaluate`:"), "{out}");
    for name in [
        "mover.store",
        "own(integer)",
        "mover.pips",
        "opponent.blots",
    ] {
        assert!(out.contains(name), "{name} in\n{out}");
    }
}

#[test]
fn the_readme_examples_compile() {
    let readme = include_str!("../docs/rules.md");
    let section = readme
        .split("### Tuning the computer players")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .unwrap();
    let blocks: Vec<&str> = section
        .split("```toml\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap())
        .collect();
    assert_eq!(blocks.len(), 2);
    for (name, block) in ["oware", "backgammon"].into_iter().zip(blocks) {
        let text = format!("{}\n{block}", without_ai(name));
        let report = check(&text);
        assert!(
            report.diagnostics.is_empty(),
            "{name}: {:?}",
            report.diagnostics
        );
        let game = report.game.unwrap();
        assert!(game.evaluation(&game.new_game(0), 0).is_some(), "{name}");
    }
}
