//! Known positions for every tables rule, through the public `Game` API.

mod tables_common;
use tables_common::{legal, load, play, tables_compile};

use ludus::game::{Game, Json, Notation, Phase, Roll, View};
use ludus::rules::Source;
use ludus::tables::{TablesGame, TablesState};
use serde_json::json;

/// A side from `"24:2 13:5 bar:1 off:3"` (own numbering) as points, bar, off.
fn side(text: &str) -> ([u8; 24], u8, u8) {
    let (mut points, mut bar, mut off) = ([0u8; 24], 0, 0);
    for entry in text.split_whitespace() {
        let (at, n) = entry.split_once(':').unwrap();
        let n: u8 = n.parse().unwrap();
        match at {
            "bar" => bar = n,
            "off" => off = n,
            p => points[p.parse::<usize>().unwrap() - 1] = n,
        }
    }
    (points, bar, off)
}

fn state_json(white: &str, black: &str, to_move: usize, dice: &[u8]) -> serde_json::Value {
    let (w, b) = (side(white), side(black));
    json!({
        "to_move": to_move,
        "phase": if dice.is_empty() { "roll" } else { "move" },
        "points": [w.0, b.0], "bar": [w.1, b.1], "off": [w.2, b.2], "dice": dice,
    })
}

/// A position with `to_move` to play `dice`.
fn at(game: &TablesGame, white: &str, black: &str, to_move: usize, dice: [u8; 2]) -> TablesState {
    game.state_from_json(&state_json(white, black, to_move, &dice))
        .unwrap()
}

/// Rules of fifteen checkers a side on point 24 with `lines` added are refused with `message`.
fn assert_refused(lines: &str, message: &str) {
    let text = format!(
        "[game]\nname = \"t\"\nfamily = \"tables\"\n[setup]\ncheckers = [\"24:15\", \"24:15\"]\n{lines}\n"
    );
    let errors = tables_compile(&text).unwrap_err();
    assert!(
        errors.iter().any(|e| e.message.contains(message)),
        "{lines}: {errors:?}"
    );
}

#[test]
fn closed_board_means_pass() {
    let g = load("backgammon");
    // Black holds its points 1..6 (White's 24..19); White has a checker on the bar.
    let st = at(
        &g,
        "bar:1 13:5 8:4 6:5",
        "6:3 5:2 4:2 3:2 2:2 1:2 13:2",
        0,
        [6, 4],
    );
    assert_eq!(legal(&g, &st), ["pass"]);
    let mut after = st;
    play(&g, &mut after, "pass");
    assert_eq!(g.phase(&after), Phase::Roll(1));
}

#[test]
fn entering_comes_first() {
    let g = load("backgammon");
    // Black holds its 1..5: only the 6 enters (on White's 19); then the 3 is free.
    let black = "5:3 4:2 3:2 2:2 1:2 13:4";
    let st = at(&g, "bar:1 13:5 8:4 6:5", black, 0, [6, 3]);
    let moves = legal(&g, &st);
    assert!(moves.iter().all(|m| m.starts_with("bar/")), "{moves:?}");
    assert!(
        moves.contains(&"bar/16".to_string()),
        "same checker on with the 3: {moves:?}"
    );
    assert!(moves.contains(&"bar/19 13/10".to_string()), "{moves:?}");
    // Two on the bar and only the 6 enters: one checker enters, nothing else moves.
    let st = at(&g, "bar:2 13:5 8:3 6:5", black, 0, [6, 3]);
    assert_eq!(legal(&g, &st), ["bar/19"]);
}

#[test]
fn hits_send_a_lone_checker_to_the_bar() {
    let g = load("backgammon");
    // Black's lone checker on its 16 is White's 9.
    let mut st = at(&g, "13:5 24:2 8:3 6:5", "16:1 24:2 13:4 8:3 6:5", 0, [4, 2]);
    let moves = legal(&g, &st);
    assert!(moves.contains(&"13/9* 6/4".to_string()), "{moves:?}");
    play(&g, &mut st, "13/9 6/4");
    let j = g.state_json(&st);
    assert_eq!(j["bar"], json!([0, 1]));
    assert_eq!(j["points"][1][15], 0);
    assert_eq!(j["points"][0][8], 1);
    // A hit on the way is shown and can be asked for: 13/11*/8 against 13/10/8.
    let st = at(&g, "13:5 24:2 8:3 6:5", "14:1 24:2 13:4 8:3 6:5", 0, [3, 2]);
    let moves = legal(&g, &st);
    assert!(moves.contains(&"13/11*/8".to_string()) && moves.contains(&"13/8".to_string()));
    let quiet = g.parse_move(&st, "13/8").unwrap();
    let hit = g.parse_move(&st, "13/11*/8").unwrap();
    assert_ne!(quiet, hit);
    assert_eq!(g.move_text(&st, &hit), "13/11*/8");
}

#[test]
fn two_checkers_block_a_point() {
    let g = load("backgammon");
    // Black holds its 18 (White's 7): 13/7 is closed, and so is 6-6 through it.
    let st = at(&g, "13:15", "18:2 24:13", 0, [6, 6]);
    assert_eq!(legal(&g, &st), ["pass"]);
    // A double partly blocked: 13/9, then 9/5 is closed (Black's 20 is White's 5).
    let st = at(&g, "13:1 off:14", "20:2 24:13", 0, [4, 4]);
    assert_eq!(legal(&g, &st), ["13/9"]);
}

#[test]
fn one_checker_may_use_both_dice() {
    let g = load("backgammon");
    // 24/18 and 13/8, 13/7 are closed; 24/19 then 19/13 uses both dice.
    let black = "7:2 17:2 18:2 24:9";
    let st = at(&g, "24:1 13:1 off:13", black, 0, [6, 5]);
    assert_eq!(legal(&g, &st), ["24/13"]);
    let mv = g.parse_move(&st, "24/19/13").unwrap();
    assert_eq!(g.move_json(&st, &mv)["steps"], json!([[24, 19], [19, 13]]));
}

#[test]
fn as_many_dice_as_possible_and_the_larger_die() {
    let g = load("backgammon");
    // Either die alone, never both (Black holds White's 15 = its 10): the 6 must be played.
    let st = at(&g, "24:1 off:14", "10:2 24:13", 0, [6, 3]);
    assert_eq!(legal(&g, &st), ["24/18"]);
    // Only the smaller die can be played: it is.
    let st = at(&g, "24:1 off:14", "10:2 7:2 24:11", 0, [6, 3]);
    assert_eq!(legal(&g, &st), ["24/21"]);
    // The 6 cannot be played first, but 3 then 6 plays both: both dice are required.
    let st = at(&g, "24:1 off:14", "7:2 24:13", 0, [6, 3]);
    assert_eq!(legal(&g, &st), ["24/15"]);
}

#[test]
fn doubles_are_played_four_times() {
    let g = load("backgammon");
    let st = at(&g, "24:2 13:5 8:3 6:5", "24:2 13:5 8:3 6:5", 0, [6, 6]);
    let moves = legal(&g, &st);
    assert!(moves.contains(&"24/18(2) 13/7(2)".to_string()), "{moves:?}");
    let mut all = Vec::new();
    g.legal_moves(&st, &mut all);
    assert!(all.iter().all(|m| m.steps().len() == 4));
}

#[test]
fn bearing_off_with_larger_dice() {
    let g = load("backgammon");
    // 6 bears off the 5 (highest); the 4 then bears off the 3, or moves 5/1 first.
    let st = at(&g, "5:1 3:1 off:13", "12:15", 0, [6, 4]);
    assert_eq!(legal(&g, &st), ["5/1 3/off", "5/off 3/off"]);
    // A larger die may not bear off from below a higher checker: 6-1 with 6 empty.
    let st = at(&g, "5:2 2:1 off:12", "12:15", 0, [6, 1]);
    let moves = legal(&g, &st);
    assert!(moves.iter().all(|m| !m.contains("2/off")), "{moves:?}");
    assert!(moves.contains(&"5/off 2/1".to_string()), "{moves:?}");
    // Never forced to bear off: the 2 may move 6/4 instead of bearing off from 2.
    let st = at(&g, "6:1 2:1 off:13", "12:15", 0, [2, 1]);
    let moves = legal(&g, &st);
    assert!(
        moves.contains(&"6/3".to_string()) && moves.contains(&"6/5 2/off".to_string()),
        "{moves:?}"
    );
    // Three of a double bear off the last checkers; the fourth has nothing left to move.
    let st = at(&g, "2:1 1:1 off:13", "12:15", 0, [1, 1]);
    assert_eq!(legal(&g, &st), ["2/off 1/off"]);
}

#[test]
fn bearing_off_pauses_while_a_checker_is_out() {
    let g = load("backgammon");
    // White was hit during the bear-off: it must enter and come home before bearing off.
    let st = at(&g, "bar:1 6:2 5:2 off:10", "24:15", 0, [6, 5]);
    let moves = legal(&g, &st);
    assert!(
        !moves.is_empty() && moves.iter().all(|m| !m.contains("off")),
        "{moves:?}"
    );
    assert!(moves.contains(&"bar/14".to_string()), "{moves:?}");
}

#[test]
fn game_ends_when_all_are_off_and_scores() {
    let g = load("backgammon");
    let mut st = at(&g, "1:1 off:14", "bar:1 19:14", 0, [2, 1]);
    play(&g, &mut st, "1/off");
    assert_eq!(g.phase(&st), Phase::Over);
    let o = g.outcome(&st).unwrap();
    assert_eq!((o.winner, o.scores), (Some(0), [1, 0]));
    let j = g.state_json(&st);
    assert_eq!(
        (j["to_move"].clone(), j["dice"].clone()),
        (json!(null), json!([]))
    );
    assert!(j.get("match").is_none());
    // With gammons switched on the same finish is a backgammon (3): none off, one on the bar.
    let text = Source::find("backgammon")
        .unwrap()
        .text
        .replace("points = \"1\"", "points = \"1 + gammon + backgammon\"");
    let g3 = tables_compile(&text).unwrap();
    let mut st = at(&g3, "1:1 off:14", "bar:1 19:14", 0, [2, 1]);
    play(&g3, &mut st, "1/off");
    assert_eq!(g3.outcome(&st).unwrap().scores, [3, 0]);
    let mut st = at(&g3, "1:1 off:14", "12:15", 0, [2, 1]);
    play(&g3, &mut st, "1/off");
    assert_eq!(g3.outcome(&st).unwrap().scores, [2, 0]);
    let mut st = at(&g3, "1:1 off:14", "12:14 off:1", 0, [2, 1]);
    play(&g3, &mut st, "1/off");
    assert_eq!(g3.outcome(&st).unwrap().scores, [1, 0]);
}

#[test]
fn had_start_and_black_enters_first() {
    let g = load("had");
    let mut st = g.new_game(1);
    let j = g.state_json(&st);
    assert_eq!(j["bar"], json!([0, 9]));
    assert_eq!(
        j["points"][1],
        json!([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2])
    );
    assert_eq!(j["points"][0][23], 2);
    g.roll(&mut st, &Roll::new(&[3, 3]).unwrap()).unwrap();
    // Black enters four checkers on its 22 (White's 3), where two Black checkers stand.
    assert_eq!(legal(&g, &st), ["bar/22(4)"]);
    assert_eq!(
        g.start_ritual(),
        ludus::game::Ritual::HigherDieChoosesColour
    );
}

