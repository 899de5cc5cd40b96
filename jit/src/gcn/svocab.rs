//! The operation vocabularies of the scalar lowering (`salu.rs`): what SOP2, SOPK, SOP1
//! and SOPC operations distinguish. The table's `jit` column names them (`sop2(add_u)`,
//! `sop1(saveexec(and,false))`); scalar compares take their condition from the `cmp`
//! column. Pure data: nothing here emits code.

use cranelift_codegen::ir::condcodes::IntCC;
use wavejit_isa::gcn::desc::Cond;

/// A scalar ALU operation of any encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SOp {
    Sop2(S2),
    Sopk(SK),
    Sop1(S1),
    Sopc(SC),
}

/// The integer condition code of a scalar compare's `Cond` (the table's `cmp` column);
/// `None` for conditions no scalar compare has.
pub fn int_cc(cond: Cond, signed: bool) -> Option<IntCC> {
    let cc = match cond {
        Cond::Eq => IntCC::Equal,
        Cond::Lg => IntCC::NotEqual,
        Cond::Lt => IntCC::SignedLessThan,
        Cond::Le => IntCC::SignedLessThanOrEqual,
        Cond::Gt => IntCC::SignedGreaterThan,
        Cond::Ge => IntCC::SignedGreaterThanOrEqual,
        _ => return None,
    };
    Some(if signed { cc } else { cc.unsigned() })
}

/// What a SOP2 computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum S2 {
    AddU,
    SubU,
    AddI,
    SubI,
    AddcU,
    SubbU,
    MinI,
    MinU,
    MaxI,
    MaxU,
    Csel32,
    Csel64,
    Logic32(Logic),
    Logic64(Logic),
    Lshl32,
    Lshl64,
    Lshr32,
    Lshr64,
    Ashr32,
    Ashr64,
    Bfm32,
    Bfm64,
    Mul,
    BfeU32,
    BfeI32,
    BfeU64,
    BfeI64,
    Absdiff,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Logic {
    And,
    Or,
    Xor,
    Andn2,
    Orn2,
    Nand,
    Nor,
    Xnor,
}

/// SOPK operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SK {
    Movk,
    Cmovk,
    Cmp(IntCC, bool),
    Addk,
    Mulk,
    /// `s_getreg_b32` of MODE: a constant of the unit (it is specialised on MODE).
    Getreg(u16),
    /// `s_setreg_b32` / `s_setreg_imm32_b32` of MODE (the literal): ends the unit.
    Setreg(u16, Option<u32>),
}

/// SOP1 operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum S1 {
    Mov32,
    Mov64,
    Cmov32,
    Cmov64,
    Not32,
    Not64,
    Wqm32,
    Wqm64,
    Brev32,
    Brev64,
    Bcnt0B32,
    Bcnt0B64,
    Bcnt1B32,
    Bcnt1B64,
    Ff0B32,
    Ff0B64,
    Ff1B32,
    Ff1B64,
    Flbit32,
    Flbit64,
    FlbitI32,
    FlbitI64,
    Sext8,
    Sext16,
    Bitset0B32,
    Bitset1B32,
    Bitset0B64,
    Bitset1B64,
    Getpc,
    Saveexec(Logic, bool),
    Quadmask32,
    Quadmask64,
    Abs,
    /// `D = SGPR[S0.addr + M0]` (32 or 64 bits): a checked load from the SGPR file.
    Movrels(u8, bool),
    /// `SGPR[D.addr + M0] = S0`: a checked store into the SGPR file.
    Movreld(bool),
    /// `s_setpc_b64` / `s_swappc_b64` (`true`): the unit ends with a dynamic next pc.
    Setpc(bool),
}

/// SOPC compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SC {
    Cmp(IntCC),
    Bitcmp(bool, bool),
    Cmp64(IntCC),
}
