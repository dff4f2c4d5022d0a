//! The observation tensor: the position as numbers in 0..=1, the same layout for every position
//! of a game, from no player's side in particular (player 0's pits or checkers first).
//!
//! - Sowing, `n` pits a side: player 0's pits 1..=n, player 1's pits 1..=n, the two stores,
//!   each as a share of the stones in the game; where stones are placed from hand before the
//!   sowing, the stones each player still holds, the same way; where the rules' rounds change the owners of
//!   pits, the owner (0 or 1) of each of those pits in the same order; then the player to move,
//!   one-hot (2 values, both 0 once the game is over).
//! - Tables, `points` points: for player 0 then player 1, the checkers on its points 1..=points
//!   (its own numbering), on the bar, borne off and in the pool, each as a share of a side's
//!   checkers; then the dice to play (3 values, each die / faces, 0 when none); then the dice
//!   played so far of a turn played a step at a time (5 values, the same way); where the rules
//!   have the doubling cube, its value (log2 of it / 10), its owner one-hot (2 values, both 0
//!   in the middle) and, in a match, the points each player still needs (a share of the
//!   target); then the player to move, one-hot.

use ludus::game::Game;
use ludus::registry::{AnyGame, AnyState};
use ludus::tables::{BAR, OFF, POOL};

/// The tensor of `state`, a position of `game`.
pub fn observation(game: &AnyGame, state: &AnyState) -> Vec<f32> {
    let mut out = Vec::new();
    match (game, state) {
        (AnyGame::Sowing(g), AnyState::Sowing(s)) => {
            let total = g.total_stones().max(1) as f32;
            for p in 0..2 {
                let pits = (1..=g.pits_per_side()).map(|k| f32::from(s.pit(g, p, k)));
                out.extend(pits.map(|c| c / total));
            }
            out.extend((0..2).map(|p| f32::from(s.store(p)) / total));
            if g.places_from_hand() {
                out.extend((0..2).map(|p| f32::from(s.to_place(p)) / total));
            }
            if g.pits_change_owner() {
                // Who owns each pit this round, in the order of the counts.
                for p in 0..2 {
                    let owner = |k| if s.is_ceded(g, p, k) { 1 - p } else { p };
                    out.extend((1..=g.pits_per_side()).map(|k| owner(k) as f32));
                }
            }
        }
        (AnyGame::Tables(g), AnyState::Tables(s)) => {
            let (points, _) = g.move_bounds();
            let per_side = (g.pieces(s) / 2).max(1) as f32;
            for side in &s.position().sides {
                let places = (1..=points).chain([BAR, OFF, POOL]);
                out.extend(places.map(|n| f32::from(side[n]) / per_side));
            }
            let faces = g.dice().map_or(1.0, |d| f32::from(d.faces));
            let dice = s.dice().unwrap_or(&[]);
            out.extend((0..3).map(|i| dice.get(i).map_or(0.0, |&d| f32::from(d) / faces)));
            let played = s.played().dice();
            let most = ludus::tables::MAX_STEPS - 1;
            out.extend((0..most).map(|i| played.get(i).map_or(0.0, |&d| f32::from(d) / faces)));
            if let Some(cube) = game.cube(state) {
                out.push((cube.value.max(1) as f32).log2() / 10.0);
                out.extend((0..2).map(|p| f32::from(u8::from(cube.owner == Some(p)))));
                if let Some(away) = cube.away {
                    let target = game
                        .match_standing(state)
                        .and_then(|m| m.target)
                        .unwrap_or(1);
                    let share = |a: i32| a.clamp(0, target) as f32 / target.max(1) as f32;
                    out.extend(away.map(share));
                }
            }
        }
        _ => unreachable!("a state of another family"),
    }
    let to_move = game.phase(state).to_move();
    out.extend((0..2).map(|p| f32::from(u8::from(to_move == Some(p)))));
    out
}
