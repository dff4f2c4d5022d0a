//! The names rules expressions may use, per context, and how they are evaluated.
//!
//! A pit "view" (`pit`, `last`, `next`, `beyond`, `opposite`, `origin`) has the same fields in
//! every context that offers it. A condition that reads only one view's fields plus `mover` and
//! `opponent` depends only on (mover, pit, stones in that pit), so it is tabulated once at compile
//! time and a test during play is one bit look-up.

use super::board::{Board, Geometry, NO_SLOT, SLOTS, STORE};
use ludus_core::expr::{Expr, Scope, Type, Vars};

/// The pit views, each a block of [`ATTRS`] slots (a power of two: a view and its field are a
/// shift and a mask of the slot).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Pit = 0,
    Last = 1,
    Next = 2,
    Beyond = 3,
    Opposite = 4,
    Origin = 5,
    Behind = 6,
    /// The pit the move played just before this one started from (a start condition's
    /// memory of the last move).
    PreviousOrigin = 7,
    /// Where the last stone of the move played just before this one fell.
    PreviousLast = 8,
    /// The pit before `last` along the way the move sowed (`house.when`, `sowing.relay_when`).
    Prior = 9,
}
pub(crate) const VIEWS: usize = 10;
/// `pit`, then the views once a sowing (or a lap) has ended, `prior` last: `pit` is the pit
/// a capture's `take_max` takes from.
const PIT_AND_AFTER: &[View] = &[
    View::Pit,
    View::Last,
    View::Next,
    View::Beyond,
    View::Opposite,
    View::Behind,
    View::Origin,
    View::Prior,
];
/// The views once a sowing (or a lap) has ended.
const AFTER_SOWING: &[View] = PIT_AND_AFTER.split_at(1).1;
impl View {
    /// Whether `expr` reads a field of this view.
    pub(crate) fn read_by(self, expr: &Expr) -> bool {
        let base = self as u16 * ATTRS;
        (base..base + FIELDS).any(|s| expr.reads(s))
    }
}

/// The fields of a view.
const FIELDS: u16 = 12;
const ATTRS: u16 = 16;
const _: () = assert!(FIELDS <= ATTRS);
const COUNT: u16 = 0;
const SIDE: u16 = 1;
const NUMBER: u16 = 2;
const ROW: u16 = 3;
const COLUMN: u16 = 4;
const IS_STORE: u16 = 5;
const OPEN: u16 = 6;
const EXISTS: u16 = 7;
const HOUSE: u16 = 8;
const FACING: u16 = 9;
const LOCKED: u16 = 10;
const HOME: u16 = 11;
const _: () = assert!(
    VIEWS as u16 * ATTRS <= MOVER,
    "the view fields fit below the names"
);

const MOVER: u16 = 160;
const OPPONENT: u16 = 161;
const SOWN: u16 = 162;
const LAPS: u16 = 163;
const RELAYS: u16 = 164;
const CAPTURED: u16 = 165;
const GRAND_SLAM: u16 = 166;
const PLY: u16 = 167;
const MOVER_STORE: u16 = 168;
const OPPONENT_STORE: u16 = 169;
const MOVER_PITS: u16 = 170;
const OPPONENT_PITS: u16 = 171;
const MOVER_HOUSE: u16 = 172;
const OPPONENT_HOUSE: u16 = 173;
const HAND: u16 = 174;
const MOVER_MOST: u16 = 178;
const OPPONENT_MOST: u16 = 179;
const MOVER_OCCUPIED: u16 = 180;
const OPPONENT_OCCUPIED: u16 = 181;
const MOVER_WON: u16 = 182;
const OPPONENT_WON: u16 = 183;
const MOVER_HELD: u16 = 184;
const OPPONENT_HELD: u16 = 185;
const MOVER_HOUSES: u16 = 186;
const OPPONENT_HOUSES: u16 = 187;
const PREVIOUS_LIFTED: u16 = 188;
const MOVER_WAY: u16 = 189;
const OPPONENT_WAY: u16 = 190;
const MOVER_HOUSED: u16 = 191;
const OPPONENT_HOUSED: u16 = 192;
const MOVER_LOCKED: u16 = 193;
const OPPONENT_LOCKED: u16 = 194;
const TAKEN: u16 = 195;
const MOVER_STAGE: u16 = 196;
const OPPONENT_STAGE: u16 = 197;
const MOVER_TO_PLACE: u16 = 198;
const OPPONENT_TO_PLACE: u16 = 199;
const LIFT: u16 = 200;
const MOVER_OWNED: u16 = 201;
const OPPONENT_OWNED: u16 = 202;
const CROSSED: u16 = 203;
const PREVIOUS_CAPTURED: u16 = 204;
const STEPS: u16 = 205;
const LIFTED: u16 = 206;
const PREVIOUS_WAY: u16 = 207;
const PREVIOUS_BETWEEN: u16 = 208;
const OPPONENT_HAD: u16 = 209;
const OWN: u16 = 176;
const THEIR: u16 = 177;

