"""CodeObject.load from a path, a PathLike and bytes; kernels and their metadata (checked
against the OpenCL ABI worked by hand: 8-byte pointers, naturally aligned scalars); and
LoadError for what is not a code object."""

import pathlib

import pytest

import wavejit


def test_load_path_pathlike_bytes(build):
    p = build.path("vadd.cl", "gfx803")
    objs = [wavejit.CodeObject.load(str(p)), wavejit.CodeObject.load(pathlib.Path(p)),
            wavejit.CodeObject.load(p.read_bytes()),
            wavejit.CodeObject.load(bytearray(p.read_bytes()))]
    for c in objs:
        assert c.arch == "gfx8" and c.processor == "gfx803"
        assert c.version == 5  # clang-19's default code object version
        assert not c.relocatable
        assert c.target == "amdgcn-amd-amdhsa--gfx803"
        assert [k.name for k in c.kernels] == ["vadd"]
    assert "vadd" in repr(objs[0])


@pytest.mark.parametrize("cpu,arch", [("gfx600", "gfx6"), ("gfx700", "gfx7"), ("gfx803", "gfx8")])
def test_kernel_metadata(build, cpu, arch):
    c = build.code("vadd.cl", cpu)
    assert c.arch == arch
    k = c.kernel("vadd")
    assert c.kernel("vadd.kd").name == "vadd"
    assert k.has_metadata
    user = k.user_args
    # vadd(global const uint *a, global const uint *b, global uint *c, uint n)
    assert [a.type_name for a in user] == ["uint*", "uint*", "uint*", "uint"]
    assert [a.offset for a in user] == [0, 8, 16, 24]
    assert [a.size for a in user] == [8, 8, 8, 4]
    assert [a.value_kind for a in user] == ["global_buffer"] * 3 + ["by_value"]
    assert [a.address_space for a in user] == ["global"] * 3 + [None]
    assert [a.is_const for a in user[:3]] == [True, True, False]
    assert all(a.hidden for a in k.args[4:]) and not any(a.hidden for a in user)
    assert any(a.value_kind == "hidden_block_count_x" for a in k.args)
    assert k.kernarg_size >= 28
    assert k.vgpr_count >= 1 and k.sgpr_count >= 1
    assert k.group_segment_fixed_size == 0 and k.private_segment_fixed_size == 0
    assert k.max_flat_workgroup_size == 256  # clang's default for OpenCL
    assert k.reqd_workgroup_size is None


def test_local_memory_and_scratch_sizes(build):
    # matmul declares two 16x16 uint tiles: 2 * 16 * 16 * 4 = 2048 bytes of LDS.
    assert build.code("matmul.cl", "gfx803").kernel("matmul").group_segment_fixed_size == 2048
    # private_hist keeps uint h[32] in scratch: at least 128 bytes per work-item.
    k = build.code("private_hist.cl", "gfx803").kernel("private_hist")
    assert k.private_segment_fixed_size >= 128
    arg = build.code("reverse_local.cl", "gfx803").kernel("reverse_local").user_args[2]
    assert arg.value_kind == "dynamic_shared_pointer" and arg.address_space == "local"


def test_load_errors(build, tmp_path):
    with pytest.raises(wavejit.LoadError):
        wavejit.CodeObject.load(b"not an elf file at all")
    with pytest.raises(wavejit.LoadError):
        wavejit.CodeObject.load(build.path("vadd.cl", "gfx803").read_bytes()[:100])
    with pytest.raises(OSError):
        wavejit.CodeObject.load(tmp_path / "missing.hsaco")
    with pytest.raises(TypeError):
        wavejit.CodeObject.load(42)
    c = build.code("vadd.cl", "gfx803")
    with pytest.raises(wavejit.LoadError) as e:
        c.kernel("vsub")
    assert "vadd" in str(e.value)  # the message lists the kernels there are
    assert issubclass(wavejit.LoadError, wavejit.LaunchError)
