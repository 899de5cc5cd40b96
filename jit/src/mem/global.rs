//! Global memory inline: the region check shared by vector and scalar accesses, and the
//! FLAT loads, stores and 32-bit atomics (`wavejit_interp::mem::flat` defines them;
//! atomics also 4-byte aligned, each lane's read-modify-write a host atomic, in lane
//! order). The 64-bit atomics stay with the helper (`Memory::rmw_u64`, atomic across host
//! threads): a region's dwords are only 4-byte aligned on the host, and a host 64-bit
//! atomic across a cache line is a split lock.
//!
//! The check covers the span from the lowest to the highest active address (plus the
//! access size): `hi_min:lo_min` is at or below every address and `hi_max:lo_max + size`
//! at or above every end, so when one mapped region holds that span every lane's access
//! is in bounds — the interpreter's check, made once. Most instructions address one
//! buffer, so a cache of regions answers inline — one slot per access by its place among
//! the unit's memory instructions (scalar loads share slot 0), the thread's, kept from
//! one run to the next while the same `Memory` is unchanged (`JitCtx::gcache`); a miss
//! calls `mem_span`, which looks the span up and refills the slot.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types;
use cranelift_codegen::ir::{AbiParam, AtomicRmwOp, BlockArg, InstBuilder, Signature, Value};
use cranelift_codegen::isa::CallConv;
use wavejit_isa::gcn::FlatFields;
use wavejit_isa::gcn::{Fields, Inst, Op};

use super::access::{
    any_active, gather, host_flags, lane_ptrs, load_fence, load_lane, reduce, reduce_or, settle,
    side_exit, side_exit_if, sink_ptr, store_lane, vreg_stored, At,
};
use crate::block::{mflags, Cx, CHUNKS};
use crate::ctx::{GRegion, JitCtx, G_OFF_DELTA, G_OFF_END, G_OFF_LO, G_SIZE, G_SLOTS, OFF_GCACHE};

/// Look up the global region holding `lo..end` and make it the cached one. Returns 1 if
/// the accesses may go ahead inline (`lo == end`: nothing is accessed), 0 if not.
///
/// # Safety
/// `ctx` is the context the dispatcher passed to the running block.
pub unsafe extern "C" fn mem_span(ctx: *mut JitCtx, lo: u64, end: u64, slot: u64) -> u32 {
    let ctx = unsafe { &mut *ctx };
    if lo == end {
        return 1;
    }
    // SAFETY: set from a live reference for this run; nothing maps memory during it.
    let mem = unsafe { &*ctx.mem };
    match mem.region_spanning(lo, end) {
        Some(r) => {
            // SAFETY: `gcache` points at `G_SLOTS` slots only this context uses while it
            // lives (`JitCtx::new`).
            unsafe {
                *ctx.gcache.add(slot as usize % G_SLOTS) = GRegion {
                    lo: r.base,
                    end: r.base + r.len,
                    delta: (r.host_ptr() as u64).wrapping_sub(r.base),
                };
            }
            1
        }
        None => 0,
    }
}

/// The region cache slot of the `k`th vector access checked for the instruction at `at`
/// (a run of loads checks several, the consecutive memory instructions from `at`): by
/// its place among the unit's memory instructions, so that up to `G_SLOTS - 1` accesses
/// of a unit to different buffers keep their regions. Slot 0 is the scalar loads' (they
/// mostly read the kernel arguments, in every unit; `SCALAR_SLOT`).
pub fn slot(at: At, k: usize) -> usize {
    1 + (at.nth as usize + k) % (G_SLOTS - 1)
}

/// The region cache slot of scalar loads.
pub const SCALAR_SLOT: usize = 0;

/// The host-minus-guest delta of the region holding `lo..end` (`i64`s; `lo == end` when
/// no lane accesses anything), looked up in region cache slot `slot` first. A span no
/// single region holds leaves through the side exit that runs the instruction `at`
/// through the interpreter.
pub fn region_delta(cx: &mut Cx, lo: Value, end: Value, at: At, slot: usize) -> Value {
    let flags = mflags();
    let g = G_SIZE * (slot % G_SLOTS) as i32;
    let gp = cx.b.ins().load(cx.ptr, flags, cx.jctx, OFF_GCACHE);
    let c_lo = cx.b.ins().load(types::I64, flags, gp, g + G_OFF_LO);
    let c_end = cx.b.ins().load(types::I64, flags, gp, g + G_OFF_END);
    let a = cx.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, lo, c_lo);
    let b = cx.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, c_end);
    let c = cx.b.ins().icmp(IntCC::UnsignedLessThan, lo, end);
    let ab = cx.b.ins().band(a, b);
    let hit = cx.b.ins().band(ab, c);
    let miss = cx.b.create_block();
    let join = cx.b.create_block();
    cx.b.set_cold_block(miss);
    cx.b.ins().brif(hit, join, &[], miss, &[]);
    cx.b.switch_to_block(miss);
    cx.b.seal_block(miss);
    let mut sig = Signature::new(CallConv::SystemV);
    sig.params.push(AbiParam::new(cx.ptr));
    sig.params.push(AbiParam::new(types::I64));
    sig.params.push(AbiParam::new(types::I64));
    sig.params.push(AbiParam::new(types::I64));
    sig.returns.push(AbiParam::new(types::I32));
    let sref = cx.b.import_signature(sig);
    let f =
        cx.b.ins()
            .load(cx.ptr, flags, cx.jctx, crate::ctx::OFF_MEM_SPAN);
    let k = cx.iconst64(slot as u64);
    let call = cx.b.ins().call_indirect(sref, f, &[cx.jctx, lo, end, k]);
    let ok = cx.b.inst_results(call)[0];
    let side = cx.b.create_block();
    cx.b.set_cold_block(side);
    cx.b.ins().brif(ok, join, &[], side, &[]);
    cx.b.switch_to_block(side);
    cx.b.seal_block(side);
    side_exit(cx, at);
    cx.b.switch_to_block(join);
    cx.b.seal_block(join);
    cx.b.ins().load(types::I64, flags, gp, g + G_OFF_DELTA)
}

