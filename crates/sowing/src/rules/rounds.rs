//! `[match]`: games repeated as rounds, each player refilling their pits from the stones they
//! won, or owning as many pits as those stones fill; or rounds played afresh, each scoring points
//! towards a target.

use super::{Cx, CONDITION};
use crate::fast::Closes;
use crate::scope::Context;
use ludus_core::expr::{Expr, Type};
use ludus_core::game::{next_first_text, NextFirst, Player, Ritual};
use ludus_core::limits::LIMITS;
use ludus_core::rules::reference::{KeyRef, SectionRef};
use serde::Deserialize;
use std::fmt::Write;
use toml::Spanned;

/// `[match]` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Match {
    /// Stones per pit when a player refills their pits; fewer loses the match.
    #[serde(default)]
    pub refill: Option<Spanned<u32>>,
    /// The points each round gives a player (an expression of context round).
    #[serde(default)]
    pub points: Option<Spanned<String>>,
    /// The match points that win the match.
    #[serde(default)]
    pub target: Option<Spanned<u32>>,
    /// The pits a player must be able to fill to play on; fewer loses the match.
    #[serde(default)]
    pub min_pits: Option<Spanned<u32>>,
    #[serde(default)]
    pub fill_from: Option<Spanned<FillFrom>>,
    #[serde(default)]
    pub partial: Option<Spanned<Partial>>,
    /// Each later round arranged by the poorer player, from hand, and copied by the richer.
    #[serde(default)]
    pub arrange: Option<Spanned<Arrange>>,
    /// With `arrange`, whether the pits the arrangement leaves empty stay in play.
    #[serde(default)]
    pub arranged_empty: Option<Spanned<ArrangedEmpty>>,
    /// With `arrange`, which of the richer player's pits copies each of the poorer's.
    #[serde(default)]
    pub arranged_copy: Option<Spanned<ArrangedCopy>>,
    /// With `arrange`, the fewest stones a player must hold to play another round.
    #[serde(default)]
    pub min_held: Option<Spanned<u32>>,
    /// With `arrange`, when the arranging player may end the arrangement, keeping the stones
    /// still in hand in their store (context `arrange`).
    #[serde(default)]
    pub arranged_stop: Option<Spanned<String>>,
    /// How many pits each player fills: as many as their stones allow, or as many as the
    /// poorer player's.
    #[serde(default)]
    pub fill_count: Option<Spanned<FillCount>>,
    /// Who refills at a round's end: both players, or the round's loser alone.
    #[serde(default)]
    pub refill_by: Option<Spanned<RefillBy>>,
    #[serde(default)]
    pub owners: Owners,
    #[serde(default)]
    pub contested: Option<Spanned<Contested>>,
    /// With pits that change owner, how a later round's pits are filled.
    #[serde(default)]
    pub round_start: Option<Spanned<RoundStart>>,
    /// With pits that change owner, which pits count toward `min_pits`.
    #[serde(default)]
    pub min_pits_count: Option<Spanned<MinPitsCount>>,
    #[serde(default)]
    pub next_first: NextFirst,
    /// Who starts after a drawn round when `next_first` names the loser or the winner.
    #[serde(default)]
    pub draw_first: Option<Spanned<DrawFirst>>,
}

/// Who starts the round after a drawn one, when `next_first` names the loser or the winner.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum DrawFirst {
    /// The player who did not start the drawn round.
    #[default]
    Other,
    /// The player who made its last move.
    LastMover,
    /// The player whose turn it would have been (the other player, unless the last move
    /// earned another).
    NextMover,
}

/// With pits that change owner, which pits count toward `min_pits`.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum MinPitsCount {
    /// The pits the player would own next round (the partly filled pit as `contested` says).
    #[default]
    Owned,
    /// The pits their stones fill, the partly filled one only when they hold more than half
    /// of it.
    MoreThanHalf,
}

/// With pits that change owner, who owns the pit a player's stones fill only in part.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Contested {
    /// The player holding more of its stones; the round's loser when they hold as many.
    #[default]
    More,
    /// The round's loser: the winner owns only the pits their stones fill.
    Loser,
    /// The round's loser, and it starts the round empty: the stones short of a full pit stay
    /// in each player's store.
    LoserEmpty,
    /// As `More`, but a pit each holds as many of goes to one of them by lot.
    Lot,
}

/// With pits that change owner, how a later round's pits are filled.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum RoundStart {
    /// `refill` stones in every pit.
    #[default]
    Refill,
    /// As `[setup]` lays a new game, side by side, whoever owns the pits now.
    Setup,
}

/// Who owns which pits in the next round.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Owners {
    /// Each player keeps the pits on their side and refills them.
    #[default]
    Sides,
    /// Each player owns as many pits as their stones fill, `refill` a pit: the pits change
    /// owner from round to round.
    Filled,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum FillFrom {
    /// From the owner's pit with the highest number (their rightmost on a two-row board) down.
    #[default]
    Right,
    /// From pit 1 up.
    Left,
    /// From both ends inward, alternately, the end at player 0's left first for both players
    /// (player 0: pit 1, pit n, pit 2, …; player 1: pit n, pit 1, pit n − 1, …).
    Outside,
    /// From the end of the board at player 0's left, for both players (player 0: pit 1 up;
    /// player 1: pit n down).
    BoardLeft,
}

/// Who arranges the stones of a later round.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Arrange {
    /// The player holding fewer places them all from hand; the other copies the arrangement.
    Poorer,
}

