//! VOP_SDWA's byte/word selection (000_20ed934eb40eff08.txt, 002_969c374e212b41fa.txt,
//! ERRATA VOP_SDWA 1-11), as pure functions used by the interpreter's driver.
//!
//! Selections: 0-3 BYTE_0..BYTE_3, 4 WORD_0, 5 WORD_1, 6 DWORD.
//! DST_UNUSED: 0 PAD, 1 SEXT, 2 PRESERVE.

/// `SDWA_DWORD`: the whole dword, no selection.
pub const DWORD: u8 = 6;

/// `(shift, width)` of a selection, `None` for the reserved value 7.
pub fn sel_field(sel: u8) -> Option<(u32, u32)> {
    match sel {
        0..=3 => Some((8 * sel as u32, 8)),
        4 => Some((0, 16)),
        5 => Some((16, 16)),
        6 => Some((0, 32)),
        _ => None,
    }
}

/// SRC_SEL: move the selected part of `v` to the low bits, zero- or sign-extended
/// (`sext`); DWORD passes `v` unchanged (SEXT has nothing to extend). ERRATA SDWA 2: the
/// fourth byte case is BYTE_3 (bits 31:24).
///
/// ```text
/// SRC_DST = SEXT ? INT32(INTw(SRC >> shift)) : (SRC >> shift) & mask
/// ```
pub fn src_sel(v: u32, sel: u8, sext: bool) -> Option<u32> {
    let (shift, width) = sel_field(sel)?;
    if width == 32 {
        return Some(v);
    }
    let part = (v >> shift) & ((1u32 << width) - 1);
    Some(if sext { sign_extend(part, width) } else { part })
}

fn sign_extend(v: u32, width: u32) -> u32 {
    let sh = 32 - width;
    (((v << sh) as i32) >> sh) as u32
}

/// DST_SEL with DST_UNUSED: place the low part of `result` at the selection; the other
/// bits are 0 (PAD), the sign of the part above it and zero below (SEXT), or the bits of
/// `old` VDST (PRESERVE). DWORD writes `result` whole (ERRATA SDWA 7: SEXT with DWORD is
/// PAD). `None` for reserved selections or unused values.
///
/// ```text
/// tmp = RESULT & mask
/// PAD:      DST = tmp << shift
/// SEXT:     DST = INT32(INTw(tmp)) << shift
/// PRESERVE: DST = (tmp << shift) | (VDST & ~(mask << shift))
/// ```
pub fn dst_sel(result: u32, old: u32, sel: u8, unused: u8) -> Option<u32> {
    let (shift, width) = sel_field(sel)?;
    if width == 32 {
        return (unused <= 2).then_some(result);
    }
    let mask = (1u32 << width) - 1;
    let tmp = result & mask;
    match unused {
        0 => Some(tmp << shift),
        1 => Some(sign_extend(tmp, width) << shift),
        2 => Some((tmp << shift) | (old & !(mask << shift))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worked_examples() {
        let v = 0x8A7B_6C5D;
        assert_eq!(src_sel(v, 0, false), Some(0x5D));
        assert_eq!(src_sel(v, 1, true), Some(0x6C));
        assert_eq!(src_sel(v, 3, true), Some(0xFFFF_FF8A));
        assert_eq!(src_sel(v, 5, true), Some(0xFFFF_8A7B));
        assert_eq!(src_sel(v, 4, false), Some(0x6C5D));
        assert_eq!(src_sel(v, 6, true), Some(v));
        assert_eq!(src_sel(v, 7, false), None);
        assert_eq!(dst_sel(0x1234_5680, 0xAABB_CCDD, 1, 0), Some(0x0000_8000));
        assert_eq!(dst_sel(0x1234_5680, 0xAABB_CCDD, 1, 1), Some(0xFFFF_8000));
        assert_eq!(dst_sel(0x1234_5680, 0xAABB_CCDD, 1, 2), Some(0xAABB_80DD));
        assert_eq!(dst_sel(0x1234_5680, 0xAABB_CCDD, 5, 2), Some(0x5680_CCDD));
        assert_eq!(dst_sel(0x1234_5680, 0xAABB_CCDD, 6, 1), Some(0x1234_5680));
        assert_eq!(dst_sel(1, 0, 0, 3), None);
    }
}
