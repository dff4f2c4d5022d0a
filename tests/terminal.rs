//! `ludus play` as a new user meets it, driven through `--input FILE`: the board's orientation,
//! who is who, typed dice, closed pits, gains, the prompt and `help`, offers to end, forced
//! passes, the rule that forbids a move, each thing said once, bad input, `list` and `--help`.

use std::path::PathBuf;
mod cli_common;
use cli_common::{ludus, play};

/// A scratch file with this content, unique to the test.
fn scratch(name: &str, content: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ludus-terminal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, content).unwrap();
    path
}

/// `play ARGS --input FILE` with `input` as the human's typing.
fn play_typing(name: &str, input: &str, args: &[&str]) -> String {
    let file = scratch(name, input);
    play(&[args, &["--input", file.to_str().unwrap()]].concat())
}

#[test]
fn without_a_single_human_the_board_keeps_player_0s_side() {
    let out = play(&[
        "oware", "--south", "random", "--north", "greedy", "--seed", "1",
    ]);
    // Every board opens with the store of the side across: North's.
    let boards: Vec<&str> = out.split("\n\n").skip(1).collect();
    assert!(boards.len() > 10, "{out}");
    for b in &boards {
        assert!(b.starts_with("North"), "{b}\n---\n{out}");
    }
    let out = play(&[
        "had", "--white", "random", "--black", "random", "--seed", "2",
    ]);
    assert!(!out.contains("BAR  O"), "X keeps its half: {out}");
    // Black's moves read in the board's (White's) numbering, Black's own beside them.
    assert!(out.contains(" in Black's numbering)."), "{out}");
}

#[test]
fn the_help_names_white_and_black_and_colours_stay_as_given() {
    let help = String::from_utf8_lossy(&ludus(&["play", "--help"]).stdout).into_owned();
    for text in [
        "--white",
        "--black",
        "White in tables games",
        "Black in tables games",
    ] {
        assert!(help.contains(text), "{text}: {help}");
    }
    for seed in ["1", "2", "3", "4"] {
        let out = play_typing(
            "colour.txt",
            "quit\n",
            &[
                "had", "--white", "human", "--black", "random", "--seed", seed,
            ],
        );
        assert!(out.contains("White (human) rolls"), "{out}");
        assert!(out.contains("the lower roller, starts"), "{out}");
        assert!(!out.contains("Black (human)"), "{out}");
        assert!(!out.contains("Player A"), "{out}");
    }
}

#[test]
fn typed_dice_take_three_forms_and_undo_help_and_quit() {
    let out = play_typing(
        "dice.txt",
        "HELP\nundo\n61\n13/7 8/7\n5 2\n4-3\nUndo\nquit\n",
        &[
            "backgammon",
            "--white",
            "human",
            "--black",
            "random",
            "--first",
            "white",
            "--dice",
            "manual",
        ],
    );
    assert!(out.contains("as `6-5`, `6 5` or `65`"), "{out}");
    assert!(
        out.contains("Roll the dice and type what they show"),
        "{out}"
    );
    assert!(out.contains("Nothing to undo."), "{out}");
    assert!(out.contains("White (human) rolls 6-1."), "{out}");
    assert!(out.contains("White (human) plays 13/7 8/7."), "{out}");
    assert!(out.contains("Black (random) rolls 5-2."), "{out}");
    assert!(out.contains("White (human) rolls 4-3."), "{out}");
    // `undo` at the dice goes back to White's move with 6-1.
    let after = &out[out.find("Undone.").expect("undone")..];
    assert!(after.contains("White (human) to move with 6-1"), "{out}");
    assert!(out.contains("Game abandoned."), "{out}");
}

#[test]
fn closed_pits_show_their_stones_and_captures_are_said() {
    let out = play(&[
        "sat-gharva",
        "--south",
        "random",
        "--north",
        "random",
        "--seed",
        "2",
    ]);
    assert!(out.contains("[3]"), "{out}");
    assert!(out.contains("[n]: a closed pit"), "{out}");
    assert!(out.contains(" plays 6 and captures 1 stone."), "{out}");
    assert!(out.contains("and captures 21 stones;"), "{out}");
}

