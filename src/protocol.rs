//! `ludus protocol`: the JSON-lines engine protocol of `shared/spec/protocol.md`, written once
//! for every game through the [`Game`] trait. One request a line in, one response a line out;
//! an error never ends the session and never changes the current game.

use crate::diagnostics;
use crate::game::{Game, Phase, Player};
use crate::rules::{self, AnyGame, Source};
use crate::sowing::SowingGame;
use crate::tables::TablesGame;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A loaded game, its current position and its random source.
struct Table<G: Game> {
    game: G,
    state: Option<G::State>,
    rng: ChaCha8Rng,
}

enum Loaded {
    Sowing(Table<SowingGame>),
    Tables(Table<TablesGame>),
}

/// The protocol session: what `load` loaded and the game in progress.
#[derive(Default)]
pub struct Session {
    loaded: Option<Loaded>,
}

type Reply = Result<Value, String>;

/// Longest request line read; the rest of a longer line is skipped and answered with an error,
/// so a runaway client cannot exhaust memory.
const MAX_LINE: usize = 1 << 20;

/// Runs the protocol over `input` until end of input or `quit`.
pub fn run(mut input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    let mut session = Session::default();
    let mut line = Vec::new();
    while let Some(complete) = read_line(&mut input, &mut line)? {
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

/// Reads one line (without its newline) into `line`, keeping at most `MAX_LINE` bytes; `None`
/// at end of input, `Some(false)` when the line was too long.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> std::io::Result<Option<bool>> {
    line.clear();
    let mut complete = true;
    let mut any = false;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(any.then_some(complete));
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        let room = MAX_LINE.saturating_sub(line.len());
        complete &= chunk.len() <= room;
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = done.unwrap_or(buf.len());
        input.consume(used);
        if done.is_some() {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Ok(Some(complete));
        }
    }
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
        let Some(loaded) = self.loaded.as_mut() else {
            return match op {
                "new" | "state" | "legal" | "play" | "roll" | "set" | "next" => Err(format!(
                    "`{op}` needs a game: send {{\"op\":\"load\",\"rules\":\"oware\"}} first"
                )),
                _ => Err(unknown_op(op)),
            };
        };
        match loaded {
            Loaded::Sowing(t) => t.handle(op, request),
            Loaded::Tables(t) => t.handle(op, request),
        }
    }

    fn load(&mut self, request: &Value) -> Reply {
        let name = request
            .get("rules")
            .and_then(Value::as_str)
            .ok_or("missing field `rules` (a name or a path)")?;
        let source = Source::find(name)?;
        let game = rules::compile(&source.text).map_err(|d| {
            diagnostics::render(&source.name, &source.text, &d)
                .trim_end()
                .to_string()
        })?;
        let rng = ChaCha8Rng::from_entropy();
        let (loaded, info) = match game {
            AnyGame::Sowing(game) => {
                let info = game_info(&game);
                (
                    Loaded::Sowing(Table {
                        game,
                        state: None,
                        rng,
                    }),
                    info,
                )
            }
            AnyGame::Tables(game) => {
                let info = game_info(&game);
                (
                    Loaded::Tables(Table {
                        game,
                        state: None,
                        rng,
                    }),
                    info,
                )
            }
        };
        self.loaded = Some(loaded);
        Ok(json!({ "game": info }))
    }
}

fn game_info<G: Game>(game: &G) -> Value {
    json!({"name": game.name(), "family": game.family().as_str(), "players": 2})
}

fn error(message: impl Into<String>) -> Value {
    json!({"ok": false, "error": message.into()})
}

fn unknown_op(op: &str) -> String {
    format!("unknown op `{op}` (expected load, new, state, legal, play, roll, set, next or quit)")
}

impl<G: Game> Table<G> {
    fn handle(&mut self, op: &str, request: &Value) -> Reply {
        match op {
            "new" => self.new_game(request),
            "set" => {
                let given = request.get("state").ok_or("missing field `state`")?;
                let state = self.game.state_from_json(given)?;
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
                let mv = self.game.parse_move(&state, text)?;
                self.game.play(&mut state, &mv);
                Ok(self.answer(state))
            }
            "roll" => {
                let mut state = self.current()?.clone();
                if !matches!(self.game.phase(&state), Phase::Roll(_)) {
                    return Err("no dice are awaited now".into());
                }
                let dice = match request.get("dice") {
                    None | Some(Value::Null) => self.game.random_dice(&mut self.rng),
                    Some(given) => parse_dice(given)?,
                };
                self.game.roll(&mut state, dice)?;
                Ok(self.answer(state))
            }
            "next" => {
                let state = self.current()?;
                if self.game.match_standing(state).is_none() {
                    return Err("these rules define no match".into());
                }
                if self.game.phase(state) != Phase::Over {
                    return Err("the current game is not over".into());
                }
                let next = self.game.next_game(state).ok_or("the match is decided")?;
                Ok(self.answer(next))
            }
            _ => Err(unknown_op(op)),
        }
    }

    fn new_game(&mut self, request: &Value) -> Reply {
        if let Some(seed) = request.get("seed").filter(|v| !v.is_null()) {
            let seed = seed
                .as_u64()
                .ok_or("`seed` must be a non-negative integer")?;
            self.rng = ChaCha8Rng::seed_from_u64(seed);
        }
        let first: Player = match request.get("first") {
            None | Some(Value::Null) => self.rng.gen_range(0..2),
            Some(v) => match v.as_u64() {
                Some(p @ (0 | 1)) => p as Player,
                _ => return Err("`first` must be 0 or 1".into()),
            },
        };
        Ok(self.answer(self.game.new_game(first)))
    }

    fn current(&self) -> Result<&G::State, String> {
        self.state
            .as_ref()
            .ok_or_else(|| "no game in progress: send {\"op\":\"new\"} first".to_string())
    }

    /// Makes `state` current and answers with it.
    fn answer(&mut self, state: G::State) -> Value {
        let value = json!({"state": self.game.state_json(&state)});
        self.state = Some(state);
        value
    }
}

fn parse_dice(value: &Value) -> Result<[u8; 2], String> {
    let bad = || format!("`dice` must be two numbers 1..6, got {value}");
    let list = value.as_array().filter(|l| l.len() == 2).ok_or_else(bad)?;
    let die = |v: &Value| {
        v.as_u64()
            .filter(|d| (1..=6).contains(d))
            .map(|d| d as u8)
            .ok_or_else(bad)
    };
    Ok([die(&list[0])?, die(&list[1])?])
}
