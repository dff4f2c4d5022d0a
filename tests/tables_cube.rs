//! The doubling cube (`[cube]`): its decisions as moves, the stakes, the Jacoby and Crawford
//! rules, beavers and the cube's highest value, on known positions; STATE's `cube` read back
//! and refused where impossible; bad `[cube]` tables located; random cubeful games conserve
//! checkers and score the cube.

mod tables_common;
use tables_common::{legal, load, play, tables_compile};

use ludus::game::{Ending, Evaluator, Game, Json, Notation, Phase, Roll, View};
use ludus::rules::{RulesDoc, Source};
use ludus::tables::{TablesGame, TablesState};
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

/// Backgammon for money, with `cube` as its `[cube]` table's lines.
fn money(cube: &str) -> TablesGame {
    let text = Source::find("backgammon-money").unwrap().text;
    tables_compile(&text.replace("[cube]\njacoby = true\n", &format!("[cube]\n{cube}\n"))).unwrap()
}

fn roll(g: &TablesGame, st: &mut TablesState, dice: [u8; 2]) {
    g.roll(st, &Roll::new(&dice).unwrap()).unwrap();
}

fn cube(g: &TablesGame, st: &TablesState) -> Value {
    g.state_json(st)["cube"].clone()
}

/// A position of the standard board set up by STATE fields (`to_move` to roll unless given).
fn set(g: &TablesGame, fields: Value) -> TablesState {
    let mut v = json!({"to_move": 0, "phase": "roll", "dice": []});
    for (k, x) in fields.as_object().unwrap() {
        v[k] = x.clone();
    }
    g.state_from_json(&v)
        .unwrap_or_else(|e| panic!("{v}: {e:?}"))
}

/// White with its last checker on its 1-point; Black with all fifteen in White's home table
/// (Black's 20-point, White's 5: a backgammon), none off.
fn white_bears_off_last(g: &TablesGame, cube: Value) -> TablesState {
    let mut white = [0u8; 24];
    white[0] = 1;
    let mut black = [0u8; 24];
    black[19] = 15;
    set(
        g,
        json!({"points": [white, black], "bar": [0, 0], "off": [14, 0], "to_move": 0,
               "phase": "move", "dice": [6, 5], "cube": cube}),
    )
}

#[test]
fn a_double_is_decided_before_rolling_and_answered_at_once() {
    let g = load("backgammon-money");
    let mut st = g.new_game(0);
    // The first turn has no cube decision: the opening roll is played at once.
    assert_eq!(g.phase(&st), Phase::Roll(0));
    roll(&g, &mut st, [3, 1]);
    play(&g, &mut st, "8/5 6/5");
    // Black, about to roll, may double.
    assert_eq!(g.phase(&st), Phase::Move(1));
    assert_eq!(legal(&g, &st), ["double", "roll"]);
    assert_eq!(
        cube(&g, &st),
        json!({"value": 1, "owner": null, "decision": "double"})
    );
    assert_eq!(g.awaited(&st).unwrap(), "to double (to 2) or roll");
    play(&g, &mut st, "DOUBLE");
    // White answers.
    assert_eq!(g.phase(&st), Phase::Move(0));
    assert_eq!(legal(&g, &st), ["drop", "take"]);
    assert_eq!(cube(&g, &st)["decision"], "take");
    assert!(g.awaited(&st).unwrap().contains("take or drop"));
    play(&g, &mut st, "take");
    // Black rolls; White owns the cube at 2.
    assert_eq!(g.phase(&st), Phase::Roll(1));
    assert_eq!(
        cube(&g, &st),
        json!({"value": 2, "owner": 0, "decision": null})
    );
    assert!(g.render(&st, 0).contains("cube: 2, White's"));
    roll(&g, &mut st, [6, 4]);
    play(&g, &mut st, "24/14");
    // White, the owner, may redouble; Black, once White has moved, may not.
    assert_eq!(legal(&g, &st), ["double", "roll"]);
    play(&g, &mut st, "double");
    play(&g, &mut st, "take");
    assert_eq!(
        cube(&g, &st),
        json!({"value": 4, "owner": 1, "decision": null})
    );
    assert_eq!(g.phase(&st), Phase::Roll(0));
    roll(&g, &mut st, [2, 1]);
    play(&g, &mut st, "6/4 5/4");
    assert_eq!(legal(&g, &st), ["double", "roll"], "Black owns the cube");
    play(&g, &mut st, "roll");
    roll(&g, &mut st, [2, 1]);
    play(&g, &mut st, "13/11 6/5");
    // White does not own the cube: it rolls without a decision.
    assert_eq!(g.phase(&st), Phase::Roll(0));
    // Cube decisions are not plies: three turns were played.
    assert_eq!(g.plies(&st), 4);
}

