//! A turn spent giving (`[turn] give`): when its condition holds at the start of a turn (the
//! opponent has no stones, say), the player to move gives one stone from a pit of theirs
//! (`give_from`) into the opponent's pit `give_to`; that is their turn, or they then make their
//! move (`give_then`: one gift a turn). A gift is written as the pit it comes from, `3`, and
//! STATE `give` marks a gift due.

use crate::moves::SowingMove;
use crate::rules::turn::GiveThen;
use crate::scope::Ctx;
use crate::state::SowingState;
use crate::SowingGame;
use ludus_core::game::MoveError;

impl SowingGame {
    /// Whether the player to move must give a stone this turn.
    pub(crate) fn must_give(&self, st: &SowingState) -> bool {
        self.turn.give.as_ref().is_some_and(|g| {
            g.when
                .test(&st.board, &self.geo, usize::from(st.to_move), st.ply)
        })
    }

    /// The legal pits of the player to move in rules with gifts: none on a turn of giving
    /// (which `giving` marks, unless there is nothing to give: then no move at all).
    #[cold]
    #[inline(never)]
    pub(crate) fn legal_or_gift(&self, st: &mut SowingState) -> u64 {
        // One gift a turn: after it the giver's move (`give_then = "move"`).
        if !std::mem::take(&mut st.gave) && self.must_give(st) {
            st.giving = self.gift_pits(st) != 0;
            return 0;
        }
        let to_move = usize::from(st.to_move);
        self.legal_mask(&st.board, to_move, st.ply, st.opening, &st.memory)
    }

    /// The pits the player to move may give a stone from (bit = slot).
    pub(crate) fn gift_pits(&self, st: &SowingState) -> u64 {
        let Some(give) = &self.turn.give else {
            return 0;
        };
        let g = &self.geo;
        let giver = usize::from(st.to_move);
        let mut ctx = Ctx::new(&st.board, g, giver, st.ply);
        (1..=g.n)
            .map(|k| g.slot(giver, k))
            .filter(|&s| st.board.count[s] > 0 && !st.board.is_closed(s))
            .filter(|&s| give.from.as_ref().is_none_or(|c| c.test(&mut ctx, s)))
            .fold(0, |m, s| m | 1 << s)
    }

    /// The gifts of the player to move, as picks of the pits they come from.
    pub(crate) fn gifts(&self, st: &SowingState, out: &mut Vec<SowingMove>) {
        let pits = self.gift_pits(st);
        out.extend(SowingMove::picks(pits));
    }

    /// Reads a gift: the pit the stone comes from.
    pub(crate) fn parse_gift(&self, st: &SowingState, text: &str) -> Result<SowingMove, MoveError> {
        let mut moves = Vec::new();
        self.gifts(st, &mut moves);
        self.pick_named(st, &moves, text).map_err(|options| {
            let to = self.players[1 - usize::from(st.to_move)].as_str();
            MoveError::illegal(
                text,
                format!("a stone is to be given to {to}: from pit {options}"),
            )
        })
    }

    /// Gives a stone from `slot` of the player to move into the opponent's pit `give_to`.
    pub(crate) fn give_stone(&self, st: &mut SowingState, slot: u8) {
        let Some(give) = &self.turn.give else {
            return;
        };
        if !st.giving || self.gift_pits(st) >> slot & 1 == 0 {
            return;
        }
        let giver = usize::from(st.to_move);
        st.board.count[usize::from(slot)] -= 1;
        st.board.count[self.geo.slot(1 - giver, give.to)] += 1;
        st.giving = false;
        match give.then {
            GiveThen::Pass => {
                st.ply += 1;
                st.opening = false;
                st.last_mover = giver as u8;
                st.to_move = 1 - giver as u8;
                self.settle(st, giver, false);
            }
            GiveThen::Move => {
                st.gave = true;
                self.settle(st, 1 - giver, false);
            }
        }
    }
}
