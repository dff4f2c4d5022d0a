//! `ludus analyze` and `ludus merge`: the counts add up, do not depend on the threads or the
//! shards that played them, come out the same from a scheduler's environment, and say what the
//! games did; bad partial results are refused with their place.

use ludus::analysis::{self, Setup, Shard, Tally};
use ludus::players::{Greedy, Random, Spec};
use ludus::registry::{self, AnyGame};
use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn ludus(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ludus"));
    command.args(args);
    for var in [
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_MIN",
        "SLURM_ARRAY_TASK_COUNT",
        "JOB_COMPLETION_INDEX",
    ] {
        command.env_remove(var);
    }
    command.envs(env.iter().copied());
    command.output().expect("run ludus")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ludus-analysis-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn load(name: &str) -> AnyGame {
    registry::load(name).expect("bundled").1
}

fn setup(players: [Spec; 2], games: u64, shard: Shard) -> Setup {
    Setup {
        players,
        games,
        seed: 7,
        shard,
    }
}

fn on_threads(threads: usize, game: &AnyGame, setup: &Setup) -> Tally {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| analysis::run(game, setup, |_| ()))
}

/// The JSON reports without the one field that may differ between runs.
fn without_seconds(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            v.as_object_mut().unwrap().remove("seconds");
            v
        })
        .collect()
}

#[test]
fn tallies_do_not_depend_on_threads_and_shards_add_up_to_the_whole() {
    for (name, players) in [
        ("oware", [Spec::Greedy(Greedy), Spec::Random(Random)]),
        ("sat-gharva", [Spec::Random(Random), Spec::Random(Random)]),
        ("backgammon", [Spec::Greedy(Greedy), Spec::Random(Random)]),
        ("tavli", [Spec::Random(Random), Spec::Greedy(Greedy)]),
    ] {
        let game = load(name);
        let games = if name == "tavli" { 9 } else { 61 };
        let whole = setup(players, games, Shard::WHOLE);
        let one = on_threads(1, &game, &whole);
        assert_eq!(on_threads(2, &game, &whole), one, "{name}: 2 threads");
        let mut sum = Tally::default();
        for index in 0..4 {
            let part = setup(players, games, Shard::new(index, 4).unwrap());
            sum = sum + on_threads(2, &game, &part);
        }
        assert_eq!(sum, one, "{name}: the sum of 4 shards");
        // The counts are of these games.
        assert_eq!(one.games, games);
        assert_eq!(one.wins[0] + one.wins[1] + one.draws, games);
        assert_eq!(one.plies.values().sum::<u64>(), games);
        assert_eq!(one.ended_by.values().sum::<u64>(), one.single_games);
        assert!(one.single_games >= games);
        assert!(one.choices >= one.decisions && one.decisions > 0);
    }
}

#[test]
fn greedy_beats_random_at_oware_as_player_a_or_b() {
    let game = load("oware");
    let t = on_threads(
        1,
        &game,
        &setup(
            [Spec::Greedy(Greedy), Spec::Random(Random)],
            200,
            Shard::WHOLE,
        ),
    );
    assert!(t.wins[0] > 150, "{t:?}");
    assert!(t.first_mover_wins <= t.wins[0] + t.wins[1]);
    let mirrored = on_threads(
        1,
        &game,
        &setup(
            [Spec::Random(Random), Spec::Greedy(Greedy)],
            200,
            Shard::WHOLE,
        ),
    );
    assert!(mirrored.wins[1] > 150, "{mirrored:?}");
}

#[test]
fn a_match_is_one_game_of_the_analysis() {
    let game = load("sat-gharva");
    let t = on_threads(
        2,
        &game,
        &setup(
            [Spec::Random(Random), Spec::Random(Random)],
            20,
            Shard::WHOLE,
        ),
    );
    assert_eq!(t.games, 20);
    assert!(t.single_games > 20, "matches of several rounds: {t:?}");
}

