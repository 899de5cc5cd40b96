//! `wavejit profile-report FILE.json [--svg OUT.svg]`: a profile written by `launch
//! --profile` or `run --profile` as an annotated disassembly (text, to standard output)
//! and, on request, an SVG picture of it (`wavejit::profile`).

use std::path::PathBuf;
use std::process::ExitCode;

use wavejit::profile::{report_svg, report_text, ProfileFile};
use wavejit::read_file_limited;

use super::CmdResult;

/// Largest profile read.
const MAX_PROFILE_BYTES: u64 = 1 << 30;

#[derive(clap::Args)]
pub struct Args {
    /// The profile (JSON).
    file: PathBuf,
    /// Also draw it: a heat strip beside the code and the instruction mix (SVG).
    #[arg(long, value_name = "OUT.svg")]
    svg: Option<PathBuf>,
}

pub fn run(a: Args) -> CmdResult {
    let bytes = read_file_limited(&a.file, MAX_PROFILE_BYTES)?;
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "{}: not UTF-8 text (byte {})",
            a.file.display(),
            e.utf8_error().valid_up_to()
        )
    })?;
    let f = ProfileFile::from_json(&text).map_err(|e| format!("{}: {e}", a.file.display()))?;
    print!("{}", report_text(&f));
    if let Some(p) = &a.svg {
        std::fs::write(p, report_svg(&f)).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}
