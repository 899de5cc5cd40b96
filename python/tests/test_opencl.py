"""The OpenCL C examples of examples/opencl, built by clang-19 for every generation each
supports, launched on every engine and compared with the same computation in NumPy:
integer kernels exactly, saxpy against either rounding a compiler may choose for a*x+y
(after the multiply and the add, or fused)."""

import numpy as np
import pytest

import wavejit
from conftest import CPUS, ENGINES

RNG = np.random.default_rng(0x2024)


def u32(n):
    return RNG.integers(0, 2**32, size=n, dtype=np.uint32)


@pytest.fixture(params=ENGINES)
def dev(request):
    return wavejit.Device(engine=request.param)


@pytest.mark.parametrize("cpu", CPUS)
def test_vadd(build, dev, cpu):
    n = 1000
    a, b = u32(n), u32(n)
    code = build.code("vadd.cl", cpu)
    ba, bb, bc = dev.alloc(a), dev.alloc(b), dev.empty(4 * (n + 16))
    stats = dev.launch(code, "vadd", grid=n, block=100, args=[ba, bb, bc, n])
    got = bc.numpy(np.uint32)
    np.testing.assert_array_equal(got[:n], a + b)  # uint32 wraps as the GPU does
    assert not got[n:].any(), "nothing written past n"
    assert stats.workgroups == 10 and stats.waves == 20  # ceil(1000/100), 2 waves of 100


@pytest.mark.parametrize("cpu", CPUS)
def test_saxpy(build, dev, cpu):
    n = 777
    a = np.float32(2.5)
    x = RNG.uniform(0.5, 2.0, n).astype(np.float32)
    y = RNG.uniform(0.5, 2.0, n).astype(np.float32)
    by = dev.alloc(y)
    dev.launch(build.code("saxpy.cl", cpu), "saxpy", grid=n, block=64,
               args=[a, dev.alloc(x), by, n])
    got = by.numpy()
    twice = a * x + y  # float32 arithmetic: rounded after each operation
    # Fused: the exact a*x+y (exact in float64 for these magnitudes) rounded once.
    fused = (np.float64(a) * x.astype(np.float64) + y.astype(np.float64)).astype(np.float32)
    ok = (got == twice) | (got == fused)
    assert ok.all(), np.flatnonzero(~ok)[:10]


@pytest.mark.parametrize("cpu", CPUS)
def test_bytes(build, dev, cpu):
    n = 300
    a = RNG.integers(0, 256, 4 * n, dtype=np.uint8)
    b = RNG.integers(0, 256, 4 * n, dtype=np.uint8)
    p = RNG.integers(-(2**15), 2**15, 2 * n, dtype=np.int16)
    q = RNG.integers(-(2**15), 2**15, 2 * n, dtype=np.int16)
    bufs = [dev.alloc(a), dev.alloc(b), dev.empty(4 * n), dev.alloc(p), dev.alloc(q),
            dev.empty(4 * n), dev.empty(4 * n)]
    dev.launch(build.code("bytes.cl", cpu), "bytes", grid=n, block=64, args=[*bufs, n])
    # OpenCL: uchar arithmetic wraps mod 256; short * short is computed in int and
    # truncated; >> of a signed short is arithmetic.
    np.testing.assert_array_equal(bufs[2].numpy(np.uint8),
                                  (a.astype(np.int32) + 3 * b.astype(np.int32)).astype(np.uint8))
    np.testing.assert_array_equal(bufs[6].numpy(np.uint8), np.maximum(a, b))
    want_r = (p.astype(np.int32) * q.astype(np.int32) - (p.astype(np.int32) >> 2)).astype(np.int16)
    np.testing.assert_array_equal(bufs[5].numpy(np.int16), want_r)


@pytest.mark.parametrize("cpu", CPUS)
def test_matmul(build, dev, cpu):
    m, n, k = 32, 48, 32
    a = RNG.integers(0, 2**32, (m, k), dtype=np.uint64)
    b = RNG.integers(0, 2**32, (k, n), dtype=np.uint64)
    bc = dev.empty(4 * m * n)
    dev.launch(build.code("matmul.cl", cpu), "matmul", grid=(n, m), block=(16, 16),
               args=[dev.alloc(a.astype(np.uint32)), dev.alloc(b.astype(np.uint32)), bc, m, n, k])
    # uint64 products and sums wrap mod 2^64, which keeps the low 32 bits right.
    want = (a @ b).astype(np.uint32)
    np.testing.assert_array_equal(bc.numpy(np.uint32).reshape(m, n), want)