#[test]
fn a_dropped_double_loses_the_game_at_the_stakes_before_it() {
    let g = load("backgammon-match");
    let mut st = g.new_game(0);
    roll(&g, &mut st, [3, 1]);
    play(&g, &mut st, "8/5 6/5");
    play(&g, &mut st, "double");
    play(&g, &mut st, "drop");
    assert_eq!(g.phase(&st), Phase::Over);
    let o = g.outcome(&st).unwrap();
    assert_eq!((o.winner, o.scores), (Some(1), [0, 1]));
    assert_eq!(o.ending, Ending::Declined);
    assert_eq!(o.reason, "double declined");
    assert_eq!(g.match_standing(&st).unwrap().points, [0, 1]);
    assert!(g
        .render(&st, 0)
        .contains("Black wins (1 point, double declined)"));
    // After a take at 2, a redouble dropped costs 2.
    let mut st = g.next_game(&st, 0).unwrap();
    roll(&g, &mut st, [3, 1]);
    play(&g, &mut st, "8/5 6/5");
    play(&g, &mut st, "double");
    play(&g, &mut st, "take");
    roll(&g, &mut st, [6, 4]);
    play(&g, &mut st, "24/14");
    // White, owning the cube at 2, redoubles; Black drops.
    play(&g, &mut st, "double");
    play(&g, &mut st, "drop");
    assert_eq!(g.outcome(&st).unwrap().scores, [2, 0]);
    assert_eq!(g.match_standing(&st).unwrap().points, [2, 1]);
    // The STATE of a game ended by a drop reads back.
    let back = g.state_from_json(&g.state_json(&st)).unwrap();
    assert_eq!(g.outcome(&back), g.outcome(&st));
}

#[test]
fn the_winner_scores_the_game_times_the_cube_and_the_jacoby_rule_waits_for_a_turn() {
    // A backgammon (3) at a cube of 4: 12, with or without the Jacoby rule.
    for g in [money("jacoby = true"), money("")] {
        let mut st = white_bears_off_last(&g, json!({"value": 4, "owner": 1}));
        play(&g, &mut st, "1/off");
        assert_eq!(g.outcome(&st).unwrap().scores, [12, 0]);
    }
    // In the middle at 1: the Jacoby rule counts a single game, without it the backgammon.
    let mut st = white_bears_off_last(&money("jacoby = true"), json!({"value": 1}));
    play(&money("jacoby = true"), &mut st, "1/off");
    assert_eq!(money("").outcome(&st).unwrap().scores, [1, 0]);
    let plain = money("");
    let mut st = white_bears_off_last(&plain, json!({"value": 1}));
    play(&plain, &mut st, "1/off");
    assert_eq!(plain.outcome(&st).unwrap().scores, [3, 0]);
}

