//! The instruction table against the specification: every mnemonic of the VOP3 opcode
//! tables of 003_5ccf112c12817a33.txt (and the VINTRP opcodes of 001_43f5507a70f72cb4.txt)
//! is in the table with the opcode the spec gives for each generation, with the corrections
//! of ERRATA VOP3 11, 13, 14, 15 and 16 (`tests/data/gcn/spec_vop3_opcodes.tsv` restates
//! the spec's rows and marks each correction). The decoder finds each of them.

mod codec_util;

use codec_util::data_path;
use wavejit_isa::gcn::decode;
use wavejit_isa::gcn::operand::{is_vop3_interp, vop3_is_b};
use wavejit_isa::gcn::table::{lookup, Op, TableEnc, ROWS};
use wavejit_isa::{DecodeErrorKind, Gen};

struct SpecRow {
    line: usize,
    gen: Gen,
    opcode: u16,
    name: String,
    form: String,
}

fn spec_rows() -> Vec<SpecRow> {
    let text = std::fs::read_to_string(data_path("spec_vop3_opcodes.tsv")).expect("spec table");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| {
            let c: Vec<&str> = l.split('\t').collect();
            assert_eq!(c.len(), 5, "spec_vop3_opcodes.tsv:{}", i + 1);
            SpecRow {
                line: i + 1,
                gen: c[0].parse().expect("generation"),
                opcode: c[1].parse().expect("opcode"),
                name: c[2].to_ascii_lowercase(),
                form: c[3].to_string(),
            }
        })
        .collect()
}

/// The VOP3 word pair of opcode `opc` with every other field 0.
fn vop3_words(gen: Gen, opc: u16) -> Vec<u8> {
    let shift = if gen == Gen::Gfx8 { 16 } else { 17 };
    let w0: u32 = 0x34 << 26 | (opc as u32) << shift;
    [w0, 0].iter().flat_map(|w| w.to_le_bytes()).collect()
}

