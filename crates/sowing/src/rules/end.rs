//! `[end]`: when a game ends and how its stones are counted.

use super::{compiled, Cx, Laid, CONDITION};
use crate::scope::{Context, PitCond, ScoreCond, View};
use ludus_core::expr::Expr;
use ludus_core::limits::LIMITS;
use ludus_core::rules::reference::{KeyRef, SectionRef};
use serde::Deserialize;
use std::fmt::Write;
use toml::Spanned;

/// `[end]` as written.
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
    /// Stones on the board when `stop` ends the game (by default as `leftover` says).
    #[serde(default)]
    pub stop_leftover: Option<Spanned<Leftover>>,
    /// Pits whose stones count for nobody when the game ends (context `start`).
    #[serde(default)]
    pub unscored: Option<Spanned<String>>,
    #[serde(default)]
    pub max_plies: Option<Spanned<u32>>,
    /// The players may end the game by agreement.
    #[serde(default)]
    pub agreement: bool,
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
    /// All of them go to the player who moved first in this game (round).
    Starter,
    /// They are shared out evenly; an odd stone goes to the player with fewer in store (on
    /// equal stores, to the player who did not make the last move).
    Divided,
}

pub(crate) const SECTION: SectionRef = SectionRef {
    name: "end",
    line: "when a game ends and how its stones are counted",
    required: false,
    repeated: false,
    keys: KEYS,
};

const KEYS: &[KeyRef] = &[
    KeyRef {
        section: "end",
        key: "win",
        line: "context win: a player for whom this holds wins at once (the mover checked first)",
        expects: "a condition in quotes, such as `\"opponent.pits == 0\"`",
        values: &[],
        default: "none",
        example: "win = \"opponent.pits == 0\"",
        long: "A condition (context win: the names of every context) checked after every move, \
               first, for the mover and then for the opponent (as `mover`); the first player for \
               whom it holds wins at once, whatever the stores say, the board left as it is. A \
               goal other than the most stones: depriving the opponent (\"opponent.pits == 0\"), \
               clearing one's own pits (\"mover.pits == 0\"), a store count.",
    },
    KeyRef {
        section: "end",
        key: "score",
        line: "context score: the game ends at once, the board left as it is",
        expects: "a condition in quotes, such as `\"mover.store >= 25 or opponent.store >= 25\"`",
        values: &[],
        default: "none",
        example: "score = \"mover.store >= 25 or opponent.store >= 25\"",
        long: "A condition (context score: the names of every context; `mover` is who just moved) \
               checked after every move, first; when it holds the game ends, the stones on the \
               board left uncounted.",
    },
    KeyRef {
        section: "end",
        key: "stop",
        line: "context stop: the game ends, the stones left on the board going as `leftover` says",
        expects: "a condition in quotes, such as `\"mover.pits == 0 or opponent.pits == 0\"`",
        values: &[],
        default: "none",
        example: "stop = \"mover.pits == 0 or opponent.pits == 0\"",
        long: "A condition (context stop) checked after every move, after `score`; when it holds \
               the game ends and the stones left on the board go as `leftover` says (Kalah).",
    },
    KeyRef {
        section: "end",
        key: "repetition",
        line: "a position that repeats ends the game",
        expects: "`true` or `false`",
        values: &[],
        default: "false",
        example: "repetition = true",
        long: "A position that repeats (pits, stores, player to move; the start counts) ends the \
               game.",
    },
    KeyRef {
        section: "end",
        key: "max_plies",
        line: "the game ends after this many plies",
        expects: "a whole number of 1 or more",
        values: &[],
        default: "none",
        example: "max_plies = 200",
        long: "The game ends after this many plies (`--max-plies` overrides it); every game ends \
               by 100000 plies at the latest, a guard against rules that never end.",
    },
    KeyRef {
        section: "end",
        key: "agreement",
        line: "the players may end the game by agreement",
        expects: "`true` or `false`",
        values: &[],
        default: "false",
        example: "agreement = true",
        long: "The players may end the game by agreement (`end` in `ludus play`; Uuholo).",
    },
    KeyRef {
        section: "end",
        key: "no_move",
        line: "what happens when the player to move has no legal move: the game ends, they pass, or they lose",
        expects: "\"ends\", \"pass\" or \"loses\"",
        values: &["ends", "pass", "loses"],
        default: "\"ends\"",
        example: "no_move = \"pass\"",
        long: "\"ends\": the game ends, scored as usual. \"pass\": the player passes and the \
               other moves on as long as they can; the game ends only when neither can move. \
               \"loses\": the game ends and the player who cannot move loses (a goal of \
               immobilising the opponent).",
    },
    KeyRef {
        section: "end",
        key: "leftover",
        line: "where the stones on the board go when the game ends otherwise than by `win` or `score`",
        expects: "\"owners\", \"none\", \"opponent\", \"mover\", \"starter\" or \"divided\"",
        values: &["owners", "none", "opponent", "mover", "starter", "divided"],
        default: "\"owners\"",
        example: "leftover = \"owners\"",
        long: "Stones on the board when the game ends otherwise than by `score`: \"owners\" (each \
               side's to its owner), \"none\" (not counted), \"opponent\" (all of them to the \
               opponent of the player to move: in a game ended because the player to move has no \
               legal move, to the player who moved last; Bohnenspiel, Ayoayo, Omweso), \"mover\" \
               (all of them to the player who made the last move, even after an extra turn), \
               \"starter\" (all of them to the player who moved first in this game or round), \
               \"divided\" (shared out evenly, an odd stone to the player with fewer in store, \
               when equal to the player who did not make the last move). Unless `win` or \
               `no_move = \"loses\"` names the winner, the player with more stones in their \
               store wins; equal is a draw.",
    },
    KeyRef {
        section: "end",
        key: "unscored",
        line: "context start: when the game ends, the stones of a pit for which this holds count for nobody",
        expects: CONDITION,
        values: &[],
        default: "none",
        example: "unscored = \"pit.count >= 14 - pit.number\"",
        long: "A condition (context start: `pit`, checked for every pit in play) when the game \
               ends otherwise than by `win` or `score`: the stones of a pit for which it holds \
               stay on the board, counted for nobody, and `leftover` gives out the others. \
               CrossCapt (Six): a ram, a pit that could sow past the opponent's row back to its \
               owner's, is \"not counted in the game tally\".",
    },
    KeyRef {
        section: "end",
        key: "stop_leftover",
        line: "where the stones on the board go when `stop` ends the game",
        expects: "\"owners\", \"none\", \"opponent\", \"mover\", \"starter\" or \"divided\"",
        values: &["owners", "none", "opponent", "mover", "starter", "divided"],
        default: "as `leftover`",
        example: "stop_leftover = \"starter\"",
        long: "The stones on the board when `stop` ends the game go as this says (the values of \
               `leftover`), and as `leftover` says when the game ends otherwise: a round that \
               ends with eight stones left, which the player who started it takes, while a round \
               that ends because nobody can move gives each pit's stones to its owner \
               (`stop = \"mover.pits + opponent.pits <= 8\"`, `stop_leftover = \"starter\"`).",
    },
];

