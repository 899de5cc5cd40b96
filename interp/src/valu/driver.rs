//! The one lane loop every vector ALU operation runs through (STYLE.md: "operand fetch,
//! modifiers, SDWA, DPP, EXEC masking and write-back written once").
//!
//! The driver decides which lanes run (EXEC, and for DPP the row/bank masks and
//! source-lane validity), reads the sources of each lane (DPP: SRC0 from its
//! source lane; SDWA: selection, then NEG/ABS), calls the operation's pure per-lane
//! function, applies OMOD then CLAMP to float results, and keeps the result. Only when
//! every lane is computed are VDST, the lane-mask destination and EXEC written, so an
//! instruction always reads the state from before itself.

use wavejit_isa::gcn::VopBase;
use wavejit_isa::state::{Wave, LANES};

use super::dpp;
use super::operands::{self, resolve, Form, Operand, Ty, Vop, VCC};
use super::sdwa;
use crate::ctx::Ctx;
use crate::error::ExecErrorKind;
use crate::float::{self, Mode};

pub type R = Result<(), ExecErrorKind>;

/// Fewest running lanes for which pre-decoded code computes every lane (see `Cx::run`);
/// below it, computing only the running lanes is cheaper.
const MIN_LANES: u32 = 8;

/// The operation being executed: the machine state and the instruction's operands.
pub struct Cx<'c, 'a> {
    pub ctx: &'c mut Ctx<'a>,
    pub v: Vop,
    /// Lane loops compiled per MODE (pre-decoded code, `crate::threaded`): the float
    /// adapters pass the common MODE values as constants (`adapt::with_mode!`), so that
    /// the float core's per-lane decisions on rounding and flushes are made once, when the
    /// loop is compiled. The interpreter's own step leaves this off and reads MODE as a
    /// run-time value.
    pub wave_loops: bool,
}

/// A lane-bit input of an operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BitIn {
    None,
    /// Always VCC (V_DIV_FMAS).
    Vcc,
    /// VCC in the 32-bit encodings, SRC2 as a 64-bit lane mask in VOP3 (carry in,
    /// V_CNDMASK's selector).
    VccOrSrc2,
}

/// A lane-mask output of an operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BitOut {
    None,
    /// Carry/flag out: VCC, or SDST of VOP3B.
    Mask,
    /// A compare: VCC or VOP3's SGPR pair; `exec` also writes EXEC (V_CMPX).
    Compare {
        exec: bool,
    },
}

/// The shape of an operation: its source types, its VGPR result type (if any) and its
/// lane-bit input and output.
#[derive(Clone, Copy, Debug)]
pub struct Shape<'t> {
    pub ins: &'t [Ty],
    pub out: Option<Ty>,
    pub bit_in: BitIn,
    pub bit_out: BitOut,
}

impl Cx<'_, '_> {
    pub fn mode(&self) -> Mode {
        Mode(self.ctx.wave.mode)
    }

