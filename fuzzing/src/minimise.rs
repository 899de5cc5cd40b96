//! Shrinking a mismatching case while it still mismatches: first drop instructions
//! (delta debugging: halves, quarters, … single items; branches are retargeted by
//! `GcnProgram::remove`), then clear VOP3/DPP/SDWA modifiers, then move the state towards
//! the defaults (EXEC all ones, VCC/M0/SCC 0, MODE 0xC0, registers, LDS and memory zero —
//! a whole register at a time, then halves of its lanes), then drop instructions again.
//!
//! `still` answers "does this case still show a mismatch?"; the number of times it is
//! asked is bounded (`MAX_TRIES`) so that minimising always ends.

use wavejit_isa::gcn::Fields;
use wavejit_isa::progen::shape::GcnProgram;
use wavejit_isa::state::{LANES, MODE_DEFAULT};
use wavejit_isa::vp1::State as Vp1State;

use super::case::{GcnCase, Vp1Case};

/// Most evaluations of `still` per minimisation.
pub const MAX_TRIES: usize = 6000;

struct Budget<'a, C> {
    still: &'a mut dyn FnMut(&C) -> bool,
    left: usize,
}

impl<C> Budget<'_, C> {
    fn test(&mut self, c: &C) -> bool {
        if self.left == 0 {
            return false;
        }
        self.left -= 1;
        (self.still)(c)
    }
}

/// Delta debugging over a list of length `len()` with a removal operation.
fn drop_items<C: Clone>(
    case: &mut C,
    b: &mut Budget<'_, C>,
    len: impl Fn(&C) -> usize,
    remove: impl Fn(&mut C, std::ops::Range<usize>),
) {
    let mut chunk = (len(case) / 2).max(1);
    loop {
        let mut i = 0;
        let mut progress = false;
        while i < len(case) {
            let end = (i + chunk).min(len(case));
            let mut c = case.clone();
            remove(&mut c, i..end);
            if b.test(&c) {
                *case = c;
                progress = true;
            } else {
                i += chunk;
            }
        }
        if b.left == 0 || (chunk == 1 && !progress) {
            return;
        }
        if !progress || chunk > 1 {
            chunk = (chunk / 2).max(1);
        }
    }
}

/// The items the minimiser may drop: all but the final `s_endpgm`.
fn droppable(p: &GcnProgram) -> usize {
    p.items.len().saturating_sub(1)
}

/// Try `f` on a copy; keep it if the mismatch survives.
fn attempt<C: Clone>(case: &mut C, b: &mut Budget<'_, C>, f: impl FnOnce(&mut C) -> bool) {
    let mut c = case.clone();
    if f(&mut c) && b.test(&c) {
        *case = c;
    }
}

/// Clear one kind of modifier of an instruction's fields; `false` if there was none.
fn clear(f: &mut Fields, which: u8) -> bool {
    fn take(b: &mut bool) -> bool {
        std::mem::take(b)
    }
    fn zero(b: &mut u8) -> bool {
        std::mem::take(b) != 0
    }
    match (f, which) {
        (Fields::Vop3(f), 0) => zero(&mut f.abs),
        (Fields::Vop3(f), 1) => zero(&mut f.neg),
        (Fields::Vop3(f), 2) => take(&mut f.clamp),
        (Fields::Vop3(f), 3) => zero(&mut f.omod),
        (Fields::Dpp(f), 4) => {
            take(&mut f.src0_neg)
                | take(&mut f.src0_abs)
                | take(&mut f.src1_neg)
                | take(&mut f.src1_abs)
        }
        (Fields::Sdwa(f), 4) => {
            take(&mut f.src0_neg)
                | take(&mut f.src0_abs)
                | take(&mut f.src1_neg)
                | take(&mut f.src1_abs)
        }
        (Fields::Sdwa(f), 5) => take(&mut f.clamp),
        (Fields::Sdwa(f), 6) => take(&mut f.src0_sext) | take(&mut f.src1_sext),
        _ => false,
    }
}

fn clear_modifiers(case: &mut GcnCase, b: &mut Budget<'_, GcnCase>) {
    for i in 0..case.prog.items.len() {
        for which in 0..7 {
            attempt(case, b, |c| {
                let it = &mut c.prog.items[i];
                clear(&mut it.inst.fields, which)
                    && wavejit_isa::gcn::encode(c.prog.gen, &it.inst).is_ok()
            });
        }
    }
}

