//! Chapter 1, "Order and sinusoids": its URL keys (unprefixed, as chapter 1 shipped them:
//! `n`, `d`, `base`, `layout`, `spacing`, `show`, `pos`, `dims`, `k`, `at`, `rows`, `cols`, `s`, `pe`,
//! `npos`, `eps`) and the views they parse into.

use super::{Notice, format_number, parse_f64, parse_usize};
use crate::math::limits;
use crate::math::sinusoidal::{Layout, SinusoidalParams, Spacing};

/// Every key chapter 1 reads (no prefix: these links were shared before the book had chapters).
pub const KEYS: [&str; 16] = [
    "n", "d", "base", "layout", "spacing", "show", "pos", "dims", "k", "at", "rows", "cols", "s",
    "pe", "npos", "eps",
];

/// Default sinusoidal parameters: 100 positions, d_model 128, base 10000 (Vaswani et al.), the
/// paper's interleaved layout and spacing.
pub const SINUSOIDAL_DEFAULT: SinusoidalParams = SinusoidalParams {
    positions: 100,
    dim: 128,
    base: 10_000.0,
    layout: Layout::Interleaved,
    spacing: Spacing::Paper,
};

/// Dimensions the wave view plots by default (as the anchor visualisers do: two fast, two slower).
pub const DEFAULT_WAVE_DIMS: [usize; 4] = [0, 1, 4, 21];

/// The relative-shift figure's default offset.
pub const DEFAULT_SHIFT: usize = 5;

/// Largest offset of the relative-shift figure.
pub const MAX_SHIFT: usize = 512;

/// The adding-to-a-token figure's default positions.
pub const DEFAULT_COMPARE: [usize; 3] = [0, 50, 99];

/// Largest position of the adding-to-a-token figure (the formula holds at any position).
pub const MAX_COMPARE: usize = 10_000;

/// At most this many waves at once (more is unreadable).
pub const MAX_WAVE_DIMS: usize = 8;

/// The sinusoidal chapter's view: the encoding's parameters, the highlighted position and the
/// dimensions drawn as waves.
#[derive(Clone, Debug, PartialEq)]
pub struct SinusoidalView {
    /// What to compute.
    pub params: SinusoidalParams,
    /// Which of the table's two views are shown.
    pub show: TableView,
    /// The highlighted position (row), always `< params.positions`.
    pub pos: usize,
    /// Dimensions plotted as waves (distinct, each `< params.dim`, at most [`MAX_WAVE_DIMS`]).
    pub dims: Vec<usize>,
    /// The offset `k` of the relative-shift figure.
    pub shift: usize,
    /// The positions of the adding-to-a-token figure: a reference and two others.
    pub compare: [usize; 3],
    /// The heatmap's rows (positions) shown; `None` = all.
    pub rows: Option<Span>,
    /// The heatmap's columns (dimensions) shown; `None` = all.
    pub cols: Option<Span>,
}

impl Default for SinusoidalView {
    fn default() -> Self {
        SinusoidalView {
            params: SINUSOIDAL_DEFAULT,
            show: TableView::Both,
            pos: 0,
            dims: DEFAULT_WAVE_DIMS.to_vec(),
            shift: DEFAULT_SHIFT,
            compare: DEFAULT_COMPARE,
            rows: None,
            cols: None,
        }
    }
}

/// The encoding table seen as a heatmap (rows = positions), as waves (columns = dimensions), or
/// both, linked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TableView {
    /// The heatmap and the waves, one above the other (hovering a heatmap column adds its wave).
    #[default]
    Both,
    /// The heatmap alone.
    Heatmap,
    /// The waves alone.
    Waves,
}

