//! Broken rules files give located diagnostics, never a panic.

use ludus::diagnostics::Diagnostic;
use ludus::registry::compile;
use std::ops::Range;

const OWARE: &str = include_str!("../rules/oware.toml");

fn errors(text: &str) -> Vec<Diagnostic> {
    match compile(text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(d) => d,
    }
}

/// The byte range of `at` inside the one occurrence of `marker` in `text` (`at` = "": the
/// empty range where `marker` starts).
fn spot(text: &str, marker: &str, at: &str) -> Range<usize> {
    assert_eq!(
        text.matches(marker).count(),
        1,
        "marker {marker:?} is not unique"
    );
    let start = text.find(marker).unwrap() + marker.find(at).expect("`at` inside `marker`");
    start..start + at.len()
}

/// The first diagnostic's message contains `message` and its span is exactly the range of `at`
/// inside `marker` (a text that occurs once): the place, not just the same text somewhere.
fn located(text: &str, message: &str, marker: &str, at: &str) -> Vec<Diagnostic> {
    let d = errors(text);
    let first = &d[0];
    assert!(
        first.message.contains(message),
        "message {:?} lacks {message:?}",
        first.message
    );
    let span = first.span.clone().expect("located");
    let expected = spot(text, marker, at);
    assert_eq!(
        span,
        expected,
        "span {span:?} = {:?}, expected {expected:?} = {at:?}",
        &text[span.clone()]
    );
    d
}

/// The rules load, with a warning that says `says`.
fn warned(text: &str, says: &str) {
    let report = ludus::registry::check(text);
    assert!(report.game.is_some(), "{says}: the rules did not load");
    assert!(
        report.diagnostics.iter().any(|d| d.message.contains(says)),
        "{says}: {:?}",
        report.diagnostics
    );
}

#[test]
fn unknown_key() {
    let text = OWARE.replace("must_feed = true", "must_feed = true\nmust_fed = true");
    let d = located(
        &text,
        "unknown field `must_fed`",
        "must_fed = true",
        "must_fed",
    );
    assert_eq!(d[0].notes[0], "did you mean `must_feed`?");
    assert!(
        d[0].notes[1].starts_with("the keys of `[sowing]`: `direction`"),
        "{d:?}"
    );
}

#[test]
fn misspelt_option() {
    let text = OWARE.replace(
        "direction = \"counterclockwise\"",
        "direction = \"sideways\"",
    );
    located(
        &text,
        "unknown value \"sideways\" for `sowing.direction`",
        "direction = \"sideways\"",
        "\"sideways\"",
    );
}

/// One mistake, one error: the repair that looks for further errors must not report the
/// stand-in value it tried in the mistake's place.
#[test]
fn misspelt_option_is_one_error() {
    let text = OWARE.replace(
        "direction = \"counterclockwise\"",
        "direction = \"sideways\"",
    );
    let d = errors(&text);
    assert_eq!(
        d.iter().map(|e| e.message.as_str()).collect::<Vec<_>>(),
        ["unknown value \"sideways\" for `sowing.direction`"]
    );
}

#[test]
fn unknown_name_in_an_expression_is_located_inside_it() {
    let text = OWARE.replace("last.count in [2, 3]", "last.cnt in [2, 3]");
    located(&text, "unknown name `last.cnt`", "last.cnt", "last.cnt");
}

#[test]
fn expression_syntax_error() {
    // The list is not closed: the error is at the bracket that is never closed.
    let text = OWARE.replace("last.count in [2, 3]", "last.count in [2, 3");
    located(
        &text,
        "syntax error: this `[` is never closed",
        "in [2, 3\"",
        "[",
    );
    // A value missing at the end of the expression: an empty span just before the quote.
    let text = OWARE.replace("last.count in [2, 3]", "last.count in");
    located(
        &text,
        "syntax error: expected a list such as `[2, 3]` or a range such as `2..3`, found the end of the expression",
        "\"\ntake = [\"last\"]",
        "",
    );
}

#[test]
fn expression_of_the_wrong_type() {
    let text = OWARE.replace(
        "when = \"last.side == opponent and last.count in [2, 3]\"",
        "when = \"last.count + 1\"",
    );
    located(
        &text,
        "expected a boolean expression, this is an integer",
        "last.count + 1",
        "last.count + 1",
    );
}

#[test]
fn name_of_another_context() {
    // `pit.side` belongs to the start and chain contexts, not to capture.when; the chain's own
    // `pit.side` is fine.
    let text = OWARE.replace("last.side == opponent and", "pit.side == opponent and");
    located(
        &text,
        "unknown name `pit.side`",
        "when = \"pit.side",
        "pit.side",
    );
}

#[test]
fn numbering_that_misses_a_pit() {
    let list = "[[1, 1], [1, 2], [1, 3], [1, 4], [1, 5]]";
    let text = OWARE.replace(
        "stores = false",
        &format!("stores = false\nnumbering = {list}"),
    );
    let d = located(&text, "the numbering misses pits", list, list);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].notes[0], "not numbered: [1, 6]");
}

#[test]
fn numbering_that_names_a_pit_twice() {
    let list = "[[1, 1], [1, 2], [1, 3], [1, 4], [1, 5], [1, 5]]";
    let text = OWARE.replace(
        "stores = false",
        &format!("stores = false\nnumbering = {list}"),
    );
    // The second [1, 5] is the one numbered twice; then [1, 6] is missing.
    let d = located(&text, "pit [1, 5] is numbered twice", "[1, 5]]", "[1, 5]");
    assert_eq!(d.len(), 2, "{d:?}");
    assert!(d[1].message.contains("misses"));
    assert_eq!(d[1].notes[0], "not numbered: [1, 6]");
    assert_eq!(d[1].span, Some(spot(&text, list, list)));
}

#[test]
fn numbering_outside_the_board() {
    let text = OWARE.replace(
        "stores = false",
        "stores = false\nnumbering = [[1, 1], [1, 2], [1, 3], [1, 4], [1, 5], [2, 6]]",
    );
    located(&text, "not a pit of this board", "[2, 6]", "[2, 6]");
}

#[test]
fn explicit_numbering_that_is_complete_is_accepted() {
    let text = OWARE.replace(
        "stores = false",
        "stores = false\nnumbering = [[1, 1], [1, 2], [1, 3], [1, 4], [1, 5], [1, 6]]",
    );
    assert!(compile(&text).is_ok());
}

#[test]
fn stores_and_houses_at_the_start_refuse_what_cannot_be() {
    located(
        &OWARE.replace("stones = 4", "stones = 4\nstores = [1, 2, 3]"),
        "`stores` lists two stores",
        "stores = [1, 2, 3]",
        "[1, 2, 3]",
    );
    located(
        &OWARE.replace("stones = 4", "stones = 4\nstores = [250, 0]"),
        "at most 255 stones in a game, stores included",
        "stores = [250, 0]",
        "[250, 0]",
    );
    let housed = |start: &str| format!("{OWARE}\n[house]\nstart = {start}\n");
    located(
        &housed("[[13]]"),
        "pit 13 is not on the board: a player's pits are 1 to 6, the pits across the board 7 to 12",
        "start = [[13]]",
        "[13]",
    );
    located(
        &housed("[[1], [7]]"),
        "a pit is a house of both players at the start",
        "start = [[1], [7]]",
        "[[1], [7]]",
    );
}

