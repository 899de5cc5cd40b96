//! Which table row and opcode encode an operation in an encoding, and why an instruction
//! cannot be encoded: shared by the decoder, the operand view and the encoder.

use super::inst::{Enc, VopBase};
use super::table::{vop3_twin_opcode, Op, Row, TableEnc};
use crate::arch::Gen;
use crate::error::DecodeErrorKind;

/// Why an `Inst` cannot be encoded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    #[error("{mnemonic} has no {enc} form on {gen}")]
    NoOpcode {
        mnemonic: &'static str,
        enc: &'static str,
        gen: Gen,
    },
    #[error("{enc} instruction given {fields} fields")]
    FieldsMismatch {
        enc: &'static str,
        fields: &'static str,
    },
    #[error("field {field} = {value:#x} does not fit its encoding")]
    OutOfRange { field: &'static str, value: u32 },
    #[error("{mnemonic}: the encoding needs a literal constant and none was given")]
    MissingLiteral { mnemonic: &'static str },
    #[error("{mnemonic}: a literal constant was given but the encoding has none")]
    UnexpectedLiteral { mnemonic: &'static str },
    #[error("{mnemonic}: not a valid encoding: {kind}")]
    Invalid {
        mnemonic: &'static str,
        kind: DecodeErrorKind,
    },
    #[error("{mnemonic}: the fields do not survive encoding (a field the encoding lacks is set)")]
    NotRepresentable { mnemonic: &'static str },
}

type R<T> = Result<T, EncodeError>;

/// The table row and opcode that encode `op` in encoding `enc` on `gen`. VOP3 finds native
/// VOP3/VOP3B rows and the VOP3 twins of VOP1/VOP2/VOPC rows; SDWA and DPP use the row of
/// the encoding they extend (GCN 1.2 only).
pub fn opcode(gen: Gen, op: Op, enc: Enc) -> R<(&'static Row, u16)> {
    let none = || EncodeError::NoOpcode {
        mnemonic: op.mnemonic(),
        enc: enc.name(),
        gen,
    };
    let native = |te: TableEnc| -> Option<(&'static Row, u16)> {
        op.row_in(gen, te)
            .and_then(|r| r.opcode[gen.index()].map(|o| (r, o)))
    };
    let te = match enc {
        Enc::Sop2 => TableEnc::Sop2,
        Enc::Sopk => TableEnc::Sopk,
        Enc::Sop1 => TableEnc::Sop1,
        Enc::Sopc => TableEnc::Sopc,
        Enc::Sopp => TableEnc::Sopp,
        Enc::Smrd => TableEnc::Smrd,
        Enc::Smem => TableEnc::Smem,
        Enc::Vop1 => TableEnc::Vop1,
        Enc::Vop2 => TableEnc::Vop2,
        Enc::Vopc => TableEnc::Vopc,
        Enc::Sdwa { base } | Enc::Dpp { base } => {
            if gen != Gen::Gfx8 {
                return Err(none());
            }
            match base {
                VopBase::Vop1 => TableEnc::Vop1,
                VopBase::Vop2 => TableEnc::Vop2,
                VopBase::Vopc => TableEnc::Vopc,
            }
        }
        Enc::Vop3 => {
            if let Some(x) = native(TableEnc::Vop3).or_else(|| native(TableEnc::Vop3b)) {
                return Ok(x);
            }
            for te in [TableEnc::Vop1, TableEnc::Vop2, TableEnc::Vopc] {
                if let Some((r, o)) = native(te) {
                    if r.e64[gen.index()] {
                        if let Some(t) = vop3_twin_opcode(gen, te, o) {
                            return Ok((r, t));
                        }
                    }
                }
            }
            return Err(none());
        }
        Enc::Vintrp => TableEnc::Vintrp,
        Enc::Ds => TableEnc::Ds,
        Enc::Mubuf => TableEnc::Mubuf,
        Enc::Mtbuf => TableEnc::Mtbuf,
        Enc::Mimg => TableEnc::Mimg,
        Enc::Flat => TableEnc::Flat,
        Enc::Exp => TableEnc::Exp,
    };
    native(te).ok_or_else(none)
}
