//! Scalar instructions and control flow: random straight-line SALU blocks and loops, run
//! in the interpreter and the JIT from the same random state, compared bit for bit.

mod common;

use common::*;
use rand::Rng;
use wavejit_isa::arch::Gen;
use wavejit_isa::gcn::{Inst, Op, Src};

const SOP2: &[Op] = &[
    Op::SAddU32,
    Op::SSubU32,
    Op::SAddI32,
    Op::SSubI32,
    Op::SAddcU32,
    Op::SSubbU32,
    Op::SMinI32,
    Op::SMinU32,
    Op::SMaxI32,
    Op::SMaxU32,
    Op::SCselectB32,
    Op::SCselectB64,
    Op::SAndB32,
    Op::SAndB64,
    Op::SOrB32,
    Op::SOrB64,
    Op::SXorB32,
    Op::SXorB64,
    Op::SAndn2B32,
    Op::SAndn2B64,
    Op::SOrn2B32,
    Op::SOrn2B64,
    Op::SNandB32,
    Op::SNandB64,
    Op::SNorB32,
    Op::SNorB64,
    Op::SXnorB32,
    Op::SXnorB64,
    Op::SLshlB32,
    Op::SLshlB64,
    Op::SLshrB32,
    Op::SLshrB64,
    Op::SAshrI32,
    Op::SAshrI64,
    Op::SBfmB32,
    Op::SBfmB64,
    Op::SMulI32,
    Op::SBfeU32,
    Op::SBfeI32,
    Op::SBfeU64,
    Op::SBfeI64,
];

const SOP1: &[Op] = &[
    Op::SMovB32,
    Op::SMovB64,
    Op::SCmovB32,
    Op::SCmovB64,
    Op::SNotB32,
    Op::SNotB64,
    Op::SWqmB32,
    Op::SWqmB64,
    Op::SBrevB32,
    Op::SBrevB64,
    Op::SBcnt0I32B32,
    Op::SBcnt0I32B64,
    Op::SBcnt1I32B32,
    Op::SBcnt1I32B64,
    Op::SFf0I32B32,
    Op::SFf0I32B64,
    Op::SFf1I32B32,
    Op::SFf1I32B64,
    Op::SFlbitI32B32,
    Op::SFlbitI32B64,
    Op::SFlbitI32,
    Op::SFlbitI32I64,
    Op::SSextI32I8,
    Op::SSextI32I16,
    Op::SBitset0B32,
    Op::SBitset1B32,
    Op::SBitset0B64,
    Op::SBitset1B64,
    Op::SGetpcB64,
    Op::SAndSaveexecB64,
    Op::SOrSaveexecB64,
    Op::SXorSaveexecB64,
    Op::SAndn2SaveexecB64,
    Op::SOrn2SaveexecB64,
    Op::SNandSaveexecB64,
    Op::SNorSaveexecB64,
    Op::SXnorSaveexecB64,
    Op::SQuadmaskB32,
    Op::SQuadmaskB64,
    Op::SAbsI32,
];

const SOPK: &[Op] = &[
    Op::SMovkI32,
    Op::SCmovkI32,
    Op::SCmpkEqI32,
    Op::SCmpkLgI32,
    Op::SCmpkGtI32,
    Op::SCmpkGeI32,
    Op::SCmpkLtI32,
    Op::SCmpkLeI32,
    Op::SCmpkEqU32,
    Op::SCmpkLgU32,
    Op::SCmpkGtU32,
    Op::SCmpkGeU32,
    Op::SCmpkLtU32,
    Op::SCmpkLeU32,
    Op::SAddkI32,
    Op::SMulkI32,
];

const SOPC: &[Op] = &[
    Op::SCmpEqI32,
    Op::SCmpLgI32,
    Op::SCmpGtI32,
    Op::SCmpGeI32,
    Op::SCmpLtI32,
    Op::SCmpLeI32,
    Op::SCmpEqU32,
    Op::SCmpLgU32,
    Op::SCmpGtU32,
    Op::SCmpGeU32,
    Op::SCmpLtU32,
    Op::SCmpLeU32,
    Op::SBitcmp0B32,
    Op::SBitcmp1B32,
    Op::SBitcmp0B64,
    Op::SBitcmp1B64,
];

fn exists(gen: Gen, op: Op) -> bool {
    op.row(gen).is_some()
}

/// A random scalar source: SGPR, VCC, M0, EXEC, inline constant, literal, SCC.
fn ssrc(rng: &mut rand::rngs::StdRng) -> (Src, Option<u32>) {
    match rng.random_range(0..10) {
        0..=3 => (s(rng.random_range(0..16)), None),
        4 => (Src::VCC_LO, None),
        5 => (Src::EXEC_LO, None),
        6 => (Src::M0, None),
        7 => (ic(rng.random_range(-16..65)), None),
        8 => (Src::LITERAL, Some(rand32(rng))),
        _ => (Src(240 + rng.random_range(0..8)), None),
    }
}

fn sdst(rng: &mut rand::rngs::StdRng) -> u8 {
    match rng.random_range(0..10) {
        0 => 106,
        1 => 124,
        2 => 126,
        _ => 2 * rng.random_range(0..8),
    }
}

