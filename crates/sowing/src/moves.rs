//! A sowing move as a type: a pit sown the rules' way or the other way round, a pass (where the
//! rules make a player who cannot move pass), or, while a choice within a move waits, the
//! decision to take or to leave, or the pit picked (`capture.pick`). One byte, so the legal moves
//! of a position are copied as a block (see `legal_moves`).

use std::fmt;

/// The byte's bit for a pit sown the other way round (against `sowing.direction`).
const OTHER_WAY: u8 = 0x40;
/// The byte's bit for a pit picked while a pick waits (the slot in the low bits).
const PICK: u8 = 0x80;
/// The byte of a pass, past every pit.
const PASS: u8 = 0xfd;
/// The bytes of the two decisions, past every pit.
const TAKE: u8 = 0xfe;
const LEAVE: u8 = 0xff;

/// A move of a sowing game: what a player chooses.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct SowingMove(u8);

/// What a [`SowingMove`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Sow pit `pit` (1 to the pits a side, in the mover's numbering); `other_way`: against the
    /// rules' direction (`sowing.reverse`, `sowing.direction_choice`).
    Sow { pit: u8, other_way: bool },
    /// Take what the pending choice asks about (a pit, a capture, a house).
    Take,
    /// Leave it.
    Leave,
    /// Pick the pit in `slot` (player p's pit k is slot `p * n + k - 1`, n pits a side): the
    /// answer while a pick waits (`capture.pick`).
    Pick { slot: u8 },
    /// Pass: the player has no pit to sow and the rules make them pass.
    Pass,
}

impl SowingMove {
    /// The decision to take what is asked about: a move while a choice waits.
    pub const TAKE: SowingMove = SowingMove(TAKE);
    /// The decision to leave it.
    pub const LEAVE: SowingMove = SowingMove(LEAVE);
    /// A pass, a player's only move when they cannot sow and the rules make them pass.
    pub const PASS: SowingMove = SowingMove(PASS);

    /// Picking the pit in `slot` (see [`MoveKind::Pick`]).
    pub fn pick(slot: u8) -> SowingMove {
        debug_assert!(usize::from(slot) < crate::board::STORE);
        SowingMove(PICK | slot)
    }

    /// Picking each pit of `slots` (bit = slot), in slot order.
    pub fn picks(slots: u64) -> impl Iterator<Item = SowingMove> {
        (0..crate::board::STORE as u8)
            .filter(move |&s| slots >> s & 1 == 1)
            .map(SowingMove::pick)
    }

    /// Sowing pit `pit` (1 to 16) the rules' way round.
    pub fn pit(pit: u8) -> SowingMove {
        debug_assert!((1..OTHER_WAY).contains(&pit));
        SowingMove(pit)
    }

    /// Sowing pit `pit` the other way round.
    pub fn other_way(pit: u8) -> SowingMove {
        debug_assert!((1..OTHER_WAY).contains(&pit));
        SowingMove(pit | OTHER_WAY)
    }

    /// Appends the pits of a block of bytes (pit numbers of the rules' way round, as the
    /// legal-move listing packs them); the caller truncates to the pits that count.
    #[inline]
    pub(crate) fn extend_from_pits<const N: usize>(out: &mut Vec<SowingMove>, pits: [u8; N]) {
        out.extend(pits.map(SowingMove));
    }

    pub fn kind(self) -> MoveKind {
        match self.0 {
            TAKE => MoveKind::Take,
            LEAVE => MoveKind::Leave,
            PASS => MoveKind::Pass,
            b if b & PICK != 0 => MoveKind::Pick { slot: b & !PICK },
            b => MoveKind::Sow {
                pit: b & !OTHER_WAY,
                other_way: b & OTHER_WAY != 0,
            },
        }
    }

    /// The pit sown; `None` for a decision.
    pub fn sown_pit(self) -> Option<u8> {
        match self.kind() {
            MoveKind::Sow { pit, .. } => Some(pit),
            MoveKind::Take | MoveKind::Leave | MoveKind::Pick { .. } | MoveKind::Pass => None,
        }
    }

    /// Whether the pit is sown against the rules' direction (false for a decision).
    pub fn is_other_way(self) -> bool {
        matches!(
            self.kind(),
            MoveKind::Sow {
                other_way: true,
                ..
            }
        )
    }
}

impl fmt::Debug for SowingMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            MoveKind::Sow {
                pit,
                other_way: false,
            } => write!(f, "pit {pit}"),
            MoveKind::Sow {
                pit,
                other_way: true,
            } => write!(f, "pit {pit} the other way"),
            MoveKind::Take => f.write_str("take"),
            MoveKind::Leave => f.write_str("leave"),
            MoveKind::Pick { slot } => write!(f, "pick slot {slot}"),
            MoveKind::Pass => f.write_str("pass"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_move_says_what_it_is() {
        for pit in 1..=16 {
            let sow = MoveKind::Sow {
                pit,
                other_way: false,
            };
            assert_eq!(SowingMove::pit(pit).kind(), sow);
            assert_eq!(SowingMove::pit(pit).sown_pit(), Some(pit));
            assert!(SowingMove::other_way(pit).is_other_way());
            assert_eq!(SowingMove::other_way(pit).sown_pit(), Some(pit));
        }
        assert_eq!(SowingMove::TAKE.kind(), MoveKind::Take);
        assert_eq!(SowingMove::LEAVE.kind(), MoveKind::Leave);
        assert_eq!(SowingMove::LEAVE.sown_pit(), None);
        assert_eq!(SowingMove::PASS.kind(), MoveKind::Pass);
        assert_eq!(SowingMove::PASS.sown_pit(), None);
        for slot in 0..32 {
            assert_eq!(SowingMove::pick(slot).kind(), MoveKind::Pick { slot });
            assert_eq!(SowingMove::pick(slot).sown_pit(), None);
        }
        assert_eq!(
            format!("{:?}", SowingMove::other_way(3)),
            "pit 3 the other way"
        );
    }
}
