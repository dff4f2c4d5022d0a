//! Sowing games (mancala family): one interpreter for every rules file of the `sowing` family.
//!
//! - `rules/`: one module per table of a rules file (`[board]`, `[sowing]`, `[capture]`, …),
//!   each with its serde struct, reference, checks, compiled rule, plain words and fast paths;
//!   `rules/mod.rs` builds a [`SowingGame`] from them;
//! - `board.rs`: slots, circuits, opposite pits, the compact [`Board`];
//! - `scope.rs`: the names of each expression context, tabulated conditions;
//! - `moves.rs`: [`SowingMove`], what a player chooses (a pit, a way round, a decision);
//! - `fast.rs`: the fast paths a game's moves may take, from what each rule closes;
//! - `sow.rs`: a move (sowing, relays, takes, captures) and the legal moves;
//! - `shown.rs`: a move played out stone by stone, for people to watch;
//! - `choice.rs`: choices within a move (take or leave), each a step of play of its own;
//! - `ways.rs`: the way round a move sows (the mover's choice where the rules leave it), and
//!   the texts of pit moves;
//! - `end.rs`: the end of a game and the rounds of a match;
//! - `state.rs`: [`SowingState`] and its protocol JSON;
//! - `render.rs`: the terminal board and its picture.

mod arrange;
mod board;
mod choice;
mod end;
mod fast;
mod give;
mod lifts;
mod moves;
mod render;
mod rules;
mod scope;
mod shown;
mod sow;
mod state;
mod ways;

pub use board::Board;
pub use moves::{MoveKind, SowingMove};
pub use scope::Context;
pub use sow::MoveEnd;
pub use state::{EndReason, SowingState};

use board::Geometry;
use ludus_core::diagnostics::Diagnostic;
use ludus_core::expr::Expr;
use ludus_core::game::{
    Deal, Dice, Evaluator, Game, Guards, Json, MatchStanding, MoveError, Notation, Outcome, Phase,
    Player, Ritual, Roll, RollError, StateError, View,
};
use ludus_core::limits::LIMITS;
use ludus_core::rules::RulesDoc;
use rules::capture::CaptureRule;
use rules::end::EndRule;
use rules::house::HouseRule;
use rules::rounds::MatchRule;
use rules::setup::SetupRule;
use rules::sowing::SowingRule;
use rules::turn::TurnRule;
use serde_json::{json, Map, Value};

/// `PIT_MOVES[d][m]`: the moves sowing pits k + 1 + 8d for the bits k set in byte m, lowest
/// first (the rest 0): the pits of the low and the high byte of a legal-move mask.
const PIT_MOVES: [[[u16; 8]; 256]; 2] = {
    let mut lists = [[[0u16; 8]; 256]; 2];
    let mut d = 0;
    while d < 2 {
        let mut m = 0;
        while m < 256 {
            let (mut k, mut at) = (0, 0);
            while k < 8 {
                if m >> k & 1 == 1 {
                    lists[d][m][at] = (k + 1 + 8 * d) as u16;
                    at += 1;
                }
                k += 1;
            }
            m += 1;
        }
        d += 1;
    }
    lists
};

/// `PIT_COUNTS[m]`: the bits set in byte m.
const PIT_COUNTS: [u8; 256] = {
    let mut counts = [0u8; 256];
    let mut m = 0;
    while m < 256 {
        counts[m] = (m as u8).count_ones() as u8;
        m += 1;
    }
    counts
};

/// Pits 17 and up, sown the rules' way, in a legal-move mask.
const WIDE_PITS: u64 = (1 << sow::WAY_BITS) - (1 << 16);

/// The legal moves of a mask with pits past 16: bit by bit, out of the way of the common case.
#[cold]
#[inline(never)]
pub(crate) fn wide_moves(legal: u64, out: &mut Vec<SowingMove>) {
    out.clear();
    let mut bits = legal & ((1 << sow::WAY_BITS) - 1);
    while bits != 0 {
        out.push(SowingMove::pit(bits.trailing_zeros() as u8 + 1));
        bits &= bits - 1;
    }
    ways::other_way_moves(legal, out);
}

