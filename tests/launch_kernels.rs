//! The OpenCL C examples (`examples/opencl/`), built by clang-19 at test time for gfx600,
//! gfx700 and gfx803, launched on every engine, and checked against a plain Rust
//! computation of the same result: integer kernels bit for bit, float kernels against both
//! roundings a compiler may choose (a*x+y rounded twice, or fused) — see the README there.
//! Plus the prebuilt objects of `tests/data/launch/`, which need no compiler.

use rand::{Rng, SeedableRng};
use wavejit::device::{Arg, LaunchError};
use wavejit::grid::GridError;
use wavejit::interp::ExecErrorKind;
use wavejit::isa::state::Space;
use wavejit::load::CodeObject;
use wavejit_testkit::launch::{build, device, engines, prebuilt, read_u32, CPUS};

fn rng() -> rand::rngs::StdRng {
    rand::rngs::StdRng::seed_from_u64(0x8_2024)
}

/// Every (cpu, code object) the example builds for, among `cpus`.
fn builds(src: &str, cpus: &[&str], extra: &[&str]) -> Vec<(String, CodeObject)> {
    cpus.iter()
        .filter_map(|cpu| build(src, cpu, extra).map(|c| (cpu.to_string(), c)))
        .collect()
}

/// Every CPU's build at clang's default -O2 and at -O0, labelled `gfx803 -O0`: unoptimised
/// code keeps every value in scratch (MUBUF through the private segment) and its calls as
/// calls, so the same kernel exercises other instructions and other memory.
fn builds_o2_and_o0(src: &str) -> Vec<(String, CodeObject)> {
    let mut objs = builds(src, &CPUS, &[]);
    objs.extend(
        builds(src, &CPUS, &["-O0"])
            .into_iter()
            .map(|(cpu, code)| (cpu + " -O0", code)),
    );
    objs
}

#[test]
fn vadd_partial_groups() {
    let n = 1000u32;
    let mut r = rng();
    let a: Vec<u32> = (0..n).map(|_| r.random()).collect();
    let b: Vec<u32> = (0..n).map(|_| r.random()).collect();
    let want: Vec<u32> = a.iter().zip(&b).map(|(x, y)| x.wrapping_add(*y)).collect();
    let mut objs = builds("vadd.cl", &CPUS, &[]);
    // Code object v4: the group size comes from the dispatch packet, not hidden arguments.
    objs.extend(
        builds("vadd.cl", &["gfx803"], &["-mcode-object-version=4"])
            .into_iter()
            .map(|(c, o)| (c + " v4", o)),
    );
    for (cpu, code) in &objs {
        for engine in engines() {
            for block in [64, 100, 256] {
                let mut dev = device(engine);
                let (ba, bb) = (dev.alloc_slice(&a).unwrap(), dev.alloc_slice(&b).unwrap());
                // 16 spare elements after n: nothing may be written there.
                let bc = dev.alloc_zeroed(4 * (n as u64 + 16)).unwrap();
                let args = [
                    Arg::Buffer(ba),
                    Arg::Buffer(bb),
                    Arg::Buffer(bc),
                    Arg::U32(n),
                ];
                let s = dev
                    .launch(code, "vadd", [n, 1, 1], [block, 1, 1], &args)
                    .unwrap_or_else(|e| panic!("{cpu} {engine}: {e}"));
                let got: Vec<u32> = dev.read_vec(bc).unwrap();
                assert_eq!(
                    &got[..n as usize],
                    &want[..],
                    "{cpu} {engine} block {block}"
                );
                assert!(
                    got[n as usize..].iter().all(|&v| v == 0),
                    "{cpu} {engine}: wrote past n"
                );
                assert_eq!(s.workgroups, n.div_ceil(block) as u64);
                // Waves: full groups have ceil(block/64); the last has ceil(rest/64).
                let full = (n / block) as u64 * block.div_ceil(64) as u64;
                let rest = (n % block).div_ceil(64) as u64;
                assert_eq!(s.waves, full + rest, "{cpu} {engine} block {block}");
            }
        }
    }
}

