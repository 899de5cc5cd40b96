//! The JSON state file of `wavejit run`: the registers, LDS and memory a wave starts with,
//! and — in the same schema — what it ended with.
//!
//! ```json
//! {"exec": u64, "vcc": u64, "scc": 0|1, "m0": u32, "mode": u32, "code_base": u64,
//!  "sgpr": {"N": u32},
//!  "vgpr": {"N": [64 × u32] | u32 (every lane) | "lane" (the lane number)},
//!  "lds": {"BYTE_OFFSET": [u32, …]},
//!  "memory": [{"addr": u64, "dwords": [u32, …]}]}
//! ```
//!
//! Every key is optional. Input integers are JSON numbers or strings (`"0x1f"`, `"31"`); a
//! negative number is taken as its two's complement in the field's width (`"exec": -1`).
//! Defaults: EXEC all ones, MODE 0xC0 (the hardware default, ERRATA.md VOP3 4), every
//! other register, the 64 KiB of LDS and SCC 0. `code_base` is the address the program's
//! first byte is at (default 0): `s_getpc_b64` returns it plus the next instruction's
//! offset, and `s_setpc_b64`/`s_swappc_b64` subtract it from their target. `sgpr` keys are 0-123 (the trap
//! registers included) except 106/107 (VCC has its own key). Each `memory` entry maps
//! `4 × len(dwords)` bytes at a dword-aligned `addr`; entries may not overlap. Only mapped
//! memory is accessible.
//!
//! The output lists EXEC, VCC, SCC, M0, MODE (and `code_base` when the input gave it), every SGPR, VGPR and LDS dword the input
//! named or whose value the run changed (a write of the value already there is invisible
//! from outside), and every memory entry of the input with its final contents. Output
//! integers are JSON numbers.
//!
//! Hostile files are refused with an error naming the place (`vgpr.7[3]`): wrong types,
//! out-of-range registers and values, misaligned or overlapping regions, more than
//! `MAX_MEMORY_BYTES` of memory, LDS past 64 KiB. Nothing is allocated before its size
//! has been checked.

pub mod vp1;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use std::cell::{Cell, RefCell};
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
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
    pub code_base: Option<u64>,
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

/// Parsing streams through the JSON with serde visitors (no `serde_json::Value` tree), so a
/// huge array is refused at the element that passes its limit instead of being built
/// first. The first refusal is kept here with its JSON path; serde only carries a marker.
struct Ctx {
    fail: RefCell<Option<StateError>>,
    /// Bytes of memory regions still allowed.
    memory_left: Cell<u64>,
}

impl Ctx {
    fn fail<E: de::Error>(&self, at: impl Into<String>, msg: impl Into<String>) -> E {
        let mut f = self.fail.borrow_mut();
        if f.is_none() {
            // Keys and values come from the file: never repeat a huge one whole.
            *f = Some(StateError {
                at: elide(&at.into(), MAX_QUOTE),
                msg: elide(&msg.into(), 4 * MAX_QUOTE),
            });
        }
        E::custom("state file refused")
    }
}

/// What a JSON value is, for messages.
fn kind(u: de::Unexpected<'_>) -> String {
    match u {
        de::Unexpected::Seq => "an array".into(),
        de::Unexpected::Map => "an object".into(),
        de::Unexpected::Bool(_) => "a boolean".into(),
        de::Unexpected::Unit => "null".into(),
        de::Unexpected::Str(s) => format!("the string \"{s}\""),
        de::Unexpected::Float(f) => format!("the number {f}"),
        other => other.to_string(),
    }
}

/// Generates the `visit_*` methods of a visitor that accepts none of bool, null, map and
/// (unless the visitor overrides it) sequence, refusing each with the path.
macro_rules! refuse_others {
    ($want:expr) => {
        fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
            Err(self.cx.fail(
                self.at.as_str(),
                format!(
                    "expected {}, found {}",
                    $want,
                    kind(de::Unexpected::Bool(v))
                ),
            ))
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Err(self
                .cx
                .fail(self.at.as_str(), format!("expected {}, found null", $want)))
        }
        fn visit_map<A: MapAccess<'de>>(self, _m: A) -> Result<Self::Value, A::Error> {
            Err(self.cx.fail(
                self.at.as_str(),
                format!("expected {}, found an object", $want),
            ))
        }
    };
}