#[test]
fn mughrabieh_start_rule() {
    let g = load("mughrabieh");
    // All on 24: the first checker may leave, but no second until one is home.
    let st = at(&g, "24:15", "24:15", 0, [6, 5]);
    assert_eq!(legal(&g, &st), ["24/13"]);
    // 6-6: the lead runs home with three dice; the fourth frees another from 24.
    let st = at(&g, "24:15", "24:15", 0, [6, 6]);
    assert_eq!(legal(&g, &st), ["24/18 24/6"]);
    // Die by die: the lead gets home with one die, then the other die may leave 24.
    let st = at(&g, "24:14 9:1", "24:15", 0, [5, 3]);
    assert_eq!(legal(&g, &st), ["24/19 9/6", "24/21 9/4"]);
    // The lead cannot get home with either die: it must take both.
    let st = at(&g, "24:14 12:1", "24:15", 0, [5, 3]);
    assert_eq!(legal(&g, &st), ["12/4"]);
    // Nothing home and the lead is blocked: pass (a single Black checker blocks White's 3).
    let st = at(&g, "24:14 9:1", "22:1 24:14", 0, [6, 6]);
    assert_eq!(legal(&g, &st), ["pass"]);
}

#[test]
fn mughrabieh_single_checkers_block_and_nobody_is_hit() {
    let g = load("mughrabieh");
    // Black's lone checker on its 20 is White's 5: White's 9 cannot land there.
    let st = at(&g, "9:1 6:14", "20:1 24:14", 0, [4, 4]);
    let moves = legal(&g, &st);
    assert!(!moves.iter().any(|m| m.contains("9/5")), "{moves:?}");
    assert!(moves.iter().all(|m| !m.contains('*')));
}

#[test]
fn mughrabieh_scores_the_losers_checkers_left() {
    let g = load("mughrabieh");
    let mut st = at(&g, "2:1 off:14", "5:3 19:2 off:10", 0, [2, 1]);
    play(&g, &mut st, "2/off");
    let o = g.outcome(&st).unwrap();
    assert_eq!((o.winner, o.scores), (Some(0), [5, 0]));
    let m = g.match_standing(&st).unwrap();
    assert_eq!((m.game, m.points, m.over), (1, [5, 0], false));
    // Before the next game the ritual is held again (the caller's): here Black starts, from
    // the start position.
    assert_eq!(g.next_starter(&st), None);
    let next = g.next_game(&st, 1).unwrap();
    assert_eq!(g.phase(&next), Phase::Roll(1));
    assert_eq!(next.position(), g.new_game(0).position());
    assert_eq!(g.match_standing(&next).unwrap().game, 2);
}

#[test]
fn a_full_match_to_31() {
    use rand::{Rng, SeedableRng};
    // With the option "the loser of a game starts the next".
    let text = Source::find("mughrabieh")
        .unwrap()
        .text
        .replace("next_first = \"ritual\"", "next_first = \"loser\"");
    let g = tables_compile(&text).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut st = g.new_game(0);
    let mut moves = Vec::new();
    let mut games = 1;
    loop {
        match g.phase(&st) {
            Phase::Roll(_) => {
                let d = g.dice().unwrap().sample(&mut rng);
                g.roll(&mut st, &d).unwrap();
            }
            Phase::Move(_) => {
                g.legal_moves(&st, &mut moves);
                let m = moves[rng.gen_range(0..moves.len())];
                g.play(&mut st, &m);
            }
            Phase::Over => {
                let before = g.match_standing(&st).unwrap();
                let o = g.outcome(&st).unwrap();
                assert!(o.scores.iter().sum::<i32>() >= 1 && o.scores.iter().sum::<i32>() <= 15);
                let first = g.next_starter(&st);
                assert_eq!(first.is_some(), !before.over);
                match first.and_then(|p| g.next_game(&st, p)) {
                    Some(next) => {
                        assert!(!before.over);
                        assert_eq!(g.phase(&next), Phase::Roll(1 - o.winner.unwrap()));
                        st = next;
                        games += 1;
                    }
                    None => break,
                }
            }
        }
    }
    let m = g.match_standing(&st).unwrap();
    let w = m.winner.unwrap();
    assert!(m.over && m.points[w] >= 31 && m.points[1 - w] < 31, "{m:?}");
    assert_eq!(m.game, games);
    assert!(g.state_json(&st)["match"]["over"].as_bool().unwrap());
}

/// `state`'s game of the match, its board replaced (player 0's and player 1's sides, own
/// numbering) with `to_move` to play `dice`; the match standing kept.
fn on_board(
    game: &TablesGame,
    state: &TablesState,
    white: &str,
    black: &str,
    to_move: usize,
    dice: [u8; 2],
) -> TablesState {
    let m = game.match_standing(state).unwrap();
    let mut v = state_json(white, black, to_move, &dice);
    v["match"] = json!({"game": m.game, "points": m.points});
    game.state_from_json(&v)
        .unwrap_or_else(|e| panic!("{e}: {v}"))
}

/// Plays the move that ends the game and checks the result and the match points.
fn finish(game: &TablesGame, st: &mut TablesState, text: &str, scores: [i32; 2], points: [i32; 2]) {
    play(game, st, text);
    assert_eq!(game.phase(st), Phase::Over);
    assert_eq!(game.outcome(st).unwrap().scores, scores);
    assert_eq!(game.match_standing(st).unwrap().points, points);
}

#[test]
fn tavli_plays_portes_plakoto_and_fevga_in_turn_to_5() {
    let g = load("tavli");
    let backgammon_start =
        json!([0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]);
    let all_on_24 =
        json!([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15]);
    let standing = |st: &TablesState| {
        let s = g.state_json(st);
        (s["match"]["game"].clone(), s["match"]["rules"].clone())
    };

    // Game 1, Portes: the backgammon start, and a lone checker is hit to the bar.
    let mut st = g.new_game(0);
    assert_eq!(standing(&st), (json!(1), json!("portes")));
    assert_eq!(
        g.state_json(&st)["points"],
        json!([backgammon_start, backgammon_start])
    );
    st = on_board(&g, &st, "8:1 6:14", "18:1 6:14", 0, [1, 2]);
    play(&g, &mut st, "8/7* 6/4");
    let s = g.state_json(&st);
    assert_eq!(
        (s["bar"].clone(), s["points"][1][17].clone()),
        (json!([0, 1]), json!(0))
    );
    // White bears off while Black has none off: a gammon, 2 points.
    st = on_board(&g, &st, "1:1 off:14", "bar:1 6:14", 0, [1, 2]);
    finish(&g, &mut st, "1/off", [2, 0], [2, 0]);
    // The winner starts the next game.
    assert_eq!(g.next_starter(&st), Some(0));
    st = g.next_game(&st, 0).unwrap();

    // Game 2, Plakoto: all on the 24-point, and a lone checker is pinned, not hit.
    assert_eq!(standing(&st), (json!(2), json!("plakoto")));
    assert_eq!(g.state_json(&st)["points"], json!([all_on_24, all_on_24]));
    assert_eq!(g.phase(&st), Phase::Roll(0));
    st = on_board(&g, &st, "24:14 8:1", "24:14 18:1", 0, [1, 2]);
    play(&g, &mut st, "8/7* 24/22");
    let s = g.state_json(&st);
    assert_eq!(s["bar"], json!([0, 0]));
    assert_eq!(s["pinned"], json!([[], [18]]));
    assert_eq!(
        (s["points"][0][6].clone(), s["points"][1][17].clone()),
        (json!(1), json!(1))
    );
    // The pinned checker cannot move.
    g.roll(&mut st, &Roll::new(&[1, 2]).unwrap()).unwrap();
    let moves = legal(&g, &st);
    assert!(
        !moves.is_empty() && moves.iter().all(|m| !m.contains("18/")),
        "{moves:?}"
    );
    // Black wins a single game: 1 point.
    st = on_board(&g, &st, "6:12 off:3", "1:1 off:14", 1, [1, 2]);
    finish(&g, &mut st, "1/off", [0, 1], [2, 1]);
    assert_eq!(g.next_starter(&st), Some(1));
    st = g.next_game(&st, 1).unwrap();

    // Game 3, Fevga: both run the same way round; a single checker blocks, nobody is hit.
    assert_eq!(standing(&st), (json!(3), json!("fevga")));
    assert_eq!(g.state_json(&st)["points"], json!([all_on_24, all_on_24]));
    assert_eq!(g.phase(&st), Phase::Roll(1));
    // White's lone checker on its 24-point is Black's 12-point.
    st = on_board(&g, &st, "24:1 10:14", "13:1 5:14", 1, [1, 2]);
    assert!(g.parse_move(&st, "13/12 5/3").is_err());
    let mut moves = Vec::new();
    g.legal_moves(&st, &mut moves);
    assert!(moves.len() > 3);
    for m in &moves {
        let mut after = st;
        g.play(&mut after, m);
        let s = g.state_json(&after);
        assert_eq!(s["points"][1][11], json!(0), "{}", g.move_text(&st, m));
        assert_eq!(
            (s["bar"].clone(), s["points"][0][23].clone()),
            (json!([0, 0]), json!(1))
        );
    }
    // White wins a gammon.
    st = on_board(&g, &st, "1:1 off:14", "20:15", 0, [1, 2]);
    finish(&g, &mut st, "1/off", [2, 0], [4, 1]);
    st = g.next_game(&st, g.next_starter(&st).unwrap()).unwrap();

    // Game 4, Portes again: hitting again, and a single game brings White to the target.
    assert_eq!(standing(&st), (json!(4), json!("portes")));
    assert_eq!(
        g.state_json(&st)["points"],
        json!([backgammon_start, backgammon_start])
    );
    assert_eq!(g.phase(&st), Phase::Roll(0));
    st = on_board(&g, &st, "8:1 6:14", "18:1 6:14", 0, [1, 2]);
    play(&g, &mut st, "8/7* 6/4");
    assert_eq!(g.state_json(&st)["bar"], json!([0, 1]));
    st = on_board(&g, &st, "1:1 off:14", "6:14 off:1", 0, [1, 2]);
    finish(&g, &mut st, "1/off", [1, 0], [5, 1]);
    let m = g.match_standing(&st).unwrap();
    assert!(m.over && m.winner == Some(0), "{m:?}");
    assert_eq!((g.next_starter(&st), g.next_game(&st, 0)), (None, None));
    let board = g.render(&st, 0);
    assert!(
        board.contains("match game 4 (Portes): White 5, Black 1\n"),
        "{board}"
    );
    assert!(board.contains(" — White wins the match"), "{board}");

    // A STATE is read by the rules of its game number, which `match.rules` must name.
    let mut v = state_json("24:15", "24:15", 0, &[]);
    v["match"] = json!({"game": 5, "points": [0, 0], "rules": "plakoto"});
    assert!(g.state_from_json(&v).is_ok());
    v["match"]["rules"] = json!("fevga");
    let e = g.state_from_json(&v).unwrap_err().to_string();
    assert!(
        e.contains("game 5 of this match is played by the rules `plakoto`"),
        "{e}"
    );
    // In Fevga (game 6) White's 24-point is Black's 12-point: the same start is legal...
    v["match"] = json!({"game": 6, "points": [0, 0]});
    assert!(g.state_from_json(&v).is_ok());
    // ...where in Plakoto (game 5) it is Black's 1-point.
    let mut w = state_json("24:14 1:1", "24:15", 0, &[]);
    w["match"] = json!({"game": 5, "points": [0, 0]});
    assert!(g
        .state_from_json(&w)
        .unwrap_err()
        .to_string()
        .contains("both players"));
    w["match"]["game"] = json!(6);
    assert!(g.state_from_json(&w).is_ok());

    let words = g.describe();
    for line in [
        "A match of 3 games played in turn, the first again after the last: Portes, Plakoto, Fevga.",
        "Games 2, 5, 8, …: Plakoto (plakoto).",
        "A match is played to 5 points; the winner starts the next game",
    ] {
        assert!(words.contains(line), "{line}\n{words}");
    }
}

