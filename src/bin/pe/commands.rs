//! One function per subcommand: check the flags (`check`), compute with `pe_explorer::math`,
//! return the JSON object. Matrices become lists of rows.

use std::io::Read;

use serde_json::{Value, json};

use super::args::{Command, MethodArg};
use super::check::{self, Checked};
use pe_explorer::math::learned::LearnedTable;
use pe_explorer::math::sinusoidal::{Layout, SinusoidalParams, Spacing};
use pe_explorer::math::{
    alibi, attention, drope, layers, limits, mrope, naive, nope, relative, rope, rope_config,
    similarity, txl,
};

/// A row-major `width`-column matrix as a list of rows (non-finite entries print as null).
fn rows(data: &[f64], width: usize) -> Value {
    Value::from(
        data.chunks(width.max(1))
            .map(|r| Value::from(r.to_vec()))
            .collect::<Vec<_>>(),
    )
}

/// `--positions` of the RoPE commands: finite, in range, at most `ROPE_POSITIONS_COUNT`.
fn rope_positions(text: &str) -> Checked<Vec<f64>> {
    let positions = check::list("positions", text, limits::ROPE_POSITION)?;
    if positions.len() > limits::ROPE_POSITIONS_COUNT {
        return Err(format!(
            "--positions has {} entries; at most {}",
            positions.len(),
            limits::ROPE_POSITIONS_COUNT
        ));
    }
    Ok(positions)
}

/// `--q` or `--k` of the RoPE commands: `dim` numbers, each in range.
fn rope_vector(flag: &str, text: &str, dim: usize) -> Checked<Vec<f64>> {
    let v = check::list(flag, text, limits::VECTOR_COMPONENT)?;
    if v.len() != dim {
        return Err(format!("--{flag} has {} numbers; --dim is {dim}", v.len()));
    }
    Ok(v)
}