#[test]
fn stages_are_conditions_of_the_context_again() {
    // Each condition is located: a name the context lacks, a number where a condition goes.
    for (stages, says, at) in [
        (
            "[\"pit.count > 0\"]",
            "unknown name `pit.count`",
            "pit.count",
        ),
        ("[\"true\", \"mover.stage\"]", "", "mover.stage"),
    ] {
        let text = format!("{OWARE}\n[turn]\nstages = {stages}\n");
        let report = ludus::registry::check(&text);
        assert!(report.game.is_none(), "{stages}");
        let e = report.errors().next().expect("an error");
        assert!(e.message.contains(says), "{stages}: {}", e.message);
        assert_eq!(&text[e.span.clone().expect("a place")], at, "{stages}");
    }
}

#[test]
fn impossible_boards() {
    located(
        &OWARE.replace("pits = 6", "pits = 32"),
        "a player may own 1 to 31 pits",
        "pits = 32",
        "32",
    );
    located(
        &OWARE.replace("rows = 1", "rows = 3"),
        "`rows` must be 1 or 2",
        "rows = 3",
        "3",
    );
    located(
        &OWARE.replace("stones = 4", "stones = 40"),
        "at most 255 stones in a game",
        "stones = 40",
        "40",
    );
    located(
        &OWARE.replace("stones = 4", "layout = [[1, 2, 3]]"),
        "3 pits listed, the board has 6 a side",
        "layout = [[1, 2, 3]]",
        "[1, 2, 3]",
    );
    located(
        &OWARE.replace("pits = 6", "pits = \"six\""),
        "found the text \"six\", expected a whole number from 1 to 31",
        "pits = \"six\"",
        "\"six\"",
    );
}

#[test]
fn missing_required_key() {
    // Located at the table that lacks it.
    let text = OWARE.replace("pits = 6\n", "");
    // At the table's header.
    located(&text, "missing key `pits`", "[board]\nrows = 1", "[board]");
}

#[test]
fn stores_sown_without_stores() {
    let text = OWARE.replace("must_feed = true", "must_feed = true\nstores = \"own\"");
    // At the value that asks for stores.
    located(
        &text,
        "`sowing.stores` sows into stores, but the board has none",
        "stores = \"own\"",
        "\"own\"",
    );
}

