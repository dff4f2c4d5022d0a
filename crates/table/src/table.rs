//! The table where a game is played: the rules, who sits at each side, the dice source, the
//! starting ritual, every step with its position, undo, agreed endings, the next game of a
//! match and the record, with each game's end recorded exactly once. `ludus play`, the protocol,
//! `ludus serve` and the Python package are thin adapters around it, and a record is replayed by
//! feeding its lines to a table. A refused step leaves the table exactly as it was.

use crate::record::{self, End, Event, Header, RecordError};
use crate::registry::{self, AnyGame, AnyMove, AnyState};
use ludus_core::game::{Deal, Dice, Game, Notation, Phase, Player, Resignation, Ritual, Roll};
use ludus_core::limits::{excerpt, LIMITS};
use ludus_players::{Analysis, Spec};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::BufRead;
use std::sync::Arc;

/// Why a step was refused: a problem with the request itself, or one with the moment it came
/// at (a move while dice are awaited, a move for a computer's seat).
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

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for Refusal {}

impl From<Refusal> for String {
    fn from(r: Refusal) -> String {
        r.message().to_string()
    }
}

fn bad(message: impl Into<String>) -> Refusal {
    Refusal::Bad(message.into())
}

fn not_now(message: impl Into<String>) -> Refusal {
    Refusal::NotNow(message.into())
}

/// One step of play: what happened (a record line) and the position it led to.
#[derive(Clone, Debug)]
pub struct Step {
    pub state: AnyState,
    /// The game of the match it belongs to, from 1.
    pub game: u32,
    /// Who rolled, moved or offered the ending (none for a game's start and an undo).
    pub player: Option<Player>,
    pub event: Event,
    /// At a game's start, the starting ritual in words.
    pub account: Option<String>,
}

/// How the starting ritual went: who starts, the ritual in words (none when the starter was
/// given or the rules hold no ritual), and the dice the starter plays first where the ritual's
/// roll is the opening roll.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Start {
    pub first: Player,
    pub account: Option<String>,
    pub opening: Option<Roll>,
}

impl Start {
    /// `first` starts, as given: no ritual.
    pub fn given(first: Player) -> Start {
        Start {
            first,
            account: None,
            opening: None,
        }
    }
}

/// A computer player's task, handed out so that it can think without holding the table: the
/// position, the player, and the seed of its random choices (drawn from a copy of the table's
/// generator, so thinking changes nothing, not even the next roll).
#[derive(Clone)]
pub struct Thinking {
    pub game: Arc<AnyGame>,
    pub state: AnyState,
    pub spec: Spec,
    pub seed: u64,
    version: u64,
}

impl Thinking {
    /// The index of the chosen move among the legal moves, with the search's analysis (of every
    /// move when `all`).
    pub fn decide(&self, all: bool) -> (usize, Option<Analysis>) {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        registry::decide_any(&self.game, &self.state, self.spec, all, &mut rng)
    }
}

/// A game (or match) at the table.
pub struct Table {
    game: Arc<AnyGame>,
    header: Header,
    seats: [Spec; 2],
    /// The dice and the draws of the starting ritual.
    rng: ChaCha8Rng,
    /// Every step so far, undos included, a game's start first.
    steps: Vec<Step>,
    /// The steps of the current game's line of play, its start first: what undo takes back.
    line: Vec<usize>,
    /// The record's lines after the header.
    events: Vec<Event>,
    /// Whether the steps make a record: not once a position was set up by hand.
    recorded: bool,
    /// Steps a table keeps at most.
    max_steps: usize,
    /// Counts changes, so that a move thought out on an older position is not played.
    version: u64,
}

impl Table {
    /// A table for `game` with its seats; no game has begun. The header's seed and players are
    /// the table's.
    pub fn new(game: AnyGame, header: Header, seats: [Spec; 2], seed: Option<u64>) -> Table {
        let rng = match seed {
            Some(seed) => ChaCha8Rng::seed_from_u64(seed),
            None => ChaCha8Rng::from_entropy(),
        };
        let header = Header {
            seed,
            players: seats.map(|s| s.to_string()),
            ..header
        };
        Table {
            game: Arc::new(game),
            header,
            seats,
            rng,
            steps: Vec::new(),
            line: Vec::new(),
            events: Vec::new(),
            recorded: true,
            max_steps: LIMITS.record_events,
            version: 0,
        }
    }

