//! Grid dispatch: the initial state the hardware gives each wave of a kernel (the AMDHSA
//! dispatch ABI) and the scheduling of workgroups over host threads.
//!
//! What a wave starts with (AMDGPUUsage, "Initial Kernel Execution State"), as set here:
//! - user SGPRs from s0, each only when the kernel descriptor enables it, in this order:
//!   private segment buffer (4: the scratch V#), dispatch ptr (2: the HSA kernel dispatch
//!   packet), queue ptr (2: an `amd_queue_t`), kernarg segment ptr (2), dispatch id (2),
//!   flat scratch init (2: scratch base offset, per-lane size), private segment size (1);
//! - system SGPRs from s[USER_SGPR_COUNT]: workgroup id X, Y, Z, workgroup info (waves in
//!   the group in bits 5:0, bit 31 on the group's first wave), private segment wave byte
//!   offset — each when enabled;
//! - v0, v1, v2: work-item id X, Y, Z within the group (as many as ENABLE_VGPR_WORKITEM_ID
//!   asks for); every other register 0 (VGPRs past the descriptor's VGPR count are not
//!   cleared between the workgroups a host worker runs: they are not the wave's; nor are
//!   registers no instruction of the program names (`Program::regs`), which no wave of
//!   the launch reads or writes, so no engine can tell what they hold — `start.rs` copies
//!   SGPRs in runs of 8, so a few unnamed SGPR slots get their start values too);
//! - EXEC: the lanes that hold work-items (a group's last wave may be partial);
//! - M0 = 0xFFFF_FFFF on GCN 1.0/1.1 (the DS address limit: everything allowed);
//! - MODE from COMPUTE_PGM_RSRC1 (rounding, denormals, DX10 clamp, IEEE);
//! - LDS of group_segment_fixed_size + dynamic bytes, per workgroup, zeroed;
//! - scratch: `private_segment_fixed_size` bytes per lane in a region of global memory per
//!   host worker, reached through the swizzled private segment buffer V# (ADD_TID_ENABLE,
//!   INDEX_STRIDE 64, ELEMENT_SIZE 4) plus the wave offset, as LLVM's MUBUF scratch code
//!   expects. FLAT scratch (GCN 1.1/1.2 private aperture) gets its init SGPRs but works only
//!   as far as the engine's FLAT model maps the private aperture.
//!
//! Workgroups run in parallel on the threads of a rayon pool (one worker: on the calling
//! thread, in order), each thread taking the next workgroup when it is done with one
//! (`worker.rs`); the waves of one workgroup run in turn on one thread: each runs to its
//! `s_barrier` or `s_endpgm`, then those at the barrier are released together
//! (`engine::schedule`). Every wave has an instruction budget, so a kernel that never
//! reaches its barrier or end is an error, not a hang. What a dispatch is and how it
//! fails: `dispatch.rs`.

#![cfg_attr(not(test), deny(clippy::unwrap_used))]

use std::sync::Mutex;

use wavejit_interp::profile::Profile;
use wavejit_isa::ir::Program;
use wavejit_isa::state::Memory;

use crate::engine::WaveEngine;

mod dispatch;
mod start;
mod worker;
pub use dispatch::{Dim3, Dispatch, GridError, GridStats, Limits, Scratch};
pub use start::scratch_rsrc;
use worker::Shared;

/// High 32 bits of the flat address of LDS (the shared aperture) that wavejit reports to
/// kernels through `hidden_shared_base` and the queue. Nothing is mapped there in global
/// memory, so a FLAT access through it is an out-of-bounds error unless the engine maps
/// the aperture itself.
pub const SHARED_APERTURE_HI: u32 = 0x0001_0000;
/// High 32 bits of the flat address of scratch (the private aperture); see
/// [`SHARED_APERTURE_HI`].
pub const PRIVATE_APERTURE_HI: u32 = 0x0002_0000;
/// Default per-wave instruction budget.
pub const DEFAULT_MAX_INSTS: u64 = 100_000_000;

