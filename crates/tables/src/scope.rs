//! The names tables expressions may use: one scope for the conditions on a step (evaluated die
//! by die, from the mover's side), one for scoring a finished game (from the winner's side) and
//! one for the computer players' value of a position (from the side of the player valued), each
//! with the `Vars` view that supplies the values.

use super::movegen::TurnInfo;
use super::position::{
    stacked_at, stacked_total, Board, Lone, Position, Side, Turn, BAR, OFF, POOL,
};
use ludus_core::expr::{NameKind, Scope, Type, Vars};

const HOME_VAR: u16 = 0;
const OFF_VAR: u16 = 1;
const BAR_VAR: u16 = 2;
const DIE_VAR: u16 = 3;
const POOL_VAR: u16 = 4;
const FROM_VAR: u16 = 5;
const TO_VAR: u16 = 6;
const ENTERING_VAR: u16 = 7;
const HITS_VAR: u16 = 8;
const PINS_VAR: u16 = 9;
const DOUBLES_VAR: u16 = 10;
const FIRST_TURN_VAR: u16 = 11;
const PLAYED_VAR: u16 = 12;
const PRIME_VAR: u16 = 13;
const PRIME_PASSED_VAR: u16 = 14;
const SIDE_VAR: u16 = 15;
const LOW_DIE_VAR: u16 = 16;
const HIGH_DIE_VAR: u16 = 17;
const THEIR_BAR_VAR: u16 = 18;
const STACKED_VAR: u16 = 19;
const FOLLOW_VAR: u16 = 20;
const STRIKES_VAR: u16 = 21;
const SCORED_VAR: u16 = 22;
const THEIR_SCORED_VAR: u16 = 23;
const MINE_FN: u16 = 0;
const THEIRS_FN: u16 = 1;
const MINE_IN_FN: u16 = 2;
const THEIRS_IN_FN: u16 = 3;
const MOVED_OFF_FN: u16 = 4;
const PINNED_MINE_FN: u16 = 5;
const PINNED_THEIRS_FN: u16 = 6;
const REMEMBERED_FN: u16 = 7;
const STACKED_AT_FN: u16 = 8;

