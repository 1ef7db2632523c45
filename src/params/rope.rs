//! Chapter 2, "Rotations" (RoPE): its URL keys and the view they parse into.
//!
//! Every key carries the chapter's prefix `r.` (`r.d`, `r.base`, `r.pos`…), so the chapter's own
//! head_dim, base and position never collide with chapter 1's unprefixed `d`, `base`, `pos`.

use super::decl::{Kind, Param, Range, float, own};
use super::listed::{declared, view_struct};
use super::{Notice, parse_f64, parse_usize};
use crate::math::limits;
use crate::math::rope::{self, Layout};

/// The chapter's key prefix.
pub const PREFIX: &str = "r.";

/// How far the "why not add?" figure moves both tokens, and the "why only q and k" figure the
/// whole sentence.
pub const SHIFT: (usize, usize) = (0, 200);

/// Positions of the token cloud.
pub const CLOUD_POSITIONS: (usize, usize) = (4, 256);

/// The token cloud's view: turn about the vertical axis, degrees.
pub const YAW: (f64, f64) = (-180.0, 180.0);

/// The token cloud's view: tilt, degrees.
pub const PITCH: (f64, f64) = (-90.0, 90.0);

pub use crate::math::cloud::CloudMode;

/// head_dim: even, 2 … 256 (Llama's 128 is the default; GPT-J and Gemma use 256).
pub const HEAD_DIM: (usize, usize) = (2, 256);

/// Positions of the q·k matrix (rows and columns), up to 4096.
pub const POSITIONS: (usize, usize) = (2, 4096);

/// Angle per position of the 2D figures, in degrees.
pub const THETA_DEG: (f64, f64) = (0.0, 180.0);

/// Position of the 2D vector.
pub const VECTOR_POS: (usize, usize) = (0, 64);

/// Each coordinate of the 2D vector.
pub const VECTOR_COORD: (f64, f64) = (-2.0, 2.0);

/// Words in each sentence of the same-angle figure.
pub const SENTENCE_WORDS: (usize, usize) = (2, 16);

/// The two sentences of the same-angle figure (after Su et al.'s blog and the RoPE walkthroughs).
pub const SENTENCES: [&str; 2] = [
    "The mouse ate some cheese",
    "In the house a cat ate some cheese",
];

crate::names::named! {
    /// Where q and k come from in the q·k figure.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
    pub enum QkSource {
        /// Every coordinate 1: each pair's A_i = 2, B_i = 0, so the score is 2·Σ_i cos(rθ_i), plus
        /// head_dim − rotary_dim for the coordinates a partial rotation leaves alone. (RoFormer's
        /// Fig. 2 plots its bound's relative sum, which involves no q or k.)
        #[default]
        Ones = "ones",
        /// Seeded standard-normal vectors.
        Random = "random",
    }
}

