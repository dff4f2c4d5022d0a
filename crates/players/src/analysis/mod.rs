//! Analysis: many games between two players, tallied so that an author sees whether a variant
//! works (who wins, how long games last, how they end, how many choices a player has).
//!
//! Game `i` of an analysis depends only on the seed, `i` and the players: its random numbers
//! come from stream `i` of the seeded generator, and player A sits at seat `i % 2`. A [`Tally`]
//! is a sum over games, so it is the same whatever the threads or shards that played them, and
//! the tallies of the shards of an analysis add up to the tally of the whole.

mod report;
mod stats;

pub use report::{Part, Report, PART_FORMAT};
pub use stats::wilson;

use crate::Spec;
use ludus_core::game::{Ending, Evaluator, Phase};
use ludus_core::limits::Limits;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;

/// What to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Players A and B.
    pub players: [Spec; 2],
    /// Games in the whole analysis (whole matches where the rules define matches).
    pub games: u64,
    pub seed: u64,
    /// The part of the games this run plays.
    pub shard: Shard,
}

impl Setup {
    /// Refuses what no analysis plays, whoever asks (the command line, Python): a person in
    /// a seat, no games, or more games than `limits` allow. The error names the setting
    /// (`games`, `players`) and what it must be (`must be 1 to ...`).
    pub fn check(&self, limits: &Limits) -> Result<(), (&'static str, String)> {
        if self.players.contains(&Spec::Human) {
            return Err((
                "players",
                "must be computer players: an analysis seats no `human`".into(),
            ));
        }
        let max = limits.analysis_games;
        if !(1..=max).contains(&self.games) {
            return Err(("games", format!("must be 1 to {max}, not {}", self.games)));
        }
        Ok(())
    }
}

/// One of `count` equal slices of an analysis's games (`index` from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// The whole analysis.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// `I/N`, with `I` from 0 to `N - 1`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || {
            format!(
                "bad shard `{}`: expected I/N, the I-th of N shards counted from 0 (0/4 to 3/4)",
                ludus_core::limits::excerpt(text)
            )
        };
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        Shard::new(index, count)
    }

    pub fn new(index: u64, count: u64) -> Result<Shard, String> {
        if count == 0 || index >= count {
            return Err(format!(
                "shard {index}/{count}: the index must be 0 to {} of {count} shards",
                count.saturating_sub(1)
            ));
        }
        Ok(Shard { index, count })
    }

    /// The games of this shard: contiguous, and the shards' ranges cover `0..games` once.
    pub fn games(self, games: u64) -> Range<u64> {
        let at = |k: u64| (u128::from(games) * u128::from(k) / u128::from(self.count)) as u64;
        at(self.index)..at(self.index + 1)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Sums over the games played. Adding tallies is the only way they combine.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Games (or matches) played.
    pub games: u64,
    /// Won by player A and by player B.
    pub wins: [u64; 2],
    pub draws: u64,
    /// Won by the player in the first seat (South, White) and in the second.
    pub seat_wins: [u64; 2],
    /// Won by the player who moved first (in a match, first in its first game).
    pub first_mover_wins: u64,
    /// Games by their length in plies (moves played, decisions included).
    pub plies: BTreeMap<u32, u64>,
    /// Games (each game of a match) by how they ended.
    pub ended_by: BTreeMap<String, u64>,
    /// Positions where a player chose, and the legal moves summed over them.
    pub decisions: u64,
    pub choices: u64,
    /// Single games played (more than `games` when the rules define matches).
    pub single_games: u64,
    /// Moves that gained material for their player (sowing: stones into a store).
    pub captures: u64,
    /// Moves that sent opposing checkers back (the opponent's pip count rose).
    pub hits: u64,
    /// Whether the game measures pips, so hits are counted rather than captures.
    pub counts_hits: bool,
    /// Moves in which each condition the rules set held (`capture.when`, `turn.again`, ...;
    /// see `Game::watched_conditions`), zero for those that never did.
    pub conditions_held: BTreeMap<String, u64>,
    /// Moves after which the stones or checkers in the game were not as many as before (a
    /// broken interpreter; never expected).
    pub not_conserved: u64,
    /// Moves that were one step of a turn too big to list whole (see `Game::is_step`).
    #[serde(default)]
    pub steps: u64,
    /// Moves cut short by a guard within the move (see `Game::cut_short`).
    #[serde(default)]
    pub cut_short: u64,
    /// The scores of every single game added up for player A and for player B (tables games:
    /// points, a gammon 2, times the cube).
    #[serde(default)]
    pub points: [u64; 2],
}

