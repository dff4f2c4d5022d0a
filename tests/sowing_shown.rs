//! A move played out stone by stone for people to watch (`View::play_shown`, the page's
//! animation): known moves give the moments a person's hand makes, and over random games of
//! every bundled sowing game no moment creates or loses a stone, each one a drop adds exactly
//! one stone, and the real game is never touched.

mod sowing_common;

use ludus::game::{Game, Json, Phase, View};
use ludus::limits::LIMITS;
use ludus::rules::BUNDLED;
use ludus::sowing::{SowingGame, SowingMove, SowingState};
use serde_json::Value;
use sowing_common::{from_text, game, Rng};

/// Every pit's and store's count of a position, in one list (the STATE form's order).
fn counts(g: &SowingGame, st: &SowingState) -> Vec<i64> {
    let v = g.state_json(st);
    fn of(x: &Value) -> Vec<i64> {
        match x {
            Value::Array(a) => a.iter().flat_map(of).collect(),
            Value::Number(n) => vec![n.as_i64().expect("a count")],
            _ => vec![],
        }
    }
    [of(&v["pits"]), of(&v["stores"])].concat()
}

/// The moments of `mv` from `st` as (counts, hand, every stone of the game), the position
/// before first and after last (a move paused at a choice holds stones in hand).
fn moments(g: &SowingGame, st: &SowingState, mv: &SowingMove) -> Vec<(Vec<i64>, u32, u32)> {
    let mut after = st.clone();
    g.play(&mut after, mv);
    let shown = g.play_shown(st, mv);
    // A moment holds no paused move: its stones in hand are given beside it.
    let at = |s: &SowingState, hand: u32| (counts(g, s), hand, g.pieces(s) + hand);
    let paused = |s: &SowingState| (counts(g, s), u32::from(s.in_hand()), g.pieces(s));
    let mut all = vec![paused(st)];
    all.extend(shown.iter().map(|(m, hand)| at(m, *hand)));
    all.push(paused(&after));
    all
}

/// A game of `pits` a side holding `stones` each, relayed as `relay` says.
fn relaying(pits: usize, stores: bool, stones: u32, relay: &str) -> SowingGame {
    from_text(&format!(
        "[game]\nname = \"relaying\"\nfamily = \"sowing\"\n[board]\npits = {pits}\nstores = {stores}\n\
         [setup]\nstones = {stones}\n[sowing]\nrelay = \"{relay}\"\n"
    ))
}

#[test]
fn an_oware_move_is_a_lift_then_one_stone_a_pit() {
    let g = game("oware");
    let st = g.new_game(0);
    let m = moments(&g, &st, &SowingMove::pit(3));
    // South lifts pit 3's four stones and drops them one by one into pits 4, 5, 6 and North's
    // pit 1 (the last drop is the position after the move).
    let hands: Vec<u32> = m.iter().map(|(_, h, _)| *h).collect();
    assert_eq!(hands, [0, 4, 3, 2, 1, 0]);
    let pits = |i: usize| m[i].0[..12].to_vec();
    assert_eq!(pits(1), [4, 4, 0, 4, 4, 4, 4, 4, 4, 4, 4, 4]);
    assert_eq!(pits(2), [4, 4, 0, 5, 4, 4, 4, 4, 4, 4, 4, 4]);
    assert_eq!(pits(4), [4, 4, 0, 5, 5, 5, 4, 4, 4, 4, 4, 4]);
    assert_eq!(pits(5), [4, 4, 0, 5, 5, 5, 5, 4, 4, 4, 4, 4]);
}

#[test]
fn a_capture_is_shown_after_the_last_drop() {
    // South's pit 6 holds 1: sown into North's pit 1 (1 stone, making 2), which Oware captures.
    let g = game("oware");
    let st = g
        .state_from_json(&serde_json::json!({
            "to_move": 0, "phase": "move",
            "pits": [[4, 4, 4, 4, 4, 1], [1, 4, 4, 4, 4, 4]],
            "stores": [6, 0]
        }))
        .expect("a position");
    let m = moments(&g, &st, &SowingMove::pit(6));
    let hands: Vec<u32> = m.iter().map(|(_, h, _)| *h).collect();
    assert_eq!(hands, [0, 1, 0, 0], "{m:?}");
    // The drop: North's pit 1 holds 2 and South's store 6; then the capture: 0 and 8.
    assert_eq!((m[2].0[6], m[2].0[12]), (2, 6));
    assert_eq!((m[3].0[6], m[3].0[12]), (0, 8));
}

#[test]
fn a_relay_shows_each_lap_and_each_lift() {
    // Sown on from the last pit while it holds more than the stone just dropped.
    let g = relaying(4, true, 2, "last");
    let st = g.new_game(0);
    let m = moments(&g, &st, &SowingMove::pit(1));
    let hands: Vec<u32> = m.iter().map(|(_, h, _)| *h).collect();
    // Pit 1's two stones into pits 2 and 3; pit 3 now holds 3: lifted, sown into pit 4, the
    // store and North's pit 1, which holds 3: lifted, and so on.
    assert_eq!(&hands[..7], [0, 2, 1, 0, 3, 2, 1], "{m:?}");
    assert!(hands.iter().filter(|&&h| h > 0).count() > 6);
    assert!(m.iter().all(|(_, _, total)| *total == 16), "{m:?}");
}

#[test]
fn every_moment_of_every_bundled_game_keeps_its_stones_and_drops_one_at_a_time() {
    let mut rng = Rng(7);
    let mut moves = Vec::new();
    for (name, text) in BUNDLED {
        if !text.contains("family = \"sowing\"") {
            continue;
        }
        let g = game(name);
        let (mut shown_moves, mut drops) = (0, 0);
        for i in 0..12 {
            let mut st = g.new_game(i % 2);
            let mut ply = 0;
            while g.phase(&st) != Phase::Over && ply < 400 {
                g.legal_moves(&st, &mut moves);
                let mv = moves[rng.below(moves.len())];
                let before = st.clone();
                let m = moments(&g, &st, &mv);
                assert_eq!(st, before, "{name}: showing a move changed the game");
                assert!(
                    m.len() < LIMITS.shown_frames + 2,
                    "{name}: {} moments",
                    m.len()
                );
                shown_moves += usize::from(m.len() > 2);
                for (k, pair) in m.windows(2).enumerate() {
                    let ((a, ha, ta), (b, hb, tb)) = (&pair[0], &pair[1]);
                    assert_eq!(
                        ta, tb,
                        "{name}, ply {ply}, move {mv:?}, moment {k}: a stone created or lost"
                    );
                    // A drop: one stone from the hand into one pit or store.
                    if hb + 1 == *ha {
                        let changed: Vec<i64> = a
                            .iter()
                            .zip(b)
                            .map(|(x, y)| y - x)
                            .filter(|&d| d != 0)
                            .collect();
                        if changed == [1] {
                            drops += 1;
                        }
                    }
                }
                g.play(&mut st, &mv);
                ply += 1;
            }
        }
        assert!(shown_moves > 0, "{name}: no move was shown stone by stone");
        assert!(
            drops > shown_moves,
            "{name}: {drops} single drops in {shown_moves} moves"
        );
    }
}

#[test]
fn a_very_long_move_is_shown_in_evenly_spread_moments() {
    // 12 pits a side of 10 stones, relayed until the lap cap: thousands of drops.
    let g = relaying(12, false, 10, "next");
    let st = g.new_game(0);
    let m = moments(&g, &st, &SowingMove::pit(1));
    assert!(m.len() > 20, "{} moments", m.len());
    assert!(m.len() < LIMITS.shown_frames + 2, "{} moments", m.len());
}
