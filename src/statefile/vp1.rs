//! `wavejit run --arch vp1`: the JSON state of the VP1 scalar unit and the runner.
//!
//! One call per run: `run_vp1(code, state_json, engine)` takes the program bytes
//! (little-endian words), the text of the state file if there is one, and the engine
//! (`interp`; `jit` and `tiered`, the Cranelift JIT compiling the straight-line program
//! once; `diff`, both compared), and returns the final state as JSON and the number of
//! words run. Errors: `Error::State` (a bad state file, with the JSON path), `Error::Exec`
//! (with the pc: a word of another VP1 unit, a truncated word), `Error::Unsupported` (a
//! JIT back-end failure, or `diff` finding the engines differ).
//!
//! A VP1 program is a sequence of scalar words run from the first to the last; each word is
//! a bundle of its own (vp1-notes.md 1, ERRATA VP1 7). There are no branches in the scalar
//! unit, so no instruction budget is needed.
//!
//! State schema (every key optional):
//!
//! ```json
//! {"variant": "g80" | "nv41",
//!  "r": {"N": u32},                  // $r0-$r30 ($r31 is hardwired 0: only 0 accepted)
//!  "c": {"N": u16},                  // $c0-$c3, 16 bits; bit 15 is forced to 1 and bits 11,
//!                                    // 12, 14 to 0, as the hardware reads them
//!  "files": {"v": {"N": [u32 x 4] | u32},   // $v0-$v31 as 4 words (bytes 4w..4w+3), or one
//!                                           // word for all four
//!            "vc": {"N": u32},              // $vc0-$vc3 (read by the s2v $vc selection)
//!            "sr": {...}, "mi": {...}, "uc": {...}, "a": {...},   // 0-31, u32
//!            "l": {"N": u16},               // 0-3
//!            "m": {"N": u32},               // 0-63
//!            "d": {"N": u32}, "f": {...}, "x": {...}},  // 0-7, 0-1, 0-15
//!  "s2v": {...}}                     // output only; ignored on input
//! ```
//!
//! Input integers are JSON numbers or strings (`"0x1f"`, `"31"`); a negative number is its
//! two's complement in the field's width. The default state is all zero with `$c` = 0x8000
//! and variant g80. The output uses the same schema with numbers: `variant`, all four `$c`,
//! every register the input named or the run changed, and `s2v`, the scalar-to-vector bus
//! output of the last word: `{"factor": [i16 x 4], "mask": [u16 x 2], "valid": 0|1,
//! "vcidx": 0-3, "vcflag": 0 (sf)|1 (zf), "vcxfrm": 0-7, "vcmask": u16}`. The output is a
//! valid input.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde_json::{Map, Value};
use wavejit_isa::vp1::{State, Variant};

use crate::statefile::StateError;
use crate::{Engine, Error};

/// Largest VP1 state file text accepted (every register named in hex fits in ~20 KiB).
pub const MAX_STATE_TEXT: usize = 1 << 20;

/// What a VP1 run produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vp1Run {
    /// The final state, as JSON text (ends with a newline).
    pub json: String,
    /// Words executed.
    pub insts: u64,
}

/// Run VP1 scalar `code` from the state in `state_json` (default: all zero) with `engine`.
pub fn run_vp1(code: &[u8], state_json: Option<&str>, engine: Engine) -> Result<Vp1Run, Error> {
    let input = match state_json {
        Some(t) => Vp1StateFile::parse(t)?,
        None => Vp1StateFile::default(),
    };
    let start = input.build();
    let mut end = start.clone();
    // By name, so that this file does not depend on which engines the facade lists.
    let stats = match engine.name() {
        // Pre-decoded code is a GCN tier: VP1 runs in its interpreter there.
        "interp" | "threaded" => wavejit_interp::vp1::run(&mut end, code)?,
        // A VP1 program is one straight line: it is compiled once, so tiering is the JIT.
        "jit" | "tiered" => match wavejit_jit::vp1::run(&mut end, code) {
            Ok(s) => s,
            Err(wavejit_jit::vp1::Vp1RunError::Exec(e)) => return Err(e.into()),
            Err(wavejit_jit::vp1::Vp1RunError::Jit(e)) => {
                return Err(Error::Unsupported(format!("VP1 JIT: {e}")))
            }
        },
        "diff" => {
            let mut other = start.clone();
            let a = wavejit_interp::vp1::run(&mut end, code);
            let b = wavejit_jit::vp1::run(&mut other, code);
            let same = match (&a, &b) {
                (Ok(x), Ok(y)) => x == y,
                (Err(x), Err(wavejit_jit::vp1::Vp1RunError::Exec(y))) => x == y,
                _ => false,
            };
            if !same || end != other {
                return Err(Error::Unsupported(format!(
                    "VP1 interpreter and JIT differ: interpreter {a:?}, JIT {b:?}"
                )));
            }
            a?
        }
        other => {
            return Err(Error::Unsupported(format!(
                "engine `{other}` cannot run VP1 code"
            )))
        }
    };
    Ok(Vp1Run {
        json: input.dump(&start, &end),
        insts: stats.insts,
    })
}

