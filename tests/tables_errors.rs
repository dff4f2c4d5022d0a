//! Bad rules files, bad notation and bad STATE objects give clear, located errors, never
//! panics.

mod tables_common;
use tables_common::{load, tables_compile};

use ludus::game::{Game, Json, Notation, Roll, View};
use ludus::rules::Source;
use ludus::tables::TablesGame;
use serde_json::json;

const GOOD: &str = r#"[game]
name = "t"
family = "tables"

[setup]
checkers = ["24:2 13:5 8:3 6:5", "24:2 13:5 8:3 6:5"]

[moves]
lone_checker = "hit"

[[moves.leave]]
point = 24
when = "home + off > 0 or mine(24) == 15"

[scoring]
points = "1 + gammon"

[match]
target = 7
"#;

/// Compiles `GOOD` with `from` replaced by `to` (once); checks that the first error's message
/// contains `message` and that its span is exactly `at` where it occurs inside `marker` (a
/// text that occurs once in the edited file): the byte range, not just the same text
/// somewhere.
fn error(from: &str, to: &str, message: &str, marker: &str, at: &str) {
    assert!(GOOD.contains(from), "{from}");
    let text = GOOD.replacen(from, to, 1);
    let errors = tables_compile(&text).expect_err("should not compile");
    let d = &errors[0];
    assert!(
        d.message.contains(message),
        "{to:?}: message {:?} lacks {message:?}",
        d.message
    );
    let span = d.span.clone().expect("located");
    let expected = spot(&text, marker, at);
    assert_eq!(
        span,
        expected,
        "{to:?}: span {span:?} = {:?}, expected {expected:?} = {at:?}",
        &text[span.clone()]
    );
}

/// The byte range of `at` inside the one occurrence of `marker` in `text`.
fn spot(text: &str, marker: &str, at: &str) -> std::ops::Range<usize> {
    assert_eq!(
        text.matches(marker).count(),
        1,
        "marker {marker:?} not unique"
    );
    let start = text.find(marker).unwrap() + marker.find(at).expect("at inside marker");
    start..start + at.len()
}

#[test]
fn the_good_file_compiles() {
    let g = tables_compile(GOOD).unwrap();
    assert!(g.describe().contains("leave point 24"));
}

#[test]
fn bad_setups_are_located() {
    // A pest error at a point covers the character there.
    error(
        "24:2 13:5 8:3 6:5\", \"24",
        "24:2 13:x 8:3 6:5\", \"24",
        "expected entries `point:count`",
        "13:x",
        "x",
    );
    error(
        "13:5 8:3 6:5\", \"24",
        "13:5 8:3 6:5 25:1\", \"24",
        "point `25` is out of range (at most 24)",
        "25:1",
        "25",
    );
    error(
        "13:5 8:3 6:5\", \"24",
        "13:5 8:3 6:5 13:1\", \"24",
        "this place is listed twice",
        "13:1",
        "13:1",
    );
    // Both sides are concerned: the whole list.
    let both = "[\"24:2 13:5 8:3 6:4\", \"24:2 13:5 8:3 6:5\"]";
    error(
        "8:3 6:5\", \"24",
        "8:3 6:4\", \"24",
        "the sides have different numbers of checkers (14 and 15)",
        both,
        both,
    );
    let three = "[\"24:2 13:5 8:3 6:5\", \"24:2 13:5 8:3 6:5\", \"1:1\"]";
    error(
        "24:2 13:5 8:3 6:5\"]",
        "24:2 13:5 8:3 6:5\", \"1:1\"]",
        "`checkers` lists exactly two sides",
        three,
        three,
    );
    error(
        "6:5\", \"24:2",
        "6:5 bar:1\", \"24:2",
        "more than 15 checkers",
        "bar:1",
        "bar:1",
    );
    // White's 13 is Black's 12.
    let shared = "[\"24:2 13:5 8:3 6:5\", \"24:2 12:5 8:3 6:5\"]";
    error(
        "24:2 13:5 8:3 6:5\"]",
        "24:2 12:5 8:3 6:5\"]",
        "both sides start on player 0's point 13 (player 1's point 12)",
        shared,
        shared,
    );
    error(
        "13:5 8:3",
        "13:5 8:30",
        "count `30` is out of range (at most 15)",
        "8:30",
        "30",
    );
}

