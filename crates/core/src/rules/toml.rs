//! The TOML of a rules file, parsed once into a spanned document that each family reads into
//! its own structs; errors come back located and in a user's words. Also the one helper that
//! compiles an expression written as a TOML string and locates its errors in the file.

use super::source::{Origin, Source};
use crate::diagnostics::{did_you_mean, Diagnostic};
use crate::expr::{Expr, Scope, Type};
use serde::de::DeserializeOwned;
use std::ops::Range;
use toml::Spanned;
use toml_edit::ImDocument;

/// Structural errors reported in one run at most (each found after blanking the previous).
const MAX_STRUCTURAL_ERRORS: usize = 20;

/// A rules text parsed into a TOML document (with every value's place in the text), and where
/// the text was found (for the rules files it names).
#[derive(Clone, Debug)]
pub struct RulesDoc {
    doc: ImDocument<String>,
    origin: Origin,
}

/// What reading a document into a struct found: the value, the structural errors (unknown,
/// missing and mistyped keys, located in the text as written) and the repairs that made the
/// value readable.
#[derive(Debug)]
pub struct Reading<T> {
    /// The value: read from the text itself when it has no structural error, else from the text
    /// repaired at each error; `None` when some error could not be repaired.
    pub value: Option<T>,
    pub errors: Vec<Diagnostic>,
    pub repairs: Repairs,
}

/// How a text was repaired to be read: each wrong value replaced by one of the right shape or
/// blanked, each unknown key blanked, each missing key inserted. Checks made on the repaired text
/// are placed back in the text as written with [`Repairs::place`], which drops what is only a
/// consequence of a repair.
#[derive(Clone, Debug, Default)]
pub struct Repairs {
    /// The repaired text (`None`: no repair).
    text: Option<String>,
    /// The edits, as (offset in the repaired text, bytes there now, bytes there in the text as
    /// written), in text order, none overlapping.
    edits: Vec<(usize, usize, usize)>,
    /// The places repaired, in the text as written.
    spans: Vec<Range<usize>>,
    /// The top-level tables repaired (`board`, `capture`).
    sections: Vec<String>,
}

impl Repairs {
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The repaired text, or `original` when nothing was repaired.
    pub fn text<'a>(&'a self, original: &'a str) -> &'a str {
        self.text.as_deref().unwrap_or(original)
    }

    /// Whether something was repaired in this top-level table: checks that combine its keys
    /// with others would report the repair, not the file.
    pub fn touched(&self, section: &str) -> bool {
        self.sections.iter().any(|s| s == section)
    }

    /// An offset in the repaired text as an offset in the text as written; inside an edit, its
    /// start (or its end, for the end of a span).
    fn map(&self, offset: usize, end: bool) -> usize {
        let mut shift = 0isize;
        for &(at, now, was) in &self.edits {
            if offset >= at + now && !(now == 0 && offset == at) {
                shift += now as isize - was as isize;
            } else if offset > at || (end && offset == at + now) {
                let start = (at as isize - shift) as usize;
                return if end { start + was } else { start };
            } else {
                break;
            }
        }
        (offset as isize - shift) as usize
    }

    fn map_span(&self, span: &Range<usize>) -> Range<usize> {
        let start = self.map(span.start, false);
        start..self.map(span.end, true).max(start)
    }

    /// Records an edit of the current text: `len` bytes now at `at`.
    fn record(&mut self, at: Range<usize>, len: usize, section: &str) {
        // Merged with the edits it touches, as one edit of the text as written.
        let (mut start, mut end) = (at.start, at.end);
        loop {
            let (s, e) = self
                .edits
                .iter()
                .filter(|&&(a, now, _)| a <= end && start <= a + now)
                .fold((start, end), |(s, e), &(a, now, _)| {
                    (s.min(a), e.max(a + now))
                });
            if (s, e) == (start, end) {
                break;
            }
            (start, end) = (s, e);
        }
        let original = self.map(start, false)..self.map(end, true);
        let now = end - start - at.len() + len;
        let delta = len as isize - at.len() as isize;
        self.edits
            .retain(|&(a, n, _)| !(a <= end && start <= a + n));
        for e in &mut self.edits {
            if e.0 >= end {
                e.0 = (e.0 as isize + delta) as usize;
            }
        }
        self.edits.push((start, now, original.len()));
        self.edits.sort_unstable();
        self.spans.push(original);
        if !self.touched(section) {
            self.sections.push(section.to_string());
        }
    }

