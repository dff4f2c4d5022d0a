//! One game of `ludus serve`: the rules, who plays each side, every position reached (kept for
//! review and undo) and the record. Nothing here knows HTTP: the requests of the API map onto
//! these methods one to one, and an error leaves the game exactly as it was.

use crate::game::{Game, Json, Notation, Phase, Player, Roll, View};
use crate::limits::{excerpt, LIMITS};
use crate::players::{self, Budget, Spec};
use crate::record::{self, Event, Header};
use crate::registry::{AnyGame, AnyMove, AnyState};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

/// Why a request was refused: a problem with the request itself (400) or one with the moment
/// it came at, such as a move while dice are awaited (409).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    Bad(String),
    NotNow(String),
}

impl Refusal {
    pub fn message(&self) -> &str {
        match self {
            Refusal::Bad(m) | Refusal::NotNow(m) => m,
        }
    }
}

fn bad(message: impl Into<String>) -> Refusal {
    Refusal::Bad(message.into())
}

fn not_now(message: impl Into<String>) -> Refusal {
    Refusal::NotNow(message.into())
}

/// A step of the game as the move list shows it: what happened and the position it led to.
#[derive(Clone, Debug)]
struct Step {
    state: AnyState,
    /// The game of the match it belongs to, from 1.
    game: u32,
    /// Who rolled or moved (none for a game's start and an undo).
    player: Option<Player>,
    text: String,
}

/// A served game (or match).
pub struct Session {
    game: Arc<AnyGame>,
    header: Header,
    seats: [Spec; 2],
    rng: ChaCha8Rng,
    /// Every step so far, undos included, a game's start first: what review walks through.
    steps: Vec<Step>,
    /// The steps of the current game's line of play, its start first: what undo takes back.
    line: Vec<usize>,
    /// The record's lines after the header.
    events: Vec<Event>,
    /// Counts changes, so that a computer move thought out on an older position is not played.
    version: u64,
}

/// What a computer player is asked to do, handed out so that it can think without the game
/// locked.
pub struct Thinking {
    pub game: Arc<AnyGame>,
    pub state: AnyState,
    pub spec: Spec,
    pub seed: u64,
    pub version: u64,
}

/// Options a new session starts with.
pub struct Start {
    pub seats: [Spec; 2],
    /// Who moves first; drawn at random when not given.
    pub first: Option<Player>,
    pub seed: Option<u64>,
}

/// A seat's player as the server accepts it: a person at the page, or a computer player that
/// thinks for a time (at most [`LIMITS.server_think_seconds`]), so that no request can tie up the
/// server for long.
pub fn parse_seat(text: &str) -> Result<Spec, Refusal> {
    let spec: Spec = text.parse().map_err(Refusal::Bad)?;
    let most = Duration::from_secs(LIMITS.server_think_seconds);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
    match spec {
        Spec::Mcts { threads: t, .. } if t > threads => Err(bad(format!(
            "player `{}`: this server has {threads} cores, so at most t{threads}",
            excerpt(text)
        ))),
        Spec::Mcts { budget, .. } | Spec::AlphaBeta(budget) => match budget {
            Budget::Time(t) if t <= most => Ok(spec),
            _ => Err(bad(format!(
                "player `{}`: the server's computer players think for a time of at most {}s \
                 (such as mcts:500ms or alphabeta:2s)",
                excerpt(text),
                most.as_secs()
            ))),
        },
        _ => Ok(spec),
    }
}

impl Session {
    /// A new game of `game`, played from its start.
    pub fn new(game: AnyGame, header: Header, start: Start) -> Session {
        let mut rng = match start.seed {
            Some(seed) => ChaCha8Rng::seed_from_u64(seed),
            None => ChaCha8Rng::from_entropy(),
        };
        let first = start.first.unwrap_or_else(|| rng.gen_range(0..2));
        let header = Header {
            seed: start.seed,
            players: start.seats.map(|s| s.to_string()),
            ..header
        };
        let state = game.new_game(first);
        let mut session = Session::empty(game, header, start.seats, rng);
        session.add(state, 1, None, Event::Game { game: 1, first });
        session
    }

    /// A session that replays `record` (its header already read as `header`, the rules checked
    /// against its digest): every step reviewable, play going on from where the record ends.
    pub fn replayed(
        game: AnyGame,
        header: Header,
        record: &str,
        seats: [Spec; 2],
    ) -> Result<Session, Refusal> {
        let mut input = std::io::BufReader::new(record.as_bytes());
        record::read_header(&mut input)
            .map_err(|e| bad(format!("record line {}: {}", e.line, e.message)))?;
        let mut session = Session::empty(game.clone(), header, seats, ChaCha8Rng::from_entropy());
        let mut too_long = false;
        let replayed = record::replay(&game, &mut input, |step| {
            if session.steps.len() >= LIMITS.server_steps {
                too_long = true;
                return;
            }
            let player = step_player(&game, &session, step);
            session.add(step.state.clone(), step.game, player, step.event.clone());
        });
        replayed.map_err(|e| bad(format!("record line {}: {}", e.line, e.message)))?;
        if too_long {
            return Err(bad(format!(
                "the record has more than {} steps, the most a served game keeps",
                LIMITS.server_steps
            )));
        }
        if session.steps.is_empty() {
            return Err(bad("the record holds no game"));
        }
        Ok(session)
    }

