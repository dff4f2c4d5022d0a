//! Moves sown either way round (`sowing.reverse`, `sowing.direction_choice`): known positions
//! with the exact boards each way, relays, captures and chains that follow the move's way round;
//! the moves listed (a pit twice only where the mover chooses); the texts `3`, `3cw`, `3ccw`
//! and the protocol's move objects; random play keeps every stone; the rules in plain words.

mod sowing_common;

use ludus::game::{Game, Json, Notation, Phase, View};
use ludus::protocol::Session;
use ludus::sowing::{SowingGame, SowingMove, SowingState};
use serde_json::{json, Value};
use sowing_common::{from_text, game, stones, with};

fn file(name: &str) -> SowingGame {
    let path = format!("{}/docs/games/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    from_text(&std::fs::read_to_string(path).unwrap())
}

/// A position, South to move; the stones the pits leave out are in North's store.
fn set(g: &SowingGame, p0: &[u8], p1: &[u8]) -> SowingState {
    let pits: u32 = p0.iter().chain(p1).map(|&c| u32::from(c)).sum();
    let rest = g.total_stones() - pits;
    g.state_from_json(&json!({"to_move": 0, "pits": [p0, p1], "stores": [0, rest]}))
        .unwrap_or_else(|e| panic!("{e}"))
}

fn legal(g: &SowingGame, st: &SowingState) -> Vec<SowingMove> {
    let mut v = Vec::new();
    g.legal_moves(st, &mut v);
    v
}

fn texts(g: &SowingGame, st: &SowingState) -> Vec<String> {
    legal(g, st).iter().map(|m| g.move_text(st, m)).collect()
}

fn play(g: &SowingGame, st: &mut SowingState, text: &str) -> Value {
    let mv = g.parse_move(st, text).unwrap_or_else(|e| panic!("{e}"));
    assert!(legal(g, st).contains(&mv), "{text} not listed as legal");
    g.play(st, &mv);
    g.state_json(st)
}

fn board(s: &Value) -> Value {
    json!([s["pits"], s["stores"]])
}

/// Um el-Bagara's start: pits 1 and 2 sow clockwise, 4 and 5 counterclockwise (each one move,
/// written `1`), the centre pit either way (two moves, written with their direction).
#[test]
fn um_el_bagara_lists_the_centre_pit_both_ways() {
    let g = file("um-el-bagara");
    let st = g.new_game(0);
    assert_eq!(texts(&g, &st), ["3ccw", "4", "5", "1", "2", "3cw"]);
    assert_eq!(
        legal(&g, &st),
        [
            SowingMove::pit(3),
            SowingMove::pit(4),
            SowingMove::pit(5),
            SowingMove::other_way(1),
            SowingMove::other_way(2),
            SowingMove::other_way(3)
        ]
    );
    let e = g.parse_move(&st, "3").unwrap_err().to_string();
    assert!(e.contains("either way: `3cw` or `3ccw`"), "{e}");
    let e = g.parse_move(&st, "1ccw").unwrap_err().to_string();
    assert!(e.contains("pit 1 sows only clockwise"), "{e}");
    assert_eq!(g.parse_move(&st, "1cw"), Ok(SowingMove::other_way(1)));
    assert_eq!(g.parse_move(&st, " 3 CW "), Ok(SowingMove::other_way(3)));
    assert_eq!(g.parse_move(&st, "4ccw"), Ok(SowingMove::pit(4)));
    let e = g.parse_move(&st, "3x").unwrap_err().to_string();
    assert!(e.contains("with `cw` or `ccw`"), "{e}");
    let described = g.describe();
    assert!(described
        .contains("A pit where `pit.number <= 2` is sown the other way round (clockwise)."));
    assert!(described.contains("may be sown either way round, at your choice"));
}

/// The centre pit (5 stones) sown each way from the start, the exact boards.
#[test]
fn the_centre_pit_sows_each_way() {
    let g = file("um-el-bagara");
    let mut ccw = g.new_game(0);
    let s = play(&g, &mut ccw, "3ccw");
    // South's 4 and 5, then North's 1, 2 and 3.
    assert_eq!(
        board(&s),
        json!([[[5, 5, 0, 6, 6], [6, 6, 6, 5, 5]], [0, 0]])
    );
    let mut cw = g.new_game(0);
    let s = play(&g, &mut cw, "3cw");
    // South's 2 and 1, then North's 5, 4 and 3.
    assert_eq!(
        board(&s),
        json!([[[6, 6, 0, 5, 5], [5, 5, 6, 6, 6]], [0, 0]])
    );
    assert_eq!(s["to_move"], 1);
}

/// South's pit 1 sows clockwise into North's row from its pit 5 down; the last stone makes
/// North's pit 3 hold 2, and the chain walks back against the move's way round: North's pits 4
/// and 5 (4 and 2), then South's pit 1, where it stops. Sown counterclockwise the same stones
/// stay in South's row and take nothing.
#[test]
fn the_capture_chain_follows_the_moves_way_round() {
    let g = file("um-el-bagara");
    let mut st = set(&g, &[3, 0, 0, 0, 2], &[2, 1, 1, 3, 1]);
    let s = play(&g, &mut st, "1");
    // Pit 1 (3): North's 5 (2), 4 (4), 3 (2): North's 3, 4, 5 taken (8 stones).
    assert_eq!(
        board(&s),
        json!([[[0, 0, 0, 0, 2], [2, 1, 0, 0, 0]], [8, 37]])
    );
    // The same rules with every pit sown counterclockwise: pit 1's stones stay in South's row.
    let ccw = from_text(
        &std::fs::read_to_string(format!(
            "{}/docs/games/um-el-bagara.toml",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
        .replace("reverse = \"pit.number <= 2\"\n", ""),
    );
    let mut st = set(&ccw, &[3, 0, 0, 0, 2], &[2, 1, 1, 3, 1]);
    let s = play(&ccw, &mut st, "1");
    assert_eq!(
        board(&s),
        json!([[[0, 1, 1, 1, 2], [2, 1, 1, 3, 1]], [0, 37]])
    );
}

/// Kalah sown either way: the store is on the circuit one way only before North's row, and the
/// capture's last pit and opposite pit follow the move.
#[test]
fn stores_and_captures_follow_the_moves_way_round() {
    let g = from_text(&with("kalah", "sowing", "direction_choice = \"true\""));
    // Kalah sown clockwise from pit 1 (two stones): South's store is not next that way; North's
    // pit 6 and 5 receive them, and the move ends on North's side (no move again).
    let mut st = set(&g, &[2, 0, 0, 0, 0, 1], &[0, 0, 0, 0, 0, 1]);
    let s = play(&g, &mut st, "1cw");
    assert_eq!(
        board(&s),
        json!([[[0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 1, 2]], [0, 44]])
    );
    assert_eq!(s["to_move"], 1);
    // Pit 6 (one stone) counterclockwise lands in South's store: South moves again.
    let mut st = set(&g, &[2, 0, 0, 0, 0, 1], &[0, 0, 0, 0, 0, 1]);
    let s = play(&g, &mut st, "6ccw");
    assert_eq!(
        board(&s),
        json!([[[2, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1]], [1, 44]])
    );
    assert_eq!(s["to_move"], 0);
    // Clockwise, pit 6's stone goes into pit 5 (empty, own): the capture of the opposite pit
    // (North's 2, empty) and the last stone.
    let mut st = set(&g, &[2, 0, 0, 0, 0, 1], &[0, 1, 0, 0, 0, 1]);
    let s = play(&g, &mut st, "6cw");
    assert_eq!(
        board(&s),
        json!([[[2, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1]], [2, 43]])
    );
}

/// Where `direction_choice` is `"true"`, always sowing the rules' way plays the game without the
/// choice (but with `must_feed`, Oware: a move the other way may feed where none the rules' way
/// does); random play both ways keeps every stone, every listed move's text and JSON read back
/// as that move, and every game ends.
#[test]
fn random_play_both_ways_keeps_every_stone() {
    let pairs = [
        ("oware", false),
        ("kalah", true),
        ("sat-gharva", true),
        ("toguz-korgool", true),
        ("omweso", true),
    ];
    let mut seed = 11u64;
    let mut below = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 33) as usize) % n
    };
    let mut other_way = 0;
    for (name, same) in pairs {
        let plain = game(name);
        let either = from_text(&with(name, "sowing", "direction_choice = \"true\""));
        for i in 0..20 {
            // The rules' way every time: the same game.
            let (mut a, mut b) = (plain.new_game(i % 2), either.new_game(i % 2));
            while same && plain.phase(&a) != Phase::Over {
                let moves = legal(&plain, &a);
                let mv = moves[below(moves.len())];
                plain.play(&mut a, &mv);
                assert!(legal(&either, &b).contains(&mv));
                either.play(&mut b, &mv);
                let (x, y) = (plain.state_json(&a), either.state_json(&b));
                for key in ["pits", "stores", "to_move", "ply", "result"] {
                    assert_eq!(x.get(key), y.get(key), "{name}: {key}");
                }
            }
            // Random ways.
            let total = u64::from(either.total_stones());
            let mut st = either.new_game(i % 2);
            let mut steps = 0;
            while either.phase(&st) != Phase::Over {
                let moves = legal(&either, &st);
                for mv in &moves {
                    let text = either.move_text(&st, mv);
                    assert_eq!(either.parse_move(&st, &text), Ok(*mv), "{name}: {text}");
                    let j = either.move_json(&st, mv);
                    assert_eq!(j["text"], json!(text));
                    assert_eq!(j["pit"], json!(mv.sown_pit()));
                }
                let mv = moves[below(moves.len())];
                other_way += usize::from(mv.is_other_way());
                either.play(&mut st, &mv);
                assert_eq!(stones(&either.state_json(&st)), total, "{name}");
                steps += 1;
                assert!(steps < 100_000, "{name}: a game that does not end");
            }
        }
    }
    assert!(other_way > 1000, "{other_way} moves sown the other way");
}