impl TableView {
    /// The name used in URLs (`show=`).
    pub fn as_str(self) -> &'static str {
        match self {
            TableView::Both => "both",
            TableView::Heatmap => "heatmap",
            TableView::Waves => "waves",
        }
    }

    /// Reads [`TableView::as_str`]'s names.
    pub fn parse(s: &str) -> Option<Self> {
        [TableView::Both, TableView::Heatmap, TableView::Waves]
            .into_iter()
            .find(|v| v.as_str() == s)
    }

    /// Whether the heatmap is shown.
    pub fn heatmap(self) -> bool {
        self != TableView::Waves
    }

    /// Whether the waves are shown.
    pub fn waves(self) -> bool {
        self != TableView::Heatmap
    }
}

/// Keeps the distinct dimensions below `dim`, at most [`MAX_WAVE_DIMS`], in order; when none is
/// left, the defaults that fit (or dimension 0).
pub fn fit_dims(dims: &[usize], dim: usize) -> Vec<usize> {
    let mut kept: Vec<usize> = Vec::new();
    for &k in dims {
        if k < dim && !kept.contains(&k) && kept.len() < MAX_WAVE_DIMS {
            kept.push(k);
        }
    }
    if kept.is_empty() {
        kept = DEFAULT_WAVE_DIMS
            .iter()
            .copied()
            .filter(|&k| k < dim)
            .collect();
    }
    if kept.is_empty() {
        kept.push(0);
    }
    kept
}

/// Parses a list of dimensions ("0, 1, 4 21") for a `dim`-wide encoding, through [`fit_dims`].
/// Parts that are not whole numbers below `dim`, or beyond the first [`MAX_WAVE_DIMS`], are
/// reported in the notice.
pub fn parse_dims(text: &str, dim: usize) -> (Vec<usize>, Option<Notice>) {
    let mut numbers = Vec::new();
    let mut dropped = Vec::new();
    for part in text.split([',', ' ', ';']).filter(|p| !p.is_empty()) {
        match part.parse::<usize>() {
            Ok(k) if k < dim => {
                if !numbers.contains(&k) {
                    numbers.push(k);
                }
            }
            _ => dropped.push(part.to_string()),
        }
    }
    if numbers.len() > MAX_WAVE_DIMS {
        dropped.extend(numbers[MAX_WAVE_DIMS..].iter().map(usize::to_string));
    }
    let notice = (!dropped.is_empty()).then(|| {
        Notice(format!(
            "dimensions: ignored {} (each must be a whole number below d_model = {dim}, at most {MAX_WAVE_DIMS} in all).",
            dropped.join(", ")
        ))
    });
    (fit_dims(&numbers, dim), notice)
}

/// An inclusive index range `from..=to` chosen by the reader (a zoom into the heatmap).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// First index shown.
    pub from: usize,
    /// Last index shown (≥ `from`).
    pub to: usize,
}

impl Span {
    /// The span fitted into `0..len` (len ≥ 1): both ends clamped to `len − 1`.
    pub fn fit(self, len: usize) -> std::ops::Range<usize> {
        let last = len.saturating_sub(1);
        let to = self.to.min(last);
        self.from.min(to)..to + 1
    }

    /// Reads `"a-b"` (inclusive). Reversed ends are swapped; text that is not two whole numbers
    /// gives `None` and a notice naming `what`.
    pub fn parse(what: &str, text: &str) -> (Option<Span>, Option<Notice>) {
        let parsed = text.split_once('-').and_then(|(a, b)| {
            Some((
                a.trim().parse::<usize>().ok()?,
                b.trim().parse::<usize>().ok()?,
            ))
        });
        match parsed {
            Some((a, b)) => (
                Some(Span {
                    from: a.min(b),
                    to: a.max(b),
                }),
                None,
            ),
            None => (
                None,
                Some(Notice(format!(
                    "{what} = “{text}” is not a range like 0-99; showing all.",
                    text = crate::params::quote(text)
                ))),
            ),
        }
    }

    /// The URL form, `from-to`.
    pub fn to_text(self) -> String {
        format!("{}-{}", self.from, self.to)
    }
}