#[test]
fn the_cube_stops_at_its_highest_value_and_beavers_keep_it() {
    let g = money("max = 2");
    let mut st = set(
        &g,
        json!({"points": [[0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2],
        [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]],
        "bar": [0, 0], "off": [0, 0], "to_move": 0, "phase": "move", "dice": [],
        "cube": {"value": 1, "decision": "double"}, "ply": 1}),
    );
    play(&g, &mut st, "double");
    // No beaver unless the rules allow one.
    assert_eq!(legal(&g, &st), ["drop", "take"]);
    play(&g, &mut st, "take");
    roll(&g, &mut st, [3, 1]);
    play(&g, &mut st, "8/5 6/5");
    // Black owns the cube at its highest: it rolls at once; White does not own it.
    assert_eq!(g.phase(&st), Phase::Roll(1));
    roll(&g, &mut st, [3, 1]);
    play(&g, &mut st, "8/5 6/5");
    assert_eq!(g.phase(&st), Phase::Roll(0));

    let g = money("beavers = true");
    let mut st = g.new_game(0);
    roll(&g, &mut st, [3, 1]);
    play(&g, &mut st, "8/5 6/5");
    play(&g, &mut st, "double");
    assert_eq!(legal(&g, &st), ["beaver", "drop", "take"]);
    play(&g, &mut st, "beaver");
    // White beavered: the cube at 4, White's; Black, who doubled, rolls.
    assert_eq!(
        cube(&g, &st),
        json!({"value": 4, "owner": 0, "decision": null})
    );
    assert_eq!(g.phase(&st), Phase::Roll(1));
    // No beaver beyond the highest value.
    let g = money("beavers = true\nmax = 2");
    let mut st = g.new_game(0);
    roll(&g, &mut st, [3, 1]);
    play(&g, &mut st, "8/5 6/5");
    play(&g, &mut st, "double");
    assert_eq!(legal(&g, &st), ["drop", "take"]);
}

/// Plays `st`'s game to its end at random, leaving the cube alone (rolling, taking).
fn finish(g: &TablesGame, st: &mut TablesState, rng: &mut impl Rng) {
    while g.phase(st) != Phase::Over {
        step(g, st, rng, true);
    }
}

/// Whether any turn of `st`'s game, played to its end, offers the cube.
fn offers_the_cube(g: &TablesGame, mut st: TablesState, seed: u64) -> bool {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut moves = Vec::new();
    while g.phase(&st) != Phase::Over {
        if let Phase::Move(_) = g.phase(&st) {
            g.legal_moves(&st, &mut moves);
            if g.cube_action(&moves[0]).is_some() {
                return true;
            }
        }
        let mut one = st;
        step(g, &mut one, &mut rng, false);
        st = one;
    }
    false
}

/// One roll or one random move of `st`'s game; with `quiet`, cube decisions roll and take.
fn step(g: &TablesGame, st: &mut TablesState, rng: &mut impl Rng, quiet: bool) {
    let mut moves = Vec::new();
    match g.phase(st) {
        Phase::Roll(_) => {
            let d = g.dice().unwrap().sample(rng);
            g.roll(st, &d).unwrap();
        }
        Phase::Move(_) => {
            g.legal_moves(st, &mut moves);
            let i = match quiet && g.cube_action(&moves[0]).is_some() {
                true => 0,
                false => rng.gen_range(0..moves.len()),
            };
            g.play(st, &moves[i]);
        }
        Phase::Over => {}
    }
}

#[test]
fn the_crawford_game_is_played_without_the_cube_and_the_games_after_it_with() {
    let g = load("backgammon-match");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    // White reaches 6 of 7 by a game won: the next game is the Crawford game.
    let before = set(
        &g,
        json!({"points": [[0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]],
            "bar": [0, 0], "off": [14, 1], "to_move": 0, "phase": "move", "dice": [6, 5],
            "match": {"game": 3, "points": [4, 3]}, "cube": {"value": 2, "owner": 1}}),
    );
    let mut st = before;
    play(&g, &mut st, "2/off");
    // A single game (Black has borne a checker off) at the cube of 2.
    assert_eq!(g.match_standing(&st).unwrap().points, [6, 3]);
    let crawford = g.next_game(&st, 1).unwrap();
    assert_eq!(
        cube(&g, &crawford),
        json!({"value": 1, "owner": null, "decision": null, "crawford": true, "post_crawford": false})
    );
    assert!(g
        .render(&crawford, 0)
        .contains("the Crawford game: no doubling"));
    for seed in 0..20 {
        assert!(!offers_the_cube(&g, crawford, seed), "seed {seed}");
    }
    // Black wins the Crawford game: the games after it are post-Crawford, with the cube.
    let mut st = crawford;
    finish(&g, &mut st, &mut rng);
    let winner = g.outcome(&st).unwrap().winner.unwrap();
    if winner == 0 {
        assert!(g.match_standing(&st).unwrap().over);
        return;
    }
    let after = g.next_game(&st, 0).unwrap();
    assert_eq!(cube(&g, &after)["post_crawford"], true);
    assert!((0..20).any(|seed| offers_the_cube(&g, after, seed)));
}

