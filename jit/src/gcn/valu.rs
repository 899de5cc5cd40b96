//! Vector ALU lowering: VOP1, VOP2, VOPC and VOP3, with SDWA and DPP, one chunk (4 lanes)
//! at a time.
//!
//! `plan` (pure) turns a decoded instruction into a `VPlan`: which semantics (`Sem`), the
//! operands (VGPR, scalar slot, constant), modifiers, and the lane-mask registers it reads
//! and writes; anything it does not recognise stays with the interpreter helper. `emit`
//! then lowers chunk `c` of a planned instruction: operand fetch (DPP gather, SDWA
//! selection, ABS/NEG), the operation (`ops.rs`), OMOD/CLAMP, SDWA placement and the
//! EXEC-masked write-back. Modifier order and the float rules (NaN, denormals, MODE) are
//! those of the interpreter (`wavejit_interp::float`, ERRATA "VOP3" and "VOP_SDWA").

use cranelift_codegen::ir::{InstBuilder, Value};
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::operand::{inline_constant, src_kind, SrcKind, Width};
use wavejit_isa::gcn::{Enc, Fields, Inst, Op, Src, VopBase};

use super::dpp;
use super::ops::{self, Sem};
use crate::block::{Cx, CHUNKS, I32X4};

/// A vector-instruction source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VSrc {
    V(u8),
    /// Scalar slot (a 64-bit operand reads `slot, slot + 1`).
    S(u8),
    /// Constant bits at the operand's width.
    Const(u64),
    Vccz,
    Execz,
    Scc,
    /// An interpolation parameter (`vintrp::P0`/`P10`/`P20`) read from LDS through M0: the
    /// same for the four lanes of a quad (VINTRP only).
    Lds(u8),
}

/// SDWA fields the lowering uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sdwa {
    pub dst_sel: u8,
    pub dst_unused: u8,
    pub sel: [u8; 2],
    pub sext: [bool; 2],
}

/// DPP fields the lowering uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dpp {
    pub ctrl: u16,
    pub bound_ctrl: bool,
    pub row_mask: u8,
    pub bank_mask: u8,
}

/// A planned vector instruction.
#[derive(Clone, Copy, Debug)]
pub struct VPlan {
    pub op: Op,
    pub sem: Sem,
    /// Vector destination (first register).
    pub vdst: Option<u8>,
    /// Lane-mask destination pair (compare result, carry out).
    pub sdst: Option<u8>,
    /// V_CMPX: the result also goes to EXEC.
    pub to_exec: bool,
    pub src: [VSrc; 3],
    /// Lane-mask source pair (V_CNDMASK select, carry in).
    pub mask_src: Option<u8>,
    /// Per-source ABS / NEG bits (bit i for source i).
    pub abs: u8,
    pub neg: u8,
    pub clamp: bool,
    pub omod: u8,
    pub sdwa: Option<Sdwa>,
    pub dpp: Option<Dpp>,
    /// Reads lanes other than its own (DPP): emitted alone, sources gathered first.
    pub cross_lane: bool,
    /// VINTRP: the attribute channel its `VSrc::Lds` sources read.
    pub interp: Option<super::vintrp::Attr>,
}

/// The source of operand `s` at width `w64`, or `None` if the JIT does not handle it
/// (reserved codes, LDS_DIRECT, a literal for a 64-bit operand).
fn vsrc(gen: Gen, s: Src, lit: Option<u32>, w64: bool, w16: bool) -> Option<VSrc> {
    let width = match (w64, w16) {
        (true, _) => Width::B64,
        (_, true) => Width::B16,
        _ => Width::B32,
    };
    Some(match src_kind(gen, s) {
        SrcKind::Vgpr(n) => VSrc::V(n),
        SrcKind::InlineInt(_) | SrcKind::InlineFloat(_) => {
            VSrc::Const(inline_constant(gen, s, width)?)
        }
        SrcKind::Literal if !w64 => VSrc::Const(lit? as u64),
        SrcKind::Vccz => VSrc::Vccz,
        SrcKind::Execz => VSrc::Execz,
        SrcKind::Scc => VSrc::Scc,
        k if k.is_scalar_dst() => {
            if w64 && !(s.0 < 127 && src_kind(gen, Src(s.0 + 1)).is_scalar_dst()) {
                return None;
            }
            VSrc::S(s.0 as u8)
        }
        _ => return None,
    })
}