#[test]
fn saxpy_float() {
    let n = 777u32;
    let mut r = rng();
    let a = 1.75f32;
    let x: Vec<f32> = (0..n).map(|_| r.random_range(-1000.0f32..1000.0)).collect();
    let y: Vec<f32> = (0..n).map(|_| r.random_range(-1000.0f32..1000.0)).collect();
    for (cpu, code) in builds_o2_and_o0("saxpy.cl") {
        for engine in engines() {
            let mut dev = device(engine);
            let bx = dev.alloc_slice(&x).unwrap();
            let by = dev.alloc_slice(&y).unwrap();
            dev.launch(
                &code,
                "saxpy",
                [n, 1, 1],
                [128, 1, 1],
                &[Arg::F32(a), Arg::Buffer(bx), Arg::Buffer(by), Arg::U32(n)],
            )
            .unwrap_or_else(|e| panic!("{cpu} {engine}: {e}"));
            let got: Vec<f32> = dev.read_vec(by).unwrap();
            for i in 0..n as usize {
                let twice = a * x[i] + y[i];
                let fused = a.mul_add(x[i], y[i]);
                assert!(
                    got[i].to_bits() == twice.to_bits() || got[i].to_bits() == fused.to_bits(),
                    "{cpu} {engine} [{i}]: {} * {} + {} gave {} (want {twice} or {fused})",
                    a,
                    x[i],
                    y[i],
                    got[i]
                );
            }
        }
    }
}

#[test]
fn dpp_wave_scan() {
    let n = 1000u32;
    let grid = n.next_multiple_of(64);
    let mut r = rng();
    let input: Vec<u32> = (0..n).map(|_| r.random()).collect();
    let padded: Vec<u32> = (0..grid)
        .map(|i| input.get(i as usize).copied().unwrap_or(0))
        .collect();
    let mut scan = vec![0u32; grid as usize];
    let mut sums = vec![0u32; (grid / 64) as usize];
    for w in 0..(grid / 64) as usize {
        let mut acc = 0u32;
        for l in 0..64 {
            acc = acc.wrapping_add(padded[w * 64 + l]);
            scan[w * 64 + l] = acc;
        }
        sums[w] = acc;
    }
    // DPP exists on GCN 1.2 only.
    for (cpu, code) in builds("reduce_dpp.cl", &["gfx803"], &[]) {
        for engine in engines() {
            let mut dev = device(engine);
            let bi = dev.alloc_slice(&input).unwrap();
            let bs = dev.alloc_zeroed(4 * grid as u64).unwrap();
            let bt = dev.alloc_zeroed(4 * sums.len() as u64).unwrap();
            dev.launch(
                &code,
                "reduce_dpp",
                [grid, 1, 1],
                [256, 1, 1],
                &[
                    Arg::Buffer(bi),
                    Arg::Buffer(bs),
                    Arg::Buffer(bt),
                    Arg::U32(n),
                ],
            )
            .unwrap_or_else(|e| panic!("{cpu} {engine}: {e}"));
            assert_eq!(read_u32(&dev, bs), scan, "{cpu} {engine}: scan");
            assert_eq!(read_u32(&dev, bt), sums, "{cpu} {engine}: sums");
        }
    }
}

/// `ds_swizzle_b32` swizzles the VGPR LLVM encodes in ADDR; the expected lanes come from the
/// manual's patterns, computed here per lane.
#[test]
fn swizzle_reads_its_address_operand() {
    let grid = 256u32;
    let mut r = rng();
    let input: Vec<u32> = (0..grid).map(|_| r.random()).collect();
    let mut want = Vec::new();
    for i in 0..grid as usize {
        let (wave, lane) = (i & !63, i & 63);
        let quad = (lane & !3) | (3 - (lane & 3));
        let half = lane & 0x30;
        want.extend([
            input[wave + (lane ^ 1)],
            input[wave + quad],
            input[wave + half],
        ]);
    }
    for (cpu, code) in builds("swizzle.cl", &CPUS, &[]) {
        for engine in engines() {
            let mut dev = device(engine);
            let bi = dev.alloc_slice(&input).unwrap();
            let bo = dev.alloc_zeroed(12 * grid as u64).unwrap();
            dev.launch(
                &code,
                "swizzle",
                [grid, 1, 1],
                [64, 1, 1],
                &[Arg::Buffer(bi), Arg::Buffer(bo)],
            )
            .unwrap_or_else(|e| panic!("{cpu} {engine}: {e}"));
            assert_eq!(read_u32(&dev, bo), want, "{cpu} {engine}");
        }
    }
}

