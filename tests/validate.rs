//! What an author of a rules file gets from `ludus validate` and `registry::check`: every
//! independent error in one run, in a user's words with the key's help, and warnings for rules
//! that are legal but almost certainly not meant.

use ludus::diagnostics::{Diagnostic, Severity};
use ludus::registry::{check, compile};
use std::path::PathBuf;
use std::process::{Command, Output};

const OWARE: &str = include_str!("../rules/oware.toml");
const KALAH: &str = include_str!("../rules/kalah.toml");
const MUGHRABIEH: &str = include_str!("../rules/mughrabieh.toml");

/// `text` with each `from` replaced by `to`, once, outside comments.
fn edit(text: &str, edits: &[(&str, &str)]) -> String {
    let mut out = text.to_string();
    for (from, to) in edits {
        let mut at = None;
        let mut offset = 0;
        for l in out.split_inclusive('\n') {
            if !l.trim_start().starts_with('#') {
                if let Some(i) = l.find(from) {
                    at = Some(offset + i);
                    break;
                }
            }
            offset += l.len();
        }
        let at = at.unwrap_or_else(|| panic!("{from:?} not in the text"));
        out.replace_range(at..at + from.len(), to);
    }
    out
}

/// The line (1-based) of a diagnostic.
fn line(text: &str, d: &Diagnostic) -> usize {
    let span = d.span.clone().expect("located");
    text[..span.start].matches('\n').count() + 1
}

/// The first line outside comments holding `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| !l.trim_start().starts_with('#') && l.contains(needle))
        .expect(needle)
        + 1
}

/// The errors of `text`, each as (line, message).
fn errors(text: &str) -> Vec<(usize, String)> {
    let report = check(text);
    assert!(report.game.is_none(), "accepted:\n{text}");
    report
        .errors()
        .map(|d| (line(text, d), d.message.clone()))
        .collect()
}

#[track_caller]
fn warnings(text: &str) -> Vec<Diagnostic> {
    let report = check(text);
    assert!(
        report.errors().next().is_none(),
        "errors: {:?}",
        report.errors().collect::<Vec<_>>()
    );
    assert!(report.game.is_some());
    report.warnings().cloned().collect()
}

/// Asserts that the errors are exactly these, in any order: (a line's needle, a message part).
fn assert_errors(text: &str, expected: &[(&str, &str)]) {
    let found = errors(text);
    assert_eq!(found.len(), expected.len(), "{found:#?}");
    for (needle, message) in expected {
        let at = line_of(text, needle);
        assert!(
            found.iter().any(|(l, m)| *l == at && m.contains(message)),
            "no error `{message}` on line {at} ({needle}) in {found:#?}"
        );
    }
}

#[test]
fn sowing_three_mistakes_in_three_tables_are_all_reported() {
    // A value error, an expression error and an unknown key.
    let text = edit(
        OWARE,
        &[
            ("must_feed = true", "must_feed = true\nmax_laps = 0"),
            ("last.count in [2, 3]\"", "last.cuont in [2, 3]\""),
            ("repetition = true", "repetiton = true"),
        ],
    );
    assert_errors(
        &text,
        &[
            ("max_laps = 0", "`max_laps` must be from 1 to 10000"),
            ("last.cuont", "unknown name `last.cuont`"),
            ("repetiton", "unknown field `repetiton` in `[end]`"),
        ],
    );
    // A wrong type, a missing key, and an expression and a value error after them.
    let text = edit(
        KALAH,
        &[
            ("stores = true", "stores = \"yes\""),
            ("take = [", "takes = ["),
            ("again = \"last.is_store\"", "again = \"last.is_stor\""),
            ("[end]", "[end]\nmax_plies = 0"),
        ],
    );
    let found = errors(&text);
    for (needle, message) in [
        (
            "stores = \"yes\"",
            "found the text \"yes\", expected `true` or `false`",
        ),
        ("takes = [", "unknown field `takes` in `[capture]`"),
        ("[capture]", "missing key `take` in `[capture]`"),
        ("again =", "unknown name `last.is_stor`"),
        ("max_plies = 0", "`max_plies` must be at least 1"),
    ] {
        let at = line_of(&text, needle);
        assert!(
            found.iter().any(|(l, m)| *l == at && m.contains(message)),
            "no `{message}` at line {at} in {found:#?}"
        );
    }
    assert_eq!(found.len(), 5, "{found:#?}");
}

