//! Computer players, written once for every game through the [`Game`] trait: `random`,
//! `greedy` (the move that gains most at once), `mcts` (UCT with chance nodes and random
//! playouts) and `alphabeta` (iterative-deepening negamax with a transposition table, expectimax
//! over the dice, Star2-pruned). A player is named by a [`Spec`] string such as `mcts:250ms`,
//! `mcts:20000`, `mcts:1s:t2` (two threads) or `alphabeta:d6`.
//!
//! Each player is one file implementing [`Computer`] and one line in `computers!`, from which
//! the spec type, its parsing and printing, the names offered for a misspelt one and the
//! dispatch are generated.

pub mod analysis;
pub mod cube;
pub mod eval;
mod met;
pub mod review;

pub use mcts::Memory;

use ludus_core::game::{Evaluator, Game, Phase, Player};
use rand::{Rng, RngCore};
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// How long a search runs: a time per move, a number of iterations (`mcts`) or a depth
/// (`alphabeta`). Only a time makes a seeded search depend on the machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    Time(Duration),
    Iterations(u64),
    Depth(u32),
}

/// Budget of a bare `mcts` or `alphabeta`.
pub const DEFAULT_TIME: Duration = Duration::from_secs(1);
/// Most iterations a budget may name.
pub const MAX_ITERATIONS: u64 = 100_000_000;
/// Deepest search a budget may name (and the deepest a timed search goes).
pub const MAX_DEPTH: u32 = 64;
/// Longest time a budget may name.
pub const MAX_TIME: Duration = Duration::from_secs(3600);
/// Most threads an mcts player may search in.
pub const MAX_THREADS: u32 = 64;

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Time(t) if t.subsec_millis() == 0 => write!(f, "{}s", t.as_secs()),
            Budget::Time(t) => write!(f, "{}ms", t.as_millis()),
            Budget::Iterations(n) => write!(f, "{n}"),
            Budget::Depth(d) => write!(f, "d{d}"),
        }
    }
}

/// A computer player, one file each: how a spec names it and how it plays. `computers!`
/// lists them.
pub trait Computer: Copy + Eq + fmt::Debug + fmt::Display {
    /// Its name, the start of its spec (`mcts`).
    const NAME: &'static str;
    /// Its spec as the help shows it (`mcts[:BUDGET][:tTHREADS]`).
    const USAGE: &'static str;
    /// Whether it searches in several threads (`mcts:1s:t2`).
    const THREADS: bool = false;
    /// Whether it decides on the doubling cube by [`cube::decide`] (all but `random`).
    const CUBE_BY_RULE: bool = true;

    /// The player from what its spec says after the name: `budget` (`1s`, `d8`; `None` when
    /// not given) and `threads` (1 unless the player takes [`Computer::THREADS`]).
    fn parse(budget: Option<&str>, threads: u32) -> Result<Self, String>;

    /// [`Computer::CUBE_BY_RULE`] of this player.
    fn cube_by_rule(&self) -> bool {
        Self::CUBE_BY_RULE
    }

    /// How long it searches; `None` when it does not search.
    fn budget(&self) -> Option<Budget> {
        None
    }

    /// The threads it searches in.
    fn threads(&self) -> u32 {
        1
    }

    /// What its analyses count and measure; `None` when it does not search.
    fn search(&self) -> Option<Search> {
        None
    }

    /// Its search of `state` (see [`analyse_with`]); `None` when it does not search.
    fn analyse<G: Evaluator, R: Rng>(
        &self,
        _game: &G,
        _state: &G::State,
        _moves: &[G::Move],
        _all: bool,
        _memory: &mut Memory<G>,
        _rng: &mut R,
    ) -> Option<Analysis> {
        None
    }

    /// Its choice among `moves` (more than one), as an index: by default the move its search
    /// finds best.
    fn choose<G: Evaluator, R: Rng>(
        &self,
        game: &G,
        state: &G::State,
        moves: &[G::Move],
        memory: &mut Memory<G>,
        rng: &mut R,
    ) -> usize {
        self.analyse(game, state, moves, false, memory, rng)
            .map_or(0, |a| a.best)
    }
}

