//! `wavejit launch`: run a kernel of an AMDHSA code object on a grid, the way a GPU runtime
//! would — buffers from files, scalars from the command line, results written back.
//!
//! `wavejit launch CODE_OBJECT --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] [--arg SPEC]...
//! [--engine interp|jit|tiered|threaded|diff] [--threads N] [--max-insts N] [--quiet] [--no-cache]`
//!
//! `--grid` is the number of work-items per dimension (the HSA grid size; need not be a
//! multiple of the block), `--block` the workgroup size. Each `--arg`, in the kernel's
//! argument order: `in:PATH`, `out:PATH:BYTES`, `inout:IN_PATH:OUT_PATH`, `local:BYTES`
//! (a `__local` pointer argument), or a scalar `u32:V`, `i32:V`, `u64:V`, `i64:V`, `f32:V`,
//! `f64:V` (integers in decimal or 0x hex; floats as decimals or 0x bit patterns).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use wavejit::device::{Arg, Buffer, Device};
use wavejit::grid;
use wavejit::load::CodeObject;

use super::CmdResult;

/// Largest input file read into a buffer.
const MAX_INPUT_BYTES: u64 = 1 << 34;

#[derive(clap::Args)]
pub struct Args {
    /// The code object (.hsaco, .o).
    code_object: PathBuf,
    /// Kernel name (with or without `.kd`).
    #[arg(long)]
    kernel: String,
    /// Work-items per dimension: X[,Y[,Z]].
    #[arg(long)]
    grid: String,
    /// Workgroup size: X[,Y[,Z]].
    #[arg(long, default_value = "64")]
    block: String,
    /// Kernel arguments in order: in:PATH, out:PATH:BYTES, inout:IN:OUT, local:BYTES,
    /// u32:V, i32:V, u64:V, i64:V, f32:V, f64:V.
    #[arg(long = "arg")]
    args: Vec<String>,
    /// Execution engine: interp, jit, tiered, threaded (pre-decoded code, nothing
    /// compiled), or diff (interpreter and JIT compared block by block, on one thread).
    #[arg(long, default_value = "jit")]
    engine: String,
    /// Host threads running workgroups (default: all cores; 1 to 1024).
    #[arg(long, value_parser = super::threads)]
    threads: Option<usize>,
    /// Instruction budget of the whole dispatch (checked between workgroups; default: none).
    #[arg(long, value_name = "N")]
    max_total_insts: Option<u64>,
    /// Stop the dispatch after this many seconds (checked between workgroups).
    #[arg(long, value_parser = super::seconds, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Instruction budget of each wave.
    #[arg(long, default_value_t = grid::DEFAULT_MAX_INSTS)]
    max_insts: u64,
    /// No summary on standard error.
    #[arg(long)]
    quiet: bool,
    /// Profile the launch and write the counters (whole dispatch, per kernel, per
    /// instruction) as JSON here; `wavejit profile-report` reads it.
    #[arg(long, value_name = "FILE.json")]
    profile: Option<PathBuf>,
    #[command(flatten)]
    cache: super::flags::Cache,
    /// Also print each output buffer of at most `SHOWN_OUTPUT_BYTES` bytes as words in this
    /// view (u32, i32, hex, f32 or f16x2) on standard output; the files stay as written.
    #[arg(long, value_parser = clap::value_parser!(super::view::Format))]
    format: Option<super::view::Format>,
}

/// Largest output buffer `--format` prints (64 words).
const SHOWN_OUTPUT_BYTES: u64 = 256;

/// One `--arg`.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgSpec {
    In(PathBuf),
    Out(PathBuf, u64),
    InOut(PathBuf, PathBuf),
    Local(u32),
    Scalar(Arg),
}

fn int(s: &str) -> Result<i128, String> {
    let t = s.trim();
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t),
    };
    let v = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => i128::from_str_radix(h, 16),
        None => t.parse::<i128>(),
    }
    .map_err(|_| format!("`{s}` is not an integer"))?;
    Ok(if neg { -v } else { v })
}

