//! DS reads and writes of the LDS inline (`wavejit_interp::mem::ds` defines them): the
//! one-address forms of 1-16 bytes (sub-dword reads zero- or sign-extended), the
//! two-address `read2`/`write2` forms (with `st64`) and the 32-bit atomics (lane by lane
//! in lane order, a plain load and store each: a workgroup's LDS is only ever touched by
//! the one thread running its waves).
//!
//! The interpreter fails a lane whose address is not naturally aligned or runs past the
//! LDS. Addresses are `base + constant`, so one compare of the highest active base and
//! one test of the OR of the active addresses' low bits decide whether any lane would
//! fail; if so, the side exit lets the interpreter report it.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types;
use cranelift_codegen::ir::{AbiParam, InstBuilder, Signature, Value};
use cranelift_codegen::isa::CallConv;
use wavejit_interp::mem::atomic::AtomicOp;
use wavejit_isa::gcn::DsFields;
use wavejit_isa::gcn::{Fields, Inst, Op};

use super::access::{
    any_active, gather, lane0, lane_ptrs, load_fence, load_lane, reduce, settle, side_exit_if,
    sink_ptr, store_lane, vreg_stored, At,
};
use crate::block::{mflags, Cx, CHUNKS};
use crate::ctx::{OFF_LDS_BASE, OFF_LDS_LEN, OFF_LDS_ZEROS};

/// The shape of a DS access lowered here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DsKind {
    Read {
        sext: bool,
    },
    Write,
    Read2 {
        st64: bool,
    },
    Write2 {
        st64: bool,
    },
    /// A 32-bit read-modify-write; `rtn`: the old value into VDST.
    Atomic {
        op: AtomicOp,
        rtn: bool,
    },
}

/// A DS read or write lowered inline.
#[derive(Clone, Copy, Debug)]
pub struct DsPlan {
    pub kind: DsKind,
    /// Bytes per access (per element of the two-address forms).
    pub size: u32,
    /// The instruction's registers and offsets (`gds` is false).
    pub f: DsFields,
    /// The accesses of the unit sharing this one's address check (`share`; 0: none).
    pub group: u32,
    /// The furthest byte offset the check covers: this access's, or (`share`) the
    /// furthest of its group's accesses from this one on.
    pub reach: u64,
}

/// The DS operations lowered here, with their access size: the interpreter's
/// `ds::kind` (one description of each operation), less the 64-bit atomics, the
/// two-address exchanges, swizzles, permutes and `ds_nop`.
fn kind(op: Op) -> Option<(DsKind, u32)> {
    use wavejit_interp::mem::ds::Kind as K;
    Some(match wavejit_interp::mem::ds::kind(op)? {
        K::Read { size, sext } => (DsKind::Read { sext }, size),
        K::Write { size } => (DsKind::Write, size),
        K::Read2 { size, st64 } => (DsKind::Read2 { st64 }, size),
        K::Write2 { size, st64 } => (DsKind::Write2 { st64 }, size),
        K::Atomic { op, size: 4, rtn } => (DsKind::Atomic { op, rtn }, 4),
        _ => return None,
    })
}

/// Whether `op` reads DATA1 too (`cmpst`, `mskor`).
fn two_operands(op: AtomicOp) -> bool {
    matches!(op, AtomicOp::CmpSwap | AtomicOp::MskOr)
}

/// Plan a DS read or write (not GDS; every register in range).
pub fn plan(inst: &Inst) -> Option<DsPlan> {
    let Fields::Ds(f @ DsFields { gds: false, .. }) = inst.fields else {
        return None;
    };
    let (vdst, data0, data1) = (f.vdst, f.data0, f.data1);
    let (kind, size) = kind(inst.op)?;
    let n = size.div_ceil(4);
    let fits = |r: u8, k: u32| r as u32 + k <= 256;
    let ok = match kind {
        DsKind::Read { .. } => fits(vdst, n),
        DsKind::Write => fits(data0, n),
        DsKind::Read2 { .. } => fits(vdst, 2 * n),
        DsKind::Write2 { .. } => fits(data0, n) && fits(data1, n),
        DsKind::Atomic { op, rtn } => {
            fits(data0, 1) && (!two_operands(op) || fits(data1, 1)) && (!rtn || fits(vdst, 1))
        }
    };
    let mut p = DsPlan {
        kind,
        size,
        f,
        group: 0,
        reach: 0,
    };
    p.reach = p.offsets().into_iter().max().unwrap_or(0);
    ok.then_some(p)
}

