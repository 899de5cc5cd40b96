//! EXP (AMD's SI/CI/VI manuals' export fields; `wavejit_interp::export`): channels by EN,
//! COMPR's f16 pairs, EXEC-masked lanes, DONE/VM, targets, program order and the export
//! limit. Every program runs on the interpreter and on the JIT, compared bit for bit
//! (exports included), before the hand-worked assertions.

use wavejit_interp::exec::{Ctx, Step};
use wavejit_interp::ExecErrorKind;
use wavejit_isa::gcn::ExpTarget;
use wavejit_isa::ir::Program;
use wavejit_isa::state::{Lds, Memory, Wave, MAX_EXPORTS};
use wavejit_isa::{Arch, Gen};
use wavejit_testkit::conformance::run;

fn program(gen: Gen, text: &str) -> Program {
    let a = wavejit_isa::gcn::asm::assemble(gen, text).expect("assembles");
    Program::new(Arch::Gcn(gen), &a.bytes)
}

/// Run `text` on a wave prepared by `init`; returns the wave.
fn exec(gen: Gen, text: &str, init: impl Fn(&mut Wave)) -> Result<Box<Wave>, ExecErrorKind> {
    let prog = program(gen, text);
    let mut wave = Wave::new(gen);
    init(&mut wave);
    let mut lds = Lds::new(256);
    let mem = Memory::new();
    let mut ctx = Ctx {
        wave: &mut wave,
        lds: &mut lds,
        mem: &mem,
    };
    let (step, _) = run(&mut ctx, &prog, 10_000).map_err(|e| e.kind)?;
    assert_eq!(step, Step::End);
    Ok(wave)
}

const GENS: [Gen; 3] = [Gen::Gfx6, Gen::Gfx7, Gen::Gfx8];

#[test]
fn channels_follow_en_and_lanes_follow_exec() {
    for gen in GENS {
        let w = exec(gen, "exp mrt3 v1, off, v3, v4 vm\ns_endpgm", |w| {
            w.exec = 0x8000_0000_0000_000A; // lanes 1, 3 and 63
            for lane in 0..64 {
                w.vgpr[1][lane] = 100 + lane as u32;
                w.vgpr[2][lane] = 200 + lane as u32;
                w.vgpr[3][lane] = 1.5f32.to_bits();
                w.vgpr[4][lane] = (-(lane as f32)).to_bits();
            }
        })
        .expect("runs");
        assert_eq!(w.exports.len(), 1);
        let e = &w.exports[0];
        assert_eq!(e.target(), Some(ExpTarget::Mrt(3)));
        assert_eq!((e.en, e.compr, e.done, e.vm), (0b1101, false, false, true));
        assert_eq!(e.exec, 0x8000_0000_0000_000A);
        for lane in 0..64 {
            let on = matches!(lane, 1 | 3 | 63);
            assert_eq!(e.data[0][lane], if on { 100 + lane as u32 } else { 0 });
            assert_eq!(e.data[1][lane], 0, "channel 1 is off: v2 is not read");
            assert_eq!(e.channel_f32(1, lane), None);
            let want_z = on.then_some(1.5f32);
            assert_eq!(e.channel_f32(2, lane), want_z, "lane {lane}");
            let want_w = on.then_some(-(lane as f32));
            assert_eq!(e.channel_f32(3, lane), want_w, "lane {lane}");
        }
    }
}

#[test]
fn compressed_exports_carry_f16_pairs() {
    // v_cvt_pkrtz_f16_f32 packs (low, high): 0.5 → 0x3800, -1.5 → 0xbe00 (f16: sign,
    // 5-bit exponent biased by 15, 10-bit mantissa); 1.0 → 0x3c00, 65504.0 → 0x7bff.
    for gen in GENS {
        let text = "v_cvt_pkrtz_f16_f32 v2, 0.5, v6\n\
                    v_cvt_pkrtz_f16_f32 v5, 1.0, v7\n\
                    exp mrt1 v2, v2, v5, v5 done compr vm\n\
                    s_endpgm";
        let w = exec(gen, text, |w| {
            w.exec = 0xFFFF_0000_FFFF_0000;
            for lane in 0..64 {
                w.vgpr[6][lane] = (-1.5f32).to_bits();
                w.vgpr[7][lane] = 65504f32.to_bits();
            }
        })
        .expect("runs");
        let e = &w.exports[0];
        assert_eq!(e.target(), Some(ExpTarget::Mrt(1)));
        assert_eq!((e.en, e.compr, e.done, e.vm), (15, true, true, true));
        for lane in 0..64 {
            let on = w.exec >> lane & 1 != 0;
            assert_eq!(e.data[0][lane], if on { 0xbe00_3800 } else { 0 });
            assert_eq!(e.data[1][lane], if on { 0x7bff_3c00 } else { 0 });
            assert_eq!(e.data[2][lane], 0);
            assert_eq!(e.data[3][lane], 0);
            let ch: Vec<Option<f32>> = (0..4).map(|c| e.channel_f32(c, lane)).collect();
            let want = if on {
                vec![Some(0.5), Some(-1.5), Some(1.0), Some(65504.0)]
            } else {
                vec![None; 4]
            };
            assert_eq!(ch, want, "lane {lane}");
        }
    }
}