/// Names for `[[moves.leave]] when` and `[[moves.step]] when`.
pub fn step_scope() -> Scope {
    Scope::new()
        .var(
            "home",
            Type::Int,
            HOME_VAR,
            "your checkers in your home table",
        )
        .var("off", Type::Int, OFF_VAR, "your checkers borne off")
        .var("bar", Type::Int, BAR_VAR, "your checkers on the bar")
        .var(
            "pool",
            Type::Int,
            POOL_VAR,
            "your checkers waiting off the board to enter",
        )
        .var("die", Type::Int, DIE_VAR, "the die being played")
        .var(
            "from",
            Type::Int,
            FROM_VAR,
            "the point the checker leaves (one beyond the last point for the bar and the pool)",
        )
        .var(
            "to",
            Type::Int,
            TO_VAR,
            "the point the checker lands on (0 when it is borne off)",
        )
        .var(
            "entering",
            Type::Bool,
            ENTERING_VAR,
            "the checker enters from the bar or the pool",
        )
        .var(
            "hits",
            Type::Bool,
            HITS_VAR,
            "the step hits a lone opposing checker (sends it to the bar)",
        )
        .var(
            "pins",
            Type::Bool,
            PINS_VAR,
            "the step pins a lone opposing checker",
        )
        .var(
            "doubles",
            Type::Bool,
            DOUBLES_VAR,
            "the turn's dice all show the same number",
        )
        .var(
            "first_turn",
            Type::Bool,
            FIRST_TURN_VAR,
            "this is your first turn of the game",
        )
        .var(
            "played",
            Type::Int,
            PLAYED_VAR,
            "steps played earlier this turn",
        )
        .var(
            "prime",
            Type::Int,
            PRIME_VAR,
            "the most consecutive points you block",
        )
        .var(
            "prime_passed",
            Type::Int,
            PRIME_PASSED_VAR,
            "opponent checkers on the board already past your longest prime on their way home",
        )
        .var(
            "their_bar",
            Type::Int,
            THEIR_BAR_VAR,
            "the opponent's checkers on the bar",
        )
        .var(
            "side",
            Type::Int,
            SIDE_VAR,
            "0 for the player the rules file names first, 1 for the other: yours",
        )
        .var(
            "low_die",
            Type::Int,
            LOW_DIE_VAR,
            "the lowest die of the turn's throw (0 after the turn)",
        )
        .var(
            "high_die",
            Type::Int,
            HIGH_DIE_VAR,
            "the highest die of the turn's throw (0 after the turn)",
        )
        .var(
            "stacked",
            Type::Int,
            STACKED_VAR,
            "your checkers standing stacked (`[stacks]`)",
        )
        .var(
            "strikes",
            Type::Bool,
            STRIKES_VAR,
            "the die strikes a lone opposing checker instead of moving one (`[[moves.strike]]`)",
        )
        .var(
            "follow",
            Type::Int,
            FOLLOW_VAR,
            "turns in a row, up to this one, whose dice a `[[dice.after]]` rule gave (0: a rolled turn)",
        )
        .var(
            "scored",
            Type::Int,
            SCORED_VAR,
            "the points you have scored during play in this game (`[[score]]`)",
        )
        .var(
            "their_scored",
            Type::Int,
            THEIR_SCORED_VAR,
            "the points the opponent has scored during play in this game (`[[score]]`)",
        )
        .func(
            "mine",
            &[Type::Int],
            Type::Int,
            MINE_FN,
            "mine(n): your checkers on your point n (0 off the board)",
        )
        .func(
            "theirs",
            &[Type::Int],
            Type::Int,
            THEIRS_FN,
            "theirs(n): the opponent's checkers on your point n (0 off the board)",
        )
        .func(
            "mine_in",
            &[Type::Int, Type::Int],
            Type::Int,
            MINE_IN_FN,
            "mine_in(a, b): your checkers on your points a to b",
        )
        .func(
            "theirs_in",
            &[Type::Int, Type::Int],
            Type::Int,
            THEIRS_IN_FN,
            "theirs_in(a, b): the opponent's checkers on your points a to b",
        )
        .func(
            "moved_off",
            &[Type::Int],
            Type::Int,
            MOVED_OFF_FN,
            "moved_off(n): checkers moved off your point n earlier this turn",
        )
        .func(
            "pinned_mine",
            &[Type::Int],
            Type::Int,
            PINNED_MINE_FN,
            "pinned_mine(n): 1 when your checker on your point n is pinned, else 0",
        )
        .func(
            "pinned_theirs",
            &[Type::Int],
            Type::Int,
            PINNED_THEIRS_FN,
            "pinned_theirs(n): 1 when the opponent's checker on your point n is pinned, else 0",
        )
        .func(
            "remembered",
            &[Type::Int],
            Type::Bool,
            REMEMBERED_FN,
            "remembered(n): whether your `[[remember]]` table n (the first is 0) has held after a step of yours in this game (its `name` reads the same)",
        )
        .func(
            "stacked_at",
            &[Type::Int],
            Type::Int,
            STACKED_AT_FN,
            "stacked_at(n): your checkers standing stacked on your point n",
        )
}

/// One step as its conditions see it: the position (before the step for leave rules, after it
/// for step rules), the step, and the turn so far.
pub struct StepView<'a> {
    pub turn: &'a Turn,
    /// The mover's stacked checkers (`[stacks]`; 0 in other games).
    pub stacked: u64,
    pub board: &'a Board,
    pub lone: Lone,
    pub die: u8,
    pub from: usize,
    pub to: usize,
    /// The step lands on a lone opposing checker (hits or pins it).
    pub lands: bool,
    /// The steps played before this one.
    pub earlier: &'a [[u8; 2]],
    pub info: &'a TurnInfo<'a>,
}

