//! The one place that knows the list of game families. It dispatches a rules file on its
//! `[game] family` to that family's compiler and wraps every family's game in one type,
//! [`AnyGame`], which the command line, the protocol and the benchmarks all use. A new family
//! is its own folder plus one line in [`families!`].

use ludus_core::diagnostics::Diagnostic;
use ludus_core::game::{
    CubeAction, CubeView, Deal, Dice, Evaluator, Game, Guards, Json, MatchStanding, MoveError,
    Notation, Outcome, Phase, Playable, Player, Resignation, Ritual, Roll, RollError, StateError,
    View,
};
use ludus_core::rules::{FamilyRef, RulesDoc, Source, SourceError};

use ludus_players::{decide, Analysis, Spec};
use ludus_sowing as sowing;
use ludus_tables as tables;
use rand::Rng;
use serde_json::{Map, Value};
use std::fmt;

/// Declares the families: their `[game] family` name, module and game type. Everything below
/// is generated from this one list.
macro_rules! families {
    (@wrap State $variant:ident $x:ident) => { AnyState::$variant($x) };
    (@wrap Move $variant:ident $x:ident) => { AnyMove::$variant($x) };
    ($($variant:ident: $name:literal => $module:ident :: $game:ident),* $(,)?) => {
        /// The names `[game] family` may take.
        pub const FAMILIES: &[&str] = &[$($name),*];

        /// A compiled game of any family.
        #[derive(Clone, Debug)]
        pub enum AnyGame {
            $($variant($module::$game),)*
        }

        /// A position of an [`AnyGame`]. (Not boxed: positions are copied by value in search
        /// and undo; the largest family's state sets the size.)
        #[derive(Clone, Debug, PartialEq)]
        #[allow(clippy::large_enum_variant)]
        pub enum AnyState {
            $($variant(<$module::$game as Game>::State),)*
        }

        /// A move of an [`AnyGame`].
        #[derive(Clone, Debug, PartialEq)]
        pub enum AnyMove {
            $($variant(<$module::$game as Game>::Move),)*
        }

        impl AnyGame {
            /// The family's name, as `[game] family` writes it.
            pub fn family(&self) -> &'static str {
                match self {
                    $(AnyGame::$variant(_) => $name,)*
                }
            }
        }

        /// Each family's rules-file reference (tables, keys, expression names).
        pub const REFERENCES: &[FamilyRef] = &[$($module::REFERENCE),*];

        fn check_family(family: &str, doc: &RulesDoc) -> Option<(Option<AnyGame>, Vec<Diagnostic>)> {
            match family {
                $($name => {
                    let (game, diagnostics) = $module::check(doc);
                    Some((game.map(AnyGame::$variant), diagnostics))
                })*
                _ => None,
            }
        }

        /// Delegates a method taking a state (and maybe a move) to the family's game.
        macro_rules! on_state {
            ($self:ident, $state:ident, |$g:ident, $s:ident| $body:expr) => {
                match ($self, $state) {
                    $((AnyGame::$variant($g), AnyState::$variant($s)) => $body,)*
                    #[allow(unreachable_patterns)]
                    _ => panic!("a state of another game"),
                }
            };
        }

        macro_rules! on_move {
            ($self:ident, $state:ident, $mv:ident, |$g:ident, $s:ident, $m:ident| $body:expr) => {
                match ($self, $state, $mv) {
                    $((AnyGame::$variant($g), AnyState::$variant($s), AnyMove::$variant($m)) => $body,)*
                    #[allow(unreachable_patterns)]
                    _ => panic!("a state or move of another game"),
                }
            };
        }

        /// Delegates a method taking a move alone to the family's game.
        macro_rules! on_move_alone {
            ($self:ident, $mv:ident, |$g:ident, $m:ident| $body:expr) => {
                match ($self, $mv) {
                    $((AnyGame::$variant($g), AnyMove::$variant($m)) => $body,)*
                    #[allow(unreachable_patterns)]
                    _ => panic!("a move of another game"),
                }
            };
        }

        macro_rules! wrap_moves {
            ($self:ident, $state:ident, $out:ident) => {
                match ($self, $state) {
                    $((AnyGame::$variant(g), AnyState::$variant(s)) => {
                        let mut moves = Vec::new();
                        g.legal_moves(s, &mut moves);
                        $out.clear();
                        $out.extend(moves.into_iter().map(AnyMove::$variant));
                    })*
                    #[allow(unreachable_patterns)]
                    _ => panic!("a state of another game"),
                }
            };
        }

        /// Like `on_state!`, for a body giving an `Option` or `Result` of the family's state or
        /// move (`State` or `Move`), wrapped in the matching variant.
        macro_rules! on_state_map {
            ($self:ident, $state:ident, $wrap:ident, |$g:ident, $s:ident| $body:expr) => {
                match ($self, $state) {
                    $((AnyGame::$variant($g), AnyState::$variant($s)) => {
                        $body.map(|x| families!(@wrap $wrap $variant x))
                    })*
                    #[allow(unreachable_patterns)]
                    _ => panic!("a state of another game"),
                }
            };
        }

        /// Like `on_move!`, for a body giving a list of the family's states, each with a
        /// number, wrapped in the matching variant.
        macro_rules! on_move_states {
            ($self:ident, $state:ident, $mv:ident, |$g:ident, $s:ident, $m:ident| $body:expr) => {
                match ($self, $state, $mv) {
                    $((AnyGame::$variant($g), AnyState::$variant($s), AnyMove::$variant($m)) => {
                        $body.into_iter().map(|(x, n)| (AnyState::$variant(x), n)).collect()
                    })*
                    #[allow(unreachable_patterns)]
                    _ => panic!("a state or move of another game"),
                }
            };
        }

        macro_rules! wrap_state {
            ($self:ident, |$g:ident| $body:expr) => {
                match $self {
                    $(AnyGame::$variant($g) => $body.map(AnyState::$variant),)*
                }
            };
        }
    };
}