    /// The sources of DPP and SDWA forms as rows of 32-bit lane values, and the lanes
    /// that run and keep their lane-mask bit. DPP: SRC0 of each running lane read from its
    /// source lane (0 where BOUND_CTRL zeroes it), lanes masked off by ROW_MASK/BANK_MASK
    /// or without a source lane kept. SDWA: SRC0 (and SRC1 outside VOP1) of at most 32
    /// bits selected from the whole dword. `rows` are the low and high words of DPP's SRC0,
    /// or SDWA's selected SRC0 and SRC1; the answer says which sources were prepared (the
    /// others are read from their registers as in the plain forms). The selection is the
    /// same for every lane, so a reserved one is an error as soon as one lane runs.
    fn special_rows(
        &self,
        ins: &[Ty],
        ops: &[Operand],
        rows: &mut [[u32; LANES]; 2],
    ) -> Result<([bool; 3], u64, u64), ExecErrorKind> {
        let w = &*self.ctx.wave;
        let mut from_rows = [false; 3];
        let exec = w.exec;
        if let Some(d) = self.v.dpp {
            // Per lane of EXEC: a lane masked off by ROW_MASK/BANK_MASK keeps its values;
            // else it runs, reading SRC0 from its source lane when that lane exists and
            // is in EXEC, or 0 with BOUND_CTRL; else (no BOUND_CTRL) it keeps its values
            // (`dpp::lane_enabled`, `dpp::lane_reads`, from their tables).
            let enabled = dpp::enabled_lanes(d.row_mask, d.bank_mask);
            let map = dpp::src_lanes(d.ctrl);
            let wide = ins.first().is_some_and(|t| t.bits() == 64);
            let src0 = ops.first().copied();
            let (mut run, mut keep) = (0u64, 0u64);
            let mut m = exec;
            while m != 0 {
                let lane = m.trailing_zeros() as usize;
                m &= m - 1;
                let src = map[lane] as usize;
                if enabled >> lane & 1 == 0 {
                    keep |= 1 << lane;
                } else if src < LANES && exec >> src & 1 != 0 {
                    run |= 1 << lane;
                    if let Some(o) = src0 {
                        let x =
                            operands::lane_value(w, o, if wide { Ty::B64 } else { Ty::B32 }, src);
                        rows[0][lane] = x as u32;
                        rows[1][lane] = (x >> 32) as u32;
                    }
                } else if d.bound_ctrl {
                    run |= 1 << lane;
                } else {
                    keep |= 1 << lane;
                }
            }
            from_rows[0] = src0.is_some();
            return Ok((from_rows, run, keep));
        }
        if let Some(sel) = &self.v.sdwa {
            for (i, (&ty, &o)) in ins.iter().zip(ops).enumerate().take(2) {
                if !(i == 0 || self.v.form != Form::Sdwa(VopBase::Vop1)) || ty.bits() > 32 {
                    continue;
                }
                if exec == 0 {
                    // No lane runs: nothing is read, so nothing is refused.
                    continue;
                }
                // `sdwa::src_sel` of the source's dword, decided once for the row.
                let (s, e) = if i == 0 {
                    (sel.src0_sel, self.v.sext & 1 != 0)
                } else {
                    (sel.src1_sel, self.v.sext >> 1 & 1 != 0)
                };
                let Some(c) = sdwa::SrcSel::new(s, e) else {
                    return Err(ExecErrorKind::BadOperand(format!("SDWA src{i}_sel {s}")));
                };
                match o {
                    Operand::Vgpr(n) => {
                        for (d, &x) in rows[i].iter_mut().zip(&w.vgpr[n as usize]) {
                            *d = c.apply(x);
                        }
                    }
                    Operand::Uniform(x) => rows[i] = [c.apply(x as u32); LANES],
                }
                from_rows[i] = true;
            }
        }
        Ok((from_rows, exec, 0))
    }

    /// OMOD (VOP3) then CLAMP (VOP3, SDWA) of a float result.
    fn float_post(&self, ty: Ty, r: u64) -> u64 {
        let omod = if self.v.is_vop3() { self.v.omod } else { 0 };
        let fmt = match ty {
            Ty::F16 => float::F16,
            Ty::F32 => float::F32,
            _ => float::F64,
        };
        let mode = self.mode();
        float::omod_clamp(mode.fp(fmt), mode, r, omod, self.v.clamp)
    }

    /// Where a lane-mask result of this instruction goes.
    fn mask_slot(&self) -> u8 {
        if self.v.is_vop3() {
            self.v.mask_dst
        } else {
            VCC
        }
    }

    /// The lane-bit input of the instruction: VCC, or (VOP3) SRC2 as an SGPR pair.
    fn bits_in(&self, bit_in: BitIn) -> Result<u64, ExecErrorKind> {
        let w = &*self.ctx.wave;
        Ok(match bit_in {
            BitIn::None => 0,
            BitIn::Vcc => w.vcc,
            BitIn::VccOrSrc2 if self.v.is_vop3() => {
                match resolve(w, &self.v, self.v.src[2], Ty::B64)? {
                    Operand::Uniform(m) => m,
                    Operand::Vgpr(r) => {
                        return Err(ExecErrorKind::BadOperand(format!(
                            "v{r} as a lane mask (an SGPR pair is needed)"
                        )))
                    }
                }
            }
            BitIn::VccOrSrc2 => w.vcc,
        })
    }

