//! `pe rope-freqs`: a RoPE scaling from flags, or a model's RoPE from its `config.json`
//! (`--config FILE`, `-` for stdin), as JSON.

use std::io::Read;

use serde_json::{Map, Value, json};

use super::args::RopeFreqsArgs;
use super::check::{self, Checked};
use pe_explorer::math::limits;
use pe_explorer::math::partial::{self, Convention, HeadNote, LayerPartial};
use pe_explorer::math::precision::{self, Dtype};
use pe_explorer::math::rope_config::{self, MAX_CONFIG_BYTES, ModelRope};
use pe_explorer::math::rope_scaling::{RopeScaling, RopeType};
use pe_explorer::math::{layers, rope, rope_extension};

/// The most positions `--dtype` measures angle errors over (every pair at each: about 10⁸ roundings).
pub const MAX_DTYPE_POSITIONS: usize = 1 << 20;

/// Runs `pe rope-freqs`; `stdin` is what `--config -` reads.
pub fn run(args: RopeFreqsArgs, stdin: &mut dyn Read) -> Checked<Value> {
    let target = args
        .target
        .map(|n| check::int("target", n, limits::CONTEXT))
        .transpose()?;
    // As the page does: without --seq-len the current length is the target; without either, a
    // config keeps the parser's trained context L₀ (what the model holds when built: LongRoPE's
    // short factors), and flags use --original-max.
    let seq_len = args
        .seq_len
        .map(|n| check::int("seq-len", n, limits::CONTEXT))
        .transpose()?
        .or(target);
    let (mut value, scaling) = match &args.config {
        Some(path) => {
            let (name, text) = read_config(path, stdin)?;
            let at = |e: String| format!("{name}: {e}");
            // A model whose layers differ: one layer's rotary embedding (layer 0 by default).
            let layer =
                (layers::knows(&text) || args.layer.is_some()).then(|| args.layer.unwrap_or(0));
            // Gemma 4's proportional full layers: their pairs past int(f·h // 2) have frequency
            // 0, which no RopeScaling computes.
            let proportional = layer
                .and_then(|l| partial::layer_partial(&text, l).ok().flatten())
                .filter(|p| p.convention == Convention::Proportional);
            if let (Some(layer), Some(p)) = (layer, proportional) {
                if target.is_some() {
                    return Err(format!(
                        "{name}: --target: layer {layer}'s rope_type proportional does not extend \
                         the context (no reach or score curves)"
                    ));
                }
                (proportional_json(layer, &p), None)
            } else {
                let mut model = match layer {
                    Some(layer) => match layers::layer_rope(&text, layer).map_err(at)? {
                        Some(model) => model,
                        None => {
                            return Ok(json!({
                                "layer": layer,
                                "rope": false,
                                "inv_freq": [],
                                "attention_factor": null,
                            }));
                        }
                    },
                    None => rope_config::parse_config(&text).map_err(at)?,
                };
                if let Some(n) = seq_len {
                    model.scaling.seq_len = n;
                }
                let mut value = model_json(&model);
                if let (Some(layer), Value::Object(map)) = (layer, &mut value) {
                    map.insert("layer".into(), json!(layer));
                    map.insert("rope".into(), json!(true));
                }
                (value, Some(model.scaling))
            }
        }
        None => {
            let c = from_flags(&args, seq_len)?;
            (Value::Object(scaling_json(&c)), Some(c))
        }
    };
    if let (Some(name), Value::Object(map)) = (&args.dtype, &mut value) {
        let dtype = Dtype::parse(name).unwrap_or_default();
        let exact: Vec<f64> = map
            .get("inv_freq")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_f64).collect())
            .unwrap_or_default();
        let rounded: Vec<f64> = exact.iter().map(|&w| dtype.round(w)).collect();
        let wavelengths: Vec<f64> = rounded.iter().map(|w| std::f64::consts::TAU / w).collect();
        map.insert("inv_freq".into(), json!(rounded));
        map.insert("wavelengths".into(), json!(wavelengths));
        map.insert("dtype".into(), json!(dtype.as_str()));
        if let Some(len) = args.seq_len {
            if len > MAX_DTYPE_POSITIONS {
                return Err(format!(
                    "--dtype with --seq-len {len}: the angle errors are measured over at most {MAX_DTYPE_POSITIONS} positions"
                ));
            }
            let naive = precision::naive_angle_error(&exact, len, dtype);
            map.insert(
                "max_angle_error".into(),
                if naive.is_finite() {
                    json!(naive)
                } else {
                    Value::Null
                },
            );
            map.insert(
                "max_angle_error_transformers".into(),
                json!(precision::float32_angle_error(&exact, len)),
            );
        }
    }
    if let (Some(t), Some(scaling), Value::Object(map)) = (target, &scaling, &mut value) {
        map.insert("target".into(), json!(t));
        map.extend(extension_json(scaling, t));
    }
    Ok(value)
}

