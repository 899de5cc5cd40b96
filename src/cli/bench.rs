//! `wavejit bench`.

use super::CmdResult;

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_a: Args) -> CmdResult {
    Err("`wavejit bench` is not implemented yet".into())
}
