//! Profiling: counts on hand-made programs whose numbers are worked out by hand (a loop of
//! N iterations, a divergent branch with a known lane split, LDS accesses with 0 to 32-way
//! bank conflicts, strided global accesses of known size), equal on every engine; the
//! occupancy rules on hand-computed cases; OpenCL kernels profiled on every engine with the
//! same counts; the CLI's `--profile` and `profile-report`.

use wavejit::device::Arg;
use wavejit::isa::ir::Program;
use wavejit::isa::state::{Lds, Memory, Wave};
use wavejit::isa::{Arch, Gen};
use wavejit::profile::{occupancy, profile_wave, InstClass, KernelProfile, Run};
use wavejit::Engine;
use wavejit_testkit::launch::{build, device, engines, CPUS};

const ENGINES: [Engine; 4] = [Engine::Interp, Engine::Jit, Engine::Tiered, Engine::Diff];

/// The profile of one wave of `src` on `engine`, after `setup` prepared its state.
fn profile(
    gen: Gen,
    src: &str,
    engine: Engine,
    setup: &dyn Fn(&mut Wave, &mut Memory),
) -> KernelProfile {
    let code = wavejit::assemble(Arch::Gcn(gen), src).expect("assembles");
    let prog = Program::new(Arch::Gcn(gen), &code);
    let mut wave = Wave::new(gen);
    let mut lds = Lds::new(65536);
    let mut mem = Memory::new();
    setup(&mut wave, &mut mem);
    let (_, counts, barriers) = profile_wave(engine, &prog, &mut wave, &mut lds, &mem, 1 << 20)
        .unwrap_or_else(|e| panic!("{engine:?}: {e}"));
    KernelProfile::build(Run {
        kernel: "test",
        gen,
        engine: engine.name(),
        prog: &prog,
        counts: &counts,
        waves: 1,
        barriers,
        barrier_waves: barriers,
        static_facts: None,
    })
}

/// The row of the instruction whose text starts with `prefix` (the `n`-th such).
fn row<'a>(k: &'a KernelProfile, prefix: &str, n: usize) -> &'a wavejit::profile::InstRow {
    k.find(prefix, n)
        .unwrap_or_else(|| panic!("no {prefix} #{n} in {:#?}", k.insts))
}

/// Every engine gives the same profile; returns it.
fn on_every_engine(gen: Gen, src: &str, setup: &dyn Fn(&mut Wave, &mut Memory)) -> KernelProfile {
    let base = profile(gen, src, Engine::Interp, setup);
    for e in &ENGINES[1..] {
        let mut p = profile(gen, src, *e, setup);
        p.engine = base.engine.clone();
        assert_eq!(p, base, "{e:?} counts differ from the interpreter's");
    }
    base
}

fn lane_ids(w: &mut Wave) {
    for l in 0..64 {
        w.vgpr[0][l] = l as u32;
    }
}

#[test]
fn a_loop_of_n_iterations() {
    let src = "
  s_mov_b32 s0, 0
loop:
  s_add_u32 s0, s0, 1
  v_add_u32 v1, vcc, 1, v1
  s_cmp_lt_u32 s0, 100
  s_cbranch_scc1 loop
  s_endpgm
";
    // 32 of 64 lanes active.
    let k = on_every_engine(Gen::Gfx8, src, &|w, _| w.exec = 0x0000_ffff_0000_ffff);
    assert_eq!(row(&k, "s_mov_b32", 0).execs, 1);
    assert_eq!(row(&k, "s_add_u32", 0).execs, 100);
    let v = row(&k, "v_add", 0);
    assert_eq!((v.execs, v.active_lanes), (100, 3200));
    let b = row(&k, "s_cbranch_scc1", 0);
    assert_eq!((b.execs, b.taken, b.not_taken), (100, 99, 1));
    let t = &k.totals;
    assert_eq!(t.insts, 1 + 4 * 100 + 1);
    assert_eq!((t.valu, t.branch, t.salu), (100, 100, 202));
    assert_eq!(t.valu_utilization, 50.0);
    assert_eq!((t.branches_taken, t.branches_not_taken), (99, 1));
}

