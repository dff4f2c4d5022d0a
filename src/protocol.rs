//! `ludus protocol`: the JSON-lines engine protocol of `docs/protocol.md`, written once
//! for every game through the registry's one game type. One request a line in, one response a line out;
//! an error never ends the session and never changes the current game.

use ludus_core::diagnostics::did_you_mean;
use ludus_core::game::{parse_json, Deal, Game, Json, Phase, Player, Resignation, Roll};
use ludus_core::limits::{excerpt, read_line, Limits, LongLine};
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
    /// The caps the session keeps (the steps of a game it records).
    limits: Limits,
}

/// The protocol's client plays both sides (a computer's moves it asks for with `go`).
const SEATS: [Spec; 2] = [Spec::Human, Spec::Human];

type Reply = Result<Value, String>;

/// What a request asks for: its `op`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Load,
    New,
    State,
    Legal,
    Play,
    Roll,
    Set,
    Next,
    Go,
    Record,
    Undo,
    End,
    Resign,
    Quit,
}

impl Op {
    /// Every op by the word a request names it with, in the order the docs list them.
    const ALL: [(&'static str, Op); 14] = [
        ("load", Op::Load),
        ("new", Op::New),
        ("state", Op::State),
        ("legal", Op::Legal),
        ("play", Op::Play),
        ("roll", Op::Roll),
        ("set", Op::Set),
        ("next", Op::Next),
        ("go", Op::Go),
        ("record", Op::Record),
        ("undo", Op::Undo),
        ("end", Op::End),
        ("resign", Op::Resign),
        ("quit", Op::Quit),
    ];

    fn read(word: &str) -> Result<Op, String> {
        Op::ALL
            .iter()
            .find(|(w, _)| *w == word)
            .map(|&(_, op)| op)
            .ok_or_else(|| {
                let words: Vec<&str> = Op::ALL.iter().map(|(w, _)| *w).collect();
                let (last, rest) = words.split_last().expect("ops");
                let mut message = format!(
                    "unknown op `{}` (expected {} or {last})",
                    excerpt(word),
                    rest.join(", ")
                );
                if let Some(close) = did_you_mean(word, words) {
                    message.push_str(&format!("; did you mean `{close}`?"));
                }
                message
            })
    }

    fn word(self) -> &'static str {
        Op::ALL
            .iter()
            .find(|&&(_, op)| op == self)
            .map_or("?", |(w, _)| w)
    }
}

