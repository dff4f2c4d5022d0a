//! The end of a game (a goal, score, repetition, no legal move, ply limit, agreement) and the
//! rounds of a match.

use super::board::{Board, STORE};
use super::rules::rounds::{Contested, FillCount, MatchRule, RoundStart};
use super::rules::{FillFrom, Leftover, NoMove, Owners, Partial};
use super::scope::{Ctx, NO_WINNER};
use super::sow::MoveEnd;
use super::state::{
    EndReason, Finish, History, Memory, Previous, Round, SowingState, HISTORY_CAPACITY,
};
use super::SowingGame;
use ludus_core::game::MatchStanding;
use ludus_core::limits::LIMITS;

impl SowingGame {
    /// After a move by `mover` (or at the start of a game): ends the game when the rules say
    /// so, otherwise computes the legal moves of the player to move.
    /// `stores_changed` false lets a condition that depends on the stores alone, and not on
    /// which player moved, keep its last answer (no: the game went on).
    pub(crate) fn settle(&self, st: &mut SowingState, mover: usize, stores_changed: bool) {
        if let Some(win) = &self.end.win {
            // The mover first: a move that meets both players' goals wins for the mover.
            for player in [mover, 1 - mover] {
                if win.test(&st.board, &self.geo, player, st.ply) {
                    self.finish(st, EndReason::Goal, false);
                    award(st, player);
                    return;
                }
            }
        }
        if let Some(score) = &self.end.score {
            if (stores_changed || !score.stores_only_symmetric())
                && score.test(&st.board, &self.geo, mover, st.ply)
            {
                self.finish(st, EndReason::Score, false);
                return;
            }
        }
        if let Some(stop) = &self.end.stop {
            if stop.test(&st.board, &self.geo, mover, st.ply) {
                self.finish(st, EndReason::Stop, true);
                return;
            }
        }
        if self.end.repetition {
            let key = self.position_key(st);
            if !st.history.insert(key) {
                self.finish(st, EndReason::Repetition, true);
                return;
            }
        }
        self.settle_turn(st);
    }

    /// The turn of the player to move: their legal moves, a pass, or the end of the game
    /// because nobody can move or the plies ran out.
    fn settle_turn(&self, st: &mut SowingState) {
        let to_move = usize::from(st.to_move);
        st.legal = match self.turn.give {
            None => self.legal_mask(&st.board, to_move, st.ply, st.opening, &st.memory),
            Some(_) => self.legal_or_gift(st),
        };
        let stuck = st.legal == 0 && !st.giving;
        if stuck && self.end.no_move == NoMove::Pass {
            // The player who cannot move passes, a move of its own, if the other can move on.
            let other = 1 - usize::from(st.to_move);
            st.passing = self.legal_mask(&st.board, other, st.ply, st.opening, &st.memory) != 0;
        }
        if stuck && !st.passing {
            self.finish(st, EndReason::NoMove, true);
            if self.end.no_move == NoMove::Loses {
                award(st, 1 - usize::from(st.to_move));
            }
        } else if st.ply
            >= self
                .end
                .max_plies
                .unwrap_or(LIMITS.plies_per_game)
                .min(LIMITS.plies_per_game)
        {
            self.finish(st, EndReason::PlyLimit, true);
        }
    }

    /// The pits and the player to move (the stores are the same for every position in the
    /// history). Exact for boards of up to 15 pits; a 128-bit mix beyond.
    fn position_key(&self, st: &SowingState) -> u128 {
        let c = &st.board.count;
        let word =
            |i: usize| u128::from_le_bytes(c[16 * i..16 * i + 16].try_into().expect("16 bytes"));
        let turn = u128::from(st.to_move) << 120;
        let pits = 2 * self.geo.n;
        if pits <= 15 {
            return word(0) | turn;
        }
        const K: u128 = 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835;
        (1..pits.div_ceil(16)).fold(word(0), |key, i| {
            (key ^ word(i).wrapping_mul(K).rotate_left(61)).wrapping_mul(K)
        }) ^ turn
    }

