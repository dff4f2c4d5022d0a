//! The board for a terminal and as a picture.

use super::state::SowingState;
use super::SowingGame;
use ludus_core::game::Game;
use std::fmt::Write;

/// The board from `viewer`'s seat: the opponent's rows on top (their rear row first), the
/// viewer's below; pit numbers beside each row of counts; a closed pit's stones in brackets
/// (`[5]`), so that every stone is seen; a pit held by the player across the board marked `*`.
pub fn board(game: &SowingGame, st: &SowingState, viewer: usize) -> String {
    let g = &game.geo;
    let mut out = String::new();
    let (mut closed, mut ceded) = (false, false);
    // A line of cells, x counting columns from the viewer's left (a place with no pit blank).
    let mut line = |row: &[Option<(usize, usize)>]| {
        let mut nums = String::new();
        let mut counts = String::new();
        for cell in row {
            let Some((p, k)) = *cell else {
                nums.push_str("    ");
                counts.push_str("    ");
                continue;
            };
            let _ = write!(nums, "{k:>4}");
            let mut count = if st.is_closed(game, p, k) {
                closed = true;
                format!("[{}]", st.pit(game, p, k))
            } else if let Some(h) = st.house_owner(game, p, k) {
                match st.pit(game, p, k) {
                    0 => format!("H{h}"),
                    n => format!("{n}H{h}"),
                }
            } else {
                st.pit(game, p, k).to_string()
            };
            if st.is_ceded(game, p, k) {
                ceded = true;
                count.push('*');
            }
            let _ = write!(counts, "{count:>4}");
        }
        (nums, counts)
    };
    let names = game.player_names();
    let store = |p: usize| format!("{} {:>3}", names[p], st.store(p));
    let rows = lines(game, viewer);
    let _ = writeln!(out, "{}", store(1 - viewer));
    let rule = format!("     {}", "----".repeat(g.cols));
    for (i, row) in rows.iter().enumerate() {
        let (nums, counts) = line(row);
        if i < rows.len() / 2 {
            let _ = writeln!(out, "     {nums}   (pit)\n     {counts}");
            continue;
        }
        if i == rows.len() / 2 {
            let _ = writeln!(out, "{rule}");
        }
        let _ = writeln!(out, "     {counts}\n     {nums}   (pit)");
        // A shared middle row is ruled off on both sides.
        if rows.len() % 2 == 1 && i == rows.len() / 2 {
            let _ = writeln!(out, "{rule}");
        }
    }
    let _ = writeln!(out, "{}", store(viewer));
    if closed {
        let _ = writeln!(
            out,
            "[n]: a closed pit, its n stones out of play{}",
            match game.match_rule.is_some() {
                true => " this round",
                false => "",
            }
        );
    }
    if ceded {
        let _ = writeln!(
            out,
            "n*: a pit held by the player across the board (won in an earlier round); they sow it as `o` and its number"
        );
    }
    for owner in 0..2 {
        for h in st.houses(game, owner) {
            let _ = writeln!(
                out,
                "H{owner}: {}'s house, {}'s pit {} ({})",
                names[owner],
                names[h.0],
                h.1,
                if game.houses_keep() {
                    format!("it keeps its stones for {}", names[owner])
                } else {
                    format!("its stones go to {}'s store", names[owner])
                }
            );
        }
    }
    if game.placing(st) {
        let [a, b] = st.board.to_place;
        let _ = writeln!(
            out,
            "stones in hand to place: {} {a}, {} {b}",
            names[0], names[1]
        );
    }
    if let Some(s) = game.match_standing(st) {
        let _ = writeln!(
            out,
            "round {}  match points {} {} - {} {}",
            s.game, names[0], s.points[0], s.points[1], names[1],
        );
    }
    if st.last_end != super::MoveEnd::Sown {
        let _ = writeln!(out, "last move cut short: {}", st.last_end.text());
    }
    out
}

/// The board's lines of pits from `viewer`'s seat, top first: each player's pit (player,
/// number) at each column from the viewer's left. The opponent's rows (their rear row first),
/// then the viewer's; on a board with a middle row, the shared middle row between the two (an
/// odd number of lines: the middle one is counted with the viewer's).
fn lines(game: &SowingGame, viewer: usize) -> Vec<Vec<Option<(usize, usize)>>> {
    let g = &game.geo;
    let opp = 1 - viewer;
    let cell = |p: usize, row: usize, x: usize| -> Option<(usize, usize)> {
        // The opponent sees the columns mirrored.
        let col = if p == viewer { x } else { g.cols + 1 - x };
        g.place
            .iter()
            .position(|&pl| pl == (row as u8, col as u8))
            .map(|k| (p, k + 1))
    };
    let row_of = |p: usize, row: usize| (1..=g.cols).map(|x| cell(p, row, x)).collect();
    if g.middle > 0 {
        let shared = (1..=g.cols)
            .map(|x| cell(viewer, 1, x).or(cell(opp, 1, x)))
            .collect();
        return vec![row_of(opp, 2), shared, row_of(viewer, 2)];
    }
    let mut rows: Vec<Vec<_>> = (1..=g.rows).rev().map(|r| row_of(opp, r)).collect();
    rows.extend((1..=g.rows).map(|r| row_of(viewer, r)));
    rows
}

