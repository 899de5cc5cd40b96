//! The host workers of a dispatch: each takes workgroups from the dispatch's counter until
//! none is left and runs each one's waves, in turn, to their barriers and ends.
//!
//! A worker keeps what does not change between its workgroups: the wave register files,
//! the LDS buffer, the scalar start of its waves (its scratch region is its own for the
//! whole dispatch) and the engine's runner (`WaveEngine::with_runner`: for the JIT, the
//! context compiled code receives), made once per worker rather than once per workgroup.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use wavejit_interp::profile::Profile;
use wavejit_interp::{ExecError, ExecErrorKind, Step};
use wavejit_isa::ir::Program;
use wavejit_isa::state::{Lds, Memory, Wave, LANES};

use super::dispatch::{Dim3, Dispatch, GridError, GridStats, MAX_GROUP_ITEMS};
use super::start::{start_vgprs, ItemIds, WaveStart};
use crate::engine::{Bound, GroupStop, GroupWaves, WaveEngine, WaveError, WaveRunner};

/// Waves in a workgroup at most.
const MAX_WAVES: usize = MAX_GROUP_ITEMS as usize / LANES;

/// What the workers of one dispatch share: its inputs, the next workgroup to start, the
/// counters, and the first failure.
pub(super) struct Shared<'a> {
    pub d: &'a Dispatch,
    pub prog: &'a Program,
    pub mem: &'a Memory,
    pub exec: &'a dyn WaveEngine,
    /// The engine's lookups of `prog`, once for every wave of the dispatch.
    pub bound: Bound,
    pub progress: Option<&'a (dyn Fn(u64) + Sync)>,
    /// Where profiled runs add their counts (each worker counts into its own copy first).
    pub sink: Option<&'a Mutex<Profile>>,
    /// Workgroups in the grid, and per dimension.
    pub total: u64,
    pub groups: Dim3,
    /// The VGPRs and SGPR slots a wave starts with set (`run_group`), and the work-item
    /// id VGPRs the descriptor enables.
    vgprs: usize,
    sgprs: usize,
    id_vgprs: usize,
    next: AtomicU64,
    insts: AtomicU64,
    waves: AtomicU64,
    barriers: AtomicU64,
    barrier_waves: AtomicU64,
    done: AtomicU64,
    failed: AtomicBool,
    /// The failure of the lowest-numbered workgroup that failed, with its number (with
    /// one worker, the first; with several, the same whichever worker saw it first).
    error: Mutex<Option<(u64, GridError)>>,
}

impl<'a> Shared<'a> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        d: &'a Dispatch,
        prog: &'a Program,
        mem: &'a Memory,
        exec: &'a dyn WaveEngine,
        total: u64,
        progress: Option<&'a (dyn Fn(u64) + Sync)>,
        sink: Option<&'a Mutex<Profile>>,
    ) -> Shared<'a> {
        // Registers the program never names are never read or written: they keep the
        // zero of `Wave::new` through the launch (the waves are this launch's), so only
        // the named ones are set.
        let vgprs = (d.kd.vgpr_count() as usize).min(prog.regs.vgpr_end());
        Shared {
            d,
            prog,
            mem,
            exec,
            bound: exec.bind(prog),
            progress,
            sink,
            total,
            groups: d.groups(),
            vgprs,
            sgprs: prog.regs.sgpr_end(),
            id_vgprs: d.kd.workitem_id_vgprs() as usize,
            next: AtomicU64::new(0),
            insts: AtomicU64::new(0),
            waves: AtomicU64::new(0),
            barriers: AtomicU64::new(0),
            barrier_waves: AtomicU64::new(0),
            done: AtomicU64::new(0),
            failed: AtomicBool::new(false),
            error: Mutex::new(None),
        }
    }

    /// Run workgroups on this thread until none is left or one failed, with the scratch
    /// region at `scratch_base` (0 if none) for all of them.
    pub fn work(&self, scratch_base: u64) {
        let mut w = Worker {
            groups: Groups {
                waves: Vec::new(),
                ids: ItemIds::default(),
                start: self.d.wave_start(scratch_base).setting(self.sgprs),
                used: [0; MAX_WAVES],
                ended: [false; MAX_WAVES],
                last: None,
            },
            lds: Lds::new(self.d.lds_bytes as usize),
            prof: self.sink.map(|_| Profile::for_program(self.prog)),
            sink: self.sink,
        };
        let Worker {
            groups, lds, prof, ..
        } = &mut w;
        let r = match prof.as_mut() {
            Some(prof) => groups.run_all(
                self,
                &mut ProfRunner {
                    exec: self.exec,
                    prog: self.prog,
                    lds,
                    mem: self.mem,
                    prof,
                },
            ),
            None => {
                let mut r = None;
                self.exec
                    .with_runner(&self.bound, self.prog, lds, self.mem, &mut |run| {
                        r = Some(groups.run_all(self, run))
                    });
                r.unwrap_or_else(|| {
                    Err((
                        0,
                        GridError::Config(format!("the {} engine ran no waves", self.exec.name())),
                    ))
                })
            }
        };
        if let Err((i, e)) = r {
            self.failed.store(true, Ordering::Relaxed);
            let mut first = self.error.lock().unwrap_or_else(|p| p.into_inner());
            if first.as_ref().is_none_or(|(j, _)| i < *j) {
                *first = Some((i, e));
            }
        }
    }

    /// The counters of the finished dispatch, or its failure.
    pub fn finish(self) -> Result<GridStats, GridError> {
        let error = self.error.into_inner().unwrap_or_else(|p| p.into_inner());
        if let Some((_, e)) = error {
            return Err(e);
        }
        Ok(GridStats {
            workgroups: self.done.into_inner(),
            waves: self.waves.into_inner(),
            insts: self.insts.into_inner(),
            barriers: self.barriers.into_inner(),
            barrier_waves: self.barrier_waves.into_inner(),
        })
    }

    /// Workgroup number `i`, X fastest.
    fn group(&self, i: u64) -> Dim3 {
        let gx = self.groups[0] as u64;
        let gy = self.groups[1] as u64;
        [
            (i % gx) as u32,
            ((i / gx) % gy) as u32,
            (i / (gx * gy)) as u32,
        ]
    }
}

