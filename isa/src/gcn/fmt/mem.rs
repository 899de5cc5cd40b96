//! Vector memory, LDS and export instructions as text: DS, MUBUF, MTBUF, MIMG, FLAT, EXP,
//! and VINTRP (001_43f5507a70f72cb4.txt). Which register fields an operation's text names
//! follows from its row signature and its mnemonic (loads return data, stores do not,
//! atomics return data only with `glc`).

use super::names;
use super::names::Syntax;
use super::shape::{row_sig, sig_dwords, Ty};
use crate::arch::Gen;
use crate::gcn::inst::{BufferFields, Fields, Inst};
use crate::gcn::table::{Op, TableEnc};

/// The DS register fields named by an operation's text, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DsField {
    Vdst,
    Addr,
    Data0,
    Data1,
}

/// Whether a DS operation returns a value in VDST.
pub fn ds_returns(op: Op) -> bool {
    let m = op.mnemonic();
    m.contains("_rtn")
        || m.starts_with("ds_read")
        || m.starts_with("ds_condxchg")
        || matches!(
            m,
            "ds_swizzle_b32"
                | "ds_permute_b32"
                | "ds_bpermute_b32"
                | "ds_append"
                | "ds_consume"
                | "ds_ordered_count"
        )
}

/// Whether a MIMG operation has a 16-bit (D16) form on GCN 1.2: loads, stores, samples and
/// gathers of formatted data do; raw (`_pck`) transfers, atomics and queries do not (as
/// LLVM). D16 on the others is decoded (the bit is there) but not assembled from text.
pub fn mimg_has_d16(op: Op) -> bool {
    let m = op.mnemonic();
    !(m.ends_with("_pck") || m.starts_with("image_atomic") || m.starts_with("image_get"))
}

/// Whether a DS operation has two 8-bit offsets (`offset0`/`offset1`) instead of one.
pub fn ds_two_offsets(op: Op) -> bool {
    let m = op.mnemonic();
    m.starts_with("ds_read2") || m.starts_with("ds_write2") || m.starts_with("ds_wrxchg2")
}

/// DS fields in text order with their dwords, for `op` in `gen`.
pub fn ds_layout(gen: Gen, op: Op) -> Vec<(DsField, u8)> {
    let w = row_sig(gen, op, TableEnc::Ds);
    let mut fields = Vec::new();
    if ds_returns(op) {
        fields.push(DsField::Vdst);
    }
    if !matches!(op.mnemonic(), "ds_append" | "ds_consume") {
        fields.extend([DsField::Addr, DsField::Data0, DsField::Data1]);
    }
    fields.into_iter().zip(w.iter().map(|x| x.1)).collect()
}

/// Whether a buffer instruction is a load into LDS whose VDATA field is 0 (LLVM writes it
/// without the data operand, and so may the assembler's input).
pub fn lds_load(op: Op, b: &BufferFields) -> bool {
    b.lds && b.vdata == 0 && op.mnemonic().starts_with("buffer_load")
}

/// MUBUF/MTBUF resource register of the SRSRC field (`Fields` holds the register number).
pub fn srsrc_reg(field: u8) -> u16 {
    field as u16
}

/// The kind of a FLAT operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlatKind {
    Load,
    Store,
    Atomic,
}

pub fn flat_kind(op: Op) -> FlatKind {
    let m = op.mnemonic();
    if m.contains("_atomic_") {
        FlatKind::Atomic
    } else if m.contains("_store_") {
        FlatKind::Store
    } else {
        FlatKind::Load
    }
}

