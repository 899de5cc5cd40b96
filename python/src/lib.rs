//! The `wavejit._native` extension module: wavejit for Python. The package `wavejit`
//! (python/wavejit/__init__.py) re-exports everything defined here.
//!
//! - `assemble`, `disassemble`: the ISA layer (GCN 1.0-1.2 in CLRX or LLVM syntax, VP1);
//! - `run`: one wave from a state dict (the JSON schema of `wavejit run`);
//! - `CodeObject` and its kernels (`code`), `Device`, `Buffer`, `Local`, `LaunchStats`
//!   (`device`); kernel arguments from Python values (`args`); host bytes from NumPy
//!   (`host`); the worker-thread runs that release the GIL and obey Ctrl-C (`interrupt`);
//! - the exception classes (`errors`).

#![deny(clippy::unwrap_used)]

mod args;
mod code;
mod device;
mod errors;
mod host;
mod interrupt;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use wavejit::isa::gcn::fmt::{listing, Syntax};
use wavejit::isa::ir::Program;
use wavejit::isa::{vp1, Arch};
use wavejit::statefile::StateFile;
use wavejit::Engine;

/// Default instruction budget of `run`.
const DEFAULT_MAX_INSTS: u64 = 100_000_000;

fn arch_of(name: &str) -> PyResult<Arch> {
    name.parse::<Arch>()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

fn engine_of(name: &str) -> PyResult<Engine> {
    name.parse::<Engine>()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Assemble `text` (GCN in CLRX or LLVM syntax, or VP1) for `arch` ("gfx6", "gfx7",
/// "gfx8", any alias such as "tahiti" or "gfx803", or "vp1") into machine code.
/// Raises AsmError with the line and column of the first error.
#[pyfunction]
fn assemble<'py>(py: Python<'py>, text: &str, arch: &str) -> PyResult<Bound<'py, PyBytes>> {
    let arch = arch_of(arch)?;
    let bytes = wavejit::assemble(arch, text).map_err(|e| errors::facade(py, &e))?;
    Ok(PyBytes::new(py, &bytes))
}

/// Disassemble machine code into one line per instruction. `syntax` is "clrx" (branch
/// targets become labels) or "llvm" (as llvm-mc prints). With `strict` (the default) a
/// word that does not decode raises DecodeError with its byte offset; without it, such
/// words are listed as `.long` with the reason.
#[pyfunction]
#[pyo3(signature = (code, arch, syntax = "clrx", strict = true))]
fn disassemble(
    py: Python<'_>,
    code: &Bound<'_, PyAny>,
    arch: &str,
    syntax: &str,
    strict: bool,
) -> PyResult<Vec<String>> {
    let arch = arch_of(arch)?;
    let syntax: Syntax = syntax.parse().map_err(PyValueError::new_err)?;
    let (code, _) = host::with_bytes(code, |b| b.to_vec())?;
    match arch {
        Arch::Gcn(gen) => {
            if strict {
                let mut pc = 0usize;
                while pc < code.len() {
                    match wavejit::isa::gcn::decode(gen, &code[pc..], pc as u32) {
                        Ok((_, n)) if n > 0 => pc += n as usize,
                        Ok(_) => break,
                        Err(e) => return Err(errors::decode(py, &e)),
                    }
                }
            }
            Ok(listing(gen, &code, syntax)
                .into_iter()
                .map(|l| l.text)
                .collect())
        }
        Arch::Vp1 => {
            let mut out = Vec::new();
            let mut pc = 0usize;
            while pc < code.len() {
                let rest = &code[pc..];
                match vp1::decode(rest, pc as u32) {
                    Ok((i, n)) => {
                        out.push(vp1::fmt::format(&i));
                        pc += (n as usize).max(1);
                    }
                    Err(e) if strict => return Err(errors::decode(py, &e)),
                    Err(e) => {
                        let mut b = [0u8; 4];
                        let k = rest.len().min(4);
                        b[..k].copy_from_slice(&rest[..k]);
                        out.push(format!(".long 0x{:08x} // {e}", u32::from_le_bytes(b)));
                        pc += 4;
                    }
                }
            }
            Ok(out)
        }
    }
}

/// Run `program` on one wavefront from `state` and return the final state.
///
/// `program` is assembly text (str) or machine code (bytes); `arch` as for `assemble`.
/// `state` is a dict (or JSON text) in the schema of `wavejit run --state` (for GCN:
/// exec, vcc, scc, m0, mode, sgpr, vgpr, lds, memory; VP1 has its own); missing keys
/// start at their defaults. The run ends at `s_endpgm`; an error of the run raises
/// ExecError with its pc (and lane and address for a memory fault). Runs with the GIL
/// released; Ctrl-C raises KeyboardInterrupt at once (the abandoned run finishes its
/// bounded budget in the background).
#[pyfunction]
#[pyo3(signature = (program, arch, state = None, engine = "jit", max_insts = DEFAULT_MAX_INSTS))]
fn run<'py>(
    py: Python<'py>,
    program: &Bound<'py, PyAny>,
    arch: &str,
    state: Option<&Bound<'py, PyAny>>,
    engine: &str,
    max_insts: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let arch = arch_of(arch)?;
    let engine = engine_of(engine)?;
    let code: Vec<u8> = if let Ok(s) = program.cast::<PyString>() {
        wavejit::assemble(arch, &s.extract::<String>()?).map_err(|e| errors::facade(py, &e))?
    } else {
        host::with_bytes(program, |b| b.to_vec())?.0
    };
    let json = py.import("json")?;
    let text: Option<String> = match state {
        None => None,
        Some(s) if s.is_instance_of::<PyString>() => Some(s.extract()?),
        Some(s) => Some(json.call_method1("dumps", (s,))?.extract()?),
    };
    let out = match arch {
        Arch::Vp1 => {
            let words = code.clone();
            interrupt::run_detached(py, move || {
                wavejit::statefile::vp1::run_vp1(&words, text.as_deref(), engine)
            })?
            .map_err(|e| errors::with_instruction(py, errors::facade(py, &e), arch, &code))?
            .json
        }
        Arch::Gcn(gen) => {
            let sf = match &text {
                Some(t) => StateFile::parse(t).map_err(|e| errors::state(py, &e))?,
                None => StateFile::default(),
            };
            let start = sf.build(gen).map_err(|e| errors::state(py, &e))?;
            let mut end = sf.build(gen).map_err(|e| errors::state(py, &e))?;
            let prog = Program::new(arch, &code);
            let (r, end) = interrupt::run_detached(py, move || {
                let r = wavejit::run_wave(
                    engine,
                    &prog,
                    &mut end.wave,
                    &mut end.lds,
                    &end.mem,
                    max_insts,
                );
                (r, end)
            })?;
            r.map_err(|e| errors::with_instruction(py, errors::wave(py, &e), arch, &code))?;
            sf.dump(&start, &end)
        }
    };
    json.call_method1("loads", (out,))
}

/// The engines' names, for `Device(engine=...)` and `run(engine=...)`.
#[pyfunction]
fn engines() -> Vec<&'static str> {
    Engine::ALL.iter().map(|(n, _)| *n).collect()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(assemble, m)?)?;
    m.add_function(wrap_pyfunction!(disassemble, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(engines, m)?)?;
    m.add_class::<code::CodeObject>()?;
    m.add_class::<code::Kernel>()?;
    m.add_class::<code::KernelArg>()?;
    m.add_class::<device::Device>()?;
    m.add_class::<device::Buffer>()?;
    m.add_class::<device::Local>()?;
    m.add_class::<device::LaunchStats>()?;
    errors::register(m)?;
    Ok(())
}
