//! Named sub-expressions (a rules file's `[define]`): each name stands for its expression,
//! written in place of the name wherever an expression uses it, before the expression is
//! checked against the scope of its place. So a definition costs nothing when the game is
//! played, and means in each place what its text means there.

use super::parse::{parse, Kind, Node, Set, MAX_DEPTH, MAX_LEN};
use super::ExprError;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

/// Most nodes an expression may have once its definitions are written in: as many as the
/// longest expression could have, so that definitions using definitions cannot multiply an
/// expression beyond what could be written out.
const MAX_NODES: usize = MAX_LEN;

/// The definitions of a rules file, each written out in full (definitions it uses included).
#[derive(Debug, Default)]
pub struct Definitions {
    defs: Vec<Definition>,
}

#[derive(Debug)]
struct Definition {
    name: String,
    node: Node,
    used: AtomicBool,
}

/// A definition that cannot be used, with the index of the entry at fault.
#[derive(Debug)]
pub struct DefinitionError {
    pub index: usize,
    pub error: ExprError,
}

impl Definitions {
    /// The definitions `entries` (name, text) in the order given; a definition may use any
    /// other, but none may use itself, even through others.
    pub fn new(entries: &[(&str, &str)]) -> Result<Definitions, DefinitionError> {
        let mut parsed = Vec::new();
        for (index, (name, text)) in entries.iter().enumerate() {
            let valid = name.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
                && name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
            if !valid {
                return Err(DefinitionError {
                    index,
                    error: ExprError::new(
                        0..text.len(),
                        format!(
                            "`{name}` cannot be a name: use lower-case letters, digits and `_`, \
                             beginning with a letter"
                        ),
                    ),
                });
            }
            let node = parse(text, None).map_err(|error| DefinitionError { index, error })?;
            parsed.push((name.to_string(), node));
        }
        // Written out in an order where each comes after those it uses.
        let mut done: Vec<Option<Node>> = vec![None; parsed.len()];
        for start in 0..parsed.len() {
            let mut path = Vec::new();
            expand(&parsed, &mut done, start, &mut path)?;
        }
        Ok(Definitions {
            defs: parsed
                .into_iter()
                .zip(done)
                .map(|((name, _), node)| Definition {
                    name,
                    node: node.expect("every definition written out"),
                    used: AtomicBool::new(false),
                })
                .collect(),
        })
    }

    pub fn is_empty(&self) -> bool {
        self.defs.is_empty()
    }

    /// `node` with every name a definition gives written out (`reserved`: names the place's
    /// scope has, which keep their own meaning); an error when the result grows too deep or
    /// too large.
    pub fn write_in(&self, node: Node, reserved: &dyn Fn(&str) -> bool) -> Result<Node, ExprError> {
        let mut nodes = 0;
        self.substitute(node, reserved, &mut nodes)
    }

    /// The names no expression used so far.
    pub fn unused(&self) -> impl Iterator<Item = &str> {
        self.defs
            .iter()
            .filter(|d| !d.used.load(Ordering::Relaxed))
            .map(|d| d.name.as_str())
    }

    fn substitute(
        &self,
        node: Node,
        reserved: &dyn Fn(&str) -> bool,
        nodes: &mut usize,
    ) -> Result<Node, ExprError> {
        let span = node.span.clone();
        if let Kind::Name(name) = &node.kind {
            if let Some(d) = self
                .defs
                .iter()
                .find(|d| &d.name == name && !reserved(name))
            {
                d.used.store(true, Ordering::Relaxed);
                *nodes += count(&d.node);
                check_size(*nodes, &span)?;
                return Ok(respan(d.node.clone(), &span));
            }
        }
        *nodes += 1;
        check_size(*nodes, &span)?;
        // The tree is at most `MAX_DEPTH` deep: so is this recursion.
        let mut sub = |n: Box<Node>| self.substitute(*n, reserved, nodes).map(Box::new);
        let kind = match node.kind {
            Kind::Call(name, at, args) => {
                let mut out = Vec::with_capacity(args.len());
                for a in args {
                    out.push(self.substitute(a, reserved, nodes)?);
                }
                Kind::Call(name, at, out)
            }
            Kind::Neg(n) => Kind::Neg(sub(n)?),
            Kind::Not(n) => Kind::Not(sub(n)?),
            Kind::Binary(op, a, b) => Kind::Binary(op, sub(a)?, sub(b)?),
            Kind::In(v, Set::List(items, at)) => {
                let v = sub(v)?;
                let mut out = Vec::with_capacity(items.len());
                for i in items {
                    out.push(self.substitute(i, reserved, nodes)?);
                }
                Kind::In(v, Set::List(out, at))
            }
            Kind::In(v, Set::Range(lo, hi)) => Kind::In(sub(v)?, Set::Range(sub(lo)?, sub(hi)?)),
            leaf => leaf,
        };
        Node::new(kind, span)
    }
}

