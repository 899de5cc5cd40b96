//! The GCN instruction table: generated from `isa/tables/gcn.tsv` by `isa/build.rs`, plus
//! the lookups every consumer shares (by opcode for the decoder, by mnemonic for the
//! assembler, by operation for the encoder).

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::arch::Gen;
use crate::gcn::desc::{BranchIf, CmpDesc, CmpTy, Cond, OpDesc, Ty, ValuKind};

/// The native encoding of a table row (VOP3B is VOP3 with a scalar destination).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableEnc {
    Sop2,
    Sopk,
    Sop1,
    Sopc,
    Sopp,
    Smrd,
    Smem,
    Vop1,
    Vop2,
    Vopc,
    Vop3,
    Vop3b,
    Vintrp,
    Ds,
    Mubuf,
    Mtbuf,
    Mimg,
    Flat,
    Exp,
}

/// An encoding field that holds an operand (the `layout` columns of `gcn.tsv`). Names are
/// those of `Fields`; `Vsrc1` is VOP2/VOPC's VSRC1 (and EXP's second source).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    Vdst,
    Sdst,
    Src0,
    Src1,
    Src2,
    Vsrc1,
    Ssrc0,
    Ssrc1,
    Simm16,
    Sbase,
    Sdata,
    Offset,
    Vsrc,
    Attr,
    Addr,
    Data0,
    Data1,
    Vdata,
    Vaddr,
    Srsrc,
    Soffset,
    Ssamp,
    Data,
    Tgt,
    Vsrc0,
    Vsrc2,
    Vsrc3,
    /// The 32-bit literal that follows the instruction.
    Lit,
    /// VCC, read or written implicitly.
    Vcc,
}

/// One row of `gcn.tsv`: an operation in its native encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    pub op: Op,
    pub enc: TableEnc,
    /// Opcode on gfx6, gfx7, gfx8 (`None`: absent in that generation).
    pub opcode: [Option<u16>; 3],
    /// For VOP1/VOP2/VOPC rows: whether the VOP3 twin exists in each generation.
    pub e64: [bool; 3],
    /// Operand signature from LLVM's example text (see gen_gcn_tsv.py).
    pub sig: &'static str,
    /// Another accepted mnemonic: LLVM's name where the spec's differs (printed in LLVM
    /// syntax), or, written `+name` in the table, a name only accepted on input (gfx8
    /// `v_mul_lo_i32` for `v_mul_lo_u32`, as LLVM accepts it). Use [`Row::llvm_name`] and
    /// [`Row::is_named`] rather than this raw cell.
    pub alias: Option<&'static str>,
    /// For each operand of `sig`, in order, the encoding field that holds it in the native
    /// encoding (`Field::Vcc`: VCC, implicit; `Field::Lit`: the literal dword).
    pub layout: &'static [Field],
    /// The same for the VOP3 twin of a VOP1/VOP2/VOPC row (empty otherwise). Implicit VCC
    /// operands of the native form are SGPR-pair fields here (VDST of a compare, SDST of a
    /// carry-out, SRC2 of a carry-in or `v_cndmask_b32`).
    pub layout64: &'static [Field],
    /// Vector ALU rows: the operand shape (`None` for other encodings).
    pub shape: Option<ValuKind>,
    /// Vector ALU rows: the type of SRC0-SRC2 as the VOP3 form numbers them, in GCN 1.2
    /// terms (`Ty::in_gen` for older generations).
    pub srcs: [Option<Ty>; 3],
    /// VOP1/VOP2/VOPC rows on GCN 1.2: whether the SDWA form exists.
    pub sdwa: bool,
    /// VOP1/VOP2/VOPC rows on GCN 1.2: whether the DPP form exists.
    pub dpp: bool,
    /// Line in gcn.tsv, for messages.
    pub line: u32,
}

include!(concat!(env!("OUT_DIR"), "/gcn_table.rs"));

impl Row {
    /// LLVM's name for the operation where it differs from the spec's; `None` for an
    /// input-only alias.
    pub fn llvm_name(&self) -> Option<&'static str> {
        self.alias.filter(|a| !a.starts_with('+'))
    }

    /// The other name this row accepts on input, if any.
    pub fn other_name(&self) -> Option<&'static str> {
        self.alias.map(|a| a.trim_start_matches('+'))
    }

    /// Whether `name` (lowercase) is this row's mnemonic or its other accepted name.
    pub fn is_named(&self, name: &str) -> bool {
        self.op.mnemonic() == name || self.other_name() == Some(name)
    }
}

