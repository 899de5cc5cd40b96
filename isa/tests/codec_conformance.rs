//! Conformance of the decoder and encoder with LLVM's AMDGPU assembler: every row of the
//! corpus copies in `tests/data/gcn/` decodes (with the row's generation) to the operation
//! the row names, consumes exactly its dwords, and encodes back bit-exactly. Modifiers that
//! LLVM's text spells out (glc, offset:N, clamp, mul:2, SDWA selections, DPP controls, …) are
//! checked against the decoded fields, an independent check of the bit layout.
//! One runner; every failing line is listed.

mod codec_util;

use codec_util::{mcpu_file, opcodes_file, Row};
use wavejit_isa::gcn::{decode, encode, Enc, Fields, Inst, Op, VopBase};
use wavejit_isa::gcn::{
    DppFields, DsFields, FlatFields, SdwaFields, SmemFields, VintrpFields, Vop3Fields,
};
use wavejit_isa::Gen;

/// Check one row; `Err` describes what is wrong.
fn check(row: &Row, enc_col: Option<&str>) -> Result<(), String> {
    let bytes = row.bytes();
    let (inst, size) = decode(row.gen, &bytes, 0).map_err(|e| format!("decode: {e}"))?;
    if size as usize != bytes.len() {
        return Err(format!("decoded {size} bytes of {}", bytes.len()));
    }
    let (m, suffix) = row.mnemonic();
    let want = Op::from_mnemonic_in(m, row.gen)
        .ok_or_else(|| format!("`{m}` not in the table for {}", row.gen))?;
    if want != inst.op {
        return Err(format!(
            "decoded as {} ({:?})",
            inst.op.mnemonic(),
            inst.enc
        ));
    }
    let enc_ok = match (suffix, inst.enc) {
        (Some("_sdwa"), Enc::Sdwa { .. }) | (Some("_dpp"), Enc::Dpp { .. }) => true,
        // LLVM prints VOPC SDWA without a suffix (its selections give it away).
        (
            None,
            Enc::Sdwa {
                base: VopBase::Vopc,
            },
        ) => row.text.contains("src0_sel:"),
        (Some("_sdwa" | "_dpp"), _) | (_, Enc::Sdwa { .. } | Enc::Dpp { .. }) => false,
        (Some("_e64"), e) => e == Enc::Vop3,
        (Some("_e32"), e) => matches!(e, Enc::Vop1 | Enc::Vop2 | Enc::Vopc | Enc::Vintrp),
        _ => true,
    };
    if !enc_ok {
        return Err(format!("suffix {suffix:?} but encoding {:?}", inst.enc));
    }
    if let Some(e) = enc_col {
        let name = match inst.enc {
            Enc::Vop3 if e == "VOP3B" => "VOP3B",
            other => other.name(),
        };
        if name != e {
            return Err(format!("encoding column {e}, decoded {name}"));
        }
    }
    let back = encode(row.gen, &inst).map_err(|e| format!("encode: {e}"))?;
    if back != row.words {
        return Err(format!("re-encoded as {}", hex(&back)));
    }
    text_checks(row.gen, &row.text, &inst)
}

/// A failure of corpus row `r`: where it is, its text and words, and what failed.
fn failed(r: &Row, e: &str) -> String {
    format!("{}:{}: {} [{}]: {e}", r.file, r.line, r.text, hex(&r.words))
}

