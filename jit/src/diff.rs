//! The `diff` engine: the interpreter and the JIT side by side from the same state, block
//! by block, compared after every block — registers, EXEC, VCC, M0, SCC, MODE, pc, LDS and
//! every word of memory. At the first difference the block is replayed from the same
//! starting state as compiled prefixes of growing length, to name the instruction that
//! produced it.
//!
//! After a block only what it can have written is compared (its `Footprint`: the scalar
//! state always, the VGPRs its instructions name as destinations, LDS and memory only if
//! it has memory instructions), since both states were equal before it. Whole states are
//! compared every `FULL_EVERY` blocks and at the end; a difference found there that the
//! block checks missed (compiled code writing a register its instructions do not name)
//! makes the run start again from the beginning comparing whole states after every
//! block, so that it is blamed on the right block and instruction all the same.
//!
//! The caller's state ends as the interpreter left it (the reference).

use std::fmt;

use wavejit_interp::profile::Profile;
use wavejit_interp::{Ctx, ExecError, ExecErrorKind, RunStats, Step};
use wavejit_isa::gcn::{DsFields, Enc, Fields, Inst as GcnInst, Op};
use wavejit_isa::ir::{Inst as IrInst, Program};
use wavejit_isa::state::diff::Difference;
use wavejit_isa::state::{Lds, Memory, Wave};

use crate::cache::{Jit, JitConfig};
use crate::engine::UnitStep;
use crate::gcn::Spec;

/// The first difference between the engines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// Byte offset of the instruction that produced it (of the block when `narrowed` is
    /// false).
    pub pc: u32,
    pub mnemonic: String,
    /// Whether `pc` is the single instruction (true) or only the block it starts.
    pub narrowed: bool,
    /// What differs: `v3 lane 17`, `s5`, `exec`, `memory 0x1000`, `lds 0x40`, `result`.
    pub what: String,
    pub interp: String,
    pub jit: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} differs after {} `{}` at pc 0x{:x}: interpreter {}, JIT {}",
            self.what,
            if self.narrowed {
                "instruction"
            } else {
                "the block starting with"
            },
            self.mnemonic,
            self.pc,
            self.interp,
            self.jit
        )
    }
}

/// The outcome of a diff run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiffRun {
    pub stats: RunStats,
    /// Why the run stopped (when no mismatch).
    pub stop: Option<Step>,
    pub mismatch: Option<Mismatch>,
    /// Blocks compared.
    pub blocks: u64,
}

/// Blocks between two comparisons of whole states (`Footprint`).
const FULL_EVERY: u64 = 64;

/// What the unit starting at `start` can write besides the scalar state, which is always
/// compared: the instructions from `start` to the end of its basic block (`end`), the only
/// ones a unit runs (it may loop back to `start`).
#[derive(Clone, Debug)]
struct Footprint {
    start: u32,
    end: u32,
    /// VGPRs (bit per register) any of them may write.
    vgprs: [u64; 4],
    lds: bool,
    mem: bool,
}

impl Footprint {
    /// Everything (compare whole states). An empty pc range: no pc is inside it.
    fn all(pc: u32) -> Footprint {
        Footprint {
            start: pc,
            end: pc,
            vgprs: [u64::MAX; 4],
            lds: true,
            mem: true,
        }
    }

    fn is_all(&self) -> bool {
        self.start == self.end
    }

    fn of(prog: &Program, pc: u32) -> Footprint {
        let all = Footprint::all(pc);
        let Some(i0) = prog.slot_index(pc) else {
            return all;
        };
        let Some(bi) = prog
            .blocks
            .partition_point(|b| b.first <= i0)
            .checked_sub(1)
        else {
            return all;
        };
        let Some(blk) = prog.blocks.get(bi) else {
            return all;
        };
        let Some(slots) = prog.slots.get(i0..blk.first + blk.len) else {
            return all;
        };
        let mut f = Footprint {
            start: pc,
            end: pc,
            vgprs: [0; 4],
            lds: false,
            mem: false,
        };
        for slot in slots {
            let Ok(IrInst::Gcn(g)) = &slot.inst else {
                return all;
            };
            if !f.add(g) {
                return all;
            }
            f.end = slot.pc.wrapping_add(slot.size);
        }
        if f.end <= f.start {
            return all;
        }
        f
    }

