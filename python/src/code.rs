//! `wavejit.CodeObject`, `wavejit.Kernel` and `wavejit.KernelArg`: a loaded AMDHSA code
//! object, its kernels and their argument metadata, read-only views of `wavejit::load`.

use std::sync::Arc;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};

use wavejit::load::{ArgMeta, CodeObject as RsCodeObject, Kernel as RsKernel};

use crate::errors;

/// Largest code object file `CodeObject.load` reads.
const MAX_CODE_OBJECT_BYTES: u64 = 256 << 20;

/// A loaded AMDHSA code object (ELF, as clang/LLVM write them for GCN 1.0-1.2).
///
/// `CodeObject.load(path_or_bytes)` reads a file (str or os.PathLike) or parses bytes.
#[pyclass(module = "wavejit", frozen)]
pub struct CodeObject {
    pub inner: Arc<RsCodeObject>,
}

#[pymethods]
impl CodeObject {
    /// Load a code object from a path (str or os.PathLike) or from its bytes.
    #[staticmethod]
    fn load(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<CodeObject> {
        let bytes: Vec<u8> = if let Ok(b) = source.cast::<PyBytes>() {
            b.as_bytes().to_vec()
        } else if let Ok(b) = source.cast::<PyByteArray>() {
            b.to_vec()
        } else if let Ok(p) = source.extract::<std::path::PathBuf>() {
            wavejit::read_file_limited(&p, MAX_CODE_OBJECT_BYTES)
                .map_err(|e| errors::facade(py, &e))?
        } else {
            return Err(PyTypeError::new_err(format!(
                "CodeObject.load takes a path or bytes, not {}",
                source.get_type().name()?
            )));
        };
        let inner = RsCodeObject::parse(&bytes).map_err(|e| errors::load(py, &e))?;
        Ok(CodeObject {
            inner: Arc::new(inner),
        })
    }

    /// The GCN generation: "gfx6", "gfx7" or "gfx8".
    #[getter]
    fn arch(&self) -> String {
        self.inner.gen.to_string()
    }

    /// The processor the object was built for ("gfx803", ...).
    #[getter]
    fn processor(&self) -> &'static str {
        self.inner.processor
    }

    /// Code object version (3, 4, 5 or 6).
    #[getter]
    fn version(&self) -> u32 {
        self.inner.version
    }

    /// Whether the object is relocatable (`clang -c`, `llvm-mc`) rather than linked.
    #[getter]
    fn relocatable(&self) -> bool {
        self.inner.relocatable
    }

    /// The target triple of the metadata note, if the object has one.
    #[getter]
    fn target(&self) -> Option<String> {
        self.inner.metadata.as_ref().and_then(|m| m.target.clone())
    }

    /// The kernels, in the order of the object's symbols.
    #[getter]
    fn kernels(&self) -> Vec<Kernel> {
        (0..self.inner.kernels.len())
            .map(|index| Kernel {
                code: self.inner.clone(),
                index,
            })
            .collect()
    }

    /// The kernel called `name` (with or without the `.kd` suffix); LoadError if none.
    fn kernel(&self, py: Python<'_>, name: &str) -> PyResult<Kernel> {
        let k = self.inner.kernel(name).map_err(|e| errors::load(py, &e))?;
        let index = self
            .inner
            .kernels
            .iter()
            .position(|x| std::ptr::eq(x, k))
            .unwrap_or(0);
        Ok(Kernel {
            code: self.inner.clone(),
            index,
        })
    }

    fn __repr__(&self) -> String {
        let names: Vec<&str> = self.inner.kernels.iter().map(|k| k.name.as_str()).collect();
        format!(
            "<wavejit.CodeObject {} v{} kernels=[{}]>",
            self.inner.processor,
            self.inner.version,
            names.join(", ")
        )
    }
}

/// One kernel of a code object: its descriptor's facts and its argument metadata.
#[pyclass(module = "wavejit", frozen)]
pub struct Kernel {
    code: Arc<RsCodeObject>,
    index: usize,
}

impl Kernel {
    fn k(&self) -> &RsKernel {
        // `index` was taken from the same object's kernel list.
        &self.code.kernels[self.index]
    }
}

#[pymethods]
impl Kernel {
    #[getter]
    fn name(&self) -> String {
        self.k().name.clone()
    }

