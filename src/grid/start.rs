//! The state a wave starts with (the AMDHSA dispatch ABI as the module above describes
//! it), split by how often it changes: [`WaveStart`] holds what is the same for every wave
//! a host worker runs in one scratch region (the user SGPRs, MODE, pc, M0) and, set once
//! per workgroup, the workgroup's ids and info; [`ItemIds`] the work-item id VGPRs of
//! every wave of one workgroup size; per wave only the first-wave flag, the wave offset
//! and EXEC are worked out.

use wavejit_isa::state::{Wave, LANES, NUM_SREG_SLOTS, NUM_VGPRS};
use wavejit_isa::Gen;

use crate::load::kd::{KernelDescriptor, UserSgpr};

/// Work-items per dimension (`grid::Dim3`).
type Dim3 = [u32; 3];

/// Write the work-item ids of wave `w` of a workgroup of `size` items into VGPRs 0-2 (the
/// `ids` of them the kernel descriptor enables; lanes past the group's last item are left
/// alone).
pub(super) fn write_item_ids(vgpr: &mut [[u32; LANES]], size: Dim3, w: u32, ids: usize) {
    let items = size[0] * size[1] * size[2];
    let first = w * LANES as u32;
    let n = items.saturating_sub(first).min(LANES as u32);
    if n > 0 {
        // The work-item id of the first lane by division, then counted up lane by lane,
        // one dimension at a time (a division per lane would be most of a short
        // kernel's wave start).
        let n = n as usize;
        let x0 = first % size[0];
        if x0 as usize + n <= size[0] as usize {
            // The wave lies within one row (the usual wide workgroup): x0, x0 + 1, …,
            // x0 plus the lane numbers.
            for (r, i) in vgpr[0][..n].iter_mut().zip(&LANE_IDS) {
                *r = x0 + i;
            }
        } else {
            let mut x = x0;
            for r in &mut vgpr[0][..n] {
                *r = x;
                x += 1;
                if x == size[0] {
                    x = 0;
                }
            }
        }
        if ids > 1 {
            let (mut x, mut y, mut z) = (
                first % size[0],
                (first / size[0]) % size[1],
                first / (size[0] * size[1]),
            );
            let (ys, zs) = vgpr[1..3].split_at_mut(1);
            for (yo, zo) in ys[0][..n].iter_mut().zip(&mut zs[0][..n]) {
                *yo = y;
                if ids > 2 {
                    *zo = z;
                }
                x += 1;
                if x == size[0] {
                    x = 0;
                    y += 1;
                    if y == size[1] {
                        y = 0;
                        z += 1;
                    }
                }
            }
        }
    }
}

/// The private segment buffer V#: base = the worker's scratch region, SWIZZLE_EN, no range
/// clamp (NUM_RECORDS all ones), DATA_FORMAT 32 (4) with UINT, ELEMENT_SIZE 4 bytes (1),
/// INDEX_STRIDE 64 (3), ADD_TID_ENABLE. The wave offset SGPR selects the wave's part.
pub fn scratch_rsrc(base: u64) -> [u32; 4] {
    let word1 = ((base >> 32) as u32 & 0xffff) | 1 << 31;
    let word3 = 4 << 15 | 4 << 12 | 1 << 19 | 3 << 21 | 1 << 23;
    [base as u32, word1, u32::MAX, word3]
}

/// What the user SGPRs of a dispatch point at (`grid::Dispatch` has them).
pub(super) struct Pointers {
    pub dispatch_packet: u64,
    pub queue: u64,
    pub kernarg: u64,
    pub dispatch_id: u64,
}

/// Where a wave starts: the program's entry pc and the address its pc 0 is loaded at.
pub(super) struct Entry {
    pub pc: u32,
    pub code_base: u64,
}

/// 0, 1, …, 63: a wave's lane numbers, added to its first work-item id in one vector add
/// per 8 lanes (an index counted up lane by lane is not vectorised).
const LANE_IDS: [u32; LANES] = {
    let mut ids = [0; LANES];
    let mut i = 0;
    while i < LANES {
        ids[i] = i as u32;
        i += 1;
    }
    ids
};

