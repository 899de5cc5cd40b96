//! A quick measurement of the JIT on a VALU loop (the shape of the benchmark's valu kernel: a block of
//! f32 and integer operations in a scalar-counted loop) against the interpreter:
//! `cargo run --release -p wavejit-jit --example valu_loop [iterations]`.
//! The benchmark suite proper lives in `bench/` (`wavejit-bench`); this is the lowering's own yardstick.

use std::time::Instant;

use wavejit_interp::Ctx;
use wavejit_isa::arch::{Arch, Gen};
use wavejit_isa::gcn::build::{sop1, sop2, sopc, sopp, vop1, vop2, vop3, with_literal};
use wavejit_isa::gcn::{Inst, Op, Src};
use wavejit_isa::ir::Program;
use wavejit_isa::state::{Lds, Memory, Wave};
use wavejit_jit::{Jit, JitConfig};

fn v(n: u8) -> Src {
    Src::vgpr(n)
}

/// 32 VALU instructions: f32 add/mul/fma/mad/min/max/med3-ish, integer bfe/bfi/alignbit/
/// xor/shifts/cvt, then the loop counter.
fn kernel(iters: u32) -> Vec<Inst> {
    use Op::*;
    // s0 = iters (literal move).
    let mut k = vec![with_literal(sop1(SMovB32, 0, Src::LITERAL), iters)];
    let body = vec![
        vop2(VAddF32, 1, v(1), 2),
        vop2(VMulF32, 3, v(1), 4),
        vop3(VFmaF32, 5, [v(3), v(4), v(5)]),
        vop3(VMadF32, 6, [v(5), v(1), v(6)]),
        vop2(VMinF32, 7, v(6), 5),
        vop2(VMaxF32, 8, v(7), 3),
        vop2(VSubF32, 9, v(8), 7),
        vop2(VMacF32, 10, v(9), 1),
        vop2(VXorB32, 11, v(11), 1),
        vop3(VBfeU32, 12, [v(11), Src(128 + 3), Src(128 + 9)]),
        vop3(VBfiB32, 13, [v(12), v(11), v(13)]),
        vop3(VAlignbitB32, 14, [v(13), v(12), Src(128 + 7)]),
        vop2(VLshlrevB32, 15, Src(128 + 3), 14),
        vop2(VLshrrevB32, 16, Src(128 + 5), 15),
        vop2(VAddU32, 17, v(16), 17),
        vop1(VCvtF32U32, 18, v(17)),
        vop2(VAddF32, 19, v(18), 10),
        vop2(VMulF32, 20, v(19), 2),
        vop3(VFmaF32, 21, [v(20), v(4), v(9)]),
        vop2(VMinF32, 22, v(21), 19),
        vop2(VMaxF32, 23, v(22), 20),
        vop3(VMed3I32, 24, [v(17), v(16), v(15)]),
        vop2(VAndB32, 25, v(24), 11),
        vop2(VOrB32, 26, v(25), 13),
        vop2(VXorB32, 27, v(26), 27),
        vop2(VMulU32U24, 28, v(27), 12),
        vop3(VMadU32U24, 29, [v(28), v(12), v(29)]),
        vop2(VSubF32, 2, v(23), 2),
        vop2(VMulF32, 4, v(4), 22),
        vop2(VAshrrevI32, 30, Src(128 + 2), 29),
        vop2(VMaxI32, 31, v(30), 28),
        vop2(VMinU32, 11, v(31), 11),
    ];
    assert_eq!(body.len(), 32);
    k.extend(body);
    k.push(sop2(SSubU32, 0, Src(0), Src(129)));
    k.push(sopc(SCmpLgU32, Src(0), Src(128)));
    // Branch back over the 34 loop dwords and itself: -(32 + 2 + 1).
    k.push(sopp(SCbranchScc1, (-35i16) as u16));
    k.push(sopp(SEndpgm, 0));
    k
}

/// The loop of `iters` iterations, encoded for `gen`.
fn program(gen: Gen, iters: u32) -> Program {
    let mut bytes = Vec::new();
    for i in kernel(iters) {
        for w in wavejit_isa::gcn::encode(gen, &i).expect("encode") {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
    }
    Program::new(Arch::Gcn(gen), &bytes)
}

/// Wall seconds of `run` from a copy of `w0` (no LDS).
fn seconds(w0: &Wave, mem: &Memory, run: impl FnOnce(&mut Ctx<'_>)) -> f64 {
    let mut w = Box::new(w0.clone());
    let mut lds = Lds::new(0);
    let mut ctx = Ctx {
        wave: &mut w,
        lds: &mut lds,
        mem,
    };
    let t = Instant::now();
    run(&mut ctx);
    t.elapsed().as_secs_f64()
}

fn main() {
    let iters: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);
    let gen = Gen::Gfx8;
    let prog = program(gen, iters);
    let mut w0 = Wave::new(gen);
    for r in 0..32 {
        for l in 0..64 {
            w0.vgpr[r][l] = if r < 11 {
                (1.0f32 + (r * 64 + l) as f32 * 0.001).to_bits()
            } else {
                (r * 131 + l * 7) as u32
            };
        }
    }
    let mem = Memory::new();
    let insts = iters as u64 * 35 + 2;

    let interp_iters = (iters / 20).max(1);
    let small = program(gen, interp_iters);
    let ti = seconds(&w0, &mem, |ctx| {
        wavejit_interp::run(ctx, &small, u64::MAX).expect("interp");
    }) * iters as f64
        / interp_iters as f64;
    for (name, cfg) in [
        ("jit", JitConfig::default()),
        (
            "jit op-major",
            JitConfig {
                chunk_major: false,
                ..JitConfig::default()
            },
        ),
        (
            "tiered",
            JitConfig {
                tier_threshold: wavejit_jit::DEFAULT_TIER_THRESHOLD,
                ..JitConfig::default()
            },
        ),
    ] {
        let jit = Jit::new(cfg);
        let tj = seconds(&w0, &mem, |ctx| {
            jit.run(ctx, &prog, u64::MAX).expect("jit");
        });
        let st = jit.stats();
        println!(
            "{name:14} {:8.3} ms  {:7.1} M wave-inst/s  {:6.1}x interp  (compile {:.2} ms for {} insts, {} CLIF: {:.1} us/inst, {} code bytes)",
            tj * 1e3,
            insts as f64 / tj / 1e6,
            ti / tj,
            st.nanos as f64 / 1e6,
            st.insts,
            st.clif_insts,
            st.nanos as f64 / 1e3 / st.insts.max(1) as f64,
            st.code_bytes
        );
    }
    println!("interp         {:8.3} ms  {:7.1} M wave-inst/s (extrapolated from {interp_iters} iterations)", ti * 1e3, insts as f64 / ti / 1e6);
}
