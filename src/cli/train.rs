//! `ludus train RULES`: a position evaluation learned by self-play (TD(λ), as TD-Gammon), for
//! the `net:FILE` player.

use crate::say;
use anyhow::{anyhow, bail, Context, Result};
use ludus_core::game::{Evaluator, Game};
use ludus_core::limits::excerpt;
use ludus_players::net::{self, Net, Training};
use ludus_table::registry;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::time::Instant;

/// What `ludus train` is told.
pub struct TrainOptions<'a> {
    pub rules: &'a str,
    pub games: u64,
    pub hidden: usize,
    pub alpha: f32,
    pub lambda: f32,
    pub seed: u64,
    pub output: &'a Path,
    /// A network to train further (its sizes kept).
    pub from: Option<&'a Path>,
}

pub fn train(opts: &TrainOptions) -> Result<bool> {
    let (_, game) =
        registry::load(opts.rules).map_err(|e| anyhow!("{}: {e}", excerpt(opts.rules)))?;
    if !(1..=net::MAX_HIDDEN).contains(&opts.hidden) {
        bail!(
            "--hidden {}: 1 to {} hidden units",
            opts.hidden,
            net::MAX_HIDDEN
        );
    }
    let alpha_ok = opts.alpha > 0.0 && opts.alpha <= 1.0;
    if !(alpha_ok && (0.0..=1.0).contains(&opts.lambda)) {
        bail!("--alpha must be in (0, 1] and --lambda in [0, 1]");
    }
    let mut features = Vec::new();
    if !game.features(&game.new_game(0), &mut features) {
        bail!(
            "`{}`: its family gives no features for a network (tables games do)",
            excerpt(game.name())
        );
    }
    if features.len() > net::MAX_INPUTS {
        bail!(
            "`{}`: {} features, more than a network takes",
            excerpt(game.name()),
            features.len()
        );
    }
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
    let mut network = match opts.from {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let n = Net::from_json(&text).map_err(|e| anyhow!("{}: {e}", path.display()))?;
            if n.inputs != features.len() {
                bail!(
                    "{}: a network of {} inputs; `{}` gives {}",
                    path.display(),
                    n.inputs,
                    excerpt(game.name()),
                    features.len()
                );
            }
            n
        }
        None => Net::new(game.name(), features.len(), opts.hidden, &mut rng),
    };
    let plan = Training {
        games: opts.games,
        alpha: opts.alpha,
        lambda: opts.lambda,
        max_plies: game.guards().plies.min(10_000),
    };
    let started = Instant::now();
    let every = (opts.games / 20).max(1);
    ludus_table::with_game!(&game, g => net::train(g, &mut network, plan, &mut rng, |n| {
        if n % every == 0 || n == opts.games {
            eprintln!("{n} games, {:.0} s", started.elapsed().as_secs_f64());
        }
    }));
    let text = serde_json::to_string(&network)?;
    std::fs::write(opts.output, text)
        .with_context(|| format!("cannot write {}", opts.output.display()))?;
    say!(
        "{}: a network of {} inputs and {} hidden units, trained on {} games of `{}` in {:.0} s; play it with --white net:{}",
        opts.output.display(),
        network.inputs,
        network.hidden,
        network.games,
        game.name(),
        started.elapsed().as_secs_f64(),
        opts.output.display()
    );
    Ok(true)
}