#[test]
fn cube_words_are_refused_where_they_do_not_belong() {
    let g = load("backgammon-money");
    let mut st = g.new_game(0);
    roll(&g, &mut st, [3, 1]);
    let e = g.parse_move(&st, "double").unwrap_err().to_string();
    assert!(e.contains("decided on before rolling"), "{e}");
    play(&g, &mut st, "8/5 6/5");
    let e = g.parse_move(&st, "take").unwrap_err().to_string();
    assert!(e.contains("type roll or double"), "{e}");
    let e = g.parse_move(&st, "24/18").unwrap_err().to_string();
    assert!(e.contains("type roll or double"), "{e}");
    play(&g, &mut st, "double");
    let e = g.parse_move(&st, "roll").unwrap_err().to_string();
    assert!(e.contains("type take or drop"), "{e}");
    // A game without a cube.
    let plain = load("backgammon");
    let mut st = plain.new_game(0);
    roll(&plain, &mut st, [3, 1]);
    let e = plain.parse_move(&st, "double").unwrap_err().to_string();
    assert!(e.contains("no doubling cube"), "{e}");
}

#[test]
fn impossible_cube_states_are_refused_and_change_nothing() {
    let g = load("backgammon-match");
    let refused = |g: &TablesGame, cube: Value, extra: Value, why: &str| {
        let mut v = g.state_json(&g.new_game(0));
        v["cube"] = cube;
        for (k, x) in extra.as_object().unwrap() {
            v[k] = x.clone();
        }
        let e = g.state_from_json(&v).unwrap_err().to_string();
        assert!(e.contains(why), "{v}: {e}");
    };
    refused(&g, json!({"value": 3}), json!({}), "power of two");
    refused(
        &g,
        json!({"value": 2048, "owner": 0}),
        json!({}),
        "power of two from 1 to 1024",
    );
    refused(
        &g,
        json!({"value": 1, "owner": 0}),
        json!({}),
        "owner must be null",
    );
    refused(&g, json!({"value": 2}), json!({}), "owner must be 0 or 1");
    refused(
        &g,
        json!({"value": 2, "owner": 2}),
        json!({}),
        "cube.owner must be 0, 1 or null",
    );
    refused(&g, json!("2"), json!({}), "must be an object");
    refused(
        &g,
        json!({"decision": "maybe"}),
        json!({}),
        "cube.decision must be",
    );
    refused(
        &g,
        json!({"decision": "double"}),
        json!({}),
        "phase \"move\" with dice []",
    );
    refused(
        &g,
        json!({"value": 2, "owner": 1, "decision": "double"}),
        json!({"phase": "move"}),
        "may not double here",
    );
    refused(
        &g,
        json!({"value": 2, "owner": 0, "decision": "take"}),
        json!({"phase": "move"}),
        "may not double here",
    );
    refused(
        &g,
        json!({"crawford": true}),
        json!({}),
        "one short of the target",
    );
    refused(
        &g,
        json!({"crawford": true, "post_crawford": true}),
        json!({"match": {"game": 2, "points": [6, 0]}}),
        "cannot both be true",
    );
    refused(
        &g,
        json!({"crawford": true, "decision": "double"}),
        json!({"match": {"game": 2, "points": [6, 0]}, "phase": "move"}),
        "may not double here",
    );
    refused(
        &load("backgammon-money"),
        json!({"crawford": false}),
        json!({}),
        "no Crawford game",
    );
    refused(
        &load("backgammon"),
        json!({"value": 1}),
        json!({}),
        "no doubling cube",
    );
    // A game ended by a drop names its winner.
    refused(
        &g,
        json!({"value": 2, "owner": 0}),
        json!({"phase": "over", "to_move": null, "result": {"reason": "double declined"}}),
        "needs `result.winner`",
    );
}