    /// Add what `g` can write; false: anything (exports, GDS, scalar stores, …).
    fn add(&mut self, g: &GcnInst) -> bool {
        match g.enc {
            // Scalar ALU, control and scalar loads write scalar state only.
            Enc::Sop1 | Enc::Sop2 | Enc::Sopk | Enc::Sopc | Enc::Sopp | Enc::Smrd => true,
            e if e.is_vector() => {
                // Relative moves write v[vdst + M0].
                if matches!(g.op, Op::VMovreldB32 | Op::VMovrelsB32 | Op::VMovrelsdB32) {
                    self.vgprs = [u64::MAX; 4];
                    return true;
                }
                let vdst = match g.fields {
                    Fields::Vopc { .. } => return true,
                    f => match f.vdst() {
                        Some(v) => v as usize,
                        None => return false,
                    },
                };
                // A vector result is at most 64 bits; two more registers for margin.
                self.regs(vdst, 4);
                true
            }
            // LDS: the registers a read returns (at most four dwords: ds_read_b128,
            // ds_read2_b64), and LDS itself for everything but a read. GDS: anything.
            Enc::Ds => {
                let Fields::Ds(DsFields {
                    vdst, gds: false, ..
                }) = g.fields
                else {
                    return false;
                };
                self.regs(vdst as usize, 4);
                self.lds |= !g.op.mnemonic().starts_with("ds_read");
                true
            }
            // Buffer and flat loads write their registers (at most four dwords, and the
            // TFE status dword); a buffer load with LDS set writes LDS. Anything else
            // (stores, atomics, cache controls) may write memory, and a flat one LDS too
            // (an address in the LDS aperture).
            Enc::Mubuf | Enc::Flat => {
                let (v, lds_bit, flat) = match g.fields {
                    Fields::Mubuf(b) => (b.vdata, b.lds, false),
                    Fields::Flat(f) => (f.vdst, false, true),
                    _ => return false,
                };
                let m = g.op.mnemonic();
                let load = m.starts_with("buffer_load_") || m.starts_with("flat_load_");
                self.regs(v as usize, 5);
                self.lds |= lds_bit || (flat && !load);
                self.mem |= !load;
                true
            }
            _ => false,
        }
    }

    /// Registers `first..first + n` may be written (all of them past v255).
    fn regs(&mut self, first: usize, n: usize) {
        if first + n - 1 > 255 {
            self.vgprs = [u64::MAX; 4];
        }
        for r in first..=(first + n - 1).min(255) {
            self.vgprs[r / 64] |= 1 << (r % 64);
        }
    }
}

/// Whether two states that were equal before a block with footprint `f` are certainly
/// still equal (false: compare whole states to know).
fn same_after(a: (&Wave, &Lds, &Memory), b: (&Wave, &Lds, &Memory), f: &Footprint) -> bool {
    let (x, y) = (a.0, b.0);
    let scalars = x.sgpr == y.sgpr
        && x.exec == y.exec
        && x.vcc == y.vcc
        && x.m0 == y.m0
        && x.scc == y.scc
        && x.mode == y.mode
        && x.pc == y.pc
        && x.gen == y.gen
        && x.exports.len() == y.exports.len();
    if !scalars {
        return false;
    }
    for (w, &bits) in f.vgprs.iter().enumerate() {
        let mut m = bits;
        while m != 0 {
            let r = w * 64 + m.trailing_zeros() as usize;
            m &= m - 1;
            if x.vgpr[r] != y.vgpr[r] {
                return false;
            }
        }
    }
    (!f.lds || a.1.diff(b.1).next().is_none()) && (!f.mem || a.2.diff(b.2).next().is_none())
}

/// A copy of everything a run can change.
struct Snap {
    wave: Box<Wave>,
    lds: Lds,
    mem: Memory,
}

