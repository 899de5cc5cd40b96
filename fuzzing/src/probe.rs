//! Which table rows the fuzzer draws from: those the reference interpreter implements.
//! Each candidate of `progen::gcn::candidates` (and each control row the shapes use) is
//! synthesised a few times and run alone; a candidate is kept unless every attempt is
//! refused as `Unsupported`. A row added to the table and given semantics is therefore
//! fuzzed at once, without any list to update.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use wavejit_interp::ExecErrorKind;
use wavejit_isa::gcn::Op;
use wavejit_isa::ir::Program;
use wavejit_isa::progen::gcn::{synth, Cand, Pool};
use wavejit_isa::progen::shape::{GcnProgram, Item};
use wavejit_isa::progen::state::{gcn_state, GcnState};
use wavejit_isa::progen::{self, vp1 as pvp1};
use wavejit_isa::{Arch, Gen};

use super::case::{
    run_gcn_into, run_vp1, Failure, GcnOutcome, GcnScratch, Vp1Case, Vp1Interp, MAX_INSTS,
};
use wavejit::engine::Interp;

/// Attempts per candidate before it is declared unsupported.
const ATTEMPTS: u64 = 8;

fn refused(r: &Result<u64, Failure>) -> bool {
    matches!(r, Err(Failure::Exec(e)) if e.pc == 0 && matches!(e.kind, ExecErrorKind::Unsupported { .. }))
}

fn supported(gen: Gen, c: &Cand, state: &GcnState, salt: u64, work: &mut Work) -> bool {
    for k in 0..ATTEMPTS {
        let mut rng = progen::rng(0x9B0B_E000 ^ gen.index() as u64, salt * ATTEMPTS + k);
        let Some(inst) = synth(gen, c, &mut rng) else {
            continue;
        };
        let end = wavejit_isa::gcn::Inst {
            op: Op::SEndpgm,
            enc: wavejit_isa::gcn::Enc::Sopp,
            fields: wavejit_isa::gcn::Fields::Sopp { simm16: 0 },
            literal: None,
        };
        let is_branch = matches!(inst.enc, wavejit_isa::gcn::Enc::Sopp) && inst.op != Op::SEndpgm;
        let items = vec![
            Item {
                inst,
                target: is_branch.then_some(1),
            },
            Item {
                inst: end,
                target: None,
            },
        ];
        let Ok(code) = (GcnProgram { gen, items }).encode() else {
            continue;
        };
        let prog = Program::new(Arch::Gcn(gen), &code);
        let (scratch, out) = work;
        run_gcn_into(&Interp, &prog, state, MAX_INSTS, scratch, out);
        if !refused(&out.result) {
            return true;
        }
    }
    false
}

/// The buffers the probe's runs reuse.
type Work = (GcnScratch, GcnOutcome);

/// Pools made once per generation, for the life of the process.
type Pools = OnceLock<Mutex<HashMap<Gen, &'static Pool>>>;

/// The pool of `gen` in `pools`, made by `make` the first time it is asked for.
fn once_per_gen(pools: &'static Pools, gen: Gen, make: impl FnOnce() -> Pool) -> &'static Pool {
    let m = pools.get_or_init(|| Mutex::new(HashMap::new()));
    let mut guard = match m.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    };
    if let Some(&p) = guard.get(&gen) {
        return p;
    }
    let p: &'static Pool = Box::leak(Box::new(make()));
    guard.insert(gen, p);
    p
}

/// The pool of `gen`: every candidate the interpreter runs (computed once per process).
pub fn gcn_pool(gen: Gen) -> &'static Pool {
    static POOLS: Pools = OnceLock::new();
    once_per_gen(&POOLS, gen, || {
        let state = gcn_state(gen, &mut progen::rng(0x57A7E, gen.index() as u64));
        let mut salt = 0u64;
        let mut work = (GcnScratch::default(), GcnOutcome::empty());
        Pool::new(gen, |c| {
            salt += 1;
            supported(gen, c, &state, salt, &mut work)
        })
    })
}

/// The part of `gcn_pool(gen)` that the JIT lowers inline (not through its interpreter
/// helper): what `--inline-only` campaigns draw from, to aim at the JIT's own code.
pub fn gcn_pool_inline(gen: Gen) -> &'static Pool {
    static POOLS: Pools = OnceLock::new();
    once_per_gen(&POOLS, gen, || {
        gcn_pool(gen).filtered(|c| wavejit_jit::gcn::lowers_inline(gen, c.op()))
    })
}

/// The scalar opcodes the VP1 interpreter runs.
pub fn vp1_opcodes() -> &'static [u8] {
    static OPS: OnceLock<Vec<u8>> = OnceLock::new();
    OPS.get_or_init(|| {
        let state = pvp1::state(&mut progen::rng(0x57A7E, 99));
        pvp1::opcodes(|op| {
            (0..ATTEMPTS).any(|k| {
                let mut rng = progen::rng(0x9B0B_E001, op as u64 * ATTEMPTS + k);
                let case = Vp1Case {
                    words: vec![pvp1::word(&mut rng, op)],
                    state: state.clone(),
                };
                !refused(&run_vp1(&mut Vp1Interp, &case).result)
            })
        })
    })
}
