//! GCN lowering: one compiled unit per entry pc — the instructions from that pc to the
//! end of its basic block — as one Cranelift function.
//!
//! The unit is planned first (each instruction becomes an inline vector or scalar plan,
//! a control-flow item, or a call of the interpreter helper), then emitted:
//! lane-independent vector instructions are grouped into segments emitted chunk by chunk
//! (`JitConfig::chunk_major`), scalar instructions inline, helpers with the register
//! cache flushed around them, and the block's exit as a chained tail call, a jump back
//! to the unit's own header (loops), or a return to the dispatcher.

pub mod bits;
pub mod bytes;
pub mod class;
pub mod compare;
pub mod denorm;
pub mod dpp;
pub mod dpp_emit;
pub mod dynamic;
pub mod emit;
pub mod fetch;
pub mod float_ops;
pub mod float_rules;
pub mod half;
pub mod int_ops;
mod lanelin;
pub mod lanes;
pub mod mixed;
pub mod opnd;
pub mod pack;
pub mod salu;
pub mod sdwa;
pub mod sem;
pub mod sopnd;
pub mod svocab;
pub mod valu;
pub mod vintrp;
pub mod vocab;
pub mod vplan;
pub mod write;
pub mod xop;
pub mod zip;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, UserFuncName, Value};
use cranelift_frontend::FunctionBuilder;
use wavejit_isa::arch::{Arch, Gen};
use wavejit_isa::gcn::{Enc, Fields, Inst, Op};
use wavejit_isa::ir::{self, Program};

use crate::backend::Backend;
use crate::block::{mflags, Cx};
use crate::cache::{
    JitConfig, ProgCode, SLOT_OFF_FULL, SLOT_OFF_MASKED, SLOT_OFF_MODE, SLOT_OFF_WARM_FULL,
    SLOT_OFF_WARM_MASKED,
};
use crate::ctx::{self, wave_off};
use crate::error::JitError;
use crate::mem::fused::Path;
use crate::slots::{EXEC_HI, EXEC_LO, VCC_LO};

/// Whether `op` is lowered inline (some of its operand forms may still go to the
/// interpreter helper, e.g. an LDS_DIRECT operand or an integer CLAMP).
pub fn lowers_inline(_gen: Gen, op: Op) -> bool {
    !matches!(
        sem::lowering(op),
        sem::Lowering::Other | sem::Lowering::Helper
    ) || salu::known(op)
}

/// Most instructions in one unit: a longer basic block is compiled as several units that
/// chain to each other. Cranelift's cost grows faster than linearly with function size
/// (register allocation over long live ranges), so this keeps compile time linear in the
/// length of a block (a 100,000-instruction block took 50 s as one unit).
pub const MAX_UNIT_LEN: u32 = 1024;

/// What a unit is specialised on (defined with the disk cache, which stores it).
pub use crate::disk::Spec;

/// A compiled unit.
#[derive(Clone, Copy, Debug)]
pub struct Unit {
    pub func: usize,
    pub insts: u32,
    pub helpers: u32,
    /// Cranelift instructions of the function (compile cost is about linear in them).
    pub clif_insts: u32,
}

/// Why a unit was not compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoUnit {
    /// Nothing to gain (every instruction would be a helper call, or the pc does not
    /// start a decoded instruction): the dispatcher interprets it.
    Pointless,
    Failed(JitError),
}

/// Conditional branch kinds lowered inline: the table's SOPP branches whose condition is
/// the wave's state (`isa::gcn::desc::BranchIf` without the debugger's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BranchIf {
    Always,
    Scc(bool),
    Vccz(bool),
    Execz(bool),
}

impl BranchIf {
    fn inline(b: wavejit_isa::gcn::desc::BranchIf) -> Option<BranchIf> {
        use wavejit_isa::gcn::desc::BranchIf as T;
        Some(match b {
            T::Always => BranchIf::Always,
            T::Scc(one) => BranchIf::Scc(one),
            T::Vccz(z) => BranchIf::Vccz(z),
            T::Execz(z) => BranchIf::Execz(z),
            T::Debugger => return None,
        })
    }
}

/// One planned instruction.
enum Item {
    V(vplan::VPlan),
    S(salu::SPlan),
    /// A lane or register index known at run time (`lanes.rs`).
    L(lanes::LPlan),
    /// A memory access checked and done inline (`crate::mem`).
    M(crate::mem::MPlan),
    Nop,
    End,
    Barrier,
    Branch(BranchIf, u32),
    /// Run through the interpreter: (may jump, keeps EXEC unchanged).
    Helper {
        jumps: bool,
        keeps_exec: bool,
    },
}

struct Planned {
    pc: u32,
    size: u32,
    item: Item,
}

