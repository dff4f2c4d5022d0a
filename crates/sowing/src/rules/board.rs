//! `[board]`: the pits each player owns and how they are numbered.

use super::super::board::{CircuitSpec, Geometry, MAX_SIDE};
use super::{err, Cx, Rules};
use crate::SowingGame;
use ludus_core::diagnostics::Diagnostic;
use ludus_core::rules::reference::{KeyRef, SectionRef};
use serde::Deserialize;
use std::fmt::Write;
use toml::Spanned;

/// `[board]` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Board {
    /// Rows of pits per player: 1 (two-row boards) or 2 (four-row boards).
    #[serde(default)]
    pub rows: Option<Spanned<u32>>,
    /// Pits in each row.
    pub pits: Spanned<u32>,
    /// Whether each player has a store on the board.
    #[serde(default)]
    pub stores: bool,
    /// Each player's pit numbering as `[row, column]` places from the owner's seat (row 1 faces
    /// the opponent, column 1 is the owner's leftmost), pit 1 first. Default: derived.
    #[serde(default)]
    pub numbering: Option<Spanned<Vec<Spanned<Vec<u32>>>>>,
    /// Each player's pits in a middle row both players share (three rows of pits).
    #[serde(default)]
    pub middle: Option<Spanned<u32>>,
}

pub(crate) const SECTION: SectionRef = SectionRef {
    name: "board",
    line: "the pits each player owns and how they are numbered",
    required: true,
    repeated: false,
    keys: KEYS,
};

const KEYS: &[KeyRef] = &[
    KeyRef {
        section: "board",
        key: "rows",
        line: "rows of pits per player: 1 or 2",
        expects: "1 or 2",
        values: &[],
        default: "1",
        example: "rows = 1",
        long: "Each player owns this many rows of pits: 1 (a two-row board, Oware) or 2 (a \
               four-row board, Uuholo). With one row, pit 1 is the owner's leftmost pit as they \
               sit; with two, pit 1 is the owner's rightmost pit of the inner row (facing the \
               opponent), 1..n run along that row and n+1..2n back along the outer row.",
    },
    KeyRef {
        section: "board",
        key: "pits",
        line: "pits in each row of each player (rows × pits ≤ 31)",
        expects: "a whole number from 1 to 31",
        values: &[],
        default: "—",
        example: "pits = 6",
        long: "The pits in each of a player's rows. A player owns rows × pits pits, at most 31 \
               (a four-row board of 4 × 15).",
    },
    KeyRef {
        section: "board",
        key: "stores",
        line: "each player has a store on the board",
        expects: "`true` or `false`",
        values: &[],
        default: "false",
        example: "stores = true",
        long: "Whether each player has a store on the board. Captures go there; without stores \
               they are kept aside (the count is the same). Stores are sown only when \
               `sowing.stores` says so, which needs `stores = true`.",
    },
    KeyRef {
        section: "board",
        key: "numbering",
        line:
            "each player's pit numbering as [row, column] places from the owner's seat, pit 1 first",
        expects: "a list of `[row, column]` places such as `[[1, 1], [1, 2], [1, 3]]`",
        values: &[],
        default: "derived from `rows`",
        example: "numbering = [[1, 1], [1, 2], [1, 3], [1, 4], [1, 5], [1, 6]]",
        long: "Each player numbers their own pits 1, 2, … in the order they sow them. This lists \
               the places of pits 1, 2, … as [row, column] from the owner's seat: row 1 faces the \
               opponent, column 1 is the owner's leftmost. Every place of the board exactly once, \
               or a located error (`numbered twice`, `misses pits`, `not a pit of this board`).",
    },
    KeyRef {
        section: "board",
        key: "middle",
        line:
            "each player's pits in a middle row both share: three rows of pits (pits = 3 × middle)",
        expects: "a whole number, a third of `pits`",
        values: &[],
        default: "none (two or four rows)",
        example: "middle = 2",
        long: "A board of three rows (Rab'e, Gabata of Adwa and Aksum: 3 × 6): each player owns \
               their own row and the half of the middle row on their right. With `pits = 9`, \
               `middle = 3`, pits 1 to 6 are the owner's row from their left and 7 to 9 their \
               half of the middle row from its right end inward, the counterclockwise order \
               (the sowing runs along one's row, back along one's half of the middle row, then \
               along the opponent's row and half). No pit faces another across such a board: \
               the views `opposite` and `behind` do not exist (`exists` false) and captures \
               that take facing pits are refused. Not with `rows` or `numbering`.",
    },
];

