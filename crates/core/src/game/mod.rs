//! What a game is, apart from how it is shown: the rules-only [`Game`] trait that search,
//! simulation, records and the protocol all use, and beside it the traits that show a game
//! ([`Notation`], [`Json`], [`View`]) and the players' measure ([`Evaluator`]).

mod chance;
mod error;
pub mod state;

pub use chance::{Dice, Roll, RollError, MAX_DICE};
pub use error::{MoveError, StateError};
pub use state::{parse_json, PhaseName, StateFields};

use serde_json::{json, Map, Value};
use std::fmt::Debug;

/// Stones a game scatters at random as it begins: each player's pits in that player's
/// numbering, player 0's first (as a sowing STATE's `pits`).
pub type Deal = Vec<Vec<u8>>;

/// Player 0 is South / White (listed first in a rules file), player 1 is North / Black.
pub type Player = usize;

/// The other player.
pub fn opponent(p: Player) -> Player {
    1 - p
}

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// This player must choose one of the legal moves.
    Move(Player),
    /// Dice are awaited (a chance event); this player will then move.
    Roll(Player),
    /// The game is over; see [`Game::outcome`].
    Over,
}

impl Phase {
    pub fn to_move(self) -> Option<Player> {
        match self {
            Phase::Move(p) | Phase::Roll(p) => Some(p),
            Phase::Over => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Phase::Move(_) => "move",
            Phase::Roll(_) => "roll",
            Phase::Over => "over",
        }
    }
}

/// The result of a finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// `None` is a draw.
    pub winner: Option<Player>,
    pub scores: [i32; 2],
    /// Short words: "captured 25", "repetition", "no legal move", "borne off", ...
    pub reason: String,
    /// How the game ended, apart from the scores: what analyses count.
    pub ending: Ending,
}

/// How a game ended, whatever the scores (a record writes it in kebab case: `borne-off`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ending {
    /// The rules' scoring condition held (sowing `end.score`).
    Score,
    /// The rules' stopping condition held (sowing `end.stop`).
    Stop,
    Repetition,
    /// The player to move had no legal move, and the rules end the game then.
    NoMove,
    /// The ply limit: the rules' own, or the program's guard.
    PlyLimit,
    /// The players agreed to end the game where the rules allow it.
    Agreement,
    /// A finished position was set up by hand.
    SetUpOver,
    /// A player bore off every checker.
    BorneOff,
    /// A `[[win]]` rule of a tables file held.
    WinRule,
    /// A player declined the opponent's double (the doubling cube).
    Declined,
    /// A player resigned, conceding a single game, a gammon or a backgammon.
    Resigned,
}

impl Ending {
    /// Every ending.
    pub const ALL: [Ending; 11] = [
        Ending::Score,
        Ending::Stop,
        Ending::Repetition,
        Ending::NoMove,
        Ending::PlyLimit,
        Ending::Agreement,
        Ending::SetUpOver,
        Ending::BorneOff,
        Ending::WinRule,
        Ending::Declined,
        Ending::Resigned,
    ];

    /// The ending in a word or two, as analyses print and count it.
    pub fn word(self) -> &'static str {
        match self {
            Ending::Score => "score",
            Ending::Stop => "end of play",
            Ending::Repetition => "repetition",
            Ending::NoMove => "no legal move",
            Ending::PlyLimit => "ply limit",
            Ending::Agreement => "agreement",
            Ending::SetUpOver => "set up over",
            Ending::BorneOff => "borne off",
            Ending::WinRule => "win rule",
            Ending::Declined => "double declined",
            Ending::Resigned => "resigned",
        }
    }
}

/// What a resigning player concedes: a single game, a gammon or a backgammon (1, 2 or 3 times
/// the stakes, as the rules score them); a record writes its word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Resignation {
    Single = 1,
    Gammon = 2,
    Backgammon = 3,
}

impl Resignation {
    pub const ALL: [Resignation; 3] = [
        Resignation::Single,
        Resignation::Gammon,
        Resignation::Backgammon,
    ];

    /// The game's points conceded, before the cube.
    pub fn points(self) -> i32 {
        self as i32
    }

