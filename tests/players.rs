//! The search players: wins found, alphabeta against a brute-force minimax, `go` for every
//! bundled game, reproducibility, and a short strength check.

use ludus::game::{Game, Json, Phase, Player, Roll};
use ludus::players::eval::{evaluate, outcome_value};
use ludus::players::{self, analyse, analyse_with, AlphaBeta, Budget, Mcts, Memory, Random, Spec};
use ludus::registry::{self, AnyGame, AnyState};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};

fn load(name: &str) -> AnyGame {
    registry::load(name).expect("a bundled game").1
}

fn legal(game: &AnyGame, state: &AnyState) -> Vec<<AnyGame as Game>::Move> {
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    moves
}

fn searchers() -> [Spec; 2] {
    [
        Spec::Mcts(Mcts {
            budget: Budget::Iterations(20_000),
            threads: 1,
        }),
        Spec::AlphaBeta(AlphaBeta {
            budget: Budget::Depth(6),
        }),
    ]
}

/// Whether `p` can force a win within `plies` moves from `state` (no dice).
fn forced_win(game: &AnyGame, state: &AnyState, p: Player, plies: u32) -> bool {
    match game.phase(state) {
        Phase::Over => game.outcome(state).and_then(|o| o.winner) == Some(p),
        Phase::Roll(_) => false,
        Phase::Move(_) if plies == 0 => false,
        Phase::Move(q) => {
            let mut each = legal(game, state).into_iter().map(|mv| {
                let mut child = state.clone();
                game.play(&mut child, &mv);
                forced_win(game, &child, p, plies - 1)
            });
            if q == p {
                each.any(|w| w)
            } else {
                each.all(|w| w)
            }
        }
    }
}

#[test]
fn both_find_an_oware_win_in_one() {
    let game = load("oware");
    // South captures North's single stone on pit 1 (making 2) from pit 6: 23 + 2 = 25.
    let state = game
        .state_from_json(&json!({
            "to_move": 0, "phase": "move",
            "pits": [[1, 1, 0, 0, 0, 1], [1, 3, 3, 2, 1, 1]],
            "stores": [23, 11]
        }))
        .unwrap();
    let moves = legal(&game, &state);
    assert!(forced_win(&game, &state, 0, 1));
    assert!(
        moves.iter().any(|mv| {
            let mut after = state.clone();
            game.play(&mut after, mv);
            game.phase(&after) != Phase::Over
        }),
        "some move must not win at once"
    );
    for spec in searchers() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let a = analyse(&game, &state, &moves, spec, false, &mut rng).unwrap();
        let mut after = state.clone();
        game.play(&mut after, &moves[a.best]);
        assert_eq!(
            game.outcome(&after).and_then(|o| o.winner),
            Some(0),
            "{spec} chose {:?}",
            moves[a.best]
        );
    }
}

#[test]
fn both_find_a_forced_oware_win_within_three_plies() {
    // The first position of random games where South (to move) forces a win in 3 plies but
    // cannot win at once.
    let game = load("oware");
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut found = None;
    'games: for _ in 0..200 {
        let mut state = game.new_game(0);
        let mut moves = Vec::new();
        while let Phase::Move(p) = game.phase(&state) {
            if p == 0 && forced_win(&game, &state, 0, 3) && !forced_win(&game, &state, 0, 1) {
                found = Some(state);
                break 'games;
            }
            game.legal_moves(&state, &mut moves);
            let mv = moves[rng.gen_range(0..moves.len())].clone();
            game.play(&mut state, &mv);
        }
    }
    let state = found.expect("a position with a forced win in three plies");
    let moves = legal(&game, &state);
    for spec in searchers() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let a = analyse(&game, &state, &moves, spec, false, &mut rng).unwrap();
        let mut after = state.clone();
        game.play(&mut after, &moves[a.best]);
        assert!(
            forced_win(&game, &after, 0, 2),
            "{spec} chose {:?}, which lets the win go",
            moves[a.best]
        );
    }
}