/// How a searching player's [`Analysis`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Search {
    /// What its `nodes` and each move's `visits` count: `visits` (mcts) or `nodes` (alphabeta).
    pub counts: &'static str,
    /// What its values measure, as a hint says (`mean result, -1 to 1`).
    pub scale: &'static str,
}

/// Declares the computer players, one a line: the [`Spec`] variant, the player's file and type.
/// The modules, the spec type, the parsers by name and `on_computer!` (the dispatch, once a
/// decision, to the player's own type) are generated from this one list.
macro_rules! computers {
    ($($variant:ident => $module:ident::$player:ident),* $(,)?) => {
        $(pub mod $module;
        pub use $module::$player;)*

        /// Who plays a side: a person, or a computer player.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Spec {
            /// A person at the terminal (or at the page): a seat, not a computer player.
            Human,
            $($variant($player),)*
        }

        $(impl From<$player> for Spec {
            fn from(player: $player) -> Spec {
                Spec::$variant(player)
            }
        })*

        /// The computer players in the list's order.
        const COMPUTERS: &[Entry] = &[$(Entry {
            name: <$player>::NAME,
            usage: <$player>::USAGE,
            threads: <$player>::THREADS,
            parse: parse_as::<$player>,
        }),*];

        /// `$body` with `$p` the computer player `$spec` names, at its own type; `$human` for a
        /// person.
        macro_rules! on_computer {
            ($spec:expr, |$p:ident| $body:expr, human => $human:expr) => {
                match $spec {
                    Spec::Human => $human,
                    $(Spec::$variant($p) => $body,)*
                }
            };
        }
    };
}

computers! {
    Random => random::Random,
    Greedy => greedy::Greedy,
    Mcts => mcts::Mcts,
    AlphaBeta => alphabeta::AlphaBeta,
    Net => net::NetPlayer,
}

/// A computer player as parsing by name finds it.
struct Entry {
    name: &'static str,
    usage: &'static str,
    threads: bool,
    parse: fn(Option<&str>, u32) -> Result<Spec, String>,
}

/// A player's parser as one function type for every player, so that one table holds them.
fn parse_as<P: Computer>(budget: Option<&str>, threads: u32) -> Result<Spec, String>
where
    Spec: From<P>,
{
    P::parse(budget, threads).map(Spec::from)
}

/// The computer players as a spec names them: `random, greedy, …, alphabeta[:BUDGET]`.
pub fn usage() -> String {
    let usages: Vec<&str> = COMPUTERS.iter().map(|c| c.usage).collect();
    match usages.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

impl FromStr for Spec {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let shown = ludus_core::limits::excerpt(s);
        let (name, budget) = match s.split_once(':') {
            Some((name, budget)) => (name, Some(budget)),
            None => (s, None),
        };
        let computer = COMPUTERS.iter().find(|c| c.name == name);
        // `mcts:1s:t2`: the threads last, the budget before them optional (`mcts:t2`); `t`
        // and digits is a threads count to any player (`net:t.json` names a file).
        let threaded = computer.is_some_and(|c| c.threads);
        let counts = |t: &str| t.len() > 1 && t[1..].bytes().all(|b| b.is_ascii_digit());
        let (budget, threads) = match budget.map(|b| b.rsplit_once(':').unwrap_or(("", b))) {
            Some((rest, t)) if t.starts_with('t') && (threaded || counts(t)) => {
                if !threaded {
                    let threaded: Vec<&str> = COMPUTERS
                        .iter()
                        .filter(|c| c.threads)
                        .map(|c| c.name)
                        .collect();
                    return Err(format!(
                        "player `{shown}`: only {} searches in several threads",
                        threaded.join(" or ")
                    ));
                }
                let threads = parse_threads(t).map_err(|e| format!("player `{shown}`: {e}"))?;
                (Some(rest).filter(|r| !r.is_empty()), threads)
            }
            _ => (budget, 1),
        };
        let spec = match computer {
            Some(c) => (c.parse)(budget, threads),
            None if name == "human" => no_budget(name, budget).map(|()| Spec::Human),
            None => {
                let mut message = format!(
                    "unknown player `{shown}` (expected human, {}, with BUDGET a time (250ms, \
                     2s), an mcts iteration count (20000) or an alphabeta depth (d8), and \
                     THREADS the trees mcts grows at once (t2))",
                    usage()
                );
                let names = COMPUTERS.iter().map(|c| c.name);
                let names = std::iter::once("human").chain(names);
                if let Some(close) = ludus_core::diagnostics::did_you_mean(name, names) {
                    message.push_str(&format!("; did you mean `{close}`?"));
                }
                return Err(message);
            }
        };
        spec.map_err(|e| format!("player `{shown}`: {e}"))
    }
}

