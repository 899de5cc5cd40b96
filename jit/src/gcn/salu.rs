//! Scalar ALU lowering: SOP2, SOPK, SOP1 and SOPC inline, as `i32`/`i64` Cranelift values
//! in the register cache, with SCC as an `i32` 0/1.
//!
//! Every lowering first *plans* (pure: operation and operands checked, nothing emitted),
//! then emits. A plan that fails leaves the instruction to the interpreter helper, which
//! reports the same error the interpreter would (bad operand, unsupported hwreg, …).
//! The semantics are those of `wavejit_interp::salu` (AMD SI/CI/GCN3 manuals). Which
//! operation an opcode is comes from the table (`sem::lowering`, the `jit` column; the
//! vocabularies are in `svocab.rs`).

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, Value};
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::{Fields, Inst, Op, Src};

use super::dynamic;
use super::sem::{lowering, Lowering};
use super::sopnd::{src32, src64, SOpnd};
use super::svocab::{Logic, SOp, S1, S2, SC, SK};
use crate::block::{mflags, Cx};
use crate::ctx::{self, wave_off};
use wavejit_interp::salu::sopk::{HwReg, HW_REG_MODE};

impl Cx<'_> {
    fn bool32(&mut self, b: Value) -> Value {
        self.b.ins().uextend(types::I32, b)
    }

    fn nz32(&mut self, v: Value) -> Value {
        let t = self.b.func.dfg.value_type(v);
        let z = self.b.ins().icmp_imm_s(IntCC::NotEqual, v, 0);
        let _ = t;
        self.bool32(z)
    }
}

/// (src0 is 64-bit, src1 is 64-bit, destination is 64-bit)
fn widths2(k: S2) -> (bool, bool, bool) {
    use S2::*;
    match k {
        Csel64 | Logic64(_) => (true, true, true),
        Lshl64 | Lshr64 | Ashr64 | BfeU64 | BfeI64 => (true, false, true),
        Bfm64 => (false, false, true),
        _ => (false, false, false),
    }
}

fn logic(cx: &mut Cx, l: Logic, a: Value, b: Value) -> Value {
    // EXEC of the all-ones variant is a constant, and so is a mask ORed with it: restoring
    // EXEC after a branch (`s_or_b64 exec, exec, s[0:1]`) leaves it known all ones, so
    // the rest of the block needs no lane masks (Cranelift would fold the OR too, but
    // only after the block is built).
    let ty = cx.b.func.dfg.value_type(a);
    let all = |cx: &Cx, v: Value| {
        let bits = ty.bits();
        cx.const_of(v)
            .is_some_and(|k| (k as u64) << (64 - bits) == u64::MAX << (64 - bits))
    };
    match l {
        Logic::Or if all(cx, a) || all(cx, b) => return cx.b.ins().iconst(ty, -1),
        Logic::And if all(cx, a) => return b,
        Logic::And if all(cx, b) => return a,
        _ => {}
    }
    let i = cx.b.ins();
    match l {
        Logic::And => i.band(a, b),
        Logic::Or => i.bor(a, b),
        Logic::Xor => i.bxor(a, b),
        Logic::Andn2 => i.band_not(a, b),
        Logic::Orn2 => i.bor_not(a, b),
        Logic::Nand => {
            let t = i.band(a, b);
            cx.b.ins().bnot(t)
        }
        Logic::Nor => {
            let t = i.bor(a, b);
            cx.b.ins().bnot(t)
        }
        Logic::Xnor => i.bxor_not(a, b),
    }
}

/// `(1 << w) - 1` for a width `w` in 0..=127 of an `ity` value, saturating to all ones.
fn low_mask(cx: &mut Cx, ity: types::Type, w: Value) -> Value {
    let bits = ity.bits() as i64;
    let one = cx.b.ins().iconst(ity, 1);
    let wt = if ity == types::I64 {
        cx.b.ins().uextend(types::I64, w)
    } else {
        w
    };
    let sh = cx.b.ins().ishl(one, wt);
    let m = cx.b.ins().iadd_imm_s(sh, -1);
    let all = cx.b.ins().iconst(ity, -1);
    let big =
        cx.b.ins()
            .icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, w, bits);
    cx.b.ins().select(big, all, m)
}

