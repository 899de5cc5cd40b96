//! 64-bit lanes: a VGPR pair's chunk is two `i32x4` (low dwords, high dwords); 64-bit
//! operations work on two `i64x2` (lanes 0-1, 2-3). Zipping and unzipping between them
//! (remembered per pair, so f64 chains zip once).

use cranelift_codegen::ir::{InstBuilder, Value};

use crate::block::{Cx, I32X4, I64X2, I8X16};

/// Byte shuffle constants: interleave two `i32x4` (low halves, high halves) into two
/// `i64x2` holding lanes 0-1 and 2-3; and the inverse.
const ZIP_LO: [u8; 16] = [0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23];
const ZIP_HI: [u8; 16] = [8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31];
const UNZIP_LO: [u8; 16] = [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27];
const UNZIP_HI: [u8; 16] = [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31];

impl Cx<'_> {
    pub fn shuffle(&mut self, a: Value, b: Value, mask: [u8; 16]) -> Value {
        let a = self.cast(I8X16, a);
        let b = self.cast(I8X16, b);
        let imm = self.b.func.dfg.immediates.push(mask.to_vec().into());
        self.b.ins().shuffle(a, b, imm)
    }

    /// Two `i32x4` halves (low dwords, high dwords of 4 lanes) → two `i64x2`.
    pub fn zip64(&mut self, lo: Value, hi: Value) -> [Value; 2] {
        if let Some(&p) = self.zips.get(&(lo, hi)) {
            return p;
        }
        let a = self.shuffle(lo, hi, ZIP_LO);
        let b = self.shuffle(lo, hi, ZIP_HI);
        let p = [self.cast(I64X2, a), self.cast(I64X2, b)];
        self.zips.insert((lo, hi), p);
        p
    }

    /// Two `i64x2` (lanes 0-1, 2-3) → (low dwords, high dwords) as `i32x4`.
    pub fn unzip64(&mut self, p: [Value; 2]) -> (Value, Value) {
        let lo = self.shuffle(p[0], p[1], UNZIP_LO);
        let hi = self.shuffle(p[0], p[1], UNZIP_HI);
        (self.cast(I32X4, lo), self.cast(I32X4, hi))
    }
}
