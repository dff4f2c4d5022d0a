//! Invariants over thousands of random games of each bundled tables game, and the generator
//! against a brute-force one (every order of every die, no shortcuts) on the positions met.

mod tables_common;
use tables_common::{load, position_key, step_ends, tables_compile};

use ludus::game::{Game, Json, Notation, Phase};
use ludus::tables::{Position, TablesGame, TablesMove, TablesState, BAR, OFF, POOL, SLOTS};
use rand::{Rng, SeedableRng};
use std::collections::{BTreeSet, HashSet};

/// Positions with the dice left and the first die, walked already.
type Walked = HashSet<(Position, Vec<(u8, u8)>, u8)>;

/// The rules a brute-force generator needs, read by hand from a rules file.
#[derive(Clone, Copy)]
struct Model {
    points: usize,
    home: usize,
    direction: Direction,
    lone: Lone,
    /// A hit checker goes to the pool (`[moves] hit_to = "pool"`), not to the bar.
    hit_to_pool: bool,
    /// `hit_to = "out"`.
    hit_out: bool,
    /// `[moves] bear_off = "mine_in(points/2 + 1, points) + bar + pool == 0"`: bearing off
    /// from the second half of the way on.
    bear_off_from_half: bool,
    /// `[moves] bear_off = "true"`: bearing off at any time.
    bear_off_always: bool,
    /// `[moves] bear_off_larger`: `"farthest"`, `"any"` or `"none"`.
    larger: &'static str,
    /// `[[moves.hit]] at = "if(mine(to) == 1, 25 - to, 0)"`: a checker landing alone hits the
    /// lone opposing checker across the board.
    hit_across: bool,
    /// `[board] pool_from` (0: one beyond the last point, as from the bar).
    pool_from: usize,
    /// `[[moves.strike]] at = "K - die"` with the step rule that makes it compulsory: K (0: no
    /// strikes).
    strike_from: usize,
    double_moves: usize,
    /// `[dice] wild = "doubles"`: each move of a thrown double is any number.
    wild: bool,
    /// `[dice] only_one`: "larger", "either" or "smaller".
    only_one: &'static str,
    /// The bonus roll (lower die first), followed by any double.
    bonus: Option<[u8; 2]>,
    faces: u8,
    checkers: u32,
    /// `[stacks]` as the test file writes them, restated.
    stacks: Option<StacksModel>,
}

/// `[stacks] start = "none"`, `per_die`, `restack = "stacked < restack_below"` (laying down
/// whenever checkers stand stacked), `move = "die > move_above"`.
#[derive(Clone, Copy)]
struct StacksModel {
    per_die: u8,
    restack_below: u8,
    move_above: usize,
    /// `named_from = "start"`: a die of n names the point `points + 1 - n`.
    from_start: bool,
}