#[test]
fn sowing_checks_go_on_after_a_value_error() {
    // Two layouts of the wrong length, a bad first move and a bad expression: the layout errors
    // stop the checks that need the board, not the others.
    let text = edit(
        OWARE,
        &[
            ("stones = 4", "layout = [[4, 4, 4], [4, 4]]"),
            ("start = \"pit.count > 0\"", "start = \"pit.cont > 0\""),
            ("rows = 1", "rows = 3"),
        ],
    );
    assert_errors(
        &text,
        &[
            ("rows = 3", "`rows` must be 1 or 2"),
            ("pit.cont", "unknown name `pit.cont`"),
        ],
    );
    let text = edit(OWARE, &[("stones = 4", "layout = [[4, 4, 4], [4, 4]]")]);
    let found = errors(&text);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found.iter().all(|(_, m)| m.contains("pits listed")));
    // Both expressions of [capture] are checked, and `take`.
    let text = edit(
        OWARE,
        &[
            ("last.side == opponent and", "last.sid == opponent and"),
            ("pit.side == opponent and", "pit.sde == opponent and"),
            ("take = [\"last\"]", "take = []"),
        ],
    );
    assert_errors(
        &text,
        &[
            ("last.sid", "unknown name `last.sid`"),
            ("pit.sde", "unknown name `pit.sde`"),
            ("take = []", "`take` names no pit"),
        ],
    );
}

#[test]
fn tables_three_mistakes_in_three_tables_are_all_reported() {
    let text = edit(
        MUGHRABIEH,
        &[
            ("lone_checker = \"blocks\"", "lone_checker = \"bounce\""),
            ("points = \"loser_left\"", "points = \"loser_lef\""),
            ("target = 31", "target = \"31\""),
        ],
    );
    assert_errors(
        &text,
        &[
            (
                "bounce",
                "unknown value \"bounce\" for `moves.lone_checker`",
            ),
            ("loser_lef", "unknown name `loser_lef`"),
            (
                "target =",
                "found the text \"31\", expected a whole number from 1 to 10000",
            ),
        ],
    );
    // A point off the board still has its condition checked; a bad target, its next_first.
    let text = edit(
        MUGHRABIEH,
        &[
            ("point = 24", "point = 25"),
            ("mine(24) == 15", "mine(24) == fifteen"),
            ("target = 31", "target = 0"),
            ("next_first = \"ritual\"", "next_first = \"rituel\""),
            (
                "ritual = \"higher-die-chooses-colour\"",
                "ritual = \"higher-die-chooses-color\"",
            ),
        ],
    );
    assert_errors(
        &text,
        &[
            ("point = 25", "point 25 is not on the board"),
            ("fifteen", "unknown name `fifteen`"),
            ("target = 0", "match target 0 is out of range"),
            ("rituel", "unknown value \"rituel\" for `match.next_first`"),
            (
                "chooses-color",
                "unknown value \"higher-die-chooses-color\"",
            ),
        ],
    );
}

