//! The bundled tables games beyond Backgammon, Had and Mughrabieh, rule by rule on known
//! positions through the public `Game` API; and every bundled tables game played to its end by
//! random and greedy players.

mod tables_common;
mod tools_common;
use tables_common::{legal, load, play, tables_compile};

use ludus::game::{Game, Json, Phase, Roll};
use ludus::players::{choose, Greedy, Random, Spec};
use ludus::rules::{Source, BUNDLED};
use ludus::tables::{TablesGame, TablesState};
use rand::SeedableRng;
use serde_json::{json, Value};

/// A side from `"24:2 13:5 bar:1 off:3 pool:2"` (own numbering).
fn side(text: &str) -> ([u8; 24], u8, u8, u8) {
    let (mut points, mut bar, mut off, mut pool) = ([0u8; 24], 0, 0, 0);
    for entry in text.split_whitespace() {
        let (at, n) = entry.split_once(':').unwrap();
        let n: u8 = n.parse().unwrap();
        match at {
            "bar" => bar = n,
            "off" => off = n,
            "pool" => pool = n,
            p => points[p.parse::<usize>().unwrap() - 1] = n,
        }
    }
    (points, bar, off, pool)
}

/// White (player 0) and Black in their own numberings, `to_move` to play `dice`; `extra` adds
/// STATE fields (`moved`, `pinned`).
fn at(
    g: &TablesGame,
    white: &str,
    black: &str,
    to_move: usize,
    dice: &[u8],
    extra: Value,
) -> TablesState {
    let (w, b) = (side(white), side(black));
    let mut state = json!({
        "to_move": to_move,
        "phase": if dice.is_empty() { "roll" } else { "move" },
        "points": [w.0, b.0], "bar": [w.1, b.1], "off": [w.2, b.2], "dice": dice,
        "moved": [true, true],
    });
    if w.3 + b.3 > 0 {
        state["pool"] = json!([w.3, b.3]);
    }
    for (k, v) in extra.as_object().unwrap() {
        state[k] = v.clone();
    }
    g.state_from_json(&state).unwrap()
}

/// The start position of a new game, as the STATE's `points` (and `pool`) fields.
fn start(g: &TablesGame) -> Value {
    let j = g.state_json(&g.new_game(0));
    json!({"points": j["points"], "pool": j.get("pool")})
}

/// A finished game's winner and scores.
fn result(g: &TablesGame, st: &TablesState) -> (Option<usize>, [i32; 2], String) {
    assert_eq!(g.phase(st), Phase::Over);
    let o = g.outcome(st).unwrap();
    (o.winner, o.scores, o.reason)
}

#[test]
fn start_positions() {
    let row = |text: &str| json!(side(text).0);
    for (name, white) in [
        ("nackgammon", "24:2 23:2 13:4 8:3 6:4"),
        ("hypergammon", "24:1 23:1 22:1"),
        ("portes", "24:2 13:5 8:3 6:5"),
        ("plakoto", "24:15"),
        ("fevga", "24:15"),
        ("long-nardy", "24:15"),
    ] {
        let g = load(name);
        assert_eq!(
            start(&g)["points"],
            json!([row(white), row(white)]),
            "{name}"
        );
    }
    let g = load("acey-deucey");
    assert_eq!(start(&g)["points"], json!([vec![0; 24], vec![0; 24]]));
    assert_eq!(start(&g)["pool"], json!([15, 15]));
}

#[test]
fn gammons_and_backgammons_as_each_game_counts_them() {
    // White bears off its last checker; Black has none off and one on the bar.
    for (name, backgammon, gammon, single) in [
        ("nackgammon", 3, 2, 1),
        ("hypergammon", 3, 2, 1),
        ("portes", 2, 2, 1),
        ("acey-deucey", 3, 2, 1),
    ] {
        let g = load(name);
        let n = |k: u8| k.to_string();
        let white = |off: u8| format!("1:1 off:{}", n(off));
        let checkers: u8 = if name == "hypergammon" { 3 } else { 15 };
        for (black, points) in [
            (format!("bar:1 19:{}", checkers - 1), backgammon),
            (format!("12:{checkers}"), gammon),
            (format!("12:{} off:1", checkers - 1), single),
        ] {
            let mut st = at(&g, &white(checkers - 1), &black, 0, &[2, 1], json!({}));
            play(&g, &mut st, "1/off");
            let (winner, scores, _) = result(&g, &st);
            assert_eq!((winner, scores), (Some(0), [points, 0]), "{name}: {black}");
        }
    }
}

