//! The sowing rules format, one module per table of a rules file. Each module holds all of its
//! table: the spanned serde struct read from the TOML, its reference entries (keys, defaults,
//! examples, texts), its checks and compilation into the rule the engine plays, the rule in
//! plain words, and the fast paths it closes. Adding an option touches its table's module (and
//! the reference in docs/rules.md, which a test keeps in step).
//!
//! Unknown keys, wrong types and misspelt options are reported by `toml` at their place in the
//! file; the checks here are those that need more than one value. All problems are reported
//! together, each at its place: a check runs whenever what it reads is sound, whatever else is
//! wrong. Warnings point at rules that are legal but almost certainly not meant.

pub(crate) mod board;
pub(crate) mod capture;
pub(crate) mod end;
pub(crate) mod house;
pub(crate) mod rounds;
pub(crate) mod setup;
pub(crate) mod sowing;
pub(crate) mod turn;

// The options the engine reads, by their names.
pub(crate) use capture::{
    CaptureAt, CaptureChoice, CaptureTo, ChainWay, GoOn, GrandSlam, SowFrom, SweepTo, Taker, Target,
};
pub(crate) use end::{Leftover, NoMove};
pub(crate) use house::HouseChoice;
pub(crate) use rounds::{FillFrom, Owners, Partial};
pub(crate) use sowing::{
    CannotFeed, DivertHand, MustFeed, OpeningLast, Relay, RelayStores, SkipOrigin, TakeChoice,
    TakeTo,
};

use super::board::{Geometry, Runs};
use super::fast::FastPaths;
use super::scope::{Context, PitCond, ScoreCond, View};
use super::{Compiled, SowingGame};
use ludus_core::diagnostics::Diagnostic;
use ludus_core::expr::{Definitions, Expr, Scope, Type};
use ludus_core::rules::define::{
    check_definitions, scope_with, warn_unused, DefineTable, DEFINE_SECTION,
};
use ludus_core::rules::reference::{FamilyRef, KeyRef, SectionRef, AI_SECTION, GAME_SECTION};
use ludus_core::rules::toml::constant_value;
use ludus_core::rules::{check as check_with, constant_evaluation, expr, Ai, GameInfo};
use ludus_core::rules::{Repairs, RulesDoc};
use serde::Deserialize;
use std::fmt::Write;
use std::ops::Range;
use std::sync::Arc;
use toml::Spanned;

/// A sowing rules file as read: one struct per table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    pub game: GameInfo,
    pub board: Spanned<board::Board>,
    #[serde(default)]
    pub setup: Option<Spanned<setup::Setup>>,
    #[serde(default)]
    pub sowing: Option<sowing::Sowing>,
    #[serde(default)]
    pub capture: Option<Captures>,
    #[serde(default)]
    pub house: Option<Spanned<house::House>>,
    #[serde(default)]
    pub turn: Option<turn::Turn>,
    #[serde(default)]
    pub end: Option<end::End>,
    #[serde(default, rename = "match")]
    pub match_: Option<rounds::Match>,
    #[serde(default)]
    pub ai: Option<Ai>,
    /// `[define]`: names for expressions, used in any expression of the file.
    #[serde(default)]
    pub define: Option<DefineTable>,
}

/// `[capture]`, or `[[capture]]` tables: at most two, one checked before the sowing
/// (`at = "start"`) and one at its own moment after it.
#[derive(Debug)]
pub struct Captures(pub Vec<capture::Capture>);

impl<'de> Deserialize<'de> for Captures {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Tables;
        impl<'de> serde::de::Visitor<'de> for Tables {
            type Value = Captures;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a table [capture], or [[capture]] tables")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Captures, A::Error> {
                let table = serde::de::value::MapAccessDeserializer::new(map);
                capture::Capture::deserialize(table).map(|c| Captures(vec![c]))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Captures, A::Error> {
                let mut tables = Vec::new();
                while let Some(c) = seq.next_element()? {
                    tables.push(c);
                }
                Ok(Captures(tables))
            }
        }
        d.deserialize_any(Tables)
    }
}

impl Captures {
    /// Each table with the path of keys to it: `["capture"]`, or `["capture", "0"]`, … for
    /// `[[capture]]`.
    fn paths(&self, written_as_array: bool) -> Vec<Vec<String>> {
        (0..self.0.len())
            .map(|i| match written_as_array {
                false => vec!["capture".to_string()],
                true => vec!["capture".to_string(), i.to_string()],
            })
            .collect()
    }
}

