//! Known positions with known results, one test a rule, through the public `Game` API.

mod sowing_common;

use ludus::game::{Game, Json, Notation, Phase};
use ludus::sowing::{MoveEnd, SowingGame, SowingMove, SowingState};
use serde_json::{json, Value};
use sowing_common::{
    from_text, game, legal_pits as legal, position as set, sow_pit as play, stones,
};

// ---------------------------------------------------------------- Oware

#[test]
fn oware_capture_of_the_last_pit() {
    let g = game("oware");
    // South's pit 6 (2 seeds) sows North's pits 1 and 2; pit 2 makes 2: captured; pit 1 makes
    // 2 as well: captured by the chain.
    let mut st = set(&g, 0, &[4, 4, 4, 4, 4, 2], &[1, 1, 4, 4, 4, 4], [4, 4]);
    let s = play(&g, &mut st, 6);
    assert_eq!(s["pits"], json!([[4, 4, 4, 4, 4, 0], [0, 0, 4, 4, 4, 4]]));
    assert_eq!(s["stores"], json!([8, 4]));
    assert_eq!(s["to_move"], 1);
}

#[test]
fn oware_chain_stops_at_a_pit_not_holding_two_or_three() {
    let g = game("oware");
    // Pit 5 (4 seeds) sows South's 6 and North's 1..3, making 4, 2 and 3: the capture takes
    // North's 3 and 2 and stops at North's 1, which holds 4.
    let mut st = set(&g, 0, &[4, 4, 4, 4, 4, 0], &[3, 1, 2, 4, 4, 4], [5, 5]);
    let s = play(&g, &mut st, 5);
    assert_eq!(s["pits"], json!([[4, 4, 4, 4, 0, 1], [4, 0, 0, 4, 4, 4]]));
    assert_eq!(s["stores"], json!([10, 5]));
}

#[test]
fn oware_capture_only_on_the_opponents_side() {
    let g = game("oware");
    // The last seed makes 2 in South's own pit: no capture.
    let mut st = set(&g, 0, &[2, 1, 4, 4, 4, 4], &[4, 4, 4, 4, 4, 4], [5, 0]);
    let s = play(&g, &mut st, 1);
    assert_eq!(s["pits"], json!([[0, 2, 5, 4, 4, 4], [4, 4, 4, 4, 4, 4]]));
    assert_eq!(s["stores"], json!([5, 0]));
}

#[test]
fn oware_twelve_or_more_skip_the_origin() {
    let g = game("oware");
    // 12 seeds from South's pit 1: one into each of the other 11 pits, the 12th skips pit 1
    // and lands in pit 2.
    let mut st = set(&g, 0, &[12, 0, 0, 0, 0, 0], &[2, 2, 2, 2, 2, 2], [12, 12]);
    let s = play(&g, &mut st, 1);
    assert_eq!(s["pits"], json!([[0, 2, 1, 1, 1, 1], [3, 3, 3, 3, 3, 3]]));
    // 11 would not lap: the origin stays empty and North's pit 6 gets the last.
    let mut st = set(&g, 0, &[11, 1, 0, 0, 0, 0], &[2, 2, 2, 2, 2, 2], [12, 12]);
    let s = play(&g, &mut st, 1);
    assert_eq!(s["pits"][0][0], 0);
}

#[test]
fn oware_must_feed_an_empty_opponent() {
    let g = game("oware");
    let st = set(&g, 0, &[5, 4, 1, 0, 2, 0], &[0, 0, 0, 0, 0, 0], [18, 18]);
    // Only pit 1 (5 seeds: 2..6) does not reach; 2 (4: 3..6) does not; 5 (2: 6, N1) does.
    assert_eq!(legal(&g, &st), vec![5]);
}

#[test]
fn oware_no_move_that_feeds_ends_the_game_each_takes_their_side() {
    let g = game("oware");
    let st = set(&g, 0, &[1, 1, 0, 0, 0, 0], &[0, 0, 0, 0, 0, 0], [22, 24]);
    assert_eq!(g.phase(&st), Phase::Over);
    let s = g.state_json(&st);
    assert_eq!(s["stores"], json!([24, 24]));
    assert_eq!(s["result"]["winner"], Value::Null);
    assert_eq!(s["result"]["reason"], "no legal move");
}

/// North's row holds 2 and 1 in pits 1 and 2 and nothing else: South's pit 6 (2 seeds) makes
/// them 3 and 2, a capture of the whole row.
fn grand_slam(g: &SowingGame, extra: u8) -> SowingState {
    set(
        g,
        0,
        &[extra, 0, 0, 0, 0, 2],
        &[2, 1, 0, 0, 0, 0],
        [20, 23 - extra],
    )
}

#[test]
fn abapa_grand_slam_captures_nothing() {
    let g = game("oware");
    let mut st = grand_slam(&g, 1);
    let s = play(&g, &mut st, 6);
    assert_eq!(s["pits"], json!([[1, 0, 0, 0, 0, 0], [3, 2, 0, 0, 0, 0]]));
    assert_eq!(s["stores"], json!([20, 22]));
}