/// `names[view][attr]`: every view field spelt out (scope names are static strings).
const NAMES: [[&str; FIELDS as usize]; VIEWS] = [
    [
        "pit.count",
        "pit.side",
        "pit.number",
        "pit.row",
        "pit.column",
        "pit.is_store",
        "pit.open",
        "pit.exists",
        "pit.house",
        "pit.facing",
        "pit.locked",
        "pit.home",
    ],
    [
        "last.count",
        "last.side",
        "last.number",
        "last.row",
        "last.column",
        "last.is_store",
        "last.open",
        "last.exists",
        "last.house",
        "last.facing",
        "last.locked",
        "last.home",
    ],
    [
        "next.count",
        "next.side",
        "next.number",
        "next.row",
        "next.column",
        "next.is_store",
        "next.open",
        "next.exists",
        "next.house",
        "next.facing",
        "next.locked",
        "next.home",
    ],
    [
        "beyond.count",
        "beyond.side",
        "beyond.number",
        "beyond.row",
        "beyond.column",
        "beyond.is_store",
        "beyond.open",
        "beyond.exists",
        "beyond.house",
        "beyond.facing",
        "beyond.locked",
        "beyond.home",
    ],
    [
        "opposite.count",
        "opposite.side",
        "opposite.number",
        "opposite.row",
        "opposite.column",
        "opposite.is_store",
        "opposite.open",
        "opposite.exists",
        "opposite.house",
        "opposite.facing",
        "opposite.locked",
        "opposite.home",
    ],
    [
        "origin.count",
        "origin.side",
        "origin.number",
        "origin.row",
        "origin.column",
        "origin.is_store",
        "origin.open",
        "origin.exists",
        "origin.house",
        "origin.facing",
        "origin.locked",
        "origin.home",
    ],
    [
        "behind.count",
        "behind.side",
        "behind.number",
        "behind.row",
        "behind.column",
        "behind.is_store",
        "behind.open",
        "behind.exists",
        "behind.house",
        "behind.facing",
        "behind.locked",
        "behind.home",
    ],
    [
        "previous_origin.count",
        "previous_origin.side",
        "previous_origin.number",
        "previous_origin.row",
        "previous_origin.column",
        "previous_origin.is_store",
        "previous_origin.open",
        "previous_origin.exists",
        "previous_origin.house",
        "previous_origin.facing",
        "previous_origin.locked",
        "previous_origin.home",
    ],
    [
        "previous_last.count",
        "previous_last.side",
        "previous_last.number",
        "previous_last.row",
        "previous_last.column",
        "previous_last.is_store",
        "previous_last.open",
        "previous_last.exists",
        "previous_last.house",
        "previous_last.facing",
        "previous_last.locked",
        "previous_last.home",
    ],
    [
        "prior.count",
        "prior.side",
        "prior.number",
        "prior.row",
        "prior.column",
        "prior.is_store",
        "prior.open",
        "prior.exists",
        "prior.house",
        "prior.facing",
        "prior.locked",
        "prior.home",
    ],
];

const ATTR_HELP: [(Type, &str); FIELDS as usize] = [
    (Type::Int, "stones in the pit now"),
    (Type::Player, "the pit's owner"),
    (
        Type::Int,
        "the pit's number in its owner's numbering (0 for a store)",
    ),
    (
        Type::Int,
        "the pit's row from its owner's seat, 1 = the row facing the opponent",
    ),
    (Type::Int, "the pit's column from its owner's left, 1.."),
    (Type::Bool, "the pit is a store"),
    (Type::Bool, "the pit is in play (not closed for this round)"),
    (
        Type::Bool,
        "there is such a pit (false: opposite of a store, off the circuit)",
    ),
    (
        Type::Player,
        "the player whose house the pit is (nobody, equal to neither player, when it is none)",
    ),
    (
        Type::Int,
        "stones in the pit facing this one across the board (0 when there is none or it is out of play)",
    ),
    (
        Type::Bool,
        "the pit is locked: no move has been sown from it yet in this game or round (`sowing.locks`), or `sowing.lock_when` locked it and `unlock_when` has not unlocked it",
    ),
    (
        Type::Player,
        "the player on whose side of the board the pit lies, whoever holds it now (`side`)",
    ),
];

