//! `Program::regs` against the interpreter: generated programs run from their state and
//! again with every register the program does not name overwritten by other values must
//! end alike — same result or error, memory, LDS, scalar fields and named registers — and
//! must leave the registers they do not name as they found them. A form whose operand
//! widths `RegUse` underestimates (a pair read as one register, a tuple cut short) reads
//! or writes a register outside the set and fails this.

use wavejit::engine::Interp;
use wavejit::isa::ir::RegUse;
use wavejit::isa::state::{LANES, NUM_SREG_SLOTS, NUM_VGPRS};
use wavejit::isa::Gen;
use wavejit_fuzzing::campaign::gcn_case;
use wavejit_fuzzing::case::run_gcn;

/// Programs per generation: every form of the pool many times over in release.
const PROGRAMS: u64 = if cfg!(debug_assertions) { 40 } else { 3000 };

/// A value for lane `lane` of VGPR `v` (or SGPR slot `v`, lane 0) unlike the state's:
/// different per register and lane, so a read from the wrong one shows.
fn other(v: usize, lane: usize) -> u32 {
    ((v * LANES + lane) as u32 + 1).wrapping_mul(0x9E37_79B9) ^ 0xA5A5_0F0F
}

#[test]
fn registers_a_program_does_not_name_change_nothing() {
    for gen in [Gen::Gfx6, Gen::Gfx7, Gen::Gfx8] {
        let (mut checked, mut all, mut unnamed) = (0u64, 0u64, 0u64);
        for index in 0..PROGRAMS {
            let (case, run) = gcn_case(gen, 0x5EED_0012, index, 24);
            let Some((prog, clean)) = run else {
                continue;
            };
            let regs = prog.regs;
            if regs == RegUse::ALL {
                all += 1;
                continue;
            }
            let mut state = case.state.clone();
            for v in (0..NUM_VGPRS).filter(|&v| !regs.vgpr(v)) {
                unnamed += 1;
                for (lane, x) in state.wave.vgpr[v].iter_mut().enumerate() {
                    *x = other(v, lane);
                }
            }
            for s in (0..NUM_SREG_SLOTS).filter(|&s| !regs.sgpr(s)) {
                state.wave.sgpr[s] = other(s, 0);
            }
            let dirty = run_gcn(&Interp, &prog, &state);
            let text: Vec<String> = prog
                .slots
                .iter()
                .map(|s| match &s.inst {
                    Ok(wavejit::isa::ir::Inst::Gcn(i)) => {
                        format!(
                            "{:4x}: {}",
                            s.pc,
                            wavejit::isa::gcn::fmt::format(
                                gen,
                                i,
                                s.pc,
                                wavejit::isa::gcn::fmt::Syntax::Llvm
                            )
                        )
                    }
                    _ => format!("{:4x}: ?", s.pc),
                })
                .collect();
            let at = format!("{gen:?} program {index}:\n{}\n", text.join("\n"));
            assert_eq!(clean.result, dirty.result, "{at}: how the run ended");
            assert_eq!(clean.mem, dirty.mem, "{at}: memory");
            assert_eq!(clean.lds, dirty.lds, "{at}: LDS");
            let (c, d) = (&clean.wave, &dirty.wave);
            assert_eq!(
                (c.exec, c.vcc, c.m0, c.scc, c.mode, c.pc),
                (d.exec, d.vcc, d.m0, d.scc, d.mode, d.pc),
                "{at}: scalar fields"
            );
            assert_eq!(c.exports, d.exports, "{at}: exports");
            for v in 0..NUM_VGPRS {
                if regs.vgpr(v) {
                    assert_eq!(c.vgpr[v], d.vgpr[v], "{at}: v{v}, named");
                } else {
                    assert_eq!(c.vgpr[v], case.state.wave.vgpr[v], "{at}: v{v} written");
                    assert_eq!(d.vgpr[v], state.wave.vgpr[v], "{at}: v{v} written");
                }
            }
            for s in 0..NUM_SREG_SLOTS {
                if regs.sgpr(s) {
                    assert_eq!(c.sgpr[s], d.sgpr[s], "{at}: s{s}, named");
                } else {
                    assert_eq!(c.sgpr[s], case.state.wave.sgpr[s], "{at}: s{s} written");
                    assert_eq!(d.sgpr[s], state.wave.sgpr[s], "{at}: s{s} written");
                }
            }
            checked += 1;
        }
        println!("{gen:?}: {checked} programs checked ({unnamed} unnamed VGPRs), {all} name every register");
        // Most generated programs name a few registers of the pools: the check must have
        // had something to check.
        assert!(
            checked > PROGRAMS / 2,
            "{gen:?}: only {checked} programs checked"
        );
        assert!(unnamed > checked * 200, "{gen:?}: {unnamed} unnamed VGPRs");
    }
}
