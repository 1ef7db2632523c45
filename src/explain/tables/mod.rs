//! Chapter 4, "Tables and biases" (with the comparison table, timeline and quiz): the sentences that depend on the settings.
//!
//! Each sentence whose truth depends on a setting is a typed claim decided here from the math's
//! outputs ([`t5_bucket`], [`alibi::slopes`], [`shaw_clip`], the simulated similarities and
//! variances); its `Display` is the exact text the page shows. The Leptos components only render
//! `claim.to_string()`. `tests/claims_tables.rs` re-derives every claim by brute force.

use std::fmt;

use super::count;
use crate::math::alibi;
use crate::math::relative::t5_bucket;
use crate::params::{format_number, format_significant, round_significant};

/// The farthest distance the searches probe: `|i64::MAX|`, the largest `j − i` there is.
pub const FAR: u64 = i64::MAX as u64;

/// `x` with `digits` significant digits and no trailing zeros: 2.000 → "2", 1.41421 → "1.414".
fn short(x: f64, digits: i32) -> String {
    format_number(round_significant(x, digits))
}

/// "distance 7" or "distances 3 … 7".
fn distances(first: u64, last: u64) -> String {
    if first == last {
        format!("distance {first}")
    } else {
        format!("distances {first} … {last}")
    }
}

/// Sorted numbers as runs: `[1, 2, 3, 7]` → "1 … 3, 7".
pub fn runs_text(sorted: &[usize]) -> String {
    let mut parts = Vec::new();
    let mut k = 0;
    while k < sorted.len() {
        let mut end = k;
        while end + 1 < sorted.len() && sorted[end + 1] == sorted[end] + 1 {
            end += 1;
        }
        parts.push(match end - k {
            0 => sorted[k].to_string(),
            1 => format!("{}, {}", sorted[k], sorted[end]),
            _ => format!("{} … {}", sorted[k], sorted[end]),
        });
        k = end + 1;
    }
    parts.join(", ")
}

// ------------------------------------------------------------------ T5 (fig-tab-t5)

/// T5's bucket settings, as the page reads them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct T5 {
    /// `num_buckets`.
    pub num_buckets: usize,
    /// `max_distance`.
    pub max_distance: usize,
    /// Bidirectional (encoder) or causal (decoder).
    pub bidirectional: bool,
}

/// Which keys a distance is measured to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Bidirectional, a key at or before the query (`j − i ≤ 0`).
    Before,
    /// Bidirectional, a key after the query (`j − i > 0`).
    After,
    /// Causal: a key at or before the query.
    Causal,
}

impl T5 {
    /// The bucket of `j − i = relative` ([`t5_bucket`]).
    pub fn bucket(self, relative: i64) -> usize {
        t5_bucket(
            relative,
            self.bidirectional,
            self.num_buckets,
            self.max_distance,
        )
    }

    /// The bucket of a key `distance` positions before the query (`distance ≤ FAR`).
    pub fn before(self, distance: u64) -> usize {
        self.bucket(-(distance.min(FAR) as i64))
    }

    /// The buckets of one side: `num_buckets / 2` bidirectional, else `num_buckets`.
    pub fn side(self) -> usize {
        if self.bidirectional {
            self.num_buckets / 2
        } else {
            self.num_buckets
        }
    }

    /// The distances with a bucket each: `0 … max_exact − 1`, `max_exact = side / 2`.
    pub fn max_exact(self) -> usize {
        self.side() / 2
    }

    /// The bucket every far enough key before the query shares (that of distance [`FAR`]).
    pub fn last_bucket(self) -> usize {
        self.before(FAR)
    }

