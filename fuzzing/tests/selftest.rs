//! The fuzzer can fail: with a planted wrong lowering in the JIT (its test-only
//! `plant_xor_bug`) and a planted DPP corner-case bug (`fuzz::engine::PlantedDpp`), a
//! campaign finds a mismatch and the minimiser shrinks it to a handful of instructions
//! that still contain the planted instruction, and the reproducer it writes replays the
//! difference from its files alone.

use wavejit::engine::Interp;
use wavejit::isa::ir::Program;
use wavejit_fuzzing::case::run_gcn;
use wavejit_fuzzing::engine::{planted_target, PlantedDpp};
use wavejit_fuzzing::{compare, repro, self_test, MAX_SELF_TEST_LEN};

#[test]
fn the_planted_bug_is_found_and_minimised() {
    let dir = std::env::temp_dir().join(format!("wavejit-selftest-{}", std::process::id()));
    let t = self_test(Some(&dir), false).expect("self-test runs");
    assert!(t.passed);
    // The JIT's wrong lowering of v_xor_b32: found at once, shrunk to the xor itself.
    let j = t.jit.found.first().expect("the planted JIT bug is found");
    println!(
        "jit: found in program {}; minimised to {} instructions:\n{}",
        j.index, j.min_len, j.min_text
    );
    assert!(j.min_len <= 3, "{}", j.min_text);
    assert!(j.min_text.contains("v_xor_b32"), "{}", j.min_text);
    // The DPP corner: rare, found all the same.
    let f = t.dpp.found.first().expect("the planted DPP bug is found");
    println!(
        "dpp: found in program {} of {}; minimised to {} instructions:\n{}",
        f.index, t.dpp.programs, f.min_len, f.min_text
    );
    assert!(
        f.min_len <= MAX_SELF_TEST_LEN && f.min_len >= 2,
        "{}",
        f.min_len
    );
    assert!(f.min_text.contains("v_max_i32"), "{}", f.min_text);
    assert!(f.min_text.contains("row_shr"), "{}", f.min_text);
    assert!(!f.min_diffs.is_empty());

    // The reproducer's files alone replay the difference.
    let s_path = f.repro.clone().expect("a reproducer is written");
    let text = std::fs::read_to_string(&s_path).expect("reads .s");
    let arch = repro::arch_of(&text).expect("header names the arch");
    let wavejit::isa::Arch::Gcn(gen) = arch else {
        panic!("{arch}")
    };
    let code = wavejit::isa::gcn::asm::assemble(gen, &text)
        .expect("assembles")
        .bytes;
    let json = std::fs::read_to_string(s_path.with_extension("json")).expect("reads .json");
    let state = repro::gcn_state_from_json(gen, &json).expect("state parses");
    let prog = Program::new(arch, &code);
    assert!(prog
        .slots
        .iter()
        .filter_map(|s| s.inst.as_ref().ok())
        .any(|i| planted_target(i).is_some()));
    let a = run_gcn(&Interp, &prog, &state);
    let b = run_gcn(&PlantedDpp, &prog, &state);
    let d = compare::gcn(&a, &b);
    assert!(!d.is_empty(), "the reproducer replays the mismatch");
    assert!(
        d.listed.iter().all(|x| x.place.starts_with('v')),
        "{:?}",
        d.listed
    );
    let note = std::fs::read_to_string(s_path.with_extension("txt")).expect("reads .txt");
    assert!(note.contains("engines: interp vs planted-dpp"), "{note}");
    assert!(
        note.contains(&d.listed[0].place),
        "the note names {}: {note}",
        d.listed[0].place
    );
    let _ = std::fs::remove_dir_all(&dir);
}
