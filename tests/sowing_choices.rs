//! Choices within a move (`sowing.take_choice`, `house.choice`, `capture.choice`): known
//! positions where a capture is taken or declined, where a house is made or declined, and where
//! the opponent decides about a four during the mover's sowing, with the exact boards; random play with choices on; the notation, the protocol, the
//! STATE form and the players on decisions.

mod sowing_common;

use ludus::game::{Evaluator, Game, Json, Notation, Phase, View};
use ludus::players::{self, AlphaBeta, Budget, Greedy, Mcts, Spec};
use ludus::protocol::Session;
use ludus::rules::Source;
use ludus::sowing::{SowingGame, SowingMove, SowingState};

const TAKE: SowingMove = SowingMove::TAKE;
const LEAVE: SowingMove = SowingMove::LEAVE;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use sowing_common::{from_text, game, stones, with, Rng};

fn set(g: &SowingGame, p0: &[u8], p1: &[u8], stores: [u8; 2]) -> SowingState {
    g.state_from_json(&json!({"to_move": 0, "pits": [p0, p1], "stores": stores}))
        .unwrap_or_else(|e| panic!("{e}"))
}

fn legal(g: &SowingGame, st: &SowingState) -> Vec<SowingMove> {
    let mut v = Vec::new();
    g.legal_moves(st, &mut v);
    v
}

/// Plays a move given as text (as a person or the protocol would), checking it is legal.
fn play(g: &SowingGame, st: &mut SowingState, text: &str) -> Value {
    let mv = g.parse_move(st, text).unwrap_or_else(|e| panic!("{e}"));
    assert!(legal(g, st).contains(&mv), "{text} not listed as legal");
    g.play(st, &mv);
    g.state_json(st)
}

fn board(s: &Value) -> (Value, Value) {
    (s["pits"].clone(), s["stores"].clone())
}

/// South's pit 1 sows one stone into pit 2; the next pit, 3, is empty, so the sowing ends and
/// the pit beyond, South's own pit 4 with 5 stones, may be captured.
#[test]
fn the_mover_takes_or_declines_the_capture_beyond() {
    let g = game("sat-gharva-choice");
    let start = set(&g, &[1, 0, 0, 5, 0, 0, 0], &[2, 2, 2, 2, 2, 2, 2], [40, 38]);
    let mut st = start.clone();
    let s = play(&g, &mut st, "1");
    assert_eq!(g.phase(&st), Phase::Move(0));
    assert_eq!(legal(&g, &st), vec![TAKE, LEAVE]);
    assert_eq!(s["decision"]["question"], "capture");
    assert_eq!(s["decision"]["pits"], json!([[0, 4]]));
    assert_eq!(s["decision"]["stones"], 5);
    assert_eq!(s["ply"], 0);

    let mut taken = st.clone();
    let s = play(&g, &mut taken, "take");
    assert_eq!(
        board(&s),
        (
            json!([[0, 1, 0, 0, 0, 0, 0], [2, 2, 2, 2, 2, 2, 2]]),
            json!([45, 38])
        )
    );
    assert_eq!(
        (s["to_move"].clone(), s["ply"].clone()),
        (json!(1), json!(1))
    );
    assert!(s.get("decision").is_none());

    let s = play(&g, &mut st, "LEAVE");
    assert_eq!(
        board(&s),
        (
            json!([[0, 1, 0, 5, 0, 0, 0], [2, 2, 2, 2, 2, 2, 2]]),
            json!([40, 38])
        )
    );
    assert_eq!(s["to_move"], 1);

    // The bundled default takes it, as the reference traces have it.
    let g = game("sat-gharva");
    let mut st = set(&g, &[1, 0, 0, 5, 0, 0, 0], &[2, 2, 2, 2, 2, 2, 2], [40, 38]);
    let s = play(&g, &mut st, "1");
    assert_eq!(
        board(&s),
        (
            json!([[0, 1, 0, 0, 0, 0, 0], [2, 2, 2, 2, 2, 2, 2]]),
            json!([45, 38])
        )
    );
}

