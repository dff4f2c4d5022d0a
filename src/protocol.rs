//! `ludus protocol`: the JSON-lines engine protocol of `docs/protocol.md`, written once
//! for every game through the registry's one game type. One request a line in, one response a line out;
//! an error never ends the session and never changes the current game.

use crate::game::{Game, Json, Notation, Phase, Player, Roll};
use crate::limits::{excerpt, read_line, LongLine, LIMITS};
use crate::players::{self, Spec};
use crate::record::{self, Event, Header};
use crate::registry::{self, AnyGame, AnyState};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A loaded game, its current position and its random source.
struct Table {
    game: AnyGame,
    state: Option<AnyState>,
    rng: ChaCha8Rng,
    /// The header of the game's record (rules as loaded, their digest).
    header: Header,
    /// The record of the game since `new`: `None` once a position was set up by hand.
    events: Option<Vec<Event>>,
}

/// The protocol session: what `load` loaded and the game in progress.
#[derive(Default)]
pub struct Session {
    loaded: Option<Table>,
}

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
            Some(table) => table.handle(op, request),
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
            // The protocol does not know who chose the moves.
            players: ["protocol".into(), "protocol".into()],
        };
        self.loaded = Some(Table {
            game,
            state: None,
            rng: ChaCha8Rng::from_entropy(),
            header,
            events: None,
        });
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

impl Table {
    fn handle(&mut self, op: &str, request: &Value) -> Reply {
        match op {
            "new" => self.new_game(request),
            "set" => {
                let given = request.get("state").ok_or("missing field `state`")?;
                let state = self
                    .game
                    .state_from_json(given)
                    .map_err(|e| e.to_string())?;
                self.events = None;
                Ok(self.answer(state))
            }
            "state" => Ok(json!({"state": self.game.state_json(self.current()?)})),
            "legal" => {
                let state = self.current()?;
                let mut moves = Vec::new();
                self.game.legal_moves(state, &mut moves);
                let moves: Vec<Value> = moves
                    .iter()
                    .map(|m| self.game.move_json(state, m))
                    .collect();
                Ok(json!({ "moves": moves }))
            }
            "play" => {
                let text = request
                    .get("move")
                    .and_then(Value::as_str)
                    .ok_or("missing field `move` (a string)")?;
                let mut state = self.current()?.clone();
                match self.game.phase(&state) {
                    Phase::Move(_) => {}
                    Phase::Roll(_) => {
                        return Err("dice are awaited: send {\"op\":\"roll\"} first".into())
                    }
                    Phase::Over => return Err("the game is over".into()),
                }
                let mv = self
                    .game
                    .parse_move(&state, text)
                    .map_err(|e| e.to_string())?;
                let text = self.game.move_text(&state, &mv);
                self.game.play(&mut state, &mv);
                self.note(Event::Move { text });
                if let Some(outcome) = self.game.outcome(&state) {
                    self.note(Event::End {
                        end: (&outcome).into(),
                    });
                }
                Ok(self.answer(state))
            }
            "roll" => {
                let mut state = self.current()?.clone();
                let dice = self.game.dice().ok_or("these rules use no dice")?;
                if !matches!(self.game.phase(&state), Phase::Roll(_)) {
                    return Err("no dice are awaited now".into());
                }
                let roll = match request.get("dice") {
                    None | Some(Value::Null) => dice.sample(&mut self.rng),
                    Some(given) => parse_roll(given)?,
                };
                self.game
                    .roll(&mut state, &roll)
                    .map_err(|e| e.to_string())?;
                self.note(Event::Roll {
                    roll: roll.values().to_vec(),
                });
                Ok(self.answer(state))
            }
            "go" => self.go(request),
            "record" => {
                self.current()?;
                let events = self.events.as_ref().ok_or(
                    "no record: the position was set up by hand (`set`), not played from `new`, \
                     or the game outgrew the record limit",
                )?;
                let mut lines =
                    vec![serde_json::to_value(&self.header).map_err(|e| e.to_string())?];
                for e in events {
                    lines.push(serde_json::to_value(e).map_err(|e| e.to_string())?);
                }
                Ok(json!({ "record": lines }))
            }
            "next" => {
                // Checked before anything changes: a refused request draws nothing.
                let first: Option<Player> = match request.get("first") {
                    None | Some(Value::Null) => None,
                    Some(v) => match v.as_u64() {
                        Some(p @ (0 | 1)) => Some(p as Player),
                        _ => return Err("`first` must be 0 or 1".into()),
                    },
                };
                let state = self.current()?;
                let Some(standing) = self.game.match_standing(state) else {
                    return Err("these rules define no match".into());
                };
                if self.game.phase(state) != Phase::Over {
                    return Err("the current game is not over".into());
                }
                if standing.over {
                    return Err("the match is decided".into());
                }
                // The ritual done at the table (`first`), the rules' own rule, or the ritual
                // drawn from the session's generator.
                let first = match first.or_else(|| self.game.next_starter(state)) {
                    Some(p) => p,
                    None => self.rng.gen_range(0..2),
                };
                let state = self.current()?;
                let next = self
                    .game
                    .next_game(state, first)
                    .ok_or("the match is decided")?;
                let game = standing.game + 1;
                self.note(Event::Game { game, first });
                Ok(self.answer(next))
            }
            _ => Err(unknown_op(op)),
        }
    }

