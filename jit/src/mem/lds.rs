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
    any_active, gather, lane0, lane_ptrs, load_fence, load_lane, reduce, reduce_or, settle,
    side_exit_if, sink_ptr, store_lane, vreg_stored, At,
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
    ok.then_some(DsPlan { kind, size, f })
}

impl DsPlan {
    /// The byte offsets the lanes' addresses add to the base: one or two.
    fn offsets(&self) -> Vec<u64> {
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
pub fn count_bank_conflicts(cx: &mut Cx, p: &DsPlan, pc: u32) {
    settle(cx);
    let exec = cx.sreg64(crate::slots::EXEC_LO);
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
    let Some(narrow) = narrow else {
        return;
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
        let o = reduce_or(cx, o);
        let mis = cx.b.ins().band_imm_u(o, (align - 1) as i64);
        let mis = cx.b.ins().icmp_imm_s(IntCC::NotEqual, mis, 0);
        bad = cx.b.ins().bor(bad, mis);
    }
    let fail = match any_active(cx) {
        None => bad,
        Some(any) => cx.b.ins().band(bad, any),
    };
    side_exit_if(cx, fail, at);
}

/// Whether `p` may take `emit_window_reads`: a dword read (one- or two-address) at an
/// offset that keeps the base's alignment, where EXEC is known to be all ones, in the
/// optimising tier (the quick tier compiles for compile time; its code turns into this
/// once hot).
pub fn window_plan(cx: &Cx, p: &DsPlan) -> bool {
    !cx.loops
        && p.size == 4
        && matches!(p.kind, DsKind::Read { .. } | DsKind::Read2 { .. })
        && p.offsets().iter().all(|o| o % 4 == 0)
        && cx.exec_known_ones()
}

/// Byte mask of a `shuffle` that copies each lane's low byte into its four bytes.
const LOW_BYTES: [u8; 16] = [0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12];
/// Each dword's byte numbers: added to a lane's distance, its shuffle control.
const BYTE_STEPS: [u8; 16] = [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3];

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

/// DS dword reads (`window_plan`; several: a run `joins` accepted) with a fast path for
/// the usual LDS patterns — a row read by consecutive lanes, one value broadcast to a
/// group of lanes: when in every chunk each lane's address lies 0, 4, 8 or 12 bytes past
/// the chunk's lane 0 address, a chunk's four lanes are one 16-byte load at lane 0's
/// address and a byte shuffle (`pshufb`) putting each lane's dword in place. The 16
/// bytes must lie in the LDS (per address register, the highest lane-0 address plus its
/// reads' furthest offset plus 16 at most its size). Otherwise lane by lane, as `emit`.
///
/// The check is `check`'s, made once per address register for the reads that share it
/// (the highest base plus the furthest offset's end within the LDS, the OR of the bases
/// 4-aligned: every offset is a multiple of 4), in the same pass over the chunks as the
/// window test. Both paths store the results to the wave, so the register cache is empty
/// after the join. Reads only: lanes' order does not matter, and every chunk's addresses
/// are read before that chunk of any destination is written (a run never reads an
/// address an earlier read of it writes: `joins`).
pub fn emit_window_reads(cx: &mut Cx, run: &[DsPlan], at: At) {
    settle(cx);
    let mut addrs: Vec<u8> = Vec::new();
    for p in run {
        if !addrs.contains(&p.f.addr) {
            addrs.push(p.f.addr);
        }
    }
    let furthest = |r: u8| {
        run.iter()
            .filter(|p| p.f.addr == r)
            .flat_map(|p| p.offsets())
            .max()
            .unwrap_or(0)
    };
    let len = cx.b.ins().load(types::I64, mflags(), cx.jctx, OFF_LDS_LEN);
    let mut dmax: Option<Value> = None;
    let (mut bad, mut fits): (Option<Value>, Option<Value>) = (None, None);
    for &r in &addrs {
        let (mut mx, mut or, mut amax): (Option<Value>, Option<Value>, Option<Value>) =
            (None, None, None);
        for c in 0..CHUNKS {
            let a = vreg_stored(cx, r, c);
            mx = Some(mx.map_or(a, |m| cx.b.ins().umax(m, a)));
            or = Some(or.map_or(a, |m| cx.b.ins().bor(m, a)));
            let (a0, d) = from_lane0(cx, a);
            dmax = Some(dmax.map_or(d, |m| cx.b.ins().umax(m, d)));
            amax = Some(amax.map_or(a0, |m| cx.b.ins().umax(m, a0)));
        }
        let (Some(mx), Some(or), Some(amax)) = (mx, or, amax) else {
            continue;
        };
        // The windows of this register's reads: the highest lane 0 plus the furthest
        // offset plus 16.
        let am = reduce(cx, amax, true);
        let am = cx.b.ins().uextend(types::I64, am);
        let end = cx.b.ins().iadd_imm_s(am, (furthest(r) + 16) as i64);
        let f = cx.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, len);
        fits = Some(fits.map_or(f, |x| cx.b.ins().band(x, f)));
        let top = reduce(cx, mx, true);
        let top = cx.b.ins().uextend(types::I64, top);
        let end = cx.b.ins().iadd_imm_s(top, (furthest(r) + 4) as i64);
        let past = cx.b.ins().icmp(IntCC::UnsignedGreaterThan, end, len);
        let o = reduce_or(cx, or);
        let mis = cx.b.ins().band_imm_u(o, 3);
        let mis = cx.b.ins().icmp_imm_s(IntCC::NotEqual, mis, 0);
        let b = cx.b.ins().bor(past, mis);
        bad = Some(bad.map_or(b, |x| cx.b.ins().bor(x, b)));
    }
    let (Some(bad), Some(dmax), Some(fits)) = (bad, dmax, fits) else {
        return;
    };
    side_exit_if(cx, bad, at);
    let dm = reduce(cx, dmax, true);
    let near =
        cx.b.ins()
            .icmp_imm_u(IntCC::UnsignedLessThanOrEqual, dm, 12);
    let ok = cx.b.ins().band(near, fits);
    let lbase = lds_base(cx);
    // Byte j of a lane's shuffle control is its distance plus j.
    let steps = cx.vconst(types::I8X16, u128::from_le_bytes(BYTE_STEPS));
    let fast = cx.b.create_block();
    let slow = cx.b.create_block();
    let join = cx.b.create_block();
    cx.b.ins().brif(ok, fast, &[], slow, &[]);

    cx.b.switch_to_block(fast);
    cx.b.seal_block(fast);
    let flags = mflags();
    let hf = super::access::host_flags();
    for c in 0..CHUNKS {
        // Every address register's chunk first: a destination may be one of them.
        let ptrs: Vec<(u8, Value, Value)> = addrs
            .iter()
            .map(|&r| {
                let a = vreg_stored(cx, r, c);
                let (_, d) = from_lane0(cx, a);
                let ctrl = shuffle_bytes(cx, d, &LOW_BYTES);
                let ctrl = cx.b.ins().iadd(ctrl, steps);
                let l0 = cx.b.ins().extractlane(a, 0);
                let l0 = cx.b.ins().uextend(types::I64, l0);
                (r, cx.b.ins().iadd(lbase, l0), ctrl)
            })
            .collect();
        for p in run {
            let Some(&(_, ptr, ctrl)) = ptrs.iter().find(|q| q.0 == p.f.addr) else {
                continue;
            };
            for (k, &o) in p.offsets().iter().enumerate() {
                let v = cx.b.ins().load(types::I8X16, hf, ptr, o as i32);
                let v = cx.b.ins().x86_pshufb(v, ctrl);
                let off = crate::ctx::wave_off::vgpr_chunk(p.f.vdst + k as u8, c);
                cx.b.ins().store(flags, v, cx.wave, off);
            }
        }
    }
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
    // Values made on either path (constants, splats of the path's own values) are not
    // available here.
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
