//! Assembling memory, export and interpolation instructions: DS, MUBUF, MTBUF, FLAT, MIMG,
//! EXP and VINTRP, with their modifiers (`offset:`, `offset0:`, `gds`, `offen`, `idxen`,
//! `addr64`, `glc`, `slc`, `lds`, `tfe`, `format:[…]`, `dmask:`, …).

use super::opnd::{self, err, expect_n};
use super::parse::{ModVal, Modifier, Operand, PErr, Val};
use super::valu::{parse_attr, parse_param};
use crate::arch::Gen;
use crate::gcn::fmt::mem::{
    buffer_vaddr_dwords, buffer_vdata_dwords, ds_layout, ds_two_offsets, flat_kind, mimg_has_d16,
    nfmt_names, DsField, FlatKind, DFMT_NAMES,
};
use crate::gcn::fmt::shape::{row_sig, sig_dwords, Ty};
use crate::gcn::inst::{BufferFields, DsFields, Enc, Fields, FlatFields, Inst, Src, VintrpFields};
use crate::gcn::table::{Op, Row, TableEnc};

/// Collected modifiers of a memory instruction.
#[derive(Default)]
struct Mods {
    flags: Vec<String>,
    offset: Option<(i128, u32)>,
    offset0: Option<i128>,
    offset1: Option<i128>,
    format: Option<(u8, u8)>,
    dmask: Option<u8>,
}

impl Mods {
    fn has(&self, f: &str) -> bool {
        self.flags.iter().any(|x| x == f)
    }
}

fn int_mod(m: &Modifier, lo: i128, hi: i128) -> Result<i128, PErr> {
    match &m.value {
        Some(ModVal::Int(v)) if (lo..=hi).contains(v) => Ok(*v),
        Some(ModVal::Int(v)) => err(m.col, format!("{}:{v} is out of range {lo}..{hi}", m.name)),
        _ => err(m.col, format!("{} needs a number", m.name)),
    }
}

fn collect(
    mods: &[Modifier],
    flags: &[&str],
    values: &[&str],
    swizzle: bool,
    gen: Gen,
) -> Result<Mods, PErr> {
    let mut r = Mods::default();
    for m in mods {
        let n = m.name.as_str();
        if m.value.is_none() && flags.contains(&n) {
            if r.has(n) {
                return err(m.col, format!("`{n}` given twice"));
            }
            r.flags.push(n.to_string());
            continue;
        }
        if m.value.is_some() && values.contains(&n) {
            match n {
                "offset" => {
                    let v = match &m.value {
                        Some(ModVal::Func(f, args)) if swizzle && f == "swizzle" => {
                            swizzle_value(args, m.col)? as i128
                        }
                        _ => int_mod(m, 0, 65535)?,
                    };
                    r.offset = Some((v, m.col));
                }
                "offset0" => r.offset0 = Some(int_mod(m, 0, 255)?),
                "offset1" => r.offset1 = Some(int_mod(m, 0, 255)?),
                "dmask" => r.dmask = Some(int_mod(m, 0, 15)? as u8),
                "dfmt" => {
                    let d = int_mod(m, 0, 15)? as u8;
                    r.format = Some((d, r.format.map_or(0, |f| f.1)));
                }
                "nfmt" => {
                    let nf = int_mod(m, 0, 7)? as u8;
                    r.format = Some((r.format.map_or(1, |f| f.0), nf));
                }
                "format" => r.format = Some(format_value(m, gen)?),
                _ => return err(m.col, format!("`{n}` is not valid here")),
            }
            continue;
        }
        return err(m.col, format!("`{n}` is not valid here"));
    }
    Ok(r)
}

