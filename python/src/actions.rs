//! The fixed action space of a game: each move is one integer, the same wherever the move is
//! legal, and every integer is below [`Space::size`] (what OpenSpiel's algorithms index by).
//!
//! - Sowing, `n` pits a side: pit k (1..=n, the mover's numbering) is action k - 1, the same pit
//!   sown the other way round n + k - 1, the decisions take and leave 2n and 2n + 1, a pass
//!   2n + 2. Where pits change owner, n is both sides' pits: a pit across the board, `o3`, is
//!   pit (pits a side) + 3. Where the rules let the mover pick pits after a capture
//!   (`capture.pick`), picking the pit in slot s (player p's pit k is slot
//!   p × (pits a side) + k - 1) is 2n + 3 + s. Where moves sow the store or lift a number of
//!   stones the mover chooses (`sowing.store_move`, `sowing.lift`), let P = 2n + 3 + the
//!   picks: the store lifting c stones (0: all) is P + c, and pit move m above lifting c is
//!   P + 256 (1 + m) + c.
//! - Tables: a move is its single-die steps. A step is a symbol 1..=S, S = (points + 2) × faces:
//!   (row - 1) × faces + pips, with row the point moved from (1..=points), points + 1 for the bar
//!   or points + 2 for the pool, and pips the distance moved (bearing off: the point's number).
//!   Where a step may move nothing (`n/n`: stacked checkers turned over, a strike), S grows by
//!   the points and such a step at point n is (points + 2) × faces + n. Where the rules
//!   remember what a step did or stack checkers, two moves may hold the same steps in another
//!   order: there the steps are kept in order, padded with 0s, as the digits s_1 ... s_K of a
//!   number in base S + 1, so there are (S + 1)^K actions.
//!   The steps, padded with 0s to the most a turn takes (K), sorted s_1 <= ... <= s_K, are
//!   ranked among such multisets, Σ C(s_i + i - 1, i), so there are C(S + K, K) actions. Their
//!   order is left out: legal moves are distinct positions, and the same steps reach the same
//!   position in whatever order they are played. Where the rules have a doubling cube, its
//!   decisions follow: C(S + K, K) + 0 `double`, + 1 `roll`, + 2 `take`, + 3 `drop`, + 4
//!   `beaver`.

use ludus::game::{CubeAction, Game};
use ludus::registry::{AnyGame, AnyMove};
use ludus::sowing::MoveKind;
use ludus::tables::{BAR, POOL};

/// The numbers of stones a move may lift (0: all), each an action of its own.
const LIFTS: u64 = 256;

#[derive(Clone, Copy, Debug)]
pub enum Space {
    /// `picks`: the pits a pick may name (both sides'), 0 in a game without picks; `lifts`:
    /// whether moves lift chosen numbers of stones or sow the store.
    Sowing { pits: u64, picks: u64, lifts: bool },
    /// `cube`: whether the cube's decisions follow the moves; `still`: whether a step may move
    /// nothing (`n/n`); `ordered`: whether a move's steps are taken in order.
    Tables {
        points: u64,
        faces: u64,
        steps: u64,
        cube: bool,
        still: bool,
        ordered: bool,
    },
}

impl Space {
    pub fn of(game: &AnyGame) -> Space {
        match game {
            // Where pits change owner a move may name a pit across the board (`o3`).
            AnyGame::Sowing(g) => Space::Sowing {
                pits: g.move_pits() as u64,
                picks: if g.picks_pits() {
                    2 * g.pits_per_side() as u64
                } else {
                    0
                },
                lifts: g.lifts(),
            },
            AnyGame::Tables(g) => {
                let (points, steps) = g.move_bounds();
                Space::Tables {
                    points: points as u64,
                    faces: g.dice().map_or(1, |d| u64::from(d.faces)),
                    steps: steps as u64,
                    cube: g.has_cube(),
                    still: g.has_still_steps(),
                    ordered: g.steps_in_order(),
                }
            }
        }
    }

