//! Located error reports for rules files: `file:line:column`, the line shown, a caret under the
//! spot; also as JSON for tools.

use std::ops::Range;

/// One problem found in a rules file. `span` is a byte range in the file's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub message: String,
    pub span: Option<Range<usize>>,
    /// Extra lines of help ("expected one of ...").
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn new(message: impl Into<String>) -> Self {
        Diagnostic {
            message: message.into(),
            span: None,
            notes: Vec::new(),
        }
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
