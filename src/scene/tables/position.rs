//! fig-tab-nope (a causal mask leaks position), fig-tab-same (one position in every method) and
//! fig-tab-extrapolate (past the training length).

use super::super::{Height, Panel};
use super::{SIGMA, indexed, lines, sinusoidal};
use crate::chart::lines::{Corner, Extras, LinePlotSpec, Series, series_color};
use crate::chart::theme::Theme;
use crate::math::relative::t5_bucket;
use crate::math::{learned, nope, rope};
use crate::params::{Views, format_significant};

// ------------------------------------------------------------------ fig-tab-nope

/// The plot's height.
pub fn nope_height(width: f64) -> f64 {
    (width * 0.45).clamp(240.0, 340.0)
}

/// Whether the simulated values of `n` positions are drawn as dots (else as a line).
pub fn nope_dots(n: usize) -> bool {
    n <= 64
}

/// The weight `1/(i + 1)` and the simulated output variance `variance` (one per query, width
/// `d`) against the tokens visible, on log–log axes; query `at` marked.
pub fn nope_spec(
    variance: &[f64],
    d: usize,
    at: Option<usize>,
    theme: Theme,
) -> (LinePlotSpec, Extras) {
    let n = variance.len();
    let x = |i: usize| ((i + 1) as f64).log10();
    let simulated: Vec<(f64, f64)> = variance
        .iter()
        .enumerate()
        .filter(|(_, y)| **y > 0.0)
        .map(|(i, y)| (x(i), y.log10()))
        .collect();
    let lo = simulated
        .iter()
        .map(|p| p.1)
        .fold(-(n as f64).log10(), f64::min);
    // The top from the data too: a first mean square above 10^0.15 would sit on the frame.
    let hi = simulated.iter().map(|p| p.1 + 0.05).fold(0.15, f64::max);
    let spec = LinePlotSpec {
        title: "What a causal query sees without positions".into(),
        x_desc: "tokens visible to query i (i + 1)",
        y_desc: "value",
        x_range: 0.0..x(n.saturating_sub(1)).max(0.3),
        y_range: (lo - 0.15)..hi,
        series: vec![
            Series {
                label: "weight of each key, 1/(i + 1)".into(),
                color: series_color(0),
                points: (0..n).map(|i| (x(i), -x(i))).collect(),
                dots: false,
                line: true,
            },
            Series {
                label: format!("output variance, simulated (d = {d})"),
                color: series_color(1),
                points: simulated,
                dots: nope_dots(n),
                line: !nope_dots(n),
            },
        ],
        marker: at.map(|i| (x(i), format!("query {i}"))),
        theme,
    };
    let extras = Extras {
        x_log: true,
        y_log: true,
        legend: Corner::TopRight,
        ..Extras::default()
    };
    (spec, extras)
}

/// fig-tab-nope: the weight and the simulated variance over the sequence.
pub fn nope(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let t = &v.tables;
    let mut variance = Vec::new();
    nope::output_variance_into(t.seed, t.nope_len, t.nope_dim, &mut variance);
    let spec = nope_spec(&variance, t.nope_dim, None, theme);
    vec![lines(spec, Height::Rule(nope_height))]
}

// ------------------------------------------------------------------ fig-tab-same

/// Each panel's height.
pub fn same_height(width: f64) -> f64 {
    (width * 0.5).clamp(170.0, 240.0)
}

/// The panels.
pub const SAME_PANELS: usize = 4;

/// What each method contributes for one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Contributions {
    /// `PE(p)`, one value per column.
    pub sinusoidal: Vec<f64>,
    /// The learned row, if the table has one.
    pub learned: Option<Vec<f64>>,
    /// RoPE's angle of each pair, degrees mod 360.
    pub angles: Vec<f64>,
    /// ALiBi's bias of query `p` for keys `0 … p` (causal), the chosen head.
    pub bias: Vec<f64>,
    /// Whether that head's slope is the reader's, not the default one.
    pub own_slope: bool,
}

/// What position `p` gets at width `d` (RoPE: head_dim `d` rounded down to even, base 10000)
/// from a learned table of `max_len` rows drawn from `seed`, and from an ALiBi head of slope
/// `slope` (`own_slope`: the reader's).
pub fn contributions(
    p: usize,
    d: usize,
    (max_len, seed): (usize, u64),
    (slope, own_slope): (f64, bool),
) -> Contributions {
    let table = sinusoidal(p + 1, d);
    let sinusoidal = (0..d).map(|c| table.value(p, c)).collect();
    let learned = (p < max_len).then(|| {
        let mut row = Vec::new();
        learned::row_into(seed, SIGMA, p, d, &mut row);
        row
    });
    let head_dim = (d / 2 * 2).max(2);
    let angles = rope::inv_freq(head_dim, 10_000.0)
        .iter()
        .map(|t| (p as f64 * t).to_degrees().rem_euclid(360.0))
        .collect();
    let bias = (0..=p).map(|j| 0.0 - slope * (p - j) as f64).collect();
    Contributions {
        sinusoidal,
        learned,
        angles,
        bias,
        own_slope,
    }
}

