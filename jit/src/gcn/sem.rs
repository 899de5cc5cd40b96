//! What an instruction means to the vector lowering: its semantics (`Sem`, one value of
//! the vocabularies in `vocab.rs`), the shape of its operands (`Shape`), the map from an
//! opcode to how it is run (`lowering`, generated from the `jit` column of
//! `isa/tables/gcn.tsv` through `for_each_gcn_op!`), and whether it is lowered under a MODE
//! (`lowered_under`). Pure data: nothing here emits code.

use wavejit_isa::gcn::desc::{BranchIf, CmpDesc};
use wavejit_isa::gcn::Op;

use super::svocab::{int_cc, SOp, S1, S2, SC, SK};
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
    /// 64-bit shifts (`mixed.rs`).
    Shift64(Shift64),
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
            Sem::Shift64(sh) => {
                let rev = sh.rev();
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

/// How the JIT runs an operation: the `jit` column of `isa/tables/gcn.tsv`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lowering {
    /// Not a vector ALU or interpolation operation (scalar, memory and branch operations
    /// have planners of their own).
    Other,
    /// The interpreter runs it over 64 lanes (a helper call): the table's explicit choice.
    Helper,
    /// No lane state changes.
    Nop,
    /// Cross-lane and register-indexed operations (`lanes.rs`).
    Lanes,
    /// Interpolation (`vintrp.rs`).
    Vintrp,
    /// A lane-parallel lowering of one family (`emit.rs`).
    Sem(Sem),
    /// A scalar ALU lowering (`salu.rs`).
    Scalar(SOp),
    /// The program ends (`s_endpgm`).
    End,
    /// The waves of a group meet (`s_barrier`).
    Barrier,
    /// A SOPP branch (`Op::branch` says what it tests).
    Branch(BranchIf),
}

/// The float format named by a source type word of the table.
macro_rules! fmt_of {
    (f32) => {
        Fmt::F32
    };
    (f64) => {
        Fmt::F64
    };
}

/// The VOP2 operand form of a `shape` word.
macro_rules! form_of {
    (plain) => {
        Vop2Form::Plain
    };
    (mac) => {
        Vop2Form::Mac
    };
    (madmk) => {
        Vop2Form::MadMk
    };
    (madak) => {
        Vop2Form::MadAk
    };
}

/// An argument of a `jit` cell operation: a float format or a literal.
macro_rules! jit_arg {
    (f32) => {
        Fmt::F32
    };
    (f64) => {
        Fmt::F64
    };
    ($l:literal) => {
        $l
    };
    (none) => {
        None
    };
    // The only vocabulary with word arguments: the scalar logic operations.
    ($w:ident) => {
        super::svocab::Logic::$w
    };
}

/// A vocabulary variant, with its arguments if it has some.
macro_rules! variant {
    ($e:ident $w:ident) => {
        $e::$w
    };
    ($e:ident $w:ident ($($a:tt),*)) => {
        $e::$w($(jit_arg!($a)),*)
    };
}

