//! Ludus from Python: games loaded from rules files, their positions, moves as integers of a
//! fixed action space (OpenSpiel's shape), the computer players and analyses, all run by the
//! Rust interpreter. Every call that runs the engine is fallible: bad input raises a Python
//! exception with the message the command line would print, a failed move leaves the position
//! as it was, and a panic inside the engine becomes `ludus.EngineError`.

mod actions;
mod observe;

use actions::Space;
use ludus::analysis::{self, Report, Setup, Shard};
use ludus::game::{Game, Json, Notation, Outcome, Phase, Roll, View};
use ludus::players::{self, Spec, WyRand};
use ludus::record::{self, Header};
use ludus::registry::{self, AnyGame, AnyMove, AnyState, LoadError};
use ludus::rules::{Origin, Source};
use ludus::table::{self, Refusal};
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::Instant;

create_exception!(
    ludus,
    RulesError,
    PyValueError,
    "A rules file that does not compile."
);
create_exception!(
    ludus,
    EngineError,
    PyRuntimeError,
    "The engine failed (a bug in Ludus)."
);

/// OpenSpiel's player numbers for a chance node and a finished game.
const CHANCE: i64 = -1;
const TERMINAL: i64 = -4;

/// Runs `f`, turning a panic in the engine into `EngineError`.
fn guarded<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let why = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        Err(EngineError::new_err(format!("the engine failed: {why}")))
    })
}

fn bad(message: impl ToString) -> PyErr {
    PyValueError::new_err(message.to_string())
}

/// A JSON value as Python objects (dicts, lists, numbers, strings).
fn to_python(py: Python<'_>, value: &serde_json::Value) -> PyResult<PyObject> {
    let loads = py.import("json")?.getattr("loads")?;
    Ok(loads.call1((value.to_string(),))?.unbind())
}

/// What a game's positions share: the rules, the action space and the chance outcomes.
struct Rules {
    game: AnyGame,
    /// The rules as a record names them, and their text's digest.
    name: String,
    digest: String,
    space: Space,
    /// `Dice::outcomes()`: chance action i is roll i.
    rolls: Vec<(Roll, f64)>,
}

/// A game loaded from a rules file.
#[pyclass(frozen, name = "Game", module = "ludus")]
struct GameRules {
    rules: Arc<Rules>,
}

/// The game, ending its games after `max_plies` plies where given (as `--max-plies` does),
/// every turn played a step at a time with `steps` (a tables game).
fn game_of(
    mut game: AnyGame,
    name: String,
    digest: String,
    max_plies: Option<u32>,
    steps: bool,
) -> PyResult<GameRules> {
    match &mut game {
        AnyGame::Tables(g) => g.set_by_steps(steps),
        AnyGame::Sowing(_) if steps => {
            return Err(bad(
                "`steps` is for tables games: a sowing move is one decision already",
            ))
        }
        AnyGame::Sowing(_) => {}
    }
    if let Some(plies) = max_plies {
        let max = ludus::limits::LIMITS.plies_per_game;
        if !(1..=max).contains(&plies) {
            return Err(bad(format!("max_plies must be 1 to {max}, not {plies}")));
        }
        game.set_max_plies(plies);
    }
    let rolls = game.dice().map_or_else(Vec::new, |d| d.outcomes());
    let space = Space::of(&game);
    Ok(GameRules {
        rules: Arc::new(Rules {
            game,
            name,
            digest,
            space,
            rolls,
        }),
    })
}

/// Loads a bundled game by name (`oware`) or a rules file by path.
#[pyfunction]
#[pyo3(signature = (name_or_path, max_plies = None, steps = false))]
fn load(name_or_path: &str, max_plies: Option<u32>, steps: bool) -> PyResult<GameRules> {
    match registry::load(name_or_path) {
        Ok((source, game)) => game_of(game, name_or_path.into(), source.digest(), max_plies, steps),
        Err(e @ LoadError::Rules(_)) => Err(RulesError::new_err(e.to_string())),
        Err(e) => Err(bad(e)),
    }
}