/// A start off the board is reported at its entry, as a place listed twice or a count too many
/// are.
#[test]
fn a_start_off_the_board_is_located_at_its_entry() {
    error(
        "8:3 6:5\", \"24",
        "8:3 6:4 off:1\", \"24",
        "checkers start on the board, the bar or in the pool, not off",
        "off:1",
        "off:1",
    );
}

#[test]
fn bad_options_are_located() {
    error(
        "\"hit\"",
        "\"bounce\"",
        "bounce",
        "lone_checker = \"bounce\"",
        "\"bounce\"",
    );
    error(
        "point = 24",
        "point = 30",
        "point 30 is not on the board",
        "point = 30",
        "30",
    );
    error(
        "mine(24) == 15",
        "theirs(24) == fifteen",
        "unknown name `fifteen`",
        "fifteen",
        "fifteen",
    );
    // The second `or`, where a value was expected: the whole token.
    error(
        "home + off > 0 or",
        "home + off > 0 or or",
        "syntax error: expected a number, a name such as",
        "or mine",
        "or",
    );
    // At the end of the expression there is no character: an empty span just before the
    // closing quote.
    error(
        "1 + gammon",
        "1 + gammon >",
        "syntax error: expected a number, a name such as `loser_off`, or `(`, found the end of the expression",
        "\"\n\n[match]",
        "",
    );
    error(
        "1 + gammon",
        "gammon == 1",
        "expected an integer expression, this is a boolean",
        "gammon == 1",
        "gammon == 1",
    );
    error(
        "target = 7",
        "target = 0",
        "match target 0 is out of range",
        "target = 0",
        "0",
    );
    error(
        "[match]",
        "[match]\nnext_first = \"nobody\"",
        "unknown value \"nobody\" for `match.next_first`",
        "\"nobody\"",
        "\"nobody\"",
    );
    // The words of the newer keys, located as every option's.
    error(
        "lone_checker = \"hit\"",
        "lone_checker = \"hit\"\nbear_off_to = \"home\"",
        "unknown value \"home\" for `moves.bear_off_to`",
        "\"home\"",
        "\"home\"",
    );
    error(
        "[moves]",
        "[dice]\nwild = \"triples\"\n[moves]",
        "unknown value \"triples\" for `dice.wild`",
        "\"triples\"",
        "\"triples\"",
    );
    error(
        "[match]",
        "[[score]]\nwhen = \"played == 0\"\nto = \"opponents\"\n[match]",
        "unknown value \"opponents\" for `score.to`",
        "\"opponents\"",
        "\"opponents\"",
    );
    error(
        "[match]",
        "[[score]]\nwhen = \"played\"\n[match]",
        "expected a boolean",
        "\"played\"",
        "played",
    );
    error(
        "[match]",
        "[[score]]\nwhen = \"moved_off(3) > 0\"\n[match]",
        "unknown function `moved_off`",
        "moved_off(3)",
        "moved_off",
    );
    error(
        "[match]",
        "[[score]]\nwhen = \"doubles\"\nsaid = \" \"\n[match]",
        "`said` is one line of words",
        "said = \" \"",
        "\" \"",
    );
    error(
        "checkers = [",
        "first_turn_moves = \"theirs\"\ncheckers = [",
        "unknown value \"theirs\" for `setup.first_turn_moves`",
        "\"theirs\"",
        "\"theirs\"",
    );
    error(
        "lone_checker",
        "lone_checkers",
        "unknown field `lone_checkers` in `[moves]`",
        "lone_checkers",
        "lone_checkers",
    );
    error(
        "[setup]\ncheckers",
        "[setup]\npieces",
        // First in the file: the table's header, where `checkers` is missing (the unknown
        // `pieces` is reported after it).
        "missing key `checkers` in `[setup]`",
        "[setup]\npieces",
        "[setup]",
    );
    error(
        "family = \"tables\"",
        "family = \"tables\"\nplayers = [\"A\"]",
        "`players` names exactly two players",
        "[\"A\"]",
        "[\"A\"]",
    );
}

