//! Random initial GCN states: register values biased to float specials and integer
//! edges (per lane, per register, or f64 pairs), EXEC/VCC patterns, M0, SCC, MODE
//! variations, random LDS and memory contents, and the reserved address registers of
//! `layout` — in range, except now and then one lane or one register deliberately out of
//! range or misaligned, so that both engines' errors are compared too; the buffer
//! resource raw or structured, now and then swizzled or adding the lane to the index. One state in three
//! also gets a drawn pixel-shader wave's inputs (`drawn`).

use rand::Rng;

use super::gcn::mode_value;
use super::layout::*;
use super::values;
use crate::arch::Gen;
use crate::state::{Wave, LANES};

/// Everything a generated GCN program runs on. `mem` lists the mapped regions and their
/// bytes (a run's `Memory` is mapped and written from it).
#[derive(Clone)]
pub struct GcnState {
    pub wave: Box<Wave>,
    pub lds: Vec<u8>,
    pub mem: Vec<(u64, Vec<u8>)>,
}

impl GcnState {
    /// A state to generate into (`gcn_state_into`): every register zero, no LDS, no memory.
    pub fn empty(gen: Gen) -> GcnState {
        GcnState {
            wave: Wave::new(gen),
            lds: Vec::new(),
            mem: Vec::new(),
        }
    }
}

/// A random state for `gen`.
pub fn gcn_state(gen: Gen, rng: &mut impl Rng) -> GcnState {
    let mut st = GcnState::empty(gen);
    gcn_state_into(gen, rng, &mut st);
    st
}

