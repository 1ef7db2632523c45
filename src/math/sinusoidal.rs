//! The sinusoidal encoding of Vaswani et al., "Attention Is All You Need" (2017), §3.5:
//!
//! ```text
//! PE(pos, 2i)   = sin(pos · ω_i)      ω_i = base^(−2i/d)     (base = 10000 in the paper)
//! PE(pos, 2i+1) = cos(pos · ω_i)
//! ```
//!
//! Libraries lay the same numbers out in two ways and space the frequencies in two ways; all four
//! combinations are supported, with odd `d` handled as the libraries do:
//!
//! - [`Layout::Interleaved`] — sin/cos alternate, as in the paper and Hugging Face DistilBERT's
//!   `_create_sinusoidal_embeddings`: column `j` uses exponent `2·⌊j/2⌋/d`, even `j` sin, odd `j` cos
//!   (odd `d`: the last column is a sine).
//! - [`Layout::Half`] — `[sin block | cos block]`, as tensor2tensor, fairseq and Marian
//!   (`MarianSinusoidalPositionalEmbedding.create_weight`: the sin block takes `⌈d/2⌉` columns).
//! - [`Spacing::Paper`] — `ω_k = base^(−2k/d)`.
//! - [`Spacing::Fairseq`] — `ω_k = exp(−ln(base)·k/(h−1))` with `h = ⌊d/2⌋` pairs, as fairseq,
//!   tensor2tensor and M2M100's `get_embedding`: the slowest pair has ω = 1/base exactly; an odd `d`
//!   gets a last column of zeros. With a single pair (`h = 1`, d = 2 or 3) the divisor `h − 1` is
//!   zero: fairseq's and M2M100's `math.log(10000) / (half_dim - 1)` raises `ZeroDivisionError`
//!   (no table at all). Here, as tensor2tensor's `get_timing_signal_1d` does (it divides by
//!   `max(num_timescales − 1, 1)`), the single pair gets ω₀ = exp(0) = 1 — finite, never NaN.

use super::phase::Phases;

crate::names::named! {
    /// How the sine and cosine columns are arranged.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub enum Layout {
        /// `sin, cos, sin, cos, …` (the paper; DistilBERT; RoFormer/GPT-J for RoPE).
        #[default]
        Interleaved = "interleaved",
        /// `[sin block | cos block]` (tensor2tensor, fairseq, Marian; `rotate_half` for RoPE).
        Half = "half",
    }
}

crate::names::named! {
    /// How the frequencies are spaced.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub enum Spacing {
        /// `ω_k = base^(−2k/d)` (the paper).
        #[default]
        Paper = "paper",
        /// `ω_k = exp(−ln(base)·k/(⌊d/2⌋−1))` (fairseq, tensor2tensor, M2M100).
        Fairseq = "fairseq",
    }
}

impl Spacing {
    /// The name the page's control shows: the spacing is tensor2tensor's, which fairseq's code
    /// copies (for d ≥ 4).
    pub fn label(self) -> &'static str {
        match self {
            Spacing::Paper => "paper",
            Spacing::Fairseq => "tensor2tensor",
        }
    }
}

/// What a column holds: the sine or cosine of frequency pair `k`, or zero padding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    /// `sin(pos · ω_k)`.
    Sin(usize),
    /// `cos(pos · ω_k)`.
    Cos(usize),
    /// Always 0 (the padding column of an odd `d` with fairseq spacing).
    Zero,
}

/// The parameters of a sinusoidal table. Preconditions (see [`super::limits`]): `positions ≥ 1`,
/// `dim ≥ 2`, `base > 1` and finite.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinusoidalParams {
    /// Number of positions (rows): 0 ..= positions − 1.
    pub positions: usize,
    /// d_model (columns).
    pub dim: usize,
    /// Base of the frequency progression.
    pub base: f64,
    /// Column arrangement.
    pub layout: Layout,
    /// Frequency spacing.
    pub spacing: Spacing,
}

impl SinusoidalParams {
    /// Number of frequency pairs with a sine column.
    pub fn pairs(&self) -> usize {
        match self.spacing {
            Spacing::Paper => self.dim.div_ceil(2),
            Spacing::Fairseq => self.dim / 2,
        }
    }

