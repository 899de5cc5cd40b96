//! `wavejit run` with a state file's `code_base`: `s_getpc_b64` returns the base plus the
//! next instruction's offset and `s_setpc_b64` subtracts it; without the key the base is
//! 0 (code addresses are offsets). Expected values by hand from the instruction sizes
//! (every instruction below is 4 bytes: SOP1/SOP2 with inline constants).

use std::process::Command;

// pc 0: s[0:1] = base + 4; pc 4/8: s[2:3] = s[0:1] + 16 = base + 20; pc 12: jump there,
// skipping pc 16 (s5 = 1); pc 20: s4 = 7.
const PROGRAM: &str = "s_getpc_b64 s[0:1]\ns_add_u32 s2, s0, 16\ns_addc_u32 s3, s1, 0\n\
s_setpc_b64 s[2:3]\ns_mov_b32 s5, 1\ns_mov_b32 s4, 7\ns_endpgm\n";

fn run(engine: &str, state: Option<&str>) -> (i32, serde_json::Value, String) {
    let dir = std::env::temp_dir().join(format!("wavejit-run-code-base-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let tag = format!("{engine}-{}", state.is_some());
    let src = dir.join(format!("p-{tag}.s"));
    std::fs::write(&src, PROGRAM).expect("write");
    let out = dir.join(format!("out-{tag}.json"));
    let mut c = Command::new(env!("CARGO_BIN_EXE_wavejit"));
    c.args(["run", "--arch", "gfx8", "--engine", engine])
        .arg(&src)
        .arg("--out")
        .arg(&out);
    if let Some(s) = state {
        let p = dir.join(format!("in-{tag}.json"));
        std::fs::write(&p, s).expect("state");
        c.arg("--state").arg(p);
    }
    let o = c.output().expect("runs");
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    let json = std::fs::read_to_string(&out)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(serde_json::Value::Null);
    (o.status.code().unwrap_or(-1), json, err)
}

#[test]
fn getpc_and_setpc_count_from_the_code_base() {
    for engine in ["interp", "jit", "tiered"] {
        let (c, v, e) = run(engine, Some(r#"{"code_base": "0x123400000000"}"#));
        assert_eq!(c, 0, "{engine}: {e}");
        let s = &v["sgpr"];
        assert_eq!(
            (s["0"].as_u64(), s["1"].as_u64()),
            (Some(4), Some(0x1234)),
            "{engine}"
        );
        assert_eq!(s["4"].as_u64(), Some(7), "{engine}: the jump landed");
        assert!(
            s.get("5").is_none(),
            "{engine}: the skipped instruction ran"
        );
        assert_eq!(v["code_base"].as_u64(), Some(0x1234_0000_0000), "{engine}");

        let (c, v, e) = run(engine, None);
        assert_eq!(c, 0, "{engine}: {e}");
        let s = &v["sgpr"];
        // s1 is not listed: the run left it at 0.
        assert_eq!((s["0"].as_u64(), s.get("1")), (Some(4), None), "{engine}");
        assert_eq!(s["4"].as_u64(), Some(7), "{engine}");
        assert!(
            v.get("code_base").is_none(),
            "{engine}: not listed unless given"
        );
    }
}

#[test]
fn setpc_below_the_code_base_is_refused() {
    // s[0:1] = 0x10: below a base of 0x1000.
    let program = "s_mov_b64 s[0:1], 16\ns_setpc_b64 s[0:1]\ns_endpgm\n";
    let dir =
        std::env::temp_dir().join(format!("wavejit-run-code-base-low-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    for engine in ["interp", "jit", "tiered"] {
        let src = dir.join(format!("p-{engine}.s"));
        let st = dir.join(format!("s-{engine}.json"));
        std::fs::write(&src, program).expect("write");
        std::fs::write(&st, r#"{"code_base": 4096}"#).expect("write");
        let o = Command::new(env!("CARGO_BIN_EXE_wavejit"))
            .args(["run", "--arch", "gfx8", "--engine", engine])
            .arg(&src)
            .arg("--state")
            .arg(&st)
            .output()
            .expect("runs");
        let e = String::from_utf8_lossy(&o.stderr);
        assert_ne!(o.status.code(), Some(0), "{engine}");
        assert!(
            e.contains("s_setpc_b64 target 0x10 is outside the code"),
            "{engine}: {e}"
        );
    }
}
