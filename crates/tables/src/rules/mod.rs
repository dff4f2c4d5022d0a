//! The tables rules format, one module per table of a rules file. Each module holds all of its
//! table: the spanned serde struct read from the TOML, its reference entries (keys, defaults,
//! examples, texts), its checks and compilation into the rule the engine plays, and the rule in
//! plain words. Adding an option touches its table's module (and the reference in docs/rules.md, which
//! a test keeps in step).
//!
//! Unknown keys and wrong types are reported by `toml` at their place in the file; a word of
//! an option is read here, by its name, against the words the reference lists. Every problem is
//! a located diagnostic, and every check runs whatever else is wrong. Warnings point at rules
//! that are legal but almost certainly not meant (a condition that never holds, a game worth
//! nothing).

pub(crate) mod board;
pub(crate) mod cube;
pub(crate) mod dice;
pub(crate) mod end;
pub(crate) mod moves;
pub(crate) mod remember;
pub(crate) mod rounds;
pub(crate) mod score;
pub(crate) mod scoring;
pub(crate) mod setup;
pub(crate) mod stacks;
pub(crate) mod win;

pub(crate) use cube::CubeRules;
pub(crate) use rounds::MatchRules;

use super::movegen::MoveRules;
use super::scope::evaluation_scope;
use super::{GameRules, Info, TablesGame};
use ludus_core::diagnostics::Diagnostic;
use ludus_core::expr::{Definitions, Expr, Scope, Type};
use ludus_core::game::{Dice, Ritual};
use ludus_core::limits::LIMITS;
use ludus_core::rules::define::{
    check_definitions, scope_with, warn_unused, DefineTable, DEFINE_SECTION,
};
use ludus_core::rules::reference::{FamilyRef, KeyRef, SectionRef, AI_SECTION, GAME_SECTION};
use ludus_core::rules::{check as check_with, constant_evaluation, expr, GameInfo};
use ludus_core::rules::{Origin, RulesDoc};
use serde::de::value::Error as ValueError;
use serde::de::{DeserializeOwned, IntoDeserializer};
use serde::Deserialize;
use std::fmt::Write;
use std::ops::RangeInclusive;
use std::sync::Arc;
use toml::Spanned;

/// A tables rules file as read: one struct per table.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    pub game: GameInfo,
    #[serde(default)]
    pub board: Option<board::BoardTable>,
    #[serde(default)]
    pub dice: Option<dice::DiceTable>,
    /// Required, except in a file whose `[match] games` names the games (they bring their own).
    #[serde(default)]
    pub setup: Option<setup::SetupTable>,
    #[serde(default)]
    pub moves: moves::MovesTable,
    #[serde(default)]
    pub scoring: Option<scoring::ScoringTable>,
    #[serde(default, rename = "match")]
    pub match_: Option<rounds::MatchTable>,
    #[serde(default)]
    pub cube: Option<cube::CubeTable>,
    #[serde(default)]
    pub win: Vec<win::WinTable>,
    #[serde(default)]
    pub score: Vec<score::ScoreTable>,
    #[serde(default)]
    pub end: Option<end::EndTable>,
    /// `[define]`: names for expressions, used in any expression of the file.
    #[serde(default)]
    pub define: Option<DefineTable>,
    #[serde(default)]
    pub remember: Vec<remember::RememberTable>,
    #[serde(default)]
    pub stacks: Option<stacks::StacksTable>,
    /// `[ai]`: in a file of `[match] games`, for every game of the match.
    #[serde(default)]
    pub ai: Option<TablesAi>,
}

/// `[ai]` of a tables file: the shared `evaluate`, and a learned `network`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TablesAi {
    #[serde(default)]
    pub evaluate: Option<Spanned<String>>,
    #[serde(default)]
    pub network: Option<Spanned<String>>,
}