#[test]
fn errors_name_the_key_and_what_it_takes_with_its_help() {
    // A repaired value leads to no error of its own.
    let report = check(&edit(OWARE, &[("pits = 6", "pits = \"six\"")]));
    assert_eq!(report.errors().count(), 1, "{:#?}", report.diagnostics);
    let d = report.errors().next().unwrap();
    assert_eq!(
        d.message,
        "found the text \"six\", expected a whole number from 1 to 31"
    );
    assert!(d
        .notes
        .iter()
        .any(|n| n.starts_with("help: board.pits:") && n.ends_with("e.g. pits = 6")));

    let report = check(&edit(OWARE, &[("take = [\"last\"]", "take = \"last\"")]));
    assert_eq!(report.errors().count(), 1, "{:#?}", report.diagnostics);
    let d = report.errors().next().unwrap();
    assert!(
        d.message
            .contains("found the text \"last\", expected a list of pits such as `[\"last\"]`"),
        "{d:?}"
    );

    let report = check(&edit(OWARE, &[("stones = 4", "stones = \"4\"")]));
    let d = report.errors().next().unwrap();
    assert!(
        d.notes.contains(&"without the quotes: `4`".to_string()),
        "{d:?}"
    );

    let report = check(&edit(
        OWARE,
        &[("grand_slam = \"no-capture\"", "grand_slam = 3")],
    ));
    let d = report.errors().next().unwrap();
    assert_eq!(
        d.message,
        "found the number `3`, expected \"capture\", \"no-capture\", \"forbidden\", \"never\", \"leave-right\" or \"leave-left\""
    );

    let report = check(&edit(
        OWARE,
        &[("grand_slam = \"no-capture\"", "grand_slam = \"nocapture\"")],
    ));
    let d = report.errors().next().unwrap();
    assert_eq!(
        d.message,
        "unknown value \"nocapture\" for `capture.grand_slam`"
    );
    assert!(d
        .notes
        .contains(&"did you mean \"no-capture\"?".to_string()));

    // A misspelt table, a key in the wrong table, a table written as a key.
    let report = check(&edit(OWARE, &[("[end]", "[ned]")]));
    let d = report.errors().next().unwrap();
    assert_eq!(d.message, "unknown table `[ned]`");
    assert!(d.notes.contains(&"did you mean `end`?".to_string()));
    let report = check(&edit(
        OWARE,
        &[("stores = false", "stores = false\nstones = 4")],
    ));
    let d = report.errors().next().unwrap();
    assert_eq!(d.message, "unknown field `stones` in `[board]`");
    assert!(
        d.notes
            .contains(&"`stones` is a key of `[setup]`".to_string()),
        "{d:?}"
    );

    // A missing key names its table; a missing table gives an example.
    let report = check(&OWARE.replace("pits = 6\n", ""));
    let d = report.errors().next().unwrap();
    assert_eq!(d.message, "missing key `pits` in `[board]`");
    let report = check(&edit(MUGHRABIEH, &[("[setup]", "[stup]")]));
    let messages: Vec<&str> = report.errors().map(|d| d.message.as_str()).collect();
    assert!(
        messages.contains(&"missing table `[setup]`"),
        "{messages:?}"
    );
    assert!(messages.contains(&"unknown table `[stup]`"), "{messages:?}");

    // An expression's misspelt name: the suggestion's meaning, the key's help.
    let report = check(&edit(OWARE, &[("last.count in", "last.cuont in")]));
    let d = report.errors().next().unwrap();
    assert!(d.notes.contains(&"did you mean `last.count`?".to_string()));
    assert!(
        d.notes
            .contains(&"`last.count` (integer): stones in the pit now".to_string()),
        "{d:?}"
    );
    assert!(d.notes.iter().any(|n| n.starts_with("help: capture.when:")));
}

#[test]
fn toml_syntax_errors_are_in_a_users_words() {
    let first = |text: String| check(&text).diagnostics[0].clone();
    let d = first(edit(OWARE, &[("pits = 6", "pits = six")]));
    assert_eq!(d.message, "`six` is not a value: text is written in quotes");
    let d = first(edit(OWARE, &[("pits = 6", "pits =")]));
    assert_eq!(d.message, "missing value after `=`");
    let d = first(edit(OWARE, &[("pits = 6", "pits = 6\npits = 7")]));
    assert_eq!(d.message, "`pits` is given twice in `[board]`");
    let d = first(edit(OWARE, &[("[end]", "[end]\n[end]")]));
    assert_eq!(d.message, "the table `[end]` is given twice");
}

#[test]
fn compile_keeps_returning_errors_only() {
    let text = edit(OWARE, &[("name = \"oware\"", "name = \"\"")]);
    assert!(compile(&text).is_ok());
    let text = edit(OWARE, &[("pits = 6", "pits = 0")]);
    let e = compile(&text).unwrap_err();
    assert!(e.iter().all(|d| d.severity == Severity::Error));
}