/// A copy of `m` (same regions, same bytes).
pub fn clone_memory(m: &Memory) -> Memory {
    m.duplicate()
}

impl Snap {
    fn of(wave: &Wave, lds: &Lds, mem: &Memory) -> Snap {
        Snap {
            wave: Box::new(wave.clone()),
            lds: lds.clone(),
            mem: clone_memory(mem),
        }
    }
    fn dup(&self) -> Snap {
        Snap::of(&self.wave, &self.lds, &self.mem)
    }
    /// Put this state back into `ctx` (the memory word by word, in place).
    fn restore(&self, ctx: &mut Ctx<'_>) {
        ctx.wave.clone_from(&*self.wave);
        ctx.lds.clone_from(&self.lds);
        for r in self.mem.regions() {
            let mut b = vec![0u8; r.len as usize];
            if self.mem.read(r.base, &mut b).is_ok() {
                let _ = ctx.mem.write(r.base, &b);
            }
        }
    }
    fn ctx(&mut self) -> Ctx<'_> {
        Ctx {
            wave: &mut self.wave,
            lds: &mut self.lds,
            mem: &self.mem,
        }
    }
}

/// The first difference between two machine states (the interpreter's, the JIT's):
/// registers, then LDS, then memory (`wavejit_isa::state::diff`).
fn first_difference(a: (&Wave, &Lds, &Memory), b: (&Wave, &Lds, &Memory)) -> Option<Difference> {
    a.0.diff(b.0)
        .chain(a.1.diff(b.1))
        .chain(a.2.diff(b.2))
        .next()
}

fn describe(r: &Result<(u64, Option<Step>), ExecError>) -> String {
    match r {
        Ok((n, s)) => format!(
            "{n} instructions, {}",
            s.map_or("continues".to_string(), |s| format!("{s:?}"))
        ),
        Err(e) => format!("error: {e}"),
    }
}

/// Step the interpreter `n` instructions (fewer if it stops or fails), counting into
/// `prof` when given.
fn interp_n(
    ctx: &mut Ctx<'_>,
    prog: &Program,
    n: u64,
    mut prof: Option<&mut Profile>,
) -> Result<(u64, Option<Step>), ExecError> {
    for i in 0..n {
        let s = match prof.as_deref_mut() {
            Some(p) => wavejit_interp::profile::step(ctx, prog, p)?,
            None => wavejit_interp::step(ctx, prog)?,
        };
        match s {
            Step::Continue => {}
            s => return Ok((i + 1, Some(s))),
        }
    }
    Ok((n, None))
}

fn mnemonic_at(prog: &Program, pc: u32) -> String {
    match prog
        .slot_index(pc)
        .and_then(|i| prog.slots.get(i))
        .map(|s| &s.inst)
    {
        Some(Ok(IrInst::Gcn(g))) => g.op.mnemonic().to_string(),
        _ => "?".into(),
    }
}

/// Run `prog` in both engines from `ctx`'s state. `ctx` ends in the interpreter's state.
/// An error both engines agree on is returned as the error; any disagreement is a
/// `Mismatch` in the result.
pub fn diff_run(ctx: &mut Ctx<'_>, prog: &Program, max_insts: u64) -> Result<DiffRun, ExecError> {
    diff_run_with(JitConfig::default(), ctx, prog, max_insts)
}

/// `diff_run`, with the interpreter's side counting profile events into `prof` (the
/// reference counts: the run continues from the interpreter's state).
pub fn diff_run_profiled(
    ctx: &mut Ctx<'_>,
    prog: &Program,
    max_insts: u64,
    prof: &mut Profile,
) -> Result<DiffRun, ExecError> {
    diff_run_inner(JitConfig::default(), ctx, prog, max_insts, Some(prof))
}

/// `diff_run` with the JIT configured by `config` (chaining is turned off: blocks must
/// return one at a time).
pub fn diff_run_with(
    config: JitConfig,
    ctx: &mut Ctx<'_>,
    prog: &Program,
    max_insts: u64,
) -> Result<DiffRun, ExecError> {
    diff_run_inner(config, ctx, prog, max_insts, None)
}

