//! Criterion benchmarks of the math kernels at the largest sizes the app accepts (1024 positions ×
//! 1024 dims), plus the colour-mapping step that turns a table into pixels. `make bench`.
//! Native only: on wasm32 (which `cargo clippy --all-targets` also builds) it is an empty program.

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use criterion::{Criterion, criterion_group};
    use std::hint::black_box;
    use std::time::Duration;

    use pe_explorer::chart::colormap::{Diverging, Lut};
    use pe_explorer::math::sinusoidal::{Layout, SinusoidalParams, Spacing};
    use pe_explorer::math::{alibi, learned, nope, relative, rope, similarity};

    const N: usize = 1024;
    const D: usize = 1024;

    fn params() -> SinusoidalParams {
        SinusoidalParams {
            positions: N,
            dim: D,
            base: 10_000.0,
            layout: Layout::Interleaved,
            spacing: Spacing::Paper,
        }
    }

    fn kernels(c: &mut Criterion) {
        let p = params();
        let mut table = Vec::new();
        c.bench_function("sinusoidal table_into 1024x1024", |b| {
            b.iter(|| black_box(&p).table_into(&mut table))
        });
        c.bench_function("sinusoidal naive powf+sin per cell 1024x1024", |b| {
            b.iter(|| {
                let p = black_box(&p);
                (0..N)
                    .flat_map(|pos| (0..D).map(move |col| p.value(pos, col)))
                    .sum::<f64>()
            })
        });
        p.table_into(&mut table);
        let lut = Lut::diverging(Diverging::Light);
        let mut rgba = Vec::new();
        c.bench_function("colour map 1024x1024 to RGBA", |b| {
            b.iter(|| lut.paint_into(black_box(&table), -1.0, 1.0, &mut rgba))
        });
        let mut sim = Vec::new();
        c.bench_function("similarity fast path 1024x1024", |b| {
            b.iter(|| similarity::sinusoidal_matrix_into(black_box(&p), &mut sim))
        });
        let theta = rope::inv_freq(D, 10_000.0);
        let x: Vec<f64> = (0..D).map(|i| (i as f64).sin()).collect();
        let mut rotated = Vec::new();
        c.bench_function("rope rotate sweep 1024 positions x 1024 dims", |b| {
            b.iter(|| rope::rotate_sweep_into(black_box(&x), N, &theta, Layout::Half, &mut rotated))
        });
        c.bench_function(
            "rope rotate per position (sin/cos per pair) 1024x1024",
            |b| {
                b.iter(|| {
                    (0..N)
                        .map(|m| rope::rotate(black_box(&x), m as f64, &theta, Layout::Half)[0])
                        .sum::<f64>()
                })
            },
        );
        let mut bias = Vec::new();
        c.bench_function("alibi bias 16 heads x 1024x1024 (causal)", |b| {
            b.iter(|| {
                alibi::slopes(16)
                    .iter()
                    .map(|&m| {
                        alibi::bias_into(m, N, true, &mut bias);
                        bias[N]
                    })
                    .sum::<f64>()
            })
        });
        c.bench_function("rope decay d=1024, R=1024", |b| {
            b.iter(|| rope::decay(black_box(D), 10_000.0, N))
        });
        let mut weights = Vec::new();
        c.bench_function("alibi attention rows 16 heads x 1024 keys", |b| {
            b.iter(|| {
                alibi::slopes(16)
                    .iter()
                    .map(|&m| {
                        alibi::attention_row_into(m, black_box(N / 2), N, false, &mut weights);
                        weights[0]
                    })
                    .sum::<f64>()
            })
        });
        let mut buckets = Vec::new();
        c.bench_function("t5 buckets 1024x1024 (32 buckets, max distance 128)", |b| {
            b.iter(|| relative::t5_buckets_into(black_box(N), true, 32, 128, &mut buckets))
        });
        let mut sim = Vec::new();
        c.bench_function("learned cosine similarity 256 rows x 1024 dims", |b| {
            b.iter(|| learned::cosine_similarity_into(black_box(7), 1.0, 256, D, &mut sim))
        });
        let mut variance = Vec::new();
        c.bench_function("nope output variance 4096 positions x 1024 dims", |b| {
            b.iter(|| nope::output_variance_into(black_box(3), 4096, D, &mut variance))
        });
    }

    criterion_group! {
        name = benches;
        config = Criterion::default()
            .sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2));
        targets = kernels
    }
}

#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_main!(native::benches);

#[cfg(target_arch = "wasm32")]
fn main() {}