#[test]
fn every_cube_state_of_random_games_reads_back() {
    for name in ["backgammon-money", "backgammon-match"] {
        let g = load(name);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut decisions = 0;
        for game in 0..30 {
            let mut st = g.new_game(game % 2);
            loop {
                let back = g.state_from_json(&g.state_json(&st)).unwrap();
                assert_eq!(g.state_json(&back), g.state_json(&st), "{name}");
                assert_eq!(g.pieces(&st), 30);
                if let Phase::Move(_) = g.phase(&st) {
                    let mut moves = Vec::new();
                    g.legal_moves(&st, &mut moves);
                    decisions += usize::from(g.cube_action(&moves[0]).is_some());
                }
                if g.phase(&st) == Phase::Over {
                    let o = g.outcome(&st).unwrap();
                    let value = g.state_json(&st)["cube"]["value"].as_i64().unwrap() as i32;
                    let w = o.winner.unwrap();
                    match o.ending {
                        Ending::Declined => assert_eq!(o.scores[w], value),
                        _ => assert!(o.scores[w] % value == 0 && o.scores[w] >= value),
                    }
                    match g.next_game(&st, 0) {
                        Some(next) => st = next,
                        None => break,
                    }
                    continue;
                }
                step(&g, &mut st, &mut rng, false);
            }
        }
        assert!(decisions > 50, "{name}: {decisions}");
    }
}

#[test]
fn bad_cube_tables_are_located() {
    let text = Source::find("backgammon-money").unwrap().text;
    let check = |cube: &str| {
        let t = text.replace("[cube]\njacoby = true\n", &format!("[cube]\n{cube}\n"));
        let doc = RulesDoc::parse(&t).unwrap();
        let (game, found) = ludus::tables::check(&doc);
        let d = found.first().cloned().expect("a diagnostic");
        let span = d.span.clone().unwrap();
        (game.is_some(), d.message, t[span].to_string())
    };
    let (ok, message, at) = check("max = 48");
    assert!(!ok && message.contains("not a power of two"), "{message}");
    assert_eq!(at, "48");
    let (ok, message, at) = check("max = 4096");
    assert!(!ok && message.contains("out of range"), "{message}");
    assert_eq!(at, "4096");
    let (ok, message, _) = check("crawford = true");
    assert!(
        ok && message.contains("means nothing without `[match]`"),
        "{message}"
    );
    let (ok, message, _) = check("double = true");
    assert!(!ok && message.contains("double"), "{message}");
    // In a match, the money-game rules are warned of and left out.
    let text = Source::find("backgammon-match")
        .unwrap()
        .text
        .replace("[cube]\n", "[cube]\njacoby = true\n");
    let (game, found) = ludus::tables::check(&RulesDoc::parse(&text).unwrap());
    assert!(found[0].message.contains("money-game rule"), "{found:?}");
    let g = game.unwrap();
    let mut st = white_bears_off_last(&g, json!({"value": 1}));
    play(&g, &mut st, "1/off");
    assert_eq!(
        g.outcome(&st).unwrap().scores,
        [3, 0],
        "no Jacoby rule in a match"
    );
    assert!(g.describe().contains("The Crawford rule"));
    assert!(!g.describe().contains("Jacoby"));
}