/// The read-modify-write of a FLAT atomic lowered inline (32-bit: Cranelift's atomics on
/// the host dword; the interpreter's `Memory::rmw_u32` is atomic across host threads too).
#[derive(Clone, Copy, Debug)]
pub enum FlatAtomic {
    Rmw(AtomicRmwOp),
    /// `M = (M == DATA[1]) ? DATA[0] : M`.
    Cas,
}

/// A FLAT load, store or 32-bit atomic lowered inline.
#[derive(Clone, Copy, Debug)]
pub struct FlatPlan {
    /// Bytes per lane: 1, 2, 4, 8, 12 or 16.
    pub size: u32,
    /// Sign-extend a 1- or 2-byte load.
    pub sext: bool,
    pub store: bool,
    /// VDST (loads) or DATA (stores).
    pub reg: u8,
    /// The address pair.
    pub addr: u8,
    /// An atomic: its operation, and the VGPR that receives the old value (GLC=1).
    pub atomic: Option<(FlatAtomic, Option<u8>)>,
    /// A wave-uniform 64-bit amount added to every lane's address (MUBUF ADDR64:
    /// `super::buffer`); `None` for FLAT.
    pub bias: Option<super::rsrc::Bias>,
    /// The VGPR whose lanes at the unit's header, tested lane-linear
    /// (`lane_linear`), make the address pair's lanes consecutive dwords once lane 63 is
    /// lane 0's plus 252 (`gcn::lanelin`); `None`: not known.
    pub lin: Option<u8>,
}

/// The host read-modify-write of a 32-bit vector memory atomic (FLAT or MUBUF), if it
/// has one (`inc`/`dec` have none and stay with the helper).
pub fn host_atomic(op: Op) -> Option<FlatAtomic> {
    use AtomicRmwOp as R;
    use FlatAtomic::*;
    let (op, 4) = wavejit_interp::mem::atomic::vmem_atomic(op)? else {
        return None;
    };
    use wavejit_interp::mem::atomic::AtomicOp as A;
    Some(match op {
        A::Swap => Rmw(R::Xchg),
        A::CmpSwap => Cas,
        A::Add => Rmw(R::Add),
        A::Sub => Rmw(R::Sub),
        A::Smin => Rmw(R::Smin),
        A::Umin => Rmw(R::Umin),
        A::Smax => Rmw(R::Smax),
        A::Umax => Rmw(R::Umax),
        A::And => Rmw(R::And),
        A::Or => Rmw(R::Or),
        A::Xor => Rmw(R::Xor),
        _ => return None,
    })
}

fn kind(op: Op) -> Option<(u32, bool, bool)> {
    use Op::*;
    Some(match op {
        FlatLoadUbyte => (1, false, false),
        FlatLoadSbyte => (1, true, false),
        FlatLoadUshort => (2, false, false),
        FlatLoadSshort => (2, true, false),
        FlatLoadDword => (4, false, false),
        FlatLoadDwordx2 => (8, false, false),
        FlatLoadDwordx3 => (12, false, false),
        FlatLoadDwordx4 => (16, false, false),
        FlatStoreByte => (1, false, true),
        FlatStoreShort => (2, false, true),
        FlatStoreDword => (4, false, true),
        FlatStoreDwordx2 => (8, false, true),
        FlatStoreDwordx3 => (12, false, true),
        FlatStoreDwordx4 => (16, false, true),
        _ => return None,
    })
}

