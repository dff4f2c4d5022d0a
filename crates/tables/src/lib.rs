//! Tables games (the backgammon family): points round a board, dice, bar, pool and bear-off,
//! played from a rules file. One interpreter serves every game; Backgammon, Long Nardy, Plakoto
//! or Acey-deucey differ only in their rules files (the board and its numberings, the dice,
//! start positions, what a lone checker does, conditions on steps, scoring, match target). A
//! match may also play several rules files in turn (Tavli: Portes, Plakoto, Fevga, ...).
//!
//! - `rules/`: one module per table of a rules file (`[board]`, `[dice]`, `[setup]`,
//!   `[moves]`, …), each with its serde struct, reference, checks, compiled rule and plain
//!   words; `rules/mod.rs` builds a [`TablesGame`] from them;
//! - `position.rs`: the board's numberings and the compact [`Position`];
//! - `movegen.rs`: [`TablesMove`], the legal moves: whole turns, or one step at a time where a
//!   turn has too many;
//! - `notation.rs`: positions and moves as written (pest);
//! - `scope.rs`: the names expressions may use;
//! - `state_json.rs`: reading the protocol's STATE;
//! - `render.rs`: the terminal board and its picture.

mod cube;
mod movegen;
mod notation;
mod position;
mod position_id;
mod render;
mod rules;
mod scope;
mod state_json;

pub use movegen::{Played, TablesMove, MAX_STEPS};
pub use position::{Position, BAR, OFF, POOL, SLOTS};

use cube::Cube;
use ludus_core::diagnostics::Diagnostic;
use ludus_core::expr::Expr;
use ludus_core::game::Crawford;
use ludus_core::game::{
    CubeAction, CubeView, Dice, Ending, Evaluator, Game, Guards, Json, MatchStanding, MoveError,
    Notation, Outcome, Phase, Player, Resignation, Ritual, Roll, RollError, StateError, View,
};
use ludus_core::limits::LIMITS;
use ludus_core::rules::RulesDoc;
use movegen::{generate, next_steps, replay, steps_left, MoveRules, OnlyOne, TurnInfo};
use position::{Direction, Key, Lone, Stacked, Turn, MAX_POINTS};
use rules::{CubeRules, MatchRules};
use scope::{AfterView, ScoreView};
use serde_json::{json, Map, Value};

pub use rules::REFERENCE;

/// Compiles a tables rules text.
pub fn compile(doc: &RulesDoc) -> Result<TablesGame, Vec<Diagnostic>> {
    rules::compile(doc)
}

/// Checks a tables rules text: the game when it has no error, and every error and warning.
pub fn check(doc: &RulesDoc) -> (Option<TablesGame>, Vec<Diagnostic>) {
    rules::check(doc)
}

#[derive(Clone, Debug)]
struct Info {
    name: String,
    title: String,
    source: String,
    players: [String; 2],
}

/// Every expression context of the format with its names (`[[moves.leave]] when`,
/// `[moves] bear_off`, `[scoring] points`, `[[score]] when`, `[ai] evaluate`, ...), for
/// references and tools.
pub fn scope_reference() -> Vec<(&'static str, ludus_core::expr::Scope)> {
    vec![
        ("moves.leave.when", scope::step_scope()),
        ("moves.step.when", scope::step_scope()),
        ("moves.bear_off", scope::step_scope()),
        ("moves.hit_back", scope::step_scope()),
        ("moves.hit.at", scope::remember_scope()),
        ("moves.strike.at", scope::step_scope()),
        ("remember.when", scope::remember_scope()),
        ("stacks.unstack", scope::step_scope()),
        ("stacks.restack", scope::step_scope()),
        ("stacks.move", scope::step_scope()),
        ("scoring.points", scope::scoring_scope()),
        ("win.when", scope::step_scope()),
        ("win.points", scope::scoring_scope()),
        ("dice.after.when", scope::after_scope()),
        ("dice.after.double", scope::after_scope()),
        ("score.when", scope::after_scope()),
        ("score.points", scope::after_scope()),
        ("ai.evaluate", scope::evaluation_scope()),
    ]
}

/// The rules one game is played by, from its start position to its end: a rules file's own,
/// or one of the games a match plays in turn.
#[derive(Clone, Debug)]
struct GameRules {
    /// The game's own short name and title (`plakoto`, "Plakoto").
    name: String,
    title: String,
    start: Position,
    /// `[setup] first_turn_moves = "opponent"`: the starter's first turn moves the opponent's
    /// checkers.
    first_turn_theirs: bool,
    /// Checkers a side has (the same for both).
    checkers: u8,
    moves: MoveRules,
    /// Points the winner scores; 1 when the rules say nothing.
    scoring: Option<Expr>,
    /// `[[win]]`: a position that wins for the player who made it, and what that scores.
    wins: Vec<rules::win::WinRule>,
    /// `[[score]]`: points scored during play, after a turn.
    score: Vec<rules::score::ScoreRule>,
    /// `[end]`: the draws, by the rules' ply limit or a deadlock.
    end: rules::end::EndRule,
    /// `[[dice.after]]`: what follows a turn, in order (the first that applies).
    after: Vec<rules::dice::After>,
    /// `[dice] fixed`: a die that shows this number at every throw, beside those thrown.
    fixed_die: Option<u8>,
    /// The names of the `[[remember]]` tables, in order (their conditions are the moves').
    remembered: Vec<String>,
    /// `[dice] unplayed = "opponent"`: the dice a turn could not play go to the opponent.
    unplayed_to_opponent: bool,
    /// `[ai] evaluate`: the author's value of a position for the search players.
    evaluate: Option<Expr>,
    /// `[ai] network`: the learned evaluation the `net` player plays this game by.
    network: Option<std::sync::Arc<ludus_core::net::Net>>,
}

/// A compiled tables game.
#[derive(Clone, Debug)]
pub struct TablesGame {
    /// Names and texts, boxed: rarely read, kept out of the way of the rules used in play.
    info: Box<Info>,
    /// The games played in turn: game n of a match by `rotation[(n - 1) % len]`. A single one
    /// unless `[match] games` names several, so the state's game number says which applies.
    rotation: Vec<GameRules>,
    match_rules: Option<MatchRules>,
    /// `[cube]`: the doubling cube, for every game of a match.
    cube: Option<CubeRules>,
    ritual: Ritual,
    /// The dice thrown each turn.
    dice: Dice,
    /// A game still going after this many turns is drawn (the ply guard, or `--max-plies`).
    max_plies: u32,
    /// Every turn is played one step at a time, not only those with too many moves.
    by_steps: bool,
}

/// A position's IDs (see [`TablesGame::ids`]).
struct Ids {
    position: String,
    match_id: String,
    xgid: Option<String>,
}

/// How a game lost by a player who could play no die is told (`[end] no_move = "loses"`).
const NO_MOVE: &str = "the opponent could play no die";

/// How a game ended by points scored during play reaching the match's target is told.
const REACHED: &str = "reached the match's target by points scored during play";

/// What follows a turn when the same player goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Next {
    /// The same player rolls again.
    Roll,
    /// The same player plays this double, without rolling.
    Double(u8),
    /// The same player plays the same dice again, without rolling.
    Repeat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Stage {
    Roll,
    Move,
    Over,
    /// The player to roll decides whether to double first (`[cube]`).
    Cube,
    /// The player to move answers the opponent's double.
    Answer,
}

/// A position with whose turn it is, the dice, and the match so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TablesState {
    pos: Position,
    to_move: u8,
    stage: Stage,
    /// The dice to play (the first `ndice`), all 0 unless a move is awaited: those thrown (and
    /// the fixed die), or up to four the opponent could not play (`given`).
    dice: [u8; 4],
    ndice: u8,
    /// The steps of a turn played one step at a time, so far (none between turns).
    played: Played,
    /// Bit p: player p has moved in this game.
    moved: u8,
    /// Turns played in this game.
    plies: u32,
    /// Turns in a row that were passes (`[end] passes`).
    passes: u16,
    /// Turns in a row, up to this one, whose dice a `[[dice.after]]` rule gave (0: rolled).
    follow: u8,
    /// Where the rules have `[[dice.after]]` tables: the first die thrown of the turn that began
    /// this run of turns (0 between turns).
    first: u8,
    /// The dice are those the opponent could not play (`[dice] unplayed = "opponent"`), played
    /// as they are, before this player's own throw.
    given: bool,
    /// The dice a `[[dice.after]]` rule gave may be played in part or not at all.
    optional: bool,
    /// Who moved first in this game.
    starter: u8,
    /// Once over: the winner (none when the ply guard ended the game) and the points scored.
    winner: Option<u8>,
    score: i32,
    /// 1-based game of the match (which also says which rules of a rotation apply) and the
    /// points so far (this game's included once over).
    game: u32,
    points: [i32; 2],
    /// The doubling cube (at 1 in the middle in games without one).
    cube: Cube,
    /// Where this game of a match stands towards the Crawford rule.
    crawford: Crawford,
    /// The game ended by a double declined.
    declined: bool,
    /// The game ended by the loser's resignation, conceding this much.
    resigned: Option<Resignation>,
    /// The game ended because the loser could play no die of a throw (`[end] no_move`).
    stalled: bool,
    /// The game ended because points scored during play reached the match's target.
    reached: bool,
    /// Points each player scored during play in this game (`[[score]]`).
    scored: [u16; 2],
}

