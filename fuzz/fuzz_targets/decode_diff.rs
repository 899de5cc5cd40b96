//! Raw bytes → decode → interpreter and JIT. The first byte picks the architecture and
//! the state's seed; the rest is the code. Both engines must end in the same state, or
//! fail with the same error at the same pc; nothing may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wavejit_fuzzing::target::diff_code;
use wavejit_isa::{Arch, Gen};

fuzz_target!(|data: &[u8]| {
    let Some((&sel, code)) = data.split_first() else {
        return;
    };
    let arch = match sel & 3 {
        0 => Arch::Gcn(Gen::Gfx6),
        1 => Arch::Gcn(Gen::Gfx7),
        2 => Arch::Gcn(Gen::Gfx8),
        _ => Arch::Vp1,
    };
    let d = diff_code(arch, code, (sel >> 2) as u64, 2_000);
    if !d.is_empty() {
        panic!(
            "{arch}: the engines differ ({} differences): {:?}",
            d.total, d.listed
        );
    }
});
