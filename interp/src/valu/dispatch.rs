//! The vector ALU's dispatch, generated from the table: `for_each_gcn_op!` gives every
//! operation with its `interp` cell (`isa/tables/gcn.tsv`), and `valu_dispatch!` below turns
//! each cell into one match arm. A cell names a typed adapter of this file (`f32_2`,
//! `b32_3`, …: the source and result types) and the pure per-lane function it runs, or `run`
//! with a function of `custom` (operations whose types no adapter covers), `cmp` (the `cmp`
//! column says what), `nop` or `unsupported`. The row's shape adds the operand
//! rearrangement of V_MAC (SRC2 is VDST) and V_MADMK/V_MADAK (the literal). Everything else
//! — operand fetch, modifiers, SDWA, DPP, EXEC, write-back — is the driver's.

use wavejit_isa::gcn::{Op, Src};

use super::driver::{alu, alu_bits, compare, BitIn, BitOut, Cx, R};
use super::lanes::{self, movrel, Movrel};
use super::operands::Ty::{self, B16, B32, B64, F16, F32, F64};
use super::vopc::{self, CmpTy};
use super::{custom, f16, vop1, vop2, vop3};
use crate::error::ExecErrorKind;
use crate::float::{Fp, Mode, F16 as FMT16, F32 as FMT32, F64 as FMT64};

// ---------------------------------------------------------------------------------------
// Typed shapes over the driver.

type Fn1<T> = fn(T, Mode) -> T;
type Fn2<T> = fn(T, T, Mode) -> T;
type Fn3<T> = fn(T, T, T, Mode) -> T;

