//! Profiling counters: what a GPU profiler reports, counted exactly per instruction.
//!
//! The interpreter defines the counts; the JIT reproduces them (compiled code counts
//! issues and active lanes itself, and calls back here only for what needs addresses or a
//! branch outcome of an instruction it runs through the interpreter helper). Per program
//! slot (instruction), [`InstCounters`] holds:
//! - `execs`: how many times a wave issued it;
//! - `lanes`: the sum over those issues of the active lanes, popcount(EXEC) *before* the
//!   instruction (the lanes it runs for; a `v_cmpx` counts the lanes it compared);
//! - `taken`: for a conditional branch (`BranchKind::Conditional`), the issues after
//!   which the wave continued somewhere other than the next instruction. Unconditional
//!   jumps are taken on every issue, so that is not counted; not-taken is `execs - taken`;
//! - `bank_conflicts`: LDS bank-conflict cycles of a DS instruction ([`bank_conflicts`]).
//!
//! Everything else a report shows (bytes fetched and written, instruction mix, VALU
//! utilisation) follows from these and the instruction itself (`crate::mem::traffic`).

use wavejit_isa::gcn::DsFields;
use wavejit_isa::gcn::{self, BranchIf, Fields, Op};
use wavejit_isa::ir::{Inst, Program};
use wavejit_isa::state::{Wave, LANES};

use crate::ctx::{Ctx, RunStats, Step};
use crate::error::ExecError;

/// Counters of one instruction. `#[repr(C)]`: compiled code adds to `execs`, `lanes` and
/// `taken` at the offsets below.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InstCounters {
    pub execs: u64,
    pub lanes: u64,
    pub taken: u64,
    pub bank_conflicts: u64,
}

pub const OFF_EXECS: i32 = std::mem::offset_of!(InstCounters, execs) as i32;
pub const OFF_LANES: i32 = std::mem::offset_of!(InstCounters, lanes) as i32;
pub const OFF_TAKEN: i32 = std::mem::offset_of!(InstCounters, taken) as i32;
pub const COUNTERS_SIZE: i32 = std::mem::size_of::<InstCounters>() as i32;

impl InstCounters {
    pub fn add(&mut self, o: &InstCounters) {
        self.execs += o.execs;
        self.lanes += o.lanes;
        self.taken += o.taken;
        self.bank_conflicts += o.bank_conflicts;
    }
}

/// The counters of one program, indexed by slot (`Program::slots`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Profile {
    pub insts: Vec<InstCounters>,
}

impl Profile {
    /// Zero counters for every slot of `prog`.
    pub fn for_program(prog: &Program) -> Profile {
        Profile {
            insts: vec![InstCounters::default(); prog.slots.len()],
        }
    }

    /// Add `other`'s counts (a profile of the same program, e.g. another host thread's).
    pub fn merge(&mut self, other: &Profile) {
        if self.insts.len() < other.insts.len() {
            self.insts
                .resize(other.insts.len(), InstCounters::default());
        }
        for (a, b) in self.insts.iter_mut().zip(&other.insts) {
            a.add(b);
        }
    }

    /// Whether nothing has been counted.
    pub fn is_empty(&self) -> bool {
        self.insts.iter().all(|c| c.execs == 0)
    }
}

/// How an instruction changes the program counter, for the taken/not-taken counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BranchKind {
    NotABranch,
    /// Always continues elsewhere (`s_branch`, `s_setpc_b64`, `s_swappc_b64`).
    Always,
    /// Continues elsewhere or at the next instruction, decided at run time.
    Conditional,
}

/// The SOPP branches come from the table (`Op::branch`); the jumps to a computed address
/// are the scalar instructions that write the PC.
pub fn branch_kind(op: Op) -> BranchKind {
    use Op::*;
    match (op.branch(), op) {
        (Some(BranchIf::Always), _) | (None, SSetpcB64 | SSwappcB64) => BranchKind::Always,
        (Some(_), _) | (None, SCbranchGFork | SCbranchIFork | SCbranchJoin) => {
            BranchKind::Conditional
        }
        (None, _) => BranchKind::NotABranch,
    }
}

/// GCN's LDS: 32 banks, each 4 bytes wide; bank = (byte address / 4) mod 32.
pub const LDS_BANKS: u64 = 32;
/// Lanes the LDS serves per pass: a wave's DS instruction goes through it a half-wave at
/// a time.
pub const LDS_LANES_PER_PASS: usize = 32;

/// Bank-conflict cycles of the DS instruction `inst` on `wave`'s current state (before
/// it runs), counted as the hardware serves it:
/// - each half-wave (lanes 0-31, then 32-63) is a pass;
/// - within a pass, each dword of each access (a b64 access is two dwords; `read2` two
///   accesses) is one request of up to 32 lanes;
/// - a request takes as many cycles as the most distinct dword addresses that fall in one
///   bank (lanes reading the same dword share it: a broadcast is not a conflict);
/// - its conflict cycles are that number minus one.
///
/// So 32 active lanes with a stride of `s` dwords conflict `gcd(s, 32) - 1` cycles per
/// request. Instructions that touch no LDS memory count 0.
pub fn bank_conflicts(inst: &gcn::Inst, wave: &Wave) -> u64 {
    bank_conflicts_with_exec(inst, wave, wave.exec)
}

