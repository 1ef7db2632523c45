//! Transformer-XL's relative attention score (Dai et al. 2019, "Transformer-XL: Attentive Language
//! Models Beyond a Fixed-Length Context", §3.3) in the toy model of [`super::attention`].
//!
//! With absolute positions added to the input, a score splits into four terms
//! ([`super::rope_terms`]). Transformer-XL rewrites each of them (§3.3, the equation for
//! `A^rel_{i,j}`):
//!
//! ```text
//! A^rel_{i,j} = E_{x_i}ᵀ W_qᵀ W_{k,E} E_{x_j}    (a) content-based addressing
//!             + E_{x_i}ᵀ W_qᵀ W_{k,R} R_{i−j}    (b) content-dependent positional bias
//!             + uᵀ W_{k,E} E_{x_j}              (c) global content bias
//!             + vᵀ W_{k,R} R_{i−j}              (d) global positional bias
//! ```
//!
//! The key's absolute position becomes `R_{i−j}`, a sinusoid of the distance with no learned
//! parameter, projected by a matrix of its own, `W_{k,R}`; the query's position terms become two
//! learned vectors `u` and `v`, the same at every position. Nothing depends on `i` or `j` except
//! through `i − j`.
//!
//! The authors' code (kimiyoung/transformer-xl, `pytorch/mem_transformer.py`) computes it so:
//! - `PositionalEmbedding`: `inv_freq = 1/10000^(2k/d)`, `R_t = [sin(t·inv_freq) | cos(t·inv_freq)]`
//!   (the sine block, then the cosine block);
//! - `MemTransformerLM._forward`: the distances `pos_seq = klen − 1, …, 1, 0`, descending, capped
//!   at `clamp_len` when it is set (`pos_seq.clamp_(max=clamp_len)`; the released evaluation
//!   scripts set it, e.g. 1000 on WikiText-103; the toy's sentences are far shorter);
//! - `RelPartialLearnableMultiHeadAttn.forward`: `AC = (q_i + u)·k_j` (terms a + c), one row of
//!   `BD = (q_i + v)·(W_{k,R} R_t)` per query with one column per distance (terms b + d),
//!   `_rel_shift(BD)` to put the column of distance `i − j` under key `j`, and
//!   `score = (AC + BD)/√d_head`; the causal mask (`dec_attn_mask`) hides `j > i`.
//!
//! The toy: width [`TOY_DIM`], one head (`d_head = d`), embeddings [`token_embedding`], `W_q` and
//! `W_{k,E}` the toy's own [`projections`]; `W_{k,R}` (entries uniform in `[−1, 1)·2/√d`, the
//! toy's scale), `u` and `v` (entries uniform in `[−1, 1)`) drawn from one SplitMix64 stream of
//! the seed, in that order. No memory (`mlen = 0`): `klen = qlen = n`.

use super::attention::{SplitMix64, TOY_DIM, mat_vec, projections, token_embedding};
use super::rope::dot;
use super::sinusoidal::{Layout, SinusoidalParams, Spacing};

/// The seeded parameters of the position terms: `W_{k,R}` (`d × d`, row-major, applied as
/// `W·R`), `u` and `v`.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// `W_{k,R}`: projects the distance's sinusoid `R_{i−j}` into key space.
    pub w_kr: Vec<f64>,
    /// `u`: the query's stand-in in the global content bias (c).
    pub u: Vec<f64>,
    /// `v`: the query's stand-in in the global position bias (d).
    pub v: Vec<f64>,
}

/// `W_{k,R}`, `u` and `v` of the toy at [`TOY_DIM`], from one SplitMix64 stream of `seed` (see
/// the module's doc).
pub fn params(seed: u64) -> Params {
    let d = TOY_DIM;
    let mut rng = SplitMix64(seed);
    let scale = 2.0 / (d as f64).sqrt();
    let w_kr = (0..d * d).map(|_| rng.next_signed() * scale).collect();
    let u = (0..d).map(|_| rng.next_signed()).collect();
    let v = (0..d).map(|_| rng.next_signed()).collect();
    Params { w_kr, u, v }
}

/// `R_t`, the sinusoid of distance `t` as `PositionalEmbedding` builds it: `[sin(t·ω_k) | cos(t·ω_k)]`,
/// `ω_k = 1/10000^(2k/d)` (the half-split layout with the paper's spacing).
pub fn relative_embedding(distance: usize) -> Vec<f64> {
    SinusoidalParams {
        positions: distance + 1,
        dim: TOY_DIM,
        base: 10_000.0,
        layout: Layout::Half,
        spacing: Spacing::Paper,
    }
    .row(distance)
}