    /// Ends the game; `sweep` hands stones left on the board to their pits' owners when the
    /// rules say so.
    pub(crate) fn finish(&self, st: &mut SowingState, reason: EndReason, sweep: bool) {
        // Houses that keep stones keep them for their owners.
        st.board.empty_houses();
        let leftover = match reason {
            EndReason::Stop => self.end.stop_leftover,
            _ => self.end.leftover,
        };
        if sweep && leftover != Leftover::None {
            let mut shared = 0;
            let unscored = self.end.unscored.as_ref().map_or(0, |u| {
                let mut ctx = Ctx::new(&st.board, &self.geo, usize::from(st.to_move), st.ply);
                (0..2 * self.geo.n)
                    .filter(|&s| !st.board.is_closed(s) && u.test(&mut ctx, s))
                    .fold(0u64, |m, s| m | 1 << s)
            });
            for s in 0..2 * self.geo.n {
                // Counted for nobody (`end.unscored`): the stones stay where they are.
                if unscored >> s & 1 == 1 {
                    continue;
                }
                // A pit out of play was never in the round: its stones stay its owner's.
                let owner = match leftover {
                    _ if st.board.is_closed(s) => self.geo.owner_of(&st.board, s),
                    Leftover::Opponent => 1 - usize::from(st.to_move),
                    Leftover::Mover => usize::from(st.last_mover),
                    Leftover::Starter => usize::from(st.round.starter),
                    Leftover::Divided => {
                        shared += st.board.count[s];
                        st.board.count[s] = 0;
                        continue;
                    }
                    Leftover::Owners | Leftover::None => self.geo.owner_of(&st.board, s),
                };
                st.board.count[STORE + owner] += st.board.count[s];
                st.board.count[s] = 0;
            }
            if shared > 0 {
                let b = &mut st.board;
                b.count[STORE] += shared / 2;
                b.count[STORE + 1] += shared / 2;
                let fewer = match b.store(0).cmp(&b.store(1)) {
                    std::cmp::Ordering::Less => 0,
                    std::cmp::Ordering::Greater => 1,
                    std::cmp::Ordering::Equal => 1 - usize::from(st.last_mover),
                };
                b.count[STORE + fewer] += shared % 2;
            }
        }
        // A round whose winner keeps their side (`refill_by = "loser"`) is won by what each
        // player holds there, store and side.
        let scores = match self.match_rule.as_ref().is_some_and(|r| r.refill_loser) {
            true => self.held_apart(&st.board),
            false => [i32::from(st.board.store(0)), i32::from(st.board.store(1))],
        };
        st.legal = 0;
        (st.giving, st.swapping) = (false, false);
        st.result = Some(Finish {
            winner: winner(scores),
            scores,
            reason,
        });
    }

    /// A pass: the other player moves on, nothing else changes (the end conditions held
    /// after the last move already).
    pub(crate) fn pass_turn(&self, st: &mut SowingState) {
        st.ply += 1;
        st.opening = false;
        st.last_end = MoveEnd::Sown;
        st.last_held = 0;
        st.last_mover = st.to_move;
        st.to_move = 1 - st.to_move;
        st.passing = false;
        st.memory.previous = Previous::NONE;
        st.memory.extra = 0;
        self.settle_turn(st);
    }

    /// [`Self::held`], out of line: the end of a game of every other kind is scored by its
    /// stores alone.
    #[cold]
    #[inline(never)]
    fn held_apart(&self, b: &Board) -> [i32; 2] {
        self.held(b)
    }

    /// Stones each player holds: store, houses and the other pits they hold.
    pub(crate) fn held(&self, b: &Board) -> [i32; 2] {
        [0, 1].map(|p| {
            let pits = self.geo.owned_mask(b, p);
            i32::from(b.store(p))
                + (0..2 * self.geo.n)
                    .filter(|&s| pits >> s & 1 == 1)
                    .map(|s| i32::from(b.count[s]))
                    .sum::<i32>()
        })
    }