    /// The resignation conceding `points` (1 to 3).
    pub fn from_points(points: i32) -> Option<Resignation> {
        Resignation::ALL.into_iter().find(|r| r.points() == points)
    }

    /// Its word, as typed and recorded: `single`, `gammon`, `backgammon`.
    pub fn word(self) -> &'static str {
        match self {
            Resignation::Single => "single",
            Resignation::Gammon => "gammon",
            Resignation::Backgammon => "backgammon",
        }
    }

    pub fn from_word(word: &str) -> Option<Resignation> {
        Resignation::ALL.into_iter().find(|r| r.word() == word)
    }

    /// The result's reason: `resigned`, `resigned a gammon`, `resigned a backgammon`.
    pub fn reason(self) -> &'static str {
        match self {
            Resignation::Single => "resigned",
            Resignation::Gammon => "resigned a gammon",
            Resignation::Backgammon => "resigned a backgammon",
        }
    }
}

/// A decision of the doubling cube, in the games that have one: a move like any other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CubeAction {
    /// The player to roll doubles the stakes, before rolling.
    Double,
    /// The player to roll rolls without doubling.
    Roll,
    /// The doubled player plays on for the doubled stakes, and owns the cube.
    Take,
    /// The doubled player declines and loses the game at the stakes before the double.
    Drop,
    /// The doubled player takes and at once doubles again, keeping the cube (money games).
    Beaver,
}

/// The doubling cube as it stands, for the players' cube decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CubeView {
    /// Its value (1, 2, 4, …).
    pub value: i32,
    /// Its owner, who alone may double; `None` while it is in the middle.
    pub owner: Option<Player>,
    /// In a match, the points each player still needs to win it; `None` in money play.
    pub away: Option<[i32; 2]>,
    /// The Jacoby rule holds now: gammons count for nothing until the cube is turned.
    pub jacoby: bool,
    /// In a match with the Crawford rule, where this game stands towards it; `None` without.
    pub crawford: Option<Crawford>,
}

/// Where a game of a match stands towards the Crawford rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Crawford {
    /// No player has yet come within one point of the target.
    #[default]
    Before,
    /// The Crawford game: played without the cube.
    Now,
    /// The games after it (post-Crawford): the cube again.
    After,
}

impl CubeAction {
    pub const ALL: [CubeAction; 5] = [
        CubeAction::Double,
        CubeAction::Roll,
        CubeAction::Take,
        CubeAction::Drop,
        CubeAction::Beaver,
    ];

    /// The action as it is typed and written: `double`, `roll`, `take`, `drop`, `beaver`.
    pub fn word(self) -> &'static str {
        match self {
            CubeAction::Double => "double",
            CubeAction::Roll => "roll",
            CubeAction::Take => "take",
            CubeAction::Drop => "drop",
            CubeAction::Beaver => "beaver",
        }
    }

    /// The action a word names, in any case (not `pass`, the British word for a drop: a pass
    /// is a turn without a move).
    pub fn from_word(word: &str) -> Option<CubeAction> {
        let word = word.trim().to_ascii_lowercase();
        CubeAction::ALL.into_iter().find(|a| a.word() == word)
    }

    /// The action said after the player's name: `doubles`, `does not double`, `takes`, ...
    pub fn said(self) -> &'static str {
        match self {
            CubeAction::Double => "doubles",
            CubeAction::Roll => "does not double",
            CubeAction::Take => "takes",
            CubeAction::Drop => "drops",
            CubeAction::Beaver => "beavers",
        }
    }

    /// Whether it answers a double (rather than deciding whether to offer one).
    pub fn answers(self) -> bool {
        matches!(
            self,
            CubeAction::Take | CubeAction::Drop | CubeAction::Beaver
        )
    }
}

/// Standing of a match (several games, e.g. Sat-gharva's rounds or Mughrabieh to 31).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MatchStanding {
    /// 1-based number of the current game.
    pub game: u32,
    pub points: [i32; 2],
    pub over: bool,
    pub winner: Option<Player>,
    /// The points that win the match, where the rules play to a target.
    pub target: Option<i32>,
}