/// Plan a FLAT load, store or 32-bit atomic (not TFE; every register in range).
pub fn plan(inst: &Inst) -> Option<FlatPlan> {
    let Fields::Flat(FlatFields {
        vdst,
        addr,
        data,
        glc,
        tfe: false,
        ..
    }) = inst.fields
    else {
        return None;
    };
    if let Some(a) = host_atomic(inst.op) {
        let n = if matches!(a, FlatAtomic::Cas) { 2 } else { 1 };
        if addr as u32 + 1 > 255 || data as u32 + n > 256 {
            return None;
        }
        return Some(FlatPlan {
            size: 4,
            sext: false,
            store: true,
            reg: data,
            addr,
            atomic: Some((a, glc.then_some(vdst))),
            bias: None,
            lin: None,
        });
    }
    let (size, sext, store) = kind(inst.op)?;
    let reg = if store { data } else { vdst };
    let n = size.div_ceil(4);
    if addr as u32 + 1 > 255 || reg as u32 + n - 1 > 255 {
        return None;
    }
    Some(FlatPlan {
        size,
        sext,
        store,
        reg,
        addr,
        atomic: None,
        bias: None,
        lin: None,
    })
}

/// Emit a FLAT load or store.
pub fn emit(cx: &mut Cx, p: &FlatPlan, at: At) {
    settle(cx);
    let delta = check(cx, p, at, 0);
    let sink = sink_ptr(cx);
    cx.for_chunks(|cx, c| chunk(cx, p, delta, sink, c));
}

/// The check of `p`'s active addresses (the wave's VGPRs hold every value: `settle`;
/// `p` is the `k`th access checked for `at`),
/// leaving through the side exit of `at` when it fails; the host address of a lane's
/// access minus its address pair (the region's delta plus `p.bias`).
pub fn check(cx: &mut Cx, p: &FlatPlan, at: At, k: usize) -> Value {
    // The bias (and its own checks) first: a failing format check leaves before anything.
    let bias = p.bias.map(|b| super::rsrc::bias(cx, &b, at));
    check_biased(cx, p, bias, at, k)
}

/// `check` with `p`'s bias already computed.
fn check_biased(cx: &mut Cx, p: &FlatPlan, bias: Option<Value>, at: At, k: usize) -> Value {
    // The span of the active lanes' addresses (inactive lanes neutral).
    let ones = cx.splat32(u32::MAX);
    let zero = cx.splat32(0);
    // Atomics test the alignment of the biased address: its low half's low bits.
    let bias_lo = bias.map(|k| {
        let k = cx.b.ins().ireduce(types::I32, k);
        cx.splat(types::I32X4, k)
    });
    let mut acc: Option<[Value; 4]> = None;
    // Atomics need 4-byte aligned addresses (else the interpreter's error).
    let mut low: Option<Value> = None;
    for c in 0..CHUNKS {
        let lo = vreg_stored(cx, p.addr, c);
        let hi = vreg_stored(cx, p.addr + 1, c);
        let m = cx.exec_lanes(c);
        if p.atomic.is_some() {
            let a = match bias_lo {
                None => lo,
                Some(k) => cx.b.ins().iadd(lo, k),
            };
            let l = match m {
                None => a,
                Some(m) => cx.b.ins().bitselect(m, a, zero),
            };
            low = Some(match low {
                None => l,
                Some(o) => cx.b.ins().bor(o, l),
            });
        }
        let (lmin, lmax, hmin, hmax) = match m {
            None => (lo, lo, hi, hi),
            Some(m) => (
                cx.b.ins().bitselect(m, lo, ones),
                cx.b.ins().bitselect(m, lo, zero),
                cx.b.ins().bitselect(m, hi, ones),
                cx.b.ins().bitselect(m, hi, zero),
            ),
        };
        acc = Some(match acc {
            None => [lmin, lmax, hmin, hmax],
            Some([a, b, c2, d]) => [
                cx.b.ins().umin(a, lmin),
                cx.b.ins().umax(b, lmax),
                cx.b.ins().umin(c2, hmin),
                cx.b.ins().umax(d, hmax),
            ],
        });
    }
    let [vlmin, vlmax, vhmin, vhmax] = acc.unwrap_or([ones, zero, ones, zero]);
    let lmin = reduce(cx, vlmin, false);
    let lmax = reduce(cx, vlmax, true);
    let hmin = reduce(cx, vhmin, false);
    let hmax = reduce(cx, vhmax, true);
    let lo = cx.concat64(lmin, hmin);
    let top = cx.concat64(lmax, hmax);
    let mut end = cx.b.ins().iadd_imm_s(top, p.size as i64);
    let any = any_active(cx);
    // An access running past 2^64 wraps `end` below `top`; the span would then miss that
    // lane's bytes (and a bias could make it look like a valid span again).
    let mut wrapped = cx.b.ins().icmp(IntCC::UnsignedLessThan, end, top);
    if let Some(a) = any {
        wrapped = cx.b.ins().band(wrapped, a);
    }
    side_exit_if(cx, wrapped, at);
    let mut lo = lo;
    if let Some(k) = bias {
        // Adding the bias may wrap past 2^64: then `end < lo` (the span is below 2^64
        // bytes), which no region holds, and the interpreter reports the lane.
        lo = cx.b.ins().iadd(lo, k);
        end = cx.b.ins().iadd(end, k);
    }
    if let Some(o) = low {
        let o = reduce_or(cx, o);
        let mis = cx.b.ins().band_imm_u(o, 3);
        let mut fail = cx.b.ins().icmp_imm_s(IntCC::NotEqual, mis, 0);
        if let Some(a) = any {
            fail = cx.b.ins().band(fail, a);
        }
        side_exit_if(cx, fail, at);
    }
    let (lo, end) = match any {
        None => (lo, end),
        Some(any) => {
            let z = cx.iconst64(0);
            (
                cx.b.ins().select(any, lo, z),
                cx.b.ins().select(any, end, z),
            )
        }
    };
    let delta = region_delta(cx, lo, end, at, slot(at, k));
    match bias {
        None => delta,
        Some(k) => cx.b.ins().iadd(delta, k),
    }
}

