//! `wavejit run --profile` on every engine and `wavejit profile-report` (text, SVG, and a
//! file that is not a profile).

use std::process::Command;

use wavejit::profile::KernelProfile;

fn row<'a>(k: &'a KernelProfile, prefix: &str, n: usize) -> &'a wavejit::profile::InstRow {
    k.find(prefix, n)
        .unwrap_or_else(|| panic!("no {prefix} #{n} in {:#?}", k.insts))
}

#[test]
fn cli_profile_and_report() {
    let dir = std::env::temp_dir().join(format!("wavejit-profile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bin = env!("CARGO_BIN_EXE_wavejit");
    let root = wavejit_testkit::root();
    let mut texts = Vec::new();
    for engine in ["interp", "jit", "tiered", "diff"] {
        let p = dir.join(format!("{engine}.json"));
        let o = Command::new(bin)
            .args(["run", "--arch", "gfx8", "--engine", engine])
            .arg(format!("{}/examples/exec_loop.s", root.display()))
            .arg("--state")
            .arg(format!("{}/examples/exec_loop.state.json", root.display()))
            .arg("--out")
            .arg(dir.join("out.json"))
            .arg("--profile")
            .arg(&p)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let f = wavejit::profile::ProfileFile::from_json(&std::fs::read_to_string(&p).unwrap())
            .unwrap();
        let mut k = f.kernels[0].clone();
        k.engine.clear();
        texts.push(k);
    }
    assert!(texts.windows(2).all(|w| w[0] == w[1]));
    // exec_loop: v0 = 0..8 (lanes 0-59 active); the loop body runs max(v0) = 8 times.
    let k = &texts[0];
    assert_eq!(row(k, "s_add_u32", 0).execs, 8);
    let svg = dir.join("p.svg");
    let o = Command::new(bin)
        .arg("profile-report")
        .arg(dir.join("jit.json"))
        .arg("--svg")
        .arg(&svg)
        .output()
        .unwrap();
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains(">>") && text.contains("s_add_u32 s4, s4, 1"),
        "{text}"
    );
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("instruction mix"));
    // A file that is not a profile is refused with its name.
    std::fs::write(dir.join("bad.json"), "{}").unwrap();
    let o = Command::new(bin)
        .arg("profile-report")
        .arg(dir.join("bad.json"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("bad.json"));
    let _ = std::fs::remove_dir_all(&dir);
}
