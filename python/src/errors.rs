//! The Python exception classes of the package and the conversion of every wavejit error
//! into one of them, with the error's position (line and column, byte offset, pc, lane,
//! address, workgroup and wave) as attributes a test can assert on.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

use wavejit::device::LaunchError as RsLaunchError;
use wavejit::grid::GridError;
use wavejit::interp::{ExecError as RsExecError, ExecErrorKind};
use wavejit::isa::gcn::fmt::Syntax;
use wavejit::isa::{Arch, AsmError as RsAsmError, DecodeError as RsDecodeError};
use wavejit::load::LoadError as RsLoadError;
use wavejit::statefile::StateError as RsStateError;
use wavejit::{Error, WaveError};

create_exception!(
    wavejit,
    WavejitError,
    PyException,
    "Base class of every error wavejit raises."
);
create_exception!(
    wavejit,
    AsmError,
    WavejitError,
    "Assembly text that does not assemble. Attributes: line, col (1-based), msg."
);
create_exception!(
    wavejit,
    DecodeError,
    WavejitError,
    "Machine code that does not decode. Attributes: offset (byte offset), kind."
);
create_exception!(
    wavejit,
    ExecError,
    WavejitError,
    "A program or kernel that failed while running. Attributes: kind (unsupported, \
     out_of_bounds, pc_out_of_code, inst_limit, decode, bad_operand, timeout, cancelled), \
     pc, instruction (its text), lane, address, space, size, mnemonic, workgroup, wave, \
     kernel (None where they do not apply)."
);
create_exception!(
    wavejit,
    MismatchError,
    WavejitError,
    "The diff engine saw the interpreter and the JIT disagree. Attributes: workgroup, wave."
);
create_exception!(
    wavejit,
    LaunchError,
    WavejitError,
    "A launch that could not start: bad arguments, grid or block, memory. Attribute: kernel."
);
create_exception!(
    wavejit,
    LoadError,
    LaunchError,
    "A file or byte string that is not an AMDHSA code object wavejit can run, or a kernel \
     name it does not have."
);
create_exception!(
    wavejit,
    StateError,
    WavejitError,
    "A state dictionary of wavejit.run that does not follow the schema. Attributes: at (the \
     JSON path of the bad value), msg."
);

/// Register the classes in the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("WavejitError", py.get_type::<WavejitError>())?;
    m.add("AsmError", py.get_type::<AsmError>())?;
    m.add("DecodeError", py.get_type::<DecodeError>())?;
    m.add("ExecError", py.get_type::<ExecError>())?;
    m.add("MismatchError", py.get_type::<MismatchError>())?;
    m.add("LaunchError", py.get_type::<LaunchError>())?;
    m.add("LoadError", py.get_type::<LoadError>())?;
    m.add("StateError", py.get_type::<StateError>())?;
    Ok(())
}

/// Set attributes on the exception `err` carries. Setting an attribute on a fresh
/// exception instance cannot fail in practice; if it did, the message still says it all.
fn attrs<'py>(
    py: Python<'py>,
    err: PyErr,
    set: impl FnOnce(&Bound<'py, PyAny>) -> PyResult<()>,
) -> PyErr {
    let v = err.value(py).clone().into_any();
    let _ = set(&v);
    err
}

pub fn asm(py: Python<'_>, e: &RsAsmError) -> PyErr {
    attrs(py, AsmError::new_err(e.to_string()), |v| {
        v.setattr("line", e.line)?;
        v.setattr("col", e.col)?;
        v.setattr("msg", &e.msg)
    })
}

pub fn decode(py: Python<'_>, e: &RsDecodeError) -> PyErr {
    attrs(py, DecodeError::new_err(e.to_string()), |v| {
        v.setattr("offset", e.offset)?;
        v.setattr("kind", e.kind.to_string())
    })
}

pub fn state(py: Python<'_>, e: &RsStateError) -> PyErr {
    attrs(py, StateError::new_err(e.to_string()), |v| {
        v.setattr("at", &e.at)?;
        v.setattr("msg", &e.msg)
    })
}

