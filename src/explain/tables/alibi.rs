//! ALiBi (fig-tab-slopes, fig-tab-alibi, fig-tab-alibi-attention): the slopes, their readout and
//! finding, the local and global heads of one query, and the fixed sentences on what the bias
//! does against the content scores and what Press et al.'s App. B says.

use std::fmt;

use super::short;
use crate::explain::count;
use crate::math::alibi;
use crate::params::format_significant;

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

/// The distance at which [`HeadRanges`] calls a head local: a key this far away gets less than
/// half the weight of the query's own key.
pub const NEAR_KEY: usize = 4;

/// The local-vs-global finding of the attention figure: `heads` slopes over a sequence of `n`
/// with the shown query `query`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeadRanges {
    pub heads: usize,
    pub n: usize,
    /// The farthest key the query sees.
    pub reach: usize,
    /// The distance locality is judged at: [`NEAR_KEY`], or `reach` when the query sees no key
    /// that far.
    pub near: usize,
    /// Heads that give the key `near` positions away less than half the weight of the query's
    /// own key (never global: `near ≤ reach`).
    pub local: usize,
    /// Heads that give every key the query sees more than half the weight of its own key.
    pub global: usize,
    /// The smallest slope in use (the reader's included).
    pub flattest: f64,
}

/// The distance [`HeadRanges`] measures the flattest head at.
pub const FAR_KEY: u32 = 4000;

/// [`HeadRanges`] for `slopes`, a sequence of `n` and the shown query `query`.
pub fn head_ranges(slopes: &[f64], n: usize, query: usize) -> HeadRanges {
    let reach = query.max(n.saturating_sub(1).saturating_sub(query));
    let near = NEAR_KEY.min(reach);
    let half = |m: f64| alibi::half_weight_distance(m);
    let global = slopes.iter().filter(|&&m| half(m) > reach as f64).count();
    let local = slopes.iter().filter(|&&m| half(m) < near as f64).count();
    HeadRanges {
        heads: slopes.len(),
        n,
        reach,
        near,
        local,
        global,
        flattest: slopes.iter().copied().fold(f64::INFINITY, f64::min),
    }
}

/// What the flattest head does to a key [`FAR_KEY`] positions back at equal content, decided
/// from the weight `e^(−m·FAR_KEY)` relative to the query's own key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FarKey {
    /// Below 1%: all but invisible unless its content score makes up the bias.
    Faint,
    /// 1% to a half: damped, not hidden.
    Damped,
    /// Half or more: still in view.
    Kept,
}

impl FarKey {
    /// The verdict for the relative weight `w`.
    pub fn of(w: f64) -> FarKey {
        if w < 0.01 {
            FarKey::Faint
        } else if w < 0.5 {
            FarKey::Damped
        } else {
            FarKey::Kept
        }
    }
}

impl fmt::Display for HeadRanges {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rest = self.heads - self.local - self.global;
        let verb =
            |k: usize, one: &'static str, many: &'static str| if k == 1 { one } else { many };
        let positions = |k: usize| count(k, "position", "positions");
        let near = if self.near == NEAR_KEY {
            format!("a key {} away", positions(NEAR_KEY))
        } else {
            format!(
                "the farthest key this query sees, {} away (none is {NEAR_KEY} away),",
                positions(self.near)
            )
        };
        write!(
            f,
            "With {} and n = {}: {} {} {near} less than half the weight of the query's own key \
             (local); {} {} every key this query sees, up to {} away, more than half the weight \
             of its own key (global); and {} {} between.",
            count(self.heads, "head", "heads"),
            self.n,
            self.local,
            verb(self.local, "gives", "give"),
            self.global,
            verb(self.global, "gives", "give"),
            positions(self.reach),
            rest,
            verb(rest, "lies", "lie"),
        )?;
        let m = self.flattest;
        if m.is_finite() && m > 0.0 {
            let bias = m * f64::from(FAR_KEY);
            let w = (-bias).exp();
            let verdict = match FarKey::of(w) {
                FarKey::Faint => "all but invisible",
                FarKey::Damped => "damped, not hidden",
                FarKey::Kept => "more than half: at this slope even that key stays in view",
            };
            write!(
                f,
                " The flattest head (m = {}) lowers the score of a key {FAR_KEY} positions back by \
                 m·{FAR_KEY} = {}: with equal content scores that key gets e^(−m·{FAR_KEY}) ≈ {} \
                 of the weight of the query's own key, {verdict}. The bias only adds to the \
                 content score q·k, so a key whose q·k beats the own key's by more than {} still \
                 gets more weight than it.",
                slope_text(m),
                format_significant(bias, 4),
                format_significant(w, 2),
                format_significant(bias, 4),
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

/// The chapter's sentence on the slope ladder: for `H` heads, a power of two, each head's range
/// `ln 2 / m` is `2^(8/H)` times the previous one's; computed for 4, 8 and 16 heads.
pub fn slope_ladder() -> String {
    let factor = |heads: usize| 2f64.powf(8.0 / heads as f64);
    format!(
        "Each head's range, ln 2 / m, is then 2^(8/H) times the previous one's: {} for 4 \
         heads, {} for 8, {} (√2) for 16.",
        short(factor(4), 4),
        short(factor(8), 4),
        short(factor(16), 4)
    )
}

/// The attention figure's caption on what the bias can and cannot do against the content
/// scores, with BLOOM's numbers: its flattest slope (1/256, of 112 heads) over its training
/// context (2048 tokens) gives a bias of −2048/256 = −8, a factor e⁻⁸ ≈ 0.0003 at equal content.
/// `tests/claims_tables` recomputes each number.
pub const BIAS_AGAINST_CONTENT: &str = "In a model the bias is only added to the content score \
     q·k, so a far key whose q·k beats the query's own key's by more than m·distance still gets \
     more weight than it. BLOOM's flattest head \
     (m = 1/256) lowers a key 2048 positions back, at the far end of its training context, by 8: \
     at equal content a factor e⁻⁸ ≈ 0.0003, which a content margin of 8 makes up.";

/// What Press et al.'s App. B says about ALiBi past its training length: a hypothesis, with
/// their own caveat.
pub const APP_B: &str = "In App. B, Press et al. hypothesise that ALiBi's gains on longer inputs \
     come not from using the longer context but from fewer tokens suffering the early-token \
     curse, having fewer predecessors than usual; they add that ALiBi might not be using \
     contexts longer than the ones it was trained on.";

/// The comparison table's "past the training length?" cell for ALiBi.
pub const ALIBI_EXTRAPOLATES: &str = "perplexity holds past the training length (best at about \
     twice it, Press et al. 2022, §4.2); the authors hypothesise that the gain comes from fewer \
     tokens suffering the early-token curse rather than from using the longer context (App. B). \
     Far keys are damped, not cut off: the bias adds to q·k, so a strong enough content match \
     still wins";
