//! `wavejit disasm` of code objects, against LLVM's own tools on the same files: the kernel
//! descriptors print as the `.amdhsa_*` block llvm-objdump-19 prints for `.rodata` (gfx8
//! objects: its disassembler stops at GCN 1.2); the
//! gfx8 code in LLVM syntax reassembles with llvm-mc-19 to the bytes of the code section
//! (read by llvm-objcopy-19); every function symbol is listed at its address.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use wavejit_testkit::{oracles_required as required, root, run_program, tool};

fn wavejit(args: &[&str], file: &Path) -> (i32, String, String) {
    let args = args.iter().map(OsStr::new).chain([file.as_os_str()]);
    run_program(env!("CARGO_BIN_EXE_wavejit"), args)
}

fn objects() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("tests/data/launch"))
        .expect("tests/data/launch")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "hsaco"))
        .collect();
    v.sort();
    v
}

/// The `.amdhsa_kernel` blocks of a text, whitespace-normalised.
fn kd_blocks(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Option<Vec<String>> = None;
    for l in text.lines() {
        let t = l.split_whitespace().collect::<Vec<_>>().join(" ");
        if t.starts_with(".amdhsa_kernel ") {
            cur = Some(vec![t]);
        } else if let Some(c) = cur.as_mut() {
            c.push(t.clone());
            if t == ".end_amdhsa_kernel" {
                out.push(c.join("\n"));
                cur = None;
            }
        }
    }
    out
}

#[test]
fn kernel_descriptors_print_as_llvm_objdump_prints_them() {
    // llvm-objdump-19 disassembles GCN 1.2 only (it aborts on gfx6/gfx7 objects); the
    // descriptor's layout is the same on every generation.
    let mut compared = 0;
    for f in objects()
        .into_iter()
        .filter(|f| f.to_string_lossy().contains("gfx803"))
    {
        let path = f.to_string_lossy().to_string();
        let Some(theirs) = tool("llvm-objdump-19", &["-D", "-j", ".rodata", &path]) else {
            assert!(!required(), "llvm-objdump-19 is required");
            return;
        };
        let (code, ours, err) = wavejit(&["disasm"], &f);
        assert_eq!(code, 0, "{path}: {err}");
        let (a, b) = (kd_blocks(&ours), kd_blocks(&theirs));
        assert!(!b.is_empty(), "{path}: llvm-objdump printed no descriptor");
        assert_eq!(a, b, "{path}");
        compared += b.len();
    }
    assert!(compared >= 2, "{compared} descriptors compared");
}

/// (address, words) of every instruction line of our listing, and the text of the line
/// without its address comment.
fn instruction_lines(listing: &str) -> Vec<(u64, Vec<u32>, String)> {
    let mut out = Vec::new();
    for l in listing.lines() {
        let Some(i) = l.rfind("// ") else { continue };
        let (text, tail) = (&l[..i], &l[i + 3..]);
        let Some((addr, words)) = tail.split_once(": ") else {
            continue;
        };
        let (Ok(addr), Ok(words)) = (
            u64::from_str_radix(addr.trim(), 16),
            words
                .split_whitespace()
                .map(|w| u32::from_str_radix(w, 16))
                .collect::<Result<Vec<u32>, _>>(),
        ) else {
            continue;
        };
        // A branch's target comment is not part of the instruction.
        let text = text.split(" // target").next().unwrap_or(text).trim();
        out.push((addr, words, text.to_string()));
    }
    out
}

