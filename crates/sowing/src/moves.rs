//! A sowing move as a type: a pit sown the rules' way or the other way round, the mover's store
//! sown (`sowing.store_move`), a pass (where the rules make a player who cannot move pass), or,
//! while a choice within a move waits, the decision to take or to leave, or the pit picked
//! (`capture.pick`). Two bytes: the kind, and the stones the mover chose to lift (`sowing.lift`;
//! 0: all of them), so the legal moves of a position are still copied as a block (see
//! `legal_moves`).

use std::fmt;

/// The byte's bit for a pit sown the other way round (against `sowing.direction`).
const OTHER_WAY: u8 = 0x40;
/// The byte's bit for a pit picked while a pick waits (the slot in the low bits).
const PICK: u8 = 0x80;
/// The byte of the mover's store sown, past every pit.
const STORE: u8 = 0xfc;
/// The byte of a pass, past every pit.
const PASS: u8 = 0xfd;
/// The bytes of the two decisions, past every pit.
const TAKE: u8 = 0xfe;
const LEAVE: u8 = 0xff;

/// A move of a sowing game: what a player chooses.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct SowingMove(u16);

/// What a [`SowingMove`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Sow pit `pit` (1 to the pits a side, in the mover's numbering); `other_way`: against the
    /// rules' direction (`sowing.reverse`, `sowing.direction_choice`); `lift`: the stones the
    /// mover chose to lift (`sowing.lift = "chosen"`), 0 for all of them.
    Sow { pit: u8, other_way: bool, lift: u8 },
    /// Sow the mover's store (`sowing.store_move`): `lift` of its stones, 0 for all.
    Store { lift: u8 },
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
    pub const TAKE: SowingMove = SowingMove(TAKE as u16);
    /// The decision to leave it.
    pub const LEAVE: SowingMove = SowingMove(LEAVE as u16);
    /// A pass, a player's only move when they cannot sow and the rules make them pass.
    pub const PASS: SowingMove = SowingMove(PASS as u16);

    /// Picking the pit in `slot` (see [`MoveKind::Pick`]).
    pub fn pick(slot: u8) -> SowingMove {
        debug_assert!(usize::from(slot) < crate::board::STORE);
        SowingMove(u16::from(PICK | slot))
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
        SowingMove(u16::from(pit))
    }

    /// Sowing pit `pit` the other way round.
    pub fn other_way(pit: u8) -> SowingMove {
        debug_assert!((1..OTHER_WAY).contains(&pit));
        SowingMove(u16::from(pit | OTHER_WAY))
    }

    /// Sowing the mover's store: `lift` of its stones, 0 for all of them.
    pub fn store(lift: u8) -> SowingMove {
        SowingMove(u16::from(STORE) | u16::from(lift) << 8)
    }

    /// This pit move lifting `lift` stones (0: all of them); a decision is left as it is.
    pub fn lifting(self, lift: u8) -> SowingMove {
        match self.kind() {
            MoveKind::Sow { .. } | MoveKind::Store { .. } => {
                SowingMove(self.0 & 0xff | u16::from(lift) << 8)
            }
            _ => self,
        }
    }

    /// Appends the moves of a block of pit numbers (the rules' way round, as the legal-move
    /// listing packs them); the caller truncates to the pits that count.
    #[inline]
    pub(crate) fn extend_from_pits(out: &mut Vec<SowingMove>, pits: &[u16]) {
        out.extend(pits.iter().map(|&pit| SowingMove(pit)));
    }

    pub fn kind(self) -> MoveKind {
        let [b, lift] = self.0.to_le_bytes();
        match b {
            TAKE => MoveKind::Take,
            LEAVE => MoveKind::Leave,
            PASS => MoveKind::Pass,
            STORE => MoveKind::Store { lift },
            b if b & PICK != 0 => MoveKind::Pick { slot: b & !PICK },
            b => MoveKind::Sow {
                pit: b & !OTHER_WAY,
                other_way: b & OTHER_WAY != 0,
                lift,
            },
        }
    }

    /// The stones the mover chose to lift, 0 for all of them (or a decision).
    pub fn lift(self) -> u8 {
        match self.kind() {
            MoveKind::Sow { lift, .. } | MoveKind::Store { lift } => lift,
            _ => 0,
        }
    }

    /// The pit sown; `None` for a decision.
    pub fn sown_pit(self) -> Option<u8> {
        match self.kind() {
            MoveKind::Sow { pit, .. } => Some(pit),
            MoveKind::Store { .. }
            | MoveKind::Take
            | MoveKind::Leave
            | MoveKind::Pick { .. }
            | MoveKind::Pass => None,
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
                other_way,
                lift,
            } => {
                write!(f, "pit {pit}")?;
                if other_way {
                    f.write_str(" the other way")?;
                }
                match lift {
                    0 => Ok(()),
                    n => write!(f, ", {n} stones"),
                }
            }
            MoveKind::Store { lift: 0 } => f.write_str("the store"),
            MoveKind::Store { lift } => write!(f, "the store, {lift} stones"),
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
                lift: 0,
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
        // A store move and a chosen lift keep every other part of the move.
        assert_eq!(SowingMove::store(0).kind(), MoveKind::Store { lift: 0 });
        assert_eq!(SowingMove::store(200).lift(), 200);
        assert_eq!(SowingMove::store(7).sown_pit(), None);
        let five = SowingMove::other_way(3).lifting(5);
        assert_eq!(
            five.kind(),
            MoveKind::Sow {
                pit: 3,
                other_way: true,
                lift: 5
            }
        );
        assert_eq!(five.lifting(0), SowingMove::other_way(3));
        assert_eq!(SowingMove::PASS.lifting(4), SowingMove::PASS);
    }
}
