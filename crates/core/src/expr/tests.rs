use super::*;
use std::ops::Range;

const P: &[Type] = &[Type::Int];

fn scope() -> Scope {
    Scope::new()
        .var("last.count", Type::Int, 0, "stones in the last pit")
        .var("last.side", Type::Player, 1, "owner of the last pit")
        .var("sown", Type::Int, 2, "stones sown")
        .var("last.open", Type::Bool, 3, "the last pit is in play")
        .constant("mover", Type::Player, 0, "the player moving")
        .constant("opponent", Type::Player, 1, "the other player")
        .func("double", P, Type::Int, 7, "twice its argument")
}

struct Env([i32; 4]);
impl Vars for Env {
    fn var(&self, slot: u16) -> i32 {
        self.0[usize::from(slot)]
    }
    fn call(&self, slot: u16, args: &[i32]) -> i32 {
        assert_eq!(slot, 7);
        args[0] * 2
    }
}

fn eval(text: &str, vars: [i32; 3]) -> i32 {
    let vars = [vars[0], vars[1], vars[2], 0];
    let ty = Expr::compile(text, &scope(), Type::Int)
        .map(|e| e.ty())
        .or_else(|_| Expr::compile(text, &scope(), Type::Bool).map(|e| e.ty()))
        .unwrap_or_else(|e| panic!("{text}: {e:?}"));
    Expr::compile(text, &scope(), ty).unwrap().eval(&Env(vars))
}

fn error(text: &str, ty: Type) -> ExprError {
    Expr::compile(text, &scope(), ty).expect_err(text)
}

#[test]
fn oware_capture_condition() {
    let text = "last.side == opponent and last.count in [2, 3]";
    assert_eq!(eval(text, [2, 1, 0]), 1);
    assert_eq!(eval(text, [3, 1, 0]), 1);
    assert_eq!(eval(text, [4, 1, 0]), 0);
    assert_eq!(eval(text, [2, 0, 0]), 0);
}

#[test]
fn precedence_and_arithmetic() {
    assert_eq!(eval("1 + 2 * 3", [0; 3]), 7);
    assert_eq!(eval("(1 + 2) * 3", [0; 3]), 9);
    assert_eq!(eval("10 - 3 - 2", [0; 3]), 5);
    assert_eq!(eval("-sown + 1", [0, 0, 5]), -4);
    assert_eq!(eval("17 % 5 + 17 / 5", [0; 3]), 5);
    assert_eq!(eval("7 / 0 + 7 % 0", [0; 3]), 0);
    assert_eq!(eval("double(sown + 1)", [0, 0, 4]), 10);
    assert_eq!(eval("not true or true and false", [0; 3]), 0);
    assert_eq!(eval("not (sown > 3)", [0, 0, 4]), 0);
    assert_eq!(eval("sown in 2..4", [0, 0, 4]), 1);
    assert_eq!(eval("sown in 2..3", [0, 0, 4]), 0);
    assert_eq!(eval("sown in []", [0, 0, 4]), 0);
    assert_eq!(eval("true == (sown >= 4)", [0, 0, 4]), 1);
}

#[test]
fn short_circuit_keeps_the_deciding_value() {
    assert_eq!(eval("false and sown == 1 or true", [0; 3]), 1);
    assert_eq!(eval("true or false and false", [0; 3]), 1);
    assert_eq!(
        eval("(sown == 0 or sown == 4) and last.count == 2", [2, 0, 4]),
        1
    );
    assert_eq!(
        eval("(sown == 0 or sown == 4) and last.count == 2", [3, 0, 4]),
        0
    );
}

#[test]
fn reads_and_constants() {
    let e = Expr::compile("last.count == 4", &scope(), Type::Bool).unwrap();
    assert!(e.reads(0));
    assert!(!e.reads(2));
    assert!(e.reads_any());
    assert_eq!(e.constant_value(), None);
    let e = Expr::compile("25", &scope(), Type::Int).unwrap();
    assert_eq!(e.constant_value(), Some(25));
    assert!(!e.reads_any());
    let e = Expr::compile("2 * 3 > 5 and 1 in [1, 2]", &scope(), Type::Bool).unwrap();
    assert!(!e.reads_any());
    assert_eq!(e.eval(&[][..]), 1);
}