/// Cutting the bundled files anywhere never panics the compiler.
#[test]
fn truncated_rules_never_panic() {
    for name in ["backgammon", "had", "mughrabieh"] {
        let text = Source::find(name).unwrap().text;
        for cut in (0..text.len()).step_by(7) {
            if text.is_char_boundary(cut) {
                let _ = tables_compile(&text[..cut]);
                let _ = tables_compile(&format!("{}#{}", &text[..cut], &text[cut..]));
            }
        }
    }
}

fn game() -> TablesGame {
    tables_compile(&Source::find("backgammon").unwrap().text).unwrap()
}

#[test]
fn bad_notation_gives_helpful_messages() {
    let g = game();
    let mut st = g.new_game(0);
    assert!(g
        .parse_move(&st, "24/18")
        .unwrap_err()
        .to_string()
        .contains("not been rolled"));
    g.roll(&mut st, &Roll::new(&[6, 5]).unwrap()).unwrap();
    for (text, expect) in [
        ("", "expected a move"),
        ("24/", "expected a move"),
        ("hello", "expected a move"),
        ("25/13", "out of range"),
        ("0/6", "1..24"),
        ("24/18(9)", "out of range"),
        ("6/off/3", "nothing moves on"),
        ("8/5 6/7", "7 is not below 6"),
        ("bar/22/22", "22 is not below 22"),
        ("24/18 24/18 24/18", "more checkers"),
        ("bar/20", "more checkers"),
        ("24/13 24/13", "is not legal: not a move with 6-5; legal: "),
        ("13/7 13/7", "is not legal"),
        ("pass", "is not legal"),
    ] {
        let e = g.parse_move(&st, text).unwrap_err();
        assert!(e.to_string().contains(expect), "{text:?}: {e}");
    }
    // Every way of writing a legal move is accepted.
    for text in [
        "24/13",
        "24/18/13",
        "24/18 18/13",
        "24-18-13",
        "24/19, 19/13",
        "13/7 13/8",
        "13/8, 13/7",
    ] {
        assert!(g.parse_move(&st, text).is_ok(), "{text}");
    }
    assert!(g.roll(&mut st, &Roll::new(&[1, 1]).unwrap()).is_err());
}

#[test]
fn dice_out_of_range_are_refused() {
    let g = game();
    let mut st = g.new_game(0);
    assert!(g
        .roll(&mut st, &Roll::new(&[0, 3]).unwrap())
        .unwrap_err()
        .to_string()
        .contains("1 to 6"));
    assert!(g.roll(&mut st, &Roll::new(&[7, 3]).unwrap()).is_err());
    assert_eq!(st, g.new_game(0));
}

#[test]
fn impossible_states_are_rejected() {
    let g = game();
    let good = g.state_json(&g.new_game(0));
    assert!(g.state_from_json(&good).is_ok());
    let with = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut v = good.clone();
        f(&mut v);
        g.state_from_json(&v)
    };
    let e = with(&|v| v["points"][0][5] = json!(4)).unwrap_err();
    assert!(e.to_string().contains("14 checkers"), "{e}");
    assert!(with(&|v| v["points"][0][5] = json!(-1))
        .unwrap_err()
        .to_string()
        .contains("0..15"));
    assert!(with(&|v| v["points"][0][5] = json!("x")).is_err());
    assert!(with(&|v| v["points"][0] = json!([1, 2]))
        .unwrap_err()
        .to_string()
        .contains("24"));
    // Both sides on White's point 1 (Black's 24).
    let e = with(&|v| {
        v["points"][0][5] = json!(4);
        v["points"][0][0] = json!(1);
    })
    .unwrap_err();
    assert!(e.to_string().contains("both players"), "{e}");
    assert!(with(&|v| v["phase"] = json!("move"))
        .unwrap_err()
        .to_string()
        .contains("dice"));
    assert!(with(&|v| v["dice"] = json!([3, 4]))
        .unwrap_err()
        .to_string()
        .contains("dice"));
    assert!(with(&|v| {
        v["phase"] = json!("move");
        v["dice"] = json!([3, 9]);
    })
    .is_err());
    assert!(with(&|v| v["phase"] = json!("over"))
        .unwrap_err()
        .to_string()
        .contains("borne off"));
    assert!(with(&|v| v["to_move"] = json!(2)).is_err());
    assert!(with(&|v| v["phase"] = json!("later")).is_err());
    assert!(with(&|v| v["match"] = json!({"game": 1, "points": [0, 0]})).is_err());
    assert!(g.state_from_json(&json!([1, 2])).is_err());
    assert!(g.state_from_json(&json!({})).is_err());
    let ok = with(&|v| {
        v["phase"] = json!("move");
        v["dice"] = json!([3, 4]);
    })
    .unwrap();
    assert_eq!(ok.dice(), Some(&[3u8, 4][..]));
}