#[test]
fn the_prompt_shows_the_dice_and_help_explains_the_notation() {
    let out = play_typing(
        "prompt.txt",
        "moves\nhelp\nquit\n",
        &[
            "backgammon",
            "--white",
            "human",
            "--black",
            "random",
            "--first",
            "white",
            "--seed",
            "7",
        ],
    );
    assert!(out.contains("White (human) to move with "), "{out}");
    assert!(
        !out.contains("`end`"),
        "backgammon has no ending by agreement: {out}"
    );
    for text in ["`24/18 13/11`", "`bar/22`", "`6/off`", "`13/7(2)`"] {
        assert!(out.contains(text), "{text}: {out}");
    }
    // The list: sorted, wrapped between moves.
    let start = out.find("Legal moves: ").expect("a list");
    let list: Vec<&str> = out[start..]
        .lines()
        .take_while(|l| !l.contains("to move"))
        .collect();
    let mut moves = Vec::new();
    for (i, line) in list.iter().enumerate() {
        assert!(line.chars().count() <= 78, "{line}");
        let body = line.trim_start_matches("Legal moves: ").trim();
        if i + 1 < list.len() && list[i + 1].starts_with("  ") {
            assert!(body.ends_with(','), "a break inside a move: {line}");
        }
        moves.extend(
            body.split(", ")
                .map(|m| m.trim_end_matches(',').to_string()),
        );
    }
    let first: Vec<u32> = moves
        .iter()
        .map(|m| m.split('/').next().unwrap().parse().unwrap_or(u32::MAX))
        .collect();
    assert!(first.windows(2).all(|w| w[0] <= w[1]), "{moves:?}");
    let sowing = play_typing(
        "pits.txt",
        "help\nquit\n",
        &["uuholo", "--south", "human", "--first", "0"],
    );
    assert!(
        sowing.contains("the number of the pit you sow from"),
        "{sowing}"
    );
    assert!(sowing.contains("`end`"), "{sowing}");
}

#[test]
fn the_cube_is_offered_answered_and_said() {
    let out = play_typing(
        "cube.txt",
        "3-1\n8/5 6/5\nhelp\ntake\nhint\ndouble\nhint\ntake\n6-4\n24/14\nroll\n2-1\n6/4 5/4\n5-2\n13/8 6/4\ndouble\ndrop\n",
        &[
            "backgammon-money",
            "--white",
            "human",
            "--black",
            "human",
            "--first",
            "white",
            "--dice",
            "manual",
        ],
    );
    for said in [
        "Black (human) to double (to 2) or roll",
        "The cube: `double` or `roll` before rolling; `take` or `drop` to answer a double.",
        "`take` is not legal: the cube is to be decided on before rolling: type roll or double",
        "Hint by net (the cube: each decision's cubeful equity for you, in points): roll ",
        "Black (human) doubles.",
        ", drop -1.000",
        "White (human) to answer the double to 2: take or drop",
        "White (human) takes.",
        "cube: 2, White's",
        "White (human) to double (to 4) or roll",
        "White (human) does not double.",
        "Black (human) drops.",
        "White (human) wins (double declined)",
    ] {
        assert!(out.contains(said), "{said}:\n{out}");
    }
}

#[test]
fn a_resignation_is_offered_answered_and_recorded() {
    let out = play_typing(
        "resign.txt",
        "3-1\n8/5 6/5\n6-4\nresign triple\nresign gammon\nno\nhelp\nresign gammon\nyes\n",
        &[
            "backgammon",
            "--white",
            "human",
            "--black",
            "human",
            "--first",
            "white",
            "--dice",
            "manual",
        ],
    );
    for said in [
        "`undo`, `resign`, `quit`",
        "Type `resign`, `resign gammon` or `resign backgammon`.",
        "Black (human) resigns, conceding a gammon.",
        "White (human), accept? (`yes` or `no`)",
        "White (human) declines; play on.",
        "  resign  concede the game",
        "White (human) accepts.",
        "White (human) wins (resigned a gammon): White 2 – 0 Black",
    ] {
        assert!(out.contains(said), "{said}:\n{out}");
    }
    // A computer accepts a single game at the start: it expects less.
    let out = play_typing(
        "resign-net.txt",
        "resign\n",
        &[
            "backgammon",
            "--white",
            "human",
            "--black",
            "net",
            "--seed",
            "3",
        ],
    );
    assert!(out.contains("Black (net) accepts."), "{out}");
    // Sowing games have no resignation: the word is a move there, and not a legal one.
    let out = play_typing("resign-oware.txt", "resign\nquit\n", &["oware"]);
    assert!(!out.contains(", `resign`, `quit`"), "{out}");
}

