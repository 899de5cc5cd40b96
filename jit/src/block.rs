//! `Cx`: the lowering context of one compiled unit — the Cranelift function builder plus
//! the register cache.
//!
//! Register cache (DESIGN.md "JIT lowering"): a VGPR is 16 chunks of 4 lanes; each chunk
//! is loaded at its first use as an `i32x4` SSA value and kept in SSA; written chunks are
//! stored once, at the unit's exit or before a helper call that needs memory current.
//! Scalar slots (SGPRs, VCC, EXEC, M0) and SCC are cached the same way as `i32` values.
//!
//! 64-bit lane masks (EXEC, VCC, the SGPR pair a compare writes) have two forms: the
//! scalar pair of `i32` halves, and one `i32x4` lane mask per chunk. A mask written by a
//! vector instruction is kept in lane form ("pending") and turned into its scalar form
//! (`vhigh_bits` per chunk, shifted together) only when something reads it as a scalar.
//! Lane forms computed from scalar values are cached by the SSA value they come from, so
//! they can never be stale.
//!
//! Values cached here are defined on the unit's main line; side exits (error returns,
//! branch arms) only *use* them — `flush_values` computes what to store without touching
//! the cache, so nothing defined in a side exit leaks into the main line.

use crate::fxhash::{FxMap as HashMap, FxSet as HashSet};

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{
    types, AbiParam, Block, BlockArg, ConstantData, Endianness, InstBuilder, MemFlagsData,
    Signature, Type, Value,
};
use cranelift_codegen::isa::CallConv;
use cranelift_frontend::FunctionBuilder;
use wavejit_isa::arch::Gen;

use crate::ctx::{wave_off, OFF_BUDGET};
use crate::slots::{EXEC_HI, EXEC_LO};

pub const I32X4: Type = types::I32X4;
pub const F32X4: Type = types::F32X4;
pub const I64X2: Type = types::I64X2;
pub const F64X2: Type = types::F64X2;
pub const I8X16: Type = types::I8X16;
pub const I16X8: Type = types::I16X8;

/// Lanes per chunk and chunks per register.
pub const CHUNKS: usize = 16;

/// Memory flags for the wave and context: never null, never trapping, little endian.
pub fn mflags() -> MemFlagsData {
    let mut f = MemFlagsData::trusted();
    f.set_endianness(Endianness::Little);
    f
}

#[derive(Clone, Copy, Default)]
struct VReg {
    val: [Option<Value>; CHUNKS],
    dirty: u16,
    /// Per chunk: whether the cached value may hold a NaN that is not the canonical one
    /// (lazy canonicalisation, see `Raw`).
    raw: [Raw; CHUNKS],
}

/// The float result of a NaN-propagating operation, cached without its NaN
/// canonicalisation ("raw"): its NaN lanes are NaNs, but maybe not the canonical quiet NaN
/// the interpreter gives every arithmetic NaN result. That difference is invisible to an
/// operation whose result is a NaN whenever an input is (whatever the payload) and is
/// canonicalised itself, or that looks only at whether a lane is a NaN: those read the raw
/// value (`Cx::vreg_raw`, `Cx::vpair_raw`). Every other read (`Cx::vreg`) and every store
/// gets the canonical value, computed once (`canon_of`).
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub enum Raw {
    /// The value is as stored (canonical).
    #[default]
    No,
    /// A raw f32 result.
    F32,
    /// One half (low dwords, or high dwords if `hi`) of a raw f64 result held as the two
    /// `i64x2` of `pair`.
    F64 { pair: [Value; 2], hi: bool },
}

/// A 64-bit mask held in lane form, written chunk by chunk by vector instructions.
#[derive(Clone)]
struct Pending {
    /// First scalar slot of the pair (the second is `lo + 1`, wrapping at 128).
    lo: u8,
    lanes: [Option<Value>; CHUNKS],
    /// The 4 bits of each written chunk (`vhigh_bits`), taken when the chunk is written:
    /// the scalar form then needs no vector value kept to the end (16 of them would be
    /// spilled).
    bits: [Option<Value>; CHUNKS],
    /// The bits of the chunks in `folded`, shifted into place, per half.
    acc: [Option<Value>; 2],
    folded: u16,
    /// The pair's scalar halves before the first lane write (for chunks not yet written).
    old: (Value, Value),
}

