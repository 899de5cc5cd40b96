//! The lowering's yardstick on a loop kernel written in assembly (the shape of the
//! benchmark suite's kernels: `v0` = lane id, `s0` = iterations, MODE 0xF0, and for
//! `vintrp` the parameters in LDS and `s4`/`s5` the barycentric steps), interpreter
//! against JIT, one wave, one thread:
//!
//! `cargo run --release -p wavejit-jit --example kernel_loop -- <kernel.s> [iterations]`
//!
//! The benchmark suite proper (`wavejit bench`) measures more (native baselines, tiers,
//! grids); this one only needs the JIT crate, so it can be run on any commit of it.

use std::time::Instant;

use wavejit_interp::Ctx;
use wavejit_isa::arch::{Arch, Gen};
use wavejit_isa::ir::Program;
use wavejit_isa::state::{Lds, Memory, Wave};
use wavejit_jit::{Jit, JitConfig};

/// The parameters of the `vintrp` kernel: 4 attributes × 12 dwords (P0/P10 pairs of x, y,
/// z, w, then P20 of x, y, z, w) at M0 = 0.
const VINTRP_LDS: [u32; 48] = [
    0x3e800000, 0x3f000000, 0x3f000000, 0x3ec00000, 0x3f400000, 0x3e800000, 0x3f800000, 0x3e000000,
    0xbe800000, 0x3e000000, 0x3f000000, 0x3f600000, 0x3fa00000, 0x3ee00000, 0x3fc00000, 0x3ea00000,
    0x3fe00000, 0x3e400000, 0x40000000, 0x3d800000, 0xbe000000, 0x3e800000, 0x3f200000, 0x3f800000,
    0x40100000, 0x3ec00000, 0x40200000, 0x3e800000, 0x40300000, 0x3e000000, 0x40400000, 0x00000000,
    0x00000000, 0x3ec00000, 0x3f400000, 0x3f900000, 0x40500000, 0x3ea00000, 0x40600000, 0x3e400000,
    0x40700000, 0x3d800000, 0x40800000, 0xbd800000, 0x3e000000, 0x3f000000, 0x3f600000, 0x3fa00000,
];

fn state(gen: Gen, iters: u32) -> (Box<Wave>, Lds) {
    let mut w = Wave::new(gen);
    w.mode = 0xF0;
    for l in 0..64 {
        w.vgpr[0][l] = l as u32;
    }
    w.sgpr[0] = iters;
    w.sgpr[4] = 0x3b80_0000; // 1/256
    w.sgpr[5] = 0x3b00_0000; // 1/512
    let mut lds = Lds::new(4096);
    for (i, x) in VINTRP_LDS.iter().enumerate() {
        lds.bytes[4 * i..4 * i + 4].copy_from_slice(&x.to_le_bytes());
    }
    (w, lds)
}

/// Seconds this thread has run on a CPU (`/proc/thread-self/schedstat`, nanoseconds; the
/// host is shared, so wall time would count the waits for a core), else wall time.
fn cpu_seconds(wall: Instant) -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map_or_else(|| wall.elapsed().as_secs_f64(), |ns| ns as f64 * 1e-9)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: kernel_loop <kernel.s> [iterations]");
        std::process::exit(2);
    };
    let iters: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let gen = Gen::Gfx8;
    let text = std::fs::read_to_string(&path).expect("read the kernel");
    let asm = wavejit_isa::gcn::asm::assemble(gen, &text).expect("assemble");
    let prog = Program::new(Arch::Gcn(gen), &asm.bytes);
    let mem = Memory::new();

    let interp_iters = (iters / 50).max(1);
    let (w0, lds0) = state(gen, interp_iters);
    let (mut w, mut lds) = (w0.clone(), lds0.clone());
    let t0 = Instant::now();
    let c0 = cpu_seconds(t0);
    let n_interp = {
        let mut ctx = Ctx {
            wave: &mut w,
            lds: &mut lds,
            mem: &mem,
        };
        wavejit_interp::run(&mut ctx, &prog, u64::MAX)
            .expect("interp")
            .1
            .insts
    };
    let per_inst_interp = (cpu_seconds(t0) - c0) / n_interp as f64;
    println!(
        "{path}: interpreter {:.1} ns/instruction ({n_interp} instructions)",
        per_inst_interp * 1e9
    );
    let interp_state = w;

    // `KERNEL_LOOP_OPT=none`: Cranelift without its optimiser (for comparison).
    let mut cfg = JitConfig::default();
    if std::env::var("KERNEL_LOOP_OPT").is_ok_and(|v| v == "none") {
        cfg.backend.optimize = false;
    }
    let jit = Jit::new(cfg);
    // Same result as the interpreter on the short run.
    {
        let (mut w, mut lds) = (w0.clone(), lds0.clone());
        let mut ctx = Ctx {
            wave: &mut w,
            lds: &mut lds,
            mem: &mem,
        };
        jit.run(&mut ctx, &prog, u64::MAX).expect("jit");
        assert!(
            w.vgpr == interp_state.vgpr && w.sgpr == interp_state.sgpr,
            "JIT and interpreter differ"
        );
    }
    let (mut w, mut lds) = state(gen, iters);
    let t0 = Instant::now();
    let c0 = cpu_seconds(t0);
    let st = {
        let mut ctx = Ctx {
            wave: &mut w,
            lds: &mut lds,
            mem: &mem,
        };
        jit.run_with_stats(&mut ctx, &prog, u64::MAX)
            .expect("jit")
            .1
    };
    let per_inst_jit = (cpu_seconds(t0) - c0) / st.insts as f64;
    println!(
        "{path}: jit {:.2} ns/instruction ({} instructions, {} through the helper), {:.1}× the interpreter",
        per_inst_jit * 1e9,
        st.insts,
        st.helper_steps,
        per_inst_interp / per_inst_jit
    );
    println!("compile: {:?}", jit.stats());
}