crate::params::listed::fields! { $
    /// Chapter 2's parameters, each one row ([`super::listed`]): [`RopeView`], its [`TABLE`] and
    /// the app's signals are written from this list. `rotary_dim` is the view's own: the app holds
    /// it as "all coordinates unless given" so that it follows head_dim.
    rope_fields
    listed {
        /// head_dim (even).
        dim: usize = 128 => even!("r.d", "r.d (head_dim)", HEAD_DIM),
        /// RoPE base (θ in the configs: `rope_theta`).
        base: f64 = 10_000.0 => float!("r.base", "r.base", limits::BASE),
        /// Which coordinates pair up.
        layout: crate::math::rope::Layout = Layout::Interleaved => named!("r.layout", Layout),
        /// Positions of the q·k matrix.
        positions: usize = 128 => int!("r.n", "r.n (positions)", POSITIONS),
        /// The current position m (`< positions`).
        pos: usize = 10 => int_within!("r.pos", "r.pos (position)", |v| (0, v.positions - 1)),
        /// q and k of the q·k figure.
        qk: crate::params::rope::QkSource = QkSource::Ones => named!("r.qk", QkSource),
        /// Seed of the random q and k.
        seed: u64 = 1 => seed!("r.seed"),
        /// The 2D vector.
        vector: [f64; 2] = [1.0, 0.0] => list!(
            "r.x",
            "r.x (vector)",
            parse_f64,
            VECTOR_COORD,
            "two numbers like 1,0"
        ),
        /// Angle per position of the 2D vector, degrees.
        theta_deg: f64 = 30.0 => float!("r.theta", "r.theta (degrees)", THETA_DEG),
        /// Position of the 2D vector.
        vector_pos: usize = 3 => int!("r.vpos", "r.vpos", VECTOR_POS),
        /// The two sentences.
        sentences: [String; 2] = SENTENCES.map(str::to_string) => [
            own("r.s1", |v, t| read_sentence(v, 0, t), |v| v.sentences[0].clone()),
            own("r.s2", |v, t| read_sentence(v, 1, t), |v| v.sentences[1].clone()),
        ],
        /// The two words whose angle is compared.
        words: [String; 2] = ["ate".into(), "cheese".into()] => [
            own("r.w1", |v, t| read_word(v, 0, t), |v| v.words[0].clone()),
            own("r.w2", |v, t| read_word(v, 1, t), |v| v.words[1].clone()),
        ],
        /// Angle per position of the sentence figure, degrees.
        sentence_theta_deg: f64 = 25.0 => float!("r.stheta", "r.stheta (degrees)", THETA_DEG),
        /// The "why not add?" figure's query and key tokens (indices into chapter 1's
        /// sentence).
        pair: [usize; 2] = [6, 2] => list!(
            "r.pair",
            "r.pair (token)",
            parse_usize,
            PAIR_TOKENS,
            "two token numbers like 6,2"
        ),
        /// How far that figure moves both tokens.
        shift: usize = 0 => int!("r.shift", "r.shift", SHIFT),
        /// How far the "why only q and k" figure moves the whole sentence.
        value_offset: usize = 10 => int!("r.voff", "r.voff", SHIFT),
        /// Which vectors the token cloud shows.
        cloud: crate::math::cloud::CloudMode = CloudMode::Rope => named!("r.cloud", CloudMode),
        /// Positions of the token cloud.
        cloud_positions: usize = 64 => int!("r.cn", "r.cn (cloud positions)", CLOUD_POSITIONS),
        /// The cloud's view: yaw and pitch in degrees.
        view: [f64; 2] = [35.0, 20.0] => [
            float!("r.yaw", "r.yaw", YAW, view[0]),
            float!("r.pitch", "r.pitch", PITCH, view[1]),
        ],
    }
    own {
        /// Coordinates that rotate (even, `2 ≤ rotary_dim ≤ dim`).
        rotary_dim: usize = 128 => [Param {
            key: "r.rot",
            kind: Kind::Int {
                name: "r.rot (rotary_dim)",
                range: Range::Of(|v| (2, v.dim)),
                step: 2,
                get: |v| v.rotary_dim,
                set: |v, x| v.rotary_dim = x,
            },
            omit: Some(|v| v.rotary_dim == v.dim),
            late: true,
        }],
    }
}
#[cfg_attr(not(target_arch = "wasm32"), allow(unused_imports))] // read by the app's state
pub(crate) use rope_fields;

rope_fields!(view_struct {
    /// The chapter's view: everything its figures show, as the URL holds it.
    #[derive(Clone, Debug, PartialEq)]
    RopeView
});

/// Checks a sentence of the same-angle figure: its words, or why it was refused.
pub fn check_sentence(text: &str) -> Result<Vec<String>, Notice> {
    super::check_length("A sentence", text)?;
    let words = crate::math::attention::tokenize(text);
    let (lo, hi) = SENTENCE_WORDS;
    if words.len() < lo || words.len() > hi {
        Err(Notice(format!(
            "A sentence needs {lo} to {hi} words (this one has {}); keeping the previous one.",
            words.len()
        )))
    } else {
        Ok(words)
    }
}

/// Checks a word of the same-angle figure: one word, lower-cased.
pub fn check_word(text: &str) -> Result<String, Notice> {
    super::check_length("A word", text)?;
    match crate::math::attention::tokenize(text).as_slice() {
        [word] if word.len() <= 40 => Ok(word.clone()),
        _ => Err(Notice(
            "Pick one word (of at most 40 letters) to compare; keeping the previous one.".into(),
        )),
    }
}

/// The coordinates that rotate for head_dim `dim` when `rotary` are asked for (`None`: all of
/// them): even, `2 ≤ rotary_dim ≤ dim`.
pub fn fit_rotary(rotary: Option<usize>, dim: usize) -> usize {
    rotary.map_or(dim, |r| (r.min(dim) / 2 * 2).max(2))
}

/// Position `pos` fitted below `positions`.
pub fn fit_pos(pos: usize, positions: usize) -> usize {
    pos.min(positions.saturating_sub(1))
}