impl Op {
    /// The mnemonic, lowercase, without encoding suffix.
    pub fn mnemonic(self) -> &'static str {
        MNEMONICS[self as usize]
    }

    /// The operation with this mnemonic (or alias), case-insensitive.
    pub fn from_mnemonic(m: &str) -> Option<Op> {
        lookups()
            .by_name
            .get(m.to_ascii_lowercase().as_str())
            .copied()
    }

    /// The operation with this mnemonic (or alias), case-insensitive, among those that exist
    /// in `gen`: an operation's own name first, then aliases.
    pub fn from_mnemonic_in(m: &str, gen: Gen) -> Option<Op> {
        let m = m.to_ascii_lowercase();
        let exists = |r: &&Row| r.opcode[gen.index()].is_some();
        ROWS.iter()
            .filter(exists)
            .find(|r| r.op.mnemonic() == m)
            .or_else(|| {
                ROWS.iter()
                    .filter(exists)
                    .find(|r| r.other_name() == Some(m.as_str()))
            })
            .map(|r| r.op)
    }

    /// What the operation means (compare condition and type, …).
    pub fn desc(self) -> &'static OpDesc {
        &DESC[self as usize]
    }

    /// The compare this operation performs, if it is one.
    pub fn compare(self) -> Option<CmpDesc> {
        self.desc().cmp
    }

    /// What this SOPP branch tests, if it is one (the `branch(COND)` cells of the `jit`
    /// column).
    pub fn branch(self) -> Option<BranchIf> {
        self.desc().branch
    }

    /// The rows of this operation (one per native encoding; usually one).
    pub fn rows(self) -> &'static [&'static Row] {
        lookups().by_op.get(&self).map_or(&[], |v| v.as_slice())
    }

    /// The row of this operation in native encoding `enc` that exists in `gen`, if any.
    pub fn row_in(self, gen: Gen, enc: TableEnc) -> Option<&'static Row> {
        self.rows()
            .iter()
            .copied()
            .find(|r| r.enc == enc && r.opcode[gen.index()].is_some())
    }

    /// The row of this operation that exists in `gen`, if any.
    pub fn row(self, gen: Gen) -> Option<&'static Row> {
        self.rows()
            .iter()
            .copied()
            .find(|r| r.opcode[gen.index()].is_some())
    }
}

/// VOP3 opcode of a VOP1/VOP2/VOPC opcode in `gen` (encodings.md: "VOP3 numbers").
pub fn vop3_twin_opcode(gen: Gen, enc: TableEnc, op: u16) -> Option<u16> {
    let base = match (enc, gen) {
        (TableEnc::Vopc, _) => 0,
        (TableEnc::Vop2, _) => 256,
        (TableEnc::Vop1, Gen::Gfx8) => 320,
        (TableEnc::Vop1, _) => 384,
        _ => return None,
    };
    Some(base + op)
}

struct Lookups {
    by_name: HashMap<&'static str, Op>,
    by_op: HashMap<Op, Vec<&'static Row>>,
    /// (gen, native encoding, opcode) → row; VOP3 twins are under `Vop3`.
    by_code: HashMap<(Gen, TableEnc, u16), &'static Row>,
}

fn lookups() -> &'static Lookups {
    static L: OnceLock<Lookups> = OnceLock::new();
    L.get_or_init(|| {
        let mut by_name = HashMap::new();
        let mut by_op: HashMap<Op, Vec<&'static Row>> = HashMap::new();
        let mut by_code = HashMap::new();
        for r in ROWS.iter() {
            by_name.insert(r.op.mnemonic(), r.op);
        }
        for r in ROWS.iter() {
            // An alias never hides an operation's own name (gfx6 `v_mqsad_u8` is also
            // called `v_mqsad_pk_u16_u8`, which is a different operation on gfx7/gfx8).
            if let Some(a) = r.other_name() {
                by_name.entry(a).or_insert(r.op);
            }
        }
        for r in ROWS.iter() {
            by_op.entry(r.op).or_default().push(r);
            for g in Gen::ALL {
                if let Some(o) = r.opcode[g.index()] {
                    by_code.insert((g, r.enc, o), r);
                    if r.e64[g.index()] {
                        if let Some(t) = vop3_twin_opcode(g, r.enc, o) {
                            by_code.insert((g, TableEnc::Vop3, t), r);
                        }
                    }
                }
            }
        }
        Lookups {
            by_name,
            by_op,
            by_code,
        }
    })
}

/// The row for an opcode of an encoding in a generation. For `TableEnc::Vop3` this finds
/// VOP3-only rows, VOP3B rows and the VOP3 twins of VOP1/VOP2/VOPC rows.
pub fn lookup(gen: Gen, enc: TableEnc, opcode: u16) -> Option<&'static Row> {
    let l = lookups();
    if enc == TableEnc::Vop3 {
        return l
            .by_code
            .get(&(gen, TableEnc::Vop3, opcode))
            .or_else(|| l.by_code.get(&(gen, TableEnc::Vop3b, opcode)))
            .copied();
    }
    l.by_code.get(&(gen, enc, opcode)).copied()
}
