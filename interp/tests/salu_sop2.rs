//! SOP2 semantics with hand-worked values (AMD SI/CI/GCN3 manuals' pseudo-code): carries
//! and overflow into SCC, SCC = (D != 0) rules, masked shift amounts, bit fields at their
//! edges, 64-bit pairs, inline constants and literals.

mod exec_util;

use exec_util::*;
use wavejit_interp::ExecErrorKind;
use wavejit_isa::gcn::{Op, Src};
use wavejit_isa::Gen;

/// Run `op s2, s0, s1` with s0 = a, s1 = b (32-bit) and the given SCC; return (s2, SCC).
fn run32(op: Op, a: u32, b: u32, scc_in: bool) -> (u32, u32) {
    let mut m = Machine::new(Gen::Gfx8);
    m.set_s(0, a);
    m.set_s(1, b);
    m.set_s(2, 0xdead_beef);
    m.set_scc(scc_in);
    m.ok(sop2(op, 2, s(0), s(1)));
    (m.s(2), m.scc())
}

/// Run `op s[4:5], s[0:1], s[2:3]` (or `s2` as a 32-bit second source) on 64-bit values.
fn run64(op: Op, a: u64, b: u64, scc_in: bool) -> (u64, u32) {
    let mut m = Machine::new(Gen::Gfx8);
    m.set_s64(0, a);
    m.set_s64(2, b);
    m.set_scc(scc_in);
    m.ok(sop2(op, 4, s(0), s(2)));
    (m.s64(4), m.scc())
}

#[test]
fn add_sub_carry_and_overflow() {
    // Unsigned carry out: 0xffffffff + 2 = 0x1_00000001.
    assert_eq!(run32(Op::SAddU32, 0xffff_ffff, 2, false), (1, 1));
    assert_eq!(run32(Op::SAddU32, 1, 2, true), (3, 0));
    // Borrow: 1 - 2 wraps to 0xffffffff and borrows.
    assert_eq!(run32(Op::SSubU32, 1, 2, false), (0xffff_ffff, 1));
    assert_eq!(run32(Op::SSubU32, 5, 3, true), (2, 0));
    assert_eq!(run32(Op::SSubU32, 7, 7, true), (0, 0));
    // Signed overflow: INT_MAX + 1; -1 + 1 is no overflow although it carries.
    assert_eq!(run32(Op::SAddI32, 0x7fff_ffff, 1, false), (0x8000_0000, 1));
    assert_eq!(run32(Op::SAddI32, 0xffff_ffff, 1, true), (0, 0));
    assert_eq!(run32(Op::SAddI32, 0x8000_0000, 0x8000_0000, false), (0, 1));
    // INT_MIN - 1 overflows; 0 - INT_MIN overflows too (the result would be +2^31).
    assert_eq!(run32(Op::SSubI32, 0x8000_0000, 1, false), (0x7fff_ffff, 1));
    assert_eq!(run32(Op::SSubI32, 0, 0x8000_0000, false), (0x8000_0000, 1));
    assert_eq!(
        run32(Op::SSubI32, 0xffff_fffe, 0xffff_ffff, true),
        (0xffff_ffff, 0)
    );
}

#[test]
fn addc_subb_use_and_set_scc() {
    // 0xffffffff + 0 + 1 = 0x1_00000000: carry.
    assert_eq!(run32(Op::SAddcU32, 0xffff_ffff, 0, true), (0, 1));
    // 0xfffffffe + 0 + 1 = 0xffffffff: no carry.
    assert_eq!(run32(Op::SAddcU32, 0xffff_fffe, 0, true), (0xffff_ffff, 0));
    // 0xffffffff + 0xffffffff + 1 = 0x1_ffffffff.
    assert_eq!(
        run32(Op::SAddcU32, 0xffff_ffff, 0xffff_ffff, true),
        (0xffff_ffff, 1)
    );
    assert_eq!(run32(Op::SAddcU32, 2, 3, false), (5, 0));
    // 0 - 0 - 1 borrows; 5 - 3 - 1 = 1; 3 - 3 - 1 borrows; 3 - 3 - 0 does not.
    assert_eq!(run32(Op::SSubbU32, 0, 0, true), (0xffff_ffff, 1));
    assert_eq!(run32(Op::SSubbU32, 5, 3, true), (1, 0));
    assert_eq!(run32(Op::SSubbU32, 3, 3, true), (0xffff_ffff, 1));
    assert_eq!(run32(Op::SSubbU32, 3, 3, false), (0, 0));
    // 0 - 0xffffffff - 1 = -2^32: borrows, low word 0.
    assert_eq!(run32(Op::SSubbU32, 0, 0xffff_ffff, true), (0, 1));
}

