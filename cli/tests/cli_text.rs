//! The text commands of the CLI contract: `wavejit asm`, `wavejit disasm`, `wavejit table`.

use wavejit_testkit::run_program;

fn wavejit(args: &[&str]) -> (i32, String, String) {
    run_program(env!("CARGO_BIN_EXE_wavejit"), args)
}

fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("wavejit-cli-text-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d.join(name)
}

#[test]
fn asm_lists_words_and_writes_bytes_and_disasm_reads_them_back() {
    let src = tmp("loop.s");
    // Words worked out from the encodings (encodings.md; 002 for SDWA):
    // s_mov_b32 s0, 10 = SOP1 0xBE80_0000 | op 0 << 8 | ssrc0 138 (inline 10) = be80008a.
    // v_add_f32_e32 v1, v2, v3 (gfx8 VOP2 op 1) = 1 << 25 | 1 << 17 | 3 << 9 | 258 = 02020702.
    // s_cbranch_scc1 loop, back 3 dwords from the next instruction: bf85 | 0xfffd.
    std::fs::write(
        &src,
        "s_mov_b32 s0, 10\nloop: v_add_f32 v1, v2, v3\ns_sub_u32 s0, s0, 1\ns_cbranch_scc1 loop\n",
    )
    .expect("write");
    let (rc, out, err) = wavejit(&["asm", "--arch", "fiji", src.to_str().expect("path")]);
    assert_eq!(rc, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(
        lines[0].starts_with("be80008a") && lines[0].ends_with("s_mov_b32 s0, 10"),
        "{out}"
    );
    assert!(lines[1].starts_with("02020702"), "{out}");
    assert!(
        lines[3].starts_with("bf85fffd") && lines[3].ends_with("s_cbranch_scc1 loop"),
        "{out}"
    );

    let bin = tmp("loop.bin");
    let (rc, _, err) = wavejit(&[
        "asm",
        "--arch",
        "gfx8",
        src.to_str().expect("path"),
        "-o",
        bin.to_str().expect("path"),
    ]);
    assert_eq!(rc, 0, "{err}");
    let bytes = std::fs::read(&bin).expect("read bin");
    assert_eq!(&bytes[..4], &0xbe80008au32.to_le_bytes());
    assert_eq!(bytes.len(), 16);

    let (rc, out, err) = wavejit(&[
        "disasm",
        "--arch",
        "gcn1.2",
        "--syntax",
        "llvm",
        bin.to_str().expect("path"),
    ]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "s_mov_b32 s0, 10",
            "v_add_f32_e32 v1, v2, v3",
            "s_sub_u32 s0, s0, 1",
            "s_cbranch_scc1 -3"
        ]
    );
    // CLRX syntax (the default) names the branch target with a label.
    let (rc, out, _) = wavejit(&["disasm", "--arch", "gfx8", bin.to_str().expect("path")]);
    assert_eq!(rc, 0);
    assert!(
        out.contains(".L4: v_add_f32 v1, v2, v3") && out.contains("s_cbranch_scc1 .L4"),
        "{out}"
    );
}

#[test]
fn disasm_hex_and_bad_words() {
    // v_mov_b32_e32 v1, v2 (VOP1 op 1): 0x7e020302; s_endpgm: 0xbf810000.
    let (rc, out, _) = wavejit(&[
        "disasm",
        "--arch",
        "tahiti",
        "--syntax",
        "llvm",
        "--hex",
        "7e020302, 0xBF810000",
    ]);
    assert_eq!(rc, 0);
    assert_eq!(out, "v_mov_b32_e32 v1, v2\ns_endpgm\n");
    // 0xffffffff is no GCN 1.2 instruction (EXP-class tag 111111): printed as data, status 1.
    let (rc, out, _) = wavejit(&["disasm", "--arch", "gfx8", "--hex", "ffffffff"]);
    assert_eq!(rc, 1);
    assert!(out.starts_with(".long 0xffffffff //"), "{out}");
    let (rc, _, err) = wavejit(&["disasm", "--arch", "gfx8", "--hex", "12345678x"]);
    assert_ne!(rc, 0);
    assert!(err.contains("not a 32-bit hex word"), "{err}");
}

#[test]
fn asm_reports_file_line_and_column() {
    let src = tmp("bad.s");
    std::fs::write(&src, "s_nop 0\n  v_add_f32 v1, v2, bogus\n").expect("write");
    let (rc, _, err) = wavejit(&["asm", "--arch", "gfx8", src.to_str().expect("path")]);
    assert_eq!(rc, 1);
    assert!(
        err.contains("bad.s:2:21: error: unknown operand `bogus`"),
        "{err}"
    );
}

#[test]
fn table_prints_rows() {
    let (rc, out, _) = wavejit(&["table", "--arch", "gfx8"]);
    assert_eq!(rc, 0);
    // v_add_f32 is VOP2 opcode 1 on GCN 1.2 (opcodes.tsv).
    assert!(
        out.lines().any(|l| l.starts_with("v_add_f32\tvop2\t1\t")),
        "no v_add_f32 row"
    );
    let (rc, out, _) = wavejit(&["table"]);
    assert_eq!(rc, 0);
    // GCN 1.0/1.1 number it 3 (opcodes.tsv).
    assert!(
        out.lines()
            .any(|l| l.starts_with("v_add_f32\tvop2\t3\t3\t1\t")),
        "no v_add_f32 row"
    );
    let (rc, _, err) = wavejit(&["table", "--arch", "gfx9"]);
    assert_ne!(rc, 0);
    assert!(err.contains("unknown architecture"), "{err}");
}
