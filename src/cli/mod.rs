//! The subcommands behind `src/main.rs`. Each returns `Ok(true)` on success, `Ok(false)` when
//! it reported a failure itself (exit 1), `Err` for a failure to report.

pub mod play;
pub mod show;
pub mod validate;

use crate::game::Game;
use crate::rules::{self, AnyGame, Source};
use crate::{diagnostics, with_game};
use anyhow::{anyhow, Result};

/// Loads a game by bundled name or path; rules errors come back rendered.
pub fn load(name: &str) -> Result<(Source, AnyGame)> {
    let source = Source::find(name).map_err(|e| anyhow!(e))?;
    let game = rules::compile(&source.text).map_err(|d| {
        anyhow!(
            "invalid rules\n{}",
            diagnostics::render(&source.name, &source.text, &d).trim_end()
        )
    })?;
    Ok((source, game))
}

/// `ludus bench GAME`.
pub fn bench(name: &str, seconds: f64, seed: u64) -> Result<bool> {
    let (_, game) = load(name)?;
    let (rules_name, rates) = with_game!(&game, g => (g.name().to_string(), crate::bench::random_games(g, seconds, seed)));
    // The baseline follows the rules' own name, so a path to a copy of oware.toml gets it too.
    let base = crate::bench::baseline_for(&rules_name).map(|run| run(seconds, seed));
    println!(
        "{}",
        crate::bench::report(&rules_name, &rates, base.as_ref())
    );
    Ok(true)
}