/// Chunk `c` of `p` after its check: each lane's bytes at its host address.
pub fn chunk(cx: &mut Cx, p: &FlatPlan, delta: Value, sink: Value, c: usize) {
    let n = p.size.div_ceil(4) as usize;
    let lo = cx.vreg(p.addr, c);
    let hi = cx.vreg(p.addr + 1, c);
    let m = cx.exec_lanes(c);
    let ptrs = lane_ptrs(cx, lo, Some(hi), m, delta, sink);
    if let Some((a, ret)) = p.atomic {
        // Lane by lane in lane order, as the interpreter (inactive lanes on the sink).
        let src = cx.vreg(p.reg, c);
        let cmp = matches!(a, FlatAtomic::Cas).then(|| cx.vreg(p.reg + 1, c));
        let mut f = host_flags();
        f.set_aligned();
        let mut olds = [src; 4];
        for (l, ptr) in ptrs.iter().enumerate() {
            let x = cx.b.ins().extractlane(src, l as u8);
            olds[l] = match (a, cmp) {
                (FlatAtomic::Cas, Some(cv)) => {
                    let e = cx.b.ins().extractlane(cv, l as u8);
                    cx.b.ins().atomic_cas(f, *ptr, e, x)
                }
                (FlatAtomic::Rmw(op), _) => cx.b.ins().atomic_rmw(types::I32, f, op, *ptr, x),
                (FlatAtomic::Cas, None) => x,
            };
        }
        if let Some(r) = ret {
            let v = gather(cx, olds);
            cx.write_vreg(r, c, v);
        }
    } else if p.store {
        let data: Vec<Value> = (0..n).map(|i| cx.vreg(p.reg + i as u8, c)).collect();
        for (l, ptr) in ptrs.iter().enumerate() {
            for (i, d) in data.iter().enumerate() {
                let v = cx.b.ins().extractlane(*d, l as u8);
                store_lane(cx, *ptr, v, p.size.min(4), 4 * i as i32);
            }
        }
    } else {
        for i in 0..n {
            let vals = ptrs.map(|ptr| load_lane(cx, ptr, p.size, p.sext, 4 * i as i32));
            let v = gather(cx, vals);
            // The lanes' addresses were taken before this chunk's first write, and a
            // chunk only overlaps itself: VDST may overlap ADDR.
            cx.write_vreg(p.reg + i as u8, c, v);
        }
    }
}

/// Whether `p` may take `emit_dwords`: a dword load or store (not an atomic) where EXEC is
/// known to be all ones.
pub fn dword_plan(cx: &Cx, p: &FlatPlan) -> bool {
    p.size == 4 && p.atomic.is_none() && cx.exec_known_ones()
}