/// South sows pit 7 (two stones): the first makes a four in North's pit 1, and North, not the
/// mover, is asked; the second goes into North's pit 2, the sowing ends before North's empty
/// pit 3, and South may capture North's pit 4 beyond it.
#[test]
fn the_owner_decides_about_a_four_in_the_opponents_sowing() {
    let g = game("sat-gharva-choice");
    let mut st = set(&g, &[0, 0, 0, 0, 0, 0, 2], &[3, 1, 0, 2, 2, 2, 2], [42, 42]);
    let s = play(&g, &mut st, "7");
    assert_eq!(
        g.phase(&st),
        Phase::Move(1),
        "North decides about North's four"
    );
    assert_eq!(s["to_move"], 1);
    assert_eq!(legal(&g, &st), vec![TAKE, LEAVE]);
    assert_eq!(
        s["decision"],
        json!({"question": "take", "mover": 0, "pit": 7, "pits": [[1, 1]], "stones": 4,
               "in_hand": 1, "options": ["take", "leave"]})
    );
    assert_eq!(
        board(&s),
        (
            json!([[0, 0, 0, 0, 0, 0, 0], [4, 1, 0, 2, 2, 2, 2]]),
            json!([42, 42])
        )
    );
    assert_eq!(stones(&s), 98);

    // North takes the four; then South's capture of North's pit 4.
    let mut took = st.clone();
    let s = play(&g, &mut took, "take");
    assert_eq!(g.phase(&took), Phase::Move(0));
    assert_eq!(s["decision"]["question"], "capture");
    assert_eq!(s["decision"]["pits"], json!([[1, 4]]));
    assert_eq!(
        board(&s),
        (
            json!([[0, 0, 0, 0, 0, 0, 0], [0, 2, 0, 2, 2, 2, 2]]),
            json!([42, 46])
        )
    );
    let mut captured = took.clone();
    let s = play(&g, &mut captured, "take");
    assert_eq!(
        board(&s),
        (
            json!([[0, 0, 0, 0, 0, 0, 0], [0, 2, 0, 0, 2, 2, 2]]),
            json!([44, 46])
        )
    );
    assert_eq!(
        (s["to_move"].clone(), s["ply"].clone()),
        (json!(1), json!(1))
    );
    let s = play(&g, &mut took, "leave");
    assert_eq!(
        board(&s),
        (
            json!([[0, 0, 0, 0, 0, 0, 0], [0, 2, 0, 2, 2, 2, 2]]),
            json!([42, 46])
        )
    );

    // North leaves the four: it stays, the sowing goes on the same way.
    let s = play(&g, &mut st, "leave");
    assert_eq!(g.phase(&st), Phase::Move(0));
    assert_eq!(
        board(&s),
        (
            json!([[0, 0, 0, 0, 0, 0, 0], [4, 2, 0, 2, 2, 2, 2]]),
            json!([42, 42])
        )
    );
    let s = play(&g, &mut st, "take");
    assert_eq!(
        board(&s),
        (
            json!([[0, 0, 0, 0, 0, 0, 0], [4, 2, 0, 0, 2, 2, 2]]),
            json!([44, 42])
        )
    );
    assert_eq!(s["to_move"], 1);
}

/// The mover decides about fours with `take_choice = "mover"`: the same four is South's call.
#[test]
fn the_mover_decides_about_fours_when_the_rules_say_so() {
    let g = from_text(&with("sat-gharva", "sowing", "take_choice = \"mover\""));
    let mut st = set(&g, &[0, 0, 0, 0, 0, 0, 2], &[3, 1, 0, 2, 2, 2, 2], [42, 42]);
    play(&g, &mut st, "7");
    assert_eq!(g.phase(&st), Phase::Move(0));
    let s = play(&g, &mut st, "take");
    // No capture choice in these rules: the pit beyond is taken, the move is over.
    assert_eq!(
        board(&s),
        (
            json!([[0, 0, 0, 0, 0, 0, 0], [0, 2, 0, 0, 2, 2, 2]]),
            json!([44, 46])
        )
    );
    assert_eq!(s["to_move"], 1);
}

