//! `[house]`: pits that become a player's houses for the rest of the game (Toguz Korgool's
//! tuzdyk, the children of Ethiopian games): their stones, and every stone later sown into
//! them, go to that player's store, or stay in them for that player (`keeps`: wegs, waldas).

use super::{Cx, Laid};
use crate::fast::Closes;
use crate::scope::{Context, PitCond, View};
use ludus_core::expr::Expr;
use ludus_core::rules::reference::{KeyRef, SectionRef};
use ludus_core::rules::toml::constant_value;
use serde::Deserialize;
use std::fmt::Write;
use toml::Spanned;

/// `[house]` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct House {
    /// Checked once the sowing has ended: the last pit becomes the mover's house (context
    /// `house`); none: no house is made during play.
    #[serde(default)]
    pub when: Option<Spanned<String>>,
    /// The pits that are their owners' houses when a game begins, in each owner's numbering
    /// (one list for both players, or one each).
    #[serde(default)]
    pub start: Option<Spanned<Vec<Spanned<Vec<u32>>>>>,
    /// Whether the mover may decline the house.
    #[serde(default)]
    pub choice: HouseChoice,
    /// The most houses a player may hold.
    #[serde(default)]
    pub most: Option<Spanned<u32>>,
    /// Whether a house keeps the stones sown into it (for its owner) instead of sending them to
    /// the owner's store at once.
    #[serde(default)]
    pub keeps: bool,
    /// A second pit that becomes the mover's house with the last one, when `also_when` holds.
    #[serde(default)]
    pub also: Option<Spanned<AlsoPit>>,
    /// When the `also` pit becomes a house too (context house); always, when left out.
    #[serde(default)]
    pub also_when: Option<Spanned<String>>,
}

/// `also`: the second pit of a pair of houses.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum AlsoPit {
    /// The pit before the last, the way the move sowed.
    Prior,
    /// The pit facing the last across the board.
    Opposite,
}

/// Whether the mover may decline a house `when` allows.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum HouseChoice {
    /// The house is made.
    #[default]
    None,
    /// The mover makes it or leaves it.
    Mover,
}

pub(crate) const SECTION: SectionRef = SectionRef {
    name: "house",
    line: "pits that become the mover's houses (a tuzdyk, children) for the rest of the game",
    required: false,
    repeated: false,
    keys: KEYS,
};

