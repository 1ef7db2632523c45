//! Transformer-XL's four terms (fig-tab-txl): what each depends on, shown on two pairs of the
//! sentence that the term cannot tell apart.

use std::fmt;

use super::short;
use crate::math::txl::Terms;
use crate::params::tables::TxlTerm;
use crate::scene::tables::txl_values;

/// A visible (query, key) pair, `key ≤ query`.
pub type Pair = (usize, usize);

/// What a term depends on: two visible pairs count as "the same" to it when these agree (the
/// code's rows and their shift are views of (b) + (d): the query word and the distance).
fn same_for(term: TxlTerm, tokens: &[String], (i, j): Pair, (p, q): Pair) -> bool {
    let words = tokens[i] == tokens[p] && tokens[j] == tokens[q];
    let distance = i - j == p - q;
    match term {
        TxlTerm::Score => words && distance,
        TxlTerm::Content => words,
        TxlTerm::ContentPosition | TxlTerm::Rows | TxlTerm::Shifted => {
            tokens[i] == tokens[p] && distance
        }
        TxlTerm::GlobalContent => tokens[j] == tokens[q],
        TxlTerm::GlobalPosition => distance,
    }
}

/// Two visible pairs that `term` depends on equally but that differ in something the term
/// ignores (for the score: only their places in the sentence), the farthest apart first, then in
/// reading order; none when the sentence has no such two.
pub fn twin_pairs(term: TxlTerm, tokens: &[String]) -> Option<(Pair, Pair)> {
    let n = tokens.len();
    // Farthest pairs first: a twin two positions apart shows more than one on the diagonal.
    let mut visible: Vec<Pair> = (0..n).flat_map(|i| (0..=i).map(move |j| (i, j))).collect();
    visible.sort_by_key(|&(i, j)| std::cmp::Reverse(i - j));
    // What each term ignores must differ, so the two pairs show the term ignoring it.
    let differs = |a: Pair, b: Pair| match term {
        TxlTerm::Score => a != b,
        TxlTerm::Content => a.0 - a.1 != b.0 - b.1,
        TxlTerm::ContentPosition | TxlTerm::Rows | TxlTerm::Shifted => tokens[a.1] != tokens[b.1],
        TxlTerm::GlobalContent => tokens[a.0] != tokens[b.0] || a.0 - a.1 != b.0 - b.1,
        TxlTerm::GlobalPosition => tokens[a.0] != tokens[b.0] || tokens[a.1] != tokens[b.1],
    };
    visible.iter().enumerate().find_map(|(k, &a)| {
        visible[k + 1..]
            .iter()
            .find(|&&b| same_for(term, tokens, a, b) && differs(a, b))
            .map(|&b| (a, b))
    })
}

/// The figure's finding: what the shown term depends on, and two pairs that prove it (their
/// values, equal), or why this sentence has no such two.
#[derive(Clone, Debug, PartialEq)]
pub struct TxlFinding<'a> {
    /// The sentence's tokens.
    pub tokens: &'a [String],
    /// The four terms.
    pub terms: &'a Terms,
    /// The term shown.
    pub term: TxlTerm,
}

impl TxlFinding<'_> {
    /// Entry `(i, j)` of the shown term (a visible pair), as the figure draws it.
    fn value(&self, (i, j): Pair) -> f64 {
        txl_values(self.terms, self.term)[i * self.terms.n + j]
    }

    /// "dog ·2 → the ·0" for a pair.
    fn name(&self, (i, j): Pair) -> String {
        format!("{} ·{i} → {} ·{j}", self.tokens[i], self.tokens[j])
    }
}

/// The distances of `n` tokens as the code lists them: "0", "1, 0", "2, 1, 0", "3, 2, 1, 0",
/// then "15, …, 1, 0".
fn descending(n: usize) -> String {
    if n <= 4 {
        (0..n.max(1))
            .rev()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    } else {
        format!("{}, …, 1, 0", n - 1)
    }
}

/// The finding of the code's rows and of their shift, for `n` tokens.
fn code_view(term: TxlTerm, n: usize) -> String {
    match (term, n) {
        (_, 0 | 1) => "With one token the code computes (b) + (d) of one query at one distance, \
                       0, and the shift leaves it in place."
            .to_string(),
        (TxlTerm::Rows, _) => format!(
            "The code computes (b) + (d) for every query and every distance {}, one column \
             each, longest first; _rel_shift then puts query i's distances 0 … i under keys \
             i … 0. {}",
            descending(n),
            if n >= 3 {
                "Longer distances, which only cached keys would have, land above the diagonal \
                 of the row before, or, for query 0, are dropped with the first row of the \
                 reshaped view."
            } else {
                "Query 0's distance 1, which only a cached key would have, is dropped with the \
                 first row of the reshaped view."
            }
        ),
        _ => format!(
            "After _rel_shift every entry on or below the diagonal is (b) + (d) of its pair, \
             query word i at distance i − j, as the paper's equation gives it; just above the \
             diagonal sit the zeros padded in front of the next query's row{}: no pair's score, \
             which the causal mask hides.",
            if n >= 3 {
                ", and farther up the next row's longer distances"
            } else {
                ""
            }
        ),
    }
}

