//! Runs the line-oriented semantic vectors of `tests/data/sem/*.txt` (STYLE.md "Test data")
//! and reports every failing line.
//!
//! A line is `mnemonic inputs… [options…] -> expected…`:
//!
//! * inputs are the instruction's sources in order; source i lives in `v[10+2i]` (its high
//!   half in `v[11+2i]`), the same in every lane. For V_MAC*/V_CVT_PKACCUM the last input is
//!   the old VDST; for V_MADMK/V_MADAK the input in K's position is the literal.
//! * a value is `0x…` (more than 8 hex digits: 64-bit), a decimal integer, or a float with a
//!   suffix: `1.5f` (f32 bits), `1.5d` (f64 bits), `1.5h` (f16 bits; low half).
//!   Floats parse with Rust's correctly rounded parser (or the `half` crate for f16), so the
//!   expected bits are independent of the interpreter.
//! * options: `gen=6|7|8` (default: the newest generation with the operation), `mode=0x..`
//!   (default 0xC0), `vcc=0|1` (VCC input: all lanes), `clamp`, `omod=N`, `neg=N`, `abs=N`
//!   (VOP3 bits), `enc=vop3|native` (restrict the encodings tried).
//! * expected: a value (VDST, `v20`, or `v[20:21]` for a 64-bit value), `vcc=0|1` (lane 0's
//!   bit of the mask destination), `exec=0|1` (lane 0's EXEC bit), or `err`.
//!
//! Each line runs in the native 32-bit encoding and in the VOP3 form whenever the operation
//! and the options allow, and both must agree with the expectation.

mod valu_common;

use std::path::PathBuf;
use wavejit_isa::gcn::Vop3Fields;

use valu_common::{Machine, Rng};
use wavejit_isa::gcn::table::TableEnc;
use wavejit_isa::gcn::{Enc, Fields, Inst, Op, Src};
use wavejit_isa::Gen;

const VCC: u16 = 106;

#[derive(Clone, Copy, Debug)]
struct Val {
    bits: u64,
    wide: bool,
}

fn parse_val(t: &str) -> Option<Val> {
    if let Some(h) = t.strip_prefix("0x") {
        let h = h.replace('_', "");
        return Some(Val {
            bits: u64::from_str_radix(&h, 16).ok()?,
            wide: h.len() > 8,
        });
    }
    if let Some(x) = t.strip_suffix('f') {
        if !x.is_empty() {
            return Some(Val {
                bits: x.parse::<f32>().ok()?.to_bits() as u64,
                wide: false,
            });
        }
    }
    if let Some(x) = t.strip_suffix("inff") {
        let neg = x == "-";
        return Some(Val {
            bits: if neg { 0xFF80_0000 } else { 0x7F80_0000 },
            wide: false,
        });
    }
    if let Some(x) = t.strip_suffix('d') {
        return Some(Val {
            bits: x.parse::<f64>().ok()?.to_bits(),
            wide: true,
        });
    }
    if let Some(x) = t.strip_suffix('h') {
        return Some(Val {
            bits: half::f16::from_f64(x.parse::<f64>().ok()?).to_bits() as u64,
            wide: false,
        });
    }
    let i: i64 = t.parse().ok()?;
    let wide = i < i32::MIN as i64 || i > u32::MAX as i64;
    Some(Val {
        bits: if wide { i as u64 } else { i as u32 as u64 },
        wide,
    })
}

#[derive(Default)]
struct Line {
    mnemonic: String,
    inputs: Vec<Val>,
    gen: Option<Gen>,
    mode: Option<u32>,
    vcc_in: Option<u64>,
    clamp: bool,
    omod: u8,
    neg: u8,
    abs: u8,
    only: Option<String>,
    want: Option<Val>,
    want_vcc: Option<u64>,
    want_exec: Option<u64>,
    want_err: bool,
}

