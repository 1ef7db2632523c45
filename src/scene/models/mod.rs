//! Chapter 5's figures ("RoPE as today's models ship it") as data: for the model a link names,
//! each layer as a bar of the keys its query attends to (fig-models-layers), the KV cache of the
//! pattern against every layer full over the context (fig-models-cache), and the keys a query
//! reaches layer by layer (fig-models-sees). The page's components draw the same specs.

mod partial;
mod precision;
mod stale;
mod temperature;
mod yarn;
pub use partial::{
    PartialLayer, Passed, drawn, log_wavelength, outward, partial_height, partial_layer,
    partial_spec,
};
pub use precision::{Rotary, Skipped, errors, positions, precision_height, precision_spec, rotary};
pub use stale::{StaleRope, error_y, stale_height, stale_rope, stale_spec};
pub use temperature::{
    STEPS_ACROSS, beam_curve, readout_positions, staircase, temperature_height, temperature_spec,
};
pub use yarn::{factors as yarn_factors, top_factor, yarn_height, yarn_spec};

use super::{Height, Panel};
use crate::chart::lines::{Corner, Extras, Fill, LinePlotSpec, Series, series_color};
use crate::chart::theme::Theme;
use crate::explain::models::{BYTES_PER_NUMBER, Kind};
use crate::math::layers::kv::cache_bytes;
use crate::math::layers::{Model, earliest_reached};
use crate::params::Views;
use crate::params::models::{Shown, TOKENS};

/// The foot of the strip's bars on its logarithmic axis: log₁₀ ½.
const FLOOR: f64 = -std::f64::consts::LOG10_2;

/// Half the width of a layer's bar, in layers.
const HALF_BAR: f64 = 0.38;

/// The colour of layer kind `kind` (the same in every figure of the chapter).
pub fn kind_color(kind: Kind) -> plotters::style::RGBColor {
    series_color(match kind {
        Kind::Full => 0,
        Kind::FullNoRope => 4,
        Kind::Sliding => 2,
        Kind::SlidingNoRope => 1,
        Kind::Chunked => 3,
        Kind::ChunkedNoRope => 6,
    })
}

/// A rectangle `x0 … x1` by `y0 … y1` as a band with no legend entry.
fn rect(color: plotters::style::RGBColor, (x0, x1): (f64, f64), (y0, y1): (f64, f64)) -> Fill {
    Fill {
        label: String::new(),
        color,
        lower: vec![(x0, y0), (x1, y0)],
        upper: vec![(x0, y1), (x1, y1)],
    }
}

/// One dot series per kind present, at `points(layer index)`, labelled with the kind.
fn kind_dots(model: &Model, point: impl Fn(usize) -> (f64, f64)) -> Vec<Series> {
    Kind::ALL
        .iter()
        .filter_map(|&kind| {
            let points: Vec<(f64, f64)> = model
                .layers
                .iter()
                .enumerate()
                .filter(|(_, l)| Kind::of(l) == kind)
                .map(|(i, _)| point(i))
                .collect();
            (!points.is_empty()).then(|| Series {
                label: kind.label().to_string(),
                color: kind_color(kind),
                points,
                dots: true,
                line: false,
            })
        })
        .collect()
}

// ------------------------------------------------------------------ fig-models-layers

/// The strip's height.
pub fn layers_height(width: f64) -> f64 {
    (width * 0.42).clamp(260.0, 340.0)
}

/// The keys the query at `query` attends to in each layer (1 … query + 1).
pub fn keys_seen(model: &Model, query: usize) -> Vec<usize> {
    model
        .layers
        .iter()
        .map(|l| query - l.visible(query).start() + 1)
        .collect()
}

/// fig-models-layers: a bar per layer, as tall as the keys the query at `query` attends to there
/// (a logarithmic axis), coloured by the layer's kind; the chosen layer marked.
pub fn layers_spec(
    model: &Model,
    name: &str,
    query: usize,
    chosen: usize,
    theme: Theme,
) -> (LinePlotSpec, Extras) {
    let seen = keys_seen(model, query);
    let y = |k: usize| (k as f64).log10();
    let fills = model
        .layers
        .iter()
        .zip(&seen)
        .enumerate()
        .map(|(i, (l, &k))| {
            let x = i as f64;
            rect(
                kind_color(Kind::of(l)),
                (x - HALF_BAR, x + HALF_BAR),
                (FLOOR, y(k)),
            )
        })
        .collect();
    let n = model.layers.len();
    let spec = LinePlotSpec {
        title: format!("{name}: what each layer does"),
        x_desc: "layer",
        y_desc: "keys the query attends to",
        x_range: -0.6..(n as f64 - 0.4),
        // From half a key (a bar of one key has a height) to at least 10 keys.
        y_range: FLOOR..y(query + 1).max(1.0) + 0.05,
        series: kind_dots(model, |i| (i as f64, y(seen[i]))),
        marker: (chosen < n).then(|| (chosen as f64, format!("layer {chosen}"))),
        theme,
    };
    let extras = Extras {
        fills,
        y_log: true,
        legend: Corner::BottomRight,
        ..Extras::default()
    };
    (spec, extras)
}

