//! Rules files: finding them (bundled by name, or a path), reading the TOML into spanned
//! structs, and handing them to their family's compiler. Helpers shared by the families turn
//! TOML and expression errors into located [`Diagnostic`]s.

use crate::diagnostics::Diagnostic;
use crate::expr::{Expr, Scope, Type};
use crate::{sowing, tables};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::ops::Range;
use toml::Spanned;

/// The rules files shipped inside the binary: (name, text).
pub const BUNDLED: &[(&str, &str)] = &[
    ("oware", include_str!("../../rules/oware.toml")),
    ("wari", include_str!("../../rules/wari.toml")),
    ("warri", include_str!("../../rules/warri.toml")),
    ("kalah", include_str!("../../rules/kalah.toml")),
    ("sat-gharva", include_str!("../../rules/sat-gharva.toml")),
    ("uuholo", include_str!("../../rules/uuholo.toml")),
    (
        "uuholo-held-one",
        include_str!("../../rules/uuholo-held-one.toml"),
    ),
    (
        "uuholo-both-rows",
        include_str!("../../rules/uuholo-both-rows.toml"),
    ),
    ("backgammon", include_str!("../../rules/backgammon.toml")),
    ("had", include_str!("../../rules/had.toml")),
    ("mughrabieh", include_str!("../../rules/mughrabieh.toml")),
];

/// The largest rules file read.
const MAX_RULES_BYTES: u64 = 1 << 20;

/// A rules text and the name to report it by (a bundled name or the path given).
#[derive(Clone, Debug)]
pub struct Source {
    pub name: String,
    pub text: String,
}

impl Source {
    /// A bundled game by name, or else a file by path.
    pub fn find(name_or_path: &str) -> Result<Source, String> {
        if let Some((name, text)) = BUNDLED.iter().find(|(n, _)| *n == name_or_path) {
            return Ok(Source {
                name: format!("{name}.toml"),
                text: text.to_string(),
            });
        }
        // Rules files are untrusted: a huge one is refused before it is read.
        if let Ok(meta) = std::fs::metadata(name_or_path) {
            if meta.is_file() && meta.len() > MAX_RULES_BYTES {
                return Err(format!(
                    "`{name_or_path}` has {} bytes; a rules file may have at most {MAX_RULES_BYTES}",
                    meta.len()
                ));
            }
        }
        match std::fs::read_to_string(name_or_path) {
            Ok(text) => Ok(Source {
                name: name_or_path.to_string(),
                text,
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let names: Vec<&str> = BUNDLED.iter().map(|(n, _)| *n).collect();
                Err(format!(
                    "no bundled game or file named `{name_or_path}` (bundled: {})",
                    names.join(", ")
                ))
            }
            Err(e) => Err(format!("cannot read `{name_or_path}`: {e}")),
        }
    }
}

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

/// A compiled game of either family.
#[derive(Clone, Debug)]
pub enum AnyGame {
    Sowing(sowing::SowingGame),
    Tables(tables::TablesGame),
}

/// Runs `$body` with `$g` bound to the concrete game inside an [`AnyGame`], so generic code
/// (`fn f<G: Game>(g: &G)`) is written once for both families.
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::rules::AnyGame::Sowing($g) => $body,
            $crate::rules::AnyGame::Tables($g) => $body,
        }
    };
}

/// Compiles a rules text of either family.
pub fn compile(text: &str) -> Result<AnyGame, Vec<Diagnostic>> {
    #[derive(Deserialize)]
    struct Head {
        game: Option<HeadGame>,
    }
    #[derive(Deserialize)]
    struct HeadGame {
        family: Option<Spanned<String>>,
    }
    let head: Head = from_toml(text).map_err(|d| vec![d])?;
    let Some(game) = head.game else {
        return Err(vec![Diagnostic::new("missing table `[game]`")
            .at(0..0)
            .note(
                "every rules file starts with [game] name = \"...\" family = \"sowing\"|\"tables\"",
            )]);
    };
    let Some(family) = game.family else {
        return Err(vec![Diagnostic::new(
            "missing key `family` in table `[game]`",
        )
        .at(0..0)
        .note("family = \"sowing\" or \"tables\"")]);
    };
    match family.get_ref().as_str() {
        "sowing" => sowing::compile(text).map(AnyGame::Sowing),
        "tables" => tables::compile(text).map(AnyGame::Tables),
        other => Err(vec![Diagnostic::new(format!("unknown family `{other}`"))
            .at(family.span())
            .note("expected \"sowing\" or \"tables\"")]),
    }
}

/// Reads TOML into `T` (whose structs deny unknown fields); syntax errors, unknown or missing
/// keys and wrong types come back located.
pub fn from_toml<T: DeserializeOwned>(text: &str) -> Result<T, Diagnostic> {
    toml::from_str(text).map_err(|e| {
        let d = Diagnostic::new(e.message().trim().to_string());
        match e.span() {
            Some(span) => d.at(span),
            None => d,
        }
    })
}

/// Compiles an expression given as a TOML string, reporting errors at their place in the file.
pub fn expr(
    text: &str,
    value: &Spanned<String>,
    scope: &Scope,
    ty: Type,
) -> Result<Expr, Diagnostic> {
    Expr::compile(value.get_ref(), scope, ty).map_err(|e| {
        let base = string_content_start(text, value.span());
        let span = match base {
            Some(b) => b + e.span.start..b + e.span.end.max(e.span.start),
            None => value.span(),
        };
        let mut d = Diagnostic::new(e.message).at(span);
        d.notes = e.notes;
        d
    })
}

/// Where the characters of a TOML string value start in the file, when the value is written
/// without escapes (so offsets in the value are offsets in the file).
fn string_content_start(text: &str, span: Range<usize>) -> Option<usize> {
    let raw = text.get(span.clone())?;
    let quote = ["\"\"\"", "'''", "\"", "'"]
        .into_iter()
        .find(|q| raw.starts_with(q))?;
    let inner = &raw[quote.len()..raw.len().checked_sub(quote.len())?];
    if quote.starts_with('"') && inner.contains('\\') {
        return None;
    }
    Some(span.start + quote.len())
}
