//! The scalar unit's typed adapters: the words of an `interp` cell of a scalar row
//! (`isa/tables/gcn.tsv`). Each adapter reads the operands its pure function takes, calls
//! it, and writes what it returns; the function's signature says the operand widths and
//! what happens to SCC:
//!
//! - `sop2(f)`, `sop1(f)`: `f(S0, S1)` / `f(S0)` returns D (`u32`/`u64`: SCC unchanged) or
//!   `(D, SCC)`;
//! - `sop2_nz(f)`, `sop1_nz(f)`: `f` returns D and `SCC = D != 0`;
//! - `sop2_scc(f)`, `sop1_scc(f)`: `f` also takes SCC (`s_addc_u32`, `s_cselect_b32`,
//!   `s_cmov_b32`); an `Option` result writes D only when it is `Some`;
//! - `sop1_d(f)`: `f(D, S0)`, D read before it is written (`s_bitset0_b32`);
//! - `saveexec(f)`: `D = EXEC; EXEC = f(S0, EXEC); SCC = EXEC != 0`;
//! - `sopk(f)`: `f(sext(SIMM16))`; `sopk_scc(f)` also takes SCC; `sopk_d(f)`: `f(D, sext(SIMM16))`;
//! - `sopc(f)`: `SCC = f(S0, S1)`; `cmp`: a compare of the `cmp` column (SOPC or SOPK);
//! - `branch(f)`: a SOPP branch taken when `f(wave)` holds;
//! - `run(f)`: `f` takes the whole instruction (program-counter moves, relative moves,
//!   hardware registers).

use std::cmp::Ordering;

use wavejit_isa::gcn::{CmpDesc, CmpTy, Fields, Inst, Src};
use wavejit_isa::state::Wave;

use super::operand::{read32, read64, write32, write64};
use crate::ctx::{bad_fields, unsupported, Control, Ctx};
use crate::error::ExecErrorKind;

/// What a scalar instruction returns.
pub type R = Result<Control, ExecErrorKind>;

/// One scalar instruction being executed at `pc` (`size` bytes long).
pub struct S<'s, 'c> {
    pub ctx: &'s mut Ctx<'c>,
    pub inst: &'s Inst,
    pub pc: u32,
    pub size: u32,
}

/// A scalar operand width: 32 or 64 bits.
pub trait Sreg: Copy {
    fn read(w: &Wave, src: Src, literal: Option<u32>) -> Result<Self, ExecErrorKind>;
    fn write(self, w: &mut Wave, sdst: u8) -> Result<(), ExecErrorKind>;
    fn nonzero(self) -> bool;
}

impl Sreg for u32 {
    fn read(w: &Wave, src: Src, literal: Option<u32>) -> Result<u32, ExecErrorKind> {
        read32(w, src, literal)
    }
    fn write(self, w: &mut Wave, sdst: u8) -> Result<(), ExecErrorKind> {
        write32(w, sdst, self)
    }
    fn nonzero(self) -> bool {
        self != 0
    }
}

impl Sreg for u64 {
    fn read(w: &Wave, src: Src, literal: Option<u32>) -> Result<u64, ExecErrorKind> {
        read64(w, src, literal)
    }
    fn write(self, w: &mut Wave, sdst: u8) -> Result<(), ExecErrorKind> {
        write64(w, sdst, self)
    }
    fn nonzero(self) -> bool {
        self != 0
    }
}

/// What a pure function returns: D alone (SCC unchanged), D and the new SCC, or (a
/// conditional move) D or nothing.
pub trait Produce {
    fn apply(self, w: &mut Wave, sdst: u8) -> Result<(), ExecErrorKind>;
}

impl Produce for u32 {
    fn apply(self, w: &mut Wave, sdst: u8) -> Result<(), ExecErrorKind> {
        self.write(w, sdst)
    }
}

impl Produce for u64 {
    fn apply(self, w: &mut Wave, sdst: u8) -> Result<(), ExecErrorKind> {
        self.write(w, sdst)
    }
}

impl<T: Sreg> Produce for (T, bool) {
    fn apply(self, w: &mut Wave, sdst: u8) -> Result<(), ExecErrorKind> {
        self.0.write(w, sdst)?;
        w.scc = self.1 as u32;
        Ok(())
    }
}

impl<T: Sreg> Produce for Option<T> {
    fn apply(self, w: &mut Wave, sdst: u8) -> Result<(), ExecErrorKind> {
        match self {
            Some(d) => d.write(w, sdst),
            None => Ok(()),
        }
    }
}