/// The q and k of the q·k figure at head_dim `dim`: every coordinate 1, or two seeded
/// standard-normal vectors (k's seed is q's plus `0x9e37_79b9`).
pub fn qk_vectors(source: QkSource, dim: usize, seed: u64) -> (Vec<f64>, Vec<f64>) {
    match source {
        QkSource::Ones => (vec![1.0; dim], vec![1.0; dim]),
        QkSource::Random => (
            rope::random_vector(dim, seed),
            rope::random_vector(dim, seed.wrapping_add(0x9e37_79b9)),
        ),
    }
}

impl RopeView {
    /// The current position, below the number of positions.
    pub fn current_pos(&self) -> usize {
        fit_pos(self.pos, self.positions)
    }

    /// The coordinates that rotate, fitted to head_dim.
    pub fn rotary(&self) -> usize {
        fit_rotary(Some(self.rotary_dim), self.dim)
    }

    /// The frequencies of the pairs that turn: `inv_freq(rotary_dim, base)`.
    pub fn rotary_inv_freq(&self) -> Vec<f64> {
        rope::inv_freq(self.rotary(), self.base)
    }

    /// The q and k vectors of the q·k figure.
    pub fn qk_vectors(&self) -> (Vec<f64>, Vec<f64>) {
        qk_vectors(self.qk, self.dim, self.seed)
    }
}

rope_fields!(rows declared {
    TABLE RopeView,
    // The position stays below the positions; every coordinate turns unless `r.rot` says.
    |v| {
        v.pos = fit_pos(v.pos, v.positions);
        v.rotary_dim = v.dim;
    };
});

/// The "why not add?" figure's tokens: indices into chapter 1's sentence.
const PAIR_TOKENS: (usize, usize) = (0, limits::TOKENS.1 - 1);

/// Reads sentence `i` of the same-angle figure (kept as written when its words pass).
fn read_sentence(v: &mut RopeView, i: usize, text: &str) -> Option<Notice> {
    check_sentence(text)
        .map(|_| v.sentences[i] = text.to_string())
        .err()
}

/// Reads word `i` of the same-angle figure (stored lower-cased, as compared).
fn read_word(v: &mut RopeView, i: usize, text: &str) -> Option<Notice> {
    check_word(text).map(|w| v.words[i] = w).err()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Declared;
    use crate::params::parse_query as q;

    #[test]
    fn every_written_key_is_a_declared_key() {
        let view = RopeView {
            dim: 64,
            base: 500_000.0,
            layout: Layout::Half,
            positions: 4096,
            pos: 4095,
            rotary_dim: 16,
            qk: QkSource::Random,
            seed: u64::MAX,
            vector: [-1.5, 0.25],
            theta_deg: 90.0,
            vector_pos: 64,
            sentences: ["a b".into(), "c d e".into()],
            words: ["b".into(), "e".into()],
            sentence_theta_deg: 7.5,
            pair: [1, 0],
            shift: 200,
            value_offset: 0,
            cloud: CloudMode::Sinusoidal,
            cloud_positions: 256,
            view: [-90.0, 45.5],
        };
        crate::params::decl::check_round_trip(&TABLE, &view);
    }

    #[test]
    fn bad_values_clamp_or_fall_back_with_notices() {
        let (view, notices) = RopeView::from_query(&q(
            "r.d=7&r.base=1e99&r.layout=x&r.n=1&r.pos=9&r.rot=3&r.qk=zeros&r.seed=-1&r.x=1&r.theta=999&r.vpos=NaN&r.s1=one&r.w1=two%20words&r.stheta=-5",
        ));
        assert_eq!(view.dim, 6);
        assert_eq!(view.base, limits::BASE.1);
        assert_eq!(view.layout, Layout::Interleaved);
        assert_eq!(view.positions, POSITIONS.0);
        assert_eq!(view.pos, 1);
        assert_eq!(view.rotary_dim, 2);
        assert_eq!(view.qk, QkSource::Ones);
        assert_eq!(view.seed, 1);
        assert_eq!(view.vector, [1.0, 0.0]);
        assert_eq!(view.theta_deg, THETA_DEG.1);
        assert_eq!(view.vector_pos, 3);
        assert_eq!(view.sentences, RopeView::default().sentences);
        assert_eq!(view.words[0], "ate");
        assert_eq!(view.sentence_theta_deg, 0.0);
        assert_eq!(notices.len(), 14, "{notices:?}");
    }

    #[test]
    fn rotary_dim_follows_head_dim_unless_given() {
        assert_eq!(RopeView::from_query(&q("r.d=32")).0.rotary_dim, 32);
        assert_eq!(RopeView::from_query(&q("r.d=32&r.rot=64")).0.rotary_dim, 32);
        assert_eq!(RopeView::from_query(&q("r.rot=16&r.d=32")).0.rotary_dim, 16);
    }
}
