//! Lowering of VP1 scalar words to CLIF, one word after another into a single straight-line
//! function over `vp1::State` (`#[repr(C)]`, addressed at `offset_of!` offsets).
//!
//! `$r` and `$c` live in SSA values for the whole function (loaded on first use, stored at
//! the end if written); the other register files are read and written in memory, since no
//! scalar word reaches them twice in a way that matters for speed. Every word reads the
//! values of the words before it, which is the bundle rule for one word per bundle. Only
//! the last word's s2v output is observable, so only it is computed.
//!
//! Each operation mirrors `wavejit_interp::vp1` (the reference) and the differential test
//! holds the two equal bit for bit. Bytewise min/max/add/sub/abs/neg run as `i8x16` lanes
//! (saturating arithmetic is the spec's clipping); bshr and the multiplier per lane.

use std::mem::offset_of;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, Endianness, InstBuilder, MemFlagsData, Type, Value};
use cranelift_frontend::FunctionBuilder;
use wavejit_isa::vp1::rfile::{self, Dir, File};
use wavejit_isa::vp1::{CMode, Inst, Kind, OpDesc, S2v, S2vSrc, Sign, Src2, State, Variant};

const I8: Type = types::I8;
const I16: Type = types::I16;
const I32: Type = types::I32;
const I8X16: Type = types::I8X16;
const I32X4: Type = types::I32X4;

/// The s2v `$vc` transforms (004_1a7ba760ea192bb0.txt "Scalar to vector data bus"): the
/// interpreter's table.
use wavejit_interp::vp1::s2v::XFRM;

/// Flags of `State` loads and stores: never null, never trapping, little endian.
fn mflags() -> MemFlagsData {
    let mut f = MemFlagsData::trusted();
    f.set_endianness(Endianness::Little);
    f
}

/// Flags of a vector `bitcast` (it accepts only an endianness).
fn cast_flags() -> MemFlagsData {
    let mut f = MemFlagsData::new();
    f.set_endianness(Endianness::Little);
    f
}

/// A second source: known at compile time or computed.
#[derive(Clone, Copy, Debug)]
enum Opnd {
    Const(u32),
    Val(Value),
}

/// Where a result goes.
#[derive(Clone, Copy, Debug)]
enum Dest {
    None,
    R(u32),
    Other(File, u32),
}

/// The lowering state of one function.
pub struct Lower<'a, 'b> {
    pub b: &'a mut FunctionBuilder<'b>,
    /// The `*mut State` parameter.
    st: Value,
    variant: Variant,
    r: [Option<Value>; 32],
    r_dirty: u32,
    /// `$c` as i32 (zero-extended 16-bit).
    c: [Option<Value>; 4],
    c_dirty: u8,
}

impl<'a, 'b> Lower<'a, 'b> {
    pub fn new(b: &'a mut FunctionBuilder<'b>, st: Value, variant: Variant) -> Self {
        Lower {
            b,
            st,
            variant,
            r: [None; 32],
            r_dirty: 0,
            c: [None; 4],
            c_dirty: 0,
        }
    }

    fn iconst(&mut self, v: u32) -> Value {
        self.b.ins().iconst(I32, v as i64)
    }

    fn val(&mut self, o: Opnd) -> Value {
        match o {
            Opnd::Const(c) => self.iconst(c),
            Opnd::Val(v) => v,
        }
    }

    fn load32(&mut self, off: usize) -> Value {
        self.b.ins().load(I32, mflags(), self.st, off as i32)
    }

    fn store32(&mut self, v: Value, off: usize) {
        self.b.ins().store(mflags(), v, self.st, off as i32);
    }

    fn load16(&mut self, off: usize) -> Value {
        let v = self.b.ins().load(I16, mflags(), self.st, off as i32);
        self.b.ins().uextend(I32, v)
    }

    fn store16(&mut self, v: Value, off: usize) {
        self.b.ins().istore16(mflags(), v, self.st, off as i32);
    }

