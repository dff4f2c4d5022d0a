//! Invariants over thousands of random games and matches of every bundled sowing game: stones
//! are never created or lost, out-of-play pits are never sown or played, the STATE form reads
//! back to the same position, every game ends.

mod sowing_common;

use ludus::game::{Game, Json, Phase, View};
use ludus::limits::LIMITS;
use ludus::rules::BUNDLED;
use ludus::sowing::{MoveEnd, SowingGame, SowingMove};
use sowing_common::{game, stones, Rng};
use std::collections::{BTreeMap, BTreeSet, HashSet};

fn sowing_games() -> Vec<SowingGame> {
    BUNDLED
        .iter()
        .filter(|(_, text)| text.contains("family = \"sowing\""))
        .map(|(name, _)| game(name))
        .collect()
}

/// What random games came to.
#[derive(Debug, Default)]
struct Stats {
    /// Games (rounds) played.
    games: usize,
    plies: usize,
    /// How the games ended: `score` for the rules' score condition, else the reason's words.
    endings: BTreeMap<String, usize>,
    /// How the moves' sowings ended.
    moves: BTreeMap<String, usize>,
}

/// Plays random games (continuing matches for up to `rounds` rounds), checking after every ply.
fn check(g: &SowingGame, games: usize, rounds: usize, seed: u64) -> Stats {
    let mut rng = Rng(seed);
    let total = u64::from(g.total_stones());
    let mut moves = Vec::new();
    let mut stats = Stats::default();
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
                *stats
                    .moves
                    .entry(format!("{:?}", g.last_move_end(&st)))
                    .or_default() += 1;
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
                            assert!(
                                side != p || mv.sown_pit().map(usize::from) != Some(k),
                                "closed pit played"
                            );
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
                if after.get("decision").is_some() {
                    // A move paused at a choice is not set up by hand.
                    assert!(g.state_from_json(&after).is_err());
                } else {
                    let back = g.state_from_json(&after).expect("STATE reads back");
                    assert_eq!(g.state_json(&back)["pits"], after["pits"]);
                }
                ply += 1;
                stats.plies += 1;
                assert!(ply < 20_000, "{}: a game that does not end", g.name());
            }
            stats.games += 1;
            let out = g.outcome(&st).unwrap();
            let ending = if out.reason.starts_with("captured ") || out.reason.starts_with("draw ") {
                "score".to_string()
            } else {
                out.reason.clone()
            };
            *stats.endings.entry(ending).or_default() += 1;
            // A goal names its winner whatever the stores say; every other ending goes by them.
            let by_stores = match out.scores[0].cmp(&out.scores[1]) {
                std::cmp::Ordering::Greater => Some(0),
                std::cmp::Ordering::Less => Some(1),
                std::cmp::Ordering::Equal => None,
            };
            if out.reason != "goal reached" && !out.reason.contains("cannot move") {
                assert_eq!(out.winner, by_stores, "{}: {}", g.name(), out.reason);
            }
            match g.next_game(&st, games % 2) {
                Some(next) => {
                    assert_eq!(stones(&g.state_json(&next)), total);
                    st = next;
                }
                None => break,
            }
        }
    }
    stats
}

/// Every random game ends by one of its rules' endings, and the games of the Oware family meet
/// all three of theirs.
#[test]
fn random_games_keep_every_stone() {
    let oware = ["no legal move", "repetition", "score"].as_slice();
    let uuholo = ["no legal move", "ply limit"].as_slice();
    let endings: BTreeMap<&str, &[&str]> = [
        ("oware", oware),
        ("wari", oware),
        ("warri", oware),
        // Either side empty ends the game at once: the player to move never lacks a move.
        ("kalah", ["end of play"].as_slice()),
        ("sat-gharva", ["no legal move"].as_slice()),
        ("sat-gharva-clockwise", ["no legal move"].as_slice()),
        ("sat-gharva-choice", ["no legal move"].as_slice()),
        ("uuholo", uuholo),
        ("uuholo-empty-pit", uuholo),
        ("uuholo-both-rows", uuholo),
        (
            "toguz-korgool",
            ["score", "no legal move", "repetition"].as_slice(),
        ),
        ("ayoayo", ["no legal move", "repetition"].as_slice()),
        ("bohnenspiel", ["no legal move", "repetition"].as_slice()),
        ("dakon", ["no legal move"].as_slice()),
        ("omweso", ["no legal move"].as_slice()),
    ]
    .into_iter()
    .collect();
    let games = sowing_games();
    assert_eq!(
        games.iter().map(|g| g.name()).collect::<BTreeSet<_>>(),
        endings.keys().copied().collect::<BTreeSet<_>>()
    );
    for g in games {
        let stats = check(&g, 1000, 1, 7);
        eprintln!("{}: {stats:?}", g.name());
        assert!(stats.plies > 10 * stats.games, "{}: {stats:?}", g.name());
        let seen: BTreeSet<&str> = stats.endings.keys().map(String::as_str).collect();
        let allowed: BTreeSet<&str> = endings[g.name()].iter().copied().collect();
        assert!(seen.is_subset(&allowed), "{}: {stats:?}", g.name());
        // The Oware family meets all of its endings; elsewhere repetition is a guard.
        if ["oware", "wari", "warri"].contains(&g.name()) {
            assert_eq!(seen, allowed, "{}: {stats:?}", g.name());
        }
    }
}

