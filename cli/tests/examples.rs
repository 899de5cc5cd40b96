//! The example kernels of `examples/`: each runs through the `wavejit run` command line and
//! through the library, and its final state must equal `NAME.expected.json` (written by
//! `examples/make_examples.py` from formulas, not from wavejit). On top of that, the main
//! results are recomputed here from the input state with independent Rust arithmetic
//! (`f32::mul_add` for a fused multiply-add, plain f32 operations for unfused ones, integer
//! formulas for the loops), so a stale expected file cannot hide a wrong answer.
//!
//! The whole-state comparison runs with every engine (`Engine::ALL`): the interpreter and
//! the JIT are both held to the same independent expectations.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use wavejit::isa::Arch;
use wavejit::statefile::StateFile;
use wavejit::{program_from_file, run_wave, Engine};

/// (example, the generations it runs on).
const EXAMPLES: &[(&str, &[&str])] = &[
    ("dpp_reduce", &["gfx8"]),
    ("sdwa_unpack", &["gfx8"]),
    ("vop3_mix", &["gfx8"]),
    ("interp_triangle", &["gfx6", "gfx7", "gfx8"]),
    ("exec_loop", &["gfx6", "gfx7", "gfx8"]),
];

fn dir() -> PathBuf {
    wavejit_testkit::root().join("examples")
}

