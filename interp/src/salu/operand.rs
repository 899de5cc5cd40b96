//! Scalar operands: reading a 9-bit source field (`Src`) as a 32- or 64-bit value and
//! writing a 7-bit scalar destination, as the scalar unit sees them.
//!
//! Source fields (AMD SI/CI/GCN3 ISA manuals, "Scalar ALU operands"):
//! - 0-127: scalar register slots, routed by `Wave::read_sreg` (VCC, M0, EXEC, trap regs);
//!   a 64-bit operand is the pair `slot, slot + 1` (unaligned pairs allowed);
//! - 128-208: inline integers 0..64, -1..-16 (sign-extended to 64 bits for 64-bit operands);
//! - 240-248: inline floats 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0 and, on GCN 1.2 only,
//!   1/(2π) — as f32 bits for 32-bit operands and f64 bits for 64-bit operands (the encoding
//!   LLVM's assembler uses for `s_mov_b64 s[0:1], 1.0`);
//! - 251 VCCZ, 252 EXECZ, 253 SCC (each 0 or 1);
//! - 255: the literal dword that follows the instruction, zero-extended for 64-bit operands
//!   (LLVM encodes `s_mov_b64 s[0:1], 0x80000000` with the literal 0x80000000);
//! - anything else (VGPRs, LDS_DIRECT, reserved codes) is not a scalar source.

use wavejit_isa::gcn::Src;
use wavejit_isa::state::Wave;
use wavejit_isa::Gen;

use crate::error::ExecErrorKind;

fn bad(what: String) -> ExecErrorKind {
    ExecErrorKind::BadOperand(what)
}

/// Value of an inline float constant (240-248) as (f32 bits, f64 bits).
fn inline_float(gen: Gen, code: u16) -> Option<(u32, u64)> {
    let v: f64 = match code {
        240 => 0.5,
        241 => -0.5,
        242 => 1.0,
        243 => -1.0,
        244 => 2.0,
        245 => -2.0,
        246 => 4.0,
        247 => -4.0,
        // 1/(2π): exists on GCN 1.2 only. Its f32 and f64 encodings are the values rounded
        // to each precision (0x3e22f983, 0x3fc45f306dc9c882).
        248 if gen == Gen::Gfx8 => {
            return Some((0x3e22_f983, 0x3fc4_5f30_6dc9_c882));
        }
        _ => return None,
    };
    Some(((v as f32).to_bits(), v.to_bits()))
}

/// Read a 32-bit scalar source.
pub fn read32(w: &Wave, src: Src, literal: Option<u32>) -> Result<u32, ExecErrorKind> {
    match src.0 {
        0..=127 => Ok(w.read_sreg(src.0 as u8)),
        128..=208 => Ok(src.inline_int().unwrap_or(0) as u32),
        240..=248 => inline_float(w.gen, src.0).map(|(f, _)| f).ok_or_else(|| {
            bad(format!(
                "source {} is not an inline constant on {}",
                src.0, w.gen
            ))
        }),
        251 => Ok((w.vcc == 0) as u32),
        252 => Ok((w.exec == 0) as u32),
        253 => Ok(w.scc & 1),
        255 => literal.ok_or_else(|| bad("literal operand without a literal dword".into())),
        _ => Err(bad(format!("source {} is not a scalar operand", src.0))),
    }
}

/// Read a 64-bit scalar source.
pub fn read64(w: &Wave, src: Src, literal: Option<u32>) -> Result<u64, ExecErrorKind> {
    match src.0 {
        // A pair must lie inside the 128 slots: 127 would pair EXEC_HI with s0.
        0..=126 => Ok(w.read_sreg64(src.0 as u8)),
        127 => Err(bad("64-bit source at slot 127 has no second half".into())),
        128..=208 => Ok(src.inline_int().unwrap_or(0) as i64 as u64),
        240..=248 => inline_float(w.gen, src.0).map(|(_, d)| d).ok_or_else(|| {
            bad(format!(
                "source {} is not an inline constant on {}",
                src.0, w.gen
            ))
        }),
        251 => Ok((w.vcc == 0) as u64),
        252 => Ok((w.exec == 0) as u64),
        253 => Ok((w.scc & 1) as u64),
        255 => literal
            .map(u64::from)
            .ok_or_else(|| bad("literal operand without a literal dword".into())),
        _ => Err(bad(format!("source {} is not a scalar operand", src.0))),
    }
}

/// Write a 32-bit scalar destination (slot 0-127).
pub fn write32(w: &mut Wave, sdst: u8, v: u32) -> Result<(), ExecErrorKind> {
    if sdst > 127 {
        return Err(bad(format!(
            "scalar destination {sdst} is not a register slot"
        )));
    }
    w.write_sreg(sdst, v);
    Ok(())
}

/// Write a 64-bit scalar destination pair (`sdst`, `sdst + 1`).
pub fn write64(w: &mut Wave, sdst: u8, v: u64) -> Result<(), ExecErrorKind> {
    if sdst > 126 {
        return Err(bad(format!(
            "64-bit scalar destination at slot {sdst} has no second half"
        )));
    }
    w.write_sreg64(sdst, v);
    Ok(())
}

/// Write `n` consecutive scalar slots from `sdst` (memory loads of 1-16 dwords).
pub fn write_n(w: &mut Wave, sdst: u8, vals: &[u32]) -> Result<(), ExecErrorKind> {
    if sdst as usize + vals.len() > 128 {
        return Err(bad(format!(
            "{} scalar registers from slot {sdst} run past slot 127",
            vals.len()
        )));
    }
    for (i, &v) in vals.iter().enumerate() {
        w.write_sreg(sdst + i as u8, v);
    }
    Ok(())
}

/// Read consecutive scalar slots from `base` into `out` (store data).
pub fn read_into(w: &Wave, base: u8, out: &mut [u32]) -> Result<(), ExecErrorKind> {
    if base as usize + out.len() > 128 {
        return Err(bad(format!(
            "{} scalar registers from slot {base} run past slot 127",
            out.len()
        )));
    }
    for (i, o) in out.iter_mut().enumerate() {
        *o = w.read_sreg(base + i as u8);
    }
    Ok(())
}

/// Read `N` consecutive scalar slots from `base` (resource descriptors).
pub fn read_n<const N: usize>(w: &Wave, base: u8) -> Result<[u32; N], ExecErrorKind> {
    let mut out = [0u32; N];
    read_into(w, base, &mut out)?;
    Ok(out)
}