/// The lowering context of one unit.
pub struct Cx<'a> {
    pub b: FunctionBuilder<'a>,
    pub ptr: Type,
    pub wave: Value,
    pub jctx: Value,
    pub gen: Gen,
    /// MODE at entry (the unit is specialised on it).
    pub mode: u32,
    pub has_fma: bool,
    vregs: Vec<VReg>,
    /// The VGPRs that may have a cached chunk (bit r of word r / 64): what the flushes
    /// and chunk ends walk, instead of all 256 registers every time.
    vlive: [u64; 4],
    sregs: [Option<Value>; 128],
    sdirty: u128,
    pending: Vec<Pending>,
    scc: Option<Value>,
    scc_dirty: bool,
    /// `i32` values known to be all ones (EXEC of the all-ones variant).
    ones: HashSet<Value>,
    lane_cache: HashMap<(Value, u8), Value>,
    splat_cache: HashMap<(Value, Type), Value>,
    const_cache: HashMap<(u128, Type), Value>,
    /// `i64` values by their (low, high) `i32` halves (`concat64`, `split64`).
    pairs64: HashMap<(Value, Value), Value>,
    /// An M0 value and its parts the interpolations read (`gcn::vintrp`).
    pub vintrp_m0: Option<(Value, (Value, Value, Value))>,
    pub tail_sig: Option<cranelift_codegen::ir::SigRef>,
    /// The signature of `ctx::helper_step`, imported once per function.
    helper_sig: Option<cranelift_codegen::ir::SigRef>,
    /// Test only (`JitConfig::plant_xor_bug`).
    pub plant_xor_bug: bool,
    /// Vector values known to hold no float denormals (results of flushed float
    /// operations, constants), whatever lane type they are viewed as: input flushes of
    /// these are skipped.
    pub noden: HashSet<Value>,
    /// Denormal-flushed versions of values (each value is flushed once).
    pub flushed: HashMap<(Value, bool), Value>,
    /// Float vectors known to hold no NaN lane, viewed as f32 (`false`) or f64 (`true`)
    /// lanes (results of minNum/maxNum with a number operand…): NaN tests of these are
    /// skipped.
    pub notnan: HashSet<(Value, bool)>,
    /// Float vectors whose lanes (f32: `false`, f64: `true`) are all numbers in
    /// `[lo, hi]` (infinite bounds allowed): no NaN tests, and conversions to integers
    /// without their saturation where the range fits.
    pub frange: HashMap<(Value, bool), (f64, f64)>,
    /// The bits of vector constants (and of casts of them).
    pub const_bits: HashMap<Value, u128>,
    /// 64-bit lanes as written: the (low dwords, high dwords) chunk pair a 64-bit result
    /// was split into → the two `i64x2` it came from, so reading the pair back needs no
    /// shuffles (f64 chains stay interleaved).
    pub zips: HashMap<(Value, Value), [Value; 2]>,
    /// Canonical versions of raw values: an f32 chunk value → its canonical value; the
    /// first `i64x2` of a raw f64 pair → the canonical (low dwords, high dwords).
    canon_of: HashMap<Value, Value>,
    canon64_of: HashMap<Value, (Value, Value)>,
    /// Values that may hold non-canonical NaNs, viewed as f32 (`false`) or f64 (`true`)
    /// lanes: results of `fout` while `lazy_nan` is set.
    pub raw_vals: HashSet<(Value, bool)>,
    /// `i32x4` values known to be below 2^n in every lane (unsigned): `n` (< 32).
    pub ubits: HashMap<Value, u8>,
    /// What the DS accesses of one address register found once for the unit
    /// (`mem::lds::facts`), by their group.
    pub lds_facts: HashMap<u32, [Value; 4]>,
    /// Profiling: whether each half-wave's active bases lie within the no-conflict span
    /// (`mem::lds::count_bank_conflicts`), by DS group, with the EXEC value it was found
    /// under.
    pub lds_spans: HashMap<u32, (Value, Value)>,
    /// FLAT address pairs whose lanes an earlier dword access of the unit tested for
    /// contiguity (`mem::global::emit_dwords`), while neither register has been written
    /// since: (the pair's first VGPR, [the test's `i8` result, lane 0's low and high
    /// halves]). The unit's planner forgets a pair an instruction may write.
    pub flat_contig: Vec<(u8, [Value; 3])>,
    /// VGPRs tested at the unit's header (`mem::global::lane_linear`) and the result, an
    /// `i8` truth value defined in the header.
    pub lin_ok: Vec<(u8, Value)>,
    /// Shifts and masks by constants already emitted: (kind, value, amount) → result
    /// (one instruction per value, as Cranelift's optimiser — off — would merge them).
    imm_ops: HashMap<(u8, Value, u32), Value>,
    /// NaN tests (`fcmp uno x, x`) of float values, one per value.
    pub nan_tests: HashMap<Value, Value>,
    /// `fout` leaves NaNs as they are (the operation being lowered writes a raw result).
    pub lazy_nan: bool,
    /// While a chunk loop's body is emitted (`gcn::emit_segment`): the address of the
    /// current chunk's lanes of `v0` minus those of chunk 0 (`wave + 16 × chunk`); the
    /// body is emitted as chunk 0 and its VGPR loads and stores are relative to this.
    pub vbase: Option<Value>,
    /// In a chunk loop's body (unless EXEC is known to be all ones): EXEC's lane mask of
    /// the current chunk.
    pub loop_exec: Option<Value>,
    /// In a chunk loop's body: the chunk's number (0-15) as an `i32`.
    pub loop_chunk: Option<Value>,
    /// In a chunk loop's body: the lane masks of the current chunk of the mask pairs the
    /// loop reads or writes (first slot, mask), from their values before the loop.
    pub loop_lanes: Vec<(u8, Value)>,
    /// Store only the last write of a VGPR in a segment (`WAVEJIT_NO_DSE` turns it off,
    /// for measurements).
    pub dse: bool,
    /// The quick tier's chunk loops (`JitConfig::chunk_loops`): `for_chunks` emits its
    /// body once, as a loop over the 16 chunks, instead of 16 times.
    pub loops: bool,
}

/// `WAVEJIT_NO_DSE`, read once (every unit's compile asked the environment before).
static NO_DSE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();

/// The registers whose bits are set in `live` (a copy: the caller may change the set).
fn live_regs(live: [u64; 4]) -> impl Iterator<Item = usize> {
    (0..4).flat_map(move |w| {
        let mut b = live[w];
        std::iter::from_fn(move || {
            (b != 0).then(|| {
                let t = b.trailing_zeros() as usize;
                b &= b - 1;
                64 * w + t
            })
        })
    })
}

/// Which pair (first slot) contains `slot`, given a pair starting at `lo`.
fn pair_has(lo: u8, slot: u8) -> bool {
    slot == lo || slot == (lo.wrapping_add(1) & 127)
}

fn pairs_overlap(a: u8, b: u8) -> bool {
    pair_has(a, b) || pair_has(a, b.wrapping_add(1) & 127)
}

