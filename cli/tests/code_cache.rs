//! Compiled code reused: a `Device` compiles a kernel once however often it launches it,
//! and `wavejit launch`/`run` keep compiled units in the disk cache between processes
//! (`WAVEJIT_CACHE_DIR`), unless `--no-cache` or `WAVEJIT_CACHE=off` says not to. Uses
//! the prebuilt `tests/data/launch/vadd-gfx803.hsaco` (no compiler needed).

use std::path::{Path, PathBuf};
use std::process::Command;

use wavejit::device::Arg;
use wavejit_testkit::launch::{device, prebuilt, root};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wavejit-code-cache-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn entries(d: &Path) -> usize {
    std::fs::read_dir(d).map_or(0, |r| r.count())
}

/// `wavejit ARGS` with `env` set; returns (exit code, stderr).
fn wavejit(args: &[String], env: &[(&str, &Path)], off: bool) -> (i32, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_wavejit"));
    c.args(args).env_remove("WAVEJIT_CACHE");
    for (k, v) in env {
        c.env(k, v);
    }
    if off {
        c.env("WAVEJIT_CACHE", "off");
    }
    let o = c.output().expect("run wavejit");
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(!err.contains("panicked"), "{err}");
    (o.status.code().unwrap_or(-1), err)
}

/// The number before `word` in the summary (`3 blocks`, `3 from the disk cache`).
fn count(summary: &str, word: &str) -> u64 {
    let at = summary
        .find(word)
        .unwrap_or_else(|| panic!("no `{word}` in {summary}"));
    summary[..at]
        .split_whitespace()
        .last()
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("no count before `{word}` in {summary}"))
}

/// A vadd launch of 1000 items: c = a + b with a = i, b = 3 i.
fn vadd(d: &Path, out: &str, extra: &[&str]) -> Vec<String> {
    let a: Vec<u8> = (0..1000u32).flat_map(|i| i.to_le_bytes()).collect();
    let b: Vec<u8> = (0..1000u32).flat_map(|i| (3 * i).to_le_bytes()).collect();
    std::fs::write(d.join("a.bin"), a).unwrap();
    std::fs::write(d.join("b.bin"), b).unwrap();
    let mut v: Vec<String> = vec![
        "launch".into(),
        root()
            .join("tests/data/launch/vadd-gfx803.hsaco")
            .display()
            .to_string(),
        "--kernel".into(),
        "vadd".into(),
        "--grid".into(),
        "1000".into(),
        "--block".into(),
        "64".into(),
    ];
    for arg in [
        format!("in:{}", d.join("a.bin").display()),
        format!("in:{}", d.join("b.bin").display()),
        format!("out:{}:4000", d.join(out).display()),
        "u32:1000".into(),
    ] {
        v.push("--arg".into());
        v.push(arg);
    }
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

fn check_sums(p: &Path) {
    let c = std::fs::read(p).unwrap();
    for i in 0..1000u32 {
        let got = u32::from_le_bytes(c[4 * i as usize..][..4].try_into().unwrap());
        assert_eq!(got, 4 * i, "item {i}");
    }
}

#[test]
fn a_device_compiles_a_kernel_once_across_launches() {
    let code = prebuilt("vadd-gfx803.hsaco");
    for engine in ["jit", "tiered"] {
        let mut dev = device(engine);
        let n = 4096u32;
        let a = dev.alloc_slice(&vec![5u32; n as usize]).unwrap();
        let c = dev.alloc_zeroed(4 * n as u64).unwrap();
        let args = [Arg::Buffer(a), Arg::Buffer(a), Arg::Buffer(c), Arg::U32(n)];
        let mut blocks = Vec::new();
        for _ in 0..5 {
            dev.launch(&code, "vadd", [n, 1, 1], [64, 1, 1], &args)
                .unwrap();
            // Blocks compiled for the first time (a hot block's optimised version, compiled
            // when a later launch makes it hot, is not a compile of new code).
            let st = dev.engine().compile_stats().unwrap();
            blocks.push(st.blocks - st.hot_blocks);
            assert_eq!(dev.read_vec::<u32>(c).unwrap(), vec![10u32; n as usize]);
        }
        assert!(blocks[0] > 0, "{engine}: {blocks:?}");
        assert!(
            blocks.iter().all(|&b| b == blocks[0]),
            "{engine}: later launches compiled again: {blocks:?}"
        );
    }
}

#[test]
fn launch_reuses_units_from_the_disk_cache() {
    let d = tmp("launch");
    let cache = d.join("cache");
    let env = [("WAVEJIT_CACHE_DIR", cache.as_path())];
    let (code, cold) = wavejit(&vadd(&d, "c1.bin", &[]), &env, false);
    assert_eq!(code, 0, "{cold}");
    check_sums(&d.join("c1.bin"));
    let compiled = count(&cold, "blocks");
    assert!(compiled > 0, "{cold}");
    assert_eq!(count(&cold, "from the disk cache"), 0, "{cold}");
    assert_eq!(entries(&cache), 1);

    let (code, warm) = wavejit(&vadd(&d, "c2.bin", &[]), &env, false);
    assert_eq!(code, 0, "{warm}");
    check_sums(&d.join("c2.bin"));
    assert_eq!(count(&warm, "blocks"), 0, "{warm}");
    assert_eq!(count(&warm, "from the disk cache"), compiled, "{warm}");

    // A corrupted entry: ignored, compiled again, correct, replaced.
    let f = std::fs::read_dir(&cache)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let mut bytes = std::fs::read(&f).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0xff;
    std::fs::write(&f, bytes).unwrap();
    let (code, bad) = wavejit(&vadd(&d, "c3.bin", &[]), &env, false);
    assert_eq!(code, 0, "{bad}");
    check_sums(&d.join("c3.bin"));
    assert_eq!(count(&bad, "blocks"), compiled, "{bad}");
    assert!(
        bad.contains("1 stale or corrupted entries ignored"),
        "{bad}"
    );
    let (_, again) = wavejit(&vadd(&d, "c4.bin", &[]), &env, false);
    assert_eq!(count(&again, "from the disk cache"), compiled, "{again}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn no_cache_flag_and_environment_turn_it_off() {
    let d = tmp("off");
    let cache = d.join("cache");
    let env = [("WAVEJIT_CACHE_DIR", cache.as_path())];
    let (code, err) = wavejit(&vadd(&d, "c1.bin", &["--no-cache"]), &env, false);
    assert_eq!(code, 0, "{err}");
    check_sums(&d.join("c1.bin"));
    assert!(!err.contains("disk cache"), "{err}");
    assert_eq!(entries(&cache), 0);
    let (code, err) = wavejit(&vadd(&d, "c2.bin", &[]), &env, true);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("disk cache"), "{err}");
    assert_eq!(entries(&cache), 0);

    // `wavejit run` likewise.
    let s = d.join("p.s");
    std::fs::write(&s, "v_mov_b32 v1, 7\nv_add_u32 v1, vcc, v1, v1\ns_endpgm\n").unwrap();
    let run = |extra: &[&str]| {
        let mut a: Vec<String> = vec!["run".into(), "--arch".into(), "gfx8".into()];
        a.push(s.display().to_string());
        a.push("--out".into());
        a.push(d.join("out.json").display().to_string());
        a.extend(extra.iter().map(|x| x.to_string()));
        a
    };
    let (code, err) = wavejit(&run(&["--no-cache"]), &env, false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(entries(&cache), 0);
    let (code, err) = wavejit(&run(&[]), &env, false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(entries(&cache), 1);
    let _ = std::fs::remove_dir_all(&d);
}
