//! What every inline memory access shares: where the instruction sits (`At`), making the
//! wave's registers memory's before a check (`settle`), cold side exits through the
//! interpreter, horizontal reductions for the checks, per-lane host pointers (inactive
//! lanes at `JitCtx::sink`), and lane loads/stores/gathers.

use cranelift_codegen::ir::types::{self, I32X4, I64X2};
use cranelift_codegen::ir::{Endianness, InstBuilder, MemFlagsData, Value};

use crate::block::{Cx, CHUNKS};

/// Where an instruction sits in its unit: its pc, how many instructions of the unit
/// follow it (their budget is given back when a side exit leaves the unit after it), and
/// how many memory instructions come before it in the unit (its region cache slot).
#[derive(Clone, Copy, Debug)]
pub struct At {
    pub pc: u32,
    pub rest: u32,
    pub nth: u32,
}

/// Flags of a guest access at a checked host address (any alignment).
pub(super) fn host_flags() -> MemFlagsData {
    let mut f = MemFlagsData::new();
    f.set_notrap();
    f.set_endianness(Endianness::Little);
    f
}

/// Make the vector state of the wave memory's: every dirty chunk stored and dropped, lane
/// masks in scalar form. After this, VGPR chunks may be loaded straight from the wave.
pub(super) fn settle(cx: &mut Cx) {
    for c in 0..CHUNKS {
        cx.end_chunk(c);
    }
    cx.materialize_all();
}

/// Chunk `c` of `v[reg]` as stored in the wave, without entering the register cache (the
/// per-instruction check reads every chunk once; the lanes are read again chunk by chunk).
pub(super) fn vreg_stored(cx: &mut Cx, reg: u8, c: usize) -> Value {
    let off = crate::ctx::wave_off::vgpr_chunk(reg, c);
    cx.b.ins().load(I32X4, crate::block::mflags(), cx.wave, off)
}

/// Branch to a cold side exit that runs the instruction `at` through the interpreter when
/// `fail` (an `i8` truth value) holds.
pub(super) fn side_exit_if(cx: &mut Cx, fail: Value, at: At) {
    crate::exit::if_cold(cx, fail, |cx| side_exit(cx, at));
}

/// In a cold block: store the state, give back the budget of the instructions after `at`
/// (the unit took it at its header; the dispatcher runs them next) and run `at` through
/// the interpreter, leaving the unit.
pub(super) fn side_exit(cx: &mut Cx, at: At) {
    cx.flush_side();
    if at.rest > 0 {
        let f = crate::block::mflags();
        let b =
            cx.b.ins()
                .load(types::I64, f, cx.jctx, crate::ctx::OFF_BUDGET);
        let b = cx.b.ins().iadd_imm_s(b, at.rest as i64);
        cx.b.ins().store(f, b, cx.jctx, crate::ctx::OFF_BUDGET);
    }
    crate::exit::through_helper(cx, &[at.pc]);
}

/// Horizontal unsigned minimum (`max` false) or maximum of an `i32x4`, as an `i32`: two
/// lane swaps (`pshufd`) and vector min/max steps, then lane 0 (five host instructions
/// where lane by lane takes ten).
pub(super) fn reduce(cx: &mut Cx, v: Value, max: bool) -> Value {
    fold_lanes(cx, v, |cx, a, b| {
        if max {
            cx.b.ins().umax(a, b)
        } else {
            cx.b.ins().umin(a, b)
        }
    })
}

/// Byte masks of a `shuffle` swapping an `i32x4`'s 64-bit halves, and its lanes within
/// each half.
const SWAP_HALVES: [u8; 16] = [8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7];
const SWAP_PAIRS: [u8; 16] = [4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11];

/// `op` of an `i32x4`'s four lanes (associative and commutative), as an `i32`: `op` of
/// the vector and its halves swapped, then of that and its pairs swapped, lane 0.
fn fold_lanes(cx: &mut Cx, v: Value, op: impl Fn(&mut Cx, Value, Value) -> Value) -> Value {
    let mut acc = v;
    for mask in [SWAP_HALVES, SWAP_PAIRS] {
        let v8 = cx.cast(types::I8X16, acc);
        let imm = cx.b.func.dfg.immediates.push(mask.to_vec().into());
        let s = cx.b.ins().shuffle(v8, v8, imm);
        let s = cx.cast(I32X4, s);
        acc = op(cx, acc, s);
    }
    cx.b.ins().extractlane(acc, 0)
}

/// A store to `JitCtx::sink` (nothing reads it) at the head of a path that reads the
/// wave's registers again: Cranelift's redundant-load elimination would otherwise reuse
/// the values the check before the branch loaded (no store in between), keeping all of
/// them live into the path — more vectors than registers, spilled on the common path too.
pub(super) fn load_fence(cx: &mut Cx) {
    let z = cx.b.ins().iconst(types::I32, 0);
    let f = crate::block::mflags();
    cx.b.ins().store(f, z, cx.jctx, crate::ctx::OFF_SINK);
}

/// Lane 0 of an `i32x4` in every lane (a byte shuffle).
pub(super) fn lane0(cx: &mut Cx, v: Value) -> Value {
    const LANE0: [u8; 16] = [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3];
    let v8 = cx.cast(types::I8X16, v);
    let imm = cx.b.func.dfg.immediates.push(LANE0.to_vec().into());
    let s = cx.b.ins().shuffle(v8, v8, imm);
    cx.cast(I32X4, s)
}

/// Horizontal OR of an `i32x4`.
pub(super) fn reduce_or(cx: &mut Cx, v: Value) -> Value {
    fold_lanes(cx, v, |cx, a, b| cx.b.ins().bor(a, b))
}

/// The four host addresses of chunk `c`'s lanes: `delta + (hi:lo)` (hi absent: zero), and
/// `sink` for lanes outside `mask`.
pub(super) fn lane_ptrs(
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
pub(super) fn load_lane(cx: &mut Cx, p: Value, size: u32, sext: bool, off: i32) -> Value {
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
pub(super) fn store_lane(cx: &mut Cx, p: Value, v: Value, size: u32, off: i32) {
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
pub(super) fn gather(cx: &mut Cx, vals: [Value; 4]) -> Value {
    let mut v = cx.b.ins().scalar_to_vector(I32X4, vals[0]);
    for (l, x) in vals.iter().enumerate().skip(1) {
        v = cx.b.ins().insertlane(v, *x, l as u8);
    }
    v
}

/// The host address of `JitCtx::sink`.
pub(super) fn sink_ptr(cx: &mut Cx) -> Value {
    cx.b.ins().iadd_imm_s(cx.jctx, crate::ctx::OFF_SINK as i64)
}

/// Whether any lane is active (an `i8` truth value), `None` when EXEC is known all ones.
pub(super) fn any_active(cx: &mut Cx) -> Option<Value> {
    if cx.exec_known_ones() {
        return None;
    }
    let e = cx.sreg64(crate::slots::EXEC_LO);
    Some(
        cx.b.ins()
            .icmp_imm_s(cranelift_codegen::ir::condcodes::IntCC::NotEqual, e, 0),
    )
}