/// The reference of sowing rules files: every table and key, one line, what to write, the
/// default, an example and the full text ("Reference: keys" in docs/rules.md says the same; a test
/// keeps the two in step).
pub const REFERENCE: FamilyRef = FamilyRef {
    family: "sowing",
    sections: &[
        GAME_SECTION,
        board::SECTION,
        setup::SECTION,
        sowing::SECTION,
        capture::SECTION,
        house::SECTION,
        turn::SECTION,
        end::SECTION,
        rounds::SECTION,
        DEFINE_SECTION,
        SectionRef {
            keys: AI_KEYS,
            ..AI_SECTION
        },
    ],
    scopes,
    groups: VIEWS,
};

/// The pit views: each has the fields `count`, `side`, `number`, `row`, `column`, `is_store`,
/// `open` and `exists` ("Pit views" in docs/rules.md says the same).
const VIEWS: &[(&str, &str)] = &[
    ("pit", "a pit view: the pit being checked (whether a move may start from it, a drop into it, a pit the capture's chain walks to)"),
    ("last", "a pit view: where the last stone fell (of the move, or of the lap in `sowing.relay_when`)"),
    ("next", "a pit view: the pit after `last` along the circuit, the way the move sows (before it with `relay = \"previous\"`)"),
    ("beyond", "a pit view: the pit after `next`, the same way"),
    ("opposite", "a pit view: the pit facing `last` across the board: the opponent's when `last` is the mover's, the mover's own when `last` is the opponent's"),
    ("behind", "a pit view: on a four-row board, the other pit across the board in `last`'s column (behind `opposite` when `last` is in the inner row); none on a two-row board"),
    ("origin", "a pit view: the pit the move started from"),
    ("previous_origin", "a pit view (start conditions): the pit the move played just before this one started from; none before a game's first move and after a pass"),
    ("previous_last", "a pit view (start conditions): where the last stone of the move played just before this one fell (a store's number is 0); none before a game's first move and after a pass"),
];

/// Each expression key with its names.
fn scopes() -> Vec<(&'static str, Scope)> {
    super::scope_reference()
        .into_iter()
        .map(|(c, s)| (c.key(), s))
        .collect()
}

/// What the reference says a condition key expects.
const CONDITION: &str = "a condition in quotes, such as `\"pit.count > 0\"`";

const AI_KEYS: &[KeyRef] = &[KeyRef {
    section: "ai",
    key: "evaluate",
    line: "context evaluate: a position's value for the computer players, from `mover`'s side",
    expects: "an integer expression in quotes, such as `\"mover.store - opponent.store\"`",
    values: &[],
    default: "the stones in the stores",
    example: "evaluate = \"mover.store - opponent.store\"",
    long: "An integer expression (context evaluate: the names of every context, `mover` being \
           the player the position is valued for) by which `alphabeta` values the positions \
           where its search stops and `mcts` its playouts cut short, instead of the default \
           `mover.store - opponent.store`. A finished game still counts by its result; values \
           beyond ±2500 count as ±2500. No rule of the game: it tunes the computer players \
           without recompiling (\"2 * mover.store - opponent.store + mover.pits / 4\": \
           keeping stones at home).",
}];

/// Compiles a sowing rules file: the game, or every error found.
pub fn compile(doc: &RulesDoc) -> Result<SowingGame, Vec<Diagnostic>> {
    ludus_core::diagnostics::game_or_errors(check(doc))
}

/// Checks a sowing rules file: the game when it has no error, and every error and warning
/// found, located in the text and annotated from the reference (errors first, each kind in the
/// order of the text).
pub fn check(doc: &RulesDoc) -> (Option<SowingGame>, Vec<Diagnostic>) {
    check_with(
        doc,
        &REFERENCE,
        |repairs, rules: &Rules, errors, warnings| {
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
            let language: Vec<Scope> = super::scope::reference(0)
                .into_iter()
                .map(|(_, s)| s)
                .collect();
            let definitions = check_definitions(
                work.text(),
                rules.define.as_ref(),
                &language,
                errors,
                warnings,
            );
            let mut cx = Cx {
                text: work.text(),
                doc: work,
                repairs,
                errors,
                warnings,
                total: 0,
                definitions,
            };
            let built = build(&mut cx, rules);
            warn_unused(
                cx.definitions.as_ref(),
                rules.define.as_ref(),
                cx.errors,
                cx.warnings,
            );
            built
        },
    )
}