/// The end of a game, compiled.
#[derive(Clone, Debug)]
pub(crate) struct EndRule {
    pub(crate) win: Option<ScoreCond>,
    pub(crate) score: Option<ScoreCond>,
    pub(crate) stop: Option<ScoreCond>,
    pub(crate) repetition: bool,
    pub(crate) no_move: NoMove,
    pub(crate) leftover: Leftover,
    /// Where the stones go when `stop` ends the game.
    pub(crate) stop_leftover: Leftover,
    /// Pits whose stones count for nobody when the game ends.
    pub(crate) unscored: Option<PitCond>,
    pub(crate) max_plies: Option<u32>,
    pub(crate) agreement: bool,
}

/// `[end]` checked, its conditions compiled, before the board is laid out.
pub(super) struct Checked {
    win: Option<Expr>,
    score: Option<Expr>,
    stop: Option<Expr>,
    repetition: bool,
    no_move: NoMove,
    leftover: Leftover,
    stop_leftover: Leftover,
    unscored: Option<Expr>,
    max_plies: Option<u32>,
    agreement: bool,
}

/// Checks `[end]` (absent: every default); `None` when an error was reported.
pub(super) fn check(cx: &mut Cx, end: Option<&End>) -> Option<Checked> {
    let max_plies = end.and_then(|e| e.max_plies.as_ref()).map(|v| {
        if *v.get_ref() == 0 {
            cx.error(v.span(), "`max_plies` must be at least 1");
        } else if *v.get_ref() > LIMITS.plies_per_game {
            cx.warn(
                v.span(),
                format!(
                    "every game ends by {} plies (the ply guard), before `max_plies`",
                    LIMITS.plies_per_game
                ),
            );
        }
        *v.get_ref()
    });
    let mut condition = |c: Context, v: Option<&Spanned<String>>| v.map(|v| cx.end_condition(c, v));
    let win = condition(Context::Win, end.and_then(|e| e.win.as_ref()));
    let score = condition(Context::Score, end.and_then(|e| e.score.as_ref()));
    let stop = condition(Context::Stop, end.and_then(|e| e.stop.as_ref()));
    let leftover = end.map_or(Leftover::Owners, |e| e.leftover);
    let unscored = end
        .and_then(|e| e.unscored.as_ref())
        .map(|v| cx.condition(Context::Start, v));
    let stop_leftover = end.and_then(|e| e.stop_leftover.as_ref()).map(|l| {
        if stop.is_none() {
            cx.warn(
                l.span(),
                "`stop_leftover` says where the stones go when `stop` ends the game: without \
                 `stop` it has no effect",
            );
        }
        *l.get_ref()
    });
    Some(Checked {
        win: compiled(win)?,
        score: compiled(score)?,
        stop: compiled(stop)?,
        repetition: end.is_some_and(|e| e.repetition),
        no_move: end.map_or(NoMove::Ends, |e| e.no_move),
        leftover,
        stop_leftover: stop_leftover.unwrap_or(leftover),
        unscored: compiled(unscored)?,
        max_plies,
        agreement: end.is_some_and(|e| e.agreement),
    })
}