    /// The float type of the result when OMOD or CLAMP applies to it (decided once for the
    /// instruction).
    fn post(&self, out: Option<Ty>) -> Option<Ty> {
        out.filter(|ty| ty.is_float() && ((self.v.is_vop3() && self.v.omod != 0) || self.v.clamp))
    }

    /// Run the operation over the wave and write its results.
    ///
    /// Generic in the lane function so that each operation gets its own lane loop with the
    /// operation inlined. Each source is read lane by lane without a branch (`Lanes`: a
    /// register row or a uniform value, the width and ABS/NEG as masks); the DPP and SDWA
    /// forms first prepare the sources they change as rows (`special_rows`); pre-decoded
    /// code gathers the sources of a plain form of at most 32 bits into rows first, and
    /// computes every lane when at least `MIN_LANES` run. Every running lane is computed
    /// before anything is written. Always inlined: each operation (and, in pre-decoded
    /// code, each MODE of `adapt::with_mode!`) calls it from one place, with its types,
    /// shape and lane function as constants of that copy.
    #[inline(always)]
    pub fn run<const N: usize, F>(
        &mut self,
        ins: [Ty; N],
        out: Option<Ty>,
        bit_in: BitIn,
        bit_out: BitOut,
        f: F,
    ) -> R
    where
        F: Fn(usize, [u64; N], bool) -> (u64, bool),
    {
        let shape = Shape {
            ins: &ins,
            out,
            bit_in,
            bit_out,
        };
        if N > 3 {
            return Err(ExecErrorKind::BadOperand("more than three sources".into()));
        }
        if let Some(out) = out {
            if out.bits() == 64 && self.v.vdst == 255 {
                return Err(ExecErrorKind::BadOperand(
                    "v255 cannot start a 64-bit register pair".into(),
                ));
            }
        }
        let mut ops = [Operand::Uniform(0); N];
        for (i, o) in ops.iter_mut().enumerate() {
            *o = resolve(self.ctx.wave, &self.v, self.v.src[i], ins[i])?;
        }
        let bits_in = self.bits_in(bit_in)?;
        let w = &*self.ctx.wave;
        // Only DPP and SDWA prepare rows; the plain forms skip clearing them.
        let mut row_store;
        let (rows, (from_rows, run, keep)) = if self.v.dpp.is_none() && self.v.sdwa.is_none() {
            (&ZERO_ROWS, ([false; 3], w.exec, 0))
        } else {
            row_store = [[0u32; LANES]; 2];
            let r = self.special_rows(&ins, &ops, &mut row_store)?;
            (&row_store, r)
        };
        let out_mask = out.map_or(0, |t| t.mask());
        let mut results = [0u64; LANES];
        // Every lane in a counted loop (no bit scan), which the compiler can unroll, when
        // every lane runs, and in pre-decoded code when enough of them do: a lane outside
        // `run` is computed too (a per-lane function is pure and defined for every bit
        // pattern), and its result and lane bit are dropped here and in `write_back`.
        // Otherwise the running lanes one by one.
        let every = run == u64::MAX || (self.wave_loops && run.count_ones() >= MIN_LANES);
        let plain = self.v.dpp.is_none() && self.v.sdwa.is_none();
        let mask = if self.wave_loops && every && plain && ins.iter().all(|t| t.bits() <= 32) {
            // Pre-decoded code, sources of at most 32 bits: each gathered once into a row
            // (its register row or its uniform value, width and ABS/NEG applied), so that
            // the lane loop reads a source with one load.
            let mut gathered = [[0u32; LANES]; N];
            for (i, row) in gathered.iter_mut().enumerate() {
                let (and, xor) = operands::modifier_masks(&self.v, i, ins[i]);
                let (and, xor) = ((and & ins[i].mask()) as u32, xor as u32);
                match ops[i] {
                    Operand::Vgpr(n) => {
                        for (d, &x) in row.iter_mut().zip(&w.vgpr[n as usize]) {
                            *d = (x & and) ^ xor;
                        }
                    }
                    Operand::Uniform(x) => *row = [(x as u32 & and) ^ xor; LANES],
                }
            }
            let srcs: [Lanes; N] =
                std::array::from_fn(|i| Lanes::rows(&gathered[i], &ZERO_ROW, Ty::B32, u64::MAX, 0));
            every_lane(&f, &srcs, bits_in, out_mask, &mut results) & run
        } else {
            let srcs: [Lanes; N] = std::array::from_fn(|i| {
                let (and, xor) = operands::modifier_masks(&self.v, i, ins[i]);
                match (from_rows[i], self.v.dpp.is_some()) {
                    // DPP: SRC0's low and high words.
                    (true, true) => Lanes::rows(&rows[0], &rows[1], ins[i], and, xor),
                    // SDWA: the selected dword of SRC0 or SRC1.
                    (true, false) => Lanes::rows(&rows[i & 1], &ZERO_ROW, ins[i], and, xor),
                    _ => Lanes::new(w, ops[i], ins[i], and, xor),
                }
            });
            if every {
                every_lane(&f, &srcs, bits_in, out_mask, &mut results) & run
            } else {
                running_lanes(&f, &srcs, run, bits_in, out_mask, &mut results)
            }
        };
        // OMOD and CLAMP in a pass of their own, so that the lane loop above has no branch
        // for them (most instructions have neither).
        if let Some(ty) = self.post(out) {
            let mut m = run;
            while m != 0 {
                let lane = m.trailing_zeros() as usize;
                m &= m - 1;
                results[lane] = self.float_post(ty, results[lane]);
            }
        }
        self.write_back(shape, run, keep, &results, mask)
    }