/// South's pit 9 (three stones): one back into it, then North's pits 1 and 2; North's pit 2
/// now holds 3, a house South may make (its 3 stones to South's store) or leave (an ordinary
/// pit of 3, odd: no capture).
#[test]
fn the_mover_makes_or_declines_a_house() {
    let g = from_text(&with("toguz-korgool", "house", "choice = \"mover\""));
    let mut st = set(
        &g,
        &[9, 9, 9, 9, 9, 9, 9, 9, 3],
        &[9, 2, 9, 9, 9, 9, 9, 9, 9],
        [13, 0],
    );
    let s = play(&g, &mut st, "9");
    assert_eq!(g.phase(&st), Phase::Move(0));
    assert_eq!(legal(&g, &st), vec![TAKE, LEAVE]);
    assert_eq!(
        s["decision"],
        json!({"question": "house", "mover": 0, "pit": 9, "pits": [[1, 2]], "stones": 3,
               "in_hand": 0, "options": ["take", "leave"]})
    );
    assert_eq!(s["ply"], 0);
    assert!(g.parse_move(&st, "9").is_err());

    let mut made = st.clone();
    let s = play(&g, &mut made, "take");
    assert_eq!(s["houses"], json!([[1, 2], null]));
    assert_eq!(
        board(&s),
        (
            json!([[9, 9, 9, 9, 9, 9, 9, 9, 1], [10, 0, 9, 9, 9, 9, 9, 9, 9]]),
            json!([16, 0])
        )
    );
    assert_eq!(
        (s["to_move"].clone(), s["ply"].clone()),
        (json!(1), json!(1))
    );

    let s = play(&g, &mut st, "leave");
    assert_eq!(s["houses"], json!([null, null]));
    assert_eq!(
        board(&s),
        (
            json!([[9, 9, 9, 9, 9, 9, 9, 9, 1], [10, 3, 9, 9, 9, 9, 9, 9, 9]]),
            json!([13, 0])
        )
    );
    assert_eq!(s["to_move"], 1);
    // The bundled file makes it at once, without a question.
    let plain = game("toguz-korgool");
    let mut auto = set(
        &plain,
        &[9, 9, 9, 9, 9, 9, 9, 9, 3],
        &[9, 2, 9, 9, 9, 9, 9, 9, 9],
        [13, 0],
    );
    let s = play(&plain, &mut auto, "9");
    assert_eq!(
        s["houses"],
        json!([[1, 2], null]),
        "the bundled file makes it"
    );
    assert!(plain.describe().contains("becomes your house"));
    assert!(g.describe().contains("may become (the mover decides"));
}

/// Rules with choices, each beside the same rules without: answering `take` to every choice
/// plays exactly the game without (through relays, captures sown on, houses, matches).
fn variants() -> Vec<(SowingGame, SowingGame)> {
    let choice = "choice = \"mover\"";
    vec![
        (game("sat-gharva"), game("sat-gharva-choice")),
        (
            game("sat-gharva"),
            from_text(&with("sat-gharva", "sowing", "take_choice = \"mover\"")),
        ),
        (
            game("uuholo"),
            from_text(&with("uuholo", "capture", choice)),
        ),
        (
            game("omweso"),
            from_text(&with("omweso", "capture", choice)),
        ),
        (game("kalah"), from_text(&with("kalah", "capture", choice))),
        (
            game("toguz-korgool"),
            from_text(&with("toguz-korgool", "capture", choice)),
        ),
        (
            game("toguz-korgool"),
            from_text(&with("toguz-korgool", "house", choice)),
        ),
    ]
}

