//! An analysis's results: the [`Part`] a shard writes (its raw [`Tally`], which `merge` adds
//! up) and the [`Report`] people and scripts read, as JSON or as a table of rules files side by
//! side.

use super::stats::{mean, percentile, wilson};
use super::{Shard, Tally};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// What a `Part` line says it is.
pub const PART_FORMAT: &str = "ludus-analysis-part/1";

/// The partial result of one shard of an analysis of one rules file: everything needed to add
/// it to the other shards and to check that they belong together.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Part {
    pub format: String,
    pub rules: String,
    /// SHA-256 of the rules text, so parts of different files under one name do not mix.
    pub digest: String,
    pub players: [String; 2],
    pub seed: u64,
    /// Games in the whole analysis (all shards).
    pub games: u64,
    pub shard: Shard,
    pub seconds: f64,
    pub tally: Tally,
}

impl Part {
    /// Whether two parts are shards of one analysis.
    pub fn same_analysis(&self, other: &Part) -> bool {
        self.rules == other.rules
            && self.digest == other.digest
            && self.players == other.players
            && self.seed == other.seed
            && self.games == other.games
            && self.shard.count == other.shard.count
    }

    /// The parts of one analysis combined, checked to be every shard once.
    pub fn merge(parts: &[Part]) -> Result<Report, String> {
        let first = parts.first().ok_or("no parts to merge")?;
        let count = first.shard.count;
        let mut seen = std::collections::BTreeSet::new();
        let mut tally = Tally::default();
        let mut seconds = 0.0;
        for part in parts {
            if !seen.insert(part.shard.index) {
                return Err(format!(
                    "{}: shard {} appears twice",
                    first.rules, part.shard
                ));
            }
            tally = tally + part.tally.clone();
            seconds += part.seconds;
        }
        // The first few shards missing (found within `parts.len() + 10` steps).
        let missing: Vec<String> = (0..count)
            .filter(|i| !seen.contains(i))
            .take(10)
            .map(|i| format!("{i}/{count}"))
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "{}: shard(s) {} missing (every one of the {count} shards is needed)",
                first.rules,
                missing.join(", ")
            ));
        }
        Ok(Report {
            rules: first.rules.clone(),
            players: first.players.clone(),
            seed: first.seed,
            tally,
            seconds,
        })
    }

    /// Why the part cannot be an analysis's shard as written (its counts do not add up).
    pub fn check(&self) -> Result<(), String> {
        let t = &self.tally;
        let shard = Shard::new(self.shard.index, self.shard.count)?;
        let expected = shard.games(self.games);
        fn total(values: impl IntoIterator<Item = u64>) -> Option<u64> {
            values
                .into_iter()
                .try_fold(0u64, |sum, n| sum.checked_add(n))
        }
        let games = expected.end - expected.start;
        let adds_up = t.games == games
            && total([t.wins[0], t.wins[1], t.draws]) == Some(games)
            && t.first_mover_wins <= games
            && total(t.seat_wins) == total(t.wins)
            && t.not_conserved <= t.decisions
            && total(t.plies.values().copied()) == Some(games)
            && total(t.ended_by.values().copied()).is_some()
            && t.conditions_held.values().all(|&n| n <= t.decisions)
            && t.choices >= t.decisions
            && t.single_games >= games
            && [t.choices, t.single_games, t.captures, t.hits]
                .iter()
                .all(|&n| n <= u64::MAX / 1024);
        if !adds_up {
            return Err(format!(
                "the counts of shard {} of {} do not add up to its {games} games",
                self.shard, self.rules
            ));
        }
        if !(self.seconds.is_finite() && self.seconds >= 0.0) {
            return Err(format!("shard {}: bad seconds", self.shard));
        }
        Ok(())
    }
}

/// The results of an analysis of one rules file.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub rules: String,
    pub players: [String; 2],
    pub seed: u64,
    pub tally: Tally,
    /// Wall-clock seconds (summed over shards when merged).
    pub seconds: f64,
}

fn rate(n: u64, of: u64) -> f64 {
    if of == 0 {
        0.0
    } else {
        n as f64 / of as f64
    }
}

/// Rounded for reading; the counts stay exact.
fn round(x: f64, places: i32) -> f64 {
    let k = 10f64.powi(places);
    (x * k).round() / k
}

