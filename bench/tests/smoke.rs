//! Every benchmark kernel (bench/kernels/) runs on the interpreter, the JIT and the
//! tiered engine and gives the result of its independent Rust computation (the native
//! baselines for valu/sdwa/f64, `bench::reference` for the others). Correctness only: no
//! timings are asserted anywhere.

use wavejit::engine::{Interp, Jit, WaveEngine};
use wavejit_bench::engines::{self, Matmul};
use wavejit_bench::suite::{self, Shape, KERNELS};
use wavejit_bench::{native, reference};

/// Small runs: enough iterations for the tiered engine (its default threshold) to compile
/// the loop (divergent: two outer iterations enter the inner loop 17-80 times each).
fn small(name: &str) -> u32 {
    match name {
        "divergent" => 2,
        "lds_matmul" => 32,
        _ => wavejit_jit::DEFAULT_TIER_THRESHOLD + 8,
    }
}

fn engines() -> Vec<(&'static str, Option<Jit>)> {
    vec![
        ("interp", None),
        ("jit", Some(engines::eager_jit())),
        (
            "tiered",
            Some(engines::tiered_jit(wavejit_jit::DEFAULT_TIER_THRESHOLD)),
        ),
    ]
}

fn exec(j: &Option<Jit>) -> &dyn WaveEngine {
    match j {
        None => &Interp,
        Some(j) => j,
    }
}