/// Panel `k`'s title, axes and values for position `p` and ALiBi head `head` (from 1).
pub fn same_panel(
    k: usize,
    c: &Contributions,
    p: usize,
    head: usize,
) -> (String, &'static str, &'static str, &[f64]) {
    match k {
        0 => (
            format!("Sinusoidal: PE({p}), added to x"),
            "column j",
            "value",
            &c.sinusoidal,
        ),
        1 => (
            match c.learned {
                Some(_) => format!("Learned: row {p}, added to x"),
                None => format!("Learned: no row {p} (past max_len)"),
            },
            "column j",
            "value",
            c.learned.as_deref().unwrap_or(&[]),
        ),
        2 => (
            format!("RoPE: angle {p}·θᵢ of each pair, turns q and k"),
            "pair i",
            "degrees (mod 360)",
            &c.angles,
        ),
        _ => (
            format!(
                "ALiBi: biases on query {p}'s keys (head {head}{})",
                if c.own_slope { ", your slope" } else { "" }
            ),
            "key j (0 … p, as a decoder sees them)",
            "bias",
            &c.bias,
        ),
    }
}

/// Panel `k` as a plot, value `at` marked. (A position past max_len leaves the learned panel
/// with no points.)
pub fn same_spec(
    k: usize,
    c: &Contributions,
    (p, head): (usize, usize),
    at: Option<usize>,
    theme: Theme,
) -> LinePlotSpec {
    let (title, x_desc, y_desc, values) = same_panel(k, c, p, head);
    let n = values.len();
    let (lo, hi) = match k {
        0 => (-1.1, 1.1),
        1 => (-4.0 * SIGMA, 4.0 * SIGMA),
        2 => (0.0, 360.0),
        _ => {
            let low = values.first().copied().unwrap_or(0.0).min(-1e-3);
            (low * 1.08, -low * 0.08)
        }
    };
    LinePlotSpec {
        title,
        x_desc,
        y_desc,
        x_range: 0.0..(n.max(2) - 1) as f64,
        y_range: lo..hi,
        series: vec![Series {
            label: String::new(),
            color: series_color(k),
            points: indexed(values),
            dots: n <= 64 || k == 2,
            line: k != 2,
        }],
        marker: at.map(|i| (i as f64, i.to_string())),
        theme,
    }
}

/// fig-tab-same: the four panels in page order (sinusoidal, learned; RoPE, ALiBi).
pub fn same(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let t = &v.tables;
    let head = t.chosen_head();
    let m = t.slopes().get(head - 1).copied().unwrap_or(0.0);
    let c = contributions(t.pos, t.dim, (t.max_len, t.seed), (m, t.slope.is_some()));
    (0..SAME_PANELS)
        .map(|k| {
            let spec = same_spec(k, &c, (t.pos, head), None, theme);
            lines((spec, Extras::default()), Height::Rule(same_height))
        })
        .collect()
}

// ------------------------------------------------------------------ fig-tab-extrapolate

/// Each panel's height.
pub fn extrapolate_height(width: f64) -> f64 {
    (width * 0.22).clamp(150.0, 190.0)
}

/// The panels, top to bottom.
pub const EXTRAPOLATE_PANELS: usize = 5;

/// How many positions a panel plots at most (the rest are sampled evenly).
pub const EXTRAPOLATE_POINTS: usize = 800;

/// Panel titles and y descriptions.
pub const EXTRAPOLATE_TITLES: [(&str, &str); EXTRAPOLATE_PANELS] = [
    (
        "Learned: column 0 of row p (no row from max_len on)",
        "value",
    ),
    ("Sinusoidal: the slowest pair's sine, sin(p·ω)", "sin"),
    ("RoPE: the slowest pair's angle p·θ", "degrees"),
    (
        "ALiBi: the bias of a key p positions back (the head with the smallest slope)",
        "bias",
    ),
    ("T5: the bucket of a key p positions back", "bucket"),
];

/// What each method gives position `p`: one number per panel (`None`: nothing there).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Inputs {
    /// The learned table's rows (the training length).
    pub max_len: usize,
    /// The width.
    pub dim: usize,
    /// The learned table's seed.
    pub seed: u64,
    /// The smallest ALiBi slope of the heads.
    pub slope: f64,
    /// RoPE's slowest frequency for head_dim `dim` rounded down to even, base 10000.
    pub rope_theta: f64,
    /// The sinusoid's slowest frequency for width `dim` (odd widths have ⌈d/2⌉ pairs).
    pub sin_omega: f64,
    /// T5's `num_buckets`, `max_distance`, bidirectional.
    pub buckets: (usize, usize, bool),
}

