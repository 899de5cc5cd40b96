//! `wavejit disasm`.

use super::CmdResult;

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_a: Args) -> CmdResult {
    Err("`wavejit disasm` is not implemented yet".into())
}
