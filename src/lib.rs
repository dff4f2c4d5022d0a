//! Ludus: traditional board games played from rules files.
//!
//! The pipeline, one module a stage:
//! rules text ([`rules`], with located [`diagnostics`]) → expressions ([`expr`], parsed and
//! resolved to slots once) → compiled games ([`sowing`], [`tables`]) behind one [`game::Game`]
//! trait → players ([`player`]), the engine protocol ([`protocol`]), benchmarks ([`bench`]) and
//! the command line ([`cli`]).

pub mod bench;
pub mod cli;
pub mod diagnostics;
pub mod expr;
pub mod game;
pub mod player;
pub mod protocol;
pub mod rules;
pub mod sowing;
pub mod tables;
