//! Syntax tree → checked postfix program, and the program's evaluator.

use super::parse::{BinOp, Kind, Node, Set};
use super::{one_of, ExprError, Name, NameKind, Scope, Type, Vars};
use std::ops::Range;

/// Deepest evaluation stack a program may need; deeper expressions are rejected when compiled,
/// so evaluation runs on a fixed array.
pub const MAX_STACK: usize = crate::limits::LIMITS.expr_stack;
/// Most items of a list after `in` (the value and the items are on the stack at once).
const MAX_LIST: usize = MAX_STACK - 1;

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
    /// Pops the else and then values and a condition; pushes the one the condition picks
    /// (`if(c, a, b)`: both are worked out, which no name or function can notice).
    Select,
}

/// The built-in choice between two values, `if(condition, then, else)`.
const IF: &str = "if";

#[derive(Clone, Debug)]
pub struct Program {
    ops: Box<[Op]>,
}

struct Emitter<'s> {
    scope: &'s Scope,
    /// The source text, to quote operands in errors.
    text: &'s str,
    ops: Vec<Op>,
    depth: usize,
    max_depth: usize,
}

pub fn compile(ast: &Node, scope: &Scope, text: &str) -> Result<(Program, Type), ExprError> {
    let mut e = Emitter {
        scope,
        text,
        ops: Vec::new(),
        depth: 0,
        max_depth: 0,
    };
    let ty = e.compile(ast)?;
    if e.max_depth > MAX_STACK {
        return Err(ExprError::new(
            ast.span.clone(),
            format!(
                "expression too complex: evaluating it holds more than {MAX_STACK} values at once"
            ),
        ));
    }
    if e.ops.len() > usize::from(u16::MAX) {
        return Err(ExprError::new(
            ast.span.clone(),
            "expression too long to compile",
        ));
    }
    Ok((
        Program {
            ops: e.ops.into_boxed_slice(),
        },
        ty,
    ))
}

/// Longest operand quoted in a type error; longer ones are called "this" (the span shows them).
const QUOTED: usize = 32;

/// `source` when short enough, and on one line, to quote in an error.
pub(super) fn quotable(source: &str) -> Option<&str> {
    Some(source).filter(|t| t.chars().count() <= QUOTED && !t.contains(['\n', '\r']))
}

/// The scope's plain (undotted) player names other than `subject`: `mover`, `opponent`.
fn players<'s>(scope: &'s Scope, subject: Option<&str>) -> impl Iterator<Item = &'s str> + 's {
    let subject = subject.map(str::to_string);
    scope
        .names()
        .iter()
        .filter(|n| n.ty == Type::Player && !matches!(n.kind, NameKind::Func { .. }))
        .filter(|n| !n.name.contains('.'))
        .map(|n| n.name)
        .filter(move |n| subject.as_deref() != Some(n))
}

/// What a value of this type (the text `subject`) is usually compared with, from the scope:
/// "`mover` or `opponent`".
fn partners(scope: &Scope, ty: Type, subject: Option<&str>) -> String {
    match ty {
        Type::Int => "a number".into(),
        Type::Bool => "`true` or `false`".into(),
        Type::Player => {
            let quoted: Vec<String> = players(scope, subject)
                .take(2)
                .map(|n| format!("`{n}`"))
                .collect();
            if quoted.is_empty() {
                "another player".into()
            } else {
                one_of(&quoted)
            }
        }
    }
}

/// How to turn a value of type `got` into the `want` a place needs, when there is a usual way.
/// `subject` is the value's text when short enough to quote.
pub(super) fn conversion_hint(
    scope: &Scope,
    subject: Option<&str>,
    got: Type,
    want: Type,
) -> Option<String> {
    let s = subject.unwrap_or("…");
    let player = || players(scope, subject).next().unwrap_or("mover");
    match (got, want) {
        (Type::Int, Type::Bool) => Some(format!(
            "an integer is not a condition: compare it, as in `{s} > 0`"
        )),
        (Type::Player, Type::Bool) => Some(format!(
            "a player is not a condition: compare it, as in `{s} == {}`",
            player()
        )),
        (Type::Player, Type::Int) => Some(format!(
            "players are compared with `==` or `!=` only, as in `{s} == {}`",
            player()
        )),
        _ => None,
    }
}

