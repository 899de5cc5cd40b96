//! The VP1 JIT against the interpreter: random programs (fixed seeds) on random states, the
//! final states compared field by field and the errors compared, with 0 mismatches allowed.

use wavejit_interp::vp1 as interp;
use wavejit_isa::vp1::gen::{self, Rng};
use wavejit_isa::vp1::{fmt, Inst};
use wavejit_jit::vp1 as jit;

/// Run `programs` random programs from `seed`; return the mismatches (described).
fn diff(seed: u64, programs: usize, max_len: u32) -> Vec<String> {
    diff_with(seed, programs, 1, max_len, 64)
}

/// Programs of `min_len..min_len + spread` words, one word in `other_unit` of another unit.
fn diff_with(
    seed: u64,
    programs: usize,
    min_len: u32,
    spread: u32,
    other_unit: u32,
) -> Vec<String> {
    let mut rng = Rng::new(seed);
    let mut bad = Vec::new();
    for n in 0..programs {
        let len = (min_len + rng.below(spread)) as usize;
        let words = gen::program(&mut rng, len, other_unit);
        let start = gen::state(&mut rng);
        let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let (mut a, mut b) = (start.clone(), start.clone());
        let ra = interp::run(&mut a, &code);
        let rb = jit::run(&mut b, &code);
        let same_result = match (&ra, &rb) {
            (Ok(x), Ok(y)) => x == y,
            (Err(x), Err(jit::Vp1RunError::Exec(y))) => x == y,
            _ => false,
        };
        if !same_result || a != b {
            let listing: Vec<String> = words
                .iter()
                .map(|&w| format!("  {w:08x}  {}", fmt::format(&Inst { word: w })))
                .collect();
            let short = |s: String| s.chars().take(400).collect::<String>();
            bad.push(format!(
                "seed {seed} program {n} ({:?}): interp {}, jit {}\n{}\nfirst difference: {}",
                start.variant,
                short(format!("{ra:?}")),
                short(format!("{rb:?}")),
                listing.join("\n"),
                first_difference(&a, &b)
            ));
            if bad.len() >= 5 {
                break;
            }
        }
    }
    bad
}

fn first_difference(a: &wavejit_isa::vp1::State, b: &wavejit_isa::vp1::State) -> String {
    for i in 0..32 {
        if a.r[i] != b.r[i] {
            return format!("r{i}: interp {:#x}, jit {:#x}", a.r[i], b.r[i]);
        }
    }
    if a.c != b.c {
        return format!("c: interp {:x?}, jit {:x?}", a.c, b.c);
    }
    if a.s2v != b.s2v {
        return format!("s2v: interp {:?}, jit {:?}", a.s2v, b.s2v);
    }
    "another register file".to_string()
}

#[test]
fn jit_equals_interpreter_on_random_programs() {
    let mut bad = Vec::new();
    for seed in 1..=4 {
        bad.extend(diff(seed, 300, 24));
    }
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n\n")
    );
}

/// Programs longer than one compiled function (`jit::vp1::CHUNK` words).
#[test]
fn long_programs_span_several_functions() {
    let bad = diff_with(9, 4, 2 * jit::CHUNK as u32 + 1, 100, 0);
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n\n")
    );
}

#[test]
#[ignore = "20000 programs: run with --ignored --release"]
fn jit_equals_interpreter_on_20000_programs() {
    let bad = diff(1, 20_000, 40);
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n\n")
    );
}

#[test]
fn jit_reports_other_units_like_the_interpreter() {
    let mut s = wavejit_isa::vp1::State::default();
    let code = [0x05, 0x00, 0x10, 0x65, 0x00, 0x00, 0x00, 0xbf]; // mov $r2 0x5; a vector word
    match jit::run(&mut s, &code) {
        Err(jit::Vp1RunError::Exec(e)) => assert_eq!(e.pc, 4),
        other => panic!("{other:?}"),
    }
    // The word before it ran.
    assert_eq!(s.r[2], 5);
}
