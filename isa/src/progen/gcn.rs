//! GCN instructions from the table: the candidates of a generation (every row in every
//! encoding it can take), a weighted pool of the candidates an engine supports, and the
//! synthesis of one random, encodable instruction of a candidate.
//!
//! Operands follow the row's signature and layout (`operands`): the field says what can be
//! encoded there (a 9-bit source, an 8-bit VGPR, a scalar destination, …), the kind says
//! the width. Values are biased to what breaks executors: inline constants and literals,
//! VCC and EXEC as operands and destinations, SDWA selections with sign extension, every
//! DPP control with row/bank masks and BOUND_CTRL, VOP3 ABS/NEG/OMOD/CLAMP.

use crate::gcn::inst::{
    BufferFields, DppFields, DsFields, FlatFields, SdwaFields, SmemFields, SmrdFields,
    VintrpFields, Vop3Fields,
};
use std::collections::HashSet;

use rand::Rng;

use super::drawn;
use super::layout::*;
use super::values;
use crate::arch::Gen;
use crate::gcn::decode::{dpp_ctrl_valid, needs_literal};
use crate::gcn::encode::encode;
use crate::gcn::operand::{operands, vop3_is_b, InterpAttr, Kind, Operand};
use crate::gcn::table::{Field, Op, Row, TableEnc, ROWS};
use crate::gcn::{flow, Enc, Fields, Inst, Src, VopBase};
use crate::ir::Flow;

/// The encoding a candidate is generated in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Form {
    /// The row's own encoding.
    Native,
    /// The VOP3 twin of a VOP1/VOP2/VOPC row.
    Vop3,
    /// VOP_SDWA around a VOP1/VOP2/VOPC row (GCN 1.2).
    Sdwa,
    /// VOP_DPP around a VOP1/VOP2/VOPC row (GCN 1.2).
    Dpp,
}

/// One thing the generator can emit: a table row in one encoding.
#[derive(Clone, Copy, Debug)]
pub struct Cand {
    pub row: &'static Row,
    pub form: Form,
}

fn vop_base(te: TableEnc) -> Option<VopBase> {
    match te {
        TableEnc::Vop1 => Some(VopBase::Vop1),
        TableEnc::Vop2 => Some(VopBase::Vop2),
        TableEnc::Vopc => Some(VopBase::Vopc),
        _ => None,
    }
}

fn native_enc(te: TableEnc) -> Option<Enc> {
    // Image words are only printed and re-encoded (no semantics).
    (te != TableEnc::Mimg).then(|| Enc::native(te))
}

impl Cand {
    pub fn op(&self) -> Op {
        self.row.op
    }

    /// The encoding of the instructions this candidate makes.
    pub fn enc(&self) -> Option<Enc> {
        match self.form {
            Form::Native => native_enc(self.row.enc),
            Form::Vop3 => Some(Enc::Vop3),
            Form::Sdwa => vop_base(self.row.enc).map(|base| Enc::Sdwa { base }),
            Form::Dpp => vop_base(self.row.enc).map(|base| Enc::Dpp { base }),
        }
    }

    /// `v_add_f32_sdwa`, `s_mov_b32`, … for messages and statistics.
    pub fn name(&self) -> String {
        let suffix = match self.form {
            Form::Native => "",
            Form::Vop3 => "_e64",
            Form::Sdwa => "_sdwa",
            Form::Dpp => "_dpp",
        };
        format!("{}{}", self.row.op.mnemonic(), suffix)
    }

    /// The share of the program mix this candidate's family gets, in per mille.
    fn family_share(&self) -> u32 {
        match (self.form, self.row.enc) {
            (Form::Sdwa, _) | (Form::Dpp, _) => 90,
            (Form::Vop3, _) => 100,
            (_, TableEnc::Sop1 | TableEnc::Sop2 | TableEnc::Sopc | TableEnc::Sopk) => 200,
            (_, TableEnc::Sopp) => 8,
            (_, TableEnc::Smrd | TableEnc::Smem) => 30,
            (_, TableEnc::Vop1) => 80,
            (_, TableEnc::Vop2) => 110,
            (_, TableEnc::Vopc) => 50,
            (_, TableEnc::Vop3 | TableEnc::Vop3b) => 130,
            (_, TableEnc::Ds) => 50,
            (_, TableEnc::Mubuf) => 35,
            (_, TableEnc::Mtbuf) => 5,
            (_, TableEnc::Flat) => 30,
            (_, TableEnc::Vintrp) => 25,
            (_, TableEnc::Exp) => 12,
            (_, TableEnc::Mimg) => 0,
        }
    }

