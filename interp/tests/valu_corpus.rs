//! Every vector ALU and VINTRP instruction of the LLVM-made corpora (tests/data/gcn: random
//! instructions of every family per generation, every opcode LLVM knows, the VOP3 seed
//! set) is decoded and executed on a wave with random registers: nothing panics, and the
//! only `Unsupported` errors are the documented ones (LDS_DIRECT operands). Bad operands
//! and out-of-bounds accesses that random fields produce are reported as errors.

mod valu_common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use valu_common::{Machine, Rng};
use wavejit_interp::ExecErrorKind;
use wavejit_isa::gcn::{decode, DppFields, Enc, SdwaFields, VintrpFields, Vop3Fields};
use wavejit_isa::Gen;

fn rows() -> Vec<(Gen, Vec<u8>, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/gcn");
    let mut out = Vec::new();
    for file in [
        "fiji.tsv",
        "tahiti.tsv",
        "bonaire.tsv",
        "vop3_seed_ops.tsv",
        "opcodes.tsv",
    ] {
        let Ok(text) = std::fs::read_to_string(dir.join(file)) else {
            eprintln!("skipping {file}: not present");
            continue;
        };
        for line in text.lines() {
            let c: Vec<&str> = line.split('\t').collect();
            let (cpu, asm, words) = match c.len() {
                3 => (c[0], c[1], c[2]),
                6 => (c[0], c[4], c[5]),
                _ => continue,
            };
            let Ok(gen) = cpu.parse::<Gen>() else {
                continue;
            };
            let mut bytes = Vec::new();
            for w in words.split_whitespace() {
                match u32::from_str_radix(w, 16) {
                    Ok(x) => bytes.extend_from_slice(&x.to_le_bytes()),
                    Err(_) => break,
                }
            }
            out.push((gen, bytes, asm.to_string()));
        }
    }
    out
}

#[test]
fn every_corpus_vector_instruction_executes() {
    let mut rng = Rng(31);
    let mut ran = 0usize;
    let mut by_enc: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut unsupported = Vec::new();
    let mut other_errors = BTreeMap::new();
    for (gen, bytes, asm) in rows() {
        let Ok((inst, _)) = decode(gen, &bytes, 0) else {
            continue;
        };
        let enc = match inst.enc {
            Enc::Vop1 => "vop1",
            Enc::Vop2 => "vop2",
            Enc::Vopc => "vopc",
            Enc::Vop3 => "vop3",
            Enc::Sdwa { .. } => "sdwa",
            Enc::Dpp { .. } => "dpp",
            Enc::Vintrp => "vintrp",
            _ => continue,
        };
        let mut m = Machine::new(gen);
        for r in 0..256 {
            let seed = rng.next();
            m.set_v(r, |l| {
                (seed.rotate_left(l as u32) ^ (l as u64 * 0x9E37)) as u32
            });
        }
        for s in 0..104 {
            m.wave.sgpr[s] = rng.next() as u32;
        }
        m.wave.exec = rng.next() | 1;
        m.wave.vcc = rng.next();
        m.wave.m0 = (rng.next() as u32 & 0x7FFF_0000) | (rng.next() as u32 & 0x3FF);
        m.wave.mode = [0xC0, 0x00, 0xF0, 0x3FF][(rng.next() % 4) as usize];
        let r = if inst.enc == Enc::Vintrp {
            m.vintrp(&inst)
        } else {
            m.valu(&inst)
        };
        ran += 1;
        *by_enc.entry(enc).or_default() += 1;
        match r {
            Ok(()) => {}
            Err(ExecErrorKind::Unsupported { mnemonic }) => {
                if !mnemonic.contains("LDS_DIRECT") {
                    unsupported.push(format!("{gen} {asm}: {mnemonic}"));
                }
            }
            // The random M0 takes V_MOVREL*'s register index past v255: the one other
            // error expected, and it must say so.
            Err(ExecErrorKind::BadOperand(m))
                if asm.starts_with("v_movrel") && m.contains("+ M0") => {}
            Err(e) => {
                *other_errors.entry(format!("{gen} {asm}: {e}")).or_insert(0) += 1;
            }
        }
    }
    eprintln!("ran {ran} corpus vector instructions: {by_enc:?}; errors {other_errors:?}");
    assert!(ran > 3000, "{ran}");
    assert!(
        unsupported.is_empty(),
        "{} unsupported:\n{}",
        unsupported.len(),
        unsupported.join("\n")
    );
    assert!(
        other_errors.is_empty(),
        "unexpected errors: {other_errors:#?}"
    );
}

