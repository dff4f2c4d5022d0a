//! The doubling cube in play (`[cube]`): its value and owner in the state, and its decisions as
//! moves. After a turn passes to the other player, a player who may double chooses between
//! `double` and `roll`; a double is answered by `take`, `drop` or (where allowed) `beaver`.
//! Games without a cube never reach these stages.

use crate::rules::CubeRules;
use crate::{Stage, TablesGame, TablesMove, TablesState};
use ludus_core::game::{Crawford, CubeAction, MoveError, Resignation};
use serde_json::{json, Value};

/// The cube's owner while it is in the middle (either player may double).
pub const MIDDLE: u8 = 2;

/// The cube as it stands in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cube {
    /// The cube stands at 2^log.
    pub log: u8,
    /// The player who owns it (only they may double), or [`MIDDLE`].
    pub owner: u8,
}

impl Default for Cube {
    fn default() -> Cube {
        Cube {
            log: 0,
            owner: MIDDLE,
        }
    }
}

impl Cube {
    pub fn value(self) -> i32 {
        1 << self.log
    }
    /// The owner, `None` while the cube is in the middle.
    pub fn owner(self) -> Option<usize> {
        (self.owner != MIDDLE).then_some(usize::from(self.owner))
    }
}

impl CubeRules {
    /// Whether the player to roll in `state` may double.
    pub(crate) fn may_double(&self, state: &TablesState) -> bool {
        state.crawford != Crawford::Now
            && (state.cube.owner == MIDDLE || state.cube.owner == state.to_move)
            && state.cube.log < self.max_log
    }

    /// The answers to a double: take, drop, and beaver where allowed and within the cube's
    /// highest value.
    fn answers(&self, state: &TablesState) -> &'static [CubeAction] {
        if self.beavers && state.cube.log + 2 <= self.max_log {
            &[CubeAction::Take, CubeAction::Drop, CubeAction::Beaver]
        } else {
            &[CubeAction::Take, CubeAction::Drop]
        }
    }
}

impl TablesGame {
    /// The cube's decisions at a cube stage: rolling first, so that a player indifferent
    /// between them rolls (and takes).
    pub(crate) fn cube_moves(&self, state: &TablesState, out: &mut Vec<TablesMove>) {
        let Some(rules) = &self.cube else { return };
        let actions: &[CubeAction] = match state.stage {
            Stage::Cube => &[CubeAction::Roll, CubeAction::Double],
            Stage::Answer => rules.answers(state),
            _ => &[],
        };
        out.extend(actions.iter().map(|&a| TablesMove::cube(a)));
    }

    /// Plays a decision of the cube (one of [`TablesGame::cube_moves`]).
    pub(crate) fn play_cube(&self, state: &mut TablesState, action: CubeAction) {
        let player = state.to_move;
        match action {
            CubeAction::Roll => state.stage = Stage::Roll,
            CubeAction::Double => {
                state.stage = Stage::Answer;
                state.to_move = 1 - player;
            }
            CubeAction::Take | CubeAction::Beaver => {
                state.cube = Cube {
                    log: state.cube.log + if action == CubeAction::Beaver { 2 } else { 1 },
                    owner: player,
                };
                state.stage = Stage::Roll;
                state.to_move = 1 - player;
            }
            CubeAction::Drop => {
                state.declined = true;
                self.end_conceded(state, state.cube.value());
            }
        }
    }

    /// The player whose turn it is resigns, conceding `level` at the stakes (times the cube,
    /// and a single game under the Jacoby rule while the cube is in the middle at 1). False in
    /// a game over.
    pub(crate) fn concede(&self, state: &mut TablesState, level: Resignation) -> bool {
        if state.stage == Stage::Over {
            return false;
        }
        state.resigned = Some(level);
        self.end_conceded(state, self.staked(state, level.points()));
        true
    }

    /// Ends the game won by the opponent of the player whose turn it is, for `score` points.
    fn end_conceded(&self, state: &mut TablesState, score: i32) {
        let winner = 1 - state.to_move;
        state.stage = Stage::Over;
        state.to_move = winner;
        state.winner = Some(winner);
        state.score = score;
        state.dice = [0; 4];
        state.ndice = 0;
        if self.match_rules.is_some() {
            state.points[usize::from(winner)] =
                state.points[usize::from(winner)].saturating_add(score);
        }
    }

    /// After a turn has passed to the other player, whether they decide on the cube before
    /// rolling.
    pub(crate) fn offer_cube(&self, state: &mut TablesState) {
        if self.cube.as_ref().is_some_and(|c| c.may_double(state)) {
            state.stage = Stage::Cube;
        }
    }

    /// What a game won for `score` points scores at the cube's stakes: times the cube, and
    /// under the Jacoby rule no gammon while the cube is in the middle at 1.
    pub(crate) fn staked(&self, state: &TablesState, score: i32) -> i32 {
        match &self.cube {
            None => score,
            Some(c) if c.jacoby && state.cube.log == 0 => score.min(1),
            Some(_) => score.saturating_mul(state.cube.value()),
        }
    }

    /// Whether the next game of a match, after `state`, is the Crawford game (or after it).
    pub(crate) fn next_crawford(&self, state: &TablesState) -> Crawford {
        let within_one = |target: i32| state.points.iter().any(|&p| p == target - 1);
        match (state.crawford, &self.cube, &self.match_rules) {
            (Crawford::Before, Some(c), Some(m)) if c.crawford && within_one(m.target) => {
                Crawford::Now
            }
            (Crawford::Before, _, _) => Crawford::Before,
            _ => Crawford::After,
        }
    }
}

impl TablesGame {
    /// A cube decision typed at a cube stage: one of the words the stage allows.
    pub(crate) fn parse_cube(
        &self,
        state: &TablesState,
        text: &str,
    ) -> Result<TablesMove, MoveError> {
        let mut legal = Vec::new();
        self.cube_moves(state, &mut legal);
        let words: Vec<&str> = legal
            .iter()
            .filter_map(|m| m.cube_action().map(CubeAction::word))
            .collect();
        match CubeAction::from_word(text) {
            Some(a) if legal.contains(&TablesMove::cube(a)) => Ok(TablesMove::cube(a)),
            _ => Err(MoveError::illegal(
                text,
                format!(
                    "{}: type {}",
                    match state.stage {
                        Stage::Answer => "a double is to be answered",
                        _ => "the cube is to be decided on before rolling",
                    },
                    words.join(" or ")
                ),
            )),
        }
    }

    /// The STATE's `cube`: its value, its owner (`null`: the middle), the decision awaited
    /// (`"double"`: whether to double; `"take"`: whether to take a double; else `null`) and,
    /// in a match with the Crawford rule, whether this is the Crawford game or after it.
    pub(crate) fn cube_json(&self, state: &TablesState) -> Value {
        let decision = match state.stage {
            Stage::Cube => json!("double"),
            Stage::Answer => json!("take"),
            _ => Value::Null,
        };
        let mut cube = json!({
            "value": state.cube.value(),
            "owner": state.cube.owner(),
            "decision": decision,
        });
        if self.cube.as_ref().is_some_and(|c| c.crawford) {
            cube["crawford"] = json!(state.crawford == Crawford::Now);
            cube["post_crawford"] = json!(state.crawford == Crawford::After);
        }
        cube
    }
}