    /// Steps so far: a change adds steps and never removes one (an undo is a step too).
    pub fn steps(&self) -> usize {
        self.steps.len()
    }

    fn current(&self) -> &AnyState {
        &self.steps[*self.line.last().expect("a game has its start")].state
    }

    fn game_number(&self) -> u32 {
        self.steps.last().map_or(1, |s| s.game)
    }

    fn empty(game: AnyGame, header: Header, seats: [Spec; 2], rng: ChaCha8Rng) -> Session {
        Session {
            game: Arc::new(game),
            header,
            seats,
            rng,
            steps: Vec::new(),
            line: Vec::new(),
            events: Vec::new(),
            version: 0,
        }
    }

    /// Refused when the game has as many steps as a served game keeps.
    fn room(&self) -> Result<(), Refusal> {
        if self.steps.len() >= LIMITS.server_steps {
            return Err(not_now(format!(
                "this game has reached {} steps, the most a served game keeps: download its \
                 record and start a new one",
                LIMITS.server_steps
            )));
        }
        Ok(())
    }

    /// Adds a roll or move of the current game, within the cap on steps.
    fn push(
        &mut self,
        state: AnyState,
        player: Option<Player>,
        event: Event,
    ) -> Result<(), Refusal> {
        self.room()?;
        self.add(state, self.game_number(), player, event);
        Ok(())
    }

    /// Adds the step `event` leading to `state`: to the steps, to the line of play (a game's
    /// start begins it anew; an undo takes its steps off it) and to the record, with the
    /// game's end when it ended there.
    fn add(&mut self, state: AnyState, game: u32, player: Option<Player>, event: Event) {
        let text = event_text(&self.game, &event, player);
        match event {
            Event::Game { .. } => self.line.clear(),
            Event::Undo { undo } => {
                let kept = self.line.len().saturating_sub(undo as usize);
                self.line.truncate(kept.max(1));
            }
            _ => {}
        }
        let ended = match event {
            Event::Game { .. } | Event::Undo { .. } => None,
            _ => self.game.outcome(&state),
        };
        if !matches!(event, Event::Undo { .. }) {
            self.line.push(self.steps.len());
        }
        self.events.push(event);
        if let Some(outcome) = ended {
            self.events.push(Event::End {
                end: (&outcome).into(),
            });
        }
        self.steps.push(Step {
            state,
            game,
            player,
            text,
        });
        self.version += 1;
    }

    /// Plays `text` (the game's notation) for the player to move.
    pub fn play(&mut self, text: &str) -> Result<(), Refusal> {
        let state = self.current();
        let p = match self.game.phase(state) {
            Phase::Move(p) => p,
            Phase::Roll(_) => return Err(not_now("dice are awaited: roll first")),
            Phase::Over => return Err(not_now("the game is over")),
        };
        if self.seats[p] != Spec::Human {
            return Err(not_now(format!(
                "{} is played by the computer ({}): ask it to move",
                self.game.player_names()[p],
                self.seats[p]
            )));
        }
        let mv = self
            .game
            .parse_move(state, text)
            .map_err(|e| bad(e.to_string()))?;
        self.play_move(p, &mv)
    }

    fn play_move(&mut self, p: Player, mv: &AnyMove) -> Result<(), Refusal> {
        let mut state = self.current().clone();
        let text = self.game.move_text(&state, mv);
        self.game.play(&mut state, mv);
        self.push(state, Some(p), Event::Move { text })
    }

    /// Rolls the awaited dice: drawn by the server, or the `given` values of real dice.
    pub fn roll(&mut self, given: Option<&[u8]>) -> Result<(), Refusal> {
        let dice = self
            .game
            .dice()
            .ok_or_else(|| bad("these rules use no dice"))?;
        let mut state = self.current().clone();
        let Phase::Roll(p) = self.game.phase(&state) else {
            return Err(not_now("no dice are awaited now"));
        };
        let roll = match given {
            Some(values) => Roll::new(values).map_err(|e| bad(e.to_string()))?,
            None => dice.sample(&mut self.rng),
        };
        self.game
            .roll(&mut state, &roll)
            .map_err(|e| bad(e.to_string()))?;
        self.push(
            state,
            Some(p),
            Event::Roll {
                roll: roll.values().to_vec(),
            },
        )
    }