    /// Extra weight for the tricky parts: 64-bit operands and VCC/EXEC producers.
    fn boost(&self) -> u64 {
        let sig = self.row.sig;
        let mut b = 4;
        if sig.split([',', '+']).any(|w| w == "v2" || w == "s2") {
            b += 2;
        }
        if sig.contains("vcc") {
            b += 3;
        }
        let m = self.row.op.mnemonic();
        if m.starts_with("v_cmpx") || m.contains("saveexec") {
            b += 3;
        }
        b
    }
}

fn row_flow(row: &Row) -> Flow {
    let probe = Inst {
        op: row.op,
        enc: Enc::Sopp,
        fields: Fields::Sopp { simm16: 0 },
        literal: None,
    };
    flow(&probe, 0, 4)
}

/// The control-flow rows of `gen` the shapes place themselves: SOPP branches and
/// `s_endpgm` (not computed jumps or barriers). Never drawn at random.
pub fn control_candidates(gen: Gen) -> Vec<Cand> {
    ROWS.iter()
        .filter(|r| r.opcode[gen.index()].is_some() && r.enc == TableEnc::Sopp)
        .filter(|r| matches!(row_flow(r), Flow::Branch { .. } | Flow::End))
        .map(|row| Cand {
            row,
            form: Form::Native,
        })
        .collect()
}

/// Every candidate of `gen`: each row that exists there, in its native encoding, its
/// VOP3 twin, and (GCN 1.2) its SDWA and DPP forms. Control flow (branches, `s_endpgm`,
/// barriers, computed jumps) is left out: the program shapes place it (`shape`).
pub fn candidates(gen: Gen) -> Vec<Cand> {
    let mut out = Vec::new();
    for row in ROWS.iter() {
        if row.opcode[gen.index()].is_none() || native_enc(row.enc).is_none() {
            continue;
        }
        if row_flow(row) != Flow::Next {
            continue;
        }
        out.push(Cand {
            row,
            form: Form::Native,
        });
        if vop_base(row.enc).is_some() {
            if row.e64[gen.index()] {
                out.push(Cand {
                    row,
                    form: Form::Vop3,
                });
            }
            if gen == Gen::Gfx8 && row.sdwa {
                out.push(Cand {
                    row,
                    form: Form::Sdwa,
                });
            }
            if gen == Gen::Gfx8 && row.dpp {
                out.push(Cand {
                    row,
                    form: Form::Dpp,
                });
            }
        }
    }
    out
}

/// The candidates a campaign draws from, with their weights.
#[derive(Clone, Debug)]
pub struct Pool {
    pub gen: Gen,
    cands: Vec<Cand>,
    control: Vec<Cand>,
    cum: Vec<u64>,
    have: HashSet<(Op, Form)>,
}

impl Pool {
    /// The candidates of `gen` that `keep` accepts (the engines implement them).
    /// `keep` is asked about `candidates(gen)` and `control_candidates(gen)`.
    pub fn new(gen: Gen, mut keep: impl FnMut(&Cand) -> bool) -> Pool {
        let cands: Vec<Cand> = candidates(gen).into_iter().filter(|c| keep(c)).collect();
        let control: Vec<Cand> = control_candidates(gen)
            .into_iter()
            .filter(|c| keep(c))
            .collect();
        Pool::from_cands(gen, cands, &control)
    }

    /// A pool drawing from exactly `cands`, whose shapes may use the `control` rows.
    pub fn from_cands(gen: Gen, cands: Vec<Cand>, control: &[Cand]) -> Pool {
        // Each family gets its share, split among its members (VOPC has 250 rows, SOPP 20:
        // weighting per row would drown everything in compares).
        let mut per_family: std::collections::HashMap<(Form, TableEnc), u64> =
            std::collections::HashMap::new();
        for c in &cands {
            *per_family.entry((c.form, c.row.enc)).or_default() += c.boost();
        }
        let mut cum = Vec::with_capacity(cands.len());
        let mut total = 0u64;
        for c in &cands {
            let fam = per_family
                .get(&(c.form, c.row.enc))
                .copied()
                .unwrap_or(1)
                .max(1);
            total += (c.family_share() as u64 * 1_000_000 * c.boost() / fam).max(1);
            cum.push(total);
        }
        let have = cands
            .iter()
            .chain(control)
            .map(|c| (c.row.op, c.form))
            .collect();
        Pool {
            gen,
            cands,
            control: control.to_vec(),
            cum,
            have,
        }
    }

    /// The candidates of this pool that `keep` accepts (the control rows stay).
    pub fn filtered(&self, keep: impl Fn(&Cand) -> bool) -> Pool {
        let cands = self.cands.iter().filter(|c| keep(c)).copied().collect();
        Pool::from_cands(self.gen, cands, &self.control)
    }

    pub fn cands(&self) -> &[Cand] {
        &self.cands
    }

    pub fn is_empty(&self) -> bool {
        self.cands.is_empty()
    }

