//! What the table says about an operation beyond its encoding: the operand shape of a vector
//! ALU row (`ValuKind`), the type of each source (`Ty`), and what a compare computes
//! (`CmpDesc`: condition, operand type, whether EXEC is written). These are the types of the
//! `shape`, `srcs` and `cmp` columns of `isa/tables/gcn.tsv`; `isa/build.rs` emits them as
//! constants, so no consumer derives them from mnemonics or signature strings.

use std::cmp::Ordering;

use crate::arch::Gen;

/// The type of a source operand, as far as text cares: its width and whether constants
/// written for it are floats (decides how a hex literal maps to an inline constant). The `srcs` column holds the GCN 1.2
/// type; on GCN 1.0/1.1, whose text has no 16-bit constants, a 16-bit source is 32-bit
/// (`Ty::in_gen`).
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

    /// The type as text in `gen` reads it: 16-bit sources are 32-bit before GCN 1.2.
    pub fn in_gen(self, gen: Gen) -> Ty {
        if self.bits == 16 && gen != Gen::Gfx8 {
            Ty { bits: 32, ..self }
        } else {
            self
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

/// A compare condition. The float ones follow IEEE: an unordered pair (a NaN) is false for
/// F/LT/EQ/LE/GT/LG/GE/O and true for U/NGE/NLG/NGT/NLE/NEQ/NLT/TRU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cond {
    F,
    Lt,
    Eq,
    Le,
    Gt,
    /// LG for floats, NE for integers (ordered not-equal).
    Lg,
    Ge,
    O,
    U,
    Nge,
    Nlg,
    Ngt,
    Nle,
    Neq,
    Nlt,
    /// TRU for floats, T for integers.
    Tru,
}

impl Cond {
    /// The condition on an ordering (`None`: unordered).
    pub fn holds(self, o: Option<Ordering>) -> bool {
        use Ordering::*;
        match self {
            Cond::F => false,
            Cond::Lt => o == Some(Less),
            Cond::Eq => o == Some(Equal),
            Cond::Le => matches!(o, Some(Less | Equal)),
            Cond::Gt => o == Some(Greater),
            Cond::Lg => matches!(o, Some(Less | Greater)),
            Cond::Ge => matches!(o, Some(Greater | Equal)),
            Cond::O => o.is_some(),
            Cond::U => o.is_none(),
            Cond::Nge => !matches!(o, Some(Greater | Equal)),
            Cond::Nlg => !matches!(o, Some(Less | Greater)),
            Cond::Ngt => o != Some(Greater),
            Cond::Nle => !matches!(o, Some(Less | Equal)),
            Cond::Neq => o != Some(Equal),
            Cond::Nlt => o != Some(Less),
            Cond::Tru => true,
        }
    }
}

/// The operand type of a compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpTy {
    F16,
    F32,
    F64,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
}

impl CmpTy {
    pub fn is_float(self) -> bool {
        matches!(self, CmpTy::F16 | CmpTy::F32 | CmpTy::F64)
    }

    /// Width of each operand in bits.
    pub fn bits(self) -> u16 {
        match self {
            CmpTy::F16 | CmpTy::I16 | CmpTy::U16 => 16,
            CmpTy::F32 | CmpTy::I32 | CmpTy::U32 => 32,
            CmpTy::F64 | CmpTy::I64 | CmpTy::U64 => 64,
        }
    }
}

/// What a compare does (the `cmp` column with the `cmp`/`cmpx` shape).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CmpDesc {
    /// `None` for V_CMP_CLASS.
    pub cond: Option<Cond>,
    pub ty: CmpTy,
    /// V_CMPX: also writes EXEC.
    pub exec: bool,
}

/// What an operation means, whatever its encoding (`DESC`, indexed by `Op`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpDesc {
    /// For a compare, what it computes.
    pub cmp: Option<CmpDesc>,
    /// For a SOPP branch, what it tests.
    pub branch: Option<BranchIf>,
}

/// When a SOPP branch jumps to PC + 4 + SIMM16 × 4 (the `branch(COND)` cells of the
/// table's `jit` column): always, on SCC equal to the flag, or on VCC/EXEC being zero
/// (`true`) or not zero (`false`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BranchIf {
    Always,
    Scc(bool),
    Vccz(bool),
    Execz(bool),
    /// The s_cbranch_cdbg* family tests the debugger's state, which is not modelled: the
    /// interpreter answers Unsupported, the JIT calls it.
    Debugger,
}

/// Split a signature into its comma-separated words (`"v1,vcc,v1"`), `+` suffixes removed.
pub(crate) fn sig_words(sig: &str) -> Vec<&str> {
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