fn plan_inst(gen: Gen, inst: &Inst, pc: u32, size: u32, mode: u32) -> Item {
    match inst.enc {
        e if e.is_vector() => {
            // No state changes (exceptions are not modelled); the interpreter refuses only
            // a reserved DPP control, so the DPP form stays with it.
            if sem::lowering(inst.op) == sem::Lowering::Nop
                && matches!(inst.enc, Enc::Vop1 | Enc::Vop3 | Enc::Sdwa { .. })
            {
                return Item::Nop;
            }
            if let Some(p) = lanes::plan(gen, inst) {
                return Item::L(p);
            }
            if let Some(p) = valu::plan(gen, inst, mode) {
                return Item::V(p);
            }
        }
        Enc::Smrd | Enc::Smem | Enc::Ds | Enc::Flat | Enc::Mubuf => {
            if let Some(p) = crate::mem::plan(gen, inst) {
                return Item::M(p);
            }
        }
        Enc::Sop2 | Enc::Sopk | Enc::Sop1 | Enc::Sopc => {
            if let Some(p) = salu::plan(gen, inst) {
                return Item::S(p);
            }
        }
        Enc::Sopp => {
            if let Fields::Sopp { simm16 } = inst.fields {
                let target = (pc as i64 + 4 + (simm16 as i16 as i64) * 4) as u32;
                // The table's jit cell says what each SOPP row is; timing-only rows are
                // `nop` (interp::salu::sopp explains each).
                match sem::lowering(inst.op) {
                    sem::Lowering::End => return Item::End,
                    sem::Lowering::Barrier => return Item::Barrier,
                    sem::Lowering::Branch(b) => {
                        if let Some(k) = BranchIf::inline(b) {
                            return Item::Branch(k, target);
                        }
                    }
                    sem::Lowering::Nop => return Item::Nop,
                    // Clearing the halt bit changes nothing a wave can see.
                    _ if inst.op == Op::SSethalt && simm16 & 1 == 0 => return Item::Nop,
                    _ => {}
                }
            }
        }
        _ => {}
    }
    let _ = size;
    let jumps = !matches!(ir::flow(&ir::Inst::Gcn(*inst), pc, size), ir::Flow::Next)
        // MODE may change: the rest of the unit was specialised on the old one.
        || matches!(inst.op, Op::SSetregB32 | Op::SSetregImm32B32);
    // A scalar load's data may reach EXEC (126-127) in raw code (assemblers refuse it;
    // the interpreter writes it): up to 16 dwords from its first data register.
    let scalar_keeps_exec = inst
        .scalar_mem(gen)
        .is_some_and(|m| (m.sdata as u32) + 16 <= EXEC_LO as u32);
    let keeps_exec = (matches!(inst.enc, Enc::Smrd | Enc::Smem) && scalar_keeps_exec)
        || matches!(
            inst.enc,
            Enc::Ds | Enc::Mubuf | Enc::Mtbuf | Enc::Flat | Enc::Vintrp | Enc::Mimg | Enc::Exp
        );
    Item::Helper { jumps, keeps_exec }
}

/// The instructions of the unit starting at `pc`.
fn plan_unit(prog: &Program, gen: Gen, pc: u32, mode: u32, max_len: u32) -> Option<Vec<Planned>> {
    let i0 = prog.slot_index(pc)?;
    let bi = prog
        .blocks
        .partition_point(|b| b.first <= i0)
        .checked_sub(1)?;
    let blk = prog.blocks.get(bi)?;
    let end = blk.first + blk.len;
    let mut items = Vec::new();
    for slot in prog.slots.get(i0..end)? {
        let Ok(ir::Inst::Gcn(inst)) = &slot.inst else {
            break;
        };
        let item = plan_inst(gen, inst, slot.pc, slot.size, mode);
        let last = matches!(
            item,
            Item::End | Item::Barrier | Item::Branch(..) | Item::Helper { jumps: true, .. }
        ) || matches!(&item, Item::S(sp) if sp.ends_unit());
        items.push(Planned {
            pc: slot.pc,
            size: slot.size,
            item,
        });
        if last || items.len() as u32 == max_len {
            break;
        }
    }
    Some(items)
}

/// The VGPRs `item` may write; `None`: any (not known here, or the unit ends).
fn vgpr_writes(item: &Item) -> Option<Vec<u8>> {
    match item {
        Item::V(vp) => Some(vp.vgpr_writes()),
        Item::S(_) | Item::Nop => Some(Vec::new()),
        Item::M(mp) => mp.vgpr_writes(),
        Item::L(_) | Item::End | Item::Barrier | Item::Branch(..) | Item::Helper { .. } => None,
    }
}

/// Let the DS accesses of the unit that read one address register share its check
/// (`mem::lds::share`), from what each instruction may write to the VGPRs.
fn share_lds(items: &mut [Planned]) {
    let writes: Vec<Option<Vec<u8>>> = items.iter().map(|p| vgpr_writes(&p.item)).collect();
    let mut plans: Vec<Option<&mut crate::mem::lds::DsPlan>> = items
        .iter_mut()
        .map(|p| match &mut p.item {
            Item::M(crate::mem::MPlan::Ds(d)) => Some(d),
            _ => None,
        })
        .collect();
    crate::mem::lds::share(&mut plans, &writes);
}

/// Mark the unit's FLAT accesses whose addresses `lanelin` finds lane-linear; the VGPRs
/// to test at the header.
fn mark_linear(items: &mut [Planned], exec_all: bool) -> Vec<u8> {
    use crate::mem::MPlan;
    use lanelin::Effect;
    let unit = items
        .iter_mut()
        .map(|p| {
            let writes = vgpr_writes(&p.item);
            match &mut p.item {
                Item::V(vp) => Effect::Valu(vp),
                Item::Nop => Effect::Nothing,
                Item::M(MPlan::Flat(f)) => Effect::Flat(f, writes),
                Item::M(MPlan::Ds(_)) => Effect::Other {
                    vgprs: writes,
                    exec: false,
                    sgprs: false,
                },
                // Scalar loads write SGPRs only: EXEC if their destinations reach it.
                Item::M(MPlan::Smem(sm)) => Effect::Other {
                    vgprs: Some(Vec::new()),
                    exec: sm.sdst as u32 + sm.dwords > EXEC_LO as u32,
                    sgprs: true,
                },
                Item::S(sp) => Effect::Other {
                    vgprs: Some(Vec::new()),
                    exec: sp.writes_exec(),
                    sgprs: true,
                },
                _ => Effect::Other {
                    vgprs: writes,
                    exec: true,
                    sgprs: true,
                },
            }
        })
        .collect();
    lanelin::mark(unit, exec_all)
}

/// What the instructions of the segment being built touch, together (see `joins`).
type SegIo = vplan::LaneIo;

fn pairs_overlap(a: u8, b: u8) -> bool {
    let a1 = a.wrapping_add(1) & 127;
    let b1 = b.wrapping_add(1) & 127;
    a == b || a == b1 || a1 == b || a1 == b1
}

