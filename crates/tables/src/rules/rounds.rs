//! `[match]`: games played until a player's points reach a target, maybe several rules files
//! in turn (`games`, Tavli's Portes, Plakoto and Fevga): each is read and checked here as a
//! single game, its problems reported at its name.

use super::{board, checked, dice, game_rules, moves, own_game, score, scoring, setup, win};
use super::{Cx, Played, REFERENCE};
use crate::{GameRules, TablesGame};
use ludus_core::diagnostics::Diagnostic;
use ludus_core::game::{next_first_text, NextFirst};
use ludus_core::limits::{excerpt, LIMITS};
use ludus_core::rules::reference::{KeyRef, SectionRef};
use ludus_core::rules::{Origin, RulesDoc, Source};
use serde::Deserialize;
use std::fmt::Write;
use toml::Spanned;

/// The most points a match may be played to.
const MAX_TARGET: i64 = LIMITS.match_points as i64;

/// `[match]` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchTable {
    pub target: Spanned<i64>,
    /// The games played in turn, each a rules file (a bundled name, or a path from this file's
    /// folder): Tavli's `["portes", "plakoto", "fevga"]`. The file then has no rules of its own.
    #[serde(default)]
    pub games: Option<Spanned<Vec<Spanned<String>>>>,
    /// Who starts the next game (the starting ritual again by default).
    #[serde(default)]
    pub next_first: Option<Spanned<NextFirst>>,
}

pub(crate) const SECTION: SectionRef = SectionRef {
    name: "match",
    line: "games played until a player's points reach a target, maybe several in turn",
    required: false,
    repeated: false,
    keys: KEYS,
};

const KEYS: &[KeyRef] = &[
    KeyRef {
        section: "match",
        key: "target",
        line: "games are played until a player's points reach this",
        expects: "a whole number from 1 to 10000",
        values: &[],
        default: "—",
        example: "target = 7",
        long: "Games are played until a player's points reach `target` (1..10000); the protocol's \
               `next` starts the next game. Without `[match]`, a single game.",
    },
    KeyRef {
        section: "match",
        key: "next_first",
        line: "who starts the next game of a match",
        expects: "\"ritual\", \"loser\", \"winner\" or \"alternate\"",
        values: &["ritual", "loser", "winner", "alternate"],
        default: "\"ritual\"",
        example: "next_first = \"loser\"",
        long: "Who starts the next game: \"ritual\" (the starting ritual is held again before \
               every game, as the source texts describe it), \"loser\" or \"winner\" of the last \
               game, or \"alternate\" (the player who did not start); after a draw, \"loser\" and \
               \"winner\" also mean the player who did not start.",
    },
    KeyRef {
        section: "match",
        key: "games",
        line: "the rules files of the games the match plays in turn",
        expects: "a list of 1 to 16 bundled names or paths, such as \
                  `[\"portes\", \"plakoto\", \"fevga\"]`",
        values: &[],
        default: "the file's own game",
        example: "games = [\"portes\", \"plakoto\", \"fevga\"]",
        long: "The match plays these games in turn, the first again after the last (Tavli): game \
               n by the rules of entry (n - 1) mod the number of entries. Each entry is a bundled \
               game or a path from this file's folder (a bundled file names bundled games only), \
               a single tables game with its own board, dice, setup, moves and scoring; the games \
               throw the same dice and start by the same ritual, and their own `[match]` is not \
               read. The file then has `[game]`, `[match]` and maybe `[ai]` only.",
    },
];

/// A match, compiled: its target and who starts each next game.
#[derive(Clone, Debug)]
pub(crate) struct MatchRules {
    pub(crate) target: i32,
    pub(crate) next_first: NextFirst,
}

/// `[match]`: the target (within the match points' cap) and who starts each next game.
pub(super) fn check(cx: &mut Cx, table: &MatchTable) -> Option<MatchRules> {
    let target = *table.target.get_ref();
    let in_range = (1..=MAX_TARGET).contains(&target);
    if !in_range {
        cx.errors.push(
            Diagnostic::new(format!("match target {target} is out of range"))
                .at(table.target.span())
                .note(format!("a match is played to 1 to {MAX_TARGET} points")),
        );
    }
    let next_first = table
        .next_first
        .as_ref()
        .map_or(NextFirst::Ritual, |n| *n.get_ref());
    in_range.then_some(MatchRules {
        target: target as i32,
        next_first,
    })
}

/// The tables that set one game's rules: a file that names its games in `[match] games` has
/// none of them.
const GAME_SECTIONS: [SectionRef; 7] = [
    board::SECTION,
    dice::SECTION,
    setup::SECTION,
    moves::SECTION,
    scoring::SECTION,
    win::SECTION,
    score::SECTION,
];