/// Run every workgroup of `d` on `threads` host threads with `exec`. `progress` is called
/// with the number of workgroups finished so far (from worker threads).
pub fn run(
    d: &Dispatch,
    prog: &Program,
    mem: &Memory,
    exec: &dyn WaveEngine,
    threads: usize,
    progress: Option<&(dyn Fn(u64) + Sync)>,
) -> Result<GridStats, GridError> {
    run_inner(d, prog, mem, exec, threads, progress, None)
}

/// [`run`], counting profile events of every wave into `prof` (a profile of `prog`; each
/// host thread counts into its own copy, added in when it finishes).
pub fn run_profiled(
    d: &Dispatch,
    prog: &Program,
    mem: &Memory,
    exec: &dyn WaveEngine,
    threads: usize,
    progress: Option<&(dyn Fn(u64) + Sync)>,
    prof: &mut Profile,
) -> Result<GridStats, GridError> {
    let sink = Mutex::new(std::mem::take(prof));
    let r = run_inner(d, prog, mem, exec, threads, progress, Some(&sink));
    *prof = sink.into_inner().unwrap_or_else(|p| p.into_inner());
    r
}

fn run_inner(
    d: &Dispatch,
    prog: &Program,
    mem: &Memory,
    exec: &dyn WaveEngine,
    threads: usize,
    progress: Option<&(dyn Fn(u64) + Sync)>,
    sink: Option<&Mutex<Profile>>,
) -> Result<GridStats, GridError> {
    d.check()?;
    let total = d.total_groups().unwrap_or(0);
    let slots: &[u64] = d.scratch.as_ref().map_or(&[], |s| &s.slots);
    let threads = threads
        .max(1)
        .min(exec.max_threads().unwrap_or(usize::MAX))
        .min(usize::try_from(total).unwrap_or(usize::MAX).max(1));
    if d.scratch.is_some() && slots.len() < threads {
        return Err(GridError::Config(format!(
            "{} scratch slots for {threads} threads",
            slots.len()
        )));
    }
    // Worker k keeps slot `len - 1 - k` for the whole dispatch (none: base 0).
    let scratch_base = |k: usize| {
        slots
            .len()
            .checked_sub(k + 1)
            .and_then(|i| slots.get(i))
            .copied()
            .unwrap_or(0)
    };
    let shared = Shared::new(d, prog, mem, exec, total, progress, sink);
    if threads == 1 {
        // One worker: the calling thread, in order (no pool to start and join per
        // launch; the engine's per-thread state outlives the launch).
        shared.work(scratch_base(0));
    } else {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| GridError::Config(format!("cannot start {threads} threads: {e}")))?;
        pool.broadcast(|b| shared.work(scratch_base(b.index())));
    }
    shared.finish()
}

#[cfg(test)]
mod tests {
    use super::start::{start_vgprs, ItemIds};
    use super::*;
    use crate::engine::Interp;
    use crate::load::kd::KernelDescriptor;
    use wavejit_isa::state::{Wave, LANES};
    use wavejit_isa::Gen;

    fn kd(rsrc2: u32, props: u16) -> KernelDescriptor {
        let mut b = [0u8; 64];
        b[4..8].copy_from_slice(&8u32.to_le_bytes());
        b[52..56].copy_from_slice(&rsrc2.to_le_bytes());
        b[56..58].copy_from_slice(&props.to_le_bytes());
        KernelDescriptor::parse(&b).unwrap()
    }

    fn dispatch(kd: KernelDescriptor, grid: Dim3, block: Dim3) -> Dispatch {
        Dispatch {
            gen: Gen::Gfx7,
            kd,
            entry: 0x40,
            code_base: 0,
            grid,
            block,
            kernarg: 0x1111_2222_3333_0000,
            dispatch_packet: 0x4444_0000,
            queue: 0x5555_0000,
            dispatch_id: 7,
            lds_bytes: 0,
            scratch: Some(Scratch {
                per_lane: 8,
                slots: vec![0x9_0000_0000],
            }),
            max_insts_per_wave: 10,
            limits: Limits::default(),
        }
    }

