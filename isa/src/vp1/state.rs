//! The state a VP1 scalar program runs on (004_1a7ba760ea192bb0.txt "Scalar registers",
//! "Scalar to vector data bus", "Move to/from other register file"; vp1-notes.md 4, 6, 7).
//!
//! `#[repr(C)]` so that JIT code addresses fields at fixed offsets. Invariant: `r[31]` is
//! 0 (it is hardwired; writes to it are dropped).

use std::fmt;
use std::str::FromStr;

/// `$c` bit that always reads 1.
pub const C_ALWAYS_ONE: u16 = 0x8000;
/// `$c` bits that always read 0.
pub const C_ALWAYS_ZERO: u16 = 0x5800;

/// Which VP1 the program runs on: G80 also writes scalar `$c` bits 6-7 (alt b19, b18) and
/// has the `$d` and `$x` files; NV41-family chips write those flag bits as 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum Variant {
    #[default]
    G80 = 0,
    Nv41 = 1,
}

impl Variant {
    pub fn is_g80(self) -> bool {
        self == Variant::G80
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Variant::G80 => "g80",
            Variant::Nv41 => "nv41",
        })
    }
}

/// A variant name nobody knows.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown VP1 variant `{0}` (try g80 or nv41)")]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "g80" | "nv50" => Ok(Variant::G80),
            "nv41" | "nv40" | "nv4x" => Ok(Variant::Nv41),
            _ => Err(UnknownVariant(s.to_string())),
        }
    }
}

/// What the scalar unit drove on the scalar-to-vector bus during the last bundle.
///
/// The factors are driven by every instruction ("junk" when nothing meant to send them);
/// the `$vc` selection only by vec, vecms, bvec, bvecmad and bvecmadsel (`valid` = 1). When
/// `valid` is 0 the selection and `vcmask` are 0: a vector instruction would use its own.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct S2v {
    /// Four signed 10-bit factors.
    pub factor: [i16; 4],
    /// `mask[0]` = bits 1-8 of factors 0 and 1; `mask[1]` likewise of factors 2 and 3.
    pub mask: [u16; 2],
    /// The `$vc` half selected and transformed (the xfrm tables of the spec).
    pub vcmask: u16,
    /// 1 if the `$vc` selection below is valid.
    pub valid: u8,
    pub vcidx: u8,
    /// 0 = sf (bits 0-15 of `$vc`), 1 = zf (bits 16-31).
    pub vcflag: u8,
    pub vcxfrm: u8,
}

/// The registers of the VP1 that a scalar program reads or writes.
#[repr(C)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// `$r0-$r30`; `r[31]` is the hardwired 0.
    pub r: [u32; 32],
    /// `$c0-$c3`, 16 bits each; bits 0-7 belong to the scalar unit. Bit 15 always reads 1
    /// and bits 11, 12 and 14 always 0 (vp1-notes.md 3: SLCT 15 is "always XOR 1", SLCT 14
    /// "no mangling"); [`State::new`] and [`State::normalize_c`] keep it so.
    pub c: [u16; 4],
    /// `$l0-$l3`, 16 bits each.
    pub l: [u16; 4],
    /// `$vc0-$vc3` (read by the s2v `$vc` selection).
    pub vc: [u32; 4],
    /// `$v0-$v31`, 16 bytes each, as 4 little-endian words (`v[n][w]` = bytes 4w..4w+3).
    pub v: [[u32; 4]; 32],
    /// `$a0-$a31`.
    pub a: [u32; 32],
    /// `$m0-$m63`.
    pub m: [u32; 64],
    pub sr: [u32; 32],
    pub mi: [u32; 32],
    pub uc: [u32; 32],
    /// `$d0-$d7` (G80 only).
    pub d: [u32; 8],
    /// `$f0-$f1`.
    pub f: [u32; 2],
    /// `$x0-$x15` (G80 only).
    pub x: [u32; 16],
    /// The s2v output of the last instruction.
    pub s2v: S2v,
    pub variant: Variant,
}

impl State {
    /// Every register 0 (`$c` = 0x8000: its bit 15 is always set).
    pub fn new(variant: Variant) -> State {
        State {
            r: [0; 32],
            c: [C_ALWAYS_ONE; 4],
            l: [0; 4],
            vc: [0; 4],
            v: [[0; 4]; 32],
            a: [0; 32],
            m: [0; 64],
            sr: [0; 32],
            mi: [0; 32],
            uc: [0; 32],
            d: [0; 8],
            f: [0; 2],
            x: [0; 16],
            s2v: S2v::default(),
            variant,
        }
    }

    /// Force the `$c` bits the hardware fixes (bit 15 set; 11, 12, 14 clear).
    pub fn normalize_c(&mut self) {
        for c in &mut self.c {
            *c = (*c & !C_ALWAYS_ZERO) | C_ALWAYS_ONE;
        }
    }

    /// `$r[idx & 31]`; `$r31` reads 0.
    pub fn read_r(&self, idx: u32) -> u32 {
        match idx & 31 {
            31 => 0,
            i => self.r[i as usize],
        }
    }

    /// Write `$r[idx & 31]`; writes to `$r31` are dropped.
    pub fn write_r(&mut self, idx: u32, v: u32) {
        let i = (idx & 31) as usize;
        if i != 31 {
            self.r[i] = v;
        }
    }

    /// Replace the scalar flag byte (bits 0-7) of `$c[idx]`, keeping bits 8-15.
    pub fn write_c_scalar(&mut self, idx: usize, flags: u8) {
        if let Some(c) = self.c.get_mut(idx) {
            *c = (*c & 0xff00) | flags as u16;
        }
    }
}

impl Default for State {
    fn default() -> Self {
        State::new(Variant::G80)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r31_is_hardwired_and_c_keeps_high_bits() {
        let mut s = State::new(Variant::Nv41);
        s.write_r(31, 5);
        s.write_r(3, 7);
        assert_eq!((s.read_r(31), s.read_r(3), s.r[31]), (0, 7, 0));
        assert_eq!(s.c, [0x8000; 4]);
        s.c[2] = 0xa5ff;
        s.write_c_scalar(2, 0x12);
        assert_eq!(s.c[2], 0xa512);
        s.c[1] = 0x7fff;
        s.normalize_c();
        assert_eq!(s.c[1], 0xa7ff);
        assert_eq!("G80".parse::<Variant>(), Ok(Variant::G80));
        assert_eq!(
            "nv99".parse::<Variant>(),
            Err(UnknownVariant("nv99".into()))
        );
    }
}
