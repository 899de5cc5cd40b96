//! Hardware-tolerant decoding (docs/ignored-bits.md): a word with bits in a field its
//! operation does not use fails the strict decoder (the disassembler's view, which lists it
//! as `.long` and says what it runs as) but decodes for execution, naming the ignored
//! field. Words worked out from the encodings: SOPP = 0xBF80_0000 | OP << 16 | SIMM16
//! (`s_barrier` is OP 10); VOP1 = 0x7E00_0000 | VDST << 17 | OP << 9 | SRC0 (`v_nop` is OP 0).

use wavejit_isa::gcn::decode::{decode, decode_tolerant, IgnoredBits};
use wavejit_isa::gcn::fmt::{listing, Syntax};
use wavejit_isa::gcn::Op;
use wavejit_isa::ir::Program;
use wavejit_isa::{Arch, DecodeErrorKind, Gen};

fn le(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

#[test]
fn ignored_fields_fail_strictly_and_run_tolerantly() {
    let cases: [(u32, Op, &str, u32); 3] = [
        (0xBF8A_0005, Op::SBarrier, "simm16", 5),
        (0x7E0A_0000, Op::VNop, "vdst", 5),
        (0x7E00_0007, Op::VNop, "src0", 7),
    ];
    for gen in Gen::ALL {
        for (w, op, field, value) in cases {
            let bytes = le(&[w]);
            let e = decode(gen, &bytes, 0).expect_err("strict decode refuses");
            assert_eq!(
                e.kind,
                DecodeErrorKind::BadField { field, value },
                "{w:08x}"
            );
            let (inst, size, ig) = decode_tolerant(gen, &bytes, 0).expect("tolerant decode");
            assert_eq!((inst.op, size), (op, 4));
            assert_eq!(ig, vec![IgnoredBits { field, value }]);
            let l = listing(gen, &bytes, Syntax::Llvm);
            assert!(
                l[0].text.starts_with(&format!(".long 0x{w:08x}")) && l[0].text.contains("runs as"),
                "{}",
                l[0].text
            );
            let p = Program::new(Arch::Gcn(gen), &bytes);
            assert!(
                p.slots[0].inst.is_ok(),
                "{gen} {w:08x}: {:?}",
                p.slots[0].inst
            );
        }
    }
}

#[test]
fn used_fields_and_unknown_opcodes_stay_errors() {
    // An unknown SOPP opcode (OP 0x7F) is not made runnable by tolerance.
    let bad = le(&[0xBFFF_0000]);
    for gen in Gen::ALL {
        let unknown = DecodeErrorKind::UnknownOpcode {
            enc: "SOPP",
            op: 0x7f,
            gen,
        };
        assert_eq!(
            decode_tolerant(gen, &bad, 0).map_err(|e| e.kind),
            Err(unknown.clone())
        );
        let p = Program::new(Arch::Gcn(gen), &bad);
        assert_eq!(p.slots[0].inst.clone().map_err(|e| e.kind), Err(unknown));
    }
}
