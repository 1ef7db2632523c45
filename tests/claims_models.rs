//! Chapter 5's setting-dependent sentences (`explain::models`), re-derived by brute force from
//! the layers: proptest sweeps every preset, layer and query (edges included). The reach is
//! recomputed position by position (the earliest key any reachable position sees, layer by layer
//! down), the pattern's counts and cache bytes layer by layer, and the raw fields' meanings are
//! checked against what the layer does.
#![cfg(not(target_arch = "wasm32"))]

#[path = "common/says.rs"]
mod says;

use pe_explorer::explain::models::{
    BYTES_PER_NUMBER, Kind, PatternFinding, ReachFinding, bytes_text, grouped, layer_text,
    raw_fields,
};
use pe_explorer::math::layers::presets::PRESETS;
use pe_explorer::math::layers::{Attention, Layer, Model, read_model};
use proptest::prelude::*;
use says::{assert_never_says, assert_says};

fn model(k: usize) -> Model {
    read_model(PRESETS[k].config).expect(PRESETS[k].id)
}

/// The earliest position whose information reaches the query at `p` through `layers` (lowest
/// first), by brute force: the set of positions that reach it, one layer down at a time, each
/// position of the set adding every key its mask lets it see (not assuming, as the page's
/// fold does, that the set's first position sees the farthest).
fn brute_reach(layers: &[Layer], p: usize) -> usize {
    let mut first = p;
    for layer in layers.iter().rev() {
        first = (first..=p)
            .map(|s| *layer.visible(s).start())
            .min()
            .unwrap();
    }
    first
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn reach_is_the_brute_force_reach(k in 0..PRESETS.len(), layer in 0usize..64, p in prop_oneof![0usize..4, 120usize..140, 1000usize..1100, 4090usize..4100, 8185usize..8200, 16_380usize..16_400, 20_000usize..24_000]) {
        let m = model(k);
        let layer = layer.min(m.layers.len() - 1);
        let f = ReachFinding::new(&m.layers, layer, p);
        let direct = (0..=p).find(|&j| m.layers[layer].visible(p).contains(&j)).unwrap();
        prop_assert_eq!(f.direct, direct);
        prop_assert_eq!(f.through, brute_reach(&m.layers[..=layer], p));
        prop_assert_eq!(f.whole, brute_reach(&m.layers, p));
        let text = f.to_string();
        let keys = p - direct + 1;
        assert_says(&text, &[&format!(
            "In layer {layer}, the query at position {} attends to {} {}",
            grouped(p as u64),
            grouped(keys as u64),
            if keys == 1 { "key," } else { "keys," },
        )]);
        if f.through < direct {
            assert_says(&text, &[&if f.through == 0 { "from position 0".to_string() } else { format!("from position {} on", grouped(f.through as u64)) }]);
        } else if layer > 0 {
            assert_says(&text, &["bring it nothing from farther back"]);
        } else {
            assert_never_says(&text, &["layers below", "through layers"]);
        }
    }

    #[test]
    fn the_pattern_finding_counts_and_sizes_what_the_layers_keep(k in 0..PRESETS.len(), tokens in prop_oneof![16usize..200, 1000usize..1030, 4090usize..4100, 8185usize..8200, 100_000usize..1_048_577]) {
        let m = model(k);
        let f = PatternFinding::new(&m, tokens);
        // What each layer keeps after `tokens`: of positions 0 … tokens − 1, the last W − 1
        // (t + W − 1 ≥ tokens) for a window or chunk of W, or all of them.
        let sizes = |tokens: usize| {
            let mut pattern = 0u64;
            let mut full = 0u64;
            for (l, w) in m.layers.iter().zip(&m.widths) {
                let per = (w.kv_heads * (w.d_k + w.d_v) * BYTES_PER_NUMBER) as u64;
                let kept = match l.window {
                    Some(win) if l.attention != Attention::Full => (0..tokens).filter(|&t| t + win > tokens).count(),
                    _ => tokens,
                };
                pattern += kept as u64 * per;
                full += tokens as u64 * per;
            }
            (pattern, full)
        };
        let (pattern, full) = sizes(tokens);
        prop_assert_eq!(f.bytes.pattern, pattern);
        prop_assert_eq!(f.bytes.all_full, full);
        prop_assert_eq!(f.next_token, sizes(tokens + 1).0 - pattern);
        let text = f.to_string();
        assert_says(&text, &[
            &format!("{} layers: ", m.layers.len()),
            &format!("of one sequence its KV cache holds {} in bfloat16", bytes_text(pattern as f64)),
            &format!("the next token adds {}", bytes_text((sizes(tokens + 1).0 - pattern) as f64)),
            &format!("against {} with every layer full", bytes_text(full as f64)),
        ]);
        for kind in Kind::ALL {
            let n = m.layers.iter().filter(|l| Kind::of(l) == kind).count();
            if n > 0 {
                assert_says(&text, &[&format!("{n} {}", kind.label())]);
            } else {
                assert_never_says(&text, &[&format!(" {}", kind.label())]);
            }
        }
        let windows: Vec<usize> = m.layers.iter().filter(|l| l.attention != Attention::Full).filter_map(|l| l.window).collect();
        if pattern == full {
            if windows.is_empty() {
                assert_says(&text, &["the same, since no layer has a window or a chunk"]);
            } else {
                assert_says(&text, &["the same, since no window or chunk has filled yet"]);
            }
            prop_assert!(windows.iter().all(|&w| w > tokens));
        } else if windows.iter().all(|&w| w >= tokens) {
            // Only layers whose window is exactly the tokens keep fewer, by one position each.
            assert_says(&text, &[&format!("a layer whose window is {} keeps one position fewer", grouped(tokens as u64))]);
        } else {
            assert_says(&text, &[" less."]);
            assert_never_says(&text, &["the same"]);
        }
    }

    #[test]
    fn each_layer_and_its_raw_fields_say_what_it_does(k in 0..PRESETS.len(), layer in 0usize..64) {
        let m = model(k);
        let i = layer.min(m.layers.len() - 1);
        let l = &m.layers[i];
        let text = layer_text(i, l);
        match &l.rope {
            Some(r) => assert_says(&text, &[&format!("RoPE \"{}\"", r.rope_type)]),
            None => assert_says(&text, &["no RoPE"]),
        }
        let rows = raw_fields(&m, i);
        prop_assert!(!rows.is_empty());
        for row in &rows {
            if let Some(list) = row.field.strip_prefix("no_rope_layers[") {
                prop_assert_eq!(list, format!("{i}]"));
                // 1 means the layer rotates: the list names the layers that use RoPE.
                prop_assert_eq!(row.value == "1", l.rope.is_some());
                prop_assert_eq!(row.meaning.contains("USES RoPE"), l.rope.is_some());
            }
            if row.field.starts_with("layer_types[") {
                let want = match l.attention {
                    Attention::Full => "full attention",
                    Attention::Sliding => "sliding window",
                    Attention::Chunked => "chunked",
                };
                assert_says(&row.meaning, &[want]);
            }
            if row.field == "sliding_window" {
                prop_assert_eq!(row.meaning.contains("does not slide"), l.attention != Attention::Sliding);
            }
            if row.field == "rope_scaling" && PRESETS[k].id == "gemma-3-4b" {
                prop_assert_eq!(row.meaning.contains("this one among them"), l.attention == Attention::Full);
            }
        }
        // A layer without RoPE lists no RoPE fields.
        if l.rope.is_none() {
            prop_assert!(rows.iter().all(|r| !r.field.starts_with("rope_")));
        }
    }
}

#[test]
fn grouping_and_bytes_read_as_written() {
    assert_eq!(grouped(0), "0");
    assert_eq!(grouped(999), "999");
    assert_eq!(grouped(1000), "1\u{202F}000");
    assert_eq!(grouped(32_767), "32\u{202F}767");
    assert_eq!(grouped(1_000_000), "1\u{202F}000\u{202F}000");
    assert_eq!(bytes_text(512.0), "512 B");
    assert_eq!(bytes_text(1024.0), "1.00 KiB");
    assert_eq!(bytes_text(1536.0 * 1024.0), "1.50 MiB");
    assert_eq!(bytes_text(756.0 * 1024.0 * 1024.0), "756 MiB");
    // Never "1024 MiB": a value that rounds to 1024 reads in the next unit.
    assert_eq!(bytes_text(1023.9 * 1024.0 * 1024.0), "1.00 GiB");
    assert_eq!(bytes_text(1023.0 * 1024.0 * 1024.0), "1023 MiB");
}
