//! SOPC: scalar compares (AMD SI/CI/GCN3 ISA manuals, "SOPC Instructions"). Each writes
//! only SCC. The compares' condition and type come from the table (`cmp` column,
//! `Op::compare`, run by `super::adapt::cmp`); the bit tests are written here.
/// `SCC = S0[S1[4:0]] == 0`.
pub fn s_bitcmp0_b32(a: u32, b: u32) -> bool {
    (a >> (b & 31)) & 1 == 0
}
/// `SCC = S0[S1[4:0]] == 1`.
pub fn s_bitcmp1_b32(a: u32, b: u32) -> bool {
    (a >> (b & 31)) & 1 == 1
}
/// `SCC = S0[S1[5:0]] == 0` on a 64-bit S0.
pub fn s_bitcmp0_b64(a: u64, b: u32) -> bool {
    (a >> (b & 63)) & 1 == 0
}
/// `SCC = S0[S1[5:0]] == 1` on a 64-bit S0.
pub fn s_bitcmp1_b64(a: u64, b: u32) -> bool {
    (a >> (b & 63)) & 1 == 1
}