#[test]
fn random_sat_gharva_matches_keep_every_stone_and_never_sow_closed_pits() {
    let g = game("sat-gharva");
    let stats = check(&g, 100, 30, 11);
    assert!(stats.games > 500, "{stats:?}");
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

/// A small board where relay sowing goes on for thousands of laps without repeating a position:
/// three pits a side, five stones each, relay from the next pit, nothing captured.
fn relay_rules(max_laps: u32) -> String {
    format!(
        "[game]\nname = \"relay\"\nfamily = \"sowing\"\n\n[board]\nrows = 1\npits = 3\n\n\
         [setup]\nstones = 5\n\n[sowing]\nrelay = \"next\"\nskip_origin = \"never\"\n\
         max_laps = {max_laps}\n"
    )
}

/// The same sowing, written independently: pits 0..6 in circuit order (South's 1..3, North's
/// 1..3); a relay lifts the next pit while it holds stones; before each lift the move ends at
/// the cap once `max_drops` stones are sown, or at a (board, pit) seen before. Returns the
/// board, how the move ended, the stones sown and the last hand sown.
fn relay_model(
    mut board: Vec<u32>,
    origin: usize,
    max_drops: u32,
) -> (Vec<u32>, MoveEnd, u32, u32) {
    let len = board.len();
    let (mut pos, mut sown) = (origin, 0);
    let mut hand = std::mem::take(&mut board[pos]);
    let mut seen = HashSet::new();
    loop {
        sown += hand;
        for _ in 0..hand {
            pos = (pos + 1) % len;
            board[pos] += 1;
        }
        let next = (pos + 1) % len;
        if board[next] == 0 {
            return (board, MoveEnd::Sown, sown, hand);
        }
        if sown >= max_drops {
            return (board, MoveEnd::LapCap, sown, hand);
        }
        if !seen.insert((board.clone(), next)) {
            return (board, MoveEnd::Cycle, sown, hand);
        }
        hand = std::mem::take(&mut board[next]);
        pos = next;
    }
}

/// With small caps and with the largest the rules may set, a relay that would go on ends
/// exactly at the cap: at the first lift once `max_laps` laps of the circuit are sown, as the
/// model says, where a model with a higher cap lifts again.
#[test]
fn a_relay_that_would_go_on_ends_exactly_at_the_lap_cap() {
    for max_laps in [1, 2, 3, LIMITS.laps_per_move] {
        let g = sowing_common::from_text(&relay_rules(max_laps));
        let cap = 6 * max_laps;
        let mut rng = Rng(u64::from(max_laps));
        let mut capped = 0;
        for _ in 0..200 {
            // 30 stones at random, South's pit 1 not empty.
            let mut board = vec![0u32; 6];
            board[0] = 1;
            for _ in 1..30 {
                board[rng.below(6)] += 1;
            }
            let mut st = g
                .state_from_json(&serde_json::json!({
                    "to_move": 0, "pits": [&board[..3], &board[3..]], "stores": [0, 0]
                }))
                .unwrap();
            g.play(&mut st, &SowingMove::pit(1));
            let s = g.state_json(&st);
            let ours: Vec<u32> = s["pits"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|side| side.as_array().unwrap().iter())
                .map(|c| c.as_u64().unwrap() as u32)
                .collect();
            let (model, end, sown, last_hand) = relay_model(board.clone(), 0, cap);
            assert_eq!(
                (g.last_move_end(&st), &ours),
                (end, &model),
                "max_laps {max_laps}, from {board:?}"
            );
            if end == MoveEnd::LapCap {
                capped += 1;
                // The last hand crossed the cap; with a cap past it the relay lifts again.
                assert!(sown - last_hand < cap && cap <= sown, "{sown} sown");
                let (_, later, more, _) = relay_model(board.clone(), 0, sown + 1);
                assert!(more > sown, "{board:?}: {later:?} after {more}");
            }
        }
        assert!(capped > 0, "max_laps {max_laps}: no move reached the cap");
    }
}

/// The games bundled with houses, relay captures and the leftover to the opponent: with a
/// random and a greedy player (each seat both ways), over many seeds, every game ends by its
/// rules and never at the ply guard, and no stone is created or lost (Dakon: whole matches).
#[test]
fn random_and_greedy_players_finish_every_game() {
    use ludus::players::{choose, Greedy, Random, Spec};
    use rand::SeedableRng;
    for name in ["toguz-korgool", "ayoayo", "dakon", "bohnenspiel", "omweso"] {
        let g = game(name);
        let total = u64::from(g.total_stones());
        let mut moves = Vec::new();
        let mut endings: BTreeMap<String, usize> = BTreeMap::new();
        for seed in 0..300u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let specs = if seed % 2 == 0 {
                [Spec::Greedy(Greedy), Spec::Random(Random)]
            } else {
                [Spec::Random(Random), Spec::Greedy(Greedy)]
            };
            let mut st = g.new_game((seed / 2 % 2) as usize);
            for _round in 0..30 {
                while let Phase::Move(p) = g.phase(&st) {
                    g.legal_moves(&st, &mut moves);
                    let i = choose(&g, &st, &moves, specs[p], &mut rng);
                    g.play(&mut st, &moves[i]);
                    assert_eq!(stones(&g.state_json(&st)), total, "{name} seed {seed}");
                }
                let out = g.outcome(&st).unwrap();
                assert_ne!(out.reason, "ply limit", "{name} seed {seed}");
                *endings.entry(out.reason.clone()).or_default() += 1;
                let Some(first) = g.next_starter(&st) else {
                    break;
                };
                match g.next_game(&st, first) {
                    Some(next) => st = next,
                    None => break,
                }
            }
        }
        eprintln!("{name}: {endings:?}");
    }
}

