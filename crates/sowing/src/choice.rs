//! Choices within a move: a pit `sowing.take` matched that a player may take or leave
//! (`take_choice`), a relay lift the mover may make or stop at (`relay_choice`), a house the
//! mover may make or decline (`house.choice`), a capture the mover may make or decline
//! (`capture.choice`), and the further pits the mover picks after a capture (`capture.pick`). Each choice is
//! a step of play of its own: the move pauses (the position keeps a [`Pending`]), the phase
//! names the decider, and the legal moves are the two decisions, [`SowingMove::TAKE`] and
//! [`SowingMove::LEAVE`], or the pits that may be picked ([`SowingMove::pick`]). So
//! search, the protocol and the terminal ask the decider as they ask any player to move.

use super::board::{Board, NO_SLOT, STORE};
use super::moves::{MoveKind, SowingMove};
use super::rules::TakeChoice;
use super::sow::{Before, Paused, Question};
use super::state::SowingState;
use super::SowingGame;
use ludus_core::game::MoveError;
use serde_json::{json, Value};

/// A move paused at a choice.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Pending {
    pub(crate) paused: Box<Paused>,
    /// Who decides: the pit's owner or the mover, as the rules say.
    pub(crate) decider: u8,
    pub(crate) before: Before,
}

/// The text of a move that is not a pit: `take`, `leave` or `pass`.
pub(crate) fn decision_text(mv: SowingMove) -> Option<&'static str> {
    match mv.kind() {
        MoveKind::Take => Some("take"),
        MoveKind::Leave => Some("leave"),
        MoveKind::Pass => Some("pass"),
        MoveKind::Sow { .. } | MoveKind::Store { .. } | MoveKind::Pick { .. } => None,
    }
}

/// Before a pit number: a pit on the other side of the board from the picker, `o3`.
const ACROSS: &str = "o";

impl SowingGame {
    /// Pauses the move at its question.
    #[cold]
    pub(crate) fn pause(&self, st: &mut SowingState, paused: Box<Paused>, before: Before) {
        st.legal = 0;
        let decider = self.decider(&st.board, &paused);
        st.pending = Some(Pending {
            paused,
            decider,
            before,
        });
    }

    fn decider(&self, b: &Board, paused: &Paused) -> u8 {
        match paused.question {
            Question::Take { slot } if self.sowing.take_choice == TakeChoice::Owner => {
                self.geo.owner_of(b, usize::from(slot)) as u8
            }
            _ => paused.sowing.mover as u8,
        }
    }

    /// Plays a decision (`take`, `leave` or a pit picked): the paused move goes on to its end
    /// or to its next question. Without a paused move, it is a decision between moves: a gift
    /// (`[turn] give`), a stone placed from hand, the choice of sides (`[setup] swap`).
    #[inline(never)]
    pub(crate) fn decide(&self, st: &mut SowingState, answer: SowingMove) {
        let Some(mut pending) = st.pending.take() else {
            // Between moves: a gift, the choice of sides, a stone placed from hand.
            match answer.kind() {
                MoveKind::Pick { slot } if st.giving => self.give_stone(st, slot),
                MoveKind::Pick { slot } => self.place_from_hand(st, slot),
                MoveKind::Leave if self.placing(st) => self.stop_arranging(st),
                _ => self.decide_swap(st, answer == SowingMove::TAKE),
            }
            return;
        };
        match self.resume(&mut st.board, &mut pending.paused, answer) {
            Some(report) => {
                let mover = pending.paused.sowing.mover;
                self.end_move(st, mover, pending.before, report);
            }
            None => {
                pending.decider = self.decider(&st.board, &pending.paused);
                st.pending = Some(pending);
            }
        }
    }