#[test]
fn offers_get_answers_passes_are_played_and_rules_are_named() {
    let out = play_typing(
        "offer.txt",
        "end\nmaybe\nno\nquit\n",
        &[
            "uuholo", "--south", "human", "--north", "human", "--first", "0",
        ],
    );
    assert!(
        out.contains("White (human) offers to end the game here."),
        "{out}"
    );
    assert!(out.contains("Answer `yes` or `no`."), "{out}");
    assert!(out.contains("Black (human) declines; play on."), "{out}");
    let out = play(&[
        "backgammon",
        "--white",
        "random",
        "--black",
        "random",
        "--seed",
        "2",
    ]);
    assert!(out.contains("cannot move and passes."), "{out}");
    assert!(!out.contains("plays pass"), "{out}");
    let out = play_typing(
        "leave.txt",
        "2-4\n24/22 24/20\nquit\n",
        &[
            "mughrabieh",
            "--white",
            "human",
            "--first",
            "white",
            "--dice",
            "manual",
        ],
    );
    assert!(
        out.contains("`24/22 24/20` is not legal: a checker may leave point 24 only when"),
        "{out}"
    );
}

#[test]
fn each_thing_is_said_once() {
    let out = play(&[
        "oware", "--south", "random", "--north", "greedy", "--seed", "1",
    ]);
    assert!(!out.contains(" to move\n"), "{out}");
    assert!(!out.contains("game over"), "{out}");
    assert_eq!(out.matches(" starts.").count(), 1, "{out}");
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
    assert!(!out.contains("=== Game"), "{out}");
    assert!(!out.contains("Match after"), "{out}");
    assert!(!out.contains("match over"), "{out}");
    assert_eq!(out.matches("wins the match").count(), 1, "{out}");
}

#[test]
fn bad_input_is_echoed_short_and_escaped_and_commands_take_any_case() {
    let long = format!("\x1b[2J{}\n", "x".repeat(300));
    let out = play_typing(
        "bad.txt",
        &format!("{long}MOVES\nUndo\nQUIT\n"),
        &["oware", "--north", "random", "--first", "south"],
    );
    assert!(!out.contains('\x1b'), "{out}");
    assert!(out.contains("cannot read `\\u{1b}[2J"), "{out}");
    assert!(out.contains('…'), "{out}");
    assert!(!out.contains(&"x".repeat(100)), "{out}");
    assert!(out.contains("Legal moves: 1, 2, 3, 4, 5, 6"), "{out}");
    assert!(out.contains("Nothing to undo."), "{out}");
    assert!(out.contains("Game abandoned."), "{out}");
}

#[test]
fn list_has_one_shape_and_bench_help_describes_every_argument() {
    let out = String::from_utf8_lossy(&ludus(&["list"]).stdout).into_owned();
    for line in out.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert!(
            matches!(fields.get(1), Some(&"sowing" | &"tables")),
            "{line}"
        );
        assert!(line.ends_with(')') && line.contains(" vs "), "{line}");
    }
    let help = String::from_utf8_lossy(&ludus(&["bench", "--help"]).stdout).into_owned();
    for line in help
        .lines()
        .filter(|l| l.trim_start().starts_with('<') || l.trim_start().starts_with("--"))
    {
        let described = line.trim().split_once("  ").map(|(_, d)| d.trim());
        assert!(described.is_some_and(|d| !d.is_empty()), "{line}\n{help}");
    }
}

