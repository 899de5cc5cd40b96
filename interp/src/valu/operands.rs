//! Operands of a vector ALU instruction: one normalized view (`Vop`) of the VOP1, VOP2,
//! VOPC, VOP3A/B, SDWA and DPP field layouts, the value types of operand slots (`Ty`), and
//! reading a source for a lane — registers, register pairs (unaligned SGPR pairs allowed),
//! inline constants of the operand's width, the literal, SDWA selection and the ABS/NEG
//! modifiers.

use wavejit_isa::gcn::operand::{inline_constant, src_kind, SrcKind, Width};
use wavejit_isa::gcn::DppFields;
use wavejit_isa::gcn::{valu, Enc, Fields, Inst, Op, Src, ValuKind, VopBase};
use wavejit_isa::state::Wave;
use wavejit_isa::Gen;

use crate::error::ExecErrorKind;

/// The type of an operand slot or result: its width, and whether it holds a float (float
/// results get OMOD/CLAMP; SDWA's NEG/ABS apply to float operands only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    B16,
    F16,
    B32,
    F32,
    B64,
    F64,
}

impl Ty {
    pub fn bits(self) -> u32 {
        match self {
            Ty::B16 | Ty::F16 => 16,
            Ty::B32 | Ty::F32 => 32,
            Ty::B64 | Ty::F64 => 64,
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, Ty::F16 | Ty::F32 | Ty::F64)
    }
    pub fn sign_bit(self) -> u64 {
        1u64 << (self.bits() - 1)
    }
    pub fn mask(self) -> u64 {
        if self.bits() == 64 {
            u64::MAX
        } else {
            (1u64 << self.bits()) - 1
        }
    }
    fn width(self) -> Width {
        match self.bits() {
            16 => Width::B16,
            32 => Width::B32,
            _ => Width::B64,
        }
    }
}

/// The encoding form of a vector ALU instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    Vop1,
    Vop2,
    Vopc,
    Vop3,
    Sdwa(VopBase),
    Dpp(VopBase),
}

/// VOP_SDWA's selections and VOP_DPP's controls: the operand view's types
/// (`wavejit_isa::gcn::valu`), shared with the printer and the assembler.
pub use wavejit_isa::gcn::valu::{DppCtl, SdwaCtl};

/// SGPR slot of VCC.
pub const VCC: u8 = 106;

/// A vector ALU instruction with its fields in one layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vop {
    pub op: Op,
    pub gen: Gen,
    pub form: Form,
    /// SRC0, SRC1, SRC2 as source codes: VOP2/VOPC's VSRC1 and SDWA/DPP's SRC0 are VGPR
    /// codes (256 + n), except the scalar lane select of GCN 1.0/1.1 VOP2
    /// V_READLANE/V_WRITELANE; absent sources are inline 0.
    pub src: [Src; 3],
    /// The VDST field (a VGPR number; an SGPR slot for V_READLANE/V_READFIRSTLANE).
    pub vdst: u8,
    /// Where a lane mask result goes (carry out, compare result): VCC in the 32-bit
    /// encodings, SDST in VOP3B, the VDST field in VOP3A compares.
    pub mask_dst: u8,
    /// ABS and NEG per source (bit i for source i).
    pub abs: u8,
    pub neg: u8,
    pub clamp: bool,
    /// 0 none, 1 ×2, 2 ×4, 3 ÷2 (VOP3 only).
    pub omod: u8,
    pub sdwa: Option<SdwaCtl>,
    /// SDWA's sign extension per source (bit i for source i).
    pub sext: u8,
    pub dpp: Option<DppCtl>,
    pub literal: Option<u32>,
}

fn bad(msg: String) -> ExecErrorKind {
    ExecErrorKind::BadOperand(msg)
}

impl Vop {
    /// The normalized view of a VOP1/VOP2/VOPC/VOP3/SDWA/DPP instruction on `gen`: the
    /// operand view of `wavejit_isa::gcn::valu::from_inst`, with the sources an encoding
    /// does not have read as inline 0 and the lane-mask destination of the form.
    pub fn new(gen: Gen, inst: &Inst) -> Result<Vop, ExecErrorKind> {
        let op = inst.op;
        let form = match (inst.enc, inst.fields) {
            (Enc::Vop1, Fields::Vop1 { .. }) => Form::Vop1,
            (Enc::Vop2, Fields::Vop2 { .. }) => Form::Vop2,
            (Enc::Vopc, Fields::Vopc { .. }) => Form::Vopc,
            (Enc::Vop3, Fields::Vop3(_)) => Form::Vop3,
            (Enc::Sdwa { base }, Fields::Sdwa(_)) => Form::Sdwa(base),
            (Enc::Dpp { base }, Fields::Dpp(DppFields { dpp_ctrl, .. })) => {
                if !super::dpp::ctrl_valid(dpp_ctrl) {
                    return Err(bad(format!("reserved DPP_CTRL {dpp_ctrl:#x}")));
                }
                Form::Dpp(base)
            }
            _ => {
                return Err(bad(format!(
                    "`{}` carries {:?} fields in a {:?} encoding",
                    op.mnemonic(),
                    inst.fields,
                    inst.enc
                )))
            }
        };
        let (view, _, shape) = valu::from_inst(gen, inst)
            .ok_or_else(|| bad(format!("`{}` does not exist on {gen}", op.mnemonic())))?;
        let zero = Src::ZERO;
        let src = match form {
            Form::Vop3 => view.src,
            Form::Vop1 => [view.src[0], zero, zero],
            _ => [view.src[0], view.src[1], zero],
        };
        // A lane mask goes to VCC, except in VOP3: a compare's goes to its VDST field, a
        // VOP3B operation's to SDST (the view has both as `sdst`).
        let vop3b = shape.vop3b || matches!(shape.kind, ValuKind::CarryOut | ValuKind::CarryInOut);
        let mask_dst = if form == Form::Vop3 && (shape.kind == ValuKind::Cmp || vop3b) {
            view.sdst
        } else {
            VCC
        };
        Ok(Vop {
            op,
            gen,
            form,
            src,
            vdst: view.dst,
            mask_dst,
            abs: view.abs,
            neg: view.neg,
            clamp: view.clamp,
            omod: view.omod,
            sdwa: matches!(form, Form::Sdwa(_)).then_some(view.sdwa),
            sext: view.sext,
            dpp: matches!(form, Form::Dpp(_)).then_some(view.dpp),
            literal: view.literal,
        })
    }

