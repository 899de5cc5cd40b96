//! Structured input → generated program → interpreter and JIT. The fuzzer's bytes are the
//! generator's randomness (through `arbitrary`), so coverage guidance steers which table
//! rows, operands, modifiers, shapes and state values are chosen.
#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use rand::RngCore;
use wavejit_fuzzing::target::diff_generated;
use wavejit_isa::{Arch, Gen};

/// The fuzzer's input: which architecture, how long, and the generator's random bytes.
#[derive(Arbitrary, Debug)]
struct Input<'a> {
    arch: u8,
    len: u8,
    bytes: &'a [u8],
}

/// An RNG that replays bytes (zeros when they run out).
struct Bytes<'a>(Unstructured<'a>);

impl RngCore for Bytes<'_> {
    fn next_u32(&mut self) -> u32 {
        u32::arbitrary(&mut self.0).unwrap_or(0)
    }
    fn next_u64(&mut self) -> u64 {
        u64::arbitrary(&mut self.0).unwrap_or(0)
    }
    fn fill_bytes(&mut self, dst: &mut [u8]) {
        for b in dst {
            *b = u8::arbitrary(&mut self.0).unwrap_or(0);
        }
    }
}

fuzz_target!(|input: Input| {
    let arch = match input.arch & 3 {
        0 => Arch::Gcn(Gen::Gfx6),
        1 => Arch::Gcn(Gen::Gfx7),
        2 => Arch::Gcn(Gen::Gfx8),
        _ => Arch::Vp1,
    };
    let mut rng = Bytes(Unstructured::new(input.bytes));
    let d = diff_generated(arch, &mut rng, 1 + (input.len % 40) as usize);
    if !d.is_empty() {
        panic!(
            "{arch}: the engines differ ({} differences): {:?}",
            d.total, d.listed
        );
    }
});