impl DsPlan {
    /// The byte offsets the lanes' addresses add to the base: one or two.
    pub(super) fn offsets(&self) -> Vec<u64> {
        match self.kind {
            DsKind::Read { .. } | DsKind::Write | DsKind::Atomic { .. } => {
                vec![(self.f.offset1 as u64) << 8 | self.f.offset0 as u64]
            }
            DsKind::Read2 { st64 } | DsKind::Write2 { st64 } => {
                let scale = self.size as u64 * if st64 { 64 } else { 1 };
                vec![self.f.offset0 as u64 * scale, self.f.offset1 as u64 * scale]
            }
        }
    }
}

/// Emit a DS read or write.
pub fn emit(cx: &mut Cx, p: &DsPlan, at: At) {
    settle(cx);
    check(cx, p, at);
    let lbase = lds_base(cx);
    let sink = sink_ptr(cx);
    cx.for_chunks(|cx, c| chunk(cx, p, lbase, sink, &mut ReadPtrs::new(), c));
}

/// Most distance between the lowest and highest active base address of a half-wave for
/// which its requests surely conflict 0 cycles: the dword addresses `(base + offset) / 4`
/// then differ by at most (124 + 3) / 4 = 31, and two addresses in one bank differ by a
/// multiple of 32 (see `wavejit_interp::profile::bank_conflicts`).
const NO_CONFLICT_SPAN: i64 = 124;

/// Profiling: count the bank conflicts of the DS instruction `p` at `pc`. Each half-wave's
/// active base addresses are checked inline: when every one lies within
/// `NO_CONFLICT_SPAN` bytes of the others (broadcasts, unit strides) there are none;
/// otherwise a cold call of `ctx::profile_ds` counts them as the interpreter does, from
/// the stored registers.
///
/// The span depends on the active base addresses alone, not on the offsets: the accesses
/// of one group (`share`: one address register, not written in between) under the same
/// EXEC value share the first one's test.
pub fn count_bank_conflicts(cx: &mut Cx, p: &DsPlan, pc: u32) {
    settle(cx);
    let exec = cx.sreg64(crate::slots::EXEC_LO);
    let known = cx
        .lds_spans
        .get(&p.group)
        .filter(|s| p.group != 0 && s.0 == exec);
    let narrow = match known {
        Some(&(_, narrow)) => narrow,
        None => {
            let narrow = narrow_span(cx, p);
            if p.group != 0 {
                cx.lds_spans.insert(p.group, (exec, narrow));
            }
            narrow
        }
    };
    let slow = cx.b.create_block();
    let cont = cx.b.create_block();
    cx.b.set_cold_block(slow);
    cx.b.ins().brif(narrow, cont, &[], slow, &[]);
    cx.b.switch_to_block(slow);
    cx.b.seal_block(slow);
    let mut sig = Signature::new(CallConv::SystemV);
    for t in [cx.ptr, cx.ptr, types::I64, types::I64] {
        sig.params.push(AbiParam::new(t));
    }
    let sref = cx.b.import_signature(sig);
    let f =
        cx.b.ins()
            .load(cx.ptr, mflags(), cx.jctx, crate::ctx::OFF_PROFILE_DS);
    let pc = cx.b.ins().iconst(types::I64, pc as i64);
    cx.b.ins()
        .call_indirect(sref, f, &[cx.wave, cx.jctx, pc, exec]);
    cx.b.ins().jump(cont, &[]);
    cx.b.switch_to_block(cont);
    cx.b.seal_block(cont);
}

