//! Lane-linear addresses found at compile time: which FLAT dword accesses of a unit take
//! their address pair from a VGPR's value at the unit's header through clang's address
//! arithmetic — a 64-bit shift of the value zero-extended, then 64-bit adds of uniform
//! amounts — so that one run-time test of that VGPR (`mem::global::lane_linear`: every
//! lane lane 0's plus its lane number, modulo 2^32) stands in for the 16-chunk
//! contiguity test of each such access.
//!
//! Why that suffices: let `E` be the VGPR at the header with `E[l] ≡ E[0] + l` (mod
//! 2^32). A 32-bit value `x` made from `E` by adding or subtracting uniform amounts keeps
//! `x[l] ≡ x[0] + l`, so `x[l] = x[0] + l − 2^32·w_l` as integers, `w_l` ∈ {0, 1} (1
//! where the lanes wrapped). The address is `A = U + (zext(x) << 2)` modulo 2^64 with `U`
//! uniform, so `A[l] − A[0] ≡ 4l − 2^34·w_l`: `A[l] = A[0] + 4l` in every lane exactly
//! when `w_63 = 0` (the lanes wrap at most once, and by lane 63 if at all), which is
//! the scalar test of lane 63 against lane 0 that `emit_dwords` makes first anyway.
//!
//! Only writes under an EXEC known to be all ones are followed (a masked write keeps
//! other lanes' old values); any other write of a VGPR makes it unknown.

use super::sem::Sem;
use super::vocab::{Carry, IOp, Shift64};
use super::vplan::{VPlan, VSrc};
use crate::mem::global::FlatPlan;
use crate::slots::EXEC_LO;

/// One instruction of a unit, as far as its VGPRs' lanes and EXEC go (the unit's planner
/// makes these from its plans, in program order).
pub enum Effect<'a> {
    /// A vector ALU instruction.
    Valu(&'a VPlan),
    /// A FLAT or MUBUF ADDR64 access (marked when its address pair is lane-linear), and
    /// the VGPRs it may write (`None`: any).
    Flat(&'a mut FlatPlan, Option<Vec<u8>>),
    /// Changes no register.
    Nothing,
    /// Anything else: the VGPRs it may write (`None`: any), whether it may write EXEC,
    /// whether it may write SGPRs (a pending carry's pair).
    Other {
        vgprs: Option<Vec<u8>>,
        exec: bool,
        sgprs: bool,
    },
}

/// What is known about a VGPR's lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tag {
    Unknown,
    /// The same in every lane; `Some(k)`: the constant `k`.
    Uniform(Option<u32>),
    /// `v[l] ≡ v[0] + (E[l] − E[0])` (mod 2^32), `E` being `v[r]` at the header.
    Affine(u8),
    /// A half (`hi`) of the 64-bit value `id`: `U + (zext(x) << sh)` modulo 2^64, `U`
    /// uniform and `x` an `Affine(r)` value. Both halves carry the same `id`.
    Wide {
        id: u32,
        hi: bool,
        r: u8,
        sh: u8,
    },
}

/// The carry out of the low-half add of a 64-bit `Wide` add, waiting for its high half.
#[derive(Clone, Copy)]
struct PendingCarry {
    /// The lane-mask pair holding the carries.
    pair: u8,
    /// The `Wide` value added to (its high half must be the other operand).
    from: u32,
    /// The value being made.
    to: u32,
    r: u8,
    sh: u8,
}

struct State {
    tags: [Tag; 256],
    carry: Option<PendingCarry>,
    /// EXEC known to be all ones.
    full: bool,
    next_id: u32,
}

impl State {
    fn src(&self, s: VSrc) -> Tag {
        match s {
            VSrc::V(r) => self.tags[r as usize],
            VSrc::Const(k) => Tag::Uniform(Some(k as u32)),
            VSrc::S(_) | VSrc::Vccz | VSrc::Execz | VSrc::Scc => Tag::Uniform(None),
            VSrc::Lds(_) => Tag::Unknown,
        }
    }

    fn fresh(&mut self) -> u32 {
        self.next_id += 1;
        self.next_id
    }

    fn forget(&mut self, regs: Option<Vec<u8>>) {
        match regs {
            Some(w) => {
                for r in w {
                    self.tags[r as usize] = Tag::Unknown;
                }
            }
            None => self.tags = [Tag::Unknown; 256],
        }
    }
}

fn uniform(t: Tag) -> bool {
    matches!(t, Tag::Uniform(_))
}

/// Mark the FLAT dword accesses of `unit` whose address pair is lane-linear once the
/// VGPR at the header passes `lane_linear` (`FlatPlan::lin`), for a unit entered with
/// EXEC all ones (`exec_all`); returns the VGPRs to test at the header.
pub fn mark(unit: Vec<Effect>, exec_all: bool) -> Vec<u8> {
    let mut st = State {
        tags: std::array::from_fn(|r| Tag::Affine(r as u8)),
        carry: None,
        full: exec_all,
        next_id: 0,
    };
    let mut tested = Vec::new();
    if !exec_all {
        return tested;
    }
    for e in unit {
        match e {
            Effect::Valu(vp) => vector(&mut st, vp),
            Effect::Nothing => {}
            Effect::Flat(f, writes) => {
                let (lo, hi) = (st.tags[f.addr as usize], st.tags[f.addr as usize + 1]);
                if let (
                    Tag::Wide {
                        id,
                        hi: false,
                        r,
                        sh: 2,
                    },
                    Tag::Wide {
                        id: id2, hi: true, ..
                    },
                ) = (lo, hi)
                {
                    if id == id2 && st.full && f.size == 4 && f.atomic.is_none() {
                        f.lin = Some(r);
                        if !tested.contains(&r) {
                            tested.push(r);
                        }
                    }
                }
                st.forget(writes);
            }
            Effect::Other { vgprs, exec, sgprs } => {
                if sgprs {
                    st.carry = None;
                }
                if exec {
                    st.full = false;
                }
                st.forget(vgprs);
            }
        }
    }
    tested
}

