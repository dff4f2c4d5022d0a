//! The tables notations (pest grammar `grammar/tables.pest`): start positions such as
//! `24:2 13:5 8:3 6:5`, `bar:9` or `pool:15`, and moves such as `24/18 13/11`, `bar/22`,
//! `pool/20`, `6/off`,
//! `24/18(2)`, `13/7*`, `24/18*/13`, `pass`, and `6/6` for the checkers of a point turned over
//! (`[stacks]`) — each side in its own point numbering.

use super::position::{Side, BAR, MAX_CHECKERS, OFF, POOL, SLOTS};
use ludus_core::diagnostics::SpannedError;
use pest::iterators::Pair;
use pest::Parser;
use std::ops::Range;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/tables.pest"]
struct TablesParser;

/// An error in a notation, located by byte offsets in the text.
pub type NotationError = SpannedError;

fn syntax_error(text: &str, e: pest::error::Error<Rule>, expected: &str) -> NotationError {
    NotationError::new(
        SpannedError::pest_span(text, &e),
        format!("expected {expected}"),
    )
}

fn span_of(pair: &Pair<Rule>) -> Range<usize> {
    pair.as_span().start()..pair.as_span().end()
}

/// A number in the text, bounded by `max`.
fn number(pair: &Pair<Rule>, max: u32, what: &str) -> Result<u8, NotationError> {
    match pair.as_str().parse::<u32>() {
        Ok(n) if n <= max => Ok(n as u8),
        _ => Err(NotationError::new(
            span_of(pair),
            format!(
                "{what} `{}` is out of range (at most {max})",
                ludus_core::limits::excerpt(pair.as_str())
            ),
        )),
    }
}

/// A place on a board of `points` points: a point, the bar, the pool or off.
fn place(pair: Pair<Rule>, points: usize) -> Result<u8, NotationError> {
    match pair.as_rule() {
        Rule::bar => Ok(BAR as u8),
        Rule::pool => Ok(POOL as u8),
        Rule::off => Ok(OFF as u8),
        _ => match number(&pair, points as u32, "point")? {
            0 => Err(NotationError::new(
                span_of(&pair),
                format!("points are numbered 1..{points} (use `off` for borne-off checkers)"),
            )),
            n => Ok(n),
        },
    }
}

/// A side's checkers from a start-position text on a board of `points` points.
pub fn parse_setup(text: &str, points: usize) -> Result<Side, NotationError> {
    let setup = TablesParser::parse(Rule::setup, text)
        .map_err(|e| {
            syntax_error(
                text,
                e,
                "entries `point:count` such as `24:2 13:5`, `bar:9` or `pool:15`",
            )
        })?
        .next()
        .expect("grammar: setup");
    let mut side = [0u8; SLOTS];
    let mut seen = [false; SLOTS];
    let mut total = 0u32;
    for entry in setup
        .into_inner()
        .filter(|p| p.as_rule() == Rule::placement)
    {
        let span = span_of(&entry);
        let mut parts = entry.into_inner();
        let at = place(parts.next().expect("grammar: place"), points)?;
        let count = number(
            &parts.next().expect("grammar: count"),
            u32::from(MAX_CHECKERS),
            "count",
        )?;
        if usize::from(at) == OFF && count > 0 {
            return Err(NotationError::new(
                span,
                "checkers start on the board, the bar or in the pool, not off",
            ));
        }
        if std::mem::replace(&mut seen[usize::from(at)], true) {
            return Err(NotationError::new(span, "this place is listed twice"));
        }
        total += u32::from(count);
        if total > u32::from(MAX_CHECKERS) {
            return Err(NotationError::new(
                span,
                format!("more than {MAX_CHECKERS} checkers"),
            ));
        }
        side[usize::from(at)] = count;
    }
    Ok(side)
}

/// One checker's path as typed: `from/to/to...`, possibly `(times)`; hits marked per landing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chain {
    pub from: u8,
    /// Landings in order, with whether a `*` marks a hit there.
    pub hops: Vec<(u8, bool)>,
    pub times: u8,
}

impl Chain {
    pub fn to(&self) -> u8 {
        self.hops.last().map_or(self.from, |h| h.0)
    }
}

