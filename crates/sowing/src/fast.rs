//! The fast paths a game's moves may take, decided from every rule the game has. Each rule
//! says what it closes (`closes`, in its table's module, naming each of its fields without
//! `..`), and `FastPaths::of` names each field of [`Compiled`] the same way: a new rule does not
//! compile until its author says whether it closes a path. (Left out of a hand-kept condition,
//! a rule would be silently skipped by the paths that ignore it.)

use super::board::StoreRing;
use super::rules::CaptureTo;
use super::Compiled;

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
    /// `start_is_nonzero`, every move sows the rules' way round, and every pit holding stones
    /// may start one (no house keeps stones).
    pub(crate) plain_start: bool,
    /// Houses send the stones sown into them to their owners' stores at once (there are houses,
    /// and they keep no stones).
    pub(crate) empties_houses: bool,
    /// What a player holds for good is their store: no house keeps stones, no capture is sown
    /// on (the computer players' material).
    pub(crate) store_is_material: bool,
    /// Conditions lock or unlock pits after every move (`sowing.lock_when`, `unlock_when`).
    pub(crate) relocks: bool,
    /// The first move of a game or round is an opening (`sowing.opening`).
    pub(crate) opens: bool,
    /// Each drop is counted out on its own, with what may follow it: `sowing.drops`,
    /// `divert`, `drop_choice`, or a store sown round a circuit the mover chooses.
    pub(crate) counted: bool,
}

/// The fast paths one rule closes.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Closes {
    /// Sowing in one run (and every path after it).
    pub(crate) bulk: bool,
    /// The plain path.
    pub(crate) plain: bool,
    /// The paths that take every move the rules' way round.
    pub(crate) way: bool,
    /// The paths that let every pit holding stones start a move.
    pub(crate) start: bool,
}

impl Closes {
    fn or(self, other: Closes) -> Closes {
        Closes {
            bulk: self.bulk || other.bulk,
            plain: self.plain || other.plain,
            way: self.way || other.way,
            start: self.start || other.start,
        }
    }
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
            setup,
            evaluate: _,
            end: _,
            // The rules that may close a path.
            turn,
            sowing,
            capture,
            capture_before,
            house,
            match_rule,
            fast: _,
        } = game;
        let closed = [
            Some(sowing.closes()),
            Some(turn.closes()),
            capture.as_ref().map(|c| c.closes()),
            capture_before.as_ref().map(|c| c.closes()),
            house.as_ref().map(|h| h.closes()),
            match_rule.as_ref().map(|m| m.closes()),
        ]
        .into_iter()
        .flatten()
        .fold(Closes::default(), Closes::or);
        // An opening judges each pit by what it would do: never the plain test.
        let start_is_nonzero =
            sowing.start.is_nonzero(geo, setup.total as u8) && sowing.opening.is_none();
        FastPaths {
            bulk: !closed.bulk,
            plain: !closed.bulk && !closed.plain,
            start_is_nonzero,
            plain_start: start_is_nonzero && !closed.way && !closed.start,
            empties_houses: house.as_ref().is_some_and(|h| !h.keeps),
            relocks: sowing.locks_by_rule(),
            opens: sowing.opening.is_some(),
            counted: sowing.drops.is_some()
                || sowing.divert.is_some()
                || sowing.drop_choice.is_some()
                || sowing.circuit.store_ring == StoreRing::Chosen,
            store_is_material: !geo.kept_houses
                && capture.as_ref().is_none_or(|c| {
                    !matches!(c.to, CaptureTo::Sow | CaptureTo::Last | CaptureTo::Origin)
                }),
        }
    }
}
