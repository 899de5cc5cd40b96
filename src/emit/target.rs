//! The target of a code object being built: a target id as `.amdgcn_target` spells it
//! (`amdgcn-amd-amdhsa--gfx803`, `…--gfx801:xnack+`), its processor, generation and
//! XNACK setting, and the ELF `e_flags` / `EI_ABIVERSION` they give.
//!
//! Facts (AMDGPUUsage, "Target ID", "AMDGPU ELF Header"): for code object v4 and later,
//! e_flags = EF_AMDGPU_MACH | XNACK setting in bits 8-9 (0 unsupported, 0x100 any,
//! 0x200 off, 0x300 on) | SRAMECC in bits 10-11 (no GCN 1.0-1.2 processor has SRAMECC);
//! XNACK is supported by gfx801 and gfx810 only, and a target id without `:xnack±` on them
//! means "any". EI_ABIVERSION is the code object version minus 2.

use wavejit_isa::Gen;

use crate::load::elf::mach_by_name;

/// The triple every AMDHSA target id starts with.
pub const TRIPLE: &str = "amdgcn-amd-amdhsa";

/// Processors of GCN 1.0-1.2 that support XNACK.
const XNACK_PROCESSORS: &[&str] = &["gfx801", "gfx810"];

/// A processor's XNACK mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Xnack {
    Unsupported,
    Any,
    Off,
    On,
}

/// A parsed target id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub processor: &'static str,
    pub gen: Gen,
    pub mach: u32,
    pub xnack: Xnack,
}

impl Target {
    /// Parse `amdgcn-amd-amdhsa--PROC[:xnack±]` (or a bare processor name).
    pub fn parse(id: &str) -> Result<Target, String> {
        let rest = match id.strip_prefix(TRIPLE) {
            Some(r) => r
                .strip_prefix("--")
                .ok_or_else(|| format!("target id `{id}`: expected `{TRIPLE}--PROCESSOR`"))?,
            None if !id.contains('-') => id,
            None => return Err(format!("target id `{id}` is not for `{TRIPLE}`")),
        };
        let mut parts = rest.split(':');
        let proc_name = parts.next().unwrap_or("");
        let (mach, processor, gen) = mach_by_name(proc_name).ok_or_else(|| {
            format!("unknown processor `{proc_name}` (GCN 1.0-1.2: gfx600-gfx602, gfx700-gfx705, gfx801-gfx810)")
        })?;
        let supports = XNACK_PROCESSORS.contains(&processor);
        let mut xnack = if supports {
            Xnack::Any
        } else {
            Xnack::Unsupported
        };
        for f in parts {
            match f {
                "xnack+" | "xnack-" if supports => {
                    xnack = if f == "xnack+" { Xnack::On } else { Xnack::Off }
                }
                "xnack+" | "xnack-" => {
                    return Err(format!("{processor} does not support XNACK (`:{f}`)"))
                }
                "sramecc+" | "sramecc-" => {
                    return Err(format!("{processor} does not support SRAMECC (`:{f}`)"))
                }
                _ => return Err(format!("unknown target feature `:{f}`")),
            }
        }
        Ok(Target {
            processor,
            gen,
            mach,
            xnack,
        })
    }

    /// The default processor of a generation (what `--arch gfx8` builds for).
    pub fn for_gen(gen: Gen) -> Target {
        let name = match gen {
            Gen::Gfx6 => "gfx600",
            Gen::Gfx7 => "gfx700",
            Gen::Gfx8 => "gfx803",
        };
        // The names above are in the table, so this cannot fail.
        Target::parse(name).unwrap_or(Target {
            processor: "gfx803",
            gen,
            mach: 0x2a,
            xnack: Xnack::Unsupported,
        })
    }

    /// The full target id as the metadata and `.amdgcn_target` spell it.
    pub fn id(&self) -> String {
        let f = match self.xnack {
            Xnack::On => ":xnack+",
            Xnack::Off => ":xnack-",
            _ => "",
        };
        format!("{TRIPLE}--{}{f}", self.processor)
    }

    /// XNACK is on or may be on: the kernel must keep the XNACK mask SGPRs free.
    pub fn xnack_on_or_any(&self) -> bool {
        matches!(self.xnack, Xnack::On | Xnack::Any)
    }

    /// ELF `e_flags` for code object v4 and later.
    pub fn e_flags(&self) -> u32 {
        self.mach
            | match self.xnack {
                Xnack::Unsupported => 0,
                Xnack::Any => 0x100,
                Xnack::Off => 0x200,
                Xnack::On => 0x300,
            }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_ids() {
        let t = Target::parse("amdgcn-amd-amdhsa--gfx803").unwrap();
        assert_eq!(
            (t.mach, t.gen, t.xnack),
            (0x2a, Gen::Gfx8, Xnack::Unsupported)
        );
        assert_eq!(t.e_flags(), 0x2a);
        let t = Target::parse("amdgcn-amd-amdhsa--gfx801:xnack+").unwrap();
        assert_eq!(t.e_flags(), 0x328);
        assert_eq!(t.id(), "amdgcn-amd-amdhsa--gfx801:xnack+");
        assert_eq!(Target::parse("gfx810").unwrap().e_flags(), 0x12b);
        let err = |id: &str| Target::parse(id).unwrap_err();
        assert!(err("amdgcn-amd-amdhsa--gfx900").starts_with("unknown processor `gfx900`"));
        assert_eq!(
            err("amdgcn-amd-amdhsa--gfx803:xnack+"),
            "gfx803 does not support XNACK (`:xnack+`)"
        );
        assert_eq!(
            err("amdgcn-amd-amdpal--gfx803"),
            "target id `amdgcn-amd-amdpal--gfx803` is not for `amdgcn-amd-amdhsa`"
        );
        assert_eq!(
            err("amdgcn-amd-amdhsa-gfx803"),
            "target id `amdgcn-amd-amdhsa-gfx803`: expected `amdgcn-amd-amdhsa--PROCESSOR`"
        );
        assert_eq!(Target::for_gen(Gen::Gfx6).processor, "gfx600");
    }
}
