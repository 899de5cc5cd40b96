//! Bit-for-bit comparison of two outcomes: how each run ended (the same error at the same
//! pc, or the same instruction count), every VGPR lane, every scalar slot, EXEC, VCC, M0,
//! SCC, MODE, the pc, every LDS and memory dword; for VP1 every register file, `$c` and the
//! s2v bus. Differences are named by place (`v7[12]`, `s5`, `lds[0x120]`, `$r3`), so that
//! a reproducer's note can say which register and lane differ.

use wavejit_isa::state::{LANES, NUM_SREG_SLOTS, NUM_VGPRS};

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

    fn word(&mut self, place: impl FnOnce() -> String, a: u64, b: u64) {
        if a != b {
            self.push(place, || format!("0x{a:x}"), || format!("0x{b:x}"));
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

fn bytes(d: &mut Diffs, what: &str, base: u64, a: &[u8], b: &[u8]) {
    if a == b {
        return;
    }
    if a.len() != b.len() {
        d.push(
            || format!("{what} size"),
            || a.len().to_string(),
            || b.len().to_string(),
        );
        return;
    }
    for (i, (x, y)) in a.chunks(4).zip(b.chunks(4)).enumerate() {
        if x != y {
            let w = |c: &[u8]| c.iter().rev().fold(0u64, |acc, &v| acc << 8 | v as u64);
            d.word(
                || format!("{what}[0x{:x}]", base + 4 * i as u64),
                w(x),
                w(y),
            );
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

fn sreg_name(slot: usize) -> String {
    match slot {
        108 => "tba_lo".into(),
        109 => "tba_hi".into(),
        110 => "tma_lo".into(),
        111 => "tma_hi".into(),
        112..=123 => format!("ttmp{}", slot - 112),
        _ => format!("s{slot}"),
    }
}

/// Compare two GCN outcomes.
pub fn gcn(a: &GcnOutcome, b: &GcnOutcome) -> Diffs {
    let mut d = Diffs::default();
    end(&mut d, &a.result, &b.result, "instructions");
    let (wa, wb) = (&a.wave, &b.wave);
    for r in 0..NUM_VGPRS {
        if wa.vgpr[r] != wb.vgpr[r] {
            for l in 0..LANES {
                d.word(
                    || format!("v{r}[{l}]"),
                    wa.vgpr[r][l] as u64,
                    wb.vgpr[r][l] as u64,
                );
            }
        }
    }
    for s in 0..NUM_SREG_SLOTS {
        // VCC, M0 and EXEC live in their own fields (state.rs).
        if !matches!(s, 106 | 107 | 124 | 126 | 127) {
            d.word(|| sreg_name(s), wa.sgpr[s] as u64, wb.sgpr[s] as u64);
        }
    }
    d.word(|| "exec".into(), wa.exec, wb.exec);
    d.word(|| "vcc".into(), wa.vcc, wb.vcc);
    d.word(|| "m0".into(), wa.m0 as u64, wb.m0 as u64);
    d.word(|| "scc".into(), wa.scc as u64, wb.scc as u64);
    d.word(|| "mode".into(), wa.mode as u64, wb.mode as u64);
    d.word(|| "pc".into(), wa.pc as u64, wb.pc as u64);
    bytes(&mut d, "lds", 0, &a.lds, &b.lds);
    for ((ba, ma), (bb, mb)) in a.mem.iter().zip(&b.mem) {
        if ba != bb {
            d.word(|| "memory region".into(), *ba, *bb);
        } else {
            bytes(&mut d, "mem", *ba, ma, mb);
        }
    }
    d
}

/// Compare two VP1 outcomes.
pub fn vp1(a: &Vp1Outcome, b: &Vp1Outcome) -> Diffs {
    let mut d = Diffs::default();
    end(&mut d, &a.result, &b.result, "words");
    let (sa, sb) = (&a.state, &b.state);
    let files: [(&str, &[u32], &[u32]); 10] = [
        ("$r", &sa.r, &sb.r),
        ("$vc", &sa.vc, &sb.vc),
        ("$a", &sa.a, &sb.a),
        ("$m", &sa.m, &sb.m),
        ("$sr", &sa.sr, &sb.sr),
        ("$mi", &sa.mi, &sb.mi),
        ("$uc", &sa.uc, &sb.uc),
        ("$d", &sa.d, &sb.d),
        ("$f", &sa.f, &sb.f),
        ("$x", &sa.x, &sb.x),
    ];
    for (name, xa, xb) in files {
        for (i, (p, q)) in xa.iter().zip(xb).enumerate() {
            d.word(|| format!("{name}{i}"), *p as u64, *q as u64);
        }
    }
    for i in 0..4 {
        d.word(|| format!("$c{i}"), sa.c[i] as u64, sb.c[i] as u64);
        d.word(|| format!("$l{i}"), sa.l[i] as u64, sb.l[i] as u64);
    }
    for (i, (p, q)) in sa.v.iter().zip(&sb.v).enumerate() {
        for w in 0..4 {
            d.word(|| format!("$v{i}[{w}]"), p[w] as u64, q[w] as u64);
        }
    }
    if sa.s2v != sb.s2v {
        d.push(
            || "s2v".into(),
            || format!("{:?}", sa.s2v),
            || format!("{:?}", sb.s2v),
        );
    }
    if sa.variant != sb.variant {
        d.push(
            || "variant".into(),
            || sa.variant.to_string(),
            || sb.variant.to_string(),
        );
    }
    d
}
