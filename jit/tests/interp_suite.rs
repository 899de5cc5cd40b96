//! The interpreter's test list run on the JIT: one test list, two engines.
//!
//! Every test file of `interp/tests` that executes instructions is included here as a
//! module, unchanged. Their harnesses (`valu_common::Machine`, `exec_util::Machine`) and
//! `exec_run`'s programs call `crate::engine`, which in this binary is
//! `interp_engine/mod.rs`: each instruction runs in compiled code, its outcome and whole
//! final state are checked bit for bit against the interpreter's, and the test's own
//! hand-worked assertions then read the JIT's state. (In `interp/tests` the same files
//! name the interpreter as their `engine`; see `interp/tests/engine/mod.rs`.)
//!
//! `vp1_semantics.rs` runs its VP1 programs through the VP1 JIT the same way. Not included:
//! `valu_float_soft.rs` (the software float functions: no instructions to run).
//!
//! Module paths: a file loaded with `#[path]` resolves its own `mod x;` next to itself, so
//! each included file brings its harness (`interp/tests/valu_common/mod.rs`, ...) and the
//! interpreter's `engine` module (unused here) from `interp/tests`.

// Each included test file declares its own harness module (and the interpreter's engine),
// as it must to build on its own in interp/tests: the copies here are separate, identical
// modules, which is what this binary wants.
#![allow(clippy::duplicate_mod)]

#[path = "interp_engine/mod.rs"]
mod engine;

#[path = "../../interp/tests/exec_run.rs"]
mod exec_run;
#[path = "../../interp/tests/mem_ds.rs"]
mod mem_ds;
#[path = "../../interp/tests/mem_vmem.rs"]
mod mem_vmem;
#[path = "../../interp/tests/salu_sop1.rs"]
mod salu_sop1;
#[path = "../../interp/tests/salu_sop2.rs"]
mod salu_sop2;
#[path = "../../interp/tests/salu_sopk_sopc_sopp.rs"]
mod salu_sopk_sopc_sopp;
#[path = "../../interp/tests/valu_complete.rs"]
mod valu_complete;
#[path = "../../interp/tests/valu_corpus.rs"]
mod valu_corpus;
#[path = "../../interp/tests/valu_dpp.rs"]
mod valu_dpp;
#[path = "../../interp/tests/valu_float_host.rs"]
mod valu_float_host;
#[path = "../../interp/tests/valu_lanes.rs"]
mod valu_lanes;
#[path = "../../interp/tests/valu_sdwa.rs"]
mod valu_sdwa;
#[path = "../../interp/tests/valu_sem.rs"]
mod valu_sem;
#[path = "../../interp/tests/vintrp_layout.rs"]
mod vintrp_layout;
#[path = "../../interp/tests/vp1_semantics.rs"]
mod vp1_semantics;

/// The checks can fail: with `v_xor_b32` planted as an OR in this thread's JIT, running it
/// through the engine panics, naming the register, lane and both values.
#[test]
fn the_engine_sees_a_wrong_lowering() {
    use wavejit_interp::exec::{Ctx, Step};
    use wavejit_isa::gcn::{Enc, Fields, Inst, Op, Src};
    use wavejit_isa::state::{Lds, Memory, Wave};
    use wavejit_isa::Gen;
    engine::PLANT_XOR_BUG.with(|p| p.set(true));
    let inst = Inst {
        op: Op::VXorB32,
        enc: Enc::Vop2,
        fields: Fields::Vop2 {
            vdst: 2,
            src0: Src::vgpr(0),
            vsrc1: 1,
        },
        literal: None,
    };
    let mut wave = Wave::new(Gen::Gfx8);
    for l in 0..64 {
        wave.vgpr[0][l] = 0b1100;
        wave.vgpr[1][l] = 0b1010;
    }
    let mut lds = Lds::new(256);
    let mem = Memory::new();
    let reference =
        |ctx: &mut Ctx<'_>, i: &Inst| wavejit_interp::valu::exec(ctx, i).map(|()| Step::Continue);
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        engine::exec_one(&mut wave, &mut lds, &mem, &inst, false, true, &reference)
    }));
    let msg = match r {
        Ok(_) => panic!("a planted wrong lowering went unnoticed"),
        Err(e) => e.downcast_ref::<String>().cloned().unwrap_or_default(),
    };
    // 0b1100 ^ 0b1010 = 0b0110; the planted OR gives 0b1110.
    assert!(msg.contains("v2 lane 0: interpreter 0x6, JIT 0xe"), "{msg}");
}