/// What every wave of a dispatch run in one scratch region starts with, worked out once
/// (walking the descriptor's enabled SGPRs per wave cost about as much as the rest of a
/// streaming kernel's wave start).
pub(super) struct WaveStart {
    /// s0-s127 as every wave of the current workgroup (`group`) starts: the user SGPRs
    /// and the workgroup's system SGPRs in place (the info with the first-wave flag),
    /// zero elsewhere.
    sgpr: [u32; NUM_SREG_SLOTS],
    /// How many of `sgpr` `apply` copies: a multiple of 8 (copied 8 at a time, without a
    /// call), at least the slots the caller asked for and every system SGPR.
    copy: usize,
    /// One past the last system SGPR below s128 (0 if none).
    sys_end: usize,
    /// Work-items of the current workgroup.
    items: u32,
    /// The SGPR of the workgroup id X, Y, Z, of the workgroup info and of the private
    /// segment wave offset, each when enabled and below s128 (the slots past it do not
    /// exist, so nothing is written).
    wg_id: [Option<usize>; 3],
    info: Option<usize>,
    wave_offset: Option<usize>,
    /// Scratch bytes of one wave (the wave offset of wave w is w times this, in 32 bits).
    wave_bytes: u64,
    m0: u32,
    mode: u32,
    pc: u32,
    code_base: u64,
    gen: Gen,
}

impl WaveStart {
    /// The start of the waves of a dispatch of the kernel `kd` on `gen` whose scratch
    /// region (`per_lane` bytes per lane) is at `scratch_base`.
    pub(super) fn new(
        kd: &KernelDescriptor,
        gen: Gen,
        d: &Pointers,
        entry: Entry,
        per_lane: u32,
        scratch_base: u64,
    ) -> WaveStart {
        let mut sgpr = [0u32; NUM_SREG_SLOTS];
        let mut s = 0u8;
        let mut put = |v: u32| {
            sgpr[(s & 127) as usize] = v;
            s = s.wrapping_add(1);
        };
        let put64 = |put: &mut dyn FnMut(u32), v: u64| {
            put(v as u32);
            put((v >> 32) as u32);
        };
        for u in kd.user_sgprs() {
            match u {
                UserSgpr::PrivateSegmentBuffer => {
                    for v in scratch_rsrc(scratch_base) {
                        put(v);
                    }
                }
                UserSgpr::DispatchPtr => put64(&mut put, d.dispatch_packet),
                UserSgpr::QueuePtr => put64(&mut put, d.queue),
                UserSgpr::KernargSegmentPtr => put64(&mut put, d.kernarg),
                UserSgpr::DispatchId => put64(&mut put, d.dispatch_id),
                UserSgpr::FlatScratchInit => {
                    // GFX7/8: offset of the queue's scratch from the private base, and the
                    // per-lane size; the prolog adds the wave offset and shifts by 8.
                    put(scratch_base as u32);
                    put(per_lane);
                }
                UserSgpr::PrivateSegmentSize => put(per_lane),
            }
        }
        // The system SGPRs follow at s[USER_SGPR_COUNT], in this order, each if enabled.
        let mut next = kd.user_sgpr_count() as usize;
        let mut sys = |on: bool| {
            let at = (on && next < NUM_SREG_SLOTS).then_some(next);
            next += on as usize;
            at
        };
        let wg_id = [0, 1, 2].map(|d| sys(kd.workgroup_id(d)));
        let info = sys(kd.workgroup_info());
        let wave_offset = sys(kd.private_segment());
        let sys_end = wg_id
            .iter()
            .chain([&info, &wave_offset])
            .flatten()
            .max()
            .map_or(0, |&s| s + 1);
        WaveStart {
            sgpr,
            copy: NUM_SREG_SLOTS,
            sys_end,
            items: 0,
            wg_id,
            info,
            wave_offset,
            wave_bytes: per_lane as u64 * LANES as u64,
            m0: if gen <= Gen::Gfx7 { u32::MAX } else { 0 },
            mode: kd.initial_mode(),
            pc: entry.pc,
            code_base: entry.code_base,
            gen,
        }
    }