    #[test]
    fn groups_and_partial_sizes() {
        let d = dispatch(kd(0, 0), [100, 7, 1], [64, 4, 1]);
        assert_eq!(d.groups(), [2, 2, 1]);
        assert_eq!(d.group_size([0, 0, 0]), [64, 4, 1]);
        assert_eq!(d.group_size([1, 1, 0]), [36, 3, 1]);
        assert_eq!(d.waves_per_group(), 4);
    }

    #[test]
    fn abi_registers() {
        // Private segment buffer + dispatch ptr + kernarg ptr (4+2+2 = 8 user SGPRs),
        // workgroup ids X and Y, info, private segment, work-item ids X and Y.
        let rsrc2 = 1 | 8 << 1 | 1 << 7 | 1 << 8 | 1 << 10 | 1 << 11;
        let d = dispatch(kd(rsrc2, 0b1011), [100, 8, 1], [10, 8, 1]);
        let mut w = Wave::new(Gen::Gfx7);
        // Group (9, 0): x from 90 to 99 (10 wide), 8 high: 80 items, 2 waves; take wave 1.
        d.init_wave(&mut w, [9, 0, 0], 1, 0x9_0000_0000);
        let rsrc = scratch_rsrc(0x9_0000_0000);
        assert_eq!(&w.sgpr[0..4], &rsrc);
        assert_eq!(rsrc[0], 0);
        assert_eq!(rsrc[1], 0x8000_0009);
        assert_eq!(&w.sgpr[4..6], &[0x4444_0000, 0]);
        assert_eq!(&w.sgpr[6..8], &[0x3333_0000, 0x1111_2222]);
        assert_eq!(&w.sgpr[8..12], &[9, 0, 2, 8 * 64]);
        assert_eq!(w.exec, (1u64 << 16) - 1, "items 64..79 of 80");
        // Lane 0 of wave 1 is flat item 64: x = 64 % 10 = 4, y = 6.
        assert_eq!((w.vgpr[0][0], w.vgpr[1][0]), (4, 6));
        assert_eq!((w.vgpr[0][15], w.vgpr[1][15]), (9, 7));
        assert_eq!(w.vgpr[2][0], 0, "Z not enabled");
        assert_eq!(w.m0, u32::MAX);
        assert_eq!(w.pc, 0x40);
        let mut w0 = Wave::new(Gen::Gfx7);
        d.init_wave(&mut w0, [9, 0, 0], 0, 0x9_0000_0000);
        assert_eq!(w0.sgpr[10], 2 | 1 << 31, "first wave flag");
        assert_eq!(w0.sgpr[11], 0);
        assert_eq!(w0.exec, u64::MAX);
    }

    #[test]
    fn workitem_ids_of_every_lane() {
        // Work-item ids X, Y and Z (VGPRs 0-2); 5 x 3 x 7 = 105 items in two waves, and
        // the last group of a 12-wide grid, 2 x 3 x 7 = 42 items in one; 100 x 2 = 200
        // items in four waves (wave 0 within the first row, waves 1-3 across rows).
        let rsrc2 = 2 << 11;
        let wide = dispatch(kd(rsrc2, 0), [100, 2, 1], [100, 2, 1]);
        let d = dispatch(kd(rsrc2, 0), [12, 3, 7], [5, 3, 7]);
        for (d, wg, size) in [
            (&d, [0, 0, 0], [5u32, 3, 7]),
            (&d, [2, 0, 0], [2, 3, 7]),
            (&wide, [0, 0, 0], [100, 2, 1]),
        ] {
            let items = size[0] * size[1] * size[2];
            for w in 0..items.div_ceil(64) {
                let mut wave = Wave::new(Gen::Gfx7);
                d.init_wave(&mut wave, wg, w, 0x9_0000_0000);
                for lane in 0..64u32 {
                    let f = w * 64 + lane;
                    let got = [0, 1, 2].map(|v| wave.vgpr[v][lane as usize]);
                    if f < items {
                        let want = [f % size[0], f / size[0] % size[1], f / (size[0] * size[1])];
                        assert_eq!(got, want, "group {wg:?} wave {w} lane {lane}");
                        assert_ne!(wave.exec & 1 << lane, 0);
                    } else {
                        assert_eq!(got, [0; 3], "inactive lane {lane} untouched");
                        assert_eq!(wave.exec & 1 << lane, 0);
                    }
                }
            }
        }
    }