/// Where an expression is evaluated; each offers its own names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    /// `sowing.start`: may a move start from `pit`?
    Start,
    /// `sowing.take`: after each drop into `pit`.
    Drop,
    /// `sowing.skip`: before each drop, is `pit` passed over?
    Skip,
    /// `sowing.relay_when`: at a lap's end, before a relay lift.
    Relay,
    /// `capture.when`: once the sowing has ended.
    Capture,
    /// `capture.take_max`: the most a capture takes from `pit`, one of the pits it takes.
    Take,
    /// `capture.chain`: each pit walking back from the first target.
    Chain,
    /// `house.when`: once the sowing has ended, may the last pit become the mover's house?
    House,
    /// `turn.again`: after the capture.
    Again,
    /// `end.win`: after every move, from each player's side.
    Win,
    /// `end.score`: after every move.
    Score,
    /// `end.stop`: after every move, before the other endings.
    Stop,
    /// `ai.evaluate`: a position's value for the search players, `mover` being the player it
    /// is valued for.
    Evaluate,
    /// `match.points`: at the end of a round, the points it gives `mover`.
    Round,
    /// `capture.sweep`: after a move's capture step, does the mover take every stone left?
    Sweep,
    /// `turn.give`: at the start of a turn, must the player to move give a stone instead?
    Give,
    /// `sowing.lift_when`: may the mover lift `lift` stones from `pit` (a pit or their store)?
    Lift,
    /// `match.arranged_stop`: may the player arranging a round keep the stones still in hand?
    Arrange,
    /// `sowing.lock_when`, `sowing.unlock_when`: as the sowing begins and after every move,
    /// is `pit` locked (or unlocked)?
    Lock,
    /// `sowing.opening`: in the first move of a game or round, the change to `pit`.
    Opening,
}

