//! SOPK (immediates, hardware registers), SOPC (compares) and SOPP (branches, end,
//! barrier, no-ops) with hand-worked values.

mod exec_util;

use exec_util::*;
use wavejit_interp::exec::Step;
use wavejit_interp::ExecErrorKind;
use wavejit_isa::gcn::Op;
use wavejit_isa::Gen;

#[test]
fn movk_cmovk_addk_mulk() {
    let mut m = Machine::new(Gen::Gfx8);
    m.ok(sopk(Op::SMovkI32, 0, 0xffff));
    assert_eq!(m.s(0), 0xffff_ffff, "sign-extended");
    m.ok(sopk(Op::SMovkI32, 0, 0x7fff));
    assert_eq!(m.s(0), 0x7fff);
    m.set_scc(false);
    m.ok(sopk(Op::SCmovkI32, 0, 5));
    assert_eq!(m.s(0), 0x7fff);
    m.set_scc(true);
    m.ok(sopk(Op::SCmovkI32, 0, 0x8000));
    assert_eq!(m.s(0), 0xffff_8000);
    // addk: INT_MAX + 1 overflows; 5 + (-1) does not.
    m.set_s(1, 0x7fff_ffff);
    m.ok(sopk(Op::SAddkI32, 1, 1));
    assert_eq!((m.s(1), m.scc()), (0x8000_0000, 1));
    m.set_s(1, 5);
    m.ok(sopk(Op::SAddkI32, 1, 0xffff));
    assert_eq!((m.s(1), m.scc()), (4, 0));
    m.set_s(1, 3);
    m.set_scc(true);
    m.ok(sopk(Op::SMulkI32, 1, 0xfffe));
    assert_eq!((m.s(1), m.scc()), ((-6i32) as u32, 1), "SCC untouched");
}

#[test]
fn cmpk_sign_and_zero_extension() {
    let mut m = Machine::new(Gen::Gfx7);
    let mut k = |op, v: u32, imm: u16| {
        m.set_s(3, v);
        m.ok(sopk(op, 3, imm));
        m.scc()
    };
    // -1 == sext(0xffff) but != zext(0xffff).
    assert_eq!(k(Op::SCmpkEqI32, 0xffff_ffff, 0xffff), 1);
    assert_eq!(k(Op::SCmpkEqU32, 0xffff_ffff, 0xffff), 0);
    assert_eq!(k(Op::SCmpkEqU32, 0xffff, 0xffff), 1);
    // 5 < 32768 unsigned; 5 < -32768 signed is false.
    assert_eq!(k(Op::SCmpkLtU32, 5, 0x8000), 1);
    assert_eq!(k(Op::SCmpkLtI32, 5, 0x8000), 0);
    assert_eq!(k(Op::SCmpkGtI32, 5, 0x8000), 1);
    assert_eq!(k(Op::SCmpkLgI32, 5, 5), 0);
    assert_eq!(k(Op::SCmpkGeI32, 5, 5), 1);
    assert_eq!(k(Op::SCmpkLeI32, 4, 5), 1);
    assert_eq!(k(Op::SCmpkLgU32, 4, 5), 1);
    assert_eq!(k(Op::SCmpkGtU32, 0xffff_ffff, 0xffff), 1);
    assert_eq!(k(Op::SCmpkGeU32, 3, 4), 0);
    assert_eq!(k(Op::SCmpkLeU32, 4, 4), 1);
}

/// SIMM16 of a hwreg operand: size-1 in 15:11, offset in 10:6, id in 5:0.
fn hwreg(id: u16, offset: u16, size: u16) -> u16 {
    ((size - 1) << 11) | (offset << 6) | id
}