/// One host worker's state (see the module comment).
struct Worker<'a> {
    groups: Groups,
    lds: Lds,
    /// This thread's profile counters, added to `sink` when the worker is done.
    prof: Option<Profile>,
    sink: Option<&'a Mutex<Profile>>,
}

impl Drop for Worker<'_> {
    fn drop(&mut self) {
        if let (Some(p), Some(sink)) = (&self.prof, self.sink) {
            let mut all = sink.lock().unwrap_or_else(|e| e.into_inner());
            all.merge(p);
        }
    }
}

/// The waves of a worker's workgroups: register files (64 KiB of VGPRs each, so reused
/// rather than allocated per workgroup), the work-item ids per group size, the scalar
/// start, and per wave of the current workgroup the instructions it ran and whether it
/// ended (arrays of the most waves a workgroup has, cleared by a few stores rather than
/// allocated or filled through calls per workgroup).
struct Groups {
    waves: Vec<Box<Wave>>,
    ids: ItemIds,
    start: WaveStart,
    used: [u64; MAX_WAVES],
    ended: [bool; MAX_WAVES],
    /// The number and ids of the last workgroup this worker ran.
    last: Option<(u64, Dim3)>,
}

/// What one workgroup did.
struct GroupStats {
    insts: u64,
    waves: u64,
    barriers: u64,
    barrier_waves: u64,
}

impl Groups {
    /// Take workgroups from `sh` and run each with `run` until none is left; a failure
    /// comes back with its workgroup's number.
    fn run_all(&mut self, sh: &Shared, run: &mut dyn WaveRunner) -> Result<(), (u64, GridError)> {
        let (mut waves, mut barriers, mut barrier_waves) = (0, 0, 0);
        let r = (|| {
            for n in 0.. {
                if sh.failed.load(Ordering::Relaxed) {
                    return Ok(());
                }
                let i = sh.next.fetch_add(1, Ordering::Relaxed);
                if i >= sh.total {
                    return Ok(());
                }
                sh.d.limits
                    .check(
                        sh.insts.load(Ordering::Relaxed),
                        sh.done.load(Ordering::Relaxed),
                    )
                    .map_err(|e| (i, e))?;
                // The buffer starts zeroed; after a workgroup, the next one's LDS is
                // cleared (the ABI's start).
                if n > 0 {
                    run.clear_lds();
                }
                let wg = self.group_ids(sh, i);
                let g = self.run_group(sh, wg, run).map_err(|e| (i, e))?;
                sh.insts.fetch_add(g.insts, Ordering::Relaxed);
                waves += g.waves;
                barriers += g.barriers;
                barrier_waves += g.barrier_waves;
                let k = sh.done.fetch_add(1, Ordering::Relaxed) + 1;
                if let Some(p) = sh.progress {
                    p(k);
                }
            }
            Ok(())
        })();
        sh.waves.fetch_add(waves, Ordering::Relaxed);
        sh.barriers.fetch_add(barriers, Ordering::Relaxed);
        sh.barrier_waves.fetch_add(barrier_waves, Ordering::Relaxed);
        r
    }