#[test]
fn json_reports_hold_the_documented_fields() {
    let o = ludus(
        &[
            "analyze",
            "oware",
            "kalah",
            "--games",
            "100",
            "--players",
            "greedy,random",
            "--json",
        ],
        &[],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let reports: Vec<Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(reports.len(), 2);
    for (r, name) in reports.iter().zip(["oware", "kalah"]) {
        assert_eq!(r["rules"], name);
        assert_eq!(r["games"], 100);
        assert_eq!(r["players"], serde_json::json!(["greedy", "random"]));
        let wins: Vec<u64> = serde_json::from_value(r["wins"].clone()).unwrap();
        let draws = r["draws"].as_u64().unwrap();
        assert_eq!(wins[0] + wins[1] + draws, 100);
        let rate = r["win_rate"][0].as_f64().unwrap();
        assert!((rate - wins[0] as f64 / 100.0).abs() < 1e-9);
        // The interval is Wilson's, and holds the rate.
        let [lo, hi] = analysis::wilson(wins[0], 100);
        assert!((r["ci95"][0][0].as_f64().unwrap() - lo).abs() < 1e-4);
        assert!((r["ci95"][0][1].as_f64().unwrap() - hi).abs() < 1e-4);
        assert!(lo <= rate && rate <= hi);
        let plies = &r["plies"];
        let (mean, p50, p95, max) = (
            plies["mean"].as_f64().unwrap(),
            plies["p50"].as_u64().unwrap(),
            plies["p95"].as_u64().unwrap(),
            plies["max"].as_u64().unwrap(),
        );
        assert!(0.0 < mean && p50 <= p95 && p95 <= max && mean <= max as f64);
        let ended: u64 = r["ended_by"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_u64().unwrap())
            .sum();
        assert_eq!(ended, 100);
        assert!(r["branching"].as_f64().unwrap() > 1.0);
        assert!(r["first_mover_wins"].as_u64().unwrap() <= 100);
        assert!(r["captures_per_game"].as_f64().unwrap() > 0.0);
        assert!(r["seconds"].as_f64().is_some());
    }
    // Kalah ends when a side is empty; Oware mostly by a majority of the stones.
    assert_eq!(reports[1]["ended_by"]["end of play"], 100);
    assert!(reports[0]["ended_by"]["score"].as_u64().unwrap() > 50);
}

#[test]
fn backgammon_counts_hits_not_captures() {
    let o = ludus(&["analyze", "backgammon", "--games", "20", "--json"], &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let r: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert!(r["hits_per_game"].as_f64().unwrap() > 1.0, "{r}");
    assert!(r.get("captures_per_game").is_none());
    assert_eq!(r["ended_by"]["borne off"], 20);
    // Single games scoring 1 a game: the points are the wins.
    assert_eq!(r["points"], r["wins"], "{r}");
    // For money, gammons and the cube add up: more points than games won.
    let o = ludus(
        &[
            "analyze",
            "backgammon-money",
            "--players",
            "net:d0,random",
            "--games",
            "20",
            "--json",
        ],
        &[],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let r: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let points = r["points"][0].as_u64().unwrap();
    assert!(points > r["wins"][0].as_u64().unwrap(), "{r}");
    assert_eq!(
        r["points_per_game"][0].as_f64().unwrap(),
        points as f64 / 20.0
    );
    let o = ludus(&["analyze", "backgammon-money", "--games", "4"], &[]);
    assert!(
        stdout(&o).contains("points a game (A / B)"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn merged_shards_equal_the_unsharded_run_from_the_command_line() {
    let args = |extra: &[&str]| -> Vec<String> {
        let mut a: Vec<String> = ["analyze", "oware", "hypergammon", "--games", "90"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        a.extend(["--players", "greedy,random"].map(String::from));
        if !extra.contains(&"--seed") {
            a.extend(["--seed", "3"].map(String::from));
        }
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let run = |extra: &[&str], env: &[(&str, &str)]| {
        let a = args(extra);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let o = ludus(&a, env);
        assert!(o.status.success(), "{a:?}: {}", stderr(&o));
        o
    };
    let whole = without_seconds(&stdout(&run(&["--json", "--jobs", "1"], &[])));
    assert_eq!(whole, without_seconds(&stdout(&run(&["--json"], &[]))));
    // Three shards: by the flag, by a Slurm array starting at 1, by a Kubernetes indexed Job.
    let (p0, p1, p2) = (scratch("p0"), scratch("p1"), scratch("p2"));
    run(&["--shard", "0/3", "-o", p0.to_str().unwrap()], &[]);
    let slurm = [
        ("SLURM_ARRAY_TASK_ID", "2"),
        ("SLURM_ARRAY_TASK_MIN", "1"),
        ("SLURM_ARRAY_TASK_COUNT", "3"),
    ];
    let o = run(&["-o", p1.to_str().unwrap()], &slurm);
    assert!(stderr(&o).contains("shard 1/3"), "{}", stderr(&o));
    run(
        &["--shards", "3", "-o", p2.to_str().unwrap()],
        &[("JOB_COMPLETION_INDEX", "2")],
    );
    let paths = [&p2, &p0, &p1].map(|p| p.to_str().unwrap().to_string());
    let o = ludus(&["merge", "--json", &paths[0], &paths[1], &paths[2]], &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(without_seconds(&stdout(&o)), whole);
    // The table form reads the same parts.
    let o = ludus(&["merge", &paths[0], &paths[1], &paths[2]], &[]);
    assert!(stdout(&o).contains("hypergammon") && stdout(&o).contains("A wins"));

    // A missing shard, a shard twice, and parts of another analysis are refused.
    let o = ludus(&["merge", &paths[0], &paths[1]], &[]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("shard(s) 1/3 missing"),
        "{}",
        stderr(&o)
    );
    let o = ludus(&["merge", &paths[0], &paths[1], &paths[1], &paths[2]], &[]);
    assert!(stderr(&o).contains("appears twice"), "{}", stderr(&o));
    let other = scratch("other");
    let a = args(&[
        "--shard",
        "0/3",
        "--seed",
        "4",
        "-o",
        other.to_str().unwrap(),
    ]);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    assert!(ludus(&a, &[]).status.success());
    let o = ludus(&["merge", &paths[0], other.to_str().unwrap()], &[]);
    assert!(
        stderr(&o).contains("from another analysis"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn corrupt_parts_are_refused_with_their_line() {
    let good = scratch("good");
    let o = ludus(
        &[
            "analyze",
            "kalah",
            "--games",
            "10",
            "--shard",
            "0/1",
            "-o",
            good.to_str().unwrap(),
        ],
        &[],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let line = std::fs::read_to_string(&good).unwrap();
    for (name, text, words) in [
        (
            "notjson",
            format!("\n{}", "{oops"),
            ":2: not a partial result",
        ),
        (
            "cooked",
            line.replacen("\"wins\":[", "\"wins\":[1000", 1),
            ":1: the counts of shard 0/1 of kalah do not add up",
        ),
        (
            "format",
            line.replacen("ludus-analysis-part/1", "other/9", 1),
            ":1: format `other/9`",
        ),
        (
            "shard",
            line.replacen("\"index\":0", "\"index\":5", 1),
            "the index must be 0 to 0",
        ),
        (
            "extra",
            line.replacen('{', "{\"x\":1,", 1),
            "unknown field `x`",
        ),
    ] {
        let path = scratch(name);
        std::fs::write(&path, text).unwrap();
        let o = ludus(&["merge", path.to_str().unwrap()], &[]);
        assert!(!o.status.success(), "{name}");
        assert!(stderr(&o).contains(words), "{name}: {}", stderr(&o));
    }
    let o = ludus(&["merge", "/nonexistent/part"], &[]);
    assert!(stderr(&o).contains("cannot read /nonexistent/part"));
}

/// A part written by `ludus analyze --shard 0/1` of 10 games of `rules`, as JSON.
fn part_of(rules: &str) -> Value {
    let path = scratch(&format!("part-{rules}"));
    let o = ludus(
        &[
            "analyze",
            rules,
            "--games",
            "10",
            "--shard",
            "0/1",
            "-o",
            path.to_str().unwrap(),
        ],
        &[],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

#[test]
fn parts_no_analysis_could_write_are_refused_at_their_line() {
    let kalah = part_of("kalah");
    let backgammon = part_of("backgammon");
    fn first_reason(part: &Value) -> String {
        let reasons = part["tally"]["ended_by"].as_object().unwrap();
        reasons.keys().next().unwrap().clone()
    }
    type Edit = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(&str, &Value, Edit, &str)> = vec![
        (
            "ended-by-sum",
            &kalah,
            Box::new(|p| {
                let reason = first_reason(p);
                let n = p["tally"]["ended_by"][&reason].as_u64().unwrap();
                p["tally"]["ended_by"][&reason] = (n + 1).into();
            }),
            "`ended_by` does not count its 10 single games",
        ),
        (
            "invented-reason",
            &kalah,
            Box::new(|p| {
                let reason = first_reason(p);
                let reasons = p["tally"]["ended_by"].as_object_mut().unwrap();
                let n = reasons.remove(&reason).unwrap();
                reasons.insert("eaten by the dog".into(), n);
            }),
            "`ended_by` counts `eaten by the dog`, not a way a game ends",
        ),
        (
            "not-conserved",
            &kalah,
            Box::new(|p| p["tally"]["not_conserved"] = 1.into()),
            "`not_conserved` is 1: an analysis creates or loses no piece",
        ),
        (
            "captures",
            &kalah,
            Box::new(|p| p["tally"]["captures"] = 1_000_000_000_000_000u64.into()),
            "1000000000000000 captures in",
        ),
        (
            "hits",
            &backgammon,
            Box::new(|p| p["tally"]["hits"] = 1_000_000_000_000_000u64.into()),
            "1000000000000000 hits in",
        ),
        (
            "captures-in-a-game-of-hits",
            &backgammon,
            Box::new(|p| p["tally"]["captures"] = 3.into()),
            "the rules count hits only",
        ),
        (
            "moves",
            &kalah,
            Box::new(|p| {
                let n = p["tally"]["decisions"].as_u64().unwrap();
                p["tally"]["decisions"] = (n + 1).into();
            }),
            "`plies` and `decisions` count different moves",
        ),
        (
            "player",
            &kalah,
            Box::new(|p| p["players"][0] = "random\u{1b}[2J".into()),
            "shard 0/1: `random\\u{1b}[2J` is not a computer player",
        ),
        (
            "digest",
            &kalah,
            Box::new(|p| p["digest"] = "\u{1b}]0;owned\u{7}".into()),
            "is not a SHA-256 in hex",
        ),
        (
            "condition",
            &kalah,
            Box::new(|p| p["tally"]["conditions_held"]["\u{1b}[2J"] = 0.into()),
            "is not a name",
        ),
    ];
    // Each on the file's second line, after a blank one.
    for (name, part, edit, words) in cases {
        let mut bad = part.clone();
        edit(&mut bad);
        let path = scratch(&format!("bad-{name}"));
        std::fs::write(&path, format!("\n{bad}\n")).unwrap();
        let o = ludus(&["merge", path.to_str().unwrap()], &[]);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", stdout(&o));
        let e = stderr(&o);
        assert!(e.contains(&format!("bad-{name}:2: ")), "{name}: {e}");
        assert!(e.contains(words), "{name}: {e}");
    }
    // The parts as written are merged.
    let path = scratch("good-parts");
    std::fs::write(&path, format!("{kalah}\n{backgammon}\n")).unwrap();
    let o = ludus(&["merge", path.to_str().unwrap()], &[]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn bad_arguments_say_why() {
    for (args, words) in [
        (
            vec!["--players", "human,random"],
            "--players must be computer players: an analysis seats no `human`",
        ),
        (
            vec!["--players", "greedy"],
            "two players separated by a comma",
        ),
        (vec!["--players", "greedy,mcst"], "did you mean `mcts`"),
        (vec!["--games", "0"], "--games must be 1 to"),
        (vec!["--jobs", "0"], "--jobs must be 1 to"),
        (vec!["--shard", "4/4"], "the index must be 0 to 3"),
        (vec!["--shard", "x"], "expected I/N"),
        (vec!["--shards", "4"], "needs the shard's index"),
    ] {
        let mut a = vec!["analyze", "oware"];
        a.extend(args.iter().copied());
        let o = ludus(&a, &[]);
        assert!(!o.status.success(), "{a:?}");
        assert!(stderr(&o).contains(words), "{a:?}: {}", stderr(&o));
    }
    let o = ludus(&["analyze", "owrae"], &[]);
    assert!(
        !o.status.success() && stderr(&o).contains("oware"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn validate_simulate_warns_of_games_that_do_not_end_and_of_a_seat_that_always_wins() {
    // Oware that never captures (no pit reaches 49 stones of 48) and never moves again:
    // random games wander until the ply guard stops them.
    let oware = include_str!("../rules/oware.toml");
    let endless = scratch("endless.toml");
    let endless_text = oware
        .replace("last.count in [2, 3]", "last.count == 49")
        .replace(
            "[sowing]",
            "[sowing]\nrelay = \"last\"\nrelay_choice = \"last.count == 49\"",
        )
        + "\n[turn]\nagain = \"last.count == 49\"\n";
    std::fs::write(&endless, &endless_text).unwrap();
    // Backgammon where White starts with every checker home: White wins every game.
    let backgammon = include_str!("../rules/backgammon.toml");
    let lopsided = scratch("lopsided.toml");
    std::fs::write(
        &lopsided,
        backgammon.replacen(
            "checkers = [\"24:2 13:5 8:3 6:5\", \"24:2 13:5 8:3 6:5\"]",
            "checkers = [\"2:15\", \"24:2 13:5 8:3 6:5\"]",
            1,
        ),
    )
    .unwrap();
    let o = ludus(
        &[
            "validate",
            "--simulate",
            "40",
            endless.to_str().unwrap(),
            lopsided.to_str().unwrap(),
            "oware",
        ],
        &[],
    );
    let err = stderr(&o);
    // Warnings alone pass.
    assert!(o.status.success(), "{err}");
    let line = |needle: &str| {
        endless_text
            .lines()
            .position(|l| l.starts_with(needle))
            .unwrap()
            + 1
    };
    assert!(
        err.contains("of 40 random games ran into the ply guard (100000 plies)")
            && err.contains(&format!("endless.toml:{}:1", line("[end]"))),
        "{err}"
    );
    for (words, key) in [
        (
            "no capture was made in 40 random game(s): `capture.when` never held",
            "when =",
        ),
        (
            "no player moved again in 40 random game(s): `turn.again` never held",
            "again =",
        ),
        (
            "no stop of a relay was offered in 40 random game(s): `sowing.relay_choice` never held",
            "relay_choice =",
        ),
    ] {
        assert!(err.contains(words), "{err}");
        assert!(
            err.contains(&format!("endless.toml:{}:", line(key))),
            "{key}: {err}"
        );
    }
    let setup_line = backgammon.lines().position(|l| l == "[setup]").unwrap() + 1;
    assert!(
        err.contains("White won every one of the 40 random games")
            && err.contains(&format!("lopsided.toml:{setup_line}:1")),
        "{err}"
    );
    // The bundled Oware plays cleanly.
    assert!(stdout(&o).contains("oware.toml: ok\n"), "{}", stdout(&o));
    let o = ludus(
        &[
            "validate",
            "--simulate",
            "100",
            "--deny-warnings",
            lopsided.to_str().unwrap(),
        ],
        &[],
    );
    assert!(!o.status.success());
}

#[test]
fn moves_cut_short_are_counted_and_warned_of() {
    // Kisolo (Lali): a strong side may relay for ever; random games reach the lap cap.
    let kisolo = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/games/kisolo-lali.toml");
    let o = ludus(&["validate", "--simulate", "20", kisolo], &[]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("were cut short: a sowing reached the lap cap"),
        "{err}"
    );
    let text = std::fs::read_to_string(kisolo).unwrap();
    let sowing = text.lines().position(|l| l == "[sowing]").unwrap() + 1;
    assert!(
        err.contains(&format!("kisolo-lali.toml:{sowing}:1")),
        "{err}"
    );
    let o = ludus(&["analyze", kisolo, "--games", "20", "--json"], &[]);
    let report: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert!(report["cut_short"].as_u64().unwrap() > 0, "{report}");
    // Oware's moves are never cut short.
    let o = ludus(&["analyze", "oware", "--games", "20", "--json"], &[]);
    let report: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(report["cut_short"], 0);
}