#[test]
fn both_bear_off_to_win() {
    let game = load("backgammon");
    // White's last two checkers on points 2 and 1, with 2-1: 2/off 1/off wins; 2/1 1/off not.
    let state = game
        .state_from_json(&json!({
            "to_move": 0, "phase": "move", "dice": [2, 1],
            "points": [[1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                       [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15, 0, 0, 0, 0]],
            "bar": [0, 0], "off": [13, 0]
        }))
        .unwrap();
    let moves = legal(&game, &state);
    for spec in [
        Spec::Mcts(Mcts {
            budget: Budget::Iterations(2000),
            threads: 1,
        }),
        Spec::AlphaBeta(AlphaBeta {
            budget: Budget::Depth(2),
        }),
    ] {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let a = analyse(&game, &state, &moves, spec, false, &mut rng).unwrap();
        let mut after = state.clone();
        game.play(&mut after, &moves[a.best]);
        assert_eq!(
            game.outcome(&after).and_then(|o| o.winner),
            Some(0),
            "{spec}"
        );
    }
}

/// Plain minimax (expectimax at the dice) to `depth` moves, with alphabeta's conventions: the
/// rules' evaluation at the horizon, a decided game worth ±WIN less the plies to it.
fn brute(game: &AnyGame, state: &AnyState, me: Player, depth: u32, ply: u32) -> f64 {
    match game.phase(state) {
        Phase::Over => {
            let v = outcome_value(&game.outcome(state).unwrap(), me);
            v - v.signum() * f64::from(ply)
        }
        Phase::Move(p) | Phase::Roll(p) => {
            let sign = if p == me { 1.0 } else { -1.0 };
            if depth == 0 {
                return sign * evaluate(game, state, p);
            }
            if let Phase::Roll(_) = game.phase(state) {
                let dice = game.dice().unwrap();
                return dice
                    .outcomes()
                    .iter()
                    .map(|(roll, prob)| {
                        let mut child = state.clone();
                        game.roll(&mut child, roll).unwrap();
                        prob * brute(game, &child, me, depth, ply)
                    })
                    .sum();
            }
            let best = legal(game, state)
                .iter()
                .map(|mv| {
                    let mut child = state.clone();
                    game.play(&mut child, mv);
                    sign * brute(game, &child, me, depth - 1, ply + 1)
                })
                .fold(f64::NEG_INFINITY, f64::max);
            sign * best
        }
    }
}

/// Positions reached by random play from a new game, one every few plies.
fn positions(game: &AnyGame, seed: u64, count: usize) -> Vec<AnyState> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut state = game.new_game(0);
        let mut moves = Vec::new();
        for ply in 0.. {
            match game.phase(&state) {
                Phase::Over => break,
                Phase::Roll(_) => {
                    let roll = game.dice().unwrap().sample(&mut rng);
                    game.roll(&mut state, &roll).unwrap();
                }
                Phase::Move(_) => {
                    game.legal_moves(&state, &mut moves);
                    if ply % 7 == 3 && moves.len() > 1 && out.len() < count {
                        out.push(state.clone());
                    }
                    let mv = moves[rng.gen_range(0..moves.len())].clone();
                    game.play(&mut state, &mv);
                }
            }
        }
    }
    out
}

#[test]
fn alphabeta_values_equal_brute_force_minimax() {
    for (name, depths, count) in [
        ("oware", 1..=4, 12),
        ("kalah", 1..=4, 12),
        ("backgammon", 1..=1, 3),
    ] {
        let game = load(name);
        for state in positions(&game, 3, count) {
            let moves = legal(&game, &state);
            let me = game.phase(&state).to_move().unwrap();
            for depth in depths.clone() {
                let a =
                    players::alphabeta::search(&game, &state, &moves, Budget::Depth(depth), true);
                let expected = brute(&game, &state, me, depth, 0);
                assert!(
                    (a.value - expected).abs() < 1e-9,
                    "{name} depth {depth}: alphabeta {} brute force {expected}",
                    a.value
                );
                for m in &a.moves {
                    let mut child = state.clone();
                    game.play(&mut child, &moves[m.index]);
                    let v = brute(&game, &child, me, depth - 1, 1);
                    assert!(
                        (m.value - v).abs() < 1e-9,
                        "{name} depth {depth} move {}",
                        m.index
                    );
                }
            }
        }
    }
}