    fn new_game(&mut self, request: &Value) -> Reply {
        // Every field is checked before anything changes: a refused request keeps the seed.
        let seed = match request.get("seed").filter(|v| !v.is_null()) {
            None => None,
            Some(v) => Some(v.as_u64().ok_or("`seed` must be a non-negative integer")?),
        };
        let first: Option<Player> = match request.get("first") {
            None | Some(Value::Null) => None,
            Some(v) => match v.as_u64() {
                Some(p @ (0 | 1)) => Some(p as Player),
                _ => return Err("`first` must be 0 or 1".into()),
            },
        };
        if let Some(seed) = seed {
            self.rng = ChaCha8Rng::seed_from_u64(seed);
        }
        let first = first.unwrap_or_else(|| self.rng.gen_range(0..2));
        self.header.seed = seed;
        self.events = Some(vec![Event::Game { game: 1, first }]);
        Ok(self.answer(self.game.new_game(first)))
    }

    /// `go`: the move a computer player would choose here, not played. The search draws from
    /// a copy of the session's generator, so it changes nothing (the next roll is the same).
    fn go(&self, request: &Value) -> Reply {
        let text = request.get("player").and_then(Value::as_str).ok_or(
            "missing field `player` (a string such as \"mcts:100ms\" or \"alphabeta:d6\")",
        )?;
        let spec: Spec = text.parse()?;
        if spec == Spec::Human {
            return Err(
                "`human` chooses no move: name a computer player (random, greedy, \
                 mcts[:BUDGET][:tTHREADS] or alphabeta[:BUDGET])"
                    .into(),
            );
        }
        let state = self.current()?;
        match self.game.phase(state) {
            Phase::Move(_) => {}
            Phase::Roll(_) => return Err("dice are awaited: send {\"op\":\"roll\"} first".into()),
            Phase::Over => return Err("the game is over".into()),
        }
        let mut moves = Vec::new();
        self.game.legal_moves(state, &mut moves);
        if moves.is_empty() {
            return Err("no legal move".into());
        }
        let mut rng = ChaCha8Rng::seed_from_u64(self.rng.clone().gen());
        let (index, analysis) = players::decide_any(&self.game, state, spec, false, &mut rng);
        let info = match analysis {
            Some(a) => {
                let count = if matches!(spec, Spec::Mcts { .. }) {
                    "visits"
                } else {
                    "nodes"
                };
                let mut info = json!({"value": players::rounded(a.value), "depth": a.depth});
                info[count] = json!(a.nodes);
                info
            }
            None => json!({}),
        };
        Ok(json!({"move": self.game.move_json(state, &moves[index]), "info": info}))
    }

    /// Adds `event` to the game's record (when it has one); a record past the limit is
    /// dropped rather than grown without bound.
    fn note(&mut self, event: Event) {
        if let Some(events) = &mut self.events {
            events.push(event);
            if events.len() > LIMITS.record_events {
                self.events = None;
            }
        }
    }

    fn current(&self) -> Result<&AnyState, String> {
        self.state
            .as_ref()
            .ok_or_else(|| "no game in progress: send {\"op\":\"new\"} first".to_string())
    }

    /// Makes `state` current and answers with it.
    fn answer(&mut self, state: AnyState) -> Value {
        let value = json!({"state": self.game.state_json(&state)});
        self.state = Some(state);
        value
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