    /// Whether `op` in `form` is in the pool.
    pub fn has(&self, op: Op, form: Form) -> bool {
        self.have.contains(&(op, form))
    }

    /// A weighted random candidate.
    pub fn pick(&self, rng: &mut impl Rng) -> Option<&Cand> {
        let total = *self.cum.last()?;
        let x = rng.random_range(0..total);
        let i = self.cum.partition_point(|&c| c <= x);
        self.cands.get(i)
    }

    /// A uniformly random candidate among those `f` accepts.
    pub fn pick_where(&self, rng: &mut impl Rng, f: impl Fn(&Cand) -> bool) -> Option<&Cand> {
        let v: Vec<&Cand> = self.cands.iter().filter(|c| f(c)).collect();
        if v.is_empty() {
            return None;
        }
        Some(v[rng.random_range(0..v.len())])
    }
}

/// A random instruction of `cand`, checked by the encoder; `None` if no attempt encodes.
pub fn synth(gen: Gen, cand: &Cand, rng: &mut impl Rng) -> Option<Inst> {
    for _ in 0..12 {
        if let Some(inst) = build(gen, cand, rng) {
            if encode(gen, &inst).is_ok() {
                return Some(inst);
            }
        }
    }
    None
}

/// A VGPR tuple of `n` dwords in the pool.
fn vgpr(rng: &mut impl Rng, n: u8) -> u8 {
    rng.random_range(0..=VPOOL.saturating_sub(n.max(1)))
}

/// An SGPR tuple of `n` dwords in the pool, aligned as the hardware wants tuples.
fn sgpr(rng: &mut impl Rng, n: u8) -> u8 {
    let align = n.clamp(1, 4);
    let slots = (SPOOL - n.max(1)) / align + 1;
    rng.random_range(0..slots) * align
}

fn inline_int(rng: &mut impl Rng) -> Src {
    match rng.random_range(0..8) {
        0 => Src(128),
        1 => Src(129),
        2 => Src(193),
        3 => Src(192),
        4 => Src(208),
        _ => Src(rng.random_range(128..=208)),
    }
}

fn inline_float(gen: Gen, rng: &mut impl Rng) -> Src {
    let top = if gen == Gen::Gfx8 { 248 } else { 247 };
    Src(rng.random_range(240..=top))
}

/// A scalar destination of `n` dwords: mostly the pool, sometimes VCC, EXEC or M0.
fn sdst(rng: &mut impl Rng, n: u8) -> u8 {
    match rng.random_range(0..100) {
        0..=79 => sgpr(rng, n),
        80..=87 if n <= 2 => 106 + if n == 1 { rng.random_range(0..2) } else { 0 },
        88..=93 if n <= 2 => 126 + if n == 1 { rng.random_range(0..2) } else { 0 },
        94..=96 if n == 1 => 124,
        _ => sgpr(rng, n),
    }
}

/// A scalar source of `n` dwords (SOP*, or a VALU operand that must be scalar).
fn ssrc(gen: Gen, rng: &mut impl Rng, n: u8, literal_ok: bool) -> Src {
    match rng.random_range(0..100) {
        0..=49 => Src(sgpr(rng, n) as u16),
        // Reserved registers are fine to read.
        50..=53 => Src((S_LOOP + 2 * rng.random_range(0..10)) as u16),
        54..=60 if n <= 2 => Src(106 + if n == 1 { rng.random_range(0..2) } else { 0 }),
        61..=64 if n <= 2 => Src(126 + if n == 1 { rng.random_range(0..2) } else { 0 }),
        65..=66 if n == 1 => Src::M0,
        67..=80 => inline_int(rng),
        81..=87 => inline_float(gen, rng),
        88..=96 if literal_ok => Src::LITERAL,
        97..=99 if n == 1 => Src(rng.random_range(251..=253)),
        _ => inline_int(rng),
    }
}

/// A VALU source of `n` dwords in a 9-bit source field.
fn vsrc(gen: Gen, rng: &mut impl Rng, n: u8, literal_ok: bool) -> Src {
    match rng.random_range(0..100) {
        0..=54 => Src::vgpr(vgpr(rng, n)),
        55..=65 => Src(sgpr(rng, n) as u16),
        66..=75 => inline_int(rng),
        76..=84 => inline_float(gen, rng),
        85..=90 if literal_ok => Src::LITERAL,
        91..=94 => Src(106 + if n == 1 { rng.random_range(0..2) } else { 0 }),
        95..=96 => Src(126 + if n == 1 { rng.random_range(0..2) } else { 0 }),
        97 if n == 1 => Src::M0,
        98..=99 if n == 1 => Src(rng.random_range(251..=253)),
        _ => Src::vgpr(vgpr(rng, n)),
    }
}