impl StepView<'_> {
    fn mine(&self, n: i32) -> i32 {
        if (1..=self.board.points as i32).contains(&n) {
            i32::from(self.turn.me[n as usize])
        } else {
            0
        }
    }

    fn theirs(&self, n: i32) -> i32 {
        if (1..=self.board.points as i32).contains(&n) {
            i32::from(self.turn.opp[self.board.across(n as usize)])
        } else {
            0
        }
    }

    /// The longest run of consecutive points the mover blocks: its length and lowest point.
    fn longest_prime(&self) -> (usize, usize) {
        let (mut best, mut low, mut run) = (0, 0, 0);
        for n in 1..=self.board.points {
            if self.lone.blocks(self.turn.me[n]) {
                run += 1;
                if run > best {
                    (best, low) = (run, n + 1 - run);
                }
            } else {
                run = 0;
            }
        }
        (best, low)
    }

    /// Opposing checkers past the mover's longest prime: on their own points numbered below
    /// every point of it.
    fn prime_passed(&self) -> i32 {
        let (len, low) = self.longest_prime();
        if len == 0 {
            return 0;
        }
        let nearest = (low..low + len)
            .map(|n| self.board.across(n))
            .min()
            .unwrap_or(1);
        self.turn.opp[1..nearest]
            .iter()
            .map(|&c| i32::from(c))
            .sum()
    }
}

impl Vars for StepView<'_> {
    fn var(&self, slot: u16) -> i32 {
        let me = &self.turn.me;
        match slot {
            HOME_VAR => self.board.in_home(me),
            OFF_VAR => i32::from(me[OFF]),
            BAR_VAR => i32::from(me[BAR]),
            POOL_VAR => i32::from(me[POOL]),
            DIE_VAR => i32::from(self.die),
            FROM_VAR => self.board.distance(self.from) as i32,
            TO_VAR => self.to as i32,
            ENTERING_VAR => i32::from(self.from > self.board.points),
            HITS_VAR => i32::from(self.lands && self.lone == Lone::Hit),
            PINS_VAR => i32::from(self.lands && self.lone == Lone::Pin),
            DOUBLES_VAR => {
                let r = self.info.roll;
                i32::from(r.len() > 1 && r.iter().all(|&d| d == r[0]))
            }
            FIRST_TURN_VAR => i32::from(self.info.first_turn),
            PLAYED_VAR => self.earlier.len() as i32,
            PRIME_VAR => self.longest_prime().0 as i32,
            SIDE_VAR => i32::from(self.info.mover),
            THEIR_BAR_VAR => i32::from(self.turn.opp[BAR]),
            LOW_DIE_VAR => self.info.roll.iter().min().map_or(0, |&d| i32::from(d)),
            HIGH_DIE_VAR => self.info.roll.iter().max().map_or(0, |&d| i32::from(d)),
            STACKED_VAR => i32::from(stacked_total(self.stacked)),
            FOLLOW_VAR => i32::from(self.info.follow),
            // A strike is the one step moving nothing that hits (`n/n*`).
            STRIKES_VAR => i32::from(self.from == self.to && self.lands && self.from != 0),
            SCORED_VAR => i32::from(self.info.scored[usize::from(self.info.mover)]),
            THEIR_SCORED_VAR => i32::from(self.info.scored[1 - usize::from(self.info.mover)]),
            _ => self.prime_passed(),
        }
    }
    fn call(&self, slot: u16, args: &[i32]) -> i32 {
        let n = args.first().copied().unwrap_or(0);
        let m = args.get(1).copied().unwrap_or(0);
        match slot {
            MINE_FN => self.mine(n),
            STACKED_AT_FN => usize::try_from(n)
                .ok()
                .and_then(|n| self.board.stack_field(n))
                .map_or(0, |f| i32::from(stacked_at(self.stacked, f))),
            REMEMBERED_FN => i32::from((0..8).contains(&n) && self.turn.remembered & (1 << n) != 0),
            THEIRS_FN => self.theirs(n),
            MINE_IN_FN => (n.max(1)..=m.min(self.board.points as i32))
                .map(|k| self.mine(k))
                .sum(),
            THEIRS_IN_FN => (n.max(1)..=m.min(self.board.points as i32))
                .map(|k| self.theirs(k))
                .sum(),
            PINNED_MINE_FN if (1..=self.board.points as i32).contains(&n) => {
                i32::from(self.turn.my_pins & (1 << n) != 0)
            }
            PINNED_THEIRS_FN if (1..=self.board.points as i32).contains(&n) => {
                let a = self.board.across(n as usize);
                i32::from(self.turn.their_pins & (1 << a) != 0)
            }
            PINNED_MINE_FN | PINNED_THEIRS_FN => 0,
            _ => self
                .earlier
                .iter()
                .filter(|s| i32::from(s[0]) == n && usize::from(s[0]) <= self.board.points)
                .count() as i32,
        }
    }
}

