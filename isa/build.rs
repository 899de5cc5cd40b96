//! Generates the GCN instruction table from `tables/gcn.tsv` (STYLE.md: "TSV + build.rs").
//!
//! Every cell is checked against a closed vocabulary; a bad row fails the build with
//! `gcn.tsv:LINE: reason`. Output (`$OUT_DIR/gcn_table.rs`): `enum Op` (one variant per
//! mnemonic, documented with its rows) and `static ROWS` (one per mnemonic and native
//! encoding, with the opcode of each generation, the operand signature and the field that
//! holds each operand, natively and in the VOP3 twin; the layout must name one field per
//! signature operand).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::{env, fs, path::Path};

// The VP1 table generator lives in its own file.
#[path = "build/vp1.rs"]
mod vp1;

const ENCS: &[(&str, &str)] = &[
    ("sop2", "Sop2"),
    ("sopk", "Sopk"),
    ("sop1", "Sop1"),
    ("sopc", "Sopc"),
    ("sopp", "Sopp"),
    ("smrd", "Smrd"),
    ("smem", "Smem"),
    ("vop1", "Vop1"),
    ("vop2", "Vop2"),
    ("vopc", "Vopc"),
    ("vop3", "Vop3"),
    ("vop3b", "Vop3b"),
    ("vintrp", "Vintrp"),
    ("ds", "Ds"),
    ("mubuf", "Mubuf"),
    ("mtbuf", "Mtbuf"),
    ("mimg", "Mimg"),
    ("flat", "Flat"),
    ("exp", "Exp"),
];

const SIG_WORDS: &[&str] = &[
    "v1", "v2", "v3", "v4", "v5", "v8", "v16", "s1", "s2", "s3", "s4", "s8", "s16", "vcc", "exec",
    "imm", "off", "m0", "scc", "attr", "p", "hwreg", "sendmsg", "waitcnt", "gpr_idx", "tgt",
];

/// Encoding fields a `layout` cell may name (see gen_gcn_tsv.py), and their `Field` variant.
const FIELDS: &[(&str, &str)] = &[
    ("vdst", "Vdst"),
    ("sdst", "Sdst"),
    ("src0", "Src0"),
    ("src1", "Src1"),
    ("src2", "Src2"),
    ("vsrc1", "Vsrc1"),
    ("ssrc0", "Ssrc0"),
    ("ssrc1", "Ssrc1"),
    ("simm16", "Simm16"),
    ("sbase", "Sbase"),
    ("sdata", "Sdata"),
    ("offset", "Offset"),
    ("vsrc", "Vsrc"),
    ("attr", "Attr"),
    ("addr", "Addr"),
    ("data0", "Data0"),
    ("data1", "Data1"),
    ("vdata", "Vdata"),
    ("vaddr", "Vaddr"),
    ("srsrc", "Srsrc"),
    ("soffset", "Soffset"),
    ("ssamp", "Ssamp"),
    ("data", "Data"),
    ("tgt", "Tgt"),
    ("vsrc0", "Vsrc0"),
    ("vsrc2", "Vsrc2"),
    ("vsrc3", "Vsrc3"),
    ("lit", "Lit"),
    ("vcc", "Vcc"),
];

/// A `layout` cell as Rust (`&[Field::Vdst, ...]`), checked against the signature.
fn layout(line: usize, cell: &str, sig: &str, what: &str) -> String {
    if cell == "-" {
        return "&[]".into();
    }
    let n_sig = sig
        .split('+')
        .next()
        .unwrap_or("")
        .split(',')
        .filter(|w| !w.is_empty())
        .count();
    let mut out = Vec::new();
    for f in cell.split(',') {
        match FIELDS.iter().find(|(k, _)| *k == f) {
            Some((_, v)) => out.push(format!("Field::{v}")),
            None => fail(line, &format!("unknown field `{f}` in {what}")),
        }
    }
    if out.len() != n_sig {
        fail(
            line,
            &format!("{what} names {} fields for {n_sig} operands", out.len()),
        );
    }
    format!("&[{}]", out.join(", "))
}

