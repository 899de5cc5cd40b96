"""wavejit: run AMD GCN 1.0-1.2 kernels and NVIDIA VP1 code on the CPU, from Python.

The machine code runs in wavejit's reference interpreter or through its Cranelift JIT;
buffers come from and go back to NumPy.

>>> import numpy as np, wavejit
>>> code = wavejit.CodeObject.load("vadd.hsaco")          # clang-19 -target amdgcn-amd-amdhsa
>>> dev = wavejit.Device(engine="jit")
>>> a = dev.alloc(np.arange(1000, dtype=np.uint32))
>>> b = dev.alloc(np.full(1000, 7, dtype=np.uint32))
>>> c = dev.empty(4000)
>>> dev.launch(code, "vadd", grid=1000, block=256, args=[a, b, c, 1000])
>>> c.numpy(np.uint32)

Functions: assemble, disassemble, run, engines. Classes: CodeObject, Kernel, KernelArg,
Device, Buffer, Local, LaunchStats. Errors (all subclasses of WavejitError): AsmError,
DecodeError, ExecError, MismatchError, LaunchError, LoadError, StateError.
"""

from ._native import (
    AsmError,
    Buffer,
    CodeObject,
    DecodeError,
    Device,
    ExecError,
    Kernel,
    KernelArg,
    LaunchError,
    LaunchStats,
    LoadError,
    Local,
    MismatchError,
    StateError,
    WavejitError,
    __version__,
    assemble,
    disassemble,
    engines,
    run,
)

__all__ = [
    "AsmError",
    "Buffer",
    "CodeObject",
    "DecodeError",
    "Device",
    "ExecError",
    "Kernel",
    "KernelArg",
    "LaunchError",
    "LaunchStats",
    "LoadError",
    "Local",
    "MismatchError",
    "StateError",
    "WavejitError",
    "__version__",
    "assemble",
    "disassemble",
    "engines",
    "run",
]
