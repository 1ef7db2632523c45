//! One function per subcommand: check the flags (`check`), compute with `pe_explorer::math`,
//! return the JSON object. Matrices become lists of rows.

use serde_json::{Value, json};

use crate::args::{Command, MethodArg};
use crate::check::{self, Checked};
use pe_explorer::math::learned::LearnedTable;
use pe_explorer::math::rope_scaling::RopeScaling;
use pe_explorer::math::sinusoidal::{Layout, SinusoidalParams, Spacing};
use pe_explorer::math::{alibi, attention, limits, naive, rope, similarity};

/// A row-major `width`-column matrix as a list of rows (non-finite entries print as null).
fn rows(data: &[f64], width: usize) -> Value {
    Value::from(
        data.chunks(width.max(1))
            .map(|r| Value::from(r.to_vec()))
            .collect::<Vec<_>>(),
    )
}

/// Runs one subcommand.
pub fn execute(command: Command) -> Checked<Value> {
    match command {
        Command::Sinusoidal {
            positions,
            dim,
            base,
            layout,
            spacing,
        } => Ok(sinusoidal(&SinusoidalParams {
            positions: check::int("positions", positions, limits::POSITIONS)?,
            dim: check::int("dim", dim, limits::DIM)?,
            base: check::real("base", base, limits::BASE)?,
            layout: layout.into(),
            spacing: spacing.into(),
        })),
        Command::RopeFreqs {
            dim,
            base,
            scaling,
            factor,
            original_max,
            seq_len,
            beta_fast,
            beta_slow,
            low_freq_factor,
            high_freq_factor,
        } => {
            let original_max = check::int("original-max", original_max, limits::CONTEXT)?;
            let seq_len = seq_len.unwrap_or(original_max);
            let c = RopeScaling {
                rope_type: scaling.into(),
                dim: check::even_dim(dim)?,
                base: check::real("base", base, limits::BASE)?,
                factor: check::real("factor", factor, limits::FACTOR)?,
                original_max,
                seq_len: check::int("seq-len", seq_len, limits::CONTEXT)?,
                beta_fast: check::real("beta-fast", beta_fast, limits::RAMP)?,
                beta_slow: check::real("beta-slow", beta_slow, limits::RAMP)?,
                low_freq_factor: check::real("low-freq-factor", low_freq_factor, limits::RAMP)?,
                high_freq_factor: check::real("high-freq-factor", high_freq_factor, limits::RAMP)?,
            };
            check::below("beta-slow", c.beta_slow, "beta-fast", c.beta_fast)?;
            check::below(
                "low-freq-factor",
                c.low_freq_factor,
                "high-freq-factor",
                c.high_freq_factor,
            )?;
            Ok(rope_freqs(&c))
        }
        Command::RopeApply {
            dim,
            base,
            layout,
            positions,
            q,
            k,
        } => {
            let dim = check::even_dim(dim)?;
            let base = check::real("base", base, limits::BASE)?;
            let positions = check::list("positions", &positions, limits::ROPE_POSITION)?;
            if positions.len() > limits::ROPE_POSITIONS_COUNT {
                return Err(format!(
                    "--positions has {} entries; at most {}",
                    positions.len(),
                    limits::ROPE_POSITIONS_COUNT
                ));
            }
            let q = check::list("q", &q, limits::VECTOR_COMPONENT)?;
            let k = check::list("k", &k, limits::VECTOR_COMPONENT)?;
            for (flag, v) in [("q", &q), ("k", &k)] {
                if v.len() != dim {
                    return Err(format!("--{flag} has {} numbers; --dim is {dim}", v.len()));
                }
            }
            Ok(rope_apply(dim, base, layout.into(), &positions, &q, &k))
        }
        Command::Alibi { heads, len, causal } => {
            let heads = check::int("heads", heads, limits::HEADS)?;
            let len = check::int("len", len, limits::ALIBI_LEN)?;
            let slopes = alibi::slopes(heads);
            let bias: Vec<Value> = slopes
                .iter()
                .map(|&m| rows(&alibi::bias(m, len, causal), len))
                .collect();
            Ok(
                json!({ "heads": heads, "len": len, "causal": causal, "slopes": slopes, "bias": bias }),
            )
        }
        Command::Decay {
            dim,
            base,
            max_distance,
        } => {
            let dim = check::even_dim(dim)?;
            let base = check::real("base", base, limits::BASE)?;
            let r = check::int("max-distance", max_distance, limits::MAX_DISTANCE)?;
            Ok(json!({
                "dim": dim,
                "base": base,
                "relative_distance": (0..=r).collect::<Vec<_>>(),
                "bound": rope::decay(dim, base, r),
            }))
        }
        Command::Similarity {
            method,
            positions,
            dim,
            base,
            spacing,
            seed,
            sigma,
        } => {
            let n = check::int("positions", positions, limits::POSITIONS)?;
            let base = check::real("base", base, limits::BASE)?;
            let sigma = check::real("sigma", sigma, limits::SIGMA)?;
            let dim = match method {
                MethodArg::Rope => check::even_dim(dim)?,
                _ => check::int("dim", dim, limits::DIM)?,
            };
            Ok(similarity_json(
                method,
                n,
                dim,
                base,
                spacing.into(),
                seed,
                sigma,
            ))
        }
        Command::Learned {
            max_len,
            dim,
            seed,
            sigma,
        } => {
            let max_len = check::int("max-len", max_len, limits::MAX_LEN)?;
            let dim = check::int("dim", dim, limits::DIM)?;
            let sigma = check::real("sigma", sigma, limits::SIGMA)?;
            let t = LearnedTable::new(max_len, dim, sigma, seed);
            Ok(json!({
                "max_len": max_len,
                "dim": dim,
                "seed": seed,
                "sigma": sigma,
                "data": rows(t.data(), dim),
            }))
        }
        Command::Shift {
            dim,
            base,
            spacing,
            k,
        } => {
            let p = SinusoidalParams {
                positions: 1,
                dim: check::int("dim", dim, limits::DIM)?,
                base: check::real("base", base, limits::BASE)?,
                layout: Layout::Interleaved,
                spacing: spacing.into(),
            };
            let k = check::real("k", k, limits::SHIFT)?;
            Ok(shift(&p, k))
        }
        Command::Attention { sentence } => {
            let tokens = attention::tokenize(&sentence);
            let (lo, hi) = limits::TOKENS;
            if !(lo..=hi).contains(&tokens.len()) {
                return Err(format!(
                    "--sentence has {} words; it takes {lo}..={hi}",
                    tokens.len()
                ));
            }
            Ok(attention_json(&tokens))
        }
        Command::SineCollision { pos, eps, limit } => {
            let pos = check::int("pos", pos, limits::COLLISION_SEARCH)?;
            let eps = check::real("eps", eps, limits::EPS)?;
            let limit = check::int("limit", limit, limits::COLLISION_SEARCH)?;
            let hit = naive::sine_collision(pos, eps, limit);
            Ok(json!({
                "pos": pos,
                "eps": eps,
                "limit": limit,
                "sin_pos": (pos as f64).sin(),
                "collision": hit,
                "sin_collision": hit.map(|q| (q as f64).sin()),
            }))
        }
    }
}