    /// Write the results of the lanes in `run`; lanes in `keep` keep their lane-mask bit.
    fn write_back(
        &mut self,
        shape: Shape<'_>,
        run: u64,
        keep: u64,
        results: &[u64; LANES],
        mask: u64,
    ) -> R {
        let vdst = self.v.vdst as usize;
        if let Some(ty) = shape.out {
            let vg = &mut self.ctx.wave.vgpr;
            // Lanes outside `run` keep their value: written back as they are, so that the
            // plain forms are one branch-free pass over the lanes (the lane's bit of `run`
            // widened to a mask selects, with no branch to mispredict under a divergent
            // EXEC).
            // Widened only where a write keeps some lanes.
            let on = if run == u64::MAX {
                [u32::MAX; LANES]
            } else {
                lane_masks(run)
            };
            let pick = |lane: usize, new: u32, old: u32| {
                let on = on[lane & (LANES - 1)];
                (new & on) | (old & !on)
            };
            match (ty.bits(), &self.v.sdwa) {
                (64, _) => {
                    for lane in 0..LANES {
                        let r = results[lane];
                        vg[vdst][lane] = pick(lane, r as u32, vg[vdst][lane]);
                    }
                    let hi = (vdst + 1) & 255;
                    for lane in 0..LANES {
                        let r = results[lane];
                        vg[hi][lane] = pick(lane, (r >> 32) as u32, vg[hi][lane]);
                    }
                }
                (_, Some(sel)) => {
                    // `sdwa::dst_sel`, decided once for the row.
                    match sdwa::DstSel::new(sel.dst_sel, sel.dst_unused) {
                        Some(d) => {
                            let row = &mut vg[vdst];
                            for (lane, (o, &r)) in row.iter_mut().zip(results).enumerate() {
                                *o = pick(lane, d.apply(r as u32, *o), *o);
                            }
                        }
                        // Refused only when a lane writes.
                        None if run == 0 => {}
                        None => {
                            return Err(ExecErrorKind::BadOperand(format!(
                                "SDWA dst_sel {} dst_unused {}",
                                sel.dst_sel, sel.dst_unused
                            )))
                        }
                    }
                }
                _ if run == u64::MAX => {
                    for (d, &r) in vg[vdst].iter_mut().zip(results) {
                        *d = r as u32;
                    }
                }
                _ => {
                    let row = &mut vg[vdst];
                    for (lane, (d, &r)) in row.iter_mut().zip(results).enumerate() {
                        *d = pick(lane, r as u32, *d);
                    }
                }
            }
        }
        if shape.bit_out != BitOut::None {
            let slot = self.mask_slot();
            let old = self.ctx.wave.read_sreg64(slot);
            self.ctx.wave.write_sreg64(slot, mask | (old & keep));
            if let BitOut::Compare { exec: true } = shape.bit_out {
                let old_exec = self.ctx.wave.exec;
                self.ctx.wave.exec = mask | (old_exec & keep);
            }
        }
        Ok(())
    }
}