fn read_json(p: &Path) -> Value {
    let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Run through the library with the interpreter.
fn run_lib(name: &str, arch: &str) -> Value {
    run_lib_with(name, arch, Engine::Interp)
}

/// Run through the library: the same steps as the command line.
fn run_lib_with(name: &str, arch: &str, engine: Engine) -> Value {
    let arch: Arch = arch.parse().unwrap();
    let Arch::Gcn(gen) = arch else {
        panic!("GCN only")
    };
    let prog = program_from_file(arch, &dir().join(format!("{name}.s"))).unwrap();
    let text = std::fs::read_to_string(dir().join(format!("{name}.state.json"))).unwrap();
    let sf = StateFile::parse(&text).unwrap();
    let start = sf.build(gen).unwrap();
    let mut end = sf.build(gen).unwrap();
    if let Err(e) = run_wave(engine, &prog, &mut end.wave, &mut end.lds, &end.mem, 10_000) {
        return Value::String(format!("{name} on {arch} with {engine}: {e}"));
    }
    serde_json::from_str(&sf.dump(&start, &end)).unwrap()
}

/// Run through `wavejit run`, writing the state to a file.
fn run_cli(name: &str, arch: &str, engine: Engine) -> Value {
    let out = std::env::temp_dir().join(format!(
        "wavejit-example-{name}-{arch}-{engine}-{}.json",
        std::process::id()
    ));
    let status = Command::new(env!("CARGO_BIN_EXE_wavejit"))
        .args(["run", "--arch", arch, "--engine", engine.name()])
        .arg(dir().join(format!("{name}.s")))
        .arg("--state")
        .arg(dir().join(format!("{name}.state.json")))
        .arg("--out")
        .arg(&out)
        .args(["--max-insts", "10000"])
        .status()
        .expect("run the wavejit binary");
    if !status.success() {
        return Value::String(format!(
            "{name} on {arch} with {engine}: wavejit run failed"
        ));
    }
    let v = read_json(&out);
    let _ = std::fs::remove_file(&out);
    v
}

/// Name every difference between two states (register, lane) for the failure message.
fn diff(got: &Value, want: &Value) -> Vec<String> {
    let mut d = Vec::new();
    let (Some(g), Some(w)) = (got.as_object(), want.as_object()) else {
        return vec![format!("{got}")];
    };
    for k in g.keys().chain(w.keys()) {
        if g.get(k) == w.get(k) || d.iter().any(|s: &String| s.starts_with(&format!("{k}:"))) {
            continue;
        }
        match (g.get(k), w.get(k)) {
            (Some(Value::Object(a)), Some(Value::Object(b))) => {
                for r in a.keys().chain(b.keys()) {
                    if a.get(r) != b.get(r) {
                        let lanes: Vec<String> = match (a.get(r), b.get(r)) {
                            (Some(Value::Array(x)), Some(Value::Array(y))) => x
                                .iter()
                                .zip(y)
                                .enumerate()
                                .filter(|(_, (p, q))| p != q)
                                .take(4)
                                .map(|(i, (p, q))| format!("[{i}] {p} != {q}"))
                                .collect(),
                            (x, y) => vec![format!("{x:?} != {y:?}")],
                        };
                        d.push(format!("{k}: {r}: {}", lanes.join(", ")));
                    }
                }
            }
            (x, y) => d.push(format!("{k}: got {x:?}, want {y:?}")),
        }
    }
    d
}

#[test]
fn examples_match_their_expected_states() {
    let mut failures = Vec::new();
    for (name, arches) in EXAMPLES {
        let want = read_json(&dir().join(format!("{name}.expected.json")));
        for arch in *arches {
            for &(_, engine) in Engine::ALL {
                let runs = [
                    ("cli", run_cli(name, arch, engine)),
                    ("lib", run_lib_with(name, arch, engine)),
                ];
                for (how, got) in runs {
                    if got != want {
                        failures.push(format!(
                            "{name} {arch} {engine} ({how}): {}",
                            diff(&got, &want).join("; ")
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

fn lanes(v: &Value, reg: &str) -> Vec<u32> {
    v["vgpr"][reg]
        .as_array()
        .unwrap_or_else(|| panic!("v{reg} missing"))
        .iter()
        .map(|x| x.as_u64().unwrap() as u32)
        .collect()
}

fn input(name: &str) -> Value {
    read_json(&dir().join(format!("{name}.state.json")))
}

fn exec_of(state: &Value) -> u64 {
    state.get("exec").map_or(u64::MAX, |e| e.as_u64().unwrap())
}

#[test]
fn dpp_reduce_is_a_prefix_sum() {
    let v0: Vec<f32> = lanes(&input("dpp_reduce"), "0")
        .into_iter()
        .map(f32::from_bits)
        .collect();
    let out = run_lib("dpp_reduce", "gfx8");
    let v1: Vec<f32> = lanes(&out, "1").into_iter().map(f32::from_bits).collect();
    let mut acc = 0.0f32;
    for l in 0..64 {
        acc += v0[l];
        assert_eq!(v1[l], acc, "lane {l}");
    }
    assert_eq!(
        out["sgpr"]["0"].as_u64(),
        Some(acc.to_bits() as u64),
        "s0 = the total"
    );
}

#[test]
fn sdwa_unpack_extracts_and_swaps_bytes() {
    let inp = input("sdwa_unpack");
    let exec = exec_of(&inp);
    let v0 = lanes(&inp, "0");
    let out = run_lib("sdwa_unpack", "gfx8");
    let r: Vec<Vec<u32>> = (1..=8).map(|i| lanes(&out, &i.to_string())).collect();
    for l in (0..64).filter(|l| exec >> l & 1 == 1) {
        let x = v0[l];
        let bytes = x.to_le_bytes();
        for i in 0..4 {
            assert_eq!(r[i][l], bytes[i] as u32, "lane {l} byte {i}");
        }
        assert_eq!(r[4][l], bytes[3] as i8 as i32 as u32, "lane {l} sext");
        assert_eq!(r[5][l], ((x >> 16) as f32).to_bits(), "lane {l} cvt");
        assert_eq!(r[6][l], x.swap_bytes(), "lane {l} bswap");
        assert_eq!(
            r[7][l],
            ((x >> 16) ^ (x & 0xff)) as u16 as i16 as i32 as u32,
            "lane {l} xor"
        );
    }
    // The inactive lane was not written.
    assert_eq!(r[6][3], 0);
}

#[test]
fn vop3_mix_fused_and_unfused() {
    let inp = input("vop3_mix");
    let f = |r: &str| -> Vec<f32> { lanes(&inp, r).into_iter().map(f32::from_bits).collect() };
    let (a, b, c) = (f("0"), f("1"), f("2"));
    let (v6, v8, v9) = (lanes(&inp, "6"), lanes(&inp, "8"), lanes(&inp, "9"));
    let out = run_lib("vop3_mix", "gfx8");
    let g = |r: &str| lanes(&out, r);
    let mut differ = 0;
    for l in 0..64 {
        // Fused: one rounding (Rust's mul_add); unfused: f32 multiply then f32 add.
        assert_eq!(
            g("3")[l],
            a[l].mul_add(b[l], c[l]).to_bits(),
            "fma lane {l}"
        );
        assert_eq!(g("4")[l], (a[l] * b[l] + c[l]).to_bits(), "mad lane {l}");
        differ += (g("3")[l] != g("4")[l]) as u32;
        assert_eq!(g("5")[l], (v6[l] >> 8) & 0xfff, "bfe_u32 lane {l}");
        let mut m = [v6[l] as i32, v8[l] as i32, v9[l] as i32];
        m.sort();
        assert_eq!(g("10")[l], m[1] as u32, "med3_i32 lane {l}");
        assert_eq!(
            g("12")[l],
            (v6[l] & 0xff_ffff).wrapping_mul(v8[l]).wrapping_add(v9[l]),
            "mad_u24 lane {l}"
        );
        assert_eq!(
            g("13")[l],
            ((-a[l]).mul_add(b[l].abs(), c[l]) * 2.0).to_bits(),
            "fma ×2 lane {l}"
        );
        assert_eq!(g("14")[l], v6[l].max(v8[l]).max(v9[l]), "max3 lane {l}");
    }
    assert!(
        differ > 0,
        "the inputs were chosen so that fused and unfused results differ"
    );
}

#[test]
fn exec_loop_sums_per_lane() {
    let inp = input("exec_loop");
    let exec = exec_of(&inp);
    let n = lanes(&inp, "0");
    for arch in ["gfx6", "gfx7", "gfx8"] {
        let out = run_lib("exec_loop", arch);
        let (v1, v2, v3) = (lanes(&out, "1"), lanes(&out, "2"), lanes(&out, "3"));
        let mut most = 0;
        for l in 0..64 {
            if exec >> l & 1 == 0 {
                assert_eq!((v1[l], v2[l], v3[l]), (0, 0, 0), "{arch} inactive lane {l}");
                continue;
            }
            let acc: u32 = (0..n[l]).sum();
            assert_eq!(v1[l], acc, "{arch} lane {l}");
            assert_eq!(v2[l], n[l], "{arch} lane {l}");
            assert_eq!(v3[l], if n[l] > 2 { 3 * acc } else { 0 }, "{arch} lane {l}");
            most = most.max(n[l]);
        }
        assert_eq!(
            out["sgpr"]["4"].as_u64(),
            Some(most as u64),
            "{arch}: iterations"
        );
        assert_eq!(out["exec"].as_u64(), Some(exec), "{arch}: EXEC restored");
    }
}

#[test]
fn interp_triangle_interpolates() {
    let inp = input("interp_triangle");
    let lds: Vec<f32> = inp["lds"]["16"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| f32::from_bits(x.as_u64().unwrap() as u32))
        .collect();
    let i = lanes(&inp, "0");
    let j = lanes(&inp, "1");
    // M0 = 0x80010: NEWPRIMMASK 0b1000 → 2 primitives; quads 0-3 primitive 0, the rest 1.
    let numprim = 2;
    let prim = |lane: usize| (lane >> 2 >= 4) as usize;
    let s = |attr: usize, lane: usize| 12 * (attr * numprim + prim(lane));
    for arch in ["gfx6", "gfx7", "gfx8"] {
        let out = run_lib("interp_triangle", arch);
        for l in 0..64 {
            let (fi, fj) = (f32::from_bits(i[l]), f32::from_bits(j[l]));
            let at = |attr, chan: usize| {
                let b = s(attr, l);
                lds[b + 2 * chan] + fi * lds[b + 2 * chan + 1] + fj * lds[b + 8 + chan]
            };
            assert_eq!(
                lanes(&out, "2")[l],
                at(0, 0).to_bits(),
                "{arch} lane {l} attr0.x"
            );
            assert_eq!(
                lanes(&out, "3")[l],
                at(0, 1).to_bits(),
                "{arch} lane {l} attr0.y"
            );
            assert_eq!(
                lanes(&out, "4")[l],
                at(1, 3).to_bits(),
                "{arch} lane {l} attr1.w"
            );
            assert_eq!(
                lanes(&out, "5")[l],
                lds[s(1, l) + 4].to_bits(),
                "{arch} lane {l} p0 attr1.z"
            );
            assert_eq!(
                lanes(&out, "6")[l],
                lds[s(0, l) + 8].to_bits(),
                "{arch} lane {l} p20 attr0.x"
            );
            assert_eq!(
                lanes(&out, "7")[l],
                lds[s(1, l) + 3].to_bits(),
                "{arch} lane {l} p10 attr1.y"
            );
        }
    }
}

#[test]
fn cli_reports_errors_with_the_pc() {
    // The loop example with a budget too small: an error naming the budget and a pc.
    let out = Command::new(env!("CARGO_BIN_EXE_wavejit"))
        .args([
            "run",
            "--arch",
            "gfx8",
            "--engine",
            "interp",
            "--max-insts",
            "20",
        ])
        .arg(dir().join("exec_loop.s"))
        .arg("--state")
        .arg(dir().join("exec_loop.state.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("instruction limit of 20") && err.contains("pc 0x"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "no state is printed after an error");
}
