//! The two tiers of compiled code: a unit is compiled quick first, counts its entries, and
//! at `hot_threshold` is compiled again, optimised, and replaces its quick code — with the
//! interpreter's results throughout, whichever tier runs.

mod common;

use common::*;
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::Op;
use wavejit_jit::{Jit, JitConfig};

/// `s0` trips round a loop of VALU and SALU work (`s0` set by `s_movk`).
fn looped(trips: u16) -> Vec<wavejit_isa::gcn::Inst> {
    let body = [
        vop2(Op::VAddU32, 1, v(1), 2),
        vop2(Op::VXorB32, 3, v(1), 4),
        vop2(Op::VMulLoU16, 5, v(3), 1),
    ];
    counted_loop(Gen::Gfx8, trips, &body)
}

#[test]
fn a_hot_loop_is_compiled_again_optimised() {
    let gen = Gen::Gfx8;
    let mut r = rng(13);
    let w = random_wave(gen, &mut r, 0xC0);
    // The loop unit is entered once per trip: 40 trips stay quick at a threshold of 50,
    // 60 go past it (the header counts every iteration of a unit that loops to itself).
    for (trips, hot) in [(40u16, 0u64), (60, 1)] {
        let jit = Jit::new(JitConfig {
            hot_threshold: 50,
            ..JitConfig::default()
        });
        let prog = program(gen, &looped(trips));
        check(&jit, &prog, &w, &format!("{trips} trips"));
        let st = jit.stats();
        assert!(st.quick_blocks >= 1, "{st:?}");
        assert_eq!(st.hot_blocks, hot, "{trips} trips: {st:?}");
        // Run again: the optimised unit (or still the quick one) gives the same state.
        check(&jit, &prog, &w, &format!("{trips} trips, again"));
    }
}

#[test]
fn without_a_quick_tier_everything_is_optimised_once() {
    let gen = Gen::Gfx8;
    let mut r = rng(14);
    let w = random_wave(gen, &mut r, 0xC0);
    let jit = Jit::new(JitConfig {
        hot_threshold: 0,
        ..JitConfig::default()
    });
    let prog = program(gen, &looped(300));
    check(&jit, &prog, &w, "300 trips");
    let st = jit.stats();
    assert_eq!((st.quick_blocks, st.hot_blocks), (0, 0), "{st:?}");
    assert!(st.blocks >= 1, "{st:?}");
}