const LOSER_OFF: u16 = 0;
const LOSER_LEFT: u16 = 1;
const GAMMON: u16 = 2;
const BACKGAMMON: u16 = 3;
const LOSER_PINNED: u16 = 4;

/// Names for `[[remember]] when`: the step names but `die` (a whole move's steps are
/// remembered when it is played, without their dice).
pub fn remember_scope() -> Scope {
    step_scope().without("die")
}

/// Names for `[scoring] points = "..."`.
pub fn scoring_scope() -> Scope {
    Scope::new()
        .var("loser_off", Type::Int, LOSER_OFF, "the loser's checkers borne off")
        .var(
            "loser_left",
            Type::Int,
            LOSER_LEFT,
            "the loser's checkers not borne off (on the board, the bar or in the pool)",
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
            "1 when the loser has borne off none and still has a checker on the bar, in the pool or in the winner's home table, else 0",
        )
        .var(
            "loser_pinned",
            Type::Int,
            LOSER_PINNED,
            "the loser's checkers pinned",
        )
        .func(
            "loser_in",
            &[Type::Int, Type::Int],
            Type::Int,
            LOSER_IN_FN,
            "the loser's checkers on its own points a to b",
        )
}

const LOSER_IN_FN: u16 = 0;

const AFTER_DOUBLES: u16 = 0;
const AFTER_DIE: u16 = 1;
const AFTER_PLAYED: u16 = 2;
const AFTER_PLY: u16 = 3;
const AFTER_FOLLOW: u16 = 4;
const AFTER_CHOSEN: u16 = 5;
const AFTER_FIRST: u16 = 6;
const AFTER_LOW: u16 = 7;
const AFTER_HIGH: u16 = 8;
const AFTER_PAIR: u16 = 9;
const AFTER_DICE: u16 = 10;
const AFTER_OPPONENT_CAN_MOVE: u16 = 11;
const AFTER_REMEMBERED_FN: u16 = 0;

/// The names of the step scope that mean the same once a turn is played, read on the position
/// it left from the mover's side (the step's own, and those the turn just played says
/// otherwise, left out).
const POSITION_NAMES: &[&str] = &[
    "scored",
    "their_scored",
    "home",
    "off",
    "bar",
    "pool",
    "their_bar",
    "prime",
    "prime_passed",
    "stacked",
    "side",
    "mine",
    "theirs",
    "mine_in",
    "theirs_in",
    "pinned_mine",
    "pinned_theirs",
    "stacked_at",
];

/// Where the slots of the position names start in the scope of the turn just played.
const POSITION_SLOTS: u16 = 64;

/// Names for `[[dice.after]]` and `[[score]]`: the turn just played, and the position it left.
pub fn after_scope() -> Scope {
    let mut scope = turn_scope();
    for name in step_scope().names() {
        if !POSITION_NAMES.contains(&name.name) {
            continue;
        }
        scope = match name.kind {
            NameKind::Var { slot } => {
                scope.var(name.name, name.ty, POSITION_SLOTS + slot, name.help)
            }
            NameKind::Func { args, slot } => {
                scope.func(name.name, args, name.ty, POSITION_SLOTS + slot, name.help)
            }
            NameKind::Const { .. } => scope,
        };
    }
    scope
}

