//! `--format u32|i32|hex|f32|f16x2`: how register and memory words are shown to a person.
//! The JSON a run writes stays exact (unsigned integers); this is a second, readable view
//! of the same final state.

use std::fmt::Write as _;
use std::str::FromStr;

use serde_json::Value;

/// How one 32-bit word is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    U32,
    I32,
    Hex,
    F32,
    F16x2,
}

impl FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
        Ok(match s {
            "u32" => Format::U32,
            "i32" => Format::I32,
            "hex" => Format::Hex,
            "f32" => Format::F32,
            "f16x2" => Format::F16x2,
            _ => return Err(format!("`{s}`: expected u32, i32, hex, f32 or f16x2")),
        })
    }
}

/// A float as Rust prints it shortest-exact (`1.0`, `-0.0`, `inf`); a NaN with its bits.
fn float(x: f32, bits: u32) -> String {
    if x.is_nan() {
        format!("nan(0x{bits:08x})")
    } else {
        format!("{x:?}")
    }
}

fn half(bits: u16) -> String {
    let x = half::f16::from_bits(bits);
    if x.is_nan() {
        format!("nan(0x{bits:04x})")
    } else {
        format!("{:?}", x.to_f32())
    }
}

impl Format {
    /// `w` in this view.
    pub fn word(self, w: u32) -> String {
        match self {
            Format::U32 => w.to_string(),
            Format::I32 => (w as i32).to_string(),
            Format::Hex => format!("0x{w:08x}"),
            Format::F32 => float(f32::from_bits(w), w),
            Format::F16x2 => format!("({}, {})", half(w as u16), half((w >> 16) as u16)),
        }
    }
}

fn words(f: Format, v: &Value) -> String {
    let items: Vec<String> = v
        .as_array()
        .into_iter()
        .flatten()
        .map(|x| f.word(x.as_u64().unwrap_or(0) as u32))
        .collect();
    format!("[{}]", items.join(", "))
}

/// Numeric keys of a JSON object, in numeric order.
fn sorted(v: &Value) -> Vec<(u64, &Value)> {
    let mut out: Vec<(u64, &Value)> = v
        .as_object()
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| Some((k.parse().ok()?, v)))
        .collect();
    out.sort_by_key(|(k, _)| *k);
    out
}

/// The readable view of a state file's JSON (as `StateFile::dump` writes it).
pub fn state(f: Format, json: &str) -> Result<String, String> {
    let v: Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "exec 0x{:016x}  vcc 0x{:016x}  scc {}  m0 0x{:x}  mode 0x{:x}",
        v["exec"].as_u64().unwrap_or(0),
        v["vcc"].as_u64().unwrap_or(0),
        v["scc"],
        v["m0"].as_u64().unwrap_or(0),
        v["mode"].as_u64().unwrap_or(0),
    );
    for (n, x) in sorted(&v["sgpr"]) {
        let _ = writeln!(s, "s{n} = {}", f.word(x.as_u64().unwrap_or(0) as u32));
    }
    for (n, x) in sorted(&v["vgpr"]) {
        let _ = writeln!(s, "v{n} = {}", words(f, x));
    }
    for (off, x) in sorted(&v["lds"]) {
        let _ = writeln!(s, "lds[0x{off:x}] = {}", words(f, x));
    }
    for m in v["memory"].as_array().into_iter().flatten() {
        let _ = writeln!(
            s,
            "mem[0x{:x}] = {}",
            m["addr"].as_u64().unwrap_or(0),
            words(f, &m["dwords"])
        );
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_by_hand() {
        // 0x3f800000 is 1.0f; 0xbf800000 is -1.0f and -1082130432 as i32; 0x3c00 is 1.0
        // in f16 and 0xc000 is -2.0.
        assert_eq!(Format::F32.word(0x3f80_0000), "1.0");
        assert_eq!(Format::F32.word(0x8000_0000), "-0.0");
        assert_eq!(Format::F32.word(0x7f80_0000), "inf");
        assert_eq!(Format::F32.word(0x7fc0_0001), "nan(0x7fc00001)");
        assert_eq!(Format::I32.word(0xbf80_0000), "-1082130432");
        assert_eq!(Format::U32.word(0xbf80_0000), "3212836864");
        assert_eq!(Format::Hex.word(0x3f80_0000), "0x3f800000");
        assert_eq!(Format::F16x2.word(0xc000_3c00), "(1.0, -2.0)");
        assert_eq!(Format::F16x2.word(0x7e01_0000), "(0.0, nan(0x7e01))");
        assert_eq!(
            "f64".parse::<Format>(),
            Err("`f64`: expected u32, i32, hex, f32 or f16x2".to_string())
        );
    }
}