/// A source field holding an operand of kind `k` (`None`: the form has no operand there).
fn src_for(gen: Gen, rng: &mut impl Rng, k: Option<Kind>, literal_ok: bool) -> Src {
    match k {
        None => Src(0),
        Some(Kind::Vgpr(n)) => vsrc(gen, rng, n, literal_ok),
        Some(Kind::Sgpr(n)) => ssrc(gen, rng, n, literal_ok),
        Some(Kind::Vcc) => Src::VCC_LO,
        Some(Kind::Exec) => Src::EXEC_LO,
        Some(Kind::M0) => Src::M0,
        Some(Kind::Scc) => Src::SCC,
        Some(Kind::Imm) => {
            if rng.random_bool(0.7) {
                Src(128 + rng.random_range(0..64))
            } else {
                Src(sgpr(rng, 1) as u16)
            }
        }
        Some(Kind::Attr) => InterpAttr {
            attr: if rng.random_bool(0.9) {
                rng.random_range(0..4)
            } else {
                rng.random_range(0..64)
            },
            chan: rng.random_range(0..4),
            high: rng.random_bool(0.3),
        }
        .to_src(),
        Some(Kind::Param) => Src(rng.random_range(0..3)),
        Some(_) => Src(rng.random_range(0..16)),
    }
}

/// A VGPR destination field holding an operand of kind `k`.
fn vdst_for(rng: &mut impl Rng, k: Option<Kind>) -> u8 {
    match k {
        None => 0,
        Some(Kind::Sgpr(n)) => sdst(rng, n),
        Some(Kind::Vcc) => 106,
        Some(k) => vgpr(rng, k.dwords().max(1)),
    }
}

/// An 8-bit VSRC1 field (VOP2/VOPC): a VGPR, or for the lane operations a scalar register.
fn vsrc1_for(rng: &mut impl Rng, k: Option<Kind>) -> u8 {
    match k {
        None => 0,
        Some(Kind::Sgpr(n)) => {
            if rng.random_bool(0.15) {
                124
            } else {
                sgpr(rng, n)
            }
        }
        Some(Kind::Imm) => rng.random_range(0..64),
        Some(k) => vgpr(rng, k.dwords().max(1)),
    }
}

/// A SIMM16 for an operand of kind `k`.
fn simm16_for(rng: &mut impl Rng, k: Option<Kind>) -> u16 {
    match k {
        Some(Kind::Hwreg) => hwreg(rng),
        Some(Kind::Imm) => match rng.random_range(0..4) {
            0 => rng.random(),
            1 => (rng.random_range(-16i16..=16)) as u16,
            _ => rng.random_range(0..=64),
        },
        Some(Kind::Waitcnt) => rng.random(),
        Some(Kind::GprIdx) => rng.random_range(0..16),
        Some(_) => rng.random_range(0..16),
        None => 0,
    }
}

/// A hardware register selector (ID 5:0, OFFSET 10:6, SIZE-1 15:11), mostly MODE.
fn hwreg(rng: &mut impl Rng) -> u16 {
    const MODE: u16 = 1;
    match rng.random_range(0..10) {
        0..=5 => MODE | 31 << 11,
        6..=7 => {
            let off = rng.random_range(0..10u16);
            let size = rng.random_range(1..=(32 - off));
            MODE | off << 6 | (size - 1) << 11
        }
        _ => {
            rng.random_range(1..8u16)
                | rng.random_range(0..32u16) << 6
                | rng.random_range(0..32u16) << 11
        }
    }
}

/// A MODE register value: round modes, denormal controls, DX10_CLAMP, IEEE.
pub fn mode_value(rng: &mut impl Rng) -> u32 {
    match rng.random_range(0..10) {
        0..=3 => 0xC0,
        4..=5 => 0xF0,
        6 => 0,
        _ => rng.random_range(0..0x400),
    }
}

/// A DPP_CTRL value: every defined control, biased to the lane-crossing ones.
fn dpp_ctrl(rng: &mut impl Rng) -> u16 {
    loop {
        let c = match rng.random_range(0..12) {
            0..=2 => rng.random_range(0..=0xff),  // quad_perm
            3 => 0x100 + rng.random_range(1..16), // row_shl
            4 => 0x110 + rng.random_range(1..16), // row_shr
            5 => 0x120 + rng.random_range(1..16), // row_ror
            6 => [0x130, 0x134, 0x138, 0x13c][rng.random_range(0..4)], // wave shifts
            7 => 0x140 + rng.random_range(0..4),  // mirrors, broadcasts
            8 => 0xe4,                            // identity quad_perm
            _ => rng.random_range(0..0x144),
        };
        if dpp_ctrl_valid(c) {
            return c;
        }
    }
}

