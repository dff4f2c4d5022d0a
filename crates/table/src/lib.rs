//! Where the families meet and a game is played: the [`registry`] (the one list of families,
//! `AnyGame`), the [`record`] format, and the [`table`] (seats, dice, ritual, undo, agreed
//! endings, the next game of a match, the record), through which every front end plays, and
//! moves in people's words ([`said`]).

pub mod record;
pub mod registry;
pub mod said;
pub mod table;