fn pair_has(lo: u8, s: u8) -> bool {
    s == lo || s == (lo.wrapping_add(1) & 127)
}

/// Whether an instruction touching `io` may join the segment `seg`. Chunk-by-chunk
/// emission runs later instructions of chunk c before earlier ones of chunk c+1, which
/// equals program order only while no 64-bit mask written lane by lane in the segment is
/// also read as a scalar (before or after the write) or through a different, overlapping
/// pair.
fn joins(seg: &SegIo, io: &vplan::LaneIo) -> bool {
    writes_apart(seg, io) && writes_apart(io, seg)
}

/// Whether no mask pair `a` writes lane by lane is read by `b` as a scalar, or read or
/// written by `b` through a different, overlapping pair.
fn writes_apart(a: &vplan::LaneIo, b: &vplan::LaneIo) -> bool {
    a.lane_writes.iter().all(|&w| {
        !b.scalar_reads.iter().any(|&s| pair_has(w, s))
            && !b
                .lane_reads
                .iter()
                .chain(&b.lane_writes)
                .any(|&p| p != w && pairs_overlap(p, w))
    })
}

/// Compile the unit `spec` of `prog` into `be`'s module. `hot`: the code is quick-tier
/// code that counts its entries in its slot and asks for its optimised version at this
/// many (`ctx::EXIT_HOT_FULL`).
pub(crate) fn compile(
    be: &mut Backend,
    cfg: &JitConfig,
    prog: &Program,
    code: &ProgCode,
    spec: Spec,
    hot: Option<u32>,
) -> Result<Unit, NoUnit> {
    let Arch::Gcn(gen) = prog.arch else {
        return Err(NoUnit::Pointless);
    };
    let max_len = match spec.max_len {
        0 => MAX_UNIT_LEN,
        n => n.min(MAX_UNIT_LEN),
    };
    let mut items = plan_unit(prog, gen, spec.pc, spec.mode, max_len).ok_or(NoUnit::Pointless)?;
    share_lds(&mut items);
    let linear = mark_linear(&mut items, spec.exec_all);
    if items.is_empty()
        || items
            .iter()
            .all(|p| matches!(p.item, Item::Helper { .. } | Item::Nop))
    {
        return Err(NoUnit::Pointless);
    }
    let helpers = items
        .iter()
        .filter(|p| matches!(p.item, Item::Helper { .. }))
        .count() as u32;
    let len = items.len() as u32;

    let sig = be.block_signature().map_err(NoUnit::Failed)?;
    let ptr = be.pointer_type();
    let fcfg = be.frontend_config();
    be.ctx.func.signature = sig;
    be.ctx.func.name = UserFuncName::user(1, spec.pc);
    let mut b = FunctionBuilder::new(&mut be.ctx.func, &mut be.fctx);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let params = b.block_params(entry).to_vec();
    let (wave, jctx) = (params[0], params[1]);
    let header = b.create_block();
    b.ins().jump(header, &[]);
    b.switch_to_block(header);
    let mut cx = Cx::new(
        b,
        ptr,
        wave,
        jctx,
        gen,
        spec.mode,
        crate::backend::host_has_fma(),
    );
    cx.plant_xor_bug = cfg.plant_xor_bug;
    // The run's profile counters (code compiled for profiling always runs with them).
    let prof = cfg
        .profile
        .then(|| cx.b.ins().load(cx.ptr, mflags(), cx.jctx, ctx::OFF_PROF));
    if let Some(n) = hot {
        count_entry(&mut cx, spec, n);
    }
    cx.budget_guard(len, spec.pc);
    if spec.exec_all {
        cx.assume_ones(EXEC_LO);
        cx.assume_ones(EXEC_HI);
    }
    // At the header, before any instruction: the tests stand for the VGPRs' values at it.
    for r in linear {
        let ok = crate::mem::global::lane_linear(&mut cx, r);
        cx.lin_ok.push((r, ok));
    }
    // The quick tier loops over the chunks of the segments that allow it.
    let loops = hot.is_some() && cfg.chunk_loops;
    cx.loops = loops;
    let em = Emitter {
        cfg,
        code,
        spec,
        header,
    };
    // The segment being built: its instructions with their pcs.
    let mut seg: Vec<(SegItem, u32)> = Vec::new();
    let mut segio = SegIo::default();
    let mut ended = false;
    // The run of memory loads being built (`crate::mem::emit_run`).
    let mut mrun: Vec<(crate::mem::MPlan, crate::mem::At)> = Vec::new();
    // Memory instructions so far (`crate::mem::At::nth`).
    let mut mem_nth = 0u32;
    for (k, p) in items.iter().enumerate() {
        let next_pc = p.pc.wrapping_add(p.size);
        // A no-op (`s_waitcnt` between clang's address arithmetic and its uses, `s_nop`)
        // changes no state: the segment or run of loads being built goes on across it, so
        // its registers are not stored and reloaded around it. Profiled code counts it
        // with the EXEC of its point, which is the EXEC before the segment unless an
        // instruction of the segment writes EXEC (then the no-op ends the segment). Like
        // the segment's own instructions, it is counted before the segment is emitted.
        if matches!(p.item, Item::Nop) {
            match prof {
                None => continue,
                Some(base) if seg.iter().all(|s| !s.0.writes_exec()) => {
                    count_issue(&mut cx, base, prog, p.pc);
                    continue;
                }
                Some(_) => {}
            }
        }
        // A DS read emitted inside the segment (`mem::fused`): the segment before it ends
        // unless the read may join it, then the read joins it if EXEC allows.
        if let Item::M(crate::mem::MPlan::Ds(d)) = &p.item {
            if cfg.fuse_ds_reads && cfg.chunk_major && crate::mem::fused::shape_ok(d) {
                if !read_may_join(&seg, d) {
                    count_segment(&mut cx, prof, prog, &seg);
                    emit_segment(&mut cx, &seg, loops);
                    seg.clear();
                    segio = SegIo::default();
                }
                if crate::mem::fused::fusable(&cx, d) {
                    crate::mem::emit_run(&mut cx, &mrun);
                    mrun.clear();
                    forget_contig(&mut cx, &p.item);
                    let at = crate::mem::At {
                        pc: p.pc,
                        rest: (items.len() - k - 1) as u32,
                        nth: mem_nth,
                    };
                    mem_nth += 1;
                    seg.push((SegItem::R(*d, at), p.pc));
                    continue;
                }
            }
        }
        if !matches!(&p.item, Item::M(mp) if crate::mem::joins(&mrun, mp)) {
            crate::mem::emit_run(&mut cx, &mrun);
            mrun.clear();
        }
        forget_contig(&mut cx, &p.item);
        // Profiled code counts a segment's instructions with the EXEC before it, so an
        // instruction that writes EXEC ends its segment.
        let exec_stable = !cfg.profile || seg.iter().all(|s| !s.0.writes_exec());
        match &p.item {
            Item::V(vp) => {
                let io = vp.io();
                let fits = cfg.chunk_major
                    && !vp.cross_lane
                    && seg.iter().all(|s| !s.0.cross_lane())
                    && exec_stable
                    && joins(&segio, &io);
                if !fits {
                    count_segment(&mut cx, prof, prog, &seg);
                    emit_segment(&mut cx, &seg, loops);
                    seg.clear();
                    segio = SegIo::default();
                }
                segio.add(&io);
                seg.push((SegItem::V(vp), p.pc));
                continue;
            }
            _ => {
                count_segment(&mut cx, prof, prog, &seg);
                emit_segment(&mut cx, &seg, loops);
                seg.clear();
                segio = SegIo::default();
            }
        }
        if let Some(base) = prof {
            count_issue(&mut cx, base, prog, p.pc);
        }
        match &p.item {
            Item::V(_) => {}
            Item::S(sp) => {
                salu::emit(&mut cx, sp, p.pc, p.size);
                ended |= sp.ends_unit();
            }
            Item::L(lp) => lanes::emit(&mut cx, lp, p.pc),
            Item::M(mp) => {
                if let (Some(_), crate::mem::MPlan::Ds(d)) = (prof, mp) {
                    crate::mem::lds::count_bank_conflicts(&mut cx, d, p.pc);
                }
                let rest = (items.len() - k - 1) as u32;
                let at = crate::mem::At {
                    pc: p.pc,
                    rest,
                    nth: mem_nth,
                };
                mem_nth += 1;
                if crate::mem::joins(&mrun, mp) {
                    mrun.push((*mp, at));
                } else {
                    crate::mem::emit(&mut cx, mp, at);
                }
            }
            Item::Nop => {}
            Item::End => {
                cx.flush();
                cx.store_pc(p.pc);
                cx.ret(ctx::EXIT_END);
                ended = true;
            }
            Item::Barrier => {
                cx.flush();
                cx.store_pc(next_pc);
                cx.ret(ctx::EXIT_BARRIER);
                ended = true;
            }
            Item::Branch(k2, target) => {
                em.branch(
                    &mut cx,
                    *k2,
                    *target,
                    next_pc,
                    prof.map(|b| (b, p.pc, prog)),
                );
                ended = true;
            }
            Item::Helper { jumps, keeps_exec } => {
                em.helper(&mut cx, p.pc, *keeps_exec);
                if *jumps {
                    cx.ret(ctx::EXIT_NEXT);
                    ended = true;
                }
            }
        }
        let _ = k;
    }
    if !ended {
        crate::mem::emit_run(&mut cx, &mrun);
        count_segment(&mut cx, prof, prog, &seg);
        emit_segment(&mut cx, &seg, loops);
        let last = items.last().map_or(spec.pc, |p| p.pc.wrapping_add(p.size));
        cx.flush();
        em.exit_to(&mut cx, last);
    }
    cx.b.seal_all_blocks();
    let clif_insts = cx.b.func.dfg.num_insts() as u32;
    cx.b.finalize(fcfg);
    let func = be.compile_current().map_err(NoUnit::Failed)? as usize;
    Ok(Unit {
        func,
        insts: len,
        helpers,
        clif_insts,
    })
}