/// FLAT dword loads and stores (`dword_plan`; several: a run of loads `joins` accepted,
/// checked as one) with a fast path for the common streaming case: when every lane's
/// address is the lane 0 address plus 4 × lane (the same high half, no carry), each chunk
/// of four lanes is one 16-byte host access. When instead only each chunk's lanes are
/// consecutive (rows of a 2-D workgroup: a wave covers several rows; every lane the same
/// high half, no carry within a chunk), the span check of `check` and then one 16-byte
/// access per chunk at its lane 0's address: chunks in lane order, a chunk's four
/// addresses distinct, so same-address stores keep the interpreter's order (the highest
/// lane wins). Otherwise lane by lane, in lane order, as `chunk` does, after the span
/// check of `check`. Every path reads and writes the wave's registers in memory, so the
/// register cache (empty after `settle`) is valid after the join.
pub fn emit_dwords(cx: &mut Cx, run: &[FlatPlan], at: At) {
    settle(cx);
    let flags = mflags();
    let biases: Vec<Option<Value>> = run
        .iter()
        .map(|p| p.bias.map(|b| super::rsrc::bias(cx, &b, at)))
        .collect();
    // Contiguity of every instruction's addresses.
    let iota = [0u32, 4, 8, 12];
    let mut firsts = Vec::with_capacity(run.len());
    let mut contig: Option<Value> = None;
    for p in run {
        if let Some(&(_, [ok, lo0, hi0])) = cx.flat_contig.iter().find(|(a, _)| *a == p.addr) {
            // Tested by an earlier access of the unit, the pair unwritten since.
            contig = Some(match contig {
                None => ok,
                Some(x) => cx.b.ins().band(x, ok),
            });
            firsts.push(first_address(cx, lo0, hi0));
            continue;
        }
        let off = crate::ctx::wave_off::vgpr_chunk(p.addr, 0);
        let lo0 = cx.b.ins().load(types::I32, flags, cx.wave, off);
        let off = crate::ctx::wave_off::vgpr_chunk(p.addr + 1, 0);
        let hi0 = cx.b.ins().load(types::I32, flags, cx.wave, off);
        // Lane 63 first, as scalars: the rows of a 2-D workgroup (a stencil's waves span
        // several rows) fail here, without the test of the 16 chunks. Lane 63 at lane 0's
        // address + 252 with lane 0's high half, and lane 0's low half at most
        // 2^32 - 256 (no carry into the high half): then the chunks' test decides.
        let last = crate::ctx::wave_off::vgpr_chunk(p.addr, CHUNKS - 1) + 12;
        let lo63 = cx.b.ins().load(types::I32, flags, cx.wave, last);
        let last = crate::ctx::wave_off::vgpr_chunk(p.addr + 1, CHUNKS - 1) + 12;
        let hi63 = cx.b.ins().load(types::I32, flags, cx.wave, last);
        let want63 = cx.b.ins().iadd_imm_s(lo0, 252);
        let a = cx.b.ins().icmp(IntCC::Equal, lo63, want63);
        let b = cx.b.ins().icmp(IntCC::Equal, hi63, hi0);
        // Lane 63's low half must not carry into the high half.
        let nowrap =
            cx.b.ins()
                .icmp_imm_u(IntCC::UnsignedLessThanOrEqual, lo0, (u32::MAX - 252) as i64);
        let ab = cx.b.ins().band(a, b);
        let pre = cx.b.ins().band(ab, nowrap);
        // Defined here, before the branch, so that nothing cached for later code is
        // defined in the chunks' test block, which does not dominate it.
        let step = cx.lanes32(iota);
        let next = cx.splat32(16);
        let test = cx.b.create_block();
        let decided = cx.b.create_block();
        let ok = cx.b.append_block_param(decided, types::I8);
        let no = cx.b.ins().iconst(types::I8, 0);
        let linear = p
            .lin
            .and_then(|r| cx.lin_ok.iter().find(|(q, _)| *q == r).map(|&(_, v)| v));
        match linear {
            // The pair is lane-linear when its source VGPR was at the header (tested
            // there) and lane 63 is lane 0's plus 252 (`gcn::lanelin` gives the argument):
            // then contiguous without the chunks' test, which runs only if the header's
            // test failed.
            Some(lin) => {
                let yes = cx.b.ins().iconst(types::I8, 1);
                let both = cx.b.ins().band(pre, lin);
                let other = cx.b.create_block();
                cx.b.ins()
                    .brif(both, decided, &[BlockArg::Value(yes)], other, &[]);
                cx.b.switch_to_block(other);
                cx.b.seal_block(other);
                cx.b.ins()
                    .brif(pre, test, &[], decided, &[BlockArg::Value(no)]);
            }
            None => {
                cx.b.ins()
                    .brif(pre, test, &[], decided, &[BlockArg::Value(no)]);
            }
        }
        cx.b.switch_to_block(test);
        cx.b.seal_block(test);
        let vlo = cx.b.ins().splat(types::I32X4, lo0);
        let vhi = cx.b.ins().splat(types::I32X4, hi0);
        // Chunk c's wanted addresses are chunk c - 1's plus 16: one add per chunk and two
        // constants in all (a constant per chunk is shared with every other check of the
        // unit, so it is live, and spilled, between them).
        let mut want = cx.b.ins().iadd(vlo, step);
        let mut eq: Option<Value> = None;
        for c in 0..CHUNKS {
            if c > 0 {
                want = cx.b.ins().iadd(want, next);
            }
            let lo = vreg_stored(cx, p.addr, c);
            let hi = vreg_stored(cx, p.addr + 1, c);
            let a = cx.b.ins().icmp(IntCC::Equal, lo, want);
            let b = cx.b.ins().icmp(IntCC::Equal, hi, vhi);
            let ab = cx.b.ins().band(a, b);
            let acc = match eq {
                None => ab,
                Some(x) => cx.b.ins().band(x, ab),
            };
            // Anchor the test of every four chunks here: Cranelift places pure
            // instructions at their first use, which would otherwise be the branch after
            // the last chunk, with every chunk's two loads (32 vectors) live until then
            // and spilled. Four chunks' eight loads fit the registers; a store per chunk
            // costs one instruction more per chunk.
            if c % 4 == 3 {
                let sink = sink_ptr(cx);
                cx.b.ins().store(flags, acc, sink, 0);
            }
            eq = Some(acc);
        }
        let all = match eq {
            Some(e) => cx.b.ins().vall_true(e),
            None => cx.b.ins().iconst(types::I8, 1),
        };
        cx.b.ins().jump(decided, &[BlockArg::Value(all)]);
        cx.b.switch_to_block(decided);
        cx.b.seal_block(decided);
        contig = Some(match contig {
            None => ok,
            Some(x) => cx.b.ins().band(x, ok),
        });
        firsts.push(first_address(cx, lo0, hi0));
        // Valid for later accesses through the pair unless this run's loads write it.
        let kept = run.iter().all(|q| {
            q.store || {
                let n = q.size.div_ceil(4);
                let (a, d) = (p.addr as u32, q.reg as u32);
                a + 2 <= d || d + n <= a
            }
        });
        if kept {
            cx.flat_contig.push((p.addr, [ok, lo0, hi0]));
        }
    }
    let contig = match contig {
        Some(v) => v,
        None => cx.b.ins().iconst(types::I8, 0),
    };
    let fast = cx.b.create_block();
    let other = cx.b.create_block();
    let by_rows = cx.b.create_block();
    let slow = cx.b.create_block();
    let join = cx.b.create_block();
    cx.b.ins().brif(contig, fast, &[], other, &[]);

    cx.b.switch_to_block(fast);
    cx.b.seal_block(fast);
    let hf = host_flags();
    // Contiguous: lane l's access is at `first + bias + 4l` (modulo 2^64, as the biased
    // address wraps), so the span is the 256 bytes from lane 0's — no reductions. A span
    // running past 2^64 has `end < lo` and fails.
    let mut bases = Vec::with_capacity(run.len());
    for (k, ((_, first), bias)) in firsts.iter().zip(&biases).enumerate() {
        let lo = match bias {
            Some(k) => cx.b.ins().iadd(*first, *k),
            None => *first,
        };
        let end = cx.b.ins().iadd_imm_s(lo, 4 * 64);
        let delta = region_delta(cx, lo, end, at, slot(at, k));
        bases.push(cx.b.ins().iadd(lo, delta));
    }
    for c in 0..CHUNKS {
        for (p, base) in run.iter().zip(&bases) {
            let off = crate::ctx::wave_off::vgpr_chunk(p.reg, c);
            let host = 16 * c as i32;
            if p.store {
                let v = cx.b.ins().load(types::I32X4, flags, cx.wave, off);
                cx.b.ins().store(hf, v, *base, host);
            } else {
                let v = cx.b.ins().load(types::I32X4, hf, *base, host);
                cx.b.ins().store(flags, v, cx.wave, off);
            }
        }
    }
    cx.b.ins().jump(join, &[]);

    // Not contiguous: are the chunks? Each chunk's lanes its lane 0's address plus 0, 4,
    // 8 and 12 with lane 0's high half, lane 0's low half at most 2^32 - 16 (no carry);
    // then the lanes span from the lowest lane-0 address to the highest plus 16. Both the
    // test and the accesses are loops over the chunks (a sixteenth of the IR: they are
    // the less common shape, and compile time counts).
    cx.b.switch_to_block(other);
    cx.b.seal_block(other);
    load_fence(cx);
    // The quick tier compiles for compile time: no path by chunks there (its code turns
    // into this once hot).
    let mut rows: Option<Value> = None;
    let mut spans = Vec::with_capacity(run.len());
    if !cx.loops {
        let steps = cx.lanes32(iota);
        let (ones, zero) = (cx.splat32(u32::MAX), cx.splat32(0));
        let vhis: Vec<Value> = firsts
            .iter()
            .map(|(hi64, _)| {
                let h = cx.b.ins().ushr_imm_u(*hi64, 32);
                let h = cx.b.ins().ireduce(types::I32, h);
                cx.b.ins().splat(types::I32X4, h)
            })
            .collect();
        // Per access: the chunks' test (all ones while every chunk passes), the lowest
        // and the highest chunk start.
        let init: Vec<Value> = run.iter().flat_map(|_| [ones, ones, zero]).collect();
        let out = chunk_loop(cx, &init, |cx, row, acc| {
            let mut next = Vec::with_capacity(acc.len());
            for ((p, vhi), a) in run.iter().zip(&vhis).zip(acc.chunks(3)) {
                let of = |r: u8| crate::ctx::wave_off::vgpr_chunk(r, 0);
                let lo = cx.b.ins().load(types::I32X4, flags, row, of(p.addr));
                let hi = cx.b.ins().load(types::I32X4, flags, row, of(p.addr + 1));
                let l0 = super::access::lane0(cx, lo);
                let d = cx.b.ins().isub(lo, l0);
                let r = cx.b.ins().icmp(IntCC::Equal, d, steps);
                let h = cx.b.ins().icmp(IntCC::Equal, hi, *vhi);
                let rh = cx.b.ins().band(r, h);
                next.push(cx.b.ins().band(a[0], rh));
                next.push(cx.b.ins().umin(a[1], l0));
                next.push(cx.b.ins().umax(a[2], l0));
            }
            next
        });
        for ((hi64, _), a) in firsts.iter().zip(out.chunks(3)) {
            let row = cx.b.ins().vall_true(a[0]);
            let lmin = super::access::reduce(cx, a[1], false);
            let lmax = super::access::reduce(cx, a[2], true);
            let nc =
                cx.b.ins()
                    .icmp_imm_u(IntCC::UnsignedLessThanOrEqual, lmax, (u32::MAX - 15) as i64);
            let ok = cx.b.ins().band(row, nc);
            rows = Some(rows.map_or(ok, |x| cx.b.ins().band(x, ok)));
            let lmin = cx.b.ins().uextend(types::I64, lmin);
            let lmax = cx.b.ins().uextend(types::I64, lmax);
            let lo = cx.b.ins().bor(lmin, *hi64);
            let top = cx.b.ins().bor(lmax, *hi64);
            spans.push((lo, cx.b.ins().iadd_imm_s(top, 16)));
        }
    }
    let rows = match rows {
        Some(v) if spans.len() == run.len() => v,
        _ => cx.b.ins().iconst(types::I8, 0),
    };
    cx.b.ins().brif(rows, by_rows, &[], slow, &[]);

    cx.b.switch_to_block(by_rows);
    cx.b.seal_block(by_rows);
    let mut deltas = Vec::with_capacity(run.len());
    for (k, ((lo, end), bias)) in spans.iter().zip(&biases).enumerate() {
        // A biased span that wraps past 2^64 has `end < lo`, which no region holds.
        let (lo, end) = match bias {
            Some(b) => (cx.b.ins().iadd(*lo, *b), cx.b.ins().iadd(*end, *b)),
            None => (*lo, *end),
        };
        let delta = region_delta(cx, lo, end, at, slot(at, k));
        deltas.push(match bias {
            Some(b) => cx.b.ins().iadd(delta, *b),
            None => delta,
        });
    }
    if deltas.len() == run.len() {
        chunk_loop(cx, &[], |cx, row, _| {
            for (p, delta) in run.iter().zip(&deltas) {
                // Lane 0 of the chunk: the lowest address, its three neighbours after it.
                let of = |r: u8| crate::ctx::wave_off::vgpr_chunk(r, 0);
                let lo = cx.b.ins().load(types::I32, flags, row, of(p.addr));
                let hi = cx.b.ins().load(types::I32, flags, row, of(p.addr + 1));
                let lo = cx.b.ins().uextend(types::I64, lo);
                let hi = cx.b.ins().uextend(types::I64, hi);
                let hi = cx.b.ins().ishl_imm_u(hi, 32);
                let a = cx.b.ins().bor(lo, hi);
                let ptr = cx.b.ins().iadd(a, *delta);
                if p.store {
                    let v = cx.b.ins().load(types::I32X4, flags, row, of(p.reg));
                    cx.b.ins().store(hf, v, ptr, 0);
                } else {
                    let v = cx.b.ins().load(types::I32X4, hf, ptr, 0);
                    // The chunk's address was read above: VDST may overlap ADDR.
                    cx.b.ins().store(flags, v, row, of(p.reg));
                }
            }
            Vec::new()
        });
    }
    cx.b.ins().jump(join, &[]);

    cx.b.switch_to_block(slow);
    cx.b.seal_block(slow);
    load_fence(cx);
    let deltas: Vec<Value> = run
        .iter()
        .zip(&biases)
        .enumerate()
        .map(|(k, (p, b))| check_biased(cx, p, *b, at, k))
        .collect();
    for c in 0..CHUNKS {
        for (p, delta) in run.iter().zip(&deltas) {
            let lo = vreg_stored(cx, p.addr, c);
            let hi = vreg_stored(cx, p.addr + 1, c);
            let mut ptrs = [*delta; 4];
            for (l, ptr) in ptrs.iter_mut().enumerate() {
                let a = cx.b.ins().extractlane(lo, l as u8);
                let h = cx.b.ins().extractlane(hi, l as u8);
                let a = cx.b.ins().uextend(types::I64, a);
                let h = cx.b.ins().uextend(types::I64, h);
                let h = cx.b.ins().ishl_imm_u(h, 32);
                let a = cx.b.ins().bor(a, h);
                *ptr = cx.b.ins().iadd(a, *delta);
            }
            let off = crate::ctx::wave_off::vgpr_chunk(p.reg, c);
            if p.store {
                let v = cx.b.ins().load(types::I32X4, flags, cx.wave, off);
                for (l, ptr) in ptrs.iter().enumerate() {
                    let x = cx.b.ins().extractlane(v, l as u8);
                    cx.b.ins().store(hf, x, *ptr, 0);
                }
            } else {
                let vals = ptrs.map(|ptr| cx.b.ins().load(types::I32, hf, ptr, 0));
                let mut v = cx.b.ins().scalar_to_vector(types::I32X4, vals[0]);
                for (l, x) in vals.iter().enumerate().skip(1) {
                    v = cx.b.ins().insertlane(v, *x, l as u8);
                }
                // The chunk's addresses were read above: VDST may overlap ADDR.
                cx.b.ins().store(flags, v, cx.wave, off);
            }
        }
    }
    cx.b.ins().jump(join, &[]);

    cx.b.switch_to_block(join);
    cx.b.seal_block(join);
    // The checks of the other paths made vector constants there (cached): forget them
    // (no splats were cached: these plans are not atomics).
    settle(cx);
}