/// A player that takes no budget refuses one.
fn no_budget(name: &str, budget: Option<&str>) -> Result<(), String> {
    match budget {
        Some(_) => Err(format!("`{name}` takes no budget")),
        None => Ok(()),
    }
}

/// Threads: `t1` to `t64`.
fn parse_threads(text: &str) -> Result<u32, String> {
    match text[1..].parse() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) && !text[1..].starts_with('+') => Ok(n),
        _ => Err(format!(
            "bad threads `{}` (t1 to t{MAX_THREADS}, e.g. mcts:1s:t2)",
            ludus_core::limits::excerpt(text)
        )),
    }
}

/// A budget: `250ms`, `2s`, `1.5s`, `20000`, `d8`.
fn parse_budget(text: &str) -> Result<Budget, String> {
    let bad = || {
        format!(
            "bad budget `{}` (a time such as 250ms or 2s, a number of iterations such as 20000, \
             or a depth such as d8)",
            ludus_core::limits::excerpt(text)
        )
    };
    if let Some(depth) = text.strip_prefix('d') {
        let d: u32 = depth.parse().map_err(|_| bad())?;
        if !(1..=MAX_DEPTH).contains(&d) {
            return Err(format!("the depth must be 1 to {MAX_DEPTH}, not {d}"));
        }
        return Ok(Budget::Depth(d));
    }
    let time = |number: &str, unit: f64| -> Result<Budget, String> {
        let x: f64 = number.parse().map_err(|_| bad())?;
        if !x.is_finite() || number.starts_with(['+', '-']) {
            return Err(bad());
        }
        let seconds = x * unit;
        if !(0.001..=MAX_TIME.as_secs_f64()).contains(&seconds) {
            return Err(format!(
                "the time must be 1ms to {}s, not {}",
                MAX_TIME.as_secs(),
                ludus_core::limits::excerpt(text)
            ));
        }
        Ok(Budget::Time(Duration::from_secs_f64(seconds)))
    };
    if let Some(ms) = text.strip_suffix("ms") {
        return time(ms, 0.001);
    }
    if let Some(s) = text.strip_suffix('s') {
        return time(s, 1.0);
    }
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        let n: u64 = text.parse().unwrap_or(u64::MAX);
        if !(1..=MAX_ITERATIONS).contains(&n) {
            return Err(format!(
                "the iterations must be 1 to {MAX_ITERATIONS}, not {}",
                ludus_core::limits::excerpt(text)
            ));
        }
        return Ok(Budget::Iterations(n));
    }
    Err(bad())
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        on_computer!(self, |p| write!(f, "{p}"), human => f.write_str("human"))
    }
}

impl Spec {
    /// Whether this player searches (and so can analyse a position).
    pub fn searches(self) -> bool {
        self.search().is_some()
    }

    /// What this player's analyses count and measure; `None` when it does not search.
    pub fn search(self) -> Option<Search> {
        on_computer!(self, |p| p.search(), human => None)
    }

    /// How long this player searches; `None` when it does not search.
    pub fn budget(self) -> Option<Budget> {
        on_computer!(self, |p| p.budget(), human => None)
    }

    /// The threads this player searches in.
    pub fn threads(self) -> u32 {
        on_computer!(self, |p| p.threads(), human => 1)
    }
}

