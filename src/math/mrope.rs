//! M-RoPE, the multimodal RoPE of Qwen2.5-VL and Qwen3-VL: each token of the language model gets
//! three position ids (t, h, w), and each rotary frequency pair is driven by one of them.
//!
//! **Position ids** (`get_rope_index` of `Qwen2_5_VLModel` and `Qwen3VLModel`, with
//! `get_vision_position_ids`, as issue 31 describes transformers 5.24's; checked against a record
//! transformers 5.24 made for text and an image, and the rule for the text after a block read in
//! 5.24's `modeling_qwen2_5_vl.py` and `modeling_qwen3_vl.py`): text advances all three ids together, one per token. A vision
//! block (an image, or a video's temporal patches) of `T × H × W` tokens in the language model's
//! units (after the 2×2 spatial merge), starting at id `s`, gives the token in temporal patch `k`,
//! row `i` and column `j` the ids `(s + k·Δt, s + i, s + j)`, in that order (k, then i, then j).
//! The next text starts at `s + max(H, W)` (5.24's `current_pos += max(grid_thw[1],
//! grid_thw[2]) // spatial_merge_size`). The original Qwen code (transformers 4.x's
//! `get_rope_index`, `st_idx = llm_pos_ids_list[-1].max() + 1`) started it one past the block's
//! largest id, `s + max((T − 1)·Δt, H − 1, W − 1) + 1`: the same for an image, not for a video
//! whose time ids outrun its height and width ([`Resume`]).
//! - Qwen2.5-VL: a video's `Δt` is `tokens_per_second` (its vision config) times the seconds per
//!   temporal patch, taken here as 1 s.
//! - Qwen3-VL: its processor writes a video as one `T = 1` block per temporal patch (two sampled
//!   frames; Qwen's code calls it a frame), separated by timestamp text, and 5.24 splits a video
//!   grid into such blocks; a block here must be `T = 1`.
//!
//! **Which id drives which pair** (`mrope_section`, one count of pairs per axis, summing to the
//! pairs of a head):
//! - Qwen2.5-VL, chunked (`Qwen2_5_VLRotaryEmbedding.recomposition_frequencies` in 5.24): the first `section[0]` pairs (the
//!   fastest) follow t, the next `section[1]` follow h, the last `section[2]` (the slowest) w.
//! - Qwen3-VL, interleaved (`Qwen3VLTextRotaryEmbedding.recomposition_frequencies` in 5.24): pair `j` follows
//!   h when `j mod 3 = 1` and `j < 3·section[1]`, w when `j mod 3 = 2` and `j < 3·section[2]`, t
//!   otherwise.
//!
//! Both differ from chapter 2's "interleaved" *pairing* of coordinates, which is about which two
//! coordinates of a head turn together, not which position drives them.

use serde_json::Value;

/// At most this many tokens in one input (the ids are printed, three per token).
pub const MAX_TOKENS: usize = 65_536;

/// One segment of an input: text tokens, or a vision block's grid (language-model units).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Segment {
    /// `n` text tokens.
    Text(usize),
    /// A block of `t × h × w` vision tokens: temporal patches, rows, columns.
    Vision {
        /// Temporal patches (1 for an image).
        t: usize,
        /// Rows.
        h: usize,
        /// Columns.
        w: usize,
    },
}

impl Segment {
    /// Its number of tokens.
    pub fn tokens(self) -> usize {
        match self {
            Segment::Text(n) => n,
            Segment::Vision { t, h, w } => t * h * w,
        }
    }
}