    /// The smallest distance whose bucket is at least `bucket` (buckets never decrease with the
    /// distance), or `None` when no distance up to [`FAR`] reaches it. A binary search.
    fn first_reaching(self, bucket: usize) -> Option<u64> {
        if self.before(FAR) < bucket {
            return None;
        }
        let (mut lo, mut hi) = (0u64, FAR);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.before(mid) >= bucket {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        Some(lo)
    }

    /// The first distance of the last bucket: every distance from it on shares that bucket.
    pub fn flat_from(self) -> u64 {
        self.first_reaching(self.last_bucket()).unwrap_or(0)
    }

    /// The run of distances that share distance `d`'s bucket (on one side): its first distance
    /// and its last (`None`: every distance from the first on).
    pub fn run(self, d: u64) -> (u64, Option<u64>) {
        let b = self.before(d);
        let first = self.first_reaching(b).unwrap_or(d);
        let last = self.first_reaching(b + 1).map(|next| next - 1);
        (first, last)
    }

    /// The distinct buckets of keys before the query, in order, each with its first distance.
    pub fn steps(self) -> Vec<(usize, u64)> {
        let mut out = Vec::new();
        let mut d = Some(0u64);
        while let Some(at) = d {
            let b = self.before(at);
            out.push((b, at));
            d = self.first_reaching(b + 1);
        }
        out
    }

    /// The buckets `0 … num_buckets − 1` that no query–key pair gets, at any length.
    pub fn unused(self) -> Vec<usize> {
        let steps = self.steps();
        let mut used = vec![false; self.num_buckets.max(1)];
        let mut mark = |b: usize| {
            if let Some(u) = used.get_mut(b) {
                *u = true;
            }
        };
        for &(b, first) in &steps {
            mark(b);
            if self.bidirectional {
                // Keys after the query: distances from 1 on, the same buckets shifted by the side.
                let last = self.run(first).1;
                if last.is_none_or(|l| l >= 1) {
                    mark(self.side() + b);
                }
            }
        }
        (0..self.num_buckets).filter(|&b| !used[b]).collect()
    }
}

/// Which distances share a relative position's bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BucketRun {
    /// Causal, a key after the query: masked, bucket 0.
    FutureKey,
    /// Below `max_exact`: this distance alone has its bucket.
    Exact { distance: u64 },
    /// A log bucket that, at these settings, this distance alone has.
    Own { distance: u64 },
    /// A bucket shared by distances `first … last`; `last = None`: every distance from `first` on.
    Shared { first: u64, last: Option<u64> },
}

/// The readout of one relative position `j − i`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct T5Readout {
    pub relative: i64,
    pub bucket: usize,
    pub side: Side,
    pub run: BucketRun,
}

/// What the T5 figure says about `j − i = relative`.
pub fn t5_readout(t5: T5, relative: i64) -> T5Readout {
    let bucket = t5.bucket(relative);
    let side = match (t5.bidirectional, relative > 0) {
        (false, _) => Side::Causal,
        (true, true) => Side::After,
        (true, false) => Side::Before,
    };
    let distance = relative.unsigned_abs();
    let run = if !t5.bidirectional && relative > 0 {
        BucketRun::FutureKey
    } else if distance < t5.max_exact() as u64 {
        BucketRun::Exact { distance }
    } else {
        match t5.run(distance) {
            (first, Some(last)) if first == last => BucketRun::Own { distance },
            (first, last) => BucketRun::Shared { first, last },
        }
    };
    T5Readout {
        relative,
        bucket,
        side,
        run,
    }
}

