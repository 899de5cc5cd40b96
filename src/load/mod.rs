//! Loading programs: AMDHSA code objects (ELF) as clang/LLVM write them for GCN 1.0-1.2 —
//! linked `.hsaco` shared objects, relocatable `-c` objects and `llvm-mc -filetype=obj`
//! output. A loaded [`CodeObject`] lists its kernels, each with its kernel descriptor
//! ([`kd`]), its argument metadata ([`metadata`]) and the code it starts in.
//!
//! `elf` walks the file; `kd` and `metadata` decode the two structures a launcher needs.

#![cfg_attr(not(test), deny(clippy::unwrap_used))]

pub mod code;
pub mod elf;
pub mod kd;
pub mod metadata;

pub use code::{CodeObject, Kernel, LoadError, Segment};
pub use kd::KernelDescriptor;
pub use metadata::{ArgMeta, KernelMeta, Metadata};

impl CodeObject {
    /// Parse a code object from its bytes.
    pub fn parse(bytes: &[u8]) -> Result<CodeObject, LoadError> {
        elf::parse(bytes)
    }

    /// Read and parse a file.
    pub fn from_file(
        path: &std::path::Path,
    ) -> Result<CodeObject, Box<dyn std::error::Error + Send + Sync>> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        CodeObject::parse(&bytes).map_err(|e| format!("{}: {e}", path.display()).into())
    }

    /// The kernel called `name` (with or without the `.kd` suffix).
    pub fn kernel(&self, name: &str) -> Result<&Kernel, LoadError> {
        let n = name.strip_suffix(".kd").unwrap_or(name);
        self.kernels
            .iter()
            .find(|k| k.name == n)
            .ok_or_else(|| LoadError::NoSuchKernel {
                name: name.to_string(),
                available: self.kernels.iter().map(|k| k.name.clone()).collect(),
            })
    }
}
