//! Differential replays through the `Game` trait: the reference traces of Backgammon, Had and
//! Mughrabieh (step by step: states, legal sets as sets of resulting positions, results, match
//! standings) and OpenSpiel's Backgammon traces (legal sets cut to their longest moves). The
//! records are the project's copies in `tests/data/ref/` and `tests/data/openspiel/`.

mod tables_common;
use tables_common::load;

use ludus::game::{Game, Json, Notation, Roll};
use ludus::tables::{Position, TablesGame, TablesMove, TablesState, BAR};
use serde_json::Value;
use std::collections::{HashMap, HashSet};

fn records(file: &str) -> Vec<Value> {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The compared fields of a STATE, normalised as drive.py does.
fn norm(s: &Value) -> Value {
    let mut out = serde_json::Map::new();
    let over = s["phase"] == "over";
    for f in [
        "to_move", "phase", "result", "points", "bar", "off", "dice", "match",
    ] {
        let Some(v) = s.get(f) else { continue };
        let v = match f {
            "result" if v.is_object() => {
                serde_json::json!({"winner": v["winner"], "scores": v["scores"]})
            }
            "dice" if over => continue,
            "dice" => {
                let mut d: Vec<u64> = v
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_u64().unwrap())
                    .collect();
                d.sort();
                serde_json::json!(d)
            }
            _ => v.clone(),
        };
        out.insert(f.to_string(), v);
    }
    Value::Object(out)
}

fn place(v: &Value) -> usize {
    match v {
        Value::String(s) if s == "bar" => BAR,
        Value::String(s) if s == "off" => 0,
        _ => v.as_u64().unwrap() as usize,
    }
}

/// The position after the trace's steps, applied independently of the engine.
fn apply_trace(pos: &Position, mover: usize, steps: &Value, hitting: bool) -> Position {
    let mut p = *pos;
    for s in steps.as_array().unwrap() {
        let (f, t) = (place(&s[0]), place(&s[1]));
        assert!(p.sides[mover][f] > 0, "trace step from an empty place");
        p.sides[mover][f] -= 1;
        p.sides[mover][t] += 1;
        if t != 0 {
            let o = &mut p.sides[1 - mover];
            assert!(
                o[25 - t] == 0 || (hitting && o[25 - t] == 1),
                "trace lands on a block"
            );
            if o[25 - t] == 1 {
                o[25 - t] = 0;
                o[BAR] += 1;
            }
        }
    }
    p
}

/// The engine's legal moves by resulting position (each position once).
fn engine_moves(game: &TablesGame, st: &TablesState) -> HashMap<Position, TablesMove> {
    let mut moves = Vec::new();
    game.legal_moves(st, &mut moves);
    let mut by_pos = HashMap::new();
    for m in moves {
        let mut after = *st;
        game.play(&mut after, &m);
        let text = game.move_text(st, &m);
        assert_eq!(
            game.parse_move(st, &text),
            Ok(m),
            "text {text} does not parse back"
        );
        assert!(
            by_pos.insert(*after.position(), m).is_none(),
            "position listed twice"
        );
    }
    by_pos
}

fn check_legal(
    game: &TablesGame,
    st: &TablesState,
    legal: &[&Value],
    hitting: bool,
    where_: &str,
) -> HashMap<Position, TablesMove> {
    let mover = game.phase(st).to_move().unwrap();
    let engine = engine_moves(game, st);
    let trace: HashSet<Position> = legal
        .iter()
        .map(|m| apply_trace(st.position(), mover, m, hitting))
        .collect();
    let mine: HashSet<Position> = engine.keys().copied().collect();
    assert_eq!(
        mine.len(),
        trace.len(),
        "{where_}: {} positions, trace {}; state {}",
        mine.len(),
        trace.len(),
        game.state_json(st)
    );
    assert_eq!(mine, trace, "{where_}: legal sets differ");
    engine
}

fn replay_ref(file: &str) -> (usize, usize) {
    let (mut games, mut steps) = (0, 0);
    for (ri, rec) in records(file).iter().enumerate() {
        let rules = rec["rules"].as_str().unwrap();
        let game = load(rules);
        let hitting = rules != "mughrabieh";
        let mut st = game.new_game(rec["first"].as_u64().unwrap() as usize);
        for (gi, g) in rec["games"].as_array().unwrap().iter().enumerate() {
            let where_ = format!("{file} record {ri} game {gi}");
            if gi > 0 {
                // The trace's next game begins with the starter the ritual chose.
                let first = g["start"]["to_move"].as_u64().unwrap() as usize;
                st = game.next_game(&st, first).expect("next game of the match");
            }
            assert_eq!(
                norm(&game.state_json(&st)),
                norm(&g["start"]),
                "{where_} start"
            );
            for (si, step) in g["steps"].as_array().unwrap().iter().enumerate() {
                let w = format!("{where_} step {si}");
                let d = &step["dice"];
                game.roll(
                    &mut st,
                    &Roll::new(&[d[0].as_u64().unwrap() as u8, d[1].as_u64().unwrap() as u8])
                        .unwrap(),
                )
                .unwrap();
                assert_eq!(norm(&game.state_json(&st)), norm(&step["state"]), "{w}");
                let legal: Vec<&Value> = step["legal"].as_array().unwrap().iter().collect();
                let engine = check_legal(&game, &st, &legal, hitting, &w);
                let mover = game.phase(&st).to_move().unwrap();
                let target = apply_trace(st.position(), mover, &step["move"], hitting);
                let mv = engine[&target];
                game.play(&mut st, &mv);
                steps += 1;
            }
            assert_eq!(
                norm(&game.state_json(&st)),
                norm(&g["final"]),
                "{where_} final"
            );
            games += 1;
        }
        if !rec["truncated"].as_bool().unwrap_or(false)
            && rec["games"].as_array().unwrap().len() > 1
        {
            assert!(game.next_game(&st, 0).is_none(), "the match is over");
            assert!(game.match_standing(&st).unwrap().over);
        }
    }
    eprintln!("{file}: {games} games, {steps} steps agree");
    (games, steps)
}

