//! T5's relative position buckets (fig-tab-t5): the readout of one relative position, the
//! finding (exact and log buckets, where the last bucket starts, the unused ones), the text
//! alternative of the matrix, and quiz Q6's explanation.

use std::fmt;

use super::{distances, runs_text};
use crate::explain::count;
use crate::math::relative::t5_bucket;

/// The farthest distance the searches probe: `|i64::MAX|`, the largest `j − i` there is.
pub const FAR: u64 = i64::MAX as u64;

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

/// What the T5 matrix of `positions` positions shows: its distances are `0 … positions − 1`, so
/// a short matrix holds only exact buckets, a longer one some log-spaced buckets too, and only
/// one reaching [`T5::flat_from`] has the flat last bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct T5Picture {
    pub t5: T5,
    pub positions: usize,
    /// The exact distances shown: `0 … exact − 1` (`min(max_exact, positions)`).
    pub exact: u64,
    /// The log-spaced buckets shown below the last one, with their first and last distance
    /// shown (`None`: none shown).
    pub log: Option<(usize, u64, u64)>,
    /// The first distance of the last bucket, when the matrix reaches it.
    pub flat_from: Option<u64>,
}

/// What the T5 matrix of `positions` positions shows, read off the buckets of its distances.
pub fn t5_picture(t5: T5, positions: usize) -> T5Picture {
    let top = positions.saturating_sub(1) as u64;
    let me = t5.max_exact() as u64;
    let flat = t5.flat_from();
    // The last bucket starts at or after max_exact (the bucket of max_exact is max_exact).
    let exact = me.min(positions as u64);
    let shown: Vec<(usize, u64)> = t5
        .steps()
        .into_iter()
        .filter(|&(_, first)| first >= me && first < flat && first <= top)
        .collect();
    let log = shown
        .first()
        .map(|&(_, first)| (shown.len(), first, top.min(flat.saturating_sub(1))));
    T5Picture {
        t5,
        positions,
        exact,
        log,
        flat_from: (flat <= top).then_some(flat),
    }
}

impl fmt::Display for T5Picture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.positions;
        let top = n.saturating_sub(1) as u64;
        write!(
            f,
            "T5's bucket numbers for {n} positions, as a {n} by {n} matrix, one colour per \
             bucket, the same along each diagonal (one distance): "
        )?;
        let mut parts = Vec::new();
        if self.exact > top {
            parts.push(format!(
                "every distance shown (0 … {top}) has a bucket of its own, so every diagonal has \
                 its own colour; the log-spaced buckets start at distance {}, beyond this matrix",
                self.t5.max_exact()
            ));
        } else if self.exact > 0 {
            parts.push(if self.exact == 1 {
                "the diagonal itself, distance 0, in a bucket of its own".to_string()
            } else {
                format!(
                    "a narrow band of distinct colours near the diagonal, {} with a bucket each",
                    distances(0, self.exact - 1)
                )
            });
        }
        if let Some((k, first, last)) = self.log {
            parts.push(format!(
                "{} covering {}",
                count(k, "log-spaced band", "log-spaced bands"),
                distances(first, last)
            ));
        }
        match self.flat_from {
            Some(flat) => parts.push(format!(
                "flat colour from distance {flat} on (the last bucket)"
            )),
            None if self.exact <= top => parts.push(format!(
                "the last bucket, from distance {} on, lies beyond this matrix",
                self.t5.flat_from()
            )),
            None => {}
        }
        let last = parts.pop().unwrap_or_default();
        if parts.is_empty() {
            write!(f, "{last}.")?;
        } else {
            write!(f, "{}, and {last}.", parts.join(", "))?;
        }
        if !self.t5.bidirectional {
            write!(
                f,
                " Above the diagonal, the keys after the query all get bucket 0, the diagonal's \
                 own colour (a decoder's mask hides them)."
            )?;
        }
        write!(
            f,
            " Below it, a step curve of the bucket against the relative position, out past \
             max_distance: flat from distance {} on.",
            self.t5.flat_from()
        )
    }
}

/// The T5 figure's text alternative ([`T5Picture`]).
pub fn t5_describe(t5: T5, positions: usize) -> String {
    t5_picture(t5, positions).to_string()
}

/// Quiz Q6's explanation (T5 with 32 buckets and max_distance 128, a key 200 and one 1000
/// positions back): where the last bucket starts on each side, encoder and decoder.
/// `tests/claims_tables` checks 91 and 113 against the bucket scan.
pub const QUIZ_T5_WHY: &str = "In the encoder (bidirectional), every distance from 91 on (before \
     max_distance) shares the last bucket of its side; in the decoder (causal), whose 32 buckets \
     all count keys at or before the query, every distance from 113 on shares the last bucket. \
     Either way 200 and 1000 get the same bias. The model as a whole can still tell them apart: \
     T5's authors note that later layers can build a sensitivity to larger offsets, and a decoder \
     also has its causal mask.";
