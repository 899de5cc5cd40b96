//! Runs per second of the cargo-fuzz targets' bodies on the stable toolchain: the same
//! calls `fuzz/fuzz_targets/decode_diff.rs` and `gen_diff.rs` make per input
//! (`wavejit_fuzzing::target`), on pseudo-random inputs of the sizes libFuzzer feeds them
//! (`-max_len=512`), without libFuzzer's coverage instrumentation and mutation (which cost
//! little next to compiling and running a program twice). Any difference between the
//! engines is a failure, as in the targets.
//!
//! `cargo run --release -p wavejit-fuzzing --example target_rate -- [SECONDS]`

use std::time::Instant;

use rand::{Rng, RngCore, SeedableRng};
use wavejit_fuzzing::target::{diff_code, diff_generated};
use wavejit_isa::{Arch, Gen};

fn arch(sel: u8) -> Arch {
    match sel & 3 {
        0 => Arch::Gcn(Gen::Gfx6),
        1 => Arch::Gcn(Gen::Gfx7),
        2 => Arch::Gcn(Gen::Gfx8),
        _ => Arch::Vp1,
    }
}

fn main() {
    let secs: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10.0);
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    for target in ["decode_diff", "gen_diff"] {
        let t0 = Instant::now();
        let mut runs = 0u64;
        while t0.elapsed().as_secs_f64() < secs {
            let len = rng.random_range(1..=512usize);
            let mut data = vec![0u8; len];
            rng.fill_bytes(&mut data);
            let sel = data[0];
            let d = if target == "decode_diff" {
                diff_code(arch(sel), &data[1..], (sel >> 2) as u64, 2_000)
            } else {
                let mut r = rand::rngs::StdRng::seed_from_u64(rng.next_u64());
                diff_generated(arch(sel), &mut r, 1 + (data.len() % 40))
            };
            assert!(d.is_empty(), "{target}: the engines differ: {:?}", d.listed);
            runs += 1;
        }
        let t = t0.elapsed().as_secs_f64();
        println!(
            "{target}: {runs} runs in {t:.1} s, {:.0} runs/s",
            runs as f64 / t
        );
    }
}
