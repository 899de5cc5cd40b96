//! What a dispatch is: its descriptor, sizes and addresses ([`Dispatch`]), its bounds
//! ([`Limits`]), its counters ([`GridStats`]) and how it fails ([`GridError`]); and the
//! start of one wave of it (`Dispatch::init_wave`).

use std::sync::atomic::{AtomicBool, Ordering};

use wavejit_interp::ExecError;
use wavejit_isa::state::{Lds, Wave, LANES};
use wavejit_isa::Gen;

use super::start::{write_item_ids, Entry, Pointers, WaveStart};
use crate::load::kd::KernelDescriptor;

/// Work-items per dimension.
pub type Dim3 = [u32; 3];

/// Where the dispatch-wide structures are in global memory, and what the waves get.
#[derive(Clone, Debug)]
pub struct Dispatch {
    pub gen: Gen,
    pub kd: KernelDescriptor,
    /// Byte offset of the first instruction in the program.
    pub entry: u32,
    /// The address the program's pc 0 is loaded at (`Wave::code_base`).
    pub code_base: u64,
    /// Total work-items per dimension (HSA grid size), each ≥ 1.
    pub grid: Dim3,
    /// Workgroup size per dimension, each ≥ 1, product ≤ 1024.
    pub block: Dim3,
    pub kernarg: u64,
    pub dispatch_packet: u64,
    pub queue: u64,
    pub dispatch_id: u64,
    /// LDS bytes per workgroup: fixed + dynamic.
    pub lds_bytes: u32,
    pub scratch: Option<Scratch>,
    pub max_insts_per_wave: u64,
    /// Bounds on the whole dispatch (instructions, wall time, cancellation).
    pub limits: Limits,
}

/// Scratch memory: one region per host worker ("slot"), each big enough for one
/// workgroup's waves.
#[derive(Clone, Debug)]
pub struct Scratch {
    /// Bytes per lane (a multiple of 4).
    pub per_lane: u32,
    /// Base address of each slot's region.
    pub slots: Vec<u64>,
}

impl Scratch {
    /// Bytes of one wave's scratch: 64 lanes, swizzled by dword.
    pub fn per_wave(&self) -> u64 {
        self.per_lane as u64 * LANES as u64
    }
}

/// Which wave failed, and how.
#[derive(Debug, thiserror::Error)]
pub enum GridError {
    #[error("workgroup ({}, {}, {}) wave {wave}: {err}", wg[0], wg[1], wg[2])]
    Exec { wg: Dim3, wave: u32, err: ExecError },
    #[error("workgroup ({}, {}, {}) wave {wave}: the interpreter and the JIT disagree: {mismatch}", wg[0], wg[1], wg[2])]
    Mismatch {
        wg: Dim3,
        wave: u32,
        mismatch: Box<wavejit_jit::Mismatch>,
    },
    #[error("workgroup ({}, {}, {}) wave {wave}: did not reach s_endpgm or s_barrier within {budget} instructions (pc 0x{pc:x}); raise the budget if the kernel is just long", wg[0], wg[1], wg[2])]
    Budget {
        wg: Dim3,
        wave: u32,
        budget: u64,
        pc: u32,
    },
    #[error("{0}")]
    Config(String),
    #[error("the dispatch ran {insts} wave-instructions, past its budget of {budget}, after {workgroups} workgroups; raise the budget if the kernel is just long")]
    DispatchBudget {
        budget: u64,
        insts: u64,
        workgroups: u64,
    },
    #[error("the dispatch ran out of time after {workgroups} workgroups")]
    Timeout { workgroups: u64 },
    #[error("the dispatch was cancelled after {workgroups} workgroups")]
    Cancelled { workgroups: u64 },
}

/// Bounds on a whole dispatch, checked before each workgroup starts (a workgroup that has
/// started runs to its end, bounded by the per-wave budget).
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Most wave-instructions of the dispatch.
    pub max_insts: Option<u64>,
    /// Latest time a workgroup may start.
    pub deadline: Option<std::time::Instant>,
    /// Set (e.g. by a Ctrl-C handler or another thread) to stop the dispatch.
    pub cancel: Option<std::sync::Arc<AtomicBool>>,
}

/// Counters of a finished grid.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GridStats {
    pub workgroups: u64,
    pub waves: u64,
    pub insts: u64,
    /// Barriers released (each time every wave of a workgroup that had not ended met at
    /// `s_barrier`).
    pub barriers: u64,
    /// Waves released from those barriers (the waves that waited at them, summed).
    pub barrier_waves: u64,
}