/// The reference of tables rules files: every table and key, one line, what to write, the
/// default, an example and the full text (the "Keys" table of docs/rules.md says the same; a test keeps
/// the two in step).
pub const REFERENCE: FamilyRef = FamilyRef {
    family: "tables",
    sections: &[
        GAME_SECTION,
        board::SECTION,
        dice::SECTION,
        dice::BONUS_SECTION,
        dice::AFTER_SECTION,
        setup::SECTION,
        moves::SECTION,
        moves::LEAVE_SECTION,
        moves::STEP_SECTION,
        moves::HIT_SECTION,
        moves::STRIKE_SECTION,
        scoring::SECTION,
        win::SECTION,
        score::SECTION,
        remember::SECTION,
        stacks::SECTION,
        end::SECTION,
        rounds::SECTION,
        cube::SECTION,
        DEFINE_SECTION,
        SectionRef {
            keys: AI_KEYS,
            ..AI_SECTION
        },
    ],
    scopes: super::scope_reference,
    groups: &[],
};

const AI_KEYS: &[KeyRef] = &[
    KeyRef {
        section: "ai",
        key: "network",
        line: "the learned evaluation the `net` player plays by",
        expects: "a bundled network's name or a path from this file's folder, in quotes",
        values: &[],
        default: "none",
        example: "network = \"backgammon\"",
        long: "A network made by `ludus train` (a JSON file, read as rules files are) or bundled \
               with Ludus (`backgammon`, `plakoto`, `long-nardy`), whose inputs must be this \
               game's features: the `net` player plays by \
               it (0-ply: the move whose position it values most). `net:FILE` names another. In \
               a file of `[match] games` it serves every game of the match that it fits.",
    },
    KeyRef {
        section: "ai",
        key: "evaluate",
        line: "a position's value for the computer players, from the side of the player valued",
        expects: "an integer expression in quotes, such as `\"mover.off - opponent.off\"`",
        values: &[],
        default: "checkers borne off and pip counts",
        example: "evaluate = \"mover.off - opponent.off\"",
        long: "An integer expression (names `mover.off`, `mover.bar`, `mover.pips`, \
               `mover.home`, `mover.blots` and the same of `opponent`; `mover` is the player the \
               position is valued for) by which `alphabeta` values the positions where its \
               search stops and `mcts` its playouts cut short, instead of the default (checkers \
               borne off, and a tenth of the pip-count difference). A finished game still counts \
               by its result; values beyond ±2500 count as ±2500. No rule of the game: it tunes \
               the computer players without recompiling (\"10 * (mover.off - opponent.off) + \
               opponent.pips - mover.pips - 3 * mover.blots\": safety first). In a file of \
               `[match] games` it serves every game of the match, in place of their own.",
    },
];

/// Compiles a tables rules file: the game, or every error found.
pub fn compile(doc: &RulesDoc) -> Result<TablesGame, Vec<Diagnostic>> {
    ludus_core::diagnostics::game_or_errors(check(doc))
}

/// Checks a tables rules file: the game when it has no error, and every error and warning
/// found, located in the text and annotated from the reference (errors first, each kind in the
/// order of the text).
pub fn check(doc: &RulesDoc) -> (Option<TablesGame>, Vec<Diagnostic>) {
    checked(doc, |cx, rules| build(cx, doc.origin(), rules))
}