impl fmt::Display for T5Readout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let keys = match self.side {
            Side::Before => " (keys before the query)",
            Side::After => " (keys after the query)",
            Side::Causal => "",
        };
        let last_of = match self.side {
            Side::Before => "the last bucket for keys before the query",
            Side::After => "the last bucket for keys after the query",
            Side::Causal => "the last bucket",
        };
        let r = self.relative.to_string().replace('-', "−");
        write!(f, "j − i = {r} → bucket {} (", self.bucket)?;
        match self.run {
            BucketRun::FutureKey => write!(
                f,
                "a future key: a decoder masks it; its bucket is 0, the same as the query's own position"
            )?,
            BucketRun::Exact { distance: 0 } if self.side == Side::Causal => write!(
                f,
                "exact: the query's own position; the keys after it, which the mask hides, get bucket 0 too"
            )?,
            BucketRun::Exact { distance } => {
                write!(f, "exact: distance {distance} alone has this bucket")?
            }
            BucketRun::Own { distance } => write!(
                f,
                "logarithmic, but distance {distance} alone has this bucket at these settings"
            )?,
            BucketRun::Shared {
                first,
                last: Some(last),
            } => write!(f, "logarithmic: shared by distances {first} … {last}{keys}")?,
            BucketRun::Shared { first, last: None } => write!(
                f,
                "{last_of}: every distance from {first} on, however far, shares it"
            )?,
        }
        write!(f, ")")
    }
}

/// The T5 figure's finding: the buckets of each side, the exact and log distances, where the
/// last bucket starts and which buckets are never used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct T5Finding {
    pub t5: T5,
    /// Distances `0 … max_exact − 1` get one bucket each.
    pub max_exact: usize,
    /// Distinct buckets of the distances `max_exact … flat_from − 1`.
    pub log_buckets: usize,
    /// The first distance of the last bucket.
    pub flat_from: u64,
    /// The last bucket of keys before the query.
    pub last: usize,
    /// Buckets no pair gets.
    pub unused: Vec<usize>,
}

/// The T5 figure's finding for `t5`.
pub fn t5_finding(t5: T5) -> T5Finding {
    let steps = t5.steps();
    let flat_from = t5.flat_from();
    let max_exact = t5.max_exact();
    // The buckets that start in max_exact … flat_from − 1 (below max_exact a bucket is its
    // distance).
    let log_buckets = steps
        .iter()
        .filter(|&&(b, first)| b >= max_exact && first < flat_from)
        .count();
    T5Finding {
        t5,
        max_exact,
        log_buckets,
        flat_from,
        last: t5.last_bucket(),
        unused: t5.unused(),
    }
}

impl fmt::Display for T5Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let T5 {
            num_buckets: nb,
            max_distance: md,
            bidirectional: bi,
        } = self.t5;
        let side = self.t5.side();
        if bi {
            write!(
                f,
                "Bidirectional (the encoder): buckets 0 … {} for keys at or before the query and \
                 {side} … {} for keys after it. ",
                side.saturating_sub(1),
                (2 * side).saturating_sub(1)
            )?;
        } else {
            write!(
                f,
                "Causal (the decoder): buckets 0 … {} for keys at or before the query; the keys \
                 after it all get bucket 0, and the mask hides them. ",
                nb.saturating_sub(1)
            )?;
        }
        let me = self.max_exact as u64;
        let flat = self.flat_from;
        let mut parts = Vec::new();
        if me == 1 {
            parts.push("Distance 0 gets a bucket of its own".to_string());
        } else if me > 1 {
            parts.push(format!("Distances 0 … {} get one bucket each", me - 1));
        }
        if flat > me {
            parts.push(format!(
                "{} {} into {}",
                distances(me, flat - 1),
                if flat - 1 == me { "falls" } else { "fall" },
                count(self.log_buckets, "log-spaced bucket", "log-spaced buckets")
            ));
        }
        let included = if flat <= md as u64 {
            format!(", max_distance = {md} included,")
        } else {
            String::new()
        };
        let which = if bi {
            format!(
                "({}, or {} for keys after the query)",
                self.last,
                side + self.last
            )
        } else {
            format!("({})", self.last)
        };
        parts.push(format!(
            "every distance from {flat} on{included} shares the last bucket {which}"
        ));
        let mut text = parts.join("; ");
        if let Some(first) = text.get(..1) {
            text = first.to_uppercase() + &text[1..];
        }
        write!(f, "{text}.")?;
        if !self.unused.is_empty() {
            let mut why = Vec::new();
            if bi && self.unused.contains(&side) {
                why.push(format!(
                    "bucket {side} would be distance 0 after the query, and keys after it start at distance 1"
                ));
            }
            if bi && nb % 2 == 1 && self.unused.contains(&(nb - 1)) {
                why.push(format!(
                    "bucket {} lies past both sides, which get ⌊{nb}/2⌋ = {side} each",
                    nb - 1
                ));
            }
            let skipped = self
                .unused
                .iter()
                .filter(|&&b| !(bi && (b == side || (nb % 2 == 1 && b == nb - 1))))
                .count();
            if skipped > 0 {
                why.push(format!(
                    "{} no whole distance falls in",
                    if skipped == 1 {
                        "a log bucket"
                    } else {
                        "log buckets"
                    }
                ));
            }
            write!(
                f,
                " {} never used at these settings: {} ({}).",
                count(self.unused.len(), "bucket is", "buckets are"),
                runs_text(&self.unused),
                why.join("; ")
            )?;
        }
        Ok(())
    }
}

