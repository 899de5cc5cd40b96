//! The VP1 JIT against the interpreter: random programs (fixed seeds) on random states, the
//! final states compared field by field and the errors compared, with 0 mismatches allowed.

use rand::Rng;
use wavejit_interp::vp1 as interp;
use wavejit_isa::progen::{self, vp1 as gen};
use wavejit_isa::vp1::{fmt, Inst};
use wavejit_jit::vp1 as jit;

/// Run `programs` random programs from `seed`; return the mismatches (described).
fn diff(seed: u64, programs: usize, max_len: u32) -> Vec<String> {
    diff_with(seed, programs, 1, max_len, true)
}

/// Programs of `min_len..min_len + spread` words of every scalar opcode, with now and then
/// a word of another unit when `other_units` (which ends the program there).
fn diff_with(
    seed: u64,
    programs: usize,
    min_len: u32,
    spread: u32,
    other_units: bool,
) -> Vec<String> {
    let ops = gen::opcodes(|_| true);
    let mut bad = Vec::new();
    for n in 0..programs {
        let mut rng = progen::rng(seed, n as u64);
        let len = (min_len + rng.random_range(0..spread)) as usize;
        let words = if other_units {
            gen::program(&mut rng, len, &ops)
        } else {
            (0..len)
                .map(|_| {
                    let op = ops[rng.random_range(0..ops.len())];
                    gen::word(&mut rng, op)
                })
                .collect()
        };
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
                a.diff(&b).first().map_or("none".into(), |d| d.to_string())
            ));
            if bad.len() >= 5 {
                break;
            }
        }
    }
    bad
}

/// No mismatch, or each one described.
fn assert_none(bad: &[String]) {
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n\n")
    );
}

#[test]
fn jit_equals_interpreter_on_random_programs() {
    let mut bad = Vec::new();
    for seed in 1..=4 {
        bad.extend(diff(seed, 300, 24));
    }
    assert_none(&bad);
}

/// Programs longer than one compiled function (`jit::vp1::CHUNK` words).
#[test]
fn long_programs_span_several_functions() {
    let bad = diff_with(9, 4, 2 * jit::CHUNK as u32 + 1, 100, false);
    assert_none(&bad);
}

#[test]
#[ignore = "20000 programs: run with --ignored --release"]
fn jit_equals_interpreter_on_20000_programs() {
    let bad = diff(1, 20_000, 40);
    assert_none(&bad);
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