/// A typed move on a board of `points` points: its checker paths (none for `pass`).
pub fn parse_turn(text: &str, points: usize) -> Result<Vec<Chain>, NotationError> {
    let turn = TablesParser::parse(Rule::turn, text)
        .map_err(|e| {
            syntax_error(
                text,
                e,
                "a move such as `24/18 13/11`, `bar/22`, `pool/20`, `6/off`, `24/18(2)`, `13/7*` or `pass`",
            )
        })?
        .next()
        .expect("grammar: turn");
    let mut chains = Vec::new();
    for part in turn.into_inner().filter(|p| p.as_rule() == Rule::chain) {
        let mut chain = Chain {
            from: 0,
            hops: Vec::new(),
            times: 1,
        };
        for item in part.into_inner() {
            match item.as_rule() {
                Rule::from => {
                    chain.from = place(item.into_inner().next().expect("grammar: from"), points)?
                }
                Rule::to => {
                    let mut inner = item.into_inner();
                    let at = inner.next().expect("grammar: to");
                    let span = span_of(&at);
                    let point = place(at, points)?;
                    let last = chain.hops.last().map_or(chain.from, |h| h.0);
                    if last == OFF as u8 {
                        return Err(NotationError::new(span, "nothing moves on after `off`"));
                    }
                    // `n/n`: checkers of point n turned over (`[stacks]`), or `n/n*`: a die
                    // striking there (`[[moves.strike]]`); no checker moving.
                    let turned = point == last && chain.hops.is_empty();
                    if point != OFF as u8 && point >= last && !turned {
                        return Err(NotationError::new(
                            span,
                            format!("checkers move towards point 1: {point} is not below {last}"),
                        ));
                    }
                    chain.hops.push((point, inner.next().is_some()));
                }
                _ => {
                    let n = item.into_inner().next().expect("grammar: times");
                    chain.times = number(&n, 6, "repeat count")?;
                }
            }
        }
        chains.push(chain);
    }
    Ok(chains)
}

fn place_text(n: u8) -> String {
    match usize::from(n) {
        BAR => "bar".to_string(),
        POOL => "pool".to_string(),
        OFF => "off".to_string(),
        n => n.to_string(),
    }
}

/// The usual text of a move given as steps `[from, to]` with whether each hit: one checker's
/// consecutive steps are joined (`24/13`, with the point shown where it hits: `24/18*/13`),
/// equal paths counted (`13/7(2)`), paths from the highest point first. With `every_landing`
/// (rules that remember what a step did), each step as played, in order: `24/18 18/13`.
pub fn format_move(steps: &[([u8; 2], bool)], every_landing: bool) -> String {
    if steps.is_empty() {
        return "pass".to_string();
    }
    if every_landing {
        // Each step as played, in order: moves to one position may differ by their order.
        let each: Vec<String> = steps
            .iter()
            .map(|&([from, to], hit)| {
                format!(
                    "{}/{}{}",
                    place_text(from),
                    place_text(to),
                    if hit { "*" } else { "" }
                )
            })
            .collect();
        return each.join(" ");
    }
    let mut chains: Vec<Chain> = Vec::new();
    for &([from, to], hit) in steps {
        // A step that moves nothing (`n/n`) is a chain of its own.
        match chains
            .iter_mut()
            .rev()
            .find(|c| c.to() == from && from != OFF as u8 && from != to && c.from != c.to())
        {
            Some(c) => {
                if let Some(last) = c.hops.last_mut().filter(|h| !h.1) {
                    *last = (to, hit);
                } else {
                    c.hops.push((to, hit));
                }
            }
            None => chains.push(Chain {
                from,
                hops: vec![(to, hit)],
                times: 1,
            }),
        }
    }
    chains.sort_by_key(|c| std::cmp::Reverse((c.from, c.to())));
    let mut parts: Vec<(String, u8)> = Vec::new();
    for c in &chains {
        let mut s = place_text(c.from);
        for &(at, hit) in &c.hops {
            s.push('/');
            s.push_str(&place_text(at));
            if hit {
                s.push('*');
            }
        }
        match parts.last_mut() {
            Some((last, n)) if *last == s => *n += 1,
            _ => parts.push((s, 1)),
        }
    }
    parts
        .into_iter()
        .map(|(s, n)| if n > 1 { format!("{s}({n})") } else { s })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A side's checkers in the start-position notation, highest point first (`bar:9 24:2`).
pub fn format_setup(side: &Side) -> String {
    (0..SLOTS)
        .rev()
        .filter(|&n| side[n] > 0)
        .map(|n| format!("{}:{}", place_text(n as u8), side[n]))
        .collect::<Vec<_>>()
        .join(" ")
}
