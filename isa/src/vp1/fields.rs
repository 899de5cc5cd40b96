//! The bit fields of a VP1 scalar instruction word (004_1a7ba760ea192bb0.txt "Instruction
//! format", corrected by vp1-notes.md 2: IMM is 11 bits), as accessors on [`Inst`], and the
//! names envydis gives to SLCT values and `$c` flags.

use super::Inst;

/// A contiguous bit field: `width` bits starting at bit `lo`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: &'static str,
    pub lo: u32,
    pub width: u32,
}

impl Field {
    pub const fn mask(self) -> u32 {
        (((1u64 << self.width) - 1) as u32) << self.lo
    }
    pub const fn get(self, w: u32) -> u32 {
        (w & self.mask()) >> self.lo
    }
    /// `w` with this field replaced by `v` (truncated to the field).
    pub const fn put(self, w: u32, v: u32) -> u32 {
        (w & !self.mask()) | ((v << self.lo) & self.mask())
    }
}

pub const CDST: Field = Field {
    name: "CDST",
    lo: 0,
    width: 3,
};
pub const BIMMBAD: Field = Field {
    name: "BIMMBAD",
    lo: 0,
    width: 8,
};
pub const IMM19: Field = Field {
    name: "IMM19",
    lo: 0,
    width: 19,
};
pub const IMM16: Field = Field {
    name: "IMM16",
    lo: 0,
    width: 16,
};
pub const SIGN2: Field = Field {
    name: "SIGN2",
    lo: 1,
    width: 1,
};
pub const SIGN1: Field = Field {
    name: "SIGN1",
    lo: 2,
    width: 1,
};
pub const FACTOR1: Field = Field {
    name: "FACTOR1",
    lo: 1,
    width: 9,
};
pub const FACTOR2: Field = Field {
    name: "FACTOR2",
    lo: 10,
    width: 9,
};
pub const BIMM: Field = Field {
    name: "BIMM",
    lo: 3,
    width: 8,
};
pub const IMM: Field = Field {
    name: "IMM",
    lo: 3,
    width: 11,
};
pub const BITOP: Field = Field {
    name: "BITOP",
    lo: 3,
    width: 4,
};
pub const RFILE: Field = Field {
    name: "RFILE",
    lo: 3,
    width: 5,
};
pub const COMP: Field = Field {
    name: "COMP",
    lo: 3,
    width: 2,
};
pub const COND: Field = Field {
    name: "COND",
    lo: 3,
    width: 2,
};
pub const SLCT: Field = Field {
    name: "SLCT",
    lo: 5,
    width: 4,
};
pub const RND: Field = Field {
    name: "RND",
    lo: 8,
    width: 1,
};
pub const SRC2: Field = Field {
    name: "SRC2",
    lo: 9,
    width: 5,
};
pub const SRC1: Field = Field {
    name: "SRC1",
    lo: 14,
    width: 5,
};
pub const DST: Field = Field {
    name: "DST",
    lo: 19,
    width: 5,
};
pub const VCIDX: Field = Field {
    name: "VCIDX",
    lo: 19,
    width: 2,
};
pub const VCFLAG: Field = Field {
    name: "VCFLAG",
    lo: 21,
    width: 1,
};
pub const VCXFRM_LO: Field = Field {
    name: "VCXFRM",
    lo: 22,
    width: 2,
};
pub const OP: Field = Field {
    name: "OP",
    lo: 24,
    width: 8,
};
/// Bit 0: the high bit of BIMMMUL and of VCXFRM.
pub const BIT0: Field = Field {
    name: "bit 0",
    lo: 0,
    width: 1,
};

/// SLCT value that selects the always-0 flag bit: no mangling (envydis prints a plain `$rN`).
pub const SLCT_PLAIN: u32 = 14;
/// SLCT value that selects bits 4-5 of `$c` (the "quad" mangling, `$rNq`).
pub const SLCT_QUAD: u32 = 4;

/// envydis' name of each SLCT value (vp1-notes.md 3). 11 and 12 are bits nobody has named:
/// envydis prints them as `unk11`/`unk12` followed by `[unknown operand]`. 14 prints as a
/// plain register in source mangling and as `false` in bvecmad's predicate.
pub const SLCT_NAMES: [&str; 16] = [
    "sf", "zf", "b19", "b20d", "b20", "b21", "b19a", "b18", "asf", "azf", "aef", "unk11", "unk12",
    "lzf", "false", "true",
];

/// Whether envydis flags SLCT value `s` as an unknown operand.
pub fn slct_is_unknown(s: u32) -> bool {
    s == 11 || s == 12
}

