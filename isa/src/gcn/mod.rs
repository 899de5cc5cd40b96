//! GCN 1.0/1.1/1.2: the instruction table and, driven by it, decoding, encoding, operand
//! meaning, assembly and disassembly.

pub mod asm;
pub mod build;
pub mod decode;
pub mod desc;
pub mod encode;
pub mod export;
pub mod fmt;
pub mod inst;
pub mod opcode;
pub mod operand;
pub mod table;
pub mod valu;

pub use decode::{decode, flow};
pub use desc::{BranchIf, CmpDesc, CmpTy, Cond, OpDesc, Ty, ValuKind};
pub use encode::{encode, EncodeError};
pub use export::{ExpFields, ExpTarget};
pub use inst::{
    BufferFields, DppFields, DsFields, Enc, Fields, FlatFields, Inst, ScalarMem, SdwaFields,
    SmemFields, SmemOffset, SmrdFields, Src, VintrpFields, Vop3Fields, VopBase,
};
pub use table::Op;
