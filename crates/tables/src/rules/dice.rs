//! `[dice]` and `[dice.bonus]`: what is thrown each turn and how it is played.

use super::Cx;
use crate::movegen::{Bonus, OnlyOne};
use crate::position::Board;
use crate::scope::after_scope;
use crate::GameRules;
use ludus_core::diagnostics::Diagnostic;
use ludus_core::expr::{Expr, Type};
use ludus_core::game::Dice;
use ludus_core::rules::reference::{KeyRef, SectionRef};
use ludus_core::rules::toml::constant_value;
use serde::Deserialize;
use std::fmt::Write;
use toml::Spanned;

/// `[dice]` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiceTable {
    /// Dice thrown each turn (1 to 3; 2 by default).
    #[serde(default)]
    pub count: Option<Spanned<i64>>,
    /// Faces of each die, numbered from 1 (6 by default).
    #[serde(default)]
    pub faces: Option<Spanned<i64>>,
    /// How many moves a double of two dice gives: 4 (the default), 2 (played as rolled) or
    /// `"face"` (as many as the number shown).
    #[serde(default)]
    pub doubles: Option<Spanned<Doubles>>,
    /// Read as an [`OnlyOne`].
    #[serde(default)]
    pub only_one: Option<Spanned<String>>,
    /// A die showing this number at every throw, beside the dice thrown.
    #[serde(default)]
    pub fixed: Option<Spanned<i64>>,
    /// Read as an [`Unplayed`].
    #[serde(default)]
    pub unplayed: Option<Spanned<String>>,
    /// Read as a [`Wild`].
    #[serde(default)]
    pub wild: Option<Spanned<String>>,
    /// `[dice.bonus]`: a roll that gives more than its dice.
    #[serde(default)]
    pub bonus: Option<BonusTable>,
    /// `[[dice.after]]`: what follows a turn.
    #[serde(default)]
    pub after: Vec<AfterTable>,
}

/// `[[dice.after]]` as written: after a turn that meets `when`, the same player goes on.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AfterTable {
    pub when: Spanned<String>,
    /// An integer expression: the double the same player plays next, without rolling.
    #[serde(default)]
    pub double: Option<Spanned<String>>,
    /// The same player rolls again.
    #[serde(default)]
    pub again: Option<Spanned<bool>>,
    /// The same player plays the same dice again, without rolling.
    #[serde(default)]
    pub repeat: Option<Spanned<bool>>,
    /// The dice given may be played in part or not at all.
    #[serde(default)]
    pub optional: Option<Spanned<bool>>,
}

/// `[[dice.after]]` compiled.
#[derive(Clone, Debug)]
pub(crate) struct After {
    pub(crate) when: Expr,
    pub(crate) then: Then,
    /// The dice given may be played in part or not at all.
    pub(crate) optional: bool,
}

/// What an `[[dice.after]]` rule gives the player who just moved.
#[derive(Clone, Debug)]
pub(crate) enum Then {
    /// Another roll.
    Again,
    /// This double, played without rolling.
    Double(Expr),
    /// The same dice again, played without rolling.
    Repeat,
    /// Nothing: the other player's turn (an exception to the tables after it).
    Nothing,
}

/// `[dice] doubles` as written: a number of moves, or a word.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum Doubles {
    Moves(i64),
    Word(String),
}

/// `[dice.bonus]` as written: Acey-deucey's 1-2 and its like.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BonusTable {
    /// The two dice of the roll, such as `[1, 2]`.
    pub roll: Spanned<Vec<i64>>,
    /// Read as a [`BonusThen`].
    #[serde(default)]
    pub then: Option<Spanned<String>>,
    /// The mover rolls again after the turn.
    #[serde(default)]
    pub again: bool,
}

/// `[dice] unplayed`: what becomes of the dice a turn cannot play.
#[derive(Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(super) enum Unplayed {
    /// They are lost.
    Lost,
    /// The opponent plays them, before its own throw (Laquet).
    Opponent,
}

