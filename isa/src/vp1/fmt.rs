//! Disassembly of VP1 words in envydis' syntax (`envydis -m vp1`, envytools f102b823).
//!
//! - [`format_envydis`]: exactly envydis' text, including its `[unknown: M]` (set bits of the
//!   low byte it did not consume), `[unknown operand]` and `??? ... [unknown instruction]`.
//!   envydis' text does not always say every bit (CDST 5-7 all print as "no `$c`", snop
//!   ignores bits 0-23, `min` is both 0x48 and 0x58, ...), so it cannot always be assembled
//!   back to the same word.
//! - [`format`]: the same text, but `[unknown: M]` lists every set bit the text does not
//!   say, and words without an envydis syntax print as `.word 0x…`. [`super::asm::assemble`]
//!   turns it back into the same word, for every 32-bit word. Where envydis' text is
//!   already exact, both functions agree. The exception: an immediate 0 prints `0x0` like
//!   `$r31` does, and envyas reads `0x0` as `$r31`; such words print as `.word`.
//!
//! Words of the other VP1 units (opcode 0x80-0xff) print as `.word` in both.

use super::asm;
pub use super::syntax::{core, Out};
use super::{Inst, Unit};

/// `.word 0xXXXXXXXX`.
pub fn word(inst: &Inst) -> String {
    format!(".word 0x{:08x}", inst.word)
}

/// Exactly what envydis prints for `inst` (the text after the address and word columns).
pub fn format_envydis(inst: &Inst) -> String {
    let Some(out) = core(*inst) else {
        if inst.unit() != Unit::Scalar {
            return word(inst);
        }
        let low = inst.word & 0xff;
        return if low != 0 {
            format!("??? [unknown: {low:08x}] [unknown instruction]")
        } else {
            "??? [unknown instruction]".to_string()
        };
    };
    let mut s = out.text();
    // envydis only reports the low byte (the field-free bits 8-23 it never checks).
    let unknown = inst.word & 0xff & !out.consumed;
    if unknown != 0 {
        s.push_str(&format!(" [unknown: {unknown:08x}]"));
    }
    if out.unknown_operand {
        s.push_str(" [unknown operand]");
    }
    s
}

/// Lossless envydis-syntax text of `inst`: assembles back to `inst.word`.
pub fn format(inst: &Inst) -> String {
    let Some(out) = core(*inst) else {
        return word(inst);
    };
    let mut s = out.text();
    // The text must assemble to `canon`, a bit-subset of the word (lowest opcode of a text,
    // hidden fields written as 0), so that `[unknown: M]` can add the rest. One text stands
    // for two words where an immediate 0 and `$r31` (also printed `0x0`) meet: `add $r1 $r2
    // 0x0` is 0x4c with SRC2 = 31 (what envyas makes of it) and also 0x6c with IMM = 0.
    // Such words, and any other the check catches, print as `.word`.
    if out.canon & !inst.word != 0 || !matches!(asm::assemble(&s), Ok(v) if v == [out.canon]) {
        return word(inst);
    }
    let extra = inst.word & !out.canon;
    if extra != 0 {
        s.push_str(&format!(" [unknown: {extra:08x}]"));
    }
    if out.unknown_operand {
        s.push_str(" [unknown operand]");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(w: u32) -> String {
        format_envydis(&Inst { word: w })
    }

    #[test]
    fn examples_from_vp1_notes() {
        // vp1-notes.md 9: envyas -> envydis round trips.
        for &(w, t) in crate::vp1::NOTES_EXAMPLES {
            assert_eq!(e(w), t, "{w:08x}");
        }
        // More words, and what envydis prints for bits it does not know.
        for (w, t) in [
            (0x4129_8fc3, "mul $r5 $c3 $r6 $r7"),
            (0x6908_bffc, "max $r1 $r2 -0x1"),
            (0x4a08_8001, "abs $r1 $c1 $r2"),
            (0x6e21_c0f9, "sar $r4 $c1 $r7 0x1f"),
            (0x5e21_d3c4, "shr $r4 $r7 $r9"),
            (0x4208_8640, "and $r1 $c0 $r2 $r3"),
            (0x6408_8802, "or $r1 $c2 $r2 0x100"),
            (0x0a08_8004, "babs s $r1 $r2"),
            (0x3e08_807c, "bshr u $r1 $r2 0xf"),
            (0x2508_8780, "band $r1 $r2 0xf0"),
            (0x24ef_fc03, "vec 0x1 -0x1 $vc1 zf 0x7"),
            (0x45d4_0000, "vecms $r16 $vc2 sf 0x3"),
            (0x0f1c_0000, "bvec $r16 $vc3 sf 0x0"),
            (0x05a2_0848, "bvecmadsel $r8 $r4q $c1 b19 $vc0 zf 0x2"),
            (0x6a28_4060, "mov $a5 $r1"),
            (0x6b08_8068, "mov $r1 $c2"),
            (0x4cff_ffc0, "add 0x0 $c0 0x0 0x0"),
            (
                0x0123_4567,
                "bmul rn s $r4 s $r13 s $r2 [unknown: 00000061]",
            ),
            (
                0x2123_4567,
                "bmul rn s $r4 s $r13 s 0x88 [unknown: 00000060]",
            ),
            (
                0x0423_4567,
                "bvecmad $r13 $r2q $c0 unk11 $vc0 zf 0x4 [unknown: 00000006] [unknown operand]",
            ),
            (0x0e08_4a07, "bshr s $r1 $r1 (slct $c0 sf $r5d)"),
            (0x5112_3456, "mul $r2 $r8 (slct $c2 b19 $r26d)"),
            (0x6112_3456, "mul $r2 $r8 -0x176"),
            (0x2223_4567, "bmula rn s $r4 s $r13 s 0x67"),
            (0x0008_87c4, "??? [unknown: 000000c4] [unknown instruction]"),
        ] {
            assert_eq!(e(w), t, "{w:08x}");
        }
    }

    #[test]
    fn lossless_text_says_the_hidden_bits() {
        // CDST 7 and 4 both print "no $c"; snop hides bits 0-23; 0x58 prints as `min`.
        assert_eq!(
            format(&Inst { word: 0x4c08_87c7 }),
            "add $r1 $r2 $r3 [unknown: 00000003]"
        );
        assert_eq!(format(&Inst { word: 0x4c08_87c4 }), "add $r1 $r2 $r3");
        assert_eq!(
            format(&Inst { word: 0x4fff_ffff }),
            "snop [unknown: 00ffffff]"
        );
        assert_eq!(
            format(&Inst { word: 0x5808_87c4 }),
            "min $r1 $r2 $r3 [unknown: 10000000]"
        );
        assert_eq!(format(&Inst { word: 0x0008_87c4 }), ".word 0x000887c4");
        assert_eq!(format(&Inst { word: 0xbf00_0000 }), ".word 0xbf000000");
        // `add $r1 $r2 0x0` is 0x4c with $r31, never 0x6c with IMM 0.
        assert_eq!(format(&Inst { word: 0x4c08_bfc4 }), "add $r1 $r2 0x0");
        assert_eq!(format(&Inst { word: 0x6c08_8004 }), ".word 0x6c088004");
    }
}
