//! Move generation. A turn is listed whole: every way to play the dice one die at a time, cut
//! to the moves that use as many dice as possible (the larger die when only one of two can be
//! played), each distinct resulting position listed once. Fixed arrays, an exact position key
//! kept up to date step by step, and a reused hash set: no allocation once warmed up.
//!
//! A turn with more moves than [`Limits::turn_moves`], or whose search extends more sequences
//! of steps than [`Limits::turn_sequences`], is played one step at a time instead: each decision is one die
//! played by one checker, listed when the dice left can still be played as fully as the rules
//! demand (found by searches that stop at the first witness), so no answer and no search grows
//! with the number of whole-turn moves.
//!
//! [`Limits::turn_moves`]: ludus_core::limits::Limits::turn_moves
//! [`Limits::turn_sequences`]: ludus_core::limits::Limits::turn_sequences

use super::position::{
    places_with, points_of, stacked_at, Board, Key, Lone, Position, Stacked, Turn, BAR, MAX_POINTS,
    OFF, POOL,
};
use super::scope::StepView;
use ludus_core::expr::Expr;
use ludus_core::game::CubeAction;
use ludus_core::limits::LIMITS;
use std::cell::RefCell;

/// Most single-die steps in a turn: a double played four times, or a bonus roll's two dice
/// followed by a double.
pub const MAX_STEPS: usize = 6;

/// A die of a plan that counts as any number the mover chooses, step by step (`[dice] wild`).
const WILD: u8 = 0;

/// A move: a whole turn's single-die steps `[from, to]` in the order played, from the mover's
/// side (`from` is a point, `BAR` or `POOL`; `to` a point or `OFF`), no steps being the pass;
/// or, in a turn played one step at a time, one step and the die it uses; or, where the rules
/// have a doubling cube, a decision of the cube (no steps).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct TablesMove {
    steps: [[u8; 2]; MAX_STEPS],
    len: u8,
    /// 0 for a whole turn; the die of a step played on its own.
    die: u8,
    cube: Option<CubeAction>,
}

impl TablesMove {
    pub const PASS: TablesMove = TablesMove {
        steps: [[0; 2]; MAX_STEPS],
        len: 0,
        die: 0,
        cube: None,
    };
    pub fn steps(&self) -> &[[u8; 2]] {
        &self.steps[..usize::from(self.len)]
    }
    pub fn is_pass(&self) -> bool {
        self.len == 0 && self.cube.is_none()
    }
    /// A decision of the doubling cube.
    pub fn cube(action: CubeAction) -> TablesMove {
        TablesMove {
            cube: Some(action),
            ..TablesMove::PASS
        }
    }
    /// The cube's decision this move is, if it is one.
    pub fn cube_action(&self) -> Option<CubeAction> {
        self.cube
    }
    /// For one step of a turn played a step at a time, the die it uses.
    pub fn die(&self) -> Option<u8> {
        (self.die != 0).then_some(self.die)
    }
    fn step(from: usize, to: usize, die: u8) -> TablesMove {
        let mut steps = [[0; 2]; MAX_STEPS];
        steps[0] = [from as u8, to as u8];
        TablesMove {
            steps,
            len: 1,
            die,
            cube: None,
        }
    }
}

/// The steps of a turn played one step at a time, so far, with the dice they used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Played {
    pub steps: [[u8; 2]; MAX_STEPS],
    pub dice: [u8; MAX_STEPS],
    pub len: u8,
}

impl Played {
    pub fn push(&mut self, step: [u8; 2], die: u8) {
        let i = usize::from(self.len);
        self.steps[i] = step;
        self.dice[i] = die;
        self.len += 1;
    }
    pub fn steps(&self) -> &[[u8; 2]] {
        &self.steps[..usize::from(self.len)]
    }
    pub fn dice(&self) -> &[u8] {
        &self.dice[..usize::from(self.len)]
    }
}

/// A condition on leaving a point, tested before every step from it.
#[derive(Clone, Debug)]
pub struct LeaveRule {
    pub point: u8,
    pub when: Expr,
}

/// A roll that gives more than its dice (Acey-deucey's 1-2): the roll is played, then a double
/// of the mover's choosing, and then the mover may roll again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bonus {
    /// The roll, lower die first.
    pub roll: [u8; 2],
    /// After the roll, a double of the mover's choosing is played.
    pub any_double: bool,
    /// The mover rolls again after the turn.
    pub again: bool,
}

/// `[stacks]`: checkers stacked on a point, turned over by a die naming the point.
#[derive(Clone, Debug)]
pub struct Stacks {
    /// Checkers one die turns over.
    pub per_die: u8,
    /// When a die may lay stacked checkers down (always, without it).
    pub unstack: Option<Expr>,
    /// When a die may stack flat checkers again (never, without it).
    pub restack: Option<Expr>,
    /// When a stacked checker may move (never, without it).
    pub moves: Option<Expr>,
}

impl Stacks {
    /// What the die of `view` does on the point it names (`view.from`, the position before
    /// it): `Some(true)` lays checkers down, `Some(false)` stacks them again.
    pub fn turning(&self, view: &StepView) -> Option<bool> {
        let n = view.from;
        let stacked = stacked_at(view.stacked, view.board.stack_field(n)?);
        let holds = |e: &Option<Expr>, default| e.as_ref().map_or(default, |e| e.test(view));
        if stacked > 0 && holds(&self.unstack, true) {
            Some(true)
        } else if view.turn.me[n] > stacked && holds(&self.restack, false) {
            Some(false)
        } else {
            None
        }
    }

    /// Whether the checker leaving `view.from` is a stacked one that may not move.
    pub fn holds_back(&self, view: &StepView) -> bool {
        let n = view.from;
        view.board
            .stack_field(n)
            .is_some_and(|f| stacked_at(view.stacked, f) == view.turn.me[n])
            && view.turn.me[n] > 0
            && !self.moves.as_ref().is_some_and(|e| e.test(view))
    }
}

/// `[moves] bear_off_larger`: which checkers a die larger than needed bears off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Larger {
    /// Only one from the farthest point the side holds (Backgammon).
    Farthest,
    /// Any checker it carries past the end (Garanguet).
    Any,
    /// None: only the exact number bears off.
    None,
}

/// `[dice] only_one`: which die is played when only one of two different dice can be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OnlyOne {
    /// The larger, if that one can be played (Backgammon).
    Larger,
    Either,
    /// The smaller, or none (the Puff games).
    Smaller,
}

/// The movement rules a rules file chose.
#[derive(Clone, Debug)]
pub struct MoveRules {
    pub board: Board,
    pub lone: Lone,
    pub leave: Vec<LeaveRule>,
    /// Bit n set: some rule restricts leaving point n.
    pub leave_mask: u64,
    /// Conditions every single step must meet, tested on the position after it.
    pub step: Vec<Expr>,
    /// When a checker may be borne off, tested before each such step (bits of every point in
    /// `leave_mask`); without it, once every checker is home.
    pub bear_off: Option<Expr>,
    /// `[[remember]]`: conditions tested after every step of the mover's; once one holds, its
    /// bit of `Position::remembered` stays set for the rest of the game.
    pub remember: Vec<Expr>,
    /// `[stacks]`.
    pub stacks: Option<Stacks>,
    /// `[[moves.hit]]`: points (the mover's numbering, worked out after each step) whose lone
    /// opposing checker the step hits from afar.
    pub hits: Vec<Expr>,
    /// `[[moves.strike]]`: points (the mover's numbering, worked out for each die) whose lone
    /// opposing checker a die may hit instead of moving a checker, written `[n, n]`.
    pub strikes: Vec<Expr>,
    /// `[moves] hit_back`: the point (its owner's numbering) a checker hit to the bar is put
    /// back on when the turn ends; no part of the search, which leaves hit checkers on the bar.
    pub hit_back: Option<Expr>,
    /// `[moves] bear_off_to = "pool"`: the checkers borne off go to the pool when the turn
    /// ends; no part of the search, which leaves them off.
    pub off_to_pool: bool,
    /// Which checkers a die larger than needed bears off.
    pub larger: Larger,
    /// Something is worked out after every step: `step`, `remember` or `hits` rules, or
    /// stacks.
    pub after_step: bool,
    /// Moves a double gives (4 in Backgammon; 2 where a double is played as rolled); 0: as
    /// many as its number (at most 6: dice of 6 faces at most, and no bonus roll).
    pub double_moves: u8,
    /// Each move of a thrown double counts as any number the mover chooses (`[dice] wild`).
    pub wild_doubles: bool,
    /// Which die is played when only one of two different dice can be.
    pub only_one: OnlyOne,
    pub bonus: Option<Bonus>,
    /// Faces of a die (a bonus double may be any of them).
    pub faces: u8,
}