/// A step of compiling a tree; steps run from a stack, last pushed first.
enum Task<'a> {
    /// Compile a node: a leaf at once, an operation by queueing the steps below.
    Visit(&'a Node),
    /// The value just compiled must have this type.
    Check(&'a Node, Type, Why<'a>),
    /// Between the operands of `and`/`or`: the jump over the right one.
    Jump,
    /// The operands of this node are compiled and checked: emit its operation.
    Emit(&'a Node),
}

/// Why a value must have a type, for the error when it has another.
#[derive(Clone, Copy)]
enum Why<'a> {
    Op(BinOp),
    Neg,
    Not,
    In,
    ListItem,
    RangeEnd,
    Arg {
        func: &'a str,
        index: usize,
        of: usize,
    },
}

impl Why<'_> {
    /// Ends "`x` is a player, but …".
    fn rule(self, want: Type) -> String {
        let works = |what: &str| match want {
            Type::Bool => format!("{what} works on conditions"),
            _ => format!("{what} works on integers"),
        };
        match self {
            Why::Op(op) => works(&format!("`{}`", op.symbol())),
            Why::Neg => works("`-`"),
            Why::Not => works("`not`"),
            Why::In => works("`in`"),
            Why::ListItem => "list items must be integers".into(),
            Why::RangeEnd => "the ends of a range must be integers".into(),
            Why::Arg { func, index, of } => {
                let which = if of == 1 {
                    format!("the argument of `{func}`")
                } else {
                    format!("argument {} of `{func}`", index + 1)
                };
                format!("{which} must be {}", want.with_article())
            }
        }
    }
}