pub use rules::REFERENCE;

/// Compiles a sowing rules file.
pub fn compile(doc: &RulesDoc) -> Result<SowingGame, Vec<Diagnostic>> {
    rules::compile(doc)
}

/// Checks a sowing rules file: the game when it has no error, and every error and warning.
pub fn check(doc: &RulesDoc) -> (Option<SowingGame>, Vec<Diagnostic>) {
    rules::check(doc)
}

/// The names every expression context offers, with their help lines (for the reference).
pub fn scope_reference() -> Vec<(Context, ludus_core::expr::Scope)> {
    scope::reference(0)
}

/// A compiled sowing game (boxed: the rules are read far more often than the game is moved).
#[derive(Clone, Debug)]
pub struct SowingGame(Box<Compiled>);

impl std::ops::Deref for SowingGame {
    type Target = Compiled;
    fn deref(&self) -> &Compiled {
        &self.0
    }
}

impl std::ops::DerefMut for SowingGame {
    fn deref_mut(&mut self) -> &mut Compiled {
        &mut self.0
    }
}

/// The compiled rules behind a [`SowingGame`]: each table's rule from its module in `rules/`.
#[derive(Clone, Debug)]
pub struct Compiled {
    name: String,
    title: String,
    source: Option<String>,
    players: [String; 2],
    geo: Geometry,
    /// First lifts sown in bulk.
    runs: board::Runs,
    /// The same sown the other way round, for a game whose moves may be (`directed`).
    other_runs: Option<board::Runs>,
    setup: SetupRule,
    sowing: SowingRule,
    capture: Option<CaptureRule>,
    /// A second capture, checked before the sowing, where `[[capture]]` writes two.
    capture_before: Option<CaptureRule>,
    house: Option<HouseRule>,
    turn: TurnRule,
    end: EndRule,
    /// `[ai] evaluate`: the author's value of a position for the search players.
    evaluate: Option<Expr>,
    match_rule: Option<MatchRule>,
    /// The fast paths these rules allow.
    fast: fast::FastPaths,
}

impl SowingGame {
    /// Pits each player owns.
    pub fn pits_per_side(&self) -> usize {
        self.geo.n
    }
    /// Whether houses keep their stones for their owners (`[house] keeps`).
    pub fn houses_keep(&self) -> bool {
        self.house.as_ref().is_some_and(|h| h.keeps)
    }
    /// Whether the rules' rounds change the owners of pits (`[match] owners = "filled"`).
    pub fn pits_change_owner(&self) -> bool {
        self.geo.owners_change
    }
    /// The pit numbers a move may name: a side's pits, or both sides' where pits change owner
    /// or moves start anywhere (`o3` is pit n + 3 of the mover's numbering counted on along the
    /// board).
    pub fn move_pits(&self) -> usize {
        if self.geo.moves_across() {
            2 * self.geo.n
        } else {
            self.geo.n
        }
    }
    /// Whether a player may pick pits: after a capture (`capture.pick`), or placing stones
    /// from hand (`[setup] to_place`); the answers are [`MoveKind::Pick`] of any pit of the
    /// board.
    pub fn picks_pits(&self) -> bool {
        self.places_from_hand()
            || self.turn.give.is_some()
            || self
                .capture
                .as_ref()
                .is_some_and(|c| c.pick > 0 || c.to == rules::capture::CaptureTo::Pick)
    }
    /// Whether players place stones from hand before the sowing (`[setup] to_place`).
    pub fn places_from_hand(&self) -> bool {
        self.setup.board.to_place != [0, 0] || self.match_rule.as_ref().is_some_and(|m| m.arrange)
    }
    /// Whether pits may be out of play: in a match's rounds, closed during play
    /// (`sowing.close`), or off the board from the start (`[setup] closed`).
    pub fn closes_pits(&self) -> bool {
        self.match_rule.is_some() || self.sowing.close.is_some() || self.setup.board.closed != 0
    }
    /// Stones in the game.
    pub fn total_stones(&self) -> u32 {
        self.setup.total
    }
    /// Why the last move ended (relay cycles and lap caps cut a move short).
    pub fn last_move_end(&self, state: &SowingState) -> MoveEnd {
        state.last_end
    }
}