#[test]
fn mode_register_moves() {
    let mut m = Machine::new(Gen::Gfx8);
    assert_eq!(m.wave.mode, 0xc0, "default MODE (ERRATA VOP3 4)");
    m.ok(sopk(Op::SGetregB32, 0, hwreg(1, 4, 4)));
    assert_eq!(m.s(0), 0xc, "denormal field 7:4 of 0xC0");
    m.ok(sopk(Op::SGetregB32, 0, hwreg(1, 0, 32)));
    assert_eq!(m.s(0), 0xc0);
    m.set_s(1, 0xfffffff5);
    m.ok(sopk(Op::SSetregB32, 1, hwreg(1, 0, 4)));
    assert_eq!(m.wave.mode, 0xc5, "only bits 3:0 change");
    let mut lit = sopk(Op::SSetregImm32B32, 0, hwreg(1, 8, 2));
    lit.literal = Some(3);
    m.ok(lit);
    assert_eq!(m.wave.mode, 0x3c5);
    // A field that runs past bit 31 covers only bits 30-31.
    m.set_s(1, 0xffff_ffff);
    m.ok(sopk(Op::SSetregB32, 1, hwreg(1, 30, 8)));
    assert_eq!(m.wave.mode, 0xc000_03c5);
    m.ok(sopk(Op::SGetregB32, 0, hwreg(1, 30, 8)));
    assert_eq!(m.s(0), 3);
    // Other hardware registers are not modelled.
    let e = m
        .exec(sopk(Op::SGetregB32, 0, hwreg(2, 0, 32)))
        .unwrap_err();
    assert_eq!(
        e,
        ExecErrorKind::Unsupported {
            mnemonic: "s_getreg_b32 hwreg(HW_REG_STATUS)".into()
        }
    );
    let r = m.exec(sopk(Op::SSetregB32, 1, hwreg(3, 0, 1)));
    assert!(matches!(r, Err(ExecErrorKind::Unsupported { .. })), "{r:?}");
}

#[test]
fn compares() {
    let mut m = Machine::new(Gen::Gfx8);
    let mut c = |op, a: u32, b: u32| {
        m.set_s(0, a);
        m.set_s(1, b);
        m.ok(sopc(op, s(0), s(1)));
        m.scc()
    };
    assert_eq!(c(Op::SCmpLtI32, 0xffff_ffff, 0), 1);
    assert_eq!(c(Op::SCmpLtU32, 0xffff_ffff, 0), 0);
    assert_eq!(c(Op::SCmpEqI32, 3, 3), 1);
    assert_eq!(c(Op::SCmpLgI32, 3, 3), 0);
    assert_eq!(c(Op::SCmpGtI32, 0x8000_0000, 0x7fff_ffff), 0);
    assert_eq!(c(Op::SCmpGtU32, 0x8000_0000, 0x7fff_ffff), 1);
    assert_eq!(c(Op::SCmpGeI32, 2, 2), 1);
    assert_eq!(c(Op::SCmpLeI32, 3, 2), 0);
    assert_eq!(c(Op::SCmpEqU32, 9, 9), 1);
    assert_eq!(c(Op::SCmpLgU32, 9, 8), 1);
    assert_eq!(c(Op::SCmpGeU32, 0, 1), 0);
    assert_eq!(c(Op::SCmpLeU32, 0, 1), 1);
    // bitcmp: bit 35 & 31 = 3 of 0x8 is 1.
    assert_eq!(c(Op::SBitcmp1B32, 0x8, 35), 1);
    assert_eq!(c(Op::SBitcmp0B32, 0x8, 35), 0);
    assert_eq!(c(Op::SBitcmp0B32, 0x8, 2), 1);
    let mut m = Machine::new(Gen::Gfx8);
    m.set_s64(0, 1 << 40);
    m.set_s(2, 40);
    m.ok(sopc(Op::SBitcmp0B64, s(0), s(2)));
    assert_eq!(m.scc(), 0);
    m.ok(sopc(Op::SBitcmp1B64, s(0), s(2)));
    assert_eq!(m.scc(), 1);
    // GCN 1.2 64-bit equality.
    m.set_s64(4, 1 << 40);
    m.ok(sopc(Op::SCmpEqU64, s(0), s(4)));
    assert_eq!(m.scc(), 1);
    m.ok(sopc(Op::SCmpLgU64, s(0), s(4)));
    assert_eq!(m.scc(), 0);
    m.set_s(5, 1);
    m.ok(sopc(Op::SCmpEqU64, s(0), s(4)));
    assert_eq!(m.scc(), 0, "high halves differ");
    let r = m.exec(sopc(Op::SSetvskip, s(0), s(1)));
    assert!(matches!(r, Err(ExecErrorKind::Unsupported { .. })), "{r:?}");
}

