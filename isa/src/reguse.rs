//! The registers a program names: every SGPR slot and VGPR that an operand field of one of
//! its instructions reads or writes, with the operand's width (a 64-bit pair, a resource
//! quad, a load's data tuple). A register outside this set is neither read nor written by
//! any run of the program, so its value can never be observed through the program: the
//! grid uses this to set only the registers a kernel names when it starts a wave.
//!
//! Widths come from the row's signature (`operand::operands`), widened where an
//! instruction reaches more than its text form shows: every DS field, a FLAT atomic's
//! return with GLC, TFE's status dword, the buffer address VGPRs its OFFEN/IDXEN/ADDR64
//! bits ask for, a source the signature calls `imm`. `fuzzing/tests/reg_use.rs` runs
//! generated programs with every other register changed and checks that nothing else
//! changes.
//!
//! The walk is conservative: instructions that address registers relative to M0
//! (`s_movrel*`, `v_movrel*`), the VGPR indexing mode of GCN 1.2 and the encodings decoded
//! only for printing (MIMG, EXP) or not walked here (VINTRP) make the set every register,
//! and so does any VP1 program.

use crate::arch::Gen;
use crate::gcn::operand::{operands, row_of, Kind, Operand};
use crate::gcn::table::Field;
use crate::gcn::{Enc, Fields, Inst, Op, SmemOffset, Src};
use crate::state::{NUM_SREG_SLOTS, NUM_VGPRS};

/// The SGPR slots and VGPRs a program's instructions name (see the module comment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegUse {
    /// Bit `s` for scalar slot `s` (0-127, VCC, M0 and EXEC included when named).
    sgprs: u128,
    /// Bit `v % 64` of word `v / 64` for VGPR `v`.
    vgprs: [u64; NUM_VGPRS / 64],
}

impl RegUse {
    /// Every register: what a program whose registers cannot be listed uses.
    pub const ALL: RegUse = RegUse {
        sgprs: u128::MAX,
        vgprs: [u64::MAX; NUM_VGPRS / 64],
    };

    /// No register.
    pub const NONE: RegUse = RegUse {
        sgprs: 0,
        vgprs: [0; NUM_VGPRS / 64],
    };

