//! Context extension: every scaling is finite, positive and never faster than plain RoPE; any
//! config text parses or fails without a panic.

use super::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn rope_scaling_is_finite_positive_and_never_faster(c in any_scaling()) {
        // Without LongRoPE lists (then θ itself), mscale pair or explicit attention factor, which
        // may speed a frequency up or set an attention factor below 1.
        let c = RopeScaling {
            attention_factor: None,
            mscale: None,
            mscale_all_dim: None,
            short_factor: Vec::new(),
            long_factor: Vec::new(),
            ..c
        };
        let (d, b, factor, rope_type) = (c.dim, c.base, c.factor, c.rope_type);
        let (inv_freq, attention_factor) = c.compute();
        let plain = rope::inv_freq(d, b);
        prop_assert_eq!(inv_freq.len(), d / 2);
        prop_assert!(attention_factor.is_finite() && attention_factor >= 1.0);
        for (f, p) in inv_freq.iter().zip(&plain) {
            prop_assert!(f.is_finite() && *f > 0.0, "{:?}: {}", rope_type, f);
            // Every scheme slows frequencies down (or keeps them): none speeds one up. Linear,
            // YaRN and Llama 3 blend θ with θ/s, so none slows one by more than s (the NTK
            // family's base change has no such bound).
            prop_assert!(*f <= p * (1.0 + 1e-12), "{:?}: {} > {}", rope_type, f, p);
            if matches!(rope_type, RopeType::Linear | RopeType::Yarn | RopeType::Llama3) {
                prop_assert!(*f >= p / factor * (1.0 - 1e-12), "{:?}: {} < {}/s", rope_type, f, p);
            }
        }
    }

    #[test]
    fn every_scaling_with_every_field_is_finite_and_positive(c in any_scaling()) {
        let (inv_freq, attention_factor) = c.compute();
        prop_assert_eq!(inv_freq.len(), c.dim / 2);
        prop_assert!(attention_factor.is_finite() && attention_factor > 0.0, "{:?}", c);
        prop_assert!(inv_freq.iter().all(|f| f.is_finite() && *f > 0.0), "{:?}", c);
        let ratio = c.scale_per_pair();
        prop_assert!(ratio.iter().all(|r| r.is_finite() && *r > 0.0), "{:?}", c);
        let (low, high) = pe_explorer::math::rope_scaling::yarn_correction_range(&c);
        prop_assert!(low.is_finite() && high.is_finite());
    }

    #[test]
    fn parse_config_never_panics_on_any_text(text in "\\PC{0,200}") {
        if let Ok(m) = parse_config(&text) {
            check_model(&m)?;
        }
    }

    #[test]
    fn parse_config_never_panics_on_json_ish_objects(
        root in prop::collection::btree_map(config_key(), json_value(), 0..16),
    ) {
        let text = Value::Object(root.into_iter().collect()).to_string();
        match parse_config(&text) {
            Ok(m) => check_model(&m)?,
            Err(e) => prop_assert!(!e.is_empty() && !e.contains('\n'), "{}", e),
        }
    }
}