/// One legal move as a search saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveStat {
    /// Index in the legal moves.
    pub index: usize,
    /// Estimated value from the mover's view: mcts's mean result in -1..1; alphabeta's
    /// evaluation (material; a win is ±[`eval::WIN`] less the plies to it).
    pub value: f64,
    /// Visits (mcts) or nodes searched below the move (alphabeta).
    pub visits: u64,
    /// False when the value is only a bound (alphabeta's cut-off moves).
    pub exact: bool,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// Index of the chosen move in the legal moves.
    pub best: usize,
    /// The chosen move's value, from the mover's view.
    pub value: f64,
    /// Iterations (mcts) or nodes (alphabeta).
    pub nodes: u64,
    /// Deepest completed iteration (alphabeta) or deepest tree node (mcts), in plies.
    pub depth: u32,
    /// Every legal move, best first.
    pub moves: Vec<MoveStat>,
}

/// A search of `state` (a position awaiting a move of the non-empty `moves`, as `legal_moves`
/// lists them) by a searching spec; `all` asks alphabeta for exact values of every move (hints),
/// not only the best. `None` for players that do not search.
pub fn analyse<G: Evaluator, R: Rng>(
    game: &G,
    state: &G::State,
    moves: &[G::Move],
    spec: Spec,
    all: bool,
    rng: &mut R,
) -> Option<Analysis> {
    analyse_with(game, state, moves, spec, all, &mut Memory::default(), rng)
}

/// [`analyse`] by a player that keeps `memory` from one search to the next (mcts starts from
/// the subtree of `state` when its last search reached it).
pub fn analyse_with<G: Evaluator, R: Rng>(
    game: &G,
    state: &G::State,
    moves: &[G::Move],
    spec: Spec,
    all: bool,
    memory: &mut Memory<G>,
    rng: &mut R,
) -> Option<Analysis> {
    // The cube's decisions are no search's: every player but `random` weighs them by `cube`.
    if moves.first().is_some_and(|m| game.cube_action(m).is_some()) {
        let by_rule = on_computer!(spec, |p| p.cube_by_rule(), human => false);
        return by_rule.then(|| cube::analyse(game, state, moves)).flatten();
    }
    on_computer!(spec, |p| p.analyse(game, state, moves, all, memory, rng), human => None)
}

/// A computer player's choice among `moves` (non-empty), as an index.
pub fn choose<G: Evaluator, R: Rng>(
    game: &G,
    state: &G::State,
    moves: &[G::Move],
    spec: Spec,
    rng: &mut R,
) -> usize {
    choose_with(game, state, moves, spec, &mut Memory::default(), rng)
}

/// Who gives a person a hint: the opponent when it searches (it knows the game as well as
/// anyone at the table), else `net` where the rules name a network, else mcts for the default
/// time.
pub fn hint_player(opponent: Spec, networked: bool) -> Spec {
    if opponent.searches() {
        opponent
    } else if networked {
        NetPlayer::default().into()
    } else {
        Mcts::default().into()
    }
}

/// A computer player's choice among `moves` (non-empty): its index and, for a searching
/// player, what the search found (`all`: exact values of every move, as for hints).
pub fn decide<G: Evaluator, R: Rng>(
    game: &G,
    state: &G::State,
    moves: &[G::Move],
    spec: Spec,
    all: bool,
    rng: &mut R,
) -> (usize, Option<Analysis>) {
    match analyse(game, state, moves, spec, all, rng) {
        Some(a) => (a.best, Some(a)),
        None => (choose(game, state, moves, spec, rng), None),
    }
}

/// A search's value to three decimals, as reports show it (`+ 0.0` turns -0 into 0).
pub fn rounded(value: f64) -> f64 {
    (value * 1000.0).round() / 1000.0 + 0.0
}

/// Whether a computer player at `player`'s seat accepts the opponent's offer to end the game
/// here: when it is ahead or level.
pub fn accepts_end<G: Evaluator>(game: &G, state: &G::State, player: Player) -> bool {
    game.material(state, player) >= game.material(state, 1 - player)
}

