//! Checks a tables rules file and builds the compiled game; every problem is a located
//! diagnostic, and every check runs whatever else is wrong. Warnings point at rules that are
//! legal but almost certainly not meant (a condition that never holds, a game worth nothing).
//! A file whose `[match] games` names other rules files plays them in turn: each is read and
//! checked here as a single game, its problems reported at its name.

use super::keys::REFERENCE;
use super::movegen::{Bonus, LeaveRule, MoveRules};
use super::notation::parse_setup;
use super::position::{Board, Lone, Position, MAX_POINTS};
use super::rules::{RulesFile, Setup};
use super::scope::{evaluation_scope, scoring_scope, step_scope};
use super::{GameRules, Info, MatchRules, TablesGame};
use ludus_core::diagnostics::Diagnostic;
use ludus_core::expr::{Expr, Type};
use ludus_core::game::NextFirst;
use ludus_core::game::{Dice, Ritual};
use ludus_core::limits::{excerpt, LIMITS};
use ludus_core::rules::toml::constant_value;
use ludus_core::rules::{check as check_with, constant_evaluation, expr, Origin, RulesDoc, Source};
use serde::de::value::Error as ValueError;
use serde::de::{DeserializeOwned, IntoDeserializer};
use serde::Deserialize;
use toml::Spanned;

/// The most points a match may be played to.
const MAX_TARGET: i64 = ludus_core::limits::LIMITS.match_points as i64;

/// Compiles a tables rules file: the game, or every error found.
pub fn compile(doc: &RulesDoc) -> Result<TablesGame, Vec<Diagnostic>> {
    ludus_core::diagnostics::game_or_errors(check(doc))
}

/// Checks a tables rules file: the game when it has no error, and every error and warning
/// found, located in the text and annotated from the reference (errors first, each kind in the
/// order of the text).
pub fn check(doc: &RulesDoc) -> (Option<TablesGame>, Vec<Diagnostic>) {
    check_with(doc, &REFERENCE, |repairs, file, errors, warnings| {
        build(
            doc.origin(),
            repairs.text(doc.text()),
            file,
            errors,
            warnings,
        )
    })
}

/// A string option of `[section] key`: its index in the key's values, or an error naming them.
fn option<T: DeserializeOwned>(
    section: &str,
    key: &str,
    value: Option<&Spanned<String>>,
    errors: &mut Vec<Diagnostic>,
) -> Option<T> {
    let value = value?;
    let word = value.get_ref().as_str();
    // Only the words the reference lists (a type may know more, such as a ritual that only
    // sowing games hold), each read by its name, never by its place in the list.
    let listed = REFERENCE
        .key(section, key)
        .is_some_and(|k| k.values.contains(&word));
    let typed = listed
        .then(|| T::deserialize(IntoDeserializer::<ValueError>::into_deserializer(word)).ok())
        .flatten();
    if typed.is_none() {
        errors.push(REFERENCE.unknown_option(section, key, value));
    }
    typed
}

/// `[board] direction`.
#[derive(Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum Direction {
    /// The two sides move in opposite directions (backgammon).
    Opposite,
    /// Both move the same way round (Long Nardy, Fevga).
    Same,
}

/// `[dice] only_one`: which die is played when only one of two can be.
#[derive(Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum OnlyOne {
    Larger,
    Either,
}

/// `[dice.bonus] then`: what the bonus roll adds.
#[derive(Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum BonusThen {
    AnyDouble,
    Nothing,
}

/// One game's rules with what the games of a match must share: the dice and the ritual.
struct Played {
    rules: GameRules,
    dice: Dice,
    ritual: Ritual,
}

fn build(
    origin: &Origin,
    text: &str,
    file: &RulesFile,
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
) -> Option<TablesGame> {
    let players = file.game.player_names(["White", "Black"], errors);
    let match_rules = match_rules(file, errors);
    let games = match file.match_.as_ref().and_then(|m| m.games.as_ref()) {
        Some(games) => {
            // The match file's own measure, when it gives one, for every game of the match.
            let evaluate = evaluation(text, file, errors, warnings);
            rotation(origin, text, games, errors).map(|mut games| {
                if let Some(e) = evaluate {
                    for g in &mut games {
                        g.rules.evaluate = Some(e.clone());
                    }
                }
                games
            })
        }
        None => own_game(text, file, errors, warnings).map(|g| vec![g]),
    };
    if !errors.is_empty() {
        return None;
    }
    let games = games?;
    let first = games.first()?;
    let (dice, ritual) = (first.dice, first.ritual);
    Some(TablesGame {
        info: Box::new(Info {
            name: file.game.name.get_ref().clone(),
            title: title(file),
            source: file.game.source.clone().unwrap_or_default(),
            players,
        }),
        rotation: games.into_iter().map(|g| g.rules).collect(),
        match_rules,
        ritual,
        dice,
        max_plies: LIMITS.plies_per_game,
    })
}

