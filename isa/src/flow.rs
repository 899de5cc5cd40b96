//! How an instruction leaves the straight line: what the decoders of both ISAs report and
//! the IR splits blocks by.

/// How an instruction leaves the straight line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Falls through to the next instruction.
    Next,
    /// Jumps to `target` (a byte offset), always or only when its condition holds.
    Branch { target: u32, conditional: bool },
    /// Jump to a computed address (s_setpc_b64, s_swappc_b64, s_cbranch_g_fork, …).
    Indirect,
    /// Ends the program (s_endpgm).
    End,
    /// Continues, but the block must end here (s_barrier: waves of a group meet).
    Barrier,
}