fn diff_run_inner(
    config: JitConfig,
    ctx: &mut Ctx<'_>,
    prog: &Program,
    max_insts: u64,
    prof: Option<&mut Profile>,
) -> Result<DiffRun, ExecError> {
    diff_run_jit(&diff_jit(config), ctx, prog, max_insts, prof)
}

/// A JIT for `diff_run_on`: `config` with chaining turned off (blocks must return one at
/// a time).
pub fn diff_jit(config: JitConfig) -> Jit {
    Jit::new(JitConfig {
        chain: false,
        ..config
    })
}

/// `diff_run` on `jit` (made by `diff_jit`), which keeps its compiled code for the next
/// run: the waves of a grid compile each block once, not once per wave. A JIT that
/// chains blocks is not used (a fresh one is made).
pub fn diff_run_on(
    jit: &Jit,
    ctx: &mut Ctx<'_>,
    prog: &Program,
    max_insts: u64,
) -> Result<DiffRun, ExecError> {
    if jit.config().chain {
        return diff_run_inner(*jit.config(), ctx, prog, max_insts, None);
    }
    diff_run_jit(jit, ctx, prog, max_insts, None)
}

/// `diff_run_profiled` on `jit` (see `diff_run_on`).
pub fn diff_run_profiled_on(
    jit: &Jit,
    ctx: &mut Ctx<'_>,
    prog: &Program,
    max_insts: u64,
    prof: &mut Profile,
) -> Result<DiffRun, ExecError> {
    if jit.config().chain {
        return diff_run_inner(*jit.config(), ctx, prog, max_insts, Some(prof));
    }
    diff_run_jit(jit, ctx, prog, max_insts, Some(prof))
}

fn diff_run_jit(
    jit: &Jit,
    ctx: &mut Ctx<'_>,
    prog: &Program,
    max_insts: u64,
    prof: Option<&mut Profile>,
) -> Result<DiffRun, ExecError> {
    let init = Snap::of(ctx.wave, ctx.lds, ctx.mem);
    // A profiled run counts as it goes: it cannot start again, so it compares whole
    // states throughout.
    let whole = prof.is_some();
    match run_pass(jit, ctx, prog, max_insts, prof, &init, whole) {
        Pass::Done(r) => r,
        Pass::Missed => {
            init.restore(ctx);
            match run_pass(jit, ctx, prog, max_insts, None, &init, true) {
                Pass::Done(r) => r,
                Pass::Missed => unreachable!("a pass comparing whole states misses nothing"),
            }
        }
    }
}

/// How a pass of `diff_run` ended.
enum Pass {
    Done(Result<DiffRun, ExecError>),
    /// A comparison of whole states found a difference the footprint checks had missed.
    Missed,
}

/// Step the interpreter `n` instructions like `interp_n`; also says whether every
/// instruction it ran lies in `f`'s range.
fn interp_within(
    ctx: &mut Ctx<'_>,
    prog: &Program,
    n: u64,
    f: &Footprint,
) -> (Result<(u64, Option<Step>), ExecError>, bool) {
    let mut inside = true;
    for i in 0..n {
        let pc = ctx.wave.pc;
        inside &= pc >= f.start && pc < f.end;
        match wavejit_interp::step(ctx, prog) {
            Err(e) => return (Err(e), inside),
            Ok(Step::Continue) => {}
            Ok(s) => return (Ok((i + 1, Some(s))), inside),
        }
    }
    (Ok((n, None)), inside)
}

