//! Memory instructions lowered inline: FLAT global loads, stores and 32-bit atomics
//! (`global`), DS reads and writes of the LDS (`lds`) and scalar loads (`scalar`).
//!
//! Every access is checked before any lane touches memory, once per instruction over all
//! active lanes: the span from the lowest to the highest address must lie in one mapped
//! global region (a one-entry cache of the last region in `JitCtx`, refilled by
//! `global::mem_span`), or in the LDS with every address naturally aligned. When the check
//! fails — the interpreter would report an error, or the lanes straddle two regions — a
//! cold side exit stores the state and runs the instruction through the interpreter
//! helper, which then reports its own error (pc, lane, address) or performs the access;
//! the dispatcher continues after it. The fast path reads and writes each lane's bytes at
//! its host address in lane order, so results are bit-identical to the interpreter's
//! (same-address stores: the highest lane wins), and inactive lanes are pointed at
//! `JitCtx::sink`, never at guest addresses.
//!
//! An instruction is lowered here only in the operand forms that cannot fail except by
//! the address (registers in range, no GDS/TFE); every other form stays with the helper.

pub mod global;
pub mod lds;
pub mod scalar;

use cranelift_codegen::ir::types::{self, I32X4, I64X2};
use cranelift_codegen::ir::{Endianness, InstBuilder, MemFlagsData, Value};
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::Inst;

use crate::block::{Cx, CHUNKS};

/// A memory instruction planned for inline lowering.
#[derive(Clone, Copy, Debug)]
pub enum MPlan {
    Flat(global::FlatPlan),
    Ds(lds::DsPlan),
    Smem(scalar::SmemPlan),
}

/// Plan `inst` for inline lowering; `None` leaves it to the interpreter helper.
pub fn plan(gen: Gen, inst: &Inst) -> Option<MPlan> {
    if let Some(p) = global::plan(inst) {
        return Some(MPlan::Flat(p));
    }
    if let Some(p) = lds::plan(inst) {
        return Some(MPlan::Ds(p));
    }
    scalar::plan(gen, inst).map(MPlan::Smem)
}

/// Where an instruction sits in its unit: its pc, and how many instructions of the unit
/// follow it (their budget is given back when a side exit leaves the unit after it).
#[derive(Clone, Copy, Debug)]
pub struct At {
    pub pc: u32,
    pub rest: u32,
}

/// Emit `p`. The register cache is in any state on entry; vector values are stored and
/// dropped chunk by chunk as a segment does.
pub fn emit(cx: &mut Cx, p: &MPlan, at: At) {
    match p {
        MPlan::Flat(f) => global::emit(cx, f, at),
        MPlan::Ds(d) => lds::emit(cx, d, at),
        MPlan::Smem(s) => scalar::emit(cx, s, at),
    }
}

impl MPlan {
    /// The address VGPRs (first, count) of a vector load; `None` for anything else.
    fn load_addr(&self) -> Option<(u8, u8)> {
        match self {
            MPlan::Flat(f) if !f.store && f.atomic.is_none() => Some((f.addr, 2)),
            MPlan::Ds(d)
                if matches!(d.kind, lds::DsKind::Read { .. } | lds::DsKind::Read2 { .. }) =>
            {
                Some((d.addr, 1))
            }
            _ => None,
        }
    }

    /// The VGPRs a vector load writes (first, count).
    fn load_dst(&self) -> (u8, u32) {
        match self {
            MPlan::Flat(f) => (f.reg, f.size.div_ceil(4)),
            MPlan::Ds(d) => {
                let n = d.size.div_ceil(4);
                let two = matches!(d.kind, lds::DsKind::Read2 { .. });
                (d.vdst, if two { 2 * n } else { n })
            }
            MPlan::Smem(_) => (0, 0),
        }
    }
}

/// Most loads a run holds (their checks and pointers stay live across the run's chunks).
const MAX_RUN: usize = 8;

