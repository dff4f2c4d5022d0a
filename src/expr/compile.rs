//! Syntax tree → checked postfix program, and the program's evaluator.

use super::parse::{BinOp, Kind, Node, Set};
use super::{ExprError, NameKind, Scope, Type, Vars};

/// Deepest evaluation stack a program may need; deeper expressions are rejected when compiled,
/// so evaluation runs on a fixed array.
pub const MAX_STACK: usize = 32;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Const(i32),
    Var(u16),
    Call {
        slot: u16,
        argc: u8,
    },
    Neg,
    Not,
    Bin(BinOp),
    /// `and`: when the top is false, jump to `to` keeping it; else drop it.
    JumpIfFalse(u16),
    /// `or`: when the top is true, jump to `to` keeping it; else drop it.
    JumpIfTrue(u16),
    /// Pops `n` candidates and a value; pushes whether the value is among them.
    InList(u8),
    /// Pops `hi`, `lo` and a value; pushes `lo <= value <= hi`.
    InRange,
}

#[derive(Clone, Debug)]
pub struct Program {
    ops: Box<[Op]>,
}

struct Emitter<'s> {
    scope: &'s Scope,
    ops: Vec<Op>,
    depth: usize,
    max_depth: usize,
}

pub fn compile(ast: &Node, scope: &Scope) -> Result<(Program, Type), ExprError> {
    let mut e = Emitter {
        scope,
        ops: Vec::new(),
        depth: 0,
        max_depth: 0,
    };
    let ty = e.node(ast)?;
    if e.max_depth > MAX_STACK {
        return Err(ExprError::new(
            ast.span.clone(),
            "expression too complex (evaluation stack too deep)",
        ));
    }
    if e.ops.len() > usize::from(u16::MAX) {
        return Err(ExprError::new(ast.span.clone(), "expression too long"));
    }
    Ok((
        Program {
            ops: e.ops.into_boxed_slice(),
        },
        ty,
    ))
}

fn type_error(node: &Node, want: Type, got: Type, what: &str) -> ExprError {
    ExprError::new(
        node.span.clone(),
        format!(
            "type error: {what} needs {}, this is {}",
            want.with_article(),
            got.with_article()
        ),
    )
}

impl Emitter<'_> {
    fn push(&mut self, op: Op, pops: usize, pushes: usize) {
        self.depth = self.depth - pops + pushes;
        self.max_depth = self.max_depth.max(self.depth);
        self.ops.push(op);
    }

    fn expect(&mut self, node: &Node, want: Type, what: &str) -> Result<(), ExprError> {
        let got = self.node(node)?;
        if got == want {
            Ok(())
        } else {
            Err(type_error(node, want, got, what))
        }
    }

    fn node(&mut self, node: &Node) -> Result<Type, ExprError> {
        match &node.kind {
            Kind::Int(v) => {
                self.push(Op::Const(*v), 0, 1);
                Ok(Type::Int)
            }
            Kind::Bool(b) => {
                self.push(Op::Const(i32::from(*b)), 0, 1);
                Ok(Type::Bool)
            }
            Kind::Name(name) => {
                let entry = self.lookup(name, &node.span)?;
                match entry.kind {
                    NameKind::Var { slot } => self.push(Op::Var(slot), 0, 1),
                    NameKind::Const { value } => self.push(Op::Const(value), 0, 1),
                    NameKind::Func { args, .. } => {
                        return Err(ExprError::new(
                            node.span.clone(),
                            format!(
                                "`{name}` is a function of {} argument(s): write {name}(...)",
                                args.len()
                            ),
                        ))
                    }
                }
                Ok(entry.ty)
            }
            Kind::Call(name, name_span, args) => {
                let entry = self.lookup(name, name_span)?;
                let NameKind::Func { args: params, slot } = entry.kind else {
                    return Err(ExprError::new(
                        name_span.clone(),
                        format!("`{name}` is not a function"),
                    ));
                };
                if args.len() != params.len() {
                    return Err(ExprError::new(
                        node.span.clone(),
                        format!(
                            "`{name}` takes {} argument(s), given {}",
                            params.len(),
                            args.len()
                        ),
                    ));
                }
                for (arg, want) in args.iter().zip(params) {
                    self.expect(arg, *want, &format!("argument of `{name}`"))?;
                }
                let argc = params.len();
                self.push(
                    Op::Call {
                        slot,
                        argc: argc as u8,
                    },
                    argc,
                    1,
                );
                Ok(entry.ty)
            }
            Kind::Neg(inner) => {
                self.expect(inner, Type::Int, "`-`")?;
                self.push(Op::Neg, 1, 1);
                Ok(Type::Int)
            }
            Kind::Not(inner) => {
                self.expect(inner, Type::Bool, "`not`")?;
                self.push(Op::Not, 1, 1);
                Ok(Type::Bool)
            }
            Kind::Binary(op @ (BinOp::And | BinOp::Or), left, right) => {
                self.expect(left, Type::Bool, &format!("`{}`", op.symbol()))?;
                let jump = self.ops.len();
                self.push(Op::JumpIfFalse(0), 0, 0);
                self.depth -= 1; // the jump keeps the value only when it jumps
                self.expect(right, Type::Bool, &format!("`{}`", op.symbol()))?;
                let to = self.ops.len() as u16;
                self.ops[jump] = if *op == BinOp::And {
                    Op::JumpIfFalse(to)
                } else {
                    Op::JumpIfTrue(to)
                };
                Ok(Type::Bool)
            }
            Kind::Binary(op @ (BinOp::Eq | BinOp::Ne), left, right) => {
                let lt = self.node(left)?;
                let rt = self.node(right)?;
                if lt != rt {
                    return Err(ExprError::new(
                        node.span.clone(),
                        format!(
                            "type error: `{}` compares {} with {}",
                            op.symbol(),
                            lt.with_article(),
                            rt.with_article()
                        ),
                    ));
                }
                self.push(Op::Bin(*op), 2, 1);
                Ok(Type::Bool)
            }
            Kind::Binary(op, left, right) => {
                let what = format!("`{}`", op.symbol());
                self.expect(left, Type::Int, &what)?;
                self.expect(right, Type::Int, &what)?;
                self.push(Op::Bin(*op), 2, 1);
                let comparison = matches!(op, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge);
                Ok(if comparison { Type::Bool } else { Type::Int })
            }
            Kind::In(value, set) => {
                self.expect(value, Type::Int, "`in`")?;
                match set {
                    Set::List(items) => {
                        if items.len() > usize::from(u8::MAX) {
                            return Err(ExprError::new(
                                node.span.clone(),
                                "list longer than 255 items",
                            ));
                        }
                        for item in items {
                            self.expect(item, Type::Int, "a list item")?;
                        }
                        self.push(Op::InList(items.len() as u8), items.len() + 1, 1);
                    }
                    Set::Range(lo, hi) => {
                        self.expect(lo, Type::Int, "a range")?;
                        self.expect(hi, Type::Int, "a range")?;
                        self.push(Op::InRange, 3, 1);
                    }
                }
                Ok(Type::Bool)
            }
        }
    }

    fn lookup(&self, name: &str, span: &std::ops::Range<usize>) -> Result<super::Name, ExprError> {
        if let Some(entry) = self.scope.get(name) {
            return Ok(*entry);
        }
        let mut err = ExprError::new(span.clone(), format!("unknown name `{name}`"));
        let known: Vec<&str> = self.scope.names().iter().map(|n| n.name).collect();
        let closest = known.iter().map(|k| (distance(k, name), k)).min();
        if let Some((_, close)) = closest.filter(|(d, _)| *d <= 2) {
            err.notes.push(format!("did you mean `{close}`?"));
        }
        err.notes.push(format!("names here: {}", known.join(", ")));
        Err(err)
    }
}

