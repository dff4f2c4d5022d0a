//! `ludus analyze RULES…` and `ludus merge PARTS…`: many games between two players on every
//! core, reported per rules file; sharded over machines and merged back.

use crate::say;
use anyhow::{anyhow, bail, Context, Result};
use ludus_core::limits::{excerpt, printable, quotes_cut, read_line, Limits, LongLine};
use ludus_players::analysis::{self, Part, Report, Setup, Shard};
use ludus_players::Spec;
use ludus_table::registry::AnyGame;
use std::io::{BufReader, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

pub struct Options {
    pub rules: Vec<String>,
    pub players: String,
    pub games: u64,
    pub seed: u64,
    pub jobs: Option<usize>,
    pub shard: Option<String>,
    pub shards: Option<u64>,
    pub json: bool,
    pub output: Option<PathBuf>,
    pub limits: Limits,
}

/// `A,B`: two computer players.
fn parse_players(text: &str) -> Result<[Spec; 2]> {
    let specs: Vec<&str> = text.split(',').map(str::trim).collect();
    let [a, b] = specs[..] else {
        bail!(
            "--players: expected two players separated by a comma (random,greedy), got `{}`",
            excerpt(text)
        );
    };
    let parse = |s: &str| -> Result<Spec> { s.parse().map_err(|e| anyhow!("--players: {e}")) };
    Ok([parse(a)?, parse(b)?])
}

/// The shard this run plays: `--shard I/N`, else a batch scheduler's array index (Slurm job
/// arrays; Kubernetes indexed Jobs with `--shards N`), else the whole analysis.
fn shard(explicit: Option<&str>, shards: Option<u64>) -> Result<(Shard, Option<String>)> {
    let env = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
    let number = |name: &str, value: String| -> Result<u64> {
        value
            .trim()
            .parse()
            .map_err(|_| anyhow!("{name}=`{}` is not a number", excerpt(&value)))
    };
    if let Some(text) = explicit {
        if shards.is_some() {
            bail!("give --shard I/N or --shards N, not both");
        }
        return Ok((
            Shard::parse(text).map_err(|e| anyhow!("--shard: {e}"))?,
            None,
        ));
    }
    if let Some(id) = env("SLURM_ARRAY_TASK_ID") {
        let id = number("SLURM_ARRAY_TASK_ID", id)?;
        // Arrays may start anywhere (`--array=1-100`): the index counts from the first task.
        let min = match env("SLURM_ARRAY_TASK_MIN") {
            Some(v) => number("SLURM_ARRAY_TASK_MIN", v)?,
            None => 0,
        };
        let count = match (shards, env("SLURM_ARRAY_TASK_COUNT")) {
            (Some(n), _) => n,
            (None, Some(v)) => number("SLURM_ARRAY_TASK_COUNT", v)?,
            (None, None) => bail!("SLURM_ARRAY_TASK_ID is set but not the count: give --shards N"),
        };
        let index = id
            .checked_sub(min)
            .ok_or_else(|| anyhow!("SLURM_ARRAY_TASK_ID {id} is below SLURM_ARRAY_TASK_MIN"))?;
        let shard = Shard::new(index, count).map_err(|e| anyhow!("Slurm array: {e}"))?;
        return Ok((shard, Some("the Slurm array task".into())));
    }
    if let Some(index) = env("JOB_COMPLETION_INDEX") {
        let index = number("JOB_COMPLETION_INDEX", index)?;
        let count = shards.ok_or_else(|| {
            anyhow!("JOB_COMPLETION_INDEX is set: give the number of completions as --shards N")
        })?;
        let shard = Shard::new(index, count).map_err(|e| anyhow!("indexed Job: {e}"))?;
        return Ok((shard, Some("the Kubernetes Job's completion index".into())));
    }
    if shards.is_some() {
        bail!(
            "--shards N needs the shard's index from a scheduler (SLURM_ARRAY_TASK_ID or \
             JOB_COMPLETION_INDEX); give --shard I/N otherwise"
        );
    }
    Ok((Shard::WHOLE, None))
}

pub fn run(opts: Options) -> Result<bool> {
    let players = parse_players(&opts.players)?;
    let (shard, from) = shard(opts.shard.as_deref(), opts.shards)?;
    let setup = Setup {
        players,
        games: opts.games,
        seed: opts.seed,
        shard,
    };
    setup
        .check(&opts.limits)
        .map_err(|(setting, why)| anyhow!("--{setting} {why}"))?;
    if let Some(from) = &from {
        eprintln!("shard {shard} (from {from})");
    }
    // A shard writes its part for `merge`, even the one shard of one.
    let partial = opts.shard.is_some() || from.is_some();
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(jobs) = opts.jobs {
        let max = opts.limits.analysis_jobs;
        if !(1..=max).contains(&jobs) {
            bail!("--jobs must be 1 to {max}, not {jobs}");
        }
        pool = pool.num_threads(jobs);
    }
    let pool = pool.build().context("cannot start the worker threads")?;
    // Every file is loaded before any game is played: a typo in the last fails at once.
    let mut games = Vec::new();
    for name in &opts.rules {
        games.push(super::load(name)?);
    }
    let mut out: Box<dyn Write> = match &opts.output {
        Some(path) => Box::new(
            std::fs::File::create(path)
                .with_context(|| format!("cannot write {}", path.display()))?,
        ),
        None => Box::new(std::io::stdout()),
    };
    let mut reports = Vec::new();
    for (source, game) in &games {
        let started = Instant::now();
        let played = shard.games(opts.games);
        let bar = progress(game, played.end - played.start);
        let tally = pool.install(
            || ludus_table::with_game!(game, g => analysis::run(g, &setup, |n| bar.inc(n))),
        );
        bar.finish_and_clear();
        let seconds = started.elapsed().as_secs_f64();
        let name = ludus_core::game::Game::name(game).to_string();
        let players = players.map(|p| p.to_string());
        if partial {
            let part = Part {
                format: analysis::PART_FORMAT.into(),
                rules: name,
                digest: source.digest(),
                players,
                seed: opts.seed,
                games: opts.games,
                shard,
                seconds,
                tally,
            };
            writeln!(out, "{}", serde_json::to_string(&part)?)
                .context("cannot write the partial result")?;
            continue;
        }
        let report = Report {
            rules: name,
            players,
            seed: opts.seed,
            tally,
            seconds,
        };
        if opts.json {
            writeln!(out, "{}", report.to_json()).context("cannot write the report")?;
        }
        reports.push(report);
    }
    if !opts.json && !reports.is_empty() {
        write!(out, "{}", printable(&Report::table(&reports)))
            .context("cannot write the report")?;
    }
    out.flush().context("cannot write the report")?;
    Ok(true)
}

/// A progress bar on standard error when it is a terminal; hidden otherwise.
fn progress(game: &AnyGame, games: u64) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(games);
    let style = indicatif::ProgressStyle::with_template(
        "{prefix} [{bar:30}] {pos}/{len} games, {per_sec}, {eta} left",
    )
    .map(|s| s.progress_chars("=> "));
    if let Ok(style) = style {
        bar.set_style(style);
    }
    bar.set_prefix(printable(ludus_core::game::Game::name(game)).into_owned());
    bar
}

