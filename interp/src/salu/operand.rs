//! Scalar operands: reading a 9-bit source field (`Src`) as a 32- or 64-bit value and
//! writing a 7-bit scalar destination, as the scalar unit sees them.
//!
//! Source fields (AMD SI/CI/GCN3 ISA manuals, "Scalar ALU operands"):
//! - 0-127: scalar register slots, routed by `Wave::read_sreg` (VCC, M0, EXEC, trap regs);
//!   a 64-bit operand is the pair `slot, slot + 1` (unaligned pairs allowed); codes that
//!   name no register on the generation (`wavejit_isa::gcn::operand::src_kind`: 125, and
//!   104/105 on GCN 1.0) are refused, for reading and for writing;
//! - 128-208: inline integers 0..64, -1..-16 (sign-extended to 64 bits for 64-bit operands);
//! - 240-248: inline floats 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0 and, on GCN 1.2 only,
//!   1/(2π) — as f32 bits for 32-bit operands and f64 bits for 64-bit operands (the encoding
//!   LLVM's assembler uses for `s_mov_b64 s[0:1], 1.0`);
//! - 251 VCCZ, 252 EXECZ, 253 SCC (each 0 or 1);
//! - 255: the literal dword that follows the instruction, zero-extended for 64-bit operands
//!   (LLVM encodes `s_mov_b64 s[0:1], 0x80000000` with the literal 0x80000000);
//! - anything else (VGPRs, LDS_DIRECT, reserved codes) is not a scalar source.

use wavejit_isa::gcn::operand::{inline_constant, src_kind, SrcKind, Width};
use wavejit_isa::gcn::Src;
use wavejit_isa::state::Wave;

use crate::error::ExecErrorKind;

fn bad(what: String) -> ExecErrorKind {
    ExecErrorKind::BadOperand(what)
}

/// Whether `code` names a scalar register slot on the wave's generation.
fn is_sreg(w: &Wave, code: u16) -> bool {
    code < 128 && src_kind(w.gen, Src(code)).is_scalar_dst()
}

/// Read a scalar source of `width` (32 or 64 bits) as a u64.
fn read(w: &Wave, src: Src, literal: Option<u32>, width: Width) -> Result<u64, ExecErrorKind> {
    let wide = width == Width::B64;
    match src_kind(w.gen, src) {
        k if k.is_scalar_dst() => {
            if !wide {
                Ok(w.read_sreg(src.0 as u8) as u64)
            } else if is_sreg(w, src.0 + 1) {
                Ok(w.read_sreg64(src.0 as u8))
            } else {
                Err(bad(format!(
                    "64-bit source s[{}:{}] has no second half",
                    src.0,
                    src.0 + 1
                )))
            }
        }
        SrcKind::InlineInt(_) | SrcKind::InlineFloat(_) => inline_constant(w.gen, src, width)
            .ok_or_else(|| {
                bad(format!(
                    "source {} is not an inline constant on {}",
                    src.0, w.gen
                ))
            }),
        SrcKind::Vccz => Ok((w.vcc == 0) as u64),
        SrcKind::Execz => Ok((w.exec == 0) as u64),
        SrcKind::Scc => Ok((w.scc & 1) as u64),
        SrcKind::Literal => literal
            .map(u64::from)
            .ok_or_else(|| bad("literal operand without a literal dword".into())),
        _ => Err(bad(format!(
            "source {} is not a scalar operand on {}",
            src.0, w.gen
        ))),
    }
}

/// Read a 32-bit scalar source.
pub fn read32(w: &Wave, src: Src, literal: Option<u32>) -> Result<u32, ExecErrorKind> {
    read(w, src, literal, Width::B32).map(|v| v as u32)
}

/// Read a 64-bit scalar source.
pub fn read64(w: &Wave, src: Src, literal: Option<u32>) -> Result<u64, ExecErrorKind> {
    read(w, src, literal, Width::B64)
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