impl TablesState {
    pub fn position(&self) -> &Position {
        &self.pos
    }
    /// Whether the dice to play are those the opponent could not play, played as they are.
    pub fn dice_given(&self) -> bool {
        self.given
    }
    /// The dice to play, `None` unless a move is awaited.
    pub fn dice(&self) -> Option<&[u8]> {
        (self.stage == Stage::Move).then(|| &self.dice[..usize::from(self.ndice)])
    }
    /// The steps played so far of a turn played one step at a time.
    pub fn played(&self) -> &Played {
        &self.played
    }
}

impl GameRules {
    /// Whether this game is backgammon on the board (the dice aside): else the first
    /// difference, in words.
    fn as_backgammon(&self) -> Result<(), String> {
        let m = &self.moves;
        let mut start = Position::default();
        for side in &mut start.sides {
            for (point, n) in [(24, 2), (13, 5), (8, 3), (6, 5)] {
                side[point] = n;
            }
        }
        let why = if m.board.points != 24 {
            format!("it is played on {} points, not 24", m.board.points)
        } else if m.board.direction == Direction::Same {
            "both sides move the same way round the board".into()
        } else if m.board.direction == Direction::Shared {
            "both sides move along one path".into()
        } else if m.board.home != 6 {
            format!("its home table has {} points, not 6", m.board.home)
        } else if self.checkers != 15 {
            format!("it has {} checkers a side, not 15", self.checkers)
        } else if m.lone == Lone::Pin {
            "a lone checker is pinned, not hit to the bar".into()
        } else if m.lone == Lone::Block {
            "a lone checker blocks the point, and no checker is hit".into()
        } else if m.lone == Lone::Own {
            "only a lone checker blocks its point, and no checker is hit".into()
        } else if self.start != start {
            "its checkers do not start where backgammon's do (24:2 13:5 8:3 6:5)".into()
        } else if m.board.hit_to != BAR {
            "a hit checker goes off the board, not to the bar".into()
        } else if m.double_moves == 0 {
            "a double gives as many moves as its number, not 4".into()
        } else if m.double_moves != 4 {
            format!("a double gives {} moves, not 4", m.double_moves)
        } else if m.only_one != OnlyOne::Larger {
            "when only one die can be played, it need not be the larger".into()
        } else if let Some(bonus) = &m.bonus {
            format!(
                "a roll of {}-{} gives more than its dice",
                bonus.roll[0], bonus.roll[1]
            )
        } else if m.bear_off.is_some() {
            "its [moves] bear_off rule says when a checker may be borne off".into()
        } else if !m.leave.is_empty() || !m.step.is_empty() {
            "its [[moves.leave]] or [[moves.step]] rules forbid moves backgammon allows".into()
        } else if !self.wins.is_empty() {
            "a [[win]] rule ends games that backgammon plays on".into()
        } else if !m.hits.is_empty() || !m.strikes.is_empty() || m.hit_back.is_some() {
            "its checkers are hit from afar or by a die alone, or put back when hit".into()
        } else if m.stacks.is_some() {
            "its checkers stand stacked".into()
        } else if m.wild_doubles {
            "a double's moves count as any number".into()
        } else if m.off_to_pool {
            "its checkers borne off enter again".into()
        } else if m.larger != movegen::Larger::Farthest {
            "a larger die bears off otherwise than from the farthest point".into()
        } else if !self.after.is_empty() || self.fixed_die.is_some() || self.unplayed_to_opponent {
            "its dice give more turns or dice than backgammon's, or pass to the opponent".into()
        } else if self.first_turn_theirs {
            "its first turn moves the opponent's checkers".into()
        } else if !self.score.is_empty() {
            "its [[score]] rules score points during play".into()
        } else if self.end.max_plies.is_some()
            || self.end.passes.is_some()
            || self.end.no_move_loses
        {
            "its [end] rules end games that backgammon plays on".into()
        } else {
            return Ok(());
        };
        Err(why)
    }

    /// Whether checkers may wait off the board in a pool (the start puts some there).
    /// Whether GNU Backgammon's position IDs describe this game's positions: the standard
    /// board of 24 points, the sides moving towards each other, hits to the bar, no pool.
    fn has_position_ids(&self) -> bool {
        let board = &self.moves.board;
        board.points == 24
            && board.direction == Direction::Opposite
            && self.moves.lone == Lone::Hit
            && !self.uses_pool()
            && self.moves.stacks.is_none()
    }

    fn uses_pool(&self) -> bool {
        self.moves.board.hit_to == POOL
            || self.moves.off_to_pool
            || self.start.sides.iter().any(|s| s[POOL] > 0)
    }

    /// Whether the players have passed as many turns in a row as `[end] passes` draws at.
    fn deadlocked(&self, state: &TablesState) -> bool {
        self.end.passes.is_some_and(|n| state.passes >= n)
    }

    /// The most a game scores at the cube's 1: every scoring expression valued with the
    /// loser's checkers all in one place (a point, the bar, the pool or off), all pinned or
    /// none. An expression of the loser's counts that grows with them, or linear in them (as
    /// every bundled game's), is largest at one of these.
    fn max_points(&self) -> i32 {
        let places = (0..=self.moves.board.points).chain([BAR, POOL]);
        let sides = places.map(|place| {
            let mut side = [0; position::SLOTS];
            side[place] = self.checkers;
            side
        });
        let points = self.wins.iter().filter_map(|w| w.points.as_ref());
        let exprs: Vec<&Expr> = points.chain(self.scoring.as_ref()).collect();
        let mut most = i32::from(self.scoring.is_none());
        for side in sides {
            for pins in [0, u64::MAX >> (64 - u32::from(self.checkers).clamp(1, 64))] {
                let view = ScoreView {
                    loser: &side,
                    loser_pins: pins,
                    board: &self.moves.board,
                };
                for e in &exprs {
                    most = most.max(e.eval(&view).clamp(0, 1_000_000));
                }
            }
        }
        most
    }

    /// The side whose checkers the turn of `state` moves: the player's own, but in the first
    /// turn of a game whose starter plays the opponent's (`[setup] first_turn_moves`).
    fn side(&self, state: &TablesState) -> usize {
        usize::from(state.to_move) ^ usize::from(self.first_turn_theirs && state.plies == 0)
    }

    /// What the winner of `pos` scores.
    fn score(&self, pos: &Position, winner: usize) -> i32 {
        let view = ScoreView {
            loser: &pos.sides[1 - winner],
            loser_pins: pos.pinned[1 - winner],
            board: &self.moves.board,
        };
        self.scoring
            .as_ref()
            .map_or(1, |e| e.eval(&view).clamp(0, 1_000_000))
    }

    /// The dice a turn plays: those thrown, and the fixed die.
    fn dice_played(&self, dice: Dice) -> u8 {
        dice.count + u8::from(self.fixed_die.is_some())
    }

    /// What follows a turn by the `[[dice.after]]` rules: the first that applies, and whether
    /// the dice it gives may be played in part or not at all.
    fn after(&self, turn: &AfterView) -> Option<(Next, bool)> {
        let rule = self.after.iter().find(|a| a.when.test(turn))?;
        let next = match &rule.then {
            rules::dice::Then::Again => Some(Next::Roll),
            rules::dice::Then::Repeat => Some(Next::Repeat),
            rules::dice::Then::Nothing => None,
            rules::dice::Then::Double(e) => {
                // A double the dice cannot show gives nothing.
                let d = e.eval(turn);
                (1..=i32::from(self.moves.faces))
                    .contains(&d)
                    .then_some(Next::Double(d as u8))
            }
        };
        next.map(|n| (n, rule.optional))
    }

    /// The `[[win]]` rule the mover's last turn met, if any: who wins (the mover, or the
    /// opponent) and what that scores.
    fn won_by_rule(&self, pos: &Position, scored: [u16; 2], mover: usize) -> Option<(usize, i32)> {
        let rule = self.win_rule_met(pos, scored, mover)?;
        let winner = if rule.opponent { 1 - mover } else { mover };
        Some(match &rule.points {
            Some(p) => {
                let view = ScoreView {
                    loser: &pos.sides[1 - winner],
                    loser_pins: pos.pinned[1 - winner],
                    board: &self.moves.board,
                };
                (winner, p.eval(&view).clamp(0, 1_000_000))
            }
            None => (winner, self.score(pos, winner)),
        })
    }

