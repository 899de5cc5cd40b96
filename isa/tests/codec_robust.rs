//! Hostile input: truncated instructions at every length, garbage bytes, and
//! `ir::Program::new` on random bytes never panic; truncation is reported as `Truncated`
//! at the instruction's offset. Plus `flow` and basic blocks on a hand-assembled program.

mod codec_util;

use codec_util::{mcpu_file, opcodes_file};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use wavejit_isa::error::DecodeErrorKind;
use wavejit_isa::gcn::decode;
use wavejit_isa::ir::{flow, Flow, Program};
use wavejit_isa::{Arch, Gen};

#[test]
fn every_strict_prefix_of_a_corpus_instruction_is_truncated() {
    let mut rows = mcpu_file("fiji.tsv");
    rows.extend(mcpu_file("tahiti.tsv"));
    rows.extend(mcpu_file("bonaire.tsv"));
    rows.extend(opcodes_file().into_iter().map(|(r, ..)| r));
    let mut bad = Vec::new();
    for r in &rows {
        let bytes = r.bytes();
        for len in 0..bytes.len() {
            match decode(r.gen, &bytes[..len], 0x40) {
                Err(e) if e.offset == 0x40 => match e.kind {
                    DecodeErrorKind::Truncated { needed, available } => {
                        let want = if len < 4 { 4 } else { bytes.len() as u32 };
                        if available != len as u32 || needed != want {
                            bad.push(format!("{}:{} len {len}: {e}", r.file, r.line));
                        }
                    }
                    _ => bad.push(format!("{}:{} len {len}: {e}", r.file, r.line)),
                },
                other => bad.push(format!("{}:{} len {len}: {other:?}", r.file, r.line)),
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} failures:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn random_bytes_never_panic_the_decoder_or_the_ir() {
    let mut rng = StdRng::seed_from_u64(0xbad_b17e5);
    for i in 0..3000 {
        let len = rng.random_range(0..64usize);
        let code: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        for gen in Gen::ALL {
            for start in 0..code.len().min(8) {
                let _ = decode(gen, &code[start..], start as u32);
            }
            let p = Program::new(Arch::Gcn(gen), &code);
            // Blocks partition the decoded slots in order.
            let mut next = 0;
            for b in &p.blocks {
                assert_eq!(b.first, next, "#{i} {gen}");
                assert!(b.len > 0);
                assert_eq!(b.pc, p.slots[b.first].pc);
                next = b.first + b.len;
            }
            assert_eq!(next, p.slots.len(), "#{i} {gen}");
            // The sweep stops at the first failure, which is the last slot.
            if let Some(k) = p.slots.iter().position(|s| s.inst.is_err()) {
                assert_eq!(k + 1, p.slots.len());
            }
        }
    }
}

fn program(words: &[u32]) -> Program {
    let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    Program::new(Arch::Gcn(Gen::Gfx8), &code)
}

#[test]
fn branches_split_blocks() {
    // Hand-assembled (SOP1 tag 0x17D, SOPP tag 0x17F; gfx8 opcodes from the manuals):
    //  0: s_mov_b32 s0, 0          BE800080  (SOP1 op 0, SSRC0 128 = inline 0)
    //  4: s_cbranch_scc0 1         BF840001  → 4 + 4 + 1*4 = 12
    //  8: s_nop 0                  BF800000
    // 12: s_branch -4              BF82FFFC  → 12 + 4 - 16 = 0
    // 16: s_endpgm                 BF810000
    let p = program(&[
        0xBE80_0080,
        0xBF84_0001,
        0xBF80_0000,
        0xBF82_FFFC,
        0xBF81_0000,
    ]);
    assert_eq!(p.slots.len(), 5);
    assert!(p.slots.iter().all(|s| s.inst.is_ok() && s.size == 4));
    let flows: Vec<Flow> = p
        .slots
        .iter()
        .map(|s| flow(s.inst.as_ref().expect("decoded"), s.pc, s.size))
        .collect();
    assert_eq!(
        flows,
        vec![
            Flow::Next,
            Flow::Branch {
                target: 12,
                conditional: true
            },
            Flow::Next,
            Flow::Branch {
                target: 0,
                conditional: false
            },
            Flow::End,
        ]
    );
    let starts: Vec<(u32, usize)> = p.blocks.iter().map(|b| (b.pc, b.len)).collect();
    assert_eq!(starts, vec![(0, 2), (8, 1), (12, 1), (16, 1)]);
    assert_eq!(p.block_at(12).map(|b| b.first), Some(3));
    assert_eq!(p.slot_index(16), Some(4));
}

#[test]
fn barrier_indirect_and_literal_sizes() {
    //  0: v_mov_b32 v0, 0x12345678   7E0002FF 12345678 (VOP1 op 1, SRC0 255 + literal)
    //  8: s_barrier                  BF8A0000
    // 12: s_setpc_b64 s[4:5]         BE801D04 (gfx8 SOP1 29)
    // 16: s_cbranch_execz -5         BF88FFFB → 16 + 4 - 20 = 0
    // 20: s_endpgm                   BF810000
    let p = program(&[
        0x7E00_02FF,
        0x1234_5678,
        0xBF8A_0000,
        0xBE80_1D04,
        0xBF88_FFFB,
        0xBF81_0000,
    ]);
    let sizes: Vec<(u32, u32)> = p.slots.iter().map(|s| (s.pc, s.size)).collect();
    assert_eq!(sizes, vec![(0, 8), (8, 4), (12, 4), (16, 4), (20, 4)]);
    let flows: Vec<Flow> = p
        .slots
        .iter()
        .map(|s| flow(s.inst.as_ref().expect("decoded"), s.pc, s.size))
        .collect();
    assert_eq!(flows[1], Flow::Barrier);
    assert_eq!(flows[2], Flow::Indirect);
    assert_eq!(
        flows[3],
        Flow::Branch {
            target: 0,
            conditional: true
        }
    );
    let starts: Vec<u32> = p.blocks.iter().map(|b| b.pc).collect();
    assert_eq!(starts, vec![0, 12, 16, 20]);
    // A branch before the code start wraps to a huge target and makes no leader.
    let q = program(&[0xBF82_FFF0, 0xBF81_0000]);
    let f = flow(q.slots[0].inst.as_ref().expect("decoded"), 0, 4);
    assert_eq!(
        f,
        Flow::Branch {
            target: 4u32.wrapping_sub(64),
            conditional: false
        }
    );
    assert_eq!(q.blocks.len(), 2);
}

#[test]
fn garbage_stops_the_sweep_with_its_error() {
    // s_nop, then a VOP3 word with an opcode no generation has (gfx8 VOP3 1023).
    let p = program(&[0xBF80_0000, 0xD3FF_0000, 0, 0xBF81_0000]);
    assert_eq!(p.slots.len(), 2);
    let e = p.slots[1].inst.as_ref().expect_err("unknown opcode");
    assert_eq!(e.offset, 4);
    assert!(
        matches!(
            e.kind,
            DecodeErrorKind::UnknownOpcode {
                op: 1023,
                gen: Gen::Gfx8,
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(p.blocks.len(), 2);
}

#[test]
fn invalid_words_fail_with_the_expected_error() {
    let text = std::fs::read_to_string(codec_util::data_path("invalid.txt")).expect("invalid.txt");
    let mut bad = Vec::new();
    let mut n = 0;
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        n += 1;
        let c: Vec<&str> = line.split('\t').collect();
        let gen: Gen = c[0].parse().expect("generation");
        let bytes: Vec<u8> = c[1]
            .split_whitespace()
            .flat_map(|w| u32::from_str_radix(w, 16).expect("hex").to_le_bytes())
            .collect();
        let got = decode(gen, &bytes, 0);
        let ok = match (c[2], &got) {
            (want, Ok((inst, size))) if want.starts_with("ok:") => {
                let (m, s) = want[3..].split_once(':').expect("ok:mnemonic:bytes");
                inst.op.mnemonic() == m && size.to_string() == s
            }
            ("Truncated", Err(e)) => matches!(e.kind, DecodeErrorKind::Truncated { .. }),
            ("UnknownOpcode", Err(e)) => matches!(e.kind, DecodeErrorKind::UnknownOpcode { .. }),
            ("NotInGeneration", Err(e)) => {
                matches!(e.kind, DecodeErrorKind::NotInGeneration { .. })
            }
            ("LiteralInVop3", Err(e)) => e.kind == DecodeErrorKind::LiteralInVop3,
            (want, Err(e)) if want.starts_with("BadField:") => {
                matches!(e.kind, DecodeErrorKind::BadField { field, .. } if field == &want[9..])
            }
            _ => false,
        };
        if !ok {
            bad.push(format!("invalid.txt:{}: {line}: got {got:?}", i + 1));
        }
    }
    assert!(n >= 30, "{n} cases");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
