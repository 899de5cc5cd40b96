//! The other register files that `mov` 0x6a (`$r` to file) and 0x6b (file to `$r`) reach,
//! selected by RFILE (bits 3-7): 004_1a7ba760ea192bb0.txt "Move to/from other register
//! file" and vp1-notes.md 7. Shared by the printer/assembler (names, printed index widths)
//! and the interpreter (which file an RFILE value means).

/// A register file other than `$r`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum File {
    /// `$v` registers, one 32-bit word (bytes 4w..4w+3) of the 16-byte register.
    V {
        word: u32,
    },
    Sr,
    Mi,
    Uc,
    /// `$l`: 16-bit loop registers (indices over 3 ignored on writes, wrapped on reads).
    L,
    /// `$a`: address registers.
    A,
    /// `$c`: read only; indices over 3 read as 0.
    C,
    /// `$m[0-31]` (`high` = false) or `$m[32-63]`.
    M {
        high: bool,
    },
    /// `$d` (G80 only), indices wrapped modulo 8.
    D,
    /// `$f`, indices wrapped modulo 2.
    F,
    /// `$x` (G80 only), indices wrapped modulo 16.
    X,
}

/// Direction of the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// 0x6a: `$<file>[DST] = $r[SRC1]`.
    To,
    /// 0x6b: `$r[DST] = $<file>[SRC1]`.
    From,
}

/// The file RFILE names in direction `dir`, as envydis knows it (what has a syntax). RFILE
/// 18 (an alias of `$v` word 2 for writes) has none: envydis prints such words as `???`.
pub fn file(rfile: u32, dir: Dir) -> Option<File> {
    Some(match rfile {
        0..=3 => File::V { word: rfile },
        8 => File::Sr,
        9 => File::Mi,
        10 => File::Uc,
        11 => File::L,
        12 => File::A,
        13 if dir == Dir::From => File::C,
        20 => File::M { high: false },
        21 => File::M { high: true },
        22 => File::D,
        23 => File::F,
        24 => File::X,
        _ => return None,
    })
}

/// The file RFILE reaches when executed: like [`file`], plus RFILE 18, which writes `$v`
/// word 2 (vp1-notes.md 7; "aliases 2, for writes only" in the spec).
pub fn exec_file(rfile: u32, dir: Dir) -> Option<File> {
    match (rfile, dir) {
        (18, Dir::To) => Some(File::V { word: 2 }),
        _ => file(rfile, dir),
    }
}

impl File {
    /// The RFILE value envydis' syntax for this file stands for.
    pub fn rfile(self) -> u32 {
        match self {
            File::V { word } => word & 3,
            File::Sr => 8,
            File::Mi => 9,
            File::Uc => 10,
            File::L => 11,
            File::A => 12,
            File::C => 13,
            File::M { high } => 20 + high as u32,
            File::D => 22,
            File::F => 23,
            File::X => 24,
        }
    }

    /// The register-name prefix after `$`.
    pub fn prefix(self) -> &'static str {
        match self {
            File::V { .. } => "v",
            File::Sr => "sr",
            File::Mi => "mi",
            File::Uc => "uc",
            File::L => "l",
            File::A => "a",
            File::C => "c",
            File::M { .. } => "m",
            File::D => "d",
            File::F => "f",
            File::X => "x",
        }
    }

    /// How many low bits of the 5-bit index envydis prints (the rest is not shown).
    pub fn printed_bits(self) -> u32 {
        match self {
            File::C => 2,
            File::D => 3,
            File::F => 1,
            File::X => 4,
            _ => 5,
        }
    }

    /// Registers envydis prints by name instead of `$<prefix>N`.
    pub fn specials(self) -> &'static [(u32, &'static str)] {
        match self {
            File::Sr => &[(30, "tick"), (31, "csreq")],
            File::Uc => &[(16, "uccfg")],
            _ => &[],
        }
    }

    /// The file written `$<prefix>N` in assembly (the `$v` word and the `$m` half are
    /// settled by the caller from the operands).
    pub fn from_prefix(prefix: &str) -> Option<File> {
        Some(match prefix {
            "v" => File::V { word: 0 },
            "sr" => File::Sr,
            "mi" => File::Mi,
            "uc" => File::Uc,
            "l" => File::L,
            "a" => File::A,
            "c" => File::C,
            "m" => File::M { high: false },
            "d" => File::D,
            "f" => File::F,
            "x" => File::X,
            _ => return None,
        })
    }
}
