//! What every memory family shares: checked VGPR ranges, the active lanes, the errors of a
//! faulting or misaligned lane, and the bytes an instruction moves (`Traffic`).

use wavejit_isa::state::{MemFault, LANES, NUM_VGPRS};

use crate::error::ExecErrorKind;

/// Bytes an instruction moves between the wave and memory, for the profiler: requested
/// bytes (no caches are modelled), per active lane for vector memory and per instruction
/// for scalar memory. An atomic writes its width and, when it returns the old value
/// (GLC), also reads it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traffic {
    pub read: u32,
    pub write: u32,
    /// `read`/`write` count once per active lane (vector memory), not once per wave.
    pub per_lane: bool,
}

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
