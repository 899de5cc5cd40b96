//! What the test suites of the workspace share: where the repository's data is
//! ([`root`]), the kernel-launch helpers ([`launch`]), and the engine-generic harness that
//! runs the interpreter's tests on every engine ([`conformance`]).

pub mod conformance;
pub mod launch;

use std::path::PathBuf;

/// The workspace root (where `tests/data/`, `examples/` and `bench/kernels/` are).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from(".."), PathBuf::from)
}