#[test]
fn star2_keeps_the_values_of_plain_expectimax() {
    // Without `all`, moves after the first are searched in a window, so the throws below are
    // cut by Star2; the best value and every exact one must still be the full expectation's.
    for (name, depths, count) in [("hypergammon", 1..=3, 4), ("backgammon", 1..=2, 2)] {
        let game = load(name);
        for state in positions(&game, 5, count) {
            let moves = legal(&game, &state);
            let me = game.phase(&state).to_move().unwrap();
            for depth in depths.clone() {
                let a =
                    players::alphabeta::search(&game, &state, &moves, Budget::Depth(depth), false);
                let expected = brute(&game, &state, me, depth, 0);
                assert!(
                    (a.value - expected).abs() < 1e-9,
                    "{name} depth {depth}: star2 {} expectimax {expected}",
                    a.value
                );
                for m in a.moves.iter().filter(|m| m.exact) {
                    let mut child = state.clone();
                    game.play(&mut child, &moves[m.index]);
                    let v = brute(&game, &child, me, depth - 1, 1);
                    assert!((m.value - v).abs() < 1e-9, "{name} depth {depth}");
                }
                for m in a.moves.iter().filter(|m| !m.exact) {
                    let mut child = state.clone();
                    game.play(&mut child, &moves[m.index]);
                    let v = brute(&game, &child, me, depth - 1, 1);
                    assert!(v <= a.value + 1e-9 && m.value >= v - 1e-9, "{name} bound");
                }
            }
        }
    }
}

/// Sends the requests to `ludus protocol` and returns the responses.
fn session(requests: &[String]) -> Vec<Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .arg("protocol")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start ludus protocol");
    {
        let mut stdin = child.stdin.take().unwrap();
        for r in requests {
            writeln!(stdin, "{r}").unwrap();
        }
    }
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn go_answers_a_legal_move_in_every_bundled_game() {
    for (name, _) in ludus::rules::BUNDLED {
        let game = load(name);
        let mut requests = vec![
            json!({"op": "load", "rules": name}).to_string(),
            json!({"op": "new", "seed": 5, "first": 0}).to_string(),
        ];
        if game.dice().is_some() {
            requests.push(json!({"op": "roll"}).to_string());
        }
        requests.push(json!({"op": "legal"}).to_string());
        for player in ["mcts:300", "alphabeta:d2", "greedy", "random"] {
            requests.push(json!({"op": "go", "player": player}).to_string());
        }
        requests.push(json!({"op": "go", "player": "mcts:300"}).to_string());
        requests.push(json!({"op": "go", "player": "alphabeta:x"}).to_string());
        requests.push(json!({"op": "state"}).to_string());
        let r = session(&requests);
        let n = requests.len();
        let legal = r[n - 8]["moves"].as_array().expect("legal moves").clone();
        let before = &r[n - 9]["state"];
        for answer in &r[n - 7..n - 3] {
            assert_eq!(answer["ok"], json!(true), "{name}: {answer}");
            assert!(legal.contains(&answer["move"]), "{name}: {answer}");
        }
        assert!(
            r[n - 7]["info"]["visits"] == json!(300),
            "{name}: {}",
            r[n - 7]
        );
        assert!(r[n - 6]["info"]["nodes"].as_u64().unwrap() > 0, "{name}");
        assert!(r[n - 6]["info"]["depth"].as_u64().unwrap() >= 1, "{name}");
        // The same search again gives the same move; a bad player is refused; nothing changed.
        assert_eq!(r[n - 3], r[n - 7], "{name}");
        assert_eq!(r[n - 2]["ok"], json!(false), "{name}");
        assert_eq!(&r[n - 1]["state"], before, "{name}");
    }
}

