//! From the rules text to a [`SowingGame`]: every check that needs more than one value, the
//! board geometry, and the expressions compiled against their context's names. All problems
//! found are reported together, each at its place in the file: a check runs whenever what it
//! reads is sound, whatever else is wrong. Warnings point at rules that are legal but almost
//! certainly not meant (a game over before it begins, a pit taken twice).

use super::board::{Board, CircuitSpec, Geometry, Runs, MAX_SIDE, STORE};
use super::fast::FastPaths;
use super::keys::REFERENCE;
use super::rules::{self, Rules};
use super::scope::{Context, Ctx, PitCond, ScoreCond, View};
use super::{CaptureRule, Compiled, EndRule, MatchRule, SowingGame};
use ludus_core::diagnostics::Diagnostic;
use ludus_core::expr::{Expr, Type};
use ludus_core::game::{Game, Phase, Ritual};
use ludus_core::limits::LIMITS;
use ludus_core::rules::toml::constant_value;
use ludus_core::rules::{check as check_with, constant_evaluation, expr, Repairs, RulesDoc};
use std::ops::Range;
use toml::Spanned;

/// Stones are counted in bytes: the whole game must fit.
const MAX_STONES: u32 = LIMITS.stones;
/// The highest lap cap a rules file may ask for (a move is at most this many laps).
const MAX_LAPS: u32 = LIMITS.laps_per_move;
const DEFAULT_LAPS: u32 = 1_000;

/// Compiles a sowing rules file: the game, or every error found.
pub fn compile(doc: &RulesDoc) -> Result<SowingGame, Vec<Diagnostic>> {
    ludus_core::diagnostics::game_or_errors(check(doc))
}

/// Checks a sowing rules file: the game when it has no error, and every error and warning
/// found, located in the text and annotated from the reference (errors first, each kind in the
/// order of the text).
pub fn check(doc: &RulesDoc) -> (Option<SowingGame>, Vec<Diagnostic>) {
    check_with(doc, &REFERENCE, |repairs, rules, errors, warnings| {
        // The keys' places are looked up in the repaired text, where the diagnostics are.
        let repaired;
        let work = if repairs.is_empty() {
            doc
        } else {
            match RulesDoc::parse(repairs.text(doc.text())) {
                Ok(d) => {
                    repaired = d;
                    &repaired
                }
                Err(_) => doc,
            }
        };
        let mut cx = Cx {
            text: work.text(),
            doc: work,
            repairs,
            errors,
            warnings,
        };
        build(&mut cx, rules)
    })
}

/// What a check reads and writes.
struct Cx<'a> {
    /// The text checked (repaired where the file has structural errors).
    text: &'a str,
    doc: &'a RulesDoc,
    repairs: &'a Repairs,
    errors: &'a mut Vec<Diagnostic>,
    warnings: &'a mut Vec<Diagnostic>,
}

impl Cx<'_> {
    fn error(&mut self, span: Range<usize>, message: impl Into<String>) -> &mut Diagnostic {
        self.errors.push(Diagnostic::new(message).at(span));
        self.errors.last_mut().expect("just pushed")
    }
    fn warn(&mut self, span: Range<usize>, message: impl Into<String>) -> &mut Diagnostic {
        self.warnings.push(Diagnostic::warning(message).at(span));
        self.warnings.last_mut().expect("just pushed")
    }
    /// Compiles a condition of context `c`; an error is reported and gives `None`.
    fn condition(&mut self, c: Context, total: u32, value: &Spanned<String>) -> Option<Expr> {
        self.expression(c, total, value, Type::Bool)
    }
    /// Compiles an expression of context `c` and type `ty`; an error is reported and gives
    /// `None`.
    fn expression(
        &mut self,
        c: Context,
        total: u32,
        value: &Spanned<String>,
        ty: Type,
    ) -> Option<Expr> {
        expr(self.text, value, &c.scope(total as i32), ty)
            .map_err(|d| self.errors.push(d))
            .ok()
    }
}

fn err(span: Range<usize>, message: impl Into<String>) -> Diagnostic {
    Diagnostic::new(message).at(span)
}

