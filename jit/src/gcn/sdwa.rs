//! VOP_SDWA as constants (000/002 specs, ERRATA "VOP_SDWA"): what a SRC_SEL or DST_SEL
//! value selects, as a shift and a width, and the inline lowering of selection (shift,
//! mask or sign extension) and destination placement (pad, sign-extend, preserve).

use cranelift_codegen::ir::{InstBuilder, Value};

use crate::block::Cx;

/// (shift, width in bits) of a selection: BYTE_0-3, WORD_0-1, DWORD.
pub fn sel_part(sel: u8) -> (u32, u32) {
    match sel {
        0..=3 => (8 * sel as u32, 8),
        4 => (0, 16),
        5 => (16, 16),
        _ => (0, 32),
    }
}

/// The scalar meaning of a source selection (for tests and documentation).
pub fn select(x: u32, sel: u8, sext: bool) -> u32 {
    let (sh, w) = sel_part(sel);
    if w == 32 {
        return x;
    }
    let v = x >> sh;
    if sext {
        (((v << (32 - w)) as i32) >> (32 - w)) as u32
    } else {
        v & ((1u32 << w) - 1)
    }
}

/// The scalar meaning of destination placement: `r` is the operation's result, `old` the
/// destination's previous value; `unused` 0 = PAD, 1 = SEXT, 2 = PRESERVE.
pub fn place(r: u32, old: u32, sel: u8, unused: u8) -> u32 {
    let (sh, w) = sel_part(sel);
    if w == 32 {
        return r;
    }
    let m = ((1u64 << w) - 1) as u32;
    let part = (r & m) << sh;
    match unused {
        1 => ((((r << (32 - w)) as i32) >> (32 - w)) as u32) << sh,
        2 => part | (old & !(m << sh)),
        _ => part,
    }
}

impl Cx<'_> {
    /// Source selection on an `i32x4` (shifts and masks shared with other selections of
    /// the same value; masks of values known to fit left out: `Cx::low_bits`).
    pub fn sdwa_select(&mut self, x: Value, sel: u8, sext: bool) -> Value {
        let (sh, w) = sel_part(sel);
        if w == 32 {
            return x;
        }
        if sext {
            let l = self.shift_k(x, 32 - w - sh, 0);
            self.shift_k(l, 32 - w, 2)
        } else {
            let v = self.shift_k(x, sh, 1);
            self.low_bits(v, w)
        }
    }

    /// Destination placement on an `i32x4` (`old` is read only for PRESERVE).
    pub fn sdwa_place(&mut self, r: Value, old: Option<Value>, sel: u8, unused: u8) -> Value {
        let (sh, w) = sel_part(sel);
        if w == 32 {
            return r;
        }
        match unused {
            // Sign-extended from the field's top bit: a field ending at bit 31 is just
            // shifted up.
            1 if sh + w == 32 => self.shift_k(r, sh, 0),
            1 => {
                let l = self.shift_k(r, 32 - w, 0);
                let s = self.shift_k(l, 32 - w, 2);
                self.shift_k(s, sh, 0)
            }
            _ => {
                let m = ((1u64 << w) - 1) as u32;
                let part = if sh + w == 32 {
                    self.shift_k(r, sh, 0)
                } else {
                    let t = self.low_bits(r, w);
                    self.shift_k(t, sh, 0)
                };
                match (unused, old) {
                    (2, Some(old)) => {
                        let keep = self.splat32(!(m << sh));
                        let o = self.b.ins().band(old, keep);
                        self.b.ins().bor(part, o)
                    }
                    _ => part,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selection_by_hand() {
        let x = 0x8180_7f01u32;
        assert_eq!(select(x, 0, false), 0x01);
        assert_eq!(select(x, 1, true), 0x7f);
        assert_eq!(select(x, 2, true), 0xffff_ff80);
        assert_eq!(select(x, 3, false), 0x81);
        assert_eq!(select(x, 4, true), 0x7f01);
        assert_eq!(select(x, 5, true), 0xffff_8180);
        assert_eq!(select(x, 6, true), x);
    }

    #[test]
    fn placement_by_hand() {
        // byte_1, PAD: (r & 0xff) << 8.
        assert_eq!(place(0x1234_56f0, 0xaaaa_aaaa, 1, 0), 0x0000_f000);
        // byte_1, SEXT: INT32(INT8(0xf0)) << 8 = 0xffff_f000.
        assert_eq!(place(0x1234_56f0, 0xaaaa_aaaa, 1, 1), 0xffff_f000);
        // byte_1, PRESERVE keeps the other bytes of VDST.
        assert_eq!(place(0x1234_56f0, 0xaaaa_aaaa, 1, 2), 0xaaaa_f0aa);
        // word_1, PRESERVE.
        assert_eq!(place(0x0000_beef, 0x1111_2222, 5, 2), 0xbeef_2222);
        // dword: as is (ERRATA 7: SEXT = PAD here).
        assert_eq!(place(0x8000_0000, 0, 6, 1), 0x8000_0000);
    }
}
