//! Real kernels: the OpenCL C sources of `bench/kernels/opencl/` built by clang-19 at
//! bench time (gfx803) and launched through the `Device`, as a user's program would —
//! streaming (saxpy), an LDS reduction with barriers, a tiled matrix multiply, a
//! histogram with global atomics, a 2-D stencil, and a Jacobi iteration of 24 stencil
//! launches. Each runs on the interpreter, the JIT and the tiered engine (one worker
//! thread, so that the native Rust baselines of streaming and matmul compare like for
//! like), its result checked against a Rust computation; the second run of a program on
//! the same device shows the in-process code cache. `process` adds whole-process times
//! of `wavejit launch` with a cold and a warm disk cache, and the many-launch program on
//! fresh engines over a cold and a warm disk cache.
//!
//! Without clang-19 the suite says so and measures nothing.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use wavejit::device::{Arg, Buffer, Device};
use wavejit::engine::{self, DiskCache, Engine, WaveEngine};
use wavejit::load::CodeObject;

/// What to run.
#[derive(Clone, Debug, Default)]
pub struct RealOptions {
    /// Smaller problems (about a quarter of the work).
    pub quick: bool,
    /// Also time whole `wavejit launch` processes (cold and warm disk cache) with this
    /// binary.
    pub process: Option<PathBuf>,
    pub verbose: bool,
}

/// One program of the suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    Saxpy,
    Reduce,
    Matmul,
    Histogram,
    Stencil,
    Jacobi,
}

impl Case {
    pub const ALL: [Case; 6] = [
        Case::Saxpy,
        Case::Reduce,
        Case::Matmul,
        Case::Histogram,
        Case::Stencil,
        Case::Jacobi,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Case::Saxpy => "saxpy",
            Case::Reduce => "reduce_lds",
            Case::Matmul => "matmul_tiled",
            Case::Histogram => "histogram",
            Case::Stencil => "stencil2d",
            Case::Jacobi => "jacobi_x24",
        }
    }

    /// The case named `name` (as `name` prints it).
    pub fn from_name(name: &str) -> Option<Case> {
        Case::ALL.into_iter().find(|c| c.name() == name)
    }

    pub fn source(self) -> &'static str {
        match self {
            Case::Saxpy => "saxpy.cl",
            Case::Reduce => "reduce.cl",
            Case::Matmul => "matmul.cl",
            Case::Histogram => "histogram.cl",
            Case::Stencil | Case::Jacobi => "stencil.cl",
        }
    }

    pub fn kernel(self) -> &'static str {
        match self {
            Case::Saxpy => "saxpy",
            Case::Reduce => "reduce",
            Case::Matmul => "matmul",
            Case::Histogram => "histogram",
            Case::Stencil | Case::Jacobi => "stencil",
        }
    }
}

/// Jacobi steps of the many-launch program.
pub const JACOBI_STEPS: usize = 24;

/// Problem sizes: items of saxpy/reduce/histogram, the matrix side, the stencil side and
/// the Jacobi grid side.
#[derive(Clone, Copy, Debug)]
pub struct Sizes {
    pub stream: u32,
    pub matmul: u32,
    pub stencil: u32,
    pub jacobi: u32,
}

impl Sizes {
    pub fn new(quick: bool) -> Sizes {
        if quick {
            Sizes {
                stream: 1 << 20,
                matmul: 128,
                stencil: 512,
                jacobi: 128,
            }
        } else {
            Sizes {
                stream: 1 << 22,
                matmul: 256,
                stencil: 1024,
                jacobi: 256,
            }
        }
    }
}

