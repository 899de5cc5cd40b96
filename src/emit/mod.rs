//! Building AMDHSA code objects from assembly: the inverse of [`crate::load`]. A source in
//! LLVM's form — `.amdgcn_target`, `.text`, `.globl`/`.type`/`.p2align`, labels and
//! instructions, `.amdhsa_kernel` … `.end_amdhsa_kernel` blocks, and an `.amdgpu_metadata`
//! block or `@kernel` declarations ([`meta`]) — becomes an ELF64 shared object laid out as
//! clang-19/ld.lld-19 lay theirs out, which `wavejit launch`, `llvm-readelf-19` and
//! `llvm-objdump-19` read.
//!
//! [`source`] takes the object's directives out of the text, the GCN assembler assembles
//! the rest, [`kdesc`] builds each descriptor, [`meta`] the metadata note, [`elf`] writes
//! the file. Every error carries the line and column of the source; no input panics.

pub mod elf;
pub mod kdesc;
pub mod meta;
pub mod source;
pub mod target;

use wavejit_isa::gcn::asm::{assemble, Assembly};
use wavejit_isa::{AsmError, Gen};

use self::elf::{Image, SymKind, Symbol};
use self::source::SizeExpr;
use self::target::Target;
use crate::load::CodeObject;

/// Code object version written when the source does not say (llvm-mc-19's default).
pub const DEFAULT_VERSION: u32 = 5;

/// A built code object.
#[derive(Clone, Debug)]
pub struct Output {
    /// The ELF file.
    pub bytes: Vec<u8>,
    /// The code, as assembled (offsets within `.text`).
    pub assembly: Assembly,
    pub target: Target,
}

fn at(line: u32, col: u32, msg: impl Into<String>) -> AsmError {
    AsmError {
        line,
        col,
        msg: msg.into(),
    }
}

fn from3((line, col, msg): (u32, u32, String)) -> AsmError {
    at(line, col, msg)
}

/// Does `src` describe a code object (an `.amdhsa_kernel` or `.amdgcn_target` directive at
/// the start of a line)?
pub fn is_code_object_source(src: &str) -> bool {
    src.lines().any(|l| {
        let t = l.trim_start();
        t.starts_with(".amdhsa_kernel") || t.starts_with(".amdgcn_target")
    })
}

