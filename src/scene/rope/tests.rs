//! The builders on the default views, a few other links, and the ends of every range.

use super::super::checks::{
    Build, check_builders, check_lines, check_matrix, default_titles, finite, views,
};
use super::super::{Height, Panel, Picture, picture};
use super::*;
use crate::chart::theme::Theme;
use crate::params::Views;

/// Every builder with its id and how many panels it draws.
const BUILDERS: [(&str, Build, usize); 10] = [
    ("fig-rope-add", add, 1),
    ("fig-rope-2d", vector, 1),
    ("fig-rope-sentences", sentences, 2),
    ("fig-rope-wheels", wheels, 2),
    ("fig-rope-efficient", efficient, 1),
    ("fig-rope-scores", scores, 2),
    ("fig-rope-dims", dims, 1),
    ("fig-rope-layouts", layouts, 1),
    ("fig-rope-values", values, 1),
    ("fig-rope-cloud", cloud, 1),
];

/// Every number a panel shows is finite (chapter 2 has no value-less cell).
fn check_panel(id: &str, (panel, _): &(Panel, Height)) {
    match panel {
        Panel::Lines(spec, _) => check_lines(id, spec, false),
        Panel::Matrix(m) => {
            check_matrix(id, m);
            assert!(finite(m.values.iter().copied()), "{id}");
        }
        Panel::Clocks(spec) => {
            assert!(!spec.clocks.is_empty(), "{id}");
            assert!(finite(spec.clocks.iter().map(|c| c.angle)), "{id}");
        }
        Panel::Plane(spec) => {
            assert!(finite(spec.arrows.iter().flat_map(|a| a.tip)), "{id}");
            assert!(finite(spec.trail.iter().flatten().copied()), "{id}");
            assert!(finite([spec.extent]), "{id}");
        }
        Panel::Pairs(spec) => assert!(spec.rotary_dim <= spec.dim, "{id}"),
        Panel::Cloud(c) => {
            assert_eq!(c.shown, c.points.len(), "{id}: every point shown");
            assert!(finite(c.points.iter().flatten().copied()), "{id}");
            assert!(finite([c.yaw, c.pitch]), "{id}");
        }
        Panel::Tiles(_) | Panel::Ids(_) => panic!("{id}: no tiles or ids in chapter 2"),
    }
}

fn check_all(v: &Views) {
    check_builders(&BUILDERS, v, &check_panel);
}

#[test]
fn default_views_draw_every_figure() {
    check_all(&Views::default());
    let titles = default_titles(&BUILDERS);
    assert!(titles.contains(&"q rotated to m · k rotated to n".to_string()));
    assert!(titles.contains(&"Position m = 10: pair i has turned by m·θ_i".to_string()));
    assert!(titles.contains(&"R_m at m = 10 (interleaved layout)".to_string()));
    assert!(titles.contains(&"v turned by m·θ = 90.0° at m = 3".to_string()));
}

#[test]
fn other_links_draw_every_figure() {
    for q in [
        "r.d=6&r.n=5&r.layout=half",
        "r.d=64&r.rot=16&r.pos=40&r.qk=random&r.seed=7&r.base=500000",
        "r.x=-1.5,0.25&r.theta=90&r.vpos=64&r.stheta=7.5&r.w1=mouse&r.w2=cheese",
        "r.s1=a%20b&r.s2=c%20d%20e&r.w1=b&r.w2=e",
        "r.pair=1,0&r.shift=200&r.voff=0&r.cloud=none&r.cn=256&r.yaw=-90&r.pitch=45.5",
        "r.cloud=sin&r.cn=4&s=dog",
        "s=the%20the%20the&r.pair=15,15",
    ] {
        check_all(&views(q));
    }
}

#[test]
fn half_layout_and_partial_rotation_reach_the_matrix() {
    let v = views("r.d=8&r.rot=4&r.layout=half&r.pos=1");
    let panels = wheels(&v, Theme::LIGHT);
    let [(Panel::Clocks(clocks), rule), (Panel::Matrix(m), _)] = &panels[..] else {
        panic!("wheels then matrix");
    };
    assert_eq!(clocks.clocks.len(), 2);
    assert_eq!(rule.at(700.0), wheels_height(700.0, 2));
    // Coordinates 4 … 7 do not turn: the identity there.
    for c in 4..8 {
        assert_eq!(m.values[c * 8 + c], 1.0);
    }
    // Pair 0 is (0, 2) under half-split.
    assert_eq!(m.values[2], -(1f64).sin());
}