#[test]
fn taking_every_choice_plays_the_game_without_choices() {
    let mut asked = 0;
    for (plain, choosing) in variants() {
        let mut rng = Rng(5);
        for i in 0..40 {
            let (mut a, mut b) = (plain.new_game(i % 2), choosing.new_game(i % 2));
            for _round in 0..3 {
                while plain.phase(&a) != Phase::Over {
                    let moves = legal(&plain, &a);
                    let mv = moves[rng.below(moves.len())];
                    plain.play(&mut a, &mv);
                    choosing.play(&mut b, &mv);
                    while choosing.state_json(&b).get("decision").is_some() {
                        assert_eq!(legal(&choosing, &b), vec![TAKE, LEAVE]);
                        choosing.play(&mut b, &TAKE);
                        asked += 1;
                    }
                    let (x, y) = (plain.state_json(&a), choosing.state_json(&b));
                    for key in ["pits", "stores", "to_move", "ply", "result", "match"] {
                        assert_eq!(x.get(key), y.get(key), "{}: {key}", choosing.name());
                    }
                }
                match (plain.next_game(&a, 0), choosing.next_game(&b, 0)) {
                    (Some(x), Some(y)) => (a, b) = (x, y),
                    _ => break,
                }
            }
        }
    }
    assert!(asked > 1000, "{asked} choices");
}

/// Random play with random decisions: stones are never created or lost (those in hand of a
/// paused move counted), a decision's phase names its decider, every game ends; and every
/// legal move's text reads back as that move.
#[test]
fn random_choices_keep_every_stone_and_read_back() {
    for (_, g) in variants() {
        let total = u64::from(g.total_stones());
        let mut rng = Rng(9);
        let (mut decisions, mut by_opponent) = (0, 0);
        for i in 0..60 {
            let mut st = g.new_game(i % 2);
            let mut steps = 0;
            while g.phase(&st) != Phase::Over {
                let s = g.state_json(&st);
                assert_eq!(stones(&s), total, "{}: stones created or lost", g.name());
                let moves = legal(&g, &st);
                for mv in &moves {
                    let text = g.move_text(&st, mv);
                    assert_eq!(g.parse_move(&st, &text), Ok(*mv), "{text}");
                    assert_eq!(g.move_json(&st, mv)["text"], json!(text));
                }
                if let Some(d) = s.get("decision") {
                    assert_eq!(moves, vec![TAKE, LEAVE]);
                    assert_eq!(
                        g.phase(&st),
                        Phase::Move(s["to_move"].as_u64().unwrap() as usize)
                    );
                    assert!(
                        g.state_from_json(&s).is_err(),
                        "a paused move is not set up"
                    );
                    decisions += 1;
                    if d["mover"] != s["to_move"] {
                        by_opponent += 1;
                    }
                } else {
                    assert!(moves.iter().all(|&m| m != TAKE && m != LEAVE));
                }
                let mv = moves[rng.below(moves.len())];
                g.play(&mut st, &mv);
                steps += 1;
                assert!(steps < 100_000, "{}: a game that does not end", g.name());
            }
            assert_eq!(stones(&g.state_json(&st)), total);
        }
        assert!(decisions > 50, "{}: {decisions} decisions", g.name());
        if g.name() == "sat-gharva-choice" {
            assert!(by_opponent > 10, "{by_opponent} decisions by the opponent");
        }
    }
}

#[test]
fn bad_decisions_say_why_and_change_nothing() {
    let g = game("sat-gharva-choice");
    let mut st = set(&g, &[0, 0, 0, 0, 0, 0, 2], &[3, 1, 0, 2, 2, 2, 2], [42, 42]);
    let e = g.parse_move(&st, "take").unwrap_err().to_string();
    assert!(e.contains("no choice is awaited"), "{e}");
    play(&g, &mut st, "7");
    let before = st.clone();
    for text in [
        "7",
        "",
        "tak",
        "take leave",
        "\u{0}",
        "-1",
        "99999999999999999999",
    ] {
        let e = g.parse_move(&st, text).unwrap_err().to_string();
        assert!(e.contains("`take` or `leave`"), "{text}: {e}");
    }
    assert_eq!(st, before);
    // A paused move cannot be set up; a `decision` of null is no decision.
    let mut s = g.state_json(&st);
    let e = g.state_from_json(&s).unwrap_err().to_string();
    assert!(e.contains("`decision`"), "{e}");
    s["decision"] = Value::Null;
    s["stores"] = json!([42, 43]);
    assert!(g.state_from_json(&s).is_ok());
    // Nothing to agree on in the middle of a move.
    let uuholo = from_text(&with("uuholo", "capture", "choice = \"mover\""));
    let mut paused = uuholo.new_game(0);
    while uuholo.state_json(&paused).get("decision").is_none() {
        let moves = legal(&uuholo, &paused);
        uuholo.play(&mut paused, &moves[0]);
    }
    let kept = paused.clone();
    assert!(!uuholo.end_by_agreement(&mut paused));
    assert_eq!(paused, kept);
}

