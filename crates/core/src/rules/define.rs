//! `[define]` in a rules file of any family: names for expressions, checked once and written
//! in wherever an expression of the file uses them (see [`crate::expr::Definitions`]).

use crate::diagnostics::Diagnostic;
use crate::expr::{DefinitionError, Definitions, Scope};
use crate::rules::reference::SectionRef;
use std::collections::BTreeMap;
use std::sync::Arc;
use toml::Spanned;

/// `[define]` as written: each key a name, its value the expression it stands for.
pub type DefineTable = BTreeMap<Spanned<String>, Spanned<String>>;

/// `[define]` in the reference: its keys are the names a file gives, so it lists none.
pub const DEFINE_SECTION: SectionRef = SectionRef {
    name: "define",
    line: "names for expressions, used by any expression of the file (each key a name, its value the expression it stands for)",
    required: false,
    repeated: false,
    keys: &[],
};

/// The definitions of `table`; one taking a name of the family's `language` takes its place
/// in the file, with a warning (so that a file keeps its meaning when the language gains a
/// name it defined). Every problem is reported in `errors`, located in `text`.
pub fn check_definitions(
    text: &str,
    table: Option<&DefineTable>,
    language: &[Scope],
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
) -> Option<Arc<Definitions>> {
    let table = table.filter(|t| !t.is_empty())?;
    let entries: Vec<(&Spanned<String>, &Spanned<String>)> = table.iter().collect();
    for (name, _) in &entries {
        if language.iter().any(|s| s.get(name.get_ref()).is_some()) {
            warnings.push(
                Diagnostic::warning(format!(
                    "`{}` is also a name of the language: in this file it is the definition",
                    name.get_ref()
                ))
                .at(name.span())
                .note("a name of its own reads more clearly"),
            );
        }
    }
    let texts: Vec<(&str, &str)> = entries
        .iter()
        .map(|(k, v)| (k.get_ref().as_str(), v.get_ref().as_str()))
        .collect();
    match Definitions::new(&texts) {
        Ok(defs) => Some(Arc::new(defs)),
        Err(DefinitionError { index, error }) => {
            let (name, value) = entries[index];
            // A bad name is located at the name, anything else in the expression.
            let d = if error.message.contains("cannot be a name") {
                Diagnostic::new(error.message).at(name.span())
            } else {
                Diagnostic::in_string(text, value, error)
            };
            errors.push(d.note(format!("in the definition of `{}`", name.get_ref())));
            None
        }
    }
}

/// Warns of each definition no expression used, once the file has compiled (after errors,
/// a name may be unused only because what uses it failed).
pub fn warn_unused(
    defs: Option<&Arc<Definitions>>,
    table: Option<&DefineTable>,
    errors: &[Diagnostic],
    warnings: &mut Vec<Diagnostic>,
) {
    let (Some(defs), Some(table), true) = (defs, table, errors.is_empty()) else {
        return;
    };
    for name in defs.unused() {
        if let Some((key, _)) = table.iter().find(|(k, _)| k.get_ref() == name) {
            warnings.push(
                Diagnostic::warning(format!("`{name}` is defined but never used")).at(key.span()),
            );
        }
    }
}

/// `scope` with `defs` written in, when there are any.
pub fn scope_with(scope: &Scope, defs: Option<&Arc<Definitions>>) -> Option<Scope> {
    defs.map(|d| scope.clone().with_definitions(Arc::clone(d)))
}
