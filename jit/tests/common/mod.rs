//! The differential harness shared by the JIT's tests: build a program from hand-made
//! instructions (encoded, then decoded as any program is), give both engines the same
//! random initial state (NaNs with payloads, infinities, denormals, -0.0 among the
//! values), run the interpreter and the JIT, and compare everything bit for bit:
//! VGPRs, SGPRs, EXEC, VCC, M0, SCC, MODE, pc, LDS, memory, and the run's outcome.

#![allow(dead_code)]

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use wavejit_interp::{Ctx, ExecError, RunStats, Step};
use wavejit_isa::arch::{Arch, Gen};
use wavejit_isa::gcn::{DppFields, Fields, Inst, Op, SdwaFields, Src, VopBase};
use wavejit_isa::ir::Program;
use wavejit_isa::state::diff::image_diff;
use wavejit_isa::state::{Lds, Memory, Wave};
use wavejit_jit::gcn::Spec;
use wavejit_jit::{Jit, JitConfig};

/// Interesting 32-bit values: float specials of every class, integer edges.
pub const SPECIAL32: &[u32] = &[
    0x0000_0000,
    0x8000_0000, // ±0
    0x3f80_0000,
    0xbf80_0000,
    0x4000_0000,
    0x3f00_0000,
    0x4b80_0000, // ±1, 2, 0.5, 2^24
    0x7f80_0000,
    0xff80_0000, // ±inf
    0x7fc0_0000,
    0xffc0_0000,
    0x7fc0_0001,
    0x7f80_0001,
    0xffbf_ffff, // NaNs with payloads
    0x0000_0001,
    0x807f_ffff,
    0x0040_0000, // denormals
    0x0080_0000,
    0x8080_0000,
    0x7f7f_ffff,
    0xff7f_ffff, // min normal, max finite
    0xffff_ffff,
    0x7fff_ffff,
    0x0000_00ff,
    0x0000_ffff,
    0x00ff_ffff,
    0x0080_0001,
    1,
    2,
    31,
    32,
    33,
];

/// A random 32-bit value: a special value, a small integer, a "reasonable" float, or raw
/// bits.
pub fn rand32(rng: &mut StdRng) -> u32 {
    match rng.random_range(0..8) {
        0 | 1 => SPECIAL32[rng.random_range(0..SPECIAL32.len())],
        2 => rng.random_range(0..64),
        3 | 4 => (rng.random_range(-1000.0f32..1000.0)).to_bits(),
        5 => (rng.random_range(-2.0f32..2.0)).to_bits(),
        _ => rng.random(),
    }
}

/// A wave with every register random (MODE as given, pc 0).
pub fn random_wave(gen: Gen, rng: &mut StdRng, mode: u32) -> Box<Wave> {
    let mut w = Wave::new(gen);
    for r in 0..256 {
        for l in 0..64 {
            w.vgpr[r][l] = rand32(rng);
        }
    }
    for s in 0..128u8 {
        w.sgpr[s as usize] = rand32(rng);
    }
    w.vcc = rng.random();
    w.m0 = rng.random_range(0..1024);
    w.scc = rng.random_range(0..2);
    w.exec = match rng.random_range(0..4) {
        0 => u64::MAX,
        1 => rng.random(),
        2 => 0x00ff_00ff_f0f0_0f0f,
        _ => u64::MAX,
    };
    w.mode = mode;
    w.pc = 0;
    w
}

/// Set the 64-bit VGPR pair `r`, `r + 1` of lane `l` to `x` (low word in `r`).
pub fn put64(w: &mut Wave, r: usize, l: usize, x: u64) {
    w.vgpr[r][l] = x as u32;
    w.vgpr[r + 1][l] = (x >> 32) as u32;
}

/// The 64-bit VGPR pair `r`, `r + 1` of lane `l`.
pub fn get64(w: &Wave, r: usize, l: usize) -> u64 {
    w.vgpr[r][l] as u64 | (w.vgpr[r + 1][l] as u64) << 32
}