impl Limits {
    /// Whether the dispatch may start another workgroup, after `insts` instructions and
    /// `workgroups` finished workgroups.
    pub fn check(&self, insts: u64, workgroups: u64) -> Result<(), GridError> {
        if self
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            return Err(GridError::Cancelled { workgroups });
        }
        if let Some(budget) = self.max_insts.filter(|&b| insts > b) {
            return Err(GridError::DispatchBudget {
                budget,
                insts,
                workgroups,
            });
        }
        if self.deadline.is_some_and(|d| std::time::Instant::now() > d) {
            return Err(GridError::Timeout { workgroups });
        }
        Ok(())
    }
}

/// Work-items in a workgroup at most (`Dispatch::check`).
pub(super) const MAX_GROUP_ITEMS: u64 = 1024;

impl Dispatch {
    /// Workgroups per dimension: ceil(grid / block).
    pub fn groups(&self) -> Dim3 {
        [0, 1, 2].map(|d| self.grid[d].div_ceil(self.block[d].max(1)))
    }

    /// Workgroups in the grid, if at most 2^48 (more could not finish anyway).
    pub fn total_groups(&self) -> Option<u64> {
        self.groups()
            .iter()
            .try_fold(1u64, |acc, &g| acc.checked_mul(g as u64))
            .filter(|&t| t <= 1 << 48)
    }

    /// The size of workgroup `wg` (the last one in a dimension may be partial).
    pub fn group_size(&self, wg: Dim3) -> Dim3 {
        [0, 1, 2].map(|d| {
            let start = wg[d] as u64 * self.block[d] as u64;
            (self.grid[d] as u64)
                .saturating_sub(start)
                .min(self.block[d] as u64) as u32
        })
    }

    /// Waves in a full workgroup.
    pub fn waves_per_group(&self) -> u64 {
        let items: u64 = self.block.iter().map(|&b| b as u64).product();
        items.div_ceil(LANES as u64)
    }

    pub(super) fn check(&self) -> Result<(), GridError> {
        let bad = |m: String| Err(GridError::Config(m));
        if self.grid.contains(&0) || self.block.contains(&0) {
            return bad(format!(
                "grid {:?} and block {:?} must be at least 1 in every dimension",
                self.grid, self.block
            ));
        }
        if self.total_groups().is_none() {
            return bad(format!(
                "a grid of {:?} work-items in workgroups of {:?} has more than 2^48 workgroups",
                self.grid, self.block
            ));
        }
        let items = self.block.iter().map(|&b| b as u64).product::<u64>();
        if items > MAX_GROUP_ITEMS {
            return bad(format!(
                "a workgroup of {items} work-items is more than the {MAX_GROUP_ITEMS} GCN allows"
            ));
        }
        if self.block.iter().any(|&b| b > u16::MAX as u32) {
            return bad("a workgroup dimension does not fit the dispatch packet's 16 bits".into());
        }
        if self.lds_bytes as usize > Lds::MAX {
            return bad(format!(
                "{} bytes of LDS per workgroup is more than the 64 KiB GCN has",
                self.lds_bytes
            ));
        }
        if self.kd.private_segment() && self.scratch.is_none() {
            return bad("the kernel uses scratch but no scratch was set up".into());
        }
        Ok(())
    }

    /// The start of this dispatch's waves whose scratch region is at `scratch_base`.
    pub(super) fn wave_start(&self, scratch_base: u64) -> WaveStart {
        let ptrs = Pointers {
            dispatch_packet: self.dispatch_packet,
            queue: self.queue,
            kernarg: self.kernarg,
            dispatch_id: self.dispatch_id,
        };
        let entry = Entry {
            pc: self.entry,
            code_base: self.code_base,
        };
        let per_lane = self.scratch.as_ref().map_or(0, |s| s.per_lane);
        WaveStart::new(&self.kd, self.gen, &ptrs, entry, per_lane, scratch_base)
    }

    /// Set `wave` to the state the hardware starts wave `w` of workgroup `wg` with: every
    /// scalar register and field, and the work-item id VGPRs (lanes past the group's
    /// items, and the other VGPRs, are left as they are). `scratch_base` is the base of
    /// this worker's scratch region (0 if none).
    pub fn init_wave(&self, wave: &mut Wave, wg: Dim3, w: u32, scratch_base: u64) {
        let size = self.group_size(wg);
        let items = size[0] * size[1] * size[2];
        let mut start = self.wave_start(scratch_base);
        start.group(wg, items);
        start.apply(wave, w);
        let ids = self.kd.workitem_id_vgprs() as usize;
        write_item_ids(&mut wave.vgpr, size, w, ids);
    }
}
