//! The interpreter's test list run on the JIT: one test list, two engines.
//!
//! Every test file of `interp/tests` that executes instructions is included here as a
//! module, unchanged. Their harnesses (`valu_common::Machine`, `exec_util::Machine`) and
//! `exec_run`'s programs call `crate::engine`, which in this binary is
//! `interp_engine/mod.rs`: each instruction runs in compiled code, its outcome and whole
//! final state are checked bit for bit against the interpreter's, and the test's own
//! hand-worked assertions then read the JIT's state. (In `interp/tests` the same files
//! name the interpreter as their `engine`; see `interp/tests/engine/mod.rs`.)
//!
//! Not included: `valu_float_soft.rs` (the software float functions, no instructions) and
//! `vp1_semantics.rs` (VP1 text programs; VP1 has its own differential test,
//! `vp1_diff.rs`).
//!
//! Module paths: a file loaded with `#[path]` resolves its own `mod x;` next to itself, so
//! each included file brings its harness (`interp/tests/valu_common/mod.rs`, ...) and the
//! interpreter's `engine` module (unused here) from `interp/tests`.

#[path = "interp_engine/mod.rs"]
mod engine;

#[path = "../../interp/tests/exec_run.rs"]
mod exec_run;
#[path = "../../interp/tests/mem_ds.rs"]
mod mem_ds;
#[path = "../../interp/tests/mem_vmem.rs"]
mod mem_vmem;
#[path = "../../interp/tests/salu_sop1.rs"]
mod salu_sop1;
#[path = "../../interp/tests/salu_sop2.rs"]
mod salu_sop2;
#[path = "../../interp/tests/salu_sopk_sopc_sopp.rs"]
mod salu_sopk_sopc_sopp;
#[path = "../../interp/tests/valu_complete.rs"]
mod valu_complete;
#[path = "../../interp/tests/valu_corpus.rs"]
mod valu_corpus;
#[path = "../../interp/tests/valu_dpp.rs"]
mod valu_dpp;
#[path = "../../interp/tests/valu_float_host.rs"]
mod valu_float_host;
#[path = "../../interp/tests/valu_lanes.rs"]
mod valu_lanes;
#[path = "../../interp/tests/valu_sdwa.rs"]
mod valu_sdwa;
#[path = "../../interp/tests/valu_sem.rs"]
mod valu_sem;
#[path = "../../interp/tests/vintrp_layout.rs"]
mod vintrp_layout;
