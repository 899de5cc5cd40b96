//! `wavejit launch`.

use super::CmdResult;

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_a: Args) -> CmdResult {
    Err("`wavejit launch` is not implemented yet".into())
}
