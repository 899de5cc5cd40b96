"""wavejit.run: the examples of examples/ (GCN) and examples/vp1 reach their expected
states (worked out by hand in the sources) on every engine; ExecError and StateError
carry their positions."""

import json
import os
import signal
import threading

import pytest

import wavejit
from conftest import ENGINES, ROOT

GCN = [
    ("dpp_reduce", ["gfx8"]),
    ("sdwa_unpack", ["gfx8"]),
    ("vop3_mix", ["gfx8"]),
    ("interp_triangle", ["gfx6", "gfx7", "gfx8"]),
    ("exec_loop", ["gfx6", "gfx7", "gfx8"]),
]


def load(path):
    return json.loads(path.read_text())


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name,arches", GCN)
def test_gcn_examples(name, arches, engine):
    d = ROOT / "examples"
    text = (d / f"{name}.s").read_text()
    state = load(d / f"{name}.state.json")
    want = load(d / f"{name}.expected.json")
    for arch in arches:
        assert wavejit.run(text, arch, state, engine=engine) == want, arch
        # The same from machine code and from JSON text.
        code = wavejit.assemble(text, arch)
        assert wavejit.run(code, arch, json.dumps(state), engine=engine) == want, arch


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", ["flags", "pixels", "s2v"])
def test_vp1_examples(name, engine):
    d = ROOT / "examples" / "vp1"
    got = wavejit.run((d / f"{name}.s").read_text(), "vp1", load(d / f"{name}.state.json"),
                      engine=engine)
    assert got == load(d / f"{name}.expected.json")


def test_default_state():
    # No state: EXEC all ones, MODE 0xC0, everything else 0. 3 + 4 = 7 in every lane.
    out = wavejit.run("v_mov_b32 v1, 3\nv_add_u32 v0, vcc, 4, v1\ns_endpgm", "gfx8")
    assert out["exec"] == 2**64 - 1
    assert out["vgpr"]["0"] == [7] * 64


@pytest.mark.parametrize("engine", ENGINES)
def test_fault_has_pc_lane_address(engine):
    # Only lane 5 is active; its address v[2:3] = 0x1000 is not mapped. The load is the
    # second instruction, at byte 4.
    prog = "v_mov_b32 v0, 0\nflat_load_dword v1, v[2:3]\ns_waitcnt 0\ns_endpgm"
    state = {"exec": 1 << 5, "vgpr": {"2": 0x1000, "3": 0}}
    with pytest.raises(wavejit.ExecError) as e:
        wavejit.run(prog, "gfx8", state, engine=engine)
    x = e.value
    assert (x.kind, x.pc, x.lane, x.address, x.size) == ("out_of_bounds", 4, 5, 0x1000, 4)
    assert x.space == "global"
    assert x.instruction == "flat_load_dword v1, v[2:3]"
    assert "0x1000" in str(x)


@pytest.mark.parametrize("engine", ENGINES)
def test_instruction_limit(engine):
    with pytest.raises(wavejit.ExecError) as e:
        wavejit.run("s_nop 0\nl: s_branch l\ns_endpgm", "gfx8", engine=engine, max_insts=1000)
    assert e.value.kind == "inst_limit"
    assert e.value.pc == 4
    # The branch to itself (offset -1 dwords), as the disassembler prints it.
    assert e.value.instruction == wavejit.disassemble(b"\xff\xff\x82\xbf", "gfx8", "llvm")[0]
    assert e.value.instruction.startswith("s_branch ")
    assert e.value.lane is None and e.value.address is None


def test_running_off_the_code():
    with pytest.raises(wavejit.ExecError) as e:
        wavejit.run("s_nop 0", "gfx8", engine="interp")
    assert e.value.kind == "pc_out_of_code"


def test_undecodable_code():
    with pytest.raises(wavejit.ExecError) as e:
        wavejit.run(b"\x00\x00\x80\xbf" + b"\xff\xff\xff\xff", "gfx8", engine="interp")
    assert e.value.kind == "decode" and e.value.pc == 4


def test_state_errors():
    with pytest.raises(wavejit.StateError) as e:
        wavejit.run("s_endpgm", "gfx8", {"vgpr": {"300": 1}})
    assert "vgpr" in e.value.at
    with pytest.raises(wavejit.StateError):
        wavejit.run("s_endpgm", "gfx8", "{not json")
    with pytest.raises(wavejit.StateError):
        wavejit.run("s_endpgm", "gfx8", {"exec": "all"})
    with pytest.raises(ValueError):
        wavejit.run("s_endpgm", "gfx8", engine="gpu")
    with pytest.raises(wavejit.AsmError):
        wavejit.run("s_endpgm bogus", "gfx8")


def test_ctrl_c_interrupts_a_run():
    # 5e7 instructions of the interpreter take seconds; the signal comes after 0.2 s. The
    # abandoned run finishes its budget in the background.
    timer = threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        wavejit.run("l: s_add_u32 s0, s0, 1\ns_branch l\ns_endpgm", "gfx8", engine="interp",
                    max_insts=50_000_000)
    timer.join()
    assert wavejit.run("s_endpgm", "gfx8")["exec"] == 2**64 - 1