fn run_pass(
    jit: &Jit,
    ctx: &mut Ctx<'_>,
    prog: &Program,
    max_insts: u64,
    mut prof: Option<&mut Profile>,
    init: &Snap,
    whole: bool,
) -> Pass {
    let mut j = init.dup();
    let mut done = 0u64;
    let mut blocks = 0u64;
    let mut feet: std::collections::HashMap<u32, Footprint> = std::collections::HashMap::new();
    // Whether the last comparison of whole states was equal (false after a block whose
    // states were only checked against its footprint).
    let mut checked_whole = true;
    loop {
        if done >= max_insts {
            if !checked_whole
                && first_difference((ctx.wave, ctx.lds, ctx.mem), (&j.wave, &j.lds, &j.mem))
                    .is_some()
            {
                return Pass::Missed;
            }
            return Pass::Done(Err(ExecError {
                pc: ctx.wave.pc,
                kind: ExecErrorKind::InstLimit(max_insts),
            }));
        }
        let pc = ctx.wave.pc;
        let rb = {
            let mut jc = j.ctx();
            jit.step_unit(&mut jc, prog, max_insts - done)
                .map(|u: UnitStep| (u.insts, u.stop))
        };
        // A unit that failed ran up to its failing instruction: the interpreter runs as far
        // (it stops at its own first error), so both report the fault at the same place.
        let n = match &rb {
            Ok(r) => r.0.max(1),
            Err(e) => steps_to(prog, pc, e.pc).min(max_insts - done).max(1),
        };
        let foot = if whole {
            None
        } else {
            Some(
                feet.entry(pc)
                    .or_insert_with(|| Footprint::of(prog, pc))
                    .clone(),
            )
        };
        let (ra, inside) = match &foot {
            Some(f) if !f.is_all() => interp_within(ctx, prog, n, f),
            _ => (interp_n(ctx, prog, n, prof.as_deref_mut()), false),
        };
        blocks += 1;
        let results_differ = match (&ra, &rb) {
            (Ok(a), Ok(b)) => a != b,
            (Err(a), Err(b)) => a != b,
            _ => true,
        };
        let ends = !matches!(ra, Ok((_, None)));
        let only_foot = match &foot {
            Some(f) => {
                inside && !ends && !results_differ && !blocks.is_multiple_of(FULL_EVERY) && {
                    same_after((ctx.wave, ctx.lds, ctx.mem), (&j.wave, &j.lds, &j.mem), f)
                }
            }
            None => false,
        };
        let state_diff = if only_foot {
            None
        } else {
            first_difference((ctx.wave, ctx.lds, ctx.mem), (&j.wave, &j.lds, &j.mem))
        };
        if (results_differ || state_diff.is_some()) && !checked_whole {
            // Maybe an earlier block's: find out comparing whole states throughout.
            return Pass::Missed;
        }
        checked_whole = !only_foot;
        if results_differ || state_diff.is_some() {
            let mut m = locate(jit, prog, init, done, pc, n);
            if m.is_none() {
                let (what, a, b) = match state_diff {
                    Some(d) if !results_differ => (d.place.to_string(), d.a, d.b),
                    _ => ("result".to_string(), describe(&ra), describe(&rb)),
                };
                m = Some(Mismatch {
                    pc,
                    mnemonic: mnemonic_at(prog, pc),
                    narrowed: false,
                    what,
                    interp: a,
                    jit: b,
                });
            }
            return Pass::Done(Ok(DiffRun {
                stats: RunStats { insts: done + n },
                stop: None,
                mismatch: m,
                blocks,
            }));
        }
        let (k, stop) = match ra {
            Ok(r) => r,
            Err(e) => return Pass::Done(Err(e)),
        };
        done += k;
        if let Some(s) = stop {
            return Pass::Done(Ok(DiffRun {
                stats: RunStats { insts: done },
                stop: Some(s),
                mismatch: None,
                blocks,
            }));
        }
    }
}

/// Instructions from `pc` up to and including the one at `fault` along the straight-line
/// code of a unit (units run without chaining here, so at most one pass over a block).
/// A fault with no instruction of its own after `pc` (running off the end of the code, a
/// jump into the middle of an instruction) is reached after every instruction from `pc`
/// on, so count those and one more; the interpreter stops at its own first error anyway.
fn steps_to(prog: &Program, pc: u32, fault: u32) -> u64 {
    let Some(i0) = prog.slot_index(pc) else {
        return 1;
    };
    match prog.slot_index(fault) {
        Some(j) if j >= i0 => (j - i0 + 1) as u64,
        _ => (prog.slots.len() - i0 + 1) as u64,
    }
}

