//! SOP1 semantics with hand-worked values: bit counting and scanning (the manuals'
//! examples), whole-quad and quad masks, EXEC save-and-modify, pc moves and M0-relative
//! moves.

mod exec_util;

use exec_util::*;
use wavejit_interp::exec::Step;
use wavejit_interp::ExecErrorKind;
use wavejit_isa::gcn::Op;
use wavejit_isa::Gen;

/// `op s2, s0` with s0 = a: (s2, SCC), SCC starting at `scc_in`.
fn one(op: Op, a: u32, scc_in: bool) -> (u32, u32) {
    let mut m = Machine::new(Gen::Gfx8);
    m.set_s(0, a);
    m.set_s(2, 0x5555_5555);
    m.set_scc(scc_in);
    m.ok(sop1(op, 2, s(0)));
    (m.s(2), m.scc())
}

/// `op s[4:5], s[0:1]` (or 32-bit `s4` result) with s[0:1] = a.
fn one64(op: Op, a: u64, scc_in: bool) -> (u64, u32) {
    let mut m = Machine::new(Gen::Gfx8);
    m.set_s64(0, a);
    m.set_s64(4, 0x5555_5555_5555_5555);
    m.set_scc(scc_in);
    m.ok(sop1(op, 4, s(0)));
    (m.s64(4), m.scc())
}

#[test]
fn moves() {
    assert_eq!(one(Op::SMovB32, 0x1234, false), (0x1234, 0));
    assert_eq!(one64(Op::SMovB64, 1 << 50, true), (1 << 50, 1));
    // cmov writes only when SCC is 1.
    assert_eq!(one(Op::SCmovB32, 7, true), (7, 1));
    assert_eq!(one(Op::SCmovB32, 7, false), (0x5555_5555, 0));
    assert_eq!(one64(Op::SCmovB64, 7, false), (0x5555_5555_5555_5555, 0));
    // s_mov_b64 with 1.0 is the f64 pattern; with a literal, zero-extended.
    let mut m = Machine::new(Gen::Gfx7);
    m.ok(sop1(Op::SMovB64, 0, wavejit_isa::gcn::Src(242)));
    assert_eq!(m.s64(0), 0x3ff0_0000_0000_0000);
    m.ok(sop1_lit(
        Op::SMovB64,
        0,
        wavejit_isa::gcn::Src::LITERAL,
        0xffff_ffff,
    ));
    assert_eq!(m.s64(0), 0x0000_0000_ffff_ffff);
    m.ok(sop1(Op::SMovB64, 0, int(-1)));
    assert_eq!(m.s64(0), u64::MAX);
}

#[test]
fn not_wqm_brev() {
    assert_eq!(one(Op::SNotB32, 0, false), (0xffff_ffff, 1));
    assert_eq!(one(Op::SNotB32, 0xffff_ffff, true), (0, 0));
    assert_eq!(
        one64(Op::SNotB64, 0xffff_ffff, false),
        (0xffff_ffff_0000_0000, 1)
    );
    // Nibble 0 has bit 0, nibble 5 has bit 20.
    assert_eq!(one(Op::SWqmB32, 0x0010_0001, false), (0x00f0_000f, 1));
    assert_eq!(one(Op::SWqmB32, 0, true), (0, 0));
    assert_eq!(
        one64(Op::SWqmB64, 1 << 63 | 1 << 33, false),
        (0xf000_000f_0000_0000, 1)
    );
    assert_eq!(one(Op::SBrevB32, 1, false), (0x8000_0000, 0));
    assert_eq!(one(Op::SBrevB32, 0x0000_00f1, true), (0x8f00_0000, 1));
    assert_eq!(one64(Op::SBrevB64, 1, false), (1 << 63, 0));
}

#[test]
fn bit_counts() {
    assert_eq!(one(Op::SBcnt0I32B32, 0xff, false), (24, 1));
    assert_eq!(one(Op::SBcnt0I32B32, 0xffff_ffff, true), (0, 0));
    assert_eq!(one(Op::SBcnt1I32B32, 0xf0f0_0001, false), (9, 1));
    assert_eq!(one(Op::SBcnt1I32B32, 0, true), (0, 0));
    // 64-bit counts write a 32-bit result.
    let mut m = Machine::new(Gen::Gfx8);
    m.set_s64(0, u64::MAX);
    m.set_s(3, 0x7777);
    m.ok(sop1(Op::SBcnt1I32B64, 2, s(0)));
    assert_eq!((m.s(2), m.s(3), m.scc()), (64, 0x7777, 1));
    m.set_s64(0, 1 << 40);
    m.ok(sop1(Op::SBcnt0I32B64, 2, s(0)));
    assert_eq!((m.s(2), m.scc()), (63, 1));
}