#[test]
fn byte_and_short_arithmetic() {
    let n = 300u32;
    let mut r = rng();
    let a: Vec<u8> = (0..4 * n).map(|_| r.random()).collect();
    let b: Vec<u8> = (0..4 * n).map(|_| r.random()).collect();
    let p: Vec<i16> = (0..2 * n).map(|_| r.random()).collect();
    let q: Vec<i16> = (0..2 * n).map(|_| r.random()).collect();
    let want_c: Vec<u8> = a
        .iter()
        .zip(&b)
        .map(|(x, y)| x.wrapping_add(y.wrapping_mul(3)))
        .collect();
    let want_m: Vec<u8> = a.iter().zip(&b).map(|(x, y)| *x.max(y)).collect();
    let want_r: Vec<i16> = p
        .iter()
        .zip(&q)
        .map(|(s, t)| s.wrapping_mul(*t).wrapping_sub(s >> 2))
        .collect();
    for (cpu, code) in builds_o2_and_o0("bytes.cl") {
        for engine in engines() {
            let mut dev = device(engine);
            let (ba, bb) = (dev.alloc(&a).unwrap(), dev.alloc(&b).unwrap());
            let bc = dev.alloc_zeroed(4 * n as u64).unwrap();
            let (bp, bq) = (dev.alloc_slice(&p).unwrap(), dev.alloc_slice(&q).unwrap());
            let br = dev.alloc_zeroed(4 * n as u64).unwrap();
            let bm = dev.alloc_zeroed(4 * n as u64).unwrap();
            let args = [ba, bb, bc, bp, bq, br, bm].map(Arg::Buffer);
            let mut args = args.to_vec();
            args.push(Arg::U32(n));
            dev.launch(&code, "bytes", [n, 1, 1], [64, 1, 1], &args)
                .unwrap_or_else(|e| panic!("{cpu} {engine}: {e}"));
            assert_eq!(dev.read(bc).unwrap(), want_c, "{cpu} {engine}: a + 3b");
            assert_eq!(dev.read(bm).unwrap(), want_m, "{cpu} {engine}: max");
            assert_eq!(
                dev.read_vec::<i16>(br).unwrap(),
                want_r,
                "{cpu} {engine}: p*q - (p>>2)"
            );
        }
    }
}

#[test]
fn tiled_matmul_in_local_memory() {
    let (m, n, k) = (32u32, 48u32, 64u32);
    let mut r = rng();
    let a: Vec<u32> = (0..m * k).map(|_| r.random()).collect();
    let b: Vec<u32> = (0..k * n).map(|_| r.random()).collect();
    let mut want = vec![0u32; (m * n) as usize];
    for i in 0..m as usize {
        for j in 0..n as usize {
            let mut acc = 0u32;
            for t in 0..k as usize {
                acc = acc.wrapping_add(a[i * k as usize + t].wrapping_mul(b[t * n as usize + j]));
            }
            want[i * n as usize + j] = acc;
        }
    }
    for (cpu, code) in builds_o2_and_o0("matmul.cl") {
        assert_eq!(
            code.kernel("matmul").unwrap().kd.group_segment_fixed_size,
            2 * 16 * 16 * 4
        );
        for engine in engines() {
            let mut dev = device(engine);
            let (ba, bb) = (dev.alloc_slice(&a).unwrap(), dev.alloc_slice(&b).unwrap());
            let bc = dev.alloc_zeroed(4 * (m * n) as u64).unwrap();
            let args = [
                Arg::Buffer(ba),
                Arg::Buffer(bb),
                Arg::Buffer(bc),
                Arg::U32(m),
                Arg::U32(n),
                Arg::U32(k),
            ];
            let s = dev
                .launch(&code, "matmul", [n, m, 1], [16, 16, 1], &args)
                .unwrap_or_else(|e| panic!("{cpu} {engine}: {e}"));
            assert_eq!(s.workgroups, 6);
            assert_eq!(s.waves, 24, "256 work-items = 4 waves per group");
            assert_eq!(read_u32(&dev, bc), want, "{cpu} {engine}");
        }
    }
}

