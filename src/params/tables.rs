//! Chapter 4, "Tables and biases": its URL keys (prefix `t.`) and the view they parse into.
//!
//! Learned tables, Shaw's clipped distances, T5's buckets, ALiBi and NoPE each have their own
//! keys; the learned table and NoPE's random values share one seed.

use super::{Notice, format_number, parse_f64, parse_usize, quote};
use crate::math::alibi;

/// The chapter's key prefix.
pub const PREFIX: &str = "t.";

/// Every key the chapter reads, prefix included.
pub const KEYS: [&str; 18] = [
    "t.L", "t.n", "t.d", "t.seed", "t.k", "t.sn", "t.tn", "t.nb", "t.md", "t.bi", "t.h", "t.an",
    "t.causal", "t.head", "t.m", "t.nn", "t.nd", "t.p",
];

/// A learned table's rows (`max_len`): BERT has 512, GPT-2 1024.
pub const MAX_LEN: (usize, usize) = (8, 2048);

/// Sequence length of the learned-table figure: it goes past any `max_len`.
pub const SEQUENCE: (usize, usize) = (8, 4096);

/// Width of the learned table (BERT-base and GPT-2 small: 768).
pub const WIDTH: (usize, usize) = (2, 1024);

/// Shaw's clipping distance `k`.
pub const SHAW_K: (usize, usize) = (1, 64);

/// Positions of Shaw's clipped-distance matrix.
pub const SHAW_POSITIONS: (usize, usize) = (2, 128);

/// Positions of T5's bucket matrix.
pub const T5_POSITIONS: (usize, usize) = (2, 1024);

/// T5's `num_buckets` (32 in T5): after the bidirectional halving, at least one exact bucket.
pub const T5_BUCKETS: (usize, usize) = (4, 128);

/// T5's `max_distance` (128 in T5): more than the exact buckets (checked against `t.nb`).
pub const T5_MAX_DISTANCE: (usize, usize) = (2, 4096);

/// ALiBi heads in the page (the CLI takes more).
pub const HEADS: (usize, usize) = (1, 64);

/// ALiBi sequence length in the page.
pub const ALIBI_LEN: (usize, usize) = (2, 512);

/// An overridden ALiBi slope: 2⁻¹⁶ … 4.
pub const SLOPE: (f64, f64) = (1.0 / 65536.0, 4.0);

/// NoPE's sequence length.
pub const NOPE_LEN: (usize, usize) = (2, 2048);

/// NoPE's value width.
pub const NOPE_DIM: (usize, usize) = (1, 1024);

/// The position every method is compared at (past any max_len the page allows).
pub const POSITION: (usize, usize) = (0, 4095);

/// The chapter's controls.
#[derive(Clone, Debug, PartialEq)]
pub struct TablesView {
    /// Learned table rows `max_len`.
    pub max_len: usize,
    /// Sequence length shown against the learned table.
    pub seq_len: usize,
    /// Learned table width.
    pub dim: usize,
    /// Seed of the learned table and of NoPE's values.
    pub seed: u64,
    /// Shaw's `k`.
    pub shaw_k: usize,
    /// Positions of Shaw's matrix.
    pub shaw_len: usize,
    /// Positions of T5's matrix.
    pub t5_len: usize,
    /// T5 `num_buckets`.
    pub buckets: usize,
    /// T5 `max_distance`.
    pub max_distance: usize,
    /// T5 bidirectional (encoder) or causal (decoder).
    pub bidirectional: bool,
    /// ALiBi heads.
    pub heads: usize,
    /// ALiBi sequence length.
    pub alibi_len: usize,
    /// ALiBi causal mask.
    pub causal: bool,
    /// The chosen ALiBi head, from 1.
    pub head: usize,
    /// The chosen head's slope, when the reader overrides it.
    pub slope: Option<f64>,
    /// NoPE sequence length.
    pub nope_len: usize,
    /// NoPE value width.
    pub nope_dim: usize,
    /// The position every method is compared at.
    pub pos: usize,
}

impl Default for TablesView {
    fn default() -> Self {
        TablesView {
            max_len: 512,
            seq_len: 640,
            dim: 64,
            seed: 1,
            shaw_k: 4,
            shaw_len: 16,
            t5_len: 256,
            buckets: 32,
            max_distance: 128,
            bidirectional: true,
            heads: 8,
            alibi_len: 64,
            causal: true,
            head: 1,
            slope: None,
            nope_len: 256,
            nope_dim: 64,
            pos: 37,
        }
    }
}

/// The exact buckets of T5's scheme: `num_buckets / 4` bidirectional (half of the half), else
/// `num_buckets / 2`. `max_distance` must exceed them.
pub fn exact_buckets(buckets: usize, bidirectional: bool) -> usize {
    if bidirectional {
        buckets / 4
    } else {
        buckets / 2
    }
}

/// The chosen ALiBi head, from 1, within `heads` (a head count that drops below it takes the
/// last head).
pub fn head_in_range(head: usize, heads: usize) -> usize {
    head.clamp(1, heads.max(1))
}

