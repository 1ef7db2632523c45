//! The `pe` command line: argument parsing (clap), validation against `math::limits`, JSON out.

use std::ffi::OsString;

use clap::{Parser, Subcommand, ValueEnum};
use serde_json::{Value, json};

use pe_explorer::math::learned::LearnedTable;
use pe_explorer::math::rope_scaling::{RopeScaling, RopeType};
use pe_explorer::math::sinusoidal::{Layout, SinusoidalParams, Spacing};
use pe_explorer::math::{alibi, limits, rope, similarity};

/// The numbers behind every figure of the Positional Encoding Explorer, as JSON on stdout.
///
/// Matrices are lists of rows (row = position or query, column = dimension or key). Bad input
/// prints one line to stderr and exits with status 2.
#[derive(Debug, Parser)]
#[command(name = "pe", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum LayoutArg {
    /// sin/cos (or rotated pairs) alternate: (2i, 2i+1). The paper, DistilBERT, RoFormer, GPT-J.
    Interleaved,
    /// [sin block | cos block], pairs (i, i+d/2). Marian, fairseq, GPT-NeoX, HF Llama rotate_half.
    Half,
}

impl From<LayoutArg> for Layout {
    fn from(l: LayoutArg) -> Layout {
        match l {
            LayoutArg::Interleaved => Layout::Interleaved,
            LayoutArg::Half => Layout::Half,
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum SpacingArg {
    /// ω_k = base^(−2k/d) (Vaswani et al.).
    Paper,
    /// ω_k = exp(−ln(base)·k/(d/2−1)) (fairseq, tensor2tensor, M2M100).
    Fairseq,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum ScalingArg {
    /// Plain RoPE.
    Default,
    /// Position interpolation: θ/s.
    Linear,
    /// Dynamic NTK (uses --seq-len and --original-max = max_position_embeddings).
    Dynamic,
    /// YaRN (uses --beta-fast, --beta-slow, --original-max = original_max_position_embeddings).
    Yarn,
    /// Llama 3 (uses --low-freq-factor, --high-freq-factor, --original-max).
    Llama3,
    /// NTK-aware base change: base·s^(d/(d−2)).
    Ntk,
}

impl From<ScalingArg> for RopeType {
    fn from(s: ScalingArg) -> RopeType {
        match s {
            ScalingArg::Default => RopeType::Default,
            ScalingArg::Linear => RopeType::Linear,
            ScalingArg::Dynamic => RopeType::Dynamic,
            ScalingArg::Yarn => RopeType::Yarn,
            ScalingArg::Llama3 => RopeType::Llama3,
            ScalingArg::Ntk => RopeType::Ntk,
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum MethodArg {
    /// The sinusoidal table (interleaved, paper spacing).
    Sinusoidal,
    /// RoPE: the rotations of one fixed vector (equivalently cos of r·θ_i averaged over pairs).
    Rope,
    /// A seeded learned table (N(0, 1)).
    Learned,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Sinusoidal table PE(pos, i) → {"data": [[...]], ...}.
    Sinusoidal {
        /// Number of positions, 1..=1024.
        #[arg(long)]
        positions: usize,
        /// d_model, 2..=1024.
        #[arg(long)]
        dim: usize,
        /// Base of the frequencies, 2..=1e6.
        #[arg(long, default_value_t = 10_000.0)]
        base: f64,
        /// Column layout.
        #[arg(long, value_enum, default_value = "interleaved")]
        layout: LayoutArg,
        /// Frequency spacing.
        #[arg(long, value_enum, default_value = "paper")]
        spacing: SpacingArg,
    },
    /// RoPE inverse frequencies and attention factor for a rope_type → {"inv_freq": [...], "attention_factor": x}.
    RopeFreqs {
        /// head_dim, even, 2..=1024.
        #[arg(long)]
        dim: usize,
        /// rope_theta, 2..=1e6.
        #[arg(long, default_value_t = 10_000.0)]
        base: f64,
        /// The rope_type.
        #[arg(long, value_enum, default_value = "default")]
        scaling: ScalingArg,
        /// Scale factor s, 1..=64.
        #[arg(long, default_value_t = 1.0)]
        factor: f64,
        /// Trained context: max_position_embeddings (dynamic) or original_max_position_embeddings (yarn, llama3), 1..=16777216.
        #[arg(long, default_value_t = 4096)]
        original_max: usize,
        /// Current sequence length for dynamic, 1..=16777216 (default: --original-max).
        #[arg(long)]
        seq_len: Option<usize>,
        /// YaRN beta_fast, 0.001..=1000.
        #[arg(long, default_value_t = 32.0)]
        beta_fast: f64,
        /// YaRN beta_slow, 0.001..=1000, below beta_fast.
        #[arg(long, default_value_t = 1.0)]
        beta_slow: f64,
        /// Llama 3 low_freq_factor, 0.001..=1000.
        #[arg(long, default_value_t = 1.0)]
        low_freq_factor: f64,
        /// Llama 3 high_freq_factor, 0.001..=1000, above low_freq_factor.
        #[arg(long, default_value_t = 4.0)]
        high_freq_factor: f64,
    },
    /// Rotate q and k to each position → {"q_rot": [[...]], "k_rot": [[...]], "dots": [[...]]}; dots[a][b] = q at a · k at b.
    RopeApply {
        /// head_dim, even, 2..=1024 (must equal the length of --q and --k).
        #[arg(long)]
        dim: usize,
        /// rope_theta, 2..=1e6.
        #[arg(long, default_value_t = 10_000.0)]
        base: f64,
        /// Pairing convention.
        #[arg(long, value_enum)]
        layout: LayoutArg,
        /// Comma-separated positions, each 0..=1e9, at most 1024 of them.
        #[arg(long, allow_hyphen_values = true)]
        positions: String,
        /// Comma-separated query vector.
        #[arg(long, allow_hyphen_values = true)]
        q: String,
        /// Comma-separated key vector.
        #[arg(long, allow_hyphen_values = true)]
        k: String,
    },
    /// ALiBi head slopes and bias matrices → {"slopes": [...], "bias": [[[...]]]}; bias[h][i][j] = −m_h·|i−j|.
    Alibi {
        /// Number of heads, 1..=64.
        #[arg(long)]
        heads: usize,
        /// Bias matrix size, 1..=1024.
        #[arg(long, default_value_t = 8)]
        len: usize,
    },
    /// RoFormer's long-term decay bound → {"relative_distance": [...], "bound": [...]}.
    Decay {
        /// head_dim, even, 2..=1024.
        #[arg(long)]
        dim: usize,
        /// rope_theta, 2..=1e6.
        #[arg(long, default_value_t = 10_000.0)]
        base: f64,
        /// Largest relative distance, 0..=100000.
        #[arg(long, default_value_t = 512)]
        max_distance: usize,
    },
    /// Cosine similarity of position vectors → {"data": [[...]]}.
    Similarity {
        /// Which encoding.
        #[arg(long, value_enum)]
        method: MethodArg,
        /// Number of positions, 1..=1024.
        #[arg(long)]
        positions: usize,
        /// Width, 2..=1024 (even for rope).
        #[arg(long)]
        dim: usize,
        /// Base, 2..=1e6 (sinusoidal, rope).
        #[arg(long, default_value_t = 10_000.0)]
        base: f64,
        /// Seed (learned).
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// A seeded learned position table, N(0, 1) → {"data": [[...]]}.
    Learned {
        /// Rows, 1..=4096.
        #[arg(long)]
        max_len: usize,
        /// Width, 2..=1024.
        #[arg(long)]
        dim: usize,
        /// Seed.
        #[arg(long)]
        seed: u64,
    },
}

type Checked<T> = Result<T, String>;

fn in_range_usize(flag: &str, v: usize, (lo, hi): (usize, usize)) -> Checked<usize> {
    if (lo..=hi).contains(&v) {
        Ok(v)
    } else {
        Err(format!("--{flag} {v} is out of range {lo}..={hi}"))
    }
}

fn in_range_f64(flag: &str, v: f64, (lo, hi): (f64, f64)) -> Checked<f64> {
    if v.is_finite() && (lo..=hi).contains(&v) {
        Ok(v)
    } else {
        Err(format!("--{flag} {v} is out of range {lo}..={hi}"))
    }
}

fn even_dim(v: usize) -> Checked<usize> {
    let d = in_range_usize("dim", v, limits::DIM)?;
    if d % 2 == 0 {
        Ok(d)
    } else {
        Err(format!(
            "--dim {d} must be even for RoPE (coordinates are rotated in pairs)"
        ))
    }
}

fn list(flag: &str, text: &str) -> Checked<Vec<f64>> {
    text.split(',')
        .map(|part| {
            let part = part.trim();
            match part.parse::<f64>() {
                Ok(v) if v.is_finite() => Ok(v),
                _ => Err(format!("--{flag}: “{part}” is not a finite number")),
            }
        })
        .collect()
}

/// A row-major `width`-column matrix as a list of rows.
fn rows(data: &[f64], width: usize) -> Value {
    Value::from(
        data.chunks(width.max(1))
            .map(|r| Value::from(r.to_vec()))
            .collect::<Vec<_>>(),
    )
}

fn layout_name(l: Layout) -> &'static str {
    l.as_str()
}

fn execute(command: Command) -> Checked<Value> {
    Ok(match command {
        Command::Sinusoidal {
            positions,
            dim,
            base,
            layout,
            spacing,
        } => {
            let p = SinusoidalParams {
                positions: in_range_usize("positions", positions, limits::POSITIONS)?,
                dim: in_range_usize("dim", dim, limits::DIM)?,
                base: in_range_f64("base", base, limits::BASE)?,
                layout: layout.into(),
                spacing: match spacing {
                    SpacingArg::Paper => Spacing::Paper,
                    SpacingArg::Fairseq => Spacing::Fairseq,
                },
            };
            json!({
                "method": "sinusoidal",
                "positions": p.positions,
                "dim": p.dim,
                "base": p.base,
                "layout": layout_name(p.layout),
                "spacing": p.spacing.as_str(),
                "data": rows(&p.table(), p.dim),
            })
        }
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
            let original_max = in_range_usize("original-max", original_max, limits::CONTEXT)?;
            let c = RopeScaling {
                rope_type: scaling.into(),
                dim: even_dim(dim)?,
                base: in_range_f64("base", base, limits::BASE)?,
                factor: in_range_f64("factor", factor, limits::FACTOR)?,
                original_max,
                seq_len: in_range_usize(
                    "seq-len",
                    seq_len.unwrap_or(original_max),
                    limits::CONTEXT,
                )?,
                beta_fast: in_range_f64("beta-fast", beta_fast, limits::RAMP)?,
                beta_slow: in_range_f64("beta-slow", beta_slow, limits::RAMP)?,
                low_freq_factor: in_range_f64("low-freq-factor", low_freq_factor, limits::RAMP)?,
                high_freq_factor: in_range_f64("high-freq-factor", high_freq_factor, limits::RAMP)?,
            };
            if c.beta_slow >= c.beta_fast {
                return Err(format!(
                    "--beta-slow {} must be below --beta-fast {}",
                    c.beta_slow, c.beta_fast
                ));
            }
            if c.low_freq_factor >= c.high_freq_factor {
                return Err(format!(
                    "--low-freq-factor {} must be below --high-freq-factor {}",
                    c.low_freq_factor, c.high_freq_factor
                ));
            }
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
        Command::RopeApply {
            dim,
            base,
            layout,
            positions,
            q,
            k,
        } => {
            let dim = even_dim(dim)?;
            let base = in_range_f64("base", base, limits::BASE)?;
            let positions = list("positions", &positions)?;
            if positions.len() > limits::ROPE_POSITIONS_COUNT {
                return Err(format!(
                    "--positions has {} entries; at most {}",
                    positions.len(),
                    limits::ROPE_POSITIONS_COUNT
                ));
            }
            for &m in &positions {
                in_range_f64("positions", m, limits::ROPE_POSITION)?;
            }
            let (q, k) = (list("q", &q)?, list("k", &k)?);
            for (flag, v) in [("q", &q), ("k", &k)] {
                if v.len() != dim {
                    return Err(format!("--{flag} has {} numbers; --dim is {dim}", v.len()));
                }
            }
            let layout: Layout = layout.into();
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
                "layout": layout_name(layout),
                "positions": positions,
                "q_rot": rows(&rotate_all(&q), dim),
                "k_rot": rows(&rotate_all(&k), dim),
                "dots": rows(&rope::dots(&q, &k, &positions, &theta, layout), positions.len()),
            })
        }
        Command::Alibi { heads, len } => {
            let heads = in_range_usize("heads", heads, limits::HEADS)?;
            let len = in_range_usize("len", len, limits::ALIBI_LEN)?;
            let slopes = alibi::slopes(heads);
            let bias: Vec<Value> = slopes
                .iter()
                .map(|&m| rows(&alibi::bias(m, len, false), len))
                .collect();
            json!({ "heads": heads, "len": len, "slopes": slopes, "bias": bias })
        }
        Command::Decay {
            dim,
            base,
            max_distance,
        } => {
            let dim = even_dim(dim)?;
            let base = in_range_f64("base", base, limits::BASE)?;
            let r = in_range_usize("max-distance", max_distance, limits::MAX_DISTANCE)?;
            json!({
                "dim": dim,
                "base": base,
                "relative_distance": (0..=r).collect::<Vec<_>>(),
                "bound": rope::decay(dim, base, r),
            })
        }
        Command::Similarity {
            method,
            positions,
            dim,
            base,
            seed,
        } => {
            let n = in_range_usize("positions", positions, limits::POSITIONS)?;
            let base = in_range_f64("base", base, limits::BASE)?;
            let (name, data, dim) = match method {
                MethodArg::Sinusoidal => {
                    let dim = in_range_usize("dim", dim, limits::DIM)?;
                    let p = SinusoidalParams {
                        positions: n,
                        dim,
                        base,
                        layout: Layout::Interleaved,
                        spacing: Spacing::Paper,
                    };
                    let mut m = Vec::new();
                    similarity::sinusoidal_matrix_into(&p, &mut m);
                    ("sinusoidal", m, dim)
                }
                MethodArg::Rope => {
                    let dim = even_dim(dim)?;
                    ("rope", similarity::rope_matrix(dim, base, n), dim)
                }
                MethodArg::Learned => {
                    let dim = in_range_usize("dim", dim, limits::DIM)?;
                    let t = LearnedTable::new(n, dim, 1.0, seed);
                    ("learned", similarity::cosine_matrix(t.data(), n, dim), dim)
                }
            };
            json!({
                "method": name,
                "positions": n,
                "dim": dim,
                "base": base,
                "seed": seed,
                "data": rows(&data, n),
            })
        }
        Command::Learned { max_len, dim, seed } => {
            let max_len = in_range_usize("max-len", max_len, limits::MAX_LEN)?;
            let dim = in_range_usize("dim", dim, limits::DIM)?;
            let t = LearnedTable::new(max_len, dim, 1.0, seed);
            json!({
                "max_len": max_len,
                "dim": dim,
                "seed": seed,
                "sigma": 1.0,
                "data": rows(t.data(), dim),
            })
        }
    })
}

/// Runs the CLI on `args`; returns the exit status (0 ok, 2 bad input, 1 could not write).
pub fn run(args: impl IntoIterator<Item = OsString>) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            return match e.kind() {
                ErrorKind::DisplayHelp
                | ErrorKind::DisplayVersion
                | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    let _ = e.print();
                    if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                        2
                    } else {
                        0
                    }
                }
                _ => {
                    let text = e.render().to_string();
                    let line = text.lines().next().unwrap_or("error: bad arguments");
                    eprintln!("pe: {}", line.trim_start_matches("error: "));
                    2
                }
            };
        }
    };
    match execute(cli.command) {
        Ok(value) => {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            let written = serde_json::to_writer(&mut out, &value)
                .map_err(std::io::Error::from)
                .and_then(|()| writeln!(out));
            match written {
                Ok(()) => 0,
                Err(e) => {
                    eprintln!("pe: could not write the output: {e}");
                    1
                }
            }
        }
        Err(message) => {
            eprintln!("pe: {message}");
            2
        }
    }
}