/// Writes out definition `i` (and those it uses) into `done`; `path` holds the definitions
/// being written out, to find one that uses itself.
fn expand(
    parsed: &[(String, Node)],
    done: &mut [Option<Node>],
    i: usize,
    path: &mut Vec<usize>,
) -> Result<(), DefinitionError> {
    if done[i].is_some() {
        return Ok(());
    }
    if let Some(at) = path.iter().position(|&j| j == i) {
        let cycle: Vec<&str> = path[at..]
            .iter()
            .chain([&i])
            .map(|&j| parsed[j].0.as_str())
            .collect();
        return Err(DefinitionError {
            index: i,
            error: ExprError::new(
                parsed[i].1.span.clone(),
                format!("a definition uses itself: {}", cycle.join(" → ")),
            ),
        });
    }
    path.push(i);
    let mut uses = Vec::new();
    names(&parsed[i].1, &mut uses);
    for name in uses {
        if let Some(j) = parsed.iter().position(|(n, _)| *n == name) {
            expand(parsed, done, j, path)?;
        }
    }
    path.pop();
    let written = Definitions {
        defs: parsed
            .iter()
            .zip(done.iter())
            .filter_map(|((name, _), node)| {
                Some(Definition {
                    name: name.clone(),
                    node: node.clone()?,
                    used: AtomicBool::new(false),
                })
            })
            .collect(),
    };
    let node = written
        .write_in(parsed[i].1.clone(), &|_| false)
        .map_err(|error| DefinitionError { index: i, error })?;
    done[i] = Some(node);
    Ok(())
}

/// The plain names `node` reads.
fn names(node: &Node, out: &mut Vec<String>) {
    match &node.kind {
        Kind::Name(n) => out.push(n.clone()),
        Kind::Call(_, _, args) => args.iter().for_each(|a| names(a, out)),
        Kind::Neg(n) | Kind::Not(n) => names(n, out),
        Kind::Binary(_, a, b) => {
            names(a, out);
            names(b, out);
        }
        Kind::In(v, Set::List(items, _)) => {
            names(v, out);
            items.iter().for_each(|i| names(i, out));
        }
        Kind::In(v, Set::Range(lo, hi)) => {
            names(v, out);
            names(lo, out);
            names(hi, out);
        }
        Kind::Int(_) | Kind::Bool(_) => {}
    }
}

fn count(node: &Node) -> usize {
    1 + match &node.kind {
        Kind::Call(_, _, args) => args.iter().map(count).sum(),
        Kind::Neg(n) | Kind::Not(n) => count(n),
        Kind::Binary(_, a, b) => count(a) + count(b),
        Kind::In(v, Set::List(items, _)) => count(v) + items.iter().map(count).sum::<usize>(),
        Kind::In(v, Set::Range(lo, hi)) => count(v) + count(lo) + count(hi),
        Kind::Int(_) | Kind::Bool(_) | Kind::Name(_) => 0,
    }
}

fn check_size(nodes: usize, span: &Range<usize>) -> Result<(), ExprError> {
    if nodes > MAX_NODES {
        let mut e = ExprError::new(
            span.clone(),
            format!("expression too large once its definitions are written in: more than {MAX_NODES} terms"),
        );
        e.notes
            .push(format!("an expression may be at most {MAX_DEPTH} levels deep and {MAX_LEN} bytes long, definitions written in"));
        return Err(e);
    }
    Ok(())
}

/// `node` located wholly at `span` (the name it stands for), so that an error in it is
/// reported where the name is used.
fn respan(node: Node, span: &Range<usize>) -> Node {
    let kind = match node.kind {
        Kind::Call(name, _, args) => Kind::Call(
            name,
            span.clone(),
            args.into_iter().map(|a| respan(a, span)).collect(),
        ),
        Kind::Neg(n) => Kind::Neg(Box::new(respan(*n, span))),
        Kind::Not(n) => Kind::Not(Box::new(respan(*n, span))),
        Kind::Binary(op, a, b) => {
            Kind::Binary(op, Box::new(respan(*a, span)), Box::new(respan(*b, span)))
        }
        Kind::In(v, Set::List(items, _)) => Kind::In(
            Box::new(respan(*v, span)),
            Set::List(
                items.into_iter().map(|i| respan(i, span)).collect(),
                span.clone(),
            ),
        ),
        Kind::In(v, Set::Range(lo, hi)) => Kind::In(
            Box::new(respan(*v, span)),
            Set::Range(Box::new(respan(*lo, span)), Box::new(respan(*hi, span))),
        ),
        leaf => leaf,
    };
    Node {
        kind,
        span: span.clone(),
        depth: node.depth,
    }
}