    /// The first `[[win]]` rule that `pos` (with `scored`, the points scored during play) meets
    /// after a turn of `mover`.
    fn win_rule_met(
        &self,
        pos: &Position,
        scored: [u16; 2],
        mover: usize,
    ) -> Option<&rules::win::WinRule> {
        if self.wins.is_empty() {
            return None;
        }
        self.between_turns(pos, scored, mover, |view| {
            self.wins.iter().find(|r| r.when.test(view))
        })
    }

    /// `f` of `pos` (with `scored`, the points scored during play) seen from `side`, as it
    /// stands between turns: no step, no dice.
    fn between_turns<R>(
        &self,
        pos: &Position,
        scored: [u16; 2],
        side: usize,
        f: impl FnOnce(&scope::StepView) -> R,
    ) -> R {
        let turn = pos.turn(side);
        let info = TurnInfo {
            roll: &[],
            first_turn: false,
            mover: side as u8,
            given: false,
            follow: 0,
            optional: false,
            scored,
        };
        f(&scope::StepView {
            turn: &turn,
            stacked: pos.stacked[side],
            board: &self.moves.board,
            lone: self.moves.lone,
            die: 0,
            from: 0,
            to: 0,
            lands: false,
            earlier: &[],
            info: &info,
        })
    }

    /// How a `[[win]]` rule ended a game won by `winner`, in words: the rule's `said`, else
    /// its condition.
    fn win_said(&self, pos: &Position, scored: [u16; 2], winner: usize) -> String {
        let rule = [winner, 1 - winner].into_iter().find_map(|mover| {
            let rule = self.win_rule_met(pos, scored, mover)?;
            (rule.opponent == (mover != winner)).then_some(rule)
        });
        match rule {
            Some(r) => r
                .said
                .clone()
                .unwrap_or_else(|| format!("`{}` held", r.when.text())),
            None => "won by a rule of the game".into(),
        }
    }

    /// How the mover's last turn ended the game, if it did: a `[[win]]` rule first, then
    /// every checker borne off. Who wins, and what that scores.
    fn ended_by(&self, pos: &Position, scored: [u16; 2], mover: usize) -> Option<(usize, i32)> {
        self.won_by_rule(pos, scored, mover).or_else(|| {
            // The mover first: a turn may bear off its last checker; checkers hit out of the
            // game (`hit_to = "out"`) may leave the opponent none.
            [mover, 1 - mover]
                .into_iter()
                .find(|&p| pos.sides[p][OFF] == self.checkers)
                .map(|p| (p, self.score(pos, p)))
        })
    }
}

impl TablesGame {
    /// The most points a board has and the most single-die steps a move takes (one when every
    /// turn is played a step at a time), over the games of a match: what a fixed numbering of
    /// every move needs (the Python package's actions).
    pub fn move_bounds(&self) -> (usize, usize) {
        let bounds = self.rotation.iter().map(|r| {
            let steps = match self.by_steps {
                true => 1,
                false => r.moves.max_steps(r.dice_played(self.dice)),
            };
            (r.moves.board.points, steps)
        });
        bounds.fold((0, 0), |(p, s), (q, t)| (p.max(q), s.max(t)))
    }

    /// The most one game scores, the cube at its highest: what bounds a game's points for
    /// tools that need a bound (the Python package's returns by points). See
    /// [`GameRules::max_points`].
    pub fn max_score(&self) -> i32 {
        let cube = self.cube.as_ref().map_or(1, |c| 1i32 << c.max_log);
        let most = self.rotation.iter().map(GameRules::max_points).max();
        // Points scored during play (`[[score]]`) are kept to this much a player.
        let during_play = match self.rotation.iter().any(|r| !r.score.is_empty()) {
            true => i32::from(u16::MAX),
            false => 0,
        };
        most.unwrap_or(1).saturating_mul(cube) + during_play
    }

    /// Whether the rules have a doubling cube (`[cube]`), whose decisions are moves.
    pub fn has_cube(&self) -> bool {
        self.cube.is_some()
    }

    /// Whether a step may move nothing, `n/n`: a die turning stacked checkers over
    /// (`[stacks]`) or striking (`[[moves.strike]]`).
    pub fn has_still_steps(&self) -> bool {
        (self.rotation.iter()).any(|r| r.moves.stacks.is_some() || !r.moves.strikes.is_empty())
    }

    /// Whether two legal moves may hold the same steps in another order (rules that remember
    /// what a step did, or stack checkers): then a move is its steps in order.
    pub fn steps_in_order(&self) -> bool {
        (self.rotation.iter()).any(|r| r.moves.steps_matter())
    }

    /// Plays every turn one step at a time (each decision one die played by one checker), or
    /// only those with too many whole-turn moves to list (the default).
    pub fn set_by_steps(&mut self, on: bool) {
        self.by_steps = on;
    }

    /// Whether every turn is played one step at a time.
    pub fn by_steps(&self) -> bool {
        self.by_steps
    }

    /// The most decisions one turn takes: one, or its most steps when played a step at a time.
    pub fn max_turn_decisions(&self) -> usize {
        let most = self
            .rotation
            .iter()
            .map(|r| r.moves.max_steps(r.dice_played(self.dice)));
        if self.by_steps {
            most.max().unwrap_or(1)
        } else {
            1
        }
    }

    /// The rules of game `n` (from 1) of a match: the rotation's games in turn.
    fn rules_of(&self, n: u32) -> &GameRules {
        &self.rotation[n.saturating_sub(1) as usize % self.rotation.len()]
    }

    /// The rules of the game `state` is in.
    fn rules(&self, state: &TablesState) -> &GameRules {
        self.rules_of(state.game)
    }

    /// The start of game `n` of a match, with `first` to roll and no points yet.
    fn start_of(&self, n: u32, first: Player) -> TablesState {
        TablesState {
            pos: self.rules_of(n).start,
            to_move: first as u8,
            stage: Stage::Roll,
            dice: [0; 4],
            ndice: 0,
            played: Played::default(),
            moved: 0,
            plies: 0,
            passes: 0,
            follow: 0,
            first: 0,
            given: false,
            optional: false,
            starter: first as u8,
            winner: None,
            score: 0,
            game: n,
            points: [0; 2],
            cube: Cube::default(),
            crawford: Crawford::Before,
            declined: false,
            resigned: None,
            stalled: false,
            reached: false,
            scored: [0; 2],
        }
    }

    /// Ends the game if the mover has borne off every checker or met a `[[win]]` rule, or
    /// drawn at the ply guard.
    fn check_over(&self, state: &mut TablesState, mover: usize) {
        let rules = self.rules(state);
        if let Some((winner, score)) = rules.ended_by(&state.pos, state.scored, mover) {
            self.won(state, winner, score);
        } else if state.plies >= self.ply_limit(rules) || rules.deadlocked(state) {
            state.stage = Stage::Over;
            // `to_move` means nothing once over; fixed so that equal games compare equal.
            state.to_move = 0;
            state.winner = None;
            state.score = 0;
        }
    }

    /// Keeps the first of the moves that leave the same position once hit checkers are put
    /// back (`[moves] hit_back`): moves hitting different checkers may end alike.
    #[cold]
    fn one_move_a_position(&self, state: &TablesState, moves: &mut Vec<TablesMove>) {
        let mut seen = std::collections::HashSet::new();
        moves.retain(|mv| {
            let mut after = *state;
            self.play(&mut after, mv);
            seen.insert(after.pos)
        });
    }

    /// Puts the checkers `mover` hit to the bar back on their owner's point `back` says
    /// (`[moves] hit_back`), one at a time; one with no such point stays on the bar.
    #[cold]
    fn put_back(&self, state: &mut TablesState, mover: usize, back: &Expr) {
        let owner = 1 - mover;
        let rules = self.rules(state);
        let board = &rules.moves.board;
        while state.pos.sides[owner][BAR] > 0 {
            let at = rules.between_turns(&state.pos, state.scored, owner, |view| {
                let n = usize::try_from(back.eval(view)).ok()?;
                let free = (1..=board.points).contains(&n) && view.turn.opp[board.across(n)] == 0;
                free.then_some(n)
            });
            let Some(n) = at else { break };
            state.pos.sides[owner][BAR] -= 1;
            state.pos.sides[owner][n] += 1;
        }
    }

    /// Ends the game lost by `mover`, who could play no die of the throw (`[end] no_move =
    /// "loses"`): the opponent scores as a winner by bearing off would.
    fn stall(&self, state: &mut TablesState, mover: usize) {
        let winner = 1 - mover;
        state.stalled = true;
        self.won(state, winner, self.rules(state).score(&state.pos, winner));
    }

    /// Ends the game won by `winner`, scoring `score` at the stakes (towards the match too).
    fn won(&self, state: &mut TablesState, winner: usize, score: i32) {
        state.stage = Stage::Over;
        // `to_move` means nothing once over; fixed so that equal games compare equal.
        state.to_move = winner as u8;
        state.winner = Some(winner as u8);
        state.score = self.staked(state, score);
        if self.match_rules.is_some() {
            state.points[winner] = state.points[winner].saturating_add(state.score);
        }
    }