impl MoveRules {
    /// Whether two moves to one set of counts may differ by what their steps did (remembered
    /// or turned over), so that moves are told apart by their steps in order.
    pub fn steps_matter(&self) -> bool {
        !self.remember.is_empty() || self.stacks.is_some()
    }

    /// Whether a move is played step by step, each step's effects worked out on the position
    /// it leaves: where steps matter, or hit from afar or by a strike.
    pub fn played_by_steps(&self) -> bool {
        self.steps_matter() || !self.hits.is_empty() || !self.strikes.is_empty()
    }

    /// Whether steps may be generated in non-increasing order of their starting points only.
    /// Under the plain rules a step from a lower point never makes a step from a higher one
    /// legal (nor the reverse illegal), so any legal sequence can be reordered that way with
    /// the same result; a leave or step rule may depend on what other checkers did first, and
    /// a bonus double must follow its roll, so then every order is tried.
    fn ordered(&self) -> bool {
        self.leave.is_empty()
            && !self.after_step
            && self.bear_off.is_none()
            && self.strikes.is_empty()
    }

    /// The most single-die steps a turn of `dice` dice may take: a double played
    /// `double_moves` times, after the bonus roll's two dice where there is one.
    pub fn max_steps(&self, dice: u8) -> usize {
        let bonus = self.bonus.as_ref().is_some_and(|b| b.any_double);
        let double = match self.double_moves {
            0 => self.faces,
            n => n,
        };
        usize::from(dice.max(double)) + 2 * usize::from(bonus)
    }

    /// The moves a double of `d` gives.
    #[inline]
    pub fn double_steps(&self, d: u8) -> usize {
        match self.double_moves {
            0 => usize::from(d),
            n => usize::from(n),
        }
    }

    /// The die each move of a thrown double of `d` plays: `d`, or any number (`WILD`).
    #[inline]
    fn double_die(&self, d: u8) -> u8 {
        if self.wild_doubles {
            WILD
        } else {
            d
        }
    }

    /// Whether `roll` (the turn's dice) is the bonus roll.
    pub fn bonus_for(&self, roll: &[u8]) -> Option<&Bonus> {
        let b = self.bonus.as_ref()?;
        match *roll {
            [x, y] if [x.min(y), x.max(y)] == b.roll => Some(b),
            _ => None,
        }
    }
}

/// One way a roll may be played: its dice, those of a lower group before those of a higher
/// (a bonus roll's own two dice before the double of the mover's choosing).
#[derive(Clone, Copy, Debug)]
struct Plan {
    dice: [u8; MAX_STEPS],
    groups: [u8; MAX_STEPS],
    len: usize,
}

impl Plan {
    fn dice(&self) -> &[u8] {
        &self.dice[..self.len]
    }
    fn groups(&self) -> &[u8] {
        &self.groups[..self.len]
    }
    /// The lowest group of the dice left: the only dice that may be played next.
    fn next_group(&self) -> u8 {
        self.groups().iter().copied().min().unwrap_or(0)
    }
    /// The plan without one die of value `die` of the group played next, if it has one (a
    /// wild die counting as any value).
    fn without(&self, die: u8) -> Option<Plan> {
        let group = self.next_group();
        let of_group = |i: &usize| self.groups[*i] == group;
        let i = (0..self.len)
            .filter(of_group)
            .find(|&i| self.dice[i] == die)
            .or_else(|| {
                (0..self.len)
                    .filter(of_group)
                    .find(|&i| self.dice[i] == WILD)
            })?;
        let mut left = *self;
        left.dice.copy_within(i + 1..self.len, i);
        left.groups.copy_within(i + 1..self.len, i);
        left.len -= 1;
        Some(left)
    }
}

/// The ways `roll` may be played: a bonus roll followed by each double in turn, a double as
/// many times as a double gives, or the dice as rolled.
fn plans(rules: &MoveRules, roll: &[u8], given: bool) -> impl Iterator<Item = Plan> {
    let mut plan = Plan {
        dice: [0; MAX_STEPS],
        groups: [0; MAX_STEPS],
        len: roll.len().min(MAX_STEPS),
    };
    plan.dice[..plan.len].copy_from_slice(&roll[..plan.len]);
    let n = usize::from(rules.double_moves);
    let bonus = !given && rules.bonus_for(roll).is_some_and(|b| b.any_double);
    match *roll {
        [a, b] if a == b && !bonus && !given => {
            let n = rules.double_steps(a);
            plan.len = n;
            plan.dice[..n].fill(rules.double_die(a));
        }
        _ => {}
    }
    // No allocation: this runs every turn.
    let doubles = if bonus { 1..=rules.faces } else { 1..=1 };
    doubles.map(move |k| {
        let mut p = plan;
        if bonus {
            p.len = 2 + n;
            p.dice[2..p.len].fill(k);
            p.groups[2..p.len].fill(1);
        }
        p
    })
}

/// What the turn's conditions may see beyond the position.
#[derive(Clone, Copy, Debug)]
pub struct TurnInfo<'a> {
    /// The dice rolled.
    pub roll: &'a [u8],
    /// The mover has not moved before in this game.
    pub first_turn: bool,
    /// The player moving (0: the one the rules file names first).
    pub mover: u8,
    /// The dice are the opponent's left over, played as they are (no double doubled, no
    /// bonus roll).
    pub given: bool,
    /// Turns in a row, up to this one, whose dice a `[[dice.after]]` rule gave.
    pub follow: u8,
    /// The dice may be played in part or not at all (`[[dice.after]] optional`).
    pub optional: bool,
    /// The points each player has scored during play in this game (`[[score]]`).
    pub scored: [u16; 2],
}

/// Resulting positions already listed this turn: open addressing over exact keys, probed by
/// tags kept apart (so a probe reads one word) that hold the key's hash and the round of the
/// table, so that emptying it is starting a new round.
#[derive(Default)]
struct Seen {
    tags: Vec<u64>,
    keys: Vec<Key>,
    /// Keys in the table this round.
    len: usize,
    /// The current round, never 0: a slot whose tag has another round in its low bits is empty.
    round: u64,
}

/// The low bits of a tag: the round.
const ROUND: u64 = 0xFFFF;

impl Seen {
    fn clear(&mut self) {
        self.len = 0;
        self.round = (self.round + 1) & ROUND;
        if self.round == 0 {
            self.tags.fill(0);
            self.round = 1;
        }
    }

    /// Adds a key; true when it was not there yet.
    #[inline(always)]
    fn insert(&mut self, key: Key) -> bool {
        if self.len * 2 >= self.tags.len() {
            self.grow();
        }
        let mask = self.tags.len() - 1;
        let h = key.hash();
        let tag = (h & !ROUND) | self.round;
        let mut i = (h >> 40) as usize & mask;
        loop {
            let t = self.tags[i];
            if t & ROUND != self.round {
                self.tags[i] = tag;
                self.keys[i] = key;
                self.len += 1;
                return true;
            }
            if t == tag && self.keys[i] == key {
                return false;
            }
            i = (i + 1) & mask;
        }
    }