const KEYS: &[KeyRef] = &[
    KeyRef {
        section: "house",
        key: "when",
        line: "context house: once the sowing has ended, the last pit becomes the mover's house when this holds",
        expects: "a condition in quotes, such as `\"last.side == opponent and last.count == 3\"`",
        values: &[],
        default: "none (no house is made during play)",
        example: "when = \"last.side == opponent and last.count == 3 and mover.house == 0\"",
        long: "A condition (context house: the views of context capture, `mover.house`, \
               `opponent.house`, `mover.houses`, `opponent.houses`, `sown`, `laps`, `relays`) \
               checked once the sowing has ended, before the capture; when it holds, the last \
               pit becomes the mover's house (Toguz Korgool's tuzdyk) for the rest of the game: \
               the stones in it, and every stone sown into it later, go at once to the mover's \
               store. A player holds at most `most` houses (one by default); stores, out-of-play \
               pits and houses never become one.",
    },
    KeyRef {
        section: "house",
        key: "start",
        line: "the pits that are their owners' houses when a game begins",
        expects: "a list of pit-number lists: one for both players (`[[8]]`) or one each",
        values: &[],
        default: "none",
        example: "start = [[6]]",
        long: "Pit numbers in each owner's numbering, one list used by both players or one list \
               each: those pits are their owners' houses from the start of every game (and \
               round played afresh), as houses made during play are (Rath: each player's \
               rightmost hole, `start = [[8]]`, with `keeps = true`; without `when` no other \
               house is ever made). Numbers past the player's own pits go on across the board \
               (n + 1 is the opponent's pit 1: a house there, as a set opening leaves one in \
               Gabata). They count toward `most`.",
    },
    KeyRef {
        section: "house",
        key: "most",
        line: "the most houses a player may hold",
        expects: "a whole number from 1 to 62",
        values: &[],
        default: "1",
        example: "most = 16",
        long: "A player who holds this many houses makes no more (`house.when` is not checked \
               for them). One by default (Toguz Korgool's tuzdyk); more for games whose players \
               make houses all through the game (the children of Ethiopian games, Qelat's \
               waldas): `mover.houses` counts them, `V.house` names a pit's house owner.",
    },
    KeyRef {
        section: "house",
        key: "keeps",
        line: "whether a house keeps its stones (for its owner) instead of sending them to the owner's store",
        expects: "true or false",
        values: &[],
        default: "false",
        example: "keeps = true",
        long: "false: a house's stones, and every stone sown into it later, go at once to its \
               owner's store (Toguz Korgool). true: they stay in it, the owner's (the wegs of \
               Ethiopian games, Qelat's waldas): a house never starts a move and is never \
               lifted by a relay; its stones are not in the pits of the side it is on \
               (`mover.pits`, feeding, sweeps, stones left at the end) but count in its \
               owner's `held` (`V.house` and `mover.housed` name them), and they go to its \
               owner's store when the game ends. A capture may take from a house when its \
               conditions say so (`capture.when = \"last.house == opponent\"`, with \
               `capture.take_max` for \"the last stone and one more\").",
    },
    KeyRef {
        section: "house",
        key: "choice",
        line: "whether the mover may decline a house: \"none\" (it is made) or \"mover\"",
        expects: "\"none\" or \"mover\"",
        values: &["none", "mover"],
        default: "\"none\"",
        example: "choice = \"mover\"",
        long: "\"none\": a pit `when` matches becomes the mover's house. \"mover\": the mover \
               decides, a step of play of its own (`take` to make the house, `leave` to decline \
               it), before the capture; a pit left stays an ordinary pit and the move goes on to \
               the capture (Toguz Korgool, where a player \"may\" make a tuzdyk). The feeding \
               and grand-slam checks of the legal moves try each move with every house made.",
    },
    KeyRef {
        section: "house",
        key: "also",
        line: "a second pit that becomes the mover's house with the last one: the pit before it, or the pit facing it",
        expects: "\"prior\" or \"opposite\"",
        values: &["prior", "opposite"],
        default: "none",
        example: "also = \"prior\"",
        long: "When `when` makes the last pit the mover's house and `also_when` holds (always, \
               without it), this pit becomes one of theirs too, in the same move: \"prior\" (the \
               pit before the last, the way the move sowed: the view `prior`) or \"opposite\" \
               (the pit facing the last). Not a store, an out-of-play pit or a house already, \
               and only while the mover may hold two more (`most`). Enkeshui's bulls: a last pit \
               of four, or a last pit and the pit before it holding three and four, `also = \
               \"prior\"`.",
    },
    KeyRef {
        section: "house",
        key: "also_when",
        line: "context house: when the `also` pit becomes a house too",
        expects: "a condition in quotes, such as `\"prior.count + last.count == 7\"`",
        values: &[],
        default: "always (with `also`)",
        example: "also_when = \"prior.count * last.count == 12\"",
        long: "A condition (context house) checked with `when`: the second pit becomes a house \
               only when it holds.",
    },
];

/// Houses, compiled.
#[derive(Clone, Debug)]
pub(crate) struct HouseRule {
    /// When the last pit becomes the mover's house (none: never during play).
    pub(crate) when: Option<PitCond>,
    /// Whether the mover may decline the house.
    pub(crate) choice: HouseChoice,
    /// The most houses a player may hold.
    pub(crate) most: u32,
    /// Houses keep their stones for their owners.
    pub(crate) keeps: bool,
    /// A second pit made a house with the last (`also`), when its condition holds.
    pub(crate) also: Option<(AlsoPit, Option<PitCond>)>,
}

/// The most houses a rules file may allow a player (a house is a pit: 32 slots at most).
const MOST: u32 = 2 * crate::board::MAX_SIDE as u32;

/// `[house]` checked, its condition compiled, before the board is laid out.
pub(super) struct Checked {
    when: Option<Expr>,
    choice: HouseChoice,
    most: u32,
    keeps: bool,
    also: Option<(AlsoPit, Option<Expr>)>,
}

