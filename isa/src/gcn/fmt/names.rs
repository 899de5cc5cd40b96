//! Spelling of registers and constants: scalar register names per generation (`vcc`,
//! `flat_scratch`, `ttmp[0:1]`, …), VGPR tuples, inline constants and literals. The assembler
//! parses exactly what these functions print.

use super::shape::Ty;
use crate::arch::Gen;
use crate::gcn::inst::Src;
use crate::gcn::table::Op;

/// Which assembly dialect to print.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Syntax {
    /// CLRX syntax (000/002 spec documents): no encoding suffixes, `sext(v1)`, `abs(v1)`,
    /// lowercase SDWA selectors, `bound_ctrl`.
    #[default]
    Clrx,
    /// LLVM syntax exactly as llvm-mc 19 prints it: `_e32`/`_e64`/`_sdwa`/`_dpp`,
    /// `|v1|`, `BYTE_1`, `bound_ctrl:1`.
    Llvm,
}

impl std::str::FromStr for Syntax {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "clrx" => Ok(Syntax::Clrx),
            "llvm" => Ok(Syntax::Llvm),
            _ => Err(format!("unknown syntax `{s}` (clrx or llvm)")),
        }
    }
}

/// The mnemonic of `op` in `gen` for `syntax`. The table's alias column holds LLVM's name
/// where the spec's differs (ERRATA VOP3 15: GCN 1.0 `v_mqsad_u8` is LLVM's
/// `v_mqsad_pk_u16_u8`), so LLVM syntax prints the alias.
/// CLRX names the integer compares "not equal" and "always true" `lg` and `tru`, as its
/// float compares, and its disassembler prints them so (`v_cmp_lg_i32`, `v_cmpx_tru_u64`).
pub fn mnemonic(gen: Gen, op: Op, syntax: Syntax) -> &'static str {
    if syntax == Syntax::Llvm {
        if let Some(a) = op.row(gen).and_then(|r| r.llvm_name()) {
            return a;
        }
    }
    let m = op.mnemonic();
    if syntax == Syntax::Clrx && m.starts_with("v_cmp") {
        if let Some((_, clrx)) = CLRX_INT_COMPARES.iter().find(|(n, _)| *n == m) {
            return clrx;
        }
    }
    m
}

/// The table's (LLVM's) names of the integer compares CLRX spells with `lg`/`tru`.
const CLRX_INT_COMPARES: [(&str, &str); 24] = [
    ("v_cmp_ne_i16", "v_cmp_lg_i16"),
    ("v_cmp_ne_u16", "v_cmp_lg_u16"),
    ("v_cmp_ne_i32", "v_cmp_lg_i32"),
    ("v_cmp_ne_u32", "v_cmp_lg_u32"),
    ("v_cmp_ne_i64", "v_cmp_lg_i64"),
    ("v_cmp_ne_u64", "v_cmp_lg_u64"),
    ("v_cmpx_ne_i16", "v_cmpx_lg_i16"),
    ("v_cmpx_ne_u16", "v_cmpx_lg_u16"),
    ("v_cmpx_ne_i32", "v_cmpx_lg_i32"),
    ("v_cmpx_ne_u32", "v_cmpx_lg_u32"),
    ("v_cmpx_ne_i64", "v_cmpx_lg_i64"),
    ("v_cmpx_ne_u64", "v_cmpx_lg_u64"),
    ("v_cmp_t_i16", "v_cmp_tru_i16"),
    ("v_cmp_t_u16", "v_cmp_tru_u16"),
    ("v_cmp_t_i32", "v_cmp_tru_i32"),
    ("v_cmp_t_u32", "v_cmp_tru_u32"),
    ("v_cmp_t_i64", "v_cmp_tru_i64"),
    ("v_cmp_t_u64", "v_cmp_tru_u64"),
    ("v_cmpx_t_i16", "v_cmpx_tru_i16"),
    ("v_cmpx_t_u16", "v_cmpx_tru_u16"),
    ("v_cmpx_t_i32", "v_cmpx_tru_i32"),
    ("v_cmpx_t_u32", "v_cmpx_tru_u32"),
    ("v_cmpx_t_i64", "v_cmpx_tru_i64"),
    ("v_cmpx_t_u64", "v_cmpx_tru_u64"),
];

/// Number of general SGPRs the assembler accepts by number in `gen` (s0 … s(N-1)).
pub fn sgpr_count(gen: Gen) -> u16 {
    match gen {
        Gen::Gfx6 | Gen::Gfx7 => 104,
        Gen::Gfx8 => 102,
    }
}

