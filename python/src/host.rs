//! Host data coming from Python: the bytes of a NumPy array (read in place when it is
//! C-contiguous and little-endian, so a buffer is filled with one copy), of `bytes` and
//! `bytearray`, and NumPy scalars.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyTuple};

/// What a NumPy array was: kept with a buffer so that `Buffer.numpy()` gives it back.
pub struct ArrayShape {
    pub dtype: Py<PyAny>,
    pub shape: Vec<usize>,
}

pub fn numpy(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    py.import("numpy")
}

fn is_array(obj: &Bound<'_, PyAny>) -> bool {
    obj.hasattr("__array_interface__").unwrap_or(false)
}

/// Call `f` with the bytes of `obj` (a NumPy array or scalar, `bytes` or `bytearray`),
/// and tell what array it was. Arrays that are not C-contiguous little-endian are
/// converted first (one temporary copy); object arrays are refused, since their bytes are
/// pointers into this process.
pub fn with_bytes<R>(
    obj: &Bound<'_, PyAny>,
    f: impl FnOnce(&[u8]) -> R,
) -> PyResult<(R, Option<ArrayShape>)> {
    let py = obj.py();
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok((f(b.as_bytes()), None));
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok((f(&b.to_vec()), None));
    }
    let np_generic = numpy(py)?.getattr("generic")?;
    if !is_array(obj) && !obj.is_instance(&np_generic)? {
        return Err(PyTypeError::new_err(format!(
            "expected a NumPy array, bytes or bytearray, not {} (convert it with numpy.asarray(x, dtype=...))",
            obj.get_type().name()?
        )));
    }
    let np = numpy(py)?;
    // `asarray(order="C")` copies only what is not C-contiguous, and keeps 0-d arrays 0-d.
    let kw = PyDict::new(py);
    kw.set_item("order", "C")?;
    let mut arr = np.call_method("asarray", (obj,), Some(&kw))?;
    let dtype = arr.getattr("dtype")?;
    if dtype.getattr("hasobject")?.is_truthy()? {
        return Err(PyTypeError::new_err(
            "an array of Python objects has no bytes a kernel could use; give it a numeric dtype",
        ));
    }
    if dtype.getattr("byteorder")?.extract::<String>()? == ">" {
        arr = arr.call_method1("astype", (dtype.call_method1("newbyteorder", ("<",))?,))?;
    }
    let dtype = arr.getattr("dtype")?;
    let shape: Vec<usize> = arr.getattr("shape")?.extract()?;
    let nbytes: usize = arr.getattr("nbytes")?.extract()?;
    let iface = arr.getattr("__array_interface__")?;
    let data = iface.get_item("data")?;
    let data = data.cast::<PyTuple>()?;
    let ptr: usize = data.get_item(0)?.extract()?;
    let r = if nbytes == 0 {
        f(&[])
    } else {
        // SAFETY: `arr` is a C-contiguous NumPy array whose interface reports `nbytes` bytes
        // at `ptr`. We hold a reference to it and the GIL for the whole of `f` (which does
        // not call into Python), so no Python code can free, resize or write the memory
        // meanwhile; NumPy refuses to resize an array something else refers to.
        let bytes = unsafe { std::slice::from_raw_parts(ptr as *const u8, nbytes) };
        f(bytes)
    };
    Ok((
        r,
        Some(ArrayShape {
            dtype: dtype.unbind(),
            shape,
        }),
    ))
}

/// A NumPy scalar's dtype facts: kind letter (`i`, `u`, `f`, `b`, ...) and size.
pub struct ScalarType {
    pub kind: char,
    pub size: usize,
    pub name: String,
}

/// The type of `obj` if it is a NumPy scalar.
pub fn numpy_scalar(obj: &Bound<'_, PyAny>) -> PyResult<Option<ScalarType>> {
    let py = obj.py();
    // Without NumPy installed there are no NumPy scalars.
    let Ok(np) = numpy(py) else {
        return Ok(None);
    };
    if !obj.is_instance(&np.getattr("generic")?)? {
        return Ok(None);
    }
    let dtype = obj.getattr("dtype")?;
    let kind: String = dtype.getattr("kind")?.extract()?;
    Ok(Some(ScalarType {
        kind: kind.chars().next().unwrap_or('?'),
        size: dtype.getattr("itemsize")?.extract()?,
        name: dtype.getattr("name")?.extract()?,
    }))
}
