//! The decoded GCN instruction: which operation (`Op`, from the table), which encoding it
//! came in, and its fields exactly as encoded, so that encoding it again gives the same
//! bytes. Operand *meaning* (register file, width, inline constant value) is derived from
//! these fields with the generation and the table row; see `operand.rs`.

use super::table::Op;

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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
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
    /// `offset` is the 8-bit immediate (imm=1) or SGPR number (imm=0); GCN 1.1's
    /// literal-offset form (imm=0, offset=255) keeps its dword in `Inst::literal`.
    Smrd {
        sdst: u8,
        sbase: u8,
        imm: bool,
        offset: u8,
    },
    /// `offset` is the 20-bit immediate (imm=1) or, in its low 8 bits, the SGPR (imm=0).
    Smem {
        sdata: u8,
        sbase: u8,
        imm: bool,
        glc: bool,
        offset: u32,
    },
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
    /// VOP3A/VOP3B. `sdst` is bits 14:8 for VOP3B operations (and 0 otherwise);
    /// `abs` (bits 10:8 of VOP3A) is 0 for VOP3B. `abs` and `neg` are 3-bit masks, bit i
    /// for source i. `omod`: 0 none, 1 ×2, 2 ×4, 3 ÷2.
    Vop3 {
        vdst: u8,
        sdst: u8,
        src: [Src; 3],
        abs: u8,
        neg: u8,
        clamp: bool,
        omod: u8,
    },
    /// VOP_SDWA (000_20ed934eb40eff08.txt, 002_969c374e212b41fa.txt). `vdst`/`vsrc1` come
    /// from the VOP word, the rest from the SDWA dword. `src0` is a VGPR number.
    Sdwa {
        vdst: u8,
        src0: u8,
        vsrc1: u8,
        dst_sel: u8,
        dst_unused: u8,
        clamp: bool,
        src0_sel: u8,
        src0_sext: bool,
        src0_neg: bool,
        src0_abs: bool,
        src1_sel: u8,
        src1_sext: bool,
        src1_neg: bool,
        src1_abs: bool,
    },
    /// VOP_DPP (002_969c374e212b41fa.txt). `src0` is a VGPR number.
    Dpp {
        vdst: u8,
        src0: u8,
        vsrc1: u8,
        dpp_ctrl: u16,
        bound_ctrl: bool,
        src0_neg: bool,
        src0_abs: bool,
        src1_neg: bool,
        src1_abs: bool,
        bank_mask: u8,
        row_mask: u8,
    },
    /// VINTRP (001_43f5507a70f72cb4.txt). For V_INTERP_MOV_F32 `vsrc` is 0/1/2 = P10/P20/P0.
    Vintrp {
        vdst: u8,
        vsrc: u8,
        attr: u8,
        chan: u8,
    },
    Ds {
        vdst: u8,
        addr: u8,
        data0: u8,
        data1: u8,
        offset0: u8,
        offset1: u8,
        gds: bool,
    },
    Mubuf {
        vdata: u8,
        vaddr: u8,
        srsrc: u8,
        soffset: Src,
        offset: u16,
        offen: bool,
        idxen: bool,
        glc: bool,
        slc: bool,
        tfe: bool,
        lds: bool,
        addr64: bool,
    },
    Mtbuf {
        vdata: u8,
        vaddr: u8,
        srsrc: u8,
        soffset: Src,
        offset: u16,
        offen: bool,
        idxen: bool,
        glc: bool,
        slc: bool,
        tfe: bool,
        addr64: bool,
        dfmt: u8,
        nfmt: u8,
    },
    Flat {
        vdst: u8,
        addr: u8,
        data: u8,
        glc: bool,
        slc: bool,
        tfe: bool,
    },
    /// Encodings decoded only far enough to be printed and re-encoded (MIMG, EXP): the
    /// words, low first.
    Raw {
        words: [u32; 2],
    },
}