    /// Keeps at most `steps` steps: a step past them is refused.
    pub fn with_max_steps(mut self, steps: usize) -> Table {
        self.max_steps = steps;
        self
    }

    /// Names the players in the record's header (the protocol's client knows who chose).
    pub fn name_players(&mut self, names: [String; 2]) {
        self.header.players = names;
    }

    /// Draws the dice and the ritual from `seed` from now on (the record says so).
    pub fn reseed(&mut self, seed: Option<u64>) {
        if let Some(seed) = seed {
            self.rng = ChaCha8Rng::seed_from_u64(seed);
        }
        self.header.seed = seed;
    }

    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    pub fn seats(&self) -> [Spec; 2] {
        self.seats
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Every step so far, undos included.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// The record's lines after the header.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The bytes the table holds: every step with its position, the line of play and the
    /// record's lines (what a server counts against its memory budget).
    pub fn bytes(&self) -> usize {
        use std::mem::size_of;
        let steps: usize = self
            .steps
            .iter()
            .map(|s| {
                self.game.state_bytes(&s.state)
                    + s.event.heap_bytes()
                    + s.account.as_ref().map_or(0, String::capacity)
            })
            .sum();
        let events: usize = self.events.iter().map(Event::heap_bytes).sum();
        size_of::<Table>()
            + self.steps.capacity() * size_of::<Step>()
            + steps
            + self.line.capacity() * size_of::<usize>()
            + self.events.capacity() * size_of::<Event>()
            + events
    }

    /// Changes so far.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The current position; refused before a game has begun.
    pub fn state(&self) -> Result<&AnyState, Refusal> {
        self.line
            .last()
            .map(|&i| &self.steps[i].state)
            .ok_or_else(|| not_now("no game has begun"))
    }

    fn game_number(&self) -> u32 {
        self.steps.last().map_or(1, |s| s.game)
    }

    /// Begins the first game: `first` starts, else as the starting ritual draws it. Whatever
    /// was played at the table before is gone.
    pub fn start(&mut self, first: Option<Player>) -> Start {
        let start = match first {
            Some(first) => Start::given(first),
            None => self.ritual(),
        };
        self.begin(start)
    }

    /// Begins the first game as `start` says: a ritual its people held at the table (the
    /// terminal's typed dice), its opening roll included.
    pub fn begin(&mut self, start: Start) -> Start {
        self.steps.clear();
        self.line.clear();
        self.events.clear();
        self.recorded = true;
        let (state, deal) = self.scattered(self.game.new_game(start.first));
        self.add(
            state,
            1,
            None,
            Event::Game {
                game: 1,
                first: start.first,
                deal,
            },
        );
        self.begun(&start);
        start
    }

    /// A game's (or round's) start with its stones scattered where the rules say so, and the
    /// deal, drawn from the table's generator.
    fn scattered(&mut self, start: AnyState) -> (AnyState, Option<Deal>) {
        let mut state = start.clone();
        match self.game.draw_deal(&state, &mut self.rng) {
            Some(deal) if self.game.deal(&mut state, &deal).is_ok() => (state, Some(deal)),
            _ => (start, None),
        }
    }

    /// Lays a record's `deal` out on the current game's start in place of the table's own.
    pub fn redeal(&mut self, deal: &Deal) -> Result<(), Refusal> {
        let [i] = self.line[..] else {
            return Err(not_now("the stones are scattered as the game begins"));
        };
        let mut state = self.steps[i].state.clone();
        self.game.deal(&mut state, deal).map_err(bad)?;
        self.steps[i].state = state;
        for event in [Some(&mut self.steps[i].event), self.events.last_mut()]
            .into_iter()
            .flatten()
        {
            if let Event::Game { deal: d, .. } = event {
                *d = Some(deal.clone());
            }
        }
        self.version += 1;
        Ok(())
    }

    /// Keeps the ritual's account with the game's start, and plays the opening roll where the
    /// ritual's dice are the starter's first roll.
    fn begun(&mut self, start: &Start) {
        if let Some(step) = self.steps.last_mut() {
            step.account.clone_from(&start.account);
        }
        if let Some(dice) = &start.opening {
            // A game's start awaits its first roll, which these dice are. (Only a table held
            // to a single step has no room for it; there the roll stays awaited.)
            let _ = self.roll(Some(dice.values()));
        }
    }

    /// The rules' starting ritual held with every choice drawn: the guess of odd or even, the
    /// one die each; with no ritual, either player at even chances.
    pub fn ritual(&mut self) -> Start {
        match self.game.start_ritual() {
            Ritual::None => Start::given(self.rng.gen_range(0..2)),
            Ritual::OddOrEven => self.odd_or_even(None),
            Ritual::HigherDieChoosesColour
            | Ritual::HigherDieStarts
            | Ritual::OpeningRoll
            | Ritual::HigherThrowPlays => loop {
                if let Ok(start) = self.dice_each(None) {
                    break start;
                }
            },
        }
    }

    /// Odd or even: player 1 hides some stones (drawn), player 0 guesses `odd` (drawn when not
    /// given); a right guess starts.
    pub fn odd_or_even(&mut self, odd: Option<bool>) -> Start {
        let hidden: u32 = self.rng.gen_range(1..=12);
        let odd = odd.unwrap_or_else(|| self.rng.gen_bool(0.5));
        let first = if (hidden % 2 == 1) == odd { 0 } else { 1 };
        Start {
            first,
            account: Some(format!(
                "{} guesses {}; {hidden} stones were hidden: {} starts",
                self.seated(0),
                if odd { "odd" } else { "even" },
                self.seated(first)
            )),
            opening: None,
        }
    }

    /// One die each, or a whole throw each (drawn, or `given` from real dice), as the rules'
    /// ritual reads it: the lower roller starts, keeping the colours as seated (the higher
    /// roller would choose the colour); or the higher roller starts, rolling as usual or
    /// playing the two dice rolled, or the winning throw. A tie is refused with its account:
    /// roll again.
    pub fn dice_each(&mut self, given: Option<[Vec<u8>; 2]>) -> Result<Start, Refusal> {
        let ritual = self.game.start_ritual();
        let dice = self.game.dice().unwrap_or(Dice::TWO_D6);
        let (faces, each) = (dice.faces, usize::from(ritual.dice_each(dice)));
        let throws = match given {
            Some(throws) => {
                if let Some(t) = throws.iter().find(|t| t.len() != each) {
                    return Err(bad(format!(
                        "each player throws {each} dice, not {}",
                        t.len()
                    )));
                }
                if let Some(d) = throws.iter().flatten().find(|d| !(1..=faces).contains(*d)) {
                    return Err(bad(format!("a die shows 1 to {faces}, not {d}")));
                }
                throws
            }
            None => [0, 1].map(|_| (0..each).map(|_| self.rng.gen_range(1..=faces)).collect()),
        };
        let text = |t: &[u8]| t.iter().map(u8::to_string).collect::<Vec<_>>().join("-");
        let rolled = format!(
            "{} rolls {}, {} rolls {}",
            self.seated(0),
            text(&throws[0]),
            self.seated(1),
            text(&throws[1])
        );
        let higher = match ritual.compare(&throws[0], &throws[1]) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Less => 1,
            std::cmp::Ordering::Equal => {
                return Err(not_now(format!("{rolled}: a tie, roll again")))
            }
        };
        let (high, low) = (throws[higher][0], throws[1 - higher][0]);
        Ok(match ritual {
            Ritual::HigherThrowPlays => {
                let mut won = throws[higher].clone();
                won.sort_unstable_by(|a, b| b.cmp(a));
                Start {
                    first: higher,
                    account: Some(format!(
                        "{rolled}: {}'s throw wins and starts with {}",
                        self.seated(higher),
                        text(&won)
                    )),
                    opening: Roll::new(&won).ok(),
                }
            }
            Ritual::HigherDieStarts => Start {
                first: higher,
                account: Some(format!(
                    "{rolled}: {}, the higher roller, starts",
                    self.seated(higher)
                )),
                opening: None,
            },
            Ritual::OpeningRoll => Start {
                first: higher,
                account: Some(format!(
                    "{rolled}: {}, the higher roller, starts with {high}-{low}",
                    self.seated(higher)
                )),
                opening: Roll::new(&[high, low]).ok(),
            },
            _ => Start {
                first: 1 - higher,
                account: Some(format!(
                    "{rolled}: {}, the lower roller, starts",
                    self.seated(1 - higher)
                )),
                opening: None,
            },
        })
    }