#[test]
fn wari_grand_slam_forbidden_unless_the_only_move() {
    let g = game("wari");
    assert_eq!(legal(&g, &grand_slam(&g, 1)), vec![1]);
    // As the only move it captures the row; North cannot move, South takes their side.
    let mut st = grand_slam(&g, 0);
    assert_eq!(legal(&g, &st), vec![6]);
    let s = play(&g, &mut st, 6);
    assert_eq!(s["phase"], "over");
    assert_eq!(s["stores"], json!([25, 23]));
    assert_eq!(s["result"]["winner"], 0);
}

#[test]
fn warri_grand_slam_captures_and_the_capturer_moves_again_and_must_feed() {
    let g = game("warri");
    let mut st = set(&g, 0, &[6, 0, 0, 0, 1, 2], &[2, 1, 0, 0, 0, 0], [16, 20]);
    let s = play(&g, &mut st, 6);
    assert_eq!(s["pits"], json!([[6, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 0]]));
    assert_eq!(s["stores"], json!([21, 20]));
    assert_eq!(s["to_move"], 0, "the capturer moves again");
    assert_eq!(legal(&g, &st), vec![1], "only pit 1 reaches North");
    // With no feeding move the game ends and the capturer takes their side.
    let mut st = set(&g, 0, &[1, 0, 0, 0, 1, 2], &[2, 1, 0, 0, 0, 0], [17, 24]);
    let s = play(&g, &mut st, 6);
    assert_eq!(s["phase"], "over");
    assert_eq!(s["stores"], json!([24, 24]));
}

#[test]
fn oware_25_wins_at_once_and_the_board_stays() {
    let g = game("oware");
    let mut st = set(&g, 0, &[4, 0, 0, 0, 0, 1], &[1, 4, 4, 4, 4, 3], [23, 0]);
    let s = play(&g, &mut st, 6);
    assert_eq!(s["phase"], "over");
    assert_eq!(s["stores"], json!([25, 0]));
    assert_eq!(s["pits"], json!([[4, 0, 0, 0, 0, 0], [0, 4, 4, 4, 4, 3]]));
    assert_eq!(
        s["result"],
        json!({"winner": 0, "scores": [25, 0], "reason": "captured 25"})
    );
}

#[test]
fn oware_24_24_is_a_draw() {
    let g = game("oware");
    let mut st = set(&g, 1, &[1, 0, 0, 0, 0, 0], &[0, 0, 0, 0, 0, 1], [22, 24]);
    let s = play(&g, &mut st, 6);
    assert_eq!(s["phase"], "over");
    assert_eq!(s["result"]["winner"], Value::Null);
    assert_eq!(s["result"]["scores"], json!([24, 24]));
}

#[test]
fn oware_repetition_ends_the_game_each_takes_their_side() {
    let g = game("oware");
    // One seed each, every move forced: after 12 plies the start position is back.
    let mut st = set(&g, 0, &[1, 0, 0, 0, 0, 0], &[1, 0, 0, 0, 0, 0], [23, 23]);
    let mut plies = 0;
    while g.phase(&st) != Phase::Over {
        let moves = legal(&g, &st);
        assert_eq!(moves.len(), 1, "forced");
        g.play(&mut st, &SowingMove::pit(moves[0]));
        plies += 1;
    }
    assert_eq!(plies, 12);
    let s = g.state_json(&st);
    assert_eq!(s["result"]["reason"], "repetition");
    assert_eq!(s["stores"], json!([24, 24]));
}

// ---------------------------------------------------------------- Kalah

#[test]
fn kalah_last_stone_in_own_store_moves_again() {
    let g = game("kalah");
    let mut st = g.new_game(0);
    let s = play(&g, &mut st, 3);
    assert_eq!(s["pits"], json!([[4, 4, 0, 5, 5, 5], [4, 4, 4, 4, 4, 4]]));
    assert_eq!(s["stores"], json!([1, 0]));
    assert_eq!(s["to_move"], 0);
    // Past the own store into North's pits, never North's store.
    let s = play(&g, &mut st, 6);
    assert_eq!(s["pits"], json!([[4, 4, 0, 5, 5, 0], [5, 5, 5, 5, 4, 4]]));
    assert_eq!(s["stores"], json!([2, 0]));
    assert_eq!(s["to_move"], 1);
}

#[test]
fn kalah_capture_of_the_opposite_pit() {
    let g = game("kalah");
    // South's pit 1 (2 stones) ends in empty pit 3; North's pit 4 faces it.
    let mut st = set(&g, 0, &[2, 1, 0, 4, 4, 4], &[4, 4, 4, 6, 4, 4], [3, 4]);
    let s = play(&g, &mut st, 1);
    assert_eq!(s["pits"], json!([[0, 2, 0, 4, 4, 4], [4, 4, 4, 0, 4, 4]]));
    assert_eq!(s["stores"], json!([10, 4]));
    // No capture when the opposite pit is empty.
    let mut st = set(&g, 0, &[2, 1, 0, 4, 4, 4], &[4, 4, 4, 0, 4, 4], [7, 6]);
    let s = play(&g, &mut st, 1);
    assert_eq!(s["pits"], json!([[0, 2, 1, 4, 4, 4], [4, 4, 4, 0, 4, 4]]));
}

