//! The naive position signals the explainer argues against, and why each fails.
//!
//! - **Adding the integer position** `pos` to every dimension: the signal grows without bound
//!   (`|pos·1| = pos·√d`) and swamps the token embedding, whose entries are of order 1.
//! - **Normalising it** to `pos/(n−1)`: bounded, but the same position means different things in
//!   sequences of different lengths, and neighbours become indistinguishable in long ones.
//! - **A single sine** `sin(pos)`: bounded and length-independent, and one-to-one on the integers
//!   only in exact arithmetic (π is irrational): distinct positions come within any tolerance of
//!   each other (sin 2 ≈ sin 353, within 10⁻³ — the numbers below find such pairs).
//! - **Binary position bits** `bit_b(pos) = ⌊pos/2^b⌋ mod 2`: unique and bounded — and the
//!   same low-to-high frequency ladder as the sinusoidal table, but discrete: nothing between
//!   0 and 1, so distances between positions are not smooth.

/// Norm of the position signal `pos·(1, …, 1)` when the integer position is added to all `d`
/// dimensions: `pos·√d`.
pub fn integer_norm(pos: usize, d: usize) -> f64 {
    pos as f64 * (d as f64).sqrt()
}

/// Norm of the normalised signal `pos/(n−1)·(1, …, 1)`: `pos/(n−1)·√d` (0 for `n = 1`).
pub fn normalized_norm(pos: usize, n: usize, d: usize) -> f64 {
    if n <= 1 {
        0.0
    } else {
        pos as f64 / (n - 1) as f64 * (d as f64).sqrt()
    }
}

/// The nearest later position `q` in `pos+1 ..= limit` with `|sin q − sin pos| < eps`, if any.
/// Precondition: `eps > 0`.
pub fn sine_collision(pos: usize, eps: f64, limit: usize) -> Option<usize> {
    let target = (pos as f64).sin();
    (pos + 1..=limit).find(|&q| ((q as f64).sin() - target).abs() < eps)
}

/// The nearest later position `q` in `pos+1 ..= limit` whose sine *and* cosine both match
/// position `pos` within `eps` — what one (sin, cos) pair can still confuse. Precondition:
/// `eps > 0`.
pub fn pair_collision(pos: usize, eps: f64, limit: usize) -> Option<usize> {
    let (s, c) = (pos as f64).sin_cos();
    (pos + 1..=limit).find(|&q| {
        let (sq, cq) = (q as f64).sin_cos();
        (sq - s).abs() < eps && (cq - c).abs() < eps
    })
}

/// Bit `b` of `pos` (0 or 1), as a number.
pub fn bit(pos: usize, b: u32) -> f64 {
    if b >= usize::BITS {
        0.0
    } else {
        ((pos >> b) & 1) as f64
    }
}

/// Bits needed to write every position below `n` (at least 1).
pub fn bits_for(n: usize) -> u32 {
    (usize::BITS - n.saturating_sub(1).leading_zeros()).max(1)
}

/// The binary table: row `pos` holds bits `0 ..< bits` of `pos`, lowest bit first (fastest
/// flipping on the left, like the sinusoidal table's fastest frequencies). Row-major
/// `n × bits`.
pub fn binary_table(n: usize, bits: u32) -> Vec<f64> {
    (0..n)
        .flat_map(|pos| (0..bits).map(move |b| bit(pos, b)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_signal_grows_sinusoidal_does_not() {
        assert_eq!(integer_norm(0, 64), 0.0);
        assert_eq!(integer_norm(100, 64), 800.0);
        // 32 complete pairs: √32 at any position (`SinusoidalParams::row_norm`).
        let p = crate::math::sinusoidal::SinusoidalParams {
            positions: 10,
            dim: 64,
            base: 10_000.0,
            layout: crate::math::sinusoidal::Layout::Interleaved,
            spacing: crate::math::sinusoidal::Spacing::Paper,
        };
        assert_eq!(p.row_norm(7), 32f64.sqrt());
        assert_eq!(normalized_norm(9, 10, 4), 2.0);
        assert_eq!(normalized_norm(0, 1, 4), 0.0);
    }

    #[test]
    fn sine_collides_at_353_for_position_2() {
        // sin 2 = 0.909297…, sin 353 = 0.909…: 353 + 2 = 355 ≈ 113π, and sin(113π − x) = sin x.
        let q = sine_collision(2, 1e-3, 1000).expect("a collision below 1000");
        assert!(q <= 353, "{q}");
        assert!(((q as f64).sin() - 2f64.sin()).abs() < 1e-3);
        assert!((353f64.sin() - 2f64.sin()).abs() < 1e-3);
        assert_eq!(sine_collision(2, 1e-12, 50), None);
    }

    #[test]
    fn binary_table_counts() {
        assert_eq!(bits_for(1), 1);
        assert_eq!(bits_for(2), 1);
        assert_eq!(bits_for(5), 3);
        assert_eq!(bits_for(1024), 10);
        assert_eq!(
            binary_table(4, 2),
            vec![0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0]
        );
        assert_eq!(bit(5, 200), 0.0);
    }

    #[test]
    fn a_sine_and_cosine_pair_removes_the_near_match_of_one_sine() {
        // sin 353 is within 1e-3 of sin 2 (355 ≈ 113π, and sin(π − x) = sin x), but cos 353 ≈ −cos 2.
        assert_eq!(sine_collision(2, 1e-3, 100_000), Some(353));
        assert!(((353f64).cos() + (2f64).cos()).abs() < 1e-3);
        assert_eq!(pair_collision(2, 1e-3, 100_000), Some(712));
        assert_eq!(pair_collision(2, 1e-1, 100_000), Some(46));
    }
}
