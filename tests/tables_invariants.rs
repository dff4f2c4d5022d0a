//! Invariants over thousands of random games of each bundled tables game, and the generator
//! against a brute-force one (every order of every die, no shortcuts) on the positions met.

use ludus::game::{Game, Json, Notation, Phase};
use ludus::rules::Source;
use ludus::tables::{self, Position, TablesGame, TablesMove, TablesState};
use rand::{Rng, SeedableRng};
use std::collections::HashSet;

fn load(name: &str) -> TablesGame {
    tables_compile(&Source::find(name).unwrap().text).unwrap()
}

fn check_position(p: &Position) {
    for side in &p.sides {
        assert_eq!(side.iter().map(|&c| u32::from(c)).sum::<u32>(), 15, "{p:?}");
    }
    for n in 1..=24 {
        assert!(
            p.sides[0][n] == 0 || p.sides[1][25 - n] == 0,
            "point {n} shared: {p:?}"
        );
    }
}

/// Every legal full-turn result under the plain Backgammon rules, by brute force: all dice
/// orders, every checker, then the maximum-dice and larger-die rules.
fn brute_force(p: &Position, mover: usize, dice: [u8; 2]) -> HashSet<Position> {
    fn step(p: &Position, mover: usize, from: usize, d: usize) -> Option<Position> {
        let me = &p.sides[mover];
        if me[from] == 0 || (me[25] > 0 && from != 25) {
            return None;
        }
        let mut q = *p;
        if from > d {
            let to = from - d;
            let c = p.sides[1 - mover][25 - to];
            if c >= 2 {
                return None;
            }
            q.sides[mover][from] -= 1;
            q.sides[mover][to] += 1;
            if c == 1 {
                q.sides[1 - mover][25 - to] = 0;
                q.sides[1 - mover][25] += 1;
            }
            return Some(q);
        }
        let all_home = me[7..].iter().all(|&c| c == 0);
        let highest = me[from + 1..7].iter().all(|&c| c == 0);
        if !all_home || (from < d && !highest) {
            return None;
        }
        q.sides[mover][from] -= 1;
        q.sides[mover][0] += 1;
        Some(q)
    }
    fn walk(
        p: &Position,
        mover: usize,
        dice: &[u8],
        used: usize,
        out: &mut Vec<(usize, u8, Position)>,
        first: u8,
    ) {
        let mut moved = false;
        for (i, &d) in dice.iter().enumerate() {
            for from in 1..=25 {
                if let Some(q) = step(p, mover, from, usize::from(d)) {
                    moved = true;
                    let rest: Vec<u8> = dice
                        .iter()
                        .enumerate()
                        .filter(|&(j, _)| j != i)
                        .map(|(_, &x)| x)
                        .collect();
                    walk(
                        &q,
                        mover,
                        &rest,
                        used + 1,
                        out,
                        if used == 0 { d } else { first },
                    );
                }
            }
        }
        if !moved {
            out.push((used, first, *p));
        }
    }
    let list: Vec<u8> = if dice[0] == dice[1] {
        vec![dice[0]; 4]
    } else {
        dice.to_vec()
    };
    let mut all = Vec::new();
    walk(p, mover, &list, 0, &mut all, 0);
    let best = all.iter().map(|a| a.0).max().unwrap();
    let mut keep: Vec<&(usize, u8, Position)> = all.iter().filter(|a| a.0 == best).collect();
    if best == 1 && dice[0] != dice[1] {
        let hi = dice[0].max(dice[1]);
        if keep.iter().any(|a| a.1 == hi) {
            keep.retain(|a| a.1 == hi);
        }
    }
    keep.into_iter().map(|a| a.2).collect()
}

/// Plays `games` random games (or matches) and checks every state on the way.
fn random_games(name: &str, games: usize, seed: u64, brute: bool) -> usize {
    let g = load(name);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut moves: Vec<TablesMove> = Vec::new();
    let mut turns = 0;
    for i in 0..games {
        let mut st: TablesState = g.new_game(i % 2);
        loop {
            check_position(st.position());
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
                    let dice = st.dice().unwrap();
                    let mut seen = HashSet::new();
                    for m in &moves {
                        let mut after = st;
                        g.play(&mut after, m);
                        assert!(seen.insert(*after.position()), "a position listed twice");
                        assert_eq!(
                            m.steps().len(),
                            moves[0].steps().len(),
                            "all moves use as many dice"
                        );
                        if turns % 11 == 0 {
                            let text = g.move_text(&st, m);
                            assert_eq!(g.parse_move(&st, &text).as_ref(), Ok(m), "{text}");
                        }
                    }
                    if brute {
                        assert_eq!(
                            seen,
                            brute_force(st.position(), p, dice),
                            "{}",
                            g.state_json(&st)
                        );
                    }
                    let m = moves[rng.gen_range(0..moves.len())];
                    g.play(&mut st, &m);
                    turns += 1;
                }
                Phase::Over => match g.next_game(&st, turns % 2) {
                    Some(next) => st = next,
                    None => break,
                },
            }
        }
    }
    turns
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

/// A tables rules text compiled by the family's own compiler.
fn tables_compile(text: &str) -> Result<TablesGame, Vec<ludus::diagnostics::Diagnostic>> {
    let doc = ludus::rules::RulesDoc::parse(text).map_err(|d| vec![d])?;
    tables::compile(&doc)
}