impl Game for SowingGame {
    type State = SowingState;
    type Move = SowingMove;

    fn name(&self) -> &str {
        &self.name
    }
    fn player_names(&self) -> [&str; 2] {
        [&self.players[0], &self.players[1]]
    }

    fn new_game(&self, first: Player) -> SowingState {
        self.fresh(
            self.setup.board_for(first),
            first,
            1,
            self.first_points(&self.setup.board_for(first)),
            self.setup.first_move.is_some(),
            0,
        )
    }
    fn next_game(&self, state: &SowingState, first: Player) -> Option<SowingState> {
        self.next_round(state, first)
    }
    fn next_starter(&self, state: &SowingState) -> Option<Player> {
        let rule = self.match_rule.as_ref()?;
        let result = state.result?;
        if self.standing(state)?.over {
            return None;
        }
        rule.starter(
            self.setup.ritual,
            result.winner.map(usize::from),
            usize::from(state.round.starter),
            [usize::from(state.last_mover), usize::from(state.to_move)],
        )
    }
    fn match_standing(&self, state: &SowingState) -> Option<MatchStanding> {
        self.standing(state)
    }

    fn plies(&self, state: &SowingState) -> u32 {
        state.ply
    }
    fn starter(&self, state: &SowingState) -> Player {
        usize::from(state.round.starter)
    }
    fn phase(&self, state: &SowingState) -> Phase {
        match (&state.result, &state.pending) {
            (Some(_), _) => Phase::Over,
            (None, Some(pending)) => Phase::Move(usize::from(pending.decider)),
            (None, None) => Phase::Move(usize::from(state.to_move)),
        }
    }
    fn outcome(&self, state: &SowingState) -> Option<Outcome> {
        state.result.map(|f| Outcome {
            winner: f.winner.map(usize::from),
            scores: f.scores,
            reason: f.reason.text(f.scores),
            ending: f.reason.ending(),
        })
    }

    #[inline]
    fn legal_moves(&self, state: &SowingState, out: &mut Vec<SowingMove>) {
        if state.legal < 0x100 {
            // No pit to sow: the game is over, a choice within a move waits, or a pass.
            if state.legal == 0 {
                out.clear();
                if state.pending.is_some() {
                    self.decisions(state, out);
                } else if state.passing {
                    out.push(SowingMove::PASS);
                } else if self.placing(state) {
                    self.placements(state, out);
                } else if state.swapping {
                    out.extend_from_slice(&[SowingMove::TAKE, SowingMove::LEAVE]);
                } else if state.giving {
                    self.gifts(state, out);
                }
                return;
            }
            // Pits 1 to 8 only (every move of a board of up to 8 pits a side): the list and
            // its length are two independent look-ups, quicker than counting bits.
            let lo = state.legal as usize;
            out.clear();
            SowingMove::extend_from_pits(out, &PIT_MOVES[0][lo]);
            out.truncate(usize::from(PIT_COUNTS[lo]));
            return;
        }
        if state.legal & (WIDE_PITS | sow::MORE) != 0 {
            return match state.legal & sow::MORE {
                0 => wide_moves(state.legal, out),
                _ => self.listed_lifts(state, out),
            };
        }
        // Branch-free: the pit lists of the two bytes of the mask (a random player makes the
        // bits unpredictable), the high one written over the low one's unused end, copied as a
        // whole.
        let (lo, hi) = (
            state.legal as usize & 0xff,
            state.legal as usize >> 8 & 0xff,
        );
        let n_lo = usize::from(PIT_COUNTS[lo]);
        let mut pits = [0u16; 24];
        pits[..8].copy_from_slice(&PIT_MOVES[0][lo]);
        pits[n_lo..n_lo + 8].copy_from_slice(&PIT_MOVES[1][hi]);
        out.clear();
        SowingMove::extend_from_pits(out, &pits[..16]);
        out.truncate(n_lo + usize::from(PIT_COUNTS[hi]));
        if state.legal >> sow::WAY_BITS != 0 {
            ways::other_way_moves(state.legal, out);
        }
    }
    fn play(&self, state: &mut SowingState, mv: &SowingMove) {
        match mv.kind() {
            MoveKind::Sow {
                pit,
                other_way,
                lift,
            } => self.play_pit(state, pit, other_way, lift, false),
            MoveKind::Store { lift } => self.play_store(state, lift, false),
            MoveKind::Take | MoveKind::Leave | MoveKind::Pick { .. } => self.decide(state, *mv),
            MoveKind::Pass => self.pass_turn(state),
        }
    }

