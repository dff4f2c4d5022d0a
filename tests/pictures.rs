//! Pictures of positions: every bundled game's start is a well-formed SVG with its counts
//! written as numbers, and drawn (by resvg, without fonts, so that the machine's fonts do not
//! matter) it matches the stored image within a tolerance. `LUDUS_BLESS_PICTURES=1` rewrites
//! the stored images after a deliberate change of the drawing.

use ludus::game::{Game, View};
use ludus::registry;
use resvg::{tiny_skia, usvg};
use std::path::PathBuf;

fn picture(name: &str) -> String {
    let game = registry::load(name).unwrap().1;
    game.svg(&game.new_game(0), 0)
}

/// The bold texts of the picture (counts, names, results), in order; labels are plain.
fn texts(svg: &str) -> Vec<String> {
    svg.split("<text ")
        .skip(1)
        .filter(|t| t.contains("font-weight=\"bold\""))
        .map(|t| {
            t.split('>')
                .nth(1)
                .unwrap()
                .split('<')
                .next()
                .unwrap()
                .to_string()
        })
        .collect()
}

fn render(svg: &str) -> tiny_skia::Pixmap {
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default()).expect("well-formed SVG");
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap
}

#[test]
fn every_bundled_start_is_a_well_formed_picture_with_its_counts() {
    for (name, _) in ludus::rules::BUNDLED {
        let svg = picture(name);
        assert!(
            svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
            "{name}"
        );
        let pixmap = render(&svg);
        assert!(pixmap.width() > 200 && pixmap.height() > 100, "{name}");
        // Not blank: the board is drawn.
        let dark = pixmap.pixels().iter().filter(|p| p.red() < 64).count();
        assert!(dark > 500, "{name}: {dark} dark pixels");
    }
    // Oware: twelve pits of 4 and two empty stores, each written as a number.
    let t = texts(&picture("oware"));
    assert_eq!(t.iter().filter(|t| *t == "4").count(), 12, "{t:?}");
    assert_eq!(t.iter().filter(|t| *t == "0").count(), 2, "{t:?}");
    // Backgammon: the stacks counted (5 on the 6- and 13-points, 3 on the 8, 2 on the 24) and
    // both pip counts.
    let t = texts(&picture("backgammon"));
    for count in ["5", "3", "2"] {
        assert!(t.iter().any(|x| x == count), "{count}: {t:?}");
    }
    let all = picture("backgammon");
    assert_eq!(all.matches("pips 167").count(), 2, "{all}");
    // Names from a rules file are text, never markup.
    let text = include_str!("../rules/oware.toml").replace(
        "players = [\"South\", \"North\"]",
        "players = [\"<b>South</b>\", \"North & co\"]",
    );
    let game = registry::compile(&text).unwrap();
    let svg = game.svg(&game.new_game(0), 0);
    assert!(svg.contains("&lt;b&gt;South&lt;/b&gt;") && svg.contains("North &amp; co"));
    render(&svg);
}

#[test]
fn pictures_match_the_stored_images() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/pictures");
    let bless = std::env::var_os("LUDUS_BLESS_PICTURES").is_some();
    for name in ["oware", "omweso", "backgammon", "acey-deucey"] {
        let got = render(&picture(name));
        let path = dir.join(format!("{name}.png"));
        if bless {
            got.save_png(&path).unwrap();
            continue;
        }
        let want = tiny_skia::Pixmap::load_png(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            (got.width(), got.height()),
            (want.width(), want.height()),
            "{name}"
        );
        // Anti-aliasing may differ a little between versions; shapes may not.
        let differing = got
            .pixels()
            .iter()
            .zip(want.pixels())
            .filter(|(a, b)| {
                let d = |x: u8, y: u8| x.abs_diff(y) > 48;
                d(a.red(), b.red()) || d(a.green(), b.green()) || d(a.blue(), b.blue())
            })
            .count();
        let share = differing as f64 / got.pixels().len() as f64;
        assert!(
            share < 0.001,
            "{name}: {:.2}% of the pixels differ",
            share * 100.0
        );
    }
}
