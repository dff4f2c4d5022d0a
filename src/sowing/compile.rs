//! From the rules text to a [`SowingGame`]: every check that needs more than one value, the
//! board geometry, and the expressions compiled against their context's names. All problems
//! found are reported together, each at its place in the file.

use super::board::{Board, CircuitSpec, Geometry, Runs, MAX_SIDE, STORE};
use super::rules::{self, Rules};
use super::scope::{Context, PitCond, ScoreCond, View};
use super::{CaptureRule, Compiled, EndRule, MatchRule, SowingGame};
use crate::diagnostics::Diagnostic;
use crate::expr::{Expr, Type};
use crate::game::Ritual;
use crate::limits::LIMITS;
use crate::rules::{expr, RulesDoc};
use toml::Spanned;

/// Stones are counted in bytes: the whole game must fit.
const MAX_STONES: u32 = LIMITS.stones;
/// The highest lap cap a rules file may ask for (a move is at most this many laps).
const MAX_LAPS: u32 = LIMITS.laps_per_move;
const DEFAULT_LAPS: u32 = 1_000;

pub fn compile(doc: &RulesDoc) -> Result<SowingGame, Vec<Diagnostic>> {
    let rules: Rules = doc.read()?;
    let text = doc.text();
    let mut errors = Vec::new();
    let game = build(text, &rules, &mut errors);
    match game {
        Some(g) if errors.is_empty() => Ok(g),
        _ => Err(errors),
    }
}

fn err(span: std::ops::Range<usize>, message: impl Into<String>) -> Diagnostic {
    Diagnostic::new(message).at(span)
}

