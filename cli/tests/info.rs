//! `wavejit info`: the arguments and sizes it reports for every prebuilt code object equal
//! what llvm-readelf-19 reads from the same file's metadata note (an independent reader of
//! the same facts); the register counts and occupancy equal a hand calculation from the
//! kernel descriptor's bits.

use std::path::Path;
use std::process::Command;

use serde_json::Value;
use wavejit_testkit::{oracles_required as required, root};

fn wavejit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_wavejit"))
}

fn info_json(file: &Path) -> Value {
    let o = wavejit()
        .args(["info", "--json"])
        .arg(file)
        .output()
        .expect("runs");
    assert!(
        o.status.success(),
        "{}: {}",
        file.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("JSON")
}

/// What llvm-readelf-19 shows of each kernel's metadata: name → (kernarg size, LDS size,
/// scratch size, [(offset, size, value kind)] of its arguments in order); `None` when the
/// tool cannot be run, empty when the object has no metadata note.
type Readelf = Vec<(String, u64, u64, u64, Vec<(u64, u64, String)>)>;

fn readelf_notes(file: &Path) -> Option<Readelf> {
    let o = Command::new("llvm-readelf-19")
        .arg("--notes")
        .arg(file)
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    // An object assembled without `.amdgpu_metadata` (getpc.hsaco) has no kernel list.
    let Some(body) = text.split("amdhsa.kernels:").nth(1) else {
        return Some(Vec::new());
    };
    let body = body.split("\namdhsa.").next().unwrap_or(body);
    let num = |l: &str| -> u64 {
        l.split(':')
            .nth(1)
            .unwrap_or("")
            .trim()
            .parse()
            .unwrap_or(0)
    };
    let mut out = Vec::new();
    for item in body.split("\n  - ").skip(1) {
        let (mut name, mut kernarg, mut lds, mut scratch) = (String::new(), 0, 0, 0);
        let mut args: Vec<(u64, u64, String)> = Vec::new();
        for l in item.lines() {
            let t = l.trim_start();
            let arg_line = l.starts_with("        ") || l.starts_with("      - ");
            let t = t.strip_prefix("- ").unwrap_or(t);
            if arg_line {
                if t.starts_with(".offset:") {
                    args.push((num(t), 0, String::new()));
                } else if t.starts_with(".size:") {
                    if let Some(a) = args.last_mut() {
                        a.1 = num(t);
                    }
                } else if let Some(v) = t.strip_prefix(".value_kind:") {
                    if let Some(a) = args.last_mut() {
                        a.2 = v.trim().to_string();
                    }
                }
            } else if let Some(v) = t.strip_prefix(".name:") {
                name = v.trim().to_string();
            } else if t.starts_with(".kernarg_segment_size:") {
                kernarg = num(t);
            } else if t.starts_with(".group_segment_fixed_size:") {
                lds = num(t);
            } else if t.starts_with(".private_segment_fixed_size:") {
                scratch = num(t);
            }
        }
        out.push((name, kernarg, lds, scratch, args));
    }
    Some(out)
}

#[test]
fn info_agrees_with_llvm_readelf_on_every_prebuilt_object() {
    let dir = root().join("tests/data/launch");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/data/launch")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            p.extension()
                .is_some_and(|e| e == "hsaco" || (e == "o" && p.to_string_lossy().contains("two")))
        })
        .collect();
    files.sort();
    assert!(files.len() >= 5, "{files:?}");
    assert!(compare_with_readelf(&files) >= 5);
}

#[test]
fn info_agrees_with_llvm_readelf_on_every_example_kernel() {
    // Every OpenCL example, built by clang-19 for gfx803 (and gfx600 for those that build
    // there): the metadata clang wrote, as llvm-readelf-19 reads it.
    if !wavejit_testkit::launch::have_clang() {
        assert!(!required(), "clang-19 is required");
        return;
    }
    let mut srcs: Vec<String> = std::fs::read_dir(root().join("examples/opencl"))
        .expect("examples/opencl")
        .map(|e| e.expect("entry").file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".cl"))
        .collect();
    srcs.sort();
    assert!(srcs.len() >= 10, "{srcs:?}");
    let files: Vec<_> = srcs
        .iter()
        .map(|s| wavejit_testkit::launch::build_file(s, "gfx803", &[]))
        .collect();
    assert!(compare_with_readelf(&files) >= srcs.len());
}