/// Chapter 3's numbers for target length `t`: each pair's reach
/// ([`rope_extension::reach`]) and the all-ones score curve before and after scaling
/// ([`rope_extension::score_curve`], the attention factor squared after), as the page draws them.
fn extension_json(c: &RopeScaling, t: usize) -> Map<String, Value> {
    const COLUMNS: usize = 480;
    let plain = rope::inv_freq(c.dim, c.base);
    let (scaled, attention) = c.compute();
    let reach: Vec<Value> = rope_extension::reach(&plain, &scaled, c.original_max, t)
        .iter()
        .map(|p| json!({"turns": p.turns, "seen": p.seen, "plain": p.plain, "scaled": p.scaled}))
        .collect();
    let max = t.saturating_sub(1);
    let before = rope_extension::score_curve(&plain, 1.0, max, COLUMNS);
    let after = rope_extension::score_curve(&scaled, attention * attention, max, COLUMNS);
    let mut map = Map::new();
    map.insert("reach".into(), json!(reach));
    map.insert(
        "scores".into(),
        json!({
            "start": before.start,
            "end": before.end,
            "plain": before.mean,
            "scaled": after.mean,
        }),
    );
    map
}

/// The text of `--config` (`-` = `stdin`) and the name messages give it; at most
/// [`MAX_CONFIG_BYTES`] bytes of UTF-8.
pub(crate) fn read_config(path: &str, stdin: &mut dyn Read) -> Checked<(String, String)> {
    let name = if path == "-" { "stdin" } else { path }.to_string();
    let mut file;
    let source: &mut dyn Read = if path == "-" {
        stdin
    } else {
        file = std::fs::File::open(path).map_err(|e| format!("{name}: {e}"))?;
        &mut file
    };
    let mut bytes = Vec::new();
    source
        .take(MAX_CONFIG_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{name}: {e}"))?;
    if bytes.len() > MAX_CONFIG_BYTES {
        return Err(format!(
            "{name}: longer than {MAX_CONFIG_BYTES} bytes, the most --config reads"
        ));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "{name}: not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    Ok((name, text))
}

/// A LongRoPE list flag: `dim/2` numbers within [`limits::EXT_FACTOR`].
fn factor_list(flag: &str, text: &str, dim: usize) -> Checked<Vec<f64>> {
    let v = check::list(flag, text, limits::EXT_FACTOR)?;
    if v.len() != dim / 2 {
        return Err(format!(
            "--{flag} has {} numbers; --dim {dim} needs {} (one per pair)",
            v.len(),
            dim / 2
        ));
    }
    Ok(v)
}

/// The scaling the flags describe, checked against [`limits`].
fn from_flags(a: &RopeFreqsArgs, seq_len: Option<usize>) -> Checked<RopeScaling> {
    let dim = check::even_dim(a.dim.unwrap_or_default())?;
    let original_max = check::int("original-max", a.original_max, limits::CONTEXT)?;
    let rope_type: RopeType = a.scaling.into();
    let optional =
        |flag: &str, v: Option<f64>, range| v.map(|v| check::real(flag, v, range)).transpose();
    let (short_factor, long_factor) = match (rope_type, &a.short_factor, &a.long_factor) {
        (RopeType::Longrope, Some(short), Some(long)) => (
            factor_list("short-factor", short, dim)?,
            factor_list("long-factor", long, dim)?,
        ),
        (RopeType::Longrope, _, _) => {
            return Err(format!(
                "--scaling longrope needs --short-factor and --long-factor ({} numbers each), or --config with a model's config.json",
                dim / 2
            ));
        }
        (_, None, None) => (Vec::new(), Vec::new()),
        _ => return Err("--short-factor and --long-factor go with --scaling longrope".into()),
    };
    let c = RopeScaling {
        rope_type,
        dim,
        base: check::real("base", a.base, limits::BASE)?,
        factor: check::real("factor", a.factor, limits::FACTOR)?,
        original_max,
        seq_len: seq_len.unwrap_or(original_max),
        beta_fast: check::real("beta-fast", a.beta_fast, limits::RAMP)?,
        beta_slow: check::real("beta-slow", a.beta_slow, limits::RAMP)?,
        low_freq_factor: check::real("low-freq-factor", a.low_freq_factor, limits::RAMP)?,
        high_freq_factor: check::real("high-freq-factor", a.high_freq_factor, limits::RAMP)?,
        attention_factor: optional(
            "attention-factor",
            a.attention_factor,
            limits::ATTENTION_FACTOR,
        )?,
        mscale: optional("mscale", a.mscale, limits::MSCALE)?,
        mscale_all_dim: optional("mscale-all-dim", a.mscale_all_dim, limits::MSCALE)?,
        short_factor,
        long_factor,
        truncate: true,
    };
    check::below("beta-slow", c.beta_slow, "beta-fast", c.beta_fast)?;
    check::below(
        "low-freq-factor",
        c.low_freq_factor,
        "high-freq-factor",
        c.high_freq_factor,
    )?;
    Ok(c)
}

/// Every parameter of the scaling and what it computes.
fn scaling_json(c: &RopeScaling) -> Map<String, Value> {
    let (inv_freq, attention_factor) = c.compute();
    let wavelengths: Vec<f64> = inv_freq
        .iter()
        .map(|f| 2.0 * std::f64::consts::PI / f)
        .collect();
    let value = json!({
        "rope_type": c.rope_type.as_str(),
        "dim": c.dim,
        "base": c.base,
        "factor": c.factor,
        "original_max": c.original_max,
        "seq_len": c.seq_len,
        "beta_fast": c.beta_fast,
        "beta_slow": c.beta_slow,
        "truncate": c.truncate,
        "mscale": c.mscale,
        "mscale_all_dim": c.mscale_all_dim,
        "low_freq_factor": c.low_freq_factor,
        "high_freq_factor": c.high_freq_factor,
        "short_factor": c.short_factor,
        "long_factor": c.long_factor,
        "inv_freq": inv_freq,
        "wavelengths": wavelengths,
        "scale_per_pair": c.scale_per_pair(),
        "attention_factor": attention_factor,
    });
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// A `proportional` layer (transformers 5.24's `_compute_proportional_rope_parameters`): the
/// whole head's `inv_freq`, `int(f·h // 2)` pairs turning and the rest at 0 (their wavelengths
/// null: they never turn), attention factor 1.
fn proportional_json(layer: usize, lp: &LayerPartial) -> Value {
    let p = &lp.partial;
    let inv_freq = p.inv_freq(Convention::Proportional);
    let wavelengths: Vec<Option<f64>> = inv_freq
        .iter()
        .map(|&w| (w > 0.0).then(|| std::f64::consts::TAU / w))
        .collect();
    let turning = p.turning(Convention::Proportional);
    let mut read = vec![
        "rope_type = proportional".to_string(),
        format!(
            "head_dim = {}{}",
            p.head_dim,
            if lp.notes.contains(&HeadNote::GlobalHeadDim) {
                " (global_head_dim: Gemma 4's full layers)"
            } else {
                ""
            }
        ),
        format!(
            "turning pairs = int(partial_rotary_factor × head_dim // 2) = {turning} of {}; the \
             others have inv_freq 0",
            p.head_dim / 2
        ),
    ];
    if p.factor != 1.0 {
        read.push(format!(
            "factor = {} (every inv_freq divided by it)",
            p.factor
        ));
    }
    json!({
        "layer": layer,
        "rope": true,
        "rope_type": "proportional",
        "dim": p.head_dim,
        "head_dim": p.head_dim,
        "turning_pairs": turning,
        "base": p.theta,
        "factor": p.factor,
        "interleaved": false,
        "inv_freq": inv_freq,
        "wavelengths": wavelengths,
        "attention_factor": 1.0,
        "read": read,
        "warnings": [],
    })
}

/// [`scaling_json`] plus what the config said about the model, `read` and `warnings`.
fn model_json(m: &ModelRope) -> Value {
    let mut map = scaling_json(&m.scaling);
    for (key, value) in [
        ("head_dim", json!(m.head_dim)),
        ("rotary_dim", json!(m.scaling.dim)),
        ("max_position", json!(m.max_position)),
        ("interleaved", json!(m.interleaved)),
        ("read", json!(m.read)),
        ("warnings", json!(m.warnings)),
    ] {
        map.insert(key.to_string(), value);
    }
    Value::Object(map)
}