/// The written games: random play keeps every stone and only lists a pit twice where the mover
/// chooses its way round.
#[test]
fn the_written_games_list_a_pit_twice_only_where_chosen() {
    for (name, chosen) in [
        ("um-el-bagara", vec![3u8]),
        ("um-el-tuweisat", vec![2]),
        ("bao-ki-arabu", (1..=16).collect()),
    ] {
        let g = file(name);
        let total = u64::from(g.total_stones());
        for seed in 0..30usize {
            let mut st = g.new_game(seed % 2);
            let mut k = seed;
            while g.phase(&st) != Phase::Over {
                let moves = legal(&g, &st);
                for mv in &moves {
                    let pit = mv.sown_pit().expect("a pit");
                    let twice = moves.contains(&SowingMove::other_way(pit))
                        && moves.contains(&SowingMove::pit(pit));
                    assert!(!twice || chosen.contains(&pit), "{name}: pit {pit} twice");
                    let text = g.move_text(&st, mv);
                    assert_eq!(twice, text.ends_with("cw"), "{name}: {text}");
                }
                k = k.wrapping_mul(31).wrapping_add(7);
                g.play(&mut st, &moves[k % moves.len()]);
                assert_eq!(stones(&g.state_json(&st)), total, "{name}");
            }
        }
    }
}