/// Asserts an error exactly: its span (byte range in `text`), message and notes.
#[track_caller]
fn fails(text: &str, ty: Type, span: Range<usize>, message: &str, notes: &[&str]) {
    let e = error(text, ty);
    let notes: Vec<String> = notes.iter().map(|n| n.to_string()).collect();
    assert_eq!(
        (e.span.clone(), e.message.as_str(), &e.notes),
        (span, message, &notes),
        "{text:?}: the span covers {:?}",
        text.get(e.span.clone())
    );
}

const VALUE: &str = "a number, a name such as `last.count`, or `(`";
const OPERATOR: &str = "an operator (`and`, `==`, `in`, `+`, …)";

// Brackets: located at the bracket at fault, before the parser runs.

#[test]
fn an_unclosed_bracket_is_located_at_the_opening_bracket() {
    let never = "syntax error: this `(` is never closed";
    fails(
        "(count > 2 and (last.count == 3)",
        Type::Bool,
        0..1,
        never,
        &[],
    );
    fails("double((1)", Type::Int, 6..7, never, &[]);
    fails(
        "last.count in [2, 3",
        Type::Bool,
        14..15,
        "syntax error: this `[` is never closed",
        &[],
    );
    fails(
        "((1",
        Type::Int,
        1..2,
        never,
        &["one more bracket before it is never closed either"],
    );
    fails(
        "(([1",
        Type::Int,
        2..3,
        "syntax error: this `[` is never closed",
        &["2 more brackets before it are never closed either"],
    );
}

#[test]
fn a_bracket_closed_by_the_other_kind_is_located_at_the_opening_bracket() {
    fails(
        "last.count in [2, 3)",
        Type::Bool,
        14..15,
        "syntax error: this `[` is never closed",
        &["a `)` comes before its `]`"],
    );
    fails(
        "(1]",
        Type::Int,
        0..1,
        "syntax error: this `(` is never closed",
        &["a `]` comes before its `)`"],
    );
}

#[test]
fn an_unexpected_closing_bracket_is_located_at_it() {
    let paren = "syntax error: this `)` closes nothing: no `(` is open before it";
    fails("sown + 1) * 2", Type::Int, 8..9, paren, &[]);
    fails("(sown))", Type::Int, 6..7, paren, &[]);
    fails(
        "sown in 2, 3]",
        Type::Bool,
        12..13,
        "syntax error: this `]` closes nothing: no `[` is open before it",
        &[],
    );
}

// Syntax errors: the whole offending token, and what was expected in words.

#[test]
fn the_offending_token_is_quoted_whole_and_spanned() {
    fails(
        "last.count > and 2",
        Type::Bool,
        13..16,
        &format!("syntax error: expected {VALUE}, found `and`"),
        &[],
    );
    let end = "or the end of the expression";
    fails(
        "last.count last.side",
        Type::Bool,
        11..20,
        &format!("syntax error: expected {OPERATOR} {end}, found `last.side`"),
        &[],
    );
    fails(
        "sown == 12345 6789",
        Type::Bool,
        14..18,
        &format!("syntax error: expected an operator (`and`, `+`, …) {end}, found `6789`"),
        &[],
    );
    fails(
        "sown >= <= 2",
        Type::Bool,
        8..10,
        &format!("syntax error: expected {VALUE}, found `<=`"),
        &[],
    );
    fails(
        "sown é",
        Type::Bool,
        5..7,
        &format!("syntax error: expected {OPERATOR} {end}, found `é`"),
        &[],
    );
    fails(
        "sown \u{a0} 1",
        Type::Bool,
        5..7,
        &format!("syntax error: expected {OPERATOR} {end}, found the character U+00A0"),
        &[],
    );
    fails(
        "1 +",
        Type::Int,
        3..3,
        &format!("syntax error: expected {VALUE}, found the end of the expression"),
        &[],
    );
    // A long token is spanned whole and quoted shortened.
    let long = format!("sown {}", "x".repeat(50));
    fails(
        &long,
        Type::Bool,
        5..55,
        &format!(
            "syntax error: expected {OPERATOR} {end}, found `{}…`",
            "x".repeat(40)
        ),
        &[],
    );
}

