//! The benchmark's hand-written engines replay OpenSpiel's random games exactly, so the speed
//! ratio compares engines of the same rules.

use ludus::bench::backgammon_baseline::{MoveGenerator, Position};
use ludus::bench::oware_baseline::{End, Oware};
use ludus::bench::WyRand;
use serde_json::Value;
use std::collections::HashSet;

fn traces(file: &str) -> Vec<Value> {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(|line| serde_json::from_str(line).expect("trace line is JSON"))
        .collect()
}

fn numbers<T: TryFrom<u64>>(v: &Value) -> Vec<T> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|n| match T::try_from(n.as_u64().expect("number")) {
            Ok(n) => n,
            Err(_) => panic!("number out of range: {n}"),
        })
        .collect()
}

#[test]
fn oware_baseline_replays_openspiel() {
    let games = traces("oware-visible.jsonl");
    assert_eq!(games.len(), 300);
    let mut ends = HashSet::new();
    let mut game = Oware::new();
    for trace in &games {
        game.restart();
        let id = &trace["game"];
        for step in trace["steps"].as_array().unwrap() {
            let ply = &step["ply"];
            assert_eq!(game.end(), None, "game {id} ply {ply}: ended early");
            assert_eq!(
                game.pits().to_vec(),
                numbers::<u8>(&step["pits"]),
                "game {id} ply {ply}"
            );
            assert_eq!(
                game.scores().to_vec(),
                numbers::<u8>(&step["scores"]),
                "game {id} ply {ply}"
            );
            assert_eq!(game.to_move() as u64, step["to_move"].as_u64().unwrap());
            let legal: Vec<usize> = game.legal_houses().collect();
            assert_eq!(
                legal,
                numbers::<usize>(&step["legal"]),
                "game {id} ply {ply}"
            );
            game.play(step["move"].as_u64().unwrap() as usize);
        }
        let end = match trace["end_reason"].as_str().unwrap() {
            "score_majority" => End::Majority,
            "repetition" => End::Repetition,
            "no_legal_moves" => End::NoLegalMove,
            other => panic!("unknown end {other}"),
        };
        assert_eq!(game.end(), Some(end), "game {id}");
        ends.insert(trace["end_reason"].as_str().unwrap());
        assert_eq!(game.pits().to_vec(), numbers::<u8>(&trace["final"]["pits"]));
        assert_eq!(
            game.scores().to_vec(),
            numbers::<u8>(&trace["final"]["scores"])
        );
        assert_eq!(
            game.winner().map(|w| w as u64),
            trace["winner"].as_u64(),
            "game {id}"
        );
    }
    assert_eq!(ends.len(), 3, "the traces exercise every way a game ends");
}

#[test]
fn oware_baseline_random_games_keep_48_seeds_and_end() {
    let mut rng = WyRand::new(7);
    let mut game = Oware::new();
    for _ in 0..2000 {
        game.restart();
        let mut plies = 0;
        while game.end().is_none() {
            let legal: Vec<usize> = game.legal_houses().collect();
            game.play(legal[rng.below(legal.len() as u32) as usize]);
            let [s0, s1] = game.scores();
            let seeds: u32 = game.pits().iter().map(|&s| s as u32).sum();
            assert_eq!(seeds + s0 as u32 + s1 as u32, 48);
            plies += 1;
            assert!(plies < 2000, "random game does not end");
        }
        assert!(game.legal_houses().next().is_none());
    }
}

/// The trace's board of the mover, as the baseline's position.
fn position(board: &Value) -> Position {
    let points = |key: &str| -> [u8; 24] { numbers::<u8>(&board[key]).try_into().unwrap() };
    let count = |key: &str| board[key].as_u64().unwrap() as u8;
    Position::from_points(
        points("me"),
        points("opp"),
        [count("me_bar"), count("opp_bar")],
        [count("me_off"), count("opp_off")],
    )
}

