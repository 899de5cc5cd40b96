//! The contract between compiled code and the Rust side: the `JitCtx` a block receives
//! next to `&mut Wave`, the exit codes a block returns, and the `extern "C"` helpers that
//! compiled code may call.
//!
//! A compiled block is `fn(wave: *mut Wave, ctx: *mut JitCtx) -> u32` (tail-call
//! convention, entered from Rust through the trampoline of `cache.rs`). It returns one of
//! the `EXIT_*` codes with `wave.pc` holding the pc to continue at.

use std::panic::{catch_unwind, AssertUnwindSafe};

use wavejit_interp::profile::{self, InstCounters, Profile};
use wavejit_interp::{Ctx, ExecError, ExecErrorKind, Step};
use wavejit_isa::ir::Program;
use wavejit_isa::state::{Lds, Memory, Wave};

/// `wave.pc` is the next pc to run; ask the dispatcher.
pub const EXIT_NEXT: u32 = 0;
/// The wave executed `s_endpgm`.
pub const EXIT_END: u32 = 1;
/// The wave reached `s_barrier`.
pub const EXIT_BARRIER: u32 = 2;
/// An instruction failed; the error is in `JitCtx::err`.
pub const EXIT_ERROR: u32 = 3;
/// Quick-tier code (`JitConfig::hot_threshold`) at `wave.pc` has been entered
/// `hot_threshold` times: compile its optimised variant for EXEC all ones
/// (`EXIT_HOT_FULL`) or any EXEC (`EXIT_HOT_MASKED`), then continue at `wave.pc`.
/// Nothing has run: the code returns at its header, with the state as it was entered.
pub const EXIT_HOT_FULL: u32 = 4;
pub const EXIT_HOT_MASKED: u32 = 5;

/// What compiled code sees besides the wave. `#[repr(C)]`: the generated code reads
/// `budget` at a fixed offset; every other field is touched only by Rust helpers.
#[repr(C)]
pub struct JitCtx {
    /// Instructions the run may still execute. A block entered with fewer than its length
    /// left returns to the dispatcher at its first pc, which then steps the interpreter up
    /// to the exact limit (so both engines stop at the same instruction).
    pub budget: i64,
    pub lds: *mut Lds,
    pub mem: *const Memory,
    pub prog: *const Program,
    /// The error of an `EXIT_ERROR`.
    pub err: Option<ExecError>,
    /// Instructions run by helpers through the interpreter (statistics).
    pub helper_steps: u64,
    /// The LDS bytes as compiled code reads them (inline VINTRP): first byte and length,
    /// taken from `lds` when the context is made (nothing resizes the LDS during a run).
    pub lds_base: *const u8,
    pub lds_len: u64,
    /// The run's profile counters, one per program slot (`InstCounters`), or null when the
    /// run is not profiled. Code compiled with `JitConfig::profile` adds to them at
    /// `OFF_PROF`; the helper adds what needs the interpreter's view.
    pub prof: *mut InstCounters,
    pub prof_len: u64,
    /// Readable zeros: where inline LDS reads point when no lane is active and the LDS
    /// address may be out of bounds (the values read are then never used).
    pub zeros: [u32; 16],
    /// The global regions inline memory accesses hit last (`mem::global`): `G_SLOTS`
    /// slots, one per access by its place in the unit (so that accesses of different
    /// buffers do not evict each other). They are the thread's (`RegionCache`), kept from
    /// one run to the next while the same `Memory` is unchanged, or (a second context
    /// live on the thread) this context's own.
    pub gcache: *mut GRegion,
    /// This context's own slots when it does not use the thread's.
    own_gcache: Option<Box<[GRegion; G_SLOTS]>>,
    /// Where inline accesses of inactive lanes read and write (never read back).
    pub sink: [u32; 4],
    /// Addresses compiled code uses, read from here rather than built into the code, so
    /// that a unit's machine code depends only on its program, specialisation and
    /// compiler settings and can be kept on disk (`crate::disk`): the program's entry
    /// slots (chaining), the helpers, and a readable block of zeros covering every DS
    /// offset.
    pub slots: *const u8,
    pub helper: usize,
    pub mem_span: usize,
    pub lds_zeros: *const u8,
    pub profile_ds: usize,
}

