//! Generates the VP1 scalar-unit table from `tables/vp1.tsv` (one row per opcode 0x00-0x7f).
//!
//! Called from `isa/build.rs`. Every cell is checked against the closed vocabularies below; a
//! bad row fails the build with `vp1.tsv:LINE: reason`. Output (`$OUT_DIR/vp1_table.rs`, included
//! by `isa/src/vp1/table.rs`): one enum per column vocabulary (`Kind`, `Form`, `Sign`, `Src2`,
//! `CMode`, `S2vSrc`), `static OPS: [OpDesc; 128]` indexed by opcode, and `static MNEMONICS`
//! (sorted, each with the opcodes that print that mnemonic) for the assembler.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::{env, fs, path::Path};

/// `(cell word, Rust variant, doc)` of one column vocabulary.
type Vocab = &'static [(&'static str, &'static str, &'static str)];

const KINDS: Vocab = &[
    ("mul", "Mul", "16x16 signed multiply, 32-bit result"),
    ("min", "Min", "signed 32-bit minimum (ERRATA VP1 3a: always signed)"),
    ("max", "Max", "signed 32-bit maximum (ERRATA VP1 3a: always signed)"),
    ("abs", "Abs", "two's complement absolute value"),
    ("neg", "Neg", "0 - s1"),
    ("add", "Add", "32-bit wrapping add"),
    ("sub", "Sub", "32-bit wrapping subtract"),
    ("shift", "Shift", "shift right by a 6-bit signed amount (negative = left); sign column: s = sar, u = shr"),
    ("bitop", "Bitop", "4-bit truth table on two registers (ERRATA VP1 2)"),
    ("andi", "AndImm", "s1 AND sign-extended 11-bit immediate (ERRATA VP1 1)"),
    ("xori", "XorImm", "s1 XOR sign-extended 11-bit immediate"),
    ("ori", "OrImm", "s1 OR sign-extended 11-bit immediate"),
    ("mov", "MovImm", "load a signed 19-bit immediate"),
    ("sethi", "Sethi", "replace the high 16 bits of DST"),
    ("movto", "MovTo", "$r[SRC1] to another register file (RFILE)"),
    ("movfrom", "MovFrom", "another register file (RFILE) to $r[DST]"),
    ("bmin", "Bmin", "bytewise minimum, clipped"),
    ("bmax", "Bmax", "bytewise maximum, clipped"),
    ("babs", "Babs", "bytewise absolute value, clipped"),
    ("bneg", "Bneg", "bytewise negation, clipped"),
    ("badd", "Badd", "bytewise add, clipped"),
    ("bsub", "Bsub", "bytewise subtract, clipped"),
    ("bshr", "Bshr", "bytewise shift by a 4-bit signed amount, not clipped (vp1-notes 5)"),
    ("band", "Band", "AND with a byte immediate replicated 4 times"),
    ("bor", "Bor", "OR with a byte immediate replicated 4 times"),
    ("bxor", "Bxor", "XOR with a byte immediate replicated 4 times"),
    ("bmul", "Bmul", "bmul datapath subop 1: writes DST, RND honoured, s2v factors = p >> 8"),
    ("bmula", "Bmula", "bmul datapath subop 2 (\"bad opcode\"): writes DST, RND honoured, s2v factors = p"),
    ("bmulf", "BmulFactor", "bmul datapath subop 0: no register write, RND ignored, s2v factors = p >> 8"),
    ("bmulfa", "BmulFactorRaw", "bmul datapath subop 3: no register write, RND honoured, s2v factors = p"),
    ("bmulx", "BmulDefault", "undocumented bmul datapath with every flag defaulted: unsigned, no rounding, factors = p, no register write"),
    ("vec", "Vec", "s2v: two 9-bit immediate factors"),
    ("vecms", "Vecms", "s2v: 4-bit mask of $r[SRC1], then $r[SRC1] >>= 4 (arithmetic)"),
    ("bvec", "Bvec", "s2v: the 4 bytes of $r[SRC1], doubled"),
    ("bvecmad", "Bvecmad", "s2v: baseline*256 + prefactor*multiplicand per byte"),
    ("bvecmadsel", "Bvecmadsel", "s2v: like bvecmad with a 7-bit prefactor and a lane selection"),
    ("snop", "Snop", "the canonical scalar nop (0x4f)"),
    ("unused", "Unused", "an opcode with no operation; only its $c behaviour (vp1-notes 4)"),
];