    /// The turns after which a game of `rules` is drawn: the rules' own limit unless
    /// `--max-plies` set one, and the ply guard at the latest.
    fn ply_limit(&self, rules: &GameRules) -> u32 {
        rules
            .end
            .max_plies
            .map_or(self.max_plies, |n| n.min(self.max_plies))
    }

    /// The position's IDs, where the rules' board has them and the game runs: GNU
    /// Backgammon's position ID and match ID, and eXtreme Gammon's XGID (before the roll, or
    /// with a whole throw to play).
    fn ids(&self, state: &TablesState) -> Option<Ids> {
        if !self.rules(state).has_position_ids() || state.stage == Stage::Over {
            return None;
        }
        // While a double is answered, the doubler is the player on roll.
        let answering = state.stage == Stage::Answer;
        let mover = usize::from(state.to_move ^ u8::from(answering));
        let sides = &state.pos.sides;
        let dice = match state.dice() {
            Some(&[a, b]) if state.played.len == 0 && !state.given => Some([a, b]),
            _ => None,
        };
        let stakes = self.stakes(state);
        let xgid = (matches!(state.stage, Stage::Roll | Stage::Cube) || dice.is_some())
            .then(|| position_id::xgid(sides, mover, dice, &stakes))
            .flatten();
        let match_id = position_id::match_id(&position_id::MatchState {
            stakes,
            on_roll: mover,
            turn: usize::from(state.to_move),
            doubled: answering,
            dice: (state.stage == Stage::Move).then_some([state.dice[0], state.dice[1]]),
            game_state: 1,
        });
        Some(Ids {
            position: position_id::position_id(sides, mover)?,
            match_id,
            xgid,
        })
    }

    /// What an XGID says of `state` beside the board: the cube, the match score and length,
    /// the Crawford game or the money-play rules.
    fn stakes(&self, state: &TablesState) -> position_id::Stakes {
        let mut stakes = position_id::Stakes::default();
        if let Some(m) = &self.match_rules {
            stakes.scores = state.points;
            stakes.length = m.target;
        }
        if let Some(c) = &self.cube {
            stakes.cube = state.cube.log;
            stakes.owner = state.cube.owner();
            stakes.max_cube = c.max_log;
            stakes.flag = match self.match_rules {
                Some(_) => u8::from(state.crawford == Crawford::Now),
                None => u8::from(c.jacoby) + 2 * u8::from(c.beavers),
            };
        }
        stakes
    }

    /// Whether moves show each step as played, in order: where the rules remember what a step
    /// did or hit from afar, two moves to the same position may differ by the points they
    /// passed, or their order.
    fn every_landing(&self, state: &TablesState) -> bool {
        self.rules(state).moves.played_by_steps()
    }

    /// Each step of `mv` with whether it hits or pins.
    fn steps_with_hits(&self, state: &TablesState, mv: &TablesMove) -> Vec<([u8; 2], bool)> {
        let moves = &self.rules(state).moves;
        let info = self.turn_info(state);
        let side = self.rules(state).side(state);
        let (_, _, lands) = replay(moves, &state.pos, side, mv, &info);
        mv.steps().iter().copied().zip(lands).collect()
    }

    /// The one `[[moves.leave]]` or `[[moves.step]]` rule that alone keeps the mover from
    /// reaching `want` (their side after a typed move) with these dice, in words; found by
    /// generating the moves without each rule in turn.
    fn forbidding_rule(&self, state: &TablesState, want: &Key) -> Option<String> {
        let rules = &self.rules(state).moves;
        let mover = self.rules(state).side(state);
        let reaches = |relaxed: &MoveRules| {
            let mut moves = Vec::new();
            generate(
                relaxed,
                &state.pos,
                mover,
                &self.turn_info(state),
                &mut moves,
            );
            moves.iter().any(|m| {
                let info = self.turn_info(state);
                replay(relaxed, &state.pos, mover, m, &info).1.counts_only() == *want
            })
        };
        if reaches(rules) {
            // The side is reached as the rules stand (checkers turned over leave the counts as
            // they were): no rule alone forbids the typed move.
            return None;
        }
        let mut found = Vec::new();
        for i in 0..rules.leave.len() {
            let mut relaxed = rules.clone();
            let rule = relaxed.leave.remove(i);
            relaxed.leave_mask = relaxed.leave.iter().fold(0, |m, r| m | 1 << r.point);
            if reaches(&relaxed) {
                found.push(format!(
                    "a checker may leave point {} only when `{}` (tested die by die)",
                    rule.point,
                    rule.when.text()
                ));
            }
        }
        for i in 0..rules.step.len() {
            let mut relaxed = rules.clone();
            let rule = relaxed.step.remove(i);
            if reaches(&relaxed) {
                found.push(format!(
                    "every step must leave `{}` true (tested die by die)",
                    rule.text()
                ));
            }
        }
        match found.as_slice() {
            [one] => Some(one.clone()),
            _ => None,
        }
    }

    fn turn_info<'a>(&self, state: &'a TablesState) -> TurnInfo<'a> {
        TurnInfo {
            roll: &state.dice[..usize::from(state.ndice)],
            first_turn: state.moved & (1 << state.to_move) == 0,
            mover: self.rules(state).side(state) as u8,
            given: state.given,
            follow: state.follow,
            optional: state.optional,
            scored: state.scored,
        }
    }

    /// `None` without a match; else whether it is decided: by the target, or, once the match
    /// guard's last game is over, by the points (a draw when level).
    fn match_over(&self, state: &TablesState) -> Option<Option<Option<Player>>> {
        let m = self.match_rules.as_ref()?;
        let points = state.points;
        if let Some(p) = (0..2).find(|&p| points[p] >= m.target) {
            return Some(Some(Some(p)));
        }
        if state.stage == Stage::Over && state.game >= LIMITS.games_per_match {
            let leader = match points[0].cmp(&points[1]) {
                std::cmp::Ordering::Greater => Some(0),
                std::cmp::Ordering::Less => Some(1),
                std::cmp::Ordering::Equal => None,
            };
            return Some(Some(leader));
        }
        Some(None)
    }
}

/// The dice to play as players say them, the highest first: `6-1`, and the steps played so far of a turn played
/// one step at a time: `2-2 (played 13/11 13/11)`.
fn dice_text(state: &TablesState) -> String {
    let mut dice = state.dice().unwrap_or(&[]).to_vec();
    dice.sort_unstable_by(|a, b| b.cmp(a));
    let d: Vec<String> = dice.iter().map(u8::to_string).collect();
    let played = state.played.steps();
    if played.is_empty() {
        return d.join("-");
    }
    let steps: Vec<([u8; 2], bool)> = played.iter().map(|&s| (s, false)).collect();
    format!(
        "{} (played {})",
        d.join("-"),
        notation::format_move(&steps, false)
    )
}

/// The double the mover chose after a bonus roll (`[dice.bonus] then = "any-double"`): the die
/// of the turn's third step, or 0. A step bearing off may have used a larger die than its
/// distance: when every step of the double bore off, the smallest double that could have.
fn chosen_double(rules: &MoveRules, roll: &[u8], mv: &TablesMove, by_steps: Option<&Played>) -> u8 {
    if !rules.bonus_for(roll).is_some_and(|b| b.any_double) {
        return 0;
    }
    if let Some(p) = by_steps {
        return p.dice().get(2).copied().unwrap_or(0);
    }
    let double = mv.steps().get(2..).unwrap_or(&[]);
    let length = |s: &[u8; 2]| rules.board.step_length(*s);
    match double.iter().find(|s| usize::from(s[1]) != OFF) {
        Some(s) => length(s),
        None => double.iter().map(length).max().unwrap_or(0),
    }
}

fn place_json(n: u8) -> Value {
    match usize::from(n) {
        BAR => json!("bar"),
        POOL => json!("pool"),
        OFF => json!("off"),
        n => json!(n),
    }
}

impl Game for TablesGame {
    type State = TablesState;
    type Move = TablesMove;

    fn name(&self) -> &str {
        &self.info.name
    }
    fn player_names(&self) -> [&str; 2] {
        [&self.info.players[0], &self.info.players[1]]
    }

    fn new_game(&self, first: Player) -> TablesState {
        self.start_of(1, first)
    }

    fn next_game(&self, state: &TablesState, first: Player) -> Option<TablesState> {
        self.match_rules.as_ref()?;
        if state.stage != Stage::Over || self.match_over(state)?.is_some() {
            return None;
        }
        Some(TablesState {
            points: state.points,
            crawford: self.next_crawford(state),
            ..self.start_of(state.game + 1, first)
        })
    }

