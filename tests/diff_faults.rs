//! `--engine diff` on faulting programs: a fault at each position of a block (LDS, flat and
//! scalar memory out of range, a misaligned LDS access, `s_movrels_b32` past the SGPRs)
//! is the same error, at the same pc, on the interpreter, the JIT and the diff engine —
//! never reported as a disagreement of the engines.

use wavejit::isa::ir::Program;
use wavejit::isa::state::{Lds, Memory, Wave};
use wavejit::isa::{Arch, Gen};
use wavejit::{run_wave, Engine, WaveError};

/// Work around the fault, lane-independent and scalar.
const FILLER: [&str; 6] = [
    "v_add_u32 v3, vcc, 1, v3",
    "s_add_u32 s10, s10, 1",
    "v_mul_lo_u32 v6, v3, v3",
    "v_xor_b32 v7, v6, v3",
    "s_mul_i32 s11, s10, s10",
    "v_mov_b32 v8, s11",
];

/// A faulting instruction and the state that makes it fault.
struct Fault {
    inst: &'static str,
    setup: fn(&mut Wave),
    /// Substring of the expected error's text (the kind, as the interpreter names it).
    says: &'static str,
}

const FAULTS: [Fault; 5] = [
    Fault {
        inst: "ds_read_b32 v2, v1",
        setup: |w| w.vgpr[1] = [0x1_0000; 64],
        says: "out of bounds",
    },
    Fault {
        inst: "ds_read_b64 v[12:13], v1",
        setup: |w| w.vgpr[1] = [4; 64],
        says: "aligned",
    },
    Fault {
        inst: "flat_load_dword v2, v[4:5]",
        setup: |w| {
            w.vgpr[4] = [0x7000_0000; 64];
            w.vgpr[5] = [0x10; 64];
        },
        says: "out of bounds",
    },
    Fault {
        inst: "s_load_dword s4, s[0:1], 0x0",
        setup: |w| {
            w.sgpr[0] = 0x7000_0000;
            w.sgpr[1] = 0x10;
        },
        says: "out of bounds",
    },
    Fault {
        inst: "s_movrels_b32 s0, s1",
        setup: |w| w.m0 = 200,
        says: "",
    },
];

fn run(engine: Engine, prog: &Program, setup: fn(&mut Wave)) -> WaveError {
    let mut w = Wave::new(Gen::Gfx8);
    setup(&mut w);
    let mut lds = Lds::new(256);
    let mem = Memory::new();
    match run_wave(engine, prog, &mut w, &mut lds, &mem, 1000) {
        Ok(_) => panic!("{engine:?}: no fault"),
        Err(e) => e,
    }
}

#[test]
fn a_fault_anywhere_in_a_block_is_the_same_error_on_every_engine() {
    let mut cases = 0;
    for f in &FAULTS {
        for k in 0..=FILLER.len() {
            let mut src: Vec<&str> = FILLER.to_vec();
            src.insert(k, f.inst);
            src.push("s_endpgm");
            let text = src.join("\n");
            let code = wavejit::assemble(Arch::Gcn(Gen::Gfx8), &text).expect("assembles");
            let prog = Program::new(Arch::Gcn(Gen::Gfx8), &code);
            let fault_pc = prog.slots[k].pc;
            let WaveError::Exec(interp) = run(Engine::Interp, &prog, f.setup) else {
                panic!("the interpreter's error is an execution error");
            };
            assert_eq!(
                interp.pc, fault_pc,
                "{}: the fault is at the faulting instruction",
                f.inst
            );
            assert!(interp.to_string().contains(f.says), "{}: {interp}", f.inst);
            for engine in [Engine::Jit, Engine::Tiered, Engine::Diff] {
                match run(engine, &prog, f.setup) {
                    WaveError::Exec(e) => {
                        assert_eq!(e, interp, "{} at position {k} on {engine:?}", f.inst)
                    }
                    other => panic!(
                        "{} at position {k} on {engine:?} (None: diff): {other}",
                        f.inst
                    ),
                }
            }
            cases += 1;
        }
    }
    assert_eq!(cases, FAULTS.len() * (FILLER.len() + 1));
}