#[test]
fn bundled_files_have_neither_errors_nor_warnings() {
    for (name, text) in ludus::rules::BUNDLED {
        let report = check(text);
        assert!(
            report.diagnostics.is_empty(),
            "{name}: {:#?}",
            report.diagnostics
        );
    }
}

/// The warnings of an edited file: each (a line's needle, a message part).
#[track_caller]
fn assert_warnings(text: &str, expected: &[(&str, &str)]) {
    let found = warnings(text);
    assert_eq!(found.len(), expected.len(), "{found:#?}");
    for (needle, message) in expected {
        let at = line_of(text, needle);
        assert!(
            found
                .iter()
                .any(|d| line(text, d) == at && d.message.contains(message)),
            "no warning `{message}` on line {at} in {found:#?}"
        );
    }
}

#[test]
fn names_are_warned_about() {
    assert_warnings(
        &edit(
            OWARE,
            &[
                ("name = \"oware\"", "name = \"\""),
                ("title = \"Oware (Abapa)\"", "title = \"Oware\\u0007\""),
                (
                    "players = [\"South\", \"North\"]",
                    "players = [\"South\", \" \"]",
                ),
            ],
        ),
        &[
            ("name = \"\"", "the game's `name` is empty"),
            (
                "title =",
                "the game's `title` holds a control character (\\u{7})",
            ),
            ("players =", "player 1's name is empty"),
        ],
    );
    assert_warnings(
        &edit(
            MUGHRABIEH,
            &[(
                "players = [\"White\", \"Black\"]",
                "players = [\"White\", \"White\"]",
            )],
        ),
        &[("players =", "both players are named \"White\"")],
    );
}

#[test]
fn sowing_rules_that_cannot_be_meant_are_warned_about() {
    assert_warnings(
        &edit(
            OWARE,
            &[("take = [\"last\"]", "take = [\"last\", \"next\", \"last\"]")],
        ),
        &[("take =", "\"last\" is listed twice in `capture.take`")],
    );
    assert_warnings(
        &edit(
            OWARE,
            &[("take = [\"last\"]", "take = [\"opposite\", \"column\"]")],
        ),
        &[("take =", "\"opposite\" is already taken by \"column\"")],
    );
    // No pit meets the start condition at the start: over before it begins, for both players.
    let text = edit(
        OWARE,
        &[("start = \"pit.count > 0\"", "start = \"pit.count > 4\"")],
    );
    let found = warnings(&text);
    assert_eq!(found.len(), 2, "{found:#?}");
    for (d, name) in found.iter().zip(["South", "North"]) {
        assert_eq!(line(&text, d), line_of(&text, "pit.count > 4"));
        assert!(
            d.message
                .contains(&format!("no pit of {name} meets `sowing.start`"))
                && d.message.contains("over before it begins"),
            "{d:?}"
        );
    }
    // Only one side empty at the start: only that player is stuck.
    let text = edit(
        OWARE,
        &[(
            "stones = 4",
            "layout = [[4, 4, 4, 4, 4, 4], [0, 0, 0, 0, 0, 0]]",
        )],
    );
    assert_warnings(
        &text,
        &[("start =", "no pit of North meets `sowing.start`")],
    );
    let text = edit(
        OWARE,
        &[
            (
                "stones = 4",
                "layout = [[4, 4, 4, 4, 4, 4], [0, 0, 0, 0, 0, 0]]",
            ),
            ("start = \"pit.count > 0\"\n", ""),
        ],
    );
    assert_warnings(
        &text,
        &[("[setup]", "no pit of North meets `sowing.start`")],
    );
    // A forced first pit that is empty.
    let text = edit(
        OWARE,
        &[(
            "stones = 4",
            "layout = [[0, 4, 4, 4, 4, 4]]\nfirst_move = 1",
        )],
    );
    let found = warnings(&text);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found.iter().all(|d| d.message.contains("cannot sow pit 1")
        && line(&text, d) == line_of(&text, "first_move")));
    assert_warnings(
        &edit(KALAH, &[("again = \"last.is_store\"", "again = \"true\"")]),
        &[("again =", "`turn.again` is always true")],
    );
    assert_warnings(
        &edit(
            OWARE,
            &[(
                "when = \"last.side == opponent and last.count in [2, 3]\"",
                "when = \"1 > 2\"",
            )],
        ),
        &[("when =", "`capture.when` is always false")],
    );
    assert_warnings(
        &edit(
            OWARE,
            &[("repetition = true", "repetition = true\nstop = \"0 == 0\"")],
        ),
        &[("stop =", "`end.stop` is always true")],
    );
    assert_warnings(
        &edit(OWARE, &[("[sowing]", "[sowing]\nskip = \"1 == 1\"")]),
        &[("skip =", "`skip` always holds")],
    );
    assert_warnings(
        &edit(OWARE, &[("must_feed = true", "cannot_feed = \"any-move\"")]),
        &[("cannot_feed =", "`cannot_feed` without `must_feed`")],
    );
    assert_warnings(
        &edit(
            OWARE,
            &[("stones = 4", "stones = 4\nlayout_for = \"starter\"")],
        ),
        &[("layout_for =", "`layout_for` without two `layout` lists")],
    );
    assert_warnings(
        &edit(
            OWARE,
            &[("repetition = true", "repetition = true\nmax_plies = 200000")],
        ),
        &[("max_plies", "every game ends by 100000 plies")],
    );
}

