//! The partial-rotation figure's sentences (fig-models-partial): which layer is drawn and with
//! which `partial_rotary_factor`, what each convention turns (pairs, coordinates, wavelengths),
//! and where the two part — each computed from [`crate::math::partial`].

use std::f64::consts::TAU;

use super::{grouped, theta_text};
use crate::explain::count;
use crate::math::partial::{Convention, Fraction, HeadNote, Partial, Role};
use crate::params::{format_significant, round_significant};
use crate::scene::models::{PartialLayer, Passed};

/// A count of tokens to three significant digits, grouped when 1000 or more: 6.28, 188,
/// 5 120 000.
pub fn tokens_text(x: f64) -> String {
    let r = round_significant(x, 3);
    if (1000.0..1e15).contains(&r) {
        grouped(r.round() as u64)
    } else {
        format_significant(x, 3)
    }
}

/// "coordinates 0–63", "coordinate 5", "no coordinate".
fn span(lo: usize, hi_excl: usize) -> String {
    match hi_excl.saturating_sub(lo) {
        0 => "no coordinate".to_string(),
        1 => format!("coordinate {lo}"),
        _ => format!("coordinates {lo}–{}", hi_excl - 1),
    }
}

/// Which layer is drawn (and why, when not the chosen one), its type and convention, and the
/// `partial_rotary_factor` drawn.
pub fn layer_sentence(l: &PartialLayer, fraction: Fraction, chosen: usize) -> String {
    let mut s = match &l.passed {
        None => String::new(),
        Some(Passed::NoRope) => format!(
            "Layer {chosen} does not rotate q and k; drawn: layer {}, the nearest that does. ",
            l.layer
        ),
        Some(Passed::Unread(e)) => format!(
            "Layer {chosen}'s RoPE could not be read ({e}); drawn: layer {}, the nearest that \
             reads. ",
            l.layer
        ),
    };
    let own = &l.own.partial;
    s.push_str(&format!(
        "Layer {} is a {} layer with rope_type {}, so transformers lays its rotation out as {}; \
         head_dim {}, θ {}: ",
        l.layer,
        l.attention.as_str(),
        l.own.rope_type,
        l.own.convention.label(),
        own.head_dim,
        theta_text(own.theta),
    ));
    let proportional = l.own.convention == Convention::Proportional;
    s.push_str(&if proportional {
        let t = own.turning(Convention::Proportional);
        format!(
            "int(partial_rotary_factor × head_dim // 2) = {t} of its {} turn.",
            count(own.head_dim / 2, "pair", "pairs")
        )
    } else if own.rotary == own.head_dim {
        "it rotates its whole head.".to_string()
    } else if l.own.notes.contains(&HeadNote::FractionFails) {
        format!(
            "its frequencies are computed for part of it, r = int(head_dim × \
             partial_rotary_factor) = {}.",
            own.rotary
        )
    } else {
        format!(
            "it rotates part of it, r = int(head_dim × partial_rotary_factor) = {}.",
            own.rotary
        )
    });
    for note in &l.own.notes {
        s.push(' ');
        s.push_str(&match note {
            HeadNote::GlobalHeadDim => {
                "(Gemma 4's full layers read global_head_dim, not head_dim.)".to_string()
            }
            HeadNote::RopePart { whole } => format!(
                "(Its head_dim is qk_rope_head_dim: the rotated part of each q/k head of {whole}; \
                 the other {} coordinates of that head never rotate.)",
                whole.saturating_sub(own.head_dim)
            ),
            HeadNote::FractionIgnored { rotary } => format!(
                "The config's partial_rotary_factor (r = {rotary}) is ignored: this model type's \
                 default RoPE reads only head_dim, and it rotates the whole head."
            ),
            HeadNote::FractionFails => format!(
                "With rope_type {} its frequencies cover only r = {} coordinates, but this model \
                 type rotates the whole head: transformers 5.24 would fail to run it.",
                l.own.rope_type, own.rotary
            ),
        });
    }
    if let Some(f) = fraction.value() {
        let r = Partial::rotary_of(own.head_dim, f);
        s.push_str(&if r == own.rotary {
            format!(
                " The chosen partial_rotary_factor {f} gives the layer's own r = int({} × {f}) = \
                 {r}.",
                own.head_dim
            )
        } else {
            format!(
                " Drawn with partial_rotary_factor {f} instead (chosen above): r = int({} × {f}) = \
                 {r}.",
                own.head_dim
            )
        });
    }
    if own.factor != 1.0 {
        s.push_str(&format!(
            " Both conventions divide every frequency by its factor {}, and so does the figure.",
            own.factor
        ));
    }
    if !matches!(
        l.own.rope_type.as_str(),
        "default" | "linear" | "proportional"
    ) {
        s.push_str(&format!(
            " Its {} scaling then changes the frequencies further: they are drawn before it \
             (chapter 3 draws that scaling).",
            l.own.rope_type
        ));
    }
    s
}

