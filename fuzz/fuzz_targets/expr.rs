#![no_main]
//! Expression compiler: the input text against every scope of both families and every type;
//! what compiles is evaluated on ordinary and on extreme values.
use ludus::expr::{Expr, Scope, Type, Vars};
use std::sync::OnceLock;

fn scopes() -> &'static [Scope] {
    static SCOPES: OnceLock<Vec<Scope>> = OnceLock::new();
    SCOPES.get_or_init(|| {
        let sowing = ludus::sowing::scope_reference().into_iter().map(|(_, s)| s);
        let tables = ludus::tables::scope_reference().into_iter().map(|(_, s)| s);
        sowing.chain(tables).collect()
    })
}

/// Variables and functions: `var(slot)` and `call(slot, args)` derived from `base`.
struct Values(i32);

impl Vars for Values {
    fn var(&self, slot: u16) -> i32 {
        self.0.wrapping_add(i32::from(slot))
    }
    fn call(&self, slot: u16, args: &[i32]) -> i32 {
        args.iter()
            .fold(self.var(slot), |a, &b| a.wrapping_mul(31) ^ b)
    }
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for scope in scopes() {
        for ty in [Type::Int, Type::Bool, Type::Player] {
            if let Ok(expr) = Expr::compile(text, scope, ty) {
                for base in [0, 3, -1, i32::MIN, i32::MAX] {
                    expr.eval(&Values(base));
                }
                expr.constant_value();
            }
        }
    }
});
