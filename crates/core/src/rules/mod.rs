//! Rules files, before any family sees them: finding a source (bundled by name, or a path) and
//! reading it within the limits ([`source`]); the TOML parsed once into a spanned document, with
//! the helpers every family uses to read its tables and compile its expressions ([`toml`]); the
//! `[game]` table every rules file starts with. This layer knows no family: the registry
//! dispatches on `[game] family`.

pub mod define;
pub mod reference;
pub mod source;
pub mod toml;

pub use reference::{FamilyRef, KeyRef, SectionRef, AI_SECTION};
pub use source::{Origin, Source, SourceError, BUNDLED};
pub use toml::{expr, Reading, Repairs, RulesDoc};

use crate::diagnostics::Diagnostic;
use ::toml::Spanned;
use serde::de::DeserializeOwned;
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

impl GameInfo {
    /// `players`: exactly two names, player 0 first; `default` when left out (or, after an
    /// error, to read on).
    pub fn player_names(&self, default: [&str; 2], errors: &mut Vec<Diagnostic>) -> [String; 2] {
        match self.players.as_ref().map(|p| (p, p.get_ref().as_slice())) {
            Some((_, [a, b])) => [a.clone(), b.clone()],
            Some((p, names)) => {
                errors.push(
                    Diagnostic::new("`players` names exactly two players")
                        .at(p.span())
                        .note(format!("it names {}", names.len())),
                );
                default.map(String::from)
            }
            None => default.map(String::from),
        }
    }
}

/// Checks a rules file read as `F`: `build` gets the text's repairs (where its structure was
/// broken) and the file, and gives what it built, reporting errors and warnings; the game
/// comes back only when nothing is wrong, with every diagnostic located in the original text,
/// annotated from the family's `reference` and put in order (errors first).
pub fn check<F: DeserializeOwned, T>(
    doc: &RulesDoc,
    reference: &FamilyRef,
    build: impl FnOnce(&Repairs, &F, &mut Vec<Diagnostic>, &mut Vec<Diagnostic>) -> Option<T>,
) -> (Option<T>, Vec<Diagnostic>) {
    let reading = doc.read_all::<F>();
    let mut out = reading.errors;
    let mut game = None;
    if let Some(file) = &reading.value {
        let mut errors = Vec::new();
        let mut warnings = Vec::new();
        let built = build(&reading.repairs, file, &mut errors, &mut warnings);
        if out.is_empty() && errors.is_empty() {
            game = built;
        }
        let found = errors.into_iter().chain(warnings);
        out.extend(found.filter_map(|d| reading.repairs.place(d)));
    }
    for d in out.iter_mut() {
        reference.annotate(doc, d);
    }
    toml::in_order(doc.text(), &mut out);
    (game, out)
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
) -> Option<Diagnostic> {
    toml::constant_value(e)?;
    let d = Diagnostic::warning(
        "`ai.evaluate` reads nothing of the position: every position looks alike to the computer \
         players",
    )
    .at(value.span())
    .note(format!(
        "leave `[ai]` out for the default measure ({default})"
    ));
    Some(d)
}
