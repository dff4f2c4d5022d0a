//! The arrangement before the sowing (`[setup] to_place`, `place`): each player holding stones
//! puts them into pits one at a time, in turns, before the first move. A placement is a pick of
//! a pit (written as a pick: `3` on the placer's side, `o3` across); it is not a ply, so rules
//! that read `ply` count the sowing moves only.

use crate::board::{Board, STORE};
use crate::moves::SowingMove;
use crate::rules::setup::Swap;
use crate::scope::Ctx;
use crate::state::SowingState;
use crate::SowingGame;
use ludus_core::game::MoveError;

impl SowingGame {
    /// Whether stones wait to be placed: the game has not begun its sowing.
    #[inline]
    pub(crate) fn placing(&self, st: &SowingState) -> bool {
        st.board.to_place != [0, 0] && st.result.is_none()
    }

    /// The pits the player to move may put a stone into (bit = slot): those `place` allows,
    /// or, when it allows none, any pit of their own.
    pub(crate) fn placement_pits(&self, st: &SowingState) -> u64 {
        let g = &self.geo;
        let placer = usize::from(st.to_move);
        let pits = |keep: &mut dyn FnMut(usize) -> bool| {
            (0..2 * g.n)
                .filter(|&s| !st.board.is_closed(s) && keep(s))
                .fold(0u64, |m, s| m | 1 << s)
        };
        let own = pits(&mut |s| usize::from(g.owner[s]) == placer);
        // A round's arrangement is the arranger's own pits, which the other player copies.
        let arranging = self.match_rule.as_ref().is_some_and(|m| m.arrange) && st.round.game > 1;
        match &self.setup.place {
            Some(cond) => {
                let mut ctx = Ctx::new(&st.board, g, placer, st.ply);
                let allowed = pits(&mut |s| cond.test(&mut ctx, s));
                match if arranging { allowed & own } else { allowed } {
                    0 => own,
                    allowed => allowed,
                }
            }
            None => own,
        }
    }

    /// The placements of the player to move, as picks, and `done` where they may keep the
    /// rest of a round's arrangement in hand (`[match] arranged_stop`).
    pub(crate) fn placements(&self, st: &SowingState, out: &mut Vec<SowingMove>) {
        let pits = self.placement_pits(st);
        out.extend(SowingMove::picks(pits));
        if self.may_stop_arranging(st) {
            out.push(SowingMove::LEAVE);
        }
    }

    /// Whether the player arranging a round may end the arrangement, keeping the stones still
    /// in hand (`[match] arranged_stop`).
    pub(crate) fn may_stop_arranging(&self, st: &SowingState) -> bool {
        let Some(stop) = self
            .match_rule
            .as_ref()
            .and_then(|m| m.arranged_stop.as_ref())
        else {
            return false;
        };
        let placer = usize::from(st.to_move);
        st.round.game > 1
            && st.board.to_place[placer] > 0
            && stop.test(&Ctx::new(&st.board, &self.geo, placer, st.ply))
    }

    /// The arranging player keeps the stones still in hand, in their store: the arrangement
    /// ends there.
    pub(crate) fn stop_arranging(&self, st: &mut SowingState) {
        if !self.may_stop_arranging(st) {
            return;
        }
        let placer = usize::from(st.to_move);
        st.board.count[STORE + placer] += st.board.to_place[placer];
        st.board.to_place[placer] = 0;
        st.last_mover = placer as u8;
        self.placed(st, placer);
    }

    /// Reads a placement: a pit as the placer sees the board.
    pub(crate) fn parse_placement(
        &self,
        st: &SowingState,
        text: &str,
    ) -> Result<SowingMove, MoveError> {
        let stop = self.may_stop_arranging(st);
        if stop && text.trim().eq_ignore_ascii_case("done") {
            return Ok(SowingMove::LEAVE);
        }
        let mut moves = Vec::new();
        self.placements(st, &mut moves);
        moves.retain(|&m| m != SowingMove::LEAVE);
        self.pick_named(st, &moves, text).map_err(|options| {
            MoveError::illegal(
                text,
                format!(
                    "a stone from hand is to be placed ({} left): into {options}{}",
                    st.board.to_place[usize::from(st.to_move)],
                    if stop {
                        ", or `done` to keep the rest"
                    } else {
                        ""
                    },
                ),
            )
        })
    }

