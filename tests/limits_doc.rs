//! The README's limits table lists every cap of `ludus::limits::LIMITS` with its value.

const README: &str = include_str!("../README.md");

#[test]
fn the_readme_lists_every_limit() {
    let rows = ludus::limits::LIMITS.rows();
    assert_eq!(rows.len(), 25);
    for (what, value) in rows {
        let row = format!("| {what} | {value} |");
        assert!(README.contains(&row), "README lacks the row\n{row}");
    }
}
