//! The app's state: typed, validated parameters in signals, read from the URL at start.
//!
//! Parsing and clamping live in [`crate::params`] (pure, tested natively); this module only holds
//! the results in signals and collects the notices the page shows.

pub mod context;
pub mod models;
pub mod rope;
mod signals;
pub mod tables;
pub mod vision;

use leptos::prelude::*;

use signals::view_signals;

use crate::math::sinusoidal::{Layout, SinusoidalParams, Spacing};
use crate::params::context::ContextView;
use crate::params::models::ModelsView;
use crate::params::rope::RopeView;
use crate::params::tables::TablesView;
use crate::params::vision::VisionView;
use crate::params::{NaiveView, Notice, OrderView, SinusoidalView, Views};
#[cfg(doc)]
use {
    context::ContextState, models::ModelsState, rope::RopeState, tables::TablesState,
    vision::VisionState,
};

/// Messages about inputs that were clamped or refused, shown in the notice bar until dismissed.
#[derive(Clone, Copy)]
pub struct Notices(pub RwSignal<Vec<String>>);

impl Notices {
    /// Adds a notice (a repeat of the newest one is not added twice).
    pub fn push(&self, notice: Notice) {
        self.0.update(|list| {
            if list.last() != Some(&notice.0) {
                list.push(notice.0);
            }
        });
    }
}

crate::params::sinusoids::sinusoidal_fields!(view_signals {
    /// The sinusoidal chapter's controls besides the encoding's parameters, one signal per
    /// parameter of [`SinusoidalView`]. Read `pos` through [`SinusoidalState::current_pos`] and
    /// `dims` through [`SinusoidalState::wave_dims`] (they may exceed the current sizes).
    pub struct SinusoidalSignals for SinusoidalView;
    /// The sinusoidal chapter's state: the encoding's parameters, the signals of
    /// [`SinusoidalSignals`] as its own fields, and what every figure derives from them.
    pub struct SinusoidalState {
        /// Number of positions (rows).
        pub positions: RwSignal<usize>,
        /// d_model (columns).
        pub dim: RwSignal<usize>,
        /// Base of the geometric frequency progression.
        pub base: RwSignal<f64>,
        /// Interleaved or half-split.
        pub layout: RwSignal<Layout>,
        /// Paper or fairseq spacing.
        pub spacing: RwSignal<Spacing>,
        /// The heatmap column under the pointer or keyboard cursor (UI state: not in the URL).
        pub hover_dim: RwSignal<Option<usize>>,
        derived: Derived,
    }
});

/// What is derived from the chapter's signals, memoised once for every figure that reads it.
#[derive(Clone, Copy)]
struct Derived {
    params: Memo<SinusoidalParams>,
    current_pos: Memo<usize>,
    wave_dims: Memo<Vec<usize>>,
    row_range: Memo<std::ops::Range<usize>>,
    col_range: Memo<std::ops::Range<usize>>,
}

impl SinusoidalState {
    /// Signals holding `view`, and the memos derived from them.
    pub fn new(view: SinusoidalView) -> Self {
        let p = view.params;
        let positions = RwSignal::new(p.positions);
        let dim = RwSignal::new(p.dim);
        let base = RwSignal::new(p.base);
        let layout = RwSignal::new(p.layout);
        let spacing = RwSignal::new(p.spacing);
        let signals = SinusoidalSignals::new(view);
        let SinusoidalSignals {
            pos,
            dims,
            rows,
            cols,
            ..
        } = signals;
        let derived = Derived {
            params: Memo::new(move |_| SinusoidalParams {
                positions: positions.get(),
                dim: dim.get(),
                base: base.get(),
                layout: layout.get(),
                spacing: spacing.get(),
            }),
            current_pos: Memo::new(move |_| pos.get().min(positions.get().saturating_sub(1))),
            wave_dims: Memo::new(move |_| {
                let d = dim.get();
                dims.with(|dims| crate::params::fit_dims(dims, d))
            }),
            row_range: Memo::new(move |_| {
                let n = positions.get();
                rows.get().map_or(0..n, |s| s.fit(n))
            }),
            col_range: Memo::new(move |_| {
                let d = dim.get();
                cols.get().map_or(0..d, |s| s.fit(d))
            }),
        };
        SinusoidalState::assemble(
            signals,
            positions,
            dim,
            base,
            layout,
            spacing,
            RwSignal::new(None), // hover_dim: none
            derived,
        )
    }