/// Runs the protocol over `input` until end of input or `quit`. A request line longer than
/// `limits.protocol_line_bytes` is skipped and answered with an error, so a runaway client
/// cannot exhaust memory.
pub fn run(
    mut input: impl BufRead,
    mut output: impl Write,
    limits: &Limits,
) -> std::io::Result<()> {
    let mut session = Session::with_limits(*limits);
    let mut line = Vec::new();
    let most = limits.protocol_line_bytes;
    while let Some(complete) = read_line(&mut input, &mut line, most, LongLine::Skip)? {
        let (response, quit) = match (complete, std::str::from_utf8(&line)) {
            (false, _) => (error(format!("request longer than {most} bytes")), false),
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
    /// A session that keeps `limits`.
    pub fn with_limits(limits: Limits) -> Session {
        Session {
            loaded: None,
            limits,
        }
    }

    /// Answers one request line; the flag says the session should end.
    pub fn handle_line(&mut self, line: &str) -> (Value, bool) {
        // A key given twice is refused, not read as its last value.
        let request = match parse_json(line) {
            Ok(v) => v,
            Err(e) => return (error(format!("malformed JSON: {e}")), false),
        };
        let Some(word) = request.get("op").and_then(Value::as_str) else {
            return (error("missing field `op` (a string)"), false);
        };
        let op = match Op::read(word) {
            Ok(Op::Quit) => return (json!({"ok": true}), true),
            Ok(op) => op,
            Err(message) => return (error(message), false),
        };
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

    fn handle(&mut self, op: Op, request: &Value) -> Reply {
        if op == Op::Load {
            return self.load(request);
        }
        match self.loaded.as_mut() {
            Some(table) => handle(table, op, request, &self.limits),
            None => Err(format!(
                "`{}` needs a game: send {{\"op\":\"load\",\"rules\":\"oware\"}} first",
                op.word()
            )),
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
        let mut table =
            Table::new(game, header, SEATS, None).with_max_steps(self.limits.record_events);
        // Who chose the moves is the client's to say (`new` with `players`).
        table.name_players(["protocol".into(), "protocol".into()]);
        self.loaded = Some(table);
        Ok(json!({ "game": info }))
    }
}

fn error(message: impl Into<String>) -> Value {
    json!({"ok": false, "error": message.into()})
}

fn handle(table: &mut Table, op: Op, request: &Value, limits: &Limits) -> Reply {
    match op {
        Op::New => new_game(table, request),
        Op::Set => {
            let given = request.get("state").ok_or("missing field `state`")?;
            let state = table
                .game()
                .state_from_json(given)
                .map_err(|e| e.to_string())?;
            table.set_position(state);
            Ok(answer(table))
        }
        Op::State => {
            current(table)?;
            Ok(answer(table))
        }
        Op::Legal => {
            let from = match request.get("from") {
                None | Some(Value::Null) => 0,
                Some(v) => v
                    .as_u64()
                    .ok_or("`from` must be a whole number (the moves to skip)")?,
            };
            let state = current(table)?;
            let game = table.game();
            let mut moves = Vec::new();
            game.legal_moves(state, &mut moves);
            // One answer lists a page of the moves: a turn may have hundreds of thousands.
            let listed: Vec<Value> = moves
                .iter()
                .skip(usize::try_from(from).unwrap_or(usize::MAX))
                .take(limits.listed_moves)
                .map(|m| game.move_json(state, m))
                .collect();
            Ok(json!({ "moves": listed, "count": moves.len() }))
        }
        Op::Play => {
            let text = request
                .get("move")
                .and_then(Value::as_str)
                .ok_or("missing field `move` (a string)")?;
            awaiting_move(table)?;
            table.play(text)?;
            Ok(answer(table))
        }
        Op::Roll => {
            let given = match request.get("dice") {
                None | Some(Value::Null) => None,
                Some(given) => Some(parse_roll(given)?),
            };
            current(table)?;
            table.roll(given.as_ref().map(Roll::values))?;
            Ok(answer(table))
        }
        Op::Go => go(table, request),
        Op::Record => {
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
        Op::Undo => {
            current(table)?;
            table.undo()?;
            Ok(answer(table))
        }
        Op::End => {
            // The client plays both sides: it gives the opponent's answer to the offer.
            let accepted = request
                .get("accepted")
                .and_then(Value::as_bool)
                .ok_or("missing field `accepted` (true or false: the opponent's answer)")?;
            current(table)?;
            let ended = table.offer_end(Some(accepted))?;
            let mut reply = answer(table);
            reply["ended"] = json!(ended);
            Ok(reply)
        }
        Op::Resign => {
            // The client plays both sides: it gives the opponent's answer to the resignation.
            let level = match request.get("resign") {
                None | Some(Value::Null) => Resignation::Single,
                Some(v) => v.as_str().and_then(Resignation::from_word).ok_or_else(|| {
                    format!(
                        "`resign` is \"single\", \"gammon\" or \"backgammon\", got {}",
                        excerpt(&v.to_string())
                    )
                })?,
            };
            let accepted = request
                .get("accepted")
                .and_then(Value::as_bool)
                .ok_or("missing field `accepted` (true or false: the opponent's answer)")?;
            current(table)?;
            let ended = table.resign(level, Some(accepted))?;
            let mut reply = answer(table);
            reply["ended"] = json!(ended);
            Ok(reply)
        }
        Op::Next => {
            let first = first_field(request)?;
            let deal = deal_field(request)?;
            let state = current(table)?.clone();
            if let Some(deal) = &deal {
                // Checked on a stand-in start before anything changes.
                let mut probe = table
                    .game()
                    .next_game(&state, first.unwrap_or(0))
                    .ok_or("the match is decided")?;
                table.game().deal(&mut probe, deal)?;
            }
            table.next_game(first)?;
            if let Some(deal) = &deal {
                table.redeal(deal)?;
            }
            Ok(answer(table))
        }
        // The session answers these itself, before a table is asked.
        Op::Load | Op::Quit => Err(format!("`{}` is the session's, not a game's", op.word())),
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
    let deal = deal_field(request)?;
    if let Some(deal) = &deal {
        let mut probe = table.game().new_game(first.unwrap_or(0));
        table.game().deal(&mut probe, deal)?;
    }
    table.reseed(seed);
    table.name_players(players);
    table.start(first);
    if let Some(deal) = &deal {
        table.redeal(deal)?;
    }
    Ok(answer(table))
}

/// `deal`: the stones a game that scatters them begins with, each player's pits in their own
/// numbering (as STATE's `pits`), in place of the table's draw.
fn deal_field(request: &Value) -> Result<Option<Deal>, String> {
    let Some(v) = request.get("deal").filter(|v| !v.is_null()) else {
        return Ok(None);
    };
    let rows: Option<Deal> = v
        .as_array()
        .filter(|rows| rows.len() == 2)
        .and_then(|rows| {
            rows.iter()
                .map(|row| {
                    row.as_array()
                        .filter(|r| r.len() <= 64)?
                        .iter()
                        .map(|c| c.as_u64().and_then(|c| u8::try_from(c).ok()))
                        .collect()
                })
                .collect()
        });
    rows.map(Some).ok_or_else(|| {
        "`deal` must be two lists of stones per pit (0 to 255), player 0's first, such as \
         [[5, 2, 9], [3, 7, 4]]"
            .into()
    })
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
