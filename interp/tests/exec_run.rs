//! The run loop on decoded programs, built from hand-encoded words (AMD SI/GCN3 manuals'
//! SOP1/SOP2/SOPC/SOPP layouts): a counted loop, the instruction budget, pcs that are not
//! instruction starts, undecodable words.

// Every program runs on the interpreter and the JIT, compared (wavejit-testkit).
use wavejit_interp::exec::{Ctx, Step};
use wavejit_interp::ExecErrorKind;
use wavejit_isa::ir::Program;
use wavejit_isa::state::{Lds, Memory, Wave};
use wavejit_isa::{Arch, Gen};
use wavejit_testkit::conformance::{run, step};

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

// Field layouts: SOP1 = 0xBE80_0000 | sdst << 16 | op << 8 | ssrc0;
// SOP2 = 0x8000_0000 | op << 23 | sdst << 16 | ssrc1 << 8 | ssrc0;
// SOPC = 0xBF00_0000 | op << 16 | ssrc1 << 8 | ssrc0; SOPP = 0xBF80_0000 | op << 16 | simm16.
fn sop1(op: u32, sdst: u32, src: u32) -> u32 {
    0xBE80_0000 | sdst << 16 | op << 8 | src
}
fn sop2(op: u32, sdst: u32, a: u32, b: u32) -> u32 {
    0x8000_0000 | op << 23 | sdst << 16 | b << 8 | a
}
fn sopc(op: u32, a: u32, b: u32) -> u32 {
    0xBF00_0000 | op << 16 | b << 8 | a
}
fn sopp(op: u32, simm: u16) -> u32 {
    0xBF80_0000 | op << 16 | simm as u32
}
const S_ENDPGM: u32 = 0xBF81_0000;

/// sum = 0; n = 10; do { sum += n; n -= 1 } while (n != 0)
fn loop_program(mov_op: u32) -> Vec<u8> {
    bytes(&[
        sop1(mov_op, 0, 128),    // 0x00 s_mov_b32 s0, 0
        sop1(mov_op, 1, 138),    // 0x04 s_mov_b32 s1, 10
        sop2(0, 0, 0, 1),        // 0x08 s_add_u32 s0, s0, s1
        sop2(1, 1, 1, 129),      // 0x0c s_sub_u32 s1, s1, 1
        sopc(7, 1, 128),         // 0x10 s_cmp_lg_u32 s1, 0
        sopp(5, (-4i16) as u16), // 0x14 s_cbranch_scc1 0x08 (0x14 + 4 - 16)
        S_ENDPGM,                // 0x18
    ])
}

struct World {
    wave: Box<Wave>,
    lds: Lds,
    mem: Memory,
}

impl World {
    fn new(gen: Gen) -> World {
        World {
            wave: Wave::new(gen),
            lds: Lds::new(1024),
            mem: Memory::new(),
        }
    }
    fn ctx(&mut self) -> Ctx<'_> {
        Ctx {
            wave: &mut self.wave,
            lds: &mut self.lds,
            mem: &self.mem,
        }
    }
}

#[test]
fn counted_loop_on_every_generation() {
    // s_mov_b32 is SOP1 opcode 3 on GCN 1.0/1.1 and 0 on 1.2; the rest are the same.
    for (gen, mov) in [(Gen::Gfx6, 3), (Gen::Gfx7, 3), (Gen::Gfx8, 0)] {
        let prog = Program::new(Arch::Gcn(gen), &loop_program(mov));
        let mut w = World::new(gen);
        let (s, stats) = run(&mut w.ctx(), &prog, 1000).expect("runs");
        assert_eq!(s, Step::End, "{gen}");
        assert_eq!(w.wave.sgpr[0], 55, "10 + 9 + … + 1");
        assert_eq!(w.wave.sgpr[1], 0);
        assert_eq!(w.wave.scc, 0);
        // 2 moves, 10 iterations of 4, the end.
        assert_eq!(stats.insts, 2 + 10 * 4 + 1);
        assert_eq!(w.wave.pc, 0x18);
    }
}

#[test]
fn instruction_budget() {
    let prog = Program::new(Arch::Gcn(Gen::Gfx8), &bytes(&[sopp(2, 0xffff)])); // s_branch .
    let mut w = World::new(Gen::Gfx8);
    let e = run(&mut w.ctx(), &prog, 1000).unwrap_err();
    assert_eq!(e.pc, 0);
    assert_eq!(e.kind, ExecErrorKind::InstLimit(1000));
    // The loop program needs 43 instructions: 42 is one short.
    let prog = Program::new(Arch::Gcn(Gen::Gfx8), &loop_program(0));
    let mut w = World::new(Gen::Gfx8);
    assert_eq!(
        run(&mut w.ctx(), &prog, 42).unwrap_err().kind,
        ExecErrorKind::InstLimit(42)
    );
    let mut w = World::new(Gen::Gfx8);
    assert!(run(&mut w.ctx(), &prog, 43).is_ok());
}