@pytest.mark.parametrize("cpu", CPUS)
def test_prefix_sum(build, dev, cpu):
    n, block = 1000, 256
    groups = -(-n // block)
    x = RNG.integers(0, 2**32, n, dtype=np.uint32)
    out, totals = dev.empty(4 * n), dev.empty(4 * groups)
    dev.launch(build.code("prefix_sum.cl", cpu), "prefix_sum", grid=groups * block,
               block=block, args=[dev.alloc(x), out, totals, n])
    padded = np.zeros(groups * block, np.uint32)
    padded[:n] = x
    scans = np.cumsum(padded.reshape(groups, block), axis=1, dtype=np.uint32)
    np.testing.assert_array_equal(out.numpy(np.uint32), scans.reshape(-1)[:n])
    np.testing.assert_array_equal(totals.numpy(np.uint32), scans[:, -1])


@pytest.mark.parametrize("cpu", CPUS)
def test_grid3d(build, dev, cpu):
    sx, sy, sz = 10, 7, 5
    out = dev.empty(4 * sx * sy * sz)
    dev.launch(build.code("grid3d.cl", cpu), "grid3d", grid=(sx, sy, sz), block=(4, 2, 2),
               args=[out, sx, sy, sz])
    z, y, x = np.meshgrid(np.arange(sz), np.arange(sy), np.arange(sx), indexing="ij")
    want = (x | y << 10 | z << 20).astype(np.uint32)
    np.testing.assert_array_equal(out.numpy(np.uint32).reshape(sz, sy, sx), want)


@pytest.mark.parametrize("cpu", CPUS)
def test_lookup(build, dev, cpu):
    table = np.array([0x9E3779B9, 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 0xFFFFFFFF],
                     np.uint32)
    n = 500
    x = u32(n)
    out = dev.empty(4 * n)
    dev.launch(build.code("lookup.cl", cpu), "lookup", grid=n, block=64,
               args=[dev.alloc(x), out, n])
    np.testing.assert_array_equal(out.numpy(np.uint32),
                                  table[x % 16] + np.arange(n, dtype=np.uint32))


@pytest.mark.parametrize("cpu", CPUS)
def test_private_hist(build, dev, cpu):
    n = 100
    x = u32(n * 64)
    out = dev.empty(4 * n * 32)
    dev.launch(build.code("private_hist.cl", cpu), "private_hist", grid=n, block=64,
               args=[dev.alloc(x), out, n])
    want = np.stack([np.bincount(row % 32, minlength=32) for row in x.reshape(n, 64)])
    np.testing.assert_array_equal(out.numpy(np.uint32).reshape(n, 32), want)


def test_reduce_dpp(build, dev):
    # DPP is GCN 1.2 only. The six DPP steps make an inclusive scan over each wave.
    grid, n = 256, 200
    x = RNG.integers(0, 2**32, n, dtype=np.uint32)
    scan, sums = dev.empty(4 * grid), dev.empty(4 * grid // 64)
    dev.launch(build.code("reduce_dpp.cl", "gfx803"), "reduce_dpp", grid=grid, block=128,
               args=[dev.alloc(x), scan, sums, n])
    padded = np.zeros(grid, np.uint32)
    padded[:n] = x
    want = np.cumsum(padded.reshape(-1, 64), axis=1, dtype=np.uint32)
    np.testing.assert_array_equal(scan.numpy(np.uint32), want.reshape(-1))
    np.testing.assert_array_equal(sums.numpy(np.uint32), want[:, -1])


@pytest.mark.parametrize("cpu", CPUS)
def test_reverse_local(build, dev, cpu):
    grid, block = 512, 128
    x = u32(grid)
    out = dev.empty(4 * grid)
    dev.launch(build.code("reverse_local.cl", cpu), "reverse_local", grid=grid, block=block,
               args=[dev.alloc(x), out, wavejit.Local(4 * block)])
    np.testing.assert_array_equal(out.numpy(np.uint32),
                                  x.reshape(-1, block)[:, ::-1].reshape(-1))
