//! MUBUF loads, stores and 32-bit atomics inline (`wavejit_interp::mem::mubuf` defines
//! them; `wavejit_interp::mem::buffer::Resource` the buffer resource's fields and
//! addressing).
//!
//! ADDR64 (GCN 1.0/1.1: how clang reaches global memory there) adds the wave-uniform
//! `BASE + SOFFSET + OFFSET` to each lane's 64-bit address and has no range check, so it
//! is a FLAT access with a bias (`Bias`, used by `global`: the same span check, the same
//! contiguous fast path).
//!
//! Every other form addresses a record index and a byte offset per lane, range-checked
//! dword by dword: `emit` computes, per pair of lanes in `i64x2` and per dword (or the
//! one sub-dword element), the byte offset from the buffer's start of
//! `Resource::buffer_offset` — linear and swizzled in one formula whose parameters come
//! from the resource at run time (see `Desc`) — and the range check. Lanes that are
//! inactive or out of range are left out of the span check; out of range, a load reads
//! the static zero block (the interpreter's 0) and a store or atomic goes to
//! `JitCtx::sink` (dropped; an atomic returns 0). The span of the remaining accesses must
//! lie in one mapped region (`global::region_delta`), else the cold side exit runs the
//! instruction through the interpreter, which reports its own error.
//!
//! Lowered only when the resource is four plain SGPRs, SOFFSET a scalar operand read
//! without a literal, every VGPR in range, and neither TFE nor LDS is set; `format`
//! instructions check the resource's format at run time (32-bit components, raw
//! NUM_FORMAT, identity DST_SEL for loads) and leave through the side exit otherwise (the
//! interpreter's `Unsupported`).

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{self, I64X2};
use cranelift_codegen::ir::{InstBuilder, Value};
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::BufferFields;
use wavejit_isa::gcn::{Fields, Inst, Op};

use super::access::{
    gather, host_flags, load_lane, settle, side_exit_if, sink_ptr, store_lane, vreg_stored, At,
};
use super::global::{host_atomic, region_delta, FlatAtomic, FlatPlan};
use super::rsrc::{base_soffset, check_format, field, resource, Bias};
use crate::block::{mflags, Cx, CHUNKS};
use crate::gcn::sopnd::src32;

/// SGPRs below this are plain registers on every generation (GCN 1.2 has 102).
const PLAIN_SGPRS: u32 = 102;

/// What a non-ADDR64 MUBUF instruction does.
#[derive(Clone, Copy, Debug)]
pub enum BufKind {
    /// `size` bytes (1, 2 or 4 × dwords); sub-dword loads extended per `sext`.
    Load {
        size: u32,
        sext: bool,
    },
    Store {
        size: u32,
    },
    /// A 32-bit atomic; `ret`: GLC, the old value into VDATA.
    Atomic {
        op: FlatAtomic,
        ret: bool,
    },
}

/// A MUBUF access through a record index and offset (not ADDR64).
#[derive(Clone, Copy, Debug)]
pub struct BufPlan {
    pub kind: BufKind,
    pub vdata: u8,
    pub vaddr: u8,
    pub idxen: bool,
    pub offen: bool,
    pub bias: Bias,
}

fn kind(op: Op) -> Option<(BufKind, bool)> {
    use wavejit_interp::mem::mubuf::Kind;
    Some(match wavejit_interp::mem::mubuf::kind(op)? {
        Kind::Load { size, sext, format } => (BufKind::Load { size, sext }, format),
        Kind::Store { size, format } => (BufKind::Store { size }, format),
        Kind::Atomic { .. } => (
            BufKind::Atomic {
                op: host_atomic(op)?,
                ret: false,
            },
            false,
        ),
        Kind::CacheOp => return None,
    })
}

/// A planned MUBUF instruction.
#[derive(Clone, Copy, Debug)]
pub enum Planned {
    /// ADDR64: a FLAT access with a bias.
    Addr64(FlatPlan),
    Buf(BufPlan),
}