/// The file's `[game] title`, or else its name.
fn title(file: &RulesFile) -> String {
    file.game
        .title
        .clone()
        .unwrap_or_else(|| file.game.name.get_ref().clone())
}

/// `[match]`: the target and who starts each next game.
fn match_rules(file: &RulesFile, errors: &mut Vec<Diagnostic>) -> Option<MatchRules> {
    let m = file.match_.as_ref()?;
    let target = *m.target.get_ref();
    let in_range = (1..=MAX_TARGET).contains(&target);
    if !in_range {
        errors.push(
            Diagnostic::new(format!("match target {target} is out of range"))
                .at(m.target.span())
                .note(format!("a match is played to 1 to {MAX_TARGET} points")),
        );
    }
    let next_first = m
        .next_first
        .as_ref()
        .map_or(NextFirst::Ritual, |n| *n.get_ref());
    in_range.then_some(MatchRules {
        target: target as i32,
        next_first,
    })
}

/// The tables that set one game's rules: a file that names its games in `[match] games` has
/// none of them.
const GAME_TABLES: [&str; 6] = ["board", "dice", "setup", "moves", "scoring", "win"];

/// The games of `[match] games`, each read from its rules file (named from `origin`) and checked
/// as a single game; all thrown with the same dice and started by the same ritual.
fn rotation(
    origin: &Origin,
    text: &str,
    games: &Spanned<Vec<Spanned<String>>>,
    errors: &mut Vec<Diagnostic>,
) -> Option<Vec<Played>> {
    // The text as read (maybe repaired), so that these places are put back like the others.
    if let Ok(doc) = RulesDoc::parse(text) {
        for table in GAME_TABLES.into_iter().filter(|t| doc.has(t)) {
            let header = REFERENCE
                .section(table)
                .map_or(String::new(), |s| s.header());
            errors.push(
                Diagnostic::new(format!(
                    "a match of `games` has no rules of its own: leave `{header}` out"
                ))
                .at(doc.table_span(table).unwrap_or(0..0))
                .note("each game's rules file sets its own board, dice, setup, moves and scoring"),
            );
        }
    }
    let entries = games.get_ref();
    if entries.is_empty() || entries.len() > LIMITS.rotation_games {
        errors.push(
            Diagnostic::new(format!(
                "`games` names {} games; a match plays 1 to {} in turn",
                entries.len(),
                LIMITS.rotation_games
            ))
            .at(games.span())
            .note("e.g. games = [\"portes\", \"plakoto\", \"fevga\"]"),
        );
        return None;
    }
    let mut played: Vec<(&Spanned<String>, Played)> = Vec::new();
    for entry in entries {
        match game_of_match(origin, entry.get_ref()) {
            Ok(game) => played.push((entry, game)),
            Err(d) => errors.push(d.at(entry.span())),
        }
    }
    if let Some(((first_name, first), rest)) = played.split_first() {
        for (name, game) in rest {
            if game.dice != first.dice {
                errors.push(
                    Diagnostic::new(format!(
                        "`{}` throws {}, the first game `{}` {}",
                        excerpt(name.get_ref()),
                        dice_words(game.dice),
                        excerpt(first_name.get_ref()),
                        dice_words(first.dice)
                    ))
                    .at(name.span())
                    .note("every game of a match is played with the same dice"),
                );
            }
            if game.ritual != first.ritual {
                errors.push(
                    Diagnostic::new(format!(
                        "`{}` starts by the ritual \"{}\", the first game `{}` by \"{}\"",
                        excerpt(name.get_ref()),
                        game.ritual.name(),
                        excerpt(first_name.get_ref()),
                        first.ritual.name()
                    ))
                    .at(name.span())
                    .note("every game of a match starts the same way (`[setup] ritual`)"),
                );
            }
        }
    }
    (played.len() == entries.len()).then(|| played.into_iter().map(|(_, g)| g).collect())
}

/// "2 dice of 6 faces".
fn dice_words(dice: Dice) -> String {
    let die = if dice.count == 1 { "die" } else { "dice" };
    format!("{} {die} of {} faces", dice.count, dice.faces)
}