#[test]
fn backgammon_defines_no_match() {
    let g = load("backgammon");
    let mut st = at(&g, "1:1 off:14", "19:15", 0, [2, 1]);
    play(&g, &mut st, "1/off");
    assert!(g.match_standing(&st).is_none() && g.next_game(&st, 1).is_none());
    assert_eq!(g.next_starter(&st), None);
}

#[test]
fn board_and_rules_in_words() {
    let g = load("had");
    let mut st = g.new_game(0);
    g.roll(&mut st, &Roll::new(&[5, 1]).unwrap()).unwrap();
    let board = g.render(&st, 0);
    assert!(
        board.starts_with(" 13 14 15 16 17 18  | 19 20 21 22 23 24"),
        "{board}"
    );
    assert!(board.contains(" 12 11 10  9  8  7  |  6  5  4  3  2  1"));
    assert!(board.contains("BAR  X 0  O 9") && board.contains("White to move with 5-1"));
    // From Black's side its own bar comes first and White's 24-point is its 1-point.
    assert!(g.render(&st, 1).contains("BAR  O 9  X 0"));
    let words = g.describe();
    assert!(
        words.contains("Black starts with bar:9 24:2 23:2 22:2"),
        "{words}"
    );
    assert!(load("mughrabieh")
        .describe()
        .contains("A match is played to 31 points"));
}

/// A game drawn at the ply guard is a position the engine reaches; its STATE reads back.
#[test]
fn a_game_drawn_at_the_ply_guard_reads_back() {
    let mut g = load("backgammon");
    g.set_max_plies(2);
    let mut st = g.new_game(0);
    let mut moves = Vec::new();
    for dice in [[3, 1], [6, 5]] {
        g.roll(&mut st, &Roll::new(&dice).unwrap()).unwrap();
        g.legal_moves(&st, &mut moves);
        g.play(&mut st, &moves[0]);
    }
    assert_eq!(g.phase(&st), Phase::Over);
    let s = g.state_json(&st);
    assert_eq!(s["ply"], 2);
    assert_eq!(s["result"]["winner"], serde_json::Value::Null);
    let back = g.state_from_json(&s).unwrap_or_else(|e| panic!("{e}: {s}"));
    assert_eq!(back, st);
}

/// `[end]`: a deadlock draws once the players have passed `passes` turns in a row, and the
/// rules' own ply limit draws a game not won by then (`--max-plies` overrides it).
#[test]
fn end_draws_a_deadlock_and_at_the_rules_ply_limit() {
    let rules = |end: &str| {
        let text = format!(
            "[game]\nname = \"t\"\nfamily = \"tables\"\n\n[setup]\ncheckers = [\"24:2 13:5 8:3 6:5\", \"24:2 13:5 8:3 6:5\"]\n\n[[moves.step]]\nwhen = \"die > 6\"\n\n{end}"
        );
        tables_compile(&text).unwrap()
    };
    // No step is ever allowed: every turn is a pass.
    let game = rules("[end]\npasses = 4\n");
    assert!(
        game.describe().contains("4 turn(s) in a row are passes"),
        "{}",
        game.describe()
    );
    let mut st = game.new_game(0);
    for turn in 1..=4 {
        game.roll(&mut st, &Roll::new(&[3, 1]).unwrap()).unwrap();
        assert_eq!(legal(&game, &st), ["pass"]);
        if turn == 3 {
            // The count of passes goes with the position.
            let json = game.state_json(&st);
            assert_eq!(json["passes"], json!(2), "{json}");
            assert_eq!(game.state_from_json(&json).unwrap(), st);
        }
        play(&game, &mut st, "pass");
        assert_eq!(game.phase(&st) == Phase::Over, turn == 4);
    }
    let outcome = game.outcome(&st).unwrap();
    assert_eq!(
        (outcome.winner, outcome.reason.as_str()),
        (None, "drawn: 4 passes in a row")
    );
    let json = game.state_json(&st);
    assert_eq!(game.state_from_json(&json).unwrap(), st);
    // A position past the deadlock cannot be one still played.
    let mut running = json.clone();
    running["phase"] = json!("roll");
    running["to_move"] = json!(0);
    running["result"] = json!(null);
    assert!(game.state_from_json(&running).is_err());

    let mut game = rules("[end]\nmax_plies = 3\n");
    assert!(game.guards().plies_by_rules);
    let mut st = game.new_game(0);
    for _ in 0..3 {
        game.roll(&mut st, &Roll::new(&[3, 1]).unwrap()).unwrap();
        play(&game, &mut st, "pass");
    }
    assert_eq!(
        game.outcome(&st).unwrap().reason,
        "drawn at the 3-ply limit"
    );
    game.set_max_plies(5);
    assert_eq!(game.guards().plies, 5);

    // Out of range: located errors.
    for bad in [
        "[end]\npasses = 0\n",
        "[end]\nmax_plies = 0\n",
        "[end]\nnever = 1\n",
        "[[win]]\nwhen = \"off == 15\"\nsaid = \"\"\n",
        "[[win]]\nwhen = \"off == 15\"\nsaid = \"two\\nlines\"\n",
    ] {
        let text = format!(
            "[game]\nname = \"t\"\nfamily = \"tables\"\n\n[setup]\ncheckers = [\"24:15\", \"24:15\"]\n\n{bad}"
        );
        let errors = tables_compile(&text).unwrap_err();
        assert!(errors[0].span.is_some(), "{bad}: {errors:?}");
    }
}

// --- Hits to the pool, a shared path, bearing off early, turns after a turn -----------------

/// A rules text of the standard board with `lines` added.
fn custom(lines: &str) -> TablesGame {
    tables_compile(&format!(
        "[game]\nname = \"t\"\nfamily = \"tables\"\n[setup]\ncheckers = [\"24:2 13:5 8:3 6:5\", \"24:2 13:5 8:3 6:5\"]\n{lines}\n"
    ))
    .unwrap_or_else(|e| panic!("{e:?}"))
}

#[test]
fn a_checker_hit_to_the_pool_enters_when_its_owner_likes() {
    let g = custom("[moves]\nhit_to = \"pool\"");
    // Black's lone checker on its 16 is White's 9: hit, it goes to Black's pool, not the bar.
    let mut st = at(&g, "13:5 24:2 8:3 6:5", "16:1 24:2 13:4 8:3 6:5", 0, [4, 2]);
    play(&g, &mut st, "13/9* 6/4");
    let j = g.state_json(&st);
    assert_eq!(j["bar"], json!([0, 0]));
    assert_eq!(j["pool"], json!([0, 1]));
    // Black need not enter first: 13/7 alone is a move, and so is entering with the 6.
    g.roll(&mut st, &Roll::new(&[6, 1]).unwrap()).unwrap();
    let moves = legal(&g, &st);
    assert!(moves.contains(&"13/7 6/5".to_string()), "{moves:?}");
    // Entering: the 6 cannot (White holds Black's 19), the 1 can.
    assert!(moves.contains(&"pool/24 13/7".to_string()), "{moves:?}");
    assert!(!moves.iter().any(|m| m.contains("pool/19")), "{moves:?}");
    // The same position with the bar: entering comes first.
    let bar = custom("");
    let mut st = at(
        &bar,
        "13:5 24:2 8:3 6:5",
        "16:1 24:2 13:4 8:3 6:5",
        0,
        [4, 2],
    );
    play(&bar, &mut st, "13/9* 6/4");
    bar.roll(&mut st, &Roll::new(&[6, 1]).unwrap()).unwrap();
    assert!(legal(&bar, &st).iter().all(|m| m.starts_with("bar/")));
}

#[test]
fn both_sides_on_one_path_share_the_points_numbers() {
    let g = tables_compile(
        "[game]\nname = \"t\"\nfamily = \"tables\"\n[board]\ndirection = \"shared\"\n[setup]\ncheckers = [\"24:15\", \"20:1 23:14\"]\n",
    )
    .unwrap();
    let mut st = g.new_game(0);
    g.roll(&mut st, &Roll::new(&[4, 1]).unwrap()).unwrap();
    let moves = legal(&g, &st);
    // White's 20 is Black's 20: the lone checker there is hit; 23 (Black's 14) is blocked.
    assert!(moves.contains(&"24/20*/19".to_string()), "{moves:?}");
    assert!(!moves.iter().any(|m| m.contains("/23")), "{moves:?}");
    play(&g, &mut st, "24/20*/19");
    assert_eq!(g.state_json(&st)["bar"], json!([0, 1]));
    // Black enters where White's way began: a 1 would land on 24, held by White's 14, so the
    // 2 enters (on 23) and the 1 follows.
    g.roll(&mut st, &Roll::new(&[1, 2]).unwrap()).unwrap();
    assert_eq!(legal(&g, &st), ["bar/22"]);
    // A start with both sides on one point is refused.
    let both = tables_compile(
        "[game]\nname = \"t\"\nfamily = \"tables\"\n[board]\ndirection = \"shared\"\n[setup]\ncheckers = [\"24:15\", \"24:15\"]\n",
    )
    .unwrap_err();
    assert!(both[0].message.contains("both sides start"), "{both:?}");
}

#[test]
fn bear_off_says_when_a_checker_may_be_borne_off() {
    // From the last half of the way on, not only the home table.
    let g = custom("[moves]\nbear_off = \"mine_in(13, 24) + bar + pool == 0\"");
    let st = at(&g, "12:1 6:14", "24:15", 0, [6, 5]);
    let moves = legal(&g, &st);
    assert!(moves.contains(&"12/7 6/off".to_string()), "{moves:?}");
    // Not while a checker is still in the first half (18/13 leaves one there; 18/12 leaves
    // the 5 to bear off from 6 while 12 is farther).
    let st = at(&g, "18:1 6:14", "24:15", 0, [6, 5]);
    assert!(!legal(&g, &st).iter().any(|m| m.contains("off")));
    // Never: a game won by a [[win]] rule only.
    let never = custom("[moves]\nbear_off = \"false\"\n[[win]]\nwhen = \"mine_in(1, 6) == 15\"");
    let mut st = at(&never, "7:1 6:14", "13:15", 0, [6, 1]);
    assert!(!legal(&never, &st).iter().any(|m| m.contains("off")));
    play(&never, &mut st, "7/1 6/5");
    assert_eq!(never.outcome(&st).unwrap().winner, Some(0));
}

