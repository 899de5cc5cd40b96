//! Operand shapes: which operands an instruction's text has, in which order, and of which
//! type. Derived from the table row (`sig`, LLVM's example operand list, and the mnemonic's
//! type suffixes), so that the printer and the assembler read one description.

use crate::arch::Gen;
use crate::gcn::table::{Op, Row, TableEnc};

/// The type of a source operand, as far as text cares: its width and whether constants
/// written for it are floats (decides how a hex literal maps to an inline constant).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ty {
    /// 16, 32, 64 (or 128 for the 4-register operands of v_mqsad_u32_u8).
    pub bits: u16,
    pub float: bool,
}

impl Ty {
    pub const B32: Ty = Ty {
        bits: 32,
        float: false,
    };
    pub const F32: Ty = Ty {
        bits: 32,
        float: true,
    };
    pub const B64: Ty = Ty {
        bits: 64,
        float: false,
    };

    /// The type of a scalar operand of `dwords` registers (SOP sources and the like: 64-bit
    /// for pairs, else 32-bit; integers either way).
    pub fn scalar(dwords: u8) -> Ty {
        if dwords == 2 {
            Ty::B64
        } else {
            Ty::B32
        }
    }

    /// Registers this operand occupies.
    pub fn dwords(self) -> u8 {
        (self.bits / 32).max(1) as u8
    }
}

/// How a VALU operation's operands are laid out (beyond "dst, src0, src1, src2").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValuKind {
    /// `vdst, src0[, src1[, src2]]`.
    Plain,
    /// No operands (`v_nop`, `v_clrexcp`).
    Empty,
    /// VOP2 with a carry out: `vdst, vcc, src0, src1` (VOP3B: `vdst, sdst, src0, src1`).
    CarryOut,
    /// VOP2 with carry in and out: `vdst, vcc, src0, src1, vcc` (VOP3B: `…, ssrc2`).
    CarryInOut,
    /// `v_cndmask_b32 vdst, src0, src1, vcc` (VOP3: `…, ssrc2`).
    Cndmask,
    /// `v_madmk_*  vdst, src0, K, vsrc1`.
    MadMk,
    /// `v_madak_*  vdst, src0, vsrc1, K`.
    MadAk,
    /// `v_mac_*`: SRC2 is VDST; the text has two sources.
    Mac,
    /// VOPC: `vcc, src0, src1` (VOP3: `sdst, src0, src1`).
    Cmp,
    /// `v_readlane_b32 sdst, vsrc0, ssrc1`.
    ReadLane,
    /// `v_writelane_b32 vdst, ssrc0, ssrc1`.
    WriteLane,
    /// `v_readfirstlane_b32 sdst, vsrc0`.
    ReadFirstLane,
    /// VOP3-encoded `v_interp_p1/p2_f32 vdst, vsrc, attrN.c` (GCN 1.2).
    InterpP,
    /// VOP3-encoded `v_interp_mov_f32 vdst, pN, attrN.c` (GCN 1.2).
    InterpMov,
    /// `v_interp_p1ll_f16 vdst, vsrc, attrN.c [high]`.
    InterpP1ll,
    /// `v_interp_p1lv_f16 / v_interp_p2_f16 vdst, vsrc, attrN.c, vsrc2 [high]`.
    InterpP2,
}

/// The operand shape of a VALU operation in one generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValuShape {
    pub kind: ValuKind,
    /// Dwords of the vector (or, for read lanes, scalar) destination; 0 = none.
    pub dst: u8,
    /// Types of SRC0-SRC2 as the VOP3 form numbers them (`None`: absent).
    pub src: [Option<Ty>; 3],
    /// The native row is VOP3B (scalar destination in bits 14:8).
    pub vop3b: bool,
    /// The native row (VOP1/VOP2/VOPC/VOP3/VOP3B).
    pub native: TableEnc,
}

impl ValuShape {
    /// Number of sources in the VOP3 form's text.
    pub fn nsrc(&self) -> usize {
        self.src.iter().filter(|s| s.is_some()).count()
    }
}

/// Split a signature into its comma-separated words (`"v1,vcc,v1"`), `+` suffixes removed.
fn sig_words(sig: &str) -> Vec<&str> {
    if sig.is_empty() {
        return Vec::new();
    }
    sig.split(',')
        .map(|w| w.split('+').next().unwrap_or(w))
        .filter(|w| !w.is_empty())
        .collect()
}

/// Register count of a signature word (`v2` → 2, `s4` → 4, anything else 1).
pub fn word_dwords(w: &str) -> u8 {
    w.get(1..).and_then(|n| n.parse().ok()).unwrap_or(1)
}

/// The type suffixes of a mnemonic (`v_cvt_f32_i32` → `[(b'f', 32), (b'i', 32)]`).
fn type_suffixes(m: &str) -> Vec<(u8, u8)> {
    m.split('_')
        .skip(1)
        .filter_map(|t| {
            let b = t.as_bytes();
            let k = *b.first()?;
            if !matches!(k, b'f' | b'i' | b'u' | b'b') {
                return None;
            }
            let n: u8 = t.get(1..)?.parse().ok()?;
            matches!(n, 8 | 16 | 24 | 32 | 64).then_some((k, n))
        })
        .collect()
}