#[test]
fn computer_players_double_take_and_drop_by_cubeful_equities() {
    // Without the bundled network: the chance from the family's heuristic, and no gammons.
    let text = Source::find("backgammon-money").unwrap().text;
    let g = tables_compile(&text.replace("network = \"backgammon\"", "")).unwrap();
    // A race, White to decide: each side's fifteen on its 6-point but `white` and `black` of
    // them moved on to the 1-point (5 pips each).
    let race = |white: u8, black: u8, answer: bool| {
        let (mut w, mut b) = ([0u8; 24], [0u8; 24]);
        (w[5], w[0]) = (15 - white, white);
        (b[5], b[0]) = (15 - black, black);
        let decision = if answer { "take" } else { "double" };
        set(
            &g,
            json!({"points": [w, b], "bar": [0, 0], "off": [0, 0], "to_move": 0,
                "phase": "move", "dice": [], "cube": {"value": 1, "decision": decision}}),
        )
    };
    let decide = |st: &TablesState| {
        let mut moves = Vec::new();
        g.legal_moves(st, &mut moves);
        let i = ludus::players::choose(
            &g,
            st,
            &moves,
            "greedy".parse().unwrap(),
            &mut rand_chacha::ChaCha8Rng::seed_from_u64(1),
        );
        g.move_text(st, &moves[i])
    };
    // Level: roll. Ahead by 10 pips of 90: double. Far ahead and no gammon to play for:
    // double, to cash.
    assert_eq!(decide(&race(0, 0, false)), "roll");
    assert_eq!(decide(&race(2, 0, false)), "double");
    assert_eq!(decide(&race(15, 0, false)), "double");
    // Answering Black's double: 5 pips behind, take; 30 behind, drop.
    assert_eq!(decide(&race(0, 1, true)), "take");
    assert_eq!(decide(&race(0, 6, true)), "drop");
    let p = ludus::players::cube::winning_chance(&g, &race(2, 0, false)).unwrap();
    assert!((0.68..0.88).contains(&p), "{p}");
    // The chance grows with the position's value.
    let q = ludus::players::cube::winning_chance(&g, &race(3, 0, false)).unwrap();
    assert!(q > p && g.heuristic(&race(3, 0, false), 0) > g.heuristic(&race(2, 0, false), 0));
}

#[test]
fn in_a_match_the_score_decides_what_money_play_would_not() {
    // The races of the test above, at match scores (without the network: the heuristic's
    // chances), against the same positions in money play.
    let money_text = Source::find("backgammon-money").unwrap().text;
    let match_text = Source::find("backgammon-match").unwrap().text;
    let money = tables_compile(&money_text.replace("network = \"backgammon\"", "")).unwrap();
    let matched = tables_compile(&match_text.replace("network = \"backgammon\"", "")).unwrap();
    let race = |g: &TablesGame, (white, black): (u8, u8), cube: Value, standing: Value| {
        let (mut w, mut b) = ([0u8; 24], [0u8; 24]);
        (w[5], w[0]) = (15 - white, white);
        (b[5], b[0]) = (15 - black, black);
        let mut fields = json!({"points": [w, b], "bar": [0, 0], "off": [0, 0], "to_move": 0,
            "phase": "move", "dice": [], "cube": cube});
        if !standing.is_null() {
            fields["match"] = standing;
        }
        let st = set(g, fields);
        let mut moves = Vec::new();
        g.legal_moves(&st, &mut moves);
        let i = ludus::players::choose(
            g,
            &st,
            &moves,
            "greedy".parse().unwrap(),
            &mut rand_chacha::ChaCha8Rng::seed_from_u64(1),
        );
        g.move_text(&st, &moves[i])
    };
    // Far ahead: money play doubles to cash; after the Crawford game, White one point from
    // the match (Black four away) never doubles: winning this game wins the match anyway.
    let ahead = json!({"value": 1, "decision": "double"});
    assert_eq!(race(&money, (15, 0), ahead.clone(), Value::Null), "double");
    let post = json!({"value": 1, "decision": "double", "post_crawford": true});
    let standing = json!({"game": 6, "points": [6, 3]});
    assert_eq!(race(&matched, (15, 0), post, standing), "roll");
    // 30 pips behind in the race, Black redoubling to 4: money play drops; two points from
    // the match for Black, a drop loses it, so White takes.
    let redoubled = json!({"value": 2, "owner": 1, "decision": "take"});
    assert_eq!(race(&money, (0, 6), redoubled.clone(), Value::Null), "drop");
    let standing = json!({"game": 3, "points": [2, 5]});
    assert_eq!(race(&matched, (0, 6), redoubled, standing), "take");
}

