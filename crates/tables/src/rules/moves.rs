//! `[moves]`, `[[moves.leave]]` and `[[moves.step]]`: what a landing does to a lone checker,
//! and the conditions a step must meet.

use super::Cx;
use crate::movegen::{Larger, LeaveRule, MoveRules};
use crate::position::{Board, Lone, BAR, OFF, POOL};
use crate::scope::{remember_scope, step_scope};
use ludus_core::diagnostics::Diagnostic;
use ludus_core::expr::{Expr, Type};
use ludus_core::rules::reference::{KeyRef, SectionRef};
use ludus_core::rules::toml::constant_value;
use serde::Deserialize;
use std::fmt::Write;
use toml::Spanned;

/// `[moves]` as written, with its `[[moves.leave]]` and `[[moves.step]]` tables.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MovesTable {
    /// Read as a [`Lone`].
    #[serde(default)]
    pub lone_checker: Option<Spanned<String>>,
    /// Read as a [`HitTo`].
    #[serde(default)]
    pub hit_to: Option<Spanned<String>>,
    /// An integer expression: the point a checker hit goes back to when the turn ends.
    #[serde(default)]
    pub hit_back: Option<Spanned<String>>,
    /// A boolean expression: when a checker may be borne off (all home, without it).
    #[serde(default)]
    pub bear_off: Option<Spanned<String>>,
    /// Read as a [`Larger`].
    #[serde(default)]
    pub bear_off_larger: Option<Spanned<String>>,
    /// Read as a [`BearOffTo`].
    #[serde(default)]
    pub bear_off_to: Option<Spanned<String>>,
    #[serde(default)]
    pub leave: Vec<LeaveTable>,
    #[serde(default)]
    pub step: Vec<StepTable>,
    #[serde(default)]
    pub hit: Vec<HitTable>,
    #[serde(default)]
    pub strike: Vec<StrikeTable>,
}

/// `[[moves.strike]]` as written: a point a die may hit instead of moving a checker.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StrikeTable {
    /// An integer expression: the point (in the mover's numbering) whose lone opposing checker
    /// a die may hit without moving, worked out for each die; no point, no strike.
    pub at: Spanned<String>,
}

/// `[[moves.hit]]` as written: a point where a step hits from afar.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HitTable {
    /// An integer expression: the point (in the mover's numbering) whose lone opposing checker
    /// the step hits, worked out on the position the step leaves; no point, no hit.
    pub at: Spanned<String>,
}

/// `[[moves.leave]]` as written: a condition for moving a checker off a point.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeaveTable {
    /// The point (in the mover's numbering).
    pub point: Spanned<i64>,
    /// A boolean expression, tested before each step from the point.
    pub when: Spanned<String>,
}

/// `[[moves.step]]` as written: a condition every single step must meet.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepTable {
    /// A boolean expression, tested on the position after each step.
    pub when: Spanned<String>,
}

/// `[moves] hit_to`: where a hit checker goes.
#[derive(Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(super) enum HitTo {
    /// The bar: it enters before anything else of its side moves.
    Bar,
    /// Off the board, to enter again when its owner likes (the medieval games' "back to
    /// where it began").
    Pool,
    /// Out of the game, with the borne-off checkers.
    Out,
}

/// `[moves] bear_off_to`: where a checker borne off goes.
#[derive(Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(super) enum BearOffTo {
    /// Out of play, towards the win by bearing off.
    Off,
    /// To the pool at the end of the turn, to enter again.
    Pool,
}

pub(crate) const SECTION: SectionRef = SectionRef {
    name: "moves",
    line: "what a landing does to a lone checker, and what restricts a step",
    required: false,
    repeated: false,
    keys: KEYS,
};

pub(crate) const LEAVE_SECTION: SectionRef = SectionRef {
    name: "moves.leave",
    line: "a condition for moving a checker off a point (any number of these tables)",
    required: false,
    repeated: true,
    keys: LEAVE_KEYS,
};

pub(crate) const STEP_SECTION: SectionRef = SectionRef {
    name: "moves.step",
    line: "a condition every single step must meet (any number of these tables)",
    required: false,
    repeated: true,
    keys: STEP_KEYS,
};

