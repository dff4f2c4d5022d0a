//! Ludus from Python: games loaded from rules files, their positions, moves as integers of a
//! fixed action space (OpenSpiel's shape), the computer players and analyses, all run by the
//! Rust interpreter. Every call that runs the engine is fallible: bad input raises a Python
//! exception with the message the command line would print, a failed move leaves the position
//! as it was, and a panic inside the engine becomes `ludus.EngineError`.

mod actions;
mod history;
mod observe;

use actions::Space;
use history::{Began, GameForm, StateForm, Step};
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
    /// The rules' text, the name a record gives them and how they were loaded.
    form: GameForm,
    /// The text's digest.
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
    source: &Source,
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
            form: GameForm {
                rules: source.text.clone(),
                name: source.name.clone(),
                folder: match &source.origin {
                    Origin::Bundled => None,
                    Origin::Folder(folder) => Some(folder.clone()),
                },
                max_plies,
                steps,
            },
            digest: source.digest(),
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
        Ok((source, game)) => {
            let source = Source {
                name: name_or_path.into(),
                ..source
            };
            game_of(game, &source, max_plies, steps)
        }
        Err(e @ LoadError::Rules(_)) => Err(RulesError::new_err(e.to_string())),
        Err(e) => Err(bad(e)),
    }
}

/// Compiles a rules text.
#[pyfunction]
#[pyo3(signature = (rules_text, max_plies = None, steps = false))]
fn loads(rules_text: &str, max_plies: Option<u32>, steps: bool) -> PyResult<GameRules> {
    let source = Source {
        name: "rules.toml".into(),
        text: rules_text.into(),
        origin: Origin::default(),
    };
    compiled(&source, max_plies, steps)
}