#[test]
fn a_divergent_branch_with_a_known_lane_split() {
    let src = "
  v_cmp_gt_u32 vcc, 20, v0
  s_and_saveexec_b64 s[2:3], vcc
  s_cbranch_execz else
  v_mov_b32 v1, 1
else:
  s_xor_b64 exec, s[2:3], exec
  s_cbranch_execz end
  v_mov_b32 v1, 2
end:
  s_mov_b64 exec, s[2:3]
  v_mov_b32 v2, 3
  s_endpgm
";
    let k = on_every_engine(Gen::Gfx7, src, &|w, _| lane_ids(w));
    // Lanes 0-19 take the first side (20), lanes 20-63 the second (44).
    let lanes = |p: &str, n| row(&k, p, n).active_lanes;
    assert_eq!(lanes("v_cmp_gt_u32", 0), 64);
    assert_eq!(lanes("s_and_saveexec_b64", 0), 64, "lanes before it runs");
    assert_eq!(lanes("s_cbranch_execz", 0), 20);
    assert_eq!(lanes("v_mov_b32", 0), 20);
    assert_eq!(lanes("s_cbranch_execz", 1), 44);
    assert_eq!(lanes("v_mov_b32", 1), 44);
    assert_eq!(lanes("v_mov_b32", 2), 64);
    for n in 0..2 {
        let b = row(&k, "s_cbranch_execz", n);
        assert_eq!((b.taken, b.not_taken), (0, 1), "neither side is empty");
    }
    assert_eq!(
        k.totals.valu_utilization,
        100.0 * (64 + 20 + 44 + 64) as f64 / 256.0
    );
}

#[test]
fn an_empty_side_is_skipped_and_counted_as_taken() {
    let src = "
  v_cmp_gt_u32 vcc, 0, v0
  s_and_saveexec_b64 s[2:3], vcc
  s_cbranch_execz skip
  v_mov_b32 v1, 1
skip:
  s_mov_b64 exec, s[2:3]
  s_endpgm
";
    let k = on_every_engine(Gen::Gfx6, src, &|w, _| lane_ids(w));
    let b = row(&k, "s_cbranch_execz", 0);
    assert_eq!(
        (b.execs, b.taken, b.not_taken, b.active_lanes),
        (1, 1, 0, 0)
    );
    assert_eq!(row(&k, "v_mov_b32", 0).execs, 0);
}

/// `ds_read_b32` with lane `l` at dword `l × stride`: per half-wave of 32 lanes the
/// addresses fall `gcd(stride, 32)` to a bank, so each pass loses `stride - 1` cycles
/// (strides are powers of two here), two passes per instruction.
#[test]
fn lds_bank_conflicts_from_0_to_32_way() {
    for (shift, stride) in [(2, 1u64), (3, 2), (4, 4), (5, 8), (6, 16), (7, 32)] {
        let src = format!(
            "
  v_lshlrev_b32 v1, {shift}, v0
  ds_read_b32 v2, v1
  s_waitcnt lgkmcnt(0)
  s_endpgm
"
        );
        let k = on_every_engine(Gen::Gfx8, &src, &|w, _| lane_ids(w));
        let r = row(&k, "ds_read_b32", 0);
        assert_eq!(r.bank_conflicts, 2 * (stride - 1), "stride {stride}");
        assert_eq!(k.totals.lds_bank_conflicts, 2 * (stride - 1));
        assert_eq!(r.class, InstClass::Lds);
    }
}

