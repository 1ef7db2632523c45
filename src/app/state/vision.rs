//! Chapter 6's state ("Beyond a line"): one signal per control, the chosen patch inside the grid,
//! the grid's scores and the input's position ids, memoised once.

use leptos::prelude::*;

use super::signals::view_signals;

use crate::params::vision::VisionView;
use crate::scene::vision::ids::{Ids, ids};
use crate::scene::vision::video::{Clip, clip};
use crate::scene::vision::{GridScores, scores};

crate::params::vision::vision_fields!(view_signals {
    /// The chapter's controls, one signal per parameter of [`VisionView`]. Read `row` and `col`
    /// through [`VisionState::patch`].
    pub struct VisionSignals for VisionView;
    /// The chapter's state: the signals of [`VisionSignals`] as its own fields, and the memos its
    /// figures read.
    pub struct VisionState {
        derived: Derived,
    }
});

#[derive(Clone, Copy)]
struct Derived {
    view: Memo<VisionView>,
    grid: Memo<VisionView>,
    patch: Memo<(usize, usize)>,
    scores: Memo<GridScores>,
    ids: Memo<Ids>,
    clip: Memo<Clip>,
}

impl VisionState {
    /// Signals holding `v`, and the memos derived from them.
    pub fn new(v: VisionView) -> VisionState {
        let signals = VisionSignals::new(v);
        let VisionSignals {
            rows,
            cols,
            row,
            col,
            head_dim,
            qk,
            seed,
            lm,
            text,
            image_rows,
            image_cols,
            frames,
            video_rows,
            video_cols,
            stamp,
            clip_frames,
            clip_rows,
            clip_cols,
            pair,
            ..
        } = signals;
        // The grid's controls only, the patch inside the grid (`VisionView::patch`): choosing
        // the model of the other figure must not recompute or repaint the grid.
        let grid = Memo::new(move |_| {
            let v = VisionView {
                rows: rows.get(),
                cols: cols.get(),
                row: row.get(),
                col: col.get(),
                head_dim: head_dim.get(),
                qk: qk.get(),
                seed: seed.get(),
                ..VisionView::default()
            };
            let (row, col) = v.patch();
            VisionView { row, col, ..v }
        });
        let patch = Memo::new(move |_| grid.with(VisionView::patch));
        let view = Memo::new(move |_| {
            let (row, col) = patch.get();
            VisionView {
                row,
                col,
                ..signals.tracked()
            }
        });
        let scores = Memo::new(move |_| grid.with(scores));
        // The input's controls and the model only: turning the cloud does not recompute them.
        let ids = Memo::new(move |_| {
            ids(&VisionView {
                lm: lm.get(),
                text: text.get(),
                image_rows: image_rows.get(),
                image_cols: image_cols.get(),
                frames: frames.get(),
                video_rows: video_rows.get(),
                video_cols: video_cols.get(),
                stamp: stamp.get(),
                ..VisionView::default()
            })
        });
        // The video cloud's own controls, the model and its timestamp text: turning the cloud
        // does not recompute it.
        let clip = Memo::new(move |_| {
            clip(&VisionView {
                lm: lm.get(),
                stamp: stamp.get(),
                clip_frames: clip_frames.get(),
                clip_rows: clip_rows.get(),
                clip_cols: clip_cols.get(),
                pair: pair.get(),
                ..VisionView::default()
            })
        });
        VisionState::assemble(
            signals,
            Derived {
                view,
                grid,
                patch,
                scores,
                ids,
                clip,
            },
        )
    }

    /// The whole view (for the URL and the figure).
    pub fn view(self) -> Memo<VisionView> {
        self.derived.view
    }

    /// The patch grid's controls alone (the other fields at their defaults), the patch inside
    /// the grid.
    pub fn grid(self) -> Memo<VisionView> {
        self.derived.grid
    }

    /// The chosen patch, inside the grid.
    pub fn patch(self) -> Memo<(usize, usize)> {
        self.derived.patch
    }

    /// Both grids' scores with the chosen patch.
    pub fn scores(self) -> Memo<GridScores> {
        self.derived.scores
    }

    /// fig-vision-video's video, its ids and the chosen pair's angles.
    pub fn clip(self) -> Memo<Clip> {
        self.derived.clip
    }

    /// The position ids of fig-vision-ids's input, for the chosen model.
    pub fn ids(self) -> Memo<Ids> {
        self.derived.ids
    }
}