/// One game of `[match] games`: the rules file it names, read and checked as a single game. The
/// error (to be placed at the name) says what is wrong without quoting a file that is not a
/// rules file.
fn game_of_match(origin: &Origin, name: &str) -> Result<Played, Diagnostic> {
    let source = Source::find_from(origin, name).map_err(|e| Diagnostic::new(e.to_string()))?;
    let shown = excerpt(&source.name);
    let doc = RulesDoc::parse_source(&source)
        .ok()
        .filter(|doc| doc.has("game"))
        .ok_or_else(|| {
            Diagnostic::new(format!(
                "`{shown}` is not a rules file: it is not TOML with a [game] table"
            ))
        })?;
    if let Some(family) = doc.string(&["game", "family"]) {
        if family.get_ref() != REFERENCE.family {
            return Err(Diagnostic::new(format!(
                "`{shown}` is a game of the {} family, not a tables game",
                excerpt(family.get_ref())
            ))
            .note("a tables match plays tables games"));
        }
    }
    // Only single games: a match naming another match (or itself) would never end reading.
    if doc.has_path(&["match", "games"]) {
        return Err(
            Diagnostic::new(format!("`{shown}` plays several games in turn itself")).note(
                "the games of a match are single games: a match names no match, itself included",
            ),
        );
    }
    let (game, found) = check_with(&doc, &REFERENCE, |repairs, file, errors, warnings| {
        own_game(repairs.text(doc.text()), file, errors, warnings)
    });
    let errors: Vec<&Diagnostic> = found.iter().filter(|d| d.is_error()).collect();
    match (game, errors.first()) {
        (Some(game), None) => Ok(game),
        (_, first) => {
            let at = first.map_or(String::new(), |d| {
                let start = d.span.as_ref().map_or(0, |s| s.start);
                let (line, column) = ludus_core::diagnostics::line_column(doc.text(), start);
                format!("; the first, at {shown}:{line}:{column}: {}", d.message)
            });
            Err(
                Diagnostic::new(format!("`{shown}` has {} error(s){at}", errors.len()))
                    .note(format!("`ludus validate {shown}` shows them all")),
            )
        }
    }
}

/// The game a file's own tables set: board, dice, start, moves, scoring and wins.
fn own_game(
    text: &str,
    file: &RulesFile,
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
) -> Option<Played> {
    let board = board(file, errors);
    let start = match &file.setup {
        Some(s) => setup(text, s, &board, errors),
        None => {
            // In the reader's words, which the reference annotates: "missing table `[setup]`".
            errors.push(Diagnostic::new("missing key `setup`").at(0..0));
            None
        }
    };
    let (dice, double_moves, larger_first, bonus) = dice(file, &board, errors);

    let ritual = option(
        "setup",
        "ritual",
        file.setup.as_ref().and_then(|s| s.ritual.as_ref()),
        errors,
    )
    .unwrap_or(Ritual::None);
    let lone = option(
        "moves",
        "lone_checker",
        file.moves.lone_checker.as_ref(),
        errors,
    )
    .unwrap_or(Lone::Hit);

    let mut leave = Vec::new();
    let mut leave_mask = 0u64;
    let scope = step_scope();
    for rule in &file.moves.leave {
        let point = *rule.point.get_ref();
        let on_board = (1..=board.points as i64).contains(&point);
        if !on_board {
            errors.push(
                Diagnostic::new(format!("point {point} is not on the board"))
                    .at(rule.point.span())
                    .note(format!(
                        "points are numbered 1 to {} from the mover's side",
                        board.points
                    )),
            );
        }
        match expr(text, &rule.when, &scope, Type::Bool) {
            Ok(when) => {
                match constant_value(&when) {
                    Some(0) => warnings.push(
                        Diagnostic::warning(format!(
                            "`when` is always false: no checker ever leaves point {point}"
                        ))
                        .at(rule.when.span()),
                    ),
                    Some(_) => warnings.push(
                        Diagnostic::warning("`when` is always true: this rule restricts nothing")
                            .at(rule.when.span())
                            .note("leave this `[[moves.leave]]` table out"),
                    ),
                    None => {}
                }
                if on_board {
                    leave_mask |= 1 << point;
                    leave.push(LeaveRule {
                        point: point as u8,
                        when,
                    });
                }
            }
            Err(d) => errors.push(d),
        }
    }
    let mut step = Vec::new();
    for rule in &file.moves.step {
        match expr(text, &rule.when, &scope, Type::Bool) {
            Ok(when) => {
                match constant_value(&when) {
                    Some(0) => warnings.push(
                        Diagnostic::warning("`when` is always false: no checker can ever move")
                            .at(rule.when.span()),
                    ),
                    Some(_) => warnings.push(
                        Diagnostic::warning("`when` is always true: this rule restricts nothing")
                            .at(rule.when.span())
                            .note("leave this `[[moves.step]]` table out"),
                    ),
                    None => {}
                }
                step.push(when);
            }
            Err(d) => errors.push(d),
        }
    }

    let scoring = file.scoring.as_ref().and_then(|s| {
        let points = expr(text, &s.points, &scoring_scope(), Type::Int)
            .map_err(|d| errors.push(d))
            .ok()?;
        if constant_value(&points).is_some_and(|v| v <= 0) {
            warnings.push(
                Diagnostic::warning("`points` is never above 0: no game scores anything")
                    .at(s.points.span())
                    .note("negative points count as 0; a match could never be won"),
            );
        }
        Some(points)
    });

    let mut wins = Vec::new();
    for rule in &file.win {
        let when = expr(text, &rule.when, &scope, Type::Bool).map_err(|d| errors.push(d));
        let points = rule
            .points
            .as_ref()
            .map(|p| expr(text, p, &scoring_scope(), Type::Int).map_err(|d| errors.push(d)));
        if let (Ok(when), None | Some(Ok(_))) = (when, &points) {
            wins.push((when, points.and_then(Result::ok)));
        }
    }

    let evaluate = evaluation(text, file, errors, warnings);

    if !errors.is_empty() {
        return None;
    }
    let start = start?;
    Some(Played {
        rules: GameRules {
            name: file.game.name.get_ref().clone(),
            title: title(file),
            checkers: start.left(0),
            start,
            moves: MoveRules {
                board,
                lone,
                leave,
                leave_mask,
                step,
                double_moves,
                larger_first,
                bonus,
                faces: dice.faces,
            },
            scoring,
            wins,
            evaluate,
        },
        dice,
        ritual,
    })
}