#[test]
fn prefix_sum_with_barriers() {
    let n = 1000u32;
    let mut r = rng();
    let input: Vec<u32> = (0..n).map(|_| r.random()).collect();
    for block in [64u32, 128, 256] {
        let grid = n.next_multiple_of(block);
        let groups = (grid / block) as usize;
        let mut out = vec![0u32; n as usize];
        let mut totals = vec![0u32; groups];
        for (g, total) in totals.iter_mut().enumerate() {
            let mut acc = 0u32;
            for l in 0..block as usize {
                let i = g * block as usize + l;
                acc = acc.wrapping_add(input.get(i).copied().unwrap_or(0));
                if i < n as usize {
                    out[i] = acc;
                }
            }
            *total = acc;
        }
        for (cpu, code) in builds_o2_and_o0("prefix_sum.cl") {
            for engine in engines() {
                let mut dev = device(engine);
                let bi = dev.alloc_slice(&input).unwrap();
                let bo = dev.alloc_zeroed(4 * n as u64).unwrap();
                let bt = dev.alloc_zeroed(4 * groups as u64).unwrap();
                dev.launch(
                    &code,
                    "prefix_sum",
                    [grid, 1, 1],
                    [block, 1, 1],
                    &[
                        Arg::Buffer(bi),
                        Arg::Buffer(bo),
                        Arg::Buffer(bt),
                        Arg::U32(n),
                    ],
                )
                .unwrap_or_else(|e| panic!("{cpu} {engine} block {block}: {e}"));
                assert_eq!(read_u32(&dev, bo), out, "{cpu} {engine} block {block}");
                assert_eq!(read_u32(&dev, bt), totals, "{cpu} {engine} block {block}");
            }
        }
    }
}

#[test]
fn private_arrays_in_scratch() {
    let n = 100u32;
    let mut r = rng();
    let keys: Vec<u32> = (0..64 * n).map(|_| r.random()).collect();
    let mut want = vec![0u32; 32 * n as usize];
    for i in 0..n as usize {
        for k in 0..64 {
            want[i * 32 + (keys[i * 64 + k] % 32) as usize] += 1;
        }
    }
    for (cpu, code) in builds_o2_and_o0("private_hist.cl") {
        let kd = code.kernel("private_hist").unwrap().kd;
        assert!(
            kd.private_segment() && kd.private_segment_fixed_size >= 128,
            "{cpu}: the histogram lives in scratch"
        );
        for engine in engines() {
            for threads in [1, 2] {
                let mut dev = device(engine);
                dev.set_threads(threads);
                let bk = dev.alloc_slice(&keys).unwrap();
                let bo = dev.alloc_zeroed(4 * 32 * n as u64).unwrap();
                dev.launch(
                    &code,
                    "private_hist",
                    [n, 1, 1],
                    [64, 1, 1],
                    &[Arg::Buffer(bk), Arg::Buffer(bo), Arg::U32(n)],
                )
                .unwrap_or_else(|e| panic!("{cpu} {engine}: {e}"));
                assert_eq!(read_u32(&dev, bo), want, "{cpu} {engine} threads {threads}");
            }
        }
    }
}

/// Hand-written assembly through llvm-mc (no metadata note: arguments packed in order).
#[test]
fn llvm_mc_kernel() {
    let code = prebuilt("wave_ids.o");
    for engine in engines() {
        let mut dev = device(engine);
        let out = dev.alloc_zeroed(4 * 256).unwrap();
        dev.launch(
            &code,
            "wave_ids",
            [256, 1, 1],
            [64, 1, 1],
            &[Arg::Buffer(out), Arg::U32(17)],
        )
        .unwrap_or_else(|e| panic!("{engine}: {e}"));
        let want: Vec<u32> = (0..256).map(|i| i * 3 + 17).collect();
        assert_eq!(read_u32(&dev, out), want, "{engine}");
    }
}

