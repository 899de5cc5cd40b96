//! What an instruction means to the vector lowering: its semantics (`Sem`, one value of
//! the vocabularies in `vocab.rs`), the shape of its operands (`Shape`), the map from an
//! opcode to its semantics (`sem`), and whether it is lowered under a MODE
//! (`lowered_under`). Pure data: nothing here emits code.

use wavejit_isa::gcn::Op;

use super::vocab::*;

/// What an operation is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sem {
    Int(IOp),
    Float(Fmt, FOp, Vop2Form),
    Cmp {
        ty: CmpTy,
        cond: Cond,
        x: bool,
    },
    Cndmask,
    Carry(Carry),
    Cvt(Cvt),
    /// 64-bit shifts (`mixed.rs`): kind 0 left, 1 logical right, 2 arithmetic right; `rev`
    /// takes the amount from SRC0 (V_*REV_B64) instead of SRC1.
    Shift64 {
        kind: u8,
        rev: bool,
    },
    /// `x × 2^n` rounded once (`mixed.rs`).
    Ldexp(Fmt),
    /// The exponent (`mant` false, an i32) or mantissa of `frexp` (`mixed.rs`).
    Frexp {
        f: Fmt,
        mant: bool,
    },
    /// GCN 1.2's f16 arithmetic (`half.rs`).
    Half(HOp, Vop2Form),
    /// GCN 1.2's 16-bit integer arithmetic (`half.rs`).
    Int16(I16),
    /// Conversions with a 16-bit side (`half.rs`).
    Cvt16(Cvt16),
    /// Class compares, packing conversions, byte permute, masked/quad SADs, 64-bit
    /// multiply-add (`xop.rs`).
    X(XOp),
}

/// The operand shape of a `Sem`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub nsrc: u8,
    pub w64: [bool; 3],
    pub w64_dst: bool,
    pub vop2: Vop2Form,
    pub mask_in: bool,
    pub mask_out: bool,
    pub is_cmp: bool,
    pub is_cmpx: bool,
    /// The result is a float of this format (OMOD/CLAMP apply).
    pub float: Option<Fmt>,
    /// The sources are floats (SDWA applies NEG/ABS to float sources only)...
    pub src_float: bool,
    /// ...except these (bit i: source i is an integer, e.g. V_LDEXP's exponent).
    pub int_srcs: u8,
    /// The sources are 16-bit (the low half of the operand; ABS/NEG on bit 15; 16-bit
    /// inline constants).
    pub src16: bool,
    /// The result is an f16 float (f16 OMOD/CLAMP; MODE's f16 rounding).
    pub f16: bool,
}

impl IOp {
    pub fn arity(self) -> u8 {
        use IOp::*;
        match self {
            Mov | Not | Bfrev | Ffbh | Ffbl | FfbhI | CvtF32Ubyte(_) => 1,
            MadI24 | MadU24 | BfeU | BfeI | Bfi | Lerp | Alignbit | Alignbyte | Min3I | Min3U
            | Max3I | Max3U | Med3I | Med3U | SadU8 | SadHiU8 | SadU16 | SadU32 => 3,
            _ => 2,
        }
    }
}

impl FOp {
    pub fn arity(self) -> u8 {
        use FOp::*;
        match self {
            Trunc | Ceil | Floor | Rndne | Sqrt | Rcp | Fract => 1,
            Mad | Fma | Min3 | Max3 | Med3 => 3,
            _ => 2,
        }
    }
}