/// `format:[BUF_DATA_FORMAT_x,BUF_NUM_FORMAT_y]` (either part may be left out) or a number.
fn format_value(m: &Modifier, gen: Gen) -> Result<(u8, u8), PErr> {
    match &m.value {
        Some(ModVal::List(l)) => {
            let (mut d, mut n) = (1u8, 0u8);
            for (k, v) in l.iter().enumerate() {
                // CLRX's raw values: `[@3, uint]` (data format 3), `[@3, @4]`.
                if let Val::Func(f, a) = v {
                    if let (true, Some(Val::Int(x))) = (f == "@", a.first()) {
                        match k {
                            0 if (0..=15).contains(x) => d = *x as u8,
                            1 if (0..=7).contains(x) => n = *x as u8,
                            _ => return err(m.col, format!("raw format value @{x} out of range")),
                        }
                        continue;
                    }
                }
                // CLRX also writes the names short: `[8_8,uint]`, `[sint]`, `[32]`.
                let u = match v {
                    Val::Ident(s) => s.to_ascii_uppercase(),
                    Val::Int(i) => i.to_string(),
                    _ => return err(m.col, "format names BUF_DATA_FORMAT_* and BUF_NUM_FORMAT_*"),
                };
                let s = &u;
                let is =
                    |full: &str, prefix: &str| full == u || full.strip_prefix(prefix) == Some(&u);
                if let Some(i) = DFMT_NAMES.iter().position(|x| is(x, "BUF_DATA_FORMAT_")) {
                    d = i as u8;
                } else if let Some(i) = nfmt_names(gen)
                    .iter()
                    .position(|x| is(x, "BUF_NUM_FORMAT_"))
                {
                    n = i as u8;
                } else {
                    return err(m.col, format!("unknown format `{s}`"));
                }
            }
            Ok((d, n))
        }
        Some(ModVal::Int(v)) if (0..=127).contains(v) => Ok(((*v & 15) as u8, (*v >> 4) as u8)),
        _ => err(m.col, "format needs [data format, numeric format]"),
    }
}

/// `swizzle(QUAD_PERM,a,b,c,d)`, `swizzle(BITMASK_PERM,"mask")`, `swizzle(SWAP,n)`,
/// `swizzle(REVERSE,n)`, `swizzle(BROADCAST,size,lane)` → the 16-bit offset.
pub fn swizzle_value(args: &[Val], col: u32) -> Result<u16, PErr> {
    let id = match args.first() {
        Some(Val::Ident(s)) => s.to_ascii_uppercase(),
        _ => return err(col, "swizzle needs a mode"),
    };
    let int = |i: usize, lo: i128, hi: i128| -> Result<u16, PErr> {
        match args.get(i) {
            Some(Val::Int(v)) if (lo..=hi).contains(v) => Ok(*v as u16),
            _ => err(col, format!("swizzle argument {i} must be {lo}..{hi}")),
        }
    };
    let nargs = |n: usize| -> Result<(), PErr> {
        if args.len() != n {
            return err(col, format!("swizzle({id},…) takes {} arguments", n - 1));
        }
        Ok(())
    };
    match id.as_str() {
        "QUAD_PERM" => {
            nargs(5)?;
            let mut v = 0x8000;
            for i in 0..4 {
                v |= int(i + 1, 0, 3)? << (2 * i);
            }
            Ok(v)
        }
        "SWAP" => {
            nargs(2)?;
            let n = int(1, 1, 16)?;
            if !n.is_power_of_two() {
                return err(col, "swizzle(SWAP,n): n is a power of two");
            }
            Ok(31 | n << 10)
        }
        "REVERSE" => {
            nargs(2)?;
            let n = int(1, 2, 32)?;
            if !n.is_power_of_two() {
                return err(col, "swizzle(REVERSE,n): n is a power of two");
            }
            Ok(31 | (n - 1) << 10)
        }
        "BROADCAST" => {
            nargs(3)?;
            let g = int(1, 2, 32)?;
            if !g.is_power_of_two() {
                return err(col, "swizzle(BROADCAST,size,lane): size is a power of two");
            }
            let lane = int(2, 0, g as i128 - 1)?;
            Ok((32 - g) | lane << 5)
        }
        "BITMASK_PERM" => {
            nargs(2)?;
            let Some(Val::Str(s)) = args.get(1) else {
                return err(
                    col,
                    "swizzle(BITMASK_PERM,\"mask\") needs a 5-character string",
                );
            };
            if s.len() != 5 {
                return err(col, "the bitmask has 5 characters of 0, 1, p, i");
            }
            let (mut and, mut or, mut xor) = (0u16, 0u16, 0u16);
            for (k, ch) in s.chars().enumerate() {
                let b = 1 << (4 - k);
                match ch.to_ascii_lowercase() {
                    '0' => {}
                    '1' => or |= b,
                    'p' => and |= b,
                    'i' => {
                        and |= b;
                        xor |= b;
                    }
                    _ => return err(col, "the bitmask has 5 characters of 0, 1, p, i"),
                }
            }
            Ok(and | or << 5 | xor << 10)
        }
        _ => err(col, format!("unknown swizzle mode `{id}`")),
    }
}