/// With `arrange`, what becomes of the pits the arrangement leaves empty.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum ArrangedEmpty {
    /// They stay in play, on both sides.
    #[default]
    Open,
    /// They are out of play for the round, on both sides.
    Closed,
}

/// With `arrange`, which of the richer player's pits copies each of the poorer's.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum ArrangedCopy {
    /// The pit facing it across the board: a mirror image.
    #[default]
    Facing,
    /// The pit of the same number in the richer player's numbering.
    SameNumber,
}

/// Who refills their pits at the end of a round.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum RefillBy {
    /// Both players, each from the stones they hold.
    #[default]
    Both,
    /// The round's loser alone; the winner's side and store stay as the round left them.
    Loser,
}

/// How many pits each player fills at a refill.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum FillCount {
    /// As many as their stones allow.
    #[default]
    Own,
    /// As many as the poorer player fills (their partly filled pit counted); the richer
    /// player's other stones stay in their store.
    Poorer,
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
    /// The stones short of a full pit go to the store; every pit stays in play, the unfilled
    /// ones empty.
    StoreOpen,
    /// The partly filled pit keeps its stones and every pit stays in play, the unfilled ones
    /// empty.
    OpenAll,
}

pub(crate) const SECTION: SectionRef = SectionRef {
    name: "match",
    line: "games repeated as rounds: stones carried over (refilled pits, or pits won), or rounds played afresh for points",
    required: false,
    repeated: false,
    keys: KEYS,
};