/// Profiling: an `i8` truth value, every half-wave's active base addresses of `p` lie
/// within `NO_CONFLICT_SPAN` bytes of each other (then no request conflicts).
fn narrow_span(cx: &mut Cx, p: &DsPlan) -> Value {
    let (none, all) = (cx.splat32(0), cx.splat32(u32::MAX));
    let mut narrow: Option<Value> = None;
    for pass in 0..2 {
        let (mut lo, mut hi): (Option<Value>, Option<Value>) = (None, None);
        for c in pass * CHUNKS / 2..(pass + 1) * CHUNKS / 2 {
            let base = vreg_stored(cx, p.f.addr, c);
            let (l, h) = match cx.exec_lanes(c) {
                None => (base, base),
                Some(m) => (
                    cx.b.ins().bitselect(m, base, all),
                    cx.b.ins().bitselect(m, base, none),
                ),
            };
            lo = Some(lo.map_or(l, |a| cx.b.ins().umin(a, l)));
            hi = Some(hi.map_or(h, |a| cx.b.ins().umax(a, h)));
        }
        let (Some(lo), Some(hi)) = (lo, hi) else {
            continue;
        };
        let lo = reduce(cx, lo, false);
        let hi = reduce(cx, hi, true);
        // No active lane: lo = u32::MAX, hi = 0, and the wrapped span is 1.
        let span = cx.b.ins().isub(hi, lo);
        let ok =
            cx.b.ins()
                .icmp_imm_s(IntCC::UnsignedLessThanOrEqual, span, NO_CONFLICT_SPAN);
        narrow = Some(narrow.map_or(ok, |a| cx.b.ins().band(a, ok)));
    }
    // Two passes: `narrow` is always set.
    narrow.unwrap_or_else(|| cx.b.ins().iconst(types::I8, 1))
}

/// The check of `p`'s active addresses (the wave's VGPRs hold every value: `settle`),
/// leaving through the side exit of `at` when it fails.
pub fn check(cx: &mut Cx, p: &DsPlan, at: At) {
    let offs = p.offsets();
    let align = wavejit_interp::mem::ds::alignment(p.size) as u32;
    // Every offset of the two-address forms is a multiple of the element size: the
    // alignment depends on the base alone; a one-address offset may be any number.
    let low = (offs[0] as u32) & (align - 1);
    let zero = cx.splat32(0);
    let lowv = cx.splat32(low);
    let mut mx: Option<Value> = None;
    let mut or: Option<Value> = None;
    for c in 0..CHUNKS {
        let base = vreg_stored(cx, p.f.addr, c);
        let m = cx.exec_lanes(c);
        let b = match m {
            None => base,
            Some(m) => cx.b.ins().bitselect(m, base, zero),
        };
        mx = Some(match mx {
            None => b,
            Some(a) => cx.b.ins().umax(a, b),
        });
        if align > 1 {
            let a = if low == 0 {
                base
            } else {
                cx.b.ins().iadd(base, lowv)
            };
            let a = match m {
                None => a,
                Some(m) => cx.b.ins().bitselect(m, a, zero),
            };
            or = Some(match or {
                None => a,
                Some(o) => cx.b.ins().bor(o, a),
            });
        }
    }
    let mx = mx.unwrap_or(zero);
    let top = reduce(cx, mx, true);
    let top = cx.b.ins().uextend(types::I64, top);
    let max_off = offs.iter().copied().max().unwrap_or(0);
    let end = cx.b.ins().iadd_imm_s(top, (max_off + p.size as u64) as i64);
    let len = cx.b.ins().load(types::I64, mflags(), cx.jctx, OFF_LDS_LEN);
    let mut bad = cx.b.ins().icmp(IntCC::UnsignedGreaterThan, end, len);
    if let Some(o) = or {
        let mis = misaligned(cx, o, align);
        bad = cx.b.ins().bor(bad, mis);
    }
    let fail = match any_active(cx) {
        None => bad,
        Some(any) => cx.b.ins().band(bad, any),
    };
    side_exit_if(cx, fail, at);
}

/// Whether any lane of `or` (the OR of addresses) has a bit below `align` (a power of
/// two) set, as an `i8` truth value: one vector test (`ptest`) of `or` and `align - 1`.
fn misaligned(cx: &mut Cx, or: Value, align: u32) -> Value {
    let low = cx.splat32(align - 1);
    let bits = cx.b.ins().band(or, low);
    cx.b.ins().vany_true(bits)
}

/// Whether `p` may share its address register's check with the other DS accesses of
/// its unit (`share`): a dword read or write (one- or two-address) at offsets that keep
/// the base's alignment.
pub(super) fn shareable(p: &DsPlan) -> bool {
    p.size == 4
        && matches!(
            p.kind,
            DsKind::Read { .. } | DsKind::Read2 { .. } | DsKind::Write | DsKind::Write2 { .. }
        )
        && p.offsets().iter().all(|o| o % 4 == 0)
}

