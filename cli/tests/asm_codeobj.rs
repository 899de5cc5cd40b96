//! `wavejit asm -o K.hsaco` of code-object sources (`examples/codeobj/*.s`, one per GCN
//! generation, one using LDS, one with two kernels and an `.amdgpu_metadata` block):
//!
//! - the objects launch and compute what a plain Rust loop computes;
//! - `wavejit info --json` reports the arguments, LDS and registers the sources declare
//!   (offsets worked out by hand from the declarations);
//! - against LLVM (skipped without the tools unless WAVEJIT_REQUIRE_ORACLES is set): the
//!   same source through llvm-mc-19 + ld.lld-19 gives the same `.text` and `.rodata`
//!   (kernel descriptors, entry offsets included) and, where the metadata is written in the
//!   source, the same `.note`; `llvm-readelf-19 --notes` reads our metadata;
//!   `llvm-objdump-19 -d` prints the same instructions for our file as for LLVM's (gfx8:
//!   its disassembler stops at GCN 1.2); descriptors of many `.amdhsa_*` combinations on
//!   six processors equal llvm-mc-19's byte for byte (entry field aside, a relocation
//!   there).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use wavejit_testkit::{oracles_required as required, root, run_program, tool};

/// A temporary path unique to this process and call (tests run in parallel).
fn tmp(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("wavejit-codeobj-{}-{n}-{name}", std::process::id()))
}

fn wavejit(args: &[&str]) -> (i32, String, String) {
    run_program(env!("CARGO_BIN_EXE_wavejit"), args)
}

fn example(name: &str) -> PathBuf {
    root().join("examples/codeobj").join(name)
}