impl Context {
    pub const ALL: [Context; 20] = [
        Context::Start,
        Context::Drop,
        Context::Skip,
        Context::Relay,
        Context::Capture,
        Context::Take,
        Context::Chain,
        Context::House,
        Context::Again,
        Context::Win,
        Context::Score,
        Context::Stop,
        Context::Evaluate,
        Context::Round,
        Context::Sweep,
        Context::Give,
        Context::Lift,
        Context::Arrange,
        Context::Lock,
        Context::Opening,
    ];
    pub fn key(self) -> &'static str {
        match self {
            Context::Start => "sowing.start",
            Context::Drop => "sowing.take",
            Context::Skip => "sowing.skip",
            Context::Relay => "sowing.relay_when",
            Context::Capture => "capture.when",
            Context::Take => "capture.take_max",
            Context::Chain => "capture.chain",
            Context::House => "house.when",
            Context::Again => "turn.again",
            Context::Win => "end.win",
            Context::Score => "end.score",
            Context::Stop => "end.stop",
            Context::Evaluate => "ai.evaluate",
            Context::Round => "match.points",
            Context::Sweep => "capture.sweep",
            Context::Give => "turn.give",
            Context::Lift => "sowing.lift_when",
            Context::Arrange => "match.arranged_stop",
            Context::Lock => "sowing.lock_when",
            Context::Opening => "sowing.opening",
        }
    }
    fn views(self) -> &'static [View] {
        match self {
            Context::Start | Context::Lift => {
                &[View::Pit, View::PreviousOrigin, View::PreviousLast]
            }
            // `origin`: the move's pit or store (a store sown back may take as it goes).
            Context::Drop | Context::Skip | Context::Opening => &[View::Pit, View::Origin],
            // The views once a sowing has ended; `prior` is not looked up for a capture.
            Context::Capture => &AFTER_SOWING[..6],
            // The capture's views and `pit`, the pit taken.
            Context::Take => &PIT_AND_AFTER[..7],
            Context::House | Context::Relay => AFTER_SOWING,
            Context::Chain | Context::Lock => &[View::Pit, View::Last, View::Origin],
            Context::Again => &[View::Last, View::Origin],
            Context::Win
            | Context::Score
            | Context::Stop
            | Context::Evaluate
            | Context::Round
            | Context::Sweep
            | Context::Give
            | Context::Arrange => &[],
        }
    }

    /// The names of this context.
    pub fn scope(self, total: i32) -> Scope {
        let mut s = Scope::new();
        for &v in self.views() {
            for a in 0..FIELDS {
                let (ty, help) = ATTR_HELP[a as usize];
                s = s.var(
                    NAMES[v as usize][a as usize],
                    ty,
                    v as u16 * ATTRS + a,
                    help,
                );
            }
        }
        s = s
            .var(
                "mover",
                Type::Player,
                MOVER,
                "the player moving (who just moved, in end.score; the player it is checked for, in end.win; the player valued, in ai.evaluate)",
            )
            .var("opponent", Type::Player, OPPONENT, "the mover's opponent")
            .var("ply", Type::Int, PLY, "plies played before this move")
            .var(
                "mover.store",
                Type::Int,
                MOVER_STORE,
                "stones in the mover's store (captured)",
            )
            .var(
                "opponent.store",
                Type::Int,
                OPPONENT_STORE,
                "stones in the opponent's store",
            )
            .var(
                "mover.pits",
                Type::Int,
                MOVER_PITS,
                "stones in the mover's pits in play",
            )
            .var(
                "opponent.pits",
                Type::Int,
                OPPONENT_PITS,
                "stones in the opponent's pits in play",
            )
            .var(
                "mover.most",
                Type::Int,
                MOVER_MOST,
                "the most stones in one of the mover's pits in play",
            )
            .var(
                "opponent.most",
                Type::Int,
                OPPONENT_MOST,
                "the most stones in one of the opponent's pits in play",
            )
            .var(
                "mover.occupied",
                Type::Int,
                MOVER_OCCUPIED,
                "the mover's pits in play that hold stones",
            )
            .var(
                "opponent.occupied",
                Type::Int,
                OPPONENT_OCCUPIED,
                "the opponent's pits in play that hold stones",
            )
            .var(
                "mover.owned",
                Type::Int,
                MOVER_OWNED,
                "the pits in play the mover holds now, houses left out (their side's, or as rounds changed owners)",
            )
            .var(
                "opponent.owned",
                Type::Int,
                OPPONENT_OWNED,
                "the pits in play the opponent holds now, houses left out",
            )
            .var(
                "mover.house",
                Type::Int,
                MOVER_HOUSE,
                "the number of the mover's house pit, in the numbering of the side it is on (0: none)",
            )
            .var(
                "opponent.house",
                Type::Int,
                OPPONENT_HOUSE,
                "the number of the opponent's house pit, in the numbering of the side it is on (0: none)",
            )
            .var(
                "mover.houses",
                Type::Int,
                MOVER_HOUSES,
                "the houses the mover holds",
            )
            .var(
                "mover.stage",
                Type::Int,
                MOVER_STAGE,
                "the mover's stage (turn.stages): 0 at the start of a game or round",
            )
            .var(
                "opponent.stage",
                Type::Int,
                OPPONENT_STAGE,
                "the opponent's stage (turn.stages)",
            )
            .var(
                "mover.to_place",
                Type::Int,
                MOVER_TO_PLACE,
                "the stones the mover still holds to place before the sowing (setup.to_place)",
            )
            .var(
                "opponent.to_place",
                Type::Int,
                OPPONENT_TO_PLACE,
                "the stones the opponent still holds to place before the sowing",
            )
            .var(
                "opponent.houses",
                Type::Int,
                OPPONENT_HOUSES,
                "the houses the opponent holds",
            )
            .var(
                "mover.housed",
                Type::Int,
                MOVER_HOUSED,
                "stones in the mover's houses (0 unless `[house] keeps`)",
            )
            .var(
                "opponent.housed",
                Type::Int,
                OPPONENT_HOUSED,
                "stones in the opponent's houses (0 unless `[house] keeps`)",
            )
            .var(
                "mover.locked",
                Type::Int,
                MOVER_LOCKED,
                "the mover's pits in play still locked (0 unless `sowing.locks` or `lock_when`)",
            )
            .var(
                "opponent.locked",
                Type::Int,
                OPPONENT_LOCKED,
                "the opponent's pits in play still locked (0 unless `sowing.locks` or `lock_when`)",
            )
            .constant("total", Type::Int, total, "stones in the game")
            .func(
                "own",
                &[Type::Int],
                Type::Int,
                OWN,
                "stones in the mover's pit with this number (0 when it is out of play)",
            )
            .func(
                "their",
                &[Type::Int],
                Type::Int,
                THEIR,
                "stones in the opponent's pit with this number (0 when it is out of play)",
            );
        if matches!(
            self,
            Context::Drop
                | Context::Skip
                | Context::Relay
                | Context::Capture
                | Context::Take
                | Context::Chain
                | Context::House
                | Context::Again
                | Context::Sweep
        ) {
            s = s
                .var(
                    "sown",
                    Type::Int,
                    SOWN,
                    "stones dropped so far in this move",
                )
                .var(
                    "lifted",
                    Type::Int,
                    LIFTED,
                    "stones the move lifted from its pit (or store) to begin, before any relay",
                )
                .var(
                    "laps",
                    Type::Int,
                    LAPS,
                    "full laps of the circuit sown so far in this move",
                )
                .var(
                    "relays",
                    Type::Int,
                    RELAYS,
                    "relay lifts so far in this move",
                )
                .var(
                    "crossed",
                    Type::Bool,
                    CROSSED,
                    "this move has dropped a stone into a pit on the opponent's side of the board",
                );
            // Read once a lap has ended, not drop by drop.
            if !matches!(self, Context::Drop | Context::Skip) {
                s = s
                    .var(
                        "captured",
                        Type::Int,
                        CAPTURED,
                        "stones captured so far by this move (counted up to 65535; in turn.again and capture.sweep, by the whole move)",
                    )
                    .var(
                        "taken",
                        Type::Int,
                        TAKEN,
                        "stones sowing.take has taken so far in this move, to whichever store (in turn.again and capture.sweep, in the whole move)",
                    );
            }
            if matches!(self, Context::Capture | Context::Chain) {
                s = s.var(
                    "opponent_had",
                    Type::Int,
                    OPPONENT_HAD,
                    "stones in the opponent's pits in play when the move began (a grand slam counted only against an opponent who had some)",
                );
            }
        }
        if self == Context::Round {
            s = s
                .var(
                    "mover.won",
                    Type::Int,
                    MOVER_WON,
                    "1 when the mover won the round just over, else 0",
                )
                .var(
                    "opponent.won",
                    Type::Int,
                    OPPONENT_WON,
                    "1 when the opponent won the round just over, else 0",
                )
                .var(
                    "mover.held",
                    Type::Int,
                    MOVER_HELD,
                    "stones the mover holds at the end of the round (store and pits)",
                )
                .var(
                    "opponent.held",
                    Type::Int,
                    OPPONENT_HELD,
                    "stones the opponent holds at the end of the round (store and pits)",
                );
        }
        if self == Context::Drop {
            s = s.var(
                "hand",
                Type::Int,
                HAND,
                "stones still in hand after this drop (0: the lap's last stone; in sowing.drops, before the drop)",
            );
        }
        if self == Context::Opening {
            s = s.var(
                "steps",
                Type::Int,
                STEPS,
                "the pit's distance from `origin` along the mover's circuit, the way the rules sow (0: the origin)",
            );
        }
        if self == Context::Lift {
            s = s.var(
                "lift",
                Type::Int,
                LIFT,
                "the stones the mover would lift (1 up to all those in `pit`)",
            );
        }
        if matches!(self, Context::Start | Context::Lift) {
            s = s
                .var(
                    "previous_lifted",
                    Type::Int,
                    PREVIOUS_LIFTED,
                    "stones the move played just before this one lifted from its pit (0: none, a pass, or the game's first move)",
                )
                .var(
                    "previous_captured",
                    Type::Int,
                    PREVIOUS_CAPTURED,
                    "stones the move played just before this one captured (0: none, a pass, or the game's first move)",
                )
                .var(
                    "previous_between",
                    Type::Int,
                    PREVIOUS_BETWEEN,
                    "the pits holding stones strictly between previous_last and pit, along the circuit the rules sow (0: no move before)",
                )
                .var(
                    "previous_way",
                    Type::Int,
                    PREVIOUS_WAY,
                    "the way round the move played just before this one began: 1 the rules' direction, 2 the other way (0: none, a pass, or the game's first move)",
                )
                .var(
                    "mover.way",
                    Type::Int,
                    MOVER_WAY,
                    "the way round the mover chose at their first move of this game sown from a pit `direction_choice` allowed either way: 0 not yet, 1 the rules' direction, 2 the other way",
                )
                .var(
                    "opponent.way",
                    Type::Int,
                    OPPONENT_WAY,
                    "the way round the opponent chose at their first move of this game sown from a pit `direction_choice` allowed either way: 0 not yet, 1 the rules' direction, 2 the other way",
                );
        }
        if self == Context::Skip {
            s = s.var(
                "hand",
                Type::Int,
                HAND,
                "stones that would still be in hand after a drop into this pit (0: the lap's last stone)",
            );
        }
        if matches!(self, Context::Again | Context::Sweep) {
            s = s.var(
                "grand_slam",
                Type::Bool,
                GRAND_SLAM,
                "this move captured every stone the opponent had in their pits",
            );
        }
        s
    }
}