    /// A diagnostic found on the repaired text, placed in the text as written; `None` when it
    /// is about a repaired place (a consequence of the repair, not of the file).
    pub fn place(&self, mut d: Diagnostic) -> Option<Diagnostic> {
        if let Some(span) = d.span.take() {
            let span = self.map_span(&span);
            let touches = |r: &Range<usize>| span.start <= r.end && r.start <= span.end;
            if self.spans.iter().any(touches) {
                return None;
            }
            d.span = Some(span);
        }
        Some(d)
    }
}

impl RulesDoc {
    /// Parses the TOML of a text given without a file (it names files from the current
    /// folder); a syntax error comes back located, in a user's words.
    pub fn parse(text: &str) -> Result<RulesDoc, Diagnostic> {
        ImDocument::parse(text.to_string())
            .map(|doc| RulesDoc {
                doc,
                origin: Origin::default(),
            })
            .map_err(|e| syntax_error(text, e.message(), e.span()))
    }

    /// Parses the TOML of a rules source, which names files from its own place.
    pub fn parse_source(source: &Source) -> Result<RulesDoc, Diagnostic> {
        let mut doc = RulesDoc::parse(&source.text)?;
        doc.origin = source.origin.clone();
        Ok(doc)
    }

    pub fn text(&self) -> &str {
        self.doc.raw()
    }

    /// Where the text was found.
    pub fn origin(&self) -> &Origin {
        &self.origin
    }

    /// A string value by its path of keys (`["game", "family"]`), with its place.
    pub fn string(&self, path: &[&str]) -> Option<Spanned<String>> {
        let value = self.value(path)?;
        let span = value.span()?;
        Some(Spanned::new(span, value.as_str()?.to_string()))
    }

    /// The strings of a list by its path of keys (`["game", "players"]`), each with its place;
    /// other values of the list are left out.
    pub fn strings(&self, path: &[&str]) -> Vec<Spanned<String>> {
        let Some(array) = self.value(path).and_then(|v| v.as_array()) else {
            return Vec::new();
        };
        array
            .iter()
            .filter_map(|v| Some(Spanned::new(v.span()?, v.as_str()?.to_string())))
            .collect()
    }

    /// The places of the values of a list by its path of keys.
    pub fn list_spans(&self, path: &[&str]) -> Vec<Range<usize>> {
        let Some(array) = self.value(path).and_then(|v| v.as_array()) else {
            return Vec::new();
        };
        array.iter().filter_map(|v| v.span()).collect()
    }

    /// The place of a value by its path of keys, a number naming a table of an array of
    /// tables (`["capture", "1"]`); `None` for a table.
    pub fn value_span(&self, path: &[&str]) -> Option<Range<usize>> {
        self.value(path)?.span()
    }

    fn value(&self, path: &[&str]) -> Option<&toml_edit::Value> {
        let mut item = self.doc.as_item();
        for key in path {
            item = match key.parse::<usize>() {
                Ok(i) => item.get(i)?,
                Err(_) => item.get(key)?,
            };
        }
        item.as_value()
    }

    /// Whether the document has a top-level table or key of this name.
    pub fn has(&self, key: &str) -> bool {
        self.doc.contains_key(key)
    }

    /// Whether a top-level key is written as an array of tables (`[[capture]]`).
    pub fn is_array_of_tables(&self, key: &str) -> bool {
        self.doc.get(key).is_some_and(|i| i.is_array_of_tables())
    }

    /// Whether the document has a table or key at this path of keys (`["match", "games"]`).
    pub fn has_path(&self, path: &[&str]) -> bool {
        let mut item = self.doc.as_item();
        for key in path {
            match item.get(key) {
                Some(next) => item = next,
                None => return false,
            }
        }
        true
    }

    /// The place of a top-level table's header (the first one of an array of tables), or of
    /// its value when it is written inline.
    pub fn table_span(&self, key: &str) -> Option<Range<usize>> {
        match self.doc.get(key)? {
            toml_edit::Item::Table(t) => t.span(),
            toml_edit::Item::ArrayOfTables(a) => a.iter().next()?.span(),
            toml_edit::Item::Value(v) => v.span(),
            toml_edit::Item::None => None,
        }
    }

    /// The keys leading to what is at `offset`: `["capture", "when"]` inside that value or on
    /// its key, `["capture"]` on the table's header; empty outside every table.
    pub fn path_at(&self, offset: usize) -> Vec<String> {
        let mut path = Vec::new();
        find_in_table(self.doc.as_table(), offset, &mut path);
        path
    }

