//! What a position was made from, so that it can be made again exactly (pickle, `copy`,
//! OpenSpiel's `serialize`): the rules' text, how the position began and every step since. A
//! restored position replays those steps through the engine, which checks each one: a corrupt
//! or tampered form is an error that says which step, never a wrong position.

use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// How a position began.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Began {
    /// `Game.new_initial_state`: `first`, else drawn from `rng` (as it stood before drawing),
    /// which also scatters a random setup.
    New {
        first: Option<usize>,
        rng: Box<ChaCha8Rng>,
    },
    /// `Game.state_from_json`: the STATE text.
    Json(String),
    /// `Table.state()`: the table's record.
    Record(String),
}

/// One step of play since the origin.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// A move, as its action.
    Move(u64),
    /// A roll of the dice, its values in the order given.
    Roll(Vec<u8>),
    /// The next game of a match, started by `first` where it was given, with the generator as
    /// it then stood (it draws who starts where neither `first` nor the rules say, and any
    /// random setup).
    NextGame {
        first: Option<usize>,
        rng: Box<ChaCha8Rng>,
    },
}

/// The serialized form of a game: its rules and how they were loaded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameForm {
    /// The rules' text, and the name a record gives them.
    pub rules: String,
    pub name: String,
    /// The folder whose rules files the text may name (`[match] games`); none for a bundled
    /// text, which names bundled games only.
    pub folder: Option<std::path::PathBuf>,
    pub max_plies: Option<u32>,
    pub steps: bool,
}

/// The serialized form of a position.
#[derive(Debug, Serialize, Deserialize)]
pub struct StateForm {
    pub game: GameForm,
    pub began: Began,
    pub history: Vec<Step>,
    /// The generator as it stands now (for the dice and players drawn from here on).
    pub rng: ChaCha8Rng,
}