#[test]
fn mangled_files_never_panic() {
    let texts: Vec<&str> = ludus::rules::BUNDLED
        .iter()
        .filter(|(_, t)| t.contains("family = \"sowing\""))
        .map(|(_, t)| *t)
        .collect();
    let mut seed = 5u64;
    let mut rejected = 0;
    for round in 0..3000 {
        let base = texts[round % texts.len()];
        let mut bytes = base.as_bytes().to_vec();
        for _ in 0..3 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let i = (seed >> 33) as usize % bytes.len();
            match seed % 4 {
                0 => {
                    bytes.remove(i);
                }
                1 => bytes.insert(i, b"0123456789[]=\",.x"[(seed >> 13) as usize % 17]),
                2 => bytes[i] = b'9',
                _ => {
                    let j = (i * 7 + 3) % bytes.len();
                    bytes.swap(i, j)
                }
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        if let Err(d) = compile(&text) {
            rejected += 1;
            for e in d {
                if let Some(s) = e.span {
                    assert!(
                        s.start <= s.end && s.end <= text.len(),
                        "span out of the file"
                    );
                }
            }
        }
    }
    assert!(rejected > 1000, "{rejected}");
}

#[test]
fn an_unclosed_bracket_in_an_expression_is_located_at_the_bracket() {
    let text = OWARE.replace("last.count in [2, 3]\"", "last.count in [2, 3\"");
    let d = errors(&text);
    let at = text.find("in [2, 3\"").unwrap() + 3;
    assert_eq!(d[0].message, "syntax error: this `[` is never closed");
    assert_eq!(d[0].span, Some(at..at + 1));
}

#[test]
fn a_side_compared_with_a_number_suggests_the_players() {
    let text = OWARE.replace("last.side == opponent and", "last.side == 1 and");
    let d = errors(&text);
    let at = text.find("last.side == 1").unwrap();
    assert_eq!(
        d[0].message,
        "type error: `last.side` is a player and `1` is an integer; compare `last.side` with \
         `mover` or `opponent`"
    );
    assert_eq!(d[0].span, Some(at..at + "last.side == 1".len()));
}

const TOGUZ: &str = include_str!("../rules/toguz-korgool.toml");
const OMWESO: &str = include_str!("../rules/omweso.toml");

#[test]
fn misspelt_first_drop_and_capture_destination_and_leftover() {
    let text = TOGUZ.replace("\nfirst_drop = \"origin\"", "\nfirst_drop = \"orign\"");
    let d = located(
        &text,
        "unknown value \"orign\" for `sowing.first_drop`",
        "\nfirst_drop = \"orign\"",
        "\"orign\"",
    );
    assert!(
        d[0].notes
            .iter()
            .any(|n| n.contains("did you mean \"origin\"")),
        "{d:?}"
    );
    let text = OMWESO.replace("\nto = \"sow\"", "\nto = \"hand\"");
    located(
        &text,
        "unknown value \"hand\" for `capture.to`",
        "\nto = \"hand\"",
        "\"hand\"",
    );
    let text = OMWESO.replace("\nleftover = \"opponent\"", "\nleftover = \"oponent\"");
    let d = located(
        &text,
        "unknown value \"oponent\" for `end.leftover`",
        "\nleftover = \"oponent\"",
        "\"oponent\"",
    );
    assert!(
        d[0].notes
            .iter()
            .any(|n| n.contains("did you mean \"opponent\"")),
        "{d:?}"
    );
}

#[test]
fn house_condition_errors_are_located() {
    let text = TOGUZ.replace("mover.house == 0", "mover.hose == 0");
    let d = located(
        &text,
        "unknown name `mover.hose`",
        "mover.hose",
        "mover.hose",
    );
    assert!(
        d[0].notes.iter().any(|n| n.contains("`mover.house`")),
        "{d:?}"
    );
    let text = TOGUZ.replace("last.count == 3 and", "last.count + 3 and");
    located(
        &text,
        "`last.count + 3` is an integer, but `and` works on conditions",
        "last.count + 3",
        "last.count + 3",
    );
    // `[house]` needs its condition, or houses at the start.
    let start = TOGUZ
        .find("when = \"last.side == opponent and last.count == 3")
        .unwrap();
    let end = start + TOGUZ[start..].find('\n').unwrap() + 1;
    let text = format!("{}{}", &TOGUZ[..start], &TOGUZ[end..]);
    let d = errors(&text);
    assert!(d[0].message.contains("`[house]` names no house"), "{d:?}");
    // Always false: a warning, not an error.
    let text = format!("{}when = \"false\"\n{}", &TOGUZ[..start], &TOGUZ[end..]);
    let report = ludus::registry::check(&text);
    assert_eq!(report.errors().count(), 0, "{:?}", report.diagnostics);
    assert!(report
        .diagnostics
        .iter()
        .any(|d| d.message.contains("`house.when` is always false")));
}

#[test]
fn behind_is_a_name_of_the_capture_and_house_contexts_only() {
    let text = OMWESO.replace("start = \"pit.count > 1\"", "start = \"behind.count > 1\"");
    located(
        &text,
        "unknown name `behind.count`",
        "behind.count > 1",
        "behind.count",
    );
}

/// A STATE's `houses` are checked: a wrong shape, a pit off the board, two houses in one pit, a
/// house holding stones, or houses for rules that make none are errors, never a panic.
#[test]
fn bad_houses_in_a_state_are_errors() {
    use ludus::game::Json;
    use ludus::registry::AnyGame;
    let AnyGame::Sowing(toguz) = ludus::registry::compile(TOGUZ).unwrap() else {
        panic!("a sowing game")
    };
    let AnyGame::Sowing(oware) = ludus::registry::compile(OWARE).unwrap() else {
        panic!("a sowing game")
    };
    let pits = serde_json::json!([[9, 0, 9, 9, 9, 9, 9, 9, 9], [9, 0, 9, 9, 9, 9, 9, 9, 9]]);
    let state = |houses: serde_json::Value| serde_json::json!({"to_move": 0, "pits": pits, "stores": [9, 9], "houses": houses});
    assert!(toguz
        .state_from_json(&state(serde_json::json!([[1, 2], [0, 2]])))
        .is_ok());
    for bad in [
        serde_json::json!([[1, 2]]),
        serde_json::json!([[1, 10], null]),
        serde_json::json!([[2, 2], null]),
        serde_json::json!([[1, 2], [1, 2]]),
        serde_json::json!([[1, 3], null]),
        serde_json::json!(["x", null]),
        serde_json::json!([[[1, 2], [1, 4]], null]),
        serde_json::json!([[[1, 2], "x"], null]),
    ] {
        assert!(toguz.state_from_json(&state(bad.clone())).is_err(), "{bad}");
    }
    let oware_state = serde_json::json!({"to_move": 0, "pits": [[4, 0, 4, 4, 4, 4], [4, 4, 4, 4, 4, 4]], "stores": [4, 0], "houses": [[1, 2], null]});
    let e = oware.state_from_json(&oware_state).unwrap_err();
    assert!(e.0.contains("make no houses"), "{e:?}");
}

/// The keys of the mover's choices: a misspelt option, an expression of the wrong type or with
/// a name the context lacks, each at its place.
#[test]
fn bad_choice_keys_are_located() {
    let toguz = include_str!("../rules/toguz-korgool.toml");
    let text = toguz.replace("[house]\n", "[house]\nchoice = \"owner\"\n");
    located(
        &text,
        "unknown value \"owner\" for `house.choice`",
        "choice = \"owner\"",
        "\"owner\"",
    );
    let text = OWARE.replace(
        "direction = \"counterclockwise\"",
        "direction = \"counterclockwise\"\ndirection_choice = \"pit.number\"",
    );
    located(&text, "", "direction_choice = \"pit.number\"", "pit.number");
    let text = OWARE.replace(
        "direction = \"counterclockwise\"",
        "direction = \"counterclockwise\"\nreverse = \"last.number == 1\"",
    );
    located(&text, "", "reverse = \"last.number == 1\"", "last.number");
    let text = OWARE.replace(
        "direction = \"counterclockwise\"",
        "direction = \"counterclockwise\"\nreverse = 3",
    );
    located(&text, "", "reverse = 3", "3");
}

/// The keys the sowing language gained: a wrong value, a wrong name or a value out of range is
/// a located error; the file is refused.
#[test]
fn the_newer_keys_refuse_bad_values_at_their_place() {
    let text = OWARE.replace("\nmust_feed = true", "\nmust_feed = \"fed\"");
    located(
        &text,
        "unknown value \"fed\" for `sowing.must_feed`",
        "\nmust_feed = \"fed\"",
        "\"fed\"",
    );
    let text = OWARE.replace("\nmust_feed = true", "\nmust_feed = 3");
    located(
        &text,
        "found the number `3`, expected `true`, `false`",
        "\nmust_feed = 3",
        "3",
    );
    let text = format!("{OWARE}no_move = \"passes\"\n");
    located(
        &text,
        "unknown value \"passes\" for `end.no_move`",
        "no_move = \"passes\"",
        "\"passes\"",
    );
    let text = OWARE.replace(
        "\nskip_origin = \"lap\"",
        "\nskip_origin = \"lap\"\nrelay = \"last\"\nrelay_when = \"last.cuont > 1\"",
    );
    located(
        &text,
        "unknown name `last.cuont`",
        "relay_when = \"last.cuont > 1\"",
        "last.cuont",
    );
    let text = format!("{OWARE}win = \"pit.count == 0\"\n");
    located(
        &text,
        "`pit.count`",
        "win = \"pit.count == 0\"",
        "pit.count",
    );
    let text = OWARE.replace(
        "\ngrand_slam = \"no-capture\"",
        "\ngrand_slam = \"no-capture\"\nchain_way = \"forward\"",
    );
    located(
        &text,
        "unknown value \"forward\" for `capture.chain_way`",
        "chain_way = \"forward\"",
        "\"forward\"",
    );
    let sat = include_str!("../rules/sat-gharva.toml");
    let text = sat.replace("\nrefill = 7", "\nrefill = 7\nmin_pits = 8");
    located(&text, "`min_pits` must be from 0 to 7", "min_pits = 8", "8");
    // Playing on below a full pit needs the pit filled in part in play.
    let text = sat.replace("\nrefill = 7", "\nrefill = 7\nmin_pits = 0");
    located(
        &text,
        "`min_pits = 0` lets a player play on with fewer stones than a full pit: it needs `partial = \"open\"`",
        "min_pits = 0",
        "0",
    );
    let text = sat.replace(
        "\npartial = \"closed\"",
        "\npartial = \"open\"\nmin_pits = 0",
    );
    assert!(ludus::registry::check(&text).game.is_some());
    let text = sat.replace("\nrefill = 7", "\nrefill = 7\nfill_count = \"richer\"");
    located(
        &text,
        "unknown value \"richer\" for `match.fill_count`",
        "fill_count = \"richer\"",
        "\"richer\"",
    );
    let text = sat.replace("\npartial = \"closed\"", "\npartial = \"stores\"");
    located(
        &text,
        "unknown value \"stores\" for `match.partial`",
        "partial = \"stores\"",
        "\"stores\"",
    );
}

#[test]
fn the_lap_capture_and_kept_house_keys_are_checked() {
    let capture = |extra: &str| {
        OWARE.replace(
            "\ngrand_slam = \"no-capture\"",
            &format!("\ngrand_slam = \"no-capture\"\n{extra}"),
        )
    };
    // A capture after every lap is made, never offered.
    let text = capture("at = \"lap\"\nchoice = \"mover\"");
    located(
        &text,
        "cannot go with `choice = \"mover\"`",
        "at = \"lap\"",
        "\"lap\"",
    );
    located(
        &capture("at = \"laps\""),
        "unknown value \"laps\" for `capture.at`",
        "at = \"laps\"",
        "\"laps\"",
    );
    located(
        &capture("take_max = 0"),
        "`take_max` must be from 1 to 255",
        "take_max = 0",
        "0",
    );
    located(
        &capture("go_on = \"previous\""),
        "unknown value \"previous\" for `capture.go_on`",
        "go_on = \"previous\"",
        "\"previous\"",
    );
    // `go_on` without a capture after every lap, and `at = "lap"` with captures sown on, say
    // nothing: warnings, at their place.
    for (extra, says) in [
        ("go_on = \"next\"", "`go_on` without `at = \"lap\"`"),
        (
            "at = \"lap\"\nto = \"sow\"",
            "captures sown on are checked after every lap",
        ),
    ] {
        let report = ludus::registry::check(&capture(extra));
        assert!(report.game.is_some(), "{extra}: {:?}", report.diagnostics);
        let warned: Vec<_> = report.warnings().collect();
        assert!(
            warned.iter().any(|w| w.message.contains(says)),
            "{extra}: {warned:?}"
        );
    }
    let text = format!("{OWARE}\n[house]\nwhen = \"last.count == 4\"\nkeeps = \"yes\"\n");
    located(
        &text,
        "found the text \"yes\", expected true or false",
        "keeps = \"yes\"",
        "\"yes\"",
    );
}

#[test]
fn a_capture_made_for_the_owner_is_neither_sown_on_nor_chosen() {
    for (extra, says) in [
        ("to = \"sow\"", "`taker = \"owner\"` with `to = \"sow\"`"),
        (
            "choice = \"mover\"",
            "`taker = \"owner\"` with `choice = \"mover\"`",
        ),
    ] {
        let text = OWARE.replace(
            "take = [\"last\"]",
            &format!("take = [\"last\"]\ntaker = \"owner\"\n{extra}"),
        );
        let report = ludus::registry::check(&text);
        let e = report
            .errors()
            .find(|e| e.message.contains(says))
            .unwrap_or_else(|| panic!("{extra}: {:?}", report.diagnostics));
        assert_eq!(&text[e.span.clone().expect("a place")], "\"owner\"");
    }
}

#[test]
fn extra_turn_taker_slam_leftover_and_draw_keys_refuse_bad_values_at_their_place() {
    // Each at its place, the file refused.
    for most in ["0", "300"] {
        let text = format!("{OWARE}\n[turn]\nagain = \"captured > 0\"\nagain_max = {most}\n");
        located(
            &text,
            "`again_max` must be from 1 to 255",
            &format!("again_max = {most}"),
            most,
        );
    }
    let text = OWARE.replace("take = [\"last\"]", "take = [\"last\"]\ntaker = \"onwer\"");
    located(
        &text,
        "unknown value \"onwer\"",
        "taker = \"onwer\"",
        "\"onwer\"",
    );
    let text = OWARE.replace(
        "take = [\"last\"]",
        "take = [\"last\"]\ngrand_slam_pits = \"row\"",
    );
    located(
        &text,
        "unknown value \"row\"",
        "grand_slam_pits = \"row\"",
        "\"row\"",
    );
    let text = format!("{OWARE}stop_leftover = \"loser\"\n");
    located(
        &text,
        "unknown value \"loser\"",
        "stop_leftover = \"loser\"",
        "\"loser\"",
    );
    let text =
        format!("{OWARE}\n[match]\nrefill = 4\nnext_first = \"loser\"\ndraw_first = \"last\"\n");
    located(
        &text,
        "unknown value \"last\"",
        "draw_first = \"last\"",
        "\"last\"",
    );
}

#[test]
fn keys_that_refine_a_rule_the_file_does_not_have_are_warned_about() {
    // `stop_leftover` without `stop`, `draw_first` when no result names the next starter:
    // warnings, at their place; the file is still played.
    for (extra, says, at) in [
        (
            "stop_leftover = \"starter\"\n",
            "without `stop` it has no effect",
            "\"starter\"",
        ),
        (
            "[match]\nrefill = 4\nnext_first = \"alternate\"\ndraw_first = \"last-mover\"\n",
            "with \"alternate\" it has no effect",
            "\"last-mover\"",
        ),
    ] {
        // Oware's `[end]` is its last table: a key added at the end is in it.
        let text = format!("{OWARE}\n{extra}");
        let report = ludus::registry::check(&text);
        assert!(report.game.is_some(), "{extra}: {:?}", report.diagnostics);
        let warned: Vec<_> = report.warnings().collect();
        let w = warned
            .iter()
            .find(|w| w.message.contains(says))
            .unwrap_or_else(|| panic!("{extra}: {warned:?}"));
        let span = w.span.clone().expect("a place");
        assert_eq!(&text[span], at, "{extra}");
    }
}

#[test]
fn pits_that_change_owner_need_every_pit_filled() {
    let sat = include_str!("../rules/sat-gharva.toml");
    let filled = sat.replace("\nrefill = 7", "\nrefill = 7\nowners = \"filled\"");
    located(
        &filled,
        "`fill_from` says how a player refills their own pits",
        "fill_from = \"right\"",
        "\"right\"",
    );
    let text = filled
        .replace("\nfill_from = \"right\"", "")
        .replace("\npartial = \"closed\"", "")
        .replace("\nrefill = 7", "\nrefill = 6");
    located(
        &text,
        "the 98 stones must fill all 14 pits",
        "refill = 6",
        "6",
    );
    // `contested` without pits that change owner: a warning, not an error.
    let text = sat.replace("\nrefill = 7", "\nrefill = 7\ncontested = \"loser\"");
    let report = ludus::registry::check(&text);
    assert_eq!(report.errors().count(), 0, "{:?}", report.diagnostics);
    assert!(report.diagnostics.iter().any(|d| d
        .message
        .contains("without `owners = \"filled\"` it has no effect")));
}

#[test]
fn a_match_carries_stones_over_or_plays_rounds_afresh_for_points() {
    let sat = include_str!("../rules/sat-gharva.toml");
    located(
        &sat.replace("\nrefill = 7", "\nrefill = 7\ntarget = 3"),
        "`refill` carries stones over to the next round",
        "refill = 7",
        "7",
    );
    let afresh = sat
        .replace("\nfill_from = \"right\"", "")
        .replace("\npartial = \"closed\"", "");
    located(
        &afresh.replace("\nrefill = 7", "\npoints = \"mover.won\""),
        "`[match]` with `points` needs `target`",
        "[match]",
        "[match]",
    );
    located(
        &afresh.replace("\nrefill = 7", "\ntarget = 3\nmin_pits = 2"),
        "`min_pits` says how stones carry over to the next round",
        "min_pits = 2",
        "2",
    );
    located(
        &afresh.replace("\nrefill = 7", "\ntarget = 3\npoints = \"mover.wins\""),
        "unknown name `mover.wins`",
        "mover.wins",
        "mover.wins",
    );
}

#[test]
fn picks_refuse_bad_counts_and_captures_they_cannot_follow() {
    for pick in ["0", "17"] {
        let text = OWARE.replace(
            "take = [\"last\"]",
            &format!("take = [\"last\"]\npick = {pick}"),
        );
        located(
            &text,
            "`pick` must be from 1 to 16",
            &format!("pick = {pick}"),
            pick,
        );
    }
    for (extra, says) in [
        ("to = \"sow\"", "`pick` with `to = \"sow\"`"),
        (
            "at = \"lap\"",
            "`pick` follows the capture once the sowing has ended",
        ),
        ("taker = \"owner\"", "`pick` with `taker = \"owner\"`"),
    ] {
        let text = OWARE.replace(
            "take = [\"last\"]",
            &format!("take = [\"last\"]\npick = 1\n{extra}"),
        );
        let report = ludus::registry::check(&text);
        let e = report
            .errors()
            .find(|e| e.message.contains(says))
            .unwrap_or_else(|| panic!("{extra}: {:?}", report.diagnostics));
        assert_eq!(&text[e.span.clone().expect("a place")], "1", "{extra}");
    }
    let text = OWARE.replace(
        "take = [\"last\"]",
        "take = [\"last\"]\npick = 1\npick_from = \"pit.sid == opponent\"",
    );
    let report = ludus::registry::check(&text);
    assert!(report.game.is_none());
    assert!(
        report.errors().any(|e| e.message.contains("sid")),
        "{:?}",
        report.diagnostics
    );
    let text = OWARE.replace(
        "take = [\"last\"]",
        "take = [\"last\"]\npick_from = \"pit.side == opponent\"",
    );
    let report = ludus::registry::check(&text);
    assert!(report.game.is_some());
    assert!(report
        .warnings()
        .any(|w| w.message.contains("`pick_from` without `pick`")));
    // `pick_when` is a capture condition: `pit` is not one of its names, a number is not a
    // condition, and without `pick` it is a warning at its place.
    for (cond, says, at) in [
        ("pit.count > 0", "unknown name `pit.count`", "pit.count"),
        ("behind.count", "", "behind.count"),
    ] {
        let text = OWARE.replace(
            "take = [\"last\"]",
            &format!("take = [\"last\"]\npick = 1\npick_when = \"{cond}\""),
        );
        let report = ludus::registry::check(&text);
        assert!(report.game.is_none(), "{cond}");
        let e = report.errors().next().expect("an error");
        assert!(e.message.contains(says), "{cond}: {}", e.message);
        assert_eq!(&text[e.span.clone().expect("a place")], at, "{cond}");
    }
    let text = OWARE.replace(
        "take = [\"last\"]",
        "take = [\"last\"]\npick_when = \"behind.count > 0\"",
    );
    let report = ludus::registry::check(&text);
    assert!(report.game.is_some());
    let w = report
        .warnings()
        .find(|w| w.message.contains("`pick_when` without `pick`"))
        .unwrap_or_else(|| panic!("{:?}", report.diagnostics));
    assert_eq!(
        &text[w.span.clone().expect("a place")],
        "\"behind.count > 0\""
    );
}

#[test]
fn closing_pits_needs_a_relay_and_a_known_way_of_sowing_past_them() {
    let text =
        format!("{OWARE}\n").replace("[sowing]\n", "[sowing]\nclose = \"last.count == 3\"\n");
    let report = ludus::registry::check(&text);
    assert!(report.game.is_some(), "{:?}", report.diagnostics);
    let w = report
        .warnings()
        .find(|w| w.message.contains("`close` without `relay`"))
        .unwrap_or_else(|| panic!("{:?}", report.diagnostics));
    assert_eq!(
        &text[w.span.clone().expect("a place")],
        "\"last.count == 3\""
    );
    let text = OWARE.replace("[sowing]\n", "[sowing]\nclosed = \"fill\"\n");
    located(
        &text,
        "unknown value \"fill\"",
        "closed = \"fill\"",
        "\"fill\"",
    );
}

#[test]
fn houses_at_the_start_are_pits_of_the_board_within_most() {
    for (house, says, at) in [
        ("[house]\nkeeps = true\n", "names no house", "[house]"),
        (
            "[house]\nstart = [[13]]\n",
            "pit 13 is not on the board",
            "[13]",
        ),
        (
            "[house]\nstart = [[1, 2]]\n",
            "2 houses at the start, more than `most` (1)",
            "[1, 2]",
        ),
        (
            "[house]\nstart = [[1], [2], [3]]\n",
            "one list of pits (both players) or two",
            "[[1], [2], [3]]",
        ),
    ] {
        let text = format!("{OWARE}\n{house}");
        let report = ludus::registry::check(&text);
        let e = report
            .errors()
            .find(|e| e.message.contains(says))
            .unwrap_or_else(|| panic!("{house}: {:?}", report.diagnostics));
        let span = e.span.clone().expect("a place");
        assert!(text[span].starts_with(at), "{house}");
    }
}

#[test]
fn captured_stones_placed_in_a_picked_pit_are_placed_once_the_sowing_has_ended() {
    for (extra, says, at) in [
        (
            "to = \"pick\"\nat = \"lap\"",
            "`to = \"pick\"` places the captured stones once the sowing has ended",
            "\"lap\"",
        ),
        (
            "to = \"pick\"\ntaker = \"owner\"",
            "`taker = \"owner\"` with `to = \"pick\"`",
            "\"owner\"",
        ),
        (
            "to = \"pick\"\npick = 1",
            "`pick` with `to = \"pick\"`",
            "1",
        ),
        (
            "to = \"last\"\nat = \"start\"",
            "`to = \"last\"` places the captured stones once the sowing has ended",
            "\"start\"",
        ),
        (
            "to = \"origin\"\ntaker = \"owner\"",
            "`taker = \"owner\"` with `to = \"origin\"`: the captured stones go to no store",
            "\"owner\"",
        ),
    ] {
        let text = OWARE.replace("take = [\"last\"]", &format!("take = [\"last\"]\n{extra}"));
        let report = ludus::registry::check(&text);
        let e = report
            .errors()
            .find(|e| e.message.contains(says))
            .unwrap_or_else(|| panic!("{extra}: {:?}", report.diagnostics));
        assert_eq!(&text[e.span.clone().expect("a place")], at, "{extra}");
    }
}

#[test]
fn a_store_is_taken_only_where_the_rules_say_so() {
    let text = OWARE.replace("take = [\"last\"]", "take = [\"last\", \"store\"]");
    located(
        &text,
        "`take` names \"store\" without `take_store = true`",
        "take = [\"last\", \"store\"]",
        "\"store\"",
    );
}

#[test]
fn lists_of_locked_and_closed_pits_in_a_state_are_checked() {
    use ludus::game::Json;
    let game = |text: &str| match compile(text) {
        Ok(ludus::registry::AnyGame::Sowing(g)) => g,
        _ => panic!("{text}"),
    };
    let locking = game(&OWARE.replace("[sowing]\n", "[sowing]\nlocks = true\n"));
    let closing = game(&OWARE.replace(
        "[sowing]\n",
        "[sowing]\nrelay = \"last\"\nclose = \"last.count == 3\"\n",
    ));
    let state = |field: &str, value: serde_json::Value| {
        let mut s = serde_json::json!({"to_move": 0, "pits": [[4, 4, 4, 4, 4, 4], [4, 4, 4, 4, 4, 4]],
                                       "stores": [0, 0]});
        s[field] = value;
        s
    };
    for (value, says) in [
        (
            serde_json::json!([[7], []]),
            "`locked`: 7 is not a pit number 1..6",
        ),
        (
            serde_json::json!([[1, 2]]),
            "`locked` is [[pit numbers], [pit numbers]]",
        ),
        (serde_json::json!([1, []]), "`locked` rows are arrays"),
        (
            serde_json::json!("all"),
            "`locked` is [[pit numbers], [pit numbers]]",
        ),
    ] {
        let err = locking
            .state_from_json(&state("locked", value.clone()))
            .unwrap_err();
        assert!(err.to_string().contains(says), "{value}: {err}");
    }
    let ok = locking
        .state_from_json(&state("locked", serde_json::json!([[1], [6]])))
        .unwrap();
    assert_eq!(
        locking.state_json(&ok)["locked"],
        serde_json::json!([[1], [6]])
    );
    let err = closing
        .state_from_json(&state("out_of_play", serde_json::json!([[0], []])))
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("`out_of_play`: 0 is not a pit number 1..6"),
        "{err}"
    );
    let err = game(OWARE)
        .state_from_json(&state("out_of_play", serde_json::json!([[1], []])))
        .unwrap_err();
    assert!(
        err.to_string().contains("never put pits out of play"),
        "{err}"
    );
}

