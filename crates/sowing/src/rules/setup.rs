//! `[setup]`: the starting position and who starts.

use super::super::board::{Board, Geometry, STORE};
use super::{err, Cx, Rules};
use crate::scope::Ctx;
use crate::scope::PitCond;
use crate::SowingGame;
use ludus_core::diagnostics::Diagnostic;
use ludus_core::game::{Game, Phase, Ritual};
use ludus_core::limits::LIMITS;
use ludus_core::rules::reference::{KeyRef, SectionRef};
use serde::Deserialize;
use std::fmt::Write;
use toml::Spanned;

/// Stones are counted in bytes: the whole game must fit.
const MAX_STONES: u32 = LIMITS.stones;

/// `[setup]` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// Stones in every pit.
    #[serde(default)]
    pub stones: Option<Spanned<u32>>,
    /// Stones per pit, one list per player in that player's numbering (or one list used by both).
    #[serde(default)]
    pub layout: Option<Spanned<Vec<Spanned<Vec<u32>>>>>,
    /// The first ply of a new game must sow this pit (in the mover's numbering).
    #[serde(default)]
    pub first_move: Option<Spanned<u32>>,
    /// How the first player of a match is chosen.
    #[serde(default)]
    pub ritual: Option<RitualKind>,
    /// Whose the first of two `layout` lists is: player 0's or the starting player's.
    #[serde(default)]
    pub layout_for: Option<Spanned<LayoutFor>>,
    /// Pits out of play for the whole game, one list of pit numbers per player.
    #[serde(default)]
    pub closed: Option<Spanned<Vec<Spanned<Vec<u32>>>>>,
    /// Stones in each player's store at the start (the position a set opening leaves).
    #[serde(default)]
    pub stores: Option<Spanned<Vec<u32>>>,
    /// Stones scattered at random over the pits as a game (or round afresh) begins.
    #[serde(default)]
    pub scatter: Option<Spanned<u32>>,
    /// The fewest stones a pit receives in the scatter.
    #[serde(default)]
    pub scatter_least: Option<Spanned<u32>>,
    /// The scatter may leave pits empty (the others holding at least `scatter_least`).
    #[serde(default)]
    pub scatter_empty: Option<Spanned<bool>>,
    /// Stones each player holds at the start, to place one at a time before the sowing.
    #[serde(default)]
    pub to_place: Option<Spanned<Vec<u32>>>,
    /// Where a stone from hand may be placed (context start: the view `pit`).
    #[serde(default)]
    pub place: Option<Spanned<String>>,
    /// The player to sow first may turn the board round first (a pie rule).
    #[serde(default)]
    pub swap: Option<Swap>,
}

/// `swap`: whether the player to sow first may turn the board round, and what it costs.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Swap {
    /// No swap (the default).
    No,
    /// The swapper then makes the first move.
    ThenMove,
    /// Swapping is the swapper's turn: the other player makes the first move.
    InsteadOfMoving,
}

/// Whose the first of two `layout` lists is.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum LayoutFor {
    /// Player 0's, the second player 1's.
    #[default]
    Players,
    /// The player who starts the game's, the second the other's.
    Starter,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum RitualKind {
    None,
    OddOrEven,
}

pub(crate) const SECTION: SectionRef = SectionRef {
    name: "setup",
    line: "the starting position and who starts",
    required: true,
    repeated: false,
    keys: KEYS,
};

