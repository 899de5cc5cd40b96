//! Hostile input never panics: random bytes as programs on every generation, random and
//! absurd state files, through the library and the `wavejit run` command line. Every case
//! must end in `Ok` or a typed error; a panic is reported with the input that caused it.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::process::Command;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use wavejit::isa::ir::Program;
use wavejit::isa::state::{MemFault, Space};
use wavejit::isa::{Arch, Gen};
use wavejit::statefile::StateFile;
use wavejit::{run_wave, Engine};

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// A state with memory, LDS contents and registers pointing into the memory, so that
/// random memory instructions sometimes hit mapped bytes and sometimes fault.
const STATE: &str = r#"{
  "sgpr": {"0": "0x1000", "1": 0, "2": 4096, "3": 0, "4": "0x1000", "5": 0, "6": 256, "7": "0x27000"},
  "vgpr": {"0": "lane", "1": "0x1000", "2": 0, "3": 7},
  "lds": {"0": [1, 2, 3, 4]},
  "memory": [{"addr": 4096, "dwords": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]}]
}"#;

/// Random words biased towards real encodings: the top bits are those of an encoding's tag.
fn random_program(rng: &mut StdRng) -> Vec<u8> {
    const TAGS: &[u32] = &[
        0x8000_0000,
        0xB000_0000,
        0xBE80_0000,
        0xBF00_0000,
        0xBF80_0000,
        0xC000_0000,
        0xC200_0000,
        0x7E00_0000,
        0x7C00_0000,
        0x0000_0000,
        0xD000_0000,
        0xD400_0000,
        0xC800_0000,
        0xD800_0000,
        0xE000_0000,
        0xDC00_0000,
        0xD200_0000,
    ];
    let n = rng.random_range(0..24);
    let mut words = Vec::with_capacity(n + 1);
    for _ in 0..n {
        let w: u32 = rng.random();
        let w = match rng.random_range(0..4) {
            0 => w,
            _ => {
                let tag = TAGS[rng.random_range(0..TAGS.len())];
                let keep = if tag >> 24 == 0xBF {
                    0x00ff_ffff
                } else {
                    0x03ff_ffff
                };
                tag | (w & keep)
            }
        };
        words.push(w);
    }
    if rng.random_bool(0.7) {
        words.push(0xBF81_0000); // s_endpgm
    }
    let mut bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    // Sometimes a ragged tail.
    if rng.random_bool(0.1) {
        bytes.truncate(bytes.len().saturating_sub(rng.random_range(1..4)));
    }
    bytes
}

#[test]
fn random_programs_end_in_results_or_errors() {
    let sf = StateFile::parse(STATE).unwrap();
    let mut rng = StdRng::seed_from_u64(0x5eed_c0de);
    let mut outcomes = [0usize; 2];
    for i in 0..3000 {
        let gen = Gen::ALL[i % 3];
        let code = random_program(&mut rng);
        let r = catch_unwind(AssertUnwindSafe(|| {
            let prog = Program::new(Arch::Gcn(gen), &code);
            let mut m = sf.build(gen).unwrap();
            run_wave(Engine::Interp, &prog, &mut m.wave, &mut m.lds, &m.mem, 500).is_ok()
        }));
        match r {
            Ok(ok) => outcomes[ok as usize] += 1,
            Err(_) => panic!("{gen}: program {} panicked", hex(&code)),
        }
    }
    // Both kinds of outcome happen: the generator reaches real execution.
    assert!(
        outcomes[0] > 100 && outcomes[1] > 100,
        "errors/oks: {outcomes:?}"
    );
}

#[test]
fn random_bytes_are_programs_too() {
    let sf = StateFile::parse(STATE).unwrap();
    let mut rng = StdRng::seed_from_u64(7);
    for i in 0..2000 {
        let gen = Gen::ALL[i % 3];
        let len = rng.random_range(0..64);
        let code: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        let r = catch_unwind(AssertUnwindSafe(|| {
            let prog = Program::new(Arch::Gcn(gen), &code);
            let mut m = sf.build(gen).unwrap();
            let _ = run_wave(Engine::Interp, &prog, &mut m.wave, &mut m.lds, &m.mem, 200);
        }));
        assert!(r.is_ok(), "{gen}: bytes {} panicked", hex(&code));
    }
}

