//! `[cube]`: the doubling cube. Before rolling, a player who may double offers to play on for
//! twice the stakes; the opponent takes (and owns the cube: only they may double next) or drops
//! (and loses the game at the stakes before the double). Beavers and the Jacoby rule are
//! money-game options (a match plays without them); a match plays the Crawford game without
//! the cube.

use super::Cx;
use ludus_core::diagnostics::Diagnostic;
use ludus_core::limits::LIMITS;
use ludus_core::rules::reference::{KeyRef, SectionRef};
use serde::Deserialize;
use std::fmt::Write;
use toml::Spanned;

/// `[cube]` as written.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CubeTable {
    #[serde(default)]
    pub max: Option<Spanned<i64>>,
    #[serde(default)]
    pub jacoby: Option<Spanned<bool>>,
    #[serde(default)]
    pub beavers: Option<Spanned<bool>>,
    #[serde(default)]
    pub crawford: Option<Spanned<bool>>,
}

pub(crate) const SECTION: SectionRef = SectionRef {
    name: "cube",
    line: "the doubling cube: doubles offered before rolling, taken or dropped",
    required: false,
    repeated: false,
    keys: KEYS,
};

const KEYS: &[KeyRef] = &[
    KeyRef {
        section: "cube",
        key: "max",
        line: "the highest value the cube may reach",
        expects: "a power of two from 2 to 1024",
        values: &[],
        default: "1024 (the standard rules set no limit)",
        example: "max = 64",
        long: "No double takes the cube beyond this value (nor a beaver). The standard rules \
               set no limit; Ludus stops at 1024.",
    },
    KeyRef {
        section: "cube",
        key: "jacoby",
        line: "gammons and backgammons count only once the cube has been turned",
        expects: "true or false",
        values: &[],
        default: "false",
        example: "jacoby = true",
        long: "The Jacoby rule of money play: while the cube is still in the middle at 1, a \
               game won scores 1 whatever `[scoring] points` says (no gammon or backgammon). \
               A money-game rule: a match plays without it (a warning).",
    },
    KeyRef {
        section: "cube",
        key: "beavers",
        line: "a doubled player may beaver: take and at once double again, keeping the cube",
        expects: "true or false",
        values: &[],
        default: "false",
        example: "beavers = true",
        long: "A doubled player may answer `beaver`: they take and redouble at once, so the \
               cube stands at four times its value before the double, and they keep it; the \
               doubler then rolls. A money-game rule: a match plays without it (a warning).",
    },
    KeyRef {
        section: "cube",
        key: "crawford",
        line: "in a match, the game after a player first comes within one point of winning is played without the cube",
        expects: "true or false",
        values: &[],
        default: "true with `[match]`",
        example: "crawford = false",
        long: "The Crawford rule of match play: the first game after a player's points reach \
               one short of the target (the Crawford game) is played without doubling; the \
               games after it (post-Crawford) with the cube again. Means something only with \
               `[match]`.",
    },
];

/// The cube, compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CubeRules {
    /// The highest value, as a power of two: the cube stands at 2^log.
    pub(crate) max_log: u8,
    pub(crate) jacoby: bool,
    pub(crate) beavers: bool,
    pub(crate) crawford: bool,
}

/// `[cube]`, checked against `[match]` (`in_match`): the money-game options are refused in a
/// match, the Crawford rule means nothing without one.
pub(super) fn check(cx: &mut Cx, table: &CubeTable, in_match: bool) -> Option<CubeRules> {
    let highest = i64::from(LIMITS.cube);
    let max = cx.number(table.max.as_ref(), highest, 2..=highest, "a cube of");
    if !(max as u64).is_power_of_two() {
        if let Some(v) = &table.max {
            cx.errors.push(
                Diagnostic::new(format!("a cube of {max} is not a power of two"))
                    .at(v.span())
                    .note("the cube doubles: 2, 4, 8, 16, 32, 64, ..."),
            );
        }
    }
    let flag = |v: &Option<Spanned<bool>>| v.as_ref().is_some_and(|b| *b.get_ref());
    if in_match {
        for (key, value) in [("jacoby", &table.jacoby), ("beavers", &table.beavers)] {
            if let Some(v) = value.as_ref().filter(|v| *v.get_ref()) {
                cx.warnings.push(
                    Diagnostic::warning(format!(
                        "`{key}` is a money-game rule: a match plays without it"
                    ))
                    .at(v.span())
                    .note("a match counts gammons and plays without beavers: leave it out"),
                );
            }
        }
    } else if let Some(v) = &table.crawford {
        cx.warnings.push(
            Diagnostic::warning("`crawford` means nothing without `[match]`")
                .at(v.span())
                .note("the Crawford rule concerns the game after a player comes within a point of winning a match"),
        );
    }
    Some(CubeRules {
        max_log: (max as u64).max(2).ilog2() as u8,
        jacoby: !in_match && flag(&table.jacoby),
        beavers: !in_match && flag(&table.beavers),
        crawford: in_match && table.crawford.as_ref().is_none_or(|b| *b.get_ref()),
    })
}

impl CubeRules {
    /// The cube in plain words.
    pub(super) fn describe(&self, s: &mut String) {
        let _ = writeln!(
            s,
            "The doubling cube: before rolling, a player may double when the cube is in the \
             middle or their own (not before the game's first turn); the opponent takes, \
             owning the cube at twice the value, or drops and loses the game at its value \
             before the double. The winner scores the game's points times the cube; the cube \
             goes up to {}.",
            1u32 << self.max_log
        );
        if self.beavers {
            let _ = writeln!(
                s,
                "Beavers: a doubled player may take and at once double again, keeping the cube."
            );
        }
        if self.jacoby {
            let _ = writeln!(
                s,
                "The Jacoby rule: gammons and backgammons count only once the cube has been turned."
            );
        }
        if self.crawford {
            let _ = writeln!(
                s,
                "The Crawford rule: the game after a player first comes within one point of \
                 the target is played without doubling."
            );
        }
    }
}
