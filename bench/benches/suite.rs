//! Criterion benchmarks over the kernel suite of `bench/kernels/`: each
//! kernel on the interpreter, the JIT (warm code cache), the tiered engine (fresh engine
//! per run: includes its warm-up) and, for valu/sdwa/f64, the native Rust baseline and its
//! 128-bit build.
//! Throughput is in wave-instructions. `wavejit bench` measures the same kernels with
//! ratios and targets; these are for tracking one engine over time
//! (`cargo bench --bench suite -- valu/jit`).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::time::Duration;
use wavejit::engine::{Interp, WaveEngine};
use wavejit_bench::engines::{self, Matmul};
use wavejit_bench::native;
use wavejit_bench::suite::{Shape, KERNELS};

fn suite(c: &mut Criterion) {
    for k in KERNELS.iter() {
        let prog = k.program().expect("kernel assembles");
        let mut g = c.benchmark_group(k.name);
        g.sample_size(10)
            .measurement_time(Duration::from_secs(2))
            .warm_up_time(Duration::from_millis(300));
        match k.shape {
            Shape::Wave => {
                // Runs of a few milliseconds: sizes scaled down from the quick suite.
                let fast = (k.size.1 / 20).max(2);
                let slow = (k.interp_size.1 / 10).max(2);
                let (slow_insts, _) = engines::wave_counts(k, &prog, slow).expect("counts");
                let (fast_insts, _) = engines::wave_counts(k, &prog, fast).expect("counts");
                g.throughput(Throughput::Elements(slow_insts));
                g.bench_function(BenchmarkId::new("interp", slow), |b| {
                    b.iter_batched(
                        || k.wave_state(slow).expect("state"),
                        |mut st| engines::run_wave(&Interp, &prog, &mut st).expect("runs"),
                        criterion::BatchSize::LargeInput,
                    )
                });
                g.throughput(Throughput::Elements(fast_insts));
                let jit = engines::eager_jit();
                g.bench_function(BenchmarkId::new("jit", fast), |b| {
                    b.iter_batched(
                        || k.wave_state(fast).expect("state"),
                        |mut st| engines::run_wave(&jit, &prog, &mut st).expect("runs"),
                        criterion::BatchSize::LargeInput,
                    )
                });
                g.bench_function(BenchmarkId::new("tiered", fast), |b| {
                    b.iter_batched(
                        || {
                            (
                                engines::tiered_jit(wavejit_jit::DEFAULT_TIER_THRESHOLD),
                                k.wave_state(fast).expect("state"),
                            )
                        },
                        |(j, mut st)| engines::run_wave(&j, &prog, &mut st).expect("runs"),
                        criterion::BatchSize::LargeInput,
                    )
                });
                if k.native {
                    let f: fn(u32) -> u64 = match k.name {
                        "valu" => |n| native::valu(n).vcc,
                        "sdwa" => |n| native::sdwa(n).vcc,
                        _ => |n| native::f64_chain(n).v[4][0] as u64,
                    };
                    g.bench_function(BenchmarkId::new("native", fast), |b| {
                        b.iter(|| std::hint::black_box(f(std::hint::black_box(fast))))
                    });
                    // The same baseline built for 128-bit vectors (Cranelift's width).
                    let f: fn(u32) -> u64 = match k.name {
                        "valu" => |n| native::valu_128(n).vcc,
                        "sdwa" => |n| native::sdwa_128(n).vcc,
                        _ => |n| native::f64_chain_128(n).v[4][0] as u64,
                    };
                    g.bench_function(BenchmarkId::new("native128", fast), |b| {
                        b.iter(|| std::hint::black_box(f(std::hint::black_box(fast))))
                    });
                }
            }
            Shape::Group => {
                let mm = Matmul::new(k.size.1).expect("setup");
                let (insts, _) = mm.counts(&prog).expect("counts");
                g.throughput(Throughput::Elements(insts));
                let jit = engines::eager_jit();
                for (name, exec) in [("interp", &Interp as &dyn WaveEngine), ("jit", &jit)] {
                    g.bench_function(BenchmarkId::new(name, k.size.1), |b| {
                        b.iter(|| mm.run(exec, &prog, 1).expect("runs"))
                    });
                }
                g.bench_function(BenchmarkId::new("tiered", k.size.1), |b| {
                    b.iter_batched(
                        || engines::tiered_jit(wavejit_jit::DEFAULT_TIER_THRESHOLD),
                        |j| mm.run(&j, &prog, 1).expect("runs"),
                        criterion::BatchSize::LargeInput,
                    )
                });
            }
        }
        g.finish();
    }
}

criterion_group!(benches, suite);
criterion_main!(benches);
