//! Tables games (the backgammon family): 24 points, two dice, bar and bear-off, played from a
//! rules file. One interpreter serves every game; Backgammon, Had and Mughrabieh differ only in
//! their rules files (start positions, what a lone checker does, conditions on leaving a point,
//! scoring, match target).
//!
//! Modules: `rules` (the TOML schema), `compile` (checks, compiled game), `position` (compact
//! state), `movegen` (full-turn moves), `notation` (pest parsing of positions and moves),
//! `scope` (names expressions may use), `state_json` (reading the protocol's STATE), `render`
//! (terminal board, plain-words rules).

mod compile;
mod keys;
mod movegen;
mod notation;
mod position;
mod render;
mod rules;
mod scope;
mod state_json;

pub use movegen::TablesMove;
pub use position::Position;

use crate::diagnostics::Diagnostic;
use crate::expr::Expr;
use crate::game::NextFirst;
use crate::game::{
    Dice, Game, Guards, Json, MatchStanding, Material, MoveError, Notation, Outcome, Phase, Player,
    Ritual, Roll, RollError, StateError, View,
};
use crate::limits::LIMITS;
use crate::rules::RulesDoc;
use movegen::{generate, result_key, MoveRules};
use position::{hit_bit, key_of, Key, BAR, OFF};
use scope::ScoreView;
use serde_json::{json, Map, Value};

pub use keys::REFERENCE;

/// Compiles a tables rules text.
pub fn compile(doc: &RulesDoc) -> Result<TablesGame, Vec<Diagnostic>> {
    compile::compile(doc)
}

/// Checks a tables rules text: the game when it has no error, and every error and warning.
pub fn check(doc: &RulesDoc) -> (Option<TablesGame>, Vec<Diagnostic>) {
    compile::check(doc)
}

#[derive(Clone, Debug)]
struct MatchRules {
    target: i32,
    next_first: NextFirst,
}

#[derive(Clone, Debug)]
struct Info {
    name: String,
    title: String,
    source: String,
    players: [String; 2],
}

/// Every expression context of the format with its names (`[[moves.leave]] when`, `[scoring]
/// points`), for references and tools.
pub fn scope_reference() -> Vec<(&'static str, crate::expr::Scope)> {
    vec![
        ("moves.leave.when", scope::step_scope()),
        ("scoring.points", scope::scoring_scope()),
    ]
}

/// A compiled tables game.
#[derive(Clone, Debug)]
pub struct TablesGame {
    /// Names and texts, boxed: rarely read, kept out of the way of the rules used in play.
    info: Box<Info>,
    start: Position,
    /// Checkers a side has (the same for both).
    checkers: u8,
    moves: MoveRules,
    /// Points the winner scores; 1 when the rules say nothing.
    scoring: Option<Expr>,
    match_rules: Option<MatchRules>,
    ritual: Ritual,
    /// The dice thrown each turn.
    dice: Dice,
    /// A game still going after this many turns is drawn (the ply guard, or `--max-plies`).
    max_plies: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Stage {
    Roll,
    Move,
    Over,
}

/// A position with whose turn it is, the dice, and the match so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TablesState {
    pos: Position,
    to_move: u8,
    stage: Stage,
    /// `[0, 0]` unless a move is awaited.
    dice: [u8; 2],
    /// Turns played in this game.
    plies: u32,
    /// Who moved first in this game.
    starter: u8,
    /// Once over: the winner (none when the ply guard ended the game) and the points scored.
    winner: Option<u8>,
    score: i32,
    /// 1-based game of the match and the points so far (this game's included once over).
    game: u32,
    points: [i32; 2],
}

impl TablesState {
    pub fn position(&self) -> &Position {
        &self.pos
    }
    /// The dice to play, `None` unless a move is awaited.
    pub fn dice(&self) -> Option<[u8; 2]> {
        (self.stage == Stage::Move).then_some(self.dice)
    }
}

impl TablesGame {
    /// What the winner of `pos` scores.
    fn score(&self, pos: &Position, winner: usize) -> i32 {
        let view = ScoreView {
            loser: &pos.sides[1 - winner],
        };
        self.scoring
            .as_ref()
            .map_or(1, |e| e.eval(&view).clamp(0, 1_000_000))
    }

    /// Ends the game if the mover has borne off every checker, or drawn at the ply guard.
    fn check_over(&self, state: &mut TablesState, mover: usize) {
        if state.pos.sides[mover][OFF] == self.checkers {
            state.stage = Stage::Over;
            // `to_move` means nothing once over; fixed so that equal games compare equal.
            state.to_move = mover as u8;
            state.winner = Some(mover as u8);
            state.score = self.score(&state.pos, mover);
            if self.match_rules.is_some() {
                state.points[mover] = state.points[mover].saturating_add(state.score);
            }
        } else if state.plies >= self.max_plies {
            state.stage = Stage::Over;
            // `to_move` means nothing once over; fixed so that equal games compare equal.
            state.to_move = 0;
            state.winner = None;
            state.score = 0;
        }
    }

