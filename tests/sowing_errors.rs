//! Broken rules files give located diagnostics, never a panic.

use ludus::diagnostics::Diagnostic;
use ludus::registry::compile;

const OWARE: &str = include_str!("../rules/oware.toml");

fn errors(text: &str) -> Vec<Diagnostic> {
    match compile(text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(d) => d,
    }
}

/// The first diagnostic's message contains `message` and its span covers `at`.
fn located(text: &str, message: &str, at: &str) {
    let d = errors(text);
    let first = &d[0];
    assert!(
        first.message.contains(message),
        "message {:?} lacks {message:?}",
        first.message
    );
    let span = first.span.clone().expect("located");
    let spot = &text[span.clone()];
    assert!(
        spot.contains(at) || at.contains(spot) && !spot.is_empty(),
        "span {span:?} = {spot:?}, expected {at:?}"
    );
}

#[test]
fn unknown_key() {
    let text = OWARE.replace("must_feed = true", "must_feed = true\nmust_fed = true");
    located(&text, "unknown field", "must_fed");
}

#[test]
fn misspelt_option() {
    let text = OWARE.replace(
        "direction = \"counterclockwise\"",
        "direction = \"sideways\"",
    );
    located(&text, "sideways", "sideways");
}

#[test]
fn unknown_name_in_an_expression_is_located_inside_it() {
    let text = OWARE.replace("last.count in [2, 3]", "last.cnt in [2, 3]");
    located(&text, "last.cnt", "last.cnt");
}

#[test]
fn expression_syntax_error() {
    let text = OWARE.replace("last.count in [2, 3]", "last.count in [2, 3");
    let d = errors(&text);
    assert!(d[0].span.is_some());
}

#[test]
fn expression_of_the_wrong_type() {
    let text = OWARE.replace(
        "when = \"last.side == opponent and last.count in [2, 3]\"",
        "when = \"last.count + 1\"",
    );
    located(&text, "boolean", "last.count + 1");
}

#[test]
fn name_of_another_context() {
    // `pit.count` belongs to the start and chain contexts, not to capture.when.
    let text = OWARE.replace("last.side == opponent and", "pit.side == opponent and");
    located(&text, "pit.side", "pit.side");
}

#[test]
fn numbering_that_misses_a_pit() {
    let text = OWARE.replace(
        "stores = false",
        "stores = false\nnumbering = [[1, 1], [1, 2], [1, 3], [1, 4], [1, 5], [1, 5]]",
    );
    let d = errors(&text);
    assert!(d.iter().any(|e| e.message.contains("twice")));
    let missing = d
        .iter()
        .find(|e| e.message.contains("misses"))
        .expect("missing pit reported");
    assert!(missing.notes.iter().any(|n| n.contains("[1, 6]")));
    assert!(text[missing.span.clone().unwrap()].starts_with("[[1, 1]"));
}

#[test]
fn numbering_outside_the_board() {
    let text = OWARE.replace(
        "stores = false",
        "stores = false\nnumbering = [[1, 1], [1, 2], [1, 3], [1, 4], [1, 5], [2, 6]]",
    );
    located(&text, "not a pit", "[2, 6]");
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
fn impossible_boards() {
    located(
        &OWARE.replace("pits = 6", "pits = 20"),
        "1 to 16 pits",
        "20",
    );
    located(&OWARE.replace("rows = 1", "rows = 3"), "rows", "3");
    located(&OWARE.replace("stones = 4", "stones = 40"), "255", "40");
    located(
        &OWARE.replace("stones = 4", "layout = [[1, 2, 3]]"),
        "3 pits listed",
        "[1, 2, 3]",
    );
    located(
        &OWARE.replace("pits = 6", "pits = \"six\""),
        "found the text \"six\", expected a whole number of 0 or more",
        "six",
    );
}

#[test]
fn missing_required_key() {
    let text = OWARE.replace("pits = 6\n", "");
    let d = errors(&text);
    assert!(d[0].message.contains("pits"), "{:?}", d[0]);
}

#[test]
fn stores_sown_without_stores() {
    let text = OWARE.replace("must_feed = true", "must_feed = true\nstores = \"own\"");
    let d = errors(&text);
    assert!(d[0].message.contains("stores"));
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
