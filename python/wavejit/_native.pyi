"""Type stubs of the wavejit extension module (re-exported by the `wavejit` package)."""

import os
from typing import Any, Iterable, Literal, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

__version__: str

Arch = str
""""gfx6", "gfx7", "gfx8" (or an alias: "tahiti", "bonaire", "fiji", "gfx803", "gcn1.2", ...) or "vp1"."""
EngineName = Literal["jit", "tiered", "threaded", "interp", "diff"]
Dims = Union[int, Sequence[int]]
HostData = Union[npt.NDArray[Any], np.generic, bytes, bytearray]
KernelArgValue = Union["Buffer", "Local", int, float, np.generic, bytes, npt.NDArray[Any], None]

def assemble(text: str, arch: Arch) -> bytes:
    """Assemble GCN (CLRX or LLVM syntax) or VP1 text into machine code.

    Raises AsmError (with line and col) on the first error, ValueError for an unknown arch.
    """

def disassemble(
    code: Union[bytes, bytearray, npt.NDArray[Any]],
    arch: Arch,
    syntax: Literal["clrx", "llvm"] = "clrx",
    strict: bool = True,
) -> list[str]:
    """One line per instruction. With strict, an undecodable word raises DecodeError
    (with its byte offset); without, it is listed as `.long` with the reason."""

def run(
    program: Union[str, bytes, bytearray],
    arch: Arch,
    state: Union[dict[str, Any], str, None] = None,
    engine: EngineName = "jit",
    max_insts: int = 100_000_000,
) -> dict[str, Any]:
    """Run assembly text or machine code on one wavefront from `state` (the JSON schema of
    `wavejit run --state`) until s_endpgm and return the final state in the same schema.

    Raises ExecError (pc, lane, address, ...), StateError, AsmError, MismatchError (diff
    engine). Ctrl-C raises KeyboardInterrupt at once.
    """

def engines() -> list[str]:
    """The engine names: interp, jit, tiered, diff."""

class KernelArg:
    """One argument of a kernel's kernarg segment, from the code object's metadata note."""
    @property
    def name(self) -> Optional[str]: ...
    @property
    def type_name(self) -> Optional[str]:
        """The OpenCL type ("uint", "float*", ...), when the compiler kept it."""
    @property
    def offset(self) -> int: ...
    @property
    def size(self) -> int: ...
    @property
    def value_kind(self) -> str:
        """"by_value", "global_buffer", "dynamic_shared_pointer", "hidden_..."."""
    @property
    def address_space(self) -> Optional[str]: ...
    @property
    def is_const(self) -> bool: ...
    @property
    def hidden(self) -> bool:
        """Filled by the launcher (block counts, group sizes, ...), not by the caller."""

class Kernel:
    """A kernel of a code object."""
    @property
    def name(self) -> str: ...
    @property
    def args(self) -> list[KernelArg]:
        """Every kernarg argument, hidden ones included (empty without metadata)."""
    @property
    def user_args(self) -> list[KernelArg]:
        """The arguments Device.launch takes, in order."""
    @property
    def has_metadata(self) -> bool: ...
    @property
    def kernarg_size(self) -> int: ...
    @property
    def group_segment_fixed_size(self) -> int:
        """Fixed LDS bytes per workgroup."""
    @property
    def private_segment_fixed_size(self) -> int:
        """Fixed scratch bytes per work-item."""
    @property
    def sgpr_count(self) -> int: ...
    @property
    def vgpr_count(self) -> int: ...
    @property
    def max_flat_workgroup_size(self) -> Optional[int]: ...
    @property
    def reqd_workgroup_size(self) -> Optional[list[int]]: ...

class CodeObject:
    """A loaded AMDHSA code object (ELF) for GCN 1.0-1.2."""
    @staticmethod
    def load(source: Union[str, os.PathLike[str], bytes, bytearray]) -> "CodeObject":
        """Read a file or parse bytes. Raises LoadError, OSError."""
    @property
    def arch(self) -> str:
        """"gfx6", "gfx7" or "gfx8"."""
    @property
    def processor(self) -> str:
        """"gfx600", "gfx803", ..."""
    @property
    def version(self) -> int:
        """Code object version (3 to 6)."""
    @property
    def relocatable(self) -> bool: ...
    @property
    def target(self) -> Optional[str]: ...
    @property
    def kernels(self) -> list[Kernel]: ...
    def kernel(self, name: str) -> Kernel:
        """The kernel called name (with or without ".kd"). Raises LoadError."""

