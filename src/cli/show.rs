//! `ludus list` and `ludus show GAME`.

use crate::game::Game;
use crate::rules::{self, BUNDLED};
use crate::with_game;
use anyhow::Result;

pub fn list() -> Result<bool> {
    let width = BUNDLED
        .iter()
        .map(|(name, _)| name.len())
        .max()
        .unwrap_or(0);
    for (name, text) in BUNDLED {
        let line = match rules::compile(text) {
            Ok(game) => with_game!(&game, g => title_line(g)),
            Err(_) => "(invalid rules)".to_string(),
        };
        println!("{name:<width$}  {line}");
    }
    Ok(true)
}

fn title_line<G: Game>(game: &G) -> String {
    let described = game.describe();
    let first = described.lines().next().unwrap_or_default().to_string();
    format!("{:<7} {first}", game.family().as_str())
}

pub fn show(name: &str) -> Result<bool> {
    let (_, game) = super::load(name)?;
    with_game!(&game, g => show_game(g));
    Ok(true)
}

fn show_game<G: Game>(game: &G) {
    println!("{}", game.describe().trim_end());
    println!();
    println!("Starting position:");
    println!("{}", game.render(&game.new_game(0), 0).trim_end());
}
