//! Where generated programs keep things: the registers random instructions may write,
//! the registers reserved for addresses, loop counters and saved EXEC masks, and the
//! memory the state maps.
//!
//! Random destinations come only from the pools (`VPOOL`, `SPOOL`), so a random
//! instruction never clobbers an address or a loop counter (only `s_movrel*`, which
//! index by M0, can; the instruction budget bounds any loop that breaks).

/// Random VGPR operands are `v0 .. v[VPOOL-1]`.
pub const VPOOL: u8 = 24;
/// Random SGPR operands are `s0 .. s[SPOOL-1]`.
pub const SPOOL: u8 = 32;

/// `v248`: a per-lane LDS byte address (`lds_base + 16 × lane`).
pub const V_LDS_ADDR: u8 = 248;
/// `v249`: a per-lane buffer record index (the lane id) for IDXEN accesses.
pub const V_BUF_IDX: u8 = 249;
/// `v250`: a per-lane buffer byte offset (`16 × lane + k`) for OFFEN accesses. With
/// IDXEN and OFFEN both set, `v[249:250]` is the (index, offset) pair.
pub const V_BUF_OFF: u8 = 250;
/// `v[252:253]`: a per-lane 64-bit FLAT address inside the mapped region.
pub const V_FLAT_ADDR: u8 = 252;
/// `v[254:255]`: a per-lane 64-bit offset for ADDR64 buffer accesses (GCN 1.0/1.1).
pub const V_ADDR64: u8 = 254;

/// `s80..s83`: loop counters, one per nesting depth.
pub const S_LOOP: u8 = 80;
/// Maximum loop nesting.
pub const MAX_LOOP_DEPTH: u8 = 2;
/// `s[84:85]`, `s[86:87]`, …: EXEC saved by `s_and_saveexec_b64`, one pair per depth.
pub const S_SAVE: u8 = 84;
/// Maximum nesting of EXEC regions.
pub const MAX_EXEC_DEPTH: u8 = 3;
/// `s[92:95]`: the buffer resource (V#) of the mapped region.
pub const S_RSRC: u8 = 92;
/// `s[96:97]`: a 64-bit base address in the mapped region for scalar loads.
pub const S_BASE: u8 = 96;

/// Bytes of LDS the state has (all of it: 64 KiB).
pub const LDS_SIZE: usize = 64 * 1024;
/// Bytes of LDS filled with random data (the rest is zero).
pub const LDS_FILLED: usize = 4096;
/// The one mapped region of global memory.
pub const MEM_BASE: u64 = 0x0001_0000;
pub const MEM_SIZE: u64 = 8192;