fn camel(m: &str) -> String {
    m.split('_')
        .map(|p| {
            let mut c = p.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

fn fail(line: usize, msg: &str) -> ! {
    panic!("isa/tables/gcn.tsv:{line}: {msg}");
}

fn main() {
    vp1::generate();
    let path = Path::new("tables/gcn.tsv");
    println!("cargo:rerun-if-changed=tables/gcn.tsv");
    println!("cargo:rerun-if-changed=build.rs");
    let text = fs::read_to_string(path).expect("read tables/gcn.tsv");

    struct Row {
        line: usize,
        mnemonic: String,
        enc: &'static str,
        ops: [Option<u16>; 3],
        e64: [bool; 3],
        sig: String,
        alias: Option<String>,
        layout: String,
        layout64: String,
    }
    let mut rows = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let line = i + 1;
        if l.starts_with('#') || l.trim().is_empty() {
            continue;
        }
        let c: Vec<&str> = l.split('\t').collect();
        if c.len() != 10 {
            fail(line, &format!("expected 10 columns, found {}", c.len()));
        }
        if !c[0]
            .chars()
            .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '_')
        {
            fail(line, "mnemonic must be lowercase [a-z0-9_]");
        }
        let enc = ENCS
            .iter()
            .find(|(k, _)| *k == c[1])
            .map(|(_, v)| *v)
            .unwrap_or_else(|| fail(line, &format!("unknown encoding `{}`", c[1])));
        let mut ops = [None; 3];
        for g in 0..3 {
            let cell = c[2 + g];
            if cell != "-" {
                let v: u16 = cell
                    .parse()
                    .unwrap_or_else(|_| fail(line, &format!("bad opcode `{cell}`")));
                ops[g] = Some(v);
            }
        }
        if ops.iter().all(|o| o.is_none()) {
            fail(line, "row exists in no generation");
        }
        let mut e64 = [false; 3];
        if c[5] != "-" {
            for ch in c[5].chars() {
                match ch {
                    '6' => e64[0] = true,
                    '7' => e64[1] = true,
                    '8' => e64[2] = true,
                    _ => fail(line, "e64 must be digits 6/7/8 or -"),
                }
            }
        }
        for g in 0..3 {
            if e64[g] && ops[g].is_none() {
                fail(line, "e64 names a generation where the row has no opcode");
            }
        }
        if c[6] != "-" {
            for part in c[6].split([',', '+']).filter(|p| !p.is_empty()) {
                if !SIG_WORDS.contains(&part) && part != "gds" && part != "high" {
                    fail(line, &format!("unknown signature word `{part}`"));
                }
            }
        }
        let sig = if c[6] == "-" { "" } else { c[6] };
        let layout64 = if e64.iter().any(|&e| e) {
            if c[9] == "-" && !sig.is_empty() {
                fail(line, "a row with a VOP3 twin and operands needs layout64");
            }
            layout(line, c[9], sig, "layout64")
        } else if c[9] != "-" {
            fail(line, "layout64 given for a row without a VOP3 twin")
        } else {
            "&[]".into()
        };
        rows.push(Row {
            layout: layout(line, c[8], sig, "layout"),
            layout64,
            line,
            mnemonic: c[0].to_string(),
            enc,
            ops,
            e64,
            sig: if c[6] == "-" {
                String::new()
            } else {
                c[6].to_string()
            },
            alias: (c[7] != "-").then(|| c[7].to_string()),
        });
    }

    // Unique (gen, enc, opcode) and unique (mnemonic, enc).
    let mut seen = BTreeMap::new();
    let mut seen_me = BTreeMap::new();
    for r in &rows {
        for g in 0..3 {
            if let Some(o) = r.ops[g] {
                if let Some(prev) = seen.insert((g, r.enc, o), r.line) {
                    fail(
                        r.line,
                        &format!("opcode {o} of {} on gen {g} also on line {prev}", r.enc),
                    );
                }
            }
        }
        if let Some(prev) = seen_me.insert((r.mnemonic.clone(), r.enc), r.line) {
            fail(r.line, &format!("mnemonic and encoding repeat line {prev}"));
        }
    }

    // One Op per mnemonic, in first-appearance order.
    let mut ops: Vec<String> = Vec::new();
    let mut op_rows: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for r in &rows {
        if !op_rows.contains_key(&r.mnemonic) {
            ops.push(r.mnemonic.clone());
        }
        op_rows.entry(r.mnemonic.clone()).or_default().push(r.line);
    }
    let mut camels = BTreeMap::new();
    for m in &ops {
        if let Some(prev) = camels.insert(camel(m), m.clone()) {
            panic!("isa/tables/gcn.tsv: `{m}` and `{prev}` map to the same Op name");
        }
    }

    let mut out = String::new();
    writeln!(
        out,
        "// @generated by isa/build.rs from isa/tables/gcn.tsv. Do not edit."
    )
    .ok();
    writeln!(
        out,
        "/// A GCN operation: one per mnemonic of `isa/tables/gcn.tsv`."
    )
    .ok();
    writeln!(
        out,
        "#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]"
    )
    .ok();
    writeln!(out, "#[repr(u16)]\npub enum Op {{").ok();
    for m in &ops {
        let lines: Vec<String> = op_rows[m].iter().map(|l| l.to_string()).collect();
        writeln!(out, "    /// `{m}` (gcn.tsv line {})", lines.join(", ")).ok();
        writeln!(out, "    {},", camel(m)).ok();
    }
    writeln!(out, "}}\n").ok();
    writeln!(out, "/// Every operation, in table order.").ok();
    writeln!(out, "pub static ALL_OPS: [Op; {}] = [", ops.len()).ok();
    for m in &ops {
        writeln!(out, "    Op::{},", camel(m)).ok();
    }
    writeln!(out, "];\n").ok();
    writeln!(
        out,
        "/// Mnemonic of each operation, indexed by `Op as usize`."
    )
    .ok();
    writeln!(out, "pub static MNEMONICS: [&str; {}] = [", ops.len()).ok();
    for m in &ops {
        writeln!(out, "    {m:?},").ok();
    }
    writeln!(out, "];\n").ok();
    writeln!(out, "/// Every row of the table.").ok();
    writeln!(out, "pub static ROWS: [Row; {}] = [", rows.len()).ok();
    for r in &rows {
        let o = |x: Option<u16>| x.map_or("None".to_string(), |v| format!("Some({v})"));
        writeln!(
            out,
            "    Row {{ op: Op::{}, enc: TableEnc::{}, opcode: [{}, {}, {}], e64: [{}, {}, {}], sig: {:?}, alias: {}, layout: {}, layout64: {}, line: {} }},",
            camel(&r.mnemonic),
            r.enc,
            o(r.ops[0]),
            o(r.ops[1]),
            o(r.ops[2]),
            r.e64[0],
            r.e64[1],
            r.e64[2],
            r.sig,
            r.alias.as_ref().map_or("None".to_string(), |a| format!("Some({a:?})")),
            r.layout,
            r.layout64,
            r.line
        )
        .ok();
    }
    writeln!(out, "];").ok();

    let dst = Path::new(&env::var("OUT_DIR").expect("OUT_DIR")).join("gcn_table.rs");
    fs::write(dst, out).expect("write gcn_table.rs");
}
