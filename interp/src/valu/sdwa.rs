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

/// `src_sel` with its selection decided: the same function of `v` as shifts and masks,
/// for the driver's pass over a whole row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SrcSel {
    shift: u32,
    mask: u32,
    /// The sign bit of the part when it is sign-extended, else 0.
    sign: u32,
}

impl SrcSel {
    /// `None` for the reserved selection (as `src_sel`).
    pub fn new(sel: u8, sext: bool) -> Option<SrcSel> {
        let (shift, width) = sel_field(sel)?;
        if width == 32 {
            return Some(SrcSel {
                shift: 0,
                mask: u32::MAX,
                sign: 0,
            });
        }
        Some(SrcSel {
            shift,
            mask: (1u32 << width) - 1,
            sign: if sext { 1u32 << (width - 1) } else { 0 },
        })
    }

    /// `src_sel(v, sel, sext)`. Flipping the sign bit of the part and subtracting it
    /// again sign-extends (a set bit becomes `-2^(w-1)`), and is the identity when `sign`
    /// is 0.
    #[inline]
    pub fn apply(self, v: u32) -> u32 {
        (((v >> self.shift) & self.mask) ^ self.sign).wrapping_sub(self.sign)
    }
}

/// `dst_sel` with its selection decided: the same function of the result and the old
/// VDST as shifts and masks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DstSel {
    part: SrcSel,
    /// The bits of the old VDST that stay (PRESERVE), else 0.
    keep: u32,
}

impl DstSel {
    /// `None` for reserved selections or unused values (as `dst_sel`).
    pub fn new(sel: u8, unused: u8) -> Option<DstSel> {
        let (shift, width) = sel_field(sel)?;
        if unused > 2 {
            return None;
        }
        if width == 32 {
            return Some(DstSel {
                part: SrcSel {
                    shift: 0,
                    mask: u32::MAX,
                    sign: 0,
                },
                keep: 0,
            });
        }
        let mask = (1u32 << width) - 1;
        Some(DstSel {
            // Here `shift` moves the part up (`src_sel` moves it down).
            part: SrcSel {
                shift,
                mask,
                sign: if unused == 1 { 1u32 << (width - 1) } else { 0 },
            },
            keep: if unused == 2 { !(mask << shift) } else { 0 },
        })
    }

    /// `dst_sel(result, old, sel, unused)`.
    #[inline]
    pub fn apply(self, result: u32, old: u32) -> u32 {
        let p = self.part;
        (((result & p.mask) ^ p.sign).wrapping_sub(p.sign) << p.shift) | (old & self.keep)
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

    /// The decided forms against the functions, for every selection, unused value and
    /// sign extension, over values with each byte's top bit set or clear.
    #[test]
    fn decided_forms_match() {
        let mut vals = vec![0u32, u32::MAX, 0x8000_0000, 0x7FFF_FFFF, 0x0080_8080];
        let mut x = 0x1234_5678u32;
        for _ in 0..200 {
            x = x.wrapping_mul(0x9E37_79B9).wrapping_add(0x7F4A_7C15);
            vals.push(x);
        }
        for sel in 0..8u8 {
            for sext in [false, true] {
                let c = SrcSel::new(sel, sext);
                assert_eq!(c.is_some(), src_sel(0, sel, sext).is_some());
                for &v in &vals {
                    assert_eq!(
                        c.map(|c| c.apply(v)),
                        src_sel(v, sel, sext),
                        "{sel} {sext} {v:#x}"
                    );
                }
            }
            for unused in 0..4u8 {
                let d = DstSel::new(sel, unused);
                assert_eq!(d.is_some(), dst_sel(0, 0, sel, unused).is_some());
                for (&r, &old) in vals.iter().zip(vals.iter().rev()) {
                    assert_eq!(
                        d.map(|d| d.apply(r, old)),
                        dst_sel(r, old, sel, unused),
                        "{sel} {unused} {r:#x} {old:#x}"
                    );
                }
            }
        }
    }
}
