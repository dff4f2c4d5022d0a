//! The names tables expressions may use: one scope for the conditions on leaving a point
//! (evaluated die by die, from the mover's side) and one for scoring a finished game (from the
//! winner's side), each with the `Vars` view that supplies the values.

use super::position::{BAR, HOME, OFF};
use crate::expr::{Scope, Type, Vars};

const HOME_VAR: u16 = 0;
const OFF_VAR: u16 = 1;
const BAR_VAR: u16 = 2;
const DIE_VAR: u16 = 3;
const MINE_FN: u16 = 0;
const THEIRS_FN: u16 = 1;

/// Names for `[[moves.leave]] when = "..."`.
pub fn step_scope() -> Scope {
    Scope::new()
        .var(
            "home",
            Type::Int,
            HOME_VAR,
            "your checkers in your home table (points 1-6)",
        )
        .var("off", Type::Int, OFF_VAR, "your checkers borne off")
        .var("bar", Type::Int, BAR_VAR, "your checkers on the bar")
        .var("die", Type::Int, DIE_VAR, "the die being played")
        .func(
            "mine",
            &[Type::Int],
            Type::Int,
            MINE_FN,
            "mine(n): your checkers on your point n (0 outside 1..24)",
        )
        .func(
            "theirs",
            &[Type::Int],
            Type::Int,
            THEIRS_FN,
            "theirs(n): the opponent's checkers on your point n (0 outside 1..24)",
        )
}

/// The position as one step sees it: the mover's side, the opponent's, the die.
pub struct StepView<'a> {
    pub me: &'a [u8; 26],
    pub opp: &'a [u8; 26],
    pub die: u8,
}

fn on_point(side: &[u8; 26], n: i32) -> i32 {
    if (1..=24).contains(&n) {
        i32::from(side[n as usize])
    } else {
        0
    }
}

impl Vars for StepView<'_> {
    fn var(&self, slot: u16) -> i32 {
        match slot {
            HOME_VAR => self.me[1..=HOME].iter().map(|&c| i32::from(c)).sum(),
            OFF_VAR => i32::from(self.me[OFF]),
            BAR_VAR => i32::from(self.me[BAR]),
            _ => i32::from(self.die),
        }
    }
    fn call(&self, slot: u16, args: &[i32]) -> i32 {
        let n = args.first().copied().unwrap_or(0);
        match slot {
            MINE_FN => on_point(self.me, n),
            _ => on_point(self.opp, 25 - n),
        }
    }
}

const LOSER_OFF: u16 = 0;
const LOSER_LEFT: u16 = 1;
const GAMMON: u16 = 2;
const BACKGAMMON: u16 = 3;

/// Names for `[scoring] points = "..."`.
pub fn scoring_scope() -> Scope {
    Scope::new()
        .var("loser_off", Type::Int, LOSER_OFF, "the loser's checkers borne off")
        .var(
            "loser_left",
            Type::Int,
            LOSER_LEFT,
            "the loser's checkers not borne off (on the board or the bar)",
        )
        .var(
            "gammon",
            Type::Int,
            GAMMON,
            "1 when the loser has borne off no checker, else 0",
        )
        .var(
            "backgammon",
            Type::Int,
            BACKGAMMON,
            "1 when the loser has borne off none and still has a checker on the bar or in the winner's home table, else 0",
        )
}

/// A finished game from the winner's side.
pub struct ScoreView<'a> {
    pub loser: &'a [u8; 26],
}

impl Vars for ScoreView<'_> {
    fn var(&self, slot: u16) -> i32 {
        let off = i32::from(self.loser[OFF]);
        let left: i32 = self.loser[1..].iter().map(|&c| i32::from(c)).sum();
        // The winner's home table is the loser's points 19..24.
        let deep = self.loser[25 - HOME..].iter().any(|&c| c > 0);
        match slot {
            LOSER_OFF => off,
            LOSER_LEFT => left,
            GAMMON => i32::from(off == 0),
            _ => i32::from(off == 0 && deep),
        }
    }
}
