//! Vector instructions that move data between lanes, or between the vector and scalar
//! files, at a lane or register index known only at run time (`wavejit_interp::valu::
//! lanes` defines them):
//!
//! * `v_readlane_b32` (`SDST = S0[lane]`, lane = SSRC1 & 63) and `v_readfirstlane_b32`
//!   (the lowest lane with its EXEC bit set, lane 0 when EXEC is 0): the source VGPR's
//!   cached chunks are stored to the wave, then one `i32` is loaded at
//!   `wave.vgpr[reg] + 4 × lane` (the index is masked to 0-63: always in bounds); a
//!   constant lane (or EXEC known all ones for readfirstlane) stores only its chunk.
//! * `v_writelane_b32` (`VDST[lane] = S0`, EXEC ignored): each chunk of VDST (as stored)
//!   selects the value where its lane number equals the index, and is cached again.
//! * `v_movrels_b32`, `v_movreld_b32`, `v_movrelsd_b32` (`VGPR[base + M0]` under EXEC): the
//!   register index is checked against v255 with one compare of M0; when it fails a cold
//!   side exit runs the instruction through the interpreter helper (its own error). In
//!   range, every cached VGPR chunk is stored and forgotten (the run-time index may name
//!   any register), and the 16 chunks are copied with plain loads and stores at the
//!   computed addresses, EXEC-masked.
//!
//! `v_mqsad_u32_u8` (four result registers, `bytes.rs`) is planned and emitted here too: like
//! the others it is a whole instruction emitted outside the chunk-by-chunk segments.
//!
//! VOP3's ABS/NEG act on bit 31 of the 32-bit value, as the interpreter's `modifiers` does
//! for `B32` operands; OMOD/CLAMP do nothing to an integer result. The SDWA and DPP forms
//! stay with the interpreter helper.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, Value};
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::operand::{src_kind, SrcKind};
use wavejit_isa::gcn::{Enc, Fields, Inst, Op, Src};

use super::dynamic::check_or_helper;
use super::fetch::sign_mods;
use super::sopnd::{src32, SOpnd};
use crate::block::{mflags, Cx, CHUNKS, I32X4};
use crate::ctx::wave_off;

/// A 32-bit source: a VGPR (per lane) or a uniform scalar operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LSrc {
    V(u8),
    S(SOpnd),
}

/// Which registers an M0-relative move indexes (`interp::valu::lanes::Movrel`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rel {
    /// `VDST = VGPR[SRC0 + M0]`
    S,
    /// `VGPR[VDST + M0] = SRC0`
    D,
    /// `VGPR[VDST + M0] = VGPR[SRC0 + M0]`
    Sd,
}

/// An M0-relative move: `kind` says which side M0 indexes; ABS/NEG apply to the value.
#[derive(Clone, Copy, Debug)]
pub struct Movrel {
    pub kind: Rel,
    pub src: LSrc,
    pub vdst: u8,
    pub abs: bool,
    pub neg: bool,
}

/// A planned lane instruction.
#[derive(Clone, Copy, Debug)]
pub enum LPlan {
    /// `sdst = src[lane]`; `lane` `None`: the first lane active in EXEC.
    Read {
        src: LSrc,
        lane: Option<SOpnd>,
        sdst: u8,
        abs: bool,
        neg: bool,
    },
    /// `v[vdst][lane] = val`
    Write {
        val: SOpnd,
        lane: SOpnd,
        vdst: u8,
        abs: bool,
        neg: bool,
    },
    Movrel(Movrel),
    /// `v_mqsad_u32_u8`: four dwords out, a four-dword S2 (`bytes::mqsad_u32`).
    Mqsad(super::bytes::Mqsad),
}

/// Whether `op` is lowered here (the table's `lanes` cell).
pub fn known(op: Op) -> bool {
    super::sem::lowering(op) == super::sem::Lowering::Lanes
}

/// A source as the interpreter's `resolve` takes it (VGPR, or a scalar/constant/literal
/// operand); `None` for what it refuses (LDS_DIRECT, reserved codes).
fn lsrc(gen: Gen, s: Src, lit: Option<u32>) -> Option<LSrc> {
    match src_kind(gen, s) {
        SrcKind::Vgpr(n) => Some(LSrc::V(n)),
        _ => src32(gen, s, lit).map(LSrc::S),
    }
}