/// What a check reads and writes.
pub(crate) struct Cx<'a> {
    /// The text checked (repaired where the file has structural errors).
    text: &'a str,
    doc: &'a RulesDoc,
    repairs: &'a Repairs,
    errors: &'a mut Vec<Diagnostic>,
    warnings: &'a mut Vec<Diagnostic>,
    /// The stones in the game, for the names of the expressions (0 while unknown: the names
    /// and types do not depend on it).
    total: u32,
    /// `[define]`, once checked.
    definitions: Option<Arc<Definitions>>,
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
    fn condition(&mut self, c: Context, value: &Spanned<String>) -> Option<Expr> {
        self.expression(c, value, Type::Bool)
    }
    /// Compiles an expression of context `c` and type `ty`; an error is reported and gives
    /// `None`.
    fn expression(&mut self, c: Context, value: &Spanned<String>, ty: Type) -> Option<Expr> {
        let scope = c.scope(self.total as i32);
        let defined = scope_with(&scope, self.definitions.as_ref());
        expr(self.text, value, defined.as_ref().unwrap_or(&scope), ty)
            .map_err(|d| self.errors.push(d))
            .ok()
    }
    /// A condition that ends the game (`end.win`, `end.score`, …), warned of when it always
    /// holds.
    fn end_condition(&mut self, c: Context, value: &Spanned<String>) -> Option<Expr> {
        let e = self.condition(c, value);
        if e.as_ref().and_then(constant_value) == Some(1) {
            self.warn(
                value.span(),
                format!(
                    "`{}` is always true: every game is over before it begins",
                    c.key()
                ),
            );
        }
        e
    }
    /// The place of a key's value in the text checked.
    fn key_span(&self, path: &[&str]) -> Option<Range<usize>> {
        self.doc.value_span(path)
    }
}

/// The board laid out, on which conditions are tabulated.
#[derive(Clone, Copy)]
pub(crate) struct Laid<'a> {
    geo: &'a Geometry,
    total: u32,
}

impl Laid<'_> {
    /// A condition on pits, read from `view`.
    fn pit(&self, e: Expr, view: View) -> PitCond {
        PitCond::new(e, view, self.geo, self.total as u8)
    }
    /// A condition on the players' standing.
    fn score(&self, e: Expr) -> ScoreCond {
        ScoreCond::new(e, self.geo, self.total as u8)
    }
}

/// An optional expression: `Some(None)` when the key is absent, `None` when it did not compile.
fn compiled<T>(x: Option<Option<T>>) -> Option<Option<T>> {
    match x {
        None => Some(None),
        Some(e) => e.map(Some),
    }
}

fn err(span: Range<usize>, message: impl Into<String>) -> Diagnostic {
    Diagnostic::new(message).at(span)
}

