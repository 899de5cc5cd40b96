//! Operand values: register names → register numbers for a generation, and constants →
//! inline constant codes or literals, choosing as LLVM's assembler does (a literal whose
//! value an inline constant can encode becomes that constant, unless written `lit(...)`).

use super::parse::{Operand, PErr, Val};
use crate::arch::Gen;
use crate::gcn::fmt::names::{inline_float_bits, inline_for, sgpr_count, special_sregs};
use crate::gcn::fmt::shape::Ty;
use crate::gcn::inst::Src;

pub fn err<T>(col: u32, msg: impl Into<String>) -> Result<T, PErr> {
    Err(PErr {
        col,
        msg: msg.into(),
    })
}

/// `m` takes exactly `n` operands (the error names the first extra one, or the line end).
pub fn expect_n(ops: &[Operand], n: usize, m: &str, end_col: u32) -> Result<(), PErr> {
    if ops.len() != n {
        let col = ops.get(n).map_or(end_col, |o| o.col);
        return err(
            col,
            format!(
                "{m} takes {n} operand{}, found {}",
                if n == 1 { "" } else { "s" },
                ops.len()
            ),
        );
    }
    Ok(())
}

/// A scalar register operand: first register number (0-127) and count.
pub fn scalar_reg(gen: Gen, v: &Val, col: u32) -> Result<Option<(u16, u8)>, PErr> {
    let count = sgpr_count(gen) as u32;
    let check_align = |lo: u32, n: u32| -> Result<(), PErr> {
        if n >= 4 && lo & 3 != 0 {
            return err(
                col,
                format!("register tuple of {n} SGPRs must start at a multiple of 4"),
            );
        }
        Ok(())
    };
    match v {
        Val::Tuple('s', lo, hi) => {
            if *hi >= count {
                return err(
                    col,
                    format!("s{hi} does not exist on {gen} (s0-s{})", count - 1),
                );
            }
            let n = hi - lo + 1;
            if n > 16 {
                return err(col, "too many registers in tuple");
            }
            check_align(*lo, n)?;
            Ok(Some((*lo as u16, n as u8)))
        }
        Val::Tuple('t', lo, hi) => {
            if *hi > 11 {
                return err(col, format!("ttmp{hi} does not exist (ttmp0-ttmp11)"));
            }
            let n = hi - lo + 1;
            check_align(*lo, n)?;
            Ok(Some((112 + *lo as u16, n as u8)))
        }
        Val::Ident(name) => {
            let l = name.to_ascii_lowercase();
            if let Some(n) = l.strip_prefix('s').and_then(num) {
                if n >= count {
                    return err(
                        col,
                        format!("s{n} does not exist on {gen} (s0-s{})", count - 1),
                    );
                }
                return Ok(Some((n as u16, 1)));
            }
            if let Some(n) = l.strip_prefix("ttmp").and_then(num) {
                if n > 11 {
                    return err(col, format!("ttmp{n} does not exist (ttmp0-ttmp11)"));
                }
                return Ok(Some((112 + n as u16, 1)));
            }
            if let Some((r, d, _)) = special_sregs(gen).iter().find(|(_, _, nm)| *nm == l) {
                return Ok(Some((*r, *d)));
            }
            let known_elsewhere = [
                "flat_scratch",
                "flat_scratch_lo",
                "flat_scratch_hi",
                "xnack_mask",
                "xnack_mask_lo",
                "xnack_mask_hi",
            ];
            if known_elsewhere.contains(&l.as_str()) {
                return err(col, format!("register {l} does not exist on {gen}"));
            }
            Ok(None)
        }
        _ => Ok(None),
    }
}

/// Digits only (no sign, no leading `+`).
fn num(d: &str) -> Option<u32> {
    if d.is_empty() || !d.bytes().all(|b| b.is_ascii_digit()) || d.len() > 4 {
        return None;
    }
    d.parse().ok()
}

/// A VGPR operand: first register and count.
pub fn vgpr(v: &Val, col: u32) -> Result<Option<(u8, u8)>, PErr> {
    match v {
        Val::Tuple('v', lo, hi) => {
            if *hi > 255 {
                return err(col, format!("v{hi} does not exist (v0-v255)"));
            }
            Ok(Some((*lo as u8, (hi - lo + 1).min(255) as u8)))
        }
        Val::Ident(name) => {
            let l = name.to_ascii_lowercase();
            if let Some(n) = l.strip_prefix('v').and_then(num) {
                if n > 255 {
                    return err(col, format!("v{n} does not exist (v0-v255)"));
                }
                return Ok(Some((n as u8, 1)));
            }
            Ok(None)
        }
        _ => Ok(None),
    }
}