impl Sem {
    pub fn shape(self) -> Shape {
        let mut s = Shape {
            nsrc: 2,
            w64: [false; 3],
            w64_dst: false,
            vop2: Vop2Form::Plain,
            mask_in: false,
            mask_out: false,
            is_cmp: false,
            is_cmpx: false,
            float: None,
            src_float: false,
            int_srcs: 0,
            src16: false,
            f16: false,
        };
        match self {
            Sem::Int(op) => {
                s.nsrc = op.arity();
                if let IOp::CvtF32Ubyte(_) = op {
                    s.float = Some(Fmt::F32);
                }
            }
            Sem::Float(f, op, form) => {
                s.nsrc = if form == Vop2Form::Plain {
                    op.arity()
                } else {
                    3
                };
                s.vop2 = form;
                s.float = Some(f);
                s.src_float = true;
                if f == Fmt::F64 {
                    s.w64 = [true; 3];
                    s.w64_dst = true;
                }
            }
            Sem::Cmp { ty, x, .. } => {
                s.is_cmp = true;
                s.is_cmpx = x;
                if matches!(ty, CmpTy::F64 | CmpTy::I64 | CmpTy::U64) {
                    s.w64 = [true, true, false];
                }
                s.src16 = matches!(ty, CmpTy::F16 | CmpTy::I16 | CmpTy::U16);
                s.src_float = matches!(ty, CmpTy::F32 | CmpTy::F64 | CmpTy::F16);
            }
            Sem::Cndmask => s.mask_in = true,
            Sem::Carry(k) => {
                s.mask_out = true;
                s.mask_in = matches!(k, Carry::Addc | Carry::Subb | Carry::Subbrev);
            }
            Sem::Cvt(k) => {
                s.nsrc = 1;
                match k {
                    Cvt::F32FromI32 | Cvt::F32FromU32 => s.float = Some(Fmt::F32),
                    Cvt::I32FromF32 | Cvt::U32FromF32 => s.src_float = true,
                    Cvt::F64FromF32 => {
                        s.src_float = true;
                        s.float = Some(Fmt::F64);
                        s.w64_dst = true;
                    }
                    Cvt::F32FromF64 => {
                        s.src_float = true;
                        s.float = Some(Fmt::F32);
                        s.w64[0] = true;
                    }
                    Cvt::F64FromI32 | Cvt::F64FromU32 => {
                        s.float = Some(Fmt::F64);
                        s.w64_dst = true;
                    }
                    Cvt::I32FromF64 | Cvt::U32FromF64 => {
                        s.src_float = true;
                        s.w64[0] = true;
                    }
                }
            }
            Sem::Shift64 { rev, .. } => {
                s.w64 = [!rev, rev, false];
                s.w64_dst = true;
            }
            Sem::Ldexp(f) => {
                s.float = Some(f);
                s.src_float = true;
                s.int_srcs = 2;
                s.w64 = [f == Fmt::F64, false, false];
                s.w64_dst = f == Fmt::F64;
            }
            Sem::Half(op, form) => {
                s.nsrc = if form == Vop2Form::Plain {
                    op.arity()
                } else {
                    3
                };
                s.vop2 = form;
                s.src16 = true;
                s.f16 = true;
                s.src_float = true;
            }
            Sem::Int16(op) => {
                s.nsrc = op.arity();
                s.src16 = true;
            }
            Sem::Cvt16(k) => {
                s.nsrc = 1;
                match k {
                    Cvt16::F16FromU16 | Cvt16::F16FromI16 => {
                        s.src16 = true;
                        s.f16 = true;
                    }
                    Cvt16::U16FromF16 | Cvt16::I16FromF16 => {
                        s.src16 = true;
                        s.src_float = true;
                    }
                    Cvt16::F16FromF32 => {
                        s.src_float = true;
                        s.f16 = true;
                    }
                    Cvt16::F32FromF16 => {
                        s.src16 = true;
                        s.src_float = true;
                        s.float = Some(Fmt::F32);
                    }
                }
            }
            Sem::X(op) => xop_shape(op, &mut s),
            Sem::Frexp { f, mant } => {
                s.nsrc = 1;
                s.src_float = true;
                s.w64[0] = f == Fmt::F64;
                if mant {
                    s.float = Some(f);
                    s.w64_dst = f == Fmt::F64;
                }
            }
        }
        s
    }
}