/// Whether the vector load `p` may join `run`, a run of vector loads emitted together
/// (`emit_run`): every check first, then chunk by chunk each load's lanes. Loads only read
/// memory, so chunk order is as good as program order, provided no load's address comes
/// from an earlier load of the run.
pub fn joins(run: &[(MPlan, At)], p: &MPlan) -> bool {
    let Some((a, k)) = p.load_addr() else {
        return false;
    };
    run.len() < MAX_RUN
        && run.iter().all(|(q, _)| {
            let (d, n) = q.load_dst();
            q.load_addr().is_some() && (a as u32 + k as u32 <= d as u32 || d as u32 + n <= a as u32)
        })
}

/// Emit a run of memory instructions that `joins` accepted (or one instruction). A check
/// that fails leaves through the side exit of the run's first instruction: the
/// interpreter runs that one and the dispatcher continues after it.
pub fn emit_run(cx: &mut Cx, run: &[(MPlan, At)]) {
    let [(p0, at0), ..] = run else {
        return;
    };
    if run.len() == 1 {
        return emit(cx, p0, *at0);
    }
    settle(cx);
    let mut deltas = Vec::with_capacity(run.len());
    for (p, _) in run {
        deltas.push(match p {
            MPlan::Flat(f) => Some(global::check(cx, f, *at0)),
            MPlan::Ds(d) => {
                lds::check(cx, d, *at0);
                None
            }
            MPlan::Smem(_) => None,
        });
    }
    let lbase = lds::lds_base(cx);
    let sink = sink_ptr(cx);
    for c in 0..CHUNKS {
        let mut reads = lds::ReadPtrs::new();
        for ((p, _), delta) in run.iter().zip(&deltas) {
            match (p, delta) {
                (MPlan::Flat(f), Some(d)) => global::chunk(cx, f, *d, sink, c),
                (MPlan::Ds(d), _) => lds::chunk(cx, d, lbase, sink, &mut reads, c),
                _ => {}
            }
        }
        cx.end_chunk(c);
    }
}

/// Flags of a guest access at a checked host address (any alignment).
fn host_flags() -> MemFlagsData {
    let mut f = MemFlagsData::new();
    f.set_notrap();
    f.set_endianness(Endianness::Little);
    f
}

/// Make the vector state of the wave memory's: every dirty chunk stored and dropped, lane
/// masks in scalar form. After this, VGPR chunks may be loaded straight from the wave.
fn settle(cx: &mut Cx) {
    for c in 0..CHUNKS {
        cx.end_chunk(c);
    }
    cx.materialize_all();
}

/// Chunk `c` of `v[reg]` as stored in the wave, without entering the register cache (the
/// per-instruction check reads every chunk once; the lanes are read again chunk by chunk).
fn vreg_stored(cx: &mut Cx, reg: u8, c: usize) -> Value {
    let off = crate::ctx::wave_off::vgpr_chunk(reg, c);
    cx.b.ins().load(I32X4, crate::block::mflags(), cx.wave, off)
}

/// Branch to a cold side exit that runs the instruction `at` through the interpreter when
/// `fail` (an `i8` truth value) holds.
fn side_exit_if(cx: &mut Cx, fail: Value, at: At) {
    let side = cx.b.create_block();
    let cont = cx.b.create_block();
    cx.b.set_cold_block(side);
    cx.b.ins().brif(fail, side, &[], cont, &[]);
    cx.b.switch_to_block(side);
    cx.b.seal_block(side);
    side_exit(cx, at);
    cx.b.switch_to_block(cont);
    cx.b.seal_block(cont);
}

/// In a cold block: store the state, give back the budget of the instructions after `at`
/// (the unit took it at its header; the dispatcher runs them next) and run `at` through
/// the interpreter, leaving the unit.
fn side_exit(cx: &mut Cx, at: At) {
    cx.flush_side();
    if at.rest > 0 {
        let f = crate::block::mflags();
        let b =
            cx.b.ins()
                .load(types::I64, f, cx.jctx, crate::ctx::OFF_BUDGET);
        let b = cx.b.ins().iadd_imm_s(b, at.rest as i64);
        cx.b.ins().store(f, b, cx.jctx, crate::ctx::OFF_BUDGET);
    }
    crate::gcn::side_exit_through_helper(cx, &[at.pc]);
}