/// Checks `[house]`; `None` when an error was reported.
pub(super) fn check(cx: &mut Cx, table: &Spanned<House>) -> Option<Checked> {
    let h = table.get_ref();
    let when = h.when.as_ref().map(|w| cx.condition(Context::House, w));
    if let (Some(w), Some(Some(e))) = (&h.when, &when) {
        if constant_value(e) == Some(0) {
            cx.warn(
                w.span(),
                "`house.when` is always false: no pit ever becomes a house",
            )
            .notes
            .push(
                "leave `when` out for houses only at the start, `[house]` out for none".to_string(),
            );
        }
    }
    if h.when.is_none() && h.start.is_none() {
        cx.error(
            table.span(),
            "`[house]` names no house: give `when`, `start`, or both",
        )
        .notes
        .push(
            "when = \"last.count == 4\" makes houses during play; start = [[8]] at the start"
                .to_string(),
        );
    }
    let most = match &h.most {
        Some(v) if !(1..=MOST).contains(v.get_ref()) => {
            cx.error(v.span(), format!("`most` must be from 1 to {MOST}"));
            1
        }
        Some(v) => *v.get_ref(),
        None => 1,
    };
    let also_when = h
        .also_when
        .as_ref()
        .map(|w| cx.condition(Context::House, w));
    if let (None, Some(w)) = (&h.also, &h.also_when) {
        cx.warn(
            w.span(),
            "`also_when` without `also`: no second house is ever made",
        );
    }
    if let (Some(a), None) = (&h.also, &h.when) {
        cx.warn(
            a.span(),
            "`also` without `when`: no house is made during play",
        );
    }
    let also = match (&h.also, also_when) {
        (Some(pit), Some(cond)) => Some((*pit.get_ref(), Some(cond?))),
        (Some(pit), None) => Some((*pit.get_ref(), None)),
        (None, _) => None,
    };
    Some(Checked {
        when: match when {
            Some(w) => Some(w?),
            None => None,
        },
        choice: h.choice,
        most,
        keeps: h.keeps,
        also,
    })
}

impl Checked {
    /// The rule on the board laid out.
    pub(super) fn rule(self, laid: Laid) -> HouseRule {
        HouseRule {
            when: self.when.map(|w| laid.pit(w, View::Last)),
            choice: self.choice,
            most: self.most,
            keeps: self.keeps,
            also: self
                .also
                .map(|(pit, cond)| (pit, cond.map(|c| laid.pit(c, View::Last)))),
        }
    }
}

impl HouseRule {
    /// The fast paths this rule closes: every one that leaves houses out.
    pub(crate) fn closes(&self) -> Closes {
        let HouseRule {
            when: _,
            choice: _,
            most: _,
            keeps,
            also: _,
        } = self;
        Closes {
            bulk: false,
            plain: true,
            way: false,
            // A house that keeps stones never starts a move.
            start: *keeps,
        }
    }

    /// Houses in plain words.
    pub(super) fn describe(&self, s: &mut String) {
        let Some(when) = &self.when else {
            let _ = writeln!(
                s,
                "Houses: the pits named at the start are their owners' houses for the whole game: their stones, and every stone later sown into them, {}.",
                if self.keeps {
                    "stay in them, their owners' (nobody sows from them; they go to their owners' stores when the game ends)"
                } else {
                    "go to their owners' stores"
                }
            );
            return;
        };
        let _ = writeln!(
            s,
            "House: once the sowing has ended, before any capture, when `{}`, the last pit {} your house for the rest of the game (at most {} each): its stones, and every stone later sown into it, {}.",
            when.expr.text(),
            match self.choice {
                HouseChoice::None => "becomes",
                HouseChoice::Mover => "may become (the mover decides, make it or leave it)",
            },
            match self.most {
                1 => "one".to_string(),
                n => n.to_string(),
            },
            if self.keeps {
                "stay in it, yours (nobody sows from it; they go to your store when the game ends)"
            } else {
                "go to your store"
            }
        );
        if let Some((pit, cond)) = &self.also {
            let _ = writeln!(
                s,
                "With it, {}{} becomes your house too.",
                match pit {
                    AlsoPit::Prior => "the pit before the last (the way the move sowed)",
                    AlsoPit::Opposite => "the pit facing the last",
                },
                cond.as_ref()
                    .map_or(String::new(), |c| format!(", when `{}`,", c.expr.text()))
            );
        }
    }
}