#[test]
fn kalah_ends_when_either_side_is_empty_and_each_takes_their_side() {
    let g = game("kalah");
    // South's pit 6 sows into the store and North's pit 1: South's side is empty, so the game
    // ends at once (North does not play on) and North takes the 21 stones on its side.
    let mut st = set(&g, 0, &[0, 0, 0, 0, 0, 2], &[4, 4, 4, 4, 4, 0], [20, 6]);
    let s = play(&g, &mut st, 6);
    assert_eq!(s["phase"], "over");
    assert_eq!(s["pits"], json!([[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]]));
    assert_eq!(s["stores"], json!([21, 27]));
    assert_eq!(s["result"]["winner"], 1);
}

#[test]
fn kalah_ends_when_the_opponents_side_is_emptied_and_each_takes_their_side() {
    let g = game("kalah");
    // South's pit 1 (2 stones) ends in its empty pit 3, facing North's pit 4 (North's last 3
    // stones): both go to South's store. North's side is empty: the game ends at once by
    // `end.stop` (`opponent.pits == 0`), South taking the 14 stones left on its side.
    let mut st = set(&g, 0, &[2, 1, 0, 4, 4, 4], &[0, 0, 0, 3, 0, 0], [15, 15]);
    let s = play(&g, &mut st, 1);
    assert_eq!(s["phase"], "over");
    assert_eq!(s["pits"], json!([[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]]));
    assert_eq!(s["stores"], json!([33, 15]));
    assert_eq!(
        s["result"],
        json!({"winner": 0, "scores": [33, 15], "reason": "end of play"})
    );
    // Without that half of the condition North would be to move with no stones: the game
    // ends too, but for lack of a move, not by `stop`.
    let g = from_text(&include_str!("../rules/kalah.toml").replace(
        "stop = \"mover.pits == 0 or opponent.pits == 0\"",
        "stop = \"mover.pits == 0\"",
    ));
    let mut st = set(&g, 0, &[2, 1, 0, 4, 4, 4], &[0, 0, 0, 3, 0, 0], [15, 15]);
    let s = play(&g, &mut st, 1);
    assert_eq!(s["result"]["reason"], "no legal move");
    assert_eq!(s["stores"], json!([33, 15]));
}

/// Kalah with Sat-gharva's fours taken on the drop: a store that reaches four keeps its
/// stones (stores are never taken), and no stone is lost.
#[test]
fn take_on_drop_never_takes_a_sown_store() {
    let g = from_text(&include_str!("../rules/kalah.toml").replace(
        "skip_origin = \"never\"",
        "skip_origin = \"never\"\ntake = \"pit.count == 4\"",
    ));
    // South's pit 6 (1 stone) sows into South's store, which then holds 4.
    let mut st = set(&g, 0, &[4, 4, 4, 4, 4, 1], &[4, 4, 4, 4, 4, 4], [3, 0]);
    let s = play(&g, &mut st, 6);
    assert_eq!(stones(&s), 48, "stones lost: {s}");
    assert_eq!(s["stores"], json!([4, 0]));
    assert_eq!(s["pits"], json!([[4, 4, 4, 4, 4, 0], [4, 4, 4, 4, 4, 4]]));
}

// ---------------------------------------------------------------- Sat-gharva

fn sat(to_move: usize, p0: &[u8], p1: &[u8], stores: [u8; 2]) -> (SowingGame, SowingState) {
    let g = game("sat-gharva");
    let st = set(&g, to_move, p0, p1, stores);
    (g, st)
}

#[test]
fn sat_gharva_relay_then_capture_beyond_the_empty_pit() {
    // Pit 1 (2): pits 2, 3; next pit 4 holds 3: relay, sown into 5, 6, 7; next is North's 1,
    // empty: the move ends and North's 2 (2 stones) beyond it is captured.
    let (g, mut st) = sat(0, &[2, 0, 1, 3, 0, 5, 0], &[0, 2, 0, 0, 0, 0, 1], [40, 44]);
    let s = play(&g, &mut st, 1);
    assert_eq!(
        s["pits"],
        json!([[0, 1, 2, 0, 1, 6, 1], [0, 0, 0, 0, 0, 0, 1]])
    );
    assert_eq!(s["stores"], json!([42, 44]));
    assert_eq!(g.last_move_end(&st), MoveEnd::Sown);
}

#[test]
fn sat_gharva_literal_reading_relays_from_the_pit_before_the_last() {
    let text = include_str!("../rules/sat-gharva.toml")
        .replace("relay = \"next\"", "relay = \"previous\"");
    let g = from_text(&text);
    // Pit 1 (2): pits 2, 3. The pit before the last, pit 2, holds 1: relay into pit 3 (now 2).
    // The pit before pit 3 is now empty: the move ends; beyond it, going the same way, pit 1
    // is skipped (the origin) and North's pit 7 (5 stones) is captured.
    let mut st = set(
        &g,
        0,
        &[2, 0, 0, 0, 0, 0, 0],
        &[1, 0, 0, 0, 0, 0, 5],
        [45, 45],
    );
    let s = play(&g, &mut st, 1);
    assert_eq!(
        s["pits"],
        json!([[0, 0, 2, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0]])
    );
    assert_eq!(s["stores"], json!([50, 45]));
}