#[test]
fn a_misspelt_function_suggests_the_function() {
    let text = GOOD.replacen("mine(24)", "mnie(24)", 1);
    let errors = tables_compile(&text).expect_err("should not compile");
    let d = &errors[0];
    let at = text.find("mnie").unwrap();
    assert_eq!(d.message, "unknown function `mnie`");
    assert_eq!(d.span, Some(at..at + 4));
    assert_eq!(
        d.notes[..2],
        [
            "did you mean `mine`?",
            "functions here: mine, theirs, mine_in, theirs_in, moved_off, pinned_mine, pinned_theirs, remembered, stacked_at"
        ]
    );
}

/// `[define]`: a definition means its expression where it is used; one that uses itself, takes
/// a name of the language or fails its place is located, and one never used is warned about.
#[test]
fn definitions_are_checked_and_located() {
    let with = |defs: &str, when: &str| {
        GOOD.replacen(
            "when = \"home + off > 0 or mine(24) == 15\"",
            &format!("when = \"{when}\"\n\n[define]\n{defs}"),
            1,
        )
    };
    // The same game, its rule read through two definitions.
    let named = with(
        "away = \"home + off > 0\"\nfull = \"mine(24) == 15\"",
        "away or full",
    );
    let g = tables_compile(&named).unwrap();
    let plain = tables_compile(GOOD).unwrap();
    assert_eq!(
        g.describe(),
        plain
            .describe()
            .replace("home + off > 0 or mine(24) == 15", "away or full")
    );
    let mut st = g.new_game(0);
    let mut st2 = plain.new_game(0);
    g.roll(&mut st, &Roll::new(&[6, 5]).unwrap()).unwrap();
    plain.roll(&mut st2, &Roll::new(&[6, 5]).unwrap()).unwrap();
    assert_eq!(
        tables_common::legal(&g, &st),
        tables_common::legal(&plain, &st2)
    );

    let located = |text: &str, message: &str, at: &str| {
        let errors = tables_compile(text).expect_err("should not compile");
        let d = errors
            .iter()
            .find(|d| d.message.contains(message))
            .unwrap_or_else(|| panic!("no {message:?} in {errors:?}"));
        let span = d.span.clone().expect("located");
        assert_eq!(&text[span], at, "{message}");
    };
    located(
        &with("a = \"b + 1\"\nb = \"a\"", "a > 0"),
        "a definition uses itself: a → b → a",
        "b + 1",
    );
    // A definition may take a name of the language (a file written before the language had
    // it keeps its meaning), with a warning located at the name.
    let shadowed = with("home = \"mine(24) == 15\"", "home");
    let report = ludus::registry::check(&shadowed);
    let warning = (report.diagnostics.iter())
        .find(|d| d.message.contains("`home` is also a name of the language"))
        .unwrap_or_else(|| panic!("{:?}", report.diagnostics));
    assert_eq!(&shadowed[warning.span.clone().expect("located")], "home");
    let g = tables_compile(&shadowed).unwrap();
    assert!(g.describe().contains("when `home`"), "{}", g.describe());
    located(&with("x = \"1 +\"", "x > 0"), "syntax error", "");
    // Valid alone, but an integer where a condition is needed: located at the name's use.
    located(
        &with("count = \"mine(24)\"", "count"),
        "type error",
        "count",
    );
    // A score name is not a step name: refused where the step rule uses it.
    located(
        &with("lost = \"loser_off\"", "lost > 0"),
        "unknown name `loser_off`",
        "lost",
    );
    let report = ludus::registry::check(&with("x = \"1\"\ny = \"2\"", "x > 0 or home > 0"));
    let warnings: Vec<&String> = report.diagnostics.iter().map(|d| &d.message).collect();
    assert!(
        warnings
            .iter()
            .any(|m| m.as_str() == "`y` is defined but never used"),
        "{warnings:?}"
    );
}