/// `[ai] evaluate`, compiled; a measure that reads nothing of the position is warned about.
fn evaluation(
    text: &str,
    file: &RulesFile,
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
) -> Option<Expr> {
    let value = file.ai.as_ref()?.evaluate.as_ref()?;
    let e = expr(text, value, &evaluation_scope(), Type::Int)
        .map_err(|d| errors.push(d))
        .ok()?;
    warnings.extend(constant_evaluation(
        &e,
        value,
        "checkers borne off and pip counts",
    ));
    Some(e)
}

/// A whole number of a key, checked against a range.
fn number(
    value: Option<&Spanned<i64>>,
    default: i64,
    range: std::ops::RangeInclusive<i64>,
    what: &str,
    errors: &mut Vec<Diagnostic>,
) -> i64 {
    let Some(v) = value else {
        return default;
    };
    let n = *v.get_ref();
    if range.contains(&n) {
        n
    } else {
        errors.push(
            Diagnostic::new(format!("{what} {n} is out of range"))
                .at(v.span())
                .note(format!(
                    "expected a whole number from {} to {}",
                    range.start(),
                    range.end()
                )),
        );
        default
    }
}

/// The board from `[board]`: an even number of points and a home table of at most half of
/// them (a quarter by default).
fn board(file: &RulesFile, errors: &mut Vec<Diagnostic>) -> Board {
    let Some(b) = &file.board else {
        return Board::standard();
    };
    let mut points = number(
        b.points.as_ref(),
        24,
        4..=MAX_POINTS as i64,
        "a board of",
        errors,
    ) as usize;
    if points % 2 == 1 {
        errors.push(
            Diagnostic::new(format!(
                "a board of {points} points cannot be split in two halves"
            ))
            .at(b.points.as_ref().map_or(0..0, |p| p.span()))
            .note("the number of points is even"),
        );
        points = 24;
    }
    let home = number(
        b.home.as_ref(),
        (points / 4) as i64,
        1..=(points / 2) as i64,
        "a home table of",
        errors,
    ) as usize;
    let same = option("board", "direction", b.direction.as_ref(), errors) == Some(Direction::Same);
    Board::new(points, home, same)
}

