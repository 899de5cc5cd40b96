//! DS dword reads emitted inside a chunk-major segment (`gcn::compile` puts them there):
//! each chunk's values go straight into the register cache, where the vector
//! instructions after them read them, instead of being stored to the wave and loaded
//! back, and a value the segment overwrites is never stored.
//!
//! The accesses are checked before the segment's first chunk (`prepare`): per address
//! register `lds::facts`' bounds and alignment test, failing through the side exit of the
//! segment's first read. That is correct because the planner lets a read into a segment
//! only when the segment starts with a read, no earlier
//! instruction of the segment writes the read's address register (so the wave holds
//! the value each read uses when the check runs), EXEC is known all ones and no
//! instruction of the segment writes it. The segment is then emitted in up to three
//! copies (`gcn::emit_segment`, `Path`): in the optimised tier, with each register's
//! reads emitted for the lane pattern `guess` expects of it (a 16-byte load as the
//! chunk's four lanes, or one dword loaded for all four), taken when every register
//! has its pattern; with every read a 16-byte load and a byte shuffle per dword at its
//! register's lane 0 address, taken when the facts' `uniform` holds; and with lane
//! loads.

use cranelift_codegen::ir::types::{I32, I32X4, I8X16};
use std::cell::RefCell;

use cranelift_codegen::ir::{InstBuilder, Value};

use super::access::{gather, host_flags, load_lane, settle, At};
use super::lds::{
    all, chunk_base, facts, lane0_ptr, lds_base, shareable, window_plan, DsKind, DsPlan,
};
use crate::block::{mflags, Cx};
use crate::ctx::OFF_SINK;

/// What the reads of one segment share, made before its first chunk.
pub struct Fused {
    /// The host address of LDS byte 0.
    lbase: Value,
    /// Every address register's chunks lie at chunk 0's distances from their lane 0,
    /// within a 16-byte window in the LDS (`lds::facts`); an `i8` truth value.
    pub uniform: Value,
    /// Per address register, the shuffle control of its windows.
    ctrls: Vec<(u8, Value)>,
    /// Per address register, the lane pattern the patterned path reads it with.
    pats: Vec<(u8, Pattern)>,
    /// Every address register has the lane pattern of `pats` (`lds::facts`' `rows` or
    /// `bcast`); an `i8` truth value.
    pub patterned: Value,
    /// The lane 0 host addresses made so far: (path, chunk, register, address). The
    /// segment writes no address register of its reads, so chunk `c`'s address serves
    /// every run of reads in the chunk of its path's copy, not only the run that made
    /// it (and no other copy: each is a block of its own).
    lane0: RefCell<Vec<(Path, usize, u8, Value)>>,
}

/// Whether `p` has the shape of a read emitted inside a segment: a DS dword read (one- or
/// two-address) at offsets that keep the base's alignment.
pub fn shape_ok(p: &DsPlan) -> bool {
    shareable(p) && matches!(p.kind, DsKind::Read { .. } | DsKind::Read2 { .. })
}

/// Whether `p` may be emitted inside a segment that starts with EXEC as `cx` has it: a
/// read of `shape_ok`'s shape that may take the window path (`lds::window_plan`: EXEC
/// known all ones).
pub fn fusable(cx: &Cx, p: &DsPlan) -> bool {
    shape_ok(p) && window_plan(cx, p)
}