/// What a start condition remembers of the game.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Remembers {
    /// The move before (`previous_origin`, `previous_last`, `previous_lifted`).
    pub(crate) previous: bool,
    /// The way round each player first chose (`mover.way`, `opponent.way`).
    pub(crate) ways: bool,
}

/// Whether `expr` reads the opponent's stones at the move's start (`opponent_had`).
pub(crate) fn reads_opponent_had(expr: &Expr) -> bool {
    expr.reads(OPPONENT_HAD)
}

impl Remembers {
    /// What `expr` reads of the game's memory.
    pub(crate) fn of(expr: &Expr) -> Remembers {
        let names = [
            PREVIOUS_LIFTED,
            PREVIOUS_CAPTURED,
            PREVIOUS_WAY,
            PREVIOUS_BETWEEN,
        ];
        Remembers {
            previous: View::PreviousOrigin.read_by(expr)
                || View::PreviousLast.read_by(expr)
                || names.iter().any(|&s| expr.reads(s)),
            ways: expr.reads(MOVER_WAY) || expr.reads(OPPONENT_WAY),
        }
    }
    pub(crate) fn or(self, other: Remembers) -> Remembers {
        Remembers {
            previous: self.previous || other.previous,
            ways: self.ways || other.ways,
        }
    }
}

/// Everything an expression can read, at one moment of a move.
pub struct Ctx<'a> {
    pub board: &'a Board,
    pub geo: &'a Geometry,
    pub views: [u8; VIEWS],
    pub mover: usize,
    pub ply: u32,
    pub sown: u32,
    /// Stones the move lifted from its pit (or store) to begin (its first lift).
    pub lifted: u32,
    pub relays: u32,
    /// Stones still in hand (a drop's context), or the stones the mover would lift (a lift's).
    pub hand: u32,
    /// Stones the move before lifted (a start condition's context).
    pub previous_lifted: u32,
    /// Stones the move before captured (a start condition's context).
    pub previous_captured: u32,
    /// The way round the move before began (a start condition's context): 0 none, 1 the
    /// rules' direction, 2 the other way.
    pub previous_way: u8,
    /// The way round of each player's first move (a start condition's context).
    pub ways: [u8; 2],
    pub captured: u32,
    /// Stones `sowing.take` took during the move.
    pub taken: u32,
    /// Slots the move has dropped stones into (bit = slot).
    pub visited: u64,
    pub grand_slam: bool,
    /// Stones in the opponent's pits in play when the move began (read by a capture's
    /// conditions only, and worked out only for them).
    pub opponent_had: u32,
    /// The winner of the round just over (a round's points), [`NO_WINNER`] otherwise.
    pub winner: u8,
}

