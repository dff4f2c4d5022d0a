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
//! Arithmetic wraps and `x / 0 == x % 0 == 0`: an expression never panics.
//!
//! Expressions come from untrusted rules files. Before the (recursive) pest parser sees a text,
//! a linear pre-scan checks its length (2000 bytes), matches its brackets (each error located at
//! the bracket at fault), and bounds bracket nesting (12) and runs of `not`/`-` (63), so parsing
//! needs little stack even unoptimised. The tree is then built from pest's flat token stream and
//! compiled with explicit stacks: nothing else recurses. Trees are at most 64 deep, programs need
//! at most [`MAX_STACK`] stack slots.
//!
//! Errors speak the author's language: the whole offending token, what was expected in words
//! ("a number, a name such as `last.count`, or `(`"), both types of a mismatched comparison with
//! the usual partner of the left side, and the names nearest a misspelt one.

mod compile;
mod define;
mod parse;
mod scan;

pub use compile::MAX_STACK;
pub use define::{DefinitionError, Definitions};

/// The type of a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Int,
    Bool,
    /// A player (0 or 1): comparable with `==`/`!=` only (`last.side == opponent`).
    Player,
}

impl Type {
    fn with_article(self) -> &'static str {
        match self {
            Type::Int => "an integer",
            Type::Bool => "a boolean",
            Type::Player => "a player",
        }
    }
}

/// What a name in a scope stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameKind {
    Var { slot: u16 },
    Func { args: &'static [Type], slot: u16 },
    Const { value: i32 },
}

/// One name an expression may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Name {
    pub name: &'static str,
    pub ty: Type,
    pub kind: NameKind,
    /// One line for error notes and the rules-file reference.
    pub help: &'static str,
}

/// The names an expression may use, with their types and slots.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    names: Vec<Name>,
    /// The rules file's `[define]`: names written out before the names above are looked up.
    definitions: Option<std::sync::Arc<Definitions>>,
}

impl Scope {
    pub fn new() -> Self {
        Scope::default()
    }
    /// A variable read through [`Vars::var`] with this slot.
    pub fn var(self, name: &'static str, ty: Type, slot: u16, help: &'static str) -> Self {
        self.with(Name {
            name,
            ty,
            kind: NameKind::Var { slot },
            help,
        })
    }
    /// A function read through [`Vars::call`] with this slot and the evaluated arguments.
    pub fn func(
        self,
        name: &'static str,
        args: &'static [Type],
        ret: Type,
        slot: u16,
        help: &'static str,
    ) -> Self {
        self.with(Name {
            name,
            ty: ret,
            kind: NameKind::Func { args, slot },
            help,
        })
    }
    /// A named constant folded in at compile time.
    pub fn constant(self, name: &'static str, ty: Type, value: i32, help: &'static str) -> Self {
        self.with(Name {
            name,
            ty,
            kind: NameKind::Const { value },
            help,
        })
    }
    /// The same scope without the name `name` (a place where it would mean nothing sure).
    pub fn without(mut self, name: &str) -> Self {
        self.names.retain(|n| n.name != name);
        self
    }
    /// The same scope where the names of `definitions` stand for their expressions (in place
    /// of a name of the scope they shadow).
    pub fn with_definitions(mut self, definitions: std::sync::Arc<Definitions>) -> Self {
        self.definitions = Some(definitions);
        self
    }
    fn with(mut self, name: Name) -> Self {
        debug_assert!(
            self.get(name.name).is_none(),
            "`{}` declared twice",
            name.name
        );
        self.names.push(name);
        self
    }
    pub fn get(&self, name: &str) -> Option<&Name> {
        self.names.iter().find(|n| n.name == name)
    }
    /// Every name, in declaration order (for references and error notes).
    pub fn names(&self) -> &[Name] {
        &self.names
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

/// Plain slot values: `slots[slot]`.
impl Vars for [i32] {
    fn var(&self, slot: u16) -> i32 {
        self.get(usize::from(slot)).copied().unwrap_or(0)
    }
}

/// "a or b", "a, b, or c" (the serial comma keeps items such as "a name such as `x`" apart).
fn one_of(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [first, second] => format!("{first} or {second}"),
        [init @ .., last] => format!("{}, or {last}", init.join(", ")),
    }
}

/// An expression error, located by byte offsets in the expression's text.
pub type ExprError = crate::diagnostics::SpannedError;

/// A compiled expression.
#[derive(Clone, Debug)]
pub struct Expr {
    text: String,
    ty: Type,
    program: compile::Program,
}

impl Expr {
    /// Parses and checks `text` against `scope`; the result must have type `expected`.
    pub fn compile(text: &str, scope: &Scope, expected: Type) -> Result<Expr, ExprError> {
        // A name to quote in "expected a number, a name such as `last.count`, or `(`".
        let example = scope
            .names()
            .iter()
            .find(|n| !matches!(n.kind, NameKind::Func { .. }))
            .map(|n| n.name);
        let mut ast = parse::parse(text, example)?;
        if let Some(defs) = &scope.definitions {
            // A file's definition takes the place of a name of the language it shadows.
            ast = defs.write_in(ast, &|_| false)?;
        }
        let (program, ty) = compile::compile(&ast, scope, text)?;
        if ty != expected {
            let mut e = ExprError::new(
                ast.span.clone(),
                format!(
                    "type error: expected {} expression, this is {}",
                    expected.with_article(),
                    ty.with_article()
                ),
            );
            let quoted = compile::quotable(&text[ast.span.clone()]);
            e.notes
                .extend(compile::conversion_hint(scope, quoted, ty, expected));
            return Err(e);
        }
        Ok(Expr {
            text: text.to_string(),
            ty,
            program,
        })
    }
    /// Evaluates to an integer (booleans and players as 0/1).
    #[inline]
    pub fn eval<V: Vars + ?Sized>(&self, vars: &V) -> i32 {
        self.program.run(vars)
    }
    /// Evaluates a boolean expression.
    #[inline]
    pub fn test<V: Vars + ?Sized>(&self, vars: &V) -> bool {
        self.eval(vars) != 0
    }
    /// Whether the expression reads this variable or function slot (so an engine can skip
    /// work nobody asks for).
    pub fn reads(&self, slot: u16) -> bool {
        self.program.reads(slot)
    }
    /// Whether the expression reads any variable or function (`last.count`, `own(3)`).
    pub fn reads_any(&self) -> bool {
        self.program.reads_any()
    }
    /// The value when the expression reads no variable or function (`true`, `25`).
    pub fn constant_value(&self) -> Option<i32> {
        self.program.constant_value()
    }
    pub fn ty(&self) -> Type {
        self.ty
    }
    /// The most operations one evaluation runs (a jump only shortens it): what a search that
    /// bounds its work counts an evaluation as.
    pub fn cost(&self) -> u32 {
        self.program.len() as u32
    }
    /// The source text.
    pub fn text(&self) -> &str {
        &self.text
    }
}

#[cfg(test)]
mod tests;
