//! Learned absolute position embeddings (as in BERT and GPT-2): a trainable table of `max_len`
//! vectors. Before training it is random; here a seeded `N(0, σ²)` table (GPT-2 initialises with
//! σ = 0.02; the explainer uses σ = 1 by default so it reads on the same colour scale) stands in
//! for it. Its defining weakness: a position at or beyond `max_len` has no row at all.
//!
//! Seeded with Xoshiro256++ (`rand::rngs::Xoshiro256PlusPlus::seed_from_u64`) and
//! `rand_distr::Normal`, so the same seed gives the same table in the browser and the CLI.

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rand_distr::{Distribution, Normal};

/// A seeded learned-position table.
#[derive(Clone, Debug, PartialEq)]
pub struct LearnedTable {
    max_len: usize,
    dim: usize,
    data: Vec<f64>,
}

impl LearnedTable {
    /// A `max_len × dim` table of `N(0, sigma²)` draws from `seed`. A non-finite or negative
    /// `sigma` is taken as 0 (all zeros).
    pub fn new(max_len: usize, dim: usize, sigma: f64, seed: u64) -> LearnedTable {
        let sigma = if sigma.is_finite() && sigma > 0.0 {
            sigma
        } else {
            0.0
        };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let data = match Normal::new(0.0, sigma) {
            Ok(normal) => (0..max_len * dim)
                .map(|_| normal.sample(&mut rng))
                .collect(),
            Err(_) => vec![0.0; max_len * dim],
        };
        LearnedTable { max_len, dim, data }
    }

    /// The embedding of `pos`, or `None` when `pos ≥ max_len`: the table has no such row.
    pub fn row(&self, pos: usize) -> Option<&[f64]> {
        (pos < self.max_len).then(|| &self.data[pos * self.dim..(pos + 1) * self.dim])
    }

    /// The whole table, row-major `max_len × dim`.
    pub fn data(&self) -> &[f64] {
        &self.data
    }

    /// Number of rows.
    pub fn max_len(&self) -> usize {
        self.max_len
    }

    /// Width.
    pub fn dim(&self) -> usize {
        self.dim
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_table_and_no_row_past_the_end() {
        let a = LearnedTable::new(16, 8, 1.0, 7);
        assert_eq!(a, LearnedTable::new(16, 8, 1.0, 7));
        assert_ne!(a, LearnedTable::new(16, 8, 1.0, 8));
        assert!(a.row(15).is_some());
        assert!(a.row(16).is_none());
        let mean = a.data().iter().sum::<f64>() / 128.0;
        assert!(mean.abs() < 0.4, "{mean}");
        assert!(
            LearnedTable::new(4, 4, f64::NAN, 1)
                .data()
                .iter()
                .all(|&v| v == 0.0)
        );
    }
}