#[test]
fn sixty_four_bit_add_chain() {
    // 0x00000001_ffffffff + 0x00000002_00000001 = 0x00000004_00000000 via add + addc.
    let mut m = Machine::new(Gen::Gfx7);
    m.set_s64(0, 0x0000_0001_ffff_ffff);
    m.set_s64(2, 0x0000_0002_0000_0001);
    m.ok(sop2(Op::SAddU32, 4, s(0), s(2)));
    assert_eq!(m.scc(), 1);
    m.ok(sop2(Op::SAddcU32, 5, s(1), s(3)));
    assert_eq!(m.s64(4), 0x0000_0004_0000_0000);
    assert_eq!(m.scc(), 0);
}

#[test]
fn min_max_report_whether_s0_was_chosen() {
    assert_eq!(run32(Op::SMinI32, 0xffff_ffff, 1, false), (0xffff_ffff, 1));
    assert_eq!(run32(Op::SMinU32, 0xffff_ffff, 1, true), (1, 0));
    assert_eq!(run32(Op::SMaxI32, 0xffff_ffff, 1, true), (1, 0));
    assert_eq!(run32(Op::SMaxU32, 0xffff_ffff, 1, false), (0xffff_ffff, 1));
    // Equal: S0 is not strictly smaller/greater.
    assert_eq!(run32(Op::SMinI32, 5, 5, true), (5, 0));
    assert_eq!(run32(Op::SMaxU32, 5, 5, true), (5, 0));
}

#[test]
fn cselect_reads_scc_and_keeps_it() {
    assert_eq!(run32(Op::SCselectB32, 10, 20, true), (10, 1));
    assert_eq!(run32(Op::SCselectB32, 10, 20, false), (20, 0));
    assert_eq!(run64(Op::SCselectB64, 1 << 40, 7, true), (1 << 40, 1));
    assert_eq!(run64(Op::SCselectB64, 1 << 40, 7, false), (7, 0));
}

#[test]
fn logic_ops_set_scc_when_nonzero() {
    let (a, b) = (0xf0f0_0ff0u32, 0x0ff0_0f0fu32);
    assert_eq!(run32(Op::SAndB32, a, b, false), (0x00f0_0f00, 1));
    assert_eq!(run32(Op::SAndB32, 0xf0, 0x0f, true), (0, 0));
    assert_eq!(run32(Op::SOrB32, a, b, false), (0xfff0_0fff, 1));
    assert_eq!(run32(Op::SXorB32, a, b, false), (0xff00_00ff, 1));
    assert_eq!(run32(Op::SXorB32, a, a, true), (0, 0));
    assert_eq!(run32(Op::SAndn2B32, a, b, false), (0xf000_00f0, 1));
    assert_eq!(run32(Op::SOrn2B32, a, b, false), (0xf0ff_fff0, 1));
    assert_eq!(run32(Op::SNandB32, a, b, false), (0xff0f_f0ff, 1));
    assert_eq!(run32(Op::SNorB32, a, b, false), (0x000f_f000, 1));
    assert_eq!(run32(Op::SNorB32, 0xffff_0000, 0x0000_ffff, true), (0, 0));
    assert_eq!(run32(Op::SXnorB32, a, b, false), (0x00ff_ff00, 1));
    let (a, b) = (0xff00_0000_0000_00f0u64, 0x0f00_0000_0000_0ff0u64);
    assert_eq!(run64(Op::SAndB64, a, b, false), (0x0f00_0000_0000_00f0, 1));
    assert_eq!(run64(Op::SOrB64, a, b, false), (0xff00_0000_0000_0ff0, 1));
    assert_eq!(run64(Op::SXorB64, a, b, false), (0xf000_0000_0000_0f00, 1));
    assert_eq!(
        run64(Op::SAndn2B64, a, b, false),
        (0xf000_0000_0000_0000, 1)
    );
    assert_eq!(run64(Op::SOrn2B64, a, b, false), (0xffff_ffff_ffff_f0ff, 1));
    assert_eq!(run64(Op::SNandB64, a, b, false), (0xf0ff_ffff_ffff_ff0f, 1));
    assert_eq!(run64(Op::SNorB64, a, b, false), (0x00ff_ffff_ffff_f00f, 1));
    assert_eq!(run64(Op::SXnorB64, a, b, false), (0x0fff_ffff_ffff_f0ff, 1));
    // Only the high half set still counts as nonzero.
    assert_eq!(run64(Op::SAndB64, 1 << 63, 1 << 63, false), (1 << 63, 1));
    assert_eq!(run64(Op::SAndB64, 1 << 63, 1 << 62, true), (0, 0));
}