/// [`choose`] by a player that keeps `memory` from one move to the next.
pub fn choose_with<G: Evaluator, R: Rng>(
    game: &G,
    state: &G::State,
    moves: &[G::Move],
    spec: Spec,
    memory: &mut Memory<G>,
    rng: &mut R,
) -> usize {
    if moves.len() == 1 {
        return 0;
    }
    // Nothing asks a person's seat for a computer's move; were it asked, a random one.
    on_computer!(spec, |p| {
        let by_rule = match p.cube_by_rule() {
            true => cube::decide(game, state, moves),
            false => None,
        };
        by_rule.unwrap_or_else(|| p.choose(game, state, moves, memory, rng))
    }, human => Random.choose(game, state, moves, memory, rng))
}

/// Plays one game from `state` to its end with uniformly random moves and dice; returns the
/// winner (`None` for a draw). A cap on plies keeps a rules file's endless game from hanging
/// the caller.
pub fn playout<G: Game, R: Rng>(
    game: &G,
    state: G::State,
    rng: &mut R,
    max_plies: u32,
) -> Option<usize> {
    let state = random_play(game, state, rng, max_plies, &mut Vec::new(), None);
    game.outcome(&state).and_then(|o| o.winner)
}

/// Plays uniformly random moves and dice from `state` for at most `max_plies` steps or to the
/// end; returns the position reached.
pub(crate) fn random_play<G: Game, R: Rng>(
    game: &G,
    mut state: G::State,
    rng: &mut R,
    max_plies: u32,
    moves: &mut Vec<G::Move>,
    deadline: Option<Instant>,
) -> G::State {
    for ply in 0..max_plies {
        // A search's deadline is looked at every few plies, so that a playout of slow plies
        // (a rules file's huge turns) ends in time; the position reached is valued as it is.
        if ply % DEADLINE_PLIES == 0 && deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        match game.phase(&state) {
            Phase::Over => break,
            Phase::Roll(_) => {
                let Some(dice) = game.dice() else { break };
                if game.roll(&mut state, &dice.sample(rng)).is_err() {
                    break;
                }
            }
            Phase::Move(_) => {
                game.legal_moves(&state, moves);
                if moves.is_empty() {
                    break;
                }
                // By multiply-shift rather than `gen_range`'s rejection, which divides each draw.
                let i = (u64::from(rng.next_u32()) * moves.len() as u64) >> 32;
                // A playout leaves the cube alone: it rolls, and takes (listed first).
                let i = match game.cube_action(&moves[0]) {
                    Some(_) => 0,
                    None => i,
                };
                game.play(&mut state, &moves[i as usize]);
            }
        }
    }
    state
}

/// Plies of a playout between two looks at the search's deadline: rare enough to cost nothing
/// beside a ply, often enough that slow plies overrun it by a few at most.
const DEADLINE_PLIES: u32 = 8;

/// The wyrand generator: one multiplication a number, so random play (mcts's playouts, the
/// benchmark's random player) costs next to nothing beside the game it plays.
#[derive(Clone, Debug)]
pub struct WyRand(u64);

impl WyRand {
    pub fn new(seed: u64) -> WyRand {
        WyRand(seed)
    }

    /// Uniform in `0..n` (`n` > 0), by multiply-shift (bias below 2^-26 for small `n`).
    pub fn below(&mut self, n: u32) -> u32 {
        ((self.next_u64() as u32 as u64 * n as u64) >> 32) as u32
    }
}

