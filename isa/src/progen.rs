//! The structure-aware random program generator of the differential fuzzer.
//!
//! It is driven by the instruction table: the candidates are every row of
//! `isa/tables/gcn.tsv` that exists in the generation, in each encoding the row can take
//! (native, VOP3, SDWA, DPP), and operands are chosen from the row's signature and layout
//! (`gcn::operand::operands`). A new row is therefore fuzzed without new code here; the
//! caller only says which candidates its engines implement (`gcn::Pool::new`'s filter,
//! which `wavejit::fuzz` answers by running each candidate once in the interpreter).
//!
//! Every instruction is an `Inst` checked by the encoder (which decodes what it wrote), so
//! generated programs are legal by construction. Around the random instructions the
//! generator builds the control structures where engines go wrong: bounded scalar-counted
//! loops, `s_and_saveexec_b64` regions skipped by `s_cbranch_execz`, forward conditional
//! branches on SCC/VCC/EXEC. Memory instructions address only what the state maps, through
//! reserved registers (`layout`), except for a few deliberately out of range.
//!
//! Everything is deterministic from a seed: `rng(seed, index)` gives the generator of
//! program `index` of a campaign, whatever thread makes it.
//!
//! - `layout` — reserved registers and the memory map programs rely on;
//! - `values` — interesting bit patterns (float specials, NaN payloads, denormals, …);
//! - `gcn` — candidates, the weighted pool and single-instruction synthesis;
//! - `shape` — programs: straight-line runs, loops, EXEC regions, branches;
//! - `state` — random initial GCN states;
//! - `drawn` — the pixel-shader inputs a rasteriser gives a wave (M0, LDS parameters, I/J),
//!   put into some of those states for VINTRP and EXP;
//! - `vp1` — programs and states for the VP1 scalar unit.

pub mod drawn;
pub mod gcn;
pub mod layout;
pub mod shape;
pub mod state;
pub mod values;
pub mod vp1;

pub use rand::rngs::StdRng;
use rand::SeedableRng;

/// The random generator of program `index` of the campaign with `seed`. Independent of
/// the order programs are made in (threads), and of every other program.
pub fn rng(seed: u64, index: u64) -> StdRng {
    // splitmix64 of the pair: neighbouring indices give unrelated streams.
    let mut z = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(index)
        .wrapping_add(0x632B_E59B_D9B4_E019);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    StdRng::seed_from_u64(z)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn streams_are_deterministic_and_distinct() {
        let a: u64 = rng(1, 7).random();
        let b: u64 = rng(1, 7).random();
        let c: u64 = rng(1, 8).random();
        let d: u64 = rng(2, 7).random();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_ne!(a, d);
    }
}