/// Horizontal unsigned minimum (`max` false) or maximum of an `i32x4`, as an `i32`.
fn reduce(cx: &mut Cx, v: Value, max: bool) -> Value {
    let mut acc = cx.b.ins().extractlane(v, 0);
    for l in 1..4u8 {
        let x = cx.b.ins().extractlane(v, l);
        acc = if max {
            cx.b.ins().umax(acc, x)
        } else {
            cx.b.ins().umin(acc, x)
        };
    }
    acc
}

/// Horizontal OR of an `i32x4`.
fn reduce_or(cx: &mut Cx, v: Value) -> Value {
    let mut acc = cx.b.ins().extractlane(v, 0);
    for l in 1..4u8 {
        let x = cx.b.ins().extractlane(v, l);
        acc = cx.b.ins().bor(acc, x);
    }
    acc
}

/// The four host addresses of chunk `c`'s lanes: `delta + (hi:lo)` (hi absent: zero), and
/// `sink` for lanes outside `mask`.
fn lane_ptrs(
    cx: &mut Cx,
    lo: Value,
    hi: Option<Value>,
    mask: Option<Value>,
    delta: Value,
    sink: Value,
) -> [Value; 4] {
    let d = cx.splat(I64X2, delta);
    let mut out = [lo; 4];
    for half in 0..2 {
        let mut a = if half == 0 {
            cx.b.ins().uwiden_low(lo)
        } else {
            cx.b.ins().uwiden_high(lo)
        };
        if let Some(h) = hi {
            let h = if half == 0 {
                cx.b.ins().uwiden_low(h)
            } else {
                cx.b.ins().uwiden_high(h)
            };
            let h = cx.b.ins().ishl_imm_u(h, 32);
            a = cx.b.ins().bor(a, h);
        }
        let mut p = cx.b.ins().iadd(a, d);
        if let Some(m) = mask {
            let mm = if half == 0 {
                cx.b.ins().swiden_low(m)
            } else {
                cx.b.ins().swiden_high(m)
            };
            let s = cx.splat(I64X2, sink);
            p = cx.b.ins().bitselect(mm, p, s);
        }
        out[2 * half] = cx.b.ins().extractlane(p, 0);
        out[2 * half + 1] = cx.b.ins().extractlane(p, 1);
    }
    out
}

/// Load a lane's value of `size` bytes (1 or 2, extended as `sext` says; or a dword at
/// byte offset `off`) from host address `p`.
fn load_lane(cx: &mut Cx, p: Value, size: u32, sext: bool, off: i32) -> Value {
    let f = host_flags();
    match (size, sext) {
        (1, false) => cx.b.ins().uload8(types::I32, f, p, off),
        (1, true) => cx.b.ins().sload8(types::I32, f, p, off),
        (2, false) => cx.b.ins().uload16(types::I32, f, p, off),
        (2, true) => cx.b.ins().sload16(types::I32, f, p, off),
        _ => cx.b.ins().load(types::I32, f, p, off),
    }
}

/// Store the low `size` bytes (1, 2 or 4) of `v` at host address `p` + `off`.
fn store_lane(cx: &mut Cx, p: Value, v: Value, size: u32, off: i32) {
    let f = host_flags();
    match size {
        1 => {
            cx.b.ins().istore8(f, v, p, off);
        }
        2 => {
            cx.b.ins().istore16(f, v, p, off);
        }
        _ => {
            cx.b.ins().store(f, v, p, off);
        }
    }
}

/// Four lane values gathered into an `i32x4`.
fn gather(cx: &mut Cx, vals: [Value; 4]) -> Value {
    let mut v = cx.b.ins().scalar_to_vector(I32X4, vals[0]);
    for (l, x) in vals.iter().enumerate().skip(1) {
        v = cx.b.ins().insertlane(v, *x, l as u8);
    }
    v
}

/// The host address of `JitCtx::sink`.
fn sink_ptr(cx: &mut Cx) -> Value {
    cx.b.ins().iadd_imm_s(cx.jctx, crate::ctx::OFF_SINK as i64)
}

/// Whether any lane is active (an `i8` truth value), `None` when EXEC is known all ones.
fn any_active(cx: &mut Cx) -> Option<Value> {
    if cx.exec_known_ones() {
        return None;
    }
    let e = cx.sreg64(126);
    Some(
        cx.b.ins()
            .icmp_imm_s(cranelift_codegen::ir::condcodes::IntCC::NotEqual, e, 0),
    )
}
