//! A test case (a program and the state it starts in) and what one engine made of it.
//!
//! Running a case never panics the fuzzer: an engine that panics is caught and the panic
//! becomes the outcome (`Failure::Panic`), which never equals a real result — a panic is
//! a finding like any other.

use std::panic::{catch_unwind, AssertUnwindSafe};

use wavejit_interp::{ExecError, ExecErrorKind};
use wavejit_isa::ir::Program;
use wavejit_isa::progen::shape::GcnProgram;
use wavejit_isa::progen::state::GcnState;
use wavejit_isa::state::{Lds, Memory, Wave};
use wavejit_isa::vp1;
use wavejit_isa::Arch;

use wavejit::engine::{run_to_end, WaveEngine, WaveError};

/// Instruction budget of one run (loops are bounded far below it).
pub const MAX_INSTS: u64 = 20_000;

/// A GCN program with its initial state.
#[derive(Clone)]
pub struct GcnCase {
    pub prog: GcnProgram,
    pub state: GcnState,
}

/// A VP1 scalar program (words) with its initial state.
#[derive(Clone, Debug)]
pub struct Vp1Case {
    pub words: Vec<u32>,
    pub state: vp1::State,
}

/// How a run ended when it did not end well.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    Exec(ExecError),
    /// A `diff` engine saw the interpreter and the JIT disagree.
    Mismatch(wavejit_jit::Mismatch),
    /// The engine panicked (the message), or the case could not be set up.
    Panic(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Exec(e) => write!(f, "{e}"),
            Failure::Mismatch(m) => write!(f, "the interpreter and the JIT disagree: {m}"),
            Failure::Panic(m) => write!(f, "panic: {m}"),
        }
    }
}

/// The end state of a GCN run and how it ended (`Ok`: instructions executed).
pub struct GcnOutcome {
    pub wave: Box<Wave>,
    pub lds: Vec<u8>,
    pub mem: Vec<(u64, Vec<u8>)>,
    pub result: Result<u64, Failure>,
}

/// The end state of a VP1 run.
#[derive(Clone, Debug)]
pub struct Vp1Outcome {
    pub state: vp1::State,
    pub result: Result<u64, Failure>,
}

fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".into()
    }
}

/// Decode the case's code (once per case; both engines run the same `Program`).
pub fn gcn_program(case: &GcnCase) -> Result<Program, Failure> {
    let code = case
        .prog
        .encode()
        .map_err(|e| Failure::Panic(format!("the generated program does not encode: {e}")))?;
    Ok(Program::new(Arch::Gcn(case.prog.gen), &code))
}

/// Run `prog` from `state` on `engine` until `s_endpgm` (barriers pass: the wave is a
/// workgroup of its own), an error, or `MAX_INSTS`.
pub fn run_gcn(engine: &dyn WaveEngine, prog: &Program, state: &GcnState) -> GcnOutcome {
    run_gcn_with(engine, prog, state, MAX_INSTS)
}

/// `run_gcn` with another instruction budget.
pub fn run_gcn_with(
    engine: &dyn WaveEngine,
    prog: &Program,
    state: &GcnState,
    max_insts: u64,
) -> GcnOutcome {
    let mut out = GcnOutcome::empty();
    run_gcn_into(
        engine,
        prog,
        state,
        max_insts,
        &mut GcnScratch::default(),
        &mut out,
    );
    out
}

impl GcnOutcome {
    /// An outcome to run into (`run_gcn_into`): its buffers are overwritten, then reused.
    pub fn empty() -> GcnOutcome {
        GcnOutcome {
            wave: Wave::new(wavejit_isa::Gen::Gfx8),
            lds: Vec::new(),
            mem: Vec::new(),
            result: Ok(0),
        }
    }
}

/// The global memory one worker's runs share: one `Memory` mapped as the last state's
/// regions, rewritten with each state's bytes before each run. A state with other regions
/// maps a new one. Reusing it spares each run a map, a zeroed allocation and its
/// page faults; every byte of every region is written before the run, so nothing of an
/// earlier run can leak into the next.
#[derive(Default)]
pub struct GcnScratch {
    mem: Option<(Vec<(u64, usize)>, Memory)>,
}

impl GcnScratch {
    /// `Memory` holding exactly the regions and bytes of `regions`, or why it cannot.
    fn memory(&mut self, regions: &[(u64, Vec<u8>)]) -> Result<&Memory, Failure> {
        let same = matches!(&self.mem, Some((layout, _))
            if layout.len() == regions.len()
                && layout.iter().zip(regions).all(|(&(b, n), (base, bytes))| b == *base && n == bytes.len()));
        if !same {
            self.mem = None;
            let mut mem = Memory::new();
            for (base, bytes) in regions {
                mem.map_bytes(*base, bytes)
                    .map_err(|f| Failure::Panic(format!("cannot map the state's memory: {f}")))?;
            }
            let layout = regions.iter().map(|(b, m)| (*b, m.len())).collect();
            return Ok(&self.mem.insert((layout, mem)).1);
        }
        match &self.mem {
            Some((_, mem)) => {
                for (base, bytes) in regions {
                    mem.write(*base, bytes).map_err(|f| {
                        Failure::Panic(format!("cannot write the state's memory: {f}"))
                    })?;
                }
                Ok(mem)
            }
            None => Err(Failure::Panic("no memory mapped".into())),
        }
    }
}

