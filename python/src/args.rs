//! Kernel arguments from Python values, typed by the kernel's metadata: a `Buffer` for a
//! pointer, a `Local` (or an int) for a `__local` pointer, and for a by-value argument a
//! Python int or float, a NumPy scalar, or raw bytes / a NumPy array of exactly the
//! argument's size (a vector type or a struct). Python numbers become the argument's own
//! type; NumPy scalars keep theirs, which must match the argument's size and kind.
//!
//! A kernel without a metadata note (hand-written assembly) packs its arguments in order:
//! Python ints are 32-bit (64-bit when they do not fit), Python floats are f32, NumPy
//! scalars keep their type.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt};

use wavejit::device::Arg;
use wavejit::load::ArgMeta;

use crate::device::{Buffer, Local};
use crate::host;

/// A by-value argument's scalar type, from its metadata.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ty {
    Float,
    Int,
    /// A vector, a struct, or no type name: only its size is known.
    Other,
}

fn ty(meta: &ArgMeta) -> Ty {
    let Some(t) = &meta.type_name else {
        return Ty::Other;
    };
    let base = t.trim().trim_start_matches("const ").trim();
    match base {
        "float" | "double" | "half" => Ty::Float,
        "char" | "uchar" | "short" | "ushort" | "int" | "uint" | "long" | "ulong" | "bool"
        | "size_t" | "ptrdiff_t" | "intptr_t" | "uintptr_t" | "unsigned char"
        | "unsigned short" | "unsigned int" | "unsigned long" | "signed char" => Ty::Int,
        _ => Ty::Other,
    }
}

/// The little-endian bytes of integer `v` in `size` bytes, if it fits as signed or unsigned.
fn int_bytes(v: i128, size: usize) -> Option<Vec<u8>> {
    if size == 0 || size > 8 {
        return None;
    }
    let bits = 8 * size as u32;
    let (lo, hi) = (-(1i128 << (bits - 1)), (1i128 << bits) - 1);
    (lo..=hi)
        .contains(&v)
        .then(|| v.to_le_bytes()[..size].to_vec())
}

/// The bytes of float `v` as a `size`-byte IEEE float.
fn float_bytes(py: Python<'_>, v: f64, size: usize) -> PyResult<Option<Vec<u8>>> {
    Ok(match size {
        4 => Some((v as f32).to_le_bytes().to_vec()),
        8 => Some(v.to_le_bytes().to_vec()),
        2 => {
            let h = host::numpy(py)?.getattr("float16")?.call1((v,))?;
            Some(h.call_method0("tobytes")?.extract()?)
        }
        _ => None,
    })
}

/// Convert the `index`-th user argument for the kernel argument `meta` (None: the kernel has
/// no metadata). `device` is the launching device's id: a buffer of another device is an
/// error. Errors are messages for a `LaunchError`.
pub fn convert(
    obj: &Bound<'_, PyAny>,
    index: usize,
    meta: Option<&ArgMeta>,
    device: u64,
) -> PyResult<Result<Arg, String>> {
    let what = meta.map_or_else(|| format!("argument {index}"), |m| m.describe(index));
    if let Ok(b) = obj.cast::<Buffer>() {
        let b = b.borrow();
        if b.device_id != device {
            return Ok(Err(format!("{what}: the buffer belongs to another Device")));
        }
        return Ok(match meta {
            Some(m) if m.value_kind != "global_buffer" => Err(format!(
                "{what} is not a pointer to global memory ({}); a Buffer cannot be passed",
                m.value_kind
            )),
            _ => Ok(Arg::Buffer(b.buf)),
        });
    }
    if let Ok(l) = obj.cast::<Local>() {
        return Ok(match meta {
            Some(m) if m.value_kind != "dynamic_shared_pointer" => Err(format!(
                "{what} is not a __local pointer; a Local cannot be passed"
            )),
            _ => Ok(Arg::Local(l.borrow().nbytes)),
        });
    }
    match meta {
        Some(m) => by_metadata(obj, m, &what),
        None => by_own_type(obj, &what),
    }
}