/// Build a code object from `src`. `arch` is the generation the command line named, if
/// any; the source's `.amdgcn_target` must agree with it.
pub fn build(src: &str, arch: Option<Gen>) -> Result<Output, AsmError> {
    let s = source::scan(src).map_err(from3)?;
    let target = match (&s.target, arch) {
        (Some((id, line, col)), arch) => {
            let t = Target::parse(id).map_err(|m| at(*line, *col, m))?;
            if let Some(g) = arch.filter(|g| *g != t.gen) {
                return Err(at(
                    *line,
                    *col,
                    format!("target {} is {} but --arch says {g}", t.processor, t.gen),
                ));
            }
            t
        }
        (None, Some(g)) => Target::for_gen(g),
        (None, None) => {
            return Err(at(
                1,
                1,
                "no target: add `.amdgcn_target \"amdgcn-amd-amdhsa--gfx803\"` or pass --arch",
            ))
        }
    };
    let version = match s.version {
        None => DEFAULT_VERSION,
        Some((v @ (4 | 5), _, _)) => v as u32,
        Some((v, line, col)) => {
            return Err(at(
                line,
                col,
                format!("code object version {v} is not supported (4 or 5)"),
            ))
        }
    };
    let asm = assemble(target.gen, &s.code)?;
    let label = |n: &str| asm.labels.iter().find(|(l, _)| l == n).map(|(_, o)| *o);
    let code_len = asm.bytes.len() as u64;

    // Functions: `.type NAME,@function` and every kernel's entry label.
    let mut funcs: Vec<(String, u32, u32)> = Vec::new();
    for (n, line, col) in &s.functions {
        if label(n).is_none() {
            return Err(at(*line, *col, format!("`{n}` is not a label of the code")));
        }
        if !funcs.iter().any(|f| &f.0 == n) {
            funcs.push((n.clone(), *line, *col));
        }
    }
    for k in &s.kernels {
        if label(&k.name).is_none() {
            return Err(at(
                k.line,
                k.col,
                format!("kernel `{}` has no label in the code", k.name),
            ));
        }
        if !funcs.iter().any(|f| f.0 == k.name) {
            funcs.push((k.name.clone(), k.line, k.col));
        }
    }
    for (n, line, col) in s.globals.iter().chain(&s.protected) {
        if label(n).is_none() {
            return Err(at(*line, *col, format!("`{n}` is not a label of the code")));
        }
    }
    // Sizes: `.size` when given, else up to the next function (or the end of the code).
    let mut starts: Vec<u64> = funcs
        .iter()
        .filter_map(|f| label(&f.0))
        .map(u64::from)
        .collect();
    starts.sort_unstable();
    let size_of = |n: &str| -> Result<u64, AsmError> {
        let start = label(n).map(u64::from).unwrap_or(0);
        if let Some(((_, line, col), e)) = s.sizes.iter().rev().find(|((x, _, _), _)| x == n) {
            return match e {
                SizeExpr::Number(v) => Ok(*v),
                SizeExpr::Diff(a, b) => match (label(a), label(b)) {
                    (Some(x), Some(y)) if x >= y => Ok(u64::from(x - y)),
                    (Some(_), Some(_)) => {
                        Err(at(*line, *col, format!(".size of `{n}` is negative")))
                    }
                    _ => Err(at(
                        *line,
                        *col,
                        format!(".size of `{n}`: `{a}` or `{b}` is not a label"),
                    )),
                },
            };
        }
        let end = starts
            .iter()
            .copied()
            .find(|x| *x > start)
            .unwrap_or(code_len);
        Ok(end - start)
    };
    for ((n, line, col), _) in &s.sizes {
        if !funcs.iter().any(|f| &f.0 == n) {
            return Err(at(*line, *col, format!(".size: `{n}` is not a function")));
        }
    }

    // Descriptors and declarations.
    let mut decls: Vec<(String, Vec<meta::ArgDecl>, u32, u32)> = Vec::new();
    for (text, line, col) in &s.decls {
        let (n, args) = meta::parse_decl(text, *line, *col).map_err(from3)?;
        if !s.kernels.iter().any(|k| k.name == n) {
            return Err(at(
                *line,
                *col,
                format!("@kernel `{n}`: no .amdhsa_kernel block of that name"),
            ));
        }
        if decls.iter().any(|d| d.0 == n) {
            return Err(at(*line, *col, format!("@kernel `{n}` declared twice")));
        }
        decls.push((n, args, *line, *col));
    }
    if let (Some((_, line)), Some((_, dl, dc))) = (&s.metadata, s.decls.first()) {
        return Err(at(
            *dl,
            *dc,
            format!("@kernel declarations and the .amdgpu_metadata block of line {line} both describe arguments: keep one"),
        ));
    }
    let mut kds = Vec::new();
    let mut kernel_maps = Vec::new();
    for (i, k) in s.kernels.iter().enumerate() {
        if s.kernels[..i].iter().any(|x| x.name == k.name) {
            return Err(at(
                k.line,
                k.col,
                format!("kernel `{}` defined twice", k.name),
            ));
        }
        let mut b = kdesc::build(&target, version, &k.fields, k.line).map_err(from3)?;
        match decls.iter().find(|d| d.0 == k.name) {
            Some((_, args, line, col)) => {
                let need = meta::explicit_size(args);
                if !b.kernarg_size_given {
                    b.kd.kernarg_size = need.next_multiple_of(8);
                } else if b.kd.kernarg_size < need {
                    return Err(at(
                        *line,
                        *col,
                        format!(
                            "the arguments of `{}` take {need} bytes but its .amdhsa_kernarg_size is {}",
                            k.name, b.kd.kernarg_size
                        ),
                    ));
                }
                kernel_maps.push(meta::kernel_map(&k.name, args, &b, version));
            }
            None if s.metadata.is_none()
                && b.kd.enables(crate::load::kd::UserSgpr::KernargSegmentPtr) =>
            {
                return Err(at(
                    k.line,
                    k.col,
                    format!(
                        "kernel `{0}` has a kernarg segment pointer but no arguments are declared: add `// @kernel {0}(…)` (or `{0}()`) or an .amdgpu_metadata block",
                        k.name
                    ),
                ))
            }
            None => kernel_maps.push(meta::kernel_map(&k.name, &[], &b, version)),
        }
        let entry = label(&k.name).map(u64::from).unwrap_or(0);
        kds.push((b.kd, entry));
    }

    let metadata = match &s.metadata {
        Some((yaml, line)) => {
            let y = meta::parse_yaml(yaml, line + 1).map_err(from3)?;
            let bytes = meta::to_msgpack(&y).map_err(|m| at(*line, 1, m))?;
            check_metadata(&bytes, version, &s.kernels, *line)?;
            bytes
        }
        None => meta::to_msgpack(&meta::document(&target.id(), version, kernel_maps))
            .map_err(|m| at(1, 1, m))?,
    };

    // Symbols in the order a reader meets them: labels that are not functions (llvm-mc
    // keeps those not starting with `.L`) as locals, then functions and descriptors.
    let mut symbols: Vec<Symbol> = Vec::new();
    for (n, off) in &asm.labels {
        if !n.starts_with(".L") && !funcs.iter().any(|f| &f.0 == n) {
            symbols.push(Symbol {
                name: n.clone(),
                kind: SymKind::Label,
                value: u64::from(*off),
                size: 0,
                global: s.globals.iter().any(|g| &g.0 == n),
                protected: false,
            });
        }
    }
    let global = |n: &str| s.globals.iter().any(|g| g.0 == n);
    let protected = |n: &str| s.protected.iter().any(|g| g.0 == n);
    let mut globals: Vec<(u32, Symbol)> = Vec::new();
    for (n, line, _) in &funcs {
        let sym = Symbol {
            name: n.clone(),
            kind: SymKind::Func,
            value: label(n).map(u64::from).unwrap_or(0),
            size: size_of(n)?,
            global: global(n),
            // LLVM makes a kernel's code symbol protected (its descriptor refers to it).
            protected: protected(n) || s.kernels.iter().any(|k| &k.name == n),
        };
        let first = s
            .globals
            .iter()
            .chain(&s.protected)
            .filter(|g| &g.0 == n)
            .map(|g| g.1)
            .chain([*line])
            .min()
            .unwrap_or(*line);
        globals.push((first, sym));
    }
    for (i, k) in s.kernels.iter().enumerate() {
        globals.push((
            k.line,
            Symbol {
                name: format!("{}.kd", k.name),
                kind: SymKind::Kd,
                value: i as u64,
                size: 64,
                // The descriptor copies its kernel's binding and visibility as declared.
                global: global(&k.name),
                protected: protected(&k.name),
            },
        ));
    }
    globals.sort_by_key(|(l, _)| *l);
    symbols.extend(globals.into_iter().map(|x| x.1));
    // The static symbol table lists locals before globals.
    let (g, mut ordered): (Vec<Symbol>, Vec<Symbol>) = symbols.into_iter().partition(|s| s.global);
    ordered.extend(g);

    let img = Image {
        e_flags: target.e_flags(),
        version,
        text: asm.bytes.clone(),
        kds,
        symbols: ordered,
        metadata,
    };
    let bytes = elf::write(&img).map_err(|m| at(1, 1, format!("writing the ELF file: {m}")))?;
    // What we wrote must load: the launcher's reader is the judge.
    CodeObject::parse(&bytes)
        .map_err(|e| at(1, 1, format!("the code object does not load: {e}")))?;
    Ok(Output {
        bytes,
        assembly: asm,
        target,
    })
}

