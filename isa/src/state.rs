//! Execution state shared by both engines: the wavefront's registers (`Wave`), the
//! workgroup's local data share (`Lds`) and global memory (`Memory`); what a wave exported
//! (`export`). Every access a kernel
//! can make goes through a checked method here; nothing hands out host pointers.
//! `diff` names every place where two states differ.

pub mod diff;
pub mod export;

pub use export::{Export, MAX_EXPORTS};

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use crate::arch::Gen;

pub use crate::arch::LANES;
/// VGPRs per lane.
pub const NUM_VGPRS: usize = 256;
/// Scalar register slots, indexed by their operand encoding 0-127: s0-s103 (GCN 1.2 uses
/// 102 and 103 for FLAT_SCRATCH), then VCC, TBA, TMA, TTMP0-11, M0, EXEC as the encoding
/// numbers them. `Wave::sgpr` holds only s0-s103 plus the trap registers; VCC, M0 and EXEC
/// live in their own fields and `read_sreg`/`write_sreg` route them.
pub const NUM_SREG_SLOTS: usize = 128;

/// MODE register default: round to nearest even, f32 denormals flushed, f64/f16 kept.
pub const MODE_DEFAULT: u32 = 0xC0;

/// The architectural state of one wavefront, as both engines read and write it.
///
/// `#[repr(C)]` with fixed offsets so that JIT code addresses fields directly.
#[repr(C, align(16))]
#[derive(Clone)]
pub struct Wave {
    /// `vgpr[r][lane]`: one register is 64 consecutive lanes.
    pub vgpr: [[u32; LANES]; NUM_VGPRS],
    /// Scalar slots 0-127 by encoding number; slots 106/107 (VCC), 124 (M0) and
    /// 126/127 (EXEC) are unused here (see the dedicated fields).
    pub sgpr: [u32; NUM_SREG_SLOTS],
    pub exec: u64,
    pub vcc: u64,
    pub m0: u32,
    /// 0 or 1.
    pub scc: u32,
    pub mode: u32,
    /// Byte offset of the next instruction in the program's code.
    pub pc: u32,
    /// The address pc 0 is loaded at: `s_getpc_b64` returns `code_base + pc` and
    /// `s_setpc_b64`/`s_swappc_b64` continue at `target - code_base`. 0 unless the code
    /// is loaded at an address (the launcher loads a code object the way a runtime does).
    pub code_base: u64,
    /// The generation whose semantics apply (FLAT_SCRATCH is slots 104/105 on GCN 1.1 and
    /// 102/103 on GCN 1.2, kept in `sgpr`).
    pub gen: Gen,
    /// The exports of the run so far (EXP), in program order. Not touched by compiled
    /// code: EXP runs through the interpreter's code in every engine.
    pub exports: Vec<Export>,
}

impl Wave {
    /// A wave with every register 0, EXEC all ones and MODE at its default.
    pub fn new(gen: Gen) -> Box<Wave> {
        let mut w = zeroed_box();
        w.exec = u64::MAX;
        w.mode = MODE_DEFAULT;
        w.gen = gen;
        w
    }

    /// Read a 32-bit scalar operand slot (0-127) by its encoding number.
    pub fn read_sreg(&self, slot: u8) -> u32 {
        match slot {
            106 => self.vcc as u32,
            107 => (self.vcc >> 32) as u32,
            124 => self.m0,
            126 => self.exec as u32,
            127 => (self.exec >> 32) as u32,
            s => self.sgpr[(s & 127) as usize],
        }
    }

    /// Write a 32-bit scalar operand slot (0-127) by its encoding number.
    pub fn write_sreg(&mut self, slot: u8, v: u32) {
        match slot {
            106 => self.vcc = (self.vcc & !0xffff_ffff) | v as u64,
            107 => self.vcc = (self.vcc & 0xffff_ffff) | (v as u64) << 32,
            124 => self.m0 = v,
            126 => self.exec = (self.exec & !0xffff_ffff) | v as u64,
            127 => self.exec = (self.exec & 0xffff_ffff) | (v as u64) << 32,
            s => self.sgpr[(s & 127) as usize] = v,
        }
    }

    /// Read a 64-bit scalar pair starting at `slot` (unaligned pairs allowed).
    pub fn read_sreg64(&self, slot: u8) -> u64 {
        self.read_sreg(slot) as u64 | (self.read_sreg(slot.wrapping_add(1) & 127) as u64) << 32
    }