#[test]
fn syntax_errors_say_what_was_expected_in_words() {
    fails(
        "(sown b)",
        Type::Int,
        6..7,
        &format!("syntax error: expected {OPERATOR} or `)`, found `b`"),
        &[],
    );
    fails(
        "double(1 2)",
        Type::Int,
        9..10,
        &format!("syntax error: expected {OPERATOR}, `,`, or `)`, found `2`"),
        &[],
    );
    fails(
        "sown in [1 2]",
        Type::Bool,
        11..12,
        "syntax error: expected an operator (`+`, …), `,`, or `]`, found `2`",
        &[],
    );
    fails(
        "sown in 1 2",
        Type::Bool,
        10..11,
        "syntax error: expected an operator (`+`, …) or `..`, found `2`",
        &[],
    );
    fails(
        "sown in",
        Type::Bool,
        7..7,
        "syntax error: expected a list such as `[2, 3]` or a range such as `2..3`, found the \
         end of the expression",
        &[],
    );
    fails(
        "not",
        Type::Bool,
        3..3,
        &format!("syntax error: expected {VALUE}, found the end of the expression"),
        &[],
    );
    fails(
        "",
        Type::Bool,
        0..0,
        "syntax error: the expression is empty",
        &[],
    );
    fails(
        " \t",
        Type::Bool,
        0..2,
        "syntax error: the expression is empty",
        &[],
    );
}

#[test]
fn common_slips_get_a_hint() {
    let after_value = format!("syntax error: expected {OPERATOR} or the end of the expression");
    fails(
        "sown = 2",
        Type::Bool,
        5..6,
        &format!("{after_value}, found `=`"),
        &["to compare, write `==`"],
    );
    fails(
        "sown === 2",
        Type::Bool,
        7..8,
        &format!("syntax error: expected {VALUE}, found `=`"),
        &["there is no `===`: write `==`"],
    );
    fails(
        "sown == 2 && sown == 3",
        Type::Bool,
        10..12,
        "syntax error: expected an operator (`and`, `+`, …) or the end of the expression, \
         found `&&`",
        &["write `and`"],
    );
    fails(
        "!last.open",
        Type::Bool,
        0..1,
        &format!("syntax error: expected {VALUE}, found `!`"),
        &["write `not`"],
    );
    fails(
        "sown in [1..2]",
        Type::Bool,
        10..12,
        "syntax error: expected an operator (`+`, …), `,`, or `]`, found `..`",
        &["a range is written without brackets: `x in 2..3`"],
    );
    fails(
        "sown in 1, 2",
        Type::Bool,
        9..10,
        "syntax error: expected an operator (`+`, …) or `..`, found `,`",
        &["a list needs brackets: `x in [2, 3]`"],
    );
    fails(
        "sown > 1.5",
        Type::Bool,
        8..9,
        "syntax error: expected an operator (`and`, `+`, …) or the end of the expression, found \
         `.`",
        &["numbers are whole: there are no decimals"],
    );
}

/// Every message and note of errors in many broken expressions is in the user's words: no
/// grammar rule is named, and spans lie within the text.
#[test]
fn no_message_names_a_grammar_rule() {
    const RULES: &[&str] = &[
        "EOI",
        "SOI",
        "WHITESPACE",
        "or_expr",
        "and_expr",
        "not_expr",
        "comparison",
        "sum",
        "product",
        "unary",
        "atom",
        "set",
        "call",
        "keyword",
        "ident",
        "rparen",
        "rbracket",
        "comma",
        "dots",
        "or_op",
        "and_op",
        "not_op",
        "in_op",
        "cmp_op",
        "add_op",
        "mul_op",
        "neg_op",
    ];
    let valid = [
        "last.side == opponent and last.count in [2, 3]",
        "not (sown > 3) or double(sown) in 1..2 * 3",
        "-sown % 2 != last.count - -1 and last.open",
    ];
    let mut broken: Vec<String> = Vec::new();
    for v in valid {
        for (cut, _) in v.char_indices().skip(1) {
            let (head, tail) = v.split_at(cut);
            broken.push(head.to_string());
            broken.push(format!("{head})"));
            broken.push(format!("{head}]"));
            broken.push(format!("{head} , {tail}"));
            broken.push(format!("{head} {head}"));
            broken.push(format!("{tail} {head}"));
        }
    }
    let mut errors = 0;
    for text in &broken {
        for ty in [Type::Int, Type::Bool] {
            let Err(e) = Expr::compile(text, &scope(), ty) else {
                continue;
            };
            errors += 1;
            assert!(
                e.span.start <= e.span.end
                    && text.is_char_boundary(e.span.start)
                    && text.is_char_boundary(e.span.end),
                "{text:?}: {e:?}"
            );
            for line in std::iter::once(&e.message).chain(&e.notes) {
                let leaked = line
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .find(|w| RULES.contains(w));
                assert_eq!(leaked, None, "{text:?}: {line}");
            }
        }
    }
    assert!(errors > 500, "{errors}");
}

