"""Device, Buffer, Local and LaunchStats: NumPy round trips for every scalar type (through
the device's memory and through a kernel), kernel arguments of every scalar type from
Python and NumPy numbers, each error class of a launch, profiles, time limits, Ctrl-C and
the GIL being released while a kernel runs."""

import os
import signal
import subprocess
import threading

import numpy as np
import pytest

import wavejit
from conftest import CPUS, ENGINES, ROOT

DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
          np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128]
RNG = np.random.default_rng(7)


def sample(dtype, n=101):
    """n values of dtype covering its range (extremes included)."""
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return RNG.integers(0, 2, n).astype(dt)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        v = RNG.integers(info.min, info.max, n, dtype=dt, endpoint=True)
        v[:2] = [info.min, info.max]
        return v
    if dt.kind == "f":
        v = RNG.standard_normal(n).astype(dt) * dt.type(100)
        v[:3] = [np.finfo(dt).max, np.finfo(dt).tiny, -0.0]
        return v
    return (RNG.standard_normal(n) + 1j * RNG.standard_normal(n)).astype(dt)


@pytest.mark.parametrize("dtype", DTYPES)
def test_alloc_numpy_round_trip(dtype):
    dev = wavejit.Device(engine="interp")
    a = sample(dtype)
    b = dev.alloc(a)
    assert b.nbytes == len(b) == a.nbytes
    back = b.numpy()
    assert back.dtype == a.dtype and back.shape == a.shape
    assert back.tobytes() == a.tobytes()
    # The device is little-endian: the raw bytes are the array's little-endian bytes.
    assert b.numpy(np.uint8).tobytes() == a.astype(a.dtype.newbyteorder("<")).tobytes()
    assert bytes(b.read()) == a.tobytes()
    # 2-D arrays keep their shape.
    m = sample(dtype, 24).reshape(4, 6)
    assert np.array_equal(dev.alloc(m).numpy(), m)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_kernel_copy_round_trip(build, engine, dtype):
    """Every dtype through a kernel that copies bytes: what comes back is what went in."""
    code = build.code("copy.cl", "gfx803")
    dev = wavejit.Device(engine=engine)
    a = sample(dtype, 77)
    out = dev.empty(a.nbytes)
    dev.launch(code, "copy", grid=a.nbytes, block=64, args=[dev.alloc(a), out, a.nbytes])
    np.testing.assert_array_equal(out.numpy(a.dtype), a)


def test_non_contiguous_and_big_endian_arrays():
    dev = wavejit.Device(engine="interp")
    a = np.arange(40, dtype=np.uint32)
    assert np.array_equal(dev.alloc(a[::3]).numpy(), a[::3])
    f = np.asfortranarray(a.reshape(5, 8))
    assert np.array_equal(dev.alloc(f).numpy(), f)
    assert dev.alloc(f).numpy(np.uint32)[1] == 1  # stored in C order
    be = a.astype(">u4")
    assert np.array_equal(dev.alloc(be).numpy(np.uint32), a)
    assert dev.alloc(np.zeros(0, np.float32)).nbytes == 0
    assert dev.alloc(b"\x01\x02").numpy(np.uint16)[0] == 0x0201
    assert dev.alloc(bytearray(b"\x05")).numpy()[0] == 5
    assert dev.alloc(np.float64(2.5)).numpy().shape == ()


def test_buffer_write_read_and_bad_host_data():
    dev = wavejit.Device(engine="interp")
    b = dev.empty(16)
    assert not b.numpy().any() and b.numpy().dtype == np.uint8
    b.write(np.array([1, 2], np.uint32))
    assert list(b.numpy(np.uint32)) == [1, 2, 0, 0]
    with pytest.raises(wavejit.LaunchError):
        b.write(np.zeros(5, np.uint32))  # 20 bytes into 16
    with pytest.raises(ValueError):
        dev.empty(10).numpy(np.uint32)  # 10 bytes are not whole uint32s
    with pytest.raises(TypeError):
        dev.alloc(np.array([object(), 1]))
    with pytest.raises(TypeError):
        dev.alloc([1, 2, 3])
    assert b.address >= 2**32  # buffers start at 4 GiB
    with pytest.raises(wavejit.LaunchError):
        wavejit.Device(memory_limit=1024).alloc(np.zeros(4096, np.uint8))


