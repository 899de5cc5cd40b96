//! `wavejit asm`.

use super::CmdResult;

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_a: Args) -> CmdResult {
    Err("`wavejit asm` is not implemented yet".into())
}