/// The semantics of `op`, if lowered inline.
pub fn sem(op: Op) -> Option<Sem> {
    use Op::*;
    let f32 = |o: FOp| Sem::Float(Fmt::F32, o, Vop2Form::Plain);
    let f64 = |o: FOp| Sem::Float(Fmt::F64, o, Vop2Form::Plain);
    Some(match op {
        VMovB32 => Sem::Int(IOp::Mov),
        VNotB32 => Sem::Int(IOp::Not),
        VBfrevB32 => Sem::Int(IOp::Bfrev),
        VMulI32I24 => Sem::Int(IOp::MulI24),
        VMulHiI32I24 => Sem::Int(IOp::MulHiI24),
        VMulU32U24 => Sem::Int(IOp::MulU24),
        VMulHiU32U24 => Sem::Int(IOp::MulHiU24),
        VMinI32 => Sem::Int(IOp::MinI),
        VMaxI32 => Sem::Int(IOp::MaxI),
        VMinU32 => Sem::Int(IOp::MinU),
        VMaxU32 => Sem::Int(IOp::MaxU),
        VLshrB32 => Sem::Int(IOp::Lshr),
        VLshrrevB32 => Sem::Int(IOp::Lshrrev),
        VAshrI32 => Sem::Int(IOp::Ashr),
        VAshrrevI32 => Sem::Int(IOp::Ashrrev),
        VLshlB32 => Sem::Int(IOp::Lshl),
        VLshlrevB32 => Sem::Int(IOp::Lshlrev),
        VAndB32 => Sem::Int(IOp::And),
        VOrB32 => Sem::Int(IOp::Or),
        VXorB32 => Sem::Int(IOp::Xor),
        VBfmB32 => Sem::Int(IOp::Bfm),
        VMulLoU32 | VMulLoI32 => Sem::Int(IOp::MulLo),
        VMulHiU32 => Sem::Int(IOp::MulHiU),
        VMulHiI32 => Sem::Int(IOp::MulHiI),
        VMadI32I24 => Sem::Int(IOp::MadI24),
        VMadU32U24 => Sem::Int(IOp::MadU24),
        VBfeU32 => Sem::Int(IOp::BfeU),
        VBfeI32 => Sem::Int(IOp::BfeI),
        VBfiB32 => Sem::Int(IOp::Bfi),
        VLerpU8 => Sem::Int(IOp::Lerp),
        VAlignbitB32 => Sem::Int(IOp::Alignbit),
        VAlignbyteB32 => Sem::Int(IOp::Alignbyte),
        VMin3I32 => Sem::Int(IOp::Min3I),
        VMin3U32 => Sem::Int(IOp::Min3U),
        VMax3I32 => Sem::Int(IOp::Max3I),
        VMax3U32 => Sem::Int(IOp::Max3U),
        VMed3I32 => Sem::Int(IOp::Med3I),
        VMed3U32 => Sem::Int(IOp::Med3U),
        VSadU8 => Sem::Int(IOp::SadU8),
        VSadHiU8 => Sem::Int(IOp::SadHiU8),
        VSadU16 => Sem::Int(IOp::SadU16),
        VSadU32 => Sem::Int(IOp::SadU32),
        VCndmaskB32 => Sem::Cndmask,
        VAddI32 | VAddU32 => Sem::Carry(Carry::Add),
        VSubI32 | VSubU32 => Sem::Carry(Carry::Sub),
        VSubrevI32 | VSubrevU32 => Sem::Carry(Carry::Subrev),
        VAddcU32 => Sem::Carry(Carry::Addc),
        VSubbU32 => Sem::Carry(Carry::Subb),
        VSubbrevU32 => Sem::Carry(Carry::Subbrev),
        VAddF32 => f32(FOp::Add),
        VSubF32 => f32(FOp::Sub),
        VSubrevF32 => f32(FOp::Subrev),
        VMulF32 => f32(FOp::Mul),
        VMadF32 => f32(FOp::Mad),
        VFmaF32 => f32(FOp::Fma),
        VMacF32 => Sem::Float(Fmt::F32, FOp::Mad, Vop2Form::Mac),
        VMadmkF32 => Sem::Float(Fmt::F32, FOp::Mad, Vop2Form::MadMk),
        VMadakF32 => Sem::Float(Fmt::F32, FOp::Mad, Vop2Form::MadAk),
        VMinF32 => f32(FOp::Min),
        VMaxF32 => f32(FOp::Max),
        VMin3F32 => f32(FOp::Min3),
        VMax3F32 => f32(FOp::Max3),
        VMed3F32 => f32(FOp::Med3),
        VMulLegacyF32 => f32(FOp::MulLegacy),
        VTruncF32 => f32(FOp::Trunc),
        VCeilF32 => f32(FOp::Ceil),
        VFloorF32 => f32(FOp::Floor),
        VRndneF32 => f32(FOp::Rndne),
        VSqrtF32 => f32(FOp::Sqrt),
        VAddF64 => f64(FOp::Add),
        VMulF64 => f64(FOp::Mul),
        VFmaF64 => f64(FOp::Fma),
        VMinF64 => f64(FOp::Min),
        VMaxF64 => f64(FOp::Max),
        VTruncF64 => f64(FOp::Trunc),
        VCeilF64 => f64(FOp::Ceil),
        VFloorF64 => f64(FOp::Floor),
        VRndneF64 => f64(FOp::Rndne),
        VSqrtF64 => f64(FOp::Sqrt),
        VCvtF32I32 => Sem::Cvt(Cvt::F32FromI32),
        VCvtF32U32 => Sem::Cvt(Cvt::F32FromU32),
        VCvtI32F32 => Sem::Cvt(Cvt::I32FromF32),
        VCvtU32F32 => Sem::Cvt(Cvt::U32FromF32),
        VRcpF32 | VRcpIflagF32 => f32(FOp::Rcp),
        VRcpF64 => f64(FOp::Rcp),
        VFractF32 => f32(FOp::Fract),
        VFractF64 => f64(FOp::Fract),
        VCvtF64F32 => Sem::Cvt(Cvt::F64FromF32),
        VCvtF32F64 => Sem::Cvt(Cvt::F32FromF64),
        VCvtF64I32 => Sem::Cvt(Cvt::F64FromI32),
        VCvtF64U32 => Sem::Cvt(Cvt::F64FromU32),
        VCvtI32F64 => Sem::Cvt(Cvt::I32FromF64),
        VCvtU32F64 => Sem::Cvt(Cvt::U32FromF64),
        VLshlB64 => Sem::Shift64 {
            kind: 0,
            rev: false,
        },
        VLshrB64 => Sem::Shift64 {
            kind: 1,
            rev: false,
        },
        VAshrI64 => Sem::Shift64 {
            kind: 2,
            rev: false,
        },
        VLshlrevB64 => Sem::Shift64 { kind: 0, rev: true },
        VLshrrevB64 => Sem::Shift64 { kind: 1, rev: true },
        VAshrrevI64 => Sem::Shift64 { kind: 2, rev: true },
        VLdexpF32 => Sem::Ldexp(Fmt::F32),
        VLdexpF64 => Sem::Ldexp(Fmt::F64),
        VFrexpExpI32F32 => Sem::Frexp {
            f: Fmt::F32,
            mant: false,
        },
        VFrexpExpI32F64 => Sem::Frexp {
            f: Fmt::F64,
            mant: false,
        },
        VFrexpMantF32 => Sem::Frexp {
            f: Fmt::F32,
            mant: true,
        },
        VFrexpMantF64 => Sem::Frexp {
            f: Fmt::F64,
            mant: true,
        },
        VAddF16 => Sem::Half(HOp::Add, Vop2Form::Plain),
        VSubF16 => Sem::Half(HOp::Sub, Vop2Form::Plain),
        VSubrevF16 => Sem::Half(HOp::Subrev, Vop2Form::Plain),
        VMulF16 => Sem::Half(HOp::Mul, Vop2Form::Plain),
        VMadF16 => Sem::Half(HOp::Mad, Vop2Form::Plain),
        VMacF16 => Sem::Half(HOp::Mad, Vop2Form::Mac),
        VMadmkF16 => Sem::Half(HOp::Mad, Vop2Form::MadMk),
        VMadakF16 => Sem::Half(HOp::Mad, Vop2Form::MadAk),
        VMinF16 => Sem::Half(HOp::Min, Vop2Form::Plain),
        VMaxF16 => Sem::Half(HOp::Max, Vop2Form::Plain),
        VTruncF16 => Sem::Half(HOp::Trunc, Vop2Form::Plain),
        VCeilF16 => Sem::Half(HOp::Ceil, Vop2Form::Plain),
        VFloorF16 => Sem::Half(HOp::Floor, Vop2Form::Plain),
        VRndneF16 => Sem::Half(HOp::Rndne, Vop2Form::Plain),
        VSqrtF16 => Sem::Half(HOp::Sqrt, Vop2Form::Plain),
        VRcpF16 => Sem::Half(HOp::Rcp, Vop2Form::Plain),
        VFractF16 => Sem::Half(HOp::Fract, Vop2Form::Plain),
        VAddU16 => Sem::Int16(I16::Add),
        VSubU16 => Sem::Int16(I16::Sub),
        VSubrevU16 => Sem::Int16(I16::Subrev),
        VMulLoU16 => Sem::Int16(I16::MulLo),
        VLshlrevB16 => Sem::Int16(I16::Lshlrev),
        VLshrrevB16 => Sem::Int16(I16::Lshrrev),
        VAshrrevI16 => Sem::Int16(I16::Ashrrev),
        VMaxU16 => Sem::Int16(I16::MaxU),
        VMaxI16 => Sem::Int16(I16::MaxI),
        VMinU16 => Sem::Int16(I16::MinU),
        VMinI16 => Sem::Int16(I16::MinI),
        VMadU16 => Sem::Int16(I16::MadU),
        VMadI16 => Sem::Int16(I16::MadI),
        VCvtF16U16 => Sem::Cvt16(Cvt16::F16FromU16),
        VCvtF16I16 => Sem::Cvt16(Cvt16::F16FromI16),
        VCvtU16F16 => Sem::Cvt16(Cvt16::U16FromF16),
        VCvtI16F16 => Sem::Cvt16(Cvt16::I16FromF16),
        VCvtF16F32 => Sem::Cvt16(Cvt16::F16FromF32),
        VCvtF32F16 => Sem::Cvt16(Cvt16::F32FromF16),
        VCvtF32Ubyte0 => Sem::Int(IOp::CvtF32Ubyte(0)),
        VCvtF32Ubyte1 => Sem::Int(IOp::CvtF32Ubyte(1)),
        VCvtF32Ubyte2 => Sem::Int(IOp::CvtF32Ubyte(2)),
        VCvtF32Ubyte3 => Sem::Int(IOp::CvtF32Ubyte(3)),
        VFfbhU32 => Sem::Int(IOp::Ffbh),
        VFfblB32 => Sem::Int(IOp::Ffbl),
        VFfbhI32 => Sem::Int(IOp::FfbhI),
        VBcntU32B32 => Sem::Int(IOp::Bcnt),
        VMbcntLoU32B32 => Sem::Int(IOp::MbcntLo),
        VMbcntHiU32B32 => Sem::Int(IOp::MbcntHi),
        _ => return xop_sem(op).map(Sem::X).or_else(|| table_compare(op)),
    })
}

