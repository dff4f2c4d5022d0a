//! `cargo bench`: uniformly random games of Oware and backgammon through the rules interpreter
//! and through the hand-written baselines, in the same run, with their ratio.
//! Options (after `--`): `--seconds S` of CPU time per engine (default 5), `--seed N`.

use ludus::bench::{baseline_for, random_games, report};
use ludus::registry::load;
use ludus::with_game;

fn main() {
    let mut seconds = 5.0;
    let mut seed = 1;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().and_then(|v| v.parse::<f64>().ok());
        match arg.as_str() {
            "--seconds" => seconds = value().expect("--seconds takes a number"),
            "--seed" => seed = value().expect("--seed takes a number") as u64,
            // `cargo bench` passes `--bench` (and any filter) to every bench target.
            _ => {}
        }
    }
    for name in ["oware", "backgammon"] {
        let (source, game) = load(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        let interpreter = with_game!(&game, g => random_games(g, seconds, seed));
        let baseline = baseline_for(&source.text).map(|run| run(seconds, seed));
        println!("{}\n", report(name, &interpreter, baseline.as_ref()));
    }
}