#[test]
fn sat_gharva_empty_next_pit_captures_the_pit_beyond() {
    let (g, mut st) = sat(0, &[2, 0, 1, 0, 5, 0, 0], &[1, 0, 0, 0, 0, 0, 0], [40, 49]);
    let s = play(&g, &mut st, 1);
    assert_eq!(
        s["pits"],
        json!([[0, 1, 2, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0]])
    );
    assert_eq!(s["stores"], json!([45, 49]));
}

#[test]
fn sat_gharva_four_made_by_the_last_stone_goes_to_its_owner_and_the_relay_goes_on() {
    // Pit 1 (3): 2, 3, 4; pit 4 makes 4: South takes it. Next pit 5 holds 1: relay into 6
    // (making 1); next pit 7 is empty: capture North's pit 1 beyond it.
    let (g, mut st) = sat(0, &[3, 0, 0, 3, 1, 0, 0], &[2, 0, 0, 0, 1, 0, 0], [40, 48]);
    let s = play(&g, &mut st, 1);
    assert_eq!(
        s["pits"],
        json!([[0, 1, 1, 0, 0, 1, 0], [0, 0, 0, 0, 1, 0, 0]])
    );
    assert_eq!(s["stores"], json!([46, 48]));
}

#[test]
fn sat_gharva_four_on_the_opponents_side_goes_to_the_opponent() {
    // Pit 7 (2): North's 1 (3 → 4: North takes it) and North's 2; next North's 3 empty:
    // capture North's 4 (5 stones).
    let (g, mut st) = sat(0, &[0, 0, 0, 0, 0, 0, 2], &[3, 0, 0, 5, 0, 0, 0], [40, 48]);
    let s = play(&g, &mut st, 7);
    assert_eq!(
        s["pits"],
        json!([[0, 0, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0, 0]])
    );
    assert_eq!(s["stores"], json!([45, 52]));
}

#[test]
fn sat_gharva_origin_skipped_for_the_whole_move() {
    // 14 stones from pit 1: 13 pits get one, the 14th skips pit 1 into pit 2 (2 stones).
    // The next pit 3 holds 1: relay sows it into pit 4 (now 2); next pit 5 holds 1: relay into
    // 6 ... along to North's 7 whose next is South's 1 — skipped — so South's 2 is next.
    let (g, mut st) = sat(0, &[14, 0, 0, 0, 0, 0, 0], &[0, 0, 0, 0, 0, 0, 0], [42, 42]);
    let _ = play(&g, &mut st, 1);
    let s = g.state_json(&st);
    assert_eq!(
        s["pits"][0][0], 0,
        "the origin never receives a stone in its own move"
    );
    let total: u64 = s["pits"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r.as_array().unwrap().iter())
        .map(|v| v.as_u64().unwrap())
        .sum::<u64>()
        + s["stores"][0].as_u64().unwrap()
        + s["stores"][1].as_u64().unwrap();
    assert_eq!(total, 98);
}

/// A position where sowing pit 1 or 2 relays round and round: the in-move state repeats.
const ENDLESS: ([u8; 7], [u8; 7], [u8; 2]) =
    ([2, 9, 0, 9, 8, 3, 8], [1, 2, 11, 0, 1, 4, 1], [19, 20]);

#[test]
fn sat_gharva_a_move_that_would_sow_forever_ends_at_the_repeat() {
    let (g, st) = sat(0, &ENDLESS.0, &ENDLESS.1, ENDLESS.2);
    for pit in [1, 2] {
        let mut t = st.clone();
        g.play(&mut t, &SowingMove::pit(pit));
        assert_eq!(g.last_move_end(&t), MoveEnd::Cycle);
        assert_eq!(stones(&g.state_json(&t)), 98);
    }
}

#[test]
fn sat_gharva_lap_cap_from_the_rules_file() {
    let text = include_str!("../rules/sat-gharva.toml").replace("max_laps = 1000", "max_laps = 1");
    let g = from_text(&text);
    let mut st = set(&g, 0, &ENDLESS.0, &ENDLESS.1, ENDLESS.2);
    g.play(&mut st, &SowingMove::pit(1));
    assert_eq!(g.last_move_end(&st), MoveEnd::LapCap);
}