// ------------------------------------------------------------------ fig-models-cache

/// The cache plot's height.
pub fn cache_height(width: f64) -> f64 {
    (width * 0.45).clamp(260.0, 340.0)
}

/// Points of the cache plot: 160 lengths spread evenly on the logarithmic axis over the
/// chapter's range of tokens, every window and chunk (where the pattern's curve bends), and
/// `tokens` itself, ascending.
pub fn cache_lengths(model: &Model, tokens: usize) -> Vec<usize> {
    let (lo, hi) = (TOKENS.0 as f64, TOKENS.1 as f64);
    let mut at: Vec<usize> = (0..160)
        .map(|k| (lo * (hi / lo).powf(k as f64 / 159.0)).round() as usize)
        .chain(model.layers.iter().filter_map(|l| l.window))
        .chain(
            model
                .layers
                .iter()
                .filter_map(|l| l.window.map(|w| w.saturating_sub(1))),
        )
        .chain([tokens])
        .filter(|t| (TOKENS.0..=TOKENS.1).contains(t))
        .collect();
    at.sort_unstable();
    at.dedup();
    at
}

/// fig-models-cache: the KV cache in MiB (bfloat16) against the tokens so far, both axes
/// logarithmic, with the model's pattern and with every layer full; `tokens` marked.
pub fn cache_spec(
    model: &Model,
    name: &str,
    tokens: usize,
    theme: Theme,
) -> (LinePlotSpec, Extras) {
    let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
    let lengths = cache_lengths(model, tokens);
    let (mut pattern, mut full) = (Vec::new(), Vec::new());
    for &t in &lengths {
        let b = cache_bytes(&model.layers, &model.widths, t, BYTES_PER_NUMBER);
        let x = (t as f64).log10();
        pattern.push((x, mib(b.pattern).log10()));
        full.push((x, mib(b.all_full).log10()));
    }
    let lo = pattern
        .iter()
        .chain(&full)
        .map(|p| p.1)
        .fold(f64::INFINITY, f64::min);
    let hi = full.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
    // A little room above and below the curves (both finite: every length is at least 16).
    let (lo, hi) = if lo.is_finite() && hi.is_finite() {
        (lo - 0.1, hi.max(lo + 1.0) + 0.1)
    } else {
        (0.0, 1.0)
    };
    let spec = LinePlotSpec {
        title: format!("{name}: the KV cache"),
        x_desc: "tokens in the context",
        y_desc: "KV cache, MiB (bfloat16)",
        x_range: (TOKENS.0 as f64).log10()..(TOKENS.1 as f64).log10(),
        y_range: lo..hi,
        series: vec![
            Series {
                label: "every layer full".into(),
                color: series_color(1),
                points: full,
                dots: false,
                line: true,
            },
            Series {
                label: "the model's pattern".into(),
                color: series_color(0),
                points: pattern,
                dots: false,
                line: true,
            },
        ],
        marker: Some(((tokens as f64).log10(), format!("{tokens} tokens"))),
        theme,
    };
    let extras = Extras {
        x_log: true,
        y_log: true,
        legend: Corner::TopLeft,
        ..Extras::default()
    };
    (spec, extras)
}

// ------------------------------------------------------------------ fig-models-sees

/// The reach plot's height: the same for every model (a model with more layers gets thinner
/// bars), so choosing another model does not move the page below.
pub fn sees_height(width: f64) -> f64 {
    (width * 0.62).clamp(340.0, 480.0)
}

/// Per layer, from the lowest: the first key the query at `query` attends to there, and the
/// earliest position that reaches it through that layer and the ones below.
pub fn reach(model: &Model, query: usize) -> Vec<(usize, usize)> {
    (0..model.layers.len())
        .map(|i| {
            let direct = *model.layers[i].visible(query).start();
            (direct, earliest_reached(&model.layers[..=i], query))
        })
        .collect()
}