/// Runs one subcommand; `stdin` is what `--config -` reads.
pub fn execute(command: Command, stdin: &mut dyn Read) -> Checked<Value> {
    match command {
        Command::Render(args) => super::render::run(args),
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
        Command::RopeFreqs(args) => super::rope_freqs::run(args, stdin),
        Command::Layers { config } => {
            let (name, text) = super::rope_freqs::read_config(&config, stdin)?;
            let model = layers::parse_layers(&text).map_err(|e| format!("{name}: {e}"))?;
            Ok(layers_json(&model))
        }
        Command::Mrope { config, input } => {
            let (name, text) = super::rope_freqs::read_config(&config, stdin)?;
            let at = |e: String| format!("{name}: {e}");
            let root: Value = serde_json::from_str(&text).map_err(|e| at(e.to_string()))?;
            // The pairs per head: those of layer 0's rotary embedding (every layer's is the same).
            let rope = layers::layer_rope_config(&text, 0)
                .map_err(at)?
                .ok_or_else(|| at("layer 0 does not rotate".to_string()))?;
            let rope = rope_config::parse_config(&rope.to_string()).map_err(at)?;
            let model = mrope::Mrope::from_config(&root, rope.scaling.dim / 2).map_err(at)?;
            let ids = model.position_ids(&mrope::parse_input(&input)?)?;
            Ok(json!({
                "position_ids": ids,
                "axis_of_pair": model.axis_of_pair(),
            }))
        }
        Command::RopeApply {
            dim,
            base,
            layout,
            rotary_dim,
            positions,
            q,
            k,
        } => {
            let dim = check::even_dim(dim)?;
            let base = check::real("base", base, limits::BASE)?;
            let rotary_dim = check::rotary_dim(rotary_dim.unwrap_or(dim), dim)?;
            let positions = rope_positions(&positions)?;
            let q = rope_vector("q", &q, dim)?;
            let k = rope_vector("k", &k, dim)?;
            Ok(rope_apply(
                dim,
                base,
                layout.into(),
                rotary_dim,
                &positions,
                &q,
                &k,
            ))
        }
        Command::RopePermute {
            dim,
            base,
            positions,
            q,
            k,
        } => {
            let dim = check::even_dim(dim)?;
            let base = check::real("base", base, limits::BASE)?;
            let positions = rope_positions(&positions)?;
            let q = match q {
                Some(text) => rope_vector("q", &text, dim)?,
                None => rope::random_vector(dim, 0),
            };
            let k = match k {
                Some(text) => rope_vector("k", &text, dim)?,
                None => rope::random_vector(dim, 1),
            };
            Ok(rope_permute(dim, base, &positions, &q, &k))
        }
        Command::Alibi {
            heads,
            len,
            causal,
            query,
        } => {
            let heads = check::int("heads", heads, limits::HEADS)?;
            let len = check::int("len", len, limits::ALIBI_LEN)?;
            let query = query
                .map(|q| check::int("query", q, (0, len - 1)))
                .transpose()?;
            Ok(alibi_json(heads, len, causal, query))
        }
        Command::T5Buckets {
            num_buckets,
            max_distance,
            causal,
            len,
        } => {
            let num_buckets = check::int("num-buckets", num_buckets, limits::T5_BUCKETS)?;
            let max_distance = check::int("max-distance", max_distance, limits::T5_MAX_DISTANCE)?;
            let max_exact = check::t5_max_distance(num_buckets, max_distance, !causal)?;
            let len = len
                .map(|l| check::int("len", l, limits::T5_LEN))
                .transpose()?;
            Ok(t5_json(num_buckets, max_distance, !causal, max_exact, len))
        }
        Command::Nope { len, dim, seed } => {
            let len = check::int("len", len, limits::NOPE_LEN)?;
            let dim = check::int("dim", dim, limits::DIM)?;
            let mut variance = Vec::new();
            nope::output_variance_into(seed, len, dim, &mut variance);
            Ok(json!({
                "len": len,
                "dim": dim,
                "seed": seed,
                "uniform_weight": (0..len).map(nope::uniform_weight).collect::<Vec<_>>(),
                "output_variance": variance,
            }))
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
        Command::Attention { sentence } => Ok(attention_json(&sentence_tokens(&sentence)?)),
        Command::Drope {
            dim,
            base,
            trained,
            target,
            distractors,
            seed,
        } => {
            let dim = check::even_dim(dim)?;
            let base = check::real("base", base, limits::BASE)?;
            let trained = check::int("trained", trained, limits::DROPE_CONTEXT)?;
            let target = check::int("target", target, limits::DROPE_CONTEXT)?;
            let n = check::int("distractors", distractors, limits::DISTRACTORS)?;
            if target <= trained {
                return Err(format!(
                    "--target ({target}) must be above --trained ({trained})"
                ));
            }
            if n >= target {
                return Err(format!(
                    "--distractors ({n}) must be below --target ({target})"
                ));
            }
            let c = drope::curves(dim, base, trained, target, n, seed);
            Ok(json!({
                "dim": dim,
                "base": base,
                "trained": trained,
                "target": target,
                "distractors": n,
                "seed": seed,
                "distance": c.distance,
                "rope": c.rope,
                "yarn": c.yarn,
                "none": c.none,
            }))
        }
        Command::TxlTerms { sentence, seed } => {
            Ok(txl_terms_json(&sentence_tokens(&sentence)?, seed))
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

fn alibi_json(heads: usize, len: usize, causal: bool, query: Option<usize>) -> Value {
    let slopes = alibi::slopes(heads);
    let bias: Vec<Value> = slopes
        .iter()
        .map(|&m| rows(&alibi::bias(m, len, causal), len))
        .collect();
    let half: Vec<f64> = slopes
        .iter()
        .map(|&m| alibi::half_weight_distance(m))
        .collect();
    let mut v = json!({
        "heads": heads,
        "len": len,
        "causal": causal,
        "slopes": slopes,
        "half_weight_distance": half,
        "bias": bias,
    });
    if let Some(q) = query {
        let mut row = Vec::new();
        let attention: Vec<Value> = slopes
            .iter()
            .map(|&m| {
                alibi::attention_row_into(m, q, len, causal, &mut row);
                Value::from(row.clone())
            })
            .collect();
        v["query"] = json!(q);
        v["attention"] = Value::from(attention);
    }
    v
}

/// `pe t5-buckets`: the bucket of every relative position `−D..=D` (`D` = max distance), and the
/// `len × len` matrix when asked.
fn t5_json(
    num_buckets: usize,
    max_distance: usize,
    bidirectional: bool,
    max_exact: usize,
    len: Option<usize>,
) -> Value {
    let d = max_distance as i64;
    let relative: Vec<i64> = (-d..=d).collect();
    let bucket: Vec<usize> = relative
        .iter()
        .map(|&r| relative::t5_bucket(r, bidirectional, num_buckets, max_distance))
        .collect();
    let mut v = json!({
        "num_buckets": num_buckets,
        "max_distance": max_distance,
        "bidirectional": bidirectional,
        "max_exact": max_exact,
        "relative_position": relative,
        "bucket": bucket,
    });
    if let Some(len) = len {
        let mut m = Vec::new();
        relative::t5_buckets_into(len, bidirectional, num_buckets, max_distance, &mut m);
        let matrix: Vec<Value> = m.chunks(len).map(|r| Value::from(r.to_vec())).collect();
        v["len"] = json!(len);
        v["matrix"] = Value::from(matrix);
    }
    v
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

/// `dots[a][b] = q_rot[a] · k_rot[b]` of vectors rotated to each position (row-major, `width`
/// wide).
fn dots_of(q_rot: &[f64], k_rot: &[f64], width: usize) -> Vec<f64> {
    let width = width.max(1);
    q_rot
        .chunks(width)
        .flat_map(|qm| k_rot.chunks(width).map(move |kn| rope::dot(qm, kn)))
        .collect()
}

fn rope_apply(
    dim: usize,
    base: f64,
    layout: Layout,
    rotary_dim: usize,
    positions: &[f64],
    q: &[f64],
    k: &[f64],
) -> Value {
    let rotate_all = |x: &[f64]| -> Vec<f64> {
        positions
            .iter()
            .flat_map(|&m| rope::rotate_partial(x, m, base, rotary_dim, layout))
            .collect()
    };
    let (q_rot, k_rot) = (rotate_all(q), rotate_all(k));
    json!({
        "dim": dim,
        "base": base,
        "layout": layout.as_str(),
        "rotary_dim": rotary_dim,
        "positions": positions,
        "q_rot": rows(&q_rot, dim),
        "k_rot": rows(&k_rot, dim),
        "dots": rows(&dots_of(&q_rot, &k_rot, dim), positions.len()),
    })
}

fn rope_permute(dim: usize, base: f64, positions: &[f64], q: &[f64], k: &[f64]) -> Value {
    let theta = rope::inv_freq(dim, base);
    let perm = rope::hf_permutation(dim);
    let (pq, pk) = (rope::permute(q, &perm), rope::permute(k, &perm));
    let rotate_all = |x: &[f64], layout: Layout| -> Vec<f64> {
        positions
            .iter()
            .flat_map(|&m| rope::rotate(x, m, &theta, layout))
            .collect()
    };
    let (qi, ki) = (
        rotate_all(q, Layout::Interleaved),
        rotate_all(k, Layout::Interleaved),
    );
    let (qh, kh) = (rotate_all(&pq, Layout::Half), rotate_all(&pk, Layout::Half));
    let (dots_i, dots_h) = (dots_of(&qi, &ki, dim), dots_of(&qh, &kh, dim));
    let max_dot_difference = dots_i
        .iter()
        .zip(&dots_h)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    let n = positions.len();
    json!({
        "dim": dim,
        "base": base,
        "positions": positions,
        "q": q,
        "k": k,
        "permutation": perm,
        "interleaved": {
            "q_rot": rows(&qi, dim),
            "k_rot": rows(&ki, dim),
            "dots": rows(&dots_i, n),
        },
        "half_permuted": {
            "q": pq,
            "k": pk,
            "q_rot": rows(&qh, dim),
            "k_rot": rows(&kh, dim),
            "dots": rows(&dots_h, n),
        },
        "max_dot_difference": max_dot_difference,
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

/// `--sentence`'s tokens (as the attention figure reads them), between `limits::TOKENS` of them.
fn sentence_tokens(sentence: &str) -> Checked<Vec<String>> {
    let tokens = attention::tokenize(sentence);
    let (lo, hi) = limits::TOKENS;
    if (lo..=hi).contains(&tokens.len()) {
        Ok(tokens)
    } else {
        Err(format!(
            "--sentence has {} words; it takes {lo}..={hi}",
            tokens.len()
        ))
    }
}

/// A row-major `n × n` matrix with hidden entries as lists of rows (`None` prints as null).
fn masked_rows(m: &[Option<f64>], n: usize) -> Vec<Vec<Option<f64>>> {
    m.chunks(n.max(1)).map(<[_]>::to_vec).collect()
}

fn txl_terms_json(tokens: &[String], seed: u64) -> Value {
    let n = tokens.len();
    let t = txl::terms(tokens, seed);
    json!({
        "tokens": tokens,
        "dim": attention::TOY_DIM,
        "seed": seed,
        "a": masked_rows(&t.content, n),
        "b": masked_rows(&t.content_position, n),
        "c": masked_rows(&t.global_content, n),
        "d": masked_rows(&t.global_position, n),
        "score": masked_rows(&t.score(), n),
        "bd_rows": rows(&t.position_rows, n),
        "bd_shifted": rows(&t.shifted_rows(), n),
    })
}

/// `pe layers`' JSON: the record shape of the shared reference (`modern/records.json`).
fn layers_json(model: &layers::Layers) -> Value {
    let rows: Vec<Value> = model
        .layers
        .iter()
        .enumerate()
        .map(|(i, l)| {
            json!({
                "layer": i,
                "attention": l.attention.as_str(),
                "window": l.window,
                "rope": l.rope.is_some(),
                "rope_type": l.rope.as_ref().map(|r| r.rope_type.clone()),
                "rope_theta": l.rope.as_ref().map(|r| r.theta),
            })
        })
        .collect();
    json!({
        "num_layers": rows.len(),
        "layers": rows,
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
