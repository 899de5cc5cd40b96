//! Generates the GCN instruction table from `tables/gcn.tsv` (STYLE.md: "TSV + build.rs").
//!
//! Every cell is checked against a closed vocabulary; a bad row fails the build with
//! `gcn.tsv:LINE: reason`. Output (`$OUT_DIR/gcn_table.rs`): `enum Op` (one variant per
//! mnemonic, documented with its rows) and `static ROWS` (one per mnemonic and native
//! encoding, with the opcode of each generation, the operand signature and the field that
//! holds each operand, natively and in the VOP3 twin; the layout must name one field per
//! signature operand; for vector ALU rows, the operand shape, the source types, the extra
//! encodings (SDWA, DPP) and the compare condition), `static DESC` (what each operation
//! means, indexed by `Op`) and the `for_each_gcn_op!` callback macro that lets the engines
//! expand one match arm per operation from the same rows: the interpreter's dispatch from
//! the `interp` column, the JIT's semantic map from the `jit` column (`build/jit_cell.rs`).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::{env, fs, path::Path};

// The VP1 table generator lives in its own file.
#[path = "build/vp1.rs"]
mod vp1;
// The check of the `jit` column (shared with isa/tests/table_jit_cells.rs).
#[path = "build/interp_cell.rs"]
mod interp_cell;
#[path = "build/jit_cell.rs"]
mod jit_cell;
use jit_cell::camel;

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
    "imm", "imm?", "off", "m0", "scc", "attr", "p", "hwreg", "sendmsg", "waitcnt", "gpr_idx",
    "tgt",
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

/// `shape` cells and their `ValuKind` variant (`cmpx`: a compare that also writes EXEC).
const SHAPES: &[(&str, &str)] = &[
    ("plain", "Plain"),
    ("empty", "Empty"),
    ("carry_out", "CarryOut"),
    ("carry_in_out", "CarryInOut"),
    ("cndmask", "Cndmask"),
    ("madmk", "MadMk"),
    ("madak", "MadAk"),
    ("mac", "Mac"),
    ("cmp", "Cmp"),
    ("cmpx", "Cmp"),
    ("readlane", "ReadLane"),
    ("writelane", "WriteLane"),
    ("readfirstlane", "ReadFirstLane"),
    ("interp_p", "InterpP"),
    ("interp_mov", "InterpMov"),
    ("interp_p1ll", "InterpP1ll"),
    ("interp_p2", "InterpP2"),
];

/// Source types of the `srcs` column: `f` float or `b` bits, and the width.
const TYPES: &[&str] = &["f16", "f32", "f64", "b16", "b32", "b64", "b128"];

/// Compare conditions (`cmp` column, before the dot) and their `Cond` variant; `ne` and
/// `t` are the integer spellings of `lg` and `tru`, `class` is V_CMP_CLASS. The second
/// field says whether the condition exists for integers.
const CONDS: &[(&str, &str, bool)] = &[
    ("f", "Some(Cond::F)", true),
    ("lt", "Some(Cond::Lt)", true),
    ("eq", "Some(Cond::Eq)", true),
    ("le", "Some(Cond::Le)", true),
    ("gt", "Some(Cond::Gt)", true),
    ("lg", "Some(Cond::Lg)", false),
    ("ne", "Some(Cond::Lg)", true),
    ("ge", "Some(Cond::Ge)", true),
    ("o", "Some(Cond::O)", false),
    ("u", "Some(Cond::U)", false),
    ("nge", "Some(Cond::Nge)", false),
    ("nlg", "Some(Cond::Nlg)", false),
    ("ngt", "Some(Cond::Ngt)", false),
    ("nle", "Some(Cond::Nle)", false),
    ("neq", "Some(Cond::Neq)", false),
    ("nlt", "Some(Cond::Nlt)", false),
    ("tru", "Some(Cond::Tru)", false),
    ("t", "Some(Cond::Tru)", true),
    ("class", "None", false),
];