    /// Puts a stone of the player to move into `slot`.
    pub(crate) fn place_from_hand(&self, st: &mut SowingState, slot: u8) {
        let placer = usize::from(st.to_move);
        if st.board.to_place[placer] == 0 || self.placement_pits(st) >> slot & 1 == 0 {
            return;
        }
        st.board.to_place[placer] -= 1;
        st.board.count[usize::from(slot)] += 1;
        st.last_mover = placer as u8;
        self.placed(st, placer);
    }

    /// After `placer`'s placement: the next placer follows (the other player while they hold
    /// stones), and once every stone is placed (a round's arrangement copied) the starter sows.
    fn placed(&self, st: &mut SowingState, placer: usize) {
        match st.board.to_place {
            [0, 0] => {
                if self.match_rule.as_ref().is_some_and(|m| m.arrange) && st.round.game > 1 {
                    self.copy_arrangement(&mut st.board, placer);
                }
                st.to_move = st.round.starter;
                self.begin_sowing(st);
            }
            hands => {
                st.to_move = if hands[1 - placer] > 0 {
                    1 - placer
                } else {
                    placer
                } as u8
            }
        }
    }

    /// The richer player's pits copy those the poorer, `arranger`, has just arranged (`[match]
    /// arrange`), each the pit facing it or of the same number, from the stones in their
    /// store; pits left empty may be out of play on both sides.
    fn copy_arrangement(&self, b: &mut Board, arranger: usize) {
        let Some(rule) = &self.match_rule else {
            return;
        };
        let copier = 1 - arranger;
        for k in 1..=self.geo.n {
            let from = self.geo.slot(arranger, k);
            let to = match rule.arranged_same_number {
                true => self.geo.slot(copier, k),
                false => usize::from(self.geo.opposite[from]),
            };
            // As much as the store holds (a position set up by hand may hold less).
            let copied = b.count[from].min(b.count[STORE + copier]);
            b.count[to] += copied;
            b.count[STORE + copier] -= copied;
            if rule.arranged_empty_closed && b.count[from] == 0 {
                b.closed |= 1 << from | 1 << to;
            }
        }
    }

    /// The start of the sowing, the starter to move: their decision to turn the board round
    /// where the rules offer it (`swap`), else their first move.
    pub(crate) fn begin_sowing(&self, st: &mut SowingState) {
        if self.sowing.lock_when.is_some() {
            self.relock(&mut st.board, (usize::from(st.to_move), st.ply), None);
        }
        if self.setup.swap != Swap::No {
            st.swapping = true;
            st.legal = 0;
            return;
        }
        self.settle(st, 1 - usize::from(st.to_move), true);
    }

    /// The starter's decision: `swap` turns the board round; then the first move is theirs,
    /// or, where swapping takes their turn, the other player's.
    pub(crate) fn decide_swap(&self, st: &mut SowingState, swap: bool) {
        if !st.swapping {
            return;
        }
        st.swapping = false;
        if swap {
            st.board = st.board.mirrored(self.geo.n);
            if self.setup.swap == Swap::InsteadOfMoving {
                st.to_move = 1 - st.to_move;
            }
        }
        st.last_mover = 1 - st.to_move;
        self.settle(st, usize::from(st.last_mover), true);
    }

    /// Who places first at a start whose stones are in hand: the starter, unless they hold none.
    pub(crate) fn first_placer(&self, st: &SowingState) -> u8 {
        let starter = st.round.starter;
        match st.board.to_place[usize::from(starter)] {
            0 => 1 - starter,
            _ => starter,
        }
    }
}

/// A swap decision's text: `swap` (take the other side) or `keep`.
pub(crate) fn swap_text(mv: SowingMove) -> &'static str {
    match mv == SowingMove::TAKE {
        true => "swap",
        false => "keep",
    }
}

/// Reads the decision to turn the board round.
pub(crate) fn parse_swap(text: &str) -> Result<SowingMove, MoveError> {
    match text.trim().to_ascii_lowercase().as_str() {
        "swap" => Ok(SowingMove::TAKE),
        "keep" => Ok(SowingMove::LEAVE),
        _ => Err(MoveError::illegal(
            text,
            "the board may first be turned round: `swap` (take the other side) or `keep`",
        )),
    }
}