    /// The word a decision is written as: `take` or `leave`, `swap` or `keep` for the choice
    /// of sides, `done` for the end of a round's arrangement (`[match] arranged_stop`).
    pub(crate) fn decision_word(
        &self,
        st: &SowingState,
        answer: SowingMove,
    ) -> Option<&'static str> {
        match answer.kind() {
            MoveKind::Take | MoveKind::Leave if st.swapping => {
                Some(crate::arrange::swap_text(answer))
            }
            MoveKind::Leave if self.placing(st) => Some("done"),
            _ => self.way_word(st, answer).or_else(|| decision_text(answer)),
        }
    }

    /// While a lap's way waits (`lap_way = "chosen"`), a decision's word: `take` sows the
    /// other way round, `leave` the rules' way, each written as the way it goes (`cw`, `ccw`).
    fn way_word(&self, st: &SowingState, answer: SowingMove) -> Option<&'static str> {
        let pending = st.pending.as_ref()?;
        if !matches!(pending.paused.question, Question::Way { .. }) {
            return None;
        }
        let other_way = match answer.kind() {
            MoveKind::Take => true,
            MoveKind::Leave => false,
            _ => return None,
        };
        Some(match self.sowing.circuit.clockwise != other_way {
            true => "cw",
            false => "ccw",
        })
    }

    /// The legal moves while a choice waits: `take` and `leave`, or the pits to pick.
    pub(crate) fn decisions(&self, st: &SowingState, out: &mut Vec<SowingMove>) {
        let Some(pending) = &st.pending else {
            return;
        };
        match pending.paused.question {
            Question::Pick { .. } | Question::Place => {
                let placed = pending.paused.question == Question::Place;
                let pits = self.pick_pits(&st.board, &pending.paused.sowing, placed);
                out.extend(SowingMove::picks(pits));
            }
            _ => out.extend_from_slice(&[SowingMove::TAKE, SowingMove::LEAVE]),
        }
    }

    /// Whether a pick waits (`capture.pick`).
    pub(crate) fn picking(&self, st: &SowingState) -> bool {
        st.pending
            .as_ref()
            .is_some_and(|p| matches!(p.paused.question, Question::Pick { .. } | Question::Place))
    }

    /// Whether a lap's way round waits (`lap_way = "chosen"`).
    pub(crate) fn choosing_way(&self, st: &SowingState) -> bool {
        st.pending
            .as_ref()
            .is_some_and(|p| matches!(p.paused.question, Question::Way { .. }))
    }

    /// A picked pit's text as the picker sees the board: `3` on their own side, `o3` across.
    pub(crate) fn pick_text(&self, st: &SowingState, slot: u8) -> String {
        let picker = st.pending.as_ref().map_or(st.to_move, |p| p.decider);
        let slot = usize::from(slot);
        let k = self.geo.number[slot];
        match self.geo.owner[slot] == picker {
            true => k.to_string(),
            false => format!("{ACROSS}{k}"),
        }
    }

    /// The pick among `picks` that `text` names (`3`, `o3`), or the names of them all.
    pub(crate) fn pick_named(
        &self,
        st: &SowingState,
        picks: &[SowingMove],
        text: &str,
    ) -> Result<SowingMove, String> {
        let lower = text.trim().to_ascii_lowercase();
        let names: Vec<String> = picks.iter().map(|&mv| self.decision_name(st, mv)).collect();
        match names.iter().position(|n| *n == lower) {
            Some(i) => Ok(picks[i]),
            None => Err(names.join(", ")),
        }
    }

    /// Reads a decision while a choice waits.
    pub(crate) fn parse_decision(
        &self,
        st: &SowingState,
        text: &str,
    ) -> Result<SowingMove, MoveError> {
        let lower = text.trim().to_ascii_lowercase();
        let mut moves = Vec::new();
        self.decisions(st, &mut moves);
        if let Some(mv) = moves
            .iter()
            .find(|&&mv| self.decision_name(st, mv) == lower)
        {
            return Ok(*mv);
        }
        let options: Vec<String> = moves.iter().map(|&mv| self.decision_name(st, mv)).collect();
        let what = match options.len() {
            2 if options[0] == "take" => "a decision is awaited, `take` or `leave`".to_string(),
            2 if options[0].ends_with("cw") => {
                format!(
                    "a way round is awaited, `{}` or `{}`",
                    options[0], options[1]
                )
            }
            _ => "a pit to pick is awaited".to_string(),
        };
        Err(MoveError::unreadable(
            text,
            format!("{what}: {}", self.question_text(st)),
        ))
    }

    /// A decision's text.
    fn decision_name(&self, st: &SowingState, mv: SowingMove) -> String {
        match mv.kind() {
            MoveKind::Pick { slot } => self.pick_text(st, slot),
            _ => self
                .way_word(st, mv)
                .or_else(|| decision_text(mv))
                .unwrap_or_default()
                .to_string(),
        }
    }

    /// The pits at stake in the pending question, as slots.
    fn stake(&self, st: &SowingState, pending: &Pending) -> u64 {
        match pending.paused.question {
            Question::Take { slot }
            | Question::Relay { slot }
            | Question::Way { slot, .. }
            | Question::Drop { slot }
            | Question::Circuit { slot } => 1 << slot,
            Question::House { slot, also } => match also {
                NO_SLOT => 1 << slot,
                also => 1 << slot | 1 << also,
            },
            Question::Capture { taken, .. } => taken,
            Question::Pick { .. } => self.pick_pits(&st.board, &pending.paused.sowing, false),
            Question::Place => self.pick_pits(&st.board, &pending.paused.sowing, true),
        }
    }

    /// The pending question in words, e.g. "take North's pit 5 (4 stones) to North's store,
    /// or leave it".
    pub(crate) fn question_text(&self, st: &SowingState) -> String {
        let Some(pending) = &st.pending else {
            return String::new();
        };
        let names = &self.players;
        let (pits, stones) = self.stake_list(st, pending);
        let pits: Vec<String> = pits
            .iter()
            .map(|&(side, k)| format!("{}'s pit {k}", names[side]))
            .collect();
        let pits = pits.join(" and ");
        let count = |n: u32| format!("{n} stone{}", if n == 1 { "" } else { "s" });
        let in_hand = count(u32::from(pending.paused.sowing.hand));
        let stones = count(stones);
        match pending.paused.question {
            Question::Take { slot } => {
                let owner = &names[self.geo.owner_of(&st.board, usize::from(slot))];
                format!("take {pits} ({stones}) to {owner}'s store, or leave it")
            }
            Question::House { .. } => {
                format!("make {pits} ({stones}) a house, or leave it")
            }
            Question::Capture { .. } => format!("capture {pits} ({stones}), or leave it"),
            Question::Relay { .. } => {
                format!("lift {pits} ({stones}) and sow on (`take`), or stop here (`leave`)")
            }
            Question::Circuit { .. } => format!(
                "sow on from {pits} into the opponent's pits or round your own again, {in_hand} in hand"
            ),
            Question::Drop { .. } => {
                format!("drop another stone into {pits} ({stones}) or sow on, {in_hand} in hand")
            }
            Question::Way { relay, .. } => {
                let sown = match relay {
                    true => format!("{pits} ({stones})"),
                    false => {
                        let hand = pending.paused.sowing.hand;
                        let s = if hand == 1 { "" } else { "s" };
                        format!("the {hand} captured stone{s} from {pits}")
                    }
                };
                format!("sow {sown} clockwise (`cw`) or counterclockwise (`ccw`)")
            }
            Question::Pick { .. } | Question::Place => {
                let mut moves = Vec::new();
                self.decisions(st, &mut moves);
                let options: Vec<String> = moves
                    .iter()
                    .map(|&mv| {
                        let MoveKind::Pick { slot } = mv.kind() else {
                            unreachable!("a pick's answers are pits")
                        };
                        let count = st.board.count[usize::from(slot)];
                        format!("`{}` ({count})", self.pick_text(st, slot))
                    })
                    .collect();
                match pending.paused.question {
                    Question::Pick { left } => {
                        let more = match left {
                            1 => String::new(),
                            l => format!(", {} more to pick after it", l - 1),
                        };
                        format!("pick a pit to take: {}{more}", options.join(", "))
                    }
                    _ => {
                        let hand = pending.paused.sowing.hand;
                        format!(
                            "pick the pit the {hand} captured stone{} go into: {}",
                            if hand == 1 { "" } else { "s" },
                            options.join(", ")
                        )
                    }
                }
            }
        }
    }

    /// The pits at stake as (side, pit number), and the stones in them.
    fn stake_list(&self, st: &SowingState, pending: &Pending) -> (Vec<(usize, usize)>, u32) {
        let stake = self.stake(st, pending);
        let slots = (0..STORE).filter(|&s| stake >> s & 1 == 1);
        let pits = slots
            .clone()
            .map(|s| {
                (
                    usize::from(self.geo.owner[s]),
                    usize::from(self.geo.number[s]),
                )
            })
            .collect();
        let stones = slots.map(|s| u32::from(st.board.count[s])).sum();
        (pits, stones)
    }

    /// The STATE's `decision` object of a pending choice.
    pub(crate) fn decision_json(&self, st: &SowingState) -> Option<Value> {
        let pending = st.pending.as_ref()?;
        let sowing = &pending.paused.sowing;
        let (pits, stones) = self.stake_list(st, pending);
        let what = match pending.paused.question {
            Question::Take { .. } => "take",
            Question::House { .. } => "house",
            Question::Capture { .. } => "capture",
            Question::Relay { .. } => "relay",
            Question::Drop { .. } => "drop",
            Question::Circuit { .. } => "circuit",
            Question::Way { .. } => "way",
            Question::Pick { .. } => "pick",
            Question::Place => "place",
        };
        let pits: Vec<Value> = pits.iter().map(|&(side, k)| json!([side, k])).collect();
        let mut moves = Vec::new();
        self.decisions(st, &mut moves);
        let options: Vec<String> = moves.iter().map(|&mv| self.decision_name(st, mv)).collect();
        let mut decision = json!({
            "question": what,
            "mover": sowing.mover,
            "pit": self.geo.number[sowing.origin],
            "pits": pits,
            "stones": stones,
            "in_hand": sowing.hand,
            "options": options,
        });
        if let Question::Pick { left } = pending.paused.question {
            decision["left"] = json!(left);
        }
        Some(decision)
    }
}