    /// A game starting on `board`: ends at once if the rules' end conditions already hold.
    pub(crate) fn fresh(
        &self,
        board: Board,
        first: usize,
        game: u32,
        points: [i32; 2],
        opening: bool,
        ply: u32,
    ) -> SowingState {
        let mut board = board;
        if self.sowing.locks {
            board.locked = self.geo.all_pits();
        }
        let mut st = self.unsettled(board, first, game, points, opening, ply);
        if self.placing(&st) {
            // The stones in hand are placed first; the sowing begins after the last.
            st.to_move = self.first_placer(&st);
        } else {
            self.begin_sowing(&mut st);
        }
        st
    }

    /// A game going on from a position set up by hand (the protocol's `set`): who made the
    /// last move is not known (after an extra turn it is the player to move), so the end
    /// conditions are checked from the next move on; a player to move without a legal move
    /// still ends the game at once.
    pub(crate) fn resumed(
        &self,
        board: Board,
        first: usize,
        (game, points): (u32, [i32; 2]),
        ply: u32,
        memory: Memory,
        (swapping, opening): (bool, bool),
    ) -> SowingState {
        let mut st = self.unsettled(board, first, game, points, opening, ply);
        st.memory = memory;
        st.swapping = swapping;
        if self.placing(&st) || st.swapping {
            return st;
        }
        if self.end.repetition {
            let key = self.position_key(&st);
            st.history.insert(key);
        }
        self.settle_turn(&mut st);
        st
    }

    /// A finished game as set up by hand: the board as it stands, the stores as the scores.
    pub(crate) fn finished(
        &self,
        board: Board,
        game: u32,
        points: [i32; 2],
        ply: u32,
        reason: EndReason,
    ) -> SowingState {
        let mut st = self.unsettled(board, 0, game, points, false, ply);
        self.finish(&mut st, reason, false);
        st
    }

    fn unsettled(
        &self,
        board: Board,
        first: usize,
        game: u32,
        points: [i32; 2],
        opening: bool,
        ply: u32,
    ) -> SowingState {
        SowingState {
            board,
            to_move: first as u8,
            ply,
            legal: 0,
            opening,
            result: None,
            history: History::with_capacity(if self.end.repetition {
                HISTORY_CAPACITY
            } else {
                0
            }),
            round: Round {
                game,
                points,
                starter: first as u8,
            },
            last_end: MoveEnd::Sown,
            last_held: 0,
            passing: false,
            swapping: false,
            giving: false,
            gave: false,
            memory: Memory::NONE,
            last_mover: 1 - first as u8,
            pending: None,
        }
    }

    pub(crate) fn standing(&self, st: &SowingState) -> Option<MatchStanding> {
        let rule = self.match_rule.as_ref()?;
        let guard = st.round.game >= LIMITS.games_per_match;
        let (points, over) = match (st.result, &rule.tally) {
            (Some(result), Some(tally)) => {
                // The round's points added to the match's; the target reached ends the match.
                let points = [0, 1].map(|p| {
                    let mut ctx = Ctx::new(&st.board, &self.geo, p, st.ply);
                    ctx.winner = result.winner.unwrap_or(NO_WINNER);
                    st.round.points[p].saturating_add(tally.points.eval(&ctx))
                });
                let reached = points.iter().any(|&p| p >= tally.target);
                (points, reached || guard)
            }
            (Some(_), None) => {
                let held = self.held(&st.board);
                // A match ends when a player cannot fill (or would not own) the pits the
                // rules ask for, or at the match guard.
                let short = match rule.owners {
                    Owners::Sides => {
                        // A player holding nothing plays no further round.
                        let need = match rule.arrange {
                            true => i64::from(rule.min_held),
                            false => i64::from(rule.refill) * i64::from(rule.min_pits),
                        };
                        let short = |p: usize| i64::from(held[p]) < need.max(1);
                        match (rule.refill_loser, st.result.map(|r| r.winner)) {
                            // The loser alone refills; the winner plays on with their side as
                            // it is, unless nothing on it can be sown; a drawn round has no
                            // loser to refill, and ends the match.
                            (true, Some(Some(w))) => {
                                let w = usize::from(w);
                                short(1 - w) || self.open_stones(&st.board, w) == 0
                            }
                            (true, Some(None)) => true,
                            _ => (0..2).any(short),
                        }
                    }
                    Owners::Filled => rule.short_of_pits(held, 2 * self.geo.n as u32),
                };
                (held, short || guard)
            }
            (None, _) => (st.round.points, false),
        };
        Some(MatchStanding {
            game: st.round.game,
            points,
            over,
            winner: if over {
                winner(points).map(usize::from)
            } else {
                None
            },
            target: rule.tally.as_ref().map(|t| t.target),
        })
    }