/// The T5 figure's text alternative.
pub fn t5_describe(t5: T5, positions: usize) -> String {
    format!(
        "A {positions} by {positions} matrix of T5 bucket numbers: a narrow band of distinct \
         colours near the diagonal, where each distance has its own bucket, widening bands \
         farther out, and flat colour from distance {} on (the last bucket). Below it, a step \
         curve of the bucket against the relative position.",
        t5.flat_from()
    )
}

// ------------------------------------------------------------------ ALiBi slopes

/// `m` as a power of two: "2^−1.000 = 0.5000", or with "≈" when the four significant digits
/// shown are not exact.
pub fn slope_text(m: f64) -> String {
    let (e, v) = (format_significant(m.log2(), 4), format_significant(m, 4));
    let exact = e.parse::<f64>().is_ok_and(|x| 2f64.powf(x) == m) && v.parse::<f64>() == Ok(m);
    format!(
        "2^{} {} {v}",
        e.replace('-', "−"),
        if exact { "=" } else { "≈" }
    )
}

/// The largest power of two at most `h` (h ≥ 1).
pub fn power_below(h: usize) -> usize {
    1 << (usize::BITS - 1 - h.max(1).leading_zeros())
}

/// The slope the paper's general rule (§3) gives head `h` of `heads`: the geometric sequence
/// that starts at `2^(−8/n)` with that same ratio, `2^(−8h/n)`.
pub fn paper_rule_slope(h: usize, heads: usize) -> f64 {
    2f64.powf(-8.0 * h as f64 / heads.max(1) as f64)
}

/// The slopes readout: head `head` (from 1) of `heads`, its slope in use and the default one
/// (the authors' code's, as BLOOM's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlopeReadout {
    pub head: usize,
    pub heads: usize,
    pub slope: f64,
    pub default: f64,
}

impl SlopeReadout {
    /// Where the default slope comes from, in words.
    fn origin(&self) -> String {
        let (h, heads) = (self.head, self.heads);
        let p = power_below(heads);
        let paper = || {
            format!(
                "; the paper's general rule, 2^(−8·{h}/{heads}), would give {}",
                slope_text(paper_rule_slope(h, heads))
            )
        };
        if p == heads {
            format!("2^(−8·{h}/{heads}), the rule of the paper and of its code")
        } else if h <= p {
            format!(
                "the {p}-head sequence, 2^(−8·{h}/{p}), as the authors' code (and BLOOM) does it{}",
                paper()
            )
        } else {
            let k = 2 * (h - p) - 1;
            format!(
                "slope {k} of the {}-head sequence, 2^(−8·{k}/{}), as the authors' code (and \
                 BLOOM) does it{}",
                2 * p,
                2 * p,
                paper()
            )
        }
    }
}