const KEYS: &[KeyRef] = &[
    KeyRef {
        section: "setup",
        key: "stones",
        line: "stones in every pit at the start (one of `stones`, `layout`)",
        expects: "a whole number (at most 255 stones in a game; 0 only with `to_place`)",
        values: &[],
        default: "— (or `layout`)",
        example: "stones = 4",
        long: "Every pit starts with this many stones. Give one of `stones`, `layout` and \
               `scatter`. A game holds at most 255 stones.",
    },
    KeyRef {
        section: "setup",
        key: "scatter",
        line: "stones scattered at random over all the pits as a game (or a round played afresh) begins (one of `stones`, `layout`, `scatter`)",
        expects: "a whole number of stones (at most 255)",
        values: &[],
        default: "— (or `stones`, `layout`)",
        example: "scatter = 70",
        long: "The game begins with this many stones scattered at random over the pits of both \
               players, each stone falling into a pit at random (after `scatter_least` in \
               every pit): Mangala I, Random Kalah. A record keeps the deal (its `game` line's \
               `deal`), so a replay starts from the same pits; a seeded table deals the same \
               stones again.",
    },
    KeyRef {
        section: "setup",
        key: "to_place",
        line: "stones each player holds at the start and places one at a time, in turns, before the first move",
        expects: "a list of two whole numbers such as `[21, 21]` (player 0's first, or the starter's)",
        values: &[],
        default: "[0, 0]",
        example: "to_place = [21, 21]",
        long: "Before the sowing begins, the players holding stones put them into pits one at a \
               time, in turns (the starter first; a player whose hand is empty is passed \
               over), each into a pit `place` allows; then the starter sows. The board may \
               start empty (`stones = 0`). A placement is written as the pit: `3`, or `o3` \
               across the board; it is not a ply. In the order of `layout` (see \
               `layout_for`): `[0, 72]` with `layout_for = \"starter\"` has the second player \
               place all 72 stones and the starter sow first (Li'b al-'Aqil).",
    },
    KeyRef {
        section: "setup",
        key: "place",
        line: "context start: the pits a stone from hand may be put into (`to_place`)",
        expects: "a condition of context start (the view `pit`, any pit of the board)",
        values: &[],
        default: "the placer's own pits",
        example: "place = \"pit.side == mover and (pit.number == 1 or pit.count < own(pit.number - 1))\"",
        long: "A condition on each pit of the board, for the player placing (`mover`): a stone \
               from hand may go into a pit for which it holds, of either side (`pit.side`). \
               When it holds for none, any pit of the placer's own does. `mover.to_place` counts \
               the stones still in hand, this one included (Quiela: each row kept \
               non-increasing from the left, the leftmost hole holding the most).",
    },
    KeyRef {
        section: "setup",
        key: "swap",
        line: "the player to sow first may first turn the board round (a pie rule), and what it costs",
        expects: "\"no\", \"then-move\" or \"instead-of-moving\"",
        values: &["no", "then-move", "instead-of-moving"],
        default: "\"no\"",
        example: "swap = \"instead-of-moving\"",
        long: "Before the first move of a game (after any stones from hand are placed), the \
               player to sow first decides `swap` or `keep`: swapping turns the board round, \
               each player taking the other's pits, store and houses. \"then-move\": the \
               swapper then makes the first move (Mangala (Bedouin): the opponent of the player \
               who spread the counters may flip the board and begins); \"instead-of-moving\": \
               the swap is their turn and the other player moves first (Li'b al-'Aqil, \
               \"sacrificing the first move\"). Written `swap` and `keep`.",
    },
    KeyRef {
        section: "setup",
        key: "scatter_least",
        line: "with `scatter`: the fewest stones a pit receives",
        expects: "a whole number; `scatter` must fill every pit with it",
        values: &[],
        default: "0",
        example: "scatter_least = 2",
        long: "Every pit receives at least this many stones of the scatter (Random Kalah: two \
               a hole), the rest falling at random; with `scatter_empty`, a pit holds none or \
               at least this many.",
    },
    KeyRef {
        section: "setup",
        key: "scatter_empty",
        line: "with `scatter`: pits may be left empty, the others holding at least `scatter_least`",
        expects: "true or false",
        values: &[],
        default: "false",
        example: "scatter_empty = true",
        long: "The stones fall at random; then, going round the board from player 0's pit 1, \
               a pit left with fewer than `scatter_least` passes them on to the next, so each \
               pit holds none or at least `scatter_least` (Leab El-akil: none or four and \
               more).",
    },
    KeyRef {
        section: "setup",
        key: "layout",
        line: "stones per pit at the start in the owner's numbering: a list of lists, one used by both players or one per player",
        expects: "one or two lists of stones per pit such as `[[4, 4, 4, 4, 4, 4]]`",
        values: &[],
        default: "— (or `stones`)",
        example: "layout = [[4, 4, 4, 4, 4, 4]]",
        long: "The stones in each pit at the start, in the owner's numbering (pit 1 first): one \
               list used by both players, or two lists, player 0's first. Each list has one \
               number per pit of a player. Give `stones` or `layout`, not both; at most 255 \
               stones in a game.",
    },
    KeyRef {
        section: "setup",
        key: "layout_for",
        line: "whose the first of two `layout` lists is: player 0's or the starting player's",
        expects: "\"players\" or \"starter\"",
        values: &["players", "starter"],
        default: "\"players\"",
        example: "layout_for = \"starter\"",
        long: "\"players\": the first list is player 0's, the second player 1's; \"starter\": \
               the first list is the layout of the player who starts the game (or round), the \
               second the other's (Gamacha, where the player who sows first holds more). With \
               \"starter\", `stores` and `[house] start` follow the starter too: a game the \
               second player starts begins from the same position seen from the other side.",
    },
    KeyRef {
        section: "setup",
        key: "closed",
        line: "pits out of play for the whole game: a board of another shape than two equal sides",
        expects: "two lists of pit numbers, player 0's then player 1's",
        values: &[],
        default: "none",
        example: "closed = [[], [4]]",
        long: "Pits that are not on the board: out of play from the start to the end of the \
               game, never sown into, sown from or taken, passed over by `next`, `beyond` and \
               the chains, and not counted in `mover.pits` and the like (a pit out of play, as \
               a round's refill leaves some). They hold no stones at the start (`stones` \
               leaves them empty; a `layout` must give them 0). Sat Gol's seven holes in one \
               circle: `pits = 4` and `closed = [[], [4]]`, every pit sown by either player \
               (`[sowing] start_from = \"board\"`). Not with `[match]` or `scatter`.",
    },
    KeyRef {
        section: "setup",
        key: "stores",
        line: "stones in each player's store at the start, player 0's first (or the starter's)",
        expects: "a list of two whole numbers such as `[4, 0]`",
        values: &[],
        default: "[0, 0]",
        example: "stores = [4, 0]",
        long: "The stones each player has captured when a game begins, in the order of `layout` \
               (see `layout_for`): the position a set opening leaves, written out (Lamosh: the \
               starter's opening ends with a capture of four, `stores = [0, 4]` with the second \
               player first to sow). They count toward the 255 stones of a game.",
    },
    KeyRef {
        section: "setup",
        key: "first_move",
        line: "the first ply of a new game must sow this pit",
        expects: "a pit number from 1 to the pits a player owns",
        values: &[],
        default: "none",
        example: "first_move = 2",
        long: "The first ply of a new game must sow this pit, in the mover's numbering (Uuholo: \
               2). Not applied to positions set up by hand.",
    },
    KeyRef {
        section: "setup",
        key: "ritual",
        line: "how the first player of a match is chosen",
        expects: "\"none\" or \"odd-or-even\"",
        values: &["none", "odd-or-even"],
        default: "\"none\"",
        example: "ritual = \"odd-or-even\"",
        long: "\"odd-or-even\": the first player of a match is chosen by guessing whether a \
               handful of stones is odd or even (Sat-gharva). \"none\": player 0 starts unless \
               told otherwise.",
    },
];