/// `gcn_state` into `st`, reusing its allocations (a campaign's worker draws each further
/// state of each program into one buffer): the same state `gcn_state` returns for the
/// same `rng`, whatever `st` held before.
pub fn gcn_state_into(gen: Gen, rng: &mut impl Rng, st: &mut GcnState) {
    // `Wave::new`'s state, in place (every field named: a new one does not build until
    // it is reset here).
    let Wave {
        vgpr,
        sgpr,
        exec,
        vcc,
        m0,
        scc,
        mode,
        pc,
        code_base,
        gen: wave_gen,
        exports,
    } = &mut *st.wave;
    vgpr.as_flattened_mut().fill(0);
    sgpr.fill(0);
    *exec = u64::MAX;
    *vcc = 0;
    *m0 = 0;
    *scc = 0;
    *mode = crate::state::MODE_DEFAULT;
    *pc = 0;
    *code_base = 0;
    *wave_gen = gen;
    exports.clear();
    let w = &mut *st.wave;
    // The per-lane values, LDS and memory come from one `values::Mix` (`values::word`'s
    // mix, a splitmix64 step each); values per register or per state from `rng`.
    let mut mix = values::Mix::new(rng);
    // Random VGPRs: the pool only (nothing else is read except the reserved registers).
    let mut r = 0usize;
    while r < VPOOL as usize {
        match rng.random_range(0..10) {
            0..=1 => {
                let x = values::word(rng);
                w.vgpr[r] = [x; LANES];
            }
            2..=6 => {
                mix.fill(&mut w.vgpr[r]);
            }
            7 => {
                let (m, a) = (rng.random_range(0..5u32), rng.random::<u32>() & 0xff);
                for l in 0..LANES {
                    w.vgpr[r][l] = (l as u32).wrapping_mul(m).wrapping_add(a);
                }
            }
            _ if r + 1 < VPOOL as usize => {
                let uniform = rng.random_bool(0.3).then(|| values::dword_pair(rng));
                for l in 0..LANES {
                    let d = uniform.unwrap_or_else(|| mix.pair());
                    w.vgpr[r][l] = d as u32;
                    w.vgpr[r + 1][l] = (d >> 32) as u32;
                }
                r += 1;
            }
            _ => w.vgpr[r] = [values::word(rng); LANES],
        }
        r += 1;
    }
    let mut s = 0usize;
    while s < SPOOL as usize {
        if rng.random_bool(0.2) && s + 1 < SPOOL as usize {
            let d = values::dword_pair(rng);
            w.sgpr[s] = d as u32;
            w.sgpr[s + 1] = (d >> 32) as u32;
            s += 2;
        } else {
            w.sgpr[s] = values::word(rng);
            s += 1;
        }
    }
    w.exec = values::lane_mask(rng);
    w.vcc = values::lane_mask(rng);
    w.scc = rng.random_range(0..2);
    // M0 indexes s_movrel*/v_movrel* (small values keep them in range) and holds VINTRP's
    // LDS offset (bits 15:0) and NEWPRIMMASK (bits 30:16).
    w.m0 = match rng.random_range(0..20) {
        0..=11 => rng.random_range(0..16),
        12..=14 => rng.random_range(0..16) * 16,
        15 => (rng.random::<u32>() & 0x7FFF_0000) | (rng.random_range(0..16) * 16),
        16 => u32::MAX,
        _ => values::word(rng),
    };
    w.mode = mode_value(rng);

    // Reserved address registers (layout.rs).
    let lds_base = rng.random_range(0..(LDS_FILLED as u32 - 1024) / 16) * 16;
    let buf_k = rng.random_range(0..2u32) * 8;
    let flat_k = rng.random_range(0..2u64) * 8;
    for l in 0..LANES {
        let l32 = l as u32;
        w.vgpr[V_LDS_ADDR as usize][l] = lds_base + 16 * l32;
        w.vgpr[V_BUF_IDX as usize][l] = l32;
        w.vgpr[V_BUF_OFF as usize][l] = 16 * l32 + buf_k;
        let a = MEM_BASE + 16 * l as u64 + flat_k;
        w.vgpr[V_FLAT_ADDR as usize][l] = a as u32;
        w.vgpr[V_FLAT_ADDR as usize + 1][l] = (a >> 32) as u32;
        w.vgpr[V_ADDR64 as usize][l] = 16 * l32;
        w.vgpr[V_ADDR64 as usize + 1][l] = 0;
    }
    // Now and then an address goes wrong on purpose: one lane far out, or all misaligned.
    if rng.random_bool(0.05) {
        let reg = [V_LDS_ADDR, V_BUF_OFF, V_FLAT_ADDR, V_ADDR64][rng.random_range(0..4)] as usize;
        if rng.random_bool(0.5) {
            let l = rng.random_range(0..LANES);
            w.vgpr[reg][l] = w.vgpr[reg][l].wrapping_add(0x0100_0000);
        } else {
            let k = rng.random_range(1..4);
            for l in 0..LANES {
                w.vgpr[reg][l] = w.vgpr[reg][l].wrapping_add(k);
            }
        }
    }
    // The buffer resource: raw or 16-byte records, mostly the whole region.
    let stride: u32 = if rng.random_bool(0.5) { 0 } else { 16 };
    let bytes = if rng.random_bool(0.9) {
        MEM_SIZE as u32
    } else {
        rng.random_range(0..MEM_SIZE as u32)
    };
    let num_records = bytes.checked_div(stride).unwrap_or(bytes);
    let word3 = if rng.random_bool(0.6) {
        // DST_SEL xyzw, NUM_FORMAT float, DATA_FORMAT 32.
        0x0002_7FAC
    } else {
        rng.random::<u32>() & 0x007F_FFFF
    };
    let mut rsrc = [
        MEM_BASE as u32,
        (MEM_BASE >> 32) as u32 | stride << 16,
        num_records,
        word3,
    ];
    // Now and then swizzled (as the scratch resource: ELEMENT_SIZE 4, INDEX_STRIDE 64 and
    // ADD_TID_ENABLE, or any sizes) or with the lane number added to the index. Swizzled
    // accesses stay in the region for small offsets without OFFEN.
    match rng.random_range(0..10) {
        0 => {
            rsrc[1] |= 1 << 31;
            rsrc[3] = (rsrc[3] & !(0xf << 19)) | 1 << 19 | 3 << 21 | 1 << 23;
        }
        1 => {
            rsrc[1] |= 1 << 31;
            rsrc[3] = (rsrc[3] & !(0x1f << 19)) | rng.random_range(0..32u32) << 19;
        }
        2 => rsrc[3] |= 1 << 23,
        _ => {}
    }
    for (i, d) in rsrc.iter().enumerate() {
        w.sgpr[S_RSRC as usize + i] = *d;
    }
    let base = MEM_BASE + 64 * rng.random_range(0..16u64);
    w.sgpr[S_BASE as usize] = base as u32;
    w.sgpr[S_BASE as usize + 1] = (base >> 32) as u32;

    let lds = &mut st.lds;
    lds.clear();
    lds.resize(LDS_SIZE, 0);
    mix.fill_bytes(&mut lds[..LDS_FILLED]);
    st.mem.truncate(1);
    if st.mem.is_empty() {
        st.mem.push((MEM_BASE, Vec::new()));
    }
    let (base, mem) = &mut st.mem[0];
    *base = MEM_BASE;
    mem.clear();
    mem.resize(MEM_SIZE as usize, 0);
    mix.fill_bytes(mem);
    // One state in three is a drawn pixel-shader wave: valid M0 and LDS parameters, I/J.
    if rng.random_bool(1.0 / 3.0) {
        super::drawn::apply(gen, w, lds, LDS_FILLED, rng);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_hold_specials_and_valid_addresses() {
        let mut nan_payloads = 0;
        let mut denormals = 0;
        let mut exec_full = 0;
        for i in 0..200 {
            let st = gcn_state(Gen::Gfx8, &mut crate::progen::rng(3, i));
            let w = &st.wave;
            for r in 0..VPOOL as usize {
                for &x in &w.vgpr[r] {
                    let (e, m) = ((x >> 23) & 0xff, x & 0x7f_ffff);
                    if e == 0xff && m != 0 && m != 0x40_0000 {
                        nan_payloads += 1;
                    }
                    if e == 0 && m != 0 {
                        denormals += 1;
                    }
                }
            }
            exec_full += (w.exec == u64::MAX) as u32;
            // The buffer resource describes the mapped region.
            assert_eq!(w.sgpr[S_RSRC as usize], MEM_BASE as u32);
            assert_eq!(st.lds.len(), LDS_SIZE);
            assert_eq!(st.mem[0].1.len() as u64, MEM_SIZE);
            assert_eq!(w.gen, Gen::Gfx8);
            assert!(w.mode < 0x400);
        }
        assert!(nan_payloads > 100, "{nan_payloads}");
        assert!(denormals > 100, "{denormals}");
        assert!(exec_full > 40 && exec_full < 150, "{exec_full}");
    }

    #[test]
    fn resources_are_sometimes_swizzled_or_add_the_lane() {
        let (mut swz, mut tid, mut scratch) = (0, 0, 0);
        for i in 0..400 {
            let st = gcn_state(Gen::Gfx6, &mut crate::progen::rng(7, i));
            let r = &st.wave.sgpr[S_RSRC as usize..S_RSRC as usize + 4];
            swz += r[1] >> 31;
            tid += (r[3] >> 23) & 1;
            // The scratch layout: ELEMENT_SIZE 4 (code 1), INDEX_STRIDE 64 (code 3).
            scratch += (r[1] >> 31 == 1 && (r[3] >> 19) & 0xf == 1 | 3 << 2) as u32;
        }
        // 2 in 10 swizzled (1 in 10 the scratch layout, and 1 in 160 by chance), 1 in 4
        // adding the lane (the scratch layout, 1 in 10 alone, half the random sizes).
        assert!((40..120).contains(&swz), "{swz}");
        assert!((25..100).contains(&scratch), "{scratch}");
        assert!((60..150).contains(&tid), "{tid}");
    }

    #[test]
    fn addresses_are_in_range_unless_perturbed() {
        let mut in_range = 0;
        for i in 0..100 {
            let st = gcn_state(Gen::Gfx7, &mut crate::progen::rng(4, i));
            let w = &st.wave;
            let ok = (0..LANES).all(|l| {
                let a = w.vgpr[V_FLAT_ADDR as usize][l] as u64
                    | (w.vgpr[V_FLAT_ADDR as usize + 1][l] as u64) << 32;
                let d = w.vgpr[V_LDS_ADDR as usize][l] as usize;
                a >= MEM_BASE
                    && a + 16 <= MEM_BASE + MEM_SIZE
                    && a.is_multiple_of(4)
                    && d + 16 <= LDS_SIZE
                    && d.is_multiple_of(16)
            });
            in_range += ok as u32;
        }
        assert!(in_range >= 85, "{in_range}");
    }
}