/// Plan a MUBUF load, store or 32-bit atomic.
pub fn plan(gen: Gen, inst: &Inst) -> Option<Planned> {
    let Fields::Mubuf(BufferFields {
        vdata,
        vaddr,
        srsrc,
        soffset,
        offset,
        offen,
        idxen,
        glc,
        tfe: false,
        lds: false,
        addr64,
        ..
    }) = inst.fields
    else {
        return None;
    };
    let (mut k, format) = kind(inst.op)?;
    if let BufKind::Atomic { ret, .. } = &mut k {
        *ret = glc;
    }
    if srsrc as u32 + 4 > PLAIN_SGPRS {
        return None;
    }
    let soffset = src32(gen, soffset, None)?;
    let (size, data_regs) = match k {
        BufKind::Load { size, .. } | BufKind::Store { size } => (size, size.div_ceil(4)),
        BufKind::Atomic { op, .. } => (4, if matches!(op, FlatAtomic::Cas) { 2 } else { 1 }),
    };
    if vdata as u32 + data_regs > 256 {
        return None;
    }
    let bias = Bias {
        srsrc,
        soffset,
        offset: (offset & 0xfff) as u32,
        format: format.then_some((size / 4, matches!(k, BufKind::Load { .. }))),
    };
    if addr64 {
        // ADDR64 exists only on GCN 1.0/1.1, without OFFEN/IDXEN (else the interpreter's
        // error).
        if gen == Gen::Gfx8 || offen || idxen || vaddr as u32 + 2 > 256 {
            return None;
        }
        let (sext, store, atomic) = match k {
            BufKind::Load { sext, .. } => (sext, false, None),
            BufKind::Store { .. } => (false, true, None),
            BufKind::Atomic { op, ret } => (false, true, Some((op, ret.then_some(vdata)))),
        };
        return Some(Planned::Addr64(FlatPlan {
            size,
            sext,
            store,
            reg: vdata,
            addr: vaddr,
            atomic,
            bias: Some(bias),
            lin: None,
        }));
    }
    if vaddr as u32 + idxen as u32 + offen as u32 > 256 {
        return None;
    }
    Some(Planned::Buf(BufPlan {
        kind: k,
        vdata,
        vaddr,
        idxen,
        offen,
        bias,
    }))
}

/// The resource's addressing parameters for the lanes' `i64x2` arithmetic. With
/// SWIZZLE_EN the byte offset of `(index, off)` is
/// `((index >> sh) × STRIDE + (off & !elo)) << sh + (index & ilo) << esh + (off & elo)`
/// for `sh` = log2 INDEX_STRIDE, `elo` = ELEMENT_SIZE − 1, `ilo` = INDEX_STRIDE − 1,
/// `esh` = log2 ELEMENT_SIZE (`Resource::buffer_offset`, with the divisions by powers of
/// two as shifts); without it `sh` = 0, `elo` = all ones and `ilo` = 0 reduce the same
/// formula to `index × STRIDE + off`.
struct Desc {
    /// `BASE + SOFFSET`.
    base: Value,
    stride: Value,
    /// NUM_RECORDS.
    nr: Value,
    /// All ones where STRIDE is 0 (a raw buffer: the bytes are range-checked, not the
    /// index).
    raw: Value,
    sh: Value,
    esh: Value,
    elo: Value,
    nelo: Value,
    ilo: Value,
    /// All ones with ADD_TID_ENABLE (the lane number is added to the index).
    tid: Value,
}

fn desc(cx: &mut Cx, b: &Bias, at: At) -> Desc {
    let d = resource(cx, b.srsrc);
    if let Some((count, load)) = b.format {
        check_format(cx, d[3], count, load, at);
    }
    let base = base_soffset(cx, b, &d);
    let stride = field(cx, d[1], 16, 0x3fff);
    let raw = cx.b.ins().icmp_imm_s(IntCC::Equal, stride, 0);
    let swz = cx.b.ins().ushr_imm_u(d[1], 31);
    let swz = cx.b.ins().icmp_imm_s(IntCC::NotEqual, swz, 0);
    let stride = cx.b.ins().uextend(types::I64, stride);
    let nr = cx.b.ins().uextend(types::I64, d[2]);
    // ELEMENT_SIZE 2 << k, INDEX_STRIDE 8 << k: log2 1 + k and 3 + k.
    let es = field(cx, d[3], 19, 3);
    let es = cx.b.ins().iadd_imm_s(es, 1);
    let es = cx.b.ins().uextend(types::I64, es);
    let is = field(cx, d[3], 21, 3);
    let is = cx.b.ins().iadd_imm_s(is, 3);
    let is = cx.b.ins().uextend(types::I64, is);
    let tid = field(cx, d[3], 23, 1);
    let tid = cx.b.ins().uextend(types::I64, tid);
    let tid = cx.b.ins().ineg(tid);
    let zero = cx.iconst64(0);
    let all = cx.iconst64(u64::MAX);
    let one = cx.iconst64(1);
    let sh = cx.b.ins().select(swz, is, zero);
    let e = cx.b.ins().ishl(one, es);
    let e = cx.b.ins().iadd_imm_s(e, -1);
    let elo = cx.b.ins().select(swz, e, all);
    let i = cx.b.ins().ishl(one, is);
    let i = cx.b.ins().iadd_imm_s(i, -1);
    let ilo = cx.b.ins().select(swz, i, zero);
    let nelo = cx.b.ins().bnot(elo);
    let raw = cx.b.ins().uextend(types::I64, raw);
    let raw = cx.b.ins().ineg(raw);
    let v = |cx: &mut Cx, x: Value| cx.b.ins().splat(I64X2, x);
    Desc {
        base,
        stride: v(cx, stride),
        nr: v(cx, nr),
        raw: v(cx, raw),
        sh,
        esh: es,
        elo: v(cx, elo),
        nelo: v(cx, nelo),
        ilo: v(cx, ilo),
        tid: v(cx, tid),
    }
}