/// A vector ALU instruction's effect.
fn vector(st: &mut State, vp: &VPlan) {
    let plain = st.full
        && vp.sdwa.is_none()
        && vp.dpp.is_none()
        && !vp.cross_lane
        && vp.abs == 0
        && vp.neg == 0
        && !vp.clamp
        && vp.omod == 0
        && vp.interp.is_none();
    // The pending carry lasts until a lane-mask write (the high-half add consumes it).
    let carry = match vp.sdst.is_some() || vp.to_exec {
        true => st.carry.take(),
        false => st.carry,
    };
    // A lane-mask pair overlapping EXEC's (126-127) starts at 125 to 127.
    if vp.to_exec
        || vp
            .sdst
            .is_some_and(|s| (EXEC_LO - 1..=EXEC_LO + 1).contains(&s))
    {
        st.full = false;
    }
    // The tags of the instruction's results (a 64-bit result: both halves).
    let mut out: [Option<(u8, Tag)>; 2] = [None; 2];
    let mut new_carry = None;
    if plain {
        if let Some(d) = vp.vdst {
            match vp.sem {
                Sem::Int(IOp::Mov) if !vp.sem.shape().w64_dst => {
                    out[0] = Some((d, st.src(vp.src[0])));
                }
                Sem::Carry(k) => {
                    let (a, b) = (st.src(vp.src[0]), st.src(vp.src[1]));
                    let t = match (k, a, b) {
                        // With a carry-in the lanes differ by their carries.
                        (Carry::Add | Carry::Sub | Carry::Subrev, x, y)
                            if uniform(x) && uniform(y) =>
                        {
                            Tag::Uniform(None)
                        }
                        (Carry::Add, Tag::Affine(r), u) | (Carry::Add, u, Tag::Affine(r))
                            if uniform(u) =>
                        {
                            Tag::Affine(r)
                        }
                        (Carry::Sub, Tag::Affine(r), u) | (Carry::Subrev, u, Tag::Affine(r))
                            if uniform(u) =>
                        {
                            Tag::Affine(r)
                        }
                        (
                            Carry::Add,
                            Tag::Wide {
                                id,
                                hi: false,
                                r,
                                sh,
                            },
                            u,
                        )
                        | (
                            Carry::Add,
                            u,
                            Tag::Wide {
                                id,
                                hi: false,
                                r,
                                sh,
                            },
                        ) if uniform(u) => {
                            let to = st.fresh();
                            new_carry = vp.sdst.map(|pair| PendingCarry {
                                pair,
                                from: id,
                                to,
                                r,
                                sh,
                            });
                            Tag::Wide {
                                id: to,
                                hi: false,
                                r,
                                sh,
                            }
                        }
                        (Carry::Addc, x, y) => match (carry, vp.mask_src) {
                            (Some(c), Some(m)) if m == c.pair => {
                                let high = |t: Tag| matches!(t, Tag::Wide { id, hi: true, .. } if id == c.from);
                                if (high(x) && uniform(y)) || (uniform(x) && high(y)) {
                                    Tag::Wide {
                                        id: c.to,
                                        hi: true,
                                        r: c.r,
                                        sh: c.sh,
                                    }
                                } else {
                                    Tag::Unknown
                                }
                            }
                            _ => Tag::Unknown,
                        },
                        _ => Tag::Unknown,
                    };
                    out[0] = Some((d, t));
                }
                Sem::Shift64(k @ (Shift64::Lshlrev | Shift64::Lshl)) => {
                    let (amount, value) = match k {
                        Shift64::Lshlrev => (vp.src[0], vp.src[1]),
                        _ => (vp.src[1], vp.src[0]),
                    };
                    let t = match (amount, value) {
                        (VSrc::Const(n), VSrc::V(a)) if a < 255 => {
                            let n = (n & 63) as u8;
                            let pair = (st.tags[a as usize], st.tags[a as usize + 1]);
                            match pair {
                                (Tag::Affine(r), Tag::Uniform(Some(0))) => Some((r, n)),
                                (
                                    Tag::Wide {
                                        id,
                                        hi: false,
                                        r,
                                        sh,
                                    },
                                    Tag::Wide {
                                        id: id2, hi: true, ..
                                    },
                                ) if id == id2 && sh + n < 64 => Some((r, sh + n)),
                                _ => None,
                            }
                        }
                        _ => None,
                    };
                    let (lo, hi) = match t {
                        Some((r, sh)) => {
                            let id = st.fresh();
                            (
                                Tag::Wide {
                                    id,
                                    hi: false,
                                    r,
                                    sh,
                                },
                                Tag::Wide {
                                    id,
                                    hi: true,
                                    r,
                                    sh,
                                },
                            )
                        }
                        None => (Tag::Unknown, Tag::Unknown),
                    };
                    out = [Some((d, lo)), Some((d.wrapping_add(1), hi))];
                }
                _ => {}
            }
        }
    }
    for r in vp.vgpr_writes() {
        st.tags[r as usize] = out
            .iter()
            .flatten()
            .find(|(q, _)| *q == r)
            .map_or(Tag::Unknown, |&(_, t)| t);
    }
    if vp.sdst.is_some() || vp.to_exec {
        st.carry = new_carry;
    }
}