/// Reads an input `text:N,image:T,H,W,…` (comma-separated segments; every count ≥ 1; at most
/// [`MAX_TOKENS`] tokens in all).
pub fn parse_input(spec: &str) -> Result<Vec<Segment>, String> {
    let mut parts = spec.split(',').map(str::trim).peekable();
    let mut segments = Vec::new();
    let count = |what: &str, s: Option<&str>| -> Result<usize, String> {
        let s = s.ok_or_else(|| format!("{what} is missing in \"{spec}\""))?;
        match s.parse::<usize>() {
            Ok(n) if (1..=MAX_TOKENS).contains(&n) => Ok(n),
            _ => Err(format!(
                "{what} is \"{s}\"; expected a whole number from 1 to {MAX_TOKENS}"
            )),
        }
    };
    while let Some(part) = parts.next() {
        let segment = match part.split_once(':') {
            Some(("text", n)) => Segment::Text(count("a text length", Some(n))?),
            Some(("image", t)) => Segment::Vision {
                t: count("an image's T", Some(t))?,
                h: count("an image's H", parts.next())?,
                w: count("an image's W", parts.next())?,
            },
            _ => {
                return Err(format!(
                    "\"{part}\" is not a segment: write text:N or image:T,H,W, separated by commas"
                ));
            }
        };
        segments.push(segment);
        let total = segments
            .iter()
            .try_fold(0usize, |sum, s| sum.checked_add(s.tokens()));
        if total.is_none_or(|n| n > MAX_TOKENS) {
            return Err(format!("the input has more than {MAX_TOKENS} tokens"));
        }
    }
    Ok(segments)
}

/// Which model's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Qwen2.5-VL: chunked sections; a video's time ids step by `tokens_per_second`.
    Qwen25Vl {
        /// `vision_config.tokens_per_second`.
        tokens_per_second: usize,
    },
    /// Qwen3-VL: interleaved sections; one `T = 1` block per video frame.
    Qwen3Vl,
}

/// A model's M-RoPE: its rules, its `mrope_section` and its pairs per head.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mrope {
    /// Whose rules.
    pub family: Family,
    /// Pairs per axis (t, h, w).
    pub section: [usize; 3],
    /// Rotary frequency pairs per head.
    pub pairs: usize,
}

impl Mrope {
    /// Reads it from a config (`model_type` `qwen2_5_vl` or `qwen3_vl`), given the pairs per head
    /// its rotary embedding has. A missing section defaults as the rotary embeddings of
    /// transformers 5.24 default it (`rope_parameters.get("mrope_section", …)`): `[16, 24, 24]`
    /// for Qwen2.5-VL, `[24, 20, 20]` for Qwen3-VL. Qwen2.5-VL's `tokens_per_second` to 4, the default of transformers
    /// 5.24's `Qwen2_5_VLVisionConfig` field (its docstring says 41; the released checkpoints
    /// write 2).
    pub fn from_config(config: &Value, pairs: usize) -> Result<Mrope, String> {
        let model_type = config.get("model_type").and_then(Value::as_str);
        let text = config.get("text_config").filter(|v| v.is_object());
        let rope = |root: &Value| {
            ["rope_scaling", "rope_parameters"]
                .into_iter()
                .find_map(|k| root.get(k).filter(|v| v.is_object()).cloned())
        };
        let rope = text.and_then(rope).or_else(|| rope(config));
        let section = rope.as_ref().and_then(|r| r.get("mrope_section"));
        let family = match model_type {
            Some("qwen2_5_vl") => Family::Qwen25Vl {
                tokens_per_second: match config
                    .get("vision_config")
                    .and_then(|v| v.get("tokens_per_second"))
                {
                    None | Some(Value::Null) => 4,
                    Some(v) => v
                        .as_u64()
                        .filter(|&n| (1..=1000).contains(&n))
                        .ok_or_else(|| {
                            format!(
                                "vision_config.tokens_per_second is {v}; expected a whole number from 1 to 1000"
                            )
                        })? as usize,
                },
            },
            Some("qwen3_vl") => Family::Qwen3Vl,
            other => {
                return Err(format!(
                    "model_type {}: M-RoPE is read for qwen2_5_vl and qwen3_vl",
                    other.map_or("missing".to_string(), |t| format!("\"{t}\""))
                ));
            }
        };
        let section = match (section, family) {
            (None | Some(Value::Null), Family::Qwen3Vl) => [24, 20, 20],
            (None | Some(Value::Null), Family::Qwen25Vl { .. }) => [16, 24, 24],
            (Some(v), _) => {
                let counts: Option<Vec<usize>> = v.as_array().map(|a| {
                    a.iter()
                        .filter_map(|x| x.as_u64().map(|n| n as usize))
                        .collect()
                });
                match counts.as_deref() {
                    Some(&[t, h, w]) if v.as_array().is_some_and(|a| a.len() == 3) => [t, h, w],
                    _ => {
                        return Err(format!(
                            "mrope_section is {v}; expected three whole numbers"
                        ));
                    }
                }
            }
        };
        if section.iter().sum::<usize>() != pairs {
            return Err(format!(
                "mrope_section {section:?} sums to {}, but a head has {pairs} rotary pairs",
                section.iter().sum::<usize>()
            ));
        }
        Ok(Mrope {
            family,
            section,
            pairs,
        })
    }