// --- A match of several games: `[match] games` ------------------------------------------------

const TAVLI: &str = include_str!("../rules/tavli.toml");

/// The first error of a report, with the text its span covers in `text`.
fn first_error(report: &ludus::registry::Report, text: &str) -> (String, String) {
    let d = report
        .errors()
        .next()
        .unwrap_or_else(|| panic!("no error: {:#?}", report.diagnostics));
    let span = d.span.clone().expect("located");
    (d.message.clone(), text[span].to_string())
}

/// The first error of Tavli's file edited, and where it is.
fn tavli_error(from: &str, to: &str) -> (String, String) {
    assert!(TAVLI.contains(from), "{from}");
    let text = TAVLI.replacen(from, to, 1);
    first_error(&ludus::registry::check(&text), &text)
}

#[test]
fn bad_games_entries_are_located_at_the_entry() {
    let (message, at) = tavli_error("\"plakoto\"", "\"plakato\"");
    assert!(
        message.starts_with("no bundled game or file named `plakato`; did you mean `plakoto`?"),
        "{message}"
    );
    assert_eq!(at, "\"plakato\"");

    // A match naming itself, or any match: never read on.
    let (message, at) = tavli_error("\"fevga\"", "\"tavli\"");
    assert_eq!(message, "`tavli.toml` plays several games in turn itself");
    assert_eq!(at, "\"tavli\"");

    let (message, at) = tavli_error("\"plakoto\"", "\"oware\"");
    assert_eq!(
        message,
        "`oware.toml` is a game of the sowing family, not a tables game"
    );
    assert_eq!(at, "\"oware\"");

    let games = "[\"portes\", \"plakoto\", \"fevga\"]";
    let (message, at) = tavli_error(games, "[]");
    assert_eq!(
        message,
        "`games` names 0 games; a match plays 1 to 16 in turn"
    );
    assert_eq!(at, "[]");
    let seventeen = format!("[{}]", vec!["\"portes\""; 17].join(", "));
    let (message, at) = tavli_error(games, &seventeen);
    assert_eq!(
        message,
        "`games` names 17 games; a match plays 1 to 16 in turn"
    );
    assert_eq!(at, seventeen);

    // The games bring their rules: the match file has none.
    let (message, at) = tavli_error("[match]", "[moves]\nlone_checker = \"hit\"\n\n[match]");
    assert_eq!(
        message,
        "a match of `games` has no rules of its own: leave `[moves]` out"
    );
    assert_eq!(at, "[moves]");
    // A file of one game still needs its start.
    let no_setup = GOOD.replacen(
        "[setup]\ncheckers = [\"24:2 13:5 8:3 6:5\", \"24:2 13:5 8:3 6:5\"]\n",
        "",
        1,
    );
    let (message, _) = first_error(&ludus::registry::check(&no_setup), &no_setup);
    assert_eq!(message, "missing table `[setup]`");
}

