//! `wavejit table [--arch ARCH]`: the instruction table. For GCN, the rows of
//! `isa/tables/gcn.tsv` (all generations, or one with its opcodes only); for VP1, the scalar
//! opcode map.

use std::io::Write as _;
use std::process::ExitCode;

use wavejit::isa::gcn::table::ROWS;
use wavejit::isa::{vp1, Arch, Gen};

use super::CmdResult;

#[derive(clap::Args)]
pub struct Args {
    /// Only this generation (gfx6|gfx7|gfx8 or an alias), or vp1.
    #[arg(long)]
    arch: Option<String>,
}

fn enc_name(e: wavejit::isa::gcn::table::TableEnc) -> String {
    format!("{e:?}").to_ascii_lowercase()
}

pub fn run(a: Args) -> CmdResult {
    let arch: Option<Arch> = a.arch.as_deref().map(str::parse).transpose()?;
    let mut o = std::io::stdout().lock();
    let mut write = || -> std::io::Result<()> {
        match arch {
            Some(Arch::Vp1) => {
                writeln!(o, "# opcode\tmnemonic\tkind\tform\tsign\tsrc2\tcmode\ts2v")?;
                for op in 0..=0x7fu8 {
                    if let Some(d) = vp1::table::desc(op) {
                        writeln!(
                            o,
                            "0x{:02x}\t{}\t{:?}\t{:?}\t{:?}\t{:?}\t{:?}\t{:?}",
                            d.opcode,
                            d.mnemonic.unwrap_or("???"),
                            d.kind,
                            d.form,
                            d.sign,
                            d.src2,
                            d.cmode,
                            d.s2v
                        )?;
                    }
                }
            }
            Some(Arch::Gcn(g)) => {
                writeln!(o, "# mnemonic\tenc\topcode\te64\toperands\talias")?;
                for r in ROWS.iter() {
                    if let Some(opc) = r.opcode[g.index()] {
                        writeln!(
                            o,
                            "{}\t{}\t{}\t{}\t{}\t{}",
                            r.op.mnemonic(),
                            enc_name(r.enc),
                            opc,
                            if r.e64[g.index()] { "e64" } else { "-" },
                            if r.sig.is_empty() { "-" } else { r.sig },
                            r.alias.unwrap_or("-")
                        )?;
                    }
                }
            }
            None => {
                writeln!(o, "# mnemonic\tenc\tgfx6\tgfx7\tgfx8\te64\toperands\talias")?;
                for r in ROWS.iter() {
                    let opc =
                        |g: Gen| r.opcode[g.index()].map_or("-".to_string(), |v| v.to_string());
                    let e64: String = Gen::ALL
                        .iter()
                        .filter(|g| r.e64[g.index()])
                        .map(|g| match g {
                            Gen::Gfx6 => '6',
                            Gen::Gfx7 => '7',
                            Gen::Gfx8 => '8',
                        })
                        .collect();
                    writeln!(
                        o,
                        "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                        r.op.mnemonic(),
                        enc_name(r.enc),
                        opc(Gen::Gfx6),
                        opc(Gen::Gfx7),
                        opc(Gen::Gfx8),
                        if e64.is_empty() { "-".to_string() } else { e64 },
                        if r.sig.is_empty() { "-" } else { r.sig },
                        r.alias.unwrap_or("-")
                    )?;
                }
            }
        }
        Ok(())
    };
    super::asm::stdout_done(write())?;
    Ok(ExitCode::SUCCESS)
}