/// How a game starts.
#[derive(Clone, Debug)]
pub(crate) struct SetupRule {
    /// The starting board of a new game player 0 starts.
    pub(crate) board: Board,
    /// The layout is the starter's first: a game player 1 starts has the sides swapped.
    pub(crate) for_starter: bool,
    /// Pits a side.
    pits: usize,
    /// Stones in the game (pits and stores).
    pub(crate) total: u32,
    /// The first ply of a new game sows this pit.
    pub(crate) first_move: Option<u8>,
    pub(crate) ritual: Ritual,
    /// The stones are scattered at random instead (`board` then holds them spread evenly).
    pub(crate) scatter: Option<Scatter>,
    /// Where a stone from hand may go (`place`); none: the placer's own pits.
    pub(crate) place: Option<PitCond>,
    /// The player to sow first may turn the board round first.
    pub(crate) swap: Swap,
}

/// `scatter`: stones dealt at random over every pit as a game begins.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scatter {
    pub(crate) stones: u32,
    /// The fewest a pit holds (unless left empty).
    pub(crate) least: u8,
    /// A pit may be left empty.
    pub(crate) empty: bool,
}

impl Scatter {
    /// Whether `c` stones may lie in a pit after the scatter.
    pub(crate) fn allows(&self, c: u8) -> bool {
        c >= self.least || (self.empty && c == 0)
    }