    /// A player's name with who sits there: `South (human)`.
    pub fn seated(&self, p: Player) -> String {
        format!("{} ({})", self.game.player_names()[p], self.seats[p])
    }

    /// Sets up `state` by hand: play goes on from it, with no record and nothing to undo.
    pub fn set_position(&mut self, state: AnyState) {
        let game = self.game.match_standing(&state).map_or(1, |s| s.game);
        let first = self.game.starter(&state);
        self.steps.clear();
        self.line.clear();
        self.events.clear();
        let deal = None;
        self.add(state, game, None, Event::Game { game, first, deal });
        self.events.clear();
        self.recorded = false;
    }

    /// Refused when the table holds as many steps as it keeps.
    fn room(&self) -> Result<(), Refusal> {
        self.room_for(1)
    }

    /// Refused unless `steps` more steps fit.
    fn room_for(&self, steps: usize) -> Result<(), Refusal> {
        if self.steps.len() + steps > self.max_steps {
            return Err(not_now(format!(
                "this game has reached {} steps, the most a table keeps: save its record and \
                 start a new one",
                self.max_steps
            )));
        }
        Ok(())
    }

    /// Adds the step `event` leading to `state`: to the steps, to the line of play (a game's
    /// start begins it anew; an undo takes its steps off it) and to the record, with the
    /// game's end when it ended there.
    fn add(&mut self, state: AnyState, game: u32, player: Option<Player>, event: Event) {
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
        self.events.push(event.clone());
        if let Some(outcome) = ended {
            self.events.push(Event::End {
                end: (&outcome).into(),
            });
        }
        self.steps.push(Step {
            state,
            game,
            player,
            event,
            account: None,
        });
        self.version += 1;
    }