class Local:
    """A __local pointer argument: nbytes of dynamic LDS per workgroup."""
    def __init__(self, nbytes: int) -> None: ...
    @property
    def nbytes(self) -> int: ...

class Buffer:
    """A buffer in a Device's global memory."""
    @property
    def nbytes(self) -> int: ...
    @property
    def address(self) -> int:
        """The device address a kernel's pointer holds."""
    def __len__(self) -> int: ...
    def read(self) -> bytearray:
        """A copy of the buffer's bytes."""
    def write(self, data: HostData) -> None:
        """Overwrite the buffer's first bytes. Raises LaunchError if data is larger."""
    def numpy(self, dtype: Optional[npt.DTypeLike] = None) -> npt.NDArray[Any]:
        """A new array of the buffer's contents; without dtype, the dtype and shape of the
        array it was allocated from (uint8 for Device.empty)."""

class LaunchStats:
    """What a launch did."""
    kernel: str
    engine: str
    threads: int
    workgroups: int
    waves: int
    insts: int
    elapsed: float
    """Seconds."""
    insts_per_sec: float
    engine_report: Optional[str]
    profile: Optional[dict[str, Any]]
    """The launch's profile (as `wavejit launch --profile` writes it) when requested."""

class Device:
    """A simulated GPU: global memory, an engine, host threads for workgroups."""
    def __init__(
        self,
        engine: EngineName = "jit",
        threads: Optional[int] = None,
        max_insts_per_wave: Optional[int] = None,
        memory_limit: Optional[int] = None,
        time_limit: Optional[float] = None,
    ) -> None: ...
    @property
    def engine(self) -> str: ...
    @property
    def threads(self) -> int: ...
    def alloc(self, data: HostData) -> Buffer:
        """A buffer holding a copy of data (copied straight from a C-contiguous array)."""
    def empty(self, nbytes: int) -> Buffer:
        """A zero-filled buffer."""
    def launch(
        self,
        code: CodeObject,
        kernel: str,
        grid: Dims,
        block: Optional[Dims] = None,
        args: Optional[Iterable[KernelArgValue]] = None,
        profile: bool = False,
    ) -> LaunchStats:
        """Run kernel over grid work-items in workgroups of block (default 64) and wait.

        args follow the kernel's argument order: Buffer (or None) for pointers, Local or
        an int for __local pointers, Python/NumPy numbers typed by the metadata for
        values, bytes or an array for vectors and structs. The GIL is released while the
        kernel runs; Ctrl-C stops it between workgroups and raises KeyboardInterrupt.
        Raises LaunchError, LoadError, ExecError, MismatchError.
        """

class WavejitError(Exception): ...

class AsmError(WavejitError):
    line: int
    col: int
    msg: str

class DecodeError(WavejitError):
    offset: int
    kind: str

class ExecError(WavejitError):
    kind: str
    """unsupported, out_of_bounds, pc_out_of_code, inst_limit, decode, bad_operand, export_limit,
    timeout, cancelled."""
    pc: Optional[int]
    instruction: Optional[str]
    """The instruction at pc, as llvm-mc prints it."""
    lane: Optional[int]
    address: Optional[int]
    space: Optional[str]
    size: Optional[int]
    mnemonic: Optional[str]
    workgroup: Optional[tuple[int, int, int]]
    wave: Optional[int]
    kernel: Optional[str]

class MismatchError(WavejitError):
    workgroup: Optional[tuple[int, int, int]]
    wave: Optional[int]
    kernel: Optional[str]

class LaunchError(WavejitError):
    kernel: Optional[str]

class LoadError(LaunchError): ...

class StateError(WavejitError):
    at: str
    msg: str