/// Plan a vector ALU instruction for `mode`; `None` leaves it to the interpreter.
pub fn plan(gen: Gen, inst: &Inst, mode: u32) -> Option<VPlan> {
    if wavejit_interp::vintrp::is_interp(inst.op) {
        return super::vintrp::plan(gen, inst, mode);
    }
    let sem = ops::sem(inst.op)?;
    let shape = sem.shape();
    let lit = inst.literal;
    let mut p = VPlan {
        op: inst.op,
        sem,
        vdst: None,
        sdst: None,
        to_exec: false,
        src: [VSrc::Const(0); 3],
        mask_src: None,
        abs: 0,
        neg: 0,
        clamp: false,
        omod: 0,
        sdwa: None,
        dpp: None,
        cross_lane: false,
        interp: None,
    };
    let n = shape.nsrc as usize;
    match (inst.enc, inst.fields) {
        (Enc::Vop1, Fields::Vop1 { vdst, src0 }) => {
            if n != 1 {
                return None;
            }
            p.src[0] = vsrc(gen, src0, lit, shape.w64[0], shape.src16)?;
            p.vdst = Some(vdst);
        }
        (Enc::Vop2, Fields::Vop2 { vdst, src0, vsrc1 }) => {
            p.src[0] = vsrc(gen, src0, lit, shape.w64[0], shape.src16)?;
            p.src[1] = VSrc::V(vsrc1);
            p.vdst = Some(vdst);
            match shape.vop2 {
                ops::Vop2Form::Plain if n == 2 => {}
                ops::Vop2Form::Mac => p.src[2] = VSrc::V(vdst),
                ops::Vop2Form::MadMk => {
                    p.src[1] = VSrc::Const(lit? as u64);
                    p.src[2] = VSrc::V(vsrc1);
                }
                ops::Vop2Form::MadAk => p.src[2] = VSrc::Const(lit? as u64),
                _ => return None,
            }
            if shape.mask_in {
                p.mask_src = Some(106);
            }
            if shape.mask_out {
                p.sdst = Some(106);
            }
        }
        (Enc::Vopc, Fields::Vopc { src0, vsrc1 }) => {
            p.src[0] = vsrc(gen, src0, lit, shape.w64[0], shape.src16)?;
            p.src[1] = VSrc::V(vsrc1);
            if shape.w64[1] {
                // vsrc1 of a 64-bit compare is a register pair: V(n) means v[n:n+1].
            }
            p.sdst = Some(106);
        }
        (
            Enc::Vop3,
            Fields::Vop3 {
                vdst,
                sdst,
                src,
                abs,
                neg,
                clamp,
                omod,
            },
        ) => {
            if lit.is_some() {
                return None;
            }
            for (i, s) in src.iter().enumerate().take(n) {
                p.src[i] = vsrc(gen, *s, None, shape.w64[i], shape.src16)?;
            }
            p.abs = abs;
            p.neg = neg;
            p.clamp = clamp;
            p.omod = omod;
            match shape.vop2 {
                ops::Vop2Form::Mac => p.src[2] = VSrc::V(vdst),
                ops::Vop2Form::MadMk | ops::Vop2Form::MadAk => return None,
                _ => {}
            }
            if shape.is_cmp {
                // VOPC in VOP3: the result pair is in the VDST field.
                if vdst > 126 {
                    return None;
                }
                p.sdst = Some(vdst);
            } else {
                p.vdst = Some(vdst);
                if shape.mask_out {
                    if sdst > 126 {
                        return None;
                    }
                    p.sdst = Some(sdst);
                }
            }
            if shape.mask_in {
                // V_CNDMASK / carry in: the third source is the mask pair.
                match src[n] {
                    s if s.0 <= 126 && src_kind(gen, s).is_scalar_dst() => {
                        p.mask_src = Some(s.0 as u8)
                    }
                    _ => return None,
                }
            }
        }
        (
            Enc::Sdwa { base },
            Fields::Sdwa {
                vdst,
                src0,
                vsrc1,
                dst_sel,
                dst_unused,
                clamp,
                src0_sel,
                src0_sext,
                src0_neg,
                src0_abs,
                src1_sel,
                src1_sext,
                src1_neg,
                src1_abs,
            },
        ) => {
            if shape.w64.iter().any(|&w| w) || shape.w64_dst {
                return None;
            }
            p.src[0] = VSrc::V(src0);
            p.src[1] = VSrc::V(vsrc1);
            p.abs = src0_abs as u8 | (src1_abs as u8) << 1;
            p.neg = src0_neg as u8 | (src1_neg as u8) << 1;
            p.clamp = clamp;
            let have_src1 = n >= 2;
            p.sdwa = Some(Sdwa {
                dst_sel,
                dst_unused,
                sel: [src0_sel, if have_src1 { src1_sel } else { 6 }],
                sext: [src0_sext, have_src1 && src1_sext],
            });
            match base {
                VopBase::Vop1 if n == 1 => p.vdst = Some(vdst),
                VopBase::Vop2 => {
                    p.vdst = Some(vdst);
                    match shape.vop2 {
                        ops::Vop2Form::Plain if n == 2 => {}
                        ops::Vop2Form::Mac => p.src[2] = VSrc::V(vdst),
                        _ => return None,
                    }
                    if shape.mask_in {
                        p.mask_src = Some(106);
                    }
                    if shape.mask_out {
                        p.sdst = Some(106);
                    }
                }
                VopBase::Vopc if shape.is_cmp => {
                    p.sdst = Some(106);
                    p.sdwa = p.sdwa.map(|s| Sdwa {
                        dst_sel: 6,
                        dst_unused: 0,
                        ..s
                    });
                }
                _ => return None,
            }
        }
        (
            Enc::Dpp { base },
            Fields::Dpp {
                vdst,
                src0,
                vsrc1,
                dpp_ctrl,
                bound_ctrl,
                src0_neg,
                src0_abs,
                src1_neg,
                src1_abs,
                bank_mask,
                row_mask,
            },
        ) => {
            if shape.w64.iter().any(|&w| w) || shape.w64_dst {
                return None;
            }
            dpp::gather(dpp_ctrl, 0)?;
            p.src[0] = VSrc::V(src0);
            p.src[1] = VSrc::V(vsrc1);
            p.abs = src0_abs as u8 | (src1_abs as u8) << 1;
            p.neg = src0_neg as u8 | (src1_neg as u8) << 1;
            p.dpp = Some(Dpp {
                ctrl: dpp_ctrl,
                bound_ctrl,
                row_mask,
                bank_mask,
            });
            p.cross_lane = true;
            match base {
                VopBase::Vop1 if n == 1 => p.vdst = Some(vdst),
                VopBase::Vop2 => {
                    p.vdst = Some(vdst);
                    match shape.vop2 {
                        ops::Vop2Form::Plain if n == 2 => {}
                        ops::Vop2Form::Mac => p.src[2] = VSrc::V(vdst),
                        _ => return None,
                    }
                    if shape.mask_in {
                        p.mask_src = Some(106);
                    }
                    if shape.mask_out {
                        p.sdst = Some(106);
                    }
                }
                VopBase::Vopc if shape.is_cmp => p.sdst = Some(106),
                _ => return None,
            }
        }
        _ => return None,
    }
    if shape.is_cmpx {
        p.to_exec = true;
    }
    // A lane-mask destination overlapping (not equal to) the mask source or EXEC would be
    // read back half-written between chunks: leave those to the interpreter.
    let overlap = |a: u8, b: u8| {
        let (a1, b1) = (a.wrapping_add(1) & 127, b.wrapping_add(1) & 127);
        a != b && (a == b1 || a1 == b || a1 == b1)
    };
    if let Some(d) = p.sdst {
        if overlap(d, 126) || p.mask_src.is_some_and(|m| overlap(d, m)) {
            return None;
        }
    }
    // v255 cannot start a 64-bit pair (the interpreter reports it).
    if shape.w64_dst && p.vdst == Some(255) {
        return None;
    }
    for i in 0..n {
        if shape.w64[i] && p.src[i] == VSrc::V(255) {
            return None;
        }
    }
    if !ops::modifiers_ok(&p, mode) {
        return None;
    }
    Some(p)
}