#[test]
fn plakoto_pins_a_lone_checker_instead_of_hitting_it() {
    let g = load("plakoto");
    // Black's lone checker on its 12 is White's 13.
    let mut st = at(&g, "14:1 6:14", "12:1 24:14", 0, &[1, 3], json!({}));
    assert_eq!(
        legal(&g, &st),
        ["14/11 6/5", "14/13* 6/3", "14/13*/10", "6/2", "6/5 6/3"]
    );
    play(&g, &mut st, "14/13* 6/3");
    let j = g.state_json(&st);
    assert_eq!(j["pinned"], json!([[], [12]]));
    assert_eq!(j["bar"], json!([0, 0]), "nothing is hit");
    assert_eq!(
        (j["points"][0][12].clone(), j["points"][1][11].clone()),
        (json!(1), json!(1))
    );
    // The pinned checker cannot move; White's lone 3 (Black's 22) is pinned in turn.
    g.roll(&mut st, &Roll::new(&[1, 2]).unwrap()).unwrap();
    assert_eq!(legal(&g, &st), ["24/21", "24/23 24/22*"]);
    // Once the pinner leaves, the checker is free again.
    let mut st = at(
        &g,
        "13:1 6:14",
        "12:1 24:14",
        0,
        &[5, 4],
        json!({"pinned": [[], [12]]}),
    );
    play(&g, &mut st, "13/8 6/2");
    assert_eq!(g.state_json(&st)["pinned"], json!([[], []]));
    g.roll(&mut st, &Roll::new(&[1, 2]).unwrap()).unwrap();
    assert!(legal(&g, &st).iter().any(|m| m.starts_with("12/")));
}

#[test]
fn plakoto_a_pinner_holds_its_point_and_pinned_checkers_count_as_left() {
    let g = load("plakoto");
    // White's pinner on 13 (Black's 12) holds the point against Black's 24/12.
    let st = at(
        &g,
        "13:1 6:14",
        "12:1 24:14",
        1,
        &[6, 6],
        json!({"pinned": [[], [12]]}),
    );
    assert!(
        legal(&g, &st).iter().all(|m| !m.contains("/12")),
        "{:?}",
        legal(&g, &st)
    );
    // A pinned checker counts against its owner: White bears off its last checker, the one
    // pinning Black's on White's 5 (Black's 20), and Black has none off: a gammon.
    let pin = json!({"pinned": [[], [20]]});
    let mut st = at(&g, "5:1 off:14", "20:1 6:14", 0, &[5, 2], pin);
    play(&g, &mut st, "5/off");
    assert_eq!(result(&g, &st).1, [2, 0]);
}

#[test]
fn plakoto_pinning_the_last_checker_on_its_start_wins_two() {
    let g = load("plakoto");
    // Black's last checker on its 24 (White's 1); White lands there from 3.
    let mut st = at(&g, "3:1 6:14", "24:1 12:14", 0, &[2, 5], json!({}));
    play(&g, &mut st, "3/1* 6/1");
    let (winner, scores, reason) = result(&g, &st);
    assert_eq!((winner, scores), (Some(0), [2, 0]));
    // The ending says what the rule's `said` says; without it, the condition.
    assert_eq!(
        reason,
        "the opponent's last checker pinned on its starting point"
    );
    let text = BUNDLED.iter().find(|(n, _)| *n == "plakoto").unwrap().1;
    let said = "said = \"the opponent's last checker pinned on its starting point\"\n";
    let g = tables_compile(&text.replace(said, "")).unwrap();
    let mut st = at(&g, "3:1 6:14", "24:1 12:14", 0, &[2, 5], json!({}));
    play(&g, &mut st, "3/1* 6/1");
    let reason = result(&g, &st).2;
    assert_eq!(reason, "`theirs(1) == 1 and pinned_theirs(1) == 1` held");
    let g = load("plakoto");
    // Two Black checkers still on the start: no mother-checker win.
    let mut st = at(&g, "3:1 6:14", "24:2 12:13", 0, &[2, 5], json!({}));
    let moves = legal(&g, &st);
    assert!(
        moves.iter().all(|m| !m.contains("/1*")),
        "two checkers block: {moves:?}"
    );
    play(&g, &mut st, &moves[0]);
    assert_eq!(g.phase(&st), Phase::Roll(1));
}