#[test]
fn lds_broadcast_and_wide_accesses() {
    // Every lane reads the same dword: a broadcast, no conflict.
    let k = on_every_engine(
        Gen::Gfx8,
        "v_mov_b32 v1, 64\n ds_read_b32 v2, v1\n s_waitcnt lgkmcnt(0)\n s_endpgm\n",
        &|_, _| {},
    );
    assert_eq!(row(&k, "ds_read_b32", 0).bank_conflicts, 0);
    // b64 at lane × 8 bytes: each dword request hits the even (then odd) banks, two lanes
    // to a bank: 1 cycle lost per request, 2 requests per pass, 2 passes.
    let k = on_every_engine(
        Gen::Gfx7,
        "v_lshlrev_b32 v1, 3, v0\n ds_read_b64 v[2:3], v1\n s_waitcnt lgkmcnt(0)\n s_endpgm\n",
        &|w, _| lane_ids(w),
    );
    assert_eq!(row(&k, "ds_read_b64", 0).bank_conflicts, 4);
    // Only lanes 0-31 active and a stride of 2: one pass, 1 cycle.
    let k = on_every_engine(
        Gen::Gfx6,
        "v_lshlrev_b32 v1, 3, v0\n ds_write_b32 v1, v0\n s_waitcnt lgkmcnt(0)\n s_endpgm\n",
        &|w, _| {
            lane_ids(w);
            w.exec = 0xffff_ffff;
        },
    );
    assert_eq!(row(&k, "ds_write_b32", 0).bank_conflicts, 1);
}

/// v1 = `f(lane)` (byte addresses) in every lane.
fn lane_addrs(w: &mut Wave, f: fn(usize) -> u32) {
    for l in 0..64 {
        w.vgpr[1][l] = f(l);
    }
}

#[test]
fn lds_conflicts_near_the_compiled_codes_shortcut() {
    // Compiled profiling code decides "no conflict" inline when a half-wave's addresses
    // span at most 124 bytes, and asks the interpreter's count otherwise: cases on both
    // sides of that line, each worked out by hand, on every engine.
    let read = "ds_read_b32 v2, v1
 s_waitcnt lgkmcnt(0)
 s_endpgm
";
    // Lanes in reverse order over 32 dwords (span 124): a permutation, no conflict.
    let k = on_every_engine(Gen::Gfx8, read, &|w, _| {
        lane_addrs(w, |l| 4 * (31 - (l as u32 % 32)))
    });
    assert_eq!(row(&k, "ds_read_b32", 0).bank_conflicts, 0);
    // Lanes 0-15 at dwords 0-15, lanes 16-31 at dwords 48-63 (span 252 bytes): banks
    // 0-15 and 16-31, still no conflict; the interpreter's count is asked and says 0.
    let k = on_every_engine(Gen::Gfx8, read, &|w, _| {
        lane_addrs(w, |l| {
            let i = (l % 32) as u32;
            4 * if i < 16 { i } else { i + 32 }
        })
    });
    assert_eq!(row(&k, "ds_read_b32", 0).bank_conflicts, 0);
    // Lane 31 of each half at dword 63 (bank 31, alone there; span 252 bytes): 0.
    let k = on_every_engine(Gen::Gfx8, read, &|w, _| {
        lane_addrs(w, |l| 4 * if l % 32 == 31 { 63 } else { (l % 32) as u32 })
    });
    assert_eq!(row(&k, "ds_read_b32", 0).bank_conflicts, 0);
    // Lane 30 at dword 32 (bank 0, with lane 0's dword 0): 2 addresses in bank 0, 1 cycle
    // in each of the 2 passes.
    let k = on_every_engine(Gen::Gfx8, read, &|w, _| {
        lane_addrs(w, |l| 4 * if l % 32 == 30 { 32 } else { (l % 32) as u32 })
    });
    assert_eq!(row(&k, "ds_read_b32", 0).bank_conflicts, 2);
    // Lane 6 far away (dword 70) but inactive in both halves: the active lanes span 124
    // bytes, no conflict.
    let k = on_every_engine(Gen::Gfx8, read, &|w, _| {
        lane_addrs(w, |l| 4 * if l % 32 == 6 { 70 } else { (l % 32) as u32 });
        w.exec = !(1u64 << 6 | 1u64 << 38);
    });
    assert_eq!(row(&k, "ds_read_b32", 0).bank_conflicts, 0);
    // Lane 6 active at dword 70 and lane 7 at dword 38: both in bank 6 (bank 7 empty),
    // 1 cycle a pass.
    let k = on_every_engine(Gen::Gfx8, read, &|w, _| {
        lane_addrs(w, |l| match l % 32 {
            6 => 4 * 70,
            7 => 4 * 38,
            i => 4 * i as u32,
        })
    });
    assert_eq!(row(&k, "ds_read_b32", 0).bank_conflicts, 2);
}