/// The authors' `_rel_shift` on a row-major `rows × cols` matrix: a zero column is put in front
/// of every row, the `rows × (cols + 1)` result is read as `(cols + 1) × rows`, its first row
/// dropped, and the rest read back as `rows × cols` — the same numbers, moved.
///
/// With `cols = rows = n` and column `c` holding distance `n − 1 − c`, entry `(i, j)` of the
/// result for `j ≤ i` is the input's `(i, n − 1 − (i − j))`: distance `i − j`. Above the diagonal
/// it holds a zero (`j = i + 1`) and then the next row's first numbers, `(i + 1, j − i − 2)`,
/// which the causal mask hides.
pub fn rel_shift(x: &[f64], rows: usize, cols: usize) -> Vec<f64> {
    debug_assert_eq!(x.len(), rows * cols);
    let padded = |flat: usize| {
        let (r, c) = (flat / (cols + 1), flat % (cols + 1));
        if c == 0 { 0.0 } else { x[r * cols + c - 1] }
    };
    (0..rows * cols).map(|k| padded(rows + k)).collect()
}

/// The four terms of every visible (query `i`, key `j ≤ i`) pair of a sentence, each already
/// divided by `√d` (the code's `scale`), row-major `n × n`; `None` above the diagonal, where the
/// causal mask hides the key.
#[derive(Clone, Debug, PartialEq)]
pub struct Terms {
    /// The number of tokens, `n`.
    pub n: usize,
    /// (a) `q_i·k_j/√d`: the words alone (content-based addressing).
    pub content: Vec<Option<f64>>,
    /// (b) `q_i·(W_{k,R} R_{i−j})/√d`: the query word and the distance (content-dependent
    /// positional bias).
    pub content_position: Vec<Option<f64>>,
    /// (c) `u·k_j/√d`: how much any query wants the key word (global content bias).
    pub global_content: Vec<Option<f64>>,
    /// (d) `v·(W_{k,R} R_{i−j})/√d`: how much any query wants that distance (global positional
    /// bias).
    pub global_position: Vec<Option<f64>>,
    /// (b) + (d) as the authors' code computes them before the shift, `(q_i + v)·(W_{k,R}
    /// R_{n−1−c})/√d`: row `i` per query, column `c` per distance `n − 1 − c` (descending), every
    /// distance for every query, row-major `n × n`.
    pub position_rows: Vec<f64>,
}

/// Where `_rel_shift` puts an entry of the code's rows ([`Terms::position_rows`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Landing {
    /// Under key `j` of the same query: the pair's (b) + (d).
    Key(usize),
    /// Above the diagonal of the row before, at `(row, col)`: a distance longer than the query's
    /// position, which no key of the sentence has (a cached key would); the mask hides it.
    Above { row: usize, col: usize },
    /// Out: the first row of the reshaped view is dropped (query 0's distances past 0).
    Dropped,
}

/// Where entry `(i, c)` of an `n × n` matrix lands under [`rel_shift`] (column `c` holding
/// distance `n − 1 − c`).
pub fn landing(i: usize, c: usize, n: usize) -> Landing {
    let distance = n - 1 - c;
    if distance <= i {
        Landing::Key(i - distance)
    } else if i == 0 {
        Landing::Dropped
    } else {
        Landing::Above {
            row: i - 1,
            col: c + i + 1,
        }
    }
}

/// Where entry `(i, j)` of the shifted `n × n` matrix came from: `Some((row, column))` of the
/// input, or `None` for the zero padded in front of row `i + 1` (just above the diagonal).
pub fn origin(i: usize, j: usize, n: usize) -> Option<(usize, usize)> {
    if j <= i {
        Some((i, n - 1 - (i - j)))
    } else if j == i + 1 {
        None
    } else {
        Some((i + 1, j - i - 2))
    }
}

impl Terms {
    /// [`Terms::position_rows`] after [`rel_shift`]: on and below the diagonal, (b) + (d) of
    /// each pair; above it, what the causal mask hides.
    pub fn shifted_rows(&self) -> Vec<f64> {
        rel_shift(&self.position_rows, self.n, self.n)
    }

    /// The score `(a) + (b) + (c) + (d)` of each visible pair, row-major; `None` above the diagonal.
    pub fn score(&self) -> Vec<Option<f64>> {
        (0..self.n * self.n)
            .map(|k| {
                Some(
                    self.content[k]?
                        + self.content_position[k]?
                        + self.global_content[k]?
                        + self.global_position[k]?,
                )
            })
            .collect()
    }
}

/// The projected inputs of a sentence: `q_i = W_q E_{x_i}`, `k_j = W_{k,E} E_{x_j}`.
fn queries_and_keys<S: AsRef<str>>(tokens: &[S]) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
    let (wq, wk) = projections(TOY_DIM);
    let e: Vec<Vec<f64>> = tokens
        .iter()
        .map(|t| token_embedding(t.as_ref(), TOY_DIM))
        .collect();
    (
        e.iter().map(|x| mat_vec(&wq, x)).collect(),
        e.iter().map(|x| mat_vec(&wk, x)).collect(),
    )
}