    #[test]
    fn item_id_table_per_group_size() {
        // The table `run_group` copies from, made again when the group size changes (a
        // grid's last group in a dimension is smaller): X, Y, Z by the flat item's
        // division, zero past the group's items.
        let d = dispatch(kd(2 << 11, 0), [12, 3, 7], [5, 3, 7]);
        let mut table = ItemIds::default();
        for size in [[5u32, 3, 7], [2, 3, 7], [5, 3, 7]] {
            let items = size[0] * size[1] * size[2];
            let waves = items.div_ceil(64) as usize;
            let t = table.get(d.kd.workitem_id_vgprs() as usize, size, waves);
            assert_eq!(t.len(), waves);
            for (w, ids) in t.iter().enumerate() {
                for lane in 0..64u32 {
                    let f = w as u32 * 64 + lane;
                    let got = [0, 1, 2].map(|v| ids[v][lane as usize]);
                    let want = if f < items {
                        [f % size[0], f / size[0] % size[1], f / (size[0] * size[1])]
                    } else {
                        [0; 3]
                    };
                    assert_eq!(got, want, "size {size:?} wave {w} lane {lane}");
                }
            }
        }
    }

    #[test]
    fn a_started_wave_keeps_nothing_of_its_last_run() {
        // The dispatch of `abi_registers` (rsrc1 0: 4 VGPRs), started on a wave left dirty
        // by another run: every scalar register and field is the ABI's, VGPRs 0-3 are the
        // ids or zero, VGPR 4 (not the kernel's) is left alone.
        let rsrc2 = 1 | 8 << 1 | 1 << 7 | 1 << 8 | 1 << 10 | 1 << 11;
        let d = dispatch(kd(rsrc2, 0b1011), [100, 8, 1], [10, 8, 1]);
        let mut w = Wave::new(Gen::Gfx6);
        for r in w.vgpr.iter_mut() {
            *r = [0xdead_beef; LANES];
        }
        w.sgpr = [7; wavejit_isa::state::NUM_SREG_SLOTS];
        (w.exec, w.vcc, w.m0, w.scc, w.mode, w.pc, w.code_base) = (5, 6, 7, 1, 9, 0x80, 3);
        let mut start = d.wave_start(0x9_0000_0000);
        let mut ids = ItemIds::default();
        // Group (9, 0) has 80 items in 2 waves; wave 1 holds items 64-79.
        let table = ids.get(2, [10, 8, 1], 2);
        start.group([9, 0, 0], 80);
        start.apply(&mut w, 1);
        start_vgprs(&mut w, d.kd.vgpr_count() as usize, &table[1][..2]);
        assert_eq!(&w.sgpr[0..4], &scratch_rsrc(0x9_0000_0000));
        assert_eq!(&w.sgpr[4..8], &[0x4444_0000, 0, 0x3333_0000, 0x1111_2222]);
        assert_eq!(&w.sgpr[8..12], &[9, 0, 2, 8 * 64]);
        assert!(w.sgpr[12..].iter().all(|&s| s == 0), "{:?}", &w.sgpr[12..]);
        assert_eq!(w.exec, 0xffff);
        assert_eq!(
            (w.vcc, w.scc, w.m0, w.mode, w.pc, w.code_base),
            (0, 0, u32::MAX, 0, 0x40, 0)
        );
        assert_eq!(w.gen, Gen::Gfx7);
        // Lane 0 is item 64: x = 4, y = 6; lane 15 is item 79: x = 9, y = 7.
        assert_eq!(
            (w.vgpr[0][0], w.vgpr[1][0], w.vgpr[0][15], w.vgpr[1][15]),
            (4, 6, 9, 7)
        );
        assert!(w.vgpr[0][16..]
            .iter()
            .chain(&w.vgpr[1][16..])
            .all(|&v| v == 0));
        assert!(w.vgpr[2..4].iter().all(|r| r.iter().all(|&v| v == 0)));
        assert!(
            w.vgpr[4].iter().all(|&v| v == 0xdead_beef),
            "not the kernel's"
        );
    }

