//! What loading produces: a code object, its kernels and data segments, and why a file is
//! not one wavejit can run.

use std::sync::Arc;

use wavejit_isa::Gen;

use super::kd::KernelDescriptor;
use super::metadata::{KernelMeta, Metadata, MetadataError};

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
    /// The object's `R_AMDGPU_RELATIVE64` dynamic relocations inside this segment: (byte
    /// offset in the segment, addend). The loader writes there the address the addend's
    /// virtual address is loaded at (pointer tables such as `__constant T *tab[] = {a, b}`).
    pub relative: Vec<(u64, u64)>,
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
    Metadata(#[from] MetadataError),
    #[error("no kernel named `{name}` in the code object (kernels: {})", if available.is_empty() { "none".to_string() } else { available.join(", ") })]
    NoSuchKernel {
        name: String,
        available: Vec<String>,
    },
}
