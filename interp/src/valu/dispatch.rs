//! The vector ALU's dispatch, generated from the table: `for_each_gcn_op!` gives every
//! operation with its `interp` cell (`isa/tables/gcn.tsv`), and `valu_dispatch!` below turns
//! each cell into one match arm. A cell names a typed adapter of this file (`f32_2`,
//! `b32_3`, …: the source and result types) and the pure per-lane function it runs, or `run`
//! with a function of `custom` (operations whose types no adapter covers), `cmp` (the `cmp`
//! column says what), `nop` or `unsupported`. The row's shape adds the operand
//! rearrangement of V_MAC (SRC2 is VDST) and V_MADMK/V_MADAK (the literal). Everything else
//! — operand fetch, modifiers, SDWA, DPP, EXEC, write-back — is the driver's.

use wavejit_isa::gcn::Op;

use super::adapt::*;
use super::driver::{compare, Cx, R};
use super::lanes::{self, movrel, Movrel};
use super::operands::Ty::{B16, B32, B64, F16, F32, F64};
use super::vopc::{self, CmpTy};
use super::{custom, f16, vop1, vop2, vop3};
use crate::error::ExecErrorKind;
use crate::float::{Fp, F16 as FMT16, F32 as FMT32, F64 as FMT64};

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
        (Some(c), ty) => {
            let c = vopc::Truth::of(c);
            match ty {
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
            }
        }
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

/// Executes one vector ALU instruction whose operand view is `Cx::v`.
pub type Handler = fn(&mut Cx<'_, '_>) -> R;

/// Execute `cx.v` (any vector ALU operation).
pub fn dispatch(cx: &mut Cx) -> R {
    handler(cx.v.op)(cx)
}

/// A cell's call of its adapter. The float adapters get the per-lane function wrapped in
/// a closure that calls it by name: a function item passed as it is would be called
/// through its `Fn` implementation, which the compiler may leave out of line, with MODE
/// a run-time value in it; the closure's direct call lets the per-lane function be inlined
/// into each lane loop `adapt::with_mode!` compiles for a MODE.
macro_rules! cell {
    ($cx:ident f32_1 ($p:path)) => { f32_1($cx, #[inline(always)] |a, m| $p(a, m)) };
    ($cx:ident f32_2 ($p:path)) => { f32_2($cx, #[inline(always)] |a, b, m| $p(a, b, m)) };
    ($cx:ident f32_3 ($p:path)) => { f32_3($cx, #[inline(always)] |a, b, c, m| $p(a, b, c, m)) };
    ($cx:ident f64_2 ($p:path)) => { f64_2($cx, #[inline(always)] |a, b, m| $p(a, b, m)) };
    ($cx:ident f64_3 ($p:path)) => { f64_3($cx, #[inline(always)] |a, b, c, m| $p(a, b, c, m)) };
    ($cx:ident b32_to_f32 ($p:path)) => { b32_to_f32($cx, #[inline(always)] |a, m| $p(a, m)) };
    ($cx:ident f32_to_b32 ($p:path)) => { f32_to_b32($cx, #[inline(always)] |a, m| $p(a, m)) };
    ($cx:ident f32x2_to_b32 ($p:path)) => {
        f32x2_to_b32($cx, #[inline(always)] |a, b, m| $p(a, b, m))
    };
    ($cx:ident fp_1 ($t:ident, $p:path)) => { fp_1($cx, $t, #[inline(always)] |fp, a| $p(fp, a)) };
    ($cx:ident fp_3 ($t:ident, $p:path)) => {
        fp_3($cx, $t, #[inline(always)] |fp, a, b, c| $p(fp, a, b, c))
    };
    ($cx:ident $f:ident ($($a:tt)*)) => { $f($cx, $($a)*) };
}

/// Expands `for_each_gcn_op!` into `handler`: one arm per operation of the table.
macro_rules! valu_dispatch {
    ($( ($op:ident $m:ident $shape:ident [$($t:tt)*] $cmp:tt {$($jit:tt)*} $($sem:tt)+) )*) => {
        /// The function that executes operation `op` (its operands in `Cx::v`): the
        /// match on the operation made once, so that pre-decoded code
        /// (`crate::threaded`) calls it without matching again.
        pub fn handler(op: Op) -> Handler {
            match op {
                $( Op::$op => |cx: &mut Cx<'_, '_>| -> R {
                    #[allow(unused_variables)]
                    let op = cx.v.op;
                    valu_dispatch!(@arm cx op $shape $($sem)+)
                }, )*
            }
        }
    };
    // Outside the vector ALU (the caller never sends these: scalar rows are crate::salu's),
    // or executed by crate::vintrp.
    (@arm $cx:ident $o:ident none $($sem:tt)+) => { unsupported($o) };
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
        cell!($cx $f ($($a)*))
    }};
    (@arm $cx:ident $o:ident madmk $f:ident ($($a:tt)*)) => {{
        madk($cx, true);
        cell!($cx $f ($($a)*))
    }};
    (@arm $cx:ident $o:ident madak $f:ident ($($a:tt)*)) => {{
        madk($cx, false);
        cell!($cx $f ($($a)*))
    }};
    (@arm $cx:ident $o:ident $shape:ident $f:ident ($($a:tt)*)) => { cell!($cx $f ($($a)*)) };
}

wavejit_isa::for_each_gcn_op!(valu_dispatch);