#[test]
fn a_turn_after_a_turn_gives_a_double_or_another_roll() {
    // Russian Backgammon's doubles: the double, its complement, then another roll.
    let g = custom(
        "[[dice.after]]\nwhen = \"doubles and follow == 0 and played == 4\"\ndouble = \"7 - die\"\n[[dice.after]]\nwhen = \"follow == 1\"\nagain = true",
    );
    let mut st = at(&g, "24:2 13:5 8:3 6:5", "24:2 13:5 8:3 6:5", 0, [2, 2]);
    play(&g, &mut st, "13/11(2) 6/4(2)");
    let j = g.state_json(&st);
    assert_eq!(
        (j["to_move"].clone(), j["phase"].clone()),
        (json!(0), json!("move"))
    );
    assert_eq!(
        (j["dice"].clone(), j["follow"].clone()),
        (json!([5, 5]), json!(1))
    );
    // The STATE reads back, the given double included.
    assert_eq!(g.state_from_json(&j).unwrap(), st);
    play(&g, &mut st, "13/8(2) 8/3(2)");
    assert_eq!(g.phase(&st), Phase::Roll(0));
    g.roll(&mut st, &Roll::new(&[3, 1]).unwrap()).unwrap();
    assert_eq!(g.state_json(&st)["follow"], 0);
    play(&g, &mut st, "8/5 6/5");
    assert_eq!(g.phase(&st), Phase::Roll(1));
    // A double not played in full gives nothing: White on the bar against a closed board.
    let mut st = at(
        &g,
        "bar:1 13:5 8:4 6:5",
        "6:3 5:2 4:2 3:2 2:2 1:2 13:2",
        0,
        [2, 2],
    );
    play(&g, &mut st, "pass");
    assert_eq!(g.phase(&st), Phase::Roll(1));
    // Gul Bara's doubles: each higher double in turn up to 6-6, then the other player.
    let g = custom(
        "[[dice.after]]\nwhen = \"doubles and die < 6 and played == 4\"\ndouble = \"die + 1\"",
    );
    let mut st = at(&g, "24:2 13:5 8:3 6:5", "24:2 13:5 8:3 6:5", 0, [4, 4]);
    let mut doubles = vec![];
    while g.phase(&st) == Phase::Move(0) {
        doubles.push(st.dice().unwrap()[0]);
        let m = legal(&g, &st)[0].clone();
        play(&g, &mut st, &m);
    }
    assert_eq!(doubles, [4, 5, 6]);
    assert_eq!(g.phase(&st), Phase::Roll(1));
    // An exception before the rule: the first turns are followed by nothing.
    let g = custom(
        "[[dice.after]]\nwhen = \"ply < 2\"\n[[dice.after]]\nwhen = \"doubles\"\nagain = true",
    );
    let mut st = at(&g, "24:2 13:5 8:3 6:5", "24:2 13:5 8:3 6:5", 0, [3, 3]);
    play(&g, &mut st, "13/10(2) 6/3(2)");
    assert_eq!(g.phase(&st), Phase::Roll(1));
    let mut j = g.state_json(&st);
    j["ply"] = json!(2);
    let mut st = g.state_from_json(&j).unwrap();
    g.roll(&mut st, &Roll::new(&[3, 3]).unwrap()).unwrap();
    play(&g, &mut st, "13/10(2) 6/3(2)");
    assert_eq!(g.phase(&st), Phase::Roll(1), "Black rolls again");
    // Refused: both a double and a roll; a name the turn does not have; `follow` without rules.
    for (lines, message) in [
        (
            "[[dice.after]]\nwhen = \"doubles\"\ndouble = \"1\"\nagain = true",
            "followed by one thing only",
        ),
        (
            "[[dice.after]]\nwhen = \"hits\"\nagain = true",
            "unknown name `hits`",
        ),
    ] {
        let text = format!(
            "[game]\nname = \"t\"\nfamily = \"tables\"\n[setup]\ncheckers = [\"24:15\", \"24:15\"]\n{lines}\n"
        );
        let errors = tables_compile(&text).unwrap_err();
        assert!(errors[0].message.contains(message), "{lines}: {errors:?}");
    }
    let plain = custom("");
    let mut j = state_json("24:15", "24:15", 0, &[5, 5]);
    j["follow"] = json!(1);
    assert!(plain.state_from_json(&j).is_err());
}

#[test]
fn a_win_rule_may_give_the_game_to_the_opponent_and_comes_before_bearing_off() {
    // Backgammon to lose: the first to bear off every checker loses; the points are counted
    // with the [scoring] names from the winner's side.
    let g = custom("[[win]]\nwhen = \"off == 15\"\nwinner = \"opponent\"\npoints = \"1 + gammon\"");
    let mut st = at(&g, "2:1 off:14", "24:2 13:5 8:3 6:4 off:1", 0, [6, 5]);
    play(&g, &mut st, "2/off");
    let o = g.outcome(&st).unwrap();
    assert_eq!(o.winner, Some(1));
    // Black (the winner) is valued by White's checkers: White bore off all, so no gammon.
    assert_eq!(o.scores, [0, 1]);
    let j = g.state_json(&st);
    assert_eq!(g.state_from_json(&j).unwrap(), st);
    assert!(
        g.describe().contains("loses: the opponent wins"),
        "{}",
        g.describe()
    );
}

#[test]
fn a_fixed_die_is_played_beside_those_thrown() {
    let g = custom("[dice]\nfixed = 6");
    let mut st = g.new_game(0);
    g.roll(&mut st, &Roll::new(&[3, 1]).unwrap()).unwrap();
    assert_eq!(st.dice().unwrap(), [3, 1, 6]);
    let moves = legal(&g, &st);
    // Every move plays three dice: 24/14 is one checker taking all of them.
    assert!(moves.contains(&"24/14".to_string()), "{moves:?}");
    assert!(moves
        .iter()
        .all(|m| g.parse_move(&st, m).unwrap().steps().len() == 3));
    let j = g.state_json(&st);
    assert_eq!(j["dice"], json!([3, 1, 6]));
    assert_eq!(g.state_from_json(&j).unwrap(), st);
    let mut wrong = j.clone();
    wrong["dice"] = json!([3, 1, 5]);
    assert!(g.state_from_json(&wrong).is_err());
    wrong["dice"] = json!([3, 1]);
    assert!(g.state_from_json(&wrong).is_err());
    assert!(g.describe().contains("a die showing 6"));
    for bad in ["[dice]\nfixed = 7", "[dice]\ncount = 3\nfixed = 6"] {
        let text = format!(
            "[game]\nname = \"t\"\nfamily = \"tables\"\n[setup]\ncheckers = [\"24:15\", \"24:15\"]\n{bad}\n"
        );
        let errors = tables_compile(&text).unwrap_err();
        assert!(errors[0].message.contains("fixed die"), "{errors:?}");
    }
}

#[test]
fn scoring_may_count_the_losers_checkers_on_its_points() {
    // Nard: 2 when the loser still has a checker in its starting table (its 19..24).
    let g = custom("[scoring]\npoints = \"1 + if(loser_in(19, 24) > 0, 1, 0)\"");
    let mut st = at(&g, "1:1 off:14", "19:1 13:14", 0, [6, 5]);
    play(&g, &mut st, "1/off");
    assert_eq!(g.outcome(&st).unwrap().scores, [2, 0]);
    let mut st = at(&g, "1:1 off:14", "18:1 13:14", 0, [6, 5]);
    play(&g, &mut st, "1/off");
    assert_eq!(g.outcome(&st).unwrap().scores, [1, 0]);
}

#[test]
fn step_rules_may_tell_the_sides_and_the_dice_apart() {
    // Mexican Backgammon's "the lower number first"; a rule for White only.
    let g = custom(
        "[[moves.step]]\nwhen = \"played > 0 or die == low_die\"\n[[moves.leave]]\npoint = 6\nwhen = \"side == 1\"",
    );
    let st = at(&g, "24:2 13:5 8:3 6:5", "24:2 13:5 8:3 6:5", 0, [6, 1]);
    let moves = legal(&g, &st);
    // The 1 first, then the 6: 24/23 13/7, or 8/7 13/7; 24/18 23... would play the 6 first
    // with the 1 after it from 24 (24/18 24/23 is legal: the 1 first). White's 6 is held.
    assert!(moves.contains(&"24/23 13/7".to_string()), "{moves:?}");
    assert!(moves.contains(&"13/7 8/7".to_string()), "{moves:?}");
    assert!(
        !moves
            .iter()
            .any(|m| m.starts_with("6/") || m.contains(" 6/")),
        "{moves:?}"
    );
    let st = at(&g, "24:2 13:5 8:3 6:5", "24:2 13:5 8:3 6:5", 1, [6, 1]);
    assert!(legal(&g, &st).iter().any(|m| m.contains("6/5")));
}

#[test]
fn a_side_remembers_what_its_steps_did_for_the_rest_of_the_game() {
    // Svensk Bradspel's rule: no two checkers on one of the points 1-11 until a checker of the
    // side has landed on point 12.
    let g = custom(
        "[[remember]]\nname = \"reached_12\"\nwhen = \"to == 12\"\n[[moves.step]]\nwhen = \"reached_12 or to > 11 or to == 0 or mine(to) <= 1\"",
    );
    // 13/12 lands on 12: from then on (the same turn included) 8/7 may join a checker on 7.
    // (Black's checkers are off White's 12: Black's 13 is empty.)
    let st = at(&g, "24:2 13:5 8:3 7:1 6:4", "24:2 14:5 8:3 6:5", 0, [1, 1]);
    // Moves of rules that remember are written step by step, in playing order.
    let moves = legal(&g, &st);
    assert!(
        moves.contains(&"13/12 8/7 8/7 8/7".to_string()),
        "{moves:?}"
    );
    // Without landing on 12 first, two on 7 is refused.
    assert!(g.parse_move(&st, "8/7(2) 24/22").is_err());
    let mut st2 = st;
    play(&g, &mut st2, "13/12 8/7(3)");
    let j = g.state_json(&st2);
    assert_eq!(j["remembered"], json!([["reached_12"], []]));
    assert_eq!(g.state_from_json(&j).unwrap(), st2);
    // Remembered though the checker has moved on: a later turn may double up.
    let mut j = state_json(
        "24:2 13:4 10:1 8:3 7:1 6:4",
        "24:2 14:5 8:3 6:5",
        0,
        &[2, 1],
    );
    j["remembered"] = json!([["reached_12"], []]);
    let st3 = g.state_from_json(&j).unwrap();
    assert!(g.parse_move(&st3, "8/6 8/7").is_ok());
    j["remembered"] = json!([[], []]);
    let st4 = g.state_from_json(&j).unwrap();
    assert!(g.parse_move(&st4, "8/6 8/7").is_err());
    assert!(
        g.describe().contains("`reached_12` is remembered"),
        "{}",
        g.describe()
    );
    // Refused: an unknown name in STATE, `die`, a name given twice, too many tables.
    j["remembered"] = json!([["reached_13"], []]);
    assert!(g.state_from_json(&j).is_err());
    for (lines, message) in [
        (
            "[[remember]]\nname = \"x\"\nwhen = \"die == 6\"",
            "unknown name `die`",
        ),
        (
            "[define]\nx = \"1\"\n[[remember]]\nname = \"x\"\nwhen = \"to == 12\"",
            "named twice",
        ),
        (
            &"[[remember]]\nname = \"x\"\nwhen = \"to == 12\"\n".repeat(9),
            "at most 8",
        ),
        (
            "[board]\npoints = 36\n[[remember]]\nname = \"x\"\nwhen = \"to == 12\"",
            "cannot remember",
        ),
    ] {
        assert_refused(lines, message);
    }
}