/// Group the DS accesses of a unit that read their addresses from the same VGPR while no
/// instruction between them writes it (`plans[k]`: item k's DS plan; `writes[k]`: the
/// VGPRs item k may write, `None`: any, which ends every group). The first access of a
/// group that takes a path of `facts` checks the register once for itself and the
/// accesses after it (its `reach`: the furthest offset from there to the group's end);
/// the others reuse what it found. Until a check fails nothing is lost: a failed check
/// leaves through the first access's side exit, and the unit entered after it checks
/// again for what is left.
pub fn share(plans: &mut [Option<&mut DsPlan>], writes: &[Option<Vec<u8>>]) {
    let mut open: Vec<(u8, u32)> = Vec::new();
    let mut next = 1u32;
    for (p, w) in plans.iter_mut().zip(writes) {
        if let Some(p) = p.as_deref_mut().filter(|p| shareable(p)) {
            let r = p.f.addr;
            p.group = match open.iter().find(|o| o.0 == r) {
                Some(&(_, g)) => g,
                None => {
                    open.push((r, next));
                    next += 1;
                    next - 1
                }
            };
        }
        match w {
            None => open.clear(),
            Some(w) => open.retain(|o| !w.contains(&o.0)),
        }
    }
    let mut far: Vec<(u32, u64)> = Vec::new();
    for p in plans.iter_mut().rev().flatten().filter(|p| p.group != 0) {
        match far.iter_mut().find(|f| f.0 == p.group) {
            Some(f) => {
                f.1 = f.1.max(p.reach);
                p.reach = f.1;
            }
            None => far.push((p.group, p.reach)),
        }
    }
}

/// Whether `p` may take `emit_window_reads`: a dword read (one- or two-address) at an
/// offset that keeps the base's alignment, where EXEC is known to be all ones (in the
/// quick tier too: its paths are loops over the chunks, as its other accesses).
pub fn window_plan(cx: &Cx, p: &DsPlan) -> bool {
    shareable(p)
        && matches!(p.kind, DsKind::Read { .. } | DsKind::Read2 { .. })
        && cx.exec_known_ones()
}

/// Whether `p` may take `emit_row_writes`: a dword write where EXEC is known to be all
/// ones (both tiers); a two-address write only with its offsets 16 bytes or
/// more apart (a chunk's two 16-byte windows then never overlap, so writing the first
/// window before the second gives what lane-by-lane order gives).
pub fn row_write_plan(cx: &Cx, p: &DsPlan) -> bool {
    let o = p.offsets();
    shareable(p)
        && match p.kind {
            DsKind::Write => true,
            DsKind::Write2 { .. } => o[0].abs_diff(o[1]) >= 16,
            _ => false,
        }
        && cx.exec_known_ones()
}

/// Byte mask of a `shuffle` that copies each lane's low byte into its four bytes.
const LOW_BYTES: [u8; 16] = [0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12];
/// Each dword's byte numbers: added to a lane's distance, its shuffle control.
const BYTE_STEPS: [u8; 16] = [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3];
/// A chunk's lanes' distances from lane 0 when they are consecutive dwords.
const ROW: [u32; 4] = [0, 4, 8, 12];

/// `shuffle(v, v, mask)` of an `i32x4` as bytes (an `i8x16`).
fn shuffle_bytes(cx: &mut Cx, v: Value, mask: &[u8; 16]) -> Value {
    let v8 = cx.cast(types::I8X16, v);
    let imm = cx.b.func.dfg.immediates.push(mask.to_vec().into());
    cx.b.ins().shuffle(v8, v8, imm)
}

/// Chunk `a` of addresses: lane 0's address in every lane, and each lane's distance from
/// it (unsigned: a lane below lane 0 is far).
fn from_lane0(cx: &mut Cx, a: Value) -> (Value, Value) {
    let a0 = lane0(cx, a);
    (a0, cx.b.ins().isub(a, a0))
}

/// What the DS accesses of one group (`share`) learn from their address register under
/// a full EXEC, each an `i8` truth value but `ctrl`.
#[derive(Clone, Copy)]
pub(super) struct Facts {
    /// Every chunk's lanes lie at the same distances from its lane 0 as chunk 0's, at
    /// most 12 bytes past it, and the 16-byte window at each chunk's lane 0 plus the
    /// group's furthest offset lies in the LDS: one shuffle control serves every chunk.
    pub(super) uniform: Value,
    /// That control (`i8x16`).
    pub(super) ctrl: Value,
    /// Every chunk's lanes are consecutive dwords.
    pub(super) rows: Value,
    /// Every chunk's lanes share their lane 0's address.
    pub(super) bcast: Value,
}