/// [`bank_conflicts`] with the lanes of `exec` active (compiled code passes the EXEC it
/// holds, which the wave's copy may not have caught up with).
pub fn bank_conflicts_with_exec(inst: &gcn::Inst, wave: &Wave, exec: u64) -> u64 {
    let (Some(acc), Fields::Ds(DsFields { addr, .. })) =
        (crate::mem::ds::lane_accesses(inst), inst.fields)
    else {
        return 0;
    };
    let dwords = acc.size.div_ceil(4) as u64;
    let Some(base) = wave.vgpr.get(addr as usize) else {
        return 0;
    };
    let mut total = 0;
    for pass in 0..LANES / LDS_LANES_PER_PASS {
        let first = pass * LDS_LANES_PER_PASS;
        let active = (exec >> first) as u32;
        if active == 0 {
            continue;
        }
        for off in &acc.offsets[..acc.count] {
            // The dword addresses of the first dword of each active lane's access. The
            // request for dword `d` is every address plus `d`: the banks rotate together,
            // so each of the `dwords` requests conflicts as often as the first.
            let mut words = [0u64; LDS_LANES_PER_PASS];
            let mut n = 0;
            for l in 0..LDS_LANES_PER_PASS {
                if (active >> l) & 1 != 0 {
                    words[n] = (base[first + l] as u64 + off) >> 2;
                    n += 1;
                }
            }
            total += dwords * request_conflicts(&mut words[..n]);
        }
    }
    total
}

/// Conflict cycles of one LDS request for the dword addresses `words` (one per active
/// lane; reordered): the most distinct addresses that share a bank, minus one.
fn request_conflicts(words: &mut [u64]) -> u64 {
    let (Some(&lo), Some(&hi)) = (words.iter().min(), words.iter().max()) else {
        return 0;
    };
    // Two distinct addresses in one bank differ by a multiple of 32: none do when all
    // lie within 32 consecutive dwords (a broadcast, a unit stride, any permutation).
    if hi - lo < LDS_BANKS {
        return 0;
    }
    words.sort_unstable();
    let mut per_bank = [0u8; LDS_BANKS as usize];
    let mut prev = None;
    for &w in words.iter() {
        if prev != Some(w) {
            per_bank[(w % LDS_BANKS) as usize] += 1;
            prev = Some(w);
        }
    }
    let cycles = per_bank.iter().copied().max().unwrap_or(0) as u64;
    cycles.saturating_sub(1)
}

/// What the profiler counts before `inst` runs, besides the issue itself: the LDS bank
/// conflicts, which need the addresses in the state before it.
pub fn count_before(c: &mut InstCounters, inst: &gcn::Inst, wave: &Wave) {
    if matches!(inst.enc, gcn::Enc::Ds) {
        c.bank_conflicts += bank_conflicts(inst, wave);
    }
}

/// What the profiler counts after `inst` (at `pc`, `size` bytes) ran: whether a
/// conditional branch was taken.
pub fn count_after(c: &mut InstCounters, inst: &gcn::Inst, pc: u32, size: u32, wave: &Wave) {
    if branch_kind(inst.op) == BranchKind::Conditional && wave.pc != pc.wrapping_add(size) {
        c.taken += 1;
    }
}

/// The issue itself: one more execution, with the lanes active before it.
pub fn count_issue(c: &mut InstCounters, exec: u64) {
    c.execs += 1;
    c.lanes += exec.count_ones() as u64;
}

/// `crate::step`, counting into `prof` (a profile of `prog`). An instruction that fails
/// is counted as issued (its error ends the run).
pub fn step(ctx: &mut Ctx<'_>, prog: &Program, prof: &mut Profile) -> Result<Step, ExecError> {
    if prof.insts.len() < prog.slots.len() {
        prof.insts.resize(prog.slots.len(), InstCounters::default());
    }
    step_counting(ctx, prog, &mut prof.insts)
}

/// [`step`] over the counters themselves (one per slot of `prog`; an instruction past
/// their end is run uncounted).
pub fn step_counting(
    ctx: &mut Ctx<'_>,
    prog: &Program,
    counters: &mut [InstCounters],
) -> Result<Step, ExecError> {
    let pc = ctx.wave.pc;
    let found = prog.slot_index(pc).and_then(|i| match prog.slots.get(i) {
        Some(s) => match &s.inst {
            Ok(Inst::Gcn(g)) => Some((i, g, s.size)),
            _ => None,
        },
        None => None,
    });
    let Some((i, inst, size)) = found.filter(|f| f.0 < counters.len()) else {
        // Not an instruction this profile can name: the interpreter reports why.
        return crate::step(ctx, prog);
    };
    let c = &mut counters[i];
    count_issue(c, ctx.wave.exec);
    count_before(c, inst, ctx.wave);
    let s = crate::exec::exec_inst(ctx, inst, pc, size).map_err(|kind| ExecError { pc, kind })?;
    count_after(&mut counters[i], inst, pc, size, ctx.wave);
    Ok(s)
}

/// `crate::run`, counting into `prof`.
pub fn run(
    ctx: &mut Ctx<'_>,
    prog: &Program,
    max_insts: u64,
    prof: &mut Profile,
) -> Result<(Step, RunStats), ExecError> {
    crate::exec::run_steps(ctx, max_insts, |ctx| step(ctx, prog, prof))
}
