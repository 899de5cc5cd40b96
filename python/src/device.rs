//! `wavejit.Device`, `wavejit.Buffer`, `wavejit.Local` and `wavejit.LaunchStats`: the
//! simulated GPU of `wavejit::device` as Python sees it. A launch runs on a worker thread
//! with the GIL released; Ctrl-C sets the device's cancel token, which stops the launch
//! between workgroups, and raises `KeyboardInterrupt`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyTuple};

use wavejit::device::{Buffer as RsBuffer, Device as RsDevice, LaunchStats as RsStats};
use wavejit::isa::Arch;
use wavejit::Engine;

use crate::code::CodeObject;
use crate::host::{self, ArrayShape};
use crate::{args, errors, interrupt};

/// Ids that tell devices apart (a buffer is only valid on its own device).
static NEXT_DEVICE: AtomicU64 = AtomicU64::new(1);

/// A simulated GPU: global memory for buffers, an engine that runs waves, host threads.
///
/// Device(engine="jit", threads=None, max_insts_per_wave=None, memory_limit=None,
///        time_limit=None)
///
/// engine: "jit" (compile every block), "tiered" (compile hot blocks), "threaded"
/// (pre-decoded code, nothing compiled), "interp" (the reference interpreter) or "diff"
/// (interpreter and JIT compared block by block).
/// threads: host threads running workgroups (default: every core). time_limit: seconds a
/// launch may run (checked between workgroups).
#[pyclass(module = "wavejit")]
pub struct Device {
    inner: RsDevice,
    engine: Engine,
    pub id: u64,
}