#[test]
fn sat_gharva_round_end_refill_with_a_partial_pit_and_next_round() {
    let g = game("sat-gharva");
    // South to move has no stones: the round ends, North takes their side (18 + 20 = 38).
    let st = g
        .state_from_json(&json!({"to_move": 0, "pits": [[0, 0, 0, 0, 0, 0, 0], [3, 3, 3, 3, 2, 2, 2]], "stores": [60, 20], "out_of_play": [[], []], "match": {"game": 3, "points": [49, 49]}}))
        .unwrap();
    let s = g.state_json(&st);
    assert_eq!(s["phase"], "over");
    assert_eq!(s["result"]["scores"], json!([60, 38]));
    assert_eq!(
        s["match"],
        json!({"game": 3, "points": [60, 38], "over": false, "winner": null})
    );
    // Who starts is the odd-or-even guess again (the caller's); here North.
    assert_eq!(g.next_starter(&st), None);
    let next = g.next_game(&st, 1).expect("the match goes on");
    let s = g.state_json(&next);
    // North (38): pits 7..3 full (35), pit 2 keeps 3 but is out of play, pit 1 unfilled.
    assert_eq!(
        s["pits"],
        json!([[7, 7, 7, 7, 7, 7, 7], [0, 3, 7, 7, 7, 7, 7]])
    );
    assert_eq!(s["stores"], json!([11, 0]));
    assert_eq!(s["out_of_play"], json!([[], [1, 2]]));
    assert_eq!(s["to_move"], 1, "the starter given");
    assert_eq!(
        s["match"],
        json!({"game": 4, "points": [60, 38], "over": false, "winner": null})
    );
    // Out-of-play pits are never a move's start and never sown.
    assert_eq!(legal(&g, &next), vec![3, 4, 5, 6, 7]);
    let mut t = next.clone();
    g.play(&mut t, &SowingMove::pit(7));
    let s = g.state_json(&t);
    assert_eq!(s["pits"][1][0], 0);
    assert_eq!(s["pits"][1][1], 3);
}

#[test]
fn sat_gharva_closed_pits_reopen_when_stones_are_won_back() {
    let g = game("sat-gharva");
    let st = g
        .state_from_json(&json!({"to_move": 1, "pits": [[0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0]], "stores": [45, 53], "out_of_play": [[], [1, 2]], "match": {"game": 4, "points": [60, 38]}}))
        .unwrap();
    let next = g.next_game(&st, 0).unwrap();
    let s = g.state_json(&next);
    assert_eq!(
        s["out_of_play"],
        json!([[1], []]),
        "North reopens, South closes pit 1"
    );
    assert_eq!(
        s["pits"],
        json!([[3, 7, 7, 7, 7, 7, 7], [7, 7, 7, 7, 7, 7, 7]])
    );
    assert_eq!(s["stores"], json!([0, 4]));
    assert_eq!(s["to_move"], 0);
}

#[test]
fn sat_gharva_fewer_than_seven_loses_the_match() {
    let g = game("sat-gharva");
    let st = g
        .state_from_json(&json!({"to_move": 1, "pits": [[0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0]], "stores": [92, 6], "out_of_play": [[], [1, 2, 3, 4]], "match": {"game": 9, "points": [85, 13]}}))
        .unwrap();
    let s = g.state_json(&st);
    assert_eq!(
        s["match"],
        json!({"game": 9, "points": [92, 6], "over": true, "winner": 0})
    );
    assert!(g.next_game(&st, 0).is_none());
    assert_eq!(g.next_starter(&st), None);
}

#[test]
fn sat_gharva_after_a_drawn_round_the_non_starter_starts() {
    // The rule "the loser starts the next round" (an option; the default is the ritual).
    let text = ludus::rules::Source::find("sat-gharva")
        .unwrap()
        .text
        .replace("next_first = \"ritual\"", "next_first = \"loser\"");
    let g = from_text(&text);
    let drawn = g
        .state_from_json(&json!({"to_move": 0, "pits": [[0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0]], "stores": [49, 49], "out_of_play": [[], []]}))
        .unwrap();
    assert_eq!(g.outcome(&drawn).unwrap().winner, None);
    // A set position's starter is the player to move (0): the next round starts with 1.
    assert_eq!(g.next_starter(&drawn), Some(1));
    let next = g.next_game(&drawn, 1).unwrap();
    assert_eq!(g.state_json(&next)["to_move"], 1);
    assert_eq!(
        g.state_json(&next)["pits"],
        json!([[7, 7, 7, 7, 7, 7, 7], [7, 7, 7, 7, 7, 7, 7]])
    );
}

// ---------------------------------------------------------------- Uuholo

#[test]
fn uuholo_forced_opening_on_a_new_game_only() {
    let g = game("uuholo");
    let mut st = g.new_game(0);
    assert_eq!(legal(&g, &st), vec![2]);
    let s = play(&g, &mut st, 2);
    assert_eq!(
        s["pits"][0],
        json!([4, 0, 1, 1, 1, 1, 0, 0, 4, 4, 4, 4, 4, 4, 4, 4])
    );
    assert_eq!(legal(&g, &st), vec![1, 2, 9, 10, 11, 12, 13, 14, 15, 16]);
    // The STATE says the forced move is still to come, and so keeps it ...
    let mut start = g.state_json(&g.new_game(0));
    assert_eq!(start["opening"], json!(true));
    let st = g.state_from_json(&start).unwrap();
    assert_eq!(legal(&g, &st), vec![2]);
    assert_eq!(g.state_json(&st), start);
    // ... and a position set up by hand without it is not a new game.
    start.as_object_mut().unwrap().remove("opening");
    let st = g.state_from_json(&start).unwrap();
    assert_eq!(legal(&g, &st), vec![1, 2, 9, 10, 11, 12, 13, 14, 15, 16]);
    // Rules without a forced first move refuse one.
    let oware = game("oware");
    let mut s = oware.state_json(&oware.new_game(0));
    s["opening"] = json!(true);
    let e = oware.state_from_json(&s).unwrap_err().to_string();
    assert!(e.contains("force no first move"), "{e}");
}