/// The type of a source with `dwords` registers for mnemonic `m`.
fn src_ty(gen: Gen, m: &str, dwords: u8, idx: usize) -> Ty {
    let ts = type_suffixes(m);
    let mut last = ts.last().copied();
    // Second sources that are integers whatever the mnemonic says.
    if idx == 1
        && (m.starts_with("v_cmp_class_")
            || m.starts_with("v_cmpx_class_")
            || m.starts_with("v_ldexp_")
            || m.starts_with("v_trig_preop_"))
    {
        last = Some((b'i', 32));
    }
    let float = matches!(last, Some((b'f', _)));
    let bits = if dwords >= 2 {
        32 * dwords as u16
    } else if gen == Gen::Gfx8 && matches!(last, Some((_, 16))) && !m.starts_with("v_sad_") {
        16
    } else {
        32
    };
    Ty { bits, float }
}

/// The VALU row of `op` that exists in `gen`.
pub fn valu_row(gen: Gen, op: Op) -> Option<&'static Row> {
    op.rows().iter().copied().find(|r| {
        r.opcode[gen.index()].is_some()
            && matches!(
                r.enc,
                TableEnc::Vop1 | TableEnc::Vop2 | TableEnc::Vopc | TableEnc::Vop3 | TableEnc::Vop3b
            )
    })
}

/// The operand shape of a VALU operation in `gen` (`None` if `op` is no VALU op there).
pub fn valu_shape(gen: Gen, op: Op) -> Option<ValuShape> {
    let row = valu_row(gen, op)?;
    let m = op.mnemonic();
    let w = sig_words(row.sig);
    let d = |i: usize| w.get(i).map_or(1, |x| word_dwords(x));
    let t = |i: usize, srcidx: usize| Some(src_ty(gen, m, d(i), srcidx));
    let mut s = ValuShape {
        kind: ValuKind::Plain,
        dst: d(0),
        src: [None; 3],
        vop3b: row.enc == TableEnc::Vop3b,
        native: row.enc,
    };
    let ws: Vec<&str> = w.clone();
    match row.enc {
        TableEnc::Vop1 => {
            if ws.is_empty() {
                s.kind = ValuKind::Empty;
                s.dst = 0;
            } else if ws[0].starts_with('s') {
                s.kind = ValuKind::ReadFirstLane;
                s.src[0] = Some(Ty::B32);
            } else {
                s.src[0] = t(1, 0);
            }
        }
        TableEnc::Vop2 => match ws.as_slice() {
            [_, "vcc", _, _, "vcc"] => {
                s.kind = ValuKind::CarryInOut;
                s.src = [t(2, 0), t(3, 1), Some(Ty::B64)];
            }
            [_, "vcc", _, _] => {
                s.kind = ValuKind::CarryOut;
                s.src = [t(2, 0), t(3, 1), None];
            }
            [_, _, _, "vcc"] => {
                s.kind = ValuKind::Cndmask;
                s.src = [t(1, 0), t(2, 1), Some(Ty::B64)];
            }
            [_, _, "imm", _] => {
                s.kind = ValuKind::MadMk;
                s.src = [t(1, 0), t(3, 1), None];
            }
            [_, _, _, "imm"] => {
                s.kind = ValuKind::MadAk;
                s.src = [t(1, 0), t(2, 1), None];
            }
            [d0, _, _] if d0.starts_with('s') => {
                s.kind = ValuKind::ReadLane;
                s.src = [Some(Ty::B32), Some(Ty::B32), None];
            }
            [_, s0, _] if s0.starts_with('s') => {
                s.kind = ValuKind::WriteLane;
                s.src = [Some(Ty::B32), Some(Ty::B32), None];
            }
            _ => {
                if m.starts_with("v_mac_") {
                    s.kind = ValuKind::Mac;
                }
                s.src = [t(1, 0), t(2, 1), None];
            }
        },
        TableEnc::Vopc => {
            s.kind = ValuKind::Cmp;
            s.dst = 2;
            s.src = [t(1, 0), t(2, 1), None];
        }
        TableEnc::Vop3b => {
            // vdst, sdst, src0, src1, src2
            s.src = [t(2, 0), t(3, 1), t(4, 2)];
        }
        _ => match ws.as_slice() {
            [_, "p", "attr"] => {
                s.kind = ValuKind::InterpMov;
                s.src = [None, None, None];
            }
            [_, _, "attr"] if row.sig.contains("high") => {
                s.kind = ValuKind::InterpP1ll;
                s.src = [None, t(1, 1), None];
            }
            [_, _, "attr"] => {
                s.kind = ValuKind::InterpP;
                s.src = [None, t(1, 1), None];
            }
            [_, _, "attr", _] => {
                s.kind = ValuKind::InterpP2;
                s.src = [None, t(1, 1), t(3, 2)];
            }
            [d0, _, _] if d0.starts_with('s') => {
                s.kind = ValuKind::ReadLane;
                s.src = [Some(Ty::B32), Some(Ty::B32), None];
            }
            [_, s0, _] if s0.starts_with('s') => {
                s.kind = ValuKind::WriteLane;
                s.src = [Some(Ty::B32), Some(Ty::B32), None];
            }
            _ => {
                for (i, slot) in s.src.iter_mut().enumerate() {
                    if i + 1 < ws.len() {
                        *slot = t(i + 1, i);
                    }
                }
                if ws.is_empty() {
                    s.kind = ValuKind::Empty;
                    s.dst = 0;
                }
            }
        },
    }
    Some(s)
}

/// Dwords of each register operand of a non-VALU row's signature, in text order.
pub fn sig_dwords(row: &Row) -> Vec<(String, u8)> {
    sig_words(row.sig)
        .iter()
        .map(|w| (w.to_string(), word_dwords(w)))
        .collect()
}

/// `sig_dwords` of `op`'s row in native encoding `enc` on `gen` (empty when it has none).
pub fn row_sig(gen: Gen, op: Op, enc: TableEnc) -> Vec<(String, u8)> {
    op.row_in(gen, enc).map(sig_dwords).unwrap_or_default()
}