    /// Angular frequency of pair `k`.
    pub fn pair_omega(&self, k: usize) -> f64 {
        match self.spacing {
            Spacing::Paper => self.base.powf(-2.0 * k as f64 / self.dim as f64),
            Spacing::Fairseq => {
                let h = self.dim / 2;
                if h <= 1 {
                    1.0
                } else {
                    (-self.base.ln() * k as f64 / (h - 1) as f64).exp()
                }
            }
        }
    }

    /// What column `col` holds.
    pub fn column(&self, col: usize) -> Column {
        let d = self.dim;
        match (self.layout, self.spacing) {
            (_, Spacing::Fairseq) if !d.is_multiple_of(2) && col == d - 1 => Column::Zero,
            (Layout::Interleaved, _) if col.is_multiple_of(2) => Column::Sin(col / 2),
            (Layout::Interleaved, _) => Column::Cos(col / 2),
            (Layout::Half, _) => {
                let sin_block = self.pairs();
                if col < sin_block {
                    Column::Sin(col)
                } else {
                    Column::Cos(col - sin_block)
                }
            }
        }
    }

    /// Angular frequency ω of column `col` (0 for a zero-padded column).
    pub fn omega(&self, col: usize) -> f64 {
        match self.column(col) {
            Column::Sin(k) | Column::Cos(k) => self.pair_omega(k),
            Column::Zero => 0.0,
        }
    }

    /// `PE(pos, col)` straight from the formula (the oracle for tests and hover readouts).
    pub fn value(&self, pos: usize, col: usize) -> f64 {
        match self.column(col) {
            Column::Sin(k) => (pos as f64 * self.pair_omega(k)).sin(),
            Column::Cos(k) => (pos as f64 * self.pair_omega(k)).cos(),
            Column::Zero => 0.0,
        }
    }

    /// The whole table, row-major `positions × dim`, written into `out` (resized; its allocation
    /// is reused).
    ///
    /// Fast path: each pair's frequency is computed once; sin and cos are stepped down the
    /// positions by the angle-addition rotation `(s, c) ← (s·cos ω + c·sin ω, c·cos ω − s·sin ω)`
    /// and recomputed exactly every [`REANCHOR`](super::phase::REANCHOR) rows ([`Phases`]), so the drift stays near 1e-14. No
    /// `powf` or `sin` per cell: per row, one vectorisable rotation of the `pairs` states and a
    /// copy into the layout's columns.
    pub fn table_into(&self, out: &mut Vec<f64>) {
        let (n, d) = (self.positions, self.dim);
        out.clear();
        out.resize(n * d, 0.0);
        if n == 0 || d == 0 {
            return;
        }
        let mut phases = self.phases();
        for row in out.chunks_exact_mut(d) {
            self.write_row(&phases, row);
            phases.advance();
        }
    }

    /// The [`Phases`] of the fast path, at position 0.
    fn phases(&self) -> Phases {
        Phases::new((0..self.pairs()).map(|k| self.pair_omega(k)).collect())
    }

    /// Writes the row at `phases`' position into `row` (`row.len() == dim`) as
    /// [`SinusoidalParams::table_into`] lays it out. Zero columns (fairseq, odd d) are not
    /// written: they keep what `row` held (0 in a table).
    fn write_row(&self, phases: &Phases, row: &mut [f64]) {
        let (d, pairs) = (self.dim, self.pairs());
        // Complete (sin, cos) pairs; with paper spacing an odd d adds one lone sine (`pairs − 1`).
        let full = d / 2;
        let lone_sine = pairs > full;
        let (sin, cos) = (phases.sin(), phases.cos());
        match self.layout {
            Layout::Interleaved => {
                for (cell, (&s, &c)) in row.chunks_exact_mut(2).zip(sin.iter().zip(cos)) {
                    cell[0] = s;
                    cell[1] = c;
                }
                if lone_sine {
                    row[d - 1] = sin[pairs - 1];
                }
            }
            Layout::Half => {
                row[..pairs].copy_from_slice(sin);
                row[pairs..pairs + full].copy_from_slice(&cos[..full]);
            }
        }
    }

    /// Whether the cosine similarity of two rows depends only on their distance: true when every
    /// sine column has its cosine partner (even `d`, or fairseq's zero padding), so that
    /// `PE(a)·PE(b) = Σ_k cos((a−b)·ω_k)` and `|PE(p)|² = pairs` for every `p`. An odd `d` with
    /// paper spacing leaves a lone sine whose square varies with the position.
    pub fn is_shift_invariant(&self) -> bool {
        self.dim.is_multiple_of(2) || self.spacing == Spacing::Fairseq
    }

