//! Links: any query gives a valid state, and every declared key writes what it reads.

use super::*;
use pe_explorer::params::Declared;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever the URL holds, reading it never panics and every value lands inside its range.
    #[test]
    fn any_url_query_gives_valid_state(query in "[a-z=&%0-9.,+-]{0,80}", key in prop::sample::select(vec!["n", "d", "base", "pos", "layout", "spacing", "dims", "rows", "cols", "k", "at", "s", "pe", "npos", "eps", "theme"]), value in "\\PC{0,24}") {
        let mut pairs = params::parse_query(&query);
        pairs.push((key.to_string(), value));
        let (view, _) = SinusoidalView::from_query(&pairs);
        let p = view.params;
        prop_assert!((limits::POSITIONS.0..=limits::POSITIONS.1).contains(&p.positions));
        prop_assert!((limits::DIM.0..=limits::DIM.1).contains(&p.dim));
        prop_assert!(p.base.is_finite() && (limits::BASE.0..=limits::BASE.1).contains(&p.base));
        prop_assert!(view.pos < p.positions);
        prop_assert!(!view.dims.is_empty() && view.dims.iter().all(|&k| k < p.dim));
        prop_assert!(view.shift <= params::MAX_SHIFT);
        let (order, _) = OrderView::from_query(&pairs);
        prop_assert!(params::check_sentence(&order.sentence).is_ok());
        let (naive_view, _) = NaiveView::from_query(&pairs);
        prop_assert!(naive_view.eps.is_finite() && naive_view.eps > 0.0);
        let _ = params::ThemeChoice::from_query(&pairs);
    }

    /// Whatever a link holds for any chapter's declared keys, the link the page writes back for
    /// the views read from it reads back as the same views, with no notice: every declaration
    /// writes what it reads.
    #[test]
    fn every_declared_key_writes_what_it_reads(
        picks in prop::collection::vec(
            (
                prop::sample::select(params::state_keys().collect::<Vec<_>>()),
                prop_oneof![
                    (0u32..5000).prop_map(|x| x.to_string()),
                    (-10.0f64..1e6).prop_map(|x| x.to_string()),
                    (0.0f64..4.0).prop_map(|x| x.to_string()),
                    prop::sample::select(vec![
                        "half", "random", "sin", "none", "yarn", "llama3", "true", "false", "0",
                        "1", "on", "off", "3,4", "0.5,-1", "0-9", "7-2", "1,2,3", "linear,ntk",
                        "llama2-7b", "a b c",
                    ])
                    .prop_map(str::to_string),
                    "[a-z0-9.,+ -]{0,12}",
                ],
            ),
            0..12,
        ),
    ) {
        let pairs: Vec<(String, String)> =
            picks.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        let (views, _) = params::Views::from_query(&pairs);
        let mut written = views.sinusoidal.to_query();
        written.extend(views.order.to_query());
        written.extend(views.naive.to_query());
        written.extend(views.rope.to_query());
        written.extend(views.context.to_query());
        written.extend(views.tables.to_query());
        written.extend(views.models.to_query());
        written.extend(views.vision.to_query());
        let link = params::build_query(&written);
        let (back, notices) = params::Views::from_query(&params::parse_query(&link));
        prop_assert!(notices.is_empty(), "{link}: {notices:?}");
        prop_assert_eq!(back, views, "{}", link);
    }

    /// Whatever the URL holds for chapter 6, reading it never panics, every value lands inside
    /// its range, and the patch-grid figure draws finite scores on a scale that holds them.
    #[test]
    fn any_vision_query_gives_valid_state(
        query in "[a-z.=&%0-9,+-]{0,80}",
        key in prop::sample::select(params::vision::TABLE.keys().collect::<Vec<_>>()),
        value in "\\PC{0,24}",
    ) {
        use pe_explorer::params::vision::{GRID, VISION_HEAD_DIM, VisionView};
        let mut pairs = params::parse_query(&query);
        pairs.push((key.to_string(), value));
        let (v, _) = VisionView::from_query(&pairs);
        prop_assert!((GRID.0..=GRID.1).contains(&v.rows) && (GRID.0..=GRID.1).contains(&v.cols));
        prop_assert!(v.row < v.rows && v.col < v.cols);
        prop_assert!((VISION_HEAD_DIM.0..=VISION_HEAD_DIM.1).contains(&v.head_dim));
        prop_assert_eq!(v.head_dim % 4, 0);
        let s = pe_explorer::scene::vision::scores(&v);
        prop_assert_eq!(s.axial.len(), v.rows * v.cols);
        prop_assert!(s.axial.iter().chain(&s.flat).all(|x| x.is_finite() && x.abs() <= s.bound));
    }

    /// Whatever the URL holds for chapter 2, reading it never panics, every value lands inside
    /// its range, and the view the figures compute from is one they can draw.
    #[test]
    fn any_rope_query_gives_valid_state(
        query in "[a-z.=&%0-9,+-]{0,80}",
        key in prop::sample::select(params::rope::TABLE.keys().collect::<Vec<_>>()),
        value in "\\PC{0,24}",
    ) {
        use pe_explorer::params::rope::{self as rp, RopeView};
        let mut pairs = params::parse_query(&query);
        pairs.push((key.to_string(), value));
        let (v, _) = RopeView::from_query(&pairs);
        prop_assert!(v.dim % 2 == 0 && (rp::HEAD_DIM.0..=rp::HEAD_DIM.1).contains(&v.dim));
        prop_assert!(v.base.is_finite() && (limits::BASE.0..=limits::BASE.1).contains(&v.base));
        prop_assert!((rp::POSITIONS.0..=rp::POSITIONS.1).contains(&v.positions));
        prop_assert!(v.pos < v.positions);
        prop_assert!(v.rotary_dim % 2 == 0 && v.rotary_dim >= 2 && v.rotary_dim <= v.dim);
        prop_assert!(v.vector.iter().all(|x| x.is_finite() && (rp::VECTOR_COORD.0..=rp::VECTOR_COORD.1).contains(x)));
        prop_assert!((rp::THETA_DEG.0..=rp::THETA_DEG.1).contains(&v.theta_deg));
        prop_assert!((rp::THETA_DEG.0..=rp::THETA_DEG.1).contains(&v.sentence_theta_deg));
        prop_assert!(v.vector_pos <= rp::VECTOR_POS.1);
        prop_assert!(v.sentences.iter().all(|s| rp::check_sentence(s).is_ok()));
        prop_assert!(v.words.iter().all(|w| rp::check_word(w).is_ok()));
        prop_assert!(v.pair.iter().all(|&k| k < limits::TOKENS.1));
        prop_assert!(v.shift <= rp::SHIFT.1 && v.value_offset <= rp::SHIFT.1);
        prop_assert!((rp::CLOUD_POSITIONS.0..=rp::CLOUD_POSITIONS.1).contains(&v.cloud_positions));
        prop_assert!((rp::YAW.0..=rp::YAW.1).contains(&v.view[0]) && (rp::PITCH.0..=rp::PITCH.1).contains(&v.view[1]));
        // What the score figure computes from it is finite.
        let q = vec![1.0; v.dim];
        let g = pe_explorer::math::rope_scores::score_by_distance(pe_explorer::math::rope_scores::QueryKey { q: &q, k: &q, base: v.base, rotary_dim: v.rotary_dim, layout: v.layout }, v.positions.min(64));
        prop_assert!(g.iter().all(|x| x.is_finite()));
    }
}