/// Assemble a memory, export or interpolation instruction.
#[allow(clippy::too_many_arguments)]
pub fn assemble(
    gen: Gen,
    op: Op,
    row: &Row,
    ops: &[Operand],
    mods: &[Modifier],
    head_col: u32,
    end_col: u32,
) -> Result<Inst, PErr> {
    let m = op.mnemonic();
    let (fields, enc) = match row.enc {
        TableEnc::Vintrp => {
            collect(mods, &[], &[], false, gen)?;
            expect_n(ops, 3, m, end_col)?;
            let vdst = opnd::vreg_n(&ops[0], 1, "destination")?;
            let vsrc = if m == "v_interp_mov_f32" {
                parse_param(&ops[1])?
            } else {
                opnd::vreg_n(&ops[1], 1, "source")?
            };
            let (attr, chan) = parse_attr(&ops[2])?;
            (
                Fields::Vintrp(VintrpFields {
                    vdst,
                    vsrc,
                    attr,
                    chan,
                }),
                Enc::Vintrp,
            )
        }
        TableEnc::Ds => {
            let two = ds_two_offsets(op);
            let values: &[&str] = if two {
                &["offset0", "offset1"]
            } else {
                &["offset"]
            };
            let md = collect(mods, &["gds"], values, m == "ds_swizzle_b32", gen)?;
            let lay = ds_layout(gen, op);
            expect_n(ops, lay.len(), m, end_col)?;
            let mut ds = DsFields {
                gds: md.has("gds"),
                ..DsFields::default()
            };
            for ((f, d), o) in lay.iter().zip(ops) {
                let r = opnd::vreg_n(o, *d, "operand")?;
                match f {
                    DsField::Vdst => ds.vdst = r,
                    DsField::Addr => ds.addr = r,
                    DsField::Data0 => ds.data0 = r,
                    DsField::Data1 => ds.data1 = r,
                }
            }
            (ds.offset0, ds.offset1) = if two {
                (md.offset0.unwrap_or(0) as u8, md.offset1.unwrap_or(0) as u8)
            } else {
                let o = md.offset.map_or(0, |x| x.0) as u16;
                (o as u8, (o >> 8) as u8)
            };
            (Fields::Ds(ds), Enc::Ds)
        }
        TableEnc::Mubuf | TableEnc::Mtbuf => {
            let is_t = row.enc == TableEnc::Mtbuf;
            let flags: &[&str] = if is_t {
                &["offen", "idxen", "addr64", "glc", "slc", "tfe"]
            } else {
                &["offen", "idxen", "addr64", "glc", "slc", "tfe", "lds"]
            };
            let values: &[&str] = if is_t {
                &["offset", "format", "dfmt", "nfmt"]
            } else {
                &["offset"]
            };
            let md = collect(mods, flags, values, false, gen)?;
            let w = row_sig(gen, op, row.enc);
            let (offen, idxen, addr64) = (md.has("offen"), md.has("idxen"), md.has("addr64"));
            if addr64 && gen == Gen::Gfx8 {
                return err(head_col, "addr64 does not exist on GCN 1.2");
            }
            let data_dwords = buffer_vdata_dwords(op, &w, md.has("tfe"));
            // LLVM's load into LDS names no data register (VDATA is 0).
            let padded: Vec<Operand>;
            let ops = if data_dwords.is_some()
                && md.has("lds")
                && ops.len() == 3
                && m.starts_with("buffer_load")
            {
                padded = [&[Operand::plain(Val::Ident("v0".into()), head_col)], ops].concat();
                &padded[..]
            } else {
                ops
            };
            let n = if data_dwords.is_some() { 4 } else { w.len() };
            expect_n(ops, n, m, end_col)?;
            let mut k = 0;
            let (mut vdata, mut vaddr) = (0, 0);
            if let Some(nd) = data_dwords {
                vdata = opnd::vreg_n(&ops[0], nd, "data")?;
                let a = &ops[1];
                let is_off = matches!(&a.val, Val::Ident(s) if s.eq_ignore_ascii_case("off"));
                if is_off {
                    opnd::no_mods(a)?;
                    if offen || idxen || addr64 {
                        return err(a.col, "`off` means no address: drop offen/idxen/addr64");
                    }
                } else {
                    if !(offen || idxen || addr64) {
                        return err(
                            a.col,
                            "an address register needs offen, idxen or addr64 (or write `off`)",
                        );
                    }
                    let want = buffer_vaddr_dwords(offen, idxen, addr64);
                    vaddr = opnd::vreg_n(a, want, "address")?;
                }
                k = 2;
            }
            if w.is_empty() {
                expect_n(ops, 0, m, end_col)?;
            }
            let (srsrc, soffset) = if w.is_empty() {
                (0, Src(0))
            } else {
                let r = opnd::sreg_n(gen, &ops[k], 4, "resource")?;
                if r % 4 != 0 {
                    return err(
                        ops[k].col,
                        "the resource descriptor starts at a multiple of 4",
                    );
                }
                let so = &ops[k + 1];
                opnd::no_mods(so)?;
                let (s, l) = opnd::src(gen, so, Ty::B32)?;
                if s.is_vgpr() || l.is_some() {
                    return err(so.col, "soffset is an SGPR, M0 or an inline constant");
                }
                (r as u8, s)
            };
            let offset = md.offset.map_or(0, |x| x.0);
            if offset > 4095 {
                return err(
                    md.offset.map_or(head_col, |x| x.1),
                    "buffer offset is 0..4095",
                );
            }
            let b = BufferFields {
                vdata,
                vaddr,
                srsrc,
                soffset,
                offset: offset as u16,
                offen,
                idxen,
                glc: md.has("glc"),
                slc: md.has("slc"),
                tfe: md.has("tfe"),
                lds: md.has("lds"),
                addr64,
                format: is_t.then(|| md.format.unwrap_or((1, 0))),
            };
            let enc = if is_t { Enc::Mtbuf } else { Enc::Mubuf };
            (b.fields(), enc)
        }
        TableEnc::Flat => {
            // FLAT has no offset field before GCN 1.4: LLVM accepts `offset:0`, which says so.
            let mods: Vec<Modifier> = mods
                .iter()
                .filter(|m| !(m.name == "offset" && m.value == Some(ModVal::Int(0))))
                .cloned()
                .collect();
            let md = collect(&mods, &["glc", "slc", "tfe"], &[], false, gen)?;
            let w = row_sig(gen, op, TableEnc::Flat);
            let d = |i: usize| w.get(i).map_or(1, |x| x.1);
            let glc = md.has("glc");
            let (vdst, addr, data) = match flat_kind(op) {
                FlatKind::Load => {
                    expect_n(ops, 2, m, end_col)?;
                    (
                        opnd::vreg_n(&ops[0], d(0), "destination")?,
                        opnd::vreg_n(&ops[1], d(1), "address")?,
                        0,
                    )
                }
                FlatKind::Store => {
                    expect_n(ops, 2, m, end_col)?;
                    (
                        0,
                        opnd::vreg_n(&ops[0], d(0), "address")?,
                        opnd::vreg_n(&ops[1], d(1), "data")?,
                    )
                }
                FlatKind::Atomic => {
                    let n = if glc { 3 } else { 2 };
                    expect_n(ops, n, m, end_col)?;
                    let k = glc as usize;
                    let vdst = if glc {
                        let rd = if m.contains("cmpswap") {
                            (d(1) / 2).max(1)
                        } else {
                            d(1)
                        };
                        opnd::vreg_n(&ops[0], rd, "destination")?
                    } else {
                        0
                    };
                    (
                        vdst,
                        opnd::vreg_n(&ops[k], d(0), "address")?,
                        opnd::vreg_n(&ops[k + 1], d(1), "data")?,
                    )
                }
            };
            (
                Fields::Flat(FlatFields {
                    vdst,
                    addr,
                    data,
                    glc,
                    slc: md.has("slc"),
                    tfe: md.has("tfe"),
                }),
                Enc::Flat,
            )
        }
        TableEnc::Exp => {
            let md = collect(mods, &["done", "compr", "vm"], &[], false, gen)?;
            expect_n(ops, 5, m, end_col)?;
            let tgt = exp_target(&ops[0])?;
            let compr = md.has("compr");
            let mut en = 0u32;
            let mut regs = [0u8; 4];
            for i in 0..4 {
                let o = &ops[i + 1];
                if matches!(&o.val, Val::Ident(s) if s.eq_ignore_ascii_case("off")) {
                    continue;
                }
                let r = opnd::vreg_n(o, 1, "export source")?;
                en |= 1 << i;
                let slot = if compr { i / 2 } else { i };
                if compr && en >> (slot * 2) & 1 != 0 && i % 2 == 1 && regs[slot] != r {
                    return err(o.col, "compressed exports name each register twice");
                }
                regs[slot] = r;
            }
            let tag = if gen == Gen::Gfx8 {
                0xc400_0000
            } else {
                0xf800_0000
            };
            let w0 = tag
                | en
                | (tgt as u32) << 4
                | (compr as u32) << 10
                | (md.has("done") as u32) << 11
                | (md.has("vm") as u32) << 12;
            let w1 = u32::from_le_bytes(regs);
            (Fields::Raw { words: [w0, w1] }, Enc::Exp)
        }
        TableEnc::Mimg => {
            let md = collect(
                mods,
                &["unorm", "glc", "slc", "r128", "tfe", "lwe", "da", "d16"],
                &["dmask"],
                false,
                gen,
            )?;
            let w = sig_dwords(row);
            let sampler = w.len() >= 4;
            expect_n(ops, if sampler { 4 } else { 3 }, m, end_col)?;
            let dmask = md.dmask.unwrap_or(0);
            let mut nd = if m.starts_with("image_gather4") {
                4
            } else {
                (dmask.count_ones() as u8).max(1)
            };
            if md.has("tfe") {
                nd += 1;
            }
            let vdata = opnd::vreg_n(&ops[0], nd, "data")?;
            let vaddr = opnd::vreg_any(&ops[1], "address")?;
            let r128 = md.has("r128");
            // With R128 the hardware reads 4 registers; LLVM writes the range as 8 on GCN 1.2,
            // so both spellings are accepted (only the first register is encoded).
            let srsrc = match opnd::sreg_n(gen, &ops[2], if r128 { 4 } else { 8 }, "resource") {
                Err(_) if r128 => opnd::sreg_n(gen, &ops[2], 8, "resource")?,
                r => r?,
            };
            if srsrc % 4 != 0 {
                return err(
                    ops[2].col,
                    "the resource descriptor starts at a multiple of 4",
                );
            }
            let ssamp = if sampler {
                let s = opnd::sreg_n(gen, &ops[3], 4, "sampler")?;
                if s % 4 != 0 {
                    return err(
                        ops[3].col,
                        "the sampler descriptor starts at a multiple of 4",
                    );
                }
                s / 4
            } else {
                0
            };
            if md.has("d16") && gen != Gen::Gfx8 {
                return err(head_col, "d16 exists only on GCN 1.2");
            }
            if md.has("d16") && !mimg_has_d16(op) {
                return err(head_col, format!("{m} has no d16 form"));
            }
            let opc = row.opcode[gen.index()].unwrap_or(0) as u32;
            let bit = |f: &str, b: u32| (md.has(f) as u32) << b;
            let w0 = 0xf000_0000
                | (dmask as u32) << 8
                | bit("unorm", 12)
                | bit("glc", 13)
                | bit("da", 14)
                | bit("r128", 15)
                | bit("tfe", 16)
                | bit("lwe", 17)
                | opc << 18
                | bit("slc", 25);
            let w1 = vaddr as u32
                | (vdata as u32) << 8
                | ((srsrc / 4) as u32) << 16
                | (ssamp as u32) << 21
                | bit("d16", 31);
            (Fields::Raw { words: [w0, w1] }, Enc::Mimg)
        }
        _ => return err(head_col, format!("{m}: unsupported encoding")),
    };
    Ok(Inst {
        op,
        enc,
        fields,
        literal: None,
    })
}

/// EXP target name → TGT.
fn exp_target(o: &Operand) -> Result<u8, PErr> {
    opnd::no_mods(o)?;
    let Val::Ident(s) = &o.val else {
        return err(
            o.col,
            "expected an export target (mrt0-7, mrtz, null, pos0-3, param0-31)",
        );
    };
    let l = s.to_ascii_lowercase();
    let n = |p: &str| l.strip_prefix(p).and_then(|d| d.parse::<u8>().ok());
    let t = if l == "mrtz" {
        Some(8)
    } else if l == "null" {
        Some(9)
    } else if let Some(i) = n("mrt").filter(|i| *i < 8) {
        Some(i)
    } else if let Some(i) = n("pos").filter(|i| *i < 4) {
        Some(12 + i)
    } else {
        n("param").filter(|i| *i < 32).map(|i| 32 + i)
    };
    t.ok_or(PErr {
        col: o.col,
        msg: format!("unknown export target `{s}`"),
    })
}