const KEYS: &[KeyRef] = &[
    KeyRef {
        section: "match",
        key: "points",
        line: "context round: the points a round gives each player, in a match of rounds played afresh",
        expects: "an integer expression (context round)",
        values: &[],
        default: "\"mover.won\" (with `target`)",
        example: "points = \"mover.won\"",
        long: "A match of rounds each played afresh from `[setup]` (with `target`, instead of \
               `refill`): at the end of each round this is evaluated for each player as `mover` \
               and added to their match points; `target` points win the match. Round wins: \
               `\"mover.won\"` (the default); stones: `\"mover.held\"`; the winner's margin: \
               `\"mover.won * (mover.held - opponent.held)\"`.",
    },
    KeyRef {
        section: "match",
        key: "target",
        line: "the match points that win a match of rounds played afresh",
        expects: "a whole number of 1 or more",
        values: &[],
        default: "—",
        example: "target = 3",
        long: "With `points`: the first player whose match points reach `target` at the end of \
               a round wins the match; when both reach it, the one with more (equal: a drawn \
               match).",
    },
    KeyRef {
        section: "match",
        key: "refill",
        line: "stones per pit when each player refills their pits at the end of a round",
        expects: "a whole number of 1 or more (at most half the stones in the game)",
        values: &[],
        default: "—",
        example: "refill = 7",
        long: "At the end of a round each player refills their pits with this many stones each \
               from the stones they hold (store and side); a player holding fewer than one pit's \
               worth loses the match. Stones beyond a full refill go to the store, where they stay \
               and count.",
    },
    KeyRef {
        section: "match",
        key: "min_pits",
        line: "the pits a player must be able to fill to play another round; fewer loses the match",
        expects: "a whole number",
        values: &[],
        default: "1",
        example: "min_pits = 4",
        long: "A player holding fewer than `min_pits` pits' worth of stones (`refill` each) at \
               the end of a round loses the match. With `0`, a player holding any stones plays \
               on (with `partial = \"open\"`, from a pit filled in part): the match ends when a \
               player holds none (Rab'e).",
    },
    KeyRef {
        section: "match",
        key: "fill_from",
        line: "the end a refill starts from",
        expects: "\"right\", \"left\", \"outside\" or \"board-left\"",
        values: &["right", "left", "outside", "board-left"],
        default: "\"right\"",
        example: "fill_from = \"right\"",
        long: "\"right\": from the player's highest-numbered pit down; \"left\": from pit 1 up; \
               \"outside\": from both ends of the player's pits inward, alternately, starting \
               for both players at the end on player 0's left (player 0: pit 1, pit n, pit 2, \
               pit n - 1, …; player 1: pit n, pit 1, pit n - 1, pit 2, …): the pits short of a \
               full refill are the middle ones; \"board-left\": from the end of the board at \
               player 0's left, for both (player 0: pit 1 up; player 1: pit n down): Jongkak's \
               holes filled from the west.",
    },
    KeyRef {
        section: "match",
        key: "partial",
        line: "what becomes of the stones short of a full pit at a refill",
        expects: "\"closed\", \"open\", \"open-all\", \"store\" or \"store-open\"",
        values: &["closed", "open", "open-all", "store", "store-open"],
        default: "\"closed\"",
        example: "partial = \"closed\"",
        long: "\"closed\": the last, partly filled pit keeps its stones and is out of play with \
               the unfilled ones; \"open\": it stays in play; \"open-all\": it stays in play, and \
               so do the unfilled ones, empty (Khrour); \"store\": those stones go to the \
               store and the pit stays empty, out of play; \"store-open\": those stones go to \
               the store and every pit stays in play, the unfilled ones empty (Tegre). \
               Out-of-play pits reopen when their owner holds enough stones at a later refill.",
    },
    KeyRef {
        section: "match",
        key: "arrange",
        line: "each later round arranged from hand by the poorer player and copied by the richer (in place of `refill`)",
        expects: "\"poorer\"",
        values: &["poorer"],
        default: "none (the pits are refilled, `refill` a pit)",
        example: "arrange = \"poorer\"",
        long: "\"poorer\": at the start of each later round the player holding fewer stones (the \
               player who does not start the round when both hold as many) takes them all in hand and places them, \
               one at a time, into their own pits, where `[setup] place` allows (as `[setup] \
               to_place`); then the other player's pits copy the arrangement, each the count of \
               the pit facing it (a mirror image across the board), the rest of their stones \
               staying in their store, out of play for the round. Not on a board with a middle \
               row, where no pit faces another. The match ends \
               when a player holds no stones (Baqura; Kiuthi; Leyla Gobale, with `place` spreading \
               the stones evenly). Not with `refill`.",
    },
    KeyRef {
        section: "match",
        key: "arranged_empty",
        line: "with `arrange`, whether the pits the arrangement leaves empty stay in play",
        expects: "\"open\" or \"closed\"",
        values: &["open", "closed"],
        default: "\"open\"",
        example: "arranged_empty = \"closed\"",
        long: "\"open\": a pit the poorer player leaves empty, and the richer's pit copying it, \
               stay in play; \"closed\": both are out of play for the round (Leyla Gobale: a \
               player with four counters or fewer puts one a hole, and the empty holes are not \
               used, by either player).",
    },
    KeyRef {
        section: "match",
        key: "arranged_stop",
        line: "context arrange: with `arrange`, when the arranging player may stop, keeping the stones still in hand",
        expects: CONDITION,
        values: &[],
        default: "none (every stone is placed)",
        example: "arranged_stop = \"mover.occupied == 8 and mover.most >= 2\"",
        long: "A condition (context arrange: the names of the players, `mover` the player \
               arranging, `mover.to_place` the stones still in hand) checked before each stone \
               the arranging player places: where it holds they may end the arrangement instead, \
               written `done`; the stones still in hand go to their store, out of play for the \
               round, and the other player copies the arrangement. Giuthi: the loser lays out \
               their stones, at least one a pit and one pit of two, and may keep the others.",
    },
    KeyRef {
        section: "match",
        key: "min_held",
        line: "with `arrange`, the fewest stones a player must hold at the end of a round to play another",
        expects: "a whole number of 1 or more",
        values: &[],
        default: "1",
        example: "min_held = 2",
        long: "With `arrange`: a player holding fewer stones than this at the end of a round \
               loses the match (Gabata of Ansaba: \"until one player has one or zero counters\", \
               `min_held = 2`). (A match that refills its pits says it with `min_pits`.)",
    },
    KeyRef {
        section: "match",
        key: "arranged_copy",
        line: "with `arrange`, which of the richer player's pits copies each of the poorer's: the pit facing it, or the pit of the same number",
        expects: "\"facing\" or \"same-number\"",
        values: &["facing", "same-number"],
        default: "\"facing\"",
        example: "arranged_copy = \"same-number\"",
        long: "\"facing\": each of the richer player's pits gets the count of the poorer's pit \
               facing it (a mirror image across the board: Baqura, Leyla Gobale); \"same-number\": \
               the count of the poorer's pit of the same number, each in its owner's numbering \
               (the arrangement turned round with the board: Gabata of Ansaba, where the winner \
               \"matches this starting configuration\" from their own right).",
    },
    KeyRef {
        section: "match",
        key: "fill_count",
        line: "how many pits each player refills: as many as their stones allow, or as many as the poorer player's",
        expects: "\"own\" or \"poorer\"",
        values: &["own", "poorer"],
        default: "\"own\"",
        example: "fill_count = \"poorer\"",
        long: "\"own\": each player fills as many pits as their stones allow; \"poorer\": the \
               player holding more fills, `refill` a pit, only as many pits as the poorer player \
               puts stones into (a pit the poorer fills in part counts), and keeps the rest of \
               their stones in their store, out of play for the round; their other pits are out \
               of play, or stay in play empty with `partial = \"store-open\"` (Rab'e, Adi).",
    },
    KeyRef {
        section: "match",
        key: "refill_by",
        line: "who refills at a round's end: both players, or the round's loser alone",
        expects: "\"both\" or \"loser\"",
        values: &["both", "loser"],
        default: "\"both\"",
        example: "refill_by = \"loser\"",
        long: "\"both\": each player refills their pits from the stones they hold; \"loser\": \
               only the round's loser does, from their store and the stones left on their \
               side (as `fill_from` and `partial` say), while the winner starts the next round \
               with their side and store as the round left them (pits out of play staying \
               out). A round is then won by the player holding more, store and side together. \
               The match ends when the loser cannot fill `min_pits` pits, when the winner has \
               no stone to sow on their side, and, drawn, after a drawn round (no loser to \
               refill). Jongkak: \"The winner starts the next round without changing their \
               side of the board\"; with `[end] leftover = \"none\"`, so that the stones left \
               on the board stay there when the round ends.",
    },
    KeyRef {
        section: "match",
        key: "owners",
        line: "who owns which pits in the next round: their own side, or as many pits as their stones fill",
        expects: "\"sides\" or \"filled\"",
        values: &["sides", "filled"],
        default: "\"sides\"",
        example: "owners = \"filled\"",
        long: "\"sides\": each player refills the pits of their side. \"filled\": pits change \
               owner: at the end of a round each player owns as many pits as their stones fill, \
               `refill` a pit (the partly filled pit as `contested` says); the round's winner (the \
               player holding more stones) owns the run of pits from their pit 1 on in the \
               sowing order (counterclockwise), their own side first, the loser the rest; every \
               pit starts the round with `refill` stones, the stores empty. A player moves from \
               the pits they own, on either side; `V.side`, `mover.pits` and the other names of \
               a player's pits mean the pits the player owns. A player who would own fewer than \
               `min_pits` pits loses the match. The stones of the game must fill every pit.",
    },
    KeyRef {
        section: "match",
        key: "min_pits_count",
        line: "with pits that change owner, which pits count toward `min_pits`",
        expects: "\"owned\" or \"more-than-half\"",
        values: &["owned", "more-than-half"],
        default: "\"owned\"",
        example: "min_pits_count = \"more-than-half\"",
        long: "\"owned\": a player who would own fewer than `min_pits` pits in the next round \
               loses the match (the pit filled in part counted for whoever `contested` gives it \
               to); \"more-than-half\": a player whose stones fill fewer than `min_pits` pits \
               loses it, a pit filled in part counting only when they hold more than half of it \
               (so a player left with two pits and half a third loses a match that asks for \
               three, though the half pit would be theirs).",
    },
    KeyRef {
        section: "match",
        key: "round_start",
        line: "with pits that change owner, how a later round's pits are filled: `refill` each, or as a new game",
        expects: "\"refill\" or \"setup\"",
        values: &["refill", "setup"],
        default: "\"refill\"",
        example: "round_start = \"setup\"",
        long: "With `owners = \"filled\"`: \"refill\": every pit starts a later round with \
               `refill` stones; \"setup\": the stones are laid as `[setup]` lays a new game \
               (its `layout`, the starter's list for the round's starter with `layout_for = \
               \"starter\"`, and the houses of `[house] start`), each side's pits in that side's \
               numbering whoever owns them now; `refill` is still what a pit is worth when the \
               pits are shared out (Sadeqa II: each round starts from its opening pattern).",
    },
    KeyRef {
        section: "match",
        key: "contested",
        line: "with pits that change owner, who owns the pit the stones fill only in part",
        expects: "\"more\", \"loser\", \"loser-empty\" or \"lot\"",
        values: &["more", "loser", "loser-empty", "lot"],
        default: "\"more\"",
        example: "contested = \"loser\"",
        long: "With `owners = \"filled\"`: \"more\": the pit the winner's stones fill only in part \
               goes to the player holding more of its stones, to the round's loser when they hold \
               as many; \"loser\": it goes to the round's loser (the winner owns only the pits \
               their stones fill); \"loser-empty\": it goes to the round's loser and starts the \
               round empty, each player's stones short of a full pit staying in their store \
               (Ayo); \"lot\": as \"more\", but a pit each holds as many of goes to one of them \
               by lot, drawn by the table as a scatter's deal is (Lahemay Waladat; the protocol's \
               `deal` `[[1], [0]]` gives it to player 0).",
    },
    KeyRef {
        section: "match",
        key: "next_first",
        line: "who starts the next round of a match",
        expects: "\"ritual\", \"loser\", \"winner\" or \"alternate\"",
        values: &["ritual", "loser", "winner", "alternate"],
        default: "\"ritual\"",
        example: "next_first = \"loser\"",
        long: "Who starts the next round: \"ritual\" (the starting ritual is held again before \
               every round, as the source texts describe it), \"loser\" or \"winner\" of the last \
               round, or \"alternate\" (the player who did not start); after a draw, \"loser\" and \
               \"winner\" mean the player `draw_first` names.",
    },
    KeyRef {
        section: "match",
        key: "draw_first",
        line: "who starts after a drawn round when `next_first` is \"loser\" or \"winner\"",
        expects: "\"other\", \"last-mover\" or \"next-mover\"",
        values: &["other", "last-mover", "next-mover"],
        default: "\"other\"",
        example: "draw_first = \"last-mover\"",
        long: "With `next_first = \"loser\"` or `\"winner\"`, who starts the round after a drawn \
               one: \"other\" (the player who did not start the drawn round), \"last-mover\" \
               (the player who made its last move) or \"next-mover\" (the player whose turn it \
               would have been).",
    },
];

