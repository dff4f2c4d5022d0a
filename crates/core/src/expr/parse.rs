//! Expression text → typed syntax tree with spans (pest grammar `grammar/expr.pest`).

use super::scan::{self, Tok};
use super::{one_of, ExprError};
use pest::iterators::Pairs;
use pest::{Parser, Token};
use std::ops::Range;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/expr.pest"]
struct ExprParser;

/// Longest expression text accepted; rules files are untrusted input.
pub const MAX_LEN: usize = crate::limits::LIMITS.expr_bytes;
/// Deepest syntax tree accepted (checking and compiling recurse on it).
pub const MAX_DEPTH: u16 = crate::limits::LIMITS.expr_depth;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "or",
            BinOp::And => "and",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Set {
    /// The items and the span of the whole list, brackets included.
    List(Vec<Node>, Range<usize>),
    Range(Box<Node>, Box<Node>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Int(i32),
    Bool(bool),
    Name(String),
    Call(String, Range<usize>, Vec<Node>),
    Neg(Box<Node>),
    Not(Box<Node>),
    Binary(BinOp, Box<Node>, Box<Node>),
    In(Box<Node>, Set),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub kind: Kind,
    pub span: Range<usize>,
    /// Height of the tree below and including this node.
    pub depth: u16,
}

impl Node {
    pub(super) fn new(kind: Kind, span: Range<usize>) -> Result<Node, ExprError> {
        let below = |n: &Node| n.depth;
        let depth = 1 + match &kind {
            Kind::Int(_) | Kind::Bool(_) | Kind::Name(_) => 0,
            Kind::Call(_, _, args) => args.iter().map(below).max().unwrap_or(0),
            Kind::Neg(n) | Kind::Not(n) => n.depth,
            Kind::Binary(_, a, b) => a.depth.max(b.depth),
            Kind::In(v, Set::List(items, _)) => {
                items.iter().map(below).max().unwrap_or(0).max(v.depth)
            }
            Kind::In(v, Set::Range(lo, hi)) => v.depth.max(lo.depth).max(hi.depth),
        };
        if depth > MAX_DEPTH {
            let mut e = ExprError::new(
                span,
                format!("expression nested too deeply: more than {MAX_DEPTH} levels"),
            );
            e.notes.push(format!(
                "every operator is a level: a chain `a and b and c …` may have at most \
                 {MAX_DEPTH} terms"
            ));
            return Err(e);
        }
        Ok(Node { kind, span, depth })
    }
}

/// Parses `text`; `example` is a name of the scope, quoted in "expected a name such as …".
pub fn parse(text: &str, example: Option<&str>) -> Result<Node, ExprError> {
    if text.len() > MAX_LEN {
        return Err(ExprError::new(
            0..text.len(),
            format!(
                "expression too long: {} bytes, at most {MAX_LEN}",
                text.len()
            ),
        ));
    }
    if text.trim_matches([' ', '\t', '\r', '\n']).is_empty() {
        return Err(ExprError::new(
            0..text.len(),
            "syntax error: the expression is empty",
        ));
    }
    // Brackets are matched and their nesting bounded before pest, which recurses on them.
    scan::prescan(text)?;
    let pairs =
        ExprParser::parse(Rule::expression, text).map_err(|e| syntax_error(text, &e, example))?;
    build(text, pairs)
}

/// What a parse error may expect, in the order messages list them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Want {
    Value,
    List,
    Range,
    Logic,
    Compare,
    In,
    Arith,
    Dots,
    Comma,
    RParen,
    RBracket,
    End,
}

fn want(rule: Rule) -> Option<Want> {
    Some(match rule {
        Rule::or_expr
        | Rule::and_expr
        | Rule::not_expr
        | Rule::comparison
        | Rule::sum
        | Rule::product
        | Rule::unary
        | Rule::integer
        | Rule::boolean
        | Rule::call
        | Rule::name
        | Rule::ident => Want::Value,
        Rule::set => return None, // as list and range, below
        Rule::list => Want::List,
        Rule::range => Want::Range,
        Rule::or_op | Rule::and_op => Want::Logic,
        Rule::cmp_op => Want::Compare,
        Rule::in_op => Want::In,
        Rule::add_op | Rule::mul_op => Want::Arith,
        Rule::dots => Want::Dots,
        Rule::comma => Want::Comma,
        Rule::rparen => Want::RParen,
        Rule::rbracket => Want::RBracket,
        Rule::EOI => Want::End,
        // A prefix operator may always start a value; the others are parts of tokens.
        _ => return None,
    })
}