/// Compiles a rules text.
#[pyfunction]
#[pyo3(signature = (rules_text, max_plies = None, steps = false))]
fn loads(rules_text: &str, max_plies: Option<u32>, steps: bool) -> PyResult<GameRules> {
    let game = registry::compile(rules_text).map_err(|d| {
        let report = ludus::diagnostics::render("<rules>", rules_text, &d);
        RulesError::new_err(LoadError::Rules(report.trim_end().to_string()).to_string())
    })?;
    let source = Source {
        name: "rules.toml".into(),
        text: rules_text.into(),
        origin: Origin::default(),
    };
    game_of(game, source.name.clone(), source.digest(), max_plies, steps)
}

/// `ludus analyze`: `games` games (whole matches) between two players, as the JSON report.
#[pyfunction]
#[pyo3(signature = (rules, players = ("random".to_string(), "random".to_string()), games = 100, seed = 1))]
fn analyze(
    py: Python<'_>,
    rules: &str,
    players: (String, String),
    games: u64,
    seed: u64,
) -> PyResult<PyObject> {
    let game = load(rules, None, false)?;
    let specs = [spec(&players.0)?, spec(&players.1)?];
    let setup = Setup {
        players: specs,
        games,
        seed,
        shard: Shard::WHOLE,
    };
    // As the command line checks it: no games is no analysis.
    setup
        .check(&ludus::limits::LIMITS)
        .map_err(|(setting, why)| bad(format!("`{setting}` {why}")))?;
    let started = Instant::now();
    let g = &game.rules.game;
    let tally = py.allow_threads(|| {
        guarded(|| Ok(ludus::with_game!(g, g => analysis::run(g, &setup, |_| ()))))
    })?;
    let report = Report {
        rules: g.name().to_string(),
        players: specs.map(|s| s.to_string()),
        seed,
        tally,
        seconds: started.elapsed().as_secs_f64(),
    };
    to_python(py, &report.to_json())
}

fn spec(text: &str) -> PyResult<Spec> {
    text.parse().map_err(bad)
}