/// Replay the block at `pc` (entered after `before` instructions from `init`) as compiled
/// prefixes of 1, 2, … instructions against the interpreter, and name the first
/// instruction after which they differ.
fn locate(
    jit: &Jit,
    prog: &Program,
    init: &Snap,
    before: u64,
    pc: u32,
    n: u64,
) -> Option<Mismatch> {
    let mut start = init.dup();
    {
        let mut c = start.ctx();
        let mut left = before;
        while left > 0 {
            let (k, _) = interp_n(&mut c, prog, left, None).ok()?;
            left -= k.min(left);
            if k == 0 {
                break;
            }
        }
    }
    if start.wave.pc != pc {
        return None;
    }
    let i0 = prog.slot_index(pc)?;
    for k in 1..=n.min(4096) {
        let spec = Spec {
            pc,
            mode: start.wave.mode,
            exec_all: start.wave.exec == u64::MAX,
            max_len: k as u32,
        };
        let f = jit.compile_detached(prog, spec)?;
        let mut a = start.dup();
        let mut b = start.dup();
        let ra = {
            let mut c = a.ctx();
            interp_n(&mut c, prog, k, None)
        };
        let rb = {
            let mut c = b.ctx();
            jit.call_unit(&mut c, prog, f, k).map(|u| (u.insts, u.stop))
        };
        let diff = first_difference((&a.wave, &a.lds, &a.mem), (&b.wave, &b.lds, &b.mem));
        let results_differ = match (&ra, &rb) {
            (Ok(x), Ok(y)) => x != y,
            (Err(x), Err(y)) => x != y,
            _ => true,
        };
        if diff.is_some() || results_differ {
            let slot = prog.slots.get(i0 + k as usize - 1)?;
            let (what, x, y) = match diff {
                Some(d) if !results_differ => (d.place.to_string(), d.a, d.b),
                _ => ("result".into(), describe(&ra), describe(&rb)),
            };
            return Some(Mismatch {
                pc: slot.pc,
                mnemonic: mnemonic_at(prog, slot.pc),
                narrowed: true,
                what,
                interp: x,
                jit: y,
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use wavejit_isa::{Arch, Gen};

    /// The footprint of the one-instruction block `text` (then `s_endpgm`).
    fn foot(text: &str) -> Footprint {
        let a = wavejit_isa::gcn::asm::assemble(Gen::Gfx8, &format!("{text}\ns_endpgm"))
            .expect("assembles");
        Footprint::of(&Program::new(Arch::Gcn(Gen::Gfx8), &a.bytes), 0)
    }

    fn regs(f: &Footprint) -> Vec<usize> {
        (0..256)
            .filter(|r| f.vgprs[r / 64] >> (r % 64) & 1 != 0)
            .collect()
    }

    #[test]
    fn memory_instructions_write_what_they_name() {
        // A DS read: the four registers from its destination, neither LDS nor memory.
        let f = foot("ds_read_b32 v5, v1");
        assert!(!f.is_all() && !f.lds && !f.mem);
        assert_eq!(regs(&f), [5, 6, 7, 8]);
        // A DS write or atomic: LDS.
        let f = foot("ds_write_b32 v1, v2");
        assert!(!f.is_all() && f.lds && !f.mem);
        let f = foot("ds_add_u32 v1, v2");
        assert!(f.lds && !f.mem);
        // Buffer and flat loads: five registers (four dwords and TFE's), no memory.
        let f = foot("buffer_load_dword v7, off, s[4:7], 0");
        assert!(!f.is_all() && !f.lds && !f.mem);
        assert_eq!(regs(&f), [7, 8, 9, 10, 11]);
        let f = foot("flat_load_dword v3, v[0:1]");
        assert!(!f.lds && !f.mem);
        // Stores write memory; a flat one may write LDS as well.
        let f = foot("buffer_store_dword v7, off, s[4:7], 0");
        assert!(f.mem && !f.lds);
        let f = foot("flat_store_dword v[0:1], v3");
        assert!(f.mem && f.lds);
        // Exports: everything is compared.
        assert!(foot("exp mrt0 v0, v0, v0, v0").is_all());
    }
}