fn uu(g: &SowingGame, to_move: usize, p0: &[u8], p1: &[u8], stores: [u8; 2]) -> SowingState {
    assert_eq!(p0.len(), 16);
    set(g, to_move, p0, p1, stores)
}

#[test]
fn uuholo_sows_round_own_sixteen_pits_only() {
    // The reading "the last stone falls into an empty pit" (the sowing is the same in all).
    let g = game("uuholo-empty-pit");
    let mut p0 = [0u8; 16];
    p0[7] = 3; // inner pit 8
    p0[15] = 18; // outer pit 16: laps the whole side
    let p1 = [1u8; 16];
    let mut st = uu(&g, 0, &p0, &p1, [20, 23]);
    let s = play(&g, &mut st, 8);
    // Pit 8 → 9, 10, 11 (inner row on into the outer row); pit 11 now holds 1 → capture
    // North's outer pit 25 − 11 = 14.
    assert_eq!(
        s["pits"][0],
        json!([0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 18])
    );
    assert_eq!(s["pits"][1][13], 0);
    assert_eq!(s["stores"], json!([21, 23]));
    let mut st = set(
        &g,
        0,
        &s["pits"][0]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as u8)
            .collect::<Vec<_>>(),
        &[1; 16],
        [20, 23],
    );
    let s = play(&g, &mut st, 16);
    // 18 stones from 16: every own pit gets one (16 included), then 1 and 2 once more.
    assert_eq!(
        s["pits"][0],
        json!([2, 2, 1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1])
    );
    assert_eq!(
        s["pits"][1],
        json!([1u8; 16].to_vec()),
        "the opponent's pits are never sown"
    );
}

#[test]
fn uuholo_inner_capture_takes_the_opposite_inner_pit() {
    let g = game("uuholo");
    let mut p0 = [0u8; 16];
    p0[0] = 2; // pit 1 → 2, 3: pit 3 held one stone, now two
    p0[2] = 1;
    let mut p1 = [2u8; 16];
    p1[5] = 7; // North's inner pit 6 = 9 − 3
    let total: u32 = 3 + 15 * 2 + 7;
    let mut st = uu(&g, 0, &p0, &p1, [(80 - total) as u8, 0]);
    let s = play(&g, &mut st, 1);
    assert_eq!(s["pits"][1][5], 0);
    assert_eq!(s["stores"][0], 80 - total + 7);
}

#[test]
fn uuholo_no_capture_when_the_last_pit_was_empty_or_held_more() {
    let g = game("uuholo");
    // Pit 3 was empty: it now holds one, no capture by default.
    let mut p0 = [0u8; 16];
    p0[0] = 2;
    let mut st = uu(&g, 0, &p0, &[2; 16], [46, 0]);
    let s = play(&g, &mut st, 1);
    assert_eq!(s["stores"], json!([46, 0]));
    // Pit 3 held two: it now holds three, no capture.
    p0[2] = 2;
    let mut st = uu(&g, 0, &p0, &[2; 16], [44, 0]);
    let s = play(&g, &mut st, 1);
    assert_eq!(s["stores"], json!([44, 0]));
}

/// The same position and move in Uuholo and in `variant`: the STATEs after the move.
fn uuholo_and(variant: &str, p0: &[u8], p1: &[u8], stores: [u8; 2], pit: u8) -> (Value, Value) {
    let after = |name: &str| {
        let g = game(name);
        let mut st = uu(&g, 0, p0, p1, stores);
        play(&g, &mut st, pit)
    };
    (after("uuholo"), after(variant))
}

#[test]
fn uuholo_empty_pit_captures_where_the_last_pit_was_empty() {
    // South's pit 1 (2 stones) sows pits 2 and 3; North's inner pit 6 (= 9 - 3, 5 stones)
    // faces pit 3.
    let mut p1 = [1u8; 16];
    p1[5] = 5;
    // Pit 3 held one and now holds two: Uuholo captures, the variant does not.
    let mut p0 = [0u8; 16];
    p0[0] = 2;
    p0[2] = 1;
    let (uuholo, empty_pit) = uuholo_and("uuholo-empty-pit", &p0, &p1, [37, 20], 1);
    assert_eq!(uuholo["stores"], json!([42, 20]));
    assert_eq!(uuholo["pits"][1][5], 0);
    assert_eq!(empty_pit["stores"], json!([37, 20]));
    assert_eq!(empty_pit["pits"][1][5], 5);
    assert_eq!(uuholo["pits"][0], empty_pit["pits"][0]);
    // Pit 3 was empty and now holds one: the variant captures, Uuholo does not.
    p0[2] = 0;
    let (uuholo, empty_pit) = uuholo_and("uuholo-empty-pit", &p0, &p1, [38, 20], 1);
    assert_eq!(uuholo["stores"], json!([38, 20]));
    assert_eq!(uuholo["pits"][1][5], 5);
    assert_eq!(empty_pit["stores"], json!([43, 20]));
    assert_eq!(empty_pit["pits"][1][5], 0);
}

