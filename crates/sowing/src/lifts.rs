//! What a move lifts: every stone of its pit (the common case, which pays nothing for this
//! module), as many as the mover chooses (`sowing.lift = "chosen"`, `lift_when`), or the
//! mover's store sown in place of a pit (`sowing.store_move`). Such moves are listed after the
//! pits' bits of the legal-move mask, which [`MORE`] marks; their text is the pit's (or `s` for
//! the store) with the stones lifted after a colon: `3:5`, `s`, `s:2`.

use super::board::{Board, OTHER_WAY, STORE, STORE_WAY};
use super::moves::{MoveKind, SowingMove};
use super::scope::Ctx;
use super::sow::{MORE, WAY_BITS};
use super::state::{Memory, SowingState};
use super::SowingGame;
use ludus_core::game::MoveError;

/// The store, as a move's text names it.
pub(crate) const STORE_TEXT: &str = "s";

/// The circuit, pit and stones lifted of a move of `mover`'s (as [`SowingGame::sow`] takes).
fn spec(mover: usize, mv: SowingMove) -> (usize, usize, u8) {
    match mv.kind() {
        MoveKind::Store { lift } => (mover + STORE_WAY, 0, lift),
        MoveKind::Sow {
            pit,
            other_way,
            lift,
        } => (
            mover + OTHER_WAY * usize::from(other_way),
            usize::from(pit),
            lift,
        ),
        _ => unreachable!("only sowings are listed here"),
    }
}

impl SowingGame {
    /// Whether moves lift chosen numbers of stones or sow the store: the legal moves are then
    /// listed here.
    pub fn lifts(&self) -> bool {
        self.sowing.lift_chosen || self.sowing.store_move.is_some()
    }

    /// The numbers of stones the mover may lift from `slot` (a pit or their store), all of
    /// them written 0 (as a move that lifts all is written in every game), so that a pit
    /// lifted whole is the same move whatever it holds.
    fn lift_counts(
        &self,
        b: &Board,
        mover: usize,
        slot: usize,
        ply: u32,
        memory: &Memory,
    ) -> Vec<u8> {
        let count = b.count[slot];
        if !self.sowing.lift_chosen {
            return vec![0];
        }
        let mut ctx = Ctx::new(b, &self.geo, mover, ply);
        memory.show(&mut ctx);
        let mut allowed = |c: u8| {
            ctx.hand = u32::from(c);
            self.sowing
                .lift_when
                .as_ref()
                .is_none_or(|when| when.test(&mut ctx, slot))
        };
        let mut counts: Vec<u8> = (1..count).filter(|&c| allowed(c)).collect();
        if count > 0 && allowed(count) {
            counts.push(0);
        }
        counts
    }

    /// Whether the mover may sow their store now.
    fn store_open(&self, b: &Board, mover: usize, ply: u32, memory: &Memory) -> bool {
        let slot = STORE + mover;
        self.sowing.store_move.as_ref().is_some_and(|cond| {
            let mut ctx = Ctx::new(b, &self.geo, mover, ply);
            memory.show(&mut ctx);
            b.count[slot] > 0
                && cond.test(&mut ctx, slot)
                && !self.lift_counts(b, mover, slot, ply, memory).is_empty()
        })
    }

    /// The moves of `mover` listed here, from the legal pits `mask` (judged by nothing but
    /// `start` and the ways round): each pit move once for every number of stones it may lift,
    /// then the store; each judged as a move of its own by the feeding rule and a forbidden
    /// grand slam when `judge` says they apply (the opponent has no stones, a slam is barred).
    fn lift_moves(
        &self,
        b: &Board,
        (mover, ply, memory): (usize, u32, &Memory),
        mask: u64,
        (feed, forbid): (bool, bool),
    ) -> Vec<SowingMove> {
        let mut pits = Vec::new();
        super::wide_moves(mask & !MORE, &mut pits);
        let mut moves = Vec::new();
        for mv in pits {
            let slot = self
                .geo
                .slot_from(mover, usize::from(mv.sown_pit().unwrap_or(1)));
            let counts = self.lift_counts(b, mover, slot, ply, memory);
            moves.extend(counts.into_iter().map(|c| mv.lifting(c)));
        }
        if self.store_open(b, mover, ply, memory) {
            let counts = self.lift_counts(b, mover, STORE + mover, ply, memory);
            moves.extend(counts.into_iter().map(SowingMove::store));
        }
        if moves.is_empty() || !(feed || forbid) {
            return moves;
        }
        let tried: Vec<(bool, bool)> = moves
            .iter()
            .map(|&mv| self.trial(b, spec(mover, mv), ply))
            .collect();
        let any_fed = tried.iter().any(|t| t.0);
        let only_fed = self.feeds_only(feed, any_fed);
        let left = |&(fed, _): &(bool, bool)| fed || !only_fed;
        let slams_go = self.slams_go(tried.iter().any(|t| left(t) && !t.1));
        moves
            .into_iter()
            .zip(tried)
            .filter(|(_, t)| left(t) && !(slams_go && t.1))
            .map(|(mv, _)| mv)
            .collect()
    }