impl Checked {
    /// The rule on the board laid out.
    pub(super) fn rule(self, laid: Laid) -> EndRule {
        let score = |e: Expr| laid.score(e);
        EndRule {
            win: self.win.map(score),
            score: self.score.map(score),
            stop: self.stop.map(score),
            repetition: self.repetition,
            no_move: self.no_move,
            leftover: self.leftover,
            stop_leftover: self.stop_leftover,
            unscored: self.unscored.map(|e| laid.pit(e, View::Pit)),
            max_plies: self.max_plies,
            agreement: self.agreement,
        }
    }
}

impl EndRule {
    /// The end of a game in plain words.
    pub(super) fn describe(&self, s: &mut String) {
        let _ = write!(s, "End:");
        if let Some(w) = &self.win {
            let _ = write!(
                s,
                " at once when `{}` holds for a player (the mover first), who wins;",
                w.expr.text()
            );
        }
        if let Some(sc) = &self.score {
            let _ = write!(s, " at once when `{}`;", sc.expr.text());
        }
        if let Some(st) = &self.stop {
            let _ = write!(s, " when `{}`;", st.expr.text());
        }
        if self.repetition {
            let _ = write!(s, " when a position repeats;");
        }
        let _ = write!(
            s,
            "{}",
            match self.no_move {
                NoMove::Ends => " when the player to move has no legal move;",
                NoMove::Pass =>
                    " when neither player has a legal move (one who has none passes and the other moves on);",
                NoMove::Loses => " when the player to move has no legal move, who then loses;",
            }
        );
        if let Some(m) = self.max_plies {
            let _ = write!(s, " after {m} plies;");
        }
        if self.agreement {
            let _ = write!(s, " by agreement;");
        }
        let _ = writeln!(s, " {}. More stones wins.", leftover_text(self.leftover));
        if let Some(u) = &self.unscored {
            let _ = writeln!(
                s,
                "At the end, the stones of a pit where `{}` stay there, counted for nobody.",
                u.expr.text()
            );
        }
        if self.stop.is_some() && self.stop_leftover != self.leftover {
            let _ = writeln!(
                s,
                "When `stop` ends it: {}.",
                leftover_text(self.stop_leftover)
            );
        }
    }
}

/// Where the stones left on the board go, in words.
fn leftover_text(leftover: Leftover) -> &'static str {
    match leftover {
        Leftover::Owners => "stones left on the board go to the owner of their pit",
        Leftover::None => "stones left on the board are not counted",
        Leftover::Opponent => {
            "stones left on the board all go to the opponent of the player to move (after a player cannot move: to the player who moved last)"
        }
        Leftover::Mover => "stones left on the board all go to the player who made the last move",
        Leftover::Starter => {
            "stones left on the board all go to the player who started the game (the round)"
        }
        Leftover::Divided => {
            "stones left on the board are shared out evenly, an odd one to the player with fewer in store (when equal, to the player who did not make the last move)"
        }
    }
}
