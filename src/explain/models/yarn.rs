//! The YaRN-factors figure's sentences (fig-models-yarn): which layer's fields are drawn,
//! DeepSeek's decoupled head, each factor at the layer's s, and what each wrong reading does
//! to a logit — computed from [`crate::math::yarn_scale`].

use crate::math::rope_scaling::yarn_get_mscale;
use crate::math::yarn_scale::{DEEPSEEK_V3, Port, YarnScale};
use crate::params::{format_number, format_significant};

/// "1.874": a multiplier to four significant digits (exactly 1 as "1").
pub fn times(x: f64) -> String {
    super::multiplier(x, 4)
}

/// A factor s to four significant digits, trailing zeros dropped ("1", "40", "128", "2.371").
pub fn short(x: f64) -> String {
    let text = format_significant(x, 4);
    if text.contains('.') && !text.contains('e') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// Which fields are drawn: layer `index` of `name`'s own (`own`: its YaRN fields; `derived`:
/// its factor is max_position_embeddings / original_max_position_embeddings, the dict giving
/// none), or DeepSeek-V3's (`rope_type`: the layer's type, `None` without RoPE).
pub fn layer_sentence(
    name: &str,
    index: usize,
    own: Option<&YarnScale>,
    derived: bool,
    rope_type: Option<&str>,
) -> String {
    let d = DEEPSEEK_V3;
    let fallback = format!(
        "drawn with DeepSeek-V3's rope_scaling (factor {}, mscale {}, mscale_all_dim {})",
        format_number(d.factor),
        d.mscale.map_or_else(String::new, format_number),
        d.mscale_all_dim.map_or_else(String::new, format_number),
    );
    match (own, rope_type) {
        (Some(y), _) => {
            let fields = [
                ("mscale", y.mscale),
                ("mscale_all_dim", y.mscale_all_dim),
                ("attention_factor", y.attention_factor),
            ]
            .iter()
            .filter_map(|(k, v)| v.map(|v| format!(", {k} {}", format_number(v))))
            .collect::<String>();
            let whence = if derived {
                " (max_position_embeddings / original_max_position_embeddings, as transformers' \
                 _compute_yarn_parameters takes a null factor)"
            } else {
                ""
            };
            format!(
                "Layer {index} of {name} is YaRN with factor {}{whence}{fields}.",
                format_number(y.factor)
            )
        }
        (None, Some("yarn")) => format!(
            "Layer {index} of {name} is YaRN without a factor transformers can use (a dict \
             without one is refused; a null one is max_position_embeddings / \
             original_max_position_embeddings, which needs both, and which DeepSeek-V3's \
             attention cannot use when mscale_all_dim is set): {fallback}."
        ),
        (None, Some(t)) => {
            format!("Layer {index} of {name} rotates with rope_type {t}, not YaRN: {fallback}.")
        }
        (None, None) => format!("Layer {index} of {name} has no RoPE: {fallback}."),
    }
}

/// `who`'s decoupled query-key head (`qk_nope_head_dim`, `qk_rope_head_dim`).
pub fn head_sentence(who: &str, nope: usize, rope: usize) -> String {
    format!(
        "{who}'s query-key head is {} wide: {nope} coordinates without RoPE \
         (qk_nope_head_dim) and {rope} with (qk_rope_head_dim); a key's {rope} rotated \
         coordinates are one head shared by every query head (MLA's decoupled key, cached once \
         per position), its other {nope} come out of the compressed latent. YaRN's amplitude \
         reaches only the {rope}; its softmax factor reaches all {}.",
        nope + rope,
        nope + rope,
    )
}

/// The amplitude at the layer's factor, and how it is computed.
pub fn amplitude_sentence(y: &YarnScale, who: &str) -> String {
    let a = y.amplitude();
    let how = match (y.attention_factor, y.pair()) {
        (Some(_), _) => "attention_factor as the config gives it".to_string(),
        (None, Some((m, all))) => format!(
            "get_mscale({s}, {}) / get_mscale({s}, {}) = {} / {}",
            format_number(m),
            format_number(all),
            times(yarn_get_mscale(y.factor, m)),
            times(yarn_get_mscale(y.factor, all)),
            s = format_number(y.factor),
        ),
        (None, None) => format!(
            "get_mscale({}) = 0.1·ln s + 1 for s > 1 (no nonzero mscale pair)",
            format_number(y.factor)
        ),
    };
    let flat = match (y.attention_factor, y.pair()) {
        (Some(f), _) => f == 1.0,
        (None, Some((m, all))) => m == all,
        (None, None) => false,
    };
    let lines = if flat {
        " It is 1 at every s, so a rotated coordinate's share is the softmax factor alone: \
         those two lines lie on each other."
    } else {
        ""
    };
    format!(
        "{who}'s rotary embedding multiplies cos and sin by {how} = {}, so a rotated \
         coordinate's q·k product by {}.{lines}",
        times(a),
        times(a * a),
    )
}

/// The softmax scale's factor at the layer's factor; `who` names the model whose attention it is.
pub fn softmax_sentence(y: &YarnScale, who: &str) -> String {
    if !y.softmax {
        return format!(
            "{who}'s attention does not call yarn_apply_mscale: YaRN leaves its softmax scale \
             as it is and reaches its logits through the amplitude alone."
        );
    }
    match y.mscale_all_dim {
        Some(all) if all != 0.0 => format!(
            "{who}'s attention (yarn_apply_mscale) multiplies its softmax scale \
             qk_head_dim^−0.5 by get_mscale({}, {})² = {}² = {}: every coordinate's share of a \
             logit.",
            format_number(y.factor),
            format_number(all),
            times(yarn_get_mscale(y.factor, all)),
            times(y.softmax_factor()),
        ),
        _ => format!(
            "{who}'s attention would multiply its softmax scale by get_mscale(s, \
             mscale_all_dim)², but mscale_all_dim is absent or 0: the scale stays \
             qk_head_dim^−0.5."
        ),
    }
}

/// "1.874 times too large" / "right".
fn off(ratio: f64) -> String {
    if (ratio - 1.0).abs() < 1e-12 {
        "right".to_string()
    } else if ratio > 1.0 {
        format!("{} times too large", times(ratio))
    } else {
        format!("{} times too small", times(1.0 / ratio))
    }
}

/// What each wrong reading does to the logits: rotated coordinates' and (`plain`: the head has
/// coordinates without RoPE) the others'.
pub fn ports_sentence(y: &YarnScale, plain: bool) -> String {
    let mut wrong = Vec::new();
    let mut same = Vec::new();
    for p in Port::ALL {
        let Some((rot, other)) = p.error(y) else {
            continue;
        };
        let what = match p {
            Port::NoSoftmax => "leaves out the softmax factor".to_string(),
            Port::DefaultAmplitude => format!(
                "puts YaRN's default get_mscale({}) = {} into cos and sin",
                format_number(y.factor),
                times(yarn_get_mscale(y.factor, 1.0))
            ),
            Port::RawRatio => "divides the raw fields, mscale / mscale_all_dim,".to_string(),
            Port::NoAmplitude => "leaves cos and sin unscaled".to_string(),
        };
        let right = |r: f64| (r - 1.0).abs() < 1e-12;
        if right(rot) && right(other) {
            same.push(what);
            continue;
        }
        let result = if plain && (rot - other).abs() >= 1e-12 {
            format!(
                "the rotated coordinates' share of each q·k logit {}, the others' {}",
                off(rot),
                off(other)
            )
        } else {
            format!("every q·k logit {}", off(rot))
        };
        wrong.push(format!("one that {what} gets {result}"));
    }
    let mut text = if wrong.is_empty() {
        "At this factor no other reading of the fields changes a logit.".to_string()
    } else {
        format!(
            "A port that reads the fields another way is off: {}.",
            wrong.join("; ")
        )
    };
    if !same.is_empty() {
        text.push_str(&format!(
            " One that {} happens to get them right at these fields.",
            same.join(", or ")
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::yarn_scale::DEEPSEEK_V3;

    #[test]
    fn deepseek_v3_in_words() {
        let text = ports_sentence(&DEEPSEEK_V3, true);
        let says = |part: &str| assert!(text.contains(part), "{part}: {text}");
        says("one that leaves out the softmax factor gets every q·k logit 1.874 times too small");
        says("share of each q·k logit 1.874 times too large, the others' right");
        says(
            ". One that divides the raw fields, mscale / mscale_all_dim, happens to get them right",
        );
        assert!(softmax_sentence(&DEEPSEEK_V3, "DeepSeek-V3").contains("= 1.369² = 1.874"));
    }
}