#[test]
fn a_scatter_refuses_stones_it_cannot_deal() {
    let scatter = |keys: &str| OWARE.replace("stones = 4", keys);
    located(
        &scatter("stones = 4\nscatter = 48"),
        "`[setup]` gives one of `stones`, `layout` and `scatter`",
        "[setup]",
        "[setup]",
    );
    located(
        &scatter("scatter = 300"),
        "at most 255 stones in a game",
        "scatter = 300",
        "300",
    );
    located(
        &scatter("scatter = 30\nscatter_least = 3"),
        "30 stones to scatter, fewer than 36 for 3 in each of the 12 pits",
        "scatter_least = 3",
        "3",
    );
    located(
        &scatter("scatter = 3\nscatter_least = 4\nscatter_empty = true"),
        "3 stones to scatter, fewer than 4, the fewest a pit that is not empty holds",
        "scatter_least = 4",
        "4",
    );
    // A least without a scatter does nothing: said at its place, the file still loads.
    let text = scatter("stones = 4\nscatter_least = 2");
    let report = ludus::registry::check(&text);
    assert!(report.game.is_some());
    let w = report
        .diagnostics
        .iter()
        .find(|d| {
            d.message
                .contains("`scatter_least` without `scatter` does nothing")
        })
        .expect("a warning");
    assert_eq!(&text[w.span.clone().expect("a place")], "2");
}