/// Formats a dimension list the way [`parse_dims`] reads it.
pub fn format_dims(dims: &[usize]) -> String {
    dims.iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

impl SinusoidalView {
    /// Reads the view from query pairs (`n`, `d`, `base`, `layout`, `spacing`, `show`, `pos`, `dims`, …); unknown keys
    /// are ignored (other figures own them), bad values fall back or clamp with a notice.
    pub fn from_query(pairs: &[(String, String)]) -> (SinusoidalView, Vec<Notice>) {
        let mut view = SinusoidalView::default();
        let mut notices = Vec::new();
        let mut pos_text = None;
        let mut dims_text = None;
        for (k, v) in pairs {
            let notice = match k.as_str() {
                "n" => {
                    let (x, n) =
                        parse_usize("n (positions)", v, limits::POSITIONS, view.params.positions);
                    view.params.positions = x;
                    n
                }
                "d" => {
                    let (x, n) = parse_usize("d (d_model)", v, limits::DIM, view.params.dim);
                    view.params.dim = x;
                    n
                }
                "base" => {
                    let (x, n) = parse_f64("base", v, limits::BASE, view.params.base);
                    view.params.base = x;
                    n
                }
                "show" => match TableView::parse(v) {
                    Some(t) => {
                        view.show = t;
                        None
                    }
                    None => Some(Notice(format!(
                        "show = “{v}” is not one of both, heatmap, waves; showing both.",
                        v = crate::params::quote(v)
                    ))),
                },
                "layout" => match Layout::parse(v) {
                    Some(l) => {
                        view.params.layout = l;
                        None
                    }
                    None => Some(Notice(format!(
                        "layout = “{v}” is not one of interleaved, half; using interleaved.",
                        v = crate::params::quote(v)
                    ))),
                },
                "spacing" => match Spacing::parse(v) {
                    Some(s) => {
                        view.params.spacing = s;
                        None
                    }
                    None => Some(Notice(format!(
                        "spacing = “{v}” is not one of paper, fairseq (tensor2tensor's spacing); using paper.",
                        v = crate::params::quote(v)
                    ))),
                },
                "pos" => {
                    pos_text = Some(v.clone());
                    None
                }
                "dims" => {
                    dims_text = Some(v.clone());
                    None
                }
                "k" => {
                    let (x, n) = parse_usize("k (offset)", v, (0, MAX_SHIFT), DEFAULT_SHIFT);
                    view.shift = x;
                    n
                }
                "at" => {
                    let parts: Vec<&str> = v.split(',').collect();
                    if parts.len() == 3 {
                        let mut notice = None;
                        for (slot, text) in view.compare.iter_mut().zip(parts) {
                            let (x, n) =
                                parse_usize("at (positions)", text, (0, MAX_COMPARE), *slot);
                            *slot = x;
                            notice = notice.or(n);
                        }
                        notice
                    } else {
                        Some(Notice(format!(
                            "at = “{v}” is not three positions like 0,50,99; using 0,50,99.",
                            v = crate::params::quote(v)
                        )))
                    }
                }
                "rows" => {
                    let (span, n) = Span::parse("rows", v);
                    view.rows = span;
                    n
                }
                "cols" => {
                    let (span, n) = Span::parse("cols", v);
                    view.cols = span;
                    n
                }
                _ => None,
            };
            notices.extend(notice);
        }
        if let Some(text) = pos_text {
            let range = (0, view.params.positions - 1);
            let (x, n) = parse_usize("pos (position)", &text, range, 0);
            view.pos = x;
            notices.extend(n);
        }
        // Without `dims`, the default dimensions are still fitted to `d` (d = 2 keeps 0 and 1).
        match dims_text {
            Some(text) => {
                let (dims, n) = parse_dims(&text, view.params.dim);
                view.dims = dims;
                notices.extend(n);
            }
            None => view.dims = fit_dims(&view.dims, view.params.dim),
        }
        (view, notices)
    }

    /// The query pairs for this view, omitting values equal to the defaults so links stay short.
    pub fn to_query(&self) -> Vec<(&'static str, String)> {
        let d = SINUSOIDAL_DEFAULT;
        let p = &self.params;
        let mut out = Vec::new();
        if p.positions != d.positions {
            out.push(("n", p.positions.to_string()));
        }
        if p.dim != d.dim {
            out.push(("d", p.dim.to_string()));
        }
        if p.base != d.base {
            out.push(("base", format_number(p.base)));
        }
        if p.layout != d.layout {
            out.push(("layout", p.layout.as_str().to_string()));
        }
        if self.show != TableView::Both {
            out.push(("show", self.show.as_str().to_string()));
        }
        if p.spacing != d.spacing {
            out.push(("spacing", p.spacing.as_str().to_string()));
        }
        if self.pos != 0 {
            out.push(("pos", self.pos.to_string()));
        }
        if self.dims != DEFAULT_WAVE_DIMS {
            out.push(("dims", format_dims(&self.dims)));
        }
        if self.shift != DEFAULT_SHIFT {
            out.push(("k", self.shift.to_string()));
        }
        if self.compare != DEFAULT_COMPARE {
            out.push(("at", format_dims(&self.compare)));
        }
        if let Some(span) = self.rows {
            out.push(("rows", span.to_text()));
        }
        if let Some(span) = self.cols {
            out.push(("cols", span.to_text()));
        }
        out
    }
}

/// The order-blindness figure's view: the sentence and whether positions are added.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderView {
    /// The sentence (1 to 16 tokens after [`crate::math::attention::tokenize`]).
    pub sentence: String,
    /// Whether the sinusoidal encoding is added to the token embeddings.
    pub with_position: bool,
}