    /// The axis (0 = t, 1 = h, 2 = w) whose id drives each pair, fastest pair first.
    pub fn axis_of_pair(&self) -> Vec<u8> {
        let [t, h, w] = self.section;
        (0..self.pairs)
            .map(|j| match self.family {
                Family::Qwen25Vl { .. } => {
                    if j < t {
                        0
                    } else if j < t + h {
                        1
                    } else {
                        2
                    }
                }
                Family::Qwen3Vl => {
                    if j % 3 == 1 && j < 3 * h {
                        1
                    } else if j % 3 == 2 && j < 3 * w {
                        2
                    } else {
                        0
                    }
                }
            })
            .collect()
    }

    /// The (t, h, w) ids of every token of `input`, in input order, as transformers 5.24
    /// computes them (see the module's text).
    pub fn position_ids(&self, input: &[Segment]) -> Result<[Vec<usize>; 3], String> {
        self.position_ids_by(input, Resume::Transformers524)
    }

    /// The (t, h, w) ids of every token of `input`, in input order, the text after a vision
    /// block resuming by `resume`.
    pub fn position_ids_by(
        &self,
        input: &[Segment],
        resume: Resume,
    ) -> Result<[Vec<usize>; 3], String> {
        let mut ids: [Vec<usize>; 3] = Default::default();
        for block in self.blocks(input, resume)? {
            match block.segment {
                Segment::Text(n) => {
                    for axis in &mut ids {
                        axis.extend(block.start..block.start + n);
                    }
                }
                Segment::Vision { t, h, w } => {
                    for k in 0..t {
                        for i in 0..h {
                            for j in 0..w {
                                ids[0].push(block.start + k * block.step);
                                ids[1].push(block.start + i);
                                ids[2].push(block.start + j);
                            }
                        }
                    }
                }
            }
        }
        Ok(ids)
    }

    /// Each segment of `input` with the id it starts at and its time step, the text after a
    /// vision block resuming by `resume`.
    pub fn blocks(&self, input: &[Segment], resume: Resume) -> Result<Vec<Block>, String> {
        let mut blocks = Vec::with_capacity(input.len());
        let mut start = 0usize;
        for &segment in input {
            match segment {
                Segment::Text(n) => {
                    blocks.push(Block {
                        segment,
                        start,
                        step: 1,
                    });
                    start += n;
                }
                Segment::Vision { t, h, w } => {
                    let step = match self.family {
                        Family::Qwen25Vl { tokens_per_second } => tokens_per_second,
                        Family::Qwen3Vl if t == 1 => 0,
                        Family::Qwen3Vl => {
                            return Err(format!(
                                "image:{t},{h},{w}: Qwen3-VL writes a video as one T = 1 block per frame, separated by text (its processor's timestamps)"
                            ));
                        }
                    };
                    blocks.push(Block {
                        segment,
                        start,
                        step,
                    });
                    start += match resume {
                        Resume::Transformers524 => h.max(w),
                        Resume::Original => ((t - 1) * step).max(h - 1).max(w - 1) + 1,
                    };
                }
            }
        }
        Ok(blocks)
    }
}

/// Where the text after a vision block starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resume {
    /// transformers 5.24's `get_rope_index`: at the block's start plus max(H, W)
    /// (`current_pos += max(grid_thw[1], grid_thw[2]) // spatial_merge_size`).
    Transformers524,
    /// The original Qwen code (transformers 4.x's `get_rope_index`): one past the block's
    /// largest id (`st_idx = llm_pos_ids_list[-1].max() + 1`).
    Original,
}

/// One segment of an input, placed: the id it starts at and, for a vision block, the step of its
/// time id from one temporal patch to the next (0 for a single one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    /// The segment.
    pub segment: Segment,
    /// Its first token's ids (all three equal).
    pub start: usize,
    /// A vision block's time step (text: 1).
    pub step: usize,
}