    #[cold]
    fn grow(&mut self) {
        let round = self.round;
        let keys: Vec<Key> = (0..self.tags.len())
            .filter(|&i| self.tags[i] & ROUND == round)
            .map(|i| self.keys[i])
            .collect();
        let len = (self.tags.len() * 2).max(256);
        self.tags = vec![0; len];
        self.keys = vec![Key::default(); len];
        self.len = 0;
        self.round = 1;
        for k in keys {
            self.insert(k);
        }
    }
}

thread_local! {
    static SEEN: RefCell<Seen> = RefCell::new(Seen::default());
}

/// Writes every legal whole-turn move of `mover` into `out` (cleared first); a turn without a
/// legal step gives the single pass move. False, with `out` empty, when the turn is to be
/// played one step at a time (too many moves, or too long a search): see [`next_steps`].
pub fn generate(
    rules: &MoveRules,
    pos: &Position,
    mover: usize,
    info: &TurnInfo,
    out: &mut Vec<TablesMove>,
) -> bool {
    // One generator per kind of lone-checker rule, so that the hot loop tests none.
    // And one for the rare games of stacks or wild dice, so that the others test nothing of
    // them.
    match (rules.lone, rules.stacks.is_some() || rules.wild_doubles) {
        (Lone::Hit, false) => generate_for::<HIT, false>(rules, pos, mover, info, out),
        // A point's owner (`Own`) changes nothing a landing does: searched as `Block`, with its
        // own closed points.
        (Lone::Block | Lone::Own, false) => {
            generate_for::<BLOCK, false>(rules, pos, mover, info, out)
        }
        (Lone::Pin, false) => generate_for::<PIN, false>(rules, pos, mover, info, out),
        (Lone::Hit, true) => generate_for::<HIT, true>(rules, pos, mover, info, out),
        (Lone::Block | Lone::Own, true) => {
            generate_for::<BLOCK, true>(rules, pos, mover, info, out)
        }
        (Lone::Pin, true) => generate_for::<PIN, true>(rules, pos, mover, info, out),
    }
}

const HIT: u8 = 0;
const BLOCK: u8 = 1;
const PIN: u8 = 2;

fn generate_for<const LONE: u8, const RARE: bool>(
    rules: &MoveRules,
    pos: &Position,
    mover: usize,
    info: &TurnInfo,
    out: &mut Vec<TablesMove>,
) -> bool {
    SEEN.with(|seen| {
        let seen = &mut *seen.borrow_mut();
        let mut gen = Gen::<LONE, RARE>::new(rules, info, pos, mover, out, seen);
        gen.reset();
        // The ways of `plans`, spelled out so that the common rolls build nothing.
        match *info.roll {
            _ if info.optional => {
                let plan = plans(rules, info.roll, info.given)
                    .next()
                    .expect("one plan");
                gen.search_every_part(plan.dice());
            }
            [_, _] if !info.given && rules.bonus_for(info.roll).is_some_and(|b| b.any_double) => {
                // The roll first, then any double: every choice, the most dice overall.
                for plan in plans(rules, info.roll, false) {
                    gen.search_dice(plan.dice(), plan.groups());
                }
            }
            [a, b] if a == b && !info.given => {
                let n = rules.double_steps(a);
                let d = rules.double_die(a);
                gen.search_dice(&[d; MAX_STEPS][..n], &[0; MAX_STEPS][..n]);
            }
            [a, b] => {
                gen.search_dice(&[a, b], &[0, 0]);
                if gen.best == 1 && rules.only_one != OnlyOne::Either {
                    // Only one die can be played: the larger one when it can, or the smaller
                    // (the pass when it cannot be).
                    let larger = rules.only_one == OnlyOne::Larger;
                    gen.reset();
                    gen.search_dice(&[if larger { a.max(b) } else { a.min(b) }], &[0]);
                    if gen.best == 0 && larger {
                        // Only the pass is listed: start again, so this search is one alone.
                        gen.reset();
                        gen.search_dice(&[a.min(b)], &[0]);
                    }
                }
            }
            ref dice => gen.search_dice(dice, &[0; MAX_STEPS][..dice.len()]),
        }
        // Used up, or halted by too many moves: not listed whole.
        let whole = gen.budget > 0;
        gen.seen.clear();
        if !whole {
            gen.out.clear();
        }
        whole
    })
}

/// Writes the next steps of a turn played one step at a time into `out` (cleared first): each
/// single-die step, with its die, after which the dice left can be played as fully as the
/// whole turn could have been (the larger die when only one of two can be played at all).
/// `pos` is the position after `played`. A step two dice make alike is listed once, with the
/// smaller die. The pass when no die can be played; empty when the turn is over.
pub fn next_steps(
    rules: &MoveRules,
    pos: &Position,
    mover: usize,
    info: &TurnInfo,
    played: &Played,
    out: &mut Vec<TablesMove>,
) {
    match rules.lone {
        Lone::Hit => steps_for::<HIT>(rules, pos, mover, info, played, Some(out)),
        Lone::Block | Lone::Own => steps_for::<BLOCK>(rules, pos, mover, info, played, Some(out)),
        Lone::Pin => steps_for::<PIN>(rules, pos, mover, info, played, Some(out)),
    };
}

/// How many more dice the turn can play after `played` (0: the turn is over).
pub fn steps_left(
    rules: &MoveRules,
    pos: &Position,
    mover: usize,
    info: &TurnInfo,
    played: &Played,
) -> usize {
    match rules.lone {
        Lone::Hit => steps_for::<HIT>(rules, pos, mover, info, played, None),
        Lone::Block | Lone::Own => steps_for::<BLOCK>(rules, pos, mover, info, played, None),
        Lone::Pin => steps_for::<PIN>(rules, pos, mover, info, played, None),
    }
}

