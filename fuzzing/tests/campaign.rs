//! Differential fuzzing in CI: campaigns of generated programs with fixed seeds on every
//! architecture, interpreter against JIT, with 0 mismatches allowed; the determinism
//! the reproducers rely on; and the harness's own ability to fail (a planted difference is
//! detected and named by register and lane).

use wavejit::engine::Interp;
use wavejit::isa::state::LANES;
use wavejit::isa::{Arch, Gen};
use wavejit_fuzzing::campaign::{gcn_case, vp1_case};
use wavejit_fuzzing::case::{gcn_program, run_gcn};
use wavejit_fuzzing::compare;
use wavejit_fuzzing::{self as fuzz, Against, Config};

/// Programs per generation and seed (each run from `DEFAULT_STATES` initial states): a
/// few thousand runs in all, a few seconds each in release (CI); far fewer in a debug
/// build, where compiling is an order of magnitude slower.
const PROGRAMS: u64 = if cfg!(debug_assertions) { 20 } else { 250 };

fn campaign(arch: Arch, seed: u64, programs: u64, len: usize) -> fuzz::Summary {
    let mut cfg = Config::new(arch);
    cfg.seed = seed;
    cfg.programs = Some(programs);
    cfg.len = len;
    cfg.jobs = 2;
    cfg.against = Against::Jit;
    cfg.max_repros = 1;
    let s = fuzz::run(&cfg).expect("campaign runs");
    println!(
        "{arch} seed {seed}: {} programs, {} instructions, {} mismatches, {} ended in an error, pool {}, jit {} blocks",
        s.programs, s.insts, s.mismatches, s.errors, s.pool, s.jit_blocks
    );
    for f in &s.found {
        println!(
            "program {}: {}\nminimised ({} instructions): {}\n{}",
            f.index,
            f.diffs.first(),
            f.min_len,
            f.min_diffs.first(),
            f.min_text
        );
    }
    s
}

fn check(arch: Arch) {
    let mut insts = 0;
    for (seed, len) in [(1, 24), (2, 12), (3, 40)] {
        let s = campaign(arch, seed, PROGRAMS, len);
        assert_eq!(s.programs, PROGRAMS);
        // Every program from each of its states; on GCN, one program in `OPT_EVERY` (the
        // last of each group: indices 31, 63, …) on the optimising tier alone, from
        // `OPT_STATES` times as many.
        let states = fuzz::campaign::default_states(arch) as u64;
        let opt = match arch {
            Arch::Gcn(_) => (PROGRAMS + 1) / fuzz::engine::OPT_EVERY,
            Arch::Vp1 => 0,
        };
        let extra = opt * states * (fuzz::engine::OPT_STATES as u64 - 1);
        assert_eq!(s.runs, PROGRAMS * states + extra);
        assert_eq!(
            s.mismatches, 0,
            "{arch} seed {seed}: mismatching programs {:?}",
            s.mismatch_indices
        );
        // Most runs go to their end: the generator makes programs that do something.
        assert!(
            s.errors < s.runs / 3,
            "{arch} seed {seed}: {} of {} runs ended in an error: {:?}",
            s.errors,
            s.runs,
            s.error_kinds
        );
        insts += s.insts;
        if let Arch::Gcn(_) = arch {
            assert!(s.pool > 500, "{arch}: only {} candidates", s.pool);
            // Without a JIT back end the campaign would compare the interpreter with
            // itself: that is a failure here, not a pass.
            assert_eq!(s.note, None, "{arch}: the JIT did not run");
            assert!(s.jit_blocks > 0, "{arch}: the JIT compiled nothing");
        }
    }
    assert!(
        insts > 3 * PROGRAMS * fuzz::campaign::DEFAULT_STATES as u64 * 8,
        "{arch}: {insts} instructions in all"
    );
}

#[test]
fn gfx6_interp_equals_jit() {
    check(Arch::Gcn(Gen::Gfx6));
}