    /// The encoding's parameters (recomputed only when one of them changes).
    pub fn params(self) -> Memo<SinusoidalParams> {
        self.derived.params
    }

    /// The highlighted position, kept below the number of positions.
    pub fn current_pos(self) -> Memo<usize> {
        self.derived.current_pos
    }

    /// The wave dimensions that exist at the current d_model (the defaults that fit if none do).
    pub fn wave_dims(self) -> Memo<Vec<usize>> {
        self.derived.wave_dims
    }

    /// The rows the heatmap shows, fitted to the current number of positions.
    pub fn row_range(self) -> Memo<std::ops::Range<usize>> {
        self.derived.row_range
    }

    /// The columns the heatmap shows, fitted to the current d_model.
    pub fn col_range(self) -> Memo<std::ops::Range<usize>> {
        self.derived.col_range
    }

    /// The whole view, for the URL.
    pub fn view(self) -> Memo<SinusoidalView> {
        let params = self.params();
        let pos = self.current_pos();
        let dims = self.wave_dims();
        Memo::new(move |_| SinusoidalView {
            pos: pos.get(),
            dims: dims.get(),
            ..self.tracked(params.get())
        })
    }
}

crate::params::sinusoids::order_fields!(view_signals {
    /// The order-blindness figure's state, one signal per parameter of [`OrderView`] (the
    /// sentence is always valid: refused input never reaches it).
    pub struct OrderState for OrderView
});

impl OrderState {
    /// The view, for the URL.
    pub fn view(self) -> Memo<OrderView> {
        Memo::new(move |_| self.tracked())
    }
}

crate::params::sinusoids::naive_fields!(view_signals {
    /// The naive-fixes figure's state, one signal per parameter of [`NaiveView`].
    pub struct NaiveState for NaiveView
});

impl NaiveState {
    /// The view, for the URL.
    pub fn view(self) -> Memo<NaiveView> {
        Memo::new(move |_| self.tracked())
    }
}

/// A later chapter's state comes into being (its code calls this when it arrives, before building
/// anything): `new` makes its signals from the view the link holds (`link`), the chapter's
/// components find it as context, and an effect keeps `link` current. In a build split by chapter
/// this is what keeps the chapter's state, and everything it derives, out of the main module.
pub fn enter<S, V>(link: RwSignal<V>, new: fn(V) -> S, view: fn(S) -> Memo<V>)
where
    S: Clone + Send + Sync + 'static,
    V: Clone + PartialEq + Send + Sync + 'static,
{
    let state = new(link.get_untracked());
    let current = view(state.clone());
    provide_context(state);
    Effect::new(move |_| {
        let now = current.get();
        if link.with_untracked(|held| *held != now) {
            link.set(now);
        }
    });
}

/// Everything the page holds, created once from the URL.
#[derive(Clone, Copy)]
pub struct AppState {
    /// The sinusoidal chapter.
    pub sinusoidal: SinusoidalState,
    /// The order-blindness figure.
    pub order: OrderState,
    /// The naive-fixes figure.
    pub naive: NaiveState,
    /// Chapter 2, RoPE: the view the link holds. The chapter's own state ([`RopeState`]) is made
    /// by its code when it arrives ([`enter`]) and keeps this current.
    pub rope: RwSignal<RopeView>,
    /// Chapter 3, context extension: the same, for [`ContextState`].
    pub context: RwSignal<ContextView>,
    /// Chapter 4, tables and biases: the same, for [`TablesState`].
    pub tables: RwSignal<TablesView>,
    /// Chapter 5, today's models: the same, for [`ModelsState`].
    pub models: RwSignal<ModelsView>,
    /// Chapter 6, beyond a line: the same, for [`VisionState`].
    pub vision: RwSignal<VisionView>,
    /// Notices for the reader.
    pub notices: Notices,
}

impl AppState {
    /// The state described by query `pairs`, clamping what it must (with notices).
    pub fn from_query(pairs: &[(String, String)]) -> Self {
        let (views, notices) = Views::from_query(pairs);
        AppState {
            sinusoidal: SinusoidalState::new(views.sinusoidal),
            order: OrderState::new(views.order),
            naive: NaiveState::new(views.naive),
            rope: RwSignal::new(views.rope),
            context: RwSignal::new(views.context),
            tables: RwSignal::new(views.tables),
            models: RwSignal::new(views.models),
            vision: RwSignal::new(views.vision),
            notices: Notices(RwSignal::new(notices.into_iter().map(|n| n.0).collect())),
        }
    }
}
