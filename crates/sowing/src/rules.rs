//! The sowing rules format: the TOML tables as spanned serde structs. Unknown keys, wrong types
//! and misspelt options are reported by `toml` at their place in the file; the checks that need
//! more than one value (a numbering that misses a pit, a layout of the wrong length) are in
//! `compile.rs`.

use ludus_core::rules::{Ai, GameInfo};
use serde::Deserialize;
use toml::Spanned;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    pub game: GameInfo,
    pub board: Spanned<Board>,
    #[serde(default)]
    pub setup: Option<Spanned<Setup>>,
    #[serde(default)]
    pub sowing: Option<Sowing>,
    #[serde(default)]
    pub capture: Option<Capture>,
    #[serde(default)]
    pub house: Option<Spanned<House>>,
    #[serde(default)]
    pub turn: Option<Turn>,
    #[serde(default)]
    pub end: Option<End>,
    #[serde(default, rename = "match")]
    pub match_: Option<Match>,
    #[serde(default)]
    pub ai: Option<Ai>,
}

/// `[board]`: the pits each player owns and how they are numbered.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Board {
    /// Rows of pits per player: 1 (two-row boards) or 2 (four-row boards).
    #[serde(default)]
    pub rows: Option<Spanned<u32>>,
    /// Pits in each row.
    pub pits: Spanned<u32>,
    /// Whether each player has a store on the board.
    #[serde(default)]
    pub stores: bool,
    /// Each player's pit numbering as `[row, column]` places from the owner's seat (row 1 faces
    /// the opponent, column 1 is the owner's leftmost), pit 1 first. Default: derived.
    #[serde(default)]
    pub numbering: Option<Spanned<Vec<Spanned<Vec<u32>>>>>,
}