/// A VGPR tuple of exactly `n` registers.
pub fn vreg_n(o: &Operand, n: u8, what: &str) -> Result<u8, PErr> {
    no_mods(o)?;
    match vgpr(&o.val, o.col)? {
        Some((r, c)) if c == n => {
            if r as u32 + n as u32 > 256 {
                return err(o.col, "register tuple runs past v255");
            }
            Ok(r)
        }
        Some((_, c)) => err(
            o.col,
            format!(
                "{what} must be {} VGPR{}, not {c}",
                n,
                if n == 1 { "" } else { "s" }
            ),
        ),
        None => err(o.col, format!("{what} must be a VGPR")),
    }
}

/// A VGPR tuple of any size: the first register, whatever the count. MIMG addresses on
/// GCN 1.0-1.2 encode only their first VGPR (the resource says how many are read), and
/// LLVM and CLRX accept any range there.
pub fn vreg_any(o: &Operand, what: &str) -> Result<u8, PErr> {
    no_mods(o)?;
    match vgpr(&o.val, o.col)? {
        Some((r, c)) if r as u32 + c as u32 <= 256 => Ok(r),
        Some(_) => err(o.col, "register tuple runs past v255"),
        None => err(o.col, format!("{what} must be a VGPR")),
    }
}

/// A scalar register of exactly `n` registers (SGPRs and named registers).
pub fn sreg_n(gen: Gen, o: &Operand, n: u8, what: &str) -> Result<u16, PErr> {
    no_mods(o)?;
    match scalar_reg(gen, &o.val, o.col)? {
        Some((r, c)) if c == n => Ok(r),
        Some((_, c)) => err(
            o.col,
            format!(
                "{what} must be {n} scalar register{}, not {c}",
                if n == 1 { "" } else { "s" }
            ),
        ),
        None => err(o.col, format!("{what} must be a scalar register")),
    }
}

pub fn no_mods(o: &Operand) -> Result<(), PErr> {
    if o.neg || o.abs || o.sext || o.lit {
        return err(o.col, "modifiers are not allowed on this operand");
    }
    Ok(())
}

/// Special source words (251-254) in both spellings.
pub fn special_src(name: &str) -> Option<u16> {
    match name.to_ascii_lowercase().as_str() {
        "src_vccz" | "vccz" => Some(251),
        "src_execz" | "execz" => Some(252),
        "src_scc" | "scc" => Some(253),
        "src_lds_direct" | "lds_direct" => Some(254),
        _ => None,
    }
}

/// A constant operand's encoding: inline code, or 255 with the literal dword.
pub fn constant(
    gen: Gen,
    v: &Val,
    ty: Ty,
    force_lit: bool,
    col: u32,
) -> Result<(Src, Option<u32>), PErr> {
    match v {
        Val::Int(i) => {
            // A 64-bit spelling of a sign-extended 32-bit value (`0xffffffffffffffff` is -1)
            // on a 32-bit operand, as LLVM reads it.
            let i = if ty.bits == 32 && (0xffff_ffff_8000_0000..=0xffff_ffff_ffff_ffff).contains(i)
            {
                *i - (1i128 << 64)
            } else {
                *i
            };
            let min = if ty.bits == 64 {
                i64::MIN as i128
            } else {
                i32::MIN as i128
            };
            let max = if ty.bits == 64 {
                u64::MAX as i128
            } else {
                u32::MAX as i128
            };
            // A negative constant on a 16-bit operand (GCN 1.2) is its 16 bits, zero-extended
            // in the literal (as LLVM writes it; the hardware reads the low half). Wider
            // values stay as written: decoded words may carry any 32-bit literal.
            let half = ty.bits == 16 && gen == Gen::Gfx8;
            let min = if half { -0x8000 } else { min };
            // On an f16 operand LLVM reads 0xfff0-0xffff as the 16-bit integers -16..-1, which
            // are inline constants (`v_add_f16 v1, 0xffff, v2` is `-1`; integer 16-bit
            // operands keep the literal).
            let i = if half && ty.float && (0xfff0..=0xffff).contains(&i) {
                i - 0x10000
            } else {
                i
            };
            if i < min || i > max {
                return err(col, format!("constant {i} does not fit the operand"));
            }
            let bits = i as i64 as u64;
            let high32 = ty.bits == 64 && ty.float && (0..=u32::MAX as i128).contains(&i);
            if !force_lit {
                if let Some(c) = inline_for(gen, bits, ty, high32) {
                    return Ok((Src(c), None));
                }
            }
            let lit = if ty.bits == 64 {
                if ty.float {
                    // An integer that fits 32 bits is the literal itself (the double's high
                    // half), a negative one its 32-bit two's complement, as LLVM writes it
                    // (`-54321` is 0xffff2bcf).
                    if (i32::MIN as i128..=u32::MAX as i128).contains(&i) {
                        i as i64 as u32
                    } else if bits & 0xffff_ffff == 0 {
                        (bits >> 32) as u32
                    } else {
                        return err(col, "a 64-bit float literal keeps only its high 32 bits; the low 32 must be zero");
                    }
                } else if (i32::MIN as i128..=u32::MAX as i128).contains(&i) {
                    i as i64 as u32
                } else {
                    return err(col, format!("constant {i} does not fit a 32-bit literal"));
                }
            } else if half && i < 0 {
                (i & 0xffff) as u32
            } else {
                i as i64 as u32
            };
            Ok((Src(255), Some(lit)))
        }
        Val::Float(f) => {
            let f = *f;
            // A float that overflows the operand's type, or underflows to zero, is refused
            // (LLVM: `v_trunc_f32 v0, 2.3509886e-70` is an invalid operand). Rounding is fine.
            let (inf, zero) = match ty.bits {
                16 => {
                    let h = half::f16::from_f64(f);
                    (h.is_infinite(), h.to_f64() == 0.0)
                }
                64 => (false, false),
                _ => ((f as f32).is_infinite(), (f as f32) == 0.0),
            };
            if f.is_finite() && (inf || zero && f != 0.0) {
                return err(col, format!("{f} does not fit a {}-bit float", ty.bits));
            }
            let bits: u64 = match ty.bits {
                16 => half::f16::from_f64(f).to_bits() as u64,
                64 => f.to_bits(),
                _ => (f as f32).to_bits() as u64,
            };
            if !force_lit {
                let maxf = if gen == Gen::Gfx8 { 248 } else { 247 };
                if let Some(c) =
                    (240..=maxf).find(|&c| inline_float_bits(c, ty.bits.max(16)) == Some(bits))
                {
                    return Ok((Src(c), None));
                }
                if f == 0.0 && f.is_sign_positive() {
                    return Ok((Src(128), None));
                }
            }
            let lit = if ty.bits == 64 {
                if !ty.float {
                    return err(
                        col,
                        "a float that is no inline constant cannot be a 64-bit integer literal",
                    );
                }
                (bits >> 32) as u32
            } else {
                bits as u32
            };
            Ok((Src(255), Some(lit)))
        }
        _ => err(col, "expected a constant"),
    }
}