fn err<T>(at: impl Into<String>, msg: impl Into<String>) -> Result<T, StateError> {
    Err(StateError {
        at: at.into(),
        msg: msg.into(),
    })
}

/// An integer of `bits` (at most 32) from a JSON number or string.
fn int(v: &Value, at: &str, bits: u32) -> Result<u32, StateError> {
    let max = (1i64 << bits) - 1;
    let x: i64 = match v {
        Value::Number(n) => match n.as_i64() {
            Some(i) => i,
            None => return err(at, format!("{n} is not an integer that fits {bits} bits")),
        },
        Value::String(s) => {
            let t = s.trim();
            let (neg, t) = match t.strip_prefix('-') {
                Some(r) => (true, r),
                None => (false, t),
            };
            let parsed = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
                Some(h) => i64::from_str_radix(h, 16),
                None => t.parse::<i64>(),
            };
            match parsed {
                Ok(x) if x <= u32::MAX as i64 => {
                    if neg {
                        -x
                    } else {
                        x
                    }
                }
                _ => return err(at, format!("`{s}` is not a {bits}-bit integer")),
            }
        }
        other => return err(at, format!("expected an integer, found {other}")),
    };
    if x > max || x < -(1i64 << (bits - 1)) {
        return err(at, format!("{x} does not fit in {bits} bits"));
    }
    Ok((x & max) as u32)
}

/// `{"N": value}` with N in 0..count.
fn indexed<'a>(
    v: &'a Value,
    at: &str,
    count: usize,
) -> Result<Vec<(usize, String, &'a Value)>, StateError> {
    let Value::Object(m) = v else {
        return err(at, "expected an object {\"N\": value}");
    };
    let mut out = Vec::new();
    for (k, val) in m {
        let here = format!("{at}.{k}");
        match crate::statefile::register_key(k).map(|n| n as usize) {
            Some(n) if n < count => out.push((n, here, val)),
            _ => return err(here, format!("index must be 0-{}", count - 1)),
        }
    }
    Ok(out)
}

/// A parsed VP1 state file: the values it names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Vp1StateFile {
    pub variant: Variant,
    /// Every (file, index) the input named, for the output.
    pub named: BTreeSet<(&'static str, usize)>,
    /// The state it describes.
    pub state: Option<Box<State>>,
}

/// The register files of `files`, with their sizes and value widths.
const FILES: &[(&str, usize, u32)] = &[
    ("v", 32, 32),
    ("vc", 4, 32),
    ("sr", 32, 32),
    ("mi", 32, 32),
    ("uc", 32, 32),
    ("a", 32, 32),
    ("l", 4, 16),
    ("m", 64, 32),
    ("d", 8, 32),
    ("f", 2, 32),
    ("x", 16, 32),
];

fn file_slot<'a>(s: &'a mut State, name: &str, i: usize) -> Option<&'a mut u32> {
    match name {
        "vc" => s.vc.get_mut(i),
        "sr" => s.sr.get_mut(i),
        "mi" => s.mi.get_mut(i),
        "uc" => s.uc.get_mut(i),
        "a" => s.a.get_mut(i),
        "m" => s.m.get_mut(i),
        "d" => s.d.get_mut(i),
        "f" => s.f.get_mut(i),
        "x" => s.x.get_mut(i),
        _ => None,
    }
}

fn file_value(s: &State, name: &str, i: usize) -> Option<u32> {
    Some(match name {
        "vc" => *s.vc.get(i)?,
        "sr" => *s.sr.get(i)?,
        "mi" => *s.mi.get(i)?,
        "uc" => *s.uc.get(i)?,
        "a" => *s.a.get(i)?,
        "m" => *s.m.get(i)?,
        "d" => *s.d.get(i)?,
        "f" => *s.f.get(i)?,
        "x" => *s.x.get(i)?,
        "l" => *s.l.get(i)? as u32,
        _ => return None,
    })
}

