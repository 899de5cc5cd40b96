//! The engine finds a program's compiled code by its bytes (`Jit::prog_code`, with a
//! per-thread cache of the last program): programs of the same length run alternately on
//! one thread, on two engines, and again after a flush, each give their own results; a
//! handle (`Jit::bind`) runs its own program and is not used after a flush.

mod common;

use common::*;
use wavejit_interp::Ctx;
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::Op;
use wavejit_isa::ir::Program;
use wavejit_isa::state::{Lds, Wave};

/// `v0 = k` (an inline constant), then the end: programs of one length for every `k`.
fn set_v0(k: i32) -> Program {
    program(Gen::Gfx8, &[vop1(Op::VMovB32, 0, ic(k)), endpgm()])
}

/// Run `prog` on `jit` from a zeroed wave; its `v0` in lanes 0 and 63.
fn v0_after(jit: &wavejit_jit::Jit, prog: &Program) -> [u32; 2] {
    let none = MemInit::default();
    let run = jit_run_stats(jit, prog, &Wave::new(Gen::Gfx8), &Lds::new(0), &none);
    let (w, st) = run.expect("runs");
    assert_eq!(st.interpreted, 0, "compiled: {st:?}");
    [w.vgpr[0][0], w.vgpr[0][63]]
}

#[test]
fn alternating_programs_keep_their_own_code() {
    let (p1, p2, p3) = (set_v0(1), set_v0(2), set_v0(-3));
    assert_eq!(p1.code.len(), p2.code.len());
    let a = jit();
    let b = jit();
    for _ in 0..3 {
        assert_eq!(v0_after(&a, &p1), [1, 1]);
        assert_eq!(v0_after(&a, &p2), [2, 2]);
        assert_eq!(v0_after(&b, &p2), [2, 2]);
        assert_eq!(v0_after(&a, &p2), [2, 2]);
        assert_eq!(v0_after(&b, &p3), [(-3i32) as u32; 2]);
        assert_eq!(v0_after(&a, &p1), [1, 1]);
    }
    // A clone of a program is the same program to the cache.
    assert_eq!(v0_after(&a, &p1.clone()), [1, 1]);
}

#[test]
fn a_flush_drops_the_last_program_too() {
    let p1 = set_v0(7);
    let mut a = jit();
    assert_eq!(v0_after(&a, &p1), [7, 7]);
    let blocks = a.stats().blocks;
    assert!(blocks >= 1);
    a.flush();
    // The old epoch's table is gone: the code is compiled again (a stale entry would
    // call into the freed module instead).
    assert_eq!(v0_after(&a, &p1), [7, 7]);
    assert!(a.stats().blocks >= 1, "{:?}", a.stats());
    let p2 = set_v0(8);
    assert_eq!(v0_after(&a, &p2), [8, 8]);
    assert_eq!(v0_after(&a, &p1), [7, 7]);
}

/// `v0_after` through a handle made by `bind`.
fn v0_bound(jit: &wavejit_jit::Jit, h: &wavejit_jit::ProgHandle, prog: &Program) -> [u32; 2] {
    let mut w = Box::new(Wave::new(Gen::Gfx8));
    let mut lds = Lds::new(0);
    let mem = MemInit::default().build();
    let mut ctx = Ctx {
        wave: &mut w,
        lds: &mut lds,
        mem: &mem,
    };
    let st = jit.run_bound(h, &mut ctx, prog, 100).expect("runs").1;
    assert_eq!(st.interpreted, 0, "compiled: {st:?}");
    [w.vgpr[0][0], w.vgpr[0][63]]
}

#[test]
fn handles_run_their_program_and_survive_a_flush() {
    let p1 = set_v0(7);
    let longer = program(
        Gen::Gfx8,
        &[
            vop1(Op::VMovB32, 1, ic(6)),
            vop1(Op::VMovB32, 0, ic(5)),
            endpgm(),
        ],
    );
    let mut a = jit();
    let h1 = a.bind(&p1);
    for _ in 0..3 {
        assert_eq!(v0_bound(&a, &h1, &p1), [7, 7]);
    }
    let blocks = a.stats().blocks;
    assert_eq!(v0_after(&a, &p1), [7, 7]);
    assert_eq!(
        a.stats().blocks,
        blocks,
        "the handle's code is the looked-up code"
    );
    // A handle that does not fit the program (another length) is not used.
    assert_eq!(v0_bound(&a, &h1, &longer), [5, 5]);
    a.flush();
    // After a flush the old handle's code is gone: the program is looked up and
    // compiled again.
    assert_eq!(v0_bound(&a, &h1, &p1), [7, 7]);
    let h2 = a.bind(&p1);
    assert_eq!(v0_bound(&a, &h2, &p1), [7, 7]);
}