/// `[dice] wild`: which throws' dice count as any number the mover chooses.
#[derive(Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(super) enum Wild {
    None,
    /// Each move of a thrown double (Dubblets: "as many as the Dubblets are, so many he lays
    /// down, or bears").
    Doubles,
}

/// `[dice.bonus] then`: what follows the bonus roll's own moves.
#[derive(Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(super) enum BonusThen {
    /// A double of the mover's choosing.
    AnyDouble,
    Nothing,
}

pub(crate) const SECTION: SectionRef = SectionRef {
    name: "dice",
    line: "what is thrown each turn and how it is played",
    required: false,
    repeated: false,
    keys: KEYS,
};

pub(crate) const BONUS_SECTION: SectionRef = SectionRef {
    name: "dice.bonus",
    line: "a roll that gives more than its dice (Acey-deucey's 1-2)",
    required: false,
    repeated: false,
    keys: BONUS_KEYS,
};

pub(crate) const AFTER_SECTION: SectionRef = SectionRef {
    name: "dice.after",
    line: "what follows a turn: the same player plays a given double, or rolls again (any number of these tables; the first that applies)",
    required: false,
    repeated: true,
    keys: AFTER_KEYS,
};

const AFTER_KEYS: &[KeyRef] = &[
    KeyRef {
        section: "dice.after",
        key: "when",
        line: "the turn just played after which this rule applies",
        expects: "a condition in quotes, such as `\"doubles and played == 4\"`",
        values: &[],
        default: "—",
        example: "when = \"doubles and played == 4\"",
        long: "A condition on the turn just played (names `doubles`, `die`, `dice`, \
               `low_die`, `high_die`, `pair_die`, `played`, `ply`, `follow`), tested after each turn that does not end the game; the first \
               `[[dice.after]]` table whose `when` holds gives its `double`, `again` or \
               `repeat`.",
    },
    KeyRef {
        section: "dice.after",
        key: "double",
        line: "the double the same player plays next, without rolling",
        expects: "an integer expression in quotes, such as `\"7 - die\"`",
        values: &[],
        default: "none (then `again` must be true)",
        example: "double = \"7 - die\"",
        long: "An integer expression (the `when` names): the same player plays this double \
               next, as rolled dice are played, without throwing (Russian Backgammon's \
               complement, `\"7 - die\"`; Gul Bara's next higher double, `\"die + 1\"`). A number \
               the dice cannot show gives nothing: the turn passes as usual.",
    },
    KeyRef {
        section: "dice.after",
        key: "again",
        line: "whether the same player rolls again",
        expects: "true or false",
        values: &[],
        default: "false",
        example: "again = true",
        long: "true: the same player throws again (a double's extra throw). Give one of \
               `double`, `again` and `repeat`; with none, nothing follows the turns the table's \
               `when` picks, whatever the tables after it say (an exception: \
               `when = \"ply < 2\"`).",
    },
    KeyRef {
        section: "dice.after",
        key: "repeat",
        line: "whether the same player plays the same dice again, without rolling",
        expects: "true or false",
        values: &[],
        default: "false",
        example: "repeat = true",
        long: "true: the same player plays the dice of the turn just played once more, as \
               rolled dice are played, without throwing: a throw played twice or three times \
               over (Garanguet's triple: `when = \"dice == 3 and doubles and follow < 2\"`). `follow` counts \
               the repetitions.",
    },
    KeyRef {
        section: "dice.after",
        key: "optional",
        line: "whether the dice given may be played in part or not at all",
        expects: "true or false",
        values: &[],
        default: "false",
        example: "optional = true",
        long: "true, beside `double` or `repeat`: the player may play any number of the dice \
               given, none included (the Puff games' bottom numbers: \"they do not have to be \
               played, or only some of them\"); a turn that stops early is written with the \
               steps it played, and `pass` plays none. Needs `[dice] doubles = 2` or `1` (at most \
               three steps, so that every choice is listed), and no `[dice.bonus]`. STATE's \
               `optional` is true while such dice are to be played.",
    },
];

