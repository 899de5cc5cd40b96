"""assemble and disassemble: encodings checked against llvm-mc-19 (an independent
assembler), both syntaxes, VP1, and the positioned errors AsmError and DecodeError."""

import re
import subprocess

import pytest

import wavejit

# (llvm-mc -mcpu, wavejit arch, instruction in LLVM syntax)
LINES = [
    ("tahiti", "gfx6", "v_add_f32_e32 v0, v1, v2"),
    ("tahiti", "gfx6", "s_mov_b32 s0, 0x12345678"),
    ("bonaire", "gfx7", "v_mad_u32_u24 v1, v2, v3, v4"),
    ("bonaire", "gfx7", "flat_load_dword v1, v[2:3]"),
    ("fiji", "gfx8", "v_add_f32_e32 v0, v1, v2"),
    ("fiji", "gfx8", "v_mov_b32_dpp v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf"),
    ("fiji", "gfx8", "s_load_dwordx2 s[0:1], s[2:3], 0x8"),
    ("fiji", "gfx8", "ds_write_b32 v1, v2 offset:16"),
]


def llvm_mc_bytes(llvm_mc, cpu, line):
    out = subprocess.run([llvm_mc, "-arch=amdgcn", f"-mcpu={cpu}", "-show-encoding"],
                         input=line + "\n", capture_output=True, text=True, check=True).stdout
    enc = re.search(r"encoding: \[([^\]]*)\]", out).group(1)
    return bytes(int(b, 16) for b in enc.split(","))


@pytest.mark.parametrize("cpu,arch,line", LINES)
def test_assemble_matches_llvm_mc(llvm_mc, cpu, arch, line):
    want = llvm_mc_bytes(llvm_mc, cpu, line)
    got = wavejit.assemble(line, arch)
    assert isinstance(got, bytes)
    assert got == want
    # The LLVM listing reassembles to the same bytes, and so does the CLRX one.
    for syntax in ("llvm", "clrx"):
        text = wavejit.disassemble(got, arch, syntax=syntax)
        assert len(text) == 1
        assert wavejit.assemble(text[0], arch) == want, (syntax, text)


def test_disassemble_program_and_labels():
    code = wavejit.assemble("l: s_add_u32 s0, s0, 1\ns_cbranch_scc0 l\ns_endpgm", "gfx8")
    clrx = wavejit.disassemble(code, "gfx8")
    llvm = wavejit.disassemble(code, "gfx8", syntax="llvm")
    assert len(clrx) == len(llvm) == 3
    # CLRX names the branch target with a label at its offset (0); LLVM prints the offset
    # in dwords relative to the next instruction, (0 - 8) / 4 = -2, with no label.
    assert clrx[0].startswith(".L0:") and ".L0" in clrx[1]
    assert llvm[1].startswith("s_cbranch_scc0 ") and ".L" not in llvm[1]
    assert llvm[2] == clrx[2] == "s_endpgm"
    assert wavejit.disassemble(bytearray(code), "gfx8") == clrx


def test_decode_error_has_offset():
    good = wavejit.assemble("s_nop 0\ns_nop 0", "gfx8")
    bad = good + b"\xff\xff\xff\xff"
    with pytest.raises(wavejit.DecodeError) as e:
        wavejit.disassemble(bad, "gfx8")
    assert e.value.offset == 8
    assert isinstance(e.value, wavejit.WavejitError)
    lines = wavejit.disassemble(bad, "gfx8", strict=False)
    assert lines[:2] == ["s_nop 0", "s_nop 0"] and lines[2].startswith(".long 0xffffffff")
    with pytest.raises(wavejit.DecodeError) as e:
        wavejit.disassemble(good + b"\x00\x00", "gfx8")
    assert e.value.offset == 8


def test_asm_error_has_line_and_column():
    with pytest.raises(wavejit.AsmError) as e:
        wavejit.assemble("s_nop 0\n  v_add_f32 v0, v1, bogus\n", "gfx8")
    assert e.value.line == 2
    assert e.value.col == 21  # where `bogus` starts
    assert e.value.msg
    with pytest.raises(wavejit.AsmError) as e:
        wavejit.assemble("v_add_f32 v0, v1, v2\nnot_an_instruction v0\n", "gfx6")
    assert e.value.line == 2 and e.value.col == 1


def test_vp1_round_trip():
    text = open(_vp1("s2v.s")).read()
    code = wavejit.assemble(text, "vp1")
    assert len(code) % 4 == 0 and code
    lines = wavejit.disassemble(code, "vp1")
    assert len(lines) == len(code) // 4
    assert wavejit.assemble("\n".join(lines), "vp1") == code


def test_bad_arch_and_syntax():
    with pytest.raises(ValueError):
        wavejit.assemble("s_nop 0", "gfx11")
    with pytest.raises(ValueError):
        wavejit.disassemble(b"\0\0\x80\xbf", "gfx8", syntax="intel")
    with pytest.raises(TypeError):
        wavejit.disassemble([1, 2, 3], "gfx8")


def _vp1(name):
    from conftest import ROOT
    return ROOT / "examples" / "vp1" / name