// Type errors: both types named, and the usual fix.

#[test]
fn comparing_mismatched_types_names_both_and_the_usual_partner() {
    fails(
        "last.side == 2",
        Type::Bool,
        0..14,
        "type error: `last.side` is a player and `2` is an integer; compare `last.side` with \
         `mover` or `opponent`",
        &[],
    );
    // Spanned from operand to operand, spaces left out, brackets in.
    fails(
        "(last.side == 2 ) and last.open",
        Type::Bool,
        0..17,
        "type error: `last.side` is a player and `2` is an integer; compare `last.side` with \
         `mover` or `opponent`",
        &[],
    );
    // The subject is the name, not the literal.
    fails(
        "2 != last.side",
        Type::Bool,
        0..14,
        "type error: `2` is an integer and `last.side` is a player; compare `last.side` with \
         `mover` or `opponent`",
        &[],
    );
    // A name is not offered as its own partner.
    fails(
        "mover == 0",
        Type::Bool,
        0..10,
        "type error: `mover` is a player and `0` is an integer; compare `mover` with `opponent`",
        &[],
    );
    fails(
        "last.count == opponent",
        Type::Bool,
        0..22,
        "type error: `last.count` is an integer and `opponent` is a player; compare \
         `last.count` with a number",
        &[],
    );
    fails(
        "last.open == 1",
        Type::Bool,
        0..14,
        "type error: `last.open` is a boolean and `1` is an integer; compare `last.open` with \
         `true` or `false`",
        &["or use it as a condition: `last.open`, `not last.open`"],
    );
    // Sides too long to quote are named by their place.
    fails(
        "double(double(double(sown + 1))) + 1 == mover",
        Type::Bool,
        0..45,
        "type error: the left side is an integer and `mover` is a player; compare the left \
         side with a number",
        &[],
    );
}

#[test]
fn an_operand_of_the_wrong_type_is_located_with_a_hint() {
    let players = "players are compared with `==` or `!=` only, as in `last.side == mover`";
    fails(
        "last.side + 1 == 2",
        Type::Bool,
        0..9,
        "type error: `last.side` is a player, but `+` works on integers",
        &[players],
    );
    fails(
        "last.side < opponent",
        Type::Bool,
        0..9,
        "type error: `last.side` is a player, but `<` works on integers",
        &[players],
    );
    fails(
        "not sown",
        Type::Bool,
        4..8,
        "type error: `sown` is an integer, but `not` works on conditions",
        &["an integer is not a condition: compare it, as in `sown > 0`"],
    );
    fails(
        "last.open or sown",
        Type::Bool,
        13..17,
        "type error: `sown` is an integer, but `or` works on conditions",
        &["an integer is not a condition: compare it, as in `sown > 0`"],
    );
    fails(
        "double(true)",
        Type::Int,
        7..11,
        "type error: `true` is a boolean, but the argument of `double` must be an integer",
        &[],
    );
    fails(
        "sown in [1, true]",
        Type::Bool,
        12..16,
        "type error: `true` is a boolean, but list items must be integers",
        &[],
    );
    fails(
        "sown in 1..last.side",
        Type::Bool,
        11..20,
        "type error: `last.side` is a player, but the ends of a range must be integers",
        &[players],
    );
    fails(
        "last.open in [1]",
        Type::Bool,
        0..9,
        "type error: `last.open` is a boolean, but `in` works on integers",
        &[],
    );
    fails(
        "(sown in [1] ) + 1",
        Type::Int,
        0..14,
        "type error: `(sown in [1] )` is a boolean, but `+` works on integers",
        &[],
    );
    fails(
        "-last.open",
        Type::Int,
        1..10,
        "type error: `last.open` is a boolean, but `-` works on integers",
        &[],
    );
}

