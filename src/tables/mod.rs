//! Tables games (backgammon family): TODO
use crate::diagnostics::Diagnostic;

#[derive(Clone, Debug)]
pub struct TablesGame {}

pub fn compile(_text: &str) -> Result<TablesGame, Vec<Diagnostic>> {
    todo!()
}
