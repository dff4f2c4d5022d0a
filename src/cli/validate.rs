//! `ludus validate FILE…`.

use crate::diagnostics::{self, Diagnostic};
use crate::registry;
use crate::rules::Source;
use crate::say;
use anyhow::Result;
use serde_json::json;

pub fn run(files: &[String], as_json: bool) -> Result<bool> {
    let mut all_valid = true;
    let mut reports = Vec::new();
    for file in files {
        let (name, text, problems) = match Source::find(file) {
            Ok(source) => {
                let problems = registry::compile(&source.text).err().unwrap_or_default();
                (source.name, source.text, problems)
            }
            Err(e) => (
                file.clone(),
                String::new(),
                vec![Diagnostic::new(e.to_string())],
            ),
        };
        all_valid &= problems.is_empty();
        if as_json {
            reports.push(json!({
                "file": name, "valid": problems.is_empty(),
                "errors": diagnostics::to_json(&name, &text, &problems),
            }));
        } else if problems.is_empty() {
            say!("{name}: ok");
        } else {
            eprint!("{}", diagnostics::render(&name, &text, &problems));
            eprintln!("{name}: {} error(s)", problems.len());
        }
    }
    if as_json {
        say!(
            "{}",
            serde_json::to_string_pretty(&json!({ "valid": all_valid, "files": reports }))?
        );
    }
    Ok(all_valid)
}
