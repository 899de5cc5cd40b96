//! Memory instructions lowered inline: FLAT global loads, stores and 32-bit atomics
//! (`global`), MUBUF loads, stores and 32-bit atomics (`buffer`: ADDR64 as a FLAT access
//! with a wave-uniform bias, the other forms with their per-dword range check), DS
//! reads, writes and 32-bit atomics of the LDS (`lds`; the operations of the atomics in
//! `rmw`) and scalar loads (`scalar`).
//!
//! Every access is checked before any lane touches memory, once per instruction over all
//! active lanes: the span from the lowest to the highest address must lie in one mapped
//! global region (a cache of regions by the access's place in its unit,
//! `JitCtx::gcache`, kept across runs on the thread, refilled by `global::mem_span`), or in the LDS with every address naturally aligned. When the check
//! fails — the interpreter would report an error, or the lanes straddle two regions — a
//! cold side exit stores the state and runs the instruction through the interpreter
//! helper, which then reports its own error (pc, lane, address) or performs the access;
//! the dispatcher continues after it. The fast path reads and writes each lane's bytes at
//! its host address in lane order, so results are bit-identical to the interpreter's
//! (same-address stores: the highest lane wins), and inactive lanes are pointed at
//! `JitCtx::sink`, never at guest addresses.
//!
//! FLAT dword loads and stores under a full EXEC also test whether every lane's address
//! is lane 0's plus 4 × lane (`global::emit_dwords`); then each group of four lanes is
//! one 16-byte host access instead of four. Where the unit makes the address from a
//! VGPR's value at its header as clang does, one test of that VGPR at the header stands
//! in for the test of the address's 16 chunks (`crate::gcn::lanelin`). The optimising tier adds three shapes: FLAT
//! dwords whose chunks are each consecutive (rows of a 2-D workgroup: a 16-byte access
//! per chunk), DS dword reads whose chunks' lanes all lie at the same distances within
//! 16 bytes of their lane 0 (`lds::emit_window_reads`: one 16-byte load and a byte
//! shuffle per chunk), and DS dword writes whose chunks are each consecutive
//! (`lds::emit_row_writes`: one 16-byte store per chunk). The DS accesses of a unit that
//! share an address register check it once (`lds::share`). DS dword reads under a full
//! EXEC are emitted inside the chunk-major segment of the vector instructions after them
//! (`fused`), their values going straight to the instructions that read them.
//!
//! An instruction is lowered here only in the operand forms that cannot fail except by
//! the address (registers in range, no GDS/TFE); every other form stays with the helper.

mod access;
pub mod buffer;
pub mod fused;
pub mod global;
pub mod lds;
mod rmw;
pub mod rsrc;
pub mod scalar;

use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::Inst;

use crate::block::Cx;
pub use access::At;
use access::{settle, sink_ptr};

/// A memory instruction planned for inline lowering.
#[derive(Clone, Copy, Debug)]
pub enum MPlan {
    Flat(global::FlatPlan),
    Buf(buffer::BufPlan),
    Ds(lds::DsPlan),
    Smem(scalar::SmemPlan),
}

/// Plan `inst` for inline lowering; `None` leaves it to the interpreter helper.
pub fn plan(gen: Gen, inst: &Inst) -> Option<MPlan> {
    if let Some(p) = global::plan(inst) {
        return Some(MPlan::Flat(p));
    }
    match buffer::plan(gen, inst) {
        Some(buffer::Planned::Addr64(p)) => return Some(MPlan::Flat(p)),
        Some(buffer::Planned::Buf(p)) => return Some(MPlan::Buf(p)),
        None => {}
    }
    if let Some(p) = lds::plan(inst) {
        return Some(MPlan::Ds(p));
    }
    scalar::plan(gen, inst).map(MPlan::Smem)
}

/// Emit `p`. The register cache is in any state on entry; vector values are stored and
/// dropped chunk by chunk as a segment does.
pub fn emit(cx: &mut Cx, p: &MPlan, at: At) {
    match p {
        MPlan::Flat(f) if global::dword_plan(cx, f) => global::emit_dwords(cx, &[*f], at),
        MPlan::Flat(f) => global::emit(cx, f, at),
        MPlan::Buf(b) => buffer::emit(cx, b, at),
        MPlan::Ds(d) if lds::window_plan(cx, d) => lds::emit_window_reads(cx, &[*d], at),
        MPlan::Ds(d) if lds::row_write_plan(cx, d) => lds::emit_row_writes(cx, d, at),
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
                Some((d.f.addr, 1))
            }
            _ => None,
        }
    }

    /// The VGPRs the instruction may write; `None`: not known here (any).
    pub fn vgpr_writes(&self) -> Option<Vec<u8>> {
        let range = |(d, n): (u8, u32)| Some((0..n).map(|i| d.wrapping_add(i as u8)).collect());
        match self {
            MPlan::Flat(f) if f.atomic.is_none() => match f.store {
                true => Some(Vec::new()),
                false => range(self.load_dst()),
            },
            MPlan::Ds(d) => match d.kind {
                lds::DsKind::Read { .. } | lds::DsKind::Read2 { .. } => range(self.load_dst()),
                lds::DsKind::Write | lds::DsKind::Write2 { .. } => Some(Vec::new()),
                lds::DsKind::Atomic { rtn, .. } => Some(if rtn { vec![d.f.vdst] } else { vec![] }),
            },
            MPlan::Smem(_) => Some(Vec::new()),
            MPlan::Flat(_) | MPlan::Buf(_) => None,
        }
    }

    /// The VGPRs a vector load writes (first, count).
    fn load_dst(&self) -> (u8, u32) {
        match self {
            MPlan::Flat(f) => (f.reg, f.size.div_ceil(4)),
            MPlan::Ds(d) => {
                let n = d.size.div_ceil(4);
                let two = matches!(d.kind, lds::DsKind::Read2 { .. });
                (d.f.vdst, if two { 2 * n } else { n })
            }
            MPlan::Buf(_) | MPlan::Smem(_) => (0, 0),
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
    let flats: Vec<global::FlatPlan> = run
        .iter()
        .filter_map(|(p, _)| match p {
            MPlan::Flat(f) if global::dword_plan(cx, f) => Some(*f),
            _ => None,
        })
        .collect();
    if flats.len() == run.len() {
        return global::emit_dwords(cx, &flats, *at0);
    }
    let reads: Vec<lds::DsPlan> = run
        .iter()
        .filter_map(|(p, _)| match p {
            MPlan::Ds(d) if lds::window_plan(cx, d) => Some(*d),
            _ => None,
        })
        .collect();
    if reads.len() == run.len() {
        return lds::emit_window_reads(cx, &reads, *at0);
    }
    settle(cx);
    let mut deltas = Vec::with_capacity(run.len());
    for (k, (p, _)) in run.iter().enumerate() {
        deltas.push(match p {
            MPlan::Flat(f) => Some(global::check(cx, f, *at0, k)),
            MPlan::Ds(d) => {
                lds::check(cx, d, *at0);
                None
            }
            MPlan::Buf(_) | MPlan::Smem(_) => None,
        });
    }
    let lbase = lds::lds_base(cx);
    let sink = sink_ptr(cx);
    cx.for_chunks(|cx, c| {
        let mut reads = lds::ReadPtrs::new();
        for ((p, _), delta) in run.iter().zip(&deltas) {
            match (p, delta) {
                (MPlan::Flat(f), Some(d)) => global::chunk(cx, f, *d, sink, c),
                (MPlan::Ds(d), _) => lds::chunk(cx, d, lbase, sink, &mut reads, c),
                _ => {}
            }
        }
    });
}