#[test]
fn shifts_mask_the_amount() {
    // 33 & 31 = 1.
    assert_eq!(run32(Op::SLshlB32, 1, 33, false), (2, 1));
    assert_eq!(run32(Op::SLshlB32, 0x8000_0000, 1, true), (0, 0));
    assert_eq!(run32(Op::SLshrB32, 0x8000_0000, 31, false), (1, 1));
    assert_eq!(
        run32(Op::SLshrB32, 0x8000_0000, 32, false),
        (0x8000_0000, 1)
    );
    assert_eq!(
        run32(Op::SAshrI32, 0x8000_0000, 31, false),
        (0xffff_ffff, 1)
    );
    assert_eq!(run32(Op::SAshrI32, 0x4000_0000, 63, true), (0, 0));
    // 64-bit shifts take the amount from a 32-bit S1, masked to 6 bits.
    let mut m = Machine::new(Gen::Gfx8);
    let mut sh64 = |op, a: u64, n: u32| {
        m.set_s64(0, a);
        m.set_s(2, n);
        m.ok(sop2(op, 4, s(0), s(2)));
        (m.s64(4), m.scc())
    };
    assert_eq!(sh64(Op::SLshlB64, 1, 40), (1 << 40, 1));
    assert_eq!(sh64(Op::SLshlB64, 1, 64 + 63), (1 << 63, 1));
    assert_eq!(sh64(Op::SLshlB64, 2, 63), (0, 0));
    assert_eq!(sh64(Op::SLshrB64, 1 << 63, 63), (1, 1));
    assert_eq!(sh64(Op::SLshrB64, 0x1234, 64), (0x1234, 1));
    // -2^63 >> 65 (= 1) = -2^62.
    assert_eq!(sh64(Op::SAshrI64, 1 << 63, 65), (0xc000_0000_0000_0000, 1));
}

#[test]
fn bfm_and_mul_leave_scc() {
    assert_eq!(run32(Op::SBfmB32, 4, 8, true), (0xf00, 1));
    assert_eq!(run32(Op::SBfmB32, 4, 8, false), (0xf00, 0));
    // Width 32 & 31 = 0: empty mask. Width 31 at 1: bits 1-31.
    assert_eq!(run32(Op::SBfmB32, 32, 0, false), (0, 0));
    assert_eq!(run32(Op::SBfmB32, 31, 1, false), (0xffff_fffe, 0));
    let mut m = Machine::new(Gen::Gfx6);
    m.set_s(0, 40);
    m.set_s(1, 4);
    m.ok(sop2(Op::SBfmB64, 2, s(0), s(1)));
    assert_eq!(m.s64(2), 0x0000_0fff_ffff_fff0);
    // -3 × 7 = -21; 0x10000 × 0x10000 = 2^32 → low word 0; SCC untouched.
    assert_eq!(
        run32(Op::SMulI32, (-3i32) as u32, 7, true),
        ((-21i32) as u32, 1)
    );
    assert_eq!(run32(Op::SMulI32, 0x10000, 0x10000, false), (0, 0));
    assert_eq!(run32(Op::SMulI32, 0xffff_ffff, 0xffff_ffff, false), (1, 0));
}

/// S1 for a bit-field extract: offset in bits 4:0, width in bits 22:16.
fn field(offset: u32, width: u32) -> u32 {
    (width << 16) | offset
}

