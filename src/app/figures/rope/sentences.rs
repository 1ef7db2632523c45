//! Same angle, different sentences: every word is a 2D vector turned by its position times θ.
//! Two words the same distance apart end up at the same angle to each other in any sentence,
//! whatever θ and wherever the pair sits — the relative position is all that survives.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;

use crate::app::canvas::Surface;
use crate::app::controls::{FloatSlider, TextField};
use crate::app::figure::{SecondCanvas, StillCanvas, draw_effect};
use crate::app::frame::figure;
use crate::app::plot::paint_plane;
use crate::app::state::rope::RopeState;
use crate::app::theme::chapter_context;
use crate::chart::theme::Theme;
use crate::params::rope::{THETA_DEG, check_sentence, check_word};
use crate::scene::rope as scene;

/// Draws one sentence's plane.
fn paint(surface: &Surface, title: &str, r: &scene::Reading, theta: f64, t: Theme) {
    paint_plane(
        surface,
        scene::sentence_height,
        &scene::sentence_spec(title, r, theta, t),
    );
}

/// The figure.
#[component]
pub fn SameAngle() -> impl IntoView {
    let (s, theme) = chapter_context!(RopeState);
    let first = NodeRef::<Canvas>::new();
    let second = SecondCanvas::new();
    let readings = Memo::new(move |_| {
        let theta = s.sentence_theta_deg.get().to_radians();
        let words = s.words.get();
        s.sentences
            .with(|[a, b]| [scene::read(a, &words, theta), scene::read(b, &words, theta)])
            .map(|r| (r.pair, r.angle))
    });
    let stats = draw_effect(first, move |surface| {
        let theta = s.sentence_theta_deg.get().to_radians();
        let words = s.words.get();
        let t = theme.get();
        let [a, b] = s.sentences.get();
        paint(
            surface,
            scene::SENTENCE_TITLES[0],
            &scene::read(&a, &words, theta),
            theta,
            t,
        );
        if let Some(surface) = second.surface()
            && surface.css_width >= 1.0
        {
            paint(
                &surface,
                scene::SENTENCE_TITLES[1],
                &scene::read(&b, &words, theta),
                theta,
                t,
            );
        }
    });

    let line = move |k: usize| {
        let words = s.words.get();
        let (pair, angle) = readings.get()[k];
        match (pair, angle) {
            (Some((a, b)), Some(angle)) => format!(
                "sentence {}: “{}” at {a}, “{}” at {b} (distance {}) · angle = {:.2}°",
                k + 1,
                words[0],
                words[1],
                b as i64 - a as i64,
                angle.to_degrees()
            ),
            _ => format!(
                "sentence {}: does not contain both “{}” and “{}”",
                k + 1,
                words[0],
                words[1]
            ),
        }
    };
    let verdict = move || {
        let [(p1, a1), (p2, a2)] = readings.get();
        let side = |p: Option<(usize, usize)>, a: Option<f64>| {
            Some((p.map(|(a, b)| b as i64 - a as i64)?, a?))
        };
        crate::explain::rope::angle_verdict(side(p1, a1), side(p2, a2), s.sentence_theta_deg.get())
            .to_string()
    };
    let describe = move |k: usize| {
        move || {
            format!(
                "The words of sentence {} as unit arrows, each turned by its position times {}°; {}.",
                k + 1,
                s.sentence_theta_deg.get(),
                line(k)
            )
        }
    };
    let sentence = move |k: usize| move || s.sentences.with(|v| v[k].clone());
    let word = move |k: usize| move || s.words.with(|v| v[k].clone());
    let check_text = |text: &str| check_sentence(text).map(|_| text.to_string());

    figure! { "fig-rope-sentences", "ctl-r-stheta ctl-r-s1 ctl-r-s2 ctl-r-w1 ctl-r-w2", stats, [
        data-angles=move || {
            readings
                .get()
                .iter()
                .map(|(_, a)| a.map_or("none".to_string(), |a| format!("{}", a.to_degrees())))
                .collect::<Vec<_>>()
                .join(",")
        }
    ];
        <div class="figure-tools">
            <TextField label="sentence 1" id="ctl-r-s1" hint="2 to 16 words" current=sentence(0) check=check_text set=move |v| s.sentences.update(|x| x[0] = v) />
            <TextField label="sentence 2" id="ctl-r-s2" hint="2 to 16 words" current=sentence(1) check=check_text set=move |v| s.sentences.update(|x| x[1] = v) />
        </div>
        <div class="figure-tools">
            <TextField label="word" id="ctl-r-w1" hint="" current=word(0) check=check_word set=move |v| s.words.update(|x| x[0] = v) />
            <TextField label="and word" id="ctl-r-w2" hint="" current=word(1) check=check_word set=move |v| s.words.update(|x| x[1] = v) />
            <FloatSlider label="θ per position (degrees)" id="ctl-r-stheta" min=THETA_DEG.0 max=THETA_DEG.1 step=1.0 value=s.sentence_theta_deg />
        </div>
        <div class="pair">
            <StillCanvas
                node_ref=first
                label=describe(0) />
            <StillCanvas node_ref=second.node label=describe(1)
            />
        </div>
        <p class="readout" aria-live="polite">{near::text(move || line(0))}<br />{near::text(move || line(1))}</p>
        <p class="finding">{near::text(verdict)}</p>
        <figcaption>
            "Each word is a unit arrow (its direction comes from the word) turned by its "
            "position × θ, counting from 0. Edit the sentences — add words in front of the pair "
            "to shift it — or change θ: while the two words stay the same distance apart, the "
            "angle between them is the same in both sentences."
        </figcaption>
    }
}