    /// Adds a roll, move or agreed ending of the current game, within the cap on steps.
    fn push(&mut self, state: AnyState, player: Player, event: Event) -> Result<(), Refusal> {
        self.room()?;
        self.add(state, self.game_number(), Some(player), event);
        Ok(())
    }

    /// The player to move, refused when dice are awaited or the game is over.
    pub fn to_move(&self) -> Result<Player, Refusal> {
        match self.game.phase(self.state()?) {
            Phase::Move(p) => Ok(p),
            Phase::Roll(_) => Err(not_now("dice are awaited: roll first")),
            Phase::Over => Err(not_now("the game is over")),
        }
    }

    /// Plays `text` (the game's notation) for the person to move.
    pub fn play(&mut self, text: &str) -> Result<(), Refusal> {
        let p = self.to_move()?;
        if self.seats[p] != Spec::Human {
            return Err(not_now(format!(
                "{} is played by the computer ({}): ask it to move",
                self.game.player_names()[p],
                self.seats[p]
            )));
        }
        self.play_text(p, text)
    }

    fn play_text(&mut self, p: Player, text: &str) -> Result<(), Refusal> {
        let mv = self
            .game
            .parse_move(self.state()?, text)
            .map_err(|e| bad(e.to_string()))?;
        self.play_move(p, &mv)
    }

    /// Plays `mv`, a legal move of the current position, for `p`, the player to move.
    pub fn play_move(&mut self, p: Player, mv: &AnyMove) -> Result<(), Refusal> {
        let mut state = self.state()?.clone();
        let text = self.game.move_text(&state, mv);
        self.game.play(&mut state, mv);
        self.push(state, p, Event::Move { text })
    }

