//! The `interp` column's check for scalar rows (SOP1, SOP2, SOPK, SOPC, SOPP), run by
//! `isa/build.rs` on every row: a scalar row without semantics, or with a word outside the
//! closed vocabulary, fails the build. A cell is
//! - `ADAPTER(path)`: a typed adapter of `interp/src/salu/adapt.rs` and the pure function
//!   it runs (`sop2(sop2::s_add_u32)`, `sop1_nz(sop1::s_not_b32)`, `branch(sopp::scc0)`);
//! - `cmp` (a compare: the `cmp` column says what), `nop` (no state changes), `end`
//!   (the program ends), `barrier` (the waves of a group meet);
//! - `unsupported`: the interpreter answers `Unsupported` naming the operation (an
//!   explicit, documented marker, never a silent gap).

/// The scalar adapters an `interp` cell may name (interp/src/salu/adapt.rs).
pub const SCALAR_ADAPTERS: &[&str] = &[
    "sop2", "sop2_nz", "sop2_scc", "sop1", "sop1_nz", "sop1_scc", "sop1_d", "saveexec", "sopk",
    "sopk_scc", "sopk_d", "sopc", "branch", "run",
];

/// Whether the row's encoding (`Sop2`, `Sopp`, …) is the scalar unit's.
pub fn is_scalar(enc: &str) -> bool {
    matches!(enc, "Sop1" | "Sop2" | "Sopk" | "Sopc" | "Sopp")
}

/// Check the `interp` cell of a scalar row (`compare`: the row has a `cmp` cell); returns
/// it as tokens for `for_each_gcn_op!`.
pub fn scalar_interp_cell(compare: bool, cell: &str) -> Result<String, String> {
    match cell {
        "-" => Err(
            "the scalar row needs its semantics in the interp column: ADAPTER(path), \
                    cmp, nop, end, barrier or unsupported"
                .into(),
        ),
        "cmp" if compare => Ok(cell.into()),
        _ if compare => Err("a scalar compare's interp cell is cmp".into()),
        "cmp" => Err("cmp needs the compare in the cmp column".into()),
        "nop" | "end" | "barrier" | "unsupported" => Ok(cell.into()),
        _ => {
            let (adapter, path) = cell
                .strip_suffix(')')
                .and_then(|c| c.split_once('('))
                .ok_or_else(|| format!("interp `{cell}` is not ADAPTER(path)"))?;
            if !SCALAR_ADAPTERS.contains(&adapter) {
                return Err(format!("unknown scalar interp adapter `{adapter}`"));
            }
            let mut segs = path.split("::");
            let module = segs.next().unwrap_or("");
            let ok_seg =
                |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !matches!(module, "sop1" | "sop2" | "sopk" | "sopc" | "sopp")
                || segs.clone().count() != 1
                || !segs.all(ok_seg)
            {
                return Err(format!(
                    "interp argument `{path}` is not a function of sop1/sop2/sopk/sopc/sopp"
                ));
            }
            Ok(format!("{adapter}({path})"))
        }
    }
}
