//! One game of `ludus serve`: the rules, who plays each side, every position reached (kept for
//! review and undo) and the record. Nothing here knows HTTP: the requests of the API map onto
//! these methods one to one, and an error leaves the game exactly as it was.

use ludus_core::game::{CubeAction, Game, Json, Phase, Player, Resignation, View};
use ludus_core::limits::{excerpt, Limits};
use ludus_players::{Budget, Spec};
use ludus_table::record::{self, Event, Header};
use ludus_table::registry::{AnyGame, AnyState};
use ludus_table::table::{self, Step, Table};
pub use ludus_table::table::{Refusal, Thinking};
use serde_json::{json, Value};
use std::time::Duration;

/// A served game (or match): the table it is played at.
pub struct Session {
    table: Table,
    /// Legal moves a view lists at most.
    listed_moves: usize,
}

/// Options a new session starts with.
pub struct Seating {
    pub seats: [Spec; 2],
    /// Who moves first; as the starting ritual draws it when not given.
    pub first: Option<Player>,
    pub seed: Option<u64>,
}

/// A seat's player as the server accepts it: a person at the page, or a computer player that
/// thinks for a time (at most the server's `server_think_seconds`), so that no request can tie up
/// the server for long.
pub fn parse_seat(text: &str, limits: &Limits) -> Result<Spec, Refusal> {
    let spec: Spec = text.parse().map_err(Refusal::Bad)?;
    let most = Duration::from_secs(limits.server_think_seconds);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
    if spec.threads() > threads {
        return Err(bad(format!(
            "player `{}`: this server has {threads} cores, so at most t{threads}",
            excerpt(text)
        )));
    }
    match spec.budget() {
        None => Ok(spec),
        Some(Budget::Time(t)) if t <= most => Ok(spec),
        Some(_) => Err(bad(format!(
            "player `{}`: the server's computer players think for a time of at most {}s \
             (such as mcts:500ms or alphabeta:2s)",
            excerpt(text),
            most.as_secs()
        ))),
    }
}

fn bad(message: impl Into<String>) -> Refusal {
    Refusal::Bad(message.into())
}

impl Session {
    /// A new game of `game`, played from its start.
    pub fn new(game: AnyGame, header: Header, start: Seating, limits: &Limits) -> Session {
        let mut table =
            Table::new(game, header, start.seats, start.seed).with_max_steps(limits.server_steps);
        table.start(start.first);
        Session {
            table,
            listed_moves: limits.listed_moves,
        }
    }

    /// A session that replays `record` (its header already read as `header`, the rules checked
    /// against its digest): every step reviewable, play going on from where the record ends.
    pub fn replayed(
        game: AnyGame,
        header: Header,
        record: &str,
        seats: [Spec; 2],
        limits: &Limits,
    ) -> Result<Session, Refusal> {
        let mut input = std::io::BufReader::new(record.as_bytes());
        record::read_header(&mut input)
            .map_err(|e| bad(format!("record line {}: {}", e.line, e.message)))?;
        let table = table::replay(game, header, seats, &mut input, limits.server_steps, |_| {})
            .map_err(|e| bad(format!("record line {}: {}", e.line, e.message)))?;
        if table.steps().is_empty() {
            return Err(bad("the record holds no game"));
        }
        Ok(Session {
            table,
            listed_moves: limits.listed_moves,
        })
    }

    /// The bytes the game takes: its steps with their positions, and its record.
    pub fn bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Steps so far: a change adds steps and never removes one (an undo is a step too).
    pub fn steps(&self) -> usize {
        self.table.steps().len()
    }

    /// Plays `text` (the game's notation) for the person to move.
    pub fn play(&mut self, text: &str) -> Result<(), Refusal> {
        self.table.play(text)
    }

    /// Rolls the awaited dice: drawn by the server, or the `given` values of real dice.
    pub fn roll(&mut self, given: Option<&[u8]>) -> Result<(), Refusal> {
        self.table.roll(given).map(|_| ())
    }

    /// Takes back the last move of a person at the page and what came after it.
    pub fn undo(&mut self) -> Result<(), Refusal> {
        self.table.undo()
    }

    /// The person to move offers to end the game; whether it ended.
    pub fn offer_end(&mut self, accepted: Option<bool>) -> Result<bool, Refusal> {
        self.table.offer_end(accepted)
    }

    /// The person whose turn it is resigns, conceding `level`; whether the game ended.
    pub fn resign(&mut self, level: Resignation, accepted: Option<bool>) -> Result<bool, Refusal> {
        self.table.resign(level, accepted)
    }

    /// Starts the next game of the match.
    pub fn next_game(&mut self, first: Option<Player>) -> Result<(), Refusal> {
        self.table.next_game(first).map(|_| ())
    }

    /// The computer player to move and what it should think about (for a hint, the search
    /// that advises the person to move).
    pub fn thinking(&self, hint: bool) -> Result<Thinking, Refusal> {
        let spec = if hint {
            let p = self.table.to_move()?;
            Some(ludus_players::hint_player(
                self.table.seats()[1 - p],
                ludus_core::game::Evaluator::names_network(self.table.game()),
            ))
        } else {
            None
        };
        self.table.thinking(spec)
    }

    /// Plays the computer's choice when the game has not changed since it thought.
    pub fn play_thought(&mut self, thought: &Thinking, index: usize) -> Result<(), Refusal> {
        self.table.play_thought(thought, index)
    }