impl Vp1StateFile {
    /// Parse a state file; errors name the JSON path of the bad value.
    pub fn parse(text: &str) -> Result<Vp1StateFile, StateError> {
        // A whole VP1 state is a few KiB of JSON; refuse before building a tree of more.
        if text.len() > MAX_STATE_TEXT {
            return err(
                "-",
                format!(
                    "{} bytes: a VP1 state file is at most {MAX_STATE_TEXT}",
                    text.len()
                ),
            );
        }
        crate::statefile::refuse_duplicate_keys(text)?;
        let root: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => return err("-", format!("not JSON: {e}")),
        };
        let Value::Object(top) = &root else {
            return err("-", "expected a JSON object");
        };
        let mut out = Vp1StateFile::default();
        let variant = match top.get("variant") {
            None => Variant::G80,
            Some(Value::String(s)) => match s.parse::<Variant>() {
                Ok(v) => v,
                Err(e) => return err("variant", e.to_string()),
            },
            Some(other) => {
                return err(
                    "variant",
                    format!("expected \"g80\" or \"nv41\", found {other}"),
                )
            }
        };
        out.variant = variant;
        let mut s = Box::new(State::new(variant));
        for key in top.keys() {
            if !matches!(key.as_str(), "variant" | "r" | "c" | "files" | "s2v") {
                return err(
                    key.clone(),
                    "unknown key (expected variant, r, c, files, s2v)",
                );
            }
        }
        if let Some(r) = top.get("r") {
            for (n, at, v) in indexed(r, "r", 32)? {
                let x = int(v, &at, 32)?;
                if n == 31 && x != 0 {
                    return err(at, "$r31 is hardwired to 0");
                }
                if let Some(slot) = s.r.get_mut(n) {
                    *slot = x;
                }
                out.named.insert(("r", n));
            }
        }
        if let Some(c) = top.get("c") {
            for (n, at, v) in indexed(c, "c", 4)? {
                let x = int(v, &at, 16)?;
                if let Some(slot) = s.c.get_mut(n) {
                    *slot = x as u16;
                }
                out.named.insert(("c", n));
            }
        }
        s.normalize_c();
        if let Some(files) = top.get("files") {
            let Value::Object(fm) = files else {
                return err("files", "expected an object of register files");
            };
            for (name, v) in fm {
                let at = format!("files.{name}");
                let Some(&(fname, count, bits)) = FILES.iter().find(|(n, _, _)| n == name) else {
                    return err(
                        at,
                        "unknown register file (v, vc, sr, mi, uc, a, l, m, d, f, x)",
                    );
                };
                for (n, here, val) in indexed(v, &at, count)? {
                    match fname {
                        "v" => {
                            let words = match val {
                                Value::Array(a) if a.len() == 4 => {
                                    let mut w = [0u32; 4];
                                    for (i, (slot, x)) in w.iter_mut().zip(a).enumerate() {
                                        *slot = int(x, &format!("{here}[{i}]"), 32)?;
                                    }
                                    w
                                }
                                Value::Array(a) => {
                                    return err(
                                        here,
                                        format!("expected 4 words, found {}", a.len()),
                                    )
                                }
                                x => [int(x, &here, 32)?; 4],
                            };
                            if let Some(slot) = s.v.get_mut(n) {
                                *slot = words;
                            }
                        }
                        "l" => {
                            let x = int(val, &here, 16)?;
                            if let Some(slot) = s.l.get_mut(n) {
                                *slot = x as u16;
                            }
                        }
                        _ => {
                            let x = int(val, &here, bits)?;
                            if let Some(slot) = file_slot(&mut s, fname, n) {
                                *slot = x;
                            }
                        }
                    }
                    out.named.insert((fname, n));
                }
            }
        }
        out.state = Some(s);
        Ok(out)
    }

    /// The state the file describes.
    pub fn build(&self) -> State {
        match &self.state {
            Some(s) => (**s).clone(),
            None => State::new(self.variant),
        }
    }

    /// The final state as JSON (see the module doc), listing what the input named or the
    /// run changed.
    pub fn dump(&self, start: &State, end: &State) -> String {
        let mut o = String::from("{\n");
        let _ = writeln!(o, "  \"variant\": \"{}\",", end.variant);
        let keep = |file: &'static str, n: usize, changed: bool| {
            changed || self.named.contains(&(file, n))
        };
        let r: Vec<String> = (0..31)
            .filter(|&n| keep("r", n, start.r[n] != end.r[n]))
            .map(|n| format!("\"{n}\": {}", end.r[n]))
            .collect();
        let _ = writeln!(o, "  \"r\": {{{}}},", r.join(", "));
        let c: Vec<String> = (0..4).map(|n| format!("\"{n}\": {}", end.c[n])).collect();
        let _ = writeln!(o, "  \"c\": {{{}}},", c.join(", "));
        let mut files = Vec::new();
        for &(name, count, _) in FILES {
            let items: Vec<String> = (0..count)
                .filter_map(|n| {
                    if name == "v" {
                        let (a, b) = (start.v.get(n)?, end.v.get(n)?);
                        keep("v", n, a != b)
                            .then(|| format!("\"{n}\": [{}, {}, {}, {}]", b[0], b[1], b[2], b[3]))
                    } else {
                        let (a, b) = (file_value(start, name, n)?, file_value(end, name, n)?);
                        keep(name, n, a != b).then(|| format!("\"{n}\": {b}"))
                    }
                })
                .collect();
            if !items.is_empty() {
                files.push(format!("    \"{name}\": {{{}}}", items.join(", ")));
            }
        }
        if files.is_empty() {
            o.push_str("  \"files\": {},\n");
        } else {
            let _ = writeln!(o, "  \"files\": {{\n{}\n  }},", files.join(",\n"));
        }
        let b = &end.s2v;
        let _ = writeln!(
            o,
            "  \"s2v\": {{\"factor\": [{}, {}, {}, {}], \"mask\": [{}, {}], \"valid\": {}, \"vcidx\": {}, \"vcflag\": {}, \"vcxfrm\": {}, \"vcmask\": {}}}",
            b.factor[0], b.factor[1], b.factor[2], b.factor[3], b.mask[0], b.mask[1], b.valid, b.vcidx, b.vcflag, b.vcxfrm, b.vcmask
        );
        o.push_str("}\n");
        o
    }
}

