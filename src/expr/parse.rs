//! Expression text → typed syntax tree with spans (pest grammar `grammar/expr.pest`).

use super::ExprError;
use pest::iterators::Pair;
use pest::Parser;
use std::ops::Range;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/expr.pest"]
struct ExprParser;

/// Longest expression text accepted; rules files are untrusted input.
const MAX_LEN: usize = 2000;
/// Deepest nesting of brackets accepted (the parser recurses on them).
const MAX_NESTING: usize = 24;
/// Deepest syntax tree accepted (checking and compiling recurse on it).
const MAX_DEPTH: u16 = 64;

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
    List(Vec<Node>),
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
    fn new(kind: Kind, span: Range<usize>) -> Result<Node, ExprError> {
        let below = |n: &Node| n.depth;
        let depth = 1 + match &kind {
            Kind::Int(_) | Kind::Bool(_) | Kind::Name(_) => 0,
            Kind::Call(_, _, args) => args.iter().map(below).max().unwrap_or(0),
            Kind::Neg(n) | Kind::Not(n) => n.depth,
            Kind::Binary(_, a, b) => a.depth.max(b.depth),
            Kind::In(v, Set::List(items)) => {
                items.iter().map(below).max().unwrap_or(0).max(v.depth)
            }
            Kind::In(v, Set::Range(lo, hi)) => v.depth.max(lo.depth).max(hi.depth),
        };
        if depth > MAX_DEPTH {
            return Err(ExprError::new(
                span,
                format!("expression nested deeper than {MAX_DEPTH}"),
            ));
        }
        Ok(Node { kind, span, depth })
    }
}

pub fn parse(text: &str) -> Result<Node, ExprError> {
    if text.len() > MAX_LEN {
        return Err(ExprError::new(
            0..text.len(),
            format!("expression longer than {MAX_LEN} characters"),
        ));
    }
    check_nesting(text)?;
    let mut pairs = ExprParser::parse(Rule::expression, text).map_err(|e| syntax_error(text, e))?;
    let expression = pairs.next().expect("grammar: expression");
    let or_expr = expression.into_inner().next().expect("grammar: or_expr");
    build(or_expr)
}

fn check_nesting(text: &str) -> Result<(), ExprError> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(ExprError::new(
                        i..i + 1,
                        format!("brackets nested deeper than {MAX_NESTING}"),
                    ));
                }
            }
            ')' | ']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

fn syntax_error(text: &str, e: pest::error::Error<Rule>) -> ExprError {
    let span = match e.location {
        pest::error::InputLocation::Pos(p) => p..(p + 1).min(text.len()).max(p),
        pest::error::InputLocation::Span((a, b)) => a..b,
    };
    let what = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let mut expected: Vec<&str> = positives.iter().filter_map(|r| describe(*r)).collect();
            expected.sort_unstable();
            expected.dedup();
            if expected.is_empty() {
                "unexpected input".to_string()
            } else {
                format!("expected {}", expected.join(", "))
            }
        }
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
    };
    let found = text[span.start..]
        .chars()
        .next()
        .map_or("end of expression".to_string(), |c| format!("`{c}`"));
    ExprError::new(
        span,
        format!("syntax error in expression: {what}, found {found}"),
    )
}

fn describe(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::EOI => "end of expression",
        Rule::integer | Rule::boolean | Rule::name | Rule::call | Rule::unary | Rule::sum => {
            "a value"
        }
        Rule::or_expr | Rule::and_expr | Rule::not_expr | Rule::comparison | Rule::product => {
            "a value"
        }
        Rule::or_op | Rule::and_op => "`and`/`or`",
        Rule::cmp_op => "a comparison",
        Rule::in_op => "`in`",
        Rule::add_op | Rule::mul_op => "an operator",
        Rule::set | Rule::list | Rule::range => "a list `[..]` or range `a..b`",
        _ => return None,
    })
}

fn span_of(pair: &Pair<Rule>) -> Range<usize> {
    let s = pair.as_span();
    s.start()..s.end()
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

/// Builds a left-associative chain `x (op x)*`.
fn chain(pair: Pair<Rule>) -> Result<Node, ExprError> {
    let mut inner = pair.into_inner();
    let mut left = build(inner.next().expect("grammar: chain head"))?;
    while let Some(op) = inner.next() {
        let right = build(inner.next().expect("grammar: chain operand"))?;
        let op = bin_op(op.as_str());
        let span = join(&left.span, &right.span);
        left = Node::new(Kind::Binary(op, Box::new(left), Box::new(right)), span)?;
    }
    Ok(left)
}

/// Builds `prefix* operand` (for `not` and unary minus).
fn prefixed(pair: Pair<Rule>, wrap: fn(Box<Node>) -> Kind) -> Result<Node, ExprError> {
    let pairs: Vec<Pair<Rule>> = pair.into_inner().collect();
    let (operand, prefixes) = pairs.split_last().expect("grammar: operand");
    let mut node = build(operand.clone())?;
    for p in prefixes.iter().rev() {
        let span = join(&span_of(p), &node.span);
        node = Node::new(wrap(Box::new(node)), span)?;
    }
    Ok(node)
}

fn build(pair: Pair<Rule>) -> Result<Node, ExprError> {
    let span = span_of(&pair);
    let kind = match pair.as_rule() {
        Rule::or_expr | Rule::and_expr | Rule::sum | Rule::product => return chain(pair),
        Rule::not_expr => return prefixed(pair, Kind::Not),
        Rule::unary => return prefixed(pair, Kind::Neg),
        Rule::comparison => {
            let mut inner = pair.into_inner();
            let left = build(inner.next().expect("grammar: comparison"))?;
            match inner.next() {
                None => return Ok(left),
                Some(op) if op.as_rule() == Rule::in_op => {
                    let set = inner
                        .next()
                        .expect("grammar: set")
                        .into_inner()
                        .next()
                        .expect("grammar: set");
                    let set = match set.as_rule() {
                        Rule::list => {
                            Set::List(set.into_inner().map(build).collect::<Result<_, _>>()?)
                        }
                        _ => {
                            let mut ends = set.into_inner();
                            let lo = build(ends.next().expect("grammar: range"))?;
                            let hi = build(ends.next().expect("grammar: range"))?;
                            Set::Range(Box::new(lo), Box::new(hi))
                        }
                    };
                    Kind::In(Box::new(left), set)
                }
                Some(op) => {
                    let right = build(inner.next().expect("grammar: comparison"))?;
                    Kind::Binary(bin_op(op.as_str()), Box::new(left), Box::new(right))
                }
            }
        }
        Rule::integer => match pair.as_str().parse::<i32>() {
            Ok(v) => Kind::Int(v),
            Err(_) => return Err(ExprError::new(span, "integer too large")),
        },
        Rule::boolean => Kind::Bool(pair.as_str() == "true"),
        Rule::name => Kind::Name(pair.as_str().to_string()),
        Rule::call => {
            let mut inner = pair.into_inner();
            let name = inner.next().expect("grammar: call name");
            let name_span = span_of(&name);
            let args = inner.map(build).collect::<Result<_, _>>()?;
            Kind::Call(name.as_str().to_string(), name_span, args)
        }
        other => unreachable!("grammar rule {other:?} is not an expression node"),
    };
    Node::new(kind, span)
}
