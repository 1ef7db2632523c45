//! Chapter 4, "Tables and biases": its URL keys (prefix `t.`) and the view they parse into.
//!
//! Learned tables, Shaw's clipped distances, T5's buckets, ALiBi and NoPE each have their own
//! keys; the learned table and NoPE's random values share one seed.

use super::decl::float_row;
use super::listed::{declared, view_struct};
use crate::math::alibi;

/// The chapter's key prefix.
pub const PREFIX: &str = "t.";

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

/// DroPE's head_dim: even (RoPE turns pairs), 2 … 256 (Llama 2's 128 is the default).
pub const DROPE_DIM: (usize, usize) = (2, 256);

/// DroPE's trained length L₀: GPT-2's 1024 up to 64k (Llama 2: 4096, the default).
pub const DROPE_TRAINED: (usize, usize) = (1024, 65_536);

/// DroPE's target as a multiple of L₀, `T = s·L₀` (also YaRN's factor `s`); at most 2²⁰
/// positions with the largest L₀.
pub const DROPE_FACTOR: (usize, usize) = (2, 16);

/// DroPE's distractor keys `N`, at distances `1 … N`: never more than the smallest L₀.
pub const DROPE_DISTRACTORS: (usize, usize) = (1, 512);

crate::names::named! {
    /// Which of Transformer-XL's terms its matrix shows: their sum, or one of (a)–(d). Named in
    /// the URL (`t.xterm`), listed in the order the figure lists them: the score and the four
    /// terms first.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub enum TxlTerm {
        /// `(a) + (b) + (c) + (d)`: the score.
        #[default]
        Score = "score",
        /// (a) content.
        Content = "a",
        /// (b) content-dependent position.
        ContentPosition = "b",
        /// (c) global content bias.
        GlobalContent = "c",
        /// (d) global position bias.
        GlobalPosition = "d",
        /// (b) + (d) as the authors' code computes them, one column per distance, before the shift.
        Rows = "rows",
        /// Those rows after `_rel_shift`, above the diagonal included.
        Shifted = "shift",
    }
}

