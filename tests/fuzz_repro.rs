//! Every reproducer under `tests/data/repro/` (written by `wavejit fuzz`, minimised) is
//! replayed from its files on every run: the interpreter and the JIT must agree. A note
//! saying `status: open` marks a bug not fixed yet: its differences are printed and the
//! test does not fail on it (so that the reproducer can be committed with the report);
//! every other reproducer must replay with no difference.

use std::path::{Path, PathBuf};

use wavejit::fuzz::case::{run_gcn, run_vp1, Vp1Case, Vp1Interp, Vp1Jit};
use wavejit::fuzz::compare::{self, Diffs};
use wavejit::fuzz::engine::{Interp, JitRunner};
use wavejit::fuzz::repro;
use wavejit::isa::ir::Program;
use wavejit::isa::Arch;
use wavejit::vp1cli::Vp1StateFile;

fn repro_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/repro")
}

/// Replay one reproducer: the differences between the interpreter and the JIT.
fn replay(s_path: &Path) -> Result<Diffs, String> {
    let text = std::fs::read_to_string(s_path).map_err(|e| e.to_string())?;
    let json = std::fs::read_to_string(s_path.with_extension("json")).map_err(|e| e.to_string())?;
    let arch = repro::arch_of(&text).ok_or("no `// arch:` header")?;
    match arch {
        Arch::Gcn(gen) => {
            let code = wavejit::isa::gcn::asm::assemble(gen, &text)
                .map_err(|e| e.to_string())?
                .bytes;
            let state = repro::gcn_state_from_json(gen, &json).map_err(|e| e.to_string())?;
            let prog = Program::new(arch, &code);
            let a = run_gcn(&mut Interp, &prog, &state);
            let b = run_gcn(&mut JitRunner::default(), &prog, &state);
            Ok(compare::gcn(&a, &b))
        }
        Arch::Vp1 => {
            let words = wavejit::isa::vp1::asm::assemble(&text).map_err(|e| e.to_string())?;
            let state = Vp1StateFile::parse(&json)
                .map_err(|e| e.to_string())?
                .build();
            let case = Vp1Case { words, state };
            Ok(compare::vp1(
                &run_vp1(&mut Vp1Interp, &case),
                &run_vp1(&mut Vp1Jit, &case),
            ))
        }
    }
}

#[test]
fn committed_reproducers_replay_equal() {
    let Ok(rd) = std::fs::read_dir(repro_dir()) else {
        println!("no reproducers directory");
        return;
    };
    let mut paths: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "s"))
        .collect();
    paths.sort();
    let mut failures = Vec::new();
    let (mut fixed, mut open) = (0, 0);
    for p in &paths {
        let note = std::fs::read_to_string(p.with_extension("txt")).unwrap_or_default();
        let is_open = note.lines().any(|l| l.trim() == "status: open");
        match replay(p) {
            Err(e) => failures.push(format!("{}: cannot replay: {e}", p.display())),
            Ok(d) if is_open => {
                open += 1;
                println!(
                    "{} (open): {} differences; first: {}",
                    p.display(),
                    d.total,
                    d.first()
                );
            }
            Ok(d) => {
                fixed += 1;
                if !d.is_empty() {
                    failures.push(format!(
                        "{}: {} differences: {:?}",
                        p.display(),
                        d.total,
                        d.listed
                    ));
                }
            }
        }
    }
    println!(
        "{} reproducers: {fixed} must be equal, {open} open",
        paths.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