/// The program made of `insts` (encoded for `gen`, then decoded).
pub fn program(gen: Gen, insts: &[Inst]) -> Program {
    let mut bytes = Vec::new();
    for i in insts {
        let words =
            wavejit_isa::gcn::encode(gen, i).unwrap_or_else(|e| panic!("encode {:?}: {e:?}", i));
        for w in words {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
    }
    let p = Program::new(Arch::Gcn(gen), &bytes);
    for s in &p.slots {
        if let Err(e) = &s.inst {
            panic!("decode at {:#x}: {e}", s.pc);
        }
    }
    p
}

/// A program of `n` instructions drawn by `next` (a draw `gen` cannot encode is drawn
/// again: not every operation exists in every generation), then `s_endpgm`.
pub fn random_program(
    gen: Gen,
    rng: &mut StdRng,
    n: usize,
    mut next: impl FnMut(Gen, &mut StdRng) -> Inst,
) -> (Vec<Inst>, Program) {
    let mut insts: Vec<Inst> = Vec::new();
    while insts.len() < n {
        let inst = next(gen, rng);
        if wavejit_isa::gcn::encode(gen, &inst).is_ok() {
            insts.push(inst);
        }
    }
    insts.push(endpgm());
    let prog = program(gen, &insts);
    (insts, prog)
}

/// `s0 = trips` (`s_movk`), then a loop that runs `body` `trips` times (`s_sub` / `s_cmp`
/// / `s_cbranch_scc1` back to the body's first instruction), then `s_endpgm`.
pub fn counted_loop(gen: Gen, trips: u16, body: &[Inst]) -> Vec<Inst> {
    let mut insts = vec![sopk(Op::SMovkI32, 0, trips)];
    insts.extend_from_slice(body);
    insts.push(sop2(Op::SSubU32, 0, s(0), ic(1)));
    insts.push(sopc(Op::SCmpLgU32, s(0), ic(0)));
    // The branch offset counts dwords from the instruction after the branch.
    let words: usize = insts[1..]
        .iter()
        .map(|i| wavejit_isa::gcn::encode(gen, i).expect("encode").len())
        .sum();
    insts.push(sopp(Op::SCbranchScc1, (-(words as i16 + 1)) as u16));
    insts.push(endpgm());
    insts
}

/// One case of the table-driven generator: a random program of `pool` shaped by `cfg`
/// (`None` if it does not encode) and a random initial state for it, as the program
/// items (to print or shorten), the decoded program, the wave, LDS and memory.
pub fn progen_case(
    gen: Gen,
    pool: &wavejit_isa::progen::gcn::Pool,
    rng: &mut StdRng,
    cfg: &wavejit_isa::progen::shape::ShapeConfig,
) -> Option<(
    wavejit_isa::progen::shape::GcnProgram,
    Program,
    Box<Wave>,
    Lds,
    MemInit,
)> {
    let p = wavejit_isa::progen::shape::program(pool, rng, cfg);
    let bytes = p.encode().ok()?;
    let prog = Program::new(Arch::Gcn(gen), &bytes);
    let st = wavejit_isa::progen::state::gcn_state(gen, rng);
    let mut lds = Lds::new(st.lds.len());
    lds.bytes.copy_from_slice(&st.lds);
    let mem = MemInit {
        regions: st.mem.clone(),
    };
    Some((p, prog, st.wave, lds, mem))
}

/// Memory contents both engines start with.
#[derive(Clone, Debug, Default)]
pub struct MemInit {
    pub regions: Vec<(u64, Vec<u8>)>,
}

impl MemInit {
    pub fn build(&self) -> Memory {
        let mut m = Memory::new();
        for (base, bytes) in &self.regions {
            m.map_bytes(*base, bytes).expect("map");
        }
        m
    }
}

/// Everything observable after a run.
pub struct Outcome {
    pub result: Result<(Step, RunStats), ExecError>,
    pub wave: Box<Wave>,
    pub lds: Lds,
    pub mem: Vec<(u64, Vec<u8>)>,
}

fn dump_mem(m: &Memory) -> Vec<(u64, Vec<u8>)> {
    m.regions()
        .iter()
        .map(|r| {
            let mut b = vec![0u8; r.len as usize];
            m.read(r.base, &mut b).expect("read back");
            (r.base, b)
        })
        .collect()
}

/// Run from copies of `wave`, `lds` and `mem` with `run` (one engine's run of a program).
fn run_on(
    wave: &Wave,
    lds: &Lds,
    mem: &MemInit,
    run: impl FnOnce(&mut Ctx<'_>) -> Result<(Step, RunStats), ExecError>,
) -> Outcome {
    let mut w = Box::new(wave.clone());
    let mut l = lds.clone();
    let m = mem.build();
    let result = run(&mut Ctx {
        wave: &mut w,
        lds: &mut l,
        mem: &m,
    });
    Outcome {
        result,
        wave: w,
        lds: l,
        mem: dump_mem(&m),
    }
}

pub fn run_interp(prog: &Program, wave: &Wave, lds: &Lds, mem: &MemInit, max: u64) -> Outcome {
    run_on(wave, lds, mem, |ctx| wavejit_interp::run(ctx, prog, max))
}

pub fn run_jit(
    jit: &Jit,
    prog: &Program,
    wave: &Wave,
    lds: &Lds,
    mem: &MemInit,
    max: u64,
) -> Outcome {
    run_on(wave, lds, mem, |ctx| jit.run(ctx, prog, max))
}

/// Run `prog` on the JIT alone from `w` with `lds` and memory `mem`: the final wave and
/// the run's counters (how many instructions ran inline, through the interpreter helper,
/// or in the interpreter).
pub fn jit_run_stats(
    jit: &Jit,
    prog: &Program,
    w: &Wave,
    lds: &Lds,
    mem: &MemInit,
) -> Result<(Box<Wave>, wavejit_jit::JitRunStats), ExecError> {
    let (mut wj, mut l) = (Box::new(w.clone()), lds.clone());
    let m = mem.build();
    let mut ctx = Ctx {
        wave: &mut wj,
        lds: &mut l,
        mem: &m,
    };
    let (_, st) = jit.run_with_stats(&mut ctx, prog, 1000)?;
    Ok((wj, st))
}

/// Run `prog` on the JIT alone from `w` (no memory, no LDS) and return its counters.
pub fn jit_stats(jit: &Jit, prog: &Program, w: &Wave) -> wavejit_jit::JitRunStats {
    jit_run_stats(jit, prog, w, &Lds::new(0), &MemInit::default())
        .expect("runs")
        .1
}

/// Assert that `prog` ran from `w` all in compiled code: no instruction through the
/// interpreter helper, none in the interpreter.
pub fn assert_inline(jit: &Jit, prog: &Program, w: &Wave, what: &str) {
    let st = jit_stats(jit, prog, w);
    assert_eq!(st.helper_steps + st.interpreted, 0, "{what}: {st:?}");
}

/// The first difference between two outcomes, described.
pub fn compare(a: &Outcome, b: &Outcome) -> Option<String> {
    if a.result != b.result {
        return Some(format!("result: interp {:?}, jit {:?}", a.result, b.result));
    }
    a.wave
        .diff(&b.wave)
        .chain(a.lds.diff(&b.lds))
        .chain(image_diff(&a.mem, &b.mem))
        .next()
        .map(|d| format!("{}: interp {}, jit {}", d.place, d.a, d.b))
}

/// Run `prog` from `wave` in both engines; panic with the first difference.
pub fn check(jit: &Jit, prog: &Program, wave: &Wave, what: &str) -> Outcome {
    check_with(
        jit,
        prog,
        wave,
        &Lds::new(256),
        &MemInit::default(),
        100_000,
        what,
    )
}

pub fn check_with(
    jit: &Jit,
    prog: &Program,
    wave: &Wave,
    lds: &Lds,
    mem: &MemInit,
    max: u64,
    what: &str,
) -> Outcome {
    let a = run_interp(prog, wave, lds, mem, max);
    let b = run_jit(jit, prog, wave, lds, mem, max);
    if let Some(d) = compare(&a, &b) {
        panic!("{what}: {d}");
    }
    // A unit Cranelift refused would run in the interpreter and hide its lowering.
    assert_eq!(jit.stats().failures, 0, "{what}: {:?}", jit.stats());
    b
}

/// A JIT that compiles everything on first use (and verifies the CLIF in debug builds).
pub fn jit() -> Jit {
    up(Jit::new(JitConfig::default()))
}

/// `j`, whose back end must be up: without one the JIT runs every instruction through the
/// interpreter, and a comparison with the interpreter would compare it with itself.
pub fn up(j: Jit) -> Jit {
    if let Some(e) = j.broken() {
        panic!("the JIT back end is unavailable: {e}");
    }
    j
}

/// The engines a test list runs through: JIT with chunk-major emission (the optimising
/// tier only), and with one instruction at a time (the quick tier first, as by default).
pub fn jits() -> Vec<(&'static str, Jit)> {
    vec![
        (
            "chunk-major",
            up(Jit::new(JitConfig {
                hot_threshold: 0,
                ..JitConfig::default()
            })),
        ),
        (
            "op-major",
            up(Jit::new(JitConfig {
                chunk_major: false,
                ..JitConfig::default()
            })),
        ),
    ]
}

/// Every engine of `jits` compiled every unit it was given (a unit Cranelift refused
/// would run in the interpreter and hide its lowering).
pub fn assert_compiled(jits: &[(&str, Jit)]) {
    for (name, jit) in jits {
        assert_eq!(jit.stats().failures, 0, "{name}: {:?}", jit.stats());
    }
}

/// A block of up to `len` instructions, each picked at random among the candidates `draw`
/// offers (an empty offer adds nothing; at most `tries` draws), then `s_endpgm`.
pub fn random_block(
    rng: &mut StdRng,
    len: usize,
    tries: usize,
    mut draw: impl FnMut(&mut StdRng) -> Vec<Inst>,
) -> Vec<Inst> {
    let mut insts = Vec::new();
    for _ in 0..tries {
        if insts.len() >= len {
            break;
        }
        let cands = draw(rng);
        if let Some(i) = cands.get(rng.random_range(0..cands.len().max(1))) {
            insts.push(*i);
        }
    }
    insts.push(endpgm());
    insts
}

pub fn rng(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

// ---- instruction builders ----------------------------------------------------------------

// Each test binary uses a part of these.
#[allow(unused_imports)]
pub use wavejit_isa::gcn::build::{
    flat, sop1, sop2, sopc, sopk, sopp, vintrp, vop1, vop2, vop3, vopc, with_literal as with_lit,
};

pub fn v(n: u8) -> Src {
    Src::vgpr(n)
}
pub fn s(n: u16) -> Src {
    Src(n)
}
/// Inline integer constant.
pub fn ic(x: i32) -> Src {
    Src(if x >= 0 {
        128 + x as u16
    } else {
        (192 - x) as u16
    })
}

#[allow(clippy::too_many_arguments)]
pub fn vop3m(
    op: Op,
    vdst: u8,
    sdst: u8,
    src: [Src; 3],
    abs: u8,
    neg: u8,
    clamp: bool,
    omod: u8,
) -> Inst {
    let mut i = wavejit_isa::gcn::build::vop3(op, vdst, src);
    if let Fields::Vop3(f) = &mut i.fields {
        (f.sdst, f.abs, f.neg, f.clamp, f.omod) = (sdst, abs, neg, clamp, omod);
    }
    i
}
pub fn endpgm() -> Inst {
    sopp(Op::SEndpgm, 0)
}

/// DPP with control `ctrl`, BOUND_CTRL `bound` and the row and bank masks given.
#[allow(clippy::too_many_arguments)]
pub fn dpp(
    op: Op,
    base: VopBase,
    vdst: u8,
    src0: u8,
    vsrc1: u8,
    ctrl: u16,
    bound: bool,
    row: u8,
    bank: u8,
) -> Inst {
    let mut i = wavejit_isa::gcn::build::dpp(op, base, vdst, src0, vsrc1, ctrl);
    if let Fields::Dpp(f) = &mut i.fields {
        (f.bound_ctrl, f.row_mask, f.bank_mask) = (bound, row, bank);
    }
    i
}

/// SDWA with the destination and source selections and sign extensions given.
#[allow(clippy::too_many_arguments)]
pub fn sdwa(
    op: Op,
    base: VopBase,
    vdst: u8,
    src0: u8,
    vsrc1: u8,
    dst_sel: u8,
    dst_unused: u8,
    sel: [u8; 2],
    sext: [bool; 2],
) -> Inst {
    let mut i = wavejit_isa::gcn::build::sdwa(op, base, vdst, src0, vsrc1);
    if let Fields::Sdwa(f) = &mut i.fields {
        (f.dst_sel, f.dst_unused) = (dst_sel, dst_unused);
        (f.src0_sel, f.src1_sel) = (sel[0], sel[1]);
        (f.src0_sext, f.src1_sext) = (sext[0], sext[1]);
    }
    i
}

// ---- random instruction forms -------------------------------------------------------------

/// Every form of `op` to try (those that do not exist on `gen` fail `encodable`):
/// VOP1 and VOP2 (SRC0 any source, sometimes a literal), VOP3 with and without random
/// ABS/NEG/CLAMP/OMOD, and on GCN 1.2 SDWA (random selections, NEG/ABS, CLAMP) and DPP
/// (a few controls). `pick(rng, i, vgpr_only)` chooses source `i`.
pub fn op_forms(
    gen: Gen,
    rng: &mut StdRng,
    op: Op,
    vdst: u8,
    pick: &dyn Fn(&mut StdRng, usize, bool) -> Src,
) -> Vec<Inst> {
    let mut out = Vec::new();
    let src0 = if rng.random_bool(0.15) {
        Src::LITERAL
    } else {
        pick(rng, 0, false)
    };
    let lit = |i: Inst, rng: &mut StdRng| {
        if src0 == Src::LITERAL {
            with_lit(i, rng.random())
        } else {
            i
        }
    };
    let vreg = |rng: &mut StdRng, i: usize| pick(rng, i, true).as_vgpr().unwrap_or(0);
    out.push(lit(vop1(op, vdst, src0), rng));
    let vs1 = vreg(rng, 1);
    out.push(lit(vop2(op, vdst, src0, vs1), rng));
    let srcs = [
        pick(rng, 0, false),
        pick(rng, 1, false),
        pick(rng, 2, false),
    ];
    let (abs, neg) = (rng.random_range(0..8), rng.random_range(0..8));
    let clamp = rng.random_bool(0.3);
    let omod = if rng.random_bool(0.3) {
        rng.random_range(1..4)
    } else {
        0
    };
    for n in 1..=3 {
        let mut sr = srcs;
        for x in sr.iter_mut().skip(n) {
            *x = Src(0);
        }
        let m = (1u8 << n) - 1;
        out.push(vop3m(op, vdst, 0, sr, abs & m, neg & m, clamp, omod));
        out.push(vop3(op, vdst, sr));
    }
    if gen == Gen::Gfx8 {
        let (a, b) = (vreg(rng, 0), vs1);
        for base in [VopBase::Vop1, VopBase::Vop2, VopBase::Vopc] {
            let mut i = sdwa(
                op,
                base,
                vdst,
                a,
                b,
                rng.random_range(0..7),
                rng.random_range(0..3),
                [rng.random_range(0..7), rng.random_range(0..7)],
                [rng.random(), rng.random()],
            );
            if base == VopBase::Vopc {
                if let Fields::Sdwa(SdwaFields {
                    dst_sel,
                    dst_unused,
                    ..
                }) = &mut i.fields
                {
                    (*dst_sel, *dst_unused) = (0, 0);
                }
            }
            if let Fields::Sdwa(SdwaFields {
                src0_neg,
                src0_abs,
                src1_abs,
                src1_neg,
                clamp,
                ..
            }) = &mut i.fields
            {
                *src0_neg = rng.random();
                *src0_abs = rng.random();
                *src1_abs = base != VopBase::Vop1 && rng.random();
                *src1_neg = base != VopBase::Vop1 && rng.random();
                *clamp = rng.random_bool(0.3);
            }
            out.push(i);
            let ctrl = [0x1b, 0x111, 0x130, 0x142, 0x4e][rng.random_range(0..5)];
            let mut d = dpp(op, base, vdst, a, b, ctrl, rng.random(), 0xf, 0xf);
            if let Fields::Dpp(DppFields {
                src0_neg, src1_abs, ..
            }) = &mut d.fields
            {
                *src0_neg = rng.random();
                *src1_abs = base != VopBase::Vop1 && rng.random();
            }
            out.push(d);
        }
    }
    out
}

/// Whether `i` encodes on `gen` and decodes back to itself.
pub fn encodable(gen: Gen, i: &Inst) -> bool {
    let Ok(words) = wavejit_isa::gcn::encode(gen, i) else {
        return false;
    };
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let p = Program::new(Arch::Gcn(gen), &bytes);
    matches!(p.slots.first().map(|s| &s.inst), Some(Ok(wavejit_isa::ir::Inst::Gcn(d))) if d == i)
}

/// `src` assembled for `gen` (a test's own text: a failure names it).
pub fn assemble_text(gen: Gen, src: &str) -> Program {
    let a =
        wavejit_isa::gcn::asm::assemble(gen, src).unwrap_or_else(|e| panic!("assemble {src}: {e}"));
    Program::new(Arch::Gcn(gen), &a.bytes)
}

/// Cranelift instructions of the quick tier's unit at pc 0 of `prog`, compiled by a JIT of
/// `config` (`exec_all`: the all-ones variant): what a test of the unit's size compares.
pub fn quick_unit_clif(prog: &Program, config: JitConfig, exec_all: bool) -> u64 {
    let jit = up(Jit::new(config));
    let spec = Spec {
        pc: 0,
        mode: 0xF0,
        exec_all,
        max_len: 0,
    };
    assert!(jit.precompile(prog, spec).is_some(), "the unit compiles");
    let st = jit.stats();
    assert_eq!(st.quick_blocks, 1, "{st:?}");
    st.clif_insts
}

/// `out` ended with the interpreter's error for a dword global access: at byte `pc`,
/// address `addr`, first failing lane `lane`.
pub fn assert_global_fault(out: &Outcome, pc: u32, addr: u64, lane: u8, what: &str) {
    assert_eq!(
        out.result
            .as_ref()
            .map(|_| ())
            .map_err(|e| (e.pc, e.kind.clone())),
        Err((
            pc,
            wavejit_interp::ExecErrorKind::OutOfBounds {
                space: wavejit_isa::state::Space::Global,
                addr,
                size: 4,
                lane: Some(lane)
            }
        )),
        "{what}"
    );
}