families! {
    Sowing: "sowing" => sowing::SowingGame,
    Tables: "tables" => tables::TablesGame,
}

/// Runs `$body` with `$g` bound to the concrete game inside an [`AnyGame`], so code that must
/// run at full speed (benchmarks, simulation) is monomorphised for each family. (Written out,
/// since an exported macro cannot be generated; the match being exhaustive keeps it in step
/// with [`families!`].)
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::registry::AnyGame::Sowing($g) => $body,
            $crate::registry::AnyGame::Tables($g) => $body,
        }
    };
}

/// Why a game could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    Source(SourceError),
    /// The rules file's problems, rendered with their places.
    Rules(String),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Source(e) => e.fmt(f),
            LoadError::Rules(report) => write!(f, "invalid rules\n{report}"),
        }
    }
}

impl std::error::Error for LoadError {}

/// A rules text checked: the game when the text has no error, and every problem found (errors
/// first, then warnings, each kind in the order of the text).
#[derive(Debug)]
pub struct Report {
    pub game: Option<AnyGame>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Report {
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.is_error())
    }
    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| !d.is_error())
    }
}

/// Checks a rules text of any family given without a file (the rules files it names are
/// bundled games or paths from the current folder): the TOML is parsed once, `[game] family`
/// chooses the family, and every error and warning found comes back located, beside the game
/// when there is no error.
pub fn check(text: &str) -> Report {
    checked(RulesDoc::parse(text))
}

/// Checks a rules source as [`check`] does; the rules files it names are found from its place.
pub fn check_source(source: &Source) -> Report {
    checked(RulesDoc::parse_source(source))
}

fn checked(parsed: Result<RulesDoc, Diagnostic>) -> Report {
    let doc = match parsed {
        Ok(doc) => doc,
        Err(d) => {
            return Report {
                game: None,
                diagnostics: vec![d],
            }
        }
    };
    let text = doc.text();
    let mut warnings = ludus_core::rules::reference::game_warnings(&doc);
    let (game, mut diagnostics) = match dispatch(&doc) {
        Ok(checked) => checked,
        Err(d) => (None, vec![d]),
    };
    diagnostics.append(&mut warnings);
    ludus_core::rules::toml::in_order(text, &mut diagnostics);
    Report { game, diagnostics }
}

