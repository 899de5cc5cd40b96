//! The decoded GCN instruction: which operation (`Op`, from the table), which encoding it
//! came in, and its fields exactly as encoded, so that encoding it again gives the same
//! bytes. Operand *meaning* (register file, width, inline constant value) is derived from
//! these fields with the generation and the table row; see `operand.rs`.

use super::table::{Op, TableEnc};
use crate::arch::Gen;

/// The encoding an instruction was (or will be) written in.
///
/// `Sdwa` and `Dpp` carry the VOP1/VOP2/VOPC encoding they extend in `base`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Enc {
    Sop2,
    Sopk,
    Sop1,
    Sopc,
    Sopp,
    /// Scalar memory read, GCN 1.0/1.1 (one dword, 8-bit offset).
    Smrd,
    /// Scalar memory, GCN 1.2 (two dwords, 20-bit offset).
    Smem,
    Vop1,
    Vop2,
    Vopc,
    /// VOP3A or VOP3B (which one is a property of the operation, see the table).
    Vop3,
    /// VOP_SDWA extending a VOP1/VOP2/VOPC instruction (GCN 1.2).
    Sdwa {
        base: VopBase,
    },
    /// VOP_DPP extending a VOP1/VOP2/VOPC instruction (GCN 1.2).
    Dpp {
        base: VopBase,
    },
    Vintrp,
    Ds,
    Mubuf,
    Mtbuf,
    Mimg,
    Flat,
    Exp,
}

/// The 32-bit VALU encodings that SDWA and DPP extend.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VopBase {
    Vop1,
    Vop2,
    Vopc,
}

/// A 9-bit source operand field as encoded (SRC0 of VOP1/2/C, SRC0-2 of VOP3, SSRC of SOP*
/// zero-extended): 0-127 scalar registers and special registers, 128-208 inline integers,
/// 240-248 inline floats, 251-255 specials and literal, 256-511 VGPRs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Src(pub u16);

impl Src {
    pub const VCC_LO: Src = Src(106);
    pub const VCC_HI: Src = Src(107);
    pub const M0: Src = Src(124);
    pub const EXEC_LO: Src = Src(126);
    pub const EXEC_HI: Src = Src(127);
    pub const ZERO: Src = Src(128);
    pub const SDWA: Src = Src(249);
    pub const DPP: Src = Src(250);
    pub const VCCZ: Src = Src(251);
    pub const EXECZ: Src = Src(252);
    pub const SCC: Src = Src(253);
    pub const LDS_DIRECT: Src = Src(254);
    pub const LITERAL: Src = Src(255);

    /// A VGPR operand `v[n]`.
    pub fn vgpr(n: u8) -> Src {
        Src(256 + n as u16)
    }
    /// The VGPR number when this is a VGPR.
    pub fn as_vgpr(self) -> Option<u8> {
        (self.0 >= 256 && self.0 < 512).then(|| (self.0 - 256) as u8)
    }
    pub fn is_vgpr(self) -> bool {
        self.as_vgpr().is_some()
    }
    /// An inline integer constant (128-208): its value.
    pub fn inline_int(self) -> Option<i32> {
        match self.0 {
            128..=192 => Some(self.0 as i32 - 128),
            193..=208 => Some(192 - self.0 as i32),
            _ => None,
        }
    }
    pub fn is_literal(self) -> bool {
        self.0 == 255
    }
}