#[test]
fn half_enabled_compressed_export_reads_one_source() {
    // EN = 0b0011: only VSRC0's pair (LLVM writes `v2, v2, off, off`).
    let w = exec(
        Gen::Gfx8,
        "exp mrt0 v2, v2, off, off compr\ns_endpgm",
        |w| {
            for lane in 0..64 {
                w.vgpr[2][lane] = 0x3c00_3800; // (0.5, 1.0)
            }
        },
    )
    .expect("runs");
    let e = &w.exports[0];
    assert_eq!(e.en, 0b0011);
    assert_eq!(e.channel_f32(0, 9), Some(0.5));
    assert_eq!(e.channel_f32(1, 9), Some(1.0));
    assert_eq!(e.channel_f32(2, 9), None);
    assert!(e.data[1].iter().all(|&d| d == 0));
}

#[test]
fn exports_are_kept_in_program_order_with_their_targets() {
    let text = "exp pos0 v0, v0, v0, v0 done\n\
                exp param5 v0, off, off, off\n\
                exp mrtz v0, off, off, off\n\
                exp null off, off, off, off done vm\n\
                exp mrt7 v0, v0, v0, v0\n\
                s_endpgm";
    let w = exec(Gen::Gfx7, text, |w| w.vgpr[0] = [7; 64]).expect("runs");
    let got: Vec<(Option<ExpTarget>, u8, bool, bool)> = w
        .exports
        .iter()
        .map(|e| (e.target(), e.en, e.done, e.vm))
        .collect();
    assert_eq!(
        got,
        vec![
            (Some(ExpTarget::Pos(0)), 15, true, false),
            (Some(ExpTarget::Param(5)), 1, false, false),
            (Some(ExpTarget::Mrtz), 1, false, false),
            (Some(ExpTarget::Null), 0, true, true),
            (Some(ExpTarget::Mrt(7)), 15, false, false),
        ]
    );
    assert_eq!(w.exports[4].channel_f32(3, 0), Some(f32::from_bits(7)));
}

#[test]
fn exec_zero_still_records_an_export_with_no_lanes() {
    let w = exec(Gen::Gfx6, "exp mrt0 v0, v0, v0, v0\ns_endpgm", |w| {
        w.exec = 0;
        w.vgpr[0] = [1; 64];
    })
    .expect("runs");
    assert_eq!(w.exports.len(), 1);
    assert_eq!(w.exports[0].exec, 0);
    assert!(w.exports[0].data.iter().flatten().all(|&d| d == 0));
}

#[test]
fn a_loop_of_exports_stops_at_the_limit() {
    // s0 counts down from MAX_EXPORTS + 1: the export that would be number
    // MAX_EXPORTS + 1 is refused, in both engines, at its pc. The branch at 24 goes back
    // to the exp at 8: 24 + 4 + 4 × (-5).
    let text = format!(
        "s_mov_b32 s0, {}\n\
         exp mrt0 v0, off, off, off\n\
         s_sub_u32 s0, s0, 1\n\
         s_cmp_lg_u32 s0, 0\n\
         s_cbranch_scc1 -5\n\
         s_endpgm",
        MAX_EXPORTS + 1
    );
    let prog = program(Gen::Gfx8, &text);
    let mut wave = Wave::new(Gen::Gfx8);
    let mut lds = Lds::new(0);
    let mem = Memory::new();
    let mut ctx = Ctx {
        wave: &mut wave,
        lds: &mut lds,
        mem: &mem,
    };
    let e = run(&mut ctx, &prog, 100_000).expect_err("too many exports");
    assert_eq!(e.kind, ExecErrorKind::ExportLimit(MAX_EXPORTS));
    assert_eq!(
        e.pc, 8,
        "the exp after the 8-byte s_mov_b32 with its literal"
    );
    assert_eq!(wave.exports.len(), MAX_EXPORTS);
}