/// The operation `op` names, if it is in this group.
fn xop_sem(op: Op) -> Option<XOp> {
    use Op::*;
    Some(match op {
        VCmpClassF16 => XOp::Class(CFmt::F16, false),
        VCmpxClassF16 => XOp::Class(CFmt::F16, true),
        VCmpClassF32 => XOp::Class(CFmt::F32, false),
        VCmpxClassF32 => XOp::Class(CFmt::F32, true),
        VCmpClassF64 => XOp::Class(CFmt::F64, false),
        VCmpxClassF64 => XOp::Class(CFmt::F64, true),
        VMadU64U32 => XOp::Mad64(false),
        VMadI64I32 => XOp::Mad64(true),
        VCvtPkU16U32 => XOp::PkU16U32,
        VCvtPkI16I32 => XOp::PkI16I32,
        VCvtPknormI16F32 => XOp::PknormI16,
        VCvtPknormU16F32 => XOp::PknormU16,
        VCvtPkrtzF16F32 => XOp::Pkrtz,
        VCvtPkU8F32 => XOp::PkU8(false),
        VCvtPkaccumU8F32 => XOp::PkU8(true),
        VPermB32 => XOp::Perm,
        VMsadU8 => XOp::Msad,
        VQsadPkU16U8 | VQsadU8 => XOp::Qsad(false),
        VMqsadPkU16U8 | VMqsadU8 => XOp::Qsad(true),
        VMinLegacyF32 => XOp::MinLegacy(false),
        VMaxLegacyF32 => XOp::MinLegacy(true),
        VMadLegacyF32 => XOp::MadLegacy(false),
        VMacLegacyF32 => XOp::MadLegacy(true),
        VCvtFlrI32F32 => XOp::CvtFloor(false),
        VCvtRpiI32F32 => XOp::CvtFloor(true),
        VCvtOffF32I4 => XOp::CvtOffI4,
        VRcpClampF32 => XOp::RcpClamp(Fmt::F32, false),
        VRcpClampF64 => XOp::RcpClamp(Fmt::F64, false),
        VRcpLegacyF32 => XOp::RcpClamp(Fmt::F32, true),
        VFmaF16 => XOp::FmaF16,
        VLdexpF16 => XOp::LdexpF16,
        VFrexpMantF16 => XOp::FrexpF16(true),
        VFrexpExpI16F16 => XOp::FrexpF16(false),
        _ => return None,
    })
}

