//! VINTRP inline: V_INTERP_P1_F32, V_INTERP_P2_F32 and V_INTERP_MOV_F32, in the VINTRP
//! encoding and in GCN 1.2's VOP3 form (`wavejit_interp::vintrp` defines them;
//! 001_43f5507a70f72cb4.txt, ERRATA VINTRP 1-5).
//!
//! The parameter a lane reads depends only on M0 and the lane's quad — and a chunk of the
//! register cache *is* a quad — so an instruction is lowered as:
//!
//! * once per instruction, scalar code from M0: `k` = M0[15:0] + 48 × ATTR × NUMPRIM (the
//!   byte offset of the attribute's first primitive), NEWPRIMMASK, and the bounds check.
//!   PRIMID grows with the quad, so the highest address any active lane reads is that of
//!   the last quad with an EXEC bit set, for the parameter with the highest offset: one
//!   compare decides whether the interpreter would fail. If it would, a cold side exit
//!   stores the state and runs the instructions of the segment up to this one through the
//!   interpreter helper, which then reports the error itself (same pc, lane, address);
//! * per chunk (quad q): PRIMID = popcount(NEWPRIMMASK & (2^q − 1)), a scalar load of each
//!   parameter at `k + 48 × PRIMID + 4 × dword`, splat to the quad's four lanes; the
//!   multiply-add is the ordinary unfused f32 `Mad` lowering (`float_ops.rs`), so MODE's flushes,
//!   the canonical NaN and VOP3's OMOD/CLAMP/ABS/NEG are those of every other f32 operation.
//!
//! Quads past the last active one may address beyond the LDS: their PRIMID is clamped to
//! the last active quad's (their lanes are not written). With no active lane at all and an
//! out-of-bounds address, the loads read `JitCtx::zeros` instead.
//!
//! The f16 forms (V_INTERP_P1LL_F16, V_INTERP_P1LV_F16, V_INTERP_P2_F16) stay with the
//! interpreter helper.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, Endianness, InstBuilder, MemFlagsData, Value};
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::operand::InterpAttr;
use wavejit_isa::gcn::{Enc, Fields, Inst, Op};

use super::sem::{self, Sem};
use super::vocab::{FOp, Fmt, IOp, Vop2Form};
use super::vplan::{Attr, VPlan, VSrc};
use crate::block::Cx;
use crate::ctx::{OFF_LDS_BASE, OFF_LDS_LEN, OFF_ZEROS};

/// P0, P10, P20: which parameter of the 12-dword block a source reads.
pub const P0: u8 = 0;
pub const P10: u8 = 1;
pub const P20: u8 = 2;

/// Whether `op` is one of the interpolation operations lowered here (the table's `vintrp`
/// cell).
pub fn lowered(op: Op) -> bool {
    sem::lowering(op) == sem::Lowering::Vintrp
}

/// The dword of parameter `which` of channel `chan` within a primitive's block
/// (`interp::vintrp::param_dword`).
pub fn dword(which: u8, chan: u8) -> u32 {
    let chan = (chan & 3) as u32;
    match which {
        P0 => 2 * chan,
        P10 => 2 * chan + 1,
        _ => chan + 8,
    }
}

/// The parameter V_INTERP_MOV's operand names (0 P10, 1 P20, 2 P0); others are the
/// interpreter's error.
fn mov_param(p: u16) -> Option<u8> {
    match p {
        0 => Some(P10),
        1 => Some(P20),
        2 => Some(P0),
        _ => None,
    }
}

/// Plan an interpolation instruction; `None` leaves it to the interpreter.
pub fn plan(_gen: Gen, inst: &Inst, mode: u32) -> Option<VPlan> {
    if !lowered(inst.op) {
        return None;
    }
    let mov = inst.op == Op::VInterpMovF32;
    // (vdst, coordinate VGPR or MOV parameter, attribute, ABS/NEG of the coordinate, CLAMP,
    // OMOD)
    let (vdst, vsrc, at, abs, neg, clamp, omod) = match (inst.enc, inst.fields) {
        (Enc::Vintrp, Fields::Vintrp(f)) => {
            let at = Attr {
                attr: f.attr & 63,
                chan: f.chan & 3,
            };
            (f.vdst, f.vsrc as u16, at, false, false, false, 0)
        }
        (Enc::Vop3, Fields::Vop3(f)) => {
            let a = InterpAttr::from_src(f.src[0]);
            let at = Attr {
                attr: a.attr & 63,
                chan: a.chan & 3,
            };
            let vsrc = if mov {
                f.src[1].0
            } else {
                // The coordinate must be a VGPR (else the interpreter's error).
                f.src[1].as_vgpr()? as u16
            };
            // Only source 1 (the coordinate) takes ABS/NEG; MOV takes no modifiers.
            (
                f.vdst,
                vsrc,
                at,
                f.abs & 2 != 0,
                f.neg & 2 != 0,
                f.clamp && !mov,
                if mov { 0 } else { f.omod },
            )
        }
        _ => return None,
    };
    let (sem, src) = match inst.op {
        Op::VInterpP1F32 => (
            Sem::Float(Fmt::F32, FOp::Mad, Vop2Form::Plain),
            [VSrc::V(vsrc as u8), VSrc::Lds(P10), VSrc::Lds(P0)],
        ),
        Op::VInterpP2F32 => (
            Sem::Float(Fmt::F32, FOp::Mad, Vop2Form::Plain),
            [VSrc::V(vsrc as u8), VSrc::Lds(P20), VSrc::V(vdst)],
        ),
        _ => (
            Sem::Int(IOp::Mov),
            [VSrc::Lds(mov_param(vsrc)?), VSrc::Const(0), VSrc::Const(0)],
        ),
    };
    let p = VPlan {
        op: inst.op,
        sem,
        vdst: Some(vdst),
        sdst: None,
        to_exec: false,
        src,
        mask_src: None,
        abs: abs as u8,
        neg: neg as u8,
        clamp,
        omod,
        sdwa: None,
        dpp: None,
        cross_lane: false,
        interp: Some(at),
    };
    sem::lowered_under(p.sem, mode).then_some(p)
}