#[test]
fn every_wave_kernel_matches_its_reference_on_every_engine() {
    let mut failures = Vec::new();
    for k in KERNELS.iter().filter(|k| k.shape == Shape::Wave) {
        let prog = k.program().unwrap_or_else(|e| panic!("{}: {e}", k.name));
        for size in [1, small(k.name)] {
            for (name, j) in engines() {
                let mut st = k.wave_state(size).expect("state file");
                match engines::run_wave(exec(&j), &prog, &mut st) {
                    Ok(_) => {
                        if let Err(e) = engines::check_wave(k, size, &st) {
                            failures.push(format!("{} x{size} on {name}: {e}", k.name));
                        }
                    }
                    Err(e) => failures.push(format!("{} x{size} on {name}: {e}", k.name)),
                }
                // The tiered engine really ran compiled code on the small size, so its
                // result checks the JIT too.
                if let (Some(j), "tiered", false) = (&j, name, size == 1) {
                    let blocks = j.compile_stats().blocks;
                    let required = std::env::var_os("WAVEJIT_REQUIRE_ORACLES").is_some();
                    if let (Some(e), true) = (j.inner().broken(), required) {
                        failures.push(format!(
                            "no JIT back end ({e}) under WAVEJIT_REQUIRE_ORACLES"
                        ));
                    }
                    if j.inner().broken().is_none() && blocks == 0 {
                        failures.push(format!(
                            "{} x{size} on tiered: {blocks} blocks compiled",
                            k.name
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn engines_count_the_same_instructions() {
    let jit = engines::eager_jit();
    for k in KERNELS.iter().filter(|k| k.shape == Shape::Wave) {
        let prog = k.program().expect("assembles");
        let mut a = k.wave_state(5).expect("state");
        let mut b = k.wave_state(5).expect("state");
        let ni = engines::run_wave(&Interp, &prog, &mut a).expect("interp");
        let nj = engines::run_wave(&jit, &prog, &mut b).expect("jit");
        assert_eq!(ni, nj, "{}: instructions counted by interp and jit", k.name);
        // The two-point count of the benchmark extrapolates exactly.
        let (c, _) = engines::wave_counts(k, &prog, 5).expect("counts");
        assert_eq!(c, ni, "{}: extrapolated instruction count", k.name);
    }
}

#[test]
fn lds_matmul_matches_the_integer_product_on_every_engine() {
    let k = suite::kernel("lds_matmul").expect("kernel");
    let prog = k.program().expect("assembles");
    for (name, j) in engines() {
        for threads in [1, 2] {
            let mm = Matmul::new(small(k.name)).expect("setup");
            mm.run(exec(&j), &prog, threads)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            mm.check()
                .unwrap_or_else(|e| panic!("{name} on {threads} threads: {e}"));
        }
    }
}

#[test]
fn lane_operations_count_active_lanes() {
    // valu: the prologue has 7 VALU instructions and each iteration 32, all 64 lanes.
    let k = suite::kernel("valu").expect("kernel");
    let prog = k.program().expect("assembles");
    let (insts, lanes) = engines::wave_counts(k, &prog, 10).expect("counts");
    assert_eq!(lanes, 64 * (7 + 32 * 10));
    // 2 s_mov + 7 VALU, then 32 VALU + 3 scalar per iteration, then s_endpgm.
    assert_eq!(insts, 9 + 35 * 10 + 1);
    // divergent: inner VALU work only on the lanes still in their loop.
    let k = suite::kernel("divergent").expect("kernel");
    let prog = k.program().expect("assembles");
    let (_, lanes) = engines::wave_counts(k, &prog, 1).expect("counts");
    let trips: Vec<u64> = (0..64u64).map(|l| 16 + ((l * 37) & 63)).collect();
    let max = *trips.iter().max().expect("lanes");
    // Prologue: 5 VALU, then v_mov k = 0, all lanes. Inner pass p = 1, 2, ...: v_cmp
    // under the EXEC left by pass p-1 (lanes with trip >= p-1), then 6 VALU under the
    // lanes with trip >= p; pass max+1 only compares (EXEC becomes empty).
    let mut want = 64 * 6;
    for pass in 1..=max + 1 {
        let before = trips.iter().filter(|&&t| t + 1 >= pass).count() as u64; // lanes entering
        let after = trips.iter().filter(|&&t| t >= pass).count() as u64;
        want += before; // v_cmp under the EXEC of the previous pass
        if pass <= max {
            want += 6 * after;
        }
    }
    assert_eq!(lanes, want);
}

#[test]
fn native_baselines_start_from_the_kernels_prologues() {
    // valu: x = 2 - lane/16, y = 1 - x/2, a = lane * 0x9e3779b9.
    let v = native::valu(0).v;
    assert_eq!(f32::from_bits(v[1][16]), 1.0);
    assert_eq!(f32::from_bits(v[2][16]), 0.5);
    assert_eq!(v[3][2], 2u32.wrapping_mul(0x9e37_79b9));
    // f64: x = (lane - 32) / 64, k1 = lane / 128 + 0.5.
    let v = native::f64_chain(0).v;
    let d = |lo: u32, hi: u32| f64::from_bits(lo as u64 | (hi as u64) << 32);
    assert_eq!(d(v[2][48], v[3][48]), 0.25);
    assert_eq!(d(v[12][64 - 1], v[13][63]), 63.0 / 128.0 + 0.5);
    // One f64 iteration of chain a from 0: eight times a = a x + k1.
    let v = native::f64_chain(1).v;
    let (x, k1) = (0.25f64, 48.0 / 128.0 + 0.5);
    let mut a = 0f64;
    for _ in 0..8 {
        a = a * x + k1; // exact here: x is a power of two and the sums stay short
    }
    assert_eq!(d(v[4][48], v[5][48]), a);
    // sdwa: p = lane * 0x9e3779b9 unpacked into bytes.
    let n = native::sdwa(1);
    let p = 7u32.wrapping_mul(0x9e37_79b9);
    assert_eq!(n.v[10][7], p & 0xff);
    assert_eq!(n.v[13][7], p >> 24);
}

#[test]
fn the_dpp_reference_is_a_prefix_sum() {
    let w = reference::dpp(3);
    let vals = w[1].1;
    let mut s = 0u32;
    for (l, v) in vals.iter().enumerate() {
        s = s.wrapping_add(*v);
        assert_eq!(w[2].1[l], s);
    }
}

#[test]
fn a_wrong_register_is_caught() {
    // The checks compare something: flip one bit of one lane after a correct run.
    for k in KERNELS.iter().filter(|k| k.shape == Shape::Wave) {
        let prog = k.program().expect("assembles");
        let mut st = k.wave_state(3).expect("state");
        engines::run_wave(&Interp, &prog, &mut st).expect("runs");
        engines::check_wave(k, 3, &st).expect("correct before the flip");
        st.wave.vgpr[2][37] ^= 1 << 9;
        let r = engines::check_wave(k, 3, &st);
        assert!(
            r.as_ref().is_err_and(|e| e.starts_with("v2 lane 37:")),
            "{}: a flipped bit of v2 lane 37: {r:?}",
            k.name
        );
    }
}