/// How the first player is chosen before a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ritual {
    /// Player 0 starts unless told otherwise.
    None,
    /// One player hides stones, the other guesses odd or even; a right guess starts.
    OddOrEven,
    /// Each rolls one die (ties again); the higher roller chooses the colour, the lower starts.
    HigherDieChoosesColour,
    /// Each rolls one die (ties again); the higher roller starts, rolling the dice as usual.
    HigherDieStarts,
    /// Each rolls one die (ties again); the higher roller starts and plays the two dice rolled
    /// (backgammon's opening roll: a first turn is never a double).
    OpeningRoll,
    /// Each throws all the dice (ties again): a double beats any other throw and a higher
    /// double a lower one, else the higher total wins; the winner starts and plays that throw
    /// (Julbahar).
    HigherThrowPlays,
}

impl Ritual {
    /// The ritual as a rules file names it.
    pub fn name(self) -> &'static str {
        match self {
            Ritual::None => "none",
            Ritual::OddOrEven => "odd-or-even",
            Ritual::HigherDieChoosesColour => "higher-die-chooses-colour",
            Ritual::HigherDieStarts => "higher-die-starts",
            Ritual::OpeningRoll => "opening-roll",
            Ritual::HigherThrowPlays => "higher-throw-plays",
        }
    }

    /// How many dice each player throws in this ritual: one, or all of a throw.
    pub fn dice_each(self, dice: Dice) -> u8 {
        match self {
            Ritual::HigherThrowPlays => dice.count,
            _ => 1,
        }
    }

    /// How two players' throws in this ritual compare (`Equal`: a tie, thrown again).
    pub fn compare(self, a: &[u8], b: &[u8]) -> std::cmp::Ordering {
        // A double ranks above every throw that is not one, then by its number.
        let rank = |t: &[u8]| {
            let double = t.len() > 1 && t.iter().all(|&d| d == t[0]);
            let total: u32 = t.iter().map(|&d| u32::from(d)).sum();
            (self == Ritual::HigherThrowPlays && double, total)
        };
        rank(a).cmp(&rank(b))
    }

    /// What each player does in this ritual, in plain words.
    pub fn thrown(self) -> &'static str {
        match self {
            Ritual::HigherThrowPlays => "each player throws the dice (ties throw again)",
            _ => "each player rolls one die (ties roll again)",
        }
    }

    /// What a ritual of one die each decides, in plain words; `None` for the others.
    pub fn decides(self) -> Option<&'static str> {
        Some(match self {
            Ritual::OpeningRoll => "the higher roller starts and plays the two dice rolled",
            Ritual::HigherThrowPlays => {
                "a double beats any other throw and a higher double a lower one, else the higher total wins; the winner starts and plays that throw"
            }
            Ritual::HigherDieStarts => "the higher roller starts with a fresh roll",
            Ritual::HigherDieChoosesColour => {
                "the higher roller chooses the colour, the lower starts with a fresh roll"
            }
            Ritual::None | Ritual::OddOrEven => return None,
        })
    }

    /// The starter's first roll as this ritual draws it, for a game whose starter is already
    /// known: two different dice, the higher first, every pair as likely as in the ritual
    /// (where each player's die is drawn and a tie rolled again). `None` for a ritual whose
    /// starter rolls as usual.
    pub fn opening<R: rand::Rng>(self, dice: Dice, rng: &mut R) -> Option<Roll> {
        if self == Ritual::HigherThrowPlays {
            // The winner's throw: two throws drawn until one beats the other.
            let mut throw = || -> Vec<u8> {
                (0..dice.count)
                    .map(|_| rng.gen_range(1..=dice.faces))
                    .collect()
            };
            loop {
                let (a, b) = (throw(), throw());
                let mut won = match self.compare(&a, &b) {
                    std::cmp::Ordering::Equal => continue,
                    std::cmp::Ordering::Greater => a,
                    std::cmp::Ordering::Less => b,
                };
                won.sort_unstable_by(|x, y| y.cmp(x));
                return Roll::new(&won).ok();
            }
        }
        if self != Ritual::OpeningRoll || dice.faces < 2 {
            return None;
        }
        loop {
            let (a, b) = (rng.gen_range(1..=dice.faces), rng.gen_range(1..=dice.faces));
            if a != b {
                return Roll::new(&[a.max(b), a.min(b)]).ok();
            }
        }
    }
}