const FORMS: Vocab = &[
    ("bmul_r", "BmulR", "`bmul rd|rn s|u DST s|u SRC1 s|u SRC2`"),
    (
        "bmul_i",
        "BmulI",
        "`bmul rd|rn s|u DST s|u SRC1 s|u BIMMMUL<<2`",
    ),
    (
        "bmula_i",
        "BmulaI",
        "`bmula rd|rn s|u DST s|u SRC1 s|u BIMMBAD`",
    ),
    (
        "vecmad",
        "Vecmad",
        "`bvecmad SRC1 SRC2q $cCOND <flag> $vcIDX sf|zf XFRM`",
    ),
    ("byte_r", "ByteR", "`bmin s|u DST [$cCDST] SRC1 SRC2S`"),
    ("byte_i", "ByteI", "`bmin s|u DST [$cCDST] SRC1 BIMM`"),
    ("byte_u", "ByteU", "`babs s|u DST [$cCDST] SRC1`"),
    ("vsend", "Vsend", "`bvec SRC1 $vcIDX sf|zf XFRM`"),
    ("vec", "Vec", "`vec FACTOR1 FACTOR2 $vcIDX sf|zf XFRM`"),
    ("blog", "Blog", "`band DST SRC1 BIMM`"),
    ("arith_r", "ArithR", "`add DST [$cCDST] SRC1 SRC2S`"),
    ("arith_i", "ArithI", "`add DST [$cCDST] SRC1 IMM`"),
    ("unary", "Unary", "`abs DST [$cCDST] SRC1`"),
    (
        "bitop",
        "Bitop",
        "`bitop BITOP DST [$cCDST] SRC1 SRC2` or one of its aliases (and, or, nor, ...)",
    ),
    ("mov_i", "MovI", "`mov DST IMM19`"),
    ("sethi", "Sethi", "`sethi DST IMM16<<16`"),
    ("movto", "MovTo", "`mov $<file>N SRC1`"),
    ("movfrom", "MovFrom", "`mov DST $<file>N`"),
    ("snop", "Snop", "`snop`"),
    (
        "raw",
        "Raw",
        "no envydis syntax (`???`): printed and assembled as `.word`",
    ),
];

const SIGNS: Vocab = &[
    ("s", "S", "signed (printed `s`)"),
    ("u", "U", "unsigned (printed `u`)"),
    ("-", "None", "no signedness"),
];

const SRC2S: Vocab = &[
    ("reg", "Reg", "$r[SRC2], not mangled"),
    (
        "mangled",
        "Mangled",
        "$r[SRC2S]: SRC2 mangled by $c[COND] and SLCT",
    ),
    ("imm", "Imm", "IMM: signed 11-bit, bits 3-13"),
    (
        "bimm",
        "Bimm",
        "BIMM: byte, bits 3-10, replicated to 4 lanes",
    ),
    (
        "bimmmul",
        "BimmMul",
        "BIMMMUL << 2: bits 9-13 low, bit 0 high, replicated",
    ),
    ("bimmbad", "BimmBad", "BIMMBAD: byte, bits 0-7, replicated"),
    (
        "quad",
        "Quad",
        "bvecmad's pair $r[SRC2 | u] and $r[SRC2 | 2 | u]",
    ),
    ("none", "None", "no second source"),
];

const CMODES: Vocab = &[
    ("full", "Full", "every scalar flag; b20d against $r[SRC1]"),
    (
        "fullzero",
        "FullZero",
        "every scalar flag; b20d against 0 (neg, ERRATA VP1 3)",
    ),
    ("part", "Part", "no sf and no b20d"),
    ("zero", "Zero", "writes 0 to $c[CDST]"),
    ("none", "None", "never writes $c"),
];

const S2VS: Vocab = &[
    (
        "junk",
        "Junk",
        "the default pattern: a 4-bit mask of $r[SRC1] (vp1-notes 6); $vc selection not valid",
    ),
    (
        "zero",
        "Zero",
        "factors 0 (byte-lane operations); $vc selection not valid",
    ),
    (
        "bmul",
        "Bmul",
        "factors from the bmul datapath (per kind); $vc selection not valid",
    ),
    ("send", "Send", "factors per kind and a valid $vc selection"),
];