/// Plan a lane instruction (VOP1, VOP2 or VOP3); `None` leaves it to the interpreter.
pub fn plan(gen: Gen, inst: &Inst) -> Option<LPlan> {
    if !known(inst.op) {
        return None;
    }
    if inst.op == Op::VMqsadU32U8 {
        return super::bytes::plan_mqsad(gen, inst).map(LPlan::Mqsad);
    }
    let lit = inst.literal;
    // (vdst field, src0, src1, abs, neg)
    let (vdst, s0, s1, abs, neg) = match (inst.enc, inst.fields) {
        (Enc::Vop1, Fields::Vop1 { vdst, src0 }) => (vdst, src0, Src(0), false, false),
        (Enc::Vop2, Fields::Vop2 { vdst, src0, vsrc1 }) => {
            // V_READLANE/V_WRITELANE's VOP2 VSRC1 field holds a scalar source code.
            (vdst, src0, Src(vsrc1 as u16), false, false)
        }
        (Enc::Vop3, Fields::Vop3(f)) => {
            if lit.is_some() {
                return None;
            }
            (f.vdst, f.src[0], f.src[1], f.abs & 1 != 0, f.neg & 1 != 0)
        }
        _ => return None,
    };
    let vop1 = inst.enc == Enc::Vop1 || inst.enc == Enc::Vop3;
    Some(match inst.op {
        Op::VReadlaneB32 if inst.enc != Enc::Vop1 => LPlan::Read {
            src: lsrc(gen, s0, lit)?,
            lane: Some(src32(gen, s1, lit)?),
            sdst: vdst & 127,
            abs,
            neg,
        },
        Op::VReadfirstlaneB32 if vop1 => LPlan::Read {
            src: lsrc(gen, s0, lit)?,
            lane: None,
            sdst: vdst & 127,
            abs,
            neg,
        },
        Op::VWritelaneB32 if inst.enc != Enc::Vop1 => {
            let LSrc::S(val) = lsrc(gen, s0, lit)? else {
                return None;
            };
            LPlan::Write {
                val,
                lane: src32(gen, s1, lit)?,
                vdst,
                abs,
                neg,
            }
        }
        Op::VMovrelsB32 | Op::VMovreldB32 | Op::VMovrelsdB32 if vop1 => {
            let kind = match inst.op {
                Op::VMovrelsB32 => Rel::S,
                Op::VMovreldB32 => Rel::D,
                _ => Rel::Sd,
            };
            let src = lsrc(gen, s0, lit)?;
            if kind != Rel::D && !matches!(src, LSrc::V(_)) {
                return None;
            }
            LPlan::Movrel(Movrel {
                kind,
                src,
                vdst,
                abs,
                neg,
            })
        }
        _ => return None,
    })
}

/// ABS then NEG on bit 31 of a scalar `i32`.
fn mods32(cx: &mut Cx, x: Value, abs: bool, neg: bool) -> Value {
    let mut x = x;
    if abs {
        x = cx.b.ins().band_imm_u(x, 0x7fff_ffff);
    }
    if neg {
        x = cx.b.ins().bxor_imm_u(x, 0x8000_0000u32 as i64);
    }
    x
}

/// Lane `lane` (an `i32` in 0..64) of `v[reg]`.
fn read_lane(cx: &mut Cx, reg: u8, lane: Value) -> Value {
    for c in 0..CHUNKS {
        cx.store_chunk(reg, c);
    }
    let l = cx.b.ins().uextend(cx.ptr, lane);
    let off = cx.b.ins().ishl_imm_u(l, 2);
    let at = cx.b.ins().iadd(cx.wave, off);
    cx.b.ins()
        .load(types::I32, mflags(), at, wave_off::vgpr_chunk(reg, 0))
}

/// Lane `lane` (constant) of `v[reg]`: its chunk stored if dirty, the one dword loaded.
/// (The wave's copy is read rather than the cached SSA value: what is stored is exactly
/// the register's bits, however the cache holds them.)
fn read_const_lane(cx: &mut Cx, reg: u8, lane: u32) -> Value {
    let lane = lane as usize & 63;
    cx.store_chunk(reg, lane / 4);
    cx.b.ins().load(
        types::I32,
        mflags(),
        cx.wave,
        wave_off::vgpr_chunk(reg, 0) + 4 * lane as i32,
    )
}