fn mask4(rng: &mut impl Rng) -> u8 {
    if rng.random_bool(0.6) {
        0xf
    } else {
        rng.random_range(0..16)
    }
}

fn sel(rng: &mut impl Rng) -> u8 {
    if rng.random_bool(0.3) {
        6
    } else {
        rng.random_range(0..7)
    }
}

/// One random instruction of `cand`, not yet checked by the encoder.
fn build(gen: Gen, cand: &Cand, rng: &mut impl Rng) -> Option<Inst> {
    let row = cand.row;
    let enc = cand.enc()?;
    let ops: Vec<Operand> = operands(row, cand.form == Form::Vop3);
    let kind = |f: Field| ops.iter().find(|o| o.field == f).map(|o| o.kind);
    let fields = match enc {
        Enc::Sop2 => Fields::Sop2 {
            sdst: kind(Field::Sdst).map_or(0, |k| sdst(rng, k.dwords())),
            ssrc0: src_for(gen, rng, kind(Field::Ssrc0), true),
            ssrc1: src_for(gen, rng, kind(Field::Ssrc1), true),
        },
        Enc::Sopk => Fields::Sopk {
            sdst: kind(Field::Sdst).map_or(0, |k| match k {
                Kind::Sgpr(n) => sdst(rng, n),
                _ => 0,
            }),
            simm16: simm16_for(rng, kind(Field::Simm16)),
        },
        Enc::Sop1 => Fields::Sop1 {
            sdst: kind(Field::Sdst).map_or(0, |k| sdst(rng, k.dwords())),
            ssrc0: src_for(gen, rng, kind(Field::Ssrc0), true),
        },
        Enc::Sopc => Fields::Sopc {
            ssrc0: src_for(gen, rng, kind(Field::Ssrc0), true),
            ssrc1: src_for(gen, rng, kind(Field::Ssrc1), true),
        },
        Enc::Sopp => Fields::Sopp {
            simm16: simm16_for(rng, kind(Field::Simm16)),
        },
        Enc::Smrd | Enc::Smem => scalar_mem(gen, rng, enc, &kind),
        Enc::Vop1 => Fields::Vop1 {
            vdst: vdst_for(rng, kind(Field::Vdst)),
            src0: src_for(gen, rng, kind(Field::Src0), true),
        },
        Enc::Vop2 => Fields::Vop2 {
            vdst: vdst_for(rng, kind(Field::Vdst)),
            src0: src_for(gen, rng, kind(Field::Src0), true),
            vsrc1: vsrc1_for(rng, kind(Field::Vsrc1)),
        },
        Enc::Vopc => Fields::Vopc {
            src0: src_for(gen, rng, kind(Field::Src0), true),
            vsrc1: vsrc1_for(rng, kind(Field::Vsrc1)),
        },
        Enc::Vop3 => {
            let is_b = vop3_is_b(row);
            let mut src = [Src(0); 3];
            for (i, f) in [Field::Src0, Field::Src1, Field::Src2]
                .into_iter()
                .enumerate()
            {
                src[i] = match kind(f) {
                    // An unused source field: 0 as LLVM writes it, now and then a VGPR.
                    None if rng.random_bool(0.1) => Src::vgpr(vgpr(rng, 1)),
                    k => src_for(gen, rng, k, false),
                };
            }
            let bits3 = |rng: &mut _| {
                if Rng::random_bool(rng, 0.3) {
                    Rng::random_range(rng, 1..8u8)
                } else {
                    0
                }
            };
            Fields::Vop3(Vop3Fields {
                vdst: vdst_for(rng, kind(Field::Vdst)),
                sdst: if is_b {
                    kind(Field::Sdst).map_or(0, |k| sdst(rng, k.dwords()))
                } else {
                    0
                },
                src,
                abs: if is_b { 0 } else { bits3(rng) },
                neg: bits3(rng),
                clamp: rng.random_bool(0.15),
                omod: if rng.random_bool(0.15) {
                    rng.random_range(1..4)
                } else {
                    0
                },
            })
        }
        Enc::Sdwa { base } | Enc::Dpp { base } => {
            let (has_dst, has_src1) = (base != VopBase::Vopc, base != VopBase::Vop1);
            let vdst = if has_dst {
                vdst_for(rng, kind(Field::Vdst))
            } else {
                0
            };
            let src0 = kind(Field::Src0).map_or(0, |_| vgpr(rng, 1));
            let vsrc1 = if has_src1 { vgpr(rng, 1) } else { 0 };
            if matches!(enc, Enc::Dpp { .. }) {
                Fields::Dpp(DppFields {
                    vdst,
                    src0,
                    vsrc1,
                    dpp_ctrl: dpp_ctrl(rng),
                    bound_ctrl: rng.random_bool(0.5),
                    src0_neg: rng.random_bool(0.2),
                    src0_abs: rng.random_bool(0.2),
                    src1_neg: has_src1 && rng.random_bool(0.2),
                    src1_abs: has_src1 && rng.random_bool(0.2),
                    bank_mask: mask4(rng),
                    row_mask: mask4(rng),
                })
            } else {
                let rare = |rng: &mut _| Rng::random_bool(rng, 0.1);
                Fields::Sdwa(SdwaFields {
                    vdst,
                    src0,
                    vsrc1,
                    dst_sel: if has_dst || rare(rng) { sel(rng) } else { 0 },
                    dst_unused: if has_dst || rare(rng) {
                        rng.random_range(0..3)
                    } else {
                        0
                    },
                    clamp: rng.random_bool(0.15),
                    src0_sel: sel(rng),
                    src0_sext: rng.random_bool(0.3),
                    src0_neg: rng.random_bool(0.2),
                    src0_abs: rng.random_bool(0.2),
                    src1_sel: if has_src1 || rare(rng) { sel(rng) } else { 0 },
                    src1_sext: (has_src1 || rare(rng)) && rng.random_bool(0.3),
                    src1_neg: (has_src1 || rare(rng)) && rng.random_bool(0.2),
                    src1_abs: (has_src1 || rare(rng)) && rng.random_bool(0.2),
                })
            }
        }
        Enc::Vintrp => Fields::Vintrp(VintrpFields {
            vdst: vdst_for(rng, kind(Field::Vdst)),
            vsrc: match kind(Field::Vsrc) {
                Some(Kind::Param) => rng.random_range(0..3),
                // Mostly the I/J registers of drawn states.
                _ if rng.random_bool(0.7) => drawn::IJ_VGPR + rng.random_range(0..4),
                k => vdst_for(rng, k),
            },
            attr: if rng.random_bool(0.9) {
                rng.random_range(0..4)
            } else {
                rng.random_range(0..64)
            },
            chan: rng.random_range(0..4),
        }),
        Enc::Ds => {
            let addr = match kind(Field::Addr) {
                None => 0,
                Some(_) if rng.random_bool(0.95) => V_LDS_ADDR,
                Some(_) => vgpr(rng, 1),
            };
            // Aligned for every access size (misaligned addresses come from the state);
            // small values double as read2/write2 element offsets.
            let offset = |rng: &mut _| match Rng::random_range(rng, 0..10) {
                0..=3 => 0u8,
                4..=7 => Rng::random_range(rng, 0..16u8) * 16,
                8 => Rng::random_range(rng, 0..4u8) * 8,
                _ => Rng::random::<u8>(rng) & !15,
            };
            Fields::Ds(DsFields {
                vdst: kind(Field::Vdst).map_or(0, |k| vgpr(rng, k.dwords())),
                addr,
                data0: kind(Field::Data0).map_or(0, |k| vgpr(rng, k.dwords())),
                data1: kind(Field::Data1).map_or(0, |k| vgpr(rng, k.dwords())),
                offset0: offset(rng),
                offset1: if rng.random_bool(0.6) { 0 } else { offset(rng) },
                gds: false,
            })
        }
        Enc::Mubuf | Enc::Mtbuf => buffer(gen, rng, enc, &kind),
        Enc::Flat => Fields::Flat(FlatFields {
            vdst: kind(Field::Vdst).map_or(0, |k| vgpr(rng, k.dwords())),
            addr: if rng.random_bool(0.95) {
                V_FLAT_ADDR
            } else {
                vgpr(rng, 2)
            },
            data: kind(Field::Data).map_or(0, |k| vgpr(rng, k.dwords())),
            glc: rng.random_bool(0.5),
            slc: rng.random_bool(0.2),
            tfe: rng.random_bool(0.02),
        }),
        Enc::Exp => exp(gen, rng),
        Enc::Mimg => return None,
    };
    let mut inst = Inst {
        op: row.op,
        enc,
        fields,
        literal: None,
    };
    if needs_literal(gen, row.op, &inst.fields) {
        inst.literal = Some(if row.op == Op::SSetregImm32B32 {
            mode_value(rng)
        } else {
            values::literal(rng)
        });
    }
    Some(inst)
}