/// An integer of `bits` (32 or 64): a JSON number, or a string in decimal or `0x` hex; a
/// negative value is its two's complement in that width.
struct Int<'c> {
    cx: &'c Ctx,
    at: String,
    bits: u32,
}

impl Int<'_> {
    fn check<E: de::Error>(&self, x: i128) -> Result<u64, E> {
        let max = if self.bits == 64 {
            u64::MAX
        } else {
            (1u64 << self.bits) - 1
        };
        let min = -(1i128 << (self.bits - 1));
        if x < min || x > max as i128 {
            return Err(self.cx.fail(
                self.at.as_str(),
                format!("{x} does not fit in {} bits", self.bits),
            ));
        }
        Ok((x as u64) & max)
    }
}

impl<'de> DeserializeSeed<'de> for Int<'_> {
    type Value = u64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<u64, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Int<'_> {
    type Value = u64;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an integer")
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<u64, E> {
        self.check(v as i128)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<u64, E> {
        self.check(v as i128)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<u64, E> {
        // JSON integers past 64 bits reach here rounded to a float: say so rather than
        // print the rounded value as if the file had it.
        let msg = if v.is_finite() && v.fract() == 0.0 && v.abs() >= 9.2e18 {
            format!(
                "a number past 64 bits (about {v:e}); at most {} bits here, or a \"0x…\" string",
                self.bits
            )
        } else {
            format!("{v} is not an integer")
        };
        Err(self.cx.fail(self.at.as_str(), msg))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<u64, E> {
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
            Ok(u) => self.check(if neg { -(u as i128) } else { u as i128 }),
            Err(_) => Err(self.cx.fail(
                self.at.as_str(),
                format!("\"{s}\" is not an integer (decimal or 0x hex)"),
            )),
        }
    }
    fn visit_seq<A: SeqAccess<'de>>(self, _s: A) -> Result<u64, A::Error> {
        Err(self
            .cx
            .fail(self.at.as_str(), "expected an integer, found an array"))
    }
    refuse_others!("an integer");
}

/// An array of at most `max` dwords.
struct Dwords<'c> {
    cx: &'c Ctx,
    at: String,
    max: u64,
}

impl<'de> DeserializeSeed<'de> for Dwords<'_> {
    type Value = Vec<u32>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<u32>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Dwords<'_> {
    type Value = Vec<u32>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of dwords")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Vec<u32>, A::Error> {
        let mut out = Vec::with_capacity(s.size_hint().unwrap_or(0).min(1024));
        loop {
            let at = format!("{}[{}]", self.at, out.len());
            let Some(v) = s.next_element_seed(Int {
                cx: self.cx,
                at,
                bits: 32,
            })?
            else {
                return Ok(out);
            };
            if out.len() as u64 >= self.max {
                return Err(self.cx.fail(
                    self.at.as_str(),
                    format!("more than the {} dwords allowed here", self.max),
                ));
            }
            out.push(v as u32);
        }
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Err(self.cx.fail(
            self.at.as_str(),
            format!("expected an array of dwords, found the number {v}"),
        ))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Err(self.cx.fail(
            self.at.as_str(),
            format!("expected an array of dwords, found the number {v}"),
        ))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        Err(self.cx.fail(
            self.at.as_str(),
            format!("expected an array of dwords, found the number {v}"),
        ))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Err(self.cx.fail(
            self.at.as_str(),
            format!("expected an array of dwords, found \"{v}\""),
        ))
    }
    refuse_others!("an array of dwords");
}

/// A VGPR: 64 lanes, one value for every lane, or `"lane"`.
struct Vgpr<'c> {
    cx: &'c Ctx,
    at: String,
}

impl<'c> Vgpr<'c> {
    /// The reader of one 32-bit value, broadcast to every lane.
    fn word(self) -> Int<'c> {
        Int {
            cx: self.cx,
            at: self.at,
            bits: 32,
        }
    }
}