/// Saturating, so that no partial result read from a file can overflow a sum.
impl std::ops::Add for Tally {
    type Output = Tally;
    fn add(mut self, other: Tally) -> Tally {
        let sum = |a: &mut u64, b: u64| *a = a.saturating_add(b);
        sum(&mut self.games, other.games);
        for p in 0..2 {
            sum(&mut self.wins[p], other.wins[p]);
            sum(&mut self.points[p], other.points[p]);
            sum(&mut self.seat_wins[p], other.seat_wins[p]);
        }
        sum(&mut self.draws, other.draws);
        sum(&mut self.first_mover_wins, other.first_mover_wins);
        for (plies, n) in other.plies {
            sum(self.plies.entry(plies).or_default(), n);
        }
        for (reason, n) in other.ended_by {
            sum(self.ended_by.entry(reason).or_default(), n);
        }
        for (condition, n) in other.conditions_held {
            sum(self.conditions_held.entry(condition).or_default(), n);
        }
        sum(&mut self.decisions, other.decisions);
        sum(&mut self.choices, other.choices);
        sum(&mut self.single_games, other.single_games);
        sum(&mut self.captures, other.captures);
        sum(&mut self.hits, other.hits);
        sum(&mut self.not_conserved, other.not_conserved);
        sum(&mut self.steps, other.steps);
        sum(&mut self.cut_short, other.cut_short);
        self.counts_hits = self.counts_hits || other.counts_hits;
        self
    }
}

/// How a game that the program's guard stopped is counted (not the rules' own ply limit).
pub const PLY_GUARD: &str = "ply guard";
/// How a match that reached the program's limit on games is counted.
pub const MATCH_GUARD: &str = "match guard";

/// Where the rules' starting ritual is the opening roll, a game whose starter it drew begins
/// with the starter playing that roll (never a double), as at the table.
fn opening_roll<G: Evaluator>(game: &G, state: &mut G::State, rng: &mut ChaCha8Rng) {
    let opening = game
        .dice()
        .and_then(|dice| game.start_ritual().opening(dice, rng));
    if let Some(roll) = opening {
        // A new game awaits its first roll, which this is.
        let _ = game.roll(state, &roll);
    }
}

