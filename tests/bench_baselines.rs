//! The benchmark's hand-written engines replay OpenSpiel's random games exactly, so the speed
//! ratio compares engines of the same rules.

use ludus::bench::backgammon_baseline::{MoveGenerator, Position};
use ludus::bench::oware_baseline::{End, Oware};
use ludus::bench::{baseline_for, random_games, WyRand};
use ludus::registry::compile;
use ludus::rules::Source;
use ludus::with_game;
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
    let games = traces("openspiel/oware-visible.jsonl");
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
    let games = traces("openspiel/backgammon-visible.jsonl");
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

/// A plain board for the reference generator: `me[n]`, `opp[n]` on the mover's point `n`
/// (1..=24), the mover's bar at `me[25]`.
#[derive(Clone, Copy)]
struct Board {
    me: [u8; 26],
    opp: [u8; 26],
    opp_bar: u8,
    off: [u8; 2],
}

impl Board {
    fn start() -> Board {
        let mut board = Board {
            me: [0; 26],
            opp: [0; 26],
            opp_bar: 0,
            off: [0, 0],
        };
        for (point, count) in [(24, 2), (13, 5), (8, 3), (6, 5)] {
            board.me[point] = count;
            board.opp[25 - point] = count;
        }
        board
    }

    fn position(&self) -> Position {
        Position::from_points(
            self.me[1..25].try_into().unwrap(),
            self.opp[1..25].try_into().unwrap(),
            [self.me[25], self.opp_bar],
            self.off,
        )
    }

    fn flip(&self) -> Board {
        let mut flipped = Board {
            me: [0; 26],
            opp: [0; 26],
            opp_bar: self.me[25],
            off: [self.off[1], self.off[0]],
        };
        for n in 1..=24 {
            flipped.me[n] = self.opp[25 - n];
            flipped.opp[n] = self.me[25 - n];
        }
        flipped.me[25] = self.opp_bar;
        flipped
    }

    /// Single checker moves by `die`, straight from the rules.
    fn moves(&self, die: usize) -> Vec<Board> {
        let all_home = self.me[7..].iter().all(|&c| c == 0);
        let farthest = (1..=25).rev().find(|&n| self.me[n] > 0).unwrap_or(0);
        let from_points: Vec<usize> = if self.me[25] > 0 {
            vec![25]
        } else {
            (1..=24).collect()
        };
        let mut out = Vec::new();
        for from in from_points.into_iter().filter(|&n| self.me[n] > 0) {
            let mut next = *self;
            next.me[from] -= 1;
            if from > die {
                let to = from - die;
                if self.opp[to] >= 2 {
                    continue;
                }
                if self.opp[to] == 1 {
                    next.opp[to] = 0;
                    next.opp_bar += 1;
                }
                next.me[to] += 1;
            } else if all_home && (from == die || from == farthest) {
                next.off[0] += 1;
            } else {
                continue;
            }
            out.push(next);
        }
        out
    }

    /// Every play, dice in every order: (board, dice used, first die).
    fn plays(
        &self,
        dice: &[usize],
        used: usize,
        first: usize,
        out: &mut Vec<(Board, usize, usize)>,
    ) {
        let mut moved = false;
        for (i, &die) in dice.iter().enumerate() {
            let rest: Vec<usize> = dice
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &d)| d)
                .collect();
            for next in self.moves(die) {
                moved = true;
                next.plays(&rest, used + 1, if used == 0 { die } else { first }, out);
            }
        }
        if !moved && used > 0 {
            out.push((*self, used, first));
        }
    }
}

/// The baseline's generator (pruned, bitmask-driven) against a plain one straight from the
/// rules, over the positions of random games.
#[test]
fn backgammon_baseline_matches_a_plain_generator() {
    let mut rng = WyRand::new(5);
    let mut generator = MoveGenerator::new();
    for _ in 0..40 {
        let mut board = Board::start();
        while board.off[0] < 15 && board.off[1] < 15 {
            let dice = [rng.below(6) as usize + 1, rng.below(6) as usize + 1];
            let all = if dice[0] == dice[1] {
                vec![dice[0]; 4]
            } else {
                dice.to_vec()
            };
            let mut plays = Vec::new();
            board.plays(&all, 0, 0, &mut plays);
            let most = plays.iter().map(|p| p.1).max().unwrap_or(0);
            plays.retain(|p| p.1 == most);
            let high = dice[0].max(dice[1]);
            if most == 1 && plays.iter().any(|p| p.2 == high) {
                plays.retain(|p| p.2 == high);
            }
            let expected: HashSet<Position> = plays.iter().map(|p| p.0.position()).collect();
            let reached =
                generator.positions_after(&board.position(), [dice[0] as u8, dice[1] as u8]);
            assert_eq!(reached.len(), expected.len(), "dice {dice:?}");
            assert_eq!(
                reached.iter().copied().collect::<HashSet<_>>(),
                expected,
                "dice {dice:?}"
            );
            if !plays.is_empty() {
                board = plays[rng.below(plays.len() as u32) as usize].0;
            }
            board = board.flip();
        }
    }
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

/// The interpreter and the baseline play the same rules, so their random games last as long on
/// average: within five standard errors (a random game's length spreads about 45 plies), plus a
/// ply for small differences in set-up such as the opening roll.
#[test]
fn interpreter_and_baseline_random_games_last_as_long() {
    for name in ["oware", "backgammon"] {
        let source = Source::find(name).unwrap();
        let game = compile(&source.text).unwrap();
        let interpreter = with_game!(&game, g => random_games(g, 0.5, 3));
        let baseline = baseline_for(&source.text).unwrap()(0.5, 4);
        for rates in [&interpreter, &baseline] {
            // A measurement stops at its first check past the time asked for (the process's CPU
            // time: other test threads count too), not long after.
            assert!((0.5..1.5).contains(&rates.cpu_seconds), "{name}: {rates:?}");
            assert!(rates.plies >= rates.games * 10, "{name}: {rates:?}");
        }
        let standard_error =
            45.0 * (1.0 / interpreter.games as f64 + 1.0 / baseline.games as f64).sqrt();
        let difference = interpreter.mean_plies() - baseline.mean_plies();
        assert!(
            difference.abs() < 5.0 * standard_error + 1.0,
            "{name}: interpreter {interpreter:?}, baseline {baseline:?}"
        );
    }
    assert!(baseline_for(&Source::find("kalah").unwrap().text).is_none());
}

/// A modified copy that keeps `name = "oware"` is not timed against standard Oware.
#[test]
fn only_the_exact_rules_get_a_baseline() {
    let oware = Source::find("oware").unwrap().text;
    assert!(baseline_for(&oware).is_some());
    let changed = oware.replace("stones = 4", "stones = 5");
    assert_ne!(changed, oware);
    assert!(compile(&changed).is_ok());
    assert!(baseline_for(&changed).is_none());
}