fn fail(line: usize, msg: &str) -> ! {
    panic!("isa/tables/vp1.tsv:{line}: {msg}");
}

fn lookup(v: Vocab, cell: &str, line: usize, what: &str) -> &'static str {
    v.iter()
        .find(|(w, _, _)| *w == cell)
        .map(|(_, r, _)| *r)
        .unwrap_or_else(|| fail(line, &format!("unknown {what} `{cell}`")))
}

fn emit_enum(out: &mut String, name: &str, doc: &str, v: Vocab) {
    writeln!(out, "/// {doc}").ok();
    writeln!(out, "#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]").ok();
    writeln!(out, "pub enum {name} {{").ok();
    for (w, r, d) in v {
        writeln!(out, "    /// `{w}`: {d}").ok();
        writeln!(out, "    {r},").ok();
    }
    writeln!(out, "}}\n").ok();
}

pub fn generate() {
    println!("cargo:rerun-if-changed=tables/vp1.tsv");
    println!("cargo:rerun-if-changed=build/vp1.rs");
    let text = fs::read_to_string("tables/vp1.tsv").expect("read tables/vp1.tsv");

    struct Row {
        line: usize,
        op: u8,
        kind: &'static str,
        mnemonic: Option<String>,
        form: &'static str,
        sign: &'static str,
        src2: &'static str,
        cmode: &'static str,
        s2v: &'static str,
    }
    let mut rows: Vec<Row> = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let line = i + 1;
        if l.starts_with('#') || l.trim().is_empty() {
            continue;
        }
        let c: Vec<&str> = l.split('\t').collect();
        if c.len() != 8 {
            fail(line, &format!("expected 8 columns, found {}", c.len()));
        }
        let op = c[0]
            .strip_prefix("0x")
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .unwrap_or_else(|| fail(line, &format!("bad opcode `{}`", c[0])));
        if op as usize != rows.len() {
            fail(
                line,
                &format!("opcode 0x{op:02x} out of order: rows must be 0x00..0x7f in order"),
            );
        }
        let form = lookup(FORMS, c[3], line, "form");
        let mnemonic = match (c[2], form) {
            ("-", "Raw") => None,
            ("-", _) => fail(line, "only the `raw` form has no mnemonic"),
            (_, "Raw") => fail(line, "the `raw` form has no envydis mnemonic: write `-`"),
            (m, _) => {
                if !m.chars().all(|ch| ch.is_ascii_lowercase()) {
                    fail(line, "mnemonic must be lowercase letters");
                }
                Some(m.to_string())
            }
        };
        rows.push(Row {
            line,
            op,
            kind: lookup(KINDS, c[1], line, "kind"),
            mnemonic,
            form,
            sign: lookup(SIGNS, c[4], line, "sign"),
            src2: lookup(SRC2S, c[5], line, "src2"),
            cmode: lookup(CMODES, c[6], line, "cmode"),
            s2v: lookup(S2VS, c[7], line, "s2v"),
        });
    }
    if rows.len() != 128 {
        panic!(
            "isa/tables/vp1.tsv: {} rows; the scalar unit has exactly 128 opcodes",
            rows.len()
        );
    }
    // Shapes that the decoder, printer and interpreter rely on.
    for r in &rows {
        let ok = match r.form {
            "ByteR" | "ArithR" => r.src2 == "Mangled",
            "ByteI" | "Blog" => r.src2 == "Bimm",
            "ArithI" => r.src2 == "Imm",
            "BmulR" => r.src2 == "Reg",
            "BmulI" => r.src2 == "BimmMul",
            "BmulaI" => r.src2 == "BimmBad",
            "Vecmad" => r.src2 == "Quad",
            "Bitop" => r.src2 == "Reg",
            _ => r.src2 != "Mangled" || r.form == "Raw",
        };
        if !ok {
            fail(
                r.line,
                &format!("src2 `{}` does not fit form `{}`", r.src2, r.form),
            );
        }
        let signed_form = matches!(
            r.form,
            "BmulR" | "BmulI" | "BmulaI" | "ByteR" | "ByteI" | "ByteU"
        );
        if signed_form && r.sign == "None" {
            fail(
                r.line,
                "this form prints s|u: the sign column must be s or u",
            );
        }
        if (r.s2v == "Send")
            != matches!(r.kind, "Vec" | "Vecms" | "Bvec" | "Bvecmad" | "Bvecmadsel")
        {
            fail(
                r.line,
                "exactly vec, vecms, bvec, bvecmad and bvecmadsel send a valid s2v",
            );
        }
    }

    // The canonical opcode of a row: the lowest opcode printing the same text shape (same
    // mnemonic, form and sign), which is what the assembler produces for that text.
    let canon: Vec<u8> = rows
        .iter()
        .map(|r| {
            rows.iter()
                .find(|o| {
                    o.mnemonic.is_some()
                        && o.mnemonic == r.mnemonic
                        && o.form == r.form
                        && o.sign == r.sign
                })
                .map_or(r.op, |o| o.op)
        })
        .collect();
    for (r, &c) in rows.iter().zip(&canon) {
        if c & !r.op != 0 {
            fail(
                r.line,
                "the canonical opcode must be a bit-subset of every opcode sharing its text",
            );
        }
    }

    let mut mn: BTreeMap<&str, Vec<u8>> = BTreeMap::new();
    for r in &rows {
        if let Some(m) = &r.mnemonic {
            mn.entry(m.as_str()).or_default().push(r.op);
        }
    }

    let mut out = String::new();
    writeln!(
        out,
        "// @generated by isa/build/vp1.rs from isa/tables/vp1.tsv. Do not edit.\n"
    )
    .ok();
    emit_enum(
        &mut out,
        "Kind",
        "What a VP1 scalar opcode does (the `kind` column).",
        KINDS,
    );
    emit_enum(
        &mut out,
        "Form",
        "How a VP1 scalar opcode is written (the `form` column).",
        FORMS,
    );
    emit_enum(
        &mut out,
        "Sign",
        "Signedness printed and used (the `sign` column).",
        SIGNS,
    );
    emit_enum(
        &mut out,
        "Src2",
        "Where the second source comes from (the `src2` column).",
        SRC2S,
    );
    emit_enum(
        &mut out,
        "CMode",
        "Which scalar `$c` flags an opcode writes (the `cmode` column).",
        CMODES,
    );
    emit_enum(
        &mut out,
        "S2vSrc",
        "What an opcode drives on the s2v bus (the `s2v` column).",
        S2VS,
    );
    writeln!(
        out,
        "/// Every scalar opcode, indexed by opcode (`OPS[op]`)."
    )
    .ok();
    writeln!(out, "pub static OPS: [OpDesc; 128] = [").ok();
    for (r, c) in rows.iter().zip(&canon) {
        writeln!(
            out,
            "    OpDesc {{ opcode: 0x{:02x}, kind: Kind::{}, mnemonic: {}, form: Form::{}, sign: Sign::{}, src2: Src2::{}, cmode: CMode::{}, s2v: S2vSrc::{}, canon: 0x{:02x}, line: {} }},",
            r.op,
            r.kind,
            r.mnemonic.as_ref().map_or("None".to_string(), |m| format!("Some({m:?})")),
            r.form,
            r.sign,
            r.src2,
            r.cmode,
            r.s2v,
            c,
            r.line
        )
        .ok();
    }
    writeln!(out, "];\n").ok();
    writeln!(
        out,
        "/// Every envydis mnemonic, sorted, with the opcodes that print it (ascending)."
    )
    .ok();
    writeln!(
        out,
        "pub static MNEMONICS: [(&str, &[u8]); {}] = [",
        mn.len()
    )
    .ok();
    for (m, ops) in &mn {
        let list: Vec<String> = ops.iter().map(|o| format!("0x{o:02x}")).collect();
        writeln!(out, "    ({m:?}, &[{}]),", list.join(", ")).ok();
    }
    writeln!(out, "];").ok();

    let dst = Path::new(&env::var("OUT_DIR").expect("OUT_DIR")).join("vp1_table.rs");
    fs::write(dst, out).expect("write vp1_table.rs");
}