#[test]
fn pcs_that_are_not_instructions() {
    // Falling off the end.
    let prog = Program::new(Arch::Gcn(Gen::Gfx8), &bytes(&[sop1(0, 0, 129)]));
    let mut w = World::new(Gen::Gfx8);
    let e = run(&mut w.ctx(), &prog, 10).unwrap_err();
    assert_eq!((e.pc, e.kind), (4, ExecErrorKind::PcOutOfCode(4)));
    assert_eq!(w.wave.sgpr[0], 1, "the instruction before ran");
    // Misaligned, inside a literal, far away.
    let code = bytes(&[sop1(0, 0, 255), 0x1234_5678, S_ENDPGM]);
    let prog = Program::new(Arch::Gcn(Gen::Gfx8), &code);
    for pc in [2, 4, 0x1000, u32::MAX - 3] {
        let mut w = World::new(Gen::Gfx8);
        w.wave.pc = pc;
        let e = step(&mut w.ctx(), &prog).unwrap_err();
        assert_eq!((e.pc, e.kind), (pc, ExecErrorKind::PcOutOfCode(pc)));
    }
    // The literal instruction itself runs and skips its literal.
    let mut w = World::new(Gen::Gfx8);
    assert_eq!(run(&mut w.ctx(), &prog, 10).map(|r| r.0), Ok(Step::End));
    assert_eq!(w.wave.sgpr[0], 0x1234_5678);
    // A branch backwards past the start.
    let prog = Program::new(Arch::Gcn(Gen::Gfx8), &bytes(&[sopp(2, 0xfff0)]));
    let mut w = World::new(Gen::Gfx8);
    let e = run(&mut w.ctx(), &prog, 10).unwrap_err();
    assert!(matches!(e.kind, ExecErrorKind::PcOutOfCode(_)), "{e}");
    // Empty code.
    let prog = Program::new(Arch::Gcn(Gen::Gfx8), &[]);
    let mut w = World::new(Gen::Gfx8);
    assert_eq!(
        run(&mut w.ctx(), &prog, 10).unwrap_err().kind,
        ExecErrorKind::PcOutOfCode(0)
    );
}

#[test]
fn undecodable_words_report_their_decode_error() {
    // A truncated instruction: a SOP1 with a literal but no literal dword, then 2 stray
    // bytes.
    let mut code = bytes(&[S_ENDPGM]);
    code.splice(0..0, bytes(&[sop1(0, 0, 129)]));
    code.extend_from_slice(&bytes(&[sop1(0, 0, 255)]));
    let prog = Program::new(Arch::Gcn(Gen::Gfx8), &code);
    let mut w = World::new(Gen::Gfx8);
    w.wave.pc = 8;
    let e = step(&mut w.ctx(), &prog).unwrap_err();
    assert_eq!(e.pc, 8);
    assert!(matches!(e.kind, ExecErrorKind::Decode(_)), "{e}");
    // Every word pattern either runs or fails with a typed error: sweep the tag space.
    for hi in 0..=255u32 {
        let word = hi << 24 | 0x00_1234;
        let code = bytes(&[word, 0x8000_0000, S_ENDPGM]);
        for gen in Gen::ALL {
            let prog = Program::new(Arch::Gcn(gen), &code);
            let mut w = World::new(gen);
            let _ = run(&mut w.ctx(), &prog, 100);
        }
    }
}

#[test]
fn barrier_stops_the_run_and_resumes() {
    // s_mov_b32 s0, 1; s_barrier; s_mov_b32 s0, 2; s_endpgm
    let code = bytes(&[sop1(0, 0, 129), sopp(10, 0), sop1(0, 0, 130), S_ENDPGM]);
    let prog = Program::new(Arch::Gcn(Gen::Gfx8), &code);
    let mut w = World::new(Gen::Gfx8);
    let (s, stats) = run(&mut w.ctx(), &prog, 100).unwrap();
    assert_eq!(
        (s, stats.insts, w.wave.pc, w.wave.sgpr[0]),
        (Step::Barrier, 2, 8, 1)
    );
    let (s, stats) = run(&mut w.ctx(), &prog, 100).unwrap();
    assert_eq!((s, stats.insts, w.wave.sgpr[0]), (Step::End, 2, 2));
}