/// Signed bit-field extract of `width` bits from `x` already shifted (`s_bfe_i32/i64`).
fn sext_field(cx: &mut Cx, ity: types::Type, x: Value, width: Value) -> Value {
    let bits = ity.bits() as i64;
    let wt = if ity == types::I64 {
        cx.b.ins().uextend(types::I64, width)
    } else {
        width
    };
    let nb = cx.b.ins().iconst(ity, bits);
    let sh = cx.b.ins().isub(nb, wt);
    let l = cx.b.ins().ishl(x, sh);
    let r = cx.b.ins().sshr(l, sh);
    let zero = cx.b.ins().iconst(ity, 0);
    let full =
        cx.b.ins()
            .icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, width, bits);
    let v = cx.b.ins().select(full, x, r);
    let z = cx.b.ins().icmp_imm_s(IntCC::Equal, width, 0);
    cx.b.ins().select(z, zero, v)
}

fn emit_sop2(cx: &mut Cx, k: S2, a: SOpnd, b: SOpnd, sdst: u8) {
    use S2::*;
    let (w0, w1, wd) = widths2(k);
    let a = if w0 { cx.read_s64(a) } else { cx.read_s32(a) };
    let b = if w1 { cx.read_s64(b) } else { cx.read_s32(b) };
    let mut scc: Option<Value> = None;
    let d = match k {
        // SCC: the unsigned carry/borrow, or the signed overflow.
        AddU | SubU | AddI | SubI => {
            let (d, c) = match k {
                AddU => cx.b.ins().uadd_overflow(a, b),
                SubU => cx.b.ins().usub_overflow(a, b),
                AddI => cx.b.ins().sadd_overflow(a, b),
                _ => cx.b.ins().ssub_overflow(a, b),
            };
            scc = Some(c);
            d
        }
        AddcU | SubbU => {
            let s = cx.scc_bit();
            let a64 = cx.b.ins().uextend(types::I64, a);
            let b64 = cx.b.ins().uextend(types::I64, b);
            let s64 = cx.b.ins().uextend(types::I64, s);
            if k == AddcU {
                let t = cx.b.ins().iadd(a64, b64);
                let t = cx.b.ins().iadd(t, s64);
                let c = cx.b.ins().ushr_imm_u(t, 32);
                scc = Some(cx.b.ins().ireduce(types::I32, c));
                cx.b.ins().ireduce(types::I32, t)
            } else {
                let sub = cx.b.ins().iadd(b64, s64);
                let t = cx.b.ins().isub(a64, sub);
                let c = cx.b.ins().icmp(IntCC::UnsignedGreaterThan, sub, a64);
                scc = Some(c);
                cx.b.ins().ireduce(types::I32, t)
            }
        }
        MinI | MinU | MaxI | MaxU => {
            let cc = match k {
                MinI => IntCC::SignedLessThan,
                MinU => IntCC::UnsignedLessThan,
                MaxI => IntCC::SignedGreaterThan,
                _ => IntCC::UnsignedGreaterThan,
            };
            let c = cx.b.ins().icmp(cc, a, b);
            scc = Some(c);
            cx.b.ins().select(c, a, b)
        }
        Csel32 | Csel64 => {
            let s = cx.scc_bit();
            cx.b.ins().select(s, a, b)
        }
        Logic32(l) | Logic64(l) => {
            let d = logic(cx, l, a, b);
            scc = Some(cx.nz32(d));
            d
        }
        Lshl32 | Lshr32 | Ashr32 | Lshl64 | Lshr64 | Ashr64 => {
            // Cranelift shifts take the amount modulo the width, as the manual's S1[4:0] /
            // S1[5:0] does.
            let d = match k {
                Lshl32 | Lshl64 => cx.b.ins().ishl(a, b),
                Lshr32 | Lshr64 => cx.b.ins().ushr(a, b),
                _ => cx.b.ins().sshr(a, b),
            };
            scc = Some(cx.nz32(d));
            d
        }
        Bfm32 => {
            let one = cx.iconst32(1);
            let m = cx.b.ins().ishl(one, a);
            let m = cx.b.ins().iadd_imm_s(m, -1);
            cx.b.ins().ishl(m, b)
        }
        Bfm64 => {
            let one = cx.iconst64(1);
            let m = cx.b.ins().ishl(one, a);
            let m = cx.b.ins().iadd_imm_s(m, -1);
            cx.b.ins().ishl(m, b)
        }
        Mul => cx.b.ins().imul(a, b),
        BfeU32 | BfeI32 | BfeU64 | BfeI64 => {
            let ity = if matches!(k, BfeU64 | BfeI64) {
                types::I64
            } else {
                types::I32
            };
            let sw = cx.b.ins().ushr_imm_u(b, 16);
            let width = cx.b.ins().band_imm_u(sw, 0x7f);
            let d = if matches!(k, BfeU32 | BfeU64) {
                let x = cx.b.ins().ushr(a, b);
                let m = low_mask(cx, ity, width);
                cx.b.ins().band(x, m)
            } else {
                let x = cx.b.ins().sshr(a, b);
                sext_field(cx, ity, x, width)
            };
            scc = Some(cx.nz32(d));
            d
        }
        Absdiff => {
            let t = cx.b.ins().isub(a, b);
            let d = cx.b.ins().iabs(t);
            scc = Some(cx.nz32(d));
            d
        }
    };
    write_result(cx, sdst, d, wd, scc);
}

