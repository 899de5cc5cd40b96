//! What the test suites of the workspace share: where the repository's data is
//! ([`root`]) and the kernel-launch helpers ([`launch`]).

pub mod launch;

use std::path::PathBuf;

/// The workspace root (where `tests/data/`, `examples/` and `bench/kernels/` are).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from(".."), PathBuf::from)
}