/// Who starts the next game of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NextFirst {
    /// The starting ritual is held again before every game (as the source texts describe it).
    #[default]
    Ritual,
    /// The loser of a game starts the next; after a draw, the player who did not start (a
    /// family may say otherwise).
    Loser,
    /// The winner starts the next; after a draw, the player who did not start.
    Winner,
    /// The player who did not start the last game.
    Alternate,
}

impl NextFirst {
    /// The starter of the next game, given the last game's winner and starter; `None` when the
    /// `ritual` is held again to decide.
    pub fn starter(
        self,
        ritual: Ritual,
        winner: Option<Player>,
        last_starter: Player,
    ) -> Option<Player> {
        match (self, winner) {
            // A game without a ritual starts as every game does: player 0 first.
            (NextFirst::Ritual, _) => (ritual == Ritual::None).then_some(0),
            (NextFirst::Loser, Some(w)) => Some(1 - w),
            (NextFirst::Winner, Some(w)) => Some(w),
            _ => Some(1 - last_starter),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            NextFirst::Ritual => "ritual",
            NextFirst::Loser => "loser",
            NextFirst::Winner => "winner",
            NextFirst::Alternate => "alternate",
        }
    }
}

/// Who starts each next game, in words (`game` is what the rules call a game of the match;
/// `after_draw` who starts after a drawn one when the loser or the winner would).
pub fn next_first_text(rule: NextFirst, game: &str, after_draw: &str) -> String {
    match rule {
        NextFirst::Ritual => format!("the starting ritual is held again before every {game}"),
        NextFirst::Loser => {
            format!("the loser starts the next {game} (after a draw, {after_draw})")
        }
        NextFirst::Winner => {
            format!("the winner starts the next {game} (after a draw, {after_draw})")
        }
        NextFirst::Alternate => format!("the player who did not start begins the next {game}"),
    }
}

/// The bounds that make every game and match end, whatever a rules file says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guards {
    /// A game ends (drawn, unless the rules score it) after this many plies.
    pub plies: u32,
    /// Whether `plies` is the rules' own limit rather than the program's guard.
    pub plies_by_rules: bool,
    /// A match ends after this many games; `None` when the rules define no match.
    pub games: Option<u32>,
}

/// A compiled game: its rules, fixed once loaded. States are separate values, so one game serves
/// any number of positions (search, simulation, undo). Nothing here shows a game: see
/// [`Notation`], [`Json`] and [`View`]. Games, states and moves cross threads (a search may run
/// several).
pub trait Game: Sync {
    type State: Clone + Debug + PartialEq + Send + Sync;
    type Move: Clone + Debug + PartialEq + Send + Sync;

    /// The rules' short name (`oware`, `backgammon`, ...).
    fn name(&self) -> &str;
    /// Names of the two players as the rules file gives them (e.g. South/North, White/Black).
    fn player_names(&self) -> [&str; 2];

    /// The starting position of a new game (of a new match, where the rules define one), with
    /// `first` to move (or to roll). Rituals that decide who starts are the caller's business.
    fn new_game(&self, first: Player) -> Self::State;
    /// The next game of a match once the current one is over, set up as the rules say, with
    /// `first` to move; `None` when the rules define no match or the match is decided.
    fn next_game(&self, state: &Self::State, first: Player) -> Option<Self::State>;
    /// Who starts the next game by the rules (the loser, the winner, alternately); `None` when
    /// the starting ritual is held again (the caller acts it out) or there is no next game.
    fn next_starter(&self, state: &Self::State) -> Option<Player>;
    fn match_standing(&self, state: &Self::State) -> Option<MatchStanding>;

    fn phase(&self, state: &Self::State) -> Phase;
    /// Plies played in the current game.
    fn plies(&self, state: &Self::State) -> u32;
    /// Who moved first in the current game (the match rules' "the player who did not start").
    fn starter(&self, state: &Self::State) -> Player;
    /// The result, once `phase` is `Over`.
    fn outcome(&self, state: &Self::State) -> Option<Outcome>;