/// Fields of an instruction, per encoding, exactly as encoded.
///
/// Register fields hold register numbers (`u8`): `sbase` is the first SGPR of the pair or
/// quad (even; the encoding stores it halved), `srsrc` the first SGPR of the resource
/// descriptor (a multiple of 4; stored quartered). Source fields hold `Src`. The decoder
/// keeps every field of the encoding; a field the operation has no operand in must be 0
/// (see `decode.rs`), so that every decoded instruction can be written as text.
///
/// The encodings with more than a few fields hold a named struct (`Fields::Vop3(f)`,
/// `f.clamp`), so that code reading one or two fields binds the struct instead of listing
/// them, and the struct carries what is computed from its fields. Where a struct has a
/// `Default`, it is every field 0: the fields of an instruction without operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fields {
    Sop2 {
        sdst: u8,
        ssrc0: Src,
        ssrc1: Src,
    },
    Sopk {
        sdst: u8,
        simm16: u16,
    },
    Sop1 {
        sdst: u8,
        ssrc0: Src,
    },
    Sopc {
        ssrc0: Src,
        ssrc1: Src,
    },
    Sopp {
        simm16: u16,
    },
    Smrd(SmrdFields),
    Smem(SmemFields),
    Vop1 {
        vdst: u8,
        src0: Src,
    },
    Vop2 {
        vdst: u8,
        src0: Src,
        vsrc1: u8,
    },
    Vopc {
        src0: Src,
        vsrc1: u8,
    },
    Vop3(Vop3Fields),
    Sdwa(SdwaFields),
    Dpp(DppFields),
    Vintrp(VintrpFields),
    Ds(DsFields),
    /// `format` is `None`.
    Mubuf(BufferFields),
    /// `format` is `Some`, `lds` false.
    Mtbuf(BufferFields),
    Flat(FlatFields),
    /// Encodings decoded only far enough to be printed and re-encoded (MIMG, EXP): the
    /// words, low first.
    Raw {
        words: [u32; 2],
    },
}

/// SMRD (GCN 1.0/1.1, one dword). `offset` is the 8-bit immediate (imm=1) or SGPR number
/// (imm=0); GCN 1.1's literal-offset form (imm=0, offset=255) keeps its dword in
/// `Inst::literal`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SmrdFields {
    pub sdst: u8,
    pub sbase: u8,
    pub imm: bool,
    pub offset: u8,
}

/// SMEM (GCN 1.2, two dwords). `offset` is the 20-bit immediate (imm=1) or, in its low 8
/// bits, the SGPR (imm=0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SmemFields {
    pub sdata: u8,
    pub sbase: u8,
    pub imm: bool,
    pub glc: bool,
    pub offset: u32,
}

/// Where a scalar memory access's byte offset comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SmemOffset {
    /// A constant number of bytes (SMRD's dword immediate or literal already scaled).
    Bytes(u64),
    /// The value of this SGPR (or special register), in bytes.
    Sgpr(u8),
}

/// SMRD and SMEM as one view: the data and base registers and the offset, as the
/// engines address memory with them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScalarMem {
    pub sdata: u8,
    pub sbase: u8,
    pub offset: SmemOffset,
}

/// VOP3A/VOP3B. `sdst` is bits 14:8 for VOP3B operations (and 0 otherwise); `abs` (bits
/// 10:8 of VOP3A) is 0 for VOP3B. `abs` and `neg` are 3-bit masks, bit i for source i.
/// `omod`: 0 none, 1 ×2, 2 ×4, 3 ÷2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Vop3Fields {
    pub vdst: u8,
    pub sdst: u8,
    pub src: [Src; 3],
    pub abs: u8,
    pub neg: u8,
    pub clamp: bool,
    pub omod: u8,
}

/// VOP_SDWA (000_20ed934eb40eff08.txt, 002_969c374e212b41fa.txt). `vdst`/`vsrc1` come
/// from the VOP word, the rest from the SDWA dword. `src0` is a VGPR number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SdwaFields {
    pub vdst: u8,
    pub src0: u8,
    pub vsrc1: u8,
    pub dst_sel: u8,
    pub dst_unused: u8,
    pub clamp: bool,
    pub src0_sel: u8,
    pub src0_sext: bool,
    pub src0_neg: bool,
    pub src0_abs: bool,
    pub src1_sel: u8,
    pub src1_sext: bool,
    pub src1_neg: bool,
    pub src1_abs: bool,
}

/// VOP_DPP (002_969c374e212b41fa.txt). `src0` is a VGPR number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DppFields {
    pub vdst: u8,
    pub src0: u8,
    pub vsrc1: u8,
    pub dpp_ctrl: u16,
    pub bound_ctrl: bool,
    pub src0_neg: bool,
    pub src0_abs: bool,
    pub src1_neg: bool,
    pub src1_abs: bool,
    pub bank_mask: u8,
    pub row_mask: u8,
}