#[test]
fn an_expression_of_the_wrong_type_says_what_its_key_wants() {
    fails(
        "sown + 1",
        Type::Bool,
        0..8,
        "type error: expected a boolean expression, this is an integer",
        &["an integer is not a condition: compare it, as in `sown + 1 > 0`"],
    );
    fails(
        " (sown) ",
        Type::Bool,
        1..7,
        "type error: expected a boolean expression, this is an integer",
        &["an integer is not a condition: compare it, as in `(sown) > 0`"],
    );
    fails(
        "last.side",
        Type::Bool,
        0..9,
        "type error: expected a boolean expression, this is a player",
        &["a player is not a condition: compare it, as in `last.side == mover`"],
    );
    fails(
        "sown > 1",
        Type::Int,
        0..8,
        "type error: expected an integer expression, this is a boolean",
        &[],
    );
}

#[test]
fn functions_and_values_used_as_the_other() {
    fails(
        "double(1, 2)",
        Type::Int,
        0..12,
        "`double` takes 1 argument, given 2",
        &[],
    );
    fails(
        "double()",
        Type::Int,
        0..8,
        "`double` takes 1 argument, given 0",
        &[],
    );
    fails(
        "double",
        Type::Int,
        0..6,
        "`double` is a function: write `double(…)` with 1 argument",
        &[],
    );
    fails(
        "sown(1)",
        Type::Int,
        0..4,
        "`sown` is not a function: write `sown` without `(…)`",
        &[],
    );
}

// Unknown names: a short list of near names, and the names that share a part.

#[test]
fn misspelt_names_attributes_and_functions_get_a_suggestion() {
    let last = "names starting with `last.`: last.count, last.side, last.open";
    fails(
        "last.cuont == 2",
        Type::Bool,
        0..10,
        "unknown name `last.cuont`",
        &["did you mean `last.count`?", last],
    );
    fails(
        "last.cout",
        Type::Int,
        0..9,
        "unknown name `last.cout`",
        &["did you mean `last.count`?", last],
    );
    fails(
        "double(doubel(1))",
        Type::Int,
        7..13,
        "unknown function `doubel`",
        &["did you mean `double`?", "functions here: double"],
    );
    fails(
        "soWn",
        Type::Int,
        0..4,
        "unknown name `soWn`",
        &[
            "did you mean `sown`?",
            "names here: last.count, last.side, sown, last.open, mover, opponent, double",
        ],
    );
    // A field of a view this context lacks: the views that have it.
    fails(
        "pit.side == mover",
        Type::Bool,
        0..8,
        "unknown name `pit.side`",
        &["names ending in `.side`: last.side"],
    );
}

#[test]
fn suggestions_are_few_and_of_the_fitting_kind() {
    let scope = Scope::new()
        .var("pit.a1", Type::Int, 0, "")
        .var("pit.a2", Type::Int, 1, "")
        .var("pit.a3", Type::Int, 2, "")
        .var("pit.a4", Type::Int, 3, "")
        .var("stones", Type::Int, 4, "")
        .func("stone", P, Type::Int, 5, "")
        .var("y", Type::Int, 6, "");
    let notes = |text: &str| Expr::compile(text, &scope, Type::Int).unwrap_err().notes;
    // Ties, at most three.
    assert_eq!(
        notes("pit.a")[0],
        "did you mean `pit.a1`, `pit.a2`, or `pit.a3`?"
    );
    // A call suggests functions, a value values.
    assert_eq!(notes("stonez(1)")[0], "did you mean `stone`?");
    assert_eq!(notes("stonez")[0], "did you mean `stones`?");
    // A name is never replaced whole: `x` is not a slip for `y`.
    assert!(notes("x")[0].starts_with("names here:"));
    // A long unknown name is cheap to check.
    let long = "q".repeat(1999);
    assert_eq!(notes(&long).len(), 1);
}

#[test]
fn no_suggestion_for_names_far_from_any() {
    let e = error("banana == 2", Type::Bool);
    assert!(
        e.notes.iter().all(|n| !n.starts_with("did you mean")),
        "{e:?}"
    );
    assert!(e.notes[0].starts_with("names here: last.count"), "{e:?}");
}

// Limits: rules files are untrusted.

