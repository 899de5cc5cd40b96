//! NVIDIA VP1 scalar unit (004_1a7ba760ea192bb0.txt, vp1-notes.md): instruction words,
//! decoding, encoding, envydis-syntax assembly and disassembly, and its state.

/// A decoded VP1 scalar instruction. (Filled in by the VP1 work.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Inst {
    pub word: u32,
}

/// Decode one VP1 word at `offset`. Returns the instruction and its size (4).
pub fn decode(code: &[u8], offset: u32) -> Result<(Inst, u32), crate::DecodeError> {
    let Some(b) = code.get(..4) else {
        return Err(crate::DecodeError {
            offset,
            kind: crate::DecodeErrorKind::Truncated { needed: 4, available: code.len() as u32 },
        });
    };
    let word = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    Ok((Inst { word }, 4))
}
