"""The package as a user meets it: the stubs describe exactly what the module exports,
every public callable has a docstring, and the example scripts run."""

import ast
import pathlib
import subprocess
import sys

import pytest

import wavejit
from conftest import ROOT

PKG = pathlib.Path(wavejit.__file__).parent


def stub_names():
    tree = ast.parse((PKG / "_native.pyi").read_text())
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def test_stubs_match_module():
    public = set(wavejit.__all__)
    aliases = {"Arch", "EngineName", "Dims", "HostData", "KernelArgValue"}
    # Module-level assignments in the stub are type aliases, not exports.
    tree = ast.parse((PKG / "_native.pyi").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign):
            aliases |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    assert stub_names() - aliases == public
    assert (PKG / "py.typed").exists()
    for name in public:
        assert hasattr(wavejit, name), name


def test_docstrings():
    for name in wavejit.__all__:
        obj = getattr(wavejit, name)
        if callable(obj):
            assert obj.__doc__, name
    for cls, methods in [(wavejit.Device, ["alloc", "empty", "launch"]),
                         (wavejit.Buffer, ["numpy", "read", "write"]),
                         (wavejit.CodeObject, ["load", "kernel"])]:
        for m in methods:
            assert getattr(cls, m).__doc__, f"{cls.__name__}.{m}"


def test_vadd_example(build):
    build.path("vadd.cl", "gfx803")  # skips without clang-19
    r = subprocess.run([sys.executable, str(ROOT / "python" / "examples" / "vadd.py"),
                        "-n", "3000", "--engine", "tiered"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "OK: 3000 sums equal NumPy's" in r.stdout


def test_plot_bench_example(tmp_path):
    out = tmp_path / "bench.png"
    r = subprocess.run([sys.executable, str(ROOT / "python" / "examples" / "plot_bench.py"),
                        str(ROOT / "docs" / "bench" / "results.json"), "-o", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "valu" in r.stdout and "interpreter" in r.stdout
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "matplotlib is not installed" in r.stderr
    else:
        assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