/// Plays game `index` of an analysis (a whole match where the rules define one).
pub fn play_one<G: Evaluator>(game: &G, setup: &Setup, index: u64) -> Tally {
    let mut rng = ChaCha8Rng::seed_from_u64(setup.seed);
    rng.set_stream(index);
    // Player A sits at seat 0 in even games, at seat 1 in odd ones.
    let a_seat = (index % 2) as usize;
    let mut specs = setup.players;
    if a_seat == 1 {
        specs.swap(0, 1);
    }
    let guards = game.guards();
    let first: usize = rng.gen_range(0..2);
    let mut state = game.new_game(first);
    game.scatter(&mut state, &mut rng);
    opening_roll(game, &mut state, &mut rng);
    let mut tally = Tally {
        games: 1,
        counts_hits: game.pips(&state, 0).is_some(),
        ..Tally::default()
    };
    let watched = game.watched_conditions();
    for (name, _) in &watched {
        tally.conditions_held.insert(name.to_string(), 0);
    }
    let mut moves = Vec::new();
    // Each seat's search keeps its subtree between moves, as in `ludus play`.
    let mut memories: [crate::Memory<G>; 2] = Default::default();
    let mut plies = 0u32;
    let mut pieces = game.pieces(&state);
    let winner = loop {
        match game.phase(&state) {
            Phase::Roll(_) => {
                let Some(dice) = game.dice() else { break None };
                if game.roll(&mut state, &dice.sample(&mut rng)).is_err() {
                    break None;
                }
            }
            Phase::Move(p) => {
                game.legal_moves(&state, &mut moves);
                if moves.is_empty() {
                    break None;
                }
                tally.decisions += 1;
                tally.choices += moves.len() as u64;
                let pick =
                    crate::choose_with(game, &state, &moves, specs[p], &mut memories[p], &mut rng);
                let before = (game.material(&state, p), game.pips(&state, 1 - p));
                tally.steps += u64::from(game.is_step(&moves[pick]));
                game.play(&mut state, &moves[pick]);
                plies += 1;
                tally.cut_short += u64::from(game.cut_short(&state));
                let now = game.pieces(&state);
                tally.not_conserved += u64::from(now != pieces);
                pieces = now;
                let held = game.conditions_held(&state);
                if held != 0 {
                    for (name, bit) in &watched {
                        if held & bit != 0 {
                            *tally.conditions_held.entry(name.to_string()).or_default() += 1;
                        }
                    }
                }
                if tally.counts_hits {
                    tally.hits += u64::from(game.pips(&state, 1 - p) > before.1);
                } else {
                    tally.captures += u64::from(game.material(&state, p) > before.0);
                }
            }
            Phase::Over => {
                let Some(outcome) = game.outcome(&state) else {
                    break None;
                };
                tally.single_games += 1;
                for (seat, &score) in outcome.scores.iter().enumerate() {
                    // Seat `seat` is player A when A sits there.
                    let player = usize::from(seat != a_seat);
                    tally.points[player] += u64::try_from(score).unwrap_or(0);
                }
                let ending = if outcome.ending == Ending::PlyLimit && !guards.plies_by_rules {
                    PLY_GUARD
                } else {
                    outcome.ending.word()
                };
                *tally.ended_by.entry(ending.to_string()).or_default() += 1;
                let Some(standing) = game.match_standing(&state) else {
                    break outcome.winner;
                };
                let (next, ritual) = match game.next_starter(&state) {
                    Some(p) => (p, false),
                    None => (rng.gen_range(0..2), true),
                };
                match game.next_game(&state, next).filter(|_| !standing.over) {
                    Some(next) => {
                        state = next;
                        game.scatter(&mut state, &mut rng);
                        if ritual {
                            opening_roll(game, &mut state, &mut rng);
                        }
                        pieces = game.pieces(&state);
                    }
                    None => {
                        if guards.games == Some(standing.game) {
                            *tally.ended_by.entry(MATCH_GUARD.to_string()).or_default() += 1;
                        }
                        break standing.winner;
                    }
                }
            }
        }
    };
    *tally.plies.entry(plies).or_default() += 1;
    match winner {
        None => tally.draws += 1,
        Some(w) => {
            // Seat `w` is player A when A sits there.
            tally.wins[usize::from(w != a_seat)] += 1;
            tally.seat_wins[w] += 1;
            tally.first_mover_wins += u64::from(w == first);
        }
    }
    tally
}

/// Games played in one piece of work: enough that reporting progress costs nothing beside
/// them, few enough that the threads stay evenly loaded.
const CHUNK: u64 = 64;

/// Plays the games of `setup`'s shard on the current rayon pool; `progress` is called with the
/// number of games played, a chunk at a time (from any thread).
pub fn run<G: Evaluator + Sync>(game: &G, setup: &Setup, progress: impl Fn(u64) + Sync) -> Tally
where
    G::State: Send,
{
    use rayon::prelude::*;
    let games = setup.shard.games(setup.games);
    let chunks = (games.end - games.start).div_ceil(CHUNK);
    (0..chunks)
        .into_par_iter()
        .map(|c| {
            let first = games.start + c * CHUNK;
            let last = (first + CHUNK).min(games.end);
            let tally = (first..last)
                .map(|i| play_one(game, setup, i))
                .fold(Tally::default(), |a, b| a + b);
            progress(last - first);
            tally
        })
        .reduce(Tally::default, |a, b| a + b)
}