/// A written `.amdgpu_metadata` must describe the kernels the source defines, in the
/// code object version it is written for.
fn check_metadata(
    bytes: &[u8],
    version: u32,
    kernels: &[source::KernelBlock],
    line: u32,
) -> Result<(), AsmError> {
    let m = crate::load::Metadata::parse(bytes).map_err(|e| at(line, 1, e.to_string()))?;
    match m.code_object_version() {
        Some(v) if v == version => {}
        Some(v) => {
            return Err(at(
                line,
                1,
                format!("amdhsa.version is code object v{v} but the object is v{version} (.amdhsa_code_object_version)"),
            ))
        }
        None => return Err(at(line, 1, "metadata has no amdhsa.version [1, N]")),
    }
    for k in &m.kernels {
        if !kernels
            .iter()
            .any(|b| b.name == k.name && k.symbol == format!("{}.kd", b.name))
        {
            return Err(at(
                line,
                1,
                format!("metadata describes kernel `{}` (symbol `{}`), which has no .amdhsa_kernel block", k.name, k.symbol),
            ));
        }
    }
    for b in kernels {
        if m.kernel(&b.name).is_none() {
            return Err(at(
                b.line,
                b.col,
                format!(
                    "kernel `{}` is missing from the .amdgpu_metadata block",
                    b.name
                ),
            ));
        }
    }
    Ok(())
}
