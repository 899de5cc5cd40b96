//! `wavejit bench`: run the benchmark suite and print the table of ratios
//! measured in this run; optionally write the JSON results, the SVG plot and the Markdown
//! block for the README. `--from FILE.json` redraws the plot and Markdown from a saved
//! run without measuring.

use std::path::PathBuf;
use std::process::ExitCode;

use wavejit_bench::{self as bench, report, svg, Report};

use super::CmdResult;

#[derive(clap::Args)]
pub struct Args {
    /// The short suite (under a minute on a 2-core host).
    #[arg(long)]
    quick: bool,
    /// Write the results as JSON.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write the plot (SVG).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Write the host description, table and targets as Markdown. An existing file keeps
    /// everything outside its `<!-- bench:begin -->`/`<!-- bench:end -->` markers.
    #[arg(long, value_name = "FILE")]
    markdown: Option<PathBuf>,
    /// Only these kernels (comma-separated: valu,dpp,sdwa,vintrp,divergent,lds_matmul,f64).
    #[arg(long, value_delimiter = ',')]
    kernels: Vec<String>,
    /// Most threads for the scaling runs (0, the default: every core; at most 1024).
    #[arg(long, default_value_t = 0, value_parser = threads_or_all)]
    threads: usize,
    /// Do not measure: read a results file written by --json and redraw from it.
    #[arg(long, value_name = "FILE.json")]
    from: Option<PathBuf>,
    /// Say what is being measured.
    #[arg(short, long)]
    verbose: bool,
    /// Profiling aid: run only this kernel on `--engine`, `--repeat` times, and print the
    /// time (for `perf record wavejit bench --run valu --engine jit`). `once`: the program
    /// whose blocks run once; `scaling`: the scaling workload on `--threads` threads
    /// (`--engine jit` or `native`).
    #[arg(long, value_name = "KERNEL")]
    run: Option<String>,
    /// Engine of `--run`: interp, jit (code cache warmed first), tiered, threaded, native, native128.
    #[arg(long, default_value = "jit")]
    engine: String,
    /// Size of `--run` (iterations, at least 1; N for lds_matmul; default: the full
    /// suite's).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    size: Option<u32>,
    /// Only the draw benchmark: a triangle covering every pixel of a 1920x1080 viewport,
    /// shaded by the gradient pixel shader, on the JIT and on the interpreter.
    #[arg(long)]
    draw: bool,
    /// The real-kernel suite instead: OpenCL C programs (bench/kernels/opencl) built by
    /// clang-19 and launched through the device on every engine, against native Rust,
    /// with whole-process times on a cold and a warm disk cache (`--quick`: smaller).
    #[arg(long)]
    real: bool,
    /// Also print this run's figures against a previous run's (a file written by
    /// `--json`): per kernel, new / old for the compile cost, the JIT's and the
    /// interpreter's speed, and the every-block-once program.
    #[arg(long, value_name = "FILE.json")]
    baseline: Option<PathBuf>,
    /// Runs of `--run` (at least 1).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    repeat: u32,
}

/// `--threads`: 0 (every core) or 1 to 1024.
fn threads_or_all(s: &str) -> Result<usize, String> {
    if s.trim() == "0" {
        return Ok(0);
    }
    super::threads(s)
}

const BEGIN: &str = "<!-- bench:begin -->";
const END: &str = "<!-- bench:end -->";

fn write(path: &PathBuf, text: &str) -> Result<(), Box<dyn std::error::Error>> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()).into())
}

pub fn run(a: Args) -> CmdResult {
    for k in &a.kernels {
        if bench::suite::kernel(k).is_none() {
            let names: Vec<&str> = bench::suite::KERNELS.iter().map(|k| k.name).collect();
            return Err(format!("unknown kernel `{k}` (try {})", names.join(",")).into());
        }
    }
    if a.draw {
        let (w, h) = (1920, 1080);
        let jit = bench::draw::measure(wavejit::Engine::Jit, w, h)?;
        let interp = bench::draw::measure(wavejit::Engine::Interp, w, h)?;
        for t in [&jit, &interp] {
            println!(
                "draw {w}x{h} on {:<6} {:8.3} s  ({} waves, {} pixels, {} instructions)",
                t.engine.to_string(),
                t.seconds,
                t.stats.waves,
                t.stats.pixels,
                t.stats.insts
            );
        }
        println!(
            "interpreter / JIT: {:.1}x",
            interp.seconds / jit.seconds.max(1e-9)
        );
        return Ok(ExitCode::SUCCESS);
    }
    if a.real {
        let opts = bench::real::RealOptions {
            quick: a.quick,
            process: std::env::current_exe().ok(),
            verbose: a.verbose,
        };
        print!("{}", bench::real::run(&opts)?);
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(name) = &a.run {
        let t = bench::measure::run_one(name, &a.engine, a.size, a.repeat, a.threads)?;
        println!("{t}");
        return Ok(ExitCode::SUCCESS);
    }
    let r: Report = match &a.from {
        Some(p) => {
            let text = wavejit::read_file_limited(p, 16 << 20)?;
            serde_json::from_slice(&text).map_err(|e| format!("{}: {e}", p.display()))?
        }
        None => {
            if cfg!(debug_assertions) {
                eprintln!("wavejit bench: this is a debug build; its timings mean nothing (use --release)");
            }
            let opts = bench::Options {
                quick: a.quick,
                kernels: a.kernels.clone(),
                threads: a.threads,
                verbose: a.verbose,
            };
            bench::run(&opts)?
        }
    };
    println!("{}", report::host_line(&r.host));
    println!();
    print!("{}", report::table(&r, false));
    println!();
    print!("{}", report::summary(&r, false));
    if let Some(p) = &a.baseline {
        let text = wavejit::read_file_limited(p, 16 << 20)?;
        let old: Report =
            serde_json::from_slice(&text).map_err(|e| format!("{}: {e}", p.display()))?;
        println!();
        print!("{}", report::against(&r, &old));
    }
    if let Some(p) = &a.json {
        write(p, &serde_json::to_string_pretty(&r)?)?;
    }
    if let Some(p) = &a.svg {
        write(p, &svg::plot(&r))?;
    }
    if let Some(p) = &a.markdown {
        let block = format!("{BEGIN}\n{}{END}\n", report::markdown(&r));
        let text = match std::fs::read_to_string(p) {
            Ok(old) => match (old.find(BEGIN), old.find(END)) {
                (Some(b), Some(e)) if b < e => format!(
                    "{}{block}\n{}",
                    &old[..b],
                    old[e + END.len()..].trim_start_matches('\n')
                ),
                _ => format!("{old}\n{block}"),
            },
            Err(_) => block,
        };
        write(p, &text)?;
    }
    Ok(ExitCode::SUCCESS)
}