/// `[setup]`: the starting position and who starts.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// Stones in every pit.
    #[serde(default)]
    pub stones: Option<Spanned<u32>>,
    /// Stones per pit, one list per player in that player's numbering (or one list used by both).
    #[serde(default)]
    pub layout: Option<Spanned<Vec<Spanned<Vec<u32>>>>>,
    /// The first ply of a new game must sow this pit (in the mover's numbering).
    #[serde(default)]
    pub first_move: Option<Spanned<u32>>,
    /// How the first player of a match is chosen.
    #[serde(default)]
    pub ritual: Option<RitualKind>,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum RitualKind {
    None,
    OddOrEven,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Direction {
    #[default]
    Counterclockwise,
    Clockwise,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum CircuitKind {
    /// Both players' pits (and the stores that are sown).
    #[default]
    Board,
    /// The mover's own pits only.
    Own,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum StoreSowing {
    #[default]
    None,
    /// The mover sows into their own store, never the opponent's.
    Own,
    Both,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum SkipOrigin {
    /// The emptied pit is sown into again when the sowing laps round.
    #[default]
    Never,
    /// Each lifted pit is skipped while its own stones are sown (Oware's 12+ rule).
    Lap,
    /// The move's origin pit is skipped for the whole move, relays included.
    Move,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Relay {
    #[default]
    None,
    /// After the last stone, the next pit along the circuit is lifted and sown on if it holds
    /// stones; the move ends at an empty next pit.
    Next,
    /// As `next`, with the pit before the last (against the sowing direction): the literal
    /// reading of Sat-gharva's seed ("the neighbour clockwise").
    Previous,
    /// The last stone's pit is lifted and sown on if it held stones before the drop.
    Last,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum FirstDrop {
    /// The first stone goes into the pit after the one lifted.
    #[default]
    Next,
    /// The first stone goes back into the pit lifted (a single stone moves on): Toguz Korgool.
    Origin,
}

/// Who decides whether a pit `sowing.take` matches goes to its owner's store.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum TakeChoice {
    /// Nobody: it is taken.
    #[default]
    None,
    /// The pit's owner, also during the opponent's sowing.
    Owner,
    /// The player sowing.
    Mover,
}

/// Whose store a pit `sowing.take` matches goes to.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum TakeTo {
    /// The pit's owner's.
    #[default]
    Owner,
    /// The player sowing's.
    Mover,
}

/// Whether the mover may decline a capture.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum CaptureChoice {
    /// The capture is made.
    #[default]
    None,
    /// The mover makes it or leaves it.
    Mover,
}

/// `[sowing]`: how a move is made.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sowing {
    #[serde(default)]
    pub direction: Direction,
    /// A move from a pit for which this holds sows the other way round (context `start`).
    #[serde(default)]
    pub reverse: Option<Spanned<String>>,
    /// The mover chooses the direction of a move from a pit for which this holds (context
    /// `start`).
    #[serde(default)]
    pub direction_choice: Option<Spanned<String>>,
    #[serde(default)]
    pub circuit: CircuitKind,
    #[serde(default)]
    pub stores: StoreSowing,
    /// Which pits a move may start from (context `start`).
    #[serde(default)]
    pub start: Option<Spanned<String>>,
    #[serde(default)]
    pub first_drop: FirstDrop,
    #[serde(default)]
    pub skip_origin: SkipOrigin,
    #[serde(default)]
    pub relay: Relay,
    /// A relay lift happens only when this holds (context `relay`); by default always.
    #[serde(default)]
    pub relay_when: Option<Spanned<String>>,
    /// On every drop, a pit for which this holds goes at once to its owner's store (context
    /// `drop`).
    #[serde(default)]
    pub take: Option<Spanned<String>>,
    /// Who may take or leave a pit `take` matches (by default it is taken).
    #[serde(default)]
    pub take_choice: Option<Spanned<TakeChoice>>,
    /// Whose store a pit `take` matches goes to.
    #[serde(default)]
    pub take_to: Option<Spanned<TakeTo>>,
    /// A move that has sown this many laps of its circuit ends there (a guard for relays).
    #[serde(default)]
    pub max_laps: Option<Spanned<u32>>,
    /// When the opponent has no stones, a move must give them some.
    #[serde(default)]
    pub must_feed: MustFeed,
}

/// The feeding rule: what a move must do when the opponent's pits are empty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MustFeed {
    /// Nothing (`false`).
    #[default]
    No,
    /// Sow some stones into the opponent's pits (`true` or `"sown"`).
    Sown,
    /// Leave the opponent stones in their pits once the move, capture included, is over
    /// (`"kept"`); taking back what the move fed them is then a capture, never a grand slam.
    Kept,
}

impl<'de> Deserialize<'de> for MustFeed {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = MustFeed;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("`true`, `false`, \"sown\" or \"kept\"")
            }
            fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<MustFeed, E> {
                Ok(if v { MustFeed::Sown } else { MustFeed::No })
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<MustFeed, E> {
                match v {
                    "sown" => Ok(MustFeed::Sown),
                    "kept" => Ok(MustFeed::Kept),
                    _ => Err(E::unknown_variant(v, &["sown", "kept"])),
                }
            }
        }
        d.deserialize_any(Visitor)
    }
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Target {
    Last,
    Opposite,
    Column,
    Next,
    Beyond,
}

/// Which way a capture's chain walks from the first pit taken.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum ChainWay {
    /// Back over the pits just sown (against the sowing).
    #[default]
    Back,
    /// On, the way the move sowed.
    On,
    /// Both ways.
    Both,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum GrandSlam {
    /// Captures as usual.
    #[default]
    Capture,
    /// Legal, captures nothing.
    NoCapture,
    /// Illegal while any other move is legal; as the only move it captures.
    Forbidden,
}

/// `[capture]`: what the mover takes when the sowing ends.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Capture {
    /// The condition at the end of the move (context `capture`).
    pub when: Spanned<String>,
    /// The pits taken when it holds.
    pub take: Spanned<Vec<Target>>,
    /// Then, walking back along the circuit from the first target, each pit is taken while this
    /// holds (context `chain`).
    #[serde(default)]
    pub chain: Option<Spanned<String>>,
    /// Which way the chain walks from the first target.
    #[serde(default)]
    pub chain_way: ChainWay,
    /// The most pits the chain adds, each way it walks.
    #[serde(default)]
    pub chain_max: Option<Spanned<u32>>,
    #[serde(default)]
    pub grand_slam: GrandSlam,
    /// Where the captured stones go.
    #[serde(default)]
    pub to: CaptureTo,
    /// Where captured stones sown on start from (with `to = "sow"`).
    #[serde(default)]
    pub sow_from: Option<Spanned<SowFrom>>,
    /// Whether the mover may decline the capture.
    #[serde(default)]
    pub choice: CaptureChoice,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum CaptureTo {
    /// To the mover's store, once the sowing has ended.
    #[default]
    Store,
    /// Checked after every lap; the captured stones are sown on at once from the pit that lap
    /// was lifted from, and the move goes on (Omweso).
    Sow,
}

