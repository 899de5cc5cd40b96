//! `wavejit launch` and `Device::launch` on bad input: a malformed ELF, a missing kernel,
//! a wrong argument count or size, a kernel that reads outside its buffers, a kernel that
//! never ends. Each ends with a clear error (exit status 2 from the CLI) and no crash.
//! Also the CLI's success path, output files and summary. Uses the prebuilt objects of
//! `tests/data/launch/` (no compiler needed).

use std::path::{Path, PathBuf};
use std::process::Command;

use wavejit::device::{Arg, LaunchError};
use wavejit::grid::GridError;
use wavejit_testkit::launch::{device, engines, prebuilt, root};

fn obj(name: &str) -> PathBuf {
    root().join("tests/data/launch").join(name)
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wavejit-launch-errors-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

fn u32s(p: &Path, v: &[u32]) {
    std::fs::write(
        p,
        v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>(),
    )
    .unwrap();
}

/// Run `wavejit launch ARGS`; returns (exit code, stderr).
fn launch(args: &[&str]) -> (i32, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_wavejit"))
        .arg("launch")
        .args(args)
        .output()
        .expect("run wavejit");
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(!err.contains("panicked"), "wavejit panicked: {err}");
    (o.status.code().unwrap_or(-1), err)
}

fn vadd_args<'a>(a: &'a str, b: &'a str, c: &'a str, n: &'a str) -> Vec<String> {
    let vadd = obj("vadd-gfx803.hsaco");
    vec![
        vadd.display().to_string(),
        "--kernel".into(),
        "vadd".into(),
        "--grid".into(),
        "100".into(),
        "--block".into(),
        "64".into(),
        "--arg".into(),
        a.into(),
        "--arg".into(),
        b.into(),
        "--arg".into(),
        c.into(),
        "--arg".into(),
        n.into(),
    ]
}

fn run_vadd(a: &str, b: &str, c: &str, n: &str) -> (i32, String) {
    let v = vadd_args(a, b, c, n);
    launch(&v.iter().map(String::as_str).collect::<Vec<_>>())
}

/// vadd of 100 elements: A and B read from the files `a` and `b`, C written to `c`.
fn vadd_files(a: &Path, b: &Path, c: &Path) -> (i32, String) {
    run_vadd(
        &format!("in:{}", a.display()),
        &format!("in:{}", b.display()),
        &format!("out:{}:400", c.display()),
        "u32:100",
    )
}

#[test]
fn cli_success_writes_outputs_and_summary() {
    let (a, b, c) = (tmp("ok-a.bin"), tmp("ok-b.bin"), tmp("ok-c.bin"));
    u32s(&a, &(0..100).collect::<Vec<_>>());
    u32s(&b, &(0..100).map(|i| 1000 * i).collect::<Vec<_>>());
    let (code, err) = vadd_files(&a, &b, &c);
    assert_eq!(code, 0, "{err}");
    let got = std::fs::read(&c).unwrap();
    let want: Vec<u8> = (0..100u32).flat_map(|i| (1001 * i).to_le_bytes()).collect();
    assert_eq!(got, want);
    // 100 work-items in blocks of 64: 2 workgroups of one wave each.
    assert!(err.contains("2 workgroups, 2 waves"), "{err}");
    assert!(err.contains("instructions/s"), "{err}");

    // inout: the result replaces the input buffer's contents in another file.
    let d = tmp("ok-d.bin");
    let (code, err) = run_vadd(
        &format!("in:{}", a.display()),
        &format!("in:{}", a.display()),
        &format!("inout:{}:{}", b.display(), d.display()),
        "u32:100",
    );
    assert_eq!(code, 0, "{err}");
    let want: Vec<u8> = (0..100u32).flat_map(|i| (2 * i).to_le_bytes()).collect();
    assert_eq!(std::fs::read(&d).unwrap(), want);
}

