//! `ludus train` and the `net:FILE` player: a short self-play run writes a network that loads,
//! plays legal games and already beats random play; bad networks and games without features
//! are refused with the reason.

mod cli_common;
use cli_common::{ludus, stderr, stdout};
use ludus::players::net::Net;
use std::path::PathBuf;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ludus-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn a_short_training_run_makes_a_player_that_beats_random() {
    // Hypergammon (backgammon with three checkers a side): short games, learnt in seconds.
    let file = scratch("bg.json");
    let o = ludus(&[
        "train",
        "hypergammon",
        "--games",
        "3000",
        "--hidden",
        "20",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("trained on 3000 games of `hypergammon`"),
        "{}",
        stdout(&o)
    );
    let net = Net::from_json(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!((net.inputs, net.hidden, net.games), (198, 20, 3000));
    // It plays whole games by the rules (each replayed by the record's check).
    let rec = scratch("bg.rec");
    let spec = format!("net:{}", file.display());
    let o = ludus(&[
        "play",
        "backgammon",
        "--white",
        &spec,
        "--black",
        "random",
        "--seed",
        "4",
        "--record",
        rec.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = ludus(&["replay", rec.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    // And wins most games against random play (an untrained network wins about half).
    let o = ludus(&[
        "analyze",
        "hypergammon",
        "--players",
        &format!("{spec},random"),
        "--games",
        "100",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let report: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let wins = report["wins"][0]
        .as_u64()
        .unwrap_or_else(|| panic!("{report}"));
    assert!(wins >= 65, "{wins} of 100: {report}");
    // A rules file names it (`[ai] network`, from its folder) for the plain `net` player.
    let rules = scratch("hyper.toml");
    let text = ludus::rules::Source::find("hypergammon").unwrap().text;
    let text = text.replace("network = \"hypergammon\"", "network = \"bg.json\"");
    assert!(text.contains("network = \"bg.json\""));
    std::fs::write(&rules, text).unwrap();
    let rules = rules.to_str().unwrap();
    let o = ludus(&[
        "analyze",
        rules,
        "--players",
        "net,random",
        "--games",
        "100",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let named: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(
        named["wins"], report["wins"],
        "the same network, the same games"
    );
    // A network of another size, or none, is refused at the key.
    let other = scratch("other.toml");
    let text = ludus::rules::Source::find("plakoto").unwrap().text;
    let naming = |net: &str| text.replace("network = \"plakoto\"", &format!("network = \"{net}\""));
    std::fs::write(&other, naming("bg.json")).unwrap();
    let said = |o: &std::process::Output| stdout(o) + &stderr(o);
    let o = ludus(&["validate", other.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(
        said(&o).contains("the network reads 198 features; this game's positions give 246"),
        "{}",
        said(&o)
    );
    std::fs::write(&other, naming("none.json")).unwrap();
    let o = ludus(&["validate", other.to_str().unwrap()]);
    assert!(said(&o).contains("cannot read the network"), "{}", said(&o));
    // Training goes on from a network.
    let more = scratch("bg-more.json");
    let o = ludus(&[
        "train",
        "backgammon",
        "--games",
        "20",
        "--from",
        file.to_str().unwrap(),
        "-o",
        more.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let more = Net::from_json(&std::fs::read_to_string(&more).unwrap()).unwrap();
    assert_eq!((more.hidden, more.games), (20, 3020));
}

#[test]
fn bad_networks_and_games_without_features_are_refused() {
    let refused = |args: &[&str], why: &str| {
        let o = ludus(args);
        assert!(!o.status.success(), "{args:?}");
        assert!(stderr(&o).contains(why), "{args:?}: {}", stderr(&o));
    };
    let out = scratch("x.json");
    let out = out.to_str().unwrap();
    refused(
        &["train", "oware", "--games", "1", "-o", out],
        "gives no features",
    );
    refused(
        &["train", "backgammon", "--hidden", "0", "-o", out],
        "--hidden 0",
    );
    refused(
        &["train", "backgammon", "--alpha", "0", "-o", out],
        "--alpha",
    );
    refused(
        &["play", "backgammon", "--white", "net:/no/such/file.json"],
        "cannot read /no/such/file.json",
    );
    let bad = scratch("bad.json");
    std::fs::write(&bad, "{\"rules\":\"x\"}").unwrap();
    refused(
        &[
            "play",
            "backgammon",
            "--white",
            &format!("net:{}", bad.display()),
        ],
        "not a network",
    );
    for (text, why) in [
        (
            r#"{"rules":"x","games":0,"inputs":2,"hidden":1,"w1":[0,0],"w2":[0,0,0,0,0,0,0,0,0,0]}"#,
            "do not match its sizes",
        ),
        (
            r#"{"rules":"x","games":0,"inputs":0,"hidden":1,"w1":[],"w2":[]}"#,
            "0 inputs",
        ),
    ] {
        let e = Net::from_json(text).unwrap_err();
        assert!(e.contains(why), "{text}: {e}");
    }
    // A network of another game's size: the player plays as greedy does.
    let plakoto = scratch("plakoto.json");
    let o = ludus(&[
        "train",
        "plakoto",
        "--games",
        "5",
        "--hidden",
        "4",
        "-o",
        plakoto.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = ludus(&[
        "play",
        "backgammon",
        "--white",
        &format!("net:{}", plakoto.display()),
        "--black",
        "greedy",
        "--seed",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// The bundled backgammon network: the bundled backgammon files name it, it is their default
/// opponent, and it beats `greedy` (which loses about half its games to `random`).
#[test]
fn the_bundled_network_is_backgammons_default_opponent_and_plays_well() {
    let o = ludus(&[
        "analyze",
        "backgammon",
        "--players",
        "net,greedy",
        "--games",
        "100",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let report: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let wins = report["wins"][0].as_u64().unwrap();
    assert!(wins >= 90, "{wins} of 100: {report}");
    let o = ludus(&[
        "play",
        "backgammon-match",
        "--white",
        "random",
        "--seed",
        "3",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Black (net) plays"), "{}", stdout(&o));
    let o = ludus(&["show", "backgammon-money"]);
    assert!(
        stdout(&o).contains("The `net` player plays by a learned network ([ai] network) of 40 hidden units, trained on 450000 games of `backgammon`."),
        "{}",
        stdout(&o)
    );
    // Plakoto's and Long Nardy's networks are theirs too.
    for name in ["plakoto", "long-nardy"] {
        let o = ludus(&[
            "analyze",
            name,
            "--players",
            "net,greedy",
            "--games",
            "50",
            "--json",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let report: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        let wins = report["wins"][0].as_u64().unwrap();
        assert!(wins >= 45, "{name}: {wins} of 50: {report}");
    }
    // Every bundled tables game names a network of its own, which plays it through.
    for (name, text) in ludus::rules::BUNDLED {
        if !text.contains("family = \"tables\"") {
            continue;
        }
        let o = ludus(&["show", name]);
        assert!(
            stdout(&o).contains("The `net` player plays by a learned network")
                // (a match of several games, each by its own)
                || stdout(&o).matches("The `net` player plays in ").count() > 1,
            "{name}: {}",
            stdout(&o)
        );
        let o = ludus(&[
            "analyze",
            name,
            "--players",
            "net:d0,random",
            "--games",
            "2",
            "--json",
        ]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        let report: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        // (Loads and plays whole games; how well, the strength tests above and the benchmarks.)
        assert_eq!(
            (&report["games"], &report["not_conserved"]),
            (&serde_json::json!(2), &serde_json::json!(0)),
            "{name}: {report}"
        );
    }
    // Sowing games have no network: greedy stays their default opponent.
    let o = ludus(&["play", "oware", "--south", "random", "--seed", "3"]);
    assert!(stdout(&o).contains("North (greedy)"), "{}", stdout(&o));
}

#[test]
fn the_net_player_looks_a_throw_ahead_as_told() {
    use ludus::game::{Game, Notation, Roll};
    use ludus::players::{analyse, Spec};
    use rand::SeedableRng;
    let spec = |text: &str| text.parse::<Spec>();
    for (text, shown) in [
        ("net", "net"),
        ("net:d1", "net"),
        ("net:d0", "net:d0"),
        ("net:d2", "net:d2"),
    ] {
        assert_eq!(spec(text).unwrap().to_string(), shown);
    }
    let e = spec("net:d3").unwrap_err();
    assert!(e.contains("a lookahead of d0 to d2 throws, not d3"), "{e}");
    // `t` and more is a file name to `net`, not a count of threads.
    let e = spec("net:t.json").unwrap_err();
    assert!(e.contains("cannot read t.json"), "{e}");
    let e = spec("net:/no/such.json:d0").unwrap_err();
    assert!(e.contains("cannot read /no/such.json"), "{e}");
    // After the opening 6-5 run, Black's 4-2: 0-ply values each move once; 1-ply values the
    // best of them again by every throw of the opponent, at far more positions.
    let (_, game) = ludus::registry::load("backgammon").unwrap();
    let mut st = game.new_game(0);
    game.roll(&mut st, &Roll::new(&[6, 5]).unwrap()).unwrap();
    let mv = game.parse_move(&st, "24/13").unwrap();
    game.play(&mut st, &mv);
    game.roll(&mut st, &Roll::new(&[4, 2]).unwrap()).unwrap();
    let mut moves = Vec::new();
    game.legal_moves(&st, &mut moves);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let at = |text: &str| {
        analyse(
            &game,
            &st,
            &moves,
            spec(text).unwrap(),
            false,
            &mut rng.clone(),
        )
        .unwrap()
    };
    let (flat, ahead) = (at("net:d0"), at("net:d1"));
    assert_eq!((flat.depth, flat.nodes), (0, moves.len() as u64));
    assert!(
        ahead.depth == 1 && ahead.nodes > 21 * moves.len() as u64,
        "{ahead:?}"
    );
    // The move chosen at 1-ply is one the 0-ply screen kept: among its best eight.
    let screened: Vec<usize> = flat.moves.iter().take(8).map(|m| m.index).collect();
    assert!(screened.contains(&ahead.best), "{ahead:?}");
    // Asked for every move (a hint), 1-ply values them all.
    let all = analyse(&game, &st, &moves, spec("net").unwrap(), true, &mut rng).unwrap();
    assert_eq!(all.moves.len(), moves.len());
}

#[test]
fn gammons_count_only_where_the_rules_score_them() {
    use ludus::game::{Evaluator, Game, Json, Roll};
    use ludus::players::analyse;
    use rand::SeedableRng;
    for (name, alike) in [
        ("backgammon", true),
        ("backgammon-money", false),
        ("portes", false),
    ] {
        let (_, g) = ludus::registry::load(name).unwrap();
        assert_eq!(g.scores_alike(&g.new_game(0)), alike, "{name}");
    }
    // White two rolls from home, Black's fifteen on its midpoint: a gammon is all but sure.
    // Single games value it as one game won.
    let value = |name: &str| {
        let (_, g) = ludus::registry::load(name).unwrap();
        let text = r#"{"points": [[4,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],
            [0,0,0,0,0,0,0,0,0,0,0,0,15,0,0,0,0,0,0,0,0,0,0,0]], "bar": [0, 0], "off": [11, 0],
            "to_move": 0, "phase": "roll", "dice": []}"#;
        let mut st = g
            .state_from_json(&serde_json::from_str(text).unwrap())
            .unwrap();
        g.roll(&mut st, &Roll::new(&[2, 1]).unwrap()).unwrap();
        let mut moves = Vec::new();
        g.legal_moves(&st, &mut moves);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        analyse(&g, &st, &moves, "net:d0".parse().unwrap(), false, &mut rng)
            .unwrap()
            .value
    };
    // A match counts the gammons (the cube in the middle at 1: 0.68 of a live cube worth a
    // cashed game, 0.32 of a dead one worth nearly 2); money play under the Jacoby rule does
    // not until the cube is turned.
    let single = value("backgammon");
    assert!(single > 0.95 && single <= 1.0, "{single}");
    let gammons = value("backgammon-match");
    assert!(gammons > single + 0.25, "{gammons}");
    let jacoby = value("backgammon-money");
    assert!(jacoby > 0.95 && jacoby <= 1.0, "{jacoby}");
}