/// Fill in the operand shape of `op` (`s` starts as two plain 32-bit sources).
fn xop_shape(op: XOp, s: &mut Shape) {
    match op {
        XOp::Class(f, x) => {
            s.is_cmp = true;
            s.is_cmpx = x;
            s.w64 = [f == CFmt::F64, false, false];
            s.src16 = f == CFmt::F16;
            s.src_float = true;
            // The class mask is an integer (no SDWA NEG/ABS).
            s.int_srcs = 2;
        }
        XOp::Mad64(_) => {
            s.nsrc = 3;
            s.w64 = [false, false, true];
            s.w64_dst = true;
            s.mask_out = true;
        }
        XOp::PkU16U32 | XOp::PkI16I32 => {}
        XOp::PknormI16 | XOp::PknormU16 | XOp::Pkrtz => s.src_float = true,
        XOp::PkU8(acc) => {
            s.nsrc = 3;
            s.src_float = true;
            s.int_srcs = 6;
            if acc {
                s.vop2 = Vop2Form::Mac;
            }
        }
        XOp::Perm | XOp::Msad => s.nsrc = 3,
        XOp::Qsad(_) => {
            s.nsrc = 3;
            s.w64 = [true, false, true];
            s.w64_dst = true;
        }
        XOp::MinLegacy(_) => {
            s.src_float = true;
            s.float = Some(Fmt::F32);
        }
        XOp::MadLegacy(mac) => {
            s.nsrc = 3;
            s.src_float = true;
            s.float = Some(Fmt::F32);
            if mac {
                s.vop2 = Vop2Form::Mac;
            }
        }
        XOp::CvtFloor(_) => {
            s.nsrc = 1;
            s.src_float = true;
        }
        XOp::CvtOffI4 => {
            s.nsrc = 1;
            s.float = Some(Fmt::F32);
        }
        XOp::LdexpF16 => {
            s.src16 = true;
            s.f16 = true;
            s.src_float = true;
            s.int_srcs = 2;
        }
        XOp::FrexpF16(mant) => {
            s.nsrc = 1;
            s.src16 = true;
            s.f16 = mant;
            s.src_float = true;
        }
        XOp::FmaF16 => {
            s.nsrc = 3;
            s.src16 = true;
            s.f16 = true;
            s.src_float = true;
        }
        XOp::RcpClamp(f, _) => {
            s.nsrc = 1;
            s.src_float = true;
            s.float = Some(f);
            if f == Fmt::F64 {
                s.w64 = [true, false, false];
                s.w64_dst = true;
            }
        }
    }
}