fn shrink_gcn_state(case: &mut GcnCase, b: &mut Budget<'_, GcnCase>) {
    attempt(case, b, |c| {
        std::mem::replace(&mut c.state.wave.exec, u64::MAX) != u64::MAX
    });
    attempt(case, b, |c| std::mem::take(&mut c.state.wave.vcc) != 0);
    attempt(case, b, |c| std::mem::take(&mut c.state.wave.m0) != 0);
    attempt(case, b, |c| std::mem::take(&mut c.state.wave.scc) != 0);
    attempt(case, b, |c| {
        std::mem::replace(&mut c.state.wave.mode, MODE_DEFAULT) != MODE_DEFAULT
    });
    attempt(case, b, |c| {
        let any = c.state.lds.iter().any(|&x| x != 0);
        c.state.lds.fill(0);
        any
    });
    for k in 0..case.state.mem.len() {
        attempt(case, b, |c| {
            let m = &mut c.state.mem[k].1;
            let any = m.iter().any(|&x| x != 0);
            m.fill(0);
            any
        });
    }
    for s in 0..case.state.wave.sgpr.len() {
        attempt(case, b, |c| std::mem::take(&mut c.state.wave.sgpr[s]) != 0);
    }
    for r in 0..case.state.wave.vgpr.len() {
        if case.state.wave.vgpr[r].iter().all(|&x| x == 0) {
            continue;
        }
        attempt(case, b, |c| {
            c.state.wave.vgpr[r] = [0; LANES];
            true
        });
        // Then lanes, by halves.
        let mut chunk = LANES / 2;
        while chunk >= 1 && case.state.wave.vgpr[r].iter().any(|&x| x != 0) {
            for start in (0..LANES).step_by(chunk) {
                attempt(case, b, |c| {
                    let lanes = &mut c.state.wave.vgpr[r][start..start + chunk];
                    let any = lanes.iter().any(|&x| x != 0);
                    lanes.fill(0);
                    any
                });
            }
            chunk /= 2;
        }
    }
}

/// Minimise a GCN case that mismatches according to `still`.
pub fn gcn(case: &GcnCase, still: &mut dyn FnMut(&GcnCase) -> bool) -> GcnCase {
    let mut b = Budget {
        still,
        left: MAX_TRIES,
    };
    let mut case = case.clone();
    let remove = |c: &mut GcnCase, r: std::ops::Range<usize>| c.prog.remove(r);
    drop_items(&mut case, &mut b, |c| droppable(&c.prog), remove);
    clear_modifiers(&mut case, &mut b);
    shrink_gcn_state(&mut case, &mut b);
    drop_items(&mut case, &mut b, |c| droppable(&c.prog), remove);
    case
}

/// Minimise a VP1 case.
pub fn vp1(case: &Vp1Case, still: &mut dyn FnMut(&Vp1Case) -> bool) -> Vp1Case {
    let mut b = Budget {
        still,
        left: MAX_TRIES,
    };
    let mut case = case.clone();
    drop_items(
        &mut case,
        &mut b,
        |c| c.words.len(),
        |c, r| {
            c.words.drain(r);
        },
    );
    let base = Vp1State::new(case.state.variant);
    for i in 0..31 {
        attempt(&mut case, &mut b, |c| {
            std::mem::take(&mut c.state.r[i]) != 0
        });
    }
    for i in 0..4 {
        attempt(&mut case, &mut b, |c| {
            std::mem::replace(&mut c.state.c[i], 0x8000) != 0x8000
        });
        attempt(&mut case, &mut b, |c| {
            std::mem::take(&mut c.state.l[i]) != 0
        });
        attempt(&mut case, &mut b, |c| {
            std::mem::take(&mut c.state.vc[i]) != 0
        });
    }
    attempt(&mut case, &mut b, |c| {
        let s = &mut c.state;
        let before = (s.v, s.a, s.m, s.sr, s.mi, s.uc, s.d, s.f, s.x);
        s.v = base.v;
        s.a = base.a;
        s.m = base.m;
        s.sr = base.sr;
        s.mi = base.mi;
        s.uc = base.uc;
        s.d = base.d;
        s.f = base.f;
        s.x = base.x;
        before != (s.v, s.a, s.m, s.sr, s.mi, s.uc, s.d, s.f, s.x)
    });
    case
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drop_items_finds_the_one_culprit_pair() {
        // "Mismatch" while both 13 and 42 are present.
        let mut v: Vec<u32> = (0..100).collect();
        let mut still = |c: &Vec<u32>| c.contains(&13) && c.contains(&42);
        let mut b = Budget {
            still: &mut still,
            left: 10_000,
        };
        drop_items(
            &mut v,
            &mut b,
            |c| c.len(),
            |c, r| {
                c.drain(r);
            },
        );
        assert_eq!(v, vec![13, 42]);
        assert!(b.left > 10_000 - 400, "used {} tries", 10_000 - b.left);
    }
}