impl fmt::Display for TxlFinding<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if matches!(self.term, TxlTerm::Rows | TxlTerm::Shifted) {
            return write!(f, "{}", code_view(self.term, self.terms.n));
        }
        // What the term reads, what it ignores, and a sentence that has two pairs to show it.
        let (rule, twins, example) = match self.term {
            TxlTerm::Score => (
                "The score depends on the two words and the distance i − j, never on where the \
                 pair sits",
                "the same words at the same distance",
                "repeat a word, as in “the dog saw the dog”",
            ),
            TxlTerm::Content => (
                "Term (a) depends on the two words only",
                "the same two words at different distances",
                "repeat a word, as in “the dog saw the dog”",
            ),
            TxlTerm::ContentPosition => (
                "Term (b) depends on the query word and the distance i − j only",
                "the same query word at the same distance but different key words",
                "try “the brown dog chased the black dog”",
            ),
            TxlTerm::GlobalContent => (
                "Term (c) depends on the key word only",
                "the same key word",
                "a second word gives some",
            ),
            TxlTerm::GlobalPosition => (
                "Term (d) depends on the distance i − j only",
                "the same distance but different words",
                "a sentence of different words gives some",
            ),
            TxlTerm::Rows | TxlTerm::Shifted => unreachable!("handled above"),
        };
        match twin_pairs(self.term, self.tokens) {
            Some((a, b)) => write!(
                f,
                "{rule}: {} and {} (distances {} and {}) get the same value, {}.",
                self.name(a),
                self.name(b),
                a.0 - a.1,
                b.0 - b.1,
                short(self.value(a), 4).replace('-', "−")
            ),
            None => write!(
                f,
                "{rule}. No two visible pairs of this sentence show it, which takes two with \
                 {twins} ({example})."
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::attention::{EXAMPLE, tokenize};
    use crate::math::txl;

    #[test]
    fn every_term_finds_its_twins_in_the_example_and_they_are_equal() {
        let tokens = tokenize(EXAMPLE);
        let terms = txl::terms(&tokens, 0);
        for term in &TxlTerm::ALL[..5] {
            let term = *term;
            let (a, b) = twin_pairs(term, &tokens).expect("the example repeats words");
            let finding = TxlFinding {
                tokens: &tokens,
                terms: &terms,
                term,
            };
            assert!(
                (finding.value(a) - finding.value(b)).abs() < 1e-12,
                "{term:?}"
            );
            assert!(a.1 <= a.0 && b.1 <= b.0);
            assert!(finding.to_string().contains("get the same value"));
        }
    }

    #[test]
    fn each_hint_names_a_sentence_that_shows_its_term() {
        for (term, sentence) in [
            (TxlTerm::Score, "the dog saw the dog"),
            (TxlTerm::Content, "the dog saw the dog"),
            (
                TxlTerm::ContentPosition,
                "the brown dog chased the black dog",
            ),
            (TxlTerm::GlobalContent, "dog bites"),
            (TxlTerm::GlobalPosition, "dog bites"),
        ] {
            assert!(twin_pairs(term, &tokenize(sentence)).is_some(), "{term:?}");
        }
        // And the sentences that lack them: one word, or the same word throughout.
        assert!(twin_pairs(TxlTerm::GlobalContent, &tokenize("dog")).is_none());
        assert!(twin_pairs(TxlTerm::GlobalPosition, &tokenize("dog dog")).is_none());
        assert!(twin_pairs(TxlTerm::ContentPosition, &tokenize("the dog saw the dog")).is_none());
    }

    #[test]
    fn the_code_views_say_what_the_shift_does_at_every_length() {
        use crate::math::txl::{Landing, landing, origin};
        for n in 1..=16 {
            let rows = code_view(TxlTerm::Rows, n);
            let shifted = code_view(TxlTerm::Shifted, n);
            // What the sentences claim, against where rel_shift really moves entries.
            let spills =
                (0..n).any(|i| (0..n).any(|c| matches!(landing(i, c, n), Landing::Above { .. })));
            let dropped = (0..n).any(|c| landing(0, c, n) == Landing::Dropped);
            let pads = (0..n).any(|i| (0..n).any(|j| j > i && origin(i, j, n).is_none()));
            let leftovers = (0..n).any(|i| (0..n).any(|j| j > i + 1 && origin(i, j, n).is_some()));
            assert_eq!(spills, n >= 3, "{n}");
            assert_eq!(
                rows.contains("land above the diagonal"),
                spills,
                "{n}: {rows}"
            );
            assert_eq!(rows.contains("dropped"), dropped, "{n}: {rows}");
            assert_eq!(shifted.contains("zeros padded"), pads, "{n}: {shifted}");
            assert_eq!(
                shifted.contains("longer distances"),
                leftovers,
                "{n}: {shifted}"
            );
        }
    }

    #[test]
    fn the_distances_are_written_out_up_to_four_tokens() {
        assert_eq!(descending(1), "0");
        assert_eq!(descending(2), "1, 0");
        assert_eq!(descending(4), "3, 2, 1, 0");
        assert_eq!(descending(5), "4, …, 1, 0");
    }

    #[test]
    fn a_sentence_without_repeats_says_so() {
        let tokens = tokenize("dog bites man");
        let terms = txl::terms(&tokens, 0);
        let text = TxlFinding {
            tokens: &tokens,
            terms: &terms,
            term: TxlTerm::Score,
        }
        .to_string();
        assert!(text.contains("No two visible pairs"), "{text}");
    }
}
