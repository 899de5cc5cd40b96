//! The `wavejit` command line: one subcommand per job, each in `src/cli/<name>.rs`.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cli;

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
    Asm(cli::asm::Args),
    /// Disassemble machine code.
    Disasm(cli::disasm::Args),
    /// Run a program on one wavefront (or VP1 scalar unit) with a state file.
    Run(cli::run::Args),
    /// Launch a kernel of an AMDHSA code object on a grid.
    Launch(cli::launch::Args),
    /// Show a profile written by `launch --profile` or `run --profile`.
    ProfileReport(cli::profile_report::Args),
    /// Differential fuzzing of the interpreter against the JIT.
    Fuzz(cli::fuzz::Args),
    /// Benchmarks: JIT vs interpreter vs native Rust.
    Bench(cli::bench::Args),
    /// Print the instruction table.
    Table(cli::table::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Err(e) = wavejit_jit::env::check() {
        eprintln!("wavejit: error: {e}");
        return ExitCode::from(2);
    }
    let r = match cli.cmd {
        Cmd::Asm(a) => cli::asm::run(a),
        Cmd::Disasm(a) => cli::disasm::run(a),
        Cmd::Run(a) => cli::run::run(a),
        Cmd::Launch(a) => cli::launch::run(a),
        Cmd::ProfileReport(a) => cli::profile_report::run(a),
        Cmd::Fuzz(a) => cli::fuzz::run(a),
        Cmd::Bench(a) => cli::bench::run(a),
        Cmd::Table(a) => cli::table::run(a),
    };
    match r {
        Ok(code) => code,
        Err(e) => {
            eprintln!("wavejit: error: {e}");
            ExitCode::from(2)
        }
    }
}