    pub fn write_sreg64(&mut self, slot: u8, v: u64) {
        self.write_sreg(slot, v as u32);
        self.write_sreg(slot.wrapping_add(1) & 127, (v >> 32) as u32);
    }
}

/// `Box<Wave>` with all registers zero. (64 KiB; a temporary on the stack is fine on every
/// thread wavejit starts, and the optimiser usually builds it in place.)
fn zeroed_box() -> Box<Wave> {
    Box::new(Wave {
        vgpr: [[0; LANES]; NUM_VGPRS],
        sgpr: [0; NUM_SREG_SLOTS],
        exec: 0,
        vcc: 0,
        m0: 0,
        scc: 0,
        mode: 0,
        pc: 0,
        code_base: 0,
        gen: Gen::Gfx8,
        exports: Vec::new(),
    })
}

/// Which memory a faulting access was aimed at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    Global,
    Lds,
    Scratch,
    Constant,
}

impl std::fmt::Display for Space {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Space::Global => "global",
            Space::Lds => "lds",
            Space::Scratch => "scratch",
            Space::Constant => "constant",
        })
    }
}

/// An access outside every mapped byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{space} access of {size} bytes at 0x{addr:x} is out of bounds")]
pub struct MemFault {
    pub space: Space,
    pub addr: u64,
    pub size: u32,
}

/// The workgroup's local data share: a bounded byte array (64 KiB at most).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lds {
    pub bytes: Vec<u8>,
}

impl Lds {
    pub const MAX: usize = 64 * 1024;

    pub fn new(size: usize) -> Lds {
        Lds {
            bytes: vec![0; size.min(Self::MAX)],
        }
    }

    fn range(&self, addr: u32, size: u32) -> Result<std::ops::Range<usize>, MemFault> {
        let a = addr as usize;
        let end = a.checked_add(size as usize);
        match end {
            Some(e) if e <= self.bytes.len() => Ok(a..e),
            _ => Err(MemFault {
                space: Space::Lds,
                addr: addr as u64,
                size,
            }),
        }
    }

    pub fn read_u32(&self, addr: u32) -> Result<u32, MemFault> {
        let r = self.range(addr, 4)?;
        let mut b = [0u8; 4];
        b.copy_from_slice(&self.bytes[r]);
        Ok(u32::from_le_bytes(b))
    }

    pub fn write_u32(&mut self, addr: u32, v: u32) -> Result<(), MemFault> {
        let r = self.range(addr, 4)?;
        self.bytes[r].copy_from_slice(&v.to_le_bytes());
        Ok(())
    }

    pub fn read(&self, addr: u32, out: &mut [u8]) -> Result<(), MemFault> {
        let r = self.range(addr, out.len() as u32)?;
        out.copy_from_slice(&self.bytes[r]);
        Ok(())
    }

    pub fn write(&mut self, addr: u32, data: &[u8]) -> Result<(), MemFault> {
        let r = self.range(addr, data.len() as u32)?;
        self.bytes[r].copy_from_slice(data);
        Ok(())
    }
}

/// One mapped range of global memory.
#[derive(Debug)]
pub struct Region {
    pub base: u64,
    /// Length in bytes (the backing store is rounded up to whole dwords).
    pub len: u64,
    words: Box<[AtomicU32]>,
}

impl Region {
    fn word(&self, addr: u64) -> &AtomicU32 {
        &self.words[((addr - self.base) / 4) as usize]
    }

    /// The host address of the region's first byte (its dwords are atomics: compiled code
    /// that reads or writes through it does so in the same relaxed, dword-atomic way as
    /// `Memory`'s methods, after checking the access against `base` and `len`).
    pub fn host_ptr(&self) -> *const u8 {
        self.words.as_ptr() as *const u8
    }
}

/// The largest region `Memory::map` takes (64 GiB).
pub const MAX_REGION_BYTES: u64 = 1 << 36;

/// Why `Memory::map` refused a region.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MapError {
    #[error("a region at 0x{base:x} must be 4-byte aligned")]
    Misaligned { base: u64 },
    #[error("a region of {len} bytes at 0x{base:x}: regions are 1 byte to 64 GiB")]
    Size { base: u64, len: u64 },
    #[error("a region of {len} bytes at 0x{base:x} runs past the end of the address space")]
    Wraps { base: u64, len: u64 },
    #[error("a region of {len} bytes at 0x{base:x} overlaps the region at 0x{other:x}")]
    Overlap { base: u64, len: u64, other: u64 },
    #[error("the host cannot allocate {len} bytes for a region")]
    HostMemory { len: u64 },
    #[error(transparent)]
    Fault(MemFault),
}