    fn dice(&self) -> Option<Dice> {
        None
    }
    fn roll(&self, _state: &mut SowingState, _roll: &Roll) -> Result<(), RollError> {
        Err(RollError::NoDice)
    }

    fn draw_deal<R: rand::Rng>(&self, state: &SowingState, rng: &mut R) -> Option<Deal> {
        if self.lot_at(state).is_some() {
            let won = rng.gen_range(0..2u8);
            return Some(vec![vec![1 - won], vec![won]]);
        }
        let scatter = self.setup.scatter?;
        if !self.deals_at(state) {
            return None;
        }
        let n = self.geo.n;
        let counts = scatter.draw(2 * n, rng);
        Some(vec![counts[..n].to_vec(), counts[n..].to_vec()])
    }
    fn deal(&self, state: &mut SowingState, deal: &Deal) -> Result<(), String> {
        if let Some(k) = self.lot_at(state) {
            return self.draw_lot(state, k, deal);
        }
        let Some(scatter) = self.setup.scatter else {
            return Err("these rules scatter no stones at random".into());
        };
        if !self.deals_at(state) {
            return Err(
                "stones are scattered only as a game (or a round played afresh) begins".into(),
            );
        }
        let n = self.geo.n;
        if deal.len() != 2 || deal.iter().any(|row| row.len() != n) {
            return Err(format!("a deal is two lists of {n} pits, player 0's first"));
        }
        let mut board = state.board;
        let mut total = 0u32;
        for (p, row) in deal.iter().enumerate() {
            for (k, &c) in row.iter().enumerate() {
                if !scatter.allows(c) {
                    let pit = if scatter.empty {
                        "a pit not left empty"
                    } else {
                        "a pit"
                    };
                    return Err(format!(
                        "{}'s pit {} is dealt {c}, fewer than the {} {pit} holds after the scatter",
                        self.players[p],
                        k + 1,
                        scatter.least
                    ));
                }
                total += u32::from(c);
                board.count[self.geo.slot(p, k + 1)] = c;
            }
        }
        if total != scatter.stones {
            return Err(format!(
                "{total} stones dealt, the rules scatter {}",
                scatter.stones
            ));
        }
        let round = state.round;
        *state = self.fresh(
            board,
            usize::from(round.starter),
            round.game,
            round.points,
            state.opening,
            0,
        );
        Ok(())
    }

    fn start_ritual(&self) -> Ritual {
        self.setup.ritual
    }
    fn end_by_agreement(&self, state: &mut SowingState) -> bool {
        // Not in the middle of a move: stones may be in hand.
        if !self.end.agreement || state.result.is_some() || state.pending.is_some() {
            return false;
        }
        self.finish(state, EndReason::Agreement, true);
        true
    }
    fn watched_conditions(&self) -> Vec<(&'static str, u32)> {
        let set = [
            self.capture.is_some(),
            self.sowing.take.is_some(),
            self.house.is_some(),
            self.turn.again.is_some(),
            self.sowing.relay_when.is_some(),
            self.sowing.relay_choice.is_some(),
        ];
        (0..set.len())
            .filter(|&i| set[i])
            .map(|i| (sow::WATCHED[i], 1 << i))
            .collect()
    }
    fn conditions_held(&self, state: &SowingState) -> u32 {
        u32::from(state.last_held)
    }
    fn cut_short(&self, state: &SowingState) -> bool {
        state.last_end != MoveEnd::Sown
    }
    fn state_bytes(&self, state: &SowingState) -> usize {
        std::mem::size_of::<SowingState>() + state.history.heap_bytes()
    }
    fn pieces(&self, state: &SowingState) -> u32 {
        state.board.stones() + u32::from(state.in_hand())
    }
    fn guards(&self) -> Guards {
        let by_rules = self.end.max_plies.filter(|&p| p < LIMITS.plies_per_game);
        Guards {
            plies: by_rules.unwrap_or(LIMITS.plies_per_game),
            plies_by_rules: by_rules.is_some(),
            games: self.match_rule.as_ref().map(|_| LIMITS.games_per_match),
        }
    }
    fn set_max_plies(&mut self, plies: u32) {
        self.end.max_plies = Some(plies.clamp(1, LIMITS.plies_per_game));
    }
}