impl fmt::Display for SlopeReadout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let from = if self.slope == self.default {
            format!(", from {}", self.origin())
        } else {
            format!(
                " (yours; the default, from the authors' code, is {})",
                slope_text(self.default)
            )
        };
        write!(
            f,
            "Head {} of {}: slope m = {}{from} · the bias falls by ln 2 (the weight halves) every \
             {} positions.",
            self.head,
            self.heads,
            slope_text(self.slope),
            format_significant(alibi::half_weight_distance(self.slope), 4)
        )
    }
}

/// The slopes figure's finding for `heads` heads (`overridden`: the head whose slope the reader
/// set).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlopesFinding {
    pub heads: usize,
    pub overridden: Option<usize>,
}

impl fmt::Display for SlopesFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let heads = self.heads.max(1);
        let p = power_below(heads);
        let slopes = alibi::slopes(heads);
        let halves: Vec<f64> = slopes
            .iter()
            .map(|&m| alibi::half_weight_distance(m))
            .collect();
        if heads == 1 {
            write!(
                f,
                "1 head: its slope is 2^−8 = 1/256, and its weight halves every {} positions.",
                short(halves[0], 4)
            )?;
        } else if p == heads {
            let list = if heads <= 8 {
                let mut all: Vec<String> = halves.iter().map(|&x| short(x, 4)).collect();
                let last = all.pop().unwrap_or_default();
                format!("{} and {last}", all.join(", "))
            } else {
                format!(
                    "{}, {}, …, {}",
                    short(halves[0], 4),
                    short(halves[1], 4),
                    short(halves[heads - 1], 4)
                )
            };
            write!(
                f,
                "{heads} heads, a power of two: the slopes start at 2^(−8/{heads}) and each is \
                 2^(−8/{heads}) times the one before, down to 2^−8 = 1/256 (the paper's rule and \
                 its code's). So the distance at which each head's weight halves, ln 2 / m, grows \
                 by the same factor 2^(8/{heads}) ≈ {} from head to head: about {list} positions. \
                 The heads' ranges are spread evenly on a logarithmic scale.",
                short(2f64.powf(8.0 / heads as f64), 4)
            )?;
        } else {
            let extra = heads - p;
            let takes = if extra == 1 {
                format!("head {heads} takes slope 1")
            } else {
                format!(
                    "heads {} … {heads} take slopes 1, 3, …, {}",
                    p + 1,
                    2 * extra - 1
                )
            };
            let between = if extra >= 2 {
                format!(
                    "; each later one falls between two neighbouring slopes of the first run \
                     (head {} between heads 1 and 2)",
                    p + 2
                )
            } else {
                String::new()
            };
            write!(
                f,
                "{heads} heads is not a power of two. In the authors' code (get_slopes), as in \
                 BLOOM and MPT, heads 1 … {p} take the {p}-head slopes and {takes} of the \
                 {}-head sequence. Head {}'s slope is steeper than every slope of heads 1 … \
                 {p}{between}. The paper's §3 states a general rule instead, the geometric \
                 sequence that starts at 2^(−8/{heads}) and uses that value as its ratio; it \
                 gives different numbers: head {} would get {} rather than {}. (The code's \
                 comment notes that the geometric sequence has its good properties only for \
                 powers of two; the paper trains only those.)",
                2 * p,
                p + 1,
                p + 1,
                slope_text(paper_rule_slope(p + 1, heads)),
                slope_text(slopes[p])
            )?;
        }
        if let Some(h) = self.overridden {
            write!(f, " Head {h} uses your slope instead.")?;
        }
        Ok(())
    }
}

// ------------------------------------------------------------------ ALiBi attention

/// The local-vs-global finding of the attention figure: `heads` slopes over a sequence of `n`
/// with the shown query `query`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeadRanges {
    pub heads: usize,
    pub n: usize,
    /// The farthest key the query sees.
    pub reach: usize,
    /// Heads whose weight halves within 4 positions (and that are not global).
    pub local: usize,
    /// Heads that give every key the query sees more than half the weight of its own key.
    pub global: usize,
    /// The smallest slope.
    pub flattest: f64,
}