fn engine_of(name: &str) -> PyResult<Engine> {
    name.parse::<Engine>()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

#[pymethods]
impl Device {
    #[new]
    #[pyo3(signature = (engine = "jit", threads = None, max_insts_per_wave = None, memory_limit = None, time_limit = None))]
    fn new(
        engine: &str,
        threads: Option<usize>,
        max_insts_per_wave: Option<u64>,
        memory_limit: Option<u64>,
        time_limit: Option<f64>,
    ) -> PyResult<Device> {
        let engine = engine_of(engine)?;
        let mut inner = RsDevice::with_engine(engine);
        if let Some(t) = threads {
            if t == 0 {
                return Err(PyValueError::new_err("threads must be at least 1"));
            }
            inner.set_threads(t);
        }
        if let Some(n) = max_insts_per_wave {
            inner.set_max_insts_per_wave(n);
        }
        if let Some(b) = memory_limit {
            inner.set_memory_limit(b);
        }
        if let Some(s) = time_limit {
            let d = Duration::try_from_secs_f64(s).map_err(|_| {
                PyValueError::new_err(format!("time_limit {s} is not a number of seconds"))
            })?;
            inner.set_time_limit(Some(d));
        }
        Ok(Device {
            inner,
            engine,
            id: NEXT_DEVICE.fetch_add(1, Ordering::Relaxed),
        })
    }

    /// The engine's name.
    #[getter]
    fn engine(&self) -> &'static str {
        self.engine.name()
    }

    /// Host threads running workgroups.
    #[getter]
    fn threads(&self) -> usize {
        self.inner.threads()
    }

    /// A buffer holding a copy of `data` (a NumPy array, bytes or bytearray). A
    /// C-contiguous array is copied straight from its memory into the device's; any other
    /// array is made contiguous first. `Buffer.numpy()` gives back its dtype and shape.
    fn alloc(slf: &Bound<'_, Self>, data: &Bound<'_, PyAny>) -> PyResult<Buffer> {
        let py = slf.py();
        let mut dev = slf.try_borrow_mut()?;
        let (r, shape) = host::with_bytes(data, |b| dev.inner.alloc(b))?;
        let buf = r.map_err(|e| errors::launch(py, &e))?;
        Ok(Buffer {
            device: slf.clone().unbind(),
            device_id: dev.id,
            buf,
            shape,
        })
    }

    /// A zero-filled buffer of `nbytes` bytes.
    fn empty(slf: &Bound<'_, Self>, nbytes: u64) -> PyResult<Buffer> {
        let py = slf.py();
        let mut dev = slf.try_borrow_mut()?;
        let buf = dev
            .inner
            .alloc_zeroed(nbytes)
            .map_err(|e| errors::launch(py, &e))?;
        Ok(Buffer {
            device: slf.clone().unbind(),
            device_id: dev.id,
            buf,
            shape: None,
        })
    }

    /// Launch `kernel` of `code` over `grid` work-items (an int or a tuple of up to three)
    /// in workgroups of `block`, with `args` in the kernel's argument order, and wait.
    /// With `profile=True` the returned stats carry the launch's profile as a dict.
    #[pyo3(signature = (code, kernel, grid, block = None, args = None, profile = false))]
    #[allow(clippy::too_many_arguments)]
    fn launch(
        slf: &Bound<'_, Self>,
        code: &Bound<'_, CodeObject>,
        kernel: &str,
        grid: &Bound<'_, PyAny>,
        block: Option<&Bound<'_, PyAny>>,
        args: Option<&Bound<'_, PyAny>>,
        profile: bool,
    ) -> PyResult<LaunchStats> {
        let py = slf.py();
        let code = code.get().inner.clone();
        let k = code.kernel(kernel).map_err(|e| errors::load(py, &e))?;
        let grid = dims(grid, "grid").map_err(|m| errors::launch_args(py, m, &k.name))?;
        let block = match block {
            Some(b) => dims(b, "block").map_err(|m| errors::launch_args(py, m, &k.name))?,
            None => [64, 1, 1],
        };
        let given: Vec<Bound<'_, PyAny>> = match args {
            Some(a) => a.try_iter()?.collect::<PyResult<_>>()?,
            None => Vec::new(),
        };
        let id = slf.try_borrow()?.id;
        let user: Option<Vec<&wavejit::load::ArgMeta>> = k
            .meta
            .as_ref()
            .map(|m| m.args.iter().filter(|a| !a.is_hidden()).collect());
        if let Some(u) = &user {
            if u.len() != given.len() {
                let list: Vec<String> = u.iter().enumerate().map(|(i, a)| a.describe(i)).collect();
                let msg = format!(
                    "kernel `{}`: takes {} arguments, {} given; the kernel's arguments are: {}",
                    k.name,
                    u.len(),
                    given.len(),
                    if list.is_empty() {
                        "none".into()
                    } else {
                        list.join(", ")
                    }
                );
                return Err(errors::launch_args(py, msg, &k.name));
            }
        }
        let mut rs_args = Vec::with_capacity(given.len());
        for (i, obj) in given.iter().enumerate() {
            let meta = user.as_ref().and_then(|u| u.get(i).copied());
            match args::convert(obj, i, meta, id)? {
                Ok(a) => rs_args.push(a),
                Err(msg) => {
                    return Err(errors::launch_args(
                        py,
                        format!("kernel `{}`: {msg}", k.name),
                        &k.name,
                    ))
                }
            }
        }
        let mut dev = slf.try_borrow_mut()?;
        let dev = &mut *dev;
        dev.inner.set_profiling(profile);
        let cancel = dev.inner.cancel_token();
        let name = k.name.clone();
        let inner = &mut dev.inner;
        let r = interrupt::run_cancellable(py, &cancel, || {
            let r = inner.launch(&code, &name, grid, block, &rs_args);
            let prof = profile.then(|| inner.take_profile().to_json());
            (r, prof)
        });
        dev.inner.set_profiling(false);
        let (r, prof) = r?;
        let stats = r.map_err(|e| {
            let entry = code
                .kernel(&name)
                .map_or(&[][..], |k| k.code.get(k.entry as usize..).unwrap_or(&[]));
            errors::with_instruction(py, errors::launch(py, &e), Arch::Gcn(code.gen), entry)
        })?;
        let profile = match prof {
            Some(json) => Some(py.import("json")?.call_method1("loads", (json,))?.unbind()),
            None => None,
        };
        Ok(LaunchStats::of(&stats, profile))
    }

    fn __repr__(&self) -> String {
        format!(
            "<wavejit.Device engine={} threads={}>",
            self.engine.name(),
            self.inner.threads()
        )
    }
}

/// `int` or a tuple/list of 1 to 3 ints, each at least 1 and below 2^32.
fn dims(obj: &Bound<'_, PyAny>, what: &str) -> Result<[u32; 3], String> {
    let v: Vec<i128> = if let Ok(n) = obj.extract::<i128>() {
        vec![n]
    } else {
        obj.extract::<Vec<i128>>()
            .map_err(|_| format!("{what} must be an int or a tuple of 1 to 3 ints"))?
    };
    if v.is_empty() || v.len() > 3 {
        return Err(format!(
            "{what} must have 1 to 3 dimensions, not {}",
            v.len()
        ));
    }
    let mut d = [1u32; 3];
    for (i, x) in v.iter().enumerate() {
        d[i] = u32::try_from(*x)
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| format!("{what} {v:?}: every dimension must be between 1 and 2^32-1"))?;
    }
    Ok(d)
}

/// A `__local` pointer argument: this many bytes of dynamic LDS per workgroup.
#[pyclass(module = "wavejit", frozen)]
pub struct Local {
    pub nbytes: u32,
}

#[pymethods]
impl Local {
    #[new]
    fn new(nbytes: u32) -> Local {
        Local { nbytes }
    }

    #[getter]
    fn nbytes(&self) -> u32 {
        self.nbytes
    }

