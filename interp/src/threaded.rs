//! Pre-decoded ("threaded") code: a straight-line run of a program decoded once into
//! records, so that running it again costs no fetch, no decode and no match on the
//! encoding or the operation.
//!
//! "Compiling" a block (`Block::build`) walks the program's slots from an entry pc to the
//! first instruction that may leave the straight line (`ir::flow`), and keeps for each
//! vector ALU instruction the function of its operation and its operand view
//! (`valu::prepare`: what `valu::exec` would find by matching on the operation and decoding
//! the fields), and for every other instruction only its position. Running a block calls
//! those functions in order; the other instructions, and any vector instruction whose view
//! could not be made, go through the interpreter's own `step`. The semantics are therefore
//! the interpreter's, function for function: the lane loops, modifiers, EXEC masking and
//! errors are the ones of `valu::driver`, and nothing here says what an instruction does.
//!
//! A block is built for the program's generation; a wave of another generation runs it
//! through `step` alone (the interpreter decodes on the wave's generation).

use wavejit_isa::arch::Arch;
use wavejit_isa::flow::Flow;
use wavejit_isa::gcn::{self, Enc};
use wavejit_isa::ir::{self, Inst, Program};
use wavejit_isa::Gen;

use crate::ctx::{Ctx, Step};
use crate::error::ExecError;
use crate::salu::{self, adapt::S};
use crate::valu::{self, dispatch::Handler, driver::Cx, operands::Vop};

/// Most instructions in one block. A straight line longer than this is several blocks
/// (the next one starts where this one stops), so that a line entered at many of its pcs
/// (after exits of compiled code, say) costs at most this much per entry, not its length.
pub const MAX_BLOCK_LEN: usize = 1024;

/// One pre-decoded instruction.
struct Rec {
    /// Where it starts, and where the straight line continues after it.
    pc: u32,
    next: u32,
    kind: Kind,
}

enum Kind {
    /// A vector ALU instruction: the function of its operation, its operand view.
    Valu(Handler, Vop),
    /// A scalar ALU or program-control instruction: the function of its operation, the
    /// instruction.
    Salu(salu::dispatch::Handler, Box<gcn::Inst>),
    /// Anything else: executed by `exec::step` at `pc`.
    Step,
}

/// The pre-decoded straight line starting at one pc.
pub struct Block {
    gen: Option<Gen>,
    recs: Box<[Rec]>,
}

impl Block {
    /// Decode the straight line of `prog` that starts at `pc`: up to and including the
    /// first instruction that may branch, end the program or meet a barrier, stopping
    /// before a word that did not decode, and after `MAX_BLOCK_LEN` instructions. A pc where no instruction starts (or one that
    /// did not decode) gives a block of one record, which `step` reports the error of.
    pub fn build(prog: &Program, pc: u32) -> Block {
        let gen = match prog.arch {
            Arch::Gcn(g) => Some(g),
            _ => None,
        };
        let mut recs = Vec::new();
        if let (Some(first), Some(gen)) = (prog.slot_index(pc), gen) {
            for s in &prog.slots[first..] {
                let Ok(inst @ Inst::Gcn(i)) = &s.inst else {
                    break;
                };
                let vector = i.enc.is_vector() && i.enc != Enc::Vintrp;
                let scalar = matches!(
                    i.enc,
                    Enc::Sop2 | Enc::Sopk | Enc::Sop1 | Enc::Sopc | Enc::Sopp
                );
                let kind = match vector.then(|| valu::prepare(gen, i)).flatten() {
                    Some((f, v)) => Kind::Valu(f, v),
                    None if scalar => Kind::Salu(salu::dispatch::handler(i.op), Box::new(*i)),
                    None => Kind::Step,
                };
                recs.push(Rec {
                    pc: s.pc,
                    next: s.pc.wrapping_add(s.size),
                    kind,
                });
                if ir::flow(inst, s.pc, s.size) != Flow::Next || recs.len() == MAX_BLOCK_LEN {
                    break;
                }
            }
        }
        if recs.is_empty() {
            recs.push(Rec {
                pc,
                next: pc,
                kind: Kind::Step,
            });
        }
        Block {
            gen,
            recs: recs.into_boxed_slice(),
        }
    }

    /// Instructions in the block.
    pub fn len(&self) -> usize {
        self.recs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.recs.is_empty()
    }

    /// Instructions whose operation function was found once (the others are stepped).
    pub fn predecoded(&self) -> usize {
        self.recs
            .iter()
            .filter(|r| matches!(r.kind, Kind::Valu(..)))
            .count()
    }

    /// Run the block from its first instruction (`ctx.wave.pc` must be the pc it was
    /// built at), at most `budget` instructions. Returns how the last instruction left
    /// (`Step::Continue`: `wave.pc` is where to go on; it need not be the end of the
    /// block, since a branch may be taken or the budget run out) and how many ran. Errors
    /// are the interpreter's, at the pc of the failing instruction, which `wave.pc` also
    /// holds then.
    pub fn run(
        &self,
        ctx: &mut Ctx<'_>,
        prog: &Program,
        budget: u64,
    ) -> Result<(Step, u64), ExecError> {
        let predecoded = self.gen == Some(ctx.wave.gen);
        let mut n = 0u64;
        for r in self.recs.iter() {
            if n >= budget {
                break;
            }
            n += 1;
            ctx.wave.pc = r.pc;
            match &r.kind {
                Kind::Valu(f, v) if predecoded => {
                    let mut cx = Cx {
                        ctx,
                        v: *v,
                        wave_loops: true,
                    };
                    f(&mut cx).map_err(|kind| ExecError { pc: r.pc, kind })?;
                    ctx.wave.pc = r.next;
                }
                Kind::Salu(f, inst) => {
                    let size = r.next.wrapping_sub(r.pc);
                    let mut s = S {
                        ctx,
                        inst,
                        pc: r.pc,
                        size,
                    };
                    let c = f(&mut s).map_err(|kind| ExecError { pc: r.pc, kind })?;
                    let s = crate::exec::advance(ctx, c, r.pc, size);
                    if s != Step::Continue {
                        return Ok((s, n));
                    }
                    if ctx.wave.pc != r.next {
                        break;
                    }
                }
                _ => {
                    let s = crate::exec::step(ctx, prog)?;
                    if s != Step::Continue {
                        return Ok((s, n));
                    }
                    if ctx.wave.pc != r.next {
                        break;
                    }
                }
            }
        }
        Ok((Step::Continue, n))
    }
}
