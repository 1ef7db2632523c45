//! Reusable controls: native range inputs with a label and an exact-value box, and radio groups.
//! Every control is keyboard-operable (native inputs), labelled, and writes one signal; typed values
//! are clamped through [`crate::params`] with a notice — never a panic.

use leptos::html::Input;
use leptos::prelude::*;
use web_sys::HtmlInputElement;

use super::state::Notices;
use crate::params::{self, format_number, round_significant};

/// Sets the text of the `<input>` an event came from (after clamping, the box shows what was used).
fn show_in_box(ev: &leptos::ev::Event, text: &str) {
    event_target::<HtmlInputElement>(ev).set_value(text);
}

/// Keeps `input` showing `text()`, writing its value only when it differs from what it shows.
/// (Leptos's `prop:value` writes on every change, and a form control's value setter is slow —
/// 0.09 ms for a range, 0.15 ms for a number box in headless Chromium, measured — while the
/// slider being dragged already shows its new value.)
pub fn show_value(input: NodeRef<Input>, text: impl Fn() -> String + 'static) {
    Effect::new(move |_| {
        let text = text();
        if let Some(el) = input.get()
            && el.value() != text
        {
            el.set_value(&text);
        }
    });
}

/// Two signals that edit the two entries of `pair` (a vector's x and y, a view's yaw and pitch)
/// with one control each: they follow `pair`, and `pair` follows them.
pub fn split_pair(pair: RwSignal<[f64; 2]>) -> (RwSignal<f64>, RwSignal<f64>) {
    let [a0, b0] = pair.get_untracked();
    let (a, b) = (RwSignal::new(a0), RwSignal::new(b0));
    Effect::new(move |_| {
        let [x, y] = pair.get();
        a.set(x);
        b.set(y);
    });
    Effect::new(move |_| {
        let next = [a.get(), b.get()];
        if pair.get_untracked() != next {
            pair.set(next);
        }
    });
    (a, b)
}

/// What a slider's exact box does with a committed text: sets the value (parsed, clamped,
/// snapped) and returns the text the box shows for it, with the notice for a value that changed.
type OnText = Box<dyn Fn(&str) -> (String, Option<params::Notice>)>;

/// The `min`, `max` and `step` attributes of one of a slider's two inputs.
struct Bounds {
    min: Signal<String>,
    max: Signal<String>,
    step: String,
}

impl Bounds {
    /// Fixed bounds.
    fn fixed(min: impl ToString, max: impl ToString, step: impl ToString) -> Bounds {
        Bounds {
            min: Signal::stored(min.to_string()),
            max: Signal::stored(max.to_string()),
            step: step.to_string(),
        }
    }
}

/// What a slider with an exact-value box shows and does, as each kind of slider fills it in
/// ([`IntSlider`], [`LengthSlider`], [`FloatSlider`], [`LogSlider`]); [`slider_view`] draws them
/// all. The range moves in the slider's own units (the value, its log₁₀ or its log₂), the box
/// in the value's.
struct SliderSpec {
    /// Visible label, also used in notices and in the box's accessible name.
    label: &'static str,
    /// The range's element id; the box's is `{id}-value`.
    id: &'static str,
    /// The range's bounds (slider units) and the box's (value units).
    range: Bounds,
    exact: Bounds,
    /// Where the range stands, and what the box shows, for the current value.
    position: Signal<String>,
    text: Signal<String>,
    /// The range's `aria-valuetext`, where its position is not the value itself.
    valuetext: Option<Signal<String>>,
    /// The range moved to a position (its text): set the value.
    on_position: Box<dyn Fn(&str)>,
    /// The box committed a text.
    on_text: OnText,
}