impl<'de> DeserializeSeed<'de> for Vgpr<'_> {
    type Value = VgprInit;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<VgprInit, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Vgpr<'_> {
    type Value = VgprInit;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("64 lanes, one integer, or \"lane\"")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, s: A) -> Result<VgprInit, A::Error> {
        let d = Dwords {
            cx: self.cx,
            at: self.at.clone(),
            max: LANES as u64,
        }
        .visit_seq(s)?;
        if d.len() != LANES {
            return Err(self.cx.fail(
                self.at.as_str(),
                format!("a VGPR has {LANES} lanes, the array has {}", d.len()),
            ));
        }
        let mut lanes = Box::new([0u32; LANES]);
        lanes.copy_from_slice(&d);
        Ok(VgprInit::Lanes(lanes))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<VgprInit, E> {
        if v == "lane" {
            return Ok(VgprInit::LaneId);
        }
        self.word()
            .visit_str(v)
            .map(|x| VgprInit::Broadcast(x as u32))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<VgprInit, E> {
        self.word()
            .visit_u64(v)
            .map(|x| VgprInit::Broadcast(x as u32))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<VgprInit, E> {
        self.word()
            .visit_i64(v)
            .map(|x| VgprInit::Broadcast(x as u32))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<VgprInit, E> {
        Err(self
            .cx
            .fail(self.at.as_str(), format!("{v} is not an integer")))
    }
    refuse_others!("64 lanes, one integer, or \"lane\"");
}

/// A register number from an object key.
/// A register or offset key of a state file (GCN and VP1 alike): a decimal number written
/// plainly — digits only, no sign, spaces or leading zeros.
pub fn register_key(k: &str) -> Option<u32> {
    let plain = !k.is_empty()
        && k.bytes().all(|b| b.is_ascii_digit())
        && (k.len() == 1 || !k.starts_with('0'));
    if plain {
        k.parse().ok()
    } else {
        None
    }
}

/// Longest key or message a state-file error repeats (the rest is elided).
const MAX_QUOTE: usize = 120;

/// `s`, cut to `max` characters with how many were left out.
pub fn elide(s: &str, max: usize) -> String {
    let n = s.chars().count();
    if n <= max {
        return s.to_string();
    }
    let head: String = s.chars().take(max).collect();
    format!("{head}… ({} more characters)", n - max)
}

/// Refuse a JSON text in which an object names a key twice (JSON parsers keep the last
/// silently; a state file means one value). The error names the key's path.
pub fn refuse_duplicate_keys(text: &str) -> Result<(), StateError> {
    struct Walk<'p> {
        at: &'p str,
    }
    impl<'de> DeserializeSeed<'de> for Walk<'_> {
        type Value = ();
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_any(self)
        }
    }
    impl<'de> Visitor<'de> for Walk<'_> {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("JSON")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<(), A::Error> {
            let mut seen = std::collections::HashSet::new();
            while let Some(k) = m.next_key::<String>()? {
                let at = if self.at.is_empty() {
                    k.clone()
                } else {
                    format!("{}.{k}", self.at)
                };
                if !seen.insert(k) {
                    return Err(de::Error::custom(format!(
                        "duplicate key `{}`",
                        elide(&at, MAX_QUOTE)
                    )));
                }
                m.next_value_seed(Walk { at: &at })?;
            }
            Ok(())
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<(), A::Error> {
            let mut i = 0usize;
            loop {
                let at = format!("{}[{i}]", self.at);
                if s.next_element_seed(Walk { at: &at })?.is_none() {
                    return Ok(());
                }
                i += 1;
            }
        }
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
            Ok(())
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
            Ok(())
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
            Ok(())
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
            Ok(())
        }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
            Ok(())
        }
        fn visit_unit<E: de::Error>(self) -> Result<(), E> {
            Ok(())
        }
    }
    let mut de = serde_json::Deserializer::from_str(text);
    Walk { at: "" }
        .deserialize(&mut de)
        .map_err(|e| StateError {
            at: format!("line {}, column {}", e.line(), e.column()),
            msg: e.to_string(),
        })
}