#[test]
fn reference_backgammon() {
    let (g, s) = replay_ref("ref/backgammon.jsonl");
    assert_eq!((g, s), (50, 4663));
}

#[test]
fn reference_had() {
    let (g, s) = replay_ref("ref/had.jsonl");
    assert_eq!((g, s), (50, 4952));
}

#[test]
fn reference_mughrabieh() {
    // Five matches, every game and step of each.
    let (g, s) = replay_ref("ref/mughrabieh.jsonl");
    assert_eq!((g, s), (36, 3326));
}

/// OpenSpiel's board at the start of a turn, as a position.
fn os_position(board: &Value, mover: usize) -> Position {
    let mut p = Position::default();
    let counts = |v: &Value| -> Vec<u8> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap() as u8)
            .collect()
    };
    let me = counts(&board["me"]);
    let opp = counts(&board["opp"]);
    for n in 1..=24 {
        p.sides[mover][n] = me[n - 1];
        // "opp" is on the mover's points: the opponent's own point is 25 - n.
        p.sides[1 - mover][25 - n] = opp[n - 1];
    }
    p.sides[mover][BAR] = board["me_bar"].as_u64().unwrap() as u8;
    p.sides[1 - mover][BAR] = board["opp_bar"].as_u64().unwrap() as u8;
    p.sides[mover][0] = board["me_off"].as_u64().unwrap() as u8;
    p.sides[1 - mover][0] = board["opp_off"].as_u64().unwrap() as u8;
    p
}

fn set_state(game: &TablesGame, pos: &Position, to_move: usize) -> TablesState {
    let json = serde_json::json!({
        "to_move": to_move, "phase": "roll", "result": null,
        "points": [&pos.sides[0][1..=24], &pos.sides[1][1..=24]],
        "bar": [pos.sides[0][BAR], pos.sides[1][BAR]],
        "off": [pos.sides[0][0], pos.sides[1][0]],
        "dice": [],
    });
    game.state_from_json(&json).unwrap()
}

#[test]
fn openspiel_backgammon() {
    let game = load("backgammon");
    let (mut turns, mut quirks) = (0, 0);
    for rec in records("openspiel/backgammon-visible.jsonl") {
        let ts = rec["turns"].as_array().unwrap();
        let mut st = game.new_game(ts[0]["to_move"].as_u64().unwrap() as usize);
        for (i, t) in ts.iter().enumerate() {
            let w = format!("OpenSpiel game {} turn {}", rec["game"], t["turn"]);
            let mover = t["to_move"].as_u64().unwrap() as usize;
            let roll = &t["chance"]["roll"];
            game.roll(
                &mut st,
                &Roll::new(&[
                    roll[0].as_u64().unwrap() as u8,
                    roll[1].as_u64().unwrap() as u8,
                ])
                .unwrap(),
            )
            .unwrap();
            assert_eq!(game.phase(&st).to_move(), Some(mover), "{w}");
            assert_eq!(
                *st.position(),
                os_position(&t["board"], mover),
                "{w}: board"
            );
            let all = t["legal"].as_array().unwrap();
            let longest = all
                .iter()
                .map(|m| m.as_array().unwrap().len())
                .max()
                .unwrap();
            let legal: Vec<&Value> = all
                .iter()
                .filter(|m| m.as_array().unwrap().len() == longest)
                .collect();
            let engine = check_legal(&game, &st, &legal, true, &w);
            let target = apply_trace(st.position(), mover, &t["chosen"], true);
            match engine.get(&target) {
                Some(mv) => game.play(&mut st, mv),
                None => {
                    // OpenSpiel's doubles quirk played fewer dice than possible: go on from
                    // its next position.
                    quirks += 1;
                    let Some(nt) = ts.get(i + 1) else { break };
                    let next = nt["to_move"].as_u64().unwrap() as usize;
                    st = set_state(&game, &os_position(&nt["board"], next), next);
                }
            }
            turns += 1;
        }
        // The final position (OpenSpiel's `final` is seen from player 0's side) and winner.
        assert_eq!(
            *st.position(),
            os_position(&rec["final"], 0),
            "OpenSpiel game {}: final position",
            rec["game"]
        );
        assert_eq!(rec["end_reason"], "borne_off");
        let o = game.outcome(&st).expect("game over");
        assert_eq!(Some(o.winner.unwrap() as u64), rec["winner"].as_u64());
    }
    // Every turn of the 40 games, and OpenSpiel's doubles quirk never chose a move here.
    assert_eq!((turns, quirks), (3906, 0));
}
