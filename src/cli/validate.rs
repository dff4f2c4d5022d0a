//! `ludus validate FILE…`: every error and warning of each rules file, located; exit 0 when no
//! file has an error (warnings alone do not fail, unless `--deny-warnings`).

use crate::diagnostics::{self, Diagnostic};
use crate::registry;
use crate::rules::{Source, SourceError};
use crate::say;
use anyhow::Result;
use serde_json::{json, Value};

/// How `validate` reports.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// One JSON document on standard output instead of text on standard error.
    pub json: bool,
    /// A warning fails the file as an error does.
    pub deny_warnings: bool,
}

pub fn run(files: &[String], options: Options) -> Result<bool> {
    let mut all_valid = true;
    let mut reports = Vec::new();
    for file in files {
        let (name, text, diagnostics, line) = match Source::find(file) {
            Ok(source) => {
                let report = registry::check_source(&source);
                (source.name, source.text, report.diagnostics, None)
            }
            Err(e) => {
                let line = match &e {
                    SourceError::NotUtf8 { line, .. } => Some(*line),
                    _ => None,
                };
                let mut d = Diagnostic::new(e.to_string());
                if line.is_some() {
                    d = d.note("save the file as UTF-8 text");
                }
                (file.clone(), String::new(), vec![d], line)
            }
        };
        let errors = diagnostics.iter().filter(|d| d.is_error()).count();
        let warnings = diagnostics.len() - errors;
        let valid = errors == 0 && (warnings == 0 || !options.deny_warnings);
        all_valid &= valid;
        if options.json {
            let mut items = diagnostics::to_json(&name, &text, &diagnostics);
            if let (Some(line), Value::Array(items)) = (line, &mut items) {
                // Not text: the place is the line where the bytes stop being UTF-8.
                for item in items {
                    item["line"] = json!(line);
                    item["end_line"] = json!(line);
                }
            }
            let Value::Array(items) = items else {
                unreachable!("to_json gives an array")
            };
            let (errs, warns): (Vec<Value>, Vec<Value>) =
                items.into_iter().partition(|i| i["severity"] == "error");
            reports.push(json!({
                "file": name, "valid": valid, "errors": errs, "warnings": warns,
            }));
            continue;
        }
        if !diagnostics.is_empty() {
            eprint!("{}", diagnostics::render(&name, &text, &diagnostics));
        }
        let warned = match warnings {
            0 => String::new(),
            n => format!(", {n} warning(s)"),
        };
        if valid {
            say!("{name}: ok{warned}");
        } else if errors == 0 {
            eprintln!("{name}: {warnings} warning(s), denied by --deny-warnings");
        } else {
            eprintln!("{name}: {errors} error(s){warned}");
        }
    }
    if options.json {
        say!(
            "{}",
            serde_json::to_string_pretty(&json!({ "valid": all_valid, "files": reports }))?
        );
    }
    Ok(all_valid)
}