/// The `Facts` of register `r` for the accesses of `group` reaching `reach` bytes past
/// their bases: computed here (the wave's VGPRs hold every value: `settle`) by the
/// group's first access, with `check`'s bounds and alignment test (the highest address
/// plus `reach` plus 4 within the LDS, the OR of the addresses 4-aligned) leaving
/// through the side exit of `at`; the group's later accesses get the same values (their
/// reach is within the first one's).
///
/// One pass over the chunks: per chunk the highest address and the OR so far, and how
/// its distances from its lane 0 differ from chunk 0's. When they do not differ
/// (`same`), every chunk's highest address is its lane 0's plus chunk 0's greatest
/// distance `dm`, so the highest lane 0 address is the highest address less `dm`: no
/// second maximum. That holds only where no lane's address wraps past 2^32, which an
/// address of at most 2^32 - 13 with distances of at most 12 rules out.
pub(super) fn facts(cx: &mut Cx, r: u8, group: u32, reach: u64, at: At) -> Facts {
    if let Some(&[uniform, ctrl, rows, bcast]) = cx.lds_facts.get(&group) {
        return Facts {
            uniform,
            ctrl,
            rows,
            bcast,
        };
    }
    let row = cx.lanes32(ROW);
    let zero = cx.splat32(0);
    let sink = sink_ptr(cx);
    let fold = |cx: &mut Cx, acc: Option<Value>, x: Value, max: bool| {
        Some(acc.map_or(x, |y| {
            if max {
                cx.b.ins().umax(y, x)
            } else {
                cx.b.ins().bor(y, x)
            }
        }))
    };
    let (mut d0, mut dx, mut mx, mut or) = (None, None, None, None);
    for c in 0..CHUNKS {
        let a = vreg_stored(cx, r, c);
        mx = fold(cx, mx, a, true);
        or = fold(cx, or, a, false);
        let (_, d) = from_lane0(cx, a);
        match d0 {
            None => d0 = Some(d),
            Some(d0) => {
                let x = cx.b.ins().bxor(d, d0);
                dx = fold(cx, dx, x, false);
            }
        }
        // Anchor every eighth chunk's accumulators here: Cranelift places pure
        // instructions at their first use, which would otherwise be after the last
        // chunk, with every chunk's address vector live until then (spilled). One store
        // of all three (a second store to the sink would make the first dead).
        if c % 8 == 7 {
            let anchor = [dx, mx, or]
                .into_iter()
                .flatten()
                .reduce(|x, y| cx.b.ins().bor(x, y));
            if let Some(v) = anchor {
                cx.b.ins().store(mflags(), v, sink, 0);
            }
        }
    }
    let [d0, dx, mx, or] = [d0, dx, mx, or].map(|v| v.unwrap_or(zero));
    let len = cx.b.ins().load(types::I64, mflags(), cx.jctx, OFF_LDS_LEN);
    let top = reduce(cx, mx, true);
    let top64 = cx.b.ins().uextend(types::I64, top);
    let end = cx.b.ins().iadd_imm_s(top64, (reach + 4) as i64);
    let past = cx.b.ins().icmp(IntCC::UnsignedGreaterThan, end, len);
    let mis = misaligned(cx, or, 4);
    let bad = cx.b.ins().bor(past, mis);
    side_exit_if(cx, bad, at);
    let dm = reduce(cx, d0, true);
    let near =
        cx.b.ins()
            .icmp_imm_u(IntCC::UnsignedLessThanOrEqual, dm, 12);
    let nowrap =
        cx.b.ins()
            .icmp_imm_u(IntCC::UnsignedLessThanOrEqual, top, (u32::MAX - 12) as i64);
    // The highest lane 0 address plus `reach` plus 16 (where `same`, `near` and
    // `nowrap` hold; otherwise unused, whatever it is).
    let dm64 = cx.b.ins().uextend(types::I64, dm);
    let top0 = cx.b.ins().isub(top64, dm64);
    let wend = cx.b.ins().iadd_imm_s(top0, (reach + 16) as i64);
    let fits = cx.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, wend, len);
    let same = none_of(cx, dx);
    let uniform = all(cx, [same, near, nowrap, fits].into_iter());
    let rx = cx.b.ins().bxor(d0, row);
    let is_row = none_of(cx, rx);
    let rows = cx.b.ins().band(same, is_row);
    let at_lane0 = none_of(cx, d0);
    let bcast = cx.b.ins().band(same, at_lane0);
    // Byte j of a lane's shuffle control is its distance plus j.
    let steps = cx.vconst(types::I8X16, u128::from_le_bytes(BYTE_STEPS));
    let ctrl = shuffle_bytes(cx, d0, &LOW_BYTES);
    let ctrl = cx.b.ins().iadd(ctrl, steps);
    if group != 0 {
        cx.lds_facts.insert(group, [uniform, ctrl, rows, bcast]);
    }
    Facts {
        uniform,
        ctrl,
        rows,
        bcast,
    }
}