    /// Reads the document into `T` (whose structs deny unknown fields). Unknown or missing
    /// keys and wrong types come back located.
    pub fn read<T: DeserializeOwned>(&self) -> Result<T, Vec<Diagnostic>> {
        let reading = self.read_all::<T>();
        match reading.value {
            Some(value) if reading.errors.is_empty() => Ok(value),
            _ => Err(reading.errors),
        }
    }

    /// Reads the document into `T`, reporting every structural error that can be found: after
    /// each, the text is repaired where the error is (an unknown key blanked, a wrong value
    /// replaced by one of the right shape or left out, a missing key inserted) and read again.
    /// When every error could be repaired, the value read from the repaired text comes back
    /// too, so that the checks that do not depend on the repairs can still be made.
    pub fn read_all<T: DeserializeOwned>(&self) -> Reading<T> {
        let mut error = match toml_edit::de::from_document::<T>(self.doc.clone()) {
            Ok(value) => {
                return Reading {
                    value: Some(value),
                    errors: Vec::new(),
                    repairs: Repairs::default(),
                }
            }
            Err(e) => located(&e),
        };
        let mut text = self.text().to_string();
        let mut repairs = Repairs::default();
        let mut errors: Vec<Diagnostic> = Vec::new();
        let mut value = None;
        loop {
            let placed = Diagnostic {
                span: error.span.as_ref().map(|s| repairs.map_span(s)),
                ..error.clone()
            };
            if errors.contains(&placed) || errors.len() == MAX_STRUCTURAL_ERRORS {
                break;
            }
            errors.push(placed);
            match repair::<T>(&mut text, &error, &mut repairs) {
                Step::Next(next) => error = next,
                Step::Done(v) => {
                    value = Some(v);
                    break;
                }
                Step::Stuck => break,
            }
        }
        for e in &mut errors {
            if let Some(span) = &e.span {
                e.span = Some(narrow(self.text(), span.clone()));
            }
        }
        repairs.text = Some(text);
        Reading {
            value,
            errors,
            repairs,
        }
    }
}

fn contains(span: &Range<usize>, offset: usize) -> bool {
    span.contains(&offset) || span.start == offset
}

fn find_in_table(table: &toml_edit::Table, offset: usize, path: &mut Vec<String>) -> bool {
    for (key, item) in table.iter() {
        let on_key = table
            .key(key)
            .and_then(|k| k.span())
            .is_some_and(|s| contains(&s, offset));
        path.push(key.to_string());
        if on_key || find_in_item(item, offset, path) {
            return true;
        }
        path.pop();
    }
    false
}

fn find_in_item(item: &toml_edit::Item, offset: usize, path: &mut Vec<String>) -> bool {
    use toml_edit::Item;
    match item {
        Item::Value(v) => {
            if !v.span().is_some_and(|s| contains(&s, offset)) {
                return false;
            }
            if let Some(t) = v.as_inline_table() {
                for (key, value) in t.iter() {
                    let on_key = t
                        .key(key)
                        .and_then(|k| k.span())
                        .is_some_and(|s| contains(&s, offset));
                    if on_key || value.span().is_some_and(|s| contains(&s, offset)) {
                        path.push(key.to_string());
                        break;
                    }
                }
            }
            true
        }
        Item::Table(t) => {
            find_in_table(t, offset, path) || t.span().is_some_and(|s| contains(&s, offset))
        }
        Item::ArrayOfTables(a) => a.iter().any(|t| {
            find_in_table(t, offset, path) || t.span().is_some_and(|s| contains(&s, offset))
        }),
        Item::None => false,
    }
}

/// Diagnostics in the order a reader meets them: errors first, then warnings, each by line (in
/// the order found within a line); a span over a whole table is cut to its header.
pub fn in_order(text: &str, diagnostics: &mut [Diagnostic]) {
    for d in diagnostics.iter_mut() {
        if let Some(span) = &d.span {
            let line_start = text[..span.start.min(text.len())]
                .rfind('\n')
                .map_or(0, |i| i + 1);
            let at_header = text
                .get(line_start..span.start)
                .is_some_and(|s| s.trim().is_empty())
                && text.get(span.start..).is_some_and(|s| s.starts_with('['))
                && text[span.start..].lines().next().is_some_and(|l| {
                    let l = l.split('#').next().unwrap_or_default().trim_end();
                    l.ends_with(']') && !l.contains('=') && !l.contains(',')
                });
            if at_header {
                d.span = Some(narrow(text, span.clone()));
            }
        }
    }
    let line = |d: &Diagnostic| {
        d.span
            .as_ref()
            .map_or(0, |s| text[..s.start.min(text.len())].matches('\n').count())
    };
    diagnostics.sort_by_key(|d| (!d.is_error(), line(d)));
}