/// Two kernels of one object, linked (gfx700) and relocatable (`clang -c`, gfx803).
#[test]
fn prebuilt_two_kernel_objects() {
    for file in ["two-gfx700.hsaco", "two-gfx803.o"] {
        let code = prebuilt(file);
        for engine in engines() {
            let mut dev = device(engine);
            let input: Vec<i32> = (0..200i32)
                .map(|i| (i * 7919 - 500_000).wrapping_add((i32::MAX / 2).wrapping_mul(i % 3)))
                .collect();
            let bi = dev.alloc_slice(&input).unwrap();
            let bo = dev.alloc_zeroed(4 * 200).unwrap();
            dev.launch(
                &code,
                "twice",
                [200, 1, 1],
                [64, 1, 1],
                &[Arg::Buffer(bi), Arg::Buffer(bo)],
            )
            .unwrap_or_else(|e| panic!("{file} {engine}: {e}"));
            let want: Vec<i32> = input.iter().map(|v| v.wrapping_mul(2)).collect();
            assert_eq!(dev.read_vec::<i32>(bo).unwrap(), want, "{file} {engine}");
            let bf = dev.alloc_zeroed(4 * 128).unwrap();
            dev.launch(
                &code,
                "fill",
                [128, 1, 1],
                [32, 1, 1],
                &[Arg::Buffer(bf), Arg::U32(0xdead_beef)],
            )
            .unwrap_or_else(|e| panic!("{file} {engine}: {e}"));
            assert!(
                dev.read_vec::<u32>(bf)
                    .unwrap()
                    .iter()
                    .all(|&v| v == 0xdead_beef),
                "{file} {engine}"
            );
        }
    }
}

/// One device launching different code objects in turn, and one of them again: each
/// launch runs its own kernel's code (the device keeps the last program decoded).
#[test]
fn objects_launched_in_turn_run_their_own_code() {
    let vadd = prebuilt("vadd-gfx803.hsaco");
    let two = prebuilt("two-gfx803.o");
    for engine in engines() {
        let mut dev = device(engine);
        let a: Vec<u32> = (0..100u32).map(|i| i * 3 + 1).collect();
        let b: Vec<u32> = (0..100u32).map(|i| 0xffff_fff0 + i).collect();
        let (ba, bb, bc) = (
            dev.alloc_slice(&a).unwrap(),
            dev.alloc_slice(&b).unwrap(),
            dev.alloc_zeroed(4 * 100).unwrap(),
        );
        let vadd_args = [
            Arg::Buffer(ba),
            Arg::Buffer(bb),
            Arg::Buffer(bc),
            Arg::U32(100),
        ];
        let sum: Vec<u32> = a.iter().zip(&b).map(|(x, y)| x.wrapping_add(*y)).collect();
        let bo = dev.alloc_zeroed(4 * 100).unwrap();
        for round in 0..2 {
            dev.launch(&vadd, "vadd", [100, 1, 1], [64, 1, 1], &vadd_args)
                .unwrap_or_else(|e| panic!("{engine} round {round}: {e}"));
            assert_eq!(dev.read_vec::<u32>(bc).unwrap(), sum, "{engine} {round}");
            dev.write(bc, &[0u8; 400]).unwrap();
            dev.launch(
                &two,
                "twice",
                [100, 1, 1],
                [64, 1, 1],
                &[Arg::Buffer(ba), Arg::Buffer(bo)],
            )
            .unwrap_or_else(|e| panic!("{engine} round {round}: {e}"));
            let twice: Vec<u32> = a.iter().map(|x| x.wrapping_mul(2)).collect();
            assert_eq!(dev.read_vec::<u32>(bo).unwrap(), twice, "{engine} {round}");
            dev.write(bo, &[0u8; 400]).unwrap();
        }
    }
}