# scalars(out, char, uchar, short, ushort, int, uint, long, ulong, float, double, half)
SCALAR_DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
                 np.uint64, np.float32, np.float64, np.float16]
OFFSETS = [0, 1, 2, 4, 8, 12, 16, 24, 32, 40, 48]
EXTREMES = [-128, 255, -32768, 65535, -(2**31), 2**32 - 1, -(2**63), 2**64 - 1, 1.5, 0.1,
            -0.333]


def read_scalars(buf):
    raw = buf.numpy(np.uint8)
    return [raw[o:o + np.dtype(t).itemsize].view(t)[0] for o, t in zip(OFFSETS, SCALAR_DTYPES)]


@pytest.mark.parametrize("cpu", CPUS)
@pytest.mark.parametrize("engine", ENGINES)
def test_scalar_arguments_python_and_numpy(build, cpu, engine):
    code = build.code("scalars.cl", cpu)
    dev = wavejit.Device(engine=engine)
    # Python numbers: typed by the kernel's metadata.
    out = dev.empty(64)
    dev.launch(code, "scalars", grid=1, block=1, args=[out, *EXTREMES])
    got = read_scalars(out)
    for v, want, t in zip(got, EXTREMES, SCALAR_DTYPES):
        assert v == t(want), (t, v, want)
    # NumPy scalars keep their own type.
    vals = [t(x) for t, x in zip(SCALAR_DTYPES, [5, 6, -7, 8, -9, 10, -11, 12, 2.25, -1e300, 0.5])]
    out2 = dev.empty(64)
    dev.launch(code, "scalars", grid=1, block=1, args=[out2, *vals])
    assert read_scalars(out2) == vals
    # Python ints for float arguments are converted.
    out3 = dev.empty(64)
    dev.launch(code, "scalars", grid=1, block=1, args=[out3, *([0] * 8), 3, -4, 2])
    assert read_scalars(out3)[8:] == [3.0, -4.0, 2.0]


def test_argument_errors(build):
    code = build.code("scalars.cl", "gfx803")
    dev = wavejit.Device(engine="interp")
    out = dev.empty(64)
    good = [out, *([0] * 8), 1.0, 1.0, 1.0]

    def bad(i, value):
        args = list(good)
        args[i] = value
        with pytest.raises(wavejit.LaunchError) as e:
            dev.launch(code, "scalars", grid=1, block=1, args=args)
        assert e.value.kernel == "scalars"
        return str(e.value)

    assert "argument 1" in bad(1, 256)            # char: -128..255 (signed or unsigned)
    bad(1, -129)
    bad(7, -(2**63) - 1)                            # long
    bad(8, 2**64)                                    # ulong
    assert "float" in bad(5, 1.5)                    # a float for int
    bad(1, np.int32(1))                              # a 4-byte NumPy int for char
    bad(9, np.float64(1))                            # an 8-byte float for float
    bad(9, np.int32(1))                              # an int for float
    bad(0, 5)                                        # a number for a pointer
    bad(1, out)                                      # a buffer for a number
    bad(1, "7")
    bad(0, wavejit.Device().empty(64))               # another device's buffer
    with pytest.raises(wavejit.LaunchError) as e:
        dev.launch(code, "scalars", grid=1, block=1, args=[out])
    assert "takes 12 arguments, 1 given" in str(e.value)
    for grid, block in [(0, 1), ((1, 2, 3, 4), 1), (-1, 1), (1, 2048), (1, "x")]:
        with pytest.raises(wavejit.LaunchError):
            dev.launch(code, "scalars", grid=grid, block=block, args=good)
    with pytest.raises(wavejit.LoadError):
        dev.launch(code, "nope", grid=1, block=1, args=good)
    # The failed launches left the device usable.
    dev.launch(code, "scalars", grid=1, block=1, args=good)


@pytest.mark.parametrize("engine", ENGINES)
def test_fault_is_exec_error_with_position(build, engine):
    code = build.code("vadd.cl", "gfx803")
    dev = wavejit.Device(engine=engine)
    n = 100
    a = dev.alloc(np.arange(n, dtype=np.uint32))
    small = dev.empty(16)  # room for 4 results of 100
    with pytest.raises(wavejit.ExecError) as e:
        dev.launch(code, "vadd", grid=n, block=64, args=[a, a, small, n])
    x = e.value
    assert x.kind == "out_of_bounds" and x.space == "global"
    assert x.workgroup == (0, 0, 0) and x.wave == 0 and x.kernel == "vadd"
    # Lanes 0-3 store inside the 16 bytes; lane 4 is the first past them.
    assert x.lane == 4 and x.address == small.address + 16 and x.size == 4
    assert isinstance(x.pc, int)
    assert x.instruction.startswith("flat_store_dword")  # GCN 1.2 stores through FLAT
    # A null pointer faults at a small address.
    with pytest.raises(wavejit.ExecError) as e:
        dev.launch(code, "vadd", grid=n, block=64, args=[a, a, None, n])
    assert e.value.address < 4096


