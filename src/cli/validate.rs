//! `ludus validate FILE…`: every error and warning of each rules file, located; exit 0 when no
//! file has an error (warnings alone do not fail, unless `--deny-warnings`).

use crate::say;
use anyhow::Result;
use ludus_core::diagnostics::{self, Diagnostic};
use ludus_core::game::Game;
use ludus_core::limits::{printable, LIMITS};
use ludus_core::rules::{RulesDoc, Source, SourceError};
use ludus_players::analysis::{self, Setup, Shard};
use ludus_players::{Random, Spec};
use ludus_table::registry::{self, AnyGame};
use serde_json::{json, Value};

/// How `validate` reports.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// One JSON document on standard output instead of text on standard error.
    pub json: bool,
    /// A warning fails the file as an error does.
    pub deny_warnings: bool,
    /// Random games to play with each valid file, watching for rules that misbehave in play.
    pub simulate: u64,
    pub limits: ludus_core::limits::Limits,
}

pub fn run(files: &[String], options: Options) -> Result<bool> {
    let max = options.limits.analysis_games;
    if options.simulate > max {
        anyhow::bail!(
            "--simulate must be at most {max} games, not {}",
            options.simulate
        );
    }
    let mut all_valid = true;
    let mut reports = Vec::new();
    for file in files {
        let (name, text, diagnostics, line) = match Source::find(file) {
            Ok(source) => {
                let mut report = registry::check_source(&source);
                if let (Some(game), true) = (&report.game, options.simulate > 0) {
                    report
                        .diagnostics
                        .extend(simulate(&source, game, options.simulate));
                }
                (source.name, source.text, report.diagnostics, None)
            }
            Err(e) => {
                let line = match &e {
                    SourceError::NotUtf8 { line, .. } => Some(*line),
                    _ => None,
                };
                let mut d = Diagnostic::new(e.to_string());
                if line.is_some() {
                    d = d.note("save the file as UTF-8 text");
                }
                (file.clone(), String::new(), vec![d], line)
            }
        };
        let errors = diagnostics.iter().filter(|d| d.is_error()).count();
        let warnings = diagnostics.len() - errors;
        let valid = errors == 0 && (warnings == 0 || !options.deny_warnings);
        all_valid &= valid;
        if options.json {
            let mut items = diagnostics::to_json(&name, &text, &diagnostics);
            if let (Some(line), Value::Array(items)) = (line, &mut items) {
                // Not text: the place is the line where the bytes stop being UTF-8.
                for item in items {
                    item["line"] = json!(line);
                    item["end_line"] = json!(line);
                }
            }
            let Value::Array(items) = items else {
                unreachable!("to_json gives an array")
            };
            let (errs, warns): (Vec<Value>, Vec<Value>) =
                items.into_iter().partition(|i| i["severity"] == "error");
            reports.push(json!({
                "file": name, "valid": valid, "errors": errs, "warnings": warns,
            }));
            continue;
        }
        if !diagnostics.is_empty() {
            eprint!(
                "{}",
                printable(&diagnostics::render(&name, &text, &diagnostics))
            );
        }
        let warned = match warnings {
            0 => String::new(),
            n => format!(", {n} warning(s)"),
        };
        if valid {
            say!("{name}: ok{warned}");
        } else if errors == 0 {
            let name = printable(&name);
            eprintln!("{name}: {warnings} warning(s), denied by --deny-warnings");
        } else {
            eprintln!("{}: {errors} error(s){warned}", printable(&name));
        }
    }
    if options.json {
        say!(
            "{}",
            serde_json::to_string_pretty(&json!({ "valid": all_valid, "files": reports }))?
        );
    }
    Ok(all_valid)
}