/// `pub const NAME: i32` byte offsets of a `#[repr(C)]` struct's fields, for compiled
/// code that addresses them directly.
/// With `layout NAME`, also `pub const NAME: &[i32]`: the offsets in order and the
/// struct's size, which the disk cache's key includes (compiled code builds them in).
macro_rules! field_offsets {
    ($ty:ty { $($name:ident: $field:ident),* $(,)? }) => {
        $(pub const $name: i32 = ::std::mem::offset_of!($ty, $field) as i32;)*
    };
    ($ty:ty { $($name:ident: $field:ident),* $(,)? } layout $layout:ident) => {
        $crate::ctx::field_offsets!($ty { $($name: $field),* });
        pub const $layout: &[i32] = &[$($name,)* ::std::mem::size_of::<$ty>() as i32];
    };
}
pub(crate) use field_offsets;

field_offsets!(JitCtx {
    OFF_BUDGET: budget,
    OFF_LDS_BASE: lds_base,
    OFF_LDS_LEN: lds_len,
    OFF_ZEROS: zeros,
    OFF_GCACHE: gcache,
    OFF_SINK: sink,
    OFF_PROF: prof,
    OFF_SLOTS: slots,
    OFF_HELPER: helper,
    OFF_MEM_SPAN: mem_span,
    OFF_LDS_ZEROS: lds_zeros,
    OFF_PROFILE_DS: profile_ds,
} layout CTX_LAYOUT);

/// Slots of `JitCtx::gcache`.
pub const G_SLOTS: usize = 8;

/// A cached global region: guest `lo..end` is at host address guest + `delta` (empty:
/// `lo` above `end`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GRegion {
    pub lo: u64,
    pub end: u64,
    pub delta: u64,
}

pub const G_EMPTY: GRegion = GRegion {
    lo: u64::MAX,
    end: 0,
    delta: 0,
};
pub const G_SIZE: i32 = std::mem::size_of::<GRegion>() as i32;
field_offsets!(GRegion {
    G_OFF_LO: lo,
    G_OFF_END: end,
    G_OFF_DELTA: delta,
} layout G_LAYOUT);

/// A thread's region cache: the slots and what they were learned under — the memory (its
/// address and its region list's, which another `Memory` moved to that address would not
/// share) and `Memory::map_epoch`.
struct RegionCache {
    in_use: std::cell::Cell<bool>,
    key: std::cell::Cell<(usize, usize, u64)>,
    slots: std::cell::UnsafeCell<[GRegion; G_SLOTS]>,
}

thread_local! {
    static REGIONS: RegionCache = const {
        RegionCache {
            in_use: std::cell::Cell::new(false),
            key: std::cell::Cell::new((0, 0, u64::MAX)),
            slots: std::cell::UnsafeCell::new([G_EMPTY; G_SLOTS]),
        }
    };
}

/// The region slots for a run over `mem`: the thread's, emptied unless they were learned
/// under this memory and epoch, or `None` when another context on this thread holds them.
fn thread_regions(mem: &Memory) -> Option<*mut GRegion> {
    let key = (
        mem as *const Memory as usize,
        mem.regions().as_ptr() as usize,
        Memory::map_epoch(),
    );
    REGIONS.with(|r| {
        if r.in_use.replace(true) {
            return None;
        }
        let p = r.slots.get();
        if r.key.replace(key) != key {
            // SAFETY: `in_use` was false: no context points at the slots.
            unsafe { *p = [G_EMPTY; G_SLOTS] };
        }
        Some(p.cast::<GRegion>())
    })
}

impl Drop for JitCtx {
    fn drop(&mut self) {
        if self.own_gcache.is_none() {
            REGIONS.with(|r| r.in_use.set(false));
        }
    }
}

impl JitCtx {
    /// A context for a run of `prog` over `lds` and `mem` with `budget` instructions;
    /// `slots` is the program's entry slot table, `mem_span` and `lds_zeros` the memory
    /// layer's (`engine::context` passes them: this module sits below both).
    pub fn new(
        budget: i64,
        lds: &mut Lds,
        mem: &Memory,
        prog: &Program,
        slots: *const u8,
        (mem_span, lds_zeros): (usize, *const u8),
    ) -> JitCtx {
        let lds_base = lds.bytes.as_ptr();
        let lds_len = lds.bytes.len() as u64;
        let (gcache, own_gcache) = match thread_regions(mem) {
            Some(p) => (p, None),
            None => {
                let mut b = Box::new([G_EMPTY; G_SLOTS]);
                (b.as_mut_ptr(), Some(b))
            }
        };
        JitCtx {
            budget,
            lds,
            mem,
            prog,
            err: None,
            helper_steps: 0,
            lds_base,
            lds_len,
            prof: std::ptr::null_mut(),
            prof_len: 0,
            zeros: [0; 16],
            gcache,
            own_gcache,
            sink: [0; 4],
            slots,
            helper: helper_step as *const () as usize,
            mem_span,
            lds_zeros,
            profile_ds: profile_ds as *const () as usize,
        }
    }