fn s(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// Assemble an example into a temporary code object.
fn assemble(name: &str) -> PathBuf {
    let out = tmp(&format!("{name}.hsaco"));
    let (code, _, err) = wavejit(&["asm", &s(&example(name)), "-o", &s(&out)]);
    assert_eq!(code, 0, "{name}: {err}");
    out
}

fn words_file(name: &str, words: &[u32]) -> PathBuf {
    let p = tmp(name);
    std::fs::write(
        &p,
        words
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect::<Vec<u8>>(),
    )
    .expect("write");
    p
}

fn read_words(p: &Path) -> Vec<u32> {
    std::fs::read(p)
        .expect("output")
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn launch(obj: &Path, kernel: &str, grid: u32, engine: &str, args: &[String]) {
    let mut a: Vec<String> = [
        "launch",
        "--engine",
        engine,
        &s(obj),
        "--kernel",
        kernel,
        "--grid",
        &grid.to_string(),
        "--block",
        "64",
        "--quiet",
    ]
    .iter()
    .map(|x| x.to_string())
    .collect();
    for x in args {
        a.push("--arg".into());
        a.push(x.clone());
    }
    let r: Vec<&str> = a.iter().map(String::as_str).collect();
    let (code, _, err) = wavejit(&r);
    assert_eq!(code, 0, "{kernel}: {err}");
}

#[test]
fn vadd_gfx6_and_gfx8_launch() {
    // 100 work-items in workgroups of 64 (a partial one), n = 90: the last 10 stay 0.
    let a: Vec<u32> = (0..100u32).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
    let b: Vec<u32> = (0..100u32)
        .map(|i| 0xffff_fff0u32.wrapping_add(i))
        .collect();
    let expect: Vec<u32> = (0..100)
        .map(|i| if i < 90 { a[i].wrapping_add(b[i]) } else { 0 })
        .collect();
    for name in ["vadd_gfx6.s", "vadd_gfx8.s"] {
        let obj = assemble(name);
        let (pa, pb, pc) = (
            words_file("a.bin", &a),
            words_file("b.bin", &b),
            tmp(&format!("{name}.c.bin")),
        );
        for e in ["interp", "jit"] {
            let _ = std::fs::remove_file(&pc);
            launch(
                &obj,
                "vadd",
                100,
                e,
                &[
                    format!("in:{}", s(&pa)),
                    format!("in:{}", s(&pb)),
                    format!("out:{}:400", s(&pc)),
                    "u32:90".into(),
                ],
            );
            assert_eq!(read_words(&pc), expect, "{name} on {e}");
        }
        for p in [obj, pa, pb, pc] {
            let _ = std::fs::remove_file(p);
        }
    }
}

#[test]
fn lds_and_two_kernels_gfx7_launch() {
    let obj = assemble("lds_gfx7.s");
    let input: Vec<u32> = (0..256u32).map(|i| i * 7 + 1).collect();
    let pin = words_file("lds.in.bin", &input);
    let pout = tmp("lds.out.bin");
    launch(
        &obj,
        "reverse",
        256,
        "jit",
        &[format!("in:{}", s(&pin)), format!("out:{}:1024", s(&pout))],
    );
    let out = read_words(&pout);
    for g in 0..4 {
        for l in 0..64 {
            assert_eq!(out[64 * g + l], input[64 * g + 63 - l], "reverse {g} {l}");
        }
    }
    launch(
        &obj,
        "scale",
        256,
        "interp",
        &[
            format!("in:{}", s(&pin)),
            format!("out:{}:1024", s(&pout)),
            "u32:3000000000".into(),
        ],
    );
    let want: Vec<u32> = input
        .iter()
        .map(|x| x.wrapping_mul(3_000_000_000))
        .collect();
    assert_eq!(read_words(&pout), want);
    for p in [obj, pin, pout] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn info_reports_what_the_sources_declare() {
    let obj = assemble("vadd_gfx8.s");
    let (code, out, err) = wavejit(&["info", "--json", &s(&obj)]);
    assert_eq!(code, 0, "{err}");
    let j: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(j["code_object_version"], 5);
    assert_eq!(j["generation"], "gfx8");
    let k = &j["kernels"][0];
    assert_eq!(k["name"], "vadd");
    // a, b, c: 8-byte pointers at 0, 8, 16; n: uint at 24; .amdhsa_kernarg_size 28.
    let args: Vec<(String, u64, u64, String)> = k["args"]
        .as_array()
        .expect("args")
        .iter()
        .map(|a| {
            (
                a["name"].as_str().unwrap_or("").to_string(),
                a["offset"].as_u64().unwrap_or(99),
                a["size"].as_u64().unwrap_or(99),
                a["type"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let want = [
        ("a", 0, 8, "uint*"),
        ("b", 8, 8, "uint*"),
        ("c", 16, 8, "uint*"),
        ("n", 24, 4, "uint"),
    ];
    assert_eq!(args.len(), 4);
    for (g, w) in args.iter().zip(want) {
        assert_eq!((g.0.as_str(), g.1, g.2, g.3.as_str()), w);
    }
    assert_eq!(k["kernarg_bytes"], 28);
    // next_free_vgpr 8 → 8 VGPRs; 15 SGPRs + VCC = 17 → 3 granules of 8.
    assert_eq!(k["vgprs"], 8);
    assert_eq!(k["sgprs"], 24);
    let _ = std::fs::remove_file(&obj);

    let obj = assemble("lds_gfx7.s");
    let (code, out, err) = wavejit(&["info", "--json", &s(&obj)]);
    assert_eq!(code, 0, "{err}");
    let j: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(j["code_object_version"], 4);
    let names: Vec<&str> = j["kernels"]
        .as_array()
        .expect("kernels")
        .iter()
        .map(|k| k["name"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(names, ["reverse", "scale"]);
    assert_eq!(j["kernels"][0]["lds_bytes"], 256);
    assert_eq!(j["kernels"][1]["args"][2]["name"], "k");
    assert_eq!(j["kernels"][1]["args"][2]["offset"], 16);
    let _ = std::fs::remove_file(&obj);
}

/// The processor a source names in `.amdgcn_target`.
fn processor(src: &str) -> String {
    src.split("amdhsa--")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .expect("target")
        .to_string()
}

/// A section's bytes, by llvm-objcopy-19.
fn section(obj: &Path, name: &str) -> Option<Vec<u8>> {
    // llvm-objcopy also writes a copy of the object: to `null`, removed with the dump.
    let (out, null) = (tmp(&format!("section{name}")), tmp("null"));
    let r = tool(
        "llvm-objcopy-19",
        &[
            "--dump-section",
            &format!("{name}={}", s(&out)),
            &s(obj),
            &s(&null),
        ],
    );
    let b = std::fs::read(&out).ok();
    let _ = std::fs::remove_file(&out);
    let _ = std::fs::remove_file(&null);
    r.and(b)
}

/// llvm-mc-19 + ld.lld-19 on an example: the reference shared object.
fn llvm_build(name: &str) -> Option<PathBuf> {
    let src = std::fs::read_to_string(example(name)).expect("source");
    let (o, so) = (tmp(&format!("{name}.o")), tmp(&format!("{name}.ref.hsaco")));
    tool(
        "llvm-mc-19",
        &[
            "-triple",
            "amdgcn-amd-amdhsa",
            &format!("-mcpu={}", processor(&src)),
            "-filetype=obj",
            "-o",
            &s(&o),
            &s(&example(name)),
        ],
    )?;
    let r = tool("ld.lld-19", &["-shared", "-o", &s(&so), &s(&o)]);
    let _ = std::fs::remove_file(&o);
    r.map(|_| so)
}

#[test]
fn sections_equal_llvm_mc_and_ld_lld() {
    for name in ["vadd_gfx6.s", "vadd_gfx8.s", "lds_gfx7.s"] {
        let Some(theirs) = llvm_build(name) else {
            assert!(!required(), "llvm-mc-19 and ld.lld-19 are required");
            return;
        };
        let ours = assemble(name);
        let mut secs = vec![".text", ".rodata"];
        // With the metadata written in the source, LLVM's note is ours byte for byte.
        if std::fs::read_to_string(example(name))
            .expect("source")
            .contains(".amdgpu_metadata")
        {
            secs.push(".note");
        }
        for sec in secs {
            let (a, b) = (section(&ours, sec), section(&theirs, sec));
            assert!(b.is_some(), "{name}: LLVM's object has no {sec}");
            assert_eq!(a, b, "{name}: {sec}");
        }
        for p in [ours, theirs] {
            let _ = std::fs::remove_file(p);
        }
    }
}

#[test]
fn llvm_readelf_reads_the_metadata() {
    let ours = assemble("vadd_gfx8.s");
    let Some(notes) = tool("llvm-readelf-19", &["--notes", &s(&ours)]) else {
        assert!(!required(), "llvm-readelf-19 is required");
        return;
    };
    let _ = std::fs::remove_file(&ours);
    assert!(notes.contains("NT_AMDGPU_METADATA"), "{notes}");
    // The YAML llvm-readelf prints back, line by line (whitespace normalised).
    let norm: Vec<String> = notes
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    for want in [
        "amdhsa.target: amdgcn-amd-amdhsa--gfx803",
        ".symbol: vadd.kd",
        ".name: vadd",
        ".kernarg_segment_size: 28",
        ".type_name: 'uint*'",
        ".value_kind: global_buffer",
        ".value_kind: by_value",
        ".offset: 24",
        ".vgpr_count: 8",
    ] {
        assert!(
            norm.iter().any(|l| l.trim_start_matches("- ") == want),
            "{want} in\n{notes}"
        );
    }
}

/// The instruction texts of `llvm-objdump-19 -d` (address and encoding comments removed).
fn objdump_instructions(obj: &Path) -> Option<Vec<String>> {
    let d = tool("llvm-objdump-19", &["-d", &s(obj)])?;
    Some(
        d.lines()
            .filter(|l| l.starts_with('\t') || l.starts_with("  "))
            .map(|l| l.split("//").next().unwrap_or("").trim().to_string())
            .filter(|l| !l.is_empty())
            .collect(),
    )
}

#[test]
fn llvm_objdump_disassembles_the_source() {
    // gfx8 only: llvm-objdump-19 aborts on gfx6/gfx7 code objects.
    let name = "vadd_gfx8.s";
    let ours = assemble(name);
    let Some(theirs_obj) = llvm_build(name) else {
        assert!(!required(), "llvm-mc-19 and ld.lld-19 are required");
        return;
    };
    let (Some(a), Some(b)) = (
        objdump_instructions(&ours),
        objdump_instructions(&theirs_obj),
    ) else {
        assert!(!required(), "llvm-objdump-19 is required");
        return;
    };
    assert_eq!(a, b);
    // And each is the source's statement, in order (llvm-objdump adds `_e32`/`_e64`).
    let src = std::fs::read_to_string(example(name)).expect("source");
    let stmts: Vec<String> = src
        .lines()
        .map(|l| l.split("//").next().unwrap_or("").trim())
        .filter(|l| l.starts_with("s_") || l.starts_with("v_") || l.starts_with("flat_"))
        .map(|l| l.split_whitespace().next().unwrap_or("").to_string())
        .collect();
    let mnems: Vec<String> = a
        .iter()
        .map(|l| l.split_whitespace().next().unwrap_or("").to_string())
        .collect();
    assert_eq!(mnems.len(), stmts.len(), "{a:?}");
    for (m, st) in mnems.iter().zip(&stmts) {
        assert!(m.starts_with(st.as_str()), "{m} for {st}");
    }
    for p in [ours, theirs_obj] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn descriptors_equal_llvm_mc_over_many_directives() {
    // Each kernel of a file sets a different mix; the threshold of next_free_sgpr where the
    // granulated count changes exposes the reserved VCC/FLAT_SCRATCH/XNACK SGPRs.
    let mixes: &[&[(&str, u32)]] = &[
        &[],
        &[("next_free_sgpr", 2)],
        &[("next_free_sgpr", 3)],
        &[("next_free_sgpr", 5)],
        &[("next_free_sgpr", 7)],
        &[("next_free_sgpr", 7), ("reserve_vcc", 0)],
        &[("next_free_sgpr", 9), ("reserve_vcc", 0)],
        &[("next_free_sgpr", 90)],
        &[("next_free_vgpr", 0)],
        &[("next_free_vgpr", 5)],
        &[("next_free_vgpr", 256)],
        &[
            ("user_sgpr_private_segment_buffer", 1),
            ("user_sgpr_dispatch_ptr", 1),
            ("user_sgpr_queue_ptr", 1),
            ("user_sgpr_kernarg_segment_ptr", 1),
            ("user_sgpr_dispatch_id", 1),
            ("user_sgpr_private_segment_size", 1),
        ],
        &[("user_sgpr_kernarg_segment_ptr", 1), ("user_sgpr_count", 9)],
        &[
            ("system_sgpr_private_segment_wavefront_offset", 1),
            ("system_sgpr_workgroup_id_x", 0),
            ("system_sgpr_workgroup_id_y", 1),
            ("system_sgpr_workgroup_id_z", 1),
            ("system_sgpr_workgroup_info", 1),
            ("system_vgpr_workitem_id", 2),
        ],
        &[
            ("float_round_mode_32", 1),
            ("float_round_mode_16_64", 2),
            ("float_denorm_mode_32", 3),
            ("float_denorm_mode_16_64", 0),
            ("dx10_clamp", 0),
            ("ieee_mode", 0),
        ],
        &[
            ("exception_fp_ieee_invalid_op", 1),
            ("exception_fp_denorm_src", 1),
            ("exception_fp_ieee_div_zero", 1),
            ("exception_fp_ieee_overflow", 1),
            ("exception_fp_ieee_underflow", 1),
            ("exception_fp_ieee_inexact", 1),
            ("exception_int_div_zero", 1),
        ],
        &[
            ("group_segment_fixed_size", 65536),
            ("private_segment_fixed_size", 0x12345),
            ("kernarg_size", 4096),
            ("uses_dynamic_stack", 1),
        ],
    ];
    let flat_mixes: &[&[(&str, u32)]] = &[
        &[("next_free_sgpr", 3), ("reserve_flat_scratch", 0)],
        &[("next_free_sgpr", 5), ("reserve_flat_scratch", 0)],
        &[
            ("next_free_sgpr", 5),
            ("reserve_flat_scratch", 0),
            ("reserve_vcc", 0),
        ],
        &[("user_sgpr_flat_scratch_init", 1)],
    ];
    let mut compared = 0;
    for proc in ["gfx600", "gfx700", "gfx801", "gfx802", "gfx803", "gfx810"] {
        let mut src = format!("\t.amdgcn_target \"amdgcn-amd-amdhsa--{proc}\"\n\t.text\n");
        let all: Vec<&[(&str, u32)]> = mixes
            .iter()
            .chain(if proc == "gfx600" {
                &[][..]
            } else {
                flat_mixes
            })
            .copied()
            .collect();
        for i in 0..all.len() {
            src += &format!("// @kernel k{i}()\n\t.globl k{i}\n\t.p2align 8\n\t.type k{i},@function\nk{i}:\n\ts_endpgm\n");
        }
        src += "\t.rodata\n";
        for (i, mix) in all.iter().enumerate() {
            src += &format!("\t.p2align 6\n\t.amdhsa_kernel k{i}\n");
            for f in ["next_free_vgpr", "next_free_sgpr"] {
                if !mix.iter().any(|(n, _)| *n == f) {
                    src += &format!("\t\t.amdhsa_{f} 1\n");
                }
            }
            for (n, v) in mix.iter() {
                src += &format!("\t\t.amdhsa_{n} {v}\n");
            }
            src += "\t.end_amdhsa_kernel\n";
        }
        let path = tmp(&format!("mix-{proc}.s"));
        std::fs::write(&path, &src).expect("write");
        let o = tmp(&format!("mix-{proc}.o"));
        let mc = tool(
            "llvm-mc-19",
            &[
                "-triple",
                "amdgcn-amd-amdhsa",
                &format!("-mcpu={proc}"),
                "-filetype=obj",
                "-o",
                &s(&o),
                &s(&path),
            ],
        );
        if mc.is_none() {
            let _ = std::fs::remove_file(&path);
            assert!(
                !required(),
                "llvm-mc-19 is required (or it refused {proc}:\n{src})"
            );
            return;
        }
        let ours = tmp(&format!("mix-{proc}.hsaco"));
        let (code, _, err) = wavejit(&["asm", &s(&path), "-o", &s(&ours)]);
        assert_eq!(code, 0, "{proc}: {err}");
        let (a, b) = (section(&ours, ".rodata"), section(&o, ".rodata"));
        let (a, b) = (a.expect("ours"), b.expect("theirs"));
        assert_eq!(a.len(), b.len(), "{proc}");
        for (i, (x, y)) in a.chunks(64).zip(b.chunks(64)).enumerate() {
            // Bytes 16..24 are the entry offset: a relocation in llvm-mc's object.
            assert_eq!(
                (&x[..16], &x[24..]),
                (&y[..16], &y[24..]),
                "{proc} kernel {i}: {:?}",
                all[i]
            );
            compared += 1;
        }
        // Our e_flags are llvm-mc's.
        let flags = |p: &Path| {
            tool("llvm-readelf-19", &["-h", &s(p)])
                .and_then(|h| h.lines().find(|l| l.contains("Flags:")).map(str::to_string))
        };
        assert_eq!(flags(&ours), flags(&o), "{proc}");
        for p in [path, o, ours] {
            let _ = std::fs::remove_file(p);
        }
    }
    assert!(compared >= 100, "{compared}");
}

#[test]
fn bad_sources_give_positioned_errors() {
    let head = "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx803\"\n\t.text\nk:\n\ts_endpgm\n";
    let kd = "\t.amdhsa_kernel k\n\t\t.amdhsa_next_free_vgpr 1\n\t\t.amdhsa_next_free_sgpr 1\n\t.end_amdhsa_kernel\n";
    let cases: Vec<(String, u32, &str)> = vec![
        (format!("{head}\t.amdhsa_kernel k\n\t\t.amdhsa_bogus 1\n\t.end_amdhsa_kernel\n"), 6, "unknown directive"),
        (format!("{head}\t.amdhsa_kernel k\n"), 5, "no .end_amdhsa_kernel"),
        (format!("{head}\t.amdhsa_kernel k\n\t.amdhsa_next_free_vgpr 1\n\t.end_amdhsa_kernel\n"), 5, "next_free_sgpr"),
        (format!("{head}\t.amdhsa_kernel k\n\t.amdhsa_next_free_vgpr x\n"), 6, "expected an integer"),
        (format!("{head}\t.amdhsa_kernel k\n\t.amdhsa_wavefront_size32 1\n\t.amdhsa_next_free_vgpr 1\n\t.amdhsa_next_free_sgpr 1\n\t.end_amdhsa_kernel\n"), 6, "gfx10+"),
        (format!("{head}\t.amdhsa_kernel k\n\t.amdhsa_dx10_clamp 2\n\t.amdhsa_next_free_vgpr 1\n\t.amdhsa_next_free_sgpr 1\n\t.end_amdhsa_kernel\n"), 6, "out of range"),
        (format!("{head}{kd}").replace("gfx803", "gfx900"), 1, "unknown processor"),
        (format!("{head}{kd}").replace(".amdhsa_kernel k", ".amdhsa_kernel nolabel"), 5, "no label"),
        (format!("{head}\t.rodata\n\ts_nop 0\n"), 6, ".text"),
        (format!("{head}\t.section .data\n"), 5, "not supported"),
        (format!("{head}\t.amdgpu_metadata\n---\nbad: [\n"), 5, "no .end_amdgpu_metadata"),
        (format!("{head}{kd}\t.amdgpu_metadata\n---\nbad: [\n\t.end_amdgpu_metadata\n"), 12, "YAML"),
        (format!("{head}{kd}\t.amdgpu_metadata\n---\namdhsa.version: [1, 1]\namdhsa.kernels: []\n\t.end_amdgpu_metadata\n"), 9, "code object v4"),
        (format!("{head}{kd}\t.amdgpu_metadata\n---\namdhsa.version: [1, 2]\namdhsa.kernels: []\n\t.end_amdgpu_metadata\n"), 5, "missing from the .amdgpu_metadata"),
        (format!("// @kernel k(uint n, bogus m)\n{head}{kd}"), 1, "unexpected `bogus`"),
        (format!("// @kernel other()\n{head}{kd}"), 1, "no .amdhsa_kernel block"),
        (format!("{head}{kd}").replace("\t\t.amdhsa_next_free_sgpr 1\n", "\t\t.amdhsa_next_free_sgpr 1\n\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1\n"), 5, "no arguments are declared"),
        (format!("{head}\tv_bogus v0\n{kd}"), 5, "unknown instruction"),
        (format!("{head}\t.p2align 40\n{kd}"), 5, "alignment"),
        (format!("{head}\t.amdhsa_code_object_version 3\n{kd}"), 5, "version 3"),
        (format!("{head}\t.type k,@object\n{kd}"), 5, "only functions"),
        (format!("{head}\t.size k, .Lnope-k\n{kd}"), 5, "not a label"),
    ];
    for (i, (src, line, msg)) in cases.iter().enumerate() {
        let p = tmp(&format!("bad{i}.s"));
        std::fs::write(&p, src).expect("write");
        let out = tmp(&format!("bad{i}.hsaco"));
        let (code, _, err) = wavejit(&["asm", &s(&p), "-o", &s(&out)]);
        assert_eq!(code, 1, "case {i}: {err}\n{src}");
        let want = format!("{}:{line}:", s(&p));
        assert!(
            err.starts_with(&want),
            "case {i}: want {want}, got {err}\n{src}"
        );
        assert!(err.contains(msg), "case {i}: want `{msg}` in {err}");
        assert!(!out.exists(), "case {i} wrote a file");
        let _ = std::fs::remove_file(&p);
    }
}