/// Bit `i` alone, for `i` in 0..32: a lane's bit in its half of a lane mask.
static HALF_BITS: [u32; 32] = {
    let mut b = [0; 32];
    let mut i = 0;
    while i < 32 {
        b[i] = 1 << i;
        i += 1;
    }
    b
};

/// The bits of the lane mask `run` widened to a row, all ones where the lane's bit is
/// set: a test of each half against constant bits, a loop the compiler vectorises (a
/// shift by the lane number would need per-element shifts).
#[inline(always)]
fn lane_masks(run: u64) -> [u32; LANES] {
    let mut on = [0u32; LANES];
    for (half, row) in on.chunks_exact_mut(32).enumerate() {
        let h = (run >> (32 * half)) as u32;
        for (o, &b) in row.iter_mut().zip(&HALF_BITS) {
            *o = 0u32.wrapping_sub((h & b != 0) as u32);
        }
    }
    on
}

/// Every lane of an operation into `results` (masked by `out_mask`); its lane bits.
#[inline(always)]
fn every_lane<const N: usize, F>(
    f: &F,
    srcs: &[Lanes; N],
    bits_in: u64,
    out_mask: u64,
    results: &mut [u64; LANES],
) -> u64
where
    F: Fn(usize, [u64; N], bool) -> (u64, bool),
{
    let mut mask = 0u64;
    for (lane, r) in results.iter_mut().enumerate() {
        let (x, bit) = lane_op(f, srcs, lane, bits_in);
        *r = x & out_mask;
        mask |= (bit as u64) << lane;
    }
    mask
}

/// The lanes of `run` of an operation into `results` (masked by `out_mask`); their lane
/// bits.
#[inline(always)]
fn running_lanes<const N: usize, F>(
    f: &F,
    srcs: &[Lanes; N],
    run: u64,
    bits_in: u64,
    out_mask: u64,
    results: &mut [u64; LANES],
) -> u64
where
    F: Fn(usize, [u64; N], bool) -> (u64, bool),
{
    let mut mask = 0u64;
    let mut m = run;
    while m != 0 {
        let lane = m.trailing_zeros() as usize;
        m &= m - 1;
        let (x, bit) = lane_op(f, srcs, lane, bits_in);
        results[lane] = x & out_mask;
        mask |= (bit as u64) << lane;
    }
    mask
}

/// One lane of an operation: its sources read from `srcs`, its lane bit taken from
/// `bits_in`. Always inlined, so that each operation's lane loop holds its operation.
#[inline(always)]
fn lane_op<const N: usize, F>(f: &F, srcs: &[Lanes; N], lane: usize, bits_in: u64) -> (u64, bool)
where
    F: Fn(usize, [u64; N], bool) -> (u64, bool),
{
    let s: [u64; N] = std::array::from_fn(|i| srcs[i].get(lane));
    f(lane, s, bits_in >> lane & 1 != 0)
}

// ---------------------------------------------------------------------------------------
// Typed shapes: thin wrappers the dispatch uses.