impl Default for OrderView {
    fn default() -> Self {
        OrderView {
            sentence: crate::math::attention::EXAMPLE.to_string(),
            with_position: false,
        }
    }
}

/// Checks a sentence for the toy attention: its tokens, or a notice saying why it was refused
/// (no words, or more than the limit).
pub fn check_sentence(text: &str) -> Result<Vec<String>, Notice> {
    super::check_length("The sentence", text)?;
    let tokens = crate::math::attention::tokenize(text);
    let (lo, hi) = limits::TOKENS;
    if tokens.len() < lo {
        Err(Notice("The sentence needs at least one word.".into()))
    } else if tokens.len() > hi {
        Err(Notice(format!(
            "The sentence has {} words; the toy attention takes at most {hi}. Keeping the previous one.",
            tokens.len()
        )))
    } else {
        Ok(tokens)
    }
}

impl OrderView {
    /// Reads `s` (sentence) and `pe` (`on`/`off`) from query pairs.
    pub fn from_query(pairs: &[(String, String)]) -> (OrderView, Vec<Notice>) {
        let mut view = OrderView::default();
        let mut notices = Vec::new();
        for (k, v) in pairs {
            match k.as_str() {
                "s" => match check_sentence(v) {
                    Ok(_) => view.sentence = v.clone(),
                    Err(n) => notices.push(n),
                },
                "pe" => match v.as_str() {
                    "on" => view.with_position = true,
                    "off" => view.with_position = false,
                    other => notices.push(Notice(format!(
                        "pe = “{other}” is not on or off; positions are off.",
                        other = crate::params::quote(other)
                    ))),
                },
                _ => {}
            }
        }
        (view, notices)
    }

    /// The query pairs, omitting defaults.
    pub fn to_query(&self) -> Vec<(&'static str, String)> {
        let d = OrderView::default();
        let mut out = Vec::new();
        if self.sentence != d.sentence {
            out.push(("s", self.sentence.clone()));
        }
        if self.with_position {
            out.push(("pe", "on".into()));
        }
        out
    }
}

/// The naive-fixes figure's view: the position whose sine collision is sought, and the tolerance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NaiveView {
    /// Position whose value `sin(pos)` is matched.
    pub pos: usize,
    /// Tolerance ε of the match.
    pub eps: f64,
}