def test_wave_budget_and_time_limit(build):
    code = build.code("lcg.cl", "gfx803")
    dev = wavejit.Device(engine="interp", max_insts_per_wave=1000)
    with pytest.raises(wavejit.ExecError) as e:
        dev.launch(code, "lcg", grid=64, block=64, args=[dev.empty(256), 100000])
    assert e.value.kind == "inst_limit" and e.value.wave == 0
    dev = wavejit.Device(engine="interp", threads=1, time_limit=0.05)
    with pytest.raises(wavejit.ExecError) as e:
        dev.launch(code, "lcg", grid=64 * 2000, block=64, args=[dev.empty(4 * 64 * 2000), 2000])
    assert e.value.kind == "timeout"


def lcg(n, steps):
    x = np.arange(n, dtype=np.uint32)
    for _ in range(steps):
        x = x * np.uint32(1664525) + np.uint32(1013904223)
    return x


def test_gil_released_during_launch(build):
    code = build.code("lcg.cl", "gfx803")
    dev = wavejit.Device(engine="interp", threads=1)
    n, steps = 64 * 16, 3000
    out = dev.empty(4 * n)
    count = [0]
    done = threading.Event()

    def spin():
        while not done.is_set():
            count[0] += 1

    t = threading.Thread(target=spin)
    t.start()
    before = count[0]
    stats = dev.launch(code, "lcg", grid=n, block=64, args=[out, steps])
    during = count[0] - before
    done.set()
    t.join()
    np.testing.assert_array_equal(out.numpy(np.uint32), lcg(n, steps))
    # With the GIL held for the whole launch the other thread could not count at all.
    assert during > 1000, (during, stats.elapsed)


def test_ctrl_c_stops_a_launch(build):
    code = build.code("lcg.cl", "gfx803")
    dev = wavejit.Device(engine="interp", threads=1)
    # About 10^5 workgroups: minutes of work unless stopped.
    n = 64 * 100_000
    out = dev.empty(4 * n)
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        dev.launch(code, "lcg", grid=n, block=64, args=[out, 200])
    timer.join()
    # The cancel token was cleared: the device launches again.
    small = dev.empty(4 * 64)
    dev.launch(code, "lcg", grid=64, block=64, args=[small, 3])
    np.testing.assert_array_equal(small.numpy(np.uint32), lcg(64, 3))


@pytest.mark.parametrize("engine", ENGINES)
def test_profile_and_stats(build, engine):
    code = build.code("vadd.cl", "gfx803")
    dev = wavejit.Device(engine=engine, threads=1)
    n = 100
    a, c = dev.alloc(np.arange(n, dtype=np.uint32)), dev.empty(4 * n)
    s = dev.launch(code, "vadd", grid=n, block=64, args=[a, a, c, n], profile=True)
    assert (s.kernel, s.engine, s.threads) == ("vadd", engine, 1)
    assert (s.workgroups, s.waves) == (2, 2)  # ceil(100 / 64) groups of one wave
    assert s.insts > 0 and s.elapsed >= 0 and s.insts_per_sec > 0
    assert "vadd" in str(s) and "vadd" in repr(s)
    d = s.profile["dispatch"]
    assert d["SQ_WAVES"] == 2 and d["SQ_INSTS"] == s.insts
    assert d["SQ_INSTS_VMEM_WR"] == 2  # one store per wave
    assert d["write_bytes"] == 4 * n  # 100 active lanes store 4 bytes each
    assert s.profile["kernels"][0]["kernel"] == "vadd"
    # Without profile=True there is none, and results are the same.
    s2 = dev.launch(code, "vadd", grid=n, block=64, args=[a, a, c, n])
    assert s2.profile is None
    np.testing.assert_array_equal(c.numpy(np.uint32), 2 * np.arange(n, dtype=np.uint32))


