//! The README and the rules-file reference in `docs/`: every expression name either family
//! offers is in the reference, every bundled game and every subcommand in the README, and the
//! README's pictures and links are current.

const README: &str = include_str!("../README.md");
const RULES: &str = include_str!("../docs/rules.md");

#[test]
fn every_tables_expression_name_is_documented() {
    for (key, scope) in ludus::tables::scope_reference() {
        for name in scope.names() {
            assert!(
                RULES.contains(&format!("`{}", name.name)),
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
        "list", "show", "validate", "explain", "play", "replay", "export", "import", "train",
        "protocol", "serve", "bench", "analyze", "merge",
    ] {
        assert!(
            README.contains(&format!("ludus {sub}")),
            "no example of `ludus {sub}`"
        );
    }
}

/// The TOML blocks of the reference's section headed `heading`, joined: the file a reader who
/// follows the worked example ends with.
fn worked_example(heading: &str) -> String {
    let section = RULES
        .split("\n### ")
        .find(|s| s.starts_with(heading))
        .unwrap_or_else(|| panic!("no section `{heading}` in docs/rules.md"));
    let mut file = String::new();
    let mut in_toml = false;
    for line in section.lines() {
        match line {
            "```toml" => in_toml = true,
            "```" => in_toml = false,
            _ if in_toml => {
                file.push_str(line);
                file.push('\n');
            }
            _ => {}
        }
    }
    file
}

/// `ludus show` of a rules file, without its first two lines (the title and the source).
fn rules_in_words(path: &std::path::Path) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ludus"))
        .arg("show")
        .arg(path)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "ludus show {}: {text}",
        path.display()
    );
    text.lines().skip(2).collect::<Vec<_>>().join("\n")
}

#[test]
fn the_worked_examples_make_the_games_they_describe() {
    let dir = std::env::temp_dir().join(format!("ludus-readme-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The tables example is the rules of the file it names, sentence by sentence.
    let moultezim = dir.join("my-moultezim.toml");
    std::fs::write(
        &moultezim,
        worked_example("Worked example: a new tables game"),
    )
    .unwrap();
    let shipped =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/games/moultezim.toml");
    assert_eq!(rules_in_words(&moultezim), rules_in_words(&shipped));
    // And the race on one path.
    let russian = dir.join("my-russian.toml");
    std::fs::write(
        &russian,
        worked_example("Worked example: a race on one path"),
    )
    .unwrap();
    let shipped =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/games/russian-backgammon.toml");
    assert_eq!(rules_in_words(&russian), rules_in_words(&shipped));
    // The sowing example is the bundled file less the guard its header comment adds.
    let bohnenspiel = dir.join("my-bohnenspiel.toml");
    let text = worked_example("Worked example: a new game from its rules");
    std::fs::write(&bohnenspiel, format!("{text}repetition = true\n")).unwrap();
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/bohnenspiel.toml");
    assert_eq!(rules_in_words(&bohnenspiel), rules_in_words(&shipped));
    // The example of the newer mechanisms is the file it names.
    let djenon = dir.join("my-djenon-abe.toml");
    let text = worked_example("Worked example: a relay that stops where it captures");
    std::fs::write(&djenon, text).unwrap();
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/games/mancala-games/djenon-abe.toml");
    assert_eq!(rules_in_words(&djenon), rules_in_words(&shipped));
    // And the example of a board of another shape.
    let sat_gol = dir.join("my-sat-gol.toml");
    let text = worked_example("Worked example: a board of another shape");
    std::fs::write(&sat_gol, text).unwrap();
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/games/sat-gol.toml");
    assert_eq!(rules_in_words(&sat_gol), rules_in_words(&shipped));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_readme_pictures_are_the_starts_ludus_draws_and_its_links_lead_somewhere() {
    use ludus::game::{Game, View};
    for name in ["oware", "backgammon"] {
        let game = ludus::registry::load(name).unwrap().1;
        let drawn = game.svg(&game.new_game(0), 0);
        let path = format!("{}/docs/pictures/{name}.svg", env!("CARGO_MANIFEST_DIR"));
        let stored = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            stored.trim_end(),
            drawn.trim_end(),
            "{path} is not `ludus show {name} --svg`: regenerate it"
        );
    }
    for link in README.split("](").skip(1) {
        let target = &link[..link.find(')').unwrap()];
        if target.starts_with("http") {
            continue;
        }
        let file = target.split('#').next().unwrap();
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        assert!(
            path.exists(),
            "the README links to {target}, which is not there"
        );
    }
}
