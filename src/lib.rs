//! Ludus: traditional board games played from rules files.
//!
//! The pipeline is a workspace of crates, each using only the ones before it:
//! `ludus-core` ([`diagnostics`], [`limits`], expressions in [`expr`], rules text in [`rules`],
//! what a game is in [`game`], [`svg`]) → the families `ludus-sowing` ([`sowing`]) and
//! `ludus-tables` ([`tables`]), each compiling its rules into a game with a compact state →
//! `ludus-players` ([`players`], [`analysis`]) → `ludus-table` (the [`registry`], the one list
//! of families; the [`record`] format; the [`table`] where a game is played, through which every
//! front end plays) → `ludus-server` ([`server`]) → this crate: the engine protocol
//! ([`protocol`]), benchmarks ([`bench`]) and the command line ([`cli`]). The lower crates are
//! re-exported here under their module names, so `ludus::sowing::…` is the sowing family.

pub use ludus_core::{diagnostics, expr, game, limits, rules, svg};
pub use ludus_players as players;
pub use ludus_players::analysis;
#[cfg(feature = "server")]
pub use ludus_server as server;
pub use ludus_sowing as sowing;
pub use ludus_table::{record, registry, table, with_game};
pub use ludus_tables as tables;

pub mod bench;
pub mod cli;
pub mod protocol;