/// Write a SOP1/SOP2 result: `d` to `sdst` (a pair when `wide`), and SCC when the
/// operation sets it.
fn write_result(cx: &mut Cx, sdst: u8, d: Value, wide: bool, scc: Option<Value>) {
    if wide {
        cx.set_sreg64(sdst, d);
    } else {
        cx.set_sreg(sdst, d);
    }
    if let Some(c) = scc {
        cx.set_scc(c);
    }
}

fn emit_sopk(cx: &mut Cx, k: SK, sdst: u8, simm16: u16) {
    let simm = simm16 as i16 as i32 as u32;
    match k {
        SK::Movk => {
            let v = cx.iconst32(simm);
            cx.set_sreg(sdst, v);
        }
        SK::Cmovk => {
            let v = cx.iconst32(simm);
            let old = cx.sreg(sdst);
            let s = cx.scc_bit();
            let d = cx.b.ins().select(s, v, old);
            cx.set_sreg(sdst, d);
        }
        SK::Cmp(cc, signed) => {
            let imm = if signed { simm } else { simm16 as u32 };
            let r = cx.sreg(sdst);
            let c = cx.b.ins().icmp_imm_s(cc, r, imm as i32 as i64);
            cx.set_scc(c);
        }
        SK::Addk => {
            let r = cx.sreg(sdst);
            let i = cx.iconst32(simm);
            let (d, o) = cx.b.ins().sadd_overflow(r, i);
            cx.set_sreg(sdst, d);
            cx.set_scc(o);
        }
        SK::Mulk => {
            let r = cx.sreg(sdst);
            let d = cx.b.ins().imul_imm_s(r, simm as i32 as i64);
            cx.set_sreg(sdst, d);
        }
        SK::Getreg(h) => {
            let v = cx.iconst32(HwReg::decode(h).get(cx.mode));
            cx.set_sreg(sdst, v);
        }
        // Setreg ends the unit (`emit_setreg`).
        SK::Setreg(..) => {}
    }
}

