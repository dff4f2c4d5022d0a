//! The sowing language's general mechanisms, each through known positions with known results.

mod sowing_common;

use serde_json::json;
use sowing_common::{from_text, position, sow_pit};

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
