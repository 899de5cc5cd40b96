//! Labels in assembly text. The rule: a label is an identifier followed by `:` at the start
//! of a line, and a branch operand (SOPP branches, `s_cbranch_i_fork`) is a label unless it
//! parses as a number — so words that mean something elsewhere (`done`, `glc`, `off`,
//! `row_mirror`, names that start like registers) are labels there, as llvm-mc takes them.
//!
//! Expected words are worked out by hand from the SOPP/SOPK layouts (encodings.md): SOPP is
//! `0xBF80_0000 | op << 16 | simm16`, SOPK `0xB000_0000 | op << 23 | sdst << 16 | simm16`,
//! and a branch at byte `pc` to byte `t` holds `(t - pc - 4) / 4` as a signed 16-bit value.

use wavejit_isa::gcn::asm::assemble;
use wavejit_isa::Gen;

const S_NOP_0: u32 = 0xBF80_0000;
const S_ENDPGM: u32 = 0xBF81_0000;
/// SOPP opcodes: s_branch 2, s_cbranch_scc0 4 (the same on GCN 1.0-1.2).
const S_BRANCH: u32 = 0xBF82_0000;
const S_CBRANCH_SCC0: u32 = 0xBF84_0000;

/// Label names that are words of the syntax elsewhere, or that start like registers.
const NAMES: &[&str] = &[
    "done",
    "end",
    "loop",
    "exit",
    "vcc_label",
    "v_loop",
    "s_done",
    "exec_done",
    "glc",
    "offset",
    "off",
    "row_mirror",
    "bound_ctrl",
    "vop3",
    "abs",
    "lit",
    "Done",
    "L1",
    ".Ldone",
    "$tmp",
];

#[test]
fn any_identifier_names_a_label_backward_and_forward() {
    for gen in Gen::ALL {
        for name in NAMES {
            // 0: label: s_nop 0; 4: s_branch back (to 0: (0-8)/4 = -2); 8: s_cbranch_scc0
            // fwd (to 16: (16-12)/4 = 1); 12: s_nop 0; 16: fwd label: s_endpgm.
            let src = format!(
                "{name}: s_nop 0\n  s_branch {name}\n  s_cbranch_scc0 {name}_f\n  s_nop 0\n{name}_f:\n  s_endpgm\n"
            );
            let a = assemble(gen, &src).unwrap_or_else(|e| panic!("{gen} `{name}`: {e}\n{src}"));
            assert_eq!(
                a.words(),
                vec![
                    S_NOP_0,
                    S_BRANCH | 0xFFFE,
                    S_CBRANCH_SCC0 | 1,
                    S_NOP_0,
                    S_ENDPGM
                ],
                "{gen} `{name}`"
            );
            assert_eq!(
                a.labels,
                vec![(name.to_string(), 0), (format!("{name}_f"), 16)],
                "{gen} `{name}`"
            );
        }
    }
}

#[test]
fn a_label_alone_on_its_line_and_several_on_one_line() {
    // `done:` and `exit:` both at 4 (the s_branch), `s_branch done` jumps to itself: -1.
    let a = assemble(
        Gen::Gfx8,
        "s_nop 0\ndone:\nexit: s_branch done\ns_branch exit",
    )
    .expect("assembles");
    assert_eq!(
        a.words(),
        vec![S_NOP_0, S_BRANCH | 0xFFFF, S_BRANCH | 0xFFFE]
    );
}

#[test]
fn labels_are_case_sensitive() {
    // `Done` and `done` are two labels (llvm-mc's symbols are case-sensitive).
    let a = assemble(
        Gen::Gfx8,
        "done: s_nop 0\nDone: s_branch done\ns_branch Done",
    )
    .expect("assembles");
    assert_eq!(
        a.words(),
        vec![S_NOP_0, S_BRANCH | 0xFFFE, S_BRANCH | 0xFFFE]
    );
    let e = assemble(Gen::Gfx8, "done: s_nop 0\ns_branch DONE").expect_err("no label DONE");
    assert_eq!((e.line, e.col), (2, 10), "{e}");
    assert!(e.msg.contains("unknown label `DONE`"), "{e}");
}

#[test]
fn the_fork_takes_a_label_too() {
    // s_cbranch_i_fork s[2:3], done: SOPK op 17 on gfx6/7, 16 on gfx8, sdst 2; at 4, target 0
    // → -2.
    for (gen, op) in [(Gen::Gfx6, 17u32), (Gen::Gfx7, 17), (Gen::Gfx8, 16)] {
        let a = assemble(gen, "done: s_nop 0\ns_cbranch_i_fork s[2:3], done").expect("assembles");
        assert_eq!(
            a.words(),
            vec![S_NOP_0, 0xB000_0000 | op << 23 | 2 << 16 | 0xFFFE],
            "{gen}"
        );
    }
}

