//! The board for a terminal and the rules in plain words.

use super::rules::{
    CaptureChoice, CaptureTo, ChainWay, FillFrom, GrandSlam, HouseChoice, Leftover, MustFeed,
    NoMove, Partial, Relay, SkipOrigin, SowFrom, TakeChoice, TakeTo, Target,
};
use super::state::SowingState;
use super::SowingGame;
use ludus_core::game::next_first_text;
use ludus_core::game::{Game, Ritual};
use std::fmt::Write;

/// The board from `viewer`'s seat: the opponent's rows on top (their rear row first), the
/// viewer's below; pit numbers beside each row of counts; a closed pit's stones in brackets
/// (`[5]`), so that every stone is seen.
pub fn board(game: &SowingGame, st: &SowingState, viewer: usize) -> String {
    let g = &game.geo;
    let opp = 1 - viewer;
    let cell = |p: usize, row: usize, x: usize| -> Option<usize> {
        // x counts columns from the viewer's left; the opponent sees them mirrored.
        let col = if p == viewer { x } else { g.cols + 1 - x };
        g.place
            .iter()
            .position(|&pl| pl == (row as u8, col as u8))
            .map(|k| k + 1)
    };
    let mut out = String::new();
    let mut closed = false;
    let mut line = |p: usize, row: usize| {
        let mut nums = String::new();
        let mut counts = String::new();
        for x in 1..=g.cols {
            if let Some(k) = cell(p, row, x) {
                let _ = write!(nums, "{k:>4}");
                let count = if st.is_closed(game, p, k) {
                    closed = true;
                    format!("[{}]", st.pit(game, p, k))
                } else if let Some(h) = st.house_owner(game, p, k) {
                    format!("H{h}")
                } else {
                    st.pit(game, p, k).to_string()
                };
                let _ = write!(counts, "{count:>4}");
            }
        }
        (nums, counts)
    };
    let names = game.player_names();
    let store = |p: usize| format!("{} {:>3}", names[p], st.store(p));
    let _ = writeln!(out, "{}", store(opp));
    for row in (1..=g.rows).rev() {
        let (nums, counts) = line(opp, row);
        let _ = writeln!(out, "     {nums}   (pit)\n     {counts}");
    }
    let _ = writeln!(out, "     {}", "----".repeat(g.cols));
    for row in 1..=g.rows {
        let (nums, counts) = line(viewer, row);
        let _ = writeln!(out, "     {counts}\n     {nums}   (pit)");
    }
    let _ = writeln!(out, "{}", store(viewer));
    if closed {
        let _ = writeln!(
            out,
            "[n]: a closed pit, its n stones out of play this round"
        );
    }
    for (h, owner) in (0..2).filter_map(|p| st.house(game, p).map(|h| (h, p))) {
        let _ = writeln!(
            out,
            "H{owner}: {}'s house, {}'s pit {} (its stones go to {}'s store)",
            names[owner], names[h.0], h.1, names[owner]
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

/// What the player to move is to do (after their name); `None` once the game is over.
pub fn awaited(game: &SowingGame, st: &SowingState) -> Option<String> {
    game.phase(st).to_move()?;
    Some(if st.pending.is_some() {
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
    if game.direction_choice.is_some() {
        s.push_str(
            "\nA pit that may be sown either way takes its direction: `3cw` (clockwise) or\n\
             `3ccw` (counterclockwise).",
        );
    }
    s
}

/// The rules in plain words, from the compiled game.
pub fn describe(game: &SowingGame) -> String {
    let g = &game.geo;
    let [p0, p1] = game.player_names();
    let mut s = String::new();
    let _ = writeln!(s, "{} ({} vs {})", game.title, p0, p1);
    if let Some(src) = &game.source {
        let _ = writeln!(s, "{}", src.trim());
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
        game.total
    );
    let _ =
        writeln!(
        s,
        "Sowing: lift every stone of one of your pits where `{}` and sow one a pit {} round {}{}.",
        game.start.expr.text(),
        if game.circuit.clockwise { "clockwise" } else { "counterclockwise" },
        if game.circuit.own_only { "your own pits only" } else { "the board" },
        match (game.circuit.own_store, game.circuit.other_store) {
            (true, true) => ", both stores included",
            (true, false) => ", your own store included",
            _ => "",
        }
    );
    let _ = writeln!(
        s,
        "{}",
        match game.skip_origin {
            SkipOrigin::Never => "The emptied pit is sown into again when the sowing laps round.",
            SkipOrigin::Lap => "The pit being sown from is skipped when the sowing laps round.",
            SkipOrigin::Move =>
                "The move's first pit is skipped for the whole move, relays included.",
        }
    );
    let other_way = if game.circuit.clockwise {
        "counterclockwise"
    } else {
        "clockwise"
    };
    if let Some(r) = &game.reverse {
        let _ = writeln!(
            s,
            "A pit where `{}` is sown the other way round ({other_way}).",
            r.expr.text()
        );
    }
    if let Some(c) = &game.direction_choice {
        let _ = writeln!(
            s,
            "A pit where `{}` may be sown either way round, at your choice: such a move is written with its direction, `3ccw` (counterclockwise) or `3cw` (clockwise).",
            c.expr.text()
        );
    }
    if game.first_origin {
        let _ = writeln!(
            s,
            "The first stone goes back into the pit it was lifted from; a single stone moves on to the next pit."
        );
    }
    if let Some(f) = game.first_move {
        let _ = writeln!(s, "The first move of a new game must be pit {f}.");
    }
    match game.relay {
        Relay::None => {}
        Relay::Next => {
            let _ = writeln!(s, "Relay: after the last stone, the next pit is lifted and sown on if it holds stones; the move ends at an empty pit.");
        }
        Relay::Previous => {
            let _ = writeln!(s, "Relay: after the last stone, the pit before it is lifted and sown on if it holds stones; the move ends at an empty pit.");
        }
        Relay::Last => {
            let _ = writeln!(s, "Relay: if the last stone lands in a pit that held stones, that pit is lifted and sown on.");
        }
    }
    if let Some(r) = &game.relay_when {
        let _ = writeln!(s, "A relay lift happens only when `{}`.", r.expr.text());
    }
    if let Some(t) = &game.take {
        let store = match game.take_to {
            TakeTo::Owner => "its owner's store",
            TakeTo::Mover => "the sowing player's store",
        };
        let _ = writeln!(
            s,
            "On every drop: a pit where `{}` {}.",
            t.expr.text(),
            match game.take_choice {
                TakeChoice::None => format!("goes at once to {store}"),
                TakeChoice::Owner => format!(
                    "may go to {store}: its owner decides, take or leave, also during the opponent's sowing"
                ),
                TakeChoice::Mover =>
                    format!("may go to {store}: the player sowing decides, take or leave"),
            }
        );
    }
    match game.must_feed {
        MustFeed::No => {}
        MustFeed::Sown => {
            let _ = writeln!(s, "Feeding: when the opponent has no stones, you must sow some into their pits if you can.");
        }
        MustFeed::Kept => {
            let _ = writeln!(s, "Feeding: when the opponent has no stones, you must leave them some once your move, capture included, is over, if you can; taking back what you fed them is no grand slam.");
        }
    }
    if let Some(h) = &game.house {
        let _ = writeln!(
            s,
            "House: once the sowing has ended, before any capture, when `{}`, the last pit {} your house for the rest of the game (at most one each): its stones, and every stone later sown into it, go to your store.",
            h.expr.text(),
            match game.house_choice {
                HouseChoice::None => "becomes",
                HouseChoice::Mover => "may become (the mover decides, make it or leave it)",
            }
        );
    }
    if let Some(c) = &game.capture {
        let targets: Vec<&str> = c
            .targets
            .iter()
            .map(|t| match t {
                Target::Last => "the last pit",
                Target::Opposite => "the pit opposite the last",
                Target::Column => "the opponent's pits in the last pit's column",
                Target::Next => "the pit after the last",
                Target::Beyond => "the pit beyond the next",
            })
            .collect();
        let _ = writeln!(
            s,
            "Capture: when `{}`, {} {}.",
            c.when.expr.text(),
            match c.choice {
                CaptureChoice::None => "take",
                CaptureChoice::Mover => "the mover may take (or leave)",
            },
            targets.join(" and ")
        );
        if let Some(ch) = &c.chain {
            let way = match c.chain_way {
                ChainWay::Back => "back (against the sowing)",
                ChainWay::On => "on (the way the move sowed)",
                ChainWay::Both => "both ways",
            };
            let most = match c.chain_max {
                u32::MAX => String::new(),
                m => format!(
                    ", at most {m} pit{} each way",
                    if m == 1 { "" } else { "s" }
                ),
            };
            let _ = writeln!(
                s,
                "Then walking {way}, take each pit while `{}`{most}.",
                ch.expr.text()
            );
        }
        if c.to == CaptureTo::Sow {
            let _ = writeln!(
                s,
                "Captures are checked after every lap; the captured stones are sown on at once from {}, and the move goes on.",
                match c.sow_from {
                    SowFrom::Lap => "the pit that lap was lifted from",
                    SowFrom::Last => "the lap's last pit",
                }
            );
        }
        let _ = writeln!(
            s,
            "Grand slam (taking every stone the opponent has): {}.",
            match c.grand_slam {
                GrandSlam::Capture => "captures as usual",
                GrandSlam::NoCapture => "legal, captures nothing",
                GrandSlam::Forbidden => "forbidden unless it is the only move",
            }
        );
    }
    if let Some(a) = &game.again {
        let _ = writeln!(s, "Move again when `{}`.", a.text());
    }

    let e = &game.end;
    let _ = write!(s, "End:");
    if let Some(w) = &e.win {
        let _ = write!(
            s,
            " at once when `{}` holds for a player (the mover first), who wins;",
            w.expr.text()
        );
    }
    if let Some(sc) = &e.score {
        let _ = write!(s, " at once when `{}`;", sc.expr.text());
    }
    if let Some(st) = &e.stop {
        let _ = write!(s, " when `{}`;", st.expr.text());
    }
    if e.repetition {
        let _ = write!(s, " when a position repeats;");
    }
    let _ = write!(
        s,
        "{}",
        match e.no_move {
            NoMove::Ends => " when the player to move has no legal move;",
            NoMove::Pass =>
                " when neither player has a legal move (one who has none passes and the other moves on);",
            NoMove::Loses => " when the player to move has no legal move, who then loses;",
        }
    );
    if let Some(m) = e.max_plies {
        let _ = write!(s, " after {m} plies;");
    }
    if e.agreement {
        let _ = write!(s, " by agreement;");
    }
    let _ = writeln!(
        s,
        " {}. More stones wins.",
        match e.leftover {
            Leftover::Owners => "stones left on the board go to their side's owner",
            Leftover::None => "stones left on the board are not counted",
            Leftover::Opponent =>
                "stones left on the board all go to the opponent of the player to move (after a player cannot move: to the player who moved last)",
            Leftover::Mover => "stones left on the board all go to the player who made the last move",
            Leftover::Divided =>
                "stones left on the board are shared out evenly, an odd one to the player with fewer in store (when equal, to the player who did not make the last move)",
        }
    );
    if let Some(m) = &game.match_rule {
        let _ = writeln!(
            s,
            "Match: each round, players refill their pits {} a pit from the {}; the surplus goes to the store; {} out of play; fewer than {} stones loses the match; {}.",
            m.refill,
            match m.fill_from { FillFrom::Right => "right", FillFrom::Left => "left" },
            match m.partial {
                Partial::Closed => "a partly filled pit and the unfilled ones are",
                Partial::Open => "unfilled pits are",
                Partial::Store => "the stones short of a pit go to the store, and unfilled pits are",
            },
            u32::from(m.refill) * m.min_pits,
            next_first_text(m.next_first, "round")
        );
    }
    if game.ritual == Ritual::OddOrEven {
        let _ = writeln!(
            s,
            "Who starts: one player hides stones, the other guesses odd or even."
        );
    }
    if let Some(e) = &game.evaluate {
        let _ = writeln!(
            s,
            "The computer players value a position by `{}` ([ai] evaluate), `mover` being the player valued.",
            e.text()
        );
    }
    s
}

/// The board as an SVG picture from `viewer`'s seat, laid out as [`board`] is: the opponent's
/// rows on top, the viewer's below, the opponent's store on the left and the viewer's on the
/// right; every pit and store shows its count as a number, closed pits dashed, houses shaded.
pub fn svg(game: &SowingGame, st: &SowingState, viewer: usize) -> String {
    use ludus_core::svg::{Anchor, Svg, BOARD, INK, SHADE};
    const CELL: f64 = 60.0;
    const TOP: f64 = 34.0;
    let g = &game.geo;
    let opp = 1 - viewer;
    let names = game.player_names();
    let width = (g.cols as f64 + 2.0) * CELL;
    let board_height = 2.0 * g.rows as f64 * CELL;
    let height = TOP + board_height + 56.0;
    let mut svg = Svg::new(width, height);
    svg.rect(0.0, TOP, width, board_height, BOARD, Some(INK));
    // Row y of the opponent's rows (rear row first, as seen from across) and the viewer's.
    let mut rows: Vec<(usize, usize)> = (1..=g.rows).rev().map(|r| (opp, r)).collect();
    rows.extend((1..=g.rows).map(|r| (viewer, r)));
    for (i, &(p, row)) in rows.iter().enumerate() {
        let cy = TOP + (i as f64 + 0.5) * CELL;
        for x in 1..=g.cols {
            let col = if p == viewer { x } else { g.cols + 1 - x };
            let Some(k) = g.place.iter().position(|&pl| pl == (row as u8, col as u8)) else {
                continue;
            };
            let k = k + 1;
            let cx = (x as f64 + 0.5) * CELL;
            let count = st.pit(game, p, k).to_string();
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
                svg.circle(cx, cy, 24.0, "#ffffff", Some(INK));
            }
            svg.text((cx, cy), 20.0, Anchor::Middle, true, INK, &count);
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
        svg.ellipse(cx, mid, 24.0, board_height / 2.0 - 12.0, "#ffffff");
        svg.text(
            (cx, mid),
            22.0,
            Anchor::Middle,
            true,
            INK,
            &st.store(p).to_string(),
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