fn hex(w: &[u32]) -> String {
    w.iter()
        .map(|w| format!("{w:08x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The value of `key:N` in the text (decimal or 0x hex), if present.
fn kv(toks: &[&str], key: &str) -> Option<u32> {
    toks.iter().find_map(|t| {
        let v = t.strip_prefix(key)?.strip_prefix(':')?;
        match v.strip_prefix("0x") {
            Some(h) => u32::from_str_radix(h, 16).ok(),
            None => v.parse().ok(),
        }
    })
}

fn sel(name: &str) -> Option<u8> {
    Some(match name {
        "BYTE_0" => 0,
        "BYTE_1" => 1,
        "BYTE_2" => 2,
        "BYTE_3" => 3,
        "WORD_0" => 4,
        "WORD_1" => 5,
        "DWORD" => 6,
        _ => return None,
    })
}

fn text_sel(toks: &[&str], key: &str) -> Option<u8> {
    toks.iter()
        .find_map(|t| sel(t.strip_prefix(key)?.strip_prefix(':')?))
}

/// DPP_CTRL as 002_969c374e212b41fa.txt spells it.
fn text_dpp_ctrl(text: &str, toks: &[&str]) -> Option<u16> {
    if let Some(i) = text.find("quad_perm:[") {
        let rest = &text[i + 11..];
        let inner = &rest[..rest.find(']')?];
        let v: Vec<u16> = inner
            .split(',')
            .filter_map(|x| x.trim().parse().ok())
            .collect();
        if v.len() == 4 {
            return Some(v[0] | v[1] << 2 | v[2] << 4 | v[3] << 6);
        }
        return None;
    }
    let n = |k| kv(toks, k).map(|v| v as u16);
    if let Some(v) = n("row_shl") {
        return Some(0x100 + v);
    }
    if let Some(v) = n("row_shr") {
        return Some(0x110 + v);
    }
    if let Some(v) = n("row_ror") {
        return Some(0x120 + v);
    }
    if let Some(v) = n("row_bcast") {
        return Some(if v == 15 { 0x142 } else { 0x143 });
    }
    for (k, v) in [
        ("wave_shl", 0x130),
        ("wave_rol", 0x134),
        ("wave_shr", 0x138),
        ("wave_ror", 0x13c),
    ] {
        if toks.iter().any(|t| t.starts_with(k)) {
            return Some(v);
        }
    }
    if toks.contains(&"row_mirror") {
        return Some(0x140);
    }
    if toks.contains(&"row_half_mirror") {
        return Some(0x141);
    }
    None
}

/// Modifiers written in LLVM's text against the decoded fields.
fn text_checks(gen: Gen, text: &str, inst: &Inst) -> Result<(), String> {
    let toks: Vec<&str> = text.split([' ', ',']).filter(|t| !t.is_empty()).collect();
    let has = |w: &str| toks.contains(&w);
    let mut bad = Vec::new();
    fn eq(bad: &mut Vec<String>, what: &str, got: u32, want: u32) {
        if got != want {
            bad.push(format!("{what}: text says {want}, decoded {got}"));
        }
    }
    // `name:N` in the text (`default` without one) against the decoded field.
    fn eq_kv(bad: &mut Vec<String>, toks: &[&str], name: &str, got: u32, default: u32) {
        eq(bad, name, got, kv(toks, name).unwrap_or(default));
    }
    // MUBUF and MTBUF through their shared view (MTBUF has no LDS bit, nor its text `lds`).
    if let Some(f) = inst.fields.buffer() {
        eq_kv(&mut bad, &toks, "offset", f.offset as u32, 0);
        for (name, bit) in [
            ("offen", f.offen),
            ("idxen", f.idxen),
            ("glc", f.glc),
            ("slc", f.slc),
            ("tfe", f.tfe),
            ("lds", f.lds),
            ("addr64", f.addr64),
        ] {
            eq(&mut bad, name, bit as u32, has(name) as u32);
        }
    }
    match inst.fields {
        Fields::Flat(FlatFields { glc, slc, tfe, .. }) => {
            eq(&mut bad, "glc", glc as u32, has("glc") as u32);
            eq(&mut bad, "slc", slc as u32, has("slc") as u32);
            eq(&mut bad, "tfe", tfe as u32, has("tfe") as u32);
        }
        Fields::Ds(DsFields {
            offset0,
            offset1,
            gds,
            ..
        }) => {
            eq(&mut bad, "gds", gds as u32, has("gds") as u32);
            if text.contains("offset:swizzle(") {
                // Swizzle patterns are checked by the disassembler's tests.
            } else if let Some(o) = kv(&toks, "offset") {
                eq(
                    &mut bad,
                    "offset",
                    offset0 as u32 | (offset1 as u32) << 8,
                    o,
                );
            } else {
                eq_kv(&mut bad, &toks, "offset0", offset0 as u32, 0);
                eq_kv(&mut bad, &toks, "offset1", offset1 as u32, 0);
            }
        }
        Fields::Smem(SmemFields { glc, .. }) => eq(&mut bad, "glc", glc as u32, has("glc") as u32),
        Fields::Vop3(Vop3Fields { clamp, omod, .. }) => {
            eq(&mut bad, "clamp", clamp as u32, has("clamp") as u32);
            let want = if has("mul:2") {
                1
            } else if has("mul:4") {
                2
            } else if has("div:2") {
                3
            } else {
                0
            };
            eq(&mut bad, "omod", omod as u32, want);
        }
        Fields::Sdwa(SdwaFields {
            dst_sel,
            dst_unused,
            clamp,
            src0_sel,
            src1_sel,
            ..
        }) => {
            eq(&mut bad, "clamp", clamp as u32, has("clamp") as u32);
            if let Some(s) = text_sel(&toks, "dst_sel") {
                eq(&mut bad, "dst_sel", dst_sel as u32, s as u32);
            }
            if let Some(s) = text_sel(&toks, "src0_sel") {
                eq(&mut bad, "src0_sel", src0_sel as u32, s as u32);
            }
            if let Some(s) = text_sel(&toks, "src1_sel") {
                eq(&mut bad, "src1_sel", src1_sel as u32, s as u32);
            }
            let unused = toks.iter().find_map(|t| match *t {
                "dst_unused:UNUSED_PAD" => Some(0),
                "dst_unused:UNUSED_SEXT" => Some(1),
                "dst_unused:UNUSED_PRESERVE" => Some(2),
                _ => None,
            });
            if let Some(u) = unused {
                eq(&mut bad, "dst_unused", dst_unused as u32, u);
            }
        }
        Fields::Dpp(DppFields {
            dpp_ctrl,
            bound_ctrl,
            bank_mask,
            row_mask,
            ..
        }) => {
            match text_dpp_ctrl(text, &toks) {
                Some(c) => eq(&mut bad, "dpp_ctrl", dpp_ctrl as u32, c as u32),
                None => bad.push("no DPP control in the text".into()),
            }
            eq(
                &mut bad,
                "bound_ctrl",
                bound_ctrl as u32,
                toks.iter().any(|t| t.starts_with("bound_ctrl")) as u32,
            );
            eq_kv(&mut bad, &toks, "row_mask", row_mask as u32, 0xf);
            eq_kv(&mut bad, &toks, "bank_mask", bank_mask as u32, 0xf);
        }
        Fields::Vintrp(VintrpFields { attr, chan, .. }) => {
            // `attrN.c`
            if let Some(t) = toks.iter().find(|t| t.starts_with("attr")) {
                let (n, c) = t[4..].split_once('.').unwrap_or(("?", "?"));
                eq(&mut bad, "attr", attr as u32, n.parse().unwrap_or(999));
                eq(
                    &mut bad,
                    "chan",
                    chan as u32,
                    "xyzw".find(c).map_or(999, |v| v as u32),
                );
            }
        }
        _ => {}
    }
    // SDWA/DPP exist only on GCN 1.2 (the corpus never has them elsewhere).
    if let Enc::Sdwa { base } | Enc::Dpp { base } = inst.enc {
        if gen != Gen::Gfx8 {
            bad.push("SDWA/DPP decoded outside GCN 1.2".into());
        }
        let _ = base;
    }
    if bad.is_empty() {
        Ok(())
    } else {
        Err(bad.join("; "))
    }
}

#[test]
fn every_corpus_row_decodes_and_reencodes_bit_exactly() {
    let mut failures = Vec::new();
    let mut total = 0usize;
    let mut per_file = Vec::new();
    for file in ["tahiti.tsv", "bonaire.tsv", "fiji.tsv", "vop3_seed_ops.tsv"] {
        let rows = mcpu_file(file);
        per_file.push((file, rows.len()));
        for r in &rows {
            total += 1;
            if let Err(e) = check(r, None) {
                failures.push(failed(r, &e));
            }
        }
    }
    let ops = opcodes_file();
    per_file.push(("opcodes.tsv", ops.len()));
    for (r, enc, _opcode, mnemonic) in &ops {
        total += 1;
        let res = check(r, Some(enc)).and_then(|()| {
            // The mnemonic column names the operation directly (no suffix to strip).
            let bytes = r.bytes();
            let (inst, _) = decode(r.gen, &bytes, 0).map_err(|e| e.to_string())?;
            match Op::from_mnemonic_in(mnemonic, r.gen) {
                Some(op) if op == inst.op => Ok(()),
                _ => Err(format!(
                    "mnemonic column `{mnemonic}`, decoded {}",
                    inst.op.mnemonic()
                )),
            }
        });
        if let Err(e) = res {
            failures.push(failed(r, &e));
        }
    }
    eprintln!("corpus rows checked: {total} ({per_file:?})");
    assert!(
        total > 15_000,
        "expected the whole corpus, found {total} rows"
    );
    assert!(
        failures.is_empty(),
        "{} of {total} rows fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
