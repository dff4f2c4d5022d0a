//! A light tokenizer over expression text, used before pest runs (bracket matching and limits
//! that keep the recursive parser's stack bounded) and to quote whole tokens in errors.
//!
//! It runs in one pass with bounded memory, so even hostile text costs linear time.

use super::ExprError;
use std::ops::Range;

/// Deepest nesting of brackets accepted, checked before pest runs: pest recurses through every
/// precedence level (8 rules) per bracket, about 12 KiB of stack per bracket in a debug build
/// (under 2 KiB optimised), and refuses to go on with less than 64 KiB of stack left. At 12,
/// the deepest accepted expression parses on a 256 KiB thread even unoptimised.
pub const MAX_NESTING: usize = crate::limits::LIMITS.expr_brackets;
/// Longest run of prefix operators (`not`, unary `-`) accepted: with its operand, as deep as a
/// tree may be.
pub const MAX_PREFIX_RUN: usize = super::parse::MAX_DEPTH as usize - 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    /// A name, possibly dotted (`last.count`), or a keyword.
    Word,
    /// Digits, with any letters glued on (`2abc` is one token).
    Number,
    Open,
    Close,
    Space,
    /// An operator or any other character.
    Punct,
}

fn ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Operators of two characters, plus common ones from other languages (quoted whole in errors).
const PAIRS: [&str; 7] = ["==", "!=", "<=", ">=", "..", "&&", "||"];

/// The token that starts at byte `at` (a character boundary before the end) and where it ends.
pub fn token(text: &str, at: usize) -> (Tok, usize) {
    let b = text.as_bytes();
    let mut i = at;
    let c = b[at];
    if ident_start(c) {
        loop {
            while i < b.len() && ident_char(b[i]) {
                i += 1;
            }
            if i + 1 < b.len() && b[i] == b'.' && ident_start(b[i + 1]) {
                i += 1;
            } else {
                return (Tok::Word, i);
            }
        }
    }
    if c.is_ascii_digit() {
        while i < b.len() && ident_char(b[i]) {
            i += 1;
        }
        return (Tok::Number, i);
    }
    match c {
        b'(' | b'[' => (Tok::Open, at + 1),
        b')' | b']' => (Tok::Close, at + 1),
        b' ' | b'\t' | b'\r' | b'\n' => {
            while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\r' | b'\n') {
                i += 1;
            }
            (Tok::Space, i)
        }
        _ => {
            if PAIRS.iter().any(|p| text[at..].starts_with(p)) {
                return (Tok::Punct, at + 2);
            }
            let len = text[at..].chars().next().map_or(1, char::len_utf8);
            (Tok::Punct, at + len)
        }
    }
}

/// The whole token at or after byte `at` (skipping spaces); empty at the end of the text.
pub fn token_at(text: &str, at: usize) -> Range<usize> {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    while at < text.len() {
        match token(text, at) {
            (Tok::Space, end) => at = end,
            (_, end) => return at..end,
        }
    }
    at..at
}

fn closer(open: u8) -> char {
    if open == b'(' {
        ')'
    } else {
        ']'
    }
}

fn syntax(span: Range<usize>, message: String) -> ExprError {
    ExprError::new(span, format!("syntax error: {message}"))
}

/// Checks brackets (each closed, by its own kind, nested at most [`MAX_NESTING`] deep) and runs
/// of prefix operators, before the recursive parser sees the text.
pub fn prescan(text: &str) -> Result<(), ExprError> {
    // Open brackets: byte offset and `(` or `[`; never longer than MAX_NESTING + 1.
    let mut open: Vec<(usize, u8)> = Vec::new();
    let mut run = 0usize;
    let mut run_start = 0usize;
    let mut after_operand = false;
    let mut at = 0;
    while at < text.len() {
        let (tok, end) = token(text, at);
        let word = &text[at..end];
        if tok != Tok::Space {
            let prefix = match tok {
                Tok::Word => word == "not",
                Tok::Punct => word == "-" && !after_operand,
                _ => false,
            };
            if prefix {
                if run == 0 {
                    run_start = at;
                }
                run += 1;
                if run > MAX_PREFIX_RUN {
                    return Err(ExprError::new(
                        run_start..end,
                        format!("too many `not`/`-` in a row (at most {MAX_PREFIX_RUN})"),
                    ));
                }
            } else {
                run = 0;
            }
            after_operand = match tok {
                Tok::Word => !matches!(word, "not" | "and" | "or" | "in"),
                Tok::Number | Tok::Close => true,
                _ => false,
            };
        }
        match tok {
            Tok::Open => {
                open.push((at, text.as_bytes()[at]));
                if open.len() > MAX_NESTING {
                    return Err(ExprError::new(
                        at..end,
                        format!("brackets nested too deeply: more than {MAX_NESTING} levels"),
                    ));
                }
            }
            Tok::Close => {
                let close = char::from(text.as_bytes()[at]);
                match open.pop() {
                    None => {
                        let opener = if close == ')' { '(' } else { '[' };
                        return Err(syntax(
                            at..end,
                            format!(
                                "this `{close}` closes nothing: no `{opener}` is open before it"
                            ),
                        ));
                    }
                    Some((o, kind)) if closer(kind) != close => {
                        let mut e = syntax(
                            o..o + 1,
                            format!("this `{}` is never closed", char::from(kind)),
                        );
                        e.notes
                            .push(format!("a `{close}` comes before its `{}`", closer(kind)));
                        return Err(e);
                    }
                    Some(_) => {}
                }
            }
            _ => {}
        }
        at = end;
    }
    if let Some(&(o, kind)) = open.last() {
        let mut e = syntax(
            o..o + 1,
            format!("this `{}` is never closed", char::from(kind)),
        );
        match open.len() - 1 {
            0 => {}
            1 => e
                .notes
                .push("one more bracket before it is never closed either".into()),
            n => e.notes.push(format!(
                "{n} more brackets before it are never closed either"
            )),
        }
        return Err(e);
    }
    Ok(())
}