#[pymethods]
impl GameRules {
    /// The rules' short name.
    #[getter]
    fn name(&self) -> String {
        self.rules.game.name().to_string()
    }
    /// `sowing` or `tables`.
    #[getter]
    fn family(&self) -> &'static str {
        self.rules.game.family()
    }
    /// The players' names, player 0 first (South/North, White/Black).
    #[getter]
    fn player_names(&self) -> (String, String) {
        let [a, b] = self.rules.game.player_names();
        (a.to_string(), b.to_string())
    }
    fn num_players(&self) -> usize {
        2
    }
    /// Size of the fixed action space (see the README's "Ludus from Python").
    fn num_distinct_actions(&self) -> u64 {
        self.rules.space.size()
    }
    /// Distinct rolls of the dice (0 for a game without dice).
    fn max_chance_outcomes(&self) -> usize {
        self.rules.rolls.len()
    }
    /// The ply guard or limit: a game ends by then (a tables ply is a turn: a roll and a move).
    fn max_game_length(&self) -> u32 {
        self.rules.game.guards().plies
    }
    /// The most decisions one ply takes: 1, or in a tables game loaded with `steps` the most
    /// steps of a turn.
    fn max_turn_decisions(&self) -> usize {
        match &self.rules.game {
            AnyGame::Tables(g) => g.max_turn_decisions(),
            AnyGame::Sowing(_) => 1,
        }
    }
    /// Whether every turn is played a step at a time (`load(..., steps=True)`).
    #[getter]
    fn steps(&self) -> bool {
        matches!(&self.rules.game, AnyGame::Tables(g) if g.by_steps())
    }
    /// The length of `State.observation_tensor()`.
    fn observation_tensor_size(&self) -> usize {
        let state = self.rules.game.new_game(0);
        observe::observation(&self.rules.game, &state).len()
    }
    /// The rules in plain words (`ludus show`).
    fn describe(&self) -> String {
        self.rules.game.describe()
    }

    /// A new game (match) with `first` to move; without it, drawn from `seed`, as the starting
    /// ritual would. `seed` also drives the state's computer players.
    #[pyo3(signature = (first = None, seed = None))]
    fn new_initial_state(&self, first: Option<usize>, seed: Option<u64>) -> PyResult<State> {
        let mut rng = match seed {
            Some(s) => ChaCha8Rng::seed_from_u64(s),
            None => ChaCha8Rng::from_entropy(),
        };
        let first = match first {
            Some(p @ (0 | 1)) => p,
            Some(p) => return Err(bad(format!("`first` must be 0 or 1, not {p}"))),
            None => rng.gen_range(0..2),
        };
        let mut state = guarded(|| Ok(self.rules.game.new_game(first)))?;
        self.rules.game.scatter(&mut state, &mut rng);
        Ok(State {
            rules: self.rules.clone(),
            state,
            rng,
        })
    }

    /// A position from the protocol's STATE form (JSON text).
    fn state_from_json(&self, text: &str) -> PyResult<State> {
        let value = ludus::game::parse_json(text).map_err(bad)?;
        let state = guarded(|| self.rules.game.state_from_json(&value).map_err(bad))?;
        Ok(State {
            rules: self.rules.clone(),
            state,
            rng: ChaCha8Rng::from_entropy(),
        })
    }

    /// Plays `n` uniformly random games in Rust (game i started by player i % 2; matches are not
    /// continued) and counts them: `games`, `wins` (per player), `draws`, `plies`, `seconds`.
    #[pyo3(signature = (n, seed = 0))]
    fn play_random_games(&self, py: Python<'_>, n: u64, seed: u64) -> PyResult<PyObject> {
        let started = Instant::now();
        let g = &self.rules.game;
        let counts = py.allow_threads(|| {
            guarded(|| ludus::with_game!(g, g => random_games(g, n, seed)).map_err(bad))
        })?;
        let seconds = started.elapsed().as_secs_f64();
        let report = serde_json::json!({
            "games": n,
            "wins": counts.wins,
            "draws": counts.draws,
            "plies": counts.plies,
            "seconds": seconds,
        });
        to_python(py, &report)
    }

    fn __repr__(&self) -> String {
        format!("<ludus.Game {} ({})>", self.name(), self.family())
    }
}

#[derive(Default)]
struct Counts {
    wins: [u64; 2],
    draws: u64,
    plies: u64,
}

/// Random games as `ludus bench` plays them (wyrand, multiply-shift choice), counted.
fn random_games<G: Game>(game: &G, n: u64, seed: u64) -> Result<Counts, String> {
    let mut rng = WyRand::new(seed);
    let mut moves = Vec::new();
    let mut counts = Counts::default();
    let max_steps = 2 * u64::from(game.guards().plies) + 2;
    for i in 0..n {
        let mut state = game.new_game((i % 2) as usize);
        game.scatter(&mut state, &mut rng);
        let mut steps = 0;
        while let Some(p) = game.phase(&state).to_move() {
            steps += 1;
            if steps > max_steps {
                return Err(format!("{}: a game went past its ply guard", game.name()));
            }
            if let (Phase::Roll(_), Some(dice)) = (game.phase(&state), game.dice()) {
                game.roll(&mut state, &dice.sample(&mut rng))
                    .map_err(|e| e.to_string())?;
                continue;
            }
            game.legal_moves(&state, &mut moves);
            if moves.is_empty() {
                return Err(format!("{}: player {p} has no legal move", game.name()));
            }
            game.play(&mut state, &moves[rng.below(moves.len() as u32) as usize]);
            counts.plies += 1;
        }
        match game.outcome(&state).and_then(|o| o.winner) {
            Some(w) => counts.wins[w] += 1,
            None => counts.draws += 1,
        }
    }
    Ok(counts)
}