/// Compiles a rules text.
fn compiled(source: &Source, max_plies: Option<u32>, steps: bool) -> PyResult<GameRules> {
    let game = registry::compile_source(source).map_err(|d| {
        let report = ludus::diagnostics::render("<rules>", &source.text, &d);
        RulesError::new_err(LoadError::Rules(report.trim_end().to_string()).to_string())
    })?;
    game_of(game, source, max_plies, steps)
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

/// A position from its serialized form (`State.serialize()`, what pickle keeps): the rules are
/// compiled and every step replayed, so a form that does not replay is refused.
#[pyfunction]
fn deserialize_state(form: &str) -> PyResult<State> {
    State::restored(form)
}

/// A game from its serialized form (what pickle keeps of a `Game`).
#[pyfunction]
fn deserialize_game(form: &str) -> PyResult<GameRules> {
    let form: GameForm =
        serde_json::from_str(form).map_err(|e| bad(format!("not a serialized Ludus game: {e}")))?;
    GameRules::restored(form)
}

/// Whether returns are by points (`"points"`) rather than by the result (`"win"`).
fn returned_by(by: &str) -> PyResult<bool> {
    match by {
        "win" => Ok(false),
        "points" => Ok(true),
        _ => Err(bad(format!(
            "returns are by \"win\" or \"points\", not {by:?}"
        ))),
    }
}

/// Each player's score less the opponent's.
fn margins(scores: [i32; 2]) -> Vec<f64> {
    let margin = f64::from(scores[0]) - f64::from(scores[1]);
    vec![margin, -margin]
}

/// The position at the end of a table's record.
fn recorded(rules: &Rules, text: &str) -> PyResult<AnyState> {
    let input = &mut text.as_bytes();
    let header = record::read_header(input).map_err(bad)?;
    let seats = [Spec::Human, Spec::Human];
    let max_steps = ludus::limits::LIMITS.record_events;
    let table =
        table::replay(rules.game.clone(), header, seats, input, max_steps, |_| ()).map_err(bad)?;
    Ok(table.state().map_err(refused)?.clone())
}

fn spec(text: &str) -> PyResult<Spec> {
    text.parse().map_err(bad)
}

impl GameRules {
    fn restored(form: GameForm) -> PyResult<GameRules> {
        let source = Source {
            name: form.name,
            text: form.rules,
            origin: form.folder.map_or(Origin::Bundled, Origin::Folder),
        };
        compiled(&source, form.max_plies, form.steps)
    }
}

#[pymethods]
impl GameRules {
    /// The serialized form (JSON text): the rules' text and how they were loaded.
    fn serialize(&self) -> String {
        serde_json::to_string(&self.rules.form).expect("a game's form is JSON")
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let restore = py.import("ludus._ludus")?.getattr("deserialize_game")?;
        Ok((restore, (self.serialize(),)))
    }
    fn __eq__(&self, other: &GameRules) -> bool {
        self.rules.form == other.rules.form
    }
    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.rules.digest.hash(&mut h);
        h.finish()
    }
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
    /// The rules' text (a bundled game's file: a start for a variant).
    #[getter]
    fn rules_text(&self) -> String {
        self.rules.form.rules.clone()
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
    /// The most games a match has (1 where the rules play single games).
    fn max_games(&self) -> u32 {
        self.rules.game.guards().games.unwrap_or(1)
    }
    /// What bounds `State.returns("points")`: a sowing game's stones; the most a tables game
    /// scores, the cube at its highest (each scoring expression valued with the loser's checkers
    /// all in one place, where any expression that grows with their counts is largest). With
    /// `match_`, what bounds `State.match_returns("points")`.
    #[pyo3(signature = (match_ = false))]
    fn max_score(&self, match_: bool) -> f64 {
        let game = &self.rules.game;
        let score = match game {
            AnyGame::Sowing(g) => g.pieces(&g.new_game(0)) as i32,
            AnyGame::Tables(g) => g.max_score(),
        };
        let standing = game.match_standing(&game.new_game(0));
        let most = match standing {
            // The loser stops short of the target; the winner's last game may pass it.
            Some(m) if match_ => match m.target {
                Some(target) => (target - 1).saturating_add(score),
                None => score.saturating_mul(self.max_games() as i32),
            },
            _ => score,
        };
        f64::from(most)
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
        if let Some(p @ 2..) = first {
            return Err(bad(format!("`first` must be 0 or 1, not {p}")));
        }
        let rng = match seed {
            Some(s) => ChaCha8Rng::seed_from_u64(s),
            None => ChaCha8Rng::from_entropy(),
        };
        State::begin(
            &self.rules,
            Began::New {
                first,
                rng: Box::new(rng),
            },
        )
    }

    /// A position from the protocol's STATE form (JSON text).
    fn state_from_json(&self, text: &str) -> PyResult<State> {
        State::begin(&self.rules, Began::Json(text.into()))
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

/// A position of a game, with the random generator its chance draws and computer players use,
/// and how it came about (what its serialized form replays).
#[pyclass(module = "ludus")]
struct State {
    rules: Arc<Rules>,
    state: AnyState,
    rng: ChaCha8Rng,
    began: Arc<Began>,
    history: Vec<Step>,
}

impl State {
    /// The position `began` makes.
    fn begin(rules: &Arc<Rules>, began: Began) -> PyResult<State> {
        let game = &rules.game;
        let (state, rng) = match &began {
            Began::New { first, rng } => {
                let mut rng = (**rng).clone();
                let first = first.unwrap_or_else(|| rng.gen_range(0..2));
                let mut state = guarded(|| Ok(game.new_game(first)))?;
                game.scatter(&mut state, &mut rng);
                (state, rng)
            }
            Began::Json(text) => {
                let value = ludus::game::parse_json(text).map_err(bad)?;
                let state = guarded(|| game.state_from_json(&value).map_err(bad))?;
                (state, ChaCha8Rng::from_entropy())
            }
            Began::Record(text) => (recorded(rules, text)?, ChaCha8Rng::from_entropy()),
        };
        Ok(State {
            rules: rules.clone(),
            state,
            rng,
            began: Arc::new(began),
            history: Vec::new(),
        })
    }
    /// Takes `step` from here (as it was taken when recorded); an illegal one changes nothing.
    fn take(&mut self, step: &Step) -> PyResult<()> {
        match step {
            Step::Move(action) => self.apply_action(*action as i64),
            Step::Roll(values) => self.apply_roll(values.clone()),
            Step::NextGame { first, rng } => {
                if !self.is_terminal() {
                    return Err(bad("the next game, but this one is not over"));
                }
                let next = self.started_next(*first, (**rng).clone())?;
                *self = next.ok_or_else(|| bad("the next game, but the match is over"))?;
                Ok(())
            }
        }
    }
    /// The next game of the match, `rng` drawing who starts (where the rules do not say) and
    /// any random setup; None once the match is over.
    fn started_next(&self, first: Option<usize>, mut rng: ChaCha8Rng) -> PyResult<Option<State>> {
        let game = &self.rules.game;
        let drawn = rng.clone();
        let given = first;
        let first = match first.or_else(|| game.next_starter(&self.state)) {
            Some(p) => p,
            None => rng.gen_range(0..2),
        };
        let next = guarded(|| Ok(game.next_game(&self.state, first)))?;
        Ok(next.map(|mut state| {
            game.scatter(&mut state, &mut rng);
            let mut history = self.history.clone();
            history.push(Step::NextGame {
                first: given,
                rng: Box::new(drawn),
            });
            State {
                rules: self.rules.clone(),
                state,
                rng,
                began: self.began.clone(),
                history,
            }
        }))
    }
    /// The serialized form: the rules, the origin, every step since and the generator.
    fn form(&self) -> StateForm {
        StateForm {
            game: self.rules.form.clone(),
            began: (*self.began).clone(),
            history: self.history.clone(),
            rng: self.rng.clone(),
        }
    }
    /// The position a serialized form describes, every step replayed and checked.
    fn restored(text: &str) -> PyResult<State> {
        let form: StateForm = serde_json::from_str(text)
            .map_err(|e| bad(format!("not a serialized Ludus position: {e}")))?;
        let rules = GameRules::restored(form.game)?.rules;
        let mut state = State::begin(&rules, form.began)?;
        for (i, step) in form.history.iter().enumerate() {
            state.take(step).map_err(|e| {
                let why = Python::with_gil(|py| e.value(py).to_string());
                bad(format!("step {} of the serialized position: {why}", i + 1))
            })?;
        }
        state.rng = form.rng;
        Ok(state)
    }
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
        self.history.push(Step::Move(self.rules.space.action(mv)));
        Ok(())
    }
    fn roll(&mut self, roll: &Roll) -> PyResult<()> {
        let mut next = self.state.clone();
        guarded(|| self.rules.game.roll(&mut next, roll).map_err(bad))?;
        self.state = next;
        self.history.push(Step::Roll(roll.values().to_vec()));
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
            began: self.began.clone(),
            history: self.history.clone(),
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

    /// Once the game is over, by `"win"`: +1 for the winner and -1 for the loser, 0 each for
    /// a draw; by `"points"`: each player's score less the opponent's (a tables game's points,
    /// a gammon 2, times the cube; a sowing game's stones). 0 each before the end.
    #[pyo3(signature = (by = "win"))]
    fn returns(&self, by: &str) -> PyResult<Vec<f64>> {
        let by_points = returned_by(by)?;
        Ok(match self.outcome() {
            Some(o) if by_points => margins(o.scores),
            Some(Outcome {
                winner: Some(w), ..
            }) => margins([1, 0].map(|s| if w == 0 { s } else { 1 - s })),
            _ => vec![0.0, 0.0],
        })
    }
    /// The returns of the match so far, as `returns` gives them: by `"win"` ±1 once the match
    /// is won, by `"points"` each player's match points less the opponent's. A game not part of
    /// a match: that game's returns.
    #[pyo3(signature = (by = "win"))]
    fn match_returns(&self, by: &str) -> PyResult<Vec<f64>> {
        let by_points = returned_by(by)?;
        let Some(m) = self.game().match_standing(&self.state) else {
            return self.returns(by);
        };
        Ok(match m.winner {
            _ if by_points => margins(m.points),
            Some(w) if m.over => margins([1, 0].map(|s| if w == 0 { s } else { 1 - s })),
            _ => vec![0.0, 0.0],
        })
    }
    /// Who starts the next game of a match where the rules say (the loser, the winner, in
    /// turn); None where a draw decides or there is no next game.
    fn next_starter(&self) -> Option<usize> {
        self.game().next_starter(&self.state)
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
    /// The next game of a match once this one is over, started by `first`, else as the rules
    /// say (or by a draw where a ritual decides); None when there is none.
    #[pyo3(signature = (first = None))]
    fn next_game(&mut self, first: Option<usize>) -> PyResult<Option<State>> {
        if let Some(p @ 2..) = first {
            return Err(bad(format!("`first` must be 0 or 1, not {p}")));
        }
        if !self.is_terminal() {
            return Err(bad("this game is not over"));
        }
        let next = self.started_next(first, self.rng.clone())?;
        if let Some(next) = &next {
            self.rng = next.rng.clone();
        }
        Ok(next)
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
    /// Equal positions of the same rules (however often they were loaded).
    fn __eq__(&self, other: &State) -> bool {
        self.rules.form == other.rules.form && self.state == other.state
    }
    /// The serialized form (JSON text): the rules' text, how the position began and every step
    /// since, and the generator; `ludus.deserialize_state` replays it.
    fn serialize(&self) -> String {
        serde_json::to_string(&self.form()).expect("a position's form is JSON")
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let restore = py.import("ludus._ludus")?.getattr("deserialize_state")?;
        Ok((restore, (self.serialize(),)))
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
            rules: rules.form.name.clone(),
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
        let record = self.table.record().map_err(refused)?;
        State::begin(&self.rules, Began::Record(record))
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
    m.add_function(wrap_pyfunction!(deserialize_state, m)?)?;
    m.add_function(wrap_pyfunction!(deserialize_game, m)?)?;
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    Ok(())
}