/// Compare types (`cmp` column, after the dot) and their `CmpTy` variant.
const CMP_TYS: &[(&str, &str)] = &[
    ("f16", "F16"),
    ("f32", "F32"),
    ("f64", "F64"),
    ("i16", "I16"),
    ("u16", "U16"),
    ("i32", "I32"),
    ("u32", "U32"),
    ("i64", "I64"),
    ("u64", "U64"),
];

/// The interpreter's typed adapters an `interp` cell may name (`ADAPTER(args)`): each
/// pairs a per-lane function with its source and result types (interp/src/valu/dispatch.rs).
/// `run(path)` calls a function of the interpreter's vector ALU that takes the whole
/// instruction (cross-lane operations, unusual operand types).
const ADAPTERS: &[&str] = &[
    "f32_1",
    "f32_2",
    "f32_3",
    "f64_2",
    "f64_3",
    "f16_2",
    "f16_3",
    "fp_1",
    "fp_3",
    "b32_1",
    "b32_2",
    "b32_3",
    "b16_2",
    "b16_2c",
    "b16_3c",
    "f32_to_b32",
    "f32x2_to_b32",
    "b32_to_f32",
    "carry_out",
    "carry_in_out",
    "conv",
    "ubyte",
    "movrel",
    "run",
];

/// Check an `interp` cell: what the interpreter runs for the row. `cmp` (the `cmp` column
/// says what), `vintrp` (interpolation, interp/src/vintrp.rs), `nop` (no lane state
/// changes), `unsupported` (the interpreter answers `Unsupported` naming the operation: an
/// explicit marker, never a silent gap) or `ADAPTER(args)`; `-` for rows outside the
/// vector ALU, VINTRP and the scalar unit (whose cells `build/interp_cell.rs` checks).
/// Returns the cell as macro tokens.
fn interp_cell(line: usize, enc: &str, shape: Option<&str>, compare: bool, cell: &str) -> String {
    if interp_cell::is_scalar(enc) {
        return interp_cell::scalar_interp_cell(compare, cell).unwrap_or_else(|e| fail(line, &e));
    }
    let is_cmp = matches!(shape, Some("cmp" | "cmpx"));
    let is_vintrp = enc == "Vintrp" || shape.is_some_and(|s| s.starts_with("interp_"));
    match cell {
        "-" if shape.is_none() && !is_vintrp => "-".into(),
        "-" => fail(
            line,
            "the row needs its semantics in the interp column: ADAPTER(path), cmp, vintrp, \
             nop or unsupported",
        ),
        _ if shape.is_none() && !is_vintrp => fail(line, "interp is for vector ALU rows"),
        "cmp" if is_cmp => "cmp".into(),
        "vintrp" if is_vintrp => "vintrp".into(),
        _ if is_cmp || is_vintrp => fail(
            line,
            &format!(
                "interp is `{}` for this shape",
                if is_cmp { "cmp" } else { "vintrp" }
            ),
        ),
        "nop" | "unsupported" => cell.into(),
        _ => {
            let (adapter, args) = cell
                .strip_suffix(')')
                .and_then(|c| c.split_once('('))
                .unwrap_or_else(|| fail(line, &format!("interp `{cell}` is not ADAPTER(args)")));
            if !ADAPTERS.contains(&adapter) {
                fail(line, &format!("unknown interp adapter `{adapter}`"));
            }
            if args.is_empty()
                || !args
                    .chars()
                    .all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '_' | ':' | ','))
            {
                fail(line, &format!("interp arguments `{args}` are not paths"));
            }
            format!("{adapter}({})", args.replace(',', ", "))
        }
    }
}

