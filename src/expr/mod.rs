//! The expression language of rules files (grammar in `grammar/expr.pest`).
//!
//! An expression is parsed, name-checked and type-checked once, against a [`Scope`] that the
//! game family defines (which names exist, their types, and the slot each resolves to), and
//! compiled to a short postfix program. Evaluation asks a [`Vars`] implementation for slot
//! values and runs on a fixed-size stack: no allocation, no string work.
//!
//! Syntax: integers, `true`/`false`, names with dots (`last.count`), calls of names the scope
//! declares (`count(opposite(last))`), lists in `x in [2, 3]` and ranges in `x in 2..3`
//! (inclusive), `not`, `and`, `or`, `== != < <= > >=`, `+ - * / %`, unary `-`, parentheses.

use std::ops::Range;

/// The type of a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Int,
    Bool,
    /// A player (0 or 1): comparable with `==`/`!=` only (`last.side == opponent`).
    Player,
}

/// The names an expression may use, with their types and slots.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    // filled in by the implementation
}

impl Scope {
    pub fn new() -> Self {
        Scope::default()
    }
    /// A variable read through [`Vars::var`] with this slot.
    pub fn var(self, _name: &'static str, _ty: Type, _slot: u16, _help: &'static str) -> Self {
        todo!()
    }
    /// A function read through [`Vars::call`] with this slot and the evaluated arguments.
    pub fn func(
        self,
        _name: &'static str,
        _args: &'static [Type],
        _ret: Type,
        _slot: u16,
        _help: &'static str,
    ) -> Self {
        todo!()
    }
    /// A named constant folded in at compile time.
    pub fn constant(
        self,
        _name: &'static str,
        _ty: Type,
        _value: i32,
        _help: &'static str,
    ) -> Self {
        todo!()
    }
}

/// Supplies variable and function values while an expression runs. Booleans are 0/1, players
/// 0/1.
pub trait Vars {
    fn var(&self, slot: u16) -> i32;
    fn call(&self, _slot: u16, _args: &[i32]) -> i32 {
        0
    }
}

/// A parse, name or type error, located by byte offsets within the expression text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprError {
    pub span: Range<usize>,
    pub message: String,
}

/// A compiled expression.
#[derive(Clone, Debug)]
pub struct Expr {
    // filled in by the implementation
}

impl Expr {
    /// Parses and checks `text` against `scope`; the result must have type `expected`.
    pub fn compile(_text: &str, _scope: &Scope, _expected: Type) -> Result<Expr, ExprError> {
        todo!()
    }
    /// Evaluates to an integer (booleans 0/1).
    pub fn eval<V: Vars + ?Sized>(&self, _vars: &V) -> i32 {
        todo!()
    }
    /// Evaluates a boolean expression.
    pub fn test<V: Vars + ?Sized>(&self, vars: &V) -> bool {
        self.eval(vars) != 0
    }
    /// The names of variables/functions the expression reads (so an engine can skip work
    /// nobody asks for).
    pub fn reads(&self, _slot: u16) -> bool {
        todo!()
    }
    /// The source text.
    pub fn text(&self) -> &str {
        todo!()
    }
}