/// The rounds of a match, compiled.
#[derive(Clone, Debug)]
pub(crate) struct MatchRule {
    /// Stones a pit at each refill (0 in a match of rounds played afresh).
    pub(crate) refill: u8,
    /// The pits a player must be able to fill to play on.
    pub(crate) min_pits: u32,
    pub(crate) fill_from: FillFrom,
    pub(crate) partial: Partial,
    pub(crate) fill_count: FillCount,
    /// Only the round's loser refills (`refill_by = "loser"`).
    pub(crate) refill_loser: bool,
    /// Later rounds arranged by the poorer player and copied by the richer (`refill` is 0).
    pub(crate) arrange: bool,
    /// With `arrange`, the pits left empty are out of play for the round.
    pub(crate) arranged_empty_closed: bool,
    /// With `arrange`, the richer player's pit of the same number copies each of the
    /// poorer's (else the pit facing it).
    pub(crate) arranged_same_number: bool,
    /// With `arrange`, the fewest stones a player must hold to play another round.
    pub(crate) min_held: u32,
    /// With `arrange`, when the arranging player may stop, keeping the rest in store.
    pub(crate) arranged_stop: Option<Expr>,
    pub(crate) owners: Owners,
    pub(crate) contested: Contested,
    pub(crate) round_start: RoundStart,
    pub(crate) min_pits_count: MinPitsCount,
    /// Rounds played afresh, each scoring points.
    pub(crate) tally: Option<Tally>,
    pub(crate) next_first: NextFirst,
    pub(crate) draw_first: DrawFirst,
}