/// What the player to move is to do (after their name); `None` once the game is over.
pub fn awaited(game: &SowingGame, st: &SowingState) -> Option<String> {
    game.phase(st).to_move()?;
    Some(if game.placing(st) {
        format!(
            "to place a stone from hand ({} left)",
            st.board.to_place[usize::from(st.to_move)]
        )
    } else if st.giving {
        format!(
            "to give a stone to {} (from which pit?)",
            game.player_names()[1 - usize::from(st.to_move)]
        )
    } else if st.swapping {
        "to swap sides (`swap`: take the other side of the board) or `keep` them".to_string()
    } else if game.picking(st) || game.choosing_way(st) {
        format!("to {}", game.question_text(st))
    } else if st.pending.is_some() {
        format!("to decide: {} (`take` or `leave`)", game.question_text(st))
    } else if st.passing {
        "to pass: no pit can be sown (`pass`)".to_string()
    } else {
        "to move".to_string()
    })
}

/// Who is to do what, or how the game (and the match) ended.
pub fn status(game: &SowingGame, st: &SowingState) -> String {
    let names = game.player_names();
    if let (Some(p), Some(what)) = (game.phase(st).to_move(), awaited(game, st)) {
        return format!("{} {what}", names[p]);
    }
    let Some(o) = game.outcome(st) else {
        return String::new();
    };
    let who = o
        .winner
        .map_or("draw".to_string(), |w| format!("{} wins", names[w]));
    let over = game
        .match_standing(st)
        .filter(|s| s.over)
        .map_or("", |_| "  (match over)");
    format!(
        "game over ({}): {who} {}-{}{over}",
        o.reason, o.scores[0], o.scores[1]
    )
}

/// How moves are typed.
pub fn notation_help(game: &SowingGame, st: &SowingState) -> String {
    if game.placing(st) {
        return "Type the pit your stone goes into: its number if it is on your side of the \
                board, `o` and its number there if it is across the board (`o2`)."
            .to_string();
    }
    if st.giving {
        return "Type the pit of yours the stone you give comes from.".to_string();
    }
    if st.swapping {
        return "Before the first move you may turn the board round: type `swap` to take the \
                other side (its pits and store), or `keep`."
            .to_string();
    }
    if game.picking(st) {
        return "Type the pit you pick: its number if it is on your side of the board, `o` and \
                its number there if it is across the board (`o2`)."
            .to_string();
    }
    if st.pending.is_some() {
        return "Answer the question: `take` or `leave`.".to_string();
    }
    if st.passing {
        return "No pit of yours can be sown: type `pass`, and the other player moves on."
            .to_string();
    }
    let mut s = format!(
        "A move is the number of the pit you sow from: 1 to {}, as numbered beside your\n\
         row(s) on the board (each player counts their own pits).",
        game.geo.n
    );
    if game.geo.owners_change {
        s.push_str(
            "\nA pit you hold across the board (marked `*`) is `o` and its number there: `o2`.",
        );
    } else if game.geo.from_board {
        s.push_str("\nA pit across the board is `o` and its number there: `o2`.");
    }
    if game.sowing.lift_chosen {
        s.push_str(
            "\nYou choose how many stones to lift: the pit and the number after a colon, `3:2`\n\
             (two of pit 3's stones); the pit alone lifts them all.",
        );
    }
    if game.sowing.store_move.is_some() {
        s.push_str("\nYour store is sown as `s` where the rules allow it.");
    }
    if game.sowing.direction_choice.is_some() {
        s.push_str(
            "\nA pit that may be sown either way takes its direction: `3cw` (clockwise) or\n\
             `3ccw` (counterclockwise).",
        );
    }
    s
}

