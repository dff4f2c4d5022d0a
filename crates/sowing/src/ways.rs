//! The way round a move sows: the rules' `direction`, the other way round for the pits
//! `sowing.reverse` names, either way at the mover's choice for the pits `sowing.direction_choice`
//! names. A move sown the other way round is [`SowingMove::other_way`]; its text is the pit
//! number, with the direction (`3cw`, `3ccw`) where the pit may be sown either way.

use super::moves::SowingMove;
use super::scope::Ctx;
use super::sow::WAY_BITS;
use super::state::SowingState;
use super::SowingGame;
use ludus_core::game::MoveError;

/// A direction as a move's text says it.
const CLOCKWISE: &str = "cw";
const COUNTERCLOCKWISE: &str = "ccw";

/// Appends the legal moves sown the other way round (`legal` bits 16 and up). Out of line:
/// the listing of the rules' way stays a leaf.
#[cold]
#[inline(never)]
pub(crate) fn other_way_moves(legal: u32, out: &mut Vec<SowingMove>) {
    let mut bits = legal >> WAY_BITS;
    while bits != 0 {
        let k = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        out.push(SowingMove::other_way(k + 1));
    }
}

impl SowingGame {
    /// Whether move `mv` (a pit) sows clockwise.
    pub(crate) fn clockwise(&self, mv: SowingMove) -> bool {
        self.sowing.circuit.clockwise != mv.is_other_way()
    }

    /// A pit move's text: the pit number, and its direction where the rules let the mover
    /// choose it (`sowing.direction_choice`), even when only one way is legal now, so that a
    /// move is written the same in every position.
    pub(crate) fn pit_text(&self, state: &SowingState, mv: SowingMove) -> String {
        let pit = mv.sown_pit().unwrap_or_default();
        let both = 0x1_0001u32 << (pit - 1);
        let chosen = state.legal & both == both
            || self.sowing.direction_choice.as_ref().is_some_and(|c| {
                let mover = usize::from(state.to_move);
                let mut ctx = Ctx::new(&state.board, &self.geo, mover, state.ply);
                c.test(&mut ctx, self.geo.slot(mover, usize::from(pit)))
            });
        if !chosen {
            return pit.to_string();
        }
        let way = if self.clockwise(mv) {
            CLOCKWISE
        } else {
            COUNTERCLOCKWISE
        };
        format!("{pit}{way}")
    }

    /// The direction a pit move sows, in words.
    pub(crate) fn direction_word(&self, mv: SowingMove) -> &'static str {
        if self.clockwise(mv) {
            "clockwise"
        } else {
            "counterclockwise"
        }
    }

    /// Reads a pit move: a pit number, optionally followed by its direction (`cw`, `ccw`),
    /// which is needed where the pit may be sown either way.
    pub(crate) fn parse_pit(
        &self,
        state: &SowingState,
        text: &str,
    ) -> Result<SowingMove, MoveError> {
        let n = self.geo.n;
        let lower = text.trim().to_ascii_lowercase();
        let digits = lower
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(lower.len());
        let clockwise = match lower[digits..].trim() {
            "" => None,
            CLOCKWISE => Some(true),
            COUNTERCLOCKWISE => Some(false),
            _ => return Err(self.unreadable(text)),
        };
        let pit: usize = lower[..digits].parse().map_err(|_| self.unreadable(text))?;
        if !(1..=n).contains(&pit) {
            return Err(MoveError::illegal(
                text,
                format!("pits are numbered 1 to {n}"),
            ));
        }
        let ways = [SowingMove::pit(pit as u8), SowingMove::other_way(pit as u8)];
        let legal = ways.map(|mv| {
            let bit = (pit - 1) + usize::from(mv.is_other_way()) * WAY_BITS;
            state.legal >> bit & 1 == 1
        });
        let fits = |mv: SowingMove| clockwise.is_none_or(|cw| cw == self.clockwise(mv));
        let mut found = (0..2).filter(|&i| legal[i] && fits(ways[i]));
        match (found.next(), found.next()) {
            (Some(i), None) => return Ok(ways[i]),
            (Some(_), Some(_)) => {
                return Err(MoveError::illegal(
                    text,
                    format!("pit {pit} may be sown either way: `{pit}{CLOCKWISE}` or `{pit}{COUNTERCLOCKWISE}`"),
                ))
            }
            (None, _) => {}
        }
        if let Some(i) = (0..2).find(|&i| legal[i]) {
            return Err(MoveError::illegal(
                text,
                format!("pit {pit} sows only {} now", self.direction_word(ways[i])),
            ));
        }
        let mover = usize::from(state.to_move);
        let slot = self.geo.slot(mover, pit);
        Err(MoveError::illegal(
            text,
            if state.board.is_closed(slot) {
                format!("pit {pit} is out of play this round")
            } else if state.board.count[slot] == 0 {
                format!("pit {pit} is empty")
            } else {
                let mut moves = Vec::new();
                ludus_core::game::Game::legal_moves(self, state, &mut moves);
                let legal: Vec<String> = moves.iter().map(|&mv| self.pit_text(state, mv)).collect();
                format!(
                    "pit {pit} may not be played now (legal: {})",
                    legal.join(", ")
                )
            },
        ))
    }

    fn unreadable(&self, text: &str) -> MoveError {
        let n = self.geo.n;
        let decision = matches!(text.trim().to_ascii_lowercase().as_str(), "take" | "leave");
        let way = if self.sowing.directed {
            format!(", with `{CLOCKWISE}` or `{COUNTERCLOCKWISE}` where it may be sown either way")
        } else {
            String::new()
        };
        MoveError::unreadable(
            text,
            if decision {
                format!("no choice is awaited: a move is a pit number, 1 to {n}{way}")
            } else {
                format!("a move is a pit number, 1 to {n}{way}")
            },
        )
    }
}