/// Hand-built instructions with random fields (any source code, any register, any
/// modifier bits, reserved selections and controls) for every vector operation: each
/// either runs or returns an error — never a panic.
#[test]
fn random_fields_never_panic() {
    use wavejit_isa::gcn::table::{TableEnc, ROWS};
    use wavejit_isa::gcn::{Fields, Inst, Src, VopBase};
    let mut rng = Rng(32);
    let mut runs = 0;
    for row in ROWS.iter() {
        if !matches!(
            row.enc,
            TableEnc::Vop1
                | TableEnc::Vop2
                | TableEnc::Vopc
                | TableEnc::Vop3
                | TableEnc::Vop3b
                | TableEnc::Vintrp
        ) {
            continue;
        }
        for gen in Gen::ALL {
            if row.opcode[gen.index()].is_none() {
                continue;
            }
            for _ in 0..12 {
                let r = rng.next();
                let src = |x: u64| Src((x % 512) as u16);
                let base = [VopBase::Vop1, VopBase::Vop2, VopBase::Vopc][(r % 3) as usize];
                let (enc, fields) = match (rng.next() % 6, row.enc) {
                    (_, TableEnc::Vintrp) => (
                        Enc::Vintrp,
                        Fields::Vintrp(VintrpFields {
                            vdst: r as u8,
                            vsrc: (r >> 8) as u8,
                            attr: (r >> 16) as u8 & 63,
                            chan: (r >> 24) as u8 & 3,
                        }),
                    ),
                    (0, _) => (
                        Enc::Vop1,
                        Fields::Vop1 {
                            vdst: r as u8,
                            src0: src(r >> 8),
                        },
                    ),
                    (1, _) => (
                        Enc::Vop2,
                        Fields::Vop2 {
                            vdst: r as u8,
                            src0: src(r >> 8),
                            vsrc1: (r >> 20) as u8,
                        },
                    ),
                    (2, _) => (
                        Enc::Vopc,
                        Fields::Vopc {
                            src0: src(r >> 8),
                            vsrc1: (r >> 20) as u8,
                        },
                    ),
                    (3, _) => (
                        Enc::Sdwa { base },
                        Fields::Sdwa(SdwaFields {
                            vdst: r as u8,
                            src0: (r >> 8) as u8,
                            vsrc1: (r >> 16) as u8,
                            dst_sel: (r >> 24) as u8 & 7,
                            dst_unused: (r >> 27) as u8 & 3,
                            clamp: r >> 29 & 1 != 0,
                            src0_sel: (r >> 30) as u8 & 7,
                            src0_sext: r >> 33 & 1 != 0,
                            src0_neg: r >> 34 & 1 != 0,
                            src0_abs: r >> 35 & 1 != 0,
                            src1_sel: (r >> 36) as u8 & 7,
                            src1_sext: r >> 39 & 1 != 0,
                            src1_neg: r >> 40 & 1 != 0,
                            src1_abs: r >> 41 & 1 != 0,
                        }),
                    ),
                    (4, _) => (
                        Enc::Dpp { base },
                        Fields::Dpp(DppFields {
                            vdst: r as u8,
                            src0: (r >> 8) as u8,
                            vsrc1: (r >> 16) as u8,
                            dpp_ctrl: (r >> 24) as u16 & 0x1FF,
                            bound_ctrl: r >> 33 & 1 != 0,
                            src0_neg: r >> 34 & 1 != 0,
                            src0_abs: r >> 35 & 1 != 0,
                            src1_neg: r >> 36 & 1 != 0,
                            src1_abs: r >> 37 & 1 != 0,
                            bank_mask: (r >> 40) as u8 & 15,
                            row_mask: (r >> 44) as u8 & 15,
                        }),
                    ),
                    _ => {
                        let s = rng.next();
                        (
                            Enc::Vop3,
                            Fields::Vop3(Vop3Fields {
                                vdst: r as u8,
                                sdst: (r >> 8) as u8 & 127,
                                src: [src(s), src(s >> 9), src(s >> 18)],
                                abs: (s >> 27) as u8 & 7,
                                neg: (s >> 30) as u8 & 7,
                                clamp: s >> 33 & 1 != 0,
                                omod: (s >> 34) as u8 & 3,
                            }),
                        )
                    }
                };
                let inst = Inst {
                    op: row.op,
                    enc,
                    fields,
                    literal: (r & 1 != 0).then_some(rng.next() as u32),
                };
                let mut m = Machine::new(gen);
                m.wave.exec = rng.next();
                m.wave.m0 = rng.next() as u32;
                m.wave.mode = rng.next() as u32 & 0x3FF;
                for reg in [0usize, 1, 2, 255] {
                    let x = rng.next() as u32;
                    m.set_v(reg, |l| x.rotate_left(l as u32));
                }
                let _ = if enc == Enc::Vintrp {
                    m.vintrp(&inst)
                } else {
                    m.valu(&inst)
                };
                runs += 1;
            }
        }
    }
    assert!(runs > 5000, "{runs}");
}