/// The family's check of the document, or why there is no family to check it.
fn dispatch(doc: &RulesDoc) -> Result<(Option<AnyGame>, Vec<Diagnostic>), Diagnostic> {
    if !doc.has("game") {
        return Err(Diagnostic::new("missing table `[game]`").at(0..0).note(
            "every rules file starts with [game] name = \"...\" family = \"sowing\"|\"tables\"",
        ));
    }
    let Some(family) = doc.string(&["game", "family"]) else {
        let d = match doc.value_span(&["game", "family"]) {
            Some(span) => Diagnostic::new(format!(
                "found {}, expected {}",
                ludus_core::rules::reference::describe(&doc.text()[span.clone()], false),
                quoted_list(FAMILIES)
            ))
            .at(span),
            None => Diagnostic::new("missing key `family` (text in quotes) in table `[game]`")
                .at(doc.value_span(&["game", "name"]).unwrap_or(0..0)),
        };
        return Err(d.note(family_help()));
    };
    check_family(family.get_ref(), doc).ok_or_else(|| {
        let mut d = Diagnostic::new(format!(
            "unknown family `{}`",
            ludus_core::limits::excerpt(family.get_ref())
        ))
        .at(family.span())
        .note(format!("expected {}", quoted_list(FAMILIES)));
        if let Some(close) =
            ludus_core::diagnostics::did_you_mean(family.get_ref(), FAMILIES.iter().copied())
        {
            d = d.note(format!("did you mean `{close}`?"));
        }
        d.note(family_help())
    })
}

/// The help line of `[game] family`.
fn family_help() -> String {
    ludus_core::rules::reference::GAME_KEYS
        .iter()
        .find(|k| k.key == "family")
        .map_or_else(
            || format!("family = {}", quoted_list(FAMILIES)),
            |k| k.help(),
        )
}

/// Compiles a rules text of any family: the game, or every error found (see [`check`] for the
/// warnings too).
pub fn compile(text: &str) -> Result<AnyGame, Vec<Diagnostic>> {
    game_or_errors(check(text))
}

/// Compiles a rules source (a text that may name other rules files where it was found).
pub fn compile_source(source: &Source) -> Result<AnyGame, Vec<Diagnostic>> {
    game_or_errors(check_source(source))
}

fn game_or_errors(report: Report) -> Result<AnyGame, Vec<Diagnostic>> {
    match report.game {
        Some(game) => Ok(game),
        None => Err(report
            .diagnostics
            .into_iter()
            .filter(|d| d.is_error())
            .collect()),
    }
}

fn quoted_list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
    quoted.join(" or ")
}

/// Finds a rules source (bundled name or path) and compiles it. The errors of a text that is
/// not a rules file at all (no TOML, or no `[game]` table) are given by place only, never
/// quoting its lines: a client naming `/etc/passwd` learns nothing of its contents.
pub fn load(name_or_path: &str) -> Result<(Source, AnyGame), LoadError> {
    let source = Source::find(name_or_path).map_err(LoadError::Source)?;
    let game = game_or_errors(check_source(&source)).map_err(|d| {
        let is_rules = RulesDoc::parse(&source.text).is_ok_and(|doc| doc.has("game"));
        let report = if is_rules {
            ludus_core::diagnostics::render(&source.name, &source.text, &d)
        } else {
            let first = d.first().map_or(String::new(), |d| {
                let start = d.span.as_ref().map_or(0, |s| s.start);
                let (line, column) = ludus_core::diagnostics::line_column(&source.text, start);
                format!(" (first problem at {}:{line}:{column})", source.name)
            });
            format!(
                "`{}` is not a rules file: it is not TOML with a [game] table{first}",
                source.name
            )
        };
        LoadError::Rules(report.trim_end().to_string())
    })?;
    Ok((source, game))
}

/// Work run on the game type of one family inside an [`AnyGame`], monomorphised for it:
/// searches started through the protocol or the server run here at the speed of the family's
/// own moves, not through [`AnyMove`]s wrapped on every legal-moves call.
pub trait OnFamily {
    type Output;
    fn run<G: Playable>(self, game: &G, state: &G::State) -> Self::Output;
}

impl AnyGame {
    /// Runs `work` on the family's game and its position `state`.
    pub fn on_family<F: OnFamily>(&self, state: &AnyState, work: F) -> F::Output {
        on_state!(self, state, |g, s| work.run(g, s))
    }
}

impl Game for AnyGame {
    type State = AnyState;
    type Move = AnyMove;