    /// How many actions there are.
    pub fn size(self) -> u64 {
        match self {
            Space::Sowing { pits, picks, lifts } => {
                2 * pits + 3 + picks + if lifts { LIFTS * (1 + 2 * pits) } else { 0 }
            }
            Space::Tables { cube, .. } => {
                let cube = if cube {
                    CubeAction::ALL.len() as u64
                } else {
                    0
                };
                self.moves() + cube
            }
        }
    }

    /// How many actions a tables game's moves take (those of the cube follow).
    fn moves(self) -> u64 {
        match self {
            Space::Tables {
                steps,
                ordered: true,
                ..
            } => (self.symbols() + 1).pow(steps as u32),
            Space::Tables { steps, .. } => binomial(self.symbols() + steps, steps),
            Space::Sowing { .. } => 0,
        }
    }

    /// A tables game's step symbols (S); 0 in a sowing game.
    fn symbols(self) -> u64 {
        match self {
            Space::Tables {
                points,
                faces,
                still,
                ..
            } => (points + 2) * faces + if still { points } else { 0 },
            Space::Sowing { .. } => 0,
        }
    }

    /// The action of a move of this space's game.
    pub fn action(self, mv: &AnyMove) -> u64 {
        match (self, mv) {
            (Space::Sowing { pits, picks, .. }, AnyMove::Sowing(m)) => match m.kind() {
                MoveKind::Take => 2 * pits,
                MoveKind::Leave => 2 * pits + 1,
                MoveKind::Pass => 2 * pits + 2,
                MoveKind::Pick { slot } => 2 * pits + 3 + u64::from(slot),
                MoveKind::Sow {
                    pit,
                    other_way,
                    lift: 0,
                } => u64::from(other_way) * pits + u64::from(pit) - 1,
                // Past the picks: the store with each number lifted (0: all), then each pit
                // move with each number.
                MoveKind::Store { lift } => 2 * pits + 3 + picks + u64::from(lift),
                MoveKind::Sow {
                    pit,
                    other_way,
                    lift,
                } => {
                    let pit_move = u64::from(other_way) * pits + u64::from(pit) - 1;
                    2 * pits + 3 + picks + LIFTS * (1 + pit_move) + u64::from(lift)
                }
            },
            (Space::Tables { .. }, AnyMove::Tables(m)) if m.cube_action().is_some() => {
                let moves = self.moves();
                let index = CubeAction::ALL
                    .iter()
                    .position(|&a| m.cube_action() == Some(a));
                moves + index.unwrap_or(0) as u64
            }
            (
                Space::Tables {
                    points,
                    faces,
                    steps,
                    ordered,
                    ..
                },
                AnyMove::Tables(m),
            ) => {
                let mut symbols: Vec<u64> = m
                    .steps()
                    .iter()
                    .map(|&[from, to]| {
                        if from == to {
                            // A step moving nothing: after the moving ones.
                            return (points + 2) * faces + u64::from(from);
                        }
                        let (row, start) = match usize::from(from) {
                            BAR => (points + 1, points + 1),
                            POOL => (points + 2, points + 1),
                            n => (n as u64, n as u64),
                        };
                        (row - 1) * faces + (start - u64::from(to))
                    })
                    .collect();
                symbols.resize(steps as usize, 0);
                if ordered {
                    // The steps in order, digits of a number in base S + 1.
                    let base = self.symbols() + 1;
                    return symbols.iter().fold(0, |n, &s| n * base + s);
                }
                symbols.sort_unstable();
                let rank = symbols.iter().zip(1..);
                rank.map(|(&s, i)| binomial(s + i - 1, i)).sum()
            }
            _ => unreachable!("a move of another family"),
        }
    }
}

/// C(n, k), exact (every partial product is itself a binomial coefficient).
fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u128, |c, i| c * u128::from(n - i) / u128::from(i + 1)) as u64
}