#[test]
fn find_first_and_leading_bits() {
    // ff0/ff1: -1 when there is no such bit. SCC is not touched.
    assert_eq!(one(Op::SFf0I32B32, 0xffff_ffff, true), (0xffff_ffff, 1));
    assert_eq!(one(Op::SFf0I32B32, 0x0000_ffff, false), (16, 0));
    assert_eq!(one(Op::SFf1I32B32, 0, false), (0xffff_ffff, 0));
    assert_eq!(one(Op::SFf1I32B32, 0xcccc_0000, false), (18, 0));
    let mut m = Machine::new(Gen::Gfx8);
    let mut r64 = |op, a: u64| {
        m.set_s64(0, a);
        m.ok(sop1(op, 2, s(0)));
        m.s(2)
    };
    assert_eq!(r64(Op::SFf1I32B64, 1 << 40), 40);
    assert_eq!(r64(Op::SFf1I32B64, 0), 0xffff_ffff);
    assert_eq!(r64(Op::SFf0I32B64, 0xffff_ffff), 32);
    assert_eq!(r64(Op::SFf0I32B64, u64::MAX), 0xffff_ffff);
    // flbit (manual examples): leading zeros, -1 for 0.
    assert_eq!(one(Op::SFlbitI32B32, 0, false).0, 0xffff_ffff);
    assert_eq!(one(Op::SFlbitI32B32, 0x0000_cccc, false).0, 16);
    assert_eq!(one(Op::SFlbitI32B32, 0xffff_3333, false).0, 0);
    assert_eq!(one(Op::SFlbitI32B32, 0x7fff_ffff, false).0, 1);
    assert_eq!(one(Op::SFlbitI32B32, 0x8000_0000, false).0, 0);
    // Signed: first bit that differs from the sign; -1 for 0 and -1.
    assert_eq!(one(Op::SFlbitI32, 0, false).0, 0xffff_ffff);
    assert_eq!(one(Op::SFlbitI32, 0x0000_cccc, false).0, 16);
    assert_eq!(one(Op::SFlbitI32, 0xffff_3333, false).0, 16);
    assert_eq!(one(Op::SFlbitI32, 0x7fff_ffff, false).0, 1);
    assert_eq!(one(Op::SFlbitI32, 0x8000_0000, false).0, 1);
    assert_eq!(one(Op::SFlbitI32, 0xffff_ffff, false).0, 0xffff_ffff);
    assert_eq!(r64(Op::SFlbitI32B64, 1), 63);
    assert_eq!(r64(Op::SFlbitI32B64, 0), 0xffff_ffff);
    assert_eq!(r64(Op::SFlbitI32I64, u64::MAX), 0xffff_ffff);
    assert_eq!(r64(Op::SFlbitI32I64, 0xffff_ffff_0000_0000), 32);
    assert_eq!(r64(Op::SFlbitI32I64, 0x0000_0000_8000_0000), 32);
}

#[test]
fn sign_extension_and_bitset() {
    assert_eq!(one(Op::SSextI32I8, 0x80, false), (0xffff_ff80, 0));
    assert_eq!(one(Op::SSextI32I8, 0x17f, false), (0x7f, 0));
    assert_eq!(one(Op::SSextI32I16, 0x7fff, true), (0x7fff, 1));
    assert_eq!(one(Op::SSextI32I16, 0x1_8000, true), (0xffff_8000, 1));
    let mut m = Machine::new(Gen::Gfx8);
    m.set_s(2, 0xffff_ffff);
    // S0 = 35: bit 35 & 31 = 3.
    m.set_s(0, 35);
    m.ok(sop1(Op::SBitset0B32, 2, s(0)));
    assert_eq!(m.s(2), 0xffff_fff7);
    m.ok(sop1(Op::SBitset1B32, 2, int(3)));
    assert_eq!(m.s(2), 0xffff_ffff);
    m.set_s64(4, 0);
    m.ok(sop1(Op::SBitset1B64, 4, int(63)));
    assert_eq!(m.s64(4), 1 << 63);
    m.set_s(0, 64 + 63);
    m.ok(sop1(Op::SBitset0B64, 4, s(0)));
    assert_eq!(m.s64(4), 0);
}

#[test]
fn saveexec_family() {
    let exec0 = 0xffff_0000_ffff_0000u64;
    let s0 = 0x0000_0000_ffff_ffffu64;
    for (op, want) in [
        (Op::SAndSaveexecB64, s0 & exec0),
        (Op::SOrSaveexecB64, s0 | exec0),
        (Op::SXorSaveexecB64, 0xffff_0000_0000_ffff),
        (Op::SAndn2SaveexecB64, 0x0000_0000_0000_ffff),
        (Op::SOrn2SaveexecB64, 0x0000_ffff_ffff_ffff),
        (Op::SNandSaveexecB64, 0xffff_ffff_0000_ffff),
        (Op::SNorSaveexecB64, 0x0000_ffff_0000_0000),
        (Op::SXnorSaveexecB64, 0x0000_ffff_ffff_0000),
    ] {
        let mut m = Machine::new(Gen::Gfx8);
        m.wave.exec = exec0;
        m.set_s64(2, s0);
        m.ok(sop1(op, 4, s(2)));
        assert_eq!(m.s64(4), exec0, "{op:?}: D = old EXEC");
        assert_eq!(m.wave.exec, want, "{op:?}");
        assert_eq!(m.scc(), (want != 0) as u32, "{op:?}");
    }
    // EXEC becoming 0 clears SCC; the saved copy may go to VCC.
    let mut m = Machine::new(Gen::Gfx8);
    m.wave.exec = 0xf0;
    m.set_s64(2, 0x0f);
    m.set_scc(true);
    m.ok(sop1(Op::SAndSaveexecB64, 106, s(2)));
    assert_eq!((m.wave.exec, m.wave.vcc, m.scc()), (0, 0xf0, 0));
    // S0 = EXEC itself: read before the write.
    m.wave.exec = 0x3;
    m.ok(sop1(Op::SXorSaveexecB64, 2, s(126)));
    assert_eq!((m.wave.exec, m.s64(2)), (0, 0x3));
}

