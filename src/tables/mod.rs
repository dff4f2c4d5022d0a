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
use crate::game::{Dice, Family, Game, MatchStanding, Outcome, Phase, Player, Ritual};
use movegen::{generate, result_key, MoveRules};
use position::{hit_bit, key_of, Key, BAR, OFF};
use scope::ScoreView;
use serde_json::{json, Map, Value};

/// Compiles a tables rules text.
pub fn compile(text: &str) -> Result<TablesGame, Vec<Diagnostic>> {
    compile::compile(text)
}

/// Who starts the next game of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NextFirst {
    Loser,
    Winner,
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
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    dice: Dice,
    /// Once over: the winner and the points scored.
    winner: u8,
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
    pub fn dice(&self) -> Option<Dice> {
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

    /// Ends the game if the mover has borne off every checker.
    fn check_over(&self, state: &mut TablesState, mover: usize) {
        if state.pos.sides[mover][OFF] == self.checkers {
            state.stage = Stage::Over;
            // `to_move` means nothing once over; fixed so that equal games compare equal.
            state.to_move = mover as u8;
            state.winner = mover as u8;
            state.score = self.score(&state.pos, mover);
            if self.match_rules.is_some() {
                state.points[mover] = state.points[mover].saturating_add(state.score);
            }
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

    fn match_over(&self, points: [i32; 2]) -> Option<Option<Player>> {
        let m = self.match_rules.as_ref()?;
        Some((0..2).find(|&p| points[p] >= m.target))
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
    fn family(&self) -> Family {
        Family::Tables
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
            winner: 0,
            score: 0,
            game: 1,
            points: [0; 2],
        }
    }

    fn next_game(&self, state: &TablesState) -> Option<TablesState> {
        let m = self.match_rules.as_ref()?;
        if state.stage != Stage::Over || self.match_over(state.points)?.is_some() {
            return None;
        }
        let first = match m.next_first {
            NextFirst::Winner => usize::from(state.winner),
            NextFirst::Loser => 1 - usize::from(state.winner),
        };
        Some(TablesState {
            game: state.game + 1,
            points: state.points,
            ..self.new_game(first)
        })
    }

    fn match_standing(&self, state: &TablesState) -> Option<MatchStanding> {
        let winner = self.match_over(state.points)?;
        Some(MatchStanding {
            game: state.game,
            points: state.points,
            over: winner.is_some(),
            winner,
        })
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
        (state.stage == Stage::Over).then(|| {
            let w = usize::from(state.winner);
            let mut scores = [0; 2];
            scores[w] = state.score;
            Outcome {
                winner: Some(w),
                scores,
                reason: "borne off".to_string(),
            }
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
        self.check_over(state, mover);
    }

    fn roll(&self, state: &mut TablesState, dice: Dice) -> Result<(), String> {
        match state.stage {
            Stage::Roll => {}
            Stage::Move => return Err("the dice are already rolled; a move is awaited".into()),
            Stage::Over => return Err("the game is over".into()),
        }
        if let Some(d) = dice.iter().find(|d| !(1..=6).contains(*d)) {
            return Err(format!("a die shows 1..6, not {d}"));
        }
        state.dice = dice;
        state.stage = Stage::Move;
        Ok(())
    }

    fn move_text(&self, state: &TablesState, mv: &TablesMove) -> String {
        notation::format_move(&self.steps_with_hits(state, mv))
    }

    fn parse_move(&self, state: &TablesState, text: &str) -> Result<TablesMove, String> {
        match state.stage {
            Stage::Move => {}
            Stage::Roll => return Err("no move now: the dice have not been rolled".into()),
            Stage::Over => return Err("no move now: the game is over".into()),
        }
        let chains = notation::parse_turn(text).map_err(|e| {
            format!(
                "cannot read `{text}` at column {}: {}",
                e.span.start + 1,
                e.message
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
            return Err(format!(
                "`{text}` moves more checkers than {} has {place}",
                self.info.players[mover]
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
            [] => Err(format!(
                "`{text}` is not a legal move with {}-{}; legal: {}",
                state.dice[0],
                state.dice[1],
                texts(&legal)
            )),
            many => Err(format!(
                "`{text}` is ambiguous (mark hits with `*`): {}",
                texts(many)
            )),
        }
    }

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

    fn state_from_json(&self, value: &Value) -> Result<TablesState, String> {
        state_json::read(self, value)
    }

    fn gain(&self, state: &TablesState, player: Player) -> i32 {
        i32::from(state.pos.sides[player][OFF])
    }

    fn start_ritual(&self) -> Ritual {
        self.ritual
    }

    fn render(&self, state: &TablesState, viewer: Player) -> String {
        render::board(self, state, viewer)
    }

    fn describe(&self) -> String {
        render::describe(self)
    }
}
