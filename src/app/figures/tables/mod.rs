//! Chapter 4's figures ("Tables and biases"), and the small controls several of them share.

pub mod alibi;
pub mod alibi_attention;
pub mod compare;
pub mod drope;
pub mod extrapolate;
pub mod learned;
pub mod learned_similarity;
pub mod nope;
pub mod same;
pub mod shaw;
pub mod slopes;
pub mod t5;
pub mod txl;

use leptos::prelude::*;

use crate::app::controls::TextField;
use crate::params::Notice;

/// A real model size: id, label, rows, columns.
pub type Preset = (&'static str, &'static str, usize, usize);

/// A menu of real sizes that sets two controls at once; it shows "custom" when the controls
/// match none of them.
#[component]
pub fn Presets<const N: usize>(
    /// Element id.
    id: &'static str,
    /// The sizes.
    presets: [Preset; N],
    /// The control set to a preset's rows.
    rows: RwSignal<usize>,
    /// The control set to a preset's columns.
    cols: RwSignal<usize>,
) -> impl IntoView {
    let current = move || {
        let (r, c) = (rows.get(), cols.get());
        presets
            .iter()
            .find(|p| p.2 == r && p.3 == c)
            .map_or("", |p| p.0)
    };
    let on_change = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev);
        if let Some(p) = presets.iter().find(|p| p.0 == v) {
            rows.set(p.2);
            cols.set(p.3);
        }
    };
    view! {
        <div class="control">
            <label for=id>"real size"</label>
            <select id=id on:change=on_change prop:value=current>
                <option value="">"— custom —"</option>
                {presets
                    .iter()
                    .map(|p| view! { <option value=p.0>{p.1}</option> })
                    .collect_view()}
            </select>
        </div>
    }
}

/// The seed of the random draws: a box for any seed, and a button that draws a fresh one.
#[component]
pub fn SeedField(
    /// Element id of the box.
    id: &'static str,
    /// The seed.
    seed: RwSignal<u64>,
) -> impl IntoView {
    let check = |text: &str| match text.trim().parse::<u64>() {
        Ok(v) => Ok(v.to_string()),
        Err(_) => Err(Notice(format!(
            "The seed “{}” is not a whole number from 0 to {}; keeping the previous one.",
            crate::params::quote(text),
            u64::MAX
        ))),
    };
    let reroll = move |_| {
        if let Ok(v) = getrandom::u64() {
            seed.set(v);
        }
    };
    view! {
        <div class="control seed">
            <TextField
                label="seed"
                id=id
                hint=""
                current=move || seed.get().to_string()
                check=check
                set=move |v: String| {
                    if let Ok(v) = v.parse() {
                        seed.set(v);
                    }
                }
            />
            <button type="button" class="button" id=format!("{id}-reroll") on:click=reroll>
                "Re-roll"
            </button>
        </div>
    }
}
