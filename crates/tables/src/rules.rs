//! The tables rules-file format as spanned serde structs (every value that may need an error
//! report keeps its place in the file).

use ludus_core::rules::{Ai, GameInfo};
use serde::Deserialize;
use toml::Spanned;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesFile {
    pub game: GameInfo,
    #[serde(default)]
    pub board: Option<BoardRules>,
    #[serde(default)]
    pub dice: Option<DiceRules>,
    /// Required, except in a file whose `[match] games` names the games (they bring their own).
    #[serde(default)]
    pub setup: Option<Setup>,
    #[serde(default)]
    pub moves: Moves,
    #[serde(default)]
    pub scoring: Option<Scoring>,
    #[serde(default, rename = "match")]
    pub match_: Option<MatchRules>,
    /// `[[win]]`: positions that end the game at once, won by the player who just moved.
    #[serde(default)]
    pub win: Vec<WinRule>,
    /// `[ai]`: in a file of `[match] games`, for every game of the match.
    #[serde(default)]
    pub ai: Option<Ai>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WinRule {
    /// A boolean expression, tested after every turn from the side of the player who moved.
    pub when: Spanned<String>,
    /// What the winner scores (the `[scoring]` names); `[scoring] points` when left out.
    #[serde(default)]
    pub points: Option<Spanned<String>>,
}

/// `[board]`: the points, the home table, and how the two sides' numberings meet.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardRules {
    /// Points on the board (even; 24 by default).
    #[serde(default)]
    pub points: Option<Spanned<i64>>,
    /// Points of the home table, the last of each side's way (a quarter of the board by
    /// default).
    #[serde(default)]
    pub home: Option<Spanned<i64>>,
    /// `"opposite"` (the sides move towards each other: Backgammon) or `"same"` (the same way
    /// round from opposite corners: Long Nardy, Fevga).
    #[serde(default)]
    pub direction: Option<Spanned<String>>,
}

/// `[dice]`: what is thrown and how it is played.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiceRules {
    /// Dice thrown each turn (1 to 3; 2 by default).
    #[serde(default)]
    pub count: Option<Spanned<i64>>,
    /// Faces of each die, numbered from 1 (6 by default).
    #[serde(default)]
    pub faces: Option<Spanned<i64>>,
    /// How many moves a double of two dice gives: 4 (the default) or 2 (played as rolled).
    #[serde(default)]
    pub doubles: Option<Spanned<i64>>,
    /// When only one of two different dice can be played: `"larger"` (it must be the larger
    /// if that one can be played; the default) or `"either"`.
    #[serde(default)]
    pub only_one: Option<Spanned<String>>,
    /// `[dice.bonus]`: a roll that gives more than its dice.
    #[serde(default)]
    pub bonus: Option<BonusRules>,
}

/// `[dice.bonus]`: Acey-deucey's 1-2 and its like.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BonusRules {
    /// The two dice of the roll, such as `[1, 2]`.
    pub roll: Spanned<Vec<i64>>,
    /// What follows the roll's own moves: `"any-double"` (a double of the mover's choosing)
    /// or `"nothing"`.
    #[serde(default)]
    pub then: Option<Spanned<String>>,
    /// The mover rolls again after the turn.
    #[serde(default)]
    pub again: bool,
}

/// `[setup]`: where the checkers start and who starts.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// Each player's checkers in that player's own numbering, player 0 first:
    /// `["24:2 13:5 8:3 6:5", "24:2 13:5 8:3 6:5"]`.
    pub checkers: Spanned<Vec<Spanned<String>>>,
    /// `"higher-die-chooses-colour"` or `"none"` (player 0 starts unless told otherwise).
    #[serde(default)]
    pub ritual: Option<Spanned<String>>,
}

/// `[moves]`: what blocks a point and what restricts leaving one.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Moves {
    /// What a landing does to a lone opposing checker: `"hit"` (to the bar; two or more block),
    /// `"blocks"` (a single checker blocks the point; nobody is ever hit) or `"pin"` (it stays
    /// pinned under the landing checker until that point is left; two or more block).
    #[serde(default)]
    pub lone_checker: Option<Spanned<String>>,
    /// `[[moves.leave]]`: conditions for moving a checker off a point.
    #[serde(default)]
    pub leave: Vec<Leave>,
    /// `[[moves.step]]`: conditions every single step must meet.
    #[serde(default)]
    pub step: Vec<StepRule>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepRule {
    /// A boolean expression, tested on the position after each step.
    pub when: Spanned<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Leave {
    /// The point (in the mover's numbering).
    pub point: Spanned<i64>,
    /// A boolean expression, tested before each step from the point.
    pub when: Spanned<String>,
}

/// `[scoring]`: what the winner of a game scores.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scoring {
    /// An integer expression, from the winner's side (`1`, `1 + gammon + backgammon`,
    /// `loser_left`).
    pub points: Spanned<String>,
}

/// `[match]`: games are played until a player reaches the target.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchRules {
    pub target: Spanned<i64>,
    /// The games played in turn, each a rules file (a bundled name, or a path from this file's
    /// folder): Tavli's `["portes", "plakoto", "fevga"]`. The file then has no rules of its own.
    #[serde(default)]
    pub games: Option<Spanned<Vec<Spanned<String>>>>,
    /// Who starts the next game: `"ritual"` (the starting ritual again, the default),
    /// `"loser"`, `"winner"` or `"alternate"`.
    #[serde(default)]
    pub next_first: Option<Spanned<ludus_core::game::NextFirst>>,
}
