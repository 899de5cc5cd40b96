//! `wavejit disasm [--arch ARCH] [--syntax clrx|llvm] (FILE | --hex "DWORD DWORD ...")`:
//! one instruction per line. CLRX syntax (the default) names branch targets with labels;
//! LLVM syntax prints them as llvm-mc does. A word that does not decode is printed as
//! `.long` with the reason, and the exit status is 1. An AMDHSA code object (an ELF file)
//! is listed per function symbol with addresses and its kernel descriptors
//! (`disasm_elf.rs`); its architecture comes from the ELF unless `--arch` is given.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use wavejit::isa::gcn::fmt::{listing, Syntax};
use wavejit::isa::{vp1, Arch};

use super::asm::{read_limited, stdout_done};
use super::CmdResult;

/// Largest code file read.
const MAX_CODE_BYTES: u64 = 256 << 20;

#[derive(clap::Args)]
pub struct Args {
    /// gfx6|gfx7|gfx8 (or an alias: tahiti, bonaire, fiji, gcn1.2, gfx803, …) or vp1;
    /// required for raw code, taken from the file for a code object.
    #[arg(long)]
    arch: Option<String>,
    /// clrx (default) or llvm.
    #[arg(long, default_value = "clrx")]
    syntax: String,
    /// Raw little-endian code, or an AMDHSA code object (ELF).
    #[arg(conflicts_with = "hex", required_unless_present = "hex")]
    file: Option<PathBuf>,
    /// The code as 32-bit hex words, lowest address first (`0x` optional; spaces or commas).
    #[arg(long)]
    hex: Option<String>,
    /// Also print each instruction's byte offset and dwords.
    #[arg(short, long)]
    verbose: bool,
}

/// Parse `"7e020302 0xd2000001, 00000203"` into bytes.
pub fn parse_hex(s: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    for t in s
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
    {
        let h = t
            .strip_prefix("0x")
            .or_else(|| t.strip_prefix("0X"))
            .unwrap_or(t);
        if h.is_empty() || h.len() > 8 || !h.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(format!("`{t}` is not a 32-bit hex word"));
        }
        let w =
            u32::from_str_radix(h, 16).map_err(|_| format!("`{t}` is not a 32-bit hex word"))?;
        out.extend(w.to_le_bytes());
    }
    Ok(out)
}

pub fn run(a: Args) -> CmdResult {
    let syntax: Syntax = a.syntax.parse()?;
    let code = match (&a.hex, &a.file) {
        (Some(h), _) => parse_hex(h)?,
        (None, Some(p)) => read_limited(p, MAX_CODE_BYTES)?,
        (None, None) => return Err("give a code file or --hex".into()),
    };
    if code.starts_with(b"\x7fELF") {
        let gen = match a.arch.as_deref().map(str::parse::<Arch>).transpose()? {
            None => None,
            Some(Arch::Gcn(g)) => Some(g),
            Some(Arch::Vp1) => return Err("a code object holds GCN code, not VP1".into()),
        };
        let (text, bad) = super::disasm_elf::disasm_object(&code, gen, syntax)?;
        stdout_done(std::io::stdout().lock().write_all(text.as_bytes()))?;
        return Ok(if bad {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        });
    }
    let arch: Arch = a
        .arch
        .as_deref()
        .ok_or("--arch is required for raw code (gfx6, gfx7, gfx8 or vp1)")?
        .parse()?;
    let mut o = std::io::stdout().lock();
    let mut bad = false;
    let mut write = || -> std::io::Result<()> {
        match arch {
            Arch::Gcn(gen) => {
                for l in listing(gen, &code, syntax) {
                    let undecoded = l.text.starts_with(".long");
                    bad |= undecoded;
                    if a.verbose {
                        let w: Vec<String> = l.words.iter().map(|w| format!("{w:08x}")).collect();
                        writeln!(o, "{:8x}: {:<17}  {}", l.pc, w.join(" "), l.text)?;
                    } else if undecoded {
                        // Name the place of a word that did not decode even without -v.
                        let text = l
                            .text
                            .replacen("// ", &format!("// offset 0x{:x}: ", l.pc), 1);
                        writeln!(o, "{text}")?;
                    } else {
                        writeln!(o, "{}", l.text)?;
                    }
                }
            }
            Arch::Vp1 => {
                let mut pc = 0usize;
                while pc < code.len() {
                    let rest = code.get(pc..).unwrap_or(&[]);
                    let (text, n, w) = match vp1::decode(rest, pc as u32) {
                        Ok((i, n)) => (vp1::fmt::format(&i), n.max(1) as usize, i.word),
                        Err(e) => {
                            bad = true;
                            let mut b = [0u8; 4];
                            let k = rest.len().min(4);
                            b[..k].copy_from_slice(&rest[..k]);
                            let w = u32::from_le_bytes(b);
                            (format!(".long 0x{w:08x} // offset 0x{pc:x}: {e}"), 4, w)
                        }
                    };
                    if a.verbose {
                        writeln!(o, "{pc:8x}: {w:08x}  {text}")?;
                    } else {
                        writeln!(o, "{text}")?;
                    }
                    pc += n;
                }
            }
        }
        Ok(())
    };
    stdout_done(write())?;
    Ok(if bad {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
