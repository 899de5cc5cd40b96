//! The fields of an EXP instruction as one typed view (AMD's SI/CI/VI manuals; the words
//! are kept raw in `Fields::Raw`): EN 3:0, TGT 9:4, COMPR 10, DONE 11, VM 12 of the first
//! dword, VSRC0-3 in the bytes of the second.

use super::inst::{Enc, Fields, Inst};

/// Where an export goes (TGT).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExpTarget {
    /// Colour render target 0-7 (TGT 0-7).
    Mrt(u8),
    /// Depth, stencil and sample mask (TGT 8).
    Mrtz,
    /// Nothing is written (TGT 9): a pixel shader that only kills or ends uses it.
    Null,
    /// Vertex position 0-3 (TGT 12-15).
    Pos(u8),
    /// Vertex parameter 0-31 (TGT 32-63).
    Param(u8),
}

impl ExpTarget {
    /// The target of TGT, `None` for the reserved 10, 11 and 16-31 (and above 63).
    pub fn from_tgt(tgt: u8) -> Option<ExpTarget> {
        match tgt {
            0..=7 => Some(ExpTarget::Mrt(tgt)),
            8 => Some(ExpTarget::Mrtz),
            9 => Some(ExpTarget::Null),
            12..=15 => Some(ExpTarget::Pos(tgt - 12)),
            32..=63 => Some(ExpTarget::Param(tgt - 32)),
            _ => None,
        }
    }

    /// The TGT field value.
    pub fn tgt(self) -> u8 {
        match self {
            ExpTarget::Mrt(i) => i,
            ExpTarget::Mrtz => 8,
            ExpTarget::Null => 9,
            ExpTarget::Pos(i) => 12 + i,
            ExpTarget::Param(i) => 32 + i,
        }
    }
}

impl std::fmt::Display for ExpTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExpTarget::Mrt(i) => write!(f, "mrt{i}"),
            ExpTarget::Mrtz => f.write_str("mrtz"),
            ExpTarget::Null => f.write_str("null"),
            ExpTarget::Pos(i) => write!(f, "pos{i}"),
            ExpTarget::Param(i) => write!(f, "param{i}"),
        }
    }
}

/// The fields of one EXP instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ExpFields {
    /// TGT as encoded (see `ExpTarget::from_tgt`).
    pub tgt: u8,
    /// EN: bit c enables channel c (x/r, y/g, z/b, w/a). With COMPR, channels 0-1 are the
    /// two halves of VSRC0 and channels 2-3 those of VSRC1.
    pub en: u8,
    /// COMPR: each source VGPR holds two f16 channels (low half first).
    pub compr: bool,
    /// DONE: the last export of its kind in the shader.
    pub done: bool,
    /// VM: EXEC at this export is the pixels' valid mask.
    pub vm: bool,
    pub vsrc: [u8; 4],
}

impl ExpFields {
    /// Read the two words of an EXP instruction.
    pub fn from_words(w0: u32, w1: u32) -> ExpFields {
        ExpFields {
            tgt: (w0 >> 4 & 63) as u8,
            en: (w0 & 15) as u8,
            compr: w0 >> 10 & 1 != 0,
            done: w0 >> 11 & 1 != 0,
            vm: w0 >> 12 & 1 != 0,
            vsrc: w1.to_le_bytes(),
        }
    }

    /// The fields of `inst`, if it is an EXP instruction.
    pub fn of(inst: &Inst) -> Option<ExpFields> {
        match (inst.enc, inst.fields) {
            (Enc::Exp, Fields::Raw { words: [w0, w1] }) => Some(ExpFields::from_words(w0, w1)),
            _ => None,
        }
    }

    /// The source VGPR that channel `c` (0-3) reads: VSRC`c`, or with COMPR VSRC`c/2`.
    pub fn channel_vgpr(&self, c: usize) -> u8 {
        if self.compr {
            self.vsrc[(c & 3) / 2]
        } else {
            self.vsrc[c & 3]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_of_llvm_mc_words() {
        // llvm-mc-19 -mcpu=tonga: `exp mrt0 v2, v3, v0, v1 done vm` = 0xc400180f 0x01000302;
        // `exp mrt1 v4, v4, v5, v5 compr` (EN 0xf, TGT 1, COMPR) = 0xc400041f 0x00000504.
        let f = ExpFields::from_words(0xc400_180f, 0x0100_0302);
        assert_eq!(
            f,
            ExpFields {
                tgt: 0,
                en: 15,
                compr: false,
                done: true,
                vm: true,
                vsrc: [2, 3, 0, 1]
            }
        );
        let c = ExpFields::from_words(0xc400_041f, 0x0000_0504);
        assert_eq!(
            (c.tgt, c.en, c.compr, c.done, c.vm),
            (1, 15, true, false, false)
        );
        assert_eq!(
            [0, 1, 2, 3].map(|ch| c.channel_vgpr(ch)),
            [4, 4, 5, 5],
            "compressed channels pair up on VSRC0 and VSRC1"
        );
    }

    #[test]
    fn targets_round_trip_and_reserved_ones_are_none() {
        for t in 0..=63u8 {
            match ExpTarget::from_tgt(t) {
                Some(x) => assert_eq!(x.tgt(), t),
                None => assert!(matches!(t, 10 | 11 | 16..=31), "tgt {t}"),
            }
        }
        assert_eq!(ExpTarget::from_tgt(8), Some(ExpTarget::Mrtz));
        assert_eq!(
            ExpTarget::from_tgt(33).map(|t| t.to_string()).as_deref(),
            Some("param1")
        );
    }
}
