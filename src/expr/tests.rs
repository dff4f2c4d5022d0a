use super::*;

const P: &[Type] = &[Type::Int];

fn scope() -> Scope {
    Scope::new()
        .var("last.count", Type::Int, 0, "stones in the last pit")
        .var("last.side", Type::Player, 1, "owner of the last pit")
        .var("sown", Type::Int, 2, "stones sown")
        .constant("mover", Type::Player, 0, "the player moving")
        .constant("opponent", Type::Player, 1, "the other player")
        .func("double", P, Type::Int, 7, "twice its argument")
}

struct Env([i32; 3]);
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
    assert_eq!(e.constant_value(), None);
    let e = Expr::compile("25", &scope(), Type::Int).unwrap();
    assert_eq!(e.constant_value(), Some(25));
}

#[test]
fn unknown_names_are_located_with_a_suggestion() {
    let e = error("last.cuont == 2", Type::Bool);
    assert_eq!(e.span, 0..10);
    assert!(e.message.contains("unknown name `last.cuont`"), "{e:?}");
    assert_eq!(e.notes[0], "did you mean `last.count`?");
}

#[test]
fn type_errors_are_located() {
    let e = error("last.side + 1 == 2", Type::Bool);
    assert_eq!(e.span, 0..9);
    assert!(e.message.contains("type error"), "{e:?}");
    let e = error("last.side == 1", Type::Bool);
    assert!(
        e.message.contains("compares a player with an integer"),
        "{e:?}"
    );
    let e = error("sown + 1", Type::Bool);
    assert!(e.message.contains("expected a boolean"), "{e:?}");
    let e = error("double(true)", Type::Int);
    assert_eq!(e.span, 7..11);
    let e = error("double(1, 2)", Type::Int);
    assert!(e.message.contains("takes 1 argument"), "{e:?}");
    let e = error("double", Type::Int);
    assert!(e.message.contains("function"), "{e:?}");
}

#[test]
fn syntax_errors_are_located() {
    let e = error("last.count in [2, 3", Type::Bool);
    assert_eq!(e.span.start, 19);
    assert!(e.message.starts_with("syntax error"), "{e:?}");
    let e = error("last.count === 2", Type::Bool);
    assert_eq!(e.span.start, 13);
    let e = error("and", Type::Bool);
    assert_eq!(e.span.start, 0);
    let e = error("", Type::Bool);
    assert_eq!(e.span.start, 0);
}

#[test]
fn hostile_expressions_are_refused_not_crashed() {
    let deep = format!("{}1{}", "(".repeat(10_000), ")".repeat(10_000));
    assert!(error(&deep, Type::Int).message.contains("longer"));
    let nested = format!("{}1{}", "(".repeat(100), ")".repeat(100));
    assert!(error(&nested, Type::Int).message.contains("nested"));
    let wide = format!("sown in [{}]", vec!["1"; 100].join(","));
    assert!(error(&wide, Type::Bool).message.contains("too complex"));
    assert!(error("99999999999", Type::Int)
        .message
        .contains("too large"));
    // Chains evaluate on the fixed stack, up to the depth limit.
    let chain = vec!["1"; 60].join(" + ");
    assert_eq!(eval(&chain, [0; 3]), 60);
    let chain = vec!["1"; 500].join(" + ");
    assert!(error(&chain, Type::Int).message.contains("deeper"));
    let negs = format!("{}1", "-".repeat(63));
    assert_eq!(eval(&negs, [0; 3]), -1);
    let negs = format!("{}1", "-".repeat(301));
    assert!(error(&negs, Type::Int).message.contains("deeper"));
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