/// Where in a grid an error happened.
#[derive(Clone, Copy, Default)]
struct Place {
    workgroup: Option<[u32; 3]>,
    wave: Option<u32>,
}

/// An execution error with every position attribute (None where it does not apply).
struct ExecFacts {
    kind: &'static str,
    pc: Option<u32>,
    lane: Option<u8>,
    address: Option<u64>,
    space: Option<String>,
    size: Option<u32>,
    mnemonic: Option<String>,
}

impl ExecFacts {
    fn bare(kind: &'static str) -> ExecFacts {
        ExecFacts {
            kind,
            pc: None,
            lane: None,
            address: None,
            space: None,
            size: None,
            mnemonic: None,
        }
    }

    fn of(e: &RsExecError) -> ExecFacts {
        let mut f = ExecFacts::bare(match &e.kind {
            ExecErrorKind::Unsupported { .. } => "unsupported",
            ExecErrorKind::OutOfBounds { .. } => "out_of_bounds",
            ExecErrorKind::PcOutOfCode(_) => "pc_out_of_code",
            ExecErrorKind::InstLimit(_) => "inst_limit",
            ExecErrorKind::Decode(_) => "decode",
            ExecErrorKind::BadOperand(_) => "bad_operand",
            ExecErrorKind::ExportLimit(_) => "export_limit",
        });
        f.pc = Some(e.pc);
        match &e.kind {
            ExecErrorKind::Unsupported { mnemonic } => f.mnemonic = Some(mnemonic.clone()),
            ExecErrorKind::OutOfBounds {
                space,
                addr,
                size,
                lane,
            } => {
                f.space = Some(space.to_string());
                f.address = Some(*addr);
                f.size = Some(*size);
                f.lane = *lane;
            }
            _ => {}
        }
        f
    }
}

fn exec_err(py: Python<'_>, msg: String, f: ExecFacts, at: Place) -> PyErr {
    attrs(py, ExecError::new_err(msg), |v| {
        v.setattr("kind", f.kind)?;
        v.setattr("pc", f.pc)?;
        v.setattr("lane", f.lane)?;
        v.setattr("address", f.address)?;
        v.setattr("space", f.space)?;
        v.setattr("size", f.size)?;
        v.setattr("mnemonic", f.mnemonic)?;
        v.setattr("workgroup", at.workgroup.map(|w| (w[0], w[1], w[2])))?;
        v.setattr("wave", at.wave)?;
        v.setattr("kernel", Option::<String>::None)?;
        v.setattr("instruction", Option::<String>::None)
    })
}

/// The instruction at byte `pc` of `code`, as llvm-mc prints it (VP1: envydis syntax).
fn instruction_text(arch: Arch, code: &[u8], pc: u32) -> Option<String> {
    let rest = code.get(pc as usize..)?;
    match arch {
        Arch::Gcn(gen) => {
            let (inst, _) = wavejit::isa::gcn::decode(gen, rest, pc).ok()?;
            Some(wavejit::isa::gcn::fmt::format(gen, &inst, pc, Syntax::Llvm))
        }
        Arch::Vp1 => {
            let (inst, _) = wavejit::isa::vp1::decode(rest, pc).ok()?;
            Some(wavejit::isa::vp1::fmt::format(&inst))
        }
    }
}

/// Give an ExecError raised by running `code` its `instruction` attribute: the text of
/// the instruction at its pc. Other errors pass unchanged.
pub fn with_instruction(py: Python<'_>, err: PyErr, arch: Arch, code: &[u8]) -> PyErr {
    if !err.is_instance_of::<ExecError>(py) {
        return err;
    }
    let v = err.value(py);
    let pc: Option<u32> = v.getattr("pc").ok().and_then(|p| p.extract().ok());
    if let Some(text) = pc.and_then(|pc| instruction_text(arch, code, pc)) {
        let _ = v.setattr("instruction", text);
    }
    err
}