    /// A GCN 1.2 kernel (s[0:1] = the record buffer, s2 = workgroup id X, 8 VGPRs,
    /// workgroups of 128 items) that stores, per item, a record of 64 bytes: 8 dwords of
    /// what it found at its start — v1, v7, its LDS dword, SCC, VCC, M0, s20 — and its
    /// global id + 1 (so a record that was never written shows), then leaves all of them
    /// changed for whatever runs next on the same host worker.
    const LEAK_PROBE: &str = "
        s_cselect_b32 s10, 1, 0
        s_mov_b32 s11, vcc_lo
        s_mov_b32 s12, vcc_hi
        s_mov_b32 s13, m0
        s_mov_b32 s14, s20
        s_mov_b32 m0, -1
        v_lshlrev_b32 v2, 2, v0
        ds_read_b32 v2, v2
        s_lshl_b32 s15, s2, 7
        v_add_u32 v3, vcc, s15, v0
        v_lshlrev_b32 v3, 6, v3
        v_mov_b32 v4, s1
        v_add_u32 v3, vcc, s0, v3
        v_addc_u32 v4, vcc, v4, 0, vcc
        s_waitcnt lgkmcnt(0)
        v_mov_b32 v5, s10
        v_mov_b32 v6, s11
        flat_store_dword v[3:4], v1
        v_add_u32 v3, vcc, 4, v3
        v_addc_u32 v4, vcc, 0, v4, vcc
        flat_store_dword v[3:4], v7
        v_add_u32 v3, vcc, 4, v3
        v_addc_u32 v4, vcc, 0, v4, vcc
        flat_store_dword v[3:4], v2
        v_add_u32 v3, vcc, 4, v3
        v_addc_u32 v4, vcc, 0, v4, vcc
        flat_store_dword v[3:4], v5
        v_add_u32 v3, vcc, 4, v3
        v_addc_u32 v4, vcc, 0, v4, vcc
        flat_store_dword v[3:4], v6
        v_mov_b32 v5, s12
        v_mov_b32 v6, s13
        v_add_u32 v3, vcc, 4, v3
        v_addc_u32 v4, vcc, 0, v4, vcc
        flat_store_dword v[3:4], v5
        v_add_u32 v3, vcc, 4, v3
        v_addc_u32 v4, vcc, 0, v4, vcc
        flat_store_dword v[3:4], v6
        v_mov_b32 v5, s14
        v_add_u32 v3, vcc, 4, v3
        v_addc_u32 v4, vcc, 0, v4, vcc
        flat_store_dword v[3:4], v5
        v_add_u32 v5, vcc, s15, v0
        v_add_u32 v5, vcc, 1, v5
        v_add_u32 v3, vcc, 4, v3
        v_addc_u32 v4, vcc, 0, v4, vcc
        flat_store_dword v[3:4], v5
        v_mov_b32 v1, -1
        v_mov_b32 v7, 0x1234567
        s_mov_b32 s20, 0x55
        v_lshlrev_b32 v5, 2, v0
        v_mov_b32 v6, 0xabc
        ds_write_b32 v5, v6
        s_mov_b32 vcc_lo, 0x77
        s_mov_b32 vcc_hi, 0x88
        s_mov_b32 m0, 0x99
        s_cmp_eq_u32 0, 0
        s_endpgm
    ";