/// The semantic columns of a row (`shape`, `srcs`, `forms`, `cmp`, `interp`, `jit`) as
/// checked Rust.
struct Sem {
    /// `ValuKind` variant name and the `shape` word.
    shape: Option<(&'static str, &'static str)>,
    srcs: [Option<&'static str>; 3],
    sdwa: bool,
    dpp: bool,
    /// `CmpDesc` expression.
    cmp: Option<String>,
    /// Cond word and type word, for the callback macro.
    cmp_words: Option<(String, String)>,
    /// The `interp` cell as macro tokens.
    interp: String,
    /// The `jit` cell as macro tokens (build/jit_cell.rs).
    jit: String,
    /// A SOPP branch's `BranchIf` expression (the `branch(COND)` jit cells).
    branch: Option<&'static str>,
}

/// Check the semantic columns of a row against the closed vocabularies and each other.
fn semantics(line: usize, enc: &str, c: &[&str]) -> Sem {
    let valu = matches!(enc, "Vop1" | "Vop2" | "Vopc" | "Vop3" | "Vop3b");
    let shape = match c[0] {
        "-" => None,
        w => Some(
            SHAPES
                .iter()
                .find(|(k, _)| *k == w)
                .map(|(k, v)| (*v, *k))
                .unwrap_or_else(|| fail(line, &format!("unknown shape `{w}`"))),
        ),
    };
    if valu != shape.is_some() {
        fail(line, "vector ALU rows, and only they, need a shape");
    }
    let mut srcs = [None; 3];
    if c[1] != "-" {
        let words: Vec<&str> = c[1].split(',').collect();
        if words.len() > 3 {
            fail(line, "srcs names more than three sources");
        }
        for (i, w) in words.iter().enumerate() {
            if *w == "-" {
                continue;
            }
            srcs[i] = Some(
                *TYPES
                    .iter()
                    .find(|t| *t == w)
                    .unwrap_or_else(|| fail(line, &format!("unknown source type `{w}`"))),
            );
        }
    }
    if !valu && srcs.iter().any(|s| s.is_some()) {
        fail(line, "srcs is for vector ALU rows");
    }
    let (mut sdwa, mut dpp) = (false, false);
    if c[2] != "-" {
        for w in c[2].split(',') {
            match w {
                "sdwa" => sdwa = true,
                "dpp" => dpp = true,
                _ => fail(line, &format!("unknown form `{w}` (sdwa, dpp)")),
            }
        }
        if !matches!(enc, "Vop1" | "Vop2" | "Vopc") {
            fail(line, "only VOP1/VOP2/VOPC rows have SDWA and DPP forms");
        }
    }
    let is_cmp = matches!(shape, Some(("Cmp", _)));
    // Scalar compares (SOPC, SOPK) may name their condition too (an integer one).
    let scalar_cmp = matches!(enc, "Sopc" | "Sopk");
    let (cmp, cmp_words) = match c[3] {
        "-" => {
            if is_cmp {
                fail(line, "a compare needs its condition and type (cmp column)");
            }
            (None, None)
        }
        w => {
            if !is_cmp && !scalar_cmp {
                fail(
                    line,
                    "cmp is for rows of shape cmp/cmpx and scalar compares",
                );
            }
            let (cw, tw) = w
                .split_once('.')
                .unwrap_or_else(|| fail(line, "cmp is COND.TYPE, e.g. lt.f32"));
            let (_, cond, int_ok) = CONDS
                .iter()
                .find(|(k, _, _)| *k == cw)
                .unwrap_or_else(|| fail(line, &format!("unknown compare condition `{cw}`")));
            let ty = CMP_TYS
                .iter()
                .find(|(k, _)| *k == tw)
                .map(|(_, v)| *v)
                .unwrap_or_else(|| fail(line, &format!("unknown compare type `{tw}`")));
            let float = tw.starts_with('f');
            if !float && !int_ok {
                fail(line, &format!("`{cw}` is a float condition"));
            }
            if float && matches!(cw, "ne" | "t") {
                fail(line, &format!("`{cw}` is an integer condition"));
            }
            if cw == "class" && !float {
                fail(line, "class compares take a float");
            }
            if scalar_cmp && (float || !matches!(cw, "eq" | "ne" | "lt" | "le" | "gt" | "ge")) {
                fail(line, "a scalar compare is eq/ne/lt/le/gt/ge of an integer");
            }
            let exec = matches!(shape, Some((_, "cmpx")));
            (
                Some(format!(
                    "CmpDesc {{ cond: {cond}, ty: CmpTy::{ty}, exec: {exec} }}"
                )),
                Some((cw.to_string(), tw.to_string())),
            )
        }
    };
    let interp = interp_cell(line, enc, shape.map(|(_, w)| w), cmp_words.is_some(), c[4]);
    let facts = jit_cell::RowFacts {
        scalar: match enc {
            "Sop2" => Some("sop2"),
            "Sopk" => Some("sopk"),
            "Sop1" => Some("sop1"),
            "Sopc" => Some("sopc"),
            "Sopp" => Some("sopp"),
            _ => None,
        },
        shape: shape.map(|(_, w)| w),
        vintrp: enc == "Vintrp" || shape.is_some_and(|(_, w)| w.starts_with("interp_")),
        src0: srcs[0],
        cond: cmp_words.as_ref().map(|(c, _)| c.as_str()),
        interp: c[4],
    };
    let jit = jit_cell::jit_cell(&facts, c[5]).unwrap_or_else(|e| fail(line, &e));
    // A SOPP branch's condition (checked by jit_cell above).
    let branch = c[5]
        .strip_prefix("branch(")
        .and_then(|b| b.strip_suffix(')'))
        .and_then(jit_cell::branch_value);
    Sem {
        branch,
        shape,
        srcs,
        sdwa,
        dpp,
        cmp,
        cmp_words,
        interp,
        jit,
    }
}

/// A source type word as a `Ty` constant.
fn ty_expr(t: Option<&str>) -> String {
    match t {
        None => "None".into(),
        Some(t) => format!(
            "Some(Ty {{ bits: {}, float: {} }})",
            &t[1..],
            t.starts_with('f')
        ),
    }
}

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

fn fail(line: usize, msg: &str) -> ! {
    panic!("isa/tables/gcn.tsv:{line}: {msg}");
}

fn main() {
    vp1::generate();
    let path = Path::new("tables/gcn.tsv");
    println!("cargo:rerun-if-changed=tables/gcn.tsv");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build/jit_cell.rs");
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
        sem: Sem,
    }
    let mut rows = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let line = i + 1;
        if l.starts_with('#') || l.trim().is_empty() {
            continue;
        }
        let c: Vec<&str> = l.split('\t').collect();
        if c.len() != 16 {
            fail(line, &format!("expected 16 columns, found {}", c.len()));
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
            sem: semantics(line, enc, &c[10..16]),
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
            "    Row {{ op: Op::{}, enc: TableEnc::{}, opcode: [{}, {}, {}], e64: [{}, {}, {}], sig: {:?}, alias: {}, layout: {}, layout64: {}, shape: {}, srcs: [{}, {}, {}], sdwa: {}, dpp: {}, line: {} }},",
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
            r.sem
                .shape
                .map_or("None".to_string(), |(v, _)| format!("Some(ValuKind::{v})")),
            ty_expr(r.sem.srcs[0]),
            ty_expr(r.sem.srcs[1]),
            ty_expr(r.sem.srcs[2]),
            r.sem.sdwa,
            r.sem.dpp,
            r.line
        )
        .ok();
    }
    writeln!(out, "];\n").ok();

    // What each operation means: its compare (all rows of an operation agree), and for the
    // callback macro the shape and source types of its first vector ALU row.
    let mut desc: BTreeMap<String, &Row> = BTreeMap::new();
    for r in &rows {
        match desc.get(&r.mnemonic) {
            Some(first) if first.sem.cmp != r.sem.cmp => fail(
                r.line,
                &format!(
                    "compare differs from line {} of the same mnemonic",
                    first.line
                ),
            ),
            Some(first)
                if first.sem.interp != r.sem.interp
                    && first.sem.interp != "-"
                    && r.sem.interp != "-" =>
            {
                fail(
                    r.line,
                    &format!(
                        "interp differs from line {} of the same mnemonic",
                        first.line
                    ),
                )
            }
            Some(first)
                if first.sem.jit != r.sem.jit && first.sem.jit != "-" && r.sem.jit != "-" =>
            {
                fail(
                    r.line,
                    &format!("jit differs from line {} of the same mnemonic", first.line),
                )
            }
            Some(first) if first.sem.shape.is_some() || r.sem.shape.is_none() => {}
            _ => {
                desc.insert(r.mnemonic.clone(), r);
            }
        }
    }
    writeln!(
        out,
        "/// What each operation means, indexed by `Op as usize`."
    )
    .ok();
    writeln!(out, "pub static DESC: [OpDesc; {}] = [", ops.len()).ok();
    for m in &ops {
        let r = desc[m];
        writeln!(
            out,
            "    OpDesc {{ cmp: {}, branch: {} }},",
            r.sem
                .cmp
                .as_ref()
                .map_or("None".to_string(), |c| format!("Some({c})")),
            r.sem
                .branch
                .map_or("None".to_string(), |b| format!("Some({b})"))
        )
        .ok();
    }
    writeln!(out, "];\n").ok();

    writeln!(
        out,
        "/// Calls macro `$m` once with every operation of the table, each as"
    )
    .ok();
    writeln!(
        out,
        "/// `(Variant mnemonic shape [src types] cmp {{jit}} interp)`: `shape` is the `shape` column of its"
    )
    .ok();
    writeln!(
        out,
        "/// first vector ALU row (`none` for other operations), the source types are the `srcs`"
    )
    .ok();
    writeln!(
        out,
        "/// column as words (`f32`, `b32`, `-` for an absent source), `cmp` is `(cond type)`"
    )
    .ok();
    writeln!(
        out,
        "/// or `-`, `{{jit}}` the `jit` cell (build/jit_cell.rs) and `interp` the `interp` cell."
    )
    .ok();
    writeln!(
        out,
        "/// Extra arguments after `$m` are passed through first."
    )
    .ok();
    // The interpreter and JIT cells of each operation: those of any row that has one.
    let mut interp: BTreeMap<&str, &str> = BTreeMap::new();
    let mut jit: BTreeMap<&str, &str> = BTreeMap::new();
    for r in &rows {
        let e = interp.entry(r.mnemonic.as_str()).or_insert("-");
        if *e == "-" {
            *e = r.sem.interp.as_str();
        }
        let e = jit.entry(r.mnemonic.as_str()).or_insert("-");
        if *e == "-" {
            *e = r.sem.jit.as_str();
        }
    }
    writeln!(out, "#[macro_export]\nmacro_rules! for_each_gcn_op {{").ok();
    writeln!(out, "    ($m:ident $($arg:tt)*) => {{ $m! {{ $($arg)*").ok();
    for m in &ops {
        let r = desc[m];
        let shape = r.sem.shape.map_or("none", |(_, w)| w);
        let srcs: Vec<&str> = r.sem.srcs.iter().map(|t| t.unwrap_or("-")).collect();
        let n = r
            .sem
            .srcs
            .iter()
            .rposition(|t| t.is_some())
            .map_or(0, |i| i + 1);
        let cmp = r
            .sem
            .cmp_words
            .as_ref()
            .map_or("-".to_string(), |(c, t)| format!("({c} {t})"));
        writeln!(
            out,
            "        ({} {m} {shape} [{}] {cmp} {{{}}} {})",
            camel(m),
            srcs[..n].join(" "),
            jit[m.as_str()],
            interp[m.as_str()]
        )
        .ok();
    }
    writeln!(out, "    }} }};\n}}").ok();

    let dst = Path::new(&env::var("OUT_DIR").expect("OUT_DIR")).join("gcn_table.rs");
    fs::write(dst, out).expect("write gcn_table.rs");
}