#[test]
fn tables_rules_that_cannot_be_meant_are_warned_about() {
    assert_warnings(
        &edit(MUGHRABIEH, &[("points = \"loser_left\"", "points = \"0\"")]),
        &[("points =", "`points` is never above 0")],
    );
    assert_warnings(
        &edit(
            MUGHRABIEH,
            &[(
                "when = \"home + off > 0 or mine(24) == 15\"",
                "when = \"1 == 1\"",
            )],
        ),
        &[("when =", "`when` is always true")],
    );
    assert_warnings(
        &edit(
            MUGHRABIEH,
            &[(
                "when = \"home + off > 0 or mine(24) == 15\"",
                "when = \"false\"",
            )],
        ),
        &[("when =", "no checker ever leaves point 24")],
    );
}

// The command line.

fn ludus(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(args)
        .output()
        .expect("run ludus")
}

fn scratch(name: &str, content: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ludus-validate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, content).unwrap();
    path
}

#[test]
fn validate_prints_every_error_and_warning_located() {
    let text = edit(
        OWARE,
        &[
            ("must_feed = true", "must_feed = true\nmax_laps = 0"),
            ("last.count in [2, 3]\"", "last.cuont in [2, 3]\""),
            ("repetition = true", "repetiton = true"),
            ("take = [\"last\"]", "take = [\"last\", \"last\"]"),
        ],
    );
    let path = scratch("several.toml", text.as_bytes());
    let o = ludus(&["validate", path.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(
        err.matches("\nerror: ").count() + usize::from(err.starts_with("error: ")),
        3,
        "{err}"
    );
    assert!(err.contains("warning: \"last\" is listed twice"), "{err}");
    assert!(err.contains(&format!("several.toml:{}:", line_of(&text, "max_laps = 0"))));
    assert!(err.contains("= help: sowing.max_laps:"), "{err}");
    assert!(
        err.contains("several.toml: 3 error(s), 1 warning(s)"),
        "{err}"
    );
}

#[test]
fn warnings_alone_pass_unless_denied() {
    let text = edit(OWARE, &[("name = \"oware\"", "name = \"\"")]);
    let path = scratch("warned.toml", text.as_bytes());
    let file = path.to_str().unwrap();
    let o = ludus(&["validate", file]);
    assert_eq!(o.status.code(), Some(0));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("warning: the game's `name` is empty"), "{err}");
    assert!(err.contains("warned.toml:"), "{err}");
    assert!(String::from_utf8_lossy(&o.stdout).contains("warned.toml: ok, 1 warning(s)"));
    let o = ludus(&["validate", "--deny-warnings", file]);
    assert_eq!(o.status.code(), Some(1));

    let o = ludus(&["validate", "--format", "json", file]);
    assert_eq!(o.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["valid"], true);
    let w = &report["files"][0]["warnings"][0];
    assert_eq!(w["severity"], "warning");
    assert_eq!(w["line"], line_of(&text, "name = \"\""));
    assert_eq!(report["files"][0]["errors"], serde_json::json!([]));
}

#[test]
fn json_errors_carry_their_severity() {
    let path = scratch("bad.toml", OWARE.replace("pits = 6", "pits = 0").as_bytes());
    let o = ludus(&["validate", "--format", "json", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["files"][0]["errors"][0]["severity"], "error");
}

#[test]
fn a_file_that_is_not_utf8_is_named_with_its_line() {
    let mut bytes = b"[game]\nname = \"x\"\ntitle = \"caf".to_vec();
    bytes.extend_from_slice(&[0xe9, b'"', b'\n']);
    let path = scratch("latin1.toml", &bytes);
    let o = ludus(&["validate", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("is not UTF-8 text (line 3)"), "{err}");
    let o = ludus(&["validate", "--format", "json", path.to_str().unwrap()]);
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["files"][0]["errors"][0]["line"], 3);
}

/// The file behind the README's transcript of `ludus validate my-oware.toml`.
const README_EXAMPLE: &str = r#"[game]
name = "oware-5"
family = "sowing"
title = "Oware with five seeds"

[board]
pits = 6

[setup]
stones = 5

[sowing]
skip_origin = "laps"
must_feed = true

[capture]
when = "last.side == opponent and last.cuont in [4, 5]"
take = ["last", "last"]
chain = "pit.side == opponent and pit.count in [4, 5]"
grand_slam = "no-capture"

[end]
score = "mover.store >= 31 or opponent.store >= 31 or (mover.store == 30 and opponent.store == 30)"
repetiton = true
"#;

/// The README's transcript of `ludus validate` is what the command prints.
#[test]
fn the_readme_transcript_is_true() {
    let readme = include_str!("../docs/rules.md");
    let head = "$ ludus validate my-oware.toml\n";
    let start = readme.find(head).unwrap() + head.len();
    let shown = &readme[start..start + readme[start..].find("\n```").unwrap()];
    let dir = std::env::temp_dir().join(format!("ludus-readme-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("my-oware.toml"), README_EXAMPLE).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .current_dir(&dir)
        .args(["validate", "my-oware.toml"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let printed = String::from_utf8_lossy(&o.stderr);
    assert_eq!(shown, printed.trim_end());
}

/// Mangled files (lines dropped, values swapped for others of any shape, keys misspelt) never
/// panic the checks; every diagnostic is located inside the file, and a game comes back exactly
/// when there is no error.
#[test]
fn mangled_files_are_checked_without_panics() {
    let values = [
        "1",
        "-3",
        "\"x\"",
        "true",
        "[]",
        "[1, \"a\"]",
        "{ a = 1 }",
        "\"last\"",
        "0",
        "9999999999",
        "1979-05-27",
        "[[1, 2]]",
        "\"pit.count >\"",
    ];
    let mut seed = 11u64;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    for round in 0..1500 {
        let (_, base) = ludus::rules::BUNDLED[round % ludus::rules::BUNDLED.len()];
        let mut lines: Vec<String> = base.lines().map(String::from).collect();
        for _ in 0..1 + next(4) {
            let i = next(lines.len());
            match next(4) {
                0 => {
                    lines.remove(i);
                }
                1 => {
                    if let Some((key, _)) = lines[i].split_once(" = ") {
                        lines[i] = format!("{key} = {}", values[next(values.len())]);
                    }
                }
                2 => {
                    if let Some((key, value)) = lines[i].split_once(" = ") {
                        lines[i] = format!("{key}x = {value}");
                    }
                }
                _ => lines.insert(i, format!("zz{i} = {}", values[next(values.len())])),
            }
        }
        let text = lines.join("\n");
        let report = check(&text);
        let has_errors = report.errors().next().is_some();
        assert_eq!(report.game.is_some(), !has_errors, "{text}");
        for d in &report.diagnostics {
            let span = d
                .span
                .clone()
                .unwrap_or_else(|| panic!("unlocated {d:?}\n{text}"));
            assert!(
                span.start <= span.end && span.end <= text.len(),
                "{d:?}\n{text}"
            );
            assert!(!d.message.is_empty());
        }
    }
}
