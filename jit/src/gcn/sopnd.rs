//! Scalar operands: which slot or constant a scalar source names (`SOpnd`, checked as the
//! interpreter's `salu::operand` reads it), and reading one as an `i32`/`i64` value.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, Value};
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::operand::{inline_constant, src_kind, SrcKind, Width};
use wavejit_isa::gcn::Src;

use crate::block::Cx;
use crate::slots::{EXEC_LO, VCC_LO};

/// A scalar source, checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SOpnd {
    /// Slot 0-127 (a 64-bit read takes `slot, slot + 1`).
    Slot(u8),
    Const(u64),
    Vccz,
    Execz,
    Scc,
}

/// Whether `code` names a scalar register slot on `gen` (not 125, not 104/105 on GCN 1.0).
fn is_sreg(gen: Gen, code: u16) -> bool {
    code < 128 && src_kind(gen, Src(code)).is_scalar_dst()
}

pub fn src(gen: Gen, s: Src, lit: Option<u32>, width: Width) -> Option<SOpnd> {
    Some(match src_kind(gen, s) {
        k if k.is_scalar_dst() => {
            if width == Width::B64 && !is_sreg(gen, s.0 + 1) {
                return None;
            }
            SOpnd::Slot(s.0 as u8)
        }
        SrcKind::InlineInt(_) | SrcKind::InlineFloat(_) => {
            SOpnd::Const(inline_constant(gen, s, width)?)
        }
        SrcKind::Vccz => SOpnd::Vccz,
        SrcKind::Execz => SOpnd::Execz,
        SrcKind::Scc => SOpnd::Scc,
        SrcKind::Literal => SOpnd::Const(lit? as u64),
        _ => return None,
    })
}

/// A 32-bit scalar source (`interp::salu::operand::read32`); `None` for codes the
/// interpreter refuses (it reports the error).
pub fn src32(gen: Gen, s: Src, lit: Option<u32>) -> Option<SOpnd> {
    src(gen, s, lit, Width::B32)
}

/// A 64-bit scalar source (`read64`): both halves must be registers; integer constants
/// sign-extended, float constants as f64, the literal zero-extended.
pub fn src64(gen: Gen, s: Src, lit: Option<u32>) -> Option<SOpnd> {
    src(gen, s, lit, Width::B64)
}

impl Cx<'_> {
    /// `SCC & 1` as an `i32`.
    pub fn scc_bit(&mut self) -> Value {
        let s = self.scc();
        self.b.ins().band_imm_u(s, 1)
    }

    /// 1 if the 64-bit pair at `lo` is zero, as `i32`.
    fn pair_is_zero(&mut self, lo: u8) -> Value {
        let v = self.sreg64(lo);
        let z = self.b.ins().icmp_imm_s(IntCC::Equal, v, 0);
        self.b.ins().uextend(types::I32, z)
    }

    pub fn read_s32(&mut self, o: SOpnd) -> Value {
        match o {
            SOpnd::Slot(s) => self.sreg(s),
            SOpnd::Const(c) => self.iconst32(c as u32),
            SOpnd::Vccz => self.pair_is_zero(VCC_LO),
            SOpnd::Execz => self.pair_is_zero(EXEC_LO),
            SOpnd::Scc => self.scc_bit(),
        }
    }

    pub fn read_s64(&mut self, o: SOpnd) -> Value {
        match o {
            SOpnd::Slot(s) => self.sreg64(s),
            SOpnd::Const(c) => self.iconst64(c),
            SOpnd::Vccz | SOpnd::Execz | SOpnd::Scc => {
                let v = self.read_s32(o);
                self.b.ins().uextend(types::I64, v)
            }
        }
    }
}
