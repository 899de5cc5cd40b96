//! The `wavejit` command line: one subcommand per job, each in its own module that owns
//! its clap `Args` and a `run` returning the exit code.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod asm;
mod bench;
mod disasm;
mod disasm_elf;
mod flags;
mod fuzz;
mod info;
mod launch;
mod profile_report;
mod run;
mod table;
mod view;

use flags::{elide, fuzz_len, seconds, threads};

/// What a subcommand returns: an exit code, or an error printed as `wavejit: error: …`.
pub type CmdResult = Result<ExitCode, Box<dyn std::error::Error>>;

#[derive(Parser)]
#[command(
    name = "wavejit",
    version,
    about = "Run GPU machine code on the CPU, fast and exactly"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Assemble a source file.
    Asm(asm::Args),
    /// Disassemble machine code.
    Disasm(disasm::Args),
    /// Run a program on one wavefront (or VP1 scalar unit) with a state file.
    Run(run::Args),
    /// Launch a kernel of an AMDHSA code object on a grid.
    Launch(launch::Args),
    /// What a code object holds: target, kernels, arguments, registers, occupancy.
    Info(info::Args),
    /// Show a profile written by `launch --profile` or `run --profile`.
    ProfileReport(profile_report::Args),
    /// Differential fuzzing of the interpreter against the JIT.
    Fuzz(fuzz::Args),
    /// Benchmarks: JIT vs interpreter vs native Rust.
    Bench(bench::Args),
    /// Print the instruction table.
    Table(table::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Err(e) = wavejit_jit::env::check() {
        eprintln!("wavejit: error: {e}");
        return ExitCode::from(2);
    }
    let r = match cli.cmd {
        Cmd::Asm(a) => asm::run(a),
        Cmd::Disasm(a) => disasm::run(a),
        Cmd::Run(a) => run::run(a),
        Cmd::Launch(a) => launch::run(a),
        Cmd::Info(a) => info::run(a),
        Cmd::ProfileReport(a) => profile_report::run(a),
        Cmd::Fuzz(a) => fuzz::run(a),
        Cmd::Bench(a) => bench::run(a),
        Cmd::Table(a) => table::run(a),
    };
    match r {
        Ok(code) => code,
        Err(e) => {
            eprintln!("wavejit: error: {e}");
            ExitCode::from(2)
        }
    }
}
