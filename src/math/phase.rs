//! The shared kernel of the fast paths: `sin(p·ω_k)` and `cos(p·ω_k)` for a run of positions
//! `p = 0, 1, 2, …` and a fixed set of angular frequencies `ω_k`, without a `sin` or `cos` per
//! entry.
//!
//! Each step applies the angle-addition rotation
//!
//! ```text
//! sin((p+1)ω) = sin(pω)·cos ω + cos(pω)·sin ω
//! cos((p+1)ω) = cos(pω)·cos ω − sin(pω)·sin ω
//! ```
//!
//! and every [`REANCHOR`] positions the values are recomputed exactly, so the rounding drift of
//! the recurrence never accumulates over more than `REANCHOR` steps (it stays near 1e-14). The
//! per-step loop runs over independent frequencies, so it vectorises.

/// How many steps the recurrence runs before the values are recomputed exactly.
pub const REANCHOR: usize = 64;

/// `sin(p·ω_k)`, `cos(p·ω_k)` for all `k` at the current position `p`.
#[derive(Clone, Debug)]
pub struct Phases {
    omegas: Vec<f64>,
    step_sin: Vec<f64>,
    step_cos: Vec<f64>,
    sin: Vec<f64>,
    cos: Vec<f64>,
    pos: usize,
}

impl Phases {
    /// At position 0 (every sine 0, every cosine 1).
    pub fn new(omegas: Vec<f64>) -> Phases {
        let (step_sin, step_cos) = omegas.iter().map(|w| w.sin_cos()).unzip();
        let k = omegas.len();
        Phases {
            omegas,
            step_sin,
            step_cos,
            sin: vec![0.0; k],
            cos: vec![1.0; k],
            pos: 0,
        }
    }

    /// The current position `p`.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// The frequencies `ω_k`.
    pub fn omegas(&self) -> &[f64] {
        &self.omegas
    }

    /// `sin(p·ω_k)` for every `k`.
    pub fn sin(&self) -> &[f64] {
        &self.sin
    }

    /// `cos(p·ω_k)` for every `k`.
    pub fn cos(&self) -> &[f64] {
        &self.cos
    }

    /// Moves to position `p + 1`.
    pub fn advance(&mut self) {
        self.pos += 1;
        if self.pos.is_multiple_of(REANCHOR) {
            let p = self.pos as f64;
            for ((s, c), w) in self
                .sin
                .iter_mut()
                .zip(self.cos.iter_mut())
                .zip(&self.omegas)
            {
                (*s, *c) = (p * w).sin_cos();
            }
            return;
        }
        for (((s, c), sw), cw) in self
            .sin
            .iter_mut()
            .zip(self.cos.iter_mut())
            .zip(&self.step_sin)
            .zip(&self.step_cos)
        {
            (*s, *c) = (*s * cw + *c * sw, *c * cw - *s * sw);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stepping_matches_exact_sines_and_cosines() {
        let omegas = vec![1.0, 0.37, 1e-4, 3.0];
        let mut ph = Phases::new(omegas.clone());
        for p in 0..1000 {
            assert_eq!(ph.pos(), p);
            for (k, w) in omegas.iter().enumerate() {
                let (s, c) = (p as f64 * w).sin_cos();
                assert!((ph.sin()[k] - s).abs() < 1e-13, "sin p={p} k={k}");
                assert!((ph.cos()[k] - c).abs() < 1e-13, "cos p={p} k={k}");
            }
            ph.advance();
        }
    }

    #[test]
    fn reanchoring_is_exact() {
        let mut ph = Phases::new(vec![0.123]);
        for _ in 0..REANCHOR {
            ph.advance();
        }
        assert_eq!(ph.sin()[0], (REANCHOR as f64 * 0.123).sin());
        assert_eq!(ph.cos()[0], (REANCHOR as f64 * 0.123).cos());
    }
}