const KEYS: &[KeyRef] = &[
    KeyRef {
        section: "moves",
        key: "lone_checker",
        line: "what a landing does to a single opposing checker",
        expects: "\"hit\", \"blocks\", \"pin\" or \"owns\"",
        values: &["hit", "blocks", "pin", "owns"],
        default: "\"hit\"",
        example: "lone_checker = \"blocks\"",
        long: "\"hit\": a landing on a single opposing checker sends it to the bar (two or more \
               block a point); \"blocks\": one checker blocks a point and nobody is hit \
               (Mughrabieh, Long Nardy); \"pin\": a landing on a single opposing checker pins it \
               where it stands until every checker of the pinner's side has left the point, and \
               nothing lands on it meanwhile but the pinner's side (Plakoto; two or more block); \
               \"owns\": a single checker owns its point and blocks it, while two or more own \
               nothing and the opponent may land beside them, nobody being hit (Blocking \
               Backgammon: six single checkers in a row make a prime).",
    },
    KeyRef {
        section: "moves",
        key: "hit_to",
        line: "where a hit checker goes",
        expects: "\"bar\", \"pool\" or \"out\"",
        values: &["bar", "pool", "out"],
        default: "\"bar\"",
        example: "hit_to = \"pool\"",
        long: "\"bar\": a hit checker goes to the bar and enters (at the start of its way) \
               before anything else of its side moves; \"pool\": it goes off the board, back to \
               where its way begins, and enters again as a checker of the pool does, whenever \
               its owner likes (the medieval games' \"sent back to where it began\": Ludus \
               Anglicorum, the Castilian games); \"out\": it leaves the game, counted with its \
               side's borne-off checkers, so that a side wins once none of its checkers is left \
               in play (Doblet as Ludii reads it: \"removed from the board\"). Only with \
               `lone_checker = \"hit\"`.",
    },
    KeyRef {
        section: "moves",
        key: "hit_back",
        line: "the point a hit checker is put back on when the turn that hit it ends",
        expects: "an integer expression in quotes, such as `\"if(theirs(18) == 0, 18, 0)\"`",
        values: &[],
        default: "none (a hit checker waits where `hit_to` says)",
        example: "hit_back = \"if(theirs(18) == 0, 18, if(theirs(17) == 0, 17, 0))\"",
        long: "An integer expression (the step names, from the side of the checker's owner) \
               worked out when the turn that hit a checker is over, once for each checker of \
               that side on the bar: the point, in its owner's numbering, where it is put \
               back at once (Fallas: \"sent back to its starting quadrant\", on the first \
               point there the hitter does not hold). 0, a point off the board or one the \
               hitter holds leaves it on the bar, where a `[[win]]` rule may see it \
               (`their_bar > 0`). With `hit_to = \"bar\"`.",
    },
    KeyRef {
        section: "moves",
        key: "bear_off",
        line: "when a checker may be borne off",
        expects: "a condition in quotes, such as `\"mine_in(13, 24) + bar + pool == 0\"`",
        values: &[],
        default: "every checker of the side in its home table",
        example: "bear_off = \"false\"",
        long: "A condition (the step names, from the mover's side; `from` is the point borne \
               off from, `to` is 0) tested before every step that bears a checker off, in place \
               of the rule that every checker must be home: `\"false\"` for a game won only by a \
               `[[win]]` rule, `\"mine_in(13, 24) + bar + pool == 0\"` to bear off from the last \
               half of the way. A die bears off a checker from its own point, and a larger die \
               as `bear_off_larger` says.",
    },
    KeyRef {
        section: "moves",
        key: "bear_off_larger",
        line: "which checkers a die larger than needed bears off",
        expects: "\"farthest\", \"any\" or \"none\"",
        values: &["farthest", "any", "none"],
        default: "\"farthest\"",
        example: "bear_off_larger = \"any\"",
        long: "When a checker may be borne off, a die bears off a checker from its own point, \
               and a larger die: \"farthest\", a checker from the farthest point the side holds, \
               and only when nothing stands farther (bar and pool included; Backgammon); \"any\", \
               any checker it carries past the end (Garanguet); \"none\": only the exact number \
               bears off.",
    },
    KeyRef {
        section: "moves",
        key: "bear_off_to",
        line: "where a checker borne off goes",
        expects: "\"off\" or \"pool\"",
        values: &["off", "pool"],
        default: "\"off\"",
        example: "bear_off_to = \"pool\"",
        long: "\"off\": out of play, and a side that has borne off all its checkers wins; \
               \"pool\": when the turn ends, the checkers the mover bore off go to its pool and \
               enter again as checkers of the pool do (from `[board] pool_from`), whenever the \
               step rules let them: Tables Rabbatuees, whose checkers, once all borne off, \
               re-enter to rebuild the start. Bearing off then wins nothing by itself: a \
               `[[win]]` rule says who wins (without one, a warning), and `bear_off` when a checker may be borne \
               off (the checkers in the pool are not home).",
    },
];