fn f32_1(cx: &mut Cx, f: Fn1<u32>) -> R {
    let m = cx.mode();
    alu(cx, [F32], F32, |[a]| f(a as u32, m) as u64)
}
fn f32_2(cx: &mut Cx, f: Fn2<u32>) -> R {
    let m = cx.mode();
    alu(cx, [F32, F32], F32, |[a, b]| {
        f(a as u32, b as u32, m) as u64
    })
}
fn f32_3(cx: &mut Cx, f: Fn3<u32>) -> R {
    let m = cx.mode();
    alu(cx, [F32, F32, F32], F32, |[a, b, c]| {
        f(a as u32, b as u32, c as u32, m) as u64
    })
}
fn f64_2(cx: &mut Cx, f: Fn2<u64>) -> R {
    let m = cx.mode();
    alu(cx, [F64, F64], F64, |[a, b]| f(a, b, m))
}
fn f64_3(cx: &mut Cx, f: Fn3<u64>) -> R {
    let m = cx.mode();
    alu(cx, [F64, F64, F64], F64, |[a, b, c]| f(a, b, c, m))
}
fn f16_2(cx: &mut Cx, f: Fn2<u16>) -> R {
    let m = cx.mode();
    alu(cx, [F16, F16], F16, |[a, b]| {
        f(a as u16, b as u16, m) as u64
    })
}
fn f16_3(cx: &mut Cx, f: Fn3<u16>) -> R {
    let m = cx.mode();
    alu(cx, [F16, F16, F16], F16, |[a, b, c]| {
        f(a as u16, b as u16, c as u16, m) as u64
    })
}
/// A precision-generic float operation (`fn(Fp, bits) -> bits`) at type `ty`.
pub(super) fn fp_1(cx: &mut Cx, ty: Ty, f: fn(Fp, u64) -> u64) -> R {
    let fp = fp_of(cx.mode(), ty);
    alu(cx, [ty], ty, |[a]| f(fp, a))
}
fn fp_3(cx: &mut Cx, ty: Ty, f: fn(Fp, u64, u64, u64) -> u64) -> R {
    let fp = fp_of(cx.mode(), ty);
    alu(cx, [ty, ty, ty], ty, |[a, b, c]| f(fp, a, b, c))
}
pub(super) fn fp_of(m: Mode, ty: Ty) -> Fp {
    match ty {
        F16 | B16 => m.fp16(),
        F64 | B64 => m.fp64(),
        _ => m.fp32(),
    }
}
fn b32_1(cx: &mut Cx, f: fn(u32) -> u32) -> R {
    alu(cx, [B32], B32, |[a]| f(a as u32) as u64)
}
fn b32_2(cx: &mut Cx, f: fn(u32, u32) -> u32) -> R {
    alu(cx, [B32, B32], B32, |[a, b]| f(a as u32, b as u32) as u64)
}
pub(super) fn b32_3(cx: &mut Cx, f: fn(u32, u32, u32) -> u32) -> R {
    alu(cx, [B32, B32, B32], B32, |[a, b, c]| {
        f(a as u32, b as u32, c as u32) as u64
    })
}
fn b16_2(cx: &mut Cx, f: fn(u16, u16) -> u16) -> R {
    alu(cx, [B16, B16], B16, |[a, b]| f(a as u16, b as u16) as u64)
}
/// 16-bit integer operations with CLAMP (saturation).
fn b16_2c(cx: &mut Cx, f: fn(u16, u16, bool) -> u16) -> R {
    let c = cx.v.clamp;
    alu(cx, [B16, B16], B16, |[a, b]| {
        f(a as u16, b as u16, c) as u64
    })
}
fn b16_3c(cx: &mut Cx, f: fn(u16, u16, u16, bool) -> u16) -> R {
    let c = cx.v.clamp;
    alu(cx, [B16, B16, B16], B16, |[a, b, d]| {
        f(a as u16, b as u16, d as u16, c) as u64
    })
}
/// Float operand(s) in, integer result out (conversions, packing).
fn f32_to_b32(cx: &mut Cx, f: fn(u32, Mode) -> u32) -> R {
    let m = cx.mode();
    alu(cx, [F32], B32, |[a]| f(a as u32, m) as u64)
}
fn f32x2_to_b32(cx: &mut Cx, f: fn(u32, u32, Mode) -> u32) -> R {
    let m = cx.mode();
    alu(cx, [F32, F32], B32, |[a, b]| {
        f(a as u32, b as u32, m) as u64
    })
}
fn b32_to_f32(cx: &mut Cx, f: fn(u32, Mode) -> u32) -> R {
    let m = cx.mode();
    alu(cx, [B32], F32, |[a]| f(a as u32, m) as u64)
}
/// A lane value as a per-lane function takes it: 16, 32 or 64 bits.
pub trait Bits: Copy {
    fn from_lane(x: u64) -> Self;
    fn to_lane(self) -> u64;
}
impl Bits for u16 {
    fn from_lane(x: u64) -> Self {
        x as u16
    }
    fn to_lane(self) -> u64 {
        self as u64
    }
}
impl Bits for u32 {
    fn from_lane(x: u64) -> Self {
        x as u32
    }
    fn to_lane(self) -> u64 {
        self as u64
    }
}
impl Bits for u64 {
    fn from_lane(x: u64) -> Self {
        x
    }
    fn to_lane(self) -> u64 {
        self
    }
}
/// A conversion: one source of type `from`, a result of type `to`.
fn conv<A: Bits, B: Bits>(cx: &mut Cx, from: Ty, to: Ty, f: fn(A, Mode) -> B) -> R {
    let m = cx.mode();
    alu(cx, [from], to, |[a]| f(A::from_lane(a), m).to_lane())
}
/// V_CVT_F32_UBYTEn: byte `n` of the source as an f32.
fn ubyte(cx: &mut Cx, n: u32) -> R {
    alu(cx, [B32], F32, |[a]| {
        vop1::v_cvt_f32_ubyte(a as u32, n) as u64
    })
}
/// Carry out: `D, VCC/SDST = f(S0, S1)`, CLAMP saturating.
fn carry_out(cx: &mut Cx, f: fn(u32, u32, bool) -> (u32, bool)) -> R {
    let c = cx.v.clamp;
    alu_bits(
        cx,
        [B32, B32],
        B32,
        BitIn::None,
        BitOut::Mask,
        |[a, b], _| {
            let (r, co) = f(a as u32, b as u32, c);
            (r as u64, co)
        },
    )
}
/// Carry in and out: the carry in from VCC (32-bit encodings) or SRC2 (VOP3B).
fn carry_in_out(cx: &mut Cx, f: fn(u32, u32, bool, bool) -> (u32, bool)) -> R {
    let c = cx.v.clamp;
    alu_bits(
        cx,
        [B32, B32],
        B32,
        BitIn::VccOrSrc2,
        BitOut::Mask,
        |[a, b], ci| {
            let (r, co) = f(a as u32, b as u32, ci, c);
            (r as u64, co)
        },
    )
}

/// Make SRC2 the VDST register (V_MAC*: the accumulator is VDST, whatever SRC2 holds).
pub(super) fn acc_is_vdst(cx: &mut Cx) {
    cx.v.src[2] = Src::vgpr(cx.v.vdst);
}

/// The operands of V_MADMK (`S0 × K + S1`) and V_MADAK (`S0 × S1 + K`) in order.
fn madk(cx: &mut Cx, k_second: bool) {
    let [s0, s1, _] = cx.v.src;
    cx.v.src = if k_second {
        [s0, Src::LITERAL, s1]
    } else {
        [s0, s1, Src::LITERAL]
    };
}

