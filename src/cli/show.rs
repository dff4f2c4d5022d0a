//! `ludus list` and `ludus show GAME`.

use crate::say;
use anyhow::Result;
use ludus_core::game::{Game, Guards, View};
use ludus_core::rules::BUNDLED;
use ludus_table::registry::{self, AnyGame};

pub fn list() -> Result<bool> {
    let width = BUNDLED
        .iter()
        .map(|(name, _)| name.len())
        .max()
        .unwrap_or(0);
    for (name, text) in BUNDLED {
        let line = match registry::compile(text) {
            Ok(game) => title_line(&game),
            Err(_) => "(invalid rules)".to_string(),
        };
        say!("{name:<width$}  {line}");
    }
    Ok(true)
}

fn title_line(game: &AnyGame) -> String {
    let described = game.describe();
    let first = described.lines().next().unwrap_or_default().to_string();
    format!("{:<7} {first}", game.family())
}

pub fn show(name: &str, svg: bool, toml: bool) -> Result<bool> {
    let (source, game) = super::load(name)?;
    if toml {
        print!("{}", source.text);
        return Ok(true);
    }
    if svg {
        say!("{}", game.svg(&game.new_game(0), 0).trim_end());
        return Ok(true);
    }
    say!("{}", game.describe().trim_end());
    say!("{}", guards_text(game.guards()));
    say!();
    say!("Starting position:");
    say!("{}", game.render(&game.new_game(0), 0).trim_end());
    Ok(true)
}

/// Which bounds end every game and match.
pub fn guards_text(g: Guards) -> String {
    let plies = if g.plies_by_rules {
        format!("A game ends after {} plies (the rules' limit).", g.plies)
    } else {
        format!(
            "Guard: a game still going after {} plies ends there (Ludus's limit, so that every game ends).",
            g.plies
        )
    };
    match g.games {
        Some(games) => format!("{plies} A match ends after {games} games at most."),
        None => plies,
    }
}