/// Parse a dumped state back (for tests and tools): the JSON as a map.
pub fn parse_json(text: &str) -> Option<Map<String, Value>> {
    match serde_json::from_str(text) {
        Ok(Value::Object(m)) => Some(m),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_and_dumps_named_and_changed() {
        // mov $r2 0x1; add $r3 $c1 $r2 $r2 -> r3 = 2, c1 = 0x8000 (no flags set by 2).
        let code =
            wavejit_isa::vp1::asm::assemble_bytes("mov $r2 0x1\nadd $r3 $c1 $r2 $r2\nmov $a5 $r3")
                .unwrap();
        let input = r#"{"r": {"7": "0x10"}, "c": {"1": 255}, "files": {"m": {"3": -1}}}"#;
        let out = run_vp1(&code, Some(input), Engine::Interp).unwrap();
        // Every engine gives the same answer.
        for (_, e) in Engine::ALL {
            assert_eq!(run_vp1(&code, Some(input), *e).unwrap(), out, "{e}");
        }
        assert_eq!(out.insts, 3);
        let v: Value = serde_json::from_str(&out.json).unwrap();
        assert_eq!(v["r"], serde_json::json!({"2": 1, "3": 2, "7": 16}));
        // $c1 was 0x80ff, the add wrote its flags (none): 0x8000; the mov's CDST 0 zeroed $c0.
        assert_eq!(
            v["c"],
            serde_json::json!({"0": 0x8000, "1": 0x8000, "2": 0x8000, "3": 0x8000})
        );
        assert_eq!(
            v["files"],
            serde_json::json!({"a": {"5": 2}, "m": {"3": 0xffff_ffffu32}})
        );
        assert_eq!(v["variant"], "g80");
        // mov $a5 $r3 drives the default factors from $r3 = 0b10: mask 0x00f0.
        assert_eq!(v["s2v"]["factor"], serde_json::json!([0x1e0, 0, 0, 0]));
        // The output is an input that rebuilds the same state.
        let again = Vp1StateFile::parse(&out.json).unwrap().build();
        assert_eq!((again.r[3], again.a[5], again.m[3]), (2, 2, 0xffff_ffff));
    }

    #[test]
    fn hostile_state_files_are_refused_with_their_path() {
        for (text, at) in [
            ("[1]", "-"),
            ("{\"r\": {\"32\": 1}}", "r.32"),
            ("{\"r\": {\"31\": 1}}", "r.31"),
            ("{\"r\": {\"3\": 4294967296}}", "r.3"),
            ("{\"c\": {\"0\": 65536}}", "c.0"),
            ("{\"files\": {\"q\": {}}}", "files.q"),
            ("{\"files\": {\"v\": {\"1\": [1, 2]}}}", "files.v.1"),
            ("{\"files\": {\"l\": {\"4\": 1}}}", "files.l.4"),
            ("{\"variant\": \"nv99\"}", "variant"),
            ("{\"regs\": 1}", "regs"),
            ("{\"r\": {\"01\": 1}}", "r.01"),
            ("{\"r\": {\"+1\": 1}}", "r.+1"),
        ] {
            let e = Vp1StateFile::parse(text).expect_err(text);
            assert_eq!(e.at, at, "{text}: {e}");
        }
    }

    #[test]
    fn other_units_fail_with_their_pc() {
        let code = [0x00, 0x00, 0x00, 0x4f, 0x00, 0x00, 0x00, 0xe0];
        match run_vp1(&code, None, Engine::Interp) {
            Err(Error::Exec(e)) => assert_eq!(e.pc, 4),
            other => panic!("{other:?}"),
        }
    }
}