/// [`Ctx::winner`] when no round has a winner.
pub const NO_WINNER: u8 = 2;
/// A player field naming nobody (`V.house` of a pit that is no house): equal to neither player.
const NOBODY: i32 = 2;

impl<'a> Ctx<'a> {
    pub fn new(board: &'a Board, geo: &'a Geometry, mover: usize, ply: u32) -> Self {
        Ctx {
            board,
            geo,
            views: [NO_SLOT; VIEWS],
            mover,
            ply,
            sown: 0,
            lifted: 0,
            relays: 0,
            hand: 0,
            previous_lifted: 0,
            previous_captured: 0,
            previous_way: 0,
            ways: [0; 2],
            captured: 0,
            taken: 0,
            visited: 0,
            grand_slam: false,
            opponent_had: 0,
            winner: NO_WINNER,
        }
    }
    /// The number of player p's house (the first in slot order when several), 0 for none.
    fn house_number(&self, p: usize) -> i32 {
        match self.board.houses[p] {
            0 => 0,
            h => i32::from(self.geo.number[h.trailing_zeros() as usize]),
        }
    }
    /// The stones of each of the pits in play player `p` holds (houses, which keep stones for
    /// their owners where they keep any, left out).
    fn side_counts(&self, p: usize) -> impl Iterator<Item = i32> + '_ {
        let held = self.geo.held_mask(self.board, p)
            & !self.board.closed_mask()
            & !self.board.house_mask();
        (0..2 * self.geo.n)
            .filter(move |&s| held >> s & 1 == 1)
            .map(|s| i32::from(self.board.count[s]))
    }

    /// The pits in play holding stones strictly after `previous_last` and before `pit` along
    /// the mover's circuit (`previous_between`); 0 without a move before.
    fn between_previous(&self) -> i32 {
        let (from, to) = (
            self.views[View::PreviousLast as usize],
            self.views[View::Pit as usize],
        );
        if from == NO_SLOT || to == NO_SLOT {
            return 0;
        }
        let next = &self.geo.next[self.mover];
        let (mut s, mut between) = (usize::from(from), 0);
        // A circuit is at most every slot long; a pit off it counts the whole circuit.
        for _ in 0..SLOTS {
            s = usize::from(next[s]);
            if s >= SLOTS || s == usize::from(to) {
                break;
            }
            if s < STORE && !self.board.is_closed(s) && self.board.count[s] > 0 {
                between += 1;
            }
        }
        between
    }

    /// Player `p`'s pits in play still locked (`sowing.locks`).
    fn locked(&self, p: usize) -> i32 {
        let held = self.geo.held_mask(self.board, p) & !self.board.closed_mask();
        (self.board.locked & held).count_ones() as i32
    }

    /// Stones player `p` holds: store, houses and the other pits they hold, in play or not.
    fn held(&self, p: usize) -> i32 {
        let pits = self.geo.owned_mask(self.board, p);
        let on_board: i32 = (0..2 * self.geo.n)
            .filter(|&s| pits >> s & 1 == 1)
            .map(|s| i32::from(self.board.count[s]))
            .sum();
        i32::from(self.board.store(p)) + on_board
    }

    /// Stones in the pits in play player `p` holds (a closed pit's stones are out of the round).
    fn side_total(&self, p: usize) -> i32 {
        if self.board.closed == 0 && self.board.ceded == 0 {
            // Every pit in play, on its side's player (every game but a match's later rounds):
            // a plain sum, less the houses on that side where houses keep stones.
            let pits = &self.board.count[p * self.geo.n..(p + 1) * self.geo.n];
            let sum: i32 = pits.iter().map(|&c| i32::from(c)).sum();
            return match self.geo.kept_houses {
                true => sum - self.board.housed(self.geo.side_mask[p]) as i32,
                false => sum,
            };
        }
        self.side_counts(p).sum()
    }
}