impl Emitter<'_> {
    fn push(&mut self, op: Op, pops: usize, pushes: usize) {
        self.depth = self.depth - pops + pushes;
        self.max_depth = self.max_depth.max(self.depth);
        self.ops.push(op);
    }

    /// The source of a node, when short enough to quote.
    fn quoted(&self, node: &Node) -> Option<&str> {
        self.text.get(node.span.clone()).and_then(quotable)
    }

    /// "`last.side`" or "this" (the error's span shows which).
    fn called(&self, node: &Node) -> String {
        self.quoted(node)
            .map_or("this".into(), |t| format!("`{t}`"))
    }

    /// The error for a node of type `got` where `want` is needed.
    fn type_error(&self, node: &Node, got: Type, want: Type, why: Why) -> ExprError {
        let mut e = ExprError::new(
            node.span.clone(),
            format!(
                "type error: {} is {}, but {}",
                self.called(node),
                got.with_article(),
                why.rule(want)
            ),
        );
        e.notes
            .extend(conversion_hint(self.scope, self.quoted(node), got, want));
        e
    }

    /// The error for `left == right` (or `!=`) of different types: names both types and what the
    /// subject (the left side, unless it is a literal and the right side is not) is usually
    /// compared with.
    fn mismatch(&self, node: &Node, left: (&Node, Type), right: (&Node, Type)) -> ExprError {
        let literal = |n: &Node| matches!(n.kind, Kind::Int(_) | Kind::Bool(_));
        let (subject, ty) = if literal(left.0) && !literal(right.0) {
            right
        } else {
            left
        };
        let side = |n: &Node, which: &str| {
            self.quoted(n)
                .map_or(format!("the {which} side"), |t| format!("`{t}`"))
        };
        let (l, r) = (side(left.0, "left"), side(right.0, "right"));
        let s = if std::ptr::eq(subject, left.0) {
            &l
        } else {
            &r
        };
        let mut e = ExprError::new(
            node.span.clone(),
            format!(
                "type error: {l} is {} and {r} is {}; compare {s} with {}",
                left.1.with_article(),
                right.1.with_article(),
                partners(self.scope, ty, self.quoted(subject))
            ),
        );
        if ty == Type::Bool && matches!(subject.kind, Kind::Name(_)) {
            if let Some(t) = self.quoted(subject) {
                e.notes
                    .push(format!("or use it as a condition: `{t}`, `not {t}`"));
            }
        }
        e
    }

    /// Compiles a tree with an explicit stack of tasks (the tree may be as deep as the limits
    /// allow without this recursing), checking types as it goes; the type of the whole.
    fn compile(&mut self, root: &Node) -> Result<Type, ExprError> {
        let mut tasks = vec![Task::Visit(root)];
        // Types of the values compiled so far and still to be consumed, as on the program stack.
        let mut types: Vec<Type> = Vec::new();
        // `and`/`or` jumps waiting for their target.
        let mut jumps: Vec<usize> = Vec::new();
        while let Some(task) = tasks.pop() {
            match task {
                Task::Visit(node) => self.visit(node, &mut tasks, &mut types)?,
                Task::Check(node, want, why) => {
                    let got = *types.last().expect("a value was compiled");
                    if got != want {
                        return Err(self.type_error(node, got, want, why));
                    }
                }
                Task::Jump => {
                    jumps.push(self.ops.len());
                    self.push(Op::JumpIfFalse(0), 0, 0);
                    self.depth -= 1; // the jump keeps the value only when it jumps
                }
                Task::Emit(node) => {
                    let ty = self.emit(node, &mut types, &mut jumps)?;
                    types.push(ty);
                }
            }
        }
        Ok(types.pop().expect("the expression has a value"))
    }

    /// Starts a node: a leaf is compiled at once; an operation queues its operands (each
    /// followed by its type check) and then itself.
    fn visit<'a>(
        &mut self,
        node: &'a Node,
        tasks: &mut Vec<Task<'a>>,
        types: &mut Vec<Type>,
    ) -> Result<(), ExprError> {
        // Tasks run last-pushed first: queue `Emit`, then the operands from the last.
        let operand = |tasks: &mut Vec<Task<'a>>, n: &'a Node, want: Type, why: Why<'a>| {
            tasks.push(Task::Check(n, want, why));
            tasks.push(Task::Visit(n));
        };
        match &node.kind {
            Kind::Int(v) => {
                self.push(Op::Const(*v), 0, 1);
                types.push(Type::Int);
            }
            Kind::Bool(b) => {
                self.push(Op::Const(i32::from(*b)), 0, 1);
                types.push(Type::Bool);
            }
            Kind::Name(name) => {
                let entry = self.lookup(name, &node.span, false)?;
                match entry.kind {
                    NameKind::Var { slot } => self.push(Op::Var(slot), 0, 1),
                    NameKind::Const { value } => self.push(Op::Const(value), 0, 1),
                    NameKind::Func { args, .. } => {
                        return Err(ExprError::new(
                            node.span.clone(),
                            format!(
                                "`{name}` is a function: write `{name}(…)` with {}",
                                arguments(args.len())
                            ),
                        ))
                    }
                }
                types.push(entry.ty);
            }
            Kind::Call(name, _, args) if name == IF && self.scope.get(IF).is_none() => {
                if args.len() != 3 {
                    return Err(ExprError::new(
                        node.span.clone(),
                        format!(
                            "`if` takes 3 arguments, given {}: `if(condition, then, else)`",
                            args.len()
                        ),
                    ));
                }
                // Either type for the two values, the same for both (checked by `emit`).
                tasks.push(Task::Emit(node));
                tasks.push(Task::Visit(&args[2]));
                tasks.push(Task::Visit(&args[1]));
                let why = Why::Arg {
                    func: IF,
                    index: 0,
                    of: 3,
                };
                operand(tasks, &args[0], Type::Bool, why);
            }
            Kind::Call(name, name_span, args) => {
                let entry = self.lookup(name, name_span, true)?;
                let NameKind::Func { args: params, .. } = entry.kind else {
                    return Err(ExprError::new(
                        name_span.clone(),
                        format!("`{name}` is not a function: write `{name}` without `(…)`"),
                    ));
                };
                if args.len() != params.len() {
                    return Err(ExprError::new(
                        node.span.clone(),
                        format!(
                            "`{name}` takes {}, given {}",
                            arguments(params.len()),
                            args.len()
                        ),
                    ));
                }
                tasks.push(Task::Emit(node));
                for (index, (arg, want)) in args.iter().zip(params).enumerate().rev() {
                    let why = Why::Arg {
                        func: name,
                        index,
                        of: params.len(),
                    };
                    operand(tasks, arg, *want, why);
                }
            }
            Kind::Neg(inner) => {
                tasks.push(Task::Emit(node));
                operand(tasks, inner, Type::Int, Why::Neg);
            }
            Kind::Not(inner) => {
                tasks.push(Task::Emit(node));
                operand(tasks, inner, Type::Bool, Why::Not);
            }
            Kind::Binary(op @ (BinOp::And | BinOp::Or), left, right) => {
                tasks.push(Task::Emit(node));
                operand(tasks, right, Type::Bool, Why::Op(*op));
                tasks.push(Task::Jump);
                operand(tasks, left, Type::Bool, Why::Op(*op));
            }
            Kind::Binary(BinOp::Eq | BinOp::Ne, left, right) => {
                // Either type, the same on both sides (checked by `emit`).
                tasks.push(Task::Emit(node));
                tasks.push(Task::Visit(right));
                tasks.push(Task::Visit(left));
            }
            Kind::Binary(op, left, right) => {
                tasks.push(Task::Emit(node));
                operand(tasks, right, Type::Int, Why::Op(*op));
                operand(tasks, left, Type::Int, Why::Op(*op));
            }
            Kind::In(value, set) => {
                tasks.push(Task::Emit(node));
                match set {
                    Set::List(items, list) => {
                        // The value and every item are on the stack at once.
                        if items.len() > MAX_LIST {
                            return Err(ExprError::new(
                                list.clone(),
                                format!("list too long: {} items, at most {MAX_LIST}", items.len()),
                            ));
                        }
                        for item in items.iter().rev() {
                            operand(tasks, item, Type::Int, Why::ListItem);
                        }
                    }
                    Set::Range(lo, hi) => {
                        operand(tasks, hi, Type::Int, Why::RangeEnd);
                        operand(tasks, lo, Type::Int, Why::RangeEnd);
                    }
                }
                operand(tasks, value, Type::Int, Why::In);
            }
        }
        Ok(())
    }

    /// Finishes an operation whose operands are compiled and checked (their types on top of
    /// `types`, popped here); its result type.
    fn emit(
        &mut self,
        node: &Node,
        types: &mut Vec<Type>,
        jumps: &mut Vec<usize>,
    ) -> Result<Type, ExprError> {
        let mut pop = |n: usize| {
            let rest = types.len() - n;
            types.drain(rest..).collect::<Vec<Type>>()
        };
        Ok(match &node.kind {
            Kind::Call(name, _, args) if name == IF && self.scope.get(IF).is_none() => {
                let t = pop(3);
                if t[1] != t[2] {
                    return Err(ExprError::new(
                        node.span.clone(),
                        format!(
                            "type error: the two values of `if` must be of one type, but one is {} and the other {}",
                            t[1].with_article(),
                            t[2].with_article()
                        ),
                    ));
                }
                self.push(Op::Select, 3, 1);
                t[1]
            }
            Kind::Call(name, _, args) => {
                pop(args.len());
                let entry = self.scope.get(name).expect("looked up by visit");
                let NameKind::Func { slot, .. } = entry.kind else {
                    unreachable!("checked by visit")
                };
                let argc = args.len();
                self.push(
                    Op::Call {
                        slot,
                        argc: argc as u8,
                    },
                    argc,
                    1,
                );
                entry.ty
            }
            Kind::Neg(_) => {
                pop(1);
                self.push(Op::Neg, 1, 1);
                Type::Int
            }
            Kind::Not(_) => {
                pop(1);
                self.push(Op::Not, 1, 1);
                Type::Bool
            }
            Kind::Binary(op @ (BinOp::And | BinOp::Or), _, _) => {
                pop(2);
                let jump = jumps.pop().expect("a jump per `and`/`or`");
                let to = self.ops.len() as u16;
                self.ops[jump] = if *op == BinOp::And {
                    Op::JumpIfFalse(to)
                } else {
                    Op::JumpIfTrue(to)
                };
                Type::Bool
            }
            Kind::Binary(op @ (BinOp::Eq | BinOp::Ne), left, right) => {
                let t = pop(2);
                if t[0] != t[1] {
                    return Err(self.mismatch(node, (left, t[0]), (right, t[1])));
                }
                self.push(Op::Bin(*op), 2, 1);
                Type::Bool
            }
            Kind::Binary(op, _, _) => {
                pop(2);
                self.push(Op::Bin(*op), 2, 1);
                let comparison = matches!(op, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge);
                if comparison {
                    Type::Bool
                } else {
                    Type::Int
                }
            }
            Kind::In(_, Set::List(items, _)) => {
                pop(items.len() + 1);
                self.push(Op::InList(items.len() as u8), items.len() + 1, 1);
                Type::Bool
            }
            Kind::In(_, Set::Range(..)) => {
                pop(3);
                self.push(Op::InRange, 3, 1);
                Type::Bool
            }
            Kind::Int(_) | Kind::Bool(_) | Kind::Name(_) => unreachable!("leaves are visited"),
        })
    }

    /// The scope's entry for `name`, or an error suggesting the names meant. `called`: the name
    /// is called (`name(…)`), so functions are the likelier meaning.
    fn lookup(&self, name: &str, span: &Range<usize>, called: bool) -> Result<Name, ExprError> {
        if let Some(entry) = self.scope.get(name) {
            return Ok(*entry);
        }
        let what = if called { "function" } else { "name" };
        let mut err = ExprError::new(span.clone(), format!("unknown {what} `{name}`"));
        let names = self.scope.names();
        let is_func = |n: &&Name| matches!(n.kind, NameKind::Func { .. });
        // Names of the fitting sort first (a function where one is called), then any.
        let mut close = closest(name, names.iter().filter(|n| is_func(n) == called));
        if close.is_empty() {
            close = closest(name, names.iter());
        }
        if !close.is_empty() {
            let quoted: Vec<String> = close.iter().map(|n| format!("`{n}`")).collect();
            err.notes.push(format!("did you mean {}?", one_of(&quoted)));
        }
        err.notes.push(listing(names, name, called));
        Err(err)
    }
}