    /// Stones for `pits` pits, drawn: `least` in each, every other stone into a pit at random;
    /// where pits may stay empty, a short pit passes its stones on to the next (round the
    /// board, from the first).
    pub(crate) fn draw<R: rand::Rng>(&self, pits: usize, rng: &mut R) -> Vec<u8> {
        let floor = if self.empty { 0 } else { self.least };
        let mut counts = vec![floor; pits];
        for _ in 0..self.stones - u32::from(floor) * pits as u32 {
            counts[rng.gen_range(0..pits)] += 1;
        }
        if self.empty {
            let mut held = 0u8;
            for c in counts.iter_mut() {
                held += std::mem::take(c);
                if held >= self.least {
                    *c = std::mem::take(&mut held);
                }
            }
            // Left over at the end: onto the first pit that holds stones (or the first pit).
            let first = counts.iter().position(|&c| c > 0).unwrap_or(0);
            counts[first] += held;
        }
        counts
    }
}

impl SetupRule {
    /// The starting board of a new game (or round afresh) that `first` starts: with the
    /// layout the starter's, the sides swapped when player 1 starts (pits, stores, houses).
    pub(crate) fn board_for(&self, first: usize) -> Board {
        if !(self.for_starter && first == 1) {
            return self.board;
        }
        self.board.mirrored(self.pits)
    }
    pub(super) fn describe_first_move(&self, s: &mut String) {
        if let Some(f) = self.first_move {
            let _ = writeln!(s, "The first move of a new game must be pit {f}.");
        }
    }
    /// How a game begins, in plain words: a deal at random, stones placed from hand, the choice
    /// of sides.
    pub(super) fn describe_start(&self, s: &mut String) {
        if let Some(sc) = &self.scatter {
            let least = match (sc.least, sc.empty) {
                (0, _) => String::new(),
                (k, false) => format!(", at least {k} a pit"),
                (k, true) => format!(", a pit holding none or at least {k}"),
            };
            let _ = writeln!(
                s,
                "Start: the {} stones are scattered at random over the pits{least}, anew for each game and each round played afresh (the starting position below spreads them evenly).",
                sc.stones
            );
        }
        let [a, b] = self.board.to_place;
        if a + b > 0 {
            let whose = match self.for_starter {
                true => ["the starter", "the other player"],
                false => ["player 0", "player 1"],
            };
            let _ = writeln!(
                s,
                "Before the first move, {} holds {a} stones and {} {b}, placed one a turn, in turns, into {}; then the starter sows.",
                whose[0],
                whose[1],
                self.place
                    .as_ref()
                    .map_or("their own pits".to_string(), |p| format!("pits where `{}`", p.expr.text()))
            );
        }
        match self.swap {
            Swap::No => {}
            Swap::ThenMove => {
                let _ = writeln!(s, "The player to sow first may first turn the board round (`swap`), and then moves.");
            }
            Swap::InsteadOfMoving => {
                let _ = writeln!(s, "The player to sow first may turn the board round (`swap`) instead of moving: the other player then moves first.");
            }
        }
    }