    /// The ids of workgroup number `i` (`Shared::group`): counted on from the last
    /// workgroup when it is the next one (as it is, but for the workers' interleaving:
    /// three divisions per workgroup are a fair part of a short kernel's workgroup).
    fn group_ids(&mut self, sh: &Shared, i: u64) -> Dim3 {
        let wg = match self.last {
            Some((j, wg)) if j.checked_add(1) == Some(i) => next_group(sh.groups, wg),
            _ => sh.group(i),
        };
        self.last = Some((i, wg));
        wg
    }

    /// Run workgroup `wg` to completion with `run`, whose LDS is the group's (zeroed).
    fn run_group(
        &mut self,
        sh: &Shared,
        wg: Dim3,
        run: &mut dyn WaveRunner,
    ) -> Result<GroupStats, GridError> {
        let d = sh.d;
        let size = d.group_size(wg);
        let items = size[0] * size[1] * size[2];
        let n = items.div_ceil(LANES as u32) as usize;
        while self.waves.len() < n {
            self.waves.push(Wave::new(d.gen));
        }
        let waves = &mut self.waves[..n];
        let ids = self.ids.get(sh.id_vgprs, size, n);
        // VGPR 0 always holds X; Y and Z as the descriptor asks.
        let id_regs = sh.id_vgprs.clamp(1, 3);
        self.start.group(wg, items);
        for (w, (wave, ids)) in waves.iter_mut().zip(ids).enumerate() {
            self.start.apply(wave, w as u32);
            start_vgprs(wave, sh.vgprs, &ids[..id_regs]);
        }
        self.used = [0; MAX_WAVES];
        self.ended = [false; MAX_WAVES];
        let (Some(used), Some(ended)) = (self.used.get_mut(..n), self.ended.get_mut(..n)) else {
            return Err(GridError::Config(format!(
                "a workgroup of {n} waves is more than the {MAX_WAVES} a workgroup has"
            )));
        };
        let budget = d.max_insts_per_wave;
        let (barriers, barrier_waves) = run
            .run_group(&mut GroupWaves {
                waves,
                used,
                ended,
                budget,
            })
            .map_err(|GroupStop { wave, err }| match err {
                None
                | Some(WaveError::Exec(ExecError {
                    kind: ExecErrorKind::InstLimit(_),
                    ..
                })) => GridError::Budget {
                    wg,
                    wave: wave as u32,
                    budget,
                    pc: match &err {
                        Some(WaveError::Exec(e)) => e.pc,
                        _ => self.waves[wave].pc,
                    },
                },
                Some(WaveError::Exec(err)) => GridError::Exec {
                    wg,
                    wave: wave as u32,
                    err,
                },
                Some(WaveError::Mismatch(mismatch)) => GridError::Mismatch {
                    wg,
                    wave: wave as u32,
                    mismatch: Box::new(mismatch),
                },
            })?;
        Ok(GroupStats {
            insts: self.used.iter().sum(),
            waves: n as u64,
            barriers,
            barrier_waves,
        })
    }
}

/// The workgroup after `wg` in a grid of `groups` workgroups per dimension, X fastest
/// (`wg` is not the last one).
fn next_group(groups: Dim3, [x, y, z]: Dim3) -> Dim3 {
    if x + 1 < groups[0] {
        [x + 1, y, z]
    } else if y + 1 < groups[1] {
        [0, y + 1, z]
    } else {
        [0, 0, z + 1]
    }
}

/// Runs each wave counting profile events (`WaveEngine::run_profiled`).
struct ProfRunner<'a> {
    exec: &'a dyn WaveEngine,
    prog: &'a Program,
    lds: &'a mut Lds,
    mem: &'a Memory,
    prof: &'a mut Profile,
}

