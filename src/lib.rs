//! wavejit: run GPU machine code (AMD GCN 1.0-1.2, NVIDIA VP1 scalar unit) on the CPU,
//! in a reference interpreter or through a Cranelift JIT.

pub use wavejit_isa as isa;
