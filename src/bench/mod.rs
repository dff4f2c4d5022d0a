//! Speed measurement: uniformly random games through the generic interpreter and through
//! hand-written engines of the same rules, in the process's CPU time (the machines are shared,
//! so wall time would measure the neighbours).

pub mod backgammon_baseline;
pub mod oware_baseline;

use cpu_time::ProcessTime;
use ludus_core::game::{Game, Phase};

/// Reading the process clock is a system call, so games are played in batches that double
/// until a batch takes about this long (CPU seconds); slow games still stop on time.
const BATCH_SECONDS: f64 = 0.01;

/// What a run measured.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Rates {
    pub games: u64,
    pub plies: u64,
    pub cpu_seconds: f64,
}

impl Rates {
    pub fn games_per_s(&self) -> f64 {
        self.games as f64 / self.cpu_seconds
    }
    pub fn plies_per_s(&self) -> f64 {
        self.plies as f64 / self.cpu_seconds
    }
    pub fn mean_plies(&self) -> f64 {
        self.plies as f64 / self.games as f64
    }
}

pub use ludus_players::WyRand;

/// Calls `play_game` (which plays one whole game and returns its plies) until about `seconds`
/// of CPU time have passed.
fn measure(seconds: f64, seed: u64, mut play_game: impl FnMut(&mut WyRand) -> u64) -> Rates {
    let mut rng = WyRand::new(seed);
    let mut rates = Rates::default();
    let mut batch = 1;
    let start = ProcessTime::now();
    loop {
        for _ in 0..batch {
            rates.plies += play_game(&mut rng);
        }
        rates.games += batch;
        let before = rates.cpu_seconds;
        rates.cpu_seconds = start.elapsed().as_secs_f64();
        if rates.cpu_seconds >= seconds {
            return rates;
        }
        if rates.cpu_seconds - before < BATCH_SECONDS {
            batch *= 2;
        }
    }
}

/// Plays uniformly random games of `game` (each a new game with player 0 first; matches are not
/// continued) on this thread for about `seconds` of CPU time. A ply is one `play`. Every game
/// ends by the rules' guards; a game that still has not ended after twice the ply guard's
/// steps (a broken game) stops the measurement with a panic rather than a hang.
pub fn random_games<G: Game>(game: &G, seconds: f64, seed: u64) -> Rates {
    let mut moves = Vec::new();
    let dice = game.dice();
    let max_steps = 2 * u64::from(game.guards().plies) + 2;
    measure(seconds, seed, |rng| {
        let mut state = game.new_game(0);
        game.scatter(&mut state, rng);
        let mut plies = 0;
        for _ in 0..max_steps {
            match game.phase(&state) {
                Phase::Over => return plies,
                Phase::Roll(_) => {
                    let roll = dice
                        .unwrap_or_else(|| panic!("{}: a Roll phase without dice", game.name()))
                        .sample(rng);
                    if let Err(e) = game.roll(&mut state, &roll) {
                        panic!(
                            "{}: roll {roll} refused in the Roll phase: {e}",
                            game.name()
                        );
                    }
                }
                Phase::Move(_) => {
                    game.legal_moves(&state, &mut moves);
                    assert!(
                        !moves.is_empty(),
                        "{}: no legal move in the Move phase",
                        game.name()
                    );
                    let choice = rng.below(moves.len() as u32) as usize;
                    game.play(&mut state, &moves[choice]);
                    plies += 1;
                }
            }
        }
        panic!(
            "{}: a game went past its guard of {} plies",
            game.name(),
            game.guards().plies
        )
    })
}

/// Random games of the hand-written Oware engine.
pub fn oware_baseline(seconds: f64, seed: u64) -> Rates {
    let mut game = oware_baseline::Oware::new();
    measure(seconds, seed, |rng| {
        game.restart();
        game.play_random(rng)
    })
}

/// Random games of the hand-written backgammon engine (a ply is a turn).
pub fn backgammon_baseline(seconds: f64, seed: u64) -> Rates {
    let mut game = backgammon_baseline::Backgammon::new();
    measure(seconds, seed, |rng| game.play_random(rng))
}

/// The hand-written engine for a rules text, when there is one: only for exactly the bundled
/// rules it implements, so a modified copy is never timed against the standard game.
pub fn baseline_for(rules_text: &str) -> Option<fn(f64, u64) -> Rates> {
    let bundled = |name: &str| {
        ludus_core::rules::BUNDLED
            .iter()
            .any(|(n, text)| *n == name && *text == rules_text)
    };
    if bundled("oware") {
        Some(oware_baseline)
    } else if bundled("backgammon") {
        Some(backgammon_baseline)
    } else {
        None
    }
}

/// Both rates and their ratio for people; the last line, for scripts, is exactly
/// `games_per_s=<x> plies_per_s=<y> mean_plies=<z>` of the interpreter.
pub fn report(name: &str, interp: &Rates, base: Option<&Rates>) -> String {
    let line = |who: &str, r: &Rates| {
        format!(
            "{name} {who:<11} {:>12.0} games/s {:>12.0} plies/s  mean {:>6.1} plies  ({} games in {:.2} s CPU)\n",
            r.games_per_s(),
            r.plies_per_s(),
            r.mean_plies(),
            r.games,
            r.cpu_seconds
        )
    };
    let mut out = line("interpreter", interp);
    if let Some(base) = base {
        out += &line("baseline", base);
        out += &format!(
            "{name} ratio interpreter/baseline: {:.3} in games/s, {:.3} in plies/s\n",
            interp.games_per_s() / base.games_per_s(),
            interp.plies_per_s() / base.plies_per_s()
        );
    }
    out += &format!(
        "games_per_s={:.1} plies_per_s={:.1} mean_plies={:.2}",
        interp.games_per_s(),
        interp.plies_per_s(),
        interp.mean_plies()
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_ends_with_the_machine_line_and_gives_the_ratio() {
        let interp = Rates {
            games: 300,
            plies: 30_000,
            cpu_seconds: 2.0,
        };
        let base = Rates {
            games: 1200,
            plies: 120_000,
            cpu_seconds: 2.0,
        };
        let text = report("oware", &interp, Some(&base));
        assert_eq!(
            text.lines().last(),
            Some("games_per_s=150.0 plies_per_s=15000.0 mean_plies=100.00")
        );
        assert!(
            text.contains("ratio interpreter/baseline: 0.250 in games/s"),
            "{text}"
        );
        assert_eq!(report("kalah", &interp, None).lines().count(), 2);
    }

    #[test]
    fn wyrand_below_is_uniform_enough() {
        let mut rng = WyRand::new(1);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[rng.below(6) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_500..10_500).contains(&c)),
            "{counts:?}"
        );
    }
}