fn key_index<E: de::Error>(cx: &Ctx, k: &str, at: &str, max: u32) -> Result<u32, E> {
    match register_key(k) {
        Some(n) if n <= max => Ok(n),
        _ => Err(cx.fail(format!("{at}.{k}"), format!("key must be a number 0-{max}"))),
    }
}

/// Refuse a non-object where an object is expected.
fn not_object<E: de::Error>(cx: &Ctx, at: &str, found: &str, want: &str) -> E {
    cx.fail(at, format!("expected {want}, found {found}"))
}

/// The whole file.
struct Root<'c> {
    cx: &'c Ctx,
}

impl<'de> Visitor<'de> for Root<'_> {
    type Value = StateFile;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<StateFile, A::Error> {
        let cx = self.cx;
        let mut sf = StateFile::default();
        while let Some(k) = m.next_key::<String>()? {
            let int = |bits| Int {
                cx,
                at: k.clone(),
                bits,
            };
            match k.as_str() {
                "exec" => sf.exec = Some(m.next_value_seed(int(64))?),
                "vcc" => sf.vcc = Some(m.next_value_seed(int(64))?),
                "m0" => sf.m0 = Some(m.next_value_seed(int(32))? as u32),
                "mode" => sf.mode = Some(m.next_value_seed(int(32))? as u32),
                "code_base" => sf.code_base = Some(m.next_value_seed(int(64))?),
                "scc" => match m.next_value_seed(int(32))? {
                    x @ (0 | 1) => sf.scc = Some(x as u32),
                    x => return Err(cx.fail("scc", format!("SCC is 0 or 1, not {x}"))),
                },
                "sgpr" => m.next_value_seed(Sgprs {
                    cx,
                    out: &mut sf.sgpr,
                })?,
                "vgpr" => m.next_value_seed(Vgprs {
                    cx,
                    out: &mut sf.vgpr,
                })?,
                "lds" => m.next_value_seed(LdsSeed {
                    cx,
                    out: &mut sf.lds,
                })?,
                "memory" => m.next_value_seed(Regions {
                    cx,
                    out: &mut sf.memory,
                })?,
                _ => {
                    return Err(cx.fail(
                        k.as_str(),
                        "unknown key (expected exec, vcc, scc, m0, mode, code_base, sgpr, vgpr, lds, memory)",
                    ))
                }
            }
        }
        Ok(sf)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, _s: A) -> Result<StateFile, A::Error> {
        Err(not_object(self.cx, "-", "an array", "a JSON object"))
    }
    fn visit_u64<E: de::Error>(self, _v: u64) -> Result<StateFile, E> {
        Err(not_object(self.cx, "-", "a number", "a JSON object"))
    }
    fn visit_i64<E: de::Error>(self, _v: i64) -> Result<StateFile, E> {
        Err(not_object(self.cx, "-", "a number", "a JSON object"))
    }
    fn visit_f64<E: de::Error>(self, _v: f64) -> Result<StateFile, E> {
        Err(not_object(self.cx, "-", "a number", "a JSON object"))
    }
    fn visit_str<E: de::Error>(self, _v: &str) -> Result<StateFile, E> {
        Err(not_object(self.cx, "-", "a string", "a JSON object"))
    }
    fn visit_bool<E: de::Error>(self, _v: bool) -> Result<StateFile, E> {
        Err(not_object(self.cx, "-", "a boolean", "a JSON object"))
    }
    fn visit_unit<E: de::Error>(self) -> Result<StateFile, E> {
        Err(not_object(self.cx, "-", "null", "a JSON object"))
    }
}

/// Generates the non-object `visit_*` refusals of an object-valued seed.
macro_rules! object_only {
    ($at:expr, $want:expr) => {
        fn visit_seq<A: SeqAccess<'de>>(self, _s: A) -> Result<(), A::Error> {
            Err(not_object(self.cx, $at, "an array", $want))
        }
        fn visit_u64<E: de::Error>(self, _v: u64) -> Result<(), E> {
            Err(not_object(self.cx, $at, "a number", $want))
        }
        fn visit_i64<E: de::Error>(self, _v: i64) -> Result<(), E> {
            Err(not_object(self.cx, $at, "a number", $want))
        }
        fn visit_f64<E: de::Error>(self, _v: f64) -> Result<(), E> {
            Err(not_object(self.cx, $at, "a number", $want))
        }
        fn visit_str<E: de::Error>(self, _v: &str) -> Result<(), E> {
            Err(not_object(self.cx, $at, "a string", $want))
        }
        fn visit_bool<E: de::Error>(self, _v: bool) -> Result<(), E> {
            Err(not_object(self.cx, $at, "a boolean", $want))
        }
        fn visit_unit<E: de::Error>(self) -> Result<(), E> {
            Err(not_object(self.cx, $at, "null", $want))
        }
    };
}

