//! Bit-for-bit comparison of two outcomes: how each run ended (the same error at the same
//! pc, or the same instruction count), every VGPR lane, every scalar slot, EXEC, VCC, M0,
//! SCC, MODE, the pc, every LDS and memory dword; for VP1 every register file, `$c` and the
//! s2v bus (`wavejit_isa::state::diff`). Differences are named by place (`v7 lane 12`,
//! `s5`, `lds 0x120`, `$r3`), so that a reproducer's note can say which register and lane
//! differ.

use wavejit_isa::state::diff::{bytes_diff, image_diff, Difference, Place};

use super::case::{Failure, GcnOutcome, Vp1Outcome};

/// One difference: where, and the two values (engine A's, engine B's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diff {
    pub place: String,
    pub a: String,
    pub b: String,
}

impl std::fmt::Display for Diff {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {} vs {}", self.place, self.a, self.b)
    }
}

/// Differences found, the first `MAX_LISTED` listed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diffs {
    pub listed: Vec<Diff>,
    pub total: usize,
}

/// Differences listed in a report (the total is always counted).
pub const MAX_LISTED: usize = 24;

impl Diffs {
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    fn push(
        &mut self,
        place: impl FnOnce() -> String,
        a: impl FnOnce() -> String,
        b: impl FnOnce() -> String,
    ) {
        self.total += 1;
        if self.listed.len() < MAX_LISTED {
            self.listed.push(Diff {
                place: place(),
                a: a(),
                b: b(),
            });
        }
    }

    fn extend(&mut self, ds: impl IntoIterator<Item = Difference>) {
        for x in ds {
            self.push(|| x.place.to_string(), || x.a, || x.b);
        }
    }

    /// The first difference, one line.
    pub fn first(&self) -> String {
        match self.listed.first() {
            Some(d) => d.to_string(),
            None => "no difference".into(),
        }
    }
}

/// How the runs ended: they must agree, and neither may panic (a panic is a bug even
/// when both engines share it, e.g. in interpreter code the JIT calls as a helper).
fn end(d: &mut Diffs, a: &Result<u64, Failure>, b: &Result<u64, Failure>, unit: &str) {
    let show = |r: &Result<u64, Failure>| match r {
        Ok(n) => format!("ended after {n} {unit}"),
        Err(e) => e.to_string(),
    };
    let panicked = |r: &Result<u64, Failure>| matches!(r, Err(Failure::Panic(_)));
    if a != b || panicked(a) || panicked(b) {
        d.push(|| "end".into(), || show(a), || show(b));
    }
}

/// Compare two GCN outcomes.
pub fn gcn(a: &GcnOutcome, b: &GcnOutcome) -> Diffs {
    let mut d = Diffs::default();
    end(&mut d, &a.result, &b.result, "instructions");
    d.extend(a.wave.diff(&b.wave));
    d.extend(bytes_diff(0, &a.lds, &b.lds, Place::Lds, Place::LdsSize));
    d.extend(image_diff(&a.mem, &b.mem));
    d
}

/// Compare two VP1 outcomes.
pub fn vp1(a: &Vp1Outcome, b: &Vp1Outcome) -> Diffs {
    let mut d = Diffs::default();
    end(&mut d, &a.result, &b.result, "words");
    d.extend(a.state.diff(&b.state));
    d
}