#[test]
fn gfx7_interp_equals_jit() {
    check(Arch::Gcn(Gen::Gfx7));
}

#[test]
fn gfx8_interp_equals_jit() {
    check(Arch::Gcn(Gen::Gfx8));
}

#[test]
fn vp1_interp_equals_jit() {
    check(Arch::Vp1);
}

#[test]
fn a_program_is_a_function_of_seed_and_index() {
    for gen in Gen::ALL {
        let (a, _) = gcn_case(gen, 7, 123, 24);
        let (b, _) = gcn_case(gen, 7, 123, 24);
        let (c, _) = gcn_case(gen, 7, 124, 24);
        let (ca, cb, cc) = (
            a.prog.encode().unwrap(),
            b.prog.encode().unwrap(),
            c.prog.encode().unwrap(),
        );
        assert_eq!(ca, cb);
        assert_ne!(ca, cc);
        assert_eq!(a.state.wave.vgpr[..], b.state.wave.vgpr[..]);
        assert_eq!(a.state.lds, b.state.lds);
    }
    assert_eq!(vp1_case(7, 5, 20).words, vp1_case(7, 5, 20).words);
    // And of nothing else: the same campaign on 1 and 2 threads.
    let run = |jobs| {
        let mut cfg = Config::new(Arch::Gcn(Gen::Gfx8));
        cfg.programs = Some(40);
        cfg.jobs = jobs;
        cfg.against = Against::Interp;
        fuzz::run(&cfg).expect("runs")
    };
    let (one, two) = (run(1), run(2));
    assert_eq!(
        (one.programs, one.insts, one.errors),
        (two.programs, two.insts, two.errors)
    );
}

#[test]
fn further_states_are_new_data_under_the_first_states_mode_and_exec() {
    use wavejit_fuzzing::campaign::extra_gcn_state;
    for gen in Gen::ALL {
        for index in 0..20 {
            let (case, _) = gcn_case(gen, 7, index, 24);
            let first = &case.state;
            let k1 = extra_gcn_state(gen, 7, index, 1, first);
            let k2 = extra_gcn_state(gen, 7, index, 2, first);
            // A function of (seed, index, k) and the first state.
            let again = extra_gcn_state(gen, 7, index, 1, first);
            assert_eq!(k1.wave.vgpr[..], again.wave.vgpr[..]);
            assert_eq!(k1.lds, again.lds);
            for k in [&k1, &k2] {
                assert_eq!(k.wave.mode, first.wave.mode);
                assert_eq!(k.wave.exec, first.wave.exec);
            }
            // New registers: the drawn VGPRs differ from the first state's and each other's.
            assert_ne!(k1.wave.vgpr[..16], first.wave.vgpr[..16]);
            assert_ne!(k1.wave.vgpr[..16], k2.wave.vgpr[..16]);
        }
    }
    // One state: a run per program.
    let mut cfg = Config::new(Arch::Gcn(Gen::Gfx8));
    cfg.programs = Some(10);
    cfg.states = 1;
    cfg.against = Against::Interp;
    let s = fuzz::run(&cfg).expect("runs");
    assert_eq!((s.programs, s.runs), (10, 10));
    cfg.states = 3;
    let s = fuzz::run(&cfg).expect("runs");
    assert_eq!((s.programs, s.runs), (10, 30));
    // Against the JIT, programs 31 and 63 of 64 run on the optimising tier alone, from
    // four times as many states: 62 × 2 + 2 × 8 runs.
    cfg.programs = Some(64);
    cfg.states = 2;
    cfg.against = Against::Jit;
    let s = fuzz::run(&cfg).expect("runs");
    assert_eq!((s.programs, s.runs, s.mismatches), (64, 140, 0));
}