#[test]
fn go_refuses_when_no_move_is_awaited() {
    let r = session(&[
        r#"{"op":"go","player":"mcts:10"}"#.into(),
        r#"{"op":"load","rules":"backgammon"}"#.into(),
        r#"{"op":"new","seed":1,"first":0}"#.into(),
        r#"{"op":"go","player":"mcts:10"}"#.into(),
        r#"{"op":"roll","dice":[3,1]}"#.into(),
        r#"{"op":"go"}"#.into(),
        r#"{"op":"go","player":"human"}"#.into(),
        r#"{"op":"go","player":"mcts:d3"}"#.into(),
    ]);
    let errors: Vec<&str> = r.iter().filter_map(|v| v["error"].as_str()).collect();
    assert_eq!(errors.len(), 5, "{r:?}");
    assert!(errors[0].contains("needs a game"));
    assert!(errors[1].contains("dice are awaited"));
    assert!(errors[2].contains("missing field `player`"));
    assert!(errors[3].contains("chooses no move"));
    assert!(errors[4].contains("not a depth"));
}

#[test]
fn a_seed_and_an_iteration_budget_give_the_same_move() {
    for name in ["oware", "backgammon"] {
        let game = load(name);
        for state in positions(&game, 11, 4) {
            let moves = legal(&game, &state);
            let run = |seed| {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                analyse(
                    &game,
                    &state,
                    &moves,
                    Spec::Mcts(Mcts {
                        budget: Budget::Iterations(3000),
                        threads: 1,
                    }),
                    false,
                    &mut rng,
                )
                .unwrap()
            };
            assert_eq!(run(4), run(4), "{name}");
        }
    }
}

#[test]
fn alphabeta_d4_beats_random_at_oware() {
    let game = load("oware");
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let mut wins = 0;
    for g in 0..10 {
        let searcher: Player = g % 2;
        let specs = if searcher == 0 {
            [
                Spec::AlphaBeta(AlphaBeta {
                    budget: Budget::Depth(4),
                }),
                Spec::Random(Random),
            ]
        } else {
            [
                Spec::Random(Random),
                Spec::AlphaBeta(AlphaBeta {
                    budget: Budget::Depth(4),
                }),
            ]
        };
        let mut state = game.new_game(g % 2);
        let mut moves = Vec::new();
        while let Phase::Move(p) = game.phase(&state) {
            game.legal_moves(&state, &mut moves);
            let i = players::choose(&game, &state, &moves, specs[p], &mut rng);
            game.play(&mut state, &moves[i]);
        }
        if game.outcome(&state).and_then(|o| o.winner) == Some(searcher) {
            wins += 1;
        }
    }
    assert!(wins >= 8, "alphabeta:d4 won {wins} of 10 against random");
}

