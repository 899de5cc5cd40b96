//! Memory safety: compiled code reaches memory only through the checked accessors (the
//! interpreter helper), so kernels that index far out of bounds — global memory through
//! FLAT, LDS through DS — get the same `OutOfBounds` error as in the interpreter, with
//! the same pc and lane, and the host is untouched. In-bounds accesses in the same blocks
//! give the same results.

mod common;

use common::*;
use wavejit_interp::ExecErrorKind;
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::{Inst, Op, Src};
use wavejit_isa::state::{Lds, Space, Wave};

fn ds(op: Op, vdst: u8, addr: u8, data0: u8) -> Inst {
    wavejit_isa::gcn::build::ds(op, vdst, addr, [data0, 0], [0, 0])
}

/// v[0:1] = base + 4 × lane (+ `far` for lane 37), load, add, store back.
fn flat_kernel(far: u64) -> (Vec<Inst>, Box<Wave>) {
    let gen = Gen::Gfx8;
    let mut w = Wave::new(gen);
    for l in 0..64 {
        let a = 0x10000u64 + 4 * l as u64 + if l == 37 { far } else { 0 };
        w.vgpr[0][l] = a as u32;
        w.vgpr[1][l] = (a >> 32) as u32;
        w.vgpr[3][l] = l as u32 * 3;
    }
    let insts = vec![
        vop2(Op::VAddU32, 3, ic(1), 3),
        flat(Op::FlatLoadDword, 2, 0, 0),
        vop2(Op::VAddU32, 2, v(3), 2),
        flat(Op::FlatStoreDword, 0, 0, 2),
        vop2(Op::VMulU32U24, 4, v(2), 2),
        endpgm(),
    ];
    (insts, w)
}

fn global() -> MemInit {
    let bytes: Vec<u8> = (0..256u32).flat_map(|i| (i * 7).to_le_bytes()).collect();
    MemInit {
        regions: vec![(0x10000, bytes)],
    }
}

#[test]
fn global_accesses_in_bounds_match() {
    let jit = jit();
    let (insts, w) = flat_kernel(0);
    let prog = program(Gen::Gfx8, &insts);
    let out = check_with(
        &jit,
        &prog,
        &w,
        &Lds::new(64),
        &global(),
        1000,
        "flat in bounds",
    );
    // Lane 5 loaded 5 × 7 = 35 and added 5 × 3 + 1 = 16 (worked out from the setup).
    assert_eq!(out.wave.vgpr[2][5], 51);
    assert!(out.result.is_ok());
}

#[test]
fn far_out_of_bounds_global_access_is_an_error_not_a_crash() {
    let jit = jit();
    for far in [
        1u64 << 40,
        0xffff_ffff_0000,
        4096 * 1024,
        u64::MAX - 0x10000 - 37 * 4,
    ] {
        let (insts, w) = flat_kernel(far);
        let prog = program(Gen::Gfx8, &insts);
        let out = check_with(&jit, &prog, &w, &Lds::new(64), &global(), 1000, "flat far");
        let e = out.result.expect_err("the load must fault");
        assert_eq!(e.pc, 4, "the flat_load after the 4-byte v_add");
        match e.kind {
            ExecErrorKind::OutOfBounds {
                space: Space::Global,
                lane: Some(37),
                ..
            } => {}
            k => panic!("unexpected error {k:?}"),
        }
    }
}

#[test]
fn lds_out_of_bounds_is_an_error() {
    let jit = jit();
    let gen = Gen::Gfx8;
    let mut w = Wave::new(gen);
    for l in 0..64 {
        w.vgpr[0][l] = if l == 63 { 0x7fff_fff0 } else { 4 * l as u32 };
        w.vgpr[1][l] = l as u32;
    }
    let insts = vec![
        vop2(Op::VAddU32, 1, ic(9), 1),
        ds(Op::DsWriteB32, 0, 0, 1),
        ds(Op::DsReadB32, 2, 0, 0),
        vop1(Op::VNotB32, 3, v(2)),
        endpgm(),
    ];
    let prog = program(gen, &insts);
    let (lds, none) = (Lds::new(1024), MemInit::default());
    let out = check_with(&jit, &prog, &w, &lds, &none, 100, "lds far");
    let e = out.result.expect_err("lane 63 writes far past the LDS");
    assert!(
        matches!(
            e.kind,
            ExecErrorKind::OutOfBounds {
                space: Space::Lds,
                ..
            }
        ),
        "{e:?}"
    );
    // In bounds: the same program with lane 63 at 252.
    w.vgpr[0][63] = 252;
    let out = check_with(&jit, &prog, &w, &lds, &none, 100, "lds in bounds");
    assert_eq!(out.wave.vgpr[3][10], !(10 + 9));
    let _ = Src::ZERO;
}
