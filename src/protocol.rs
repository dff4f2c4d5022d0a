//! `ludus protocol`: the JSON-lines engine protocol of `docs/protocol.md`, written once
//! for every game through the registry's one game type. One request a line in, one response a line out;
//! an error never ends the session and never changes the current game.

use ludus_core::game::{Game, Json, Phase, Player, Roll};
use ludus_core::limits::{excerpt, read_line, LongLine, LIMITS};
use ludus_players::Spec;
use ludus_table::record::{self, Header};
use ludus_table::registry::{self, AnyState};
use ludus_table::table::Table;
use serde_json::{json, Value};
use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The protocol session: what `load` loaded and the game in progress.
#[derive(Default)]
pub struct Session {
    loaded: Option<Table>,
}

/// The protocol's client plays both sides (a computer's moves it asks for with `go`).
const SEATS: [Spec; 2] = [Spec::Human, Spec::Human];

type Reply = Result<Value, String>;

/// Longest request line read; the rest of a longer line is skipped and answered with an error,
/// so a runaway client cannot exhaust memory.
const MAX_LINE: usize = LIMITS.protocol_line_bytes;

/// Runs the protocol over `input` until end of input or `quit`.
pub fn run(mut input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    let mut session = Session::default();
    let mut line = Vec::new();
    while let Some(complete) = read_line(&mut input, &mut line, MAX_LINE, LongLine::Skip)? {
        let (response, quit) = match (complete, std::str::from_utf8(&line)) {
            (false, _) => (
                error(format!("request longer than {MAX_LINE} bytes")),
                false,
            ),
            (true, Err(_)) => (error("request is not UTF-8"), false),
            (true, Ok(text)) if text.trim().is_empty() => continue,
            (true, Ok(text)) => session.handle_line(text),
        };
        writeln!(output, "{response}")?;
        output.flush()?;
        if quit {
            break;
        }
    }
    Ok(())
}

impl Session {
    /// Answers one request line; the flag says the session should end.
    pub fn handle_line(&mut self, line: &str) -> (Value, bool) {
        let request: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => return (error(format!("malformed JSON: {e}")), false),
        };
        let Some(op) = request.get("op").and_then(Value::as_str) else {
            return (error("missing field `op` (a string)"), false);
        };
        if op == "quit" {
            return (json!({"ok": true}), true);
        }
        let reply = catch_unwind(AssertUnwindSafe(|| self.handle(op, &request)))
            .unwrap_or_else(|_| Err("internal error (the game was left as it was)".to_string()));
        let response = match reply {
            Ok(Value::Object(mut fields)) => {
                fields.insert("ok".into(), Value::Bool(true));
                Value::Object(fields)
            }
            Ok(other) => json!({"ok": true, "value": other}),
            Err(message) => error(message),
        };
        (response, false)
    }

    fn handle(&mut self, op: &str, request: &Value) -> Reply {
        if op == "load" {
            return self.load(request);
        }
        match self.loaded.as_mut() {
            Some(table) => handle(table, op, request),
            None => match op {
                "new" | "state" | "legal" | "play" | "roll" | "set" | "next" | "go" | "record" => {
                    Err(format!(
                        "`{op}` needs a game: send {{\"op\":\"load\",\"rules\":\"oware\"}} first"
                    ))
                }
                _ => Err(unknown_op(op)),
            },
        }
    }

    fn load(&mut self, request: &Value) -> Reply {
        let name = request
            .get("rules")
            .and_then(Value::as_str)
            .ok_or("missing field `rules` (a name or a path)")?;
        let (source, game) = registry::load(name).map_err(|e| e.to_string())?;
        let info = json!({"name": game.name(), "family": game.family(), "players": 2});
        let header = Header {
            record: record::FORMAT.into(),
            rules: name.into(),
            digest: source.digest(),
            seed: None,
            players: Default::default(),
        };
        let mut table = Table::new(game, header, SEATS, None);
        // Who chose the moves is the client's to say (`new` with `players`).
        table.name_players(["protocol".into(), "protocol".into()]);
        self.loaded = Some(table);
        Ok(json!({ "game": info }))
    }
}

fn error(message: impl Into<String>) -> Value {
    json!({"ok": false, "error": message.into()})
}

fn unknown_op(op: &str) -> String {
    format!(
        "unknown op `{}` (expected load, new, state, legal, play, roll, set, next, go, record \
         or quit)",
        excerpt(op)
    )
}