#[test]
fn a_direction_goes_through_the_protocol() {
    let mut s = Session::default();
    let mut ask = |request: Value| s.handle_line(&request.to_string()).0;
    let path = format!(
        "{}/docs/games/um-el-bagara.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let r = ask(json!({"op": "load", "rules": path}));
    assert_eq!(r["ok"], true, "{r}");
    ask(json!({"op": "new", "seed": 1, "first": 0}));
    let moves = ask(json!({"op": "legal"}))["moves"].clone();
    assert_eq!(
        moves[0],
        json!({"pit": 3, "text": "3ccw", "direction": "counterclockwise"})
    );
    assert_eq!(
        moves[3],
        json!({"pit": 1, "text": "1", "direction": "clockwise"})
    );
    assert_eq!(ask(json!({"op": "play", "move": "3"}))["ok"], false);
    let r = ask(json!({"op": "play", "move": moves[5]["text"]}));
    assert_eq!(
        r["state"]["pits"],
        json!([[6, 6, 0, 5, 5], [5, 5, 6, 6, 6]])
    );
    // A game without direction keys keeps its move objects.
    ask(json!({"op": "load", "rules": "oware"}));
    ask(json!({"op": "new", "seed": 1, "first": 0}));
    let moves = ask(json!({"op": "legal"}))["moves"].clone();
    assert_eq!(moves[0], json!({"pit": 1, "text": "1"}));
}

/// A pit the mover may sow either way is written with its direction even where only one way
/// is legal: the same move has the same text in every position.
#[test]
fn a_chosen_direction_is_written_even_when_only_one_way_is_legal() {
    let g = from_text(
        "[game]\nname = \"feed-either-way\"\nfamily = \"sowing\"\n[board]\npits = 6\n\
         stores = true\n[setup]\nstones = 4\n[sowing]\ndirection_choice = \"pit.number == 6\"\n\
         must_feed = true\n",
    );
    // North has nothing: pit 6 feeds North sown counterclockwise only.
    let st = set(&g, &[0, 0, 0, 0, 0, 1], &[0, 0, 0, 0, 0, 0]);
    assert_eq!(texts(&g, &st), ["6ccw"]);
    assert!(
        g.parse_move(&st, "6").is_ok(),
        "the only way of pit 6 is read"
    );
    assert!(g.parse_move(&st, "6cw").is_err());
}