    /// Rolls the awaited dice: drawn by the table, or the `given` values of real dice.
    pub fn roll(&mut self, given: Option<&[u8]>) -> Result<Roll, Refusal> {
        let dice = self
            .game
            .dice()
            .ok_or_else(|| bad("these rules use no dice"))?;
        let mut state = self.state()?.clone();
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
            p,
            Event::Roll {
                roll: roll.values().to_vec(),
            },
        )?;
        Ok(roll)
    }

    /// Takes back the last move of a person and what came after it (the computer's answer,
    /// rolls): back to the last position of this game where a person was to move. With no
    /// person seated, one step back.
    pub fn undo(&mut self) -> Result<(), Refusal> {
        let Some(back) = self.undo_target() else {
            return Err(not_now("nothing to undo in this game"));
        };
        self.undo_steps((self.line.len() - 1 - back) as u32)
    }

    /// Whether there is something to undo.
    pub fn undoable(&self) -> bool {
        self.undo_target().is_some()
    }

    /// The player whose move an undo takes back: the one to move where it goes back to.
    pub fn undo_player(&self) -> Option<Player> {
        let back = self.undo_target()?;
        self.game
            .phase(&self.steps[self.line[back]].state)
            .to_move()
    }

    fn undo_steps(&mut self, undo: u32) -> Result<(), Refusal> {
        let k = undo as usize;
        if k == 0 || k >= self.line.len() {
            return Err(bad(format!(
                "undo {undo}: the game has {} roll(s) and move(s) to take back",
                self.line.len().saturating_sub(1)
            )));
        }
        self.room()?;
        let state = self.steps[self.line[self.line.len() - 1 - k]].state.clone();
        self.add(state, self.game_number(), None, Event::Undo { undo });
        Ok(())
    }

    /// Where undo goes back to: the index in the line of play of the last position of this game
    /// where a person was to move (with no person seated, the position before the last).
    fn undo_target(&self) -> Option<usize> {
        let people = self.seats.contains(&Spec::Human);
        (0..self.line.len().saturating_sub(1)).rev().find(|&i| {
            !people
                || matches!(self.game.phase(&self.steps[self.line[i]].state),
                    Phase::Move(p) if self.seats[p] == Spec::Human)
        })
    }

    /// Whether the person to move may offer to end the game here (the rules allow it).
    pub fn may_end(&self) -> bool {
        let Ok(state) = self.state() else {
            return false;
        };
        matches!(self.game.phase(state), Phase::Move(p) if self.seats[p] == Spec::Human)
            && self.game.end_by_agreement(&mut state.clone())
    }

    /// The person to move offers to end the game here, where the rules allow an ending by
    /// agreement: a computer opponent accepts when it is ahead or level; a person opponent gives
    /// `accepted`. Whether the game ended.
    pub fn offer_end(&mut self, accepted: Option<bool>) -> Result<bool, Refusal> {
        let state = self.state()?.clone();
        let Phase::Move(p) = self.game.phase(&state) else {
            return Err(not_now(
                "an ending can be offered only when a move is awaited",
            ));
        };
        let mut ended = state.clone();
        if !self.game.end_by_agreement(&mut ended) {
            return Err(not_now("these rules allow no ending by agreement here"));
        }
        let computer = |game: &AnyGame| ludus_players::accepts_end(game, &state, 1 - p);
        self.offer(p, ended, accepted, computer, Event::Agreed { agreed: true })
    }

    /// Whether the person whose turn it is may resign here (the rules allow it).
    pub fn may_resign(&self) -> bool {
        let Ok(state) = self.state() else {
            return false;
        };
        let turn = self.game.phase(state).to_move();
        turn.is_some_and(|p| self.seats[p] == Spec::Human)
            && self.game.resign(&mut state.clone(), Resignation::Single)
    }

    /// The person whose turn it is (to move or to roll) resigns, conceding `level`, where the
    /// rules allow it: a computer opponent accepts when it expects no more from playing on; a
    /// person opponent gives `accepted`. Whether the game ended.
    pub fn resign(&mut self, level: Resignation, accepted: Option<bool>) -> Result<bool, Refusal> {
        let state = self.state()?.clone();
        let Some(p) = self.game.phase(&state).to_move() else {
            return Err(not_now("the game is over"));
        };
        let mut ended = state.clone();
        if !self.game.resign(&mut ended, level) {
            return Err(not_now("these rules allow no resignation"));
        }
        let computer =
            |game: &AnyGame| ludus_players::cube::accepts_resignation(game, &state, &ended);
        let event = Event::Resigned { resigned: level };
        self.offer(p, ended.clone(), accepted, computer, event)
    }

    /// An offer of the person `p`, whose turn it is, that ends the game as `ended`: answered
    /// by the person opposite (`accepted`) or by the computer there (`computer`), and recorded
    /// as `event` when accepted. Whether it was.
    fn offer(
        &mut self,
        p: Player,
        ended: AnyState,
        accepted: Option<bool>,
        computer: impl FnOnce(&AnyGame) -> bool,
        event: Event,
    ) -> Result<bool, Refusal> {
        if self.seats[p] != Spec::Human {
            return Err(not_now(format!(
                "{} is played by the computer",
                self.game.player_names()[p]
            )));
        }
        let other = 1 - p;
        let accepted = match (self.seats[other], accepted) {
            (Spec::Human, Some(answer)) => answer,
            (Spec::Human, None) => {
                return Err(bad(format!(
                    "{} is a person: give their answer (accept or decline)",
                    self.game.player_names()[other]
                )))
            }
            _ => computer(&self.game),
        };
        if accepted {
            self.push(ended, p, event)?;
        }
        Ok(accepted)
    }

    /// Whether the current game is over and the match goes on.
    pub fn next_game_awaited(&self) -> bool {
        self.state().is_ok_and(|s| {
            self.game.phase(s) == Phase::Over
                && self.game.match_standing(s).is_some_and(|m| !m.over)
        })
    }

    /// Who starts the next game when the rules say so (else the ritual decides).
    pub fn next_starter(&self) -> Option<Player> {
        self.state().ok().and_then(|s| self.game.next_starter(s))
    }

    /// Starts the next game of the match: `first` as the ritual at the table chose, else as
    /// the rules say, else as the ritual draws it.
    pub fn next_game(&mut self, first: Option<Player>) -> Result<Start, Refusal> {
        self.next_game_from(first.map(Start::given))
    }

    /// Starts the next game of the match: as `start` says (a ritual held at the table), else
    /// as the rules say, else as the ritual draws it.
    pub fn next_game_from(&mut self, start: Option<Start>) -> Result<Start, Refusal> {
        let state = self.state()?.clone();
        let standing = self
            .game
            .match_standing(&state)
            .ok_or_else(|| bad("these rules define no match"))?;
        if self.game.phase(&state) != Phase::Over {
            return Err(not_now("the current game is not over"));
        }
        if standing.over {
            return Err(not_now("the match is decided"));
        }
        // A game begun by an opening roll takes two steps: its start and that roll.
        let opening = matches!(
            self.game.start_ritual(),
            Ritual::OpeningRoll | Ritual::HigherThrowPlays
        );
        self.room_for(1 + usize::from(opening))?;
        let rules = || self.game.next_starter(&state).map(Start::given);
        let start = match start.or_else(rules) {
            Some(start) => start,
            None => self.ritual(),
        };
        let next = self
            .game
            .next_game(&state, start.first)
            .ok_or_else(|| not_now("the match is decided"))?;
        let game = standing.game + 1;
        let first = start.first;
        let (next, deal) = self.scattered(next);
        self.add(next, game, None, Event::Game { game, first, deal });
        self.begun(&start);
        Ok(start)
    }

    /// What a computer player should think about: `spec` (a hint, a protocol's `go`), else the
    /// seat's own player; refused when a person sits there, dice are awaited or the game is over.
    pub fn thinking(&self, spec: Option<Spec>) -> Result<Thinking, Refusal> {
        let p = self.to_move()?;
        let spec = match spec {
            Some(spec) => spec,
            None if self.seats[p] == Spec::Human => {
                return Err(not_now(format!(
                    "{} is played by a person",
                    self.game.player_names()[p]
                )))
            }
            None => self.seats[p],
        };
        Ok(Thinking {
            game: Arc::clone(&self.game),
            state: self.state()?.clone(),
            spec,
            seed: self.thinking_seed(),
            version: self.version,
        })
    }

    /// The seed of a computer's thinking: the table's seed, drawn on a stream of its own for
    /// each step (the table's generator moves on only with dice, so without dice a plain draw
    /// from it would give every move the same seed, and every seeded game of random players
    /// the same few choices).
    fn thinking_seed(&self) -> u64 {
        let mut rng = self.rng.clone();
        rng.set_stream(self.version);
        rng.gen()
    }

    /// Plays the computer's choice, `index` among the legal moves of the position it thought
    /// about, when nothing changed since.
    pub fn play_thought(&mut self, thought: &Thinking, index: usize) -> Result<(), Refusal> {
        if thought.version != self.version {
            return Err(not_now("the game changed while the computer was thinking"));
        }
        let p = self.to_move()?;
        let mut moves = Vec::new();
        self.game.legal_moves(self.state()?, &mut moves);
        let mv = moves
            .get(index)
            .ok_or_else(|| not_now("the move is no longer legal"))?
            .clone();
        self.play_move(p, &mv)
    }

    /// The record's header and lines; refused once a position was set up by hand.
    pub fn recorded(&self) -> Result<(&Header, &[Event]), Refusal> {
        if !self.recorded || self.steps.is_empty() {
            return Err(not_now(
                "no record: the position was set up by hand, not played from the start",
            ));
        }
        Ok((&self.header, &self.events))
    }

    /// The record as a file holds it: one JSON object a line.
    pub fn record(&self) -> Result<String, Refusal> {
        let (header, events) = self.recorded()?;
        let mut out = serde_json::to_string(header).unwrap_or_default();
        out.push('\n');
        for e in events {
            out.push_str(&serde_json::to_string(e).unwrap_or_default());
            out.push('\n');
        }
        Ok(out)
    }
}

