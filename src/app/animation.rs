//! Play/pause over positions: a `requestAnimationFrame` loop that moves a real-valued position
//! forward at a steady speed (so a rotation turns smoothly at the display rate) and keeps the
//! integer position signal on the last whole position passed. It never starts by itself, and it
//! stops when the figure leaves the viewport or the tab is hidden.

use leptos::prelude::*;

use super::figure::now;

/// The state of one figure's animation.
#[derive(Clone, Copy)]
pub struct Player {
    /// Whether it is playing.
    pub playing: RwSignal<bool>,
    /// The real-valued position while playing (`None` when stopped: figures show the integer one).
    pub at: RwSignal<Option<f64>>,
}

impl Player {
    /// A stopped player.
    pub fn new() -> Player {
        Player {
            playing: RwSignal::new(false),
            at: RwSignal::new(None),
        }
    }

    /// The position figures draw: the animated one while playing, else `pos`.
    pub fn position(self, pos: RwSignal<usize>) -> f64 {
        self.at.get().unwrap_or(pos.get() as f64)
    }

    /// Starts playing `pos` from where it is, `speed` positions a second, wrapping after `max`;
    /// stops when `near` turns false or the page is hidden.
    pub fn play(self, pos: RwSignal<usize>, max: usize, speed: f64, near: RwSignal<bool>) {
        if self.playing.get_untracked() {
            return;
        }
        self.playing.set(true);
        self.at.set(Some(pos.get_untracked() as f64));
        step(self, pos, max, speed, near, now());
    }

    /// Stops, leaving `pos` on the last whole position shown.
    pub fn stop(self) {
        self.playing.set(false);
        self.at.set(None);
    }
}

impl Default for Player {
    fn default() -> Self {
        Player::new()
    }
}

/// One frame: advance, then ask for the next frame (or stop).
fn step(
    player: Player,
    pos: RwSignal<usize>,
    max: usize,
    speed: f64,
    near: RwSignal<bool>,
    last: f64,
) {
    if !player.playing.get_untracked() {
        return;
    }
    if !near.get_untracked() || document().hidden() {
        player.stop();
        return;
    }
    let t = now();
    // A long gap (a background tab, a breakpoint) does not jump ahead.
    let dt = ((t - last) / 1000.0).clamp(0.0, 0.1);
    let span = (max + 1) as f64;
    let next = (player.at.get_untracked().unwrap_or(0.0) + dt * speed).rem_euclid(span);
    player.at.set(Some(next));
    let whole = (next.floor() as usize).min(max);
    if whole != pos.get_untracked() {
        pos.set(whole);
    }
    request_animation_frame(move || step(player, pos, max, speed, near, t));
}

/// Whether the reader asked for reduced motion.
pub fn reduced_motion() -> bool {
    window()
        .match_media("(prefers-reduced-motion: reduce)")
        .ok()
        .flatten()
        .is_some_and(|q| q.matches())
}
