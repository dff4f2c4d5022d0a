//! One game of `ludus serve`: the rules, who plays each side, every position reached (kept for
//! review and undo) and the record. Nothing here knows HTTP: the requests of the API map onto
//! these methods one to one, and an error leaves the game exactly as it was.

use ludus_core::game::{Game, Json, Notation, Phase, Player, Resignation, View};
use ludus_core::limits::{excerpt, Limits};
use ludus_players::{Budget, Spec};
use ludus_table::record::{self, Event, Header};
use ludus_table::registry::{AnyGame, AnyState};
use ludus_table::said;
use ludus_table::table::{self, Step, Table};
pub use ludus_table::table::{Refusal, Thinking};
use serde_json::{json, Value};
use std::time::Duration;

/// A served game (or match): the table it is played at.
pub struct Session {
    table: Table,
    /// The seats of people who play from their own link (a friend on another computer).
    elsewhere: [bool; 2],
    /// An offer to end the game or a resignation, awaiting the answer of a person elsewhere.
    offer: Option<Offer>,
    /// Legal moves a view lists at most.
    listed_moves: usize,
}

/// A seat as the server takes it: its player, and whether that player is a person who plays
/// from their own link (`friend`) rather than at the page that began the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seat {
    pub spec: Spec,
    pub elsewhere: bool,
}

/// Who a link to a served game speaks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// The link the game was begun from: every seat but a friend's.
    Owner,
    /// A friend's link: their own seat only.
    Seat(Player),
    /// A spectator's link: the game is watched, never changed.
    Watcher,
}

impl Access {
    pub fn word(self) -> &'static str {
        match self {
            Access::Owner => "owner",
            Access::Seat(_) => "seat",
            Access::Watcher => "watcher",
        }
    }
}

/// What a request does, for the check of who may do it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    /// Move, roll, offer, resign or ask for a hint: the seat whose turn it is.
    Turn,
    /// Take back a move: the person who played it.
    Undo,
    /// Start the match's next game: anyone who plays.
    Next,
    /// Answer an offer: the person it was made to.
    Answer,
    /// Ask a computer seat to move, or drop the game: the link it was begun from.
    Own,
}

/// An offer awaiting its answer, valid while the game stays as it was made in.
struct Offer {
    by: Player,
    what: Offered,
    version: u64,
}

#[derive(Clone, Copy)]
enum Offered {
    End,
    Resign(Resignation),
}

/// Options a new session starts with.
pub struct Seating {
    pub seats: [Seat; 2],
    /// Who moves first; as the starting ritual draws it when not given.
    pub first: Option<Player>,
    pub seed: Option<u64>,
}

/// A seat's player as the server accepts it: a person at the page (`human`), a person on another
/// computer who plays from their own link (`friend`), or a computer player that thinks for a time
/// (at most the server's `server_think_seconds`), so that no request can tie up the server for
/// long.
pub fn parse_seat(text: &str, limits: &Limits) -> Result<Seat, Refusal> {
    if text == FRIEND {
        return Ok(Seat {
            spec: Spec::Human,
            elsewhere: true,
        });
    }
    let spec: Spec = text.parse().map_err(|e| {
        bad(format!(
            "{e}; a seat may also be `{FRIEND}`: a person who plays from their own link"
        ))
    })?;
    let most = Duration::from_secs(limits.server_think_seconds);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
    if spec.threads() > threads {
        return Err(bad(format!(
            "player `{}`: this server has {threads} cores, so at most t{threads}",
            excerpt(text)
        )));
    }
    let here = Seat {
        spec,
        elsewhere: false,
    };
    match spec.budget() {
        None => Ok(here),
        Some(Budget::Time(t)) if t <= most => Ok(here),
        Some(_) => Err(bad(format!(
            "player `{}`: the server's computer players think for a time of at most {}s \
             (such as mcts:500ms or alphabeta:2s)",
            excerpt(text),
            most.as_secs()
        ))),
    }
}

/// The seat of a person who plays from their own link.
const FRIEND: &str = "friend";

fn bad(message: impl Into<String>) -> Refusal {
    Refusal::Bad(message.into())
}

