//! What the chapters' scene tests share: the views of a link, and the checks every panel kind
//! passes whatever the state (finite numbers, ranges that are not empty, shapes that fit).
#![cfg(test)]

use super::{Height, MatrixPanel, Panel};
use crate::chart::lines::LinePlotSpec;
use crate::chart::theme::Theme;
use crate::params::{Views, parse_query};

pub use super::Build;

/// The views a link's query describes.
pub fn views(query: &str) -> Views {
    Views::from_query(&parse_query(query)).0
}

/// Whether every number is finite.
pub fn finite(xs: impl IntoIterator<Item = f64>) -> bool {
    xs.into_iter().all(f64::is_finite)
}

/// A title and a positive, finite height at a phone's, a laptop's and a wide screen's width.
pub fn check_frame(id: &str, (panel, height): &(Panel, Height)) {
    assert!(!panel.title().is_empty(), "{id}: empty title");
    for w in [320.0, 700.0, 1200.0] {
        assert!(
            height.at(w).is_finite() && height.at(w) > 0.0,
            "{id}: height"
        );
    }
}

/// Curves of finite points (a curve may be empty only if `may_be_empty`), over ranges that are
/// finite and not empty, and a finite marker.
pub fn check_lines(id: &str, spec: &LinePlotSpec, may_be_empty: bool) {
    assert!(!spec.series.is_empty(), "{id}");
    for s in &spec.series {
        assert!(!s.points.is_empty() || may_be_empty, "{id}: {}", s.label);
        assert!(finite(s.points.iter().flat_map(|p| [p.0, p.1])), "{id}");
    }
    let (x, y) = (&spec.x_range, &spec.y_range);
    assert!(finite([x.start, x.end, y.start, y.end]), "{id}");
    assert!(x.start < x.end && y.start < y.end, "{id}: ranges");
    if let Some((at, label)) = &spec.marker {
        assert!(at.is_finite() && !label.is_empty(), "{id}: marker");
    }
}

/// A matrix whose values fill its shape (or its diagonals), outlines inside it, and a finite,
/// increasing colour bar.
pub fn check_matrix(id: &str, m: &MatrixPanel) {
    let (r, c) = (m.spec.rows.len(), m.spec.cols.len());
    let len = if m.toeplitz {
        2 * m.stride - 1
    } else {
        r * m.stride
    };
    assert_eq!(m.values.len(), len, "{id}");
    assert_eq!(m.stride, c, "{id}");
    assert!(m.outlines.iter().all(|&o| o < r), "{id}");
    assert!(finite([m.spec.colorbar.lo, m.spec.colorbar.hi]), "{id}");
    assert!(m.spec.colorbar.lo < m.spec.colorbar.hi, "{id}: colour bar");
}

/// Runs every builder on `v`: each draws `count` panels, and `check` passes on each.
pub fn check_builders(
    builders: &[(&str, Build, usize)],
    v: &Views,
    check: &dyn Fn(&str, &(Panel, Height)),
) {
    for (id, build, count) in builders {
        let panels = build(v, Theme::DARK);
        assert_eq!(panels.len(), *count, "{id}");
        for p in &panels {
            check_frame(id, p);
            check(id, p);
        }
    }
}

/// The titles of every panel the builders draw on the default views.
pub fn default_titles(builders: &[(&str, Build, usize)]) -> Vec<String> {
    let v = Views::default();
    builders
        .iter()
        .flat_map(|(_, b, _)| b(&v, Theme::LIGHT))
        .map(|(p, _)| p.title().to_string())
        .collect()
}
