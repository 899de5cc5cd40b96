//! A planned vector instruction (`VPlan`): the normalised view the lowering works from —
//! its semantics, sources (VGPR, scalar slot, constant, VINTRP parameter) with ABS/NEG,
//! SDWA and DPP controls, destinations and lane-mask registers — and which registers it
//! touches in lane form or as scalars (`LaneIo`). Made by `valu::plan` and
//! `vintrp::plan`; pure data.

use wavejit_isa::gcn::Op;

use super::sem::Sem;
use crate::slots::{EXEC_HI, EXEC_LO, M0, VCC_HI, VCC_LO};

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
    pub interp: Option<Attr>,
}

/// The attribute channel an interpolation instruction reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attr {
    pub attr: u8,
    pub chan: u8,
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

impl LaneIo {
    /// Add what `io` touches (a segment's touches are its instructions' together).
    pub fn add(&mut self, io: &LaneIo) {
        self.scalar_reads.extend(&io.scalar_reads);
        self.lane_reads.extend(&io.lane_reads);
        self.lane_writes.extend(&io.lane_writes);
    }
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
            lane_reads: vec![EXEC_LO],
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
                VSrc::Vccz => io.scalar_reads.extend([VCC_LO, VCC_HI]),
                VSrc::Execz => io.scalar_reads.extend([EXEC_LO, EXEC_HI]),
                _ => {}
            }
        }
        if let Some(m) = self.mask_src {
            io.lane_reads.push(m);
        }
        if self.interp.is_some() {
            // M0, and EXEC for the bounds check (read as scalars before any chunk).
            io.scalar_reads.extend([M0, EXEC_LO, EXEC_HI]);
        }
        if let Some(d) = self.sdst {
            io.lane_writes.push(d);
        }
        if self.to_exec {
            io.lane_writes.push(EXEC_LO);
        }
        io
    }
}
