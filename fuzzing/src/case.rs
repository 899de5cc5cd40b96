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
    let mut wave = state.wave.clone();
    let mut lds = Lds {
        bytes: state.lds.clone(),
    };
    let mut mem = Memory::new();
    let mut setup = Ok(());
    for (base, bytes) in &state.mem {
        if let Err(f) = mem.map_bytes(*base, bytes) {
            setup = Err(Failure::Panic(format!(
                "cannot map the state's memory: {f}"
            )));
        }
    }
    let result = setup.and_then(|()| {
        let r = catch_unwind(AssertUnwindSafe(|| {
            run_to_end(engine, prog, &mut wave, &mut lds, &mem, max_insts).map(|s| s.insts)
        }));
        match r {
            Ok(Ok(n)) => Ok(n),
            Ok(Err(WaveError::Exec(e))) => Err(Failure::Exec(e)),
            Ok(Err(WaveError::Mismatch(m))) => Err(Failure::Mismatch(m)),
            Err(p) => Err(Failure::Panic(panic_message(p))),
        }
    });
    let mem_out = state
        .mem
        .iter()
        .map(|(base, bytes)| {
            let mut out = vec![0u8; bytes.len()];
            // A region the setup failed to map reads as zeros on both sides.
            let _ = mem.read(*base, &mut out);
            (*base, out)
        })
        .collect();
    GcnOutcome {
        wave,
        lds: lds.bytes,
        mem: mem_out,
        result,
    }
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