/// `a + b`, entry by entry.
fn plus(a: &[f64], b: &[f64]) -> Vec<f64> {
    a.iter().zip(b).map(|(x, y)| x + y).collect()
}

/// `W_{k,R} R_t` for every distance `t` of `n` tokens, `0 … n − 1`.
fn projected_distances(p: &Params, n: usize) -> Vec<Vec<f64>> {
    (0..n)
        .map(|t| mat_vec(&p.w_kr, &relative_embedding(t)))
        .collect()
}

/// The authors' `BD` before the shift, unscaled: `(q_i + v)·(W_{k,R} R_{n−1−c})` for every query
/// `i` (row) and column `c` (distance `n − 1 − c`), row-major; `r[t]` is `W_{k,R} R_t`.
fn bd_rows(q: &[Vec<f64>], v: &[f64], r: &[Vec<f64>]) -> Vec<f64> {
    let n = q.len();
    q.iter()
        .flat_map(|qi| {
            let rr = plus(qi, v);
            (0..n).map(move |c| dot(&rr, &r[n - 1 - c]))
        })
        .collect()
}

/// The four terms of a sentence's tokens (as from [`super::attention::tokenize`]) under the
/// seed's `W_{k,R}`, `u`, `v`, straight from the paper's equation. Precondition: at most
/// [`super::limits::TOKENS`] tokens.
pub fn terms<S: AsRef<str>>(tokens: &[S], seed: u64) -> Terms {
    let n = tokens.len();
    let p = params(seed);
    let (q, k) = queries_and_keys(tokens);
    let r = projected_distances(&p, n);
    let scale = 1.0 / (TOY_DIM as f64).sqrt();
    let cell = |f: &dyn Fn(usize, usize) -> f64| -> Vec<Option<f64>> {
        (0..n * n)
            .map(|c| {
                let (i, j) = (c / n, c % n);
                (j <= i).then(|| f(i, j) * scale)
            })
            .collect()
    };
    let position_rows = bd_rows(&q, &p.v, &r)
        .into_iter()
        .map(|x| x * scale)
        .collect();
    Terms {
        n,
        content: cell(&|i, j| dot(&q[i], &k[j])),
        content_position: cell(&|i, j| dot(&q[i], &r[i - j])),
        global_content: cell(&|_, j| dot(&p.u, &k[j])),
        global_position: cell(&|i, j| dot(&p.v, &r[i - j])),
        position_rows,
    }
}