#[test]
fn bfe_edges() {
    let x = 0x1234_5678;
    assert_eq!(run32(Op::SBfeU32, x, field(8, 8), false), (0x56, 1));
    assert_eq!(run32(Op::SBfeU32, x, field(8, 0), true), (0, 0));
    // Offset 28 + width 8 runs past bit 31: only bits 28-31 (0x1) exist.
    assert_eq!(run32(Op::SBfeU32, x, field(28, 8), false), (0x1, 1));
    // Width ≥ 32 keeps everything above the offset.
    assert_eq!(run32(Op::SBfeU32, x, field(4, 40), false), (0x0123_4567, 1));
    assert_eq!(run32(Op::SBfeU32, x, field(0, 32), false), (x, 1));
    // Offset uses 5 bits: 36 → 4.
    assert_eq!(run32(Op::SBfeU32, x, field(36, 4), false), (0x7, 1));
    // Signed: 0xf at bits 4-7 is -1; 0x7 is 7.
    assert_eq!(
        run32(Op::SBfeI32, 0xf0, field(4, 4), false),
        (0xffff_ffff, 1)
    );
    assert_eq!(run32(Op::SBfeI32, 0x70, field(4, 4), false), (7, 1));
    assert_eq!(run32(Op::SBfeI32, 0x70, field(4, 0), true), (0, 0));
    // Bits 28-35 of sign-extended 0x80000000: 1000 then four copies of the sign: 0xf8 = -8.
    assert_eq!(
        run32(Op::SBfeI32, 0x8000_0000, field(28, 8), false),
        (0xffff_fff8, 1)
    );
    assert_eq!(
        run32(Op::SBfeI32, 0x8000_0000, field(0, 32), false),
        (0x8000_0000, 1)
    );
    // 1-bit signed field: bit set → -1.
    assert_eq!(
        run32(Op::SBfeI32, 0x4, field(2, 1), false),
        (0xffff_ffff, 1)
    );

    let mut m = Machine::new(Gen::Gfx8);
    let mut bfe64 = |op, a: u64, f: u32| {
        m.set_s64(0, a);
        m.set_s(2, f);
        m.ok(sop2(op, 4, s(0), s(2)));
        (m.s64(4), m.scc())
    };
    let y = 0x1234_5678_9abc_def0u64;
    assert_eq!(bfe64(Op::SBfeU64, y, field(32, 16)), (0x5678, 1));
    assert_eq!(bfe64(Op::SBfeU64, y, field(60, 8)), (0x1, 1));
    assert_eq!(bfe64(Op::SBfeU64, y, field(0, 64)), (y, 1));
    assert_eq!(bfe64(Op::SBfeU64, y, field(0, 0)), (0, 0));
    // Offset uses 6 bits: 97 = 0b110_0001 → 33; y >> 33 = 0x091a2b3c…, low nibble 0xc.
    assert_eq!(bfe64(Op::SBfeU64, y, field(97, 4)), (0xc, 1));
    // Bits 28-35 of 0x80000000 are 0x08 (bit 35 clear): positive.
    assert_eq!(bfe64(Op::SBfeI64, 0x8000_0000, field(28, 8)), (8, 1));
    assert_eq!(
        bfe64(Op::SBfeI64, 0xf000_0000_0000_0000, field(60, 4)),
        (u64::MAX, 1)
    );
    assert_eq!(bfe64(Op::SBfeI64, 1 << 63, field(62, 8)), (u64::MAX - 1, 1));
}

#[test]
fn absdiff() {
    assert_eq!(run32(Op::SAbsdiffI32, 3, 10, false), (7, 1));
    assert_eq!(run32(Op::SAbsdiffI32, (-5i32) as u32, 3, false), (8, 1));
    assert_eq!(run32(Op::SAbsdiffI32, 5, 5, true), (0, 0));
    // INT_MIN - 1 wraps to INT_MAX in 32-bit arithmetic (manual pseudo-code): 0x7fffffff.
    assert_eq!(
        run32(Op::SAbsdiffI32, 0x8000_0000, 1, false),
        (0x7fff_ffff, 1)
    );
}