    fn __repr__(&self) -> String {
        format!("wavejit.Local({})", self.nbytes)
    }
}

/// A buffer in a device's global memory (from `Device.alloc` or `Device.empty`).
#[pyclass(module = "wavejit")]
pub struct Buffer {
    device: Py<Device>,
    pub device_id: u64,
    pub buf: RsBuffer,
    shape: Option<ArrayShape>,
}

#[pymethods]
impl Buffer {
    /// Size in bytes.
    #[getter]
    fn nbytes(&self) -> u64 {
        self.buf.len
    }

    /// The buffer's address in the device's memory (what a kernel's pointer holds).
    #[getter]
    fn address(&self) -> u64 {
        self.buf.addr
    }

    fn __len__(&self) -> usize {
        self.buf.len as usize
    }

    /// The buffer's bytes.
    fn read<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyByteArray>> {
        let dev = self.device.bind(py).try_borrow()?;
        let len = usize::try_from(self.buf.len)
            .map_err(|_| PyValueError::new_err("buffer too large for this host"))?;
        let mut err = None;
        let out = PyByteArray::new_with(py, len, |b| {
            if len > 0 {
                if let Err(e) = dev.inner.memory().read(self.buf.addr, b) {
                    err = Some(e.to_string());
                }
            }
            Ok(())
        })?;
        match err {
            Some(e) => Err(errors::memory(py, format!("memory: {e}"))),
            None => Ok(out),
        }
    }

    /// Overwrite the buffer's first bytes with `data` (a NumPy array, bytes or bytearray).
    fn write(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        let dev = self.device.bind(py).try_borrow()?;
        let (r, _) = host::with_bytes(data, |b| dev.inner.write(self.buf, b))?;
        r.map_err(|e| errors::launch(py, &e))
    }

    /// The buffer's contents as a new NumPy array of `dtype`. Without a dtype: the dtype
    /// and shape of the array it was allocated from (uint8 for `Device.empty`).
    #[pyo3(signature = (dtype = None))]
    fn numpy<'py>(
        &self,
        py: Python<'py>,
        dtype: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let np = host::numpy(py)?;
        let bytes = self.read(py)?;
        let (dt, shape) = match (dtype, &self.shape) {
            (Some(d), _) => (np.call_method1("dtype", (d,))?, None),
            (None, Some(s)) => (s.dtype.bind(py).clone(), Some(s.shape.clone())),
            (None, None) => (np.call_method1("dtype", ("uint8",))?, None),
        };
        let size: usize = dt.getattr("itemsize")?.extract()?;
        if size == 0 || !(self.buf.len as usize).is_multiple_of(size) {
            return Err(PyValueError::new_err(format!(
                "a buffer of {} bytes is not a whole number of {size}-byte elements",
                self.buf.len
            )));
        }
        let a = np.call_method1("frombuffer", (bytes, dt))?;
        match shape {
            Some(s) => a.call_method1("reshape", (PyTuple::new(py, s)?,)),
            None => Ok(a),
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "<wavejit.Buffer {} bytes at 0x{:x}>",
            self.buf.len, self.buf.addr
        )
    }
}

/// What a launch did.
#[pyclass(module = "wavejit", frozen, get_all)]
pub struct LaunchStats {
    /// The kernel's name.
    kernel: String,
    /// The engine that ran it.
    engine: &'static str,
    /// Host threads that ran workgroups.
    threads: usize,
    workgroups: u64,
    waves: u64,
    /// Wave instructions executed.
    insts: u64,
    /// Wall time of the launch in seconds.
    elapsed: f64,
    /// Wave instructions per second.
    insts_per_sec: f64,
    /// What the engine did besides running (a JIT: blocks compiled), if anything.
    engine_report: Option<String>,
    /// The launch's profile (the JSON of `wavejit launch --profile`) when asked for.
    profile: Option<Py<PyAny>>,
    summary: String,
}

impl LaunchStats {
    fn of(s: &RsStats, profile: Option<Py<PyAny>>) -> LaunchStats {
        LaunchStats {
            kernel: s.kernel.clone(),
            engine: s.engine,
            threads: s.threads,
            workgroups: s.workgroups,
            waves: s.waves,
            insts: s.insts,
            elapsed: s.elapsed.as_secs_f64(),
            insts_per_sec: s.insts_per_sec(),
            engine_report: s.engine_report.clone(),
            profile,
            summary: s.to_string(),
        }
    }
}

#[pymethods]
impl LaunchStats {
    fn __str__(&self) -> String {
        self.summary.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "<wavejit.LaunchStats {} workgroups={} waves={} insts={} elapsed={:.6}>",
            self.kernel, self.workgroups, self.waves, self.insts, self.elapsed
        )
    }
}
