//! Ludus: traditional board games played from rules files.
//!
//! The pipeline, one module a stage, each using only the ones before it:
//! [`limits`] and [`diagnostics`] (caps and located reports, used everywhere) →
//! rules text ([`rules`]: sources, TOML parsed once, the `[game]` table) → expressions
//! ([`expr`], parsed and resolved to slots once) → what a game is ([`game`]: the rules-only
//! trait, chance as data) → the families ([`sowing`], [`tables`]), each compiling its rules into a
//! game with a compact state → the [`registry`], the one list of families → players
//! ([`players`]) → the table where a game is played ([`table`]: seats, dice, ritual, undo, the
//! next game, the record; every front end plays through it) → the engine protocol ([`protocol`]), benchmarks ([`bench`]), the command line
//! ([`cli`]) and the web server ([`server`]).

pub mod analysis;
pub mod bench;
pub mod cli;
pub mod diagnostics;
pub mod expr;
pub mod game;
pub mod limits;
pub mod players;
pub mod protocol;
pub mod record;
pub mod registry;
pub mod rules;
#[cfg(feature = "server")]
pub mod server;
pub mod sowing;
pub mod svg;
pub mod table;
pub mod tables;