/// The most dice still playable after `played`, and with `out` the steps that keep it so.
fn steps_for<const LONE: u8>(
    rules: &MoveRules,
    pos: &Position,
    mover: usize,
    info: &TurnInfo,
    played: &Played,
    out: Option<&mut Vec<TablesMove>>,
) -> usize {
    SEEN.with(|seen| {
        let seen = &mut *seen.borrow_mut();
        let mut unused = Vec::new();
        let mut gen = Gen::<LONE, true>::new(rules, info, pos, mover, &mut unused, seen);
        gen.collect = false;
        gen.base = usize::from(played.len);
        gen.steps[..gen.base].copy_from_slice(played.steps());
        let plans: Vec<Plan> = plans(rules, info.roll, info.given)
            .filter_map(|p| played.dice().iter().try_fold(p, |p, &d| p.without(d)))
            .collect();
        let most: Vec<usize> = plans.iter().map(|p| gen.reach(p)).collect();
        let mut best = most.iter().copied().max().unwrap_or(0);
        // The die that must be the one played when only one of two can be, if any.
        let only = match *info.roll {
            [a, b]
                if played.len == 0
                    && !info.optional
                    && a != b
                    && best == 1
                    && (info.given
                        || !rules.bonus_for(info.roll).is_some_and(|b| b.any_double)) =>
            {
                match rules.only_one {
                    OnlyOne::Larger => Some(a.max(b)),
                    OnlyOne::Smaller => Some(a.min(b)),
                    OnlyOne::Either => None,
                }
            }
            _ => None,
        };
        if only.is_some() && rules.only_one == OnlyOne::Smaller {
            // The smaller or none: a turn whose smaller die cannot be played is the pass.
            let larger = info.roll[0].max(info.roll[1]);
            if (plans.first().and_then(|p| p.without(larger))).is_some_and(|p| gen.reach(&p) == 0) {
                best = 0;
            }
        }
        let Some(out) = out else {
            return best;
        };
        out.clear();
        if best == 0 {
            if played.len == 0 {
                // No die can be played at all: the turn is the pass.
                out.push(TablesMove::PASS);
            }
            return 0;
        }
        // The steps the die that must be played alone makes, though listed with another.
        let mut by_only: Vec<[u8; 2]> = Vec::new();
        // The dice a step must leave playable: none where the turn may stop at any step.
        let want = if info.optional { 0 } else { best - 1 };
        for (plan, _) in plans.iter().zip(&most).filter(|(_, &m)| m == best) {
            let group = plan.next_group();
            let mut dice: Vec<u8> = (0..plan.len)
                .filter(|&i| plan.groups[i] == group)
                .map(|i| plan.dice[i])
                .collect();
            if dice.contains(&WILD) {
                dice = (1..=rules.faces).collect();
            }
            dice.sort_unstable();
            dice.dedup();
            for d in dice {
                let rest = plan.without(d).expect("a die of the next group");
                let mut froms = gen.sources(usize::from(d), POOL);
                while froms != 0 {
                    let from = 63 - froms.leading_zeros() as usize;
                    froms &= !(1 << from);
                    if let Some(to) = gen.step_keeps(from, d, &rest, want) {
                        let step = [from as u8, to as u8];
                        if Some(d) == only {
                            by_only.push(step);
                        }
                        if !out.iter().any(|m| m.steps[0] == step) {
                            out.push(TablesMove::step(from, to, d));
                        }
                    }
                }
                for n in points_of(gen.strike_targets(d, 0)) {
                    if gen.strike_keeps(n, d, &rest, want)
                        && !out.iter().any(|m| m.steps[0] == [n as u8; 2])
                    {
                        out.push(TablesMove::step(n, n, d));
                    }
                }
                let n = rules.board.stack_point(usize::from(d));
                if rules.stacks.is_some() && gen.turn_keeps(d, &rest, want) {
                    if Some(d) == only {
                        by_only.push([n as u8; 2]);
                    }
                    if !out.iter().any(|m| m.steps[0] == [n as u8; 2]) {
                        out.push(TablesMove::step(n, n, d));
                    }
                }
            }
        }
        if let Some(d) = only.filter(|_| !by_only.is_empty()) {
            // Only one die can be played: the one the rules want when it can be.
            out.retain(|m| by_only.contains(&m.steps[0]));
            for m in out.iter_mut() {
                m.die = d;
            }
        }
        if info.optional {
            // Stopping here, with the steps played so far.
            out.push(TablesMove::PASS);
        }
        best
    })
}

/// What a step changes beyond the counts, put back after it: their pins, the key, the
/// landings and the remembered bits.
type Saved = (u64, Key, u64, u8);

/// The state of a turn in progress, saved and restored around each step.
#[derive(Clone, Copy)]
struct Progress {
    t: Turn,
    key: Key,
    /// Bit n set: the mover has a checker on point n, the bar (`BAR`) or the pool (`POOL`).
    occupied: u64,
    /// Bit n set: landing on the mover's point n hits or pins a lone opposing checker.
    lands: u64,
    /// The mover's checkers outside the home table (bar and pool included).
    behind: u8,
}

/// The search over step sequences, on a private copy of the position; `LONE` is the rule on
/// lone checkers.
struct Gen<'a, const LONE: u8, const RARE: bool> {
    rules: &'a MoveRules,
    info: &'a TurnInfo<'a>,
    now: Progress,
    /// Bit n set: the mover may not land on its point n. A step changes what a landing does
    /// only on its own two points, and never closes or opens either, so this holds all turn
    /// and the places a die can move from are found for all points at once.
    closed: u64,
    /// Bits 1..=points.
    on_board: u64,
    /// `rules.board.entry()`, at hand.
    entry: usize,
    /// Where a checker entering counts from, by the parity of its place: `[pool, bar]`.
    entry_of: [usize; 2],
    dice: [u8; MAX_STEPS],
    /// Dice of a lower group are played before those of a higher one.
    groups: [u8; MAX_STEPS],
    ndice: usize,
    ordered: bool,
    /// Some die belongs to a later group.
    grouped: bool,
    /// No two sequences of this search end in the same position, so `seen` is not needed.
    distinct: bool,
    /// Some die is wild (`[dice] wild`).
    wild: bool,
    /// The steps of the sequence being tried: the turn's steps played before this search (the
    /// first `base`), then this search's.
    steps: [[u8; 2]; MAX_STEPS],
    base: usize,
    /// Most dice used by a move found so far.
    best: usize,
    /// Whether moves are listed in `out`; else the search only finds how many dice can be
    /// played, stopping once it finds all of them played.
    collect: bool,
    /// Sequences still to be extended before the search stops; 0 also while it is halted
    /// (every die played, or more moves than a turn may list), one counter for the innermost
    /// loop to test.
    budget: u32,
    /// Halted: what was left of the budget.
    halted: Option<u32>,
    out: &'a mut Vec<TablesMove>,
    seen: &'a mut Seen,
    /// The stacked checkers (`[stacks]`), kept apart from `now` by the few games that stack.
    stacked: Stacked,
    /// The points each step of the sequence hit from afar (`[[moves.hit]]`), by the step's
    /// place in `steps`, for `undo` to put back.
    afar: [u64; MAX_STEPS],
}

impl<'a, const LONE: u8, const RARE: bool> Gen<'a, LONE, RARE> {
    const LONE: Lone = match LONE {
        HIT => Lone::Hit,
        BLOCK => Lone::Block,
        _ => Lone::Pin,
    };

    #[inline(always)]
    fn new(
        rules: &'a MoveRules,
        info: &'a TurnInfo<'a>,
        pos: &Position,
        mover: usize,
        out: &'a mut Vec<TablesMove>,
        seen: &'a mut Seen,
    ) -> Self {
        let t = pos.turn(mover);
        let board = &rules.board;
        let (closed, lands) = t.landing_bits(board, rules.lone);
        Gen {
            rules,
            info,
            now: Progress {
                key: match (rules.remember.is_empty(), &rules.stacks) {
                    (true, None) => Key::of(&t.me),
                    (false, None) => Key::of(&t.me).with_remembered(t.remembered),
                    (_, Some(_)) => Key::of(&t.me)
                        .with_remembered(t.remembered)
                        .with_stacked(pos.stacked[mover]),
                },
                occupied: places_with(&t.me, 1) & !(1 << OFF),
                lands,
                behind: pos.behind(mover, board.home),
                t,
            },
            closed,
            on_board: board.point_bits(),
            entry: board.entry(),
            entry_of: [board.pool_from, board.entry()],
            dice: [0; MAX_STEPS],
            groups: [0; MAX_STEPS],
            ndice: 0,
            ordered: false,
            grouped: false,
            distinct: false,
            wild: false,
            steps: [[0; 2]; MAX_STEPS],
            base: 0,
            best: 0,
            collect: true,
            budget: LIMITS.turn_sequences,
            halted: None,
            out,
            seen,
            stacked: Stacked::of(pos, mover),
            afar: [0; MAX_STEPS],
        }
    }

    /// The game stacks checkers (`[stacks]`): known at compile time for the hot generators
    /// of the common games, which stack nothing.
    #[inline(always)]
    fn stacks(&self) -> bool {
        RARE && self.rules.stacks.is_some()
    }

    /// Some die of this search is wild (`[dice] wild`): known at compile time as `stacks`.
    #[inline(always)]
    fn wild_dice(&self) -> bool {
        RARE && self.wild
    }

    fn reset(&mut self) {
        self.out.clear();
        self.seen.clear();
        self.best = 0;
    }

    /// Stops the search at once, keeping what was left of its budget.
    #[cold]
    fn halt(&mut self) {
        self.halted = Some(self.budget);
        self.budget = 0;
    }

