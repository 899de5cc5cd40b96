//! `wavejit asm --arch ARCH FILE.s [-o OUT.bin]`: assemble GCN (CLRX or LLVM syntax) or VP1
//! text. Without `-o`, prints each instruction's dwords (low dword first) and its source
//! text; with `-o`, writes the raw little-endian bytes. A source with `.amdhsa_kernel`
//! blocks (or `.amdgcn_target`) is a code object: `-o` writes an AMDHSA ELF file
//! (`wavejit::emit`), and `--arch` may be left to the target. Errors name `FILE:LINE:COL`.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use wavejit::isa::gcn::asm::assemble;
use wavejit::isa::{vp1, Arch, AsmError};

use super::CmdResult;

/// Largest source file read.
const MAX_SOURCE_BYTES: u64 = 64 << 20;

#[derive(clap::Args)]
pub struct Args {
    /// gfx6|gfx7|gfx8 (or an alias: tahiti, bonaire, fiji, gcn1.2, gfx803, …) or vp1.
    /// Optional for code-object sources, whose `.amdgcn_target` names the processor.
    #[arg(long)]
    arch: Option<String>,
    /// Assembly source.
    file: PathBuf,
    /// Write the machine code here instead of listing it.
    #[arg(short = 'o', long = "output")]
    out: Option<PathBuf>,
}

/// Finish writing to standard output: a closed pipe (`wavejit table | head`) is no error.
pub fn stdout_done(r: std::io::Result<()>) -> Result<(), Box<dyn std::error::Error>> {
    match r {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => Ok(r?),
    }
}

/// Read a file of at most `max` bytes.
pub fn read_limited(path: &std::path::Path, max: u64) -> Result<Vec<u8>, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if meta.len() > max {
        return Err(format!("{}: larger than {max} bytes", path.display()));
    }
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// `FILE:LINE:COL: error: MSG`, then the line and a caret under the column.
fn report(file: &std::path::Path, src: &str, e: &AsmError) -> String {
    let line = src
        .lines()
        .nth(e.line.saturating_sub(1) as usize)
        .unwrap_or("");
    let caret: String = line
        .chars()
        .take(e.col.saturating_sub(1) as usize)
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    format!(
        "{}:{}:{}: error: {}\n{line}\n{caret}^",
        file.display(),
        e.line,
        e.col,
        e.msg
    )
}

fn hex_words(bytes: &[u8]) -> String {
    bytes
        .chunks(4)
        .map(|c| {
            if c.len() == 4 {
                format!("{:08x}", u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            } else {
                c.iter()
                    .rev()
                    .map(|b| format!("{b:02x}"))
                    .collect::<String>()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn run(a: Args) -> CmdResult {
    let arch: Option<Arch> = a.arch.as_deref().map(str::parse).transpose()?;
    let raw = read_limited(&a.file, MAX_SOURCE_BYTES)?;
    let src = String::from_utf8(raw).map_err(|e| {
        format!(
            "{}: not UTF-8 text (byte {})",
            a.file.display(),
            e.utf8_error().valid_up_to()
        )
    })?;
    if wavejit::emit::is_code_object_source(&src) {
        let gen = match arch {
            Some(Arch::Gcn(g)) => Some(g),
            Some(Arch::Vp1) => return Err("a code object source is GCN, not vp1".into()),
            None => None,
        };
        let out = match wavejit::emit::build(&src, gen) {
            Ok(o) => o,
            Err(e) => {
                eprintln!("{}", report(&a.file, &src, &e));
                return Ok(ExitCode::from(1));
            }
        };
        match a.out {
            Some(p) => {
                std::fs::write(&p, &out.bytes).map_err(|e| format!("{}: {e}", p.display()))?
            }
            None => {
                let asm = &out.assembly;
                let mut o = std::io::stdout().lock();
                stdout_done(asm.items.iter().try_for_each(|it| {
                    let b = asm
                        .bytes
                        .get(it.offset as usize..(it.offset + it.size) as usize)
                        .unwrap_or(&[]);
                    writeln!(o, "{:<17}  {}", hex_words(b), it.text)
                }))?
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    let Some(arch) = arch else {
        return Err("--arch is required (gfx6, gfx7, gfx8 or vp1) unless the source is a code object with .amdgcn_target".into());
    };
    // (bytes, listing lines of (bytes of the statement, text))
    let (bytes, lines): (Vec<u8>, Vec<(Vec<u8>, String)>) = match arch {
        Arch::Gcn(gen) => {
            let asm = match assemble(gen, &src) {
                Ok(x) => x,
                Err(e) => {
                    eprintln!("{}", report(&a.file, &src, &e));
                    return Ok(ExitCode::from(1));
                }
            };
            let lines = asm
                .items
                .iter()
                .map(|it| {
                    let b = asm
                        .bytes
                        .get(it.offset as usize..(it.offset + it.size) as usize)
                        .unwrap_or(&[]);
                    (b.to_vec(), it.text.clone())
                })
                .collect();
            (asm.bytes, lines)
        }
        Arch::Vp1 => {
            let words = match vp1::asm::assemble(&src) {
                Ok(w) => w,
                Err(e) => {
                    eprintln!("{}", report(&a.file, &src, &e));
                    return Ok(ExitCode::from(1));
                }
            };
            let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            let lines = words
                .iter()
                .map(|w| {
                    let text = vp1::decode(&w.to_le_bytes(), 0)
                        .map(|(i, _)| vp1::fmt::format(&i))
                        .unwrap_or_else(|e| e.to_string());
                    (w.to_le_bytes().to_vec(), text)
                })
                .collect();
            (bytes, lines)
        }
    };
    match a.out {
        Some(p) => std::fs::write(&p, &bytes).map_err(|e| format!("{}: {e}", p.display()))?,
        None => {
            let mut o = std::io::stdout().lock();
            stdout_done(
                lines
                    .iter()
                    .try_for_each(|(b, t)| writeln!(o, "{:<17}  {t}", hex_words(b))),
            )?
        }
    }
    Ok(ExitCode::SUCCESS)
}