impl<'a> Cx<'a> {
    pub fn new(
        b: FunctionBuilder<'a>,
        ptr: Type,
        wave: Value,
        jctx: Value,
        gen: Gen,
        mode: u32,
        has_fma: bool,
    ) -> Cx<'a> {
        Cx {
            b,
            ptr,
            wave,
            jctx,
            gen,
            mode,
            has_fma,
            vregs: vec![VReg::default(); 256],
            vlive: [0; 4],
            sregs: [None; 128],
            sdirty: 0,
            pending: Vec::new(),
            scc: None,
            scc_dirty: false,
            ones: HashSet::default(),
            lane_cache: HashMap::default(),
            splat_cache: HashMap::default(),
            const_cache: HashMap::default(),
            pairs64: HashMap::default(),
            vintrp_m0: None,
            tail_sig: None,
            helper_sig: None,
            plant_xor_bug: false,
            noden: HashSet::default(),
            flushed: HashMap::default(),
            notnan: HashSet::default(),
            frange: HashMap::default(),
            const_bits: HashMap::default(),
            zips: HashMap::default(),
            canon_of: HashMap::default(),
            canon64_of: HashMap::default(),
            raw_vals: HashSet::default(),
            lazy_nan: false,
            nan_tests: HashMap::default(),
            ubits: HashMap::default(),
            lds_facts: HashMap::default(),
            lds_spans: HashMap::default(),
            flat_contig: Vec::new(),
            lin_ok: Vec::new(),
            imm_ops: HashMap::default(),
            vbase: None,
            loop_exec: None,
            loop_chunk: None,
            loop_lanes: Vec::new(),
            dse: !*NO_DSE.get_or_init(|| std::env::var_os("WAVEJIT_NO_DSE").is_some()),
            loops: false,
        }
    }

    // ---- constants -------------------------------------------------------------------

    pub fn iconst32(&mut self, v: u32) -> Value {
        self.b.ins().iconst(types::I32, v as i32 as i64)
    }

    pub fn iconst64(&mut self, v: u64) -> Value {
        self.b.ins().iconst(types::I64, v as i64)
    }

    /// A new `vconst` of `bits` (not shared with other uses).
    fn vconst_uncached(&mut self, ty: Type, bits: u128) -> Value {
        let c = self
            .b
            .func
            .dfg
            .constants
            .insert(ConstantData::from(bits.to_le_bytes().to_vec()));
        self.b.ins().vconst(ty, c)
    }

    /// A 128-bit vector constant of type `ty` from its little-endian bits.
    pub fn vconst(&mut self, ty: Type, bits: u128) -> Value {
        if let Some(&v) = self.const_cache.get(&(bits, ty)) {
            return v;
        }
        let v = self.vconst_uncached(ty, bits);
        self.const_cache.insert((bits, ty), v);
        self.const_bits.insert(v, bits);
        v
    }

    /// `i32x4` with every lane `x`.
    pub fn splat32(&mut self, x: u32) -> Value {
        let x = x as u128;
        self.vconst(I32X4, x | x << 32 | x << 64 | x << 96)
    }

    /// `i32x4` with lanes `l`.
    pub fn lanes32(&mut self, l: [u32; 4]) -> Value {
        let bits = l
            .iter()
            .enumerate()
            .fold(0u128, |a, (i, &x)| a | (x as u128) << (32 * i));
        self.vconst(I32X4, bits)
    }

    /// `i64x2` with both lanes `x`.
    pub fn splat64(&mut self, x: u64) -> Value {
        self.vconst(I64X2, x as u128 | (x as u128) << 64)
    }

    /// Splat a scalar SSA value (cached per value).
    pub fn splat(&mut self, ty: Type, x: Value) -> Value {
        if let Some(&v) = self.splat_cache.get(&(x, ty)) {
            return v;
        }
        let v = self.b.ins().splat(ty, x);
        self.splat_cache.insert((x, ty), v);
        v
    }

    /// Reinterpret a 128-bit vector as another lane type.
    pub fn cast(&mut self, ty: Type, v: Value) -> Value {
        if self.b.func.dfg.value_type(v) == ty {
            return v;
        }
        let mut f = MemFlagsData::new();
        f.set_endianness(Endianness::Little);
        let r = self.b.ins().bitcast(ty, f, v);
        if self.noden.contains(&v) {
            self.noden.insert(r);
        }
        for w in [false, true] {
            if self.notnan.contains(&(v, w)) {
                self.notnan.insert((r, w));
            }
            if let Some(&x) = self.frange.get(&(v, w)) {
                self.frange.insert((r, w), x);
            }
        }
        if let Some(&b) = self.const_bits.get(&v) {
            self.const_bits.insert(r, b);
        }
        r
    }

    // ---- known bits of integer lanes ----------------------------------------------------

    /// How many low bits of each lane of the `i32x4` value `v` may be set (32: unknown).
    pub fn ubits_of(&self, v: Value) -> u32 {
        if let Some(&n) = self.ubits.get(&v) {
            return n as u32;
        }
        match self.const_bits.get(&v) {
            Some(&b) if self.b.func.dfg.value_type(v) == I32X4 => (0..4)
                .map(|i| 32 - ((b >> (32 * i)) as u32).leading_zeros())
                .max()
                .unwrap_or(32),
            _ => 32,
        }
    }

    /// Record that every lane of `v` is below 2^n.
    pub fn set_ubits(&mut self, v: Value, n: u32) {
        if n < 32 && n < self.ubits_of(v) {
            self.ubits.insert(v, n as u8);
        }
    }

    /// The low `n` bits of each lane of the `i32x4` `x` (no instruction when `x` is known
    /// to fit).
    pub fn low_bits(&mut self, x: Value, n: u32) -> Value {
        if n >= 32 || self.ubits_of(x) <= n {
            return x;
        }
        if let Some(&v) = self.imm_ops.get(&(0, x, n)) {
            return v;
        }
        let m = self.splat32(((1u64 << n) - 1) as u32);
        let v = self.b.ins().band(x, m);
        self.set_ubits(v, n);
        self.imm_ops.insert((0, x, n), v);
        v
    }

    /// Lanes of the `i32x4` `x` shifted by the constant `k` (0-31): `kind` 0 left,
    /// 1 logical right, 2 arithmetic right; one instruction per (value, shift).
    pub fn shift_k(&mut self, x: Value, k: u32, kind: u8) -> Value {
        let k = k & 31;
        if k == 0 {
            return x;
        }
        if let Some(&v) = self.imm_ops.get(&(1 + kind, x, k)) {
            return v;
        }
        let n = self.ubits_of(x);
        let v = match kind {
            0 => self.b.ins().ishl_imm_u(x, k as i64),
            1 => self.b.ins().ushr_imm_u(x, k as i64),
            _ => self.b.ins().sshr_imm_u(x, k as i64),
        };
        match kind {
            0 => self.set_ubits(v, n + k),
            1 => self.set_ubits(v, n.min(32) - k.min(n)),
            _ if n < 32 => self.set_ubits(v, n - k.min(n)),
            _ => {}
        }
        self.imm_ops.insert((1 + kind, x, k), v);
        v
    }

    // ---- VGPRs ----------------------------------------------------------------------

    /// Chunk `c` of `v[reg]` as `i32x4`, as stored (NaNs canonical).
    pub fn vreg(&mut self, reg: u8, c: usize) -> Value {
        let v = self.vreg_any(reg, c);
        match self.vregs[reg as usize].raw[c] {
            Raw::No => v,
            Raw::F32 => self.canon32_of(v),
            Raw::F64 { pair, hi } => {
                let (lo_c, hi_c) = self.canon64_pair(pair);
                if hi {
                    hi_c
                } else {
                    lo_c
                }
            }
        }
    }

    /// The cached (or loaded) value of chunk `c` of `v[reg]`, raw or not.
    fn vreg_any(&mut self, reg: u8, c: usize) -> Value {
        if let Some(v) = self.vregs[reg as usize].val[c] {
            return v;
        }
        let off = wave_off::vgpr_chunk(reg, c);
        let base = self.vbase.unwrap_or(self.wave);
        let v = self.b.ins().load(I32X4, mflags(), base, off);
        self.vregs[reg as usize].val[c] = Some(v);
        self.vregs[reg as usize].raw[c] = Raw::No;
        self.vlive[reg as usize / 64] |= 1 << (reg % 64);
        v
    }

    /// Chunk `c` of `v[reg]` for an operation that may read a raw f32 value (`Raw`): the
    /// raw value if it is one, else the value as stored.
    pub fn vreg_raw(&mut self, reg: u8, c: usize) -> Value {
        let v = self.vreg_any(reg, c);
        match self.vregs[reg as usize].raw[c] {
            Raw::No | Raw::F32 => v,
            Raw::F64 { .. } => self.vreg(reg, c),
        }
    }

    /// Chunk `c` of the pair `v[reg:reg+1]` as two `i64x2` (lanes 0-1, 2-3) for an
    /// operation that may read a raw f64 value: the raw pair if both halves are the halves
    /// of one, else the values as stored.
    pub fn vpair_raw(&mut self, reg: u8, c: usize) -> [Value; 2] {
        let r1 = reg.wrapping_add(1);
        self.vreg_any(reg, c);
        self.vreg_any(r1, c);
        if let (Raw::F64 { pair, hi: false }, Raw::F64 { pair: p1, hi: true }) = (
            self.vregs[reg as usize].raw[c],
            self.vregs[r1 as usize].raw[c],
        ) {
            if pair == p1 {
                return pair;
            }
        }
        let lo = self.vreg(reg, c);
        let hi = self.vreg(r1, c);
        self.zip64(lo, hi)
    }

    /// The canonical version of a raw f32 chunk value (computed once).
    fn canon32_of(&mut self, v: Value) -> Value {
        if let Some(&c) = self.canon_of.get(&v) {
            return c;
        }
        let f = self.cast(F32X4, v);
        let c = self.canon_f32(f);
        let c = self.cast(I32X4, c);
        self.canon_of.insert(v, c);
        c
    }

    /// The canonical (low dwords, high dwords) of a raw f64 pair (computed once).
    fn canon64_pair(&mut self, pair: [Value; 2]) -> (Value, Value) {
        if let Some(&c) = self.canon64_of.get(&pair[0]) {
            return c;
        }
        let cp = pair.map(|h| {
            let f = self.cast(F64X2, h);
            let c = self.canon_f64(f);
            self.cast(I64X2, c)
        });
        let (lo, hi) = self.unzip64(cp);
        self.zips.insert((lo, hi), cp);
        self.canon64_of.insert(pair[0], (lo, hi));
        (lo, hi)
    }

    /// The lanes of `x` that are NaNs (as `f64x2` lanes if `f64`, else `f32x4`), as a
    /// mask of that type; one compare per value (Cranelift's optimiser, which would merge
    /// repeated ones, is off).
    pub fn nan_mask(&mut self, f64: bool, x: Value) -> Value {
        let ty = if f64 { F64X2 } else { F32X4 };
        let x = self.cast(ty, x);
        if let Some(&m) = self.nan_tests.get(&x) {
            return m;
        }
        let m = self.b.ins().fcmp(FloatCC::Unordered, x, x);
        let m = self.cast(ty, m);
        self.nan_tests.insert(x, m);
        m
    }

    /// NaN lanes of an `f32x4` become the canonical quiet NaN.
    fn canon_f32(&mut self, r: Value) -> Value {
        let nan = self.nan_mask(false, r);
        let q = self.splat32(0x7fc0_0000);
        let q = self.cast(F32X4, q);
        self.b.ins().bitselect(nan, q, r)
    }

    /// NaN lanes of an `f64x2` become the canonical quiet NaN.
    fn canon_f64(&mut self, r: Value) -> Value {
        let nan = self.nan_mask(true, r);
        let q = self.splat64(0x7ff8_0000_0000_0000);
        let q = self.cast(F64X2, q);
        self.b.ins().bitselect(nan, q, r)
    }

    /// Chunk `c` of `v[reg]` as stored, computed with uncached instructions only (for side
    /// exits: nothing defined there may be reused by the main line).
    fn vreg_stored_uncached(&mut self, reg: u8, c: usize) -> Option<Value> {
        let v = self.vregs[reg as usize].val[c]?;
        let mut fl = MemFlagsData::new();
        fl.set_endianness(Endianness::Little);
        let (f, ty, q, half) = match self.vregs[reg as usize].raw[c] {
            Raw::No => return Some(v),
            Raw::F32 => (
                v,
                F32X4,
                0x7fc0_0000u128 * 0x0000_0001_0000_0001_0000_0001_0000_0001,
                None,
            ),
            Raw::F64 { pair, hi } => (
                pair[0],
                F64X2,
                0x7ff8_0000_0000_0000u128 * 0x1_0000_0000_0000_0001,
                Some((pair, hi)),
            ),
        };
        let qv = self.vconst_uncached(ty, q);
        let canon = |cx: &mut Self, x: Value| {
            let x = cx.b.ins().bitcast(ty, fl, x);
            let nan = cx.b.ins().fcmp(FloatCC::Unordered, x, x);
            let nan = cx.b.ins().bitcast(ty, fl, nan);
            let r = cx.b.ins().bitselect(nan, qv, x);
            cx.b.ins().bitcast(I8X16, fl, r)
        };
        match half {
            None => {
                let r = canon(self, f);
                Some(self.b.ins().bitcast(I32X4, fl, r))
            }
            Some((pair, hi)) => {
                let a = canon(self, pair[0]);
                let b = canon(self, pair[1]);
                let m = if hi {
                    [4u8, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31]
                } else {
                    [0u8, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27]
                };
                let imm = self.b.func.dfg.immediates.push(m.to_vec().into());
                let r = self.b.ins().shuffle(a, b, imm);
                Some(self.b.ins().bitcast(I32X4, fl, r))
            }
        }
    }

    /// Set chunk `c` of `v[reg]` (no masking: the caller applied EXEC).
    pub fn set_vreg(&mut self, reg: u8, c: usize, v: Value) {
        self.set_vreg_raw(reg, c, v, Raw::No);
    }

    /// Set chunk `c` of `v[reg]` to a value that may be raw (`Raw`).
    pub fn set_vreg_raw(&mut self, reg: u8, c: usize, v: Value, raw: Raw) {
        let v = self.cast(I32X4, v);
        let r = &mut self.vregs[reg as usize];
        r.val[c] = Some(v);
        r.raw[c] = raw;
        r.dirty |= 1 << c;
        self.vlive[reg as usize / 64] |= 1 << (reg % 64);
    }

    /// Write chunk `c` of `v[reg]` under the EXEC mask of that chunk.
    pub fn write_vreg(&mut self, reg: u8, c: usize, v: Value) {
        let v = self.cast(I32X4, v);
        let v = match self.exec_lanes(c) {
            None => v,
            Some(m) => {
                let old = self.vreg(reg, c);
                self.b.ins().bitselect(m, v, old)
            }
        };
        self.set_vreg(reg, c, v);
    }

    /// Write chunk `c` of `v[reg]` where `mask` (an `i32x4` lane mask) is set.
    pub fn write_vreg_masked(&mut self, reg: u8, c: usize, v: Value, mask: Option<Value>) {
        let v = self.cast(I32X4, v);
        let v = match mask {
            None => v,
            Some(m) => {
                let old = self.vreg(reg, c);
                self.b.ins().bitselect(m, v, old)
            }
        };
        self.set_vreg(reg, c, v);
    }

    // ---- scalar slots -----------------------------------------------------------------

    fn pending_index(&self, slot: u8) -> Option<usize> {
        self.pending.iter().position(|p| pair_has(p.lo, slot))
    }

    /// The 32-bit scalar slot (encoding number 0-127) as an `i32` value.
    pub fn sreg(&mut self, slot: u8) -> Value {
        let slot = slot & 127;
        if let Some(i) = self.pending_index(slot) {
            self.materialize(i);
        }
        if let Some(v) = self.sregs[slot as usize] {
            return v;
        }
        let v = self
            .b
            .ins()
            .load(types::I32, mflags(), self.wave, wave_off::sreg(slot));
        self.sregs[slot as usize] = Some(v);
        v
    }

    pub fn set_sreg(&mut self, slot: u8, v: Value) {
        let slot = slot & 127;
        if let Some(i) = self.pending_index(slot) {
            self.materialize(i);
        }
        self.sregs[slot as usize] = Some(v);
        self.sdirty |= 1u128 << slot;
    }

    /// A 64-bit scalar pair starting at `slot` (unaligned allowed, wraps at 128).
    pub fn sreg64(&mut self, slot: u8) -> Value {
        let lo = self.sreg(slot);
        let hi = self.sreg(slot.wrapping_add(1) & 127);
        self.concat64(lo, hi)
    }

    /// `hi:lo` as an `i64` (Cranelift's `iconcat` is only for `i128` on x64). The halves
    /// of a split `i64` give that `i64` back, constant halves a constant (no code: a
    /// 64-bit mask written and read back as a pair costs nothing).
    pub fn concat64(&mut self, lo: Value, hi: Value) -> Value {
        if let Some(&v) = self.pairs64.get(&(lo, hi)) {
            return v;
        }
        let v = match (self.const_of(lo), self.const_of(hi)) {
            (Some(l), Some(h)) => self.iconst64((h as u32 as u64) << 32 | l as u32 as u64),
            _ => {
                let l = self.b.ins().uextend(types::I64, lo);
                let h = self.b.ins().uextend(types::I64, hi);
                let h = self.b.ins().ishl_imm_u(h, 32);
                self.b.ins().bor(l, h)
            }
        };
        self.pairs64.insert((lo, hi), v);
        v
    }

    /// (low, high) halves of an `i64`.
    pub fn split64(&mut self, v: Value) -> (Value, Value) {
        let (lo, hi) = match self.const_of(v) {
            Some(k) => (self.iconst32(k as u32), self.iconst32((k >> 32) as u32)),
            None => {
                let lo = self.b.ins().ireduce(types::I32, v);
                let h = self.b.ins().ushr_imm_u(v, 32);
                (lo, self.b.ins().ireduce(types::I32, h))
            }
        };
        self.pairs64.insert((lo, hi), v);
        (lo, hi)
    }

    /// The value of an integer constant (`iconst`), if `v` is one.
    pub fn const_of(&self, v: Value) -> Option<i64> {
        use cranelift_codegen::ir::{InstructionData, Opcode, ValueDef};
        match self.b.func.dfg.value_def(v) {
            ValueDef::Result(inst, 0) => match self.b.func.dfg.insts[inst] {
                InstructionData::UnaryImm {
                    opcode: Opcode::Iconst,
                    imm,
                } => Some(imm.bits()),
                _ => None,
            },
            _ => None,
        }
    }

    pub fn set_sreg64(&mut self, slot: u8, v: Value) {
        let (lo, hi) = self.split64(v);
        self.set_sreg(slot, lo);
        self.set_sreg(slot.wrapping_add(1) & 127, hi);
    }

    /// Take the lane form of the pair at `lo` written by a chunk loop's body out of the
    /// pending masks: the 4 bits of the chunk (an `i32`), if the body wrote it.
    pub fn take_loop_bits(&mut self, lo: u8) -> Option<Value> {
        let i = self.pending.iter().position(|p| p.lo == lo)?;
        let p = self.pending.remove(i);
        p.bits[0]
    }

    /// Mark the value of a scalar slot as known to be all ones (EXEC at the entry of the
    /// all-ones variant): lane masks built from it are then omitted.
    pub fn assume_ones(&mut self, slot: u8) {
        let v = self.iconst32(u32::MAX);
        self.ones.insert(v);
        self.sregs[(slot & 127) as usize] = Some(v);
    }

    pub fn scc(&mut self) -> Value {
        if let Some(v) = self.scc {
            return v;
        }
        let v = self
            .b
            .ins()
            .load(types::I32, mflags(), self.wave, wave_off::SCC);
        self.scc = Some(v);
        v
    }

    /// Set SCC from an `i32` 0/1 (or an `i8` 0/1 from `icmp`).
    pub fn set_scc(&mut self, v: Value) {
        let v = if self.b.func.dfg.value_type(v) == types::I32 {
            v
        } else {
            self.b.ins().uextend(types::I32, v)
        };
        self.scc = Some(v);
        self.scc_dirty = true;
    }

    // ---- lane masks -------------------------------------------------------------------

    /// The `i32x4` lane mask (all ones where the bit is set) of chunk `c` of the 64-bit mask
    /// in the pair starting at `lo`. `None` when the mask is known to be all ones there.
    pub fn lanes(&mut self, lo: u8, c: usize) -> Option<Value> {
        let lo = lo & 127;
        if self.vbase.is_some() {
            // A chunk loop's body (emitted as chunk 0): EXEC, a pair written earlier in
            // this iteration, or a pair's value before the loop at this chunk.
            if lo == EXEC_LO {
                return self.loop_exec;
            }
            if let Some(v) = self
                .pending
                .iter()
                .find(|p| p.lo == lo)
                .and_then(|p| p.lanes[0])
            {
                return Some(v);
            }
            if let Some(&(_, m)) = self.loop_lanes.iter().find(|(l, _)| *l == lo) {
                return Some(m);
            }
        }
        if let Some(p) = self.pending.iter().find(|p| p.lo == lo) {
            if let Some(v) = p.lanes[c] {
                return Some(v);
            }
            let half = if c < 8 { p.old.0 } else { p.old.1 };
            return self.lanes_of(half, (c % 8) as u8);
        }
        let slot = if c < 8 { lo } else { lo.wrapping_add(1) & 127 };
        let half = self.sreg(slot);
        self.lanes_of(half, (c % 8) as u8)
    }

    /// Lane mask of nibble `nib` (lanes 4·nib..4·nib+3 of a 32-lane half) of `half`.
    fn lanes_of(&mut self, half: Value, nib: u8) -> Option<Value> {
        if self.is_ones32(half) {
            return None;
        }
        if let Some(&v) = self.lane_cache.get(&(half, nib)) {
            return Some(v);
        }
        let s = self.splat(I32X4, half);
        let sh = 4 * nib as u32;
        let bits = self.lanes32([1 << sh, 2 << sh, 4 << sh, 8 << sh]);
        let and = self.b.ins().band(s, bits);
        let zero = self.splat32(0);
        let m = self.b.ins().icmp(IntCC::NotEqual, and, zero);
        self.lane_cache.insert((half, nib), m);
        Some(m)
    }

    /// The `i32x4` lane mask of the low 4 bits of the `i32` `bits` (lane `i` set where
    /// bit `i` is): EXEC's lanes in a chunk loop.
    pub fn nibble_lanes(&mut self, bits: Value) -> Value {
        let s = self.splat(I32X4, bits);
        let k = self.lanes32([1, 2, 4, 8]);
        let and = self.b.ins().band(s, k);
        let zero = self.splat32(0);
        self.b.ins().icmp(IntCC::NotEqual, and, zero)
    }

    /// Emit `body(cx, c)` for the 16 chunks `c` of a vector operation whose only lane
    /// mask is EXEC (memory accesses): `chunk_loop` with no other mask pairs.
    pub fn for_chunks(&mut self, body: impl FnMut(&mut Cx<'a>, usize)) {
        let as_loop = self.loops && self.vbase.is_none();
        self.chunk_loop(as_loop, &[], &[], body);
    }

    /// Emit `body(cx, c)` for the 16 chunks `c`: unrolled, each chunk ended after its
    /// body, or — `as_loop` (the quick tier) — once, as the body of a loop over the
    /// chunks (emitted as chunk 0: VGPR chunks at `wave + 16 × chunk`, `loop_chunk` the
    /// chunk's number), for a sixteenth of the IR. Registers cached before are stored and
    /// forgotten first: the body reads every register from memory at its chunk's
    /// address. EXEC is read once as an `i64` (unless known to be all ones), from which
    /// the body takes its chunk's 4 bits (`loop_exec`). `pairs` are the other mask pairs
    /// the body reads or writes lane by lane: `loop_lanes` holds their chunk's lanes of
    /// the values before the loop. The pairs in `written` (those of `pairs` the body
    /// writes, and EXEC if its last instruction writes it: every instruction of the body
    /// reads EXEC before the loop) are accumulated chunk by chunk in loop-carried `i64`s
    /// (`take_loop_bits`) and become scalars after the loop. `body` must not depend on `c`
    /// other than through the register cache.
    pub fn chunk_loop(
        &mut self,
        as_loop: bool,
        pairs: &[u8],
        written: &[u8],
        mut body: impl FnMut(&mut Cx<'a>, usize),
    ) {
        if !as_loop {
            for c in 0..CHUNKS {
                body(self, c);
                self.end_chunk(c);
            }
            return;
        }
        for c in 0..CHUNKS {
            self.end_chunk(c);
        }
        let exec = (!self.exec_known_ones()).then(|| self.sreg64(EXEC_LO));
        let before: Vec<Value> = pairs.iter().map(|&m| self.sreg64(m)).collect();
        let lp = self.b.create_block();
        let done = self.b.create_block();
        let off = self.b.append_block_param(lp, self.ptr);
        let accs: Vec<Value> = written
            .iter()
            .map(|_| self.b.append_block_param(lp, types::I64))
            .collect();
        let zero = self.b.ins().iconst(self.ptr, 0);
        let mut args = vec![BlockArg::Value(zero)];
        if !written.is_empty() {
            let zero64 = self.iconst64(0);
            args.extend(written.iter().map(|_| BlockArg::Value(zero64)));
        }
        self.b.ins().jump(lp, &args);
        self.b.switch_to_block(lp);
        self.vbase = Some(self.b.ins().iadd(self.wave, off));
        // Chunk k's lanes are bits 4k..4k+3 of a mask; `off` is 16k.
        let sh = (exec.is_some() || !pairs.is_empty() || !written.is_empty()).then(|| {
            let sh = self.b.ins().ushr_imm_u(off, 2);
            if self.ptr == types::I64 {
                sh
            } else {
                self.b.ins().uextend(types::I64, sh)
            }
        });
        let nib = |cx: &mut Cx<'a>, v: Value, sh: Value| {
            let bits = cx.b.ins().ushr(v, sh);
            let bits = cx.b.ins().ireduce(types::I32, bits);
            cx.nibble_lanes(bits)
        };
        if let (Some(e), Some(sh)) = (exec, sh) {
            self.loop_exec = Some(nib(self, e, sh));
        }
        if let Some(sh) = sh {
            self.loop_lanes = pairs
                .iter()
                .zip(&before)
                .map(|(&m, &v)| (m, nib(self, v, sh)))
                .collect();
        }
        let k = self.b.ins().ushr_imm_u(off, 4);
        self.loop_chunk = Some(self.b.ins().ireduce(types::I32, k));
        body(self, 0);
        // Before the chunk ends: each written pair's 4 bits of this chunk into its
        // accumulator (taken out of the pending masks: the scalars are set after the loop).
        let accs_next: Vec<Value> = written
            .iter()
            .zip(&accs)
            .map(|(&m, &acc)| match (self.take_loop_bits(m), sh) {
                (Some(b), Some(sh)) => {
                    let b = self.b.ins().uextend(types::I64, b);
                    let b = self.b.ins().ishl(b, sh);
                    self.b.ins().bor(acc, b)
                }
                _ => acc,
            })
            .collect();
        self.end_chunk(0);
        self.vbase = None;
        self.loop_exec = None;
        self.loop_chunk = None;
        self.loop_lanes.clear();
        let next = self.b.ins().iadd_imm_u(off, 16);
        let more = self
            .b
            .ins()
            .icmp_imm_u(IntCC::UnsignedLessThan, next, (16 * CHUNKS) as i64);
        let mut args = vec![BlockArg::Value(next)];
        args.extend(accs_next.iter().map(|&v| BlockArg::Value(v)));
        self.b.ins().brif(more, lp, &args, done, &[]);
        self.b.switch_to_block(done);
        for (&m, &v) in written.iter().zip(&accs_next) {
            self.set_sreg64(m, v);
        }
    }

    /// EXEC's lane mask for chunk `c` (`None`: all lanes active).
    pub fn exec_lanes(&mut self, c: usize) -> Option<Value> {
        self.lanes(EXEC_LO, c)
    }

    /// Write chunk `c` of the 64-bit mask in the pair at `lo` in lane form (`mask` is an
    /// `i32x4` of all-ones/zero lanes).
    pub fn set_lanes(&mut self, lo: u8, c: usize, mask: Value) {
        let lo = lo & 127;
        let bits = self.b.ins().vhigh_bits(types::I32, mask);
        if let Some(i) = self.pending.iter().position(|p| p.lo == lo) {
            if self.pending[i].folded & (1 << c) != 0 {
                // Written again after its chunk was folded: take it out of the fold.
                let (h, n) = (c / 8, c % 8);
                if let Some(a) = self.pending[i].acc[h] {
                    let a = self
                        .b
                        .ins()
                        .band_imm_u(a, !(15i64 << (4 * n)) & 0xffff_ffff);
                    self.pending[i].acc[h] = Some(a);
                }
                self.pending[i].folded &= !(1 << c);
            }
            let p = &mut self.pending[i];
            p.lanes[c] = Some(mask);
            p.bits[c] = Some(bits);
            return;
        }
        // Another pending pair overlapping this one is complete (the planner ends a
        // segment before such a write): turn it into scalars first.
        while let Some(i) = self.pending.iter().position(|p| pairs_overlap(p.lo, lo)) {
            self.materialize(i);
        }
        let hi_slot = lo.wrapping_add(1) & 127;
        let old = (self.sreg(lo), self.sreg(hi_slot));
        let mut lanes = [None; CHUNKS];
        lanes[c] = Some(mask);
        let mut bs = [None; CHUNKS];
        bs[c] = Some(bits);
        self.pending.push(Pending {
            lo,
            lanes,
            bits: bs,
            acc: [None; 2],
            folded: 0,
            old,
        });
        // The scalar cache of both halves is superseded by the lane form.
        self.sregs[lo as usize] = None;
        self.sregs[hi_slot as usize] = None;
        self.sdirty &= !(1u128 << lo | 1u128 << hi_slot);
    }

    /// Whether the pair at `lo` (or a pair overlapping it) is held in lane form.
    pub fn is_pending(&self, slot: u8) -> bool {
        self.pending_index(slot & 127).is_some()
    }

    /// The scalar halves of a pending mask, computed from its lane form (chunks never
    /// written keep their old bits).
    fn pending_scalars(&mut self, p: &Pending) -> (Value, Value) {
        let mut halves = [p.old.0, p.old.1];
        for (h, half) in halves.iter_mut().enumerate() {
            let old = *half;
            let mut acc: Option<Value> = p.acc[h];
            let mut unwritten = 0i64;
            for n in 0..8usize {
                let c = h * 8 + n;
                if p.folded & (1 << c) != 0 {
                    continue;
                }
                let bits = match (p.bits[c], p.lanes[c]) {
                    (Some(bits), _) => bits,
                    (None, Some(m)) => self.b.ins().vhigh_bits(types::I32, m),
                    (None, None) => {
                        unwritten |= 15i64 << (4 * n);
                        continue;
                    }
                };
                let part = if n == 0 {
                    bits
                } else {
                    self.b.ins().ishl_imm_u(bits, (4 * n) as i64)
                };
                acc = Some(match acc {
                    None => part,
                    Some(a) => self.b.ins().bor(a, part),
                });
            }
            if unwritten != 0 {
                let part = self.b.ins().band_imm_u(old, unwritten);
                acc = Some(match acc {
                    None => part,
                    Some(a) => self.b.ins().bor(a, part),
                });
            }
            if let Some(a) = acc {
                *half = a;
            }
        }
        (halves[0], halves[1])
    }

    /// The end of chunk `c`: fold the bits of chunk `c` of each pending mask into its
    /// running scalar halves (one value per half stays live instead of one per chunk).
    fn fold_pending(&mut self, c: usize) {
        let (h, n) = (c / 8, c % 8);
        for i in 0..self.pending.len() {
            let Some(bits) = self.pending[i].bits[c] else {
                continue;
            };
            if self.pending[i].folded & (1 << c) != 0 {
                continue;
            }
            let part = if n == 0 {
                bits
            } else {
                self.b.ins().ishl_imm_u(bits, (4 * n) as i64)
            };
            let acc = match self.pending[i].acc[h] {
                None => part,
                Some(a) => self.b.ins().bor(a, part),
            };
            let p = &mut self.pending[i];
            p.acc[h] = Some(acc);
            p.folded |= 1 << c;
            p.bits[c] = None;
            // Written to the half's slot in the wave (a partial value: the complete one is
            // stored when the mask is materialised or flushed, before anything reads the
            // slot): the store anchors the compare and `vhigh_bits` of this chunk here —
            // Cranelift's optimiser places pure instructions at their first use by a
            // store, and the last use would keep this chunk's operands live (spilled) to
            // the end of the unit.
            let slot = if h == 0 {
                p.lo
            } else {
                p.lo.wrapping_add(1) & 127
            };
            self.b
                .ins()
                .store(mflags(), acc, self.wave, wave_off::sreg(slot));
        }
    }

    /// Turn pending mask `i` into its scalar form (cached; its lanes stay cached too).
    fn materialize(&mut self, i: usize) {
        let p = self.pending.remove(i);
        let (lo, hi) = self.pending_scalars(&p);
        for (c, m) in p.lanes.iter().enumerate() {
            if let Some(m) = m {
                let half = if c < 8 { lo } else { hi };
                self.lane_cache.insert((half, (c % 8) as u8), *m);
            }
        }
        let hi_slot = p.lo.wrapping_add(1) & 127;
        self.sregs[p.lo as usize] = Some(lo);
        self.sregs[hi_slot as usize] = Some(hi);
        self.sdirty |= 1u128 << p.lo | 1u128 << hi_slot;
    }

    /// Materialise every pending mask (before scalar code that may read any slot).
    pub fn materialize_all(&mut self) {
        while !self.pending.is_empty() {
            self.materialize(0);
        }
    }

    // ---- flushing ---------------------------------------------------------------------

    /// Store every dirty register to the wave, on the main line, and keep the cache
    /// (values stay valid: memory now equals them).
    pub fn flush(&mut self) {
        self.materialize_all();
        for r in live_regs(self.vlive) {
            let d = self.vregs[r].dirty;
            if d == 0 {
                continue;
            }
            for c in 0..CHUNKS {
                if d & (1 << c) != 0 && self.vregs[r].val[c].is_some() {
                    let v = self.vreg(r as u8, c);
                    let off = wave_off::vgpr_chunk(r as u8, c);
                    self.b.ins().store(mflags(), v, self.wave, off);
                }
            }
            self.vregs[r].dirty = 0;
        }
        self.store_dirty_scalars();
        self.sdirty = 0;
        self.scc_dirty = false;
    }

    /// Store the dirty scalar slots and SCC to the wave (the cache is left as it is).
    fn store_dirty_scalars(&mut self) {
        for s in 0..128u8 {
            if self.sdirty & (1u128 << s) != 0 {
                if let Some(v) = self.sregs[s as usize] {
                    self.b
                        .ins()
                        .store(mflags(), v, self.wave, wave_off::sreg(s));
                }
            }
        }
        if self.scc_dirty {
            if let Some(v) = self.scc {
                self.b.ins().store(mflags(), v, self.wave, wave_off::SCC);
            }
        }
    }

    /// Store chunk `c` of `v[reg]` now if it is dirty (just written: the value then need
    /// not stay live to the end of the chunk); it stays cached, clean.
    pub fn store_chunk(&mut self, reg: u8, c: usize) {
        let r = reg as usize;
        if self.vregs[r].dirty & (1 << c) == 0 || self.vregs[r].val[c].is_none() {
            return;
        }
        // A raw value stays cached raw for the operations that may read it so; the
        // canonical one is stored.
        let v = self.vreg(reg, c);
        let off = wave_off::vgpr_chunk(reg, c);
        let base = self.vbase.unwrap_or(self.wave);
        self.b.ins().store(mflags(), v, base, off);
        self.vregs[r].dirty &= !(1 << c);
    }

    /// The end of chunk `c` of a chunk-by-chunk segment: store the chunk's dirty VGPR
    /// values and forget the chunk (a later segment reloads it), and forget the vector
    /// constants (the next chunk materialises its own, usually folded into an operand).
    /// Nothing then stays live from one chunk to the next but scalars and lane masks:
    /// values kept across all 16 chunks do not fit the 16 XMM registers and were spilled
    /// to the stack and reloaded — a store and a load more than this store and reload.
    pub fn end_chunk(&mut self, c: usize) {
        for r in live_regs(self.vlive) {
            if self.vregs[r].val[c].is_none() {
                continue;
            }
            self.store_chunk(r as u8, c);
            self.vregs[r].val[c] = None;
            self.vregs[r].raw[c] = Raw::No;
            if self.vregs[r].val.iter().all(Option::is_none) {
                self.vlive[r / 64] &= !(1 << (r % 64));
            }
        }
        self.fold_pending(c);
        self.const_cache.clear();
    }

    /// Store every dirty register to the wave from a side exit, leaving the cache as it
    /// is: the main line continues with its values still dirty. Emits only uncached
    /// instructions (nothing defined here may be reused by the main line).
    pub fn flush_side(&mut self) {
        let pending = self.pending.clone();
        for p in &pending {
            let (lo, hi) = self.pending_scalars(p);
            let hi_slot = p.lo.wrapping_add(1) & 127;
            self.b
                .ins()
                .store(mflags(), lo, self.wave, wave_off::sreg(p.lo));
            self.b
                .ins()
                .store(mflags(), hi, self.wave, wave_off::sreg(hi_slot));
        }
        for r in live_regs(self.vlive) {
            let d = self.vregs[r].dirty;
            for c in 0..CHUNKS {
                if d & (1 << c) != 0 {
                    if let Some(v) = self.vreg_stored_uncached(r as u8, c) {
                        let off = wave_off::vgpr_chunk(r as u8, c);
                        self.b.ins().store(mflags(), v, self.wave, off);
                    }
                }
            }
        }
        self.store_dirty_scalars();
    }

    /// Forget every cached register (after a helper that may have changed any of them).
    /// Must follow a `flush`.
    pub fn invalidate(&mut self, keep_exec: bool) {
        debug_assert!(self.pending.is_empty() && self.sdirty == 0);
        for r in live_regs(self.vlive) {
            self.vregs[r] = VReg::default();
        }
        self.vlive = [0; 4];
        let exec = (self.sregs[EXEC_LO as usize], self.sregs[EXEC_HI as usize]);
        self.sregs = [None; 128];
        if keep_exec {
            self.sregs[EXEC_LO as usize] = exec.0;
            self.sregs[EXEC_HI as usize] = exec.1;
        }
        self.scc = None;
    }

    /// Forget every cached value derived from others (lane masks, splats, constants,
    /// flushes, NaN tests, canonical and zipped forms, shifts, VINTRP's M0 parts), after
    /// `invalidate`: at the start and end of code emitted twice on two paths
    /// (`gcn::emit_segment`), so that neither path, nor the code after them, reuses a
    /// value the other path defined. The LDS facts and FLAT contiguity tests stay: they
    /// are made on the main line only. Facts about values (`ones`, ranges, known bits)
    /// stay true and are only looked up for values someone holds.
    pub fn forget_values(&mut self) {
        self.lane_cache.clear();
        self.splat_cache.clear();
        self.const_cache.clear();
        self.pairs64.clear();
        self.vintrp_m0 = None;
        self.flushed.clear();
        self.zips.clear();
        self.canon_of.clear();
        self.canon64_of.clear();
        self.imm_ops.clear();
        self.nan_tests.clear();
    }

    /// EXEC's cached halves (for `restore_exec`).
    pub fn exec_cached(&self) -> [Option<Value>; 2] {
        [self.sregs[EXEC_LO as usize], self.sregs[EXEC_HI as usize]]
    }

    /// Cache EXEC's halves as `v` again (`exec_cached`'s values, clean), after an
    /// `invalidate`: memory holds them, and they were defined where they dominate what
    /// follows.
    pub fn restore_exec(&mut self, v: [Option<Value>; 2]) {
        self.sregs[EXEC_LO as usize] = v[0];
        self.sregs[EXEC_HI as usize] = v[1];
    }

    /// Whether EXEC is statically all ones at this point.
    pub fn exec_known_ones(&self) -> bool {
        self.pending_index(EXEC_LO).is_none()
            && self.pending_index(EXEC_HI).is_none()
            && matches!(self.sregs[EXEC_LO as usize], Some(v) if self.is_ones32(v))
            && matches!(self.sregs[EXEC_HI as usize], Some(v) if self.is_ones32(v))
    }

    /// Whether the `i32` `v` is known to be all ones: EXEC at the entry of the all-ones
    /// variant, or a constant (a mask such as `s_or_b64 exec, exec, s[0:1]` folded by
    /// `gcn::salu` keeps EXEC known, and the code after it unmasked).
    fn is_ones32(&self, v: Value) -> bool {
        self.ones.contains(&v)
            || (self.b.func.dfg.value_type(v) == types::I32
                && self.const_of(v).is_some_and(|k| k as u32 == u32::MAX))
    }

    // ---- control ----------------------------------------------------------------------

    pub fn store_pc(&mut self, pc: u32) {
        let v = self.iconst32(pc);
        self.b.ins().store(mflags(), v, self.wave, wave_off::PC);
    }

    /// Return `code` from the unit (state must already be flushed).
    pub fn ret(&mut self, code: u32) {
        let v = self.iconst32(code);
        self.b.ins().return_(&[v]);
    }

    /// Open a new block and make it current.
    pub fn new_block(&mut self) -> Block {
        self.b.create_block()
    }

    /// Budget check at a unit header: enough instructions left for `len` more, else return
    /// to the dispatcher at `pc` (nothing is dirty at a header).
    pub fn budget_guard(&mut self, len: u32, pc: u32) {
        let b = self
            .b
            .ins()
            .load(types::I64, mflags(), self.jctx, OFF_BUDGET);
        let nb = self.b.ins().iadd_imm_s(b, -(len as i64));
        let short = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, nb, 0);
        let out = self.b.create_block();
        let go = self.b.create_block();
        self.b.ins().brif(short, out, &[], go, &[]);
        self.b.switch_to_block(out);
        self.b.seal_block(out);
        self.store_pc(pc);
        self.ret(crate::ctx::EXIT_NEXT);
        self.b.switch_to_block(go);
        self.b.seal_block(go);
        self.b.ins().store(mflags(), nb, self.jctx, OFF_BUDGET);
    }

    /// The signature of `ctx::helper_step` (`(wave, ctx, i64) -> i32`, C convention),
    /// imported once per function.
    pub fn helper_sig(&mut self) -> cranelift_codegen::ir::SigRef {
        let params = [self.ptr, self.ptr, types::I64];
        let s = self.import_sig_once(self.helper_sig, CallConv::SystemV, &params);
        self.helper_sig = Some(s);
        s
    }

    /// The tail-call signature of compiled blocks (`(wave, ctx) -> i32`), imported once
    /// per function.
    pub fn tail_sig(&mut self) -> cranelift_codegen::ir::SigRef {
        let params = [self.ptr, self.ptr];
        let s = self.import_sig_once(self.tail_sig, CallConv::Tail, &params);
        self.tail_sig = Some(s);
        s
    }

    /// `known`, or a new import of the signature `params -> i32` under `conv`.
    fn import_sig_once(
        &mut self,
        known: Option<cranelift_codegen::ir::SigRef>,
        conv: CallConv,
        params: &[types::Type],
    ) -> cranelift_codegen::ir::SigRef {
        if let Some(s) = known {
            return s;
        }
        let mut sig = Signature::new(conv);
        sig.params.extend(params.iter().map(|&t| AbiParam::new(t)));
        sig.returns.push(AbiParam::new(types::I32));
        self.b.import_signature(sig)
    }
}