    /// `|PE(pos)|`: `√⌊d/2⌋` from the complete pairs (`sin² + cos² = 1` each), plus the lone
    /// sine's `sin²(pos·ω)` when an odd `d` with paper spacing leaves one — then, and only then, the
    /// norm depends on the position.
    pub fn row_norm(&self, pos: usize) -> f64 {
        let h = self.dim / 2;
        let lone = if self.pairs() > h {
            (pos as f64 * self.pair_omega(h)).sin().powi(2)
        } else {
            0.0
        };
        (h as f64 + lone).sqrt()
    }

    /// The linear map `M_k` with `PE(pos + k) = M_k · PE(pos)` for every `pos`, as one 2×2 block per
    /// frequency pair acting on that pair's `(sin, cos)` (Vaswani et al. §3.5: "PE(pos+k) can be
    /// represented as a linear function of PE(pos)"). By the angle-addition formulas,
    ///
    /// ```text
    /// ⎡sin((p+k)ω)⎤   ⎡ cos kω   sin kω⎤ ⎡sin pω⎤
    /// ⎣cos((p+k)ω)⎦ = ⎣−sin kω   cos kω⎦ ⎣cos pω⎦
    /// ```
    ///
    /// `k` may be negative. The block does not depend on `pos`: that is the point.
    pub fn shift_matrix(&self, k: f64) -> Vec<[[f64; 2]; 2]> {
        (0..self.pairs())
            .map(|pair| {
                let (s, c) = (k * self.pair_omega(pair)).sin_cos();
                [[c, s], [-s, c]]
            })
            .collect()
    }

    /// `M_k · row` for a row of this table (`row.len() == dim`): each pair's `(sin, cos)` rotated by
    /// its block of [`SinusoidalParams::shift_matrix`]. A lone sine (odd `d`, paper spacing) has
    /// no cosine partner in the row, so its image uses the partner's value `cos(pos·ω)` recovered
    /// from `pos`; zero columns stay zero.
    pub fn apply_shift(&self, row: &[f64], pos: usize, k: f64) -> Vec<f64> {
        self.apply_blocks(&self.shift_matrix(k), &self.pair_columns(), row, pos)
    }

    /// For every pair, its sine and cosine columns, read off [`SinusoidalParams::column`]
    /// (`None` where the table has none: the last pair of an odd `d` with paper spacing has no
    /// cosine column).
    pub fn pair_columns(&self) -> Vec<(Option<usize>, Option<usize>)> {
        let mut cols = vec![(None, None); self.pairs()];
        for col in 0..self.dim {
            match self.column(col) {
                Column::Sin(pair) => cols[pair].0 = Some(col),
                Column::Cos(pair) => cols[pair].1 = Some(col),
                Column::Zero => {}
            }
        }
        cols
    }

    /// [`SinusoidalParams::apply_shift`] with the blocks and the pair columns precomputed.
    fn apply_blocks(
        &self,
        blocks: &[[[f64; 2]; 2]],
        columns: &[(Option<usize>, Option<usize>)],
        row: &[f64],
        pos: usize,
    ) -> Vec<f64> {
        let mut out = vec![0.0; self.dim];
        for (pair, (m, &(sin_col, cos_col))) in blocks.iter().zip(columns).enumerate() {
            let s = sin_col.map_or(0.0, |c| row[c]);
            let c = cos_col.map_or_else(|| (pos as f64 * self.pair_omega(pair)).cos(), |c| row[c]);
            if let Some(col) = sin_col {
                out[col] = m[0][0] * s + m[0][1] * c;
            }
            if let Some(col) = cos_col {
                out[col] = m[1][0] * s + m[1][1] * c;
            }
        }
        out
    }

    /// `max |M_k·PE(p) − PE(p+k)|` over every position `p < positions` and every column: how
    /// exactly the shift law holds across the whole table (round-off only, ~1e-15). All at once;
    /// [`ShiftCheck`] does the same a slice of positions at a time.
    pub fn max_shift_error(&self, k: usize) -> f64 {
        ShiftCheck::new(*self, k).finish()
    }

    /// One row, `PE(pos, ·)`, from the formula.
    pub fn row(&self, pos: usize) -> Vec<f64> {
        (0..self.dim).map(|col| self.value(pos, col)).collect()
    }

