//! Chapter 6, "Beyond a line": its URL keys (prefix `v.`) and the view they parse into — the grid
//! of image patches, the patch chosen in it, the vision head's size and where q and k come from;
//! the input of text, an image and a video whose position ids the language model gets; the model.

use super::decl::float;
use super::listed::{declared, view_struct};
use super::rope::QkSource;

/// The chapter's key prefix.
pub const PREFIX: &str = "v.";

/// Rows and columns of the patch grid: 1 … 32 each (Qwen2.5-VL cuts a 448 × 448 image into
/// 32 × 32 patches of 14 pixels).
pub const GRID: (usize, usize) = (1, 32);

/// A vision head's coordinates: a multiple of 4 from 4 to 256 (the rows and the columns each turn
/// half of them, in pairs; Qwen2.5-VL's vision heads have 80).
pub const VISION_HEAD_DIM: (usize, usize) = (4, 256);

/// Text tokens in each text piece of fig-vision-ids's input: 1 … 12.
pub const TEXT: (usize, usize) = (1, 12);

/// An image's rows and columns of tokens in the language model (after the 2 × 2 merge): 1 … 6.
pub const IMAGE: (usize, usize) = (1, 6);

/// A video's temporal patches: 1 … 4; its rows and columns of tokens: 1 … 4.
pub const VIDEO: (usize, usize) = (1, 4);

/// Qwen3-VL's text before each temporal patch of a video (the timestamp, such as "<1.0
/// seconds>", with the start and end tokens of the blocks around it): 3 … 16 tokens.
pub const STAMP: (usize, usize) = (3, 16);

/// fig-vision-video's temporal patches: 1 … 16.
pub const CLIP_TIME: (usize, usize) = (1, 16);

/// fig-vision-video's rows and columns of tokens: 1 … 12 each.
pub const CLIP_SIDE: (usize, usize) = (1, 12);

/// The rotary pair fig-vision-video colours by: 0 … 63 (both models' heads have 64).
pub const PAIR: (usize, usize) = (0, 63);

/// The view of the ids' 3D cloud: turn about the vertical axis, degrees.
pub const YAW: (f64, f64) = (-180.0, 180.0);

/// The view of the ids' 3D cloud: tilt, degrees.
pub const PITCH: (f64, f64) = (-90.0, 90.0);

crate::names::named! {
    /// The vision-language model whose language model's rotary pairs fig-vision-sections shows.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
    pub enum VlModel {
        /// Qwen2.5-VL-7B: chunked `mrope_section` [16, 24, 24].
        #[default]
        Qwen25 = "qwen2.5-vl-7b",
        /// Qwen3-VL-8B: interleaved `mrope_section` [24, 20, 20].
        Qwen3 = "qwen3-vl-8b",
    }
}