/// `offset:swizzle(...)` of ds_swizzle_b32, as LLVM prints it (bit 15 = 0: bitmask mode with
/// and/or/xor masks in bits 4:0, 9:5, 14:10; 0x80xx: quad permute).
pub fn swizzle_text(v: u16) -> String {
    if v & 0xff00 == 0x8000 {
        let l: Vec<String> = (0..4).map(|i| (v >> (2 * i) & 3).to_string()).collect();
        return format!("swizzle(QUAD_PERM,{})", l.join(","));
    }
    if v & 0x8000 != 0 {
        return v.to_string();
    }
    let and = v & 31;
    let or = v >> 5 & 31;
    let xor = v >> 10 & 31;
    if and == 31 && or == 0 && xor.count_ones() == 1 {
        return format!("swizzle(SWAP,{xor})");
    }
    if and == 31 && or == 0 && xor > 0 && (xor + 1).is_power_of_two() {
        return format!("swizzle(REVERSE,{})", xor + 1);
    }
    let group = 31 - and + 1;
    if group > 1 && group.is_power_of_two() && or < group && xor == 0 {
        return format!("swizzle(BROADCAST,{group},{or})");
    }
    let p0 = (or) ^ xor;
    let p1 = ((31 & and) | or) ^ xor;
    let mut s = String::new();
    for b in (0..5).rev() {
        let (a, c) = (p0 >> b & 1, p1 >> b & 1);
        s.push(match (a, c) {
            (0, 0) => '0',
            (1, 1) => '1',
            (0, _) => 'p',
            _ => 'i',
        });
    }
    // The 5-character form keeps only what each bit does to a lane id; some mask triples
    // (an OR and an XOR on the same bit, …) read back differently: those stay numbers.
    let (mut a2, mut o2, mut x2) = (0u16, 0u16, 0u16);
    for (k, ch) in s.chars().enumerate() {
        let b = 1 << (4 - k);
        match ch {
            '1' => o2 |= b,
            'p' => a2 |= b,
            'i' => {
                a2 |= b;
                x2 |= b;
            }
            _ => {}
        }
    }
    if a2 | o2 << 5 | x2 << 10 != v {
        return v.to_string();
    }
    format!("swizzle(BITMASK_PERM,\"{s}\")")
}

/// MTBUF data format names (DFMT 0-15).
pub const DFMT_NAMES: [&str; 16] = [
    "BUF_DATA_FORMAT_INVALID",
    "BUF_DATA_FORMAT_8",
    "BUF_DATA_FORMAT_16",
    "BUF_DATA_FORMAT_8_8",
    "BUF_DATA_FORMAT_32",
    "BUF_DATA_FORMAT_16_16",
    "BUF_DATA_FORMAT_10_11_11",
    "BUF_DATA_FORMAT_11_11_10",
    "BUF_DATA_FORMAT_10_10_10_2",
    "BUF_DATA_FORMAT_2_10_10_10",
    "BUF_DATA_FORMAT_8_8_8_8",
    "BUF_DATA_FORMAT_32_32",
    "BUF_DATA_FORMAT_16_16_16_16",
    "BUF_DATA_FORMAT_32_32_32",
    "BUF_DATA_FORMAT_32_32_32_32",
    "BUF_DATA_FORMAT_RESERVED_15",
];

/// MTBUF numeric format names (NFMT 0-7) per generation.
pub fn nfmt_names(gen: Gen) -> [&'static str; 8] {
    [
        "BUF_NUM_FORMAT_UNORM",
        "BUF_NUM_FORMAT_SNORM",
        "BUF_NUM_FORMAT_USCALED",
        "BUF_NUM_FORMAT_SSCALED",
        "BUF_NUM_FORMAT_UINT",
        "BUF_NUM_FORMAT_SINT",
        if gen == Gen::Gfx8 {
            "BUF_NUM_FORMAT_RESERVED_6"
        } else {
            "BUF_NUM_FORMAT_SNORM_OGL"
        },
        "BUF_NUM_FORMAT_FLOAT",
    ]
}

/// ` format:[...]` of MTBUF (empty for the default dfmt 1, nfmt 0).
pub fn format_text(gen: Gen, dfmt: u8, nfmt: u8) -> String {
    if dfmt == 1 && nfmt == 0 {
        return String::new();
    }
    let mut s = String::from("format:[");
    if dfmt != 1 {
        s.push_str(DFMT_NAMES[dfmt as usize & 15]);
        if nfmt != 0 {
            s.push(',');
        }
    }
    if nfmt != 0 {
        s.push_str(nfmt_names(gen)[nfmt as usize & 7]);
    }
    s.push(']');
    s
}

/// EXP target names (TGT 0-63; the decoder rejects the reserved 10, 11 and 16-31, which
/// only a hand-built instruction can show as `invalid_target_N`).
pub fn exp_target_text(t: u8) -> String {
    match t {
        0..=7 => format!("mrt{t}"),
        8 => "mrtz".into(),
        9 => "null".into(),
        12..=15 => format!("pos{}", t - 12),
        32..=63 => format!("param{}", t - 32),
        _ => format!("invalid_target_{t}"),
    }
}

/// Dwords of a MUBUF/MTBUF VDATA operand in text (`None`: the text has no VDATA): the row's,
/// plus the status dword that a load returns with TFE (LLVM writes
/// `buffer_load_dword v[1:2], off, s[4:7], s1 tfe`, as it does for MIMG).
pub fn buffer_vdata_dwords(op: Op, w: &[(String, u8)], tfe: bool) -> Option<u8> {
    let first = w.first().filter(|x| x.0.starts_with('v'))?;
    let status = tfe && op.mnemonic().contains("_load_");
    Some(first.1 + status as u8)
}

