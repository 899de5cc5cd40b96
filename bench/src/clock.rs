//! The clock of single-worker measurements: CPU time of this process (user + system,
//! nanosecond resolution) where the OS gives it, wall time otherwise. On a host shared
//! with other work (the 2-core machine these numbers come from often runs a dozen
//! compilers at once) wall time measures the scheduler; CPU time measures the code.
//! Multi-thread scaling is timed on the wall clock (`Instant`), with CPU time beside it.

use std::time::Instant;

/// Which clock `now` reads.
pub fn name() -> &'static str {
    if cpu_time().is_some() {
        "process CPU time"
    } else {
        "wall time"
    }
}

/// Seconds since an arbitrary start, on the clock `name` says.
pub fn now() -> f64 {
    cpu_time().unwrap_or_else(|| {
        static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
        START.get_or_init(Instant::now).elapsed().as_secs_f64()
    })
}

/// Process CPU seconds (`clock_gettime(CLOCK_PROCESS_CPUTIME_ID)`).
pub fn cpu_time() -> Option<f64> {
    wavejit_jit::cputime::process_cpu_nanos().map(|n| n as f64 * 1e-9)
}

/// Nanoseconds the calling thread has run on a CPU and waited, runnable, for one
/// (`/proc/thread-self/schedstat`): waiting means the host had no free core for it.
pub fn thread_sched() -> Option<(u64, u64)> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let mut f = s.split_whitespace().map(|x| x.parse::<u64>().ok());
    Some((f.next()??, f.next()??))
}

#[cfg(test)]
mod tests {
    #[test]
    fn cpu_time_advances_with_work() {
        let t0 = super::now();
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
        assert!(super::now() > t0, "{x}");
    }
}