/// The distance [`HeadRanges`] measures the flattest head at.
pub const FAR_KEY: u32 = 4000;

/// [`HeadRanges`] for `slopes`, a sequence of `n` and the shown query `query`.
pub fn head_ranges(slopes: &[f64], n: usize, query: usize) -> HeadRanges {
    let reach = query.max(n.saturating_sub(1).saturating_sub(query));
    let half = |m: f64| alibi::half_weight_distance(m);
    let global = slopes.iter().filter(|&&m| half(m) > reach as f64).count();
    let local = slopes
        .iter()
        .filter(|&&m| half(m) <= reach as f64 && half(m) < 4.0)
        .count();
    HeadRanges {
        heads: slopes.len(),
        n,
        reach,
        local,
        global,
        flattest: slopes.iter().copied().fold(f64::INFINITY, f64::min),
    }
}

impl fmt::Display for HeadRanges {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rest = self.heads - self.local - self.global;
        let verb =
            |k: usize, one: &'static str, many: &'static str| if k == 1 { one } else { many };
        write!(
            f,
            "With {} and n = {}: {} {} a key 4 positions away less than half the weight of the \
             query's own key (local); {} {} every key this query sees, up to {} positions away, \
             more than half the weight of its own key (global); and {} {} between.",
            count(self.heads, "head", "heads"),
            self.n,
            self.local,
            verb(self.local, "gives", "give"),
            self.global,
            verb(self.global, "gives", "give"),
            self.reach,
            rest,
            verb(rest, "lies", "lie"),
        )?;
        let m = self.flattest;
        if m.is_finite() && m > 0.0 {
            let w = (-m * f64::from(FAR_KEY)).exp();
            write!(
                f,
                " Even the flattest head (m = {}) gives a key {FAR_KEY} positions back \
                 e^(−m·{FAR_KEY}) ≈ {} of the weight of the query's own key: with fixed slopes, \
                 far tokens are all but invisible, whatever their content.",
                slope_text(m),
                format_significant(w, 2)
            )?;
        }
        Ok(())
    }
}

/// What the ALiBi bias figure adds when its causal box is unticked (empty when ticked).
pub fn alibi_mask_note(causal: bool) -> String {
    if causal {
        String::new()
    } else {
        "Unticked, the bias is symmetric, −m·|i − j| on both sides of the query. That variant is \
         not in the paper: Press et al. trained only causal language models, and the first \
         author lists several possible encoder variants in the repository's issue #5."
            .to_string()
    }
}

// ------------------------------------------------------------------ learned tables

/// The learned-cliff figure's status line.
pub fn learned_status(max_len: usize, n: usize) -> String {
    if n > max_len {
        format!(
            "{} of the {n} positions ({max_len} … {}) have no learned vector: a model with this \
             table cannot read them. The sinusoidal rows continue, and so do RoPE's angles p·θᵢ \
             (position p times each pair's frequency).",
            n - max_len,
            n - 1
        )
    } else {
        format!(
            "All {n} positions have a learned row (the table has {max_len}). Drag the sequence \
             length past {max_len} to fall off the end."
        )
    }
}

/// The learned-similarity finding: `positions` rows of width `dim`, the off-diagonal RMS of the
/// learned rows' similarity, and the mean similarity at distance 1 of the learned and the
/// sinusoidal rows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NeighbourSimilarity {
    pub positions: usize,
    pub dim: usize,
    pub rms: f64,
    pub learned: f64,
    pub sinusoidal: f64,
}

impl NeighbourSimilarity {
    /// Two standard deviations of the mean of `positions − 1` neighbour similarities of random
    /// rows: the cosine of two independent random directions in `d` dimensions has mean 0 and
    /// variance exactly `1/d`, and neighbour pairs are uncorrelated, so `2/√(d·(p − 1))`.
    pub fn chance(&self) -> f64 {
        2.0 / ((self.dim.max(1) * self.positions.saturating_sub(1).max(1)) as f64).sqrt()
    }

