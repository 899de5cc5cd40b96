//! Program shapes: random instructions from the pool arranged in straight-line runs,
//! bounded scalar-counted loops, EXEC regions (`s_and_saveexec_b64` … `s_or_b64 exec`,
//! skipped by `s_cbranch_execz` when no lane is left; `v_cmpx` regions restored from a
//! saved mask) and forward conditional branches on SCC, VCC and EXEC. Every program ends
//! with `s_endpgm`.
//!
//! Branch targets are kept as item indices (`Item::target`), not offsets, so that the
//! minimiser can drop instructions and re-encode: `GcnProgram::encode` computes the
//! offsets. Loops are bounded by construction (a counter in a reserved SGPR that random
//! instructions never write), so a program terminates unless an `s_movrel*` hits the
//! counter; the run's instruction budget covers that case.

use rand::Rng;

use super::gcn::{synth, Form, Pool};
use super::layout::*;
use crate::arch::Gen;
use crate::gcn::encode::{encode, EncodeError};
use crate::gcn::table::TableEnc;
use crate::gcn::{Enc, Fields, Inst, Op, Src};

/// One instruction of a generated program; a branch names its target by item index
/// (`items.len()` = the end of the code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Item {
    pub inst: Inst,
    pub target: Option<usize>,
}

/// A generated GCN program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GcnProgram {
    pub gen: Gen,
    pub items: Vec<Item>,
}

impl GcnProgram {
    /// The machine code, with branch offsets computed from the item targets.
    pub fn encode(&self) -> Result<Vec<u8>, EncodeError> {
        let mut words: Vec<Vec<u32>> = Vec::with_capacity(self.items.len());
        for it in &self.items {
            words.push(encode(self.gen, &it.inst)?);
        }
        let mut offs = Vec::with_capacity(words.len() + 1);
        let mut pc = 0u32;
        for w in &words {
            offs.push(pc);
            pc += 4 * w.len() as u32;
        }
        offs.push(pc);
        let mut out = Vec::with_capacity(pc as usize);
        for (i, (it, w)) in self.items.iter().zip(words.iter_mut()).enumerate() {
            if let (Some(t), Some(first)) = (it.target, w.first_mut()) {
                let to = offs.get(t).copied().unwrap_or(pc) as i64;
                let simm = (to - offs[i] as i64 - 4) / 4;
                *first = (*first & 0xFFFF_0000) | (simm as i16 as u16 as u32);
            }
            for x in w.iter() {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        Ok(out)
    }

    /// The byte offset of each item, and the code size as the last element.
    pub fn offsets(&self) -> Result<Vec<u32>, EncodeError> {
        let mut offs = Vec::with_capacity(self.items.len() + 1);
        let mut pc = 0u32;
        for it in &self.items {
            offs.push(pc);
            pc += 4 * encode(self.gen, &it.inst)?.len() as u32;
        }
        offs.push(pc);
        Ok(offs)
    }

    /// The index of the item at byte offset `pc`.
    pub fn item_at(&self, pc: u32) -> Option<usize> {
        let offs = self.offsets().ok()?;
        offs.iter()
            .position(|&o| o == pc)
            .filter(|&i| i < self.items.len())
    }

    /// Drop items `range`; branches into it go to the item after it.
    pub fn remove(&mut self, range: std::ops::Range<usize>) {
        let n = range.len();
        if n == 0 || range.end > self.items.len() {
            return;
        }
        self.items.drain(range.clone());
        for it in &mut self.items {
            if let Some(t) = it.target.as_mut() {
                if *t >= range.end {
                    *t -= n;
                } else if *t > range.start {
                    *t = range.start;
                }
            }
        }
    }
}

/// How big and how structured programs are.
#[derive(Clone, Copy, Debug)]
pub struct ShapeConfig {
    /// Instructions (roughly; structures are counted whole).
    pub len: usize,
    /// Allow loops, EXEC regions and branches (`false`: one straight-line block).
    pub control: bool,
}

impl Default for ShapeConfig {
    fn default() -> Self {
        ShapeConfig {
            len: 24,
            control: true,
        }
    }
}

/// A random program of `pool`'s instructions.
pub fn program(pool: &Pool, rng: &mut impl Rng, cfg: &ShapeConfig) -> GcnProgram {
    let mut b = Builder {
        pool,
        rng,
        items: Vec::new(),
        loops: 0,
        execs: 0,
        control: cfg.control,
    };
    b.body(cfg.len.max(1));
    b.push(sopp(Op::SEndpgm, 0));
    GcnProgram {
        gen: pool.gen,
        items: b.items,
    }
}

/// A hand-built scalar instruction of the shapes.
fn sop2(op: Op, sdst: u8, ssrc0: Src, ssrc1: Src) -> Inst {
    Inst {
        op,
        enc: Enc::Sop2,
        fields: Fields::Sop2 { sdst, ssrc0, ssrc1 },
        literal: None,
    }
}
fn sop1(op: Op, sdst: u8, ssrc0: Src) -> Inst {
    Inst {
        op,
        enc: Enc::Sop1,
        fields: Fields::Sop1 { sdst, ssrc0 },
        literal: None,
    }
}
fn sopc(op: Op, ssrc0: Src, ssrc1: Src) -> Inst {
    Inst {
        op,
        enc: Enc::Sopc,
        fields: Fields::Sopc { ssrc0, ssrc1 },
        literal: None,
    }
}
fn sopp(op: Op, simm16: u16) -> Inst {
    Inst {
        op,
        enc: Enc::Sopp,
        fields: Fields::Sopp { simm16 },
        literal: None,
    }
}
fn sopk(op: Op, sdst: u8, simm16: u16) -> Inst {
    Inst {
        op,
        enc: Enc::Sopk,
        fields: Fields::Sopk { sdst, simm16 },
        literal: None,
    }
}

const EXEC: u8 = 126;
const VCC: u8 = 106;

struct Builder<'a, R> {
    pool: &'a Pool,
    rng: &'a mut R,
    items: Vec<Item>,
    loops: u8,
    execs: u8,
    control: bool,
}

impl<R: Rng> Builder<'_, R> {
    fn has(&self, ops: &[Op]) -> bool {
        ops.iter().all(|&op| self.pool.has(op, Form::Native))
    }