/// Implements `DeserializeSeed` for a visitor of `()` by `deserialize_any`.
macro_rules! seed_any {
    ($t:ident) => {
        impl<'de> DeserializeSeed<'de> for $t<'_> {
            type Value = ();
            fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
                d.deserialize_any(self)
            }
        }
    };
}

struct Sgprs<'c> {
    cx: &'c Ctx,
    out: &'c mut BTreeMap<u8, u32>,
}
seed_any!(Sgprs);

impl<'de> Visitor<'de> for Sgprs<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object {\"N\": value}")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<(), A::Error> {
        while let Some(k) = m.next_key::<String>()? {
            let n = key_index(self.cx, &k, "sgpr", MAX_SGPR)?;
            if n == 106 || n == 107 {
                return Err(self
                    .cx
                    .fail(format!("sgpr.{k}"), "106/107 are VCC: use the \"vcc\" key"));
            }
            let v = m.next_value_seed(Int {
                cx: self.cx,
                at: format!("sgpr.{k}"),
                bits: 32,
            })?;
            self.out.insert(n as u8, v as u32);
        }
        Ok(())
    }
    object_only!("sgpr", "an object {\"N\": value}");
}

struct Vgprs<'c> {
    cx: &'c Ctx,
    out: &'c mut BTreeMap<u8, VgprInit>,
}
seed_any!(Vgprs);

impl<'de> Visitor<'de> for Vgprs<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object {\"N\": value}")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<(), A::Error> {
        while let Some(k) = m.next_key::<String>()? {
            let n = key_index(self.cx, &k, "vgpr", NUM_VGPRS as u32 - 1)?;
            let v = m.next_value_seed(Vgpr {
                cx: self.cx,
                at: format!("vgpr.{k}"),
            })?;
            self.out.insert(n as u8, v);
        }
        Ok(())
    }
    object_only!("vgpr", "an object {\"N\": value}");
}

struct LdsSeed<'c> {
    cx: &'c Ctx,
    out: &'c mut Vec<(u32, Vec<u32>)>,
}
seed_any!(LdsSeed);

impl<'de> Visitor<'de> for LdsSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object {\"BYTE_OFFSET\": [dwords]}")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<(), A::Error> {
        while let Some(k) = m.next_key::<String>()? {
            let at = format!("lds.{k}");
            let off = key_index(self.cx, &k, "lds", Lds::MAX as u32 - 1)?;
            if off % 4 != 0 {
                return Err(self.cx.fail(at, "LDS offsets must be multiples of 4"));
            }
            let max = (Lds::MAX as u64 - off as u64) / 4;
            let d = m.next_value_seed(Dwords {
                cx: self.cx,
                at,
                max,
            })?;
            self.out.push((off, d));
        }
        Ok(())
    }
    object_only!("lds", "an object {\"BYTE_OFFSET\": [dwords]}");
}

struct Regions<'c> {
    cx: &'c Ctx,
    out: &'c mut Vec<(u64, Vec<u32>)>,
}
seed_any!(Regions);