/// Where captured stones sown on (`capture.to = "sow"`) start from.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum SowFrom {
    /// As if lifted again from the pit the lap started from (Omweso).
    #[default]
    Lap,
    /// From the lap's last pit: the first stone goes into the pit after it.
    Last,
}

/// `[house]`: a pit that becomes a player's house for the rest of the game (Toguz Korgool's
/// tuzdyk): its stones, and every stone later sown into it, go to that player's store.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct House {
    /// Checked once the sowing has ended: the last pit becomes the mover's house (context
    /// `house`).
    pub when: Spanned<String>,
    /// Whether the mover may decline the house.
    #[serde(default)]
    pub choice: HouseChoice,
}

/// Whether the mover may decline a house `when` allows.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum HouseChoice {
    /// The house is made.
    #[default]
    None,
    /// The mover makes it or leaves it.
    Mover,
}

/// `[turn]`: who moves next.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Turn {
    /// The mover moves again when this holds (context `again`).
    #[serde(default)]
    pub again: Option<Spanned<String>>,
}

/// What happens when the player to move has no legal move.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum NoMove {
    /// The game ends, scored as any other ending.
    #[default]
    Ends,
    /// They pass and the other player moves on; the game ends when neither can move.
    Pass,
    /// The game ends and they lose (a player immobilised loses).
    Loses,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Leftover {
    /// Stones left on the board go to the owner of the side they are on.
    #[default]
    Owners,
    /// They are not counted.
    None,
    /// All of them go to the opponent of the player to move (in a game ended by no legal
    /// move: to the player who moved last).
    Opponent,
    /// All of them go to the player who made the last move.
    Mover,
    /// They are shared out evenly; an odd stone goes to the player with fewer in store (on
    /// equal stores, to the player who did not make the last move).
    Divided,
}

/// `[end]`: when the game ends and how it is scored.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct End {
    /// A player for whom this holds wins at once, the mover first (context `win`).
    #[serde(default)]
    pub win: Option<Spanned<String>>,
    /// Ends the game at once, the board left as it is (context `score`).
    #[serde(default)]
    pub score: Option<Spanned<String>>,
    /// Ends the game, stones left on the board going as `leftover` says (context `stop`).
    #[serde(default)]
    pub stop: Option<Spanned<String>>,
    /// A position that repeats (pits, stores, player to move) ends the game.
    #[serde(default)]
    pub repetition: bool,
    /// What happens when the player to move has no legal move.
    #[serde(default)]
    pub no_move: NoMove,
    /// Stones on the board when the game ends otherwise than by `score`.
    #[serde(default)]
    pub leftover: Leftover,
    #[serde(default)]
    pub max_plies: Option<Spanned<u32>>,
    /// The players may end the game by agreement.
    #[serde(default)]
    pub agreement: bool,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum FillFrom {
    /// From the owner's pit with the highest number (their rightmost on a two-row board) down.
    #[default]
    Right,
    Left,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Partial {
    /// The partly filled pit keeps its stones but is out of play, like the unfilled ones.
    #[default]
    Closed,
    Open,
    /// The stones short of a full pit go to the store; the pit stays empty, out of play.
    Store,
}

/// `[match]`: games repeated with the stones each player won.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Match {
    /// Stones per pit when a player refills their pits; fewer loses the match.
    pub refill: Spanned<u32>,
    /// The pits a player must be able to fill to play on; fewer loses the match.
    #[serde(default)]
    pub min_pits: Option<Spanned<u32>>,
    #[serde(default)]
    pub fill_from: FillFrom,
    #[serde(default)]
    pub partial: Partial,
    #[serde(default)]
    pub next_first: ludus_core::game::NextFirst,
}
