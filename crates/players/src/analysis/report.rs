//! An analysis's results: the [`Part`] a shard writes (its raw [`Tally`], which `merge` adds
//! up) and the [`Report`] people and scripts read, as JSON or as a table of rules files side by
//! side.

use super::stats::{mean, percentile, wilson};
use super::{Shard, Tally, MATCH_GUARD, PLY_GUARD};
use crate::Spec;
use ludus_core::game::Ending;
use ludus_core::limits::{excerpt, LIMITS};
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
                    excerpt(&first.rules),
                    part.shard
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
                excerpt(&first.rules),
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

    /// Why the part cannot be an analysis's shard as written: its counts do not add up as
    /// games played count them, or it holds what no analysis writes.
    pub fn check(&self) -> Result<(), String> {
        let t = &self.tally;
        let shard = Shard::new(self.shard.index, self.shard.count)?;
        let expected = shard.games(self.games);
        let games = expected.end - expected.start;
        let bad = |why: String| {
            Err(format!(
                "the counts of shard {} of {} do not add up: {why}",
                self.shard,
                excerpt(&self.rules)
            ))
        };
        if let Some(why) = self.foreign_text() {
            return Err(format!("shard {}: {why}", self.shard));
        }
        fn total(values: impl IntoIterator<Item = u64>) -> Option<u64> {
            values
                .into_iter()
                .try_fold(0u64, |sum, n| sum.checked_add(n))
        }
        // Each move played is a decision, and a game's plies count its moves.
        let moves = t.plies.iter().try_fold(0u64, |sum, (&plies, &n)| {
            u64::from(plies).checked_mul(n)?.checked_add(sum)
        });
        let guarded = t.ended_by.get(MATCH_GUARD).copied().unwrap_or(0);
        let single = total(
            t.ended_by
                .iter()
                .filter(|(reason, _)| *reason != MATCH_GUARD)
                .map(|(_, &n)| n),
        );
        let gained = if t.counts_hits { t.hits } else { t.captures };
        let (counted, other) = if t.counts_hits {
            ("hits", t.captures)
        } else {
            ("captures", t.hits)
        };
        if t.games != games {
            return bad(format!("`games` is {}, not its {games} games", t.games));
        }
        if total([t.wins[0], t.wins[1], t.draws]) != Some(games) {
            return bad(format!("`wins` and `draws` do not make its {games} games"));
        }
        if total(t.seat_wins) != total(t.wins) {
            return bad("`seat_wins` and `wins` count different wins".into());
        }
        if t.first_mover_wins > t.wins[0].saturating_add(t.wins[1]) {
            return bad("`first_mover_wins` is more than the games won".into());
        }
        if total(t.plies.values().copied()) != Some(games) {
            return bad(format!("`plies` does not count its {games} games"));
        }
        if moves != Some(t.decisions) {
            return bad("`plies` and `decisions` count different moves".into());
        }
        if t.single_games < games || t.single_games / u64::from(LIMITS.games_per_match) > games {
            return bad(format!(
                "{} single games in {games} games or matches",
                t.single_games
            ));
        }
        if let Some(reason) = t.ended_by.keys().find(|r| !is_ending(r)) {
            return bad(format!(
                "`ended_by` counts `{}`, not a way a game ends",
                excerpt(reason)
            ));
        }
        if single != Some(t.single_games) {
            return bad(format!(
                "`ended_by` does not count its {} single games",
                t.single_games
            ));
        }
        if guarded > games {
            return bad(format!(
                "more matches ended by the {MATCH_GUARD} than {games}"
            ));
        }
        if t.not_conserved != 0 {
            return bad(format!(
                "`not_conserved` is {}: an analysis creates or loses no piece",
                t.not_conserved
            ));
        }
        if gained > t.decisions || other != 0 {
            return bad(format!(
                "{} {counted} in {} moves (a move counts once; the rules count {counted} only)",
                gained, t.decisions
            ));
        }
        if let Some((condition, _)) = t.conditions_held.iter().find(|(_, &n)| n > t.decisions) {
            return bad(format!(
                "`{}` held in more moves than were played",
                excerpt(condition)
            ));
        }
        if t.choices < t.decisions || t.choices > u64::MAX / 1024 {
            return bad(format!(
                "{} choices at {} decisions",
                t.choices, t.decisions
            ));
        }
        if !(self.seconds.is_finite() && self.seconds >= 0.0) {
            return Err(format!("shard {}: bad seconds", self.shard));
        }
        Ok(())
    }

    /// What in the part's words no analysis writes: players that are not computer players as
    /// they print, a digest that is not SHA-256 in hex, a condition named with control
    /// characters. (The rules name is the rules file's own, printed escaped.)
    fn foreign_text(&self) -> Option<String> {
        for p in &self.players {
            match p.parse::<Spec>() {
                Ok(spec) if spec != Spec::Human && spec.to_string() == *p => {}
                _ => return Some(format!("`{}` is not a computer player", excerpt(p))),
            }
        }
        let hex = |c: char| c.is_ascii_digit() || ('a'..='f').contains(&c);
        if self.digest.len() != 64 || !self.digest.chars().all(hex) {
            return Some(format!(
                "digest `{}` is not a SHA-256 in hex",
                excerpt(&self.digest)
            ));
        }
        let named = |c: char| c.is_ascii_graphic() || c == ' ';
        if let Some(condition) = self
            .tally
            .conditions_held
            .keys()
            .find(|k| !k.chars().all(named))
        {
            return Some(format!("condition `{}` is not a name", excerpt(condition)));
        }
        None
    }
}

/// Whether an analysis counts games as ending so.
fn is_ending(reason: &str) -> bool {
    reason == PLY_GUARD || reason == MATCH_GUARD || Ending::ALL.iter().any(|e| e.word() == reason)
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
            "cut_short": t.cut_short,
            "conditions_held": t.conditions_held,
            "seconds": round(self.seconds, 3),
        });
        let (key, n) = if t.counts_hits {
            ("hits_per_game", t.hits)
        } else {
            ("captures_per_game", t.captures)
        };
        report[key] = json!(per_game(n));
        report["points"] = json!(t.points);
        report["points_per_game"] = json!(t.points.map(|p| round(rate(p, t.single_games), 3)));
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
        if reports.iter().any(|r| r.tally.counts_hits) {
            row(
                "points a game (A / B)",
                each(&|_, j| {
                    let p = &j["points_per_game"];
                    format!("{} / {}", p[0], p[1])
                }),
            );
        }
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
        if reports.iter().any(|r| r.tally.cut_short > 0) {
            row(
                "moves cut short",
                each(&|r, _| r.tally.cut_short.to_string()),
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