/// Bytes per element and the elements' offsets past a lane's start: one sub-dword
/// element, or one per dword.
fn elements(p: &BufPlan) -> (u32, u32) {
    match p.kind {
        BufKind::Load { size, .. } | BufKind::Store { size } if size < 4 => (size, 1),
        BufKind::Load { size, .. } | BufKind::Store { size } => (4, size / 4),
        BufKind::Atomic { .. } => (4, 1),
    }
}

/// The lanes of half `h` (lanes `l0 + 2h`, `+ 1`, where `l0` is the chunk's first lane)
/// of a chunk: per element, the byte offset from `BASE + SOFFSET` and the range check
/// (all ones: in range), as `i64x2`. `idx`/`off` are the chunk's index and offset VGPR
/// values.
#[allow(clippy::too_many_arguments)]
fn half(
    cx: &mut Cx,
    p: &BufPlan,
    d: &Desc,
    idx: Option<Value>,
    off: Option<Value>,
    l0: Lane0,
    h: usize,
    out: &mut Vec<(Value, Value)>,
) {
    let widen = |cx: &mut Cx, v: Value| {
        if h == 0 {
            cx.b.ins().uwiden_low(v)
        } else {
            cx.b.ins().uwiden_high(v)
        }
    };
    let lanes = match l0 {
        Lane0::Known(c) => {
            let l = (4 * c + 2 * h) as u128;
            cx.vconst(I64X2, l | (l + 1) << 64)
        }
        Lane0::Dynamic(l) => {
            let base = cx.b.ins().splat(I64X2, l);
            let k = cx.vconst(I64X2, (2 * h) as u128 | ((2 * h + 1) as u128) << 64);
            cx.b.ins().iadd(base, k)
        }
    };
    let mut index = cx.b.ins().band(d.tid, lanes);
    if let Some(v) = idx {
        let v = widen(cx, v);
        index = cx.b.ins().iadd(index, v);
    }
    let k = cx.splat64(p.bias.offset as u64);
    let off = match off {
        Some(v) => {
            let v = widen(cx, v);
            cx.b.ins().iadd(v, k)
        }
        None => k,
    };
    // The index part of the formula, the same for every element.
    let q = cx.b.ins().ushr(index, d.sh);
    let q = cx.b.ins().imul(q, d.stride);
    let q = cx.b.ins().ishl(q, d.sh);
    let r = cx.b.ins().band(index, d.ilo);
    let r = cx.b.ins().ishl(r, d.esh);
    let ipart = cx.b.ins().iadd(q, r);
    // Indices and offsets are below 2^34: signed compares are unsigned ones.
    let idx_ok = cx.b.ins().icmp(IntCC::SignedLessThan, index, d.nr);
    let (size, n) = elements(p);
    for e in 0..n {
        let o = if e == 0 {
            off
        } else {
            let k = cx.splat64(4 * e as u64);
            cx.b.ins().iadd(off, k)
        };
        let hi = cx.b.ins().band(o, d.nelo);
        let hi = cx.b.ins().ishl(hi, d.sh);
        let lo = cx.b.ins().band(o, d.elo);
        let bo = cx.b.ins().iadd(ipart, hi);
        let bo = cx.b.ins().iadd(bo, lo);
        let sz = cx.splat64(size as u64);
        let end = cx.b.ins().iadd(o, sz);
        let bytes_ok = cx.b.ins().icmp(IntCC::SignedLessThanOrEqual, end, d.nr);
        let ok = cx.b.ins().bitselect(d.raw, bytes_ok, idx_ok);
        out.push((bo, ok));
    }
}