const BASE: u64 = 0x1000_0000;

fn global(w: &mut Wave, mem: &mut Memory, stride: u64) {
    mem.map(BASE, 1 << 16).expect("map");
    for l in 0..64 {
        let a = BASE + l as u64 * stride;
        w.vgpr[4][l] = a as u32;
        w.vgpr[5][l] = (a >> 32) as u32;
    }
    w.sgpr[0] = BASE as u32;
    w.sgpr[1] = (BASE >> 32) as u32;
}

#[test]
fn strided_global_accesses_count_their_bytes() {
    let src = "
  flat_load_dword v6, v[4:5]
  flat_load_ushort v7, v[4:5]
  flat_store_dwordx2 v[4:5], v[8:9]
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_waitcnt vmcnt(0) lgkmcnt(0)
  s_endpgm
";
    // 48 lanes, 16 bytes apart.
    let k = on_every_engine(Gen::Gfx8, src, &|w, m| {
        global(w, m, 16);
        w.exec = (1 << 48) - 1;
    });
    assert_eq!(row(&k, "flat_load_dword", 0).fetch_bytes, 48 * 4);
    assert_eq!(row(&k, "flat_load_ushort", 0).fetch_bytes, 48 * 2);
    let st = row(&k, "flat_store_dwordx2", 0);
    assert_eq!(
        (st.fetch_bytes, st.write_bytes, st.class),
        (0, 48 * 8, InstClass::VmemWr)
    );
    assert_eq!(
        row(&k, "s_load_dwordx4", 0).fetch_bytes,
        16,
        "scalar: once per wave"
    );
    let t = &k.totals;
    assert_eq!(t.fetch_bytes, 48 * 4 + 48 * 2 + 16);
    assert_eq!(t.write_bytes, 48 * 8);
    assert_eq!((t.vmem_rd, t.vmem_wr, t.smem), (2, 1, 1));
}

#[test]
fn occupancy_rules() {
    // VGPRs: 256 per SIMD lane in blocks of 4; SGPRs: 512 (blocks of 8) on GCN 1.0/1.1,
    // 800 (blocks of 16) on 1.2; at most 10 waves per SIMD.
    let o = occupancy(Gen::Gfx8, 32, 24, 0, 4);
    assert_eq!(
        (o.by_vgprs, o.by_sgprs, o.by_lds, o.waves_per_simd),
        (8, 10, 10, 8)
    );
    assert_eq!(o.limited_by, "vgprs");
    let o = occupancy(Gen::Gfx6, 128, 104, 0, 1);
    assert_eq!((o.by_vgprs, o.by_sgprs, o.waves_per_simd), (2, 4, 2));
    let o = occupancy(Gen::Gfx7, 4, 96, 0, 1);
    assert_eq!((o.by_vgprs, o.by_sgprs, o.waves_per_simd), (10, 5, 5));
    assert_eq!(o.limited_by, "sgprs");
    // 88 SGPRs on GCN 1.2 round up to 96: 800 / 96 = 8.
    assert_eq!(occupancy(Gen::Gfx8, 4, 88, 0, 1).by_sgprs, 8);
    // 32 KiB of LDS per group of 4 waves: 2 groups per CU, 8 waves over 4 SIMDs.
    let o = occupancy(Gen::Gfx8, 4, 16, 32 * 1024, 4);
    assert_eq!(
        (o.by_lds, o.waves_per_simd, o.limited_by.as_str()),
        (2, 2, "lds")
    );
    // Tiny LDS: at most 16 groups per CU (16 × 1 wave / 4 SIMDs = 4).
    assert_eq!(occupancy(Gen::Gfx8, 4, 16, 256, 1).by_lds, 4);
    assert_eq!(occupancy(Gen::Gfx8, 4, 16, 0, 1).limited_by, "none");
}