/// Which registers an instruction touches in lane form or as scalars: what the segment
/// planner needs to keep chunk-by-chunk emission equal to program order.
#[derive(Clone, Debug, Default)]
pub struct LaneIo {
    /// Scalar slots read as uniform values.
    pub scalar_reads: Vec<u8>,
    /// Mask pairs read lane by lane (EXEC always).
    pub lane_reads: Vec<u8>,
    /// Mask pairs written lane by lane.
    pub lane_writes: Vec<u8>,
}

impl VPlan {
    /// The VGPRs the instruction writes (a 64-bit result: both of the pair).
    pub fn vgpr_writes(&self) -> Vec<u8> {
        match self.vdst {
            None => Vec::new(),
            Some(d) if self.sem.shape().w64_dst => vec![d, d.wrapping_add(1)],
            Some(d) => vec![d],
        }
    }

    pub fn io(&self) -> LaneIo {
        let mut io = LaneIo {
            lane_reads: vec![126],
            ..LaneIo::default()
        };
        let shape = self.sem.shape();
        for i in 0..shape.nsrc as usize {
            match self.src[i] {
                VSrc::S(s) => {
                    io.scalar_reads.push(s);
                    if shape.w64[i] {
                        io.scalar_reads.push(s.wrapping_add(1) & 127);
                    }
                }
                VSrc::Vccz => io.scalar_reads.extend([106, 107]),
                VSrc::Execz => io.scalar_reads.extend([126, 127]),
                _ => {}
            }
        }
        if let Some(m) = self.mask_src {
            io.lane_reads.push(m);
        }
        if self.interp.is_some() {
            // M0, and EXEC for the bounds check (read as scalars before any chunk).
            io.scalar_reads.extend([124, 126, 127]);
        }
        if let Some(d) = self.sdst {
            io.lane_writes.push(d);
        }
        if self.to_exec {
            io.lane_writes.push(126);
        }
        io
    }
}