/// Named scalar registers of `gen`: (first register number, dwords, name).
/// 64-bit names come first so that pairs print as `vcc`, not `vcc_lo`.
pub fn special_sregs(gen: Gen) -> &'static [(u16, u8, &'static str)] {
    const COMMON: &[(u16, u8, &str)] = &[
        (106, 2, "vcc"),
        (108, 2, "tba"),
        (110, 2, "tma"),
        (126, 2, "exec"),
        (106, 1, "vcc_lo"),
        (107, 1, "vcc_hi"),
        (108, 1, "tba_lo"),
        (109, 1, "tba_hi"),
        (110, 1, "tma_lo"),
        (111, 1, "tma_hi"),
        (124, 1, "m0"),
        (126, 1, "exec_lo"),
        (127, 1, "exec_hi"),
    ];
    const GFX7: &[(u16, u8, &str)] = &[
        (104, 2, "flat_scratch"),
        (104, 1, "flat_scratch_lo"),
        (105, 1, "flat_scratch_hi"),
    ];
    const GFX8: &[(u16, u8, &str)] = &[
        (102, 2, "flat_scratch"),
        (104, 2, "xnack_mask"),
        (102, 1, "flat_scratch_lo"),
        (103, 1, "flat_scratch_hi"),
        (104, 1, "xnack_mask_lo"),
        (105, 1, "xnack_mask_hi"),
    ];
    match gen {
        Gen::Gfx6 => COMMON,
        Gen::Gfx7 => {
            static V: std::sync::OnceLock<Vec<(u16, u8, &'static str)>> =
                std::sync::OnceLock::new();
            V.get_or_init(|| GFX7.iter().chain(COMMON).copied().collect())
        }
        Gen::Gfx8 => {
            static V: std::sync::OnceLock<Vec<(u16, u8, &'static str)>> =
                std::sync::OnceLock::new();
            V.get_or_init(|| GFX8.iter().chain(COMMON).copied().collect())
        }
    }
}

/// The name of scalar register `n` (0-127) used as a `dwords`-wide operand.
/// Registers no name covers print as `s[N:M]` / `sN` with their raw numbers, which the
/// assembler accepts back only through the same raw spelling.
pub fn sreg(gen: Gen, n: u16, dwords: u8) -> String {
    sreg_named(gen, n, dwords).unwrap_or_else(|| tuple('s', n, dwords))
}

/// The name of scalar register `n` as a `dwords`-wide operand, if `gen` has one for it.
pub fn sreg_named(gen: Gen, n: u16, dwords: u8) -> Option<String> {
    let count = sgpr_count(gen);
    let last = n + dwords as u16 - 1;
    if last < count {
        return Some(tuple('s', n, dwords));
    }
    if let Some((_, _, name)) = special_sregs(gen)
        .iter()
        .find(|(r, d, _)| *r == n && *d == dwords)
    {
        return Some(name.to_string());
    }
    if (112..=123).contains(&n) && last <= 123 {
        let t = n - 112;
        return Some(if dwords == 1 {
            format!("ttmp{t}")
        } else {
            format!("ttmp[{t}:{}]", t + dwords as u16 - 1)
        });
    }
    None
}

/// `v5`, `s7` or `v[4:5]`.
pub fn tuple(file: char, n: u16, dwords: u8) -> String {
    if dwords <= 1 {
        format!("{file}{n}")
    } else {
        format!("{file}[{n}:{}]", n + dwords as u16 - 1)
    }
}

/// A VGPR tuple.
pub fn vreg(n: u8, dwords: u8) -> String {
    tuple('v', n as u16, dwords)
}

/// Bit pattern of each inline float constant (sources 240-248) for a width.
pub fn inline_float_bits(code: u16, bits: u16) -> Option<u64> {
    let i = code.checked_sub(240)? as usize;
    const F16: [u64; 9] = [
        0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
    ];
    const F32: [u64; 9] = [
        0x3f00_0000,
        0xbf00_0000,
        0x3f80_0000,
        0xbf80_0000,
        0x4000_0000,
        0xc000_0000,
        0x4080_0000,
        0xc080_0000,
        0x3e22_f983,
    ];
    const F64: [u64; 9] = [
        0x3fe0_0000_0000_0000,
        0xbfe0_0000_0000_0000,
        0x3ff0_0000_0000_0000,
        0xbff0_0000_0000_0000,
        0x4000_0000_0000_0000,
        0xc000_0000_0000_0000,
        0x4010_0000_0000_0000,
        0xc010_0000_0000_0000,
        0x3fc4_5f30_6dc9_c882,
    ];
    match bits {
        16 => F16.get(i).copied(),
        64 => F64.get(i).copied(),
        _ => F32.get(i).copied(),
    }
}

/// Text of inline float constant `code` (240-248) for an operand of `bits` width.
pub fn inline_float_text(code: u16, bits: u16) -> &'static str {
    match code {
        240 => "0.5",
        241 => "-0.5",
        242 => "1.0",
        243 => "-1.0",
        244 => "2.0",
        245 => "-2.0",
        246 => "4.0",
        247 => "-4.0",
        _ if bits >= 64 => "0.15915494309189532",
        _ => "0.15915494",
    }
}

/// Whether `gen` has the inline constant 1/(2*pi) (source 248): GCN 1.2 only.
pub fn has_inv_2pi(gen: Gen) -> bool {
    gen == Gen::Gfx8
}

/// Text of a 9-bit source operand of type `ty` (`literal` is the instruction's literal).
/// Values no name covers (reserved codes the decoder lets through) print as `src(N)`, which
/// the assembler reads back as that raw code.
pub fn src(gen: Gen, s: Src, ty: Ty, literal: Option<u32>, sx: Syntax) -> String {
    let c = s.0;
    match c {
        0..=127 => sreg_named(gen, c, ty.dwords()).unwrap_or_else(|| format!("src({c})")),
        128..=208 => s.inline_int().map(|v| v.to_string()).unwrap_or_default(),
        248 if !has_inv_2pi(gen) => format!("src({c})"),
        240..=248 => inline_float_text(c, ty.bits).to_string(),
        251 => special(sx, "src_vccz", "vccz"),
        252 => special(sx, "src_execz", "execz"),
        253 => special(sx, "src_scc", "scc"),
        254 => special(sx, "src_lds_direct", "lds_direct"),
        255 => match literal {
            Some(v) => literal_text(gen, v, ty),
            None => "src(255)".to_string(),
        },
        256..=511 => vreg((c - 256) as u8, ty.dwords()),
        _ => format!("src({c})"),
    }
}

fn special(sx: Syntax, llvm: &str, clrx: &str) -> String {
    match sx {
        Syntax::Llvm => llvm.to_string(),
        Syntax::Clrx => clrx.to_string(),
    }
}

/// Text of a literal dword. A literal whose value the assembler would turn into an inline
/// constant is printed as `lit(0x…)`, which forces the literal encoding back.
pub fn literal_text(gen: Gen, v: u32, ty: Ty) -> String {
    if inline_for(gen, v as u64, ty, ty.bits == 64 && ty.float).is_some() {
        format!("lit(0x{v:x})")
    } else {
        format!("0x{v:x}")
    }
}

/// The inline constant (source code 128-248) that encodes the value `v` written for an
/// operand of type `ty`, as LLVM's assembler chooses it. `v` is the operand's full bit
/// pattern (for 64-bit floats: the high dword when `high32`).
pub fn inline_for(gen: Gen, v: u64, ty: Ty, high32: bool) -> Option<u16> {
    let maxf = if has_inv_2pi(gen) { 248 } else { 247 };
    match ty.bits {
        16 => {
            // 16-bit integers: only the integer constants (0xffff is not -1).
            if (-16..=64).contains(&(v as i64)) {
                return int_code(v as i64);
            }
            if ty.float && v <= 0xffff {
                (240..=maxf).find(|&c| inline_float_bits(c, 16) == Some(v))
            } else {
                None
            }
        }
        64 => {
            if (-16..=64).contains(&(v as i64)) {
                return int_code(v as i64);
            }
            let full = if high32 { v << 32 } else { v };
            (240..=maxf).find(|&c| inline_float_bits(c, 64) == Some(full))
        }
        _ => {
            let w = v as u32;
            if (-16..=64).contains(&(w as i32)) {
                return int_code(w as i32 as i64);
            }
            (240..=maxf).find(|&c| inline_float_bits(c, 32) == Some(w as u64))
        }
    }
}

fn int_code(v: i64) -> Option<u16> {
    match v {
        0..=64 => Some(128 + v as u16),
        -16..=-1 => Some((192 - v) as u16),
        _ => None,
    }
}

/// A 32-bit immediate as LLVM prints one that is not a source operand (the constant of
/// `s_setreg_imm32_b32`): -16..64 in decimal, the inline float values by name, else hex.
pub fn imm32_text(gen: Gen, v: u32) -> String {
    if (-16..=64).contains(&(v as i32)) {
        return (v as i32).to_string();
    }
    let maxf = if has_inv_2pi(gen) { 248 } else { 247 };
    match (240..=maxf).find(|&c| inline_float_bits(c, 32) == Some(v as u64)) {
        Some(c) => inline_float_text(c, 32).to_string(),
        None => format!("0x{v:x}"),
    }
}

/// `attr{N}.{x,y,z,w}`.
pub fn attr(attr: u8, chan: u8) -> String {
    let c = ["x", "y", "z", "w"]
        .get(chan as usize & 3)
        .copied()
        .unwrap_or("x");
    format!("attr{attr}.{c}")
}

/// VINTRP parameter of V_INTERP_MOV_F32.
pub fn interp_param(p: u16) -> String {
    match p {
        0 => "p10".into(),
        1 => "p20".into(),
        2 => "p0".into(),
        _ => format!("p_invalid{p}"),
    }
}