pub(crate) const HIT_SECTION: SectionRef = SectionRef {
    name: "moves.hit",
    line:
        "a point where a step hits a lone opposing checker from afar (any number of these tables)",
    required: false,
    repeated: true,
    keys: HIT_KEYS,
};

const HIT_KEYS: &[KeyRef] = &[KeyRef {
    section: "moves.hit",
    key: "at",
    line: "the point whose lone opposing checker a step hits from afar",
    expects: "an integer expression in quotes, such as `\"25 - to\"`",
    values: &[],
    default: "—",
    example: "at = \"if(mine(to) == 1, 25 - to, 0)\"",
    long: "An integer expression (the step names but `die`, from the mover's side) worked out \
           after every step that moves a checker, on the position it leaves: the point, in the \
           mover's numbering, whose lone opposing checker the step hits, sending it where \
           `hit_to` says, as a landing hits (Tourne-Case: a checker landing on an empty point \
           hits the lone checker on the point across the board, `\"if(mine(to) == 1, 25 - to, \
           0)\"`). A number off the board (0) hits nothing, nor does a point with none or \
           several opposing checkers. The hit counts as the landing's does: moves hitting \
           different checkers are different moves. Not with `lone_checker = \"pin\"` nor \
           `[stacks]`.",
}];

pub(crate) const STRIKE_SECTION: SectionRef = SectionRef {
    name: "moves.strike",
    line: "a point a die may hit instead of moving a checker (any number of these tables)",
    required: false,
    repeated: true,
    keys: STRIKE_KEYS,
};

const STRIKE_KEYS: &[KeyRef] = &[KeyRef {
    section: "moves.strike",
    key: "at",
    line: "the point whose lone opposing checker a die may hit without moving",
    expects: "an integer expression in quotes, such as `\"13 - die\"`",
    values: &[],
    default: "—",
    example: "at = \"13 - die\"",
    long: "An integer expression (the step names, `die` the die; `from` and `to` are 0) worked \
           out for each die before it is played: the point, in the mover's numbering, whose \
           lone opposing checker the die may hit instead of moving a checker, sending it where \
           `hit_to` says (Ketch-Dolt: a die naming the point of the opponent's table where \
           a lone checker of theirs stands takes it up, `\"13 - die\"` on its board). The die \
           is used as a step would be (the most dice must be played, strikes counted); the \
           strike is written `n/n*` and the step names see it as `strikes`. A number off the \
           board (0) strikes nothing, nor does a point with none or several opposing checkers. \
           Not with `lone_checker = \"pin\"` nor `[stacks]`.",
}];

const LEAVE_KEYS: &[KeyRef] = &[
    KeyRef {
        section: "moves.leave",
        key: "point",
        line: "the point the condition guards, in the mover's numbering",
        expects: "a point of the board (1 to 24 on the standard board)",
        values: &[],
        default: "—",
        example: "point = 24",
        long: "A checker may leave this point (the mover's numbering) only when the table's \
               `when` holds. Several tables may guard the same point: all must hold.",
    },
    KeyRef {
        section: "moves.leave",
        key: "when",
        line: "a checker may leave `point` only when this holds",
        expects: "a condition in quotes, such as `\"home + off > 0 or mine(24) == 15\"`",
        values: &[],
        default: "—",
        example: "when = \"home + off > 0 or mine(24) == 15\"",
        long: "A condition (the step names: `home`, `off`, `bar`, `die`, `to`, `mine(n)`, \
               `moved_off(n)`, `first_turn`, … from the mover's side) tested before every \
               single-die step from `point`, on the position as it stands after the turn's \
               earlier steps.",
    },
];

const STEP_KEYS: &[KeyRef] = &[KeyRef {
    section: "moves.step",
    key: "when",
    line: "every single step must leave this true",
    expects: "a condition in quotes, such as `\"not hits or home > 0\"`",
    values: &[],
    default: "—",
    example: "when = \"prime < 6 or prime_passed > 0\"",
    long: "A condition (the step names: `from`, `to`, `die`, `hits`, `pins`, `entering`, \
               `prime`, `prime_passed`, `moved_off(n)`, `first_turn`, `doubles`, … from the \
               mover's side) tested after every single-die step, on the position it leaves; a \
               step that makes it false is not legal.",
}];