fn sinusoidal(p: &SinusoidalParams) -> Value {
    json!({
        "method": "sinusoidal",
        "positions": p.positions,
        "dim": p.dim,
        "base": p.base,
        "layout": p.layout.as_str(),
        "spacing": p.spacing.as_str(),
        "data": rows(&p.table(), p.dim),
    })
}

fn rope_freqs(c: &RopeScaling) -> Value {
    let (inv_freq, attention_factor) = c.compute();
    json!({
        "rope_type": c.rope_type.as_str(),
        "dim": c.dim,
        "base": c.base,
        "factor": c.factor,
        "original_max": c.original_max,
        "seq_len": c.seq_len,
        "beta_fast": c.beta_fast,
        "beta_slow": c.beta_slow,
        "low_freq_factor": c.low_freq_factor,
        "high_freq_factor": c.high_freq_factor,
        "inv_freq": inv_freq,
        "attention_factor": attention_factor,
    })
}

fn rope_apply(
    dim: usize,
    base: f64,
    layout: Layout,
    positions: &[f64],
    q: &[f64],
    k: &[f64],
) -> Value {
    let theta = rope::inv_freq(dim, base);
    let rotate_all = |x: &[f64]| -> Vec<f64> {
        positions
            .iter()
            .flat_map(|&m| rope::rotate(x, m, &theta, layout))
            .collect()
    };
    json!({
        "dim": dim,
        "base": base,
        "layout": layout.as_str(),
        "positions": positions,
        "q_rot": rows(&rotate_all(q), dim),
        "k_rot": rows(&rotate_all(k), dim),
        "dots": rows(&rope::dots(q, k, positions, &theta, layout), positions.len()),
    })
}

fn similarity_json(
    method: MethodArg,
    n: usize,
    dim: usize,
    base: f64,
    spacing: Spacing,
    seed: u64,
    sigma: f64,
) -> Value {
    let (name, data) = match method {
        MethodArg::Sinusoidal => {
            let p = SinusoidalParams {
                positions: n,
                dim,
                base,
                layout: Layout::Interleaved,
                spacing,
            };
            let mut m = Vec::new();
            similarity::sinusoidal_matrix_into(&p, &mut m);
            ("sinusoidal", m)
        }
        MethodArg::Rope => ("rope", similarity::rope_matrix(dim, base, n)),
        MethodArg::Learned => {
            let t = LearnedTable::new(n, dim, sigma, seed);
            ("learned", similarity::cosine_matrix(t.data(), n, dim))
        }
    };
    json!({
        "method": name,
        "positions": n,
        "dim": dim,
        "base": base,
        "spacing": spacing.as_str(),
        "seed": seed,
        "sigma": sigma,
        "data": rows(&data, n),
    })
}

fn shift(p: &SinusoidalParams, k: f64) -> Value {
    let omega: Vec<f64> = (0..p.pairs()).map(|pair| p.pair_omega(pair)).collect();
    let blocks: Vec<Value> = p
        .shift_matrix(k)
        .iter()
        .map(|m| json!([m[0].to_vec(), m[1].to_vec()]))
        .collect();
    json!({
        "dim": p.dim,
        "base": p.base,
        "spacing": p.spacing.as_str(),
        "k": k,
        "omega": omega,
        "blocks": blocks,
    })
}

fn attention_json(tokens: &[String]) -> Value {
    let n = tokens.len();
    let d = attention::TOY_DIM;
    let without = attention::weights(tokens, d, false);
    let with = attention::weights(tokens, d, true);
    json!({
        "tokens": tokens,
        "dim": d,
        "without_position": rows(&without, n),
        "with_position": rows(&with, n),
        "identical_rows_without_position": attention::identical_rows(&without, n),
        "identical_rows_with_position": attention::identical_rows(&with, n),
    })
}
