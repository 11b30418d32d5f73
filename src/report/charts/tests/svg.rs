//! A tiny SVG reader for the chart tests: elements with their attributes,
//! rectangles, texts and polylines in pixel coordinates, and the geometry
//! the claims need (inside, crosses, a marker's centre).

use std::collections::BTreeMap;

use plotters::style::RGBColor;

/// Every `<tag …>` element's attributes, and its text for `<text>`.
fn elements(svg: &str, tag: &str) -> Vec<(BTreeMap<String, String>, String)> {
    let open = format!("<{tag} ");
    let mut out = Vec::new();
    let mut rest = svg;
    while let Some(i) = rest.find(&open) {
        rest = &rest[i + open.len()..];
        let end = rest.find('>').unwrap();
        let mut attrs = BTreeMap::new();
        let mut a = &rest[..end];
        while let Some(eq) = a.find("=\"") {
            let name = a[..eq].trim().to_string();
            let after = &a[eq + 2..];
            let close = after.find('"').unwrap();
            attrs.insert(name, after[..close].to_string());
            a = &after[close + 1..];
        }
        let body = rest[end + 1..]
            .split('<')
            .next()
            .unwrap_or_default()
            .trim()
            .to_string();
        out.push((attrs, body));
    }
    out
}

fn num(attrs: &BTreeMap<String, String>, key: &str) -> f64 {
    attrs[key].parse().unwrap()
}

/// A rectangle: x, y, width, height.
pub(super) type Rect = (f64, f64, f64, f64);

pub(super) fn rects(svg: &str) -> Vec<(Rect, BTreeMap<String, String>)> {
    elements(svg, "rect")
        .into_iter()
        .map(|(a, _)| {
            (
                (
                    num(&a, "x"),
                    num(&a, "y"),
                    num(&a, "width"),
                    num(&a, "height"),
                ),
                a,
            )
        })
        .collect()
}

pub(super) fn texts(svg: &str) -> Vec<(f64, f64, String)> {
    elements(svg, "text")
        .into_iter()
        .map(|(a, body)| (num(&a, "x"), num(&a, "y"), body))
        .collect()
}

/// Every polyline's points.
pub(super) fn polylines(svg: &str) -> Vec<Vec<(f64, f64)>> {
    elements(svg, "polyline")
        .into_iter()
        .map(|(a, _)| {
            a["points"]
                .split_whitespace()
                .map(|p| {
                    let (x, y) = p.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect()
        })
        .collect()
}

pub(super) fn inside(r: Rect, p: (f64, f64)) -> bool {
    p.0 >= r.0 && p.0 <= r.0 + r.2 && p.1 >= r.1 && p.1 <= r.1 + r.3
}

/// Whether the segment a–b passes through r (sampled every half pixel).
pub(super) fn crosses(r: Rect, a: (f64, f64), b: (f64, f64)) -> bool {
    let steps = ((b.0 - a.0).hypot(b.1 - a.1) * 2.0).ceil().max(1.0) as usize;
    (0..=steps).any(|k| {
        let t = k as f64 / steps as f64;
        inside(r, (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t))
    })
}

/// A marker: a small closed polyline (data markers and legend swatches).
pub(super) fn is_marker(pts: &[(f64, f64)]) -> bool {
    let (xs, ys): (Vec<f64>, Vec<f64>) = pts.iter().cloned().unzip();
    let span = |v: &[f64]| {
        v.iter().cloned().fold(f64::NEG_INFINITY, f64::max)
            - v.iter().cloned().fold(f64::INFINITY, f64::min)
    };
    pts.len() >= 4 && pts.first() == pts.last() && span(&xs) <= 14.0 && span(&ys) <= 14.0
}

pub(super) fn centre(pts: &[(f64, f64)]) -> (f64, f64) {
    let n = (pts.len() - 1) as f64;
    let (sx, sy) = pts[..pts.len() - 1]
        .iter()
        .fold((0.0, 0.0), |a, p| (a.0 + p.0, a.1 + p.1));
    (sx / n, sy / n)
}

pub(super) fn hex(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}