    /// Every argument of the kernarg segment, hidden ones included, in offset order.
    #[getter]
    fn args(&self) -> Vec<KernelArg> {
        self.k()
            .meta
            .as_ref()
            .map(|m| m.args.iter().cloned().map(|a| KernelArg { a }).collect())
            .unwrap_or_default()
    }

    /// The arguments `Device.launch` takes (the non-hidden ones), in order.
    #[getter]
    fn user_args(&self) -> Vec<KernelArg> {
        self.args()
            .into_iter()
            .filter(|a| !a.a.is_hidden())
            .collect()
    }

    /// Whether the object has a metadata note for this kernel (without one, launch packs
    /// scalars by their own type).
    #[getter]
    fn has_metadata(&self) -> bool {
        self.k().meta.is_some()
    }

    /// Bytes of the kernarg segment.
    #[getter]
    fn kernarg_size(&self) -> u32 {
        let k = self.k();
        k.meta
            .as_ref()
            .map_or(0, |m| m.kernarg_segment_size)
            .max(k.kd.kernarg_size)
    }

    /// Fixed LDS bytes per workgroup.
    #[getter]
    fn group_segment_fixed_size(&self) -> u32 {
        self.k().kd.group_segment_fixed_size
    }

    /// Fixed scratch bytes per work-item.
    #[getter]
    fn private_segment_fixed_size(&self) -> u32 {
        self.k().kd.private_segment_fixed_size
    }

    /// SGPRs the descriptor reserves.
    #[getter]
    fn sgpr_count(&self) -> u32 {
        self.k().kd.sgpr_count()
    }

    /// VGPRs the descriptor reserves.
    #[getter]
    fn vgpr_count(&self) -> u32 {
        self.k().kd.vgpr_count()
    }

    /// The largest workgroup the metadata allows (None without metadata).
    #[getter]
    fn max_flat_workgroup_size(&self) -> Option<u32> {
        self.k().meta.as_ref().map(|m| m.max_flat_workgroup_size)
    }

    /// `reqd_work_group_size` of the source, when it set one.
    #[getter]
    fn reqd_workgroup_size(&self) -> Option<Vec<u32>> {
        self.k()
            .meta
            .as_ref()
            .and_then(|m| m.reqd_workgroup_size.clone())
    }

    fn __repr__(&self) -> String {
        let args: Vec<String> = self
            .user_args()
            .iter()
            .map(|a| {
                a.a.type_name
                    .clone()
                    .unwrap_or_else(|| a.a.value_kind.clone())
            })
            .collect();
        format!("<wavejit.Kernel {}({})>", self.k().name, args.join(", "))
    }
}

/// One argument of a kernel's kernarg segment (from the metadata note).
#[pyclass(module = "wavejit", frozen)]
pub struct KernelArg {
    pub a: ArgMeta,
}

#[pymethods]
impl KernelArg {
    /// The source name, when the compiler kept it.
    #[getter]
    fn name(&self) -> Option<String> {
        self.a.name.clone()
    }

    /// The source type ("uint", "float*", ...), when the compiler kept it.
    #[getter]
    fn type_name(&self) -> Option<String> {
        self.a.type_name.clone()
    }

    #[getter]
    fn offset(&self) -> u32 {
        self.a.offset
    }

    #[getter]
    fn size(&self) -> u32 {
        self.a.size
    }

    /// "by_value", "global_buffer", "dynamic_shared_pointer", "hidden_block_count_x", ...
    #[getter]
    fn value_kind(&self) -> String {
        self.a.value_kind.clone()
    }

    /// "global", "constant", "local", ... for pointers.
    #[getter]
    fn address_space(&self) -> Option<String> {
        self.a.address_space.clone()
    }

    #[getter]
    fn is_const(&self) -> bool {
        self.a.is_const
    }

    /// Filled by the launcher, not given by the caller.
    #[getter]
    fn hidden(&self) -> bool {
        self.a.is_hidden()
    }

    fn __repr__(&self) -> String {
        format!(
            "<wavejit.KernelArg {} {} offset={} size={}>",
            self.a.name.as_deref().unwrap_or("?"),
            self.a.type_name.as_deref().unwrap_or(&self.a.value_kind),
            self.a.offset,
            self.a.size
        )
    }
}