#[test]
fn stones_to_place_refuse_what_cannot_be() {
    let setup = |keys: &str| OWARE.replace("stones = 4", keys);
    located(
        &setup("stones = 0\nto_place = [20, 20, 20]"),
        "`to_place` lists the stones of two players",
        "to_place = [20, 20, 20]",
        "[20, 20, 20]",
    );
    located(
        &setup("stones = 4\nto_place = [110, 110]"),
        "at most 255 stones in a game, those to place included",
        "to_place = [110, 110]",
        "[110, 110]",
    );
    located(
        &setup("stones = 0\nto_place = [24, 24]\nplace = \"last.count > 0\""),
        "unknown name `last.count`",
        "place = \"last.count > 0\"",
        "last.count",
    );
    located(
        &setup("stones = 0"),
        "the board starts with no stones",
        "[setup]",
        "[setup]",
    );
}

#[test]
fn a_gift_names_a_pit_and_a_condition_of_its_own_context() {
    let turn = |keys: &str| format!("{OWARE}\n[turn]\n{keys}\n");
    located(
        &turn("give = \"opponent.pits == 0\"\ngive_to = 7"),
        "pits are numbered 1 to 6",
        "give_to = 7",
        "7",
    );
    located(
        &turn("give = \"pit.count > 0\""),
        "unknown name `pit.count`",
        "give = \"pit.count > 0\"",
        "pit.count",
    );
    let text = turn("give_from = \"pit.count > 1\"");
    let report = ludus::registry::check(&text);
    assert!(report.game.is_some());
    assert!(report.diagnostics.iter().any(|d| d
        .message
        .contains("`give_from` without `give`: nothing is ever given")));
}