impl Vars for Ctx<'_> {
    fn var(&self, slot: u16) -> i32 {
        if slot < VIEWS as u16 * ATTRS {
            let s = self.views[usize::from(slot / ATTRS)];
            if s == NO_SLOT {
                return match slot % ATTRS {
                    HOUSE | HOME => NOBODY,
                    _ => 0,
                };
            }
            let s = usize::from(s);
            let g = self.geo;
            let place = |i: usize| -> i32 {
                if g.is_pit(s) {
                    let (row, col) = g.place[s % g.n];
                    i32::from(if i == 0 { row } else { col })
                } else {
                    0
                }
            };
            return match slot % ATTRS {
                COUNT => i32::from(self.board.count[s]),
                SIDE => g.owner_of(self.board, s) as i32,
                NUMBER => i32::from(g.number[s]),
                ROW => place(0),
                COLUMN => place(1),
                IS_STORE => i32::from(s >= STORE),
                OPEN => i32::from(!self.board.is_closed(s)),
                EXISTS => 1,
                HOUSE => self.board.house_owner(s).map_or(NOBODY, |p| p as i32),
                FACING => match usize::from(g.opposite[s]) {
                    o if o >= SLOTS || self.board.is_closed(o) => 0,
                    o => i32::from(self.board.count[o]),
                },
                LOCKED => i32::from(self.board.is_locked(s)),
                HOME => i32::from(g.owner[s]),
                _ => 0,
            };
        }
        let opp = 1 - self.mover;
        match slot {
            MOVER => self.mover as i32,
            OPPONENT => opp as i32,
            SOWN => self.sown as i32,
            LIFTED => self.lifted as i32,
            LAPS => (self.sown as usize / self.geo.circuit_len[self.mover].max(1)) as i32,
            RELAYS => self.relays as i32,
            CROSSED => i32::from(self.visited & self.geo.side_mask[opp] != 0),
            // A drop's stones in hand, a lift's stones, an opening's steps: never two at once.
            HAND | LIFT | STEPS => self.hand as i32,
            PREVIOUS_LIFTED => self.previous_lifted as i32,
            PREVIOUS_CAPTURED => self.previous_captured as i32,
            PREVIOUS_WAY => i32::from(self.previous_way),
            PREVIOUS_BETWEEN => self.between_previous(),
            MOVER_WAY => i32::from(self.ways[self.mover]),
            OPPONENT_WAY => i32::from(self.ways[opp]),
            CAPTURED => self.captured as i32,
            TAKEN => self.taken as i32,
            MOVER_STAGE => i32::from(self.board.stage[self.mover]),
            OPPONENT_STAGE => i32::from(self.board.stage[opp]),
            MOVER_TO_PLACE => i32::from(self.board.to_place[self.mover]),
            OPPONENT_TO_PLACE => i32::from(self.board.to_place[opp]),
            GRAND_SLAM => i32::from(self.grand_slam),
            OPPONENT_HAD => self.opponent_had as i32,
            PLY => self.ply as i32,
            MOVER_STORE => i32::from(self.board.store(self.mover)),
            OPPONENT_STORE => i32::from(self.board.store(opp)),
            MOVER_PITS => self.side_total(self.mover),
            OPPONENT_PITS => self.side_total(opp),
            MOVER_MOST => self.side_counts(self.mover).max().unwrap_or(0),
            OPPONENT_MOST => self.side_counts(opp).max().unwrap_or(0),
            MOVER_OCCUPIED => self.side_counts(self.mover).filter(|&c| c > 0).count() as i32,
            MOVER_OWNED => self.side_counts(self.mover).count() as i32,
            OPPONENT_OWNED => self.side_counts(opp).count() as i32,
            OPPONENT_OCCUPIED => self.side_counts(opp).filter(|&c| c > 0).count() as i32,
            MOVER_WON => i32::from(usize::from(self.winner) == self.mover),
            OPPONENT_WON => i32::from(usize::from(self.winner) == opp),
            MOVER_HELD => self.held(self.mover),
            OPPONENT_HELD => self.held(opp),
            MOVER_HOUSE => self.house_number(self.mover),
            OPPONENT_HOUSE => self.house_number(opp),
            MOVER_HOUSES => self.board.houses[self.mover].count_ones() as i32,
            OPPONENT_HOUSES => self.board.houses[opp].count_ones() as i32,
            MOVER_LOCKED => self.locked(self.mover),
            OPPONENT_LOCKED => self.locked(opp),
            MOVER_HOUSED => self.board.housed(self.board.houses[self.mover]) as i32,
            OPPONENT_HOUSED => self.board.housed(self.board.houses[opp]) as i32,
            _ => 0,
        }
    }
    fn call(&self, slot: u16, args: &[i32]) -> i32 {
        let p = if slot == OWN {
            self.mover
        } else {
            1 - self.mover
        };
        match usize::try_from(args[0]) {
            Ok(k) if (1..=self.geo.n).contains(&k) => {
                let slot = self.geo.slot(p, k);
                if self.board.is_closed(slot) {
                    0
                } else {
                    i32::from(self.board.count[slot])
                }
            }
            _ => 0,
        }
    }
}

/// A condition about one pit (`sowing.start`, `sowing.take`, `capture.when` about `last`,
/// `capture.chain`), tabulated when it reads nothing but that pit's fixed fields, its count
/// and the players.
#[derive(Clone, Debug)]
pub struct PitCond {
    pub expr: Expr,
    view: View,
    /// `table[mover * SLOTS + slot]`: bit c set when the condition holds with c stones there.
    table: Option<Vec<[u64; 4]>>,
}