#[test]
fn constants_literals_and_special_registers() {
    let mut m = Machine::new(Gen::Gfx8);
    // Inline -1 (193) and 64 (192).
    m.ok(sop2(Op::SAddU32, 0, int(-1), int(64)));
    assert_eq!((m.s(0), m.scc()), (63, 1));
    // Literal.
    m.ok(sop2_lit(Op::SAddU32, 0, Src::LITERAL, int(1), 0x1234_5678));
    assert_eq!(m.s(0), 0x1234_5679);
    // 64-bit: the literal is zero-extended, inline -16 sign-extended.
    m.ok(sop2_lit(Op::SOrB64, 0, Src::LITERAL, int(0), 0x8000_0000));
    assert_eq!(m.s64(0), 0x0000_0000_8000_0000);
    m.ok(sop2(Op::SOrB64, 0, int(-16), int(0)));
    assert_eq!(m.s64(0), 0xffff_ffff_ffff_fff0);
    // Inline float 1.0 as f32 and as f64 (source 242).
    m.ok(sop2(Op::SOrB32, 0, Src(242), int(0)));
    assert_eq!(m.s(0), 0x3f80_0000);
    m.ok(sop2(Op::SOrB64, 0, Src(242), int(0)));
    assert_eq!(m.s64(0), 0x3ff0_0000_0000_0000);
    // VCC, EXEC and M0 as operands and destinations.
    m.wave.vcc = 0x0000_00ff_0000_0f00;
    m.wave.exec = 0xffff_0000_0000_ffff;
    m.ok(sop2(Op::SAndB64, 106, s(106), s(126)));
    assert_eq!(m.wave.vcc, 0x0000_0000_0000_0f00);
    m.ok(sop2(Op::SAddU32, 124, int(5), int(6)));
    assert_eq!(m.wave.m0, 11);
    // SCC (253), VCCZ (251), EXECZ (252) read as 0/1.
    m.set_scc(true);
    m.ok(sop2(Op::SAddU32, 0, Src(253), Src(251)));
    assert_eq!(m.s(0), 1, "SCC 1 + VCCZ 0");
    m.wave.exec = 0;
    m.ok(sop2(Op::SAddU32, 0, Src(252), Src(252)));
    assert_eq!(m.s(0), 2);
    // Unaligned 64-bit pair: s[3:4].
    m.set_s64(3, 0x1111_2222_3333_4444);
    m.ok(sop2(Op::SXorB64, 7, s(3), int(0)));
    assert_eq!((m.s(7), m.s(8)), (0x3333_4444, 0x1111_2222));
}

#[test]
fn bad_operands_are_errors() {
    let mut m = Machine::new(Gen::Gfx8);
    // A literal source without the literal dword.
    let e = m
        .exec(sop2(Op::SAddU32, 0, Src::LITERAL, int(0)))
        .unwrap_err();
    assert!(matches!(e, ExecErrorKind::BadOperand(_)), "{e}");
    // A VGPR or LDS_DIRECT is no scalar source; 125 is reserved.
    for bad in [Src(256), Src::LDS_DIRECT, Src(125), Src(230)] {
        let e = m.exec(sop2(Op::SAddU32, 0, bad, int(0))).unwrap_err();
        assert!(matches!(e, ExecErrorKind::BadOperand(_)), "{bad:?}: {e}");
    }
    // 1/(2π) (248) exists on GCN 1.2 only.
    assert!(m.exec(sop2(Op::SOrB32, 0, Src(248), int(0))).is_ok());
    assert_eq!(m.s(0), 0x3e22_f983);
    let mut m6 = Machine::new(Gen::Gfx6);
    let r = m6.exec(sop2(Op::SOrB32, 0, Src(248), int(0)));
    assert!(matches!(r, Err(ExecErrorKind::BadOperand(_))), "{r:?}");
    // A 64-bit pair that starts at EXEC_HI has no second half.
    let r = m.exec(sop2(Op::SAndB64, 0, s(127), int(0)));
    assert!(matches!(r, Err(ExecErrorKind::BadOperand(_))), "{r:?}");
    let r = m.exec(sop2(Op::SAndB64, 127, int(0), int(0)));
    assert!(matches!(r, Err(ExecErrorKind::BadOperand(_))), "{r:?}");
    // The control-stack fork is not modelled.
    let e = m.exec(sop2(Op::SCbranchGFork, 0, s(0), s(2))).unwrap_err();
    assert_eq!(
        e,
        ExecErrorKind::Unsupported {
            mnemonic: "s_cbranch_g_fork".into()
        }
    );
}