#[test]
fn cli_malformed_elf() {
    let junk = tmp("junk.hsaco");
    std::fs::write(&junk, b"this is not an ELF file at all").unwrap();
    let (code, err) = launch(&[junk.to_str().unwrap(), "--kernel", "vadd", "--grid", "64"]);
    assert_eq!(code, 2);
    assert!(err.contains("not an ELF"), "{err}");

    let good = std::fs::read(obj("vadd-gfx803.hsaco")).unwrap();
    let cut = tmp("cut.hsaco");
    std::fs::write(&cut, &good[..good.len() / 3]).unwrap();
    let (code, err) = launch(&[cut.to_str().unwrap(), "--kernel", "vadd", "--grid", "64"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("malformed ELF") || err.contains("descriptor"),
        "{err}"
    );

    let (code, err) = launch(&["/nonexistent/k.hsaco", "--kernel", "vadd", "--grid", "64"]);
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/k.hsaco"), "{err}");
}

#[test]
fn cli_missing_kernel() {
    let (code, err) = launch(&[
        obj("two-gfx700.hsaco").to_str().unwrap(),
        "--kernel",
        "thrice",
        "--grid",
        "64",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no kernel named `thrice`") && err.contains("fill, twice"),
        "{err}"
    );
}

#[test]
fn cli_wrong_argument_count_and_sizes() {
    let a = tmp("args-a.bin");
    u32s(&a, &[0; 100]);
    let ina = format!("in:{}", a.display());
    // Three arguments for four.
    let v = vadd_args(&ina, &ina, &ina, "u32:1");
    let (code, err) = launch(
        &v[..v.len() - 2]
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert_eq!(code, 2);
    assert!(err.contains("takes 4 arguments, 3 given"), "{err}");
    // A 64-bit value for the 32-bit n, a scalar for a pointer, a buffer for a value, a
    // value out of its type's range.
    let ina = ina.as_str();
    for ([a, b, c, n], why) in [
        ([ina, ina, ina, "u64:100"], "takes 4 bytes"),
        (["u32:0", ina, ina, "u32:100"], "pointer"),
        ([ina, ina, ina, ina], "not a pointer"),
        ([ina, ina, ina, "u32:-1"], "does not fit u32"),
    ] {
        let (code, err) = run_vadd(a, b, c, n);
        assert_eq!(code, 2, "{n}");
        assert!(err.contains(why), "{n}: {err}");
    }
    // Bad geometry and engine.
    let vadd = obj("vadd-gfx803.hsaco");
    for (extra, why) in [
        (&["--grid", "0"][..], "at least 1"),
        (&["--grid", "64", "--block", "2048"], "1024"),
        (&["--grid", "64", "--engine", "warp"], "unknown engine"),
    ] {
        let mut args = vec![vadd.to_str().unwrap(), "--kernel", "vadd"];
        args.extend(extra);
        let (code, err) = launch(&args);
        assert_eq!(code, 2, "{extra:?}");
        assert!(err.contains(why), "{extra:?}: {err}");
    }
}

#[test]
fn cli_read_outside_buffer() {
    // a holds 10 elements, but n = 100: the kernel reads a[10] and faults.
    let (a, b, c) = (tmp("oob-a.bin"), tmp("oob-b.bin"), tmp("oob-c.bin"));
    u32s(&a, &[1; 10]);
    u32s(&b, &[2; 100]);
    let (code, err) = vadd_files(&a, &b, &c);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("out of bounds"), "{err}");
    assert!(
        err.contains("past the end of --arg 0"),
        "names the buffer: {err}"
    );
    assert!(!c.exists(), "no output after a failed run");
}

#[test]
fn device_errors_are_typed() {
    let code = prebuilt("vadd-gfx803.hsaco");
    for engine in engines() {
        let mut dev = device(engine);
        let small = dev.alloc_zeroed(16).unwrap();
        let big = dev.alloc_zeroed(4096).unwrap();
        let args = [
            Arg::Buffer(big),
            Arg::Buffer(small),
            Arg::Buffer(big),
            Arg::U32(64),
        ];
        match dev.launch(&code, "vadd", [64, 1, 1], [64, 1, 1], &args) {
            Err(LaunchError::Run {
                source: GridError::Exec { wg, wave, err },
                hint: Some(h),
                ..
            }) => {
                assert_eq!((wg, wave), ([0, 0, 0], 0));
                assert!(format!("{err}").contains("out of bounds"), "{err}");
                // The 16-byte buffer ends at small.addr + 16; lane 4 reads there.
                assert!(h.contains("past the end of buffer #1"), "{h}");
            }
            other => panic!("{engine}: expected an out-of-bounds error, got {other:?}"),
        }
        match dev.launch(&code, "vadd", [64, 1, 1], [64, 1, 1], &args[..2]) {
            Err(LaunchError::Args { msg, .. }) => {
                assert!(msg.contains("takes 4 arguments, 2 given"), "{msg}")
            }
            other => panic!("expected an argument error, got {other:?}"),
        }
        assert!(matches!(
            dev.launch(&code, "nope", [64, 1, 1], [64, 1, 1], &args),
            Err(LaunchError::Load(
                wavejit::load::LoadError::NoSuchKernel { .. }
            ))
        ));
    }
}

#[test]
fn never_ending_kernels_hit_the_budget() {
    let code = prebuilt("spin.o");
    for engine in engines() {
        let mut dev = device(engine);
        dev.set_max_insts_per_wave(10_000);
        match dev.launch(&code, "spin", [64, 1, 1], [64, 1, 1], &[]) {
            Err(LaunchError::Run {
                source: GridError::Budget { budget, pc, .. },
                ..
            }) => {
                assert_eq!(budget, 10_000);
                assert_eq!(pc, 0, "the branch to itself");
            }
            other => panic!("{engine}: expected the budget error, got {other:?}"),
        }
        // Wave 0 waits at a barrier that wave 1 never reaches.
        match dev.launch(&code, "half_barrier", [128, 1, 1], [128, 1, 1], &[]) {
            Err(LaunchError::Run {
                source: GridError::Budget { wave, .. },
                ..
            }) => assert_eq!(wave, 1),
            other => panic!("{engine}: expected the budget error, got {other:?}"),
        }
    }
    let (code, err) = launch(&[
        obj("spin.o").to_str().unwrap(),
        "--kernel",
        "spin",
        "--grid",
        "64",
        "--max-insts",
        "5000",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("did not reach s_endpgm or s_barrier within 5000 instructions"),
        "{err}"
    );
}

#[test]
fn absurd_sizes_are_errors() {
    let mut dev = device("interp");
    dev.set_memory_limit(1 << 20);
    assert!(matches!(
        dev.alloc_zeroed(2 << 20),
        Err(LaunchError::Memory(_))
    ));
    let b = dev.alloc_zeroed(1000).unwrap();
    assert!(matches!(
        dev.write(b, &[0; 1001]),
        Err(LaunchError::Memory(_))
    ));
    // A descriptor asking for 4 GiB of scratch per work-item: refused before mapping.
    let mut bytes = std::fs::read(obj("wave_ids.o")).unwrap();
    let at = bytes
        .windows(4)
        .position(|w| w == [0x40, 0x00, 0xac, 0x00])
        .unwrap()
        - 48;
    bytes[at + 4..at + 8].copy_from_slice(&u32::MAX.to_le_bytes());
    let code = wavejit::load::CodeObject::parse(&bytes).unwrap();
    let out = dev.alloc_zeroed(1024).unwrap();
    match dev.launch(
        &code,
        "wave_ids",
        [64, 1, 1],
        [64, 1, 1],
        &[Arg::Buffer(out), Arg::U32(0)],
    ) {
        Err(LaunchError::Args { msg, .. }) => assert!(msg.contains("scratch"), "{msg}"),
        other => panic!("expected a scratch size error, got {other:?}"),
    }
    // The command line: an output buffer past the limit.
    let (code, err) = run_vadd(
        "u64:0",
        "u64:0",
        &format!("out:{}:99999999999999", tmp("huge.bin").display()),
        "u32:1",
    );
    assert_eq!(code, 2);
    assert!(err.contains("limit"), "{err}");
}
