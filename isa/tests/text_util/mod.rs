//! Shared helpers of the text (assembler/disassembler) tests: reading the LLVM corpora copied
//! into `tests/data/gcn/` and collecting failures so that a runner reports every bad line.

#![allow(dead_code)]

use std::path::PathBuf;

use std::process::{Command, Stdio};

use wavejit_isa::Gen;

/// Fail with the count of `fails` and `what` they are failures of (`"of 200 rows"`), and
/// the first `shown` of them, one a line; pass when there are none.
pub fn assert_no_fails(fails: &[String], what: &str, shown: usize) {
    assert!(
        fails.is_empty(),
        "{} {what}:\n{}",
        fails.len(),
        fails[..fails.len().min(shown)].join("\n")
    );
}

/// One corpus row: generation, LLVM text, dwords (low first), file and line for messages.
#[derive(Clone, Debug)]
pub struct Row {
    pub gen: Gen,
    pub text: String,
    pub words: Vec<u32>,
    pub file: &'static str,
    pub line: usize,
}

pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/gcn")
}

fn gen_of(cpu: &str) -> Gen {
    match cpu {
        "tahiti" | "gfx6" => Gen::Gfx6,
        "bonaire" | "gfx7" => Gen::Gfx7,
        "fiji" | "gfx8" => Gen::Gfx8,
        _ => panic!("unknown cpu {cpu}"),
    }
}

fn words(s: &str) -> Vec<u32> {
    s.split_whitespace()
        .map(|w| u32::from_str_radix(w, 16).expect("hex word"))
        .collect()
}

/// Rows of `tahiti/bonaire/fiji/vop3_seed_ops.tsv` (`cpu, text, words`) or `opcodes.tsv`
/// (`gen, encoding, opcode, mnemonic, text, words`).
pub fn rows(file: &'static str) -> Vec<Row> {
    let path = data_dir().join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let c: Vec<&str> = l.split('\t').collect();
        // The columns of the text and the words: opcodes.tsv (after its header) has the
        // encoding and opcode between.
        let (text, hex) = if file == "opcodes.tsv" {
            (4, 5)
        } else {
            (1, 2)
        };
        if c.len() <= hex || (file == "opcodes.tsv" && i == 0) {
            continue;
        }
        out.push(Row {
            gen: gen_of(c[0]),
            text: c[text].to_string(),
            words: words(c[hex]),
            file,
            line: i + 1,
        });
    }
    out
}

/// Every GCN corpus file.
pub const CORPORA: [&str; 5] = [
    "tahiti.tsv",
    "bonaire.tsv",
    "fiji.tsv",
    "vop3_seed_ops.tsv",
    "opcodes.tsv",
];

/// Whitespace-normalised text.
pub fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub fn hex(w: &[u32]) -> String {
    w.iter()
        .map(|x| format!("{x:08x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Failures of one runner; `finish` panics listing them all (first 200) and the count.
#[derive(Default)]
pub struct Failures {
    pub list: Vec<String>,
    pub checked: usize,
}

impl Failures {
    pub fn fail(&mut self, r: &Row, what: String) {
        self.list.push(format!(
            "{}:{} [{}] `{}` {}: {what}",
            r.file,
            r.line,
            r.gen,
            r.text,
            hex(&r.words)
        ));
    }
    pub fn finish(&self, name: &str) {
        if !self.list.is_empty() {
            let shown: Vec<&String> = self.list.iter().take(200).collect();
            panic!(
                "{name}: {} of {} rows fail:\n{}",
                self.list.len(),
                self.checked,
                shown
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join("\n")
            );
        }
        eprintln!("{name}: {} rows ok", self.checked);
    }
}

/// LLVM's assembler, the oracle of the text tests.
pub const MC: &str = "llvm-mc-19";

/// Whether llvm-mc-19 runs (a note says so when it does not). Absent, the checks skip with a note — unless
/// `WAVEJIT_REQUIRE_ORACLES` is set (CI sets it after installing the tools), where a
/// missing oracle is a failure rather than a quiet skip.
pub fn have_mc() -> bool {
    let ok = Command::new(MC)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        ok || std::env::var_os("WAVEJIT_REQUIRE_ORACLES").is_none(),
        "{MC} is not installed but WAVEJIT_REQUIRE_ORACLES is set"
    );
    if !ok {
        eprintln!("note: {MC} not installed; skipping the llvm-mc check");
    }
    ok
}

/// The rows of a tab-separated table of `tests/data/gcn/<name>` (`#` comments and blank
/// lines skipped): the 0-based line index and the cells.
pub fn table(name: &str) -> Vec<(usize, Vec<String>)> {
    let path = data_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| (i, l.split('\t').map(String::from).collect()))
        .collect()
}