/// A span cut at the end of its first line (a table, a value running over lines): the caret
/// goes under the start, not under a whole table.
fn narrow(text: &str, span: Range<usize>) -> Range<usize> {
    let start = span.start.min(text.len());
    let end = span.end.clamp(start, text.len());
    match text.get(start..end).and_then(|s| s.find('\n')) {
        Some(0) => start..start,
        Some(i) => start..start + i.min(end - start),
        None => start..end,
    }
}

/// What one repair led to.
enum Step<T> {
    /// Repaired; reading again found this error.
    Next(Diagnostic),
    /// Repaired; the text reads.
    Done(T),
    /// No repair found.
    Stuck,
}

/// One way to repair the text: `text` at `at` (the same number of bytes, or an insertion when
/// `at` is empty).
struct Edit {
    at: Range<usize>,
    text: String,
}

/// Values of each shape, tried in place of a wrong one.
const SHAPES: [&str; 5] = ["1", "true", "\"\"", "[]", "{}"];

/// Repairs `text` at the error `d` (located in `text`) and reads it again.
fn repair<T: DeserializeOwned>(
    text: &mut String,
    d: &Diagnostic,
    repairs: &mut Repairs,
) -> Step<T> {
    let Some(span) = d.span.clone() else {
        return Step::Stuck;
    };
    let Ok(before) = ImDocument::parse(text.clone()) else {
        return Step::Stuck;
    };
    let before = RulesDoc {
        doc: before,
        origin: Origin::default(),
    };
    let section = before.path_at(span.start).into_iter().next();
    let mut values: Vec<String> = expected_values(&d.message);
    values.extend(SHAPES.map(String::from));
    let mut edits: Vec<Edit> = Vec::new();
    let mut section = section.unwrap_or_default();
    if d.message.starts_with("unknown field") {
        let mut blanked = text.clone();
        let range = blank_entry(&mut blanked, span.clone());
        edits.push(Edit {
            text: blanked[range.clone()].to_string(),
            at: range,
        });
    } else if let Some(key) = d.message.strip_prefix("missing key `") {
        let key = key.split('`').next().unwrap_or_default().to_string();
        let here = text.get(span.clone()).unwrap_or_default();
        if here.starts_with('[') {
            // A table given without the key: the key on its own line after the header.
            let at = text[span.start..]
                .find('\n')
                .map_or(text.len(), |i| span.start + i);
            edits.extend(values.iter().map(|v| Edit {
                at: at..at,
                text: format!("\n{key} = {v}"),
            }));
        } else if here.starts_with('{') {
            let at = span.start + 1;
            let comma = if text[at..].trim_start().starts_with('}') {
                ""
            } else {
                ","
            };
            edits.extend(values.iter().map(|v| Edit {
                at: at..at,
                text: format!(" {key} = {v}{comma}"),
            }));
        } else if before.path_at(span.start).is_empty() || span.is_empty() {
            // A missing table: added at the end, where no offset moves.
            let at = text.len();
            edits.push(Edit {
                at: at..at,
                text: format!("\n[{key}]\n"),
            });
            section = key.clone();
        }
    } else {
        edits.extend(values.iter().map(|v| Edit {
            at: span.clone(),
            text: v.clone(),
        }));
        // An item of a list: left out; an entry: left out (its default).
        if let Some(range) = list_item(text, span.clone()) {
            let original = &text[range.clone()];
            edits.push(Edit {
                text: same_width(original, ""),
                at: range,
            });
        }
        let mut blanked = text.clone();
        let range = blank_entry(&mut blanked, span.clone());
        edits.push(Edit {
            text: blanked[range.clone()].to_string(),
            at: range,
        });
    }
    let mut tried = 0;
    while tried < edits.len() {
        let edit = &edits[tried];
        tried += 1;
        let mut trial = text.clone();
        trial.replace_range(edit.at.clone(), &edit.text);
        let Ok(doc) = ImDocument::parse(trial.clone()) else {
            continue;
        };
        let region = edit.at.start..edit.at.start + edit.text.len();
        let next = match toml_edit::de::from_document::<T>(doc) {
            Ok(value) => Ok(value),
            Err(e) => {
                let next = located(&e);
                let here = next
                    .span
                    .as_ref()
                    .is_some_and(|s| s.start <= region.end && region.start <= s.end);
                if here {
                    // The same place: a value of another shape. An option names the ones it takes.
                    let learned: Vec<Edit> = expected_values(&next.message)
                        .into_iter()
                        .map(|v| respell(edit, &v))
                        .collect();
                    for e in learned {
                        if !edits.iter().any(|x| x.at == e.at && x.text == e.text) {
                            edits.insert(tried, e);
                        }
                    }
                    continue;
                }
                Err(next)
            }
        };
        let at = edit.at.clone();
        let len = edit.text.len();
        *text = trial;
        repairs.record(at, len, &section);
        return match next {
            Ok(value) => Step::Done(value),
            Err(next) => Step::Next(next),
        };
    }
    Step::Stuck
}

