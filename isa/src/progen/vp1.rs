//! Programs and states for the VP1 scalar unit. Every 32-bit word with an opcode below
//! 0x80 is a scalar instruction (`isa/tables/vp1.tsv` has a row for each), so a program is
//! a run of words: the opcode from the table rows the caller keeps, the other fields
//! random but biased — a few registers (so results feed later instructions, and `$r31`,
//! the hardwired zero), `$c` destinations 0-3 or none, every SLCT/COND mangling, immediate
//! edges. Now and then a word of another unit (vector, address, branch) goes in, which
//! both engines must refuse the same way.

use rand::Rng;

use super::values;
use crate::vp1::fields::{self, Field};
use crate::vp1::table::OPS;
use crate::vp1::{State, Variant};

/// The scalar opcodes of the table (0x00-0x7f) that `keep` accepts.
pub fn opcodes(mut keep: impl FnMut(u8) -> bool) -> Vec<u8> {
    OPS.iter().map(|d| d.opcode).filter(|&o| keep(o)).collect()
}

fn reg(rng: &mut impl Rng) -> u32 {
    match rng.random_range(0..10) {
        0..=6 => rng.random_range(0..8),
        7 => 31,
        _ => rng.random_range(0..32),
    }
}

fn put(w: u32, f: Field, v: u32) -> u32 {
    f.put(w, v)
}

/// One random word of scalar opcode `op`.
pub fn word(rng: &mut impl Rng, op: u8) -> u32 {
    let mut w: u32 = rng.random::<u32>() & 0x00FF_FFFF;
    w = put(w, fields::DST, reg(rng));
    w = put(w, fields::SRC1, reg(rng));
    w = put(w, fields::SRC2, reg(rng));
    // Immediates overlap the register fields; when they are used, edges help.
    if rng.random_bool(0.4) {
        let imm = match rng.random_range(0..6) {
            0 => 0,
            1 => 1,
            2 => 0x3ff,
            3 => 0x400,
            4 => 0x7ff,
            _ => rng.random_range(0..0x800),
        };
        w = put(w, fields::IMM, imm);
    }
    let cdst = match rng.random_range(0..10) {
        0..=5 => rng.random_range(0..4),
        6..=8 => 7,
        _ => rng.random_range(4..8),
    };
    w = put(w, fields::CDST, cdst);
    if rng.random_bool(0.3) {
        w = put(w, fields::SLCT, 14); // plain register (no mangling)
    }
    put(w, fields::OP, op as u32)
}

/// A program of `len` words from `ops` (0.3 % words of the other units).
pub fn program(rng: &mut impl Rng, len: usize, ops: &[u8]) -> Vec<u32> {
    let mut out = Vec::with_capacity(len);
    for _ in 0..len {
        if ops.is_empty() || rng.random_bool(0.003) {
            let op = rng.random_range(0x80..=0xffu32);
            out.push(op << 24 | (rng.random::<u32>() & 0x00FF_FFFF));
        } else {
            let op = ops[rng.random_range(0..ops.len())];
            out.push(word(rng, op));
        }
    }
    out
}

/// A random VP1 state: every register file filled with biased values.
pub fn state(rng: &mut impl Rng) -> State {
    let variant = if rng.random_bool(0.8) {
        Variant::G80
    } else {
        Variant::Nv41
    };
    let mut s = State::new(variant);
    for i in 0..31 {
        s.r[i] = values::word(rng);
    }
    // `$c` bit 15 reads as 1 and bits 11, 12 and 14 as 0 on the hardware (the state
    // file forces them too); the scalar unit owns bits 0-7.
    for c in s.c.iter_mut() {
        *c = (rng.random::<u16>() & !0x5800) | 0x8000;
    }
    for l in s.l.iter_mut() {
        *l = rng.random();
    }
    for x in s.vc.iter_mut() {
        *x = rng.random();
    }
    for v in s.v.iter_mut() {
        for x in v.iter_mut() {
            *x = values::word(rng);
        }
    }
    for file in [
        &mut s.a[..],
        &mut s.m[..],
        &mut s.sr[..],
        &mut s.mi[..],
        &mut s.uc[..],
        &mut s.d[..],
        &mut s.f[..],
        &mut s.x[..],
    ] {
        for x in file.iter_mut() {
            *x = values::word(rng);
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_keep_their_opcode_and_bias_registers() {
        let mut rng = crate::progen::rng(2, 0);
        let ops = opcodes(|_| true);
        assert_eq!(ops.len(), 128);
        let mut low = 0;
        for _ in 0..1000 {
            let op = ops[rng.random_range(0..ops.len())];
            let w = word(&mut rng, op);
            assert_eq!(w >> 24, op as u32);
            low += (fields::DST.get(w) < 8) as u32;
        }
        assert!(low > 600, "{low}");
        let p = program(&mut rng, 2000, &ops);
        let other = p.iter().filter(|w| *w >> 24 >= 0x80).count();
        assert!(other < 30, "{other}");
        let st = state(&mut rng);
        assert_eq!(st.r[31], 0);
    }
}
