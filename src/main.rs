//! The `ludus` command line: the edge where errors become messages and exit codes.

use clap::{Parser, Subcommand, ValueEnum};
use ludus::cli;
use ludus::limits::{printable, Limits};
use ludus::players::Spec;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "ludus",
    version,
    about = "Plays traditional board games from rules files"
)]
struct Args {
    #[command(subcommand)]
    command: Command,
    #[arg(long = "limit", value_name = "NAME=VALUE", global = true, help = limit_help())]
    limits: Vec<String>,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum ExportFormat {
    /// Jellyfish `.mat` (GNU Backgammon's `import mat`).
    Mat,
}

#[derive(Subcommand)]
enum Command {
    /// Check rules files: every error and warning, at file:line:column. Exit 0 when no file
    /// has an error (warnings alone pass), 1 otherwise.
    Validate {
        /// Rules files (paths) or bundled game names.
        #[arg(required = true)]
        files: Vec<String>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Fail (exit 1) on warnings too.
        #[arg(long)]
        deny_warnings: bool,
        /// Then play N random games with each valid file on every core, and warn of games
        /// only a guard ended, stones or checkers not conserved and a seat that won every game.
        #[arg(long, value_name = "N", default_value_t = 0)]
        simulate: u64,
    },
    /// The rules-file reference of a key (`pits`, `sowing.skip_origin`, `capture.when`), a
    /// table (`board`) or an expression name (`last.count`); without KEY, every table and key.
    Explain { key: Option<String> },
    /// The bundled games, one line each.
    List,
    /// A game's rules in plain words and its starting board.
    Show {
        /// A bundled game name or a rules file path.
        game: String,
        /// Print the starting position as an SVG picture instead.
        #[arg(long, conflicts_with = "toml")]
        svg: bool,
        /// Print the rules file itself instead (a bundled game's: a start for a variant).
        #[arg(long)]
        toml: bool,
    },
    /// Play a game (or a whole match) in the terminal.
    Play(PlayArgs),
    /// Check a game record (`ludus play --record`) move by move against its rules and show its
    /// positions; the first line that is not legal is an error naming it (exit 1).
    Replay {
        file: PathBuf,
        /// Show only the position after this roll or move (0: the start).
        #[arg(long)]
        ply: Option<u32>,
        /// The rules file to replay with, when the record's is elsewhere (its text must be the
        /// one the record was made with).
        #[arg(long)]
        rules: Option<String>,
        /// Also write each position as an SVG picture into this folder (ply-0000.svg, ...).
        #[arg(long, value_name = "DIR")]
        svg: Option<PathBuf>,
    },
    /// Write a record's games for another program: `mat` is the Jellyfish text GNU Backgammon
    /// imports (backgammon games; `import mat FILE` in gnubg).
    Export {
        file: PathBuf,
        #[arg(long, value_enum)]
        format: ExportFormat,
        /// As for `replay`.
        #[arg(long)]
        rules: Option<String>,
    },
    /// Rate each player's decisions in a record: every move and cube decision searched by a
    /// reviewing player, what each lost against its best, summed per player (per unforced
    /// move, as GNU Backgammon rates a match), the largest losses listed.
    Review {
        file: PathBuf,
        /// The reviewing player (default: `net` where the rules name a network, else
        /// `alphabeta:1s`).
        #[arg(long)]
        player: Option<String>,
        /// As for `replay`.
        #[arg(long)]
        rules: Option<String>,
    },
    /// Read a match or money session another program wrote into a Ludus record, every roll,
    /// move and cube action checked against the rules: the Jellyfish `.mat` text GNU
    /// Backgammon exports (`export match mat FILE` in gnubg), or GNU Backgammon's own `.sgf`
    /// (`save match FILE`).
    Import {
        file: PathBuf,
        /// The rules the games were played by (default: `backgammon-money` for a money
        /// session, `backgammon-match` for a 7-point match).
        #[arg(long)]
        rules: Option<String>,
        /// Write the record to this file instead of standard output.
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// The game of a money session to import (from 1): a record holds one game of rules
        /// that play single games.
        #[arg(long)]
        game: Option<usize>,
    },
    /// Learn a position evaluation for a tables game by self-play (TD(λ), as TD-Gammon) and
    /// write it for the `net:FILE` player.
    Train {
        /// A bundled game name or a rules file path.
        rules: String,
        /// Games of self-play.
        #[arg(long, default_value_t = 10_000)]
        games: u64,
        /// Hidden units of the network.
        #[arg(long, default_value_t = 40)]
        hidden: usize,
        /// The learning rate.
        #[arg(long, default_value_t = 0.1)]
        alpha: f32,
        /// How far back each error is credited (0: one position, 1: all).
        #[arg(long, default_value_t = 0.7)]
        lambda: f32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The network file to write.
        #[arg(short, long)]
        output: PathBuf,
        /// A network to train further.
        #[arg(long)]
        from: Option<PathBuf>,
    },
    /// Speak the JSON-lines engine protocol on standard input/output.
    Protocol,
    #[cfg(feature = "server")]
    /// Serve a web page on which to play any bundled game or uploaded rules file, and its
    /// HTTP API (see docs/playing.md). Listens on this machine only unless told otherwise.
    Serve {
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// The address to listen on; 0.0.0.0 opens the server to the network.
        #[arg(long, default_value = "127.0.0.1")]
        bind: std::net::IpAddr,
    },
    /// Play many games between two computer players on every core and report, for each rules
    /// file: wins with 95% intervals, the first mover's advantage, game length, how games
    /// ended, branching, captures or hits.
    Analyze(AnalyzeArgs),
    /// Add up the partial results of a sharded analysis (`analyze --shard`) into the report of
    /// the whole, exactly as one unsharded run would give it.
    Merge {
        /// Files written by `ludus analyze --shard I/N` (one part per rules file per line).
        #[arg(required = true)]
        parts: Vec<PathBuf>,
        /// One JSON object per rules file per line instead of the table.
        #[arg(long)]
        json: bool,
    },
    /// Play uniformly random games through the interpreter and report the rate (CPU time),
    /// against a hand-written baseline where there is one.
    Bench {
        /// A bundled game name or a rules file path.
        game: String,
        /// CPU seconds for each measurement.
        #[arg(long, default_value_t = 3.0)]
        seconds: f64,
        /// Seed for the random games (the same seed plays the same games).
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// `--limit`'s help, naming the caps that may be lowered.
fn limit_help() -> String {
    format!(
        "Lower one of the caps that bound a run (repeatable): NAME=VALUE, e.g. `--limit \
         server_games=50`. NAME is one of {}; a cap is never raised",
        Limits::SETTABLE.join(", ")
    )
}

/// `--south`'s help, naming the computer players the players crate lists.
fn south_help() -> String {
    format!(
        "Player 0, the side listed first in the rules (South in sowing games, White in tables \
         games; --south and --white are the same option): human, {} (BUDGET: a time such as \
         250ms or 2s, mcts iterations such as 20000, an alphabeta depth such as d8). Each keeps \
         the side given here for the whole game or match; a starting ritual decides only who \
         starts",
        ludus_players::usage()
    )
}

/// `analyze --players`'s help, naming the computer players the players crate lists.
fn analyze_players_help() -> String {
    format!(
        "Players A and B: {}. A sits first in even games, B in odd ones",
        ludus_players::usage()
    )
}

#[derive(clap::Args)]
struct PlayArgs {
    /// A bundled game name or a rules file path.
    game: String,
    #[arg(long, visible_alias = "white", default_value = "human", help = south_help())]
    south: Spec,
    /// Player 1, the side listed second (North in sowing games, Black in tables games;
    /// --north and --black are the same option): as for --south. By default `net` where the
    /// rules name a learned network (`[ai] network`), else `greedy`.
    #[arg(long, visible_alias = "black")]
    north: Option<Spec>,
    /// Seed for the computer players, the dice and the starting ritual (reproducible games).
    #[arg(long)]
    seed: Option<u64>,
    /// Who moves first (0/south/white or 1/north/black); skips the starting ritual.
    #[arg(long)]
    first: Option<String>,
    /// Dice: rolled by the program, or typed in from real dice (Ludus as the referee).
    #[arg(long, value_enum, default_value = "auto")]
    dice: cli::play::DiceSource,
    /// Override the rules' ply limit (games that have one, e.g. Uuholo).
    #[arg(long)]
    max_plies: Option<u32>,
    /// Read a human's input from this file instead of the terminal (scripts, tests).
    #[arg(long)]
    input: Option<PathBuf>,
    /// Write the game (the whole match) to this file as it is played: the rules and their
    /// digest, the seed, the players, every roll and move (see `ludus replay`).
    #[arg(long)]
    record: Option<PathBuf>,
}

#[derive(clap::Args)]
struct AnalyzeArgs {
    /// Rules files (paths) or bundled game names, reported side by side.
    #[arg(required = true)]
    rules: Vec<String>,
    #[arg(long, default_value = "random,random", help = analyze_players_help())]
    players: String,
    /// Games to play (whole matches where the rules define matches).
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// With players that have no time budget, the same seed gives the same results on any
    /// number of threads and shards.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (default: every core).
    #[arg(long)]
    jobs: Option<usize>,
    /// Play only shard I of N (counted from 0) and write its partial result for `ludus merge`.
    /// Without it, the shard comes from SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT or from
    /// JOB_COMPLETION_INDEX with --shards.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// The number of shards when a scheduler gives only the index (a Kubernetes indexed Job's
    /// completions).
    #[arg(long, value_name = "N")]
    shards: Option<u64>,
    /// One JSON object per rules file per line instead of the table.
    #[arg(long)]
    json: bool,
    /// Write the report (or the shard's partial result) to this file.
    #[arg(long, short)]
    output: Option<PathBuf>,
}

fn main() -> ExitCode {
    // Die quietly when the reader of our output goes away (`ludus list | head`), as Unix tools
    // do, instead of failing on the next print.
    #[cfg(unix)]
    // SAFETY: restoring the default action of one signal, before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let args = Args::parse();
    let mut limits = Limits::default();
    for setting in &args.limits {
        if let Err(e) = limits.lower(setting) {
            eprintln!("error: --limit {}", printable(&e));
            return ExitCode::from(2);
        }
    }
    let result = match args.command {
        Command::Validate {
            files,
            format,
            deny_warnings,
            simulate,
        } => cli::validate::run(
            &files,
            cli::validate::Options {
                json: matches!(format, Format::Json),
                deny_warnings,
                simulate,
                limits,
            },
        ),
        Command::Explain { key } => cli::explain::run(key.as_deref()),
        Command::List => cli::show::list(),
        Command::Show { game, svg, toml } => cli::show::show(&game, svg, toml),
        Command::Play(p) => match cli::play::run(cli::play::Options {
            game: p.game,
            south: p.south,
            north: p.north,
            seed: p.seed,
            first: p.first,
            dice: p.dice,
            max_plies: p.max_plies,
            input: p.input,
            record: p.record,
            limits,
        }) {
            // A game left before its end: scripts tell it from a finished one and an error.
            Ok(cli::play::Played::Abandoned) => return ExitCode::from(cli::play::ABANDONED),
            played => played.map(|_| true),
        },
        Command::Replay {
            file,
            ply,
            rules,
            svg,
        } => cli::replay::replay(&file, ply, rules.as_deref(), svg.as_deref(), &limits),
        Command::Export {
            file,
            format: ExportFormat::Mat,
            rules,
        } => cli::replay::export_mat(&file, rules.as_deref(), &limits),
        Command::Review {
            file,
            player,
            rules,
        } => cli::replay::review(&file, rules.as_deref(), player.as_deref(), &limits),
        Command::Import {
            file,
            rules,
            output,
            game,
        } => cli::import::import(
            &file,
            cli::import::Options {
                rules: rules.as_deref(),
                output: output.as_deref(),
                game,
            },
            &limits,
        ),
        Command::Train {
            rules,
            games,
            hidden,
            alpha,
            lambda,
            seed,
            output,
            from,
        } => cli::train::train(&cli::train::TrainOptions {
            rules: &rules,
            games,
            hidden,
            alpha,
            lambda,
            seed,
            output: &output,
            from: from.as_deref(),
        }),
        Command::Protocol => {
            let stdin = std::io::stdin();
            ludus::protocol::run(stdin.lock(), std::io::stdout().lock(), &limits)
                .map_err(anyhow::Error::from)
                .map(|()| true)
        }
        #[cfg(feature = "server")]
        Command::Serve { port, bind } => {
            ludus::server::serve(ludus::server::Options { bind, port, limits })
                .map_err(|e| anyhow::anyhow!("cannot serve on {bind}:{port}: {e}"))
                .map(|()| true)
        }
        Command::Analyze(a) => cli::analyze::run(cli::analyze::Options {
            rules: a.rules,
            players: a.players,
            games: a.games,
            seed: a.seed,
            jobs: a.jobs,
            shard: a.shard,
            shards: a.shards,
            json: a.json,
            output: a.output,
            limits,
        }),
        Command::Merge { parts, json } => cli::analyze::merge(&parts, json, &limits),
        Command::Bench {
            game,
            seconds,
            seed,
        } => cli::bench(&game, seconds, seed, &limits),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {}", printable(&format!("{e:#}")));
            ExitCode::FAILURE
        }
    }
}
