//! The command line as a user meets it: `list`, `show`, `validate` (every kind of error,
//! located), `play` (computer games to the end, reproducibly; a human's bad input, undo, quit
//! and agreed endings) and `bench`.

use std::path::PathBuf;
mod cli_common;
use cli_common::{ludus, play, run_with_input, stderr, stdout};

/// A scratch file with this content, unique to the test.
fn scratch(name: &str, content: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ludus-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, content).unwrap();
    path
}

const OWARE: &str = include_str!("../rules/oware.toml");

#[test]
fn list_names_every_bundled_game() {
    let o = ludus(&["list"]);
    assert!(o.status.success());
    let out = stdout(&o);
    for (name, _) in ludus::rules::BUNDLED {
        assert!(
            out.lines().any(|l| l.starts_with(name)),
            "{name} missing from\n{out}"
        );
    }
    assert!(!out.contains("invalid"), "{out}");
}

#[test]
fn show_explains_rules_and_draws_the_start() {
    for game in ["oware", "sat-gharva", "uuholo", "backgammon", "mughrabieh"] {
        let o = ludus(&["show", game]);
        assert!(o.status.success(), "{game}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(out.contains("Starting position"), "{out}");
        assert!(out.lines().count() > 8, "{game}: too short\n{out}");
    }
}

#[test]
fn every_bundled_file_validates() {
    let files: Vec<String> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/rules"))
        .unwrap()
        .map(|e| e.unwrap().path().to_string_lossy().into_owned())
        .collect();
    // Every file in `rules/` is bundled, and every bundled game has its file.
    let mut names: Vec<String> = files
        .iter()
        .map(|f| {
            let stem = std::path::Path::new(f).file_stem().unwrap();
            stem.to_string_lossy().into_owned()
        })
        .collect();
    names.sort();
    let mut bundled: Vec<String> = ludus::rules::BUNDLED
        .iter()
        .map(|(n, _)| n.to_string())
        .collect();
    bundled.sort();
    assert_eq!(names, bundled);
    let args: Vec<&str> = std::iter::once("validate")
        .chain(files.iter().map(String::as_str))
        .collect();
    let o = ludus(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).matches(": ok").count(), files.len());
}

