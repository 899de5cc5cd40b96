//! Fingerprints the sources that decide what machine code the JIT makes (the decoder
//! and tables, the interpreter it calls, the lowering, the locked dependency versions),
//! so that the disk cache (`src/disk.rs`) never loads code a different build compiled:
//! `WAVEJIT_SOURCE_FINGERPRINT`, a hash of every file's path and bytes.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn main() {
    let here = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let root = here.parent().map(Path::to_path_buf).unwrap_or_default();
    let inputs = [
        root.join("isa/src"),
        root.join("isa/build"),
        root.join("isa/build.rs"),
        root.join("isa/tables"),
        root.join("interp/src"),
        here.join("src"),
        here.join("build.rs"),
        root.join("Cargo.lock"),
    ];
    let mut files = Vec::new();
    for i in &inputs {
        println!("cargo:rerun-if-changed={}", i.display());
        if i.is_dir() {
            walk(i, &mut files);
        } else if i.exists() {
            files.push(i.clone());
        }
    }
    files.sort();
    // Two differently seeded 64-bit hashes: a changed build must not meet an old entry.
    let mut h1 = DefaultHasher::new();
    let mut h2 = DefaultHasher::new();
    0xa5a5_u32.hash(&mut h2);
    for f in &files {
        let rel = f.strip_prefix(&root).unwrap_or(f);
        let bytes = std::fs::read(f).unwrap_or_default();
        for h in [&mut h1, &mut h2] {
            rel.hash(h);
            bytes.hash(h);
        }
    }
    println!(
        "cargo:rustc-env=WAVEJIT_SOURCE_FINGERPRINT={:016x}{:016x}",
        h1.finish(),
        h2.finish()
    );
}
