//! The builders on the default views, a few other links, and the ends of every range.

use super::super::checks::{
    Build, check_builders, check_lines, check_matrix, default_titles, views,
};
use super::super::{Height, Panel, Picture};
use super::*;
use crate::chart::theme::Theme;
use crate::params::Views;
use crate::params::tables::{self as keys, TablesView};

/// Every builder with its id and how many panels it draws (fig-tab-compare is a text table).
const BUILDERS: [(&str, Build, usize); 10] = [
    ("fig-tab-learned", learned, 2),
    ("fig-tab-learned-sim", learned_sim, 2),
    ("fig-tab-shaw", shaw, 1),
    ("fig-tab-t5", t5, 2),
    ("fig-tab-slopes", slopes, 1),
    ("fig-tab-alibi", alibi, 2),
    ("fig-tab-alibi-attention", alibi_attention, 1),
    ("fig-tab-nope", nope, 1),
    ("fig-tab-same", same, 4),
    ("fig-tab-extrapolate", extrapolate, 5),
];

/// Every number a panel shows is finite (a matrix may hold NaN only where the page hatches:
/// past a learned table's end, or a key the causal mask hides), and its heights are.
fn check_panel(id: &str, (panel, _): &(Panel, Height), t: &TablesView) {
    match panel {
        Panel::Lines(spec, _) => {
            // Only the learned panel of fig-tab-same is empty: no row past max_len.
            let learned_past_end = id == "fig-tab-same" && t.pos >= t.max_len;
            check_lines(id, spec, learned_past_end);
        }
        Panel::Matrix(m) => {
            check_matrix(id, m);
            for (k, v) in m.values.iter().enumerate() {
                let (i, j) = (k / m.stride.max(1), k % m.stride.max(1));
                let hatched = match id {
                    "fig-tab-learned" => m.spec.title.starts_with("Learned") && i >= t.max_len,
                    "fig-tab-alibi" => t.causal && j > i,
                    _ => false,
                };
                assert_eq!(v.is_nan(), hatched, "{id}: ({i}, {j}) = {v}");
                assert!(!v.is_infinite(), "{id}");
            }
        }
        Panel::Tiles(tiles) => {
            let side = tiles.side();
            assert!(side > 0 && side <= TILE_SAMPLES, "{id}: side {side}");
            assert_eq!(tiles.labels.len(), t.heads, "{id}");
            assert_eq!(tiles.values.len(), t.heads * side * side, "{id}");
            assert!(tiles.indices.iter().all(|&i| i < t.alibi_len), "{id}");
            for (k, v) in tiles.values.iter().enumerate() {
                let (y, x) = ((k / side) % side, k % side);
                let hatched = t.causal && tiles.indices[x] > tiles.indices[y];
                assert_eq!(v.is_nan(), hatched, "{id}: tile value {k}");
            }
        }
        _ => panic!("{id}: chapter 4 draws lines, matrices and tiles"),
    }
}

fn check_all(v: &Views) {
    check_builders(&BUILDERS, v, &|id, p| check_panel(id, p, &v.tables));
}

#[test]
fn default_views_draw_every_figure() {
    check_all(&Views::default());
    let titles = default_titles(&BUILDERS);
    for title in [
        "Learned table (seeded, untrained)",
        "Sinusoidal rows",
        "Clipped relative position clip(j − i, −k, k)",
        "Bucket against the relative position j − i",
        "Bias of head 1, m = 2^−1.000 = 0.5000",
        "Attention of query 63 over the keys (equal content scores)",
        "ALiBi: biases on query 37's keys (head 1)",
        "T5: the bucket of a key p positions back",
    ] {
        assert!(titles.iter().any(|t| t == title), "{title}: {titles:?}");
    }
}

#[test]
fn other_links_draw_every_figure() {
    for q in [
        "t.h=4&t.head=3&t.m=0.03&t.causal=0&t.an=17",
        "t.L=8&t.n=20&t.d=3&t.seed=7&t.p=12",
        "t.h=12&t.head=12&t.an=300&t.nn=5&t.nd=1",
        "t.k=1&t.sn=2&t.tn=3&t.nb=5&t.bi=0&t.md=3",
        "t.L=2048&t.n=100&t.d=1&t.p=0&t.seed=18446744073709551615",
    ] {
        check_all(&views(q));
    }
}