/// The names of the turn just played.
fn turn_scope() -> Scope {
    Scope::new()
        .var(
            "doubles",
            Type::Bool,
            AFTER_DOUBLES,
            "the turn's dice all showed the same number",
        )
        .var("die", Type::Int, AFTER_DIE, "the turn's first die (a double's number)")
        .var(
            "dice",
            Type::Int,
            AFTER_DICE,
            "how many dice the turn had (2 for a double given)",
        )
        .var("low_die", Type::Int, AFTER_LOW, "the turn's lowest die")
        .var("high_die", Type::Int, AFTER_HIGH, "the turn's highest die")
        .var(
            "pair_die",
            Type::Int,
            AFTER_PAIR,
            "the number two of the turn's dice show (0 when no two show the same)",
        )
        .var(
            "played",
            Type::Int,
            AFTER_PLAYED,
            "the steps the turn played (4 for a double played in full)",
        )
        .var(
            "ply",
            Type::Int,
            AFTER_PLY,
            "turns played in this game before this one, of both players",
        )
        .var(
            "follow",
            Type::Int,
            AFTER_FOLLOW,
            "how many turns in a row, up to this one, a `[[dice.after]]` double gave (0: a rolled turn)",
        )
        .var(
            "first",
            Type::Int,
            AFTER_FIRST,
            "the first die thrown of the turn that began this run of turns (the double that began a run of given doubles)",
        )
        .var(
            "opponent_can_move",
            Type::Bool,
            AFTER_OPPONENT_CAN_MOVE,
            "some throw would let the opponent play a die from the position the turn left (every throw is tried: read it last in an `and`)",
        )
        .var(
            "chosen",
            Type::Int,
            AFTER_CHOSEN,
            "the double the mover chose after a `[dice.bonus]` roll (0 on other turns, and when none was played)",
        )
        .func(
            "remembered",
            &[Type::Int],
            Type::Bool,
            AFTER_REMEMBERED_FN,
            "remembered(n): whether the mover's `[[remember]]` table n (the first is 0) has held after a step of theirs in this game, this turn's included (its `name` reads the same)",
        )
}

/// A turn just played, for `[[dice.after]]` and `[[score]]`.
pub struct AfterView<'a> {
    /// The position the turn left, from the mover's side.
    pub position: &'a StepView<'a>,
    pub roll: &'a [u8],
    pub played: usize,
    pub ply: u32,
    pub follow: u8,
    /// The double chosen after a bonus roll, 0 if none.
    pub chosen: u8,
    /// The first die thrown of the turn that began the run.
    pub first: u8,
    /// The mover's `[[remember]]` bits once the turn is played.
    pub remembered: u8,
    /// Whether some throw would let the opponent play a die now, worked out when read.
    pub opponent_can_move: &'a dyn Fn() -> bool,
}

/// The number two of `roll`'s dice show (the higher, were there two such numbers).
fn pair(roll: &[u8]) -> Option<u8> {
    let shown_twice = |&d: &u8| roll.iter().filter(|&&e| e == d).count() >= 2;
    roll.iter().copied().filter(shown_twice).max()
}

impl Vars for AfterView<'_> {
    fn var(&self, slot: u16) -> i32 {
        match slot {
            POSITION_SLOTS.. => self.position.var(slot - POSITION_SLOTS),
            AFTER_DOUBLES => i32::from(self.roll.windows(2).all(|w| w[0] == w[1])),
            AFTER_DIE => self.roll.first().map_or(0, |&d| i32::from(d)),
            AFTER_PLAYED => self.played as i32,
            AFTER_PLY => self.ply.min(i32::MAX as u32) as i32,
            AFTER_CHOSEN => i32::from(self.chosen),
            AFTER_FIRST => i32::from(self.first),
            AFTER_LOW => self.roll.iter().min().map_or(0, |&d| i32::from(d)),
            AFTER_HIGH => self.roll.iter().max().map_or(0, |&d| i32::from(d)),
            AFTER_PAIR => pair(self.roll).map_or(0, i32::from),
            AFTER_DICE => self.roll.len() as i32,
            AFTER_OPPONENT_CAN_MOVE => i32::from((self.opponent_can_move)()),
            _ => i32::from(self.follow),
        }
    }

    fn call(&self, slot: u16, args: &[i32]) -> i32 {
        if slot >= POSITION_SLOTS {
            return self.position.call(slot - POSITION_SLOTS, args);
        }
        debug_assert_eq!(slot, AFTER_REMEMBERED_FN);
        let n = args[0];
        i32::from((0..8).contains(&n) && self.remembered & (1 << n) != 0)
    }
}