#[test]
fn the_choice_of_sides_chains_and_pairs_of_houses_refuse_unknown_values() {
    located(
        &OWARE.replace("stones = 4", "stones = 4\nswap = \"maybe\""),
        "unknown value \"maybe\" for `setup.swap`",
        "swap = \"maybe\"",
        "\"maybe\"",
    );
    let capture = OWARE.replace("[capture]", "[capture]\nchain_take = [\"pit\", \"facing\"]");
    let d = errors(&capture);
    assert!(d[0].message.contains("unknown value \"facing\""), "{d:?}");
    let house = |keys: &str| format!("{OWARE}\n[house]\nwhen = \"last.count == 4\"\n{keys}\n");
    let d = errors(&house("also = \"next\""));
    assert!(d[0].message.contains("unknown value \"next\""), "{d:?}");
    located(
        &house("also = \"prior\"\nalso_when = \"pit.count > 0\""),
        "unknown name `pit.count`",
        "also_when = \"pit.count > 0\"",
        "pit.count",
    );
    let text = house("also_when = \"prior.count == 3\"");
    let report = ludus::registry::check(&text);
    assert!(report.game.is_some());
    assert!(report
        .diagnostics
        .iter()
        .any(|d| d.message.contains("`also_when` without `also`")));
}

#[test]
fn store_moves_and_chosen_lifts_are_refused_where_they_cannot_apply() {
    // A store sown needs stores on the board.
    let sowing = |keys: &str| {
        OWARE
            .replace("[sowing]", &format!("[sowing]\n{keys}"))
            .replace("stores = false", "stores = true")
    };
    let no_stores = sowing("store_move = \"true\"").replace("stores = true", "stores = false");
    located(
        &no_stores,
        "`store_move` sows the mover's store, but the board has none",
        "store_move = \"true\"",
        "\"true\"",
    );
    located(
        &sowing("store_move = \"pit.count > 0\"\nlift = \"some\""),
        "unknown value \"some\" for `sowing.lift`",
        "lift = \"some\"",
        "\"some\"",
    );
    located(
        &sowing("store_move = \"true\"\nstore_circuit = \"mine\""),
        "unknown value \"mine\" for `sowing.store_circuit`",
        "store_circuit = \"mine\"",
        "\"mine\"",
    );
    // `lift` is a name of `lift_when` alone.
    located(
        &sowing("store_move = \"lift > 2\""),
        "unknown name `lift`",
        "store_move = \"lift > 2\"",
        "lift",
    );
    for (keys, warning) in [
        (
            "store_circuit = \"own\"",
            "`store_circuit` without `store_move`",
        ),
        (
            "lift_when = \"lift > 1\"",
            "`lift_when` without `lift = \"chosen\"`",
        ),
    ] {
        let report = ludus::registry::check(&sowing(keys));
        assert!(report.game.is_some(), "{keys}");
        assert!(
            report
                .diagnostics
                .iter()
                .any(|d| d.message.contains(warning)),
            "{keys}: {:?}",
            report.diagnostics
        );
    }
    // A move's stones are a number, and only where the mover chooses them.
    use ludus::game::{Game, Notation};
    let compiled = |text: &str| {
        ludus::sowing::compile(&ludus::rules::RulesDoc::parse(text).expect("parses"))
            .expect("compiles")
    };
    let g = compiled(&sowing("lift = \"chosen\""));
    let st = g.new_game(0);
    let e = g.parse_move(&st, "3:x").expect_err("not a number");
    assert!(e.to_string().contains("a number after the colon"), "{e}");
    let e = g.parse_move(&st, "s").expect_err("no store move");
    assert!(e.to_string().contains("no rule sows a store"), "{e}");
    let oware = compiled(OWARE);
    let st = oware.new_game(0);
    assert!(oware.parse_move(&st, "3:2").is_err());
}

#[test]
fn a_middle_row_is_a_third_of_the_pits_and_faces_no_pit() {
    let board = |pits: u32, keys: &str| {
        OWARE.replace("pits = 6", &format!("pits = {pits}\nmiddle = 3{keys}"))
    };
    located(
        &board(8, ""),
        "`middle` must be a third of `pits`",
        "middle = 3",
        "3",
    );
    located(
        &board(9, "").replace("rows = 1", "rows = 2"),
        "a board with a middle row has one row of each player's own",
        "rows = 2",
        "2",
    );
    located(
        &board(9, "").replace("take = [\"last\"]", "take = [\"opposite\"]"),
        "no pit faces another across a board with a middle row",
        "take = [\"opposite\"]",
        "[\"opposite\"]",
    );
    // Oware's own capture, of the last pit and those behind it, needs no facing pit.
    assert!(ludus::registry::check(&board(9, "")).game.is_some());
}

#[test]
fn take_max_is_a_number_in_range_or_an_expression_of_the_capture() {
    let capture =
        |value: &str| OWARE.replace("[capture]", &format!("[capture]\ntake_max = {value}"));
    located(
        &capture("0"),
        "`take_max` must be from 1 to 255",
        "take_max = 0",
        "0",
    );
    located(
        &capture("\"prior.count\""),
        "unknown name `prior.count`",
        "take_max = \"prior.count\"",
        "prior.count",
    );
    located(
        &capture("\"last.count > 1\""),
        "",
        "take_max = \"last.count > 1\"",
        "last.count > 1",
    );
    assert!(ludus::registry::check(&capture("\"1 + last.count / 2\""))
        .game
        .is_some());
    // The pit taken is a name of its own context.
    assert!(
        ludus::registry::check(&capture("\"if(pit.side == mover, 1, 255)\""))
            .game
            .is_some()
    );
}

