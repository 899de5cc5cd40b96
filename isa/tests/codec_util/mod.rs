//! Shared by the codec tests: reading the corpus copies in `tests/data/gcn/`.

#![allow(dead_code)]

use std::path::PathBuf;

use wavejit_isa::Gen;

/// `tests/data/gcn/<name>` of the workspace.
pub fn data_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/gcn")
        .join(name)
}

/// One corpus row: where it came from, the generation, LLVM's text and the dwords.
pub struct Row {
    pub file: &'static str,
    pub line: usize,
    pub gen: Gen,
    pub text: String,
    pub words: Vec<u32>,
}

impl Row {
    pub fn bytes(&self) -> Vec<u8> {
        self.words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }
    /// The mnemonic as written, without `_e32`/`_e64`/`_sdwa`/`_dpp`.
    pub fn mnemonic(&self) -> (&str, Option<&str>) {
        let m = self.text.split_whitespace().next().unwrap_or("");
        for suf in ["_e32", "_e64", "_sdwa", "_dpp"] {
            if let Some(s) = m.strip_suffix(suf) {
                return (s, Some(suf));
            }
        }
        (m, None)
    }
}

fn gen_of(mcpu: &str) -> Gen {
    match mcpu {
        "tahiti" | "gfx6" => Gen::Gfx6,
        "bonaire" | "hawaii" | "gfx7" => Gen::Gfx7,
        "fiji" | "tonga" | "gfx8" => Gen::Gfx8,
        _ => panic!("unknown generation {mcpu}"),
    }
}

fn words(hex: &str) -> Vec<u32> {
    hex.split_whitespace()
        .map(|w| u32::from_str_radix(w, 16).expect("hex dword"))
        .collect()
}

/// Rows of a `mcpu <TAB> text <TAB> words` file.
pub fn mcpu_file(file: &'static str) -> Vec<Row> {
    let text = std::fs::read_to_string(data_path(file)).expect("corpus file");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let c: Vec<&str> = l.split('\t').collect();
            assert_eq!(c.len(), 3, "{file}:{}: three columns", i + 1);
            Row {
                file,
                line: i + 1,
                gen: gen_of(c[0]),
                text: c[1].to_string(),
                words: words(c[2]),
            }
        })
        .collect()
}

/// Rows of `opcodes.tsv`: `gen encoding opcode mnemonic example_asm example_encoding`, and
/// the encoding and opcode columns.
pub fn opcodes_file() -> Vec<(Row, String, u32, String)> {
    let file = "opcodes.tsv";
    let text = std::fs::read_to_string(data_path(file)).expect("opcodes.tsv");
    text.lines()
        .enumerate()
        .skip(1)
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let c: Vec<&str> = l.split('\t').collect();
            assert_eq!(c.len(), 6, "{file}:{}: six columns", i + 1);
            let row = Row {
                file,
                line: i + 1,
                gen: gen_of(c[0]),
                text: c[4].to_string(),
                words: words(c[5]),
            };
            (
                row,
                c[1].to_string(),
                c[2].parse().expect("opcode"),
                c[3].to_string(),
            )
        })
        .collect()
}

/// (mask, value) of the tag bits of each encoding (encodings.md), so that random first
/// dwords reach every encoding (uniform dwords are half VOP2).
pub const TAGS: &[(u32, u32)] = &[
    (0xFF80_0000, 0xBE80_0000), // SOP1
    (0xFF80_0000, 0xBF00_0000), // SOPC
    (0xFF80_0000, 0xBF80_0000), // SOPP
    (0xF000_0000, 0xB000_0000), // SOPK
    (0xC000_0000, 0x8000_0000), // SOP2
    (0xFE00_0000, 0x7E00_0000), // VOP1
    (0xFE00_0000, 0x7C00_0000), // VOPC
    (0x8000_0000, 0x0000_0000), // VOP2
    (0xF800_0000, 0xC000_0000), // SMRD (gfx6/7), SMEM (gfx8)
    (0xFC00_0000, 0xC400_0000), // EXP (gfx8)
    (0xFC00_0000, 0xC800_0000), // VINTRP (gfx6/7)
    (0xFC00_0000, 0xD000_0000), // VOP3
    (0xFC00_0000, 0xD400_0000), // VINTRP (gfx8)
    (0xFC00_0000, 0xD800_0000), // DS
    (0xFC00_0000, 0xDC00_0000), // FLAT
    (0xFC00_0000, 0xE000_0000), // MUBUF
    (0xFC00_0000, 0xE800_0000), // MTBUF
    (0xFC00_0000, 0xF000_0000), // MIMG
    (0xFC00_0000, 0xF800_0000), // EXP (gfx6/7)
];