    /// The whole table, row-major `positions × dim`.
    pub fn table(&self) -> Vec<f64> {
        let mut out = Vec::new();
        self.table_into(&mut out);
        out
    }
}

/// [`SinusoidalParams::max_shift_error`] a slice of positions at a time, so a large table's
/// check can be spread over several browser tasks. Rows p and p + k of the (positions + k)-row
/// table come from two runs of the table's own recurrence (the same numbers as `table()`), not
/// from the whole table: that was a block of (positions + k)·dim values (100 KB and more)
/// allocated and dropped per input.
pub struct ShiftCheck {
    params: SinusoidalParams,
    blocks: Vec<[[f64; 2]; 2]>,
    columns: Vec<(Option<usize>, Option<usize>)>,
    /// The recurrence at position p, and at p + k.
    at: Phases,
    ahead: Phases,
    row: Vec<f64>,
    target: Vec<f64>,
    /// The next position to check.
    next: usize,
    worst: f64,
}

impl ShiftCheck {
    /// The check of `params` for offset `k`, at position 0.
    pub fn new(params: SinusoidalParams, k: usize) -> ShiftCheck {
        let (at, mut ahead) = (params.phases(), params.phases());
        for _ in 0..k {
            ahead.advance();
        }
        ShiftCheck {
            blocks: params.shift_matrix(k as f64),
            columns: params.pair_columns(),
            at,
            ahead,
            row: vec![0.0; params.dim],
            target: vec![0.0; params.dim],
            next: 0,
            worst: 0.0,
            params,
        }
    }