/// A match of rounds played afresh from the setup, won on points.
#[derive(Clone, Debug)]
pub(crate) struct Tally {
    /// The points a round gives `mover`.
    pub(crate) points: Expr,
    pub(crate) target: i32,
}

/// Checks `[match]` against the `total` stones of the game and the `pits` of the board, when
/// they are known.
pub(super) fn check(
    cx: &mut Cx,
    m: &Match,
    total: Option<u32>,
    pits: Option<usize>,
) -> Option<MatchRule> {
    let arranged = m.arrange.as_ref().map(|a| *a.get_ref() == Arrange::Poorer);
    if let (Some(_), Some(r)) = (&m.arrange, &m.refill) {
        cx.error(
            r.span(),
            "`refill` and `arrange` both say how a round's pits are filled: give one",
        );
    }
    let stray = [
        (
            "arranged_empty",
            m.arranged_empty.as_ref().map(Spanned::span),
        ),
        ("arranged_copy", m.arranged_copy.as_ref().map(Spanned::span)),
        ("min_held", m.min_held.as_ref().map(Spanned::span)),
        ("arranged_stop", m.arranged_stop.as_ref().map(Spanned::span)),
    ];
    for (key, span) in stray.into_iter().filter(|_| arranged.is_none()) {
        if let Some(span) = span {
            cx.warn(
                span,
                format!("`{key}` without `arrange`: no round is arranged"),
            );
        }
    }
    if let (Some(true), None) = (arranged, &m.refill) {
        return check_arranged(cx, m);
    }
    let tally = check_tally(cx, m);
    let Some(refill_key) = &m.refill else {
        let tally = tally?;
        // Rounds played afresh: the keys of stones carried over say nothing here.
        for (key, span) in m.refill_keys() {
            if let Some(span) = span {
                cx.error(
                    span,
                    format!(
                        "`{key}` says how stones carry over to the next round: it needs `refill`"
                    ),
                );
            }
        }
        return Some(MatchRule {
            refill: 0,
            min_pits: 0,
            fill_from: FillFrom::default(),
            partial: Partial::default(),
            fill_count: FillCount::Own,
            refill_loser: false,
            arrange: false,
            arranged_empty_closed: false,
            arranged_same_number: false,
            min_held: 0,
            arranged_stop: None,
            owners: Owners::Sides,
            contested: Contested::default(),
            round_start: RoundStart::Refill,
            min_pits_count: MinPitsCount::default(),
            tally: Some(tally),
            next_first: m.next_first,
            draw_first: check_draw_first(cx, m),
        });
    };
    let refill = *refill_key.get_ref();
    if let Some(r) = m
        .refill_by
        .as_ref()
        .filter(|r| *r.get_ref() == RefillBy::Loser)
    {
        let clash = match (m.owners, &m.fill_count) {
            (Owners::Filled, _) => Some("pits that change owner (`owners = \"filled\"`) are shared out anew, by both players' stones"),
            (_, Some(c)) if *c.get_ref() == FillCount::Poorer => Some("`fill_count = \"poorer\"` makes both players fill as many pits"),
            _ => None,
        };
        if let Some(why) = clash {
            cx.error(
                r.span(),
                format!("`refill_by = \"loser\"` leaves the winner's side as it is, but {why}"),
            );
        }
    }
    if m.owners == Owners::Filled {
        check_filled(cx, m, total, pits);
    } else {
        // Harmless, but says a rule the file does not play.
        if let Some(r) = &m.round_start {
            cx.warn(
                r.span(),
                "`round_start` fills the pits of a round whose pits changed owner: without \
                 `owners = \"filled\"` it has no effect",
            );
        }
        if let Some(c) = &m.contested {
            cx.warn(
                c.span(),
                "`contested` is the pit filled in part when pits change owner: without \
                 `owners = \"filled\"` it has no effect",
            );
        }
        if let Some(c) = &m.min_pits_count {
            cx.warn(
                c.span(),
                "`min_pits_count` counts pits that change owner: without `owners = \"filled\"` \
                 it has no effect",
            );
        }
    }
    if let Some(total) = total.filter(|_| !cx.repairs.touched("match")) {
        // Rule values are untrusted: compared in 64 bits, no product can wrap.
        if refill == 0 || u64::from(refill) * 2 > u64::from(total) {
            cx.error(
                refill_key.span(),
                format!(
                    "`refill` must be from 1 to {} (half the {total} stones)",
                    total / 2
                ),
            );
        } else if let Some(min) = &m.min_pits {
            let most = u64::from(total) / 2 / u64::from(refill);
            if u64::from(*min.get_ref()) > most {
                cx.error(
                    min.span(),
                    format!(
                        "`min_pits` must be from 0 to {most} (pits of {refill} in half the \
                         {total} stones)"
                    ),
                );
            }
        }
    }
    // Playing on with fewer stones than a pit needs the pit they fill in part in play.
    if let Some(min) = m.min_pits.as_ref().filter(|p| *p.get_ref() == 0) {
        let open = m
            .partial
            .as_ref()
            .is_some_and(|p| matches!(*p.get_ref(), Partial::Open | Partial::OpenAll));
        if !open {
            cx.error(
                min.span(),
                "`min_pits = 0` lets a player play on with fewer stones than a full pit: it needs \
                 `partial = \"open\"` or `\"open-all\"`, so that the pit they fill in part stays in play",
            );
        }
    }
    Some(MatchRule {
        refill: refill.min(LIMITS.stones) as u8,
        min_pits: m.min_pits.as_ref().map_or(1, |p| *p.get_ref()),
        fill_from: m
            .fill_from
            .as_ref()
            .map_or_else(Default::default, |f| *f.get_ref()),
        partial: m
            .partial
            .as_ref()
            .map_or_else(Default::default, |p| *p.get_ref()),
        fill_count: m
            .fill_count
            .as_ref()
            .map_or_else(Default::default, |c| *c.get_ref()),
        refill_loser: m
            .refill_by
            .as_ref()
            .is_some_and(|r| *r.get_ref() == RefillBy::Loser),
        arrange: false,
        arranged_empty_closed: false,
        arranged_same_number: false,
        min_held: 0,
        arranged_stop: None,
        owners: m.owners,
        round_start: m
            .round_start
            .as_ref()
            .map_or_else(Default::default, |r| *r.get_ref()),
        contested: m
            .contested
            .as_ref()
            .map_or_else(Default::default, |c| *c.get_ref()),
        min_pits_count: m
            .min_pits_count
            .as_ref()
            .map_or_else(Default::default, |c| *c.get_ref()),
        tally: None,
        next_first: m.next_first,
        draw_first: check_draw_first(cx, m),
    })
}

