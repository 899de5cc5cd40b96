//! The LLVM-syntax disassembly checked by LLVM itself: text printed by wavejit is fed to
//! `llvm-mc-19 -arch=amdgcn -mcpu=<cpu> -show-encoding` and must give back the same bytes.
//! - every corpus row of every generation (decode → print → llvm-mc → the row's words);
//! - random decodable words of all three generations: whenever llvm-mc accepts the printed
//!   text, it must encode it to the same words; and for GCN 1.2, where llvm-mc also
//!   disassembles, every word whose LLVM disassembly assembles back to itself (so LLVM can
//!   write it) must be printed by wavejit as text that llvm-mc accepts and encodes the same.
//!
//! Skipped, with a note, when `llvm-mc-19` is not installed (CI installs it).

mod text_util;

use std::collections::BTreeMap;
use std::io::Write as _;
use std::process::{Command, Stdio};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use text_util::{assert_no_fails, have_mc, hex, rows, CORPORA, MC};
use wavejit_isa::gcn::decode;
use wavejit_isa::gcn::fmt::{format, Syntax};
use wavejit_isa::Gen;

/// Run llvm-mc over `lines` (one statement each). Returns, per input line, the bytes it
/// encoded to or llvm-mc's error.
fn mc(cpu: &str, lines: &[String], disassemble: bool) -> Vec<Result<(String, Vec<u8>), String>> {
    let mut cmd = Command::new(MC);
    cmd.args(["-arch=amdgcn", &format!("-mcpu={cpu}"), "-show-encoding"]);
    if disassemble {
        cmd.arg("-disassemble");
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn llvm-mc");
    let input = lines.join("\n") + "\n";
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("llvm-mc output");
    let _ = writer.join();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // `<stdin>:LINE:COL: error: ...` (the disassembler says `warning: invalid ...`).
    let mut errs: BTreeMap<usize, String> = BTreeMap::new();
    for l in stderr.lines() {
        if let Some(rest) = l.strip_prefix("<stdin>:") {
            let mut p = rest.splitn(3, ':');
            if let (Some(ln), Some(_), Some(msg)) = (p.next(), p.next(), p.next()) {
                if let Ok(n) = ln.parse::<usize>() {
                    if msg.contains("error") || disassemble {
                        errs.entry(n).or_insert_with(|| msg.trim().to_string());
                    }
                }
            }
        }
    }
    let mut encoded = Vec::new();
    for l in stdout.lines() {
        let Some((text, enc)) = l.split_once("; encoding: [") else {
            continue;
        };
        let bytes: Option<Vec<u8>> = enc
            .trim_end_matches(']')
            .split(',')
            .map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).ok())
            .collect();
        encoded.push((
            text.split_whitespace().collect::<Vec<_>>().join(" "),
            bytes.unwrap_or_default(),
        ));
    }
    let mut res = Vec::new();
    let mut k = 0;
    for (i, line) in lines.iter().enumerate() {
        if line.trim_start().starts_with('.') {
            res.push(Err("directive".into()));
        } else if let Some(e) = errs.get(&(i + 1)) {
            res.push(Err(e.clone()));
        } else if let Some(x) = encoded.get(k) {
            res.push(Ok(x.clone()));
            k += 1;
        } else {
            res.push(Err("no output".into()));
        }
    }
    assert_eq!(
        k,
        encoded.len(),
        "llvm-mc output does not align with its input"
    );
    res
}

fn bytes(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c.get(3).copied().unwrap_or(0)]))
        .collect()
}

#[test]
fn llvm_mc_encodes_printed_corpus_rows_to_their_words() {
    if !have_mc() {
        return;
    }
    let mut fails = Vec::new();
    let mut n = 0;
    for gen in Gen::ALL {
        let mut texts = Vec::new();
        let mut want = Vec::new();
        for file in CORPORA {
            for r in rows(file).into_iter().filter(|r| r.gen == gen) {
                let Ok((inst, _)) = decode(gen, &bytes(&r.words), 0) else {
                    continue;
                };
                texts.push(format(gen, &inst, 0, Syntax::Llvm));
                want.push(r);
            }
        }
        n += texts.len();
        for ((t, r), got) in texts
            .iter()
            .zip(&want)
            .zip(mc(gen.llvm_cpu(), &texts, false))
        {
            match got {
                Ok((_, b)) if b == bytes(&r.words) => {}
                Ok((_, b)) => fails.push(format!(
                    "{}:{} `{t}`: llvm-mc gives {}, row {}",
                    r.file,
                    r.line,
                    hex(&words(&b)),
                    hex(&r.words)
                )),
                Err(e) => fails.push(format!("{}:{} `{t}`: llvm-mc: {e}", r.file, r.line)),
            }
        }
    }
    assert_no_fails(&fails, &format!("of {n} rows"), 100);
    eprintln!("llvm-mc encodes all {n} printed corpus rows to their words");
}