#[test]
fn gfx8_listings_reassemble_to_the_code_section() {
    for f in objects()
        .into_iter()
        .filter(|f| f.to_string_lossy().contains("gfx803"))
    {
        let path = f.to_string_lossy().to_string();
        let (code, ours, err) = wavejit(&["disasm", "--syntax", "llvm"], &f);
        assert_eq!(code, 0, "{path}: {err}");
        let lines = instruction_lines(&ours);
        assert!(lines.len() > 10, "{path}: {ours}");
        // The code section's bytes, from LLVM's tools.
        let tmp = std::env::temp_dir().join(format!(
            "wavejit-disasm-elf-{}-{}.bin",
            std::process::id(),
            f.file_stem().unwrap_or_default().to_string_lossy()
        ));
        let tmps = tmp.to_string_lossy().to_string();
        let sections = tool("llvm-readelf-19", &["-S", &path]);
        if tool(
            "llvm-objcopy-19",
            &["-O", "binary", "--only-section=.text", &path, &tmps],
        )
        .is_none()
            || sections.is_none()
        {
            assert!(
                !required(),
                "llvm-objcopy-19 and llvm-readelf-19 are required"
            );
            return;
        }
        let text_addr = sections
            .unwrap_or_default()
            .lines()
            .find(|l| l.contains(" .text "))
            .and_then(|l| {
                l.split_whitespace()
                    .skip_while(|w| *w != ".text")
                    .nth(2)
                    .and_then(|a| u64::from_str_radix(a, 16).ok())
            })
            .expect(".text address");
        let bytes = std::fs::read(&tmp).expect("objcopy output");
        let _ = std::fs::remove_file(&tmp);
        // Our words are the section's bytes at our addresses...
        for (addr, words, text) in &lines {
            let at = (addr - text_addr) as usize;
            let theirs: Vec<u32> = bytes[at..at + 4 * words.len()]
                .chunks(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            assert_eq!(&theirs, words, "{path} 0x{addr:x}: {text}");
        }
        // ...and llvm-mc-19 assembles our text to exactly those words.
        let src: String = lines.iter().map(|(_, _, t)| format!("{t}\n")).collect();
        let asm = std::env::temp_dir().join(format!("wavejit-disasm-elf-{}.s", std::process::id()));
        std::fs::write(&asm, &src).expect("write");
        let mc = tool(
            "llvm-mc-19",
            &[
                "-arch=amdgcn",
                "-mcpu=fiji",
                "-show-encoding",
                &asm.to_string_lossy(),
            ],
        );
        let _ = std::fs::remove_file(&asm);
        let Some(mc) = mc else {
            assert!(
                !required(),
                "llvm-mc-19 is required (or it refused our text)"
            );
            return;
        };
        let encodings: Vec<Vec<u8>> = mc
            .lines()
            .filter_map(|l| l.split("encoding: [").nth(1))
            .map(|e| {
                e.trim_end_matches(']')
                    .split(',')
                    .map(|b| {
                        u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).expect("hex byte")
                    })
                    .collect()
            })
            .collect();
        assert_eq!(encodings.len(), lines.len(), "{path}: {mc}");
        for ((addr, words, text), enc) in lines.iter().zip(&encodings) {
            let want: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            assert_eq!(enc, &want, "{path} 0x{addr:x}: {text}");
        }
    }
}

#[test]
fn every_function_symbol_is_listed_at_its_address() {
    let f = root().join("tests/data/launch/two-gfx700.hsaco");
    let path = f.to_string_lossy().to_string();
    let (code, ours, err) = wavejit(&["disasm"], &f);
    assert_eq!(code, 0, "{err}");
    let Some(syms) = tool("llvm-readelf-19", &["-s", &path]) else {
        assert!(!required(), "llvm-readelf-19 is required");
        return;
    };
    let mut seen = 0;
    for l in syms.lines().filter(|l| l.contains(" FUNC ")) {
        let w: Vec<&str> = l.split_whitespace().collect();
        let (addr, size, name) = (w[1], w[2], w[7]);
        let addr = u64::from_str_radix(addr, 16).expect("address");
        let want = format!("{name} at 0x{addr:x}, {size} bytes");
        assert!(ours.contains(&want), "missing `{want}` in\n{ours}");
        seen += 1;
    }
    assert!(seen >= 2, "{syms}");
    // Raw code still needs --arch; a code object does not.
    let (code, _, err) = wavejit(&["disasm"], &root().join("tests/data/launch/spin.s"));
    assert_eq!(code, 2);
    assert!(err.contains("--arch is required"), "{err}");
}

#[test]
fn clrx_labels_are_unique_across_functions() {
    // Two kernels, each branching to its own offset 8: per-function listings would both
    // call that `.L8`.
    let mut src = String::from("\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx803\"\n\t.text\n");
    for k in ["ka", "kb"] {
        src += &format!(
            "// @kernel {k}()\n\t.globl {k}\n\t.p2align 8\n\t.type {k},@function\n{k}:\n\ts_cbranch_scc0 .Lt_{k}\n\ts_nop 0\n.Lt_{k}:\n\ts_endpgm\n"
        );
    }
    src += "\t.rodata\n";
    for k in ["ka", "kb"] {
        src += &format!("\t.amdhsa_kernel {k}\n\t\t.amdhsa_next_free_vgpr 1\n\t\t.amdhsa_next_free_sgpr 1\n\t.end_amdhsa_kernel\n");
    }
    let dir = std::env::temp_dir();
    let s = dir.join(format!("wavejit-disasm-labels-{}.s", std::process::id()));
    let o = dir.join(format!(
        "wavejit-disasm-labels-{}.hsaco",
        std::process::id()
    ));
    std::fs::write(&s, &src).expect("write");
    let (code, _, err) = wavejit(&["asm", "-o", &o.to_string_lossy()], &s);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = wavejit(&["disasm", "--syntax", "clrx"], &o);
    let _ = std::fs::remove_file(&s);
    let _ = std::fs::remove_file(&o);
    assert_eq!(code, 0, "{err}");
    // Each function defines its label once and its branch names that label.
    let defined: Vec<&str> = out
        .lines()
        .filter_map(|l| l.trim_start().split_once(": ").map(|(a, _)| a))
        .filter(|a| a.starts_with(".L"))
        .collect();
    assert_eq!(defined, [".Lka_8", ".Lkb_8"], "{out}");
    assert!(out.contains("s_cbranch_scc0 .Lka_8"), "{out}");
    assert!(out.contains("s_cbranch_scc0 .Lkb_8"), "{out}");
}