/// T5's `max_distance`, raised above the exact buckets when `num_buckets` grows past it.
pub fn distance_in_range(max_distance: usize, buckets: usize, bidirectional: bool) -> usize {
    max_distance.max(exact_buckets(buckets, bidirectional) + 1)
}

/// The slopes in use: the default ones (`defaults`, the authors' code's), with head `head`'s
/// (from 1) replaced by `slope` when the reader overrides it.
pub fn with_slope(mut defaults: Vec<f64>, head: usize, slope: Option<f64>) -> Vec<f64> {
    if let (Some(m), Some(slot)) = (slope, head.checked_sub(1).and_then(|h| defaults.get_mut(h))) {
        *slot = m;
    }
    defaults
}

/// `on` / `off` spelled as the URL does.
fn parse_flag(key: &str, v: &str, default: bool) -> (bool, Option<Notice>) {
    match v.trim() {
        "1" | "true" | "on" | "yes" => (true, None),
        "0" | "false" | "off" | "no" => (false, None),
        _ => (
            default,
            Some(Notice(format!(
                "{key} = “{}” is not 1 or 0; using {}.",
                quote(v),
                u8::from(default)
            ))),
        ),
    }
}

impl TablesView {
    /// Reads the view from query pairs; keys without the `t.` prefix belong to other chapters
    /// and are ignored. Bad values fall back or clamp, with a notice.
    pub fn from_query(pairs: &[(String, String)]) -> (TablesView, Vec<Notice>) {
        let mut view = TablesView::default();
        let mut notices = Vec::new();
        let (mut head_text, mut slope_text, mut distance_text) = (None, None, None);
        for (k, v) in pairs {
            let Some(key) = k.strip_prefix(PREFIX) else {
                continue;
            };
            let int = |label: &str, range, slot: &mut usize| {
                let (x, n) = parse_usize(label, v, range, *slot);
                *slot = x;
                n
            };
            let notice = match key {
                "L" => int("t.L (max_len)", MAX_LEN, &mut view.max_len),
                "n" => int("t.n (sequence length)", SEQUENCE, &mut view.seq_len),
                "d" => int("t.d (width)", WIDTH, &mut view.dim),
                "seed" => match v.trim().parse::<u64>() {
                    Ok(s) => {
                        view.seed = s;
                        None
                    }
                    Err(_) => Some(Notice(format!(
                        "t.seed = “{}” is not a whole number from 0 to {}; using 1.",
                        quote(v),
                        u64::MAX
                    ))),
                },
                "k" => int("t.k (Shaw's k)", SHAW_K, &mut view.shaw_k),
                "sn" => int("t.sn (positions)", SHAW_POSITIONS, &mut view.shaw_len),
                "tn" => int("t.tn (positions)", T5_POSITIONS, &mut view.t5_len),
                "nb" => int("t.nb (num_buckets)", T5_BUCKETS, &mut view.buckets),
                "md" => {
                    distance_text = Some(v.clone());
                    None
                }
                "bi" => {
                    let (b, n) = parse_flag("t.bi", v, true);
                    view.bidirectional = b;
                    n
                }
                "h" => int("t.h (heads)", HEADS, &mut view.heads),
                "an" => int("t.an (sequence length)", ALIBI_LEN, &mut view.alibi_len),
                "causal" => {
                    let (b, n) = parse_flag("t.causal", v, true);
                    view.causal = b;
                    n
                }
                "head" => {
                    head_text = Some(v.clone());
                    None
                }
                "m" => {
                    slope_text = Some(v.clone());
                    None
                }
                "nn" => int("t.nn (sequence length)", NOPE_LEN, &mut view.nope_len),
                "nd" => int("t.nd (width)", NOPE_DIM, &mut view.nope_dim),
                "p" => int("t.p (position)", POSITION, &mut view.pos),
                _ => None,
            };
            notices.extend(notice);
        }
        // Keys whose range depends on another key are read once the others are known.
        let exact = exact_buckets(view.buckets, view.bidirectional);
        let distance_range = (T5_MAX_DISTANCE.0.max(exact + 1), T5_MAX_DISTANCE.1);
        view.max_distance = view.max_distance.max(distance_range.0);
        if let Some(text) = distance_text {
            let (x, n) = parse_usize(
                "t.md (max_distance)",
                &text,
                distance_range,
                view.max_distance,
            );
            view.max_distance = x;
            notices.extend(n);
        }
        if let Some(text) = head_text {
            let (x, n) = parse_usize("t.head (head)", &text, (1, view.heads), 1);
            view.head = x;
            notices.extend(n);
        }
        if let Some(text) = slope_text {
            let (x, n) = parse_f64("t.m (slope)", &text, SLOPE, 0.5);
            view.slope = Some(x);
            notices.extend(n);
        }
        (view, notices)
    }

    /// The chosen ALiBi head, from 1, within the head count (as the page reads it).
    pub fn chosen_head(&self) -> usize {
        head_in_range(self.head, self.heads)
    }

    /// T5's `max_distance` above the exact buckets (as the page reads it).
    pub fn t5_max_distance(&self) -> usize {
        distance_in_range(self.max_distance, self.buckets, self.bidirectional)
    }

