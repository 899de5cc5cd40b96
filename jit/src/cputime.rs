//! Time spent compiling, on the compiling thread's CPU clock: on a host shared with other
//! work the wall clock measures the scheduler as much as the compiler. Where the OS gives
//! no thread clock, the wall clock. The process's CPU clock too, which the benchmarks
//! read.

use std::time::Instant;

/// A started measurement.
pub struct Timer {
    cpu: Option<u64>,
    wall: Instant,
}

impl Timer {
    pub fn start() -> Timer {
        Timer {
            cpu: thread_cpu_nanos(),
            wall: Instant::now(),
        }
    }

    /// Nanoseconds since `start`: thread CPU time when both readings exist.
    pub fn nanos(&self) -> u64 {
        match (self.cpu, thread_cpu_nanos()) {
            (Some(a), Some(b)) => b.saturating_sub(a),
            _ => self.wall.elapsed().as_nanos() as u64,
        }
    }
}

/// CPU nanoseconds of the calling thread (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`).
pub fn thread_cpu_nanos() -> Option<u64> {
    clock_nanos(3)
}

/// CPU nanoseconds of this process, all threads (`clock_gettime(CLOCK_PROCESS_CPUTIME_ID)`).
pub fn process_cpu_nanos() -> Option<u64> {
    clock_nanos(2)
}

/// The reading of the POSIX clock `clock` (Linux's clock ids) in nanoseconds.
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
fn clock_nanos(clock: i32) -> Option<u64> {
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
    }
    let mut ts = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec of the C layout on 64-bit Linux (time_t
    // and long are 64 bits); the C library is linked by std.
    let r = unsafe { clock_gettime(clock, &mut ts) };
    (r == 0 && ts.tv_sec >= 0).then(|| ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64)
}

#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
fn clock_nanos(_clock: i32) -> Option<u64> {
    None
}

#[cfg(test)]
mod tests {
    #[test]
    fn thread_time_advances_with_work() {
        let t = super::Timer::start();
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
        assert!(t.nanos() > 0, "{x}");
    }
}