/// What the parser expected, in words: "a number, a name such as `x`, or `(`".
fn expected(positives: &[Rule], example: Option<&str>) -> String {
    let mut wants: Vec<Want> = Vec::new();
    for &rule in positives {
        if rule == Rule::set {
            wants.extend([Want::List, Want::Range]);
        } else if let Some(w) = want(rule) {
            wants.push(w);
        }
    }
    wants.sort_unstable();
    wants.dedup();
    let mut items: Vec<String> = Vec::new();
    let mut operators: Vec<&str> = Vec::new();
    for w in wants {
        match w {
            Want::Value => {
                items.push("a number".into());
                items.push(match example {
                    Some(name) => format!("a name such as `{name}`"),
                    None => "a name".into(),
                });
                items.push("`(`".into());
            }
            Want::List => items.push("a list such as `[2, 3]`".into()),
            Want::Range => items.push("a range such as `2..3`".into()),
            Want::Logic => operators.push("`and`"),
            Want::Compare => operators.push("`==`"),
            Want::In => operators.push("`in`"),
            Want::Arith => operators.push("`+`"),
            Want::Dots => items.push("`..`".into()),
            Want::Comma => items.push("`,`".into()),
            Want::RParen => items.push("`)`".into()),
            Want::RBracket => items.push("`]`".into()),
            Want::End => items.push("the end of the expression".into()),
        }
    }
    if !operators.is_empty() {
        // Operators come first: after a complete value, an operator is the likeliest want.
        items.insert(0, format!("an operator ({}, …)", operators.join(", ")));
    }
    one_of(&items)
}

/// A token as an error quotes it: whole, shortened when long, control characters by number.
fn quote(token: &str) -> String {
    if token.is_empty() {
        return "the end of the expression".into();
    }
    let mut chars = token.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        if c.is_whitespace() || c.is_control() || c == '`' {
            return format!("the character U+{:04X}", u32::from(c));
        }
    }
    const SHOWN: usize = 40;
    match token.char_indices().nth(SHOWN) {
        Some((cut, _)) => format!("`{}…`", &token[..cut]),
        None => format!("`{token}`"),
    }
}

/// The bracket open at byte `at`, if any (`(` or `[`). Brackets are balanced and shallow here
/// (the prescan checked them).
fn open_bracket_at(text: &str, at: usize) -> Option<u8> {
    let mut open: Vec<u8> = Vec::new();
    let mut i = 0;
    while i < at.min(text.len()) {
        let (tok, end) = scan::token(text, i);
        match tok {
            Tok::Open => open.push(text.as_bytes()[i]),
            Tok::Close => {
                open.pop();
            }
            _ => {}
        }
        i = end;
    }
    open.last().copied()
}

/// A hint for a token from another language or a common slip.
fn hint(text: &str, token: &str, at: usize) -> Option<&'static str> {
    let before = &text[..at];
    Some(match token {
        "=" if before.ends_with("==") => "there is no `===`: write `==`",
        "=" if before.ends_with("!=") => "there is no `!==`: write `!=`",
        "=" => "to compare, write `==`",
        "&&" | "&" => "write `and`",
        "||" | "|" => "write `or`",
        "!" => "write `not`",
        ".." if open_bracket_at(text, at) == Some(b'[') => {
            "a range is written without brackets: `x in 2..3`"
        }
        "," if open_bracket_at(text, at).is_none() => "a list needs brackets: `x in [2, 3]`",
        "." if before.ends_with(|c: char| c.is_ascii_digit()) => {
            "numbers are whole: there are no decimals"
        }
        _ => return None,
    })
}

fn syntax_error(text: &str, e: &pest::error::Error<Rule>, example: Option<&str>) -> ExprError {
    let at = ExprError::pest_span(text, e).start;
    let span = scan::token_at(text, at);
    let token = &text[span.clone()];
    let found = quote(token);
    let message = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let expected = expected(positives, example);
            if expected.is_empty() {
                format!("syntax error: unexpected {found}")
            } else {
                format!("syntax error: expected {expected}, found {found}")
            }
        }
        // Only pest's own limits (stack, calls), which the prescan keeps out of reach.
        pest::error::ErrorVariant::CustomError { .. } => {
            return ExprError::new(0..text.len(), "expression too complex to parse")
        }
    };
    let mut err = ExprError::new(span.clone(), message);
    if let Some(h) = hint(text, token, span.start) {
        err.notes.push(h.into());
    }
    err
}

fn join(a: &Range<usize>, b: &Range<usize>) -> Range<usize> {
    a.start.min(b.start)..a.end.max(b.end)
}

/// The operator a grammar token spells.
fn bin_op(token: &str) -> BinOp {
    match token {
        "or" => BinOp::Or,
        "and" => BinOp::And,
        "==" => BinOp::Eq,
        "!=" => BinOp::Ne,
        "<" => BinOp::Lt,
        "<=" => BinOp::Le,
        ">" => BinOp::Gt,
        ">=" => BinOp::Ge,
        "+" => BinOp::Add,
        "-" => BinOp::Sub,
        "*" => BinOp::Mul,
        "/" => BinOp::Div,
        _ => BinOp::Rem,
    }
}

/// A finished grammar rule, waiting for its parent rule to end.
enum Item {
    Node(Node),
    /// A binary operator.
    Op(BinOp),
    /// `not` or unary `-`, starting at this offset.
    Prefix(usize, fn(Box<Node>) -> Kind),
    In,
    Set(Set),
}

