//! The `jit` column of `tables/gcn.tsv`: how the JIT runs an operation. Checked here against
//! a closed vocabulary (used by `isa/build.rs`, and by `isa/tests/table_jit_cells.rs`, which
//! shows that a row without a lowering does not build).
//!
//! A cell is one of:
//! - `-`: the row is outside the vector ALU and interpolation (scalar, memory, export);
//! - `helper`: the interpreter runs the operation over 64 lanes (an explicit choice, not a
//!   gap: the operation has no inline lowering);
//! - `nop` (no lane state changes), `lanes` (cross-lane and register-indexed operations,
//!   `jit/src/gcn/lanes.rs`), `vintrp` (interpolation, `jit/src/gcn/vintrp.rs`);
//! - `cmp` (a compare: the `cmp` column says what), `class` (a class compare);
//! - `cndmask`, `ldexp` (the float format is the first source's type);
//! - `FAMILY(op)` or `FAMILY(op(args))`: a generic lowering of one family of
//!   `jit/src/gcn/vocab.rs` and the operation within it, in snake case (`float(add)` is
//!   `FOp::Add`, the format from the first source's type and the VOP2 form from the shape;
//!   `int(cvt_f32_ubyte(1))` is `IOp::CvtF32Ubyte(1)`). Arguments are `true`, `false`,
//!   small numbers, a float format `f32`/`f64`, `none`, or a snake-case word (a variant of
//!   the scalar `Logic`, e.g. `sop1(saveexec(and,false))`);
//! - for scalar ALU rows (SOP2, SOPK, SOP1, SOPC): `ENC(op)` with the row's own encoding as
//!   the family (`jit/src/gcn/svocab.rs`: `sop2(add_u)`), `sopc(cmp)` / `sopk(cmp)` for a
//!   compare (the `cmp` column says what), or `helper`;
//! - for SOPP rows: `nop`, `end`, `barrier` (each with the same interp cell), `helper`, or
//!   `branch(COND)` for a branch to PC + 4 + SIMM16 × 4 taken when COND holds (`BRANCHES`;
//!   the interp cell must be `branch(sopp::COND)`, or `unsupported` for `debugger`). The
//!   table's branch list (`Op::branch`) is generated from these cells.

/// Families that name an operation of a vocabulary.
const FAMILIES: &[&str] = &[
    "int", "float", "half", "int16", "cvt", "cvt16", "carry", "shift64", "frexp", "x",
];

/// Words that stand alone.
const WORDS: &[&str] = &[
    "helper", "nop", "lanes", "vintrp", "cmp", "class", "cndmask", "ldexp",
];

/// The conditions of SOPP branches: `always`, SCC set or clear, VCC or EXEC zero or not,
/// and `debugger` (the s_cbranch_cdbg* family, which tests the debugger's state: not
/// modelled, so the interpreter answers Unsupported and the JIT calls it).
pub const BRANCHES: &[&str] = &[
    "always", "scc0", "scc1", "vccz", "vccnz", "execz", "execnz", "debugger",
];

/// The `isa::gcn::desc::BranchIf` value of a branch condition of `BRANCHES`.
pub fn branch_value(cond: &str) -> Option<&'static str> {
    Some(match cond {
        "always" => "BranchIf::Always",
        "scc0" => "BranchIf::Scc(false)",
        "scc1" => "BranchIf::Scc(true)",
        "vccz" => "BranchIf::Vccz(true)",
        "vccnz" => "BranchIf::Vccz(false)",
        "execz" => "BranchIf::Execz(true)",
        "execnz" => "BranchIf::Execz(false)",
        "debugger" => "BranchIf::Debugger",
        _ => return None,
    })
}

/// What the checks need to know about the row.
pub struct RowFacts<'a> {
    /// The scalar encoding (`sop2`, `sopk`, `sop1`, `sopc`, `sopp`), if the row is one.
    pub scalar: Option<&'a str>,
    /// The `shape` cell (`None`: not a vector ALU row).
    pub shape: Option<&'a str>,
    /// The row is an interpolation (VINTRP, or GCN 1.2's VOP3 form of one).
    pub vintrp: bool,
    /// The first source's type word (`f32`, `b32`, …).
    pub src0: Option<&'a str>,
    /// The compare condition word (`lt`, `class`, …).
    pub cond: Option<&'a str>,
    /// The `interp` cell.
    pub interp: &'a str,
}