#[test]
fn random_dakon_matches_keep_every_stone_and_never_sow_closed_pits() {
    let g = game("dakon");
    let stats = check(&g, 100, 30, 13);
    assert!(stats.games > 200, "{stats:?}");
}

/// The same invariants for rules files that use the language's newer mechanisms (pits passed
/// over, many houses (some keeping their stones), captures after every lap, the move before remembered, captures over the whole board or across a
/// gap, sweeps to the opponent, a layout for the starter, refills from the outside).
#[test]
fn random_games_of_the_newer_mechanisms_keep_every_stone() {
    let files = [
        "mancala-games/krur.toml",
        "mancala-games/qelat.toml",
        "mancala-games/andot.toml",
        "mancala-games/alemungula.toml",
        "mancala-games/urim.toml",
        "mancala-games/mbothe.toml",
        "mancala-games/kara.toml",
        "mancala-games/pandi.toml",
        "mancala-games/gamacha.toml",
        "mancala-games/onlychild.toml",
        "mancala-games/ns-kalah.toml",
        "mancala-games/pallanguli.toml",
        "mancala-games/modiar.toml",
        "mancala-games/erherhe.toml",
        "mancala-games/lami.toml",
        "mawkar-katiya.toml",
        "tapata.toml",
        "mancala-games/qelat-ii.toml",
        "mancala-games/weg.toml",
        "mancala-games/tegre.toml",
        "mancala-games/tap-urdy.toml",
        "mancala-games/sokusowo.toml",
        "mancala-games/nosides.toml",
        "mancala-games/eson-xorgol.toml",
        "mancala-games/huroy.toml",
        "mancala-games/gelech.toml",
    ];
    for file in files {
        let path = format!("{}/docs/games/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        // Some of these games may go round for ever between random players (Mancala Games
        // plays them with a ply cap): a rules ply limit ends them.
        let text = match text.contains("max_plies") {
            true => text,
            false if text.contains("\n[end]\n") => {
                text.replacen("\n[end]\n", "\n[end]\nmax_plies = 3000\n", 1)
            }
            false => format!("{text}\n[end]\nmax_plies = 3000\n"),
        };
        let g = sowing_common::from_text(&text);
        let stats = check(&g, 20, 3, 7);
        assert!(stats.games >= 20, "{file}: {stats:?}");
    }
}