const KEYS: &[KeyRef] = &[
    KeyRef {
        section: "dice",
        key: "count",
        line: "how many dice are thrown each turn",
        expects: "a whole number from 1 to 3",
        values: &[],
        default: "2",
        example: "count = 3",
        long: "Dice thrown each turn; each die is one step of one checker. Two equal dice are a \
               double (see `doubles`).",
    },
    KeyRef {
        section: "dice",
        key: "faces",
        line: "how many faces each die has",
        expects: "a whole number from 2 to 20 (at most the points)",
        values: &[],
        default: "6",
        example: "faces = 6",
        long: "Faces of each die, showing 1..faces, all equally likely.",
    },
    KeyRef {
        section: "dice",
        key: "doubles",
        line: "how many moves a double gives",
        expects: "4, 2, 1 or \"face\"",
        values: &[],
        default: "4",
        example: "doubles = 2",
        long: "With two dice, a double gives 4 moves (each die played twice, as in Backgammon), \
               2 (played as rolled), 1 (one die of it played: Ofanfelling, whose doubles then \
               throw again by a `[[dice.after]]` rule) or \"face\": as many as the number \
               shown, 1-1 one move and 6-6 six (Jacquet de Versailles; dice of at most 6 faces, \
               without `[dice.bonus]`).",
    },
    KeyRef {
        section: "dice",
        key: "fixed",
        line: "a die that shows the same number at every throw",
        expects: "a whole number from 1 to the faces",
        values: &[],
        default: "none",
        example: "fixed = 6",
        long: "Every throw also gives a die showing this number, played as the thrown dice are \
               (\"on each throw the player also plays a throw of 6\": Myles, Baralie). It counts \
               among the dice: at most 3 in all. STATE's `dice` list it last.",
    },
    KeyRef {
        section: "dice",
        key: "unplayed",
        line: "what becomes of the dice a turn cannot play",
        expects: "\"lost\" or \"opponent\"",
        values: &["lost", "opponent"],
        default: "\"lost\"",
        example: "unplayed = \"opponent\"",
        long:
            "\"lost\": a die the mover cannot play is lost; \"opponent\": the opponent plays the \
               dice the mover could not (a double's moves left as that many moves), before \
               throwing for the own turn, and what the opponent cannot play of them is lost \
               (Laquet). STATE's `given` is true while such dice are to be played. Not with \
               `[dice.bonus]` nor `doubles = \"face\"` (but with `wild = \"doubles\"`, \
               whose doubles leave nothing to give).",
    },
    KeyRef {
        section: "dice",
        key: "wild",
        line: "which throws' dice count as any number the mover chooses",
        expects: "\"none\" or \"doubles\"",
        values: &["none", "doubles"],
        default: "\"none\"",
        example: "wild = \"doubles\"",
        long: "\"doubles\": each move a thrown double of two dice gives (`doubles`; and again \
               when a `[[dice.after]]` table repeats it) counts as any number the mover \
               chooses, step by step: it moves a checker that many points, bears off from that \
               point, or turns over the stacked checkers of that point (`[stacks]`). Dubblets: \
               \"as many as the Dubblets are, so many he lays down, or bears; if two fours, he \
               lays down, or bears eight\" is `doubles = \"face\"`, `wild = \"doubles\"` and \
               a `[[dice.after]]` table repeating the double once. The steps are written as \
               others (`6/6 3/off`). The moves a wild double leaves unplayed are lost even with \
               `unplayed = \"opponent\"`, and a double given that way is not wild. Not with \
               `[[moves.strike]]`.",
    },
    KeyRef {
        section: "dice",
        key: "only_one",
        line: "which die is played when only one of two can be",
        expects: "\"larger\", \"either\" or \"smaller\"",
        values: &["larger", "either", "smaller"],
        default: "\"larger\"",
        example: "only_one = \"smaller\"",
        long: "As many dice as possible are always played. When only one of two different dice \
               can be played: \"larger\" (the larger, if it can be; Backgammon), \"either\", \
               or \"smaller\": the smaller or none, so that a turn whose smaller die cannot be \
               played plays nothing (the Puff games: \"the lower number must be played; if it \
               cannot, the player does not move\").",
    },
];