/// `s_setreg*` of MODE: `MODE[offset + size - 1 : offset] = v` (`HwReg::set`), stored,
/// then back to the dispatcher at the next pc (the code after it may be specialised on
/// another MODE).
fn emit_setreg(cx: &mut Cx, h: u16, lit: Option<u32>, sdst: u8, next: u32) {
    let h = HwReg::decode(h);
    let m = h.mask();
    let keep = cx.iconst32(cx.mode & !m);
    let v = match lit {
        Some(k) => cx.iconst32(k),
        None => cx.sreg(sdst),
    };
    let sh = cx.b.ins().ishl_imm_u(v, h.offset as i64);
    let part = cx.b.ins().band_imm_u(sh, m as i64);
    let mode = cx.b.ins().bor(keep, part);
    cx.flush();
    cx.b.ins().store(mflags(), mode, cx.wave, wave_off::MODE);
    cx.store_pc(next);
    cx.ret(ctx::EXIT_NEXT);
}

/// (source is 64-bit, destination is 64-bit)
fn widths1(k: S1) -> (bool, bool) {
    use S1::*;
    match k {
        Mov64 | Cmov64 | Not64 | Wqm64 | Brev64 | Quadmask64 | Saveexec(..) => (true, true),
        Movrels(_, w) | Movreld(w) => (w, w),
        Setpc(swap) => (true, swap),
        Bcnt0B64 | Bcnt1B64 | Ff0B64 | Ff1B64 | Flbit64 | FlbitI64 => (true, false),
        Bitset0B64 | Bitset1B64 | Getpc => (false, true),
        _ => (false, false),
    }
}

/// Spread bit q of `x` (q < 16) to a 4-bit group: whole-quad mode and its inverse use it.
fn quad_any(cx: &mut Cx, ity: types::Type, x: Value) -> Value {
    // OR every group's bits into its lowest bit, keep those: bit 4q = any(group q).
    let t = cx.b.ins().ushr_imm_u(x, 1);
    let y = cx.b.ins().bor(x, t);
    let t = cx.b.ins().ushr_imm_u(y, 2);
    let y = cx.b.ins().bor(y, t);
    let pattern = if ity == types::I64 {
        0x1111_1111_1111_1111u64 as i64
    } else {
        0x1111_1111
    };
    let m = cx.b.ins().iconst(ity, pattern);
    cx.b.ins().band(y, m)
}

/// A bit position `n` counted in `x` (ctz/clz, 64-bit when `wide`) as 32 bits, or -1
/// (0xffffffff) when `x` has no bit to find: S_FF0/S_FF1/S_FLBIT's "no bit" result.
fn bit_index_or_m1(cx: &mut Cx, x: Value, n: Value, wide: bool) -> Value {
    let n = if wide {
        cx.b.ins().ireduce(types::I32, n)
    } else {
        n
    };
    let none = cx.b.ins().icmp_imm_s(IntCC::Equal, x, 0);
    let m1 = cx.iconst32(u32::MAX);
    cx.b.ins().select(none, m1, n)
}

