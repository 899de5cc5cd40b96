//! For the tests that launch kernels: building the OpenCL examples with clang-19 at test time
//! (skipping with a note when it is absent), reading prebuilt objects, and the engines
//! every kernel runs on.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use wavejit::device::{Buffer, Device};
use wavejit::engine::{self, WaveEngine};
use wavejit::load::CodeObject;

/// The generations the examples are built for, by LLVM processor name.
pub const CPUS: [&str; 3] = ["gfx600", "gfx700", "gfx803"];

pub use crate::root;

/// A prebuilt object from `tests/data/launch/`.
pub fn prebuilt(name: &str) -> CodeObject {
    let p = root().join("tests/data/launch").join(name);
    let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    CodeObject::parse(&bytes).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn tool_works(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Whether clang-19 (with lld) is installed; prints the skip note once. With
/// `WAVEJIT_REQUIRE_ORACLES` set (CI sets it after installing the tools) a missing tool
/// fails instead of skipping.
pub fn have_clang() -> bool {
    static HAVE: OnceLock<bool> = OnceLock::new();
    *HAVE.get_or_init(|| {
        let ok = tool_works("clang-19") && tool_works("ld.lld-19");
        assert!(
            ok || std::env::var_os("WAVEJIT_REQUIRE_ORACLES").is_none(),
            "clang-19/ld.lld-19 are not installed but WAVEJIT_REQUIRE_ORACLES is set"
        );
        if !ok {
            eprintln!("NOTE: clang-19/ld.lld-19 not found: skipping the OpenCL example kernels (apt-get install -y clang-19 lld-19)");
        }
        ok
    })
}

fn out_dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("wavejit-launch-tests-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&d);
    d
}

/// Compile `examples/opencl/<src>` for `cpu` (extra clang flags appended) into a linked
/// code object. `None` (with a note) when clang is not installed; a compile error panics.
pub fn build(src: &str, cpu: &str, extra: &[&str]) -> Option<CodeObject> {
    if !have_clang() {
        return None;
    }
    let path = build_file(src, cpu, extra);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Some(CodeObject::parse(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// As `build`, returning the file's path (clang must be present).
pub fn build_file(src: &str, cpu: &str, extra: &[&str]) -> PathBuf {
    let input = root().join("examples/opencl").join(src);
    let tag: String = extra.iter().map(|e| e.replace(['=', '-'], "")).collect();
    let out = out_dir().join(format!("{}-{cpu}{tag}.hsaco", src.trim_end_matches(".cl")));
    let o = Command::new("clang-19")
        .args("-x cl -cl-std=CL1.2 -target amdgcn-amd-amdhsa -nogpulib -O2".split(' '))
        .arg(format!("-mcpu={cpu}"))
        .args(extra)
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .output()
        .expect("run clang-19");
    assert!(
        o.status.success(),
        "clang-19 {}: {}",
        input.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

/// The words of buffer `b` of `dev` (a buffer the test allocated: a failed read panics).
pub fn read_u32(dev: &Device, b: Buffer) -> Vec<u32> {
    dev.read_vec::<u32>(b)
        .unwrap_or_else(|e| panic!("read {b:?}: {e}"))
}

/// The engines every kernel runs on: the interpreter, and the JIT engines once
/// `engine::by_name` offers them.
pub fn engines() -> Vec<&'static str> {
    ["interp", "jit", "tiered"]
        .into_iter()
        .filter(|n| engine::by_name(n).is_ok())
        .collect()
}

/// A device running `engine` with two worker threads (the CI machine has two cores).
pub fn device(engine: &str) -> Device {
    let exec: Box<dyn WaveEngine> = engine::by_name(engine).expect("engine");
    let mut d = Device::with_exec(exec);
    d.set_threads(2);
    d
}

pub fn exists(p: &Path) -> bool {
    p.exists()
}