#[test]
fn the_comparison_sees_one_flipped_bit_and_names_it() {
    let (case, run) = gcn_case(Gen::Gfx8, 1, 0, 24);
    let (prog, a) = run.expect("the program encodes");
    let mut b = run_gcn(&Interp, &prog, &case.state);
    assert!(
        compare::gcn(&a, &b).is_empty(),
        "the interpreter is deterministic"
    );
    b.wave.vgpr[3][5] ^= 1 << 31;
    let d = compare::gcn(&a, &b);
    assert_eq!(d.total, 1);
    assert_eq!(d.listed[0].place, "v3 lane 5");
    b.wave.vgpr[3][5] ^= 1 << 31;
    b.wave.exec ^= 1 << 63;
    b.lds[0x124] ^= 0x10;
    b.mem[0].1[8] ^= 1;
    let d = compare::gcn(&a, &b);
    let places: Vec<&str> = d.listed.iter().map(|x| x.place.as_str()).collect();
    assert_eq!(places, ["exec", "lds 0x124", "memory 0x10008"]);
    // A different end is a difference too.
    let p2 = gcn_program(&case).expect("encodes");
    let mut c = run_gcn(&Interp, &p2, &case.state);
    c.result = Err(wavejit_fuzzing::case::Failure::Panic("boom".into()));
    assert_eq!(compare::gcn(&a, &c).listed[0].place, "end");
}

/// Whether a generated state is a drawn pixel-shader wave (`progen::drawn`): its four I/J
/// registers hold barycentrics near the triangle in every lane, of the size of a
/// triangle's and varying from quad to quad. Random registers almost never do: a register
/// of one value in every lane (a uniform one), or of tiny integers seen as floats (the
/// lane-linear ones, denormals), can lie in the range and is not taken for one.
fn drawn(w: &wavejit::isa::state::Wave) -> bool {
    w.vgpr[..4].iter().all(|r| {
        let f = |x: u32| f32::from_bits(x);
        let mut d = r.to_vec();
        d.sort_unstable();
        d.dedup();
        r.iter().all(|&x| (-0.6..1.6).contains(&f(x)))
            && d.len() >= 8
            && r.iter().filter(|&&x| f(x).abs() >= 1e-3).count() >= LANES / 2
    })
}

#[test]
fn drawn_states_run_interpolation_and_exports() {
    use wavejit::isa::gcn::{Enc, ExpTarget};
    for gen in Gen::ALL {
        let (mut drawn_states, mut interp_ok) = (0, 0);
        let mut kinds = [0u32; 5];
        // 480 programs: about 20-40 drawn states with VINTRP per generation (240 gave 8
        // on gfx6 for seed 5, where the count of 10 below sat near the mean).
        let n = 480;
        for i in 0..n {
            let (case, run) = gcn_case(gen, 5, i, 24);
            let (_, out) = run.expect("the program encodes");
            let has_interp = case.prog.items.iter().any(|it| {
                it.inst.enc == Enc::Vintrp || wavejit_interp::vintrp::is_interp(it.inst.op)
            });
            if drawn(&case.state.wave) {
                drawn_states += 1;
                // M0 names a valid parameter block: bit 31 clear.
                assert_eq!(case.state.wave.m0 >> 31, 0);
                if has_interp && out.result.is_ok() {
                    interp_ok += 1;
                }
            }
            for e in &out.wave.exports {
                let k = match e.target().expect("executed exports have valid targets") {
                    ExpTarget::Mrt(_) => 0,
                    ExpTarget::Mrtz => 1,
                    ExpTarget::Null => 2,
                    ExpTarget::Pos(_) => 3,
                    ExpTarget::Param(_) => 4,
                };
                kinds[k] += 1;
            }
        }
        // One state in three is drawn.
        assert!(
            (n / 6..n / 2).contains(&drawn_states),
            "{gen}: {drawn_states} drawn states of {n}"
        );
        assert!(
            interp_ok >= 10,
            "{gen}: {interp_ok} drawn states ran VINTRP to the end"
        );
        assert!(
            kinds.iter().all(|&k| k > 0),
            "{gen}: exports by target {kinds:?}"
        );
    }
}