/// Plays a move (pairs of mover's points, `"bar"`, `"off"`) on the trace's board mechanically:
/// pairs in their canonical order (descending source) are a valid playing order.
fn after(board: &Value, mv: &Value) -> Position {
    let mut me: Vec<u8> = numbers(&board["me"]);
    let mut opp: Vec<u8> = numbers(&board["opp"]);
    let [mut me_bar, mut opp_bar, mut me_off] =
        ["me_bar", "opp_bar", "me_off"].map(|k| board[k].as_u64().unwrap() as u8);
    for pair in mv.as_array().unwrap() {
        match &pair[0] {
            Value::String(s) if s == "bar" => me_bar -= 1,
            from => me[from.as_u64().unwrap() as usize - 1] -= 1,
        }
        match &pair[1] {
            Value::String(s) if s == "off" => me_off += 1,
            to => {
                let to = to.as_u64().unwrap() as usize - 1;
                if opp[to] == 1 {
                    opp[to] = 0;
                    opp_bar += 1;
                }
                me[to] += 1;
            }
        }
    }
    Position::from_points(
        me.try_into().unwrap(),
        opp.try_into().unwrap(),
        [me_bar, opp_bar],
        [me_off, board["opp_off"].as_u64().unwrap() as u8],
    )
}

#[test]
fn backgammon_baseline_matches_openspiel_longest_moves() {
    let games = traces("backgammon-visible.jsonl");
    assert_eq!(games.len(), 40);
    let mut generator = MoveGenerator::new();
    let (mut turns, mut passes, mut partial) = (0, 0, 0);
    for trace in &games {
        let id = &trace["game"];
        let trace_turns = trace["turns"].as_array().unwrap();
        for (i, turn) in trace_turns.iter().enumerate() {
            let board = &turn["board"];
            let start = position(board);
            let dice: Vec<u8> = numbers(&turn["dice"]);
            let legal = turn["legal"].as_array().unwrap();
            // OpenSpiel applies the "use as many dice as possible" rule to each half of a
            // double separately; cut its list to its longest moves (the standard set).
            let longest = legal
                .iter()
                .map(|m| m.as_array().unwrap().len())
                .max()
                .unwrap();
            let expected: HashSet<Position> = legal
                .iter()
                .filter(|m| m.as_array().unwrap().len() == longest)
                .map(|m| after(board, m))
                .filter(|p| *p != start)
                .collect();
            let all_dice = if dice[0] == dice[1] { 4 } else { 2 };
            passes += (longest == 0) as u32;
            partial += (longest > 0 && longest < all_dice) as u32;
            let reached = generator.positions_after(&start, [dice[0], dice[1]]);
            let distinct: HashSet<Position> = reached.iter().copied().collect();
            assert_eq!(
                distinct.len(),
                reached.len(),
                "game {id} turn {i}: duplicates"
            );
            assert_eq!(distinct, expected, "game {id} turn {i}: dice {dice:?}");
            for p in reached {
                assert_eq!(p.checkers(), [15, 15]);
            }
            if let Some(next) = trace_turns.get(i + 1) {
                let played = after(board, &turn["chosen"]).flip();
                assert_eq!(
                    played,
                    position(&next["board"]),
                    "game {id} turn {i}: replay"
                );
            }
            turns += 1;
        }
        let last = trace_turns.last().unwrap();
        let end = after(&last["board"], &last["chosen"]);
        assert_eq!(
            end.mover_off(),
            15,
            "game {id}: the last mover bore off everything"
        );
    }
    assert!(
        turns > 3000 && passes > 0 && partial > 0,
        "{turns} {passes} {partial}"
    );
}

#[test]
fn backgammon_baseline_random_games_keep_checkers_and_end() {
    let mut rng = WyRand::new(11);
    let mut generator = MoveGenerator::new();
    for _ in 0..300 {
        let mut position = Position::start();
        for turn in 0.. {
            assert!(turn < 5000, "random game does not end");
            let dice = [rng.below(6) as u8 + 1, rng.below(6) as u8 + 1];
            let reached = generator.positions_after(&position, dice);
            assert!(reached.iter().all(|p| p.checkers() == [15, 15]));
            if !reached.is_empty() {
                position = reached[rng.below(reached.len() as u32) as usize];
                if position.mover_off() == 15 {
                    break;
                }
            }
            position = position.flip();
        }
    }
}
