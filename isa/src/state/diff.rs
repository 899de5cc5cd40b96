//! Typed differences between two machine states: where two GCN waves, two LDS images, two
//! memories or two VP1 scalar states disagree, and the two values. One comparison for
//! every consumer (the `diff` engine, the fuzzer, the engine tests), so that they all
//! compare the same fields and name places the same way (`v3 lane 17`, `s5`, `ttmp2`,
//! `exec`, `lds 0x40`, `memory 0x1000`, `$r3`, `$v2[1]`).

use std::fmt;
use std::sync::atomic::Ordering::Relaxed;

use super::{Lds, Memory, Wave, LANES};
use crate::vp1;

/// Where two states differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    Vgpr {
        reg: usize,
        lane: usize,
    },
    /// A scalar slot by its encoding number (s0-s103, TBA, TMA, TTMP0-11).
    Sreg(usize),
    Exec,
    Vcc,
    M0,
    Scc,
    Mode,
    Pc,
    Gen,
    LdsSize,
    /// The LDS dword at this byte offset.
    Lds(u64),
    /// The base of a memory region (the regions differ).
    MemoryRegion(usize),
    /// The memory dword at this address.
    Memory(u64),
    /// A VP1 register: its file (`r`, `c`, `v`, …), number and, for `$v`, word.
    Vp1 {
        file: &'static str,
        index: usize,
        word: Option<usize>,
    },
    Vp1Variant,
    Vp1S2v,
    /// The export at this index (`Wave::exports`), or the number of exports.
    Export(usize),
    ExportCount,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Vgpr { reg, lane } => write!(f, "v{reg} lane {lane}"),
            Place::Sreg(s) => match s {
                108 => f.write_str("tba_lo"),
                109 => f.write_str("tba_hi"),
                110 => f.write_str("tma_lo"),
                111 => f.write_str("tma_hi"),
                112..=123 => write!(f, "ttmp{}", s - 112),
                _ => write!(f, "s{s}"),
            },
            Place::Exec => f.write_str("exec"),
            Place::Vcc => f.write_str("vcc"),
            Place::M0 => f.write_str("m0"),
            Place::Scc => f.write_str("scc"),
            Place::Mode => f.write_str("mode"),
            Place::Pc => f.write_str("pc"),
            Place::Gen => f.write_str("gen"),
            Place::LdsSize => f.write_str("lds size"),
            Place::Lds(a) => write!(f, "lds 0x{a:x}"),
            Place::MemoryRegion(i) => write!(f, "memory region {i}"),
            Place::Memory(a) => write!(f, "memory 0x{a:x}"),
            Place::Vp1 {
                file,
                index,
                word: None,
            } => write!(f, "${file}{index}"),
            Place::Vp1 {
                file,
                index,
                word: Some(w),
            } => write!(f, "${file}{index}[{w}]"),
            Place::Vp1Variant => f.write_str("variant"),
            Place::Vp1S2v => f.write_str("s2v"),
            Place::Export(i) => write!(f, "export {i}"),
            Place::ExportCount => f.write_str("export count"),
        }
    }
}

/// One difference: the place and its two values (the first state's, the second's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    pub place: Place,
    pub a: String,
    pub b: String,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} vs {}", self.place, self.a, self.b)
    }
}

fn word(place: Place, a: u64, b: u64) -> Option<Difference> {
    (a != b).then(|| Difference {
        place,
        a: format!("{a:#x}"),
        b: format!("{b:#x}"),
    })
}

/// Scalar slots that hold state of their own (VCC, M0 and EXEC live in their fields).
fn own_sreg(slot: usize) -> bool {
    !matches!(slot, 106 | 107 | 124 | 126 | 127)
}

impl Wave {
    /// Every difference from `other`: VGPRs (register by register, lane by lane), scalar
    /// slots, EXEC, VCC, M0, SCC, MODE, the pc, the generation and the exports, in that
    /// order.
    pub fn diff<'a>(&'a self, other: &'a Wave) -> impl Iterator<Item = Difference> + 'a {
        let vgprs = self
            .vgpr
            .iter()
            .zip(other.vgpr.iter())
            .enumerate()
            .filter(|(_, (x, y))| x != y)
            .flat_map(|(reg, (x, y))| {
                (0..LANES).filter_map(move |lane| {
                    word(Place::Vgpr { reg, lane }, x[lane] as u64, y[lane] as u64)
                })
            });
        let sregs = (0..self.sgpr.len().min(other.sgpr.len()))
            .filter(|&s| own_sreg(s))
            .filter_map(|s| word(Place::Sreg(s), self.sgpr[s] as u64, other.sgpr[s] as u64));
        let (x, y) = (self, other);
        let fields = [
            (Place::Exec, x.exec, y.exec),
            (Place::Vcc, x.vcc, y.vcc),
            (Place::M0, x.m0 as u64, y.m0 as u64),
            (Place::Scc, x.scc as u64, y.scc as u64),
            (Place::Mode, x.mode as u64, y.mode as u64),
            (Place::Pc, x.pc as u64, y.pc as u64),
        ]
        .into_iter()
        .filter_map(|(p, a, b)| word(p, a, b));
        let gen = (x.gen != y.gen).then(|| Difference {
            place: Place::Gen,
            a: x.gen.to_string(),
            b: y.gen.to_string(),
        });
        let count = word(
            Place::ExportCount,
            x.exports.len() as u64,
            y.exports.len() as u64,
        );
        let exports = x
            .exports
            .iter()
            .zip(&y.exports)
            .enumerate()
            .filter_map(|(i, (a, b))| export_diff(i, a, b));
        vgprs
            .chain(sregs)
            .chain(fields)
            .chain(gen)
            .chain(count)
            .chain(exports)
    }
}

