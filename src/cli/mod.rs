//! The subcommands behind `src/main.rs`. Each returns `Ok(true)` on success, `Ok(false)` when
//! it reported a failure itself (exit 1), `Err` for a failure to report.

pub mod analyze;
pub mod explain;
pub mod import;
pub mod play;
pub mod replay;
pub mod show;
pub mod train;
pub mod validate;

use anyhow::Result;
use ludus_core::limits::Limits;
use ludus_core::rules::Source;
use ludus_table::registry::{self, AnyGame};

/// Writes a line to standard output, control characters escaped (names and titles come from
/// files: [`printable`](ludus_core::limits::printable)); a write error (a closed pipe, a full
/// disk) becomes an error of the command instead of a panic.
#[macro_export]
macro_rules! say {
    () => {
        $crate::say!("")
    };
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let text = format!($($arg)*);
        writeln!(std::io::stdout(), "{}", $crate::limits::printable(&text))
            .map_err(|e| anyhow::anyhow!("cannot write to standard output: {e}"))?
    }};
}

/// Loads a game by bundled name or path; rules errors come back rendered.
pub fn load(name: &str) -> Result<(Source, AnyGame)> {
    Ok(registry::load(name)?)
}

/// `ludus bench GAME`.
pub fn bench(name: &str, seconds: f64, seed: u64, limits: &Limits) -> Result<bool> {
    let limit = limits.bench_seconds;
    if !(seconds.is_finite() && seconds > 0.0 && seconds <= limit) {
        anyhow::bail!(
            "--seconds must be a number of seconds above 0 and at most {limit}, not {seconds}"
        );
    }
    let (source, game) = load(name)?;
    let rates = ludus_table::with_game!(&game, g => crate::bench::random_games(g, seconds, seed));
    // A hand-written engine is compared only with exactly the rules it implements.
    let base = crate::bench::baseline_for(&source.text).map(|run| run(seconds, seed));
    say!(
        "{}",
        crate::bench::report(ludus_core::game::Game::name(&game), &rates, base.as_ref())
    );
    Ok(true)
}