/// The board as an SVG picture from `viewer`'s seat, laid out as [`board`] is: the opponent's
/// rows on top, the viewer's below, the opponent's store on the left and the viewer's on the
/// right; every pit and store shows its count as a number, closed pits dashed, houses shaded.
pub fn svg(game: &SowingGame, st: &SowingState, viewer: usize) -> String {
    use ludus_core::svg::{Anchor, Svg, BOARD, HOLE, INK, PAPER, SHADE};
    const CELL: f64 = 60.0;
    const TOP: f64 = 34.0;
    let g = &game.geo;
    let opp = 1 - viewer;
    let names = game.player_names();
    let width = (g.cols as f64 + 2.0) * CELL;
    let rows = lines(game, viewer);
    let board_height = rows.len() as f64 * CELL;
    let height = TOP + board_height + 56.0;
    let mut svg = Svg::new(width, height);
    svg.rect(0.0, TOP, width, board_height, BOARD, Some(INK));
    for (i, row) in rows.iter().enumerate() {
        let cy = TOP + (i as f64 + 0.5) * CELL;
        for (x, cell) in (1..).zip(row) {
            let Some((p, k)) = *cell else {
                continue;
            };
            let cx = (x as f64 + 0.5) * CELL;
            let stones = st.pit(game, p, k);
            let count = stones.to_string();
            if st.is_closed(game, p, k) {
                svg.dashed_rect(cx - 24.0, cy - 24.0, 48.0, 48.0, SHADE);
            } else if let Some(h) = st.house_owner(game, p, k) {
                svg.circle(cx, cy, 24.0, SHADE, Some(INK));
                svg.text(
                    (cx + 17.0, cy - 17.0),
                    11.0,
                    Anchor::Middle,
                    true,
                    INK,
                    &format!("H{h}"),
                );
            } else {
                svg.circle(cx, cy, 24.0, HOLE, Some(INK));
            }
            if st.is_closed(game, p, k) || st.house_owner(game, p, k).is_some() {
                svg.text((cx, cy), 20.0, Anchor::Middle, true, INK, &count);
            } else {
                // The stones themselves, and their count on a tag at the pit's rim.
                svg.stones((cx, cy), (21.0, 21.0), stones as u32, 15);
                svg.circle(cx + 18.0, cy + 18.0, 10.0, PAPER, Some(INK));
                svg.text(
                    (cx + 18.0, cy + 18.0),
                    11.0,
                    Anchor::Middle,
                    true,
                    INK,
                    &count,
                );
            }
            if st.is_ceded(game, p, k) {
                // Held by the player across the board: marked as on the terminal board.
                svg.text((cx + 20.0, cy - 16.0), 14.0, Anchor::Middle, true, INK, "*");
            }
            svg.text(
                (cx - 22.0, cy - 22.0),
                10.0,
                Anchor::Start,
                false,
                INK,
                &k.to_string(),
            );
            svg.spot(
                cx - CELL / 2.0,
                cy - CELL / 2.0,
                CELL,
                CELL,
                &[("side", p.to_string()), ("pit", k.to_string())],
            );
        }
    }
    let mid = TOP + board_height / 2.0;
    for (p, cx) in [(opp, CELL / 2.0), (viewer, width - CELL / 2.0)] {
        let ry = board_height / 2.0 - 12.0;
        svg.ellipse(cx, mid, 24.0, ry, HOLE);
        let stones = st.store(p);
        svg.stones((cx, mid - 8.0), (20.0, ry - 14.0), stones as u32, 30);
        let tag = mid + ry - 10.0;
        svg.circle(cx, tag, 13.0, PAPER, Some(INK));
        svg.text(
            (cx, tag),
            14.0,
            Anchor::Middle,
            true,
            INK,
            &stones.to_string(),
        );
        svg.spot(
            cx - CELL / 2.0,
            TOP,
            CELL,
            board_height,
            &[("store", p.to_string())],
        );
    }
    svg.text(
        (8.0, TOP / 2.0),
        15.0,
        Anchor::Start,
        true,
        INK,
        &format!("{} (store left)", names[opp]),
    );
    svg.text(
        (width - 8.0, height - 42.0),
        15.0,
        Anchor::End,
        true,
        INK,
        &format!("{} (store right)", names[viewer]),
    );
    let status = match (game.outcome(st), game.phase(st).to_move()) {
        (Some(o), _) => match o.winner {
            Some(w) => format!("{} wins ({})", names[w], o.reason),
            None => format!("Draw ({})", o.reason),
        },
        // Before the sowing or between moves (a placement, the choice of sides, a gift): what
        // is awaited.
        (None, Some(p)) if game.placing(st) || st.swapping || st.giving => {
            let [a, b] = st.board.to_place;
            let what = awaited(game, st).unwrap_or_default();
            match game.placing(st) {
                true => format!(
                    "{} {what}; in hand: {} {a}, {} {b}",
                    names[p], names[0], names[1]
                ),
                false => format!("{} {what}", names[p]),
            }
        }
        (None, Some(p)) => format!("{} to move, ply {}", names[p], st.ply()),
        (None, None) => String::new(),
    };
    let standing = game.match_standing(st).map_or(String::new(), |s| {
        format!(
            "   round {}: {} {} – {} {}",
            s.game, names[0], s.points[0], s.points[1], names[1]
        )
    });
    svg.text(
        (8.0, height - 16.0),
        14.0,
        Anchor::Start,
        false,
        INK,
        &format!("{status}{standing}"),
    );
    svg.finish()
}