/// The stacked checkers of a side's word on its point n.
fn stacked(word: u64, n: usize) -> u8 {
    if n <= 10 {
        (word >> (4 * n) & 0xF) as u8
    } else {
        0
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Direction {
    Opposite,
    Same,
    Shared,
}

#[derive(Clone, Copy, PartialEq)]
enum Lone {
    Hit,
    Block,
    Pin,
    /// Only a lone checker blocks its point; two or more share it.
    Own,
}

const BACKGAMMON: Model = Model {
    points: 24,
    home: 6,
    direction: Direction::Opposite,
    lone: Lone::Hit,
    hit_to_pool: false,
    hit_out: false,
    bear_off_from_half: false,
    bear_off_always: false,
    larger: "farthest",
    hit_across: false,
    pool_from: 0,
    strike_from: 0,
    double_moves: 4,
    wild: false,
    only_one: "larger",
    bonus: None,
    faces: 6,
    checkers: 15,
    stacks: None,
};

impl Model {
    /// The stack field of point n (the die naming it), and the point of field n.
    fn stack_place(&self, n: usize) -> usize {
        match self.stacks {
            Some(s) if s.from_start => self.points + 1 - n,
            _ => n,
        }
    }

    /// Where a hit checker goes: `OFF` for `hit_to = "out"`.
    fn hit_slot(&self) -> usize {
        match (self.hit_out, self.hit_to_pool) {
            (true, _) => OFF,
            (_, true) => POOL,
            _ => BAR,
        }
    }

    fn across(&self, n: usize) -> usize {
        match self.direction {
            Direction::Same => (n - 1 + self.points / 2) % self.points + 1,
            Direction::Opposite => self.points + 1 - n,
            Direction::Shared => n,
        }
    }

    fn check_position(&self, p: &Position) {
        for side in &p.sides {
            assert_eq!(
                side.iter().map(|&c| u32::from(c)).sum::<u32>(),
                self.checkers,
                "{p:?}"
            );
        }
        for (side, &word) in p.sides.iter().zip(&p.stacked) {
            for (n, &here) in side.iter().enumerate().take(self.points + 1).skip(1) {
                let f = self.stack_place(n);
                assert!(stacked(word, f) <= here, "more stacked than stand: {p:?}");
            }
            assert_eq!(word >> (4 * 11), 0, "stacked beyond point 10: {p:?}");
        }
        for n in 1..=self.points {
            let a = self.across(n);
            let shared = p.sides[0][n] > 0 && p.sides[1][a] > 0;
            let pinned = p.pinned[0] & (1 << n) != 0 || p.pinned[1] & (1 << a) != 0;
            assert!(
                !shared || pinned || self.lone == Lone::Own,
                "point {n} shared: {p:?}"
            );
            if p.pinned[0] & (1 << n) != 0 {
                assert!(
                    p.sides[0][n] == 1 && p.sides[1][a] > 0,
                    "bad pin at {n}: {p:?}"
                );
            }
        }
    }

    /// One checker of `mover` from `from` with die `d`, if legal.
    fn step(&self, p: &Position, mover: usize, from: usize, d: usize) -> Option<Position> {
        let me = &p.sides[mover];
        if me[from] == 0 || (me[BAR] > 0 && from != BAR) {
            return None;
        }
        if from <= self.points && p.pinned[mover] & (1 << from) != 0 {
            return None;
        }
        let mut q = *p;
        if let Some(s) = self.stacks {
            // A stacked checker moves only from a point where none lies flat, when `move`
            // allows, and lies flat where it lands.
            let f = if from <= self.points {
                self.stack_place(from)
            } else {
                0
            };
            let k = stacked(p.stacked[mover], f);
            if k > 0 && k == me[from] {
                if d <= s.move_above {
                    return None;
                }
                q.stacked[mover] -= 1 << (4 * f);
            }
        }
        let start = match from {
            POOL if self.pool_from > 0 => self.pool_from,
            BAR | POOL => self.points + 1,
            _ => from,
        };
        let to = if start > d {
            let to = start - d;
            let a = self.across(to);
            let c = p.sides[1 - mover][a];
            match self.lone {
                Lone::Hit if c >= 2 => return None,
                Lone::Hit if c == 1 => {
                    q.sides[1 - mover][a] = 0;
                    let f = self.stack_place(a);
                    if f <= 10 {
                        q.stacked[1 - mover] &= !(0xF << (4 * f));
                    }
                    q.sides[1 - mover][self.hit_slot()] += 1;
                }
                Lone::Block if c >= 1 => return None,
                Lone::Own if c == 1 => return None,
                Lone::Pin if c >= 2 => return None,
                Lone::Pin if c == 1 && p.pinned[1 - mover] & (1 << a) == 0 => {
                    if me[to] > 0 {
                        return None;
                    }
                    q.pinned[1 - mover] |= 1 << a;
                }
                _ => {}
            }
            to
        } else {
            if from >= BAR {
                return None;
            }
            let last = if self.bear_off_from_half {
                self.points / 2
            } else {
                self.home
            };
            let may = self.bear_off_always || me[last + 1..].iter().all(|&c| c == 0);
            let larger_may = match self.larger {
                // A larger die only from the farthest place held.
                "farthest" => me[from + 1..].iter().all(|&c| c == 0),
                "any" => true,
                _ => false,
            };
            if !may || (start < d && !larger_may) {
                return None;
            }
            OFF
        };
        q.sides[mover][from] -= 1;
        q.sides[mover][to] += 1;
        if self.hit_across && to != OFF && q.sides[mover][to] == 1 {
            let a = self.across(self.points + 1 - to);
            if q.sides[1 - mover][a] == 1 && q.pinned[1 - mover] & (1 << a) == 0 {
                q.sides[1 - mover][a] = 0;
                q.sides[1 - mover][self.hit_slot()] += 1;
            }
        }
        if self.lone == Lone::Pin && from <= self.points && q.sides[mover][from] == 0 {
            q.pinned[1 - mover] &= !(1 << self.across(from));
        }
        Some(q)
    }

    /// Die `d` striking the lone opposing checker on the mover's point `strike_from - d`.
    fn strike(&self, p: &Position, mover: usize, d: usize) -> Option<Position> {
        let n = self
            .strike_from
            .checked_sub(d)
            .filter(|&n| (1..=self.points).contains(&n))?;
        let a = self.across(n);
        if p.sides[1 - mover][a] != 1 {
            return None;
        }
        let mut q = *p;
        q.sides[1 - mover][a] = 0;
        q.sides[1 - mover][self.hit_slot()] += 1;
        Some(q)
    }

    /// Die `d` turning over the mover's checkers on its point d, if the rules let it: laying
    /// down `per_die` of those stacked there, else stacking `per_die` of the flat ones.
    fn turn_over(&self, p: &Position, mover: usize, d: usize) -> Option<Position> {
        let s = self.stacks?;
        if d > 10 || d > self.points {
            return None;
        }
        let (k, here) = (
            stacked(p.stacked[mover], d),
            p.sides[mover][self.stack_place(d)],
        );
        let total: u8 = (1..=10).map(|n| stacked(p.stacked[mover], n)).sum();
        let mut q = *p;
        if k > 0 {
            q.stacked[mover] -= u64::from(k.min(s.per_die)) << (4 * d);
        } else if here > 0 && total < s.restack_below {
            q.stacked[mover] += u64::from(here.min(s.per_die)) << (4 * d);
        } else {
            return None;
        }
        Some(q)
    }

    /// Every legal full-turn result by brute force: all dice orders (a group's dice before the
    /// next group's), every checker, then the most-dice and larger-die rules.
    fn brute_force(
        &self,
        p: &Position,
        mover: usize,
        roll: &[u8],
        given: bool,
    ) -> HashSet<Position> {
        #[allow(clippy::too_many_arguments)]
        fn walk(
            m: &Model,
            p: &Position,
            mover: usize,
            dice: &[(u8, u8)],
            used: usize,
            out: &mut Vec<(usize, u8, Position)>,
            first: u8,
            seen: &mut Walked,
        ) {
            // The same position with the same dice left was walked already.
            if !seen.insert((*p, dice.to_vec(), first)) {
                return;
            }
            let mut moved = false;
            let group = dice.iter().map(|d| d.1).min().unwrap_or(0);
            for (i, &(d, g)) in dice.iter().enumerate() {
                if g != group {
                    continue;
                }
                // 0: a wild die, played as each number.
                let numbers = if d == 0 { 1..=m.faces } else { d..=d };
                let mut steps: Vec<Option<Position>> = Vec::new();
                for d in numbers.map(usize::from) {
                    let turned = m.turn_over(p, mover, d);
                    let struck = m.strike(p, mover, d);
                    // A die that can strike must (the step rule of the games that strike).
                    match struck {
                        Some(_) => steps.push(struck),
                        None => steps.extend(
                            (1..SLOTS)
                                .map(|from| m.step(p, mover, from, d))
                                .chain([turned]),
                        ),
                    }
                }
                for q in steps.into_iter().flatten() {
                    moved = true;
                    let mut rest = dice.to_vec();
                    rest.remove(i);
                    walk(
                        m,
                        &q,
                        mover,
                        &rest,
                        used + 1,
                        out,
                        if used == 0 { d } else { first },
                        seen,
                    );
                }
            }
            if !moved {
                out.push((used, first, *p));
            }
        }
        let mut lists: Vec<Vec<(u8, u8)>> = Vec::new();
        // Dice given by the opponent are played as they are.
        let doubles = roll.len() == 2 && roll[0] == roll[1] && !given;
        let sorted = [
            roll[0].min(roll[roll.len() - 1]),
            roll[0].max(roll[roll.len() - 1]),
        ];
        match self.bonus {
            Some(b) if roll.len() == 2 && sorted == b && !given => {
                for k in 1..=self.faces {
                    let mut l = vec![(roll[0], 0), (roll[1], 0)];
                    l.extend(std::iter::repeat_n((k, 1), self.double_moves));
                    lists.push(l);
                }
            }
            _ if doubles => {
                // 0: as many moves as the double's number.
                let n = match self.double_moves {
                    0 => usize::from(roll[0]),
                    n => n,
                };
                let die = if self.wild { 0 } else { roll[0] };
                lists.push(vec![(die, 0); n]);
            }
            _ => lists.push(roll.iter().map(|&d| (d, 0)).collect()),
        }
        let mut all = Vec::new();
        for l in &lists {
            walk(self, p, mover, l, 0, &mut all, 0, &mut HashSet::new());
        }
        let best = all.iter().map(|a| a.0).max().unwrap();
        let mut keep: Vec<&(usize, u8, Position)> = all.iter().filter(|a| a.0 == best).collect();
        if best == 1 && roll.len() == 2 && !doubles && lists.len() == 1 {
            let (lo, hi) = (roll[0].min(roll[1]), roll[0].max(roll[1]));
            match self.only_one {
                "larger" if keep.iter().any(|a| a.1 == hi) => keep.retain(|a| a.1 == hi),
                "smaller" => {
                    keep.retain(|a| a.1 == lo);
                    if keep.is_empty() {
                        // The smaller die cannot be played: the turn is the pass.
                        return [*p].into_iter().collect();
                    }
                }
                _ => {}
            }
        }
        keep.into_iter().map(|a| a.2).collect()
    }
}

/// Plays `games` random games (or matches) and checks every state on the way.
fn random_games(name: &str, games: usize, seed: u64, brute: bool) -> usize {
    random_games_of(&load(name), BACKGAMMON, games, seed, brute)
}

/// Plays `games` random games of `g` (whose rules `model` restates when `brute`).
fn random_games_of(g: &TablesGame, model: Model, games: usize, seed: u64, brute: bool) -> usize {
    random_matches(g, &[model], games, seed, brute).turns
}

/// What random play met.
struct Run {
    turns: usize,
    games: u32,
    /// Games drawn at the ply guard, and matches ended by the match guard.
    guard_ends: u32,
    /// Positions seen with a point both sides stand on.
    shared: usize,
    /// Turns whose dice were given to be played in part or not at all.
    optional: usize,
}

/// Plays `matches` random games (or matches) of `g` and checks every state on the way; game n
/// of a match follows `models[(n - 1) % models.len()]` (a match that plays several rules files
/// in turn).
fn random_matches(g: &TablesGame, models: &[Model], matches: usize, seed: u64, brute: bool) -> Run {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut moves: Vec<TablesMove> = Vec::new();
    let mut run = Run {
        turns: 0,
        games: 0,
        guard_ends: 0,
        shared: 0,
        optional: 0,
    };
    let mut turns = 0;
    for i in 0..matches {
        let mut st: TablesState = g.new_game(i % 2);
        loop {
            let game = g.match_standing(&st).map_or(1, |m| m.game);
            let model = models[(game as usize - 1) % models.len()];
            model.check_position(st.position());
            let pos = st.position();
            run.shared += usize::from(
                (1..=model.points)
                    .any(|n| pos.sides[0][n] > 0 && pos.sides[1][model.across(n)] > 0),
            );
            if turns % 5 == 0 {
                let back = g.state_from_json(&g.state_json(&st)).unwrap();
                assert_eq!(back, st);
            }
            match g.phase(&st) {
                Phase::Roll(_) => {
                    let d = g.dice().unwrap().sample(&mut rng);
                    g.roll(&mut st, &d).unwrap();
                }
                Phase::Move(p) => {
                    g.legal_moves(&st, &mut moves);
                    assert!(!moves.is_empty());
                    let dice = st.dice().unwrap().to_vec();
                    // Dice given that may be played in part: moves of every length.
                    let optional = g.state_json(&st)["optional"] == true;
                    run.optional += usize::from(optional);
                    let mut seen = HashSet::new();
                    // Notation is checked on a sample: a bonus turn can have 100 000 moves, and
                    // each parse generates them all again.
                    let sample = (moves.len() / 20).max(1);
                    for (i, m) in moves.iter().enumerate() {
                        let mut after = st;
                        g.play(&mut after, m);
                        assert!(seen.insert(*after.position()), "a position listed twice");
                        assert!(
                            optional || m.steps().len() == moves[0].steps().len(),
                            "all moves use as many dice"
                        );
                        if turns % 11 == 0 && i % sample == 0 {
                            let text = g.move_text(&st, m);
                            assert_eq!(g.parse_move(&st, &text).as_ref(), Ok(m), "{text}");
                        }
                    }
                    if brute && moves[0].die().is_some() {
                        // A turn too big to list whole, played a step at a time: its steps
                        // reach what the whole turn would.
                        if st.played().len == 0 {
                            let whole = model.brute_force(st.position(), p, &dice, st.dice_given());
                            let whole: BTreeSet<Vec<u8>> = whole.iter().map(position_key).collect();
                            assert_eq!(step_ends(g, &st), whole, "{}", g.state_json(&st));
                        }
                    } else if brute {
                        assert_eq!(
                            seen,
                            model.brute_force(st.position(), p, &dice, st.dice_given()),
                            "{}",
                            g.state_json(&st)
                        );
                    }
                    let m = moves[rng.gen_range(0..moves.len())];
                    let given = st.dice_given();
                    g.play(&mut st, &m);
                    turns += 1;
                    if st.dice_given() && m.die().is_none() {
                        // The opponent is given exactly the dice the move left unplayed.
                        let double = dice.len() == 2 && dice[0] == dice[1] && !given;
                        let total = if double {
                            model.double_moves
                        } else {
                            dice.len()
                        };
                        let left = st.dice().unwrap();
                        assert_eq!(left.len() + m.steps().len(), total, "{dice:?} {left:?}");
                    }
                }
                Phase::Over => {
                    run.games += 1;
                    let drawn = g.outcome(&st).unwrap().winner.is_none();
                    let standing = g.match_standing(&st);
                    let by_match_guard = standing.is_some_and(|m| {
                        m.over && g.guards().games.is_some_and(|most| m.game >= most)
                    });
                    run.guard_ends += u32::from(drawn) + u32::from(by_match_guard);
                    match g.next_game(&st, turns % 2) {
                        Some(next) => st = next,
                        None => break,
                    }
                }
            }
        }
    }
    run.turns = turns;
    run
}

#[test]
fn backgammon_random_games_keep_the_invariants() {
    assert!(random_games("backgammon", 200, 1, false) > 10_000);
}

#[test]
fn backgammon_generator_equals_brute_force() {
    assert!(random_games("backgammon", 15, 2, true) > 700);
}

#[test]
fn had_random_games_keep_the_invariants_and_equal_brute_force() {
    assert!(random_games("had", 100, 3, false) > 5_000);
    assert!(random_games("had", 10, 4, true) > 400);
}

#[test]
fn mughrabieh_random_matches_keep_the_invariants() {
    assert!(random_games("mughrabieh", 4, 5, false) > 1_000);
}

/// Tavli's matches play Portes, Plakoto and Fevga in turn (each game's position checked by its
/// own rules: no checker made or lost, no point shared but by a pin) and end by their rules.
#[test]
fn tavli_random_matches_keep_the_invariants_and_end_by_the_rules() {
    let plakoto = Model {
        lone: Lone::Pin,
        ..BACKGAMMON
    };
    let fevga = Model {
        lone: Lone::Block,
        direction: Direction::Same,
        ..BACKGAMMON
    };
    let g = load("tavli");
    for seed in 0..8 {
        let run = random_matches(&g, &[BACKGAMMON, plakoto, fevga], 3, seed, false);
        // A match to 5 takes 3 games at least (2 points a game at most).
        assert!(run.games >= 9, "seed {seed}: {} games", run.games);
        assert_eq!(run.guard_ends, 0, "seed {seed}");
    }
}

/// The rules file `docs/games/NAME.toml`.
fn game_file(name: &str) -> TablesGame {
    let path = format!("{}/docs/games/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    tables_compile(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A game from a rules text with the board, dice and lone-checker lines given.
fn custom(lines: &str) -> TablesGame {
    tables_compile(&format!(
        "[game]\nname = \"t\"\nfamily = \"tables\"\n{lines}\n"
    ))
    .unwrap()
}

/// Checkers stacked and laid down by the dice naming their points while others move and hit
/// around them; stacked checkers move only with a die above 3.
#[test]
fn stacks_equal_brute_force() {
    let g = custom(
        "[setup]\ncheckers = [\"24:2 13:5 8:3 6:5\", \"24:2 13:5 8:3 6:5\"]\n[stacks]\nstart = \"none\"\nper_die = 2\nrestack = \"stacked < 6\"\nmove = \"die > 3\"",
    );
    let m = Model {
        stacks: Some(StacksModel {
            per_die: 2,
            restack_below: 6,
            move_above: 3,
            from_start: false,
        }),
        ..BACKGAMMON
    };
    assert!(random_games_of(&g, m, 30, 31, false) > 1_500);
    assert!(random_games_of(&g, m, 6, 32, true) > 300);
}

/// Doblet's stacks: pairs laid down by the dice naming their points from the start of the way,
/// never moving stacked.
const FROM_START: StacksModel = StacksModel {
    per_die: 2,
    restack_below: 0,
    move_above: 6,
    from_start: true,
};

/// Dubblets' stacks: one checker laid down a die on the point it names, never moving stacked.
const ONE_A_DIE: StacksModel = StacksModel {
    per_die: 1,
    restack_below: 0,
    move_above: 6,
    from_start: false,
};

/// Stacks where the way begins, a die naming its point from that end (Doblet), beside hits
/// that put a checker out of the game: every turn equals the brute-force one.
#[test]
fn stacks_named_from_the_start_and_hits_out_equal_brute_force() {
    let g = custom(
        "[setup]\ncheckers = [\"24:3 23:3 22:2 21:2 20:2 19:3\", \"24:3 23:3 22:2 21:2 20:2 19:3\"]\n[stacks]\nnamed_from = \"start\"\nper_die = 2\n[moves]\nhit_to = \"out\"",
    );
    let m = Model {
        stacks: Some(FROM_START),
        hit_out: true,
        ..BACKGAMMON
    };
    let run = random_matches(&g, &[m], 30, 49, false);
    assert!(run.turns > 1_000, "{} turns", run.turns);
    assert_eq!(run.guard_ends, 0);
    assert!(random_games_of(&g, m, 6, 50, true) > 200);
}

/// Doblet: its stacks laid down, three dice, two checkers a point at most, hits out of the
/// game. Checkers conserved, every state read back, every game ended by its rules.
#[test]
fn doblet_keeps_the_invariants() {
    let g = game_file("doblet");
    let m = Model {
        stacks: Some(FROM_START),
        hit_out: true,
        checkers: 12,
        ..BACKGAMMON
    };
    let run = random_matches(&g, &[m], 60, 51, false);
    assert!(run.turns > 2_000, "{} turns", run.turns);
    assert_eq!(run.guard_ends, 0);
}

#[test]
fn pinning_equals_brute_force() {
    let g = custom("[setup]\ncheckers = [\"24:15\", \"24:15\"]\n[moves]\nlone_checker = \"pin\"");
    let m = Model {
        lone: Lone::Pin,
        ..BACKGAMMON
    };
    assert!(random_games_of(&g, m, 40, 11, false) > 2_000);
    assert!(random_games_of(&g, m, 6, 12, true) > 300);
}

#[test]
fn same_direction_blocking_equals_brute_force() {
    let g = custom(
        "[board]\ndirection = \"same\"\n[setup]\ncheckers = [\"24:15\", \"24:15\"]\n[moves]\nlone_checker = \"blocks\"",
    );
    let m = Model {
        lone: Lone::Block,
        direction: Direction::Same,
        ..BACKGAMMON
    };
    assert!(random_games_of(&g, m, 40, 13, false) > 2_000);
    assert!(random_games_of(&g, m, 6, 14, true) > 300);
}

/// Blocking Backgammon's points: a lone checker owns (blocks) its point, two or more share it
/// with the opponent's landing beside them; nobody is hit.
#[test]
fn owned_points_equal_brute_force() {
    let g = custom(
        "[setup]\ncheckers = [\"24:2 13:5 8:3 6:5\", \"24:2 13:5 8:3 6:5\"]\n[moves]\nlone_checker = \"owns\"",
    );
    let m = Model {
        lone: Lone::Own,
        ..BACKGAMMON
    };
    let run = random_matches(&g, &[m], 40, 41, false);
    assert!(run.turns > 1_000, "{} turns", run.turns);
    assert!(run.shared > 100, "{} shared points seen", run.shared);
    assert!(random_games_of(&g, m, 8, 42, true) > 200);
}

/// Both sides on one path (Russian Backgammon, Cab e Quinal), a hit checker going off the board
/// to enter when its owner likes, and bearing off from the second half of the way.
#[test]
fn shared_path_hits_to_the_pool_and_early_bear_off_equal_brute_force() {
    let g = custom(
        "[board]\ndirection = \"shared\"\n[setup]\ncheckers = [\"24:8 20:7\", \"23:8 19:7\"]\n[moves]\nhit_to = \"pool\"\nbear_off = \"mine_in(13, 24) + bar + pool == 0\"",
    );
    let m = Model {
        direction: Direction::Shared,
        hit_to_pool: true,
        bear_off_from_half: true,
        ..BACKGAMMON
    };
    let run = random_matches(&g, &[m], 60, 19, false);
    assert!(run.turns > 2_000, "{} turns", run.turns);
    assert_eq!(run.guard_ends, 0);
    assert!(random_games_of(&g, m, 8, 20, true) > 200);
}

/// A double giving as many moves as its number (Jacquet de Versailles), with a fixed third die
/// beside the two thrown on the other side of the test.
#[test]
fn doubles_by_their_number_and_a_fixed_die_equal_brute_force() {
    let g = custom(
        "[dice]\ndoubles = \"face\"\n[setup]\ncheckers = [\"24:2 13:5 8:3 6:5\", \"24:2 13:5 8:3 6:5\"]",
    );
    let m = Model {
        double_moves: 0,
        ..BACKGAMMON
    };
    assert!(random_games_of(&g, m, 40, 23, false) > 1_500);
    assert!(random_games_of(&g, m, 6, 24, true) > 200);
    let g = custom(
        "[dice]\nfixed = 6\n[setup]\ncheckers = [\"24:2 13:5 8:3 6:5\", \"24:2 13:5 8:3 6:5\"]",
    );
    assert!(random_games_of(&g, BACKGAMMON, 40, 25, false) > 1_000);
    assert!(random_games_of(&g, BACKGAMMON, 6, 26, true) > 100);
}

/// Doubles whose every move counts as any number: moving checkers (the steps reordered by the
/// plain rules' shortcut), and laying stacks down on any point, a double of n played twice over
/// by a `[[dice.after]]` table. Small boards and four-sided dice, so that the brute force,
/// which tries every number of every die in every order, stays small.
#[test]
fn wild_doubles_equal_brute_force() {
    let g = custom(
        "[board]\npoints = 12\nhome = 3\n[dice]\nfaces = 4\nwild = \"doubles\"\n[setup]\ncheckers = [\"12:2 7:3 4:2\", \"12:2 7:3 4:2\"]",
    );
    let m = Model {
        points: 12,
        home: 3,
        faces: 4,
        checkers: 7,
        wild: true,
        ..BACKGAMMON
    };
    assert!(random_games_of(&g, m, 40, 52, false) > 1_000);
    assert!(random_games_of(&g, m, 6, 53, true) > 150);
    let g = custom(
        "[board]\npoints = 12\nhome = 6\n[dice]\nfaces = 4\ndoubles = \"face\"\nwild = \"doubles\"\n[[dice.after]]\nwhen = \"doubles and follow == 0\"\nrepeat = true\n[setup]\ncheckers = [\"4:2 3:2 2:2 1:2\", \"4:2 3:2 2:2 1:2\"]\n[stacks]\nstart = \"all\"",
    );
    let m = Model {
        points: 12,
        home: 6,
        faces: 4,
        checkers: 8,
        wild: true,
        double_moves: 0,
        stacks: Some(ONE_A_DIE),
        ..BACKGAMMON
    };
    let run = random_matches(&g, &[m], 100, 54, false);
    assert!(run.turns > 1_000, "{} turns", run.turns);
    assert_eq!(run.guard_ends, 0);
    assert!(random_games_of(&g, m, 30, 55, true) > 300);
}

/// Dubblets: stacks laid down one a die, then borne off by the die naming the point, a double
/// of n laying down or bearing off 2n checkers of any point, the dice a player cannot use
/// played by the opponent. Checkers conserved, every state read back, every game ended by its
/// rules; a double's moves are never given away.
#[test]
fn dubblets_keeps_the_invariants() {
    let g = game_file("dubblets");
    let m = Model {
        stacks: Some(ONE_A_DIE),
        ..BACKGAMMON
    };
    let run = random_matches(&g, &[m], 200, 56, false);
    assert!(run.turns > 5_000, "{} turns", run.turns);
    assert_eq!(run.games, 200);
    assert_eq!(run.guard_ends, 0);
}

/// Checkers in the pool counting from another point than those on the bar (Tawula: both sides
/// the same way round, new checkers entering from the point after the start).
#[test]
fn a_pool_counting_from_its_own_point_equals_brute_force() {
    let g = custom(
        "[board]\ndirection = \"same\"\npool_from = 24\n[setup]\ncheckers = [\"24:2 pool:13\", \"24:2 pool:13\"]",
    );
    let m = Model {
        direction: Direction::Same,
        pool_from: 24,
        ..BACKGAMMON
    };
    let run = random_matches(&g, &[m], 40, 29, false);
    assert!(run.turns > 2_000, "{} turns", run.turns);
    assert!(random_games_of(&g, m, 6, 30, true) > 200);
}

/// Dice a player cannot play go to the opponent (Laquet): the opponent's turn with them equals
/// the brute-force one, and so does every other turn.
#[test]
fn dice_left_to_the_opponent_equal_brute_force() {
    let g = custom(
        "[dice]\nunplayed = \"opponent\"\n[setup]\ncheckers = [\"24:2 13:5 8:3 6:5\", \"24:2 13:5 8:3 6:5\"]",
    );
    let run = random_matches(&g, &[BACKGAMMON], 40, 27, false);
    assert!(run.turns > 2_000, "{} turns", run.turns);
    assert!(random_games_of(&g, BACKGAMMON, 8, 28, true) > 300);
}

/// Doubles followed by their complement and another roll (Russian Backgammon), and by each
/// higher double (Gul Bara): every turn, given or rolled, equals the brute-force one.
#[test]
fn turns_after_doubles_equal_brute_force() {
    for after in [
        "[[dice.after]]\nwhen = \"doubles and follow == 0 and played == 4\"\ndouble = \"7 - die\"\n[[dice.after]]\nwhen = \"follow == 1\"\nagain = true",
        "[[dice.after]]\nwhen = \"doubles and die < 6 and played == 4 and ply >= 2\"\ndouble = \"die + 1\"",
    ] {
        let g = custom(&format!(
            "[setup]\ncheckers = [\"24:2 13:5 8:3 6:5\", \"24:2 13:5 8:3 6:5\"]\n{after}"
        ));
        let run = random_matches(&g, &[BACKGAMMON], 40, 21, false);
        assert!(run.turns > 1_000, "{} turns", run.turns);
        assert_eq!(run.guard_ends, 0);
        assert!(random_games_of(&g, BACKGAMMON, 8, 22, true) > 200);
    }
}

#[test]
fn pool_entry_and_bonus_roll_equal_brute_force() {
    let g = custom(
        "[dice.bonus]\nroll = [1, 2]\nagain = true\n[setup]\ncheckers = [\"pool:15\", \"pool:15\"]",
    );
    let m = Model {
        bonus: Some([1, 2]),
        ..BACKGAMMON
    };
    assert!(random_games_of(&g, m, 40, 15, false) > 2_000);
    assert!(random_games_of(&g, m, 1, 16, true) > 30);
}

#[test]
fn small_boards_other_dice_and_doubles_as_rolled_equal_brute_force() {
    let g = custom(
        "[board]\npoints = 12\nhome = 3\n[dice]\nfaces = 4\ndoubles = 2\nonly_one = \"either\"\n[setup]\ncheckers = [\"12:2 7:3 4:2\", \"12:2 7:3 4:2\"]",
    );
    let m = Model {
        points: 12,
        home: 3,
        faces: 4,
        double_moves: 2,
        only_one: "either",
        checkers: 7,
        ..BACKGAMMON
    };
    assert!(random_games_of(&g, m, 100, 17, false) > 2_000);
    assert!(random_games_of(&g, m, 20, 18, true) > 300);
    // The smaller or none (the Puff games).
    let g = custom(
        "[dice]\nonly_one = \"smaller\"\n[setup]\ncheckers = [\"24:2 13:5 8:3 6:5\", \"24:2 13:5 8:3 6:5\"]",
    );
    let m = Model {
        only_one: "smaller",
        ..BACKGAMMON
    };
    assert!(random_games_of(&g, m, 12, 43, true) > 500);
    let g = custom(
        "[dice]\ncount = 3\n[setup]\ncheckers = [\"24:2 13:5 8:3 6:5\", \"24:2 13:5 8:3 6:5\"]",
    );
    assert!(random_games_of(&g, BACKGAMMON, 40, 19, false) > 1_000);
    assert!(random_games_of(&g, BACKGAMMON, 5, 20, true) > 100);
}

/// Garanguet's dice and bearing off: three dice, a triple played three times and a pair with a
/// lower third once more, given without rolling; bearing off at any time, a larger die from
/// any point (and, apart, by the exact number only).
#[test]
fn dice_given_again_and_larger_dice_from_any_point_equal_brute_force() {
    let g = game_file("garanguet");
    let m = Model {
        hit_to_pool: true,
        bear_off_always: true,
        larger: "any",
        double_moves: 2,
        ..BACKGAMMON
    };
    let run = random_matches(&g, &[m], 40, 31, false);
    assert!(run.turns > 1_000, "{} turns", run.turns);
    assert_eq!(run.guard_ends, 0);
    assert!(random_games_of(&g, m, 6, 32, true) > 200);
    let g = custom(
        "[moves]\nbear_off_larger = \"none\"\n[setup]\ncheckers = [\"24:2 13:5 8:3 6:5\", \"24:2 13:5 8:3 6:5\"]",
    );
    let m = Model {
        larger: "none",
        ..BACKGAMMON
    };
    assert!(random_games_of(&g, m, 40, 33, false) > 1_000);
    assert!(random_games_of(&g, m, 6, 34, true) > 200);
}

/// A checker landing alone hits the lone opposing checker across the board (Tourne-Case's hit
/// from afar), beside hits by landing and, apart, where a single checker blocks: every turn
/// equals the brute-force one.
#[test]
fn hits_from_afar_equal_brute_force() {
    let across = "[[moves.hit]]\nat = \"if(mine(to) == 1, 25 - to, 0)\"";
    let g = custom(&format!(
        "[setup]\ncheckers = [\"24:2 13:5 8:3 6:5\", \"24:2 13:5 8:3 6:5\"]\n{across}"
    ));
    let m = Model {
        hit_across: true,
        ..BACKGAMMON
    };
    let run = random_matches(&g, &[m], 40, 35, false);
    assert!(run.turns > 1_000, "{} turns", run.turns);
    assert!(random_games_of(&g, m, 8, 36, true) > 200);
    let g = custom(&format!(
        "[moves]\nlone_checker = \"blocks\"\nhit_to = \"pool\"\n[setup]\ncheckers = [\"24:2 13:5 8:3 6:5\", \"24:2 13:5 8:3 6:5\"]\n{across}"
    ));
    let m = Model {
        hit_across: true,
        lone: Lone::Block,
        hit_to_pool: true,
        ..BACKGAMMON
    };
    let run = random_matches(&g, &[m], 40, 37, false);
    assert!(run.turns > 1_000, "{} turns", run.turns);
    assert!(random_games_of(&g, m, 8, 38, true) > 200);
}

/// Ketch-Dolt: each side in its own table, a die striking the opponent's lone checker on the
/// point it names instead of moving (and having to): every turn equals the brute-force one.
#[test]
fn strikes_equal_brute_force() {
    let g = game_file("ketch-dolt");
    let m = Model {
        points: 12,
        home: 6,
        direction: Direction::Same,
        hit_to_pool: true,
        pool_from: 7,
        strike_from: 13,
        ..BACKGAMMON
    };
    let run = random_matches(&g, &[m], 60, 47, true);
    assert!(run.turns > 2_000, "{} turns", run.turns);
    assert_eq!(run.guard_ends, 0);
}

/// The Puff games: the lower die or nothing, later doubles played twice with their bottom
/// numbers played in part or not at all, and another throw. Checkers conserved, every state
/// read back from its STATE, every game ended by its rules.
#[test]
fn puff_doubles_keep_the_invariants() {
    for (name, direction) in [
        ("contrare-puff", Direction::Opposite),
        ("lange-puff", Direction::Shared),
    ] {
        let g = game_file(name);
        let m = Model {
            direction,
            hit_to_pool: true,
            ..BACKGAMMON
        };
        let run = random_matches(&g, &[m], 30, 45, false);
        assert!(run.turns > 3_000, "{name}: {} turns", run.turns);
        assert!(
            run.optional > 100,
            "{name}: {} optional turns",
            run.optional
        );
        assert_eq!(run.guard_ends, 0, "{name}");
    }
}

/// Fallas: hit checkers put back on their starting quadrant when the turn ends, a side whose
/// hit checker has nowhere to go and a player who cannot move losing. Checkers conserved, no
/// point shared, every state read back from its STATE, every game ended by its rules.
#[test]
fn checkers_put_back_and_players_who_cannot_move_keep_the_invariants() {
    let g = game_file("fallas");
    let run = random_matches(&g, &[BACKGAMMON], 60, 39, false);
    assert!(run.turns > 1_000, "{} turns", run.turns);
    assert_eq!(run.guard_ends, 0);
}

/// Every tables game file of `docs/games`, in random games: each side keeps its checkers
/// (on the board, the bar, in the pool or borne off), every state reads back from its STATE,
/// every listed move is a distinct position, and every game ends by its rules: a draw only where
/// the file's `[end]` table draws, never at Ludus's ply guard.
#[test]
fn every_tables_game_file_keeps_the_invariants() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/games");
    let mut files = 0;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(57);
    let mut moves: Vec<TablesMove> = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        if path.extension().is_none_or(|e| e != "toml") || !text.contains("family = \"tables\"") {
            continue;
        }
        let name = path.display();
        let g = tables_compile(&text).unwrap();
        let draws = text.contains("\n[end]");
        files += 1;
        for i in 0..12 {
            let mut st: TablesState = g.new_game(i % 2);
            let totals = |p: &Position| {
                p.sides
                    .map(|s| s.iter().map(|&c| u32::from(c)).sum::<u32>())
            };
            let start = totals(st.position());
            let mut plies = 0u32;
            loop {
                assert_eq!(
                    totals(st.position()),
                    start,
                    "{name}: checkers lost or made"
                );
                if plies.is_multiple_of(7) {
                    let back = g.state_from_json(&g.state_json(&st)).unwrap();
                    assert_eq!(back, st, "{name}");
                }
                match g.phase(&st) {
                    Phase::Roll(_) => {
                        let d = g.dice().unwrap().sample(&mut rng);
                        g.roll(&mut st, &d).unwrap();
                    }
                    Phase::Move(_) => {
                        g.legal_moves(&st, &mut moves);
                        assert!(!moves.is_empty(), "{name}: no move listed");
                        let mut seen = HashSet::new();
                        for m in &moves {
                            let mut after = st;
                            g.play(&mut after, m);
                            let key = (*after.position(), after.played().steps().to_vec());
                            assert!(seen.insert(key), "{name}: a move listed twice");
                        }
                        let m = moves[rng.gen_range(0..moves.len())];
                        g.play(&mut st, &m);
                        plies += 1;
                    }
                    Phase::Over => break,
                }
            }
            let drawn = g.outcome(&st).unwrap().winner.is_none();
            assert!(!drawn || draws, "{name}: a game drawn by the ply guard");
        }
    }
    assert!(files >= 60, "{files} files");
}