#[test]
fn fevga_single_checkers_hold_points_and_the_sides_run_the_same_way() {
    let g = load("fevga");
    // White's 13 is Black's 1, White's 12 is Black's 24 (same direction, n + 12 round).
    let st = at(&g, "14:1 6:14", "24:1 12:14", 0, &[2, 1], json!({}));
    let moves = legal(&g, &st);
    assert!(
        moves.iter().all(|m| !m.contains("/12")),
        "a single checker blocks: {moves:?}"
    );
    assert!(moves.contains(&"14/13 6/4".to_string()), "{moves:?}");
    assert!(moves.iter().all(|m| !m.contains('*')), "nothing is hit");
}

#[test]
fn fevga_the_first_checker_passes_the_opponents_start_before_another_leaves() {
    let g = load("fevga");
    // One checker out, not yet past White's 12 (Black's start): only it moves.
    let st = at(&g, "24:14 18:1", "24:15", 0, &[3, 1], json!({}));
    assert_eq!(legal(&g, &st), ["18/14"]);
    // Once it is on 11 or lower, the start is open.
    let st = at(&g, "24:14 11:1", "24:15", 0, &[3, 1], json!({}));
    assert!(legal(&g, &st).iter().any(|m| m.starts_with("24/")));
    // At the very start, the first checker leaves.
    let st = at(
        &g,
        "24:15",
        "24:15",
        0,
        &[3, 1],
        json!({"moved": [false, false]}),
    );
    assert_eq!(legal(&g, &st), ["24/20"]);
}

#[test]
fn fevga_and_long_nardy_no_six_point_prime_with_nothing_past_it() {
    for name in ["fevga", "long-nardy"] {
        let g = load(name);
        // 13/11 would make White's 11..6 (Black's 23..18) six in a row before Black's 15.
        let white = "13:1 10:2 9:2 8:2 7:2 6:2 24:4";
        let st = at(&g, white, "24:15", 0, &[2, 1], json!({}));
        let moves = legal(&g, &st);
        assert!(
            moves.iter().all(|m| !m.contains("13/11")),
            "{name}: {moves:?}"
        );
        assert!(!moves.is_empty(), "{name}");
        // A Black checker on its 10 (White's 22) is past the prime: now it is allowed.
        let st = at(&g, white, "24:14 10:1", 0, &[2, 1], json!({}));
        let moves = legal(&g, &st);
        assert!(
            moves.iter().any(|m| m.contains("13/11")),
            "{name}: {moves:?}"
        );
    }
}

#[test]
fn long_nardy_one_checker_off_the_head_a_turn() {
    let g = load("long-nardy");
    let first = json!({"moved": [false, false]});
    // A plain roll: one checker leaves the head and takes both dice.
    let st = at(&g, "24:15", "24:15", 0, &[5, 3], first.clone());
    assert_eq!(legal(&g, &st), ["24/16"]);
    // 6-6 on the first turn: two checkers leave (on to 12 is Black's head, held).
    let st = at(&g, "24:15", "24:15", 0, &[6, 6], first.clone());
    assert_eq!(legal(&g, &st), ["24/18(2)"]);
    // 6-6 later: one checker only.
    let st = at(&g, "24:14 20:1", "24:14 20:1", 0, &[6, 6], json!({}));
    assert!(
        legal(&g, &st).iter().all(|m| !m.contains("24/18(2)")),
        "{:?}",
        legal(&g, &st)
    );
    // 5-5 on the first turn is no exception: one checker, 24/19/14/9/4.
    let st = at(&g, "24:15", "24:15", 0, &[5, 5], first);
    assert_eq!(legal(&g, &st), ["24/4"]);
}