/// `n` zero words, allocated fallibly (zeroed pages come from the OS untouched).
fn zeroed_words(n: u64) -> Option<Box<[AtomicU32]>> {
    let n = usize::try_from(n).ok()?;
    let layout = std::alloc::Layout::array::<AtomicU32>(n).ok()?;
    if layout.size() == 0 {
        return Some(Box::new([]));
    }
    // SAFETY: the layout has a nonzero size; a null result is handled; all-zero bytes are
    // a valid `AtomicU32` (it has the size and bit validity of `u32`), so the slice of `n`
    // of them built from the allocation is initialised, and `Box` frees it with the same
    // layout (the global allocator, `Layout::array::<AtomicU32>(n)`).
    unsafe {
        let p = std::alloc::alloc_zeroed(layout) as *mut AtomicU32;
        if p.is_null() {
            return None;
        }
        Some(Box::from_raw(std::ptr::slice_from_raw_parts_mut(p, n)))
    }
}

/// Bumped whenever a `Memory` maps a region or is dropped (`Memory::map_epoch`).
static MAP_EPOCH: AtomicU64 = AtomicU64::new(0);

/// The locks of `Memory::rmw_u64` on qwords that are not 8-byte aligned on the host.
static QWORD_LOCKS: [std::sync::Mutex<()>; 64] = [const { std::sync::Mutex::new(()) }; 64];

/// Global memory: a set of disjoint mapped regions. Shared between the threads of a grid
/// (`&Memory` is `Sync`): every dword is an atomic, so concurrent waves race as a GPU's
/// would, without undefined behaviour in the host.
#[derive(Debug, Default)]
pub struct Memory {
    regions: Vec<Region>,
}

impl Drop for Memory {
    fn drop(&mut self) {
        MAP_EPOCH.fetch_add(1, Ordering::AcqRel);
    }
}

impl Memory {
    pub fn new() -> Memory {
        Memory::default()
    }

    /// A copy: the same regions with the same bytes, copied word by word.
    pub fn duplicate(&self) -> Memory {
        let regions = self
            .regions
            .iter()
            .map(|r| Region {
                base: r.base,
                len: r.len,
                words: r
                    .words
                    .iter()
                    .map(|w| AtomicU32::new(w.load(Ordering::Relaxed)))
                    .collect(),
            })
            .collect();
        // New regions, as `map` makes (see `map_epoch`).
        MAP_EPOCH.fetch_add(1, Ordering::AcqRel);
        Memory { regions }
    }

    /// A counter of changes to any `Memory`'s regions: it moves whenever one maps a region
    /// or is dropped. What a cache learned about the regions of the `Memory` at some
    /// address (region bounds, host addresses) holds for as long as this value is the
    /// one it was learned under: another `Memory` at that address, or a new region, moves
    /// it first.
    pub fn map_epoch() -> u64 {
        MAP_EPOCH.load(Ordering::Acquire)
    }

    /// Map `len` zero bytes at `base` (4-byte aligned). Overlapping maps are refused, and
    /// so is a map the host cannot allocate (an error, never an abort). Regions are kept
    /// sorted; a map above every region (the usual order) costs O(log n) besides its bytes.
    pub fn map(&mut self, base: u64, len: u64) -> Result<(), MapError> {
        if !base.is_multiple_of(4) {
            return Err(MapError::Misaligned { base });
        }
        if len == 0 || len > MAX_REGION_BYTES {
            return Err(MapError::Size { base, len });
        }
        // The region may end exactly at 2^64 (its last byte is 2^64 - 1).
        let last = base
            .checked_add(len - 1)
            .ok_or(MapError::Wraps { base, len })?;
        let at = self.regions.partition_point(|r| r.base <= base);
        let before = at.checked_sub(1).map(|i| &self.regions[i]);
        let after = self.regions.get(at);
        let overlaps = |r: &Region| base <= r.base + (r.len - 1) && r.base <= last;
        if let Some(r) = before.into_iter().chain(after).find(|r| overlaps(r)) {
            return Err(MapError::Overlap {
                base,
                len,
                other: r.base,
            });
        }
        let words = zeroed_words(len.div_ceil(4)).ok_or(MapError::HostMemory { len })?;
        self.regions.reserve(1);
        self.regions.insert(at, Region { base, len, words });
        MAP_EPOCH.fetch_add(1, Ordering::AcqRel);
        Ok(())
    }