/// `[moves]` compiled: the move generator's rules beside the board and the dice.
pub(super) struct MovesRule {
    pub(super) lone: Lone,
    /// `BAR` or `POOL`.
    pub(super) hit_to: usize,
    pub(super) bear_off: Option<Expr>,
    pub(super) larger: Larger,
    pub(super) leave: Vec<LeaveRule>,
    /// Bit n set: some rule restricts leaving point n.
    pub(super) leave_mask: u64,
    pub(super) step: Vec<Expr>,
    pub(super) hits: Vec<Expr>,
    pub(super) strikes: Vec<Expr>,
    pub(super) hit_back: Option<Expr>,
    /// Checkers borne off go to the pool when the turn ends.
    pub(super) off_to_pool: bool,
}

/// Checks `[moves]` on `board`; a condition that always or never holds is warned about.
pub(super) fn check(cx: &mut Cx, table: &MovesTable, board: &Board) -> MovesRule {
    let lone = cx
        .option("moves", "lone_checker", table.lone_checker.as_ref())
        .unwrap_or(Lone::Hit);
    let hit_to = match cx.option("moves", "hit_to", table.hit_to.as_ref()) {
        Some(HitTo::Pool) => POOL,
        Some(HitTo::Out) => OFF,
        _ => BAR,
    };
    let hits_afar = !table.hit.is_empty() || !table.strike.is_empty();
    if let Some(h) = table
        .hit_to
        .as_ref()
        .filter(|_| lone != Lone::Hit && !hits_afar)
    {
        cx.warnings.push(
            Diagnostic::warning("`hit_to` changes nothing: no checker is hit")
                .at(h.span())
                .note("a hit needs `lone_checker = \"hit\"`, or a `[[moves.hit]]` or `[[moves.strike]]` rule"),
        );
    }
    let mut leave = Vec::new();
    let mut leave_mask = 0u64;
    for rule in &table.leave {
        let point = *rule.point.get_ref();
        let on_board = (1..=board.points as i64).contains(&point);
        if !on_board {
            cx.errors.push(
                Diagnostic::new(format!("point {point} is not on the board"))
                    .at(rule.point.span())
                    .note(format!(
                        "points are numbered 1 to {} from the mover's side",
                        board.points
                    )),
            );
        }
        let Some(when) = condition(
            cx,
            &rule.when,
            &format!("no checker ever leaves point {point}"),
            &LEAVE_SECTION,
        ) else {
            continue;
        };
        if on_board {
            leave_mask |= 1 << point;
            leave.push(LeaveRule {
                point: point as u8,
                when,
            });
        }
    }
    let bear_off = table
        .bear_off
        .as_ref()
        .and_then(|when| cx.expression(when, &step_scope(), Type::Bool));
    let larger = cx
        .option("moves", "bear_off_larger", table.bear_off_larger.as_ref())
        .unwrap_or(Larger::Farthest);
    if bear_off.is_some() {
        // Every step is tested (cold) for the bear-off rule.
        leave_mask |= board.point_bits();
    }
    let step = table
        .step
        .iter()
        .filter_map(|rule| condition(cx, &rule.when, "no checker can ever move", &STEP_SECTION))
        .collect();
    let hits = table
        .hit
        .iter()
        .filter_map(|rule| cx.expression(&rule.at, &remember_scope(), Type::Int))
        .collect();
    if let Some(hit) = table.hit.first().filter(|_| lone == Lone::Pin) {
        // A point's mark in a move's key says a pin there, made where the pinner stays.
        cx.errors.push(
            Diagnostic::new("a step cannot hit from afar where lone checkers are pinned")
                .at(hit.at.span())
                .note("`[[moves.hit]]` goes with `lone_checker = \"hit\"` or `\"blocks\"`"),
        );
    }
    let strikes = table
        .strike
        .iter()
        .filter_map(|rule| cx.expression(&rule.at, &step_scope(), Type::Int))
        .collect();
    if let Some(strike) = table
        .strike
        .first()
        .filter(|_| matches!(lone, Lone::Pin | Lone::Own))
    {
        cx.errors.push(
            Diagnostic::new(
                "a die cannot strike where lone checkers are pinned or own their points",
            )
            .at(strike.at.span())
            .note("`[[moves.strike]]` goes with `lone_checker = \"hit\"` or `\"blocks\"`"),
        );
    }
    let hit_back = table
        .hit_back
        .as_ref()
        .and_then(|e| cx.expression(e, &step_scope(), Type::Int));
    if let Some(h) = table.hit_back.as_ref().filter(|_| hit_to != BAR) {
        cx.errors.push(
            Diagnostic::new("a checker hit off the board is not put back on a point")
                .at(h.span())
                .note("`hit_back` puts back the checkers hit to the bar: leave `hit_to` out"),
        );
    }
    let off_to_pool =
        cx.option("moves", "bear_off_to", table.bear_off_to.as_ref()) == Some(BearOffTo::Pool);
    MovesRule {
        off_to_pool,
        hit_back,
        hits,
        strikes,
        lone,
        hit_to,
        bear_off,
        larger,
        leave,
        leave_mask,
        step,
    }
}