    /// Every legal move of the player to move, each once (cleared first). Empty unless the phase
    /// is `Move`.
    fn legal_moves(&self, state: &Self::State, out: &mut Vec<Self::Move>);
    /// Plays a move from `legal_moves` (anything else is a caller bug and may panic).
    fn play(&self, state: &mut Self::State, mv: &Self::Move);

    /// The dice thrown when the phase is `Roll`; `None` for a game without chance.
    fn dice(&self) -> Option<Dice>;
    /// Applies a throw of [`Game::dice`] when the phase is `Roll`. Errors leave the state
    /// unchanged.
    fn roll(&self, state: &mut Self::State, roll: &Roll) -> Result<(), RollError>;

    /// What a game or round draws at random as it begins (a sowing game's `[setup] scatter`,
    /// or the pit a round draws by lot): a deal drawn for `state`, a start `new_game` or
    /// `next_game` has just made, to be laid out by [`Game::deal`]; `None` where the start is
    /// fixed.
    fn draw_deal<R: rand::Rng>(&self, _state: &Self::State, _rng: &mut R) -> Option<Deal> {
        None
    }
    /// Lays `deal` (drawn, or read from a record) out on `state`, a start not yet played
    /// from. Errors say why and leave the state unchanged.
    fn deal(&self, _state: &mut Self::State, _deal: &Deal) -> Result<(), String> {
        Err("these rules scatter no stones at random".into())
    }
    /// Scatters the stones of `state`, a start just made, where the rules say so: what a table
    /// does as a game or round begins (simulations and bindings without a table call this).
    fn scatter<R: rand::Rng>(&self, state: &mut Self::State, rng: &mut R) {
        if let Some(deal) = self.draw_deal(state, rng) {
            // A drawn deal is one the rules allow, so it lays out.
            let _ = self.deal(state, &deal);
        }
    }
    /// How the rules say the first player of a match is chosen (`ludus play` acts it out; the
    /// protocol's `new` without `first` draws it from the seed).
    fn start_ritual(&self) -> Ritual {
        Ritual::None
    }
    /// Ends the game now by the players' agreement, when the rules allow it (Uuholo): the
    /// player ahead wins. Returns false (and changes nothing) when they do not.
    fn end_by_agreement(&self, _state: &mut Self::State) -> bool {
        false
    }
    /// Ends the game now by the resignation of the player whose turn it is, conceding
    /// `level` ([`Resignation`]) at the stakes, where the rules allow it (tables games). Returns
    /// false (and changes nothing) when they do not.
    fn resign(&self, _state: &mut Self::State, _level: Resignation) -> bool {
        false
    }
    /// The stones or checkers in the game: on the board, in stores, on the bar, borne off or
    /// out of play. No move creates or destroys one, so this never changes within a game.
    fn pieces(&self, state: &Self::State) -> u32;

    /// The bytes a kept position takes, its own size and what it holds on the heap (what a
    /// server counts against its memory budget).
    fn state_bytes(&self, _state: &Self::State) -> usize {
        std::mem::size_of::<Self::State>()
    }

    /// The rules' conditions that `validate --simulate` watches, by key (`capture.when`,
    /// `turn.again`): those the rules file sets, each with its bit in [`Game::conditions_held`].
    fn watched_conditions(&self) -> Vec<(&'static str, u32)> {
        Vec::new()
    }
    /// The bits of the watched conditions that held in the move that led to `state`.
    fn conditions_held(&self, _state: &Self::State) -> u32 {
        0
    }
    /// Whether the move that led to `state` was cut short by a guard within the move (a
    /// sowing that reached its lap cap, or relayed back to a position it had seen): `validate
    /// --simulate` warns of them, `analyze` counts them.
    fn cut_short(&self, _state: &Self::State) -> bool {
        false
    }
    /// The doubling cube's decision `mv` is, in games with a cube; `None` for every other move.
    fn cube_action(&self, _mv: &Self::Move) -> Option<CubeAction> {
        None
    }
    /// The doubling cube and the match score as a player weighing a cube decision sees them;
    /// `None` in games without a cube.
    fn cube(&self, _state: &Self::State) -> Option<CubeView> {
        None
    }
    /// Whether `mv` is one step of a turn played a step at a time, because it has too many
    /// moves to list whole (or the game is played so): `validate --simulate` warns of them.
    fn is_step(&self, _mv: &Self::Move) -> bool {
        false
    }