    fn next_starter(&self, state: &TablesState) -> Option<Player> {
        let m = self.match_rules.as_ref()?;
        if state.stage != Stage::Over || self.match_over(state)?.is_some() {
            return None;
        }
        let starter = usize::from(state.starter);
        m.next_first
            .starter(self.ritual, state.winner.map(usize::from), starter)
    }

    fn match_standing(&self, state: &TablesState) -> Option<MatchStanding> {
        let decided = self.match_over(state)?;
        Some(MatchStanding {
            game: state.game,
            points: state.points,
            over: decided.is_some(),
            winner: decided.flatten(),
            target: self.match_rules.as_ref().map(|m| m.target),
        })
    }

    fn plies(&self, state: &TablesState) -> u32 {
        state.plies
    }

    fn starter(&self, state: &TablesState) -> Player {
        usize::from(state.starter)
    }

    fn phase(&self, state: &TablesState) -> Phase {
        let p = usize::from(state.to_move);
        match state.stage {
            Stage::Roll => Phase::Roll(p),
            Stage::Move | Stage::Cube | Stage::Answer => Phase::Move(p),
            Stage::Over => Phase::Over,
        }
    }

    fn outcome(&self, state: &TablesState) -> Option<Outcome> {
        // Points scored during play count for their player, whoever wins.
        let scored = state.scored.map(i32::from);
        (state.stage == Stage::Over).then(|| match state.winner {
            Some(w)
                if state.declined || state.resigned.is_some() || state.stalled || state.reached =>
            {
                let mut scores = scored;
                scores[usize::from(w)] += state.score;
                let (reason, ending) = match state.resigned {
                    Some(r) => (r.reason(), Ending::Resigned),
                    None if state.stalled => (NO_MOVE, Ending::NoMove),
                    None if state.reached => (REACHED, Ending::Score),
                    None => ("double declined", Ending::Declined),
                };
                Outcome {
                    winner: Some(usize::from(w)),
                    scores,
                    reason: reason.into(),
                    ending,
                }
            }
            Some(w) => {
                let mut scores = scored;
                scores[usize::from(w)] += state.score;
                let borne_off = state.pos.sides[usize::from(w)][OFF] == self.rules(state).checkers;
                Outcome {
                    winner: Some(usize::from(w)),
                    scores,
                    reason: if borne_off {
                        "borne off".to_string()
                    } else {
                        (self.rules(state)).win_said(&state.pos, state.scored, usize::from(w))
                    },
                    ending: if borne_off {
                        Ending::BorneOff
                    } else {
                        Ending::WinRule
                    },
                }
            }
            None if self.rules(state).deadlocked(state) => Outcome {
                winner: None,
                scores: scored,
                reason: format!("drawn: {} passes in a row", state.passes),
                ending: Ending::NoMove,
            },
            None => Outcome {
                winner: None,
                scores: scored,
                reason: format!(
                    "drawn at the {}-ply limit",
                    self.ply_limit(self.rules(state))
                ),
                ending: Ending::PlyLimit,
            },
        })
    }

    fn legal_moves(&self, state: &TablesState, out: &mut Vec<TablesMove>) {
        if state.stage != Stage::Move {
            out.clear();
            self.cube_moves(state, out);
            return;
        }
        let game_rules = self.rules(state);
        let (rules, mover) = (&game_rules.moves, game_rules.side(state));
        let info = self.turn_info(state);
        // A turn is listed whole unless it has too many moves; then, and once a step of it is
        // played, it is played one step at a time.
        if self.by_steps || state.played.len > 0 || !generate(rules, &state.pos, mover, &info, out)
        {
            next_steps(rules, &state.pos, mover, &info, &state.played, out);
        } else if rules.hit_back.is_some() {
            self.one_move_a_position(state, out);
        }
    }

    fn play(&self, state: &mut TablesState, mv: &TablesMove) {
        if let Some(action) = mv.cube_action() {
            return self.play_cube(state, action);
        }
        assert_eq!(state.stage, Stage::Move, "play: no move is awaited");
        let given = state.given;
        let game_rules = self.rules(state);
        let mover = game_rules.side(state);
        let rules = &game_rules.moves;
        let mut turn = state.pos.turn(mover);
        if !rules.played_by_steps() {
            for &[from, to] in mv.steps() {
                let (from, to) = (usize::from(from), usize::from(to));
                let lands = to != OFF && turn.landing(&rules.board, rules.lone, to) == Some(true);
                turn.step(&rules.board, rules.lone, from, to, lands);
            }
        } else {
            // Only these games remember, stack or hit from afar: the others never touch the
            // stacks.
            let mut stacked = Stacked::of(&state.pos, mover);
            self.step_by_step(state, mv, &mut turn, &mut stacked);
            stacked.put(&mut state.pos, mover);
        }
        state.pos.set_turn(mover, &turn);
        if let Some(die) = mv.die() {
            state.played.push(mv.steps()[0], die);
            let info = self.turn_info(state);
            if steps_left(rules, &state.pos, mover, &info, &state.played) > 0 {
                return;
            }
        }
        // The rules that give the mover more, or the opponent the dice left: none in most games.
        let plain = !state.given
            && rules.bonus.is_none()
            && game_rules.after.is_empty()
            && !game_rules.unplayed_to_opponent;
        let follows = match plain {
            true => Follows::default(),
            false => self.what_follows(state, mv),
        };
        let gains = (!game_rules.score.is_empty()).then(|| self.scored_by(state, mv, mover));
        // No die played for want of a move: not a stop chosen in an optional turn.
        let no_move = mv.is_pass() && state.played.len == 0 && !state.optional;
        state.played = Played::default();
        let (dice, ndice) = (state.dice, state.ndice);
        // Counted only where the rules draw a deadlock, so that other games' positions
        // carry nothing their STATE leaves out.
        let deadlocks = game_rules.end.passes.is_some();
        state.passes = match deadlocks && no_move {
            true => state.passes.saturating_add(1),
            false => 0,
        };
        state.dice = [0; 4];
        state.ndice = 0;
        state.moved |= 1 << state.to_move;
        state.stage = Stage::Roll;
        if follows.next.is_none() {
            state.to_move = 1 - state.to_move;
        }
        if let Some(back) = &rules.hit_back {
            self.put_back(state, mover, back);
        }
        if rules.off_to_pool {
            // Borne off, to enter again (`[moves] bear_off_to = "pool"`).
            let side = &mut state.pos.sides[mover];
            side[POOL] += std::mem::take(&mut side[OFF]);
        }
        state.plies += 1;
        if gains.is_some_and(|g| self.score_during_play(state, g, mover)) {
            // The match's target reached: the game is over.
        } else if no_move && game_rules.end.no_move_loses && !given {
            self.stall(state, mover);
        } else {
            self.check_over(state, mover);
        }
        state.given = false;
        if let (Some(next @ (Next::Double(_) | Next::Repeat)), Stage::Roll) =
            (follows.next, state.stage)
        {
            // The same player plays the double given, or the same dice, without rolling.
            (state.dice, state.ndice) = match next {
                Next::Double(d) => ([d, d, 0, 0], 2),
                _ => (dice, ndice),
            };
            state.stage = Stage::Move;
            state.follow = state.follow.saturating_add(1);
            state.optional = follows.optional;
        } else {
            state.follow = 0;
            state.first = 0;
            state.optional = false;
            if follows.gifts > 0 && state.stage == Stage::Roll {
                // The opponent plays what the mover could not, before its own throw.
                state.dice = follows.gift;
                state.ndice = follows.gifts;
                state.stage = Stage::Move;
                state.given = true;
            } else if state.stage == Stage::Roll
                && (follows.next.is_none() || given)
                && self.cube.is_some()
            {
                // A new turn of the other player (or their own throw after dice given).
                self.offer_cube(state);
            }
        }
    }

    fn dice(&self) -> Option<Dice> {
        Some(self.dice)
    }

    fn is_step(&self, mv: &TablesMove) -> bool {
        mv.die().is_some()
    }

    fn cube_action(&self, mv: &TablesMove) -> Option<CubeAction> {
        mv.cube_action()
    }

    fn resign(&self, state: &mut TablesState, level: Resignation) -> bool {
        self.concede(state, level)
    }

    fn cube(&self, state: &TablesState) -> Option<CubeView> {
        let rules = self.cube.as_ref()?;
        Some(CubeView {
            value: state.cube.value(),
            owner: state.cube.owner(),
            away: (self.match_rules.as_ref()).map(|m| state.points.map(|p| m.target - p)),
            jacoby: rules.jacoby && state.cube.log == 0,
            crawford: (rules.crawford && self.match_rules.is_some()).then_some(state.crawford),
        })
    }

