//! The `ludus` command line: the edge where errors become messages and exit codes.

use clap::{Parser, Subcommand, ValueEnum};
use ludus::cli;
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
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
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
    },
    /// Play a game (or a whole match) in the terminal.
    Play(PlayArgs),
    /// Speak the JSON-lines engine protocol on standard input/output.
    Protocol,
    /// Play uniformly random games through the interpreter and report the rate (CPU time),
    /// against a hand-written baseline where there is one.
    Bench {
        game: String,
        /// CPU seconds for each measurement.
        #[arg(long, default_value_t = 3.0)]
        seconds: f64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

#[derive(clap::Args)]
struct PlayArgs {
    /// A bundled game name or a rules file path.
    game: String,
    /// Player 0 (South in sowing games): human, random, greedy, mcts[:BUDGET] or
    /// alphabeta[:BUDGET] (BUDGET: a time such as 250ms or 2s, mcts iterations such as 20000,
    /// an alphabeta depth such as d8).
    #[arg(long, alias = "white", default_value = "human")]
    south: Spec,
    /// Player 1 (North in sowing games): as for --south.
    #[arg(long, alias = "black", default_value = "greedy")]
    north: Spec,
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
    let result = match args.command {
        Command::Validate {
            files,
            format,
            deny_warnings,
        } => cli::validate::run(
            &files,
            cli::validate::Options {
                json: matches!(format, Format::Json),
                deny_warnings,
            },
        ),
        Command::Explain { key } => cli::explain::run(key.as_deref()),
        Command::List => cli::show::list(),
        Command::Show { game } => cli::show::show(&game),
        Command::Play(p) => cli::play::run(cli::play::Options {
            game: p.game,
            agents: [p.south, p.north],
            seed: p.seed,
            first: p.first,
            dice: p.dice,
            max_plies: p.max_plies,
            input: p.input,
        }),
        Command::Protocol => {
            let stdin = std::io::stdin();
            ludus::protocol::run(stdin.lock(), std::io::stdout().lock())
                .map_err(anyhow::Error::from)
                .map(|()| true)
        }
        Command::Bench {
            game,
            seconds,
            seed,
        } => cli::bench(&game, seconds, seed),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
