//! What the test suites of the workspace share: where the repository's data is
//! ([`root`]), running programs and external tools ([`run_program`], [`tool`],
//! [`oracles_required`]), the kernel-launch helpers ([`launch`]), the engine-generic
//! harness that runs the interpreter's tests on every engine ([`conformance`]), and the
//! machine those tests run one instruction on ([`machine`]).

pub mod conformance;
pub mod launch;
pub mod machine;

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::Command;

/// The workspace root (where `tests/data/`, `examples/` and `bench/kernels/` are).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from(".."), PathBuf::from)
}

/// Run `program` with `args`: its exit code (-1 when a signal ended it), stdout and stderr.
/// Panics when it cannot be started (the program under test must exist).
pub fn run_program<S: AsRef<OsStr>>(
    program: impl AsRef<OsStr>,
    args: impl IntoIterator<Item = S>,
) -> (i32, String, String) {
    let o = Command::new(program)
        .args(args)
        .output()
        .expect("the program under test runs");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The stdout of an external tool (`llvm-mc-19`, `llvm-readelf-19`, …) when it runs and
/// succeeds; `None` when it is missing or fails.
pub fn tool(name: &str, args: &[&str]) -> Option<String> {
    let o = Command::new(name).args(args).output().ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).into_owned())
}

/// Whether the external tools the tests compare with must be present
/// (`WAVEJIT_REQUIRE_ORACLES` is set): a missing one then fails the test instead of
/// skipping it.
pub fn oracles_required() -> bool {
    std::env::var_os("WAVEJIT_REQUIRE_ORACLES").is_some()
}