fn ranged<T: TryFrom<i128>>(s: &str, ty: &str) -> Result<T, String> {
    T::try_from(int(s)?).map_err(|_| format!("`{s}` does not fit {ty}"))
}

/// Parse one `--arg` specification.
pub fn parse_arg(spec: &str) -> Result<ArgSpec, String> {
    let (kind, rest) = spec
        .split_once(':')
        .ok_or_else(|| format!("argument `{spec}`: expected KIND:VALUE (in:, out:, inout:, local:, u32:, i32:, u64:, i64:, f32:, f64:)"))?;
    let bad = |m: String| format!("argument `{}`: {m}", super::elide(spec));
    Ok(match kind {
        "in" if !rest.is_empty() => ArgSpec::In(rest.into()),
        "in" => return Err(bad("expected in:PATH".into())),
        "out" => {
            let (path, bytes) = rest
                .rsplit_once(':')
                .ok_or_else(|| bad("expected out:PATH:BYTES".into()))?;
            if path.is_empty() {
                return Err(bad("expected out:PATH:BYTES".into()));
            }
            ArgSpec::Out(
                path.into(),
                ranged::<u64>(bytes, "a byte count").map_err(bad)?,
            )
        }
        "inout" => {
            let (a, b) = rest
                .split_once(':')
                .ok_or_else(|| bad("expected inout:IN_PATH:OUT_PATH".into()))?;
            if a.is_empty() || b.is_empty() {
                return Err(bad("expected inout:IN_PATH:OUT_PATH".into()));
            }
            ArgSpec::InOut(a.into(), b.into())
        }
        "local" => ArgSpec::Local(ranged::<u32>(rest, "a byte count").map_err(bad)?),
        "u32" => ArgSpec::Scalar(Arg::U32(ranged(rest, "u32").map_err(bad)?)),
        "i32" => ArgSpec::Scalar(Arg::I32(ranged(rest, "i32").map_err(bad)?)),
        "u64" => ArgSpec::Scalar(Arg::U64(ranged(rest, "u64").map_err(bad)?)),
        "i64" => ArgSpec::Scalar(Arg::I64(ranged(rest, "i64").map_err(bad)?)),
        "f32" => ArgSpec::Scalar(Arg::F32(if rest.starts_with("0x") {
            f32::from_bits(ranged(rest, "32 bits").map_err(bad)?)
        } else {
            float::<f32>(rest, "f32").map_err(bad)?
        })),
        "f64" => ArgSpec::Scalar(Arg::F64(if rest.starts_with("0x") {
            f64::from_bits(ranged(rest, "64 bits").map_err(bad)?)
        } else {
            float::<f64>(rest, "f64").map_err(bad)?
        })),
        _ => {
            return Err(bad(
                "unknown kind (in, out, inout, local, u32, i32, u64, i64, f32, f64)".into(),
            ))
        }
    })
}

/// A decimal float of type `T`: a number too large for it is an error, not infinity
/// (write `inf` for infinity).
fn float<T: std::str::FromStr + Into<f64> + Copy>(s: &str, what: &str) -> Result<T, String> {
    let t = s.trim();
    let v: T = t
        .parse()
        .map_err(|_| format!("`{}` is not a number", super::elide(s)))?;
    let said_inf = t
        .trim_start_matches(['+', '-'])
        .to_ascii_lowercase()
        .starts_with("inf");
    if v.into().is_infinite() && !said_inf {
        return Err(format!("`{}` is out of {what} range", super::elide(s)));
    }
    Ok(v)
}

/// Parse `X[,Y[,Z]]` (missing dimensions are 1).
pub fn parse_dims(s: &str, what: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = s.split(',').collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(format!("--{what} `{s}`: expected X[,Y[,Z]]"));
    }
    let mut d = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        d[i] = ranged::<u32>(p, "u32").map_err(|e| format!("--{what}: {e}"))?;
        if d[i] == 0 {
            return Err(format!(
                "--{what} `{s}`: every dimension must be at least 1"
            ));
        }
    }
    Ok(d)
}