/// Two per-source bits as a mask, bit i for source i (VOP3's layout of ABS/NEG).
fn mask2(src0: bool, src1: bool) -> u8 {
    src0 as u8 | (src1 as u8) << 1
}

impl SdwaFields {
    /// NEG of SRC0 and SRC1 as a mask (bit i for source i).
    pub fn neg(&self) -> u8 {
        mask2(self.src0_neg, self.src1_neg)
    }
    /// ABS of SRC0 and SRC1 as a mask.
    pub fn abs(&self) -> u8 {
        mask2(self.src0_abs, self.src1_abs)
    }
    /// SEXT of SRC0 and SRC1 as a mask.
    pub fn sext(&self) -> u8 {
        mask2(self.src0_sext, self.src1_sext)
    }
}

impl DppFields {
    /// NEG of SRC0 and SRC1 as a mask (bit i for source i).
    pub fn neg(&self) -> u8 {
        mask2(self.src0_neg, self.src1_neg)
    }
    /// ABS of SRC0 and SRC1 as a mask.
    pub fn abs(&self) -> u8 {
        mask2(self.src0_abs, self.src1_abs)
    }
}

/// VINTRP (001_43f5507a70f72cb4.txt). For V_INTERP_MOV_F32 `vsrc` is 0/1/2 = P10/P20/P0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct VintrpFields {
    pub vdst: u8,
    pub vsrc: u8,
    pub attr: u8,
    pub chan: u8,
}

/// DS (LDS/GDS).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DsFields {
    pub vdst: u8,
    pub addr: u8,
    pub data0: u8,
    pub data1: u8,
    pub offset0: u8,
    pub offset1: u8,
    pub gds: bool,
}

impl DsFields {
    /// OFFSET1:OFFSET0 as the one 16-bit offset of the single-address operations.
    pub fn offset(&self) -> u16 {
        (self.offset1 as u16) << 8 | self.offset0 as u16
    }
}

/// FLAT (GCN 1.1/1.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FlatFields {
    pub vdst: u8,
    pub addr: u8,
    pub data: u8,
    pub glc: bool,
    pub slc: bool,
    pub tfe: bool,
}

/// MUBUF and MTBUF, which share all but two fields, so that code treats both alike:
/// `lds` is MUBUF's (false for MTBUF, which has no LDS bit); `format` is MTBUF's
/// (DFMT, NFMT) and `None` for MUBUF.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BufferFields {
    pub vdata: u8,
    pub vaddr: u8,
    pub srsrc: u8,
    pub soffset: Src,
    pub offset: u16,
    pub offen: bool,
    pub idxen: bool,
    pub glc: bool,
    pub slc: bool,
    pub tfe: bool,
    pub lds: bool,
    pub addr64: bool,
    pub format: Option<(u8, u8)>,
}

impl BufferFields {
    /// The `Fields` variant these belong in: MTBUF when `format` is given, else MUBUF.
    pub fn fields(self) -> Fields {
        match self.format {
            Some(_) => Fields::Mtbuf(self),
            None => Fields::Mubuf(self),
        }
    }
}

/// One decoded instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Inst {
    pub op: Op,
    pub enc: Enc,
    pub fields: Fields,
    /// The 32-bit literal constant that follows the instruction, if any.
    pub literal: Option<u32>,
}

impl Enc {
    /// The encoding a table row's instructions are written in natively (VOP3B is VOP3).
    pub fn native(te: TableEnc) -> Enc {
        match te {
            TableEnc::Sop2 => Enc::Sop2,
            TableEnc::Sopk => Enc::Sopk,
            TableEnc::Sop1 => Enc::Sop1,
            TableEnc::Sopc => Enc::Sopc,
            TableEnc::Sopp => Enc::Sopp,
            TableEnc::Smrd => Enc::Smrd,
            TableEnc::Smem => Enc::Smem,
            TableEnc::Vop1 => Enc::Vop1,
            TableEnc::Vop2 => Enc::Vop2,
            TableEnc::Vopc => Enc::Vopc,
            TableEnc::Vop3 | TableEnc::Vop3b => Enc::Vop3,
            TableEnc::Vintrp => Enc::Vintrp,
            TableEnc::Ds => Enc::Ds,
            TableEnc::Mubuf => Enc::Mubuf,
            TableEnc::Mtbuf => Enc::Mtbuf,
            TableEnc::Mimg => Enc::Mimg,
            TableEnc::Flat => Enc::Flat,
            TableEnc::Exp => Enc::Exp,
        }
    }