impl<'de> Visitor<'de> for Regions<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of {\"addr\", \"dwords\"}")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<(), A::Error> {
        let mut i = 0usize;
        while let Some(r) = s.next_element_seed(Region {
            cx: self.cx,
            at: format!("memory[{i}]"),
        })? {
            self.out.push(r);
            i += 1;
        }
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, _m: A) -> Result<(), A::Error> {
        Err(not_object(
            self.cx,
            "memory",
            "an object",
            "an array of {\"addr\", \"dwords\"}",
        ))
    }
    fn visit_u64<E: de::Error>(self, _v: u64) -> Result<(), E> {
        Err(not_object(
            self.cx,
            "memory",
            "a number",
            "an array of {\"addr\", \"dwords\"}",
        ))
    }
    fn visit_i64<E: de::Error>(self, _v: i64) -> Result<(), E> {
        Err(not_object(
            self.cx,
            "memory",
            "a number",
            "an array of {\"addr\", \"dwords\"}",
        ))
    }
    fn visit_f64<E: de::Error>(self, _v: f64) -> Result<(), E> {
        Err(not_object(
            self.cx,
            "memory",
            "a number",
            "an array of {\"addr\", \"dwords\"}",
        ))
    }
    fn visit_str<E: de::Error>(self, _v: &str) -> Result<(), E> {
        Err(not_object(
            self.cx,
            "memory",
            "a string",
            "an array of {\"addr\", \"dwords\"}",
        ))
    }
    fn visit_bool<E: de::Error>(self, _v: bool) -> Result<(), E> {
        Err(not_object(
            self.cx,
            "memory",
            "a boolean",
            "an array of {\"addr\", \"dwords\"}",
        ))
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Err(not_object(
            self.cx,
            "memory",
            "null",
            "an array of {\"addr\", \"dwords\"}",
        ))
    }
}

/// One `{"addr": u64, "dwords": [...]}`.
struct Region<'c> {
    cx: &'c Ctx,
    at: String,
}

impl<'de> DeserializeSeed<'de> for Region<'_> {
    type Value = (u64, Vec<u32>);
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Region<'_> {
    type Value = (u64, Vec<u32>);
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object {\"addr\", \"dwords\"}")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
        let cx = self.cx;
        let (mut addr, mut dwords) = (None, None);
        while let Some(k) = m.next_key::<String>()? {
            match k.as_str() {
                "addr" => {
                    let a = m.next_value_seed(Int {
                        cx,
                        at: format!("{}.addr", self.at),
                        bits: 64,
                    })?;
                    if a % 4 != 0 {
                        return Err(cx.fail(
                            format!("{}.addr", self.at),
                            format!("0x{a:x} is not dword-aligned"),
                        ));
                    }
                    addr = Some(a);
                }
                "dwords" => {
                    let max = cx.memory_left.get() / 4;
                    let d = m.next_value_seed(Dwords {
                        cx,
                        at: format!("{}.dwords", self.at),
                        max,
                    })?;
                    cx.memory_left
                        .set(cx.memory_left.get() - 4 * d.len() as u64);
                    dwords = Some(d);
                }
                _ => {
                    return Err(cx.fail(
                        format!("{}.{k}", self.at),
                        "unknown key (expected addr, dwords)",
                    ))
                }
            }
        }
        let Some(addr) = addr else {
            return Err(cx.fail(format!("{}.addr", self.at), "missing"));
        };
        let Some(d) = dwords else {
            return Err(cx.fail(format!("{}.dwords", self.at), "missing"));
        };
        if d.is_empty() {
            return Err(cx.fail(
                format!("{}.dwords", self.at),
                "a memory region needs at least one dword",
            ));
        }
        // The last byte must fit: a region may end exactly at 2^64.
        if addr.checked_add(4 * d.len() as u64 - 1).is_none() {
            return Err(cx.fail(
                format!("{}.addr", self.at),
                format!("0x{addr:x} + {} bytes wraps past 2^64", 4 * d.len()),
            ));
        }
        Ok((addr, d))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, _s: A) -> Result<Self::Value, A::Error> {
        Err(not_object(
            self.cx,
            &self.at,
            "an array",
            "an object {\"addr\", \"dwords\"}",
        ))
    }
    fn visit_u64<E: de::Error>(self, _v: u64) -> Result<Self::Value, E> {
        Err(not_object(
            self.cx,
            &self.at,
            "a number",
            "an object {\"addr\", \"dwords\"}",
        ))
    }
    fn visit_i64<E: de::Error>(self, _v: i64) -> Result<Self::Value, E> {
        Err(not_object(
            self.cx,
            &self.at,
            "a number",
            "an object {\"addr\", \"dwords\"}",
        ))
    }
    fn visit_f64<E: de::Error>(self, _v: f64) -> Result<Self::Value, E> {
        Err(not_object(
            self.cx,
            &self.at,
            "a number",
            "an object {\"addr\", \"dwords\"}",
        ))
    }
    fn visit_str<E: de::Error>(self, _v: &str) -> Result<Self::Value, E> {
        Err(not_object(
            self.cx,
            &self.at,
            "a string",
            "an object {\"addr\", \"dwords\"}",
        ))
    }
    fn visit_bool<E: de::Error>(self, _v: bool) -> Result<Self::Value, E> {
        Err(not_object(
            self.cx,
            &self.at,
            "a boolean",
            "an object {\"addr\", \"dwords\"}",
        ))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Err(not_object(
            self.cx,
            &self.at,
            "null",
            "an object {\"addr\", \"dwords\"}",
        ))
    }
}