impl Block {
    /// Its largest id.
    pub fn last(&self) -> usize {
        match self.segment {
            Segment::Text(n) => self.start + n.saturating_sub(1),
            Segment::Vision { t, h, w } => {
                self.start
                    + (t.saturating_sub(1) * self.step)
                        .max(h.saturating_sub(1))
                        .max(w.saturating_sub(1))
            }
        }
    }
}

/// A language model's rotary embedding as its published config sets it.
#[derive(Clone, Debug, PartialEq)]
pub struct LmRope {
    /// Its name on the page.
    pub name: &'static str,
    /// `rope_theta`.
    pub theta: f64,
    /// Coordinates per head (`hidden_size / num_attention_heads`, or `head_dim`).
    pub head_dim: usize,
    /// Its M-RoPE rules and `mrope_section`.
    pub mrope: Mrope,
}

/// Qwen2.5-VL-7B-Instruct's config.json (the shared reference's excerpt): hidden_size 3584 over
/// 28 heads, `rope_theta` 10⁶, `rope_scaling.mrope_section` [16, 24, 24], `tokens_per_second` 2.
pub const QWEN25_VL_7B: LmRope = LmRope {
    name: "Qwen2.5-VL-7B",
    theta: 1e6,
    head_dim: 128,
    mrope: Mrope {
        family: Family::Qwen25Vl {
            tokens_per_second: 2,
        },
        section: [16, 24, 24],
        pairs: 64,
    },
};

/// Qwen3-VL-8B-Instruct's config.json (the shared reference's excerpt): `text_config.head_dim`
/// 128, `rope_theta` 5·10⁶, `rope_scaling.mrope_section` [24, 20, 20], `mrope_interleaved` true.
pub const QWEN3_VL_8B: LmRope = LmRope {
    name: "Qwen3-VL-8B",
    theta: 5e6,
    head_dim: 128,
    mrope: Mrope {
        family: Family::Qwen3Vl,
        section: [24, 20, 20],
        pairs: 64,
    },
};

/// The axes' names, by index (0 = t, 1 = h, 2 = w).
pub const AXES: [&str; 3] = ["t (time)", "h (height)", "w (width)"];

impl LmRope {
    /// Pair `j`'s frequency in radians per position, `θ^(−2j/head_dim)`.
    pub fn omega(&self, j: usize) -> f64 {
        self.theta.powf(-2.0 * j as f64 / self.head_dim as f64)
    }

    /// Pair `j`'s wavelength in positions, `2π·θ^(2j/head_dim)`.
    pub fn wavelength(&self, j: usize) -> f64 {
        std::f64::consts::TAU * self.theta.powf(2.0 * j as f64 / self.head_dim as f64)
    }