    /// Whether the encoding is the vector unit's: VOP1, VOP2, VOPC, VOP3, SDWA, DPP and
    /// VINTRP (the per-lane operations, under EXEC).
    pub fn is_vector(&self) -> bool {
        matches!(
            self,
            Enc::Vop1
                | Enc::Vop2
                | Enc::Vopc
                | Enc::Vop3
                | Enc::Sdwa { .. }
                | Enc::Dpp { .. }
                | Enc::Vintrp
        )
    }

    /// The encoding's name as the manuals write it (`SOP2`, `VOP3`, `VOP_SDWA`, …).
    pub fn name(&self) -> &'static str {
        match self {
            Enc::Sop2 => "SOP2",
            Enc::Sopk => "SOPK",
            Enc::Sop1 => "SOP1",
            Enc::Sopc => "SOPC",
            Enc::Sopp => "SOPP",
            Enc::Smrd => "SMRD",
            Enc::Smem => "SMEM",
            Enc::Vop1 => "VOP1",
            Enc::Vop2 => "VOP2",
            Enc::Vopc => "VOPC",
            Enc::Vop3 => "VOP3",
            Enc::Sdwa { .. } => "VOP_SDWA",
            Enc::Dpp { .. } => "VOP_DPP",
            Enc::Vintrp => "VINTRP",
            Enc::Ds => "DS",
            Enc::Mubuf => "MUBUF",
            Enc::Mtbuf => "MTBUF",
            Enc::Mimg => "MIMG",
            Enc::Flat => "FLAT",
            Enc::Exp => "EXP",
        }
    }
}

impl Fields {
    /// MUBUF/MTBUF fields (`None` for other encodings).
    pub fn buffer(&self) -> Option<BufferFields> {
        match *self {
            Fields::Mubuf(b) | Fields::Mtbuf(b) => Some(b),
            _ => None,
        }
    }

    /// The VDST field of the vector encodings that have one (VOP1, VOP2, VOP3, SDWA, DPP,
    /// VINTRP); `None` for VOPC and everything else.
    pub fn vdst(&self) -> Option<u8> {
        match *self {
            Fields::Vop1 { vdst, .. } | Fields::Vop2 { vdst, .. } => Some(vdst),
            Fields::Vop3(Vop3Fields { vdst, .. })
            | Fields::Sdwa(SdwaFields { vdst, .. })
            | Fields::Dpp(DppFields { vdst, .. })
            | Fields::Vintrp(VintrpFields { vdst, .. }) => Some(vdst),
            _ => None,
        }
    }

    /// The name of the variant (for messages).
    pub fn name(&self) -> &'static str {
        match self {
            Fields::Sop2 { .. } => "Sop2",
            Fields::Sopk { .. } => "Sopk",
            Fields::Sop1 { .. } => "Sop1",
            Fields::Sopc { .. } => "Sopc",
            Fields::Sopp { .. } => "Sopp",
            Fields::Smrd(_) => "Smrd",
            Fields::Smem(_) => "Smem",
            Fields::Vop1 { .. } => "Vop1",
            Fields::Vop2 { .. } => "Vop2",
            Fields::Vopc { .. } => "Vopc",
            Fields::Vop3(_) => "Vop3",
            Fields::Sdwa(_) => "Sdwa",
            Fields::Dpp(_) => "Dpp",
            Fields::Vintrp(_) => "Vintrp",
            Fields::Ds(_) => "Ds",
            Fields::Mubuf(_) => "Mubuf",
            Fields::Mtbuf(_) => "Mtbuf",
            Fields::Flat(_) => "Flat",
            Fields::Raw { .. } => "Raw",
        }
    }
}

