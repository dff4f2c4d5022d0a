//! A small SVG writer for pictures of positions: shapes and text placed on a fixed grid, in
//! black, white and greys only, so a picture stays readable printed in greyscale.

use std::fmt::Write;

/// Fills and strokes: the players' colours (a light and a dark piece) and the board's.
pub const LIGHT: &str = "#ffffff";
pub const DARK: &str = "#202020";
pub const BOARD: &str = "#e8e8e8";
pub const SHADE: &str = "#b0b0b0";
pub const INK: &str = "#000000";

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
        svg.rect(0.0, 0.0, width, height, LIGHT, None);
        svg
    }

    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str, stroke: Option<&str>) {
        let _ = write!(
            self.body,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="{fill}"{}/>"#,
            stroke_attr(stroke)
        );
        self.body.push('\n');
    }

    /// A rectangle with a dashed outline (a pit out of play).
    pub fn dashed_rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str) {
        let _ = writeln!(
            self.body,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="{fill}" stroke="{INK}" stroke-width="1.5" stroke-dasharray="4 3"/>"#
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

    pub fn circle(&mut self, cx: f64, cy: f64, r: f64, fill: &str, stroke: Option<&str>) {
        let _ = writeln!(
            self.body,
            r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="{fill}"{}/>"#,
            stroke_attr(stroke)
        );
    }

    pub fn ellipse(&mut self, cx: f64, cy: f64, rx: f64, ry: f64, fill: &str) {
        let _ = writeln!(
            self.body,
            r#"<ellipse cx="{cx:.1}" cy="{cy:.1}" rx="{rx:.1}" ry="{ry:.1}" fill="{fill}" stroke="{INK}" stroke-width="1.5"/>"#
        );
    }

    pub fn polygon(&mut self, points: &[(f64, f64)], fill: &str) {
        let pts: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        let _ = writeln!(
            self.body,
            r#"<polygon points="{}" fill="{fill}" stroke="{INK}" stroke-width="0.8"/>"#,
            pts.join(" ")
        );
    }

    /// Text of `size` pixels; `bold` for counts, plain for labels.
    pub fn text(
        &mut self,
        (x, y): (f64, f64),
        size: f64,
        anchor: Anchor,
        bold: bool,
        fill: &str,
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
            r#"<text x="{x:.1}" y="{y:.1}" font-family="DejaVu Sans, Arial, sans-serif" font-size="{size:.1}" font-weight="{weight}" text-anchor="{anchor}" dominant-baseline="central" fill="{fill}">{}</text>"#,
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

fn stroke_attr(stroke: Option<&str>) -> String {
    stroke.map_or(String::new(), |s| {
        format!(r#" stroke="{s}" stroke-width="1.5""#)
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