#[test]
fn mcts_keeps_the_subtree_of_the_position_reached() {
    // A random Oware game to a position where South forces a win in three plies; South
    // searched two plies before it, and the searched tree reached it.
    let game = load("oware");
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (earlier, state) = 'games: loop {
        let mut line = vec![game.new_game(0)];
        let mut moves = Vec::new();
        while let Phase::Move(p) = game.phase(line.last().unwrap()) {
            let state = line.last().unwrap().clone();
            if p == 0 && line.len() > 2 && forced_win(&game, &state, 0, 3) {
                break 'games (line[line.len() - 3].clone(), state);
            }
            game.legal_moves(&state, &mut moves);
            let mut next = state;
            game.play(&mut next, &moves[rng.gen_range(0..moves.len())]);
            line.push(next);
        }
    };
    let spec = |n| {
        Spec::Mcts(Mcts {
            budget: Budget::Iterations(n),
            threads: 1,
        })
    };
    let mut memory = Memory::default();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let moves = legal(&game, &earlier);
    analyse_with(
        &game,
        &earlier,
        &moves,
        spec(20_000),
        false,
        &mut memory,
        &mut rng,
    )
    .unwrap();
    let moves = legal(&game, &state);
    let visits = |a: &players::Analysis| a.moves.iter().map(|m| m.visits).sum::<u64>();
    let fresh = analyse(&game, &state, &moves, spec(1), false, &mut rng).unwrap();
    assert_eq!(visits(&fresh), 1);
    let a = analyse_with(
        &game,
        &state,
        &moves,
        spec(2000),
        false,
        &mut memory,
        &mut rng,
    )
    .unwrap();
    assert_eq!(a.nodes, 2000);
    assert!(
        visits(&a) > 2000,
        "the subtree kept no visits: {}",
        visits(&a)
    );
    let mut after = state.clone();
    game.play(&mut after, &moves[a.best]);
    assert!(forced_win(&game, &after, 0, 2), "the win let go");
    // A position the tree never reached starts afresh.
    let elsewhere = game.new_game(1);
    let moves = legal(&game, &elsewhere);
    let a = analyse_with(
        &game,
        &elsewhere,
        &moves,
        spec(10),
        false,
        &mut memory,
        &mut rng,
    );
    assert_eq!(visits(&a.unwrap()), 10);
}

#[test]
fn mcts_keeps_the_subtree_across_the_dice() {
    // A backgammon bear-off with few moves a throw: after White's search and move, Black's
    // throw and move, and White's throw (in either order), White's tree holds the position.
    let game = load("backgammon");
    let mut state = game
        .state_from_json(&json!({
            "to_move": 0, "phase": "move", "dice": [2, 1],
            "points": [[0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                       [0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]],
            "bar": [0, 0], "off": [11, 11]
        }))
        .unwrap();
    let spec = Spec::Mcts(Mcts {
        budget: Budget::Iterations(3000),
        threads: 1,
    });
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut memory = Memory::default();
    let mut kept = Vec::new();
    while game.phase(&state) == Phase::Move(0) {
        let moves = legal(&game, &state);
        let a = analyse_with(&game, &state, &moves, spec, false, &mut memory, &mut rng).unwrap();
        kept.push(a.moves.iter().map(|m| m.visits).sum::<u64>() - a.nodes);
        game.play(&mut state, &moves[a.best]);
        for _ in 0..3 {
            match game.phase(&state) {
                Phase::Roll(_) => {
                    let mut values = game.dice().unwrap().sample(&mut rng).values().to_vec();
                    values.sort();
                    let roll = Roll::new(&values).unwrap();
                    game.roll(&mut state, &roll).unwrap();
                }
                Phase::Move(1) => {
                    let moves = legal(&game, &state);
                    game.play(&mut state, &moves[rng.gen_range(0..moves.len())]);
                }
                _ => break,
            }
        }
    }
    assert_eq!(kept[0], 0);
    assert!(
        kept[1..].iter().any(|&k| k > 0),
        "no subtree kept: {kept:?}"
    );
}

#[test]
fn mcts_in_threads_with_a_seed_and_iterations_is_reproducible() {
    for name in ["oware", "backgammon"] {
        let game = load(name);
        for state in positions(&game, 13, 2) {
            let moves = legal(&game, &state);
            let run = |seed| {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let spec = Spec::Mcts(Mcts {
                    budget: Budget::Iterations(1500),
                    threads: 3,
                });
                analyse(&game, &state, &moves, spec, false, &mut rng).unwrap()
            };
            let a = run(4);
            assert_eq!(a.nodes, 4500, "{name}");
            assert_eq!(a.moves.iter().map(|m| m.visits).sum::<u64>(), 4500);
            assert_eq!(a, run(4), "{name}");
        }
    }
}