impl Match {
    /// The keys that say how stones carried over refill the pits, where written.
    fn refill_keys(&self) -> [(&'static str, Option<std::ops::Range<usize>>); 8] {
        [
            ("refill_by", self.refill_by.as_ref().map(Spanned::span)),
            ("min_pits", self.min_pits.as_ref().map(Spanned::span)),
            ("fill_from", self.fill_from.as_ref().map(Spanned::span)),
            ("partial", self.partial.as_ref().map(Spanned::span)),
            ("fill_count", self.fill_count.as_ref().map(Spanned::span)),
            ("contested", self.contested.as_ref().map(Spanned::span)),
            ("round_start", self.round_start.as_ref().map(Spanned::span)),
            (
                "min_pits_count",
                self.min_pits_count.as_ref().map(Spanned::span),
            ),
        ]
    }
}

/// Rounds arranged by the poorer player (`arrange`): the keys of a refill say nothing there.
fn check_arranged(cx: &mut Cx, m: &Match) -> Option<MatchRule> {
    let scored = [
        ("points", m.points.as_ref().map(Spanned::span)),
        ("target", m.target.as_ref().map(Spanned::span)),
    ];
    for (key, span) in m.refill_keys().into_iter().chain(scored) {
        if let Some(span) = span {
            cx.error(
                span,
                format!("`{key}` says how pits are refilled or rounds scored: with `arrange` the poorer player arranges each round"),
            );
        }
    }
    if m.owners == Owners::Filled {
        let at = m.arrange.as_ref().map_or(0..0, Spanned::span);
        cx.error(
            at,
            "`arrange` copies the poorer player's pits onto the richer's side: pits that change owner (`owners = \"filled\"`) have no sides to copy",
        );
    }
    Some(MatchRule {
        refill: 0,
        min_pits: 0,
        fill_from: FillFrom::default(),
        partial: Partial::default(),
        fill_count: FillCount::Own,
        refill_loser: false,
        arrange: true,
        arranged_empty_closed: m
            .arranged_empty
            .as_ref()
            .is_some_and(|e| *e.get_ref() == ArrangedEmpty::Closed),
        arranged_same_number: m
            .arranged_copy
            .as_ref()
            .is_some_and(|c| *c.get_ref() == ArrangedCopy::SameNumber),
        min_held: match &m.min_held {
            Some(h) if *h.get_ref() == 0 || *h.get_ref() > LIMITS.stones => {
                cx.error(
                    h.span(),
                    format!("`min_held` must be from 1 to {}", LIMITS.stones),
                );
                1
            }
            Some(h) => *h.get_ref(),
            None => 1,
        },
        arranged_stop: match &m.arranged_stop {
            Some(v) => Some(cx.condition(Context::Arrange, v)?),
            None => None,
        },
        owners: Owners::Sides,
        contested: Contested::default(),
        round_start: RoundStart::Refill,
        min_pits_count: MinPitsCount::default(),
        tally: None,
        next_first: m.next_first,
        draw_first: check_draw_first(cx, m),
    })
}

/// `draw_first` says something only when a round's result names who starts the next.
fn check_draw_first(cx: &mut Cx, m: &Match) -> DrawFirst {
    let Some(d) = &m.draw_first else {
        return DrawFirst::Other;
    };
    if !matches!(m.next_first, NextFirst::Loser | NextFirst::Winner) {
        cx.warn(
            d.span(),
            format!(
                "`draw_first` picks who starts after a drawn round when `next_first` is \
                 \"loser\" or \"winner\": with \"{}\" it has no effect",
                m.next_first.name()
            ),
        );
    }
    *d.get_ref()
}

/// `points` by default in a match of rounds played afresh: a point a round won.
const ROUND_WINS: &str = "mover.won";

/// `target` (and `points`, by default a point a round won) for rounds played afresh; a match
/// that carries stones over (`refill`) takes neither.
fn check_tally(cx: &mut Cx, m: &Match) -> Option<Tally> {
    match (&m.points, &m.target, &m.refill) {
        (None, None, Some(_)) => None,
        (points, Some(target), None) => {
            if *target.get_ref() == 0 {
                cx.error(target.span(), "`target` must be 1 or more");
            }
            let points = match points {
                Some(points) => cx.expression(Context::Round, points, Type::Int)?,
                // A point a round won: the usual tally.
                None => Expr::compile(ROUND_WINS, &Context::Round.scope(0), Type::Int)
                    .expect("a valid expression"),
            };
            Some(Tally {
                points,
                target: (*target.get_ref()).min(i32::MAX as u32) as i32,
            })
        }
        (_, _, Some(refill)) => {
            cx.error(
                refill.span(),
                "`refill` carries stones over to the next round: a match of rounds played afresh \
                 for points (`points`, `target`) has none",
            );
            None
        }
        (Some(points), None, None) => {
            // A key missing from the table: said where the table is.
            let at = cx.doc.table_span("match").unwrap_or_else(|| points.span());
            cx.error(
                at,
                "`[match]` with `points` needs `target`, the points that win the match",
            );
            None
        }
        (None, None, None) => {
            let at = cx.doc.table_span("match").unwrap_or(0..0);
            cx.error(
                at,
                "a match carries stones over (`refill`) or plays each round afresh for points \
                 (`points` and `target`)",
            );
            None
        }
    }
}

/// Pits that change owner: every pit is filled at each round, and a pit of either side is
/// named in a move (see `Geometry::slot_from`), within the bits of one way round.
fn check_filled(cx: &mut Cx, m: &Match, total: Option<u32>, pits: Option<usize>) {
    // A pit left empty for the stones short of a full one is a refill of its own.
    let laid = m
        .round_start
        .as_ref()
        .filter(|r| *r.get_ref() == RoundStart::Setup);
    let empty = m
        .contested
        .as_ref()
        .filter(|c| *c.get_ref() == Contested::LoserEmpty);
    if let (Some(_), Some(c)) = (laid, empty) {
        cx.error(
            c.span(),
            "`contested = \"loser-empty\"` leaves a pit empty at a refill: with \
             `round_start = \"setup\"` the pits are laid as a new game is",
        );
    }
    for (key, span) in [
        ("fill_from", m.fill_from.as_ref().map(Spanned::span)),
        ("partial", m.partial.as_ref().map(Spanned::span)),
        ("fill_count", m.fill_count.as_ref().map(Spanned::span)),
    ] {
        if let Some(span) = span {
            cx.error(
                span,
                format!(
                    "`{key}` says how a player refills their own pits; with `owners = \"filled\"` \
                     every pit is filled"
                ),
            );
        }
    }
    let (Some(pits), Some(refill_key)) = (pits, &m.refill) else {
        return;
    };
    if pits > crate::sow::WAY_BITS {
        cx.error(
            refill_key.span(),
            format!(
                "pits that change owner need a board of at most {} pits ({pits} here)",
                crate::sow::WAY_BITS
            ),
        );
    }
    let refill = u64::from(*refill_key.get_ref());
    if let Some(total) = total {
        if refill * pits as u64 != u64::from(total) {
            cx.error(
                refill_key.span(),
                format!(
                    "with `owners = \"filled\"` the {total} stones must fill all {pits} pits: \
                     `refill` would be {}",
                    f64::from(total) / pits as f64
                ),
            );
        }
    }
}

impl MatchRule {
    /// The fast paths these rounds close: pits that change owner are sown one by one (a
    /// precomputed run starts from the sower's own side).
    pub(crate) fn closes(&self) -> Closes {
        let MatchRule {
            refill: _,
            min_pits: _,
            fill_from: _,
            partial: _,
            fill_count: _,
            refill_loser: _,
            arrange: _,
            arranged_empty_closed: _,
            arranged_same_number: _,
            min_held: _,
            arranged_stop: _,
            owners,
            contested: _,
            round_start: _,
            min_pits_count: _,
            tally: _,
            next_first: _,
            draw_first: _,
        } = self;
        let moved = *owners == Owners::Filled;
        Closes {
            bulk: moved,
            plain: moved,
            way: false,
            start: false,
        }
    }