/// Every table checked, then, when nothing is wrong, compiled into the game.
fn build(cx: &mut Cx, rules: &Rules) -> Option<SowingGame> {
    let players = rules.game.player_names(["South", "North"], cx.errors);
    let circuit = sowing::circuit(cx, rules);

    // The board and the starting position: only from tables read as written.
    let geo = board::geometry(cx, rules, circuit);
    let setup = geo.as_ref().and_then(|g| setup::check(cx, rules, g));
    cx.total = setup.as_ref().map_or(0, |s| s.total);

    // The expressions: their names and types do not depend on the board.
    let sowing = sowing::check(cx, rules.sowing.as_ref());
    let captures = rules.capture.as_ref().map(|c| check_captures(cx, c));
    let house = rules.house.as_ref().map(|h| house::check(cx, h));
    let turn = turn::check(cx, rules.turn.as_ref());
    let give = turn::check_give(cx, rules.turn.as_ref(), geo.as_ref().map(|g| g.n));
    let place = rules
        .setup
        .as_ref()
        .and_then(|s| s.get_ref().place.as_ref());
    let place = place.map(|v| cx.condition(Context::Start, v));
    let end = end::check(cx, rules.end.as_ref());
    let evaluate = rules.ai.as_ref().and_then(|a| a.evaluate.as_ref());
    let evaluate = evaluate.map(|v| {
        let e = cx.expression(Context::Evaluate, v, Type::Int);
        let warning = e
            .as_ref()
            .and_then(|e| constant_evaluation(e, v, "stones in the stores"));
        cx.warnings.extend(warning);
        e
    });
    let total = setup.as_ref().map(|s| s.total);
    let pits = geo.as_ref().map(|g| 2 * g.n);
    let match_rule = rules
        .match_
        .as_ref()
        .and_then(|m| rounds::check(cx, m, total, pits));

    // A move across the board is a pit number past the side's: both sides' numbers must fit
    // the legal moves' bits of one way round.
    if let Some(g) = geo
        .as_ref()
        .filter(|g| g.from_board && 2 * g.n > crate::sow::WAY_BITS)
    {
        let at = cx
            .key_span(&["sowing", "start_from"])
            .unwrap_or(rules.board.span());
        cx.error(
            at,
            format!(
                "`start_from = \"board\"` needs a board of at most {} pits ({} here)",
                crate::sow::WAY_BITS,
                2 * g.n
            ),
        );
    }
    // Across a shared middle row no pit faces another: captures of facing pits are refused.
    let tables = rules.capture.iter().flat_map(|c| &c.0);
    for c in tables.filter(|_| geo.as_ref().is_some_and(|g| g.middle > 0)) {
        use capture::{ChainTake, Target};
        let facing = c.take.get_ref().iter().any(|t| {
            matches!(
                t,
                Target::Opposite | Target::Column | Target::OppositeNext | Target::OppositeBeyond
            )
        });
        if facing {
            cx.error(
                c.take.span(),
                "no pit faces another across a board with a middle row: `take` may not name the pits facing the last",
            );
        }
        if let Some(t) = c
            .chain_take
            .as_ref()
            .filter(|t| t.get_ref().iter().any(|t| *t != ChainTake::Pit))
        {
            cx.error(
                t.span(),
                "no pit faces another across a board with a middle row: a chain takes only the pits it reaches",
            );
        }
    }
    if let Some(l) = rules
        .sowing
        .as_ref()
        .and_then(|s| s.opening_last.as_ref())
        .filter(|l| *l.get_ref() == sowing::OpeningLast::Opposite)
        .filter(|_| geo.as_ref().is_some_and(|g| g.middle > 0))
    {
        cx.error(
            l.span(),
            "no pit faces another across a board with a middle row: an opening cannot end in the pit facing the one chosen",
        );
    }
    // A round's arrangement is copied onto the pits facing it.
    if let (Some(m), Some(_)) = (
        rules.match_.as_ref().filter(|_| {
            match_rule
                .as_ref()
                .is_some_and(|r| r.arrange && !r.arranged_same_number)
        }),
        geo.as_ref().filter(|g| g.middle > 0),
    ) {
        let at = m.arrange.as_ref().map_or(rules.board.span(), Spanned::span);
        cx.error(
            at,
            "`arrange` copies the poorer player's pits onto the pits facing them: across a middle row no pit faces another",
        );
    }
    // Moves that lift a number of stones or sow the store are listed past the pits' bits,
    // marked by the last bit of the other way round: pit 32 must not be a move.
    let lifts = rules
        .sowing
        .as_ref()
        .filter(|s| s.store_move.is_some() || s.lift.is_some());
    if let (Some(s), Some(g)) = (lifts, geo.as_ref()) {
        let across = g.from_board
            || match_rule
                .as_ref()
                .is_some_and(|m| m.owners == Owners::Filled);
        let moved = if across { 2 * g.n } else { g.n };
        if moved >= crate::sow::WAY_BITS {
            let at = s
                .store_move
                .as_ref()
                .map(|m| m.span())
                .or(s.lift.as_ref().map(|l| l.span()))
                .unwrap_or(rules.board.span());
            cx.error(
                at,
                format!(
                    "`store_move` and `lift` need moves from at most {} pits ({moved} here)",
                    crate::sow::WAY_BITS - 1
                ),
            );
        }
    }
    if !cx.errors.is_empty() {
        return None;
    }
    let (mut geo, mut setup) = (geo?, setup?);
    geo.owners_change = match_rule
        .as_ref()
        .is_some_and(|m| m.owners == Owners::Filled);
    let laid = Laid {
        geo: &geo,
        total: setup.total,
    };
    setup.place = compiled(place)?.map(|e| laid.pit(e, View::Pit));
    let sowing = sowing?.rule(laid, circuit);
    let (capture, capture_before) = match captures {
        None => (None, None),
        Some(c) => {
            let [main, before] = c?;
            (
                compiled(main)?.map(|c| c.rule(laid)),
                compiled(before)?.map(|c| c.rule(laid)),
            )
        }
    };
    let house = compiled(house)?.map(|h| h.rule(laid));
    let mut turn = turn?;
    turn.give = give?.map(|g| g.rule(laid));
    let end = end?.rule(laid);
    let evaluate = compiled(evaluate)?;
    let info = &rules.game;
    let skips = sowing.skip_origin != sowing::SkipOrigin::Never;
    geo.kept_houses = house.as_ref().is_some_and(|h| h.keeps);
    let mut game = SowingGame(Box::new(Compiled {
        name: info.name.get_ref().clone(),
        title: info
            .title
            .clone()
            .unwrap_or_else(|| info.name.get_ref().clone()),
        source: info.source.clone(),
        players,
        runs: Runs::new(&geo, skips, false),
        other_runs: sowing.directed.then(|| Runs::new(&geo, skips, true)),
        geo,
        setup,
        sowing,
        capture,
        capture_before,
        house,
        turn,
        end,
        evaluate,
        match_rule,
        fast: FastPaths::default(),
    }));
    game.0.fast = FastPaths::of(&game);
    setup::start_warnings(cx, rules, &game);
    Some(game)
}

