//! The README's limits table lists every cap of `ludus::limits::LIMITS` with its value.

const README: &str = include_str!("../docs/architecture.md");

#[test]
fn the_readme_lists_every_limit() {
    let rows = ludus::limits::LIMITS.rows();
    assert_eq!(rows.len(), 36);
    for (what, value) in rows {
        let row = format!("| {what} | {value} |");
        assert!(README.contains(&row), "README lacks the row\n{row}");
    }
}

#[test]
fn the_readme_and_the_help_name_every_limit_that_may_be_lowered() {
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_ludus"))
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    for name in ludus::limits::Limits::SETTABLE {
        assert!(README.contains(&format!("`{name}`")), "README lacks {name}");
        assert!(help.contains(name), "`ludus --help` lacks {name}");
    }
}