/// Quick tier, at the unit's header (every entry and every iteration of a loop within
/// the unit): count the entry in the slot's counter of this variant, and at the
/// `hot`-th return `EXIT_HOT_*` with nothing run (`wave.pc` is already the unit's pc:
/// whoever enters a unit stores its pc first), so that the dispatcher compiles the
/// optimised version. The counter goes on past `hot`, so a failed optimising compile is
/// not asked for again.
fn count_entry(cx: &mut Cx, spec: Spec, hot: u32) {
    let slots = cx.b.ins().load(cx.ptr, mflags(), cx.jctx, ctx::OFF_SLOTS);
    let off = (spec.pc / 4) as usize * std::mem::size_of::<crate::cache::EntrySlot>();
    let sa = cx.b.ins().iadd_imm_s(slots, off as i64);
    let field = if spec.exec_all {
        SLOT_OFF_WARM_FULL
    } else {
        SLOT_OFF_WARM_MASKED
    };
    let n = cx.b.ins().load(types::I32, mflags(), sa, field);
    let n1 = cx.b.ins().iadd_imm_s(n, 1);
    cx.b.ins().store(mflags(), n1, sa, field);
    let is_hot = cx.b.ins().icmp_imm_s(IntCC::Equal, n1, hot as i32 as i64);
    let out = cx.b.create_block();
    let go = cx.b.create_block();
    cx.b.ins().brif(is_hot, out, &[], go, &[]);
    cx.b.switch_to_block(out);
    cx.b.seal_block(out);
    cx.ret(if spec.exec_all {
        ctx::EXIT_HOT_FULL
    } else {
        ctx::EXIT_HOT_MASKED
    });
    cx.b.switch_to_block(go);
    cx.b.seal_block(go);
}