    /// Runs a probe kernel (GCN 1.2; s[0:1] = the record buffer, s2 = workgroup id X,
    /// 8 VGPRs) as three workgroups of 128 items on one host worker, on every engine, and
    /// returns each engine's records: `record` bytes per item, as dwords.
    fn probe_records(
        src: &str,
        record: usize,
        lds_bytes: u32,
    ) -> Vec<(&'static str, Vec<Vec<u32>>)> {
        let code = crate::assemble(wavejit_isa::Arch::Gcn(Gen::Gfx8), src).unwrap();
        let prog = Program::new(wavejit_isa::Arch::Gcn(Gen::Gfx8), &code);
        let mut b = [0u8; 64];
        b[48..52].copy_from_slice(&1u32.to_le_bytes());
        b[52..56].copy_from_slice(&(2u32 << 1 | 1 << 7).to_le_bytes());
        b[56..58].copy_from_slice(&(1u16 << 3).to_le_bytes());
        let kd = KernelDescriptor::parse(&b).unwrap();
        assert_eq!((kd.vgpr_count(), kd.user_sgpr_count()), (8, 2));
        let out = 0x1_0000_0000u64;
        let mut d = dispatch(kd, [384, 1, 1], [128, 1, 1]);
        (d.gen, d.entry, d.kernarg, d.lds_bytes, d.scratch) = (Gen::Gfx8, 0, out, lds_bytes, None);
        d.max_insts_per_wave = 1000;
        let mut all = Vec::new();
        for &(name, e) in crate::engine::Engine::ALL {
            let mut mem = Memory::new();
            mem.map(out, 384 * record as u64).unwrap();
            let engine = crate::engine::for_engine(e);
            let st = run(&d, &prog, &mem, engine.as_ref(), 1, None).unwrap();
            assert_eq!((st.workgroups, st.waves), (3, 6), "{name}");
            let mut rec = vec![0u8; 384 * record];
            mem.read(out, &mut rec).unwrap();
            let items = rec
                .chunks(record)
                .map(|r| {
                    r.chunks(4)
                        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                        .collect()
                })
                .collect();
            all.push((name, items));
        }
        all
    }

    #[test]
    fn workgroups_do_not_see_each_others_state() {
        // Three workgroups of two waves each on one host worker, which reuses its wave
        // registers and LDS: every wave must find v1, v7 (the last of the kernel's 8
        // VGPRs), its LDS dword, SCC, VCC, M0 (0 on GCN 1.2) and s20 (past the user and
        // system SGPRs) zero, whatever the waves before it left there. On every engine.
        for (name, items) in probe_records(LEAK_PROBE, 64, 512) {
            for (item, dw) in items.iter().enumerate() {
                assert_eq!(dw[8], item as u32 + 1, "{name}: item {item}'s record");
                assert_eq!(&dw[..8], &[0; 8], "{name}: item {item} found");
            }
        }
    }

    /// A GCN 1.2 kernel (s[0:1] = the record buffer, s2 = workgroup id X, 8 VGPRs,
    /// workgroups of 128 items) that reads s20 and v7 only through M0-relative moves
    /// (`s_movrels_b32` with M0 = 10, `v_movrels_b32` with M0 = 6), stores what it found
    /// and its global id + 1 (a record of 16 bytes per item), then writes both the same
    /// way: no operand field names them.
    const MOVREL_PROBE: &str = "
        s_mov_b32 m0, 10
        s_movrels_b32 s10, s10
        s_mov_b32 m0, 6
        v_movrels_b32 v1, v1
        s_lshl_b32 s15, s2, 7
        v_add_u32 v3, vcc, s15, v0
        v_add_u32 v5, vcc, 1, v3
        v_lshlrev_b32 v3, 4, v3
        v_mov_b32 v4, s1
        v_add_u32 v3, vcc, s0, v3
        v_addc_u32 v4, vcc, v4, 0, vcc
        v_mov_b32 v2, s10
        flat_store_dword v[3:4], v2
        v_add_u32 v3, vcc, 4, v3
        v_addc_u32 v4, vcc, 0, v4, vcc
        flat_store_dword v[3:4], v1
        v_add_u32 v3, vcc, 4, v3
        v_addc_u32 v4, vcc, 0, v4, vcc
        flat_store_dword v[3:4], v5
        v_mov_b32 v2, 0x77
        v_movreld_b32 v1, v2
        s_mov_b32 m0, 10
        s_mov_b32 s11, 0x55
        s_movreld_b32 s10, s11
        s_endpgm
    ";