/// `ludus merge PARTS…`: the shards' parts added up into the reports of the whole analyses.
pub fn merge(files: &[PathBuf], json: bool, limits: &Limits) -> Result<bool> {
    let mut analyses: Vec<Vec<Part>> = Vec::new();
    for file in files {
        for part in read_parts(file, limits)? {
            match analyses.iter_mut().find(|a| a[0].same_analysis(&part)) {
                Some(analysis) => analysis.push(part),
                None => {
                    if let Some(other) = analyses.iter().find(|a| a[0].rules == part.rules) {
                        bail!(
                            "{}: a part of {} from another analysis (rules text, players, seed, \
                             games or shard count differ from {}'s first part)",
                            file.display(),
                            excerpt(&part.rules),
                            excerpt(&other[0].rules)
                        );
                    }
                    analyses.push(vec![part]);
                }
            }
        }
    }
    if analyses.is_empty() {
        bail!("no partial results in the given files");
    }
    let mut reports = Vec::new();
    for parts in &analyses {
        reports.push(Part::merge(parts).map_err(|e| anyhow!(e))?);
    }
    if json {
        for r in &reports {
            say!("{}", r.to_json());
        }
    } else {
        let table = Report::table(&reports);
        say!("{}", table.trim_end());
    }
    Ok(true)
}

/// The parts in a file written by `ludus analyze --shard`, one JSON object per line.
fn read_parts(path: &Path, limits: &Limits) -> Result<Vec<Part>> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut reader = BufReader::new(file);
    let mut parts = Vec::new();
    let mut line = Vec::new();
    let max = limits.protocol_line_bytes;
    for number in 1.. {
        match read_line(&mut reader, &mut line, max, LongLine::Stop)
            .with_context(|| format!("cannot read {}", path.display()))?
        {
            None => break,
            Some(false) => bail!(
                "{}:{number}: a line longer than {max} bytes is not a partial result",
                path.display()
            ),
            Some(true) => {}
        }
        let text = String::from_utf8_lossy(&line);
        if text.trim().is_empty() {
            continue;
        }
        let part: Part = serde_json::from_str(&text).map_err(|e| {
            anyhow!(
                "{}:{number}: not a partial result of `ludus analyze --shard`: {}",
                path.display(),
                quotes_cut(&e.to_string())
            )
        })?;
        if part.format != analysis::PART_FORMAT {
            bail!(
                "{}:{number}: format `{}` is not {}",
                path.display(),
                excerpt(&part.format),
                analysis::PART_FORMAT
            );
        }
        if part.shard.count > limits.analysis_games || part.games > limits.analysis_games {
            bail!(
                "{}:{number}: more games or shards than an analysis may have",
                path.display()
            );
        }
        part.check()
            .map_err(|e| anyhow!("{}:{number}: {e}", path.display()))?;
        parts.push(part);
    }
    Ok(parts)
}