/// Address of the profile counters of the instruction at `pc` (`base` + its slot).
fn counters_at(cx: &mut Cx, base: Value, prog: &Program, pc: u32) -> Option<Value> {
    let slot = prog.slot_index(pc)?;
    let off = slot as i64 * wavejit_interp::profile::COUNTERS_SIZE as i64;
    Some(cx.b.ins().iadd_imm_s(base, off))
}

/// Add `v` to the `field` of the counters at `at`.
fn add_counter(cx: &mut Cx, at: Value, field: i32, v: Value) {
    let old = cx.b.ins().load(types::I64, mflags(), at, field);
    let new = cx.b.ins().iadd(old, v);
    cx.b.ins().store(mflags(), new, at, field);
}

/// Profiling: count one issue of the instruction at `pc` with the lanes of the current
/// EXEC (as `wavejit_interp::profile::count_issue` does).
fn count_issue(cx: &mut Cx, base: Value, prog: &Program, pc: u32) {
    let Some(at) = counters_at(cx, base, prog, pc) else {
        return;
    };
    let lanes = if cx.exec_known_ones() {
        cx.b.ins().iconst(types::I64, 64)
    } else {
        let e = cx.sreg64(crate::slots::EXEC_LO);
        cx.b.ins().popcnt(e)
    };
    let one = cx.b.ins().iconst(types::I64, 1);
    add_counter(cx, at, wavejit_interp::profile::OFF_EXECS, one);
    add_counter(cx, at, wavejit_interp::profile::OFF_LANES, lanes);
}

/// Profiling: count the instructions of a segment before it is emitted (the segment
/// holds no EXEC write but possibly at its end: see `compile`).
fn count_segment(cx: &mut Cx, prof: Option<Value>, prog: &Program, seg: &[(SegItem, u32)]) {
    if let Some(base) = prof {
        for &(item, pc) in seg {
            count_issue(cx, base, prog, pc);
            if let SegItem::R(d, _) = item {
                crate::mem::lds::count_bank_conflicts(cx, &d, pc);
            }
        }
    }
}

/// One instruction of a segment: a vector ALU instruction, or a DS read emitted inside
/// the segment's chunks (`mem::fused`).
#[derive(Clone, Copy)]
enum SegItem<'p> {
    V(&'p vplan::VPlan),
    R(crate::mem::lds::DsPlan, crate::mem::At),
}

impl SegItem<'_> {
    fn cross_lane(&self) -> bool {
        matches!(self, SegItem::V(p) if p.cross_lane)
    }

    /// Whether the instruction may write EXEC (a `v_cmpx`, or EXEC as a lane-mask
    /// destination).
    fn writes_exec(&self) -> bool {
        matches!(self, SegItem::V(p)
            if p.to_exec || p.sdst.is_some_and(|s| pairs_overlap(s, EXEC_LO)))
    }

    fn vgpr_writes(&self) -> Vec<u8> {
        match self {
            SegItem::V(p) => p.vgpr_writes(),
            SegItem::R(d, _) => crate::mem::fused::writes(d),
        }
    }

    fn loop_ok(&self) -> bool {
        match self {
            SegItem::V(p) => loop_ok(p),
            SegItem::R(..) => true,
        }
    }
}

/// Whether the DS read `d` may join `seg` (`mem::fused`): the segment is empty or starts
/// with a read (a failed check leaves through that read's side exit, so the interpreter
/// runs it and the unit after it runs the rest), and no instruction of the segment
/// writes EXEC (the check and the window path assume the EXEC before the segment) or
/// `d`'s address register (checked before the segment, from the wave).
fn read_may_join(seg: &[(SegItem, u32)], d: &crate::mem::lds::DsPlan) -> bool {
    seg.first().is_none_or(|s| matches!(s.0, SegItem::R(..)))
        && seg
            .iter()
            .all(|s| !s.0.writes_exec() && !s.0.vgpr_writes().contains(&d.f.addr))
}

/// Forget the FLAT address pairs tested contiguous (`Cx::flat_contig`) that `item` may
/// write (any, for an instruction whose VGPR writes are not known here). Called in program
/// order before anything after `item` is emitted; a test is recorded when its access is
/// emitted, after the writes of the instructions before it were seen.
fn forget_contig(cx: &mut Cx, item: &Item) {
    match vgpr_writes(item) {
        Some(w) => cx
            .flat_contig
            .retain(|(a, _)| !w.iter().any(|&r| r == *a || r == a.wrapping_add(1))),
        None => cx.flat_contig.clear(),
    }
}