#[test]
fn a_decision_goes_through_the_protocol() {
    let mut s = Session::default();
    let mut ask = |request: Value| {
        let (response, _) = s.handle_line(&request.to_string());
        response
    };
    ask(json!({"op": "load", "rules": "sat-gharva-choice"}));
    let state = json!({"to_move": 0, "pits": [[0, 0, 0, 0, 0, 0, 2], [3, 1, 0, 2, 2, 2, 2]],
                       "stores": [42, 42]});
    ask(json!({"op": "set", "state": state}));
    let r = ask(json!({"op": "play", "move": "7"}));
    assert_eq!(r["state"]["to_move"], 1);
    let moves = ask(json!({"op": "legal"}))["moves"].clone();
    assert_eq!(
        moves,
        json!([{"decision": "take", "text": "take"}, {"decision": "leave", "text": "leave"}])
    );
    // What `go` proposes for North, and each listed move's text, play.
    let go = ask(json!({"op": "go", "player": "alphabeta:d2"}));
    assert!(moves.as_array().unwrap().contains(&go["move"]), "{go}");
    let paused = ask(json!({"op": "state"}))["state"].clone();
    let refused = ask(json!({"op": "play", "move": "2"}));
    assert_eq!(refused["ok"], false);
    assert_eq!(ask(json!({"op": "state"}))["state"], paused);
    let refused = ask(json!({"op": "set", "state": paused}));
    assert!(refused["error"].as_str().unwrap().contains("`decision`"));
    assert_eq!(ask(json!({"op": "state"}))["state"], paused);
    let r = ask(json!({"op": "play", "move": moves[1]["text"]}));
    assert_eq!(r["state"]["to_move"], 0);
    assert_eq!(r["state"]["decision"]["question"], "capture");
    let r = ask(json!({"op": "play", "move": "take"}));
    assert_eq!(
        r["state"]["pits"],
        json!([[0, 0, 0, 0, 0, 0, 0], [4, 2, 0, 0, 2, 2, 2]])
    );
    assert_eq!(r["state"]["stores"], json!([44, 42]));
    assert_eq!(r["state"]["to_move"], 1);
}

/// The search players ask the decider, who may be the mover's opponent, and judge from the
/// decider's side.
#[test]
fn players_decide_for_the_decider() {
    let g = game("sat-gharva-choice");
    let mut st = set(&g, &[0, 0, 0, 0, 0, 0, 2], &[3, 1, 0, 2, 2, 2, 2], [42, 42]);
    play(&g, &mut st, "7");
    let moves = legal(&g, &st);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    // North's four: taking it is worth 4 to North.
    for spec in [
        Spec::Greedy(Greedy),
        Spec::AlphaBeta(AlphaBeta {
            budget: Budget::Depth(1),
        }),
    ] {
        let i = players::choose(&g, &st, &moves, spec, &mut rng);
        assert_eq!(moves[i], TAKE, "{spec}");
    }
    let a = players::analyse(
        &g,
        &st,
        &moves,
        Spec::AlphaBeta(AlphaBeta {
            budget: Budget::Depth(1),
        }),
        true,
        &mut rng,
    )
    .unwrap();
    assert_eq!(a.value, 4.0, "from North's side: {a:?}");
    let m = players::analyse(
        &g,
        &st,
        &moves,
        Spec::Mcts(Mcts {
            budget: Budget::Iterations(300),
            threads: 1,
        }),
        false,
        &mut rng,
    )
    .unwrap();
    assert!(m.best < 2);
    // South's capture after North leaves the four: worth 2 to South.
    play(&g, &mut st, "leave");
    let i = players::choose(
        &g,
        &st,
        &moves,
        Spec::AlphaBeta(AlphaBeta {
            budget: Budget::Depth(1),
        }),
        &mut rng,
    );
    assert_eq!(moves[i], TAKE);
    assert_eq!(g.material(&st, 0), 42);
}

