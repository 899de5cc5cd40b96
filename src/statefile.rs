//! The JSON state file of `wavejit run`: the registers, LDS and memory a wave starts with,
//! and — in the same schema — what it ended with.
//!
//! ```json
//! {"exec": u64, "vcc": u64, "scc": 0|1, "m0": u32, "mode": u32,
//!  "sgpr": {"N": u32},
//!  "vgpr": {"N": [64 × u32] | u32 (every lane) | "lane" (the lane number)},
//!  "lds": {"BYTE_OFFSET": [u32, …]},
//!  "memory": [{"addr": u64, "dwords": [u32, …]}]}
//! ```
//!
//! Every key is optional. Input integers are JSON numbers or strings (`"0x1f"`, `"31"`); a
//! negative number is taken as its two's complement in the field's width (`"exec": -1`).
//! Defaults: EXEC all ones, MODE 0xC0 (the hardware default, ERRATA.md VOP3 4), every
//! other register, the 64 KiB of LDS and SCC 0. `sgpr` keys are 0-123 (the trap
//! registers included) except 106/107 (VCC has its own key). Each `memory` entry maps
//! `4 × len(dwords)` bytes at a dword-aligned `addr`; entries may not overlap. Only mapped
//! memory is accessible.
//!
//! The output lists EXEC, VCC, SCC, M0 and MODE, every SGPR, VGPR and LDS dword the input
//! named or whose value the run changed (a write of the value already there is invisible
//! from outside), and every memory entry of the input with its final contents. Output
//! integers are JSON numbers.
//!
//! Hostile files are refused with an error naming the place (`vgpr.7[3]`): wrong types,
//! out-of-range registers and values, misaligned or overlapping regions, more than
//! `MAX_MEMORY_BYTES` of memory, LDS past 64 KiB. Nothing is allocated before its size
//! has been checked.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde_json::Value;
use wavejit_isa::state::{Lds, Memory, Wave, LANES, NUM_VGPRS};
use wavejit_isa::Gen;

/// Most bytes of global memory a state file may map.
pub const MAX_MEMORY_BYTES: u64 = 1 << 28;
/// Highest `sgpr` key (TTMP11).
const MAX_SGPR: u32 = 123;

/// A state file that cannot be used: where and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("state file: {at}: {msg}")]
pub struct StateError {
    /// The JSON path of the offending value, e.g. `vgpr.3[7]` (`-` for the whole file).
    pub at: String,
    pub msg: String,
}

fn err<T>(at: impl Into<String>, msg: impl Into<String>) -> Result<T, StateError> {
    Err(StateError {
        at: at.into(),
        msg: msg.into(),
    })
}

/// How a VGPR starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VgprInit {
    Lanes(Box<[u32; LANES]>),
    Broadcast(u32),
    /// Each lane holds its lane number.
    LaneId,
}

impl VgprInit {
    fn lanes(&self) -> [u32; LANES] {
        match self {
            VgprInit::Lanes(l) => **l,
            VgprInit::Broadcast(v) => [*v; LANES],
            VgprInit::LaneId => std::array::from_fn(|l| l as u32),
        }
    }
}

/// A parsed state file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StateFile {
    pub exec: Option<u64>,
    pub vcc: Option<u64>,
    pub scc: Option<u32>,
    pub m0: Option<u32>,
    pub mode: Option<u32>,
    pub sgpr: BTreeMap<u8, u32>,
    pub vgpr: BTreeMap<u8, VgprInit>,
    /// (byte offset, dwords), offsets dword-aligned, inside the LDS.
    pub lds: Vec<(u32, Vec<u32>)>,
    /// (address, dwords), sorted by address, disjoint.
    pub memory: Vec<(u64, Vec<u32>)>,
}

/// The state a wave runs in.
pub struct Machine {
    pub wave: Box<Wave>,
    pub lds: Lds,
    pub mem: Memory,
}

