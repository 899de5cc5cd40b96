//! The VP1 scalar-unit table: generated from `isa/tables/vp1.tsv` by `isa/build/vp1.rs`
//! (one row per opcode 0x00-0x7f), plus the lookups the decoder, printer, assembler,
//! interpreter and JIT share. No other file lists opcodes or mnemonics.

/// One row of `vp1.tsv`: what a scalar opcode does and how it is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpDesc {
    pub opcode: u8,
    pub kind: Kind,
    /// envydis' mnemonic; `None` where envydis prints `???`.
    pub mnemonic: Option<&'static str>,
    pub form: Form,
    pub sign: Sign,
    pub src2: Src2,
    pub cmode: CMode,
    pub s2v: S2vSrc,
    /// The lowest opcode written with the same text (mnemonic, form, sign): what the
    /// assembler produces for this row's text. A bit-subset of `opcode`.
    pub canon: u8,
    /// Line in vp1.tsv, for messages.
    pub line: u32,
}

include!(concat!(env!("OUT_DIR"), "/vp1_table.rs"));

/// The row of scalar opcode `op` (`None` for 0x80-0xff: other units).
pub fn desc(op: u8) -> Option<&'static OpDesc> {
    OPS.get(op as usize)
}

/// The opcodes printed with mnemonic `m` (ascending), if any.
pub fn by_mnemonic(m: &str) -> Option<&'static [u8]> {
    MNEMONICS
        .binary_search_by(|(k, _)| (*k).cmp(m))
        .ok()
        .and_then(|i| MNEMONICS.get(i))
        .map(|(_, ops)| *ops)
}

impl Sign {
    /// True for `s`.
    pub fn is_signed(self) -> bool {
        self == Sign::S
    }
}

impl S2vSrc {
    /// Whether the opcode marks its `$vc` selection valid for the vector unit.
    pub fn valid(self) -> bool {
        self == S2vSrc::Send
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_indexed_by_opcode() {
        for (i, d) in OPS.iter().enumerate() {
            assert_eq!(d.opcode as usize, i);
            assert_eq!(d.canon & !d.opcode, 0, "canon of 0x{i:02x}");
        }
        assert!(desc(0x80).is_none());
    }

    #[test]
    fn mnemonic_lookup() {
        assert_eq!(by_mnemonic("min"), Some(&[0x48u8, 0x58, 0x68, 0x78][..]));
        assert_eq!(by_mnemonic("snop"), Some(&[0x4fu8][..]));
        assert_eq!(by_mnemonic("frobnicate"), None);
    }
}