    /// Whether the sample mean lies within [`Self::chance`] of 0.
    pub fn within_chance(&self) -> bool {
        self.learned.abs() <= self.chance()
    }
}

impl fmt::Display for NeighbourSimilarity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.positions;
        if p < 2 {
            return write!(f, "One position: there is no pair to compare.");
        }
        let orthogonal = if self.dim >= 32 {
            "random vectors in this many dimensions are nearly orthogonal"
        } else {
            "random vectors in few dimensions are rarely parallel, but not orthogonal either"
        };
        let pairs = count(p - 1, "neighbour pair", "neighbour pairs");
        let verdict = if self.within_chance() {
            format!(
                "within the ±{:.3} (two standard deviations) that random rows give over {pairs}, \
                 so neighbours are no more alike than strangers",
                self.chance()
            )
        } else {
            format!(
                "outside the ±{:.3} (two standard deviations) that random rows usually give over \
                 {pairs}: a fluke of this seed, since every row is drawn independently and the \
                 expected similarity is 0 (re-roll to see it move)",
                self.chance()
            )
        };
        write!(
            f,
            "Over the first {p} positions: off the diagonal, the learned rows' similarity has a \
             root mean square of {:.3} (1/√d = {:.3}: {orthogonal}). Their mean similarity at \
             distance 1 is {:.3}, {verdict}. The sinusoidal rows' mean similarity at distance 1 \
             is {:.3}.",
            self.rms,
            1.0 / (self.dim.max(1) as f64).sqrt(),
            self.learned,
            self.sinusoidal
        )
    }
}

// ------------------------------------------------------------------ Shaw

/// The Shaw figure's finding for `n` positions and clipping distance `k`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShawFinding {
    pub n: usize,
    pub k: usize,
}

impl ShawFinding {
    /// The distinct clipped distances among the `n²` pairs: `min(2k + 1, 2n − 1)`.
    pub fn distinct(self) -> usize {
        (2 * self.k + 1).min((2 * self.n).saturating_sub(1))
    }

    /// Whether some pair of the `n` positions is clipped.
    pub fn clips(self) -> bool {
        self.k + 1 < self.n
    }
}

impl fmt::Display for ShawFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (n, k) = (self.n, self.k);
        let far = if self.clips() {
            format!(
                "in one layer, every pair more than {k} apart shares the vectors of distance \
                 ±{k}, at any length (stacked layers can still pass on finer information, as \
                 Shaw et al. note)"
            )
        } else {
            format!(
                "no pair of these {n} positions is more than k = {k} apart, so nothing is clipped yet"
            )
        };
        write!(
            f,
            "k = {k}: {} (each with a wᴷ and a wⱽ) serve all {} query–key pairs of {n} \
             positions; {far}.",
            count(
                self.distinct(),
                "distinct clipped distance",
                "distinct clipped distances"
            ),
            n * n
        )
    }
}

// ------------------------------------------------------------------ NoPE

/// The NoPE finding: the simulated mean squares of the first and last query's outputs over a
/// sequence of `n` with values of width `d`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NopeFinding {
    pub n: usize,
    pub d: usize,
    pub first: f64,
    pub last: f64,
}

impl NopeFinding {
    /// The standard deviation of the estimate relative to its expected value: `√(2/d)`.
    pub fn relative_noise(self) -> f64 {
        (2.0 / self.d.max(1) as f64).sqrt()
    }
}