const fn sext(v: u32, bits: u32) -> i32 {
    ((v << (32 - bits)) as i32) >> (32 - bits)
}

/// Field accessors. Every one is defined for every word; which ones an opcode uses is the
/// table's business.
impl Inst {
    pub fn op(self) -> u8 {
        OP.get(self.word) as u8
    }
    pub fn cdst(self) -> u32 {
        CDST.get(self.word)
    }
    pub fn src1(self) -> u32 {
        SRC1.get(self.word)
    }
    pub fn src2(self) -> u32 {
        SRC2.get(self.word)
    }
    pub fn dst(self) -> u32 {
        DST.get(self.word)
    }
    pub fn cond(self) -> u32 {
        COND.get(self.word)
    }
    pub fn slct(self) -> u32 {
        SLCT.get(self.word)
    }
    pub fn rfile(self) -> u32 {
        RFILE.get(self.word)
    }
    pub fn bitop(self) -> u32 {
        BITOP.get(self.word)
    }
    pub fn rnd(self) -> bool {
        RND.get(self.word) != 0
    }
    /// SIGN1 (bit 2): source 1 of byte multiplication is signed.
    pub fn sign1(self) -> bool {
        SIGN1.get(self.word) != 0
    }
    /// SIGN2 (bit 1): source 2 of byte multiplication is signed.
    pub fn sign2(self) -> bool {
        SIGN2.get(self.word) != 0
    }
    /// BIMM (bits 3-10).
    pub fn bimm(self) -> u32 {
        BIMM.get(self.word)
    }
    /// BIMMBAD (bits 0-7).
    pub fn bimmbad(self) -> u32 {
        BIMMBAD.get(self.word)
    }
    /// BIMMMUL (bits 9-13 low, bit 0 high), before its shift by 2.
    pub fn bimmmul(self) -> u32 {
        SRC2.get(self.word) | BIT0.get(self.word) << 5
    }
    /// IMM: bits 3-13, signed (vp1-notes.md 2; ERRATA VP1 1).
    pub fn imm(self) -> i32 {
        sext(IMM.get(self.word), 11)
    }
    /// IMM19: bits 0-18, signed.
    pub fn imm19(self) -> i32 {
        sext(IMM19.get(self.word), 19)
    }
    /// IMM16: bits 0-15.
    pub fn imm16(self) -> u32 {
        IMM16.get(self.word)
    }
    /// vec's first factor: bits 1-9, signed.
    pub fn factor1(self) -> i32 {
        sext(FACTOR1.get(self.word), 9)
    }
    /// vec's second factor: bits 10-18, signed.
    pub fn factor2(self) -> i32 {
        sext(FACTOR2.get(self.word), 9)
    }
    /// s2v `$vc` index (bits 19-20).
    pub fn vcidx(self) -> u32 {
        VCIDX.get(self.word)
    }
    /// s2v `$vc` half: false = sf (bits 0-15), true = zf (bits 16-31).
    pub fn vcflag(self) -> bool {
        VCFLAG.get(self.word) != 0
    }
    /// s2v `$vc` transform (bits 22-23 low, bit 0 high).
    pub fn vcxfrm(self) -> u32 {
        VCXFRM_LO.get(self.word) | BIT0.get(self.word) << 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_positions_match_the_spec() {
        // 0x4d215091 = sub $r4 $c1 $r5 (slct $c2 b20 $r8q) (vp1-notes.md 9)
        let i = Inst { word: 0x4d21_5091 };
        assert_eq!((i.op(), i.dst(), i.src1(), i.src2()), (0x4d, 4, 5, 8));
        assert_eq!((i.cdst(), i.cond(), i.slct()), (1, 2, 4));
        // 0x6df3e000 = sub $r30 $c0 $r15 -0x400
        let i = Inst { word: 0x6df3_e000 };
        assert_eq!((i.dst(), i.src1(), i.imm()), (30, 15, -0x400));
        // 0x651c0000 = mov $r3 -0x40000
        assert_eq!(Inst { word: 0x651c_0000 }.imm19(), -0x40000);
        // 0x31217f01: BIMMMUL = 0x1f | 1 << 5 = 0x3f (printed 0xfc after the shift)
        assert_eq!(Inst { word: 0x3121_7f01 }.bimmmul(), 0x3f);
        // 0x24effc03 = vec 0x1 -0x1 $vc1 zf 0x7
        let i = Inst { word: 0x24ef_fc03 };
        assert_eq!((i.factor1(), i.factor2()), (1, -1));
        assert_eq!((i.vcidx(), i.vcflag(), i.vcxfrm()), (1, true, 7));
        assert_eq!(DST.put(0, 0x25), 5 << 19);
    }
}