fn build(cx: &mut Cx, rules: &Rules) -> Option<SowingGame> {
    let board = rules.board.get_ref();
    let sowing = rules.sowing.as_ref();
    let end = rules.end.as_ref();

    // The checks of one key each.
    let players = rules.game.player_names(["South", "North"], cx.errors);
    let rows = board.rows.as_ref().map_or(1, |r| *r.get_ref()) as usize;
    let mut board_ok = true;
    if let Some(r) = &board.rows {
        if !(1..=2).contains(r.get_ref()) {
            cx.error(r.span(), "`rows` must be 1 or 2 (rows of pits per player)");
            board_ok = false;
        }
    }
    let cols = *board.pits.get_ref() as usize;
    if cols < 1 || rows.clamp(1, 2) * cols > MAX_SIDE {
        cx.error(
            board.pits.span(),
            format!("a player may own 1 to {MAX_SIDE} pits"),
        )
        .notes
        .push(format!("rows × pits is {}", rows * cols));
        board_ok = false;
    }
    let max_laps = match sowing.and_then(|s| s.max_laps.as_ref()) {
        Some(v) if !(1..=MAX_LAPS).contains(v.get_ref()) => {
            cx.error(v.span(), format!("`max_laps` must be from 1 to {MAX_LAPS}"));
            DEFAULT_LAPS
        }
        Some(v) => *v.get_ref(),
        None => DEFAULT_LAPS,
    };
    let max_plies = end.and_then(|e| e.max_plies.as_ref()).map(|v| {
        if *v.get_ref() == 0 {
            cx.error(v.span(), "`max_plies` must be at least 1");
        } else if *v.get_ref() > LIMITS.plies_per_game {
            cx.warn(
                v.span(),
                format!(
                    "every game ends by {} plies (the ply guard), before `max_plies`",
                    LIMITS.plies_per_game
                ),
            );
        }
        *v.get_ref()
    });
    let ritual = match rules.setup.as_ref().and_then(|s| s.get_ref().ritual) {
        Some(rules::RitualKind::OddOrEven) => Ritual::OddOrEven,
        _ => Ritual::None,
    };
    let spec = CircuitSpec {
        clockwise: sowing.is_some_and(|s| s.direction == rules::Direction::Clockwise),
        own_only: sowing.is_some_and(|s| s.circuit == rules::CircuitKind::Own),
        own_store: sowing.is_some_and(|s| s.stores != rules::StoreSowing::None),
        other_store: sowing.is_some_and(|s| s.stores == rules::StoreSowing::Both),
    };
    if spec.own_only && sowing.is_some_and(|s| s.must_feed != rules::MustFeed::No) {
        let at = key_span(cx, &["sowing", "must_feed"]).unwrap_or(rules.board.span());
        cx.warn(
            at,
            "`must_feed` with `circuit = \"own\"`: no move sows into the opponent's pits, so a \
             player whose opponent's pits are empty has no legal move",
        );
    }

    // The board and the starting position: only from tables read as written.
    let geo = if board_ok && !cx.repairs.touched("board") && !cx.repairs.touched("sowing") {
        geometry(cx, rules, rows, cols, spec)
    } else {
        None
    };
    let initial = match &geo {
        Some(g) if !cx.repairs.touched("setup") => setup(cx, rules, g),
        _ => None,
    };
    let total: Option<u32> = initial
        .as_ref()
        .map(|b| b.count.iter().map(|&c| u32::from(c)).sum());

    // The expressions: their names and types do not depend on the board.
    let names_total = total.unwrap_or(0);
    let start_value = sowing.and_then(|s| s.start.as_ref());
    let start_cond = match start_value {
        Some(v) => cx.condition(Context::Start, names_total, v),
        None => Some(
            Expr::compile("pit.count > 0", &Context::Start.scope(0), Type::Bool)
                .expect("the default start condition compiles"),
        ),
    };
    let way_condition = |cx: &mut Cx, v: Option<&Spanned<String>>| {
        v.map(|v| cx.condition(Context::Start, names_total, v))
    };
    let reverse = way_condition(cx, sowing.and_then(|s| s.reverse.as_ref()));
    let direction_choice = way_condition(cx, sowing.and_then(|s| s.direction_choice.as_ref()));
    let take = sowing
        .and_then(|s| s.take.as_ref())
        .map(|v| cx.condition(Context::Drop, names_total, v));
    let relay_when = sowing.and_then(|s| {
        let v = s.relay_when.as_ref()?;
        if s.relay == rules::Relay::None {
            cx.warn(
                v.span(),
                "`relay_when` without `relay`: the sowing never relays, so it is never checked",
            );
        }
        Some(cx.condition(Context::Relay, names_total, v))
    });
    let take_choice = sowing.and_then(|s| s.take_choice.as_ref());
    if let (Some(choice), None) = (take_choice, &take) {
        if *choice.get_ref() != rules::TakeChoice::None {
            cx.warn(
                choice.span(),
                "`take_choice` without `take`: no pit is ever taken, so there is nothing to choose",
            );
        }
    }
    let take_choice = take_choice.map_or(rules::TakeChoice::None, |c| *c.get_ref());
    let take_to = sowing.and_then(|s| s.take_to.as_ref());
    if let (Some(to), None) = (take_to, &take) {
        cx.warn(
            to.span(),
            "`take_to` without `take`: no pit is ever taken on a drop",
        );
    }
    let take_to = take_to.map_or(rules::TakeTo::Owner, |t| *t.get_ref());
    let capture = rules.capture.as_ref().map(|c| {
        let when = cx.condition(Context::Capture, names_total, &c.when);
        let chain = c
            .chain
            .as_ref()
            .map(|v| cx.condition(Context::Chain, names_total, v));
        if c.chain.is_none() {
            let stray = [
                (c.chain_way != rules::ChainWay::Back, "chain_way"),
                (c.chain_max.is_some(), "chain_max"),
            ];
            for (_, key) in stray.iter().filter(|(set, _)| *set) {
                if let Some(at) = key_span(cx, &["capture", key]) {
                    cx.warn(
                        at,
                        format!("`{key}` without `chain`: there is no chain to walk"),
                    );
                }
            }
        }
        if let Some(from) = c
            .sow_from
            .as_ref()
            .filter(|_| c.to != rules::CaptureTo::Sow)
        {
            cx.warn(
                from.span(),
                "`sow_from` without `to = \"sow\"`: captured stones go to the store, never sown on",
            );
        }
        if c.take.get_ref().is_empty() {
            cx.error(c.take.span(), "`take` names no pit to capture");
        }
        targets_warnings(cx, c.take.get_ref());
        if let Some(when) = &when {
            if constant_value(when) == Some(0) {
                cx.warn(
                    c.when.span(),
                    "`capture.when` is always false: nothing is ever captured",
                )
                .notes
                .push("leave `[capture]` out for a game without captures".to_string());
            }
        }
        (when, chain)
    });
    let house = rules.house.as_ref().map(|h| {
        let h = h.get_ref();
        let e = cx.condition(Context::House, names_total, &h.when);
        if e.as_ref().and_then(constant_value) == Some(0) {
            cx.warn(
                h.when.span(),
                "`house.when` is always false: no pit ever becomes a house",
            )
            .notes
            .push("leave `[house]` out for a game without houses".to_string());
        }
        e
    });
    let again_value = rules.turn.as_ref().and_then(|t| t.again.as_ref());
    let again = again_value.map(|v| cx.condition(Context::Again, names_total, v));
    if let (Some(Some(e)), Some(v)) = (&again, again_value) {
        if constant_value(e) == Some(1) {
            cx.warn(
                v.span(),
                "`turn.again` is always true: the first player moves for ever and the opponent never does",
            );
        }
    }
    let end_condition = |cx: &mut Cx, c: Context, v: Option<&Spanned<String>>| {
        let v = v?;
        let e = cx.condition(c, names_total, v);
        if e.as_ref().and_then(constant_value) == Some(1) {
            cx.warn(
                v.span(),
                format!(
                    "`{}` is always true: every game is over before it begins",
                    c.key()
                ),
            );
        }
        Some(e)
    };
    let win = end_condition(cx, Context::Win, end.and_then(|e| e.win.as_ref()));
    let score = end_condition(cx, Context::Score, end.and_then(|e| e.score.as_ref()));
    let stop = end_condition(cx, Context::Stop, end.and_then(|e| e.stop.as_ref()));
    let evaluate_value = rules.ai.as_ref().and_then(|a| a.evaluate.as_ref());
    let evaluate = evaluate_value.map(|v| {
        let e = cx.expression(Context::Evaluate, names_total, v, Type::Int);
        let warning = e
            .as_ref()
            .and_then(|e| constant_evaluation(e, v, "stones in the stores"));
        cx.warnings.extend(warning);
        e
    });

    // What needs the board.
    let first_move = geo.as_ref().and_then(|g| setup_first_move(cx, rules, g));
    let refill = rules.match_.as_ref().map(|m| {
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
        refill
    });

    if !cx.errors.is_empty() {
        return None;
    }
    let (geo, initial, total) = (geo?, initial?, total?);
    let total8 = total as u8;
    let pit_cond = |e: Expr, view: View| PitCond::new(e, view, &geo, total8);
    let start = pit_cond(start_cond?, View::Pit);
    let reverse = compiled(reverse)?.map(|e| pit_cond(e, View::Pit));
    let direction_choice = compiled(direction_choice)?.map(|e| pit_cond(e, View::Pit));
    let directed = reverse.is_some() || direction_choice.is_some();
    let take = compiled(take)?.map(|e| pit_cond(e, View::Pit));
    let relay_when = compiled(relay_when)?.map(|e| pit_cond(e, View::Last));
    let capture = match (rules.capture.as_ref(), capture) {
        (Some(c), Some((Some(when), chain))) => {
            let when = pit_cond(when, View::Last);
            let far = |t: &rules::Target| matches!(t, rules::Target::Next | rules::Target::Beyond);
            Some(CaptureRule {
                needs_next: !when.is_tabulated() || c.take.get_ref().iter().any(far),
                when,
                targets: c.take.get_ref().clone(),
                chain: compiled(chain)?.map(|e| pit_cond(e, View::Pit)),
                chain_way: c.chain_way,
                chain_max: c.chain_max.as_ref().map_or(u32::MAX, |m| *m.get_ref()),
                grand_slam: c.grand_slam,
                to: c.to,
                sow_from: c
                    .sow_from
                    .as_ref()
                    .map_or(rules::SowFrom::Lap, |f| *f.get_ref()),
                choice: c.choice,
            })
        }
        (None, _) => None,
        _ => return None,
    };
    let house = compiled(house)?.map(|e| pit_cond(e, View::Last));
    let again = compiled(again)?;
    let win = compiled(win)?.map(|e| ScoreCond::new(e, &geo, total8));
    let score = compiled(score)?.map(|e| ScoreCond::new(e, &geo, total8));
    let stop = compiled(stop)?.map(|e| ScoreCond::new(e, &geo, total8));
    let evaluate = compiled(evaluate)?;
    let match_rule = rules
        .match_
        .as_ref()
        .zip(refill)
        .map(|(m, refill)| MatchRule {
            refill: refill.min(MAX_STONES) as u8,
            min_pits: m.min_pits.as_ref().map_or(1, |p| *p.get_ref()),
            fill_from: m.fill_from,
            partial: m.partial,
            next_first: m.next_first,
        });
    let info = &rules.game;
    let sowing_default = sowing.map_or(
        (
            rules::SkipOrigin::Never,
            rules::Relay::None,
            Default::default(),
        ),
        |s| (s.skip_origin, s.relay, s.must_feed),
    );
    let first_origin = sowing.is_some_and(|s| s.first_drop == rules::FirstDrop::Origin);
    let max_drops = max_laps * geo.circuit_len[0].max(geo.circuit_len[1]) as u32;
    let mut game = SowingGame(Box::new(Compiled {
        name: info.name.get_ref().clone(),
        title: info
            .title
            .clone()
            .unwrap_or_else(|| info.name.get_ref().clone()),
        source: info.source.clone(),
        players,
        start,
        runs: Runs::new(&geo, sowing_default.0 != rules::SkipOrigin::Never, false),
        other_runs: directed
            .then(|| Runs::new(&geo, sowing_default.0 != rules::SkipOrigin::Never, true)),
        geo,
        setup: initial,
        total,
        first_move,
        ritual,
        skip_origin: sowing_default.0,
        first_origin,
        relay: sowing_default.1,
        relay_when,
        must_feed: sowing_default.2,
        max_drops,
        circuit: spec,
        reverse,
        direction_choice,
        directed,
        take,
        take_choice,
        take_to,
        capture,
        house_choice: rules
            .house
            .as_ref()
            .map_or(rules::HouseChoice::None, |h| h.get_ref().choice),
        house,
        again,
        evaluate,
        end: EndRule {
            win,
            score,
            stop,
            repetition: end.is_some_and(|e| e.repetition),
            no_move: end.map_or(rules::NoMove::Ends, |e| e.no_move),
            leftover: end.map_or(rules::Leftover::Owners, |e| e.leftover),
            max_plies,
            agreement: end.is_some_and(|e| e.agreement),
        },
        match_rule,
        fast: FastPaths::default(),
    }));
    game.0.fast = FastPaths::of(&game);
    start_warnings(cx, rules, &game);
    Some(game)
}

