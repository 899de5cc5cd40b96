//! Architectures and generations: the one place where every name a user may type
//! (`gfx8`, `tonga`, `gcn1.2`, `gfx803`, `vp1`, …) is parsed.

use std::fmt;
use std::str::FromStr;

/// Lanes in a wavefront.
pub const LANES: usize = 64;

/// A GCN generation. Ordered: `Gfx6 < Gfx7 < Gfx8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Gen {
    /// GCN 1.0 (Southern Islands: Tahiti, Pitcairn, Cape Verde), LLVM gfx600.
    Gfx6,
    /// GCN 1.1 (Sea Islands: Bonaire, Hawaii), LLVM gfx700.
    Gfx7,
    /// GCN 1.2 (Volcanic Islands: Tonga, Fiji, Polaris), LLVM gfx803.
    Gfx8,
}

impl Gen {
    pub const ALL: [Gen; 3] = [Gen::Gfx6, Gen::Gfx7, Gen::Gfx8];

    /// Index into per-generation table columns (0, 1, 2).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The `-mcpu` name LLVM uses for this generation.
    pub fn llvm_cpu(self) -> &'static str {
        match self {
            Gen::Gfx6 => "tahiti",
            Gen::Gfx7 => "bonaire",
            Gen::Gfx8 => "fiji",
        }
    }

    /// The processor name used in AMDHSA code objects (`gfx600`, …).
    pub fn gfx_name(self) -> &'static str {
        match self {
            Gen::Gfx6 => "gfx600",
            Gen::Gfx7 => "gfx700",
            Gen::Gfx8 => "gfx803",
        }
    }
}

impl fmt::Display for Gen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Gen::Gfx6 => "gfx6",
            Gen::Gfx7 => "gfx7",
            Gen::Gfx8 => "gfx8",
        })
    }
}

/// Everything wavejit executes: a GCN generation or the VP1 scalar unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arch {
    Gcn(Gen),
    Vp1,
}

impl fmt::Display for Arch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Arch::Gcn(g) => g.fmt(f),
            Arch::Vp1 => f.write_str("vp1"),
        }
    }
}

/// An architecture name nobody knows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown architecture `{0}` (try gfx6|gfx7|gfx8, gcn1.0|gcn1.1|gcn1.2, gfx600|gfx700|gfx803, tahiti|pitcairn|capeverde|bonaire|hawaii|tonga|fiji|polaris, vp1)")]
pub struct UnknownArch(pub String);

impl FromStr for Arch {
    type Err = UnknownArch;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let l = s.trim().to_ascii_lowercase();
        let g = match l.as_str() {
            "gcn1.0" | "gcn1" | "gfx6" | "gfx600" | "gfx601" | "gfx602" | "si" | "tahiti"
            | "pitcairn" | "capeverde" | "cape_verde" | "oland" | "hainan" => Gen::Gfx6,
            "gcn1.1" | "gfx7" | "gfx700" | "gfx701" | "gfx702" | "gfx703" | "gfx704" | "gfx705"
            | "ci" | "bonaire" | "hawaii" | "kaveri" | "kabini" | "mullins" => Gen::Gfx7,
            "gcn1.2" | "gfx8" | "gfx801" | "gfx802" | "gfx803" | "gfx805" | "gfx810" | "vi"
            | "tonga" | "fiji" | "polaris" | "polaris10" | "polaris11" | "carrizo" | "iceland"
            | "stoney" => Gen::Gfx8,
            "vp1" => return Ok(Arch::Vp1),
            _ => return Err(UnknownArch(s.to_string())),
        };
        Ok(Arch::Gcn(g))
    }
}

impl FromStr for Gen {
    type Err = UnknownArch;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.parse::<Arch>()? {
            Arch::Gcn(g) => Ok(g),
            Arch::Vp1 => Err(UnknownArch(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_alias_of_the_issue_parses() {
        for (names, want) in [
            (
                &[
                    "gcn1.0",
                    "gfx6",
                    "gfx600",
                    "tahiti",
                    "pitcairn",
                    "capeverde",
                ][..],
                Gen::Gfx6,
            ),
            (
                &["gcn1.1", "gfx7", "gfx700", "bonaire", "hawaii"][..],
                Gen::Gfx7,
            ),
            (
                &[
                    "gcn1.2", "gfx8", "gfx803", "tonga", "fiji", "polaris", "GFX8",
                ][..],
                Gen::Gfx8,
            ),
        ] {
            for n in names {
                assert_eq!(n.parse::<Arch>(), Ok(Arch::Gcn(want)), "{n}");
            }
        }
        assert_eq!("vp1".parse::<Arch>(), Ok(Arch::Vp1));
        assert_eq!("gfx9".parse::<Arch>(), Err(UnknownArch("gfx9".into())));
        assert_eq!("vp1".parse::<Gen>(), Err(UnknownArch("vp1".into())));
    }
}