#[test]
fn builders_read_the_view_as_the_page_does() {
    let v = views("t.h=6&t.head=5&t.m=0.25&t.an=9&t.causal=0");
    let [(Panel::Matrix(m), _), (Panel::Tiles(tiles), _)] = &alibi(&v, Theme::LIGHT)[..] else {
        panic!("matrix then tiles");
    };
    assert_eq!(
        m.spec.title,
        format!("Bias of head 5, m = {}", slope_text(0.25))
    );
    assert_eq!(m.value(2, 6), -1.0);
    assert_eq!(tiles.indices, (0..9).collect::<Vec<_>>());
    assert_eq!(tiles.values[(4 * 9 + 2) * 9 + 6], -1.0);
    assert_eq!(tiles.labels[0], "h1 · 0.250");
    // Past max_len the learned table has no row, and the same-position panel says so.
    let v = views("t.L=8&t.p=8");
    let panels = same(&v, Theme::LIGHT);
    assert_eq!(panels[1].0.title(), "Learned: no row 8 (past max_len)");
    // A long ALiBi sequence is sampled in the tiles, never past the matrix.
    let v = views("t.an=512&t.h=64");
    let panels = alibi(&v, Theme::LIGHT);
    let Panel::Tiles(tiles) = &panels[1].0 else {
        panic!("tiles second");
    };
    assert_eq!(tiles.side(), TILE_SAMPLES);
    assert_eq!(tiles.labels.len(), 64);
}

/// The query setting every key of the chapter to `pick` of its range.
fn extreme(pick: impl Fn((usize, usize)) -> usize, flag: &str, slope: f64) -> String {
    let ranges = [
        ("t.L", keys::MAX_LEN),
        ("t.n", keys::SEQUENCE),
        ("t.d", keys::WIDTH),
        ("t.k", keys::SHAW_K),
        ("t.sn", keys::SHAW_POSITIONS),
        ("t.tn", keys::T5_POSITIONS),
        ("t.nb", keys::T5_BUCKETS),
        ("t.md", keys::T5_MAX_DISTANCE),
        ("t.h", keys::HEADS),
        ("t.an", keys::ALIBI_LEN),
        ("t.nn", keys::NOPE_LEN),
        ("t.nd", keys::NOPE_DIM),
        ("t.p", keys::POSITION),
    ];
    let mut q: Vec<String> = ranges
        .iter()
        .map(|(k, r)| format!("{k}={}", pick(*r)))
        .collect();
    q.push(format!(
        "t.bi={flag}&t.causal={flag}&t.m={slope}&t.head=999&t.seed=0"
    ));
    q.join("&")
}

#[test]
fn the_ends_of_every_range_never_panic() {
    let small = |r: (usize, usize)| r.0;
    let large = |r: (usize, usize)| r.1;
    let queries = [
        extreme(small, "0", keys::SLOPE.0),
        extreme(small, "1", keys::SLOPE.1),
        extreme(large, "0", keys::SLOPE.1),
        extreme(large, "1", keys::SLOPE.0),
        "t.L=0&t.n=-1&t.d=huge&t.h=0&t.head=0&t.m=nan&t.md=0&t.nb=1000".to_string(),
    ];
    for q in &queries {
        check_all(&views(q));
    }
}

/// Every figure at `query` as a picture, with how many panels it should have.
fn pictures(query: &str) -> Vec<(Picture, usize)> {
    let v = views(query);
    BUILDERS
        .iter()
        .map(|&(id, build, count)| {
            let panels = build(&v, Theme::LIGHT);
            let query = query.to_string();
            let picture = Picture {
                id,
                title: id,
                query,
                panels,
            };
            (picture, count)
        })
        .collect()
}

#[test]
fn every_figure_writes_csv_and_svg() {
    for q in ["", "t.h=5&t.causal=0&t.an=200&t.L=8&t.n=300&t.d=4"] {
        for (picture, count) in pictures(q) {
            let id = picture.id;
            let csv = picture.csv();
            assert_eq!(csv.matches("# panel ").count(), count, "{id} at {q}");
            assert!(!csv.contains("inf"), "{id} at {q}");
            let svg = super::super::svg::render(&picture, 640, None).expect(id);
            assert_eq!(svg.matches("<svg x=").count(), count, "{id} at {q}");
        }
    }
}