/// The wavelengths of turning pairs `0` and `t − 1` under `c`: "6.28 to 188 tokens".
fn wavelengths(p: &Partial, c: Convention) -> String {
    let t = p.turning(c);
    let first = TAU / p.omega(c, 0);
    if t == 1 {
        format!("a wavelength of {} tokens", tokens_text(first))
    } else {
        format!(
            "wavelengths from {} to {} tokens",
            tokens_text(first),
            tokens_text(TAU / p.omega(c, t - 1))
        )
    }
}

/// What proportional turns.
pub fn proportional_sentence(p: &Partial) -> String {
    let c = Convention::Proportional;
    let (t, half) = (p.turning(c), p.head_dim / 2);
    if t == 0 {
        return "proportional: int(partial_rotary_factor × head_dim // 2) is 0, so no pair \
                turns: every frequency is 0."
            .to_string();
    }
    let turn = match (t, half) {
        (1, 1) => "its one pair turns".to_string(),
        (1, _) => format!("1 of {half} pairs turns"),
        _ if t == half => format!("all {half} pairs turn"),
        _ => format!("{t} of {half} pairs turn"),
    };
    let rest = match half - t {
        0 => String::new(),
        n => format!(
            "; the other {} exactly 0, so cos is 1 and sin 0 at every position: {} and {} \
             never move",
            if n == 1 {
                "pair has frequency".to_string()
            } else {
                format!("{n} pairs have frequency")
            },
            span(t, half),
            span(half + t, p.head_dim)
        ),
    };
    format!(
        "proportional: {turn}, pair i joining coordinates i and i + {half} across the whole \
         head's halves, at ω_i = θ^(−2i/{}) over the whole head: {}{rest}.",
        p.head_dim,
        wavelengths(p, c),
    )
}

/// What rotary_dim turns.
pub fn rotary_sentence(p: &Partial) -> String {
    let c = Convention::RotaryDim;
    let (t, w) = (p.turning(c), p.rotated(c));
    if t == 0 {
        return "rotary_dim: r is 0, so no coordinate rotates.".to_string();
    }
    let pairing = if p.interleaved {
        "pair i joining the adjacent coordinates 2i and 2i + 1".to_string()
    } else {
        format!("pair i joining coordinates i and i + {}", w / 2)
    };
    let odd = if p.rotary % 2 == 1 {
        format!(
            " (r is odd: its {} cos and sin {w} wide, so {w} coordinates rotate)",
            if t == 1 {
                "one frequency makes".to_string()
            } else {
                format!("{t} frequencies make")
            }
        )
    } else {
        String::new()
    };
    let rest = match p.head_dim - w {
        0 => String::new(),
        1 => format!("; coordinate {w} passes through unrotated"),
        _ => format!("; {} pass through unrotated", span(w, p.head_dim)),
    };
    format!(
        "rotary_dim: {} rotate{odd}, {pairing}, at ω_i = θ^(−2i/{}) over r: {} with {}{rest}.",
        span(0, w),
        p.rotary,
        count(t, "pair", "pairs"),
        wavelengths(p, c),
    )
}

