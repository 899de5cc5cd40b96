//! A campaign's worker reuses its buffers from run to run (`case::run_gcn_into`,
//! `progen::state::gcn_state_into`): a run into buffers that held another program's end
//! state, another state's memory layout or a wrong engine's stray writes must give
//! exactly what a run into fresh buffers gives, and the comparison must still see a
//! stray write anywhere in the state (a register no instruction names, the last LDS byte,
//! the last memory byte).

use wavejit::engine::{Interp, WaveEngine};
use wavejit::isa::ir::Program;
use wavejit::isa::progen::state::{gcn_state, gcn_state_into, GcnState};
use wavejit::isa::progen::{self, layout};
use wavejit::isa::state::{Lds, Memory, Wave};
use wavejit::isa::Gen;
use wavejit_fuzzing::campaign::{extra_gcn_state, gcn_case};
use wavejit_fuzzing::case::{run_gcn, run_gcn_into, GcnOutcome, GcnScratch, MAX_INSTS};
use wavejit_fuzzing::compare;
use wavejit_interp::{ExecError, Step};

/// Every field of two outcomes equal: the comparison finds nothing and the ends agree.
fn same(fresh: &GcnOutcome, reused: &GcnOutcome, what: &str) {
    let d = compare::gcn(fresh, reused);
    assert!(d.is_empty(), "{what}: {}", d.first());
    assert_eq!(fresh.result, reused.result, "{what}");
    assert_eq!(fresh.mem.len(), reused.mem.len(), "{what}");
}

#[test]
fn reused_buffers_give_what_fresh_ones_give() {
    for gen in Gen::ALL {
        let mut scratch = GcnScratch::default();
        let mut out = GcnOutcome::empty();
        let mut st = GcnState::empty(gen);
        for index in 0..24u64 {
            let (case, run) = gcn_case(gen, 11, index, 24);
            let (prog, _) = run.expect("the program encodes");
            for k in 0..3u32 {
                let mut state = if k == 0 {
                    case.state.clone()
                } else {
                    extra_gcn_state(gen, 11, index, k, &case.state)
                };
                // Now and then another memory layout: a second region, or a shorter one.
                match (index + k as u64) % 5 {
                    0 => state.mem.push((0x0010_0000, vec![0xA5; 64])),
                    1 => state.mem[0].1.truncate(4094),
                    _ => {}
                }
                let fresh = run_gcn(&Interp, &prog, &state);
                run_gcn_into(&Interp, &prog, &state, MAX_INSTS, &mut scratch, &mut out);
                same(&fresh, &out, &format!("{gen} program {index} state {k}"));
            }
            // A state drawn into a buffer that held another equals one drawn fresh.
            let mut rng = progen::rng(12, index);
            let fresh = gcn_state(gen, &mut rng.clone());
            gcn_state_into(gen, &mut rng, &mut st);
            assert_eq!(fresh.wave.vgpr[..], st.wave.vgpr[..]);
            assert_eq!(fresh.wave.sgpr[..], st.wave.sgpr[..]);
            let scalars = |w: &Wave| (w.exec, w.vcc, w.m0, w.scc, w.mode, w.pc, w.gen);
            assert_eq!(scalars(&fresh.wave), scalars(&st.wave));
            assert_eq!(fresh.lds, st.lds);
            assert_eq!(fresh.mem, st.mem);
            // Dirty it for the next draw.
            st.wave.vgpr[200][7] = 1;
            st.wave.exports = out.wave.exports.clone();
            st.lds[60_000] = 9;
            st.mem.push((1 << 40, vec![1; 8]));
        }
    }
}

/// Where the wrong engine writes besides what the interpreter does.
#[derive(Clone, Copy)]
enum Stray {
    /// A VGPR no generated program names.
    Vgpr,
    /// A trap temporary.
    Ttmp,
    /// The last LDS byte.
    Lds,
    /// The last byte of the state's memory.
    Memory,
}

/// The interpreter, plus one stray write.
struct Wrong(Stray);

impl WaveEngine for Wrong {
    fn name(&self) -> &'static str {
        "wrong"
    }

    fn run(
        &self,
        prog: &Program,
        wave: &mut Wave,
        lds: &mut Lds,
        mem: &Memory,
        max_insts: u64,
    ) -> Result<(Step, u64), ExecError> {
        let r = Interp.run(prog, wave, lds, mem, max_insts);
        match self.0 {
            Stray::Vgpr => wave.vgpr[200][63] ^= 1,
            Stray::Ttmp => wave.sgpr[119] ^= 0x100,
            Stray::Lds => {
                if let Some(b) = lds.bytes.last_mut() {
                    *b ^= 0x80;
                }
            }
            Stray::Memory => {
                let last = layout::MEM_BASE + layout::MEM_SIZE - 1;
                let mut b = [0u8];
                if mem.read(last, &mut b).is_ok() {
                    let _ = mem.write(last, &[b[0] ^ 1]);
                }
            }
        }
        r
    }
}

#[test]
fn a_stray_write_anywhere_is_found_and_does_not_outlive_its_run() {
    let gen = Gen::Gfx8;
    let (case, run) = gcn_case(gen, 3, 5, 24);
    let (prog, _) = run.expect("the program encodes");
    let state = &case.state;
    let fresh = run_gcn(&Interp, &prog, state);
    let (mut scratch, mut a, mut b) = (
        GcnScratch::default(),
        GcnOutcome::empty(),
        GcnOutcome::empty(),
    );
    let lds_last = layout::LDS_SIZE as u64 - 4;
    let mem_last = layout::MEM_BASE + layout::MEM_SIZE - 4;
    for (stray, place) in [
        (Stray::Vgpr, "v200 lane 63".to_string()),
        (Stray::Ttmp, "ttmp7".to_string()),
        (Stray::Lds, format!("lds {lds_last:#x}")),
        (Stray::Memory, format!("memory {mem_last:#x}")),
    ] {
        run_gcn_into(&Interp, &prog, state, MAX_INSTS, &mut scratch, &mut a);
        run_gcn_into(&Wrong(stray), &prog, state, MAX_INSTS, &mut scratch, &mut b);
        let d = compare::gcn(&a, &b);
        assert_eq!(d.total, 1, "{place}: {:?}", d.listed);
        assert_eq!(d.listed[0].place, place);
        // The next run into the same buffers starts from the state again.
        run_gcn_into(&Interp, &prog, state, MAX_INSTS, &mut scratch, &mut b);
        same(&fresh, &b, &place);
    }
}