fn random_salu(gen: Gen, rng: &mut rand::rngs::StdRng) -> Inst {
    loop {
        let k = rng.random_range(0..4);
        let inst = match k {
            0 => {
                let op = SOP2[rng.random_range(0..SOP2.len())];
                let (a, la) = ssrc(rng);
                let (b, lb) = ssrc(rng);
                let (b, lit) = match (la, lb) {
                    (Some(x), Some(_)) => (s(3), Some(x)),
                    (x, y) => (b, x.or(y)),
                };
                let mut i = sop2(op, sdst(rng), a, b);
                i.literal = lit;
                i
            }
            1 => {
                let op = SOP1[rng.random_range(0..SOP1.len())];
                let (a, l) = ssrc(rng);
                let mut i = sop1(op, sdst(rng), a);
                i.literal = l;
                i
            }
            2 => {
                let op = SOPK[rng.random_range(0..SOPK.len())];
                sopk(op, sdst(rng), rng.random())
            }
            _ => {
                let op = SOPC[rng.random_range(0..SOPC.len())];
                let (a, la) = ssrc(rng);
                let (b, lb) = ssrc(rng);
                let (b, lit) = match (la, lb) {
                    (Some(x), Some(_)) => (s(5), Some(x)),
                    (x, y) => (b, x.or(y)),
                };
                let mut i = sopc(op, a, b);
                i.literal = lit;
                i
            }
        };
        if exists(gen, inst.op) && wavejit_isa::gcn::encode(gen, &inst).is_ok() {
            return inst;
        }
    }
}

#[test]
fn random_scalar_blocks_match_the_interpreter() {
    let mut n = 0;
    for (name, jit) in jits() {
        for gen in [Gen::Gfx6, Gen::Gfx7, Gen::Gfx8] {
            let mut r = rng(0x5a1u64 + gen as u64);
            for case in 0..60 {
                let len = r.random_range(1..24);
                let mut insts: Vec<Inst> = (0..len).map(|_| random_salu(gen, &mut r)).collect();
                insts.push(endpgm());
                let prog = program(gen, &insts);
                let w = random_wave(gen, &mut r, 0xC0);
                check(
                    &jit,
                    &prog,
                    &w,
                    &format!("{name} {gen} case {case}: {insts:?}"),
                );
                n += 1;
            }
        }
    }
    assert_eq!(n, 2 * 3 * 60);
}

/// s0 counts down from `n` in a loop whose body is random scalar code: exercises the
/// back edge (the unit jumping to its own header), SCC branches and the budget.
#[test]
fn scalar_loops_match_the_interpreter() {
    for (name, jit) in jits() {
        let gen = Gen::Gfx8;
        let mut r = rng(77);
        for case in 0..20 {
            let mut body: Vec<Inst> = (0..r.random_range(1..8))
                .map(|_| random_salu(gen, &mut r))
                .filter(|i| !matches!(i.fields, wavejit_isa::gcn::Fields::Sop2 { sdst: 0, .. }))
                .collect();
            // Keep s0 as the counter: re-target writes to s0.
            for i in body.iter_mut() {
                if let wavejit_isa::gcn::Fields::Sop1 { sdst, .. }
                | wavejit_isa::gcn::Fields::Sopk { sdst, .. } = &mut i.fields
                {
                    if *sdst == 0 {
                        *sdst = 8;
                    }
                }
            }
            let mut insts = vec![sopk(Op::SMovkI32, 0, r.random_range(1..50))];
            let loop_start = insts.len();
            insts.extend(body);
            insts.push(sop2(Op::SSubU32, 0, s(0), ic(1)));
            insts.push(sopc(Op::SCmpLgU32, s(0), ic(0)));
            // Branch back: offset in dwords from the next instruction.
            let mut dw = 0i32;
            for i in &insts[loop_start..] {
                dw += wavejit_isa::gcn::encode(gen, i)
                    .map(|w| w.len() as i32)
                    .unwrap_or(1);
            }
            insts.push(sopp(Op::SCbranchScc1, (-(dw + 1)) as i16 as u16));
            insts.push(endpgm());
            let prog = program(gen, &insts);
            let w = random_wave(gen, &mut r, 0xC0);
            check(&jit, &prog, &w, &format!("{name} loop case {case}"));
            // And with a budget that runs out inside the loop.
            let lds = wavejit_isa::state::Lds::new(64);
            check_with(
                &jit,
                &prog,
                &w,
                &lds,
                &MemInit::default(),
                37,
                &format!("{name} loop limit {case}"),
            );
        }
    }
}

/// The runs above must really have gone through compiled code.
#[test]
fn scalar_code_is_compiled_not_interpreted() {
    let gen = Gen::Gfx8;
    let jit = jit();
    let insts = counted_loop(gen, 100, &[sop2(Op::SAddU32, 1, s(1), ic(3))]);
    let prog = program(gen, &insts);
    let mut w = wavejit_isa::state::Wave::new(gen);
    w.sgpr[1] = 5;
    let out = check(&jit, &prog, &w, "counted loop");
    // s1 = 5 + 100 × 3 (hand count: the body runs 100 times).
    assert_eq!(out.wave.sgpr[1], 305);
    let st = jit.stats();
    assert!(st.blocks >= 2, "{st:?}");
    assert_eq!(st.failures, 0, "{st:?}");
    assert_eq!(st.helper_insts, 0, "{st:?}");
}