/// Builds the syntax tree from pest's flat token stream with an explicit stack, so building
/// never recurses however deep the input nests: each rule's items are combined when it ends.
fn build(text: &str, pairs: Pairs<Rule>) -> Result<Node, ExprError> {
    // Rules started and not yet ended: start offset and the items of their ended children.
    let mut open: Vec<(usize, Vec<Item>)> = vec![(0, Vec::new())];
    for token in pairs.tokens() {
        match token {
            Token::Start { pos, .. } => open.push((pos.pos(), Vec::new())),
            Token::End { rule, pos } => {
                let (start, items) = open.pop().expect("grammar: tokens nest");
                let span = start..pos.pos();
                if let Some(item) = finish(rule, &text[span.clone()], span, items)? {
                    open.last_mut().expect("grammar: tokens nest").1.push(item);
                }
            }
        }
    }
    let (_, mut items) = open.pop().expect("grammar: tokens nest");
    match (items.pop(), items.is_empty()) {
        (Some(Item::Node(node)), true) => Ok(node),
        _ => unreachable!("grammar: an expression is one node"),
    }
}

fn node(item: Item) -> Node {
    match item {
        Item::Node(n) => n,
        _ => unreachable!("grammar: expected an operand"),
    }
}

/// Combines the items of a rule that just ended (`source` is its text) into one item for its
/// parent, or none (punctuation, end of input).
fn finish(
    rule: Rule,
    source: &str,
    span: Range<usize>,
    items: Vec<Item>,
) -> Result<Option<Item>, ExprError> {
    let mut items = items.into_iter();
    let item = match rule {
        Rule::integer => match source.parse::<i32>() {
            Ok(v) => Item::Node(Node::new(Kind::Int(v), span)?),
            Err(_) => {
                return Err(ExprError::new(
                    span,
                    format!("number too large: the largest is {}", i32::MAX),
                ))
            }
        },
        Rule::boolean => Item::Node(Node::new(Kind::Bool(source == "true"), span)?),
        Rule::name => Item::Node(Node::new(Kind::Name(source.to_string()), span)?),
        Rule::or_op | Rule::and_op | Rule::cmp_op | Rule::add_op | Rule::mul_op => {
            Item::Op(bin_op(source))
        }
        Rule::not_op => Item::Prefix(span.start, Kind::Not),
        Rule::neg_op => Item::Prefix(span.start, Kind::Neg),
        Rule::in_op => Item::In,
        // `x (op x)*`, left-associative.
        Rule::or_expr | Rule::and_expr | Rule::sum | Rule::product => {
            let mut left = node(items.next().expect("grammar: chain head"));
            while let Some(Item::Op(op)) = items.next() {
                let right = node(items.next().expect("grammar: chain operand"));
                let span = join(&left.span, &right.span);
                left = Node::new(Kind::Binary(op, Box::new(left), Box::new(right)), span)?;
            }
            Item::Node(left)
        }
        // `prefix* x`, the innermost prefix applied first.
        Rule::not_expr | Rule::unary => {
            let mut items: Vec<Item> = items.collect();
            let mut operand = node(items.pop().expect("grammar: operand"));
            while let Some(Item::Prefix(at, wrap)) = items.pop() {
                let span = at..operand.span.end;
                operand = Node::new(wrap(Box::new(operand)), span)?;
            }
            if rule == Rule::unary {
                // `-x`, or a bracketed group with its brackets (a unary ends with its atom).
                operand.span = span;
            }
            Item::Node(operand)
        }
        // Spanned from operand to operand: pest's span of the rule may end in spaces.
        Rule::comparison => {
            let left = node(items.next().expect("grammar: comparison"));
            match (items.next(), items.next()) {
                (None, _) => Item::Node(left),
                (Some(Item::In), Some(Item::Set(set))) => {
                    let end = match &set {
                        Set::List(_, list) => list.end,
                        Set::Range(_, hi) => hi.span.end,
                    };
                    let span = left.span.start..end;
                    Item::Node(Node::new(Kind::In(Box::new(left), set), span)?)
                }
                (Some(Item::Op(op)), Some(right)) => {
                    let right = node(right);
                    let span = join(&left.span, &right.span);
                    Item::Node(Node::new(
                        Kind::Binary(op, Box::new(left), Box::new(right)),
                        span,
                    )?)
                }
                _ => unreachable!("grammar: comparison"),
            }
        }
        Rule::set => items.next().expect("grammar: set"),
        Rule::list => Item::Set(Set::List(items.map(node).collect(), span)),
        Rule::range => {
            let lo = node(items.next().expect("grammar: range"));
            let hi = node(items.next().expect("grammar: range"));
            Item::Set(Set::Range(Box::new(lo), Box::new(hi)))
        }
        Rule::call => {
            let name = node(items.next().expect("grammar: call name"));
            let Kind::Name(called) = name.kind else {
                unreachable!("grammar: call name")
            };
            let args = items.map(node).collect();
            Item::Node(Node::new(Kind::Call(called, name.span, args), span)?)
        }
        // The whole expression: its one node, for the bottom of the stack.
        Rule::expression => items.next().expect("grammar: expression"),
        // Punctuation and the end of input add nothing.
        _ => return Ok(None),
    };
    Ok(Some(item))
}
