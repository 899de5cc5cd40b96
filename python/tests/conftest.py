"""Shared fixtures: the repository's paths and OpenCL C kernels built by clang-19.

Without clang-19 (or llvm-mc-19) the tests that need it skip with a note; with
WAVEJIT_REQUIRE_ORACLES=1 (as .ci/run sets) a missing tool fails them instead.
"""

import os
import pathlib
import shutil
import subprocess

import pytest

import wavejit

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
OPENCL = ROOT / "examples" / "opencl"
KERNELS = HERE / "kernels"
CPUS = ["gfx600", "gfx700", "gfx803"]
ENGINES = wavejit.engines()


def need(tool):
    """The tool's path, or skip (fail when oracles are required)."""
    path = shutil.which(tool)
    if path is None:
        msg = f"{tool} is not installed"
        if os.environ.get("WAVEJIT_REQUIRE_ORACLES") == "1":
            pytest.fail(msg + " (WAVEJIT_REQUIRE_ORACLES=1)")
        pytest.skip(msg)
    return path


class Builder:
    """Builds OpenCL C sources with clang-19 into code objects, once per (source, cpu)."""

    def __init__(self, out):
        self.out = out
        self.cache = {}

    def path(self, src, cpu, extra=()):
        key = (str(src), cpu, tuple(extra))
        if key not in self.cache:
            clang = need("clang-19")
            src = pathlib.Path(src)
            if not src.is_absolute():
                src = (OPENCL / src) if (OPENCL / src).exists() else (KERNELS / src)
            tag = "".join(e.replace("=", "").replace("-", "") for e in extra)
            out = self.out / f"{src.stem}-{cpu}{tag}.hsaco"
            subprocess.run(
                [clang, "-x", "cl", "-cl-std=CL1.2", "-target", "amdgcn-amd-amdhsa",
                 "-nogpulib", "-O2", f"-mcpu={cpu}", f"-I{OPENCL}", *extra, str(src),
                 "-o", str(out)],
                check=True, capture_output=True,
            )
            self.cache[key] = out
        return self.cache[key]

    def code(self, src, cpu, extra=()):
        return wavejit.CodeObject.load(self.path(src, cpu, extra))


@pytest.fixture(scope="session")
def build(tmp_path_factory):
    return Builder(tmp_path_factory.mktemp("kernels"))


@pytest.fixture(scope="session")
def llvm_mc():
    return need("llvm-mc-19")
