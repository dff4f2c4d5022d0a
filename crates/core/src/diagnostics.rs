//! Located error reports for rules files: `file:line:column`, the line shown, a caret under the
//! spot; also as JSON for tools.

use std::ops::Range;

/// How bad a problem is: an error makes the file unusable; a warning points at something
/// that is legal but almost certainly not what the author meant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Severity {
    #[default]
    Error,
    Warning,
}

impl Severity {
    /// `"error"` or `"warning"`, as the reports write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// One problem found in a rules file. `span` is a byte range in the file's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub span: Option<Range<usize>>,
    /// Extra lines of help ("expected one of ...").
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// An error.
    pub fn new(message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span: None,
            notes: Vec::new(),
        }
    }
    /// A warning: the file is usable, but this is probably a mistake.
    pub fn warning(message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::new(message)
        }
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
    pub fn at(mut self, span: Range<usize>) -> Self {
        self.span = Some(span);
        self
    }
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }
}

/// Line and column (1-based, columns in characters) of a byte offset.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = floor_char_boundary(text, offset.min(text.len()));
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, text[line_start..offset].chars().count() + 1)
}

fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Longest source line quoted under an error.
const MAX_SHOWN_LINE: usize = 400;

/// The diagnostics of one file as a terminal report: `error: message` (or `warning: message`),
/// then `file:line:column`, the line itself and a caret under the spot, and the notes.
pub fn render(file: &str, text: &str, diagnostics: &[Diagnostic]) -> String {
    use codespan_reporting::diagnostic::{Diagnostic as Report, Label};
    use codespan_reporting::files::SimpleFile;
    use codespan_reporting::term::{self, termcolor::NoColor, Config};

    let files = SimpleFile::new(file, text);
    let mut out = NoColor::new(Vec::new());
    let config = Config::default();
    for d in diagnostics {
        let report = match d.severity {
            Severity::Error => Report::error(),
            Severity::Warning => Report::warning(),
        };
        let mut report = report.with_message(&d.message).with_notes(d.notes.clone());
        if let Some(span) = &d.span {
            let start = floor_char_boundary(text, span.start.min(text.len()));
            let end = floor_char_boundary(text, span.end.clamp(start, text.len()));
            let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
            let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
            if line_end - line_start <= MAX_SHOWN_LINE {
                report = report.with_labels(vec![Label::primary((), start..end)]);
            } else {
                // Too long to show: the place alone.
                let (line, column) = line_column(text, start);
                report = report.with_notes(vec![format!(
                    "at {file}:{line}:{column} (line too long to show)"
                )]);
            }
        }
        if term::emit(&mut out, &config, &files, &report).is_err() {
            // Rendering only fails on a span outside the text; fall back to the bare message.
            out.get_mut()
                .extend_from_slice(format!("{}: {}\n", d.severity.as_str(), d.message).as_bytes());
        }
    }
    String::from_utf8_lossy(&out.into_inner()).into_owned()
}

/// The diagnostics of one file for tools: one object each with `file`, `severity` (`"error"`
/// or `"warning"`), `line`, `column`, `end_line`, `end_column`, `message` and `notes`.
pub fn to_json(file: &str, text: &str, diagnostics: &[Diagnostic]) -> serde_json::Value {
    let items = diagnostics.iter().map(|d| {
        let span = d.span.clone().unwrap_or(0..0);
        let (line, column) = line_column(text, span.start);
        let (end_line, end_column) = line_column(text, span.end.max(span.start));
        serde_json::json!({
            "file": file, "severity": d.severity.as_str(), "line": line, "column": column,
            "end_line": end_line, "end_column": end_column,
            "message": d.message, "notes": d.notes,
        })
    });
    serde_json::Value::Array(items.collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_file_line_column_and_caret() {
        let text = "[game]\nname = \"x\"\nfamily = \"cards\"\n";
        let start = text.find("\"cards\"").unwrap();
        let d = Diagnostic::new("unknown family `cards`")
            .at(start..start + 7)
            .note("expected sowing or tables");
        let out = render("x.toml", text, std::slice::from_ref(&d));
        assert!(out.contains("error: unknown family `cards`"), "{out}");
        assert!(out.contains("x.toml:3:10"), "{out}");
        assert!(out.contains("family = \"cards\""), "{out}");
        assert!(out.contains("^^^^^^^"), "{out}");
        assert!(out.contains("expected sowing or tables"), "{out}");
        let json = to_json("x.toml", text, &[d]);
        assert_eq!(json[0]["line"], 3);
        assert_eq!(json[0]["column"], 10);
        assert_eq!(json[0]["end_column"], 17);
    }

    #[test]
    fn a_line_too_long_to_show_is_located_not_quoted() {
        let text = format!("[game]\nname = \"{}\"\n", "x".repeat(1000));
        let out = render("x.toml", &text, &[Diagnostic::new("too long").at(7..11)]);
        assert!(
            out.contains("at x.toml:2:1 (line too long to show)"),
            "{out}"
        );
        assert!(out.len() < 300, "{out}");
    }

    #[test]
    fn columns_count_characters_and_spans_past_the_end_are_clamped() {
        assert_eq!(line_column("žž = 1", 4), (1, 3));
        let out = render("x.toml", "abc", &[Diagnostic::new("boom").at(10..20)]);
        assert!(out.contains("boom"), "{out}");
    }
}

/// The candidate closest to `word` by edit distance, when it is close enough to be a slip of
/// the keyboard ("did you mean ...?").
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).clamp(1, 3);
    candidates
        .into_iter()
        .map(|c| (strsim::osa_distance(word, c), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// An error inside a small text of its own (an expression, a notation), located by byte
/// offsets in that text; [`Diagnostic::in_string`] places it in the rules file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpannedError {
    pub span: Range<usize>,
    pub message: String,
    pub notes: Vec<String>,
}

impl SpannedError {
    pub fn new(span: Range<usize>, message: impl Into<String>) -> Self {
        SpannedError {
            span,
            message: message.into(),
            notes: Vec::new(),
        }
    }

    /// The place of a pest syntax error in `text` (a point becomes the character there).
    pub fn pest_span<R: pest::RuleType>(text: &str, e: &pest::error::Error<R>) -> Range<usize> {
        match e.location {
            pest::error::InputLocation::Pos(p) => p..(p + 1).min(text.len()).max(p),
            pest::error::InputLocation::Span((a, b)) => a..b,
        }
    }
}

impl Diagnostic {
    /// An error inside the TOML string `value` of the rules file `text`, placed at its spot in
    /// the file when the string is written without escapes (else on the whole string).
    pub fn in_string(text: &str, value: &toml::Spanned<String>, e: SpannedError) -> Diagnostic {
        let span = match string_content_start(text, value.span()) {
            Some(b) => b + e.span.start..b + e.span.end.max(e.span.start),
            None => value.span(),
        };
        let mut d = Diagnostic::new(e.message).at(span);
        d.notes = e.notes;
        d
    }
}

/// The game of a check, or its errors when it has none (warnings dropped): what a compile
/// returns.
pub fn game_or_errors<G>(checked: (Option<G>, Vec<Diagnostic>)) -> Result<G, Vec<Diagnostic>> {
    match checked {
        (Some(game), _) => Ok(game),
        (None, diagnostics) => Err(diagnostics.into_iter().filter(|d| d.is_error()).collect()),
    }
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