#[test]
fn long_nardy_mars_scores_two() {
    let g = load("long-nardy");
    let mut st = at(&g, "1:1 off:14", "14:15", 0, &[2, 1], json!({}));
    play(&g, &mut st, "1/off");
    assert_eq!(result(&g, &st).1, [2, 0]);
    let mut st = at(&g, "1:1 off:14", "14:14 off:1", 0, &[2, 1], json!({}));
    play(&g, &mut st, "1/off");
    assert_eq!(result(&g, &st).1, [1, 0]);
}

#[test]
fn acey_deucey_checkers_enter_from_the_pool_whenever_their_owner_likes() {
    let g = load("acey-deucey");
    // From the pool a die of d enters on 25 - d.
    let st = at(&g, "pool:15", "pool:15", 0, &[3, 5], json!({}));
    assert_eq!(legal(&g, &st), ["pool/17", "pool/22 pool/20"]);
    // A checker on the board may move while others wait in the pool.
    let st = at(&g, "10:1 pool:14", "pool:15", 0, &[3, 5], json!({}));
    assert!(legal(&g, &st).contains(&"10/2".to_string()));
    // The bar comes first; then the pool is open again.
    let st = at(&g, "bar:1 pool:14", "1:2 pool:13", 0, &[3, 5], json!({}));
    // (The 3 enters the bar checker on 22, the 5 one from the pool on 20, or the same checker
    // goes on to 17.)
    assert_eq!(legal(&g, &st), ["bar/17", "pool/20 bar/22"]);
}

#[test]
fn acey_deucey_a_one_two_plays_any_double_and_rolls_again() {
    let g = load("acey-deucey");
    let mut st = at(&g, "pool:15", "pool:15", 0, &[1, 2], json!({}));
    let mut moves = Vec::new();
    g.legal_moves(&st, &mut moves);
    let steps: std::collections::BTreeSet<usize> = moves.iter().map(|m| m.steps().len()).collect();
    assert_eq!(steps, [6].into(), "the 1 and the 2, then four of a double");
    let texts = legal(&g, &st);
    for double in ["pool/19(4)", "pool/24(4)", "pool/20(4)"] {
        assert!(texts.iter().any(|m| m.contains(double)), "{double}");
    }
    play(&g, &mut st, "pool/24 pool/23 pool/19(4)");
    assert_eq!(g.phase(&st), Phase::Roll(0), "the mover rolls again");
    let j = g.state_json(&st);
    assert_eq!(j["pool"], json!([9, 15]));
}