#[test]
fn dice_a_player_cannot_play_go_to_the_opponent() {
    let g = custom("[dice]\nunplayed = \"opponent\"");
    // White's last checker on the bar, Black's board closed but for its 3-point (White's 22):
    // with 6-3 the 3 enters, and the 6 from 22 meets Black's 9 (White's 16).
    let black = "6:3 5:2 4:2 2:2 1:2 9:2 13:2";
    let mut st = at(&g, "bar:1 off:14", black, 0, [6, 3]);
    assert_eq!(legal(&g, &st), ["bar/22"]);
    play(&g, &mut st, "bar/22");
    // Black plays White's 6 first, as it is, then throws.
    let j = g.state_json(&st);
    assert_eq!(
        (
            j["to_move"].clone(),
            j["phase"].clone(),
            j["dice"].clone(),
            j["given"].clone()
        ),
        (json!(1), json!("move"), json!([6]), json!(true))
    );
    assert_eq!(g.state_from_json(&j).unwrap(), st);
    // 9/3 hits White's checker just entered (White's 22 is Black's 3).
    assert_eq!(legal(&g, &st), ["13/7", "9/3*"]);
    play(&g, &mut st, "13/7");
    assert_eq!(g.phase(&st), Phase::Roll(1));
    assert_eq!(g.state_json(&st)["given"], json!(false));
    // A double's moves left are that many moves, not doubled again: 2-2 enters on 23 and
    // stops (Black's 4 is White's 21); Black plays three 2s.
    let black = "6:3 5:2 4:2 3:2 1:2 13:2 21:2";
    let mut st = at(&g, "bar:1 off:14", black, 0, [2, 2]);
    assert_eq!(legal(&g, &st), ["bar/23"]);
    play(&g, &mut st, "bar/23");
    assert_eq!(st.dice().unwrap(), [2, 2, 2]);
    assert!(st.dice_given());
    let moves = legal(&g, &st);
    assert!(moves.contains(&"13/7".to_string()), "{moves:?}");
    assert!(moves
        .iter()
        .all(|m| g.parse_move(&st, m).unwrap().steps().len() == 3));
    assert!(
        g.describe().contains("go to the opponent"),
        "{}",
        g.describe()
    );
    // Refused with a bonus roll; `given` without the rule.
    let text = "[game]\nname = \"t\"\nfamily = \"tables\"\n[setup]\ncheckers = [\"24:15\", \"24:15\"]\n[dice]\nunplayed = \"opponent\"\n[dice.bonus]\nroll = [1, 2]\n";
    assert!(tables_compile(text).unwrap_err()[0]
        .message
        .contains("bonus roll"));
    let text = "[game]\nname = \"t\"\nfamily = \"tables\"\n[setup]\ncheckers = [\"24:15\", \"24:15\"]\n[dice]\nunplayed = \"opponent\"\ndoubles = \"face\"\n";
    assert!(tables_compile(text).unwrap_err()[0]
        .message
        .contains("as many moves as its number"));
    let plain = custom("");
    let mut j = state_json("24:15", "24:15", 0, &[5]);
    j["given"] = json!(true);
    assert!(plain.state_from_json(&j).is_err());
}

/// Where the rules remember what a step did, two moves to the same position may differ by the
/// points they pass: every move's text names its landings and reads back as that move.
#[test]
fn moves_told_apart_by_their_steps_read_back_by_them() {
    // Moves that remember differently, or turn over other stacked checkers, to one position.
    for name in ["svensk-bradspel", "yahoudieh", "ofanfelling"] {
        moves_read_back(name);
    }
}