fn emit_sop1(cx: &mut Cx, k: S1, a: SOpnd, sdst: u8, pc: u32, size: u32) {
    use S1::*;
    let (w0, wd) = widths1(k);
    let ity = if w0 { types::I64 } else { types::I32 };
    match k {
        Movrels(base, w64) => return super::dynamic::movrels(cx, base, w64, sdst, pc),
        Movreld(w64) => return super::dynamic::movreld(cx, a, w64, sdst, pc),
        Setpc(swap) => return super::dynamic::setpc(cx, a, swap.then_some(sdst), pc, size),
        _ => {}
    }
    let av = match k {
        Getpc | Movrels(..) | Movreld(_) | Setpc(_) => cx.iconst32(0),
        _ if w0 => cx.read_s64(a),
        _ => cx.read_s32(a),
    };
    let mut scc: Option<Value> = None;
    let d = match k {
        Mov32 | Mov64 => av,
        Cmov32 | Cmov64 => {
            let old = if wd { cx.sreg64(sdst) } else { cx.sreg(sdst) };
            let s = cx.scc_bit();
            cx.b.ins().select(s, av, old)
        }
        Not32 | Not64 => {
            let d = cx.b.ins().bnot(av);
            scc = Some(cx.nz32(d));
            d
        }
        Wqm32 | Wqm64 => {
            let q = quad_any(cx, ity, av);
            let d = cx.b.ins().imul_imm_s(q, 15);
            scc = Some(cx.nz32(d));
            d
        }
        Brev32 | Brev64 => cx.b.ins().bitrev(av),
        Bcnt0B32 | Bcnt0B64 | Bcnt1B32 | Bcnt1B64 => {
            let p = cx.b.ins().popcnt(av);
            let p = if w0 {
                cx.b.ins().ireduce(types::I32, p)
            } else {
                p
            };
            let d = if matches!(k, Bcnt0B32 | Bcnt0B64) {
                let n = cx.iconst32(if w0 { 64 } else { 32 });
                cx.b.ins().isub(n, p)
            } else {
                p
            };
            scc = Some(cx.nz32(d));
            d
        }
        Ff0B32 | Ff0B64 | Ff1B32 | Ff1B64 => {
            let x = if matches!(k, Ff0B32 | Ff0B64) {
                cx.b.ins().bnot(av)
            } else {
                av
            };
            let tz = cx.b.ins().ctz(x);
            bit_index_or_m1(cx, x, tz, w0)
        }
        Flbit32 | Flbit64 | FlbitI32 | FlbitI64 => {
            let x = if matches!(k, FlbitI32 | FlbitI64) {
                // Complement when negative: count to the first bit differing from the sign.
                let s = cx.b.ins().sshr_imm_u(av, ity.bits() as i64 - 1);
                cx.b.ins().bxor(av, s)
            } else {
                av
            };
            let lz = cx.b.ins().clz(x);
            bit_index_or_m1(cx, x, lz, w0)
        }
        Sext8 => {
            let t = cx.b.ins().ireduce(types::I8, av);
            cx.b.ins().sextend(types::I32, t)
        }
        Sext16 => {
            let t = cx.b.ins().ireduce(types::I16, av);
            cx.b.ins().sextend(types::I32, t)
        }
        Bitset0B32 | Bitset1B32 | Bitset0B64 | Bitset1B64 => {
            let dty = if wd { types::I64 } else { types::I32 };
            let old = if wd { cx.sreg64(sdst) } else { cx.sreg(sdst) };
            let one = cx.b.ins().iconst(dty, 1);
            let amt = if wd {
                cx.b.ins().uextend(types::I64, av)
            } else {
                av
            };
            let bit = cx.b.ins().ishl(one, amt);
            if matches!(k, Bitset0B32 | Bitset0B64) {
                cx.b.ins().band_not(old, bit)
            } else {
                cx.b.ins().bor(old, bit)
            }
        }
        Getpc => super::dynamic::next_address(cx, pc, size),
        Saveexec(l, _) => {
            let old = cx.sreg64(126);
            let new = logic(cx, l, av, old);
            cx.set_sreg64(sdst, old);
            cx.set_sreg64(126, new);
            let s = cx.nz32(new);
            cx.set_scc(s);
            return;
        }
        Quadmask32 | Quadmask64 => {
            // Gather bit 4q of the "any" pattern to bit q.
            let q = quad_any(cx, ity, av);
            let n = if w0 { 16 } else { 8 };
            let mut acc = cx.b.ins().iconst(ity, 0);
            for i in 0..n {
                let t = cx.b.ins().ushr_imm_u(q, 3 * i as i64);
                let t = cx.b.ins().band_imm_u(t, 1i64 << i);
                acc = cx.b.ins().bor(acc, t);
            }
            scc = Some(cx.nz32(acc));
            acc
        }
        Abs => {
            let d = cx.b.ins().iabs(av);
            scc = Some(cx.nz32(d));
            d
        }
        Movrels(..) | Movreld(_) | Setpc(_) => return,
    };
    write_result(cx, sdst, d, wd, scc);
}