fn mismatch(py: Python<'_>, msg: String, at: Place) -> PyErr {
    attrs(py, MismatchError::new_err(msg), |v| {
        v.setattr("workgroup", at.workgroup.map(|w| (w[0], w[1], w[2])))?;
        v.setattr("wave", at.wave)?;
        v.setattr("kernel", Option::<String>::None)
    })
}

pub fn exec(py: Python<'_>, e: &RsExecError) -> PyErr {
    exec_err(py, e.to_string(), ExecFacts::of(e), Place::default())
}

pub fn wave(py: Python<'_>, e: &WaveError) -> PyErr {
    match e {
        WaveError::Exec(x) => exec(py, x),
        WaveError::Mismatch(_) => mismatch(py, e.to_string(), Place::default()),
    }
}

fn launch_err(py: Python<'_>, msg: String, kernel: Option<&str>) -> PyErr {
    attrs(py, LaunchError::new_err(msg), |v| {
        v.setattr("kernel", kernel)
    })
}

/// A launch refused before it started (arguments, grid, block) of `kernel`.
pub fn launch_args(py: Python<'_>, msg: String, kernel: &str) -> PyErr {
    launch_err(py, msg, Some(kernel))
}

/// A device memory failure outside a launch.
pub fn memory(py: Python<'_>, msg: String) -> PyErr {
    launch_err(py, msg, None)
}

pub fn load(py: Python<'_>, e: &RsLoadError) -> PyErr {
    attrs(py, LoadError::new_err(e.to_string()), |v| {
        v.setattr("kernel", Option::<String>::None)
    })
}

/// A failed launch. The message is the library's own (it names the kernel, the wave, the
/// pc and the buffer a fault ran off); the attributes say the same as data.
pub fn launch(py: Python<'_>, e: &RsLaunchError) -> PyErr {
    let msg = e.to_string();
    match e {
        RsLaunchError::Load(l) => load(py, l),
        RsLaunchError::Args { kernel, .. } => launch_err(py, msg, Some(kernel)),
        RsLaunchError::Memory(_) => launch_err(py, msg, None),
        RsLaunchError::Run { kernel, source, .. } => {
            let err = grid(py, msg, source);
            attrs(py, err, |v| v.setattr("kernel", kernel))
        }
    }
}

fn grid(py: Python<'_>, msg: String, e: &GridError) -> PyErr {
    match e {
        GridError::Exec { wg, wave, err } => exec_err(
            py,
            msg,
            ExecFacts::of(err),
            Place {
                workgroup: Some(*wg),
                wave: Some(*wave),
            },
        ),
        GridError::Mismatch { wg, wave, .. } => mismatch(
            py,
            msg,
            Place {
                workgroup: Some(*wg),
                wave: Some(*wave),
            },
        ),
        GridError::Budget { wg, wave, pc, .. } => {
            let mut f = ExecFacts::bare("inst_limit");
            f.pc = Some(*pc);
            let at = Place {
                workgroup: Some(*wg),
                wave: Some(*wave),
            };
            exec_err(py, msg, f, at)
        }
        GridError::DispatchBudget { .. } => {
            exec_err(py, msg, ExecFacts::bare("inst_limit"), Place::default())
        }
        GridError::Timeout { .. } => {
            exec_err(py, msg, ExecFacts::bare("timeout"), Place::default())
        }
        GridError::Cancelled { .. } => {
            exec_err(py, msg, ExecFacts::bare("cancelled"), Place::default())
        }
        GridError::Config(_) => launch_err(py, msg, None),
    }
}

/// Any facade error.
pub fn facade(py: Python<'_>, e: &Error) -> PyErr {
    match e {
        Error::Exec(x) => exec(py, x),
        Error::Decode(x) => decode(py, x),
        Error::Asm(x) => asm(py, x),
        Error::State(x) => state(py, x),
        Error::Io { .. } => pyo3::exceptions::PyOSError::new_err(e.to_string()),
        Error::Unsupported(_) | Error::Usage(_) => {
            pyo3::exceptions::PyValueError::new_err(e.to_string())
        }
        Error::Mismatch(_) => mismatch(py, e.to_string(), Place::default()),
    }
}