    /// The legal pits `mask` less those no move of which is left (see [`Self::lift_moves`]),
    /// and [`MORE`] when any move is.
    #[cold]
    #[inline(never)]
    pub(crate) fn mark_lifts(
        &self,
        b: &Board,
        at: (usize, u32, &Memory),
        mask: u64,
        judge: (bool, bool),
    ) -> u64 {
        let moves = self.lift_moves(b, at, mask, judge);
        let mut marked = moves
            .iter()
            .filter_map(|mv| {
                let pit = mv.sown_pit()?;
                Some(1u64 << (usize::from(pit) - 1 + usize::from(mv.is_other_way()) * WAY_BITS))
            })
            .fold(0, |m, bit| m | bit);
        if !moves.is_empty() {
            marked |= MORE;
        }
        marked
    }

    /// The legal moves of a position whose mask [`MORE`] marks.
    #[cold]
    #[inline(never)]
    pub(crate) fn listed_lifts(&self, state: &SowingState, out: &mut Vec<SowingMove>) {
        let mover = usize::from(state.to_move);
        // The mask holds the pits left: only the numbers lifted and the store are judged again.
        let feed = self.sowing.must_feed != super::rules::MustFeed::No
            && self.open_stones(&state.board, 1 - mover) == 0;
        let forbid = self.slams_go(true);
        *out = self.lift_moves(
            &state.board,
            (mover, state.ply, &state.memory),
            state.legal,
            (feed, forbid),
        );
    }

    /// Plays the mover's store, `lift` of its stones (0: all); `shown`, played out for people
    /// to watch.
    pub(crate) fn play_store(&self, st: &mut SowingState, lift: u8, shown: bool) {
        let way = usize::from(st.to_move) + STORE_WAY;
        self.play_sowing(st, (way, 0, lift), (false, shown));
    }

    /// A move's text: the pit's (or `s`), and the stones lifted after a colon when the mover
    /// chooses them.
    pub(crate) fn lift_text(&self, pit: String, mv: SowingMove) -> String {
        match mv.lift() {
            0 => pit,
            n => format!("{pit}:{n}"),
        }
    }

    /// Reads a move of a game whose moves lift chosen numbers or sow the store: `s`, `s:2`,
    /// `3:5` (`read_pit` reads the pit part); a pit or the store without a number lifts all its
    /// stones.
    pub(crate) fn parse_lift(
        &self,
        state: &SowingState,
        text: &str,
        read_pit: impl Fn(&str) -> Result<SowingMove, MoveError>,
    ) -> Result<SowingMove, MoveError> {
        let (what, number) = match text.split_once(':') {
            Some((what, n)) => (what.trim(), Some(n.trim())),
            None => (text.trim(), None),
        };
        let mover = usize::from(state.to_move);
        let (mv, slot) = if what.eq_ignore_ascii_case(STORE_TEXT) {
            if self.sowing.store_move.is_none() {
                return Err(MoveError::unreadable(
                    text,
                    "no rule sows a store in this game",
                ));
            }
            (SowingMove::store(0), STORE + mover)
        } else {
            let mv = read_pit(what)?;
            let pit = usize::from(mv.sown_pit().unwrap_or(1));
            (mv, self.geo.slot_from(mover, pit))
        };
        let count = state.board.count[slot];
        let lift = match number {
            None => count,
            Some(n) => n.parse::<u8>().map_err(|_| {
                MoveError::unreadable(
                    text,
                    "the stones lifted are a number after the colon: `3:5`",
                )
            })?,
        };
        if number.is_some() && !self.sowing.lift_chosen {
            return Err(MoveError::illegal(
                text,
                "every move lifts all its stones here: write the pit alone",
            ));
        }
        let mv = match self.sowing.lift_chosen && lift != count {
            true => mv.lifting(lift),
            false => mv,
        };
        let mut legal = Vec::new();
        ludus_core::game::Game::legal_moves(self, state, &mut legal);
        if legal.contains(&mv) {
            return Ok(mv);
        }
        let name = match mv.kind() {
            MoveKind::Store { .. } => "your store".to_string(),
            _ => format!("pit {what}"),
        };
        let allowed: Vec<String> = legal
            .iter()
            .filter(|m| match mv.kind() {
                MoveKind::Store { .. } => matches!(m.kind(), MoveKind::Store { .. }),
                _ => m.sown_pit() == mv.sown_pit() && m.is_other_way() == mv.is_other_way(),
            })
            .map(|m| match m.lift() {
                0 => format!("all {count}"),
                n => n.to_string(),
            })
            .collect();
        Err(MoveError::illegal(
            text,
            if count == 0 {
                format!("{name} is empty")
            } else if lift == 0 || lift > count {
                format!("{name} holds {count} stones")
            } else if allowed.is_empty() {
                format!("{name} may not be sown now")
            } else {
                format!(
                    "{name} may not lift {lift} now (it may lift {})",
                    allowed.join(", ")
                )
            },
        ))
    }
}