/// An optional expression: `Some(None)` when the key is absent, `None` when it did not compile.
fn compiled<T>(x: Option<Option<T>>) -> Option<Option<T>> {
    match x {
        None => Some(None),
        Some(e) => e.map(Some),
    }
}

/// The place of a key's value in the text checked.
fn key_span(cx: &Cx, path: &[&str]) -> Option<Range<usize>> {
    cx.doc.value_span(path)
}

/// The board's geometry from `[board]` and the circuit of `[sowing]`.
fn geometry(
    cx: &mut Cx,
    rules: &Rules,
    rows: usize,
    cols: usize,
    spec: CircuitSpec,
) -> Option<Geometry> {
    let board = rules.board.get_ref();
    let place = match &board.numbering {
        None => Some(Geometry::default_places(rows, cols)),
        Some(numbering) => places(numbering, rows, cols, cx.errors),
    };
    if !board.stores && (spec.own_store || spec.other_store) {
        let at = key_span(cx, &["sowing", "stores"]).unwrap_or(rules.board.span());
        cx.error(
            at,
            "`sowing.stores` sows into stores, but the board has none (`stores = true`)",
        )
        .notes
        .push("add `stores = true` to `[board]`, or leave `sowing.stores` out".to_string());
    }
    let geo = Geometry::new(rows, cols, board.stores, place?, spec);
    if geo.circuit_len[0] < 2 {
        cx.error(
            rules.board.span(),
            "a sowing circuit needs at least two pits",
        );
        return None;
    }
    Some(geo)
}