/// `edit` with its value replaced by the option `value` (`"capture"`).
fn respell(edit: &Edit, value: &str) -> Edit {
    let text = match edit.text.rsplit_once(" = ") {
        // An inserted key.
        Some((head, _)) if edit.at.is_empty() => {
            let comma = if edit.text.ends_with(',') { "," } else { "" };
            format!("{head} = {value}{comma}")
        }
        _ => value.to_string(),
    };
    Edit {
        at: edit.at.clone(),
        text,
    }
}

/// The options a serde message names (`unknown variant `x`, expected `a` or `b``), quoted.
fn expected_values(message: &str) -> Vec<String> {
    let Some((_, rest)) = message.split_once("expected ") else {
        return Vec::new();
    };
    if !message.starts_with("unknown variant") {
        return Vec::new();
    }
    rest.split('`')
        .skip(1)
        .step_by(2)
        .map(|v| format!("\"{v}\""))
        .collect()
}

/// `value` written over `original`, padded to the same bytes (newlines kept where they were).
fn same_width(original: &str, value: &str) -> String {
    let mut out = value.to_string();
    out.extend(
        original
            .bytes()
            .skip(value.len())
            .map(|b| if b == b'\n' { '\n' } else { ' ' }),
    );
    out
}

/// The item of a list at `span` with the comma after it (or the one before, for the last), when
/// the span is an item of a list.
fn list_item(text: &str, span: Range<usize>) -> Option<Range<usize>> {
    let before = text.get(..span.start)?.trim_end();
    if !(before.ends_with('[') || before.ends_with(',')) {
        return None;
    }
    let after = text.get(span.end..)?;
    let rest = after.trim_start();
    if let Some(stripped) = rest.strip_prefix(',') {
        let end = text.len() - stripped.len();
        return Some(span.start..end);
    }
    if rest.starts_with(']') {
        if before.ends_with(',') {
            // The last item: its comma before it goes too (a trailing comma is allowed, but a
            // lone one is not).
            return Some(before.len() - 1..span.end);
        }
        return Some(span);
    }
    None
}

/// The error of the deserializer, located, with its words made plain.
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
/// key, or a table header with all its keys. Returns the range blanked.
fn blank_entry(text: &mut String, span: Range<usize>) -> Range<usize> {
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
    let blank = same_width(&text[line_start..end], "");
    text.replace_range(line_start..end, &blank);
    line_start..end
}