#[test]
fn branches_taken_and_not() {
    let mut m = Machine::new(Gen::Gfx8);
    let mut br = |op, simm: u16, setup: &dyn Fn(&mut Machine)| {
        m.wave.pc = 0x20;
        setup(&mut m);
        assert_eq!(m.ok(sopp(op, simm)), Step::Continue);
        m.wave.pc
    };
    // Taken: 0x20 + 4 + 3×4 = 0x30. Not taken: 0x24. Backwards: 0x20 + 4 - 2×4 = 0x1c.
    assert_eq!(br(Op::SBranch, 3, &|_| {}), 0x30);
    assert_eq!(br(Op::SBranch, 0xfffe, &|_| {}), 0x1c);
    assert_eq!(br(Op::SCbranchScc0, 3, &|m| m.set_scc(false)), 0x30);
    assert_eq!(br(Op::SCbranchScc0, 3, &|m| m.set_scc(true)), 0x24);
    assert_eq!(br(Op::SCbranchScc1, 3, &|m| m.set_scc(true)), 0x30);
    assert_eq!(br(Op::SCbranchScc1, 3, &|m| m.set_scc(false)), 0x24);
    assert_eq!(br(Op::SCbranchVccz, 3, &|m| m.wave.vcc = 0), 0x30);
    assert_eq!(br(Op::SCbranchVccz, 3, &|m| m.wave.vcc = 1 << 63), 0x24);
    assert_eq!(br(Op::SCbranchVccnz, 3, &|m| m.wave.vcc = 1 << 63), 0x30);
    assert_eq!(br(Op::SCbranchVccnz, 3, &|m| m.wave.vcc = 0), 0x24);
    assert_eq!(br(Op::SCbranchExecz, 3, &|m| m.wave.exec = 0), 0x30);
    assert_eq!(br(Op::SCbranchExecz, 3, &|m| m.wave.exec = 1 << 40), 0x24);
    assert_eq!(br(Op::SCbranchExecnz, 3, &|m| m.wave.exec = 1 << 40), 0x30);
    assert_eq!(br(Op::SCbranchExecnz, 3, &|m| m.wave.exec = 0), 0x24);
    // A branch before the code start wraps to a huge offset (the next step reports it).
    assert_eq!(
        br(Op::SBranch, 0x8000, &|_| {}),
        0x24u32.wrapping_sub(0x20000)
    );
}

#[test]
fn end_barrier_and_no_ops() {
    let mut m = Machine::new(Gen::Gfx6);
    m.wave.pc = 0x8;
    assert_eq!(m.ok(sopp(Op::SEndpgm, 0)), Step::End);
    assert_eq!(m.wave.pc, 0x8, "stays on s_endpgm");
    assert_eq!(m.ok(sopp(Op::SBarrier, 0)), Step::Barrier);
    assert_eq!(m.wave.pc, 0xc, "past the barrier");
    for op in [
        Op::SNop,
        Op::SWaitcnt,
        Op::SSleep,
        Op::SSetprio,
        Op::SIcacheInv,
        Op::SSethalt,
    ] {
        let pc = m.wave.pc;
        assert_eq!(m.ok(sopp(op, 0)), Step::Continue, "{op:?}");
        assert_eq!(m.wave.pc, pc + 4);
    }
    // Halting, messages and traps are not modelled.
    for (op, imm) in [
        (Op::SSethalt, 1),
        (Op::SSendmsg, 0),
        (Op::STrap, 0),
        (Op::SSetkill, 0),
    ] {
        let e = m.exec(sopp(op, imm)).unwrap_err();
        assert_eq!(
            e,
            ExecErrorKind::Unsupported {
                mnemonic: op.mnemonic().into()
            },
            "{op:?}"
        );
    }
}