/// Warnings about `capture.take`: a pit listed twice, or already taken by another target.
fn targets_warnings(cx: &mut Cx, targets: &[rules::Target]) {
    use rules::Target;
    let spans = cx.doc.list_spans(&["capture", "take"]);
    let name = |t: &Target| match t {
        Target::Last => "last",
        Target::Opposite => "opposite",
        Target::Column => "column",
        Target::Next => "next",
        Target::Beyond => "beyond",
    };
    for (i, t) in targets.iter().enumerate() {
        let Some(at) = spans.get(i).cloned() else {
            break;
        };
        if targets[..i].contains(t) {
            cx.warn(
                at,
                format!("\"{}\" is listed twice in `capture.take`", name(t)),
            )
            .notes
            .push("a pit is taken once; list it once".to_string());
        } else if *t == Target::Opposite && targets.contains(&Target::Column) {
            cx.warn(
                at,
                "\"opposite\" is already taken by \"column\" in `capture.take`",
            )
            .notes
            .push("\"column\" takes every opponent's pit in the last pit's column, the opposite one included".to_string());
        }
    }
}

/// Warnings about the starting position: a player who would start with no legal move (no pit
/// meets `sowing.start`, the forced first pit is empty, …) finds the game over before it
/// begins.
fn start_warnings(cx: &mut Cx, rules: &Rules, game: &SowingGame) {
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
        let mut ctx = Ctx::new(&game.setup, geo, p, 0);
        let startable = (1..=geo.n)
            .map(|k| geo.slot(p, k))
            .any(|s| game.setup.count[s] > 0 && game.start.test(&mut ctx, s));
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
fn setup(cx: &mut Cx, rules: &Rules, geo: &Geometry) -> Option<Board> {
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

fn setup_first_move(cx: &mut Cx, rules: &Rules, geo: &Geometry) -> Option<u8> {
    let v = rules.setup.as_ref()?.get_ref().first_move.as_ref()?;
    if !(1..=geo.n as u32).contains(v.get_ref()) {
        cx.error(v.span(), format!("pits are numbered 1 to {}", geo.n));
        return None;
    }
    Some(*v.get_ref() as u8)
}