/// The view of every slider: a label, the range and the exact-value box. Built once, for every
/// kind of slider (the spec holds its closures as `dyn`).
fn slider_view(spec: SliderSpec) -> AnyView {
    let notices = expect_context::<Notices>();
    let SliderSpec {
        label,
        id,
        range: r,
        exact: x,
        position,
        text,
        valuetext,
        on_position,
        on_text,
    } = spec;
    let (range, number) = (NodeRef::<Input>::new(), NodeRef::<Input>::new());
    show_value(range, move || position.get());
    show_value(number, move || text.get());
    let on_number = move |ev: leptos::ev::Event| {
        let (shown, notice) = on_text(&event_target_value(&ev));
        if let Some(n) = notice {
            notices.push(n);
        }
        show_in_box(&ev, &shown);
    };
    view! {
        <div class="control">
            <label for=id>{label}</label>
            <input
                node_ref=range
                type="range"
                id=id
                min=r.min
                max=r.max
                step=r.step
                aria-valuetext=valuetext
                on:input=move |ev| on_position(&event_target_value(&ev))
            />
            <input
                node_ref=number
                type="number"
                class="exact"
                id=format!("{id}-value")
                aria-label=format!("{label}, exact value")
                min=x.min
                max=x.max
                step=x.step
                on:change=on_number
            />
        </div>
    }
    .into_any()
}

/// An integer slider `min..=max` (in steps of `step` from `min`) with a number box for exact
/// values; a typed value between steps goes to the nearest step.
#[component]
pub fn IntSlider(
    /// Visible label, also used in notices.
    label: &'static str,
    /// Element id (unique on the page).
    id: &'static str,
    /// Smallest value.
    #[prop(into)]
    min: Signal<usize>,
    /// Largest value.
    #[prop(into)]
    max: Signal<usize>,
    /// The value.
    value: RwSignal<usize>,
    /// The step (head_dim moves by 2: coordinates rotate in pairs).
    #[prop(default = 1)]
    step: usize,
) -> impl IntoView {
    let snap = move |v: usize| {
        let (lo, hi) = (min.get_untracked(), max.get_untracked());
        let step = step.max(1);
        let snapped = lo + (v.saturating_sub(lo) + step / 2) / step * step;
        let top = lo + hi.saturating_sub(lo) / step * step;
        snapped.clamp(lo, top.max(lo))
    };
    let bounds = || Bounds {
        min: Signal::derive(move || min.get().to_string()),
        max: Signal::derive(move || max.get().to_string()),
        step: step.to_string(),
    };
    let text = Signal::derive(move || value.get().to_string());
    slider_view(SliderSpec {
        label,
        id,
        range: bounds(),
        exact: bounds(),
        position: text,
        text,
        valuetext: None,
        on_position: Box::new(move |t| {
            if let Ok(v) = t.parse::<usize>() {
                value.set(snap(v));
            }
        }),
        on_text: Box::new(move |t| {
            let range = (min.get_untracked(), max.get_untracked());
            let (v, notice) = params::parse_usize(label, t, range, value.get_untracked());
            let v = snap(v);
            value.set(v);
            (v.to_string(), notice)
        }),
    })
}

/// A length (a context in positions, 16 … 2²⁴) whose slider moves in powers of two — the
/// lengths models are trained at — with a number box for any exact length.
#[component]
pub fn LengthSlider(
    /// Visible label, also used in notices.
    label: &'static str,
    /// Element id (unique on the page).
    id: &'static str,
    /// Smallest and largest length.
    range: (usize, usize),
    /// The value.
    value: RwSignal<usize>,
) -> impl IntoView {
    let exponent = |v: usize| (v.max(1) as f64).log2();
    let (lo, hi) = (exponent(range.0).ceil(), exponent(range.1).floor());
    slider_view(SliderSpec {
        label,
        id,
        range: Bounds::fixed(lo, hi, 1),
        exact: Bounds::fixed(range.0, range.1, 1),
        position: Signal::derive(move || exponent(value.get()).round().to_string()),
        text: Signal::derive(move || value.get().to_string()),
        valuetext: Some(Signal::derive(move || format!("{} positions", value.get()))),
        on_position: Box::new(move |t| {
            if let Ok(e) = t.parse::<f64>() {
                let v = 2f64.powf(e.clamp(lo, hi)).round() as usize;
                value.set(v.clamp(range.0, range.1));
            }
        }),
        on_text: Box::new(move |t| {
            let (v, notice) = params::parse_usize(label, t, range, value.get_untracked());
            value.set(v);
            (v.to_string(), notice)
        }),
    })
}

