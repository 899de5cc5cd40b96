//! Memory instructions: scalar loads/stores (`smem`: SMRD on GCN 1.0/1.1, SMEM on 1.2),
//! the local data share (`ds`), buffer accesses through a resource descriptor (`mubuf`)
//! and 64-bit flat addresses (`flat`). Atomic operations are shared (`atomic`).
//!
//! Every access goes through the checked methods of `Lds` and `Memory`: an address
//! outside them is `OutOfBounds` naming the space, address, size and (for vector
//! instructions) the first lane that faulted, never a host crash. A vector instruction
//! that faults stops at that lane; the lanes before it have done their accesses.

pub mod atomic;
pub mod buffer;
pub mod ds;
pub mod flat;
pub mod mubuf;
pub mod smem;

use wavejit_isa::state::{MemFault, LANES, NUM_VGPRS};

use crate::error::ExecErrorKind;

/// The index of VGPR `base + k`, refused when it runs past v255.
pub(crate) fn vreg(base: u8, k: usize) -> Result<usize, ExecErrorKind> {
    let r = base as usize + k;
    if r < NUM_VGPRS {
        Ok(r)
    } else {
        Err(ExecErrorKind::BadOperand(format!(
            "v{base} + {k} is past v{}",
            NUM_VGPRS - 1
        )))
    }
}

/// Check that `count` VGPRs from `base` exist, once per instruction.
pub(crate) fn vregs(base: u8, count: usize) -> Result<usize, ExecErrorKind> {
    vreg(base, count.saturating_sub(1)).map(|_| base as usize)
}

/// Lanes whose EXEC bit is set, lowest first.
pub(crate) fn active_lanes(exec: u64) -> impl Iterator<Item = usize> {
    (0..LANES).filter(move |l| (exec >> l) & 1 != 0)
}

/// A fault of `lane`.
pub(crate) fn lane_fault(f: MemFault, lane: usize) -> ExecErrorKind {
    ExecErrorKind::fault(f, Some(lane as u8))
}

/// The error for an access that the hardware requires to be aligned.
pub(crate) fn misaligned(what: &str, addr: u64, align: u64, lane: Option<usize>) -> ExecErrorKind {
    let at = lane.map(|l| format!(" (lane {l})")).unwrap_or_default();
    ExecErrorKind::BadOperand(format!(
        "{what}: address 0x{addr:x}{at} is not {align}-byte aligned"
    ))
}