/// Rules files beside a match file are named from its folder, and each one's problem is told
/// at its name in the match file.
#[test]
fn games_of_a_match_file_are_read_from_its_folder_and_checked() {
    let dir = std::env::temp_dir().join(format!("ludus-rotation-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let portes = Source::find("portes").unwrap().text;
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    write(
        "three.toml",
        &portes.replace("[setup]", "[dice]\ncount = 3\n\n[setup]"),
    );
    write(
        "no-ritual.toml",
        &portes.replace("ritual = \"higher-die-starts\"", "ritual = \"none\""),
    );
    write("broken.toml", &portes.replace("\"hit\"", "\"hop\""));
    write("notes.txt", "hello, world\n");
    let header = "[game]\nname = \"m\"\nfamily = \"tables\"\n\n[match]\ntarget = 5\n";
    write("a.toml", &format!("{header}games = [\"b.toml\"]\n"));
    write(
        "b.toml",
        &format!("{header}games = [\"portes\", \"a.toml\"]\n"),
    );
    let check = |games: &str| {
        write("m.toml", &format!("{header}games = {games}\n"));
        let source = Source::find(&dir.join("m.toml").to_string_lossy()).unwrap();
        let report = ludus::registry::check_source(&source);
        (report.game.is_some(), report.diagnostics, source.text)
    };
    let error = |games: &str| {
        let (_, diagnostics, text) = check(games);
        let d = diagnostics
            .iter()
            .find(|d| d.is_error())
            .unwrap_or_else(|| panic!("{games}: no error"));
        let span = d.span.clone().expect("located");
        (d.message.clone(), text[span].to_string())
    };
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();

    // A file beside the match file, named by its own name (the tests run elsewhere).
    let (compiles, diagnostics, _) = check("[\"portes\", \"plakoto\", \"three.toml\"]");
    assert!(!compiles && diagnostics.len() == 1, "{diagnostics:#?}");
    let (message, at) = error("[\"portes\", \"three.toml\"]");
    assert_eq!(
        message,
        "`three.toml` throws 3 dice of 6 faces, the first game `portes` 2 dice of 6 faces"
    );
    assert_eq!(at, "\"three.toml\"");
    let (message, at) = error("[\"portes\", \"no-ritual.toml\"]");
    assert_eq!(
        message,
        "`no-ritual.toml` starts by the ritual \"none\", the first game `portes` by \"higher-die-starts\""
    );
    assert_eq!(at, "\"no-ritual.toml\"");
    let (message, at) = error("[\"broken.toml\"]");
    let line = portes.lines().position(|l| l.contains("\"hit\"")).unwrap() + 1;
    assert_eq!(
        message,
        format!(
            "`{}` has 1 error(s); the first, at {}:{line}:16: unknown value \"hop\" for `moves.lone_checker`",
            path("broken.toml"),
            path("broken.toml")
        )
    );
    assert_eq!(at, "\"broken.toml\"");
    // Not a rules file: said without quoting it.
    let (message, _) = error("[\"notes.txt\"]");
    assert_eq!(
        message,
        format!(
            "`{}` is not a rules file: it is not TOML with a [game] table",
            path("notes.txt")
        )
    );
    let (message, at) = error("[\"missing.toml\"]");
    assert!(
        message.starts_with(&format!(
            "no bundled game or file named `{}`",
            path("missing.toml")
        )),
        "{message}"
    );
    assert_eq!(at, "\"missing.toml\"");
    // A cycle through two files stops at the first match named.
    let (message, at) = error("[\"a.toml\"]");
    assert_eq!(
        message,
        format!("`{}` plays several games in turn itself", path("a.toml"))
    );
    assert_eq!(at, "\"a.toml\"");
    let source = Source::find(&path("a.toml")).unwrap();
    let report = ludus::registry::check_source(&source);
    let (message, at) = first_error(&report, &source.text);
    assert_eq!(
        message,
        format!("`{}` plays several games in turn itself", path("b.toml"))
    );
    assert_eq!(at, "\"b.toml\"");
    std::fs::remove_dir_all(&dir).unwrap();

    // A bundled match names bundled games only: it never reads the disk.
    let bundled = ludus::rules::Origin::Bundled;
    assert!(Source::find_from(&bundled, "Cargo.toml").is_err());
    assert!(Source::find("Cargo.toml").is_ok());
}

/// The keys of the newer mechanisms: a bad value is located at its place, and the file does
/// not compile.
#[test]
fn bad_values_of_the_newer_keys_are_located() {
    let moves = "lone_checker = \"hit\"";
    error(
        moves,
        "lone_checker = \"hit\"\nhit_to = \"home\"",
        "home",
        "hit_to = \"home\"",
        "\"home\"",
    );
    error(
        moves,
        "lone_checker = \"hit\"\nbear_off = \"mine(\"",
        "",
        "bear_off = \"mine(\"",
        "(",
    );
    error(
        "[setup]",
        "[board]\npool_from = 40\n\n[setup]",
        "pool",
        "pool_from = 40",
        "40",
    );
    error(
        "[setup]",
        "[dice]\ndoubles = \"fase\"\n\n[setup]",
        "a double cannot give \"fase\" moves",
        "doubles = \"fase\"",
        "\"fase\"",
    );
    error(
        "[setup]",
        "[dice]\nunplayed = \"never\"\n\n[setup]",
        "never",
        "unplayed = \"never\"",
        "\"never\"",
    );
    error(
        "[scoring]",
        "[[win]]\nwhen = \"off == 15\"\nwinner = \"both\"\n\n[scoring]",
        "both",
        "winner = \"both\"",
        "\"both\"",
    );
    error(
        "[scoring]",
        "[[remember]]\nname = \"Bad Name\"\nwhen = \"to == 12\"\n\n[scoring]",
        "cannot be a name",
        "name = \"Bad Name\"",
        "\"Bad Name\"",
    );
    error(
        "[scoring]",
        "[stacks]\nstart = \"none\"\nper_die = 0\n\n[scoring]",
        "out of range",
        "per_die = 0",
        "0",
    );
    error(
        "[scoring]",
        "[stacks]\nstart = \"all\"\n\n[scoring]",
        "checkers on point 13 cannot start stacked",
        "start = \"all\"",
        "\"all\"",
    );
    error(
        "[setup]",
        "[board]\npoints = 28\n\n[stacks]\nstart = \"none\"\n\n[setup]",
        "a board of 28 points cannot stack checkers: at most 24",
        "[stacks]",
        "[stacks]",
    );
    error(
        "[scoring]",
        "[stacks]\nper_die = 2\n\n[scoring]",
        "checkers on point 13 cannot start stacked",
        "[stacks]",
        "[stacks]",
    );
    error(
        "[scoring]",
        "[stacks]\nstart = \"none\"\nmove = \"stacked_at()\"\n\n[scoring]",
        "",
        "move = \"stacked_at()\"",
        "stacked_at()",
    );
    error(
        "[scoring]",
        "[[dice.after]]\nwhen = \"doubles\"\ndouble = \"moved_off(1)\"\n\n[scoring]",
        "unknown function `moved_off`",
        "\"moved_off(1)\"",
        "moved_off",
    );
}

/// STATE fields of the newer mechanisms: a bad value is refused with a reason, and nothing of
/// the game changes.
#[test]
fn bad_states_of_the_newer_mechanisms_are_refused() {
    let g = tables_compile(
        "[game]\nname = \"t\"\nfamily = \"tables\"\n[setup]\ncheckers = [\"24:15\", \"24:15\"]\n[dice]\nunplayed = \"opponent\"\n[[dice.after]]\nwhen = \"doubles\"\nagain = true\n[[remember]]\nname = \"reached_12\"\nwhen = \"to == 12\"\n[[moves.step]]\nwhen = \"reached_12 or true\"\n",
    )
    .unwrap();
    let st = g.new_game(0);
    let good = g.state_json(&st);
    assert!(g.state_from_json(&good).is_ok());
    for (field, value, why) in [
        ("follow", json!("x"), "`follow` must be a count of turns"),
        ("follow", json!(300), "`follow` must be a count of turns"),
        ("first", json!(9), "`first` must be a die"),
        ("given", json!(3), "`given` must be true or false"),
        (
            "remembered",
            json!([["reached_13"], []]),
            "none of reached_12",
        ),
        ("remembered", json!([["reached_12"]]), "the two players"),
        ("pool", json!([1, 0]), "checkers"),
    ] {
        let mut bad = good.clone();
        bad[field] = value;
        let e = g.state_from_json(&bad).unwrap_err().to_string();
        assert!(e.contains(why), "{field}: {e}");
    }
    // Given dice are played in phase "move" only, one to four of them.
    let mut bad = good.clone();
    bad["given"] = json!(true);
    assert!(g
        .state_from_json(&bad)
        .unwrap_err()
        .to_string()
        .contains("phase"));
    bad["phase"] = json!("move");
    bad["dice"] = json!([1, 2, 3, 4, 5]);
    assert!(g.state_from_json(&bad).is_err());
    assert_eq!(g.state_json(&st), good, "nothing of the game changed");
}

/// STATE's `stacked`: only where the rules stack checkers, never more than a point holds,
/// never beyond point 10.
#[test]
fn bad_stacked_states_are_refused() {
    let g = tables_compile(
        "[game]\nname = \"t\"\nfamily = \"tables\"\n[setup]\ncheckers = [\"6:3 1:12\", \"6:3 1:12\"]\n[stacks]\n",
    )
    .unwrap();
    let st = g.new_game(0);
    let good = g.state_json(&st);
    assert!(g.state_from_json(&good).is_ok());
    let mut points = vec![0; 24];
    points[5] = 4;
    let mut beyond = vec![0; 24];
    beyond[10] = 1;
    for (value, why) in [
        (
            json!([points, vec![0; 24]]),
            "4 stacked of the 3 checkers on point 6",
        ),
        (json!([vec![0; 23], vec![0; 24]]), "must list 24 counts"),
        (json!([vec![0; 24]]), "the two players"),
        (json!([vec!["x"; 24], vec![0; 24]]), "expected a count"),
    ] {
        let mut bad = good.clone();
        bad["stacked"] = value;
        let e = g.state_from_json(&bad).unwrap_err().to_string();
        assert!(e.contains(why), "{e}");
    }
    // Beyond point 15, where a checker stands.
    let mut bad = good.clone();
    let mut pts = vec![0; 24];
    pts[0] = 14;
    pts[10] = 1;
    bad["points"] = json!([pts, good["points"][1]]);
    bad["stacked"] = json!([beyond, vec![0; 24]]);
    let e = g.state_from_json(&bad).unwrap_err().to_string();
    assert!(
        e.contains("only on the points the dice name, 1 to 10"),
        "{e}"
    );
    // A game without stacks has no `stacked`.
    let plain = load("backgammon");
    let mut v = plain.state_json(&plain.new_game(0));
    v["stacked"] = json!([vec![0; 24], vec![0; 24]]);
    let e = plain.state_from_json(&v).unwrap_err().to_string();
    assert!(e.contains("stack no checker"), "{e}");
    assert_eq!(g.state_json(&st), good, "nothing of the game changed");
}

/// A STATE given by a position ID or an XGID: refused with a reason where the board has no such
/// IDs, where another field says the same thing, or where the ID is not one; nothing changes.
#[test]
fn states_by_their_ids_are_checked() {
    let g = load("backgammon");
    let st = g.new_game(0);
    let good = g.state_json(&st);
    for (bad, why) in [
        (
            json!({"position_id": "4HPwATDgc/ABMA", "phase": "roll"}),
            "needs `to_move`",
        ),
        (
            json!({"position_id": "4HPwATDgc/ABMA", "to_move": 0, "phase": "roll", "bar": [0, 0]}),
            "gives `bar` too",
        ),
        (
            json!({"position_id": 7, "to_move": 0, "phase": "roll"}),
            "must be a string",
        ),
        (
            json!({"position_id": "4HPw", "to_move": 0, "phase": "roll"}),
            "not a position ID",
        ),
        (
            json!({"xgid": "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "to_move": 1}),
            "gives `to_move` too",
        ),
        (
            json!({"xgid": "XGID=-b----E-C---eE---c-e----B-:0:0:1:7:0:0:0:0:10"}),
            "not a throw",
        ),
        (
            json!({"xgid": "XGID=-p----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"}),
            "has `p`",
        ),
    ] {
        let e = g.state_from_json(&bad).unwrap_err().to_string();
        assert!(e.contains(why), "{bad}: {e}");
    }
    let plakoto = load("plakoto");
    let e = plakoto
        .state_from_json(&json!({"xgid": "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"}))
        .unwrap_err()
        .to_string();
    assert!(e.contains("standard backgammon board only"), "{e}");
    assert_eq!(g.state_json(&st), good, "nothing of the game changed");
}