    /// The pits each player owns next round, from the stones they hold: as many as their
    /// stones fill, the partly filled pit as `contested` says; with equal holdings each keeps
    /// their side.
    pub(crate) fn pits_filled(&self, held: [i32; 2], pits: u32) -> [u32; 2] {
        let refill = i64::from(self.refill);
        let more = usize::from(held[1] > held[0]);
        if held[0] == held[1] {
            return [pits / 2; 2];
        }
        let h = i64::from(held[more]).max(0);
        let part =
            matches!(self.contested, Contested::More | Contested::Lot) && 2 * (h % refill) > refill;
        let won = (h / refill + i64::from(part)).min(i64::from(pits)) as u32;
        let mut out = [pits - won; 2];
        out[more] = won;
        out
    }

    /// The pit drawn by lot at the start of a round (`contested = "lot"`): the `k`th of the
    /// winner's run, which the winner's stones fill exactly half; `None` when there is none.
    pub(crate) fn lot_pit(&self, held: [i32; 2], pits: u32) -> Option<u32> {
        if self.contested != Contested::Lot || self.owners != Owners::Filled || held[0] == held[1] {
            return None;
        }
        let (h, refill) = (i64::from(held[0].max(held[1])), i64::from(self.refill));
        let k = (h / refill + 1) as u32;
        (2 * (h % refill) == refill && k <= pits).then_some(k)
    }

