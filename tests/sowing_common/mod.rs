//! Shared helpers of the sowing tests: loading bundled rules and replaying reference traces.
#![allow(dead_code)]

use ludus::game::{Game, Json, Notation};
use ludus::registry::{compile, AnyGame};
use ludus::rules::Source;
use ludus::sowing::{SowingGame, SowingMove};
use serde_json::Value;

pub fn game(name: &str) -> SowingGame {
    let src = Source::find(name).unwrap_or_else(|e| panic!("{e}"));
    match compile(&src.text) {
        Ok(AnyGame::Sowing(g)) => g,
        Ok(_) => panic!("{name} is not a sowing game"),
        Err(d) => panic!("{name}: {d:?}"),
    }
}

pub fn from_text(text: &str) -> SowingGame {
    sowing_compile(text).unwrap_or_else(|d| panic!("{d:?}"))
}

pub fn lines(path: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("trace line is JSON"))
        .collect()
}

/// Compares our STATE with a reference STATE (reason texts are free; `out_of_play` is not
/// compared once the game is over).
pub fn same_state(ours: &Value, theirs: &Value) -> Result<(), String> {
    let over = theirs["phase"] == "over";
    for key in ["to_move", "phase", "pits", "stores", "match"] {
        if ours.get(key) != theirs.get(key) {
            return Err(format!("{key}: ours {} theirs {}", ours[key], theirs[key]));
        }
    }
    if !over && theirs.get("out_of_play").is_some() && ours["out_of_play"] != theirs["out_of_play"]
    {
        return Err(format!(
            "out_of_play: ours {} theirs {}",
            ours["out_of_play"], theirs["out_of_play"]
        ));
    }
    for key in ["winner", "scores"] {
        if ours["result"].get(key) != theirs["result"].get(key) {
            return Err(format!(
                "result: ours {} theirs {}",
                ours["result"], theirs["result"]
            ));
        }
    }
    Ok(())
}

/// Replays one `ludus-trace/1` record (a game or a whole match) through the `Game` trait;
/// returns the number of moves checked.
pub fn replay_record(g: &SowingGame, rec: &Value) -> Result<usize, String> {
    let first = rec["first"].as_u64().expect("first") as usize;
    let mut st = g.new_game(first);
    let mut moves = 0;
    let mut legal = Vec::new();
    for (i, game) in rec["games"].as_array().expect("games").iter().enumerate() {
        if i > 0 {
            // The trace's next game begins with the starter the ritual chose.
            let first = game["start"]["to_move"].as_u64().expect("to_move") as usize;
            st = g
                .next_game(&st, first)
                .ok_or(format!("game {i}: no next game"))?;
        }
        same_state(&g.state_json(&st), &game["start"])
            .map_err(|e| format!("game {i} start: {e}"))?;
        for (j, step) in game["steps"].as_array().expect("steps").iter().enumerate() {
            let at = format!("game {i} step {j}");
            same_state(&g.state_json(&st), &step["state"]).map_err(|e| format!("{at}: {e}"))?;
            g.legal_moves(&st, &mut legal);
            let theirs: Vec<SowingMove> = step["legal"]
                .as_array()
                .expect("legal")
                .iter()
                .map(|v| SowingMove::pit(v.as_u64().expect("pit") as u8))
                .collect();
            if legal != theirs {
                return Err(format!("{at}: legal ours {legal:?} theirs {theirs:?}"));
            }
            let mv = g
                .parse_move(&st, &step["move"].to_string())
                .map_err(|e| format!("{at}: {e}"))?;
            g.play(&mut st, &mv);
            moves += 1;
        }
        same_state(&g.state_json(&st), &game["final"])
            .map_err(|e| format!("game {i} final: {e}"))?;
    }
    Ok(moves)
}

/// Replays a whole reference file; every record must agree.
pub fn replay_file(g: &SowingGame, path: &str) -> (usize, usize) {
    let recs = lines(path);
    let mut failures = Vec::new();
    let mut moves = 0;
    for (i, rec) in recs.iter().enumerate() {
        match replay_record(g, rec) {
            Ok(m) => moves += m,
            Err(e) => failures.push(format!("record {i}: {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} records disagree:\n{}",
        failures.len(),
        recs.len(),
        failures
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    (recs.len(), moves)
}

/// Stones in a STATE: pits, stores and the stones in hand of a move paused at a choice.
pub fn stones(s: &Value) -> u64 {
    let pits: u64 = s["pits"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r.as_array().unwrap())
        .map(|v| v.as_u64().unwrap())
        .sum();
    let in_hand = s["decision"]["in_hand"].as_u64().unwrap_or(0);
    pits + s["stores"][0].as_u64().unwrap() + s["stores"][1].as_u64().unwrap() + in_hand
}

/// A bundled rules text with `line` added at the top of `[section]`.
pub fn with(name: &str, section: &str, line: &str) -> String {
    let text = Source::find(name).unwrap().text;
    // A header starts a line (a comment may name the table too).
    let header = format!("\n[{section}]\n");
    assert!(text.contains(&header), "{name} has no [{section}]");
    text.replacen(&header, &format!("{header}{line}\n"), 1)
}

/// A bundled rules text with its first `line` replaced `by` another.
pub fn replaced(name: &str, line: &str, by: &str) -> String {
    let text = Source::find(name).unwrap().text;
    assert!(text.contains(line), "{name} has no {line}");
    text.replacen(line, by, 1)
}

/// A sowing rules text compiled by the family's own compiler.
fn sowing_compile(text: &str) -> Result<SowingGame, Vec<ludus::diagnostics::Diagnostic>> {
    let doc = ludus::rules::RulesDoc::parse(text).map_err(|d| vec![d])?;
    ludus::sowing::compile(&doc)
}

/// A position: `to_move`, each player's pits in their own numbering, the stores.
pub fn position(
    g: &SowingGame,
    to_move: usize,
    p0: &[u8],
    p1: &[u8],
    stores: [u8; 2],
) -> ludus::sowing::SowingState {
    use ludus::game::Json;
    g.state_from_json(&serde_json::json!({"to_move": to_move, "pits": [p0, p1], "stores": stores}))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// The legal moves as pit numbers (for games that sow every pit one way round).
pub fn legal_pits(g: &SowingGame, st: &ludus::sowing::SowingState) -> Vec<u8> {
    let mut v = Vec::new();
    g.legal_moves(st, &mut v);
    v.iter().map(|m| m.sown_pit().expect("a pit")).collect()
}

/// Plays `pit` (which must be legal) and returns the position's JSON.
pub fn sow_pit(g: &SowingGame, st: &mut ludus::sowing::SowingState, pit: u8) -> Value {
    use ludus::game::Json;
    assert!(
        legal_pits(g, st).contains(&pit),
        "pit {pit} not legal in {}",
        g.state_json(st)
    );
    g.play(st, &SowingMove::pit(pit));
    g.state_json(st)
}

/// A small seeded generator for random games (the same games on every machine).
pub struct Rng(pub u64);
impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}