/// Whether every lane of `v[reg]` is lane 0's plus the lane's number, modulo 2^32 (an
/// `i8` truth value), from the wave's registers: the unit's header tests the VGPRs that
/// `gcn::lanelin` found its FLAT addresses made from (`FlatPlan::lin`).
pub fn lane_linear(cx: &mut Cx, reg: u8) -> Value {
    let flags = mflags();
    let off = crate::ctx::wave_off::vgpr_chunk(reg, 0);
    let e0 = cx.b.ins().load(types::I32, flags, cx.wave, off);
    let e0 = cx.b.ins().splat(types::I32X4, e0);
    let step = cx.lanes32([0, 1, 2, 3]);
    let four = cx.splat32(4);
    let mut want = cx.b.ins().iadd(e0, step);
    let mut acc: Option<Value> = None;
    for c in 0..CHUNKS {
        if c > 0 {
            want = cx.b.ins().iadd(want, four);
        }
        let v = vreg_stored(cx, reg, c);
        let e = cx.b.ins().icmp(IntCC::Equal, v, want);
        let a = match acc {
            None => e,
            Some(x) => cx.b.ins().band(x, e),
        };
        // Anchored every four chunks, as the contiguity test (`emit_dwords`): the
        // compares would otherwise be placed at the first use, far into the unit, with
        // every load live until then.
        if c % 4 == 3 {
            let sink = sink_ptr(cx);
            cx.b.ins().store(flags, a, sink, 0);
        }
        acc = Some(a);
    }
    match acc {
        Some(a) => cx.b.ins().vall_true(a),
        None => cx.b.ins().iconst(types::I8, 1),
    }
}

