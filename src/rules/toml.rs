//! The TOML of a rules file, parsed once into a spanned document that each family reads into
//! its own structs; errors come back located and in a user's words. Also the one helper that
//! compiles an expression written as a TOML string and locates its errors in the file.

use crate::diagnostics::{did_you_mean, Diagnostic};
use crate::expr::{Expr, Scope, Type};
use serde::de::DeserializeOwned;
use std::ops::Range;
use toml::Spanned;
use toml_edit::ImDocument;

/// Structural errors reported in one run at most (each found after blanking the previous).
const MAX_STRUCTURAL_ERRORS: usize = 20;

/// A rules text parsed into a TOML document (with every value's place in the text).
#[derive(Clone, Debug)]
pub struct RulesDoc {
    doc: ImDocument<String>,
}

impl RulesDoc {
    /// Parses the TOML; a syntax error comes back located.
    pub fn parse(text: &str) -> Result<RulesDoc, Diagnostic> {
        ImDocument::parse(text.to_string())
            .map(|doc| RulesDoc { doc })
            .map_err(|e| {
                let d = Diagnostic::new(plain_words(e.message().trim()));
                match e.span() {
                    Some(span) => d.at(span),
                    None => d,
                }
            })
    }

    pub fn text(&self) -> &str {
        self.doc.raw()
    }

    /// A string value by its path of keys (`["game", "family"]`), with its place.
    pub fn string(&self, path: &[&str]) -> Option<Spanned<String>> {
        let mut item = self.doc.as_item();
        for key in path {
            item = item.get(key)?;
        }
        let value = item.as_value()?;
        let span = value.span()?;
        Some(Spanned::new(span, value.as_str()?.to_string()))
    }

    /// Whether the document has a top-level table or key of this name.
    pub fn has(&self, key: &str) -> bool {
        self.doc.contains_key(key)
    }

    /// Reads the document into `T` (whose structs deny unknown fields). Unknown or missing
    /// keys and wrong types come back located. Every structural error that can be found is
    /// reported: after each, the text is repaired where the error is (an unknown key blanked, a
    /// wrong value replaced by one of the right shape, every other offset kept) and read again.
    pub fn read<T: DeserializeOwned>(&self) -> Result<T, Vec<Diagnostic>> {
        let first = match toml_edit::de::from_document::<T>(self.doc.clone()) {
            Ok(value) => return Ok(value),
            Err(e) => located(&e),
        };
        let mut errors = vec![first];
        let mut text = self.text().to_string();
        while errors.len() < MAX_STRUCTURAL_ERRORS {
            let last = errors.last().expect("one error at least");
            let Some(next) = repair::<T>(&mut text, last) else {
                break;
            };
            if errors.contains(&next) {
                break;
            }
            errors.push(next);
        }
        Err(errors)
    }
}

/// Repairs `text` at the error `d` and reads it again: the next error, or `None` when there is
/// none or the error cannot be repaired.
fn repair<T: DeserializeOwned>(text: &mut String, d: &Diagnostic) -> Option<Diagnostic> {
    let span = d.span.clone()?;
    let read = |t: &str| -> Option<Result<(), Diagnostic>> {
        let doc = ImDocument::parse(t.to_string()).ok()?;
        Some(
            toml_edit::de::from_document::<T>(doc)
                .map(|_| ())
                .map_err(|e| located(&e)),
        )
    };
    if d.message.starts_with("unknown field") {
        blank_entry(text, span);
        return read(text)?.err();
    }
    if d.message.starts_with("missing key") {
        return None;
    }
    // A value of the wrong type or out of range: try values of other shapes in its place,
    // first the values the message says it expects (the shortest first).
    let width = text.get(span.clone())?.len();
    let mut expected: Vec<String> = d
        .message
        .split("expected ")
        .nth(1)
        .map(|rest| {
            rest.split('`')
                .skip(1)
                .step_by(2)
                .map(|v| format!("\"{v}\""))
                .collect()
        })
        .unwrap_or_default();
    expected.sort_by_key(String::len);
    let candidates = expected
        .into_iter()
        .chain(["1", "true", "\"\"", "[]", "{}"].map(String::from));
    for candidate in candidates.filter(|c| c.len() <= width) {
        let mut trial = text.clone();
        let filler: String = trial[span.clone()]
            .chars()
            .skip(candidate.len())
            .map(|c| if c == '\n' { '\n' } else { ' ' })
            .collect();
        let pad = width - candidate.len() - filler.len();
        trial.replace_range(
            span.clone(),
            &format!("{candidate}{filler}{}", " ".repeat(pad)),
        );
        match read(&trial) {
            Some(Ok(())) => {
                *text = trial;
                return None;
            }
            // An error at the stand-in itself says nothing about the file: try another.
            Some(Err(next))
                if next
                    .span
                    .as_ref()
                    .is_some_and(|n| n.start >= span.end || n.end <= span.start) =>
            {
                *text = trial;
                return Some(next);
            }
            _ => {}
        }
    }
    None
}

fn located(e: &toml_edit::de::Error) -> Diagnostic {
    let message = e.message().trim();
    let mut d = Diagnostic::new(plain_words(message));
    if let Some(span) = e.span() {
        d = d.at(span);
    }
    // "unknown field `stonse`, expected one of `pits`, `stones`": suggest the closest.
    for what in ["unknown field `", "unknown variant `"] {
        if let Some(rest) = message.strip_prefix(what) {
            let found = rest.split('`').next().unwrap_or_default();
            let expected: Vec<&str> = rest.split('`').skip(2).step_by(2).collect();
            if let Some(close) = did_you_mean(found, expected.iter().copied()) {
                d = d.note(format!("did you mean `{close}`?"));
            }
        }
    }
    d
}

