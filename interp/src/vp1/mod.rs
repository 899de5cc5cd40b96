//! The VP1 scalar unit's semantics (004_1a7ba760ea192bb0.txt, corrected by vp1-notes.md and
//! the VP1 section of ERRATA.md): every scalar opcode 0x00-0x7f, dispatched on the table's
//! `kind`, with `$c` written per its `cmode` and the s2v bus per its `s2v` column.
//!
//! A VP1 program is a sequence of scalar words run to its end; each word is a bundle of its
//! own, reading the state from before it (`exec` computes every result from the old state,
//! then writes). A word of another unit (opcode 0x80-0xff) is `Unsupported` at its pc
//! (ERRATA VP1 7).
//!
//! - `word` — 32-bit operations, `$c` flags, source mangling.
//! - `byte` — bytewise operations.
//! - `bmul` — the byte multiplier (bmul, bmula, and the s2v-only multiplier opcodes).
//! - `s2v` — factors, masks and the `$vc` mask.
//! - `other` — the other register files of mov 0x6a/0x6b.

pub mod bmul;
pub mod byte;
pub mod other;
pub mod s2v;
pub mod word;

use wavejit_isa::vp1::rfile::{self, Dir};
use wavejit_isa::vp1::{CMode, Inst, Kind, OpDesc, S2v, S2vSrc, Sign, Src2, State};

use crate::error::{ExecError, ExecErrorKind};

/// Counters of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunStats {
    pub insts: u64,
}

/// Where a result goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dest {
    None,
    /// `$r[idx]`.
    R(u32),
    /// Another register file.
    Other(rfile::File, u32),
}

/// The error for a word the scalar unit does not execute.
pub fn unsupported(inst: Inst, pc: u32) -> ExecError {
    ExecError {
        pc,
        kind: ExecErrorKind::Unsupported {
            mnemonic: format!(
                "{} unit word 0x{:08x} (wavejit executes only the VP1 scalar unit)",
                inst.unit().name(),
                inst.word
            ),
        },
    }
}

/// The second source value of `inst` (read from the state before the bundle).
fn src2(s: &State, inst: Inst, d: &OpDesc, c_in: u16) -> u32 {
    match d.src2 {
        Src2::Reg => s.read_r(inst.src2()),
        Src2::Mangled => s.read_r(word::src2s(inst.src2(), c_in, inst.slct())),
        Src2::Imm => inst.imm() as u32,
        Src2::Bimm => byte::splat(inst.bimm()),
        Src2::BimmMul => byte::splat(inst.bimmmul() << 2),
        Src2::BimmBad => byte::splat(inst.bimmbad()),
        // bvecmad reads its pair itself; the others have no second source.
        Src2::Quad | Src2::None => 0,
    }
}

/// How the byte multiplier runs for a multiplier kind.
fn bmul_cfg(inst: Inst, d: &OpDesc) -> bmul::Cfg {
    let documented = bmul::Cfg {
        sign1: inst.sign1(),
        sign2: inst.sign2(),
        signd: d.sign == Sign::S,
        rnd: inst.rnd(),
        factor_shift: true,
    };
    match d.kind {
        Kind::Bmul => documented,
        Kind::Bmula => bmul::Cfg {
            factor_shift: false,
            ..documented
        },
        Kind::BmulFactor => bmul::Cfg {
            rnd: false,
            ..documented
        },
        Kind::BmulFactorRaw => bmul::Cfg {
            factor_shift: false,
            ..documented
        },
        // BmulDefault: every flag at its default.
        _ => bmul::Cfg {
            sign1: false,
            sign2: false,
            signd: false,
            rnd: false,
            factor_shift: false,
        },
    }
}