    /// Map and fill with `data`.
    pub fn map_bytes(&mut self, base: u64, data: &[u8]) -> Result<(), MapError> {
        self.map(base, data.len().max(1) as u64)?;
        self.write(base, data).map_err(MapError::Fault)
    }

    pub fn regions(&self) -> &[Region] {
        &self.regions
    }

    /// The lowest address above every mapped region, 256-byte aligned: where the next
    /// buffer can go.
    pub fn top(&self) -> u64 {
        self.regions
            .iter()
            .map(|r| r.base.saturating_add(r.len))
            .max()
            .unwrap_or(0x1000)
            .next_multiple_of(256)
    }

    fn region(&self, addr: u64, size: u32) -> Result<&Region, MemFault> {
        let fault = MemFault {
            space: Space::Global,
            addr,
            size,
        };
        let idx = self.regions.partition_point(|r| r.base <= addr);
        let r = idx.checked_sub(1).map(|i| &self.regions[i]).ok_or(fault)?;
        // Last bytes, so that a region ending exactly at 2^64 works.
        let last = addr
            .checked_add((size as u64).saturating_sub(1))
            .ok_or(fault)?;
        if last <= r.base + (r.len - 1) {
            Ok(r)
        } else {
            Err(fault)
        }
    }

    /// The region holding every byte of `lo..end` (`lo < end`), if one does.
    pub fn region_spanning(&self, lo: u64, end: u64) -> Option<&Region> {
        let idx = self.regions.partition_point(|r| r.base <= lo);
        let r = &self.regions[idx.checked_sub(1)?];
        (lo < end && end <= r.base + r.len).then_some(r)
    }

    /// Read bytes (any alignment) into `out`: the bytes before the first dword boundary
    /// one by one, then whole dwords (a launch reads its buffers back this way), then the
    /// tail.
    pub fn read(&self, addr: u64, out: &mut [u8]) -> Result<(), MemFault> {
        let r = self.region(addr, out.len() as u32)?;
        let byte = |a: u64| (r.word(a & !3).load(Ordering::Relaxed) >> ((a & 3) * 8)) as u8;
        let head = ((4 - (addr & 3)) & 3).min(out.len() as u64) as usize;
        for (i, b) in out[..head].iter_mut().enumerate() {
            *b = byte(addr + i as u64);
        }
        let body = (out.len() - head) / 4;
        let first = ((addr + head as u64 - r.base) / 4) as usize;
        let words = &r.words[first..first + body];
        for (o, w) in out[head..head + 4 * body].chunks_exact_mut(4).zip(words) {
            o.copy_from_slice(&w.load(Ordering::Relaxed).to_le_bytes());
        }
        for (i, b) in out.iter_mut().enumerate().skip(head + 4 * body) {
            *b = byte(addr + i as u64);
        }
        Ok(())
    }