fn moves_read_back(name: &str) {
    use rand::{Rng, SeedableRng};
    let path = format!("{}/docs/games/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let g = tables_compile(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    let mut moves = Vec::new();
    let mut checked = 0;
    for _ in 0..6 {
        let mut st = g.new_game(0);
        while let Phase::Roll(_) | Phase::Move(_) = g.phase(&st) {
            if let Phase::Roll(_) = g.phase(&st) {
                let dice = [rng.gen_range(1..=6), rng.gen_range(1..=6)];
                g.roll(&mut st, &Roll::new(&dice).unwrap()).unwrap();
                continue;
            }
            g.legal_moves(&st, &mut moves);
            for m in &moves {
                let text = g.move_text(&st, m);
                assert_eq!(g.parse_move(&st, &text).as_ref(), Ok(m), "{text}");
                checked += 1;
            }
            let m = moves[rng.gen_range(0..moves.len())];
            g.play(&mut st, &m);
        }
    }
    assert!(checked > 200, "{name}: {checked}");
}

#[test]
fn a_pool_may_count_from_its_own_point_and_rules_see_the_opponents_bar() {
    // Tawula: new checkers count from the point after the two on 24; a hit one from 24 itself.
    let g = custom(
        "[board]\ndirection = \"same\"\npool_from = 24\n[[moves.step]]\nwhen = \"their_bar == 0 or mine_in(7, 12) < 6\"",
    );
    let j = json!({
        "to_move": 0, "phase": "move", "dice": [6, 1],
        "points": [[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2], [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2]],
        "pool": [13, 12], "bar": [0, 1], "off": [0, 0],
    });
    let st = g.state_from_json(&j).unwrap();
    let moves = legal(&g, &st);
    // The 6 from the pool lands on 18 (24 - 6), the 1 on 23; never 19 or 24.
    assert!(moves.contains(&"pool/23 pool/18".to_string()), "{moves:?}");
    assert!(
        !moves
            .iter()
            .any(|m| m.contains("pool/19") || m.contains("pool/24")),
        "{moves:?}"
    );
    // Black's hit checker enters from the bar counting from one beyond 24.
    let mut j2 = j.clone();
    j2["to_move"] = json!(1);
    let st = g.state_from_json(&j2).unwrap();
    let moves = legal(&g, &st);
    assert!(moves.iter().all(|m| m.contains("bar/")), "{moves:?}");
    assert!(moves.iter().any(|m| m.contains("bar/19")), "{moves:?}");
    let words = tables_compile(
        "[game]\nname = \"t\"\nfamily = \"tables\"\n[board]\npool_from = 24\n[setup]\ncheckers = [\"24:2 pool:13\", \"13:2 pool:13\"]\n",
    )
    .unwrap()
    .describe();
    assert!(
        words.contains("counting their die from point 24"),
        "{words}"
    );
    let bad = "[game]\nname = \"t\"\nfamily = \"tables\"\n[board]\npool_from = 6\n[setup]\ncheckers = [\"pool:15\", \"pool:15\"]\n";
    assert!(tables_compile(bad).unwrap_err()[0]
        .message
        .contains("past point 1"));
}

#[test]
fn a_rule_after_a_bonus_turn_reads_the_double_chosen() {
    // European Acey-Deucey: the double chosen after a 1-2 is followed by its complement.
    let g = custom(
        "[dice.bonus]\nroll = [1, 2]\nthen = \"any-double\"\n[[dice.after]]\nwhen = \"chosen > 0 and follow == 0 and played == 6\"\ndouble = \"7 - chosen\"",
    );
    let mut st = at(&g, "24:2 13:5 8:3 6:5", "24:2 13:5 8:3 6:5", 0, [1, 2]);
    // The 1 and the 2, then 3-3 chosen: four 3s.
    play(&g, &mut st, "24/23 13/11 13/10(2) 8/5(2)");
    let j = g.state_json(&st);
    assert_eq!(
        (j["dice"].clone(), j["to_move"].clone()),
        (json!([4, 4]), json!(0))
    );
    // Without a bonus roll nothing is chosen: a plain 3-1 passes the turn.
    let mut st = at(&g, "24:2 13:5 8:3 6:5", "24:2 13:5 8:3 6:5", 0, [3, 1]);
    play(&g, &mut st, "8/5 6/5");
    assert_eq!(g.phase(&st), Phase::Roll(1));
}

#[test]
fn a_rule_after_a_given_double_reads_the_die_that_began_the_run() {
    // Piprjall: 1-1 and 5-5 climb to 6-6, the others go down to 1-1, a pair a turn.
    let g = custom(
        "[dice]\ndoubles = 2\n[define]\nclimbing = \"first in [1, 5]\"\npair = \"doubles and played == 2\"\n[[dice.after]]\nwhen = \"pair and climbing and die < 6\"\ndouble = \"die + 1\"\n[[dice.after]]\nwhen = \"pair and not climbing and die > 1\"\ndouble = \"die - 1\"",
    );
    let run = |first: u8| {
        let mut st = at(
            &g,
            "24:2 13:5 8:3 6:5",
            "24:2 13:5 8:3 6:5",
            0,
            [first, first],
        );
        let mut pairs = vec![];
        while g.phase(&st) == Phase::Move(0) {
            pairs.push(st.dice().unwrap()[0]);
            let j = g.state_json(&st);
            assert_eq!(j["first"], json!(first));
            assert_eq!(g.state_from_json(&j).unwrap(), st);
            let m = legal(&g, &st)[0].clone();
            play(&g, &mut st, &m);
        }
        pairs
    };
    assert_eq!(run(1), [1, 2, 3, 4, 5, 6]);
    assert_eq!(run(3), [3, 2, 1]);
    assert_eq!(run(5), [5, 6]);
    let mut j = state_json("24:2 13:5 8:3 6:5", "24:2 13:5 8:3 6:5", 0, &[2, 2]);
    j["follow"] = json!(1);
    assert!(g.state_from_json(&j).is_err(), "follow > 0 needs first");
}

#[test]
fn a_larger_die_bears_off_from_the_farthest_point_any_point_or_none() {
    // White: 4 and 2 home, 6-3 to play. Backgammon's rule: a larger die only from the
    // farthest point, which 4/1 makes the 2.
    let farthest = custom("");
    let none = custom("[moves]\nbear_off_larger = \"none\"");
    let pos = |g: &TablesGame| at(g, "4:1 2:1 off:13", "13:15", 0, [6, 3]);
    let moves = |g: &TablesGame| legal(g, &pos(g));
    assert_eq!(
        moves(&farthest),
        ["4/1 2/off", "4/off 2/off"].map(String::from)
    );
    // Only the exact number: the 6 bears nothing off; the 3 moves 4/1, the 6 is lost.
    assert_eq!(moves(&none), ["4/1"]);
    // Bearing off at any time (`bear_off = "true"`), with a checker on 13: the farthest rule
    // bears nothing off with a 6 or a 3, "any" bears the 2 off with either.
    let early = |larger: &str| {
        let g = custom(&format!(
            "[moves]\nbear_off = \"true\"\nbear_off_larger = \"{larger}\""
        ));
        legal(&g, &at(&g, "13:1 2:1 off:13", "13:15", 0, [6, 3]))
    };
    assert!(!early("farthest").iter().any(|m| m.contains("off")));
    let any = early("any");
    for m in ["13/7 2/off", "13/10 2/off"] {
        assert!(any.contains(&m.to_string()), "{m}: {any:?}");
    }
    let wrong = tables_compile(
        "[game]\nname = \"t\"\nfamily = \"tables\"\n[setup]\ncheckers = [\"24:15\", \"24:15\"]\n[moves]\nbear_off_larger = \"nearest\"\n",
    )
    .unwrap_err();
    assert!(wrong[0].message.contains("bear_off_larger"), "{wrong:?}");
}

#[test]
fn a_rule_after_a_turn_may_give_the_same_dice_again_and_read_the_pair_of_three() {
    // Garanguet: a triple three times over, a pair with a lower third once more.
    let g = tables_compile(
        "[game]\nname = \"t\"\nfamily = \"tables\"\n[setup]\ncheckers = [\"24:15\", \"24:15\"]\n[dice]\ncount = 3\ndoubles = 2\n[[dice.after]]\nwhen = \"follow == 0 and pair_die > low_die\"\ndouble = \"pair_die\"\n[[dice.after]]\nwhen = \"dice == 3 and doubles and follow < 2\"\nrepeat = true\n",
    )
    .unwrap();
    let turns = |dice: [u8; 3]| {
        let mut st = g.new_game(0);
        g.roll(&mut st, &Roll::new(&dice).unwrap()).unwrap();
        let mut played = vec![];
        while g.phase(&st) == Phase::Move(0) {
            played.push(st.dice().unwrap().to_vec());
            let j = g.state_json(&st);
            assert_eq!(g.state_from_json(&j).unwrap(), st, "{j}");
            let m = legal(&g, &st)[0].clone();
            play(&g, &mut st, &m);
        }
        played
    };
    assert_eq!(turns([4, 4, 4]), [[4, 4, 4], [4, 4, 4], [4, 4, 4]]);
    assert_eq!(turns([5, 2, 5]), [vec![5, 2, 5], vec![5, 5]]);
    assert_eq!(turns([2, 5, 2]), [[2, 5, 2]]);
    assert_eq!(turns([6, 3, 1]), [[6, 3, 1]]);
    // A turn given again is a double or a whole throw: two unlike dice are refused.
    let mut st = g.new_game(0);
    g.roll(&mut st, &Roll::new(&[4, 4, 4]).unwrap()).unwrap();
    let m = legal(&g, &st)[0].clone();
    play(&g, &mut st, &m);
    let mut j = g.state_json(&st);
    assert_eq!(j["follow"], json!(1));
    j["dice"] = json!([5, 2]);
    assert!(g.state_from_json(&j).is_err(), "{j}");
    // And an unknown word for `[end] no_move` is refused.
    let wrong = tables_compile(
        "[game]\nname = \"t\"\nfamily = \"tables\"\n[setup]\ncheckers = [\"24:15\", \"24:15\"]\n[end]\nno_move = \"ends\"\n",
    )
    .unwrap_err();
    assert!(wrong[0].message.contains("no_move"), "{wrong:?}");
    // Both `double` and `repeat` in one table is refused, at the later key.
    let both = tables_compile(
        "[game]\nname = \"t\"\nfamily = \"tables\"\n[setup]\ncheckers = [\"24:15\", \"24:15\"]\n[[dice.after]]\nwhen = \"doubles\"\ndouble = \"die\"\nrepeat = true\n",
    )
    .unwrap_err();
    assert!(both[0].message.contains("one thing only"), "{both:?}");
}

#[test]
fn a_player_who_cannot_move_may_lose_and_the_loss_reads_back() {
    let g = custom("[end]\nno_move = \"loses\"\n[scoring]\npoints = \"1 + gammon\"");
    // White on the bar against a closed board: no die can be played.
    let mut st = at(&g, "bar:1 13:14", "1:2 2:2 3:2 4:2 5:2 6:2 8:3", 0, [6, 5]);
    assert_eq!(legal(&g, &st), ["pass"]);
    play(&g, &mut st, "pass");
    let o = g.outcome(&st).expect("over");
    assert_eq!((o.winner, o.scores), (Some(1), [0, 2]), "{o:?}");
    assert_eq!(o.reason, "the opponent could play no die");
    let j = g.state_json(&st);
    assert_eq!(g.state_from_json(&j).unwrap(), st, "{j}");
    // Where the rules say nothing, the turn passes.
    let plain = custom("");
    let mut st = at(
        &plain,
        "bar:1 13:14",
        "1:2 2:2 3:2 4:2 5:2 6:2 8:3",
        0,
        [6, 5],
    );
    play(&plain, &mut st, "pass");
    assert_eq!(plain.phase(&st), Phase::Roll(1));
    // The reason read back only where the rules have it.
    let mut j = g.state_json(&{
        let mut st = at(&g, "bar:1 13:14", "1:2 2:2 3:2 4:2 5:2 6:2 8:3", 0, [6, 5]);
        play(&g, &mut st, "pass");
        st
    });
    assert!(plain.state_from_json(&j).is_err());
    j["result"]["winner"] = serde_json::Value::Null;
    assert!(g.state_from_json(&j).is_err(), "a loss needs its winner");
}

#[test]
fn a_hit_checker_may_be_put_back_on_a_point_when_the_turn_ends() {
    // Put back on its owner's 20 when the hitter does not hold it, else 22, else left on the
    // bar (and the hitter wins).
    let g = custom(
        "[moves]\nhit_back = \"if(theirs(20) == 0, 20, if(theirs(22) == 0, 22, 0))\"\n[[win]]\nwhen = \"their_bar > 0\"",
    );
    // Black's lone checker on its 16 is White's 9.
    let mut st = at(&g, "13:5 24:2 8:3 6:5", "16:1 24:2 13:4 8:3 6:5", 0, [4, 2]);
    play(&g, &mut st, "13/9* 6/4");
    let j = g.state_json(&st);
    assert_eq!(j["bar"], json!([0, 0]));
    assert_eq!(j["points"][1][19], json!(1), "{j}");
    // The hitter holds Black's 20 (White's 5): the next point, Black's 22.
    let mut st = at(
        &g,
        "13:4 24:2 8:3 6:5 5:1",
        "16:1 24:2 13:4 8:3 6:5",
        0,
        [4, 2],
    );
    play(&g, &mut st, "13/9* 6/4");
    assert_eq!(g.state_json(&st)["points"][1][21], json!(1));
    // Both held (White's 5 and 3): the checker stays on the bar and its owner loses.
    let mut st = at(
        &g,
        "13:3 24:2 8:3 6:5 5:1 3:1",
        "16:1 24:2 13:4 8:3 6:5",
        0,
        [4, 2],
    );
    play(&g, &mut st, "13/9* 13/11");
    assert_eq!(g.state_json(&st)["bar"], json!([0, 1]));
    assert_eq!(g.outcome(&st).unwrap().winner, Some(0));
    // A checker hit to the pool is not put back.
    let wrong = tables_compile(
        "[game]\nname = \"t\"\nfamily = \"tables\"\n[setup]\ncheckers = [\"24:15\", \"24:15\"]\n[moves]\nhit_to = \"pool\"\nhit_back = \"20\"\n",
    )
    .unwrap_err();
    assert!(wrong[0].message.contains("not put back"), "{wrong:?}");
}

#[test]
fn a_step_may_hit_from_afar_the_checker_across_the_board() {
    let g = custom("[[moves.hit]]\nat = \"if(mine(to) == 1, 25 - to, 0)\"");
    // White lands alone on 9; across the board is White's 16, Black's 9, where a lone Black
    // checker stands: hit, to the bar. The step is written as a hit.
    let mut st = at(&g, "13:5 24:2 8:3 6:5", "9:1 24:2 13:4 8:3 6:5", 0, [4, 2]);
    let moves = legal(&g, &st);
    assert!(moves.contains(&"13/9* 6/4".to_string()), "{moves:?}");
    play(&g, &mut st, "13/9 6/4");
    let j = g.state_json(&st);
    assert_eq!(j["bar"], json!([0, 1]), "{j}");
    assert_eq!(j["points"][1][8], json!(0));
    // Landing beside a checker of its own hits nothing (the rule's `mine(to) == 1`).
    let mut st = at(
        &g,
        "13:5 24:2 9:1 8:2 6:5",
        "9:1 24:2 13:4 8:3 6:5",
        0,
        [4, 2],
    );
    play(&g, &mut st, "13/9 6/4");
    assert_eq!(g.state_json(&st)["bar"], json!([0, 0]));
    // Two checkers across are not hit, nor is anything where the rule gives 0.
    let mut st = at(&g, "13:5 24:2 8:3 6:5", "9:2 24:2 13:3 8:3 6:5", 0, [4, 2]);
    play(&g, &mut st, "13/9 6/4");
    assert_eq!(g.state_json(&st)["points"][1][8], json!(2));
    // Hits from afar and stacked checkers do not go together.
    let both = tables_compile(
        "[game]\nname = \"s\"\nfamily = \"tables\"\n[setup]\ncheckers = [\"6:2 5:2 4:2 3:3 2:3 1:3\", \"6:2 5:2 4:2 3:3 2:3 1:3\"]\n[stacks]\n[[moves.hit]]\nat = \"25 - to\"\n",
    )
    .unwrap_err();
    assert!(both[0].message.contains("stacked checkers"), "{both:?}");
    // Nor with pins.
    let pinned = tables_compile(
        "[game]\nname = \"p\"\nfamily = \"tables\"\n[setup]\ncheckers = [\"24:15\", \"24:15\"]\n[moves]\nlone_checker = \"pin\"\n[[moves.hit]]\nat = \"25 - to\"\n",
    )
    .unwrap_err();
    assert!(pinned[0].message.contains("pinned"), "{pinned:?}");
}

/// A game on the standard board whose `[setup]` and later tables are `extra`.
fn stacks_game(extra: &str) -> TablesGame {
    tables_compile(&format!(
        "[game]\nname = \"s\"\nfamily = \"tables\"\n[setup]\n{extra}\n"
    ))
    .unwrap()
}

#[test]
fn stacked_checkers_are_turned_over_by_the_die_naming_their_point() {
    let g = stacks_game(
        "checkers = [\"6:3 1:2\", \"6:3 1:2\"]\n[stacks]\nper_die = 2\nmove = \"off > 0\"",
    );
    let mut st = g.new_game(0);
    g.roll(&mut st, &Roll::new(&[6, 2]).unwrap()).unwrap();
    // The 6 lays down two of the three on 6, and one of those flat checkers then moves with the
    // 2; a stacked checker moves only once one is off (`move`).
    assert_eq!(legal(&g, &st), ["6/6 6/4"]);
    play(&g, &mut st, "6/4 6/6");
    assert_eq!(g.state_json(&st)["stacked"][0][5], json!(1));
    // Black has nothing to lay down with 3-4, and its stacked checkers may not move.
    g.roll(&mut st, &Roll::new(&[3, 4]).unwrap()).unwrap();
    assert_eq!(legal(&g, &st), ["pass"]);
    play(&g, &mut st, "pass");
    // 5-5: the flat checker on 6 moves to 1; the stacked one stays and, as the farthest, keeps
    // the others from bearing off.
    g.roll(&mut st, &Roll::new(&[5, 5]).unwrap()).unwrap();
    assert_eq!(legal(&g, &st), ["6/1"]);
    play(&g, &mut st, "6/1");
    let v = g.state_json(&st);
    assert_eq!(v["points"][0][0], json!(3));
    assert_eq!(
        v["stacked"][0][0],
        json!(2),
        "a checker lies flat where it lands"
    );
    assert_eq!(v["stacked"][0][5], json!(1));
}

#[test]
fn a_hit_stacked_checker_leaves_its_stack_and_typed_turnings_must_be_the_moves_own() {
    let g = stacks_game(
        "checkers = [\"13:1 3:2\", \"13:1 3:2\"]\n[stacks]\nstart = \"none\"\nunstack = \"false\"\nrestack = \"true\"",
    );
    // Black's lone checker on its 3 (White's 22) stands stacked: White hits it from 24.
    let v = json!({
        "to_move": 0, "phase": "move", "dice": [2, 3],
        "points": [side("24:1 3:2").0, side("13:1 3:1 2:1").0],
        "bar": [0, 0], "off": [0, 0],
        "stacked": [side("3:1").0, side("3:1").0],
    });
    let mut st = g.state_from_json(&v).unwrap();
    let moves = legal(&g, &st);
    assert!(moves.contains(&"24/22* 3/3".to_string()), "{moves:?}");
    // `3/3` stacks White's flat checker on 3 again; point 2 has nothing to turn; a turning
    // typed twice is not the move's.
    assert!(g.parse_move(&st, "3/3 24/22*").is_ok());
    assert!(g.parse_move(&st, "24/22* 2/2").is_err());
    assert!(g.parse_move(&st, "24/21 3/3 3/3").is_err());
    play(&g, &mut st, "24/22* 3/3");
    let v = g.state_json(&st);
    assert_eq!(v["bar"][1], json!(1));
    assert_eq!(
        v["stacked"][1][2],
        json!(0),
        "the hit checker left its stack"
    );
    assert_eq!(
        v["stacked"][0][2],
        json!(2),
        "both of White's on 3 stand stacked"
    );
}

/// Where two or more own nothing (`lone_checker = "owns"`), both sides stand on one point:
/// the board draws the viewer's checkers under the other side's, each group counted when it
/// does not fit, and the picture draws both.
#[test]
fn a_point_both_sides_share_is_drawn_with_both() {
    let g =
        tables_compile(&std::fs::read_to_string("docs/games/blocking-backgammon.toml").unwrap())
            .unwrap();
    // White's 13-point holds 7 of White's and 3 of Black's (Black's 12-point).
    let st = at(&g, "13:7 6:8", "12:3 24:12", 0, [3, 1]);
    let board = g.render(&st, 0);
    let column = |row: &str| row[..3].trim().to_string();
    let rows: Vec<&str> = board.lines().skip(1).take(5).collect();
    assert_eq!(
        rows.iter().map(|r| column(r)).collect::<Vec<_>>(),
        ["X", "X", "7", "O", "3"],
        "{board}"
    );
    // From Black's side the same point is its 12-point, Black's three drawn first.
    let board = g.render(&st, 1);
    let bottom: Vec<&str> = board.lines().rev().skip(3).take(5).collect();
    assert!(bottom.iter().all(|r| r.len() > 3), "{board}");
    // The 13-point's column: three light checkers (the last counted 7), two dark (counted 3).
    let svg = g.svg(&st, 0);
    let column: Vec<&str> = svg
        .lines()
        .filter(|l| l.starts_with("<circle") && l.contains("cx=\"20.0\""))
        .filter(|l| {
            let cy = l.split("cy=\"").nth(1).and_then(|r| r.split('"').next());
            cy.and_then(|y| y.parse::<f64>().ok())
                .is_some_and(|y| y < 224.0)
        })
        .collect();
    let dark = column
        .iter()
        .filter(|l| l.contains("class=\"dark\""))
        .count();
    assert_eq!((column.len(), dark), (5, 2), "{svg}");
}

/// `[[dice.after]] optional`: the dice given may be played in part or not at all. Every length
/// is a move (the pass playing none), a stop chosen is no want of a move (`no_move = "loses"`
/// does not end the game), STATE reads `optional` back, and what cannot list every choice is
/// refused.
#[test]
fn optional_dice_are_played_in_part_or_not_at_all() {
    let g = custom(
        "[dice]\ndoubles = 2\n[[dice.after]]\nwhen = \"doubles and follow == 0\"\ndouble = \"7 - die\"\noptional = true\n[end]\nno_move = \"loses\"",
    );
    let mut st = at(&g, "24:2 13:5 8:3 6:5", "24:2 13:5 8:3 6:5", 0, [1, 1]);
    play(&g, &mut st, "6/5(2)");
    let j = g.state_json(&st);
    assert_eq!(
        (&j["dice"], &j["follow"], &j["optional"]),
        (&json!([6, 6]), &json!(1), &json!(true)),
        "{j}"
    );
    assert_eq!(g.state_from_json(&j).unwrap(), st);
    let moves = legal(&g, &st);
    assert!(moves.contains(&"pass".to_string()), "{moves:?}");
    assert!(moves.contains(&"13/7".to_string()), "{moves:?}");
    assert!(
        moves.contains(&"13/7(2)".to_string()) || moves.contains(&"13/7 13/7".to_string()),
        "{moves:?}"
    );
    play(&g, &mut st, "pass");
    assert!(g.outcome(&st).is_none(), "a stop chosen is not a loss");
    assert_eq!(g.phase(&st), Phase::Roll(1));
    // STATE: `optional` needs dice a rule gave, and rules that give optional dice.
    let mut bad = j.clone();
    bad["follow"] = json!(0);
    assert!(g.state_from_json(&bad).is_err(), "{bad}");
    let plain = custom("");
    let mut j = state_json("24:15", "24:15", 0, &[5, 5]);
    j["optional"] = json!(true);
    assert!(plain.state_from_json(&j).is_err());
    // Warned: optional dice that are thrown (the dice are played as usual).
    let text = "[game]\nname = \"t\"\nfamily = \"tables\"\n[setup]\ncheckers = [\"24:15\", \"24:15\"]\n[dice]\ndoubles = 2\n[[dice.after]]\nwhen = \"doubles\"\nagain = true\noptional = true\n";
    let doc = ludus::rules::RulesDoc::parse(text).unwrap();
    let (compiled, diagnostics) = ludus::tables::check(&doc);
    assert!(compiled.is_some(), "{diagnostics:?}");
    assert!(
        (diagnostics.iter()).any(|d| d.message.contains("`optional` changes nothing")),
        "{diagnostics:?}"
    );
    // Refused: four moves of a double, a bonus roll.
    for (lines, message) in [
        (
            "[[dice.after]]\nwhen = \"doubles\"\ndouble = \"7 - die\"\noptional = true",
            "doubles = 2",
        ),
        (
            "[dice]\ndoubles = 2\n[dice.bonus]\nroll = [1, 2]\n[[dice.after]]\nwhen = \"doubles\"\nrepeat = true\noptional = true",
            "doubles = 2",
        ),
    ] {
        assert_refused(lines, message);
    }
}

/// `[[moves.strike]]`: a die hits the lone opposing checker on the point it names instead of
/// moving; written `n/n*` and read back; refused beside stacks and pins.
#[test]
fn a_die_strikes_instead_of_moving() {
    // A die of d may strike the opponent's lone checker on the own point 25 - d.
    let g = custom("[[moves.strike]]\nat = \"25 - die\"");
    // Black's lone checker on its 5-point is White's 20: a 5 may strike it.
    let st = at(&g, "24:2 13:5 8:3 6:5", "5:1 6:4 8:3 13:5 24:2", 0, [5, 3]);
    let moves = legal(&g, &st);
    assert!(moves.iter().any(|m| m == "24/21 20/20*"), "{moves:?}");
    assert!(
        moves.iter().any(|m| m == "13/8 24/21"),
        "a strike is a choice here: {moves:?}"
    );
    let mut after = st;
    play(&g, &mut after, "20/20* 13/10");
    let j = g.state_json(&after);
    assert_eq!(j["bar"], json!([0, 1]), "{j}");
    assert_eq!(
        j["points"][0],
        json!(side("24:2 13:4 10:1 8:3 6:5").0),
        "{j}"
    );
    // The strike counts as a die played: with a 5-5 four strikes cannot be made, one can.
    assert!(g.parse_move(&st, "20/20*(2)").is_err());
    for (lines, message) in [
        (
            "[moves]\nlone_checker = \"pin\"\n[[moves.strike]]\nat = \"25 - die\"",
            "cannot strike where lone checkers are pinned",
        ),
        (
            "[stacks]\nstart = \"none\"\n[[moves.strike]]\nat = \"25 - die\"",
            "cannot strike in a game of stacked checkers",
        ),
        (
            "[dice]\nunplayed = \"opponent\"\n[[moves.strike]]\nat = \"25 - die\"",
            "cannot strike where dice go to the opponent",
        ),
        // A checker hit out of the game is not put back.
        (
            "[moves]\nhit_to = \"out\"\nhit_back = \"24\"",
            "not put back on a point",
        ),
    ] {
        assert_refused(lines, message);
    }
}

/// `[dice] wild = "doubles"`: each move of a double is any number the mover chooses (moving a
/// checker that far, bearing off from that point); other throws count their numbers. Refused
/// beside strikes; with it a double giving as many moves as its number may leave dice to the
/// opponent (it leaves none).
#[test]
fn wild_doubles_count_as_any_number() {
    let g = custom("[dice]\nwild = \"doubles\"");
    let st = at(&g, "6:2 1:1 off:12", "13:15", 0, [2, 2]);
    // A 2-2 bears off from the 6-point twice and the 1-point: the game is won with three of its
    // four moves, none of them a 2.
    let mv = g.parse_move(&st, "6/off 6/off 1/off").unwrap();
    let mut after = st;
    g.play(&mut after, &mv);
    assert!(matches!(g.phase(&after), Phase::Over));
    // 6/1 is a move of 5 and 1/off of 1, neither a 2: allowed only because the double is wild.
    assert!(g.parse_move(&st, "6/1 6/off 1/off").is_ok());
    let plain = custom("");
    let st = at(&plain, "6:2 1:1 off:12", "13:15", 0, [2, 2]);
    assert!(plain.parse_move(&st, "6/off 6/off 1/off").is_err());
    // A throw that is no double counts its numbers.
    let st = at(&g, "6:2 1:1 off:12", "13:15", 0, [2, 1]);
    assert!(g.parse_move(&st, "6/off 1/off").is_err());
    assert!(g.parse_move(&st, "6/4 1/off").is_ok());
    assert!(tables_compile(
        "[game]\nname = \"t\"\nfamily = \"tables\"\n[setup]\ncheckers = [\"24:15\", \"24:15\"]\n[dice]\ndoubles = \"face\"\nwild = \"doubles\"\nunplayed = \"opponent\"\n"
    )
    .is_ok());
    for (lines, message) in [
        (
            "[dice]\nwild = \"doubles\"\n[[moves.strike]]\nat = \"25 - die\"",
            "cannot strike where doubles are wild",
        ),
        (
            "[dice]\ndoubles = \"face\"\nunplayed = \"opponent\"",
            "dice left over cannot go to the opponent",
        ),
        ("[dice]\nwild = \"triples\"", "wild"),
    ] {
        assert_refused(lines, message);
    }
}

/// `[moves] bear_off_to = "pool"`: checkers borne off wait in the pool from the end of the turn
/// and may enter again; bearing off all wins nothing, so a `[[win]]` rule is wanted.
#[test]
fn checkers_borne_off_to_the_pool_enter_again() {
    let g = custom(
        "[moves]\nbear_off_to = \"pool\"\n[[win]]\nwhen = \"off + pool == 15 and mine(1) == 15\"",
    );
    let st = at(&g, "1:14 off:1", "13:15", 0, [1, 1]);
    // 1-1: four checkers borne off from point 1; none enters in the same turn.
    let mv = g.parse_move(&st, "1/off(4)").unwrap();
    let mut after = st;
    g.play(&mut after, &mv);
    let j = g.state_json(&after);
    assert_eq!(j["off"], json!([0, 0]), "{j}");
    assert_eq!(j["pool"], json!([5, 0]), "{j}");
    assert!(matches!(g.phase(&after), Phase::Roll(_)));
    // In the pool they are not home: with the default rule nothing more is borne off, and a
    // 6 enters from the pool's point (one beyond the last: on point 19).
    let st = g
        .state_from_json(&json!({
            "to_move": 0, "phase": "move", "dice": [6, 1],
            "points": [side("1:10").0, side("13:15").0], "bar": [0, 0], "off": [0, 0],
            "pool": [5, 0],
        }))
        .unwrap();
    assert!(g.parse_move(&st, "pool/19 1/off").is_err());
    assert!(g.parse_move(&st, "pool/19 19/18").is_ok());
    // Without a `[[win]]` rule no side can win: warned about.
    let report = ludus::registry::check(
        "[game]\nname = \"t\"\nfamily = \"tables\"\n[setup]\ncheckers = [\"24:15\", \"24:15\"]\n[moves]\nbear_off_to = \"pool\"\n",
    );
    assert!(
        (report.diagnostics.iter()).any(|d| d.message.contains("no side can win")),
        "{:?}",
        report.diagnostics
    );
}

#[test]
fn points_scored_during_play_count_for_their_player_whoever_wins() {
    let g = custom(
        "[[score]]\nwhen = \"doubles\"\npoints = \"2\"\n[[score]]\nwhen = \"played == 0\"\nto = \"opponent\"\npoints = \"3\"",
    );
    // A double played scores its mover 2.
    let mut st = at(&g, "24:2 13:5 8:3 6:5", "24:2 13:5 8:3 6:5", 0, [3, 3]);
    play(&g, &mut st, "8/5(2) 6/3(2)");
    assert_eq!(g.state_json(&st)["scored"], json!([2, 0]));
    // A turn that can play nothing (Black on the bar against a closed board) scores the
    // opponent 3.
    let mut st = at(
        &g,
        "6:3 5:2 4:2 3:2 2:2 1:2 13:2",
        "bar:1 18:2 13:4 8:3 6:5",
        1,
        [6, 5],
    );
    play(&g, &mut st, "pass");
    assert_eq!(g.state_json(&st)["scored"], json!([3, 0]));
    // The points scored count in the result beside the winner's: Black scored 4, White wins 1.
    let mut finish = state_json("1:1 off:14", "23:2 13:5 8:3 6:5", 0, &[2, 1]);
    finish["scored"] = json!([0, 4]);
    let mut st = g.state_from_json(&finish).unwrap();
    play(&g, &mut st, "1/off");
    let outcome = g.outcome(&st).expect("over");
    assert_eq!((outcome.winner, outcome.scores), (Some(0), [1, 4]));
    // STATE reads them back, and refuses them where the rules score nothing during play.
    assert_eq!(
        g.state_json(&g.state_from_json(&g.state_json(&st)).unwrap())["scored"],
        json!([0, 4])
    );
    let plain = custom("");
    let refused = plain.state_from_json(&finish).unwrap_err();
    assert!(
        format!("{refused:?}").contains("score no points during play"),
        "{refused:?}"
    );
    // A rule that never scores is warned about.
    let report = ludus::registry::check(
        "[game]\nname = \"t\"\nfamily = \"tables\"\n[setup]\ncheckers = [\"24:15\", \"24:15\"]\n[[score]]\nwhen = \"doubles\"\npoints = \"0\"\n",
    );
    assert!(
        (report.diagnostics.iter()).any(|d| d.message.contains("scores nothing")),
        "{:?}",
        report.diagnostics
    );
}

#[test]
fn a_pass_scores_only_when_the_opponent_could_move() {
    // "Whenever a player is unable to move and the opponent is able to": both sides on the bar
    // against closed boards, a pass scores nothing; with White free to move, it scores.
    let g = custom(
        "[[score]]\nwhen = \"played == 0 and opponent_can_move\"\nto = \"opponent\"\npoints = \"5\"",
    );
    let closed = "6:2 5:2 4:2 3:2 2:2 1:2 13:2";
    let mut st = at(
        &g,
        &format!("bar:1 {closed}"),
        &format!("bar:1 {closed}"),
        1,
        [6, 5],
    );
    play(&g, &mut st, "pass");
    assert_eq!(g.state_json(&st)["scored"], json!([0, 0]));
    let mut st = at(
        &g,
        &format!("7:1 {closed}"),
        &format!("bar:1 {closed}"),
        1,
        [6, 5],
    );
    play(&g, &mut st, "pass");
    assert_eq!(g.state_json(&st)["scored"], json!([5, 0]));
}

#[test]
fn points_scored_during_play_reach_a_match_target_at_once() {
    let g = custom(
        "[[score]]\nwhen = \"played == 0\"\nto = \"opponent\"\npoints = \"5\"\n[match]\ntarget = 7",
    );
    let mut blocked = state_json(
        "6:3 5:2 4:2 3:2 2:2 1:2 13:2",
        "bar:1 18:2 13:4 8:3 6:5",
        1,
        &[6, 5],
    );
    blocked["match"] = json!({"game": 1, "points": [1, 0]});
    // 1 + 5 short of 7: the game goes on, the match standing counting the five at once.
    let mut st = g.state_from_json(&blocked).unwrap();
    play(&g, &mut st, "pass");
    let standing = g.match_standing(&st).unwrap();
    assert_eq!((standing.points, standing.over), ([6, 0], false));
    assert!(matches!(g.phase(&st), Phase::Roll(0)));
    // 2 + 5 reaches 7: White wins the game and the match there, on a board mid-game.
    blocked["match"] = json!({"game": 1, "points": [2, 0]});
    let mut st = g.state_from_json(&blocked).unwrap();
    play(&g, &mut st, "pass");
    let outcome = g.outcome(&st).expect("over");
    assert_eq!((outcome.winner, outcome.scores), (Some(0), [5, 0]));
    assert!(
        outcome.reason.contains("points scored during play"),
        "{}",
        outcome.reason
    );
    let standing = g.match_standing(&st).unwrap();
    assert_eq!((standing.points, standing.winner), ([7, 0], Some(0)));
    // Read back as it was written.
    let back = g.state_from_json(&g.state_json(&st)).unwrap();
    assert_eq!(g.state_json(&back), g.state_json(&st));
}

#[test]
fn the_first_turn_may_move_the_opponents_checkers() {
    let g = tables_compile(
        "[game]\nname = \"t\"\nfamily = \"tables\"\n[setup]\ncheckers = [\"24:2 13:5 8:3 6:5\", \"24:2 13:5 8:3 6:5\"]\nfirst_turn_moves = \"opponent\"\n",
    )
    .unwrap();
    let mut st = g.new_game(0);
    g.roll(&mut st, &Roll::new(&[6, 5]).unwrap()).unwrap();
    // White chooses, Black's checkers move, written in Black's numbering.
    assert_eq!(g.phase(&st), Phase::Move(0));
    assert_eq!(g.numbering(&st), Some(1));
    play(&g, &mut st, "24/13");
    let j = g.state_json(&st);
    assert_eq!(j["points"][1][12], json!(6), "{j}");
    assert_eq!(j["points"][0][12], json!(5), "{j}");
    // Then Black plays on with its own checkers, and so on as usual.
    assert!(matches!(g.phase(&st), Phase::Roll(1)));
    g.roll(&mut st, &Roll::new(&[6, 5]).unwrap()).unwrap();
    assert_eq!(g.numbering(&st), Some(1));
    play(&g, &mut st, "13/2");
    g.roll(&mut st, &Roll::new(&[6, 5]).unwrap()).unwrap();
    assert_eq!(g.numbering(&st), Some(0));
    assert!(legal(&g, &st).contains(&"24/13".to_string()));
}

#[test]
fn points_scored_during_play_are_said_with_the_move() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/games/julbahar.toml");
    let game = ludus::registry::compile(&std::fs::read_to_string(path).unwrap()).unwrap();
    // Julbahar: Black, unable to move while White could, gives White five points.
    let mut blocked = state_json("7:1 13:14", "24:15", 1, &[6, 6]);
    blocked["match"] = json!({"game": 1, "points": [0, 0]});
    // Past the first turn (which moves the opponent's checkers).
    blocked["ply"] = json!(10);
    let before = game.state_from_json(&blocked).unwrap();
    let mut moves = Vec::new();
    game.legal_moves(&before, &mut moves);
    let mut after = before.clone();
    game.play(&mut after, &moves[0]);
    assert_eq!(game.scored_during_play(&after), Some([5, 0]));
    let said = ludus_table::said::move_said(&game, (&before, &moves[0], &after), 1, "Black", 1);
    assert_eq!(said, "Black plays pass; White scores 5 points");
    // A game without such rules says nothing of them.
    let plain = custom("");
    let st = plain.new_game(0);
    assert_eq!(plain.scored_during_play(&st), None);
}

