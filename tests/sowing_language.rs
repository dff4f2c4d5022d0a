//! The sowing language's general mechanisms, each through known positions with known results.

mod sowing_common;

use serde_json::json;
use sowing_common::{from_text, legal_pits, position, sow_pit};

/// Two rows of six, four a pit, captures of 2 or 3 on either side, chained back.
const EITHER_SIDE: &str = r#"
[game]
name = "either-side"
family = "sowing"

[board]
pits = 6
stores = true

[setup]
stones = 4

[sowing]
skip_origin = "lap"

[capture]
when = "last.count in [2, 3]"
take = ["last"]
chain = "pit.count in [2, 3]"
"#;

#[test]
fn a_chain_stops_at_the_origin_the_sowing_skipped() {
    // South's pit 3 (12 stones) laps round, passing over its own pit, and ends in pit 4
    // (3 stones). Walking back, the emptied pit 3 holds none: the chain stops there, and pits
    // 2 and 1 (2 stones each) beyond it stay.
    let g = from_text(EITHER_SIDE);
    let mut st = position(&g, 0, &[1, 1, 12, 1, 0, 0], &[0; 6], [16, 17]);
    let s = sow_pit(&g, &mut st, 3);
    assert_eq!(s["pits"], json!([[2, 2, 0, 0, 1, 1], [1, 1, 1, 1, 1, 1]]));
    assert_eq!(s["stores"], json!([19, 17]));
}

#[test]
fn out_of_the_whole_move_the_origin_is_passed_over_by_the_chain() {
    // The same move with `skip_origin = "move"`: the origin is out of the move's circuit, so
    // the chain walks on over it and takes pits 2 and 1 too.
    let g = from_text(&EITHER_SIDE.replace("\"lap\"", "\"move\""));
    let mut st = position(&g, 0, &[1, 1, 12, 1, 0, 0], &[0; 6], [16, 17]);
    let s = sow_pit(&g, &mut st, 3);
    assert_eq!(s["pits"], json!([[0, 0, 0, 0, 1, 1], [1, 1, 1, 1, 1, 1]]));
    assert_eq!(s["stores"], json!([23, 17]));
}

#[test]
fn the_rules_in_words_name_every_ending() {
    use ludus::game::View;
    let words = sowing_common::game("kalah").describe();
    assert!(
        words.contains("when `mover.pits == 0 or opponent.pits == 0`;"),
        "Kalah's [end] stop is missing from:\n{words}"
    );
}

#[test]
fn opposite_is_the_pit_across_the_board_from_the_last() {
    // The last stone falls in North's pit 1: `opposite` is the pit across from it, South's own
    // pit 6, and `take = ["last", "opposite"]` takes both.
    let text = EITHER_SIDE
        .replace(
            "when = \"last.count in [2, 3]\"",
            "when = \"last.count == 2\"",
        )
        .replace("take = [\"last\"]", "take = [\"last\", \"opposite\"]")
        .replace("chain = \"pit.count in [2, 3]\"\n", "");
    let g = from_text(&text);
    let mut st = position(&g, 0, &[0, 0, 0, 0, 2, 3], &[1, 0, 0, 0, 0, 0], [20, 22]);
    let s = sow_pit(&g, &mut st, 5);
    assert_eq!(s["pits"], json!([[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]]));
    assert_eq!(s["stores"], json!([26, 22]));
}

#[test]
fn a_players_pits_count_only_the_pits_in_play() {
    // South's pit 1 is out of play for this round, its 3 stones kept there: once South sows
    // their pit 7, South's pits in play are empty, and a stop on `mover.pits == 0` ends the
    // round (North could still move).
    use ludus::game::{Game, Json};
    let g = from_text(&sowing_common::with(
        "sat-gharva",
        "end",
        "stop = \"mover.pits == 0 or opponent.pits == 0\"",
    ));
    let mut st = g
        .state_from_json(&json!({"to_move": 0, "pits": [[3, 0, 0, 0, 0, 0, 1], [0, 2, 0, 0, 0, 0, 0]],
            "stores": [46, 46], "out_of_play": [[1], []], "match": {"game": 2, "points": [49, 49]}}))
        .unwrap_or_else(|e| panic!("{e}"));
    sow_pit(&g, &mut st, 7);
    assert!(
        g.outcome(&st).is_some(),
        "the round goes on: {}",
        g.state_json(&st)
    );
}

/// Two rows of six without captures: `extra` is added to the end of the file.
fn plain(extra: &str) -> ludus::sowing::SowingGame {
    sized(6, extra)
}

/// One row of `pits` a side, stores, four a pit, and `extra`.
fn sized(pits: usize, extra: &str) -> ludus::sowing::SowingGame {
    from_text(&format!(
        "[game]\nname = \"plain\"\nfamily = \"sowing\"\n[board]\npits = {pits}\nstores = true\n\
         [setup]\nstones = 4\n{extra}"
    ))
}

#[test]
fn a_player_who_cannot_move_passes_and_the_other_moves_on() {
    use ludus::game::{Game, Notation, Phase};
    use ludus::sowing::SowingMove;
    let g = plain("[end]\nno_move = \"pass\"\n");
    let mut st = position(&g, 0, &[1, 0, 0, 0, 0, 0], &[0; 6], [24, 23]);
    sow_pit(&g, &mut st, 1);
    // North cannot sow: their only move is a pass, then South moves on.
    assert_eq!(g.phase(&st), Phase::Move(1));
    let mut moves = Vec::new();
    g.legal_moves(&st, &mut moves);
    assert_eq!(moves, vec![SowingMove::PASS]);
    assert_eq!(g.move_text(&st, &moves[0]), "pass");
    assert!(g.parse_move(&st, "3").is_err(), "only `pass` is read");
    let pass = g.parse_move(&st, "pass").expect("a pass");
    g.play(&mut st, &pass);
    assert_eq!(g.phase(&st), Phase::Move(0), "South moves on");
    assert_eq!(legal_pits(&g, &st), vec![2]);
    // Without `pass` the same move ends the game.
    let g = plain("");
    let mut st = position(&g, 0, &[1, 0, 0, 0, 0, 0], &[0; 6], [24, 23]);
    sow_pit(&g, &mut st, 1);
    assert_eq!(g.phase(&st), Phase::Over);
}

#[test]
fn with_passing_the_game_ends_when_neither_player_can_move() {
    use ludus::game::{Game, Phase};
    // South sows their last stone into their own store: nobody has a stone left to sow.
    let g = plain("[sowing]\nstores = \"own\"\n[end]\nno_move = \"pass\"\n");
    let mut st = position(&g, 0, &[0, 0, 0, 0, 0, 1], &[0; 6], [24, 23]);
    sow_pit(&g, &mut st, 6);
    assert_eq!(g.phase(&st), Phase::Over);
    assert_eq!(g.outcome(&st).map(|o| o.scores), Some([25, 23]));
}

#[test]
fn a_relay_stops_where_its_condition_fails_and_the_capture_follows() {
    let rules = "[sowing]\nrelay = \"last\"\n\
                 relay_when = \"not (last.side == opponent and last.count in [2, 3])\"\n\
                 [capture]\nwhen = \"last.side == opponent and last.count in [2, 3]\"\n\
                 take = [\"last\"]\n";
    // South's single stone makes North's pit 1 hold 2: the relay stops and the pit is taken.
    let g = plain(rules);
    let mut st = position(&g, 0, &[0, 0, 0, 0, 0, 1], &[1, 0, 0, 0, 0, 0], [23, 23]);
    let s = sow_pit(&g, &mut st, 6);
    assert_eq!(s["stores"], json!([25, 23]));
    // Without `relay_when` the relay lifts those 2 stones and sows them on: no capture.
    let g = plain(&rules.replace("relay_when", "# relay_when"));
    let mut st = position(&g, 0, &[0, 0, 0, 0, 0, 1], &[1, 0, 0, 0, 0, 0], [23, 23]);
    let s = sow_pit(&g, &mut st, 6);
    assert_eq!(s["pits"], json!([[0, 0, 0, 0, 0, 0], [0, 1, 1, 0, 0, 0]]));
    assert_eq!(s["stores"], json!([23, 23]));
}

#[test]
fn feeding_judged_after_the_capture_refuses_a_move_that_takes_back_what_it_fed() {
    // North has nothing. South's pit 6 (18 stones) sows twice round North's row and ends
    // there, every North pit holding 2: a capture of all of them. Pit 5 feeds North one stone.
    let rules = |feed: &str| {
        plain(&format!(
            "[sowing]\nmust_feed = {feed}\n[capture]\nwhen = \"last.side == opponent and \
             last.count in [2, 3]\"\ntake = [\"last\"]\nchain = \"pit.side == opponent and \
             pit.count in [2, 3]\"\ngrand_slam = \"no-capture\"\n"
        ))
    };
    let south = [0, 0, 0, 0, 2, 18];
    // Sown into North's pits: both feed (pit 6 a grand slam, which captures nothing).
    let g = rules("true");
    let st = position(&g, 0, &south, &[0; 6], [14, 14]);
    assert_eq!(legal_pits(&g, &st), vec![5, 6]);
    // Kept by North once the move is over: pit 6 takes all 12 back (North had none, so no
    // grand slam) and leaves North nothing: not a legal move.
    let g = rules("\"kept\"");
    let mut st = position(&g, 0, &south, &[0; 6], [14, 14]);
    assert_eq!(legal_pits(&g, &st), vec![5]);
    // Played all the same, the move captures all twelve (14 + 12), and North, left with
    // nothing, cannot move: the game ends, South's 8 stones on the board going to South.
    use ludus::game::Game;
    g.play(&mut st, &ludus::sowing::SowingMove::pit(6));
    let s = ludus::game::Json::state_json(&g, &st);
    assert_eq!(s["stores"], json!([34, 14]));
}

#[test]
fn a_goal_wins_at_once_for_the_mover_first_then_for_the_opponent() {
    use ludus::game::Game;
    // Clearing one's own pits wins. South sows their last stone over to North: South's pits
    // are empty, and South wins with fewer stones in store.
    let g = plain("[end]\nwin = \"mover.pits == 0\"\n");
    let mut st = position(&g, 0, &[0, 0, 0, 0, 0, 1], &[0, 0, 0, 2, 0, 0], [5, 40]);
    sow_pit(&g, &mut st, 6);
    let o = g.outcome(&st).expect("over");
    assert_eq!((o.winner, o.reason.as_str()), (Some(0), "goal reached"));
    // Depriving the opponent wins: South's move leaves South without stones while North has
    // some, which is North's goal reached (checked from North's side).
    let g = plain("[end]\nwin = \"opponent.pits == 0\"\n");
    let mut st = position(&g, 0, &[0, 0, 0, 0, 0, 1], &[0, 0, 0, 2, 0, 0], [40, 5]);
    sow_pit(&g, &mut st, 6);
    assert_eq!(g.outcome(&st).expect("over").winner, Some(1));
}

#[test]
fn a_player_who_cannot_move_loses_when_the_rules_say_so() {
    use ludus::game::Game;
    // North has no stone left to sow after South's move: North loses, fewer stones or not.
    let g = plain("[end]\nno_move = \"loses\"\n");
    let mut st = position(&g, 0, &[1, 0, 0, 0, 0, 0], &[0; 6], [7, 40]);
    sow_pit(&g, &mut st, 1);
    let o = g.outcome(&st).expect("over");
    assert_eq!((o.winner, o.scores), (Some(0), [8, 40]));
}

#[test]
fn a_chain_walks_back_on_or_both_ways_as_far_as_the_rules_allow() {
    // South's pit 6 (3 stones) sows North's pits 1 to 3, each then holding 2, and ends in pit
    // 3; North's pits 4 and 5 hold 2 already, pit 6 none.
    let capture = |extra: &str| {
        plain(&format!(
            "[capture]\nwhen = \"last.side == opponent and last.count == 2\"\ntake = [\"last\"]\n\
             chain = \"pit.side == opponent and pit.count == 2\"\n{extra}"
        ))
    };
    let north = [1, 1, 1, 2, 2, 0];
    let taken = |extra: &str| {
        let g = capture(extra);
        let mut st = position(&g, 0, &[0, 0, 0, 0, 0, 3], &north, [19, 19]);
        sow_pit(&g, &mut st, 6)["stores"][0].as_u64().unwrap() - 19
    };
    assert_eq!(taken(""), 6, "back: pits 3, 2, 1");
    assert_eq!(taken("chain_way = \"on\""), 6, "on: pits 3, 4, 5");
    assert_eq!(taken("chain_way = \"both\""), 10, "both: pits 1 to 5");
    assert_eq!(
        taken("chain_way = \"both\"\nchain_max = 1"),
        6,
        "both, one more each way"
    );
    assert_eq!(taken("chain_max = 1"), 4, "back, one more: pits 3 and 2");
}

#[test]
fn a_drop_knows_the_stones_still_in_hand() {
    // Pits reaching 4 as the sowing passes go to their owners; the last pit is left to the
    // capture, which gives it to the sower. South's pit 4 (3 stones): South's pits 5 and 6
    // reach 4 and go to South's store as their owner's; North's pit 1, the last, reaches 4 and
    // is captured by South.
    let g = plain(
        "[sowing]\ntake = \"pit.count == 4 and hand > 0\"\n[capture]\nwhen = \"last.count == 4\"\n\
         take = [\"last\"]\n",
    );
    let mut st = position(&g, 0, &[0, 0, 0, 3, 3, 3], &[3, 0, 0, 0, 0, 0], [16, 20]);
    let s = sow_pit(&g, &mut st, 4);
    assert_eq!(s["pits"], json!([[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]]));
    assert_eq!(s["stores"], json!([28, 20]));
}

#[test]
fn stones_left_go_to_the_last_mover_or_are_shared_out() {
    use ludus::game::Game;
    // South's last stone lands in their own store and South moves again; the board then has
    // 5 stones left, which a stop on "5 or fewer on the board" ends with.
    let rules = |leftover: &str| {
        plain(&format!(
            "[sowing]\nstores = \"own\"\n[turn]\nagain = \"last.is_store\"\n[end]\n\
             stop = \"mover.pits + opponent.pits <= 5\"\nleftover = \"{leftover}\"\n"
        ))
    };
    let scores = |leftover: &str| {
        let g = rules(leftover);
        let mut st = position(&g, 0, &[0, 0, 0, 0, 2, 1], &[1, 1, 1, 0, 0, 0], [20, 22]);
        sow_pit(&g, &mut st, 6);
        g.outcome(&st).expect("over").scores
    };
    // "opponent": of the player to move, South again, so North takes them.
    assert_eq!(scores("opponent"), [21, 27]);
    assert_eq!(scores("mover"), [26, 22]);
    // Divided: 2 each (23 and 24), the odd stone to South, who has fewer in store.
    assert_eq!(scores("divided"), [24, 24]);
    // "starter": to the player who started the game (the round), North here.
    use ludus::game::Json;
    let g = rules("starter");
    let mut st = g
        .state_from_json(&json!({"to_move": 0, "starter": 1,
            "pits": [[0, 0, 0, 0, 2, 1], [1, 1, 1, 0, 0, 0]], "stores": [20, 22]}))
        .unwrap_or_else(|e| panic!("{e}"));
    sow_pit(&g, &mut st, 6);
    assert_eq!(g.outcome(&st).expect("over").scores, [21, 27]);
}

#[test]
fn a_chain_may_walk_on_over_alternating_empty_and_occupied_pits() {
    // South's single stone lands in North's pit 1; the next pit (North's 2) is empty, so the
    // pit beyond it (North's 3, two stones) is taken. Over empty pits the chain goes on: North's
    // 4 is empty and 5 (three stones) is taken; North's 6 holds a stone, which ends it. Walking
    // on pit by pit, the empty pit 4 ends the chain at once.
    let rules = |way: &str| {
        plain(&format!(
            "[capture]\nwhen = \"next.count == 0\"\ntake = [\"beyond\"]\n\
             chain = \"pit.count > 0\"\nchain_way = \"{way}\"\n"
        ))
    };
    let played = |way: &str| {
        let g = rules(way);
        let mut st = position(&g, 0, &[4, 4, 4, 4, 4, 1], &[0, 0, 2, 0, 3, 1], [10, 11]);
        sow_pit(&g, &mut st, 6)
    };
    let s = played("over-empty");
    assert_eq!(s["pits"], json!([[4, 4, 4, 4, 4, 0], [1, 0, 0, 0, 0, 1]]));
    assert_eq!(s["stores"], json!([15, 11]));
    let s = played("on");
    assert_eq!(s["pits"], json!([[4, 4, 4, 4, 4, 0], [1, 0, 0, 0, 3, 1]]));
    assert_eq!(s["stores"], json!([12, 11]));
    assert!(
        ludus::game::View::describe(&rules("over-empty")).contains("over one empty pit at a time")
    );
}

#[test]
fn a_grand_slam_may_leave_the_pit_nearest_the_movers_right_or_left() {
    // South's pit 5 (three stones) sows into South's 6 and North's 1 and 2, making twos there:
    // the capture walks back over both, every stone North has. "leave-right" keeps North's
    // pit 1 (their leftmost, nearest South's right hand), "leave-left" North's pit 2.
    let played = |slam: &str| {
        let g = plain(&format!(
            "[capture]\nwhen = \"last.side == opponent and last.count in [2, 3]\"\n\
             take = [\"last\"]\nchain = \"pit.side == opponent and pit.count in [2, 3]\"\n\
             grand_slam = \"{slam}\"\n"
        ));
        let mut st = position(&g, 0, &[4, 4, 4, 4, 3, 0], &[1, 1, 0, 0, 0, 0], [12, 15]);
        sow_pit(&g, &mut st, 5)
    };
    // Taken as usual, North is left without stones: the game ends, South's own stones
    // counted for South (12 + 4 + 17).
    let s = played("capture");
    assert_eq!(s["pits"], json!([[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]]));
    assert_eq!(s["stores"], json!([33, 15]));
    let s = played("leave-right");
    assert_eq!(s["pits"][1], json!([2, 0, 0, 0, 0, 0]));
    assert_eq!(s["stores"], json!([14, 15]));
    let s = played("leave-left");
    assert_eq!(s["pits"][1], json!([0, 2, 0, 0, 0, 0]));
    assert_eq!(s["stores"], json!([14, 15]));
    // When only one of North's pits holds stones, the grand slam takes it (and the game
    // ends, South's 20 stones counted for South).
    let g = plain(
        "[capture]\nwhen = \"last.side == opponent and last.count in [2, 3]\"\n\
         take = [\"last\"]\ngrand_slam = \"leave-right\"\n",
    );
    let mut st = position(&g, 0, &[4, 4, 4, 4, 4, 1], &[1, 0, 0, 0, 0, 0], [11, 15]);
    let s = sow_pit(&g, &mut st, 6);
    assert_eq!(s["pits"][1], json!([0, 0, 0, 0, 0, 0]));
    assert_eq!(s["stores"], json!([33, 15]));
}

#[test]
fn a_capture_reads_the_opponents_stones_at_the_moves_start() {
    // Olowuka as Mancala Games plays it: a grand slam leaves the opponent's pit nearest the
    // mover's right hand, but only against an opponent who had stones when the move began.
    let g = plain(
        "[capture]\nwhen = \"last.side == opponent and last.count in [2, 3]\"\n\
         take = [\"last\"]\nchain = \"pit.side == opponent and pit.count in [2, 3] and \
         (opponent_had == 0 or pit.number > 1)\"\n",
    );
    // North had stones (1 and 1): South's pit 5 makes twos in North's 1 and 2; the chain
    // stops short of North's pit 1.
    let mut st = position(&g, 0, &[4, 4, 4, 4, 3, 0], &[1, 1, 0, 0, 0, 0], [12, 15]);
    let s = sow_pit(&g, &mut st, 5);
    assert_eq!(s["pits"][1], json!([2, 0, 0, 0, 0, 0]));
    assert_eq!(s["stores"], json!([14, 15]));
    // North had none: South's pit 4 (sixteen stones) sows South's 5 and 6, North's row,
    // South's row and North's 1 and 2, making twos there.
    let mut st = position(&g, 0, &[4, 4, 4, 16, 0, 0], &[0, 0, 0, 0, 0, 0], [10, 10]);
    let s = sow_pit(&g, &mut st, 4);
    let north = s["pits"][1].as_array().unwrap().clone();
    // Against an empty side every pit of the chain is taken, North's pit 1 too.
    assert_eq!(north[..3], [json!(0), json!(0), json!(1)], "{s}");
    assert_eq!(s["stores"], json!([14, 10]));
}

#[test]
fn a_capture_may_be_made_for_the_owner_of_the_last_pit() {
    // A last stone in an empty pit takes the pit facing it. South's pit 6 (two stones) ends in
    // North's empty pit 2: with `taker = "owner"` North takes South's pit 5 (three stones), as
    // Yovodi has it; by default South would take it. South's pit 1 (one stone) ends in South's
    // own empty pit 2 and takes North's pit 5 for South either way.
    let rules = |taker: &str| {
        plain(&format!(
            "[capture]\nwhen = \"last.count == 1\"\ntake = [\"opposite\"]\ntaker = \"{taker}\"\n"
        ))
    };
    let played = |taker: &str, pit: u8| {
        let g = rules(taker);
        let mut st = position(&g, 0, &[1, 0, 4, 4, 3, 2], &[0, 0, 4, 4, 4, 4], [10, 8]);
        sow_pit(&g, &mut st, pit)
    };
    let s = played("owner", 6);
    assert_eq!(s["pits"], json!([[1, 0, 4, 4, 0, 0], [1, 1, 4, 4, 4, 4]]));
    assert_eq!(s["stores"], json!([10, 11]));
    let s = played("mover", 6);
    assert_eq!(s["stores"], json!([13, 8]));
    let s = played("owner", 1);
    assert_eq!(s["pits"], json!([[0, 1, 4, 4, 3, 2], [0, 0, 4, 4, 0, 4]]));
    assert_eq!(s["stores"], json!([14, 8]));
    assert!(ludus::game::View::describe(&rules("owner")).contains("the last pit's owner takes"));
}

#[test]
fn extra_turns_in_a_row_may_be_limited() {
    use ludus::game::Json;
    // A capture gives another turn; with `again_max = 1` a capture made in that extra turn
    // gives none. South's pit 6 (one stone) ends in North's pit 1 making two: captured, and
    // South moves again unless South is already in an extra turn (STATE `extra_turns`).
    let rules = |most: &str| {
        plain(&format!(
            "[capture]\nwhen = \"last.side == opponent and last.count == 2\"\ntake = [\"last\"]\n\
             [turn]\nagain = \"captured > 0\"\n{most}"
        ))
    };
    let next = |most: &str, extra: u32| {
        let g = rules(most);
        let mut fields = json!({"to_move": 0, "pits": [[4, 4, 4, 4, 4, 1], [1, 4, 4, 4, 4, 4]],
            "stores": [3, 3]});
        if !most.is_empty() {
            fields["extra_turns"] = json!(extra);
        }
        let mut st = g.state_from_json(&fields).unwrap_or_else(|e| panic!("{e}"));
        let s = sow_pit(&g, &mut st, 6);
        assert_eq!(s["stores"], json!([5, 3]));
        (s["to_move"].clone(), s.get("extra_turns").cloned())
    };
    assert_eq!(next("", 0), (json!(0), None));
    assert_eq!(next("again_max = 1\n", 0), (json!(0), Some(json!(1))));
    assert_eq!(next("again_max = 1\n", 1), (json!(1), Some(json!(0))));
    assert_eq!(next("again_max = 2\n", 1), (json!(0), Some(json!(2))));
    // A count beyond the most is refused.
    let g = rules("again_max = 1\n");
    let err = g
        .state_from_json(
            &json!({"to_move": 0, "pits": [[4, 4, 4, 4, 4, 1], [1, 4, 4, 4, 4, 4]],
            "stores": [3, 3], "extra_turns": 2}),
        )
        .expect_err("too many");
    assert!(err.to_string().contains("extra_turns"), "{err}");
    assert!(ludus::game::View::describe(&g).contains("(once in a row at most)"));
}

#[test]
fn a_stop_may_give_the_stones_left_to_another_player_than_other_endings_do() {
    use ludus::game::{Game, Json};
    // `stop_leftover = "starter"`: a round stopped with 8 or fewer stones on the board gives
    // them to its starter (North); a round that ends because nobody can move gives each pit's
    // stones to its owner.
    let g = plain(
        "[sowing]\nstores = \"own\"\n[end]\nstop = \"mover.pits + opponent.pits <= 8\"\n\
         leftover = \"owners\"\nstop_leftover = \"starter\"\n",
    );
    let played = |south: [u8; 6], north: [u8; 6], stores: [u8; 2]| {
        let mut st = g
            .state_from_json(
                &json!({"to_move": 0, "starter": 1, "pits": [south, north], "stores": stores}),
            )
            .unwrap_or_else(|e| panic!("{e}"));
        sow_pit(&g, &mut st, 6);
        g.outcome(&st).expect("over")
    };
    // South's pit 6 sows its stone into South's store: 7 stones left, all North's.
    let stopped = played([0, 0, 0, 0, 3, 1], [1, 1, 1, 1, 0, 0], [20, 20]);
    assert_eq!(stopped.scores, [21, 27]);
    // The same move with 9 stones left, all South's: North cannot move, and they are South's.
    let blocked = played([3, 2, 2, 2, 0, 1], [0, 0, 0, 0, 0, 0], [19, 19]);
    assert_eq!(blocked.scores, [29, 19]);
    assert!(ludus::game::View::describe(&g).contains(
        "When `stop` ends it: stones left on the board all go to the player who started the game"
    ));
}