/// A random JSON value of small depth, with the kinds of values that break parsers.
fn random_value(rng: &mut StdRng, depth: u32) -> String {
    let pick = rng.random_range(0..if depth > 2 { 7 } else { 9 });
    match pick {
        0 => "null".into(),
        1 => "true".into(),
        2 => [
            "0",
            "-1",
            "1e30",
            "-9223372036854775809",
            "18446744073709551616",
            "3.5",
            "4294967296",
            "255",
        ][rng.random_range(0..8)]
        .into(),
        3 => rng.random::<u64>().to_string(),
        4 => format!(
            "\"{}\"",
            [
                "0x",
                "0xfffffffffffffffff",
                "lane",
                "-0x10",
                "12a",
                "",
                "0x1000"
            ][rng.random_range(0..7)]
        ),
        5 => (rng.random::<u32>() as i64 - (1 << 31)).to_string(),
        6 => "\"\\ud800\"".into(),
        7 => {
            let n = rng.random_range(0..70);
            let items: Vec<String> = (0..n).map(|_| random_value(rng, depth + 1)).collect();
            format!("[{}]", items.join(","))
        }
        _ => {
            let n = rng.random_range(0..4);
            let items: Vec<String> = (0..n)
                .map(|_| {
                    let k = [
                        "0", "1", "106", "255", "256", "65532", "addr", "dwords", "x", "-1", "4096",
                    ][rng.random_range(0..11)];
                    format!("\"{k}\": {}", random_value(rng, depth + 1))
                })
                .collect();
            format!("{{{}}}", items.join(","))
        }
    }
}

fn random_state(rng: &mut StdRng) -> String {
    const KEYS: &[&str] = &[
        "exec", "vcc", "scc", "m0", "mode", "sgpr", "vgpr", "lds", "memory", "pc",
    ];
    let n = rng.random_range(0..5);
    let items: Vec<String> = (0..n)
        .map(|_| {
            let k = KEYS[rng.random_range(0..KEYS.len())];
            let v = match (k, rng.random_range(0..3)) {
                ("memory", 0) => {
                    let addr = ["0", "4096", "18446744073709551612", "\"0xfffffffffffff000\"", "2", "4100"][rng.random_range(0..6)];
                    let len = rng.random_range(0..40);
                    format!("[{{\"addr\": {addr}, \"dwords\": [{}]}}, {{\"addr\": 4096, \"dwords\": [1]}}]", vec!["1"; len].join(","))
                }
                ("vgpr", 0) => format!("{{\"{}\": {}}}", rng.random_range(0..300), random_value(rng, 1)),
                ("lds", 0) => format!("{{\"{}\": [{}]}}", rng.random_range(0..70000) & !3, vec!["7"; rng.random_range(0..20)].join(",")),
                _ => random_value(rng, 0),
            };
            format!("\"{k}\": {v}")
        })
        .collect();
    format!("{{{}}}", items.join(", "))
}

#[test]
fn random_state_files_parse_or_are_refused() {
    let mut rng = StdRng::seed_from_u64(42);
    let mut accepted = 0;
    for _ in 0..4000 {
        let text = if rng.random_bool(0.1) {
            let n = rng.random_range(0..80);
            String::from_utf8_lossy(&(0..n).map(|_| rng.random::<u8>()).collect::<Vec<u8>>())
                .into_owned()
        } else {
            random_state(&mut rng)
        };
        let r = catch_unwind(|| match StateFile::parse(&text) {
            Ok(sf) => sf.build(Gen::Gfx8).is_ok(),
            Err(e) => {
                assert!(!e.at.is_empty() && !e.msg.is_empty());
                false
            }
        });
        match r {
            Ok(ok) => accepted += ok as usize,
            Err(_) => panic!("state file panicked: {text}"),
        }
    }
    assert!(accepted > 50, "some random files are valid ({accepted})");
}