    /// "chunked" or "interleaved".
    pub fn layout(&self) -> &'static str {
        match self.mrope.family {
            Family::Qwen25Vl { .. } => "chunked",
            Family::Qwen3Vl => "interleaved",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn qwen25() -> Mrope {
        Mrope {
            family: Family::Qwen25Vl {
                tokens_per_second: 2,
            },
            section: [16, 24, 24],
            pairs: 64,
        }
    }

    fn qwen3() -> Mrope {
        Mrope {
            family: Family::Qwen3Vl,
            section: [24, 20, 20],
            pairs: 64,
        }
    }

    #[test]
    fn input_reads_text_and_images_and_refuses_the_rest() {
        assert_eq!(
            parse_input("text:5, image:1,4,6,text:2"),
            Ok(vec![
                Segment::Text(5),
                Segment::Vision { t: 1, h: 4, w: 6 },
                Segment::Text(2)
            ])
        );
        for bad in [
            "",
            "text:0",
            "text:x",
            "image:1,4",
            "video:1,2,3",
            "text:5,",
            "image:300,300,300",
        ] {
            assert!(parse_input(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn chunked_sections_give_the_fastest_pairs_to_time() {
        let axes = qwen25().axis_of_pair();
        assert_eq!(axes.len(), 64);
        assert!(axes[..16].iter().all(|&a| a == 0));
        assert!(axes[16..40].iter().all(|&a| a == 1));
        assert!(axes[40..].iter().all(|&a| a == 2));
    }

    #[test]
    fn interleaved_sections_cycle_and_leave_the_last_pairs_to_time() {
        let axes = qwen3().axis_of_pair();
        assert_eq!(&axes[..6], &[0, 1, 2, 0, 1, 2]);
        assert!(axes[60..].iter().all(|&a| a == 0), "{:?}", &axes[60..]);
        let count = |axis| axes.iter().filter(|&&a| a == axis).count();
        assert_eq!((count(0), count(1), count(2)), (24, 20, 20));
    }

    #[test]
    fn text_after_a_block_starts_at_its_start_plus_its_larger_side() {
        let input = parse_input("text:2,image:1,3,5,text:1").unwrap();
        let [t, h, w] = qwen3().position_ids(&input).unwrap();
        assert_eq!(t.len(), 2 + 15 + 1);
        // The block starts at 2: t stays 2, h runs 2..4, w 2..6; the text after it is at 2 + 5.
        assert_eq!((t[2], h[2], w[2]), (2, 2, 2));
        assert_eq!((t[16], h[16], w[16]), (2, 4, 6));
        assert_eq!((t[17], h[17], w[17]), (7, 7, 7));
    }

    #[test]
    fn a_qwen25_video_steps_time_by_tokens_per_second_and_qwen3_refuses_one() {
        let input = parse_input("image:3,2,2,text:1").unwrap();
        let [t, _, _] = qwen25().position_ids(&input).unwrap();
        assert_eq!(&t[..12], &[0, 0, 0, 0, 2, 2, 2, 2, 4, 4, 4, 4]);
        // 5.24 starts the text at 0 + max(2, 2) = 2, below the video's last time id (4).
        assert_eq!(t[12], 2);
        assert!(qwen3().position_ids(&input).is_err());
        // The original code resumes one past the largest id, 4: the video's last time id.
        let [t, h, w] = qwen25().position_ids_by(&input, Resume::Original).unwrap();
        assert_eq!((t[12], h[12], w[12]), (5, 5, 5));
    }

    #[test]
    fn both_rules_agree_after_an_image_and_a_short_video() {
        let input = parse_input("text:3,image:1,2,5,text:2,image:2,4,4,text:1").unwrap();
        let m = qwen25();
        assert_eq!(
            m.position_ids(&input),
            m.position_ids_by(&input, Resume::Original)
        );
        let blocks = m.blocks(&input, Resume::Transformers524).unwrap();
        assert_eq!(
            blocks
                .iter()
                .map(|b| (b.start, b.last()))
                .collect::<Vec<_>>(),
            [(0, 2), (3, 7), (8, 9), (10, 13), (14, 14)]
        );
    }

    #[test]
    fn a_config_must_name_its_sections_and_they_must_fill_the_head() {
        let q25 = serde_json::json!({
            "model_type": "qwen2_5_vl",
            "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]},
            "vision_config": {"tokens_per_second": 2}
        });
        assert_eq!(Mrope::from_config(&q25, 64), Ok(qwen25()));
        assert!(Mrope::from_config(&q25, 32).is_err());
        // Without tokens_per_second, Qwen2_5_VLVisionConfig's field default: 4.
        let bare = serde_json::json!({
            "model_type": "qwen2_5_vl",
            "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}
        });
        let read = Mrope::from_config(&bare, 64).unwrap();
        assert_eq!(
            read.family,
            Family::Qwen25Vl {
                tokens_per_second: 4
            }
        );
        // Without mrope_section, Qwen2_5_VLRotaryEmbedding's default.
        let unsectioned = serde_json::json!({"model_type": "qwen2_5_vl"});
        let read = Mrope::from_config(&unsectioned, 64).unwrap();
        assert_eq!(read.section, [16, 24, 24]);
        let q3 = serde_json::json!({"model_type": "qwen3_vl", "text_config": {}});
        assert_eq!(Mrope::from_config(&q3, 64), Ok(qwen3()));
        let llama = serde_json::json!({"model_type": "llama"});
        assert!(Mrope::from_config(&llama, 64).is_err());
    }
}