/// fig-models-sees: per layer (the lowest at the bottom), the keys the query at `query`
/// attends to (a bar in the layer's colour) and, before them, the positions that reach it only
/// through the layers below (grey); the chosen layer marked.
pub fn sees_spec(
    model: &Model,
    name: &str,
    query: usize,
    chosen: usize,
    theme: Theme,
) -> (LinePlotSpec, Extras) {
    let n = model.layers.len();
    let right = query as f64 + 0.5;
    let mut fills = Vec::new();
    let mut legend = "reached only through the layers below";
    for (i, (l, (direct, through))) in model.layers.iter().zip(reach(model, query)).enumerate() {
        let y = (i as f64 - HALF_BAR, i as f64 + HALF_BAR);
        if through < direct {
            let mut band = rect(theme.axis, (through as f64 - 0.5, direct as f64 - 0.5), y);
            band.label = std::mem::take(&mut legend).to_string();
            fills.push(band);
        }
        fills.push(rect(
            kind_color(Kind::of(l)),
            (direct as f64 - 0.5, right),
            y,
        ));
    }
    let spec = LinePlotSpec {
        title: format!("{name}: what position {query} sees"),
        x_desc: "key position",
        y_desc: "layer",
        x_range: -0.5..right.max(1.5),
        y_range: -0.6..(n as f64 - 0.4),
        series: kind_dots(model, |i| (query as f64, i as f64)),
        marker: None,
        theme,
    };
    let extras = Extras {
        fills,
        hlines: if chosen < n {
            vec![(chosen as f64, format!("layer {chosen}"))]
        } else {
            Vec::new()
        },
        legend: Corner::TopLeft,
        ..Extras::default()
    };
    (spec, extras)
}

// ------------------------------------------------------------------ builders

fn lines((spec, extras): (LinePlotSpec, Extras), height: Height) -> (Panel, Height) {
    (Panel::Lines(spec, extras), height)
}

/// fig-models-layers.
pub fn layers(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let m = &v.models;
    let Shown { model, name, .. } = m.shown();
    let chosen = m.chosen_layer().min(model.layers.len().saturating_sub(1));
    let spec = layers_spec(&model, name, m.chosen_query(), chosen, theme);
    vec![lines(spec, Height::Rule(layers_height))]
}

/// fig-models-cache.
pub fn cache(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let Shown { model, name, .. } = v.models.shown();
    let spec = cache_spec(&model, name, v.models.tokens, theme);
    vec![lines(spec, Height::Rule(cache_height))]
}

/// fig-models-sees.
pub fn sees(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let m = &v.models;
    let Shown { model, name, .. } = m.shown();
    let chosen = m.chosen_layer().min(model.layers.len().saturating_sub(1));
    let spec = sees_spec(&model, name, m.chosen_query(), chosen, theme);
    vec![lines(spec, Height::Rule(sees_height))]
}

/// fig-models-partial.
pub fn partial(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let m = &v.models;
    let shown = m.shown();
    let layer = partial_layer(&shown.config, &shown.model, m.chosen_layer());
    let p = layer.map(|l| (l.layer, drawn(&l, m.fraction)));
    let spec = partial_spec(
        p.as_ref().map(|(i, p)| (*i, p)).map_err(String::as_str),
        None,
        theme,
    );
    vec![lines(spec, Height::Rule(partial_height))]
}

/// fig-models-temperature.
pub fn temperature(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let m = &v.models;
    let shown = m.shown();
    let of = crate::math::temperature::of_model(&shown.model.model_type, &shown.model.fields);
    let llama = crate::math::temperature::drawn(of.as_ref());
    let spec = temperature_spec(&llama, m.tokens, m.chosen_query(), theme);
    vec![lines(spec, Height::Rule(temperature_height))]
}

/// fig-models-yarn: the chosen layer's YaRN fields, or DeepSeek-V3's when it is not YaRN.
pub fn yarn(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let m = &v.models;
    let y = crate::math::yarn_scale::of_layer(&m.shown().model, m.chosen_layer())
        .unwrap_or(crate::math::yarn_scale::DEEPSEEK_V3);
    let (spec, extras) = yarn_spec(&y, None, theme);
    vec![lines((spec, extras), Height::Rule(yarn_height))]
}

/// fig-models-precision.
pub fn precision(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let m = &v.models;
    let shown = m.shown();
    let rot = rotary(&shown.config, &shown.model, m.chosen_layer());
    let spec = precision_spec(rot.as_ref(), m.pair, m.dtype, m.tokens, None, theme);
    vec![lines(spec, Height::Rule(precision_height))]
}

/// fig-models-stale: the chosen layer's dynamic or LongRoPE frequencies, else the example.
pub fn stale(v: &Views, theme: Theme) -> Vec<(Panel, Height)> {
    let m = &v.models;
    let shown = m.shown();
    let r = stale_rope(&shown.config, &shown.model, m.chosen_layer(), m.regime);
    let c = crate::math::cached_keys::CachedKey::of(&r.scaling, m.key, m.chosen_query());
    let spec = stale_spec(&c, r.regime, None, theme);
    vec![lines(spec, Height::Rule(stale_height))]
}

/// Chapter 5's picture builders, by figure id, in the book's order.
pub const PICTURES: &[(&str, super::Build)] = &[
    ("fig-models-layers", layers),
    ("fig-models-cache", cache),
    ("fig-models-sees", sees),
    ("fig-models-partial", partial),
    ("fig-models-temperature", temperature),
    ("fig-models-yarn", yarn),
    ("fig-models-precision", precision),
    ("fig-models-stale", stale),
];