    fn store8(&mut self, v: u8, off: usize) {
        let x = self.b.ins().iconst(I8, v as i64);
        self.b.ins().store(mflags(), x, self.st, off as i32);
    }

    /// `$r[i]`: `$r31` is 0.
    fn r(&mut self, i: u32) -> Value {
        let i = (i & 31) as usize;
        if i == 31 {
            return self.iconst(0);
        }
        if let Some(v) = self.r[i] {
            return v;
        }
        let v = self.load32(offset_of!(State, r) + 4 * i);
        self.r[i] = Some(v);
        v
    }

    fn set_r(&mut self, i: u32, v: Value) {
        let i = (i & 31) as usize;
        if i != 31 {
            self.r[i] = Some(v);
            self.r_dirty |= 1 << i;
        }
    }

    fn c(&mut self, i: u32) -> Value {
        let i = (i & 3) as usize;
        if let Some(v) = self.c[i] {
            return v;
        }
        let v = self.load16(offset_of!(State, c) + 2 * i);
        self.c[i] = Some(v);
        v
    }

    fn set_c(&mut self, i: u32, v: Value) {
        let i = (i & 3) as usize;
        self.c[i] = Some(v);
        self.c_dirty |= 1 << i;
    }

    /// Store every written `$r` and `$c`.
    pub fn flush(&mut self) {
        for i in 0..32 {
            if self.r_dirty >> i & 1 != 0 {
                if let Some(v) = self.r[i] {
                    self.store32(v, offset_of!(State, r) + 4 * i);
                }
            }
        }
        for i in 0..4 {
            if self.c_dirty >> i & 1 != 0 {
                if let Some(v) = self.c[i] {
                    self.store16(v, offset_of!(State, c) + 2 * i);
                }
            }
        }
    }

    // ---- small helpers ------------------------------------------------------------

    fn select(&mut self, cond: Value, a: Value, b: Value) -> Value {
        self.b.ins().select(cond, a, b)
    }

    /// Bit `n` of `v` as 0/1.
    fn bit(&mut self, v: Value, n: u32) -> Value {
        let s = self.b.ins().ushr_imm_u(v, n as i64);
        self.b.ins().band_imm_u(s, 1)
    }

    /// Sign-extend the `bits` bits of `v` starting at `lo`.
    fn sext_field(&mut self, v: Value, lo: u32, bits: u32) -> Value {
        let l = self.b.ins().ishl_imm_u(v, (32 - lo - bits) as i64);
        self.b.ins().sshr_imm_u(l, (32 - bits) as i64)
    }

    /// Zero-extend the `bits` bits of `v` starting at `lo`.
    fn zext_field(&mut self, v: Value, lo: u32, bits: u32) -> Value {
        let s = self.b.ins().ushr_imm_u(v, lo as i64);
        self.b.ins().band_imm_u(s, ((1u64 << bits) - 1) as i64)
    }

    fn clamp(&mut self, v: Value, lo: i32, hi: i32) -> Value {
        // Immediates go through iconst (zero-extended), never a negative `_imm`.
        let l = self.iconst(lo as u32);
        let h = self.iconst(hi as u32);
        let below = self.b.ins().icmp(IntCC::SignedLessThan, v, l);
        let v = self.select(below, l, v);
        let above = self.b.ins().icmp(IntCC::SignedGreaterThan, v, h);
        self.select(above, h, v)
    }

    /// Pick `vals[k]` by a small runtime index `k` (select chain).
    fn pick(&mut self, k: Value, vals: &[Value]) -> Value {
        let mut acc = vals[0];
        for (i, &v) in vals.iter().enumerate().skip(1) {
            let is = self.b.ins().icmp_imm_s(IntCC::Equal, k, i as i64);
            acc = self.select(is, v, acc);
        }
        acc
    }

    // ---- operands -----------------------------------------------------------------