/// One value result from `N` sources of the given types.
#[inline(always)]
pub fn alu<const N: usize>(cx: &mut Cx, ins: [Ty; N], out: Ty, f: impl Fn([u64; N]) -> u64) -> R {
    cx.run(
        ins,
        Some(out),
        BitIn::None,
        BitOut::None,
        #[inline(always)]
        |_, s, _| (f(s), false),
    )
}

/// As `alu`, with the lane id (V_MBCNT).
#[inline(always)]
pub fn alu_lane<const N: usize>(
    cx: &mut Cx,
    ins: [Ty; N],
    out: Ty,
    f: impl Fn(usize, [u64; N]) -> u64,
) -> R {
    cx.run(
        ins,
        Some(out),
        BitIn::None,
        BitOut::None,
        #[inline(always)]
        |l, s, _| (f(l, s), false),
    )
}

/// A value result and a lane bit in and/or out (carries, V_CNDMASK, V_DIV_SCALE, …).
#[inline(always)]
pub fn alu_bits<const N: usize>(
    cx: &mut Cx,
    ins: [Ty; N],
    out: Ty,
    bit_in: BitIn,
    bit_out: BitOut,
    f: impl Fn([u64; N], bool) -> (u64, bool),
) -> R {
    cx.run(
        ins,
        Some(out),
        bit_in,
        bit_out,
        #[inline(always)]
        |_, s, b| f(s, b),
    )
}

/// A compare: one bit per lane to VCC (or VOP3's SGPR pair), and EXEC for V_CMPX.
#[inline(always)]
pub fn compare<const N: usize>(
    cx: &mut Cx,
    ins: [Ty; N],
    exec: bool,
    f: impl Fn([u64; N]) -> bool,
) -> R {
    cx.run(
        ins,
        None,
        BitIn::None,
        BitOut::Compare { exec },
        #[inline(always)]
        |_, s, _| (0, f(s)),
    )
}

/// A register row of zeros: the high half of a 32-bit source and both halves of a
/// uniform one.
static ZERO_ROW: [u32; LANES] = [0; LANES];

/// The rows of a plain form, which reads none of them.
static ZERO_ROWS: [[u32; LANES]; 2] = [[0; LANES]; 2];

/// One operand of the plain forms, read lane by lane without a branch: a VGPR (pair) or a
/// uniform value (`base`, with rows of zeros), then the operand's width and ABS/NEG as
/// masks (`and`, then `xor`).
struct Lanes<'w> {
    lo: &'w [u32; LANES],
    hi: &'w [u32; LANES],
    base: u64,
    and: u64,
    xor: u64,
}

impl<'w> Lanes<'w> {
    fn new(w: &'w Wave, o: Operand, ty: Ty, and: u64, xor: u64) -> Lanes<'w> {
        match o {
            Operand::Uniform(x) => Lanes {
                lo: &ZERO_ROW,
                hi: &ZERO_ROW,
                base: x,
                and,
                xor,
            },
            Operand::Vgpr(n) => Lanes {
                lo: &w.vgpr[n as usize],
                hi: if ty.bits() == 64 {
                    &w.vgpr[(n as usize + 1) & 255]
                } else {
                    &ZERO_ROW
                },
                base: 0,
                and: and & ty.mask(),
                xor,
            },
        }
    }

    /// A source prepared lane by lane (`special_rows`): its low and high words.
    fn rows(lo: &'w [u32; LANES], hi: &'w [u32; LANES], ty: Ty, and: u64, xor: u64) -> Lanes<'w> {
        Lanes {
            lo,
            hi: if ty.bits() == 64 { hi } else { &ZERO_ROW },
            base: 0,
            and: and & ty.mask(),
            xor,
        }
    }

    #[inline(always)]
    fn get(&self, lane: usize) -> u64 {
        let l = lane & (LANES - 1);
        ((self.lo[l] as u64 | (self.hi[l] as u64) << 32 | self.base) & self.and) ^ self.xor
    }
}