/// The authors' route to the same scores: `AC = (q_i + u)·k_j`, the rows `BD[i][c] = (q_i +
/// v)·(W_{k,R} R_{n−1−c})` over the descending distances, [`rel_shift`]`(BD)`, and `(AC + BD)/√d`,
/// row-major `n × n` — above the diagonal too, where the shift leaves numbers that are no pair's
/// score (the causal mask hides them). Returns `(BD before the shift, the scores)`.
pub fn authors_scores<S: AsRef<str>>(tokens: &[S], seed: u64) -> (Vec<f64>, Vec<f64>) {
    let n = tokens.len();
    let p = params(seed);
    let (q, k) = queries_and_keys(tokens);
    let ac: Vec<f64> = q
        .iter()
        .flat_map(|qi| {
            let rw = plus(qi, &p.u);
            k.iter().map(move |kj| dot(&rw, kj))
        })
        .collect();
    let bd = bd_rows(&q, &p.v, &projected_distances(&p, n));
    let shifted = rel_shift(&bd, n, n);
    let scale = 1.0 / (TOY_DIM as f64).sqrt();
    let scores = ac
        .iter()
        .zip(&shifted)
        .map(|(a, b)| (a + b) * scale)
        .collect();
    (bd, scores)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::attention::{EXAMPLE, tokenize};

    #[test]
    fn the_terms_sum_to_the_authors_scores_below_the_diagonal() {
        let tokens = tokenize(EXAMPLE);
        let n = tokens.len();
        for seed in [0, 1, 42, u64::MAX] {
            let score = terms(&tokens, seed).score();
            let (_, authors) = authors_scores(&tokens, seed);
            for i in 0..n {
                for j in 0..n {
                    match score[i * n + j] {
                        Some(s) => {
                            let a = authors[i * n + j];
                            assert!((s - a).abs() < 1e-12, "seed {seed} ({i}, {j}): {s} vs {a}");
                        }
                        None => assert!(j > i, "({i}, {j}) is visible"),
                    }
                }
            }
        }
    }

    #[test]
    fn rel_shift_moves_each_distance_under_its_key() {
        // Entries that name their own place, so every move is visible.
        for (rows, cols) in [(1, 1), (3, 3), (7, 7), (2, 5), (4, 6)] {
            let x: Vec<f64> = (0..rows * cols).map(|k| k as f64 + 1.0).collect();
            let y = rel_shift(&x, rows, cols);
            assert_eq!(y.len(), rows * cols);
            if rows == cols {
                let n = rows;
                for i in 0..n {
                    for j in 0..n {
                        let want = if j <= i {
                            x[i * n + (n - 1 - (i - j))]
                        } else if j == i + 1 {
                            0.0
                        } else {
                            x[(i + 1) * n + (j - i - 2)]
                        };
                        assert_eq!(y[i * n + j], want, "{n}×{n} at ({i}, {j})");
                    }
                }
            }
            // The torch recipe, step by step: pad, reinterpret, drop the first row, reinterpret.
            let mut padded = Vec::new();
            for row in x.chunks(cols) {
                padded.push(0.0);
                padded.extend_from_slice(row);
            }
            assert_eq!(y, padded[rows..].to_vec(), "{rows}×{cols}");
        }
    }

    #[test]
    fn origin_and_landing_say_where_rel_shift_moves_each_entry() {
        for n in 1..=9 {
            let x: Vec<f64> = (0..n * n).map(|k| k as f64 + 1.0).collect();
            let y = rel_shift(&x, n, n);
            let mut landed = vec![0usize; n * n];
            for i in 0..n {
                for j in 0..n {
                    match origin(i, j, n) {
                        Some((r, c)) => {
                            assert_eq!(y[i * n + j], x[r * n + c], "{n}: ({i}, {j})");
                            landed[r * n + c] += 1;
                            let back = landing(r, c, n);
                            if j <= i {
                                assert_eq!(back, Landing::Key(j));
                            } else {
                                assert_eq!(back, Landing::Above { row: i, col: j });
                            }
                        }
                        None => assert_eq!(y[i * n + j], 0.0, "{n}: the pad at ({i}, {j})"),
                    }
                }
            }
            // Every entry lands once, but query 0's distances past 0, which are dropped.
            for c in 0..n {
                for i in 0..n {
                    let dropped = landing(i, c, n) == Landing::Dropped;
                    assert_eq!(dropped, i == 0 && c + 1 < n);
                    assert_eq!(landed[i * n + c], usize::from(!dropped), "{n}: ({i}, {c})");
                }
            }
        }
    }

    #[test]
    fn the_shifted_rows_are_b_plus_d_below_the_diagonal() {
        let tokens = tokenize(EXAMPLE);
        let t = terms(&tokens, 11);
        let n = t.n;
        let shifted = t.shifted_rows();
        for i in 0..n {
            for j in 0..=i {
                let k = i * n + j;
                let bd = t.content_position[k].unwrap() + t.global_position[k].unwrap();
                assert!((shifted[k] - bd).abs() < 1e-12, "({i}, {j})");
            }
        }
        let (raw, _) = authors_scores(&tokens, 11);
        let scale = 1.0 / (TOY_DIM as f64).sqrt();
        for (a, b) in t.position_rows.iter().zip(&raw) {
            assert!((a - b * scale).abs() < 1e-12);
        }
    }

    #[test]
    fn the_relative_embedding_is_the_authors_sine_then_cosine_block() {
        let d = TOY_DIM;
        for t in [0usize, 1, 5, 15] {
            let r = relative_embedding(t);
            for k in 0..d / 2 {
                let w = 1.0 / 10_000f64.powf((2 * k) as f64 / d as f64);
                assert!((r[k] - (t as f64 * w).sin()).abs() < 1e-12);
                assert!((r[d / 2 + k] - (t as f64 * w).cos()).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn a_prefix_moves_every_pair_and_changes_no_score() {
        // The same words at positions shifted by a prefix keep every term: each depends on the
        // words and on i − j only.
        let words = tokenize("the dog chased the cat");
        let prefixed = tokenize("a b c the dog chased the cat");
        let (n, off, m) = (words.len(), 3, prefixed.len());
        let (small, big) = (terms(&words, 7), terms(&prefixed, 7));
        for i in 0..n {
            for j in 0..=i {
                let (s, b) = (i * n + j, (i + off) * m + j + off);
                for (x, y) in [
                    (&small.content, &big.content),
                    (&small.content_position, &big.content_position),
                    (&small.global_content, &big.global_content),
                    (&small.global_position, &big.global_position),
                ] {
                    assert!((x[s].unwrap() - y[b].unwrap()).abs() < 1e-12);
                }
            }
        }
    }

    #[test]
    fn the_seed_draws_the_position_parameters_only() {
        let tokens = tokenize(EXAMPLE);
        let (one, two) = (terms(&tokens, 1), terms(&tokens, 2));
        assert_eq!(one.content, two.content, "(a) has no seeded parameter");
        assert_ne!(one.global_position, two.global_position);
        assert_eq!(params(5), params(5));
    }
}