/// Compare `info --json` with llvm-readelf-19's notes for each file; the kernels compared.
fn compare_with_readelf(files: &[std::path::PathBuf]) -> usize {
    let mut compared = 0;
    for f in files {
        let Some(notes) = readelf_notes(f) else {
            assert!(!required(), "llvm-readelf-19 is required");
            eprintln!("skipped: llvm-readelf-19 not found");
            return usize::MAX;
        };
        if notes.is_empty() {
            continue; // no metadata note: nothing of llvm-readelf's to compare with
        }
        let v = info_json(f);
        let kernels = v["kernels"].as_array().expect("kernels");
        assert_eq!(kernels.len(), notes.len(), "{}", f.display());
        for (name, kernarg, lds, scratch, args) in &notes {
            let k = kernels
                .iter()
                .find(|k| k["name"] == name.as_str())
                .unwrap_or_else(|| panic!("{}: no kernel {name} in {v}", f.display()));
            assert_eq!(k["kernarg_bytes"], *kernarg, "{name}");
            assert_eq!(k["lds_bytes"], *lds, "{name}");
            assert_eq!(k["scratch_bytes_per_item"], *scratch, "{name}");
            let ours: Vec<(u64, u64, String)> = k["args"]
                .as_array()
                .expect("args")
                .iter()
                .map(|a| {
                    (
                        a["offset"].as_u64().unwrap_or(u64::MAX),
                        a["size"].as_u64().unwrap_or(u64::MAX),
                        a["value_kind"].as_str().unwrap_or("").to_string(),
                    )
                })
                .collect();
            assert_eq!(&ours, args, "{}: {name}", f.display());
            compared += 1;
        }
        // The target, from e_flags: the file name says which processor clang built for.
        let stem = f
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        for cpu in ["gfx600", "gfx700", "gfx803"] {
            if stem.contains(cpu) {
                assert_eq!(v["processor"], cpu, "{stem}");
            }
        }
    }
    compared
}

#[test]
fn registers_and_occupancy_from_the_descriptor_by_hand() {
    // vadd for gfx803: COMPUTE_PGM_RSRC1 = 0x00ac0041 (`llvm-objdump-19 -s -j .rodata`, the
    // descriptor 0x880 + 48; the entry 0x1900 is `vadd` in `llvm-readelf-19 -s`):
    // GRANULATED_WORKITEM_VGPR_COUNT = 1 → (1 + 1) × 4 = 8 VGPRs,
    // GRANULATED_WAVEFRONT_SGPR_COUNT = 1 → (1 + 1) × 8 = 16 SGPRs. 256 / 8 = 32 and
    // 800 / 16 = 50 waves, both above the SIMD's limit of 10; no LDS: 10 waves.
    let v = info_json(&root().join("tests/data/launch/vadd-gfx803.hsaco"));
    let k = &v["kernels"][0];
    assert_eq!(k["name"], "vadd");
    assert_eq!(k["vgprs"], 8);
    assert_eq!(k["sgprs"], 16);
    assert_eq!(k["occupancy"]["waves_per_simd"], 10);
    assert_eq!(k["occupancy"]["limited_by"], "none");
    assert_eq!(v["code_object_version"], 5);
    assert_eq!(v["generation"], "gfx8");
    // The text form says the same.
    let o = wavejit()
        .args(["info"])
        .arg(root().join("tests/data/launch/vadd-gfx803.hsaco"))
        .output()
        .expect("runs");
    let t = String::from_utf8_lossy(&o.stdout);
    assert!(
        t.contains("kernel vadd: entry 0x1900, 8 VGPRs, 16 SGPRs"),
        "{t}"
    );
    // Not a code object: a clear error, not a panic.
    let o = wavejit()
        .args(["info"])
        .arg(root().join("tests/data/launch/two.cl"))
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not an ELF file"));
}
