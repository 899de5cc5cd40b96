//! DPP in compiled code (the constants come from `dpp.rs`): the source of every chunk
//! gathered before any chunk is written, with the validity of each lane's source lane, and
//! the mask of the lanes an instruction writes (rows, banks, BOUND_CTRL).

use cranelift_codegen::ir::{InstBuilder, Value};

use super::dpp::{gather, lane_enabled};
use super::vplan::{Dpp, VPlan, VSrc};
use crate::block::{Cx, CHUNKS, I32X4};

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
        // The byte view of each source chunk, made once (a chunk feeds the gathers of
        // two destination chunks: the IR of the casts is most of a gather's).
        let mut bytes: [Option<Value>; CHUNKS] = [None; CHUNKS];
        let identity: [u8; 16] = std::array::from_fn(|i| i as u8);
        for c in 0..CHUNKS {
            let g = gather(d.ctrl, c)?;
            if g.mask == identity {
                // Lanes 0-3 of chunk `a` in place (whole-chunk shifts): no shuffle.
                src0[c] = Some(self.vreg(r, g.a));
            } else {
                let imm = self.b.func.dfg.immediates.push(g.mask.to_vec().into());
                let mut view = |cx: &mut Self, k: usize| match bytes[k] {
                    Some(v) => v,
                    None => {
                        let v = cx.vreg(r, k);
                        let v = cx.cast(crate::block::I8X16, v);
                        bytes[k] = Some(v);
                        v
                    }
                };
                let a8 = view(self, g.a);
                let b8 = view(self, g.b);
                let s = self.b.ins().shuffle(a8, b8, imm);
                src0[c] = Some(self.cast(I32X4, s));
            }
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

/// The lane mask of lanes a DPP instruction writes in chunk `c`, before EXEC: its rows
/// and banks, and (BOUND_CTRL = 0) only lanes with a valid source.
pub fn dpp_write_mask(cx: &mut Cx, d: &Dpp, c: usize, valid: Option<Value>) -> Option<Value> {
    let l: [u32; 4] = std::array::from_fn(|i| {
        if lane_enabled(d.row_mask, d.bank_mask, 4 * c + i) {
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
