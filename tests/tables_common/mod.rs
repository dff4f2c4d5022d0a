//! Shared helpers of the tables tests: compiling rules and reading legal moves as texts.
#![allow(dead_code)]

use ludus::game::{Game, Notation};
use ludus::rules::Source;
use ludus::tables::{self, Position, TablesGame, TablesState};
use std::collections::{BTreeSet, HashSet};

/// A bundled tables game.
pub fn load(name: &str) -> TablesGame {
    tables_compile(&Source::find(name).unwrap().text).unwrap()
}

/// A tables rules text compiled by the family's own compiler.
pub fn tables_compile(text: &str) -> Result<TablesGame, Vec<ludus::diagnostics::Diagnostic>> {
    let doc = ludus::rules::RulesDoc::parse(text).map_err(|d| vec![d])?;
    tables::compile(&doc)
}

/// The legal moves as sorted texts.
pub fn legal(game: &TablesGame, st: &TablesState) -> Vec<String> {
    let mut moves = Vec::new();
    game.legal_moves(st, &mut moves);
    let mut t: Vec<String> = moves.iter().map(|m| game.move_text(st, m)).collect();
    t.sort();
    t
}

/// Plays the legal move written `text`.
pub fn play(game: &TablesGame, st: &mut TablesState, text: &str) {
    let mv = game
        .parse_move(st, text)
        .unwrap_or_else(|e| panic!("{text}: {e:?}"));
    game.play(st, &mv);
}

/// The positions the step decisions from `st` (a turn's start) end the turn in.
pub fn step_ends(by_steps: &TablesGame, st: &TablesState) -> BTreeSet<Vec<u8>> {
    let mut ends = BTreeSet::new();
    let mut seen = HashSet::new();
    let mut stack = vec![*st];
    let mut moves = Vec::new();
    while let Some(s) = stack.pop() {
        by_steps.legal_moves(&s, &mut moves);
        assert!(!moves.is_empty(), "a turn in progress with no step");
        for m in &moves {
            assert!(m.die().is_some() || m.is_pass(), "a whole move among steps");
            let mut next = s;
            by_steps.play(&mut next, m);
            if next.played().len == 0 {
                ends.insert(position_key(next.position()));
            } else if seen.insert(state_key(&next)) {
                stack.push(next);
            }
        }
    }
    ends
}

/// A turn in progress by what its rest depends on: the position, and the dice and steps
/// played (their order aside: the bundled games' rules on steps count earlier steps).
fn state_key(st: &TablesState) -> (Vec<u8>, Vec<u8>, Vec<[u8; 2]>) {
    let mut dice = st.played().dice().to_vec();
    dice.sort_unstable();
    let mut steps = st.played().steps().to_vec();
    steps.sort_unstable();
    (position_key(st.position()), dice, steps)
}

pub fn position_key(p: &Position) -> Vec<u8> {
    let mut k: Vec<u8> = p.sides.iter().flatten().copied().collect();
    k.extend(p.pinned.iter().flat_map(|b| b.to_le_bytes()));
    k.extend(p.remembered);
    k.extend(p.stacked.iter().flat_map(|b| b.to_le_bytes()));
    k
}