fn emit_sopc(cx: &mut Cx, k: SC, a: SOpnd, b: SOpnd) {
    let c = match k {
        SC::Cmp(cc) => {
            let a = cx.read_s32(a);
            let b = cx.read_s32(b);
            cx.b.ins().icmp(cc, a, b)
        }
        SC::Cmp64(cc) => {
            let a = cx.read_s64(a);
            let b = cx.read_s64(b);
            cx.b.ins().icmp(cc, a, b)
        }
        SC::Bitcmp(one, w64) => {
            let a = if w64 { cx.read_s64(a) } else { cx.read_s32(a) };
            let b = cx.read_s32(b);
            let b = if w64 {
                cx.b.ins().uextend(types::I64, b)
            } else {
                b
            };
            let t = cx.b.ins().ushr(a, b);
            let t = cx.b.ins().band_imm_u(t, 1);
            cx.b.ins()
                .icmp_imm_s(if one { IntCC::NotEqual } else { IntCC::Equal }, t, 0)
        }
    };
    cx.set_scc(c);
}

/// A scalar ALU instruction, checked and ready to emit.
#[derive(Clone, Copy, Debug)]
pub enum SPlan {
    /// (operation, src0, src1, sdst)
    Sop2(S2, SOpnd, SOpnd, u8),
    /// (operation, sdst, simm16)
    Sopk(SK, u8, u16),
    /// (operation, src0, sdst)
    Sop1(S1, SOpnd, u8),
    /// (operation, src0, src1)
    Sopc(SC, SOpnd, SOpnd),
}

/// Plan a scalar ALU instruction; `None` leaves it to the interpreter helper.
pub fn plan(gen: Gen, inst: &Inst) -> Option<SPlan> {
    let lit = inst.literal;
    let Lowering::Scalar(sop) = lowering(inst.op) else {
        return None;
    };
    match (inst.fields, sop) {
        (Fields::Sop2 { sdst, ssrc0, ssrc1 }, SOp::Sop2(k)) => {
            let (w0, w1, wd) = widths2(k);
            let a = if w0 {
                src64(gen, ssrc0, lit)?
            } else {
                src32(gen, ssrc0, lit)?
            };
            let b = if w1 {
                src64(gen, ssrc1, lit)?
            } else {
                src32(gen, ssrc1, lit)?
            };
            if sdst > if wd { 126 } else { 127 } {
                return None;
            }
            Some(SPlan::Sop2(k, a, b, sdst))
        }
        (Fields::Sopk { sdst, simm16 }, SOp::Sopk(k)) => {
            let k = match k {
                // Only MODE is modelled (others are the interpreter's `Unsupported`).
                SK::Getreg(_) | SK::Setreg(..) if HwReg::decode(simm16).id != HW_REG_MODE => {
                    return None
                }
                SK::Getreg(_) => SK::Getreg(simm16),
                SK::Setreg(..) if inst.op == Op::SSetregImm32B32 => {
                    SK::Setreg(simm16, Some(inst.literal?))
                }
                SK::Setreg(..) => SK::Setreg(simm16, None),
                k => k,
            };
            if sdst > 127 {
                return None;
            }
            // cmpk/addk/mulk read SDST as a source: it must name a register.
            if matches!(k, SK::Cmp(..) | SK::Addk | SK::Mulk | SK::Setreg(_, None)) {
                src32(gen, Src(sdst as u16), None)?;
            }
            Some(SPlan::Sopk(k, sdst, simm16))
        }
        (Fields::Sop1 { sdst, ssrc0 }, SOp::Sop1(k)) => {
            let (w0, wd) = widths1(k);
            // The relative moves' register ranges: a base whose range can never fit in
            // s0-s103 is always the interpreter's error.
            let k = match k {
                S1::Movrels(_, w64) => {
                    let base = ssrc0.0;
                    if base + if w64 { 2 } else { 1 } > dynamic::SGPRS as u16 {
                        return None;
                    }
                    S1::Movrels(base as u8, w64)
                }
                S1::Movreld(w64) if sdst as u32 + if w64 { 2 } else { 1 } > dynamic::SGPRS => {
                    return None
                }
                k => k,
            };
            let a = if matches!(k, S1::Getpc | S1::Movrels(..)) {
                SOpnd::Const(0)
            } else if w0 {
                src64(gen, ssrc0, lit)?
            } else {
                src32(gen, ssrc0, lit)?
            };
            if sdst > if wd { 126 } else { 127 } {
                return None;
            }
            // s_bitset* read SDST as a source (of their width).
            match k {
                S1::Bitset0B32 | S1::Bitset1B32 => {
                    src32(gen, Src(sdst as u16), None)?;
                }
                S1::Bitset0B64 | S1::Bitset1B64 => {
                    src64(gen, Src(sdst as u16), None)?;
                }
                _ => {}
            }
            Some(SPlan::Sop1(k, a, sdst))
        }
        (Fields::Sopc { ssrc0, ssrc1 }, SOp::Sopc(k)) => {
            let (a, b) = match k {
                SC::Cmp(_) => (src32(gen, ssrc0, lit)?, src32(gen, ssrc1, lit)?),
                SC::Cmp64(_) => (src64(gen, ssrc0, lit)?, src64(gen, ssrc1, lit)?),
                SC::Bitcmp(_, w64) => (
                    if w64 {
                        src64(gen, ssrc0, lit)?
                    } else {
                        src32(gen, ssrc0, lit)?
                    },
                    src32(gen, ssrc1, lit)?,
                ),
            };
            Some(SPlan::Sopc(k, a, b))
        }
        _ => None,
    }
}