/// The checks of the reads `reads` of a segment, before its first chunk: the wave made
/// memory's (`settle`), then each address register's `lds::facts` (the furthest offset
/// the segment's reads of it reach), leaving through the side exit `at` of the first
/// read.
pub fn prepare(cx: &mut Cx, reads: &[(DsPlan, At)], at: At) -> Fused {
    settle(cx);
    let mut ctrls: Vec<(u8, Value)> = Vec::new();
    let mut pats: Vec<(u8, Pattern)> = Vec::new();
    let mut uni = Vec::new();
    let mut fit = Vec::new();
    for (p, _) in reads {
        let r = p.f.addr;
        if ctrls.iter().any(|c| c.0 == r) {
            continue;
        }
        let of_r = || reads.iter().map(|q| &q.0).filter(|q| q.f.addr == r);
        let reach = of_r().map(|q| q.reach).max().unwrap_or(0);
        let f = facts(cx, r, p.group, reach, at);
        let offs: Vec<u64> = of_r().flat_map(|q| q.offsets()).collect();
        let pat = guess(&offs);
        ctrls.push((r, f.ctrl));
        pats.push((r, pat));
        uni.push(f.uniform);
        fit.push(match pat {
            Pattern::Row => f.rows,
            Pattern::Broadcast => f.bcast,
        });
    }
    let uniform = all(cx, uni.into_iter());
    let patterned = all(cx, fit.into_iter());
    // Stored to the sink, so that Cranelift computes the controls here, once: it places
    // pure values at their first use, which would be each chunk. One store of them all:
    // a store to the sink followed by another with no load between is dead, and
    // Cranelift drops it.
    let anchor = ctrls
        .iter()
        .map(|c| c.1)
        .reduce(|x, y| cx.b.ins().bor(x, y));
    if let Some(v) = anchor {
        cx.b.ins().store(mflags(), v, cx.jctx, OFF_SINK);
    }
    let lbase = lds_base(cx);
    Fused {
        lbase,
        uniform,
        ctrls,
        pats,
        patterned,
        lane0: RefCell::new(Vec::new()),
    }
}

/// How a segment's reads are emitted: one copy of the segment per path (`Fused`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// Each register's reads for its lane pattern (`Fused::patterned`).
    Patterned,
    /// A 16-byte window and a byte shuffle per dword (`Fused::uniform`).
    Windows,
    /// Lane by lane.
    Lanes,
}

/// The lanes of a chunk reading through one address register, as the patterned path
/// reads them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// Consecutive dwords from lane 0's address: one 16-byte load.
    Row,
    /// Every lane at lane 0's address: one dword loaded for all four.
    Broadcast,
}

/// The pattern expected of an address register from the byte offsets of its reads in a
/// segment. Offsets less than 16 bytes apart walk along a row of the LDS that every
/// lane reads whole (clang's `ds_read2_b32 v[a:b], r offset0:k offset1:k+1` of
/// `As[ty][k]`): lanes of a chunk sharing one address. Otherwise (offsets a row apart,
/// `Bs[k][tx]`, or one offset) lanes reading consecutive words. A wrong guess costs
/// speed only: the path is taken when `lds::facts` finds the pattern.
pub fn guess(offsets: &[u64]) -> Pattern {
    let near = offsets.iter().enumerate().any(|(i, a)| {
        offsets[i + 1..]
            .iter()
            .any(|b| a != b && a.abs_diff(*b) < 16)
    });
    if near {
        Pattern::Broadcast
    } else {
        Pattern::Row
    }
}

/// Chunk `c` of the consecutive reads `run` of a segment `prepare`d as `f`, on `path`:
/// every value read first, then written to the register cache in program order. No read of `run` has
/// its address in a register an earlier instruction of the segment writes (the planner's
/// rule), so the addresses are the wave's values of this chunk.
pub fn chunk(cx: &mut Cx, f: &Fused, run: &[DsPlan], path: Path, c: usize) {
    // Every read's register has its control and pattern (`prepare` saw the whole
    // segment).
    let ctrls: Option<Vec<Value>> = run
        .iter()
        .map(|p| f.ctrls.iter().find(|q| q.0 == p.f.addr).map(|q| q.1))
        .collect();
    let pats: Option<Vec<Pattern>> = run
        .iter()
        .map(|p| f.pats.iter().find(|q| q.0 == p.f.addr).map(|q| q.1))
        .collect();
    let vals = match (path, ctrls, pats) {
        (Path::Patterned, _, Some(pats)) => pattern_values(cx, f, run, &pats, c),
        (Path::Windows, Some(ctrls), _) => window_values(cx, f, run, &ctrls, c),
        _ => lane_values(cx, f, run, c),
    };
    let mut k = 0;
    for p in run {
        for i in 0..p.offsets().len() {
            if let Some(&v) = vals.get(k) {
                cx.write_vreg(p.f.vdst + i as u8, c, v);
            }
            k += 1;
        }
    }
}

