//! The modules of every crate of the workspace form layers: a module imports only from
//! modules below it, so the graph of `crate::`/`super::`/child-module references between
//! the files of each crate's `src` has no cycle. Read from the sources themselves; a new
//! cycle fails with its path.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("source directory")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a source file (`gcn/mod.rs` → `gcn`, `gcn/emit.rs` → `gcn::emit`,
/// `lib.rs` → ``).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|s| s.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The code of a file without its comments and its `#[cfg(test)]` tail (tests may use
/// anything).
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Identifier-path segments following each occurrence of `prefix` (`crate::a::b` gives
/// `[a, b]`; `crate::{a, b::c}` gives `[a]` and `[b, c]`).
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find(prefix) {
        let before = rest[..i].chars().next_back();
        let after = &rest[i + prefix.len()..];
        rest = after;
        if before.is_some_and(|c| ident(c) || c == ':') {
            continue;
        }
        if let Some(group) = after.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let segs: Vec<String> = item
                    .trim()
                    .split("::")
                    .map(|s| s.trim().to_string())
                    .take_while(|s| !s.is_empty() && s.chars().all(ident))
                    .collect();
                if !segs.is_empty() {
                    out.push(segs);
                }
            }
            continue;
        }
        let mut segs = Vec::new();
        let mut s = after;
        loop {
            let n = s.find(|c: char| !ident(c)).unwrap_or(s.len());
            if n == 0 {
                break;
            }
            segs.push(s[..n].to_string());
            match s[n..].strip_prefix("::") {
                Some(t) => s = t,
                None => break,
            }
        }
        if !segs.is_empty() {
            out.push(segs);
        }
    }
    out
}

/// The module graph: each module and the modules of the crate it refers to.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mods: BTreeMap<Vec<String>, String> = files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).expect("readable source");
            (module_of(src, f), code(&text))
        })
        .collect();
    let known: BTreeSet<&Vec<String>> = mods.keys().collect();
    // The longest known module that `segs` starts with.
    let resolve = |segs: &[String]| -> Option<Vec<String>> {
        (1..=segs.len())
            .rev()
            .map(|n| segs[..n].to_vec())
            .find(|m| known.contains(m))
    };
    let name = |m: &[String]| m.join("::");
    let mut g = BTreeMap::new();
    for (m, text) in &mods {
        let mut deps = BTreeSet::new();
        let parent: Vec<String> = m[..m.len().saturating_sub(1)].to_vec();
        for segs in paths_after(text, "crate::") {
            deps.extend(resolve(&segs));
        }
        for segs in paths_after(text, "super::") {
            let full: Vec<String> = parent.iter().cloned().chain(segs).collect();
            deps.extend(resolve(&full));
        }
        // A child module named by its plain path (`emit::emit`).
        for child in known
            .iter()
            .filter(|k| k.len() == m.len() + 1 && k.starts_with(m))
        {
            let word = format!("{}::", child[m.len()]);
            let named = text.match_indices(&word).any(|(i, _)| {
                !text[..i]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
            });
            if named {
                deps.insert((*child).clone());
            }
        }
        deps.remove(m);
        g.insert(name(m), deps.iter().map(|d| name(d)).collect());
    }
    g
}