    fn name(&self) -> &str {
        with_game!(self, g => g.name())
    }
    fn player_names(&self) -> [&str; 2] {
        with_game!(self, g => g.player_names())
    }
    fn new_game(&self, first: Player) -> AnyState {
        wrap_state!(self, |g| Some(g.new_game(first))).expect("a new game")
    }
    fn next_game(&self, state: &AnyState, first: Player) -> Option<AnyState> {
        on_state_map!(self, state, State, |g, s| g.next_game(s, first))
    }
    fn next_starter(&self, state: &AnyState) -> Option<Player> {
        on_state!(self, state, |g, s| g.next_starter(s))
    }
    fn match_standing(&self, state: &AnyState) -> Option<MatchStanding> {
        on_state!(self, state, |g, s| g.match_standing(s))
    }
    fn phase(&self, state: &AnyState) -> Phase {
        on_state!(self, state, |g, s| g.phase(s))
    }
    fn plies(&self, state: &AnyState) -> u32 {
        on_state!(self, state, |g, s| g.plies(s))
    }
    fn starter(&self, state: &AnyState) -> Player {
        on_state!(self, state, |g, s| g.starter(s))
    }
    fn outcome(&self, state: &AnyState) -> Option<Outcome> {
        on_state!(self, state, |g, s| g.outcome(s))
    }
    fn legal_moves(&self, state: &AnyState, out: &mut Vec<AnyMove>) {
        wrap_moves!(self, state, out)
    }
    fn play(&self, state: &mut AnyState, mv: &AnyMove) {
        on_move!(self, state, mv, |g, s, m| g.play(s, m))
    }
    fn dice(&self) -> Option<Dice> {
        with_game!(self, g => g.dice())
    }
    fn roll(&self, state: &mut AnyState, roll: &Roll) -> Result<(), RollError> {
        on_state!(self, state, |g, s| g.roll(s, roll))
    }
    fn draw_deal<R: rand::Rng>(&self, state: &AnyState, rng: &mut R) -> Option<Deal> {
        on_state!(self, state, |g, s| g.draw_deal(s, rng))
    }
    fn deal(&self, state: &mut AnyState, deal: &Deal) -> Result<(), String> {
        on_state!(self, state, |g, s| g.deal(s, deal))
    }
    fn start_ritual(&self) -> Ritual {
        with_game!(self, g => g.start_ritual())
    }
    fn end_by_agreement(&self, state: &mut AnyState) -> bool {
        on_state!(self, state, |g, s| g.end_by_agreement(s))
    }
    fn watched_conditions(&self) -> Vec<(&'static str, u32)> {
        with_game!(self, g => g.watched_conditions())
    }
    fn conditions_held(&self, state: &AnyState) -> u32 {
        on_state!(self, state, |g, s| g.conditions_held(s))
    }
    fn cut_short(&self, state: &AnyState) -> bool {
        on_state!(self, state, |g, s| g.cut_short(s))
    }
    fn is_step(&self, mv: &AnyMove) -> bool {
        on_move_alone!(self, mv, |g, m| g.is_step(m))
    }
    fn cube_action(&self, mv: &AnyMove) -> Option<CubeAction> {
        on_move_alone!(self, mv, |g, m| g.cube_action(m))
    }
    fn resign(&self, state: &mut AnyState, level: Resignation) -> bool {
        on_state!(self, state, |g, s| g.resign(s, level))
    }
    fn cube(&self, state: &AnyState) -> Option<CubeView> {
        on_state!(self, state, |g, s| g.cube(s))
    }
    fn pieces(&self, state: &AnyState) -> u32 {
        on_state!(self, state, |g, s| g.pieces(s))
    }
    fn state_bytes(&self, state: &AnyState) -> usize {
        on_state!(self, state, |g, s| g.state_bytes(s))
    }
    fn guards(&self) -> Guards {
        with_game!(self, g => g.guards())
    }
    fn set_max_plies(&mut self, plies: u32) {
        with_game!(self, g => g.set_max_plies(plies))
    }
}

impl Notation for AnyGame {
    fn move_text(&self, state: &AnyState, mv: &AnyMove) -> String {
        on_move!(self, state, mv, |g, s, m| g.move_text(s, m))
    }
    fn parse_move(&self, state: &AnyState, text: &str) -> Result<AnyMove, MoveError> {
        on_state_map!(self, state, Move, |g, s| g.parse_move(s, text))
    }
    fn as_backgammon(&self) -> Result<(), String> {
        with_game!(self, g => g.as_backgammon())
    }
}