impl Session {
    /// A new game of `game`, played from its start.
    pub fn new(game: AnyGame, header: Header, start: Seating, limits: &Limits) -> Session {
        let mut table = Table::new(game, header, start.seats.map(|s| s.spec), start.seed)
            .with_max_steps(limits.server_steps);
        table.start(start.first);
        Session {
            table,
            elsewhere: start.seats.map(|s| s.elsewhere),
            offer: None,
            listed_moves: limits.listed_moves,
        }
    }

    /// A session that replays `record` (its header already read as `header`, the rules checked
    /// against its digest): every step reviewable, play going on from where the record ends.
    pub fn replayed(
        game: AnyGame,
        header: Header,
        record: &str,
        seats: [Seat; 2],
        limits: &Limits,
    ) -> Result<Session, Refusal> {
        let mut input = std::io::BufReader::new(record.as_bytes());
        record::read_header(&mut input)
            .map_err(|e| bad(format!("record line {}: {}", e.line, e.message)))?;
        let specs = seats.map(|s| s.spec);
        let table = table::replay(game, header, specs, &mut input, limits.server_steps, |_| {})
            .map_err(|e| bad(format!("record line {}: {}", e.line, e.message)))?;
        if table.steps().is_empty() {
            return Err(bad("the record holds no game"));
        }
        Ok(Session {
            table,
            elsewhere: seats.map(|s| s.elsewhere),
            offer: None,
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

    /// The person to move offers to end the game, through `access`: whether it ended, or
    /// `None` while a person elsewhere is to answer.
    pub fn offer_end(
        &mut self,
        accepted: Option<bool>,
        access: Access,
    ) -> Result<Option<bool>, Refusal> {
        self.offer(Offered::End, accepted, access)
    }

    /// The person whose turn it is resigns, conceding `level`, through `access`: whether the
    /// game ended, or `None` while a person elsewhere is to answer.
    pub fn resign(
        &mut self,
        level: Resignation,
        accepted: Option<bool>,
        access: Access,
    ) -> Result<Option<bool>, Refusal> {
        self.offer(Offered::Resign(level), accepted, access)
    }

    /// An offer answered at once (by the computer, or by a person this link also plays for),
    /// or left for the person elsewhere it is made to.
    fn offer(
        &mut self,
        what: Offered,
        accepted: Option<bool>,
        access: Access,
    ) -> Result<Option<bool>, Refusal> {
        let Some(by) = self.turn() else {
            return self.put(what, accepted).map(Some);
        };
        let other = 1 - by;
        if self.table.seats()[other] != Spec::Human || self.plays(access, other) {
            return self.put(what, accepted).map(Some);
        }
        let name = self.table.game().player_names()[other];
        if accepted.is_some() {
            return Err(bad(format!(
                "{name} answers for themselves, from their own link"
            )));
        }
        // Declined, an offer changes nothing: so the table checks it is one the rules allow.
        self.put(what, Some(false))?;
        self.offer = Some(Offer {
            by,
            what,
            version: self.table.version(),
        });
        Ok(None)
    }

    fn put(&mut self, what: Offered, accepted: Option<bool>) -> Result<bool, Refusal> {
        match what {
            Offered::End => self.table.offer_end(accepted),
            Offered::Resign(level) => self.table.resign(level, accepted),
        }
    }

    /// The offer awaiting an answer, while the game is as it was made in.
    fn pending(&self) -> Option<&Offer> {
        self.offer
            .as_ref()
            .filter(|o| o.version == self.table.version())
    }

    /// Answers the offer awaiting an answer: whether the game ended.
    pub fn answer(&mut self, accepted: bool) -> Result<bool, Refusal> {
        let Some(offer) = self.pending() else {
            return Err(Refusal::NotNow("no offer awaits an answer".into()));
        };
        let what = offer.what;
        let ended = self.put(what, Some(accepted))?;
        self.offer = None;
        Ok(ended)
    }

    /// The player whose turn it is (to move or to roll), none when the game is over.
    fn turn(&self) -> Option<Player> {
        let state = self.table.state().ok()?;
        self.table.game().phase(state).to_move()
    }

    /// Whether the seat `p` is a person who plays from their own link.
    pub fn elsewhere(&self, p: Player) -> bool {
        self.elsewhere[p]
    }

    /// Whether `access` plays for the seat `p`.
    pub fn plays(&self, access: Access, p: Player) -> bool {
        match access {
            Access::Owner => !self.elsewhere[p],
            Access::Seat(q) => q == p,
            Access::Watcher => false,
        }
    }

    /// Refused, with why, when `access` may not do `act` now. Where the table would refuse
    /// the act anyway (nothing to undo, no offer), it is let through to say so.
    pub fn permit(&self, access: Access, act: Act) -> Result<(), String> {
        let names = self.table.game().player_names();
        if access == Access::Watcher {
            return Err("this link watches the game: only its players change it".into());
        }
        let theirs = |p: Player| match access {
            Access::Seat(q) if q != p => Err(format!(
                "it is {}'s turn: this link plays {}",
                names[p], names[q]
            )),
            _ => Err(format!(
                "it is {}'s turn, and they play from their own link",
                names[p]
            )),
        };
        match act {
            Act::Turn => match self.turn() {
                Some(p) if !self.plays(access, p) => theirs(p),
                _ => Ok(()),
            },
            Act::Undo => {
                let Some(p) = self.table.undo_player() else {
                    return Ok(());
                };
                // Between people on two computers, a move is taken back only by its player, and
                // only before the other has done anything since.
                let last = self.table.steps().last().and_then(|s| s.player);
                let apart = self.elsewhere.contains(&true);
                if !self.plays(access, p) || (apart && last != Some(p)) {
                    return Err(format!(
                        "only {} takes back their move, before {} plays on",
                        names[p],
                        names[1 - p]
                    ));
                }
                Ok(())
            }
            Act::Next => Ok(()),
            Act::Answer => match self.pending() {
                Some(o) if !self.plays(access, 1 - o.by) => Err(format!(
                    "the offer is made to {}: they answer it",
                    names[1 - o.by]
                )),
                _ => Ok(()),
            },
            Act::Own => match access {
                Access::Owner => Ok(()),
                _ => Err("only the link the game was begun from does this".into()),
            },
        }
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
    /// that holds the steps before it asks only for the new ones. The view is the one `access`
    /// gets: which seats it plays, the board from its side.
    pub fn view(
        &self,
        at: Option<usize>,
        log_from: Option<usize>,
        access: Access,
    ) -> Result<Value, Refusal> {
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
        let viewer = self.viewer(access);
        let first = log_from
            .unwrap_or(0)
            .max(steps.len().saturating_sub(LOG_STEPS))
            .min(steps.len());
        let log: Vec<Value> = steps[first..]
            .iter()
            .enumerate()
            .map(|(i, s)| json!({"step": first + i, "game": s.game, "player": s.player, "text": step_text(game, steps, first + i, viewer)}))
            .collect();
        let names = game.player_names();
        let undoable = live && table.undoable() && self.permit(access, Act::Undo).is_ok();
        let seat_words = [0, 1].map(|p| match self.elsewhere[p] {
            true => FRIEND.to_string(),
            false => seats[p].to_string(),
        });
        let you = [0, 1].map(|p| self.plays(access, p));
        let offer = self.pending().map(|o| {
            let what = match o.what {
                Offered::End => json!("end"),
                Offered::Resign(level) => json!(level),
            };
            json!({"by": o.by, "what": what})
        });
        Ok(json!({
            "game": {
                "name": game.name(),
                "family": game.family(),
                "players": names,
                "rules": table.header().rules,
                "description": game.describe(),
                "dice": game.dice().map(|d| json!({"count": d.count, "faces": d.faces})),
            },
            "seats": seat_words,
            "access": access.word(),
            "you": you,
            "turn": self.turn(),
            "offer": offer,
            "version": table.version(),
            "at": at,
            "steps": steps.len(),
            "live": live,
            "awaiting": awaiting,
            "computer": computer,
            "undoable": undoable,
            "may_end": live && table.may_end() && self.permit(access, Act::Turn).is_ok(),
            "may_resign": live && table.may_resign() && self.permit(access, Act::Turn).is_ok(),
            "viewer": viewer,
            "state": game.state_json(state),
            "svg": game.svg(state, viewer),
            "status": status(game, state),
            "legal": legal,
            "legal_count": legal_count,
            "numbering": game.numbering(state),
            "log_from": first,
            "log": log,
        }))
    }

    /// The move of step `at` (the latest by default) played out as by hand, for the page to
    /// animate: each moment's position as STATE and as a picture from `access`'s side, with the
    /// stones then in hand. No moments for a step that is not a move, or a move the family shows
    /// whole.
    pub fn moments(&self, at: Option<usize>, access: Access) -> Result<Value, Refusal> {
        let steps = self.table.steps();
        let last = steps.len() - 1;
        let at = at.unwrap_or(last);
        if at > last {
            return Err(bad(format!(
                "step {at} does not exist: this game has steps 0 to {last}"
            )));
        }
        let game = self.table.game();
        let viewer = self.viewer(access);
        let moments = match &steps[at].event {
            Event::Move { text } if at > 0 => {
                let before = &steps[at - 1].state;
                game.parse_move(before, text)
                    .map_or_else(|_| Vec::new(), |mv| game.play_shown(before, &mv))
            }
            _ => Vec::new(),
        };
        let moments: Vec<Value> = moments
            .iter()
            .map(|(state, hand)| {
                json!({"state": game.state_json(state), "svg": game.svg(state, viewer), "hand": hand})
            })
            .collect();
        Ok(json!({"step": at, "moments": moments}))
    }

    /// The side the board is drawn from for `access`: a friend's own; for the link the game
    /// began from, the one person playing there, else player 0.
    fn viewer(&self, access: Access) -> Player {
        if let Access::Seat(p) = access {
            return p;
        }
        let here = [0, 1].map(|p| self.table.seats()[p] == Spec::Human && !self.elsewhere[p]);
        match here {
            [false, true] => 1,
            _ => 0,
        }
    }
}

/// Steps of the move list a view carries (the latest ones).
const LOG_STEPS: usize = 2_000;

/// The step `i` of the move list in words, its moves seen from `viewer`'s side.
fn step_text(game: &AnyGame, steps: &[Step], i: usize, viewer: Player) -> String {
    let step = &steps[i];
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
        Event::Move { text } => {
            // Each step holds the position after it: the one before is the previous step's.
            let before = &steps[i.saturating_sub(1)].state;
            match (step.player, game.parse_move(before, text)) {
                (Some(p), Ok(mv)) => {
                    said::move_said(game, (before, &mv, &step.state), p, who, viewer)
                }
                _ => format!("{who} plays {text}"),
            }
        }
        Event::Undo { undo: 1 } => "one step taken back".into(),
        Event::Undo { undo } => format!("{undo} steps taken back"),
        Event::Agreed { .. } => format!("{who} offers to end the game here; accepted"),
        Event::Resigned { resigned } => format!("{who} {}; accepted", resigned.reason()),
        Event::End { end } => format!("end: {}", end.reason),
    }
}

/// One line on the position: who is to move, or the result, and a match's standing.
/// ` (Black's checkers)` where `p` moves the opponent's checkers (a first turn played with
/// them), else nothing.
fn theirs(game: &AnyGame, state: &AnyState, p: Player) -> String {
    match game.numbering(state) {
        Some(q) if q != p => format!(" ({}'s checkers)", game.player_names()[q]),
        _ => String::new(),
    }
}

fn status(game: &AnyGame, state: &AnyState) -> String {
    let names = game.player_names();
    let mut out = match (game.outcome(state), game.phase(state)) {
        (Some(o), _) => match o.winner {
            Some(w) => format!("{} wins ({})", names[w], o.reason),
            None => format!("Draw ({})", o.reason),
        },
        (None, Phase::Roll(p)) => format!("{} to roll{}", names[p], theirs(game, state, p)),
        (None, Phase::Move(p)) => format!("{} to move{}", names[p], theirs(game, state, p)),
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