    pub(super) fn describe_ritual(&self, s: &mut String) {
        if self.ritual == Ritual::OddOrEven {
            let _ = writeln!(
                s,
                "Who starts: one player hides stones, the other guesses odd or even."
            );
        }
    }
}

/// `[setup]` on the board laid out: the starting board (unless the table had to be repaired),
/// the forced first move and the ritual.
pub(super) fn check(cx: &mut Cx, rules: &Rules, geo: &Geometry) -> Option<SetupRule> {
    let board = if cx.repairs.touched("setup") {
        None
    } else {
        board(cx, rules, geo)
    };
    let first_move = first_move(cx, rules, geo);
    let scatter = scatter(cx, rules, geo);
    let board = board?;
    let ritual = match rules.setup.as_ref().and_then(|s| s.get_ref().ritual) {
        Some(RitualKind::OddOrEven) => Ritual::OddOrEven,
        _ => Ritual::None,
    };
    let layout_for = rules
        .setup
        .as_ref()
        .and_then(|s| s.get_ref().layout_for.as_ref());
    let two_lists = rules
        .setup
        .as_ref()
        .and_then(|s| s.get_ref().layout.as_ref())
        .is_some_and(|l| l.get_ref().len() == 2);
    let for_starter = layout_for.is_some_and(|l| *l.get_ref() == LayoutFor::Starter);
    // The sides differ by their lists: of the layout, the stones to place or the stores.
    let alike = !two_lists
        && board.to_place[0] == board.to_place[1]
        && board.count[STORE] == board.count[STORE + 1];
    if let (Some(l), true) = (layout_for, alike) {
        cx.warn(
            l.span(),
            "`layout_for` without two `layout` lists (or of `to_place`, `stores`): both players start alike",
        );
    }
    Some(SetupRule {
        total: board.stones(),
        for_starter,
        pits: geo.n,
        board,
        first_move: first_move?,
        ritual,
        scatter: scatter?,
        place: None,
        swap: rules
            .setup
            .as_ref()
            .and_then(|s| s.get_ref().swap)
            .unwrap_or(Swap::No),
    })
}

/// `scatter`, `scatter_least`, `scatter_empty`: `Some(None)` without a scatter, `None` when
/// wrong.
fn scatter(cx: &mut Cx, rules: &Rules, geo: &Geometry) -> Option<Option<Scatter>> {
    let setup = rules.setup.as_ref()?.get_ref();
    let Some(stones) = &setup.scatter else {
        for (span, key) in [
            (
                setup.scatter_least.as_ref().map(|v| v.span()),
                "scatter_least",
            ),
            (
                setup.scatter_empty.as_ref().map(|v| v.span()),
                "scatter_empty",
            ),
        ] {
            if let Some(span) = span {
                cx.warn(span, format!("`{key}` without `scatter` does nothing"));
            }
        }
        return Some(None);
    };
    let least = setup.scatter_least.as_ref();
    let empty = setup.scatter_empty.as_ref().is_some_and(|e| *e.get_ref());
    let pits = 2 * geo.n as u32;
    let need = least.map_or(0, |l| u64::from(*l.get_ref()));
    let least_span = least.map_or(stones.span(), |l| l.span());
    if need > u64::from(MAX_STONES) {
        cx.error(least_span, format!("at most {MAX_STONES} stones in a game"));
        return None;
    }
    let stones_n = *stones.get_ref();
    let short = if empty {
        u64::from(stones_n) < need
    } else {
        u64::from(stones_n) < need * u64::from(pits)
    };
    if short {
        let what = if empty {
            format!("{need}, the fewest a pit that is not empty holds")
        } else {
            format!(
                "{} for {need} in each of the {pits} pits",
                need * u64::from(pits)
            )
        };
        cx.error(
            least_span,
            format!("{stones_n} stones to scatter, fewer than {what}"),
        );
        return None;
    }
    Some(Some(Scatter {
        stones: stones_n,
        least: need as u8,
        empty,
    }))
}