/// Random first dwords with an encoding tag (see text_roundtrip.rs) and random rest.
fn random_decodable(gen: Gen, n: usize, seed: u64) -> Vec<(Vec<u32>, wavejit_isa::gcn::Inst)> {
    const TAGS: &[(u32, u32)] = &[
        (0xFF80_0000, 0xBE80_0000),
        (0xFF80_0000, 0xBF00_0000),
        (0xFF80_0000, 0xBF80_0000),
        (0xF000_0000, 0xB000_0000),
        (0xC000_0000, 0x8000_0000),
        (0xFE00_0000, 0x7E00_0000),
        (0xFE00_0000, 0x7C00_0000),
        (0x8000_0000, 0x0000_0000),
        (0xF800_0000, 0xC000_0000),
        (0xFC00_0000, 0xC800_0000),
        (0xFC00_0000, 0xD000_0000),
        (0xFC00_0000, 0xD400_0000),
        (0xFC00_0000, 0xD800_0000),
        (0xFC00_0000, 0xDC00_0000),
        (0xFC00_0000, 0xE000_0000),
    ];
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < n && tries < 100 * n {
        tries += 1;
        let (m, v) = TAGS[rng.random_range(0..TAGS.len())];
        let mut w0 = (rng.random::<u32>() & !m) | v;
        if w0 >> 31 == 0 || w0 >> 25 == 0x3f || w0 >> 25 == 0x3e {
            match rng.random_range(0..5) {
                0 => w0 = (w0 & !0x1FF) | 0xF9,
                1 => w0 = (w0 & !0x1FF) | 0xFA,
                2 => w0 = (w0 & !0x1FF) | rng.random_range(0x80..0xF9),
                _ => {}
            }
        }
        let w1: u32 = if rng.random_bool(0.5) {
            rng.random::<u32>() & 0x0707_07ff
        } else {
            rng.random()
        };
        let ws = [w0, w1, rng.random()];
        if let Ok((inst, size)) = decode(gen, &bytes(&ws), 0) {
            out.push((ws[..size as usize / 4].to_vec(), inst));
        }
    }
    out
}

#[test]
fn llvm_mc_encodes_printed_random_words_to_the_same_words() {
    if !have_mc() {
        return;
    }
    let mut fails = Vec::new();
    for (k, gen) in Gen::ALL.into_iter().enumerate() {
        let sample = random_decodable(gen, 4000, 0x11c + k as u64);
        let texts: Vec<String> = sample
            .iter()
            .map(|(_, i)| format(gen, i, 0, Syntax::Llvm))
            .collect();
        // (a) Whatever llvm-mc accepts of our text, it must encode to the words.
        let mut accepted = 0;
        let mine = mc(gen.llvm_cpu(), &texts, false);
        for (((w, _), t), got) in sample.iter().zip(&texts).zip(&mine) {
            if let Ok((_, b)) = got {
                if t.starts_with(".long") {
                    continue;
                }
                accepted += 1;
                if *b != bytes(w) {
                    fails.push(format!(
                        "{gen} {} `{t}`: llvm-mc encodes {}",
                        hex(w),
                        hex(&words(b))
                    ));
                }
            }
        }
        // (b) GCN 1.2: words LLVM itself can write must be written so by us too.
        let mut expressible = 0;
        if gen == Gen::Gfx8 {
            let hexlines: Vec<String> = sample
                .iter()
                .map(|(w, _)| {
                    format!(
                        "[{}]",
                        bytes(w)
                            .iter()
                            .map(|b| format!("0x{b:02x}"))
                            .collect::<Vec<_>>()
                            .join(",")
                    )
                })
                .collect();
            let dis = mc("fiji", &hexlines, true);
            let theirs: Vec<String> = dis
                .iter()
                .map(|d| {
                    d.as_ref()
                        .map(|x| x.0.clone())
                        .unwrap_or_else(|_| "s_nop 0".into())
                })
                .collect();
            let back = mc("fiji", &theirs, false);
            for (i, ((w, _), t)) in sample.iter().zip(&texts).enumerate() {
                let llvm_round_trips =
                    matches!((&dis[i], &back[i]), (Ok(_), Ok((_, b))) if *b == bytes(w));
                if !llvm_round_trips {
                    continue;
                }
                expressible += 1;
                match &mine[i] {
                    Ok((_, b)) if *b == bytes(w) => {}
                    Ok((_, b)) => fails.push(format!(
                        "{gen} {} `{t}` (LLVM: `{}`): llvm-mc encodes {}",
                        hex(w),
                        theirs[i],
                        hex(&words(b))
                    )),
                    Err(e) => fails.push(format!(
                        "{gen} {} `{t}` (LLVM: `{}`): llvm-mc rejects: {e}",
                        hex(w),
                        theirs[i]
                    )),
                }
            }
        }
        eprintln!("{gen}: {} random instructions; llvm-mc accepted {accepted} of our texts; {expressible} are words LLVM round-trips", sample.len());
    }
    assert_no_fails(&fails, "failures", 100);
}