/// What the chunks of one interpolation instruction need: the address of the
/// attribute's first primitive block, NEWPRIMMASK, and (EXEC not known all ones) the
/// PRIMID no quad may exceed.
#[derive(Clone, Copy, Debug)]
pub struct LdsUni {
    ptr: Value,
    mask: Value,
    lim: Option<Value>,
}

/// Flags of an LDS read: in bounds (checked), maybe unaligned (M0's offset is any byte).
fn lds_flags() -> MemFlagsData {
    let mut f = MemFlagsData::new();
    f.set_notrap();
    f.set_endianness(Endianness::Little);
    f
}

/// How far `p` reads: (attribute, highest dword of the parameters it reads).
fn reach(p: &VPlan) -> Option<(u8, u32)> {
    let at = p.interp?;
    let n = p.sem.shape().nsrc as usize;
    let max_dw = p.src[..n]
        .iter()
        .filter_map(|s| match s {
            VSrc::Lds(w) => Some(dword(*w, at.chan)),
            _ => None,
        })
        .max()?;
    Some((at.attr, max_dw))
}

/// Which interpolation of a segment (`plans`, in program order) can check the bounds for
/// all of them, when there are several: the one reading furthest. Every one reads at
/// `M0[15:0] + 48 × (ATTR × NUMPRIM + PRIMID) + 4 × dword` with the same M0 and EXEC
/// (no instruction of the segment writes them), so the highest attribute reads furthest
/// (48 × NUMPRIM ≥ 48 more bytes per attribute, more than the 44 bytes of the highest
/// dword), then the highest dword. When its check fails, the segment's instructions up
/// to it run through the interpreter, which fails at the first one out of bounds — as
/// each instruction's own check would have had it. `None`: each checks its own.
pub fn covering(plans: &[&VPlan]) -> Option<usize> {
    let writes_m0_or_exec = |p: &VPlan| {
        // A pair from s123 to s127 holds M0 or a half of EXEC.
        p.to_exec || matches!(p.sdst, Some(s) if (123..=127).contains(&s))
    };
    if plans.iter().any(|p| writes_m0_or_exec(p)) {
        return None;
    }
    let reads: Vec<(usize, (u8, u32))> = plans
        .iter()
        .enumerate()
        .filter_map(|(i, p)| Some((i, reach(p)?)))
        .collect();
    if reads.len() < 2 {
        return None;
    }
    reads.iter().max_by_key(|(_, r)| *r).map(|(i, _)| *i)
}

/// M0's parts the interpolations read, once per M0 value: (M0[15:0], NEWPRIMMASK, its
/// population count).
fn m0_parts(cx: &mut Cx) -> (Value, Value, Value) {
    let m0 = cx.sreg(124);
    if let Some((v, parts)) = cx.vintrp_m0 {
        if v == m0 {
            return parts;
        }
    }
    let base = cx.b.ins().band_imm_u(m0, 0xffff);
    let sh = cx.b.ins().ushr_imm_u(m0, 16);
    let mask = cx.b.ins().band_imm_u(sh, 0x7fff);
    let cnt = cx.b.ins().popcnt(mask);
    cx.vintrp_m0 = Some((m0, (base, mask, cnt)));
    (base, mask, cnt)
}