#[test]
fn a_one_mebibyte_expression_is_refused_by_its_length() {
    let text = "1 + ".repeat(1 << 18);
    fails(
        &text,
        Type::Int,
        0..1 << 20,
        "expression too long: 1048576 bytes, at most 2000",
        &[],
    );
    let longest = format!("{}1", " ".repeat(parse::MAX_LEN - 1));
    assert_eq!(eval(&longest, [0; 3]), 1);
}

#[test]
fn ten_thousand_nested_brackets_are_refused_before_parsing() {
    let deep = format!("{}1{}", "(".repeat(10_000), ")".repeat(10_000));
    fails(
        &deep,
        Type::Int,
        0..20_001,
        "expression too long: 20001 bytes, at most 2000",
        &[],
    );
    // Within the length limit, the bracket past the nesting limit is refused, closed or not.
    let n = scan::MAX_NESTING;
    let deepest = format!("{}1{}", "(".repeat(n), ")".repeat(n));
    assert_eq!(eval(&deepest, [0; 3]), 1);
    let too_deep = "brackets nested too deeply: more than 12 levels";
    let deep = format!("{}1{}", "(".repeat(900), ")".repeat(900));
    fails(&deep, Type::Int, 12..13, too_deep, &[]);
    fails(&"(".repeat(1999), Type::Int, 12..13, too_deep, &[]);
    let calls = format!("sown in [{}1{}]", "double(".repeat(n), ")".repeat(n));
    fails(&calls, Type::Bool, 92..93, too_deep, &[]);
}

#[test]
fn long_runs_of_not_and_minus_are_refused_before_parsing() {
    let text = format!("{}true", "not ".repeat(100_000));
    fails(
        &text,
        Type::Bool,
        0..400_004,
        "expression too long: 400004 bytes, at most 2000",
        &[],
    );
    let run = "too many `not`/`-` in a row (at most 63)";
    assert_eq!(eval(&format!("{}true", "not ".repeat(63)), [0; 3]), 0);
    fails(
        &format!("{}true", "not ".repeat(400)),
        Type::Bool,
        0..255,
        run,
        &[],
    );
    assert_eq!(eval(&format!("{}1", "-".repeat(63)), [0; 3]), -1);
    fails(&format!("{}1", "-".repeat(64)), Type::Int, 0..64, run, &[]);
    fails(
        &format!("{}1", "- ".repeat(64)),
        Type::Int,
        0..127,
        run,
        &[],
    );
    fails(
        &format!("sown + ({}1)", "-".repeat(1000)),
        Type::Int,
        8..72,
        run,
        &[],
    );
    // A minus after a value subtracts: it does not count.
    assert_eq!(eval(&format!("1 {}1", "-".repeat(63)), [0; 3]), 0);
}

#[test]
fn long_chains_are_limited_by_depth() {
    let chain = vec!["last.open"; 64].join(" and ");
    let e = Expr::compile(&chain, &scope(), Type::Bool).unwrap();
    assert!(e.test(&[0, 0, 0, 1][..]));
    assert_eq!(eval(&vec!["1"; 64].join(" + "), [0; 3]), 64);
    let notes = ["every operator is a level: a chain `a and b and c …` may have at most 64 terms"];
    let too_deep = "expression nested too deeply: more than 64 levels";
    let chain = vec!["last.open"; 65].join(" and ");
    fails(&chain, Type::Bool, 0..chain.len(), too_deep, &notes);
    // As long as the length allows: refused at the 65th term.
    let chain = vec!["1"; 1000].join("+");
    fails(&chain, Type::Int, 0..129, too_deep, &notes);
    let chain = vec!["1"; 400].join(" or ");
    fails(&chain, Type::Bool, 0..321, too_deep, &notes);
}

#[test]
fn the_evaluation_stack_is_bounded() {
    let items = |n: usize| vec!["1"; n].join(", ");
    assert_eq!(eval(&format!("sown in [{}]", items(31)), [0, 0, 1]), 1);
    let text = format!("sown in [{}]", items(32));
    fails(
        &text,
        Type::Bool,
        8..text.len(),
        "list too long: 32 items, at most 31",
        &[],
    );
    let text = format!("true == (sown in [{}])", items(31));
    fails(
        &text,
        Type::Bool,
        0..text.len(),
        "expression too complex: evaluating it holds more than 32 values at once",
        &[],
    );
    fails(
        "99999999999",
        Type::Int,
        0..11,
        "number too large: the largest is 2147483647",
        &[],
    );
}