    /// Takes back the last move of a person at the page, and what came after it (the computer's
    /// answer, rolls): back to the last position of this game where a person was to move. With
    /// no person playing, one step back.
    pub fn undo(&mut self) -> Result<(), Refusal> {
        let Some(back) = self.undo_target() else {
            return Err(not_now("nothing to undo in this game"));
        };
        self.room()?;
        let undo = (self.line.len() - 1 - back) as u32;
        let state = self.steps[self.line[back]].state.clone();
        self.add(state, self.game_number(), None, Event::Undo { undo });
        Ok(())
    }

    /// Where undo goes back to: the index in the line of play of the last position of this game
    /// where a person was to move (with no person playing, the position before the last).
    fn undo_target(&self) -> Option<usize> {
        let humans = self.seats.contains(&Spec::Human);
        (0..self.line.len() - 1).rev().find(|&i| {
            !humans
                || matches!(self.game.phase(&self.steps[self.line[i]].state),
                    Phase::Move(p) if self.seats[p] == Spec::Human)
        })
    }

    /// The person to move offers to end the game here, where the rules allow an ending by
    /// agreement: a computer opponent accepts when it is ahead or level; a person opponent at
    /// the same screen answers with `accepted`. Whether the game ended.
    pub fn offer_end(&mut self, accepted: Option<bool>) -> Result<bool, Refusal> {
        let state = self.current().clone();
        let Phase::Move(p) = self.game.phase(&state) else {
            return Err(not_now(
                "an ending can be offered only when a move is awaited",
            ));
        };
        if self.seats[p] != Spec::Human {
            return Err(not_now(format!(
                "{} is played by the computer",
                self.game.player_names()[p]
            )));
        }
        let mut ended = state.clone();
        if !self.game.end_by_agreement(&mut ended) {
            return Err(not_now("these rules allow no ending by agreement here"));
        }
        let other = 1 - p;
        let accepted = match (self.seats[other], accepted) {
            (Spec::Human, Some(answer)) => answer,
            (Spec::Human, None) => {
                return Err(bad(format!(
                    "{} is a person: give their answer as `accepted` (true or false)",
                    self.game.player_names()[other]
                )))
            }
            _ => players::accepts_end(&*self.game, &state, other),
        };
        if accepted {
            self.push(ended, Some(p), Event::Agreed { agreed: true })?;
        }
        Ok(accepted)
    }

    /// Whether the person to move may offer to end the game here.
    fn may_end(&self) -> bool {
        let state = self.current();
        matches!(self.game.phase(state), Phase::Move(p) if self.seats[p] == Spec::Human)
            && self.game.end_by_agreement(&mut state.clone())
    }

    /// Starts the next game of the match: `first` as the ritual at the table chose, else as
    /// the rules say, else drawn.
    pub fn next_game(&mut self, first: Option<Player>) -> Result<(), Refusal> {
        let state = self.current().clone();
        let state = &state;
        let standing = self
            .game
            .match_standing(state)
            .ok_or_else(|| bad("these rules define no match"))?;
        if self.game.phase(state) != Phase::Over {
            return Err(not_now("the current game is not over"));
        }
        if standing.over {
            return Err(not_now("the match is decided"));
        }
        let first = match first.or_else(|| self.game.next_starter(state)) {
            Some(p) => p,
            None => self.rng.gen_range(0..2),
        };
        let next = self
            .game
            .next_game(state, first)
            .ok_or_else(|| not_now("the match is decided"))?;
        self.room()?;
        let game = standing.game + 1;
        self.add(next, game, None, Event::Game { game, first });
        Ok(())
    }

    /// The computer player to move and what it should think about; refused when a person is
    /// to move, dice are awaited or the game is over.
    pub fn thinking(&self, hint: bool) -> Result<Thinking, Refusal> {
        let state = self.current();
        let p = match self.game.phase(state) {
            Phase::Move(p) => p,
            Phase::Roll(_) => return Err(not_now("dice are awaited: roll first")),
            Phase::Over => return Err(not_now("the game is over")),
        };
        let spec = if hint {
            players::hint_player(self.seats[1 - p])
        } else if self.seats[p] == Spec::Human {
            return Err(not_now(format!(
                "{} is played by a person at the page",
                self.game.player_names()[p]
            )));
        } else {
            self.seats[p]
        };
        // Drawn from a copy: thinking changes nothing, not even the next roll.
        let seed = self.rng.clone().gen();
        Ok(Thinking {
            game: Arc::clone(&self.game),
            state: state.clone(),
            spec,
            seed,
            version: self.version,
        })
    }

