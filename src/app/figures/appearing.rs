//! A cloud that appears part by part — the token cloud's positions, the video cloud's temporal
//! patches: the last part shown (all of them unless playing or stepping) and the buttons that
//! step it and play it.

use leptos::prelude::*;

use crate::app::animation::{Player, reduced_motion};

/// The parts shown: 0 … `shown`, or the player's position while it plays.
#[derive(Clone, Copy)]
pub struct Appearing {
    /// The animation.
    pub player: Player,
    /// The last part shown when not playing.
    pub shown: RwSignal<usize>,
    /// How many parts there are.
    parts: Signal<usize>,
}

impl Appearing {
    /// All `parts` shown, and shown again whenever their number changes.
    pub fn new(parts: Signal<usize>) -> Appearing {
        let shown = RwSignal::new(parts.get_untracked().saturating_sub(1));
        Effect::new(move |_| shown.set(parts.get().saturating_sub(1)));
        Appearing {
            player: Player::new(),
            shown,
            parts,
        }
    }

    /// The last part drawn (tracked).
    pub fn last(self) -> usize {
        self.player.position(self.shown).floor() as usize
    }

    /// Plays from part 0 (`speed` parts a second, while `near`), or pauses.
    fn toggle(self, speed: f64, near: RwSignal<bool>) {
        if self.player.playing.get_untracked() {
            self.player.stop();
        } else {
            self.shown.set(0);
            let last = self.parts.get_untracked().saturating_sub(1);
            self.player.play(self.shown, last, speed, near);
        }
    }

    /// Stops and shows `delta` parts more (or fewer).
    fn step(self, delta: i64) {
        self.player.stop();
        let last = self.parts.get_untracked().saturating_sub(1) as i64;
        let at = self.shown.get_untracked() as i64 + delta;
        self.shown.set(at.clamp(0, last) as usize);
    }
}

/// "◀ fewer", the play button (not under `prefers-reduced-motion`) and "more ▶", for parts
/// called `unit` ("position").
#[component]
pub fn AppearingButtons(
    /// The parts shown.
    appearing: Appearing,
    /// Parts a second while playing.
    speed: f64,
    /// Whether the figure is near the viewport (playing stops when it leaves).
    near: RwSignal<bool>,
    /// What a part is called.
    unit: &'static str,
    /// The play button's text.
    play: &'static str,
) -> impl IntoView {
    let playing = appearing.player.playing;
    view! {
        <div class="figure-tools buttons">
            <button type="button" class="button" on:click=move |_| appearing.step(-1)
                aria-label=format!("Show one {unit} fewer")>"◀ fewer"</button>
            {(!reduced_motion()).then(|| view! {
                <button type="button" class="button" on:click=move |_| appearing.toggle(speed, near)
                    aria-pressed=move || playing.get().to_string()>
                    {move || if playing.get() { "❚❚ Pause" } else { play }}
                </button>
            })}
            <button type="button" class="button" on:click=move |_| appearing.step(1)
                aria-label=format!("Show one {unit} more")>"more ▶"</button>
        </div>
    }
}