    /// How many of `plan`'s dice can be played from here (a search that stops at the first
    /// sequence playing them all). Once the sequences this generator may extend run out, all
    /// of them are taken as playable.
    fn reach(&mut self, plan: &Plan) -> usize {
        self.best = 0;
        self.search_dice(plan.dice(), plan.groups());
        if let Some(left) = self.halted.take() {
            // Every die played: the search goes on with what it had left.
            self.budget = left;
            return plan.len;
        }
        if self.budget == 0 {
            plan.len
        } else {
            self.best
        }
    }

    /// Where die `d` takes a checker from `from`, if the rules allow that step and the dice
    /// of `rest` can then still be played `want` times.
    fn step_keeps(&mut self, from: usize, d: u8, rest: &Plan, want: usize) -> Option<usize> {
        let start = if from > MAX_POINTS {
            self.entry_of[from & 1]
        } else {
            from
        };
        let to = start.saturating_sub(usize::from(d));
        let lands = self.now.lands >> to & 1 != 0;
        if !self.leave_allowed(from, to, d, lands, 0) {
            return None;
        }
        let saved = self.saved();
        let kept = self.stacked;
        let rules = self.rules;
        if rules.stacks.is_some() {
            (self.stacked).before_step(&self.now.t, &rules.board, Self::LONE, [from, to], lands);
        }
        self.apply(from, to, lands);
        let mut keeps = !rules.after_step || self.after_step(from, to, d, lands, 0);
        if keeps && want > 0 {
            self.steps[self.base] = [from as u8, to as u8];
            self.base += 1;
            keeps = self.reach(rest) >= want;
            self.base -= 1;
        }
        self.undo(from, to, lands, saved);
        if !rules.hits.is_empty() {
            self.undo_afar(0);
        }
        self.stacked = kept;
        keeps.then_some(to)
    }

    /// Whether die `d` may strike the lone opposing checker on point `n` and the dice of `rest`
    /// can then still be played `want` times.
    fn strike_keeps(&mut self, n: usize, d: u8, rest: &Plan, want: usize) -> bool {
        let saved = self.saved();
        self.hit_points(1 << n);
        let mut keeps = !self.rules.after_step || self.after_step(n, n, d, true, 0);
        if keeps && want > 0 {
            self.steps[self.base] = [n as u8, n as u8];
            self.base += 1;
            keeps = self.reach(rest) >= want;
            self.base -= 1;
        }
        self.unhit_points(1 << n);
        self.restore(saved);
        keeps
    }

    /// Whether die `d` may turn over the checkers of its point and the dice of `rest` can then
    /// still be played `want` times.
    fn turn_keeps(&mut self, d: u8, rest: &Plan, want: usize) -> bool {
        let n = self.rules.board.stack_point(usize::from(d));
        let Some(unstack) = self.turning(n, d, 0) else {
            return false;
        };
        let saved = self.saved();
        let kept = self.stacked;
        self.turn_over(n, unstack);
        if !self.rules.remember.is_empty() {
            self.remember(n, n, d, false, 0);
        }
        let mut keeps = true;
        if want > 0 {
            self.steps[self.base] = [n as u8; 2];
            self.base += 1;
            keeps = self.reach(rest) >= want;
            self.base -= 1;
        }
        self.restore(saved);
        self.stacked = kept;
        keeps
    }

    /// Adds the moves playing any part of `dice` (at most three), none included: for each
    /// part, the sequences playing exactly its dice (`[[dice.after]] optional`). The empty
    /// part first, so that every later one is checked against the positions already listed.
    #[cold]
    fn search_every_part(&mut self, dice: &[u8]) {
        debug_assert!(dice.len() <= 3, "optional dice are at most three steps");
        let n = dice.len();
        let mut parts: Vec<Vec<u8>> = (0..1u8 << n)
            .map(|mask| {
                let mut part: Vec<u8> = (0..n)
                    .filter(|i| mask >> i & 1 != 0)
                    .map(|i| dice[i])
                    .collect();
                part.sort_unstable();
                part
            })
            .collect();
        parts.sort_unstable_by(|a, b| a.len().cmp(&b.len()).then(a.cmp(b)));
        parts.dedup();
        for part in parts {
            // Only sequences playing every die of this part: none shorter, so none cleared.
            self.best = part.len();
            self.search_dice(&part, &[0; MAX_STEPS][..part.len()]);
        }
    }

    /// Adds the moves playing `dice` (in `groups` order) to those found so far.
    fn search_dice(&mut self, dice: &[u8], groups: &[u8]) {
        self.ndice = dice.len();
        self.dice[..dice.len()].copy_from_slice(dice);
        self.groups[..dice.len()].copy_from_slice(groups);
        self.ordered = self.rules.ordered();
        self.grouped = groups.iter().any(|&g| g != 0);
        self.wild = dice.contains(&WILD);
        // Equal dice tried in non-increasing order of the places left reach each position once:
        // a sequence is the multiset of places it left, and the resulting side gives it back
        // (from the farthest place down, the checkers that left a place are those it lost plus
        // those that came from one die farther). Only when nothing listed before is in `seen`.
        self.distinct = self.ordered
            && !self.grouped
            && self.out.is_empty()
            && dice.first() != Some(&WILD)
            && dice.iter().all(|&d| d == dice[0]);
        self.search(0, 0, POOL, 0);
    }

    /// Tries every next step; a sequence that cannot go on is a candidate move.
    fn search(&mut self, depth: usize, used: u8, max_from: usize, last_group: u8) {
        // Counted once for each sequence extended, not for each step tried from it: nothing
        // is added to the innermost loop.
        if self.budget == 0 {
            return;
        }
        self.budget -= 1;
        let mut extended = false;
        // Bit 0, a wild die: played apart (`try_wild`), so that this loop tests nothing of it.
        let mut tried = 1u32;
        let group = if self.grouped {
            (0..self.ndice)
                .filter(|&i| used & (1 << i) == 0)
                .map(|i| self.groups[i])
                .min()
                .unwrap_or(0)
        } else {
            0
        };
        for i in 0..self.ndice {
            let d = self.dice[i];
            if used & (1 << i) != 0 || self.groups[i] != group || tried & (1 << d) != 0 {
                continue;
            }
            tried |= 1 << d;
            let used = used | (1 << i);
            // Within a group of dice, steps are reordered freely (see `ordered`).
            let top = if self.ordered && group == last_group {
                max_from
            } else {
                POOL
            };
            let mut froms = self.sources(usize::from(d), top);
            while froms != 0 {
                let from = 63 - froms.leading_zeros() as usize;
                froms &= !(1 << from);
                extended |= self.try_step(depth, used, from, d, group);
            }
        }
        if self.wild_dice() {
            extended |= self.try_wild(depth, used, max_from, last_group, group);
        }
        if self.stacks() {
            extended |= self.try_turns(depth, used, group);
        }
        if !self.rules.strikes.is_empty() {
            extended |= self.try_strikes(depth, used, group);
        }
        if !extended {
            self.candidate(depth, |g| g.now.key);
        }
    }

    /// The places (as bits, up to `top`) a free checker can leave with die `d`: the bar alone
    /// while it is occupied (checkers on the bar enter before anything else moves); else those
    /// whose landing point is open, and those that may bear off (all checkers home; with a
    /// larger die from the farthest occupied point, any point or none, as `larger` says).
    #[inline]
    fn sources(&self, d: usize, top: usize) -> u64 {
        let now = &self.now;
        let enters = self.closed >> (self.entry - d) & 1 == 0;
        if now.t.me[BAR] > 0 {
            return u64::from(enters) << BAR;
        }
        let free = now.occupied & ((2 << top) - 1) & !now.t.my_pins;
        let mut s = free & self.on_board & !(self.closed << d) & !((2 << d) - 1);
        if free & 1 << POOL != 0 {
            // The pool counts from its own point (`[board] pool_from`).
            let pool_enters = self.closed >> (self.entry_of[POOL & 1] - d) & 1 == 0;
            s |= u64::from(pool_enters) << POOL;
        }
        if (now.behind == 0 || self.rules.bear_off.is_some()) && now.occupied != 0 {
            s |= free & (1 << d);
            match self.rules.larger {
                Larger::Farthest => {
                    let farthest = 63 - now.occupied.leading_zeros() as usize;
                    if farthest < d {
                        s |= free & (1 << farthest);
                    }
                }
                // Points 1 to d - 1 (bit 0 is `OFF`).
                Larger::Any => s |= free & ((1 << d) - 2),
                Larger::None => {}
            }
        }
        s
    }