/// Edit distance with adjacent transpositions (optimal string alignment), for "did you mean".
fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

impl Program {
    #[inline]
    pub fn run<V: Vars + ?Sized>(&self, vars: &V) -> i32 {
        let mut stack = [0i32; MAX_STACK];
        let mut sp = 0usize;
        let mut pc = 0usize;
        let ops = &self.ops;
        while pc < ops.len() {
            match ops[pc] {
                Op::Const(v) => {
                    stack[sp] = v;
                    sp += 1;
                }
                Op::Var(slot) => {
                    stack[sp] = vars.var(slot);
                    sp += 1;
                }
                Op::Call { slot, argc } => {
                    let base = sp - usize::from(argc);
                    stack[base] = vars.call(slot, &stack[base..sp]);
                    sp = base + 1;
                }
                Op::Neg => stack[sp - 1] = stack[sp - 1].wrapping_neg(),
                Op::Not => stack[sp - 1] = i32::from(stack[sp - 1] == 0),
                Op::Bin(op) => {
                    sp -= 1;
                    let (a, b) = (stack[sp - 1], stack[sp]);
                    stack[sp - 1] = binary(op, a, b);
                }
                Op::JumpIfFalse(to) => {
                    if stack[sp - 1] == 0 {
                        pc = usize::from(to);
                        continue;
                    }
                    sp -= 1;
                }
                Op::JumpIfTrue(to) => {
                    if stack[sp - 1] != 0 {
                        pc = usize::from(to);
                        continue;
                    }
                    sp -= 1;
                }
                Op::InList(n) => {
                    let base = sp - usize::from(n) - 1;
                    let value = stack[base];
                    stack[base] = i32::from(stack[base + 1..sp].contains(&value));
                    sp = base + 1;
                }
                Op::InRange => {
                    sp -= 2;
                    let value = stack[sp - 1];
                    stack[sp - 1] = i32::from(stack[sp] <= value && value <= stack[sp + 1]);
                }
            }
            pc += 1;
        }
        stack[0]
    }

    pub fn reads(&self, slot: u16) -> bool {
        self.ops
            .iter()
            .any(|op| matches!(*op, Op::Var(s) | Op::Call { slot: s, .. } if s == slot))
    }

    pub fn constant_value(&self) -> Option<i32> {
        match *self.ops {
            [Op::Const(v)] => Some(v),
            _ => None,
        }
    }
}

#[inline]
fn binary(op: BinOp, a: i32, b: i32) -> i32 {
    match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::Div => a.checked_div(b).unwrap_or(0),
        BinOp::Rem => a.checked_rem(b).unwrap_or(0),
        BinOp::Eq => i32::from(a == b),
        BinOp::Ne => i32::from(a != b),
        BinOp::Lt => i32::from(a < b),
        BinOp::Le => i32::from(a <= b),
        BinOp::Gt => i32::from(a > b),
        BinOp::Ge => i32::from(a >= b),
        // Short-circuit operators are compiled to jumps.
        BinOp::And => i32::from(a != 0 && b != 0),
        BinOp::Or => i32::from(a != 0 || b != 0),
    }
}
