//! A small SVG writer for pictures of positions: shapes and text placed on a fixed grid, in
//! black, white and greys only, so a picture stays readable printed in greyscale. Each paint
//! also names what it paints (a class), so that a page can colour the picture by a stylesheet
//! (the board in wood, the pieces in ivory and ebony) without drawing it again.

use std::fmt::Write;

/// A fill or stroke: its grey, and the class of what it paints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paint {
    pub grey: &'static str,
    pub class: &'static str,
}

/// The players' pieces (a light and a dark one), the board, its shaded parts (points, the bar,
/// pits out of play), the holes of pits and stores, the stones sown, the paper around the
/// board, and lines and text.
pub const LIGHT: Paint = paint("#ffffff", "light");
pub const DARK: Paint = paint("#202020", "dark");
pub const BOARD: Paint = paint("#e8e8e8", "board");
pub const SHADE: Paint = paint("#b0b0b0", "shade");
pub const HOLE: Paint = paint("#ffffff", "hole");
pub const STONE: Paint = paint("#6a6a6a", "stone");
pub const PAPER: Paint = paint("#ffffff", "paper");
pub const INK: Paint = paint("#000000", "ink");

const fn paint(grey: &'static str, class: &'static str) -> Paint {
    Paint { grey, class }
}

/// An SVG picture being drawn.
pub struct Svg {
    width: f64,
    height: f64,
    body: String,
}

/// How text lines up on its point.
#[derive(Clone, Copy)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

impl Svg {
    pub fn new(width: f64, height: f64) -> Svg {
        let mut svg = Svg {
            width,
            height,
            body: String::new(),
        };
        svg.rect(0.0, 0.0, width, height, PAPER, None);
        svg
    }

    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: Paint, stroke: Option<Paint>) {
        let _ = writeln!(
            self.body,
            r#"<rect class="{}" x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="{}"{}/>"#,
            fill.class,
            fill.grey,
            stroke_attr(stroke)
        );
    }

    /// A rectangle with a dashed outline (a pit out of play).
    pub fn dashed_rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: Paint) {
        let _ = writeln!(
            self.body,
            r#"<rect class="{}" x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="{}" stroke="{}" stroke-width="1.5" stroke-dasharray="4 3"/>"#,
            fill.class, fill.grey, INK.grey
        );
    }

    /// An invisible area the web page makes clickable (a pit, a point, the bar): `data` names
    /// it in `data-*` attributes. Drawn last, so it lies over what it names.
    pub fn spot(&mut self, x: f64, y: f64, w: f64, h: f64, data: &[(&str, String)]) {
        let attrs: String = data
            .iter()
            .map(|(k, v)| format!(r#" data-{k}="{}""#, escape(v)))
            .collect();
        let _ = writeln!(
            self.body,
            r#"<rect class="spot" x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="black" fill-opacity="0"{attrs}/>"#
        );
    }

    pub fn circle(&mut self, cx: f64, cy: f64, r: f64, fill: Paint, stroke: Option<Paint>) {
        let _ = writeln!(
            self.body,
            r#"<circle class="{}" cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="{}"{}/>"#,
            fill.class,
            fill.grey,
            stroke_attr(stroke)
        );
    }

    pub fn ellipse(&mut self, cx: f64, cy: f64, rx: f64, ry: f64, fill: Paint) {
        let _ = writeln!(
            self.body,
            r#"<ellipse class="{}" cx="{cx:.1}" cy="{cy:.1}" rx="{rx:.1}" ry="{ry:.1}" fill="{}" stroke="{}" stroke-width="1.5"/>"#,
            fill.class, fill.grey, INK.grey
        );
    }

    /// Stones in a hole: `count` small stones (at most `most` drawn) packed from the middle of
    /// an ellipse of radii `rx` and `ry` outwards, as seeds lie in a pit.
    pub fn stones(&mut self, (cx, cy): (f64, f64), (rx, ry): (f64, f64), count: u32, most: u32) {
        let n = count.min(most);
        // A sunflower's spiral: even spacing for any count, the same picture for a count.
        const TURN: f64 = 2.399_963;
        let r = (rx.min(ry) / (1.0 + (most as f64).sqrt())).clamp(2.5, 5.0);
        for i in 0..n {
            let d = ((i as f64 + 0.5) / n as f64).sqrt();
            let (spread_x, spread_y) = ((rx - r) * d, (ry - r) * d);
            let a = i as f64 * TURN;
            let (x, y) = (cx + spread_x * a.cos(), cy + spread_y * a.sin());
            let _ = writeln!(
                self.body,
                r#"<circle class="{}" cx="{x:.1}" cy="{y:.1}" r="{r:.1}" fill="{}" stroke="{}" stroke-width="0.6"/>"#,
                STONE.class, STONE.grey, INK.grey
            );
        }
    }

    pub fn polygon(&mut self, points: &[(f64, f64)], fill: Paint) {
        let pts: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        let _ = writeln!(
            self.body,
            r#"<polygon class="{}" points="{}" fill="{}" stroke="{}" stroke-width="0.8"/>"#,
            fill.class,
            pts.join(" "),
            fill.grey,
            INK.grey
        );
    }

    /// Text of `size` pixels; `bold` for counts, plain for labels.
    pub fn text(
        &mut self,
        (x, y): (f64, f64),
        size: f64,
        anchor: Anchor,
        bold: bool,
        fill: Paint,
        text: &str,
    ) {
        let anchor = match anchor {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        };
        let weight = if bold { "bold" } else { "normal" };
        let _ = writeln!(
            self.body,
            r#"<text class="{}" x="{x:.1}" y="{y:.1}" font-family="DejaVu Sans, Arial, sans-serif" font-size="{size:.1}" font-weight="{weight}" text-anchor="{anchor}" dominant-baseline="central" fill="{}">{}</text>"#,
            fill.class,
            fill.grey,
            escape(text)
        );
    }

    /// The finished document.
    pub fn finish(self) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\">\n{}</svg>\n",
            self.body,
            w = self.width,
            h = self.height
        )
    }
}

fn stroke_attr(stroke: Option<Paint>) -> String {
    stroke.map_or(String::new(), |s| {
        format!(r#" stroke="{}" stroke-width="1.5""#, s.grey)
    })
}

/// Text as XML character data: rules files name the players, so names are escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}