    #[test]
    fn registers_reached_through_m0_start_cleared() {
        // Three workgroups of two waves on one host worker: every wave must read s20 and
        // v7 as 0 (the ABI's start), although the waves before it on the same registers
        // left 0x55 and 0x77 there and no operand field names either. On every engine.
        for (name, items) in probe_records(MOVREL_PROBE, 16, 0) {
            for (item, dw) in items.iter().enumerate() {
                assert_eq!(dw[2], item as u32 + 1, "{name}: item {item}'s record");
                assert_eq!(&dw[..2], &[0, 0], "{name}: item {item} found s20, v7");
            }
        }
    }

    /// A GCN 1.2 kernel of 12 VGPRs (s[0:1] = the record buffer, s2-s4 = workgroup id X,
    /// Y, Z, s5 = the workgroup info, v0-v2 = work-item id X, Y, Z) over a 12 x 6 x 5
    /// grid in workgroups of 5 x 4 x 4: each item stores, at its global linear id, a
    /// record of 8 dwords: its work-item ids, its workgroup ids, the info and EXEC's low
    /// half.
    const ID_PROBE: &str = "
        s_mul_i32 s6, s2, 5
        v_add_u32 v3, vcc, s6, v0
        s_mul_i32 s7, s3, 4
        v_add_u32 v4, vcc, s7, v1
        s_mul_i32 s8, s4, 4
        v_add_u32 v5, vcc, s8, v2
        v_mad_u32_u24 v6, v5, 6, v4
        v_mad_u32_u24 v6, v6, 12, v3
        v_lshlrev_b32 v6, 5, v6
        v_mov_b32 v7, s1
        v_add_u32 v6, vcc, s0, v6
        v_addc_u32 v7, vcc, v7, 0, vcc
        v_mov_b32 v8, v0
        v_mov_b32 v9, v1
        v_mov_b32 v10, v2
        v_mov_b32 v11, s2
        flat_store_dwordx4 v[6:7], v[8:11]
        v_add_u32 v6, vcc, 16, v6
        v_addc_u32 v7, vcc, 0, v7, vcc
        v_mov_b32 v8, s3
        v_mov_b32 v9, s4
        v_mov_b32 v10, s5
        v_mov_b32 v11, exec_lo
        flat_store_dwordx4 v[6:7], v[8:11]
        s_endpgm
    ";