#[test]
fn three_dimensional_grid_with_partial_groups() {
    let (sx, sy, sz) = (10u32, 6u32, 5u32);
    let mut want = vec![0u32; (sx * sy * sz) as usize];
    for z in 0..sz {
        for y in 0..sy {
            for x in 0..sx {
                want[((z * sy + y) * sx + x) as usize] = x | y << 10 | z << 20;
            }
        }
    }
    for (cpu, code) in builds("grid3d.cl", &CPUS, &[]) {
        let kd = code.kernel("grid3d").unwrap().kd;
        assert!(
            kd.workgroup_id(1) && kd.workgroup_id(2) && kd.workitem_id_vgprs() == 3,
            "{cpu}"
        );
        for engine in engines() {
            for block in [[4, 3, 2], [16, 2, 2], [1, 1, 1]] {
                let mut dev = device(engine);
                let out = dev.alloc_zeroed(4 * want.len() as u64).unwrap();
                let s = dev
                    .launch(
                        &code,
                        "grid3d",
                        [sx, sy, sz],
                        block,
                        &[Arg::Buffer(out), Arg::U32(sx), Arg::U32(sy), Arg::U32(sz)],
                    )
                    .unwrap_or_else(|e| panic!("{cpu} {engine} {block:?}: {e}"));
                let groups: u64 = (0..3)
                    .map(|d| [sx, sy, sz][d].div_ceil(block[d]) as u64)
                    .product();
                assert_eq!(s.workgroups, groups);
                assert_eq!(read_u32(&dev, out), want, "{cpu} {engine} {block:?}");
            }
        }
    }
}

#[test]
fn dynamic_local_memory_argument() {
    let n = 768u32;
    let input: Vec<u32> = (0..n).map(|i| i.wrapping_mul(2_654_435_761)).collect();
    for (cpu, code) in builds("reverse_local.cl", &CPUS, &[]) {
        assert_eq!(
            code.kernel("reverse_local")
                .unwrap()
                .kd
                .group_segment_fixed_size,
            0,
            "{cpu}: all of its LDS is dynamic"
        );
        for engine in engines() {
            for block in [64u32, 128, 256] {
                let mut want = vec![0u32; n as usize];
                for g in 0..(n / block) as usize {
                    for l in 0..block as usize {
                        want[g * block as usize + l] =
                            input[g * block as usize + block as usize - 1 - l];
                    }
                }
                let mut dev = device(engine);
                let bi = dev.alloc_slice(&input).unwrap();
                let bo = dev.alloc_zeroed(4 * n as u64).unwrap();
                dev.launch(
                    &code,
                    "reverse_local",
                    [n, 1, 1],
                    [block, 1, 1],
                    &[Arg::Buffer(bi), Arg::Buffer(bo), Arg::Local(4 * block)],
                )
                .unwrap_or_else(|e| panic!("{cpu} {engine} {block}: {e}"));
                assert_eq!(read_u32(&dev, bo), want, "{cpu} {engine} block {block}");
                // Too little local memory: the kernel's LDS accesses fault.
                let short = dev.launch(
                    &code,
                    "reverse_local",
                    [n, 1, 1],
                    [block, 1, 1],
                    &[Arg::Buffer(bi), Arg::Buffer(bo), Arg::Local(4)],
                );
                let lds_fault = matches!(
                    &short,
                    Err(LaunchError::Run {
                        source: GridError::Exec { err, .. },
                        ..
                    }) if matches!(err.kind, ExecErrorKind::OutOfBounds { space: Space::Lds, .. })
                );
                assert!(
                    lds_fault,
                    "{cpu} {engine} {block}: 4 bytes of LDS for {block} work-items: {short:?}"
                );
            }
        }
    }
}