/// The first lane of a chunk: chunk `c`'s (`4c`), or an `i64` computed in a loop over the
/// chunks.
#[derive(Clone, Copy)]
enum Lane0 {
    Known(usize),
    Dynamic(Value),
}

/// Where `chunk_lanes` reads a chunk.
#[derive(Clone, Copy)]
enum ChunkAt {
    /// Chunk `c` through the register cache (in a `Cx::for_chunks` loop body, `c` is 0 and
    /// the chunk is the loop's: `Cx::loop_chunk`).
    Cached(usize),
    /// Chunk `c`, its VGPRs as stored in the wave.
    Stored(usize),
    /// A chunk of `global::chunk_loop`: its VGPRs at `row`, its first lane `lane0` (an
    /// `i64`), EXEC as an `i64` (`None`: all ones).
    Row {
        row: Value,
        lane0: Value,
        exec: Option<Value>,
    },
}

/// Per lane pair of a chunk (two halves) and element: (byte offset, access mask = active
/// and in range), `i64x2`.
fn chunk_lanes(cx: &mut Cx, p: &BufPlan, d: &Desc, at: ChunkAt) -> Vec<(Value, Value)> {
    let rd = |cx: &mut Cx, r: u8| match at {
        ChunkAt::Cached(c) => cx.vreg(r, c),
        ChunkAt::Stored(c) => vreg_stored(cx, r, c),
        ChunkAt::Row { row, .. } => {
            let off = crate::ctx::wave_off::vgpr_chunk(r, 0);
            cx.b.ins().load(types::I32X4, mflags(), row, off)
        }
    };
    let idx = p.idxen.then(|| rd(cx, p.vaddr));
    let off = p.offen.then(|| rd(cx, p.vaddr + p.idxen as u8));
    let (m, l0) = match at {
        ChunkAt::Row { lane0, exec, .. } => {
            let m = exec.map(|e| {
                let bits = cx.b.ins().ushr(e, lane0);
                let bits = cx.b.ins().ireduce(types::I32, bits);
                cx.nibble_lanes(bits)
            });
            (m, Lane0::Dynamic(lane0))
        }
        ChunkAt::Cached(c) | ChunkAt::Stored(c) => {
            let l0 = match cx.loop_chunk {
                Some(k) => {
                    let k = cx.b.ins().uextend(types::I64, k);
                    Lane0::Dynamic(cx.b.ins().ishl_imm_u(k, 2))
                }
                None => Lane0::Known(c),
            };
            (cx.exec_lanes(c), l0)
        }
    };
    let mut out = Vec::new();
    for h in 0..2 {
        let start = out.len();
        half(cx, p, d, idx, off, l0, h, &mut out);
        if let Some(m) = m {
            let mm = if h == 0 {
                cx.b.ins().swiden_low(m)
            } else {
                cx.b.ins().swiden_high(m)
            };
            for x in &mut out[start..] {
                x.1 = cx.b.ins().band(x.1, mm);
            }
        }
    }
    out
}