/// The rules in plain words, from the compiled game: each table says its own.
pub(crate) fn describe(game: &SowingGame) -> String {
    let [p0, p1] = ludus_core::game::Game::player_names(game);
    let mut s = String::new();
    let _ = writeln!(s, "{} ({} vs {})", game.title, p0, p1);
    if let Some(src) = &game.source {
        let _ = writeln!(s, "{}", src.trim());
    }
    board::describe(game, &mut s);
    game.setup.describe_start(&mut s);
    game.sowing.describe(&mut s);
    game.setup.describe_first_move(&mut s);
    game.sowing.describe_relay(&mut s);
    if let Some(h) = &game.house {
        h.describe(&mut s);
    }
    if let Some(c) = &game.capture_before {
        c.describe(&mut s);
    }
    if let Some(c) = &game.capture {
        c.describe(&mut s);
    }
    game.turn.describe(&mut s);
    game.end.describe(&mut s);
    if let Some(m) = &game.match_rule {
        m.describe(&mut s);
    }
    game.setup.describe_ritual(&mut s);
    if let Some(e) = &game.evaluate {
        let _ = writeln!(
            s,
            "The computer players value a position by `{}` ([ai] evaluate), `mover` being the player valued.",
            e.text()
        );
    }
    s
}

/// `[capture]` or its `[[capture]]` tables checked: `[the capture, the one before the sowing]`
/// (the second only where two tables are written); `None` when an error was reported.
fn check_captures<'a>(
    cx: &mut Cx,
    captures: &'a Captures,
) -> Option<[Option<Option<capture::Checked<'a>>>; 2]> {
    let array = cx.doc.is_array_of_tables("capture");
    let paths = captures.paths(array);
    let checked: Vec<_> = captures
        .0
        .iter()
        .zip(&paths)
        .map(|(c, path)| {
            let path: Vec<&str> = path.iter().map(String::as_str).collect();
            capture::check(cx, c, &path)
        })
        .collect();
    let before = |c: &capture::Capture| {
        c.at.as_ref()
            .is_some_and(|a| *a.get_ref() == capture::CaptureAt::Start)
    };
    match captures.0.as_slice() {
        [_] => Some([Some(checked.into_iter().next()?), None]),
        [a, b] if before(a) != before(b) => {
            let mut checked = checked.into_iter();
            let (first, second) = (checked.next()?, checked.next()?);
            Some(match before(a) {
                true => [Some(second), Some(first)],
                false => [Some(first), Some(second)],
            })
        }
        [_, b] => {
            let at = b.at.as_ref().map_or(b.when.span(), Spanned::span);
            cx.error(
                at,
                format!(
                    "two `[[capture]]` tables are one before the sowing (`at = \"start\"`) and one \
                     after it: here both are checked {}",
                    if before(b) { "before" } else { "after" }
                ),
            );
            None
        }
        [] => {
            let at = cx.doc.table_span("capture").unwrap_or(0..0);
            cx.error(
                at,
                "`capture` holds no table: write `[capture]` with its keys, or leave it out",
            );
            None
        }
        tables => {
            let at = tables.get(2).map_or(0..0, |c| c.when.span());
            cx.error(
                at,
                "`[[capture]]` takes two tables at most, one before the sowing (`at = \"start\"`) \
                 and one after it",
            );
            None
        }
    }
}