/// A 9-bit source operand of type `ty`: register, special or constant. Modifiers are left
/// to the caller (returned flags stay in `o`).
pub fn src(gen: Gen, o: &Operand, ty: Ty) -> Result<(Src, Option<u32>), PErr> {
    let col = o.col;
    if let Some((r, n)) = vgpr(&o.val, col)? {
        if n != ty.dwords() {
            return err(
                col,
                format!(
                    "expected {} VGPR{}",
                    ty.dwords(),
                    if ty.dwords() == 1 { "" } else { "s" }
                ),
            );
        }
        if o.lit {
            return err(col, "lit() takes a constant");
        }
        if r as u32 + n as u32 > 256 {
            return err(col, "register tuple runs past v255");
        }
        return Ok((Src::vgpr(r), None));
    }
    if let Some((r, n)) = scalar_reg(gen, &o.val, col)? {
        if n != ty.dwords() {
            return err(
                col,
                format!(
                    "expected {} scalar register{}",
                    ty.dwords(),
                    if ty.dwords() == 1 { "" } else { "s" }
                ),
            );
        }
        if o.lit {
            return err(col, "lit() takes a constant");
        }
        return Ok((Src(r), None));
    }
    if let Val::Ident(name) = &o.val {
        if let Some(c) = special_src(name) {
            return Ok((Src(c), None));
        }
        return err(col, format!("unknown operand `{name}`"));
    }
    if let Val::Tuple(f, lo, hi) = &o.val {
        return err(col, format!("bad register {f}[{lo}:{hi}]"));
    }
    if let Val::Func(f, args) = &o.val {
        // `src(N)`: a raw 9-bit source code, for the reserved values no name covers.
        return match (f.as_str(), args.as_slice()) {
            ("src", [Val::Int(n)]) if (0..=511).contains(n) => Ok((Src(*n as u16), None)),
            _ => err(col, format!("`{f}(...)` is not a source operand")),
        };
    }
    constant(gen, &o.val, ty, o.lit, col)
}

/// Whether the operand is written as a raw source code, `src(N)`.
pub fn is_raw(o: &Operand) -> bool {
    matches!(&o.val, Val::Func(f, _) if f == "src")
}

/// An integer operand in `lo..=hi`.
pub fn int_in(o: &Operand, lo: i128, hi: i128, what: &str) -> Result<i128, PErr> {
    no_mods(o)?;
    match o.val {
        Val::Int(v) if (lo..=hi).contains(&v) => Ok(v),
        Val::Int(v) => err(o.col, format!("{what} {v} is out of range {lo}..{hi}")),
        _ => err(o.col, format!("{what} must be a number")),
    }
}
