//! Rules files, before any family sees them: finding a source (bundled by name, or a path) and
//! reading it within the limits ([`source`]); the TOML parsed once into a spanned document, with
//! the helpers every family uses to read its tables and compile its expressions ([`toml`]); the
//! `[game]` table every rules file starts with. This layer knows no family: the registry
//! dispatches on `[game] family`.

pub mod reference;
pub mod source;
pub mod toml;

pub use reference::{FamilyRef, KeyRef, SectionRef, AI_SECTION};
pub use source::{Origin, Source, SourceError, BUNDLED};
pub use toml::{expr, Reading, Repairs, RulesDoc};

use ::toml::Spanned;
use serde::Deserialize;

/// The `[game]` table every rules file starts with.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameInfo {
    /// Short name (`oware`), used in records and the protocol.
    pub name: Spanned<String>,
    /// `sowing` or `tables`.
    pub family: Spanned<String>,
    /// Human title ("Oware (Abapa)").
    #[serde(default)]
    pub title: Option<String>,
    /// Where the rules come from and which readings were chosen.
    #[serde(default)]
    pub source: Option<String>,
    /// The two players' names, player 0 first (default South, North).
    #[serde(default)]
    pub players: Option<Spanned<Vec<String>>>,
}

/// `[ai]`: how the computer players measure a position, tuned by the author; no rule of the
/// game. Both families read it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ai {
    /// An integer expression: a position's value for the player it is measured for.
    #[serde(default)]
    pub evaluate: Option<Spanned<String>>,
}

/// The warning for an `[ai] evaluate` that reads nothing of the position (`default`: the
/// family's own measure, in words), or `None`.
pub fn constant_evaluation(
    e: &crate::expr::Expr,
    value: &Spanned<String>,
    default: &str,
) -> Option<crate::diagnostics::Diagnostic> {
    toml::constant_value(e)?;
    let d = crate::diagnostics::Diagnostic::warning(
        "`ai.evaluate` reads nothing of the position: every position looks alike to the computer \
         players",
    )
    .at(value.span())
    .note(format!(
        "leave `[ai]` out for the default measure ({default})"
    ));
    Some(d)
}