impl Notation for SowingGame {
    fn move_text(&self, state: &SowingState, mv: &SowingMove) -> String {
        match mv.kind() {
            MoveKind::Pick { slot } => self.pick_text(state, slot),
            _ => self
                .decision_word(state, *mv)
                .map_or_else(|| self.pit_text(state, *mv), str::to_string),
        }
    }
    fn parse_move(&self, state: &SowingState, text: &str) -> Result<SowingMove, MoveError> {
        if state.result.is_some() {
            return Err(MoveError::NotAwaited("the game is over"));
        }
        if state.pending.is_some() {
            return self.parse_decision(state, text);
        }
        if self.placing(state) {
            return self.parse_placement(state, text);
        }
        if state.swapping {
            return arrange::parse_swap(text);
        }
        if state.giving {
            return self.parse_gift(state, text);
        }
        if state.passing {
            return match text.trim().eq_ignore_ascii_case("pass") {
                true => Ok(SowingMove::PASS),
                false => Err(MoveError::illegal(
                    text,
                    "no pit can be sown: the only move is `pass`",
                )),
            };
        }
        if self.lifts() {
            return self.parse_lift(state, text, |pit| self.parse_pit(state, pit));
        }
        self.parse_pit(state, text)
    }
}

impl SowingGame {
    /// The pit a round's start draws by lot (`[match] contested = "lot"`): the `k`th of the
    /// round winner's run, before the first move of a round whose pits changed owner.
    fn lot_at(&self, st: &SowingState) -> Option<u32> {
        let rule = self.match_rule.as_ref()?;
        if st.round.game < 2 || st.ply > 0 || st.pending.is_some() || st.result.is_some() {
            return None;
        }
        rule.lot_pit(st.round.points, 2 * self.geo.n as u32)
    }

    /// Gives the pit drawn by lot to the player `deal` names: `[[1], [0]]`, player 0.
    fn draw_lot(&self, st: &mut SowingState, k: u32, deal: &Deal) -> Result<(), String> {
        let p = match deal.as_slice() {
            [a, b] if a.as_slice() == [1] && b.as_slice() == [0] => 0,
            [a, b] if a.as_slice() == [0] && b.as_slice() == [1] => 1,
            _ => return Err(
                "a pit is drawn by lot: the deal is [[1], [0]] (player 0 wins it) or [[0], [1]]"
                    .into(),
            ),
        };
        let held = st.round.points;
        let winner = usize::from(held[1] > held[0]);
        let slot = self.geo.slot_from(winner, k as usize);
        let mut board = st.board;
        board.ceded &= !(1 << slot);
        if p != usize::from(self.geo.owner[slot]) {
            board.ceded |= 1 << slot;
        }
        let round = st.round;
        *st = self.fresh(
            board,
            usize::from(round.starter),
            round.game,
            round.points,
            false,
            0,
        );
        Ok(())
    }
}

