//! fig-vision-video's sentences: how much a chosen rotary pair turns a video's tokens from one
//! temporal patch, row and column to the next, read from the angles the figure draws
//! ([`crate::scene::vision::video`]).

use crate::math::mrope::{AXES, Family, LmRope};
use crate::scene::vision::video::Clip;

use super::count;

/// A turn of `a` radians: "does not turn", "turns by 2.000 rad (114.6°)", "turns by 12.000 rad
/// (327.5° after whole turns)", or for a tiny one "turns by 2.600e-7 rad".
pub fn turn_text(a: f64) -> String {
    let tau = std::f64::consts::TAU;
    if a == 0.0 {
        "does not turn".to_string()
    } else if a.abs() < 1e-3 {
        format!("turns by {a:.3e} rad")
    } else if a.abs() < tau {
        format!("turns by {a:.3} rad ({:.1}°)", a.to_degrees())
    } else {
        format!(
            "turns by {a:.3} rad ({:.1}° after whole turns)",
            a.rem_euclid(tau).to_degrees()
        )
    }
}

/// The angle difference between tokens `a` and `b` of `clip`, if both exist.
fn step(clip: &Clip, a: (usize, usize, usize), b: (usize, usize, usize)) -> Option<f64> {
    Some(clip.angles[clip.index(b)?] - clip.angles[clip.index(a)?])
}

/// The axis's short name: "t", "h" or "w".
fn short(axis: u8) -> &'static str {
    ["t", "h", "w"][usize::from(axis) % 3]
}

/// The figure's finding for model `m`.
pub fn finding(m: &LmRope, clip: &Clip) -> String {
    let (t, h, w) = clip.shape;
    let mut out = format!(
        "Pair {} of {} turns by ω = {} rad per position (a wavelength of {} positions) and \
         follows the {} id. Its angle",
        clip.pair,
        m.name,
        super::vision::wavelength_text(clip.omega),
        super::vision::wavelength_text(std::f64::consts::TAU / clip.omega),
        AXES[usize::from(clip.axis)],
    );
    let mut parts = Vec::new();
    for (what, single, next) in [
        ("temporal patch", t, (1, 0, 0)),
        ("row", h, (0, 1, 0)),
        ("column", w, (0, 0, 1)),
    ] {
        parts.push(match step(clip, (0, 0, 0), next) {
            Some(d) => format!("{} from one {what} to the next", turn_text(d)),
            None => format!("cannot turn between {what}s (the video has {single})"),
        });
    }
    out.push(' ');
    out.push_str(&parts.join(", "));
    out.push('.');
    // Qwen3-VL's blocks start later one after another: every id advances between them.
    if t > 1 && matches!(m.mrope.family, Family::Qwen3Vl) {
        let (a, b) = (clip.ids[0], clip.ids[clip.index((1, 0, 0)).unwrap_or(0)]);
        let moved = b[usize::from(clip.axis)] - a[usize::from(clip.axis)];
        let block = format!(
            "each temporal patch is a block of its own, {moved} positions after the one before \
             (its timestamp text plus the larger of the block's sides)"
        );
        out.push_str(&if clip.axis == 0 {
            format!(
                " Its t id steps by {moved} between temporal patches: {block}; the t id counts \
                 those positions, not seconds."
            )
        } else {
            format!(
                " It follows {}, yet it turns between temporal patches: {block}, and every id \
                 moves with it.",
                short(clip.axis)
            )
        });
    }
    out
}

/// The readout for token `n`.
pub fn readout(clip: &Clip, n: usize) -> String {
    let Some(id) = clip.ids.get(n) else {
        return String::new();
    };
    let (k, i, j) = clip.place(n);
    let a = clip.angles[n];
    let axis = usize::from(clip.axis);
    format!(
        "temporal patch {k}, row {i}, column {j} · (t, h, w) = ({}, {}, {}) · pair {}: angle = \
         {}·ω = {} rad, {:.1}° after whole turns",
        id[0],
        id[1],
        id[2],
        clip.pair,
        id[axis],
        super::vision::wavelength_text(a),
        a.rem_euclid(std::f64::consts::TAU).to_degrees()
    )
}

/// The cloud's text alternative.
pub fn describe(m: &LmRope, clip: &Clip, shown: usize) -> String {
    let (t, h, w) = clip.shape;
    format!(
        "A video of {} of {h} × {w} tokens as points at their position ids (t, h, w), {} \
         shown, each coloured by the angle of {}'s rotary pair {} (which follows {}) at the \
         token's position ids, on a colour wheel from 0 to 2π.",
        count(t, "temporal patch", "temporal patches"),
        count(shown.min(t), "temporal patch", "temporal patches"),
        m.name,
        clip.pair,
        short(clip.axis)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_read_in_radians_and_degrees() {
        assert_eq!(turn_text(0.0), "does not turn");
        assert_eq!(turn_text(2.0), "turns by 2.000 rad (114.6°)");
        assert_eq!(
            turn_text(12.0),
            "turns by 12.000 rad (327.5° after whole turns)"
        );
        assert_eq!(turn_text(2.6e-7), "turns by 2.600e-7 rad");
    }
}