impl fmt::Display for NopeFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let noise = self.relative_noise();
        let reading = if noise <= 0.5 {
            "from the output's size alone, a later layer can tell roughly how far into the \
             sequence a token is — without any positional encoding"
                .to_string()
        } else {
            format!(
                "with only {} the estimate is noisy (its standard deviation is √(2/d) ≈ {} times \
                 its expected value), so the size tells early tokens from late ones only coarsely",
                count(self.d, "coordinate", "coordinates"),
                short(noise, 3)
            )
        };
        write!(
            f,
            "The first token's output has mean square {} and the last one's {} (estimates of 1 \
             and 1/{} from {}): {reading}.",
            format_significant(self.first, 3),
            format_significant(self.last, 3),
            self.n,
            count(self.d, "coordinate", "coordinates"),
        )
    }
}

// ------------------------------------------------------------------ fig-tab-same

/// The same-position finding. `angles`: RoPE's angles in degrees (mod 360); `bias`: ALiBi's
/// biases of query `p`'s keys `0 … p`; `causal`: the ALiBi figures' mask box.
pub fn same_finding(
    (p, d): (usize, usize),
    sinusoidal: &[f64],
    learned: Option<&[f64]>,
    angles: &[f64],
    bias: &[f64],
    causal: bool,
) -> String {
    let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
    let deg = |a: Option<&f64>| format_significant(a.copied().unwrap_or(0.0), 4);
    let rope = if angles.len() == 1 {
        format!("turns its one pair by {}°", deg(angles.first()))
    } else {
        format!(
            "turns its fastest pair by {}° and its slowest by {}° (mod 360)",
            deg(angles.first()),
            deg(angles.last())
        )
    };
    let alibi = if p == 0 {
        "its only key before the query is the query itself (bias 0)".to_string()
    } else {
        format!(
            "lowers the score of the key {p} positions back by {}",
            format_significant(-bias.first().copied().unwrap_or(0.0), 4)
        )
    };
    let mask = if causal {
        ""
    } else {
        " (The panel shows the keys 0 … p before the query, as a decoder sees them; with the \
         causal box above unticked, keys after the query get the mirror-image biases.)"
    };
    format!(
        "At position {p} with d = {d}: sinusoids add a vector of length {}; the learned table {}; \
         RoPE {rope} and adds nothing; ALiBi adds nothing to x, and {alibi}.{mask}",
        format_significant(norm(sinusoidal), 4),
        match learned {
            Some(row) => format!("adds one of length {}", format_significant(norm(row), 4)),
            None => "has no row to add".to_string(),
        },
    )
}

// ------------------------------------------------------------------ fig-tab-extrapolate

/// The extrapolation finding: sequence `n`, training length `max_len`, RoPE's slowest frequency
/// `slowest` (rad per position) and T5's settings.
pub fn extrapolation_finding(n: usize, max_len: usize, slowest: f64, t5: T5) -> String {
    if n <= max_len {
        return format!(
            "The sequence ({n}) fits in max_len ({max_len}): every method still has something \
             for every position. Drag the length past it."
        );
    }
    let seen = (max_len.saturating_sub(1) as f64 * slowest).to_degrees();
    let reach = ((n - 1) as f64 * slowest).to_degrees();
    let rope = if seen >= 360.0 {
        format!(
            "RoPE's slowest pair (wavelength {} positions) already turned a full circle within \
             max_len, so it only repeats angles seen in training",
            format_significant(std::f64::consts::TAU / slowest, 3)
        )
    } else {
        format!(
            "RoPE's slowest pair turns on to {}°, beyond the {}° it reached in training",
            format_significant(reach, 4),
            format_significant(seen, 4)
        )
    };
    let flat = t5.flat_from();
    let md = t5.max_distance;
    let stops = if (n - 1) as u64 >= flat {
        format!("stops changing at distance {flat}")
    } else {
        format!("would stop changing at distance {flat}")
    };
    let included = if flat <= md as u64 {
        format!(", max_distance = {md} included,")
    } else {
        String::new()
    };
    format!(
        "Past max_len = {max_len}: the learned table has nothing; the sinusoid continues; \
         {rope}; ALiBi's bias keeps falling in a straight line; T5's bucket {stops} (every \
         distance from there on{included} shares the last bucket)."
    )
}