#[test]
fn absurd_state_files_are_refused_quickly() {
    // A very long array is refused at the element past the limit.
    let long = format!(r#"{{"vgpr": {{"0": [{}]}}}}"#, vec!["1"; 200_000].join(","));
    assert_eq!(StateFile::parse(&long).unwrap_err().at, "vgpr.0");
    let long = format!(
        r#"{{"lds": {{"65532": [{}]}}}}"#,
        vec!["1"; 100_000].join(",")
    );
    assert_eq!(StateFile::parse(&long).unwrap_err().at, "lds.65532");
    // Memory at the top of the address space, overlapping regions, unaligned addresses,
    // numbers out of range, wrong shapes: each refused at the value at fault (the JSON
    // path, or the line and column where the JSON itself is broken).
    for (text, at) in [
        (
            r#"{"memory": [{"addr": "0xfffffffffffffffc", "dwords": [1, 2]}]}"#,
            "memory[0].addr",
        ),
        (
            r#"{"memory": [{"addr": 4096, "dwords": [1, 2]}, {"addr": 4100, "dwords": [1]}]}"#,
            "memory",
        ),
        (
            r#"{"memory": [{"addr": 4097, "dwords": [1]}]}"#,
            "memory[0].addr",
        ),
        (r#"{"exec": 1e300}"#, "exec"),
        (
            r#"{"sgpr": {"99999999999999999999": 1}}"#,
            "sgpr.99999999999999999999",
        ),
        (r#"{"vgpr": {"1": {"2": 3}}}"#, "vgpr.1"),
        ("", "line 1, column 0"),
        ("{", "line 1, column 1"),
        ("[]", "-"),
    ] {
        assert_eq!(StateFile::parse(text).unwrap_err().at, at, "{text}");
    }
    // High addresses are fine while the region's last byte is at most 2^64 - 1.
    let sf = StateFile::parse(r#"{"memory": [{"addr": "0xfffffffffffffff0", "dwords": [1, 2]}]}"#)
        .unwrap();
    let m = sf.build(Gen::Gfx7).unwrap();
    assert_eq!(m.mem.read_u32(0xffff_ffff_ffff_fff4).unwrap(), 2);
    // Ending exactly at 2^64: the last dword is readable, and nothing past it wraps.
    let sf = StateFile::parse(r#"{"memory": [{"addr": "0xfffffffffffffff8", "dwords": [1, 2]}]}"#)
        .unwrap();
    let m = sf.build(Gen::Gfx7).unwrap();
    assert_eq!(m.mem.read_u32(0xffff_ffff_ffff_fffc).unwrap(), 2);
    let fault = |addr, size| MemFault {
        space: Space::Global,
        addr,
        size,
    };
    assert_eq!(m.mem.read_u32(0), Err(fault(0, 4)));
    let mut b = [0u8; 8];
    assert_eq!(
        m.mem.read(0xffff_ffff_ffff_fffc, &mut b),
        Err(fault(0xffff_ffff_ffff_fffc, 8)),
        "a read past 2^64"
    );
    // One dword further wraps.
    assert_eq!(
        StateFile::parse(r#"{"memory": [{"addr": "0xfffffffffffffffc", "dwords": [1, 2]}]}"#)
            .unwrap_err()
            .at,
        "memory[0].addr"
    );
}

#[test]
fn cli_exits_with_an_error_not_a_panic() {
    let dir = std::env::temp_dir().join(format!("wavejit-bad-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let prog = dir.join("p.bin");
    std::fs::write(&prog, [0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x81, 0xbf]).unwrap();
    let good = dir.join("good.bin");
    std::fs::write(&good, 0xBF81_0000u32.to_le_bytes()).unwrap();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["--arch".into(), "gfx8".into(), prog.display().to_string()],
            "cannot decode",
        ),
        (
            vec!["--arch".into(), "gfx9".into(), good.display().to_string()],
            "unknown architecture",
        ),
        (
            vec![
                "--arch".into(),
                "gfx8".into(),
                "--engine".into(),
                "warp".into(),
                good.display().to_string(),
            ],
            "unknown engine",
        ),
        (
            vec![
                "--arch".into(),
                "gfx8".into(),
                dir.join("missing.bin").display().to_string(),
            ],
            "missing.bin",
        ),
    ];
    let mut states = vec![
        r#"{"vgpr": {"0": [1]}}"#.to_string(),
        "not json".into(),
        r#"{"memory": 5}"#.into(),
    ];
    states.push(format!(
        r#"{{"lds": {{"0": [{}]}}}}"#,
        vec!["1"; 20_000].join(",")
    ));
    let mut all = cases;
    for (i, s) in states.iter().enumerate() {
        let p = dir.join(format!("s{i}.json"));
        std::fs::write(&p, s).unwrap();
        all.push((
            vec![
                "--arch".into(),
                "gfx8".into(),
                good.display().to_string(),
                "--state".into(),
                p.display().to_string(),
            ],
            "state file",
        ));
    }
    for (args, want) in all {
        let out = Command::new(env!("CARGO_BIN_EXE_wavejit"))
            .arg("run")
            .args(&args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: wanted `{want}` in: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
