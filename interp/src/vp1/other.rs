//! mov to (0x6a) and from (0x6b) the other register files (004_1a7ba760ea192bb0.txt "Move
//! to/from other register file"; vp1-notes.md 7): which register an index reaches, the
//! wrapping and read-only rules, and the G80-only files.

use wavejit_isa::vp1::rfile::File;
use wavejit_isa::vp1::State;

/// Read `$<file>[idx]` (idx 0-31). `None`: the file does not exist on this variant (the
/// destination is then left alone).
pub fn read(s: &State, file: File, idx: u32) -> Option<u32> {
    let i = (idx & 31) as usize;
    let g80 = s.variant.is_g80();
    match file {
        File::V { word } => s.v.get(i).and_then(|v| v.get((word & 3) as usize)).copied(),
        File::Sr => s.sr.get(i).copied(),
        File::Mi => s.mi.get(i).copied(),
        File::Uc => s.uc.get(i).copied(),
        // Reads wrap modulo 4.
        File::L => s.l.get(i & 3).map(|&v| v as u32),
        File::A => s.a.get(i).copied(),
        // Indices over 3 read as 0.
        File::C => Some(s.c.get(i).map_or(0, |&v| v as u32)),
        File::M { high } => s.m.get(i + 32 * high as usize).copied(),
        File::D if g80 => s.d.get(i & 7).copied(),
        File::F => s.f.get(i & 1).copied(),
        File::X if g80 => s.x.get(i & 15).copied(),
        File::D | File::X => None,
    }
}

/// Write `$<file>[idx]` (idx 0-31). Writes the hardware ignores are dropped here: `$l`
/// indices over 3, the read-only `$c`, and files the variant does not have.
pub fn write(s: &mut State, file: File, idx: u32, v: u32) {
    let i = (idx & 31) as usize;
    let g80 = s.variant.is_g80();
    let slot: Option<&mut u32> = match file {
        File::V { word } => s.v.get_mut(i).and_then(|r| r.get_mut((word & 3) as usize)),
        File::Sr => s.sr.get_mut(i),
        File::Mi => s.mi.get_mut(i),
        File::Uc => s.uc.get_mut(i),
        File::L => {
            // Only the low 16 bits; indices over 3 are ignored.
            if let Some(l) = s.l.get_mut(i) {
                *l = v as u16;
            }
            None
        }
        File::A => s.a.get_mut(i),
        File::C => None,
        File::M { high } => s.m.get_mut(i + 32 * high as usize),
        File::D if g80 => s.d.get_mut(i & 7),
        File::F => s.f.get_mut(i & 1),
        File::X if g80 => s.x.get_mut(i & 15),
        File::D | File::X => None,
    };
    if let Some(slot) = slot {
        *slot = v;
    }
}
