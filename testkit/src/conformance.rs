//! One conformance suite on every engine: the interpreter's tests run each instruction
//! (and each program) through the functions here, which run it on the interpreter and on
//! the JIT and require the two to agree bit for bit, before the test's own hand-worked
//! assertions read the state.
//!
//! The interpreter's instruction tests run each hand-built instruction on
//! [`crate::machine::Machine`], which calls [`exec_one`]. Each call:
//! 1. runs the interpreter's reference code on a copy of the state (wave, LDS, memory);
//! 2. runs the same instruction on the real state through the JIT's dispatcher: the
//!    instruction is encoded into a program (padding `s_endpgm`s up to `wave.pc`, the
//!    instruction, `s_endpgm`), and the one unit there runs (compiled: the instruction and
//!    the `s_endpgm`, or the instruction alone when it jumps); when EXEC is all ones the
//!    unit compiled for any EXEC also runs, from a copy;
//! 3. requires the same outcome (same step, or the same error kind at the instruction's
//!    pc) and the same final state, bit for bit (`wavejit_isa::state::diff`); a difference
//!    panics naming the instruction, the register and lane and both values;
//! 4. leaves the JIT's state in the machine, so the test's own hand-worked assertions then
//!    check the JIT — and, through the comparison, the interpreter.
//!
//! [`run`] and [`step`] (whole GCN programs, `exec_run.rs`) and [`vp1_run`]/[`vp1_run_words`]
//! (`vp1_semantics.rs`, through the VP1 JIT) check the same way.
//!
//! Instructions no program can hold run on the interpreter only, and are counted: a test's
//! deliberately impossible fields (reserved selections, operations in an encoding they do
//! not have), a pc a program cannot reach, a scalar instruction handed to the vector unit.
//! Fields a program cannot carry but the operation ignores (a literal no source reads, an
//! operand field the operation lacks) are cleared first, if the interpreter's result from
//! this state does not change by it.
//!
//! Each test thread has its own `Jit` (tests run in parallel). How the instructions ran
//! (lowered inline, through the interpreter helper in compiled code, or interpreted by the
//! dispatcher because nothing in the unit is worth compiling) is summed over the binary and
//! printed when each test's thread ends: the last line is the binary's total.
//! `WAVEJIT_SUITE_DEBUG=1` (with `--nocapture`) names the instructions that ran through the
//! helper or on the interpreter only.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use wavejit_interp::exec::{Ctx, Step};
use wavejit_interp::vp1::RunStats as Vp1Stats;
use wavejit_interp::{ExecError, ExecErrorKind, RunStats};
use wavejit_isa::arch::Arch;
use wavejit_isa::gcn::Inst;
use wavejit_isa::ir::Program;
use wavejit_isa::state::diff::image_diff;
use wavejit_isa::state::{Lds, Memory, Wave};
use wavejit_isa::vp1::State;
use wavejit_jit::gcn::Spec;
use wavejit_jit::{Jit, JitConfig, UnitStep};