    /// SRC2S: the register SRC2 mangled by `$c[COND]` and SLCT, read.
    fn mangled(&mut self, inst: Inst, c_in: Value) -> Value {
        let (src2, slct) = (inst.src2(), inst.slct());
        if slct == 4 {
            let adj = self.zext_field(c_in, 4, 2);
            let cands: Vec<Value> = (0..4)
                .map(|k| self.r((src2 & !3) | ((src2 + k) & 3)))
                .collect();
            self.pick(adj, &cands)
        } else {
            let bit = self.bit(c_in, slct);
            let flipped = self.r(src2 ^ 1);
            let plain = self.r(src2);
            self.select(bit, flipped, plain)
        }
    }

    fn src2(&mut self, inst: Inst, d: &OpDesc, c_in: Value) -> Opnd {
        let splat = |b: u32| (b & 0xff) * 0x0101_0101;
        match d.src2 {
            Src2::Reg => Opnd::Val(self.r(inst.src2())),
            Src2::Mangled => Opnd::Val(self.mangled(inst, c_in)),
            Src2::Imm => Opnd::Const(inst.imm() as u32),
            Src2::Bimm => Opnd::Const(splat(inst.bimm())),
            Src2::BimmMul => Opnd::Const(splat(inst.bimmmul() << 2)),
            Src2::BimmBad => Opnd::Const(splat(inst.bimmbad())),
            Src2::Quad | Src2::None => Opnd::Const(0),
        }
    }

    // ---- word operations ----------------------------------------------------------

