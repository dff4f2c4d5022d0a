//! `[end]`: games that end otherwise than by a winning position: by the rules' own ply limit, when
//! a player can play no die (a loss where the rules say so), or drawn when the players
//! are deadlocked, passing turn after turn.

use super::Cx;
use crate::GameRules;
use ludus_core::diagnostics::Diagnostic;
use ludus_core::limits::LIMITS;
use ludus_core::rules::reference::{KeyRef, SectionRef};
use serde::Deserialize;
use std::fmt::Write;
use toml::Spanned;

/// `[end]` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndTable {
    #[serde(default)]
    pub max_plies: Option<Spanned<i64>>,
    #[serde(default)]
    pub passes: Option<Spanned<i64>>,
    /// Read as a [`NoMove`].
    #[serde(default)]
    pub no_move: Option<Spanned<String>>,
}

/// `[end] no_move`: what becomes of a player who can play no die of the throw.
#[derive(Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(super) enum NoMove {
    /// The turn passes.
    Pass,
    /// The player loses.
    Loses,
}

pub(crate) const SECTION: SectionRef = SectionRef {
    name: "end",
    line: "how a game ends besides its winning positions: a ply limit, a deadlock, a player with no move",
    required: false,
    repeated: false,
    keys: KEYS,
};

const KEYS: &[KeyRef] = &[
    KeyRef {
        section: "end",
        key: "max_plies",
        line: "the game is drawn after this many turns",
        expects: "a whole number of 1 or more",
        values: &[],
        default: "none",
        example: "max_plies = 400",
        long: "A game not won after this many turns (a pass is a turn) is drawn, scoring \
               nothing (`--max-plies` overrides it); every game ends by 100000 turns at the \
               latest, a guard against rules that never end.",
    },
    KeyRef {
        section: "end",
        key: "passes",
        line: "the game is drawn once the players have passed this many turns in a row",
        expects: "a whole number of 1 or more",
        values: &[],
        default: "none",
        example: "passes = 20",
        long: "A deadlock: when this many turns in a row, of either player, are passes (no \
               die could be played), the game is drawn, scoring nothing. Blocking games can \
               reach positions where neither side can ever move again.",
    },
    KeyRef {
        section: "end",
        key: "no_move",
        line: "what happens when the player to move has no legal move: they pass, or they lose",
        expects: "\"pass\" or \"loses\"",
        values: &["pass", "loses"],
        default: "\"pass\"",
        example: "no_move = \"loses\"",
        long: "\"pass\": a player who can play no die of the throw passes the turn. \"loses\": \
               that player loses at once, the opponent scoring `[scoring] points` (Fallas: \
               \"any roll that allows the player only to move to spaces occupied by the \
               opponent results in an automatic loss\"); dice given without a throw (`[dice] \
               unplayed`, `[[dice.after]]`) that cannot be played pass as usual.",
    },
];

/// `[end]` compiled.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct EndRule {
    pub(crate) max_plies: Option<u32>,
    pub(crate) passes: Option<u16>,
    /// A player who can play no die of a throw loses.
    pub(crate) no_move_loses: bool,
}

/// Checks `[end]` (absent: no rule).
pub(super) fn check(cx: &mut Cx, table: Option<&EndTable>) -> EndRule {
    let Some(table) = table else {
        return EndRule::default();
    };
    let guard = i64::from(LIMITS.plies_per_game);
    let max_plies = table.max_plies.as_ref().map(|v| {
        let n = cx.number(Some(v), guard, 1..=guard, "a ply limit of");
        if n == guard && *v.get_ref() == guard {
            cx.warnings.push(
                Diagnostic::warning("every game ends by this many turns anyway (the ply guard)")
                    .at(v.span()),
            );
        }
        n as u32
    });
    let passes = table
        .passes
        .as_ref()
        .map(|v| cx.number(Some(v), 1, 1..=1_000, "a deadlock of") as u16);
    let no_move_loses = cx.option("end", "no_move", table.no_move.as_ref()) == Some(NoMove::Loses);
    EndRule {
        max_plies,
        passes,
        no_move_loses,
    }
}

/// The draws, in plain words.
pub(super) fn describe(rules: &GameRules, s: &mut String) {
    let EndRule {
        max_plies,
        passes,
        no_move_loses,
    } = rules.end;
    if no_move_loses {
        let _ = writeln!(s, "A player who can play no die of a throw loses at once.");
    }
    if let Some(n) = max_plies {
        let _ = writeln!(s, "A game not won after {n} turns is drawn.");
    }
    if let Some(n) = passes {
        let _ = writeln!(
            s,
            "A game is drawn once {n} turn(s) in a row are passes (a deadlock)."
        );
    }
}