/// A slider over `min..=max` in steps of `step` for a real quantity (an angle, a coordinate),
/// with a number box for exact values.
#[component]
pub fn FloatSlider(
    /// Visible label, also used in notices.
    label: &'static str,
    /// Element id (unique on the page).
    id: &'static str,
    /// Smallest value.
    min: f64,
    /// Largest value.
    max: f64,
    /// Slider step.
    step: f64,
    /// The value.
    value: RwSignal<f64>,
) -> impl IntoView {
    slider_view(SliderSpec {
        label,
        id,
        range: Bounds::fixed(min, max, step),
        exact: Bounds::fixed(min, max, "any"),
        position: Signal::derive(move || value.get().to_string()),
        text: Signal::derive(move || format_number(value.get())),
        valuetext: None,
        on_position: Box::new(move |t| {
            if let Ok(v) = t.parse::<f64>() {
                value.set(v.clamp(min, max));
            }
        }),
        on_text: float_text(label, (min, max), value),
    })
}

/// The exact box of a slider over a real quantity: the typed value, clamped to `range`.
fn float_text(label: &'static str, range: (f64, f64), value: RwSignal<f64>) -> OnText {
    Box::new(move |t| {
        let (v, notice) = params::parse_f64(label, t, range, value.get_untracked());
        value.set(v);
        (format_number(v), notice)
    })
}

/// Step of a [`LogSlider`] in decades (one arrow key ≈ 2.3 %).
const LOG_STEP: f64 = 0.01;

/// A slider over `log10(value)` for quantities that span decades (the base: 2 … 10⁷), with a number
/// box for exact values. Slider positions are rounded to three significant digits.
#[component]
pub fn LogSlider(
    /// Visible label, also used in notices.
    label: &'static str,
    /// Element id (unique on the page).
    id: &'static str,
    /// Smallest value (> 0).
    min: f64,
    /// Largest value.
    max: f64,
    /// The value.
    value: RwSignal<f64>,
) -> impl IntoView {
    // The range's ends are aligned to its step (so both ends are reachable); values beyond
    // [min, max] that the alignment admits are clamped in `on_position`.
    let (lo, hi) = (
        (min.log10() / LOG_STEP).floor() * LOG_STEP,
        (max.log10() / LOG_STEP).ceil() * LOG_STEP,
    );
    // The box shows the value, and the range speaks it (its position is the log).
    let text = Signal::derive(move || format_number(value.get()));
    slider_view(SliderSpec {
        label,
        id,
        range: Bounds::fixed(format!("{lo:.2}"), format!("{hi:.2}"), LOG_STEP),
        exact: Bounds::fixed(min, max, "any"),
        position: Signal::derive(move || value.get().log10().to_string()),
        text,
        valuetext: Some(text),
        on_position: Box::new(move |t| {
            if let Ok(e) = t.parse::<f64>() {
                value.set(round_significant(10f64.powf(e), 3).clamp(min, max));
            }
        }),
        on_text: float_text(label, (min, max), value),
    })
}

