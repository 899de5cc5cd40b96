#!/usr/bin/env python3
"""Plot the results of `wavejit bench --json FILE` (default: docs/bench/results.json):
wave-instructions per second of each engine per kernel, and thread scaling. Draws with
matplotlib when it is installed (pip install matplotlib); prints the table either way.

    python python/examples/plot_bench.py [results.json] [-o bench.png]
"""

import argparse
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
ENGINES = [("interp_ips", "interpreter"), ("tiered_ips", "tiered"), ("jit_cold_ips", "JIT (cold)"),
           ("jit_ips", "JIT (warm)"), ("native_ips", "native Rust")]


def table(r: dict) -> None:
    print(f"{'kernel':<12}" + "".join(f"{label:>14}" for _, label in ENGINES) + "   (M wave-insts/s)")
    for k in r["kernels"]:
        cells = [k.get(key) for key, _ in ENGINES]
        print(f"{k['name']:<12}" + "".join(f"{c / 1e6:>14.2f}" if c else f"{'-':>14}" for c in cells))
    s = r.get("scaling")
    if s:
        pts = ", ".join(f"{p['threads']}: {p['ips'] / 1e6:.1f}" for p in s["points"])
        print(f"scaling ({s['kernel']}): {pts} M wave-insts/s; speedup {s['speedup']:.2f}")


def plot(r: dict, out: pathlib.Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    kernels = r["kernels"]
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(13, 4.5), gridspec_kw={"width_ratios": [3, 1]})
    width = 0.8 / len(ENGINES)
    for i, (key, label) in enumerate(ENGINES):
        xs = [j + i * width for j in range(len(kernels))]
        ys = [k.get(key) or 0 for k in kernels]
        ax.bar(xs, ys, width, label=label)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(kernels))], [k["name"] for k in kernels])
    ax.set_yscale("log")
    ax.set_ylabel("wave-instructions per second")
    ax.set_title("wavejit engines per kernel")
    ax.legend(fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=len(ENGINES))
    s = r.get("scaling")
    if s:
        t = [p["threads"] for p in s["points"]]
        ax2.plot(t, [p["ips"] for p in s["points"]], "o-")
        ax2.set_xlabel("host threads")
        ax2.set_title(f"scaling ({s['kernel']})")
        ax2.set_xticks(t)
    fig.tight_layout()
    fig.savefig(out, dpi=120, bbox_inches="tight")
    print(f"wrote {out}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("results", nargs="?", default=ROOT / "docs" / "bench" / "results.json", type=pathlib.Path)
    p.add_argument("-o", "--output", default="bench.png", type=pathlib.Path)
    a = p.parse_args()
    r = json.loads(a.results.read_text())
    table(r)
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("matplotlib is not installed: no plot (pip install matplotlib)", file=sys.stderr)
        return
    plot(r, a.output)


if __name__ == "__main__":
    main()