/// The dice from `[dice]`, with how a double is played, whether the larger die must be played
/// when only one can, and the bonus roll.
fn dice(
    file: &RulesFile,
    board: &Board,
    errors: &mut Vec<Diagnostic>,
) -> (Dice, u8, bool, Option<Bonus>) {
    let Some(d) = &file.dice else {
        return (Dice::TWO_D6, 4, true, None);
    };
    let count = number(d.count.as_ref(), 2, 1..=3, "a throw of", errors) as u8;
    let most_faces = board.points.min(20) as i64;
    let faces = number(d.faces.as_ref(), 6, 2..=most_faces, "a die of", errors) as u8;
    let doubles = match d.doubles.as_ref() {
        Some(v) if ![2, 4].contains(v.get_ref()) => {
            errors.push(
                Diagnostic::new(format!("a double cannot give {} moves", v.get_ref()))
                    .at(v.span())
                    .note("4 (each die played twice) or 2 (played as rolled)"),
            );
            4
        }
        Some(v) => *v.get_ref() as u8,
        None => 4,
    };
    let larger = option("dice", "only_one", d.only_one.as_ref(), errors) != Some(OnlyOne::Either);
    let bonus = d.bonus.as_ref().and_then(|b| {
        let roll = b.roll.get_ref();
        let fits = roll.len() == 2 && roll.iter().all(|&v| (1..=i64::from(faces)).contains(&v));
        if !fits || count != 2 {
            errors.push(
                Diagnostic::new("a bonus roll is two dice such as `[1, 2]`")
                    .at(b.roll.span())
                    .note(format!(
                        "with `count = 2` and each die from 1 to {faces}; this throw has {count} dice"
                    )),
            );
            return None;
        }
        let any_double =
            option("dice.bonus", "then", b.then.as_ref(), errors) != Some(BonusThen::Nothing);
        let (x, y) = (roll[0] as u8, roll[1] as u8);
        Some(Bonus {
            roll: [x.min(y), x.max(y)],
            any_double,
            again: b.again,
        })
    });
    (Dice { count, faces }, doubles, larger, bonus)
}

/// The start position from `[setup] checkers`, checked: both sides have the same number of
/// checkers (1..15), none borne off, no point held by both.
fn setup(
    text: &str,
    setup: &Setup,
    board: &Board,
    errors: &mut Vec<Diagnostic>,
) -> Option<Position> {
    let list = &setup.checkers;
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
        match parse_setup(s.get_ref(), board.points) {
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
    if let Some(n) = pos.shared_point(board) {
        errors.push(
            Diagnostic::new(format!(
                "both sides start on player 0's point {n} (player 1's point {})",
                board.across(n)
            ))
            .at(list.span())
            .note(if board.same_direction {
                format!(
                    "player p's point n is the other side's point n + {} (counted round the board)",
                    board.points / 2
                )
            } else {
                format!(
                    "player p's point n is the other side's point {} - n",
                    board.points + 1
                )
            }),
        );
        ok = false;
    }
    ok.then_some(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every word the reference lists for `section.key` reads as a value of `T`.
    fn every_word_reads<T: DeserializeOwned>(section: &str, key: &str) -> usize {
        let words = REFERENCE.key(section, key).expect("a key").values;
        for word in words {
            let value = Spanned::new(0..word.len(), word.to_string());
            let mut errors = Vec::new();
            let typed = option::<T>(section, key, Some(&value), &mut errors);
            assert!(
                typed.is_some() && errors.is_empty(),
                "{section}.{key} = {word}"
            );
        }
        words.len()
    }

    #[test]
    fn every_listed_word_of_an_option_key_has_its_meaning() {
        let checked = [
            every_word_reads::<Direction>("board", "direction"),
            every_word_reads::<OnlyOne>("dice", "only_one"),
            every_word_reads::<BonusThen>("dice.bonus", "then"),
            every_word_reads::<Ritual>("setup", "ritual"),
            every_word_reads::<Lone>("moves", "lone_checker"),
            every_word_reads::<NextFirst>("match", "next_first"),
        ];
        // Every key of the family with a list of words is checked above (`[game] family` is
        // read by the registry).
        let listed = REFERENCE
            .all_keys()
            .filter(|k| !k.values.is_empty() && k.section != "game")
            .count();
        assert_eq!(listed, checked.len());
        // Each word means what it says, not what its place in the list would.
        let read = |section, key, word: &str| {
            let value = Spanned::new(0..word.len(), word.to_string());
            let mut errors = Vec::new();
            let lone = option::<Lone>(section, key, Some(&value), &mut errors);
            (lone, errors.len())
        };
        assert_eq!(read("moves", "lone_checker", "pin"), (Some(Lone::Pin), 0));
        assert_eq!(
            read("moves", "lone_checker", "blocks"),
            (Some(Lone::Block), 0)
        );
        assert_eq!(read("moves", "lone_checker", "block"), (None, 1));
        let value = Spanned::new(0..11, "odd-or-even".to_string());
        let mut errors = Vec::new();
        // A ritual only sowing games hold is refused here, as the reference says.
        assert_eq!(
            option::<Ritual>("setup", "ritual", Some(&value), &mut errors),
            None
        );
        assert_eq!(errors.len(), 1);
    }
}
