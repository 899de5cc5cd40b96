//! Keep freed memory in the heap for the fuzzing process. Every program copies whole
//! wave states, LDS images and memory regions (tens to hundreds of KiB) and frees them;
//! with glibc's defaults those blocks are mapped and unmapped, or trimmed off the top of
//! the heap, over and over, and the page faults of touching fresh pages were about a
//! quarter of a `wavejit fuzz` run's CPU time (perf). Raising the mmap and trim
//! thresholds makes the next program reuse the same pages. Elsewhere than glibc, nothing.

use std::sync::Once;

/// Called by campaigns and the fuzz targets; the first call sets the thresholds.
pub fn keep_freed_memory() {
    static ONCE: Once = Once::new();
    ONCE.call_once(set);
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn set() {
    extern "C" {
        fn mallopt(param: i32, value: i32) -> i32;
    }
    const M_TRIM_THRESHOLD: i32 = -1;
    const M_MMAP_THRESHOLD: i32 = -3;
    // SAFETY: `mallopt` only changes the allocator's tuning parameters; glibc is the C
    // library std links on this target. A refused value leaves the default.
    unsafe {
        mallopt(M_MMAP_THRESHOLD, 64 << 20);
        mallopt(M_TRIM_THRESHOLD, 256 << 20);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn set() {}
