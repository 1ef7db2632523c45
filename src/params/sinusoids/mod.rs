//! Chapter 1, "Order and sinusoids": its URL keys (unprefixed, as chapter 1 shipped them:
//! `n`, `d`, `base`, `layout`, `spacing`, `show`, `pos`, `dims`, `k`, `at`, `rows`, `cols`, `s`, `pe`,
//! `npos`, `eps`) and the views they parse into.

mod toy;

pub use toy::*;

use super::decl::{self, float, int, named, own};
use super::listed::{declared, view_struct};
use super::{Notice, parse_usize};
use crate::math::limits;
use crate::math::sinusoidal::{Layout, SinusoidalParams, Spacing};

/// Every key chapter 1 reads, from its three tables (no prefix: these links were shared before
/// the book had chapters).
pub fn keys() -> impl Iterator<Item = &'static str> {
    TABLE
        .keys()
        .chain(ORDER_TABLE.keys())
        .chain(NAIVE_TABLE.keys())
}

/// Whether chapter 1 reads `key`.
pub fn has(key: &str) -> bool {
    keys().any(|k| k == key)
}

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

crate::params::listed::fields! { $
    /// Chapter 1's parameters, each one row ([`super::listed`]): [`SinusoidalView`], its [`TABLE`]
    /// and the app's signals are written from this list. The encoding's `params` are the view's
    /// own (the app holds one signal per parameter of [`SinusoidalParams`]), under five keys.
    sinusoidal_fields
    listed {
        /// Which of the table's two views are shown.
        show: crate::params::TableView = TableView::Both => named!("show", TableView),
        /// The highlighted position (row), always `< params.positions`.
        pos: usize = 0 => int_within!("pos", "pos (position)", |v| {
            (0, v.params.positions - 1)
        }),
        /// Dimensions plotted as waves (distinct, each `< params.dim`, at most
        /// [`crate::params::MAX_WAVE_DIMS`]).
        dims: Vec<usize> = DEFAULT_WAVE_DIMS.to_vec() => [own("dims", read_dims, |v| {
            format_dims(&v.dims)
        })
        .late()],
        /// The offset `k` of the relative-shift figure.
        shift: usize = DEFAULT_SHIFT => int!("k", "k (offset)", (0, MAX_SHIFT)),
        /// The positions of the adding-to-a-token figure: a reference and two others.
        compare: [usize; 3] = DEFAULT_COMPARE => list!(
            "at",
            "at (positions)",
            parse_usize,
            (0, MAX_COMPARE),
            "three positions like 0,50,99"
        ),
        /// The heatmap's rows (positions) shown; `None` = all.
        rows: Option<crate::params::Span> = None => [own::<SinusoidalView>(
            "rows",
            |v, t| read_span(&mut v.rows, "rows", t),
            |v| v.rows.map(Span::to_text).unwrap_or_default(),
        )
        .omit_when(|v| v.rows.is_none())],
        /// The heatmap's columns (dimensions) shown; `None` = all.
        cols: Option<crate::params::Span> = None => [own::<SinusoidalView>(
            "cols",
            |v, t| read_span(&mut v.cols, "cols", t),
            |v| v.cols.map(Span::to_text).unwrap_or_default(),
        )
        .omit_when(|v| v.cols.is_none())],
    }
    own {
        /// What to compute.
        params: crate::math::sinusoidal::SinusoidalParams = SINUSOIDAL_DEFAULT => [
            int!("n", "n (positions)", limits::POSITIONS, params.positions),
            int!("d", "d (d_model)", limits::DIM, params.dim),
            float!("base", "base", limits::BASE, params.base),
            named!("layout", Layout, params.layout),
            named!("spacing", Spacing, params.spacing; "(tensor2tensor's spacing)"),
        ],
    }
}
#[cfg_attr(not(target_arch = "wasm32"), allow(unused_imports))] // read by the app's state
pub(crate) use sinusoidal_fields;

sinusoidal_fields!(view_struct {
    /// The sinusoidal chapter's view: the encoding's parameters, the highlighted position and the
    /// dimensions drawn as waves.
    #[derive(Clone, Debug, PartialEq)]
    SinusoidalView
});

crate::names::named! {
    /// The encoding table seen as a heatmap (rows = positions), as waves (columns = dimensions), or
    /// both, linked.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
    pub enum TableView {
        /// The heatmap and the waves, one above the other (hovering a heatmap column adds its wave).
        #[default]
        Both = "both",
        /// The heatmap alone.
        Heatmap = "heatmap",
        /// The waves alone.
        Waves = "waves",
    }
}

impl TableView {
    /// Whether the heatmap is shown.
    pub fn heatmap(self) -> bool {
        self != TableView::Waves
    }

    /// Whether the waves are shown.
    pub fn waves(self) -> bool {
        self != TableView::Heatmap
    }
}

/// Keeps the distinct dimensions below `dim`, at most
/// [`crate::params::MAX_WAVE_DIMS`], in order; when none is
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
    decl::write_list(dims)
}

sinusoidal_fields!(rows declared {
    TABLE SinusoidalView,
    // The position stays below the positions; without `dims`, the default dimensions are still
    // fitted to `d` (d = 2 keeps 0 and 1).
    |v| {
        v.pos = v.pos.min(v.params.positions - 1);
        v.dims = fit_dims(&v.dims, v.params.dim);
    };
});

/// Reads the dimensions drawn as waves (`dims`), after `d`.
fn read_dims(v: &mut SinusoidalView, text: &str) -> Option<Notice> {
    let (dims, notice) = parse_dims(text, v.params.dim);
    v.dims = dims;
    notice
}

/// Reads a heatmap zoom (`rows`, `cols`) into `slot`.
fn read_span(slot: &mut Option<Span>, what: &str, text: &str) -> Option<Notice> {
    let (span, notice) = Span::parse(what, text);
    *slot = span;
    notice
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Declared;
    use crate::params::{build_query, parse_query, parse_query as q};

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
            assert!(has(k), "{k} is written but not declared");
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
}