/// Emit a segment: chunk by chunk when it is lane-independent (its DS reads checked
/// first), else the one cross-lane instruction with its sources gathered first.
fn emit_segment(cx: &mut Cx, seg: &[(SegItem, u32)], loops: bool) {
    if let [(SegItem::V(p), _)] = seg {
        if p.cross_lane {
            // `plan` checked the gather exists for every DPP control it accepts.
            let _ = valu::emit_cross(cx, p);
            return;
        }
    }
    if seg.is_empty() {
        return;
    }
    if let [(SegItem::V(p), _)] = seg {
        // The optimised tier only: the quick tier compiles for compile time.
        if !loops {
            if let Some((u, b, c)) = denorm::shape(cx, p) {
                return emit_denormal_free(cx, seg, u, b, c);
            }
        }
    }
    // The DS reads' checks first: the first read is the segment's first instruction
    // (`read_may_join`), so their side exit runs it.
    let reads: Vec<(crate::mem::lds::DsPlan, crate::mem::At)> = seg
        .iter()
        .filter_map(|s| match s.0 {
            SegItem::R(d, at) => Some((d, at)),
            _ => None,
        })
        .collect();
    let Some(&(_, at)) = reads.first() else {
        return emit_copy(cx, seg, loops, None);
    };
    let fused = crate::mem::fused::prepare(cx, &reads, at);
    // Once per path (`fused::Path`): in the optimised tier, the reads for their
    // registers' lane patterns when every address register has its pattern; the reads
    // as windows when every address register allows; else lane by lane. Each copy
    // starts with nothing cached but EXEC as before the segment, and ends with nothing
    // cached but that EXEC (the last copy: nothing, if the segment writes EXEC after its
    // reads), so neither it nor the code after the join uses a value only another
    // defined.
    let clean = |cx: &mut Cx, exec: Option<[Option<Value>; 2]>| {
        cx.flush();
        cx.invalidate(false);
        cx.forget_values();
        if let Some(e) = exec {
            cx.restore_exec(e);
        }
    };
    cx.flush();
    cx.invalidate(true);
    cx.forget_values();
    let exec = cx.exec_cached();
    let keeps_exec = seg.iter().all(|s| !s.0.writes_exec());
    let [fast, slow, join] = [(); 3].map(|_| cx.b.create_block());
    cx.b.set_cold_block(slow);
    let mut paths = vec![(fast, Path::Windows), (slow, Path::Lanes)];
    if !loops {
        let [pat, rest] = [(); 2].map(|_| cx.b.create_block());
        cx.b.ins().brif(fused.patterned, pat, &[], rest, &[]);
        cx.b.switch_to_block(rest);
        cx.b.seal_block(rest);
        paths.insert(0, (pat, Path::Patterned));
    }
    cx.b.ins().brif(fused.uniform, fast, &[], slow, &[]);
    for (block, path) in paths {
        cx.b.switch_to_block(block);
        cx.b.seal_block(block);
        emit_copy(cx, seg, loops, Some((&fused, path)));
        clean(cx, (path != Path::Lanes || keeps_exec).then_some(exec));
        cx.b.ins().jump(join, &[]);
    }
    cx.b.switch_to_block(join);
    cx.b.seal_block(join);
}

/// Emit the f32 multiply-add `seg` (`denorm::shape`: `u × b + c`) twice: without its
/// denormal flushes where the wave-wide test proves them the identity, else as usual.
/// Like the DS reads' two copies, each starts and ends with nothing cached but EXEC.
fn emit_denormal_free(cx: &mut Cx, seg: &[(SegItem, u32)], u: vplan::VSrc, b: u8, c: u8) {
    cx.flush();
    cx.invalidate(true);
    cx.forget_values();
    let Some(ok) = denorm::test(cx, u, b, c) else {
        return emit_copy(cx, seg, false, None);
    };
    let exec = cx.exec_cached();
    let [fast, slow, join] = [(); 3].map(|_| cx.b.create_block());
    cx.b.set_cold_block(slow);
    cx.b.ins().brif(ok, fast, &[], slow, &[]);
    for (block, free) in [(fast, true), (slow, false)] {
        cx.b.switch_to_block(block);
        cx.b.seal_block(block);
        if free {
            denorm::kept(cx, |cx| emit_copy(cx, seg, false, None));
        } else {
            emit_copy(cx, seg, false, None);
        }
        cx.flush();
        cx.invalidate(false);
        cx.forget_values();
        cx.restore_exec(exec);
        cx.b.ins().jump(join, &[]);
    }
    cx.b.switch_to_block(join);
    cx.b.seal_block(join);
}

/// Emit the lane-independent `seg` chunk by chunk (`reads`: its DS reads' checks and
/// the path they take).
fn emit_copy(
    cx: &mut Cx,
    seg: &[(SegItem, u32)],
    loops: bool,
    reads: Option<(&crate::mem::fused::Fused, Path)>,
) {
    let pcs: Vec<u32> = seg.iter().map(|s| s.1).collect();
    let plans: Vec<&vplan::VPlan> = seg
        .iter()
        .filter_map(|s| match s.0 {
            SegItem::V(p) => Some(p),
            _ => None,
        })
        .collect();
    let cover = vintrp::covering(&plans);
    let mut nth = 0;
    let unis: Vec<Option<fetch::Unis>> = seg
        .iter()
        .enumerate()
        .map(|(i, s)| match s.0 {
            SegItem::V(p) => {
                let check = cover.is_none_or(|j| j == nth);
                nth += 1;
                Some(fetch::uniforms(cx, p, &pcs[..=i], check))
            }
            _ => None,
        })
        .collect();
    if !loops {
        emit_run(cx, seg, &unis, reads, false);
        return;
    }
    // The quick tier: maximal runs of instructions a loop body can emit, as loops; the
    // others unrolled. (Runs one after the other are the segment's program order.) A loop
    // run ends with its first instruction that writes EXEC: the body reads EXEC's lanes
    // from its value before the loop, which is the EXEC of every instruction up to that
    // one; the loop accumulates the new EXEC like any written pair and sets it after the
    // loop, where the instructions after it read it.
    let mut i = 0;
    while i < seg.len() {
        let l = seg[i].0.loop_ok();
        let mut n = seg[i..].iter().take_while(|s| s.0.loop_ok() == l).count();
        if l {
            if let Some(k) = seg[i..i + n].iter().position(|s| s.0.writes_exec()) {
                n = k + 1;
            }
        }
        emit_run(cx, &seg[i..i + n], &unis[i..i + n], reads, l);
        i += n;
    }
}

