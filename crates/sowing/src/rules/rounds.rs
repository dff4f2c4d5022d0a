//! `[match]`: games repeated as rounds, each player refilling their pits from the stones they
//! won.

use super::Cx;
use ludus_core::game::{next_first_text, NextFirst};
use ludus_core::limits::LIMITS;
use ludus_core::rules::reference::{KeyRef, SectionRef};
use serde::Deserialize;
use std::fmt::Write;
use toml::Spanned;

/// `[match]` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Match {
    /// Stones per pit when a player refills their pits; fewer loses the match.
    pub refill: Spanned<u32>,
    /// The pits a player must be able to fill to play on; fewer loses the match.
    #[serde(default)]
    pub min_pits: Option<Spanned<u32>>,
    #[serde(default)]
    pub fill_from: FillFrom,
    #[serde(default)]
    pub partial: Partial,
    #[serde(default)]
    pub next_first: NextFirst,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum FillFrom {
    /// From the owner's pit with the highest number (their rightmost on a two-row board) down.
    #[default]
    Right,
    Left,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Partial {
    /// The partly filled pit keeps its stones but is out of play, like the unfilled ones.
    #[default]
    Closed,
    Open,
    /// The stones short of a full pit go to the store; the pit stays empty, out of play.
    Store,
}

pub(crate) const SECTION: SectionRef = SectionRef {
    name: "match",
    line: "games repeated as rounds, each player refilling their pits from the stones they won",
    required: false,
    repeated: false,
    keys: KEYS,
};

const KEYS: &[KeyRef] = &[
    KeyRef {
        section: "match",
        key: "refill",
        line: "stones per pit when each player refills their pits at the end of a round",
        expects: "a whole number of 1 or more (at most half the stones in the game)",
        values: &[],
        default: "—",
        example: "refill = 7",
        long: "At the end of a round each player refills their pits with this many stones each \
               from the stones they hold (store and side); a player holding fewer than one pit's \
               worth loses the match. Stones beyond a full refill go to the store, where they stay \
               and count.",
    },
    KeyRef {
        section: "match",
        key: "min_pits",
        line: "the pits a player must be able to fill to play another round; fewer loses the match",
        expects: "a whole number of 1 or more",
        values: &[],
        default: "1",
        example: "min_pits = 4",
        long: "A player holding fewer than `min_pits` pits' worth of stones (`refill` each) at \
               the end of a round loses the match.",
    },
    KeyRef {
        section: "match",
        key: "fill_from",
        line: "the end a refill starts from",
        expects: "\"right\" or \"left\"",
        values: &["right", "left"],
        default: "\"right\"",
        example: "fill_from = \"right\"",
        long: "\"right\": from the player's highest-numbered pit down; \"left\": from pit 1 up.",
    },
    KeyRef {
        section: "match",
        key: "partial",
        line: "what becomes of the stones short of a full pit at a refill",
        expects: "\"closed\", \"open\" or \"store\"",
        values: &["closed", "open", "store"],
        default: "\"closed\"",
        example: "partial = \"closed\"",
        long: "\"closed\": the last, partly filled pit keeps its stones and is out of play with \
               the unfilled ones; \"open\": it stays in play; \"store\": those stones go to the \
               store and the pit stays empty, out of play. Out-of-play pits reopen when their \
               owner holds enough stones at a later refill.",
    },
    KeyRef {
        section: "match",
        key: "next_first",
        line: "who starts the next round of a match",
        expects: "\"ritual\", \"loser\", \"winner\" or \"alternate\"",
        values: &["ritual", "loser", "winner", "alternate"],
        default: "\"ritual\"",
        example: "next_first = \"loser\"",
        long: "Who starts the next round: \"ritual\" (the starting ritual is held again before \
               every round, as the source texts describe it), \"loser\" or \"winner\" of the last \
               round, or \"alternate\" (the player who did not start); after a draw, \"loser\" and \
               \"winner\" also mean the player who did not start.",
    },
];

/// The rounds of a match, compiled.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MatchRule {
    pub(crate) refill: u8,
    /// The pits a player must be able to fill to play on.
    pub(crate) min_pits: u32,
    pub(crate) fill_from: FillFrom,
    pub(crate) partial: Partial,
    pub(crate) next_first: NextFirst,
}

/// Checks `[match]` against the `total` stones of the game, when they are known.
pub(super) fn check(cx: &mut Cx, m: &Match, total: Option<u32>) -> MatchRule {
    let refill = *m.refill.get_ref();
    if let Some(total) = total.filter(|_| !cx.repairs.touched("match")) {
        // Rule values are untrusted: compared in 64 bits, no product can wrap.
        if refill == 0 || u64::from(refill) * 2 > u64::from(total) {
            cx.error(
                m.refill.span(),
                format!(
                    "`refill` must be from 1 to {} (half the {total} stones)",
                    total / 2
                ),
            );
        } else if let Some(min) = &m.min_pits {
            let most = u64::from(total) / 2 / u64::from(refill);
            if *min.get_ref() == 0 || u64::from(*min.get_ref()) > most {
                cx.error(
                    min.span(),
                    format!(
                        "`min_pits` must be from 1 to {most} (pits of {refill} in half the \
                         {total} stones)"
                    ),
                );
            }
        }
    }
    MatchRule {
        refill: refill.min(LIMITS.stones) as u8,
        min_pits: m.min_pits.as_ref().map_or(1, |p| *p.get_ref()),
        fill_from: m.fill_from,
        partial: m.partial,
        next_first: m.next_first,
    }
}

impl MatchRule {
    /// The rounds in plain words.
    pub(super) fn describe(&self, s: &mut String) {
        let _ = writeln!(
            s,
            "Match: each round, players refill their pits {} a pit from the {}; the surplus goes to the store; {} out of play; fewer than {} stones loses the match; {}.",
            self.refill,
            match self.fill_from {
                FillFrom::Right => "right",
                FillFrom::Left => "left",
            },
            match self.partial {
                Partial::Closed => "a partly filled pit and the unfilled ones are",
                Partial::Open => "unfilled pits are",
                Partial::Store => "the stones short of a pit go to the store, and unfilled pits are",
            },
            u32::from(self.refill) * self.min_pits,
            next_first_text(self.next_first, "round")
        );
    }
}