    /// The bounds that end every game and match.
    fn guards(&self) -> Guards;
    /// Ends games after `plies` plies (at most the program's guard), as a rules' ply limit
    /// would (`--max-plies`).
    fn set_max_plies(&mut self, plies: u32);
}

/// Moves as people write them.
pub trait Notation: Game {
    /// The move in the game's usual notation.
    fn move_text(&self, state: &Self::State, mv: &Self::Move) -> String;
    /// Parses any notation `move_text` could produce and returns the matching legal move, or
    /// why the text is not a legal move here.
    fn parse_move(&self, state: &Self::State, text: &str) -> Result<Self::Move, MoveError>;
    /// Whether every game these rules play is backgammon as other programs write its games
    /// down (GNU Backgammon's `.mat`): 24 points, 15 checkers a side moving towards each other
    /// from backgammon's start, a lone checker hit to the bar, two six-sided dice, doubles
    /// played four times, nothing more forbidden and no other way to win. Else the first
    /// difference, in words.
    fn as_backgammon(&self) -> Result<(), String> {
        Err("its games are not played with checkers on points".into())
    }
}

/// Positions and moves in the protocol's JSON forms.
pub trait Json: Game + Notation {
    /// The move in the protocol's MOVE form.
    fn move_json(&self, state: &Self::State, mv: &Self::Move) -> Value;

    /// The position in the protocol's STATE form: the fields every game shares (`to_move`,
    /// `phase`, `result`, `match`), then the family's board fields.
    fn state_json(&self, state: &Self::State) -> Value {
        let phase = self.phase(state);
        let mut fields = Map::new();
        fields.insert("to_move".into(), json!(phase.to_move()));
        fields.insert("phase".into(), json!(phase.name()));
        fields.insert("ply".into(), json!(self.plies(state)));
        fields.insert("starter".into(), json!(self.starter(state)));
        let result = self
            .outcome(state)
            .map(|o| json!({"winner": o.winner, "scores": o.scores, "reason": o.reason}));
        fields.insert("result".into(), result.unwrap_or(Value::Null));
        if let Some(m) = self.match_standing(state) {
            let standing =
                json!({"game": m.game, "points": m.points, "over": m.over, "winner": m.winner});
            fields.insert("match".into(), standing);
        }
        self.board_json(state, &mut fields);
        Value::Object(fields)
    }
    /// Adds the family's board fields to a STATE object (`pits`, `stores`, `out_of_play`; or
    /// `points`, `bar`, `off`, `dice`).
    fn board_json(&self, state: &Self::State, fields: &mut Map<String, Value>);
    /// Reads a STATE object (as `set` gets it); rejects impossible positions.
    fn state_from_json(&self, value: &Value) -> Result<Self::State, StateError>;
}

/// Pictures and words for people.
pub trait View: Game {
    /// The board drawn for a terminal, from `viewer`'s side, then what is awaited or how the
    /// game ended (`ludus show`, `ludus replay`).
    fn render(&self, state: &Self::State, viewer: Player) -> String;
    /// The board drawn for a terminal, from `viewer`'s side, with the match standing but
    /// without what is awaited or the result (`ludus play` says those in its own words).
    fn board(&self, state: &Self::State, viewer: Player) -> String;
    /// What the player to move is to do, said after their name (`to move with 6-1`,
    /// `to decide: …`); `None` once the game is over.
    fn awaited(&self, state: &Self::State) -> Option<String>;
    /// The move as it reads on a board drawn from `viewer`'s side. Sowing boards label every
    /// player's pits, so this is the move's own text; tables boards number the points from
    /// the viewer's side only.
    fn move_text_seen_by(&self, state: &Self::State, mv: &Self::Move, viewer: Player) -> String;
    /// The points each player has scored during play in this game, where the rules score
    /// during play (a tables game's `[[score]]`); `None` elsewhere.
    fn scored_during_play(&self, _state: &Self::State) -> Option<[i32; 2]> {
        None
    }
    /// The player whose numbering the moves awaited in `state` are written in: the player to
    /// move's, except where they move the opponent's pieces (a tables game's first turn under
    /// `[setup] first_turn_moves = "opponent"`), which are written in their owner's.
    fn numbering(&self, state: &Self::State) -> Option<Player> {
        self.phase(state).to_move()
    }
    /// What a player gained in a move, in the game's words, for a gain of `material` (stones
    /// captured); `None` where the move's text already shows it (checkers borne off).
    fn gain_text(&self, _gained: i32) -> Option<String> {
        None
    }
    /// What the rules call one game of a match (`round`, `game`).
    fn match_game_word(&self) -> &'static str {
        "game"
    }
    /// How moves are typed, for `help`: the notation with examples.
    fn notation_help(&self, state: &Self::State) -> String;
    /// The board as an SVG picture, from `viewer`'s side, counts written as numbers.
    fn svg(&self, state: &Self::State, viewer: Player) -> String;
    /// `mv` played from `state` as by hand, for people to watch (the page animates it): the
    /// positions between `state` and the one `mv` leads to, each with the stones then in the
    /// mover's hand. Empty where the family shows a move whole (a checker's move is one step).
    fn play_shown(&self, _state: &Self::State, _mv: &Self::Move) -> Vec<(Self::State, u32)> {
        Vec::new()
    }
    /// The rules in plain words (for `ludus show`).
    fn describe(&self) -> String;
}

