//! The lowest layer of Ludus: what every other crate uses and nothing game-specific.
//!
//! The modules in order, each using only the ones before it: [`diagnostics`] (located reports,
//! "did you mean"), [`limits`] (every cap, one value), [`expr`] (expressions parsed and resolved to slots once),
//! [`rules`] (sources, TOML parsed once, the `[game]` table), [`net`] (a learned evaluation:
//! a small network and the bundled ones), [`game`] (the rules-only trait,
//! chance as data, the traits that show a game and the players' measure) and [`svg`] (drawing
//! helpers the families share).

pub mod diagnostics;
pub mod expr;
pub mod game;
pub mod limits;
pub mod net;
pub mod rules;
pub mod svg;
