//! wavejit-isa: everything that knows how instructions are written down — the instruction
//! tables, decoders and encoders, assemblers and disassemblers for GCN 1.0/1.1/1.2 and the
//! VP1 scalar unit — plus the IR both engines consume and the state they share.

#![deny(clippy::unwrap_used)]

pub mod arch;
pub mod error;
pub mod flow;
pub mod gcn;
pub mod ir;
pub mod progen;
pub mod reguse;
pub mod state;
pub mod vp1;

pub use arch::{Arch, Gen};
pub use error::{AsmError, DecodeError, DecodeErrorKind};