/// An integer of `bits` (32 or 64) from a JSON number or string.
fn int(v: &Value, at: &str, bits: u32) -> Result<u64, StateError> {
    let max = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let min_neg = -(1i128 << (bits - 1));
    let from_i128 = |x: i128| -> Result<u64, StateError> {
        if x < min_neg || x > max as i128 {
            return err(at, format!("{x} does not fit in {bits} bits"));
        }
        Ok((x as u64) & max)
    };
    match v {
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                from_i128(u as i128)
            } else if let Some(i) = n.as_i64() {
                from_i128(i as i128)
            } else {
                err(at, format!("{n} is not an integer"))
            }
        }
        Value::String(s) => {
            let t = s.trim();
            let (neg, t) = match t.strip_prefix('-') {
                Some(r) => (true, r),
                None => (false, t),
            };
            let parsed = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
                Some(h) => u64::from_str_radix(h, 16),
                None => t.parse::<u64>(),
            };
            match parsed {
                Ok(u) => from_i128(if neg { -(u as i128) } else { u as i128 }),
                Err(_) => err(at, format!("\"{s}\" is not an integer (decimal or 0x hex)")),
            }
        }
        other => err(at, format!("expected an integer, found {}", kind(other))),
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A register number from an object key.
fn key_index(k: &str, at: &str, max: u32) -> Result<u32, StateError> {
    match k.trim().parse::<u32>() {
        Ok(n) if n <= max => Ok(n),
        _ => err(format!("{at}.{k}"), format!("key must be a number 0-{max}")),
    }
}

fn dwords(v: &Value, at: &str, max_len: u64) -> Result<Vec<u32>, StateError> {
    let Value::Array(a) = v else {
        return err(
            at,
            format!("expected an array of dwords, found {}", kind(v)),
        );
    };
    if a.len() as u64 > max_len {
        return err(
            at,
            format!("{} dwords is more than the {max_len} allowed here", a.len()),
        );
    }
    a.iter()
        .enumerate()
        .map(|(i, x)| int(x, &format!("{at}[{i}]"), 32).map(|u| u as u32))
        .collect()
}

impl StateFile {
    /// Parse the text of a state file.
    pub fn parse(text: &str) -> Result<StateFile, StateError> {
        let root: Value = serde_json::from_str(text).map_err(|e| StateError {
            at: format!("line {}, column {}", e.line(), e.column()),
            msg: e.to_string(),
        })?;
        let Value::Object(obj) = root else {
            return err(
                "-",
                format!("expected a JSON object, found {}", kind(&root)),
            );
        };
        let mut sf = StateFile::default();
        for (k, v) in &obj {
            match k.as_str() {
                "exec" => sf.exec = Some(int(v, k, 64)?),
                "vcc" => sf.vcc = Some(int(v, k, 64)?),
                "m0" => sf.m0 = Some(int(v, k, 32)? as u32),
                "mode" => sf.mode = Some(int(v, k, 32)? as u32),
                "scc" => match int(v, k, 32)? {
                    x @ (0 | 1) => sf.scc = Some(x as u32),
                    x => return err(k, format!("SCC is 0 or 1, not {x}")),
                },
                "sgpr" => sf.sgpr = Self::parse_sgprs(v)?,
                "vgpr" => sf.vgpr = Self::parse_vgprs(v)?,
                "lds" => sf.lds = Self::parse_lds(v)?,
                "memory" => sf.memory = Self::parse_memory(v)?,
                _ => {
                    return err(
                        k.as_str(),
                        "unknown key (expected exec, vcc, scc, m0, mode, sgpr, vgpr, lds, memory)",
                    )
                }
            }
        }
        Ok(sf)
    }

    fn parse_sgprs(v: &Value) -> Result<BTreeMap<u8, u32>, StateError> {
        let Value::Object(o) = v else {
            return err(
                "sgpr",
                format!("expected an object {{\"N\": value}}, found {}", kind(v)),
            );
        };
        let mut out = BTreeMap::new();
        for (k, x) in o {
            let n = key_index(k, "sgpr", MAX_SGPR)?;
            if n == 106 || n == 107 {
                return err(format!("sgpr.{k}"), "106/107 are VCC: use the \"vcc\" key");
            }
            out.insert(n as u8, int(x, &format!("sgpr.{k}"), 32)? as u32);
        }
        Ok(out)
    }