/// The first way two exports differ: their fields, or else the first channel and lane
/// whose data differs.
fn export_diff(i: usize, a: &super::Export, b: &super::Export) -> Option<Difference> {
    let head = |e: &super::Export| {
        format!(
            "tgt {} en {:#x} compr {} done {} vm {} exec {:#x}",
            e.tgt, e.en, e.compr, e.done, e.vm, e.exec
        )
    };
    let (ha, hb) = (head(a), head(b));
    if ha != hb {
        return Some(Difference {
            place: Place::Export(i),
            a: ha,
            b: hb,
        });
    }
    let (c, lane) = (0..4)
        .flat_map(|c| (0..LANES).map(move |l| (c, l)))
        .find(|&(c, l)| a.data[c][l] != b.data[c][l])?;
    Some(Difference {
        place: Place::Export(i),
        a: format!("channel {c} lane {lane} {:#x}", a.data[c][lane]),
        b: format!("channel {c} lane {lane} {:#x}", b.data[c][lane]),
    })
}

/// Every dword that differs between two byte images, named by `place(address)`; images of
/// different lengths are one difference, named by `size`.
pub fn bytes_diff<'a>(
    base: u64,
    a: &'a [u8],
    b: &'a [u8],
    place: fn(u64) -> Place,
    size: Place,
) -> Box<dyn Iterator<Item = Difference> + 'a> {
    if a.len() != b.len() {
        return Box::new(std::iter::once(Difference {
            place: size,
            a: a.len().to_string(),
            b: b.len().to_string(),
        }));
    }
    // Equal images (the common case: the diff engine compares after every block) cost
    // one slice comparison.
    if a == b {
        return Box::new(std::iter::empty());
    }
    let w = |c: &[u8]| c.iter().rev().fold(0u64, |acc, &v| acc << 8 | v as u64);
    Box::new(
        a.chunks(4)
            .zip(b.chunks(4))
            .enumerate()
            .filter(|(_, (x, y))| x != y)
            .filter_map(move |(i, (x, y))| word(place(base + 4 * i as u64), w(x), w(y))),
    )
}

/// Every dword that differs between two memory images, each a list of regions as (base,
/// bytes); a region at another base, or of another size, is one difference.
pub fn image_diff<'a>(
    a: &'a [(u64, Vec<u8>)],
    b: &'a [(u64, Vec<u8>)],
) -> impl Iterator<Item = Difference> + 'a {
    let count = word(
        Place::MemoryRegion(a.len().min(b.len())),
        a.len() as u64,
        b.len() as u64,
    );
    let regions = a
        .iter()
        .zip(b)
        .enumerate()
        .flat_map(|(i, ((ba, ma), (bb, mb)))| {
            if ba != bb {
                Box::new(word(Place::MemoryRegion(i), *ba, *bb).into_iter())
            } else {
                bytes_diff(*ba, ma, mb, Place::Memory, Place::MemoryRegion(i))
            }
        });
    regions.chain(count)
}

impl Lds {
    /// Every LDS dword that differs from `other` (or the sizes).
    pub fn diff<'a>(&'a self, other: &'a Lds) -> impl Iterator<Item = Difference> + 'a {
        bytes_diff(0, &self.bytes, &other.bytes, Place::Lds, Place::LdsSize)
    }
}

impl Memory {
    /// Every mapped dword that differs from `other`; regions at different places are one
    /// difference each.
    pub fn diff<'a>(&'a self, other: &'a Memory) -> impl Iterator<Item = Difference> + 'a {
        let regions = self.regions().iter().zip(other.regions()).enumerate();
        regions.flat_map(
            move |(i, (ra, rb))| -> Box<dyn Iterator<Item = Difference> + 'a> {
                if ra.base != rb.base || ra.len != rb.len {
                    return Box::new(word(Place::MemoryRegion(i), ra.base, rb.base).into_iter());
                }
                // The two backing stores side by side, dword by dword (no address lookup
                // per word). A partial last dword counts: its bytes past the end stay zero
                // (every access is checked against the region's length).
                let base = ra.base;
                Box::new(ra.words.iter().zip(rb.words.iter()).enumerate().filter_map(
                    move |(k, (x, y))| {
                        let (x, y) = (x.load(Relaxed), y.load(Relaxed));
                        // Equal words (nearly all) make no call.
                        if x == y {
                            return None;
                        }
                        word(Place::Memory(base + 4 * k as u64), x as u64, y as u64)
                    },
                ))
            },
        )
    }
}