/// EXP (kept as its two words, as the decoder keeps it): every valid target (MRT0-7,
/// MRTZ, NULL, POS0-3, PARAM0-31), any channel mask, COMPR, DONE and VM; each source a
/// channel uses is a pool VGPR, the others 0 (the decoder refuses anything else).
fn exp(gen: Gen, rng: &mut impl Rng) -> Fields {
    let tgt: u32 = match rng.random_range(0..10) {
        0..=4 => rng.random_range(0..8),
        5 => 8,
        6 => 9,
        7 => rng.random_range(12..16),
        _ => rng.random_range(32..64),
    };
    let en = mask4(rng) as u32;
    let compr = rng.random_bool(0.25);
    let (done, vm) = (rng.random_bool(0.3), rng.random_bool(0.3));
    let mut w1 = 0u32;
    for i in 0..4 {
        let used = if compr {
            i < 2 && en >> (2 * i) & 3 != 0
        } else {
            en >> i & 1 != 0
        };
        if used {
            w1 |= (vgpr(rng, 1) as u32) << (8 * i);
        }
    }
    // The encoding's tag: 0x3E on GCN 1.0/1.1, 0x31 on GCN 1.2.
    let tag: u32 = if gen == Gen::Gfx8 { 0x31 } else { 0x3E };
    let w0 =
        tag << 26 | (vm as u32) << 12 | (done as u32) << 11 | (compr as u32) << 10 | tgt << 4 | en;
    Fields::Raw { words: [w0, w1] }
}

