#!/usr/bin/env python3
"""Build examples/opencl/vadd.cl with clang-19, launch it on wavejit from NumPy arrays and
compare the result with NumPy.

    python python/examples/vadd.py [--mcpu gfx803] [--engine jit] [-n 100000]
"""

import argparse
import pathlib
import shutil
import subprocess
import sys
import tempfile

import numpy as np

import wavejit

OPENCL = pathlib.Path(__file__).resolve().parents[2] / "examples" / "opencl"


def build(src: pathlib.Path, mcpu: str, out: pathlib.Path) -> pathlib.Path:
    """Compile OpenCL C to an AMDHSA code object (no device library: wavejit.h supplies
    get_global_id and friends)."""
    if shutil.which("clang-19") is None:
        sys.exit("clang-19 is not installed (apt-get install clang-19 lld-19)")
    subprocess.run(
        ["clang-19", "-x", "cl", "-cl-std=CL1.2", "-target", "amdgcn-amd-amdhsa", "-nogpulib",
         "-O2", f"-mcpu={mcpu}", f"-I{OPENCL}", str(src), "-o", str(out)],
        check=True,
    )
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--mcpu", default="gfx803", help="gfx600, gfx700 or gfx803")
    p.add_argument("--engine", default="jit", choices=wavejit.engines())
    p.add_argument("-n", type=int, default=100_000, help="vector length")
    a = p.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        code = wavejit.CodeObject.load(build(OPENCL / "vadd.cl", a.mcpu, pathlib.Path(tmp) / "vadd.hsaco"))
    kernel = code.kernel("vadd")
    print(f"{code.processor}: {kernel.name}({', '.join(x.type_name or x.value_kind for x in kernel.user_args)})")

    rng = np.random.default_rng(1)
    x = rng.integers(0, 2**32, a.n, dtype=np.uint32)
    y = rng.integers(0, 2**32, a.n, dtype=np.uint32)

    dev = wavejit.Device(engine=a.engine)
    bx, by, bz = dev.alloc(x), dev.alloc(y), dev.empty(x.nbytes)
    stats = dev.launch(code, "vadd", grid=a.n, block=256, args=[bx, by, bz, a.n])
    print(stats)

    z = bz.numpy(np.uint32)
    want = x + y  # uint32 arithmetic wraps, as on the GPU
    if not np.array_equal(z, want):
        bad = np.flatnonzero(z != want)
        sys.exit(f"MISMATCH at {len(bad)} elements, first {bad[:5]}")
    print(f"OK: {a.n} sums equal NumPy's")


if __name__ == "__main__":
    main()
