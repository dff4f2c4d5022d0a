//! Outside programs that some tests need (GNU Backgammon, Chromium and ChromeDriver) but a
//! fresh machine may not have. Without them such a test is skipped with a line saying what is
//! missing and how to install it; with `LUDUS_REQUIRE_TOOLS=1` (CI sets it) a missing program
//! fails the test instead, so a skip never hides in CI.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};

/// The first of `paths` that exists; `None` (after saying so) when none does and skipping is
/// allowed. `what` names the program, `package` the Debian packages that install it.
pub fn optional_tool(test: &str, what: &str, paths: &[&str], package: &str) -> Option<PathBuf> {
    if let Some(found) = paths.iter().map(Path::new).find(|p| p.exists()) {
        return Some(found.to_path_buf());
    }
    missing(
        test,
        &format!(
            "{what} not found (looked in {}): install it with `apt-get install {package}`",
            paths.join(", ")
        ),
    );
    None
}

/// Says that `test` is skipped for what `message` names as missing; fails instead under
/// `LUDUS_REQUIRE_TOOLS`.
pub fn missing(test: &str, message: &str) {
    if std::env::var_os("LUDUS_REQUIRE_TOOLS").is_some_and(|v| v != "0") {
        panic!("{message} (LUDUS_REQUIRE_TOOLS is set, so this test may not be skipped)");
    }
    skipped(test, message);
}

/// Says that `test` is skipped and why, whatever `LUDUS_REQUIRE_TOOLS` says.
pub fn skipped(test: &str, message: &str) {
    // Written to the process's stderr itself, past the test harness's capture, so that the
    // skip shows in the test run's output.
    let _ = writeln!(std::io::stderr(), "skipped {test}: {message}");
}