    fn parse_vgprs(v: &Value) -> Result<BTreeMap<u8, VgprInit>, StateError> {
        let Value::Object(o) = v else {
            return err(
                "vgpr",
                format!("expected an object {{\"N\": value}}, found {}", kind(v)),
            );
        };
        let mut out = BTreeMap::new();
        for (k, x) in o {
            let n = key_index(k, "vgpr", NUM_VGPRS as u32 - 1)?;
            let at = format!("vgpr.{k}");
            let init = match x {
                Value::String(s) if s == "lane" => VgprInit::LaneId,
                Value::Array(a) => {
                    if a.len() != LANES {
                        return err(
                            at,
                            format!("a VGPR has {LANES} lanes, the array has {}", a.len()),
                        );
                    }
                    let d = dwords(x, &at, LANES as u64)?;
                    let mut lanes = Box::new([0u32; LANES]);
                    lanes.copy_from_slice(&d);
                    VgprInit::Lanes(lanes)
                }
                _ => VgprInit::Broadcast(int(x, &at, 32)? as u32),
            };
            out.insert(n as u8, init);
        }
        Ok(out)
    }

    fn parse_lds(v: &Value) -> Result<Vec<(u32, Vec<u32>)>, StateError> {
        let Value::Object(o) = v else {
            return err(
                "lds",
                format!(
                    "expected an object {{\"BYTE_OFFSET\": [dwords]}}, found {}",
                    kind(v)
                ),
            );
        };
        let mut out = Vec::new();
        for (k, x) in o {
            let at = format!("lds.{k}");
            let off = key_index(k, "lds", Lds::MAX as u32 - 1)?;
            if off % 4 != 0 {
                return err(at, "LDS offsets must be multiples of 4");
            }
            let room = (Lds::MAX as u64 - off as u64) / 4;
            let d = dwords(x, &at, room)?;
            out.push((off, d));
        }
        Ok(out)
    }

    fn parse_memory(v: &Value) -> Result<Vec<(u64, Vec<u32>)>, StateError> {
        let Value::Array(a) = v else {
            return err(
                "memory",
                format!(
                    "expected an array of {{\"addr\", \"dwords\"}}, found {}",
                    kind(v)
                ),
            );
        };
        let mut out: Vec<(u64, Vec<u32>)> = Vec::new();
        let mut total = 0u64;
        for (i, e) in a.iter().enumerate() {
            let at = format!("memory[{i}]");
            let Value::Object(o) = e else {
                return err(
                    at,
                    format!(
                        "expected an object {{\"addr\", \"dwords\"}}, found {}",
                        kind(e)
                    ),
                );
            };
            if let Some(k) = o.keys().find(|k| *k != "addr" && *k != "dwords") {
                return err(format!("{at}.{k}"), "unknown key (expected addr, dwords)");
            }
            let addr = int(
                o.get("addr").unwrap_or(&Value::Null),
                &format!("{at}.addr"),
                64,
            )?;
            if addr % 4 != 0 {
                return err(
                    format!("{at}.addr"),
                    format!("0x{addr:x} is not dword-aligned"),
                );
            }
            let room = (MAX_MEMORY_BYTES - total) / 4;
            let d = dwords(
                o.get("dwords").unwrap_or(&Value::Null),
                &format!("{at}.dwords"),
                room,
            )?;
            if d.is_empty() {
                return err(
                    format!("{at}.dwords"),
                    "a memory region needs at least one dword",
                );
            }
            let len = 4 * d.len() as u64;
            if addr.checked_add(len).is_none() {
                return err(
                    format!("{at}.addr"),
                    format!("0x{addr:x} + {len} bytes wraps past 2^64"),
                );
            }
            total += len;
            out.push((addr, d));
        }
        out.sort_by_key(|r| r.0);
        for p in out.windows(2) {
            let (a, b) = (&p[0], &p[1]);
            if a.0 + 4 * a.1.len() as u64 > b.0 {
                return err(
                    "memory",
                    format!("regions at 0x{:x} and 0x{:x} overlap", a.0, b.0),
                );
            }
        }
        Ok(out)
    }