/// Every bundled tables game ends by its rules under random and greedy play, checkers never
/// created or lost.
#[test]
fn every_bundled_tables_game_plays_to_its_end() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut moves = Vec::new();
    for (name, _) in BUNDLED {
        let Ok(g) = tables_compile(&Source::find(name).unwrap().text) else {
            continue;
        };
        let guard = g.guards().plies;
        let total = |st: &TablesState| {
            let j = g.state_json(st);
            let sum = |v: &Value| {
                v.as_array()
                    .map_or(0, |a| a.iter().map(|x| x.as_u64().unwrap()).sum::<u64>())
            };
            [0, 1].map(|p| {
                sum(&j["points"][p])
                    + j["bar"][p].as_u64().unwrap()
                    + j["off"][p].as_u64().unwrap()
                    + j.get("pool").map_or(0, |x| x[p].as_u64().unwrap())
            })
        };
        let checkers = total(&g.new_game(0));
        for (game, players) in [
            [Spec::Random(Random), Spec::Random(Random)],
            [Spec::Greedy(Greedy), Spec::Random(Random)],
            [Spec::Random(Random), Spec::Greedy(Greedy)],
            [Spec::Greedy(Greedy), Spec::Greedy(Greedy)],
        ]
        .iter()
        .cycle()
        .take(24)
        .enumerate()
        {
            let mut st = g.new_game(game % 2);
            loop {
                match g.phase(&st) {
                    Phase::Roll(_) => {
                        let roll = g.dice().unwrap().sample(&mut rng);
                        g.roll(&mut st, &roll).unwrap();
                    }
                    Phase::Move(p) => {
                        g.legal_moves(&st, &mut moves);
                        let i = choose(&g, &st, &moves, players[p], &mut rng);
                        g.play(&mut st, &moves[i]);
                        assert_eq!(total(&st), checkers, "{name}: checkers created or lost");
                    }
                    Phase::Over => break,
                }
            }
            let plies = g.plies(&st);
            assert!(plies < guard, "{name}: game {game} ran into the guard");
            assert!(
                g.outcome(&st).unwrap().winner.is_some(),
                "{name}: game {game} undecided"
            );
        }
    }
}

/// GNU Backgammon's position IDs and eXtreme Gammon's XGIDs: Ludus's STATE `position_id` of
/// every position met in random backgammon games is the ID GNU Backgammon gives the same
/// checkers (set up point by point), GNU Backgammon reads Ludus's `xgid` as that position, and
/// a STATE given by either alone is the same position.
#[test]
fn position_ids_are_gnu_backgammons() {
    use rand::Rng;
    let Some(gnubg) = tools_common::optional_tool(
        "position_ids_are_gnu_backgammons",
        "GNU Backgammon",
        &["/usr/games/gnubg", "/usr/bin/gnubg"],
        "gnubg",
    ) else {
        return;
    };
    let g = load("backgammon");
    let mut rng = rand::rngs::StdRng::seed_from_u64(23);
    let mut commands = String::from("set player 0 human\nset player 1 human\nnew game\n");
    let mut ids = Vec::new();
    let mut xgids = Vec::new();
    for _ in 0..4 {
        let mut st = g.new_game(0);
        while g.phase(&st) != Phase::Over {
            let v = g.state_json(&st);
            let id = v["position_id"]
                .as_str()
                .expect("an ID while the game runs");
            // The same checkers from an ID alone.
            let back = json!({"position_id": id, "to_move": v["to_move"], "phase": "roll"});
            let back = g.state_json(&g.state_from_json(&back).unwrap());
            assert_eq!(
                (&back["points"], &back["bar"], &back["off"]),
                (&v["points"], &v["bar"], &v["off"])
            );
            // Point by point for GNU Backgammon: the bar of the player on roll, its points
            // 1 to 24 (the opponent's checkers negative), the opponent's bar.
            let on_roll = v["to_move"].as_u64().unwrap() as usize;
            let (mine, theirs) = (&v["points"][on_roll], &v["points"][1 - on_roll]);
            let mut board = vec![v["bar"][on_roll].as_i64().unwrap()];
            for n in 0..24 {
                board.push(mine[n].as_i64().unwrap() - theirs[23 - n].as_i64().unwrap());
            }
            board.push(v["bar"][1 - on_roll].as_i64().unwrap());
            let board: Vec<String> = board.iter().map(i64::to_string).collect();
            commands.push_str(&format!("set board simple {}\n", board.join(" ")));
            ids.push(id.to_string());
            // An XGID, before the roll or with the dice, reads back as the same STATE.
            if let Some(x) = v["xgid"].as_str() {
                let back = g.state_json(&g.state_from_json(&json!({"xgid": x})).unwrap());
                for f in ["points", "bar", "off", "to_move", "phase", "dice"] {
                    assert_eq!(back[f], v[f], "{x}: {f}");
                }
                xgids.push((x.to_string(), id.to_string()));
            }
            match g.phase(&st) {
                Phase::Roll(_) => {
                    let d = g.dice().unwrap().sample(&mut rng);
                    g.roll(&mut st, &d).unwrap();
                }
                _ => {
                    let mut moves = Vec::new();
                    g.legal_moves(&st, &mut moves);
                    g.play(&mut st, &moves[rng.gen_range(0..moves.len())]);
                }
            }
        }
    }
    let text = gnubg_says(&gnubg, &commands);
    let given: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split("Position ID:").nth(1))
        .map(str::trim)
        .collect();
    assert!(ids.len() > 300, "{} positions", ids.len());
    // The boards shown after `new game` come first.
    let given = &given[given.len() - ids.len()..];
    assert_eq!(given, ids.as_slice());
    // eXtreme Gammon's XGIDs, read by GNU Backgammon (`set xgid`): the position it then shows
    // has Ludus's position ID. A position set up after each (every checker on the bars), whose
    // boards GNU Backgammon shows too, marks where the XGID's boards end.
    let empty = [0u8; 24];
    let both_bars = json!({"points": [empty, empty], "bar": [15, 15], "off": [0, 0],
        "to_move": 0, "phase": "roll"});
    let both_bars = g.state_json(&g.state_from_json(&both_bars).unwrap())["position_id"].clone();
    let mut commands = String::from("set player 0 human\nset player 1 human\nnew game\n");
    let mut wanted = Vec::new();
    let bars = format!("15{} 15", " 0".repeat(24));
    for v in &xgids {
        commands.push_str(&format!("set xgid {}\nset board simple {bars}\n", v.0));
        wanted.push(v.1.clone());
    }
    let text = gnubg_says(&gnubg, &commands);
    let mut shown = Vec::new();
    let mut last = None;
    for id in text.lines().filter_map(|l| l.split("Position ID:").nth(1)) {
        match json!(id.trim()) == both_bars {
            true => shown.extend(last.take()),
            false => last = Some(id.trim().to_string()),
        }
    }
    assert!(wanted.len() > 100, "{} XGIDs", wanted.len());
    assert_eq!(shown, wanted);
}

