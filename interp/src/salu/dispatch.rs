//! The scalar unit's dispatch, generated from the table: `for_each_gcn_op!` gives every
//! operation with its `interp` cell, and each scalar row's cell names an adapter of
//! `super::adapt` and the pure function it runs (`sop2(sop2::s_add_u32)`), or `cmp` (the
//! `cmp` column says what), `nop`, `end`, `barrier` or `unsupported`. `isa/build.rs`
//! rejects a scalar row without a cell, so an operation without semantics does not build.

use wavejit_isa::gcn::Op;

use super::adapt::{
    branch, cmp, run, saveexec, sop1, sop1_d, sop1_nz, sop1_scc, sop2, sop2_nz, sop2_scc, sopc,
    sopk, sopk_d, sopk_scc, R, S,
};
use super::{sop1, sop2, sopc, sopk, sopp};
use crate::ctx::{unsupported, Control};

/// Executes one scalar instruction (`S::inst`).
pub type Handler = fn(&mut S<'_, '_>) -> R;

/// Execute `s.inst` (any scalar ALU or program-control operation).
pub fn dispatch(s: &mut S) -> R {
    handler(s.inst.op)(s)
}

/// Expands `for_each_gcn_op!` into `handler`: one arm per operation of the table.
macro_rules! salu_dispatch {
    ($( ($op:ident $m:ident $shape:ident [$($t:tt)*] $cmp:tt {$($jit:tt)*} $($sem:tt)+) )*) => {
        /// The function that executes operation `op` (the instruction in `S::inst`): the
        /// match on the operation made once, so that pre-decoded code
        /// (`crate::threaded`) calls it without matching again.
        pub fn handler(op: Op) -> Handler {
            match op {
                $( Op::$op => |s: &mut S<'_, '_>| -> R { salu_dispatch!(@arm s $shape $($sem)+) }, )*
            }
        }
    };
    (@arm $s:ident none unsupported) => { Err(unsupported($s.inst)) };
    (@arm $s:ident none nop) => {{ let _ = $s; Ok(Control::Next) }};
    (@arm $s:ident none end) => {{ let _ = $s; Ok(Control::End) }};
    (@arm $s:ident none barrier) => {{ let _ = $s; Ok(Control::Barrier) }};
    (@arm $s:ident none cmp) => { cmp($s) };
    (@arm $s:ident none $f:ident ($($a:tt)*)) => { $f($s, $($a)*) };
    // Memory and export rows (`-`), vector ALU and interpolation rows (a shape, or
    // `vintrp`): other units of the interpreter.
    (@arm $s:ident $shape:ident $($sem:tt)+) => { Err(unsupported($s.inst)) };
}

wavejit_isa::for_each_gcn_op!(salu_dispatch);