#[test]
fn after_a_drawn_round_the_last_mover_may_start_the_next() {
    use ludus::game::{Game, Json};
    // `next_first = "loser"`: South wins a round and North starts the next; after a draw
    // South, who started it and moved last, does not ("other", "next-mover": North would
    // have moved next) or does ("last-mover").
    let next = |extra: &str, stores: [u8; 2]| {
        let g = plain(&format!(
            "[sowing]\nstores = \"own\"\n[end]\nstop = \"mover.pits == 0\"\n[match]\nrefill = 4\n\
             next_first = \"loser\"\n{extra}"
        ));
        let mut st = g
            .state_from_json(&json!({"to_move": 0, "starter": 0,
                "pits": [[0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 0]], "stores": stores}))
            .unwrap_or_else(|e| panic!("{e}"));
        sow_pit(&g, &mut st, 6);
        assert!(g.outcome(&st).is_some(), "the round is over");
        g.next_starter(&st)
    };
    assert_eq!(next("", [27, 20]), Some(1));
    assert_eq!(next("", [23, 24]), Some(1));
    assert_eq!(next("draw_first = \"last-mover\"", [23, 24]), Some(0));
    assert_eq!(next("draw_first = \"next-mover\"", [23, 24]), Some(1));
    assert_eq!(next("", [23, 24]), next("draw_first = \"other\"", [23, 24]));
}

#[test]
fn a_match_is_lost_by_a_player_who_cannot_fill_the_pits_the_rules_ask_for() {
    use ludus::game::{Game, Json};
    // Sat-gharva refills 7 a pit; with `min_pits = 4` a player holding 27 stones (fewer than
    // four pits' worth, 28) loses the match, where one pit's worth would do otherwise.
    let over = |extra: &str| {
        let g = from_text(&sowing_common::with("sat-gharva", "match", extra));
        let st = g
            .state_from_json(
                &json!({"to_move": 1, "pits": [[0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0]],
                "stores": [71, 27], "match": {"game": 2, "points": [49, 49]}}),
            )
            .unwrap_or_else(|e| panic!("{e}"));
        g.match_standing(&st).expect("a match").over
    };
    assert!(!over(""));
    assert!(over("min_pits = 4"));
}

#[test]
fn stones_in_a_pit_out_of_play_stay_their_owners_whatever_the_leftover() {
    use ludus::game::{Game, Json};
    // North's pit 1 is out of play with 5 stones. South's move leaves North without a move;
    // the stones in play go to South (the last mover), North's 5 stay North's.
    let g = from_text(&sowing_common::replaced(
        "sat-gharva",
        "leftover = \"owners\"",
        "leftover = \"mover\"",
    ));
    let mut st = g
        .state_from_json(&json!({"to_move": 0, "pits": [[2, 0, 0, 0, 1, 0, 0], [5, 0, 0, 0, 0, 0, 0]],
            "stores": [50, 40], "out_of_play": [[], [1]], "match": {"game": 2, "points": [49, 49]}}))
        .unwrap_or_else(|e| panic!("{e}"));
    sow_pit(&g, &mut st, 5);
    let s = g.state_json(&st);
    assert!(g.outcome(&st).is_some(), "{s}");
    assert_eq!(s["stores"], json!([53, 45]), "{s}");
}

