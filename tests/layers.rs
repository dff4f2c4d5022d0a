//! The layers: the workspace's crates depend only on the crates above them in the README's
//! architecture list, and inside `ludus-core` each module uses only the modules before it (the
//! compiler forbids cycles between crates, not between the modules of one crate). Every path
//! the list names exists.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

const README: &str = include_str!("../docs/architecture.md");

/// The `text` block of the README's "How it is built" section.
fn architecture() -> &'static str {
    let section = &README[README.find("## How it is built").expect("section")..];
    let start = section.find("```text\n").expect("architecture block") + 8;
    &section[start..start + section[start..].find("```").expect("block end")]
}

/// The crates in the order the README lists them: (folder under crates/, package name).
fn crates_in_order() -> Vec<(String, String)> {
    architecture()
        .lines()
        .filter_map(|line| {
            let dir = line.strip_prefix("crates/")?.split('/').next()?.to_string();
            let name = line.split_whitespace().nth(1)?.trim_end_matches(':');
            Some((dir, name.to_string()))
        })
        .collect()
}

/// The `ludus-*` packages a manifest depends on (normal dependencies, not dev-dependencies).
fn ludus_dependencies(manifest: &Path) -> BTreeSet<String> {
    let text = fs::read_to_string(manifest).unwrap();
    let doc: toml::Table = text.parse().unwrap();
    doc.get("dependencies")
        .and_then(toml::Value::as_table)
        .map(|deps| {
            deps.keys()
                .filter(|k| k.starts_with("ludus-"))
                .cloned()
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn every_crate_uses_only_the_crates_listed_above_it() {
    let order = crates_in_order();
    let on_disk: BTreeSet<String> = fs::read_dir("crates")
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let listed: BTreeSet<String> = order.iter().map(|(dir, _)| dir.clone()).collect();
    assert_eq!(
        listed, on_disk,
        "the README lists every crate under crates/"
    );
    for (i, (dir, name)) in order.iter().enumerate() {
        let manifest = Path::new("crates").join(dir).join("Cargo.toml");
        let text = fs::read_to_string(&manifest).unwrap();
        assert!(
            text.contains(&format!("name = \"{name}\"")),
            "crates/{dir} is the package {name}, as the README says"
        );
        let above: BTreeSet<String> = order[..i].iter().map(|(_, n)| n.clone()).collect();
        for dep in ludus_dependencies(&manifest) {
            assert!(
                above.contains(&dep),
                "{name} depends on {dep}, which the README lists below it"
            );
        }
    }
    // The families know only the core, and neither knows the other.
    for family in ["sowing", "tables"] {
        let deps = ludus_dependencies(&Path::new("crates").join(family).join("Cargo.toml"));
        assert_eq!(deps, BTreeSet::from(["ludus-core".to_string()]), "{family}");
    }
}

/// The modules of `ludus-core`, in the order its crate documentation gives them.
const CORE_ORDER: [&str; 7] = [
    "diagnostics",
    "limits",
    "expr",
    "rules",
    "net",
    "game",
    "svg",
];

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_core_modules_use_only_the_modules_before_them() {
    let src = Path::new("crates/core/src");
    let mut modules: Vec<String> = fs::read_dir(src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().is_some_and(|n| n != "lib.rs"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    modules.sort();
    let mut ordered = CORE_ORDER.map(String::from).to_vec();
    ordered.sort();
    assert_eq!(
        modules, ordered,
        "every core module has its place in the order"
    );
    let lib = fs::read_to_string(src.join("lib.rs")).unwrap();
    let positions: Vec<usize> = CORE_ORDER
        .iter()
        .map(|m| {
            lib.find(&format!("[`{m}`]"))
                .expect("the crate doc names it")
        })
        .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{CORE_ORDER:?}");
    let mut used_wrongly = Vec::new();
    for (i, module) in CORE_ORDER.iter().enumerate() {
        let mut files = Vec::new();
        let dir = src.join(module);
        if dir.is_dir() {
            rust_files(&dir, &mut files);
        } else {
            files.push(src.join(format!("{module}.rs")));
        }
        for file in files {
            let text = fs::read_to_string(&file).unwrap();
            for later in &CORE_ORDER[i + 1..] {
                if text.contains(&format!("crate::{later}")) {
                    used_wrongly.push(format!("{} uses {later}", file.display()));
                }
            }
        }
    }
    assert!(used_wrongly.is_empty(), "{used_wrongly:#?}");
}

#[test]
fn every_path_the_architecture_names_exists() {
    let mut parent = String::new();
    let mut missing = Vec::new();
    for line in architecture().lines() {
        // An entry starts at the margin, a file of a crate two spaces in; deeper lines go on
        // describing the entry above.
        let indent = line.len() - line.trim_start().len();
        let Some(first) = line.split_whitespace().next().filter(|_| indent <= 2) else {
            continue;
        };
        let indented = indent == 2;
        let path = if indented {
            format!("{parent}{first}")
        } else {
            parent = first.to_string();
            first.to_string()
        };
        for one in path.split(", ") {
            let one = one.trim_end_matches(',');
            if one.contains('*') {
                continue;
            }
            if !Path::new(one).exists() {
                missing.push(one.to_string());
            }
        }
    }
    assert!(missing.is_empty(), "named but missing: {missing:?}");
}