#[test]
fn score_matrix_is_the_toeplitz_of_its_diagonals() {
    let v = views("r.n=6&r.qk=random&r.pos=4");
    let panels = scores(&v, Theme::LIGHT);
    let Panel::Matrix(m) = &panels[0].0 else {
        panic!("matrix first");
    };
    assert_eq!(m.outlines, vec![4]);
    for a in 0..6 {
        for b in 0..6 {
            let (x, y) = (m.value(a, b), m.value((a + 1) % 6, (b + 1) % 6));
            if a < 5 && b < 5 {
                assert!((x - y).abs() < 1e-9, "({a}, {b})");
            }
        }
    }
}

#[test]
fn pictures_of_chapter_two_have_csv() {
    // Only when the lead has registered the builders; until then the ids are browser-only.
    for (id, _, _) in BUILDERS {
        if let Ok(p) = picture(id, &Views::default(), Theme::LIGHT) {
            assert!(p.csv().lines().count() > 2, "{id}");
        }
    }
}

#[test]
fn every_figure_writes_csv() {
    for q in [
        "",
        "r.d=6&r.n=5&r.layout=half&r.cloud=none",
        "r.d=256&r.rot=2&r.qk=random",
    ] {
        let v = views(q);
        for (id, build, count) in BUILDERS {
            let picture = Picture {
                id,
                title: id,
                query: q.to_string(),
                panels: build(&v, Theme::LIGHT),
            };
            let csv = picture.csv();
            assert_eq!(csv.matches("\n# panel ").count(), count, "{id} at {q}");
            assert!(!csv.contains("NaN") && !csv.contains("inf"), "{id} at {q}");
        }
    }
}

#[test]
fn extreme_views_never_panic() {
    let ends = [
        "r.d=2",
        "r.d=256",
        "r.d=2&r.rot=2&r.n=2&r.pos=1",
        "r.d=256&r.rot=2&r.layout=half",
        "r.base=1.0001",
        "r.base=1e12&r.d=256&r.pos=4095&r.n=4096",
        "r.n=2&r.pos=0&r.qk=random&r.seed=18446744073709551615",
        "r.x=-2,-2&r.theta=180&r.vpos=64",
        "r.x=0,0&r.theta=0&r.vpos=0",
        "r.stheta=0&r.s1=a%20a&r.s2=a%20a&r.w1=a&r.w2=a",
        "r.stheta=180",
        "r.shift=200&r.voff=200&r.pair=99,99",
        "r.cn=4&r.yaw=-180&r.pitch=-90&r.cloud=none",
        "r.cn=256&r.yaw=180&r.pitch=90&r.cloud=sin",
        "r.d=7&r.base=x&r.layout=x&r.n=1&r.pos=-1&r.rot=999&r.cn=0&r.pitch=NaN",
        "s=a&r.pair=0,0&r.cloud=none&r.cn=256",
        "s=a%20b%20c%20d%20e%20f%20g%20h%20i%20j%20k%20l%20m%20n%20o%20p&r.pair=15,0",
    ];
    for q in ends {
        check_all(&views(q));
    }
}

#[test]
fn the_wheels_keep_their_height_within_a_bucket_and_every_wheel_fits() {
    use crate::chart::clock::grid;
    // head_dim 128 ↔ 130 (64 ↔ 65 pairs) at any width: the same height, so the page below the
    // figure does not move while the slider is dragged.
    for width in [360.0, 700.0, 1000.0, 1280.0] {
        assert_eq!(wheels_height(width, 64), wheels_height(width, 65));
        let mut changes = 0;
        for pairs in 1..=128 {
            let h = wheels_height(width, pairs);
            if pairs > 1 && h != wheels_height(width, pairs - 1) {
                changes += 1;
            }
            // Every wheel gets a cell at least 60 px (or the whole width) across.
            let (cols, rows) = grid(pairs, width, h - 34.0);
            let cell = (width / cols as f64).min((h - 34.0) / rows as f64);
            assert!(
                cell >= 60.0_f64.min(width),
                "{width} px, {pairs} pairs: {cell}"
            );
        }
        // Heights change at the bucket edges only (3, 6, 12, 24, 48, 96).
        assert!(changes <= 6, "{width}: {changes}");
    }
}