    /// Plays die `d` from `from` (one of `sources`) if the rules allow it, and goes on from
    /// there.
    #[inline(always)]
    fn try_step(&mut self, depth: usize, used: u8, from: usize, d: u8, group: u8) -> bool {
        let start = if from > MAX_POINTS {
            self.entry_of[from & 1]
        } else {
            from
        };
        // 0 is `OFF`: bearing off.
        let to = start.saturating_sub(usize::from(d));
        let lands = self.now.lands >> to & 1 != 0;
        if !self.leave_allowed(from, to, d, lands, depth) {
            return false;
        }
        self.steps[self.base + depth] = [from as u8, to as u8];
        let rules = self.rules;
        if depth + 1 == self.ndice && !rules.after_step {
            // The last die: the move is complete, only its key is needed.
            self.candidate(depth + 1, |g| g.key_after(from, to, lands));
            return true;
        }
        if self.stacks() {
            return self.try_step_stacked(depth, used, from, to, d, lands, group);
        }
        self.play_on(depth, used, from, to, d, lands, group)
    }

    /// `try_step` in a game of `[stacks]`: the step's effect on them, undone after.
    #[cold]
    #[allow(clippy::too_many_arguments)]
    fn try_step_stacked(
        &mut self,
        depth: usize,
        used: u8,
        from: usize,
        to: usize,
        d: u8,
        lands: bool,
        group: u8,
    ) -> bool {
        let kept = self.stacked;
        let board = &self.rules.board;
        (self.stacked).before_step(&self.now.t, board, Self::LONE, [from, to], lands);
        let allowed = self.play_on(depth, used, from, to, d, lands, group);
        self.stacked = kept;
        allowed
    }