/// `v_add_f32` → `VAddF32`: the Rust name of a mnemonic (also the build script's).
pub fn camel(m: &str) -> String {
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

fn is_word(w: &str) -> bool {
    !w.is_empty()
        && w.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && !w.starts_with(|c: char| c.is_ascii_digit())
}

/// `op` or `op(args)` as macro tokens: `Op` or `Op(args)`.
fn operation(arg: &str) -> Result<String, String> {
    let (word, args) = match arg.strip_suffix(')') {
        Some(a) => a
            .split_once('(')
            .ok_or_else(|| format!("jit operation `{arg}` is not op(args)"))?,
        None => (arg, ""),
    };
    if !is_word(word) {
        return Err(format!("jit operation `{word}` is not a snake-case word"));
    }
    if args.is_empty() {
        return Ok(camel(word));
    }
    let mut out = Vec::new();
    for a in args.split(',') {
        if matches!(a, "true" | "false" | "f32" | "f64" | "none")
            || (!a.is_empty() && a.len() <= 3 && a.chars().all(|c| c.is_ascii_digit()))
        {
            out.push(a.to_string());
        } else if is_word(a) {
            out.push(camel(a));
        } else {
            return Err(format!(
                "jit argument `{a}` is not true, false, a number, f32, f64, none or a word"
            ));
        }
    }
    Ok(format!("{}({})", camel(word), out.join(", ")))
}

/// Check a `jit` cell; returns it as tokens for `for_each_gcn_op!`.
pub fn jit_cell(row: &RowFacts, cell: &str) -> Result<String, String> {
    if row.scalar == Some("sopp") {
        return sopp_cell(row, cell);
    }
    if let Some(enc) = row.scalar {
        return scalar_cell(row, enc, cell);
    }
    let engine_row = row.shape.is_some() || row.vintrp;
    if !engine_row {
        return match cell {
            "-" => Ok("-".into()),
            _ => Err("jit is for vector ALU and interpolation rows".into()),
        };
    }
    let float_src = matches!(row.src0, Some("f32" | "f64"));
    let is_cmp = row.cond.is_some();
    let (family, arg) = match cell.strip_suffix(')').and_then(|c| c.split_once('(')) {
        Some((f, a)) => (f, Some(a)),
        None => (cell, None),
    };
    let allowed = match (family, arg) {
        ("-", None) => Err(
            "the row needs its lowering in the jit column: FAMILY(op), cmp, class, cndmask, \
             ldexp, lanes, vintrp, nop or helper"
                .to_string(),
        ),
        ("helper", None) => Ok(()),
        ("vintrp", None) if row.vintrp => Ok(()),
        ("vintrp", None) => Err("vintrp is for interpolation rows".into()),
        _ if row.vintrp => Err("an interpolation row is vintrp or helper".into()),
        ("cmp", None) if is_cmp && row.cond != Some("class") => Ok(()),
        ("class", None) if row.cond == Some("class") => Ok(()),
        ("cmp" | "class", None) => Err(format!("`{cell}` does not match the cmp column")),
        _ if is_cmp => Err("a compare is cmp, class or helper".into()),
        ("nop", None) if row.interp == "nop" => Ok(()),
        ("nop", None) => Err("nop needs the interp cell nop".into()),
        ("float" | "ldexp" | "frexp", _) if !float_src => Err(format!(
            "`{family}` takes its format from the first source, which must be f32 or f64"
        )),
        ("lanes" | "cndmask" | "ldexp", None) => Ok(()),
        (f, Some(_)) if FAMILIES.contains(&f) => Ok(()),
        (f, None) if FAMILIES.contains(&f) => Err(format!("`{f}` needs its operation: {f}(op)")),
        (w, _) if WORDS.contains(&w) => Err(format!("`{w}` takes no operation")),
        _ => Err(format!("unknown jit lowering `{cell}`")),
    };
    allowed?;
    Ok(match arg {
        Some(a) => format!("{family}({})", operation(a)?),
        None => family.to_string(),
    })
}

/// A SOPP row's cell: `nop`, `end`, `barrier`, `branch(COND)` or `helper`, in agreement
/// with its interp cell (a branch the interpreter takes is one the JIT takes).
fn sopp_cell(row: &RowFacts, cell: &str) -> Result<String, String> {
    match cell {
        "-" => Err(
            "the row needs its lowering in the jit column: nop, end, barrier, \
                    branch(COND) or helper"
                .into(),
        ),
        "helper" => Ok(cell.into()),
        "nop" | "end" | "barrier" if row.interp == cell => Ok(cell.into()),
        "nop" | "end" | "barrier" => Err(format!("{cell} needs the interp cell {cell}")),
        _ => {
            let cond = cell
                .strip_prefix("branch(")
                .and_then(|c| c.strip_suffix(')'))
                .ok_or_else(|| {
                    format!(
                        "a SOPP row's lowering is nop, end, barrier, branch(COND) or helper, \
                         not `{cell}`"
                    )
                })?;
            if branch_value(cond).is_none() {
                return Err(format!(
                    "unknown branch condition `{cond}` ({})",
                    BRANCHES.join(", ")
                ));
            }
            let want = match cond {
                "debugger" => "unsupported".to_string(),
                c => format!("branch(sopp::{c})"),
            };
            if row.interp != want {
                return Err(format!("branch({cond}) needs the interp cell {want}"));
            }
            Ok(format!("branch({})", camel(cond)))
        }
    }
}

/// A scalar ALU row's cell: `ENC(op)`, `ENC(cmp)` (a compare) or `helper`.
fn scalar_cell(row: &RowFacts, enc: &str, cell: &str) -> Result<String, String> {
    let (family, arg) = match cell.strip_suffix(')').and_then(|c| c.split_once('(')) {
        Some((f, a)) => (f, Some(a)),
        None => (cell, None),
    };
    match (family, arg) {
        ("-", None) => Err(format!(
            "the row needs its lowering in the jit column: {enc}(op), {enc}(cmp) for a \
             compare, or helper"
        )),
        ("helper", None) => Ok("helper".into()),
        (f, Some("cmp")) if f == enc && row.cond.is_some() => Ok(format!("{enc}(cmp)")),
        (f, Some("cmp")) if f == enc => Err("cmp needs the cmp column".into()),
        (f, Some(a)) if f == enc => Ok(format!("{enc}({})", operation(a)?)),
        _ => Err(format!(
            "a {enc} row's lowering is {enc}(op), {enc}(cmp) or helper, not `{cell}`"
        )),
    }
}
