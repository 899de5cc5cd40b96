//! The 32-bit scalar operations and the scalar `$c` flags (004_1a7ba760ea192bb0.txt
//! "Arithmetic operations", "Bit operations"; ERRATA VP1 1-4; vp1-notes.md 4-5). Pure
//! functions of their inputs.

/// mul: 16x16 signed multiply, 32-bit result.
pub fn mul(s1: u32, s2: u32) -> u32 {
    ((s1 as i16 as i32) * (s2 as i16 as i32)) as u32
}

/// min: always signed (ERRATA VP1 3a).
pub fn min(s1: u32, s2: u32) -> u32 {
    (s1 as i32).min(s2 as i32) as u32
}

/// max: always signed (ERRATA VP1 3a).
pub fn max(s1: u32, s2: u32) -> u32 {
    (s1 as i32).max(s2 as i32) as u32
}

/// abs: two's complement (0x80000000 stays 0x80000000).
pub fn abs(s1: u32) -> u32 {
    (s1 as i32).wrapping_abs() as u32
}

pub fn neg(s1: u32) -> u32 {
    s1.wrapping_neg()
}

pub fn add(s1: u32, s2: u32) -> u32 {
    s1.wrapping_add(s2)
}

pub fn sub(s1: u32, s2: u32) -> u32 {
    s1.wrapping_sub(s2)
}

/// shr (`arith` = false) / sar (`arith` = true): the amount is the low 6 bits of `s2`,
/// signed; negative amounts shift left, and -32 leaves `s1` unchanged.
pub fn shift(s1: u32, s2: u32, arith: bool) -> u32 {
    let n = ((s2 << 26) as i32) >> 26;
    match n {
        -32 => s1,
        n if n < 0 => s1 << -n,
        n if arith => ((s1 as i32) >> n) as u32,
        n => s1 >> n,
    }
}

/// bitop: bit k of the result is bit `(s1_k << 1) | s2_k` of the 4-bit truth table `op`
/// (ERRATA VP1 2), written as the OR of the selected minterms.
pub fn bitop(op: u32, s1: u32, s2: u32) -> u32 {
    let mut r = 0;
    if op & 1 != 0 {
        r |= !s1 & !s2;
    }
    if op & 2 != 0 {
        r |= !s1 & s2;
    }
    if op & 4 != 0 {
        r |= s1 & !s2;
    }
    if op & 8 != 0 {
        r |= s1 & s2;
    }
    r
}

/// The "partial" flag set (bitop, and/xor/or immediate): zf, b19, b20, b21 and, on G80,
/// alt b19 (bit 6) and b18 (bit 7). sf and b20d read 0.
pub fn flags_part(res: u32, g80: bool) -> u8 {
    let bit = |b: u32| res >> b & 1 != 0;
    let mut c = 0;
    if res == 0 {
        c |= 0x02;
    }
    if bit(19) {
        c |= 0x04;
    }
    if bit(20) {
        c |= 0x10;
    }
    if bit(21) {
        c |= 0x20;
    }
    if g80 {
        if bit(19) {
            c |= 0x40;
        }
        if bit(18) {
            c |= 0x80;
        }
    }
    c
}

/// The full flag set: the partial set plus sf (bit 31 of the result) and b20d (bit 20 of
/// the result differs from bit 20 of `s1`; neg passes 0, ERRATA VP1 3).
pub fn flags_full(res: u32, s1: u32, g80: bool) -> u8 {
    let mut c = flags_part(res, g80);
    if res >> 31 != 0 {
        c |= 0x01;
    }
    if (res ^ s1) >> 20 & 1 != 0 {
        c |= 0x08;
    }
    c
}

/// SRC2S, the mangled second source (004 "Source mangling"): SLCT 4 adds bits 4-5 of `$c`
/// to the low 2 bits of the index (carry out of bit 1 dropped); any other SLCT XORs that
/// bit of `$c` into bit 0.
pub fn src2s(src2: u32, c: u16, slct: u32) -> u32 {
    let c = c as u32;
    if slct == 4 {
        (src2 & !3) | ((src2 + (c >> 4 & 3)) & 3)
    } else {
        src2 ^ (c >> slct & 1)
    }
}