    /// A file name for the record: the game's name, in letters, digits and dashes.
    pub fn file_name(&self) -> String {
        let name: String = self
            .table
            .game()
            .name()
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '-'
                }
            })
            .take(40)
            .collect();
        format!("{name}.ludus.jsonl")
    }

    /// The game's record, as `ludus play --record` writes it: one JSON object a line.
    pub fn record(&self) -> String {
        self.table.record().unwrap_or_default()
    }

    /// Everything the page shows: the step `at` (the latest when not given) with its position
    /// as STATE and as a picture, and, at the latest step, the legal moves as MOVEs, each with
    /// the position it leads to (`after`), so that the page can show where a move goes.
    ///
    /// The move list runs from step `log_from` (the latest [`LOG_STEPS`] at most): a client
    /// that holds the steps before it asks only for the new ones.
    pub fn view(&self, at: Option<usize>, log_from: Option<usize>) -> Result<Value, Refusal> {
        let table = &self.table;
        let steps = table.steps();
        let seats = table.seats();
        let last = steps.len() - 1;
        let at = at.unwrap_or(last);
        if at > last {
            return Err(bad(format!(
                "step {at} does not exist: this game has steps 0 to {last}"
            )));
        }
        let game = table.game();
        let state = &steps[at].state;
        let live = at == last;
        let phase = game.phase(state);
        let mut legal = Vec::new();
        let mut legal_count = 0;
        if live {
            let mut moves = Vec::new();
            game.legal_moves(state, &mut moves);
            legal_count = moves.len();
            // A view lists the first moves only: a turn may have hundreds of thousands.
            for mv in moves.iter().take(self.listed_moves) {
                let mut after = state.clone();
                game.play(&mut after, mv);
                let mut m = game.move_json(state, mv);
                m["after"] = game.state_json(&after);
                legal.push(m);
            }
        }
        // What the page should do next, and whether a computer player does it.
        let (awaiting, computer) = match phase {
            Phase::Over => {
                let more = game.match_standing(state).is_some_and(|s| !s.over);
                (if more { "next game" } else { "nothing" }, false)
            }
            Phase::Roll(p) => ("roll", seats[p] != Spec::Human),
            Phase::Move(p) => ("move", seats[p] != Spec::Human),
        };
        let first = log_from
            .unwrap_or(0)
            .max(steps.len().saturating_sub(LOG_STEPS))
            .min(steps.len());
        let log: Vec<Value> = steps[first..]
            .iter()
            .enumerate()
            .map(|(i, s)| json!({"step": first + i, "game": s.game, "player": s.player, "text": step_text(game, s)}))
            .collect();
        let viewer = self.viewer();
        let names = game.player_names();
        let undoable = live && table.undoable();
        Ok(json!({
            "game": {
                "name": game.name(),
                "family": game.family(),
                "players": names,
                "rules": table.header().rules,
                "description": game.describe(),
                "dice": game.dice().map(|d| json!({"count": d.count, "faces": d.faces})),
            },
            "seats": seats.map(|s| s.to_string()),
            "version": table.version(),
            "at": at,
            "steps": steps.len(),
            "live": live,
            "awaiting": awaiting,
            "computer": computer,
            "undoable": undoable,
            "may_end": live && table.may_end(),
            "may_resign": live && table.may_resign(),
            "viewer": viewer,
            "state": game.state_json(state),
            "svg": game.svg(state, viewer),
            "status": status(game, state),
            "legal": legal,
            "legal_count": legal_count,
            "log_from": first,
            "log": log,
        }))
    }

    /// The side the board is drawn from: the one person playing, else player 0.
    fn viewer(&self) -> Player {
        match self.table.seats() {
            [Spec::Human, s] if s != Spec::Human => 0,
            [s, Spec::Human] if s != Spec::Human => 1,
            _ => 0,
        }
    }
}

/// Steps of the move list a view carries (the latest ones).
const LOG_STEPS: usize = 2_000;

/// A step of the move list in words.
fn step_text(game: &AnyGame, step: &Step) -> String {
    let names = game.player_names();
    let who = step.player.map_or("", |p| names[p]);
    let start = |first: Player| match &step.account {
        Some(account) => account.clone(),
        None => format!("{} starts", names[first]),
    };
    match &step.event {
        Event::Game { game: 1, first, .. } => start(*first),
        Event::Game { game: n, first, .. } => format!("game {n}: {}", start(*first)),
        Event::Roll { roll } => {
            let faces: Vec<String> = roll.iter().map(u8::to_string).collect();
            format!("{who} rolls {}", faces.join("-"))
        }
        Event::Move { text } => match CubeAction::from_word(text) {
            Some(action) => format!("{who} {}", action.said()),
            None => format!("{who} plays {text}"),
        },
        Event::Undo { undo } => format!("undo {undo}"),
        Event::Agreed { .. } => format!("{who} offers to end the game here; accepted"),
        Event::Resigned { resigned } => format!("{who} {}; accepted", resigned.reason()),
        Event::End { end } => format!("end: {}", end.reason),
    }
}

/// One line on the position: who is to move, or the result, and a match's standing.
fn status(game: &AnyGame, state: &AnyState) -> String {
    let names = game.player_names();
    let mut out = match (game.outcome(state), game.phase(state)) {
        (Some(o), _) => match o.winner {
            Some(w) => format!("{} wins ({})", names[w], o.reason),
            None => format!("Draw ({})", o.reason),
        },
        (None, Phase::Roll(p)) => format!("{} to roll", names[p]),
        (None, Phase::Move(p)) => format!("{} to move", names[p]),
        (None, Phase::Over) => String::new(),
    };
    if let Some(s) = game.match_standing(state) {
        out.push_str(&format!(
            " · {} {}: {} {} – {} {}",
            game.match_game_word(),
            s.game,
            names[0],
            s.points[0],
            s.points[1],
            names[1]
        ));
        if s.over {
            match s.winner {
                Some(w) => out.push_str(&format!(" · {} wins the match", names[w])),
                None => out.push_str(" · the match is drawn"),
            }
        }
    }
    out
}