/// A cycle of the graph, as the path around it, if there is one.
fn find_cycle(g: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    fn visit(
        g: &BTreeMap<String, BTreeSet<String>>,
        v: &str,
        mark: &mut BTreeMap<String, Mark>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        mark.insert(v.to_string(), Mark::Open);
        stack.push(v.to_string());
        for w in g.get(v).into_iter().flatten() {
            match mark.get(w).copied().unwrap_or(Mark::New) {
                Mark::Open => {
                    let at = stack.iter().position(|s| s == w).unwrap_or(0);
                    let mut cycle = stack[at..].to_vec();
                    cycle.push(w.clone());
                    return Some(cycle);
                }
                Mark::New => {
                    if let Some(c) = visit(g, w, mark, stack) {
                        return Some(c);
                    }
                }
                Mark::Done => {}
            }
        }
        stack.pop();
        mark.insert(v.to_string(), Mark::Done);
        None
    }
    let mut mark = BTreeMap::new();
    for v in g.keys() {
        if mark.get(v).copied().unwrap_or(Mark::New) == Mark::New {
            if let Some(c) = visit(g, v, &mut mark, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn the_jit_modules_have_no_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let g = graph(&src);
    // The graph is read, not empty: the vector lowering's top imports its layers.
    let emit = g.get("gcn::emit").expect("gcn::emit is a module");
    for below in ["gcn::fetch", "gcn::write", "gcn::float_ops", "gcn::sem"] {
        assert!(
            emit.contains(below),
            "gcn::emit should import {below}: {emit:?}"
        );
    }
    if let Some(c) = find_cycle(&g) {
        panic!("module cycle: {}", c.join(" -> "));
    }
}

#[test]
fn the_interpreter_modules_have_no_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../interp/src");
    let g = graph(&src);
    // The run loop dispatches to the families, which take their context from below it.
    let exec = g.get("exec").expect("exec is a module");
    for below in ["ctx", "mem", "salu", "valu"] {
        assert!(exec.contains(below), "exec should import {below}: {exec:?}");
    }
    if let Some(c) = find_cycle(&g) {
        panic!("module cycle: {}", c.join(" -> "));
    }
}

/// The module graph of the crate whose sources are at `dir` (relative to this crate).
fn crate_graph(dir: &str) -> BTreeMap<String, BTreeSet<String>> {
    graph(&Path::new(env!("CARGO_MANIFEST_DIR")).join(dir))
}

/// Panics naming the edges `module -> below` the graph lacks, then any cycle.
fn assert_layers(g: &BTreeMap<String, BTreeSet<String>>, edges: &[(&str, &str)]) {
    for (module, below) in edges {
        let deps = g
            .get(*module)
            .unwrap_or_else(|| panic!("{module} is a module"));
        assert!(
            deps.contains(*below),
            "{module} should import {below}: {deps:?}"
        );
    }
    if let Some(c) = find_cycle(g) {
        panic!("module cycle: {}", c.join(" -> "));
    }
}

#[test]
fn the_isa_modules_have_no_cycle() {
    // The graph is read, not empty: the printer checks its text with the assembler, which
    // reads operands with the printer's spelling; the IR sits on both decoders.
    assert_layers(
        &crate_graph("../isa/src"),
        &[
            ("gcn::fmt", "gcn::asm"),
            ("gcn::asm::opnd", "gcn::fmt::names"),
            ("gcn::encode", "gcn::decode"),
            ("gcn::decode", "gcn::opcode"),
            ("ir", "gcn"),
            ("ir", "vp1"),
            ("vp1::fmt", "vp1::asm"),
            ("vp1::asm", "vp1::syntax"),
            ("vp1::syntax", "vp1::lex"),
        ],
    );
}

#[test]
fn the_facade_modules_have_no_cycle() {
    assert_layers(
        &crate_graph("../src"),
        &[
            ("load", "load::elf"),
            ("load::elf", "load::code"),
            ("draw", "draw::raster"),
            ("draw::scene", "draw::error"),
        ],
    );
}

#[test]
fn the_tool_crates_have_no_cycle() {
    for dir in [
        "../cli/src",
        "../fuzzing/src",
        "../bench/src",
        "../testkit/src",
    ] {
        let g = crate_graph(dir);
        assert!(g.len() > 1, "{dir}: no modules read");
        if let Some(c) = find_cycle(&g) {
            panic!("{dir}: module cycle: {}", c.join(" -> "));
        }
    }
}

#[test]
fn the_checker_sees_a_cycle() {
    let mut g = BTreeMap::new();
    g.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    g.insert("b".to_string(), BTreeSet::from(["c".to_string()]));
    g.insert("c".to_string(), BTreeSet::from(["a".to_string()]));
    assert_eq!(
        find_cycle(&g).map(|c| c.join(" -> ")),
        Some("a -> b -> c -> a".to_string())
    );
    g.insert("c".to_string(), BTreeSet::new());
    assert_eq!(find_cycle(&g), None);
    // And the reference forms the graph is built from.
    let t = "use super::{fetch::fetch, write};\n let x = crate::slots::EXEC_LO; emit::emit(cx);";
    assert_eq!(
        paths_after(t, "super::"),
        vec![
            vec!["fetch".to_string(), "fetch".to_string()],
            vec!["write".to_string()]
        ]
    );
    assert_eq!(
        paths_after(t, "crate::"),
        vec![vec!["slots".to_string(), "EXEC_LO".to_string()]]
    );
}