/// The games of `[match] games`, each read from its rules file (named from `origin`) and checked
/// as a single game; all thrown with the same dice and started by the same ritual.
pub(super) fn rotation(
    cx: &mut Cx,
    origin: &Origin,
    games: &Spanned<Vec<Spanned<String>>>,
) -> Option<Vec<Played>> {
    // The text as read (maybe repaired), so that these places are put back like the others.
    if let Ok(doc) = RulesDoc::parse(cx.text) {
        for section in GAME_SECTIONS.iter().filter(|s| doc.has(s.name)) {
            cx.errors.push(
                Diagnostic::new(format!(
                    "a match of `games` has no rules of its own: leave `{}` out",
                    section.header()
                ))
                .at(doc.table_span(section.name).unwrap_or(0..0))
                .note("each game's rules file sets its own board, dice, setup, moves and scoring"),
            );
        }
    }
    let entries = games.get_ref();
    if entries.is_empty() || entries.len() > LIMITS.rotation_games {
        cx.errors.push(
            Diagnostic::new(format!(
                "`games` names {} games; a match plays 1 to {} in turn",
                entries.len(),
                LIMITS.rotation_games
            ))
            .at(games.span())
            .note("e.g. games = [\"portes\", \"plakoto\", \"fevga\"]"),
        );
        return None;
    }
    let mut played: Vec<(&Spanned<String>, Played)> = Vec::new();
    for entry in entries {
        match game_of_match(origin, entry.get_ref()) {
            Ok(game) => played.push((entry, game)),
            Err(d) => cx.errors.push(d.at(entry.span())),
        }
    }
    if let Some(((first_name, first), rest)) = played.split_first() {
        for (name, game) in rest {
            if game.dice != first.dice {
                cx.errors.push(
                    Diagnostic::new(format!(
                        "`{}` throws {}, the first game `{}` {}",
                        excerpt(name.get_ref()),
                        dice::words(game.dice),
                        excerpt(first_name.get_ref()),
                        dice::words(first.dice)
                    ))
                    .at(name.span())
                    .note("every game of a match is played with the same dice"),
                );
            }
            if game.ritual != first.ritual {
                cx.errors.push(
                    Diagnostic::new(format!(
                        "`{}` starts by the ritual \"{}\", the first game `{}` by \"{}\"",
                        excerpt(name.get_ref()),
                        game.ritual.name(),
                        excerpt(first_name.get_ref()),
                        first.ritual.name()
                    ))
                    .at(name.span())
                    .note("every game of a match starts the same way (`[setup] ritual`)"),
                );
            }
        }
    }
    (played.len() == entries.len()).then(|| played.into_iter().map(|(_, g)| g).collect())
}

/// One game of `[match] games`: the rules file it names, read and checked as a single game. The
/// error (to be placed at the name) says what is wrong without quoting a file that is not a
/// rules file.
fn game_of_match(origin: &Origin, name: &str) -> Result<Played, Diagnostic> {
    let source = Source::find_from(origin, name).map_err(|e| Diagnostic::new(e.to_string()))?;
    let shown = excerpt(&source.name);
    let doc = RulesDoc::parse_source(&source)
        .ok()
        .filter(|doc| doc.has("game"))
        .ok_or_else(|| {
            Diagnostic::new(format!(
                "`{shown}` is not a rules file: it is not TOML with a [game] table"
            ))
        })?;
    if let Some(family) = doc.string(&["game", "family"]) {
        if family.get_ref() != REFERENCE.family {
            return Err(Diagnostic::new(format!(
                "`{shown}` is a game of the {} family, not a tables game",
                excerpt(family.get_ref())
            ))
            .note("a tables match plays tables games"));
        }
    }
    // Only single games: a match naming another match (or itself) would never end reading.
    if doc.has_path(&["match", "games"]) {
        return Err(
            Diagnostic::new(format!("`{shown}` plays several games in turn itself")).note(
                "the games of a match are single games: a match names no match, itself included",
            ),
        );
    }
    let (game, found) = checked(&doc, own_game);
    let errors: Vec<&Diagnostic> = found.iter().filter(|d| d.is_error()).collect();
    match (game, errors.first()) {
        (Some(mut game), None) => {
            // Its own `[ai] network`, found from its own folder.
            if let Some(name) = doc.string(&["ai", "network"]) {
                let net = ludus_core::net::find(&source.origin, name.get_ref())
                    .map_err(|why| Diagnostic::new(format!("`{shown}`: {why}")))?;
                game.rules.network = Some(std::sync::Arc::new(net));
            }
            Ok(game)
        }
        (_, first) => {
            let at = first.map_or(String::new(), |d| {
                let start = d.span.as_ref().map_or(0, |s| s.start);
                let (line, column) = ludus_core::diagnostics::line_column(doc.text(), start);
                format!("; the first, at {shown}:{line}:{column}: {}", d.message)
            });
            Err(
                Diagnostic::new(format!("`{shown}` has {} error(s){at}", errors.len()))
                    .note(format!("`ludus validate {shown}` shows them all")),
            )
        }
    }
}

/// The games a match plays in turn, each with its rules in plain words.
pub(super) fn describe_rotation(game: &TablesGame, several: &[GameRules], s: &mut String) {
    let n = several.len();
    let titles: Vec<&str> = several.iter().map(|g| g.title.as_str()).collect();
    let _ = writeln!(
        s,
        "A match of {n} games played in turn, the first again after the last: {}.",
        titles.join(", ")
    );
    for (i, g) in several.iter().enumerate() {
        let _ = writeln!(
            s,
            "Games {}, {}, {}, …: {} ({}).",
            i + 1,
            i + 1 + n,
            i + 1 + 2 * n,
            g.title,
            g.name
        );
        for line in game_rules(game, g).lines() {
            let _ = writeln!(s, "  {line}");
        }
    }
}

impl MatchRules {
    /// The match in plain words.
    pub(super) fn describe(&self, s: &mut String) {
        let _ = writeln!(
            s,
            "A match is played to {} points; {}.",
            self.target,
            next_first_text(self.next_first, "game", "the player who did not start")
        );
    }
}