impl StateFile {
    /// Parse the text of a state file.
    pub fn parse(text: &str) -> Result<StateFile, StateError> {
        refuse_duplicate_keys(text)?;
        let cx = Ctx {
            fail: RefCell::new(None),
            memory_left: Cell::new(MAX_MEMORY_BYTES),
        };
        let mut de = serde_json::Deserializer::from_str(text);
        let parsed = de
            .deserialize_any(Root { cx: &cx })
            .and_then(|sf| de.end().map(|()| sf));
        let mut sf = match parsed {
            Ok(sf) => sf,
            Err(e) => {
                return Err(cx.fail.into_inner().unwrap_or_else(|| StateError {
                    at: format!("line {}, column {}", e.line(), e.column()),
                    msg: e.to_string(),
                }))
            }
        };
        sf.memory.sort_by_key(|r| r.0);
        for p in sf.memory.windows(2) {
            let (a, b) = (&p[0], &p[1]);
            if a.0 + (4 * a.1.len() as u64 - 1) >= b.0 {
                return err(
                    "memory",
                    format!("regions at 0x{:x} and 0x{:x} overlap", a.0, b.0),
                );
            }
        }
        Ok(sf)
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
        if let Some(x) = self.code_base {
            wave.code_base = x;
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
        // In address order: each map then goes after every region (no reordering).
        let mut regions: Vec<&(u64, Vec<u32>)> = self.memory.iter().collect();
        regions.sort_unstable_by_key(|r| r.0);
        for (addr, d) in regions {
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
        if self.code_base.is_some() {
            let _ = writeln!(o, "  \"code_base\": {},", w.code_base);
        }

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
    use serde_json::Value;

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
                "code_base": "0x700000001400",
                "sgpr": {"3": "0x80000000", "104": -2}}"#,
        )
        .unwrap();
        assert_eq!(sf.code_base, Some(0x7000_0000_1400));
        assert_eq!(
            sf.build(Gen::Gfx8).unwrap().wave.code_base,
            0x7000_0000_1400
        );
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
        // Arrays are refused at the element that passes the limit, before the rest is read.
        let big = format!(r#"{{"lds": {{"0": [{}]}}}}"#, vec!["1"; 16385].join(","));
        let e = bad(&big);
        assert_eq!(e.at, "lds.0");
        assert!(e.msg.contains("16384"), "{e}");
        let lanes65 = format!(r#"{{"vgpr": {{"1": [{}]}}}}"#, vec!["0"; 65].join(","));
        assert_eq!(bad(&lanes65).at, "vgpr.1");
        assert_eq!(bad(r#"{"memory": {"addr": 0}}"#).at, "memory");
        assert_eq!(
            bad(r#"{"memory": [{"addr": 0, "dwords": 5}]}"#).at,
            "memory[0].dwords"
        );
        assert_eq!(bad(r#"{"exec": 1} x"#).at, "line 1, column 13");
        // Deep nesting is refused by the JSON parser's recursion limit, not a stack overflow.
        let deep = format!(
            "{{\"exec\": {}1{}}}",
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        let e = bad(&deep);
        assert!(e.msg.contains("recursion limit"), "{e}");
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