/// Replaces the entry at `span` with spaces (keeping every other offset): the whole line of a
/// key, or a table header with all its keys.
fn blank_entry(text: &mut String, span: Range<usize>) {
    let start = span.start.min(text.len());
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = |from: usize| text[from..].find('\n').map_or(text.len(), |i| from + i);
    let mut end = line_end(span.end.clamp(start, text.len()));
    if text[line_start..].trim_start().starts_with('[') {
        // A table: up to the next header.
        let mut at = end;
        while at < text.len() {
            let next = line_end(at + 1);
            if text[at + 1..next].trim_start().starts_with('[') {
                break;
            }
            at = next;
        }
        end = at;
    }
    let blank: String = text[line_start..end]
        .chars()
        .map(|c| if c == '\n' { '\n' } else { ' ' })
        .collect();
    // Multi-byte characters become one space each: pad to keep the byte offsets.
    let pad = (end - line_start).saturating_sub(blank.len());
    text.replace_range(line_start..end, &(blank + &" ".repeat(pad)));
}

/// The deserializer's words turned into a user's: Rust type names become what to write.
fn plain_words(message: &str) -> String {
    let mut out = message.replace("missing field", "missing key");
    for (rust, plain) in [
        ("expected u8", "expected a whole number from 0 to 255"),
        ("expected u16", "expected a whole number of 0 or more"),
        ("expected u32", "expected a whole number of 0 or more"),
        ("expected u64", "expected a whole number of 0 or more"),
        ("expected i32", "expected a whole number"),
        ("expected i64", "expected a whole number"),
        (
            "expected a sequence",
            "expected a list such as `[\"last\"]`",
        ),
        ("expected a boolean", "expected `true` or `false`"),
        ("expected a string", "expected text in quotes"),
        ("expected struct", "expected a table of"),
        ("invalid type: string", "found the text"),
        ("invalid type: integer", "found the number"),
        ("invalid type: sequence", "found a list"),
        ("invalid type: map", "found a table"),
        ("invalid type: boolean", "found"),
        ("invalid type: floating point", "found the number"),
        ("invalid value: integer", "the number"),
    ] {
        out = out.replace(rust, plain);
    }
    out
}

/// Compiles an expression given as a TOML string, reporting errors at their place in the file.
pub fn expr(
    text: &str,
    value: &Spanned<String>,
    scope: &Scope,
    ty: Type,
) -> Result<Expr, Diagnostic> {
    Expr::compile(value.get_ref(), scope, ty).map_err(|e| {
        let inner = crate::diagnostics::SpannedError {
            span: e.span,
            message: e.message,
            notes: e.notes,
        };
        Diagnostic::in_string(text, value, inner)
    })
}

/// Where the characters of a TOML string value start in the file, when the value is written
/// without escapes (so offsets in the value are offsets in the file).
pub fn string_content_start(text: &str, span: Range<usize>) -> Option<usize> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct File {
        board: Board,
        end: Option<End>,
    }
    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Board {
        pits: u8,
        stones: u8,
    }
    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct End {
        repetition: bool,
    }

    fn errors(text: &str) -> Vec<Diagnostic> {
        RulesDoc::parse(text).unwrap().read::<File>().unwrap_err()
    }

    #[test]
    fn every_structural_error_is_reported_in_a_users_words() {
        let text = "[board]\npits = 6\nstones = \"four\"\nstonse = 4\n[end]\nrepetition = 3\n";
        let e = errors(text);
        assert_eq!(e.len(), 3, "{e:?}");
        assert_eq!(
            e[0].message,
            "found the text \"four\", expected a whole number from 0 to 255"
        );
        assert_eq!(&text[e[0].span.clone().unwrap()], "\"four\"");
        assert!(e[1].message.starts_with("unknown field `stonse`"), "{e:?}");
        assert_eq!(e[1].notes, ["did you mean `stones`?"]);
        assert_eq!(&text[e[1].span.clone().unwrap()], "stonse");
        assert_eq!(
            e[2].message,
            "found the number `3`, expected `true` or `false`"
        );
    }

    #[test]
    fn an_unknown_table_is_blanked_whole() {
        let text = "[board]\npits = 6\nstones = 4\n[ned]\nrepetition = true\nx = 1\n";
        let e = errors(text);
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].message.starts_with("unknown field `ned`"), "{e:?}");
        assert_eq!(e[0].notes, ["did you mean `end`?"]);
    }

    #[test]
    fn syntax_errors_are_located() {
        let e = RulesDoc::parse("[board]\npits = = 6\n").unwrap_err();
        assert!(e.span.is_some());
        assert_eq!(
            crate::diagnostics::line_column("[board]\npits = = 6\n", e.span.unwrap().start).0,
            2
        );
    }

    #[test]
    fn strings_are_read_by_path_with_their_place() {
        let text = "[game]\nfamily = \"sowing\"\n";
        let doc = RulesDoc::parse(text).unwrap();
        let family = doc.string(&["game", "family"]).unwrap();
        assert_eq!(family.get_ref(), "sowing");
        assert_eq!(&text[family.span()], "\"sowing\"");
        assert!(doc.string(&["game", "name"]).is_none());
    }
}