/// Emit a MUBUF access through a record index and offset.
pub fn emit(cx: &mut Cx, p: &BufPlan, at: At) {
    settle(cx);
    let d = desc(cx, &p.bias, at);
    let (size, n) = elements(p);
    let atomic = matches!(p.kind, BufKind::Atomic { .. });
    // The span of the accessed bytes' offsets, and (atomics) the OR of their addresses'
    // low bits.
    let hi_n = cx.splat64(u64::MAX);
    let zero2 = cx.splat64(0);
    let sz = cx.splat64(size as u64);
    let base2 = cx.b.ins().splat(I64X2, d.base);
    let fold = |cx: &mut Cx, lanes: Vec<(Value, Value)>, acc: [Value; 3]| {
        let [mut lo, mut top, mut low] = acc;
        for (bo, ok) in lanes {
            let a = cx.b.ins().bitselect(ok, bo, hi_n);
            lo = cx.b.ins().umin(lo, a);
            let end = cx.b.ins().iadd(bo, sz);
            let b = cx.b.ins().bitselect(ok, end, zero2);
            top = cx.b.ins().umax(top, b);
            if atomic {
                let addr = cx.b.ins().iadd(bo, base2);
                let a = cx.b.ins().band(addr, ok);
                low = cx.b.ins().bor(low, a);
            }
        }
        [lo, top, low]
    };
    // The quick tier: one loop over the chunks (a sixteenth of the IR), as `for_chunks`
    // below. Everything was stored by `settle`: the loop reads the wave.
    let acc = if cx.loops && cx.vbase.is_none() {
        let exec = (!cx.exec_known_ones()).then(|| cx.sreg64(crate::slots::EXEC_LO));
        let out = super::global::chunk_loop(cx, &[hi_n, zero2, zero2], |cx, row, acc| {
            let off = cx.b.ins().isub(row, cx.wave);
            let off = if cx.ptr == types::I64 {
                off
            } else {
                cx.b.ins().uextend(types::I64, off)
            };
            let lane0 = cx.b.ins().ushr_imm_u(off, 2);
            let lanes = chunk_lanes(cx, p, &d, ChunkAt::Row { row, lane0, exec });
            fold(cx, lanes, [acc[0], acc[1], acc[2]]).to_vec()
        });
        [out[0], out[1], out[2]]
    } else {
        let mut acc = [hi_n, zero2, zero2];
        for c in 0..CHUNKS {
            let lanes = chunk_lanes(cx, p, &d, ChunkAt::Stored(c));
            acc = fold(cx, lanes, acc);
        }
        acc
    };
    let [lo, top, low] = acc;
    let low = atomic.then_some(low);
    let l0 = cx.b.ins().extractlane(lo, 0);
    let l1 = cx.b.ins().extractlane(lo, 1);
    let lo = cx.b.ins().umin(l0, l1);
    let t0 = cx.b.ins().extractlane(top, 0);
    let t1 = cx.b.ins().extractlane(top, 1);
    let top = cx.b.ins().umax(t0, t1);
    if let Some(x) = low {
        // 32-bit atomics need 4-byte aligned addresses (else the interpreter's error).
        let x0 = cx.b.ins().extractlane(x, 0);
        let x1 = cx.b.ins().extractlane(x, 1);
        let x = cx.b.ins().bor(x0, x1);
        let mis = cx.b.ins().band_imm_u(x, 3);
        let fail = cx.b.ins().icmp_imm_s(IntCC::NotEqual, mis, 0);
        side_exit_if(cx, fail, at);
    }
    // Nothing accessed (no lane active and in range): `lo` is all ones, `top` 0.
    let some = cx.b.ins().icmp(IntCC::UnsignedLessThan, lo, top);
    let lo = cx.b.ins().iadd(lo, d.base);
    let end = cx.b.ins().iadd(top, d.base);
    let z = cx.iconst64(0);
    let lo = cx.b.ins().select(some, lo, z);
    let end = cx.b.ins().select(some, end, z);
    // Offsets are below 2^55 and BASE + SOFFSET below 2^49: `end` does not wrap.
    let delta = region_delta(cx, lo, end, at, super::global::slot(at, 0));
    let host = cx.b.ins().iadd(delta, d.base);
    let host2 = cx.b.ins().splat(I64X2, host);
    // Out-of-range or inactive lanes: a load reads zeros, a store or atomic the sink.
    let alt = if matches!(p.kind, BufKind::Load { .. }) {
        cx.b.ins()
            .load(cx.ptr, mflags(), cx.jctx, crate::ctx::OFF_LDS_ZEROS)
    } else {
        sink_ptr(cx)
    };
    let alt2 = cx.b.ins().splat(I64X2, alt);
    cx.for_chunks(|cx, c| {
        let lanes = chunk_lanes(cx, p, &d, ChunkAt::Cached(c));
        // ptrs[e][lane], oks[e][lane] (an `i64` all ones where accessed).
        let mut ptrs = vec![[host; 4]; n as usize];
        let mut oks = vec![[host; 4]; n as usize];
        for (i, (bo, ok)) in lanes.iter().enumerate() {
            let (h, e) = (i / n as usize, i % n as usize);
            let a = cx.b.ins().iadd(*bo, host2);
            let a = cx.b.ins().bitselect(*ok, a, alt2);
            for j in 0..2u8 {
                ptrs[e][2 * h + j as usize] = cx.b.ins().extractlane(a, j);
                if atomic {
                    oks[e][2 * h + j as usize] = cx.b.ins().extractlane(*ok, j);
                }
            }
        }
        match p.kind {
            BufKind::Load { size, sext } => {
                let vals: Vec<Value> = (0..n as usize)
                    .map(|e| {
                        let v = ptrs[e].map(|ptr| load_lane(cx, ptr, size, sext, 0));
                        gather(cx, v)
                    })
                    .collect();
                // Written after the chunk's addresses were read: VDATA may overlap VADDR.
                for (e, v) in vals.into_iter().enumerate() {
                    cx.write_vreg(p.vdata + e as u8, c, v);
                }
            }
            BufKind::Store { size } => {
                let data: Vec<Value> = (0..n).map(|e| cx.vreg(p.vdata + e as u8, c)).collect();
                // Lane by lane, each lane's elements in order, as the interpreter.
                for l in 0..4u8 {
                    for (v, lp) in data.iter().zip(&ptrs) {
                        let x = cx.b.ins().extractlane(*v, l);
                        store_lane(cx, lp[l as usize], x, size.min(4), 0);
                    }
                }
            }
            BufKind::Atomic { op, ret } => {
                // Lane by lane in lane order, as the interpreter.
                let src = cx.vreg(p.vdata, c);
                let cmp = matches!(op, FlatAtomic::Cas).then(|| cx.vreg(p.vdata + 1, c));
                let mut f = host_flags();
                f.set_aligned();
                let mut olds = [src; 4];
                for (l, ptr) in ptrs[0].iter().enumerate() {
                    let x = cx.b.ins().extractlane(src, l as u8);
                    let old = match (op, cmp) {
                        (FlatAtomic::Cas, Some(cv)) => {
                            let e = cx.b.ins().extractlane(cv, l as u8);
                            cx.b.ins().atomic_cas(f, *ptr, e, x)
                        }
                        (FlatAtomic::Rmw(o), _) => cx.b.ins().atomic_rmw(types::I32, f, o, *ptr, x),
                        (FlatAtomic::Cas, None) => x,
                    };
                    // Out of range: nothing done, 0 returned.
                    let ok = cx.b.ins().ireduce(types::I32, oks[0][l]);
                    olds[l] = cx.b.ins().band(old, ok);
                }
                if ret {
                    let v = gather(cx, olds);
                    cx.write_vreg(p.vdata, c, v);
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use wavejit_isa::gcn::{Enc, Src};

    fn mubuf(op: Op, offen: bool, idxen: bool, addr64: bool, vaddr: u8) -> Inst {
        Inst {
            op,
            enc: Enc::Mubuf,
            fields: Fields::Mubuf(BufferFields {
                vdata: 10,
                vaddr,
                srsrc: 8,
                soffset: Src(0),
                offset: 0,
                offen,
                idxen,
                glc: false,
                slc: false,
                tfe: false,
                lds: false,
                addr64,
                format: None,
            }),
            literal: None,
        }
    }

    #[test]
    fn plans() {
        let ld = Op::BufferLoadDword;
        assert!(matches!(
            plan(Gen::Gfx6, &mubuf(ld, false, false, true, 0)),
            Some(Planned::Addr64(FlatPlan { bias: Some(_), .. }))
        ));
        // ADDR64 does not exist on GCN 1.2, nor with OFFEN.
        assert!(plan(Gen::Gfx8, &mubuf(ld, false, false, true, 0)).is_none());
        assert!(plan(Gen::Gfx7, &mubuf(ld, true, false, true, 0)).is_none());
        assert!(matches!(
            plan(Gen::Gfx8, &mubuf(ld, true, true, false, 254)),
            Some(Planned::Buf(_))
        ));
        // Index and offset registers v255, v256: past the register file.
        assert!(plan(Gen::Gfx8, &mubuf(ld, true, true, false, 255)).is_none());
        // inc/dec have no host atomic.
        assert!(plan(
            Gen::Gfx8,
            &mubuf(Op::BufferAtomicInc, true, false, false, 0)
        )
        .is_none());
        assert!(plan(Gen::Gfx8, &mubuf(Op::BufferWbinvl1, false, false, false, 0)).is_none());
    }
}