#[test]
fn a_choice_without_a_take_is_warned_about() {
    let text = Source::find("kalah")
        .unwrap()
        .text
        .replace("[sowing]\n", "[sowing]\ntake_choice = \"owner\"\n");
    let report = ludus::registry::check(&text);
    assert!(
        report
            .diagnostics
            .iter()
            .any(|d| d.message.contains("`take_choice` without `take`")),
        "{:#?}",
        report.diagnostics
    );
    let text = Source::find("kalah")
        .unwrap()
        .text
        .replace("[capture]\n", "[capture]\nchoice = \"owner\"\n");
    let report = ludus::registry::check(&text);
    assert!(report.errors().next().is_some());
}

/// Kubuguza (`lap_way = "chosen"`): a relay from one of the four set holes may go on
/// clockwise where that captures; the mover decides, `cw` or `ccw`, and captured stones sown
/// on are offered the same choice where it is open.
#[test]
fn a_lap_may_turn_where_the_rules_open_both_ways() {
    let g = from_text(&std::fs::read_to_string("docs/games/kubuguza.toml").unwrap());
    let at = |south: [u8; 16], north: [u8; 16]| {
        g.state_from_json(
            &json!({"to_move": 0, "ply": 10, "pits": [south, north], "stores": [0, 0]}),
        )
        .unwrap_or_else(|e| panic!("{e}"))
    };
    // South: pit 5 two, pit 7 two, pit 4 one, pit 2 one; North's pits 5, 12 (facing South's
    // pit 4) and 7, 10 (facing South's pit 2) hold stones, its pits 2 and 15 (facing pit 7) none.
    let mut south = [0u8; 16];
    (south[4], south[6], south[3], south[1], south[15]) = (2, 2, 1, 1, 30);
    let mut north = [0u8; 16];
    (north[4], north[11], north[6], north[9], north[0]) = (3, 2, 1, 1, 21);
    let total = 64;
    let fresh = at(south, north);
    let mut st = fresh.clone();
    // Pit 5 is not one of the four: counterclockwise only, into 6 and 7 (three now); pit 7
    // faces nothing to capture, so it is lifted, and its way is asked.
    let s = play(&g, &mut st, "5");
    assert_eq!(s["decision"]["question"], "way");
    assert_eq!(s["decision"]["options"], json!(["cw", "ccw"]));
    assert_eq!(s["to_move"], 0);
    assert_eq!(
        g.awaited(&st).unwrap(),
        "to sow South's pit 7 (3 stones) clockwise (`cw`) or counterclockwise (`ccw`)"
    );
    assert_eq!(legal(&g, &st), vec![TAKE, LEAVE]);
    assert_eq!(g.move_text(&st, &TAKE), "cw");
    assert_eq!(g.move_text(&st, &LEAVE), "ccw");
    let e = g.parse_move(&st, "take").unwrap_err().to_string();
    assert!(e.contains("a way round is awaited, `cw` or `ccw`"), "{e}");
    // Counterclockwise: 8, 9 and 10, empty: the move ends.
    let mut ccw = st.clone();
    let s = play(&g, &mut ccw, "ccw");
    assert_eq!(s["to_move"], 1);
    assert_eq!(
        s["pits"][0],
        json!([0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 0, 0, 0, 0, 0, 30])
    );
    // Clockwise: 6, 5 and 4, which held one: it faces North's pits 5 and 12, both taken (five
    // stones); sown on from pit 7 again, where clockwise would reach pit 2, facing North's pits
    // 7 and 10: asked again, of the captured stones.
    let s = play(&g, &mut st, "cw");
    assert_eq!(s["decision"]["question"], "way");
    assert_eq!(s["decision"]["in_hand"], 5);
    assert_eq!(
        g.awaited(&st).unwrap(),
        "to sow the 5 captured stones from South's pit 7 clockwise (`cw`) or counterclockwise (`ccw`)"
    );
    assert_eq!(s["pits"][1][4], 0);
    assert_eq!(s["pits"][1][11], 0);
    // Counterclockwise: 8 to 12, the last empty: the move ends.
    let s = play(&g, &mut st, "ccw");
    assert_eq!(s["to_move"], 1);
    assert_eq!(
        s["pits"][0],
        json!([0, 1, 0, 2, 1, 2, 0, 1, 1, 1, 1, 1, 0, 0, 0, 30])
    );
    assert_eq!(stones(&s), total);
    // In a player's first move nothing captures, so nothing turns: pit 7 is lifted and sown
    // counterclockwise without a question.
    let mut first = g
        .state_from_json(&json!({"to_move": 0, "ply": 0, "pits": [south, north], "stores": [0, 0]}))
        .unwrap();
    let s = play(&g, &mut first, "5");
    assert!(s.get("decision").is_none(), "{s}");
    assert_eq!(s["to_move"], 1);
    // A computer's trial of a move takes the rules' way; random play keeps every stone, and
    // every decision's text reads back.
    let mut rng = Rng(5);
    let mut ways = 0;
    for i in 0..40 {
        let mut st = g.new_game(i % 2);
        let total = u64::from(g.total_stones());
        while g.phase(&st) != Phase::Over {
            let s = g.state_json(&st);
            assert_eq!(stones(&s), total);
            let moves = legal(&g, &st);
            for mv in &moves {
                let text = g.move_text(&st, mv);
                assert_eq!(g.parse_move(&st, &text), Ok(*mv), "{text}");
            }
            if s.get("decision").is_some() {
                ways += 1;
            }
            g.play(&mut st, &moves[rng.below(moves.len())]);
        }
    }
    assert!(ways > 20, "{ways} ways asked");
}