/// Where the two conventions part, and what a port that mixes them gets wrong.
pub fn mixing_sentence(p: &Partial) -> String {
    let (prop, rot) = (Convention::Proportional, Convention::RotaryDim);
    if p.turning(prop) == 0 && p.turning(rot) == 0 {
        return "Neither convention turns any pair at this partial_rotary_factor: both leave \
                the head as it is."
            .to_string();
    }
    if p.rotary == p.head_dim {
        return if p.interleaved {
            "Here both turn every pair at the same frequencies, but this model pairs the \
             adjacent coordinates 2i and 2i + 1 where proportional's rotate_half pairs i and \
             i + h/2: the same frequencies land on different coordinates. (Below f = 1 the \
             conventions also part in which pairs turn and how fast.)"
                .to_string()
        } else {
            "Here both rotate the whole head, pair the same coordinates and turn them at the \
             same frequencies: the two conventions part only when the part that rotates is \
             narrower than the head."
                .to_string()
        };
    }
    let both = p.turning_in_both();
    let mut s = match both {
        0 => "The two part: no coordinate of the head turns under both".to_string(),
        1 => "The two part: only 1 coordinate of the head turns under both".to_string(),
        n => format!("The two part: only {n} coordinates of the head turn under both"),
    };
    let common = p.turning(prop).min(p.turning(rot));
    if common >= 2 {
        let k = common - 1;
        let (lp, lr) = (TAU / p.omega(prop, k), TAU / p.omega(rot, k));
        s.push_str(&format!(
            ", and every frequency but pair 0's differs: pair {k} turns every {} tokens under \
             proportional and every {} under rotary_dim ({} times as long)",
            tokens_text(lp),
            tokens_text(lr),
            tokens_text(lr / lp),
        ));
    }
    s.push_str(
        ". A port that reads a proportional layer's partial_rotary_factor the rotary_dim way \
         (or the reverse) turns the wrong coordinates at the wrong speeds, with no error \
         message: the weights load either way.",
    );
    s
}

/// The readout for coordinate `x`: its pair and partner under each convention.
pub fn coordinate_text(p: &Partial, x: usize) -> String {
    let part = |c: Convention| match p.role(c, x) {
        Role::Turns {
            pair,
            partner,
            omega,
        } => format!(
            "{} turns it with coordinate {partner} as pair {pair}, ω = {} (a turn every {} \
             tokens)",
            c.label(),
            format_significant(omega, 4),
            tokens_text(TAU / omega)
        ),
        Role::Still { pair, partner } => format!(
            "{} puts it in pair {pair} with coordinate {partner}, at ω = 0: it never moves",
            c.label()
        ),
        Role::Passes => format!("{} leaves it unrotated", c.label()),
    };
    format!(
        "Coordinate {x}: {}; {}.",
        part(Convention::Proportional),
        part(Convention::RotaryDim)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_read_to_three_digits() {
        assert_eq!(tokens_text(std::f64::consts::TAU), "6.28");
        assert_eq!(tokens_text(188.3), "188");
        assert_eq!(tokens_text(5_123_456.0), "5\u{202F}120\u{202F}000");
        // 247/10⁻⁵ is 24 699 999.999999996 in f64: rounded, not truncated.
        assert_eq!(tokens_text(247.0 / 1e-5), "24\u{202F}700\u{202F}000");
    }

    #[test]
    fn gemma_4s_numbers() {
        let p = Partial {
            head_dim: 512,
            rotary: 128,
            theta: 1e6,
            factor: 1.0,
            interleaved: false,
        };
        let s = proportional_sentence(&p);
        assert!(s.contains("64 of 256 pairs turn"), "{s}");
        assert!(s.contains("to 188 tokens"), "{s}");
        assert!(
            s.contains("coordinates 64–255 and coordinates 320–511"),
            "{s}"
        );
        let r = rotary_sentence(&p);
        assert!(r.contains("coordinates 0–127 rotate"), "{r}");
        assert!(r.contains("coordinates 128–511 pass through"), "{r}");
        let m = mixing_sentence(&p);
        assert!(m.contains("only 64 coordinates"), "{m}");
    }
}