#[test]
fn relay_choices_locks_and_picks_refuse_what_cannot_apply() {
    let sowing = |keys: &str| OWARE.replace("[sowing]", &format!("[sowing]\n{keys}"));
    // A stop offered where the sowing never relays: a warning at its place.
    warned(
        &sowing("relay_choice = \"last.count > 1\""),
        "`relay_choice` without `relay`",
    );
    located(
        &sowing("relay = \"last\"\nrelay_choice = \"pit.count > 1\""),
        "unknown name `pit.count`",
        "relay_choice = \"pit.count > 1\"",
        "pit.count",
    );
    let d = errors(&sowing("locks = \"sometimes\""));
    assert!(
        d[0].message.contains("unknown variant `sometimes`") || d[0].message.contains("sometimes"),
        "{d:?}"
    );
    let d = errors(&sowing("relay_stores = \"yes\""));
    assert!(!d.is_empty());
    let capture = |value: &str| OWARE.replace("[capture]", &format!("[capture]\npick = {value}"));
    located(
        &capture("17"),
        "`pick` must be from 1 to 16",
        "pick = 17",
        "17",
    );
    located(
        &capture("\"mover.stage > 0\""),
        "",
        "pick = \"mover.stage > 0\"",
        "mover.stage > 0",
    );
}

#[test]
fn laps_that_choose_their_way_refuse_what_cannot_apply() {
    let sowing =
        |keys: &str| OWARE.replace("[sowing]", &format!("[sowing]\nrelay = \"last\"\n{keys}"));
    // Nothing to choose: a warning at its place.
    warned(
        &sowing("lap_way = \"chosen\""),
        "`lap_way = \"chosen\"` without `direction_choice` or `reverse`",
    );
    // Chosen at a lap's start and turned at its end: refused.
    located(
        &sowing(
            "direction_choice = \"pit.number == 3\"\nrelay_turn = \"true\"\nlap_way = \"chosen\"",
        ),
        "with `relay_turn`",
        "lap_way = \"chosen\"",
        "\"chosen\"",
    );
    // A lap's start has no move before.
    located(
        &sowing("direction_choice = \"previous_lifted == 1\"\nlap_way = \"chosen\""),
        "reads the move before or the ways chosen",
        "lap_way = \"chosen\"",
        "\"chosen\"",
    );
    located(
        &sowing("direction_choice = \"true\"\nlap_way = \"sometimes\""),
        "unknown value \"sometimes\" for `sowing.lap_way`",
        "lap_way = \"sometimes\"",
        "\"sometimes\"",
    );
}

#[test]
fn locks_by_condition_refuse_what_cannot_apply() {
    let sowing = |keys: &str| OWARE.replace("[sowing]", &format!("[sowing]\n{keys}"));
    // Nothing is ever locked: a warning at its place.
    warned(
        &sowing("unlock_when = \"pit.count > 3\""),
        "`unlock_when` without `locks` or `lock_when`",
    );
    // The lock context has no stones in hand and no `next`.
    located(
        &sowing("lock_when = \"hand > 0\""),
        "unknown name `hand`",
        "lock_when = \"hand > 0\"",
        "hand",
    );
    located(
        &sowing("lock_when = \"true\"\nunlock_when = \"next.count > 0\""),
        "unknown name `next.count`",
        "unlock_when = \"next.count > 0\"",
        "next.count",
    );
    located(
        &sowing("lock_when = \"pit.count\""),
        "",
        "lock_when = \"pit.count\"",
        "pit.count",
    );
}

#[test]
fn an_opening_refuses_what_cannot_apply() {
    let sowing = |keys: &str| OWARE.replace("[sowing]", &format!("[sowing]\n{keys}"));
    warned(
        &sowing("opening_last = \"opposite\""),
        "`opening_last` without `opening`",
    );
    // An opening is an integer; it has no `last` and no stones in hand.
    located(
        &sowing("opening = \"pit.count > 1\""),
        "",
        "opening = \"pit.count > 1\"",
        "pit.count > 1",
    );
    located(
        &sowing("opening = \"last.count\""),
        "unknown name `last.count`",
        "opening = \"last.count\"",
        "last.count",
    );
    // A board with a middle row has no pit facing the one chosen.
    let rabe = include_str!("../docs/games/rabe.toml").replace(
        "[sowing]\n",
        "[sowing]\nopening = \"0\"\nopening_last = \"opposite\"\n",
    );
    located(
        &rabe,
        "an opening cannot end in the pit facing the one chosen",
        "opening_last = \"opposite\"",
        "\"opposite\"",
    );
    located(
        &sowing("opening = \"0\"\nopening_last = \"behind\""),
        "unknown value \"behind\" for `sowing.opening_last`",
        "opening_last = \"behind\"",
        "\"behind\"",
    );
}

#[test]
fn turning_relays_and_drops_refuse_what_cannot_apply() {
    let sowing = |keys: &str| OWARE.replace("[sowing]", &format!("[sowing]\n{keys}"));
    // A turn where the sowing never relays: a warning at its place.
    warned(
        &sowing("relay_turn = \"true\""),
        "`relay_turn` without `relay`",
    );
    // A lap's end has no `pit`; a drop has no `last`.
    located(
        &sowing("relay = \"last\"\nrelay_turn = \"pit.count > 1\""),
        "unknown name `pit.count`",
        "relay_turn = \"pit.count > 1\"",
        "pit.count",
    );
    located(
        &sowing("drops = \"last.count\""),
        "unknown name `last.count`",
        "drops = \"last.count\"",
        "last.count",
    );
    // `drops` is a number of stones, not a condition.
    located(
        &sowing("drops = \"pit.count > 1\""),
        "",
        "drops = \"pit.count > 1\"",
        "pit.count > 1",
    );
    located(
        &sowing("drops = 0"),
        "`drops` must be from 1 to",
        "drops = 0",
        "0",
    );
    assert!(ludus::registry::check(&sowing("drops = 4")).game.is_some());
    assert!(ludus::registry::check(&sowing("drops = \"4\""))
        .game
        .is_some());
}

#[test]
fn two_capture_tables_are_one_before_the_sowing_and_one_after() {
    let text = std::fs::read_to_string("docs/games/mancala-games/achochodi.toml").unwrap();
    assert!(ludus::registry::check(&text).game.is_some());
    located(
        &text.replacen("at = \"start\"", "at = \"end\"", 1),
        "two `[[capture]]` tables are one before the sowing (`at = \"start\"`) and one after it: here both are checked after",
        "when = \"last.side == opponent and last.count in [2, 3]\"",
        "\"last.side == opponent and last.count in [2, 3]\"",
    );
    let third = format!("{text}\n[[capture]]\nwhen = \"true\"\ntake = [\"last\"]\n");
    located(
        &third,
        "`[[capture]]` takes two tables at most",
        "when = \"true\"",
        "\"true\"",
    );
    // A mistake in the second table is found at its place, with the table's keys.
    let typo = text.replace("chain = \"pit.count", "chian = \"pit.count");
    let d = errors(&typo);
    assert!(
        d[0].message
            .contains("unknown field `chian` in `[capture]`"),
        "{d:?}"
    );
    located(
        &text.replace("last.count in [2, 3]", "last.cont in [2, 3]"),
        "unknown name `last.cont`",
        "when = \"last.side == opponent and last.cont in [2, 3]\"",
        "last.cont",
    );
}