crate::params::listed::fields! { $
    /// Chapter 4's parameters, each one row ([`super::listed`]): [`TablesView`], its [`TABLE`]
    /// and the app's signals are written from this list.
    tables_fields
    listed {
        /// Learned table rows `max_len`.
        max_len: usize = 512 => int!("t.L", "t.L (max_len)", MAX_LEN),
        /// Sequence length shown against the learned table.
        seq_len: usize = 640 => int!("t.n", "t.n (sequence length)", SEQUENCE),
        /// Learned table width.
        dim: usize = 64 => int!("t.d", "t.d (width)", WIDTH),
        /// Seed of the learned table and of NoPE's values.
        seed: u64 = 1 => seed!("t.seed"),
        /// Shaw's `k`.
        shaw_k: usize = 4 => int!("t.k", "t.k (Shaw's k)", SHAW_K),
        /// Positions of Shaw's matrix.
        shaw_len: usize = 16 => int!("t.sn", "t.sn (positions)", SHAW_POSITIONS),
        /// Positions of T5's matrix.
        t5_len: usize = 256 => int!("t.tn", "t.tn (positions)", T5_POSITIONS),
        /// T5 `num_buckets`.
        buckets: usize = 32 => int!("t.nb", "t.nb (num_buckets)", T5_BUCKETS),
        /// T5 `max_distance`.
        max_distance: usize = 128 => int_within!("t.md", "t.md (max_distance)", |v| {
            let exact = exact_buckets(v.buckets, v.bidirectional);
            (T5_MAX_DISTANCE.0.max(exact + 1), T5_MAX_DISTANCE.1)
        }),
        /// T5 bidirectional (encoder) or causal (decoder).
        bidirectional: bool = true => flag!("t.bi"),
        /// ALiBi heads.
        heads: usize = 8 => int!("t.h", "t.h (heads)", HEADS),
        /// ALiBi sequence length.
        alibi_len: usize = 64 => int!("t.an", "t.an (sequence length)", ALIBI_LEN),
        /// ALiBi causal mask.
        causal: bool = true => flag!("t.causal"),
        /// The chosen ALiBi head, from 1.
        head: usize = 1 => int_within!("t.head", "t.head (head)", |v| (1, v.heads)),
        /// The chosen head's slope, when the reader overrides it.
        slope: Option<f64> = None => [
            // Without an override the head keeps its default slope; a bad one reads as 0.5.
            float_row(
                "t.m",
                "t.m (slope)",
                SLOPE,
                |v: &TablesView| v.slope.unwrap_or(0.5),
                |v, x| v.slope = Some(x),
            )
            .omit_when(|v| v.slope.is_none()),
        ],
        /// NoPE sequence length.
        nope_len: usize = 256 => int!("t.nn", "t.nn (sequence length)", NOPE_LEN),
        /// NoPE value width.
        nope_dim: usize = 64 => int!("t.nd", "t.nd (width)", NOPE_DIM),
        /// The position every method is compared at.
        pos: usize = 37 => int!("t.p", "t.p (position)", POSITION),
        /// Transformer-XL's sentence (1 to 16 tokens after
        /// [`crate::math::attention::tokenize`]).
        txl_sentence: String = crate::math::attention::EXAMPLE.to_string() => sentence!("t.xs"),
        /// Seed of Transformer-XL's `W_{k,R}`, `u` and `v`.
        txl_seed: u64 = 0 => seed!("t.xseed"),
        /// Which of Transformer-XL's terms the matrix shows.
        txl_term: crate::params::tables::TxlTerm = TxlTerm::Score => named!("t.xterm", TxlTerm),
        /// DroPE's head_dim.
        drope_dim: usize = 128 => even!("t.dd", "t.dd (head_dim)", DROPE_DIM),
        /// DroPE's RoPE base.
        drope_base: f64 = 10_000.0 => float!("t.db", "t.db (base)", crate::math::limits::BASE),
        /// DroPE's trained length L₀.
        drope_trained: usize = 4096 => int!("t.dL", "t.dL (trained length L₀)", DROPE_TRAINED),
        /// DroPE's target over L₀ (`T = s·L₀`, YaRN's factor).
        drope_factor: usize = 8 => int!("t.ds", "t.ds (T / L₀)", DROPE_FACTOR),
        /// DroPE's distractor keys.
        drope_distractors: usize = 16 => int!("t.dn", "t.dn (distractors)", DROPE_DISTRACTORS),
        /// Seed of DroPE's query and distractors.
        drope_seed: u64 = 0 => seed!("t.dseed"),
    }
    own {}
}
#[cfg_attr(not(target_arch = "wasm32"), allow(unused_imports))] // read by the app's state
pub(crate) use tables_fields;

tables_fields!(view_struct {
    /// The chapter's controls.
    #[derive(Clone, Debug, PartialEq)]
    TablesView
});

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

impl TablesView {
    /// The chosen ALiBi head, from 1, within the head count (as the page reads it).
    pub fn chosen_head(&self) -> usize {
        head_in_range(self.head, self.heads)
    }

    /// DroPE's target `T = s·L₀`.
    pub fn drope_target(&self) -> usize {
        self.drope_trained * self.drope_factor
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
}

tables_fields!(rows declared {
    TABLE TablesView,
    // max_distance stays above the exact buckets when num_buckets or the direction moves.
    |v| v.max_distance = distance_in_range(v.max_distance, v.buckets, v.bidirectional);
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Declared;
    use crate::params::parse_query as q;

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
            txl_sentence: "Dog bites man.".into(),
            txl_seed: u64::MAX,
            txl_term: TxlTerm::GlobalPosition,
            drope_dim: 256,
            drope_base: 500_000.0,
            drope_trained: 65_536,
            drope_factor: 16,
            drope_distractors: 512,
            drope_seed: u64::MAX,
        };
        crate::params::decl::check_round_trip(&TABLE, &view);
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
