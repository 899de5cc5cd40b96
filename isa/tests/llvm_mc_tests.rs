//! Conformance with LLVM's own assembler tests: the statements of llvm/test/MC/AMDGPU/*.s
//! whose RUN lines name a GCN 1.0-1.2 target, decided by llvm-mc 19 for tahiti, bonaire and
//! fiji (`tests/data/gcn/llvm_tests/lines.tsv`, made by `make.py` beside it). Per
//! generation:
//! - `assemble`: every statement llvm-mc accepts assembles to llvm-mc's bytes;
//! - `reject`: every statement llvm-mc rejects for an operand, constant-bus, alignment,
//!   modifier or availability reason is rejected too;
//! - `roundtrip`: every accepted encoding decodes, prints in LLVM syntax and assembles back
//!   to the same bytes;
//! - `text` (GCN 1.2): the LLVM-syntax disassembly equals `llvm-mc-19 -disassemble`'s text.
//!
//! Deliberate differences are listed in `exceptions.txt` beside the data (`check <TAB> gen
//! <TAB> pattern <TAB> why`: the statements that contain the pattern). What does not hold yet is listed in `known.txt` (`check <TAB> gen <TAB>
//! statement <TAB> what happens`). A failure in neither list fails the test, and so does a
//! line of `known.txt` that now passes (the list only shrinks). `WAVEJIT_BLESS_KNOWN=1`
//! rewrites `known.txt` from the current failures.
//!
//! When llvm-mc-19 is installed (required with `WAVEJIT_REQUIRE_ORACLES`), a sample of the
//! stored facts is checked against it live.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use wavejit_isa::gcn::asm::assemble;
use wavejit_isa::gcn::decode;
use wavejit_isa::gcn::fmt::{format, Syntax};
use wavejit_isa::Gen;

mod text_util;
use text_util::{have_mc, MC};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/gcn/llvm_tests")
}

/// What llvm-mc says of one statement for one target.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Fact {
    Bytes(Vec<u8>),
    Rejected(String),
}

struct Line {
    text: String,
    /// tahiti, bonaire, fiji.
    facts: [Fact; 3],
    /// `llvm-mc-19 -disassemble -mcpu=fiji` text of the fiji bytes, if it round-trips.
    fiji_text: Option<String>,
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex byte"))
        .collect()
}