/// A position of a game, with the random generator its chance draws and computer players use.
#[pyclass(module = "ludus")]
struct State {
    rules: Arc<Rules>,
    state: AnyState,
    rng: ChaCha8Rng,
}

impl State {
    fn game(&self) -> &AnyGame {
        &self.rules.game
    }
    fn phase(&self) -> Phase {
        self.game().phase(&self.state)
    }
    fn moves(&self) -> Vec<AnyMove> {
        let mut moves = Vec::new();
        self.game().legal_moves(&self.state, &mut moves);
        moves
    }
    /// Plays `mv` (a legal move) on a copy, kept only when the engine did not fail.
    fn play(&mut self, mv: &AnyMove) -> PyResult<()> {
        let mut next = self.state.clone();
        guarded(|| {
            self.rules.game.play(&mut next, mv);
            Ok(())
        })?;
        self.state = next;
        Ok(())
    }
    fn roll(&mut self, roll: &Roll) -> PyResult<()> {
        let mut next = self.state.clone();
        guarded(|| self.rules.game.roll(&mut next, roll).map_err(bad))?;
        self.state = next;
        Ok(())
    }
    fn outcome(&self) -> Option<Outcome> {
        self.game().outcome(&self.state)
    }
    fn clone_state(&self) -> State {
        State {
            rules: self.rules.clone(),
            state: self.state.clone(),
            rng: self.rng.clone(),
        }
    }
}

#[pymethods]
impl State {
    /// The player to move; -1 at a chance node (dice awaited), -4 once the game is over.
    fn current_player(&self) -> i64 {
        match self.phase() {
            Phase::Move(p) => p as i64,
            Phase::Roll(_) => CHANCE,
            Phase::Over => TERMINAL,
        }
    }
    fn is_chance_node(&self) -> bool {
        matches!(self.phase(), Phase::Roll(_))
    }
    fn is_terminal(&self) -> bool {
        self.phase() == Phase::Over
    }
    /// At a chance node, each roll as (action, probability), in `Dice.outcomes()` order.
    fn chance_outcomes(&self) -> Vec<(usize, f64)> {
        if !self.is_chance_node() {
            return Vec::new();
        }
        self.rules.rolls.iter().map(|r| r.1).enumerate().collect()
    }
    /// The legal moves as actions of the fixed space, ascending (the rolls at a chance node).
    fn legal_actions(&self) -> PyResult<Vec<u64>> {
        if self.is_chance_node() {
            return Ok((0..self.rules.rolls.len() as u64).collect());
        }
        let moves = guarded(|| Ok(self.moves()))?;
        let mut actions: Vec<u64> = moves.iter().map(|m| self.rules.space.action(m)).collect();
        actions.sort_unstable();
        Ok(actions)
    }
    /// The legal moves in the engine's order, each a dict: `action`, `text` (the notation),
    /// `json` (the protocol's MOVE form): from the `start`-th, at most `count` of them (by
    /// default the `listed_moves` limit: a tables turn may have hundreds of thousands).
    #[pyo3(signature = (start = 0, count = ludus::limits::LIMITS.listed_moves))]
    fn legal_moves(&self, py: Python<'_>, start: usize, count: usize) -> PyResult<Vec<PyObject>> {
        let moves = guarded(|| Ok(self.moves()))?;
        let moves = moves.get(start..).unwrap_or_default();
        let moves = &moves[..count.min(moves.len())];
        let game = self.game();
        let each = |m: &AnyMove| {
            serde_json::json!({
                "action": self.rules.space.action(m),
                "text": game.move_text(&self.state, m),
                "json": game.move_json(&self.state, m),
            })
        };
        moves.iter().map(|m| to_python(py, &each(m))).collect()
    }
    /// How many legal moves there are.
    fn legal_count(&self) -> PyResult<usize> {
        Ok(guarded(|| Ok(self.moves()))?.len())
    }
    /// Plays an action: a roll's index at a chance node, else a legal move's action.
    fn apply_action(&mut self, action: i64) -> PyResult<()> {
        match self.phase() {
            Phase::Roll(_) => {
                let roll = usize::try_from(action)
                    .ok()
                    .and_then(|i| self.rules.rolls.get(i))
                    .map(|r| r.0)
                    .ok_or_else(|| {
                        bad(format!(
                            "chance action {action}: the rolls are 0 to {}",
                            self.rules.rolls.len() - 1
                        ))
                    })?;
                self.roll(&roll)
            }
            Phase::Move(_) => {
                let moves = guarded(|| Ok(self.moves()))?;
                let space = self.rules.space;
                let found = moves.iter().find(|m| space.action(m) as i64 == action);
                let mv = found.ok_or_else(|| bad(format!("action {action} is not legal here")))?;
                self.play(mv)
            }
            Phase::Over => Err(bad("no move now: the game is over")),
        }
    }
    /// Plays a move written in the game's notation (`3`, `24/18 13/11`, `take`).
    fn apply_move(&mut self, text: &str) -> PyResult<()> {
        let mv = guarded(|| self.game().parse_move(&self.state, text).map_err(bad))?;
        self.play(&mv)
    }
    /// Plays a roll of the dice (`[6, 1]`) at a chance node.
    fn apply_roll(&mut self, values: Vec<u8>) -> PyResult<()> {
        let roll = Roll::new(&values).map_err(bad)?;
        self.roll(&roll)
    }
    /// An action as text: the roll (`6-1`) at a chance node, else the legal move's notation.
    fn action_to_string(&self, action: i64) -> PyResult<String> {
        let not_legal = || bad(format!("action {action} is not legal here"));
        if self.is_chance_node() {
            let roll = usize::try_from(action)
                .ok()
                .and_then(|i| self.rules.rolls.get(i));
            return roll.map(|r| r.0.to_string()).ok_or_else(not_legal);
        }
        let moves = guarded(|| Ok(self.moves()))?;
        let space = self.rules.space;
        let found = moves.iter().find(|m| space.action(m) as i64 == action);
        found
            .map(|m| self.game().move_text(&self.state, m))
            .ok_or_else(not_legal)
    }
    /// Draws a roll at a chance node (the state's generator) and plays it; returns its text.
    fn roll_dice(&mut self) -> PyResult<String> {
        let dice = self.game().dice().filter(|_| self.is_chance_node());
        let dice = dice.ok_or_else(|| bad("no dice are awaited now"))?;
        let roll = dice.sample(&mut self.rng);
        self.roll(&roll)?;
        Ok(roll.to_string())
    }