const BONUS_KEYS: &[KeyRef] = &[
    KeyRef {
        section: "dice.bonus",
        key: "roll",
        line: "the roll that gives a bonus",
        expects: "two dice such as `[1, 2]`",
        values: &[],
        default: "—",
        example: "roll = [1, 2]",
        long: "The two dice (in either order) of the roll that gives more than its own moves.",
    },
    KeyRef {
        section: "dice.bonus",
        key: "then",
        line: "what the bonus roll gives after its own moves",
        expects: "\"any-double\" or \"nothing\"",
        values: &["any-double", "nothing"],
        default: "\"any-double\"",
        example: "then = \"any-double\"",
        long: "\"any-double\": after playing the roll, the mover plays a double of its choosing \
               (as many of its moves as can be played; Acey-deucey); \"nothing\": only the roll.",
    },
    KeyRef {
        section: "dice.bonus",
        key: "again",
        line: "whether the mover rolls again after the bonus turn",
        expects: "true or false",
        values: &[],
        default: "false",
        example: "again = true",
        long: "true: after the bonus turn the same player rolls again.",
    },
];

/// `[dice]` compiled: the dice thrown, and how the mover plays them (the move generator's
/// part of it goes into its `MoveRules`).
pub(super) struct DiceRule {
    pub(super) dice: Dice,
    /// Moves a double gives.
    pub(super) double_moves: u8,
    /// Which die is played when only one of two different dice can be.
    pub(super) only_one: OnlyOne,
    pub(super) bonus: Option<Bonus>,
    pub(super) after: Vec<After>,
    pub(super) fixed: Option<u8>,
    /// The dice a turn cannot play go to the opponent.
    pub(super) unplayed_to_opponent: bool,
    /// Each move of a thrown double counts as any number.
    pub(super) wild_doubles: bool,
}

/// The dice from `[dice]` (two six-sided dice, doubles played twice over, without it); a die
/// has at most as many faces as the board has points.
pub(super) fn check(cx: &mut Cx, table: Option<&DiceTable>, board: &Board) -> DiceRule {
    let Some(d) = table else {
        return DiceRule {
            dice: Dice::TWO_D6,
            double_moves: 4,
            only_one: OnlyOne::Larger,
            bonus: None,
            after: Vec::new(),
            fixed: None,
            unplayed_to_opponent: false,
            wild_doubles: false,
        };
    };
    let count = cx.number(d.count.as_ref(), 2, 1..=3, "a throw of") as u8;
    let most_faces = board.points.min(20) as i64;
    let faces = cx.number(d.faces.as_ref(), 6, 2..=most_faces, "a die of") as u8;
    let bonus = d.bonus.as_ref().and_then(|b| bonus(cx, b, count, faces));
    // 0: as many moves as the double's number shows.
    let double_moves = match d.doubles.as_ref().map(|v| (v.get_ref(), v.span())) {
        None => 4,
        Some((Doubles::Moves(n @ (1 | 2 | 4)), _)) => *n as u8,
        Some((Doubles::Word(w), _)) if w == "face" && faces <= 6 && bonus.is_none() => 0,
        Some((v, span)) => {
            let shown = match v {
                Doubles::Moves(n) => n.to_string(),
                Doubles::Word(w) => format!("\"{w}\""),
            };
            cx.errors.push(
                Diagnostic::new(format!("a double cannot give {shown} moves here"))
                    .at(span)
                    .note("4 (each die played twice), 2 (played as rolled), 1 (one die of it) or \"face\" (as many moves as the number shown: dice of at most 6 faces, no `[dice.bonus]`)"),
            );
            4
        }
    };
    let only_one = cx
        .option("dice", "only_one", d.only_one.as_ref())
        .unwrap_or(OnlyOne::Larger);
    let after = d
        .after
        .iter()
        .filter_map(|a| after(cx, a, double_moves, d.bonus.is_some()))
        .collect();
    let fixed = d.fixed.as_ref().and_then(|f| {
        let ok = (1..=i64::from(faces)).contains(f.get_ref()) && count < 3;
        if !ok {
            cx.errors.push(
                Diagnostic::new(format!("a fixed die cannot show {} here", f.get_ref()))
                    .at(f.span())
                    .note(format!(
                        "a number from 1 to {faces}, beside at most two dice thrown (`count`)"
                    )),
            );
        }
        ok.then_some(*f.get_ref() as u8)
    });
    let unplayed = cx.option("dice", "unplayed", d.unplayed.as_ref()) == Some(Unplayed::Opponent);
    let wild_doubles = cx.option("dice", "wild", d.wild.as_ref()) == Some(Wild::Doubles);
    // A wild double leaves nothing to give: the dice given are at most two.
    let face = double_moves == 0 && !wild_doubles;
    if let (true, Some(v)) = (unplayed, d.doubles.as_ref().filter(|_| face)) {
        cx.errors.push(
            Diagnostic::new("dice left over cannot go to the opponent when a double gives as many moves as its number")
                .at(v.span())
                .note("`[dice] unplayed = \"opponent\"` holds at most four dice left over"),
        );
    }
    if let (true, Some(b)) = (unplayed, &d.bonus) {
        cx.errors.push(
            Diagnostic::new("dice left over cannot go to the opponent with a bonus roll")
                .at(b.roll.span())
                .note("`[dice] unplayed = \"opponent\"` and `[dice.bonus]` do not go together"),
        );
    }
    DiceRule {
        dice: Dice { count, faces },
        double_moves,
        only_one,
        bonus,
        after,
        fixed,
        unplayed_to_opponent: unplayed,
        wild_doubles,
    }
}

