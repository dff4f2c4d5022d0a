//! Bad rules files, bad notation and bad STATE objects give clear, located errors, never
//! panics.

use ludus::game::{Game, Json, Notation, Roll, View};
use ludus::rules::Source;
use ludus::tables::{self, TablesGame};
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

/// Compiles `GOOD` with `from` replaced by `to`; returns the first error's message and the
/// text it points at.
fn error(from: &str, to: &str) -> (String, String) {
    assert!(GOOD.contains(from), "{from}");
    let text = GOOD.replacen(from, to, 1);
    let errors = tables_compile(&text).expect_err("should not compile");
    let d = &errors[0];
    let span = d.span.clone().expect("located");
    (d.message.clone(), text[span].to_string())
}

#[test]
fn the_good_file_compiles() {
    let g = tables_compile(GOOD).unwrap();
    assert!(g.describe().contains("leave point 24"));
}

#[test]
fn bad_setups_are_located() {
    let (m, at) = error("24:2 13:5 8:3 6:5\", \"24", "24:2 13:x 8:3 6:5\", \"24");
    assert!(m.contains("expected"), "{m}");
    assert_eq!(&at[..0], "");
    let (m, at) = error("13:5 8:3 6:5\", \"24", "13:5 8:3 6:5 25:1\", \"24");
    assert!(m.contains("out of range"), "{m}");
    assert_eq!(at, "25");
    let (m, at) = error("13:5 8:3 6:5\", \"24", "13:5 8:3 6:5 13:1\", \"24");
    assert!(m.contains("twice"), "{m}");
    assert_eq!(at, "13:1");
    let (m, _) = error("8:3 6:5\", \"24", "8:3 6:4\", \"24");
    assert!(m.contains("different numbers"), "{m}");
    let (m, _) = error("24:2 13:5 8:3 6:5\"]", "24:2 13:5 8:3 6:5\", \"1:1\"]");
    assert!(m.contains("exactly two"), "{m}");
    let (m, at) = error("6:5\", \"24:2", "6:5 bar:1\", \"24:2");
    assert!(m.contains("more than 15"), "{m}");
    assert_eq!(at, "bar:1");
    // White's 13 is Black's 12.
    let (m, _) = error("24:2 13:5 8:3 6:5\"]", "24:2 12:5 8:3 6:5\"]");
    assert!(m.contains("both sides"), "{m}");
    let (m, _) = error("13:5 8:3", "13:5 8:30");
    assert!(
        m.contains("out of range") || m.contains("more than 15"),
        "{m}"
    );
    let (m, _) = error("8:3 6:5\", \"24", "8:3 6:4 off:1\", \"24");
    assert!(m.contains("not off"), "{m}");
}

#[test]
fn bad_options_are_located() {
    let (m, at) = error("\"hit\"", "\"bounce\"");
    assert!(m.contains("bounce"), "{m}");
    assert_eq!(at, "\"bounce\"");
    let (m, at) = error("point = 24", "point = 30");
    assert!(m.contains("not on the board"), "{m}");
    assert_eq!(at, "30");
    let (m, at) = error("mine(24) == 15", "theirs(24) == fifteen");
    assert!(m.contains("fifteen"), "{m}");
    assert_eq!(at, "fifteen");
    let (m, at) = error("home + off > 0 or", "home + off > 0 or or");
    assert!(!m.is_empty() && at.len() <= 4, "{m}: {at}");
    let (m, _) = error("1 + gammon", "1 + gammon >");
    assert!(m.contains("expected"), "{m}");
    let (m, _) = error("1 + gammon", "gammon == 1");
    assert!(m.contains("integer"), "{m}");
    let (m, at) = error("target = 7", "target = 0");
    assert!(m.contains("target"), "{m}");
    assert_eq!(at, "0");
    let (m, at) = error("[match]", "[match]\nnext_first = \"nobody\"");
    assert!(m.contains("nobody"), "{m}");
    assert_eq!(at, "\"nobody\"");
    let (m, at) = error("lone_checker", "lone_checkers");
    assert!(m.contains("unknown field"), "{m}");
    assert_eq!(at, "lone_checkers");
    let (m, _) = error("[setup]\ncheckers", "[setup]\npieces");
    assert!(!m.is_empty());
    let (m, _) = error(
        "family = \"tables\"",
        "family = \"tables\"\nplayers = [\"A\"]",
    );
    assert!(m.contains("two players"), "{m}");
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
    assert_eq!(ok.dice(), Some([3, 4]));
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
        ["did you mean `mine`?", "functions here: mine, theirs"]
    );
}

/// A tables rules text compiled by the family's own compiler.
fn tables_compile(text: &str) -> Result<TablesGame, Vec<ludus::diagnostics::Diagnostic>> {
    let doc = ludus::rules::RulesDoc::parse(text).map_err(|d| vec![d])?;
    tables::compile(&doc)
}