    /// +1 for the winner and -1 for the loser once the game is over; 0 each for a draw or
    /// before the end.
    fn returns(&self) -> Vec<f64> {
        match self.outcome().and_then(|o| o.winner) {
            Some(w) => (0..2).map(|p| if p == w { 1.0 } else { -1.0 }).collect(),
            None => vec![0.0, 0.0],
        }
    }
    /// Once over: `winner` (None for a draw), `scores`, `reason`.
    fn outcome_dict(&self, py: Python<'_>) -> PyResult<Option<PyObject>> {
        let Some(o) = self.outcome() else {
            return Ok(None);
        };
        let value = serde_json::json!({"winner": o.winner, "scores": o.scores, "reason": o.reason});
        to_python(py, &value).map(Some)
    }
    /// Plies played in this game.
    fn plies(&self) -> u32 {
        self.game().plies(&self.state)
    }
    /// The match so far (`game`, `points`, `over`, `winner`), where the rules define one.
    fn match_standing(&self, py: Python<'_>) -> PyResult<Option<PyObject>> {
        let Some(m) = self.game().match_standing(&self.state) else {
            return Ok(None);
        };
        let value = serde_json::json!({"game": m.game, "points": m.points, "over": m.over,
            "winner": m.winner});
        to_python(py, &value).map(Some)
    }
    /// The next game of a match once this one is over, started as the rules say (or by a draw
    /// where a ritual decides); None when there is none.
    fn next_game(&mut self) -> PyResult<Option<State>> {
        let rules = self.rules.clone();
        let game = &rules.game;
        let first = match game.next_starter(&self.state) {
            Some(p) => p,
            None => self.rng.gen_range(0..2),
        };
        let next = guarded(|| Ok(game.next_game(&self.state, first)))?;
        Ok(next.map(|mut state| {
            game.scatter(&mut state, &mut self.rng);
            State {
                rules: rules.clone(),
                state,
                rng: self.rng.clone(),
            }
        }))
    }