impl Json for SowingGame {
    fn move_json(&self, state: &SowingState, mv: &SowingMove) -> Value {
        match mv.kind() {
            MoveKind::Sow { pit, .. } => {
                let mut fields = json!({"text": self.pit_text(state, *mv), "pit": pit});
                if usize::from(pit) > self.geo.n {
                    // A pit across the board: its number on its side, and that side.
                    fields["pit"] = json!(usize::from(pit) - self.geo.n);
                    fields["side"] = json!(1 - usize::from(state.to_move));
                }
                if self.sowing.directed {
                    fields["direction"] = json!(self.direction_word(*mv));
                }
                if mv.lift() > 0 {
                    fields["lift"] = json!(mv.lift());
                }
                fields
            }
            MoveKind::Store { lift } => {
                let mut fields = json!({"text": self.pit_text(state, *mv), "store": true});
                if lift > 0 {
                    fields["lift"] = json!(lift);
                }
                fields
            }
            MoveKind::Take | MoveKind::Leave => {
                let decision = self.decision_word(state, *mv);
                json!({"text": decision, "decision": decision})
            }
            MoveKind::Pick { slot } => {
                let slot = usize::from(slot);
                json!({
                    "text": self.pick_text(state, slot as u8),
                    "pick": true,
                    "side": self.geo.owner[slot],
                    "pit": self.geo.number[slot],
                })
            }
            MoveKind::Pass => json!({"text": "pass", "pass": true}),
        }
    }

    fn board_json(&self, state: &SowingState, fields: &mut Map<String, Value>) {
        self.write_board_json(state, fields);
    }
    fn state_from_json(&self, value: &Value) -> Result<SowingState, StateError> {
        self.read_json(value).map_err(StateError)
    }
}

impl Evaluator for SowingGame {
    fn material(&self, state: &SowingState, player: Player) -> i32 {
        let b = &state.board;
        let store = i32::from(b.store(player));
        if self.fast.store_is_material {
            return store;
        }
        // Stones in houses that keep them are their owner's as surely as the store's.
        let housed = b.housed(b.houses[player]) as i32;
        // Where captures are sown on (Omweso) or kept on the board, captured stones stay on the
        // capturer's side: what a player holds is the stones there.
        use rules::capture::CaptureTo;
        match &self.capture {
            Some(c) if matches!(c.to, CaptureTo::Sow | CaptureTo::Last | CaptureTo::Origin) => {
                store + housed + self.open_stones(b, player) as i32
            }
            _ => store + housed,
        }
    }
    fn evaluation(&self, state: &SowingState, player: Player) -> Option<i32> {
        let e = self.evaluate.as_ref()?;
        Some(e.eval(&scope::Ctx::new(&state.board, &self.geo, player, state.ply)))
    }
    fn position_key(&self, state: &SowingState) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (
            state.board,
            state.to_move,
            state.opening,
            state.swapping,
            state.giving,
            state.result.is_some(),
            state.memory,
        )
            .hash(&mut h);
        if let Some(p) = &state.pending {
            (p.paused.question, p.decider, p.paused.sowing.key()).hash(&mut h);
        }
        h.finish()
    }
}

impl View for SowingGame {
    fn render(&self, state: &SowingState, viewer: Player) -> String {
        render::board(self, state, viewer) + &render::status(self, state)
    }
    fn board(&self, state: &SowingState, viewer: Player) -> String {
        render::board(self, state, viewer)
    }
    fn awaited(&self, state: &SowingState) -> Option<String> {
        render::awaited(self, state)
    }
    fn move_text_seen_by(&self, state: &SowingState, mv: &SowingMove, _viewer: Player) -> String {
        self.move_text(state, mv)
    }
    fn gain_text(&self, gained: i32) -> Option<String> {
        let stones = format!("{gained} stone{}", if gained == 1 { "" } else { "s" });
        // Where stones are sown into the store, not every stone gained there is a capture;
        // where a store is sown, its gain is what it took less what it sowed.
        Some(if self.sowing.store_move.is_some() {
            format!("store +{gained}")
        } else if self.sowing.circuit.own_store {
            format!("stores {stones}")
        } else {
            format!("captures {stones}")
        })
    }
    fn match_game_word(&self) -> &'static str {
        "round"
    }
    fn notation_help(&self, state: &SowingState) -> String {
        render::notation_help(self, state)
    }
    fn svg(&self, state: &SowingState, viewer: Player) -> String {
        render::svg(self, state, viewer)
    }
    fn play_shown(&self, state: &SowingState, mv: &SowingMove) -> Vec<(SowingState, u32)> {
        shown::play_shown(self, state, mv)
    }
    fn describe(&self) -> String {
        rules::describe(self)
    }
}