/// Most suggestions "did you mean" offers.
const SUGGESTIONS: usize = 3;

/// The names nearest `name` by edit distance (ignoring case), when near enough to be a slip: at
/// most a third of its length, 1 or 2, and less than all of it. Ties are all given, up to
/// [`SUGGESTIONS`].
fn closest<'a>(name: &str, candidates: impl Iterator<Item = &'a Name>) -> Vec<&'static str> {
    let lower = name.to_lowercase();
    let len = lower.chars().count();
    // Never the whole name: `x` does not suggest `y`.
    let limit = (len / 3).clamp(1, 2).min(len.saturating_sub(1));
    let mut best: Vec<(usize, &'static str)> = Vec::new();
    for n in candidates {
        // Length alone rules most names out, and keeps the work small for long unknown names.
        if n.name.chars().count().abs_diff(len) > limit {
            continue;
        }
        let d = strsim::osa_distance(&n.name.to_lowercase(), &lower);
        if d <= limit {
            best.push((d, n.name));
        }
    }
    let Some(min) = best.iter().map(|(d, _)| *d).min() else {
        return Vec::new();
    };
    best.into_iter()
        .filter(|(d, _)| *d == min)
        .map(|(_, n)| n)
        .take(SUGGESTIONS)
        .collect()
}