def test_local_argument_forms(build):
    code = build.code("reverse_local.cl", "gfx700")
    dev = wavejit.Device(engine="jit")
    x = np.arange(256, dtype=np.uint32)
    for local in (wavejit.Local(4 * 128), 4 * 128):
        out = dev.empty(x.nbytes)
        dev.launch(code, "reverse_local", grid=256, block=128, args=[dev.alloc(x), out, local])
        np.testing.assert_array_equal(out.numpy(np.uint32), x.reshape(2, 128)[:, ::-1].ravel())
    assert wavejit.Local(8).nbytes == 8 and repr(wavejit.Local(8)) == "wavejit.Local(8)"
    with pytest.raises(wavejit.LaunchError):
        dev.launch(code, "reverse_local", grid=256, block=128,
                   args=[dev.alloc(x), dev.empty(x.nbytes), 1.5])


def test_kernel_without_metadata(llvm_mc, tmp_path):
    """A hand-written kernel without a metadata note: arguments packed in order, Python
    ints as 32-bit values. wave_ids: out[id] = id * 3 + k."""
    src = ROOT / "tests" / "data" / "launch" / "wave_ids.s"
    obj = tmp_path / "wave_ids.o"
    subprocess.run([llvm_mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx803", "-filetype=obj",
                    str(src), "-o", str(obj)], check=True)
    code = wavejit.CodeObject.load(obj)
    k = code.kernel("wave_ids")
    assert code.relocatable and not k.has_metadata and k.args == []
    for engine in ENGINES:
        dev = wavejit.Device(engine=engine)
        out = dev.empty(4 * 256)
        dev.launch(code, "wave_ids", grid=256, block=64, args=[out, 1000])
        np.testing.assert_array_equal(out.numpy(np.uint32), np.arange(256) * 3 + 1000)


def test_device_options():
    assert sorted(wavejit.engines()) == ["diff", "interp", "jit", "threaded", "tiered"]
    for e in wavejit.engines():
        d = wavejit.Device(engine=e, threads=2)
        assert d.engine == e and d.threads == 2 and e in repr(d)
    assert wavejit.Device().engine == "jit"
    with pytest.raises(ValueError):
        wavejit.Device(engine="gpu")
    with pytest.raises(ValueError):
        wavejit.Device(threads=0)
    with pytest.raises(ValueError):
        wavejit.Device(time_limit=-1.0)


def test_exception_hierarchy():
    for cls in (wavejit.AsmError, wavejit.DecodeError, wavejit.ExecError,
                wavejit.MismatchError, wavejit.LaunchError, wavejit.StateError):
        assert issubclass(cls, wavejit.WavejitError)
        assert cls.__module__ == "wavejit"
    assert issubclass(wavejit.WavejitError, Exception)


def test_device_busy_in_another_thread(build):
    """While one Python thread launches, another using the same device gets an exception,
    not a crash; the launch itself completes."""
    code = build.code("lcg.cl", "gfx803")
    dev = wavejit.Device(engine="interp", threads=1)
    n = 64 * 64
    out = dev.empty(4 * n)
    started = threading.Event()
    result = {}

    def launch():
        started.set()
        result["stats"] = dev.launch(code, "lcg", grid=n, block=64, args=[out, 4000])

    t = threading.Thread(target=launch)
    t.start()
    started.wait()
    errors = 0
    while t.is_alive():
        try:
            dev.empty(16)
        except RuntimeError:
            errors += 1
        t.join(0.01)
    assert "stats" in result
    np.testing.assert_array_equal(out.numpy(np.uint32), lcg(n, 4000))
    assert errors > 0  # the launch held the device while it ran


def test_hostile_code_objects(build):
    """Corrupted code objects load or raise LoadError; nothing else."""
    good = bytearray(build.path("vadd.cl", "gfx803").read_bytes())
    rng = np.random.default_rng(11)
    loaded = 0
    for _ in range(300):
        b = bytearray(good)
        for pos in rng.integers(0, len(b), rng.integers(1, 8)):
            b[pos] = rng.integers(0, 256)
        try:
            wavejit.CodeObject.load(bytes(b))
            loaded += 1
        except wavejit.LoadError:
            pass
    for cut in range(0, len(good), 97):
        with pytest.raises(wavejit.LoadError):
            wavejit.CodeObject.load(bytes(good[:cut]))
    assert loaded < 300  # some corruptions are caught