fn hexs(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn lines() -> Vec<Line> {
    let path = dir().join("lines.tsv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    for (n, l) in text.lines().enumerate() {
        if l.starts_with('#') {
            continue;
        }
        let c: Vec<&str> = l.split('\t').collect();
        assert_eq!(c.len(), 5, "lines.tsv:{}: five columns", n + 1);
        let mut facts: Vec<Fact> = Vec::new();
        for cell in &c[1..4] {
            let f = match *cell {
                "=" => facts.last().cloned().expect("`=` after a column"),
                s if s.starts_with('!') => Fact::Rejected(s[1..].to_string()),
                s => Fact::Bytes(unhex(s)),
            };
            facts.push(f);
        }
        let fiji_text = match c[4] {
            "-" => None,
            "=" => Some(c[0].to_string()),
            s => Some(s.to_string()),
        };
        out.push(Line {
            text: c[0].to_string(),
            facts: [facts[0].clone(), facts[1].clone(), facts[2].clone()],
            fiji_text,
        });
    }
    out
}

/// Rejections that are about the instruction's operands, modifiers or availability (not
/// about LLVM-only syntax such as expressions), which the assembler must share.
fn must_reject(msg: &str) -> bool {
    const WORDS: [&str; 11] = [
        "constant bus",
        "alignment",
        "operand",
        "literal",
        "clamp",
        "out of range",
        "does not match",
        "variant of this instruction is not supported",
        "not supported on this GPU",
        "not available on this GPU",
        "invalid instruction",
    ];
    WORDS.iter().any(|w| msg.contains(w))
}

fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn asm_bytes(gen: Gen, text: &str) -> Result<Vec<u8>, String> {
    assemble(gen, text)
        .map(|a| a.bytes)
        .map_err(|e| e.to_string())
}

/// Runs every check and returns the failures as `(check, gen, statement) → what`, and the
/// pass counts per check and generation.
#[allow(clippy::type_complexity)]
fn run_all() -> (
    BTreeMap<(String, String, String), String>,
    BTreeMap<(String, Gen), (usize, usize)>,
) {
    let mut fails = BTreeMap::new();
    let mut counts: BTreeMap<(String, Gen), (usize, usize)> = BTreeMap::new();
    let mut tally = |check: &str, gen: Gen, ok: bool| {
        let e = counts.entry((check.to_string(), gen)).or_default();
        e.1 += 1;
        if ok {
            e.0 += 1;
        }
    };
    for line in lines() {
        for (k, gen) in Gen::ALL.into_iter().enumerate() {
            let mut fail = |check: &str, what: String| {
                fails.insert(
                    (check.to_string(), gen.to_string(), line.text.clone()),
                    what,
                );
            };
            match &line.facts[k] {
                Fact::Bytes(want) => {
                    let got = asm_bytes(gen, &line.text);
                    let ok = got.as_ref() == Ok(want);
                    tally("assemble", gen, ok);
                    if !ok {
                        fail(
                            "assemble",
                            match got {
                                Ok(b) => format!("gives {}, llvm-mc {}", hexs(&b), hexs(want)),
                                Err(e) => format!("error: {e}"),
                            },
                        );
                    }
                    // The disassembly of LLVM's bytes, assembled back.
                    let printed = decode(gen, want, 0)
                        .map_err(|e| format!("decode: {e}"))
                        .and_then(|(inst, size)| {
                            if size as usize != want.len() {
                                return Err(format!("decoded {size} of {} bytes", want.len()));
                            }
                            Ok(format(gen, &inst, 0, Syntax::Llvm))
                        });
                    let back = printed
                        .clone()
                        .and_then(|t| asm_bytes(gen, &t).map_err(|e| format!("`{t}`: {e}")));
                    let ok = back.as_ref() == Ok(want);
                    tally("roundtrip", gen, ok);
                    if !ok {
                        fail(
                            "roundtrip",
                            match back {
                                Ok(b) => format!(
                                    "`{}` gives {}",
                                    printed.clone().unwrap_or_default(),
                                    hexs(&b)
                                ),
                                Err(e) => e,
                            },
                        );
                    }
                    if gen == Gen::Gfx8 {
                        if let (Some(theirs), Ok(mine)) = (&line.fiji_text, &printed) {
                            let ok = norm(theirs) == norm(mine);
                            tally("text", gen, ok);
                            if !ok {
                                fail("text", format!("`{mine}`, llvm-mc `{theirs}`"));
                            }
                        }
                    }
                }
                Fact::Rejected(msg) if must_reject(msg) => {
                    let got = asm_bytes(gen, &line.text);
                    tally("reject", gen, got.is_err());
                    if let Ok(b) = got {
                        fail("reject", format!("gives {}; llvm-mc: {msg}", hexs(&b)));
                    }
                }
                Fact::Rejected(_) => {}
            }
        }
    }
    (fails, counts)
}

/// `(check, gen, pattern)` of the deliberate differences.
fn exceptions() -> Vec<(String, String, String)> {
    let path = dir().join("exceptions.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let c: Vec<&str> = l.splitn(4, '\t').collect();
            assert_eq!(c.len(), 4, "exceptions.txt: `{l}` needs a reason");
            (c[0].to_string(), c[1].to_string(), c[2].to_string())
        })
        .collect()
}

fn known() -> BTreeMap<(String, String, String), String> {
    let path = dir().join("known.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let c: Vec<&str> = l.splitn(4, '\t').collect();
            assert!(c.len() >= 3, "known.txt: `{l}`");
            (
                (c[0].to_string(), c[1].to_string(), c[2].to_string()),
                c.get(3).unwrap_or(&"").to_string(),
            )
        })
        .collect()
}

