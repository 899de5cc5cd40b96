//! Reproducers: a minimised case written as files that `wavejit run --engine diff`
//! replays, and that `tests/fuzz_repro.rs` replays on every test run.
//!
//! For a case named `NAME` in directory `DIR`:
//! - `NAME.s` — the program as assembly text (CLRX syntax for GCN, envyas syntax for VP1),
//!   with a header comment `// arch: gfx8`. It is checked to assemble back to the exact
//!   bytes; where the text would not, the line is written as `.long` words with the
//!   disassembly in a comment.
//! - `NAME.json` — the initial state, in the schema of `wavejit run --state`
//!   (`statefile.rs` for GCN, `statefile/vp1.rs` for VP1).
//! - `NAME.txt` — a note: architecture, the campaign that found it, the engines, the
//!   differing registers/lanes and the command that replays it. A line `status: open`
//!   marks a bug not yet fixed (the regression test reports it without failing);
//!   `status: fixed` reproducers must show no difference.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use wavejit_isa::gcn::fmt::{label_name, listing, Syntax};
use wavejit_isa::progen::state::GcnState;
use wavejit_isa::state::{Lds, LANES, NUM_VGPRS};
use wavejit_isa::{Arch, Gen};

use super::case::{GcnCase, Vp1Case};
use super::compare::Diffs;
use wavejit::statefile::vp1::Vp1StateFile;
use wavejit::statefile::{StateFile, VgprInit};

/// Where a reproducer came from, for its note.
#[derive(Clone, Debug)]
pub struct Origin {
    pub seed: u64,
    pub index: u64,
    /// Which of the program's initial states (`campaign::Config::states`; 0: the one
    /// drawn with the program).
    pub state: u32,
    pub engines: (String, String),
}

/// The assembly text of GCN `code`, checked to assemble back to the same bytes. A line
/// whose text would not (the assembler refuses what the decoder accepts, e.g. two SGPRs
/// in one VOP3: ERRATA.md VOP3 2) is written as `.long` words with the text as a comment.
pub fn gcn_text(gen: Gen, code: &[u8]) -> String {
    let lines = listing(gen, code, Syntax::Clrx);
    let same =
        |t: &str| matches!(wavejit_isa::gcn::asm::assemble(gen, t), Ok(a) if a.bytes == code);
    let text: Vec<String> = lines.iter().map(|l| l.text.clone()).collect();
    let raw: Vec<String> = lines
        .iter()
        .map(|l| {
            let label = format!("{}: ", label_name(l.pc));
            let (prefix, body) = match l.text.strip_prefix(&label) {
                Some(rest) => (label.as_str(), rest),
                None => ("", l.text.as_str()),
            };
            let words: Vec<String> = l.words.iter().map(|w| format!("0x{w:08x}")).collect();
            format!(
                "{prefix}.long {} // {}",
                words.join(", "),
                body.replace("//", "/ /")
            )
        })
        .collect();
    let join = |v: &[String]| v.iter().map(|l| format!("{l}\n")).collect::<String>();
    let all = join(&text);
    if same(&all) {
        return all;
    }
    // Keep the text of each line that assembles back on its own among raw words.
    let mut pick = raw.clone();
    for i in 0..lines.len() {
        let mut t = raw.clone();
        t[i] = text[i].clone();
        if same(&join(&t)) {
            pick[i] = text[i].clone();
        }
    }
    let mixed = join(&pick);
    if same(&mixed) {
        mixed
    } else {
        join(&raw)
    }
}

/// The assembly text of VP1 `words`, checked likewise.
pub fn vp1_text(words: &[u32]) -> String {
    let mut text = String::new();
    for w in words {
        text.push_str(&wavejit_isa::vp1::fmt::format(&wavejit_isa::vp1::Inst {
            word: *w,
        }));
        text.push('\n');
    }
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    if matches!(wavejit_isa::vp1::asm::assemble_bytes(&text), Ok(b) if b == bytes) {
        return text;
    }
    words.iter().map(|w| format!(".word 0x{w:08x}\n")).collect()
}

/// The state file describing `st` (only what differs from the defaults is listed, except
/// the scalar fields, which always are).
pub fn gcn_state_json(st: &GcnState) -> Result<String, wavejit::Error> {
    let w = &st.wave;
    let mut sf = StateFile {
        exec: Some(w.exec),
        vcc: Some(w.vcc),
        scc: Some(w.scc),
        m0: Some(w.m0),
        mode: Some(w.mode),
        ..StateFile::default()
    };
    let mut sgpr = BTreeMap::new();
    for s in 0..=123u8 {
        if !matches!(s, 106 | 107) && w.sgpr[s as usize] != 0 {
            sgpr.insert(s, w.sgpr[s as usize]);
        }
    }
    sf.sgpr = sgpr;
    for r in 0..NUM_VGPRS {
        let lanes = &w.vgpr[r];
        if lanes.iter().all(|&x| x == 0) {
            continue;
        }
        let init = if lanes.iter().all(|&x| x == lanes[0]) {
            VgprInit::Broadcast(lanes[0])
        } else if (0..LANES).all(|l| lanes[l] == l as u32) {
            VgprInit::LaneId
        } else {
            VgprInit::Lanes(Box::new(*lanes))
        };
        sf.vgpr.insert(r as u8, init);
    }
    // LDS: runs of nonzero dwords.
    let dwords: Vec<u32> = st
        .lds
        .chunks(4)
        .map(|c| c.iter().rev().fold(0u32, |a, &b| a << 8 | b as u32))
        .collect();
    let mut i = 0;
    while i < dwords.len() {
        if dwords[i] == 0 {
            i += 1;
            continue;
        }
        let start = i;
        while i < dwords.len() && dwords[i] != 0 {
            i += 1;
        }
        sf.lds.push((4 * start as u32, dwords[start..i].to_vec()));
    }
    for (base, bytes) in &st.mem {
        let d = bytes
            .chunks(4)
            .map(|c| c.iter().rev().fold(0u32, |a, &b| a << 8 | b as u32))
            .collect();
        sf.memory.push((*base, d));
    }
    let m = sf.build(w.gen)?;
    Ok(sf.dump(&m, &m))
}