#[test]
fn numbers_stay_offsets_and_bad_operands_are_refused() {
    // A number is a raw dword offset, whatever labels exist.
    let a = assemble(Gen::Gfx8, "done: s_branch 3\ns_branch -1").expect("assembles");
    assert_eq!(a.words(), vec![S_BRANCH | 3, S_BRANCH | 0xFFFF]);
    for (src, col, msg) in [
        ("s_branch done", 10, "unknown label `done`"),
        ("s_branch done, 1", 16, "takes 1 operand"),
        ("s_branch", 9, "takes 1 operand"),
        ("s_branch offset:4", 10, "`offset` is not valid here"),
        ("s_branch -done", 10, "modifiers are not allowed"),
        ("s_branch 1.5", 10, "expected a label or an offset"),
        ("s_branch done glc", 15, "takes 1 operand"),
    ] {
        let e = assemble(Gen::Gfx8, src).expect_err(src);
        assert_eq!((e.line, e.col), (1, col), "`{src}`: {e}");
        assert!(e.msg.contains(msg), "`{src}`: {e}");
    }
    // A label is defined once.
    let e = assemble(Gen::Gfx8, "done: s_nop 0\ndone: s_endpgm").expect_err("twice");
    assert_eq!((e.line, e.col), (2, 1), "{e}");
}

#[test]
fn alignment_pads_like_llvm_mc_and_labels_follow() {
    // llvm-mc pads a code section with zero bytes to a dword, then `s_nop 0` words
    // (AMDGPUAsmBackend::writeNopData); an explicit fill byte fills every byte.
    let a = assemble(Gen::Gfx8, "s_endpgm\n.p2align 4\nk: s_branch k\n").unwrap();
    assert_eq!(
        a.words(),
        [S_ENDPGM, S_NOP_0, S_NOP_0, S_NOP_0, S_BRANCH | 0xffff]
    );
    assert_eq!(a.labels, [("k".to_string(), 16)]);
    let a = assemble(Gen::Gfx6, ".byte 1\n.balign 8, 0xee\ns_endpgm\n").unwrap();
    assert_eq!(a.bytes[..8], [1, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee]);
    let a = assemble(Gen::Gfx7, ".short 7\n.p2align 3\n").unwrap();
    assert_eq!(a.words(), [7, S_NOP_0]);
    // Already aligned: nothing.
    assert_eq!(
        assemble(Gen::Gfx8, "s_endpgm\n.p2align 2\n")
            .unwrap()
            .bytes
            .len(),
        4
    );
    for bad in [
        ".p2align",
        ".p2align 17",
        ".balign 3",
        ".p2align 2, 256",
        ".p2align 2, 0, 4",
        ".p2align v0",
    ] {
        let e = assemble(Gen::Gfx8, bad).unwrap_err();
        assert_eq!(e.line, 1, "{bad}");
    }
}

#[test]
fn rept_repeats_its_body() {
    let a = assemble(Gen::Gfx8, ".rept 3\n  s_nop 0\n.endr\ns_endpgm\n").unwrap();
    assert_eq!(a.words(), [S_NOP_0, S_NOP_0, S_NOP_0, S_ENDPGM]);
    // Each copy's items keep the body's source line.
    assert_eq!(
        a.items.iter().map(|i| i.line).collect::<Vec<_>>(),
        [2, 2, 2, 4]
    );
    // Nested blocks; a count of 0 leaves nothing; the directives in any case.
    let a = assemble(
        Gen::Gfx7,
        ".rept 2\n.REPT 2\ns_nop 0\n.endr\ns_endpgm\n.Endr\n.rept 0\ns_endpgm\n.endr\n",
    )
    .unwrap();
    let nop_nop_end = [S_NOP_0, S_NOP_0, S_ENDPGM];
    assert_eq!(a.words(), [nop_nop_end, nop_nop_end].concat());
    // A label outside the block names its first copy; a branch back over all copies.
    let a = assemble(Gen::Gfx6, "top:\n.rept 2\ns_nop 0\n.endr\ns_branch top\n").unwrap();
    assert_eq!(a.words(), [S_NOP_0, S_NOP_0, S_BRANCH | 0xfffd]);
    // (line of the error, text, what the message says)
    let bad = [
        (2, "s_nop 0\n.endr\n", "without .rept"),
        (1, ".rept 2\ns_nop 0\n", "without .endr"),
        (1, ".rept\n.endr\n", "one count"),
        (1, ".rept 1, 2\n.endr\n", "one count"),
        (1, ".rept -1\n.endr\n", "out of range"),
        (1, ".rept v0\n.endr\n", "must be a number"),
        (1, "x: .rept 2\n.endr\n", "label"),
        (2, ".rept 2\n.endr 1\n", "no operands"),
        (2, ".rept 2\nk: s_nop 0\n.endr\n", "defined twice"),
        (
            5,
            ".rept 300\n.rept 300\ns_nop 0\n.endr\n.endr\n",
            "more than",
        ),
    ];
    for (line, text, says) in bad {
        let e = assemble(Gen::Gfx8, text).unwrap_err();
        assert_eq!(e.line, line, "{text:?}: {e:?}");
        assert!(e.msg.contains(says), "{text:?}: {e:?}");
    }
}