    /// The registers the instructions `insts` of a GCN program for `gen` name.
    pub fn of_gcn<'a>(gen: Gen, insts: impl IntoIterator<Item = &'a Inst>) -> RegUse {
        let mut u = RegUse::NONE;
        for inst in insts {
            if !u.add(gen, inst) {
                return RegUse::ALL;
            }
        }
        u
    }

    /// Whether scalar slot `s` (0-127) is named.
    pub fn sgpr(&self, s: usize) -> bool {
        s < NUM_SREG_SLOTS && self.sgprs >> s & 1 != 0
    }

    /// Whether VGPR `v` is named.
    pub fn vgpr(&self, v: usize) -> bool {
        v < NUM_VGPRS && self.vgprs[v / 64] >> (v % 64) & 1 != 0
    }

    /// One past the highest slot of `Wave::sgpr` that is named: slots at or above it are
    /// never read or written. VCC (106, 107), M0 (124) and EXEC (126, 127) live in fields
    /// of their own (`Wave::read_sreg`), so naming them does not count here.
    pub fn sgpr_end(&self) -> usize {
        let fields = 1u128 << 106 | 1 << 107 | 1 << 124 | 1 << 126 | 1 << 127;
        let s = self.sgprs & !fields;
        128 - s.leading_zeros() as usize
    }

    /// One past the highest VGPR that is named: VGPRs at or above it are never read or
    /// written.
    pub fn vgpr_end(&self) -> usize {
        self.vgprs
            .iter()
            .enumerate()
            .rev()
            .find(|(_, &w)| w != 0)
            .map_or(0, |(i, &w)| i * 64 + 64 - w.leading_zeros() as usize)
    }

    /// `n` SGPR slots from `first`, wrapping at 128 as `Wave::read_sreg64` does.
    fn sgprs(&mut self, first: u8, n: u8) {
        for k in 0..n {
            self.sgprs |= 1 << (first.wrapping_add(k) & 127);
        }
    }

    /// `n` VGPRs from `first`, wrapping at 256 (a tuple that would run past v255 names
    /// v0 onwards too: more than it reads, never less).
    fn vgprs(&mut self, first: u8, n: u8) {
        for k in 0..n {
            let v = first.wrapping_add(k) as usize;
            self.vgprs[v / 64] |= 1 << (v % 64);
        }
    }

    /// A 9-bit source field of `n` dwords: scalar slots 0-127 and VGPRs 256-511 are
    /// registers; constants, the literal and the specials (SCC, VCCZ, EXECZ, LDS_DIRECT)
    /// name none.
    fn src(&mut self, s: Src, n: u8) {
        match s.0 {
            0..=127 => self.sgprs(s.0 as u8, n),
            256..=511 => self.vgprs((s.0 - 256) as u8, n),
            _ => {}
        }
    }

    /// An 8-bit register field holding an operand of `kind`.
    fn reg(&mut self, r: u8, kind: Kind) {
        match kind {
            Kind::Vgpr(n) => self.vgprs(r, n),
            Kind::Sgpr(n) => self.sgprs(r, n),
            _ => {}
        }
    }

    /// Add the registers `inst` names; false when they cannot be listed (the caller
    /// then takes every register).
    fn add(&mut self, gen: Gen, inst: &Inst) -> bool {
        if m0_relative(inst.op) {
            return false;
        }
        // An instruction without its row has no operand list to go by.
        let Some(row) = row_of(gen, inst) else {
            return false;
        };
        let ops = operands(row, inst.enc == Enc::Vop3);
        let kind = |f: Field| kind_in(&ops, f);
        let width = |f: Field| kind(f).map_or(0, Kind::dwords);
        // A source code the form has is read by its value, whatever the signature calls
        // it (the lane select of `v_writelane_b32` is `imm` there, an SGPR or a constant
        // in fact).
        let src_width = |f: Field| kind(f).map_or(0, |k| k.dwords().max(1));
        match inst.fields {
            Fields::Sop2 { sdst, ssrc0, ssrc1 } => {
                self.sgprs(sdst, width(Field::Sdst));
                self.src(ssrc0, src_width(Field::Ssrc0));
                self.src(ssrc1, src_width(Field::Ssrc1));
            }
            Fields::Sopk { sdst, .. } => self.sgprs(sdst, width(Field::Sdst)),
            Fields::Sop1 { sdst, ssrc0 } => {
                self.sgprs(sdst, width(Field::Sdst));
                self.src(ssrc0, src_width(Field::Ssrc0));
            }
            Fields::Sopc { ssrc0, ssrc1 } => {
                self.src(ssrc0, src_width(Field::Ssrc0));
                self.src(ssrc1, src_width(Field::Ssrc1));
            }
            Fields::Sopp { .. } => {}
            Fields::Smrd(_) | Fields::Smem(_) => {
                let Some(m) = inst.scalar_mem(gen) else {
                    return false;
                };
                self.sgprs(m.sdata, width(Field::Sdata));
                self.sgprs(m.sbase, width(Field::Sbase));
                if let SmemOffset::Sgpr(s) = m.offset {
                    self.sgprs(s, 1);
                }
            }
            Fields::Vop1 { vdst, src0 } => {
                self.field(vdst, kind(Field::Vdst));
                self.src(src0, src_width(Field::Src0));
            }
            Fields::Vop2 { vdst, src0, vsrc1 } => {
                self.field(vdst, kind(Field::Vdst));
                self.src(src0, src_width(Field::Src0));
                self.field(vsrc1, kind(Field::Vsrc1));
            }
            Fields::Vopc { src0, vsrc1 } => {
                self.src(src0, src_width(Field::Src0));
                self.field(vsrc1, kind(Field::Vsrc1));
            }
            Fields::Vop3(f) => {
                self.field(f.vdst, kind(Field::Vdst));
                self.sgprs(f.sdst, width(Field::Sdst));
                for (s, field) in f.src.iter().zip([Field::Src0, Field::Src1, Field::Src2]) {
                    self.src(*s, src_width(field));
                }
            }
            Fields::Sdwa(f) => {
                self.field(f.vdst, kind(Field::Vdst));
                self.vgprs(f.src0, width(Field::Src0));
                self.field(f.vsrc1, kind(Field::Vsrc1));
            }
            Fields::Dpp(f) => {
                self.field(f.vdst, kind(Field::Vdst));
                self.vgprs(f.src0, width(Field::Src0));
                self.field(f.vsrc1, kind(Field::Vsrc1));
            }
            Fields::Ds(f) => {
                // Every field names at least its register, whether or not the text form
                // has the operand (`ds_swizzle_b32`'s source is in ADDR, DATA0 unused):
                // more than an instruction reads, never less.
                self.vgprs(f.vdst, width(Field::Vdst).max(1));
                self.vgprs(f.addr, width(Field::Addr).max(1));
                self.vgprs(f.data0, width(Field::Data0).max(1));
                self.vgprs(f.data1, width(Field::Data1).max(1));
            }
            Fields::Flat(f) => {
                // TFE adds a status dword after the data. An atomic with GLC returns the
                // old value in VDST, which its signature (the form without GLC) leaves
                // out: as wide as the data, or more.
                let tfe = f.tfe as u8;
                let ret = if f.glc { width(Field::Data) } else { 0 };
                self.vgprs(f.vdst, width(Field::Vdst).max(ret).max(1) + tfe);
                self.vgprs(f.addr, width(Field::Addr).max(1));
                self.vgprs(f.data, width(Field::Data).max(1) + tfe);
            }
            Fields::Mubuf(f) | Fields::Mtbuf(f) => {
                self.vgprs(f.vdata, width(Field::Vdata).max(1) + f.tfe as u8);
                // The address VGPRs follow the offset and index bits, not the signature
                // (which shows the `off` form): an index and an offset, or a 64-bit
                // address, take two.
                let vaddr = match (f.offen, f.idxen, f.addr64) {
                    (_, _, true) | (true, true, _) => 2,
                    (true, false, false) | (false, true, false) => 1,
                    (false, false, false) => 1,
                };
                self.vgprs(f.vaddr, vaddr);
                self.sgprs(f.srsrc, width(Field::Srsrc).max(4));
                self.src(f.soffset, 1);
            }
            Fields::Vintrp(_) | Fields::Raw { .. } => return false,
        }
        true
    }

    /// An 8-bit register field of a VALU form, of the file its signature says: VDST is
    /// VGPRs, or the SGPRs of `v_readlane_b32`, `v_readfirstlane_b32` and the VOP3
    /// compares; VSRC1 is a VGPR, or the lane-select SGPR of GCN 1.0/1.1's VOP2
    /// `v_readlane_b32`/`v_writelane_b32`.
    /// A field the signature gives no register kind (`imm`: GCN 1.0/1.1's VOP2
    /// `v_writelane_b32` keeps a scalar source code in VSRC1) names the VGPR and the SGPR
    /// slot of its number, more than it reads, never less; a field the form has no
    /// operand in names nothing.
    fn field(&mut self, r: u8, kind: Option<Kind>) {
        match kind {
            Some(k @ (Kind::Vgpr(_) | Kind::Sgpr(_))) => self.reg(r, k),
            Some(_) => {
                self.vgprs(r, 1);
                if r < 128 {
                    self.sgprs(r, 1);
                }
            }
            None => {}
        }
    }
}