    /// Plays the step `[from, to]` of die `d` (allowed so far) and goes on from there, unless
    /// the rules worked out after it forbid it.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn play_on(
        &mut self,
        depth: usize,
        used: u8,
        from: usize,
        to: usize,
        d: u8,
        lands: bool,
        group: u8,
    ) -> bool {
        let rules = self.rules;
        let saved = self.saved();
        self.apply(from, to, lands);
        let allowed = !rules.after_step || self.after_step(from, to, d, lands, depth);
        if allowed {
            if depth + 1 == self.ndice {
                self.candidate(depth + 1, |g| g.now.key);
            } else {
                // The pool ranks above the bar but waits while the bar is occupied: a checker
                // from the pool may follow one entering from the bar.
                let next_top = if from == BAR { POOL } else { from };
                self.search(depth + 1, used, next_top, group);
            }
        }
        self.undo(from, to, lands, saved);
        if !rules.hits.is_empty() {
            self.undo_afar(depth);
        }
        allowed
    }

    /// Plays a wild die `search` may play next as each number in turn (steps in the order
    /// `search` keeps them).
    #[cold]
    fn try_wild(
        &mut self,
        depth: usize,
        used: u8,
        max_from: usize,
        last_group: u8,
        group: u8,
    ) -> bool {
        let Some((i, _)) = self.next_dice(used, group).find(|&(_, d)| d == WILD) else {
            return false;
        };
        let used = used | (1 << i);
        let top = if self.ordered && group == last_group {
            max_from
        } else {
            POOL
        };
        let mut extended = false;
        for d in 1..=self.rules.faces {
            let mut froms = self.sources(usize::from(d), top);
            while froms != 0 {
                let from = 63 - froms.leading_zeros() as usize;
                froms &= !(1 << from);
                extended |= self.try_step(depth, used, from, d, group);
            }
        }
        extended
    }

    /// Tries each die `search` may play next turning over the checkers of its point
    /// (`[stacks]`; a wild die each point's), apart from the steps so that the hot loop tests
    /// nothing of stacks.
    #[cold]
    fn try_turns(&mut self, depth: usize, used: u8, group: u8) -> bool {
        let mut extended = false;
        for (i, d) in self.next_dice(used, group) {
            let numbers = if d == WILD {
                1..=self.rules.faces
            } else {
                d..=d
            };
            for d in numbers {
                extended |= self.try_turn(depth, used | (1 << i), d, group);
            }
        }
        extended
    }

    /// The dice `search` may play next, each number once, with their places in `dice`.
    fn next_dice(&self, used: u8, group: u8) -> impl Iterator<Item = (usize, u8)> {
        let (dice, groups) = (self.dice, self.groups);
        let mut tried = 0u32;
        (0..self.ndice).filter_map(move |i| {
            let d = dice[i];
            if used & (1 << i) != 0 || groups[i] != group || tried & (1 << d) != 0 {
                return None;
            }
            tried |= 1 << d;
            Some((i, d))
        })
    }

    /// Tries each die `search` may play next striking (`[[moves.strike]]`), apart from the
    /// steps so that the hot loop tests nothing of strikes.
    #[cold]
    fn try_strikes(&mut self, depth: usize, used: u8, group: u8) -> bool {
        let mut extended = false;
        for (i, d) in self.next_dice(used, group) {
            for n in points_of(self.strike_targets(d, depth)) {
                extended |= self.try_strike(depth, used | (1 << i), n, d, group);
            }
        }
        extended
    }

    /// The mover's points whose lone opposing checker die `d` may strike, as bits.
    fn strike_targets(&mut self, d: u8, depth: usize) -> u64 {
        let bits = strikes(self.rules, &self.view(0, 0, d, false, depth));
        // Charged as `all_hold` charges its conditions.
        let cost: u32 = self.rules.strikes.iter().map(Expr::cost).sum();
        self.budget = self.budget.saturating_sub(cost / 16);
        bits
    }

    /// Plays die `d` striking the lone opposing checker on point `n`, if the step rules allow
    /// it, and goes on from there.
    fn try_strike(&mut self, depth: usize, used: u8, n: usize, d: u8, group: u8) -> bool {
        let rules = self.rules;
        self.steps[self.base + depth] = [n as u8, n as u8];
        let saved = self.saved();
        self.hit_points(1 << n);
        let allowed = !rules.after_step || self.after_step(n, n, d, true, depth);
        if allowed {
            if depth + 1 == self.ndice {
                self.candidate(depth + 1, |g| g.now.key);
            } else {
                self.search(depth + 1, used, POOL, group);
            }
        }
        self.unhit_points(1 << n);
        self.restore(saved);
        allowed
    }

    /// Plays die `d` turning over the checkers of point `d`, if the rules allow it, and goes
    /// on from there.
    fn try_turn(&mut self, depth: usize, used: u8, d: u8, group: u8) -> bool {
        let n = self.rules.board.stack_point(usize::from(d));
        let Some(unstack) = self.turning(n, d, depth) else {
            return false;
        };
        self.steps[self.base + depth] = [n as u8; 2];
        let saved = self.saved();
        let kept = self.stacked;
        self.turn_over(n, unstack);
        if !self.rules.remember.is_empty() {
            self.remember(n, n, d, false, depth);
        }
        if depth + 1 == self.ndice {
            self.candidate(depth + 1, |g| g.now.key);
        } else {
            self.search(depth + 1, used, POOL, group);
        }
        self.restore(saved);
        self.stacked = kept;
        true
    }

    /// Puts back what `saved` kept.
    #[inline(always)]
    fn restore(&mut self, saved: Saved) {
        let now = &mut self.now;
        (now.t.their_pins, now.key, now.lands, now.t.remembered) = saved;
    }

    /// What die `d` does on its point `n`, tested on the position now: lays checkers down
    /// (`Some(true)`), stacks them again, or nothing.
    fn turning(&mut self, n: usize, d: u8, depth: usize) -> Option<bool> {
        let stacks = self.rules.stacks.as_ref()?;
        let view = self.view(n, n, d, false, depth);
        let turning = stacks.turning(&view);
        let cost = [&stacks.unstack, &stacks.restack]
            .into_iter()
            .flatten()
            .map(Expr::cost)
            .sum::<u32>();
        self.budget = self.budget.saturating_sub(cost / 16);
        turning
    }

    /// Turns over the checkers of point `n` as `turning` said.
    fn turn_over(&mut self, n: usize, unstack: bool) {
        let per_die = self.rules.stacks.as_ref().map_or(1, |s| s.per_die);
        (self.stacked).turn_over(&self.rules.board, &self.now.t.me, n, per_die, unstack);
        self.now.key = self.now.key.with_stacked(self.stacked.mine);
    }

    #[inline]
    fn leave_allowed(
        &mut self,
        from: usize,
        to: usize,
        die: u8,
        lands: bool,
        depth: usize,
    ) -> bool {
        self.rules.leave_mask & (1 << from) == 0
            || self.leave_rules_allow(from, to, die, lands, depth)
    }

    fn view(&self, from: usize, to: usize, die: u8, lands: bool, depth: usize) -> StepView<'_> {
        StepView {
            turn: &self.now.t,
            stacked: self.stacked.mine,
            board: &self.rules.board,
            lone: Self::LONE,
            die,
            from,
            to,
            lands,
            earlier: &self.steps[..self.base + depth],
            info: self.info,
        }
    }

    #[cold]
    fn leave_rules_allow(
        &mut self,
        from: usize,
        to: usize,
        die: u8,
        lands: bool,
        depth: usize,
    ) -> bool {
        let rules = self.rules;
        if let Some(stacks) = &rules.stacks {
            let view = self.view(from, to, die, lands, depth);
            if stacks.holds_back(&view) {
                return false;
            }
        }
        let leave = rules.leave.iter().filter(|r| usize::from(r.point) == from);
        let bear_off = rules.bear_off.iter().filter(|_| to == OFF);
        self.all_hold(
            leave.map(|r| &r.when).chain(bear_off),
            from,
            to,
            die,
            lands,
            depth,
        )
    }

    /// Whether every one of `conditions` (the `[[moves.step]]` rules, or the leave rules of a
    /// point) holds of the step, the evaluations counted against the search's budget: about one sequence for every 16 operations (what extending a
    /// sequence costs, roughly).
    #[cold]
    fn all_hold<'e>(
        &mut self,
        conditions: impl Iterator<Item = &'e Expr>,
        from: usize,
        to: usize,
        die: u8,
        lands: bool,
        depth: usize,
    ) -> bool {
        let mut cost = 0;
        let view = self.view(from, to, die, lands, depth);
        let allowed = conditions.into_iter().all(|c| {
            cost += c.cost();
            c.test(&view)
        });
        self.budget = self.budget.saturating_sub(cost / 16);
        allowed
    }

    /// The key after a step from `from` to `to`, not yet played.
    #[inline]
    fn key_after(&self, from: usize, to: usize, lands: bool) -> Key {
        let mut key = self.now.key;
        key.remove(from);
        key.add(to);
        if lands {
            key.mark(to);
        }
        if Self::LONE == Lone::Pin && from <= self.rules.board.points && self.now.t.me[from] == 1 {
            key.unmark(from);
        }
        key
    }

    // Always inlined into the search: its other caller, the steps of a turn played a step at
    // a time, would otherwise make it a call in the innermost loop.
    #[inline(always)]
    fn apply(&mut self, from: usize, to: usize, lands: bool) {
        let rules = self.rules;
        let board = &rules.board;
        self.now.key = self.key_after(from, to, lands);
        let now = &mut self.now;
        now.t.step(board, Self::LONE, from, to, lands);
        if lands {
            now.lands &= !(1 << to);
        }
        if now.t.me[from] == 0 {
            now.occupied &= !(1 << from);
            if Self::LONE == Lone::Pin && from <= board.points {
                // The checker pinned there is free again, for a later step to pin.
                let again = now.t.landing(board, Self::LONE, from) == Some(true);
                now.lands |= u64::from(again) << from;
            }
        }
        if to != OFF {
            now.occupied |= 1 << to;
        }
        if from > board.home && to <= board.home {
            now.behind -= 1;
        }
    }

    /// What `undo` puts back: the pins, key, landings and remembered bits from before a step
    /// (stacks, which few games have, are kept apart by their callers).
    #[inline(always)]
    fn saved(&self) -> Saved {
        let now = &self.now;
        (now.t.their_pins, now.key, now.lands, now.t.remembered)
    }

    /// What the rules work out after the step just applied: the `[[remember]]` bits it sets,
    /// and whether it meets the `[[moves.step]]` conditions.
    #[inline(always)]
    fn after_step(&mut self, from: usize, to: usize, die: u8, lands: bool, depth: usize) -> bool {
        let rules = self.rules;
        if self.stacks() {
            self.now.key = self.now.key.with_stacked(self.stacked.mine);
        }
        if !rules.hits.is_empty() && from != to {
            self.hit_afar(from, to, lands, depth);
        }
        if !rules.remember.is_empty() {
            self.remember(from, to, die, lands, depth);
        }
        rules.step.is_empty() || self.all_hold(rules.step.iter(), from, to, die, lands, depth)
    }

    /// Sets the mover's `[[remember]]` bits that hold after the step just applied (in the key
    /// too).
    #[cold]
    fn remember(&mut self, from: usize, to: usize, die: u8, lands: bool, depth: usize) {
        let view = self.view(from, to, die, lands, depth);
        let bits = remembered_after(&self.rules.remember, &view);
        // Charged as `all_hold` charges its conditions.
        let cost: u32 = self.rules.remember.iter().map(Expr::cost).sum();
        self.budget = self.budget.saturating_sub(cost / 16);
        self.now.t.remembered = bits;
        self.now.key = self.now.key.with_remembered(bits);
    }

    /// Hits from afar what the `[[moves.hit]]` rules say the step just applied hits (marked in
    /// the key as a landing's hit is), kept for `undo_afar`.
    #[cold]
    fn hit_afar(&mut self, from: usize, to: usize, lands: bool, depth: usize) {
        // `die` is no name of a `[[moves.hit]]` rule, as of a `[[remember]]` one.
        let bits = hits_afar(self.rules, &self.view(from, to, 0, lands, depth));
        // Charged as `all_hold` charges its conditions.
        let cost: u32 = self.rules.hits.iter().map(Expr::cost).sum();
        self.budget = self.budget.saturating_sub(cost / 16);
        self.afar[self.base + depth] = bits;
        self.hit_points(bits);
    }

    /// Hits the lone opposing checkers on the mover's points `bits` without a landing (from
    /// afar, or by a strike), marked in the key as a landing's hit is.
    fn hit_points(&mut self, bits: u64) {
        self.now.t.hit_afar(&self.rules.board, bits);
        // A point hit is empty now: nothing to land on there, nor does a lone checker block.
        self.now.lands &= !bits;
        if Self::LONE == Lone::Block {
            self.closed &= !bits;
        }
        for n in points_of(bits) {
            self.now.key.mark(n);
        }
    }

    /// Takes back `hit_points(bits)` (the key and landings come back with what `saved` kept).
    fn unhit_points(&mut self, bits: u64) {
        self.now.t.unhit_afar(&self.rules.board, bits);
        if Self::LONE == Lone::Block {
            self.closed |= bits;
        }
    }

    /// Takes back what `hit_afar` hit at step `depth`.
    #[cold]
    fn undo_afar(&mut self, depth: usize) {
        let bits = std::mem::take(&mut self.afar[self.base + depth]);
        self.unhit_points(bits);
    }

    /// Takes back `apply(from, to, lands)`, given what `saved` kept from before it.
    #[inline(always)]
    fn undo(&mut self, from: usize, to: usize, lands: bool, saved: Saved) {
        let rules = self.rules;
        self.restore(saved);
        let now = &mut self.now;
        if lands && Self::LONE == Lone::Hit {
            now.t.opp[rules.board.across(to)] = 1;
            now.t.opp[rules.board.hit_to] -= 1;
        }
        now.t.me[to] -= 1;
        now.t.me[from] += 1;
        if now.t.me[to] == 0 {
            now.occupied &= !(1 << to);
        }
        now.occupied |= (1 << from) & !1;
        if from > rules.board.home && to <= rules.board.home {
            now.behind += 1;
        }
    }

    /// A sequence that cannot be extended: kept when it uses the most dice seen so far. `key`
    /// gives its position's key, needed only to look it up in `seen`.
    #[inline]
    fn candidate(&mut self, depth: usize, key: impl FnOnce(&Self) -> Key) {
        if depth < self.best || self.budget == 0 {
            return;
        }
        if !self.collect {
            self.best = depth;
            if depth == self.ndice {
                self.halt();
            }
            return;
        }
        if depth > self.best {
            self.best = depth;
            self.out.clear();
            self.seen.clear();
        }
        if self.distinct || self.seen.insert(key(self)) {
            if self.out.len() == LIMITS.turn_moves {
                // Too many to list: the turn is played a step at a time.
                self.halt();
                return;
            }
            self.out.push(TablesMove {
                steps: self.steps,
                len: depth as u8,
                die: 0,
                cube: None,
            });
        }
    }
}

