//! SVG-structure tests of the charts: the SVG a chart writes is read back
//! as shapes with pixel coordinates, and the claims the charts make are
//! checked on those coordinates.

use std::collections::BTreeMap;

use super::legend::FRAME;
use super::style;
use super::*;
use crate::results::Mode;
use crate::results::{FieldRow, Method, MetricRow, Run};
use crate::scenario::ChartKind;

mod svg;
use svg::{Rect, centre, crosses, hex, inside, is_marker, polylines, rects, texts};

// --- Synthetic runs --------------------------------------------------------

/// A run over the swept `paths`, one config per row of `points` (its swept
/// values and its metrics), each with a two-valued `win` field.
/// One config: its swept values and its metrics.
type Point = (Vec<ParamValue>, Vec<(&'static str, f64)>);

fn results(paths: &[&str], points: Vec<Point>) -> Results {
    let configs = points
        .into_iter()
        .enumerate()
        .map(|(index, (swept, metrics))| {
            let p = metrics.first().map_or(0.5, |m| m.1.clamp(0.0, 1.0));
            ConfigResult {
                index,
                swept,
                runs: vec![Run {
                    method: Method::Exact,
                    trials: 0,
                    metrics: metrics
                        .iter()
                        .map(|(name, value)| MetricRow {
                            name: name.to_string(),
                            value: *value,
                            interval: None,
                            se: None,
                        })
                        .collect(),
                    dist: [(0, "false", 1.0 - p), (1, "true", p)]
                        .into_iter()
                        .map(|(value, label, probability)| FieldRow {
                            field: "win".into(),
                            value,
                            label: label.into(),
                            probability,
                            count: None,
                            interval: None,
                        })
                        .collect(),
                }],
                agreement: Vec::new(),
            }
        })
        .collect();
    Results {
        name: "Test".into(),
        description: None,
        mechanic: "test".into(),
        swept: paths.iter().map(|p| p.to_string()).collect(),
        seed: 1,
        trials: 0,
        mode: Mode::Exact,
        precision: None,
        configs,
        exact_seconds: 0.0,
        mc_seconds: 0.0,
    }
}

fn spec(
    kind: ChartKind,
    metric: Option<&str>,
    x: &str,
    series: Option<&str>,
    facet: Option<&str>,
) -> ChartSpec {
    let mut s = ChartSpec::new(kind, "t");
    s.metric = metric.map(String::from);
    s.field = metric.is_none().then(|| "win".to_string());
    s.x = Some(x.into());
    s.series = series.map(String::from);
    s.facet = facet.map(String::from);
    s.percent = kind.draws_field() || metric.is_some_and(|m| m.starts_with("p_"));
    s
}

fn int(i: i64) -> ParamValue {
    ParamValue::Int(i)
}

// --- Heatmaps --------------------------------------------------------------

/// Two facets with very different ranges that share the value 0.3.
fn two_facet_grid(metric: &'static str) -> Results {
    let low = [0.1, 0.2, 0.25, 0.3];
    let high = [0.3, 0.5, 0.7, 0.9];
    let mut points = Vec::new();
    for (f, values) in [(0, low), (1, high)] {
        for (k, v) in values.iter().enumerate() {
            let (x, y) = (k as i64 % 2 + 1, k as i64 / 2 + 1);
            points.push((vec![int(f), int(y), int(x)], vec![(metric, *v)]));
        }
    }
    results(&["f", "y", "x"], points)
}

/// The fill of the cell under each text reading `label`.
fn cell_fills(svg: &str, label: &str) -> Vec<String> {
    let all = rects(svg);
    texts(svg)
        .into_iter()
        .filter(|t| t.2 == label)
        .filter_map(|t| {
            // Cells are the big coloured rectangles (the colour bar's
            // slices and labels are narrow, and beside them).
            all.iter()
                .filter(|(r, a)| inside(*r, (t.0, t.1)) && a["fill"] != "#FFFFFF" && r.2 > 40.0)
                .map(|(_, a)| a["fill"].clone())
                .next_back()
        })
        .collect()
}

#[test]
fn heatmap_facets_share_one_fixed_probability_scale() {
    let r = two_facet_grid("p_win");
    let out = render(
        &r,
        &spec(ChartKind::Heatmap, Some("p_win"), "x", Some("y"), Some("f")),
        &Fixed::default(),
    )
    .unwrap();
    let fills = cell_fills(&out.svg, "30%");
    assert_eq!(fills.len(), 2, "30% appears once in each facet");
    // The top of one facet and the bottom of the other: one colour, and
    // that colour is 0.3 of the way along viridis (a fixed 0..1 scale).
    assert_eq!(fills[0], fills[1]);
    assert_eq!(fills[0], hex(style::scale_colour(0.3)));
    assert_eq!(
        cell_fills(&out.svg, "90%")[0],
        hex(style::scale_colour(0.9))
    );
}

#[test]
fn heatmap_facets_share_one_scale_for_other_metrics_too() {
    let r = two_facet_grid("mean_rounds");
    let out = render(
        &r,
        &spec(
            ChartKind::Heatmap,
            Some("mean_rounds"),
            "x",
            Some("y"),
            Some("f"),
        ),
        &Fixed::default(),
    )
    .unwrap();
    let fills = cell_fills(&out.svg, "0.30");
    assert_eq!(fills.len(), 2, "0.30 appears once in each facet");
    assert_eq!(fills[0], fills[1]);
    // The scale runs from the least (0.1) to the greatest (0.9) of all facets.
    assert_eq!(fills[0], hex(style::scale_colour(0.25)));
    assert_eq!(
        cell_fills(&out.svg, "0.10")[0],
        hex(style::scale_colour(0.0))
    );
}

#[test]
fn heatmap_has_a_labelled_colour_bar_beside_the_cells() {
    let r = two_facet_grid("p_win");
    let out = render(
        &r,
        &spec(ChartKind::Heatmap, Some("p_win"), "x", Some("y"), Some("f")),
        &Fixed::default(),
    )
    .unwrap();
    let all = rects(&out.svg);
    let cells_right = all
        .iter()
        .filter(|(r, a)| a["fill"] != "#FFFFFF" && r.2 > 40.0)
        .map(|(r, _)| r.0 + r.2)
        .fold(0.0, f64::max);
    // The bar: a stack of thin slices at one x, right of every cell, running
    // from viridis's dark end at the bottom to its yellow at the top.
    let mut by_x: BTreeMap<i64, Vec<(Rect, String)>> = BTreeMap::new();
    for (r, a) in &all {
        if a["fill"] != "none" && r.0 > cells_right {
            by_x.entry(r.0 as i64)
                .or_default()
                .push((*r, a["fill"].clone()));
        }
    }
    let (bar_x, bar) = by_x
        .iter()
        .max_by_key(|(_, v)| v.len())
        .expect("a colour bar");
    assert!(
        bar.len() >= 32,
        "the bar is a smooth gradient: {} slices",
        bar.len()
    );
    let lowest = bar.iter().max_by(|a, b| a.0.1.total_cmp(&b.0.1)).unwrap();
    let highest = bar.iter().min_by(|a, b| a.0.1.total_cmp(&b.0.1)).unwrap();
    assert_eq!(lowest.1, hex(style::scale_colour(0.5 / 64.0)));
    assert_eq!(highest.1, hex(style::scale_colour(63.5 / 64.0)));
    // Labelled 0 to 1, and titled with the metric.
    let t = texts(&out.svg);
    for label in ["0%", "20%", "40%", "60%", "80%", "100%"] {
        assert!(
            t.iter().any(|(x, _, s)| s == label && *x > *bar_x as f64),
            "colour bar label {label}"
        );
    }
    assert!(t.iter().any(|(x, _, s)| s == "p_win" && *x > cells_right));
}

// --- Legends -----------------------------------------------------------------

/// The legend's frame.
fn legend_frame(svg: &str) -> Rect {
    let frames: Vec<Rect> = rects(svg)
        .into_iter()
        .filter(|(_, a)| a.get("stroke").map(String::as_str) == Some(hex(FRAME).as_str()))
        .map(|(r, _)| r)
        .collect();
    assert_eq!(frames.len(), 1, "one legend");
    frames[0]
}

/// No data marker, line or bar of `svg` touches the legend frame; the
/// frame holds exactly `entries` swatch markers (when markers are drawn).
fn assert_legend_clear(svg: &str, entries: usize, data_markers: usize) {
    let frame = legend_frame(svg);
    let lines = polylines(svg);
    let markers: Vec<(f64, f64)> = lines
        .iter()
        .filter(|l| is_marker(l))
        .map(|l| centre(l))
        .collect();
    let in_frame = markers.iter().filter(|m| inside(frame, **m)).count();
    assert_eq!(
        in_frame,
        if data_markers > 0 { entries } else { 0 },
        "only the swatches are in the legend"
    );
    assert_eq!(
        markers.len() - in_frame,
        data_markers,
        "every data point has its marker"
    );
    for l in lines.iter().filter(|l| !is_marker(l)) {
        if l.iter().all(|p| inside(frame, *p)) {
            continue; // a swatch's line sample
        }
        for w in l.windows(2) {
            assert!(
                !crosses(frame, w[0], w[1]),
                "a data line crosses the legend: {w:?}"
            );
        }
    }
    for (r, a) in rects(svg) {
        let bar = a["fill"] != "#FFFFFF"
            && a["fill"] != "none"
            && a.get("stroke").map(String::as_str) != Some(hex(FRAME).as_str());
        if bar && !(inside(frame, (r.0, r.1)) && inside(frame, (r.0 + r.2, r.1 + r.3))) {
            let overlap = r.0 < frame.0 + frame.2
                && frame.0 < r.0 + r.2
                && r.1 < frame.1 + frame.3
                && frame.1 < r.1 + r.3;
            assert!(!overlap, "a bar overlaps the legend: {r:?}");
        }
    }
}

/// Four series whose points crowd the top right, where a legend inside the
/// plot would sit.
fn crowded_top_right() -> Results {
    let mut points = Vec::new();
    for s in 0..4 {
        for x in [5, 7, 9] {
            let v = 0.6 + 0.1 * s as f64 * (x - 4) as f64 / 5.0;
            points.push((
                vec![
                    ParamValue::Str(format!("a rather long series label number {s}")),
                    int(x),
                ],
                vec![("p_win", v.min(1.0))],
            ));
        }
    }
    results(&["series", "x"], points)
}

#[test]
fn line_legend_never_covers_a_data_point() {
    let r = crowded_top_right();
    let out = render(
        &r,
        &spec(ChartKind::Line, Some("p_win"), "x", Some("series"), None),
        &Fixed::default(),
    )
    .unwrap();
    assert_legend_clear(&out.svg, 4, 12);
}

#[test]
fn compare_and_distribution_legends_never_cover_data() {
    let r = crowded_top_right();
    let compare = render(
        &r,
        &spec(ChartKind::Compare, Some("p_win"), "x", Some("series"), None),
        &Fixed::default(),
    )
    .unwrap();
    // Left: 4 series × 3 points; right: the 3 other series' differences.
    assert_legend_clear(&compare.svg, 4, 12 + 9);
    let mut at_least = spec(ChartKind::AtLeast, None, "x", Some("series"), None);
    at_least.x = None;
    at_least.filter = vec![("x".into(), int(9))];
    let out = render(&r, &at_least, &Fixed::default()).unwrap();
    assert_legend_clear(&out.svg, 4, 4 * 2);
    let mut histogram = at_least.clone();
    histogram.kind = ChartKind::Histogram;
    let out = render(&r, &histogram, &Fixed::default()).unwrap();
    assert_legend_clear(&out.svg, 4, 0);
}

// --- Ticks -------------------------------------------------------------------

#[test]
fn ticks_are_the_swept_values() {
    let r = crowded_top_right();
    let out = render(
        &r,
        &spec(ChartKind::Line, Some("p_win"), "x", Some("series"), None),
        &Fixed::default(),
    )
    .unwrap();
    let t = texts(&out.svg);
    let five = t.iter().find(|s| s.2 == "5").expect("a tick at 5");
    let row: Vec<&(f64, f64, String)> = t
        .iter()
        .filter(|s| s.1 == five.1 && !s.2.is_empty())
        .collect();
    let labels: Vec<&str> = row.iter().map(|s| s.2.as_str()).collect();
    assert_eq!(
        labels,
        vec!["5", "7", "9"],
        "ticks exactly at the sweep 5, 7, 9"
    );
    // Each label sits under its data points.
    let columns: Vec<f64> = polylines(&out.svg)
        .iter()
        .filter(|l| is_marker(l))
        .map(|l| centre(l).0.round())
        .collect();
    for s in row {
        assert!(
            columns.iter().any(|c| (c - s.0).abs() <= 1.0),
            "no points under {}",
            s.2
        );
    }
}

#[test]
fn the_subtitle_names_the_fixed_params_and_the_defaults_in_words() {
    let r = crowded_top_right();
    let fixed = Fixed {
        set: vec![("opposition.pool".into(), "d8 d6".into())],
        defaults: vec![("opposition.edge".into(), "0".into())],
    };
    let mut s = spec(ChartKind::Line, Some("p_win"), "x", Some("series"), None);
    s.filter = Vec::new();
    let out = render(&r, &s, &fixed).unwrap();
    let t = texts(&out.svg);
    assert!(
        t.iter().any(|t| t.2.contains("opposition.pool = d8 d6")),
        "the [params] are in the subtitle"
    );
    assert!(
        t.iter()
            .any(|t| t.2.contains("at their defaults: opposition: edge = 0")),
        "so are the defaults"
    );
    assert!(
        !t.iter().any(|t| t.2.contains("[params]")),
        "no code-speak in the subtitle"
    );
}

/// A labelled chart: every name it shows is the designer's word.
fn labelled(kind: ChartKind) -> ChartSpec {
    let mut s = spec(kind, Some("p_win"), "x", Some("y"), Some("f"));
    s.labels = crate::scenario::Labels::from_pairs(&[
        ("p_win", "Chance of success"),
        ("x", "Challenge"),
        ("y", "Raises taken"),
        ("f", "Variability"),
    ]);
    s
}

#[test]
fn labels_name_the_axes_legend_facets_and_colour_bar() {
    let r = two_facet_grid("p_win");
    let line = render(&r, &labelled(ChartKind::Line), &Fixed::default()).unwrap();
    let t: Vec<String> = texts(&line.svg).into_iter().map(|t| t.2).collect();
    for want in [
        "Challenge",
        "Chance of success",
        "Raises taken",
        "Variability = 0",
        "Variability = 1",
    ] {
        assert!(t.iter().any(|s| s == want), "{want} in {t:?}");
    }
    // The default title is built from the labels, and no code name is left.
    assert!(t.iter().any(|s| s == "Chance of success by challenge"));
    for code in ["p_win", "f = 0", "x", "y"] {
        assert!(!t.iter().any(|s| s == code), "{code} is code-speak");
    }
    let heat = render(&r, &labelled(ChartKind::Heatmap), &Fixed::default()).unwrap();
    let t: Vec<String> = texts(&heat.svg).into_iter().map(|t| t.2).collect();
    for want in ["Challenge", "Raises taken", "Chance of success"] {
        assert!(t.iter().any(|s| s == want), "heatmap: {want} in {t:?}");
    }
}

#[test]
fn title_subtitle_and_axis_titles_are_the_scenarios_words() {
    let r = two_facet_grid("p_win");
    let mut s = labelled(ChartKind::Line);
    s.title = Some("How raises cost success".into());
    s.subtitle = Some("Three trait dice against a moderate challenge".into());
    s.x_title = Some("Challenge level".into());
    s.y_title = Some("Chance to succeed".into());
    s.filter = vec![("y".into(), int(1))];
    let out = render(&r, &s, &Fixed::default()).unwrap();
    let t: Vec<String> = texts(&out.svg).into_iter().map(|t| t.2).collect();
    for want in [
        "How raises cost success",
        "Three trait dice against a moderate challenge",
        "Challenge level",
        "Chance to succeed",
        "Raises taken = 1",
    ] {
        assert!(t.iter().any(|s| s == want), "{want} in {t:?}");
    }
    // The run's name is not glued in front of the chart's own title.
    assert!(!t.iter().any(|s| s.starts_with("Test:")), "{t:?}");
    assert_eq!(title(&s), "How raises cost success (Raises taken = 1)");
}

#[test]
fn probability_axes_read_as_percentages_unless_turned_off() {
    let r = two_facet_grid("p_win");
    let s = labelled(ChartKind::Line);
    let out = render(&r, &s, &Fixed::default()).unwrap();
    let t: Vec<String> = texts(&out.svg).into_iter().map(|t| t.2).collect();
    for want in ["0%", "50%", "100%"] {
        assert!(t.iter().any(|s| s == want), "{want} in {t:?}");
    }
    let mut plain = s.clone();
    plain.percent = false;
    let out = render(&r, &plain, &Fixed::default()).unwrap();
    let t: Vec<String> = texts(&out.svg).into_iter().map(|t| t.2).collect();
    assert!(!t.iter().any(|s| s.ends_with('%')), "{t:?}");
    assert!(t.iter().any(|s| s == "0.5"), "{t:?}");
}

#[test]
fn lines_take_the_okabe_ito_palette() {
    let r = crowded_top_right();
    let out = render(
        &r,
        &spec(ChartKind::Line, Some("p_win"), "x", Some("series"), None),
        &Fixed::default(),
    )
    .unwrap();
    for c in &style::PALETTE[..4] {
        assert!(
            out.svg.contains(&format!("stroke=\"{}\"", hex(*c))),
            "{} drawn",
            hex(*c)
        );
    }
}