#[test]
fn opencl_kernels_count_the_same_on_every_engine() {
    let n = 1024u32;
    let input: Vec<u32> = (0..n).map(|i| i.wrapping_mul(2_654_435_761)).collect();
    for cpu in CPUS {
        let Some(code) = build("reverse_local.cl", cpu, &[]) else {
            return;
        };
        let mut first: Option<KernelProfile> = None;
        for engine in engines() {
            let mut dev = device(engine);
            dev.set_profiling(true);
            let bi = dev.alloc_slice(&input).unwrap();
            let bo = dev.alloc_zeroed(4 * n as u64).unwrap();
            dev.launch(
                &code,
                "reverse_local",
                [n, 1, 1],
                [256, 1, 1],
                &[Arg::Buffer(bi), Arg::Buffer(bo), Arg::Local(4 * 256)],
            )
            .unwrap_or_else(|e| panic!("{cpu} {engine}: {e}"));
            let f = dev.take_profile();
            assert_eq!(f.kernels.len(), 1);
            let mut k = f.kernels[0].clone();
            let t = &k.totals;
            // 4 groups of 4 waves; one barrier per group, which all 4 waves wait at.
            assert_eq!(t.waves, 16, "{cpu} {engine}");
            assert_eq!((t.barriers, t.barrier_waves), (4, 16), "{cpu} {engine}");
            // Each item reads one word and writes one word of global memory.
            let vector_fetch: u64 = k
                .insts
                .iter()
                .filter(|r| r.class == InstClass::VmemRd)
                .map(|r| r.fetch_bytes)
                .sum();
            assert_eq!(vector_fetch, 4 * n as u64, "{cpu} {engine}");
            assert_eq!(t.write_bytes, 4 * n as u64, "{cpu} {engine}");
            // tmp[l] and tmp[size - 1 - l]: consecutive dwords, no bank conflicts.
            assert_eq!(t.lds_bank_conflicts, 0, "{cpu} {engine}");
            assert_eq!(t.valu_utilization, 100.0, "{cpu} {engine}: full waves");
            let st = k.static_facts.as_ref().expect("static facts");
            assert_eq!((st.lds_bytes, st.waves_per_group), (1024, 4));
            k.engine.clear();
            match &first {
                None => first = Some(k),
                Some(f0) => assert_eq!(&k, f0, "{cpu}: {engine} differs from the first engine"),
            }
        }
    }
}

#[test]
fn the_jit_counts_in_compiled_code() {
    use wavejit::interp::profile::Profile;
    let gen = Gen::Gfx8;
    let code = wavejit::assemble(
        Arch::Gcn(gen),
        "s_mov_b32 s0, 0\nloop:\n s_add_u32 s0, s0, 1\n v_add_u32 v1, vcc, 1, v1\n s_cmp_lt_u32 s0, 50\n s_cbranch_scc1 loop\n s_endpgm\n",
    )
    .unwrap();
    let prog = Program::new(Arch::Gcn(gen), &code);
    let jit = wavejit_jit::Jit::new(wavejit_jit::JitConfig {
        profile: true,
        ..wavejit_jit::JitConfig::default()
    });
    if jit.broken().is_some() {
        assert!(
            std::env::var_os("WAVEJIT_REQUIRE_ORACLES").is_none(),
            "no JIT back end"
        );
        return;
    }
    let mut wave = Wave::new(gen);
    let mut lds = Lds::new(0);
    let mem = Memory::new();
    let mut prof = Profile::for_program(&prog);
    let mut ctx = wavejit::interp::Ctx {
        wave: &mut wave,
        lds: &mut lds,
        mem: &mem,
    };
    let (_, stats) = jit
        .run_profiled(&mut ctx, &prog, 1 << 20, &mut prof)
        .unwrap();
    assert_eq!(stats.interpreted, 0, "nothing interpreted");
    assert_eq!(stats.helper_steps, 0, "no helper calls");
    let add = prog.slot_index(4).unwrap();
    assert_eq!(prof.insts[add].execs, 50);
    assert_eq!(prof.insts[add + 1].lanes, 50 * 64);
    assert_eq!(prof.insts[add + 3].taken, 49);
}

