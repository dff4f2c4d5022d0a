//! A move played out as by hand, for people to watch (the page animates it): the board after
//! each lift, each stone dropped and each capture, with the stones then in hand.
//!
//! Only [`play_shown`] records. A move it plays is marked `shown` and takes the
//! general path (never the precomputed runs, which drop a whole lap at once); every other
//! move pays one predictable branch a drop. The boards are kept on the thread playing the move:
//! a paused move (a question within it) keeps only its mark, so recording needs no place in
//! the position.

use super::board::Board;
use super::SowingGame;
use super::SowingState;
use crate::moves::{MoveKind, SowingMove};
use ludus_core::limits::LIMITS;
use std::cell::RefCell;

/// One moment of a move: the board, and the stones in the mover's hand.
type Frame = (Board, u8);

/// The moments of the move being shown on this thread, fewer than `shown_frames`: a longer move
/// keeps every other one, and then every other of those, so that they stay evenly spread.
#[derive(Default)]
struct Frames {
    list: Vec<Frame>,
    /// Moments seen, and one kept in `stride`.
    seen: u32,
    stride: u32,
}

thread_local! {
    static FRAMES: RefCell<Option<Frames>> = const { RefCell::new(None) };
}

/// Records the moment `b` with `hand` stones in hand, unless it is the one recorded last.
#[cold]
#[inline(never)]
pub(crate) fn record(b: &Board, hand: u8) {
    FRAMES.with(|f| {
        let mut f = f.borrow_mut();
        let Some(frames) = f.as_mut() else {
            return;
        };
        if frames.list.last() == Some(&(*b, hand)) {
            return;
        }
        frames.seen += 1;
        if frames.seen % frames.stride != 0 {
            return;
        }
        frames.list.push((*b, hand));
        if frames.list.len() >= LIMITS.shown_frames {
            let mut k = 0;
            frames.list.retain(|_| {
                k += 1;
                k % 2 == 0
            });
            frames.stride *= 2;
        }
    });
}

/// `mv` played from `st` as by hand: the positions between `st` and the one `mv` leads to,
/// each after a lift, a stone dropped or a capture (fewer than `shown_frames`, evenly
/// spread over a longer move), with the stones then in hand. Empty for a move that sows
/// nothing (a pass, a gift, a choice of sides).
pub(crate) fn play_shown(
    game: &SowingGame,
    st: &SowingState,
    mv: &SowingMove,
) -> Vec<(SowingState, u32)> {
    let mut after = st.clone();
    let frames = Frames {
        stride: 1,
        ..Frames::default()
    };
    FRAMES.with(|f| *f.borrow_mut() = Some(frames));
    match mv.kind() {
        MoveKind::Sow {
            pit,
            other_way,
            lift,
        } => game.play_pit(&mut after, pit, other_way, lift, true),
        MoveKind::Store { lift } => game.play_store(&mut after, lift, true),
        MoveKind::Take | MoveKind::Leave | MoveKind::Pick { .. } => {
            if let Some(pending) = after.pending.as_mut() {
                pending.paused.sowing.shown = true;
            }
            game.decide(&mut after, *mv);
        }
        MoveKind::Pass => {}
    }
    let frames = FRAMES.with(|f| f.borrow_mut().take()).unwrap_or_default();
    // The positions before and after the move are not moments of it.
    let ends = [(st.board, st.in_hand()), (after.board, after.in_hand())];
    frames
        .list
        .into_iter()
        .filter(|frame| !ends.contains(frame))
        .map(|(board, hand)| {
            let mut moment = st.clone();
            moment.board = board;
            moment.pending = None;
            (moment, u32::from(hand))
        })
        .collect()
}
