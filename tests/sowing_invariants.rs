//! Invariants over thousands of random games and matches of every bundled sowing game: stones
//! are never created or lost, out-of-play pits are never sown or played, the STATE form reads
//! back to the same position, every game ends.

mod sowing_common;

use ludus::game::{Game, Json, Phase, View};
use ludus::rules::BUNDLED;
use ludus::sowing::SowingGame;
use sowing_common::{game, stones};

struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

fn sowing_games() -> Vec<SowingGame> {
    BUNDLED
        .iter()
        .filter(|(_, text)| text.contains("family = \"sowing\""))
        .map(|(name, _)| game(name))
        .collect()
}

/// Plays random games (continuing matches for up to `rounds` rounds), checking after every ply.
fn check(g: &SowingGame, games: usize, rounds: usize, seed: u64) -> (usize, usize) {
    let mut rng = Rng(seed);
    let total = u64::from(g.total_stones());
    let mut moves = Vec::new();
    let (mut plies, mut played) = (0, 0);
    for i in 0..games {
        let mut st = g.new_game(i % 2);
        for _ in 0..rounds {
            let mut ply = 0;
            while g.phase(&st) != Phase::Over {
                let before = g.state_json(&st);
                g.legal_moves(&st, &mut moves);
                assert!(!moves.is_empty(), "{}: no move in the Move phase", g.name());
                let mv = moves[rng.below(moves.len())];
                g.play(&mut st, &mv);
                let after = g.state_json(&st);
                assert_eq!(
                    stones(&after),
                    total,
                    "{}: stones created or lost",
                    g.name()
                );
                if let Some(closed) = before.get("out_of_play") {
                    let p = before["to_move"].as_u64().unwrap() as usize;
                    for (side, pits) in closed.as_array().unwrap().iter().enumerate() {
                        for k in pits.as_array().unwrap() {
                            let k = k.as_u64().unwrap() as usize;
                            assert!(side != p || k != usize::from(mv), "closed pit played");
                            if after["phase"] != "over" {
                                assert_eq!(
                                    before["pits"][side][k - 1],
                                    after["pits"][side][k - 1],
                                    "{}: closed pit sown",
                                    g.name()
                                );
                            }
                        }
                    }
                }
                let back = g.state_from_json(&after).expect("STATE reads back");
                assert_eq!(g.state_json(&back)["pits"], after["pits"]);
                ply += 1;
                plies += 1;
                assert!(ply < 20_000, "{}: a game that does not end", g.name());
            }
            played += 1;
            let out = g.outcome(&st).unwrap();
            assert_eq!(
                out.winner,
                match out.scores[0].cmp(&out.scores[1]) {
                    std::cmp::Ordering::Greater => Some(0),
                    std::cmp::Ordering::Less => Some(1),
                    std::cmp::Ordering::Equal => None,
                }
            );
            match g.next_game(&st, games % 2) {
                Some(next) => {
                    assert_eq!(stones(&g.state_json(&next)), total);
                    st = next;
                }
                None => break,
            }
        }
    }
    (played, plies)
}

#[test]
fn random_games_keep_every_stone() {
    for g in sowing_games() {
        let (games, plies) = check(&g, 1000, 1, 7);
        assert!(games >= 1000 && plies > games, "{}", g.name());
    }
}

#[test]
fn random_sat_gharva_matches_keep_every_stone_and_never_sow_closed_pits() {
    let g = game("sat-gharva");
    let (rounds, _) = check(&g, 100, 30, 11);
    assert!(rounds > 500, "{rounds} rounds");
}

#[test]
fn every_bundled_sowing_game_describes_and_renders() {
    for g in sowing_games() {
        let text = g.describe();
        assert!(text.contains("Sowing:"), "{}", g.name());
        let st = g.new_game(0);
        assert!(g.render(&st, 0).contains("(pit)"));
        assert!(g.render(&st, 1).contains("(pit)"));
    }
}

#[test]
fn the_largest_lap_cap_still_ends_every_move() {
    let text =
        include_str!("../rules/sat-gharva.toml").replace("max_laps = 1000", "max_laps = 10000");
    let g = sowing_common::from_text(&text);
    let (games, _) = check(&g, 200, 3, 3);
    assert!(games >= 200);
}