/// The per-instruction scalar part of `p`: addresses from M0 and, if `check`, the
/// bounds check, with its side exit running `pcs` (the segment's instructions up to this
/// one) through the interpreter (`covering`: one instruction may check for others).
pub fn uniforms(cx: &mut Cx, p: &VPlan, pcs: &[u32], check: bool) -> Option<LdsUni> {
    let at = p.interp?;
    let (_, max_dw) = reach(p)?;
    let (base, mask, cnt) = m0_parts(cx);
    // k = M0[15:0] + 4 × 12 × ATTR × NUMPRIM (ERRATA VINTRP 2-3).
    let k = if at.attr == 0 {
        base
    } else {
        let np = cx.b.ins().iadd_imm_s(cnt, 1);
        let ka = cx.b.ins().imul_imm_s(np, 48 * at.attr as i64);
        cx.b.ins().iadd(base, ka)
    };
    let exec_ones = cx.exec_known_ones();
    if exec_ones && !check {
        // In bounds: an earlier check covered this read (every lane is active).
        let lbase =
            cx.b.ins()
                .load(cx.ptr, crate::block::mflags(), cx.jctx, OFF_LDS_BASE);
        let k = cx.b.ins().uextend(cx.ptr, k);
        let ptr = cx.b.ins().iadd(lbase, k);
        return Some(LdsUni {
            ptr,
            mask,
            lim: None,
        });
    }
    // PRIMID of the last quad with an active lane, and whether any lane is active.
    let (prim_last, any) = if exec_ones {
        (cnt, None)
    } else {
        let e = cx.sreg64(126);
        let lz = cx.b.ins().clz(e);
        let c63 = cx.iconst64(63);
        let top = cx.b.ins().isub(c63, lz);
        let q = cx.b.ins().ushr_imm_u(top, 2);
        let q = cx.b.ins().ireduce(types::I32, q);
        let q = cx.b.ins().band_imm_u(q, 15);
        let one = cx.iconst32(1);
        let below = cx.b.ins().ishl(one, q);
        let below = cx.b.ins().iadd_imm_s(below, -1);
        let pm = cx.b.ins().band(mask, below);
        let pl = cx.b.ins().popcnt(pm);
        let any = cx.b.ins().icmp_imm_s(IntCC::NotEqual, e, 0);
        (pl, Some(any))
    };
    // The end of the highest read: k + 48 × PRIMID + 4 × dword + 4 (< 2^18: no overflow).
    let off = cx.b.ins().imul_imm_s(prim_last, 48);
    let last = cx.b.ins().iadd(k, off);
    let end = cx.b.ins().iadd_imm_s(last, 4 * max_dw as i64 + 4);
    let end = cx.b.ins().uextend(types::I64, end);
    let len =
        cx.b.ins()
            .load(types::I64, crate::block::mflags(), cx.jctx, OFF_LDS_LEN);
    let oob = cx.b.ins().icmp(IntCC::UnsignedGreaterThan, end, len);
    if check {
        let fail = match any {
            None => oob,
            Some(a) => cx.b.ins().band(oob, a),
        };
        crate::exit::if_cold(cx, fail, |cx| {
            cx.flush_side();
            crate::exit::through_helper(cx, pcs);
        });
    }
    let lbase =
        cx.b.ins()
            .load(cx.ptr, crate::block::mflags(), cx.jctx, OFF_LDS_BASE);
    let k = cx.b.ins().uextend(cx.ptr, k);
    let ptr = cx.b.ins().iadd(lbase, k);
    if exec_ones {
        return Some(LdsUni {
            ptr,
            mask,
            lim: None,
        });
    }
    // No lane active: the addresses may be anywhere; read zeros (the values are unused).
    let zp = cx.b.ins().iadd_imm_s(cx.jctx, OFF_ZEROS as i64);
    let ptr = cx.b.ins().select(oob, zp, ptr);
    let z = cx.iconst32(0);
    let lim = cx.b.ins().select(oob, z, prim_last);
    Some(LdsUni {
        ptr,
        mask,
        lim: Some(lim),
    })
}

/// Parameter `which` of channel `chan` for the quad of chunk `c`, as an `i32`.
pub fn param(cx: &mut Cx, u: &LdsUni, chan: u8, which: u8, c: usize) -> Value {
    // The quads before this one: a constant mask, or in a chunk loop's body (emitted as
    // chunk 0) `(1 << chunk) - 1` of the loop's chunk number.
    let before = match cx.loop_chunk {
        Some(k) => {
            let one = cx.iconst32(1);
            let bit = cx.b.ins().ishl(one, k);
            Some(cx.b.ins().iadd_imm_s(bit, -1))
        }
        None => None,
    };
    let addr = if c == 0 && before.is_none() {
        u.ptr
    } else {
        let pm = match before {
            Some(m) => cx.b.ins().band(u.mask, m),
            None => cx.b.ins().band_imm_u(u.mask, (1i64 << c) - 1),
        };
        let prim = cx.b.ins().popcnt(pm);
        let prim = match u.lim {
            Some(l) => cx.b.ins().umin(prim, l),
            None => prim,
        };
        let off = cx.b.ins().imul_imm_s(prim, 48);
        let off = cx.b.ins().uextend(cx.ptr, off);
        cx.b.ins().iadd(u.ptr, off)
    };
    let at = 4 * dword(which, chan) as i32;
    cx.b.ins().load(types::I32, lds_flags(), addr, at)
}