#[test]
fn every_spec_opcode_is_in_the_table() {
    let rows = spec_rows();
    assert!(rows.len() > 190, "{} spec rows", rows.len());
    let mut bad = Vec::new();
    for s in &rows {
        let what = format!(
            "spec_vop3_opcodes.tsv:{} {} {} {}",
            s.line, s.gen, s.opcode, s.name
        );
        if s.form == "vintrp-encoding" {
            match lookup(s.gen, TableEnc::Vintrp, s.opcode) {
                Some(r) if r.op.mnemonic() == s.name => {}
                other => bad.push(format!(
                    "{what}: table has {:?}",
                    other.map(|r| r.op.mnemonic())
                )),
            }
            continue;
        }
        let Some(r) = lookup(s.gen, TableEnc::Vop3, s.opcode) else {
            bad.push(format!("{what}: no VOP3 row"));
            continue;
        };
        if r.op.mnemonic() != s.name && !r.is_named(&s.name) {
            bad.push(format!("{what}: table has {}", r.op.mnemonic()));
        }
        if vop3_is_b(r) != (s.form == "vop3b") {
            bad.push(format!("{what}: VOP3B is {} in the table", vop3_is_b(r)));
        }
        if is_vop3_interp(r) != (s.form == "vintrp") {
            bad.push(format!(
                "{what}: VINTRP-in-VOP3 is {} in the table",
                is_vop3_interp(r)
            ));
        }
        // The decoder finds it from the opcode field alone.
        match decode(s.gen, &vop3_words(s.gen, s.opcode), 0) {
            Ok((i, 8)) if i.op == r.op => {}
            other => bad.push(format!("{what}: decodes as {other:?}")),
        }
    }
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn table_has_no_vop3_only_opcode_the_spec_lacks() {
    let spec = spec_rows();
    let mut bad = Vec::new();
    for r in ROWS
        .iter()
        .filter(|r| matches!(r.enc, TableEnc::Vop3 | TableEnc::Vop3b))
    {
        for gen in Gen::ALL {
            let Some(o) = r.opcode[gen.index()] else {
                continue;
            };
            let in_range = match gen {
                Gen::Gfx8 => (448..=496).contains(&o) || (624..=664).contains(&o),
                _ => (320..=375).contains(&o),
            };
            if in_range
                && !spec
                    .iter()
                    .any(|s| s.gen == gen && s.opcode == o && s.form != "vintrp-encoding")
            {
                bad.push(format!("{gen} {o} {}", r.op.mnemonic()));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "VOP3 rows the spec does not list:\n{}",
        bad.join("\n")
    );
}

#[test]
fn errata_corrections_hold() {
    // ERRATA VOP3 13: 627 is not an instruction on GCN 1.2.
    assert!(lookup(Gen::Gfx8, TableEnc::Vop3, 627).is_none());
    assert_eq!(
        decode(Gen::Gfx8, &vop3_words(Gen::Gfx8, 627), 0)
            .map(|_| ())
            .map_err(|e| e.kind),
        Err(DecodeErrorKind::UnknownOpcode {
            enc: "VOP3",
            op: 627,
            gen: Gen::Gfx8
        })
    );
    // ERRATA VOP3 14: GCN 1.2 has V_MIN3_F32 at 464, V_MIN3_I32 at 465, no V_MULLIT_F32.
    assert_eq!(
        lookup(Gen::Gfx8, TableEnc::Vop3, 465).map(|r| r.op),
        Some(Op::VMin3I32)
    );
    assert!(Op::VMullitF32.row(Gen::Gfx8).is_none());
    assert!(Op::VMullitF32.row(Gen::Gfx6).is_some());
    // ERRATA VOP3 11: 373-375 only on GCN 1.1.
    for o in 373..=375 {
        assert!(lookup(Gen::Gfx6, TableEnc::Vop3, o).is_none(), "{o}");
        assert!(lookup(Gen::Gfx7, TableEnc::Vop3, o).is_some(), "{o}");
    }
    // ERRATA VOP3 15: LLVM's name is accepted for GCN 1.0's 371.
    assert_eq!(
        Op::from_mnemonic_in("v_mqsad_pk_u16_u8", Gen::Gfx6),
        Some(Op::VMqsadU8)
    );
    assert_eq!(
        Op::from_mnemonic_in("v_mqsad_pk_u16_u8", Gen::Gfx7),
        Some(Op::VMqsadPkU16U8)
    );
    // ERRATA VOP3 16: V_MAC_LEGACY_F32 decodes on GCN 1.2 at 654.
    assert_eq!(
        lookup(Gen::Gfx8, TableEnc::Vop3, 654).map(|r| r.op),
        Some(Op::VMacLegacyF32)
    );
}

#[test]
fn the_sopp_branches_test_what_their_names_say() {
    use wavejit_isa::gcn::BranchIf::*;
    // AMD's GCN3 manual, SOPP: s_branch always; s_cbranch_scc0 if SCC == 0, _scc1 if
    // SCC == 1; _vccz if VCC == 0, _vccnz if VCC != 0; _execz/_execnz likewise on EXEC;
    // s_cbranch_cdbg* on the debugger's state.
    let want = [
        (Op::SBranch, Always),
        (Op::SCbranchScc0, Scc(false)),
        (Op::SCbranchScc1, Scc(true)),
        (Op::SCbranchVccz, Vccz(true)),
        (Op::SCbranchVccnz, Vccz(false)),
        (Op::SCbranchExecz, Execz(true)),
        (Op::SCbranchExecnz, Execz(false)),
        (Op::SCbranchCdbgsys, Debugger),
        (Op::SCbranchCdbguser, Debugger),
        (Op::SCbranchCdbgsysOrUser, Debugger),
        (Op::SCbranchCdbgsysAndUser, Debugger),
    ];
    for (op, b) in want {
        assert_eq!(op.branch(), Some(b), "{op:?}");
    }
    // No other operation of the table is a SOPP branch (the fork/join family and
    // s_setpc_b64 jump to computed addresses).
    let branches: Vec<Op> = ROWS
        .iter()
        .map(|r| r.op)
        .filter(|op| op.branch().is_some())
        .collect();
    assert_eq!(branches.len(), want.len(), "{branches:?}");
}
