#!/usr/bin/env python3
"""Writes the input state (NAME.state.json) and the expected final state
(NAME.expected.json) of each example kernel in this directory.

The expected values come from the formulas below, written from the specification
documents (shared/spec) and the errata -- not from running wavejit. Each kernel's
formula is the mathematical meaning of its program: a prefix sum, byte extraction, a
fused vs unfused multiply-add, a barycentric interpolation, a per-lane loop sum.

Run: python3 examples/make_examples.py   (standard library only)
"""

import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
LANES = 64
ALL = (1 << 64) - 1
MODE_DEFAULT = 0xC0


def f32(x):
    """Bits of the f32 nearest to the float x (round to nearest even)."""
    return struct.unpack("<I", struct.pack("<f", x))[0]


def fl(bits):
    return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]


def lcg(seed):
    """A fixed pseudo-random sequence of 32-bit values (deterministic inputs)."""
    x = seed
    while True:
        x = (x * 6364136223846793005 + 1442695040888963407) & ALL
        yield x >> 32


def sext(v, bits):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def u32(v):
    return v & 0xFFFFFFFF


class Kernel:
    """A kernel's input state and the final values of everything it writes."""

    def __init__(self, exec_mask=ALL):
        self.exec = exec_mask
        self.sgpr_in = {}
        self.vgpr_in = {}
        self.lds_in = {}
        self.sgpr = {}
        self.vgpr = {}
        self.vcc = 0
        self.scc = 0
        self.m0 = 0
        self.exec_out = exec_mask

    def active(self, lane):
        return (self.exec >> lane) & 1

    def vin(self, r):
        return self.vgpr_in.get(r, [0] * LANES)

    def write_v(self, r, f):
        """v[r] = f(lane) for active lanes; inactive lanes keep their value."""
        old = self.vgpr.get(r, self.vin(r))
        self.vgpr[r] = [u32(f(l)) if self.active(l) else old[l] for l in range(LANES)]

    def state(self):
        s = {}
        if self.exec != ALL:
            s["exec"] = self.exec
        if self.sgpr_in:
            s["sgpr"] = {str(k): v for k, v in sorted(self.sgpr_in.items())}
        if self.vgpr_in:
            s["vgpr"] = {str(k): v for k, v in sorted(self.vgpr_in.items())}
        if self.lds_in:
            s["lds"] = {str(k): v for k, v in sorted(self.lds_in.items())}
        return s

    def expected(self):
        sg = dict(self.sgpr_in)
        for k, v in self.sgpr.items():
            if k in self.sgpr_in or v != 0:
                sg[k] = v
        vg = dict(self.vgpr_in)
        for k, v in self.vgpr.items():
            if k in self.vgpr_in or v != self.vin(k):
                vg[k] = v
        return {
            "exec": self.exec_out,
            "vcc": self.vcc,
            "scc": self.scc,
            "m0": self.m0,
            "mode": MODE_DEFAULT,
            "sgpr": {str(k): v for k, v in sorted(sg.items())},
            "vgpr": {str(k): v for k, v in sorted(vg.items())},
            "lds": {str(k): v for k, v in sorted(self.lds_in.items())},
            "memory": [],
        }


def dpp_reduce():
    k = Kernel()
    vals = [float((l * 37) % 101 + 1) for l in range(LANES)]
    k.vgpr_in[0] = [f32(v) for v in vals]
    # Inclusive prefix sum over the wave; every partial sum is an integer below 2^24, so
    # the f32 additions are exact.
    prefix, acc = [], 0.0
    for v in vals:
        acc += v
        prefix.append(f32(acc))
    k.vgpr[1] = prefix
    k.sgpr[0] = prefix[63]
    return k