#[test]
fn quadmask_and_abs() {
    // Nibble 0 = 0x1, nibble 1 = 0xf → bits 0 and 1.
    assert_eq!(one(Op::SQuadmaskB32, 0x0000_00f1, false), (0b11, 1));
    assert_eq!(one(Op::SQuadmaskB32, 0x8000_0000, false), (0x80, 1));
    assert_eq!(one(Op::SQuadmaskB32, 0, true), (0, 0));
    assert_eq!(
        one64(Op::SQuadmaskB64, 1 << 63 | 1 << 4, false),
        (0x8002, 1)
    );
    assert_eq!(one(Op::SAbsI32, (-5i32) as u32, false), (5, 1));
    assert_eq!(one(Op::SAbsI32, 0x8000_0000, false), (0x8000_0000, 1));
    assert_eq!(one(Op::SAbsI32, 0, true), (0, 0));
}

#[test]
fn pc_moves() {
    let mut m = Machine::new(Gen::Gfx8);
    m.wave.pc = 0x10;
    assert_eq!(m.ok(sop1(Op::SGetpcB64, 0, int(0))), Step::Continue);
    assert_eq!(m.s64(0), 0x14, "address of the next instruction");
    assert_eq!(m.wave.pc, 0x14);
    m.set_s64(2, 0x40);
    m.ok(sop1(Op::SSetpcB64, 0, s(2)));
    assert_eq!(m.wave.pc, 0x40);
    // swappc: D = pc + 4, pc = S0; S0 read before D is written (same pair here).
    m.set_s64(2, 0x8);
    m.ok(sop1(Op::SSwappcB64, 2, s(2)));
    assert_eq!((m.wave.pc, m.s64(2)), (0x8, 0x44));
    // A target beyond 32 bits is outside any code.
    m.set_s64(2, 1 << 40);
    assert!(matches!(
        m.exec(sop1(Op::SSetpcB64, 0, s(2))),
        Err(ExecErrorKind::BadOperand(_))
    ));
}

#[test]
fn relative_moves() {
    let mut m = Machine::new(Gen::Gfx8);
    for i in 0..104 {
        m.set_s(i, 1000 + i as u32);
    }
    m.wave.m0 = 2;
    m.ok(sop1(Op::SMovrelsB32, 0, s(10)));
    assert_eq!(m.s(0), 1012);
    m.ok(sop1(Op::SMovrelsB64, 0, s(20)));
    assert_eq!(m.s64(0), 1022 | 1023 << 32);
    m.wave.m0 = 3;
    m.set_s(1, 77);
    m.ok(sop1(Op::SMovreldB32, 5, s(1)));
    assert_eq!(m.s(8), 77);
    m.ok(sop1(Op::SMovreldB64, 40, int(-2)));
    assert_eq!(m.s64(43), (-2i64) as u64);
    // Out of the SGPR file: an error, not a write to VCC or beyond.
    m.wave.m0 = 100;
    let r = m.exec(sop1(Op::SMovreldB32, 5, s(1)));
    assert!(matches!(r, Err(ExecErrorKind::BadOperand(_))), "{r:?}");
    m.wave.m0 = u32::MAX;
    let r = m.exec(sop1(Op::SMovrelsB32, 0, s(10)));
    assert!(matches!(r, Err(ExecErrorKind::BadOperand(_))), "{r:?}");
    m.wave.m0 = 0;
    let r = m.exec(sop1(Op::SMovrelsB32, 0, int(3)));
    assert!(
        matches!(r, Err(ExecErrorKind::BadOperand(_))),
        "source must be an SGPR: {r:?}"
    );
}

#[test]
fn unmodelled_ops_are_unsupported() {
    let mut m = Machine::new(Gen::Gfx8);
    for op in [Op::SRfeB64, Op::SCbranchJoin, Op::SSetGprIdxIdx] {
        let e = m.exec(sop1(op, 0, s(0))).unwrap_err();
        assert_eq!(
            e,
            ExecErrorKind::Unsupported {
                mnemonic: op.mnemonic().into()
            }
        );
    }
}
