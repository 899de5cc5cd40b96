//! Subcommands. Each module owns its clap `Args` and a `run` returning the exit code.

pub mod asm;
pub mod bench;
pub mod disasm;
pub mod fuzz;
pub mod launch;
pub mod profile_report;
pub mod run;
pub mod table;

/// What a subcommand returns: an exit code, or an error printed as `wavejit: error: …`.
pub type CmdResult = Result<std::process::ExitCode, Box<dyn std::error::Error>>;
