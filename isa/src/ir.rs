//! The IR both engines run: a program's code decoded once into instructions with explicit
//! fields, grouped into basic blocks. GCN and VP1 share it.
//!
//! Decoding is a linear sweep from offset 0. A word that does not decode is kept as its
//! `DecodeError` in the slot at that offset; the sweep stops there (the length of garbage
//! is unknowable), and executing that pc — or any pc past it — reports the error.

use std::collections::BTreeSet;

use crate::arch::Arch;
use crate::error::DecodeError;
pub use crate::flow::Flow;
pub use crate::reguse::RegUse;
use crate::{gcn, vp1};

/// One decoded instruction of either ISA.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inst {
    Gcn(gcn::Inst),
    Vp1(vp1::Inst),
}

/// An instruction at its position in the code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Byte offset in the code.
    pub pc: u32,
    /// Size in bytes (4 or 8; 0 for a failed decode).
    pub size: u32,
    pub inst: Result<Inst, DecodeError>,
}

/// A basic block: `slots[first..first + len]`, entered only at its first instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    pub pc: u32,
    pub first: usize,
    pub len: usize,
}

/// A decoded program.
#[derive(Clone, Debug)]
pub struct Program {
    pub arch: Arch,
    pub code: Vec<u8>,
    pub slots: Vec<Slot>,
    pub blocks: Vec<Block>,
    /// The registers the program's instructions name (every register for VP1 and for
    /// code that addresses registers at run time).
    pub regs: RegUse,
    /// `slot_at[pc / 4]` = index of the slot starting at that pc (`u32::MAX` if none).
    slot_at: Vec<u32>,
}

impl Program {
    /// Decode `code` for `arch` and split it into basic blocks.
    pub fn new(arch: Arch, code: &[u8]) -> Program {
        let mut slots = Vec::new();
        let mut pc = 0u32;
        while (pc as usize) < code.len() {
            let rest = &code[pc as usize..];
            let r = match arch {
                // Executed as the hardware would: bits in fields the operation ignores
                // are ignored (the disassembler flags them; docs/ignored-bits.md).
                Arch::Gcn(g) => {
                    gcn::decode::decode_tolerant(g, rest, pc).map(|(i, n, _)| (Inst::Gcn(i), n))
                }
                Arch::Vp1 => vp1::decode(rest, pc).map(|(i, n)| (Inst::Vp1(i), n)),
            };
            match r {
                Ok((inst, n)) => {
                    slots.push(Slot {
                        pc,
                        size: n,
                        inst: Ok(inst),
                    });
                    pc += n;
                }
                Err(e) => {
                    slots.push(Slot {
                        pc,
                        size: 0,
                        inst: Err(e),
                    });
                    break;
                }
            }
        }
        let mut slot_at = vec![u32::MAX; code.len().div_ceil(4) + 1];
        for (i, s) in slots.iter().enumerate() {
            slot_at[(s.pc / 4) as usize] = i as u32;
        }
        let blocks = split_blocks(&slots, code.len() as u32);
        let regs = match arch {
            Arch::Gcn(g) => RegUse::of_gcn(
                g,
                slots.iter().filter_map(|s| match &s.inst {
                    Ok(Inst::Gcn(i)) => Some(i),
                    _ => None,
                }),
            ),
            Arch::Vp1 => RegUse::ALL,
        };
        Program {
            arch,
            code: code.to_vec(),
            slots,
            blocks,
            regs,
            slot_at,
        }
    }

    /// The slot index of the instruction starting at `pc`, if one does.
    pub fn slot_index(&self, pc: u32) -> Option<usize> {
        if pc & 3 != 0 {
            return None;
        }
        match self.slot_at.get((pc / 4) as usize) {
            Some(&i) if i != u32::MAX => Some(i as usize),
            _ => None,
        }
    }

    /// The block that starts at `pc`, if any.
    pub fn block_at(&self, pc: u32) -> Option<&Block> {
        self.blocks
            .binary_search_by_key(&pc, |b| b.pc)
            .ok()
            .map(|i| &self.blocks[i])
    }
}

/// How `inst` leaves the straight line, for an instruction at `pc` of `size` bytes.
pub fn flow(inst: &Inst, pc: u32, size: u32) -> Flow {
    match inst {
        Inst::Gcn(i) => gcn::flow(i, pc, size),
        Inst::Vp1(_) => Flow::Next,
    }
}

fn split_blocks(slots: &[Slot], code_len: u32) -> Vec<Block> {
    let mut leaders = BTreeSet::new();
    if !slots.is_empty() {
        leaders.insert(0u32);
    }
    for s in slots {
        let Ok(inst) = &s.inst else {
            // A failed decode is a block of its own: running it reports the error.
            leaders.insert(s.pc);
            continue;
        };
        match flow(inst, s.pc, s.size) {
            Flow::Next => {}
            Flow::Branch { target, .. } => {
                if target < code_len {
                    leaders.insert(target);
                }
                leaders.insert(s.pc + s.size);
            }
            Flow::Indirect | Flow::End | Flow::Barrier => {
                leaders.insert(s.pc + s.size);
            }
        }
    }
    let starts: Vec<usize> = slots
        .iter()
        .enumerate()
        .filter(|(_, s)| leaders.contains(&s.pc))
        .map(|(i, _)| i)
        .collect();
    let mut blocks = Vec::with_capacity(starts.len());
    for (k, &first) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(slots.len());
        blocks.push(Block {
            pc: slots[first].pc,
            first,
            len: end - first,
        });
    }
    blocks
}