impl PitCond {
    /// `total`: the game's stones, the most a pit can hold.
    pub fn new(expr: Expr, view: View, geo: &Geometry, total: u8) -> Self {
        let base = view as u16 * ATTRS;
        // A pit's owner is fixed unless the rounds change owners.
        let own = |slot: u16| {
            (base..base + ATTRS).contains(&slot)
                && slot != base + OPEN
                && slot != base + HOUSE
                && slot != base + FACING
                && slot != base + LOCKED
                && !(geo.owners_change && slot == base + SIDE)
        };
        let tabulable = (0..256u16)
            .filter(|&s| expr.reads(s))
            .all(|s| own(s) || s == MOVER || s == OPPONENT);
        let table = tabulable.then(|| {
            let mut table = vec![[0u64; 4]; 2 * SLOTS];
            for mover in 0..2 {
                for slot in 0..SLOTS {
                    if slot >= 2 * geo.n && slot < STORE {
                        continue;
                    }
                    let mut board = Board::empty();
                    for c in 0..=total {
                        board.count[slot] = c;
                        let mut ctx = Ctx::new(&board, geo, mover, 0);
                        ctx.views[view as usize] = slot as u8;
                        if expr.test(&ctx) {
                            table[mover * SLOTS + slot][usize::from(c >> 6)] |= 1 << (c & 63);
                        }
                    }
                }
            }
            table
        });
        PitCond { expr, view, table }
    }

    pub fn is_tabulated(&self) -> bool {
        self.table.is_some()
    }

    /// Whether the condition says exactly "the pit holds stones" for every pit of `geo`, so
    /// the caller may test the counts directly.
    pub fn is_nonzero(&self, geo: &Geometry, total: u8) -> bool {
        (0..2).all(|m| {
            (0..2 * geo.n).all(|s| (0..=total).all(|c| self.lookup(m, s, c) == Some(c > 0)))
        })
    }

    /// The tabulated answer for `count` stones in `slot`, when the condition is tabulated.
    #[inline]
    pub fn lookup(&self, mover: usize, slot: usize, count: u8) -> Option<bool> {
        let t = self.table.as_ref()?;
        Some(t[mover * SLOTS + slot][usize::from(count >> 6)] >> (count & 63) & 1 == 1)
    }

    /// Whether the condition holds for `slot`; `ctx` supplies everything else.
    #[inline]
    pub fn test(&self, ctx: &mut Ctx, slot: usize) -> bool {
        match &self.table {
            Some(t) => {
                let c = ctx.board.count[slot];
                t[ctx.mover * SLOTS + slot][usize::from(c >> 6)] >> (c & 63) & 1 == 1
            }
            None => {
                ctx.views[self.view as usize] = slot as u8;
                self.expr.test(ctx)
            }
        }
    }
}

/// `end.score`, tabulated over (mover's store, opponent's store) when it reads nothing else.
#[derive(Clone, Debug)]
pub struct ScoreCond {
    pub expr: Expr,
    /// Store counts 0..side index the table.
    side: usize,
    symmetric: bool,
    table: Option<Vec<u64>>,
}

impl ScoreCond {
    /// `total`: the game's stones, the most a store can hold.
    pub fn new(expr: Expr, geo: &Geometry, total: u8) -> Self {
        let tabulable = (0..256u16)
            .filter(|&s| expr.reads(s))
            .all(|s| s == MOVER_STORE || s == OPPONENT_STORE);
        let table = tabulable.then(|| {
            let side = usize::from(total) + 1;
            let mut table = vec![0u64; (side * side).div_ceil(64)];
            let mut board = Board::empty();
            for a in 0..=total {
                for b in 0..=total {
                    board.count[STORE] = a;
                    board.count[STORE + 1] = b;
                    if expr.test(&Ctx::new(&board, geo, 0, 0)) {
                        let i = usize::from(a) * side + usize::from(b);
                        table[i / 64] |= 1 << (i % 64);
                    }
                }
            }
            table
        });
        let side = usize::from(total) + 1;
        let bit = |t: &[u64], i: usize| t[i / 64] >> (i % 64) & 1;
        let symmetric = table.as_ref().is_some_and(|t| {
            (0..side).all(|a| (0..side).all(|b| bit(t, a * side + b) == bit(t, b * side + a)))
        });
        ScoreCond {
            expr,
            table,
            side,
            symmetric,
        }
    }

    /// The condition reads the two stores only and does not care which is the mover's.
    #[inline]
    pub fn stores_only_symmetric(&self) -> bool {
        self.symmetric
    }

    /// Whether the game ends after `mover`'s move.
    #[inline]
    pub fn test(&self, board: &Board, geo: &Geometry, mover: usize, ply: u32) -> bool {
        match &self.table {
            Some(t) => {
                let i = usize::from(board.store(mover)) * self.side
                    + usize::from(board.store(1 - mover));
                t[i / 64] >> (i % 64) & 1 == 1
            }
            None => self.expr.test(&Ctx::new(board, geo, mover, ply)),
        }
    }
}

/// Every name of every context, for the reference documentation and error notes.
pub fn reference(total: i32) -> Vec<(Context, Scope)> {
    Context::ALL.iter().map(|&c| (c, c.scope(total))).collect()
}
