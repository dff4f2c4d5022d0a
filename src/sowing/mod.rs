//! Sowing games (mancala family): TODO
use crate::diagnostics::Diagnostic;

#[derive(Clone, Debug)]
pub struct SowingGame {}

pub fn compile(_text: &str) -> Result<SowingGame, Vec<Diagnostic>> {
    todo!()
}