impl Report {
    /// The report as one JSON object (`ludus analyze --json` prints one per line).
    pub fn to_json(&self) -> Value {
        let t = &self.tally;
        let win_rate = [rate(t.wins[0], t.games), rate(t.wins[1], t.games)];
        let ci = |w: u64| wilson(w, t.games).map(|x| round(x, 4));
        let per_game = |n: u64| round(rate(n, t.single_games), 3);
        let mut report = json!({
            "rules": self.rules,
            "games": t.games,
            "players": self.players,
            "seed": self.seed,
            "wins": t.wins,
            "draws": t.draws,
            "seat_wins": t.seat_wins,
            "losses": [t.wins[1], t.wins[0]],
            "win_rate": win_rate.map(|x| round(x, 4)),
            "ci95": [ci(t.wins[0]), ci(t.wins[1])],
            "first_mover_wins": t.first_mover_wins,
            "first_mover_rate": round(rate(t.first_mover_wins, t.games), 4),
            "first_mover_ci95": ci(t.first_mover_wins),
            "plies": {
                "mean": round(mean(&t.plies), 2),
                "p50": percentile(&t.plies, 0.5),
                "p95": percentile(&t.plies, 0.95),
                "max": t.plies.keys().next_back().copied().unwrap_or(0),
            },
            "ended_by": t.ended_by,
            "branching": round(rate(t.choices, t.decisions), 2),
            "single_games": t.single_games,
            "not_conserved": t.not_conserved,
            "conditions_held": t.conditions_held,
            "seconds": round(self.seconds, 3),
        });
        let (key, n) = if t.counts_hits {
            ("hits_per_game", t.hits)
        } else {
            ("captures_per_game", t.captures)
        };
        report[key] = json!(per_game(n));
        report
    }

    /// The reports side by side, one column per rules file.
    pub fn table(reports: &[Report]) -> String {
        let mut rows: Vec<(String, Vec<String>)> = Vec::new();
        let mut row = |name: &str, cells: Vec<String>| rows.push((name.to_string(), cells));
        let each = |f: &dyn Fn(&Report, &Value) -> String| -> Vec<String> {
            reports.iter().map(|r| f(r, &r.to_json())).collect()
        };
        let pct = |x: &Value| format!("{:.1}%", x.as_f64().unwrap_or(0.0) * 100.0);
        let ci = |x: &Value| format!("{}–{}", pct(&x[0]), pct(&x[1]));
        row("rules", each(&|r, _| r.rules.clone()));
        row("games", each(&|r, _| r.tally.games.to_string()));
        for (p, label) in ["A", "B"].iter().enumerate() {
            row(
                &format!("{label} wins"),
                each(&|r, j| {
                    format!(
                        "{} {} ({}, CI {})",
                        r.players[p],
                        r.tally.wins[p],
                        pct(&j["win_rate"][p]),
                        ci(&j["ci95"][p])
                    )
                }),
            );
        }
        row("draws", each(&|r, _| r.tally.draws.to_string()));
        row(
            "wins by seat (1st / 2nd)",
            each(&|r, _| format!("{} / {}", r.tally.seat_wins[0], r.tally.seat_wins[1])),
        );
        row(
            "first mover wins",
            each(&|r, j| {
                format!(
                    "{} ({}, CI {})",
                    r.tally.first_mover_wins,
                    pct(&j["first_mover_rate"]),
                    ci(&j["first_mover_ci95"])
                )
            }),
        );
        row(
            "plies mean/p50/p95/max",
            each(&|_, j| {
                let p = &j["plies"];
                format!("{} / {} / {} / {}", p["mean"], p["p50"], p["p95"], p["max"])
            }),
        );
        row("branching", each(&|_, j| j["branching"].to_string()));
        row(
            "captures/hits per game",
            each(
                &|_, j| match (&j["captures_per_game"], &j["hits_per_game"]) {
                    (Value::Null, hits) => format!("{hits} hits"),
                    (captures, _) => format!("{captures} captures"),
                },
            ),
        );
        let mut reasons: Vec<&String> = reports
            .iter()
            .flat_map(|r| r.tally.ended_by.keys())
            .collect();
        reasons.sort();
        reasons.dedup();
        for reason in reasons {
            row(
                &format!("ended by {reason}"),
                reports
                    .iter()
                    .map(|r| {
                        r.tally
                            .ended_by
                            .get(reason)
                            .copied()
                            .unwrap_or(0)
                            .to_string()
                    })
                    .collect(),
            );
        }
        if reports.iter().any(|r| r.tally.not_conserved > 0) {
            row(
                "moves not conserving pieces",
                each(&|r, _| r.tally.not_conserved.to_string()),
            );
        }
        row("seconds", each(&|r, _| format!("{:.2}", r.seconds)));
        let label_width = rows
            .iter()
            .map(|(l, _)| l.chars().count())
            .max()
            .unwrap_or(0);
        let widths: Vec<usize> = (0..reports.len())
            .map(|c| {
                rows.iter()
                    .map(|(_, cells)| cells[c].chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut out = String::new();
        for (label, cells) in &rows {
            out.push_str(&format!("{label:<label_width$}"));
            for (cell, w) in cells.iter().zip(&widths) {
                out.push_str(&format!("  {cell:<w$}"));
            }
            out.truncate(out.trim_end().len());
            out.push('\n');
        }
        out
    }
}