fn build(text: &str, rules: &Rules, errors: &mut Vec<Diagnostic>) -> Option<SowingGame> {
    let board = rules.board.get_ref();
    let rows = board.rows.as_ref().map_or(1, |r| *r.get_ref()) as usize;
    if let Some(r) = &board.rows {
        if !(1..=2).contains(r.get_ref()) {
            errors.push(err(
                r.span(),
                "`rows` must be 1 or 2 (rows of pits per player)",
            ));
        }
    }
    let cols = *board.pits.get_ref() as usize;
    if cols < 1 || rows.clamp(1, 2) * cols > MAX_SIDE {
        errors.push(
            err(
                board.pits.span(),
                format!("a player may own 1 to {MAX_SIDE} pits"),
            )
            .note(format!("rows × pits is {}", rows * cols)),
        );
    }
    if !errors.is_empty() {
        return None;
    }
    let place = match &board.numbering {
        None => Geometry::default_places(rows, cols),
        Some(numbering) => places(numbering, rows, cols, errors)?,
    };
    let sowing = rules.sowing.as_ref();
    let spec = CircuitSpec {
        clockwise: sowing.is_some_and(|s| s.direction == rules::Direction::Clockwise),
        own_only: sowing.is_some_and(|s| s.circuit == rules::CircuitKind::Own),
        own_store: sowing.is_some_and(|s| s.stores != rules::StoreSowing::None),
        other_store: sowing.is_some_and(|s| s.stores == rules::StoreSowing::Both),
    };
    if !board.stores && (spec.own_store || spec.other_store) {
        errors.push(err(
            rules.board.span(),
            "`sowing.stores` sows into stores, but the board has none (`stores = true`)",
        ));
    }
    let geo = Geometry::new(rows, cols, board.stores, place, spec);
    if geo.circuit_len[0] < 2 {
        errors.push(err(
            rules.board.span(),
            "a sowing circuit needs at least two pits",
        ));
        return None;
    }
    let initial = setup(rules, &geo, errors)?;
    let total: u32 = initial.count.iter().map(|&c| u32::from(c)).sum();
    let scope = |c: Context| c.scope(total as i32);
    let compile = |errors: &mut Vec<Diagnostic>, c: Context, value: &Spanned<String>| {
        expr(text, value, &scope(c), Type::Bool)
            .map_err(|d| errors.push(d.note(format!("in `{}`", c.key()))))
            .ok()
    };
    let default_start = Expr::compile("pit.count > 0", &scope(Context::Start), Type::Bool)
        .expect("the default start condition compiles");
    let start_cond = match sowing.and_then(|s| s.start.as_ref()) {
        Some(v) => compile(errors, Context::Start, v),
        None => Some(default_start),
    };
    let take = sowing
        .and_then(|s| s.take.as_ref())
        .and_then(|v| compile(errors, Context::Drop, v))
        .map(|e| PitCond::new(e, View::Pit, &geo, total as u8));
    let max_laps = match sowing.and_then(|s| s.max_laps.as_ref()) {
        Some(v) if !(1..=MAX_LAPS).contains(v.get_ref()) => {
            errors.push(err(v.span(), format!("`max_laps` must be 1..={MAX_LAPS}")));
            DEFAULT_LAPS
        }
        Some(v) => *v.get_ref(),
        None => DEFAULT_LAPS,
    };
    let capture = rules.capture.as_ref().and_then(|c| {
        let when = compile(errors, Context::Capture, &c.when)?;
        let chain = match &c.chain {
            Some(v) => Some(compile(errors, Context::Chain, v)?),
            None => None,
        };
        if c.take.get_ref().is_empty() {
            errors.push(err(c.take.span(), "`take` names no pit to capture"));
        }
        let when = PitCond::new(when, View::Last, &geo, total as u8);
        let far = |t: &rules::Target| matches!(t, rules::Target::Next | rules::Target::Beyond);
        Some(CaptureRule {
            needs_next: !when.is_tabulated() || c.take.get_ref().iter().any(far),
            when,
            targets: c.take.get_ref().clone(),
            chain: chain.map(|e| PitCond::new(e, View::Pit, &geo, total as u8)),
            grand_slam: c.grand_slam,
        })
    });
    let again = rules
        .turn
        .as_ref()
        .and_then(|t| t.again.as_ref())
        .and_then(|v| compile(errors, Context::Again, v));
    let end = rules.end.as_ref();
    let score = end
        .and_then(|e| e.score.as_ref())
        .and_then(|v| compile(errors, Context::Score, v))
        .map(|e| ScoreCond::new(e, &geo, total as u8));
    let stop = end
        .and_then(|e| e.stop.as_ref())
        .and_then(|v| compile(errors, Context::Stop, v))
        .map(|e| ScoreCond::new(e, &geo, total as u8));
    let max_plies = end.and_then(|e| e.max_plies.as_ref()).map(|v| {
        if *v.get_ref() == 0 {
            errors.push(err(v.span(), "`max_plies` must be at least 1"));
        }
        *v.get_ref()
    });
    let match_rule = rules.match_.as_ref().map(|m| {
        let refill = *m.refill.get_ref();
        // Rule values are untrusted: compared in 64 bits, no product can wrap.
        if refill == 0 || u64::from(refill) * 2 > u64::from(total) {
            errors.push(err(
                m.refill.span(),
                format!(
                    "`refill` must be 1..={} (half the {total} stones)",
                    total / 2
                ),
            ));
        }
        MatchRule {
            refill: refill.min(MAX_STONES) as u8,
            fill_from: m.fill_from,
            partial: m.partial,
            next_first: m.next_first,
        }
    });
    let first_move = setup_first_move(rules, &geo, errors);
    let ritual = match rules.setup.as_ref().and_then(|s| s.get_ref().ritual) {
        Some(rules::RitualKind::OddOrEven) => Ritual::OddOrEven,
        _ => Ritual::None,
    };
    let info = &rules.game;
    let players = match &info.players {
        Some(p) if p.get_ref().len() == 2 => [p.get_ref()[0].clone(), p.get_ref()[1].clone()],
        Some(p) => {
            errors.push(err(p.span(), "`players` lists exactly two names"));
            return None;
        }
        None => ["South".to_string(), "North".to_string()],
    };
    let sowing_default = sowing
        .map_or((rules::SkipOrigin::Never, rules::Relay::None, false), |s| {
            (s.skip_origin, s.relay, s.must_feed)
        });
    let start = start_cond.map(|e| PitCond::new(e, View::Pit, &geo, total as u8))?;
    let max_drops = max_laps * geo.circuit_len[0].max(geo.circuit_len[1]) as u32;
    Some(SowingGame(Box::new(Compiled {
        name: info.name.get_ref().clone(),
        title: info
            .title
            .clone()
            .unwrap_or_else(|| info.name.get_ref().clone()),
        source: info.source.clone(),
        players,
        start_is_nonzero: start.is_nonzero(&geo, total as u8),
        start,
        runs: Runs::new(&geo, sowing_default.0 != rules::SkipOrigin::Never),
        geo,
        setup: initial,
        total,
        first_move,
        ritual,
        skip_origin: sowing_default.0,
        relay: sowing_default.1,
        must_feed: sowing_default.2,
        max_drops,
        circuit: spec,
        take,
        capture,
        again,
        end: EndRule {
            score,
            stop,
            repetition: end.is_some_and(|e| e.repetition),
            leftover: end.map_or(rules::Leftover::Owners, |e| e.leftover),
            max_plies,
            agreement: end.is_some_and(|e| e.agreement),
        },
        match_rule,
    })))
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

/// The starting board from `[setup]`.
fn setup(rules: &Rules, geo: &Geometry, errors: &mut Vec<Diagnostic>) -> Option<Board> {
    let mut board = Board::empty();
    let Some(setup) = &rules.setup else {
        errors.push(
            err(rules.board.span(), "missing table `[setup]`")
                .note("stones = 4, or layout = [[...], [...]]"),
        );
        return None;
    };
    let setup_ref = setup.get_ref();
    match (&setup_ref.stones, &setup_ref.layout) {
        (Some(s), None) => {
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
        (None, Some(layout)) => {
            let rows = layout.get_ref();
            if rows.len() != 1 && rows.len() != 2 {
                errors.push(err(
                    layout.span(),
                    "`layout` is one list (both players) or two",
                ));
                return None;
            }
            let mut total = 0u32;
            for p in 0..2 {
                let row = &rows[p.min(rows.len() - 1)];
                if row.get_ref().len() != geo.n {
                    errors.push(err(
                        row.span(),
                        format!(
                            "{} pits listed, the board has {} a side",
                            row.get_ref().len(),
                            geo.n
                        ),
                    ));
                    return None;
                }
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
                "`[setup]` gives either `stones` or `layout`",
            ));
            return None;
        }
    }
    if board.count[..STORE].iter().all(|&c| c == 0) {
        errors.push(err(setup.span(), "the board starts with no stones"));
        return None;
    }
    Some(board)
}

fn setup_first_move(rules: &Rules, geo: &Geometry, errors: &mut Vec<Diagnostic>) -> Option<u8> {
    let v = rules.setup.as_ref()?.get_ref().first_move.as_ref()?;
    if !(1..=geo.n as u32).contains(v.get_ref()) {
        errors.push(err(v.span(), format!("pits are numbered 1..={}", geo.n)));
        return None;
    }
    Some(*v.get_ref() as u8)
}