    /// The default ALiBi slopes for the head count: the authors' code's (`get_slopes`, as
    /// BLOOM's). For a power of two they are the paper's; otherwise the paper's §3 general rule
    /// would give other numbers.
    pub fn default_slopes(&self) -> Vec<f64> {
        alibi::slopes(self.heads)
    }

    /// The ALiBi slopes in use: the default ones, with the chosen head's replaced when
    /// overridden.
    pub fn slopes(&self) -> Vec<f64> {
        with_slope(self.default_slopes(), self.chosen_head(), self.slope)
    }

    /// The query pairs for this view, omitting defaults.
    pub fn to_query(&self) -> Vec<(&'static str, String)> {
        let d = TablesView::default();
        let mut out = Vec::new();
        let mut int = |key: &'static str, v: usize, default: usize| {
            if v != default {
                out.push((key, v.to_string()));
            }
        };
        int("t.L", self.max_len, d.max_len);
        int("t.n", self.seq_len, d.seq_len);
        int("t.d", self.dim, d.dim);
        int("t.k", self.shaw_k, d.shaw_k);
        int("t.sn", self.shaw_len, d.shaw_len);
        int("t.tn", self.t5_len, d.t5_len);
        int("t.nb", self.buckets, d.buckets);
        int("t.md", self.max_distance, d.max_distance);
        int("t.h", self.heads, d.heads);
        int("t.an", self.alibi_len, d.alibi_len);
        int("t.head", self.head, d.head);
        int("t.nn", self.nope_len, d.nope_len);
        int("t.nd", self.nope_dim, d.nope_dim);
        int("t.p", self.pos, d.pos);
        if self.seed != d.seed {
            out.push(("t.seed", self.seed.to_string()));
        }
        if self.bidirectional != d.bidirectional {
            out.push(("t.bi", u8::from(self.bidirectional).to_string()));
        }
        if self.causal != d.causal {
            out.push(("t.causal", u8::from(self.causal).to_string()));
        }
        if let Some(m) = self.slope {
            out.push(("t.m", format_number(m)));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{build_query, parse_query};

    fn q(s: &str) -> Vec<(String, String)> {
        parse_query(s)
    }

    #[test]
    fn empty_query_gives_defaults_and_writes_nothing() {
        let (view, notices) = TablesView::from_query(&q(""));
        assert_eq!(view, TablesView::default());
        assert!(notices.is_empty());
        assert!(view.to_query().is_empty());
    }

    #[test]
    fn other_chapters_keys_do_not_reach_this_chapter() {
        let (view, notices) = TablesView::from_query(&q("d=8&n=7&r.d=4&c.L=99&seed=3"));
        assert_eq!(view, TablesView::default());
        assert!(notices.is_empty());
    }

    #[test]
    fn every_written_key_is_a_declared_key_and_reads_back() {
        let view = TablesView {
            max_len: 1024,
            seq_len: 4096,
            dim: 768,
            seed: u64::MAX,
            shaw_k: 64,
            shaw_len: 128,
            t5_len: 1024,
            buckets: 128,
            max_distance: 4096,
            bidirectional: false,
            heads: 64,
            alibi_len: 512,
            causal: false,
            head: 64,
            slope: Some(0.125),
            nope_len: 2048,
            nope_dim: 1,
            pos: 4095,
        };
        let pairs = view.to_query();
        assert_eq!(pairs.len(), KEYS.len());
        for (k, _) in &pairs {
            assert!(KEYS.contains(k), "{k}");
        }
        let (back, notices) = TablesView::from_query(&parse_query(&build_query(&pairs)));
        assert_eq!(back, view);
        assert!(notices.is_empty(), "{notices:?}");
    }

    #[test]
    fn bad_values_clamp_or_fall_back_with_notices() {
        let (view, notices) = TablesView::from_query(&q(
            "t.L=1&t.n=1e9&t.d=0&t.seed=-1&t.k=0&t.nb=2&t.md=3&t.bi=maybe&t.h=0&t.head=9&t.m=99",
        ));
        assert_eq!(view.max_len, MAX_LEN.0);
        assert_eq!(view.seq_len, SEQUENCE.1);
        assert_eq!(view.dim, WIDTH.0);
        assert_eq!(view.seed, 1);
        assert_eq!(view.shaw_k, 1);
        assert_eq!(view.buckets, T5_BUCKETS.0);
        assert_eq!(view.heads, 1);
        assert_eq!(view.head, 1);
        assert_eq!(view.slope, Some(SLOPE.1));
        assert!(view.bidirectional);
        assert!(view.max_distance > exact_buckets(view.buckets, view.bidirectional));
        assert!(notices.len() >= 10, "{notices:?}");
    }

    #[test]
    fn max_distance_always_exceeds_the_exact_buckets() {
        for nb in T5_BUCKETS.0..=T5_BUCKETS.1 {
            for bi in [true, false] {
                let query = format!("t.nb={nb}&t.bi={}&t.md=2", u8::from(bi));
                let (view, _) = TablesView::from_query(&q(&query));
                assert!(view.max_distance > exact_buckets(nb, bi), "{query}");
            }
        }
    }
}