/// The starting board from `[setup]`.
fn board(cx: &mut Cx, rules: &Rules, geo: &Geometry) -> Option<Board> {
    let errors = &mut cx.errors;
    let mut board = Board::empty();
    let Some(setup) = &rules.setup else {
        errors.push(
            err(rules.board.span(), "missing table `[setup]`")
                .note("stones = 4, or layout = [[...], [...]]"),
        );
        return None;
    };
    let setup_ref = setup.get_ref();
    match (&setup_ref.stones, &setup_ref.layout, &setup_ref.scatter) {
        (None, None, Some(s)) => {
            // Spread evenly until the deal: what a start no table dealt shows.
            let stones = *s.get_ref();
            if stones > MAX_STONES {
                errors.push(err(
                    s.span(),
                    format!("at most {MAX_STONES} stones in a game"),
                ));
                return None;
            }
            let pits = 2 * geo.n as u32;
            for slot in 0..2 * geo.n {
                board.count[slot] =
                    (stones / pits + u32::from((slot as u32) < stones % pits)) as u8;
            }
        }
        (Some(s), None, None) => {
            let per = *s.get_ref();
            if u64::from(per) * 2 * geo.n as u64 > u64::from(MAX_STONES) {
                errors.push(err(
                    s.span(),
                    format!("at most {MAX_STONES} stones in a game"),
                ));
                return None;
            }
            for slot in 0..2 * geo.n {
                board.count[slot] = per as u8;
            }
        }
        (None, Some(layout), None) => {
            let rows = layout.get_ref();
            if rows.len() != 1 && rows.len() != 2 {
                errors.push(err(
                    layout.span(),
                    "`layout` is one list (both players) or two",
                ));
                return None;
            }
            let mut total = 0u32;
            let mut fits = true;
            for row in rows {
                if row.get_ref().len() != geo.n {
                    errors.push(err(
                        row.span(),
                        format!(
                            "{} pits listed, the board has {} a side",
                            row.get_ref().len(),
                            geo.n
                        ),
                    ));
                    fits = false;
                }
            }
            if !fits {
                return None;
            }
            for p in 0..2 {
                let row = &rows[p.min(rows.len() - 1)];
                for (k, &c) in row.get_ref().iter().enumerate() {
                    total = total.saturating_add(c);
                    board.count[p * geo.n + k] = c.min(MAX_STONES) as u8;
                }
            }
            if total > MAX_STONES {
                errors.push(err(
                    layout.span(),
                    format!("at most {MAX_STONES} stones in a game"),
                ));
                return None;
            }
        }
        _ => {
            errors.push(err(
                setup.span(),
                "`[setup]` gives one of `stones`, `layout` and `scatter`",
            ));
            return None;
        }
    }
    if let Some(closed) = &setup_ref.closed {
        board.closed = closed_pits(errors, rules, geo, closed, setup_ref.layout.is_some())?;
        for slot in 0..2 * geo.n {
            if board.closed >> slot & 1 == 1 {
                board.count[slot] = 0;
            }
        }
    }
    if let Some(hands) = &setup_ref.to_place {
        let [a, b] = hands.get_ref()[..] else {
            errors.push(err(
                hands.span(),
                "`to_place` lists the stones of two players, player 0's first (or the starter's)",
            ));
            return None;
        };
        let on_board: u32 = board.count.iter().map(|&c| u32::from(c)).sum();
        if u64::from(on_board) + u64::from(a) + u64::from(b) > u64::from(MAX_STONES) {
            errors.push(err(
                hands.span(),
                format!("at most {MAX_STONES} stones in a game, those to place included"),
            ));
            return None;
        }
        board.to_place = [a as u8, b as u8];
    }
    if board.count[..STORE].iter().all(|&c| c == 0) && board.to_place == [0, 0] {
        errors.push(err(setup.span(), "the board starts with no stones"));
        return None;
    }
    if let Some(stores) = &setup_ref.stores {
        let [a, b] = stores.get_ref()[..] else {
            errors.push(err(
                stores.span(),
                "`stores` lists two stores, player 0's first (or the starter's)",
            ));
            return None;
        };
        let on_board = board.stones();
        if u64::from(on_board) + u64::from(a) + u64::from(b) > u64::from(MAX_STONES) {
            errors.push(err(
                stores.span(),
                format!("at most {MAX_STONES} stones in a game, stores included"),
            ));
            return None;
        }
        board.count[STORE] = a as u8;
        board.count[STORE + 1] = b as u8;
    }
    board.houses = start_houses(cx, rules, geo)?;
    if let Some(closed) = setup_ref.closed.as_ref() {
        let off = |mask: u64| mask & board.closed != 0;
        let first = setup_ref.first_move.as_ref().map(|f| *f.get_ref() as usize);
        let first_off = first
            .filter(|k| (1..=geo.n).contains(k))
            .is_some_and(|k| (0..2).any(|p| off(1 << geo.slot(p, k))));
        if off(board.houses[0] | board.houses[1]) || first_off {
            cx.errors.push(err(
                closed.span(),
                "`closed` takes off the board a pit `[house] start` or `first_move` names",
            ));
            return None;
        }
    }
    // Houses that keep no stones send theirs to their owners' stores at once.
    if !rules.house.as_ref().is_some_and(|h| h.get_ref().keeps) {
        board.empty_houses();
    }
    Some(board)
}

