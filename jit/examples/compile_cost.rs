//! Compile cost alone: every basic block of each kernel (GCN assembly, GCN 1.2) compiled
//! as a first use would compile it (the quick tier), or by the optimising tier, with
//! nothing run, `reps` times on a fresh engine. Prints the compiler's own figures
//! (thread CPU time per GCN instruction, Cranelift instructions per GCN instruction,
//! machine code bytes). Made for profilers:
//!
//! `cargo run --release -p wavejit-jit --example compile_cost -- [--opt] [--masked]
//! [--reps N] bench/kernels/*.s`
//!
//! `--masked` compiles the any-EXEC variants (the all-ones ones otherwise).

use wavejit_isa::arch::{Arch, Gen};
use wavejit_isa::ir::Program;
use wavejit_jit::gcn::Spec;
use wavejit_jit::{Jit, JitConfig};

fn main() {
    let mut opt = false;
    let mut masked = false;
    let mut reps = 20usize;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--opt" => opt = true,
            "--masked" => masked = true,
            "--reps" => reps = args.next().and_then(|n| n.parse().ok()).unwrap_or(reps),
            _ => files.push(a),
        }
    }
    if files.is_empty() {
        eprintln!("usage: compile_cost [--opt] [--masked] [--reps N] <kernel.s>...");
        std::process::exit(2);
    }
    let gen = Gen::Gfx8;
    let mut all_nanos = 0u64;
    let mut all_insts = 0u64;
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
            eprintln!("compile_cost: {path}: {e}");
            std::process::exit(1)
        });
        let asm = wavejit_isa::gcn::asm::assemble(gen, &text).unwrap_or_else(|e| {
            eprintln!("compile_cost: {path}: {e}");
            std::process::exit(1)
        });
        let prog = Program::new(Arch::Gcn(gen), &asm.bytes);
        let mut last = Default::default();
        let (mut nanos, mut insts) = (0u64, 0u64);
        for _ in 0..reps.max(1) {
            let jit = Jit::new(JitConfig {
                // 0: every unit optimised at once (no quick tier).
                hot_threshold: if opt {
                    0
                } else {
                    wavejit_jit::DEFAULT_HOT_THRESHOLD
                },
                ..JitConfig::default()
            });
            for b in &prog.blocks {
                jit.precompile(
                    &prog,
                    Spec {
                        pc: b.pc,
                        mode: 0xF0,
                        exec_all: !masked,
                        max_len: 0,
                    },
                );
            }
            let s = jit.stats();
            nanos += s.nanos;
            insts += s.insts;
            last = s;
        }
        all_nanos += nanos;
        all_insts += insts;
        let s: wavejit_jit::CompileStats = last;
        println!(
            "{:<12} units {:>3} insts {:>4} µs/inst {:>7.2} clif/inst {:>6.1} bytes/inst {:>6.1}",
            std::path::Path::new(path)
                .file_stem()
                .map_or(path.clone(), |s| s.to_string_lossy().into_owned()),
            s.blocks,
            s.insts,
            nanos as f64 / 1e3 / insts.max(1) as f64,
            s.clif_insts as f64 / s.insts.max(1) as f64,
            s.code_bytes as f64 / s.insts.max(1) as f64,
        );
    }
    println!(
        "all          µs/inst {:.2}",
        all_nanos as f64 / 1e3 / all_insts.max(1) as f64
    );
}