impl SPlan {
    /// Whether the instruction ends the unit (its emission leaves it: a dynamic next pc, or
    /// a MODE the rest of the block was not specialised on).
    pub fn ends_unit(&self) -> bool {
        matches!(
            self,
            SPlan::Sop1(S1::Setpc(_), _, _) | SPlan::Sopk(SK::Setreg(..), _, _)
        )
    }

    /// Whether this instruction may write EXEC (then lane masks must be rebuilt).
    pub fn writes_exec(&self) -> bool {
        let d = match *self {
            SPlan::Sop2(k, _, _, d) => {
                let (_, _, wd) = widths2(k);
                return d == 126 || d == 127 || (wd && d == 125);
            }
            SPlan::Sopk(_, d, _) => d,
            SPlan::Sop1(S1::Saveexec(..), _, _) => return true,
            SPlan::Sop1(k, _, d) => {
                let (_, wd) = widths1(k);
                return d == 126 || d == 127 || (wd && d == 125);
            }
            SPlan::Sopc(..) => return false,
        };
        d == 126 || d == 127
    }
}

/// Emit a planned scalar instruction at `pc` (`size` bytes).
pub fn emit(cx: &mut Cx, p: &SPlan, pc: u32, size: u32) {
    match *p {
        SPlan::Sop2(k, a, b, d) => emit_sop2(cx, k, a, b, d),
        SPlan::Sopk(SK::Setreg(h, lit), d, _) => emit_setreg(cx, h, lit, d, pc.wrapping_add(size)),
        SPlan::Sopk(k, d, imm) => emit_sopk(cx, k, d, imm),
        SPlan::Sop1(k, a, d) => emit_sop1(cx, k, a, d, pc, size),
        SPlan::Sopc(k, a, b) => emit_sopc(cx, k, a, b),
    }
}

/// Whether `op` is a scalar ALU operation lowered inline (the table's `jit` cell).
pub fn known(op: Op) -> bool {
    matches!(lowering(op), Lowering::Scalar(_))
}