/// A TOML syntax error in a user's words: the parser's first line made plain, its "expected"
/// lines as notes, the caret at the start of the trouble (not over the lines after it).
fn syntax_error(text: &str, message: &str, span: Option<Range<usize>>) -> Diagnostic {
    let mut lines = message.trim().lines();
    let head = lines.next().unwrap_or("invalid TOML").trim();
    let rest: Vec<String> = lines.map(|l| or_list(l.trim())).collect();
    let at = span.map(|s| narrow(text, s));
    let here = at
        .as_ref()
        .and_then(|s| text.get(s.start..))
        .unwrap_or_default();
    let word: String = here
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '-')
        .collect();
    let value_help =
        "a value is a number, `true` or `false`, text in quotes, a list `[...]` or a table `{...}`";
    let (message, notes, at) = match head {
        "invalid string" if here.starts_with(['\n', '\r', '#']) || here.is_empty() => (
            "missing value after `=`".to_string(),
            vec![value_help.to_string()],
            at,
        ),
        "invalid string" if !word.is_empty() => (
            format!("`{word}` is not a value: text is written in quotes"),
            vec![format!("write \"{word}\" (or a number, `true` or `false`)")],
            at.map(|s| s.start..s.start + word.len()),
        ),
        "invalid string" => ("expected a value".to_string(), vec![value_help.to_string()], at),
        "invalid basic string" | "invalid literal string" => (
            "unfinished or invalid text in quotes".to_string(),
            vec!["text in quotes ends on the same line with its closing quote; in \"...\", `\\` starts an escape (`\\\\`, `\\\"`, `\\n`); \"\"\"...\"\"\" runs over several lines".to_string()],
            at,
        ),
        "invalid key" => (
            "invalid key".to_string(),
            vec!["a key is letters, digits, `_` and `-` (`max_laps`), or text in quotes".to_string()],
            at,
        ),
        "expected `.`, `=`" => (
            "expected `=` after the key".to_string(),
            vec!["a key and its value: `pits = 6`".to_string()],
            at,
        ),
        _ => {
            let mut notes = rest.clone();
            if head.starts_with("expected") {
                return located_syntax(or_list(head), notes, at);
            }
            notes.dedup();
            (plain_words(head), notes, at)
        }
    };
    let duplicate_table = rest
        .iter()
        .find(|l| l.starts_with("duplicate key") && l.ends_with("in document root"));
    if head == "invalid table header" {
        if let Some(dup) = duplicate_table {
            let name = dup.split('`').nth(1).unwrap_or_default();
            return located_syntax(
                format!("the table `[{name}]` is given twice"),
                vec![format!("put every key of `[{name}]` under one header")],
                at,
            );
        }
    }
    if let Some(rest) = head.strip_prefix("duplicate key `") {
        let key = rest.split('`').next().unwrap_or_default();
        let table = rest.split('`').nth(2).unwrap_or_default();
        return located_syntax(
            format!("`{key}` is given twice in `[{table}]`"),
            vec!["each key is given once in its table".to_string()],
            at,
        );
    }
    located_syntax(message, notes, at)
}

fn located_syntax(message: String, notes: Vec<String>, at: Option<Range<usize>>) -> Diagnostic {
    let mut d = Diagnostic::new(message);
    d.notes = notes;
    d.span = at;
    d
}

/// "expected `.`, `]`" → "expected `.` or `]`".
fn or_list(line: &str) -> String {
    match line.rsplit_once(", ") {
        Some((head, last)) if line.starts_with("expected") => format!("{head} or {last}"),
        _ => line.to_string(),
    }
}

/// The deserializer's words turned into a user's: Rust type names become what to write.
fn plain_words(message: &str) -> String {
    let mut out = message.replace("missing field", "missing key");
    // "expected struct Board": the name is the program's, not the file's.
    if let Some(at) = out.find("expected struct ") {
        let rest = &out[at + "expected struct ".len()..];
        let name_len = rest
            .find(|c: char| !c.is_alphanumeric() && c != '_')
            .unwrap_or(rest.len());
        out = format!("{}expected a table{}", &out[..at], &rest[name_len..]);
    }
    for (rust, plain) in [
        ("expected u8", "expected a whole number from 0 to 255"),
        ("expected u16", "expected a whole number of 0 or more"),
        ("expected u32", "expected a whole number of 0 or more"),
        ("expected u64", "expected a whole number of 0 or more"),
        ("expected i32", "expected a whole number"),
        ("expected i64", "expected a whole number"),
        ("expected a sequence", "expected a list `[...]`"),
        ("expected a boolean", "expected `true` or `false`"),
        ("expected a string", "expected text in quotes"),
        ("invalid type: string", "found the text"),
        ("invalid type: integer", "found the number"),
        ("invalid type: sequence", "found a list"),
        ("invalid type: map", "found a table"),
        ("invalid type: boolean", "found"),
        ("invalid type: floating point", "found the number"),
        ("invalid value: integer", "found the number"),
        (
            "wanted string or table",
            "expected one of the options, in quotes",
        ),
    ] {
        out = out.replace(rust, plain);
    }
    out
}

