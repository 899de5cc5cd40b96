//! `wavejit run --format`: the same final state shown as u32, i32, hex, f32 or f16x2 words;
//! the JSON written with `--out` stays exact. Expected words worked out by hand.

use std::process::Command;

fn run(format: &str, out: Option<&std::path::Path>) -> (i32, String, String) {
    let dir = std::env::temp_dir().join(format!("wavejit-run-format-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    // One source file per call: the tests run in parallel threads.
    let src = dir.join(format!("p-{format}-{}.s", out.is_some()));
    // v1 = 1.0 (0x3f800000), s3 = -2 (0xfffffffe), v2 = 0xc0003c00: f16 halves 1.0 and -2.0.
    std::fs::write(
        &src,
        "v_mov_b32 v1, 1.0\ns_mov_b32 s3, -2\nv_mov_b32 v2, 0xc0003c00\ns_endpgm\n",
    )
    .expect("write");
    let mut c = Command::new(env!("CARGO_BIN_EXE_wavejit"));
    c.args(["run", "--arch", "gfx8", "--format", format])
        .arg(&src);
    if let Some(o) = out {
        c.arg("--out").arg(o);
    }
    let o = c.output().expect("runs");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into(),
        String::from_utf8_lossy(&o.stderr).into(),
    )
}

#[test]
fn each_view_of_the_same_words() {
    let (c, t, e) = run("f32", None);
    assert_eq!(c, 0, "{e}");
    assert!(t.contains("v1 = [1.0, 1.0,"), "{t}");
    assert!(t.contains("s3 = nan(0xfffffffe)"), "{t}");
    let (_, t, _) = run("i32", None);
    assert!(t.contains("s3 = -2\n"), "{t}");
    assert!(t.contains("v1 = [1065353216,"), "{t}");
    let (_, t, _) = run("hex", None);
    assert!(t.contains("v1 = [0x3f800000,"), "{t}");
    assert!(t.contains("s3 = 0xfffffffe"), "{t}");
    let (_, t, _) = run("u32", None);
    assert!(t.contains("s3 = 4294967294"), "{t}");
    let (_, t, _) = run("f16x2", None);
    assert!(t.contains("v2 = [(1.0, -2.0), (1.0, -2.0),"), "{t}");
    let (c, _, e) = run("f64", None);
    assert_eq!(c, 2);
    assert!(e.contains("expected u32, i32, hex, f32 or f16x2"), "{e}");
}

#[test]
fn the_json_stays_exact() {
    let out = std::env::temp_dir().join(format!("wavejit-run-format-{}.json", std::process::id()));
    let (c, t, e) = run("f32", Some(&out));
    assert_eq!(c, 0, "{e}");
    assert!(t.contains("v1 = [1.0"), "{t}");
    let json = std::fs::read_to_string(&out).expect("written");
    let _ = std::fs::remove_file(&out);
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(v["vgpr"]["1"][0], 1065353216u64);
    assert_eq!(v["sgpr"]["3"], 4294967294u64);
}

#[test]
fn launch_shows_small_outputs_in_the_chosen_view() {
    // vadd (unsigned, wrapping): c = a + b; a = [1.0f, 1, 2, 3], b = [0, 0, 0, 2.0f]:
    // c = [0x3f800000, 1, 2, 0x40000003] — by hand.
    let dir = std::env::temp_dir().join(format!("wavejit-launch-format-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let words = |w: [u32; 4]| -> Vec<u8> { w.iter().flat_map(|x| x.to_le_bytes()).collect() };
    let (a, b, c) = (dir.join("a.bin"), dir.join("b.bin"), dir.join("c.bin"));
    std::fs::write(&a, words([0x3f80_0000, 1, 2, 3])).expect("a");
    std::fs::write(&b, words([0, 0, 0, 0x4000_0000])).expect("b");
    let o = Command::new(env!("CARGO_BIN_EXE_wavejit"))
        .arg("launch")
        .arg(wavejit_testkit::root().join("tests/data/launch/vadd-gfx803.hsaco"))
        .args([
            "--kernel", "vadd", "--grid", "4", "--block", "64", "--quiet",
        ])
        .arg(format!("--arg=in:{}", a.display()))
        .arg(format!("--arg=in:{}", b.display()))
        .arg(format!("--arg=out:{}:16", c.display()))
        .args(["--arg", "u32:4", "--format", "hex"])
        .output()
        .expect("runs");
    let t = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        t.contains("c.bin: [0x3f800000, 0x00000001, 0x00000002, 0x40000003]"),
        "{t}"
    );
    // The file holds the exact bytes.
    assert_eq!(
        std::fs::read(&c).expect("c"),
        words([0x3f80_0000, 1, 2, 0x4000_0003])
    );
    let _ = std::fs::remove_dir_all(&dir);
}