/// Each broken variant of Oware: (what is broken, the edit, the expected parts of the message,
/// the expected `line:column`).
#[test]
fn broken_files_get_located_errors_and_exit_1() {
    let line_of = |needle: &str| OWARE.lines().position(|l| l.contains(needle)).unwrap() + 1;
    let when = line_of("when = ");
    let cases: Vec<(&str, String, &[&str], String)> = vec![
        (
            "toml syntax",
            OWARE.replace("[capture]", "[capture"),
            &["invalid table header"],
            // Just after `[capture`, where the `]` is missing.
            format!("{}:9", line_of("[capture]")),
        ),
        (
            "unknown key",
            OWARE.replace("must_feed = true", "must_feed = true\nfeed_me = 1"),
            &["unknown field `feed_me`"],
            format!("{}:1", line_of("must_feed") + 1),
        ),
        (
            "missing key",
            OWARE.replace("pits = 6\n", ""),
            &["missing key `pits`"],
            format!("{}:1", line_of("[board]")),
        ),
        (
            "wrong type",
            OWARE.replace("pits = 6", "pits = \"six\""),
            &["found the text \"six\", expected a whole number"],
            format!("{}:8", line_of("pits = 6")),
        ),
        (
            "expression syntax",
            OWARE.replace("in [2, 3]\"", "in [2, 3\""),
            &["syntax error: this `[` is never closed"],
            // At the `[` that is never closed.
            format!("{when}:49"),
        ),
        (
            "unknown name",
            OWARE.replace("last.count in", "last.cuont in"),
            &["unknown name `last.cuont`", "did you mean `last.count`?"],
            format!("{when}:35"),
        ),
        (
            "type error",
            OWARE.replace("last.side == opponent", "last.side + 1 == 2"),
            &["type error: `last.side` is a player, but `+` works on integers"],
            format!("{when}:9"),
        ),
        (
            // Five places for six pits: [1, 6] is never numbered. Located at the list.
            "numbering misses a pit",
            OWARE.replace(
                "stores = false",
                "stores = false\nnumbering = [[1, 1], [1, 2], [1, 3], [1, 4], [1, 5]]",
            ),
            &["error: the numbering misses pits", "not numbered: [1, 6]"],
            format!("{}:13", line_of("stores = false") + 1),
        ),
        (
            "unknown family",
            OWARE.replace("family = \"sowing\"", "family = \"cards\""),
            &[
                "unknown family `cards`",
                "expected \"sowing\" or \"tables\"",
            ],
            format!("{}:10", line_of("family =")),
        ),
    ];
    for (what, text, messages, place) in cases {
        let path = scratch(&format!("{}.toml", what.replace(' ', "-")), &text);
        let o = ludus(&["validate", path.to_str().unwrap()]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{what}: {err}");
        for message in messages {
            assert!(
                err.contains(message),
                "{what}: expected `{message}` in\n{err}"
            );
        }
        let file = path.file_name().unwrap().to_str().unwrap();
        assert!(
            err.contains(&format!("{file}:{place}")),
            "{what}: expected `{file}:{place}` in\n{err}"
        );
        assert!(err.contains('^'), "{what}: no caret in\n{err}");
        assert!(!err.contains("panicked"), "{what}: {err}");
    }
}

#[test]
fn validate_json_lists_every_file_with_positions() {
    let bad = scratch(
        "json-bad.toml",
        &OWARE.replace("last.count in", "last.cuont in"),
    );
    let o = ludus(&[
        "validate",
        "--format",
        "json",
        "oware",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["valid"], false);
    assert_eq!(report["files"][0]["valid"], true);
    let error = &report["files"][1]["errors"][0];
    assert_eq!(
        error["line"].as_u64().unwrap() as usize,
        OWARE.lines().position(|l| l.contains("when = ")).unwrap() + 1
    );
    assert!(error["message"].as_str().unwrap().contains("last.cuont"));
}

#[test]
fn validate_reports_a_missing_file() {
    let o = ludus(&["validate", "/no/such/rules.toml"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("/no/such/rules.toml"));
}

#[test]
fn computer_games_play_to_the_end_reproducibly() {
    let a = play(&[
        "oware", "--south", "random", "--north", "greedy", "--seed", "1",
    ]);
    assert!(a.contains(" wins (") || a.contains("Draw ("), "{a}");
    assert_eq!(
        a,
        play(&["oware", "--south", "random", "--north", "greedy", "--seed", "1"])
    );
    assert_ne!(
        a,
        play(&["oware", "--south", "random", "--north", "greedy", "--seed", "2"])
    );
}

#[test]
fn whole_matches_play_to_their_end() {
    let out = play(&[
        "sat-gharva",
        "--south",
        "random",
        "--north",
        "random",
        "--seed",
        "3",
    ]);
    assert!(out.contains("=== Round 2 of the match ==="), "{out}");
    assert!(
        out.contains("wins the match") || out.contains("match is drawn"),
        "{}",
        &out[out.len().saturating_sub(2000)..]
    );
    let out = play(&[
        "mughrabieh",
        "--white",
        "random",
        "--black",
        "random",
        "--seed",
        "2",
    ]);
    assert!(
        out.contains("wins the match"),
        "{}",
        &out[out.len().saturating_sub(2000)..]
    );
    let out = play(&[
        "had", "--white", "random", "--black", "random", "--seed", "2",
    ]);
    assert!(
        out.contains("the lower roller, starts"),
        "the starting ritual: {}",
        &out[..500]
    );
    assert!(
        out.contains("wins (borne off)"),
        "{}",
        &out[out.len().saturating_sub(2000)..]
    );
}

#[test]
fn a_human_gets_answers_to_bad_input_and_can_undo_and_quit() {
    let input = scratch("human.txt", "7\nbanana\nhelp\n3\nundo\nundo\n3\nquit\n");
    let out = play(&[
        "oware",
        "--north",
        "random",
        "--seed",
        "5",
        "--first",
        "south",
        "--input",
        input.to_str().unwrap(),
    ]);
    assert!(out.contains("Legal moves: 1, 2, 3, 4, 5, 6"), "{out}");
    assert!(out.contains("Undone."), "{out}");
    assert!(out.contains("Nothing to undo."), "{out}");
    assert!(out.contains("Game abandoned."), "{out}");
    // Each bad input was answered, and the prompt came again: one prompt for each of the
    // eight lines read.
    assert!(
        out.contains("`7` is not legal: pits are numbered 1 to 6"),
        "{out}"
    );
    assert!(out.contains("cannot read `banana`"), "{out}");
    assert_eq!(out.matches("South (human) to move").count(), 8, "{out}");
}

#[test]
fn uuholo_ends_by_agreement_and_by_its_ply_limit() {
    let input = scratch("uuholo.txt", "end\n");
    let out = play(&[
        "uuholo",
        "--south",
        "human",
        "--north",
        "greedy",
        "--first",
        "0",
        "--input",
        input.to_str().unwrap(),
    ]);
    assert!(out.contains("accepts"), "{out}");
    assert!(out.contains("Draw (") || out.contains(" wins ("), "{out}");
    let out = play(&[
        "uuholo",
        "--south",
        "random",
        "--north",
        "random",
        "--seed",
        "4",
        "--max-plies",
        "10",
    ]);
    assert_eq!(out.matches(" plays ").count(), 10, "{out}");
}

#[test]
fn manual_dice_referee_a_human_game() {
    let input = scratch("dice.txt", "7 7\n3 5\n8/5 6/5\n8/3 6/3\nquit\n");
    let out = play(&[
        "backgammon",
        "--white",
        "human",
        "--black",
        "random",
        "--first",
        "white",
        "--dice",
        "manual",
        "--input",
        input.to_str().unwrap(),
    ]);
    assert!(
        out.contains("a die shows 1 to 6, not 7: type the dice"),
        "{out}"
    );
    // Said the highest first, as players say a roll.
    assert!(out.contains("White (human) rolls 5-3"), "{out}");
    assert!(out.contains("`8/5 6/5` is not legal"), "{out}");
    assert!(
        out.contains("Black (random) rolls") || out.contains("Dice for Black"),
        "{out}"
    );
}

#[test]
fn bench_prints_rates_and_the_ratio() {
    let o = ludus(&["bench", "oware", "--seconds", "0.2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("ratio"), "{out}");
    let last = out.lines().last().unwrap();
    assert!(
        last.starts_with("games_per_s=")
            && last.contains(" plies_per_s=")
            && last.contains(" mean_plies="),
        "{last}"
    );
}

#[test]
fn unknown_games_are_explained() {
    let o = ludus(&["play", "chess"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("no bundled game or file named `chess`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn limits_are_lowered_by_name_and_never_raised() {
    let protocol = |args: &[&str], input: &str| {
        let args: Vec<&str> = args.iter().copied().chain(["protocol"]).collect();
        run_with_input(env!("CARGO_BIN_EXE_ludus"), &args, input)
    };
    let line = format!(
        "{{\"op\":\"load\",\"rules\":\"oware\",\"pad\":\"{}\"}}\n",
        "x".repeat(200)
    );
    let out = protocol(&["--limit", "protocol_line_bytes=100"], &line);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("request longer than 100 bytes"), "{text}");
    let out = protocol(&[], &line);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\"ok\":true"), "{text}");
    for (setting, words) in [
        ("server_games=100000", "at most 1000"),
        ("pits_per_side=4", "unknown limit `pits_per_side`"),
        ("server_game=3", "did you mean `server_games`?"),
    ] {
        let out = protocol(&["--limit", setting], "");
        assert_eq!(out.status.code(), Some(2), "{setting}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(words), "{setting}: {err}");
    }
}

/// The help names every computer player the players crate has, from its one list.
#[test]
fn the_help_names_every_computer_player() {
    let usage = ludus::players::usage();
    for args in [["play", "--help"], ["analyze", "--help"]] {
        let out = stdout(&ludus(&args));
        assert!(out.contains(&usage), "{args:?}: {out}");
    }
}

#[test]
fn show_prints_a_bundled_rules_file_to_start_a_variant_from() {
    let o = ludus(&["show", "oware", "--toml"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), include_str!("../rules/oware.toml"));
    let o = ludus(&["show", "oware", "--toml", "--svg"]);
    assert_eq!(o.status.code(), Some(2));
}