#[test]
fn with_a_network_the_cube_goes_by_its_chances() {
    let g = load("backgammon-money");
    let plain = Source::find("backgammon-money").unwrap().text;
    let plain = tables_compile(&plain.replace("network = \"backgammon\"", "")).unwrap();
    let chance =
        |g: &TablesGame, st: &TablesState| ludus::players::cube::winning_chance(g, st).unwrap();
    // After the opening 3-1 (8/5 6/5), Black decides: about even by the network, so it rolls.
    let mut st = g.new_game(0);
    roll(&g, &mut st, [3, 1]);
    play(&g, &mut st, "8/5 6/5");
    let p = chance(&g, &st);
    assert!((0.3..0.6).contains(&p), "{p}");
    assert_ne!(
        p,
        chance(&plain, &st),
        "the network's chance, not the heuristic's"
    );
    let mut moves = Vec::new();
    g.legal_moves(&st, &mut moves);
    let i = ludus::players::choose(
        &g,
        &st,
        &moves,
        "alphabeta:d1".parse().unwrap(),
        &mut rand_chacha::ChaCha8Rng::seed_from_u64(1),
    );
    assert_eq!(g.move_text(&st, &moves[i]), "roll");
    // White two rolls from home, Black far behind: a gammon is all but sure. Without the
    // Jacoby rule it is too good to double (White plays on for the gammon); under it the
    // gammon counts only once the cube is turned, so White doubles and cashes the game.
    let (mut w, mut b) = ([0u8; 24], [0u8; 24]);
    w[0] = 4;
    b[12] = 15;
    let decision = |g: &TablesGame| {
        let won = g
            .state_from_json(&json!({"points": [w, b], "bar": [0, 0], "off": [11, 0],
                "to_move": 0, "phase": "move", "dice": [],
                "cube": {"value": 1, "decision": "double"}}))
            .unwrap();
        assert!(chance(g, &won) > 0.88, "{}", chance(g, &won));
        let mut moves = Vec::new();
        g.legal_moves(&won, &mut moves);
        let i = ludus::players::choose(
            g,
            &won,
            &moves,
            "net".parse().unwrap(),
            &mut rand_chacha::ChaCha8Rng::seed_from_u64(1),
        );
        g.move_text(&won, &moves[i])
    };
    assert_eq!(decision(&money("")), "roll");
    assert_eq!(decision(&g), "double");
}

#[test]
fn xgids_of_stakes_the_rules_cannot_have_are_refused() {
    let start = "XGID=-b----E-C---eE---c-e----B-";
    let refused = |g: &TablesGame, state: Value, why: &str| {
        let e = g.state_from_json(&state).unwrap_err().to_string();
        assert!(e.contains(why), "{state}: {e}");
    };
    let plain = load("backgammon");
    let money = load("backgammon-money");
    let matched = load("backgammon-match");
    refused(
        &plain,
        json!({"xgid": format!("{start}:1:1:1:00:0:0:0:0:10")}),
        "the XGID has the cube at 2; these rules have no doubling cube",
    );
    refused(
        &money,
        json!({"xgid": format!("{start}:0:0:1:00:0:0:0:7:10")}),
        "the XGID is of a match to 7; these rules define no match",
    );
    refused(
        &matched,
        json!({"xgid": format!("{start}:0:0:1:00:0:0:0:5:10")}),
        "the XGID's match is to 5 points; these rules play to 7",
    );
    refused(
        &matched,
        json!({"xgid": format!("{start}:0:0:1:00:2:3:0:7:10"), "match": {"game": 2, "points": [0, 0]}}),
        "leave `match.points` out",
    );
    refused(
        &matched,
        json!({"xgid": format!("{start}:0:0:1:00:0:0:0:7:10"), "cube": {"value": 2}}),
        "gives `cube` too",
    );
    // What they can have reads: the score, the cube, the decision to double before the roll.
    let st = matched
        .state_from_json(&json!({"xgid": format!("{start}:1:-1:-1:00:3:2:0:7:10"),
            "match": {"game": 3}}))
        .unwrap();
    let v = matched.state_json(&st);
    assert_eq!(v["match"]["points"], json!([3, 2]));
    assert_eq!(
        v["cube"],
        json!({"value": 2, "owner": 1, "decision": "double",
        "crawford": false, "post_crawford": false})
    );
}

