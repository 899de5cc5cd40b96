//! Errors of the JIT itself (as opposed to errors of the kernel it runs, which are the
//! interpreter's `ExecError` so that both engines report the same thing).

/// Why a block could not be compiled or the back end could not start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JitError {
    /// The host or Cranelift refused to set up (no SSE2, bad flag, …).
    #[error("cranelift back end: {0}")]
    Backend(String),
    /// Cranelift rejected a function we built (a bug in the lowering: the block runs in
    /// the interpreter instead).
    #[error("cranelift codegen: {0}")]
    Codegen(String),
    /// The code cache reached its size bound.
    #[error("code cache full ({0} bytes)")]
    CacheFull(usize),
}