/// Whether clang-19 and ld.lld-19 run.
pub fn have_clang() -> bool {
    ["clang-19", "ld.lld-19"].iter().all(|t| {
        Command::new(t)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

fn kernels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels/opencl")
}

/// Build `src` for gfx803 into `out` (a linked code object).
pub fn build(src: &str, out: &Path) -> Result<(), String> {
    let dir = kernels_dir();
    let include = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/opencl");
    let o = Command::new("clang-19")
        .args([
            "-x",
            "cl",
            "-cl-std=CL1.2",
            "-target",
            "amdgcn-amd-amdhsa",
            "-mcpu=gfx803",
            "-nogpulib",
            "-O2",
        ])
        .arg("-I")
        .arg(&include)
        .arg(dir.join(src))
        .arg("-o")
        .arg(out)
        .output()
        .map_err(|e| format!("clang-19: {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "clang-19 {src}: {}",
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    Ok(())
}

/// A deterministic stream of 32-bit values (xorshift).
fn values(n: usize, seed: u32) -> Vec<u32> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        })
        .collect()
}

/// The host data of a case and its launches.
struct Prepared {
    /// (grid, block, args) per launch, in order.
    launches: Vec<([u32; 3], [u32; 3], Vec<Arg>)>,
    /// The buffer holding the result, and what it must hold after the first run.
    out: Buffer,
    want: Want,
}

enum Want {
    U32(Vec<u32>),
    /// Either rounding of `a * x + y` per element: (twice rounded, fused).
    F32(Vec<(f32, f32)>),
}

fn stencil_ref(src: &[u32], w: usize, h: usize) -> Vec<u32> {
    let mut out = src.to_vec();
    for y in 1..h - 1 {
        for x in 1..w - 1 {
            let i = y * w + x;
            out[i] = 4u32
                .wrapping_mul(src[i])
                .wrapping_add(src[i - 1])
                .wrapping_add(src[i + 1])
                .wrapping_add(src[i - w])
                .wrapping_add(src[i + w])
                >> 3;
        }
    }
    out
}

/// Native baseline and reference of the tiled matmul: C = A * B, wrapping.
pub fn matmul_native(a: &[u32], b: &[u32], n: usize) -> Vec<u32> {
    let mut c = vec![0u32; n * n];
    for i in 0..n {
        for k in 0..n {
            let x = a[i * n + k];
            let (row, brow) = (&mut c[i * n..][..n], &b[k * n..][..n]);
            for (c, &y) in row.iter_mut().zip(brow) {
                *c = c.wrapping_add(x.wrapping_mul(y));
            }
        }
    }
    c
}

/// Native baseline of saxpy (in place).
pub fn saxpy_native(a: f32, x: &[f32], y: &mut [f32]) {
    for (y, &x) in y.iter_mut().zip(x) {
        *y += a * x;
    }
}

fn prepare(case: Case, dev: &mut Device, s: Sizes) -> Result<Prepared, String> {
    let e = |e: wavejit::device::LaunchError| e.to_string();
    Ok(match case {
        Case::Saxpy => {
            let n = s.stream;
            let x: Vec<f32> = values(n as usize, 1)
                .iter()
                .map(|v| (v >> 8) as f32 / 65536.0)
                .collect();
            let y: Vec<f32> = values(n as usize, 2)
                .iter()
                .map(|v| (v >> 8) as f32 / 4096.0)
                .collect();
            let a = 1.75f32;
            let bx = dev.alloc_slice(&x).map_err(e)?;
            let by = dev.alloc_slice(&y).map_err(e)?;
            let want = x
                .iter()
                .zip(&y)
                .map(|(&x, &y)| (a * x + y, a.mul_add(x, y)))
                .collect();
            Prepared {
                launches: vec![(
                    [n, 1, 1],
                    [256, 1, 1],
                    vec![Arg::Buffer(bx), Arg::Buffer(by), Arg::F32(a), Arg::U32(n)],
                )],
                out: by,
                want: Want::F32(want),
            }
        }
        Case::Reduce => {
            let n = s.stream;
            let v = values(n as usize, 3);
            let bi = dev.alloc_slice(&v).map_err(e)?;
            let bo = dev.alloc_zeroed(4 * (n as u64 / 256)).map_err(e)?;
            let want = v
                .chunks(256)
                .map(|c| c.iter().fold(0u32, |a, &b| a.wrapping_add(b)))
                .collect();
            Prepared {
                launches: vec![(
                    [n, 1, 1],
                    [256, 1, 1],
                    vec![Arg::Buffer(bi), Arg::Buffer(bo)],
                )],
                out: bo,
                want: Want::U32(want),
            }
        }
        Case::Matmul => {
            let n = s.matmul;
            let a: Vec<u32> = values((n * n) as usize, 4)
                .iter()
                .map(|v| v & 0xffff)
                .collect();
            let b: Vec<u32> = values((n * n) as usize, 5)
                .iter()
                .map(|v| v & 0xffff)
                .collect();
            let ba = dev.alloc_slice(&a).map_err(e)?;
            let bb = dev.alloc_slice(&b).map_err(e)?;
            let bc = dev.alloc_zeroed(4 * (n * n) as u64).map_err(e)?;
            Prepared {
                launches: vec![(
                    [n, n, 1],
                    [16, 16, 1],
                    vec![
                        Arg::Buffer(ba),
                        Arg::Buffer(bb),
                        Arg::Buffer(bc),
                        Arg::U32(n),
                    ],
                )],
                out: bc,
                want: Want::U32(matmul_native(&a, &b, n as usize)),
            }
        }
        Case::Histogram => {
            let n = s.stream;
            // Skewed keys: a quarter of them in one bin (atomics contend there).
            let keys: Vec<u32> = values(n as usize, 6)
                .iter()
                .map(|v| if v % 4 == 0 { 7 } else { *v })
                .collect();
            let bk = dev.alloc_slice(&keys).map_err(e)?;
            let bb = dev.alloc_zeroed(4 * 256).map_err(e)?;
            let mut want = vec![0u32; 256];
            for k in &keys {
                want[(k & 255) as usize] += 1;
            }
            Prepared {
                launches: vec![(
                    [n, 1, 1],
                    [256, 1, 1],
                    vec![Arg::Buffer(bk), Arg::Buffer(bb), Arg::U32(n)],
                )],
                out: bb,
                want: Want::U32(want),
            }
        }
        Case::Stencil | Case::Jacobi => {
            let (w, steps) = if case == Case::Stencil {
                (s.stencil, 1)
            } else {
                (s.jacobi, JACOBI_STEPS)
            };
            let v: Vec<u32> = values((w * w) as usize, 7).iter().map(|v| v >> 4).collect();
            let b0 = dev.alloc_slice(&v).map_err(e)?;
            let b1 = dev.alloc_zeroed(4 * (w * w) as u64).map_err(e)?;
            let mut want = v;
            let mut launches = Vec::new();
            for k in 0..steps {
                want = stencil_ref(&want, w as usize, w as usize);
                let (i, o) = if k % 2 == 0 { (b0, b1) } else { (b1, b0) };
                launches.push((
                    [w, w, 1],
                    [16, 16, 1],
                    vec![Arg::Buffer(i), Arg::Buffer(o), Arg::U32(w), Arg::U32(w)],
                ));
            }
            let out = if steps % 2 == 1 { b1 } else { b0 };
            Prepared {
                launches,
                out,
                want: Want::U32(want),
            }
        }
    })
}

fn check(dev: &Device, p: &Prepared, what: &str) -> Result<(), String> {
    match &p.want {
        Want::U32(w) => {
            let got: Vec<u32> = dev.read_vec(p.out).map_err(|e| e.to_string())?;
            if let Some(i) = (0..w.len()).find(|&i| got.get(i) != Some(&w[i])) {
                return Err(format!(
                    "{what}: element {i} is {:?}, expected {}",
                    got.get(i),
                    w[i]
                ));
            }
        }
        Want::F32(w) => {
            let got: Vec<f32> = dev.read_vec(p.out).map_err(|e| e.to_string())?;
            for (i, (g, (a, b))) in got.iter().zip(w).enumerate() {
                if g.to_bits() != a.to_bits() && g.to_bits() != b.to_bits() {
                    return Err(format!("{what}: element {i} is {g}, expected {a} or {b}"));
                }
            }
        }
    }
    Ok(())
}

/// One program on one engine.
#[derive(Clone, Debug)]
pub struct Measured {
    pub case: Case,
    pub engine: &'static str,
    pub launches: usize,
    pub insts: u64,
    /// Kernel time of the first run (compiling included) and of the second run on the
    /// same device (compiled code reused), seconds.
    pub first: f64,
    pub again: f64,
}

/// Run `case` twice on a fresh device of `exec` (one worker thread), checking the first
/// run's result.
pub fn measure(
    case: Case,
    code: &CodeObject,
    exec: Box<dyn WaveEngine>,
    s: Sizes,
) -> Result<Measured, String> {
    let name = exec.name();
    let mut dev = Device::with_exec(exec);
    dev.set_threads(1);
    let p = prepare(case, &mut dev, s)?;
    let mut times = [0f64; 2];
    let mut insts = 0;
    for (run, t) in times.iter_mut().enumerate() {
        for (grid, block, args) in &p.launches {
            let st = dev
                .launch(code, case.kernel(), *grid, *block, args)
                .map_err(|e| format!("{} on {name}: {e}", case.name()))?;
            *t += st.elapsed.as_secs_f64();
            if run == 0 {
                insts += st.insts;
            }
        }
        if run == 0 {
            check(&dev, &p, &format!("{} on {name}", case.name()))?;
        }
    }
    Ok(Measured {
        case,
        engine: name,
        launches: p.launches.len(),
        insts,
        first: times[0],
        again: times[1],
    })
}

/// The lane operations of `case`: active lanes summed over its VALU instructions (the
/// profile's `valu_active_lanes`, the same count on every engine), from one profiled run
/// on a fresh JIT device.
fn valu_lanes(case: Case, code: &CodeObject, s: Sizes) -> Result<u64, String> {
    let mut dev = Device::with_exec(engine::for_engine(Engine::Jit));
    dev.set_threads(1);
    dev.set_profiling(true);
    let p = prepare(case, &mut dev, s)?;
    for (grid, block, args) in &p.launches {
        dev.launch(code, case.kernel(), *grid, *block, args)
            .map_err(|e| format!("{} profiled: {e}", case.name()))?;
    }
    Ok(dev
        .launch_profiles()
        .iter()
        .map(|k| k.totals.valu_active_lanes)
        .sum())
}

/// Wall time of a whole program on a fresh device of `exec` (one thread), its result
/// checked.
fn program_wall(
    case: Case,
    code: &CodeObject,
    exec: Box<dyn WaveEngine>,
    s: Sizes,
) -> Result<f64, String> {
    let t0 = Instant::now();
    let mut dev = Device::with_exec(exec);
    dev.set_threads(1);
    let p = prepare(case, &mut dev, s)?;
    for (grid, block, args) in &p.launches {
        dev.launch(code, case.kernel(), *grid, *block, args)
            .map_err(|e| e.to_string())?;
    }
    let t = t0.elapsed().as_secs_f64();
    check(&dev, &p, case.name())?;
    Ok(t)
}

/// Profiling aid of `wavejit bench --run` for a real kernel: build it, run it once on a
/// fresh device of `engine` (one worker thread; compiles, result checked), then `repeat`
/// times more on the same device; returns a line with both times.
pub fn run_case(case: Case, engine: Engine, repeat: u32) -> Result<String, String> {
    if !have_clang() {
        return Err("clang-19 and ld.lld-19 are needed to build the real kernels".into());
    }
    let dir = temp_dir("run");
    let out = dir.join(format!("{}.hsaco", case.name()));
    build(case.source(), &out)?;
    let code = CodeObject::from_file(&out).map_err(|e| e.to_string())?;
    let _ = std::fs::remove_dir_all(&dir);
    let s = Sizes::new(false);
    let mut dev = Device::with_exec(engine::for_engine(engine));
    dev.set_threads(1);
    let p = prepare(case, &mut dev, s)?;
    let mut first = 0.0;
    let mut again = 0.0;
    let mut insts = 0;
    for run in 0..=repeat {
        for (grid, block, args) in &p.launches {
            let st = dev
                .launch(&code, case.kernel(), *grid, *block, args)
                .map_err(|e| format!("{}: {e}", case.name()))?;
            if run == 0 {
                first += st.elapsed.as_secs_f64();
                insts += st.insts;
            } else {
                again += st.elapsed.as_secs_f64();
            }
        }
        if run == 0 {
            check(&dev, &p, case.name())?;
        }
    }
    Ok(format!(
        "{} on {}: {insts} wave-insts; first run {first:.4} s, {repeat} more {again:.4} s",
        case.name(),
        engine.name()
    ))
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wavejit-bench-real-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    let _ = std::fs::create_dir_all(&d);
    d
}

/// Whole-process seconds of `wavejit launch` of saxpy or matmul, with `cache` as the
/// disk cache directory (`None`: `--no-cache`).
fn process_time(
    bin: &Path,
    obj: &Path,
    case: Case,
    s: Sizes,
    work: &Path,
    cache: Option<&Path>,
) -> Result<f64, String> {
    let mut c = Command::new(bin);
    c.arg("launch")
        .arg(obj)
        .args(["--kernel", case.kernel(), "--quiet", "--threads", "1"]);
    let f = |n: &str| work.join(n).display().to_string();
    match case {
        Case::Saxpy => {
            let n = s.stream;
            c.args(["--grid", &n.to_string(), "--block", "256"]);
            c.args(["--arg", &format!("in:{}", f("x.bin"))]);
            c.args(["--arg", &format!("inout:{}:{}", f("y.bin"), f("y.out"))]);
            c.args(["--arg", "f32:1.75", "--arg", &format!("u32:{n}")]);
        }
        _ => {
            let n = s.matmul;
            c.args(["--grid", &format!("{n},{n}"), "--block", "16,16"]);
            c.args(["--arg", &format!("in:{}", f("a.bin"))]);
            c.args(["--arg", &format!("in:{}", f("b.bin"))]);
            c.args(["--arg", &format!("out:{}:{}", f("c.out"), 4 * n * n)]);
            c.args(["--arg", &format!("u32:{n}")]);
        }
    }
    match cache {
        Some(d) => {
            c.env("WAVEJIT_CACHE_DIR", d).env_remove("WAVEJIT_CACHE");
        }
        None => {
            c.arg("--no-cache");
        }
    }
    let t0 = Instant::now();
    let o = c.output().map_err(|e| format!("{}: {e}", bin.display()))?;
    let t = t0.elapsed().as_secs_f64();
    if !o.status.success() {
        return Err(format!(
            "wavejit launch {}: {}",
            case.name(),
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    Ok(t)
}

fn write_u32s(p: &Path, v: impl Iterator<Item = u32>) -> Result<(), String> {
    let b: Vec<u8> = v.flat_map(|x| x.to_le_bytes()).collect();
    std::fs::write(p, b).map_err(|e| format!("{}: {e}", p.display()))
}

/// Run the suite and return its report (plain text tables).
pub fn run(o: &RealOptions) -> Result<String, String> {
    if !have_clang() {
        return Ok(
            "real kernels: skipped: clang-19 and ld.lld-19 are needed to build \
                   bench/kernels/opencl/*.cl (apt-get install -y clang-19 lld-19)\n"
                .into(),
        );
    }
    let s = Sizes::new(o.quick);
    let dir = temp_dir("objs");
    let mut codes = Vec::new();
    for case in Case::ALL {
        let out = dir.join(format!("{}.hsaco", case.name()));
        build(case.source(), &out)?;
        let code = CodeObject::from_file(&out).map_err(|e| e.to_string())?;
        codes.push((case, out, code));
    }
    let mut text = String::new();
    let _ = writeln!(
        text,
        "Real kernels (clang-19 -O2 gfx803, one worker thread; kernel time from Device::launch; \
         'again' = the same launches once more on the same device)\n\
         sizes: stream {} items, matmul {n}x{n}, stencil {w}x{w}, jacobi {j}x{j} x {JACOBI_STEPS} launches\n",
        s.stream,
        n = s.matmul,
        w = s.stencil,
        j = s.jacobi
    );
    let _ = writeln!(
        text,
        "| program | engine | launches | wave-insts | VALU lane-ops | first run s | again s | M wave-inst/s (again) | M lane-op/s (again) | x interp (again) |"
    );
    let _ = writeln!(text, "|---|---|---|---|---|---|---|---|---|---|");
    let mut natives = Vec::new();
    for (case, _, code) in &codes {
        let mut interp_again = None;
        let lanes = valu_lanes(*case, code, s)?;
        for e in [Engine::Interp, Engine::Jit, Engine::Tiered] {
            if o.verbose {
                eprintln!("real: {} on {}", case.name(), e.name());
            }
            let m = measure(*case, code, engine::for_engine(e), s)?;
            if e == Engine::Interp {
                interp_again = Some(m.again);
            }
            let _ = writeln!(
                text,
                "| {} | {} | {} | {} | {} | {:.4} | {:.4} | {:.1} | {:.0} | {} |",
                case.name(),
                m.engine,
                m.launches,
                m.insts,
                lanes,
                m.first,
                m.again,
                m.insts as f64 / m.again.max(1e-9) / 1e6,
                lanes as f64 / m.again.max(1e-9) / 1e6,
                interp_again
                    .map(|i| format!("{:.1}", i / m.again.max(1e-9)))
                    .unwrap_or_default()
            );
            if e == Engine::Jit && matches!(case, Case::Saxpy | Case::Matmul) {
                natives.push((*case, m.again));
            }
        }
    }
    // Native baselines.
    let _ = writeln!(
        text,
        "\n| native baseline | native s | JIT s (again) | JIT / native |"
    );
    let _ = writeln!(text, "|---|---|---|---|");
    for (case, jit) in natives {
        let t = match case {
            Case::Saxpy => {
                let x: Vec<f32> = values(s.stream as usize, 1)
                    .iter()
                    .map(|v| (v >> 8) as f32)
                    .collect();
                let mut y: Vec<f32> = values(s.stream as usize, 2)
                    .iter()
                    .map(|v| (v >> 8) as f32)
                    .collect();
                let t0 = Instant::now();
                saxpy_native(std::hint::black_box(1.75), &x, &mut y);
                std::hint::black_box(&y);
                t0.elapsed().as_secs_f64()
            }
            _ => {
                let n = s.matmul as usize;
                let a = values(n * n, 4);
                let b = values(n * n, 5);
                let t0 = Instant::now();
                std::hint::black_box(matmul_native(&a, &b, n));
                t0.elapsed().as_secs_f64()
            }
        };
        let _ = writeln!(
            text,
            "| {} | {:.4} | {:.4} | {:.1} |",
            case.name(),
            t,
            jit,
            jit / t.max(1e-9)
        );
    }
    // The many-launch program on fresh engines: interpreter, JIT without disk cache, JIT
    // over an empty disk cache (cold), and again over the filled one (warm).
    let jacobi = &codes
        .iter()
        .find(|c| c.0 == Case::Jacobi)
        .ok_or("no jacobi")?
        .2;
    let cache = temp_dir("cache");
    let cold_engine = || -> Box<dyn WaveEngine> {
        engine::for_engine_cached(Engine::Jit, Some(DiskCache::new(&cache)))
    };
    let interp = program_wall(Case::Jacobi, jacobi, engine::for_engine(Engine::Interp), s)?;
    let plain = program_wall(Case::Jacobi, jacobi, engine::for_engine(Engine::Jit), s)?;
    let cold = program_wall(Case::Jacobi, jacobi, cold_engine(), s)?;
    let warm = program_wall(Case::Jacobi, jacobi, cold_engine(), s)?;
    let _ = writeln!(
        text,
        "\nMany-launch program ({} x {JACOBI_STEPS} stencil launches) on a fresh device, wall seconds:\n\
         | interp | jit, no disk cache | jit, cold disk cache | jit, warm disk cache | interp / warm |\n\
         |---|---|---|---|---|\n\
         | {interp:.4} | {plain:.4} | {cold:.4} | {warm:.4} | {:.1} |",
        s.jacobi,
        interp / warm.max(1e-9)
    );
    if let Some(bin) = &o.process {
        let work = temp_dir("proc");
        let n = s.stream as usize;
        write_u32s(
            &work.join("x.bin"),
            values(n, 1)
                .into_iter()
                .map(|v| ((v >> 8) as f32).to_bits()),
        )?;
        write_u32s(
            &work.join("y.bin"),
            values(n, 2)
                .into_iter()
                .map(|v| ((v >> 8) as f32).to_bits()),
        )?;
        let m = (s.matmul * s.matmul) as usize;
        write_u32s(&work.join("a.bin"), values(m, 4).into_iter())?;
        write_u32s(&work.join("b.bin"), values(m, 5).into_iter())?;
        let _ = writeln!(
            text,
            "\n`wavejit launch` whole process (jit, one thread), wall seconds:\n\
             | program | --no-cache | cold disk cache | warm disk cache |\n|---|---|---|---|"
        );
        for case in [Case::Saxpy, Case::Matmul] {
            let obj = &codes.iter().find(|c| c.0 == case).ok_or("no object")?.1;
            let pc = work.join(format!("cache-{}", case.name()));
            let none = process_time(bin, obj, case, s, &work, None)?;
            let cold = process_time(bin, obj, case, s, &work, Some(&pc))?;
            let warm = process_time(bin, obj, case, s, &work, Some(&pc))?;
            let _ = writeln!(
                text,
                "| {} | {none:.3} | {cold:.3} | {warm:.3} |",
                case.name()
            );
        }
        let _ = std::fs::remove_dir_all(&work);
    }
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&cache);
    Ok(text)
}