/// The window path of `chunk`: per dword one 16-byte load at its register's lane 0
/// host address plus its offset, shuffled by the register's control (`ctrls`: per read).
fn window_values(cx: &mut Cx, f: &Fused, run: &[DsPlan], ctrls: &[Value], c: usize) -> Vec<Value> {
    let hf = host_flags();
    let mut out = Vec::new();
    for (p, &ctrl) in run.iter().zip(ctrls) {
        let ptr = window_ptr(cx, f, Path::Windows, p.f.addr, c);
        for &o in &p.offsets() {
            let v = cx.b.ins().load(I8X16, hf, ptr, o as i32);
            let v = cx.b.ins().x86_pshufb(v, ctrl);
            out.push(cx.cast(I32X4, v));
        }
    }
    out
}

/// The patterned path of `chunk` (`pats`: per read, its register's pattern): per dword
/// the 16 bytes at its register's lane 0 host address plus its offset (`Row`), or the
/// dword there in all four lanes (`Broadcast`). Neither reads past the furthest lane's
/// dword, which `lds::facts`' bounds test covers.
///
/// The loads may move (`readonly`, `can_move`): Cranelift then places each at its first
/// use, where a broadcast is one `vbroadcastss` from memory, instead of keeping it where
/// it is emitted, before the segment's register stores, with the value held (or
/// spilled) until then. That is sound because nothing writes the LDS from the segment's
/// start to its end (its instructions are DS reads and vector ALU work), every use of a
/// value read is within this copy of the segment, and the address a load depends on is
/// made in the copy, after the check.
fn pattern_values(
    cx: &mut Cx,
    f: &Fused,
    run: &[DsPlan],
    pats: &[Pattern],
    c: usize,
) -> Vec<Value> {
    let mut hf = host_flags();
    hf.set_readonly();
    hf.set_can_move();
    let mut out = Vec::new();
    for (p, &pat) in run.iter().zip(pats) {
        let ptr = window_ptr(cx, f, Path::Patterned, p.f.addr, c);
        for &o in &p.offsets() {
            out.push(match pat {
                Pattern::Row => cx.b.ins().load(I32X4, hf, ptr, o as i32),
                Pattern::Broadcast => {
                    let x = cx.b.ins().load(I32, hf, ptr, o as i32);
                    cx.b.ins().splat(I32X4, x)
                }
            });
        }
    }
    out
}

/// Chunk `c` of register `r`'s lane 0 as a host address in the LDS, made once per chunk
/// of the unrolled copy of `path`. Chunks emitted as one loop body for all chunks (the quick
/// tier, `Cx::vbase`) make it in each run: a value of one loop's body does not reach the
/// next loop.
fn window_ptr(cx: &mut Cx, f: &Fused, path: Path, r: u8, c: usize) -> Value {
    if cx.vbase.is_some() {
        return lane0_ptr(cx, f.lbase, r, c);
    }
    let known = f
        .lane0
        .borrow()
        .iter()
        .find(|q| q.0 == path && q.1 == c && q.2 == r)
        .map(|q| q.3);
    known.unwrap_or_else(|| {
        let q = lane0_ptr(cx, f.lbase, r, c);
        f.lane0.borrow_mut().push((path, c, r, q));
        q
    })
}

/// The lane-by-lane path of `chunk`: four lane loads per dword.
fn lane_values(cx: &mut Cx, f: &Fused, run: &[DsPlan], c: usize) -> Vec<Value> {
    let mut lanes: Vec<(u8, [Value; 4])> = Vec::new();
    let mut out = Vec::new();
    for p in run {
        let r = p.f.addr;
        let ptrs = match lanes.iter().find(|q| q.0 == r) {
            Some(q) => q.1,
            None => {
                let off = crate::ctx::wave_off::vgpr_chunk(r, c);
                let base = chunk_base(cx);
                let a = cx.b.ins().load(I32X4, mflags(), base, off);
                let q = [0u8, 1, 2, 3].map(|l| {
                    let x = cx.b.ins().extractlane(a, l);
                    let x = cx.b.ins().uextend(cx.ptr, x);
                    cx.b.ins().iadd(f.lbase, x)
                });
                lanes.push((r, q));
                q
            }
        };
        for &o in &p.offsets() {
            let v = ptrs.map(|ptr| load_lane(cx, ptr, 4, false, o as i32));
            out.push(gather(cx, v));
        }
    }
    out
}

/// The VGPRs `p` writes.
pub fn writes(p: &DsPlan) -> Vec<u8> {
    (0..p.offsets().len() as u8).map(|i| p.f.vdst + i).collect()
}