/// Dwords of a MUBUF/MTBUF VADDR operand: two for an index and an offset or a 64-bit
/// address, one for either alone, none (`off`) without offen/idxen/addr64.
pub fn buffer_vaddr_dwords(offen: bool, idxen: bool, addr64: bool) -> u8 {
    if (offen && idxen) || addr64 {
        2
    } else {
        (offen || idxen) as u8
    }
}

/// Operands and modifiers of a MUBUF/MTBUF instruction whose row has the register words
/// `w`.
fn buffer_text(
    gen: Gen,
    inst: &Inst,
    sx: Syntax,
    w: &[(String, u8)],
    b: &BufferFields,
) -> (Vec<String>, Vec<String>) {
    let mut ops = Vec::new();
    let mut mods = Vec::new();
    if !w.is_empty() {
        if let Some(nd) = buffer_vdata_dwords(inst.op, w, b.tfe) {
            // A load into LDS writes no VGPR: LLVM's text has no data operand then.
            if !(sx == Syntax::Llvm && lds_load(inst.op, b)) {
                ops.push(names::vreg(b.vdata, nd));
            }
            ops.push(match buffer_vaddr_dwords(b.offen, b.idxen, b.addr64) {
                0 => "off".to_string(),
                n => names::vreg(b.vaddr, n),
            });
        }
        ops.push(names::sreg(gen, srsrc_reg(b.srsrc), 4));
        let mut so = names::src(gen, b.soffset, Ty::B32, inst.literal, sx);
        if let Some((d, n)) = b.format {
            let f = format_text(gen, d, n);
            if !f.is_empty() {
                so = format!("{so} {f}");
            }
        }
        ops.push(so);
        if b.idxen && b.offen {
            mods.push("idxen offen".to_string());
        } else if b.offen {
            mods.push("offen".into());
        } else if b.idxen {
            mods.push("idxen".into());
        }
        if b.addr64 {
            mods.push("addr64".into());
        }
    }
    if b.offset != 0 {
        mods.push(format!("offset:{}", b.offset));
    }
    // `buffer_store_lds_dword`'s `lds` is part of its syntax in LLVM, written before the
    // cache flags (`… offset:4 lds glc slc`).
    let lds_first = inst.op == Op::BufferStoreLdsDword;
    for (on, t) in [
        (b.lds && lds_first, "lds"),
        (b.glc, "glc"),
        (b.slc, "slc"),
        (b.lds && !lds_first, "lds"),
        (b.tfe, "tfe"),
    ] {
        if on {
            mods.push(t.into());
        }
    }
    (ops, mods)
}