/// `(D, SCC = D != 0)`.
fn nz<T: Sreg>(d: T) -> (T, bool) {
    (d, d.nonzero())
}

fn sop2_fields(inst: &Inst) -> Result<(u8, Src, Src), ExecErrorKind> {
    match inst.fields {
        Fields::Sop2 { sdst, ssrc0, ssrc1 } => Ok((sdst, ssrc0, ssrc1)),
        _ => Err(bad_fields(inst)),
    }
}

fn sop1_fields(inst: &Inst) -> Result<(u8, Src), ExecErrorKind> {
    match inst.fields {
        Fields::Sop1 { sdst, ssrc0 } => Ok((sdst, ssrc0)),
        _ => Err(bad_fields(inst)),
    }
}

fn sopk_fields(inst: &Inst) -> Result<(u8, u16), ExecErrorKind> {
    match inst.fields {
        Fields::Sopk { sdst, simm16 } => Ok((sdst, simm16)),
        _ => Err(bad_fields(inst)),
    }
}

/// Read S0 and S1, run `f` on them and SCC, write what it returns.
fn two<A: Sreg, B: Sreg, O: Produce>(s: &mut S, f: impl FnOnce(A, B, bool) -> O) -> R {
    let (sdst, ssrc0, ssrc1) = sop2_fields(s.inst)?;
    let lit = s.inst.literal;
    let w = &mut *s.ctx.wave;
    let (a, b) = (A::read(w, ssrc0, lit)?, B::read(w, ssrc1, lit)?);
    f(a, b, w.scc & 1 != 0).apply(w, sdst)?;
    Ok(Control::Next)
}

/// Read S0, run `f` on it and SCC, write what it returns.
fn one<A: Sreg, O: Produce>(s: &mut S, f: impl FnOnce(A, bool) -> O) -> R {
    let (sdst, ssrc0) = sop1_fields(s.inst)?;
    let w = &mut *s.ctx.wave;
    let a = A::read(w, ssrc0, s.inst.literal)?;
    f(a, w.scc & 1 != 0).apply(w, sdst)?;
    Ok(Control::Next)
}

pub fn sop2<A: Sreg, B: Sreg, O: Produce>(s: &mut S, f: fn(A, B) -> O) -> R {
    two(s, |a, b, _| f(a, b))
}

pub fn sop2_nz<A: Sreg, B: Sreg, T: Sreg>(s: &mut S, f: fn(A, B) -> T) -> R {
    two(s, |a, b, _| nz(f(a, b)))
}

pub fn sop2_scc<A: Sreg, B: Sreg, O: Produce>(s: &mut S, f: fn(A, B, bool) -> O) -> R {
    two(s, f)
}

pub fn sop1<A: Sreg, O: Produce>(s: &mut S, f: fn(A) -> O) -> R {
    one(s, |a, _| f(a))
}

pub fn sop1_nz<A: Sreg, T: Sreg>(s: &mut S, f: fn(A) -> T) -> R {
    one(s, |a, _| nz(f(a)))
}

pub fn sop1_scc<A: Sreg, O: Produce>(s: &mut S, f: fn(A, bool) -> O) -> R {
    one(s, f)
}

/// `D = f(D, S0)`: S0 is read first, then D.
pub fn sop1_d<T: Sreg>(s: &mut S, f: fn(T, u32) -> T) -> R {
    let (sdst, ssrc0) = sop1_fields(s.inst)?;
    let w = &mut *s.ctx.wave;
    let s0 = read32(w, ssrc0, s.inst.literal)?;
    let old = T::read(w, Src(sdst as u16), None)?;
    f(old, s0).write(w, sdst)?;
    Ok(Control::Next)
}

/// `D = EXEC; EXEC = f(S0, EXEC); SCC = EXEC != 0`, with S0 read before anything is
/// written (S0 may be EXEC or overlap D).
pub fn saveexec(s: &mut S, f: fn(u64, u64) -> u64) -> R {
    let (sdst, ssrc0) = sop1_fields(s.inst)?;
    let w = &mut *s.ctx.wave;
    let s0 = read64(w, ssrc0, s.inst.literal)?;
    let old = w.exec;
    let new = f(s0, old);
    write64(w, sdst, old)?;
    w.exec = new;
    w.scc = (new != 0) as u32;
    Ok(Control::Next)
}

