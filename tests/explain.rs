//! `ludus explain`: the reference entry of any key, table or expression name; an unknown one
//! gets a suggestion and exit 1.

use std::process::{Command, Output};

fn ludus(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(args)
        .output()
        .expect("run ludus")
}

fn explain(key: &str) -> String {
    let o = ludus(&["explain", key]);
    assert!(
        o.status.success(),
        "{key}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn keys_are_explained_in_full() {
    let out = explain("pits");
    assert!(
        out.starts_with("board.pits — sowing rules files, table [board]"),
        "{out}"
    );
    assert!(
        out.contains("value:    a whole number from 1 to 31"),
        "{out}"
    );
    assert!(out.contains("default:  none: required"), "{out}");
    assert!(out.contains("example:  pits = 6"), "{out}");

    let out = explain("sowing.skip_origin");
    assert!(out.contains("\"never\", \"lap\" or \"move\""), "{out}");
    assert!(out.contains("Oware's 12+ rule"), "{out}");

    // An expression key lists the names its expressions may use.
    let out = explain("capture.when");
    assert!(out.contains("names in `capture.when`:"), "{out}");
    assert!(out.contains("last.count"), "{out}");
    assert!(out.contains("opposite.side"), "{out}");

    let out = explain("lone_checker");
    assert!(
        out.contains("moves.lone_checker — tables rules files"),
        "{out}"
    );
    let out = explain("moves.leave.when");
    assert!(out.contains("mine(integer)"), "{out}");
}

#[test]
fn a_key_of_several_tables_or_families_shows_each() {
    let out = explain("stores");
    assert!(
        out.contains("board.stores") && out.contains("sowing.stores"),
        "{out}"
    );
    let out = explain("next_first");
    assert!(
        out.contains("sowing rules files") && out.contains("tables rules files"),
        "{out}"
    );
    let out = explain("players");
    assert!(out.starts_with("game.players — every rules file"), "{out}");
    assert_eq!(out.matches("game.players —").count(), 1, "{out}");
}

#[test]
fn tables_and_expression_names_are_explained() {
    let out = explain("board");
    assert!(
        out.starts_with("[board] — sowing rules files, required"),
        "{out}"
    );
    assert!(out.contains("numbering"), "{out}");
    let out = explain("[[moves.leave]]");
    assert!(out.contains("point") && out.contains("when"), "{out}");

    let out = explain("last.count");
    assert!(
        out.contains("last.count — an expression name of sowing rules files (integer)"),
        "{out}"
    );
    assert!(out.contains("stones in the pit now"), "{out}");
    assert!(
        out.contains("`capture.when`") && out.contains("`turn.again`"),
        "{out}"
    );
    let out = explain("mine(n)");
    assert!(
        out.contains("mine(integer) — an expression name of tables rules files"),
        "{out}"
    );
    let out = explain("gammon");
    assert!(out.contains("`scoring.points`"), "{out}");
    // Both a key and a name.
    let out = explain("grand_slam");
    assert!(
        out.contains("capture.grand_slam —") && out.contains("an expression name"),
        "{out}"
    );
}

#[test]
fn without_a_key_every_table_and_key_is_listed() {
    let o = ludus(&["explain"]);
    assert!(o.status.success());
    let out = String::from_utf8_lossy(&o.stdout);
    for needle in [
        "game.name",
        "[board]",
        "board.pits",
        "[[moves.leave]]",
        "match.target",
    ] {
        assert!(out.contains(needle), "{needle} in\n{out}");
    }
}

#[test]
fn an_unknown_key_gets_did_you_mean_and_exit_1() {
    for (wrong, right) in [
        ("pitts", "pits"),
        ("sowing.skip_orign", "sowing.skip_origin"),
        ("last.cuont", "last.count"),
        ("lone_cheker", "lone_checker"),
    ] {
        let o = ludus(&["explain", wrong]);
        assert_eq!(o.status.code(), Some(1), "{wrong}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(&format!("did you mean `{right}`?")),
            "{wrong}: {err}"
        );
        assert!(o.stdout.is_empty());
    }
    let o = ludus(&["explain", "zzzzzz"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("neither a key"));
}

/// The README's transcript of `ludus explain pits` is what the command prints.
#[test]
fn the_readme_transcript_is_true() {
    let readme = include_str!("../docs/rules.md");
    let start = readme.find("$ ludus explain pits\n").unwrap() + "$ ludus explain pits\n".len();
    let shown = &readme[start..start + readme[start..].find("\n```").unwrap()];
    assert_eq!(shown, explain("pits").trim_end());
}

#[test]
fn the_pit_views_are_explained_with_their_fields() {
    for view in [
        "pit", "last", "next", "beyond", "opposite", "behind", "origin",
    ] {
        let out = explain(view);
        assert!(
            out.starts_with(&format!("{view} — in sowing rules files\n  a pit view")),
            "{out}"
        );
        assert!(out.contains(&format!("{view}.count ")), "{out}");
        assert!(out.contains("in the expressions of `"), "{out}");
    }
    assert!(explain("opposite").contains("the mover's own when `last` is the opponent's"));
}