    /// The position in the protocol's STATE form (JSON text).
    fn to_json(&self) -> String {
        self.game().state_json(&self.state).to_string()
    }
    /// The position as numbers (numpy float32; layout in the README's "Ludus from Python").
    fn observation_tensor<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let values = observe::observation(self.game(), &self.state);
        let numpy = py.import("numpy")?;
        numpy.call_method1("array", (values, numpy.getattr("float32")?))
    }
    /// The board as `ludus show` draws it, from `viewer`'s side.
    #[pyo3(signature = (viewer = 0))]
    fn render(&self, viewer: usize) -> PyResult<String> {
        if viewer > 1 {
            return Err(bad(format!("`viewer` must be 0 or 1, not {viewer}")));
        }
        guarded(|| Ok(self.game().render(&self.state, viewer)))
    }
    /// The board as an SVG picture, from `viewer`'s side.
    #[pyo3(signature = (viewer = 0))]
    fn svg(&self, viewer: usize) -> PyResult<String> {
        if viewer > 1 {
            return Err(bad(format!("`viewer` must be 0 or 1, not {viewer}")));
        }
        guarded(|| Ok(self.game().svg(&self.state, viewer)))
    }

    /// The move a computer player (`random`, `greedy`, `mcts:100ms`, `alphabeta:d4`) chooses
    /// here, in the game's notation.
    fn best_move(&mut self, py: Python<'_>, player: &str) -> PyResult<String> {
        let spec = spec(player)?;
        if spec == Spec::Human {
            return Err(bad("`human` is not a computer player"));
        }
        if !matches!(self.phase(), Phase::Move(_)) {
            let what = if self.is_terminal() {
                "the game is over"
            } else {
                "dice first"
            };
            return Err(bad(format!("no move now: {what}")));
        }
        let (game, state, rng) = (&self.rules.game, &self.state, &mut self.rng);
        py.allow_threads(|| {
            guarded(|| {
                let mut moves = Vec::new();
                game.legal_moves(state, &mut moves);
                let i = players::choose(game, state, &moves, spec, rng);
                Ok(game.move_text(state, &moves[i]))
            })
        })
    }

    fn clone(&self) -> State {
        self.clone_state()
    }
    fn __copy__(&self) -> State {
        self.clone_state()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        self.clone_state()
    }
    fn __eq__(&self, other: &State) -> bool {
        Arc::ptr_eq(&self.rules, &other.rules) && self.state == other.state
    }
    fn __str__(&self) -> PyResult<String> {
        self.render(0)
    }
}

/// A game played at a table, as `ludus play` and the page play it: the seats (`human` or a
/// computer player), the dice drawn from `seed`, undo, agreed endings, the next game of a match
/// and the record, which `ludus replay` reads.
#[pyclass(module = "ludus")]
struct Table {
    rules: Arc<Rules>,
    table: table::Table,
}

fn refused(r: Refusal) -> PyErr {
    bad(r.message())
}

#[pymethods]
impl Table {
    /// A table for `game`: `players` seats player 0 and player 1; `first` starts (else the
    /// starting ritual draws it); `seed` draws the dice and the ritual.
    #[new]
    #[pyo3(signature = (game, players = ("human".to_string(), "human".to_string()), first = None, seed = None))]
    fn new(
        game: &GameRules,
        players: (String, String),
        first: Option<usize>,
        seed: Option<u64>,
    ) -> PyResult<Table> {
        if first.is_some_and(|p| p > 1) {
            return Err(bad("`first` must be 0 or 1"));
        }
        let rules = Arc::clone(&game.rules);
        let seats = [spec(&players.0)?, spec(&players.1)?];
        let header = Header {
            record: record::FORMAT.into(),
            rules: rules.name.clone(),
            digest: rules.digest.clone(),
            seed: None,
            players: Default::default(),
        };
        let mut table = table::Table::new(rules.game.clone(), header, seats, seed);
        guarded(|| {
            table.start(first);
            Ok(())
        })?;
        Ok(Table { rules, table })
    }