#[test]
fn uuholo_both_rows_captures_the_whole_column() {
    // South's pit 1 (2 stones) ends in inner pit 3, which held one stone; its column holds
    // North's inner pit 6 (5 stones) and outer pit 11 (6 stones).
    let mut p0 = [0u8; 16];
    p0[0] = 2;
    p0[2] = 1;
    let mut p1 = [1u8; 16];
    p1[5] = 5;
    p1[10] = 6;
    let (uuholo, both_rows) = uuholo_and("uuholo-both-rows", &p0, &p1, [32, 20], 1);
    // Uuholo takes the facing pit of the same row only.
    assert_eq!(uuholo["stores"], json!([37, 20]));
    assert_eq!(
        (&uuholo["pits"][1][5], &uuholo["pits"][1][10]),
        (&json!(0), &json!(6))
    );
    // The variant takes the inner and the outer pit.
    assert_eq!(both_rows["stores"], json!([43, 20]));
    assert_eq!(
        (&both_rows["pits"][1][5], &both_rows["pits"][1][10]),
        (&json!(0), &json!(0))
    );
    // Nothing else differs.
    let mut rest = p1.to_vec();
    rest[5] = 0;
    assert_eq!(uuholo["pits"][0], both_rows["pits"][0]);
    for k in (0..16).filter(|&k| k != 10) {
        assert_eq!(
            both_rows["pits"][1][k],
            json!(rest[k]),
            "North's pit {}",
            k + 1
        );
        assert_eq!(
            uuholo["pits"][1][k],
            json!(rest[k]),
            "North's pit {}",
            k + 1
        );
    }
}

#[test]
fn uuholo_ply_limit_and_agreement() {
    let mut g = game("uuholo");
    g.set_max_plies(3);
    let mut st = g.new_game(0);
    for _ in 0..3 {
        let m = legal(&g, &st)[0];
        g.play(&mut st, &SowingMove::pit(m));
    }
    let s = g.state_json(&st);
    assert_eq!(s["phase"], "over");
    assert_eq!(s["result"]["reason"], "ply limit");
    let g = game("uuholo");
    let mut st = uu(&g, 0, &[1; 16], &[1; 16], [30, 18]);
    assert!(g.end_by_agreement(&mut st));
    let s = g.state_json(&st);
    assert_eq!(
        s["result"],
        json!({"winner": 0, "scores": [30, 18], "reason": "agreement"})
    );
    assert_eq!(
        s["pits"][0],
        json!([1u8; 16].to_vec()),
        "stones on the board are not counted"
    );
    // Oware has no agreement rule.
    let o = game("oware");
    let mut st = o.new_game(0);
    assert!(!o.end_by_agreement(&mut st));
}

// ---------------------------------------------------------------- the STATE form

#[test]
fn set_rejects_impossible_positions() {
    let g = game("oware");
    let bad = [
        json!({"to_move": 0, "pits": [[4, 4, 4, 4, 4, 4], [4, 4, 4, 4, 4]], "stores": [0, 0]}),
        json!({"to_move": 0, "pits": [[4, 4, 4, 4, 4, 4], [4, 4, 4, 4, 4, 5]], "stores": [0, 0]}),
        json!({"to_move": 0, "pits": [[4, 4, 4, 4, 4, -4], [4, 4, 4, 4, 4, 4]], "stores": [8, 0]}),
        json!({"to_move": 2, "pits": [[4, 4, 4, 4, 4, 4], [4, 4, 4, 4, 4, 4]], "stores": [0, 0]}),
        json!({"to_move": 0, "pits": [[4, 4, 4, 4, 4, 4], [4, 4, 4, 4, 4, 4]], "stores": [0]}),
        json!({"to_move": 0, "pits": [[4, 4, 4, 4, 4, 4], [4, 4, 4, 4, 4, 4]], "stores": [0, 0], "out_of_play": [[1], []]}),
        json!({"to_move": 0, "pits": "x", "stores": [0, 0]}),
        json!([1, 2]),
    ];
    for b in bad {
        assert!(g.state_from_json(&b).is_err(), "accepted {b}");
    }
    let start = g.new_game(1);
    assert_eq!(g.state_from_json(&g.state_json(&start)).unwrap(), start);
}

