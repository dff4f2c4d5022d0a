//! The README is the rules-file reference: every expression name either family offers, every
//! bundled game and every subcommand must be in it.

const README: &str = include_str!("../README.md");

#[test]
fn every_tables_expression_name_is_documented() {
    for (key, scope) in ludus::tables::scope_reference() {
        for name in scope.names() {
            assert!(
                README.contains(&format!("`{}", name.name)),
                "`{}` ({key}) undocumented",
                name.name
            );
        }
    }
}

#[test]
fn every_bundled_game_and_subcommand_is_named() {
    for (name, _) in ludus::rules::BUNDLED {
        assert!(
            README.contains(&format!("`{name}")),
            "bundled game `{name}` not in the README"
        );
    }
    for sub in [
        "list", "show", "validate", "explain", "play", "protocol", "bench",
    ] {
        assert!(
            README.contains(&format!("ludus {sub}")),
            "no example of `ludus {sub}`"
        );
    }
}