impl Inputs {
    /// The inputs for a learned table of `max_len` rows of width `dim` from `seed`, the ALiBi
    /// `slopes` and T5's `buckets`.
    pub fn new(
        (max_len, dim, seed): (usize, usize, u64),
        slopes: &[f64],
        buckets: (usize, usize, bool),
    ) -> Inputs {
        let head_dim = (dim / 2 * 2).max(2);
        let table = sinusoidal(1, dim);
        Inputs {
            max_len,
            dim,
            seed,
            slope: slopes.iter().copied().fold(f64::INFINITY, f64::min),
            rope_theta: rope::inv_freq(head_dim, 10_000.0)
                .last()
                .copied()
                .unwrap_or(1.0),
            sin_omega: table.pair_omega(table.pairs().saturating_sub(1)),
            buckets,
        }
    }

    /// RoPE's slowest pair's frequency.
    pub fn slowest(self) -> f64 {
        self.rope_theta
    }

    /// T5's settings.
    pub fn t5(self) -> crate::explain::tables::T5 {
        let (num_buckets, max_distance, bidirectional) = self.buckets;
        crate::explain::tables::T5 {
            num_buckets,
            max_distance,
            bidirectional,
        }
    }

    /// The first distance whose T5 bucket is the last one (every farther key shares it, however
    /// far).
    pub fn t5_flat_from(self) -> u64 {
        self.t5().flat_from()
    }

    /// Panel `panel`'s number for position `p` (`row`: a buffer for the learned row).
    pub fn at(self, panel: usize, p: usize, row: &mut Vec<f64>) -> Option<f64> {
        let (nb, md, bi) = self.buckets;
        match panel {
            // Column 0 is the first draw of the row's own stream: drawing one value gives it
            // (the other d − 1 are not needed).
            0 => (p < self.max_len).then(|| {
                learned::row_into(self.seed, SIGMA, p, 1, row);
                row.first().copied().unwrap_or(0.0)
            }),
            1 => Some((p as f64 * self.sin_omega).sin()),
            2 => Some((p as f64 * self.slowest()).to_degrees()),
            3 => Some(-self.slope * p as f64),
            _ => Some(t5_bucket(-(p as i64), bi, nb, md) as f64),
        }
    }
}

/// Panel `k` over positions `0..n` (at most [`EXTRAPOLATE_POINTS`] of them, evenly), position
/// `at` marked, else max_len.
pub fn extrapolate_spec(
    k: usize,
    n: usize,
    x: Inputs,
    at: Option<usize>,
    theme: Theme,
) -> LinePlotSpec {
    let (title, y_desc) = EXTRAPOLATE_TITLES[k.min(EXTRAPOLATE_PANELS - 1)];
    let step = n.div_ceil(EXTRAPOLATE_POINTS).max(1);
    let mut row = Vec::new();
    let points: Vec<(f64, f64)> = (0..n)
        .step_by(step)
        .filter_map(|p| x.at(k, p, &mut row).map(|v| (p as f64, v)))
        .collect();
    let (lo, hi) = points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), q| {
            (a.min(q.1), b.max(q.1))
        });
    let (lo, hi) = if lo.is_finite() {
        (lo, hi)
    } else {
        (-1.0, 1.0)
    };
    let pad = ((hi - lo) * 0.08).max(1e-6);
    let last = n.saturating_sub(1).max(1) as f64;
    let mut series = vec![Series {
        label: String::new(),
        color: series_color(k),
        points,
        dots: false,
        line: true,
    }];
    if k == 2 {
        // The largest angle the slowest pair reached in training.
        let seen = (x.max_len.saturating_sub(1) as f64 * x.slowest()).to_degrees();
        series.push(Series {
            label: format!("seen in training: up to {}°", format_significant(seen, 4)),
            color: series_color(6),
            points: vec![(0.0, seen), (last, seen)],
            dots: false,
            line: true,
        });
    }
    LinePlotSpec {
        title: title.to_string(),
        x_desc: "position p",
        y_desc,
        x_range: 0.0..last,
        y_range: (lo - pad)..(hi + pad),
        series,
        marker: Some(match at {
            Some(p) => (p as f64, format!("p = {p}")),
            None => (x.max_len as f64, format!("max_len = {}", x.max_len)),
        }),
        theme,
    }
}

/// fig-tab-extrapolate: one panel per method over the sequence, max_len marked.
pub fn extrapolate(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let t = &v.tables;
    let buckets = (t.buckets, t.t5_max_distance(), t.bidirectional);
    let x = Inputs::new((t.max_len, t.dim, t.seed), &t.slopes(), buckets);
    (0..EXTRAPOLATE_PANELS)
        .map(|k| {
            let spec = extrapolate_spec(k, t.seq_len, x, None, theme);
            lines((spec, Extras::default()), Height::Rule(extrapolate_height))
        })
        .collect()
}