/// The worst texts within the length limit, for each kind of structure.
fn hostile() -> Vec<String> {
    let n = parse::MAX_LEN;
    let fill = |unit: &str| unit.repeat(n / unit.len());
    vec![
        fill("("),
        fill(")"),
        fill("[("),
        fill("(1+"),
        fill("double("),
        fill("1,"),
        format!("sown in [{}]", "1,".repeat(n / 2 - 10)),
        fill("- "),
        fill("not "),
        fill("1 == "),
        fill("é"),
        fill("a."),
        fill("1 and "),
        fill("x"),
        fill("sown in 1.."),
        fill("((1 + (1)) * 2) + "),
    ]
}

#[test]
fn hostile_texts_are_handled_quickly() {
    let start = std::time::Instant::now();
    for text in hostile() {
        for ty in [Type::Int, Type::Bool] {
            let _ = Expr::compile(&text, &scope(), ty);
        }
    }
    // Linear work on 2000 bytes takes microseconds; a quadratic blow-up would take far longer.
    assert!(start.elapsed().as_secs() < 2, "{:?}", start.elapsed());
}

/// The deepest expressions each limit accepts, and texts just past them, are handled on a
/// 256 KiB stack, even in a debug build: nothing recurses deeper than the limits allow.
#[test]
fn the_deepest_accepted_expressions_compile_on_a_256_kib_stack() {
    let n = scan::MAX_NESTING;
    let nested = |open: &str, inner: &str| format!("{}{inner}{}", open.repeat(n), ")".repeat(n));
    let accepted = vec![
        (nested("(", "1"), Type::Int),
        (nested("double(", "1"), Type::Int),
        (nested("not (", "true"), Type::Bool),
        (nested("-(", "1"), Type::Int),
        (nested("(1 + ", "1"), Type::Int),
        (nested("(last.open or not ", "true"), Type::Bool),
        (nested("(2 + 1 * -", "1"), Type::Int),
        (
            format!("sown in [{}1{}]", "(".repeat(n - 1), ")".repeat(n - 1)),
            Type::Bool,
        ),
        (format!("{}1", "-".repeat(63)), Type::Int),
        (format!("{}true", "not ".repeat(63)), Type::Bool),
        (vec!["1"; 64].join(" + "), Type::Int),
        (vec!["true"; 64].join(" and "), Type::Bool),
        (
            format!("{}true{}", "(true and ".repeat(n), ")".repeat(n)),
            Type::Bool,
        ),
    ];
    let refused = vec![
        (nested("(", "1 +"), Type::Int),
        (nested("double(", "1 + true"), Type::Int),
        (nested("(", "x"), Type::Int),
        (format!("({}", nested("(", "1")), Type::Int),
        (vec!["true"; 65].join(" and "), Type::Bool),
    ];
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            for (text, ty) in accepted {
                let scope = scope();
                let e =
                    Expr::compile(&text, &scope, ty).unwrap_or_else(|e| panic!("{text}: {e:?}"));
                e.eval(&[0, 0, 0, 0][..]);
            }
            for (text, ty) in refused {
                let e = Expr::compile(&text, &scope(), ty).expect_err(&text);
                assert_ne!(e.message, "expression too complex to parse", "{text}");
            }
            for text in hostile() {
                let _ = Expr::compile(&text, &scope(), Type::Bool);
            }
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn if_picks_one_of_two_values_of_one_type() {
    assert_eq!(eval("if(last.count == 4, 3, 2)", [4, 0, 0]), 3);
    assert_eq!(eval("if(last.count == 4, 3, 2)", [5, 0, 0]), 2);
    assert_eq!(eval("2 + if(sown > 1, sown, 0) * 10", [0, 0, 3]), 32);
    assert_eq!(
        eval("if(sown > 0, last.side, mover) == opponent", [0, 1, 1]),
        1
    );
    assert_eq!(eval("if(sown > 0, last.open, true)", [0, 0, 0]), 1);
    // Nested, and both values worked out: a division by zero in the other gives 0.
    assert_eq!(
        eval(
            "if(sown == 0, if(last.count > 2, 1, 2), 10 / sown)",
            [3, 0, 0]
        ),
        1
    );
    assert_eq!(eval("if(sown == 0, 7, 10 / sown)", [0, 0, 5]), 2);
    let e = error("if(sown, 1, 2)", Type::Int);
    assert_eq!(e.span, 3..7, "{e:?}");
    let e = error("if(sown > 1, 1, last.side)", Type::Int);
    assert!(
        e.message
            .contains("the two values of `if` must be of one type"),
        "{e:?}"
    );
    let e = error("if(sown > 1, 1)", Type::Int);
    assert!(
        e.message.contains("`if` takes 3 arguments, given 2"),
        "{e:?}"
    );
    let e = error("if(sown > 1, 1, 2)", Type::Bool);
    assert!(e.message.contains("integer"), "{e:?}");
}

fn defined(entries: &[(&str, &str)]) -> Scope {
    let defs = Definitions::new(entries).unwrap_or_else(|e| panic!("{e:?}"));
    scope().with_definitions(std::sync::Arc::new(defs))
}

#[test]
fn definitions_are_written_in_where_they_are_used() {
    let s = defined(&[
        ("big", "last.count > limit"),
        ("limit", "double(sown)"),
        ("twice", "2 * (sown + 1)"),
    ]);
    let run = |text: &str, ty, vars: [i32; 4]| {
        Expr::compile(text, &s, ty)
            .unwrap_or_else(|e| panic!("{text}: {e:?}"))
            .eval(&Env(vars))
    };
    // A definition using another; both written in with their own precedence.
    assert_eq!(run("big", Type::Bool, [7, 0, 3, 0]), 1);
    assert_eq!(run("big", Type::Bool, [6, 0, 3, 0]), 0);
    assert_eq!(run("twice * 2", Type::Int, [0, 0, 4, 0]), 20);
    assert_eq!(run("not big and twice == 2", Type::Bool, [0, 0, 0, 0]), 1);
    // The expression keeps its own text (what `ludus show` quotes).
    assert_eq!(
        Expr::compile("twice", &s, Type::Int).unwrap().text(),
        "twice"
    );
    // An error in a definition is reported where the name is used.
    let e = Expr::compile("sown + big", &s, Type::Int).unwrap_err();
    assert_eq!(e.span, 7..10, "{e:?}");
    let defs = Definitions::new(&[("used", "1"), ("unused", "2")]).unwrap();
    let s = scope().with_definitions(std::sync::Arc::new(defs));
    Expr::compile("used + 1", &s, Type::Int).unwrap();
    let unused: Vec<&str> = match &s.definitions {
        Some(d) => d.unused().collect(),
        None => vec![],
    };
    assert_eq!(unused, ["unused"]);
}

#[test]
fn definitions_refuse_cycles_bad_names_and_blowing_up() {
    let cycle = Definitions::new(&[("a", "b + 1"), ("b", "c"), ("c", "a")]).unwrap_err();
    assert!(cycle.error.message.contains("a → b → c → a"), "{cycle:?}");
    let own = Definitions::new(&[("a", "a + 1")]).unwrap_err();
    assert!(own.error.message.contains("uses itself"), "{own:?}");
    let bad = Definitions::new(&[("ok", "1"), ("Not-a-name", "2")]).unwrap_err();
    assert_eq!(bad.index, 1);
    let syntax = Definitions::new(&[("a", "1 +")]).unwrap_err();
    assert!(syntax.error.message.contains("syntax error"), "{syntax:?}");
    // Each definition doubling the one before: written out, 2^30 terms.
    let texts: Vec<(String, String)> = (0..30)
        .map(|i| {
            let body = if i == 0 {
                "sown".to_string()
            } else {
                format!("d{} + d{}", i - 1, i - 1)
            };
            (format!("d{i}"), body)
        })
        .collect();
    let entries: Vec<(&str, &str)> = texts
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_str()))
        .collect();
    let big = Definitions::new(&entries).unwrap_err();
    assert!(big.error.message.contains("too large"), "{big:?}");
    // A definition takes the place of a name of the scope it shadows (the file's rules check
    // it with a warning), so that a file keeps its meaning when the language gains a name.
    let s = defined(&[("sown", "100")]);
    let e = Expr::compile("sown", &s, Type::Int).unwrap();
    assert_eq!(e.eval(&Env([0, 0, 5, 0])), 100);
    // Defined by itself it would use itself.
    let own = Definitions::new(&[("sown", "sown + 1")]).unwrap_err();
    assert!(own.error.message.contains("uses itself"), "{own:?}");
}
