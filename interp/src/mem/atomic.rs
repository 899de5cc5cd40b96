//! The read-modify-write operations shared by DS, MUBUF and FLAT atomics (AMD SI/CI/GCN3
//! ISA manuals): given the old memory value and the instruction's data, the new value.
//! The instruction returns the old value when it asks for it (`_rtn`, GLC=1).

use wavejit_isa::gcn::Op;

/// One atomic operation. `a` and `b` name the data operands as each kind uses them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    /// `M = a`.
    Swap,
    /// `M = (M == b) ? a : M` — `a` the new value, `b` the compare value.
    CmpSwap,
    /// `M = M + a`.
    Add,
    /// `M = M - a`.
    Sub,
    /// `M = a - M`.
    Rsub,
    Smin,
    Umin,
    Smax,
    Umax,
    And,
    Or,
    Xor,
    /// `M = (M >= a) ? 0 : M + 1` (unsigned): a wrapping counter up to `a`.
    Inc,
    /// `M = (M == 0 || M > a) ? a : M - 1` (unsigned).
    Dec,
    /// `M = (M & ~a) | b` — `a` the mask, `b` the bits to set.
    MskOr,
}

/// The new memory value of `op` from the old one `m` and the data `a`, `b`, at one width:
/// `$u` the width's unsigned type, `$s` its signed one (for SMIN/SMAX).
macro_rules! apply {
    ($op:expr, $m:expr, $a:expr, $b:expr, $u:ty, $s:ty) => {{
        use AtomicOp::*;
        let (m, a, b): ($u, $u, $u) = ($m, $a, $b);
        match $op {
            Swap => a,
            CmpSwap => {
                if m == b {
                    a
                } else {
                    m
                }
            }
            Add => m.wrapping_add(a),
            Sub => m.wrapping_sub(a),
            Rsub => a.wrapping_sub(m),
            Smin => (m as $s).min(a as $s) as $u,
            Umin => m.min(a),
            Smax => (m as $s).max(a as $s) as $u,
            Umax => m.max(a),
            And => m & a,
            Or => m | a,
            Xor => m ^ a,
            Inc => {
                if m >= a {
                    0
                } else {
                    m + 1
                }
            }
            Dec => {
                if m == 0 || m > a {
                    a
                } else {
                    m - 1
                }
            }
            MskOr => (m & !a) | b,
        }
    }};
}

impl AtomicOp {
    /// The new 32-bit memory value.
    pub fn apply32(self, m: u32, a: u32, b: u32) -> u32 {
        apply!(self, m, a, b, u32, i32)
    }

    /// The new 64-bit memory value.
    pub fn apply64(self, m: u64, a: u64, b: u64) -> u64 {
        apply!(self, m, a, b, u64, i64)
    }
}

/// The atomic operation and width (bytes) of a MUBUF or FLAT atomic, if `op` is one this
/// interpreter runs. (The float atomics of GCN 1.0/1.1 are not among them.)
pub fn vmem_atomic(op: Op) -> Option<(AtomicOp, u32)> {
    use AtomicOp as A;
    use Op::*;
    Some(match op {
        BufferAtomicSwap | FlatAtomicSwap => (A::Swap, 4),
        BufferAtomicCmpswap | FlatAtomicCmpswap => (A::CmpSwap, 4),
        BufferAtomicAdd | FlatAtomicAdd => (A::Add, 4),
        BufferAtomicSub | FlatAtomicSub => (A::Sub, 4),
        BufferAtomicSmin | FlatAtomicSmin => (A::Smin, 4),
        BufferAtomicUmin | FlatAtomicUmin => (A::Umin, 4),
        BufferAtomicSmax | FlatAtomicSmax => (A::Smax, 4),
        BufferAtomicUmax | FlatAtomicUmax => (A::Umax, 4),
        BufferAtomicAnd | FlatAtomicAnd => (A::And, 4),
        BufferAtomicOr | FlatAtomicOr => (A::Or, 4),
        BufferAtomicXor | FlatAtomicXor => (A::Xor, 4),
        BufferAtomicInc | FlatAtomicInc => (A::Inc, 4),
        BufferAtomicDec | FlatAtomicDec => (A::Dec, 4),
        BufferAtomicSwapX2 | FlatAtomicSwapX2 => (A::Swap, 8),
        BufferAtomicCmpswapX2 | FlatAtomicCmpswapX2 => (A::CmpSwap, 8),
        BufferAtomicAddX2 | FlatAtomicAddX2 => (A::Add, 8),
        BufferAtomicSubX2 | FlatAtomicSubX2 => (A::Sub, 8),
        BufferAtomicSminX2 | FlatAtomicSminX2 => (A::Smin, 8),
        BufferAtomicUminX2 | FlatAtomicUminX2 => (A::Umin, 8),
        BufferAtomicSmaxX2 | FlatAtomicSmaxX2 => (A::Smax, 8),
        BufferAtomicUmaxX2 | FlatAtomicUmaxX2 => (A::Umax, 8),
        BufferAtomicAndX2 | FlatAtomicAndX2 => (A::And, 8),
        BufferAtomicOrX2 | FlatAtomicOrX2 => (A::Or, 8),
        BufferAtomicXorX2 | FlatAtomicXorX2 => (A::Xor, 8),
        BufferAtomicIncX2 | FlatAtomicIncX2 => (A::Inc, 8),
        BufferAtomicDecX2 | FlatAtomicDecX2 => (A::Dec, 8),
        _ => return None,
    })
}

/// Why a global atomic could not run.
pub enum GlobalAtomicError {
    Misaligned,
    Fault(wavejit_isa::state::MemFault),
}

/// Apply `op` to the `size`-byte (4 or 8) word of global memory at `addr` and return the
/// old value. The address must be aligned to the size.
///
/// Both sizes are atomic with respect to other host threads (`Memory::rmw_u32`,
/// `Memory::rmw_u64`).
pub fn global_rmw(
    mem: &wavejit_isa::state::Memory,
    addr: u64,
    op: AtomicOp,
    size: u32,
    a: u64,
    b: u64,
) -> Result<u64, GlobalAtomicError> {
    if addr & (size as u64 - 1) != 0 {
        return Err(GlobalAtomicError::Misaligned);
    }
    if size == 4 {
        let old = mem
            .rmw_u32(addr, |m| op.apply32(m, a as u32, b as u32))
            .map_err(GlobalAtomicError::Fault)?;
        return Ok(old as u64);
    }
    mem.rmw_u64(addr, |m| op.apply64(m, a, b))
        .map_err(GlobalAtomicError::Fault)
}