/// `doc` read as a tables rules file and checked by `build`: what it built when nothing is
/// wrong, and every diagnostic.
fn checked<T>(
    doc: &RulesDoc,
    build: impl FnOnce(&mut Cx, &Rules) -> Option<T>,
) -> (Option<T>, Vec<Diagnostic>) {
    check_with(
        doc,
        &REFERENCE,
        |repairs, rules: &Rules, errors, warnings| {
            let mut cx = Cx {
                text: repairs.text(doc.text()),
                errors,
                warnings,
                definitions: None,
            };
            let language: Vec<Scope> = super::scope_reference()
                .into_iter()
                .map(|(_, s)| s)
                .collect();
            let names = remember::names(&mut cx, rules.define.as_ref(), &rules.remember);
            cx.definitions =
                check_definitions(cx.text, names.as_ref(), &language, cx.errors, cx.warnings);
            let built = build(&mut cx, rules);
            warn_unused(
                cx.definitions.as_ref(),
                names.as_ref(),
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
    errors: &'a mut Vec<Diagnostic>,
    warnings: &'a mut Vec<Diagnostic>,
    /// `[define]`, once checked.
    definitions: Option<Arc<Definitions>>,
}

impl Cx<'_> {
    /// Compiles an expression of `scope` and type `ty`, the file's definitions written in; an
    /// error is reported and gives `None`.
    fn expression(&mut self, value: &Spanned<String>, scope: &Scope, ty: Type) -> Option<Expr> {
        let defined = scope_with(scope, self.definitions.as_ref());
        expr(self.text, value, defined.as_ref().unwrap_or(scope), ty)
            .map_err(|d| self.errors.push(d))
            .ok()
    }

    /// A word of `[section] key` read as a `T`, or an error naming the words it may be.
    fn option<T: DeserializeOwned>(
        &mut self,
        section: &str,
        key: &str,
        value: Option<&Spanned<String>>,
    ) -> Option<T> {
        let value = value?;
        let typed = listed_word(section, key, value.get_ref());
        if typed.is_none() {
            self.errors
                .push(REFERENCE.unknown_option(section, key, value));
        }
        typed
    }

    /// A whole number of a key (`what` it counts, for the error), checked against `range`;
    /// `default` when the key is absent or out of range.
    fn number(
        &mut self,
        value: Option<&Spanned<i64>>,
        default: i64,
        range: RangeInclusive<i64>,
        what: &str,
    ) -> i64 {
        let Some(v) = value else {
            return default;
        };
        let n = *v.get_ref();
        if range.contains(&n) {
            n
        } else {
            self.errors.push(
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
}

/// `word` as a `T` when the reference lists it for `[section] key`: only the words listed (a
/// type may know more, such as a ritual that only sowing games hold), each read by its name,
/// never by its place in the list.
fn listed_word<T: DeserializeOwned>(section: &str, key: &str, word: &str) -> Option<T> {
    let listed = REFERENCE
        .key(section, key)
        .is_some_and(|k| k.values.contains(&word));
    listed
        .then(|| T::deserialize(IntoDeserializer::<ValueError>::into_deserializer(word)).ok())
        .flatten()
}

/// One game's rules with what the games of a match must share: the dice and the ritual.
struct Played {
    rules: GameRules,
    dice: Dice,
    ritual: Ritual,
}

/// The game of a file: its own, or the games its `[match] games` names (with the file's
/// `[ai] evaluate`, when it gives one, for each); every table checked, compiled when nothing
/// is wrong.
fn build(cx: &mut Cx, origin: &Origin, rules: &Rules) -> Option<TablesGame> {
    let players = rules.game.player_names(["White", "Black"], cx.errors);
    let match_rules = rules.match_.as_ref().and_then(|m| rounds::check(cx, m));
    let cube = (rules.cube.as_ref()).and_then(|c| cube::check(cx, c, rules.match_.is_some()));
    let games = match rules.match_.as_ref().and_then(|m| m.games.as_ref()) {
        Some(games) => {
            let evaluate = evaluation(cx, rules);
            rounds::rotation(cx, origin, games).map(|mut games| {
                if let Some(e) = evaluate {
                    for g in &mut games {
                        g.rules.evaluate = Some(e.clone());
                    }
                }
                games
            })
        }
        None => own_game(cx, rules).map(|g| vec![g]),
    };
    if !cx.errors.is_empty() {
        return None;
    }
    let games = games?;
    let first = games.first()?;
    let (dice, ritual) = (first.dice, first.ritual);
    let mut game = TablesGame {
        info: Box::new(Info {
            name: rules.game.name.get_ref().clone(),
            title: title(rules),
            source: rules.game.source.clone().unwrap_or_default(),
            players,
        }),
        rotation: games.into_iter().map(|g| g.rules).collect(),
        match_rules,
        cube,
        ritual,
        dice,
        max_plies: LIMITS.plies_per_game,
        by_steps: false,
    };
    // Each game of a match plays by its own file's network; the file's own `[ai] network`
    // replaces it in the games it fits.
    let sizes = feature_sizes(&game);
    for (rules, &size) in game.rotation.iter_mut().zip(&sizes) {
        if rules.network.as_ref().is_some_and(|n| n.inputs != size) {
            rules.network = None;
        }
    }
    if let Some(value) = rules.ai.as_ref().and_then(|a| a.network.as_ref()) {
        let net = Arc::new(network(cx, origin, value, &sizes)?);
        for (rules, &size) in game.rotation.iter_mut().zip(&sizes) {
            if size == net.inputs {
                rules.network = Some(net.clone());
            }
        }
    }
    Some(game)
}

/// The features a position of each game of `game` gives a network.
fn feature_sizes(game: &TablesGame) -> Vec<usize> {
    use ludus_core::game::Evaluator;
    (1..=game.rotation.len() as u32)
        .map(|n| {
            let mut x = Vec::new();
            game.features(&game.start_of(n, 0), &mut x);
            x.len()
        })
        .collect()
}

/// `[ai] network`: the network it names, which must fit a game of the file (its inputs as
/// many as the game's features).
fn network(
    cx: &mut Cx,
    origin: &Origin,
    value: &Spanned<String>,
    sizes: &[usize],
) -> Option<ludus_core::net::Net> {
    let net = match ludus_core::net::find(origin, value.get_ref()) {
        Ok(net) => net,
        Err(why) => {
            cx.errors.push(Diagnostic::new(why).at(value.span()));
            return None;
        }
    };
    if !sizes.contains(&net.inputs) {
        cx.errors.push(
            Diagnostic::new(format!(
                "the network reads {} features; this game's positions give {}",
                net.inputs, sizes[0]
            ))
            .at(value.span())
            .note("a network fits the board and rules it was trained for: `ludus train` this file"),
        );
        return None;
    }
    Some(net)
}

/// The file's `[game] title`, or else its name.
fn title(rules: &Rules) -> String {
    rules
        .game
        .title
        .clone()
        .unwrap_or_else(|| rules.game.name.get_ref().clone())
}

/// The game a file's own tables set: board, dice, start, moves, scoring and wins.
fn own_game(cx: &mut Cx, rules: &Rules) -> Option<Played> {
    let mut board = board::check(cx, rules.board.as_ref());
    let mut start = setup::start(cx, rules.setup.as_ref(), &board);
    let dice = dice::check(cx, rules.dice.as_ref(), &board);
    board::fit_pool(cx, rules.board.as_ref(), &mut board, dice.dice.faces);
    let ritual = setup::ritual(cx, rules.setup.as_ref());
    let first_turn_theirs = setup::first_turn_theirs(cx, rules.setup.as_ref());
    let moves = moves::check(cx, &rules.moves, &board);
    let remembered = remember::check(cx, &rules.remember, &board);
    let stacks = stacks::check(cx, rules.stacks.as_ref(), &mut board, start.as_mut());
    if let (Some(_), Some(hit)) = (&stacks, rules.moves.hit.first()) {
        // A checker hit from afar would leave its stack's count behind.
        cx.errors.push(
            Diagnostic::new("a step cannot hit from afar in a game of stacked checkers")
                .at(hit.at.span())
                .note("`[[moves.hit]]` and `[stacks]` do not go together"),
        );
    }
    if let Some(strike) =
        (rules.moves.strike.first()).filter(|_| dice.unplayed_to_opponent || dice.bonus.is_some())
    {
        // A strike `n/n` does not say which die it used.
        cx.errors.push(
            Diagnostic::new("a die cannot strike where dice go to the opponent or a roll gives a bonus")
                .at(strike.at.span())
                .note("`[[moves.strike]]` goes without `[dice] unplayed = \"opponent\"` and `[dice.bonus]`"),
        );
    }
    if let Some(strike) = (rules.moves.strike.first()).filter(|_| dice.wild_doubles) {
        // A wild die's strike would say neither its die nor its number.
        cx.errors.push(
            Diagnostic::new("a die cannot strike where doubles are wild")
                .at(strike.at.span())
                .note("`[[moves.strike]]` goes without `[dice] wild = \"doubles\"`"),
        );
    }
    if let (Some(_), Some(strike)) = (&stacks, rules.moves.strike.first()) {
        // `n/n` turns a stack over there.
        cx.errors.push(
            Diagnostic::new("a die cannot strike in a game of stacked checkers")
                .at(strike.at.span())
                .note("`[[moves.strike]]` and `[stacks]` do not go together"),
        );
    }
    board.hit_to = moves.hit_to;
    let scoring = rules.scoring.as_ref().and_then(|s| scoring::check(cx, s));
    let wins = win::check(cx, &rules.win);
    let score = score::check(cx, &rules.score);
    if let Some(to) =
        (rules.moves.bear_off_to.as_ref()).filter(|_| moves.off_to_pool && wins.is_empty())
    {
        // Nothing stays borne off: bearing off all wins nothing, and the game ends only at the
        // guards.
        cx.warnings.push(
            Diagnostic::warning("no side can win: the checkers borne off go back to the pool")
                .at(to.span())
                .note("with `bear_off_to = \"pool\"` no side ever has all its checkers off: a `[[win]]` rule says who wins"),
        );
    }
    let end = end::check(cx, rules.end.as_ref());
    let evaluate = evaluation(cx, rules);

    if !cx.errors.is_empty() {
        return None;
    }
    let start = start?;
    // Every step from a point is tested (cold) for a stacked checker held back.
    let leave_mask = match stacks {
        Some(_) => moves.leave_mask | board.point_bits(),
        None => moves.leave_mask,
    };
    Some(Played {
        rules: GameRules {
            name: rules.game.name.get_ref().clone(),
            title: title(rules),
            checkers: start.left(0),
            start,
            first_turn_theirs,
            moves: MoveRules {
                board,
                lone: moves.lone,
                leave: moves.leave,
                leave_mask,
                after_step: !moves.step.is_empty()
                    || !moves.hits.is_empty()
                    || !remembered.is_empty()
                    || stacks.is_some(),
                hits: moves.hits,
                strikes: moves.strikes,
                hit_back: moves.hit_back,
                off_to_pool: moves.off_to_pool,
                stacks,
                step: moves.step,
                bear_off: moves.bear_off,
                larger: moves.larger,
                remember: remembered.iter().map(|(_, e)| e.clone()).collect(),
                double_moves: dice.double_moves,
                wild_doubles: dice.wild_doubles,
                only_one: dice.only_one,
                bonus: dice.bonus,
                faces: dice.dice.faces,
            },
            scoring,
            wins,
            score,
            end,
            after: dice.after,
            fixed_die: dice.fixed,
            unplayed_to_opponent: dice.unplayed_to_opponent,
            remembered: remembered.into_iter().map(|(n, _)| n).collect(),
            evaluate,
            network: None,
        },
        dice: dice.dice,
        ritual,
    })
}

/// `[ai] evaluate`, compiled; a measure that reads nothing of the position is warned about.
fn evaluation(cx: &mut Cx, rules: &Rules) -> Option<Expr> {
    let value = rules.ai.as_ref()?.evaluate.as_ref()?;
    let e = cx.expression(value, &evaluation_scope(), Type::Int)?;
    cx.warnings.extend(constant_evaluation(
        &e,
        value,
        "checkers borne off and pip counts",
    ));
    Some(e)
}

/// The rules in plain words: for a match that plays several rules files in turn, each game's
/// rules under the games it is played in.
pub(crate) fn describe(game: &TablesGame) -> String {
    let mut s = String::new();
    // The first line has the shape of every family's (`ludus list` shows it).
    let [white, black] = ludus_core::game::Game::player_names(game);
    let _ = writeln!(s, "{} ({white} vs {black})", game.info.title);
    if !game.info.source.is_empty() {
        let _ = writeln!(s, "{}", game.info.source.trim());
    }
    match game.rotation.as_slice() {
        [one] => s.push_str(&game_rules(game, one)),
        several => rounds::describe_rotation(game, several, &mut s),
    }
    setup::describe_ritual(game.ritual, &mut s);
    if let Some(m) = &game.match_rules {
        m.describe(&mut s);
    }
    if let Some(c) = &game.cube {
        c.describe(&mut s);
    }
    for rules in &game.rotation {
        let Some(net) = &rules.network else { continue };
        let which = match game.rotation.len() {
            1 => String::new(),
            _ => format!(" in {}", rules.title),
        };
        let _ = writeln!(
            s,
            "The `net` player plays{which} by a learned network ([ai] network) of {} hidden units, trained on {} games of `{}`.",
            net.hidden, net.games, net.rules
        );
    }
    s
}

/// One game's rules in plain words: each table says its own.
fn game_rules(game: &TablesGame, rules: &GameRules) -> String {
    let mut s = String::new();
    board::describe(rules, &mut s);
    dice::describe(game.dice, rules, &mut s);
    setup::describe(game, rules, &mut s);
    moves::describe(&rules.moves, &mut s);
    if let Some(st) = &rules.moves.stacks {
        stacks::describe(st, &rules.moves.board, &rules.start, &mut s);
    }
    remember::describe(&rules.remembered, &rules.moves.remember, &mut s);
    dice::describe_play(game.dice, rules, &mut s);
    dice::describe_after(rules, &mut s);
    win::describe(rules, &mut s);
    score::describe(rules, &mut s);
    end::describe(rules, &mut s);
    scoring::describe(rules, &mut s);
    if let Some(e) = &rules.evaluate {
        let _ = writeln!(
            s,
            "The computer players value a position by `{}` ([ai] evaluate), `mover` being the player valued.",
            e.text()
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::dice::BonusThen;
    use super::moves::HitTo;
    use super::*;
    use crate::movegen::OnlyOne;
    use crate::position::{Direction, Lone};
    use ludus_core::game::NextFirst;

    /// Every word the reference lists for `section.key` reads as a value of `T`.
    fn every_word_reads<T: DeserializeOwned>(section: &str, key: &str) -> usize {
        let words = REFERENCE.key(section, key).expect("a key").values;
        for word in words {
            assert!(
                listed_word::<T>(section, key, word).is_some(),
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
            every_word_reads::<HitTo>("moves", "hit_to"),
            every_word_reads::<dice::Unplayed>("dice", "unplayed"),
            every_word_reads::<dice::Wild>("dice", "wild"),
            every_word_reads::<moves::BearOffTo>("moves", "bear_off_to"),
            every_word_reads::<win::Winner>("win", "winner"),
            every_word_reads::<win::Winner>("score", "to"),
            every_word_reads::<setup::FirstTurn>("setup", "first_turn_moves"),
            every_word_reads::<NextFirst>("match", "next_first"),
            every_word_reads::<stacks::Start>("stacks", "start"),
            every_word_reads::<stacks::NamedFrom>("stacks", "named_from"),
            every_word_reads::<crate::movegen::Larger>("moves", "bear_off_larger"),
            every_word_reads::<end::NoMove>("end", "no_move"),
        ];
        // Every key of the family with a list of words is checked above (`[game] family` is
        // read by the registry).
        let listed = REFERENCE
            .all_keys()
            .filter(|k| !k.values.is_empty() && k.section != "game")
            .count();
        assert_eq!(listed, checked.len());
        // Each word means what it says, not what its place in the list would.
        let lone = |word| listed_word::<Lone>("moves", "lone_checker", word);
        assert_eq!(lone("pin"), Some(Lone::Pin));
        assert_eq!(lone("blocks"), Some(Lone::Block));
        assert_eq!(lone("owns"), Some(Lone::Own));
        assert_eq!(lone("block"), None);
        // A ritual only sowing games hold is refused here, as the reference says.
        assert_eq!(
            listed_word::<Ritual>("setup", "ritual", "odd-or-even"),
            None
        );
    }
}