/// SMRD (GCN 1.0/1.1) and SMEM (GCN 1.2): the base is the reserved address (a pair) or
/// buffer resource (a quad); offsets stay inside the mapped region except now and then.
fn scalar_mem(
    gen: Gen,
    rng: &mut impl Rng,
    enc: Enc,
    kind: &dyn Fn(Field) -> Option<Kind>,
) -> Fields {
    let sdata = match kind(Field::Sdata) {
        Some(Kind::Sgpr(n)) => sgpr(rng, n),
        Some(Kind::Imm) => rng.random_range(0..8),
        _ => 0,
    };
    let sbase = match kind(Field::Sbase) {
        Some(Kind::Sgpr(4)) => S_RSRC,
        Some(_) => S_BASE,
        None => 0,
    };
    let has_offset = kind(Field::Offset).is_some();
    let r = rng.random_range(0..100);
    let imm = has_offset && r < 90;
    if enc == Enc::Smrd {
        let offset = if !has_offset {
            0
        } else if imm {
            if r < 85 {
                rng.random_range(0..16)
            } else {
                rng.random()
            }
        } else if gen == Gen::Gfx7 && r >= 96 {
            255 // literal offset follows
        } else {
            sgpr(rng, 1)
        };
        Fields::Smrd(SmrdFields {
            sdst: sdata,
            sbase,
            imm,
            offset,
        })
    } else {
        let offset = if !has_offset {
            0
        } else if imm {
            if r < 85 {
                rng.random_range(0..64) * 4
            } else {
                rng.random_range(0..1 << 20)
            }
        } else {
            sgpr(rng, 1) as u32
        };
        Fields::Smem(SmemFields {
            sdata,
            sbase,
            imm,
            glc: rng.random_bool(0.3),
            offset,
        })
    }
}