impl vp1::State {
    /// Every difference from `other`: each register file in turn, `$c`, `$l`, `$v` word
    /// by word, the s2v bus and the variant.
    pub fn diff(&self, other: &vp1::State) -> Vec<Difference> {
        let (x, y) = (self, other);
        let mut out = Vec::new();
        let files: [(&'static str, &[u32], &[u32]); 10] = [
            ("r", &x.r, &y.r),
            ("vc", &x.vc, &y.vc),
            ("a", &x.a, &y.a),
            ("m", &x.m, &y.m),
            ("sr", &x.sr, &y.sr),
            ("mi", &x.mi, &y.mi),
            ("uc", &x.uc, &y.uc),
            ("d", &x.d, &y.d),
            ("f", &x.f, &y.f),
            ("x", &x.x, &y.x),
        ];
        let reg = |file, index| Place::Vp1 {
            file,
            index,
            word: None,
        };
        for (file, p, q) in files {
            for (i, (a, b)) in p.iter().zip(q).enumerate() {
                out.extend(word(reg(file, i), *a as u64, *b as u64));
            }
        }
        for i in 0..4 {
            out.extend(word(reg("c", i), x.c[i] as u64, y.c[i] as u64));
            out.extend(word(reg("l", i), x.l[i] as u64, y.l[i] as u64));
        }
        for (i, (p, q)) in x.v.iter().zip(&y.v).enumerate() {
            for w in 0..4 {
                let place = Place::Vp1 {
                    file: "v",
                    index: i,
                    word: Some(w),
                };
                out.extend(word(place, p[w] as u64, q[w] as u64));
            }
        }
        if x.s2v != y.s2v {
            out.push(Difference {
                place: Place::Vp1S2v,
                a: format!("{:?}", x.s2v),
                b: format!("{:?}", y.s2v),
            });
        }
        if x.variant != y.variant {
            out.push(Difference {
                place: Place::Vp1Variant,
                a: x.variant.to_string(),
                b: y.variant.to_string(),
            });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Gen;

    #[test]
    fn equal_waves_have_no_difference() {
        let (a, b) = (Wave::new(Gen::Gfx8), Wave::new(Gen::Gfx8));
        assert_eq!(a.diff(&b).count(), 0);
    }

    #[test]
    fn differences_are_named_and_ordered() {
        let a = Wave::new(Gen::Gfx8);
        let mut b = Wave::new(Gen::Gfx8);
        b.vgpr[3][17] = 5;
        b.sgpr[113] = 1;
        b.exec = 1;
        let d: Vec<String> = a.diff(&b).map(|d| d.to_string()).collect();
        assert_eq!(
            d,
            [
                "v3 lane 17: 0x0 vs 0x5",
                "ttmp1: 0x0 vs 0x1",
                "exec: 0xffffffffffffffff vs 0x1"
            ]
        );
    }

    #[test]
    fn lds_dwords_and_sizes() {
        let a = Lds { bytes: vec![0; 8] };
        let mut b = a.clone();
        b.bytes[5] = 0x12;
        let d: Vec<Difference> = a.diff(&b).collect();
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].place, Place::Lds(4));
        assert_eq!(d[0].b, "0x1200");
        let c = Lds { bytes: vec![0; 4] };
        assert_eq!(a.diff(&c).next().map(|d| d.place), Some(Place::LdsSize));
    }

    #[test]
    fn memory_dwords_including_a_partial_last_one() -> Result<(), Box<dyn std::error::Error>> {
        let mut a = Memory::new();
        a.map(0x1000, 10)?;
        a.map(0x2000, 8)?;
        let mut b = Memory::new();
        b.map(0x1000, 10)?;
        b.map(0x2000, 8)?;
        assert_eq!(a.diff(&b).count(), 0);
        b.write(0x1005, &[0x34])?;
        b.write(0x1009, &[0x12])?;
        b.write_u32(0x2004, 7)?;
        let d: Vec<String> = a.diff(&b).map(|d| d.to_string()).collect();
        assert_eq!(
            d,
            [
                "memory 0x1004: 0x0 vs 0x3400",
                "memory 0x1008: 0x0 vs 0x1200",
                "memory 0x2004: 0x0 vs 0x7"
            ]
        );
        Ok(())
    }
}