fn parse_line(s: &str) -> Result<Line, String> {
    let (lhs, rhs) = s.split_once("->").ok_or("no `->`")?;
    let mut l = Line::default();
    let mut toks = lhs.split_whitespace();
    l.mnemonic = toks.next().ok_or("empty")?.to_string();
    for t in toks {
        match t.split_once('=') {
            Some(("gen", g)) => {
                l.gen = Some(format!("gfx{g}").parse().map_err(|e| format!("{e}"))?)
            }
            Some(("mode", x)) => l.mode = Some(parse_val(x).ok_or("mode")?.bits as u32),
            Some(("vcc", x)) => {
                l.vcc_in = Some(if parse_val(x).ok_or("vcc")?.bits != 0 {
                    u64::MAX
                } else {
                    0
                })
            }
            Some(("omod", x)) => l.omod = x.parse().map_err(|_| "omod")?,
            Some(("neg", x)) => l.neg = parse_val(x).ok_or("neg")?.bits as u8,
            Some(("abs", x)) => l.abs = parse_val(x).ok_or("abs")?.bits as u8,
            Some(("enc", x)) => l.only = Some(x.to_string()),
            Some((k, _)) => return Err(format!("unknown option `{k}`")),
            None if t == "clamp" => l.clamp = true,
            None => l
                .inputs
                .push(parse_val(t).ok_or_else(|| format!("bad value `{t}`"))?),
        }
    }
    for t in rhs.split_whitespace() {
        match t.split_once('=') {
            Some(("vcc", x)) => l.want_vcc = Some(parse_val(x).ok_or("vcc")?.bits),
            Some(("exec", x)) => l.want_exec = Some(parse_val(x).ok_or("exec")?.bits),
            Some((k, _)) => return Err(format!("unknown expectation `{k}`")),
            None if t == "err" => l.want_err = true,
            None => l.want = Some(parse_val(t).ok_or_else(|| format!("bad value `{t}`"))?),
        }
    }
    Ok(l)
}

/// Operations whose last input is the old VDST.
fn reads_vdst(m: &str) -> bool {
    m.starts_with("v_mac_") || m == "v_cvt_pkaccum_u8_f32"
}

/// Operations whose VOP3 SRC2 is the VCC mask (carry in, V_CNDMASK's selector).
fn src2_is_mask(m: &str) -> bool {
    matches!(
        m,
        "v_addc_u32" | "v_subb_u32" | "v_subbrev_u32" | "v_cndmask_b32"
    )
}