    fn roll(&self, state: &mut TablesState, roll: &Roll) -> Result<(), RollError> {
        if state.stage != Stage::Roll {
            return Err(RollError::NotAwaited);
        }
        self.dice.check(roll)?;
        let values = roll.values();
        state.dice = [0; 4];
        state.dice[..values.len()].copy_from_slice(values);
        state.ndice = values.len() as u8;
        if !self.rules(state).after.is_empty() {
            state.first = values[0];
        }
        if let Some(d) = self.rules(state).fixed_die {
            state.dice[values.len()] = d;
            state.ndice += 1;
        }
        state.stage = Stage::Move;
        Ok(())
    }

    fn start_ritual(&self) -> Ritual {
        self.ritual
    }

    fn pieces(&self, state: &TablesState) -> u32 {
        state
            .pos
            .sides
            .iter()
            .flatten()
            .map(|&c| u32::from(c))
            .sum()
    }
    fn guards(&self) -> Guards {
        let limits = self.rotation.iter().map(|r| self.ply_limit(r));
        Guards {
            plies: limits.max().unwrap_or(self.max_plies),
            plies_by_rules: self.rotation.iter().any(|r| r.end.max_plies.is_some()),
            games: self.match_rules.as_ref().map(|_| LIMITS.games_per_match),
        }
    }

    fn set_max_plies(&mut self, plies: u32) {
        self.max_plies = plies.clamp(1, LIMITS.plies_per_game);
        // It overrides the rules' own limit.
        for rules in &mut self.rotation {
            rules.end.max_plies = None;
        }
    }
}

/// What follows a turn besides the other player's throw: the same player going on, or the
/// dice left over for the opponent.
#[derive(Clone, Copy, Default)]
struct Follows {
    next: Option<Next>,
    /// The dice `next` gives may be played in part or not at all.
    optional: bool,
    gift: [u8; 4],
    gifts: u8,
}

impl TablesGame {
    /// Plays `mv`'s steps on `turn` where a step's effect depends on the rules: each step's
    /// `[[remember]]` conditions are tested on the position it leaves, and a step `[n, n]`
    /// turns stacked checkers over.
    #[cold]
    fn step_by_step(
        &self,
        state: &TablesState,
        mv: &TablesMove,
        turn: &mut Turn,
        stacked: &mut Stacked,
    ) {
        let rules = &self.rules(state).moves;
        let info = self.turn_info(state);
        let mut earlier: Vec<[u8; 2]> = match mv.die() {
            Some(_) => state.played.steps().to_vec(),
            None => Vec::new(),
        };
        for &[from, to] in mv.steps() {
            let (f, t) = (usize::from(from), usize::from(to));
            let strike = f == t && rules.stacks.is_none();
            let lands = strike
                || (f != t && t != OFF && turn.landing(&rules.board, rules.lone, t) == Some(true));
            if strike {
                turn.hit_afar(&rules.board, 1 << f);
            } else if f == t {
                movegen::turn_over(rules, turn, stacked, f, &info, &earlier);
            } else {
                stacked.before_step(turn, &rules.board, rules.lone, [f, t], lands);
                turn.step(&rules.board, rules.lone, f, t, lands);
            }
            let stepped = *turn;
            let mut view = scope::StepView {
                turn: &stepped,
                stacked: stacked.mine,
                board: &rules.board,
                lone: rules.lone,
                // `die` is no name of a `[[remember]]` condition, nor of a `[[moves.hit]]` one.
                die: 0,
                from: f,
                to: t,
                lands,
                earlier: &earlier,
                info: &info,
            };
            let hit = if f != t && !rules.hits.is_empty() {
                let bits = movegen::hits_afar(rules, &view);
                turn.hit_afar(&rules.board, bits);
                *turn
            } else {
                stepped
            };
            view.turn = &hit;
            turn.remembered = movegen::remembered_after(&rules.remember, &view);
            earlier.push([from, to]);
        }
    }

    /// `f` of the turn `mv` ends, as `[[dice.after]]` and `[[score]]` read it (`state` still
    /// holds its dice and, for a turn played a step at a time, its steps).
    fn turn_played<R>(
        &self,
        state: &TablesState,
        mv: &TablesMove,
        f: impl FnOnce(&AfterView) -> R,
    ) -> R {
        let rules = &self.rules(state).moves;
        let roll = &state.dice[..usize::from(state.ndice)];
        // A turn played a step at a time (an optional one may stop after some steps).
        let by_steps = (mv.die().is_some() || state.played.len > 0).then_some(&state.played);
        let side = self.rules(state).side(state);
        let opponent_can_move = || self.can_move(state, 1 - side);
        self.rules(state)
            .between_turns(&state.pos, state.scored, side, |position| {
                f(&AfterView {
                    position,
                    roll,
                    played: by_steps.map_or(mv.steps().len(), |p| usize::from(p.len)),
                    ply: state.plies,
                    follow: state.follow,
                    first: state.first,
                    chosen: chosen_double(rules, roll, mv, by_steps),
                    remembered: state.pos.remembered[side],
                    opponent_can_move: &opponent_can_move,
                })
            })
    }

    /// Whether some throw would let `player` play a die from the position of `state` (the
    /// look-ahead of `opponent_can_move`: every throw tried, so only where the rules ask).
    #[cold]
    fn can_move(&self, state: &TablesState, player: usize) -> bool {
        let rules = self.rules(state);
        let mut moves = Vec::new();
        self.dice.outcomes().iter().any(|(roll, _)| {
            let mut dice = roll.values().to_vec();
            dice.extend(rules.fixed_die);
            let info = TurnInfo {
                roll: &dice,
                first_turn: false,
                mover: player as u8,
                given: false,
                follow: 0,
                optional: false,
                scored: state.scored,
            };
            // A turn too big to list whole has moves.
            !generate(&rules.moves, &state.pos, player, &info, &mut moves)
                || moves.iter().any(|m| !m.is_pass())
        })
    }

    /// The points each player scores by the `[[score]]` rules for the turn `mv` of `mover`
    /// ends.
    #[cold]
    fn scored_by(&self, state: &TablesState, mv: &TablesMove, mover: usize) -> [u16; 2] {
        self.turn_played(state, mv, |turn| {
            let mut gains = [0u16; 2];
            for rule in &self.rules(state).score {
                if rule.when.test(turn) {
                    let p = if rule.opponent { 1 - mover } else { mover };
                    let points = rule.points.eval(turn).clamp(0, rules::score::MAX_POINTS);
                    gains[p] = gains[p].saturating_add(points as u16);
                }
            }
            gains
        })
    }

    /// Adds points scored during play to the game's and, in a match, at once to the match's:
    /// a player whose points reach the target wins the game there (the higher, were both to,
    /// else the mover). Whether that ended the game.
    #[cold]
    fn score_during_play(&self, state: &mut TablesState, gains: [u16; 2], mover: usize) -> bool {
        for (p, gain) in gains.into_iter().enumerate() {
            state.scored[p] = state.scored[p].saturating_add(gain);
            if self.match_rules.is_some() {
                state.points[p] = state.points[p].saturating_add(i32::from(gain));
            }
        }
        let Some(m) = &self.match_rules else {
            return false;
        };
        let points = state.points;
        let Some(winner) = [mover, 1 - mover]
            .into_iter()
            .filter(|&p| points[p] >= m.target)
            .max_by_key(|&p| (points[p], p == mover))
        else {
            return false;
        };
        state.stage = Stage::Over;
        state.to_move = winner as u8;
        state.winner = Some(winner as u8);
        state.score = 0;
        state.reached = true;
        true
    }

    /// What follows the turn `mv` ended (`state` still holds its dice and, for a turn played
    /// a step at a time, its steps): a bonus roll's or a `[[dice.after]]` rule's next turn for
    /// the mover, the throw after dice given, or the dice left over for the opponent.
    #[cold]
    fn what_follows(&self, state: &TablesState, mv: &TablesMove) -> Follows {
        let game_rules = self.rules(state);
        let rules = &game_rules.moves;
        let roll = &state.dice[..usize::from(state.ndice)];
        // A turn played a step at a time (an optional one may stop after some steps).
        let by_steps = (mv.die().is_some() || state.played.len > 0).then_some(&state.played);
        let (next, optional) = if state.given || rules.bonus_for(roll).is_some_and(|b| b.again) {
            // The dice given played (or a bonus turn over), the same player throws.
            (Some(Next::Roll), false)
        } else {
            let after = self.turn_played(state, mv, |turn| game_rules.after(turn));
            after.map_or((None, false), |(n, optional)| (Some(n), optional))
        };
        let mut follows = Follows {
            next,
            optional,
            ..Follows::default()
        };
        if game_rules.unplayed_to_opponent && !state.given && follows.next.is_none() {
            let left = match by_steps {
                Some(p) => movegen::unplayed(rules, roll, p.steps(), Some(p.dice())),
                None => movegen::unplayed(rules, roll, mv.steps(), None),
            };
            follows.gift[..left.len()].copy_from_slice(&left);
            follows.gifts = left.len() as u8;
        }
        follows
    }
}

