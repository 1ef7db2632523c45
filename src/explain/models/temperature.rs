//! The query-temperature figure's sentences (fig-models-temperature): each mechanism's factor
//! (Llama 4, Ministral 3 and Mistral 4, Beam) at the chapter's query, which applies to the chosen
//! layer, and what the factors do to a softmax row — computed from [`crate::math::temperature`].

use super::{grouped, multiplier};
use crate::math::layers::Layer;
use crate::math::temperature::{
    LLAMA4, Llama4Scale, MINISTRAL3, QueryScale, beam_at, lead_weight, mistral_in_bf16,
};
use crate::params::format_significant;

/// "1.16094": a factor to six significant digits (exactly 1 as "1").
pub fn factor(s: f64) -> String {
    multiplier(s, 6)
}

/// How a scale runs: "1 up to position 8190, then a step every 8192 positions".
fn course(q: &QueryScale) -> String {
    if q.scale == 0.0 {
        return "every factor is 1".to_string();
    }
    let from = match q.first_raised() {
        0 => "above 1 from position 0".to_string(),
        r => format!("1 up to position {}", grouped(r as u64 - 1)),
    };
    if q.floor == 1 {
        format!("{from}, then a step at every position")
    } else {
        format!(
            "{from}, then a step every {} positions",
            grouped(q.floor as u64)
        )
    }
}

/// Llama 4's mechanism and its factor at `query`: `of_model` is the model's Llama 4 scale, `None`
/// when the model is not a Llama 4 (the curve is then `Llama4TextConfig`'s defaults).
pub fn llama_sentence(of_model: Option<&Llama4Scale>, query: usize) -> String {
    let formula = "Llama 4 (attn_temperature_tuning, on by default) multiplies the queries of its \
                   layers without RoPE by 1 + attn_scale·ln(1 + ⌊(p + 1)/floor_scale⌋), p \
                   being the token's index in the sequence (the cache's length plus its place \
                   in the input), not its position_ids";
    let (q, whose, notes) = match of_model {
        Some(Llama4Scale { scale: None, .. }) => {
            return format!(
                "{formula}; this config turns attn_temperature_tuning off, so none of its \
                 queries is scaled, and the curve is drawn with Llama4TextConfig's defaults \
                 (attn_scale {}, floor_scale {}).",
                LLAMA4.scale,
                grouped(LLAMA4.floor as u64),
            );
        }
        Some(Llama4Scale {
            scale: Some(q),
            notes,
        }) if notes.iter().any(|n| n.contains("drawn with the default")) => (
            *q,
            "the values drawn (Llama4TextConfig's defaults in place of the config's values \
             noted below),",
            notes.as_slice(),
        ),
        Some(Llama4Scale {
            scale: Some(q),
            notes,
        }) => (*q, "this config's", notes.as_slice()),
        None => (LLAMA4, "Llama4TextConfig's defaults,", &[][..]),
    };
    let notes: String = notes.iter().map(|n| format!(" ({n}.)")).collect();
    format!(
        "{formula}, with {whose} attn_scale {} and floor_scale {}: {}; at the query's position \
         {}, {}.{notes}",
        q.scale,
        grouped(q.floor as u64),
        course(&q),
        grouped(query as u64),
        factor(q.at(query)),
    )
}

/// Ministral 3's mechanism and its factor at `query`, and that factor as a bfloat16 model
/// multiplies by it.
pub fn mistral_sentence(query: usize) -> String {
    let q = MINISTRAL3;
    let s = q.at(query);
    let cast = mistral_in_bf16(s);
    let cast = if cast == s {
        String::new()
    } else {
        format!(
            " ({} in a bfloat16 model, which casts the factor first)",
            factor(cast)
        )
    };
    format!(
        "Ministral 3 and Mistral 4 multiply every layer's queries, after RoPE, by 1 + β·ln(1 + \
         ⌊p/original_max_position_embeddings⌋), β being rope_parameters' llama_4_scaling_beta \
         and p the position_ids (drawn with Ministral3Config's defaults: β {}, \
         original_max_position_embeddings {}; Mistral4Config's is {}): {}; at the query's \
         position {}, {}{cast}.",
        q.scale,
        grouped(q.floor as u64),
        grouped(8192),
        course(&q),
        grouped(query as u64),
        factor(s),
    )
}