crate::params::listed::fields! { $
    /// Chapter 6's parameters, each one row ([`super::listed`]): [`VisionView`], its [`TABLE`]
    /// and the app's signals are written from this list.
    vision_fields
    listed {
        /// Rows of the patch grid.
        rows: usize = 12 => int!("v.rows", "v.rows (grid rows)", GRID),
        /// Columns of the patch grid.
        cols: usize = 16 => int!("v.cols", "v.cols (grid columns)", GRID),
        /// The chosen patch's row, from 0.
        row: usize = 5 => int_within!("v.r", "v.r (patch row)", |v| (0, v.rows.saturating_sub(1))),
        /// The chosen patch's column, from 0.
        col: usize = 7 => int_within!("v.c", "v.c (patch column)", |v| (0, v.cols.saturating_sub(1))),
        /// The vision head's coordinates (a multiple of 4).
        head_dim: usize = 80 => quarter!("v.hd", "v.hd (head_dim)", VISION_HEAD_DIM),
        /// Where q and k come from.
        qk: crate::params::rope::QkSource = QkSource::Ones => named!("v.qk", QkSource),
        /// The seed of the random q and k.
        seed: u64 = 0 => seed!("v.seed"),
        /// The model of the language model's figures (the position ids, who owns which
        /// frequencies).
        lm: crate::params::vision::VlModel = VlModel::Qwen25 => named!("v.lm", VlModel),
        /// Text tokens in each text piece of the ids' input.
        text: usize = 3 => int!("v.tx", "v.tx (text tokens per piece)", TEXT),
        /// The image's rows of tokens.
        image_rows: usize = 2 => int!("v.ih", "v.ih (image rows)", IMAGE),
        /// The image's columns of tokens.
        image_cols: usize = 3 => int!("v.iw", "v.iw (image columns)", IMAGE),
        /// The video's temporal patches.
        frames: usize = 3 => int!("v.vt", "v.vt (video temporal patches)", VIDEO),
        /// The video's rows of tokens.
        video_rows: usize = 2 => int!("v.vh", "v.vh (video rows)", VIDEO),
        /// The video's columns of tokens.
        video_cols: usize = 2 => int!("v.vw", "v.vw (video columns)", VIDEO),
        /// Qwen3-VL: text tokens before each temporal patch of the video ([`STAMP`]).
        stamp: usize = 8 => int!("v.ts", "v.ts (text before each temporal patch)", STAMP),
        /// The video cloud's temporal patches.
        clip_frames: usize = 4 => int!("v.cf", "v.cf (video temporal patches)", CLIP_TIME),
        /// The video cloud's rows of tokens.
        clip_rows: usize = 6 => int!("v.ch", "v.ch (video rows)", CLIP_SIDE),
        /// The video cloud's columns of tokens.
        clip_cols: usize = 8 => int!("v.cw", "v.cw (video columns)", CLIP_SIDE),
        /// The rotary pair the video cloud is coloured by.
        pair: usize = 0 => int!("v.pair", "v.pair (rotary pair)", PAIR),
        /// The video cloud's view: yaw and pitch in degrees.
        clip_view: [f64; 2] = [30.0, 25.0] => [
            float!("v.cyaw", "v.cyaw", YAW, clip_view[0]),
            float!("v.cpitch", "v.cpitch", PITCH, clip_view[1]),
        ],
        /// The ids' cloud's view: yaw and pitch in degrees.
        ids_view: [f64; 2] = [40.0, 25.0] => [
            float!("v.yaw", "v.yaw", YAW, ids_view[0]),
            float!("v.pitch", "v.pitch", PITCH, ids_view[1]),
        ],
    }
    own {}
}
#[cfg_attr(not(target_arch = "wasm32"), allow(unused_imports))] // read by the app's state
pub(crate) use vision_fields;

vision_fields!(view_struct {
    /// The chapter's controls.
    #[derive(Clone, Debug, PartialEq)]
    VisionView
});

impl VisionView {
    /// The chosen patch, inside the grid.
    pub fn patch(&self) -> (usize, usize) {
        (
            self.row.min(self.rows.saturating_sub(1)),
            self.col.min(self.cols.saturating_sub(1)),
        )
    }
}

vision_fields!(rows declared {
    TABLE VisionView,
    |v| (v.row, v.col) = v.patch();
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{Declared, parse_query};

    #[test]
    fn every_written_key_is_a_declared_key_and_reads_back() {
        let view = VisionView {
            rows: 7,
            cols: 30,
            row: 6,
            col: 29,
            head_dim: 128,
            qk: QkSource::Random,
            seed: 42,
            lm: VlModel::Qwen3,
            text: 12,
            image_rows: 6,
            image_cols: 1,
            frames: 4,
            video_rows: 1,
            video_cols: 3,
            stamp: 7,
            ids_view: [-120.0, 45.5],
            clip_frames: 16,
            clip_rows: 1,
            clip_cols: 12,
            pair: 63,
            clip_view: [170.0, -80.0],
        };
        crate::params::decl::check_round_trip(&TABLE, &view);
    }

    #[test]
    fn bad_values_clamp_with_notices() {
        let (v, notices) =
            VisionView::from_query(&parse_query("v.rows=0&v.cols=99&v.r=5&v.c=40&v.hd=82"));
        assert_eq!((v.rows, v.cols), (1, 32));
        assert_eq!((v.row, v.col), (0, 31));
        assert_eq!(v.head_dim, 80);
        assert_eq!(notices.len(), 5, "{notices:?}");
        assert!(
            notices
                .iter()
                .any(|n| n.0.contains("is not a multiple of 4")),
            "{notices:?}"
        );
        let (v, _) = VisionView::from_query(&parse_query("v.hd=5"));
        assert_eq!(v.head_dim, 4);
        let (v, _) = VisionView::from_query(&parse_query("v.hd=3"));
        assert_eq!(v.head_dim, 4);
    }
}
