//! The fast paths a game's moves may take, decided in one place from every rule the game has.
//! `FastPaths::of` names each field of [`Compiled`] (no `..`): a new rule is a new field, and
//! the crate does not compile until its author says here whether the rule closes a path. (Left
//! out of a hand-kept condition, a rule would be silently skipped by the paths that ignore it.)

use super::rules::{CaptureChoice, CaptureTo, MustFeed, Relay};
use super::{CaptureRule, Compiled};

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct FastPaths {
    /// No relay, no take on drop, no captures sown: an open board is sown in one run.
    pub(crate) bulk: bool,
    /// `bulk`, and nothing else beyond a capture to the store: no first stone back in its pit,
    /// no way round but the rules', no houses, no choice (the common case, played without a
    /// check of what it leaves out).
    pub(crate) plain: bool,
    /// `start` is exactly "the pit holds stones" (tested without the table).
    pub(crate) start_is_nonzero: bool,
    /// `start_is_nonzero`, and every move sows the rules' way round.
    pub(crate) plain_start: bool,
}

impl FastPaths {
    pub(crate) fn of(game: &Compiled) -> FastPaths {
        let Compiled {
            // Read by every path, or settled before or after the sowing that the paths differ
            // in (the legal moves, the end of a move, the end of a game and of a match).
            name: _,
            title: _,
            source: _,
            players: _,
            geo,
            runs: _,
            other_runs: _,
            circuit: _,
            setup: _,
            total,
            first_move: _,
            ritual: _,
            skip_origin: _,
            again: _,
            evaluate: _,
            end: _,
            match_rule: _,
            // Only relays lap more than once, and a relay closes the bulk path.
            max_drops: _,
            relay_when: _,
            // Only with `take`, or with `house`, which close the paths.
            take_choice: _,
            take_to: _,
            house_choice: _,
            // What closes a path.
            start,
            directed,
            reverse: _,
            direction_choice: _,
            first_origin,
            relay,
            take,
            capture,
            house,
            // Judged after the capture, feeding needs the position at the move's start.
            must_feed,
            fast: _,
        } = game;
        let sown_on = |c: &CaptureRule| c.to != CaptureTo::Store;
        let bulk =
            take.is_none() && *relay == Relay::None && !capture.as_ref().is_some_and(sown_on);
        let start_is_nonzero = start.is_nonzero(geo, *total as u8);
        FastPaths {
            bulk,
            plain: bulk
                && !first_origin
                && !directed
                && house.is_none()
                && *must_feed != MustFeed::Kept
                && capture
                    .as_ref()
                    .is_none_or(|c| c.choice == CaptureChoice::None),
            start_is_nonzero,
            plain_start: start_is_nonzero && !directed,
        }
    }
}
