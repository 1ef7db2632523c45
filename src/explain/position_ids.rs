//! fig-vision-ids's sentences: what the ids of an input of text, an image and a video are, read
//! from the ids the figure draws ([`crate::scene::vision::ids`]), for every input its controls
//! allow.

use crate::math::mrope::{Block, Family, LmRope, Segment};
use crate::scene::vision::ids::Ids;

use super::count;

/// "= 3" for one id, "3–5" for a run.
fn run(lo: usize, hi: usize) -> String {
    if lo == hi {
        format!("= {lo}")
    } else {
        format!("{lo}–{hi}")
    }
}

/// "9, 11 and 13".
fn listed(values: &[usize]) -> String {
    match values {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!(
            "{} and {last}",
            rest.iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// A vision block's sentence: its tokens' time id(s) and the runs of h and w.
fn block_text(what: &str, b: &Block) -> String {
    let Segment::Vision { t, h, w } = b.segment else {
        return String::new();
    };
    let s = b.start;
    let n = t * h * w;
    let time = if t == 1 {
        format!("{} t = {s}", if n == 1 { "has" } else { "share" })
    } else {
        let times: Vec<usize> = (0..t).map(|k| s + k * b.step).collect();
        format!("have t = {} by temporal patch", listed(&times))
    };
    format!(
        "{what}'s {} {time}, with h {} and w {}",
        count(n, "token", "tokens"),
        run(s, s + h - 1),
        run(s, s + w - 1)
    )
}

/// Where the text after block `k` starts, by both rules, as a clause.
fn resume_text(ids: &Ids, k: usize) -> String {
    let (Some(b), Some(next), Some(orig_b), Some(orig_next)) = (
        ids.blocks.get(k),
        ids.blocks.get(k + 1),
        ids.original_blocks.get(k),
        ids.original_blocks.get(k + 1),
    ) else {
        return String::new();
    };
    let Segment::Vision { h, w, .. } = b.segment else {
        return String::new();
    };
    let starts = format!(
        "the text after it starts at {} + max({h}, {w}) = {}",
        b.start, next.start
    );
    if orig_next.start - orig_b.start == next.start - b.start {
        format!("{starts}, as in the original Qwen code")
    } else {
        format!(
            "{starts}, {} the video's largest time id {}; the original Qwen code started it \
             one past the block's largest id, at {} + {} = {}",
            if next.start < b.last() {
                "below"
            } else {
                "equal to"
            },
            b.last(),
            orig_b.start,
            orig_next.start - orig_b.start,
            orig_next.start
        )
    }
}

/// The figure's finding for model `m`.
pub fn finding(m: &LmRope, ids: &Ids) -> String {
    // The input: text, image, text, then the video's block(s), then text.
    let image = 1;
    let mut out = format!(
        "A text token's three ids are equal and grow by one per token. The {}; {}.",
        block_text("image", &ids.blocks[image]),
        resume_text(ids, image)
    );
    let frames: Vec<usize> = (image + 1..ids.blocks.len())
        .filter(|&k| matches!(ids.blocks[k].segment, Segment::Vision { .. }))
        .collect();
    let Some(&first) = frames.first() else {
        return out;
    };
    match m.mrope.family {
        Family::Qwen25Vl { .. } => {
            let b = &ids.blocks[first];
            let step = match b.segment {
                Segment::Vision { t, .. } if t > 1 => format!(
                    " (a step of tokens_per_second {} × 1 s per temporal patch)",
                    b.step
                ),
                _ => String::new(),
            };
            out.push_str(&format!(
                " The {}{step}; {}.",
                block_text("video", b),
                resume_text(ids, first)
            ));
        }
        Family::Qwen3Vl => {
            let (Segment::Vision { h, w, .. }, Segment::Text(stamp)) =
                (ids.blocks[first].segment, ids.blocks[first - 1].segment)
            else {
                return out;
            };
            let times: Vec<usize> = frames.iter().map(|&k| ids.blocks[k].start).collect();
            let apart = if frames.len() > 1 {
                format!(
                    "; consecutive blocks start {stamp} + max({h}, {w}) = {} apart, a distance \
                     set by the text's length and the block's size, not by seconds",
                    stamp + h.max(w)
                )
            } else {
                String::new()
            };
            let after = ids.blocks.last().map_or(0, |b| b.start);
            out.push_str(&format!(
                " {}'s processor writes the video as {} (two sampled frames each), {} image \
                 block with a single t ({}) after {} of text{apart}. A temporal patch's time is \
                 in its timestamp's text. The text after the video starts at {after}, as in the \
                 original Qwen code: every block has a single temporal patch.",
                m.name,
                count(frames.len(), "temporal patch", "temporal patches"),
                if frames.len() == 1 { "one" } else { "each an" },
                listed(&times),
                count(stamp, "token", "tokens"),
            ));
        }
    }
    out
}

/// The readout for token `k`.
pub fn readout(ids: &Ids, k: usize) -> String {
    let (Some(p), Some((now, orig))) = (ids.piece_of(k), ids.at(k)) else {
        return String::new();
    };
    let piece = &ids.pieces[p];
    let off = k - piece.first;
    let place = match ids.blocks.get(p).map(|b| b.segment) {
        Some(Segment::Vision { t, h, w }) => {
            let (kk, i, j) = (off / (h * w), (off / w) % h, off % w);
            if t > 1 {
                format!(" · temporal patch {kk}, row {i}, column {j}")
            } else {
                format!(" · row {i}, column {j}")
            }
        }
        _ => String::new(),
    };
    let [t, h, w] = now;
    let other = if orig == now {
        "the original Qwen code: the same".to_string()
    } else {
        format!(
            "the original Qwen code: ({}, {}, {})",
            orig[0], orig[1], orig[2]
        )
    };
    format!(
        "token {k} · {}{place} · (t, h, w) = ({t}, {h}, {w}) · {other}",
        piece.label
    )
}

/// The strip's text alternative.
pub fn describe(m: &LmRope, ids: &Ids) -> String {
    let pieces: Vec<&str> = ids.pieces.iter().map(|p| p.label.as_str()).collect();
    let differ = (0..ids.len())
        .filter(|&k| ids.at(k).is_some_and(|(a, b)| a != b))
        .count();
    format!(
        "Three rows of numbers, one column per token of an input of {}: {}. Each column gives \
         the token's t, h and w position ids as transformers 5.24 computes them for {}; a \
         fourth row gives the original Qwen code's ids where they differ ({}).",
        count(ids.len(), "token", "tokens"),
        pieces.join(", "),
        m.name,
        if differ == 0 {
            "nowhere here".to_string()
        } else {
            count(differ, "token", "tokens")
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_and_lists_read_naturally() {
        assert_eq!(run(3, 3), "= 3");
        assert_eq!(run(3, 5), "3–5");
        assert_eq!(listed(&[9]), "9");
        assert_eq!(listed(&[9, 11]), "9 and 11");
        assert_eq!(listed(&[9, 11, 13]), "9, 11 and 13");
    }
}