/// Warnings from `games` random games of a valid rules file (on every core): games only a guard
/// ended, stones or checkers not conserved, a seat that won every game, a condition of the rules
/// that never held. Each is placed where it is most likely about.
fn simulate(source: &Source, game: &AnyGame, games: u64) -> Vec<Diagnostic> {
    let setup = Setup {
        players: [Spec::from(Random); 2],
        games,
        seed: 1,
        shard: Shard::WHOLE,
    };
    let t = ludus_table::with_game!(game, g => analysis::run(g, &setup, |_| ()));
    let Ok(doc) = RulesDoc::parse_source(source) else {
        return Vec::new();
    };
    let at = |tables: &[&str]| {
        tables
            .iter()
            .find_map(|t| doc.table_span(t))
            .unwrap_or(0..0)
    };
    let mut warnings = Vec::new();
    let played = format!("in {games} random game(s)");
    let single = if t.single_games == games {
        format!("{games} random games")
    } else {
        format!("the {} games of {games} random matches", t.single_games)
    };
    let guards = game.guards();
    if let Some(&n) = t.ended_by.get(analysis::PLY_GUARD) {
        warnings.push(
            Diagnostic::warning(format!(
                "{n} of {single} ran into the ply guard ({} plies): the rules may never end \
                 a game",
                guards.plies
            ))
            .at(at(&["end", "game"]))
            // Both families' words: no capture in a sowing game, no checker home in a tables
            // game, are the same thing, play that goes round in circles.
            .note(
                "an end condition that cannot hold, or play that can go round in circles for ever",
            ),
        );
    }
    if let Some(&n) = t.ended_by.get(analysis::MATCH_GUARD) {
        warnings.push(
            Diagnostic::warning(format!(
                "{n} of the {games} random matches ran into the match guard ({} games): the \
                 match rules may never end a match",
                guards.games.unwrap_or(0)
            ))
            .at(at(&["match", "game"])),
        );
    }
    if t.cut_short > 0 {
        warnings.push(
            Diagnostic::warning(format!(
                "{} of the {} moves {played} were cut short: a sowing reached the lap cap, or \
                 relayed back to a position it had already seen in the move",
                t.cut_short, t.decisions
            ))
            .at(at(&["sowing", "game"]))
            .note("the rules may let a sowing go on for ever; `max_laps` sets the cap"),
        );
    }
    if t.not_conserved > 0 {
        warnings.push(
            Diagnostic::warning(format!(
                "stones or checkers were created or lost in {} move(s) {played}",
                t.not_conserved
            ))
            .at(at(&["game"]))
            .note("a defect of Ludus, not of the rules file: please report it with the file"),
        );
    }
    if t.steps > 0 {
        warnings.push(
            Diagnostic::warning(format!(
                "{} of the {} moves {played} were single steps of turns too big to list whole \
                 (more than {} moves, or more than {} sequences of steps searched to find them)",
                t.steps, t.decisions, LIMITS.turn_moves, LIMITS.turn_sequences
            ))
            .at(at(&["dice", "moves", "game"]))
            .note(
                "such turns are played one die at a time, and the computer players judge them \
                 step by step, not whole",
            ),
        );
    }
    for (seat, name) in game.player_names().iter().enumerate() {
        if games >= 10 && t.seat_wins[seat] == games {
            warnings.push(
                Diagnostic::warning(format!("{name} won every one of the {games} random games"))
                    .at(at(&["setup", "game"]))
                    .note("a start or a rule that favours one side so much is likely a mistake"),
            );
        }
    }
    for (condition, &n) in &t.conditions_held {
        if n > 0 {
            continue;
        }
        let path: Vec<&str> = condition.split('.').collect();
        let what = match condition.as_str() {
            "capture.when" => "no capture was made",
            "sowing.take" => "no pit was taken on a drop",
            "house.when" => "no house was made",
            "sowing.relay_when" => "no relay lift was let happen",
            "sowing.relay_choice" => "no stop of a relay was offered",
            _ => "no player moved again",
        };
        warnings.push(
            Diagnostic::warning(format!(
                "{what} {played}: `{condition}` never held, a likely mistake"
            ))
            .at(doc.value_span(&path).unwrap_or(0..0)),
        );
    }
    warnings
}