fn compare_op(cx: &mut Cx, d: vopc::CmpDesc) -> R {
    let m = cx.mode();
    let x = d.exec;
    let fl = |f: Fp| f.flush_in;
    match (d.cond, d.ty) {
        (None, CmpTy::F16) => compare(cx, [F16, B16], x, |[a, k]| {
            vopc::cmp_class(FMT16, a, k as u32)
        }),
        (None, CmpTy::F32) => compare(cx, [F32, B32], x, |[a, k]| {
            vopc::cmp_class(FMT32, a, k as u32)
        }),
        (None, CmpTy::F64) => compare(cx, [F64, B32], x, |[a, k]| {
            vopc::cmp_class(FMT64, a, k as u32)
        }),
        (None, _) => Err(ExecErrorKind::Unsupported {
            mnemonic: cx.v.op.mnemonic().into(),
        }),
        (Some(c), ty) => match ty {
            CmpTy::F16 => compare(cx, [F16, F16], x, |[a, b]| {
                vopc::cmp_float(FMT16, fl(m.fp16()), c, a, b)
            }),
            CmpTy::F32 => compare(cx, [F32, F32], x, |[a, b]| {
                vopc::cmp_float(FMT32, fl(m.fp32()), c, a, b)
            }),
            CmpTy::F64 => compare(cx, [F64, F64], x, |[a, b]| {
                vopc::cmp_float(FMT64, fl(m.fp64()), c, a, b)
            }),
            CmpTy::I16 => compare(cx, [B16, B16], x, |[a, b]| {
                vopc::cmp_int(c, a as u16 as i16, b as u16 as i16)
            }),
            CmpTy::U16 => compare(cx, [B16, B16], x, |[a, b]| {
                vopc::cmp_int(c, a as u16, b as u16)
            }),
            CmpTy::I32 => compare(cx, [B32, B32], x, |[a, b]| {
                vopc::cmp_int(c, a as u32 as i32, b as u32 as i32)
            }),
            CmpTy::U32 => compare(cx, [B32, B32], x, |[a, b]| {
                vopc::cmp_int(c, a as u32, b as u32)
            }),
            CmpTy::I64 => compare(cx, [B64, B64], x, |[a, b]| {
                vopc::cmp_int(c, a as i64, b as i64)
            }),
            CmpTy::U64 => compare(cx, [B64, B64], x, |[a, b]| vopc::cmp_int(c, a, b)),
        },
    }
}

/// `run(path)` cells: a function that takes the whole instruction.
fn run(cx: &mut Cx, f: fn(&mut Cx) -> R) -> R {
    f(cx)
}

fn unsupported(op: Op) -> R {
    Err(ExecErrorKind::Unsupported {
        mnemonic: op.mnemonic().to_string(),
    })
}

/// Expands `for_each_gcn_op!` into `dispatch`: one arm per operation of the table.
macro_rules! valu_dispatch {
    ($( ($op:ident $m:ident $shape:ident [$($t:tt)*] $cmp:tt $($sem:tt)+) )*) => {
        /// Execute `cx.v` (any vector ALU operation).
        pub fn dispatch(cx: &mut Cx) -> R {
            let op = cx.v.op;
            match op {
                $( Op::$op => valu_dispatch!(@arm cx op $shape $($sem)+), )*
            }
        }
    };
    // Outside the vector ALU (the caller never sends these), or executed by crate::vintrp.
    (@arm $cx:ident $o:ident $shape:ident -) => { unsupported($o) };
    (@arm $cx:ident $o:ident $shape:ident vintrp) => { unsupported($o) };
    (@arm $cx:ident $o:ident $shape:ident unsupported) => { unsupported($o) };
    (@arm $cx:ident $o:ident $shape:ident nop) => { Ok(()) };
    (@arm $cx:ident $o:ident $shape:ident cmp) => {
        match $o.compare() {
            Some(d) => compare_op($cx, d),
            None => unsupported($o),
        }
    };
    (@arm $cx:ident $o:ident mac $f:ident ($($a:tt)*)) => {{
        acc_is_vdst($cx);
        $f($cx, $($a)*)
    }};
    (@arm $cx:ident $o:ident madmk $f:ident ($($a:tt)*)) => {{
        madk($cx, true);
        $f($cx, $($a)*)
    }};
    (@arm $cx:ident $o:ident madak $f:ident ($($a:tt)*)) => {{
        madk($cx, false);
        $f($cx, $($a)*)
    }};
    (@arm $cx:ident $o:ident $shape:ident $f:ident ($($a:tt)*)) => { $f($cx, $($a)*) };
}

wavejit_isa::for_each_gcn_op!(valu_dispatch);