    fn push(&mut self, inst: Inst) -> usize {
        self.items.push(Item { inst, target: None });
        self.items.len() - 1
    }

    fn push_branch(&mut self, op: Op, target: usize) -> usize {
        self.items.push(Item {
            inst: sopp(op, 0),
            target: Some(target),
        });
        self.items.len() - 1
    }

    /// About `n` instructions.
    fn body(&mut self, n: usize) {
        let mut left = n;
        while left > 0 {
            let before = self.items.len();
            let r = self.rng.random_range(0..100);
            let room = left.saturating_sub(4).min(8);
            if self.control && r < 5 && room >= 1 && self.loops < MAX_LOOP_DEPTH {
                let k = self.rng.random_range(1..=room);
                self.counted_loop(k);
            } else if self.control && r < 13 && room >= 1 && self.execs < MAX_EXEC_DEPTH {
                let k = self.rng.random_range(1..=room);
                self.exec_region(k);
            } else if self.control && r < 18 && left >= 2 {
                let k = self.rng.random_range(1..=(left - 1).min(6));
                self.skip(k);
            } else {
                self.random_inst();
            }
            let used = (self.items.len() - before).max(1);
            left = left.saturating_sub(used);
        }
    }

    fn random_inst(&mut self) {
        for _ in 0..4 {
            let Some(c) = self.pool.pick(self.rng) else {
                return;
            };
            let c = *c;
            if let Some(inst) = synth(self.pool.gen, &c, self.rng) {
                self.push(inst);
                return;
            }
        }
    }

    /// `s_movk_i32 sN, k; L: body; s_sub_u32 sN, sN, 1; s_cmp_lg_u32 sN, 0;
    /// s_cbranch_scc1 L` (or the `s_cmp_eq_u32`/`s_cbranch_scc0` twin).
    fn counted_loop(&mut self, k: usize) {
        let eq = self.rng.random_bool(0.5);
        let (cmp, br) = if eq {
            (Op::SCmpEqU32, Op::SCbranchScc0)
        } else {
            (Op::SCmpLgU32, Op::SCbranchScc1)
        };
        if !self.has(&[Op::SMovkI32, Op::SSubU32, cmp, br]) {
            return self.random_inst();
        }
        let cnt = S_LOOP + self.loops;
        // Mostly short; sometimes long enough for tiering to compile the body and for
        // compiled blocks to chain into themselves.
        let trips = if self.rng.random_bool(0.15) {
            self.rng.random_range(5..=24u16)
        } else {
            self.rng.random_range(1..=4u16)
        };
        self.push(sopk(Op::SMovkI32, cnt, trips));
        let head = self.items.len();
        self.loops += 1;
        self.body(k);
        self.loops -= 1;
        self.push(sop2(Op::SSubU32, cnt, Src(cnt as u16), Src(129)));
        self.push(sopc(cmp, Src(cnt as u16), Src::ZERO));
        self.push_branch(br, head);
    }