/// The JIT engines really compile the kernels' blocks (they do not just fall back to the
/// interpreter), and report it.
#[test]
fn jit_engines_compile_blocks() {
    for (cpu, code) in builds("vadd.cl", &CPUS, &[]) {
        for engine in engines().into_iter().filter(|e| *e == "jit") {
            let mut dev = device(engine);
            let n = 256u32;
            let a = dev.alloc_slice(&vec![1u32; n as usize]).unwrap();
            let c = dev.alloc_zeroed(4 * n as u64).unwrap();
            let s = dev
                .launch(
                    &code,
                    "vadd",
                    [n, 1, 1],
                    [64, 1, 1],
                    &[Arg::Buffer(a), Arg::Buffer(a), Arg::Buffer(c), Arg::U32(n)],
                )
                .unwrap();
            let r = s.engine_report.clone().unwrap_or_default();
            let blocks: u64 = r
                .split_whitespace()
                .next()
                .and_then(|w| w.parse().ok())
                .unwrap_or(0);
            assert!(blocks > 0, "{cpu} {engine}: {r}");
            assert!(s.to_string().contains("blocks"), "{s}");
        }
    }
}

/// The diff engine runs a grid with the interpreter and the JIT compared block by block.
#[test]
fn diff_engine_on_a_grid() {
    for (cpu, code) in builds_o2_and_o0("prefix_sum.cl") {
        let mut dev = device("diff");
        let n = 256u32;
        let input: Vec<u32> = (0..n).map(|i| i * 3 + 1).collect();
        let bi = dev.alloc_slice(&input).unwrap();
        let bo = dev.alloc_zeroed(4 * n as u64).unwrap();
        let bt = dev.alloc_zeroed(8).unwrap();
        let s = dev
            .launch(
                &code,
                "prefix_sum",
                [n, 1, 1],
                [128, 1, 1],
                &[
                    Arg::Buffer(bi),
                    Arg::Buffer(bo),
                    Arg::Buffer(bt),
                    Arg::U32(n),
                ],
            )
            .unwrap_or_else(|e| panic!("{cpu} diff: {e}"));
        assert_eq!(s.threads, 1);
        let mut acc = 0u32;
        let want: Vec<u32> = (0..n)
            .map(|i| {
                if i % 128 == 0 {
                    acc = 0;
                }
                acc += i * 3 + 1;
                acc
            })
            .collect();
        assert_eq!(read_u32(&dev, bo), want, "{cpu} diff");
    }
}

/// A `__constant` table in the object's read-only data, reached through `s_getpc_b64`.
#[test]
fn constant_table_next_to_the_code() {
    const TABLE: [u32; 16] = [
        0x9e37_79b9,
        3,
        1,
        4,
        1,
        5,
        9,
        2,
        6,
        5,
        3,
        5,
        8,
        9,
        7,
        0xffff_ffff,
    ];
    let n = 500u32;
    let mut r = rng();
    let input: Vec<u32> = (0..n).map(|_| r.random()).collect();
    let want: Vec<u32> = input
        .iter()
        .enumerate()
        .map(|(i, v)| TABLE[(v % 16) as usize].wrapping_add(i as u32))
        .collect();
    for (cpu, code) in builds("lookup.cl", &CPUS, &[]) {
        assert!(
            !code.data_segments.is_empty(),
            "{cpu}: the table is in a data segment"
        );
        for engine in engines() {
            let mut dev = device(engine);
            let bi = dev.alloc_slice(&input).unwrap();
            let bo = dev.alloc_zeroed(4 * n as u64).unwrap();
            for _ in 0..2 {
                dev.launch(
                    &code,
                    "lookup",
                    [n, 1, 1],
                    [64, 1, 1],
                    &[Arg::Buffer(bi), Arg::Buffer(bo), Arg::U32(n)],
                )
                .unwrap_or_else(|e| panic!("{cpu} {engine}: {e}"));
                assert_eq!(read_u32(&dev, bo), want, "{cpu} {engine}");
            }
        }
    }
}