/// Every lane of `v` zero (an `i8` truth value): one vector test (`ptest`) instead of a
/// reduction.
fn none_of(cx: &mut Cx, v: Value) -> Value {
    let any = cx.b.ins().vany_true(v);
    cx.b.ins().icmp_imm_s(IntCC::Equal, any, 0)
}

/// The AND of `i8` truth values.
pub(super) fn all(cx: &mut Cx, v: impl Iterator<Item = Value>) -> Value {
    let mut acc: Option<Value> = None;
    for x in v {
        acc = Some(acc.map_or(x, |a| cx.b.ins().band(a, x)));
    }
    acc.unwrap_or_else(|| cx.b.ins().iconst(types::I8, 1))
}

/// The wave address chunk `c`'s registers are at (`Cx::vbase` in a loop over the chunks).
pub(super) fn chunk_base(cx: &Cx) -> Value {
    cx.vbase.unwrap_or(cx.wave)
}

/// Chunk `c` of register `r`'s lane 0 as a host address in the LDS (`lbase` + it).
pub(super) fn lane0_ptr(cx: &mut Cx, lbase: Value, r: u8, c: usize) -> Value {
    let off = crate::ctx::wave_off::vgpr_chunk(r, c);
    let base = chunk_base(cx);
    let a0 = cx.b.ins().uload32(mflags(), base, off);
    cx.b.ins().iadd(lbase, a0)
}

/// DS dword reads (`window_plan`; several: a run `joins` accepted) with a fast path for
/// the usual LDS patterns — a row read by consecutive lanes, one value broadcast to a
/// group of lanes: when every chunk's lanes lie 0, 4, 8 or 12 bytes past the chunk's
/// lane 0 address as chunk 0's do (`Facts::uniform`), a chunk's four lanes are one
/// 16-byte load at lane 0's address and a byte shuffle (`pshufb`) by one control, the
/// group's, putting each lane's dword in place. The 16 bytes must lie in the LDS (per
/// address register, the highest lane-0 address plus its group's furthest offset plus 16
/// at most its size). Otherwise lane by lane, as `emit`.
///
/// The checks are `facts`', made once per address register and group. Both paths store
/// the results to the wave, so the register cache is empty after the join. Reads only:
/// lanes' order does not matter, and every chunk's addresses are read before that chunk
/// of any destination is written (a run never reads an address an earlier read of it
/// writes: `joins`).
pub fn emit_window_reads(cx: &mut Cx, run: &[DsPlan], at: At) {
    settle(cx);
    let mut addrs: Vec<(u8, Facts)> = Vec::new();
    for p in run {
        if addrs.iter().any(|a| a.0 == p.f.addr) {
            continue;
        }
        let reach = run
            .iter()
            .filter(|q| q.f.addr == p.f.addr)
            .map(|q| q.reach)
            .max()
            .unwrap_or(0);
        let f = facts(cx, p.f.addr, p.group, reach, at);
        addrs.push((p.f.addr, f));
    }
    let uniform = all(cx, addrs.iter().map(|a| a.1.uniform));
    let lbase = lds_base(cx);
    let [same, slow, join] = [(); 3].map(|_| cx.b.create_block());
    cx.b.ins().brif(uniform, same, &[], slow, &[]);

    cx.b.switch_to_block(same);
    cx.b.seal_block(same);
    cx.for_chunks(|cx, c| {
        // Every address register's chunk first: a destination may be one of them.
        let ptrs: Vec<(u8, Value, Value)> = addrs
            .iter()
            .map(|&(r, f)| (r, lane0_ptr(cx, lbase, r, c), f.ctrl))
            .collect();
        window_chunk(cx, run, &ptrs, c);
    });
    cx.b.ins().jump(join, &[]);

    cx.b.switch_to_block(slow);
    cx.b.seal_block(slow);
    load_fence(cx);
    let sink = sink_ptr(cx);
    cx.for_chunks(|cx, c| {
        let mut reads = ReadPtrs::new();
        for p in run {
            chunk(cx, p, lbase, sink, &mut reads, c);
        }
    });
    cx.b.ins().jump(join, &[]);

    cx.b.switch_to_block(join);
    cx.b.seal_block(join);
    // Values made on any path (constants, splats of the path's own values) are not
    // available here.
    settle(cx);
}

