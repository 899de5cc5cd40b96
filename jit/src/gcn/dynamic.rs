//! Scalar instructions with a register index or a next pc known only at run time:
//! `s_movrels_b32/b64` and `s_movreld_b32/b64` (an SGPR at `base + M0`), and
//! `s_setpc_b64`/`s_swappc_b64` (the next pc from an SGPR pair).
//!
//! The relative moves are checked accesses to the SGPR array of the `Wave`
//! (`wavejit_interp::salu::sop1`: `base + M0 + width` must not pass s103). The check is one
//! compare of M0 against a constant; when it fails, a cold side exit stores the state and
//! runs the instruction through the interpreter helper, which reports its own error (the
//! same pc and message). In range, the register cache is first stored to the wave (a
//! run-time index may name any SGPR; the values stay cached), then the one slot is loaded
//! or stored at `wave.sgpr + 4 × (base + M0)`; after a store, the cache is dropped.
//!
//! Code addresses count from `wave.code_base`, read at run time (compiled code and its
//! disk cache key do not depend on where the code is loaded): `s_getpc_b64` is that base
//! plus a constant. `s_setpc`/`s_swappc` end the unit: a target below the base or 4 GiB or
//! more past it is the interpreter's error (the same side exit); otherwise the state is
//! stored, `wave.pc` set to `target - base` and the unit returns to the dispatcher, which
//! finds (or compiles) the code there.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, Value};

use super::sopnd::SOpnd;
use crate::block::{mflags, Cx};
use crate::ctx::{self, wave_off};

/// The SGPRs a relative move may reach (s0-s103: not VCC, M0, EXEC or the trap registers).
pub const SGPRS: u32 = 104;

/// Branch to a cold side exit that runs the instruction at `pc` through the interpreter
/// (which reports the error `fail` predicted), else continue on the main line.
pub(crate) fn check_or_helper(cx: &mut Cx, fail: Value, pc: u32) {
    crate::exit::if_cold(cx, fail, |cx| {
        cx.flush_side();
        crate::exit::through_helper(cx, &[pc]);
    });
}

/// The address of `wave.sgpr[base + M0]` after checking `base + M0 + width <= 104`
/// (`width` 1 or 2 slots, `base + width <= 104` checked by the planner).
fn slot_addr(cx: &mut Cx, base: u8, w64: bool, pc: u32) -> Value {
    let width = if w64 { 2 } else { 1 };
    let m0 = cx.sreg(crate::slots::M0);
    let room = SGPRS - width - base as u32;
    let fail =
        cx.b.ins()
            .icmp_imm_s(IntCC::UnsignedGreaterThan, m0, room as i64);
    check_or_helper(cx, fail, pc);
    // Registers in the wave current (values stay cached, clean).
    cx.flush();
    let idx = cx.b.ins().uextend(cx.ptr, m0);
    let off = cx.b.ins().ishl_imm_u(idx, 2);
    let at = cx.b.ins().iadd(cx.wave, off);
    cx.b.ins()
        .iadd_imm_s(at, (wave_off::SGPR + 4 * base as i32) as i64)
}

/// `D = SGPR[base + M0]` (`s_movrels_b32/b64`).
pub fn movrels(cx: &mut Cx, base: u8, w64: bool, sdst: u8, pc: u32) {
    let at = slot_addr(cx, base, w64, pc);
    if w64 {
        let v = cx.b.ins().load(types::I64, mflags(), at, 0);
        cx.set_sreg64(sdst, v);
    } else {
        let v = cx.b.ins().load(types::I32, mflags(), at, 0);
        cx.set_sreg(sdst, v);
    }
}

/// `SGPR[base + M0] = S0` (`s_movreld_b32/b64`; the source is read before the check, as
/// the interpreter does).
pub fn movreld(cx: &mut Cx, a: SOpnd, w64: bool, base: u8, pc: u32) {
    let v = if w64 { cx.read_s64(a) } else { cx.read_s32(a) };
    let at = slot_addr(cx, base, w64, pc);
    cx.b.ins().store(mflags(), v, at, 0);
    // Any cached SGPR may be the one written: reload them all (EXEC is not among them).
    cx.invalidate(true);
}

/// The wave's code base (the address of pc 0).
fn code_base(cx: &mut Cx) -> Value {
    let w = cx.wave;
    cx.b.ins()
        .load(types::I64, mflags(), w, wave_off::CODE_BASE)
}

/// The address of the instruction after the one at `pc` (`size` bytes): `s_getpc_b64`.
pub fn next_address(cx: &mut Cx, pc: u32, size: u32) -> Value {
    let base = code_base(cx);
    cx.b.ins().iadd_imm_s(base, pc as i64 + size as i64)
}

/// `s_setpc_b64` (`link` `None`) and `s_swappc_b64` (`link`: the pair that receives the
/// address of the next instruction): the unit ends at the target read from `a`.
pub fn setpc(cx: &mut Cx, a: SOpnd, link: Option<u8>, pc: u32, size: u32) {
    let t = cx.read_s64(a);
    let base = code_base(cx);
    let below = cx.b.ins().icmp(IntCC::UnsignedLessThan, t, base);
    let off = cx.b.ins().isub(t, base);
    let hi = cx.b.ins().ushr_imm_u(off, 32);
    let far = cx.b.ins().icmp_imm_s(IntCC::NotEqual, hi, 0);
    let fail = cx.b.ins().bor(below, far);
    check_or_helper(cx, fail, pc);
    let target = cx.b.ins().ireduce(types::I32, off);
    if let Some(d) = link {
        let r = cx.b.ins().iadd_imm_s(base, pc as i64 + size as i64);
        cx.set_sreg64(d, r);
    }
    cx.flush();
    cx.b.ins().store(mflags(), target, cx.wave, wave_off::PC);
    cx.ret(ctx::EXIT_NEXT);
}
