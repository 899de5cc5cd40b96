//! What runs the waves of one workgroup: the [`WaveRunner`] an engine hands out
//! (`WaveEngine::with_runner`), how a wave's run fails ([`WaveError`]), and the schedule
//! of a workgroup's waves over barriers ([`schedule`]).

use wavejit_interp::{ExecError, Step};
use wavejit_isa::state::Wave;

/// Runs waves of one program over one LDS and memory, one after another (the waves of a
/// workgroup, each to its barrier or end): made by [`WaveEngine::with_runner`], so that
/// what an engine sets up per run is set up once for all of them.
pub trait WaveRunner {
    /// `run_bound` of `wave` with at most `budget` instructions.
    fn run(&mut self, wave: &mut Wave, budget: u64) -> Result<(Step, u64), WaveError>;

    /// Zero the LDS the waves run over (a host worker's next workgroup starts with it
    /// cleared; its size stays as it is).
    fn clear_lds(&mut self);

    /// Run the waves of one workgroup, each to its barrier or end in turn, until all have
    /// ended ([`schedule`]); returns the barriers released and the waves released from
    /// them. Every runner has its own copy of this method, which calls its `run`
    /// directly: the grid makes one call through the runner's vtable per workgroup
    /// rather than per wave.
    fn run_group(&mut self, g: &mut GroupWaves) -> Result<(u64, u64), GroupStop> {
        schedule(g, self)
    }
}

/// How a wave's run failed.
#[derive(Debug, thiserror::Error)]
pub enum WaveError {
    #[error(transparent)]
    Exec(#[from] ExecError),
    /// The `diff` engine saw the interpreter and the JIT disagree.
    #[error("the interpreter and the JIT disagree: {0}")]
    Mismatch(wavejit_jit::Mismatch),
}

/// The waves of one workgroup as a host worker hands them to its runner
/// ([`WaveRunner::run_group`]): `used` and `ended` (one per wave, 0 and false) count each
/// wave's instructions against `budget`.
pub struct GroupWaves<'a> {
    pub waves: &'a mut [Box<Wave>],
    pub used: &'a mut [u64],
    pub ended: &'a mut [bool],
    pub budget: u64,
}

/// Why a workgroup's waves stopped before all ended: wave number `wave` failed with
/// `err`, or (`None`) ran out of its budget without an error, at its pc.
#[derive(Debug)]
pub struct GroupStop {
    pub wave: usize,
    pub err: Option<WaveError>,
}

/// Run the waves of `g` with `run`, each to its barrier or end in turn, until all have
/// ended. Returns the barriers released and the waves released from them. Generic: each
/// runner has its own copy (`WaveRunner::run_group`), whose per-wave call is direct.
pub fn schedule<R: WaveRunner + ?Sized>(
    g: &mut GroupWaves,
    run: &mut R,
) -> Result<(u64, u64), GroupStop> {
    let GroupWaves {
        waves,
        used,
        ended,
        budget,
    } = g;
    let budget = *budget;
    let (mut barriers, mut barrier_waves) = (0u64, 0u64);
    loop {
        // The waves this pass left at a barrier: every wave not ended runs in every
        // pass, so these are all the waves not ended after it.
        let mut waiting = 0u64;
        for (w, wave) in waves.iter_mut().enumerate() {
            if ended[w] {
                continue;
            }
            let left = budget.saturating_sub(used[w]);
            match run.run(wave, left) {
                Ok((step, k)) => {
                    // At least the s_barrier itself ran: the budget always shrinks, so a
                    // group whose waves keep meeting at barriers still ends.
                    used[w] += k.max(1);
                    match step {
                        Step::End => ended[w] = true,
                        Step::Barrier => waiting += 1,
                        Step::Continue => return Err(GroupStop { wave: w, err: None }),
                    }
                }
                Err(err) => {
                    return Err(GroupStop {
                        wave: w,
                        err: Some(err),
                    })
                }
            }
        }
        // Every wave is at the barrier or done: release the barrier (waves that ended no
        // longer count, as on the hardware).
        if waiting == 0 {
            return Ok((barriers, barrier_waves));
        }
        barriers += 1;
        barrier_waves += waiting;
    }
}