/// Chunk `c` of the window reads `run`: each read's 16 bytes at its address register's
/// lane 0 host pointer plus its offset, shuffled by that register's control (`ptrs`:
/// register, pointer, control), stored to its destination.
fn window_chunk(cx: &mut Cx, run: &[DsPlan], ptrs: &[(u8, Value, Value)], c: usize) {
    let hf = super::access::host_flags();
    for p in run {
        let Some(&(_, ptr, ctrl)) = ptrs.iter().find(|q| q.0 == p.f.addr) else {
            continue;
        };
        for (k, &o) in p.offsets().iter().enumerate() {
            let v = cx.b.ins().load(types::I8X16, hf, ptr, o as i32);
            let v = cx.b.ins().x86_pshufb(v, ctrl);
            let off = crate::ctx::wave_off::vgpr_chunk(p.f.vdst + k as u8, c);
            let base = chunk_base(cx);
            cx.b.ins().store(mflags(), v, base, off);
        }
    }
}

/// A DS dword write (`row_write_plan`) with a fast path for rows: when every chunk's
/// lanes are consecutive dwords (`Facts::rows`), a chunk's four lanes are one 16-byte
/// store at lane 0's address plus the offset. Chunks go in lane order, and within a
/// chunk no two lanes write the same byte (nor do the two windows of a two-address
/// write), so same-address writes end as lane by lane: the highest lane wins. Otherwise
/// lane by lane, as `emit`. The check is `facts`', once per address register and group.
pub fn emit_row_writes(cx: &mut Cx, p: &DsPlan, at: At) {
    settle(cx);
    let f = facts(cx, p.f.addr, p.group, p.reach, at);
    let lbase = lds_base(cx);
    let sink = sink_ptr(cx);
    let srcs: &[u8] = match p.kind {
        DsKind::Write => &[p.f.data0],
        _ => &[p.f.data0, p.f.data1],
    };
    let [fast, slow, join] = [(); 3].map(|_| cx.b.create_block());
    cx.b.ins().brif(f.rows, fast, &[], slow, &[]);

    cx.b.switch_to_block(fast);
    cx.b.seal_block(fast);
    let hf = super::access::host_flags();
    cx.for_chunks(|cx, c| {
        let ptr = lane0_ptr(cx, lbase, p.f.addr, c);
        for (&o, &r) in p.offsets().iter().zip(srcs) {
            let off = crate::ctx::wave_off::vgpr_chunk(r, c);
            let base = chunk_base(cx);
            let v = cx.b.ins().load(types::I32X4, mflags(), base, off);
            cx.b.ins().store(hf, v, ptr, o as i32);
        }
    });
    cx.b.ins().jump(join, &[]);

    cx.b.switch_to_block(slow);
    cx.b.seal_block(slow);
    load_fence(cx);
    cx.for_chunks(|cx, c| chunk(cx, p, lbase, sink, &mut ReadPtrs::new(), c));
    cx.b.ins().jump(join, &[]);

    cx.b.switch_to_block(join);
    cx.b.seal_block(join);
    settle(cx);
}

/// The host address of LDS byte 0.
pub fn lds_base(cx: &mut Cx) -> Value {
    cx.b.ins().load(cx.ptr, mflags(), cx.jctx, OFF_LDS_BASE)
}

/// Lane pointers of reads, per address VGPR, within one chunk: reads at any offset add it
/// as the load's displacement, so every read of a run from one base shares them.
pub type ReadPtrs = std::collections::HashMap<u8, [Value; 4]>;