    /// The next round of a match, `first` to move: each player refills their pits from the
    /// stones they hold.
    pub(crate) fn next_round(&self, st: &SowingState, first: usize) -> Option<SowingState> {
        let rule = self.match_rule.as_ref()?;
        let standing = self.standing(st)?;
        if standing.over {
            return None;
        }
        let points = standing.points;
        st.result?;
        if rule.tally.is_some() {
            // A round played afresh: the game's setup, its forced opening included.
            let opening = self.setup.first_move.is_some();
            return Some(self.fresh(
                self.setup.board_for(first),
                first,
                st.round.game + 1,
                points,
                opening,
                0,
            ));
        }
        let board = match rule.owners {
            Owners::Sides if rule.arrange => arranged(points, first),
            Owners::Sides => {
                let mut board = self.refilled(rule, points);
                if let Some(winner) = st
                    .result
                    .and_then(|r| r.winner)
                    .filter(|_| rule.refill_loser)
                {
                    self.left_as_it_was(&mut board, &st.board, usize::from(winner));
                }
                board
            }
            Owners::Filled => self.filled(rule, points, first),
        };
        Some(self.fresh(board, first, st.round.game + 1, points, false, 0))
    }

    /// Whether `st` is a start the setup's scatter deals: a game's, or a round's played
    /// afresh, before its first move.
    pub(crate) fn deals_at(&self, st: &SowingState) -> bool {
        let afresh = self.match_rule.as_ref().is_some_and(|r| r.tally.is_some());
        st.ply == 0 && st.pending.is_none() && (st.round.game == 1 || afresh)
    }

    /// The match points a match starts with: none in a match of rounds played afresh for
    /// points, else the stones each player holds on `board`.
    pub(crate) fn first_points(&self, board: &Board) -> [i32; 2] {
        match self.match_rule.as_ref().and_then(|r| r.tally.as_ref()) {
            Some(_) => [0, 0],
            None => self.held(board),
        }
    }

    /// Each player refills their own pits from the stones they `held`.
    fn refilled(&self, rule: &MatchRule, held: [i32; 2]) -> Board {
        let n = self.geo.n;
        let refill = u32::from(rule.refill);
        // The pits each player may fill: all, or as many as the poorer puts stones into.
        let mut fills = [n; 2];
        if rule.fill_count == FillCount::Poorer {
            let poorer = held[0].min(held[1]).max(0) as u32;
            let pits = match rule.partial {
                Partial::Closed | Partial::Open | Partial::OpenAll => poorer.div_ceil(refill),
                Partial::Store | Partial::StoreOpen => poorer / refill,
            };
            fills = [pits.min(n as u32) as usize; 2];
        }
        let mut board = Board::empty();
        for (p, &h) in held.iter().enumerate() {
            let mut left = h as u32;
            for i in 0..n {
                let k = match rule.fill_from {
                    FillFrom::Right => n - i,
                    FillFrom::Left => i + 1,
                    FillFrom::BoardLeft if p == 0 => i + 1,
                    FillFrom::BoardLeft => n - i,
                    // Pit 1, n, 2, n - 1, … for player 0; mirrored for player 1.
                    FillFrom::Outside => {
                        let from_left = if i % 2 == 0 { i / 2 + 1 } else { n - i / 2 };
                        if p == 0 {
                            from_left
                        } else {
                            n + 1 - from_left
                        }
                    }
                };
                let s = self.geo.slot(p, k);
                if i >= fills[p] {
                    // Past the pits the poorer fills: the stones stay in the store.
                    if !matches!(rule.partial, Partial::StoreOpen | Partial::OpenAll) {
                        board.closed |= 1 << s;
                    }
                } else if left >= refill {
                    board.count[s] = rule.refill;
                    left -= refill;
                } else if rule.partial == Partial::Store {
                    // The stones short of a pit stay in hand, for the store.
                    board.closed |= 1 << s;
                } else if rule.partial == Partial::StoreOpen {
                    // In hand for the store; the pit stays in play, empty.
                } else {
                    board.count[s] = left as u8;
                    let open = match rule.partial {
                        Partial::OpenAll => true,
                        Partial::Open => left > 0,
                        _ => false,
                    };
                    if !open {
                        board.closed |= 1 << s;
                    }
                    left = 0;
                }
            }
            board.count[STORE + p] = left as u8;
        }
        board
    }