    /// The wave, LDS and memory this file describes, on generation `gen`.
    pub fn build(&self, gen: Gen) -> Result<Machine, StateError> {
        let mut wave = Wave::new(gen);
        if let Some(x) = self.exec {
            wave.exec = x;
        }
        if let Some(x) = self.vcc {
            wave.vcc = x;
        }
        if let Some(x) = self.scc {
            wave.scc = x;
        }
        if let Some(x) = self.m0 {
            wave.m0 = x;
        }
        if let Some(x) = self.mode {
            wave.mode = x;
        }
        for (&n, &v) in &self.sgpr {
            wave.write_sreg(n, v);
        }
        for (&n, init) in &self.vgpr {
            wave.vgpr[n as usize] = init.lanes();
        }
        let mut lds = Lds::new(Lds::MAX);
        for (off, d) in &self.lds {
            for (i, v) in d.iter().enumerate() {
                lds.write_u32(off + 4 * i as u32, *v)
                    .map_err(|f| StateError {
                        at: format!("lds.{off}"),
                        msg: f.to_string(),
                    })?;
            }
        }
        let mut mem = Memory::new();
        for (addr, d) in &self.memory {
            let bytes: Vec<u8> = d.iter().flat_map(|w| w.to_le_bytes()).collect();
            mem.map_bytes(*addr, &bytes).map_err(|f| StateError {
                at: format!("memory 0x{addr:x}"),
                msg: f.to_string(),
            })?;
        }
        Ok(Machine { wave, lds, mem })
    }

    /// The output state file of a run that started from `start` (as `build` made it) and
    /// ended in `end`.
    pub fn dump(&self, start: &Machine, end: &Machine) -> String {
        let (w0, w) = (&*start.wave, &*end.wave);
        let mut o = String::from("{\n");
        let _ = writeln!(o, "  \"exec\": {},", w.exec);
        let _ = writeln!(o, "  \"vcc\": {},", w.vcc);
        let _ = writeln!(o, "  \"scc\": {},", w.scc);
        let _ = writeln!(o, "  \"m0\": {},", w.m0);
        let _ = writeln!(o, "  \"mode\": {},", w.mode);

        let sgprs: Vec<u8> = (0..=MAX_SGPR as u8)
            .filter(|&n| n != 106 && n != 107)
            .filter(|n| self.sgpr.contains_key(n) || w.read_sreg(*n) != w0.read_sreg(*n))
            .collect();
        let items: Vec<String> = sgprs
            .iter()
            .map(|&n| format!("\"{n}\": {}", w.read_sreg(n)))
            .collect();
        let _ = writeln!(o, "  \"sgpr\": {{{}}},", items.join(", "));

        let vgprs: Vec<usize> = (0..NUM_VGPRS)
            .filter(|&n| self.vgpr.contains_key(&(n as u8)) || w.vgpr[n] != w0.vgpr[n])
            .collect();
        let items: Vec<String> = vgprs
            .iter()
            .map(|&n| format!("    \"{n}\": {}", list(&w.vgpr[n])))
            .collect();
        if items.is_empty() {
            o.push_str("  \"vgpr\": {},\n");
        } else {
            let _ = writeln!(o, "  \"vgpr\": {{\n{}\n  }},", items.join(",\n"));
        }

        // LDS: named dwords and changed dwords, as runs of consecutive dwords.
        let mut lds_words: BTreeSet<u32> = BTreeSet::new();
        for (off, d) in &self.lds {
            lds_words.extend((0..d.len() as u32).map(|i| off / 4 + i));
        }
        let (b0, b1) = (&start.lds.bytes, &end.lds.bytes);
        for (i, (c0, c1)) in b0.chunks_exact(4).zip(b1.chunks_exact(4)).enumerate() {
            if c0 != c1 {
                lds_words.insert(i as u32);
            }
        }
        let mut runs: Vec<(u32, Vec<u32>)> = Vec::new();
        for &i in &lds_words {
            let v = end.lds.read_u32(4 * i).unwrap_or(0);
            match runs.last_mut() {
                Some((first, d)) if *first / 4 + d.len() as u32 == i => d.push(v),
                _ => runs.push((4 * i, vec![v])),
            }
        }
        let items: Vec<String> = runs
            .iter()
            .map(|(off, d)| format!("    \"{off}\": {}", list(d)))
            .collect();
        if items.is_empty() {
            o.push_str("  \"lds\": {},\n");
        } else {
            let _ = writeln!(o, "  \"lds\": {{\n{}\n  }},", items.join(",\n"));
        }

        let items: Vec<String> = self
            .memory
            .iter()
            .map(|(addr, d)| {
                let now: Vec<u32> = (0..d.len() as u64)
                    .map(|i| end.mem.read_u32(addr + 4 * i).unwrap_or(0))
                    .collect();
                format!("    {{\"addr\": {addr}, \"dwords\": {}}}", list(&now))
            })
            .collect();
        if items.is_empty() {
            o.push_str("  \"memory\": []\n");
        } else {
            let _ = writeln!(o, "  \"memory\": [\n{}\n  ]", items.join(",\n"));
        }
        o.push_str("}\n");
        o
    }
}