    /// Count into `prof` (sized for the run's program) from now on.
    pub fn set_profile(&mut self, prof: &mut Profile) {
        self.prof = prof.insts.as_mut_ptr();
        self.prof_len = prof.insts.len() as u64;
    }

    /// The run's counters, when it is profiled.
    pub fn counters_mut(&mut self) -> Option<&mut [InstCounters]> {
        if self.prof.is_null() {
            return None;
        }
        // SAFETY: `prof` points at `prof_len` counters that the caller of `set_profile`
        // lent for the whole run; only this thread touches them, and compiled code does
        // not run while this borrow lives.
        Some(unsafe { std::slice::from_raw_parts_mut(self.prof, self.prof_len as usize) })
    }

    fn counters(&mut self, i: usize) -> Option<&mut InstCounters> {
        self.counters_mut()?.get_mut(i)
    }
}

/// Byte offsets of the `Wave` fields compiled code addresses directly.
pub mod wave_off {
    use super::*;
    use crate::slots;
    field_offsets!(Wave {
        VGPR: vgpr,
        SGPR: sgpr,
        EXEC: exec,
        VCC: vcc,
        M0: m0,
        SCC: scc,
        MODE: mode,
        PC: pc,
        CODE_BASE: code_base,
    } layout LAYOUT);

    /// Offset of the 16-byte chunk `chunk` (lanes 4c..4c+3) of `v[reg]`.
    pub fn vgpr_chunk(reg: u8, chunk: usize) -> i32 {
        VGPR + (reg as i32) * 256 + (chunk as i32) * 16
    }

    /// Offset of the 32-bit scalar slot (encoding number 0-127), routed as
    /// `Wave::read_sreg` does: VCC, M0 and EXEC live in their own fields.
    pub fn sreg(slot: u8) -> i32 {
        match slot & 127 {
            slots::VCC_LO => VCC,
            slots::VCC_HI => VCC + 4,
            slots::M0 => M0,
            slots::EXEC_LO => EXEC,
            slots::EXEC_HI => EXEC + 4,
            s => SGPR + 4 * s as i32,
        }
    }
}

/// Profiling: add the LDS bank conflicts of the DS instruction at `pc` to its counters,
/// from the address VGPR in `wave` (compiled code stores the registers first) and the
/// `exec` the code holds. Compiled code calls this before a DS instruction it lowers
/// inline, so the count is the interpreter's (`profile::bank_conflicts`) at a call's cost.
///
/// # Safety
/// `wave` and `ctx` are the pointers the dispatcher passed to the block, valid and not
/// otherwise borrowed for the duration of the call.
pub unsafe extern "C" fn profile_ds(wave: *const Wave, ctx: *mut JitCtx, pc: u64, exec: u64) {
    let (wave, ctx) = unsafe { (&*wave, &mut *ctx) };
    // SAFETY: the dispatcher set `prog` from a live reference for this run.
    let prog = unsafe { &*ctx.prog };
    let Some(i) = prog.slot_index(pc as u32) else {
        return;
    };
    let Some(Ok(wavejit_isa::ir::Inst::Gcn(g))) = prog.slots.get(i).map(|s| &s.inst) else {
        return;
    };
    let n = profile::bank_conflicts_with_exec(g, wave, exec);
    if let Some(c) = ctx.counters(i) {
        c.bank_conflicts += n;
    }
}

/// Run one instruction (the one at `pc`'s low 32 bits) through the reference
/// interpreter, or `n` = `pc >> 32` (> 1) instructions from there in program order (a cold
/// side exit replaying a run of instructions up to the one whose inline check failed: one
/// call, however long the run). Compiled code calls this for instructions it does not
/// lower inline (memory accesses with their bounds checks, rare complex operations):
/// registers are flushed to `wave` before and reloaded after. Returns an `EXIT_*` code;
/// `EXIT_NEXT` means the instructions completed and `wave.pc` holds the successor of the
/// last.
///
/// # Safety
/// `wave` and `ctx` are the pointers the dispatcher passed to the block, valid and not
/// otherwise borrowed for the duration of the call.
pub unsafe extern "C" fn helper_step(wave: *mut Wave, ctx: *mut JitCtx, pc: u64) -> u32 {
    let (wave, ctx) = unsafe { (&mut *wave, &mut *ctx) };
    let n = (pc >> 32).max(1);
    wave.pc = pc as u32;
    for _ in 0..n {
        let r = step_one(wave, ctx);
        if r != EXIT_NEXT {
            return r;
        }
    }
    EXIT_NEXT
}