    /// `self`, with `apply` setting only SGPR slots below `sgprs` (and the system SGPRs),
    /// rounded up to a multiple of 8: a kernel never reads or writes slots it never
    /// names (`RegUse::sgpr_end`), and the ones past them that are set get their start.
    pub(super) fn setting(mut self, sgprs: usize) -> WaveStart {
        self.copy = sgprs
            .max(self.sys_end)
            .next_multiple_of(8)
            .min(NUM_SREG_SLOTS);
        self
    }

    /// Make the waves `apply` starts those of workgroup `wg`, which has `items`
    /// work-items.
    #[inline]
    pub(super) fn group(&mut self, wg: Dim3, items: u32) {
        for (at, &id) in self.wg_id.iter().zip(&wg) {
            if let Some(at) = *at {
                self.sgpr[at] = id;
            }
        }
        if let Some(at) = self.info {
            let waves = items.div_ceil(LANES as u32);
            self.sgpr[at] = (waves & 0x3f) | 1 << 31;
        }
        self.items = items;
    }

    /// Set the scalar fields of `wave` and its SGPR slots (as many as `setting` says) to
    /// the start of wave `w` of the workgroup `group` set. VGPRs are not touched.
    #[inline]
    pub(super) fn apply(&self, wave: &mut Wave, w: u32) {
        // Exhaustive on purpose: a new field in `Wave` must be given its start here too.
        let Wave {
            vgpr: _,
            sgpr,
            exec,
            vcc,
            m0,
            scc,
            mode,
            pc,
            code_base,
            gen,
            exports,
        } = wave;
        let n = self.copy;
        for (to, from) in sgpr[..n]
            .chunks_exact_mut(8)
            .zip(self.sgpr[..n].chunks_exact(8))
        {
            to.copy_from_slice(from);
        }
        if let (Some(at), true) = (self.info, w > 0) {
            // Bit 31: the group's first wave.
            sgpr[at] &= !(1 << 31);
        }
        if let Some(at) = self.wave_offset {
            sgpr[at] = (w as u64 * self.wave_bytes) as u32;
        }
        let n = self
            .items
            .saturating_sub(w * LANES as u32)
            .min(LANES as u32);
        *exec = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        *vcc = 0;
        *m0 = self.m0;
        *scc = 0;
        *mode = self.mode;
        *pc = self.pc;
        *code_base = self.code_base;
        *gen = self.gen;
        exports.clear();
    }
}

/// Set VGPRs 0 to `vgprs` to their start: the work-item id registers (`ids`, one row per
/// enabled id register, zero past the group's items) copied, the others zero. VGPRs at or
/// above `vgprs` are not cleared: the caller passes the kernel's VGPR count (on the GPU
/// the others belong to other waves), or less when the kernel never names the rest
/// (`RegUse::vgpr_end`).
pub(super) fn start_vgprs(wave: &mut Wave, vgprs: usize, ids: &[[u32; LANES]]) {
    let regs = &mut wave.vgpr[..vgprs.min(NUM_VGPRS)];
    let (id_regs, rest) = regs.split_at_mut(ids.len().min(regs.len()));
    id_regs.copy_from_slice(&ids[..id_regs.len()]);
    // One fill of the rest (a memset) rather than a 256-byte store per register.
    rest.fill([0; LANES]);
}

/// The work-item id VGPRs of every wave of a workgroup of one size: the same for every
/// full workgroup of a dispatch, so made once rather than per wave (counting the ids up
/// lane by lane across rows costs about a twentieth of a 2-D stencil launch).
#[derive(Default)]
pub(super) struct ItemIds {
    size: Option<Dim3>,
    /// Per wave: VGPRs 0-2, zero in lanes past the group's last item.
    waves: Vec<[[u32; LANES]; 3]>,
}

impl ItemIds {
    /// The table for workgroups of `size` (`waves` waves) of a kernel with `ids` work-item
    /// id VGPRs.
    pub(super) fn get(&mut self, ids: usize, size: Dim3, waves: usize) -> &[[[u32; LANES]; 3]] {
        if self.size != Some(size) {
            self.waves.clear();
            self.waves.resize(waves, [[0; LANES]; 3]);
            for (w, regs) in self.waves.iter_mut().enumerate() {
                write_item_ids(regs, size, w as u32, ids);
            }
            self.size = Some(size);
        }
        &self.waves
    }
}