#[test]
fn a_round_laid_as_a_new_game_needs_pits_that_change_owner() {
    let sat = include_str!("../rules/sat-gharva.toml");
    // Without pits that change owner the key says nothing: a warning at its place.
    let text = sat.replace("\nrefill = 7", "\nrefill = 7\nround_start = \"setup\"");
    let report = ludus::registry::check(&text);
    assert!(report.game.is_some());
    assert!(report.diagnostics.iter().any(|d| d
        .message
        .contains("`round_start` fills the pits of a round whose pits changed owner")));
    // A pit left empty at a refill cannot go with a round laid as a new game.
    let text = include_str!("../docs/games/mancala-games/sadeqa-ii.toml").replace(
        "\nround_start = \"setup\"",
        "\nround_start = \"setup\"\ncontested = \"loser-empty\"",
    );
    located(
        &text,
        "`contested = \"loser-empty\"` leaves a pit empty at a refill",
        "contested = \"loser-empty\"",
        "\"loser-empty\"",
    );
    let text = include_str!("../docs/games/mancala-games/sadeqa-ii.toml")
        .replace("\nround_start = \"setup\"", "\nround_start = \"pattern\"");
    located(
        &text,
        "unknown value \"pattern\" for `match.round_start`",
        "round_start = \"pattern\"",
        "\"pattern\"",
    );
}

#[test]
fn an_arranged_round_refuses_the_keys_of_a_refill() {
    let text = include_str!("../docs/games/baqura.toml");
    assert!(ludus::registry::check(text).game.is_some());
    located(
        &text.replace(
            "\narrange = \"poorer\"",
            "\narrange = \"poorer\"\nrefill = 6",
        ),
        "`refill` and `arrange` both say how a round's pits are filled",
        "refill = 6",
        "6",
    );
    located(
        &text.replace(
            "\narrange = \"poorer\"",
            "\narrange = \"poorer\"\nfill_from = \"left\"",
        ),
        "`fill_from` says how pits are refilled or rounds scored",
        "fill_from = \"left\"",
        "\"left\"",
    );
    located(
        &text.replace("\narrange = \"poorer\"", "\narrange = \"richer\""),
        "unknown value \"richer\" for `match.arrange`",
        "arrange = \"richer\"",
        "\"richer\"",
    );
    let report = ludus::registry::check(
        &include_str!("../rules/sat-gharva.toml")
            .replace("\nrefill = 7", "\nrefill = 7\narranged_empty = \"closed\""),
    );
    assert!(report
        .diagnostics
        .iter()
        .any(|d| d.message.contains("`arranged_empty` without `arrange`")));
    // No pit faces another across a middle row: nothing to copy onto.
    let middle = include_str!("../docs/games/rabe.toml").replace(
        "refill = 4\nfill_from = \"left\"\npartial = \"open\"\nfill_count = \"poorer\"\nmin_pits = 0\n",
        "arrange = \"poorer\"\n",
    );
    located(
        &middle,
        "`arrange` copies the poorer player's pits onto the pits facing them",
        "arrange = \"poorer\"",
        "\"poorer\"",
    );
}

#[test]
fn a_diverted_drop_is_checked_at_its_place() {
    let sowing = |keys: &str| OWARE.replace("[sowing]", &format!("[sowing]\n{keys}"));
    located(
        &sowing("divert = \"last.side == opponent\""),
        "unknown name `last.side`",
        "divert = \"last.side == opponent\"",
        "last.side",
    );
    located(
        &sowing("divert = \"pit.side == opponent\"\ndivert_to = \"nobody\""),
        "unknown value \"nobody\" for `sowing.divert_to`",
        "divert_to = \"nobody\"",
        "\"nobody\"",
    );
    warned(
        &sowing("divert_to = \"mover\""),
        "`divert_to` without `divert`",
    );
    located(
        &sowing("divert = \"pit.side == opponent\"\ndivert_hand = \"rest\""),
        "unknown value \"rest\" for `sowing.divert_hand`",
        "divert_hand = \"rest\"",
        "\"rest\"",
    );
    warned(
        &sowing("divert_hand = \"all\""),
        "`divert_hand` without `divert`",
    );
}

#[test]
fn a_refill_by_the_loser_alone_refuses_what_shares_pits_out_anew() {
    // Rab'e: the richer player fills only as many pits as the poorer.
    let text = include_str!("../docs/games/rabe.toml")
        .replace("[match]\n", "[match]\nrefill_by = \"loser\"\n");
    located(
        &text,
        "`fill_count = \"poorer\"` makes both players fill as many pits",
        "refill_by = \"loser\"",
        "\"loser\"",
    );
    let territory = include_str!("../docs/games/gabata-wuqro.toml")
        .replace("[match]\n", "[match]\nrefill_by = \"loser\"\n");
    located(
        &territory,
        "pits that change owner (`owners = \"filled\"`) are shared out anew",
        "refill_by = \"loser\"",
        "\"loser\"",
    );
    located(
        &OWARE.replace(
            "[sowing]",
            "[match]\npoints = \"mover.won\"\ntarget = 3\nrefill_by = \"loser\"\n\n[sowing]",
        ),
        "`refill_by` says how stones carry over to the next round: it needs `refill`",
        "refill_by = \"loser\"",
        "\"loser\"",
    );
}

#[test]
fn keeping_stones_from_an_arrangement_needs_one() {
    let text = include_str!("../docs/games/mancala-games/giuthi.toml");
    located(
        &text.replace("mover.occupied == 8 and mover.most >= 2", "pit.count > 1"),
        "unknown name `pit.count`",
        "arranged_stop = \"pit.count > 1\"",
        "pit.count",
    );
    let report = ludus::registry::check(
        &include_str!("../rules/sat-gharva.toml")
            .replace("\nrefill = 7", "\nrefill = 7\narranged_stop = \"true\""),
    );
    assert!(report
        .diagnostics
        .iter()
        .any(|d| d.message.contains("`arranged_stop` without `arrange`")));
}

#[test]
fn stones_counted_for_nobody_are_named_by_a_pit_condition() {
    let text = include_str!("../docs/games/mancala-games/crosscapt-six.toml");
    located(
        &text.replace(
            "unscored = \"pit.count >= 14 - pit.number\"",
            "unscored = \"last.count > 1\"",
        ),
        "unknown name `last.count`",
        "unscored = \"last.count > 1\"",
        "last.count",
    );
    located(
        &text.replace(
            "unscored = \"pit.count >= 14 - pit.number\"",
            "unscored = \"pit.count\"",
        ),
        "",
        "unscored = \"pit.count\"",
        "pit.count",
    );
}

#[test]
fn drop_choices_picks_after_nothing_and_passed_stores_are_checked_at_their_place() {
    let sowing = |keys: &str| OWARE.replace("[sowing]", &format!("[sowing]\n{keys}"));
    let capture = |keys: &str| OWARE.replace("[capture]", &format!("[capture]\n{keys}"));
    // `drop_choice` is a condition of the drop context: `last` is no name there.
    located(
        &sowing("drop_choice = \"last.count > 1\""),
        "unknown name `last.count`",
        "drop_choice = \"last.count > 1\"",
        "last.count",
    );
    // `pick_after` without `pick` warns; an unknown value is refused at its place.
    warned(
        &capture("pick_after = \"when\""),
        "`pick_after` without `pick`",
    );
    let d = errors(&capture("pick = 1\npick_after = \"always\""));
    assert!(
        d[0].message
            .contains("unknown value \"always\" for `capture.pick_after`"),
        "{d:?}"
    );
    // `relay_stores` takes `true`, `false`, "lift" or "pass".
    let d = errors(&sowing("relay_stores = \"skip\""));
    assert!(d[0].message.contains("\"skip\""), "{d:?}");
    assert!(
        ludus::registry::check(&sowing("relay = \"next\"\nrelay_stores = \"pass\""))
            .game
            .is_some()
    );
    // `closed` lists two players' pits.
    let d = errors(&OWARE.replace("[setup]", "[setup]\nclosed = [[1]]"));
    assert!(
        d[0].message
            .contains("`closed` lists the pits of two players"),
        "{d:?}"
    );
}