#[test]
fn calls_to_functions_placed_before_the_kernel() {
    // examples/opencl/calls.cl: out[i] = twice(i) + helper(i, 7) with helper(x, y) = 3x + y
    // and twice(x) = helper(x, x) + 1, i.e. 7i + 8; clang places the `noinline` helpers
    // before the kernel's entry, at -O0 and at -O2 (`llvm-readelf-19 -s`).
    let n = 200u32;
    let want: Vec<u32> = (0..n).map(|i| 7 * i + 8).collect();
    let mut objs = builds("calls.cl", &CPUS, &["-O0"]);
    objs.extend(builds("calls.cl", &CPUS, &["-O2"]));
    for (cpu, code) in &objs {
        let k = code.kernel("calls").expect("calls");
        // The call really goes backwards: some function's code precedes the entry.
        assert!(
            k.entry > 0,
            "{cpu}: the helpers were placed after the kernel"
        );
        for engine in engines() {
            let mut dev = device(engine);
            let out = dev.alloc_zeroed(4 * n as u64).unwrap();
            dev.launch(
                code,
                "calls",
                [n, 1, 1],
                [64, 1, 1],
                &[Arg::Buffer(out), Arg::U32(n)],
            )
            .unwrap_or_else(|e| panic!("{cpu} {engine}: {e}"));
            let got: Vec<u32> = dev.read_vec(out).unwrap();
            assert_eq!(got, want, "{cpu} {engine}");
        }
    }
}

/// 64-bit global atomics raced from many workgroups on two host threads: every add's low
/// half carries into its high half, so an update lost or torn between the threads shows
/// in the exact totals (the sums mod 2^64 computed here, the largest key). The diff engine
/// (one thread) compares the JIT's atomics with the interpreter's.
#[test]
fn global_64_bit_atomics_race_across_threads() {
    let (n, rounds) = (64 * 256u32, 24u32);
    let mut want = [0u64; 5];
    for i in 0..n {
        let v = 0xffff_ffffu64 + (i & 0xff) as u64;
        for r in 0..rounds {
            let k = (i.wrapping_add(r) & 3) as usize;
            want[k] = want[k].wrapping_add(v);
        }
    }
    want[4] = (0..n)
        .map(|i| (i as u64) << 32 | i.wrapping_mul(7) as u64)
        .max()
        .unwrap();
    for (cpu, code) in builds("atomics64.cl", &CPUS, &[]) {
        for engine in engines().into_iter().chain(["diff"]) {
            let mut dev = device(engine);
            let acc = dev.alloc_zeroed(8 * 5).unwrap();
            dev.launch(
                &code,
                "atomics64",
                [n, 1, 1],
                [64, 1, 1],
                &[Arg::Buffer(acc), Arg::U32(rounds)],
            )
            .unwrap_or_else(|e| panic!("{cpu} {engine}: {e}"));
            let got: Vec<u64> = dev.read_vec(acc).unwrap();
            assert_eq!(got, want, "{cpu} {engine}");
        }
    }
}

#[test]
fn pointer_tables_in_the_objects_data() {
    // examples/opencl/pointers.cl: out[i] = tabs[i & 1][i % 4] with a = {10, 20, 30, 40},
    // b = {1, 2, 3, 4}, tabs = {a, b}; the table holds R_AMDGPU_RELATIVE64 relocations
    // (`llvm-readelf-19 -r`), which read as 0 unless the loader applies them.
    let a = [10u32, 20, 30, 40];
    let b = [1u32, 2, 3, 4];
    let n = 100u32;
    let want: Vec<u32> = (0..n)
        .map(|i| if i & 1 == 0 { a } else { b }[(i % 4) as usize])
        .collect();
    let mut objs = builds("pointers.cl", &CPUS, &["-O0"]);
    objs.extend(builds("pointers.cl", &CPUS, &["-O2"]));
    for (cpu, code) in &objs {
        assert!(
            code.data_segments.iter().any(|s| s.relative.len() == 2),
            "{cpu}: the pointer table's two relocations"
        );
        for engine in engines() {
            let mut dev = device(engine);
            let out = dev.alloc_zeroed(4 * n as u64).unwrap();
            dev.launch(
                code,
                "pointers",
                [n, 1, 1],
                [64, 1, 1],
                &[Arg::Buffer(out), Arg::U32(n)],
            )
            .unwrap_or_else(|e| panic!("{cpu} {engine}: {e}"));
            assert_eq!(read_u32(&dev, out), want, "{cpu} {engine}");
        }
    }
}
