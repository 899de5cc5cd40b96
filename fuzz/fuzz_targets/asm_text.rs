//! Assembler text → no panic: the GCN assembler (CLRX and LLVM syntax, any mix per line)
//! for each generation and the VP1 assembler; what assembles is disassembled again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wavejit_isa::gcn::fmt::{listing, Syntax};
use wavejit_isa::Gen;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for gen in Gen::ALL {
        if let Ok(a) = wavejit_isa::gcn::asm::assemble(gen, &text) {
            for syntax in [Syntax::Clrx, Syntax::Llvm] {
                let _ = listing(gen, &a.bytes, syntax);
            }
        }
    }
    if let Ok(words) = wavejit_isa::vp1::asm::assemble(&text) {
        for w in words {
            let _ = wavejit_isa::vp1::fmt::format(&wavejit_isa::vp1::Inst { word: w });
        }
    }
});