impl RngCore for WyRand {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0xA076_1D64_78BD_642F);
        let product = (self.0 as u128) * ((self.0 ^ 0xE703_7ED1_A0B4_28DB) as u128);
        (product >> 64) as u64 ^ product as u64
    }
    fn next_u32(&mut self) -> u32 {
        self.next_u64() as u32
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for chunk in dest.chunks_mut(8) {
            let bytes = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_print_back() {
        for (text, spec) in [
            ("human", Spec::Human),
            ("random", Spec::Random(Random)),
            ("greedy", Spec::Greedy(Greedy)),
            ("mcts", mcts(Budget::Time(DEFAULT_TIME), 1)),
            (
                "mcts:250ms",
                mcts(Budget::Time(Duration::from_millis(250)), 1),
            ),
            ("mcts:2s", mcts(Budget::Time(Duration::from_secs(2)), 1)),
            ("mcts:20000", mcts(Budget::Iterations(20000), 1)),
            ("mcts:20000:t2", mcts(Budget::Iterations(20000), 2)),
            ("mcts:t4", mcts(Budget::Time(DEFAULT_TIME), 4)),
            (
                "mcts:250ms:t64",
                mcts(Budget::Time(Duration::from_millis(250)), 64),
            ),
            ("alphabeta", alphabeta(Budget::Time(DEFAULT_TIME))),
            ("alphabeta:d8", alphabeta(Budget::Depth(8))),
            (
                "alphabeta:500ms",
                alphabeta(Budget::Time(Duration::from_millis(500))),
            ),
        ] {
            assert_eq!(text.parse::<Spec>(), Ok(spec), "{text}");
            let shown = spec.to_string();
            assert_eq!(shown.parse::<Spec>(), Ok(spec), "{shown}");
        }
        assert_eq!(
            "mcts:1.5s".parse::<Spec>(),
            Ok(mcts(Budget::Time(Duration::from_millis(1500)), 1))
        );
    }

    fn mcts(budget: Budget, threads: u32) -> Spec {
        Mcts { budget, threads }.into()
    }

    fn alphabeta(budget: Budget) -> Spec {
        AlphaBeta { budget }.into()
    }

    #[test]
    fn specs_say_how_they_search() {
        assert_eq!(
            usage(),
            "random, greedy, mcts[:BUDGET][:tTHREADS], alphabeta[:BUDGET] or net[:FILE][:dPLIES]"
        );
        let spec = |text: &str| text.parse::<Spec>().unwrap();
        assert_eq!(
            spec("mcts:20000:t2").budget(),
            Some(Budget::Iterations(20000))
        );
        assert_eq!(spec("mcts:20000:t2").threads(), 2);
        assert_eq!(spec("alphabeta:d8").budget(), Some(Budget::Depth(8)));
        assert_eq!(spec("alphabeta:d8").threads(), 1);
        assert_eq!(spec("mcts").search().map(|s| s.counts), Some("visits"));
        assert_eq!(spec("alphabeta").search().map(|s| s.counts), Some("nodes"));
        for text in ["human", "random", "greedy"] {
            assert_eq!((spec(text).budget(), spec(text).search()), (None, None));
        }
        assert_eq!(hint_player(spec("greedy"), false), spec("mcts:1s"));
        assert_eq!(hint_player(spec("human"), true), spec("net"));
        assert_eq!(
            hint_player(spec("alphabeta:d3"), true),
            spec("alphabeta:d3")
        );
    }

    #[test]
    fn bad_specs_say_why() {
        for (text, words) in [
            ("mcst", "did you mean `mcts`"),
            ("mcts:d4", "not a depth"),
            ("alphabeta:1000", "not a number of iterations"),
            ("alphabeta:d0", "depth must be 1 to 64"),
            ("alphabeta:d99", "depth must be 1 to 64"),
            ("mcts:0", "iterations must be 1"),
            ("mcts:0ms", "time must be 1ms"),
            ("mcts:-1s", "bad budget"),
            ("mcts:fast", "bad budget"),
            ("mcts:", "bad budget"),
            ("greedy:1s", "takes no budget"),
            ("mcts:99999999999999999999", "iterations must be"),
            ("mcts:1s:t0", "bad threads `t0` (t1 to t64"),
            ("mcts:1s:t65", "bad threads"),
            ("mcts:1s:tt", "bad threads"),
            ("mcts:1s:t+2", "bad threads"),
            ("mcts:t2:1s", "bad budget"),
            ("alphabeta:1s:t2", "only mcts searches in several threads"),
            ("greedy:t2", "only mcts"),
        ] {
            let e = text.parse::<Spec>().unwrap_err();
            assert!(e.contains(words), "{text}: {e}");
        }
    }
}