/// MUBUF / MTBUF through the reserved buffer resource, addressed by one of the reserved
/// per-lane offset/index/address VGPRs.
fn buffer(gen: Gen, rng: &mut impl Rng, enc: Enc, kind: &dyn Fn(Field) -> Option<Kind>) -> Fields {
    if kind(Field::Srsrc).is_none() {
        // Cache control (buffer_wbinvl1, …): no operands, every field zero.
        return Fields::Mubuf(BufferFields {
            vdata: 0,
            vaddr: 0,
            srsrc: 0,
            soffset: Src(0),
            offset: 0,
            offen: false,
            idxen: false,
            glc: false,
            slc: false,
            tfe: false,
            lds: false,
            addr64: false,
            format: None,
        });
    }
    let vdata = kind(Field::Vdata).map_or(0, |k| vgpr(rng, k.dwords()));
    let modes = if gen == Gen::Gfx8 { 4 } else { 5 };
    let (offen, idxen, addr64, vaddr) = match rng.random_range(0..modes) {
        0 => (false, false, false, 0),
        1 => (true, false, false, V_BUF_OFF),
        2 => (false, true, false, V_BUF_IDX),
        3 => (true, true, false, V_BUF_IDX),
        _ => (false, false, true, V_ADDR64),
    };
    let soffset = match rng.random_range(0..10) {
        0..=6 => Src::ZERO,
        7..=8 => Src(128 + 8 * rng.random_range(0..3)),
        _ => Src(sgpr(rng, 1) as u16),
    };
    // Multiples of 8: 64-bit atomics need alignment (misaligned addresses come from the state).
    let offset = if rng.random_bool(0.7) {
        rng.random_range(0..8) * 8
    } else {
        rng.random_range(0..512) * 8
    };
    let (glc, slc, tfe) = (
        rng.random_bool(0.4),
        rng.random_bool(0.2),
        rng.random_bool(0.02),
    );
    let b = BufferFields {
        vdata,
        vaddr,
        srsrc: S_RSRC,
        soffset,
        offset,
        offen,
        idxen,
        glc,
        slc,
        tfe,
        lds: false,
        addr64,
        format: None,
    };
    if enc == Enc::Mtbuf {
        Fields::Mtbuf(BufferFields {
            format: Some((rng.random_range(0..16), rng.random_range(0..8))),
            ..b
        })
    } else {
        Fields::Mubuf(BufferFields {
            lds: rng.random_bool(0.02),
            ..b
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gcn::decode;

    #[test]
    fn every_candidate_synthesises_and_round_trips() {
        for gen in Gen::ALL {
            let cands = candidates(gen);
            assert!(cands.len() > 400, "{gen}: {} candidates", cands.len());
            let mut rng = crate::progen::rng(5, gen.index() as u64);
            let mut failed = Vec::new();
            for c in &cands {
                let mut ok = 0;
                for _ in 0..20 {
                    if let Some(inst) = synth(gen, c, &mut rng) {
                        let words = encode(gen, &inst).expect("synth checked it");
                        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                        let (back, n) = decode(gen, &bytes, 0).expect("decodes");
                        assert_eq!(back, inst);
                        assert_eq!(n as usize, bytes.len());
                        assert_eq!(back.enc, c.enc().expect("enc"));
                        ok += 1;
                    }
                }
                if ok < 10 {
                    failed.push(format!("{} ({ok}/20)", c.name()));
                }
            }
            assert!(failed.is_empty(), "{gen}: rarely encodable: {failed:?}");
        }
    }

    #[test]
    fn forms_per_generation() {
        let f8 = candidates(Gen::Gfx8);
        let f6 = candidates(Gen::Gfx6);
        let add8: Vec<Form> = f8
            .iter()
            .filter(|c| c.op() == Op::VAddF32)
            .map(|c| c.form)
            .collect();
        assert_eq!(add8, vec![Form::Native, Form::Vop3, Form::Sdwa, Form::Dpp]);
        let add6: Vec<Form> = f6
            .iter()
            .filter(|c| c.op() == Op::VAddF32)
            .map(|c| c.form)
            .collect();
        assert_eq!(add6, vec![Form::Native, Form::Vop3]);
        // Control flow is placed by the shapes, never drawn at random.
        for c in f8.iter().chain(&f6) {
            assert!(!matches!(
                c.op(),
                Op::SEndpgm | Op::SBranch | Op::SCbranchScc0 | Op::SSetpcB64
            ));
        }
        // 64-bit operands have no SDWA/DPP forms.
        assert!(!f8
            .iter()
            .any(|c| c.op() == Op::VAddF64 && c.form == Form::Sdwa));
    }

    #[test]
    fn exports_take_every_kind_of_target() {
        use crate::gcn::{ExpFields, ExpTarget};
        for gen in Gen::ALL {
            let c = candidates(gen)
                .into_iter()
                .find(|c| c.row.enc == TableEnc::Exp)
                .expect("EXP is a candidate");
            let mut rng = crate::progen::rng(6, gen.index() as u64);
            let mut kinds = [0u32; 5];
            let (mut compr, mut done, mut vm) = (0, 0, 0);
            for _ in 0..400 {
                let inst = synth(gen, &c, &mut rng).expect("EXP always encodes");
                let f = ExpFields::of(&inst).expect("EXP fields");
                let k = match ExpTarget::from_tgt(f.tgt).expect("a valid target") {
                    ExpTarget::Mrt(_) => 0,
                    ExpTarget::Mrtz => 1,
                    ExpTarget::Null => 2,
                    ExpTarget::Pos(_) => 3,
                    ExpTarget::Param(_) => 4,
                };
                kinds[k] += 1;
                compr += f.compr as u32;
                done += f.done as u32;
                vm += f.vm as u32;
                // Sources are pool VGPRs.
                assert!(f.vsrc.iter().all(|&v| v < VPOOL), "{f:?}");
            }
            assert!(kinds.iter().all(|&k| k >= 10), "{gen}: {kinds:?}");
            assert!(compr > 40 && done > 40 && vm > 40, "{compr} {done} {vm}");
        }
    }

    #[test]
    fn pool_weights_favour_no_single_family() {
        let pool = Pool::new(Gen::Gfx8, |_| true);
        let mut rng = crate::progen::rng(1, 1);
        let mut vopc = 0;
        let n = 20_000;
        for _ in 0..n {
            let c = pool.pick(&mut rng).expect("non-empty");
            if c.row.enc == TableEnc::Vopc && c.form == Form::Native {
                vopc += 1;
            }
        }
        // VOPC is 250 of ~1000 rows but gets only its 5 % family share (with boosts).
        assert!(vopc < n / 10, "{vopc}");
        assert!(vopc > n / 100, "{vopc}");
    }
}