/// A step as a replay reaches it: the record's line, the roll or move counted from the first
/// (an undo counts back), and the table after it.
pub struct Replayed<'t> {
    pub line: usize,
    pub ply: u32,
    pub table: &'t Table,
}

impl Replayed<'_> {
    /// The step just replayed.
    pub fn step(&self) -> &Step {
        self.table.steps.last().expect("a replayed step")
    }
}

/// Replays a record (its header already read) at a table seated as `seats`: every line is
/// played as a step, so games begin where the rules allow (a next game only once one is over
/// and the match goes on), rolls only when dice are awaited and within the dice, moves only
/// when legal, and a record's `end` must be the result the rules give, once per game. Calls
/// `seen` after each step; stops at the first problem.
pub fn replay(
    game: AnyGame,
    header: Header,
    seats: [Spec; 2],
    input: &mut impl BufRead,
    max_steps: usize,
    mut seen: impl FnMut(&Replayed),
) -> Result<Table, RecordError> {
    let mut table = Table::new(game, header.clone(), seats, header.seed);
    table.header = header;
    table.max_steps = max_steps;
    let mut ply: u32 = 0;
    // Whether the current game's `end` line was read: a game ends once.
    let mut ended = false;
    let at = |line: usize, message: String| RecordError { line, message };
    for number in 2.. {
        let Some(text) = record::next_line(input, number)? else {
            break;
        };
        if text.trim().is_empty() {
            continue;
        }
        let event: Event = serde_json::from_str(&text).map_err(|_| {
            at(
                number,
                format!(
                    "`{}` is not an event of a record (game, roll, move, undo, agreed, end)",
                    excerpt(text.trim())
                ),
            )
        })?;
        let begun = !table.steps.is_empty();
        let refused = |e: Refusal| at(number, e.message().to_string());
        match &event {
            Event::Game {
                game: g,
                first,
                deal,
            } => {
                let (g, first) = (*g, *first);
                if first > 1 {
                    return Err(at(number, format!("player {first}: a player is 0 or 1")));
                }
                let current = table.game_number();
                if !begun {
                    if g != 1 {
                        return Err(at(number, "the first game of a record is game 1".into()));
                    }
                    table.start(Some(first));
                } else if g != current + 1 {
                    return Err(at(number, format!("game {g} follows game {current}")));
                } else if table.state().is_ok_and(|s| table.game.outcome(s).is_none()) {
                    return Err(at(
                        number,
                        format!("game {g} begins before game {current} is over"),
                    ));
                } else {
                    table.next_game(Some(first)).map_err(|_| {
                        at(
                            number,
                            format!("game {g}: the match was over after game {current}"),
                        )
                    })?;
                }
                // The rules' deal is the record's: the table's own draw is only a stand-in.
                let drawn = matches!(table.events.last(), Some(Event::Game { deal: Some(_), .. }));
                match deal {
                    Some(deal) => table
                        .redeal(deal)
                        .map_err(|e| at(number, format!("game {g}'s deal: {}", e.message())))?,
                    None if drawn => {
                        return Err(at(
                            number,
                            format!(
                                "game {g} gives no `deal`: its rules scatter the stones at random"
                            ),
                        ))
                    }
                    None => {}
                }
                ended = false;
            }
            _ if !begun => {
                return Err(at(
                    number,
                    "no game has begun (a `game` line comes first)".into(),
                ))
            }
            Event::Roll { roll } => {
                let values = Roll::new(roll).map_err(|e| at(number, format!("roll: {e}")))?;
                table.roll(Some(roll)).map_err(|e| {
                    at(
                        number,
                        format!(
                            "roll {values}: {}",
                            e.message().trim_end_matches(": roll first")
                        ),
                    )
                })?;
                ply += 1;
            }
            Event::Move { text } => {
                let moved = match table.to_move() {
                    Ok(p) => table.play_text(p, text),
                    Err(e) => Err(e),
                };
                moved.map_err(|e| at(number, format!("move `{}`: {e}", excerpt(text))))?;
                ply += 1;
            }
            Event::Undo { undo } => {
                table.undo_steps(*undo).map_err(refused)?;
                ply = ply.saturating_sub(*undo);
                ended = false;
            }
            Event::Agreed { agreed: true } => {
                let mut state = table.state().map_err(refused)?.clone();
                let p = table.game.phase(&state).to_move();
                if !table.game.end_by_agreement(&mut state) {
                    return Err(at(
                        number,
                        "these rules allow no ending by agreement".into(),
                    ));
                }
                let p = p.unwrap_or_else(|| table.game.starter(&state));
                table
                    .push(state, p, Event::Agreed { agreed: true })
                    .map_err(refused)?;
                ply += 1;
            }
            Event::Agreed { agreed: false } => continue,
            Event::Resigned { resigned } => {
                let mut state = table.state().map_err(refused)?.clone();
                let Some(p) = table.game.phase(&state).to_move() else {
                    return Err(at(number, "a resignation in a game that is over".into()));
                };
                if !table.game.resign(&mut state, *resigned) {
                    return Err(at(number, "these rules allow no resignation".into()));
                }
                table
                    .push(
                        state,
                        p,
                        Event::Resigned {
                            resigned: *resigned,
                        },
                    )
                    .map_err(refused)?;
                ply += 1;
            }
            Event::End { end } => {
                let current = table.game_number();
                if ended {
                    return Err(at(
                        number,
                        format!("a second `end` line for game {current}"),
                    ));
                }
                let state = table.state().map_err(refused)?;
                let Some(outcome) = table.game.outcome(state) else {
                    return Err(at(
                        number,
                        "the record says the game ended, but it is not over".into(),
                    ));
                };
                if !end.agrees(&End::from(&outcome)) {
                    return Err(at(
                        number,
                        format!(
                            "the record says the game ended {end}, the rules say {}",
                            End::from(&outcome)
                        ),
                    ));
                }
                ended = true;
                continue;
            }
        }
        seen(&Replayed {
            line: number,
            ply,
            table: &table,
        });
    }
    Ok(table)
}