pub fn sopk<O: Produce>(s: &mut S, f: fn(i32) -> O) -> R {
    let (sdst, simm16) = sopk_fields(s.inst)?;
    f(simm16 as i16 as i32).apply(s.ctx.wave, sdst)?;
    Ok(Control::Next)
}

pub fn sopk_scc<O: Produce>(s: &mut S, f: fn(i32, bool) -> O) -> R {
    let (sdst, simm16) = sopk_fields(s.inst)?;
    let w = &mut *s.ctx.wave;
    f(simm16 as i16 as i32, w.scc & 1 != 0).apply(w, sdst)?;
    Ok(Control::Next)
}

/// `D = f(D, sext(SIMM16))`.
pub fn sopk_d<O: Produce>(s: &mut S, f: fn(u32, i32) -> O) -> R {
    let (sdst, simm16) = sopk_fields(s.inst)?;
    let w = &mut *s.ctx.wave;
    let d = read32(w, Src(sdst as u16), None)?;
    f(d, simm16 as i16 as i32).apply(w, sdst)?;
    Ok(Control::Next)
}

/// `SCC = f(S0, S1)`.
pub fn sopc<A: Sreg>(s: &mut S, f: fn(A, u32) -> bool) -> R {
    let Fields::Sopc { ssrc0, ssrc1 } = s.inst.fields else {
        return Err(bad_fields(s.inst));
    };
    let lit = s.inst.literal;
    let w = &mut *s.ctx.wave;
    let (a, b) = (A::read(w, ssrc0, lit)?, read32(w, ssrc1, lit)?);
    w.scc = f(a, b) as u32;
    Ok(Control::Next)
}

/// `SCC = S0 cond S1` (SOPC) or `SCC = D cond SIMM16` (SOPK: sign-extended for a signed
/// compare, zero-extended for an unsigned one), condition and type from the `cmp` column.
pub fn cmp(s: &mut S) -> R {
    let inst = s.inst;
    let Some(CmpDesc {
        cond: Some(cond),
        ty,
        ..
    }) = inst.op.compare()
    else {
        return Err(unsupported(inst));
    };
    let lit = inst.literal;
    let w = &mut *s.ctx.wave;
    let order: Ordering = match (inst.fields, ty) {
        (Fields::Sopc { ssrc0, ssrc1 }, CmpTy::I32) => {
            (read32(w, ssrc0, lit)? as i32).cmp(&(read32(w, ssrc1, lit)? as i32))
        }
        (Fields::Sopc { ssrc0, ssrc1 }, CmpTy::U32) => {
            read32(w, ssrc0, lit)?.cmp(&read32(w, ssrc1, lit)?)
        }
        (Fields::Sopc { ssrc0, ssrc1 }, CmpTy::U64) => {
            read64(w, ssrc0, lit)?.cmp(&read64(w, ssrc1, lit)?)
        }
        (Fields::Sopk { sdst, simm16 }, CmpTy::I32) => {
            (read32(w, Src(sdst as u16), None)? as i32).cmp(&(simm16 as i16 as i32))
        }
        (Fields::Sopk { sdst, simm16 }, CmpTy::U32) => {
            read32(w, Src(sdst as u16), None)?.cmp(&(simm16 as u32))
        }
        (Fields::Sopc { .. } | Fields::Sopk { .. }, _) => return Err(unsupported(inst)),
        _ => return Err(bad_fields(inst)),
    };
    w.scc = cond.holds(Some(order)) as u32;
    Ok(Control::Next)
}

/// A SOPP branch: to `pc + 4 + sext(SIMM16) × 4` when `taken(wave)`.
pub fn branch(s: &mut S, taken: fn(&Wave) -> bool) -> R {
    let Fields::Sopp { simm16 } = s.inst.fields else {
        return Err(bad_fields(s.inst));
    };
    Ok(if taken(s.ctx.wave) {
        Control::Jump(branch_target(s.pc, simm16))
    } else {
        Control::Next
    })
}

/// Target of a branch at `pc` with offset `simm16` (in dwords, relative to pc + 4).
pub fn branch_target(pc: u32, simm16: u16) -> u32 {
    let t = pc as i64 + 4 + (simm16 as i16 as i64) * 4;
    // Negative or huge targets wrap to an offset no program has: `PcOutOfCode` next step.
    t as u32
}

/// A function that takes the whole instruction.
pub fn run(s: &mut S, f: fn(&mut S) -> R) -> R {
    f(s)
}