    /// The current position (a copy).
    fn state(&self) -> PyResult<State> {
        Ok(State {
            rules: Arc::clone(&self.rules),
            state: self.table.state().map_err(refused)?.clone(),
            rng: ChaCha8Rng::from_entropy(),
        })
    }

    /// Rolls the awaited dice: drawn, or `dice` (real dice). The roll as text.
    #[pyo3(signature = (dice = None))]
    fn roll(&mut self, dice: Option<Vec<u8>>) -> PyResult<String> {
        let table = &mut self.table;
        guarded(|| {
            let roll = table.roll(dice.as_deref()).map_err(refused)?;
            Ok(roll.to_string())
        })
    }

    /// Plays `move` (the game's notation) for the person to move.
    fn play(&mut self, r#move: &str) -> PyResult<()> {
        let table = &mut self.table;
        guarded(|| table.play(r#move).map_err(refused))
    }

    /// The computer player seated to move chooses and plays; its move, in the notation.
    fn computer(&mut self, py: Python<'_>) -> PyResult<String> {
        let thinking = self.table.thinking(None).map_err(refused)?;
        let index = py.allow_threads(|| guarded(|| Ok(thinking.decide(false).0)))?;
        let (game, state) = (&thinking.game, &thinking.state);
        let mut moves = Vec::new();
        game.legal_moves(state, &mut moves);
        let text = moves
            .get(index)
            .map(|m| game.move_text(state, m))
            .unwrap_or_default();
        let table = &mut self.table;
        guarded(|| table.play_thought(&thinking, index).map_err(refused))?;
        Ok(text)
    }

    /// Takes back the last move of a person and what came after it.
    fn undo(&mut self) -> PyResult<()> {
        self.table.undo().map_err(refused)
    }

    /// The person to move offers to end the game (where the rules allow it); a person opponent
    /// answers with `accepted`. Whether the game ended.
    #[pyo3(signature = (accepted = None))]
    fn offer_end(&mut self, accepted: Option<bool>) -> PyResult<bool> {
        let table = &mut self.table;
        guarded(|| table.offer_end(accepted).map_err(refused))
    }

    /// Starts the next game of a match: `first`, else as the rules or the ritual decide.
    #[pyo3(signature = (first = None))]
    fn next_game(&mut self, first: Option<usize>) -> PyResult<()> {
        if first.is_some_and(|p| p > 1) {
            return Err(bad("`first` must be 0 or 1"));
        }
        let table = &mut self.table;
        guarded(|| table.next_game(first).map(|_| ()).map_err(refused))
    }

    /// What is awaited: `"roll"`, `"move"`, `"next game"` or `"nothing"`.
    fn awaiting(&self) -> PyResult<&'static str> {
        let state = self.table.state().map_err(refused)?;
        Ok(match self.rules.game.phase(state) {
            Phase::Roll(_) => "roll",
            Phase::Move(_) => "move",
            Phase::Over if self.table.next_game_awaited() => "next game",
            Phase::Over => "nothing",
        })
    }

    /// The record so far, one JSON object a line (what `ludus play --record` writes).
    fn record(&self) -> PyResult<String> {
        self.table.record().map_err(refused)
    }
}

#[pymodule]
fn _ludus(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("RulesError", m.py().get_type::<RulesError>())?;
    m.add("EngineError", m.py().get_type::<EngineError>())?;
    m.add_class::<GameRules>()?;
    m.add_class::<State>()?;
    m.add_class::<Table>()?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(loads, m)?)?;
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    Ok(())
}