/// The computer players' measure of a position, supplied by each family: what a player has
/// secured (stones in the store, checkers borne off), the family's value of a position that is
/// not over, and a key for transposition tables.
pub trait Evaluator: Game {
    /// What `player` has secured so far by the rules: what `greedy` maximises and what decides
    /// whether a computer player agrees to end a game.
    fn material(&self, state: &Self::State, player: Player) -> i32;

    /// The value of an unfinished position from `player`'s view, in units of material (a stone
    /// captured, a checker borne off), as the family measures it by default: the material
    /// difference unless the family knows more (tables: pips, points held, blots).
    fn heuristic(&self, state: &Self::State, player: Player) -> f64 {
        f64::from(self.material(state, player) - self.material(state, 1 - player))
    }

    /// The distance `player` still has to travel where the rules measure one (tables: the pip
    /// count, the bar as point 25); `None` for games without such a measure. Analyses count a
    /// move that sends opposing checkers back by it.
    fn pips(&self, _state: &Self::State, _player: Player) -> Option<i32> {
        None
    }

    /// The position's features for a learned evaluation (`ludus train`, the `net` player):
    /// numbers of about 0 to 1, from player 0's side, as many for every position of the
    /// rules, appended to `out`; false where the family gives none.
    fn features(&self, _state: &Self::State, _out: &mut Vec<f32>) -> bool {
        false
    }

    /// The learned evaluation the rules name (`[ai] network`) for the game `state` belongs to
    /// (each game of a match by its own file's), for the `net` player.
    fn network(&self, _state: &Self::State) -> Option<&crate::net::Net> {
        None
    }

    /// Whether every game won scores the same, as the rules of the game `state` belongs to say
    /// (no gammons): a network's chances of gammons then count for nothing.
    fn scores_alike(&self, _state: &Self::State) -> bool {
        false
    }

    /// Whether the rules name a learned evaluation (for their first game): the `net` player is
    /// then the default opponent.
    fn names_network(&self) -> bool {
        self.network(&self.new_game(0)).is_some()
    }

    /// The rules file's own value of `state` for `player` (`[ai] evaluate`), which the search
    /// players then go by instead of [`Evaluator::heuristic`]; `None` when the file gives none.
    fn evaluation(&self, _state: &Self::State, _player: Player) -> Option<i32> {
        None
    }

    /// A hash of what decides the game from here on (board, whose turn, dice to play), for the
    /// search players' transposition tables. Equal positions give equal keys; the history that
    /// only a repetition rule reads is left out. The default hashes the `Debug` form (slow:
    /// families override it).
    fn position_key(&self, state: &Self::State) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        format!("{state:?}").hash(&mut h);
        h.finish()
    }
}

/// Everything the command line and the protocol need of a game.
pub trait Playable: Game + Notation + Json + View + Evaluator {}

impl<G: Game + Notation + Json + View + Evaluator> Playable for G {}