/// GNU Backgammon's match IDs, and the XGID's cube and match fields: in random money games
/// and 7-point matches with the cube (random cube actions included), GNU Backgammon reads each
/// `xgid` Ludus writes (the cube's value and owner, the score, the match's length, the Crawford
/// game, the Jacoby rule) and shows the `match_id` Ludus gives; and each XGID read back by
/// Ludus is the same position, stakes and decision.
#[test]
fn match_ids_and_cube_xgids_are_gnu_backgammons() {
    use base64::Engine;
    use rand::Rng;
    let Some(gnubg) = tools_common::optional_tool(
        "match_ids_and_cube_xgids_are_gnu_backgammons",
        "GNU Backgammon",
        &["/usr/games/gnubg", "/usr/bin/gnubg"],
        "gnubg",
    ) else {
        return;
    };
    let mut commands = String::from("set player 0 human\nset player 1 human\n");
    let mut wanted = Vec::new();
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    // A position set up after each XGID (every checker on the bars), whose boards GNU
    // Backgammon shows too, marks where the XGID's boards end.
    let bars = format!("15{} 15", " 0".repeat(24));
    let empty = [0u8; 24];
    let both_bars = json!({"points": [empty, empty], "bar": [15, 15], "off": [0, 0],
        "to_move": 0, "phase": "roll"});
    let plain = load("backgammon");
    let both_bars = plain.state_json(&plain.state_from_json(&both_bars).unwrap())["position_id"]
        .as_str()
        .unwrap()
        .to_string();
    for name in ["backgammon-money", "backgammon-match"] {
        let g = load(name);
        let mut st = g.new_game(0);
        let (mut games, before) = (0, wanted.len());
        while games < 3 || wanted.len() - before < 160 {
            let v = g.state_json(&st);
            if let Some(x) = v["xgid"].as_str() {
                let back = g.state_json(&g.state_from_json(&json!({"xgid": x})).unwrap());
                for f in ["points", "bar", "off", "to_move", "dice"] {
                    assert_eq!(back[f], v[f], "{x}: {f}");
                }
                assert_eq!(back["cube"]["value"], v["cube"]["value"], "{x}");
                assert_eq!(back["cube"]["owner"], v["cube"]["owner"], "{x}");
                if v["cube"]["decision"] == "double" {
                    assert_eq!(back["cube"]["decision"], "double", "{x}");
                }
                if name == "backgammon-match" {
                    assert_eq!(back["match"]["points"], v["match"]["points"], "{x}");
                }
                commands.push_str(&format!("set xgid {x}\nset board simple {bars}\n"));
                wanted.push(v["match_id"].as_str().unwrap().to_string());
            }
            match g.phase(&st) {
                Phase::Over => {
                    games += 1;
                    match g.next_game(&st, rng.gen_range(0..2)) {
                        Some(next) => st = next,
                        None => st = g.new_game(rng.gen_range(0..2)),
                    }
                }
                Phase::Roll(_) => {
                    let d = g.dice().unwrap().sample(&mut rng);
                    g.roll(&mut st, &d).unwrap();
                }
                Phase::Move(_) => {
                    let mut moves = Vec::new();
                    g.legal_moves(&st, &mut moves);
                    g.play(&mut st, &moves[rng.gen_range(0..moves.len())]);
                }
            }
        }
    }
    let text = gnubg_says(&gnubg, &commands);
    let (mut shown, mut last, mut position) = (Vec::new(), None, "");
    for line in text.lines() {
        if let Some(id) = line.split("Position ID:").nth(1) {
            position = id.trim();
        } else if let Some(id) = line.split("Match ID   :").nth(1) {
            match position == both_bars {
                true => shown.extend(last.take()),
                false => last = Some(id.trim()),
            }
        }
    }
    assert!(wanted.len() >= 300, "{} XGIDs", wanted.len());
    assert_eq!(shown.len(), wanted.len(), "{text}");
    // The same game, the dice taken in either order (GNU Backgammon keeps an XGID's in its
    // own), and seen from the side GNU Backgammon puts at the bottom: it sets up an XGID with
    // the top player on roll as the bottom player's (a mirror: owner, turns and scores swapped).
    let fields = |id: &str| -> [u64; 8] {
        let key = base64::engine::general_purpose::STANDARD
            .decode(id)
            .unwrap();
        let bits = key
            .iter()
            .enumerate()
            .fold(0u128, |n, (i, &b)| n | u128::from(b) << (8 * i));
        let at = |from: u32, width: u32| (bits >> from) as u64 & ((1 << width) - 1);
        let dice = [at(15, 3), at(18, 3)];
        [
            at(0, 4),
            at(4, 2),
            at(6, 1),
            // Crawford, the game's state, a double offered, and whether the player to decide
            // is the one on roll.
            at(7, 1) | at(8, 3) << 1 | at(12, 1) << 4 | (at(11, 1) ^ at(6, 1)) << 5,
            dice[0].min(dice[1]) << 3 | dice[0].max(dice[1]),
            at(21, 15),
            at(36, 15),
            at(51, 15),
        ]
    };
    let mirror = |mut f: [u64; 8]| {
        f[1] = match f[1] {
            3 => 3,
            o => 1 - o,
        };
        f[2] ^= 1;
        f.swap(6, 7);
        f
    };
    for (i, (s, w)) in shown.iter().zip(&wanted).enumerate() {
        let (s, w) = (fields(s), fields(w));
        let w = if s[2] != w[2] { mirror(w) } else { w };
        assert_eq!(s, w, "position {i}");
    }
}

/// What GNU Backgammon prints for `commands`, run in its text mode.
fn gnubg_says(gnubg: &std::path::Path, commands: &str) -> String {
    use std::io::Write;
    let mut child = std::process::Command::new(gnubg)
        .args(["-t", "-q"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Written from another thread: GNU Backgammon answers as it reads, and a full pipe
    // either way would stop both.
    let mut stdin = child.stdin.take().unwrap();
    let commands = commands.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(commands.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}