/// Range of the collision finder's position.
pub const NAIVE_POS: (usize, usize) = (0, 10_000);

/// Range of the collision finder's tolerance.
pub const NAIVE_EPS: (f64, f64) = (1e-6, 0.1);

impl Default for NaiveView {
    fn default() -> Self {
        NaiveView { pos: 2, eps: 1e-3 }
    }
}

impl NaiveView {
    /// Reads `npos` and `eps` from query pairs.
    pub fn from_query(pairs: &[(String, String)]) -> (NaiveView, Vec<Notice>) {
        let mut view = NaiveView::default();
        let mut notices = Vec::new();
        for (k, v) in pairs {
            match k.as_str() {
                "npos" => {
                    let (x, n) = parse_usize("npos", v, NAIVE_POS, view.pos);
                    view.pos = x;
                    notices.extend(n);
                }
                "eps" => {
                    let (x, n) = parse_f64("eps", v, NAIVE_EPS, view.eps);
                    view.eps = x;
                    notices.extend(n);
                }
                _ => {}
            }
        }
        (view, notices)
    }

    /// The query pairs, omitting defaults.
    pub fn to_query(&self) -> Vec<(&'static str, String)> {
        let d = NaiveView::default();
        let mut out = Vec::new();
        if self.pos != d.pos {
            out.push(("npos", self.pos.to_string()));
        }
        if self.eps != d.eps {
            out.push(("eps", format_number(self.eps)));
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
    fn defaults_when_query_is_empty_and_default_view_writes_nothing() {
        let (view, notices) = SinusoidalView::from_query(&q(""));
        assert_eq!(view, SinusoidalView::default());
        assert!(notices.is_empty());
        assert!(view.to_query().is_empty());
    }

    #[test]
    fn out_of_range_values_are_clamped_with_notices() {
        let (view, notices) =
            SinusoidalView::from_query(&q("?n=5000&d=1&base=1e9&pos=99999&k=9999&at=1,2"));
        assert_eq!(view.params.positions, limits::POSITIONS.1);
        assert_eq!(view.params.dim, limits::DIM.0);
        assert_eq!(view.params.base, limits::BASE.1);
        assert_eq!(view.pos, limits::POSITIONS.1 - 1);
        assert_eq!(view.shift, MAX_SHIFT);
        assert_eq!(view.compare, DEFAULT_COMPARE);
        assert_eq!(notices.len(), 6, "{notices:?}");
    }

    #[test]
    fn default_wave_dims_are_fitted_to_a_small_d() {
        assert_eq!(SinusoidalView::from_query(&q("?d=2")).0.dims, vec![0, 1]);
        assert_eq!(SinusoidalView::from_query(&q("?d=8")).0.dims, vec![0, 1, 4]);
        assert_eq!(SinusoidalView::from_query(&q("?d=0")).0.dims, vec![0, 1]);
        assert_eq!(
            SinusoidalView::from_query(&q("")).0.dims,
            DEFAULT_WAVE_DIMS.to_vec()
        );
    }

    #[test]
    fn garbage_falls_back_to_defaults_with_notices() {
        let (view, notices) = SinusoidalView::from_query(&q(
            "n=abc&d=&base=NaN&layout=diagonal&spacing=x&pos=-3&show=table&zzz=1",
        ));
        assert_eq!(view.params.positions, 100);
        assert_eq!(view.params.dim, 128);
        assert_eq!(view.params.base, 10_000.0);
        assert_eq!(view.params.layout, Layout::Interleaved);
        assert_eq!(view.show, TableView::Both);
        assert_eq!(view.pos, 0);
        assert_eq!(notices.len(), 7, "{notices:?}");
    }

    #[test]
    fn a_view_survives_the_url() {
        let view = SinusoidalView {
            params: SinusoidalParams {
                positions: 512,
                dim: 64,
                base: 500.5,
                layout: Layout::Half,
                spacing: Spacing::Fairseq,
            },
            show: TableView::Waves,
            pos: 77,
            dims: vec![3, 0, 63],
            shift: 17,
            compare: [3, 1, 2000],
            rows: Some(Span { from: 10, to: 20 }),
            cols: Some(Span { from: 0, to: 7 }),
        };
        let pairs = view.to_query();
        let (back, notices) = SinusoidalView::from_query(&parse_query(&build_query(&pairs)));
        assert_eq!(back, view);
        assert!(notices.is_empty());
        let mut written: Vec<&str> = pairs.iter().map(|(k, _)| *k).collect();
        written.extend(
            OrderView {
                sentence: "a b".into(),
                with_position: true,
            }
            .to_query()
            .iter()
            .map(|(k, _)| *k),
        );
        written.extend(
            NaiveView { pos: 3, eps: 0.01 }
                .to_query()
                .iter()
                .map(|(k, _)| *k),
        );
        for k in written {
            assert!(KEYS.contains(&k), "{k} is written but not declared");
        }
    }

    #[test]
    fn dims_are_parsed_filtered_and_reported() {
        assert_eq!(parse_dims("0, 1 4;21", 128), (vec![0, 1, 4, 21], None));
        let (dims, notice) = parse_dims("5,5,200,x,-1,2", 128);
        assert_eq!(dims, vec![5, 2]);
        let text = notice.expect("reports what it dropped").0;
        assert!(
            text.contains("200") && text.contains('x') && text.contains("-1"),
            "{text}"
        );
        assert_eq!(parse_dims("", 4).0, vec![0, 1]);
        assert_eq!(parse_dims("99", 2).0, vec![0, 1]);
        let (many, notice) = parse_dims("0,1,2,3,4,5,6,7,8,9", 128);
        assert_eq!(many.len(), MAX_WAVE_DIMS);
        assert!(notice.is_some());
        assert_eq!(fit_dims(&[21, 0, 21, 300], 64), vec![21, 0]);
        assert_eq!(format_dims(&[0, 1, 4, 21]), "0,1,4,21");
    }

    #[test]
    fn spans_parse_fit_and_report() {
        assert_eq!(
            Span::parse("rows", "5-2"),
            (Some(Span { from: 2, to: 5 }), None)
        );
        let (span, notice) = Span::parse("rows", "7");
        assert_eq!(span, None);
        assert!(notice.is_some());
        assert_eq!(Span { from: 10, to: 500 }.fit(100), 10..100);
        assert_eq!(Span { from: 300, to: 500 }.fit(100), 99..100);
        assert_eq!(Span { from: 0, to: 0 }.fit(1), 0..1);
    }

    #[test]
    fn sentences_are_checked_and_survive_the_url() {
        let long = ["word"; 17].join(" ");
        assert!(check_sentence(&long).is_err());
        assert!(check_sentence(" ,, ").is_err());
        assert_eq!(
            check_sentence("Dog bites man.").unwrap(),
            vec!["dog", "bites", "man"]
        );
        let (view, notices) = OrderView::from_query(&q(&format!("s={}&pe=maybe", long)));
        assert_eq!(view, OrderView::default());
        assert_eq!(notices.len(), 2);
        let view = OrderView {
            sentence: "man bites dog".into(),
            with_position: true,
        };
        let back = OrderView::from_query(&parse_query(&build_query(&view.to_query())));
        assert_eq!(back, (view, vec![]));
    }

    #[test]
    fn naive_view_clamps_and_round_trips() {
        let (view, notices) = NaiveView::from_query(&q("npos=-4&eps=5"));
        assert_eq!(view, NaiveView { pos: 0, eps: 0.1 });
        assert_eq!(notices.len(), 2);
        let view = NaiveView {
            pos: 77,
            eps: 2.5e-4,
        };
        let back = NaiveView::from_query(&parse_query(&build_query(&view.to_query())));
        assert_eq!(back, (view, vec![]));
    }
}