/// The operand kind in `field`, if the form has one there.
fn kind_in(ops: &[Operand], field: Field) -> Option<Kind> {
    ops.iter().find(|o| o.field == field).map(|o| o.kind)
}

/// Operations that read or write a register chosen at run time (relative to M0, or
/// through GCN 1.2's VGPR index mode), which no operand field lists.
fn m0_relative(op: Op) -> bool {
    matches!(
        op,
        Op::SMovrelsB32
            | Op::SMovrelsB64
            | Op::SMovreldB32
            | Op::SMovreldB64
            | Op::VMovreldB32
            | Op::VMovrelsB32
            | Op::VMovrelsdB32
            | Op::SSetGprIdxOn
            | Op::SSetGprIdxOff
            | Op::SSetGprIdxIdx
            | Op::SSetGprIdxMode
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arch::Arch;
    use crate::ir::Program;

    fn regs(gen: Gen, text: &str) -> RegUse {
        let code = crate::gcn::asm::assemble(gen, text).expect("assembles");
        Program::new(Arch::Gcn(gen), &code.bytes).regs
    }

    fn set(u: &RegUse) -> (Vec<usize>, Vec<usize>) {
        (
            (0..NUM_SREG_SLOTS).filter(|&s| u.sgpr(s)).collect(),
            (0..NUM_VGPRS).filter(|&v| u.vgpr(v)).collect(),
        )
    }

    #[test]
    fn operands_by_width_by_hand() {
        // Widths from the ISA manuals: s_load_dwordx4 writes 4 SGPRs from a 2-SGPR base,
        // s_buffer_load_dword reads a 4-SGPR resource and an SGPR offset; a 64-bit shift
        // reads and writes VGPR pairs; FLAT reads a 2-VGPR address; an OFFEN+IDXEN buffer
        // access reads two address VGPRs, a 4-SGPR resource and SOFFSET; ds_read2_b64
        // writes 4 VGPRs; v_readfirstlane writes an SGPR; VCC, M0, EXEC are slots 106-107,
        // 124, 126-127.
        let u = regs(
            Gen::Gfx8,
            "s_load_dwordx4 s[8:11], s[4:5], 0x0
             s_buffer_load_dword s20, s[12:15], s3
             v_lshlrev_b64 v[2:3], 2, v[0:1]
             flat_load_dword v5, v[2:3]
             buffer_load_dword v6, v[30:31], s[16:19], s2 offen idxen
             ds_read2_b64 v[40:43], v9 offset1:1
             v_readfirstlane_b32 s30, v50
             v_cndmask_b32_e64 v51, v52, 1.0, vcc
             s_mov_b64 exec, s[32:33]
             s_mov_b32 m0, 7
             s_endpgm",
        );
        let s: Vec<usize> = [
            3, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 2, 20, 30,
        ]
        .into_iter()
        .chain([32, 33, 106, 107, 124, 126, 127])
        .collect();
        let v: Vec<usize> = [0, 1, 2, 3, 5, 6, 30, 31, 40, 41, 42, 43, 9, 50, 51, 52].into();
        let (mut s, mut v) = (s, v);
        s.sort();
        v.sort();
        assert_eq!(set(&u), (s, v));
        // The field-held slots do not count for `Wave::sgpr`.
        assert_eq!((u.sgpr_end(), u.vgpr_end()), (34, 53));
    }

    #[test]
    fn an_unused_tail_is_left_out() {
        // saxpy's body on GCN 1.2 (clang-19 -O2): 8 VGPRs in its descriptor, v0-v4 named;
        // s0-s6 named.
        let u = regs(
            Gen::Gfx8,
            "s_load_dword s0, s[4:5], 0x2c
             s_load_dword s1, s[4:5], 0x18
             s_waitcnt lgkmcnt(0)
             s_and_b32 s0, s0, 0xffff
             s_mul_i32 s6, s6, s0
             v_add_u32 v0, vcc, s6, v0
             v_cmp_gt_u32 vcc, s1, v0
             s_and_saveexec_b64 s[0:1], vcc
             s_load_dwordx4 s[0:3], s[4:5], 0x8
             v_mov_b32 v1, 0
             v_lshlrev_b64 v[0:1], 2, v[0:1]
             v_mov_b32 v3, s3
             v_add_u32 v2, vcc, s2, v0
             v_addc_u32 v3, vcc, v3, v1, vcc
             v_mov_b32 v4, s1
             flat_load_dword v1, v[2:3]
             v_mac_f32 v1, s0, v0
             flat_store_dword v[2:3], v1
             s_endpgm",
        );
        assert_eq!((u.sgpr_end(), u.vgpr_end()), (7, 5));
        assert!(!u.vgpr(5) && !u.sgpr(7) && u.sgpr(106));
    }

    #[test]
    fn registers_chosen_at_run_time_name_every_register() {
        // s_movrels_b32 s0, s1 reads s[1 + M0]; v_movrels_b32 v0, v1 reads v[1 + M0];
        // their destination twins write there.
        for text in [
            "s_movrels_b32 s0, s1\ns_endpgm",
            "s_movreld_b64 s[0:1], s[2:3]\ns_endpgm",
            "v_movrels_b32 v0, v1\ns_endpgm",
            "v_movreld_b32 v0, v1\ns_endpgm",
            "v_movrelsd_b32 v0, v1\ns_endpgm",
        ] {
            let u = regs(Gen::Gfx7, text);
            assert_eq!(u, RegUse::ALL, "{text}");
            // Every slot of `Wave::sgpr` up to the last one that holds a register: EXEC
            // (126, 127) lives in a field.
            assert_eq!((u.sgpr_end(), u.vgpr_end()), (126, NUM_VGPRS));
        }
        let plain = regs(Gen::Gfx7, "s_mov_b32 s0, s1\ns_endpgm");
        assert_eq!((plain.sgpr_end(), plain.vgpr_end()), (2, 0));
        let vp1 = Program::new(Arch::Vp1, &[]).regs;
        assert_eq!(vp1, RegUse::ALL);
    }
}