/// One `[[dice.after]]` table: a condition, and a double or another roll (one of them).
/// A `[[dice.after]]` table; `double_moves` and `bonus` say what an optional turn it gives
/// would hold.
fn after(cx: &mut Cx, a: &AfterTable, double_moves: u8, bonus: bool) -> Option<After> {
    let when = cx.expression(&a.when, &after_scope(), Type::Bool);
    let again = a.again.as_ref().filter(|g| *g.get_ref());
    let repeat = a.repeat.as_ref().filter(|g| *g.get_ref());
    let then = match (&a.double, again, repeat) {
        (Some(d), None, None) => Then::Double(cx.expression(d, &after_scope(), Type::Int)?),
        (None, Some(_), None) => Then::Again,
        (None, None, Some(_)) => Then::Repeat,
        (None, None, None) => Then::Nothing,
        (double, again, repeat) => {
            let span = [
                double.as_ref().map(Spanned::span),
                again.map(Spanned::span),
                repeat.map(Spanned::span),
            ]
            .into_iter()
            .flatten()
            .max_by_key(|s| s.start)
            .expect("two of them given");
            cx.errors.push(
                Diagnostic::new("a turn can be followed by one thing only")
                    .at(span)
                    .note("give one of `double`, `again = true` and `repeat = true`"),
            );
            return None;
        }
    };
    let mut optional = a.optional.as_ref().filter(|o| *o.get_ref());
    if let Some(o) = optional.filter(|_| !matches!(then, Then::Double(_) | Then::Repeat)) {
        cx.warnings.push(
            Diagnostic::warning("`optional` changes nothing: no dice are given without rolling")
                .at(o.span())
                .note("only the dice of `double` or `repeat` may be played in part"),
        );
        optional = None;
    }
    if let Some(o) = optional.filter(|_| !matches!(double_moves, 1 | 2) || bonus) {
        cx.errors.push(
            Diagnostic::new("optional dice need `[dice] doubles = 2` or `1` and no `[dice.bonus]`")
                .at(o.span())
                .note("an optional turn lists every way to play some of its dice: at most three steps"),
        );
        return None;
    }
    Some(After {
        when: when?,
        then,
        optional: optional.is_some(),
    })
}

