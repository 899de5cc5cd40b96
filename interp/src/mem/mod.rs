//! Memory instructions: scalar loads/stores (`smem`: SMRD on GCN 1.0/1.1, SMEM on 1.2),
//! the local data share (`ds`), buffer accesses through a resource descriptor (`mubuf`)
//! and 64-bit flat addresses (`flat`). Atomic operations are shared (`atomic`).
//!
//! Every access goes through the checked methods of `Lds` and `Memory`: an address
//! outside them is `OutOfBounds` naming the space, address, size and (for vector
//! instructions) the first lane that faulted, never a host crash. A vector instruction
//! that faults stops at that lane; the lanes before it have done their accesses.

mod access;
pub mod atomic;
pub mod buffer;
pub mod ds;
pub mod flat;
pub mod mubuf;
pub mod smem;

pub use access::Traffic;

/// [`Traffic`] of a scalar or vector memory instruction; `None` for everything else (LDS
/// accesses are not memory traffic; cache operations move no data).
pub fn traffic(inst: &wavejit_isa::gcn::Inst) -> Option<Traffic> {
    use wavejit_isa::gcn::Enc;
    match inst.enc {
        Enc::Smrd | Enc::Smem => smem::traffic(inst),
        Enc::Mubuf => mubuf::traffic(inst),
        Enc::Flat => flat::traffic(inst),
        _ => None,
    }
}
