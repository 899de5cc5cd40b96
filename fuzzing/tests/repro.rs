//! Every reproducer under `tests/data/repro/` (written by `wavejit fuzz`, minimised) is
//! replayed from its files on every run: the interpreter and the JIT must agree. A note
//! saying `status: open` marks a bug not fixed yet: its differences are printed and the
//! test does not fail on it (so that the reproducer can be committed with the report);
//! every other reproducer must replay with no difference.

use std::path::{Path, PathBuf};

use wavejit::engine::{Interp, Jit};
use wavejit::isa::ir::Program;
use wavejit::isa::Arch;
use wavejit::statefile::vp1::Vp1StateFile;
use wavejit_fuzzing::case::{run_gcn, run_vp1, Vp1Case, Vp1Interp, Vp1Jit};
use wavejit_fuzzing::compare::{self, Diffs};
use wavejit_fuzzing::repro;

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
            let a = run_gcn(&Interp, &prog, &state);
            let b = run_gcn(&Jit::eager(), &prog, &state);
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
                &run_vp1(&mut Vp1Jit::default(), &case),
            ))
        }
    }
}

/// The interpreter's end of a GCN reproducer (`None` for VP1), for `expect-end:`.
fn interp_end(s_path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(s_path).ok()?;
    let json = std::fs::read_to_string(s_path.with_extension("json")).ok()?;
    let Some(Arch::Gcn(gen)) = repro::arch_of(&text) else {
        return None;
    };
    let code = wavejit::isa::gcn::asm::assemble(gen, &text).ok()?.bytes;
    let state = repro::gcn_state_from_json(gen, &json).ok()?;
    let out = run_gcn(&Interp, &Program::new(Arch::Gcn(gen), &code), &state);
    Some(match out.result {
        Ok(n) => format!("ended after {n} instructions"),
        Err(e) => e.to_string(),
    })
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
        // `expect-end: TEXT`: how the interpreter must end (a bug both engines shared).
        for want in note
            .lines()
            .filter_map(|l| l.trim().strip_prefix("expect-end:"))
        {
            let got = interp_end(p).unwrap_or_default();
            if !got.contains(want.trim()) {
                failures.push(format!(
                    "{}: the interpreter ended with `{got}`, not `{}`",
                    p.display(),
                    want.trim()
                ));
            }
        }
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

#[test]
fn reproducer_files_round_trip_random_cases() {
    use wavejit_fuzzing::campaign::{gcn_case, vp1_case};
    use wavejit_fuzzing::compare::Diffs;
    use wavejit_fuzzing::repro::Origin;
    let dir = std::env::temp_dir().join(format!("wavejit-repro-rt-{}", std::process::id()));
    let origin = Origin {
        seed: 9,
        index: 0,
        state: 0,
        engines: ("interp".into(), "jit".into()),
    };
    let (mut raw, mut total) = (0, 0);
    for gen in wavejit::isa::Gen::ALL {
        for i in 0..20 {
            let (case, _) = gcn_case(gen, 9, i, 30);
            let name = format!("rt-{gen}-{i}");
            let s =
                repro::write_gcn(&dir, &name, &case, &Diffs::default(), &origin).expect("writes");
            let text = std::fs::read_to_string(&s).expect("reads");
            raw += text.lines().filter(|l| l.contains(".long")).count();
            total += text.lines().filter(|l| !l.starts_with("//")).count();
            assert_eq!(repro::arch_of(&text), Some(Arch::Gcn(gen)));
            let code = wavejit::isa::gcn::asm::assemble(gen, &text)
                .expect("assembles")
                .bytes;
            assert_eq!(
                code,
                case.prog.encode().expect("encodes"),
                "{name}:\n{text}"
            );
            let json = std::fs::read_to_string(s.with_extension("json")).expect("reads");
            let st = repro::gcn_state_from_json(gen, &json).expect("parses");
            let (a, b) = (&case.state.wave, &st.wave);
            assert_eq!(a.vgpr[..], b.vgpr[..], "{name}");
            assert_eq!(a.sgpr[..124], b.sgpr[..124], "{name}");
            assert_eq!(
                (a.exec, a.vcc, a.m0, a.scc, a.mode, a.pc),
                (b.exec, b.vcc, b.m0, b.scc, b.mode, b.pc)
            );
            assert_eq!(case.state.lds, st.lds, "{name}");
            assert_eq!(case.state.mem, st.mem, "{name}");
        }
    }
    println!("{raw} of {total} GCN lines written as .long (text that does not assemble back)");
    assert!(raw * 5 < total, "{raw} of {total} lines as .long");
    for i in 0..20 {
        let case = vp1_case(9, i, 30);
        let name = format!("rt-vp1-{i}");
        let s = repro::write_vp1(&dir, &name, &case, &Diffs::default(), &origin).expect("writes");
        let text = std::fs::read_to_string(&s).expect("reads");
        assert_eq!(repro::arch_of(&text), Some(Arch::Vp1));
        assert_eq!(
            wavejit::isa::vp1::asm::assemble(&text).expect("assembles"),
            case.words,
            "{name}"
        );
        let json = std::fs::read_to_string(s.with_extension("json")).expect("reads");
        let st = Vp1StateFile::parse(&json).expect("parses").build();
        assert_eq!(st, case.state, "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