    fn shift(&mut self, s1: Value, s2: Opnd, arith: bool) -> Value {
        match s2 {
            Opnd::Const(c) => {
                let n = ((c << 26) as i32) >> 26;
                match n {
                    -32 => s1,
                    n if n < 0 => self.b.ins().ishl_imm_u(s1, -n as i64),
                    n if arith => self.b.ins().sshr_imm_u(s1, n as i64),
                    n => self.b.ins().ushr_imm_u(s1, n as i64),
                }
            }
            Opnd::Val(s2) => {
                let n = self.sext_field(s2, 0, 6);
                // For n = -32 the left shift amount is 32, which Cranelift takes modulo 32:
                // s1 unchanged, which is the rule for -32.
                let m = self.b.ins().ineg(n);
                let left = self.b.ins().ishl(s1, m);
                let right = if arith {
                    self.b.ins().sshr(s1, n)
                } else {
                    self.b.ins().ushr(s1, n)
                };
                let neg = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, n, 0);
                self.select(neg, left, right)
            }
        }
    }

    /// bitop with a constant truth table: the OR of the selected minterms.
    fn bitop(&mut self, op: u32, s1: Value, s2: Value) -> Value {
        let n1 = self.b.ins().bnot(s1);
        let n2 = self.b.ins().bnot(s2);
        let terms = [(1, n1, n2), (2, n1, s2), (4, s1, n2), (8, s1, s2)];
        let mut acc: Option<Value> = None;
        for (m, a, b) in terms {
            if op & m != 0 {
                let t = self.b.ins().band(a, b);
                acc = Some(match acc {
                    Some(x) => self.b.ins().bor(x, t),
                    None => t,
                });
            }
        }
        acc.unwrap_or_else(|| self.iconst(0))
    }

    fn flags(&mut self, res: Value, s1: Option<Value>) -> Value {
        let g80 = self.variant.is_g80();
        let zero = self.b.ins().icmp_imm_s(IntCC::Equal, res, 0);
        let zf = self.b.ins().uextend(I32, zero);
        let mut c = self.b.ins().ishl_imm_u(zf, 1);
        let add_bit = |me: &mut Self, c: &mut Value, from: u32, to: u32| {
            let bt = me.bit(res, from);
            let sh = me.b.ins().ishl_imm_u(bt, to as i64);
            *c = me.b.ins().bor(*c, sh);
        };
        add_bit(self, &mut c, 19, 2);
        add_bit(self, &mut c, 20, 4);
        add_bit(self, &mut c, 21, 5);
        if g80 {
            add_bit(self, &mut c, 19, 6);
            add_bit(self, &mut c, 18, 7);
        }
        if let Some(s1) = s1 {
            add_bit(self, &mut c, 31, 0);
            let x = self.b.ins().bxor(res, s1);
            let b20 = self.bit(x, 20);
            let sh = self.b.ins().ishl_imm_u(b20, 3);
            c = self.b.ins().bor(c, sh);
        }
        c
    }

    // ---- bytewise operations ------------------------------------------------------

    fn lanes_of(&mut self, w: Value) -> Value {
        let v = self.b.ins().splat(I32X4, w);
        self.b.ins().bitcast(I8X16, cast_flags(), v)
    }

    fn word_of_lanes(&mut self, v: Value) -> Value {
        let w = self.b.ins().bitcast(I32X4, cast_flags(), v);
        self.b.ins().extractlane(w, 0)
    }

    /// bmin/bmax/babs/bneg/badd/bsub on 4 lanes as i8x16 saturating arithmetic.
    fn bytes_simd(&mut self, kind: Kind, signed: bool, s1: Value, s2: Value) -> Value {
        if kind == Kind::Babs && !signed {
            return s1;
        }
        if kind == Kind::Bneg && !signed {
            // -x clipped to 0..0xff is always 0.
            return self.iconst(0);
        }
        let a = self.lanes_of(s1);
        let b = self.lanes_of(s2);
        let z = self.zero_lanes();
        let r = match (kind, signed) {
            (Kind::Bmin, true) => self.b.ins().smin(a, b),
            (Kind::Bmin, false) => self.b.ins().umin(a, b),
            (Kind::Bmax, true) => self.b.ins().smax(a, b),
            (Kind::Bmax, false) => self.b.ins().umax(a, b),
            (Kind::Badd, true) => self.b.ins().sadd_sat(a, b),
            (Kind::Badd, false) => self.b.ins().uadd_sat(a, b),
            (Kind::Bsub, true) => self.b.ins().ssub_sat(a, b),
            (Kind::Bsub, false) => self.b.ins().usub_sat(a, b),
            (Kind::Bneg, _) => self.b.ins().ssub_sat(z, a),
            // Babs, signed: max(x, -x) with -(-128) saturating to 127.
            _ => {
                let n = self.b.ins().ssub_sat(z, a);
                self.b.ins().smax(a, n)
            }
        };
        self.word_of_lanes(r)
    }

    fn zero_lanes(&mut self) -> Value {
        let z = self.iconst(0);
        self.lanes_of(z)
    }

    /// Byte `i` of `w`, sign- or zero-extended to i32.
    fn byte(&mut self, w: Value, i: u32, signed: bool) -> Value {
        if signed {
            self.sext_field(w, 8 * i, 8)
        } else {
            self.zext_field(w, 8 * i, 8)
        }
    }

    /// Put the low byte of each lane value at its place.
    fn pack(&mut self, lanes: [Value; 4]) -> Value {
        let mut acc: Option<Value> = None;
        for (i, l) in lanes.into_iter().enumerate() {
            let m = self.b.ins().band_imm_u(l, 0xff);
            let s = if i == 0 {
                m
            } else {
                self.b.ins().ishl_imm_u(m, 8 * i as i64)
            };
            acc = Some(match acc {
                Some(a) => self.b.ins().bor(a, s),
                None => s,
            });
        }
        acc.unwrap_or_else(|| self.iconst(0))
    }

    /// bshr/bsar: per lane, amount = low 4 bits of the source-2 byte, signed.
    fn bshr(&mut self, signed: bool, s1: Value, s2: Opnd) -> Value {
        let mut lanes = [s1; 4];
        for (i, lane) in lanes.iter_mut().enumerate() {
            let i = i as u32;
            let a = self.byte(s1, i, signed);
            *lane = match s2 {
                Opnd::Const(c) => {
                    let n = (((c >> (8 * i)) << 28) as i32) >> 28;
                    if n < 0 {
                        self.b.ins().ishl_imm_u(a, -n as i64)
                    } else {
                        self.b.ins().sshr_imm_u(a, n as i64)
                    }
                }
                Opnd::Val(v) => {
                    let n = self.sext_field(v, 8 * i, 4);
                    let m = self.b.ins().ineg(n);
                    let left = self.b.ins().ishl(a, m);
                    let right = self.b.ins().sshr(a, n);
                    let neg = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, n, 0);
                    self.select(neg, left, right)
                }
            };
        }
        self.pack(lanes)
    }

    /// The byte multiplier: (register result, factors as i32).
    fn bmul(&mut self, inst: Inst, d: &OpDesc, s1: Value, s2: Opnd) -> (Value, [Value; 4]) {
        let documented = d.kind != Kind::BmulDefault;
        let sign1 = documented && inst.sign1();
        let sign2 = documented && inst.sign2();
        let signd = documented && d.sign == Sign::S;
        let rnd = match d.kind {
            Kind::Bmul | Kind::Bmula | Kind::BmulFactorRaw => inst.rnd(),
            _ => false,
        };
        let factor_shift = matches!(d.kind, Kind::Bmul | Kind::BmulFactor);
        let mut lanes = [s1; 4];
        let mut factors = [s1; 4];
        for i in 0..4u32 {
            let x = self.byte(s1, i, sign1);
            let x = if sign1 {
                self.b.ins().ishl_imm_u(x, 1)
            } else {
                x
            };
            let y = match s2 {
                Opnd::Const(c) => {
                    let b = (c >> (8 * i)) as u8;
                    let v = if sign2 {
                        (b as i8 as i32) * 2
                    } else {
                        b as i32
                    };
                    self.iconst(v as u32)
                }
                Opnd::Val(v) => {
                    let y = self.byte(v, i, sign2);
                    if sign2 {
                        self.b.ins().ishl_imm_u(y, 1)
                    } else {
                        y
                    }
                }
            };
            let mut p = self.b.ins().imul(x, y);
            if rnd {
                p = self.b.ins().iadd_imm_s(p, if signd { 0x100 } else { 0x80 });
            }
            let f = if factor_shift {
                self.b.ins().sshr_imm_u(p, 8)
            } else {
                p
            };
            factors[i as usize] = self.sext_field(f, 0, 10);
            let r = self.b.ins().sshr_imm_u(p, if signd { 9 } else { 8 });
            lanes[i as usize] = if signd {
                self.clamp(r, -0x80, 0x7f)
            } else {
                self.clamp(r, 0, 0xff)
            };
        }
        (self.pack(lanes), factors)
    }

    // ---- other register files -----------------------------------------------------

    fn other_read(&mut self, file: File, idx: u32) -> Option<Value> {
        let i = (idx & 31) as usize;
        let g80 = self.variant.is_g80();
        Some(match file {
            File::V { word } => {
                self.load32(offset_of!(State, v) + 16 * i + 4 * (word & 3) as usize)
            }
            File::Sr => self.load32(offset_of!(State, sr) + 4 * i),
            File::Mi => self.load32(offset_of!(State, mi) + 4 * i),
            File::Uc => self.load32(offset_of!(State, uc) + 4 * i),
            File::L => self.load16(offset_of!(State, l) + 2 * (i & 3)),
            File::A => self.load32(offset_of!(State, a) + 4 * i),
            File::C if i < 4 => self.c(i as u32),
            File::C => self.iconst(0),
            File::M { high } => self.load32(offset_of!(State, m) + 4 * (i + 32 * high as usize)),
            File::D if g80 => self.load32(offset_of!(State, d) + 4 * (i & 7)),
            File::F => self.load32(offset_of!(State, f) + 4 * (i & 1)),
            File::X if g80 => self.load32(offset_of!(State, x) + 4 * (i & 15)),
            File::D | File::X => return None,
        })
    }

    fn other_write(&mut self, file: File, idx: u32, v: Value) {
        let i = (idx & 31) as usize;
        let g80 = self.variant.is_g80();
        let off = match file {
            File::V { word } => offset_of!(State, v) + 16 * i + 4 * (word & 3) as usize,
            File::Sr => offset_of!(State, sr) + 4 * i,
            File::Mi => offset_of!(State, mi) + 4 * i,
            File::Uc => offset_of!(State, uc) + 4 * i,
            File::L => {
                if i < 4 {
                    self.store16(v, offset_of!(State, l) + 2 * i);
                }
                return;
            }
            File::A => offset_of!(State, a) + 4 * i,
            File::M { high } => offset_of!(State, m) + 4 * (i + 32 * high as usize),
            File::D if g80 => offset_of!(State, d) + 4 * (i & 7),
            File::F => offset_of!(State, f) + 4 * (i & 1),
            File::X if g80 => offset_of!(State, x) + 4 * (i & 15),
            File::C | File::D | File::X => return,
        };
        self.store32(v, off);
    }

    // ---- s2v ----------------------------------------------------------------------

    /// The default factors: a 4-bit mask of `s1`, each bit widened to 4, doubled.
    fn junk(&mut self, s1: Value) -> [Value; 4] {
        let mut mask = self.iconst(0);
        for i in 0..4 {
            let bt = self.bit(s1, i);
            let m = self.b.ins().imul_imm_u(bt, 0xf << (4 * i));
            mask = self.b.ins().bor(mask, m);
        }
        let lo = self.b.ins().band_imm_u(mask, 0xff);
        let f0 = self.b.ins().ishl_imm_u(lo, 1);
        let hi = self.b.ins().ushr_imm_u(mask, 8);
        let f1 = self.b.ins().ishl_imm_u(hi, 1);
        let z = self.iconst(0);
        [f0, f1, z, z]
    }

    fn store_s2v(&mut self, inst: Inst, d: &OpDesc, f: [Value; 4]) {
        let base = offset_of!(State, s2v);
        for (i, &v) in f.iter().enumerate() {
            self.store16(v, base + offset_of!(S2v, factor) + 2 * i);
        }
        for m in 0..2 {
            let lo = self.zext_field(f[2 * m], 1, 8);
            let hi0 = self.zext_field(f[2 * m + 1], 1, 8);
            let hi = self.b.ins().ishl_imm_u(hi0, 8);
            let mask = self.b.ins().bor(lo, hi);
            self.store16(mask, base + offset_of!(S2v, mask) + 2 * m);
        }
        let valid = d.s2v == S2vSrc::Send;
        let (idx, zf, xfrm) = if valid {
            (inst.vcidx(), inst.vcflag(), inst.vcxfrm())
        } else {
            (0, false, 0)
        };
        let vcmask = if valid {
            let half = |me: &mut Self, n: u32| {
                let v = me.load32(offset_of!(State, vc) + 4 * (n & 3) as usize);
                if zf {
                    me.b.ins().ushr_imm_u(v, 16)
                } else {
                    me.b.ins().band_imm_u(v, 0xffff)
                }
            };
            let a = half(self, idx);
            let b0 = half(self, idx | 1);
            let b = self.b.ins().ishl_imm_u(b0, 16);
            let val = self.b.ins().bor(a, b);
            let mut m = self.iconst(0);
            for (i, &t) in XFRM[(xfrm & 7) as usize].iter().enumerate() {
                let bt = self.bit(val, t as u32);
                let sh = self.b.ins().ishl_imm_u(bt, i as i64);
                m = self.b.ins().bor(m, sh);
            }
            m
        } else {
            self.iconst(0)
        };
        self.store16(vcmask, base + offset_of!(S2v, vcmask));
        self.store8(valid as u8, base + offset_of!(S2v, valid));
        self.store8(idx as u8, base + offset_of!(S2v, vcidx));
        self.store8(zf as u8, base + offset_of!(S2v, vcflag));
        self.store8(xfrm as u8, base + offset_of!(S2v, vcxfrm));
    }

    // ---- one word -----------------------------------------------------------------

    /// Lower scalar word `inst` (row `d`); `last`: its s2v output is the one observed.
    pub fn word(&mut self, inst: Inst, d: &OpDesc, last: bool) {
        let c_in = self.c(inst.cond());
        let s1 = self.r(if d.kind == Kind::Sethi {
            inst.dst()
        } else {
            inst.src1()
        });
        let s2 = self.src2(inst, d, c_in);
        let signed = d.sign == Sign::S;
        let mut factors: Option<[Value; 4]> = None;
        let (dest, res): (Dest, Option<Value>) = match d.kind {
            Kind::Mul => {
                let a = self.sext_field(s1, 0, 16);
                let s2v = self.val(s2);
                let b = self.sext_field(s2v, 0, 16);
                (Dest::R(inst.dst()), Some(self.b.ins().imul(a, b)))
            }
            Kind::Min | Kind::Max => {
                let s2v = self.val(s2);
                let cc = if d.kind == Kind::Min {
                    IntCC::SignedLessThan
                } else {
                    IntCC::SignedGreaterThan
                };
                let pick1 = self.b.ins().icmp(cc, s1, s2v);
                (Dest::R(inst.dst()), Some(self.select(pick1, s1, s2v)))
            }
            Kind::Abs => {
                let n = self.b.ins().ineg(s1);
                let neg = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, s1, 0);
                (Dest::R(inst.dst()), Some(self.select(neg, n, s1)))
            }
            Kind::Neg => (Dest::R(inst.dst()), Some(self.b.ins().ineg(s1))),
            Kind::Add => {
                let s2v = self.val(s2);
                (Dest::R(inst.dst()), Some(self.b.ins().iadd(s1, s2v)))
            }
            Kind::Sub => {
                let s2v = self.val(s2);
                (Dest::R(inst.dst()), Some(self.b.ins().isub(s1, s2v)))
            }
            Kind::Shift => (Dest::R(inst.dst()), Some(self.shift(s1, s2, signed))),
            Kind::Bitop => {
                let s2v = self.val(s2);
                (Dest::R(inst.dst()), Some(self.bitop(inst.bitop(), s1, s2v)))
            }
            Kind::AndImm | Kind::Band => {
                let s2v = self.val(s2);
                (Dest::R(inst.dst()), Some(self.b.ins().band(s1, s2v)))
            }
            Kind::XorImm | Kind::Bxor => {
                let s2v = self.val(s2);
                (Dest::R(inst.dst()), Some(self.b.ins().bxor(s1, s2v)))
            }
            Kind::OrImm | Kind::Bor => {
                let s2v = self.val(s2);
                (Dest::R(inst.dst()), Some(self.b.ins().bor(s1, s2v)))
            }
            Kind::MovImm => (Dest::R(inst.dst()), Some(self.iconst(inst.imm19() as u32))),
            Kind::Sethi => {
                let lo = self.b.ins().band_imm_u(s1, 0xffff);
                let hi = self.iconst(inst.imm16() << 16);
                (Dest::R(inst.dst()), Some(self.b.ins().bor(lo, hi)))
            }
            Kind::MovTo => match rfile::exec_file(inst.rfile(), Dir::To) {
                Some(file) => (Dest::Other(file, inst.dst()), Some(s1)),
                None => (Dest::None, None),
            },
            Kind::MovFrom => {
                match rfile::exec_file(inst.rfile(), Dir::From)
                    .and_then(|f| self.other_read(f, inst.src1()))
                {
                    Some(v) => (Dest::R(inst.dst()), Some(v)),
                    None => (Dest::None, None),
                }
            }
            Kind::Bmin | Kind::Bmax | Kind::Babs | Kind::Bneg | Kind::Badd | Kind::Bsub => {
                let s2v = self.val(s2);
                (
                    Dest::R(inst.dst()),
                    Some(self.bytes_simd(d.kind, signed, s1, s2v)),
                )
            }
            Kind::Bshr => (Dest::R(inst.dst()), Some(self.bshr(signed, s1, s2))),
            Kind::Bmul
            | Kind::Bmula
            | Kind::BmulFactor
            | Kind::BmulFactorRaw
            | Kind::BmulDefault => {
                let (r, f) = self.bmul(inst, d, s1, s2);
                factors = Some(f);
                if matches!(d.kind, Kind::Bmul | Kind::Bmula) {
                    (Dest::R(inst.dst()), Some(r))
                } else {
                    (Dest::None, None)
                }
            }
            Kind::Vec => {
                let (a, b) = (
                    self.iconst(inst.factor1() as u32),
                    self.iconst(inst.factor2() as u32),
                );
                factors = Some([a, a, b, b]);
                (Dest::None, None)
            }
            Kind::Vecms => (Dest::R(inst.src1()), Some(self.b.ins().sshr_imm_u(s1, 4))),
            Kind::Bvec => {
                if last {
                    let mut f = [s1; 4];
                    for (i, fi) in f.iter_mut().enumerate() {
                        let x = self.byte(s1, i as u32, true);
                        *fi = self.b.ins().ishl_imm_u(x, 1);
                    }
                    factors = Some(f);
                }
                (Dest::None, None)
            }
            Kind::Bvecmad | Kind::Bvecmadsel => {
                if last {
                    factors = Some(self.bvecmad(inst, d, s1, c_in));
                }
                (Dest::None, None)
            }
            Kind::Snop | Kind::Unused => (Dest::None, None),
        };
        // $c
        let cres = match (d.cmode, res) {
            (CMode::Full, Some(r)) => Some(self.flags(r, Some(s1))),
            (CMode::FullZero, Some(r)) => {
                let z = self.iconst(0);
                Some(self.flags(r, Some(z)))
            }
            (CMode::Part, Some(r)) => Some(self.flags(r, None)),
            (CMode::Zero, _) => Some(self.iconst(0)),
            // Full/Part kinds always produce a result; None never writes.
            _ => None,
        };
        if let Some(cv) = cres {
            if inst.cdst() < 4 {
                let old = self.c(inst.cdst());
                let hi = self.b.ins().band_imm_u(old, 0xff00);
                let new = self.b.ins().bor(hi, cv);
                self.set_c(inst.cdst(), new);
            }
        }
        if last {
            let f = match (factors, d.s2v) {
                (Some(f), _) => f,
                (None, S2vSrc::Zero) => {
                    let z = self.iconst(0);
                    [z; 4]
                }
                (None, _) => self.junk(s1),
            };
            self.store_s2v(inst, d, f);
        }
        match (dest, res) {
            (Dest::R(i), Some(v)) => self.set_r(i, v),
            (Dest::Other(file, i), Some(v)) => self.other_write(file, i, v),
            _ => {}
        }
    }

    fn bvecmad(&mut self, inst: Inst, d: &OpDesc, s1: Value, c_in: Value) -> [Value; 4] {
        let (src2, slct) = (inst.src2(), inst.slct());
        let (u, choices): (Value, u32) = if slct == 4 {
            (self.zext_field(c_in, 4, 2), 4)
        } else {
            (self.bit(c_in, slct), 2)
        };
        let bases: Vec<Value> = (0..choices).map(|k| self.r(src2 | k)).collect();
        let mults: Vec<Value> = (0..choices).map(|k| self.r(src2 | 2 | k)).collect();
        let base = self.pick(u, &bases);
        let mult = self.pick(u, &mults);
        let sel = d.kind == Kind::Bvecmadsel;
        let k = self.zext_field(s1, 11, if sel { 7 } else { 8 });
        let mut f = [s1; 4];
        for (i, fi) in f.iter_mut().enumerate() {
            let a = self.byte(base, i as u32, true);
            let b = self.byte(mult, i as u32, true);
            let a256 = self.b.ins().ishl_imm_u(a, 8);
            let kb = self.b.ins().imul(k, b);
            let sum = self.b.ins().iadd(a256, kb);
            let sum = self.b.ins().iadd_imm_s(sum, 0x40);
            *fi = self.b.ins().sshr_imm_u(sum, 7);
        }
        if !sel {
            return f;
        }
        if slct != 2 {
            return [f[0], f[0], f[2], f[2]];
        }
        let w = self.bit(c_in, 7);
        let lo = self.select(w, f[1], f[0]);
        let hi = self.select(w, f[3], f[2]);
        [lo, lo, hi, hi]
    }
}