/// The interpreter's own code for a hand-built instruction, as the harness calls it.
pub type Reference<'r> = &'r dyn Fn(&mut Ctx<'_>, &Inst) -> Result<Step, ExecErrorKind>;

const S_ENDPGM: u32 = 0xBF81_0000;
/// Highest pc a one-instruction program is padded up to (a test's pc beyond it runs on
/// the interpreter only).
const MAX_PAD_PC: u32 = 1 << 16;

// ---- counts ------------------------------------------------------------------------------

/// What the counts count (index into `Counts`).
#[derive(Clone, Copy)]
enum C {
    /// One-instruction runs in compiled code, the instruction lowered inline.
    Inline,
    /// ... compiled code calling the interpreter helper for the instruction.
    Helper,
    /// ... the dispatcher interpreting it (a unit of one helper that jumps: nothing to
    /// compile).
    Dispatched,
    /// ... the JIT's run ending in an error (compared with the interpreter's).
    Errors,
    /// Instructions on the interpreter only: not encodable (a test's deliberately
    /// impossible fields), a pc a program cannot reach, or a scalar instruction handed
    /// to the vector unit.
    ReferenceOnly,
    /// Instructions run without fields no program can carry (the interpreter's result
    /// unchanged by it).
    Normalised,
    /// Extra runs of the unit compiled for any EXEC when EXEC was all ones.
    Masked,
    /// Units compiled.
    Units,
    /// Whole GCN programs run (`run`), and their instructions by how they ran.
    Programs,
    ProgInline,
    ProgHelper,
    ProgDispatched,
    /// VP1 programs run, and their words.
    Vp1Programs,
    Vp1Words,
    /// Test threads that used the JIT.
    Threads,
}

const NC: usize = C::Threads as usize + 1;

#[derive(Clone, Copy, Default)]
struct Counts([u64; NC]);

impl Counts {
    fn add(&mut self, c: C, n: u64) {
        self.0[c as usize] += n;
    }
    fn get(&self, c: C) -> u64 {
        self.0[c as usize]
    }
}

static TOTALS: [AtomicU64; NC] = [const { AtomicU64::new(0) }; NC];

/// One test thread's JIT: the engine, what each compiled unit holds, and the counts.
struct ThreadJit {
    /// Runs one unit per call (`chain` off: a branch's target must not run).
    jit: Jit,
    /// Runs whole programs, as `wavejit run` does (chaining on).
    prog_jit: Jit,
    /// (code, pc, MODE) → number of helper calls in the unit compiled for it.
    helpers: HashMap<(Vec<u8>, u32, u32), u64>,
    counts: Counts,
}

impl ThreadJit {
    fn new() -> ThreadJit {
        // The optimising tier here (one-instruction programs never get hot), the quick
        // tier (the default) in `prog_jit`.
        let jit = Jit::new(JitConfig {
            chain: false,
            hot_threshold: 0,
            plant_xor_bug: PLANT_XOR_BUG.with(|p| p.get()),
            ..JitConfig::default()
        });
        // Without a back end the JIT runs everything through the interpreter: the suite
        // then checks the interpreter alone, which CI does not accept.
        if let Some(e) = jit.broken() {
            assert!(
                !crate::oracles_required(),
                "the JIT back end is unavailable ({e}) but WAVEJIT_REQUIRE_ORACLES is set"
            );
            eprintln!("conformance: the JIT back end is unavailable ({e}): interpreter only");
        }
        ThreadJit {
            jit,
            prog_jit: Jit::new(JitConfig::default()),
            helpers: HashMap::new(),
            counts: Counts::default(),
        }
    }

    /// Run the one unit at `ctx.wave.pc`, and say how many helper calls it holds when
    /// compiled code ran (every compile of this thread's `Jit` is seen here).
    fn step_unit(
        &mut self,
        ctx: &mut Ctx<'_>,
        prog: &Program,
        budget: u64,
        what: &dyn Fn() -> String,
    ) -> (Result<UnitStep, ExecError>, Option<u64>) {
        if self.jit.is_full() {
            self.jit.flush();
            self.helpers.clear();
        }
        let key = (prog.code.clone(), ctx.wave.pc, ctx.wave.mode);
        let before = self.jit.stats();
        let r = self.jit.step_unit(ctx, prog, budget);
        let after = self.jit.stats();
        assert_eq!(
            after.failures,
            before.failures,
            "{}: Cranelift refused the unit (it would hide its lowering in the interpreter)",
            what()
        );
        if after.blocks > before.blocks {
            self.counts.add(C::Units, after.blocks - before.blocks);
            self.helpers
                .insert(key.clone(), after.helper_insts - before.helper_insts);
        }
        let helpers = match &r {
            Ok(u) if u.compiled => self.helpers.get(&key).copied(),
            _ => None,
        };
        (r, helpers)
    }
}

impl Drop for ThreadJit {
    fn drop(&mut self) {
        self.counts.add(C::Threads, 1);
        let mut c = Counts::default();
        for (i, t) in TOTALS.iter().enumerate() {
            c.0[i] = t.fetch_add(self.counts.0[i], Ordering::Relaxed) + self.counts.0[i];
        }
        eprintln!(
            "conformance totals after {} test threads: one instruction at a time on the JIT: \
             {} lowered inline, {} through the helper, {} interpreted by the dispatcher, {} \
             ended in an error (compared); {} of these without fields no program can carry; \
             plus {} runs of the unit compiled for any EXEC; {} on the interpreter only (not \
             encodable); GCN programs: {} runs, {} instructions inline, {} through the helper, \
             {} interpreted; {} units compiled; VP1 programs: {} runs, {} words",
            c.get(C::Threads),
            c.get(C::Inline),
            c.get(C::Helper),
            c.get(C::Dispatched),
            c.get(C::Errors),
            c.get(C::Normalised),
            c.get(C::Masked),
            c.get(C::ReferenceOnly),
            c.get(C::Programs),
            c.get(C::ProgInline),
            c.get(C::ProgHelper),
            c.get(C::ProgDispatched),
            c.get(C::Units),
            c.get(C::Vp1Programs),
            c.get(C::Vp1Words),
        );
    }
}

thread_local! {
    static JIT: RefCell<Option<ThreadJit>> = const { RefCell::new(None) };
    /// Set by the suite's self-test before this thread's first instruction: its JIT
    /// lowers `v_xor_b32` wrongly (`JitConfig::plant_xor_bug`), which the checks must see.
    pub static PLANT_XOR_BUG: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn with_jit<R>(f: impl FnOnce(&mut ThreadJit) -> R) -> R {
    JIT.with(|j| {
        let mut j = j.borrow_mut();
        f(j.get_or_insert_with(ThreadJit::new))
    })
}

// ---- state copies and comparison -----------------------------------------------------------

fn snapshot(m: &Memory) -> Vec<(u64, Vec<u8>)> {
    m.regions()
        .iter()
        .map(|r| {
            let mut b = vec![0u8; r.len as usize];
            m.read(r.base, &mut b).expect("read back a mapped region");
            (r.base, b)
        })
        .collect()
}

fn rebuild(snap: &[(u64, Vec<u8>)]) -> Memory {
    let mut m = Memory::new();
    for (base, bytes) in snap {
        m.map_bytes(*base, bytes).expect("map a copy of a region");
    }
    m
}

/// The first difference between the interpreter's state (`a`) and the JIT's (`b`).
fn differ(
    a: (&Wave, &Lds, &[(u64, Vec<u8>)]),
    b: (&Wave, &Lds, &[(u64, Vec<u8>)]),
) -> Option<String> {
    a.0.diff(b.0)
        .chain(a.1.diff(b.1))
        .chain(image_diff(a.2, b.2))
        .next()
        .map(|d| format!("{}: interpreter {}, JIT {}", d.place, d.a, d.b))
}

// ---- programs --------------------------------------------------------------------------------

/// `inst` with the fields a program cannot carry cleared, if that makes it encodable: a
/// literal no source reads, and operand fields the operation does not have (the encoder
/// and decoder insist they are zero; tests often leave a register number or the constant
/// 0 there). Whether clearing them changes anything is checked by running the
/// interpreter on both (`exec_one`).
fn normalised(gen: wavejit_isa::Gen, inst: &Inst) -> Option<Inst> {
    use wavejit_isa::gcn::{EncodeError, Fields, Src};
    use wavejit_isa::DecodeErrorKind;
    let mut cur = *inst;
    for _ in 0..8 {
        let field = match wavejit_isa::gcn::encode(gen, &cur) {
            Ok(_) => return Some(cur),
            Err(EncodeError::UnexpectedLiteral { .. }) => {
                cur.literal = None;
                continue;
            }
            Err(EncodeError::OutOfRange { field: "sdst", .. }) => "sdst",
            Err(EncodeError::Invalid {
                kind: DecodeErrorKind::BadField { field, .. },
                ..
            }) => field,
            Err(_) => return None,
        };
        let top = |bits: &mut u8| *bits &= !(1u8 << (7 - bits.leading_zeros().min(7)));
        match (&mut cur.fields, field) {
            (Fields::Vop3(f), "src0") => f.src[0] = Src(0),
            (Fields::Vop3(f), "src1") => f.src[1] = Src(0),
            (Fields::Vop3(f), "src2") => f.src[2] = Src(0),
            (Fields::Vop3(f), "sdst") => f.sdst = 0,
            (Fields::Vop3(f), "vdst") => f.vdst = 0,
            (Fields::Vop3(f), "abs") if f.abs != 0 => top(&mut f.abs),
            (Fields::Vop3(f), "neg") if f.neg != 0 => top(&mut f.neg),
            (Fields::Vop1 { vdst, .. }, "vdst") | (Fields::Vop2 { vdst, .. }, "vdst") => *vdst = 0,
            (Fields::Vop1 { src0, .. }, "src0")
            | (Fields::Vop2 { src0, .. }, "src0")
            | (Fields::Vopc { src0, .. }, "src0") => *src0 = Src(0),
            (Fields::Vop2 { vsrc1, .. }, "vsrc1") | (Fields::Vopc { vsrc1, .. }, "vsrc1") => {
                *vsrc1 = 0
            }
            (Fields::Sdwa(f), "vdst") => f.vdst = 0,
            (Fields::Dpp(f), "vdst") => f.vdst = 0,
            (Fields::Sdwa(f), "vsrc1") => f.vsrc1 = 0,
            (Fields::Dpp(f), "vsrc1") => f.vsrc1 = 0,
            (Fields::Ds(f), "vdst") => f.vdst = 0,
            (Fields::Ds(f), "addr") => f.addr = 0,
            (Fields::Ds(f), "data0") => f.data0 = 0,
            (Fields::Ds(f), "data1") => f.data1 = 0,
            (Fields::Sop2 { sdst, .. }, "sdst")
            | (Fields::Sop1 { sdst, .. }, "sdst")
            | (Fields::Sopk { sdst, .. }, "sdst") => *sdst = 0,
            (Fields::Sop2 { ssrc0, .. }, "ssrc0")
            | (Fields::Sop1 { ssrc0, .. }, "ssrc0")
            | (Fields::Sopc { ssrc0, .. }, "ssrc0") => *ssrc0 = Src(0),
            (Fields::Sop2 { ssrc1, .. }, "ssrc1") | (Fields::Sopc { ssrc1, .. }, "ssrc1") => {
                *ssrc1 = Src(0)
            }
            (Fields::Sopk { simm16, .. }, "simm16") | (Fields::Sopp { simm16 }, "simm16") => {
                *simm16 = 0
            }
            _ => return None,
        }
    }
    None
}

/// The program with `inst` at `wave.pc` (padding `s_endpgm`s before, one after), if
/// `inst` encodes to itself and the pc is reachable.
fn program_for(wave: &Wave, inst: &Inst) -> Option<Program> {
    let pc = wave.pc;
    if !pc.is_multiple_of(4) || pc > MAX_PAD_PC {
        return None;
    }
    let words = wavejit_isa::gcn::encode(wave.gen, inst).ok()?;
    let mut code: Vec<u8> = Vec::with_capacity(pc as usize + 16);
    for _ in 0..pc / 4 {
        code.extend_from_slice(&S_ENDPGM.to_le_bytes());
    }
    for w in words.iter().chain(&[S_ENDPGM]) {
        code.extend_from_slice(&w.to_le_bytes());
    }
    let prog = Program::new(Arch::Gcn(wave.gen), &code);
    let slot = prog.slots.get(prog.slot_index(pc)?)?;
    match &slot.inst {
        Ok(wavejit_isa::ir::Inst::Gcn(d)) if d == inst => Some(prog),
        _ => None,
    }
}

fn describe(inst: &Inst, wave: &Wave) -> String {
    format!(
        "`{}` on {} at pc {:#x} (EXEC {:#018x}, MODE {:#x}): {:?}",
        inst.op.mnemonic(),
        wave.gen,
        wave.pc,
        wave.exec,
        wave.mode,
        inst
    )
}

/// What one unit run means for the instruction at its start (the unit is that
/// instruction followed by `s_endpgm`, or the instruction alone when it ends the unit).
fn inst_step(u: &UnitStep) -> Step {
    match (u.stop, u.insts) {
        (Some(Step::End), 2) => Step::Continue,
        (Some(s), _) => s,
        (None, _) => Step::Continue,
    }
}

// ---- the engine's entry points -----------------------------------------------------------------

/// Run the hand-built `inst` at `wave.pc` on the JIT, checked against `reference` (the
/// interpreter's code for it). `advances_pc`: whether `reference` moves `wave.pc` past
/// the instruction (if not, the pc is put back after the JIT's run). `as_program`: whether
/// `reference` is what the instruction runs in a program (if not, the interpreter only).
#[allow(clippy::too_many_arguments)]
pub fn exec_one(
    wave: &mut Wave,
    lds: &mut Lds,
    mem: &Memory,
    inst: &Inst,
    advances_pc: bool,
    as_program: bool,
    reference: Reference<'_>,
) -> Result<Step, ExecErrorKind> {
    let what = describe(inst, wave);
    let (mut rw, mut rl, rm) = copy_state(wave, lds, mem);
    let want = reference(
        &mut Ctx {
            wave: &mut rw,
            lds: &mut rl,
            mem: &rm,
        },
        inst,
    );
    // The instruction the program holds: `inst`, or `inst` without fields no program can
    // carry when that changes nothing the interpreter does from this state.
    let mut run_inst = None;
    if as_program {
        match normalised(wave.gen, inst) {
            Some(n) if n == *inst => run_inst = Some(n),
            Some(n) => {
                let (mut nw, mut nl, nm) = copy_state(wave, lds, mem);
                let r = reference(
                    &mut Ctx {
                        wave: &mut nw,
                        lds: &mut nl,
                        mem: &nm,
                    },
                    &n,
                );
                let same = r == want
                    && differ((&rw, &rl, &snapshot(&rm)), (&nw, &nl, &snapshot(&nm))).is_none();
                if same {
                    run_inst = Some(n);
                    with_jit(|j| j.counts.add(C::Normalised, 1));
                } else if std::env::var_os("WAVEJIT_SUITE_DEBUG").is_some() {
                    eprintln!("conformance: {what}: without unused fields {n:?} runs differently");
                }
            }
            None => {}
        }
    }
    let prog = run_inst.and_then(|i| program_for(wave, &i));
    let Some(prog) = prog else {
        if std::env::var_os("WAVEJIT_SUITE_DEBUG").is_some() {
            eprintln!(
                "conformance: interpreter only: {what}: as program {as_program}, {:?}",
                wavejit_isa::gcn::encode(wave.gen, inst).err()
            );
        }
        // The interpreter's result is the result.
        *wave = (*rw).clone();
        *lds = rl;
        for (base, bytes) in snapshot(&rm) {
            mem.write(base, &bytes).expect("write back a mapped region");
        }
        with_jit(|j| j.counts.add(C::ReferenceOnly, 1));
        return want;
    };
    let pc = wave.pc;
    let size = prog
        .slot_index(pc)
        .and_then(|i| prog.slots.get(i))
        .map_or(0, |s| s.size);
    let want_state = (&*rw, &rl, snapshot(&rm));
    // With EXEC all ones the dispatcher picks the unit compiled for that case; the
    // general (lane-masked) unit is checked too, from a copy of the same state.
    if wave.exec == u64::MAX {
        let (mut mw, mut ml, mm) = copy_state(wave, lds, mem);
        let spec = Spec {
            pc,
            mode: wave.mode,
            exec_all: false,
            max_len: 0,
        };
        let r = with_jit(|j| {
            let f = j.jit.compile_detached(&prog, spec)?;
            j.counts.add(C::Masked, 1);
            Some(j.jit.call_unit(
                &mut Ctx {
                    wave: &mut mw,
                    lds: &mut ml,
                    mem: &mm,
                },
                &prog,
                f,
                16,
            ))
        });
        if let Some(r) = r {
            let what = format!("{what} [unit compiled for any EXEC]");
            let got = outcome(&what, r, &mut mw, pc, size, advances_pc);
            check(
                &what,
                &want,
                &got,
                want_state.clone(),
                (&mw, &ml, snapshot(&mm)),
            );
        }
    }
    let r = with_jit(|j| {
        let (r, h) = j.step_unit(&mut Ctx { wave, lds, mem }, &prog, 16, &|| what.clone());
        match (&r, h) {
            (Ok(u), Some(0)) if u.compiled => j.counts.add(C::Inline, 1),
            (Ok(u), Some(_)) if u.compiled => {
                j.counts.add(C::Helper, 1);
                if std::env::var_os("WAVEJIT_SUITE_DEBUG").is_some() {
                    eprintln!("conformance: through the helper: {what}");
                }
            }
            (Ok(u), None) if u.compiled => {
                panic!("{what}: compiled code ran but its unit was never seen")
            }
            (Ok(_), _) => j.counts.add(C::Dispatched, 1),
            (Err(_), _) => j.counts.add(C::Errors, 1),
        }
        r
    });
    let got = outcome(&what, r, wave, pc, size, advances_pc);
    check(&what, &want, &got, want_state, (wave, lds, snapshot(mem)));
    got
}

/// The instruction's outcome from a unit's run (and the pc put back when the harness's
/// reference does not move it, once it is checked to be just past the instruction).
fn outcome(
    what: &str,
    r: Result<UnitStep, ExecError>,
    wave: &mut Wave,
    pc: u32,
    size: u32,
    advances_pc: bool,
) -> Result<Step, ExecErrorKind> {
    let got = match r {
        Ok(u) => Ok(inst_step(&u)),
        Err(e) => {
            assert_eq!(
                e.pc, pc,
                "{what}: the JIT's error {e} is not at the instruction"
            );
            Err(e.kind)
        }
    };
    if !advances_pc {
        if got.is_ok() {
            assert_eq!(
                wave.pc,
                pc.wrapping_add(size),
                "{what}: the JIT did not stop after the instruction"
            );
        }
        wave.pc = pc;
    }
    got
}

type StateRef<'a> = (&'a Wave, &'a Lds, Vec<(u64, Vec<u8>)>);

/// Panic unless the JIT's outcome and state equal the interpreter's.
fn check(
    what: &str,
    want: &Result<Step, ExecErrorKind>,
    got: &Result<Step, ExecErrorKind>,
    a: StateRef<'_>,
    b: StateRef<'_>,
) {
    assert_eq!(
        got, want,
        "{what}: JIT outcome (left) differs from the interpreter's"
    );
    if let Some(d) = differ((a.0, a.1, &a.2), (b.0, b.1, &b.2)) {
        panic!("{what}: after the instruction, {d}");
    }
}

/// A copy of a state (wave, LDS, memory), for a reference run beside the real one.
fn copy_state(wave: &Wave, lds: &Lds, mem: &Memory) -> (Box<Wave>, Lds, Memory) {
    (Box::new(wave.clone()), lds.clone(), rebuild(&snapshot(mem)))
}

/// Run `reference` (the interpreter) on a copy of `ctx`'s state and `engine` on the state
/// itself: both must return the same and leave the same state. `what` names the run in a
/// failure, `after` what ran ("the run", "the step").
fn checked<T: PartialEq + std::fmt::Debug>(
    ctx: &mut Ctx<'_>,
    what: &str,
    after: &str,
    reference: impl FnOnce(&mut Ctx<'_>) -> T,
    engine: impl FnOnce(&mut Ctx<'_>) -> T,
) -> T {
    let (mut rw, mut rl, rm) = copy_state(ctx.wave, ctx.lds, ctx.mem);
    let want = reference(&mut Ctx {
        wave: &mut rw,
        lds: &mut rl,
        mem: &rm,
    });
    let got = engine(ctx);
    assert_eq!(
        got, want,
        "{what}: JIT result (left) differs from the interpreter's"
    );
    let (sa, sb) = (snapshot(&rm), snapshot(ctx.mem));
    if let Some(d) = differ((&rw, &rl, &sa), (ctx.wave, ctx.lds, &sb)) {
        panic!("{what}: after {after}, {d}");
    }
    got
}

/// Run `prog` on the JIT (compiled on first use, blocks chained), checked against
/// `wavejit_interp::run` on a copy.
pub fn run(
    ctx: &mut Ctx<'_>,
    prog: &Program,
    max_insts: u64,
) -> Result<(Step, RunStats), ExecError> {
    let what = format!(
        "program of {} bytes from pc {:#x}",
        prog.code.len(),
        ctx.wave.pc
    );
    let reference = |rc: &mut Ctx<'_>| wavejit_interp::run(rc, prog, max_insts);
    checked(ctx, &what, "the run", reference, |ctx| {
        with_jit(|j| {
            if j.prog_jit.is_full() {
                j.prog_jit.flush();
            }
            let before = j.prog_jit.stats();
            let r = j.prog_jit.run_with_stats(ctx, prog, max_insts);
            let after = j.prog_jit.stats();
            assert_eq!(
                after.failures, before.failures,
                "{what}: Cranelift refused a unit"
            );
            j.counts.add(C::Units, after.blocks - before.blocks);
            j.counts.add(C::Programs, 1);
            if let Ok((_, st)) = &r {
                let inline = st.insts - st.interpreted - st.helper_steps;
                j.counts.add(C::ProgInline, inline);
                j.counts.add(C::ProgHelper, st.helper_steps);
                j.counts.add(C::ProgDispatched, st.interpreted);
            }
            r.map(|(s, st)| (s, RunStats { insts: st.insts }))
        })
    })
}

/// One instruction of `prog` at `ctx.wave.pc` (a compiled unit of one instruction, or the
/// dispatcher's interpreter), checked against `wavejit_interp::step` on a copy.
pub fn step(ctx: &mut Ctx<'_>, prog: &Program) -> Result<Step, ExecError> {
    let what = format!(
        "one step of a program of {} bytes at pc {:#x}",
        prog.code.len(),
        ctx.wave.pc
    );
    let reference = |rc: &mut Ctx<'_>| wavejit_interp::step(rc, prog);
    checked(ctx, &what, "the step", reference, |ctx| {
        with_jit(|j| {
            // A budget of one: a longer unit does not run, the dispatcher interprets.
            let (r, h) = j.step_unit(ctx, prog, 1, &|| what.clone());
            match (&r, h) {
                (Ok(u), Some(0)) if u.compiled => j.counts.add(C::Inline, 1),
                (Ok(u), Some(_)) if u.compiled => j.counts.add(C::Helper, 1),
                (Err(_), _) => j.counts.add(C::Errors, 1),
                _ => j.counts.add(C::Dispatched, 1),
            }
            r.map(|u| u.stop.unwrap_or(Step::Continue))
        })
    })
}

// ---- VP1 ---------------------------------------------------------------------------------------

/// A VP1 program (bytes) compiled by the VP1 JIT, checked against
/// `wavejit_interp::vp1::run` on a copy: same result or error, same state.
pub fn vp1_run(s: &mut State, code: &[u8]) -> Result<Vp1Stats, ExecError> {
    let mut rs = s.clone();
    let want = wavejit_interp::vp1::run(&mut rs, code);
    let got = match wavejit_jit::vp1::run(s, code) {
        Ok(st) => Ok(st),
        Err(wavejit_jit::vp1::Vp1RunError::Exec(e)) => Err(e),
        Err(e) => panic!("VP1 program {code:02x?}: the JIT failed: {e}"),
    };
    vp1_check(&format!("VP1 program {code:02x?}"), &want, &got, &rs, s);
    got
}

/// VP1 words (undecoded, as `wavejit_interp::vp1::run_words` runs them) compiled by the
/// VP1 JIT, checked against the interpreter on a copy.
pub fn vp1_run_words(s: &mut State, words: &[u32]) -> Result<Vp1Stats, ExecError> {
    let mut rs = s.clone();
    let want = wavejit_interp::vp1::run_words(&mut rs, words);
    let code = match wavejit_jit::vp1::compile(words, s.variant) {
        Ok(c) => c,
        Err(e) => panic!("VP1 words {words:08x?}: the JIT failed: {e}"),
    };
    let got = code.run(s);
    vp1_check(&format!("VP1 words {words:08x?}"), &want, &got, &rs, s);
    got
}

fn vp1_check(
    what: &str,
    want: &Result<Vp1Stats, ExecError>,
    got: &Result<Vp1Stats, ExecError>,
    a: &State,
    b: &State,
) {
    with_jit(|j| {
        j.counts.add(C::Vp1Programs, 1);
        j.counts
            .add(C::Vp1Words, got.as_ref().map_or(0, |st| st.insts));
    });
    assert_eq!(
        got, want,
        "{what}: JIT result (left) differs from the interpreter's"
    );
    assert!(
        a == b,
        "{what}: states differ:\ninterpreter {a:?}\nJIT         {b:?}"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checks can fail: with `v_xor_b32` planted as an OR in this thread's JIT, running it
    /// through the engine panics, naming the register, lane and both values.
    #[test]
    fn the_engine_sees_a_wrong_lowering() {
        use wavejit_interp::exec::{Ctx, Step};
        use wavejit_isa::gcn::{Enc, Fields, Inst, Op, Src};
        use wavejit_isa::state::{Lds, Memory, Wave};
        use wavejit_isa::Gen;
        PLANT_XOR_BUG.with(|p| p.set(true));
        let inst = Inst {
            op: Op::VXorB32,
            enc: Enc::Vop2,
            fields: Fields::Vop2 {
                vdst: 2,
                src0: Src::vgpr(0),
                vsrc1: 1,
            },
            literal: None,
        };
        let mut wave = Wave::new(Gen::Gfx8);
        for l in 0..64 {
            wave.vgpr[0][l] = 0b1100;
            wave.vgpr[1][l] = 0b1010;
        }
        let mut lds = Lds::new(256);
        let mem = Memory::new();
        let reference = |ctx: &mut Ctx<'_>, i: &Inst| {
            wavejit_interp::valu::exec(ctx, i).map(|()| Step::Continue)
        };
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            exec_one(&mut wave, &mut lds, &mem, &inst, false, true, &reference)
        }));
        let msg = match r {
            Ok(_) => panic!("a planted wrong lowering went unnoticed"),
            Err(e) => e.downcast_ref::<String>().cloned().unwrap_or_default(),
        };
        // 0b1100 ^ 0b1010 = 0b0110; the planted OR gives 0b1110.
        assert!(msg.contains("v2 lane 0: interpreter 0x6, JIT 0xe"), "{msg}");
    }
}