/// Copy every field of `src` into `dst` in place: no allocation (the VGPR file is 64 KiB;
/// `Box::clone` builds it on the stack and copies it again). The destructuring names
/// every field, so a field added to `Wave` does not build until it is copied here.
pub fn copy_wave(dst: &mut Wave, src: &Wave) {
    let Wave {
        vgpr,
        sgpr,
        exec,
        vcc,
        m0,
        scc,
        mode,
        pc,
        code_base,
        gen,
        exports,
    } = src;
    dst.vgpr.copy_from_slice(vgpr);
    dst.sgpr = *sgpr;
    dst.exec = *exec;
    dst.vcc = *vcc;
    dst.m0 = *m0;
    dst.scc = *scc;
    dst.mode = *mode;
    dst.pc = *pc;
    dst.code_base = *code_base;
    dst.gen = *gen;
    dst.exports.clone_from(exports);
}

/// `run_gcn_with` into `out`, whose buffers (and `scratch`'s memory) are reused: the
/// state is copied into them whole (every register, every LDS and memory byte), the
/// engine runs on the copies, and `out` holds the end state. A campaign's worker runs
/// every state of every program this way.
pub fn run_gcn_into(
    engine: &dyn WaveEngine,
    prog: &Program,
    state: &GcnState,
    max_insts: u64,
    scratch: &mut GcnScratch,
    out: &mut GcnOutcome,
) {
    copy_wave(&mut out.wave, &state.wave);
    let mut lds = Lds {
        bytes: std::mem::take(&mut out.lds),
    };
    lds.bytes.clone_from(&state.lds);
    out.mem.resize_with(state.mem.len(), Default::default);
    for ((base, bytes), (ob, o)) in state.mem.iter().zip(out.mem.iter_mut()) {
        *ob = *base;
        o.clear();
        // A region the setup failed to map reads as zeros on both sides.
        o.resize(bytes.len(), 0);
    }
    out.result = match scratch.memory(&state.mem) {
        Err(f) => Err(f),
        Ok(mem) => {
            let r = catch_unwind(AssertUnwindSafe(|| {
                run_to_end(engine, prog, &mut out.wave, &mut lds, mem, max_insts).map(|s| s.insts)
            }));
            for (base, o) in out.mem.iter_mut() {
                let _ = mem.read(*base, o);
            }
            match r {
                Ok(Ok(n)) => Ok(n),
                Ok(Err(WaveError::Exec(e))) => Err(Failure::Exec(e)),
                Ok(Err(WaveError::Mismatch(m))) => Err(Failure::Mismatch(m)),
                Err(p) => Err(Failure::Panic(panic_message(p))),
            }
        }
    };
    out.lds = lds.bytes;
}

/// Something that runs VP1 scalar words.
pub trait Vp1Runner {
    fn name(&self) -> &'static str;
    fn run(&mut self, s: &mut vp1::State, words: &[u32]) -> Result<u64, ExecError>;
}

/// The VP1 reference interpreter.
pub struct Vp1Interp;

impl Vp1Runner for Vp1Interp {
    fn name(&self) -> &'static str {
        "interp"
    }
    fn run(&mut self, s: &mut vp1::State, words: &[u32]) -> Result<u64, ExecError> {
        wavejit_interp::vp1::run_words(s, words).map(|st| st.insts)
    }
}

/// The VP1 JIT: each program compiled whole, then run. The last program's code is kept,
/// so that running the same words again (a campaign's further initial states) does not
/// compile them again.
#[derive(Default)]
pub struct Vp1Jit {
    last: Option<(Vec<u32>, vp1::Variant, wavejit_jit::vp1::Vp1Code)>,
}

impl Vp1Runner for Vp1Jit {
    fn name(&self) -> &'static str {
        "jit"
    }
    fn run(&mut self, s: &mut vp1::State, words: &[u32]) -> Result<u64, ExecError> {
        let same = matches!(&self.last, Some((w, v, _)) if w == words && *v == s.variant);
        if !same {
            let code = wavejit_jit::vp1::compile(words, s.variant).map_err(|e| ExecError {
                pc: 0,
                kind: ExecErrorKind::BadOperand(format!(
                    "the VP1 JIT could not compile the program: {e}"
                )),
            })?;
            self.last = Some((words.to_vec(), s.variant, code));
        }
        match &self.last {
            Some((_, _, code)) => code.run(s).map(|st| st.insts),
            None => Err(ExecError {
                pc: 0,
                kind: ExecErrorKind::BadOperand("no compiled VP1 program".into()),
            }),
        }
    }
}

/// Run a VP1 case.
pub fn run_vp1(runner: &mut dyn Vp1Runner, case: &Vp1Case) -> Vp1Outcome {
    let mut state = case.state.clone();
    let r = catch_unwind(AssertUnwindSafe(|| runner.run(&mut state, &case.words)));
    let result = match r {
        Ok(Ok(n)) => Ok(n),
        Ok(Err(e)) => Err(Failure::Exec(e)),
        Err(p) => Err(Failure::Panic(panic_message(p))),
    };
    Vp1Outcome { state, result }
}