/// A game over by `end.score` leaves the board as it is; its STATE reads back as the same
/// position and result, even when the score condition depends on who moved.
#[test]
fn a_game_over_by_score_reads_back_as_itself() {
    let g = from_text(&include_str!("../rules/oware.toml").replace(
        "score = \"mover.store >= 25 or opponent.store >= 25 or (mover.store == 24 and opponent.store == 24)\"",
        "score = \"mover.store >= 20\"",
    ));
    // South's last stone makes 2 in North's pit 1: captured, South reaches 20 and wins; the
    // 21 stones on North's side stay there.
    let mut st = set(&g, 0, &[0, 0, 0, 0, 0, 1], &[1, 4, 4, 4, 4, 4], [18, 8]);
    let s = play(&g, &mut st, 6);
    assert_eq!(s["phase"], "over");
    assert_eq!(s["pits"], json!([[0, 0, 0, 0, 0, 0], [0, 4, 4, 4, 4, 4]]));
    assert_eq!(s["result"]["winner"], 0);
    assert_eq!(s["result"]["scores"], json!([20, 8]));
    let back = g.state_json(&g.state_from_json(&s).unwrap());
    assert_eq!(back["pits"], s["pits"]);
    assert_eq!(back["stores"], s["stores"]);
    assert_eq!(back["result"]["winner"], 0);
    assert_eq!(back["result"]["scores"], json!([20, 8]));
}

/// After an extra turn the player to move also made the last move; the STATE of that running
/// position reads back as itself, even when an end condition depends on who moved.
#[test]
fn an_extra_turn_reads_back_as_itself() {
    // Kalah, ending when the mover's side is empty or the opponent has one stone left.
    let g = from_text(&include_str!("../rules/kalah.toml").replace(
        "stop = \"mover.pits == 0 or opponent.pits == 0\"",
        "stop = \"mover.pits == 0 or opponent.pits == 1\"",
    ));
    // South's pit 6 (1 stone) ends in South's store: South moves again, with 1 stone left.
    let mut st = set(&g, 0, &[0, 0, 0, 0, 1, 1], &[4, 4, 4, 4, 4, 4], [11, 11]);
    let s = play(&g, &mut st, 6);
    assert_eq!(s["phase"], "move");
    assert_eq!(s["to_move"], 0);
    let back = g.state_from_json(&s).unwrap_or_else(|e| panic!("{e}: {s}"));
    assert_eq!(g.state_json(&back), s);
}

#[test]
fn moves_parse_and_print_in_the_protocol_forms() {
    let g = game("oware");
    let st = set(&g, 0, &[0, 4, 4, 4, 4, 4], &[4, 4, 4, 4, 4, 8], [0, 0]);
    assert_eq!(g.parse_move(&st, " 3 ").unwrap(), SowingMove::pit(3));
    assert!(g
        .parse_move(&st, "1")
        .unwrap_err()
        .to_string()
        .contains("empty"));
    assert!(g.parse_move(&st, "7").is_err());
    assert!(g.parse_move(&st, "x").is_err());
    assert_eq!(
        g.move_json(&st, &SowingMove::pit(3)),
        json!({"text": "3", "pit": 3})
    );
    assert_eq!(g.move_text(&st, &SowingMove::pit(3)), "3");
}

#[test]
fn a_new_variant_needs_no_rust_changes() {
    // Clockwise Oware with 5 seeds a pit and captures of 4 and 5.
    let text = include_str!("../rules/oware.toml")
        .replace(
            "direction = \"counterclockwise\"",
            "direction = \"clockwise\"",
        )
        .replace("stones = 4", "stones = 5")
        .replace("[2, 3]", "[4, 5]")
        .replace(">= 25", ">= 31")
        .replace("== 24", "== 30");
    let g = from_text(&text);
    let mut st = g.new_game(0);
    // South's pit 1 sown clockwise reaches North's pits 6, 5, 4, 3, 2: pit 2 makes 6, no
    // capture; the seeds went the other way round.
    let s = play(&g, &mut st, 1);
    assert_eq!(s["pits"], json!([[0, 5, 5, 5, 5, 5], [5, 6, 6, 6, 6, 6]]));
}

#[test]
fn a_game_without_any_ending_rule_still_ends() {
    // Oware without its repetition rule: one seed each, every move forced, round and round.
    let g = from_text(
        &include_str!("../rules/oware.toml").replace("repetition = true", "repetition = false"),
    );
    let mut st = set(&g, 0, &[1, 0, 0, 0, 0, 0], &[1, 0, 0, 0, 0, 0], [23, 23]);
    while g.phase(&st) != Phase::Over {
        let m = legal(&g, &st)[0];
        g.play(&mut st, &SowingMove::pit(m));
    }
    assert_eq!(st.ply(), ludus::limits::LIMITS.plies_per_game);
    assert_eq!(g.state_json(&st)["result"]["reason"], "ply limit");
}

/// The repetition rule costs about as much a ply in a long game as in a short one: a game
/// without captures played to the ply guard takes well under a second (3 ms without the rule
/// on the machine this was written on).
#[test]
fn the_repetition_rule_stays_cheap_in_a_long_game() {
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    let g = from_text(
        &include_str!("../rules/oware.toml")
            .replace("when = \"last.side", "when = \"false and last.side"),
    );
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let started = std::time::Instant::now();
    let mut st = g.new_game(0);
    while g.phase(&st) != Phase::Over {
        let moves = legal(&g, &st);
        g.play(&mut st, &SowingMove::pit(*moves.choose(&mut rng).unwrap()));
    }
    let took = started.elapsed();
    assert_eq!(st.ply(), ludus::limits::LIMITS.plies_per_game);
    assert!(took.as_secs_f64() < 1.0, "{took:?}");
}