/// The fields MUBUF and MTBUF share, as one view (`Fields::buffer`) for code that treats
/// both alike. `lds` is false for MTBUF, which has no LDS bit; `format` is MTBUF's
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
    /// The `Fields` these are a view of: MTBUF when `format` is given, else MUBUF (MTBUF
    /// drops `lds`, which it has no bit for).
    pub fn fields(self) -> Fields {
        let b = self;
        match b.format {
            Some((dfmt, nfmt)) => Fields::Mtbuf {
                vdata: b.vdata,
                vaddr: b.vaddr,
                srsrc: b.srsrc,
                soffset: b.soffset,
                offset: b.offset,
                offen: b.offen,
                idxen: b.idxen,
                glc: b.glc,
                slc: b.slc,
                tfe: b.tfe,
                addr64: b.addr64,
                dfmt,
                nfmt,
            },
            None => Fields::Mubuf {
                vdata: b.vdata,
                vaddr: b.vaddr,
                srsrc: b.srsrc,
                soffset: b.soffset,
                offset: b.offset,
                offen: b.offen,
                idxen: b.idxen,
                glc: b.glc,
                slc: b.slc,
                tfe: b.tfe,
                lds: b.lds,
                addr64: b.addr64,
            },
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
    /// MUBUF/MTBUF fields as a `BufferFields` view (`None` for other encodings).
    pub fn buffer(&self) -> Option<BufferFields> {
        match *self {
            Fields::Mubuf {
                vdata,
                vaddr,
                srsrc,
                soffset,
                offset,
                offen,
                idxen,
                glc,
                slc,
                tfe,
                lds,
                addr64,
            } => Some(BufferFields {
                vdata,
                vaddr,
                srsrc,
                soffset,
                offset,
                offen,
                idxen,
                glc,
                slc,
                tfe,
                lds,
                addr64,
                format: None,
            }),
            Fields::Mtbuf {
                vdata,
                vaddr,
                srsrc,
                soffset,
                offset,
                offen,
                idxen,
                glc,
                slc,
                tfe,
                addr64,
                dfmt,
                nfmt,
            } => Some(BufferFields {
                vdata,
                vaddr,
                srsrc,
                soffset,
                offset,
                offen,
                idxen,
                glc,
                slc,
                tfe,
                lds: false,
                addr64,
                format: Some((dfmt, nfmt)),
            }),
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
            Fields::Smrd { .. } => "Smrd",
            Fields::Smem { .. } => "Smem",
            Fields::Vop1 { .. } => "Vop1",
            Fields::Vop2 { .. } => "Vop2",
            Fields::Vopc { .. } => "Vopc",
            Fields::Vop3 { .. } => "Vop3",
            Fields::Sdwa { .. } => "Sdwa",
            Fields::Dpp { .. } => "Dpp",
            Fields::Vintrp { .. } => "Vintrp",
            Fields::Ds { .. } => "Ds",
            Fields::Mubuf { .. } => "Mubuf",
            Fields::Mtbuf { .. } => "Mtbuf",
            Fields::Flat { .. } => "Flat",
            Fields::Raw { .. } => "Raw",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffer_view_gives_back_the_fields() {
        let mubuf = Fields::Mubuf {
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
        };
        let mtbuf = Fields::Mtbuf {
            vdata: 1,
            vaddr: 2,
            srsrc: 8,
            soffset: Src(129),
            offset: 4095,
            offen: false,
            idxen: true,
            glc: false,
            slc: true,
            tfe: false,
            addr64: true,
            dfmt: 14,
            nfmt: 7,
        };
        for f in [mubuf, mtbuf] {
            let b = f.buffer().expect("a buffer encoding");
            assert_eq!(b.fields(), f);
        }
        assert_eq!(mtbuf.buffer().map(|b| b.format), Some(Some((14, 7))));
        assert_eq!(
            mubuf.buffer().map(|b| (b.lds, b.format)),
            Some((true, None))
        );
        assert_eq!(Fields::Sopp { simm16: 0 }.buffer(), None);
    }
}