/// `closed`: the pits out of play for the whole game (bit = slot); with a `layout`, each must
/// start empty.
fn closed_pits(
    errors: &mut Vec<Diagnostic>,
    rules: &Rules,
    geo: &Geometry,
    closed: &Spanned<Vec<Spanned<Vec<u32>>>>,
    laid_out: bool,
) -> Option<u64> {
    let lists = closed.get_ref();
    if lists.len() != 2 {
        errors.push(err(
            closed.span(),
            "`closed` lists the pits of two players, player 0's first",
        ));
        return None;
    }
    if rules.match_.is_some() {
        errors.push(
            err(
                closed.span(),
                "`closed` with `[match]`: a round's refill would put the pits back in play",
            )
            .note("write one game, or leave the pits in play"),
        );
        return None;
    }
    if rules
        .setup
        .as_ref()
        .is_some_and(|s| s.get_ref().scatter.is_some())
    {
        errors.push(err(
            closed.span(),
            "`closed` with `scatter`: the scatter deals stones into every pit",
        ));
        return None;
    }
    let layout = rules
        .setup
        .as_ref()
        .and_then(|s| s.get_ref().layout.as_ref());
    let mut mask = 0u64;
    for (p, list) in lists.iter().enumerate() {
        for &k in list.get_ref() {
            let k = k as usize;
            if !(1..=geo.n).contains(&k) {
                errors.push(err(
                    list.span(),
                    format!(
                        "pit {k} is not on the board: a player's pits are 1 to {}",
                        geo.n
                    ),
                ));
                return None;
            }
            let slot = geo.slot(p, k);
            let given = layout.and_then(|l| {
                let rows = l.get_ref();
                rows.get(p.min(rows.len() - 1))?
                    .get_ref()
                    .get(k - 1)
                    .copied()
            });
            if laid_out && given.is_some_and(|c| c > 0) {
                errors.push(err(
                    list.span(),
                    format!("pit {k} of player {p} is out of play but `layout` gives it stones"),
                ));
                return None;
            }
            mask |= 1 << slot;
        }
    }
    if (0..2).any(|p| (0..geo.n).all(|k| mask >> geo.slot(p, k + 1) & 1 == 1)) {
        errors.push(err(
            closed.span(),
            "`closed` leaves a player no pit in play",
        ));
        return None;
    }
    Some(mask)
}