/// Emit the lane-independent `seg` chunk by chunk (`unis`: its vector instructions'
/// `fetch::uniforms`; `reads`: as `emit_copy`): its 16 chunks unrolled, or one loop body
/// run for each chunk.
fn emit_run(
    cx: &mut Cx,
    seg: &[(SegItem, u32)],
    unis: &[Option<fetch::Unis>],
    reads: Option<(&crate::mem::fused::Fused, Path)>,
    as_loop: bool,
) {
    // Every VGPR write is stored right after its instruction in each chunk (see
    // `Cx::end_chunk`): the stores keep Cranelift's scheduling of the pure arithmetic in
    // program order — anchored only by the last writes, a chain of overwrites of one
    // register is evaluated whole before the instructions that read its intermediate
    // values, which then sit on the stack.
    let writes: Vec<Vec<u8>> = seg.iter().map(|s| s.0.vgpr_writes()).collect();
    // The last writer of each register in the run: only its value is stored (an
    // earlier write is overwritten within the same chunk before anything reads memory:
    // no helper call or side exit runs between the chunks of a run).
    let mut last = [usize::MAX; 256];
    for (i, regs) in writes.iter().enumerate() {
        for &r in regs {
            last[r as usize] = i;
        }
    }
    let store = |cx: &mut Cx, i: usize, c: usize| {
        for &r in &writes[i] {
            if !cx.dse || last[r as usize] == i {
                cx.store_chunk(r, c);
            }
        }
    };
    let body = |cx: &mut Cx, c: usize| {
        let mut i = 0;
        while i < seg.len() {
            match (seg[i].0, &unis[i]) {
                (SegItem::V(p), Some(u)) => {
                    valu::emit_chunk(cx, p, c, u);
                    store(cx, i, c);
                    i += 1;
                }
                (SegItem::R(..), _) => {
                    let n = seg[i..]
                        .iter()
                        .take_while(|s| matches!(s.0, SegItem::R(..)))
                        .count();
                    let run: Vec<crate::mem::lds::DsPlan> = seg[i..i + n]
                        .iter()
                        .filter_map(|s| match s.0 {
                            SegItem::R(d, _) => Some(d),
                            _ => None,
                        })
                        .collect();
                    if let Some((f, path)) = reads {
                        crate::mem::fused::chunk(cx, f, &run, path, c);
                    }
                    for j in i..i + n {
                        store(cx, j, c);
                    }
                    i += n;
                }
                _ => i += 1,
            }
        }
    };
    let as_loop = as_loop && pairs_apart(seg);
    // The mask pairs read or written lane by lane (other than EXEC), and the written ones.
    let mut pairs: Vec<u8> = Vec::new();
    let mut written: Vec<u8> = Vec::new();
    if as_loop {
        for s in seg {
            let SegItem::V(p) = s.0 else {
                continue;
            };
            let (r, w) = lane_pairs(p);
            // The body reads EXEC's lanes from its own value before the loop
            // (`Cx::lanes`), so EXEC is only accumulated (`written`).
            for &m in r.iter().chain(&w) {
                if m != EXEC_LO && !pairs.contains(&m) {
                    pairs.push(m);
                }
            }
            for m in w {
                if !written.contains(&m) {
                    written.push(m);
                }
            }
        }
    }
    cx.chunk_loop(as_loop, &pairs, &written, body);
}

/// Whether a loop body emitted as chunk 0 computes every chunk of `p` (its registers
/// read and written at the chunk's address, lane masks read from the chunk's bits and
/// written into loop-carried accumulators, EXEC too, VINTRP parameters of the chunk's
/// quad): `p` does not gather across lanes (DPP) or depend on lane numbers (`v_mbcnt`).
/// An instruction that writes EXEC (`v_cmpx`, or EXEC as a compare's or carry's
/// destination) ends its loop (`emit_copy`).
fn loop_ok(p: &vplan::VPlan) -> bool {
    !p.cross_lane
        && p.dpp.is_none()
        && !matches!(
            p.sem,
            sem::Sem::Int(vocab::IOp::MbcntLo | vocab::IOp::MbcntHi)
        )
}

/// The mask pairs (first slots) `p` reads lane by lane, EXEC aside, and those it writes
/// lane by lane (EXEC among them for an instruction that writes it).
fn lane_pairs(p: &vplan::VPlan) -> (Vec<u8>, Vec<u8>) {
    let io = p.io();
    let mut reads: Vec<u8> = io
        .lane_reads
        .into_iter()
        .filter(|&m| m != EXEC_LO)
        .collect();
    let shape = p.sem.shape();
    if p.mask_src.is_none() && (shape.mask_in || matches!(p.sem, sem::Sem::Cndmask)) {
        reads.push(VCC_LO);
    }
    (reads, io.lane_writes)
}

/// Whether the mask pairs of `seg` (and EXEC) are each either the same pair or apart:
/// a loop keeps one lane form per pair.
fn pairs_apart(seg: &[(SegItem, u32)]) -> bool {
    let mut all = vec![EXEC_LO];
    for s in seg {
        let SegItem::V(p) = s.0 else {
            continue;
        };
        let (r, w) = lane_pairs(p);
        for m in r.into_iter().chain(w) {
            if !all.contains(&m) {
                all.push(m);
            }
        }
    }
    all.iter()
        .enumerate()
        .all(|(i, &a)| all[i + 1..].iter().all(|&b| !pairs_overlap(a, b)))
}

/// What the exits of a unit need.
struct Emitter<'a> {
    cfg: &'a JitConfig,
    code: &'a ProgCode,
    spec: Spec,
    header: cranelift_codegen::ir::Block,
}