/// Whether `op` is lowered under `mode`: the u8 packing conversions round in MODE's f32
/// direction, and only nearest-even is lowered.
fn xop_mode_ok(op: XOp, mode: u32) -> bool {
    !matches!(op, XOp::PkU8(_)) || mode & 3 == 0
}

/// Whether the lowering handles `sem` under `mode` (rounding, FMA on the host);
/// otherwise the instruction stays with the interpreter.
pub fn lowered_under(sem: Sem, mode: u32) -> bool {
    let shape = sem.shape();
    match shape.float {
        Some(Fmt::F32) if mode & 3 != 0 => return false,
        Some(Fmt::F64) if (mode >> 2) & 3 != 0 => return false,
        _ => {}
    }
    // f16 results round with MODE's f64/f16 direction; GCN 1.0/1.1's V_CVT_F16_F32 with
    // the f32 one: both must be nearest even.
    if shape.f16 && mode & 0xf != 0 {
        return false;
    }
    if let Sem::Float(_, FOp::Fma, _) = sem {
        if !crate::backend::host_has_fma() {
            return false;
        }
    }
    if let Sem::X(op) = sem {
        if !xop_mode_ok(op, mode) {
            return false;
        }
    }
    // OMOD and CLAMP act on float results only (`interp::valu::driver::float_post`); on
    // anything else the interpreter ignores them, except the integer CLAMP (saturation) of
    // add/sub with carry, lowered in `Sem::Carry`.
    true
}

/// A compare as the table describes it (`cmp` column): condition, operand type, and
/// whether it also writes EXEC. Class compares (no condition) are `XOp::Class`.
fn table_compare(op: Op) -> Option<Sem> {
    let c = op.compare()?;
    Some(Sem::Cmp {
        ty: c.ty,
        cond: c.cond?,
        x: c.exec,
    })
}