/// `[dice.bonus]`: a roll of two of the `count` dice of `faces` faces.
fn bonus(cx: &mut Cx, b: &BonusTable, count: u8, faces: u8) -> Option<Bonus> {
    let roll = b.roll.get_ref();
    let fits = roll.len() == 2 && roll.iter().all(|&v| (1..=i64::from(faces)).contains(&v));
    if !fits || count != 2 {
        cx.errors.push(
            Diagnostic::new("a bonus roll is two dice such as `[1, 2]`")
                .at(b.roll.span())
                .note(format!(
                    "with `count = 2` and each die from 1 to {faces}; this throw has {count} dice"
                )),
        );
        return None;
    }
    let any_double = cx.option("dice.bonus", "then", b.then.as_ref()) != Some(BonusThen::Nothing);
    let (x, y) = (roll[0] as u8, roll[1] as u8);
    Some(Bonus {
        roll: [x.min(y), x.max(y)],
        any_double,
        again: b.again,
    })
}

/// "2 dice of 6 faces".
pub(super) fn words(dice: Dice) -> String {
    let die = if dice.count == 1 { "die" } else { "dice" };
    format!("{} {die} of {} faces", dice.count, dice.faces)
}

/// The throw and the bonus roll in plain words.
pub(super) fn describe(dice: Dice, rules: &GameRules, s: &mut String) {
    let moves = &rules.moves;
    let mut throw = words(dice);
    if dice.count == 2 {
        throw.push_str(match moves.double_moves {
            4 => ", doubles played twice over (four moves)",
            0 => ", a double giving as many moves as the number shown",
            1 => ", a double giving one move",
            _ => ", doubles played as rolled",
        });
    }
    let _ = writeln!(s, "Each turn throws {throw}.");
    if moves.wild_doubles {
        let _ = writeln!(
            s,
            "Each move of a double counts as any number the mover chooses."
        );
    }
    if let Some(d) = rules.fixed_die {
        let _ = writeln!(
            s,
            "Every throw also gives a die showing {d}, played as the others."
        );
    }
    if rules.unplayed_to_opponent {
        let _ = writeln!(
            s,
            "Dice a player cannot play go to the opponent, who plays them as they are before throwing for the own turn."
        );
    }
    if let Some(b) = &moves.bonus {
        let _ = writeln!(
            s,
            "A roll of {}-{} is played, {}{}.",
            b.roll[0],
            b.roll[1],
            if b.any_double {
                "then a double of the mover's choosing"
            } else {
                "and nothing more"
            },
            if b.again {
                "; then the mover rolls again"
            } else {
                ""
            }
        );
    }
}

/// What follows a turn, in plain words.
pub(super) fn describe_after(rules: &GameRules, s: &mut String) {
    for a in &rules.after {
        let some = if a.optional {
            ", as many of them as they like (none included),"
        } else {
            ","
        };
        let _ = match &a.then {
            Then::Again => writeln!(
                s,
                "After a turn where `{}`, the same player rolls again.",
                a.when.text()
            ),
            Then::Double(d) => writeln!(
                s,
                "After a turn where `{}`, the same player plays the double of `{}`{some} without rolling.",
                a.when.text(),
                d.text()
            ),
            Then::Repeat => writeln!(
                s,
                "After a turn where `{}`, the same player plays the same dice again{some} without rolling.",
                a.when.text()
            ),
            Then::Nothing => writeln!(
                s,
                "After a turn where `{}`, the other player's turn comes, whatever follows.",
                a.when.text()
            ),
        };
    }
}

/// How many dice a turn plays, in plain words (`only_one` among them).
pub(super) fn describe_play(dice: Dice, rules: &GameRules, s: &mut String) {
    let _ = writeln!(
        s,
        "Play as many dice as possible{}; {}.",
        match rules.moves.only_one {
            OnlyOne::Larger if dice.count == 2 => ", the larger when only one can be played",
            OnlyOne::Smaller if dice.count == 2 =>
                ", the smaller when only one can be played (none when the smaller cannot be)",
            _ => "",
        },
        match &rules.moves.bear_off {
            None => "bear off once all are home".to_string(),
            Some(e) if constant_value(e) == Some(0) => "no checker is ever borne off".to_string(),
            Some(e) if constant_value(e).is_some() => {
                "a checker may be borne off at any time".to_string()
            }
            Some(e) => format!("a checker may be borne off when `{}`", e.text()),
        }
    );
}