#[test]
fn a_resignation_concedes_a_single_game_a_gammon_or_a_backgammon_at_the_stakes() {
    use ludus::game::Resignation;
    // Money without the Jacoby rule: each level times the cube (White owns it at 2); Black,
    // to move, resigns.
    let g = money("");
    let fields = |st: &TablesState| {
        let mut v = g.state_json(st);
        v["to_move"] = json!(1);
        v["cube"] = json!({"value": 2, "owner": 0});
        set(&g, v)
    };
    let start = fields(&g.new_game(0));
    for (level, points, reason) in [
        (Resignation::Single, 2, "resigned"),
        (Resignation::Gammon, 4, "resigned a gammon"),
        (Resignation::Backgammon, 6, "resigned a backgammon"),
    ] {
        let mut st = start;
        assert!(g.resign(&mut st, level));
        let o = g.outcome(&st).unwrap();
        assert_eq!(
            (o.winner, o.scores, o.reason.as_str()),
            (Some(0), [points, 0], reason)
        );
        assert_eq!(o.ending, Ending::Resigned);
        // STATE writes and reads it back, and a finished game cannot be resigned again.
        let back = g.state_from_json(&g.state_json(&st)).unwrap();
        assert_eq!(back, st);
        assert!(!g.resign(&mut st, level));
        assert!(g
            .render(&st, 0)
            .contains(&format!("White wins ({points} points, {reason})")));
    }
    // STATE of a resignation without its winner, or after a player bore off, is refused.
    let mut v = g.state_json(&{
        let mut st = start;
        g.resign(&mut st, Resignation::Gammon);
        st
    });
    v["result"]["winner"] = Value::Null;
    let e = g.state_from_json(&v).unwrap_err();
    assert!(
        format!("{e:?}").contains("resigned a gammon needs `result.winner`"),
        "{e:?}"
    );
    // Under the Jacoby rule a gammon conceded while the cube is in the middle at 1 is a single
    // game; in a match the points count towards the target.
    let jacoby = load("backgammon-money");
    let mut st = jacoby.new_game(0);
    assert!(jacoby.resign(&mut st, Resignation::Gammon));
    assert_eq!(jacoby.outcome(&st).unwrap().scores, [0, 1]);
    let m = load("backgammon-match");
    let mut st = m.new_game(0);
    assert!(m.resign(&mut st, Resignation::Backgammon));
    assert_eq!(m.match_standing(&st).unwrap().points, [0, 3]);
}

#[test]
fn a_computer_accepts_a_resignation_that_concedes_what_it_expects() {
    use ludus::game::Resignation;
    // White two rolls from home, Black's fifteen on its midpoint: a gammon is all but sure.
    let g = load("backgammon-money");
    let (mut w, mut b) = ([0u8; 24], [0u8; 24]);
    w[0] = 4;
    b[12] = 15;
    let st = g
        .state_from_json(&json!({"points": [w, b], "bar": [0, 0], "off": [11, 0],
            "to_move": 1, "phase": "roll", "dice": [], "cube": {"value": 2, "owner": 1}}))
        .unwrap();
    let answer = |level: Resignation| {
        let mut ended = st;
        assert!(g.resign(&mut ended, level));
        ludus::players::cube::accepts_resignation(&g, &st, &ended)
    };
    assert!(
        !answer(Resignation::Single),
        "a single game is less than White expects"
    );
    assert!(answer(Resignation::Backgammon));
}
