//! The way round a move sows: the rules' `direction`, the other way round for the pits
//! `sowing.reverse` names, either way at the mover's choice for the pits `sowing.direction_choice`
//! names. A move sown the other way round is [`SowingMove::other_way`]; its text is the pit
//! number, with the direction (`3cw`, `3ccw`) where the pit may be sown either way.

use super::lifts::STORE_TEXT;
use super::moves::SowingMove;
use super::scope::Ctx;
use super::sow::{BOTH_WAYS, WAY_BITS};
use super::state::SowingState;
use super::SowingGame;
use ludus_core::game::MoveError;

/// A direction as a move's text says it.
const CLOCKWISE: &str = "cw";
const COUNTERCLOCKWISE: &str = "ccw";
/// Before a pit number: the pit of that number across the board (a pit won in a match whose
/// rounds change owners), `o3`.
const ACROSS: &str = "o";

/// Appends the legal moves sown the other way round (`legal` bits `WAY_BITS` and up). Out of line:
/// the listing of the rules' way stays a leaf.
#[cold]
#[inline(never)]
pub(crate) fn other_way_moves(legal: u64, out: &mut Vec<SowingMove>) {
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
        let Some(pit) = mv.sown_pit() else {
            return self.lift_text(STORE_TEXT.to_string(), mv);
        };
        let both = BOTH_WAYS << (pit - 1);
        let chosen = state.legal & both == both
            || self.sowing.direction_choice.as_ref().is_some_and(|c| {
                let mover = usize::from(state.to_move);
                let mut ctx = Ctx::new(&state.board, &self.geo, mover, state.ply);
                state.memory.show(&mut ctx);
                c.test(&mut ctx, self.geo.slot_from(mover, usize::from(pit)))
            });
        let name = self.pit_name(pit);
        if !chosen {
            return self.lift_text(name, mv);
        }
        let way = if self.clockwise(mv) {
            CLOCKWISE
        } else {
            COUNTERCLOCKWISE
        };
        self.lift_text(format!("{name}{way}"), mv)
    }

    /// Pit `pit` of the mover's numbering counted on along the board: `3`, or `o3` for the
    /// pit numbered 3 across the board.
    pub(crate) fn pit_name(&self, pit: u8) -> String {
        let n = self.geo.n as u8;
        if pit > n {
            format!("{ACROSS}{}", pit - n)
        } else {
            pit.to_string()
        }
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
        let (across, number) = match lower.strip_prefix(ACROSS) {
            Some(rest) if self.geo.moves_across() => (true, rest),
            _ => (false, lower.as_str()),
        };
        let digits = number
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(number.len());
        let clockwise = match number[digits..].trim() {
            "" => None,
            CLOCKWISE => Some(true),
            COUNTERCLOCKWISE => Some(false),
            _ => return Err(self.unreadable(text)),
        };
        let pit: usize = number[..digits]
            .parse()
            .map_err(|_| self.unreadable(text))?;
        if !(1..=n).contains(&pit) {
            return Err(MoveError::illegal(
                text,
                format!("pits are numbered 1 to {n}"),
            ));
        }
        let pit = if across { pit + n } else { pit };
        let name = self.pit_name(pit as u8);
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
                    format!("pit {name} may be sown either way: `{name}{CLOCKWISE}` or `{name}{COUNTERCLOCKWISE}`"),
                ))
            }
            (None, _) => {}
        }
        if let Some(i) = (0..2).find(|&i| legal[i]) {
            return Err(MoveError::illegal(
                text,
                format!("pit {name} sows only {} now", self.direction_word(ways[i])),
            ));
        }
        let mover = usize::from(state.to_move);
        let slot = self.geo.slot_from(mover, pit);
        Err(MoveError::illegal(
            text,
            if state.board.is_closed(slot) {
                format!("pit {name} is out of play this round")
            } else if self.geo.owner_of(&state.board, slot) != mover {
                format!("pit {name} is not yours this round")
            } else if state.board.count[slot] == 0 {
                format!("pit {name} is empty")
            } else {
                let mut moves = Vec::new();
                ludus_core::game::Game::legal_moves(self, state, &mut moves);
                let legal: Vec<String> = moves.iter().map(|&mv| self.pit_text(state, mv)).collect();
                format!(
                    "pit {name} may not be played now (legal: {})",
                    legal.join(", ")
                )
            },
        ))
    }

    fn unreadable(&self, text: &str) -> MoveError {
        let n = self.geo.n;
        let decision = matches!(text.trim().to_ascii_lowercase().as_str(), "take" | "leave");
        let mut way = if self.sowing.directed {
            format!(", with `{CLOCKWISE}` or `{COUNTERCLOCKWISE}` where it may be sown either way")
        } else {
            String::new()
        };
        if self.geo.moves_across() {
            way += &format!(", `{ACROSS}1` to `{ACROSS}{n}` for pits across the board");
        }
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