    /// Whether a player holding `held` stones (each player's) is short of the pits the match
    /// asks for, when pits change owner.
    pub(crate) fn short_of_pits(&self, held: [i32; 2], pits: u32) -> bool {
        match self.min_pits_count {
            MinPitsCount::Owned => self
                .pits_filled(held, pits)
                .iter()
                .any(|&p| p < self.min_pits),
            MinPitsCount::MoreThanHalf => held.iter().any(|&h| {
                let (h, refill) = (i64::from(h).max(0), i64::from(self.refill));
                h / refill + i64::from(2 * (h % refill) > refill) < i64::from(self.min_pits)
            }),
        }
    }

    /// The starter of the next round, given the last round's winner, starter, last mover and
    /// the player who would have moved next; `None` when the ritual is held again to decide.
    pub(crate) fn starter(
        &self,
        ritual: Ritual,
        winner: Option<Player>,
        last_starter: Player,
        [last_mover, next_mover]: [Player; 2],
    ) -> Option<Player> {
        let by_result = matches!(self.next_first, NextFirst::Loser | NextFirst::Winner);
        match self.draw_first {
            DrawFirst::LastMover if winner.is_none() && by_result => Some(last_mover),
            DrawFirst::NextMover if winner.is_none() && by_result => Some(next_mover),
            _ => self.next_first.starter(ritual, winner, last_starter),
        }
    }

    /// Who starts each next round, in words.
    fn first_text(&self) -> String {
        let after_draw = match self.draw_first {
            DrawFirst::Other => "the player who did not start",
            DrawFirst::LastMover => "the player who made the last move",
            DrawFirst::NextMover => "the player whose turn it would have been",
        };
        next_first_text(self.next_first, "round", after_draw)
    }

    /// The rounds in plain words.
    pub(super) fn describe(&self, s: &mut String) {
        if self.arrange {
            let _ = writeln!(
                s,
                "Match: each round, the player holding fewer stones places them all, one at a time, into their own pits; the other player's pits copy it, each {}, the rest of their stones staying in their store{}; holding fewer than {} stones loses the match; {}.",
                if self.arranged_same_number {
                    "the pit of the same number"
                } else {
                    "the pit facing it"
                },
                if self.arranged_empty_closed {
                    "; pits left empty are out of play on both sides"
                } else {
                    ""
                },
                self.min_held,
                self.first_text()
            );
            return;
        }
        if let Some(t) = &self.tally {
            let _ = writeln!(
                s,
                "Match: each round is played afresh; at its end each player scores `{}` points; the first to {} points wins the match (both: the one with more); {}.",
                t.points.text(),
                t.target,
                self.first_text()
            );
            return;
        }
        if self.owners == Owners::Filled {
            let _ = writeln!(
                s,
                "Match: pits change owner; after each round each player owns as many pits as their stones fill, {} a pit ({}), the winner's from their pit 1 on; {}; {} fewer than {} pits loses the match; {}.",
                self.refill,
                match self.contested {
                    Contested::More => "a pit filled in part goes to the player holding more of it, to the loser on a tie",
                    Contested::Loser => "a pit filled in part goes to the loser",
                    Contested::Lot =>
                        "a pit filled in part goes to the player holding more of it, by lot on a tie",
                    Contested::LoserEmpty =>
                        "a pit filled in part goes to the loser and starts empty, the stones short of a pit staying in the stores",
                },
                match self.round_start {
                    RoundStart::Refill => format!("every pit starts the round with {} stones", self.refill),
                    RoundStart::Setup => "every round starts laid out as a new game, side by side".to_string(),
                },
                match self.min_pits_count {
                    MinPitsCount::Owned => "owning",
                    MinPitsCount::MoreThanHalf =>
                        "filling (a pit filled in part counting when more than half full)",
                },
                self.min_pits,
                self.first_text()
            );
            return;
        }
        let _ = writeln!(
            s,
            "Match: each round, {} refill their pits {} a pit from the {}; the surplus goes to the store; {} out of play; {}; {}.",
            match (self.refill_loser, self.fill_count) {
                (true, _) => "the round's loser alone (the winner, who holds more on their side and in store, keeps both as they are; a drawn round, or a winner with nothing to sow, ends the match)",
                (false, FillCount::Own) => "players",
                (false, FillCount::Poorer) => "the poorer player and then, as many pits, the richer",
            },
            self.refill,
            match self.fill_from {
                FillFrom::Right => "right",
                FillFrom::Left => "left",
                FillFrom::Outside => "outside in",
                FillFrom::BoardLeft => "end of the board at the first player's left",
            },
            match self.partial {
                Partial::Closed => "a partly filled pit and the unfilled ones are",
                Partial::Open => "unfilled pits are",
                Partial::Store => "the stones short of a pit go to the store, and unfilled pits are",
                Partial::StoreOpen =>
                    "the stones short of a pit go to the store, and no pit is taken",
                Partial::OpenAll => "no pit is taken",
            },
            match u32::from(self.refill) * self.min_pits {
                0 => "holding no stones loses the match".to_string(),
                need => format!("fewer than {need} stones loses the match"),
            },
            self.first_text()
        );
    }
}