/// The dice of `roll` a turn of `steps` left unplayed: each step used the die of its
/// distance, or (bearing off) the smallest larger one left; `dice`, when known (a turn played
/// a step at a time), are the dice the steps used. A double counts as many dice as it gives
/// moves.
pub fn unplayed(rules: &MoveRules, roll: &[u8], steps: &[[u8; 2]], dice: Option<&[u8]>) -> Vec<u8> {
    fn take(left: &mut Vec<u8>, d: u8) -> bool {
        let i = left.iter().position(|&x| x == d);
        i.map(|i| left.remove(i)).is_some()
    }
    let mut left: Vec<u8> = match *roll {
        // The moves a wild double leaves are no dice to give.
        [a, b] if a == b && rules.wild_doubles => return Vec::new(),
        [a, b] if a == b => vec![a; rules.double_steps(a)],
        _ => roll.to_vec(),
    };
    if let Some(dice) = dice {
        for &d in dice {
            take(&mut left, d);
        }
        return left;
    }
    // Exact steps first: a step bearing off may have used a larger die.
    let mut off = Vec::new();
    for &[from, to] in steps {
        let d = rules.board.step_length([from, to]);
        if !take(&mut left, d) {
            off.push(d);
        }
    }
    for d in off {
        if let Some(&larger) = left.iter().filter(|&&x| x >= d).min() {
            take(&mut left, larger);
        }
    }
    left
}

/// The mover's `[[remember]]` bits after the step `view` describes (the position after it):
/// those set before, and those whose condition holds now.
pub fn remembered_after(remember: &[Expr], view: &StepView) -> u8 {
    let mut bits = view.turn.remembered;
    for (i, when) in remember.iter().enumerate() {
        if bits & (1 << i) == 0 && when.test(view) {
            bits |= 1 << i;
        }
    }
    bits
}

/// The mover's points whose lone opposing checker the step `view` shows (played) hits from
/// afar by the `[[moves.hit]]` rules, as bits (rules that pin hit nothing from afar).
pub fn hits_afar(rules: &MoveRules, view: &StepView) -> u64 {
    lone_opposing_at(&rules.board, &rules.hits, view)
}

/// The mover's points whose lone opposing checker the die of `view` may strike by the
/// `[[moves.strike]]` rules, as bits.
pub fn strikes(rules: &MoveRules, view: &StepView) -> u64 {
    lone_opposing_at(&rules.board, &rules.strikes, view)
}

/// The points `at` name (worked out on `view`, the mover's numbering) where a lone opposing
/// checker stands, as bits; numbers off the board name none.
fn lone_opposing_at(board: &Board, at: &[Expr], view: &StepView) -> u64 {
    at.iter()
        .map(|e| e.eval(view))
        .filter(|&n| (1..=board.points as i32).contains(&n))
        .map(|n| n as usize)
        .filter(|&n| view.turn.opp[board.across(n)] == 1)
        .fold(0, |bits, n| bits | 1 << n)
}

/// Plays `mv`'s steps on `pos` for `mover`: the resulting position's key (its counts and
/// marks, not the stacks) and, for each step, whether it landed on a lone opposing checker
/// (hit or pinned it) or hit one from afar.
pub fn replay(
    rules: &MoveRules,
    pos: &Position,
    mover: usize,
    mv: &TablesMove,
    info: &TurnInfo,
) -> (Turn, Key, [bool; MAX_STEPS]) {
    let mut t = pos.turn(mover);
    let mut stacked = Stacked::of(pos, mover);
    let mut key = Key::of(&t.me);
    let mut lands_at = [false; MAX_STEPS];
    for (i, &[from, to]) in mv.steps().iter().enumerate() {
        let (from, to) = (usize::from(from), usize::from(to));
        if from == to && rules.stacks.is_none() {
            // A strike (`[[moves.strike]]`), written as a hit.
            t.hit_afar(&rules.board, 1 << from);
            key.mark(from);
            lands_at[i] = true;
            continue;
        }
        if from == to {
            turn_over(rules, &t, &mut stacked, from, info, &mv.steps()[..i]);
            continue;
        }
        let lands = to != OFF && t.landing(&rules.board, rules.lone, to) == Some(true);
        if rules.stacks.is_some() {
            stacked.before_step(&t, &rules.board, rules.lone, [from, to], lands);
        }
        t.step(&rules.board, rules.lone, from, to, lands);
        key.remove(from);
        key.add(to);
        if lands {
            key.mark(to);
        }
        if !rules.hits.is_empty() {
            let view = StepView {
                turn: &t,
                stacked: stacked.mine,
                board: &rules.board,
                lone: rules.lone,
                die: 0,
                from,
                to,
                lands,
                earlier: &mv.steps()[..i],
                info,
            };
            let bits = hits_afar(rules, &view);
            t.hit_afar(&rules.board, bits);
            for n in points_of(bits) {
                key.mark(n);
            }
            // Written as a hit of the step (`20/17*`): the step that hit, wherever it hit.
            lands_at[i] = bits != 0;
        }
        if rules.lone == Lone::Pin && from <= rules.board.points && t.me[from] == 0 {
            key.unmark(from);
        }
        lands_at[i] |= lands;
    }
    (t, key, lands_at)
}

/// Plays a step `[n, n]` of `[stacks]` on `stacked`: turns over the checkers of point n as the
/// rules say of the position now (`t`; `earlier`: the turn's steps before it).
pub fn turn_over(
    rules: &MoveRules,
    t: &Turn,
    stacked: &mut Stacked,
    n: usize,
    info: &TurnInfo,
    earlier: &[[u8; 2]],
) {
    let Some(stacks) = &rules.stacks else {
        return;
    };
    let view = StepView {
        turn: t,
        stacked: stacked.mine,
        board: &rules.board,
        lone: rules.lone,
        die: n as u8,
        from: n,
        to: n,
        lands: false,
        earlier,
        info,
    };
    if let Some(unstack) = stacks.turning(&view) {
        stacked.turn_over(&rules.board, &t.me, n, stacks.per_die, unstack);
    }
}