    /// Plays the computer's choice, `index` among the legal moves of the position it thought
    /// about, when the game has not changed since.
    pub fn play_thought(&mut self, thought: &Thinking, index: usize) -> Result<(), Refusal> {
        if thought.version != self.version {
            return Err(not_now("the game changed while the computer was thinking"));
        }
        let mut moves = Vec::new();
        self.game.legal_moves(self.current(), &mut moves);
        let p = self
            .game
            .phase(self.current())
            .to_move()
            .ok_or_else(|| not_now("the game is over"))?;
        let mv = moves
            .get(index)
            .ok_or_else(|| not_now("the move is no longer legal"))?
            .clone();
        self.play_move(p, &mv)
    }

    /// A file name for the record: the game's name, in letters, digits and dashes.
    pub fn file_name(&self) -> String {
        let name: String = self
            .game
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
        let mut out = serde_json::to_string(&self.header).unwrap_or_default();
        out.push('\n');
        for e in &self.events {
            out.push_str(&serde_json::to_string(e).unwrap_or_default());
            out.push('\n');
        }
        out
    }

    /// Everything the page shows: the step `at` (the latest when not given) with its position
    /// as STATE and as a picture, and, at the latest step, the legal moves as MOVEs, each with
    /// the position it leads to (`after`), so that the page can show where a move goes.
    ///
    /// The move list runs from step `log_from` (the latest [`LOG_STEPS`] at most): a client
    /// that holds the steps before it asks only for the new ones.
    pub fn view(&self, at: Option<usize>, log_from: Option<usize>) -> Result<Value, Refusal> {
        let last = self.steps.len() - 1;
        let at = at.unwrap_or(last);
        if at > last {
            return Err(bad(format!(
                "step {at} does not exist: this game has steps 0 to {last}"
            )));
        }
        let game = &*self.game;
        let state = &self.steps[at].state;
        let live = at == last;
        let phase = game.phase(state);
        let mut legal = Vec::new();
        if live {
            let mut moves = Vec::new();
            game.legal_moves(state, &mut moves);
            for mv in &moves {
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
            Phase::Roll(p) => ("roll", self.seats[p] != Spec::Human),
            Phase::Move(p) => ("move", self.seats[p] != Spec::Human),
        };
        let first = log_from
            .unwrap_or(0)
            .max(self.steps.len().saturating_sub(LOG_STEPS))
            .min(self.steps.len());
        let log: Vec<Value> = self.steps[first..]
            .iter()
            .enumerate()
            .map(|(i, s)| json!({"step": first + i, "game": s.game, "player": s.player, "text": s.text}))
            .collect();
        let viewer = self.viewer();
        let names = game.player_names();
        let undoable = live && self.undo_target().is_some();
        Ok(json!({
            "game": {
                "name": game.name(),
                "family": game.family(),
                "players": names,
                "rules": self.header.rules,
                "description": game.describe(),
                "dice": game.dice().map(|d| json!({"count": d.count, "faces": d.faces})),
            },
            "seats": self.seats.map(|s| s.to_string()),
            "version": self.version,
            "at": at,
            "steps": self.steps.len(),
            "live": live,
            "awaiting": awaiting,
            "computer": computer,
            "undoable": undoable,
            "may_end": live && self.may_end(),
            "viewer": viewer,
            "state": game.state_json(state),
            "svg": game.svg(state, viewer),
            "status": status(game, state),
            "legal": legal,
            "log_from": first,
            "log": log,
        }))
    }

    /// The side the board is drawn from: the one person playing, else player 0.
    fn viewer(&self) -> Player {
        match self.seats {
            [Spec::Human, s] if s != Spec::Human => 0,
            [s, Spec::Human] if s != Spec::Human => 1,
            _ => 0,
        }
    }
}

/// Steps of the move list a view carries (the latest ones).
const LOG_STEPS: usize = 2_000;

/// Who rolled or moved at a replayed step: the player to move in the position before it.
fn step_player(game: &AnyGame, session: &Session, step: &record::Step<AnyState>) -> Option<Player> {
    match step.event {
        Event::Roll { .. } | Event::Move { .. } | Event::Agreed { .. } => session
            .line
            .last()
            .and_then(|&i| game.phase(&session.steps[i].state).to_move()),
        _ => None,
    }
}

/// A step of the move list in words.
fn event_text(game: &AnyGame, event: &Event, player: Option<Player>) -> String {
    let names = game.player_names();
    let who = player.map_or("", |p| names[p]);
    match event {
        Event::Game { game: 1, first } => format!("{} starts", names[*first]),
        Event::Game { game: n, first } => format!("game {n}: {} starts", names[*first]),
        Event::Roll { roll } => {
            let faces: Vec<String> = roll.iter().map(u8::to_string).collect();
            format!("{who} rolls {}", faces.join("-"))
        }
        Event::Move { text } => format!("{who} plays {text}"),
        Event::Undo { undo } => format!("undo {undo}"),
        Event::Agreed { .. } => format!("{who} offers to end the game here; accepted"),
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
