//! Hostile flags and inputs on the command line: every call ends with exit 0 or a clear
//! error (exit 1 or 2) naming the place — never a panic (101), a signal, an allocation
//! abort or a hang — under a 4 GiB address-space limit. One test per class of what once
//! failed, and a property test that feeds random values to every subcommand's flags.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const BIN: &str = env!("CARGO_BIN_EXE_wavejit");
/// Address-space limit of every call (KiB): allocation must fail as an error below it.
const ULIMIT_KB: u64 = 4 * 1024 * 1024;
/// A call that takes longer is a hang.
const TIME_LIMIT: Duration = Duration::from_secs(60);

/// The repository root (where `tests/data/` lives).
fn root() -> PathBuf {
    wavejit_testkit::root()
}

fn scratch() -> PathBuf {
    let d = std::env::temp_dir().join(format!("wavejit-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Exit code (None: killed by a signal), stdout, stderr, and whether it timed out.
struct Outcome {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// Run `wavejit args…` under `ulimit -v` with a time limit.
fn call(args: &[&str]) -> Outcome {
    let cmd = format!(
        "ulimit -v {ULIMIT_KB}; exec {} {}",
        shell_quote(BIN),
        args.iter()
            .map(|a| shell_quote(a))
            .collect::<Vec<_>>()
            .join(" ")
    );
    let mut child = Command::new("sh")
        .args(["-c", &cmd])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh");
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let ro = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let re = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let t0 = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t0.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "`wavejit {}` hung (killed after {TIME_LIMIT:?})",
                args.join(" ")
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Outcome {
        code: status.code(),
        stdout: ro.join().unwrap(),
        stderr: re.join().unwrap(),
    }
}

/// The call ends in a clear error (exit 2) whose message contains `says`.
fn refused(args: &[&str], says: &str) {
    let o = call(args);
    assert_eq!(
        o.code,
        Some(2),
        "`wavejit {}`: want exit 2, got {:?}\n{}",
        args.join(" "),
        o.code,
        o.stderr
    );
    assert!(
        o.stderr.contains(says),
        "`wavejit {}`: the error should say `{says}`:\n{}",
        args.join(" "),
        o.stderr
    );
    assert!(
        o.stderr.len() < 4096,
        "the message is short: {} bytes",
        o.stderr.len()
    );
}

/// The call ends normally or in an error, never a crash.
/// `wavejit run --arch ARCH PROG` with each `(flag, path)` of `flags`, which must survive.
fn run_survives(arch: &str, prog: &Path, flags: &[(&str, &Path)]) -> Outcome {
    let mut args = vec![
        "run".to_string(),
        "--arch".into(),
        arch.into(),
        prog.display().to_string(),
    ];
    for (flag, path) in flags {
        args.push(flag.to_string());
        args.push(path.display().to_string());
    }
    survives(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

fn survives(args: &[&str]) -> Outcome {
    let o = call(args);
    assert!(
        matches!(o.code, Some(0..=2)),
        "`wavejit {}` crashed: {:?}\n{}",
        args.join(" "),
        o.code,
        o.stderr.chars().take(2000).collect::<String>()
    );
    if o.code == Some(2) {
        assert!(
            o.stderr.contains("error"),
            "`wavejit {}`: exit 2 without an error message",
            args.join(" ")
        );
    }
    o
}

fn vadd() -> String {
    root()
        .join("tests/data/launch/vadd-gfx803.hsaco")
        .display()
        .to_string()
}

fn zeros(dir: &Path) -> String {
    let p = dir.join("zeros.bin");
    std::fs::write(&p, vec![0u8; 4000]).unwrap();
    p.display().to_string()
}

#[test]
fn absurd_numbers_in_flags_are_usage_errors() {
    // (the command line, split at spaces, `VADD` the prebuilt vadd object; the flag the
    // error names).
    let vadd = vadd();
    for (line, flag) in [
        ("fuzz --arch gfx8 --seconds 1e300", "--seconds"),
        ("fuzz --arch gfx8 --seconds 1e19", "--seconds"),
        ("fuzz --arch gfx8 --seconds nan", "--seconds"),
        (
            "fuzz --arch gfx8 --seconds 18446744073709551616",
            "--seconds",
        ),
        ("fuzz --arch gfx8 --len 18446744073709551615", "--len"),
        ("fuzz --arch gfx8 --jobs 10000", "--jobs"),
        ("bench --run scaling --threads 100000 --size 1", "--threads"),
        ("bench --run valu --size 0", "--size"),
        (
            "launch VADD --kernel vadd --grid 1 --threads 0",
            "--threads",
        ),
        (
            "launch VADD --kernel vadd --grid 1 --threads 4294967296",
            "--threads",
        ),
    ] {
        let args: Vec<&str> = line
            .split(' ')
            .map(|w| if w == "VADD" { vadd.as_str() } else { w })
            .collect();
        refused(&args, flag);
    }
}

#[test]
fn fuzz_jobs_are_bounded_by_the_work() {
    let d = scratch();
    let o = survives(&[
        "fuzz",
        "--arch",
        "gfx8",
        "--jobs",
        "1024",
        "--programs",
        "4",
        "--out",
        &d.join("repro").display().to_string(),
    ]);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    assert!(o.stdout.contains("4 programs"), "{}", o.stdout);
}

#[test]
fn buffers_the_host_cannot_give_are_errors() {
    let d = scratch();
    let z = zeros(&d);
    let base = |out: &str| vadd_launch("1000", &z, out, "u32:1000", &["--quiet"]);
    // 3 GiB under a 4 GiB limit: mapped lazily and streamed out, so it works.
    let a = base("out:/dev/null:3221225472");
    let o = survives(&strs(&a));
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    // 7 GiB: more than the host gives (the device limit is 8 GiB).
    let out = d.join("big.bin").display().to_string();
    let a = base(&format!("out:{out}:7516192768"));
    refused(&strs(&a), "cannot allocate");
    // 8 GiB: the device's own limit.
    let a = base(&format!("out:{out}:8589934592"));
    refused(&strs(&a), "limit");
    let _ = std::fs::remove_file(d.join("big.bin"));
}

/// `launch VADD --kernel vadd --grid GRID --block 256`, the arguments `in:Z in:Z OUT N`
/// (`z`: a file of zeros), then `extra`.
fn vadd_launch(grid: &str, z: &str, out: &str, n: &str, extra: &[&str]) -> Vec<String> {
    let mut a: Vec<String> = [
        "launch",
        &vadd(),
        "--kernel",
        "vadd",
        "--grid",
        grid,
        "--block",
        "256",
    ]
    .map(String::from)
    .to_vec();
    for x in [&format!("in:{z}"), &format!("in:{z}"), out, n] {
        a.extend(["--arg".to_string(), x.to_string()]);
    }
    a.extend(extra.iter().map(|e| e.to_string()));
    a
}

/// A dispatch of vadd with more waves than any test waits for, quiet, then `extra`.
fn huge(z: &str, extra: &[&str]) -> Vec<String> {
    let mut e = vec!["--quiet"];
    e.extend(extra);
    vadd_launch("4294967295", z, "out:/dev/null:4000", "u32:1000", &e)
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn a_dispatch_has_a_total_budget_and_a_timeout() {
    let d = scratch();
    let z = zeros(&d);
    let budget = huge(&z, &["--max-total-insts", "100000"]);
    refused(&strs(&budget), "past its budget of 100000");
    let timeout = huge(&z, &["--timeout", "0.5"]);
    refused(&strs(&timeout), "ran out of time");
}

#[test]
fn ctrl_c_stops_a_launch() {
    let d = scratch();
    let z = zeros(&d);
    let mut child = Command::new(BIN)
        .args(huge(&z, &[]))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(700));
    let _ = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    let t0 = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(t0.elapsed() < TIME_LIMIT, "Ctrl-C did not stop the launch");
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(status.code(), Some(2), "{err}");
    assert!(err.contains("cancelled after"), "{err}");
}

#[test]
fn many_memory_regions_and_long_blocks_finish() {
    let d = scratch();
    // 200,000 regions in descending order (each map used to re-sort: quadratic).
    let n = 200_000u64;
    let mut s = String::from("{\"memory\": [");
    for i in 0..n {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&format!(
            "{{\"addr\": {}, \"dwords\": [{i}]}}",
            0x10_0000 + (n - 1 - i) * 16
        ));
    }
    s.push_str("]}");
    let state = d.join("many.json");
    std::fs::write(&state, s).unwrap();
    let prog = d.join("end.s");
    std::fs::write(&prog, "s_endpgm\n").unwrap();
    let out = d.join("out.json");
    let o = run_survives("gfx8", &prog, &[("--state", &state), ("--out", &out)]);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    // A 100,000-instruction straight-line block on the default (JIT) engine.
    let long = d.join("long.s");
    let mut t = String::new();
    for i in 0..100_000 {
        t.push_str(&format!(
            "v_mov_b32 v{}, v{}\n",
            i % 200 + 1,
            (i + 7) % 200 + 1
        ));
    }
    t.push_str("s_endpgm\n");
    std::fs::write(&long, t).unwrap();
    let o = run_survives("gfx8", &long, &[("--out", &out)]);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    assert!(o.stderr.contains("100001 instructions"), "{}", o.stderr);
}

#[test]
fn state_file_values_and_keys() {
    let d = scratch();
    let prog = d.join("end2.s");
    std::fs::write(&prog, "s_endpgm\n").unwrap();
    let prog = prog.display().to_string();
    let run = |json: &str, says: &str| {
        let p = d.join("state.json");
        std::fs::write(&p, json).unwrap();
        refused(
            &[
                "run",
                "--arch",
                "gfx8",
                &prog,
                "--state",
                &p.display().to_string(),
            ],
            says,
        );
    };
    run(r#"{"exec": 18446744073709551616}"#, "past 64 bits");
    run(r#"{"exec": 1, "exec": 2}"#, "duplicate key `exec`");
    run(r#"{"sgpr": {"3": 1, "3": 2}}"#, "duplicate key `sgpr.3`");
    for k in [" 1", "01", "+1", "1 "] {
        run(
            &format!("{{\"sgpr\": {{\"{k}\": 1}}}}"),
            "key must be a number",
        );
    }
    // A huge string is not repeated whole.
    let huge = "x".repeat(5_000_000);
    run(&format!("{{\"m0\": \"{huge}\"}}"), "more characters");
    // A region ending exactly at 2^64 is fine.
    let p = d.join("top.json");
    std::fs::write(
        &p,
        r#"{"memory": [{"addr": "0xfffffffffffffff8", "dwords": [1, 2]}]}"#,
    )
    .unwrap();
    let flags = [("--state", p.as_path()), ("--out", &d.join("o.json"))];
    let o = run_survives("gfx8", Path::new(&prog), &flags);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    // VP1 follows the same key rule.
    let vp1 = root().join("examples/vp1/pixels.s");
    let p = d.join("vp1.json");
    std::fs::write(&p, r#"{"r": {"01": 1}}"#).unwrap();
    let o = run_survives("vp1", &vp1, &[("--state", &p)]);
    assert_eq!(o.code, Some(2), "{}", o.stderr);
}

#[test]
fn launch_arguments_are_checked() {
    let d = scratch();
    let z = zeros(&d);
    let base = [
        "launch",
        &vadd(),
        "--kernel",
        "vadd",
        "--grid",
        "1000",
        "--block",
        "256",
    ];
    let with = |last: &str| vadd_launch("1000", &z, "out:/dev/null:4000", last, &[]);
    let a = with("f32:1e400");
    refused(&strs(&a), "out of f32 range");
    let a = with("f32:1.5");
    refused(&strs(&a), "is an integer");
    let mut a: Vec<&str> = base.to_vec();
    a.extend(["--arg", "in:"]);
    refused(&a, "expected in:PATH");
}

#[test]
fn bad_environment_and_undecodable_input_name_their_place() {
    let o = Command::new(BIN)
        .args(["table"])
        .env("WAVEJIT_JIT_OPT", "fastest")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("WAVEJIT_JIT_OPT"));
    let o = call(&["disasm", "--arch", "gfx8", "--hex", "bf800000 ffffffff"]);
    assert!(o.stdout.contains("offset 0x4"), "{}", o.stdout);
    let d = scratch();
    let p = d.join("bad.s");
    std::fs::write(&p, b"s_nop 0\n\xff\xfe\n").unwrap();
    refused(
        &["asm", "--arch", "gfx8", &p.display().to_string()],
        "byte 8",
    );
}

/// Random values for every flag of every subcommand: the cheap calls run with small
/// budgets; none may crash or hang.
#[test]
fn random_flag_values_never_crash() {
    let d = scratch();
    let z = zeros(&d);
    let exec_loop = root().join("examples/exec_loop.s").display().to_string();
    let state = root()
        .join("examples/exec_loop.state.json")
        .display()
        .to_string();
    let out = d.join("o.json").display().to_string();
    let values = [
        "0",
        "1",
        "-1",
        "2",
        "64",
        "1000",
        "4294967295",
        "4294967296",
        "18446744073709551615",
        "18446744073709551616",
        "1e300",
        "nan",
        "inf",
        "-0",
        "0x10",
        "",
        "abc",
        "1,2,3",
        "0,0,0",
        "65536,1,1",
        " 3",
        "3 ",
    ];
    let mut rng = StdRng::seed_from_u64(0x5eed);
    let v = |rng: &mut StdRng| values[rng.random_range(0..values.len())].to_string();
    for _ in 0..60 {
        let which = rng.random_range(0..5);
        let args: Vec<String> = match which {
            0 => vec![
                "run".into(),
                "--arch".into(),
                "gfx8".into(),
                exec_loop.clone(),
                "--state".into(),
                state.clone(),
                "--out".into(),
                out.clone(),
                "--max-insts".into(),
                v(&mut rng),
                "--engine".into(),
                ["jit", "interp", "tiered", "diff", "x"][rng.random_range(0..5)].into(),
            ],
            1 => vec![
                "launch".into(),
                vadd(),
                "--kernel".into(),
                "vadd".into(),
                "--grid".into(),
                v(&mut rng),
                "--block".into(),
                v(&mut rng),
                "--threads".into(),
                v(&mut rng),
                "--max-insts".into(),
                v(&mut rng),
                "--max-total-insts".into(),
                "200000".into(),
                "--timeout".into(),
                "5".into(),
                "--arg".into(),
                format!("in:{z}"),
                "--arg".into(),
                format!("in:{z}"),
                "--arg".into(),
                format!("out:/dev/null:{}", v(&mut rng)),
                "--arg".into(),
                format!("u32:{}", v(&mut rng)),
                "--quiet".into(),
            ],
            2 => vec![
                "fuzz".into(),
                "--arch".into(),
                ["gfx6", "gfx7", "gfx8", "vp1"][rng.random_range(0..4)].into(),
                "--programs".into(),
                ["1", "2", "3"][rng.random_range(0..3)].into(),
                "--len".into(),
                v(&mut rng),
                "--jobs".into(),
                v(&mut rng),
                "--seed".into(),
                v(&mut rng),
                "--out".into(),
                d.join("repro").display().to_string(),
            ],
            3 => vec![
                "disasm".into(),
                "--arch".into(),
                ["gfx6", "gfx8", "vp1", "x"][rng.random_range(0..4)].into(),
                "--hex".into(),
                v(&mut rng),
            ],
            _ => vec![
                "bench".into(),
                "--run".into(),
                ["valu", "once", "dpp", "nope"][rng.random_range(0..4)].into(),
                "--size".into(),
                ["1", "2", "0", "abc", "16"][rng.random_range(0..5)].into(),
                "--engine".into(),
                ["jit", "interp", "x"][rng.random_range(0..3)].into(),
                "--threads".into(),
                v(&mut rng),
            ],
        };
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        survives(&refs);
    }
}