/// `[house] start`: the houses each player holds when a game begins (bit = slot).
fn start_houses(cx: &mut Cx, rules: &Rules, geo: &Geometry) -> Option<[u64; 2]> {
    let Some(house) = rules.house.as_ref().map(|h| h.get_ref()) else {
        return Some([0; 2]);
    };
    let Some(start) = &house.start else {
        return Some([0; 2]);
    };
    let lists = start.get_ref();
    if lists.len() != 1 && lists.len() != 2 {
        cx.error(
            start.span(),
            "`start` is one list of pits (both players) or two",
        );
        return None;
    }
    let most = house.most.as_ref().map_or(1, |m| *m.get_ref());
    let mut houses = [0u64; 2];
    for (p, mine) in houses.iter_mut().enumerate() {
        let list = &lists[p.min(lists.len() - 1)];
        for &k in list.get_ref() {
            // Past the owner's pits, the numbers go on across the board (a house there).
            if !(1..=2 * geo.n as u32).contains(&k) {
                cx.error(
                    list.span(),
                    format!(
                        "pit {k} is not on the board: a player's pits are 1 to {}, the pits across the board {} to {}",
                        geo.n,
                        geo.n + 1,
                        2 * geo.n
                    ),
                );
                return None;
            }
            *mine |= 1 << geo.slot_from(p, k as usize);
        }
        if mine.count_ones() > most {
            cx.error(
                list.span(),
                format!(
                    "{} houses at the start, more than `most` ({most}) allows a player",
                    mine.count_ones()
                ),
            );
            return None;
        }
    }
    if houses[0] & houses[1] != 0 {
        cx.error(
            start.span(),
            "a pit is a house of both players at the start",
        );
        return None;
    }
    Some(houses)
}

/// `first_move`: `Some(None)` when absent, `None` when wrong.
fn first_move(cx: &mut Cx, rules: &Rules, geo: &Geometry) -> Option<Option<u8>> {
    let Some(v) = rules
        .setup
        .as_ref()
        .and_then(|s| s.get_ref().first_move.as_ref())
    else {
        return Some(None);
    };
    if !(1..=geo.n as u32).contains(v.get_ref()) {
        cx.error(v.span(), format!("pits are numbered 1 to {}", geo.n));
        return None;
    }
    Some(Some(*v.get_ref() as u8))
}

/// Warnings about the starting position: a player who would start with no legal move (no pit
/// meets `sowing.start`, the forced first pit is empty, …) finds the game over before it
/// begins.
pub(super) fn start_warnings(cx: &mut Cx, rules: &Rules, game: &SowingGame) {
    let setup_span = rules
        .setup
        .as_ref()
        .map_or(rules.board.span(), |s| s.span());
    let end_always = cx
        .warnings
        .iter()
        .any(|w| w.message.contains("every game is over before it begins"));
    let mut generic_done = false;
    for p in 0..2 {
        let state = game.new_game(p);
        if game.phase(&state) != Phase::Over {
            continue;
        }
        let name = &game.players[p];
        let geo = &game.geo;
        let mut ctx = Ctx::new(&game.setup.board, geo, p, 0);
        let startable = (1..=geo.n)
            .map(|k| geo.slot(p, k))
            .any(|s| game.setup.board.count[s] > 0 && game.sowing.start.test(&mut ctx, s));
        let start_value = rules.sowing.as_ref().and_then(|s| s.start.as_ref());
        let first = rules
            .setup
            .as_ref()
            .and_then(|s| s.get_ref().first_move.as_ref());
        if !startable {
            let at = start_value.map_or(setup_span.clone(), |v| v.span());
            cx.warn(
                at,
                format!(
                    "no pit of {name} meets `sowing.start` in the starting position: a game {name} starts is over before it begins"
                ),
            );
        } else if let Some(f) = first {
            cx.warn(
                f.span(),
                format!(
                    "{name} cannot sow pit {} in the starting position: a game {name} starts is over before it begins",
                    f.get_ref()
                ),
            );
        } else if !generic_done && !end_always {
            // Ended by `end.score` or `end.stop` at the start, or no move for another reason
            // (`must_feed`): the same for both players, said once.
            generic_done = true;
            let why = game.outcome(&state).map(|o| o.reason).unwrap_or_default();
            cx.warn(
                setup_span.clone(),
                format!("the game is over before it begins ({why})"),
            );
        }
    }
}