/// A finished game from the winner's side.
pub struct ScoreView<'a> {
    pub loser: &'a Side,
    pub loser_pins: u64,
    pub board: &'a Board,
}

impl Vars for ScoreView<'_> {
    fn var(&self, slot: u16) -> i32 {
        let off = i32::from(self.loser[OFF]);
        let left: i32 = self.loser[1..].iter().map(|&c| i32::from(c)).sum();
        // The winner's home table on the loser's numbering.
        let deep = self.loser[BAR] > 0
            || self.loser[POOL] > 0
            || (1..=self.board.home).any(|n| self.loser[self.board.across(n)] > 0);
        match slot {
            LOSER_OFF => off,
            LOSER_LEFT => left,
            GAMMON => i32::from(off == 0),
            BACKGAMMON => i32::from(off == 0 && deep),
            _ => self.loser_pins.count_ones() as i32,
        }
    }

    fn call(&self, slot: u16, args: &[i32]) -> i32 {
        debug_assert_eq!(slot, LOSER_IN_FN);
        let (a, b) = (args[0].max(1), args[1].min(self.board.points as i32));
        (a..=b).map(|n| i32::from(self.loser[n as usize])).sum()
    }
}

/// The names of `[ai] evaluate`, each measure for the player valued (`mover`) then for the
/// opponent: slot `2 * measure + whose`.
const EVALUATION_NAMES: [(&str, &str); 10] = [
    ("mover.off", "checkers borne off by the player valued"),
    ("opponent.off", "checkers borne off by the opponent"),
    ("mover.bar", "checkers of the player valued on the bar"),
    ("opponent.bar", "checkers of the opponent on the bar"),
    (
        "mover.pips",
        "the pip count of the player valued: the distance their checkers still have to travel",
    ),
    ("opponent.pips", "the pip count of the opponent"),
    (
        "mover.home",
        "checkers of the player valued in their home table",
    ),
    (
        "opponent.home",
        "checkers of the opponent in their home table",
    ),
    (
        "mover.blots",
        "points where the player valued has a single checker",
    ),
    (
        "opponent.blots",
        "points where the opponent has a single checker",
    ),
];
const EVAL_OFF: u16 = 0;
const EVAL_BAR: u16 = 1;
const EVAL_PIPS: u16 = 2;
const EVAL_HOME: u16 = 3;

/// Names for `[ai] evaluate = "..."`.
pub fn evaluation_scope() -> Scope {
    EVALUATION_NAMES
        .iter()
        .zip(0..)
        .fold(Scope::new(), |s, (&(name, help), slot)| {
            s.var(name, Type::Int, slot, help)
        })
}

/// A position valued for `player`.
pub struct EvalView<'a> {
    pub pos: &'a Position,
    pub board: &'a Board,
    pub player: usize,
}

impl Vars for EvalView<'_> {
    fn var(&self, slot: u16) -> i32 {
        let side = &self.pos.sides[self.player ^ usize::from(slot % 2)];
        match slot / 2 {
            EVAL_OFF => i32::from(side[OFF]),
            EVAL_BAR => i32::from(side[BAR]),
            EVAL_PIPS => self.board.pips(side),
            EVAL_HOME => self.board.in_home(side),
            _ => self.board.blots(side),
        }
    }
}