    /// Each step of `mv` with whether it hits.
    fn steps_with_hits(&self, state: &TablesState, mv: &TablesMove) -> Vec<([u8; 2], bool)> {
        let mover = usize::from(state.to_move);
        let mut pos = state.pos;
        mv.steps()
            .iter()
            .map(|&[from, to]| {
                let t = usize::from(to);
                let hit = t != OFF && self.moves.hits && pos.sides[1 - mover][25 - t] == 1;
                pos.step(mover, usize::from(from), t, self.moves.hits);
                ([from, to], hit)
            })
            .collect()
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

fn place_json(n: u8) -> Value {
    match usize::from(n) {
        BAR => json!("bar"),
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
        TablesState {
            pos: self.start,
            to_move: first as u8,
            stage: Stage::Roll,
            dice: [0; 2],
            plies: 0,
            starter: first as u8,
            winner: None,
            score: 0,
            game: 1,
            points: [0; 2],
        }
    }

    fn next_game(&self, state: &TablesState, first: Player) -> Option<TablesState> {
        self.match_rules.as_ref()?;
        if state.stage != Stage::Over || self.match_over(state)?.is_some() {
            return None;
        }
        Some(TablesState {
            game: state.game + 1,
            points: state.points,
            ..self.new_game(first)
        })
    }

    fn next_starter(&self, state: &TablesState) -> Option<Player> {
        let m = self.match_rules.as_ref()?;
        if state.stage != Stage::Over || self.match_over(state)?.is_some() {
            return None;
        }
        // Once over, `to_move` is the last mover; the players alternate turns.
        let last_mover = usize::from(state.to_move);
        let starter = if state.plies % 2 == 1 {
            last_mover
        } else {
            1 - last_mover
        };
        let by_rule = m.next_first.starter(state.winner.map(usize::from), starter);
        // A game without a ritual starts as every game does: player 0 first.
        by_rule.or((self.ritual == Ritual::None).then_some(0))
    }

    fn match_standing(&self, state: &TablesState) -> Option<MatchStanding> {
        let decided = self.match_over(state)?;
        Some(MatchStanding {
            game: state.game,
            points: state.points,
            over: decided.is_some(),
            winner: decided.flatten(),
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
            Stage::Move => Phase::Move(p),
            Stage::Over => Phase::Over,
        }
    }

    fn outcome(&self, state: &TablesState) -> Option<Outcome> {
        (state.stage == Stage::Over).then(|| match state.winner {
            Some(w) => {
                let mut scores = [0; 2];
                scores[usize::from(w)] = state.score;
                Outcome {
                    winner: Some(usize::from(w)),
                    scores,
                    reason: "borne off".to_string(),
                }
            }
            None => Outcome {
                winner: None,
                scores: [0; 2],
                reason: format!("drawn at the {}-ply limit", self.max_plies),
            },
        })
    }

    fn legal_moves(&self, state: &TablesState, out: &mut Vec<TablesMove>) {
        if state.stage == Stage::Move {
            generate(
                &self.moves,
                &state.pos,
                usize::from(state.to_move),
                state.dice,
                out,
            );
        } else {
            out.clear();
        }
    }

    fn play(&self, state: &mut TablesState, mv: &TablesMove) {
        assert_eq!(state.stage, Stage::Move, "play: no move is awaited");
        let mover = usize::from(state.to_move);
        for &[from, to] in mv.steps() {
            state
                .pos
                .step(mover, usize::from(from), usize::from(to), self.moves.hits);
        }
        state.dice = [0; 2];
        state.stage = Stage::Roll;
        state.to_move = 1 - state.to_move;
        state.plies += 1;
        self.check_over(state, mover);
    }

    fn dice(&self) -> Option<Dice> {
        Some(self.dice)
    }

    fn roll(&self, state: &mut TablesState, roll: &Roll) -> Result<(), RollError> {
        if state.stage != Stage::Roll {
            return Err(RollError::NotAwaited);
        }
        self.dice.check(roll)?;
        let [a, b] = roll.values() else {
            return Err(RollError::Count {
                expected: 2,
                got: roll.values().len(),
            });
        };
        state.dice = [*a, *b];
        state.stage = Stage::Move;
        Ok(())
    }

    fn start_ritual(&self) -> Ritual {
        self.ritual
    }

    fn guards(&self) -> Guards {
        Guards {
            plies: self.max_plies,
            plies_by_rules: false,
            games: self.match_rules.as_ref().map(|_| LIMITS.games_per_match),
        }
    }

    fn set_max_plies(&mut self, plies: u32) {
        self.max_plies = plies.clamp(1, LIMITS.plies_per_game);
    }
}

impl Notation for TablesGame {
    fn move_text(&self, state: &TablesState, mv: &TablesMove) -> String {
        notation::format_move(&self.steps_with_hits(state, mv))
    }

    fn parse_move(&self, state: &TablesState, text: &str) -> Result<TablesMove, MoveError> {
        match state.stage {
            Stage::Move => {}
            Stage::Roll => return Err(MoveError::NotAwaited("the dice have not been rolled")),
            Stage::Over => return Err(MoveError::NotAwaited("the game is over")),
        }
        let chains = notation::parse_turn(text).map_err(|e| {
            MoveError::unreadable(
                text,
                format!("at column {}: {}", e.span.start + 1, e.message),
            )
        })?;
        let mover = usize::from(state.to_move);
        // The typed paths by their net effect: the mover's side afterwards.
        let mut side = state.pos.sides[mover].map(i32::from);
        let mut typed_hits: Key = 0;
        for c in &chains {
            side[usize::from(c.from)] -= i32::from(c.times);
            side[usize::from(c.to())] += i32::from(c.times);
            for &(at, hit) in &c.hops {
                if hit && usize::from(at) != OFF {
                    typed_hits |= hit_bit(usize::from(at));
                }
            }
        }
        if let Some(n) = (0..26).find(|&n| side[n] < 0) {
            let place = match n {
                BAR => "on the bar".to_string(),
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
        let want = key_of(&side.map(|c| c as u8));
        let mut legal = Vec::new();
        self.legal_moves(state, &mut legal);
        // Moves to that side whose hits include the typed ones; a move hitting exactly where
        // the text says is preferred (`13/8` passes 11 without hitting, `13/11*/8` hits there).
        let mut candidates: Vec<(TablesMove, bool)> = legal
            .iter()
            .filter_map(|m| {
                let k = result_key(&self.moves, &state.pos, mover, m);
                let hits = k & !(hit_bit(1) - 1);
                (k & (hit_bit(1) - 1) == want && hits & typed_hits == typed_hits)
                    .then_some((*m, hits == typed_hits))
            })
            .collect();
        if candidates.iter().any(|c| c.1) {
            candidates.retain(|c| c.1);
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
            [] => Err(MoveError::illegal(
                text,
                format!(
                    "not a move with {}-{}; legal: {}",
                    state.dice[0],
                    state.dice[1],
                    texts(&legal)
                ),
            )),
            many => Err(MoveError::Ambiguous {
                text: crate::limits::excerpt(text.trim()),
                candidates: texts(many),
            }),
        }
    }
}

impl Json for TablesGame {
    fn move_json(&self, state: &TablesState, mv: &TablesMove) -> Value {
        let steps: Vec<Value> = mv
            .steps()
            .iter()
            .map(|&[f, t]| json!([place_json(f), place_json(t)]))
            .collect();
        json!({"text": self.move_text(state, mv), "steps": steps})
    }

    fn board_json(&self, state: &TablesState, fields: &mut Map<String, Value>) {
        let sides = &state.pos.sides;
        fields.insert(
            "points".into(),
            json!([&sides[0][1..=24], &sides[1][1..=24]]),
        );
        fields.insert("bar".into(), json!([sides[0][BAR], sides[1][BAR]]));
        fields.insert("off".into(), json!([sides[0][OFF], sides[1][OFF]]));
        fields.insert("dice".into(), state.dice().map_or(json!([]), |d| json!(d)));
    }

    fn state_from_json(&self, value: &Value) -> Result<TablesState, StateError> {
        state_json::read(self, value).map_err(StateError)
    }
}

impl Material for TablesGame {
    fn material(&self, state: &TablesState, player: Player) -> i32 {
        i32::from(state.pos.sides[player][OFF])
    }
    fn pips(&self, state: &TablesState, player: Player) -> Option<i32> {
        let side = &state.pos.sides[player];
        Some((1..=BAR).map(|n| n as i32 * i32::from(side[n])).sum())
    }
    fn position_key(&self, state: &TablesState) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (
            state.pos,
            state.to_move,
            state.stage,
            state.dice,
            state.winner,
        )
            .hash(&mut h);
        h.finish()
    }
}

impl View for TablesGame {
    fn render(&self, state: &TablesState, viewer: Player) -> String {
        render::board(self, state, viewer)
    }

    fn describe(&self) -> String {
        render::describe(self)
    }
}
