//! Shared helpers of the tables tests: compiling rules and reading legal moves as texts.
#![allow(dead_code)]

use ludus::game::{Game, Notation};
use ludus::rules::Source;
use ludus::tables::{self, TablesGame, TablesState};

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