/// Expands `for_each_gcn_op!` into `lowering`: one arm per operation, from its `jit` cell
/// (the words are checked by `isa/build/jit_cell.rs`; an operation word that names no
/// variant of its family's vocabulary does not compile).
macro_rules! jit_lowering {
    ($( ($op:ident $m:ident $shape:ident [$($t:tt)*] $cmp:tt {$($jit:tt)*} $($interp:tt)+) )*) => {
        /// How the JIT runs `op` (the `jit` column of `isa/tables/gcn.tsv`).
        pub fn lowering(op: Op) -> Lowering {
            match op {
                $( Op::$op => jit_lowering!(@ op $shape [$($t)*] $($jit)*), )*
            }
        }
    };
    (@ $o:ident $s:ident $t:tt -) => { Lowering::Other };
    (@ $o:ident $s:ident $t:tt helper) => { Lowering::Helper };
    (@ $o:ident $s:ident $t:tt nop) => { Lowering::Nop };
    (@ $o:ident $s:ident $t:tt end) => { Lowering::End };
    (@ $o:ident $s:ident $t:tt barrier) => { Lowering::Barrier };
    (@ $o:ident $s:ident $t:tt branch($w:ident)) => { table_branch($o) };
    (@ $o:ident $s:ident $t:tt lanes) => { Lowering::Lanes };
    (@ $o:ident $s:ident $t:tt vintrp) => { Lowering::Vintrp };
    (@ $o:ident $s:ident $t:tt cmp) => { table_compare($o) };
    (@ $o:ident $s:ident $t:tt class) => { table_class($o) };
    (@ $o:ident $s:ident $t:tt cndmask) => { Lowering::Sem(Sem::Cndmask) };
    (@ $o:ident $s:ident [$t0:tt $($t:tt)*] ldexp) => { Lowering::Sem(Sem::Ldexp(fmt_of!($t0))) };
    (@ $o:ident $s:ident [$t0:tt $($t:tt)*] frexp(Mant)) => {
        Lowering::Sem(Sem::Frexp { f: fmt_of!($t0), mant: true })
    };
    (@ $o:ident $s:ident [$t0:tt $($t:tt)*] frexp(Exp)) => {
        Lowering::Sem(Sem::Frexp { f: fmt_of!($t0), mant: false })
    };
    (@ $o:ident $s:ident [$t0:tt $($t:tt)*] float($w:ident)) => {
        Lowering::Sem(Sem::Float(fmt_of!($t0), FOp::$w, form_of!($s)))
    };
    (@ $o:ident $s:ident $t:tt half($w:ident)) => {
        Lowering::Sem(Sem::Half(HOp::$w, form_of!($s)))
    };
    (@ $o:ident $s:ident $t:tt int($($w:tt)+)) => { Lowering::Sem(Sem::Int(variant!(IOp $($w)+))) };
    (@ $o:ident $s:ident $t:tt int16($w:ident)) => { Lowering::Sem(Sem::Int16(I16::$w)) };
    (@ $o:ident $s:ident $t:tt cvt($w:ident)) => { Lowering::Sem(Sem::Cvt(Cvt::$w)) };
    (@ $o:ident $s:ident $t:tt cvt16($w:ident)) => { Lowering::Sem(Sem::Cvt16(Cvt16::$w)) };
    (@ $o:ident $s:ident $t:tt carry($w:ident)) => { Lowering::Sem(Sem::Carry(Carry::$w)) };
    (@ $o:ident $s:ident $t:tt shift64($w:ident)) => {
        Lowering::Sem(Sem::Shift64(Shift64::$w))
    };
    (@ $o:ident $s:ident $t:tt x($($w:tt)+)) => { Lowering::Sem(Sem::X(variant!(XOp $($w)+))) };
    (@ $o:ident $s:ident $t:tt sopc(cmp)) => { scalar_compare($o, false) };
    (@ $o:ident $s:ident $t:tt sopk(cmp)) => { scalar_compare($o, true) };
    (@ $o:ident $s:ident $t:tt sop2($($w:tt)+)) => { Lowering::Scalar(SOp::Sop2(variant!(S2 $($w)+))) };
    (@ $o:ident $s:ident $t:tt sopk($($w:tt)+)) => { Lowering::Scalar(SOp::Sopk(variant!(SK $($w)+))) };
    (@ $o:ident $s:ident $t:tt sop1($($w:tt)+)) => { Lowering::Scalar(SOp::Sop1(variant!(S1 $($w)+))) };
    (@ $o:ident $s:ident $t:tt sopc($($w:tt)+)) => { Lowering::Scalar(SOp::Sopc(variant!(SC $($w)+))) };
}

wavejit_isa::for_each_gcn_op!(jit_lowering);

/// The semantics of `op`, if lowered inline by a family's lowering.
pub fn sem(op: Op) -> Option<Sem> {
    match lowering(op) {
        Lowering::Sem(s) => Some(s),
        _ => None,
    }
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

/// A SOPP branch as the table describes it (its `branch(COND)` cell, `Op::branch`); the
/// debugger's branches test state that is not modelled, so the interpreter runs them (and
/// answers Unsupported).
fn table_branch(op: Op) -> Lowering {
    match op.branch() {
        Some(BranchIf::Debugger) | None => Lowering::Helper,
        Some(b) => Lowering::Branch(b),
    }
}

/// A compare as the table describes it (`cmp` column): condition, operand type, and
/// whether it also writes EXEC.
fn table_compare(op: Op) -> Lowering {
    match op.compare() {
        Some(CmpDesc {
            cond: Some(cond),
            ty,
            exec,
        }) => Lowering::Sem(Sem::Cmp { ty, cond, x: exec }),
        _ => Lowering::Helper,
    }
}

/// A class compare (`class.TYPE` in the `cmp` column): the float format it tests, and
/// whether it also writes EXEC.
fn table_class(op: Op) -> Lowering {
    let Some(CmpDesc {
        cond: None,
        ty,
        exec,
    }) = op.compare()
    else {
        return Lowering::Helper;
    };
    let f = match ty {
        CmpTy::F16 => CFmt::F16,
        CmpTy::F32 => CFmt::F32,
        CmpTy::F64 => CFmt::F64,
        _ => return Lowering::Helper,
    };
    Lowering::Sem(Sem::X(XOp::Class(f, exec)))
}

/// A scalar compare as the table describes it (`cmp` column): SOPC of 32 or 64 bits, or
/// SOPK (`sopk`) against the sign- or zero-extended immediate.
fn scalar_compare(op: Op, sopk: bool) -> Lowering {
    let Some(CmpDesc {
        cond: Some(cond),
        ty,
        ..
    }) = op.compare()
    else {
        return Lowering::Helper;
    };
    let signed = matches!(ty, CmpTy::I32 | CmpTy::I64);
    let Some(cc) = int_cc(cond, signed) else {
        return Lowering::Helper;
    };
    Lowering::Scalar(match (sopk, matches!(ty, CmpTy::I64 | CmpTy::U64)) {
        (false, false) => SOp::Sopc(SC::Cmp(cc)),
        (false, true) => SOp::Sopc(SC::Cmp64(cc)),
        (true, false) => SOp::Sopk(SK::Cmp(cc, signed)),
        (true, true) => return Lowering::Helper,
    })
}