    #[test]
    fn every_item_of_partial_3d_groups_starts_with_its_ids() {
        // Groups of 80 items (two waves, the second of 16 lanes); the grid's last group
        // in each dimension is partial (2 of 5, 2 of 4, 1 of 4), down to groups of one
        // partial wave. Expected values by formula from the item's global position. On
        // every engine, on one host worker (workgroups in order) and on three.
        let code = crate::assemble(wavejit_isa::Arch::Gcn(Gen::Gfx8), ID_PROBE).unwrap();
        let prog = Program::new(wavejit_isa::Arch::Gcn(Gen::Gfx8), &code);
        let mut b = [0u8; 64];
        b[48..52].copy_from_slice(&2u32.to_le_bytes());
        let rsrc2: u32 = 2 << 1 | 1 << 7 | 1 << 8 | 1 << 9 | 1 << 10 | 2 << 11;
        b[52..56].copy_from_slice(&rsrc2.to_le_bytes());
        b[56..58].copy_from_slice(&(1u16 << 3).to_le_bytes());
        let kd = KernelDescriptor::parse(&b).unwrap();
        assert_eq!((kd.vgpr_count(), kd.user_sgpr_count()), (12, 2));
        let (grid, block) = ([12u32, 6, 5], [5u32, 4, 4]);
        let out = 0x1_0000_0000u64;
        let mut d = dispatch(kd, grid, block);
        (d.gen, d.entry, d.kernarg, d.scratch) = (Gen::Gfx8, 0, out, None);
        d.max_insts_per_wave = 1000;
        let items = (grid[0] * grid[1] * grid[2]) as usize;
        let mut want = Vec::with_capacity(items);
        for z in 0..grid[2] {
            for y in 0..grid[1] {
                for x in 0..grid[0] {
                    let g = [x / block[0], y / block[1], z / block[2]];
                    let l = [x % block[0], y % block[1], z % block[2]];
                    let size = [0, 1, 2].map(|i| block[i].min(grid[i] - g[i] * block[i]));
                    let n = size[0] * size[1] * size[2];
                    let f = (l[2] * size[1] + l[1]) * size[0] + l[0];
                    let (wave, waves) = (f / 64, n.div_ceil(64));
                    let info = waves | u32::from(wave == 0) << 31;
                    let lanes = (n - wave * 64).min(64);
                    let exec_lo = if lanes >= 32 {
                        u32::MAX
                    } else {
                        (1 << lanes) - 1
                    };
                    want.push([l[0], l[1], l[2], g[0], g[1], g[2], info, exec_lo]);
                }
            }
        }
        for &(name, e) in crate::engine::Engine::ALL {
            for threads in [1, 3] {
                let mut mem = Memory::new();
                mem.map(out, items as u64 * 32).unwrap();
                let engine = crate::engine::for_engine(e);
                let st = run(&d, &prog, &mem, engine.as_ref(), threads, None).unwrap();
                assert_eq!(
                    (st.workgroups, st.waves),
                    (12, 14),
                    "{name}: 2 groups of 2 waves, 10 of 1"
                );
                let mut rec = vec![0u8; items * 32];
                mem.read(out, &mut rec).unwrap();
                for (i, (r, want)) in rec.chunks(32).zip(&want).enumerate() {
                    let got: Vec<u32> = r
                        .chunks(4)
                        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                        .collect();
                    assert_eq!(&got[..], want, "{name} on {threads} workers: item {i}");
                }
            }
        }
    }

    #[test]
    fn sgpr_slots_set_in_eights_and_every_system_sgpr() {
        // User SGPRs s0-s7 and workgroup id X, Y, info and wave offset in s8-s11; a
        // kernel naming only s0-s2: the slots set are s0-s15 (12 rounded up to 8s), the
        // rest keep what the last run left.
        let rsrc2 = 1 | 8 << 1 | 1 << 7 | 1 << 8 | 1 << 10 | 1 << 11;
        let d = dispatch(kd(rsrc2, 0b1011), [100, 8, 1], [10, 8, 1]);
        let mut start = d.wave_start(0x9_0000_0000).setting(3);
        let mut w = Wave::new(Gen::Gfx7);
        w.sgpr = [7; wavejit_isa::state::NUM_SREG_SLOTS];
        start.group([9, 0, 0], 80);
        start.apply(&mut w, 1);
        assert_eq!(&w.sgpr[8..12], &[9, 0, 2, 8 * 64]);
        assert_eq!(&w.sgpr[12..16], &[0; 4]);
        assert!(w.sgpr[16..].iter().all(|&s| s == 7), "{:?}", &w.sgpr[16..]);
        // The next group's first wave has the flag again, with its own ids; a group of
        // one wave says so.
        start.group([3, 1, 0], 10);
        start.apply(&mut w, 0);
        assert_eq!(&w.sgpr[8..12], &[3, 1, 1 | 1 << 31, 0]);
        assert_eq!(w.exec, (1 << 10) - 1);
    }

    #[test]
    fn bad_configs() {
        let prog = Program::new(wavejit_isa::Arch::Gcn(Gen::Gfx7), &[]);
        let mem = Memory::new();
        for (grid, block) in [
            ([u32::MAX; 3], [1, 1, 1]),
            ([0, 1, 1], [1, 1, 1]),
            ([1, 1, 1], [1025, 1, 1]),
            ([8, 8, 8], [16, 16, 8]),
        ] {
            let d = dispatch(kd(0, 0), grid, block);
            assert!(matches!(
                run(&d, &prog, &mem, &Interp, 1, None),
                Err(GridError::Config(_))
            ));
        }
    }
}