/// DPP sources gathered for all 16 chunks before any chunk is written (the destination
/// may be the source).
pub struct Gathered {
    pub src0: [Value; CHUNKS],
    /// Per chunk: lanes whose source is valid (in range and EXEC-active), `None` = all.
    pub valid: [Option<Value>; CHUNKS],
}

impl Cx<'_> {
    /// Gather the DPP source of every chunk (and the validity of each lane's source).
    pub fn dpp_gather(&mut self, p: &VPlan) -> Option<Gathered> {
        let d = p.dpp?;
        let VSrc::V(r) = p.src[0] else { return None };
        let mut src0 = [None; CHUNKS];
        let mut valid = [None; CHUNKS];
        let exec_ones = self.exec_known_ones();
        let mut exec = [None; CHUNKS];
        if !exec_ones {
            for (c, e) in exec.iter_mut().enumerate() {
                *e = self.exec_lanes(c);
            }
        }
        for c in 0..CHUNKS {
            let g = dpp::gather(d.ctrl, c)?;
            let imm = self.b.func.dfg.immediates.push(g.mask.to_vec().into());
            let a = self.vreg(r, g.a);
            let b = self.vreg(r, g.b);
            let a8 = self.cast(crate::block::I8X16, a);
            let b8 = self.cast(crate::block::I8X16, b);
            let s = self.b.ins().shuffle(a8, b8, imm);
            src0[c] = Some(self.cast(I32X4, s));
            let all_in_range = g.valid.iter().all(|&v| v);
            let range = (!all_in_range).then(|| {
                let l: [u32; 4] = std::array::from_fn(|i| if g.valid[i] { u32::MAX } else { 0 });
                self.lanes32(l)
            });
            // A source lane whose EXEC bit is 0 is invalid too (ERRATA DPP 1).
            let src_exec = if exec_ones {
                None
            } else {
                let ones = self.splat32(u32::MAX);
                let ea = exec[g.a].unwrap_or(ones);
                let eb = exec[g.b].unwrap_or(ones);
                let ea8 = self.cast(crate::block::I8X16, ea);
                let eb8 = self.cast(crate::block::I8X16, eb);
                let imm = self.b.func.dfg.immediates.push(g.mask.to_vec().into());
                let se = self.b.ins().shuffle(ea8, eb8, imm);
                Some(self.cast(I32X4, se))
            };
            valid[c] = match (range, src_exec) {
                (None, x) | (x, None) => x,
                (Some(a), Some(b)) => Some(self.b.ins().band(a, b)),
            };
        }
        Some(Gathered {
            src0: src0.map(|v| v.unwrap_or(Value::from_u32(0))),
            valid,
        })
    }
}

/// Emit every chunk of one planned instruction that reads across lanes.
pub fn emit_cross(cx: &mut Cx, p: &VPlan) -> Option<()> {
    let uni = ops::uniforms(cx, p, &[]);
    let g = cx.dpp_gather(p)?;
    for c in 0..CHUNKS {
        ops::emit(cx, p, c, Some(&g), &uni);
    }
    Some(())
}

/// Emit chunk `c` of a lane-independent instruction (`uni`: its `ops::uniforms`).
pub fn emit_chunk(cx: &mut Cx, p: &VPlan, c: usize, uni: &ops::Unis) {
    ops::emit(cx, p, c, None, uni);
}

/// The lane mask of lanes a DPP instruction writes in chunk `c`, before EXEC: its rows
/// and banks, and (BOUND_CTRL = 0) only lanes with a valid source.
pub fn dpp_write_mask(cx: &mut Cx, d: &Dpp, c: usize, valid: Option<Value>) -> Option<Value> {
    let l: [u32; 4] = std::array::from_fn(|i| {
        if dpp::lane_enabled(d.row_mask, d.bank_mask, 4 * c + i) {
            u32::MAX
        } else {
            0
        }
    });
    let rb = (l != [u32::MAX; 4]).then(|| cx.lanes32(l));
    let v = if d.bound_ctrl { None } else { valid };
    match (rb, v) {
        (None, x) | (x, None) => x,
        (Some(a), Some(b)) => Some(cx.b.ins().band(a, b)),
    }
}