    /// The round's winner starts the next as the round left them (`refill_by = "loser"`):
    /// the stones on their side and in their store, their pits out of play still out.
    fn left_as_it_was(&self, board: &mut Board, left: &Board, winner: usize) {
        for k in 1..=self.geo.n {
            let s = self.geo.slot(winner, k);
            board.count[s] = left.count[s];
            board.closed = board.closed & !(1 << s) | left.closed & 1 << s;
        }
        board.count[STORE + winner] = left.count[STORE + winner];
    }

    /// Every pit filled, each player owning as many as the stones they `held` fill: the
    /// winner the run from their pit 1 along the board, the loser the rest.
    fn filled(&self, rule: &MatchRule, held: [i32; 2], first: usize) -> Board {
        let pits = 2 * self.geo.n;
        let owned = rule.pits_filled(held, pits as u32);
        // The player holding more (with equal pits, their run is their own side either way).
        let winner = usize::from(held[1] > held[0]);
        let mut board = match rule.round_start {
            RoundStart::Refill => Board::empty(),
            // As a new game is laid, its stones and houses; the owners are the round's.
            RoundStart::Setup => {
                let laid = self.setup.board_for(first);
                Board {
                    count: laid.count,
                    houses: laid.houses,
                    ..Board::empty()
                }
            }
        };
        for k in 1..=pits {
            let s = self.geo.slot_from(winner, k);
            if rule.round_start == RoundStart::Refill {
                board.count[s] = rule.refill;
            }
            let owner = if k as u32 <= owned[winner] {
                winner
            } else {
                1 - winner
            };
            if owner != usize::from(self.geo.owner[s]) {
                board.ceded |= 1 << s;
            }
        }
        let short = held.map(|h| h.rem_euclid(i32::from(rule.refill)));
        if rule.contested == Contested::LoserEmpty
            && short[winner] != 0
            && (owned[winner] as usize) < pits
        {
            // The loser's first pit, the one the winner filled in part, starts empty; the
            // stones short of full pits stay in the stores.
            let first = self.geo.slot_from(winner, owned[winner] as usize + 1);
            board.count[first] = 0;
            for (store, short) in board.count[STORE..STORE + 2].iter_mut().zip(short) {
                *store = short as u8;
            }
        }
        board
    }
}

/// A round the poorer player arranges (`[match] arrange`): they hold all their stones in hand,
/// the richer all theirs in store until the arrangement is copied; when both hold as many, the
/// player who does not start the round (`first`) arranges.
fn arranged(held: [i32; 2], first: usize) -> Board {
    let poorer = match held[0].cmp(&held[1]) {
        std::cmp::Ordering::Less => 0,
        std::cmp::Ordering::Greater => 1,
        std::cmp::Ordering::Equal => 1 - first,
    };
    let mut board = Board::empty();
    board.to_place[poorer] = held[poorer] as u8;
    board.count[STORE + 1 - poorer] = held[1 - poorer] as u8;
    board
}

/// The game just finished is won by `player`, whatever the stores say.
fn award(st: &mut SowingState, player: usize) {
    if let Some(result) = &mut st.result {
        result.winner = Some(player as u8);
    }
}

fn winner(scores: [i32; 2]) -> Option<u8> {
    match scores[0].cmp(&scores[1]) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    }
}