impl Notation for TablesGame {
    fn move_text(&self, state: &TablesState, mv: &TablesMove) -> String {
        if let Some(action) = mv.cube_action() {
            return action.word().into();
        }
        notation::format_move(&self.steps_with_hits(state, mv), self.every_landing(state))
    }

    fn as_backgammon(&self) -> Result<(), String> {
        let Dice { count, faces } = self.dice;
        if (count, faces) != (2, 6) {
            return Err(format!(
                "it throws {count} dice of {faces} faces, not two six-sided dice"
            ));
        }
        let several = self.rotation.len() > 1;
        for (i, rules) in self.rotation.iter().enumerate() {
            rules.as_backgammon().map_err(|why| {
                if several {
                    format!("game {} of its match, `{}`: {why}", i + 1, rules.name)
                } else {
                    why
                }
            })?;
        }
        Ok(())
    }

    fn parse_move(&self, state: &TablesState, text: &str) -> Result<TablesMove, MoveError> {
        match state.stage {
            Stage::Move => {}
            Stage::Roll => return Err(MoveError::NotAwaited("the dice have not been rolled")),
            Stage::Over => return Err(MoveError::NotAwaited("the game is over")),
            Stage::Cube | Stage::Answer => return self.parse_cube(state, text),
        }
        if CubeAction::from_word(text).is_some() {
            return Err(MoveError::illegal(
                text,
                match self.cube {
                    Some(_) => "the cube is decided on before rolling, and a double answered at once; now a move of the checkers is awaited",
                    None => "these rules have no doubling cube",
                }
                .to_string(),
            ));
        }
        let rules = &self.rules(state).moves;
        let chains = notation::parse_turn(text, rules.board.points).map_err(|e| {
            MoveError::unreadable(
                text,
                format!("at column {}: {}", e.span.start + 1, e.message),
            )
        })?;
        let mover = self.rules(state).side(state);
        // The typed paths by their net effect: the mover's side afterwards.
        let mut side = state.pos.sides[mover].map(i32::from);
        let mut typed_hits = 0u64;
        for c in &chains {
            side[usize::from(c.from)] -= i32::from(c.times);
            side[usize::from(c.to())] += i32::from(c.times);
            for &(at, hit) in &c.hops {
                if hit && usize::from(at) != OFF {
                    typed_hits |= 1 << at;
                }
            }
        }
        if let Some(n) = (0..SLOTS).find(|&n| side[n] < 0) {
            let place = match n {
                BAR => "on the bar".to_string(),
                POOL => "in the pool".to_string(),
                n => format!("on point {n}"),
            };
            return Err(MoveError::illegal(
                text,
                format!(
                    "it moves more checkers than {} has {place}",
                    self.info.players[mover]
                ),
            ));
        }
        if rules.lone == Lone::Pin {
            // A pin shows where it was made; it holds only where the pinner stays.
            typed_hits &= (1..=rules.board.points)
                .filter(|&n| side[n] > 0)
                .fold(0, |m, n| m | 1 << n);
        }
        let want = Key::of(&side.map(|c| c as u8));
        let mut legal = Vec::new();
        self.legal_moves(state, &mut legal);
        // Moves to that side whose hits include the typed ones; a move hitting exactly where
        // the text says is preferred (`13/8` passes 11 without hitting, `13/11*/8` hits there).
        let mut candidates: Vec<(TablesMove, bool)> = legal
            .iter()
            .filter_map(|m| {
                let (_, k, lands) = replay(rules, &state.pos, mover, m, &self.turn_info(state));
                // A hit from afar is written at the step that made it, not where it hit.
                let hits = match rules.hits.is_empty() {
                    true => k.marks(),
                    false => (m.steps().iter().zip(lands))
                        .filter(|&(s, hit)| hit && usize::from(s[1]) != OFF)
                        .fold(0, |bits, (s, _)| bits | 1 << s[1]),
                };
                (k.counts_only() == want && hits & typed_hits == typed_hits)
                    .then_some((*m, hits == typed_hits))
            })
            .collect();
        // The typed steps, each hop of each chain.
        let mut typed: Vec<[u8; 2]> = Vec::new();
        for c in &chains {
            for _ in 0..c.times {
                let mut at = c.from;
                for &(to, _) in &c.hops {
                    typed.push([at, to]);
                    at = to;
                }
            }
        }
        // Where the text names every point passed (`10/9/3`), the move of those steps, whatever
        // blots they hit; else a move hitting exactly where the text says.
        let mut sorted = typed.clone();
        sorted.sort_unstable();
        let same = |m: &TablesMove| {
            let mut steps = m.steps().to_vec();
            steps.sort_unstable();
            steps == sorted
        };
        if candidates.len() > 1 && candidates.iter().any(|c| same(&c.0)) {
            candidates.retain(|c| same(&c.0));
        } else if candidates.iter().any(|c| c.1) {
            candidates.retain(|c| c.1);
        }
        if candidates.len() > 1 && rules.played_by_steps() {
            // Moves that differ by what they remember or turn over: the one whose steps are
            // the typed ones, in the typed order.
            if candidates.iter().any(|c| c.0.steps() == typed.as_slice()) {
                candidates.retain(|c| c.0.steps() == typed.as_slice());
            }
        }
        if rules.stacks.is_some() {
            // Checkers turned over leave the counts as they were: the typed `n/n` steps must
            // be the move's own.
            let turned = |steps: &mut dyn Iterator<Item = [u8; 2]>| {
                let mut points: Vec<u8> = steps.filter(|s| s[0] == s[1]).map(|s| s[0]).collect();
                points.sort_unstable();
                points
            };
            let typed = turned(&mut chains.iter().flat_map(|c| {
                let turn = c.hops.first().is_some_and(|h| h.0 == c.from);
                std::iter::repeat_n([c.from, c.from], usize::from(c.times) * usize::from(turn))
            }));
            candidates.retain(|c| turned(&mut c.0.steps().iter().copied()) == typed);
        }
        let candidates: Vec<TablesMove> = candidates.into_iter().map(|c| c.0).collect();
        let texts = |moves: &[TablesMove]| {
            let mut t: Vec<String> = moves
                .iter()
                .take(12)
                .map(|m| self.move_text(state, m))
                .collect();
            if moves.len() > 12 {
                t.push(format!("... ({} in all)", moves.len()));
            }
            t.join(", ")
        };
        match candidates.as_slice() {
            [one] => Ok(*one),
            [] if legal.iter().any(|m| m.die().is_some()) => Err(MoveError::illegal(
                text,
                format!(
                    "this turn is played one step at a time: type one step with {}; legal: {}",
                    dice_text(state),
                    texts(&legal)
                ),
            )),
            [] => Err(MoveError::illegal(
                text,
                self.forbidding_rule(state, &want).unwrap_or_else(|| {
                    format!(
                        "not a move with {}; legal: {}",
                        dice_text(state),
                        texts(&legal)
                    )
                }),
            )),
            many => Err(MoveError::Ambiguous {
                text: ludus_core::limits::excerpt(text.trim()),
                candidates: texts(many),
            }),
        }
    }
}

impl Json for TablesGame {
    fn move_json(&self, state: &TablesState, mv: &TablesMove) -> Value {
        if let Some(action) = mv.cube_action() {
            return json!({"text": action.word(), "steps": [], "cube": action.word()});
        }
        let steps: Vec<Value> = mv
            .steps()
            .iter()
            .map(|&[f, t]| json!([place_json(f), place_json(t)]))
            .collect();
        match mv.die() {
            Some(die) => json!({"text": self.move_text(state, mv), "steps": steps, "die": die}),
            None => json!({"text": self.move_text(state, mv), "steps": steps}),
        }
    }