#[test]
fn a_refill_may_put_the_stones_short_of_a_pit_in_the_store() {
    use ludus::game::{Game, Json};
    // North ends the round holding 45: six pits of 7 and 3 over. With `partial = "store"`
    // those 3 go to North's store and pit 1 stays empty, out of play.
    let g = from_text(&sowing_common::replaced(
        "sat-gharva",
        "partial = \"closed\"",
        "partial = \"store\"",
    ));
    let st = g
        .state_from_json(
            &json!({"to_move": 1, "pits": [[0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0]],
            "stores": [53, 45], "match": {"game": 2, "points": [49, 49]}}),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    let next = g.state_json(&g.next_game(&st, 0).expect("a next round"));
    assert_eq!(next["pits"][1], json!([0, 7, 7, 7, 7, 7, 7]));
    assert_eq!(next["stores"][1], 3);
    assert_eq!(next["out_of_play"], json!([[], [1]]));
}

#[test]
fn pits_taken_on_a_drop_may_go_to_the_sower() {
    // South's pit 5 (2 stones) makes South's pit 6 and North's pit 1 hold 4 each: with
    // `take_to = "mover"` both go to South's store; by default each to its owner's.
    let stores = |extra: &str| {
        let g = plain(&format!("[sowing]\ntake = \"pit.count == 4\"\n{extra}"));
        let mut st = position(&g, 0, &[0, 0, 0, 0, 2, 3], &[3, 0, 0, 0, 0, 0], [20, 20]);
        sow_pit(&g, &mut st, 5)["stores"].clone()
    };
    assert_eq!(stores(""), json!([24, 24]));
    assert_eq!(stores("take_to = \"mover\""), json!([28, 20]));
}

#[test]
fn captured_stones_are_sown_on_from_the_laps_pit_or_from_the_last() {
    // South's pit 4 (1 stone) makes pit 5 hold 2: the 3 stones of North's pit 2 facing it are
    // captured and sown on at once. From the lap's pit (4): into South's 5, 6 and North's 1;
    // from the last pit (5): into South's 6 and North's 1 and 2.
    let pits = |from: &str| {
        let g = plain(&format!(
            "[capture]\nwhen = \"last.side == mover and last.count > 1 and opposite.count > 0\"\n\
             take = [\"opposite\"]\nto = \"sow\"\n{from}"
        ));
        let mut st = position(&g, 0, &[0, 0, 0, 1, 1, 0], &[0, 3, 0, 0, 0, 0], [21, 22]);
        sow_pit(&g, &mut st, 4)["pits"].clone()
    };
    assert_eq!(pits(""), json!([[0, 0, 0, 0, 3, 1], [1, 0, 0, 0, 0, 0]]));
    assert_eq!(
        pits("sow_from = \"last\""),
        json!([[0, 0, 0, 0, 2, 1], [1, 1, 0, 0, 0, 0]])
    );
}

#[test]
fn a_side_is_measured_by_its_fullest_pit_and_its_occupied_pits() {
    // A single stone may be sown only when no pit of the mover's holds more.
    let g = plain("[sowing]\nstart = \"pit.count > 1 or mover.most == 1\"\n");
    let st = position(&g, 0, &[1, 2, 0, 1, 0, 0], &[4; 6], [10, 10]);
    assert_eq!(legal_pits(&g, &st), vec![2]);
    let st = position(&g, 0, &[1, 1, 0, 1, 0, 0], &[4, 4, 4, 4, 4, 5], [10, 10]);
    assert_eq!(legal_pits(&g, &st), vec![1, 2, 4]);
    // A game won by the first to have a single occupied pit left.
    let g = plain("[end]\nwin = \"mover.occupied == 1\"\n");
    let mut st = position(&g, 0, &[0, 0, 0, 1, 3, 0], &[4; 6], [10, 10]);
    sow_pit(&g, &mut st, 4);
    use ludus::game::Game;
    assert_eq!(g.outcome(&st).expect("over").winner, Some(0));
}

/// Two rows of six, four a pit, pits that change owner over the rounds of a match; a capture
/// of the last pit when it is the opponent's and holds 2 or 3.
const TERRITORY: &str = r#"
[game]
name = "territory"
family = "sowing"

[board]
pits = 6
stores = true

[setup]
stones = 4

[capture]
when = "last.side == opponent and last.count in [2, 3]"
take = ["last"]

[end]
no_move = "pass"

[match]
refill = 4
owners = "filled"
min_pits = 3
"#;

/// A finished round of `TERRITORY` with the players holding `stores`, and the next round,
/// South to move.
fn next_territory_round(
    stores: [u8; 2],
) -> (ludus::sowing::SowingGame, ludus::sowing::SowingState) {
    use ludus::game::{Game, Json};
    let g = from_text(TERRITORY);
    let st = g
        .state_from_json(&json!({"to_move": null, "pits": [[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]], "stores": stores}))
        .unwrap_or_else(|e| panic!("{e}"));
    let next = g.next_game(&st, 0).expect("a next round");
    (g, next)
}

#[test]
fn the_pit_filled_in_part_may_go_to_the_loser_empty() {
    use ludus::game::{Game, Json};
    // `contested = "loser-empty"`: South holds 29, seven pits of four and 1 short; North 19,
    // four pits and 3 short. South owns seven pits (their six and North's pit 1), North the
    // other five; North's pit 2, the one South filled in part, starts empty, and the stones
    // short of a pit stay in the stores.
    let g = from_text(&TERRITORY.replace(
        "owners = \"filled\"",
        "owners = \"filled\"\ncontested = \"loser-empty\"",
    ));
    let st = g
        .state_from_json(&json!({"to_move": null, "pits": [[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]], "stores": [29, 19]}))
        .unwrap_or_else(|e| panic!("{e}"));
    let s = g.state_json(&g.next_game(&st, 0).expect("a next round"));
    assert_eq!(
        s["owners"],
        json!([[0, 0, 0, 0, 0, 0], [0, 1, 1, 1, 1, 1]]),
        "{s}"
    );
    assert_eq!(s["pits"], json!([[4, 4, 4, 4, 4, 4], [4, 0, 4, 4, 4, 4]]));
    assert_eq!(s["stores"], json!([1, 3]));
}

#[test]
fn a_grand_slam_may_be_judged_on_the_row_across_where_pits_change_owner() {
    use ludus::game::Json;
    // North owns South's pit 1 (three stones) and their own row, of which pits 1 and 2 hold a
    // stone each. South's pit 5 sows into South's 6 and North's 1 and 2, making twos: both are
    // taken, walking back. North still holds South's pit 1, so of the pits North owns this is
    // no grand slam; of the row across it is, and "leave-right" keeps North's pit 1.
    let played = |pits: &str| {
        let g = from_text(&TERRITORY.replace(
            "take = [\"last\"]",
            &format!(
                "take = [\"last\"]\nchain = \"pit.side == opponent and pit.count in [2, 3]\"\n\
                 grand_slam = \"leave-right\"\ngrand_slam_pits = \"{pits}\""
            ),
        ));
        let mut st = g
            .state_from_json(
                &json!({"to_move": 0, "pits": [[3, 4, 4, 4, 3, 0], [1, 1, 0, 0, 0, 0]],
                "stores": [14, 14], "owners": [[1, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1]]}),
            )
            .unwrap_or_else(|e| panic!("{e}"));
        sow_pit(&g, &mut st, 5)
    };
    let s = played("owned");
    assert_eq!(s["pits"], json!([[3, 4, 4, 4, 0, 1], [0, 0, 0, 0, 0, 0]]));
    assert_eq!(s["stores"], json!([18, 14]));
    let s = played("across");
    assert_eq!(s["pits"], json!([[3, 4, 4, 4, 0, 1], [2, 0, 0, 0, 0, 0]]));
    assert_eq!(s["stores"], json!([16, 14]));
}

#[test]
fn a_round_gives_each_player_the_pits_their_stones_fill() {
    use ludus::game::{Game, Json};
    // South holds 31: seven pits of four and 3 of the eighth, more than North's 1 of it: eight
    // pits, South's six and North's pits 1 and 2 (the run from South's pit 1 on); North the
    // other four. Every pit starts with four, the stores empty.
    let (g, st) = next_territory_round([31, 17]);
    let s = g.state_json(&st);
    assert_eq!(
        s["owners"],
        json!([[0, 0, 0, 0, 0, 0], [0, 0, 1, 1, 1, 1]]),
        "{s}"
    );
    assert_eq!(s["pits"], json!([[4, 4, 4, 4, 4, 4], [4, 4, 4, 4, 4, 4]]));
    assert_eq!(s["stores"], json!([0, 0]));
    // 30: two stones of the eighth pit each, a tie: the loser, North, owns it.
    let (g, st) = next_territory_round([30, 18]);
    assert_eq!(
        g.state_json(&st)["owners"],
        json!([[0, 0, 0, 0, 0, 0], [0, 1, 1, 1, 1, 1]])
    );
    // North the winner: the run from North's pit 1 on, their side first, then South's pit 1.
    let (g, st) = next_territory_round([17, 31]);
    assert_eq!(
        g.state_json(&st)["owners"],
        json!([[1, 1, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1]])
    );
    // With `contested = "loser"` the eighth pit, 3 of whose 4 stones are South's, is North's.
    let g = from_text(&TERRITORY.replace(
        "owners = \"filled\"",
        "owners = \"filled\"\ncontested = \"loser\"",
    ));
    let st = g
        .state_from_json(&json!({"to_move": null, "pits": [[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]], "stores": [31, 17]}))
        .unwrap_or_else(|e| panic!("{e}"));
    let next = g.next_game(&st, 0).expect("a next round");
    assert_eq!(
        g.state_json(&next)["owners"],
        json!([[0, 0, 0, 0, 0, 0], [0, 1, 1, 1, 1, 1]])
    );
}

#[test]
fn a_player_moves_from_the_pits_they_own_on_either_side() {
    use ludus::game::{Game, Json, Notation};
    // South owns North's pits 1 and 2: South's moves are their six pits and `o1`, `o2`;
    // North's are their pits 3 to 6.
    let (g, mut st) = next_territory_round([31, 17]);
    let mut moves = Vec::new();
    g.legal_moves(&st, &mut moves);
    let texts: Vec<String> = moves.iter().map(|m| g.move_text(&st, m)).collect();
    assert_eq!(texts, ["1", "2", "3", "4", "5", "6", "o1", "o2"]);
    assert_eq!(
        g.move_json(&st, &moves[7]),
        json!({"pit": 2, "side": 1, "text": "o2"})
    );
    let err = g
        .parse_move(&st, "o3")
        .expect_err("North's pit 3 is North's");
    assert!(err.to_string().contains("not yours"), "{err}");
    // South sows North's pit 2: four stones into North's pits 3 to 6. The last, North's pit 6,
    // holds 5: no capture.
    let mv = g
        .parse_move(&st, "o2")
        .expect("South's pit across the board");
    g.play(&mut st, &mv);
    let s = g.state_json(&st);
    assert_eq!(
        s["pits"],
        json!([[4, 4, 4, 4, 4, 4], [4, 0, 5, 5, 5, 5]]),
        "{s}"
    );
    let mut moves = Vec::new();
    g.legal_moves(&st, &mut moves);
    let texts: Vec<String> = moves.iter().map(|m| g.move_text(&st, m)).collect();
    assert_eq!(texts, ["3", "4", "5", "6"]);
}

#[test]
fn a_pits_side_is_the_player_who_owns_it_now() {
    use ludus::game::Json;
    // South sows their pit 6 (two stones) into North's pits 1 and 2; pit 2 then holds 3. Owned
    // by North it is the opponent's and is captured; owned by South it is not.
    let stores = |owners: serde_json::Value| {
        let g = from_text(TERRITORY);
        let mut st = g
            .state_from_json(
                &json!({"to_move": 0, "pits": [[1, 0, 0, 0, 0, 2], [0, 2, 1, 0, 0, 0]],
                "stores": [20, 22], "owners": owners}),
            )
            .unwrap_or_else(|e| panic!("{e}"));
        sow_pit(&g, &mut st, 6);
        g.state_json(&st)["stores"].clone()
    };
    assert_eq!(
        stores(json!([[0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1]])),
        json!([23, 22])
    );
    assert_eq!(
        stores(json!([[0, 0, 0, 0, 0, 0], [0, 0, 1, 1, 1, 1]])),
        json!([20, 22])
    );
}

#[test]
fn a_player_who_would_own_too_few_pits_loses_the_match() {
    use ludus::game::Game;
    // With `min_pits = 3`: holding 9, North would own two pits (South 39: ten pits and 3 of
    // the eleventh) and loses the match; holding 10 (a tie for the third pit, which goes to
    // the loser) North owns three and plays on.
    let standing = |stores: [u8; 2]| {
        use ludus::game::Json;
        let g = from_text(TERRITORY);
        let st = g
            .state_from_json(&json!({"to_move": null, "pits": [[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]], "stores": stores}))
            .unwrap_or_else(|e| panic!("{e}"));
        g.match_standing(&st).expect("a match")
    };
    let lost = standing([39, 9]);
    assert!(lost.over);
    assert_eq!(lost.winner, Some(0));
    assert!(!standing([38, 10]).over);
}

#[test]
fn a_pit_half_filled_may_not_count_toward_the_pits_a_player_needs() {
    use ludus::game::{Game, Json};
    // `min_pits_count = "more-than-half"`: North holding 10 fills two pits and half a third,
    // which would be theirs, but counts only two: the match is lost. Holding 11 (three of the
    // third pit's four) North plays on.
    let g = from_text(&TERRITORY.replace(
        "min_pits = 3",
        "min_pits = 3\nmin_pits_count = \"more-than-half\"",
    ));
    let standing = |stores: [u8; 2]| {
        let st = g
            .state_from_json(&json!({"to_move": null, "pits": [[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]], "stores": stores}))
            .unwrap_or_else(|e| panic!("{e}"));
        g.match_standing(&st).expect("a match")
    };
    let lost = standing([38, 10]);
    assert!(lost.over);
    assert_eq!(lost.winner, Some(0));
    assert!(!standing([37, 11]).over);
    assert!(ludus::game::View::describe(&g).contains("filling (a pit filled in part counting when more than half full) fewer than 3 pits loses the match"));
}

#[test]
fn rounds_played_afresh_add_up_points_to_a_target() {
    use ludus::game::{Game, Json};
    // A match to two round wins: South wins a round (stores 30 to 18).
    let g = plain("[match]\ntarget = 2\n");
    let over = |points: [i32; 2], stores: [u8; 2]| {
        g.state_from_json(
            &json!({"to_move": null, "pits": [[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]],
            "stores": stores, "match": {"game": 2, "points": points}}),
        )
        .unwrap_or_else(|e| panic!("{e}"))
    };
    let st = over([0, 0], [30, 18]);
    let standing = g.match_standing(&st).expect("a match");
    assert_eq!((standing.points, standing.over), ([1, 0], false));
    // The next round starts afresh from the setup, the points carried.
    let next = g.state_json(&g.next_game(&st, 1).expect("a next round"));
    assert_eq!(
        next["pits"],
        json!([[4, 4, 4, 4, 4, 4], [4, 4, 4, 4, 4, 4]])
    );
    assert_eq!(next["stores"], json!([0, 0]));
    assert_eq!(next["match"]["points"], json!([1, 0]));
    // A second round won: the match is South's. A drawn round gives nobody a point.
    let standing = g.match_standing(&over([1, 0], [30, 18])).expect("a match");
    assert_eq!(
        (standing.points, standing.over, standing.winner),
        ([2, 0], true, Some(0))
    );
    let standing = g.match_standing(&over([1, 1], [24, 24])).expect("a match");
    assert_eq!((standing.points, standing.over), ([1, 1], false));
    // Points on the stones: the winner scores their margin.
    let g = plain("[match]\npoints = \"mover.won * (mover.held - opponent.held)\"\ntarget = 20\n");
    let st = g
        .state_from_json(
            &json!({"to_move": null, "pits": [[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]],
            "stores": [30, 18]}),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.match_standing(&st).expect("a match").points, [12, 0]);
}

#[test]
fn a_sweep_gives_the_mover_the_stones_left_after_the_capture_step() {
    use ludus::game::{Game, Json};
    // South's pit 6 (one stone) makes North's pit 1 hold 2: captured. Three stones are left on
    // the board: with a sweep on four or fewer, South takes them too, and the round has nothing
    // left to play; with one on two or fewer, they stay.
    let stores = |sweep: &str| {
        let g = plain(&format!(
            "[capture]\nwhen = \"last.side == opponent and last.count == 2\"\ntake = [\"last\"]\n\
             sweep = \"{sweep}\"\n"
        ));
        let mut st = position(&g, 0, &[1, 0, 0, 0, 0, 1], &[1, 0, 1, 1, 0, 0], [20, 23]);
        sow_pit(&g, &mut st, 6);
        (
            g.state_json(&st)["stores"].clone(),
            g.outcome(&st).is_some(),
        )
    };
    assert_eq!(
        stores("mover.pits + opponent.pits <= 4"),
        (json!([25, 23]), true)
    );
    assert_eq!(
        stores("mover.pits + opponent.pits <= 2"),
        (json!([22, 23]), false)
    );
}

#[test]
fn the_sowing_passes_over_the_pits_the_rules_skip() {
    // The opponent's pits of two are not sown: South's pit 5 (4 stones) sows pit 6, passes
    // over North's pits 1 and 3 (two each) and sows North's 2, 4 and 5.
    let g = plain("[sowing]\nskip = \"pit.side == opponent and pit.count == 2\"\n");
    let mut st = position(&g, 0, &[0, 0, 0, 0, 4, 0], &[2, 0, 2, 0, 0, 0], [20, 20]);
    let s = sow_pit(&g, &mut st, 5);
    assert_eq!(s["pits"], json!([[0, 0, 0, 0, 0, 1], [2, 1, 2, 1, 1, 0]]));
    // `hand` is what would be left after a drop there: only a last stone falls on the
    // opponent's side. One stone from pit 6 goes across; two go round to South's own pits.
    let g = plain("[sowing]\nskip = \"pit.side == opponent and hand > 0\"\n");
    let mut st = position(&g, 0, &[0, 0, 0, 0, 0, 1], &[0; 6], [23, 24]);
    assert_eq!(
        sow_pit(&g, &mut st, 6)["pits"],
        json!([[0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0]])
    );
    let mut st = position(&g, 0, &[0, 0, 0, 0, 0, 2], &[0, 0, 0, 0, 0, 1], [22, 23]);
    assert_eq!(
        sow_pit(&g, &mut st, 6)["pits"],
        json!([[1, 1, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1]])
    );
    // A rule that would pass over every pit loses no stone: it falls into the next pit.
    let g = plain("[sowing]\nskip = \"pit.count >= 0\"\n");
    let mut st = position(&g, 0, &[0, 0, 0, 0, 3, 0], &[0; 6], [21, 24]);
    assert_eq!(
        sow_pit(&g, &mut st, 5)["pits"],
        json!([[0, 0, 0, 0, 0, 1], [1, 1, 0, 0, 0, 0]])
    );
}

/// Two rows of six, children made by a last stone making four on the opponent's side, as many
/// as four each, passed over by the opponent's sowing; a capture of the facing pit only for a
/// player who holds a child.
const CHILDREN: &str = "[house]\nwhen = \"last.side == opponent and last.count == 4\"\nmost = 4\n\
     [sowing]\nskip = \"pit.house == opponent\"\n\
     [capture]\nwhen = \"mover.houses > 0 and last.side == mover and last.count == 1\"\n\
     take = [\"opposite\"]\n";

#[test]
fn a_player_makes_many_houses_and_rules_read_whose_a_pit_is() {
    use ludus::game::Json;
    let g = plain(CHILDREN);
    // South's pit 6 (2 stones) makes North's pit 2 a fourth stone: South's child, its stones
    // to South's store. No capture yet (North's pit 1 is not South's).
    let mut st = position(&g, 0, &[3, 0, 1, 0, 0, 2], &[1, 3, 0, 0, 0, 1], [20, 17]);
    let s = sow_pit(&g, &mut st, 6);
    assert_eq!(s["pits"], json!([[3, 0, 1, 0, 0, 0], [2, 0, 0, 0, 0, 1]]));
    assert_eq!(s["stores"], json!([24, 17]));
    assert_eq!(s["houses"], json!([[[1, 2]], []]));
    // North's pit 6 (1 stone) makes South's pit 1 four: North's child.
    let s = sow_pit(&g, &mut st, 6);
    assert_eq!(s["houses"], json!([[[1, 2]], [[0, 1]]]));
    assert_eq!(s["pits"], json!([[0, 0, 1, 0, 0, 0], [2, 0, 0, 0, 0, 0]]));
    assert_eq!(s["stores"], json!([24, 21]));
    // A stone sown by North into South's child goes to South's store; a stone of South's
    // passes over North's child (South's pit 1) to the next pit.
    let mut st = g
        .state_from_json(
            &json!({"to_move": 0, "pits": [[0, 0, 0, 0, 0, 8], [0, 0, 0, 0, 0, 1]],
            "stores": [20, 19], "houses": [[[1, 2]], [[0, 1]]]}),
        )
        .unwrap();
    let s = sow_pit(&g, &mut st, 6);
    // Eight stones: North's 1, (child 2: to South's store), 3, 4, 5, 6, then South's 1 passed
    // over, 2, 3. South's pit 3 held none: its last stone captures the facing North pit 4.
    assert_eq!(s["pits"], json!([[0, 1, 1, 0, 0, 0], [1, 0, 1, 0, 1, 2]]));
    assert_eq!(s["stores"], json!([22, 19]));
    // `most` caps the houses: a player holding that many makes no more.
    let g = plain(&CHILDREN.replace("most = 4", "most = 1"));
    let mut st = g
        .state_from_json(
            &json!({"to_move": 0, "pits": [[0, 0, 0, 0, 0, 2], [0, 3, 0, 0, 0, 1]],
            "stores": [21, 21], "houses": [[0, 1], null]}),
        )
        .unwrap();
    let s = sow_pit(&g, &mut st, 6);
    assert_eq!(s["houses"], json!([[0, 1], null]));
    assert_eq!(s["pits"], json!([[0, 0, 0, 0, 0, 0], [1, 4, 0, 0, 0, 1]]));
}

#[test]
fn a_refill_from_the_outside_leaves_the_middle_pits_short() {
    use ludus::game::{Game, Json};
    // North ends the round holding 45: six pits of 7 and 3 over. Filled from both ends inward
    // (North: pit 7, 1, 6, 2, 5, 3), the 3 fall into pit 4, the middle, out of play.
    let g = from_text(&sowing_common::replaced(
        "sat-gharva",
        "fill_from = \"right\"",
        "fill_from = \"outside\"",
    ));
    let round_over = |stores: [u8; 2]| {
        g.state_from_json(
            &json!({"to_move": 1, "pits": [[0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0]],
            "stores": stores, "match": {"game": 2, "points": [49, 49]}}),
        )
        .unwrap_or_else(|e| panic!("{e}"))
    };
    let next = g.state_json(&g.next_game(&round_over([53, 45]), 0).expect("a next round"));
    assert_eq!(next["pits"][1], json!([7, 7, 7, 3, 7, 7, 7]));
    assert_eq!(next["out_of_play"], json!([[], [4]]));
    // South holding 38 (five pits and 3): pits 1, 7, 2, 6, 3 full, pit 5 with 3 and pit 4
    // empty, both out of play.
    let next = g.state_json(&g.next_game(&round_over([38, 60]), 0).expect("a next round"));
    assert_eq!(next["pits"][0], json!([7, 7, 7, 0, 3, 7, 7]));
    assert_eq!(next["out_of_play"], json!([[4, 5], []]));
}

#[test]
fn a_grand_slam_never_legal_leaves_a_player_without_a_move() {
    use ludus::game::Game;
    // Captures of 2 or 3 on the opponent's side. South's only pit holding stones, pit 6 (1
    // stone), makes North's only stones two: a grand slam. "forbidden" lets it be played as
    // the only move; "never" leaves South without a legal move.
    let rules = |slam: &str| {
        plain(&format!(
            "[capture]\nwhen = \"last.side == opponent and last.count in [2, 3]\"\n\
             take = [\"last\"]\ngrand_slam = \"{slam}\"\n"
        ))
    };
    let g = rules("forbidden");
    let st = position(&g, 0, &[0, 0, 0, 0, 0, 1], &[1, 0, 0, 0, 0, 0], [23, 23]);
    assert_eq!(legal_pits(&g, &st), vec![6]);
    let g = rules("never");
    let st = position(&g, 0, &[0, 0, 0, 0, 0, 1], &[1, 0, 0, 0, 0, 0], [23, 23]);
    assert!(legal_pits(&g, &st).is_empty());
    assert!(
        g.outcome(&st).is_some(),
        "the player to move cannot move: the game ends"
    );
    // Beside another move, both readings refuse it.
    let st = position(&g, 0, &[0, 0, 0, 0, 1, 1], &[1, 0, 0, 0, 0, 0], [23, 22]);
    assert_eq!(legal_pits(&g, &st), vec![5]);
}

#[test]
fn a_sweep_may_give_the_stones_left_to_the_opponent() {
    // A grand slam hands the capturer's remaining stones to the player left without any.
    // South's pit 5 (1 stone) falls into empty pit 6 and takes North's pit 1, their last two
    // stones: South's pits 1 and 2 (3 stones) go to North's store.
    let g = plain(
        "[capture]\nwhen = \"last.side == mover and last.count == 1\"\ntake = [\"opposite\"]\n\
         sweep = \"grand_slam\"\nsweep_to = \"opponent\"\n",
    );
    let mut st = position(&g, 0, &[2, 1, 0, 0, 1, 0], &[2, 0, 0, 0, 0, 0], [20, 22]);
    let s = sow_pit(&g, &mut st, 5);
    assert_eq!(s["pits"], json!([[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]]));
    assert_eq!(s["stores"], json!([22, 26]));
}

#[test]
fn a_player_who_cannot_feed_may_play_any_move_when_the_rules_say_so() {
    // North has no stones; South's pit 1 (1 stone) cannot reach them. With `must_feed` alone
    // South has no legal move; with `cannot_feed = "any-move"` the move is legal.
    let g = plain("[sowing]\nmust_feed = true\n");
    let st = position(&g, 0, &[1, 0, 0, 0, 0, 0], &[0, 0, 0, 0, 0, 0], [23, 24]);
    assert!(legal_pits(&g, &st).is_empty());
    let g = plain("[sowing]\nmust_feed = true\ncannot_feed = \"any-move\"\n");
    let st = position(&g, 0, &[1, 0, 0, 0, 0, 0], &[0, 0, 0, 0, 0, 0], [23, 24]);
    assert_eq!(legal_pits(&g, &st), vec![1]);
    // A move that feeds is still required when there is one.
    let st = position(&g, 0, &[1, 0, 0, 0, 0, 1], &[0, 0, 0, 0, 0, 0], [22, 24]);
    assert_eq!(legal_pits(&g, &st), vec![6]);
}

#[test]
fn a_chain_over_the_whole_board_takes_every_pit_it_holds_for_wherever_it_is() {
    // A last stone making two on the opponent's side takes that pit and, with `chain_way =
    // "all"`, every other pit of the opponent's holding two, next to it or not.
    let g = plain(
        "[capture]\nwhen = \"last.side == opponent and last.count == 2\"\ntake = [\"last\"]\n\
         chain = \"pit.side == opponent and pit.count == 2\"\nchain_way = \"all\"\n",
    );
    let mut st = position(&g, 0, &[0, 0, 0, 0, 0, 2], &[2, 1, 3, 2, 0, 2], [18, 18]);
    let s = sow_pit(&g, &mut st, 6);
    // Pit 6 sows North's 1 (3) and 2 (2, the last): taken with North's 4 and 6.
    assert_eq!(s["pits"], json!([[0, 0, 0, 0, 0, 0], [3, 0, 3, 0, 0, 0]]));
    assert_eq!(s["stores"], json!([24, 18]));
    // Walking back instead, the chain stops at once: North's 1 holds three.
    let g = plain(
        "[capture]\nwhen = \"last.side == opponent and last.count == 2\"\ntake = [\"last\"]\n\
         chain = \"pit.side == opponent and pit.count == 2\"\n",
    );
    let mut st = position(&g, 0, &[0, 0, 0, 0, 0, 2], &[2, 1, 3, 2, 0, 2], [18, 18]);
    assert_eq!(sow_pit(&g, &mut st, 6)["stores"], json!([20, 18]));
}

/// A split sowing (the three left pits sown clockwise) in which a single stone just carried
/// round an end of the board may not be sown straight back.
const NO_UNDO: &str = "[sowing]\nreverse = \"pit.number <= 3\"\nstart = \"pit.count > 0 and not \
     (pit.count == 1 and previous_lifted == 1 and previous_last.side == pit.side and \
     previous_last.number == pit.number and previous_origin.side != pit.side)\"\n";

#[test]
fn a_start_condition_remembers_the_move_before() {
    use ludus::game::Json;
    let g = plain(NO_UNDO);
    // South's pit 6 carries its one stone round the end into North's pit 1: North may sow
    // pit 2 but not pit 1 back.
    let mut st = position(&g, 0, &[1, 0, 0, 0, 0, 1], &[0, 2, 0, 0, 0, 0], [22, 22]);
    let s = sow_pit(&g, &mut st, 6);
    assert_eq!(
        s["previous"],
        json!({"origin": [0, 6], "last": [1, 1], "lifted": 1, "captured": 0, "way": 1})
    );
    assert_eq!(legal_pits(&g, &st), vec![2]);
    // The same board without the move before: both pits.
    let mut fresh = s.clone();
    fresh["previous"] = json!(null);
    let st = g.state_from_json(&fresh).unwrap();
    assert_eq!(legal_pits(&g, &st), vec![1, 2]);
    // Set up with it, the rule holds again; a bad `previous` is refused.
    let st = g.state_from_json(&s).unwrap();
    assert_eq!(legal_pits(&g, &st), vec![2]);
    for bad in [
        json!({"origin": [0, 7], "last": [1, 1], "lifted": 1}),
        json!({"origin": [0, 6], "last": [2, 1], "lifted": 1}),
        json!({"origin": [0, 6], "last": [1, 1]}),
        json!({"origin": [0, 6], "last": [1, 1], "lifted": 1, "captured": -1}),
        json!({"origin": [0, 6], "last": [1, 1], "lifted": 1, "captured": "two"}),
        json!({"origin": [0, 6], "last": [1, 1], "lifted": 1, "captured": 70000}),
        json!([0, 6]),
    ] {
        let mut v = s.clone();
        v["previous"] = bad.clone();
        assert!(g.state_from_json(&v).is_err(), "{bad}");
    }
    // Two stones carried across are not "a single stone": North's pit 1 may go back.
    let mut st = position(&g, 0, &[0, 0, 0, 0, 2, 0], &[0, 2, 0, 0, 0, 0], [22, 22]);
    sow_pit(&g, &mut st, 5);
    assert_eq!(legal_pits(&g, &st), vec![1, 2]);
    // Unless the move that carried it captured: `previous_captured` (here the pit after the
    // last, North's pit 2, two stones).
    let g = plain(&format!(
        "{}\n[capture]\nwhen = \"last.side == opponent and next.count > 0\"\ntake = [\"next\"]\n",
        NO_UNDO.replace(
            "previous_origin.side != pit.side)",
            "previous_origin.side != pit.side and previous_captured == 0)"
        )
    ));
    let mut st = position(&g, 0, &[1, 0, 0, 0, 0, 1], &[0, 2, 0, 0, 0, 1], [22, 21]);
    let s = sow_pit(&g, &mut st, 6);
    assert_eq!(s["previous"]["captured"], 2);
    assert_eq!(legal_pits(&g, &st), vec![6, 1]);
    let mut st = position(&g, 0, &[1, 0, 0, 0, 0, 1], &[0, 0, 0, 0, 0, 1], [24, 21]);
    sow_pit(&g, &mut st, 6);
    assert_eq!(legal_pits(&g, &st), vec![6]);
    // Rules that never read the move before keep none, and refuse one.
    let g = plain("");
    let mut st = position(&g, 0, &[1, 0, 0, 0, 0, 1], &[0, 2, 0, 0, 0, 0], [22, 22]);
    let s = sow_pit(&g, &mut st, 6);
    assert!(s.get("previous").is_none(), "{s}");
    let mut v = s.clone();
    v["previous"] = json!({"origin": [0, 6], "last": [1, 1], "lifted": 1});
    assert!(g.state_from_json(&v).is_err());
}

#[test]
fn a_layout_may_be_the_starters_rather_than_a_seats() {
    use ludus::game::{Game, Json};
    let g_text = |extra: &str| {
        from_text(&format!(
            "[game]\nname = \"plain\"\nfamily = \"sowing\"\n[board]\npits = 3\n[setup]\n\
             layout = [[2, 2, 2], [1, 1, 1]]\n{extra}"
        ))
    };
    // By seat: South holds the first list whoever starts.
    let g = g_text("");
    assert_eq!(
        g.state_json(&g.new_game(1))["pits"],
        json!([[2, 2, 2], [1, 1, 1]])
    );
    // By starter: the player who starts holds the first list.
    let g = g_text("layout_for = \"starter\"\n");
    assert_eq!(
        g.state_json(&g.new_game(0))["pits"],
        json!([[2, 2, 2], [1, 1, 1]])
    );
    assert_eq!(
        g.state_json(&g.new_game(1))["pits"],
        json!([[1, 1, 1], [2, 2, 2]])
    );
}

#[test]
fn a_capture_may_take_only_what_a_chain_over_the_board_takes() {
    // A last stone on the opponent's side takes every opponent's pit of 2, 4 or 6, the last
    // pit only when it is one of them.
    let g = plain(
        "[capture]\nwhen = \"last.side == opponent\"\ntake = []\n\
         chain = \"pit.side == opponent and pit.count in [2, 4, 6]\"\nchain_way = \"all\"\n",
    );
    let mut st = position(&g, 0, &[0, 0, 0, 0, 0, 2], &[0, 4, 1, 6, 3, 0], [14, 18]);
    let s = sow_pit(&g, &mut st, 6);
    // North's 1 (1) and 2 (5, the last) are not taken; 4 (6) is.
    assert_eq!(s["pits"], json!([[0, 0, 0, 0, 0, 0], [1, 5, 1, 0, 3, 0]]));
    assert_eq!(s["stores"], json!([20, 18]));
}

#[test]
fn a_capture_across_the_gap_may_take_the_pit_facing_it_too() {
    // The next pit empty and the pit beyond it holding stones: that pit is taken with the pit
    // facing it across the board.
    let g = plain(
        "[capture]\nwhen = \"next.count == 0 and beyond.count > 0\"\n\
         take = [\"beyond\", \"opposite-beyond\"]\n",
    );
    // South's pit 2 (1 stone) ends in pit 3; pit 4 is empty; pit 5 (2) is taken with North's
    // pit 2 (3) facing it.
    let mut st = position(&g, 0, &[0, 1, 0, 0, 2, 1], &[1, 3, 1, 1, 1, 1], [18, 18]);
    let s = sow_pit(&g, &mut st, 2);
    assert_eq!(s["pits"], json!([[0, 0, 1, 0, 0, 1], [1, 0, 1, 1, 1, 1]]));
    assert_eq!(s["stores"], json!([23, 18]));
    // The pit beyond empty: no capture, the pit facing it stays.
    let mut st = position(&g, 0, &[0, 1, 0, 0, 0, 1], &[1, 3, 1, 1, 1, 1], [19, 19]);
    let s = sow_pit(&g, &mut st, 2);
    assert_eq!(s["pits"], json!([[0, 0, 1, 0, 0, 1], [1, 3, 1, 1, 1, 1]]));
    assert_eq!(s["stores"], json!([19, 19]));
}

#[test]
fn a_way_round_chosen_at_the_first_move_is_kept_for_the_game() {
    use ludus::game::{Game, Json, Notation};
    let g = plain(
        "[sowing]\ndirection_choice = \"mover.way == 0 and opponent.way == 0\"\n\
         reverse = \"mover.way == 2 or (mover.way == 0 and opponent.way == 1)\"\n",
    );
    let mut st = g.new_game(0);
    let texts = |g: &ludus::sowing::SowingGame, st: &ludus::sowing::SowingState| {
        let mut moves = Vec::new();
        g.legal_moves(st, &mut moves);
        moves.iter().map(|m| g.move_text(st, m)).collect::<Vec<_>>()
    };
    // The first move: every pit either way.
    assert_eq!(texts(&g, &st).len(), 12);
    let cw = g.parse_move(&st, "3cw").unwrap();
    g.play(&mut st, &cw);
    assert_eq!(g.state_json(&st)["ways"], json!([2, 0]));
    // North sows the other way (counterclockwise), written without a direction.
    assert_eq!(texts(&g, &st), ["1", "2", "3", "4", "5", "6"]);
    // South's 3 sown clockwise went to South's 2 and 1, then North's 6 and 5.
    let after = g.state_json(&st);
    assert_eq!(after["pits"][1], json!([4, 4, 4, 4, 5, 5]));
    let mv = g.parse_move(&st, "6").unwrap();
    g.play(&mut st, &mv);
    // North's 6 sown counterclockwise reaches South's pits 1 to 4; North chose nothing, so
    // only South's way is remembered (North's rule reads South's).
    assert_eq!(g.state_json(&st)["ways"], json!([2, 0]));
    // South keeps clockwise: pit 1 sown clockwise reaches North's pit 6.
    let mv = g.parse_move(&st, "1").unwrap();
    let before = g.state_json(&st);
    g.play(&mut st, &mv);
    let s = g.state_json(&st);
    let north6 = |v: &serde_json::Value| v["pits"][1][5].as_u64().unwrap();
    assert_eq!(north6(&s), north6(&before) + 1, "{s}");
    // A STATE keeps the ways; a bad one is refused.
    let back = g.state_from_json(&s).unwrap();
    assert_eq!(g.state_json(&back)["ways"], json!([2, 0]));
    let mut bad = s.clone();
    bad["ways"] = json!([3, 1]);
    assert!(g.state_from_json(&bad).is_err());
    // A first move sown a set way, the way chosen at the second and kept (Namudilakunze).
    let g = plain(
        "[sowing]\ndirection = \"clockwise\"\ndirection_choice = \"mover.way == 0 and ply >= 2\"\n\
         reverse = \"mover.way == 2\"\n",
    );
    let mut st = g.new_game(0);
    for _ in 0..2 {
        assert_eq!(texts(&g, &st), ["1", "2", "3", "4", "5", "6"]);
        let mv = g.parse_move(&st, "1").unwrap();
        g.play(&mut st, &mv);
    }
    assert_eq!(g.state_json(&st)["ways"], json!([0, 0]));
    assert_eq!(
        texts(&g, &st).len(),
        10,
        "the third ply: five pits, each either way"
    );
    let mv = g.parse_move(&st, "4ccw").unwrap();
    g.play(&mut st, &mv);
    assert_eq!(g.state_json(&st)["ways"], json!([2, 0]));
}

/// Wegs: a last stone making four on the opponent's side makes a house that keeps its stones;
/// a last stone in the opponent's weg takes itself and one more.
const WEGS: &str = "[house]\nwhen = \"last.side == opponent and last.count == 4\"\nmost = 6\n\
     keeps = true\n\
     [sowing]\nrelay = \"last\"\n\
     relay_when = \"not (last.side == opponent and last.count == 4)\"\n\
     [capture]\nwhen = \"last.house == opponent\"\ntake = [\"last\"]\ntake_max = 2\n\
     [end]\nscore = \"mover.store + mover.housed > 24 or opponent.store + opponent.housed > 24\"\n\
     leftover = \"owners\"\n";

#[test]
fn a_house_that_keeps_its_stones_holds_them_for_its_owner() {
    use ludus::game::{Json, View};
    let g = plain(WEGS);
    // South's pit 6 (2 stones): North's pit 1 gets one, North's pit 2 a fourth: South's weg,
    // its four stones staying in it. The relay does not lift it.
    let mut st = position(&g, 0, &[3, 0, 1, 0, 0, 2], &[1, 3, 0, 0, 0, 1], [20, 17]);
    let s = sow_pit(&g, &mut st, 6);
    assert_eq!(s["pits"], json!([[3, 0, 1, 0, 0, 0], [2, 4, 0, 0, 0, 1]]));
    assert_eq!(s["stores"], json!([20, 17]));
    assert_eq!(s["houses"], json!([[[1, 2]], []]));
    // The weg is South's, not North's: North cannot sow from it, and North's pits hold 3.
    assert_eq!(legal_pits(&g, &st), vec![1, 6]);
    let words = g.describe();
    assert!(words.contains("stay in it, yours"), "{words}");
    let shown = g.render(&st, 0);
    assert!(shown.contains("4H0"), "{shown}");
    assert!(shown.contains("it keeps its stones for"), "{shown}");
    // A last stone in the opponent's weg takes itself and one more: North sows pit 1 (1 stone)
    // into pit 2, South's weg of 4, and takes 2 of its 5.
    let mut st = g
        .state_from_json(
            &json!({"to_move": 1, "pits": [[3, 0, 1, 0, 0, 0], [1, 4, 0, 0, 0, 1]],
            "stores": [20, 18], "houses": [[[1, 2]], []]}),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    let s = sow_pit(&g, &mut st, 1);
    assert_eq!(s["pits"], json!([[3, 0, 1, 0, 0, 0], [0, 3, 0, 0, 0, 1]]));
    assert_eq!(s["stores"], json!([20, 20]));
    // `mover.housed` counts the stones in a player's wegs, and when the game ends they go to
    // its owner: South's store of 22 and weg of 3 hold more than half of the 48.
    let mut st = g
        .state_from_json(
            &json!({"to_move": 0, "pits": [[0, 0, 1, 0, 0, 0], [1, 3, 0, 0, 0, 0]],
            "stores": [22, 21], "houses": [[[1, 2]], []]}),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    let s = sow_pit(&g, &mut st, 3);
    assert_eq!(s["result"]["scores"], json!([25, 21]), "{s}");
    assert_eq!(s["result"]["winner"], json!(0));
    assert_eq!(s["pits"], json!([[0, 0, 0, 1, 0, 0], [1, 0, 0, 0, 0, 0]]));
}

#[test]
fn a_capture_after_every_lap_lets_the_sowing_go_on() {
    // Tegre's capture: a lap ending in an empty pit of the mover's own takes the facing pit,
    // and (`go_on = "last"`) the single stone is lifted and sown on.
    let rules = "[sowing]\nrelay = \"last\"\n[capture]\nat = \"lap\"\n\
         when = \"last.count == 1 and last.side == mover and opposite.count > 0\"\n\
         take = [\"opposite\"]\ngo_on = \"last\"\n";
    let g = plain(rules);
    // South's pit 1 (1 stone) into the empty pit 2, facing North's pit 5 (3): taken; the stone
    // goes on into pit 3, facing North's empty pit 4: the move ends there.
    let mut st = position(&g, 0, &[1, 0, 0, 0, 0, 0], &[1, 1, 1, 0, 3, 1], [20, 20]);
    let s = sow_pit(&g, &mut st, 1);
    assert_eq!(s["pits"], json!([[0, 0, 1, 0, 0, 0], [1, 1, 1, 0, 0, 1]]));
    assert_eq!(s["stores"], json!([23, 20]));
    // With North's pit 4 holding 2, the second lap captures too, and the stone goes on to
    // pit 4, facing North's empty pit 3.
    let mut st = position(&g, 0, &[1, 0, 0, 0, 0, 0], &[1, 1, 0, 2, 3, 1], [20, 19]);
    let s = sow_pit(&g, &mut st, 1);
    assert_eq!(s["pits"], json!([[0, 0, 0, 1, 0, 0], [1, 1, 0, 0, 0, 1]]));
    assert_eq!(s["stores"], json!([25, 19]));
    // Without `go_on` the relay rule decides: a single stone is not lifted, the move ends
    // after the first capture.
    let g = plain(&rules.replace("go_on = \"last\"\n", ""));
    let mut st = position(&g, 0, &[1, 0, 0, 0, 0, 0], &[1, 1, 0, 2, 3, 1], [20, 19]);
    let s = sow_pit(&g, &mut st, 1);
    assert_eq!(s["pits"], json!([[0, 1, 0, 0, 0, 0], [1, 1, 0, 2, 0, 1]]));
    assert_eq!(s["stores"], json!([23, 19]));
    // `go_on = "next"`: the pit after the last is lifted (South's pit 3, 2 stones: into 4
    // and 5, a lap ending in an occupied pit, no capture, no relay: `relay = "none"`).
    let g = plain(
        &rules
            .replace("go_on = \"last\"", "go_on = \"next\"")
            .replace("relay = \"last\"", "relay = \"none\""),
    );
    let mut st = position(&g, 0, &[1, 0, 2, 0, 1, 0], &[1, 1, 1, 0, 3, 1], [18, 19]);
    let s = sow_pit(&g, &mut st, 1);
    assert_eq!(s["pits"], json!([[0, 1, 0, 1, 2, 0], [1, 1, 1, 0, 0, 1]]));
    assert_eq!(s["stores"], json!([21, 19]));
    assert!(ludus::game::View::describe(&g).contains("the pit after the last is lifted"));
}

#[test]
fn a_refill_may_leave_the_unfilled_pits_in_play() {
    use ludus::game::{Game, Json};
    // `partial = "store-open"`: North holding 10 fills pits 6 and 5, the 2 short of a pit go
    // to the store, and no pit is out of play.
    let g = plain("[match]\nrefill = 4\nfill_from = \"right\"\npartial = \"store-open\"\n");
    let st = g
        .state_from_json(
            &json!({"to_move": null, "pits": [[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]],
            "stores": [38, 10], "match": {"game": 1, "points": [24, 24]}}),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    let next = g.state_json(&g.next_game(&st, 0).expect("a next round"));
    assert_eq!(
        next["pits"],
        json!([[4, 4, 4, 4, 4, 4], [0, 0, 0, 0, 4, 4]])
    );
    assert_eq!(next["stores"], json!([14, 2]));
    assert!(
        next.get("out_of_play")
            .is_none_or(|o| o == &json!([[], []])),
        "{next}"
    );
}

#[test]
fn the_first_stone_of_every_lift_may_go_to_the_store() {
    // `first_drop = "store"`: South's pit 1 (3 stones) puts one in South's store and sows two,
    // into pits 2 and 3; pit 3 held 2, so the relay lifts its 3: one to the store, two sown
    // into pits 4 and 5 (empty before): the move ends there.
    let g = plain("[sowing]\nfirst_drop = \"store\"\nrelay = \"last\"\n");
    let mut st = position(&g, 0, &[3, 0, 2, 0, 0, 0], &[4, 4, 4, 4, 4, 4], [10, 9]);
    let s = sow_pit(&g, &mut st, 1);
    assert_eq!(s["pits"], json!([[0, 1, 0, 1, 1, 0], [4, 4, 4, 4, 4, 4]]));
    assert_eq!(s["stores"], json!([12, 9]));
    assert!(ludus::game::View::describe(&g).contains("The first stone of every lift"));
}

#[test]
fn a_move_may_start_from_any_pit_of_the_board() {
    use ludus::game::{Game, Json, Notation};
    // `start_from = "board"`: South may sow North's pits too, written `o` and the number.
    let g = plain("[sowing]\nstart_from = \"board\"\n");
    let st = position(&g, 0, &[0, 0, 0, 0, 0, 1], &[0, 2, 0, 0, 0, 0], [22, 23]);
    let mut moves = Vec::new();
    g.legal_moves(&st, &mut moves);
    let legal: Vec<String> = moves.iter().map(|m| g.move_text(&st, m)).collect();
    assert_eq!(legal, ["6", "o2"]);
    // North's pit 2 (2 stones) sown counterclockwise by South: North's pits 3 and 4.
    let mut st = st;
    let mv = g.parse_move(&st, "o2").expect("a move across the board");
    g.play(&mut st, &mv);
    let s = g.state_json(&st);
    assert_eq!(s["pits"], json!([[0, 0, 0, 0, 0, 1], [0, 0, 1, 1, 0, 0]]));
    // A file of the usual kind refuses the same text.
    let own = plain("");
    let st = position(&own, 0, &[0, 0, 0, 0, 0, 1], &[0, 2, 0, 0, 0, 0], [22, 23]);
    assert!(own.parse_move(&st, "o2").is_err());
    assert!(ludus::game::View::describe(&g).contains("yours or your opponent's"));
    // A move from across the board must stay on a circuit that includes it.
    let text =
        "[game]\nname = \"x\"\nfamily = \"sowing\"\n[board]\npits = 6\n[setup]\nstones = 4\n\
                [sowing]\ncircuit = \"own\"\nstart_from = \"board\"\n";
    let errors = ludus::registry::compile(text).expect_err("refused");
    assert!(
        errors[0]
            .message
            .contains("`start_from = \"board\"` with `circuit = \"own\"`"),
        "{errors:?}"
    );
    // Every pit of the board is a move number: a board of more than 32 pits cannot say them.
    let text = text
        .replace("pits = 6", "pits = 17")
        .replace("circuit = \"own\"\n", "");
    let errors = ludus::registry::compile(&text).expect_err("refused");
    assert!(
        errors[0]
            .message
            .contains("needs a board of at most 32 pits (34 here)"),
        "{errors:?}"
    );
}

#[test]
fn a_capture_before_the_sowing_takes_across_from_the_movers_singles() {
    // Gelech's capture before each sowing: every pit across from a single of the mover's
    // (`pit.facing`), wherever the move is.
    let g = plain(
        "[capture]\nat = \"start\"\nwhen = \"true\"\ntake = []\nchain_way = \"all\"\n\
         chain = \"pit.side == opponent and pit.count > 0 and pit.facing == 1\"\n",
    );
    // South's pit 2 holds a single, facing North's pit 5 (3 stones): taken before South's
    // pit 1 (2 stones) is sown into pits 2 and 3.
    let mut st = position(&g, 0, &[2, 1, 0, 0, 0, 0], &[1, 0, 0, 0, 3, 0], [21, 20]);
    let s = sow_pit(&g, &mut st, 1);
    assert_eq!(s["pits"], json!([[0, 2, 1, 0, 0, 0], [1, 0, 0, 0, 0, 0]]));
    assert_eq!(s["stores"], json!([24, 20]));
    assert!(ludus::game::View::describe(&g).contains("before the sowing"));
    // `pit.facing` in a start condition: no move from a pit facing a single (pit 2 faces
    // North's pit 5, a single).
    let g = plain("[sowing]\nstart = \"pit.count > 0 and pit.facing != 1\"\n");
    let st = position(&g, 0, &[2, 1, 0, 0, 0, 1], &[0, 0, 0, 0, 1, 3], [20, 20]);
    assert_eq!(legal_pits(&g, &st), vec![1, 6]);
}

#[test]
fn after_a_capture_the_mover_picks_further_pits_to_take() {
    use ludus::game::{Game, Json, Notation};
    use ludus::sowing::SowingMove;
    let rules = |pick: &str| {
        plain(&format!(
            "[capture]\nwhen = \"last.count == 1\"\ntake = [\"opposite\"]\n{pick}\n"
        ))
    };
    let g = rules("pick = 2");
    // South's pit 1 ends in their empty pit 2 and takes North's pit 5 (four stones); South then
    // picks two of North's pits holding stones, one after the other, before North moves.
    let mut st = position(&g, 0, &[1, 0, 4, 4, 3, 2], &[0, 0, 4, 4, 4, 1], [13, 8]);
    let s = sow_pit(&g, &mut st, 1);
    assert_eq!(s["decision"]["question"], "pick");
    assert_eq!(s["decision"]["options"], json!(["o3", "o4", "o6"]));
    assert_eq!(s["decision"]["left"], 2);
    assert_eq!(g.phase(&st).to_move(), Some(0));
    assert_eq!(s["stores"], json!([17, 8]));
    // Only a pit of the question answers it; nothing changes on a refusal.
    for bad in ["take", "o5", "3", "o7"] {
        let err = g.parse_move(&st, bad).unwrap_err().to_string();
        assert!(err.contains("a pit to pick is awaited"), "{bad}: {err}");
    }
    let mut legal = Vec::new();
    g.legal_moves(&st, &mut legal);
    assert_eq!(legal.len(), 3);
    let o6 = g.parse_move(&st, "o6").unwrap();
    assert_eq!(o6, SowingMove::pick(11));
    g.play(&mut st, &o6);
    let s = g.state_json(&st);
    assert_eq!(s["decision"]["options"], json!(["o3", "o4"]));
    assert_eq!(s["decision"]["left"], 1);
    let o3 = g.parse_move(&st, "o3").unwrap();
    g.play(&mut st, &o3);
    let s = g.state_json(&st);
    assert!(s["decision"].is_null());
    assert_eq!(s["to_move"], 1);
    assert_eq!(s["pits"], json!([[0, 1, 4, 4, 3, 2], [0, 0, 0, 4, 0, 0]]));
    assert_eq!(s["stores"], json!([22, 8]));
    assert_eq!(sowing_common::stones(&s), 48);

    // `pick_from` narrows the pits; a capture that takes nothing picks nothing.
    let g = rules("pick = 1\npick_from = \"pit.side == opponent and pit.number >= 4\"");
    let mut st = position(&g, 0, &[1, 0, 4, 4, 3, 2], &[0, 0, 4, 4, 4, 1], [13, 8]);
    let s = sow_pit(&g, &mut st, 1);
    assert_eq!(s["decision"]["options"], json!(["o4", "o6"]));
    let mut st = position(&g, 0, &[1, 0, 4, 4, 3, 2], &[0, 0, 4, 4, 0, 1], [13, 12]);
    let s = sow_pit(&g, &mut st, 1);
    assert!(s["decision"].is_null());
    assert_eq!(s["to_move"], 1);
    assert!(ludus::game::View::describe(&g).contains("the mover picks 1 further pit"));
    // Unless the picks follow every capture whose condition held (`pick_after = "when"`).
    let g = rules(
        "pick = 1\npick_from = \"pit.side == opponent and pit.number >= 4\"\npick_after = \"when\"",
    );
    let mut st = position(&g, 0, &[1, 0, 4, 4, 3, 2], &[0, 0, 4, 4, 0, 1], [13, 12]);
    let s = sow_pit(&g, &mut st, 1);
    assert_eq!(s["decision"]["options"], json!(["o4", "o6"]));
    assert_eq!(s["stores"], json!([13, 12]));
    let o4 = g.parse_move(&st, "o4").unwrap();
    g.play(&mut st, &o4);
    let s = g.state_json(&st);
    assert_eq!(s["pits"], json!([[0, 1, 4, 4, 3, 2], [0, 0, 4, 0, 0, 1]]));
    assert_eq!(s["stores"], json!([17, 12]));
    assert!(ludus::game::View::describe(&g)
        .contains("After a capture (whether or not it took stones), the mover picks 1"));
}

#[test]
fn picks_may_follow_only_the_captures_a_condition_names() {
    use ludus::game::{Game, Json};
    // Picks only after a capture whose facing pit held more than two (`pick_when`, checked
    // before the take).
    let g = plain(
        "[capture]\nwhen = \"last.count == 1\"\ntake = [\"opposite\"]\npick = 1\n\
         pick_when = \"opposite.count > 2\"\n",
    );
    // North's pit 5 holds four: the pick follows.
    let mut st = position(&g, 0, &[1, 0, 4, 4, 3, 2], &[0, 0, 4, 4, 4, 1], [13, 8]);
    let s = sow_pit(&g, &mut st, 1);
    assert_eq!(s["decision"]["question"], "pick");
    // North's pit 5 holds two: taken, and the turn passes with no pick.
    let mut st = position(&g, 0, &[1, 0, 4, 4, 3, 2], &[0, 0, 4, 4, 2, 1], [13, 10]);
    let s = sow_pit(&g, &mut st, 1);
    assert!(s["decision"].is_null(), "{s}");
    assert_eq!(s["to_move"], 1);
    assert_eq!(s["stores"], json!([15, 10]));
    assert!(ludus::game::View::describe(&g).contains("for which `opposite.count > 2` held"));
    // The mover's choice to capture carries the picks the capture earned.
    let g = plain(
        "[capture]\nwhen = \"last.count == 1\"\ntake = [\"opposite\"]\npick = 1\n\
         pick_when = \"opposite.count > 2\"\nchoice = \"mover\"\n",
    );
    let mut st = position(&g, 0, &[1, 0, 4, 4, 3, 2], &[0, 0, 4, 4, 4, 1], [13, 8]);
    sow_pit(&g, &mut st, 1);
    g.play(&mut st, &ludus::sowing::SowingMove::TAKE);
    assert_eq!(g.state_json(&st)["decision"]["question"], "pick");
    let mut st = position(&g, 0, &[1, 0, 4, 4, 3, 2], &[0, 0, 4, 4, 2, 1], [13, 10]);
    sow_pit(&g, &mut st, 1);
    g.play(&mut st, &ludus::sowing::SowingMove::TAKE);
    let s = g.state_json(&st);
    assert!(s["decision"].is_null(), "{s}");
    assert_eq!(s["stores"], json!([15, 10]));
}

#[test]
fn a_capture_may_read_what_the_move_has_captured_so_far() {
    // Captured stones sown on from the pit after the capturing one may capture again where
    // they end; `captured == 0` in the condition makes one capture a turn (Ngolo).
    let rules = |when: &str| {
        plain(&format!(
            "[capture]\nwhen = \"{when}\"\ntake = [\"opposite\"]\nto = \"sow\"\n\
             sow_from = \"last\"\n"
        ))
    };
    let single = "last.side == mover and last.count == 1 and opposite.count > 0";
    // South's pit 1 ends in their empty pit 2, facing North's pit 5 (2 stones): taken and sown
    // on into pits 3 and 4; pit 4 faces North's pit 3 (3 stones): taken and sown on into
    // pits 5, 6 and North's pit 1, where the move ends.
    let g = rules(single);
    let mut st = position(&g, 0, &[1, 0, 0, 0, 0, 0], &[1, 1, 3, 1, 2, 1], [19, 19]);
    let s = sow_pit(&g, &mut st, 1);
    assert_eq!(s["pits"], json!([[0, 1, 1, 1, 1, 1], [2, 1, 0, 1, 0, 1]]));
    // One capture a turn: the second lap's end takes nothing.
    let g = rules(&format!("captured == 0 and {single}"));
    let mut st = position(&g, 0, &[1, 0, 0, 0, 0, 0], &[1, 1, 3, 1, 2, 1], [19, 19]);
    let s = sow_pit(&g, &mut st, 1);
    assert_eq!(s["pits"], json!([[0, 1, 1, 1, 0, 0], [1, 1, 3, 1, 0, 1]]));
}

#[test]
fn a_relay_may_close_the_pit_it_lifts_and_later_sowings_fill_those_across() {
    use ludus::game::{Game, Json};
    use ludus::sowing::SowingMove;
    // Two rows of six, relays from the last pit; a relay from a pit made three closes it
    // (Deka), and a stone reaching a closed pit across the board stays there, out of play.
    let g = plain(
        "[sowing]\nrelay = \"last\"\nclose = \"last.count == 3\"\nclosed = \"fill-across\"\n\
         [end]\nno_move = \"loses\"\nleftover = \"none\"\n",
    );
    // South's pit 5 (two stones) ends in North's pit 1 (two, now three): it closes and its three
    // stones are sown on into North's pits 2, 3 and 4; pit 4 held none, so the move ends.
    let mut st = position(&g, 0, &[4, 4, 4, 4, 2, 0], &[2, 4, 4, 0, 4, 4], [6, 6]);
    let s = sow_pit(&g, &mut st, 5);
    assert_eq!(s["out_of_play"], json!([[], [1]]));
    assert_eq!(s["pits"], json!([[4, 4, 4, 4, 0, 1], [0, 5, 5, 1, 4, 4]]));
    assert_eq!(sowing_common::stones(&s), 48);
    // With North's pit 1 closed, South's pit 6 (three stones) drops its first into it, out of
    // play, then sows North's pits 2 and 3 (empty: the move ends).
    let mut at = json!({"to_move": 0, "pits": [[4, 4, 4, 4, 0, 3], [0, 5, 0, 0, 4, 4]],
                        "stores": [8, 8], "out_of_play": [[], [1]]});
    let mut st = g.state_from_json(&at).unwrap();
    g.play(&mut st, &SowingMove::pit(6));
    let s = g.state_json(&st);
    assert_eq!(s["pits"], json!([[4, 4, 4, 4, 0, 0], [1, 6, 1, 0, 4, 4]]));
    // North's pit 6 (four) relays from South's pit 4 (five): South's 5 and 6, then North's own
    // closed pit 1 is passed over, and North's pits 2, 3 and 4 take the rest.
    g.play(&mut st, &SowingMove::pit(6));
    let s = g.state_json(&st);
    assert_eq!(s["pits"], json!([[5, 5, 5, 0, 1, 1], [1, 7, 2, 1, 4, 0]]));
    assert_eq!(s["out_of_play"], json!([[], [1]]));
    assert_eq!(sowing_common::stones(&s), 48);
    // A lap's last stone falling into a closed pit across the board ends the sowing there: the
    // pit is not lifted, though it held stones.
    let ends = json!({"to_move": 0, "pits": [[4, 4, 4, 4, 0, 1], [2, 5, 0, 0, 4, 4]],
                      "stores": [8, 8], "out_of_play": [[], [1]]});
    let mut end = g.state_from_json(&ends).unwrap();
    g.play(&mut end, &SowingMove::pit(6));
    let s = g.state_json(&end);
    assert_eq!(s["pits"], json!([[4, 4, 4, 4, 0, 0], [3, 5, 0, 0, 4, 4]]));
    assert_eq!(s["to_move"], 1);
    // A closed pit is never sown from, and a position naming one is refused by rules that never
    // close pits.
    let mut legal = Vec::new();
    g.legal_moves(&st, &mut legal);
    assert!(!legal.is_empty());
    at["out_of_play"] = json!([[], [1]]);
    let never = plain("");
    assert!(never.state_from_json(&at).is_err());
}

#[test]
fn pits_start_locked_and_a_move_unlocks_its_pit() {
    use ludus::game::{Game, Json};
    use ludus::sowing::SowingMove;
    // Each player's first moves from different pits (Adjiboto's opening), and no capture of a
    // locked pit (Bechi in Mancala Games).
    let g = plain(
        "[sowing]\nstart = \"pit.count > 0 and (pit.locked or mover.locked == 0)\"\nlocks = true\n\
         [capture]\nwhen = \"last.count in [2, 3] and not last.locked\"\ntake = [\"last\"]\n",
    );
    let st = g.new_game(0);
    let s = g.state_json(&st);
    assert_eq!(s["locked"], json!([[1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6]]));
    let mut st = st;
    g.play(&mut st, &SowingMove::pit(3));
    let s = g.state_json(&st);
    assert_eq!(s["locked"], json!([[1, 2, 4, 5, 6], [1, 2, 3, 4, 5, 6]]));
    // Only South's pit 1 is still locked: it is their only move; once sown, every pit is free.
    let at = json!({"to_move": 0, "pits": [[4, 4, 4, 4, 4, 4], [4, 4, 4, 4, 4, 4]],
                    "stores": [0, 0], "locked": [[1], [1, 2, 3, 4, 5, 6]]});
    let mut st = g.state_from_json(&at).unwrap();
    assert_eq!(legal_pits(&g, &st), vec![1]);
    g.play(&mut st, &SowingMove::pit(1));
    g.play(&mut st, &SowingMove::pit(6));
    assert_eq!(legal_pits(&g, &st), vec![1, 2, 3, 4, 5, 6]);
    // A last stone making North's locked pit 2 three captures nothing; unlocked, it captures.
    let locked = json!({"to_move": 0, "pits": [[4, 4, 4, 4, 4, 2], [1, 2, 4, 4, 4, 4]],
                        "stores": [3, 4], "locked": [[6], [1, 2]]});
    let mut st = g.state_from_json(&locked).unwrap();
    g.play(&mut st, &SowingMove::pit(6));
    assert_eq!(
        g.state_json(&st)["pits"],
        json!([[4, 4, 4, 4, 4, 0], [2, 3, 4, 4, 4, 4]])
    );
    let mut free = locked.clone();
    free["locked"] = json!([[6], [1]]);
    let mut st = g.state_from_json(&free).unwrap();
    g.play(&mut st, &SowingMove::pit(6));
    assert_eq!(
        g.state_json(&st)["pits"],
        json!([[4, 4, 4, 4, 4, 0], [2, 0, 4, 4, 4, 4]])
    );
    assert_eq!(g.state_json(&st)["stores"], json!([6, 4]));
    // Rules without locks refuse a STATE naming locked pits.
    assert!(plain("").state_from_json(&locked).is_err());
}

#[test]
fn houses_may_stand_from_the_start_and_keep_their_stones() {
    use ludus::game::{Game, Json};
    use ludus::sowing::SowingMove;
    // Each player's pit 6 is their house from the start (Rath): it keeps its stones for its
    // owner, is never sown from, and a sowing passes over the opponent's but for its last stone.
    let g = plain(
        "[sowing]\nskip = \"pit.house == opponent and hand > 0\"\n\
         [house]\nstart = [[6]]\nkeeps = true\n\
         [capture]\nwhen = \"last.house == opponent\"\ntake = [\"last\"]\ntake_max = 2\n",
    );
    let st = g.new_game(0);
    let s = g.state_json(&st);
    assert_eq!(s["houses"], json!([[0, 6], [1, 6]]));
    assert_eq!(legal_pits(&g, &st), vec![1, 2, 3, 4, 5]);
    // South's pit 5 (four stones): their own house 6, North's 1 to 3.
    let mut st = st;
    g.play(&mut st, &SowingMove::pit(5));
    let s = g.state_json(&st);
    assert_eq!(s["pits"], json!([[4, 4, 4, 4, 0, 5], [5, 5, 5, 4, 4, 4]]));
    // South's pit 5 (eight stones): their own house 6, North's 1 to 5, North's house passed
    // over (stones still in hand), South's 1 and 2.
    let set = |p0: [u8; 6]| {
        let at = json!({"to_move": 0, "pits": [p0, [4, 4, 4, 4, 4, 4]], "stores": [0, 0],
                        "houses": [[0, 6], [1, 6]]});
        g.state_from_json(&at).unwrap()
    };
    let mut st = set([4, 4, 4, 0, 8, 4]);
    g.play(&mut st, &SowingMove::pit(5));
    let s = g.state_json(&st);
    assert_eq!(s["pits"], json!([[5, 5, 4, 0, 0, 5], [5, 5, 5, 5, 5, 4]]));
    // With seven, the last stone falls into North's house: it takes itself and one more.
    let mut st = set([4, 4, 4, 1, 7, 4]);
    g.play(&mut st, &SowingMove::pit(5));
    let s = g.state_json(&st);
    assert_eq!(s["pits"], json!([[4, 4, 4, 1, 0, 5], [5, 5, 5, 5, 5, 3]]));
    assert_eq!(s["stores"], json!([2, 0]));
    assert_eq!(sowing_common::stones(&s), 48);
}

#[test]
fn captured_stones_may_go_into_a_pit_the_mover_picks() {
    use ludus::game::{Game, Json, Notation};
    // Own rows only; an even last pit is captured and its stones go into one of the opponent's
    // pits, which the mover picks (SameSide); a move that clears the mover's row has won and
    // keeps them.
    let g = plain(
        "[sowing]\ncircuit = \"own\"\n\
         [capture]\nwhen = \"last.count % 2 == 0\"\ntake = [\"last\"]\nto = \"pick\"\n\
         [end]\nwin = \"mover.pits == 0\"\n",
    );
    // South's pit 1 (one stone) makes pit 2 four: captured, held while South picks.
    let mut st = position(&g, 0, &[1, 3, 4, 4, 4, 4], &[4, 0, 4, 4, 4, 4], [4, 4]);
    let s = sow_pit(&g, &mut st, 1);
    assert_eq!(s["decision"]["question"], "place");
    assert_eq!(s["decision"]["in_hand"], 4);
    assert_eq!(
        s["decision"]["options"],
        json!(["o1", "o2", "o3", "o4", "o5", "o6"])
    );
    assert_eq!(s["pits"], json!([[0, 0, 4, 4, 4, 4], [4, 0, 4, 4, 4, 4]]));
    assert_eq!(sowing_common::stones(&s), 48);
    assert!(g.parse_move(&st, "2").is_err());
    let o2 = g.parse_move(&st, "o2").unwrap();
    g.play(&mut st, &o2);
    let s = g.state_json(&st);
    assert_eq!(s["pits"], json!([[0, 0, 4, 4, 4, 4], [4, 4, 4, 4, 4, 4]]));
    assert_eq!(s["stores"], json!([4, 4]));
    assert_eq!(s["to_move"], 1);
    // South's last stone empties their row by a capture: the game is won, the stones kept.
    let mut st = position(&g, 0, &[1, 1, 0, 0, 0, 0], &[4, 4, 4, 4, 4, 4], [10, 12]);
    let s = sow_pit(&g, &mut st, 1);
    assert!(s["decision"].is_null());
    assert_eq!(s["pits"][0], json!([0, 0, 0, 0, 0, 0]));
    assert_eq!(s["stores"], json!([12, 12]));
    assert_eq!(s["result"]["winner"], 0);
}

#[test]
fn a_last_stone_in_the_opponents_store_may_take_it() {
    use ludus::game::{Game, Json};
    use ludus::sowing::SowingMove;
    // Both stores sown; a last stone in the opponent's store captures the stones in it.
    let rules = |take: bool| {
        plain(&format!(
            "[sowing]\nstores = \"both\"\n[capture]\nwhen = \"last.is_store and last.side == opponent\"\n\
             take = [\"last\"]\ntake_store = {take}\n"
        ))
    };
    // South's pit 6 (eight stones): South's store, North's six pits, North's store (last).
    let played = |take: bool| {
        let g = rules(take);
        let mut st = position(&g, 0, &[4, 4, 4, 4, 4, 8], &[0, 0, 0, 0, 0, 0], [8, 12]);
        g.play(&mut st, &SowingMove::pit(6));
        g.state_json(&st)
    };
    let s = played(true);
    assert_eq!(s["pits"], json!([[4, 4, 4, 4, 4, 0], [1, 1, 1, 1, 1, 1]]));
    assert_eq!(s["stores"], json!([22, 0]));
    assert_eq!(sowing_common::stones(&s), 48);
    // Without it, stores are never taken.
    let s = played(false);
    assert_eq!(s["stores"], json!([9, 13]));
    // A last stone in an empty pit across the board hands the mover's own store to the
    // opponent (a passive capture: `take = ["store"]`, `taker = "owner"`).
    let g = plain(
        "[sowing]\nstores = \"own\"\n[capture]\n\
         when = \"last.side == opponent and not last.is_store and last.count == 1\"\n\
         take = [\"store\"]\ntake_store = true\ntaker = \"owner\"\n",
    );
    let mut st = position(&g, 0, &[4, 4, 4, 4, 4, 2], &[0, 4, 4, 4, 4, 4], [3, 3]);
    g.play(&mut st, &SowingMove::pit(6));
    let s = g.state_json(&st);
    assert_eq!(s["pits"], json!([[4, 4, 4, 4, 4, 0], [1, 4, 4, 4, 4, 4]]));
    assert_eq!(s["stores"], json!([0, 7]));
    assert_eq!(sowing_common::stones(&s), 48);
}

#[test]
fn captured_stones_may_stay_on_the_board_in_the_last_pit_or_the_moves_pit() {
    use ludus::game::{Game, Json};
    use ludus::sowing::SowingMove;
    // A last stone in an empty pit of the mover's pulls the stones across into it (`"last"`),
    // or sends them back to the pit the move came from (`"origin"`).
    let rules = |to: &str| {
        plain(&format!(
            "[capture]\nwhen = \"last.side == mover and last.count == 1 and opposite.count > 0\"\n\
             take = [\"opposite\"]\nto = \"{to}\"\n"
        ))
    };
    let played = |to: &str| {
        let g = rules(to);
        let mut st = position(&g, 0, &[1, 0, 4, 4, 4, 4], &[4, 4, 4, 4, 5, 4], [3, 3]);
        g.play(&mut st, &SowingMove::pit(1));
        g.state_json(&st)
    };
    let s = played("last");
    assert_eq!(s["pits"], json!([[0, 6, 4, 4, 4, 4], [4, 4, 4, 4, 0, 4]]));
    assert_eq!(s["stores"], json!([3, 3]));
    assert_eq!(sowing_common::stones(&s), 48);
    let s = played("origin");
    assert_eq!(s["pits"], json!([[5, 1, 4, 4, 4, 4], [4, 4, 4, 4, 0, 4]]));
    assert_eq!(s["stores"], json!([3, 3]));
}

#[test]
fn a_board_of_31_pits_a_side_sows_and_captures_past_pit_16() {
    use ludus::game::{Game, Json};
    // The widest board: one row of 31 pits a side, stores sown by their owner.
    let g = sized(
        31,
        "[sowing]\nstores = \"own\"\n[capture]\n\
         when = \"last.side == mover and last.count == 1 and opposite.count > 0\"\n\
         take = [\"last\", \"opposite\"]\n",
    );
    assert_eq!(
        legal_pits(&g, &g.new_game(0)),
        (1..=31).collect::<Vec<u8>>()
    );
    // South holds 3 stones in pit 29 and 2 in pit 17; North one a pit but 5 in pit 13, which
    // faces South's pit 19 (one row of 31: pit k faces the opponent's 32 - k).
    let mut south = [0u8; 31];
    south[28] = 3;
    south[16] = 2;
    let mut north = [1u8; 31];
    north[12] = 5;
    let start = position(&g, 0, &south, &north, [104, 104]);
    assert_eq!(legal_pits(&g, &start), vec![17, 29]);
    // Pit 29's stones reach pits 30 and 31 and South's store.
    let mut st = start.clone();
    let s = sow_pit(&g, &mut st, 29);
    let mut after = south;
    after[28] = 0;
    after[29] = 1;
    after[30] = 1;
    assert_eq!(s["pits"][0], json!(after));
    assert_eq!(s["stores"], json!([105, 104]));
    // Pit 17's stones end in the empty pit 19: it and North's pit 13 are taken (1 + 5).
    let mut st = start;
    let s = sow_pit(&g, &mut st, 17);
    let mut after = south;
    after[16] = 0;
    after[17] = 1;
    assert_eq!(s["pits"][0], json!(after));
    let mut north_after = north;
    north_after[12] = 0;
    assert_eq!(s["pits"][1], json!(north_after));
    assert_eq!(s["stores"], json!([110, 104]));
    // The position round-trips through a STATE, pits past 16 included.
    let back = g.state_from_json(&s).expect("a STATE of its own");
    assert_eq!(g.state_json(&back), s);
}

#[test]
fn a_set_opening_is_written_out_as_stores_and_a_house_across_the_board() {
    use ludus::game::{Game, Json};
    // The opening the second player makes before the first sows (Gabata's): it left them four
    // captured and a house in the first player's pit 1 (their pit 7, counted on across the
    // board); the layout is the starter's first, so a game player 1 starts is the same
    // position from the other side.
    let g = from_text(
        "[game]\nname = \"opening\"\nfamily = \"sowing\"\n[board]\npits = 6\nstores = true\n\
         [setup]\nlayout = [[4, 5, 3, 5, 3, 5], [3, 5, 3, 5, 3, 4]]\nlayout_for = \"starter\"\n\
         stores = [0, 4]\n[house]\nstart = [[], [7]]\nkeeps = true\n",
    );
    let s = g.state_json(&g.new_game(0));
    assert_eq!(s["pits"], json!([[4, 5, 3, 5, 3, 5], [3, 5, 3, 5, 3, 4]]));
    assert_eq!(s["stores"], json!([0, 4]));
    assert_eq!(s["houses"], json!([null, [0, 1]]));
    let s = g.state_json(&g.new_game(1));
    assert_eq!(s["pits"], json!([[3, 5, 3, 5, 3, 4], [4, 5, 3, 5, 3, 5]]));
    assert_eq!(s["stores"], json!([4, 0]));
    assert_eq!(s["houses"], json!([[1, 1], null]));
    assert_eq!(g.total_stones(), 52);
    // The house keeps its stones for the second player: South's pit 1 is not a move.
    assert_eq!(legal_pits(&g, &g.new_game(0)), vec![2, 3, 4, 5, 6]);
}

#[test]
fn a_turn_may_go_on_after_stones_taken_during_the_sowing() {
    // Fours made during the sowing go to the mover, who then moves again (`taken`, which
    // `captured` does not count).
    let g = plain(
        "[sowing]\ntake = \"pit.count == 4 and hand > 0\"\ntake_to = \"mover\"\n\
         [turn]\nagain = \"taken > 0\"\n",
    );
    // South's pit 1 (2 stones) makes pit 2 four on the way to pit 3: taken, and South again.
    let mut st = position(&g, 0, &[2, 3, 0, 0, 0, 0], &[4; 6], [10, 9]);
    let s = sow_pit(&g, &mut st, 1);
    assert_eq!(s["pits"][0], json!([0, 0, 1, 0, 0, 0]));
    assert_eq!(s["stores"], json!([14, 9]));
    assert_eq!(s["to_move"], 0);
    // Pit 2 made three: nothing taken, the turn passes.
    let mut st = position(&g, 0, &[2, 2, 0, 0, 0, 0], &[4; 6], [11, 9]);
    let s = sow_pit(&g, &mut st, 1);
    assert_eq!(s["stores"], json!([11, 9]));
    assert_eq!(s["to_move"], 1);
    // `captured` leaves them out: the same rule on `captured` never moves again here.
    let g = plain(
        "[sowing]\ntake = \"pit.count == 4 and hand > 0\"\ntake_to = \"mover\"\n\
         [turn]\nagain = \"captured > 0\"\n",
    );
    let mut st = position(&g, 0, &[2, 3, 0, 0, 0, 0], &[4; 6], [10, 9]);
    assert_eq!(sow_pit(&g, &mut st, 1)["to_move"], 1);
}

#[test]
fn a_players_stage_goes_up_after_the_move_its_condition_names() {
    use ludus::game::{Game, Json};
    // At stage 0 a player's own pit 6 is passed over; sowing from pit 5 takes them to stage 1,
    // after which it is sown into (Isolo's rightmost holes).
    let g = plain(
        "[sowing]\nskip = \"mover.stage == 0 and pit.side == mover and pit.number == 6\"\n\
         [turn]\nstages = [\"origin.number == 5\"]\n",
    );
    let mut st = g.new_game(0);
    let s = sow_pit(&g, &mut st, 4);
    assert_eq!(s["pits"], json!([[4, 4, 4, 0, 5, 4], [5, 5, 5, 4, 4, 4]]));
    assert_eq!(s["stages"], json!([0, 0]));
    sow_pit(&g, &mut st, 1);
    let s = sow_pit(&g, &mut st, 5);
    assert_eq!(s["pits"], json!([[5, 4, 4, 0, 0, 4], [1, 7, 7, 6, 6, 4]]));
    assert_eq!(s["stages"], json!([1, 0]));
    // North's stage is theirs: at 0, their own pit 6 is passed over (South's is not).
    let s = sow_pit(&g, &mut st, 5);
    assert_eq!(s["pits"], json!([[6, 5, 5, 1, 1, 5], [1, 7, 7, 6, 0, 4]]));
    sow_pit(&g, &mut st, 4);
    sow_pit(&g, &mut st, 1);
    // South, at stage 1, sows into their pit 6 now: pit 5's two stones reach it and North's 1.
    let s2 = sow_pit(&g, &mut st, 5);
    assert_eq!(s2["pits"], json!([[6, 5, 5, 0, 0, 6], [1, 8, 7, 6, 0, 4]]));
    // The STATE carries the stages; a stage past the list is refused.
    let back = g.state_from_json(&s2).expect("its own STATE");
    assert_eq!(g.state_json(&back), s2);
    let mut bad = s2.clone();
    bad["stages"] = json!([2, 0]);
    let err = g.state_from_json(&bad).unwrap_err().to_string();
    assert!(err.contains("each 0..1"), "{err}");
    assert!(ludus::game::View::describe(&g).contains("goes from stage k to k + 1"));
}

/// Mangala IV's start: 98 stones scattered over 2x7 pits, at least two a pit.
const SCATTERED: &str = r#"
[game]
name = "scattered"
family = "sowing"

[board]
pits = 7
stores = true

[setup]
scatter = 98
scatter_least = 2

[capture]
when = "last.count in [2, 4]"
take = ["last"]
"#;

/// Each deal drawn for `g` at seeds 0..200: both players' pits, player 0's first.
fn deals(g: &ludus::sowing::SowingGame) -> Vec<Vec<u64>> {
    use ludus::game::{Game, Json};
    use rand::SeedableRng;
    (0..200)
        .map(|seed| {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut st = g.new_game(0);
            g.scatter(&mut st, &mut rng);
            let s = g.state_json(&st);
            assert_eq!(s["stores"], json!([0, 0]));
            assert_eq!(s["ply"], json!(0));
            s["pits"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|row| row.as_array().unwrap().iter().map(|c| c.as_u64().unwrap()))
                .collect()
        })
        .collect()
}

#[test]
fn stones_scattered_at_random_keep_their_number_and_the_least_a_pit_holds() {
    let all = deals(&from_text(SCATTERED));
    for pits in &all {
        assert_eq!(pits.len(), 14);
        assert_eq!(pits.iter().sum::<u64>(), 98, "{pits:?}");
        assert!(pits.iter().all(|&c| c >= 2), "{pits:?}");
    }
    let distinct: std::collections::HashSet<_> = all.iter().collect();
    assert!(
        distinct.len() > 190,
        "only {} deals of 200 differ",
        distinct.len()
    );
    // The stones beyond two a pit fall at random: every pit gets more than its two sometimes,
    // and no pit holds them all.
    assert!((0..14).all(|k| all.iter().any(|p| p[k] > 4)));
    assert!(all.iter().all(|p| p.iter().all(|&c| c < 40)));

    // Pits may be left empty: each holds none or at least four.
    let empty = SCATTERED.replace("scatter = 98", "scatter = 72").replace(
        "scatter_least = 2",
        "scatter_least = 4\nscatter_empty = true",
    );
    let all = deals(&from_text(&empty));
    for pits in &all {
        assert_eq!(pits.iter().sum::<u64>(), 72, "{pits:?}");
        assert!(pits.iter().all(|&c| c == 0 || c >= 4), "{pits:?}");
    }
    assert!(all.iter().any(|p| p.contains(&0)));
}

#[test]
fn a_deal_lays_out_only_stones_the_rules_could_scatter() {
    use ludus::game::{Game, Json};
    let g = from_text(SCATTERED);
    let start = g.new_game(1);
    let mut st = start.clone();
    let deal = vec![vec![2, 2, 2, 2, 2, 2, 72], vec![2; 7]];
    g.deal(&mut st, &deal).unwrap();
    let s = g.state_json(&st);
    assert_eq!(s["pits"], json!(deal));
    assert_eq!(s["to_move"], json!(1));
    assert_eq!(legal_pits(&g, &st), vec![1, 2, 3, 4, 5, 6, 7]);

    let refused = |deal: Vec<Vec<u8>>, why: &str| {
        let mut st = start.clone();
        let e = g.deal(&mut st, &deal).unwrap_err();
        assert!(e.contains(why), "{deal:?}: {e}");
        assert_eq!(st, start, "a refused deal changes nothing");
    };
    refused(
        vec![vec![1, 3, 2, 2, 2, 2, 72], vec![2; 7]],
        "South's pit 1 is dealt 1, fewer than the 2 a pit holds",
    );
    refused(
        vec![vec![2, 2, 2, 2, 2, 2, 71], vec![2; 7]],
        "97 stones dealt, the rules scatter 98",
    );
    refused(vec![vec![2; 14]], "two lists of 7 pits");
    refused(vec![vec![2; 6], vec![2; 8]], "two lists of 7 pits");

    // Only a start is dealt: not a game under way, nor a game whose stones are laid out.
    let mut moved = st.clone();
    sow_pit(&g, &mut moved, 7);
    assert!(g.deal(&mut moved, &deal).unwrap_err().contains("as a game"));
    let fixed = from_text(EITHER_SIDE);
    let mut st = fixed.new_game(0);
    let e = fixed.deal(&mut st, &vec![vec![4; 6]; 2]).unwrap_err();
    assert!(e.contains("scatter no stones"), "{e}");
}

/// Two rows of three; each player places stones from hand before the first move.
const PLACED: &str = r#"
[game]
name = "placed"
family = "sowing"

[board]
pits = 3
stores = true

[setup]
stones = 0
to_place = [3, 2]

[capture]
when = "last.side == opponent and last.count == 2"
take = ["last"]
"#;

/// Plays placement `text` for the player to move and returns the position's JSON.
fn place(
    g: &ludus::sowing::SowingGame,
    st: &mut ludus::sowing::SowingState,
    text: &str,
) -> serde_json::Value {
    use ludus::game::{Game, Json, Notation};
    let mv = g
        .parse_move(st, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(g.move_text(st, &mv), text);
    g.play(st, &mv);
    g.state_json(st)
}

#[test]
fn stones_from_hand_are_placed_in_turns_before_the_first_move() {
    use ludus::game::{Game, Json};
    let g = from_text(PLACED);
    let mut st = g.new_game(1);
    let s = g.state_json(&st);
    // North starts: North places first, then South, in turns.
    assert_eq!(s["to_place"], json!([3, 2]));
    assert_eq!(s["to_move"], json!(1));
    assert_eq!(g.pieces(&st), 5);
    let s = place(&g, &mut st, "2");
    assert_eq!(s["pits"], json!([[0, 0, 0], [0, 1, 0]]));
    assert_eq!(s["to_move"], json!(0));
    place(&g, &mut st, "1");
    place(&g, &mut st, "2");
    // A position in the middle of the arrangement is set up again as it was.
    let again = g.state_from_json(&g.state_json(&st)).unwrap();
    assert_eq!(g.state_json(&again), g.state_json(&st));
    let mut wrong = g.state_json(&st);
    wrong["to_place"] = json!([1, 0]);
    wrong["to_move"] = json!(1);
    wrong["pits"] = json!([[1, 0, 0], [1, 2, 0]]);
    let e = g.state_from_json(&wrong).unwrap_err().to_string();
    assert!(
        e.contains("player 1, to move, holds no stones to place"),
        "{e}"
    );
    // North's hand is empty: South places on, alone.
    let s = place(&g, &mut st, "1");
    assert_eq!(s["to_move"], json!(0));
    assert_eq!(s["to_place"], json!([1, 0]));
    assert_eq!(s["ply"], json!(0));
    let s = place(&g, &mut st, "3");
    // Every stone placed: the starter, North, sows first; the placements were no plies.
    assert_eq!(s["pits"], json!([[2, 0, 1], [0, 2, 0]]));
    assert_eq!(s["to_place"], json!([0, 0]));
    assert_eq!(s["to_move"], json!(1));
    assert_eq!(s["ply"], json!(0));
    assert_eq!(legal_pits(&g, &st), vec![2]);
    // North's pit 2 sows into its pit 3 and South's pit 1, making it 3: no capture.
    let s = sow_pit(&g, &mut st, 2);
    assert_eq!(s["pits"], json!([[3, 0, 1], [0, 0, 1]]));
    assert_eq!(g.pieces(&st), 5);
}

#[test]
fn place_names_the_pits_a_stone_from_hand_may_go_into() {
    use ludus::game::{Game, Json, Notation};
    // A stone may go into a pit holding fewer than the pit before it (pit 1 always), on either
    // side: the arrangement stays falling from pit 1, and a placement across is `o` and its
    // number. Only North holds stones: North places them all, then South, the starter, sows.
    let text = PLACED.replace(
        "to_place = [3, 2]",
        "to_place = [0, 4]\nplace = \"pit.side == mover and (pit.number == 1 or pit.count < own(pit.number - 1)) or pit.side == opponent and pit.number == 3 and mover.to_place == 1\"",
    );
    let g = from_text(&text);
    let mut st = g.new_game(0);
    assert_eq!(g.state_json(&st)["to_move"], json!(1), "only North places");
    let options = |st: &ludus::sowing::SowingState| {
        let mut moves = Vec::new();
        g.legal_moves(st, &mut moves);
        moves.iter().map(|m| g.move_text(st, m)).collect::<Vec<_>>()
    };
    assert_eq!(options(&st), ["1"]);
    place(&g, &mut st, "1");
    assert_eq!(options(&st), ["1", "2"]);
    place(&g, &mut st, "2");
    assert_eq!(options(&st), ["1", "3"]);
    place(&g, &mut st, "1");
    // The last stone may also go across the board, into South's pit 3.
    assert_eq!(options(&st), ["o3", "1", "2", "3"]);
    let e = g.parse_move(&st, "o2").unwrap_err().to_string();
    assert!(e.contains("(1 left): into o3, 1, 2, 3"), "{e}");
    let s = place(&g, &mut st, "o3");
    assert_eq!(s["pits"], json!([[0, 0, 1], [2, 1, 0]]));
    // South starts the sowing.
    assert_eq!(s["to_move"], json!(0));
    assert_eq!(legal_pits(&g, &st), vec![3]);
}

#[test]
fn a_chain_may_take_each_pit_with_the_pit_facing_it() {
    // Li'b al-'Aqil's capture: a last stone making an even count takes that pit and the pit
    // facing it, then each even pit before it with the pit facing it, while they are even.
    let text = EITHER_SIDE
        .replace(
            "when = \"last.count in [2, 3]\"",
            "when = \"last.count in [2, 4, 6]\"",
        )
        .replace("take = [\"last\"]", "take = [\"last\", \"opposite\"]")
        .replace(
            "chain = \"pit.count in [2, 3]\"",
            "chain = \"pit.count in [2, 4, 6]\"\nchain_take = [\"pit\", \"opposite\"]",
        );
    let g = from_text(&text);
    // South's pit 6 (3 stones) makes North's pits 1, 2 and 3 hold 2, 4 and 2: North's pit 3 is
    // taken with South's pit 4 facing it, then North's pit 2 with South's pit 5, North's pit 1
    // with South's pit 6 (emptied by the move), and the walk ends there.
    let mut st = position(&g, 0, &[1, 1, 1, 1, 1, 3], &[1, 3, 1, 1, 1, 1], [12, 20]);
    let s = sow_pit(&g, &mut st, 6);
    assert_eq!(s["pits"], json!([[1, 1, 1, 0, 0, 0], [0, 0, 0, 1, 1, 1]]));
    assert_eq!(s["stores"], json!([22, 20]));
    // Without `chain_take` the pits facing the chain's stay.
    let g = from_text(&text.replace("chain_take = [\"pit\", \"opposite\"]\n", ""));
    let mut st = position(&g, 0, &[1, 1, 1, 1, 1, 3], &[1, 3, 1, 1, 1, 1], [12, 20]);
    let s = sow_pit(&g, &mut st, 6);
    assert_eq!(s["pits"], json!([[1, 1, 1, 0, 1, 0], [0, 0, 0, 1, 1, 1]]));
    assert_eq!(s["stores"], json!([21, 20]));
}

#[test]
fn the_first_to_sow_may_turn_the_board_round_first() {
    use ludus::game::{Game, Json, Notation};
    // North holds all four stones and places them; South, the starter, then decides.
    let text = PLACED.replace(
        "to_place = [3, 2]",
        "to_place = [0, 4]\nlayout_for = \"starter\"\nswap = \"then-move\"",
    );
    let arranged = |text: &str| {
        let g = from_text(text);
        let mut st = g.new_game(0);
        for pit in ["1", "1", "2", "3"] {
            place(&g, &mut st, pit);
        }
        (g, st)
    };
    let (g, st) = arranged(&text);
    let s = g.state_json(&st);
    assert_eq!(s["swap"], json!(true));
    assert_eq!(s["to_move"], json!(0));
    let mut moves = Vec::new();
    g.legal_moves(&st, &mut moves);
    let texts: Vec<String> = moves.iter().map(|m| g.move_text(&st, m)).collect();
    assert_eq!(texts, ["swap", "keep"]);
    assert!(g.parse_move(&st, "take").is_err());
    // Swapping: South takes North's side and moves first (`then-move`).
    let mut swapped = st.clone();
    let s = place(&g, &mut swapped, "swap");
    assert_eq!(s["pits"], json!([[2, 1, 1], [0, 0, 0]]));
    assert_eq!(s["to_move"], json!(0));
    assert_eq!(s.get("swap"), None);
    assert_eq!(legal_pits(&g, &swapped), vec![1, 2, 3]);
    // Keeping: the board stays; South, with no stones, cannot move and the game ends.
    let mut kept = st.clone();
    let s = place(&g, &mut kept, "keep");
    assert_eq!(s["phase"], json!("over"));
    // `instead-of-moving`: the swap is South's turn, North moves first on the old South side.
    let (g, mut st) = arranged(&text.replace("then-move", "instead-of-moving"));
    let s = place(&g, &mut st, "swap");
    assert_eq!(
        s["phase"],
        json!("over"),
        "North has no stones left to move"
    );
    assert_eq!(
        s["stores"],
        json!([4, 0]),
        "South's stones, its own after the swap"
    );
    // A position awaiting the choice is set up again as it was.
    let (g, st) = arranged(&text);
    let again = g.state_from_json(&g.state_json(&st)).unwrap();
    assert_eq!(g.state_json(&again), g.state_json(&st));
    let fixed = from_text(&text.replace("\nswap = \"then-move\"", ""));
    let v = g.state_json(&st);
    let e = fixed.state_from_json(&v).unwrap_err().to_string();
    assert!(e.contains("these rules offer no swap"), "{e}");
}

/// Two rows of three; a player whose opponent has no stones gives them one.
const GIVING: &str = r#"
[game]
name = "giving"
family = "sowing"

[board]
pits = 3
stores = true

[setup]
layout = [[2, 0, 1], [0, 0, 1]]

[turn]
give = "opponent.pits == 0"
give_from = "pit.count >= 2"
"#;

#[test]
fn a_player_whose_opponent_has_no_stones_gives_them_one() {
    use ludus::game::{Game, Json};
    let g = from_text(GIVING);
    let mut st = g.new_game(1);
    // North sows its last stone into South's pit 1: North has none left.
    sow_pit(&g, &mut st, 3);
    // South must give: only from a pit of two or more, into North's pit 1; that is its turn.
    let s = place(&g, &mut st, "1");
    assert_eq!(s["pits"], json!([[2, 0, 1], [1, 0, 0]]));
    assert_eq!(s["to_move"], json!(1));
    assert_eq!(s["ply"], json!(2));
    assert_eq!(legal_pits(&g, &st), vec![1]);
    // `give_then = "move"`: the giver then makes their move.
    let g = from_text(&format!("{GIVING}give_then = \"move\"\n"));
    let mut st = g.new_game(1);
    sow_pit(&g, &mut st, 3);
    let s = place(&g, &mut st, "1");
    assert_eq!(s["to_move"], json!(0));
    assert_eq!(s["ply"], json!(1), "the gift is no ply of its own");
    assert_eq!(legal_pits(&g, &st), vec![1, 3]);
    // One gift a turn: a condition that still holds after it does not make the giver give again.
    let g = from_text(
        &format!("{GIVING}give_then = \"move\"\n")
            .replace("\"opponent.pits == 0\"", "\"mover.pits > 0\""),
    );
    let mut st = g.new_game(0);
    assert_eq!(g.state_json(&st)["give"], json!(true));
    let s = place(&g, &mut st, "1");
    assert_eq!(s["pits"], json!([[1, 0, 1], [1, 0, 1]]));
    assert_eq!(s.get("give"), None);
    assert_eq!(legal_pits(&g, &st), vec![1, 3]);
    // Nothing to give (no pit of two): the giver has no move, and the game ends.
    let g = from_text(&GIVING.replace("[[2, 0, 1], [0, 0, 1]]", "[[0, 1, 1], [0, 0, 1]]"));
    let mut st = g.new_game(1);
    let s = sow_pit(&g, &mut st, 3);
    assert_eq!(s["phase"], json!("over"));
    assert_eq!(g.phase(&st), ludus::game::Phase::Over);
}

#[test]
fn two_pits_may_become_houses_at_once() {
    // Enkeshui's bulls: a last pit of four is a house; a last pit and the pit sown before it
    // holding three and four (either way) are both houses.
    let text = r#"
[game]
name = "bulls"
family = "sowing"

[board]
pits = 4
stores = true

[setup]
layout = [[1, 2, 2, 3], [0, 2, 1, 3]]

[house]
when = "last.count == 4 or prior.count * last.count == 12"
also = "prior"
also_when = "prior.count * last.count == 12"
most = 4
"#;
    let g = from_text(text);
    // South's pit 2 (2 stones) makes its pit 3 hold 3 and pit 4 hold 4: both South's houses.
    let mut st = position(&g, 0, &[1, 2, 2, 3], &[0, 2, 1, 3], [0, 0]);
    let s = sow_pit(&g, &mut st, 2);
    assert_eq!(s["houses"], json!([[[0, 3], [0, 4]], []]));
    assert_eq!(
        s["stores"],
        json!([7, 0]),
        "the houses' stones go to South's store"
    );
    // South's pit 3 (1 stone) makes pit 4 hold 4, the pit before it emptied: one house.
    let mut st = position(&g, 0, &[1, 2, 1, 3], &[0, 2, 2, 3], [0, 0]);
    let s = sow_pit(&g, &mut st, 3);
    assert_eq!(s["houses"], json!([[[0, 4]], []]));
    // Without `also`, the pair makes the last pit alone a house.
    let g = from_text(
        &text
            .replace("also = \"prior\"\n", "")
            .replace("also_when = \"prior.count * last.count == 12\"\n", ""),
    );
    let mut st = position(&g, 0, &[1, 2, 2, 3], &[0, 2, 1, 3], [0, 0]);
    let s = sow_pit(&g, &mut st, 2);
    assert_eq!(s["houses"], json!([[[0, 4]], []]));
}

/// The legal moves as their texts.
fn move_texts(g: &ludus::sowing::SowingGame, st: &ludus::sowing::SowingState) -> Vec<String> {
    use ludus::game::{Game, Notation};
    let mut moves = Vec::new();
    g.legal_moves(st, &mut moves);
    moves.iter().map(|m| g.move_text(st, m)).collect()
}

/// Two rows of four with stores; a store may be sown; a last stone making a pit of the
/// opponent's two or three captures it.
const STORE_SOWN: &str = r#"
[game]
name = "store-sown"
family = "sowing"

[board]
pits = 4
stores = true

[setup]
stones = 1

[sowing]
store_move = "true"

[capture]
when = "last.side == opponent and last.count in [2, 3]"
take = ["last"]
"#;

#[test]
fn a_store_sown_starts_in_the_movers_first_pit_and_goes_round_its_circuit() {
    let g = from_text(STORE_SOWN);
    // South's store of 6: pits 1 to 4, then North's pits 1 and 2; North's pit 2 (1 → 2) is
    // captured, so 2 stones come back to the store sown.
    let mut st = position(&g, 0, &[0, 1, 0, 0], &[0, 1, 0, 0], [6, 0]);
    assert_eq!(move_texts(&g, &st), ["2", "s"]);
    let s = place(&g, &mut st, "s");
    assert_eq!(s["pits"], json!([[1, 2, 1, 1], [1, 0, 0, 0]]));
    assert_eq!(s["stores"], json!([2, 0]));
    // Round South's own pits only: the same store of 6 laps back to pits 1 and 2.
    let g = from_text(&STORE_SOWN.replace(
        "store_move = \"true\"",
        "store_move = \"true\"\nstore_circuit = \"own\"",
    ));
    let mut st = position(&g, 0, &[0, 1, 0, 0], &[0, 1, 0, 0], [6, 0]);
    let s = place(&g, &mut st, "s");
    assert_eq!(s["pits"], json!([[2, 3, 1, 1], [0, 1, 0, 0]]));
    assert_eq!(s["stores"], json!([0, 0]));
    // Clockwise, the store's first stone falls into the mover's last pit.
    let g = from_text(&STORE_SOWN.replace(
        "store_move = \"true\"",
        "store_move = \"true\"\ndirection = \"clockwise\"",
    ));
    let mut st = position(&g, 1, &[0, 0, 0, 0], &[0, 0, 0, 0], [5, 3]);
    let s = place(&g, &mut st, "s");
    assert_eq!(s["pits"], json!([[0, 0, 0, 0], [0, 1, 1, 1]]));
    // A store sown where the moves sow both stores passes through them; "pits" passes over.
    let both = STORE_SOWN.replace(
        "store_move = \"true\"",
        "store_move = \"true\"\nstores = \"both\"",
    );
    let g = from_text(&both);
    let mut st = position(&g, 0, &[0, 0, 0, 0], &[1, 1, 1, 0], [5, 0]);
    let s = place(&g, &mut st, "s");
    assert_eq!(s["pits"], json!([[1, 1, 1, 1], [1, 1, 1, 0]]));
    assert_eq!(
        s["stores"],
        json!([1, 0]),
        "the fifth stone falls into South's own store"
    );
    let g = from_text(&both.replace(
        "store_move = \"true\"",
        "store_move = \"true\"\nstore_circuit = \"pits\"",
    ));
    let mut st = position(&g, 0, &[0, 0, 0, 0], &[1, 1, 1, 0], [5, 0]);
    let s = place(&g, &mut st, "s");
    // The fifth stone passes over South's store into North's pit 1 (1 → 2): captured.
    assert_eq!(s["pits"], json!([[1, 1, 1, 1], [0, 1, 1, 0]]));
    assert_eq!(s["stores"], json!([2, 0]));
}

#[test]
fn a_store_is_sown_only_when_its_condition_holds_and_it_holds_stones() {
    let g = from_text(&STORE_SOWN.replace("\"true\"", "\"pit.count >= 3\""));
    let st = position(&g, 0, &[1, 0, 0, 0], &[1, 0, 0, 0], [2, 4]);
    assert_eq!(move_texts(&g, &st), ["1"]);
    let st = position(&g, 0, &[1, 0, 0, 0], &[1, 0, 0, 0], [3, 3]);
    assert_eq!(move_texts(&g, &st), ["1", "s"]);
    // The store alone is a move: a player whose pits are empty sows it and the game goes on.
    let mut st = position(&g, 0, &[0, 0, 0, 0], &[1, 0, 0, 0], [3, 4]);
    assert_eq!(move_texts(&g, &st), ["s"]);
    let s = place(&g, &mut st, "s");
    assert_eq!(s["pits"], json!([[1, 1, 1, 0], [1, 0, 0, 0]]));
    assert_eq!(s["phase"], json!("move"));
    // Once a game: the first store sown moves the mover to stage 1.
    let once = STORE_SOWN.replace("\"true\"", "\"mover.stage == 0\"")
        + "\n[turn]\nstages = [\"origin.is_store\"]\n";
    let g = from_text(&once);
    let mut st = position(&g, 0, &[0, 1, 0, 0], &[1, 0, 0, 0], [2, 4]);
    assert_eq!(place(&g, &mut st, "s")["stages"], json!([1, 0]));
    use ludus::game::Json;
    let later = json!({"to_move": 0, "pits": [[1, 2, 0, 0], [1, 0, 0, 0]], "stores": [2, 2], "stages": [1, 0]});
    let st = g.state_from_json(&later).expect("a position");
    assert_eq!(
        move_texts(&g, &st),
        ["1", "2"],
        "South's store is sown once a game"
    );
}

#[test]
fn a_mover_may_lift_as_many_stones_as_they_choose() {
    let chosen = STORE_SOWN.replace(
        "store_move = \"true\"",
        "store_move = \"true\"\nlift = \"chosen\"",
    );
    let g = from_text(&chosen);
    let mut st = position(&g, 0, &[3, 0, 0, 0], &[0, 0, 0, 1], [2, 2]);
    assert_eq!(move_texts(&g, &st), ["1:1", "1:2", "1", "s:1", "s"]);
    // Two of pit 1's three: one stays, pits 2 and 3 get one each.
    let s = place(&g, &mut st, "1:2");
    assert_eq!(s["pits"], json!([[1, 1, 1, 0], [0, 0, 0, 1]]));
    // The pit alone lifts all its stones, the same move as its number in full.
    use ludus::game::Notation;
    let st = position(&g, 0, &[3, 0, 0, 0], &[0, 0, 0, 1], [2, 2]);
    assert_eq!(g.parse_move(&st, "1"), g.parse_move(&st, "1:3"));
    assert_eq!(g.parse_move(&st, "s"), g.parse_move(&st, "s:2"));
    let refused = g
        .parse_move(&st, "1:4")
        .expect_err("more than the pit holds");
    assert!(refused.to_string().contains("holds 3 stones"), "{refused}");
    // `lift_when` narrows the choice: at least one stone stays in a pit; the store whole.
    let g = from_text(&chosen.replace(
        "lift = \"chosen\"",
        "lift = \"chosen\"\nlift_when = \"lift < pit.count or pit.is_store\"",
    ));
    let st = position(&g, 0, &[3, 1, 0, 0], &[0, 0, 0, 1], [2, 1]);
    assert_eq!(move_texts(&g, &st), ["1:1", "1:2", "s:1", "s"]);
    let refused = g.parse_move(&st, "2").expect_err("pit 2 would be emptied");
    assert!(refused.to_string().contains("may not"), "{refused}");
    // The protocol's move objects say what is lifted.
    use ludus::game::{Game, Json};
    let mut moves = Vec::new();
    g.legal_moves(&st, &mut moves);
    assert_eq!(
        g.move_json(&st, &moves[1]),
        json!({"text": "1:2", "pit": 1, "lift": 2})
    );
    assert_eq!(
        g.move_json(&st, &moves[2]),
        json!({"text": "s:1", "store": true, "lift": 1})
    );
}

#[test]
fn a_store_sown_may_take_as_it_goes() {
    // I Pere's thirteen: sown from the store, every pit of the opponent's made two or three
    // is taken at once; an ordinary move takes nothing on the way.
    let text = STORE_SOWN.replace(
        "store_move = \"true\"",
        "store_move = \"true\"\ntake = \"origin.is_store and pit.side == opponent and pit.count in [2, 3]\"\ntake_to = \"mover\"",
    );
    let g = from_text(&text.replace(
        "when = \"last.side == opponent and last.count in [2, 3]\"",
        "when = \"false\"",
    ));
    let mut st = position(&g, 0, &[0, 0, 0, 0], &[1, 1, 0, 1], [5, 0]);
    let s = place(&g, &mut st, "s");
    assert_eq!(s["pits"], json!([[1, 1, 1, 1], [0, 1, 0, 1]]));
    assert_eq!(s["stores"], json!([2, 0]));
    let mut st = position(&g, 0, &[0, 0, 0, 5], &[1, 1, 0, 1], [0, 0]);
    let s = place(&g, &mut st, "4");
    assert_eq!(s["pits"], json!([[1, 0, 0, 0], [2, 2, 1, 2]]));
    assert_eq!(s["stores"], json!([0, 0]));
}

#[test]
fn each_number_lifted_and_the_store_are_judged_as_moves_by_feeding_and_grand_slams() {
    // North has no stones: only the moves that give them some are legal, each number lifted
    // and each of the store's judged on its own.
    let text = r#"
[game]
name = "feed-lifts"
family = "sowing"

[board]
pits = 4
stores = true

[setup]
layout = [[2, 0, 3, 1], [0, 0, 0, 0]]
stores = [6, 3]

[sowing]
store_move = "true"
lift = "chosen"
must_feed = true
"#;
    use ludus::game::Game;
    let g = from_text(text);
    let st = g.new_game(0);
    assert_eq!(move_texts(&g, &st), ["3:2", "3", "4", "s:5", "s"]);
    // A grand slam barred: lifting one stone of pit 4 would take North's only stones.
    let slam = text
        .replace("[[2, 0, 3, 1], [0, 0, 0, 0]]", "[[0, 0, 0, 2], [1, 0, 0, 0]]")
        .replace("stores = [6, 3]", "stores = [0, 0]")
        .replace("must_feed = true", "")
        + "\n[capture]\nwhen = \"last.side == opponent and last.count == 2\"\ntake = [\"last\"]\ngrand_slam = \"never\"\n";
    let g = from_text(&slam);
    let st = g.new_game(0);
    assert_eq!(move_texts(&g, &st), ["4"]);
}

const THREE_ROWS: &str = r#"
[game]
name = "three-rows"
family = "sowing"

[board]
pits = 9
middle = 3

[setup]
stones = 3
"#;

#[test]
fn a_board_with_a_middle_row_sows_along_ones_row_then_back_along_ones_half_of_it() {
    let g = from_text(THREE_ROWS);
    let mut st = position(&g, 0, &[3, 3, 3, 3, 3, 3, 3, 3, 3], &[3; 9], [0, 0]);
    // South's pit 6, the right end of their row: on into their half of the middle row.
    let s = sow_pit(&g, &mut st, 6);
    assert_eq!(s["pits"][0], json!([3, 3, 3, 3, 3, 0, 4, 4, 4]));
    // North's pit 9, the inner end of their half of the middle row: on into South's row.
    let mut st = position(&g, 1, &[3; 9], &[3, 3, 3, 3, 3, 3, 3, 3, 3], [0, 0]);
    let s = sow_pit(&g, &mut st, 9);
    assert_eq!(
        s["pits"],
        json!([[4, 4, 4, 3, 3, 3, 3, 3, 3], [3, 3, 3, 3, 3, 3, 3, 3, 0]])
    );
    // The board as both players see it: the middle row shared, each half on its owner's right.
    use ludus::game::View;
    let board = g.board(&st, 0);
    let lines: Vec<&str> = board.lines().map(str::trim_end).collect();
    assert_eq!(
        lines[1].split_whitespace().collect::<Vec<_>>(),
        ["6", "5", "4", "3", "2", "1", "(pit)"]
    );
    assert_eq!(
        lines[5].split_whitespace().collect::<Vec<_>>(),
        ["7", "8", "9", "9", "8", "7", "(pit)"]
    );
    assert_eq!(
        lines[8].split_whitespace().collect::<Vec<_>>(),
        ["1", "2", "3", "4", "5", "6", "(pit)"]
    );
    // No pit faces another: `opposite` does not exist.
    let g = from_text(&format!(
        "{THREE_ROWS}\n[capture]\nwhen = \"opposite.exists\"\ntake = [\"last\"]\n"
    ));
    let mut st = position(&g, 0, &[0, 0, 0, 0, 0, 1, 3, 3, 3], &[3; 9], [0, 17]);
    let s = sow_pit(&g, &mut st, 6);
    assert_eq!(s["stores"], json!([0, 17]));
}

#[test]
fn the_mover_may_stop_a_relay_where_the_rules_let_them() {
    // A relay from the last pit; a lap ending in the mover's pit 4 may stop there.
    let text = r#"
[game]
name = "stop-relay"
family = "sowing"

[board]
pits = 4

[setup]
stones = 2

[sowing]
relay = "last"
relay_choice = "last.side == mover and last.number == 4"
"#;
    let g = from_text(text);
    // South's pit 2 (2 stones) ends in pit 4 (2 → 3): the choice.
    let mut st = position(&g, 0, &[2, 2, 2, 2], &[2, 2, 2, 2], [0, 0]);
    let s = sow_pit(&g, &mut st, 2);
    assert_eq!(s["decision"]["question"], json!("relay"));
    assert_eq!(s["decision"]["pits"], json!([[0, 4]]));
    assert_eq!(move_texts(&g, &st), ["take", "leave"]);
    let stopped = place(&g, &mut st.clone(), "leave");
    assert_eq!(stopped["pits"], json!([[2, 0, 3, 3], [2, 2, 2, 2]]));
    assert_eq!(stopped["to_move"], json!(1));
    // Taken: pit 4's three stones go on into North's pits 1 to 3, and the relay goes on from
    // North's pit 3 (2 → 3): its three into North's pit 4 and South's pits 1 and 2, whose
    // last (0 → 1) was empty.
    let on = place(&g, &mut st, "take");
    assert_eq!(on["pits"], json!([[3, 1, 3, 0], [3, 3, 0, 3]]));
}

#[test]
fn a_relay_may_lift_the_store_it_reaches_end_there_or_pass_over_it() {
    let text = r#"
[game]
name = "store-relay"
family = "sowing"

[board]
pits = 4
stores = true

[setup]
stones = 1

[sowing]
stores = "own"
relay = "next"
relay_stores = true
"#;
    let g = from_text(text);
    // South's pit 3 ends in pit 4; the next slot is South's store (3): lifted, its stones
    // sown on into North's pits 1 to 3; North's pit 4 is empty and the move ends.
    let mut st = position(&g, 0, &[0, 0, 1, 0], &[0, 0, 0, 0], [3, 4]);
    let s = sow_pit(&g, &mut st, 3);
    assert_eq!(s["pits"], json!([[0, 0, 0, 1], [1, 1, 1, 0]]));
    assert_eq!(s["stores"], json!([0, 4]));
    // Without it, the move ends at the store.
    let g = from_text(&text.replace("relay_stores = true", ""));
    let mut st = position(&g, 0, &[0, 0, 1, 0], &[0, 0, 0, 1], [3, 3]);
    let s = sow_pit(&g, &mut st, 3);
    assert_eq!(s["pits"], json!([[0, 0, 0, 1], [0, 0, 0, 1]]));
    assert_eq!(s["stores"], json!([3, 3]));
    // Passing over it: the pit after the store, North's pit 1 (two stones), is lifted and sown
    // into North's 2 and 3; North's 4 is empty after it and the move ends.
    let g = from_text(&text.replace("relay_stores = true", "relay_stores = \"pass\""));
    let mut st = position(&g, 0, &[0, 0, 1, 0], &[2, 0, 0, 0], [3, 2]);
    let s = sow_pit(&g, &mut st, 3);
    assert_eq!(s["pits"], json!([[0, 0, 0, 1], [0, 1, 1, 0]]));
    assert_eq!(s["stores"], json!([3, 2]));
    // And `next` and `beyond`, for a capture, pass over it too: a move ending before the
    // store, North's pit 1 empty, takes North's pit 2; with the store as `next` (three stones)
    // it takes nothing.
    let capture = "\n[capture]\nwhen = \"next.count == 0\"\ntake = [\"beyond\"]\n";
    let g = from_text(&(text.replace("relay_stores = true", "relay_stores = \"pass\"") + capture));
    let mut st = position(&g, 0, &[0, 0, 1, 0], &[0, 3, 0, 1], [2, 1]);
    let s = sow_pit(&g, &mut st, 3);
    assert_eq!(s["pits"], json!([[0, 0, 0, 1], [0, 0, 0, 1]]));
    assert_eq!(s["stores"], json!([5, 1]));
    let g = from_text(&(text.replace("relay_stores = true", "") + capture));
    let mut st = position(&g, 0, &[0, 0, 1, 0], &[0, 3, 0, 1], [2, 1]);
    let s = sow_pit(&g, &mut st, 3);
    assert_eq!(s["pits"], json!([[0, 0, 0, 1], [0, 3, 0, 1]]));
    // A capture chain walking on passes over it too: South's 4 taken, then North's 1 after the
    // store; ending at the store instead, the chain takes South's 4 alone.
    let chain = "\n[capture]\nwhen = \"next.count == 0\"\ntake = [\"beyond\"]\n\
                 chain = \"pit.count > 0\"\nchain_way = \"on\"\n";
    let g = from_text(&(text.replace("relay_stores = true", "relay_stores = \"pass\"") + chain));
    let mut st = position(&g, 0, &[1, 0, 0, 2], &[3, 0, 0, 1], [1, 0]);
    let s = sow_pit(&g, &mut st, 1);
    assert_eq!(s["pits"], json!([[0, 1, 0, 0], [0, 0, 0, 1]]));
    assert_eq!(s["stores"], json!([6, 0]));
    let g = from_text(&(text.replace("relay_stores = true", "") + chain));
    let mut st = position(&g, 0, &[1, 0, 0, 2], &[3, 0, 0, 1], [1, 0]);
    let s = sow_pit(&g, &mut st, 1);
    assert_eq!(s["pits"], json!([[0, 1, 0, 0], [3, 0, 0, 1]]));
    assert_eq!(s["stores"], json!([3, 0]));
}

#[test]
fn a_pit_knows_the_side_of_the_board_it_lies_on_whoever_holds_it() {
    // Rounds in which pits change owner: North holds South's pit 4 (`o4`), numbered 4 as
    // South numbers it; `home` tells it from North's own pit 4.
    let text = r#"
[game]
name = "home"
family = "sowing"

[board]
pits = 4

[setup]
stones = 2

[match]
refill = 2
owners = "filled"
"#;
    use ludus::game::Json;
    let at = json!({"to_move": 1, "pits": [[2, 2, 2, 2], [2, 2, 2, 2]], "stores": [0, 0],
        "owners": [[0, 0, 0, 1], [1, 1, 1, 1]]});
    let g = from_text(text);
    let st = g.state_from_json(&at).expect("a position");
    assert_eq!(move_texts(&g, &st), ["1", "2", "3", "4", "o4"]);
    let g = from_text(&text.replace(
        "[setup]",
        "[sowing]\nstart = \"pit.number == 4 and pit.home == mover\"\n\n[setup]",
    ));
    let st = g.state_from_json(&at).expect("a position");
    assert_eq!(move_texts(&g, &st), ["4"]);
    let g = from_text(&text.replace(
        "[setup]",
        "[sowing]\nstart = \"pit.number == 4 and pit.home != mover\"\n\n[setup]",
    ));
    let st = g.state_from_json(&at).expect("a position");
    assert_eq!(move_texts(&g, &st), ["o4"]);
}

#[test]
fn a_lock_may_be_undone_by_any_lift_a_relays_too() {
    let text = r#"
[game]
name = "lift-locks"
family = "sowing"

[board]
pits = 4

[setup]
stones = 2

[sowing]
relay = "last"
locks = "lift"
"#;
    use ludus::game::Game;
    // South's pit 2 ends in pit 4 (3), lifted; North's pit 3 (3), lifted; South's pit 2,
    // emptied by the move, takes the last stone. The three lifted pits are unlocked.
    let g = from_text(text);
    let mut st = g.new_game(0);
    let s = sow_pit(&g, &mut st, 2);
    assert_eq!(s["pits"], json!([[3, 1, 3, 0], [3, 3, 0, 3]]));
    assert_eq!(s["locked"], json!([[1, 3], [1, 2, 4]]));
    // With `true`, only the move's own pit.
    let g = from_text(&text.replace("\"lift\"", "true"));
    let mut st = g.new_game(0);
    let s = sow_pit(&g, &mut st, 2);
    assert_eq!(s["locked"], json!([[1, 3, 4], [1, 2, 3, 4]]));
}

#[test]
fn the_stones_a_capture_takes_from_each_pit_may_depend_on_the_position() {
    // A last stone making an opponent's pit hold 4 takes two of them, but three from the
    // opponent's last pit in play (their others closed or empty... here: owned).
    let text = r#"
[game]
name = "take-max"
family = "sowing"

[board]
pits = 3

[setup]
stones = 3

[capture]
when = "last.side == opponent and last.count == 4"
take = ["last"]
take_max = "2 + 1 / opponent.occupied"
"#;
    let g = from_text(text);
    // North holds stones in two pits: two taken from the four.
    let mut st = position(&g, 0, &[0, 0, 1], &[3, 3, 0], [5, 6]);
    let s = sow_pit(&g, &mut st, 3);
    assert_eq!(s["pits"], json!([[0, 0, 0], [2, 3, 0]]));
    assert_eq!(s["stores"], json!([7, 6]));
    // North holds stones in one pit: three taken, one left.
    let mut st = position(&g, 0, &[0, 0, 1], &[3, 0, 0], [5, 9]);
    let s = sow_pit(&g, &mut st, 3);
    assert_eq!(s["pits"], json!([[0, 0, 0], [1, 0, 0]]));
    assert_eq!(s["stores"], json!([8, 9]));
    // A number is a number, as before; and the owned pits count empty ones too.
    let g = from_text(&text.replace(
        "\"2 + 1 / opponent.occupied\"",
        "\"2 + 1 / opponent.owned\"",
    ));
    let mut st = position(&g, 0, &[0, 0, 1], &[3, 0, 0], [5, 9]);
    let s = sow_pit(&g, &mut st, 3);
    assert_eq!(
        s["pits"],
        json!([[0, 0, 0], [2, 0, 0]]),
        "North owns three pits"
    );
}

#[test]
fn the_pits_picked_after_a_capture_may_depend_on_the_position() {
    // Tsoro (Baia)'s kind: more picks after a player's first capture than after later ones.
    let rules = "[capture]\nwhen = \"last.count == 1\"\ntake = [\"opposite\"]\n\
                 pick = \"if(mover.stage == 0, 2, 1)\"\n\n[turn]\nstages = [\"captured > 0\"]\n";
    let g = plain(rules);
    let mut st = position(&g, 0, &[1, 0, 4, 4, 3, 2], &[0, 0, 4, 4, 4, 1], [13, 8]);
    let s = sow_pit(&g, &mut st, 1);
    assert_eq!(
        s["decision"]["left"], 2,
        "two picks after the first capture"
    );
    let later = json!({"to_move": 0, "pits": [[1, 0, 4, 4, 3, 2], [0, 0, 4, 4, 4, 1]],
        "stores": [13, 8], "stages": [1, 0]});
    use ludus::game::Json;
    let mut st = g.state_from_json(&later).expect("a position");
    let s = sow_pit(&g, &mut st, 1);
    assert_eq!(s["decision"]["left"], 1, "one after a later one");
    assert!(ludus::game::View::describe(&g).contains("worked out at each capture"));
}

#[test]
fn every_lift_may_put_its_first_stone_back_and_a_capture_may_lift_the_last_pit_too() {
    // Kisolo of the Lali: the first counter of every lift back into the hole lifted; captured
    // counters sown on together with the last hole's own.
    let text = r#"
[game]
name = "kisolo-lali-like"
family = "sowing"

[board]
pits = 4

[setup]
stones = 1

[sowing]
relay = "last"
first_drop = "origin-every-lift"
"#;
    let g = from_text(text);
    // South's pit 2: one back into it, one into pit 3 (which held one): lifted, one back into
    // it, one into the empty pit 4.
    let mut st = position(&g, 0, &[0, 2, 1, 0], &[1, 1, 1, 1], [0, 1]);
    let s = sow_pit(&g, &mut st, 2);
    assert_eq!(s["pits"], json!([[0, 1, 1, 1], [1, 1, 1, 1]]));
    // With "origin", the move's own lift only: the relays sow on from the next pit.
    let g = from_text(&text.replace("\"origin-every-lift\"", "\"origin\""));
    let mut st = position(&g, 0, &[0, 2, 1, 0], &[1, 1, 1, 1], [0, 1]);
    let s = sow_pit(&g, &mut st, 2);
    assert_eq!(s["pits"], json!([[1, 1, 0, 1], [0, 2, 0, 2]]));
    // A capture sown on with the last pit's stones: South's pit 3 ends in pit 4 (2), taking
    // North's pit 1 (2) facing it; the four go on from pit 4 into North's pits.
    let capture = |from: &str| {
        format!(
            "[game]\nname = \"x\"\nfamily = \"sowing\"\n\n[board]\npits = 4\n\n[setup]\nstones = 1\n\n\
             [capture]\nwhen = \"last.side == mover and last.count > 1 and opposite.count > 0\"\n\
             take = [\"opposite\"]\nto = \"sow\"\nsow_from = \"{from}\"\n"
        )
    };
    let g = from_text(&capture("last-lifted"));
    let mut st = position(&g, 0, &[1, 0, 1, 1], &[2, 0, 0, 0], [1, 2]);
    let s = sow_pit(&g, &mut st, 3);
    assert_eq!(s["pits"], json!([[1, 0, 0, 0], [1, 1, 1, 1]]));
    let g = from_text(&capture("last"));
    let mut st = position(&g, 0, &[1, 0, 1, 1], &[2, 0, 0, 0], [1, 2]);
    let s = sow_pit(&g, &mut st, 3);
    assert_eq!(s["pits"], json!([[1, 0, 0, 2], [1, 1, 0, 0]]));
}

/// Two rows of four, relays from the last pit; a lap ending in an occupied pit turns back.
const TURNING: &str = r#"
[game]
name = "turning"
family = "sowing"

[board]
pits = 4

[setup]
stones = 1

[sowing]
relay = "last"
relay_turn = "true"
"#;

#[test]
fn a_relay_that_turns_sows_each_lap_back_the_other_way() {
    let g = from_text(TURNING);
    // South's pit 2: pit 3 (0 → 1), pit 4 (1 → 2) held stones: its two are sown back clockwise,
    // into pit 3 (1 → 2) and the emptied pit 2, where the move ends.
    let mut st = position(&g, 0, &[0, 2, 0, 1], &[0, 0, 1, 1], [2, 1]);
    let s = sow_pit(&g, &mut st, 2);
    assert_eq!(s["pits"], json!([[0, 1, 2, 0], [0, 0, 1, 1]]));
    // Without the turn the same relay goes on into North's row.
    let g = from_text(&TURNING.replace("relay_turn = \"true\"\n", ""));
    let mut st = position(&g, 0, &[0, 2, 0, 1], &[0, 0, 1, 1], [2, 1]);
    let s = sow_pit(&g, &mut st, 2);
    assert_eq!(s["pits"], json!([[0, 0, 1, 0], [1, 1, 1, 1]]));
    // Turning twice: pit 4's three go back clockwise to pit 1 (1 → 2); those two turn
    // counterclockwise again, into pits 2 and 3 (2 → 3); those three go clockwise into pit 2,
    // pit 1 and North's pit 4, empty, where the move ends.
    let g = from_text(TURNING);
    let mut st = position(&g, 0, &[1, 2, 0, 2], &[0, 0, 1, 0], [1, 1]);
    let s = sow_pit(&g, &mut st, 2);
    assert_eq!(s["pits"], json!([[1, 3, 0, 0], [0, 0, 1, 1]]));
    // Only where the condition holds: a lap ending in South's row goes on the same way.
    let g = from_text(&TURNING.replace("\"true\"", "\"last.side == opponent\""));
    let mut st = position(&g, 0, &[0, 2, 0, 1], &[0, 0, 1, 1], [2, 1]);
    let s = sow_pit(&g, &mut st, 2);
    assert_eq!(s["pits"], json!([[0, 0, 1, 0], [1, 1, 1, 1]]));
}

#[test]
fn a_move_sown_either_way_keeps_its_way_when_its_relays_turn() {
    use ludus::game::Json;
    // The way a player chose first is remembered as the way the move began (`mover.way`), not
    // the way its last lap went.
    let text = TURNING.replace(
        "relay_turn = \"true\"",
        "relay_turn = \"true\"\ndirection_choice = \"true\"\nstart = \"pit.count > 0 and (opponent.way == 0 or ply < 2)\"",
    );
    let g = from_text(&text);
    let mut st = position(&g, 0, &[0, 2, 0, 1], &[0, 0, 1, 1], [2, 1]);
    let s = place(&g, &mut st, "2ccw");
    assert_eq!(s["pits"], json!([[0, 1, 2, 0], [0, 0, 1, 1]]));
    assert_eq!(g.state_json(&st)["ways"], json!([1, 0]));
}

#[test]
fn drops_put_several_stones_into_each_pit() {
    // Four a pit: South's pit 1 of eight fills pits 2 and 3 with four each.
    let text = TURNING.replace(
        "relay = \"last\"\nrelay_turn = \"true\"\n",
        "drops = \"4\"\n",
    );
    let g = from_text(&text.replace("stones = 1", "stones = 2"));
    let mut st = position(&g, 0, &[8, 0, 0, 0], &[2, 2, 2, 2], [0, 0]);
    let s = sow_pit(&g, &mut st, 1);
    assert_eq!(s["pits"], json!([[0, 4, 4, 0], [2, 2, 2, 2]]));
    // The last drop holds what is left in hand: six stones, four then two.
    let mut st = position(&g, 0, &[6, 0, 0, 0], &[2, 2, 2, 2], [2, 0]);
    let s = sow_pit(&g, &mut st, 1);
    assert_eq!(s["pits"], json!([[0, 4, 2, 0], [2, 2, 2, 2]]));
    // Three into the first pit, two into the next, then one a pit (`sown`, before the drop).
    let g = from_text(&text.replace("\"4\"", "\"if(sown == 0, 3, if(sown == 3, 2, 1))\""));
    let mut st = position(&g, 0, &[1, 7, 0, 0], &[0, 0, 0, 0], [0, 0]);
    let s = sow_pit(&g, &mut st, 2);
    assert_eq!(s["pits"], json!([[1, 0, 3, 2], [1, 1, 0, 0]]));
    // Never fewer than one: a value of 0 or less drops one stone.
    let g = from_text(&text.replace("\"4\"", "\"hand - 10\""));
    let mut st = position(&g, 0, &[3, 0, 0, 0], &[1, 1, 1, 1], [1, 0]);
    let s = sow_pit(&g, &mut st, 1);
    assert_eq!(s["pits"], json!([[0, 1, 1, 1], [1, 1, 1, 1]]));
}

#[test]
fn crossed_says_whether_the_move_has_sown_into_the_opponents_row() {
    // A last stone in an empty pit of the mover's captures the pit facing it only after the
    // move has been into the opponent's row.
    let text = format!(
        "{TURNING}\n[capture]\nwhen = \"crossed and last.side == mover and last.count == 1\"\ntake = [\"opposite\"]\n"
    );
    let g = from_text(&text.replace("relay = \"last\"\nrelay_turn = \"true\"\n", ""));
    // South's pit 1 (1): into pit 2, empty; North's pit 3 faces it, but nothing crossed.
    let mut st = position(&g, 0, &[1, 0, 1, 1], &[1, 1, 1, 1], [0, 1]);
    let s = sow_pit(&g, &mut st, 1);
    assert_eq!(s["stores"], json!([0, 1]));
    // South's pit 4 (5): North's four pits, then South's pit 1, emptied before: crossed.
    let mut st = position(&g, 0, &[0, 1, 0, 5], &[0, 1, 0, 0], [1, 0]);
    let s = sow_pit(&g, &mut st, 4);
    assert_eq!(s["pits"], json!([[1, 1, 0, 0], [1, 2, 1, 0]]));
    assert_eq!(s["stores"], json!([2, 0]), "North's pit 4 (1) taken");
}

#[test]
fn the_richer_player_may_fill_only_as_many_pits_as_the_poorer() {
    use ludus::game::{Game, Json};
    // South holds 38, North 10: North fills pits 1 and 2 with four and pit 3 with two (in
    // play); South fills as many pits, three, with four each and keeps 26 in the store.
    let g = plain(
        "[match]\nrefill = 4\nfill_from = \"left\"\npartial = \"open\"\nfill_count = \"poorer\"\nmin_pits = 0\n",
    );
    let over = |stores: [u8; 2]| {
        g.state_from_json(
            &json!({"to_move": null, "pits": [[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]],
            "stores": stores, "match": {"game": 1, "points": [24, 24]}}),
        )
        .unwrap_or_else(|e| panic!("{e}"))
    };
    let next = g.state_json(&g.next_game(&over([38, 10]), 0).expect("a next round"));
    assert_eq!(
        next["pits"],
        json!([[4, 4, 4, 0, 0, 0], [4, 4, 2, 0, 0, 0]])
    );
    assert_eq!(next["stores"], json!([26, 0]));
    assert_eq!(next["out_of_play"], json!([[4, 5, 6], [4, 5, 6]]));
    // A player with fewer stones than a pit plays on from the pit they fill in part; the
    // match ends only when a player holds none.
    let next = g.state_json(&g.next_game(&over([45, 3]), 0).expect("a next round"));
    assert_eq!(
        next["pits"],
        json!([[4, 0, 0, 0, 0, 0], [3, 0, 0, 0, 0, 0]])
    );
    assert_eq!(next["stores"], json!([41, 0]));
    assert!(
        g.next_game(&over([48, 0]), 0).is_none(),
        "North holds nothing"
    );
    // By default each fills what their stones allow, and below a full pit the match is over.
    let g = plain("[match]\nrefill = 4\nfill_from = \"left\"\npartial = \"open\"\n");
    let st = g
        .state_from_json(
            &json!({"to_move": null, "pits": [[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]],
            "stores": [38, 10], "match": {"game": 1, "points": [24, 24]}}),
        )
        .unwrap();
    let next = g.state_json(&g.next_game(&st, 0).expect("a next round"));
    assert_eq!(
        next["pits"],
        json!([[4, 4, 4, 4, 4, 4], [4, 4, 2, 0, 0, 0]])
    );
    assert_eq!(next["stores"], json!([14, 0]));
    let st = g
        .state_from_json(
            &json!({"to_move": null, "pits": [[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]],
            "stores": [45, 3], "match": {"game": 1, "points": [24, 24]}}),
        )
        .unwrap();
    assert!(g.next_game(&st, 0).is_none(), "North cannot fill a pit");
}

#[test]
fn two_capture_tables_take_before_the_sowing_and_after_it() {
    let text = std::fs::read_to_string("docs/games/mancala-games/achochodi.toml").unwrap();
    let g = from_text(&text);
    // South's pit 5 holds one stone: North's pit 2, facing it, is taken before the sowing
    // (3 stones); the stone then falls into pit 6, and nothing more is taken.
    let mut st = position(&g, 0, &[4, 4, 4, 4, 1, 0], &[4, 3, 4, 4, 4, 4], [8, 0]);
    let s = sow_pit(&g, &mut st, 5);
    assert_eq!(s["pits"], json!([[4, 4, 4, 4, 0, 1], [4, 0, 4, 4, 4, 4]]));
    assert_eq!(s["stores"], json!([11, 0]));
    // South's pit 6 holds one: it faces North's pit 1 (1 → taken); the stone falls into
    // North's pit 1, now empty, making 1: no capture after.
    let mut st = position(&g, 0, &[4, 4, 4, 4, 4, 1], &[1, 4, 4, 4, 4, 4], [6, 0]);
    let s = sow_pit(&g, &mut st, 6);
    assert_eq!(s["pits"], json!([[4, 4, 4, 4, 4, 0], [1, 4, 4, 4, 4, 4]]));
    assert_eq!(s["stores"], json!([7, 0]));
    // South's pit 6 holds two: no capture before; the last stone makes North's pit 2 three,
    // and the pit before it two: both taken after the sowing.
    let mut st = position(&g, 0, &[4, 4, 4, 4, 3, 2], &[1, 2, 4, 4, 4, 4], [8, 0]);
    let s = sow_pit(&g, &mut st, 6);
    assert_eq!(s["pits"], json!([[4, 4, 4, 4, 3, 0], [0, 0, 4, 4, 4, 4]]));
    assert_eq!(s["stores"], json!([13, 0]));
    // The same rules as one table capture only after the sowing.
    let one = text.replace(
        "[[capture]]\nat = \"start\"\nwhen = \"last.count == 1\"\ntake = [\"opposite\"]\n\n",
        "",
    );
    assert_ne!(one, text);
    let g = from_text(&one.replace("[[capture]]", "[capture]"));
    let mut st = position(&g, 0, &[4, 4, 4, 4, 1, 0], &[4, 3, 4, 4, 4, 4], [8, 0]);
    let s = sow_pit(&g, &mut st, 5);
    assert_eq!(s["stores"], json!([8, 0]));
}

#[test]
fn a_round_whose_pits_changed_owner_may_start_from_the_setup() {
    use ludus::game::{Game, Json};
    // South holds 29 (seven pits, the partial one theirs: 1 of 4 is less than half), North 19.
    // With `round_start = "setup"` every round starts from the laid-out pattern (the starter's
    // list to the round's starter), side by side, whoever owns the pits; the stores are empty.
    let text = TERRITORY
        .replace(
            "owners = \"filled\"",
            "owners = \"filled\"\nround_start = \"setup\"",
        )
        .replace(
            "stones = 4",
            "layout = [[2, 8, 0, 8, 0, 8], [0, 8, 0, 8, 0, 6]]\nlayout_for = \"starter\"",
        );
    let g = from_text(&text);
    let st = g
        .state_from_json(&json!({"to_move": null, "pits": [[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]], "stores": [29, 19]}))
        .unwrap_or_else(|e| panic!("{e}"));
    let s = g.state_json(&g.next_game(&st, 0).expect("a next round"));
    assert_eq!(
        s["owners"],
        json!([[0, 0, 0, 0, 0, 0], [0, 1, 1, 1, 1, 1]]),
        "{s}"
    );
    assert_eq!(s["pits"], json!([[2, 8, 0, 8, 0, 8], [0, 8, 0, 8, 0, 6]]));
    assert_eq!(s["stores"], json!([0, 0]));
    // North to start: the starter's list on North's side.
    let s = g.state_json(&g.next_game(&st, 1).expect("a next round"));
    assert_eq!(s["pits"], json!([[0, 8, 0, 8, 0, 6], [2, 8, 0, 8, 0, 8]]));
    // By default every pit gets `refill`.
    let (g, next) = next_territory_round([29, 19]);
    assert_eq!(
        g.state_json(&next)["pits"],
        json!([[4, 4, 4, 4, 4, 4], [4, 4, 4, 4, 4, 4]])
    );
}

#[test]
fn a_round_arranged_by_the_poorer_player_is_copied_by_the_richer() {
    use ludus::game::{Game, Json};
    let text = std::fs::read_to_string("docs/games/baqura.toml").unwrap();
    let g = from_text(&text);
    let over = |stores: [u8; 2]| {
        g.state_from_json(
            &json!({"to_move": null, "pits": [[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]],
            "stores": stores, "match": {"game": 1, "points": [36, 36]}}),
        )
        .unwrap_or_else(|e| panic!("{e}"))
    };
    // South won 50 to 22: North, the poorer, holds their 22 in hand; South's wait in the store.
    let mut st = g.next_game(&over([50, 22]), 0).expect("a next round");
    let s = g.state_json(&st);
    assert_eq!(s["to_place"], json!([0, 22]));
    assert_eq!(s["stores"], json!([50, 0]));
    assert_eq!(s["to_move"], json!(1), "North arranges");
    // North puts 20 into their pit 1 and one each into pits 2 and 3.
    for pit in std::iter::repeat_n("1", 20).chain(["2", "3"]) {
        place(&g, &mut st, pit);
    }
    let s = g.state_json(&st);
    // South copies it, each pit the count of the pit facing it; 28 stay in the store.
    assert_eq!(s["pits"], json!([[0, 0, 0, 1, 1, 20], [20, 1, 1, 0, 0, 0]]));
    assert_eq!(s["stores"], json!([28, 0]));
    assert_eq!(s["to_move"], json!(0), "the starter sows");
    assert_eq!(
        s.get("out_of_play").map_or(json!([[], []]), Clone::clone),
        json!([[], []])
    );
    // Equal holdings: the player who does not start arranges.
    let st = g.next_game(&over([36, 36]), 1).expect("a next round");
    assert_eq!(g.state_json(&st)["to_place"], json!([36, 0]));
    // Pits left empty may be out of play on both sides.
    let g = from_text(&text.replace(
        "\narrange = \"poorer\"",
        "\narrange = \"poorer\"\narranged_empty = \"closed\"",
    ));
    let mut st = g.next_game(&over([70, 2]), 0).expect("a next round");
    place(&g, &mut st, "2");
    place(&g, &mut st, "5");
    let s = g.state_json(&st);
    assert_eq!(s["pits"], json!([[0, 1, 0, 0, 1, 0], [0, 1, 0, 0, 1, 0]]));
    assert_eq!(s["stores"], json!([68, 0]));
    assert_eq!(s["out_of_play"], json!([[1, 3, 4, 6], [1, 3, 4, 6]]));
    // The match ends when a player holds nothing.
    assert!(g.next_game(&over([72, 0]), 0).is_none());
    // The pit of the same number may copy instead; a player may need more than one stone.
    let g = from_text(&text.replace(
        "\narrange = \"poorer\"",
        "\narrange = \"poorer\"\narranged_copy = \"same-number\"\nmin_held = 3",
    ));
    let mut st = g.next_game(&over([69, 3]), 0).expect("a next round");
    for pit in ["1", "1", "2"] {
        place(&g, &mut st, pit);
    }
    let s = g.state_json(&st);
    assert_eq!(s["pits"], json!([[2, 1, 0, 0, 0, 0], [2, 1, 0, 0, 0, 0]]));
    assert_eq!(s["stores"], json!([66, 0]));
    assert!(
        g.next_game(&over([70, 2]), 0).is_none(),
        "two stones are too few"
    );
}

#[test]
fn a_drop_may_be_diverted_to_a_store() {
    let text = std::fs::read_to_string("docs/games/mancala-games/meusueb.toml").unwrap();
    let g = from_text(&text);
    // Seven stones left in play: South's pit 5 (two) sows pit 6 (1 → 2), then North's pit 1,
    // empty: that stone goes to North's store, and the lap ends there, not relayed.
    let mut st = position(&g, 0, &[0, 0, 0, 0, 2, 1], &[0, 2, 1, 1, 0, 0], [20, 21]);
    let s = sow_pit(&g, &mut st, 5);
    assert_eq!(s["pits"], json!([[0, 0, 0, 0, 0, 2], [0, 2, 1, 1, 0, 0]]));
    assert_eq!(s["stores"], json!([20, 22]));
    // A diverted last stone on an occupied pit: the pit, as it is, is sown on (the capture
    // sown on of this file); its stones, sown on North's side, go to North's store too.
    let mut st = position(&g, 0, &[0, 0, 0, 0, 0, 1], &[2, 0, 0, 0, 1, 0], [20, 24]);
    let s = sow_pit(&g, &mut st, 6);
    assert_eq!(s["pits"], json!([[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 1, 0]]));
    assert_eq!(s["stores"], json!([20, 27]));
    // More stones in play: nothing is diverted.
    let mut st = position(&g, 0, &[0, 0, 0, 0, 2, 1], &[0, 2, 1, 1, 4, 0], [20, 17]);
    let s = sow_pit(&g, &mut st, 5);
    assert_eq!(s["pits"], json!([[0, 0, 0, 0, 0, 2], [1, 2, 1, 1, 4, 0]]));
    assert_eq!(s["stores"], json!([20, 17]));
    // A rule with nothing else to check drop by drop diverts too.
    let plain = "[game]\nname = \"d\"\nfamily = \"sowing\"\n\n[board]\npits = 4\nstores = true\n\n[setup]\nstones = 1\n\n[sowing]\ndivert = \"pit.side == opponent and pit.number == 2\"\n";
    let g2 = from_text(plain);
    let mut st = position(&g2, 0, &[0, 0, 0, 3], &[1, 1, 1, 1], [0, 1]);
    let s = sow_pit(&g2, &mut st, 4);
    assert_eq!(s["pits"], json!([[0, 0, 0, 0], [2, 1, 2, 1]]));
    assert_eq!(s["stores"], json!([0, 2]));
    // `divert_to = "mover"`: the sower's store.
    let g = from_text(&text.replace("\n[capture]", "divert_to = \"mover\"\n\n[capture]"));
    let mut st = position(&g, 0, &[0, 0, 0, 0, 2, 1], &[0, 2, 1, 1, 0, 0], [20, 21]);
    let s = sow_pit(&g, &mut st, 5);
    assert_eq!(s["stores"], json!([21, 21]));
}

#[test]
fn a_divert_may_carry_off_the_whole_hand() {
    use ludus::game::Json;
    let text = std::fs::read_to_string("docs/games/mancala-games/andada.toml").unwrap();
    let g = from_text(&text);
    let at = |stages: [u8; 2], south: &[u8], north: &[u8], stores: [u8; 2]| {
        g.state_from_json(
            &json!({"to_move": 0, "pits": [south, north], "stores": stores, "stages": stages}),
        )
        .unwrap_or_else(|e| panic!("{e}"))
    };
    let mut south = [0u8; 15];
    let north = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1];
    south[13] = 2;
    south[14] = 1;
    // Before the bear-off: pit 14's second stone goes on into North's pit 1.
    let mut st = at([0, 0], &south, &north, [28, 27]);
    let s = sow_pit(&g, &mut st, 14);
    assert_eq!(s["pits"][1][0], json!(1));
    assert_eq!(s["stages"], json!([0, 0]), "pit 15 now holds two");
    // Bearing off (either player's stage counts): the second stone leaves with the hand, the
    // lap ends in pit 15 (two now), which is relayed: both its stones leave too.
    for stages in [[1, 0], [0, 1]] {
        let mut st = at(stages, &south, &north, [28, 27]);
        let s = sow_pit(&g, &mut st, 14);
        assert_eq!(s["pits"][0], json!([0u8; 15].to_vec()));
        assert_eq!(s["pits"][1], json!(north));
        assert_eq!(s["stores"], json!([31, 27]));
    }
    // A first stone carried off: the lap ends at the pit lifted, empty, and nothing follows.
    let mut lone = [0u8; 15];
    lone[14] = 1;
    lone[2] = 1;
    let mut st = at([1, 1], &lone, &north, [28, 28]);
    let s = sow_pit(&g, &mut st, 15);
    assert_eq!(s["pits"][0][14], json!(0));
    assert_eq!(s["stores"], json!([29, 28]));
    // The lap's end is checked by the captures as any: three from pit 13 fill the empty pits
    // 14 and 15, the third leaves, and pit 15 (one now, empty before) takes North's pit 1.
    let mut three = [0u8; 15];
    three[12] = 3;
    let north = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1];
    let mut st = at([1, 0], &three, &north, [28, 27]);
    let s = sow_pit(&g, &mut st, 13);
    assert_eq!(
        (&s["pits"][0][13], &s["pits"][0][14]),
        (&json!(1), &json!(1))
    );
    assert_eq!(s["pits"][1][0], json!(0));
    assert_eq!(s["stores"], json!([30, 27]));
    // Stones are never created or lost.
    assert_eq!(sowing_common::stones(&s), 60);
}

#[test]
fn the_arranging_player_may_keep_stones_in_hand() {
    use ludus::game::{Game, Json, Notation};
    let text = std::fs::read_to_string("docs/games/mancala-games/giuthi.toml").unwrap();
    let g = from_text(&text);
    let over = |stores: [u8; 2]| {
        g.state_from_json(
            &json!({"to_move": null, "pits": [[0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0]],
            "stores": stores, "match": {"game": 1, "points": [48, 48]}}),
        )
        .unwrap_or_else(|e| panic!("{e}"))
    };
    // North lost with 20: one stone a pit first, then anywhere; `done` once every pit holds
    // one and one holds two.
    let mut st = g.next_game(&over([76, 20]), 0).expect("a next round");
    assert!(!move_texts(&g, &st).contains(&"done".to_string()));
    for pit in ["1", "2", "3", "4", "5", "6", "7", "8"] {
        place(&g, &mut st, pit);
    }
    let e = g.parse_move(&st, "done").unwrap_err().to_string();
    assert!(e.contains("into"), "{e}");
    place(&g, &mut st, "3");
    assert!(move_texts(&g, &st).contains(&"done".to_string()));
    let s = place(&g, &mut st, "done");
    // North keeps 11 in the store; South copies pit for pit and keeps the rest.
    assert_eq!(
        s["pits"],
        json!([[1, 1, 2, 1, 1, 1, 1, 1], [1, 1, 2, 1, 1, 1, 1, 1]])
    );
    assert_eq!(s["stores"], json!([67, 11]));
    assert_eq!(s["to_move"], json!(0), "the winner starts");
    // Fewer than nine stones lose the match.
    assert!(g.next_game(&over([88, 8]), 0).is_none());
}

#[test]
fn stones_in_some_pits_may_count_for_nobody_at_the_end() {
    let text = std::fs::read_to_string("docs/games/mancala-games/crosscapt-six.toml").unwrap();
    let g = from_text(&text);
    // South's pit 6 (one) ends in South's store and South moves again; North's side holds no
    // stone outside a ram (North's pit 1, 13): the game ends, South's pit 2 (12, a ram) and
    // North's pit 1 count for nobody, South's pit 1 (3) is South's.
    let mut st = position(&g, 0, &[3, 12, 0, 0, 0, 1], &[13, 0, 0, 0, 0, 0], [10, 9]);
    let s = sow_pit(&g, &mut st, 6);
    assert_eq!(s["phase"], json!("over"), "{s}");
    assert_eq!(s["pits"], json!([[0, 12, 0, 0, 0, 0], [13, 0, 0, 0, 0, 0]]));
    assert_eq!(s["stores"], json!([14, 9]));
    // Without the rule, each side's stones go to its owner.
    let g = from_text(&text.replace("\nunscored = \"pit.count >= 14 - pit.number\"", ""));
    let mut st = position(&g, 0, &[3, 12, 0, 0, 0, 1], &[13, 0, 0, 0, 0, 0], [10, 9]);
    let s = sow_pit(&g, &mut st, 6);
    assert_eq!(s["stores"], json!([26, 22]));
}

#[test]
fn a_pit_filled_exactly_half_may_be_drawn_by_lot() {
    use ludus::game::{Game, Json};
    let text = std::fs::read_to_string("docs/games/mancala-games/lahemay-waladat.toml").unwrap();
    let g = from_text(&text);
    let over = |stores: [u8; 2]| {
        g.state_from_json(
            &json!({"to_move": null, "pits": [[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]],
            "stores": stores, "match": {"game": 1, "points": [24, 24]}}),
        )
        .unwrap_or_else(|e| panic!("{e}"))
    };
    // South holds 30: seven pits and half of an eighth, North's pit 2, drawn by lot; the
    // round starts with the loser holding it until the draw is laid out.
    let next = g.next_game(&over([30, 18]), 0).expect("a next round");
    let s = g.state_json(&next);
    assert_eq!(s["owners"], json!([[0, 0, 0, 0, 0, 0], [0, 1, 1, 1, 1, 1]]));
    let mut won = next.clone();
    g.deal(&mut won, &vec![vec![1], vec![0]]).expect("a lot");
    assert_eq!(
        g.state_json(&won)["owners"],
        json!([[0, 0, 0, 0, 0, 0], [0, 0, 1, 1, 1, 1]])
    );
    let mut lost = next.clone();
    g.deal(&mut lost, &vec![vec![0], vec![1]]).expect("a lot");
    assert_eq!(g.state_json(&lost)["owners"], s["owners"]);
    assert!(g.deal(&mut lost.clone(), &vec![vec![1], vec![1]]).is_err());
    // The table draws it: both outcomes come up over seeds.
    let drawn: std::collections::BTreeSet<_> = (0..40u64)
        .map(|seed| {
            use rand::SeedableRng;
            let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
            g.draw_deal(&next, &mut rng).expect("a lot to draw")
        })
        .collect();
    assert_eq!(drawn.len(), 2);
    // No lot where the winner's stones fill a pit more or less than half.
    let next = g.next_game(&over([31, 17]), 0).expect("a next round");
    assert!(g.deal(&mut next.clone(), &vec![vec![1], vec![0]]).is_err());
    assert_eq!(
        g.state_json(&next)["owners"],
        json!([[0, 0, 0, 0, 0, 0], [0, 0, 1, 1, 1, 1]])
    );
}

#[test]
fn an_arrangement_set_up_by_hand_never_creates_stones() {
    use ludus::game::Json;
    let g = from_text(&std::fs::read_to_string("docs/games/baqura.toml").unwrap());
    // A second round set up with North arranging 70 while South's store holds 1 and a pit 1:
    // the copy takes what the store holds, and no stone is made or lost.
    let mut st = g
        .state_from_json(
            &json!({"to_move": 1, "pits": [[1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]],
            "stores": [1, 0], "to_place": [0, 70], "match": {"game": 2, "points": [2, 70]}}),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    for _ in 0..70 {
        place(&g, &mut st, "1");
    }
    let s = g.state_json(&st);
    assert_eq!(s["pits"], json!([[1, 0, 0, 0, 0, 1], [70, 0, 0, 0, 0, 0]]));
    assert_eq!(s["stores"], json!([0, 0]));
}

#[test]
fn pits_may_be_locked_and_unlocked_by_conditions() {
    use ludus::game::{Game, Json};
    let g = from_text(&std::fs::read_to_string("docs/games/khrour.toml").unwrap());
    // Every hole full: nothing locked at the match's start.
    let s = g.state_json(&g.new_game(0));
    assert_eq!(s["locked"], json!([[], []]));
    // South captured 10, North 6: South fills both holes (two in reserve), North one hole and
    // two counters in the next (`partial = "open-all"`: in play), which is locked as the round
    // begins, with the empty holes of no one.
    let over = g
        .state_from_json(&json!({"to_move": null, "pits": [[0, 0], [0, 0]], "stores": [10, 6]}))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut st = g.next_game(&over, 1).expect("a next round");
    let s = g.state_json(&st);
    assert_eq!(s["pits"], json!([[4, 4], [4, 2]]));
    assert_eq!(s["stores"], json!([2, 0]));
    assert_eq!(s["out_of_play"], json!([[], []]));
    assert_eq!(s["locked"], json!([[], [2]]));
    // North may not sow its locked hole.
    assert_eq!(legal_pits(&g, &st), vec![1]);
    // North's pit 1 sows its pit 2 (three), South's two and itself: its last counter makes
    // one, nothing captured; the lock stays (three is short of four).
    let s = sow_pit(&g, &mut st, 1);
    assert_eq!(s["pits"], json!([[5, 5], [1, 3]]));
    assert_eq!(s["locked"], json!([[], [2]]));
    // South's pit 2 (five) sows North's 1 and 2 (four now: unlocked after the move), South's
    // 1 and 2, and North's 1 again, three: no capture.
    let s = sow_pit(&g, &mut st, 2);
    assert_eq!(s["pits"], json!([[6, 1], [3, 4]]));
    assert_eq!(s["locked"], json!([[], []]));
    // A locked hole is not captured from: North 2 short again, South's last counter making it
    // four takes nothing.
    let mut st = g
        .state_from_json(&json!({"to_move": 0, "pits": [[1, 2], [4, 3]], "stores": [2, 4], "locked": [[], [2]], "ply": 3}))
        .unwrap_or_else(|e| panic!("{e}"));
    let s = sow_pit(&g, &mut st, 2);
    assert_eq!(s["pits"], json!([[1, 0], [5, 4]]));
    assert_eq!(s["stores"], json!([2, 4]));
    // ... and is unlocked now that it holds four.
    assert_eq!(s["locked"], json!([[], []]));
}

#[test]
fn the_loser_alone_may_refill() {
    use ludus::game::{Game, Json};
    let g = from_text(&std::fs::read_to_string("docs/games/mancala-games/jongkak.toml").unwrap());
    let over = |south: [u8; 7], north: [u8; 7], stores: [u8; 2]| {
        g.state_from_json(&json!({"to_move": null, "pits": [south, north], "stores": stores}))
            .unwrap_or_else(|e| panic!("{e}"))
    };
    // South cleared their side holding 30 in store; North holds 34 and six on their side: North
    // wins the round by what they hold (not by the stores alone, 30 to 34 either way here).
    let st = over([0; 7], [1, 2, 0, 0, 3, 0, 0], [30, 34]);
    let s = g.state_json(&st);
    assert_eq!(s["result"]["scores"], json!([30, 40]));
    assert_eq!(s["result"]["winner"], 1);
    // South alone refills: six pits of five from the west end (their pit 1 up), the seventh out
    // of play; North's side and store stay as they were, and North starts.
    let next = g.next_game(&st, 1).expect("a next round");
    let s = g.state_json(&next);
    assert_eq!(
        s["pits"],
        json!([[5, 5, 5, 5, 5, 5, 0], [1, 2, 0, 0, 3, 0, 0]])
    );
    assert_eq!(s["stores"], json!([0, 34]));
    assert_eq!(s["out_of_play"], json!([[7], []]));
    // North losing with 17: their pits 7, 6 and 5 (the west end) filled, two in store.
    let st = over([0, 0, 0, 0, 2, 0, 0], [0, 0, 0, 0, 0, 0, 0], [51, 17]);
    let s = g.state_json(&g.next_game(&st, 0).expect("a next round"));
    assert_eq!(
        s["pits"],
        json!([[0, 0, 0, 0, 2, 0, 0], [0, 0, 0, 0, 5, 5, 5]])
    );
    assert_eq!(s["stores"], json!([51, 2]));
    assert_eq!(s["out_of_play"], json!([[], [1, 2, 3, 4]]));
    // A drawn round ends the match, drawn; so does nothing to sow on the winner's side (South
    // holding 40 in store, none on their side), and a loser who cannot fill a pit.
    for (south, north, stores, winner) in [
        ([0; 7], [1, 2, 0, 0, 3, 0, 0], [35, 29], None),
        ([0; 7], [1, 2, 0, 0, 3, 0, 0], [40, 24], Some(0)),
        ([0, 0, 0, 0, 1, 0, 0], [0; 7], [65, 4], Some(0)),
    ] {
        let st = over(south, north, stores);
        assert!(g.next_game(&st, 0).is_none(), "{stores:?}");
        let standing = g.match_standing(&st).expect("a match");
        assert!(standing.over);
        assert_eq!(standing.winner, winner, "{stores:?}");
    }
}

#[test]
fn the_first_move_may_be_an_opening_that_moves_stones_by_a_rule() {
    use ludus::game::{Game, Json};
    let text = std::fs::read_to_string("docs/games/mancala-games/gabata.toml").unwrap();
    let g = from_text(&text);
    let fresh = || {
        g.state_from_json(&json!({"to_move": 0, "ply": 0, "pits": [[4, 4, 4, 4, 4, 4], [4, 4, 4, 4, 4, 4]], "stores": [0, 0]}))
            .unwrap_or_else(|e| panic!("{e}"))
    };
    // South opens from pit 1, which keeps its four: round the board every other pit gives a
    // stone to the next, and the one over goes into North's pit 6, facing pit 1, where the
    // move ends: four on North's side, South's weg.
    let mut st = fresh();
    assert_eq!(legal_pits(&g, &st), vec![1, 2, 3, 4, 5, 6]);
    let s = sow_pit(&g, &mut st, 1);
    assert_eq!(s["pits"], json!([[4, 3, 5, 3, 5, 3], [5, 3, 5, 3, 5, 4]]));
    assert_eq!(s["houses"], json!([[[1, 6]], []]));
    assert_eq!(s["to_move"], 1);
    assert_eq!(sowing_common::stones(&s), 48);
    // Only the first move opens: North's pit 2 is sown as in Weg, the same game without it.
    let weg = from_text(&std::fs::read_to_string("docs/games/mancala-games/weg.toml").unwrap());
    let mut same = weg.state_from_json(&s).unwrap();
    let s = sow_pit(&g, &mut st, 2);
    assert_eq!(s["pits"], sow_pit(&weg, &mut same, 2)["pits"]);
    // A pit whose opening would leave another below zero may not open: South's pit 2, empty,
    // would give a stone in an opening from pit 1 (an odd distance), not in one from pit 4.
    let st = g
        .state_from_json(&json!({"to_move": 0, "ply": 0, "pits": [[4, 0, 4, 4, 4, 8], [4, 4, 4, 4, 4, 4]], "stores": [0, 0]}))
        .unwrap();
    assert!(
        !legal_pits(&g, &st).contains(&1),
        "{:?}",
        legal_pits(&g, &st)
    );
    assert!(legal_pits(&g, &st).contains(&4));
    // The changes must add up to nothing: a rule that only takes opens nowhere.
    let taking = from_text(&text.replace(
        "opening = \"if(steps == 0, 0, if(steps % 2 == 1, -1, 1)) + if(pit.home != origin.home and pit.number + origin.number == 7, 1, 0)\"",
        "opening = \"if(steps == 1, -1, 0)\"",
    ));
    let st = taking
        .state_from_json(&json!({"to_move": 0, "ply": 0, "pits": [[4, 4, 4, 4, 4, 4], [4, 4, 4, 4, 4, 4]], "stores": [0, 0]}))
        .unwrap();
    assert_eq!(legal_pits(&taking, &st), Vec::<u8>::new());
    // Every round opens again.
    let over = g
        .state_from_json(&json!({"to_move": null, "pits": [[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]], "stores": [28, 20]}))
        .unwrap();
    let mut next = g.next_game(&over, 0).expect("a next round");
    assert_eq!(g.state_json(&next)["ply"], 0);
    let before = g.state_json(&next);
    let s = sow_pit(&g, &mut next, 3);
    assert_eq!(sowing_common::stones(&s), sowing_common::stones(&before));
    assert_eq!(
        s["pits"][0][2], before["pits"][0][2],
        "the opening pit keeps its stones"
    );
}

#[test]
fn take_max_reading_pit_limits_each_pit_taken_on_its_own() {
    use ludus::game::{Game, Json, View};
    // A last stone in an own occupied pit: that stone alone goes to the store, with the pit
    // across (Papan Dakon).
    let rules = |choice: &str| {
        plain(&format!(
            "[capture]\nwhen = \"last.side == mover and last.count > 1\"\n\
             take = [\"last\", \"opposite\"]\n\
             take_max = \"if(pit.side == last.side and pit.number == last.number, 1, 255)\"\n{choice}"
        ))
    };
    let g = rules("");
    assert!(g.describe().contains(
        "(at most `if(pit.side == last.side and pit.number == last.number, 1, 255)` stones from each)"
    ));
    let mut st = position(&g, 0, &[0, 0, 0, 0, 1, 2], &[5, 0, 0, 0, 0, 1], [20, 19]);
    let s = sow_pit(&g, &mut st, 5);
    assert_eq!(s["pits"], json!([[0, 0, 0, 0, 0, 2], [0, 0, 0, 0, 0, 1]]));
    assert_eq!(s["stores"], json!([26, 19]));
    // The same when the mover decides, after the question.
    let g = rules("choice = \"mover\"\n");
    let mut st = position(&g, 0, &[0, 0, 0, 0, 1, 2], &[5, 0, 0, 0, 0, 1], [20, 19]);
    g.play(&mut st, &ludus::sowing::SowingMove::pit(5));
    g.play(&mut st, &ludus::sowing::SowingMove::TAKE);
    let s = g.state_json(&st);
    assert_eq!(s["pits"], json!([[0, 0, 0, 0, 0, 2], [0, 0, 0, 0, 0, 1]]));
    assert_eq!(s["stores"], json!([26, 19]));
    // `pit` is no name of `capture.when`.
    let broken = "[game]\nname = \"plain\"\nfamily = \"sowing\"\n[board]\npits = 6\n\
                  stores = true\n[setup]\nstones = 4\n[capture]\nwhen = \"pit.count > 1\"\ntake = [\"last\"]\n";
    let e = match ludus::registry::compile(broken) {
        Ok(_) => panic!("accepted"),
        Err(d) => d[0].message.clone(),
    };
    assert!(e.contains("unknown name `pit.count`"), "{e}");
}

#[test]
fn lifted_is_the_moves_first_lift_through_its_relays() {
    // A relay game: a last stone in the emptied pit the move began from captures the pit across
    // only after a first lift of three or more (Mbelele). Two pits a side: S1, S2, N1, N2.
    let g = sized(
        2,
        "[sowing]\nrelay = \"last\"\n[capture]\n\
         when = \"last.side == origin.side and last.number == origin.number and lifted > 2\"\n\
         take = [\"opposite\"]\n",
    );
    // Four from S1 come round to it: N2, across, is taken.
    let mut st = position(&g, 0, &[4, 0], &[0, 3], [4, 5]);
    let s = sow_pit(&g, &mut st, 1);
    assert_eq!(s["pits"], json!([[1, 1], [1, 0]]), "{s}");
    assert_eq!(s["stores"], json!([8, 5]));
    // Two from S1: S2, N1 (made two: relay) N2, S1. The origin again, after a relay, but the
    // move lifted two: nothing is taken.
    let mut st = position(&g, 0, &[2, 0], &[1, 5], [4, 4]);
    let s = sow_pit(&g, &mut st, 1);
    assert_eq!(s["pits"], json!([[1, 1], [0, 6]]), "{s}");
    assert_eq!(s["stores"], json!([4, 4]));
}

#[test]
fn previous_way_is_the_way_round_the_move_before_began() {
    use ludus::game::{Game, Json};
    // Each move sows the other way round from the move before (the first the rules' way).
    let g = plain("[sowing]\nreverse = \"previous_way == 1\"\n");
    let mut st = position(&g, 0, &[1, 0, 0, 0, 0, 1], &[1, 0, 0, 0, 0, 1], [22, 22]);
    let mut moves = Vec::new();
    g.legal_moves(&st, &mut moves);
    assert!(moves.iter().all(|m| !m.is_other_way()), "{moves:?}");
    // South's pit 6 counterclockwise into North's pit 1.
    g.play(&mut st, &ludus::sowing::SowingMove::pit(6));
    let s = g.state_json(&st);
    assert_eq!(s["previous"]["way"], 1);
    assert_eq!(s["pits"], json!([[1, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 1]]));
    // North now sows clockwise only: North's pit 1 (two stones) into South's 6 and 5.
    g.legal_moves(&st, &mut moves);
    assert!(moves.iter().all(|m| m.is_other_way()), "{moves:?}");
    g.play(&mut st, &ludus::sowing::SowingMove::other_way(1));
    let s = g.state_json(&st);
    assert_eq!(s["previous"]["way"], 2);
    assert_eq!(s["pits"], json!([[1, 0, 0, 0, 1, 1], [0, 0, 0, 0, 0, 1]]));
    g.legal_moves(&st, &mut moves);
    assert!(moves.iter().all(|m| !m.is_other_way()), "{moves:?}");
    // STATE round trip, and a way that is neither refused.
    let back = g.state_from_json(&s).expect("read back");
    assert_eq!(g.state_json(&back), s);
    let mut bad = s.clone();
    bad["previous"]["way"] = json!(3);
    let e = g.state_from_json(&bad).expect_err("refused");
    assert!(e.to_string().contains("\"way\""), "{e}");
}

#[test]
fn the_mover_may_drop_more_stones_into_a_pit_where_drop_choice_holds() {
    use ludus::game::{Game, Json, Notation, View};
    use ludus::sowing::SowingMove;
    let g = plain("[sowing]\ndrop_choice = \"ply < 2\"\n");
    let mut st = g.new_game(0);
    // South's pit 1 (four): one into pit 2, and the question.
    g.play(&mut st, &SowingMove::pit(1));
    let s = g.state_json(&st);
    assert_eq!(s["decision"]["question"], "drop");
    assert_eq!(s["decision"]["options"], json!(["take", "leave"]));
    assert_eq!(s["pits"][0], json!([0, 5, 4, 4, 4, 4]));
    assert_eq!(
        g.awaited(&st).unwrap(),
        "to decide: drop another stone into South's pit 2 (5 stones) or sow on, 3 stones in hand (`take` or `leave`)"
    );
    // Anything but a decision is refused, and changes nothing.
    for bad in ["3", "cw", "o2", "pass"] {
        let e = g.parse_move(&st, bad).unwrap_err().to_string();
        assert!(
            e.contains("a decision is awaited, `take` or `leave`"),
            "{bad}: {e}"
        );
    }
    assert_eq!(g.state_json(&st)["pits"][0], json!([0, 5, 4, 4, 4, 4]));
    // Another into pit 2, then on to pit 3, then the last stone there too: the lap ends in pit 3.
    for answer in ["take", "leave", "take"] {
        let mv = g.parse_move(&st, answer).unwrap();
        g.play(&mut st, &mv);
    }
    let s = g.state_json(&st);
    assert!(s["decision"].is_null(), "{s}");
    assert_eq!(s["pits"], json!([[0, 6, 6, 4, 4, 4], [4, 4, 4, 4, 4, 4]]));
    assert_eq!(s["to_move"], 1);
    // Leaving every time sows one a pit.
    let mut other = st.clone();
    g.play(&mut other, &SowingMove::pit(1));
    while g.state_json(&other)["decision"]["question"] == "drop" {
        g.play(&mut other, &SowingMove::LEAVE);
    }
    let s = g.state_json(&other);
    assert_eq!(s["pits"][1], json!([0, 5, 5, 5, 5, 4]));
    // From the third move on, no question: one stone a pit.
    g.play(&mut st, &SowingMove::pit(1));
    while g.state_json(&st)["decision"]["question"] == "drop" {
        g.play(&mut st, &SowingMove::LEAVE);
    }
    g.play(&mut st, &SowingMove::pit(4));
    let s = g.state_json(&st);
    assert!(s["decision"].is_null(), "{s}");
    assert_eq!(s["pits"][0], json!([0, 6, 6, 0, 5, 5]));
}

#[test]
fn pits_closed_from_the_start_make_a_board_of_another_shape() {
    use ludus::game::{Game, Json};
    // Seven holes in one circle (Sat Gol): two sides of four, North's pit 4 out of play; either
    // player sows any pit, the move after a capture from the next pit holding stones after the
    // last one sown (`previous_between`).
    let text = |extra: &str| {
        format!(
            "[game]\nname = \"circle\"\nfamily = \"sowing\"\n[board]\npits = 4\nstores = true\n\
             [setup]\nstones = 4\nclosed = [[], [4]]\n[sowing]\nstart_from = \"board\"\n\
             start = \"pit.count > 0 and previous_between == 0\"\nrelay = \"next\"\n\
             [capture]\nwhen = \"next.count == 0\"\ntake = [\"beyond\"]\n{extra}"
        )
    };
    let g = from_text(&text(""));
    let mut st = g.new_game(0);
    let s = g.state_json(&st);
    assert_eq!(s["pits"], json!([[4, 4, 4, 4], [4, 4, 4, 0]]));
    assert_eq!(s["out_of_play"], json!([[], [4]]), "{s}");
    assert_eq!(sowing_common::stones(&s), 28);
    // Random play: every move keeps 28 stones, the closed pit stays empty, and from the second
    // move on exactly one pit may start.
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut moves = Vec::new();
    let mut plies = 0;
    while g.outcome(&st).is_none() && plies < 500 {
        g.legal_moves(&st, &mut moves);
        if plies > 0 && !moves.is_empty() {
            assert_eq!(moves.len(), 1, "one forced start: {}", g.state_json(&st));
        }
        let mv = moves[rng.gen_range(0..moves.len())];
        g.play(&mut st, &mv);
        let s = g.state_json(&st);
        assert_eq!(sowing_common::stones(&s), 28);
        assert_eq!(s["pits"][1][3], 0);
        plies += 1;
    }
    // A known step: the first pit holding stones after the last one sown starts the next move.
    let mut st = position(&g, 0, &[0, 1, 0, 2], &[0, 3, 1, 0], [10, 11]);
    let s = sow_pit(&g, &mut st, 2);
    // S2's one stone into S3 (empty before): next S4 holds two, relayed: N1, N2 (four), next N3
    // holds one, relayed: S1 (N4 passed over), next S2 empty: S3 (one) taken.
    assert_eq!(s["pits"], json!([[1, 0, 0, 0], [1, 4, 0, 0]]), "{s}");
    assert_eq!(s["stores"], json!([11, 11]));
    // North moves next, from the first pit holding stones after S1: S2, S3 and S4 are empty,
    // then North's own pit 1.
    assert_eq!(legal_pits(&g, &st), vec![1]);
    // STATE keeps the closed pit off the board: left out, it is still out of play; listed
    // open, or holding stones, it is refused.
    let s = g.state_json(&st);
    let mut v = s.clone();
    v.as_object_mut().unwrap().remove("out_of_play");
    assert_eq!(g.state_json(&g.state_from_json(&v).unwrap()), s);
    v["out_of_play"] = json!([[], []]);
    assert!(g.state_from_json(&v).is_err());
    let mut v = s.clone();
    v["pits"] = json!([[1, 0, 0, 0], [0, 4, 0, 1]]);
    assert!(g.state_from_json(&v).is_err());
    // Refusals: a closed pit given stones, a pit off the board, with `[match]`.
    let bad = |setup: &str, extra: &str, message: &str| {
        let rules = text(extra).replace("stones = 4\nclosed = [[], [4]]\n", setup);
        let e = match ludus::registry::compile(&rules) {
            Ok(_) => panic!("accepted: {setup}"),
            Err(d) => d[0].message.clone(),
        };
        assert!(e.contains(message), "{e}");
    };
    bad(
        "layout = [[4, 4, 4, 4], [4, 4, 4, 4]]\nclosed = [[], [4]]\n",
        "",
        "pit 4 of player 1 is out of play but `layout` gives it stones",
    );
    bad(
        "stones = 4\nclosed = [[], [5]]\n",
        "",
        "pit 5 is not on the board",
    );
    bad(
        "stones = 4\nclosed = [[], [4]]\nfirst_move = 4\n",
        "",
        "`closed` takes off the board a pit `[house] start` or `first_move` names",
    );
    bad(
        "stones = 4\nclosed = [[], [1, 2, 3, 4]]\n",
        "",
        "leaves a player no pit in play",
    );
    bad(
        "stones = 4\nclosed = [[], [4]]\n",
        "[match]\nrefill = 4\n",
        "`closed` with `[match]`",
    );
}

#[test]
fn a_store_sown_round_the_movers_pits_may_go_on_into_the_opponents_at_their_last() {
    use ludus::game::{Game, Json, View};
    use ludus::sowing::SowingMove;
    let g = sized(
        3,
        "[sowing]\nstore_move = \"true\"\nstore_circuit = \"chosen\"\n",
    );
    let start = || position(&g, 0, &[1, 1, 1], &[1, 1, 1], [5, 13]);
    // Five from South's store: pits 1, 2, 3, and at pit 3 the question.
    let mut st = start();
    g.play(&mut st, &SowingMove::store(0));
    let s = g.state_json(&st);
    assert_eq!(s["decision"]["question"], "circuit");
    assert_eq!(s["pits"][0], json!([2, 2, 2]));
    assert_eq!(
        g.awaited(&st).unwrap(),
        "to decide: sow on from South's pit 3 into the opponent's pits or round your own again, 2 stones in hand (`take` or `leave`)"
    );
    for bad in ["1", "ccw", "s"] {
        let e = ludus::game::Notation::parse_move(&g, &st, bad)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("a decision is awaited, `take` or `leave`"),
            "{bad}: {e}"
        );
    }
    // On: North's 1 and 2.
    let mut on = st.clone();
    g.play(&mut on, &SowingMove::TAKE);
    let s = g.state_json(&on);
    assert!(s["decision"].is_null(), "{s}");
    assert_eq!(s["pits"], json!([[2, 2, 2], [2, 2, 1]]));
    // Round again: South's 1 and 2.
    g.play(&mut st, &SowingMove::LEAVE);
    let s = g.state_json(&st);
    assert_eq!(s["pits"], json!([[3, 3, 2], [1, 1, 1]]));
    assert_eq!(s["stores"], json!([0, 13]));
    // A pit's move goes round the board as usual, asked nothing.
    let mut st = start();
    g.play(&mut st, &SowingMove::pit(3));
    let s = g.state_json(&st);
    assert!(s["decision"].is_null(), "{s}");
    assert_eq!(s["pits"], json!([[1, 1, 0], [2, 1, 1]]));
}

#[test]
fn a_relay_lifts_a_pit_no_move_may_start_from() {
    // Pit 3 never starts a move, but a relay lifts it: `start` is a move's, not a lap's.
    let g = plain("[sowing]\nstart = \"pit.count > 0 and pit.number != 3\"\nrelay = \"last\"\n");
    let mut st = position(&g, 0, &[0, 1, 1, 0, 0, 0], &[1, 1, 1, 1, 1, 1], [20, 20]);
    assert_eq!(legal_pits(&g, &st), vec![2]);
    // Pit 2's stone makes pit 3 two: lifted, into 4 and 5 (empty: the move ends).
    let s = sow_pit(&g, &mut st, 2);
    assert_eq!(s["pits"][0], json!([0, 0, 0, 1, 1, 0]));
}

/// `[define]` names an expression for every expression of the file: the same game as the
/// expressions written out, in every context that uses the names; a name that means nothing
/// in a context is refused there.
#[test]
fn definitions_name_expressions_in_every_context() {
    let named = EITHER_SIDE.replace(
        "[capture]\nwhen = \"last.count in [2, 3]\"\ntake = [\"last\"]\nchain = \"pit.count in [2, 3]\"",
        "[define]\ntwo_or_three = \"[2, 3]\"\nlast_ripe = \"last.count in two_or_three\"\n\n[capture]\nwhen = \"last_ripe\"\ntake = [\"last\"]\nchain = \"pit.count in two_or_three\"",
    );
    assert_ne!(named, EITHER_SIDE);
    // A list is no expression: written in, it fails where it is used.
    let errors = ludus::registry::check(&named);
    assert!(
        errors
            .diagnostics
            .iter()
            .any(|d| d.message.contains("syntax error")),
        "{:?}",
        errors.diagnostics
    );
    let named = EITHER_SIDE.replace(
        "[capture]\nwhen = \"last.count in [2, 3]\"\ntake = [\"last\"]\nchain = \"pit.count in [2, 3]\"",
        "[define]\nripe = \"last.count in [2, 3]\"\nripe_pit = \"pit.count in [2, 3]\"\n\n[capture]\nwhen = \"ripe\"\ntake = [\"last\"]\nchain = \"ripe_pit\"",
    );
    let (a, b) = (from_text(EITHER_SIDE), from_text(&named));
    let p0 = [1, 2, 0, 4, 1, 9];
    let p1 = [1, 2, 2, 0, 3, 1];
    // 26 on the board, 22 in the stores: 48 in all.
    let mut captured = 0;
    for pit in 1..=6u8 {
        let (mut sa, mut sb) = (
            position(&a, 0, &p0, &p1, [10, 12]),
            position(&b, 0, &p0, &p1, [10, 12]),
        );
        if !legal_pits(&a, &sa).contains(&pit) {
            continue;
        }
        let after = sowing_common::sow_pit(&a, &mut sa, pit);
        assert_eq!(after, sowing_common::sow_pit(&b, &mut sb, pit), "pit {pit}");
        captured += usize::from(after["stores"] != json!([10, 12]));
    }
    assert!(captured >= 2, "the position tests captures: {captured}");
    // `pit` means nothing where the capture's condition is checked.
    let wrong = named.replace("when = \"ripe\"", "when = \"ripe_pit\"");
    let report = ludus::registry::check(&wrong);
    let d = report.errors().next().expect("an error");
    assert!(
        d.message.contains("`pit`") || d.message.contains("pit"),
        "{d:?}"
    );
    let span = d.span.clone().unwrap();
    assert_eq!(&wrong[span], "ripe_pit");
}