/// Execute one scalar word at `pc` as a bundle of its own.
pub fn exec(s: &mut State, inst: Inst, pc: u32) -> Result<(), ExecError> {
    let Some(d) = inst.desc() else {
        return Err(unsupported(inst, pc));
    };
    let g80 = s.variant.is_g80();
    // --- read phase: everything from the state before the bundle ---
    let c_in = s.c.get(inst.cond() as usize).copied().unwrap_or(0);
    // sethi reads the register it writes.
    let s1 = s.read_r(if d.kind == Kind::Sethi {
        inst.dst()
    } else {
        inst.src1()
    });
    let s2 = src2(s, inst, d, c_in);
    let mut factors = match d.s2v {
        S2vSrc::Zero => [0; 4],
        _ => s2v::junk(s1),
    };
    let (dest, res): (Dest, u32) = match d.kind {
        Kind::Mul => (Dest::R(inst.dst()), word::mul(s1, s2)),
        Kind::Min => (Dest::R(inst.dst()), word::min(s1, s2)),
        Kind::Max => (Dest::R(inst.dst()), word::max(s1, s2)),
        Kind::Abs => (Dest::R(inst.dst()), word::abs(s1)),
        Kind::Neg => (Dest::R(inst.dst()), word::neg(s1)),
        Kind::Add => (Dest::R(inst.dst()), word::add(s1, s2)),
        Kind::Sub => (Dest::R(inst.dst()), word::sub(s1, s2)),
        Kind::Shift => (Dest::R(inst.dst()), word::shift(s1, s2, d.sign == Sign::S)),
        Kind::Bitop => (Dest::R(inst.dst()), word::bitop(inst.bitop(), s1, s2)),
        Kind::AndImm => (Dest::R(inst.dst()), s1 & s2),
        Kind::XorImm => (Dest::R(inst.dst()), s1 ^ s2),
        Kind::OrImm => (Dest::R(inst.dst()), s1 | s2),
        Kind::MovImm => (Dest::R(inst.dst()), inst.imm19() as u32),
        Kind::Sethi => (Dest::R(inst.dst()), (s1 & 0xffff) | inst.imm16() << 16),
        Kind::MovTo => match rfile::exec_file(inst.rfile(), Dir::To) {
            Some(file) => (Dest::Other(file, inst.dst()), s1),
            None => (Dest::None, 0),
        },
        Kind::MovFrom => match rfile::exec_file(inst.rfile(), Dir::From)
            .and_then(|file| other::read(s, file, inst.src1()))
        {
            Some(v) => (Dest::R(inst.dst()), v),
            None => (Dest::None, 0),
        },
        Kind::Bmin
        | Kind::Bmax
        | Kind::Babs
        | Kind::Bneg
        | Kind::Badd
        | Kind::Bsub
        | Kind::Bshr => (
            Dest::R(inst.dst()),
            byte::bytewise(d.kind, d.sign == Sign::S, s1, s2),
        ),
        Kind::Band => (Dest::R(inst.dst()), s1 & s2),
        Kind::Bor => (Dest::R(inst.dst()), s1 | s2),
        Kind::Bxor => (Dest::R(inst.dst()), s1 ^ s2),
        Kind::Bmul | Kind::Bmula | Kind::BmulFactor | Kind::BmulFactorRaw | Kind::BmulDefault => {
            let (r, f) = bmul::bmul(s1, s2, bmul_cfg(inst, d));
            factors = f;
            let dest = if matches!(d.kind, Kind::Bmul | Kind::Bmula) {
                Dest::R(inst.dst())
            } else {
                Dest::None
            };
            (dest, r)
        }
        Kind::Vec => {
            factors = s2v::vec(inst.factor1(), inst.factor2());
            (Dest::None, 0)
        }
        // vecms writes SRC1, not DST: `$r[SRC1] >>= 4`, arithmetic.
        Kind::Vecms => (Dest::R(inst.src1()), ((s1 as i32) >> 4) as u32),
        Kind::Bvec => {
            factors = s2v::bvec(s1);
            (Dest::None, 0)
        }
        Kind::Bvecmad | Kind::Bvecmadsel => {
            let slct = inst.slct();
            let u = if slct == 4 {
                (c_in as u32) >> 4 & 3
            } else {
                (c_in as u32) >> slct & 1
            };
            let base = s.read_r(inst.src2() | u);
            let mult = s.read_r(inst.src2() | 2 | u);
            let sel = d.kind == Kind::Bvecmadsel;
            let k = (s1 >> 11) & if sel { 0x7f } else { 0xff };
            let f = s2v::bvecmad(base, mult, k);
            factors = if sel {
                // Lanes 0/1 both take lane w's factor, lanes 2/3 lane 2 + w's (vp1-notes 6).
                let w = usize::from(slct == 2 && c_in & 0x80 != 0);
                [f[w], f[w], f[2 + w], f[2 + w]]
            } else {
                f
            };
            (Dest::None, 0)
        }
        Kind::Snop | Kind::Unused => (Dest::None, 0),
    };
    let cres = match d.cmode {
        CMode::Full => Some(word::flags_full(res, s1, g80)),
        CMode::FullZero => Some(word::flags_full(res, 0, g80)),
        CMode::Part => Some(word::flags_part(res, g80)),
        CMode::Zero => Some(0),
        CMode::None => None,
    };
    let mut bus = S2v {
        factor: factors,
        mask: s2v::masks(factors),
        ..S2v::default()
    };
    if d.s2v.valid() {
        bus.valid = 1;
        bus.vcidx = inst.vcidx() as u8;
        bus.vcflag = inst.vcflag() as u8;
        bus.vcxfrm = inst.vcxfrm() as u8;
        bus.vcmask = s2v::vcmask(&s.vc, inst.vcidx(), inst.vcflag(), inst.vcxfrm());
    }
    // --- write phase ---
    if let Some(c) = cres {
        if inst.cdst() < 4 {
            s.write_c_scalar(inst.cdst() as usize, c);
        }
    }
    match dest {
        Dest::None => {}
        Dest::R(i) => s.write_r(i, res),
        Dest::Other(file, i) => other::write(s, file, i, res),
    }
    s.s2v = bus;
    Ok(())
}

/// Run `code` (little-endian words) from its first word to its end on `s`. A trailing
/// partial word is a decode error at its offset.
pub fn run(s: &mut State, code: &[u8]) -> Result<RunStats, ExecError> {
    let mut stats = RunStats::default();
    let mut pc = 0u32;
    while (pc as usize) < code.len() {
        let rest = code.get(pc as usize..).unwrap_or(&[]);
        let (inst, n) = wavejit_isa::vp1::decode(rest, pc).map_err(|e| ExecError {
            pc,
            kind: ExecErrorKind::Decode(e),
        })?;
        exec(s, inst, pc)?;
        stats.insts += 1;
        pc += n;
    }
    Ok(stats)
}

/// Run decoded words (word i at pc 4i).
pub fn run_words(s: &mut State, words: &[u32]) -> Result<RunStats, ExecError> {
    for (i, &w) in words.iter().enumerate() {
        exec(s, Inst { word: w }, (i as u32).wrapping_mul(4))?;
    }
    Ok(RunStats {
        insts: words.len() as u64,
    })
}