fn by_metadata(obj: &Bound<'_, PyAny>, m: &ArgMeta, what: &str) -> PyResult<Result<Arg, String>> {
    let py = obj.py();
    let size = m.size as usize;
    match m.value_kind.as_str() {
        "global_buffer" => {
            return Ok(if obj.is_none() {
                // A null pointer.
                Ok(Arg::U64(0))
            } else {
                Err(format!(
                    "{what} is a pointer to global memory: pass a Buffer (Device.alloc, Device.empty) or None"
                ))
            });
        }
        "dynamic_shared_pointer" => {
            return Ok(match obj.extract::<u32>() {
                Ok(n) if obj.is_instance_of::<PyInt>() => Ok(Arg::Local(n)),
                _ => Err(format!(
                    "{what} is a __local pointer: pass wavejit.Local(nbytes) or a byte count"
                )),
            })
        }
        "by_value" => {}
        other => {
            return Ok(Err(format!(
                "{what} has kind `{other}`, which wavejit cannot pass"
            )))
        }
    }
    let t = ty(m);
    if let Some(s) = host::numpy_scalar(obj)? {
        let float = s.kind == 'f';
        if (t == Ty::Float && !float) || (t == Ty::Int && float) || s.size != size {
            return Ok(Err(format!(
                "{what} takes {size} bytes{}, and a numpy.{} was given",
                match t {
                    Ty::Float => " (a float)",
                    Ty::Int => " (an integer)",
                    Ty::Other => "",
                },
                s.name
            )));
        }
        let b: Vec<u8> = obj.call_method0("tobytes")?.extract()?;
        return Ok(Ok(Arg::Bytes(b)));
    }
    if obj.is_instance_of::<PyInt>() || obj.is_instance_of::<PyBool>() {
        let v: i128 = obj.extract()?;
        return Ok(match t {
            Ty::Float => float_bytes(py, v as f64, size)?
                .map(Arg::Bytes)
                .ok_or_else(|| {
                    format!("{what} is a {size}-byte float, which wavejit cannot fill from an int")
                }),
            Ty::Int | Ty::Other if size <= 8 => int_bytes(v, size)
                .map(Arg::Bytes)
                .ok_or_else(|| format!("{what} takes {size} bytes, and {v} does not fit")),
            _ => Err(format!(
                "{what} is a {size}-byte value: pass bytes or a NumPy array of that size"
            )),
        });
    }
    if obj.is_instance_of::<PyFloat>() {
        let v: f64 = obj.extract()?;
        return Ok(match t {
            Ty::Float | Ty::Other => float_bytes(py, v, size)?
                .map(Arg::Bytes)
                .ok_or_else(|| {
                    format!("{what} is a {size}-byte value: pass bytes or a NumPy array of that size, not the float {v}")
                }),
            Ty::Int => Err(format!("{what} is an integer; the float {v} was given")),
        });
    }
    // Raw bytes or a NumPy array: a vector type or a struct, exactly the argument's size.
    match host::with_bytes(obj, |b| b.to_vec()) {
        Ok((b, _)) if b.len() == size => Ok(Ok(Arg::Bytes(b))),
        Ok((b, _)) => Ok(Err(format!(
            "{what} takes {size} bytes, and {} bytes were given",
            b.len()
        ))),
        Err(_) => Ok(Err(format!(
            "{what} takes a {size}-byte value; a {} cannot be passed",
            obj.get_type().name()?
        ))),
    }
}

fn by_own_type(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Result<Arg, String>> {
    if let Some(s) = host::numpy_scalar(obj)? {
        return Ok(match (s.kind, s.size) {
            ('i', 4) => Ok(Arg::I32(obj.extract()?)),
            ('u', 4) => Ok(Arg::U32(obj.extract()?)),
            ('i', 8) => Ok(Arg::I64(obj.extract()?)),
            ('u', 8) => Ok(Arg::U64(obj.extract()?)),
            ('f', 4) => Ok(Arg::F32(obj.extract::<f64>()? as f32)),
            ('f', 8) => Ok(Arg::F64(obj.extract()?)),
            _ => Err(format!(
                "{what}: a numpy.{} cannot be passed to a kernel without metadata (use 4- or 8-byte scalars)",
                s.name
            )),
        });
    }
    if obj.is_instance_of::<PyInt>() || obj.is_instance_of::<PyBool>() {
        let v: i128 = obj.extract()?;
        return Ok(if let Ok(x) = i32::try_from(v) {
            Ok(Arg::I32(x))
        } else if let Ok(x) = u32::try_from(v) {
            Ok(Arg::U32(x))
        } else if let Ok(x) = i64::try_from(v) {
            Ok(Arg::I64(x))
        } else if let Ok(x) = u64::try_from(v) {
            Ok(Arg::U64(x))
        } else {
            Err(format!("{what}: {v} does not fit 64 bits"))
        });
    }
    if obj.is_instance_of::<PyFloat>() {
        return Ok(Ok(Arg::F32(obj.extract::<f64>()? as f32)));
    }
    match host::with_bytes(obj, |b| b.to_vec()) {
        Ok((b, _)) => Ok(Ok(Arg::Bytes(b))),
        Err(_) => Ok(Err(format!(
            "{what}: a {} cannot be passed to a kernel",
            obj.get_type().name()?
        ))),
    }
}