impl Emitter<'_> {
    /// Call the interpreter for the instruction at `pc`, with registers in memory.
    fn helper(&self, cx: &mut Cx, pc: u32, keeps_exec: bool) {
        cx.flush();
        crate::exit::call_helper(cx, pc, false);
        cx.invalidate(keeps_exec);
    }

    /// A conditional (or unconditional) branch ending the unit.
    /// `prof`: the profile counters and the branch's pc, to count a conditional
    /// branch's outcome.
    fn branch(
        &self,
        cx: &mut Cx,
        k: BranchIf,
        target: u32,
        next: u32,
        prof: Option<(Value, u32, &Program)>,
    ) {
        let cond: Option<Value> = match k {
            BranchIf::Always => None,
            BranchIf::Scc(one) => {
                let s = cx.scc_bit();
                Some(if one {
                    s
                } else {
                    cx.b.ins().icmp_imm_s(IntCC::Equal, s, 0)
                })
            }
            BranchIf::Vccz(z) | BranchIf::Execz(z) => {
                let lo = if matches!(k, BranchIf::Vccz(_)) {
                    VCC_LO
                } else {
                    EXEC_LO
                };
                let v = cx.sreg64(lo);
                Some(
                    cx.b.ins()
                        .icmp_imm_s(if z { IntCC::Equal } else { IntCC::NotEqual }, v, 0),
                )
            }
        };
        if let (Some(c), Some((base, pc, prog))) = (cond, prof) {
            if let Some(at) = counters_at(cx, base, prog, pc) {
                let taken = cx.b.ins().uextend(types::I64, c);
                add_counter(cx, at, wavejit_interp::profile::OFF_TAKEN, taken);
            }
        }
        cx.flush();
        // The quick tier leaves through one chained exit for both outcomes (the pc
        // selected, its slot found at run time): half the exit code to compile. A branch
        // to the unit's own start keeps its jump back to the header.
        let chained =
            |pc: u32| self.cfg.chain && pc != self.spec.pc && self.code.slot(pc).is_some();
        if let (Some(c), true) = (cond, cx.loops && chained(target) && chained(next)) {
            let t = cx.iconst32(target);
            let n = cx.iconst32(next);
            let pc = cx.b.ins().select(c, t, n);
            cx.b.ins().store(mflags(), pc, cx.wave, wave_off::PC);
            let pc = cx.b.ins().uextend(cx.ptr, pc);
            let idx = cx.b.ins().ushr_imm_u(pc, 2);
            let off =
                cx.b.ins()
                    .imul_imm_u(idx, std::mem::size_of::<crate::cache::EntrySlot>() as i64);
            self.chain_to(cx, off);
            return;
        }
        match cond {
            None => self.exit_to(cx, target),
            Some(c) => {
                let t = cx.b.create_block();
                let f = cx.b.create_block();
                cx.b.ins().brif(c, t, &[], f, &[]);
                cx.b.switch_to_block(t);
                cx.b.seal_block(t);
                self.exit_to(cx, target);
                cx.b.switch_to_block(f);
                cx.b.seal_block(f);
                self.exit_to(cx, next);
            }
        }
    }

    /// Leave the unit for `target` (state already flushed): loop to our own header,
    /// tail-call the target's compiled code, or return to the dispatcher. Emits only
    /// fresh values (nothing cached), so it may sit in a side block.
    fn exit_to(&self, cx: &mut Cx, target: u32) {
        cx.store_pc(target);
        if !self.cfg.chain {
            cx.ret(ctx::EXIT_NEXT);
            return;
        }
        let exec_ones = cx.exec_known_ones();
        if target == self.spec.pc && (exec_ones || !self.spec.exec_all) {
            cx.b.ins().jump(self.header, &[]);
            return;
        }
        if self.code.slot(target).is_none() {
            cx.ret(ctx::EXIT_NEXT);
            return;
        }
        let off = (target / 4) as usize * std::mem::size_of::<crate::cache::EntrySlot>();
        let off = cx.b.ins().iconst(cx.ptr, off as i64);
        self.chain_to(cx, off);
    }

    /// Tail-call the code in the slot at byte offset `off` of the slot table if it has
    /// a variant for this MODE and EXEC, else return `EXIT_NEXT` (`wave.pc` is stored).
    fn chain_to(&self, cx: &mut Cx, off: Value) {
        let exec_ones = cx.exec_known_ones();
        // The slot's address from the run's slot table (not a constant in the code: see
        // `JitCtx::slots`).
        let slots = cx.b.ins().load(cx.ptr, mflags(), cx.jctx, ctx::OFF_SLOTS);
        let sa = cx.b.ins().iadd(slots, off);
        let m = cx.b.ins().load(types::I32, mflags(), sa, SLOT_OFF_MODE);
        let mode_ok =
            cx.b.ins()
                .icmp_imm_s(IntCC::Equal, m, self.spec.mode as i32 as i64);
        // A full EXEC takes only the full variant (as `ProgCode::lookup`): without one the
        // dispatcher compiles it, rather than the wave running masked code.
        let ff = cx.b.ins().load(cx.ptr, mflags(), sa, SLOT_OFF_FULL);
        let f = if exec_ones {
            ff
        } else {
            let fm = cx.b.ins().load(cx.ptr, mflags(), sa, SLOT_OFF_MASKED);
            let e =
                cx.b.ins()
                    .load(types::I64, mflags(), cx.wave, wave_off::EXEC);
            let all = cx.b.ins().icmp_imm_s(IntCC::Equal, e, -1);
            cx.b.ins().select(all, ff, fm)
        };
        let has = cx.b.ins().icmp_imm_s(IntCC::NotEqual, f, 0);
        let go = cx.b.ins().band(has, mode_ok);
        let call = cx.b.create_block();
        let back = cx.b.create_block();
        cx.b.ins().brif(go, call, &[], back, &[]);
        cx.b.switch_to_block(back);
        cx.b.seal_block(back);
        cx.ret(ctx::EXIT_NEXT);
        cx.b.switch_to_block(call);
        cx.b.seal_block(call);
        let sref = cx.tail_sig();
        cx.b.ins()
            .return_call_indirect(sref, f, &[cx.wave, cx.jctx]);
    }
}