/// Lane 0's address from its low and high halves: (high half << 32, the address).
fn first_address(cx: &mut Cx, lo0: Value, hi0: Value) -> (Value, Value) {
    let lo64 = cx.b.ins().uextend(types::I64, lo0);
    let hi64 = cx.b.ins().uextend(types::I64, hi0);
    let hi64 = cx.b.ins().ishl_imm_u(hi64, 32);
    (hi64, cx.b.ins().bor(lo64, hi64))
}

/// A loop over the 16 chunks of the wave's VGPRs carrying `init` (loop-carried values of
/// any type): `body(cx, row, carried)` gets `row`, the wave's address plus 16 × the chunk
/// (a VGPR's chunk at `row + vgpr_chunk(reg, 0)`), and returns the carried values for
/// the next chunk; the last chunk's are returned. The body must not branch out.
pub(super) fn chunk_loop(
    cx: &mut Cx,
    init: &[Value],
    mut body: impl FnMut(&mut Cx, Value, &[Value]) -> Vec<Value>,
) -> Vec<Value> {
    use cranelift_codegen::ir::BlockArg;
    let head = cx.b.create_block();
    let exit = cx.b.create_block();
    let off = cx.b.append_block_param(head, cx.ptr);
    let tys: Vec<_> = init.iter().map(|v| cx.b.func.dfg.value_type(*v)).collect();
    let params: Vec<Value> = tys
        .iter()
        .map(|t| cx.b.append_block_param(head, *t))
        .collect();
    let outs: Vec<Value> = tys
        .iter()
        .map(|t| cx.b.append_block_param(exit, *t))
        .collect();
    let zero = cx.b.ins().iconst(cx.ptr, 0);
    let args: Vec<BlockArg> = std::iter::once(zero)
        .chain(init.iter().copied())
        .map(BlockArg::Value)
        .collect();
    cx.b.ins().jump(head, &args);
    cx.b.switch_to_block(head);
    let row = cx.b.ins().iadd(cx.wave, off);
    let next = body(cx, row, &params);
    let off2 = cx.b.ins().iadd_imm_u(off, 16);
    let more =
        cx.b.ins()
            .icmp_imm_u(IntCC::UnsignedLessThan, off2, (16 * CHUNKS) as i64);
    let again: Vec<BlockArg> = std::iter::once(off2)
        .chain(next.iter().copied())
        .map(BlockArg::Value)
        .collect();
    let done: Vec<BlockArg> = next.iter().copied().map(BlockArg::Value).collect();
    cx.b.ins().brif(more, head, &again, exit, &done);
    cx.b.seal_block(head);
    cx.b.switch_to_block(exit);
    cx.b.seal_block(exit);
    outs
}
