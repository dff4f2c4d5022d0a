//! The tables rules-file format as spanned serde structs (every value that may need an error
//! report keeps its place in the file).

use crate::rules::GameInfo;
use serde::Deserialize;
use toml::Spanned;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesFile {
    pub game: GameInfo,
    pub setup: Setup,
    #[serde(default)]
    pub moves: Moves,
    #[serde(default)]
    pub scoring: Option<Scoring>,
    #[serde(default, rename = "match")]
    pub match_: Option<MatchRules>,
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
    /// What a landing does to a lone opposing checker: `"hit"` (to the bar; two or more block)
    /// or `"blocks"` (a single checker blocks the point; nobody is ever hit).
    #[serde(default)]
    pub lone_checker: Option<Spanned<String>>,
    /// `[[moves.leave]]`: conditions for moving a checker off a point.
    #[serde(default)]
    pub leave: Vec<Leave>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Leave {
    /// The point (in the mover's numbering, 1..24).
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
    /// Who starts the next game: `"ritual"` (the starting ritual again, the default),
    /// `"loser"`, `"winner"` or `"alternate"`.
    #[serde(default)]
    pub next_first: Option<Spanned<crate::game::NextFirst>>,
}
