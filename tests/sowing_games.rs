//! Toguz Korgool, Ayoayo, Dakon, Das Bohnenspiel and Omweso: each rule of each bundled file on a
//! known position with a known result, through the public `Game` API.

mod sowing_common;

use ludus::game::{Game, Json, Phase, View};
use ludus::sowing::{SowingGame, SowingMove, SowingState};
use serde_json::{json, Value};
use sowing_common::{from_text, game};

/// A position: `to_move`, each player's pits in their own numbering, the stores, and (for
/// Toguz Korgool) the houses.
fn set(g: &SowingGame, to_move: usize, p0: &[u8], p1: &[u8], stores: [u8; 2]) -> SowingState {
    set_houses(g, to_move, p0, p1, stores, json!(null))
}

fn set_houses(
    g: &SowingGame,
    to_move: usize,
    p0: &[u8],
    p1: &[u8],
    stores: [u8; 2],
    houses: Value,
) -> SowingState {
    g.state_from_json(
        &json!({"to_move": to_move, "pits": [p0, p1], "stores": stores, "houses": houses}),
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// The legal moves as pit numbers (these games sow every pit one way round).
fn legal(g: &SowingGame, st: &SowingState) -> Vec<u8> {
    let mut v = Vec::new();
    g.legal_moves(st, &mut v);
    v.iter().map(|m| m.sown_pit().expect("a pit")).collect()
}

fn play(g: &SowingGame, st: &mut SowingState, pit: u8) -> Value {
    assert!(
        legal(g, st).contains(&pit),
        "pit {pit} not legal in {}",
        g.state_json(st)
    );
    g.play(st, &SowingMove::pit(pit));
    g.state_json(st)
}

// ---------------------------------------------------------------- Toguz Korgool

#[test]
fn toguz_korgool_sows_the_first_stone_back_into_its_pit() {
    let g = game("toguz-korgool");
    let mut st = set(&g, 0, &[9, 9, 5, 9, 9, 9, 9, 9, 9], &[9; 9], [4, 0]);
    let s = play(&g, &mut st, 3);
    assert_eq!(s["pits"][0], json!([9, 9, 1, 10, 10, 10, 10, 9, 9]));
    assert_eq!(s["to_move"], 1);
}

#[test]
fn toguz_korgool_moves_a_single_stone_on() {
    let g = game("toguz-korgool");
    let mut st = set(&g, 0, &[9, 9, 1, 9, 9, 9, 9, 9, 9], &[9; 9], [8, 0]);
    let s = play(&g, &mut st, 3);
    assert_eq!(s["pits"][0], json!([9, 9, 0, 10, 9, 9, 9, 9, 9]));
}

#[test]
fn toguz_korgool_captures_an_even_count_on_the_opponents_side_only() {
    let g = game("toguz-korgool");
    // Pit 9 (3 stones): one back into pit 9, then North's 1 and 2; North's 2 makes 10.
    let mut st = set(&g, 0, &[9, 9, 9, 9, 9, 9, 9, 9, 3], &[9; 9], [6, 0]);
    let s = play(&g, &mut st, 9);
    assert_eq!(
        s["pits"],
        json!([[9, 9, 9, 9, 9, 9, 9, 9, 1], [10, 0, 9, 9, 9, 9, 9, 9, 9]])
    );
    assert_eq!(s["stores"], json!([16, 0]));
    // An odd count is not taken: North's 2 makes 9.
    let mut st = set(
        &g,
        0,
        &[9, 9, 9, 9, 9, 9, 9, 9, 3],
        &[9, 8, 9, 9, 9, 9, 9, 9, 9],
        [7, 0],
    );
    let s = play(&g, &mut st, 9);
    assert_eq!(s["pits"][1], json!([10, 9, 9, 9, 9, 9, 9, 9, 9]));
    assert_eq!(s["stores"], json!([7, 0]));
    // An even count on the mover's own side is not taken: pit 1 (2) ends in pit 2 (9 -> 10).
    let mut st = set(&g, 0, &[2, 9, 9, 9, 9, 9, 9, 9, 9], &[9; 9], [7, 0]);
    let s = play(&g, &mut st, 1);
    assert_eq!(s["pits"][0], json!([1, 10, 9, 9, 9, 9, 9, 9, 9]));
    assert_eq!(s["stores"], json!([7, 0]));
}

#[test]
fn toguz_korgool_makes_a_house_of_a_pit_brought_to_three() {
    let g = game("toguz-korgool");
    let mut st = set(
        &g,
        0,
        &[9, 9, 9, 9, 9, 9, 9, 9, 3],
        &[9, 2, 9, 9, 9, 9, 9, 9, 9],
        [13, 0],
    );
    let s = play(&g, &mut st, 9);
    assert_eq!(s["houses"], json!([[1, 2], null]));
    assert_eq!(s["pits"][1], json!([10, 0, 9, 9, 9, 9, 9, 9, 9]));
    assert_eq!(s["stores"], json!([16, 0]));
    assert!(g.render(&st, 0).contains("H0"));
    // North's pit 1 (10): one back in, then 2..9 and South's 1 (now 10, even: North takes
    // it); the stone sown into South's house (North's pit 2) goes to South's store.
    let s = play(&g, &mut st, 1);
    assert_eq!(s["pits"][1], json!([1, 0, 10, 10, 10, 10, 10, 10, 10]));
    assert_eq!(s["pits"][0][0], 0);
    assert_eq!(s["stores"], json!([17, 10]));
    // The house is never played: it holds no stones.
    assert!(!legal(&g, &st).is_empty());
    assert_eq!(g.state_json(&st)["houses"], json!([[1, 2], null]));
}

#[test]
fn toguz_korgool_makes_no_house_of_the_ninth_pit_nor_a_second_nor_a_mirror() {
    let g = game("toguz-korgool");
    // The opponent's 9th pit brought to 3: neither a house nor a capture.
    let mut st = set(
        &g,
        0,
        &[9, 9, 9, 9, 9, 9, 9, 9, 10],
        &[9, 9, 9, 9, 9, 9, 9, 9, 2],
        [6, 0],
    );
    let s = play(&g, &mut st, 9);
    assert_eq!(s["houses"], json!([null, null]));
    assert_eq!(s["pits"][1], json!([10, 10, 10, 10, 10, 10, 10, 10, 3]));
    assert_eq!(s["stores"], json!([6, 0]));
    // A second house: South has one (North's 5) and brings North's 2 to 3: no house.
    let mut st = set_houses(
        &g,
        0,
        &[9, 9, 9, 9, 9, 9, 9, 9, 3],
        &[9, 2, 9, 9, 0, 9, 9, 9, 9],
        [22, 0],
        json!([[1, 5], null]),
    );
    let s = play(&g, &mut st, 9);
    assert_eq!(s["houses"], json!([[1, 5], null]));
    assert_eq!(s["pits"][1][1], 3);
    // North's house is South's pit 2: South may not make North's pit 2 a house, but may make
    // North's pit 3 one.
    let mut st = set_houses(
        &g,
        0,
        &[9, 0, 9, 9, 9, 9, 9, 9, 3],
        &[9, 2, 9, 9, 9, 9, 9, 9, 9],
        [13, 9],
        json!([null, [0, 2]]),
    );
    let s = play(&g, &mut st, 9);
    assert_eq!(s["houses"], json!([null, [0, 2]]));
    assert_eq!(s["pits"][1][1], 3);
    let mut st = set_houses(
        &g,
        0,
        &[9, 0, 9, 9, 9, 9, 9, 9, 4],
        &[9, 9, 2, 9, 9, 9, 9, 9, 9],
        [12, 9],
        json!([null, [0, 2]]),
    );
    let s = play(&g, &mut st, 9);
    assert_eq!(s["houses"], json!([[1, 3], [0, 2]]));
    assert_eq!(s["stores"], json!([15, 9]));
}

#[test]
fn toguz_korgool_ends_past_81_and_gives_each_side_to_its_owner_when_stuck() {
    let g = game("toguz-korgool");
    // 80 in store, a capture of 2 (North's 1: 1 -> 2): 82, the game is over at once.
    let mut st = set(
        &g,
        0,
        &[0, 0, 0, 0, 0, 0, 0, 0, 1],
        &[1, 40, 40, 0, 0, 0, 0, 0, 0],
        [80, 0],
    );
    let s = play(&g, &mut st, 9);
    assert_eq!(s["phase"], "over");
    assert_eq!(s["result"]["winner"], 0);
    assert_eq!(s["stores"], json!([82, 0]));
    // South has nothing left to sow: North's stones stay North's.
    let st = set(&g, 0, &[0; 9], &[1, 40, 40, 0, 0, 0, 0, 0, 0], [81, 0]);
    assert_eq!(g.phase(&st), Phase::Over);
    assert_eq!(g.state_json(&st)["stores"], json!([81, 81]));
    assert_eq!(g.state_json(&st)["result"]["winner"], Value::Null);
}

// ---------------------------------------------------------------- Ayoayo

#[test]
fn ayoayo_captures_the_facing_pit_from_an_empty_pit_of_ones_own() {
    let g = game("ayoayo");
    // Pit 1 (2) ends in South's empty pit 3, which faces North's pit 4 (5 seeds).
    let mut st = set(&g, 0, &[2, 0, 0, 0, 0, 0], &[4, 4, 4, 5, 4, 4], [21, 0]);
    let s = play(&g, &mut st, 1);
    assert_eq!(s["pits"], json!([[0, 1, 1, 0, 0, 0], [4, 4, 4, 0, 4, 4]]));
    assert_eq!(s["stores"], json!([26, 0]));
}

#[test]
fn ayoayo_relays_from_an_occupied_last_pit_and_ends_in_an_empty_one() {
    let g = game("ayoayo");
    // Pit 5 (1) falls into pit 6 (2): its 3 are lifted and sown into North's empty 1..3.
    let mut st = set(&g, 0, &[1, 1, 1, 1, 1, 2], &[0, 0, 0, 4, 4, 4], [29, 0]);
    let s = play(&g, &mut st, 5);
    assert_eq!(s["pits"], json!([[1, 1, 1, 1, 0, 0], [1, 1, 1, 4, 4, 4]]));
    assert_eq!(s["stores"], json!([29, 0]));
}

#[test]
fn ayoayo_skips_the_pit_being_sown_from_in_every_lap_and_must_feed() {
    let g = game("ayoayo");
    // North is empty: only pit 6 feeds. Its 12 seeds skip pit 6, the 12th falls into North's
    // 1 (now 2), relayed skipping each lifted pit: N1 -> N2, N3; N3 -> N4, N5; N5 -> N6, S1;
    // S1 -> S2, S3; S3 -> S4, S5; S5 -> S6, N1 (empty): the move ends.
    let mut st = set(&g, 0, &[0, 0, 0, 1, 0, 12], &[0; 6], [35, 0]);
    assert_eq!(legal(&g, &st), vec![6]);
    let s = play(&g, &mut st, 6);
    assert_eq!(s["pits"], json!([[0, 2, 0, 3, 0, 1], [1, 2, 0, 2, 0, 2]]));
}

#[test]
fn ayoayo_gives_the_seeds_left_to_the_player_who_moved_last() {
    let g = game("ayoayo");
    // North to move cannot feed South: the game ends, North's seed goes to South.
    let st = set(&g, 1, &[0; 6], &[1, 0, 0, 0, 0, 0], [30, 17]);
    let s = g.state_json(&st);
    assert_eq!(s["phase"], "over");
    assert_eq!(s["stores"], json!([31, 17]));
}

// ---------------------------------------------------------------- Dakon

#[test]
fn dakon_sows_its_own_store_and_moves_again_ending_there() {
    let g = game("dakon");
    let mut st = set(&g, 0, &[7, 7, 7, 7, 7, 7, 1], &[7; 7], [6, 0]);
    let s = play(&g, &mut st, 7);
    assert_eq!(s["stores"], json!([7, 0]));
    assert_eq!(s["to_move"], 0);
}

#[test]
fn dakon_skips_the_opponents_store_and_captures_the_facing_pit_and_the_last_seed() {
    let g = game("dakon");
    // Pit 7 (9): own store, North's 1..7, then South's empty pit 1 (North's store skipped),
    // facing North's 7 (now 8): the mover takes 8 + 1.
    let mut st = set(&g, 0, &[0, 7, 7, 7, 7, 7, 9], &[7; 7], [5, 0]);
    let s = play(&g, &mut st, 7);
    assert_eq!(
        s["pits"],
        json!([[0, 7, 7, 7, 7, 7, 0], [8, 8, 8, 8, 8, 8, 0]])
    );
    assert_eq!(s["stores"], json!([15, 0]));
    assert_eq!(s["to_move"], 1);
}

#[test]
fn dakon_relays_from_an_occupied_pit_and_stops_in_an_empty_one() {
    let g = game("dakon");
    // Pit 5 (1) into pit 6 (2 -> 3): lifted, sown into pit 7, the store and North's empty 1.
    let mut st = set(
        &g,
        0,
        &[7, 7, 7, 7, 1, 2, 0],
        &[0, 7, 7, 7, 7, 7, 7],
        [25, 0],
    );
    let s = play(&g, &mut st, 5);
    assert_eq!(
        s["pits"],
        json!([[7, 7, 7, 7, 0, 0, 1], [1, 7, 7, 7, 7, 7, 7]])
    );
    assert_eq!(s["stores"], json!([26, 0]));
    assert_eq!(s["to_move"], 1);
}

#[test]
fn dakon_refills_the_next_round_and_closes_the_short_pits() {
    let g = game("dakon");
    // South cannot move: the round ends, each side to its owner (South 30, North 68).
    let st = set(&g, 0, &[0; 7], &[7; 7], [30, 19]);
    assert_eq!(g.phase(&st), Phase::Over);
    let next = g.next_game(&st, g.next_starter(&st).unwrap()).unwrap();
    let s = g.state_json(&next);
    // South fills 4 pits from the store end (pit 7 down) and keeps 2 in the store; North fills
    // all 7 and keeps 19.
    assert_eq!(
        s["pits"],
        json!([[0, 0, 2, 7, 7, 7, 7], [7, 7, 7, 7, 7, 7, 7]])
    );
    assert_eq!(s["stores"], json!([0, 19]));
    assert_eq!(s["out_of_play"], json!([[1, 2, 3], []]));
    // The loser (South) starts.
    assert_eq!(s["to_move"], 0);
}

// ---------------------------------------------------------------- Das Bohnenspiel

#[test]
fn bohnenspiel_takes_two_four_or_six_and_walks_back_on_either_side() {
    let g = game("bohnenspiel");
    // Pit 5 (4): South's 6 (1 -> 2), North's 1 (3 -> 4), 2 (5 -> 6), 3 (1 -> 2): North's 3,
    // 2, 1 and South's 6 are taken; South's 5 (emptied) ends the walk.
    let mut st = set(&g, 0, &[6, 6, 6, 6, 4, 1], &[3, 5, 1, 6, 6, 6], [0, 16]);
    let s = play(&g, &mut st, 5);
    assert_eq!(s["pits"], json!([[6, 6, 6, 6, 0, 0], [0, 0, 0, 6, 6, 6]]));
    assert_eq!(s["stores"], json!([14, 16]));
}

#[test]
fn bohnenspiel_takes_nothing_else_and_stops_the_walk_at_another_count() {
    let g = game("bohnenspiel");
    // The last bean makes 3: nothing is taken.
    let mut st = set(&g, 0, &[6, 6, 6, 6, 6, 1], &[2, 6, 6, 6, 6, 6], [9, 0]);
    let s = play(&g, &mut st, 6);
    assert_eq!(s["pits"][1][0], 3);
    assert_eq!(s["stores"], json!([9, 0]));
    // The last bean makes 4 in North's 2; North's 1 holds 3: only North's 2 is taken.
    let mut st = set(&g, 0, &[6, 6, 6, 6, 6, 2], &[2, 3, 6, 6, 6, 6], [11, 0]);
    let s = play(&g, &mut st, 6);
    assert_eq!(s["pits"][1], json!([3, 0, 6, 6, 6, 6]));
    assert_eq!(s["stores"], json!([15, 0]));
}

#[test]
fn bohnenspiel_gives_every_bean_left_to_the_player_who_can_still_move() {
    let g = game("bohnenspiel");
    let st = set(&g, 1, &[6, 6, 6, 6, 6, 6], &[0; 6], [20, 16]);
    let s = g.state_json(&st);
    assert_eq!(s["phase"], "over");
    assert_eq!(s["stores"], json!([56, 16]));
    assert_eq!(s["result"]["winner"], 0);
}

// ---------------------------------------------------------------- Omweso

/// South's 16 pits: inner 1..8 (right to left), outer 9..16.
fn omweso_south(inner: [u8; 8], outer: [u8; 8]) -> Vec<u8> {
    inner.iter().chain(outer.iter()).copied().collect()
}

#[test]
fn omweso_never_sows_a_single_seed() {
    let g = game("omweso");
    let mut north = [3u8; 16];
    north[15] = 4;
    let st = set(
        &g,
        0,
        &omweso_south([1, 2, 1, 0, 0, 0, 0, 3], [1; 8]),
        &north,
        [0, 0],
    );
    assert_eq!(legal(&g, &st), vec![2, 8]);
}

#[test]
fn omweso_relays_from_an_occupied_pit_when_it_cannot_capture() {
    let g = game("omweso");
    // Pit 1 (2): pits 2 and 3; pit 3 held 1, but North's inner 6 facing it is empty: no
    // capture; pit 3's 2 are sown into the empty 4 and 5.
    let mut north = [3u8; 16];
    north[5] = 0;
    north[15] = 11;
    let mut st = set(
        &g,
        0,
        &omweso_south([2, 0, 1, 0, 0, 0, 0, 0], [1; 8]),
        &north,
        [0, 0],
    );
    let s = play(&g, &mut st, 1);
    assert_eq!(
        s["pits"][0],
        json!(omweso_south([0, 1, 0, 1, 1, 0, 0, 0], [1; 8]))
    );
    assert_eq!(s["pits"][1], json!(north));
}

#[test]
fn omweso_captures_both_facing_pits_and_sows_them_on_from_the_laps_pit() {
    let g = game("omweso");
    // Pit 1 (2): pits 2 and 3; pit 3 held 1 and faces North's inner 6 (2) and outer 11 (1):
    // both taken, their 3 seeds sown on from pit 1 again: pits 2, 3 and the empty 4.
    let mut north = [3u8; 16];
    north[5] = 2;
    north[10] = 1;
    north[15] = 11;
    let mut st = set(
        &g,
        0,
        &omweso_south([2, 0, 1, 0, 0, 0, 0, 0], [1; 8]),
        &north,
        [0, 0],
    );
    let s = play(&g, &mut st, 1);
    assert_eq!(
        s["pits"][0],
        json!(omweso_south([0, 2, 3, 1, 0, 0, 0, 0], [1; 8]))
    );
    let mut after = north;
    after[5] = 0;
    after[10] = 0;
    assert_eq!(s["pits"][1], json!(after));
    assert_eq!(s["stores"], json!([0, 0]));
}

#[test]
fn omweso_loses_who_cannot_move() {
    let g = game("omweso");
    let mut north = [0u8; 16];
    north[..8].copy_from_slice(&[1; 8]);
    let st = set(
        &g,
        1,
        &omweso_south([7, 7, 7, 7, 7, 7, 7, 7], [0; 8]),
        &north,
        [0, 0],
    );
    let s = g.state_json(&st);
    assert_eq!(s["phase"], "over");
    assert_eq!(s["result"]["winner"], 0);
    assert_eq!(s["stores"], json!([64, 0]));
}

// ---------------------------------------------------------------- the worked example

/// The README's worked example, assembled from its blocks, is Das Bohnenspiel as bundled but
/// for the repetition guard.
#[test]
fn the_readme_worked_example_is_the_bundled_bohnenspiel() {
    let readme = include_str!("../docs/rules.md");
    let part = &readme[readme
        .find("### Worked example: a new game from its rules")
        .unwrap()..];
    let part = &part[..part[4..].find("\n### ").unwrap() + 4];
    let text: String = part
        .split("```toml\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n");
    let ours = from_text(&text);
    let bundled =
        from_text(&include_str!("../rules/bohnenspiel.toml").replace("repetition = true\n", ""));
    let mut rng = 7u64;
    for _ in 0..50 {
        let (mut a, mut b) = (ours.new_game(0), bundled.new_game(0));
        while ours.phase(&a) != Phase::Over {
            assert_eq!(ours.state_json(&a)["pits"], bundled.state_json(&b)["pits"]);
            let moves = legal(&ours, &a);
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1);
            let m = moves[(rng >> 33) as usize % moves.len()];
            ours.play(&mut a, &SowingMove::pit(m));
            bundled.play(&mut b, &SowingMove::pit(m));
            if ours.plies(&a) > 2000 {
                break;
            }
        }
        assert_eq!(
            ours.state_json(&a)["stores"],
            bundled.state_json(&b)["stores"]
        );
    }
    assert!(ours.describe().contains("opponent of the player to move"));
}

/// Captures sown on that would go on for ever (the last pit itself taken and sown again) end at
/// the lap cap with every stone still on the board.
#[test]
fn captures_sown_on_end_at_the_lap_cap_keeping_every_stone() {
    let g = from_text(
        &include_str!("../rules/omweso.toml")
            .replace("take = [\"column\"]", "take = [\"last\"]")
            .replace("when = \"last.row == 1 and", "when = \"true or")
            .replace("relay = \"last\"", "relay = \"last\"\nmax_laps = 3"),
    );
    let mut st = g.new_game(0);
    let mut capped = 0;
    let mut rng = 11u64;
    while g.phase(&st) != Phase::Over && g.plies(&st) < 200 {
        let moves = legal(&g, &st);
        rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1);
        g.play(
            &mut st,
            &SowingMove::pit(moves[(rng >> 33) as usize % moves.len()]),
        );
        assert_eq!(sowing_common::stones(&g.state_json(&st)), 64);
        if g.last_move_end(&st) == ludus::sowing::MoveEnd::LapCap {
            capped += 1;
        }
    }
    assert!(capped > 0);
}