#[test]
fn lds_conflicts_of_one_address_register_under_two_execs() {
    // Compiled profiling code tests a DS group's span once per address register and EXEC
    // value: the accesses below share v1. Lane 6 at dword 70 and lane 7 at dword 38 fall
    // in bank 6 with each other (1 cycle a pass, 2 passes); every other lane l at dword
    // l % 32 has a bank of its own.
    let addrs = |w: &mut Wave| {
        lane_addrs(w, |l| match l % 32 {
            6 => 4 * 70,
            7 => 4 * 38,
            i => 4 * i as u32,
        })
    };
    // Without lanes 6, 7, 38, 39 the first read's span is 124 bytes: no conflict. EXEC
    // then set to all lanes: the same register's second read conflicts.
    let k = on_every_engine(
        Gen::Gfx8,
        "ds_read_b32 v2, v1
 s_mov_b64 exec, -1
 ds_read_b32 v3, v1
 s_waitcnt lgkmcnt(0)
 s_endpgm
",
        &|w, _| {
            addrs(w);
            w.exec = !(0b11u64 << 6 | 0b11u64 << 38);
        },
    );
    assert_eq!(row(&k, "ds_read_b32", 0).bank_conflicts, 0);
    assert_eq!(row(&k, "ds_read_b32", 1).bank_conflicts, 2);
    // The same EXEC for both: each read is counted (2 and 2), the second by the call the
    // first one's shared test asks for too.
    let k = on_every_engine(
        Gen::Gfx8,
        "ds_read_b32 v2, v1
 ds_read_b32 v3, v1 offset:128
 s_waitcnt lgkmcnt(0)
 s_endpgm
",
        &|w, _| addrs(w),
    );
    assert_eq!(row(&k, "ds_read_b32", 0).bank_conflicts, 2);
    assert_eq!(row(&k, "ds_read_b32", 1).bank_conflicts, 2);
}

#[test]
fn no_ops_inside_vector_code_count_with_the_exec_of_their_point() {
    // Compiled profiling code lets `s_waitcnt`/`s_nop` sit inside a vector segment and
    // counts them with the segment's EXEC; after a `v_cmpx` (EXEC written inside the
    // segment) the no-op must see the new EXEC instead. 40 lanes start active; the cmpx
    // keeps the active lanes with v0 < 10, i.e. lanes 0-9.
    let k = on_every_engine(
        Gen::Gfx8,
        "v_mov_b32 v1, 0
 ds_read_b32 v2, v1
 s_waitcnt lgkmcnt(0)
 v_add_u32 v3, vcc, v2, v0
 s_nop 0
 v_cmpx_gt_u32 vcc, 10, v0
 s_nop 1
 v_add_u32 v4, vcc, 1, v3
 s_waitcnt lgkmcnt(0)
 s_endpgm
",
        &|w, _| {
            lane_ids(w);
            w.exec = (1u64 << 40) - 1;
        },
    );
    let at = |p: &str, n| {
        let r = row(&k, p, n);
        (r.execs, r.active_lanes)
    };
    assert_eq!(at("s_waitcnt", 0), (1, 40));
    assert_eq!(at("s_nop", 0), (1, 40));
    assert_eq!(at("s_nop", 1), (1, 10));
    assert_eq!(at("s_waitcnt", 1), (1, 10));
    assert_eq!(at("v_add", 1), (1, 10));
}