/// A lap's way round asked mid-move goes through the protocol as any decision: its options are
/// the two ways, `cw` and `ccw`.
#[test]
fn a_way_decision_goes_through_the_protocol() {
    let mut s = Session::default();
    let mut ask = |request: Value| {
        let (response, _) = s.handle_line(&request.to_string());
        response
    };
    let r = ask(json!({"op": "load", "rules": "docs/games/kubuguza.toml"}));
    assert_eq!(r["ok"], true, "{r}");
    let south = [0, 1, 0, 1, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 30];
    let north = [21, 0, 0, 0, 3, 0, 1, 0, 0, 1, 0, 2, 0, 0, 0, 0];
    let state = json!({"to_move": 0, "ply": 10, "pits": [south, north], "stores": [0, 0]});
    assert_eq!(ask(json!({"op": "set", "state": state}))["ok"], true);
    let r = ask(json!({"op": "play", "move": "5"}));
    assert_eq!(r["state"]["decision"]["question"], "way");
    assert_eq!(r["state"]["decision"]["options"], json!(["cw", "ccw"]));
    let moves = ask(json!({"op": "legal"}))["moves"].clone();
    assert_eq!(
        moves,
        json!([{"decision": "cw", "text": "cw"}, {"decision": "ccw", "text": "ccw"}])
    );
    // A pit, or a word of another question, is refused and changes nothing.
    let paused = ask(json!({"op": "state"}))["state"].clone();
    for bad in ["7", "take", "clockwise"] {
        let refused = ask(json!({"op": "play", "move": bad}));
        assert_eq!(refused["ok"], false, "{bad}");
    }
    assert_eq!(ask(json!({"op": "state"}))["state"], paused);
    // Clockwise captures North's pits 5 and 12; the captured stones' way is asked in turn.
    let r = ask(json!({"op": "play", "move": "cw"}));
    assert_eq!(r["state"]["decision"]["question"], "way");
    assert_eq!(r["state"]["decision"]["in_hand"], 5);
    let r = ask(json!({"op": "play", "move": "ccw"}));
    assert_eq!(
        r["state"]["pits"][0],
        json!([0, 1, 0, 2, 1, 2, 0, 1, 1, 1, 1, 1, 0, 0, 0, 30])
    );
    assert_eq!(r["state"]["to_move"], 1);
}