/// The board's geometry from `[board]` and the circuit of `[sowing]`: only from tables read as
/// written.
pub(super) fn geometry(cx: &mut Cx, rules: &Rules, spec: CircuitSpec) -> Option<Geometry> {
    let board = rules.board.get_ref();
    let rows = board.rows.as_ref().map_or(1, |r| *r.get_ref()) as usize;
    let mut board_ok = true;
    if let Some(r) = &board.rows {
        if !(1..=2).contains(r.get_ref()) {
            cx.error(r.span(), "`rows` must be 1 or 2 (rows of pits per player)");
            board_ok = false;
        }
    }
    let cols = *board.pits.get_ref() as usize;
    let middle = board.middle.as_ref().map_or(0, |m| *m.get_ref() as usize);
    if let Some(m) = &board.middle {
        if middle == 0 || 3 * middle != cols {
            cx.error(
                m.span(),
                "`middle` must be a third of `pits`: each player's row is twice their half of the middle row",
            )
            .notes
            .push(format!("pits = {cols}: middle = {} would fit", cols / 3));
            board_ok = false;
        } else if let Some(r) = board.rows.as_ref().filter(|r| *r.get_ref() != 1) {
            cx.error(
                r.span(),
                "a board with a middle row has one row of each player's own (`rows = 1`)",
            );
            board_ok = false;
        } else if let Some(n) = &board.numbering {
            cx.error(
                n.span(),
                "a board with a middle row is numbered along the sowing: leave `numbering` out",
            );
            board_ok = false;
        }
    }
    if cols < 1 || rows.clamp(1, 2) * cols > MAX_SIDE {
        cx.error(
            board.pits.span(),
            format!("a player may own 1 to {MAX_SIDE} pits"),
        )
        .notes
        .push(format!("rows × pits is {}", rows * cols));
        board_ok = false;
    }
    if !board_ok || cx.repairs.touched("board") || cx.repairs.touched("sowing") {
        return None;
    }
    let place = match &board.numbering {
        _ if middle > 0 => Some(Geometry::middle_places(middle)),
        None => Some(Geometry::default_places(rows, cols)),
        Some(numbering) => places(numbering, rows, cols, cx.errors),
    };
    if !board.stores && (spec.own_store || spec.other_store) {
        let at = cx
            .key_span(&["sowing", "stores"])
            .unwrap_or(rules.board.span());
        cx.error(
            at,
            "`sowing.stores` sows into stores, but the board has none (`stores = true`)",
        )
        .notes
        .push("add `stores = true` to `[board]`, or leave `sowing.stores` out".to_string());
    }
    let grid = match middle {
        0 => (rows, cols, 0),
        m => (2, 2 * m, m),
    };
    let geo = Geometry::new(grid, board.stores, place?, spec);
    if geo.circuit_len[0] < 2 {
        cx.error(
            rules.board.span(),
            "a sowing circuit needs at least two pits",
        );
        return None;
    }
    Some(geo)
}

/// An explicit numbering: every `[row, column]` of the grid exactly once.
fn places(
    numbering: &Spanned<Vec<Spanned<Vec<u32>>>>,
    rows: usize,
    cols: usize,
    errors: &mut Vec<Diagnostic>,
) -> Option<Vec<(u8, u8)>> {
    let before = errors.len();
    let mut place = Vec::new();
    for entry in numbering.get_ref() {
        match entry.get_ref().as_slice() {
            &[r, c] if (1..=rows as u32).contains(&r) && (1..=cols as u32).contains(&c) => {
                let pl = (r as u8, c as u8);
                if place.contains(&pl) {
                    errors.push(err(
                        entry.span(),
                        format!("pit [{r}, {c}] is numbered twice"),
                    ));
                }
                place.push(pl);
            }
            _ => errors.push(err(entry.span(), "not a pit of this board").note(format!(
                "a place is [row, column], row 1..={rows}, column 1..={cols}"
            ))),
        }
    }
    let missing: Vec<String> = (1..=rows as u8)
        .flat_map(|r| (1..=cols as u8).map(move |c| (r, c)))
        .filter(|pl| !place.contains(pl))
        .map(|(r, c)| format!("[{r}, {c}]"))
        .collect();
    if !missing.is_empty() {
        errors.push(
            err(numbering.span(), "the numbering misses pits")
                .note(format!("not numbered: {}", missing.join(", "))),
        );
    }
    (errors.len() == before).then_some(place)
}

/// The board in plain words.
pub(super) fn describe(game: &SowingGame, s: &mut String) {
    let g = &game.geo;
    if g.middle > 0 {
        let _ = writeln!(
            s,
            "\nBoard: three rows of {}: each player's own row and their half of the middle row, on their right ({} pits a player){}; {} stones in all.",
            g.cols,
            g.n,
            if g.stores {
                ", a store each"
            } else {
                ", captures kept aside"
            },
            game.setup.total
        );
        return;
    }
    let _ = writeln!(
        s,
        "\nBoard: {} row(s) of {} pits a player{}; {} stones in all.",
        g.rows,
        g.cols,
        if g.stores {
            ", a store each"
        } else {
            ", captures kept aside"
        },
        game.setup.total
    );
}