/// Chunk `c` of `p` after its check. Reads point inactive lanes at `ZEROS` (readable at
/// every DS offset); writes point them at `sink`, per offset.
pub fn chunk(cx: &mut Cx, p: &DsPlan, lbase: Value, sink: Value, reads: &mut ReadPtrs, c: usize) {
    let n = p.size.div_ceil(4) as usize;
    let offs = p.offsets();
    let base = cx.vreg(p.f.addr, c);
    let m = cx.exec_lanes(c);
    match p.kind {
        DsKind::Read { .. } | DsKind::Read2 { .. } => {
            let ptrs = match reads.get(&p.f.addr) {
                Some(q) => *q,
                None => {
                    let z = cx.b.ins().load(cx.ptr, mflags(), cx.jctx, OFF_LDS_ZEROS);
                    let q = lane_ptrs(cx, base, None, m, lbase, z);
                    reads.insert(p.f.addr, q);
                    q
                }
            };
            let sext = matches!(p.kind, DsKind::Read { sext: true });
            for (k, &o) in offs.iter().enumerate() {
                read(
                    cx,
                    &ptrs,
                    o as i32,
                    p.size,
                    sext,
                    p.f.vdst + (k * n) as u8,
                    c,
                );
            }
        }
        DsKind::Write | DsKind::Write2 { .. } => {
            let ptrs: Vec<[Value; 4]> = offs
                .iter()
                .map(|&o| {
                    let d = cx.b.ins().iadd_imm_s(lbase, o as i64);
                    lane_ptrs(cx, base, None, m, d, sink)
                })
                .collect();
            let srcs: Vec<u8> = if p.kind == DsKind::Write {
                vec![p.f.data0]
            } else {
                vec![p.f.data0, p.f.data1]
            };
            let data: Vec<Vec<Value>> = srcs
                .iter()
                .map(|&r| (0..n).map(|i| cx.vreg(r + i as u8, c)).collect())
                .collect();
            // Lane by lane, each lane's first access before its second (the
            // interpreter's order, which decides same-address writes).
            for l in 0..4u8 {
                for (k, d) in data.iter().enumerate() {
                    for (i, v) in d.iter().enumerate() {
                        let x = cx.b.ins().extractlane(*v, l);
                        store_lane(cx, ptrs[k][l as usize], x, p.size.min(4), 4 * i as i32);
                    }
                }
            }
        }
        DsKind::Atomic { op, rtn } => {
            let d = cx.b.ins().iadd_imm_s(lbase, offs[0] as i64);
            let ptrs = lane_ptrs(cx, base, None, m, d, sink);
            let two = two_operands(op);
            let x = cx.vreg(p.f.data0, c);
            let y = if two { cx.vreg(p.f.data1, c) } else { x };
            // Lane by lane (chunks in order: lanes 0-63 in order), each lane's store
            // before the next lane's load, as the interpreter; inactive lanes work on
            // the sink.
            let mut olds = [x; 4];
            for (l, old) in olds.iter_mut().enumerate() {
                let ptr = ptrs[l];
                let mv = load_lane(cx, ptr, 4, false, 0);
                let xl = cx.b.ins().extractlane(x, l as u8);
                let yl = if two {
                    cx.b.ins().extractlane(y, l as u8)
                } else {
                    xl
                };
                // DS cmpst compares with DATA0 and stores DATA1; `AtomicOp` takes
                // (new, compare). mskor: (mask, bits) = (DATA0, DATA1).
                let (a, b) = if op == AtomicOp::CmpSwap {
                    (yl, xl)
                } else {
                    (xl, yl)
                };
                let new = super::rmw::apply(cx, op, mv, a, b);
                store_lane(cx, ptr, new, 4, 0);
                *old = mv;
            }
            if rtn {
                let v = gather(cx, olds);
                cx.write_vreg(p.f.vdst, c, v);
            }
        }
    }
}

/// Readable zeros covering every DS offset (16 bits, or 255 × 64 × 8 for `read2st64_b64`)
/// plus an access: where inactive lanes of a read point (the values are not used).
pub(crate) static ZEROS: [u8; 1 << 18] = [0; 1 << 18];

/// Read `size` bytes per lane at `ptrs` + `off` into `dst`.. (chunk `c`, under EXEC).
fn read(cx: &mut Cx, ptrs: &[Value; 4], off: i32, size: u32, sext: bool, dst: u8, c: usize) {
    for i in 0..size.div_ceil(4) as usize {
        let vals = ptrs.map(|ptr| load_lane(cx, ptr, size, sext, off + 4 * i as i32));
        let v = gather(cx, vals);
        cx.write_vreg(dst + i as u8, c, v);
    }
}
