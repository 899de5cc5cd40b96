//! One-shot entry points for the cargo-fuzz targets (`fuzz/fuzz_targets/*.rs`) and for
//! tests: run arbitrary code, or a program generated from arbitrary randomness, in the
//! interpreter and the JIT, and compare. Each thread keeps one JIT (flushed now and then).

use std::cell::RefCell;

use rand::RngCore;
use wavejit_isa::ir::Program;
use wavejit_isa::progen::shape::{program, ShapeConfig};
use wavejit_isa::progen::state::gcn_state;
use wavejit_isa::progen::{self, vp1 as pvp1};
use wavejit_isa::Arch;

use super::case::{run_gcn_with, run_vp1, GcnCase, Vp1Case, Vp1Interp, Vp1Jit};
use super::compare::{self, Diffs};
use super::engine::Recycled;
use super::probe;
use wavejit::engine::Interp;
use wavejit::engine::WaveEngine;

thread_local! {
    static JIT: RefCell<Option<Recycled>> = const { RefCell::new(None) };
}

fn with_jit<T>(f: impl FnOnce(&dyn WaveEngine) -> T) -> T {
    super::heap::keep_freed_memory();
    JIT.with(|j| {
        let mut j = j.borrow_mut();
        f(j.get_or_insert_with(Recycled::jit).for_next_program())
    })
}

/// Run raw `code` for `arch` from a random state (from `seed`) in both engines with at
/// most `max_insts` instructions, and compare. Any bytes are fine: words that do not
/// decode, jumps anywhere, endless loops (the budget ends them) — both engines must report
/// the same thing.
pub fn diff_code(arch: Arch, code: &[u8], seed: u64, max_insts: u64) -> Diffs {
    match arch {
        Arch::Gcn(gen) => {
            let state = gcn_state(gen, &mut progen::rng(seed, 0));
            let prog = Program::new(arch, code);
            let a = run_gcn_with(&Interp, &prog, &state, max_insts);
            let b = with_jit(|j| run_gcn_with(j, &prog, &state, max_insts));
            compare::gcn(&a, &b)
        }
        Arch::Vp1 => {
            let words = code
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            let case = Vp1Case {
                words,
                state: pvp1::state(&mut progen::rng(seed, 0)),
            };
            compare::vp1(
                &run_vp1(&mut Vp1Interp, &case),
                &run_vp1(&mut Vp1Jit::default(), &case),
            )
        }
    }
}

/// Generate a program and a state for `arch` from `rng` (any source of randomness, e.g.
/// libFuzzer's bytes), run both engines and compare.
pub fn diff_generated(arch: Arch, mut rng: &mut dyn RngCore, len: usize) -> Diffs {
    match arch {
        Arch::Gcn(gen) => {
            let pool = probe::gcn_pool(gen);
            let prog = program(pool, &mut rng, &ShapeConfig { len, control: true });
            let state = gcn_state(gen, &mut rng);
            let case = GcnCase { prog, state };
            let Ok(p) = super::case::gcn_program(&case) else {
                return Diffs::default();
            };
            let a = run_gcn_with(&Interp, &p, &case.state, super::case::MAX_INSTS);
            let b = with_jit(|j| run_gcn_with(j, &p, &case.state, super::case::MAX_INSTS));
            compare::gcn(&a, &b)
        }
        Arch::Vp1 => {
            let words = pvp1::program(&mut rng, len, probe::vp1_opcodes());
            let case = Vp1Case {
                words,
                state: pvp1::state(&mut rng),
            };
            compare::vp1(
                &run_vp1(&mut Vp1Interp, &case),
                &run_vp1(&mut Vp1Jit::default(), &case),
            )
        }
    }
}
