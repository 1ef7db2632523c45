//! RoPE in two dimensions: one coordinate pair, rotated by `m·θ` at position `m` (RoFormer §3.2.1,
//! eq. 13 — the `d = 2` case of [`super::rope::rotate`]). The chapter's first figures live here:
//! a vector and its rotations, and the words of two sentences as 2D vectors.

use std::f64::consts::{PI, TAU};

/// `v` rotated counter-clockwise by `angle` radians: `(x cos a − y sin a, x sin a + y cos a)`.
pub fn rotate(v: [f64; 2], angle: f64) -> [f64; 2] {
    let (s, c) = angle.sin_cos();
    [v[0] * c - v[1] * s, v[0] * s + v[1] * c]
}

/// Euclidean length.
pub fn norm(v: [f64; 2]) -> f64 {
    v[0].hypot(v[1])
}

/// The direction of `v` in radians, `atan2(y, x)` in (−π, π] (0 for the zero vector).
pub fn direction(v: [f64; 2]) -> f64 {
    v[1].atan2(v[0])
}

/// The angle from `a` to `b`, counter-clockwise, wrapped to (−π, π].
pub fn angle_between(a: [f64; 2], b: [f64; 2]) -> f64 {
    wrap(direction(b) - direction(a))
}

/// An angle wrapped to (−π, π].
pub fn wrap(angle: f64) -> f64 {
    let a = angle.rem_euclid(TAU);
    if a > PI { a - TAU } else { a }
}

/// The 2D vector of a word in the same-angle figure: the first two coordinates of the toy
/// embedding ([`super::attention::token_embedding`]), scaled to length 1 (so every word is a
/// direction; a zero draw becomes `[1, 0]`).
pub fn word_vector(word: &str) -> [f64; 2] {
    let e = super::attention::token_embedding(word, 2);
    let v = [e[0], e[1]];
    let n = norm(v);
    if n > 1e-12 {
        [v[0] / n, v[1] / n]
    } else {
        [1.0, 0.0]
    }
}

/// The word at each position of a sentence, rotated by `position·theta`.
pub fn rotated_words<S: AsRef<str>>(words: &[S], theta: f64) -> Vec<[f64; 2]> {
    words
        .iter()
        .enumerate()
        .map(|(m, w)| rotate(word_vector(w.as_ref()), m as f64 * theta))
        .collect()
}

/// Where the pair `(first, second)` sits in `words`: the first occurrence of `first`, and the
/// first occurrence of `second` after it (or anywhere, if none follows).
pub fn find_pair<S: AsRef<str>>(words: &[S], first: &str, second: &str) -> Option<(usize, usize)> {
    let a = words.iter().position(|w| w.as_ref() == first)?;
    let b = words
        .iter()
        .skip(a + 1)
        .position(|w| w.as_ref() == second)
        .map(|k| a + 1 + k)
        .or_else(|| words.iter().position(|w| w.as_ref() == second))?;
    Some((a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_stays_within_half_a_turn() {
        for a in [-7.0, -PI, 0.0, PI, 3.5, 100.0] {
            let w = wrap(a);
            assert!(w > -PI && w <= PI);
            assert!(((a - w) / (2.0 * PI) - ((a - w) / (2.0 * PI)).round()).abs() < 1e-9);
        }
    }

    #[test]
    fn quarter_turns_reproduce_the_walkthrough_table() {
        // "Apple" = [1, 0], 90° per position: [0, 1], [−1, 0], [0, −1], then back.
        let apple = [1.0, 0.0];
        let expect = [[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0], [1.0, 0.0]];
        for (m, e) in expect.iter().enumerate() {
            let r = rotate(apple, m as f64 * PI / 2.0);
            assert!(
                (r[0] - e[0]).abs() < 1e-12 && (r[1] - e[1]).abs() < 1e-12,
                "m={m}"
            );
        }
    }

    #[test]
    fn rotation_keeps_length_and_adds_angles() {
        let v = [0.6, -1.3];
        for k in 0..50 {
            let a = k as f64 * 0.37;
            assert!((norm(rotate(v, a)) - norm(v)).abs() < 1e-12);
            let expected = wrap(a);
            assert!(
                (angle_between(v, rotate(v, a)) - expected).abs() < 1e-9,
                "k={k}"
            );
        }
    }

    #[test]
    fn the_angle_between_two_words_depends_only_on_their_distance() {
        let s1 = ["the", "mouse", "ate", "some", "cheese"];
        let s2 = ["in", "the", "house", "a", "cat", "ate", "some", "cheese"];
        for k in 0..40 {
            let theta = k as f64 * 0.11;
            let (a1, b1) = find_pair(&s1, "ate", "cheese").unwrap();
            let (a2, b2) = find_pair(&s2, "ate", "cheese").unwrap();
            let r1 = rotated_words(&s1, theta);
            let r2 = rotated_words(&s2, theta);
            let (x, y) = (angle_between(r1[a1], r1[b1]), angle_between(r2[a2], r2[b2]));
            assert!((x - y).abs() < 1e-9, "θ={theta}: {x} vs {y}");
        }
    }

    #[test]
    fn pairs_are_found_in_order_and_words_are_unit_vectors() {
        assert_eq!(find_pair(&["a", "b", "a", "c"], "a", "c"), Some((0, 3)));
        assert_eq!(find_pair(&["c", "a"], "a", "c"), Some((1, 0)));
        assert_eq!(find_pair(&["a"], "a", "z"), None);
        for w in ["ate", "cheese", "x", "mouse"] {
            assert!((norm(word_vector(w)) - 1.0).abs() < 1e-12);
        }
        assert_eq!(wrap(3.0 * PI), PI);
        assert!((wrap(-3.5 * PI) - 0.5 * PI).abs() < 1e-12);
    }
}