/// The state a GCN state file describes, as the fuzzer holds states.
pub fn gcn_state_from_json(gen: Gen, text: &str) -> Result<GcnState, wavejit::Error> {
    let sf = StateFile::parse(text)?;
    let m = sf.build(gen)?;
    let mut mem = Vec::new();
    for r in m.mem.regions() {
        let mut b = vec![0u8; r.len as usize];
        m.mem
            .read(r.base, &mut b)
            .map_err(|f| wavejit::Error::Usage(f.to_string()))?;
        mem.push((r.base, b));
    }
    let mut lds = m.lds.bytes;
    lds.resize(Lds::MAX, 0);
    Ok(GcnState {
        wave: m.wave,
        lds,
        mem,
    })
}

/// The VP1 state file of a state (every register named).
pub fn vp1_state_json(st: &wavejit_isa::vp1::State) -> String {
    let mut named: BTreeSet<(&'static str, usize)> = BTreeSet::new();
    for (file, n) in [
        ("r", 31),
        ("c", 4),
        ("v", 32),
        ("vc", 4),
        ("sr", 32),
        ("mi", 32),
        ("uc", 32),
        ("a", 32),
        ("l", 4),
        ("m", 64),
        ("d", 8),
        ("f", 2),
        ("x", 16),
    ] {
        for i in 0..n {
            named.insert((file, i));
        }
    }
    let sf = Vp1StateFile {
        variant: st.variant,
        named,
        state: Some(Box::new(st.clone())),
    };
    sf.dump(st, st)
}

fn header(arch: Arch, name: &str) -> String {
    format!(
        "// wavejit fuzz reproducer\n// arch: {arch}\n// replay: wavejit run --arch {arch} --engine diff --state {name}.json {name}.s\n"
    )
}

fn note(arch: Arch, name: &str, origin: &Origin, diffs: &Diffs, insts: usize) -> String {
    let mut n = String::new();
    let _ = writeln!(n, "arch: {arch}");
    let _ = writeln!(n, "status: open");
    let _ = writeln!(
        n,
        "found by: wavejit fuzz --arch {arch} --seed {} (program {}, state {})",
        origin.seed, origin.index, origin.state
    );
    let _ = writeln!(n, "engines: {} vs {}", origin.engines.0, origin.engines.1);
    let _ = writeln!(n, "instructions: {insts}");
    let _ = writeln!(n, "differences: {}", diffs.total);
    for d in &diffs.listed {
        let _ = writeln!(n, "  {d}");
    }
    let _ = writeln!(
        n,
        "replay: wavejit run --arch {arch} --engine diff --state {name}.json {name}.s"
    );
    n
}

fn write(path: PathBuf, text: &str) -> Result<(), wavejit::Error> {
    std::fs::write(&path, text).map_err(|source| wavejit::Error::Io {
        path: path.display().to_string(),
        source,
    })
}

/// The three files of a reproducer in `dir`: `NAME.s` (a header and `code`, the program's
/// text), `NAME.json` (`state`) and `NAME.txt` (the note); returns the path of the `.s`
/// file.
#[allow(clippy::too_many_arguments)]
fn write_three(
    dir: &Path,
    name: &str,
    arch: Arch,
    code: &str,
    state: &str,
    diffs: &Diffs,
    origin: &Origin,
    insts: usize,
) -> Result<PathBuf, wavejit::Error> {
    std::fs::create_dir_all(dir).map_err(|source| wavejit::Error::Io {
        path: dir.display().to_string(),
        source,
    })?;
    let s = dir.join(format!("{name}.s"));
    write(s.clone(), &(header(arch, name) + code))?;
    write(dir.join(format!("{name}.json")), state)?;
    let text = note(arch, name, origin, diffs, insts);
    write(dir.join(format!("{name}.txt")), &text)?;
    Ok(s)
}

/// Write the three files of a GCN reproducer; returns the path of the `.s` file.
pub fn write_gcn(
    dir: &Path,
    name: &str,
    case: &GcnCase,
    diffs: &Diffs,
    origin: &Origin,
) -> Result<PathBuf, wavejit::Error> {
    let gen = case.prog.gen;
    let code = case
        .prog
        .encode()
        .map_err(|e| wavejit::Error::Usage(e.to_string()))?;
    let (text, state) = (gcn_text(gen, &code), gcn_state_json(&case.state)?);
    let insts = case.prog.items.len();
    write_three(
        dir,
        name,
        Arch::Gcn(gen),
        &text,
        &state,
        diffs,
        origin,
        insts,
    )
}

/// Write the three files of a VP1 reproducer.
pub fn write_vp1(
    dir: &Path,
    name: &str,
    case: &Vp1Case,
    diffs: &Diffs,
    origin: &Origin,
) -> Result<PathBuf, wavejit::Error> {
    let (text, state) = (vp1_text(&case.words), vp1_state_json(&case.state));
    let insts = case.words.len();
    write_three(dir, name, Arch::Vp1, &text, &state, diffs, origin, insts)
}

/// The architecture named by a reproducer's `// arch:` header line.
pub fn arch_of(text: &str) -> Option<Arch> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("// arch:"))
        .find_map(|a| a.trim().parse().ok())
}