impl WaveRunner for ProfRunner<'_> {
    fn run(&mut self, wave: &mut Wave, budget: u64) -> Result<(Step, u64), WaveError> {
        self.exec
            .run_profiled(self.prog, wave, self.lds, self.mem, budget, self.prof)
    }

    fn clear_lds(&mut self) {
        self.lds.bytes.fill(0);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{run, Limits};
    use super::*;
    use crate::engine::{for_engine, Engine};
    use crate::load::kd::KernelDescriptor;
    use wavejit_isa::{Arch, Gen};

    /// Four waves per workgroup meet at two barriers and end: seven instructions per wave.
    /// Workgroups from 5 on (s0 = workgroup id X) load from address 0, which is not
    /// mapped, before their first barrier.
    const TWO_BARRIERS: &str = "
        s_cmp_ge_u32 s0, 5
        s_cbranch_scc1 bad
        s_barrier
        v_add_u32 v1, vcc, 1, v0
        s_barrier
        s_mov_b32 s1, 0
        s_endpgm
    bad:
        s_load_dword s2, s[2:3], 0x0
        s_endpgm
    ";

    /// Byte offsets in `TWO_BARRIERS` (one dword per instruction but the load, two).
    const PC_ENDPGM: u32 = 24;
    const PC_LOAD: u32 = 28;

    /// `groups` workgroups of 256 items of `TWO_BARRIERS` (GCN 1.2; 8 VGPRs, workgroup
    /// id X in s0, nothing else), each wave allowed `budget` instructions.
    fn dispatch(groups: u32, budget: u64) -> (Dispatch, Program) {
        let code = crate::assemble(Arch::Gcn(Gen::Gfx8), TWO_BARRIERS).expect("assembles");
        let prog = Program::new(Arch::Gcn(Gen::Gfx8), &code);
        let mut b = [0u8; 64];
        b[48..52].copy_from_slice(&1u32.to_le_bytes());
        b[52..56].copy_from_slice(&(1u32 << 7).to_le_bytes());
        let kd = KernelDescriptor::parse(&b).expect("parses");
        let d = Dispatch {
            gen: Gen::Gfx8,
            kd,
            entry: 0,
            code_base: 0,
            grid: [256 * groups, 1, 1],
            block: [256, 1, 1],
            kernarg: 0,
            dispatch_packet: 0,
            queue: 0,
            dispatch_id: 0,
            lds_bytes: 0,
            scratch: None,
            max_insts_per_wave: budget,
            limits: Limits::default(),
        };
        (d, prog)
    }

    #[test]
    fn workgroups_counted_on_in_order() {
        // Every workgroup of a 3 x 2 x 4 grid in X-fastest order, from nested loops.
        let groups = [3, 2, 4];
        let mut order = Vec::new();
        for z in 0..4 {
            for y in 0..2 {
                for x in 0..3 {
                    order.push([x, y, z]);
                }
            }
        }
        for pair in order.windows(2) {
            assert_eq!(next_group(groups, pair[0]), pair[1], "after {:?}", pair[0]);
        }
    }

    #[test]
    fn counters_of_every_worker_add_up() {
        // 5 workgroups (ids 0-4: none faults) of 4 waves: 7 instructions per wave, 2
        // barriers per group, each releasing its 4 waves. On every engine, on 1 to 3
        // host workers.
        let (d, prog) = dispatch(5, 1000);
        let mem = Memory::new();
        for &(name, e) in Engine::ALL {
            for threads in 1..=3 {
                let st = run(&d, &prog, &mem, for_engine(e).as_ref(), threads, None)
                    .unwrap_or_else(|err| panic!("{name} {threads}: {err}"));
                let want = GridStats {
                    workgroups: 5,
                    waves: 20,
                    insts: 20 * 7,
                    barriers: 10,
                    barrier_waves: 40,
                };
                assert_eq!(st, want, "{name} on {threads} workers");
            }
        }
    }

    #[test]
    fn the_budget_counts_every_run_of_a_wave() {
        // Seven instructions per wave over three runs (to each barrier, then to the end):
        // a budget of 7 is enough, 6 stops wave 0 of workgroup 0 at its s_endpgm.
        let mem = Memory::new();
        for &(name, e) in Engine::ALL {
            let engine = for_engine(e);
            let (d, prog) = dispatch(1, 7);
            let st = run(&d, &prog, &mem, engine.as_ref(), 1, None);
            assert_eq!(st.map(|s| s.insts).ok(), Some(28), "{name}");
            let (d, prog) = dispatch(1, 6);
            match run(&d, &prog, &mem, engine.as_ref(), 1, None) {
                Err(GridError::Budget {
                    wg,
                    wave,
                    budget,
                    pc,
                    ..
                }) => assert_eq!(
                    (wg, wave, budget, pc),
                    ([0, 0, 0], 0, 6, PC_ENDPGM),
                    "{name}"
                ),
                other => panic!("{name}: expected the budget error, got {other:?}"),
            }
        }
    }

    #[test]
    fn the_lowest_failing_workgroup_is_the_error() {
        // Of 64 workgroups, those from 5 on fault at their load. Workgroups are taken in
        // order, so 5 always runs: whatever the workers, its wave 0's fault is the error.
        let (d, prog) = dispatch(64, 1000);
        let mem = Memory::new();
        for &(name, e) in Engine::ALL {
            for threads in [1, 2, 4] {
                match run(&d, &prog, &mem, for_engine(e).as_ref(), threads, None) {
                    Err(GridError::Exec { wg, wave, err }) => assert_eq!(
                        (wg, wave, err.pc),
                        ([5, 0, 0], 0, PC_LOAD),
                        "{name} on {threads} workers: {err}"
                    ),
                    other => panic!("{name} {threads}: expected a fault, got {other:?}"),
                }
            }
        }
    }
}