/// A buffer holding the file at `p`, read straight into device memory.
fn map_input(dev: &mut Device, p: &PathBuf) -> Result<Buffer, String> {
    let mut f = std::fs::File::open(p).map_err(|e| format!("{}: {e}", p.display()))?;
    let len = f
        .metadata()
        .map_err(|e| format!("{}: {e}", p.display()))?
        .len();
    if len > MAX_INPUT_BYTES {
        return Err(format!(
            "{}: {len} bytes is more than wavejit maps",
            p.display()
        ));
    }
    dev.alloc_from_reader(len, &mut f)
        .map_err(|e| format!("{}: {e}", p.display()))
}

pub fn run(a: Args) -> CmdResult {
    let code = CodeObject::from_file(&a.code_object).map_err(|e| e.to_string())?;
    let grid_dims = parse_dims(&a.grid, "grid")?;
    let block = parse_dims(&a.block, "block")?;
    let specs = a
        .args
        .iter()
        .map(|s| parse_arg(s))
        .collect::<Result<Vec<_>, _>>()?;
    let engine: wavejit::Engine = a.engine.parse()?;
    let exec = wavejit::engine::for_engine_cached(engine, a.cache.disk());
    let mut dev = Device::with_exec(exec);
    if let Some(t) = a.threads {
        dev.set_threads(t);
    }
    dev.set_max_insts_per_wave(a.max_insts);
    dev.set_max_insts_total(a.max_total_insts);
    dev.set_time_limit(a.timeout.map(std::time::Duration::from_secs_f64));
    // Ctrl-C stops the dispatch between workgroups, with an error naming how far it got.
    let cancel = dev.cancel_token();
    let _ = ctrlc::set_handler(move || cancel.store(true, std::sync::atomic::Ordering::Relaxed));
    dev.set_profiling(a.profile.is_some());

    let mut args = Vec::with_capacity(specs.len());
    let mut outputs: Vec<(Buffer, PathBuf)> = Vec::new();
    for (i, s) in specs.iter().enumerate() {
        let arg = match s {
            ArgSpec::In(p) => {
                let b = map_input(&mut dev, p)?;
                dev.name_buffer(b, &format!("--arg {i} ({})", p.display()));
                Arg::Buffer(b)
            }
            ArgSpec::Out(p, n) => {
                let b = dev.alloc_zeroed(*n)?;
                dev.name_buffer(b, &format!("--arg {i} ({}, {n} bytes)", p.display()));
                outputs.push((b, p.clone()));
                Arg::Buffer(b)
            }
            ArgSpec::InOut(pi, po) => {
                let b = map_input(&mut dev, pi)?;
                dev.name_buffer(b, &format!("--arg {i} ({})", pi.display()));
                outputs.push((b, po.clone()));
                Arg::Buffer(b)
            }
            ArgSpec::Local(n) => Arg::Local(*n),
            ArgSpec::Scalar(v) => v.clone(),
        };
        args.push(arg);
    }

    let kernel = code.kernel(&a.kernel)?;
    let groups: u64 = (0..3)
        .map(|d| grid_dims[d].div_ceil(block[d]) as u64)
        .fold(1u64, u64::saturating_mul);
    let bar = (!a.quiet && std::io::stderr().is_terminal() && groups >= 64).then(|| {
        let pb = indicatif::ProgressBar::new(groups);
        pb.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} {msg} [{bar:40}] {pos}/{len} workgroups ({per_sec}, {eta})",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        pb.set_message(kernel.name.clone());
        pb
    });
    let progress = |k: u64| {
        if let Some(pb) = &bar {
            pb.set_position(k);
        }
    };
    let r = dev.launch_with_progress(&code, &a.kernel, grid_dims, block, &args, Some(&progress));
    if let Some(pb) = &bar {
        pb.finish_and_clear();
    }
    let stats = r?;
    for (b, p) in &outputs {
        let f = std::fs::File::create(p).map_err(|e| format!("{}: {e}", p.display()))?;
        let mut w = std::io::BufWriter::new(f);
        dev.read_to(*b, &mut w)
            .map_err(|e| format!("{}: {e}", p.display()))?;
        std::io::Write::flush(&mut w).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    if let Some(f) = a.format {
        for (b, p) in outputs.iter().filter(|(b, _)| b.len <= SHOWN_OUTPUT_BYTES) {
            let bytes = dev.read(*b).map_err(|e| format!("{}: {e}", p.display()))?;
            let words: Vec<String> = bytes
                .chunks(4)
                .map(|c| {
                    let mut w = [0u8; 4];
                    w[..c.len()].copy_from_slice(c);
                    f.word(u32::from_le_bytes(w))
                })
                .collect();
            println!("{}: [{}]", p.display(), words.join(", "));
        }
    }
    if let Some(p) = &a.profile {
        let f = dev.take_profile();
        std::fs::write(p, f.to_json()).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    if !a.quiet {
        eprintln!("{stats}");
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arg_specs() {
        assert_eq!(parse_arg("in:a.bin"), Ok(ArgSpec::In("a.bin".into())));
        assert_eq!(
            parse_arg("out:dir:x/c.bin:4096"),
            Ok(ArgSpec::Out("dir:x/c.bin".into(), 4096))
        );
        assert_eq!(
            parse_arg("inout:a:b"),
            Ok(ArgSpec::InOut("a".into(), "b".into()))
        );
        assert_eq!(parse_arg("local:0x100"), Ok(ArgSpec::Local(256)));
        assert_eq!(
            parse_arg("u32:0xffffffff"),
            Ok(ArgSpec::Scalar(Arg::U32(u32::MAX)))
        );
        assert_eq!(parse_arg("i32:-5"), Ok(ArgSpec::Scalar(Arg::I32(-5))));
        assert_eq!(
            parse_arg("u64:18446744073709551615"),
            Ok(ArgSpec::Scalar(Arg::U64(u64::MAX)))
        );
        assert_eq!(parse_arg("f32:1.5"), Ok(ArgSpec::Scalar(Arg::F32(1.5))));
        assert_eq!(
            parse_arg("f32:0x3f800000"),
            Ok(ArgSpec::Scalar(Arg::F32(1.0)))
        );
        assert_eq!(parse_arg("f64:-0.25"), Ok(ArgSpec::Scalar(Arg::F64(-0.25))));
        for (bad, why) in [
            ("u32:-1", "`-1` does not fit u32"),
            ("u32:4294967296", "`4294967296` does not fit u32"),
            ("i32:2147483648", "`2147483648` does not fit i32"),
            ("out:x", "expected out:PATH:BYTES"),
            ("out::4", "expected out:PATH:BYTES"),
            ("inout:a", "expected inout:IN_PATH:OUT_PATH"),
            ("in:", "expected in:PATH"),
            ("f32:one", "`one` is not a number"),
            ("x:1", "unknown kind"),
            ("nocolon", "expected KIND:VALUE"),
        ] {
            let e = parse_arg(bad).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn dims() {
        assert_eq!(parse_dims("100", "grid"), Ok([100, 1, 1]));
        assert_eq!(parse_dims("16,8", "grid"), Ok([16, 8, 1]));
        assert_eq!(parse_dims("2,3,4", "grid"), Ok([2, 3, 4]));
        for (bad, why) in [
            ("", "`` is not an integer"),
            ("0", "every dimension must be at least 1"),
            ("1,2,3,4", "expected X[,Y[,Z]]"),
            ("a", "`a` is not an integer"),
            ("1,,2", "`` is not an integer"),
            ("-1", "`-1` does not fit u32"),
        ] {
            let e = parse_dims(bad, "grid").unwrap_err();
            assert!(e.starts_with("--grid") && e.contains(why), "{bad}: {e}");
        }
    }
}
