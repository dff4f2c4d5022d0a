//! Why a move or a position was refused. Each keeps only a short excerpt of the input it quotes.

use crate::limits::excerpt;
use std::fmt;

/// Why a move was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// No move is awaited now; says what is (dice first, or the game is over).
    NotAwaited(&'static str),
    /// The text is not in the game's notation.
    Unreadable { text: String, why: String },
    /// The text reads as a move that the rules forbid here, and why.
    Illegal { text: String, why: String },
    /// The text fits several legal moves.
    Ambiguous { text: String, candidates: String },
}

impl MoveError {
    pub fn unreadable(text: &str, why: impl Into<String>) -> MoveError {
        MoveError::Unreadable {
            text: excerpt(text.trim()),
            why: why.into(),
        }
    }
    pub fn illegal(text: &str, why: impl Into<String>) -> MoveError {
        MoveError::Illegal {
            text: excerpt(text.trim()),
            why: why.into(),
        }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::NotAwaited(what) => write!(f, "no move now: {what}"),
            MoveError::Unreadable { text, why } => write!(f, "cannot read `{text}`: {why}"),
            MoveError::Illegal { text, why } => write!(f, "`{text}` is not legal: {why}"),
            MoveError::Ambiguous { text, candidates } => {
                write!(
                    f,
                    "`{text}` is ambiguous (mark hits with `*`, name the points passed): {candidates}"
                )
            }
        }
    }
}

impl std::error::Error for MoveError {}

/// Why a position given in the STATE form was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateError(pub String);

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StateError {}

impl From<String> for StateError {
    fn from(message: String) -> StateError {
        StateError(message)
    }
}

impl From<&str> for StateError {
    fn from(message: &str) -> StateError {
        StateError(message.to_string())
    }
}
