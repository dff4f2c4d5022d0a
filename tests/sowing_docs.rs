//! The README's sowing reference names every expression name the interpreter offers.

#[test]
fn every_expression_name_is_documented() {
    let doc = include_str!("../docs/rules.md");
    let views = [
        "pit",
        "last",
        "next",
        "beyond",
        "opposite",
        "behind",
        "origin",
        "previous_origin",
        "previous_last",
        "prior",
    ];
    for (context, scope) in ludus::sowing::scope_reference() {
        assert!(
            doc.contains(context.key()),
            "context {} undocumented",
            context.key()
        );
        for name in scope.names() {
            let documented = match name.name.split_once('.') {
                Some((view, field)) if views.contains(&view) => {
                    doc.contains(&format!("`V.{field}`")) && doc.contains(&format!("`{view}`"))
                }
                _ => doc.contains(&format!("`{}", name.name)),
            };
            assert!(
                documented,
                "`{}` ({}) undocumented",
                name.name,
                context.key()
            );
        }
    }
}