    pub fn is_vop3(&self) -> bool {
        self.form == Form::Vop3
    }
    pub fn is_sdwa(&self) -> bool {
        matches!(self.form, Form::Sdwa(_))
    }
}

/// A source resolved once per instruction: a VGPR (read per lane) or a value that is the
/// same for every lane (scalar register, constant, literal).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    Vgpr(u8),
    Uniform(u64),
}

/// Resolve `src` as an operand of type `ty`.
///
/// Inline constants take the operand's width (operand.rs); a literal is the 32-bit dword,
/// its low 16 bits for 16-bit operands, the high half of an f64 (low half zero), and
/// zero-extended for a 64-bit integer (as LLVM's assembler encodes it).
pub fn resolve(w: &Wave, v: &Vop, src: Src, ty: Ty) -> Result<Operand, ExecErrorKind> {
    let wide = ty.bits() == 64;
    let scalar = |slot: u8| -> u64 {
        if wide {
            w.read_sreg64(slot)
        } else {
            w.read_sreg(slot) as u64 & ty.mask()
        }
    };
    // A VGPR first: the most common source, and the same code on every generation.
    if let Some(n) = src.as_vgpr() {
        if wide && n == 255 {
            return Err(bad(format!("v{n} cannot start a 64-bit register pair")));
        }
        return Ok(Operand::Vgpr(n));
    }
    Ok(match src_kind(v.gen, src) {
        SrcKind::Vgpr(n) => {
            if wide && n == 255 {
                return Err(bad(format!("v{n} cannot start a 64-bit register pair")));
            }
            Operand::Vgpr(n)
        }
        SrcKind::Literal => {
            let lit = v.literal.ok_or_else(|| {
                bad(format!(
                    "`{}` names a literal but carries none",
                    v.op.mnemonic()
                ))
            })?;
            Operand::Uniform(match ty {
                Ty::F64 => (lit as u64) << 32,
                _ => lit as u64 & ty.mask(),
            })
        }
        k if k.is_inline() => Operand::Uniform(
            inline_constant(v.gen, src, ty.width())
                .ok_or_else(|| bad(format!("inline constant {} on {}", src.0, v.gen)))?,
        ),
        SrcKind::Vccz => Operand::Uniform((w.vcc == 0) as u64),
        SrcKind::Execz => Operand::Uniform((w.exec == 0) as u64),
        SrcKind::Scc => Operand::Uniform((w.scc & 1) as u64),
        SrcKind::LdsDirect => {
            return Err(ExecErrorKind::Unsupported {
                mnemonic: format!("{} with an LDS_DIRECT operand", v.op.mnemonic()),
            })
        }
        SrcKind::Sdwa | SrcKind::Dpp | SrcKind::Reserved => {
            return Err(bad(format!("source code {} on {}", src.0, v.gen)))
        }
        k if k.is_scalar_dst() => Operand::Uniform(scalar(src.0 as u8)),
        _ => return Err(bad(format!("source code {} on {}", src.0, v.gen))),
    })
}

/// The raw value of an operand for `lane` (no selection, no modifiers).
pub fn lane_value(w: &Wave, o: Operand, ty: Ty, lane: usize) -> u64 {
    match o {
        Operand::Uniform(x) => x,
        Operand::Vgpr(n) => {
            let lane = lane & 63;
            let lo = w.vgpr[n as usize][lane] as u64;
            if ty.bits() == 64 {
                lo | (w.vgpr[(n as usize + 1) & 255][lane] as u64) << 32
            } else {
                lo & ty.mask()
            }
        }
    }
}

/// ABS then NEG of source `i` as sign-bit operations on the operand's width (ERRATA VOP3
/// 3; the same rule for DPP's NEG/ABS); SDWA applies them to float operands only (ERRATA
/// VOP_SDWA 5).
pub fn modifiers(v: &Vop, i: usize, ty: Ty, x: u64) -> u64 {
    let (and, xor) = modifier_masks(v, i, ty);
    (x & and) ^ xor
}

/// `modifiers` of source `i` as two masks: the source is `(x & and) ^ xor` (ABS clears the
/// sign bit, then NEG flips it), so the lane loop applies them without a branch.
#[inline]
pub fn modifier_masks(v: &Vop, i: usize, ty: Ty) -> (u64, u64) {
    if v.is_sdwa() && !ty.is_float() {
        return (u64::MAX, 0);
    }
    let and = if v.abs >> i & 1 != 0 {
        !ty.sign_bit()
    } else {
        u64::MAX
    };
    let xor = if v.neg >> i & 1 != 0 {
        ty.sign_bit()
    } else {
        0
    };
    (and, xor)
}
