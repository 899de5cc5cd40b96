//! The VP1 examples of `examples/vp1/`: each program runs from `NAME.state.json` through
//! the library (`wavejit::statefile::vp1::run_vp1`) with every engine, and its final state must
//! equal `NAME.expected.json`, whose values are worked out by hand in the comments of
//! `NAME.s` (not produced by wavejit).

use std::path::{Path, PathBuf};

use serde_json::Value;
use wavejit::isa::vp1::asm;
use wavejit::statefile::vp1::run_vp1;
use wavejit::Engine;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join("vp1")
}

fn read(name: &str) -> String {
    let p = dir().join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn vp1_examples_reach_their_expected_states() {
    for name in ["pixels", "flags", "s2v"] {
        let code = asm::assemble_bytes(&read(&format!("{name}.s")))
            .unwrap_or_else(|e| panic!("{name}.s: {e}"));
        let state = read(&format!("{name}.state.json"));
        let expected: Value =
            serde_json::from_str(&read(&format!("{name}.expected.json"))).expect("expected JSON");
        for (engine_name, engine) in Engine::ALL {
            let out = run_vp1(&code, Some(&state), *engine)
                .unwrap_or_else(|e| panic!("{name} ({engine_name}): {e}"));
            let got: Value = serde_json::from_str(&out.json).expect("output JSON");
            assert_eq!(
                got, expected,
                "{name} with engine {engine_name}:\n{}",
                out.json
            );
        }
    }
}