/// Print a memory, export or interpolation instruction (`None` when `inst` is none).
pub fn print(gen: Gen, inst: &Inst, sx: Syntax) -> Option<String> {
    let op = inst.op;
    let mut name = op.mnemonic().to_string();
    let mut ops: Vec<String> = Vec::new();
    let mut mods: Vec<String> = Vec::new();
    match inst.fields {
        Fields::Vintrp(f) => {
            if gen == Gen::Gfx8 && sx == Syntax::Llvm {
                name.push_str("_e32");
            }
            ops.push(names::vreg(f.vdst, 1));
            if op.mnemonic() == "v_interp_mov_f32" {
                ops.push(names::interp_param(f.vsrc as u16));
            } else {
                ops.push(names::vreg(f.vsrc, 1));
            }
            ops.push(names::attr(f.attr, f.chan));
        }
        Fields::Ds(ds) => {
            for (f, d) in ds_layout(gen, op) {
                let r = match f {
                    DsField::Vdst => ds.vdst,
                    DsField::Addr => ds.addr,
                    DsField::Data0 => ds.data0,
                    DsField::Data1 => ds.data1,
                };
                ops.push(names::vreg(r, d));
            }
            if ds_two_offsets(op) {
                if ds.offset0 != 0 {
                    mods.push(format!("offset0:{}", ds.offset0));
                }
                if ds.offset1 != 0 {
                    mods.push(format!("offset1:{}", ds.offset1));
                }
            } else {
                let off = ds.offset();
                if off != 0 {
                    if op.mnemonic() == "ds_swizzle_b32" {
                        mods.push(format!("offset:{}", swizzle_text(off)));
                    } else {
                        mods.push(format!("offset:{off}"));
                    }
                }
            }
            if ds.gds {
                mods.push("gds".into());
            }
        }
        Fields::Mubuf(b) | Fields::Mtbuf(b) => {
            let enc = if b.format.is_some() {
                TableEnc::Mtbuf
            } else {
                TableEnc::Mubuf
            };
            (ops, mods) = buffer_text(gen, inst, sx, &row_sig(gen, op, enc), &b);
        }
        Fields::Flat(f) => {
            let w = row_sig(gen, op, TableEnc::Flat);
            let d = |i: usize| w.get(i).map_or(1, |x| x.1);
            match flat_kind(op) {
                FlatKind::Load => {
                    ops.push(names::vreg(f.vdst, d(0)));
                    ops.push(names::vreg(f.addr, d(1)));
                }
                FlatKind::Store => {
                    ops.push(names::vreg(f.addr, d(0)));
                    ops.push(names::vreg(f.data, d(1)));
                }
                FlatKind::Atomic => {
                    if f.glc {
                        let rd = if op.mnemonic().contains("cmpswap") {
                            (d(1) / 2).max(1)
                        } else {
                            d(1)
                        };
                        ops.push(names::vreg(f.vdst, rd));
                    }
                    ops.push(names::vreg(f.addr, d(0)));
                    ops.push(names::vreg(f.data, d(1)));
                }
            }
            for (b, t) in [(f.glc, "glc"), (f.slc, "slc"), (f.tfe, "tfe")] {
                if b {
                    mods.push(t.into());
                }
            }
        }
        Fields::Raw { words } => {
            let rows = op.rows();
            let row = rows.iter().find(|r| r.opcode[gen.index()].is_some())?;
            match row.enc {
                TableEnc::Exp => {
                    let w0 = words[0];
                    let w1 = words[1];
                    let en = w0 & 15;
                    let compr = w0 >> 10 & 1 != 0;
                    // CLRX writes the target as the first operand (`exp param5, v116, …`),
                    // LLVM before the operands without a comma.
                    let tgt = exp_target_text((w0 >> 4 & 63) as u8);
                    if sx == Syntax::Clrx {
                        ops.push(tgt);
                    } else {
                        name = format!("{name} {tgt}");
                    }
                    for n in 0..4u32 {
                        let src = if compr { n / 2 } else { n };
                        if en >> n & 1 != 0 {
                            ops.push(names::vreg((w1 >> (8 * src)) as u8, 1));
                        } else {
                            ops.push("off".into());
                        }
                    }
                    for (bit, t) in [(11, "done"), (10, "compr"), (12, "vm")] {
                        if w0 >> bit & 1 != 0 {
                            mods.push(t.into());
                        }
                    }
                }
                TableEnc::Mimg => {
                    let w0 = words[0];
                    let w1 = words[1];
                    let w = sig_dwords(row);
                    let dmask = w0 >> 8 & 15;
                    let tfe = w0 >> 16 & 1 != 0;
                    let r128 = w0 >> 15 & 1 != 0;
                    let mut nd = if op.mnemonic().starts_with("image_gather4") {
                        4
                    } else {
                        dmask.count_ones().max(1) as u8
                    };
                    if tfe {
                        nd += 1;
                    }
                    ops.push(names::vreg((w1 >> 8) as u8, nd));
                    ops.push(names::vreg(w1 as u8, w.get(1).map_or(1, |x| x.1)));
                    ops.push(names::sreg(
                        gen,
                        (w1 >> 16 & 31) as u16 * 4,
                        if r128 { 4 } else { 8 },
                    ));
                    if w.len() >= 4 {
                        ops.push(names::sreg(gen, (w1 >> 21 & 31) as u16 * 4, 4));
                    }
                    if dmask != 0 {
                        mods.push(format!("dmask:0x{dmask:x}"));
                    }
                    for (bit, t) in [
                        (12, "unorm"),
                        (13, "glc"),
                        (25, "slc"),
                        (15, "r128"),
                        (16, "tfe"),
                        (17, "lwe"),
                        (14, "da"),
                    ] {
                        if w0 >> bit & 1 != 0 {
                            mods.push(t.into());
                        }
                    }
                    if gen == Gen::Gfx8 && w1 >> 31 & 1 != 0 {
                        mods.push("d16".into());
                    }
                }
                _ => return None,
            }
        }
        _ => return None,
    }
    let mut out = name;
    if !ops.is_empty() {
        out.push(' ');
        out.push_str(&ops.join(", "));
    }
    for m in mods {
        out.push(' ');
        out.push_str(&m);
    }
    Some(out)
}