#[test]
fn llvm_mc_tests_conform() {
    let (mut fails, counts) = run_all();
    let excused = exceptions();
    let before = fails.len();
    fails.retain(|(c, g, t), _| {
        !excused
            .iter()
            .any(|(ec, eg, p)| ec == c && eg == g && t.contains(p.as_str()))
    });
    eprintln!("{} failures are listed exceptions", before - fails.len());
    for ((check, gen), (ok, n)) in &counts {
        eprintln!("{check:9} {gen}: {ok} of {n}");
    }
    if std::env::var_os("WAVEJIT_BLESS_KNOWN").is_some() {
        let mut f = std::fs::File::create(dir().join("known.txt")).expect("known.txt");
        writeln!(
            f,
            "# Statements of lines.tsv that do not conform yet: check, gen, statement, what happens."
        )
        .expect("write");
        for ((c, g, t), what) in &fails {
            writeln!(f, "{c}\t{g}\t{t}\t{what}").expect("write");
        }
        return;
    }
    let known = known();
    let new: Vec<String> = fails
        .iter()
        .filter(|(k, _)| !known.contains_key(*k))
        .map(|((c, g, t), w)| format!("{c} {g} `{t}`: {w}"))
        .collect();
    let fixed: Vec<String> = known
        .keys()
        .filter(|k| !fails.contains_key(*k))
        .map(|(c, g, t)| format!("{c} {g} `{t}`"))
        .collect();
    assert!(
        new.is_empty() && fixed.is_empty(),
        "{} new failures:\n{}\n{} lines of known.txt now pass (remove them):\n{}",
        new.len(),
        new.iter().take(150).cloned().collect::<Vec<_>>().join("\n"),
        fixed.len(),
        fixed
            .iter()
            .take(50)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n"),
    );
}

/// The stored facts still hold: every 40th statement, per target, through llvm-mc again
/// (each statement followed by a `.long N` marker that aligns the output with the input).
#[test]
fn stored_facts_agree_with_llvm_mc() {
    if !have_mc() {
        return;
    }
    let sample: Vec<Line> = lines().into_iter().step_by(40).collect();
    let mut bad = Vec::new();
    for (k, gen) in Gen::ALL.into_iter().enumerate() {
        let input: String = sample
            .iter()
            .enumerate()
            .map(|(i, l)| format!("{}\n.long {i}\n", l.text))
            .collect();
        let mut child = Command::new(MC)
            .args([
                "-arch=amdgcn",
                &format!("-mcpu={}", gen.llvm_cpu()),
                "-show-encoding",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn llvm-mc");
        let mut stdin = child.stdin.take().expect("stdin");
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
        let out = child.wait_with_output().expect("llvm-mc output");
        let _ = writer.join();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let rejected: BTreeSet<usize> = stderr
            .lines()
            .filter_map(|l| {
                let rest = l.strip_prefix("<stdin>:")?;
                let (n, msg) = rest.split_once(':')?;
                msg.contains("error").then(|| n.parse::<usize>().ok())?
            })
            .map(|n| (n - 1) / 2)
            .collect();
        let mut enc: Vec<Option<Vec<u8>>> = vec![None; sample.len()];
        let mut cur = None;
        for l in String::from_utf8_lossy(&out.stdout).lines() {
            if let Some((_, e)) = l.split_once("; encoding: [") {
                cur = Some(
                    e.trim_end_matches(']')
                        .split(',')
                        .filter_map(|b| {
                            u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).ok()
                        })
                        .collect::<Vec<u8>>(),
                );
            } else if let Some(n) = l.trim().strip_prefix(".long") {
                if let Ok(i) = n.trim().parse::<usize>() {
                    enc[i] = cur.take();
                }
            }
        }
        for (i, l) in sample.iter().enumerate() {
            let ok = match &l.facts[k] {
                Fact::Bytes(b) => !rejected.contains(&i) && enc[i].as_ref() == Some(b),
                Fact::Rejected(_) => rejected.contains(&i),
            };
            if !ok {
                bad.push(format!("{gen} `{}`: stored {:?}", l.text, l.facts[k]));
            }
        }
    }
    assert!(bad.is_empty(), "stale facts:\n{}", bad.join("\n"));
}