/// The names worth listing after an unknown one: those sharing its prefix (`last.` for
/// `last.cout`), else those with its field (`.side` for `pit.side` where no `pit` is offered),
/// else the functions (for a call), else every name.
fn listing(names: &[Name], name: &str, called: bool) -> String {
    let list = |pick: &dyn Fn(&Name) -> bool| -> Vec<&str> {
        names.iter().filter(|n| pick(n)).map(|n| n.name).collect()
    };
    if let Some((prefix, field)) = name.split_once('.') {
        let head = format!("{prefix}.");
        let same = list(&|n| n.name.starts_with(&head));
        if !same.is_empty() {
            return format!("names starting with `{head}`: {}", same.join(", "));
        }
        let tail = format!(".{}", field.rsplit('.').next().unwrap_or(field));
        let same = list(&|n| n.name.ends_with(&tail));
        if !same.is_empty() {
            return format!("names ending in `{tail}`: {}", same.join(", "));
        }
    }
    if called {
        let funcs = list(&|n| matches!(n.kind, NameKind::Func { .. }));
        return if funcs.is_empty() {
            "no functions here".into()
        } else {
            format!("functions here: {}", funcs.join(", "))
        };
    }
    let all: Vec<&str> = names.iter().map(|n| n.name).collect();
    format!("names here: {}", all.join(", "))
}

/// "1 argument", "2 arguments".
fn arguments(n: usize) -> String {
    if n == 1 {
        "1 argument".into()
    } else {
        format!("{n} arguments")
    }
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
                Op::Select => {
                    sp -= 2;
                    let (then, otherwise) = (stack[sp], stack[sp + 1]);
                    stack[sp - 1] = if stack[sp - 1] != 0 { then } else { otherwise };
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

    /// The operations in the program.
    pub fn len(&self) -> usize {
        self.ops.len()
    }

    /// Whether the program reads any variable or function.
    pub fn reads_any(&self) -> bool {
        self.ops
            .iter()
            .any(|op| matches!(op, Op::Var(_) | Op::Call { .. }))
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