    fn board_json(&self, state: &TablesState, fields: &mut Map<String, Value>) {
        let rules = self.rules(state);
        if self.rotation.len() > 1 {
            // Which game of the rotation is played belongs with the match standing.
            if let Some(Value::Object(standing)) = fields.get_mut("match") {
                standing.insert("rules".into(), json!(rules.name));
            }
        }
        let sides = &state.pos.sides;
        let n = rules.moves.board.points;
        fields.insert("points".into(), json!([&sides[0][1..=n], &sides[1][1..=n]]));
        if let Some(ids) = self.ids(state) {
            fields.insert("position_id".into(), json!(ids.position));
            fields.insert("match_id".into(), json!(ids.match_id));
            if let Some(x) = ids.xgid {
                fields.insert("xgid".into(), json!(x));
            }
        }
        fields.insert("bar".into(), json!([sides[0][BAR], sides[1][BAR]]));
        fields.insert("off".into(), json!([sides[0][OFF], sides[1][OFF]]));
        if rules.uses_pool() {
            fields.insert("pool".into(), json!([sides[0][POOL], sides[1][POOL]]));
        }
        if rules.moves.lone == Lone::Pin {
            let pinned = |p: usize| -> Vec<usize> {
                (1..=n)
                    .filter(|&k| state.pos.pinned[p] & (1 << k) != 0)
                    .collect()
            };
            fields.insert("pinned".into(), json!([pinned(0), pinned(1)]));
        }
        if rules.moves.stacks.is_some() {
            let stacked = |p: usize| -> Vec<u8> {
                let board = &rules.moves.board;
                (1..=n)
                    .map(|k| {
                        (board.stack_field(k))
                            .map_or(0, |f| position::stacked_at(state.pos.stacked[p], f))
                    })
                    .collect()
            };
            fields.insert("stacked".into(), json!([stacked(0), stacked(1)]));
        }
        if !rules.after.is_empty() {
            fields.insert("follow".into(), json!(state.follow));
            fields.insert("first".into(), json!(state.first));
        }
        if rules.unplayed_to_opponent {
            fields.insert("given".into(), json!(state.given));
        }
        if rules.after.iter().any(|a| a.optional) {
            fields.insert("optional".into(), json!(state.optional));
        }
        if !rules.remembered.is_empty() {
            let held = |p: usize| -> Vec<&str> {
                (rules.remembered.iter().enumerate())
                    .filter(|(i, _)| state.pos.remembered[p] & (1 << i) != 0)
                    .map(|(_, n)| n.as_str())
                    .collect()
            };
            fields.insert("remembered".into(), json!([held(0), held(1)]));
        }
        if rules.moves.bonus.as_ref().is_some_and(|b| b.again) || !rules.after.is_empty() {
            // With extra turns the plies no longer tell who has had a first turn.
            fields.insert(
                "moved".into(),
                json!([state.moved & 1 != 0, state.moved & 2 != 0]),
            );
        }
        fields.insert("dice".into(), state.dice().map_or(json!([]), |d| json!(d)));
        if rules.end.passes.is_some() {
            fields.insert("passes".into(), json!(state.passes));
        }
        if !rules.score.is_empty() {
            fields.insert("scored".into(), json!(state.scored));
        }
        if self.cube.is_some() {
            fields.insert("cube".into(), self.cube_json(state));
        }
        if state.played.len > 0 {
            // A turn played one step at a time, in progress: its steps so far, with their dice.
            let played: Vec<Value> = (state.played.steps().iter())
                .zip(state.played.dice())
                .map(|(&[f, t], &d)| json!([place_json(f), place_json(t), d]))
                .collect();
            fields.insert("played".into(), json!(played));
        }
    }

    fn state_from_json(&self, value: &Value) -> Result<TablesState, StateError> {
        state_json::read(self, value).map_err(StateError)
    }
}

/// What a pip is worth against one unit of material (a checker borne off).
const PIP: f64 = 0.1;
/// What a point held against the opponent is worth: it blocks their checkers.
const HELD: f64 = 0.25;
/// What a blot costs: about a third of a chance of being hit, and a hit costs many pips.
const BLOT: f64 = 0.4;

impl Evaluator for TablesGame {
    fn material(&self, state: &TablesState, player: Player) -> i32 {
        i32::from(state.pos.sides[player][OFF])
    }
    fn pips(&self, state: &TablesState, player: Player) -> Option<i32> {
        Some(self.rules(state).moves.board.pips(&state.pos.sides[player]))
    }
    /// The material difference, plus the pip-count difference, the points held against the
    /// opponent, and less the blots at risk.
    fn heuristic(&self, state: &TablesState, player: Player) -> f64 {
        let moves = &self.rules(state).moves;
        let sides = &state.pos.sides;
        let other = 1 - player;
        let mut value = f64::from(self.material(state, player) - self.material(state, other));
        value +=
            PIP * f64::from(moves.board.pips(&sides[other]) - moves.board.pips(&sides[player]));
        let held = |p: Player| {
            sides[p][1..=moves.board.points]
                .iter()
                .filter(|&&c| moves.lone.blocks(c))
                .count() as i32
        };
        value += HELD * f64::from(held(player) - held(other));
        // Only the blots of the side not to move are at risk: the side to move may hit them.
        if let Some(to_move) = self.phase(state).to_move() {
            let exposed = 1 - to_move;
            if matches!(moves.lone, Lone::Hit | Lone::Pin) {
                let sign = if exposed == player { -1.0 } else { 1.0 };
                value += sign * BLOT * f64::from(moves.board.blots(&sides[exposed]));
            }
        }
        value
    }
    fn evaluation(&self, state: &TablesState, player: Player) -> Option<i32> {
        let rules = self.rules(state);
        let view = scope::EvalView {
            pos: &state.pos,
            board: &rules.moves.board,
            player,
        };
        Some(rules.evaluate.as_ref()?.eval(&view))
    }
    /// For each side in its own numbering, each point as TD-Gammon reads it (a checker, two,
    /// three, and half of any more), the bar (half its checkers), the borne-off and the pool
    /// (a fifteenth of each), then where the rules have them the pins, the stacks and the
    /// remembered names; last, who is to move.
    fn features(&self, state: &TablesState, out: &mut Vec<f32>) -> bool {
        let rules = self.rules(state);
        let pos = &state.pos;
        let points = rules.moves.board.points;
        let flag = |b: bool| if b { 1.0 } else { 0.0 };
        for p in 0..2 {
            let side = &pos.sides[p];
            for &c in &side[1..=points] {
                let c = f32::from(c);
                out.extend([flag(c >= 1.0), flag(c >= 2.0), flag(c >= 3.0)]);
                out.push((c - 3.0).max(0.0) / 2.0);
            }
            out.push(f32::from(side[BAR]) / 2.0);
            out.push(f32::from(side[OFF]) / 15.0);
            if rules.uses_pool() {
                out.push(f32::from(side[POOL]) / 15.0);
            }
            if rules.moves.lone == Lone::Pin {
                out.extend((1..=points).map(|n| flag(pos.pinned[p] & (1 << n) != 0)));
            }
            if rules.moves.stacks.is_some() {
                let stacks = points.min(position::STACK_POINTS);
                out.extend(
                    (1..=stacks).map(|n| f32::from(position::stacked_at(pos.stacked[p], n)) / 15.0),
                );
            }
            out.extend(
                (0..rules.remembered.len()).map(|i| flag(pos.remembered[p] & (1 << i) != 0)),
            );
        }
        let mover = self.phase(state).to_move().unwrap_or(0);
        out.extend([flag(mover == 0), flag(mover == 1)]);
        true
    }

    fn network(&self, state: &TablesState) -> Option<&ludus_core::net::Net> {
        self.rules(state).network.as_deref()
    }

    fn scores_alike(&self, state: &TablesState) -> bool {
        let rules = self.rules(state);
        let constant = |e: &Option<Expr>| e.as_ref().is_none_or(|e| e.constant_value().is_some());
        constant(&rules.scoring) && rules.wins.iter().all(|w| w.points.is_none())
    }

    fn position_key(&self, state: &TablesState) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (
            state.pos,
            state.to_move,
            state.stage,
            state.dice,
            state.played,
            state.winner,
            state.follow,
            state.first,
            state.given,
            state.cube,
            state.crawford,
        )
            .hash(&mut h);
        h.finish()
    }
}

impl View for TablesGame {
    fn render(&self, state: &TablesState, viewer: Player) -> String {
        render::board(self, state, viewer) + &render::status(self, state)
    }
    fn board(&self, state: &TablesState, viewer: Player) -> String {
        render::board(self, state, viewer)
    }
    fn awaited(&self, state: &TablesState) -> Option<String> {
        render::awaited(self, state)
    }
    fn move_text_seen_by(&self, state: &TablesState, mv: &TablesMove, viewer: Player) -> String {
        if self.rules(state).side(state) == viewer || mv.cube_action().is_some() {
            return self.move_text(state, mv);
        }
        // The same paths, each point by its number on the viewer's side.
        let board = &self.rules(state).moves.board;
        let across = |n: u8| match usize::from(n) {
            n @ 1..=MAX_POINTS => board.across(n) as u8,
            _ => n,
        };
        let steps: Vec<([u8; 2], bool)> = self
            .steps_with_hits(state, mv)
            .into_iter()
            .map(|([from, to], hit)| ([across(from), across(to)], hit))
            .collect();
        notation::format_move(&steps, self.every_landing(state))
    }
    fn scored_during_play(&self, state: &TablesState) -> Option<[i32; 2]> {
        (!self.rules(state).score.is_empty()).then(|| state.scored.map(i32::from))
    }
    fn numbering(&self, state: &TablesState) -> Option<Player> {
        self.phase(state)
            .to_move()
            .map(|_| self.rules(state).side(state))
    }
    fn notation_help(&self, state: &TablesState) -> String {
        render::notation_help(self, state)
    }
    fn svg(&self, state: &TablesState, viewer: Player) -> String {
        render::svg(self, state, viewer)
    }

    fn describe(&self) -> String {
        rules::describe(self)
    }
}