/// `helper_step` of the one instruction at `wave.pc`.
fn step_one(wave: &mut Wave, ctx: &mut JitCtx) -> u32 {
    let pc = wave.pc as u64;
    ctx.helper_steps += 1;
    let r = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the dispatcher set these from live references for this run.
        let (lds, mem, prog) = unsafe { (&mut *ctx.lds, &*ctx.mem, &*ctx.prog) };
        let mut ic = Ctx {
            wave: &mut *wave,
            lds,
            mem,
        };
        // Compiled code counted the issue; what needs the interpreter's view is counted
        // here (bank conflicts from the addresses before, branch outcomes after).
        let counted = prog
            .slot_index(pc as u32)
            .filter(|_| !ctx.prof.is_null())
            .and_then(|i| {
                let s = prog.slots.get(i)?;
                match &s.inst {
                    Ok(wavejit_isa::ir::Inst::Gcn(g)) => Some((i, g, s.size)),
                    _ => None,
                }
            });
        if let Some((i, g, _)) = counted {
            if let Some(c) = ctx.counters(i) {
                profile::count_before(c, g, ic.wave);
            }
        }
        let r = wavejit_interp::step(&mut ic, prog);
        if let (Some((i, g, size)), Ok(_)) = (counted, &r) {
            if let Some(c) = ctx.counters(i) {
                profile::count_after(c, g, pc as u32, size, ic.wave);
            }
        }
        r
    }));
    match r {
        Ok(Ok(Step::Continue)) => EXIT_NEXT,
        Ok(Ok(Step::End)) => EXIT_END,
        Ok(Ok(Step::Barrier)) => EXIT_BARRIER,
        Ok(Err(e)) => {
            ctx.err = Some(e);
            EXIT_ERROR
        }
        Err(_) => {
            ctx.err = Some(ExecError {
                pc: pc as u32,
                kind: ExecErrorKind::BadOperand("internal error: the interpreter panicked".into()),
            });
            EXIT_ERROR
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wavejit_isa::arch::{Arch, Gen};

    fn ctx_for(lds: &mut Lds, mem: &Memory, prog: &Program) -> JitCtx {
        JitCtx::new(0, lds, mem, prog, std::ptr::null(), (0, std::ptr::null()))
    }

    /// The thread's region slots go to one context at a time (a second one live at the
    /// same time gets its own), and keep what they learned only for the same memory
    /// under the same epoch.
    #[test]
    fn region_slots_are_the_threads_one_context_at_a_time() {
        let prog = Program::new(Arch::Gcn(Gen::Gfx8), &[]);
        let mut lds = Lds::new(0);
        let mut lds2 = Lds::new(0);
        let mut mem = Memory::new();
        mem.map(0x1000, 64).expect("maps");
        let a = ctx_for(&mut lds, &mem, &prog);
        assert!(a.own_gcache.is_none());
        // SAFETY: `a` holds the slots; nothing else writes them.
        unsafe { (*a.gcache.add(3)).lo = 0x1000 };
        let b = ctx_for(&mut lds2, &mem, &prog);
        assert!(b.own_gcache.is_some());
        assert_ne!(a.gcache, b.gcache);
        // SAFETY: `b`'s own slots.
        assert_eq!(unsafe { (*b.gcache.add(3)).lo }, u64::MAX);
        drop(b);
        drop(a);
        let c = ctx_for(&mut lds, &mem, &prog);
        assert!(c.own_gcache.is_none());
        // SAFETY: `c` holds the slots.
        assert_eq!(
            unsafe { (*c.gcache.add(3)).lo },
            0x1000,
            "kept for the same memory"
        );
        drop(c);
        // Another memory maps a region: the epoch moves, the slots are emptied.
        let mut other = Memory::new();
        other.map(0x1000, 64).expect("maps");
        let d = ctx_for(&mut lds, &mem, &prog);
        // SAFETY: `d` holds the slots.
        assert_eq!(unsafe { (*d.gcache.add(3)).lo }, u64::MAX, "emptied");
    }
}
