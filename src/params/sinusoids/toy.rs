//! Chapter 1's two toy figures' views: the order-blindness figure's sentence (`s`, `pe`) and the
//! naive-fixes figure's collision finder (`npos`, `eps`).

use crate::math::limits;
use crate::params::Notice;
use crate::params::decl::choice;
use crate::params::listed::{declared, view_struct};

crate::params::listed::fields! { $
    /// The order-blindness figure's parameters, each one row ([`crate::params::listed`]):
    /// [`OrderView`], its [`ORDER_TABLE`] and the app's signals are written from this list.
    order_fields
    listed {
        /// The sentence (1 to 16 tokens after [`crate::math::attention::tokenize`]).
        sentence: String = crate::math::attention::EXAMPLE.to_string() => sentence!("s"),
        /// Whether the sinusoidal encoding is added to the token embeddings.
        with_position: bool = false => [choice(
            "pe",
            &["on", "off"],
            |v| if v.with_position { "on" } else { "off" },
            |v, s| v.with_position = s == "on",
        )],
    }
    own {}
}
#[cfg_attr(not(target_arch = "wasm32"), allow(unused_imports))] // read by the app's state
pub(crate) use order_fields;

order_fields!(view_struct {
    /// The order-blindness figure's view: the sentence and whether positions are added.
    #[derive(Clone, Debug, PartialEq)]
    OrderView
});

/// Checks a sentence for the toy attention: its tokens, or a notice saying why it was refused
/// (no words, or more than the limit).
pub fn check_sentence(text: &str) -> Result<Vec<String>, Notice> {
    crate::params::check_length("The sentence", text)?;
    let tokens = crate::math::attention::tokenize(text);
    let (lo, hi) = limits::TOKENS;
    if tokens.len() < lo {
        Err(Notice("The sentence needs at least one word.".into()))
    } else if tokens.len() > hi {
        Err(Notice(format!(
            "The sentence has {} words; the toy attention takes at most {hi}. Keeping the previous one.",
            tokens.len()
        )))
    } else {
        Ok(tokens)
    }
}

order_fields!(rows declared {
    ORDER_TABLE OrderView,
    |_| {};
});

crate::params::listed::fields! { $
    /// The naive-fixes figure's parameters, each one row ([`crate::params::listed`]):
    /// [`NaiveView`], its [`NAIVE_TABLE`] and the app's signals are written from this list.
    naive_fields
    listed {
        /// Position whose value `sin(pos)` is matched.
        pos: usize = 2 => int!("npos", "npos", NAIVE_POS),
        /// Tolerance ε of the match.
        eps: f64 = 1e-3 => float!("eps", "eps", NAIVE_EPS),
    }
    own {}
}
#[cfg_attr(not(target_arch = "wasm32"), allow(unused_imports))] // read by the app's state
pub(crate) use naive_fields;

naive_fields!(view_struct {
    /// The naive-fixes figure's view: the position whose sine collision is sought, and the
    /// tolerance.
    #[derive(Clone, Copy, Debug, PartialEq)]
    NaiveView
});

/// Range of the collision finder's position.
pub const NAIVE_POS: (usize, usize) = (0, 10_000);

/// Range of the collision finder's tolerance.
pub const NAIVE_EPS: (f64, f64) = (1e-6, 0.1);

naive_fields!(rows declared {
    NAIVE_TABLE NaiveView,
    |_| {};
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Declared;
    use crate::params::{build_query, parse_query, parse_query as q};

    #[test]
    fn sentences_are_checked_and_survive_the_url() {
        let long = ["word"; 17].join(" ");
        assert!(check_sentence(&long).is_err());
        assert!(check_sentence(" ,, ").is_err());
        assert_eq!(
            check_sentence("Dog bites man.").unwrap(),
            vec!["dog", "bites", "man"]
        );
        let (view, notices) = OrderView::from_query(&q(&format!("s={}&pe=maybe", long)));
        assert_eq!(view, OrderView::default());
        assert_eq!(notices.len(), 2);
        let view = OrderView {
            sentence: "man bites dog".into(),
            with_position: true,
        };
        let back = OrderView::from_query(&parse_query(&build_query(&view.to_query())));
        assert_eq!(back, (view, vec![]));
    }

    #[test]
    fn naive_view_clamps_and_round_trips() {
        let (view, notices) = NaiveView::from_query(&q("npos=-4&eps=5"));
        assert_eq!(view, NaiveView { pos: 0, eps: 0.1 });
        assert_eq!(notices.len(), 2);
        let view = NaiveView {
            pos: 77,
            eps: 2.5e-4,
        };
        let back = NaiveView::from_query(&parse_query(&build_query(&view.to_query())));
        assert_eq!(back, (view, vec![]));
    }
}
