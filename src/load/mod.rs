//! Loading programs: AMDHSA code objects (ELF) as clang/LLVM write them for GCN 1.0-1.2 —
//! linked `.hsaco` shared objects, relocatable `-c` objects and `llvm-mc -filetype=obj`
//! output. A loaded [`CodeObject`] lists its kernels, each with its kernel descriptor
//! ([`kd`]), its argument metadata ([`metadata`]) and the code it starts in.
//!
//! `elf` walks the file; `kd` and `metadata` decode the two structures a launcher needs.

#![cfg_attr(not(test), deny(clippy::unwrap_used))]

pub mod elf;
pub mod kd;
pub mod metadata;

use std::sync::Arc;

use wavejit_isa::Gen;

pub use kd::KernelDescriptor;
pub use metadata::{ArgMeta, KernelMeta, Metadata};

/// A loaded AMDHSA code object.
#[derive(Clone, Debug)]
pub struct CodeObject {
    /// The GCN generation of `e_flags`' EF_AMDGPU_MACH.
    pub gen: Gen,
    /// The processor name (`gfx803`, …).
    pub processor: &'static str,
    /// Code object version (3, 4, 5 or 6) from EI_ABIVERSION.
    pub version: u32,
    /// Relocatable object (`clang -c`, `llvm-mc`) rather than a linked shared object.
    pub relocatable: bool,
    /// The metadata note, when the object has one.
    pub metadata: Option<Metadata>,
    pub kernels: Vec<Kernel>,
    /// The data a linked object loads next to its code (its non-executable `PT_LOAD`
    /// segments: `__constant` tables, globals), which kernels reach pc-relatively through
    /// `s_getpc_b64`. Empty for relocatable objects.
    pub data_segments: Vec<Segment>,
}

/// A loadable segment: `memsz` bytes at `vaddr`, the first of them from the file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Segment {
    pub vaddr: u64,
    pub bytes: Arc<[u8]>,
    pub memsz: u64,
}

/// One kernel: where its code starts and how to launch it.
#[derive(Clone, Debug)]
pub struct Kernel {
    pub name: String,
    pub kd: KernelDescriptor,
    /// Its entry of the metadata note (arguments), when there is one.
    pub meta: Option<KernelMeta>,
    /// The bytes of the executable section the kernel starts in (shared between kernels).
    pub code: Arc<[u8]>,
    /// Byte offset of the first instruction in `code`.
    pub entry: u32,
    /// Relocations against the code section that a linker would have applied (relocatable
    /// objects only). A kernel with any cannot run as is.
    pub code_relocations: usize,
    /// The entry's virtual address in a linked object (where `data_segments` are relative
    /// to); `None` in a relocatable one.
    pub entry_vaddr: Option<u64>,
}

/// Why a file is not a code object wavejit can run.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("not an ELF file (bad magic)")]
    NotElf,
    #[error("unsupported ELF: {0}")]
    UnsupportedElf(String),
    #[error("malformed ELF: {0}")]
    Malformed(String),
    #[error("unsupported code object: {0}")]
    Unsupported(String),
    #[error("kernel `{kernel}`: {msg}")]
    Kernel { kernel: String, msg: String },
    #[error(transparent)]
    Metadata(#[from] metadata::MetadataError),
    #[error("no kernel named `{name}` in the code object (kernels: {})", if available.is_empty() { "none".to_string() } else { available.join(", ") })]
    NoSuchKernel {
        name: String,
        available: Vec<String>,
    },
}

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