fn handle(table: &mut Table, op: &str, request: &Value) -> Reply {
    match op {
        "new" => new_game(table, request),
        "set" => {
            let given = request.get("state").ok_or("missing field `state`")?;
            let state = table
                .game()
                .state_from_json(given)
                .map_err(|e| e.to_string())?;
            table.set_position(state);
            Ok(answer(table))
        }
        "state" => {
            current(table)?;
            Ok(answer(table))
        }
        "legal" => {
            let state = current(table)?;
            let game = table.game();
            let mut moves = Vec::new();
            game.legal_moves(state, &mut moves);
            let moves: Vec<Value> = moves.iter().map(|m| game.move_json(state, m)).collect();
            Ok(json!({ "moves": moves }))
        }
        "play" => {
            let text = request
                .get("move")
                .and_then(Value::as_str)
                .ok_or("missing field `move` (a string)")?;
            awaiting_move(table)?;
            table.play(text)?;
            Ok(answer(table))
        }
        "roll" => {
            let given = match request.get("dice") {
                None | Some(Value::Null) => None,
                Some(given) => Some(parse_roll(given)?),
            };
            current(table)?;
            table.roll(given.as_ref().map(Roll::values))?;
            Ok(answer(table))
        }
        "go" => go(table, request),
        "record" => {
            current(table)?;
            let (header, events) = table.recorded().map_err(|_| {
                "no record: the position was set up by hand (`set`), not played from `new`"
            })?;
            let mut lines = vec![serde_json::to_value(header).map_err(|e| e.to_string())?];
            for e in events {
                lines.push(serde_json::to_value(e).map_err(|e| e.to_string())?);
            }
            Ok(json!({ "record": lines }))
        }
        "next" => {
            let first = first_field(request)?;
            current(table)?;
            table.next_game(first)?;
            Ok(answer(table))
        }
        _ => Err(unknown_op(op)),
    }
}

/// The optional `first` of `new` and `next`: 0 or 1.
fn first_field(request: &Value) -> Result<Option<Player>, String> {
    match request.get("first") {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_u64() {
            Some(p @ (0 | 1)) => Ok(Some(p as Player)),
            _ => Err("`first` must be 0 or 1".into()),
        },
    }
}

fn new_game(table: &mut Table, request: &Value) -> Reply {
    // Every field is checked before anything changes: a refused request keeps the seed.
    let seed = match request.get("seed").filter(|v| !v.is_null()) {
        None => None,
        Some(v) => Some(v.as_u64().ok_or("`seed` must be a non-negative integer")?),
    };
    let first = first_field(request)?;
    let players = match request.get("players").filter(|v| !v.is_null()) {
        None => ["protocol".to_string(), "protocol".to_string()],
        Some(v) => {
            let names: Option<Vec<String>> = v.as_array().and_then(|list| {
                list.iter()
                    .map(|n| n.as_str().filter(|n| n.len() <= 100).map(String::from))
                    .collect()
            });
            match names.as_deref() {
                Some([a, b]) => [a.clone(), b.clone()],
                _ => {
                    return Err(
                        "`players` must be two names (strings of at most 100 bytes), \
                                such as [\"greedy\", \"random\"]"
                            .into(),
                    )
                }
            }
        }
    };
    table.reseed(seed);
    table.name_players(players);
    table.start(first);
    Ok(answer(table))
}

/// `go`: the move a computer player would choose here, not played. The search draws from
/// a copy of the table's generator, so it changes nothing (the next roll is the same).
fn go(table: &Table, request: &Value) -> Reply {
    let text = request
        .get("player")
        .and_then(Value::as_str)
        .ok_or("missing field `player` (a string such as \"mcts:100ms\" or \"alphabeta:d6\")")?;
    let spec: Spec = text.parse()?;
    if spec == Spec::Human {
        return Err(format!(
            "`human` chooses no move: name a computer player ({})",
            ludus_players::usage()
        ));
    }
    awaiting_move(table)?;
    let state = current(table)?;
    let game = table.game();
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    if moves.is_empty() {
        return Err("no legal move".into());
    }
    let (index, analysis) = table.thinking(Some(spec))?.decide(false);
    let info = match analysis {
        Some(a) => {
            let count = spec.search().map_or("nodes", |s| s.counts);
            let mut info = json!({"value": ludus_players::rounded(a.value), "depth": a.depth});
            info[count] = json!(a.nodes);
            info
        }
        None => json!({}),
    };
    Ok(json!({"move": game.move_json(state, &moves[index]), "info": info}))
}

/// Refused unless a move is awaited, saying what the client should send instead.
fn awaiting_move(table: &Table) -> Result<(), String> {
    match table.game().phase(current(table)?) {
        Phase::Move(_) => Ok(()),
        Phase::Roll(_) => Err("dice are awaited: send {\"op\":\"roll\"} first".into()),
        Phase::Over => Err("the game is over".into()),
    }
}

fn current(table: &Table) -> Result<&AnyState, String> {
    table
        .state()
        .map_err(|_| "no game in progress: send {\"op\":\"new\"} first".to_string())
}

/// The current position as STATE.
fn answer(table: &Table) -> Value {
    match table.state() {
        Ok(state) => json!({"state": table.game().state_json(state)}),
        Err(_) => json!({}),
    }
}

/// A roll given as a list of dice, `[6, 1]`; the game checks the count and the faces.
fn parse_roll(value: &Value) -> Result<Roll, String> {
    let bad = || {
        format!(
            "`dice` must be a list of numbers such as [6, 1], got {}",
            excerpt(&value.to_string())
        )
    };
    let list = value.as_array().ok_or_else(bad)?;
    let values: Vec<u8> = list
        .iter()
        .map(|v| {
            v.as_u64()
                .and_then(|d| u8::try_from(d).ok())
                .ok_or_else(bad)
        })
        .collect::<Result<_, _>>()?;
    Roll::new(&values).map_err(|e| e.to_string())
}
