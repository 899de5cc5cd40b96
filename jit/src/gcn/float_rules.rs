//! Float values in lanes, by the interpreter's rules (`wavejit_interp::float`): MODE's
//! denormal flushes, NaN canonicalisation (lazy while `Cx::lazy_nan` is set: `block::Raw`),
//! what is known of a value (NaN-free, range, denormal-free), IEEE minNum/maxNum and
//! V_MED3, OMOD then CLAMP. Methods of `Cx`; every family's lowering uses them.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{types, InstBuilder, Value};

use super::vocab::Fmt;
use crate::block::{Cx, F32X4, F64X2, I32X4, I64X2};

impl Cx<'_> {
    pub(super) fn fp_flags(&self, f: Fmt) -> (bool, bool) {
        match f {
            // (flush inputs, flush outputs)
            Fmt::F32 => (self.mode & 0x10 == 0, self.mode & 0x20 == 0),
            Fmt::F64 => (self.mode & 0x40 == 0, self.mode & 0x80 == 0),
        }
    }

    /// Denormals of `x` (integer lanes of format `f`) become signed zero.
    pub(super) fn flush_den(&mut self, f: Fmt, x: Value) -> Value {
        let (x, e, s, z) = match f {
            Fmt::F32 => (
                self.cast(I32X4, x),
                self.splat32(0x7f80_0000),
                self.splat32(0x8000_0000),
                self.splat32(0),
            ),
            Fmt::F64 => (
                self.cast(I64X2, x),
                self.splat64(0x7ff0_0000_0000_0000),
                self.splat64(0x8000_0000_0000_0000),
                self.splat64(0),
            ),
        };
        let t = self.b.ins().band(x, e);
        let den = self.b.ins().icmp(IntCC::Equal, t, z);
        let signed0 = self.b.ins().band(x, s);
        self.b.ins().bitselect(den, signed0, x)
    }

    /// Whether the constant `v` has a lane of format `f` for which `bad(bits)` holds.
    fn const_lane(&self, f: Fmt, v: Value, bad: impl Fn(u64) -> bool) -> Option<bool> {
        let bits = *self.const_bits.get(&v)?;
        Some(match f {
            Fmt::F32 => (0..4).any(|i| bad((bits >> (32 * i)) as u32 as u64)),
            Fmt::F64 => (0..2).any(|i| bad((bits >> (64 * i)) as u64)),
        })
    }

    /// Whether no lane of `v` (format `f`) can be a NaN.
    pub(super) fn known_notnan(&self, f: Fmt, v: Value) -> bool {
        if self.notnan.contains(&(v, f == Fmt::F64))
            || self.frange.contains_key(&(v, f == Fmt::F64))
        {
            return true;
        }
        let (exp, man) = match f {
            Fmt::F32 => (0x7f80_0000u64, 0x007f_ffffu64),
            Fmt::F64 => (0x7ff0_0000_0000_0000, 0x000f_ffff_ffff_ffff),
        };
        self.const_lane(f, v, |x| x & exp == exp && x & man != 0) == Some(false)
    }

    /// The range of the numbers in `v` (format `f`), if every lane is known to be one.
    pub(super) fn range_of(&self, f: Fmt, v: Value) -> Option<(f64, f64)> {
        if let Some(&r) = self.frange.get(&(v, f == Fmt::F64)) {
            return Some(r);
        }
        let bits = *self.const_bits.get(&v)?;
        let lanes: Vec<f64> = match f {
            Fmt::F32 => (0..4)
                .map(|i| f32::from_bits((bits >> (32 * i)) as u32) as f64)
                .collect(),
            Fmt::F64 => (0..2)
                .map(|i| f64::from_bits((bits >> (64 * i)) as u64))
                .collect(),
        };
        if lanes.iter().any(|x| x.is_nan()) {
            return None;
        }
        let lo = lanes.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = lanes.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Some((lo, hi))
    }

    /// Record that every lane of `v` is a number in `r` (ignored if `r` has a NaN bound).
    pub(super) fn set_range(&mut self, f: Fmt, v: Value, r: (f64, f64)) {
        if r.0.is_nan() || r.1.is_nan() {
            return;
        }
        self.frange.insert((v, f == Fmt::F64), r);
        self.notnan.insert((v, f == Fmt::F64));
    }

    /// `x` with denormal lanes flushed (once per value; values known clean pass).
    fn flush_cached(&mut self, f: Fmt, x: Value) -> Value {
        if self.noden.contains(&x) {
            return x;
        }
        let (exp, man) = match f {
            Fmt::F32 => (0x7f80_0000u64, 0x007f_ffffu64),
            Fmt::F64 => (0x7ff0_0000_0000_0000, 0x000f_ffff_ffff_ffff),
        };
        if self.const_lane(f, x, |b| b & exp == 0 && b & man != 0) == Some(false) {
            return x;
        }
        let key = (x, f == Fmt::F64);
        if let Some(&v) = self.flushed.get(&key) {
            return v;
        }
        let nn = self.known_notnan(f, x);
        let range = self.range_of(f, x);
        let v = self.flush_den(f, x);
        self.noden.insert(v);
        if nn {
            self.notnan.insert((v, f == Fmt::F64));
        }
        if let Some((lo, hi)) = range {
            // Denormals become ±0.
            self.set_range(f, v, (lo.min(0.0), hi.max(0.0)));
        }
        self.flushed.insert(key, v);
        v
    }

    /// An operand as the float vector an operation reads (input flush per MODE).
    pub(super) fn fin(&mut self, f: Fmt, x: Value) -> Value {
        let (fi, _) = self.fp_flags(f);
        let x = if fi { self.flush_cached(f, x) } else { x };
        self.cast(ftype(f), x)
    }

    /// A float result as stored: output flush per MODE, NaN canonical — or, while
    /// `lazy_nan` is set, NaNs left as they are (the value is then in `raw_vals` unless it
    /// is known to hold no NaN; `block::Raw`).
    pub(super) fn fout(&mut self, f: Fmt, r: Value) -> Value {
        let (_, fo) = self.fp_flags(f);
        let r = if fo {
            let range = self.range_of(f, r);
            let x = self.flush_den(f, r);
            if let Some((lo, hi)) = range {
                self.set_range(f, x, (lo.min(0.0), hi.max(0.0)));
            }
            x
        } else {
            r
        };
        let r = if self.lazy_nan {
            let r = self.cast(ftype(f), r);
            if !self.known_notnan(f, r) {
                self.raw_vals.insert((r, f == Fmt::F64));
            }
            r
        } else {
            self.canon(f, r)
        };
        if fo {
            self.noden.insert(r);
        }
        r
    }

    /// NaN lanes become the canonical quiet NaN.
    pub(super) fn canon(&mut self, f: Fmt, r: Value) -> Value {
        let r = self.cast(ftype(f), r);
        if self.known_notnan(f, r) {
            return r;
        }
        let nan = self.isnan(f, r);
        let q = match f {
            Fmt::F32 => self.splat32(0x7fc0_0000),
            Fmt::F64 => self.splat64(0x7ff8_0000_0000_0000),
        };
        let q = self.cast(ftype(f), q);
        self.b.ins().bitselect(nan, q, r)
    }

    /// The lanes of `x` (format `f`) that are NaNs, as a float-typed mask (one compare
    /// per value: Cranelift's optimiser, which would merge repeated ones, is off).
    pub(super) fn isnan(&mut self, f: Fmt, x: Value) -> Value {
        self.nan_mask(f == Fmt::F64, x)
    }

    /// Whether `v` is a constant whose lanes (format `f`) are all numbers other than ±0:
    /// x86's `minps`/`maxps` against it are then exactly minNum/maxNum (a NaN operand
    /// gives the constant, and equal values have equal bits).
    fn nonzero_number(&self, f: Fmt, v: Value) -> bool {
        let (exp, sign) = match f {
            Fmt::F32 => (0x7f80_0000u64, 0x8000_0000u64),
            Fmt::F64 => (0x7ff0_0000_0000_0000, 0x8000_0000_0000_0000),
        };
        self.const_lane(f, v, |x| {
            x & !sign == 0 || (x & exp == exp && x & !(exp | sign) != 0)
        }) == Some(false)
    }

    /// minNum/maxNum of two operands known not to be NaNs: the `minps` pair, -0 < +0.
    fn fminmax_num(&mut self, a: Value, b: Value, min: bool) -> Value {
        let m1 = self.pminmax(a, b, min);
        let m2 = self.pminmax(b, a, min);
        if min {
            self.b.ins().bor(m1, m2)
        } else {
            self.b.ins().band(m1, m2)
        }
    }

    /// IEEE minimumNumber / maximumNumber of the interpreter (`float::min_num`): a NaN
    /// operand loses to a number, two NaNs give the canonical NaN, -0 < +0.
    ///
    /// x86's `minps x, y` is `x < y ? x : y` (the second operand on NaN or equality), so
    /// `minps(a, b) | minps(b, a)` is the minimum of numbers with -0 below +0 (`&` of the
    /// `maxps` pair: the maximum, +0 above -0), and `minps(a, b)` is `b` when `a` is a NaN,
    /// `minps(b, a)` is `a` when `b` is: two selects on the NaN tests of the operands,
    /// skipped for an operand known to be a number, and the canonical NaN when both are.
    pub(super) fn fminmax(&mut self, f: Fmt, a: Value, b: Value, min: bool) -> Value {
        let ty = ftype(f);
        let a = self.cast(ty, a);
        let b = self.cast(ty, b);
        let clean = self.noden.contains(&a) && self.noden.contains(&b);
        // Against a constant number other than ±0: one `minps` (NaN → the constant).
        let full = (f64::NEG_INFINITY, f64::INFINITY);
        // The range of the result: a NaN operand gives the other one, so an unknown
        // operand counts as any number.
        let pick = |x: (f64, f64), y: (f64, f64)| {
            if min {
                (x.0.min(y.0), x.1.min(y.1))
            } else {
                (x.0.max(y.0), x.1.max(y.1))
            }
        };
        for (x, k) in [(a, b), (b, a)] {
            if self.nonzero_number(f, k) {
                let r = self.pminmax(x, k, min);
                let rx = self.range_of(f, x).unwrap_or(full);
                if let Some(rk) = self.range_of(f, k) {
                    self.set_range(f, r, pick(rx, rk));
                }
                self.notnan.insert((r, f == Fmt::F64));
                if clean {
                    self.noden.insert(r);
                }
                return r;
            }
        }
        let ra = self.range_of(f, a).unwrap_or(full);
        let rb = self.range_of(f, b).unwrap_or(full);
        let (a_num, b_num) = (self.known_notnan(f, a), self.known_notnan(f, b));
        let m1 = self.pminmax(a, b, min);
        let m2 = self.pminmax(b, a, min);
        let mut r = if min {
            self.b.ins().bor(m1, m2)
        } else {
            self.b.ins().band(m1, m2)
        };
        if !a_num {
            let an = self.isnan(f, a);
            r = self.b.ins().bitselect(an, m1, r);
        }
        if !b_num {
            let bn = self.isnan(f, b);
            r = self.b.ins().bitselect(bn, m2, r);
        }
        if !a_num && !b_num {
            // Both NaN: the last select picked `a`'s payload.
            r = self.canon(f, r);
        } else {
            self.notnan.insert((r, f == Fmt::F64));
            self.set_range(f, r, pick(ra, rb));
        }
        if clean {
            self.noden.insert(r);
        }
        r
    }

    /// V_MED3 (`vop3::med3`) of flushed operands: the median (-0 < +0), or with any NaN
    /// operand the minimum of the others (MIN3; all three NaN: the canonical NaN).
    ///
    /// With two constant numbers other than ±0 it is a clamp between their minimum `lo`
    /// and maximum `hi`: `minps(maxps(x, lo), hi)` (a NaN `x` gives `lo`, as MIN3 does).
    /// Otherwise NaN operands are replaced by +inf, which makes the MIN3 of the others the
    /// minimum of all three, so both candidates come from NaN-free minNum/maxNum pairs.
    pub(super) fn med3(&mut self, f: Fmt, x: [Value; 3]) -> Value {
        let ty = ftype(f);
        let x = x.map(|v| self.cast(ty, v));
        let consts: Vec<usize> = (0..3).filter(|&i| self.nonzero_number(f, x[i])).collect();
        if consts.len() >= 2 {
            let (k1, k2) = (x[consts[0]], x[consts[1]]);
            let v = x[(0..3).find(|i| !consts[..2].contains(i)).unwrap_or(0)];
            let b1 = self.const_bits.get(&k1).copied().unwrap_or(0);
            let b2 = self.const_bits.get(&k2).copied().unwrap_or(0);
            let (lanes, width) = match f {
                Fmt::F32 => (4, 32),
                Fmt::F64 => (2, 64),
            };
            let (mut lo, mut hi) = (0u128, 0u128);
            for i in 0..lanes {
                let m = if width == 32 {
                    0xffff_ffffu128
                } else {
                    u64::MAX as u128
                };
                let (p, q) = ((b1 >> (width * i)) & m, (b2 >> (width * i)) & m);
                let less = match f {
                    Fmt::F32 => f32::from_bits(p as u32) < f32::from_bits(q as u32),
                    Fmt::F64 => f64::from_bits(p as u64) < f64::from_bits(q as u64),
                };
                let (l, h) = if less { (p, q) } else { (q, p) };
                lo |= l << (width * i);
                hi |= h << (width * i);
            }
            let lo = self.vconst(ty, lo);
            let hi = self.vconst(ty, hi);
            let t = self.pminmax(v, lo, false);
            let r = self.pminmax(t, hi, true);
            if let (Some(l), Some(h)) = (self.range_of(f, lo), self.range_of(f, hi)) {
                self.set_range(f, r, (l.0, h.1));
            }
            self.notnan.insert((r, f == Fmt::F64));
            if self.noden.contains(&v) {
                self.noden.insert(r);
            }
            return r;
        }
        let inf = match f {
            Fmt::F32 => self.splat32(0x7f80_0000),
            Fmt::F64 => self.splat64(0x7ff0_0000_0000_0000),
        };
        let inf = self.cast(ty, inf);
        let mut any: Option<Value> = None;
        let mut all: Option<Value> = None;
        let mut unknown = Vec::new();
        let mut y = x;
        for v in y.iter_mut() {
            if self.known_notnan(f, *v) {
                continue;
            }
            unknown.push(*v);
            let n = self.isnan(f, *v);
            *v = self.b.ins().bitselect(n, inf, *v);
            any = Some(match any {
                None => n,
                Some(m) => self.b.ins().bor(m, n),
            });
            all = Some(match all {
                None => n,
                Some(m) => self.b.ins().band(m, n),
            });
        }
        let n_unknown = unknown.len();
        if n_unknown == 2 {
            // One compare for both (a compare result selects with one `blendv`).
            let m = self
                .b
                .ins()
                .fcmp(FloatCC::Unordered, unknown[0], unknown[1]);
            any = Some(self.cast(ty, m));
        }
        let lo = self.fminmax_num(y[0], y[1], true);
        let hi = self.fminmax_num(y[0], y[1], false);
        let t = self.fminmax_num(hi, y[2], true);
        let med = self.fminmax_num(lo, t, false);
        let r = match any {
            None => med,
            Some(n) => {
                let m3 = self.fminmax_num(lo, y[2], true);
                let r = self.b.ins().bitselect(n, m3, med);
                match all {
                    Some(all) if n_unknown == 3 => {
                        let q = match f {
                            Fmt::F32 => self.splat32(0x7fc0_0000),
                            Fmt::F64 => self.splat64(0x7ff8_0000_0000_0000),
                        };
                        let q = self.cast(ty, q);
                        self.b.ins().bitselect(all, q, r)
                    }
                    _ => r,
                }
            }
        };
        if n_unknown < 3 {
            // A median or minimum of the operands, NaN ones left out.
            let full = (f64::NEG_INFINITY, f64::INFINITY);
            let rs = x.map(|v| self.range_of(f, v).unwrap_or(full));
            let lo = rs.iter().map(|r| r.0).fold(f64::INFINITY, f64::min);
            let hi = rs.iter().map(|r| r.1).fold(f64::NEG_INFINITY, f64::max);
            self.set_range(f, r, (lo, hi));
        }
        if x.iter().all(|v| self.noden.contains(v)) {
            self.noden.insert(r);
        }
        r
    }

    /// x86 `minps`/`maxps` (`minpd`/`maxpd`): `x < y ? x : y`, `y < x ? x : y`.
    fn pminmax(&mut self, x: Value, y: Value, min: bool) -> Value {
        let ty = self.b.func.dfg.value_type(x);
        let c = if min {
            self.b.ins().fcmp(FloatCC::LessThan, x, y)
        } else {
            self.b.ins().fcmp(FloatCC::LessThan, y, x)
        };
        let mut fl = cranelift_codegen::ir::MemFlagsData::new();
        fl.set_endianness(cranelift_codegen::ir::Endianness::Little);
        let c = self.b.ins().bitcast(ty, fl, c);
        self.b.ins().bitselect(c, x, y)
    }

    /// The operand of min/max/med3 (`float::flushed`): denormals flushed by either
    /// control, NaN canonical.
    pub(super) fn fminmax_in(&mut self, f: Fmt, x: Value) -> Value {
        let (fi, fo) = self.fp_flags(f);
        let x = if fi || fo { self.flush_cached(f, x) } else { x };
        self.cast(ftype(f), x)
    }

    /// OMOD then CLAMP on a float result (`float::omod_clamp`).
    pub(super) fn omod_clamp(&mut self, f: Fmt, r: Value, omod: u8, clamp: bool) -> Value {
        let (_, fo) = self.fp_flags(f);
        let mut r = self.cast(ftype(f), r);
        if omod != 0 && fo {
            let k: f64 = match omod {
                1 => 2.0,
                2 => 4.0,
                _ => 0.5,
            };
            let kv = match f {
                Fmt::F32 => self.splat32((k as f32).to_bits()),
                Fmt::F64 => self.splat64(k.to_bits()),
            };
            let kv = self.cast(ftype(f), kv);
            let m = self.b.ins().fmul(r, kv);
            r = self.fout(f, m);
        }
        if clamp {
            let dx10 = self.mode & 0x100 != 0;
            r = self.clamp01(f, r, dx10);
        }
        r
    }

    /// CLAMP to [0, 1] on the integer view of `r` (`float::omod_clamp`): numbers above
    /// 1.0 give 1.0, negatives +0 (-0.0 stays), NaN gives 0 under DX10 clamping (MODE bit
    /// 8) and the default quiet NaN otherwise.
    fn clamp01(&mut self, f: Fmt, r: Value, dx10: bool) -> Value {
        let (ity, one, sign, qnan) = match f {
            Fmt::F32 => (I32X4, 0x3f80_0000, 0x8000_0000, 0x7fc0_0000),
            Fmt::F64 => (
                I64X2,
                0x3ff0_0000_0000_0000,
                0x8000_0000_0000_0000,
                0x7ff8_0000_0000_0000,
            ),
        };
        let splat = |cx: &mut Self, v: u64| match f {
            Fmt::F32 => cx.splat32(v as u32),
            Fmt::F64 => cx.splat64(v),
        };
        let x = self.cast(ity, r);
        let one = splat(self, one);
        // SSE4.1 has a signed minimum of 32-bit lanes; 64-bit lanes compare and select.
        let lim = match f {
            Fmt::F32 => self.b.ins().smin(x, one),
            Fmt::F64 => {
                let gt = self.b.ins().icmp(IntCC::SignedGreaterThan, x, one);
                self.b.ins().bitselect(gt, one, x)
            }
        };
        let z = splat(self, 0);
        let neg = self.b.ins().icmp(IntCC::SignedLessThan, x, z);
        let m0 = splat(self, sign);
        let is_m0 = self.b.ins().icmp(IntCC::Equal, x, m0);
        let negv = self.b.ins().band(x, is_m0);
        let v = self.b.ins().bitselect(neg, negv, lim);
        let xf = self.cast(ftype(f), x);
        let nan = self.b.ins().fcmp(FloatCC::Unordered, xf, xf);
        let nan = self.cast(ity, nan);
        let nv = splat(self, if dx10 { 0 } else { qnan });
        let v = self.b.ins().bitselect(nan, nv, v);
        self.cast(ftype(f), v)
    }
}

pub(super) fn ftype(f: Fmt) -> types::Type {
    match f {
        Fmt::F32 => F32X4,
        Fmt::F64 => F64X2,
    }
}