/// The `when` of a `[[moves.leave]]` or `[[moves.step]]` table, compiled; warned about when it
/// never holds (`never`: what follows) or always does (it restricts nothing).
fn condition(cx: &mut Cx, when: &Spanned<String>, never: &str, table: &SectionRef) -> Option<Expr> {
    let e = cx.expression(when, &step_scope(), Type::Bool)?;
    match constant_value(&e) {
        Some(0) => cx
            .warnings
            .push(Diagnostic::warning(format!("`when` is always false: {never}")).at(when.span())),
        Some(_) => cx.warnings.push(
            Diagnostic::warning("`when` is always true: this rule restricts nothing")
                .at(when.span())
                .note(format!("leave this `{}` table out", table.header())),
        ),
        None => {}
    }
    Some(e)
}

/// What a landing does and what restricts a step, in plain words.
pub(super) fn describe(moves: &MoveRules, s: &mut String) {
    let _ = writeln!(
        s,
        "{}",
        match moves.lone {
            Lone::Hit if moves.board.hit_to == POOL => "Two or more checkers block a point; a lone checker is hit off the board, back to where its way begins, and enters again whenever its owner likes.",
            Lone::Hit if moves.board.hit_to == OFF => "Two or more checkers block a point; a lone checker is hit out of the game, counted with its side's borne-off checkers.",
            Lone::Hit if moves.hit_back.is_some() => "Two or more checkers block a point; a lone checker is hit.",
            Lone::Hit => "Two or more checkers block a point; a lone checker is hit to the bar and must enter before anything else moves.",
            Lone::Block if !moves.hits.is_empty() => "A single checker blocks a point: nothing is hit by landing on it.",
            Lone::Block => "A single checker blocks a point; there is no hitting.",
            Lone::Pin => "Two or more checkers block a point; a checker landing on a lone opposing checker pins it there until every checker of the pinner's side has left the point.",
            Lone::Own => "A single checker owns its point and blocks it; two or more own nothing, and the opponent may land beside them. There is no hitting.",
        }
    );
    match moves.larger {
        Larger::Farthest => {}
        Larger::Any => {
            let _ = writeln!(
                s,
                "A die larger than needed bears off any checker it carries past the end."
            );
        }
        Larger::None => {
            let _ = writeln!(s, "Only the exact number bears a checker off.");
        }
    }
    for r in &moves.leave {
        let _ = writeln!(
            s,
            "A checker may leave point {} only when `{}` (tested die by die).",
            r.point,
            r.when.text()
        );
    }
    if let Some(back) = &moves.hit_back {
        let _ = writeln!(
            s,
            "A checker hit does not wait on the bar: when the turn ends it is put back on its owner's point `{}` (worked out from its owner's side), and stays on the bar where there is none.",
            back.text()
        );
    }
    let goes = match moves.board.hit_to {
        POOL => "which goes back off the board and enters again whenever its owner likes",
        OFF => "which leaves the game, counted with its side's borne-off checkers",
        _ => "which goes to the bar and must enter before anything else of its side moves",
    };
    for at in &moves.hits {
        let _ = writeln!(
            s,
            "A step also hits the lone opposing checker on the point `{}` (worked out after it), {goes}.",
            at.text(),
        );
    }
    for at in &moves.strikes {
        let _ = writeln!(
            s,
            "Instead of moving a checker, a die may hit the lone opposing checker on the point `{}` (written `n/n*`), {goes}.",
            at.text(),
        );
    }
    for r in &moves.step {
        let _ = writeln!(
            s,
            "Every step must leave `{}` true (tested die by die).",
            r.text()
        );
    }
    if moves.off_to_pool {
        let _ = writeln!(
            s,
            "A checker borne off is not out of play: when the turn ends it goes to its side's pool and enters again from there."
        );
    }
}