impl Json for AnyGame {
    fn move_json(&self, state: &AnyState, mv: &AnyMove) -> Value {
        on_move!(self, state, mv, |g, s, m| g.move_json(s, m))
    }
    fn board_json(&self, state: &AnyState, fields: &mut Map<String, Value>) {
        on_state!(self, state, |g, s| g.board_json(s, fields))
    }
    fn state_from_json(&self, value: &Value) -> Result<AnyState, StateError> {
        wrap_state!(self, |g| g.state_from_json(value))
    }
}

impl View for AnyGame {
    fn render(&self, state: &AnyState, viewer: Player) -> String {
        on_state!(self, state, |g, s| g.render(s, viewer))
    }
    fn board(&self, state: &AnyState, viewer: Player) -> String {
        on_state!(self, state, |g, s| g.board(s, viewer))
    }
    fn awaited(&self, state: &AnyState) -> Option<String> {
        on_state!(self, state, |g, s| g.awaited(s))
    }
    fn move_text_seen_by(&self, state: &AnyState, mv: &AnyMove, viewer: Player) -> String {
        on_move!(self, state, mv, |g, s, m| g.move_text_seen_by(s, m, viewer))
    }
    fn scored_during_play(&self, state: &AnyState) -> Option<[i32; 2]> {
        on_state!(self, state, |g, s| g.scored_during_play(s))
    }
    fn numbering(&self, state: &AnyState) -> Option<Player> {
        on_state!(self, state, |g, s| g.numbering(s))
    }
    fn gain_text(&self, gained: i32) -> Option<String> {
        with_game!(self, g => g.gain_text(gained))
    }
    fn match_game_word(&self) -> &'static str {
        with_game!(self, g => g.match_game_word())
    }
    fn notation_help(&self, state: &AnyState) -> String {
        on_state!(self, state, |g, s| g.notation_help(s))
    }
    fn svg(&self, state: &AnyState, viewer: Player) -> String {
        on_state!(self, state, |g, s| g.svg(s, viewer))
    }
    fn play_shown(&self, state: &AnyState, mv: &AnyMove) -> Vec<(AnyState, u32)> {
        on_move_states!(self, state, mv, |g, s, m| g.play_shown(s, m))
    }
    fn describe(&self) -> String {
        with_game!(self, g => g.describe())
    }
}

impl Evaluator for AnyGame {
    fn material(&self, state: &AnyState, player: Player) -> i32 {
        on_state!(self, state, |g, s| g.material(s, player))
    }
    fn heuristic(&self, state: &AnyState, player: Player) -> f64 {
        on_state!(self, state, |g, s| g.heuristic(s, player))
    }
    fn pips(&self, state: &AnyState, player: Player) -> Option<i32> {
        on_state!(self, state, |g, s| g.pips(s, player))
    }
    fn network(&self, state: &AnyState) -> Option<&ludus_core::net::Net> {
        on_state!(self, state, |g, s| g.network(s))
    }
    fn scores_alike(&self, state: &AnyState) -> bool {
        on_state!(self, state, |g, s| g.scores_alike(s))
    }
    fn features(&self, state: &AnyState, out: &mut Vec<f32>) -> bool {
        on_state!(self, state, |g, s| g.features(s, out))
    }
    fn evaluation(&self, state: &AnyState, player: Player) -> Option<i32> {
        on_state!(self, state, |g, s| g.evaluation(s, player))
    }
    fn position_key(&self, state: &AnyState) -> u64 {
        on_state!(self, state, |g, s| g.position_key(s))
    }
}

/// [`decide`] for a game of any family, run on the family's own game type (nothing wrapped on
/// the search's hot path). The position awaits a move and has one at least; the index is into
/// the legal moves as `game.legal_moves` lists them (the family's order).
pub fn decide_any<R: Rng>(
    game: &AnyGame,
    state: &AnyState,
    spec: Spec,
    all: bool,
    rng: &mut R,
) -> (usize, Option<Analysis>) {
    struct Decide<'r, R> {
        spec: Spec,
        all: bool,
        rng: &'r mut R,
    }
    impl<R: Rng> OnFamily for Decide<'_, R> {
        type Output = (usize, Option<Analysis>);
        fn run<G: Playable>(self, game: &G, state: &G::State) -> Self::Output {
            let mut moves = Vec::new();
            game.legal_moves(state, &mut moves);
            decide(game, state, &moves, self.spec, self.all, self.rng)
        }
    }
    game.on_family(state, Decide { spec, all, rng })
}