def sdwa_unpack():
    # Lane 3 inactive: its registers keep their values.
    k = Kernel(exec_mask=ALL & ~(1 << 3))
    g = lcg(11)
    v0 = [next(g) for _ in range(LANES)]
    v0[0], v0[1], v0[2] = 0x80FF7F01, 0x00000000, 0xFFFFFFFF
    k.vgpr_in[0] = v0
    b = lambda l, i: (v0[l] >> (8 * i)) & 0xFF
    w1 = lambda l: v0[l] >> 16
    k.write_v(1, lambda l: b(l, 0))
    k.write_v(2, lambda l: b(l, 1))
    k.write_v(3, lambda l: b(l, 2))
    k.write_v(4, lambda l: b(l, 3))
    k.write_v(5, lambda l: sext(b(l, 3), 8))
    k.write_v(6, lambda l: f32(float(w1(l))))
    k.write_v(7, lambda l: b(l, 3) | b(l, 2) << 8 | b(l, 1) << 16 | b(l, 0) << 24)
    k.write_v(8, lambda l: sext((w1(l) ^ b(l, 0)) & 0xFFFF, 16))
    # 2·w1 is exact in f32; the low 16 bits of its pattern go to bits 16-31 (ERRATA SDWA 11).
    k.write_v(9, lambda l: (f32(2.0 * w1(l)) & 0xFFFF) << 16)
    return k


