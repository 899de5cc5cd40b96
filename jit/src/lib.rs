//! wavejit-jit: basic blocks lowered through Cranelift to native SIMD code.
//!
//! Layout: `backend` (host ISA, one JIT module per cache epoch), `cache` (code cache,
//! entry slots, the `Jit` engine object), `ctx` (what compiled code receives and the
//! helpers it may call), `block` (the lowering context and its register cache), `slots` (the scalar slots
//! named: VCC, EXEC, M0), `fxhash` (the lowering's map hasher), `cputime` (compile time on the
//! thread's CPU clock, the process's CPU clock), `exit` (leaving compiled code through the interpreter), `gcn/`
//! (lowering of GCN instructions: scalar, vector, DPP, SDWA, control flow), `mem/` (memory
//! instructions checked and done inline), `engine`
//! (the dispatcher: `jit` and `tiered` runs), `diff` (interpreter and JIT side by side), `disk` (compiled units kept between
//! processes).
//! `vp1/` belongs to the VP1 work.

#![deny(clippy::unwrap_used)]

pub mod backend;
pub mod block;
pub mod cache;
pub mod cputime;
pub mod ctx;
pub mod diff;
pub mod disk;
pub mod engine;
pub mod env;
pub mod error;
pub mod exit;
pub mod fxhash;
pub mod gcn;
pub mod mem;
pub mod slots;
pub mod vp1;

pub use cache::{
    CompileStats, Jit, JitConfig, ProgHandle, DEFAULT_HOT_THRESHOLD, DEFAULT_TIER_THRESHOLD,
    NEVER_COMPILE,
};
pub use diff::{
    diff_jit, diff_run, diff_run_on, diff_run_profiled, diff_run_profiled_on, diff_run_with,
    DiffRun, Mismatch,
};
pub use disk::DiskCache;
pub use engine::{JitRunStats, UnitStep, WaveSession};
pub use error::JitError;