/// A group of radio buttons styled as a segmented toggle.
#[component]
pub fn Choice<T>(
    /// The group's visible legend.
    legend: &'static str,
    /// The radio group name (unique on the page).
    name: &'static str,
    /// The options: value and label.
    options: Vec<(T, &'static str)>,
    /// The value.
    value: RwSignal<T>,
) -> impl IntoView
where
    T: Copy + PartialEq + Send + Sync + 'static,
{
    let (values, labels): (Vec<T>, Vec<&'static str>) = options.into_iter().unzip();
    let values = std::sync::Arc::new(values);
    let chosen = {
        let values = values.clone();
        move || {
            let v = value.get();
            values.iter().position(|o| *o == v)
        }
    };
    let choose = move |k: usize| {
        if let Some(&o) = values.get(k) {
            value.set(o);
        }
    };
    choice_view(
        legend,
        name,
        labels,
        std::sync::Arc::new(chosen),
        std::sync::Arc::new(choose),
    )
}

/// The view of [`Choice`], built once for every value type: options by index, `chosen` the
/// index of the current value, `choose` sets the value of an index.
fn choice_view(
    legend: &'static str,
    name: &'static str,
    labels: Vec<&'static str>,
    chosen: std::sync::Arc<dyn Fn() -> Option<usize> + Send + Sync>,
    choose: std::sync::Arc<dyn Fn(usize) + Send + Sync>,
) -> AnyView {
    view! {
        <fieldset class="choice">
            <legend>{legend}</legend>
            {labels
                .into_iter()
                .enumerate()
                .map(|(k, text)| {
                    let (chosen, choose) = (chosen.clone(), choose.clone());
                    view! {
                        <label>
                            <input
                                type="radio"
                                name=name
                                prop:checked=move || chosen() == Some(k)
                                on:change=move |_| choose(k)
                            />
                            <span>{text}</span>
                        </label>
                    }
                })
                .collect_view()}
        </fieldset>
    }
    .into_any()
}

/// A text box committed on `change` (Enter or leaving it): `check` turns the text into the value
/// to keep, or a notice; refused text is replaced by `current()` again.
#[component]
pub fn TextField<G, C, S>(
    /// Visible label.
    label: &'static str,
    /// Element id (unique on the page).
    id: &'static str,
    /// A short hint after the box (its accessible description).
    hint: &'static str,
    /// The text the box shows.
    current: G,
    /// Validates the typed text.
    check: C,
    /// Keeps a valid text.
    set: S,
) -> impl IntoView
where
    G: Fn() -> String + Copy + Send + Sync + 'static,
    C: Fn(&str) -> Result<String, params::Notice> + 'static,
    S: Fn(String) + 'static,
{
    text_field_view(
        label,
        id,
        hint,
        std::sync::Arc::new(current),
        Box::new(check),
        Box::new(set),
    )
}

/// Turns a text field's text into the value to keep, or a notice.
type Check = dyn Fn(&str) -> Result<String, params::Notice>;

/// The view of [`TextField`], built once for every field's closures (as `dyn`).
fn text_field_view(
    label: &'static str,
    id: &'static str,
    hint: &'static str,
    current: std::sync::Arc<dyn Fn() -> String + Send + Sync>,
    check: Box<Check>,
    set: Box<dyn Fn(String)>,
) -> AnyView {
    let notices = expect_context::<Notices>();
    let shown = current.clone();
    let on_change = move |ev: leptos::ev::Event| {
        let text = event_target_value(&ev);
        match check(&text) {
            Ok(v) => set(v),
            Err(n) => {
                notices.push(n);
                show_in_box(&ev, &current());
            }
        }
    };
    let input = NodeRef::<Input>::new();
    show_value(input, move || shown());
    let hint_id = format!("{id}-hint");
    view! {
        <span class="text-field">
            <label for=id>{label}</label>
            <input
                node_ref=input
                id=id
                type="text"
                class="exact"
                maxlength="200"
                on:change=on_change
                aria-describedby=hint_id.clone()
            />
            <span id=hint_id class="hint">{hint}</span>
        </span>
    }
    .into_any()
}

/// A box to paste a model's config.json into, and its "Read config" button: `read` gets the text
/// when pressed, or, for text longer than a config is read, the one line that says so. Its label
/// and what the reading says are the caller's.
#[component]
pub fn ConfigBox<F>(
    /// The textarea's id (its label's `for`).
    id: &'static str,
    /// The button's id.
    button: &'static str,
    /// The text in the box.
    text: RwSignal<String>,
    /// Reads the text (or is told it is too long).
    read: F,
) -> impl IntoView
where
    F: Fn(Result<String, String>) + 'static,
{
    use crate::math::rope_config::MAX_CONFIG_BYTES;
    let on_click = move |_| {
        let t = text.get_untracked();
        read(if t.len() > MAX_CONFIG_BYTES {
            Err(format!(
                "The text is {} KB; a config is read up to {} KB.",
                t.len().div_ceil(1024),
                MAX_CONFIG_BYTES / 1024
            ))
        } else {
            Ok(t)
        });
    };
    view! {
        <textarea
            id=id
            rows="6"
            spellcheck="false"
            maxlength=MAX_CONFIG_BYTES.to_string()
            prop:value=move || text.get()
            on:input=move |ev| text.set(event_target_value(&ev))
        ></textarea>
        <button type="button" class="button" id=button on:click=on_click>
            "Read config"
        </button>
    }
}