    /// Checks up to `rows` more positions: the largest error over the whole table once every
    /// position is checked, `None` while some remain.
    pub fn advance(&mut self, rows: usize) -> Option<f64> {
        let p = &self.params;
        let end = self.next.saturating_add(rows).min(p.positions);
        for pos in self.next..end {
            p.write_row(&self.at, &mut self.row);
            p.write_row(&self.ahead, &mut self.target);
            let moved = p.apply_blocks(&self.blocks, &self.columns, &self.row, pos);
            let err = moved
                .iter()
                .zip(&self.target)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max);
            self.worst = f64::max(self.worst, err);
            self.at.advance();
            self.ahead.advance();
        }
        self.next = end;
        (end == p.positions).then_some(self.worst)
    }

    /// Checks every position left: the largest error over the whole table.
    pub fn finish(mut self) -> f64 {
        self.advance(usize::MAX);
        self.worst
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(dim: usize, layout: Layout, spacing: Spacing) -> SinusoidalParams {
        SinusoidalParams {
            positions: 300,
            dim,
            base: 10_000.0,
            layout,
            spacing,
        }
    }

    #[test]
    fn fast_table_matches_the_formula() {
        for layout in [Layout::Interleaved, Layout::Half] {
            for spacing in [Spacing::Paper, Spacing::Fairseq] {
                for dim in [2, 3, 7, 8, 64] {
                    let p = params(dim, layout, spacing);
                    let t = p.table();
                    for pos in 0..p.positions {
                        for col in 0..dim {
                            let (a, b) = (t[pos * dim + col], p.value(pos, col));
                            assert!((a - b).abs() < 1e-12, "{p:?} ({pos},{col}): {a} vs {b}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn columns_follow_the_libraries_for_odd_d() {
        // DistilBERT, d = 5: sin, cos, sin, cos, sin.
        let p = params(5, Layout::Interleaved, Spacing::Paper);
        assert_eq!(p.column(4), Column::Sin(2));
        // Marian, d = 5: the sin block takes ⌈5/2⌉ = 3 columns.
        let p = params(5, Layout::Half, Spacing::Paper);
        assert_eq!(p.column(2), Column::Sin(2));
        assert_eq!(p.column(3), Column::Cos(0));
        // M2M100, d = 5: two pairs, then a zero column.
        let p = params(5, Layout::Half, Spacing::Fairseq);
        assert_eq!(p.column(1), Column::Sin(1));
        assert_eq!(p.column(3), Column::Cos(1));
        assert_eq!(p.column(4), Column::Zero);
        assert_eq!(p.value(9, 4), 0.0);
    }

    #[test]
    fn fairseq_slowest_pair_is_one_over_base_and_single_pair_is_finite() {
        let p = params(8, Layout::Half, Spacing::Fairseq);
        assert!((p.pair_omega(3) - 1e-4).abs() < 1e-18);
        let p = params(3, Layout::Half, Spacing::Fairseq);
        assert_eq!(p.pair_omega(0), 1.0);
        assert!(p.table().iter().all(|v| v.is_finite()));
    }

    #[test]
    fn shift_matrix_moves_every_row_by_k() {
        for layout in [Layout::Interleaved, Layout::Half] {
            for spacing in [Spacing::Paper, Spacing::Fairseq] {
                for dim in [2, 5, 16] {
                    let p = params(dim, layout, spacing);
                    for (pos, k) in [(0, 1), (7, 13), (50, -20), (100, 0)] {
                        let moved = p.apply_shift(&p.row(pos), pos, k as f64);
                        let target = p.row((pos as i64 + k) as usize);
                        for (a, b) in moved.iter().zip(&target) {
                            assert!((a - b).abs() < 1e-9, "{p:?} pos {pos} k {k}: {a} vs {b}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn shift_law_holds_over_the_whole_table() {
        let p = params(64, Layout::Interleaved, Spacing::Paper);
        let err = p.max_shift_error(37);
        assert!(err < 1e-10, "{err}");
    }

    #[test]
    fn shift_error_is_the_one_of_the_whole_table() {
        // The streamed rows are the table's rows: the same maximum, to the bit.
        for layout in [Layout::Interleaved, Layout::Half] {
            for spacing in [Spacing::Paper, Spacing::Fairseq] {
                for (dim, k) in [(0, 3), (1, 2), (5, 0), (16, 1), (64, 37), (65, 200)] {
                    let p = params(dim, layout, spacing);
                    let longer = SinusoidalParams {
                        positions: p.positions + k,
                        ..p
                    };
                    let table = longer.table();
                    let (blocks, columns) = (p.shift_matrix(k as f64), p.pair_columns());
                    let want = (0..p.positions)
                        .map(|r| {
                            let moved = p.apply_blocks(
                                &blocks,
                                &columns,
                                &table[r * dim..(r + 1) * dim],
                                r,
                            );
                            moved
                                .iter()
                                .zip(&table[(r + k) * dim..(r + k + 1) * dim])
                                .map(|(a, b)| (a - b).abs())
                                .fold(0.0, f64::max)
                        })
                        .fold(0.0, f64::max);
                    let got = p.max_shift_error(k);
                    assert_eq!(
                        got.to_bits(),
                        want.to_bits(),
                        "{p:?} k {k}: {got} vs {want}"
                    );
                    // In slices of 7 positions: the same maximum, to the bit.
                    let mut check = ShiftCheck::new(p, k);
                    let sliced = loop {
                        if let Some(worst) = check.advance(7) {
                            break worst;
                        }
                    };
                    assert_eq!(sliced.to_bits(), want.to_bits(), "{p:?} k {k} in slices");
                }
            }
        }
    }

    #[test]
    fn names_round_trip() {
        for l in [Layout::Interleaved, Layout::Half] {
            assert_eq!(Layout::parse(l.as_str()), Some(l));
        }
        for s in [Spacing::Paper, Spacing::Fairseq] {
            assert_eq!(Spacing::parse(s.as_str()), Some(s));
        }
        assert_eq!(Layout::parse("diagonal"), None);
    }

    #[test]
    fn row_norm_is_the_norm_of_the_row_and_constant_exactly_when_shift_invariant() {
        for layout in [Layout::Interleaved, Layout::Half] {
            for spacing in [Spacing::Paper, Spacing::Fairseq] {
                for dim in [2, 3, 5, 8, 9] {
                    let p = SinusoidalParams {
                        positions: 50,
                        dim,
                        base: 100.0,
                        layout,
                        spacing,
                    };
                    let norms: Vec<f64> = (0..50).map(|q| p.row_norm(q)).collect();
                    for (q, n) in norms.iter().enumerate() {
                        let direct = p.row(q).iter().map(|x| x * x).sum::<f64>().sqrt();
                        assert!((n - direct).abs() < 1e-12, "{p:?} pos {q}");
                    }
                    let spread = norms
                        .iter()
                        .fold(0.0_f64, |m, n| m.max((n - norms[0]).abs()));
                    assert_eq!(spread < 1e-12, p.is_shift_invariant(), "{p:?}");
                }
            }
        }
    }
}