    /// An EXEC region: lanes chosen by a compare, the body, EXEC restored.
    fn exec_region(&mut self, k: usize) {
        let save = S_SAVE + 2 * self.execs;
        let cmpx = self.rng.random_bool(0.3);
        if cmpx {
            // s_mov_b64 s[save], exec; v_cmpx_*; body; s_mov_b64 exec, s[save]
            let pool = self.pool;
            let Some(c) = pool.pick_where(self.rng, |c| {
                c.row.enc == TableEnc::Vopc && c.row.op.mnemonic().starts_with("v_cmpx")
            }) else {
                return self.random_inst();
            };
            let c = *c;
            if !self.has(&[Op::SMovB64]) {
                return self.random_inst();
            }
            let Some(inst) = synth(pool.gen, &c, self.rng) else {
                return self.random_inst();
            };
            self.push(sop1(Op::SMovB64, save, Src(EXEC as u16)));
            self.push(inst);
            self.execs += 1;
            self.body(k);
            self.execs -= 1;
            self.push(sop1(Op::SMovB64, EXEC, Src(save as u16)));
            return;
        }
        if !self.has(&[Op::SAndSaveexecB64, Op::SOrB64]) {
            return self.random_inst();
        }
        // Usually a fresh compare into VCC first; otherwise whatever VCC holds.
        if self.rng.random_bool(0.6) {
            let pool = self.pool;
            if let Some(c) = pool.pick_where(self.rng, |c| {
                c.row.enc == TableEnc::Vopc
                    && c.form == Form::Native
                    && c.row.op.mnemonic().starts_with("v_cmp_")
            }) {
                let c = *c;
                if let Some(inst) = synth(pool.gen, &c, self.rng) {
                    self.push(inst);
                }
            }
        }
        self.push(sop1(Op::SAndSaveexecB64, save, Src(VCC as u16)));
        let skip = self.rng.random_bool(0.6) && self.has(&[Op::SCbranchExecz]);
        let br = skip.then(|| self.push_branch(Op::SCbranchExecz, 0));
        self.execs += 1;
        self.body(k);
        self.execs -= 1;
        let end = self.push(sop2(Op::SOrB64, EXEC, Src(EXEC as u16), Src(save as u16)));
        if let Some(b) = br {
            self.items[b].target = Some(end);
        }
    }

    /// A forward conditional branch over a few instructions.
    fn skip(&mut self, k: usize) {
        const CONDS: [Op; 7] = [
            Op::SCbranchScc0,
            Op::SCbranchScc1,
            Op::SCbranchVccz,
            Op::SCbranchVccnz,
            Op::SCbranchExecz,
            Op::SCbranchExecnz,
            Op::SBranch,
        ];
        let op = CONDS[self.rng.random_range(0..CONDS.len())];
        if !self.has(&[op]) {
            return self.random_inst();
        }
        let b = self.push_branch(op, 0);
        self.body(k);
        let end = self.items.len();
        self.items[b].target = Some(end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Flow, Inst as IrInst, Program};
    use crate::progen::gcn::Pool;
    use crate::Arch;

    #[test]
    fn programs_decode_whole_and_branches_land_on_instructions() {
        for gen in Gen::ALL {
            let pool = Pool::new(gen, |_| true);
            let mut loops = 0;
            for i in 0..300 {
                let mut rng = crate::progen::rng(9, i);
                let p = program(
                    &pool,
                    &mut rng,
                    &ShapeConfig {
                        len: 30,
                        control: true,
                    },
                );
                let code = p.encode().expect("encodes");
                let prog = Program::new(Arch::Gcn(gen), &code);
                assert_eq!(prog.slots.len(), p.items.len(), "{gen} #{i}");
                for s in &prog.slots {
                    let inst = s.inst.as_ref().expect("every slot decodes");
                    if let Flow::Branch { target, .. } = crate::ir::flow(inst, s.pc, s.size) {
                        assert!(
                            prog.slot_index(target).is_some() || target as usize == code.len(),
                            "{gen} #{i}: branch at {} to {target}",
                            s.pc
                        );
                        if target <= s.pc {
                            loops += 1;
                        }
                    }
                }
                let last = prog
                    .slots
                    .last()
                    .and_then(|s| s.inst.as_ref().ok())
                    .copied();
                assert!(matches!(last, Some(IrInst::Gcn(i)) if i.op == Op::SEndpgm));
            }
            assert!(
                loops > 20,
                "{gen}: only {loops} backward branches in 300 programs"
            );
        }
    }

    #[test]
    fn remove_retargets_branches() {
        let pool = Pool::new(Gen::Gfx8, |_| true);
        let mut p = GcnProgram {
            gen: Gen::Gfx8,
            items: Vec::new(),
        };
        let nop = crate::progen::gcn::synth(
            Gen::Gfx8,
            pool.cands()
                .iter()
                .find(|c| c.op() == Op::SNop)
                .expect("s_nop"),
            &mut crate::progen::rng(0, 0),
        )
        .expect("s_nop");
        for _ in 0..5 {
            p.items.push(Item {
                inst: nop,
                target: None,
            });
        }
        p.items[0] = Item {
            inst: sopp(Op::SBranch, 0),
            target: Some(3),
        };
        p.items[4] = Item {
            inst: sopp(Op::SBranch, 0),
            target: Some(1),
        };
        p.remove(1..3);
        assert_eq!(p.items.len(), 3);
        assert_eq!(p.items[0].target, Some(1), "3 moved down by two");
        assert_eq!(p.items[2].target, Some(1), "1 was removed: the next item");
        let code = p.encode().expect("encodes");
        // s_branch at 0 to item 1 (pc 4): simm16 = (4 - 0 - 4) / 4 = 0.
        assert_eq!(code[0..2], [0, 0]);
        // s_branch at pc 8 to pc 4: simm16 = (4 - 8 - 4) / 4 = -2 = 0xfffe.
        assert_eq!(code[8..10], [0xfe, 0xff]);
    }
}
