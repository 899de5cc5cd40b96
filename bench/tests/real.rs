//! The real-kernel suite's programs, small, on every engine: each result equals the
//! Rust computation of `wavejit_bench::real` (the benchmark never times a wrong run).

use wavejit::engine::{self, Engine};
use wavejit::load::CodeObject;
use wavejit_bench::real::{self, Case, Sizes};

#[test]
fn every_program_matches_its_reference_on_every_engine() {
    if !real::have_clang() {
        eprintln!("NOTE: clang-19/ld.lld-19 not found: skipping the real-kernel programs");
        return;
    }
    let s = Sizes {
        stream: 4096,
        matmul: 32,
        stencil: 48,
        jacobi: 32,
    };
    let dir = std::env::temp_dir().join(format!("wavejit-real-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for case in Case::ALL {
        let out = dir.join(format!("{}.hsaco", case.name()));
        real::build(case.source(), &out).unwrap();
        let code = CodeObject::from_file(&out).unwrap();
        for e in [Engine::Interp, Engine::Jit, Engine::Tiered, Engine::Diff] {
            let m = real::measure(case, &code, engine::for_engine(e), s)
                .unwrap_or_else(|err| panic!("{}: {err}", case.name()));
            assert!(m.insts > 0);
            if case == Case::Jacobi {
                assert_eq!(m.launches, real::JACOBI_STEPS);
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