#[test]
fn the_tables_board_counts_pips_and_shows_the_bar_only_where_checkers_are_hit() {
    let out = play(&[
        "plakoto", "--white", "random", "--black", "random", "--seed", "3",
    ]);
    // Nobody is hit in Plakoto: no bar; a pinned checker is explained once it appears.
    assert!(!out.contains("BAR") && !out.contains("bar 0"), "{out}");
    assert!(out.contains("White (X): pip count 360, off 0"), "{out}");
    assert!(
        out.contains("x: a pinned checker of White, under the Black checker pinning it")
            || out.contains("o: a pinned checker of Black, under the White checker pinning it"),
        "{out}"
    );
    let out = play(&[
        "backgammon",
        "--white",
        "random",
        "--black",
        "random",
        "--seed",
        "3",
    ]);
    assert!(out.contains("BAR  X 0  O 0"), "{out}");
    assert!(
        out.contains("White (X): pip count 167, bar 0, off 0"),
        "{out}"
    );
    assert!(!out.contains("pinned"), "{out}");
}

#[test]
fn two_people_at_one_terminal_each_see_their_own_side() {
    // White throws 3, Black 5: Black starts with 5-3 and, shown the board from Black's side,
    // types the move in Black's own numbering.
    let out = play_typing(
        "two-people.txt",
        "help\n3\n5\n8/3 6/3\n6 2\n",
        &[
            "backgammon",
            "--white",
            "human",
            "--black",
            "human",
            "--dice",
            "manual",
        ],
    );
    assert!(
        out.contains("Throw one die for each player and type what it shows (ties throw again): the higher roller starts and plays the two dice rolled."),
        "{out}"
    );
    let black = out
        .find("Black (O): pip count 167")
        .expect("Black's side first");
    assert!(
        out[black..].starts_with("Black (O): pip count 167, bar 0, off 0\nWhite (X)"),
        "{out}"
    );
    assert!(out.contains("Black (human) plays 8/3 6/3."), "{out}");
    // Then White's turn, the board turned round: White's side first.
    let after = &out[out.find("plays 8/3 6/3").unwrap()..];
    assert!(
        after.contains("White (X): pip count 167, bar 0, off 0\nBlack (O): pip count 159"),
        "{out}"
    );
    assert!(after.contains("White (human) rolls 6-2."), "{out}");
}

#[test]
fn quitting_exits_3_and_a_finished_game_0() {
    let empty = scratch("nothing.txt", "");
    let o = ludus(&["play", "oware", "--input", empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&o.stdout).contains("Game abandoned."));
    let o = ludus(&["play", "oware", "--south", "random", "--north", "random"]);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn the_winner_of_the_opening_throw_plays_it_with_the_opponents_checkers() {
    // Julbahar: each throws both dice; Black's 3-3 beats White's 6-4 (a double beats any other
    // throw), and Black plays it with White's checkers, typed in White's numbering on a board
    // drawn from White's side; then White plays on with its own.
    let game = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/games/julbahar.toml");
    let out = play_typing(
        "julbahar.txt",
        "6\n7 1\n64\n3-3\nhelp\n24/21(4)\n5 2\n24/19 24/22\n",
        &[
            game, "--white", "human", "--black", "human", "--dice", "manual",
        ],
    );
    assert!(
        out.contains("White (human) rolls 6-4, Black (human) rolls 3-3: Black (human)'s throw wins and starts with 3-3"),
        "{out}"
    );
    // A throw of one die, or a die of 7, is asked again.
    assert_eq!(
        out.matches("Type 2 numbers 1-6, such as `6 4`.").count(),
        2,
        "{out}"
    );
    assert!(
        out.contains("Black (human) to move White's checkers with 3-3"),
        "{out}"
    );
    assert!(
        out.contains("This turn moves White's checkers: write their paths in White's numbering"),
        "{out}"
    );
    assert!(out.contains("Black (human) plays 24/21(4)."), "{out}");
    assert!(out.contains("White (human) plays 24/22 24/19."), "{out}");
    // The first turn's board is drawn from White's side (the viewer's side is listed first).
    let first = &out[out.find("Black (human)'s throw wins").unwrap()..];
    let (white, black) = (
        first.find("White (X): pip count 360"),
        first.find("Black (O): pip count 360"),
    );
    assert!(white.is_some() && white < black, "{out}");
}