def vop3_mix():
    k = Kernel()
    g = lcg(5)
    # a = 1 + i·2^-12, b = 1 + j·2^-12, c = -(1 + m·2^-11): a·b needs 25 significant bits,
    # so the unfused product is rounded while the fused result is exact before the one
    # rounding. All values are exact in f64, so Python's arithmetic is exact here.
    a = [1.0 + (l % 8 + 1) * 2.0**-12 for l in range(LANES)]
    b = [1.0 + (l // 8 + 1) * 2.0**-12 for l in range(LANES)]
    c = [-(1.0 + (l % 3) * 2.0**-11) for l in range(LANES)]
    k.vgpr_in[0] = [f32(x) for x in a]
    k.vgpr_in[1] = [f32(x) for x in b]
    k.vgpr_in[2] = [f32(x) for x in c]
    v6 = [next(g) for _ in range(LANES)]
    v8 = [(l * 5) % 40 for l in range(LANES)]
    v9 = [(l * 7) % 40 for l in range(LANES)]
    v6[0] = 0x80000000
    k.vgpr_in[6], k.vgpr_in[8], k.vgpr_in[9] = v6, v8, v9

    k.write_v(3, lambda l: f32(a[l] * b[l] + c[l]))  # exact in f64, rounded once
    k.write_v(4, lambda l: f32(fl(f32(a[l] * b[l])) + c[l]))
    k.write_v(5, lambda l: (v6[l] >> 8) & 0xFFF)

    def bfe_i32(x, off, width):
        # 003: V_BFE_I32 (ERRATA VOP3 5: width 0 gives 0).
        off, width = off & 31, width & 31
        if width == 0:
            return 0
        if off + width < 32:
            return sext(x >> off, width)
        return sext(x, 32) >> off

    k.write_v(7, lambda l: bfe_i32(v6[l], v8[l], v9[l]))
    k.write_v(10, lambda l: sorted([sext(v6[l], 32), v8[l], v9[l]])[1])
    k.write_v(11, lambda l: f32(sorted([a[l], b[l], c[l]])[1]))
    k.write_v(12, lambda l: (v6[l] & 0xFFFFFF) * (v8[l] & 0xFFFFFF) + v9[l])
    # -a · |b| + c, exact in f64 and rounded once, then ×2 (exact).
    k.write_v(13, lambda l: f32(2.0 * fl(f32(-a[l] * b[l] + c[l]))))
    k.write_v(14, lambda l: max(v6[l], v8[l], v9[l]))
    return k


def interp_triangle():
    k = Kernel()
    k.m0 = 0x00080010
    base = 16  # M0[15:0]
    newprimmask = 0x8  # M0[30:16]: bit 3 starts a primitive at quad 4
    numprim = bin(newprimmask).count("1") + 1  # ERRATA VINTRP 2
    primid = lambda q: bin(newprimmask & ((1 << q) - 1)).count("1")
    # Vertex attributes (x, y, z, w) of the three vertices of each primitive, per attribute.
    verts = {
        (0, 0): [(1, 2, 3, 4), (9, -6, 3, 0), (-3, 10, 7, 8)],
        (0, 1): [(0, 0, 0, 1), (16, 8, 4, 2), (-8, 24, 2, 5)],
        (1, 0): [(5, 5, 5, 5), (1, 9, -1, 13), (21, -3, 9, 1)],
        (1, 1): [(-2, 4, -6, 8), (6, 0, 2, -4), (0, 12, -6, 20)],
    }
    lds = [0] * (12 * 2 * numprim)
    params = {}
    for (attr, prim), (p0v, p1v, p2v) in verts.items():
        s = 12 * (attr * numprim + prim)
        p0 = list(p0v)
        p10 = [p1v[c] - p0v[c] for c in range(4)]
        p20 = [p2v[c] - p0v[c] for c in range(4)]
        params[(attr, prim)] = (p0, p10, p20)
        for c in range(4):
            lds[s + 2 * c] = f32(p0[c])
            lds[s + 2 * c + 1] = f32(p10[c])
            lds[s + 8 + c] = f32(p20[c])
    k.lds_in[base] = lds
    # I and J: multiples of 1/8, so every product and sum is exact in f32.
    I = [(l % 8) / 8.0 for l in range(LANES)]
    J = [((l // 8) % 8) / 8.0 for l in range(LANES)]
    k.vgpr_in[0] = [f32(x) for x in I]
    k.vgpr_in[1] = [f32(x) for x in J]
    par = lambda l, attr: params[(attr, primid(l >> 2))]

    def interp(l, attr, chan):
        p0, p10, p20 = par(l, attr)
        return f32(p0[chan] + I[l] * p10[chan] + J[l] * p20[chan])

    k.write_v(2, lambda l: interp(l, 0, 0))
    k.write_v(3, lambda l: interp(l, 0, 1))
    k.write_v(4, lambda l: interp(l, 1, 3))
    k.write_v(5, lambda l: f32(par(l, 1)[0][2]))
    k.write_v(6, lambda l: f32(par(l, 0)[2][0]))
    k.write_v(7, lambda l: f32(par(l, 1)[1][1]))
    return k


def exec_loop():
    # Lanes 60-63 never run.
    k = Kernel(exec_mask=(1 << 60) - 1)
    n = [(l * 5) % 9 for l in range(LANES)]
    k.vgpr_in[0] = n
    k.write_v(1, lambda l: n[l] * (n[l] - 1) // 2)
    k.write_v(2, lambda l: n[l])
    # The body runs as long as any active lane has i < n.
    k.sgpr[4] = max(n[l] for l in range(LANES) if k.active(l))
    k.sgpr[0], k.sgpr[1] = k.exec & 0xFFFFFFFF, k.exec >> 32
    k.sgpr[2], k.sgpr[3] = k.exec & 0xFFFFFFFF, k.exec >> 32
    big = sum(1 << l for l in range(LANES) if k.active(l) and n[l] > 2)
    k.write_v(3, lambda l: 3 * (n[l] * (n[l] - 1) // 2) if n[l] > 2 else 0)
    k.vcc = big  # the last compare; inactive lanes read 0
    k.scc = 1  # s_or_b64: EXEC != 0
    return k


EXAMPLES = {
    "dpp_reduce": dpp_reduce,
    "sdwa_unpack": sdwa_unpack,
    "vop3_mix": vop3_mix,
    "interp_triangle": interp_triangle,
    "exec_loop": exec_loop,
}


def dump(obj):
    """JSON with one register or region per line."""
    lines = ["{"]
    items = list(obj.items())
    for i, (key, val) in enumerate(items):
        comma = "," if i + 1 < len(items) else ""
        if isinstance(val, dict) and val:
            lines.append(f'  "{key}": {{')
            sub = list(val.items())
            for j, (k2, v2) in enumerate(sub):
                c2 = "," if j + 1 < len(sub) else ""
                lines.append(f'    "{k2}": {json.dumps(v2)}{c2}')
            lines.append(f"  }}{comma}")
        else:
            lines.append(f'  "{key}": {json.dumps(val)}{comma}')
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    for name, make in EXAMPLES.items():
        k = make()
        with open(os.path.join(HERE, f"{name}.state.json"), "w") as f:
            f.write(dump(k.state()))
        with open(os.path.join(HERE, f"{name}.expected.json"), "w") as f:
            f.write(dump(k.expected()))


if __name__ == "__main__":
    main()