fn list(d: &[u32]) -> String {
    let items: Vec<String> = d.iter().map(|v| v.to_string()).collect();
    format!("[{}]", items.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bad(text: &str) -> StateError {
        match StateFile::parse(text) {
            Ok(_) => panic!("accepted {text}"),
            Err(e) => e,
        }
    }

    #[test]
    fn integers_in_every_spelling() {
        let sf = StateFile::parse(
            r#"{"exec": "0xffff", "vcc": -1, "m0": "17", "mode": 0, "scc": 1,
                "sgpr": {"3": "0x80000000", "104": -2}}"#,
        )
        .unwrap();
        assert_eq!(sf.exec, Some(0xffff));
        assert_eq!(sf.vcc, Some(u64::MAX));
        assert_eq!((sf.m0, sf.mode, sf.scc), (Some(17), Some(0), Some(1)));
        assert_eq!(sf.sgpr[&3], 0x8000_0000);
        assert_eq!(sf.sgpr[&104], 0xffff_fffe);
    }

    #[test]
    fn vgpr_forms() {
        let lanes: Vec<String> = (0..64).map(|i| (i * 3).to_string()).collect();
        let text = format!(
            r#"{{"vgpr": {{"0": [{}], "1": 7, "2": "lane", "3": "0x10"}}}}"#,
            lanes.join(",")
        );
        let m = StateFile::parse(&text).unwrap().build(Gen::Gfx8).unwrap();
        assert_eq!(m.wave.vgpr[0][63], 189);
        assert_eq!(m.wave.vgpr[1], [7; 64]);
        assert_eq!(m.wave.vgpr[2][40], 40);
        assert_eq!(m.wave.vgpr[3][0], 16);
        assert_eq!(m.wave.exec, u64::MAX, "default EXEC");
        assert_eq!(m.wave.mode, 0xc0, "default MODE");
    }

    #[test]
    fn refusals_name_the_place() {
        assert_eq!(bad(r#"{"vgpr": {"0": [1, 2]}}"#).at, "vgpr.0");
        assert_eq!(bad(r#"{"vgpr": {"256": 1}}"#).at, "vgpr.256");
        assert_eq!(bad(r#"{"sgpr": {"106": 1}}"#).at, "sgpr.106");
        assert_eq!(bad(r#"{"sgpr": {"x": 1}}"#).at, "sgpr.x");
        assert_eq!(bad(r#"{"sgpr": {"1": 4294967296}}"#).at, "sgpr.1");
        assert_eq!(bad(r#"{"sgpr": {"1": 1.5}}"#).at, "sgpr.1");
        assert_eq!(bad(r#"{"sgpr": {"1": true}}"#).at, "sgpr.1");
        assert_eq!(bad(r#"{"m0": -2147483649}"#).at, "m0");
        assert_eq!(bad(r#"{"exec": 1e30}"#).at, "exec");
        assert_eq!(bad(r#"{"exec": "0xfffffffffffffffff"}"#).at, "exec");
        assert_eq!(bad(r#"{"scc": 2}"#).at, "scc");
        assert_eq!(bad(r#"{"regs": {}}"#).at, "regs");
        assert_eq!(bad(r#"[1, 2]"#).at, "-");
        assert!(bad(r#"{"exec": "#).at.starts_with("line 1"));
        assert_eq!(bad(r#"{"lds": {"2": [1]}}"#).at, "lds.2");
        assert_eq!(bad(r#"{"lds": {"65532": [1, 2]}}"#).at, "lds.65532");
        assert_eq!(bad(r#"{"lds": {"65536": [1]}}"#).at, "lds.65536");
        assert_eq!(
            bad(r#"{"memory": [{"addr": 2, "dwords": [1]}]}"#).at,
            "memory[0].addr"
        );
        assert_eq!(
            bad(r#"{"memory": [{"addr": 0, "dwords": []}]}"#).at,
            "memory[0].dwords"
        );
        assert_eq!(bad(r#"{"memory": [{"addr": 0}]}"#).at, "memory[0].dwords");
        assert_eq!(
            bad(r#"{"memory": [{"addr": 0, "dwords": [1], "x": 0}]}"#).at,
            "memory[0].x"
        );
        assert_eq!(
            bad(r#"{"memory": [{"addr": "0xfffffffffffffffc", "dwords": [1, 2]}]}"#).at,
            "memory[0].addr"
        );
        let e =
            bad(r#"{"memory": [{"addr": 16, "dwords": [1]}, {"addr": 8, "dwords": [1, 2, 3]}]}"#);
        assert_eq!(e.at, "memory");
        assert!(e.msg.contains("overlap"), "{e}");
        // Deep nesting is refused by the JSON parser's recursion limit, not a stack overflow.
        let deep = format!(
            "{{\"exec\": {}1{}}}",
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        assert!(StateFile::parse(&deep).is_err());
    }

    #[test]
    fn dump_lists_named_and_changed() {
        let sf = StateFile::parse(
            r#"{"sgpr": {"5": 1}, "vgpr": {"3": 0}, "lds": {"8": [1, 2]},
                "memory": [{"addr": 4096, "dwords": [10, 20]}]}"#,
        )
        .unwrap();
        let start = sf.build(Gen::Gfx8).unwrap();
        let mut end = sf.build(Gen::Gfx8).unwrap();
        end.wave.sgpr[9] = 4;
        end.wave.vgpr[7][63] = 1;
        end.lds.write_u32(16, 3).unwrap();
        end.lds.write_u32(100, 9).unwrap();
        end.mem.write_u32(4100, 21).unwrap();
        let text = sf.dump(&start, &end);
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["sgpr"], serde_json::json!({"5": 1, "9": 4}));
        assert_eq!(
            v["vgpr"].as_object().unwrap().keys().collect::<Vec<_>>(),
            ["3", "7"]
        );
        assert_eq!(v["vgpr"]["7"][63], 1);
        assert_eq!(v["lds"], serde_json::json!({"8": [1, 2, 3], "100": [9]}));
        assert_eq!(
            v["memory"],
            serde_json::json!([{"addr": 4096, "dwords": [10, 21]}])
        );
        assert_eq!(v["exec"], u64::MAX);
        // The output is a valid input that rebuilds the same state.
        let again = StateFile::parse(&text).unwrap().build(Gen::Gfx8).unwrap();
        assert_eq!(again.wave.vgpr[7][63], 1);
        assert_eq!(again.lds.read_u32(100).unwrap(), 9);
    }
}