/// Compiles an expression given as a TOML string, reporting errors at their place in the file;
/// a misspelt name's suggestion comes with what that name means.
pub fn expr(
    text: &str,
    value: &Spanned<String>,
    scope: &Scope,
    ty: Type,
) -> Result<Expr, Diagnostic> {
    Expr::compile(value.get_ref(), scope, ty).map_err(|e| {
        let mut notes = e.notes;
        let meaning = notes.iter().find_map(|n| {
            let close = n.strip_prefix("did you mean `")?.strip_suffix("`?")?;
            let name = scope.get(close)?;
            let ty = match name.ty {
                Type::Int => "integer",
                Type::Bool => "boolean",
                Type::Player => "player",
            };
            Some(format!("`{close}` ({ty}): {}", name.help))
        });
        notes.extend(meaning);
        let inner = crate::diagnostics::SpannedError {
            span: e.span,
            message: e.message,
            notes,
        };
        Diagnostic::in_string(text, value, inner)
    })
}

/// The value of an expression that reads nothing (`"1 > 2"`, `"true"`), for the warnings
/// about conditions that always or never hold.
pub fn constant_value(e: &Expr) -> Option<i32> {
    if let Some(v) = e.constant_value() {
        return Some(v);
    }
    (!e.reads_any()).then(|| e.eval(&[][..]))
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
    fn checks_after_repairs_are_placed_in_the_text_as_written() {
        // A missing key (inserted), a wrong value of another width, an unknown key: the value
        // is read, and offsets in the repaired text map back.
        let text = "[board]\nstones = \"four\"\nstonse = 4\n[end]\nrepetition = 3\n";
        let reading = RulesDoc::parse(text).unwrap().read_all::<File>();
        let messages: Vec<&str> = reading.errors.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(reading.errors.len(), 4, "{messages:?}");
        assert!(messages.contains(&"missing key `pits`"), "{messages:?}");
        assert!(reading.value.is_some());
        for e in &reading.errors {
            let span = e.span.clone().unwrap();
            assert!(span.end <= text.len());
        }
        let repaired = reading.repairs.text(text);
        assert_ne!(repaired, text);
        assert!(reading.repairs.touched("board") && reading.repairs.touched("end"));
        // A check of the repaired text at `[end]` lands on `[end]` in the original.
        let end = repaired.find("[end]").unwrap();
        let d = Diagnostic::new("x").at(end..end + 5);
        let placed = reading.repairs.place(d).unwrap();
        assert_eq!(&text[placed.span.unwrap()], "[end]");
        // One about a repaired value is dropped.
        let pits = repaired.find("pits").unwrap();
        assert!(reading
            .repairs
            .place(Diagnostic::new("x").at(pits..pits + 4))
            .is_none());
    }

    #[test]
    fn a_wrong_option_is_replaced_by_one_it_names() {
        #[derive(Debug, Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct F {
            a: Kind,
            b: u8,
        }
        #[derive(Debug, Deserialize)]
        #[serde(rename_all = "kebab-case")]
        enum Kind {
            NoCapture,
        }
        let text = "a = 3\nb = \"x\"\n";
        let reading = RulesDoc::parse(text).unwrap().read_all::<F>();
        assert_eq!(reading.errors.len(), 2, "{:?}", reading.errors);
        assert!(reading.value.is_some());
        assert!(reading.repairs.text(text).contains("\"no-capture\""));
    }

    #[test]
    fn a_constant_is_known_without_a_position_and_a_name_read_is_not_one() {
        let scope = Scope::new()
            .var("last.count", Type::Int, 700, "stones in the last pit")
            .constant("mover", Type::Player, 0, "the player moving");
        let value = |text: &str| constant_value(&Expr::compile(text, &scope, Type::Bool).unwrap());
        assert_eq!(value("2 * 3 > 5 and 1 in [1, 2]"), Some(1));
        assert_eq!(value("mover != mover"), Some(0));
        assert_eq!(value("last.count > 100 or true"), None);
    }

    #[test]
    fn paths_name_the_key_at_an_offset() {
        let text = "[game]\nname = \"x\"\n[[moves.leave]]\npoint = 3\nwhen = \"a\"\n";
        let doc = RulesDoc::parse(text).unwrap();
        assert_eq!(doc.path_at(text.find("\"x\"").unwrap()), ["game", "name"]);
        assert_eq!(
            doc.path_at(text.find("when").unwrap()),
            ["moves", "leave", "when"]
        );
        assert_eq!(doc.path_at(text.find("[[").unwrap()), ["moves", "leave"]);
        assert_eq!(doc.path_at(0), ["game"]);
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
