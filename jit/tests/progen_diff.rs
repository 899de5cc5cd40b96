//! Random programs from the table-driven generator (`wavejit_isa::progen`), run in the
//! interpreter and the JIT from the same random state, compared bit for bit: straight-line
//! blocks of everything the generator knows, blocks of only what the JIT lowers inline,
//! and programs with loops, EXEC regions and branches. Fixed seeds; 0 mismatches.

mod common;

use common::*;
use rand::SeedableRng;
use wavejit_isa::arch::{Arch, Gen};
use wavejit_isa::ir::Program;
use wavejit_isa::progen::gcn::Pool;
use wavejit_isa::progen::shape::ShapeConfig;
use wavejit_jit::Jit;

fn run_cases(
    jit: &Jit,
    gen: Gen,
    pool: &Pool,
    seed: u64,
    cases: usize,
    cfg: ShapeConfig,
    what: &str,
) -> usize {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut n = 0;
    for case in 0..cases {
        let Some((p, prog, wave, lds, mem)) = progen_case(gen, pool, &mut rng, &cfg) else {
            continue;
        };
        let a = run_interp(&prog, &wave, &lds, &mem, 20_000);
        let b = run_jit(jit, &prog, &wave, &lds, &mem, 20_000);
        if let Some(d) = compare(&a, &b) {
            // Shorten the program to the first prefix that differs (straight-line only).
            let mut shortest = p.items.len();
            if !cfg.control {
                for k in 1..p.items.len() {
                    let mut q = p.clone();
                    q.items.truncate(k);
                    q.items.push(p.items[p.items.len() - 1]);
                    let Ok(bytes) = q.encode() else { continue };
                    let prog = Program::new(Arch::Gcn(gen), &bytes);
                    let a = run_interp(&prog, &wave, &lds, &mem, 20_000);
                    let b = run_jit(jit, &prog, &wave, &lds, &mem, 20_000);
                    if let Some(d2) = compare(&a, &b) {
                        eprintln!("first differing prefix: {k} instructions: {d2}");
                        shortest = k;
                        break;
                    }
                }
            }
            let text: Vec<String> = p
                .items
                .iter()
                .take(shortest)
                .map(|i| format!("{:?}", i.inst))
                .collect();
            panic!(
                "{what} {gen} seed {seed} case {case}: {d}\nprogram:\n{}",
                text.join("\n")
            );
        }
        n += 1;
    }
    n
}

fn lowered_inline(gen: Gen, c: &wavejit_isa::progen::gcn::Cand) -> bool {
    wavejit_jit::gcn::lowers_inline(gen, c.op())
}

#[test]
fn random_straight_line_blocks_of_lowered_ops() {
    for (name, jit) in jits() {
        for gen in [Gen::Gfx6, Gen::Gfx7, Gen::Gfx8] {
            let pool = Pool::new(gen, |c| lowered_inline(gen, c));
            let cfg = ShapeConfig {
                len: 24,
                control: false,
            };
            let n = run_cases(&jit, gen, &pool, 11 + gen as u64, 150, cfg, name);
            assert!(n > 100, "{n}");
        }
        let st = jit.stats();
        assert_eq!(st.failures, 0, "{name}: {st:?}");
    }
}

#[test]
fn random_straight_line_blocks_of_everything() {
    let jit = jit();
    for gen in [Gen::Gfx6, Gen::Gfx7, Gen::Gfx8] {
        let pool = Pool::new(gen, |_| true);
        let cfg = ShapeConfig {
            len: 24,
            control: false,
        };
        run_cases(&jit, gen, &pool, 101 + gen as u64, 150, cfg, "all ops");
    }
    assert_eq!(jit.stats().failures, 0, "{:?}", jit.stats());
}

#[test]
fn random_programs_with_control_flow() {
    for (name, jit) in jits() {
        for gen in [Gen::Gfx6, Gen::Gfx7, Gen::Gfx8] {
            let pool = Pool::new(gen, |c| lowered_inline(gen, c));
            let cfg = ShapeConfig {
                len: 40,
                control: true,
            };
            run_cases(&jit, gen, &pool, 202 + gen as u64, 120, cfg, name);
        }
    }
}

#[test]
fn random_programs_tiered() {
    let jit = up(Jit::new(wavejit_jit::JitConfig {
        tier_threshold: 3,
        ..wavejit_jit::JitConfig::default()
    }));
    for gen in [Gen::Gfx7, Gen::Gfx8] {
        let pool = Pool::new(gen, |_| true);
        let cfg = ShapeConfig {
            len: 40,
            control: true,
        };
        run_cases(&jit, gen, &pool, 303 + gen as u64, 100, cfg, "tiered");
    }
}