    /// Write bytes (any alignment): bytes outside whole dwords are merged into their dword
    /// atomically, whole dwords stored (a launch fills its buffers this way).
    pub fn write(&self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        let r = self.region(addr, data.len() as u32)?;
        let byte = |a: u64, v: u8| {
            let sh = (a & 3) * 8;
            let mask = !(0xffu32 << sh);
            let bits = (v as u32) << sh;
            let _ = r
                .word(a & !3)
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |old| {
                    Some((old & mask) | bits)
                });
        };
        let head = ((4 - (addr & 3)) & 3).min(data.len() as u64) as usize;
        for (i, &v) in data[..head].iter().enumerate() {
            byte(addr + i as u64, v);
        }
        let body = (data.len() - head) / 4;
        let first = ((addr + head as u64 - r.base) / 4) as usize;
        let words = &r.words[first..first + body];
        for (d, w) in data[head..head + 4 * body].chunks_exact(4).zip(words) {
            w.store(
                u32::from_le_bytes([d[0], d[1], d[2], d[3]]),
                Ordering::Relaxed,
            );
        }
        for (i, &v) in data.iter().enumerate().skip(head + 4 * body) {
            byte(addr + i as u64, v);
        }
        Ok(())
    }

    pub fn read_u32(&self, addr: u64) -> Result<u32, MemFault> {
        if addr.is_multiple_of(4) {
            let r = self.region(addr, 4)?;
            return Ok(r.word(addr).load(Ordering::Relaxed));
        }
        let mut b = [0u8; 4];
        self.read(addr, &mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    pub fn write_u32(&self, addr: u64, v: u32) -> Result<(), MemFault> {
        if addr.is_multiple_of(4) {
            let r = self.region(addr, 4)?;
            r.word(addr).store(v, Ordering::Relaxed);
            return Ok(());
        }
        self.write(addr, &v.to_le_bytes())
    }

    /// Atomic read-modify-write of an 8-byte aligned qword (little-endian, two dwords):
    /// stores `f(old)` and returns `old`. Atomic with respect to every other `rmw_u64` on
    /// any host thread: a qword whose two dwords lie 8-byte aligned on the host (a region
    /// based at a multiple of 8, as the allocator gives it) is updated by one host 64-bit
    /// atomic, so against 32-bit accesses too; any other under a lock striped by address.
    pub fn rmw_u64(&self, addr: u64, f: impl Fn(u64) -> u64) -> Result<u64, MemFault> {
        let fault = MemFault {
            space: Space::Global,
            addr,
            size: 8,
        };
        if !addr.is_multiple_of(8) {
            return Err(fault);
        }
        let r = self.region(addr, 8)?;
        let i = ((addr - r.base) / 4) as usize;
        let pair = r.words.get(i..i + 2).ok_or(fault)?;
        let p = pair.as_ptr();
        if (p as usize).is_multiple_of(8) {
            // SAFETY: `p` points at two adjacent, initialised `AtomicU32`s of the region
            // (bounds checked just above), 8-byte aligned, which live as long as `&self`;
            // `AtomicU64` has the size and bit validity of two `u32`s. They are only ever
            // shared (atomics), never mutably borrowed, so viewing them as one atomic
            // qword is an ordinary 8-byte atomic access of that memory.
            let q = unsafe { &*(p as *const std::sync::atomic::AtomicU64) };
            let old = q
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |o| Some(f(o)))
                .unwrap_or_else(|o| o);
            return Ok(old);
        }
        let lock = &QWORD_LOCKS[((addr >> 3) as usize) % QWORD_LOCKS.len()];
        let _g = lock.lock().unwrap_or_else(|e| e.into_inner());
        let old =
            pair[0].load(Ordering::Relaxed) as u64 | (pair[1].load(Ordering::Relaxed) as u64) << 32;
        let new = f(old);
        pair[0].store(new as u32, Ordering::Relaxed);
        pair[1].store((new >> 32) as u32, Ordering::Relaxed);
        Ok(old)
    }

    /// Atomic read-modify-write of an aligned dword: stores `f(old)` and returns `old`.
    pub fn rmw_u32(&self, addr: u64, f: impl Fn(u32) -> u32) -> Result<u32, MemFault> {
        if !addr.is_multiple_of(4) {
            return Err(MemFault {
                space: Space::Global,
                addr,
                size: 4,
            });
        }
        let r = self.region(addr, 4)?;
        let old = r
            .word(addr)
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |o| Some(f(o)))
            .unwrap_or_else(|o| o);
        Ok(old)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// The fault of a global access of `size` bytes at `addr`.
    fn glob(addr: u64, size: u32) -> MemFault {
        MemFault {
            space: Space::Global,
            addr,
            size,
        }
    }

    #[test]
    fn unaligned_reads_and_writes_match_a_byte_array() {
        // Every (start, length) within a 37-byte region against a plain byte array.
        let mut m = Memory::new();
        m.map(0x100, 37).unwrap();
        let mut model = vec![0u8; 37];
        let mut next = 1u8;
        for start in 0..37usize {
            for len in 0..=(37 - start) {
                let data: Vec<u8> = (0..len)
                    .map(|_| {
                        next = next.wrapping_mul(31).wrapping_add(7);
                        next
                    })
                    .collect();
                m.write(0x100 + start as u64, &data).unwrap();
                model[start..start + len].copy_from_slice(&data);
                let mut all = vec![0u8; 37];
                m.read(0x100, &mut all).unwrap();
                assert_eq!(all, model, "after writing {len} bytes at {start}");
                let mut part = vec![0u8; len];
                m.read(0x100 + start as u64, &mut part).unwrap();
                assert_eq!(part, model[start..start + len]);
            }
        }
        assert_eq!(
            m.read(0x100 + 30, &mut [0u8; 8]),
            Err(glob(0x100 + 30, 8)),
            "past the end"
        );
    }

    #[test]
    fn sreg_routing_and_pairs() {
        let mut w = Wave::new(Gen::Gfx8);
        assert_eq!(w.exec, u64::MAX);
        assert_eq!(w.mode, 0xC0);
        w.write_sreg(106, 0x1234);
        w.write_sreg(107, 0xabcd);
        assert_eq!(w.vcc, 0xabcd_0000_1234);
        w.write_sreg64(3, 0x1111_2222_3333_4444);
        assert_eq!(w.sgpr[3], 0x3333_4444);
        assert_eq!(w.sgpr[4], 0x1111_2222);
        assert_eq!(w.read_sreg64(3), 0x1111_2222_3333_4444);
    }

    #[test]
    fn memory_bounds_and_bytes() {
        let mut m = Memory::new();
        m.map(0x1000, 10).unwrap();
        assert_eq!(
            m.map(0x1008, 8),
            Err(MapError::Overlap {
                base: 0x1008,
                len: 8,
                other: 0x1000
            }),
            "overlap refused"
        );
        m.write(0x1001, &[1, 2, 3, 4, 5]).unwrap();
        assert_eq!(m.read_u32(0x1000).unwrap(), 0x0403_0201 << 8);
        // Bytes 0x1001..0x1006 hold 1..5, so the dword at 0x1004 is bytes [4, 5, 0, 0].
        assert_eq!(m.read_u32(0x1004).unwrap(), 0x0504);
        assert_eq!(
            m.read_u32(0x1008),
            Err(glob(0x1008, 4)),
            "bytes 10 and 11 are past the end"
        );
        assert_eq!(m.read_u32(0xfff), Err(glob(0xfff, 4)));
        assert_eq!(
            m.write(u64::MAX - 1, &[0, 0, 0, 0]),
            Err(glob(u64::MAX - 1, 4))
        );
        assert_eq!(m.rmw_u32(0x1004, |o| o + 7).unwrap(), 0x0504);
        assert_eq!(m.read_u32(0x1004).unwrap(), 0x050b);
        let mut l = Lds::new(16);
        l.write_u32(12, 9).unwrap();
        assert_eq!(l.read_u32(12).unwrap(), 9);
        let lds = |addr: u32| MemFault {
            space: Space::Lds,
            addr: addr as u64,
            size: 4,
        };
        assert_eq!(l.read_u32(13), Err(lds(13)));
        assert_eq!(l.read_u32(u32::MAX), Err(lds(u32::MAX)));
    }

    #[test]
    fn qword_atomics_race_between_threads() {
        // Region A starts at a multiple of 8 (qwords 8-aligned on the host); region B at
        // 4 mod 8, so its qwords straddle host dwords differently (the locked path).
        let mut m = Memory::new();
        m.map(0x1000, 64).unwrap();
        m.map(0x2004, 64).unwrap();
        for q in [0x1008u64, 0x2008] {
            m.write(q, &0x1122_3344_5566_7788u64.to_le_bytes()).unwrap();
            let old = m.rmw_u64(q, |v| v.wrapping_add(0x8899)).unwrap();
            assert_eq!(old, 0x1122_3344_5566_7788);
            let mut b = [0u8; 8];
            m.read(q, &mut b).unwrap();
            assert_eq!(u64::from_le_bytes(b), 0x1122_3344_5566_7788 + 0x8899);
            m.write(q, &[0; 8]).unwrap();
            let f = m.rmw_u64(q + 4, |v| v).unwrap_err();
            assert_eq!((f.addr, f.size), (q + 4, 8), "misaligned");
        }
        // Past the end: 0x1040 is the first byte after region A.
        assert_eq!(m.rmw_u64(0x1040, |v| v).unwrap_err().addr, 0x1040);
        assert_eq!(
            m.rmw_u64(0x2040, |v| v),
            Err(glob(0x2040, 8)),
            "0x2040..0x2048 ends past 0x2044"
        );
        // Four threads, 20000 adds each whose low half carries into the high half.
        let (threads, adds, v) = (4u64, 20_000u64, 0xffff_ffffu64);
        std::thread::scope(|sc| {
            for _ in 0..threads {
                sc.spawn(|| {
                    for _ in 0..adds {
                        for q in [0x1008u64, 0x2008] {
                            m.rmw_u64(q, |x| x.wrapping_add(v)).unwrap();
                        }
                    }
                });
            }
        });
        for q in [0x1008u64, 0x2008] {
            let mut b = [0u8; 8];
            m.read(q, &mut b).unwrap();
            assert_eq!(u64::from_le_bytes(b), threads * adds * v, "at 0x{q:x}");
        }
    }
}