#[test]
fn the_turn_just_played_reads_the_position_it_left() {
    // A point for each checker the turn leaves on the opponent's bar; a roll again for a
    // player whose turn leaves two checkers on its 1-point.
    let g = custom(
        "[[score]]\nwhen = \"their_bar > 0\"\npoints = \"their_bar\"\n[[dice.after]]\nwhen = \"mine(1) == 2 and follow == 0\"\nagain = true",
    );
    let mut st = at(&g, "24:2 13:5 8:3 6:5", "24:2 13:5 8:3 6:4 20:1", 0, [5, 3]);
    play(&g, &mut st, "13/5*");
    assert_eq!(g.state_json(&st)["scored"], json!([1, 0]));
    assert!(matches!(g.phase(&st), Phase::Roll(1)));
    let mut st = at(&g, "24:2 13:5 8:3 6:4 2:1", "22:2 13:5 8:3 6:5", 0, [1, 5]);
    play(&g, &mut st, "2/1 6/1");
    assert_eq!(g.state_json(&st)["scored"], json!([0, 0]));
    assert!(
        matches!(g.phase(&st), Phase::Roll(0)),
        "{}",
        g.state_json(&st)
    );
}

#[test]
fn points_scored_during_play_are_read_by_the_rules() {
    // Two points a double; four points win the game; a player with points may not hit.
    let g = custom(
        "[[score]]\nwhen = \"doubles\"\npoints = \"2\"\n[[win]]\nwhen = \"scored >= 4\"\npoints = \"0\"\nsaid = \"four points scored during play\"\n[[moves.step]]\nwhen = \"scored == 0 or not hits\"",
    );
    let mut before = state_json("24:2 13:5 8:3 6:5", "24:2 13:5 8:3 6:4 20:1", 0, &[3, 3]);
    before["scored"] = json!([2, 1]);
    let mut st = g.state_from_json(&before).unwrap();
    // Black's blot on White's 5 may not be hit by White, who has points.
    assert!(g.parse_move(&st, "8/5*(2) 6/3(2)").is_err());
    play(&g, &mut st, "13/10(2) 6/3(2)");
    let outcome = g.outcome(&st).expect("won by its points");
    assert_eq!(outcome.winner, Some(0));
    assert_eq!(outcome.scores, [4, 1]);
    assert_eq!(outcome.reason, "four points scored during play");
    // Read back as over, won by the rule that reads the points.
    let back = g.state_from_json(&g.state_json(&st)).unwrap();
    assert_eq!(g.outcome(&back).map(|o| o.winner), Some(Some(0)));
    // Without points a player may hit.
    before["scored"] = json!([0, 1]);
    let st = g.state_from_json(&before).unwrap();
    assert!(g.parse_move(&st, "8/5*(2) 6/3(2)").is_ok());
}