impl Inst {
    /// The addressing of an SMRD or SMEM instruction on `gen`; `None` for other encodings
    /// and for GCN 1.1's literal offset without its literal dword.
    pub fn scalar_mem(&self, gen: Gen) -> Option<ScalarMem> {
        let (sdata, sbase, offset) = match self.fields {
            Fields::Smrd(f) => {
                let off = if f.imm {
                    SmemOffset::Bytes(f.offset as u64 * 4)
                } else if f.offset == 255 && gen == Gen::Gfx7 {
                    SmemOffset::Bytes(self.literal? as u64 * 4)
                } else {
                    SmemOffset::Sgpr(f.offset)
                };
                (f.sdst, f.sbase, off)
            }
            Fields::Smem(f) => {
                let off = if f.imm {
                    SmemOffset::Bytes((f.offset & 0xf_ffff) as u64)
                } else {
                    SmemOffset::Sgpr((f.offset & 0xff) as u8)
                };
                (f.sdata, f.sbase, off)
            }
            _ => return None,
        };
        Some(ScalarMem {
            sdata,
            sbase,
            offset,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffer_fields_go_back_to_their_variant() {
        let mubuf = BufferFields {
            vdata: 1,
            vaddr: 2,
            srsrc: 4,
            soffset: Src(5),
            offset: 6,
            offen: true,
            idxen: false,
            glc: true,
            slc: false,
            tfe: true,
            lds: true,
            addr64: false,
            format: None,
        };
        let mtbuf = BufferFields {
            lds: false,
            format: Some((14, 7)),
            ..mubuf
        };
        assert_eq!(mubuf.fields(), Fields::Mubuf(mubuf));
        assert_eq!(mtbuf.fields(), Fields::Mtbuf(mtbuf));
        assert_eq!(Fields::Mtbuf(mtbuf).buffer(), Some(mtbuf));
        assert_eq!(Fields::Sopp { simm16: 0 }.buffer(), None);
    }

    #[test]
    fn modifier_masks_put_source_i_in_bit_i() {
        let d = DppFields {
            vdst: 0,
            src0: 0,
            vsrc1: 0,
            dpp_ctrl: 0,
            bound_ctrl: false,
            src0_neg: false,
            src0_abs: true,
            src1_neg: true,
            src1_abs: false,
            bank_mask: 0,
            row_mask: 0,
        };
        assert_eq!((d.abs(), d.neg()), (0b01, 0b10));
        let ds = DsFields {
            vdst: 0,
            addr: 0,
            data0: 0,
            data1: 0,
            offset0: 0x34,
            offset1: 0x12,
            gds: false,
        };
        assert_eq!(ds.offset(), 0x1234);
    }

    #[test]
    fn scalar_memory_offsets() {
        let smrd = |imm, offset| Inst {
            op: Op::SLoadDword,
            enc: Enc::Smrd,
            fields: Fields::Smrd(SmrdFields {
                sdst: 3,
                sbase: 4,
                imm,
                offset,
            }),
            literal: Some(0x10),
        };
        // The SMRD immediate counts dwords; the GCN 1.1 literal too.
        let at = |i: Inst, g| i.scalar_mem(g).map(|m| m.offset);
        assert_eq!(at(smrd(true, 5), Gen::Gfx6), Some(SmemOffset::Bytes(20)));
        assert_eq!(at(smrd(false, 255), Gen::Gfx7), Some(SmemOffset::Bytes(64)));
        assert_eq!(at(smrd(false, 7), Gen::Gfx7), Some(SmemOffset::Sgpr(7)));
        let smem = Inst {
            op: Op::SLoadDword,
            enc: Enc::Smem,
            fields: Fields::Smem(SmemFields {
                sdata: 1,
                sbase: 2,
                imm: true,
                glc: false,
                offset: 0xf_fffc,
            }),
            literal: None,
        };
        // SMEM's immediate counts bytes.
        assert_eq!(
            smem.scalar_mem(Gen::Gfx8),
            Some(ScalarMem {
                sdata: 1,
                sbase: 2,
                offset: SmemOffset::Bytes(0xf_fffc)
            })
        );
    }
}