/// Beam's mechanism and its factor at `query`.
pub fn beam_sentence(query: usize) -> String {
    format!(
        "Beam multiplies the queries of its layers without RoPE (those whose rope_parameters \
         are None, its full-attention layers by its code's comment) by (1 + (p + 1)/2048)^0.1, \
         constants in its code: smooth, {} at position 0; at the query's position {}, {}.",
        factor(beam_at(0)),
        grouped(query as u64),
        factor(beam_at(query)),
    )
}

/// Which mechanism applies to layer `index` of the model `name`.
pub fn layer_sentence(
    name: &str,
    of_model: Option<&Llama4Scale>,
    layer: &Layer,
    index: usize,
) -> String {
    let Some(llama) = of_model else {
        return format!(
            "{name} scales no query by its position: its config is not a Llama 4's (and this \
             chapter does not read Ministral 3, Mistral 4 or Beam configs)."
        );
    };
    match (layer.rope.is_some(), llama.scale) {
        (_, None) => {
            let name = if name == crate::params::models::PASTED {
                "this config"
            } else {
                name
            };
            format!("In {name}, no layer's queries are scaled: the tuning is off.")
        }
        (false, Some(q)) if q.scale == 0.0 => format!(
            "Layer {index} of {name} has no RoPE, and attn_scale 0 makes its factor 1 at every \
             position."
        ),
        (true, Some(_)) => format!(
            "Layer {index} of {name} rotates q and k, so its queries are not scaled: only the \
             layers without RoPE are."
        ),
        (false, Some(_)) => format!(
            "Layer {index} of {name} has no RoPE: its queries are scaled by the Llama 4 steps."
        ),
    }
}

/// What the factors at `query` do to a full-attention softmax row at that position.
pub fn softmax_sentence(llama: &QueryScale, query: usize) -> String {
    let effect = "Multiplying a query by s multiplies every logit of its row by s: a softmax \
                  temperature 1/s, which sharpens the row";
    if query < 2 {
        return format!(
            "{effect}; at position {query} a full-attention row has {} key{} before the \
             query's own, too few for the example of a longer row.",
            query,
            if query == 1 { "" } else { "s" }
        );
    }
    let lead = (query as f64).ln();
    let weight = |s: f64| {
        let w = lead_weight(lead, query, s);
        // Four significant digits would round 0.99995 and above up to "1.000".
        if w >= 0.99995 {
            "over 0.9999".to_string()
        } else {
            format_significant(w, 4)
        }
    };
    format!(
        "{effect}. For example, in a full-attention row at the query's position ({} keys, its \
         own included), a key whose logit leads each of the other {} by ln {} = {} gets half \
         the weight unscaled; with Llama 4's factor it gets {}, with Ministral 3's {}, with \
         Beam's {}.",
        grouped(query as u64 + 1),
        grouped(query as u64),
        grouped(query as u64),
        format_significant(lead, 4),
        weight(llama.at(query)),
        weight(MINISTRAL3.at(query)),
        weight(beam_at(query)),
    )
}

/// Where the two stepped lines lie on each other (both 1), over positions `0 … last`; `None`
/// when one of them is above 1 from position 0.
pub fn overlap_sentence(llama: &QueryScale, last: usize) -> Option<String> {
    let first = |q: &QueryScale| {
        if q.scale == 0.0 {
            usize::MAX
        } else {
            q.first_raised()
        }
    };
    let both = first(llama).min(first(&MINISTRAL3));
    if both == 0 {
        return None;
    }
    Some(if both > last {
        format!(
            "Over positions 0 to {} both stepped factors are 1: their two lines lie on each \
             other.",
            grouped(last as u64)
        )
    } else {
        format!(
            "Up to position {} both stepped factors are 1: their lines lie on each other there.",
            grouped(both as u64 - 1)
        )
    })
}