fn run_line(l: &Line) -> Result<(), String> {
    let op = Op::from_mnemonic(&l.mnemonic).ok_or("unknown mnemonic")?;
    let gen = l
        .gen
        .or_else(|| {
            [Gen::Gfx8, Gen::Gfx7, Gen::Gfx6]
                .into_iter()
                .find(|g| op.row(*g).is_some())
        })
        .ok_or("in no generation")?;
    let row = op.row(gen).ok_or(format!("not on {gen}"))?;
    let native_enc = matches!(row.enc, TableEnc::Vop1 | TableEnc::Vop2 | TableEnc::Vopc);
    let vop3_only_opts = l.clamp || l.omod != 0 || l.neg != 0 || l.abs != 0;
    let mut encs = Vec::new();
    if native_enc && !vop3_only_opts && l.only.as_deref() != Some("vop3") {
        encs.push("native");
    }
    let has_vop3 =
        matches!(row.enc, TableEnc::Vop3 | TableEnc::Vop3b) || (native_enc && row.e64[gen.index()]);
    if has_vop3 && l.only.as_deref() != Some("native") {
        encs.push("vop3");
    }
    if encs.is_empty() {
        return Err("no encoding to run".into());
    }
    let mut inputs = l.inputs.clone();
    let vdst_init = if reads_vdst(&l.mnemonic) {
        inputs.pop()
    } else {
        None
    };
    let is_cmp = row.enc == TableEnc::Vopc;
    for enc in encs {
        let mut m = Machine::new(gen);
        m.wave.mode = l.mode.unwrap_or(0xC0);
        m.wave.vcc = l.vcc_in.unwrap_or(0);
        for (i, x) in inputs.iter().enumerate() {
            let r = 10 + 2 * i;
            m.set_v(r, |_| x.bits as u32);
            m.set_v(r + 1, |_| (x.bits >> 32) as u32);
        }
        let init = vdst_init.map_or(0xDEAD_BEEF_DEAD_BEEFu64, |x| x.bits);
        m.set_v(20, |_| init as u32);
        m.set_v(21, |_| (init >> 32) as u32);
        let srcs = [Src::vgpr(10), Src::vgpr(12), Src::vgpr(14)];
        let inst = if enc == "native" {
            let mut lit = None;
            let fields = match row.enc {
                TableEnc::Vop1 => Fields::Vop1 {
                    vdst: 20,
                    src0: srcs[0],
                },
                TableEnc::Vopc => Fields::Vopc {
                    src0: srcs[0],
                    vsrc1: 12,
                },
                _ => match l.mnemonic.as_str() {
                    "v_madmk_f32" | "v_madmk_f16" => {
                        lit = Some(inputs.get(1).ok_or("K")?.bits as u32);
                        Fields::Vop2 {
                            vdst: 20,
                            src0: srcs[0],
                            vsrc1: 14,
                        }
                    }
                    "v_madak_f32" | "v_madak_f16" => {
                        lit = Some(inputs.get(2).ok_or("K")?.bits as u32);
                        Fields::Vop2 {
                            vdst: 20,
                            src0: srcs[0],
                            vsrc1: 12,
                        }
                    }
                    _ => Fields::Vop2 {
                        vdst: 20,
                        src0: srcs[0],
                        vsrc1: 12,
                    },
                },
            };
            let e = match row.enc {
                TableEnc::Vop1 => Enc::Vop1,
                TableEnc::Vopc => Enc::Vopc,
                _ => Enc::Vop2,
            };
            Inst {
                op,
                enc: e,
                fields,
                literal: lit,
            }
        } else {
            let mut src = srcs;
            if src2_is_mask(&l.mnemonic) {
                src[2] = Src(VCC);
            }
            Inst {
                op,
                enc: Enc::Vop3,
                fields: Fields::Vop3(Vop3Fields {
                    vdst: if is_cmp { VCC as u8 } else { 20 },
                    sdst: VCC as u8,
                    src,
                    abs: l.abs,
                    neg: l.neg,
                    clamp: l.clamp,
                    omod: l.omod,
                }),
                literal: None,
            }
        };
        let r = m.valu(&inst);
        if l.want_err {
            if r.is_ok() {
                return Err(format!("{enc}: expected an error"));
            }
            continue;
        }
        r.map_err(|e| format!("{enc}: {e}"))?;
        if let Some(w) = l.want {
            let got = if w.wide {
                m.wave.vgpr[20][0] as u64 | (m.wave.vgpr[21][0] as u64) << 32
            } else {
                m.wave.vgpr[20][0] as u64
            };
            if got != w.bits {
                return Err(format!("{enc}: got {got:#x}, want {:#x}", w.bits));
            }
            for lane in 1..64 {
                if m.wave.vgpr[20][lane] != m.wave.vgpr[20][0] {
                    return Err(format!("{enc}: lane {lane} differs from lane 0"));
                }
            }
        }
        if let Some(w) = l.want_vcc {
            let got = m.wave.vcc & 1;
            if got != w {
                return Err(format!("{enc}: vcc bit {got}, want {w}"));
            }
            let all = if got == 1 { u64::MAX } else { 0 };
            if m.wave.vcc != all {
                return Err(format!("{enc}: vcc {:#x} not uniform", m.wave.vcc));
            }
        }
        if let Some(w) = l.want_exec {
            if m.wave.exec & 1 != w {
                return Err(format!("{enc}: exec bit {}, want {w}", m.wave.exec & 1));
            }
        }
    }
    Ok(())
}

fn sem_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/sem")
}

#[test]
fn semantic_vectors() {
    let mut files: Vec<_> = std::fs::read_dir(sem_dir())
        .expect("tests/data/sem")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    let mut failures = Vec::new();
    let mut count = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).expect("read");
        let name = f
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            count += 1;
            let r = parse_line(line).and_then(|l| run_line(&l));
            if let Err(e) = r {
                failures.push(format!("{name}:{}: `{line}`: {e}", i + 1));
            }
        }
    }
    eprintln!("{count} semantic vectors in {} files", files.len());
    assert!(count > 0);
    assert!(
        failures.is_empty(),
        "{} of {count} vectors failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The parser of this runner (so a broken vector file cannot pass silently).
#[test]
fn value_syntax() {
    assert_eq!(parse_val("1.5f").map(|v| v.bits), Some(0x3FC0_0000));
    assert_eq!(
        parse_val("-2d").map(|v| v.bits),
        Some(0xC000_0000_0000_0000)
    );
    assert_eq!(parse_val("1h").map(|v| v.bits), Some(0x3C00));
    assert_eq!(parse_val("-1").map(|v| v.bits), Some(0xFFFF_FFFF));
    assert_eq!(
        parse_val("0x1_0000_0000").map(|v| (v.bits, v.wide)),
        Some((1 << 32, true))
    );
    assert_eq!(parse_val("-inff").map(|v| v.bits), Some(0xFF80_0000));
    let _ = Rng(0);
}
