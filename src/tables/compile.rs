//! Checks a tables rules file and builds the compiled game; every problem is a located
//! diagnostic.

use super::movegen::{LeaveRule, MoveRules};
use super::notation::parse_setup;
use super::position::{Position, OFF};
use super::rules::RulesFile;
use super::scope::{scoring_scope, step_scope};
use super::{Info, MatchRules, TablesGame};
use crate::diagnostics::Diagnostic;
use crate::expr::Type;
use crate::game::NextFirst;
use crate::game::Ritual;
use crate::rules::{expr, RulesDoc};

/// The most points a match may be played to.
const MAX_TARGET: i64 = crate::limits::LIMITS.match_points as i64;

pub fn compile(doc: &RulesDoc) -> Result<TablesGame, Vec<Diagnostic>> {
    let file: RulesFile = doc.read()?;
    let text = doc.text();
    let mut errors = Vec::new();

    if file.game.family.get_ref() != "tables" {
        errors.push(
            Diagnostic::new("this is not a tables rules file")
                .at(file.game.family.span())
                .note("family = \"tables\""),
        );
    }
    let players = match &file.game.players {
        None => ["White".to_string(), "Black".to_string()],
        Some(p) => match p.get_ref().as_slice() {
            [a, b] => [a.clone(), b.clone()],
            _ => {
                errors.push(Diagnostic::new("`players` names exactly two players").at(p.span()));
                ["White".to_string(), "Black".to_string()]
            }
        },
    };

    let start = setup(text, &file, &mut errors);

    let ritual = match &file.setup.ritual {
        None => Ritual::None,
        Some(r) => match r.get_ref().as_str() {
            "none" => Ritual::None,
            "higher-die-chooses-colour" => Ritual::HigherDieChoosesColour,
            other => {
                errors.push(
                    Diagnostic::new(format!("unknown ritual `{other}`"))
                        .at(r.span())
                        .note("expected \"higher-die-chooses-colour\" or \"none\""),
                );
                Ritual::None
            }
        },
    };

    let (block_at, hits) = match &file.moves.lone_checker {
        None => (2, true),
        Some(l) => match l.get_ref().as_str() {
            "hit" => (2, true),
            "blocks" => (1, false),
            other => {
                errors.push(
                    Diagnostic::new(format!("unknown lone_checker rule `{other}`"))
                        .at(l.span())
                        .note("expected \"hit\" (sent to the bar) or \"blocks\" (one checker blocks a point)"),
                );
                (2, true)
            }
        },
    };

    let mut leave = Vec::new();
    let mut leave_mask = 0u32;
    let mut scope = None;
    for rule in &file.moves.leave {
        let point = *rule.point.get_ref();
        if !(1..=24).contains(&point) {
            errors.push(
                Diagnostic::new(format!("point {point} is not on the board"))
                    .at(rule.point.span())
                    .note("points are numbered 1..24 from the mover's side"),
            );
            continue;
        }
        let scope = scope.get_or_insert_with(step_scope);
        match expr(text, &rule.when, scope, Type::Bool) {
            Ok(when) => {
                leave_mask |= 1 << point;
                leave.push(LeaveRule {
                    point: point as u8,
                    when,
                });
            }
            Err(d) => errors.push(d),
        }
    }

    let scoring = file.scoring.as_ref().and_then(|s| {
        expr(text, &s.points, &scoring_scope(), Type::Int)
            .map_err(|d| errors.push(d))
            .ok()
    });

    let match_rules = file.match_.as_ref().and_then(|m| {
        let target = *m.target.get_ref();
        if !(1..=MAX_TARGET).contains(&target) {
            errors.push(
                Diagnostic::new(format!("match target {target} is out of range"))
                    .at(m.target.span())
                    .note(format!("a match is played to 1..{MAX_TARGET} points")),
            );
            return None;
        }
        let next_first = m
            .next_first
            .as_ref()
            .map_or(NextFirst::Ritual, |n| *n.get_ref());
        Some(MatchRules {
            target: target as i32,
            next_first,
        })
    });

    if !errors.is_empty() {
        return Err(errors);
    }
    let start = start.expect("setup errors are reported");
    Ok(TablesGame {
        info: Box::new(Info {
            name: file.game.name.get_ref().clone(),
            title: file
                .game
                .title
                .clone()
                .unwrap_or_else(|| file.game.name.get_ref().clone()),
            source: file.game.source.clone().unwrap_or_default(),
            players,
        }),
        checkers: start.left(0),
        start,
        moves: MoveRules {
            block_at,
            hits,
            leave,
            leave_mask,
        },
        scoring,
        match_rules,
        ritual,
        dice: crate::game::Dice::TWO_D6,
        max_plies: crate::limits::LIMITS.plies_per_game,
    })
}

/// The start position from `[setup] checkers`, checked: both sides have the same number of
/// checkers (1..15), none borne off, no point held by both.
fn setup(text: &str, file: &RulesFile, errors: &mut Vec<Diagnostic>) -> Option<Position> {
    let list = &file.setup.checkers;
    let [a, b] = list.get_ref().as_slice() else {
        errors.push(
            Diagnostic::new("`checkers` lists exactly two sides, player 0 first")
                .at(list.span())
                .note("e.g. checkers = [\"24:2 13:5 8:3 6:5\", \"24:2 13:5 8:3 6:5\"]"),
        );
        return None;
    };
    let mut pos = Position::default();
    let mut ok = true;
    for (p, s) in [a, b].into_iter().enumerate() {
        match parse_setup(s.get_ref()) {
            Ok(side) => pos.sides[p] = side,
            Err(e) => {
                errors.push(Diagnostic::in_string(text, s, e));
                ok = false;
            }
        }
    }
    if !ok {
        return None;
    }
    for (p, s) in [a, b].into_iter().enumerate() {
        if pos.left(p) == 0 {
            errors.push(Diagnostic::new("a side needs at least one checker").at(s.span()));
            ok = false;
        }
    }
    if ok && pos.left(0) != pos.left(1) {
        errors.push(
            Diagnostic::new(format!(
                "the sides have different numbers of checkers ({} and {})",
                pos.left(0),
                pos.left(1)
            ))
            .at(list.span()),
        );
        ok = false;
    }
    if let Some(n) = pos.shared_point() {
        errors.push(
            Diagnostic::new(format!(
                "both sides start on player 0's point {n} (player 1's point {})",
                25 - n
            ))
            .at(list.span())
            .note("player p's point n is the other side's point 25 - n"),
        );
        ok = false;
    }
    ok.then_some(pos)
}