/// Emit a planned lane instruction at `pc`.
pub fn emit(cx: &mut Cx, p: &LPlan, pc: u32) {
    match *p {
        LPlan::Read {
            src,
            lane,
            sdst,
            abs,
            neg,
        } => {
            let x = match src {
                LSrc::S(o) => cx.read_s32(o),
                LSrc::V(r) => match lane {
                    Some(SOpnd::Const(k)) => read_const_lane(cx, r, k as u32),
                    None if cx.exec_known_ones() => read_const_lane(cx, r, 0),
                    Some(o) => {
                        let l = cx.read_s32(o);
                        let l = cx.b.ins().band_imm_u(l, 63);
                        read_lane(cx, r, l)
                    }
                    None => {
                        let e = cx.sreg64(crate::slots::EXEC_LO);
                        let tz = cx.b.ins().ctz(e);
                        let tz = cx.b.ins().ireduce(types::I32, tz);
                        // ctz(0) is 64: lane 0 when EXEC is 0.
                        let l = cx.b.ins().band_imm_u(tz, 63);
                        read_lane(cx, r, l)
                    }
                },
            };
            let x = mods32(cx, x, abs, neg);
            cx.set_sreg(sdst, x);
        }
        LPlan::Write {
            val,
            lane,
            vdst,
            abs,
            neg,
        } => {
            let x = cx.read_s32(val);
            let x = mods32(cx, x, abs, neg);
            let l = cx.read_s32(lane);
            let l = cx.b.ins().band_imm_u(l, 63);
            let xs = cx.splat(I32X4, x);
            let ls = cx.splat(I32X4, l);
            for c in 0..CHUNKS {
                let n = 4 * c as u32;
                let ids = cx.lanes32([n, n + 1, n + 2, n + 3]);
                let m = cx.b.ins().icmp(IntCC::Equal, ids, ls);
                cx.store_chunk(vdst, c);
                let old =
                    cx.b.ins()
                        .load(I32X4, mflags(), cx.wave, wave_off::vgpr_chunk(vdst, c));
                let v = cx.b.ins().bitselect(m, xs, old);
                cx.set_vreg(vdst, c, v);
            }
        }
        LPlan::Movrel(m) => emit_movrel(cx, m, pc),
        LPlan::Mqsad(q) => super::bytes::emit_mqsad(cx, &q),
    }
}

/// `wave.vgpr[base + M0]` (the index checked by the caller).
fn rel_addr(cx: &mut Cx, m0: Value, base: u8) -> Value {
    let m = cx.b.ins().uextend(cx.ptr, m0);
    let off = cx.b.ins().imul_imm_s(m, 256);
    let at = cx.b.ins().iadd(cx.wave, off);
    cx.b.ins()
        .iadd_imm_s(at, wave_off::vgpr_chunk(base, 0) as i64)
}

fn emit_movrel(cx: &mut Cx, mv: Movrel, pc: u32) {
    let (kind, src, vdst) = (mv.kind, mv.src, mv.vdst);
    let m0 = cx.sreg(crate::slots::M0);
    // base + M0 <= 255 for each register indexed through M0.
    let mut fail: Option<Value> = None;
    let mut limit = |cx: &mut Cx, base: u8| {
        let f =
            cx.b.ins()
                .icmp_imm_s(IntCC::UnsignedGreaterThan, m0, 255 - base as i64);
        fail = Some(match fail {
            None => f,
            Some(g) => cx.b.ins().bor(g, f),
        });
    };
    if kind != Rel::S {
        limit(cx, vdst);
    }
    if let (Rel::S | Rel::Sd, LSrc::V(n)) = (kind, src) {
        limit(cx, n);
    }
    if let Some(f) = fail {
        check_or_helper(cx, f, pc);
    }
    // The uniform source (Rel::D) and the EXEC masks before the cache is emptied.
    let uni = match src {
        LSrc::S(o) => {
            let x = cx.read_s32(o);
            Some(cx.splat(I32X4, x))
        }
        LSrc::V(_) => None,
    };
    let exec: Vec<Option<Value>> = (0..CHUNKS).map(|c| cx.exec_lanes(c)).collect();
    for c in 0..CHUNKS {
        cx.end_chunk(c);
    }
    let src_at = match (kind, src) {
        (Rel::D, LSrc::V(n)) => Some(
            cx.b.ins()
                .iadd_imm_s(cx.wave, wave_off::vgpr_chunk(n, 0) as i64),
        ),
        (_, LSrc::V(n)) => Some(rel_addr(cx, m0, n)),
        (_, LSrc::S(_)) => None,
    };
    let dst_at = if kind == Rel::S {
        cx.b.ins()
            .iadd_imm_s(cx.wave, wave_off::vgpr_chunk(vdst, 0) as i64)
    } else {
        rel_addr(cx, m0, vdst)
    };
    // Chunk c of the destination depends only on chunk c of the source: copying chunk by
    // chunk is right even when they are the same register.
    for (c, m) in exec.iter().enumerate() {
        let x = match (src_at, uni) {
            (Some(a), _) => cx.b.ins().load(I32X4, mflags(), a, 16 * c as i32),
            (None, Some(u)) => u,
            (None, None) => cx.splat32(0),
        };
        let x = sign_mods(cx, x, mv.abs, mv.neg, false);
        let x = match m {
            None => x,
            Some(m) => {
                let old = cx.b.ins().load(I32X4, mflags(), dst_at, 16 * c as i32);
                cx.b.ins().bitselect(*m, x, old)
            }
        };
        cx.b.ins().store(mflags(), x, dst_at, 16 * c as i32);
    }
}
