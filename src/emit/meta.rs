//! The metadata note of a code object being built: an `.amdgpu_metadata` YAML block turned
//! into MessagePack as LLVM turns it (maps with their keys in sorted order, integers as
//! unsigned when they are not negative, the smallest encoding of each value), or the
//! metadata of `@kernel` declarations.
//!
//! A declaration is a whole-line comment, so llvm-mc reads the same source:
//!
//! ```text
//! // @kernel vadd(global const uint *a, global const uint *b, global uint *c, uint n)
//! ```
//!
//! Each argument is `[const] [global|constant|local] [const] TYPE [*] NAME` with an OpenCL
//! scalar or vector type (`char` … `ulong`, `half`, `float`, `double`, `uint4`, …).
//! Arguments are laid out as OpenCL lays them out (each at its natural alignment; pointers
//! 8 bytes, `local` pointers 4), and for code object v5 the hidden arguments clang places
//! after them (block counts, group sizes, remainders, global offsets, grid dims, the
//! private and shared apertures) are listed when the descriptor's `.amdhsa_kernarg_size`
//! leaves room for them — v4 lists the global offsets only.

use yaml_rust2::yaml::Hash;
use yaml_rust2::{Yaml, YamlLoader};

use super::kdesc::Built;

/// A positioned error: (line, column, message).
pub type MetaError = (u32, u32, String);

/// Deepest `[`/`{` nesting accepted in the YAML (the parser recurses on it).
const MAX_FLOW_DEPTH: usize = 64;

/// Parse the YAML of an `.amdgpu_metadata` block whose first line is `first_line`.
pub fn parse_yaml(text: &str, first_line: u32) -> Result<Yaml, MetaError> {
    let mut depth = 0usize;
    for (i, l) in text.lines().enumerate() {
        for (j, c) in l.char_indices() {
            match c {
                '[' | '{' => depth += 1,
                ']' | '}' => depth = depth.saturating_sub(1),
                _ => {}
            }
            if depth > MAX_FLOW_DEPTH {
                return Err((
                    first_line + i as u32,
                    j as u32 + 1,
                    format!("metadata nests deeper than {MAX_FLOW_DEPTH} levels"),
                ));
            }
        }
    }
    let docs = YamlLoader::load_from_str(text).map_err(|e| {
        (
            first_line + e.marker().line() as u32 - 1,
            e.marker().col() as u32 + 1,
            format!("metadata YAML: {}", e.info()),
        )
    })?;
    match <[Yaml; 1]>::try_from(docs) {
        Ok([y @ Yaml::Hash(_)]) => Ok(y),
        Ok(_) => Err((first_line, 1, "metadata must be one YAML map".into())),
        Err(v) => Err((
            first_line,
            1,
            format!("metadata must be one YAML document, found {}", v.len()),
        )),
    }
}

/// How LLVM orders map keys (`msgpack::DocNode`'s `<`: by kind, then value).
fn key_order(k: &Yaml) -> (u8, String) {
    match k {
        Yaml::Null => (0, String::new()),
        Yaml::Integer(i) if *i < 0 => (1, format!("{:020}", i.unsigned_abs())),
        Yaml::Integer(i) => (2, format!("{i:020}")),
        Yaml::Boolean(b) => (3, b.to_string()),
        Yaml::Real(r) => (4, r.clone()),
        Yaml::String(s) => (5, s.clone()),
        _ => (6, String::new()),
    }
}

/// Write `y` as MessagePack.
pub fn to_msgpack(y: &Yaml) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    write(&mut out, y)?;
    Ok(out)
}

fn write(o: &mut Vec<u8>, y: &Yaml) -> Result<(), String> {
    use rmp::encode as e;
    let r = |r: Result<(), e::ValueWriteError>| r.map_err(|e| e.to_string());
    match y {
        Yaml::Null => e::write_nil(o).map_err(|e| e.to_string()),
        Yaml::Boolean(b) => e::write_bool(o, *b).map_err(|e| e.to_string()),
        Yaml::Integer(i) if *i >= 0 => e::write_uint(o, *i as u64)
            .map(|_| ())
            .map_err(|e| e.to_string()),
        Yaml::Integer(i) => e::write_sint(o, *i).map(|_| ()).map_err(|e| e.to_string()),
        Yaml::Real(s) => {
            let v: f64 = s
                .parse()
                .map_err(|_| format!("metadata: `{s}` is not a number"))?;
            r(e::write_f64(o, v))
        }
        Yaml::String(s) => r(e::write_str(o, s)),
        Yaml::Array(a) => {
            r(e::write_array_len(o, a.len() as u32).map(|_| ()))?;
            a.iter().try_for_each(|v| write(o, v))
        }
        Yaml::Hash(h) => {
            r(e::write_map_len(o, h.len() as u32).map(|_| ()))?;
            let mut kv: Vec<(&Yaml, &Yaml)> = h.iter().collect();
            kv.sort_by_key(|(k, _)| key_order(k));
            for (k, v) in kv {
                write(o, k)?;
                write(o, v)?;
            }
            Ok(())
        }
        Yaml::Alias(_) => Err("metadata: YAML aliases are not supported".into()),
        Yaml::BadValue => Err("metadata: a value YAML could not read".into()),
    }
}

/// What an argument is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgKind {
    ByValue,
    /// A `global` or `constant` pointer.
    Buffer {
        space: &'static str,
        is_const: bool,
    },
    /// A `local` pointer (dynamic LDS).
    Local {
        pointee_align: u32,
    },
}

/// One declared argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgDecl {
    pub name: String,
    pub type_name: String,
    pub size: u32,
    pub align: u32,
    pub kind: ArgKind,
}

/// Size of an OpenCL scalar type.
fn scalar_size(t: &str) -> Option<u32> {
    Some(match t {
        "char" | "uchar" | "bool" => 1,
        "short" | "ushort" | "half" => 2,
        "int" | "uint" | "float" => 4,
        "long" | "ulong" | "double" => 8,
        _ => return None,
    })
}

/// (size, alignment) of an OpenCL scalar or vector type (3-vectors take 4 elements).
fn type_size(t: &str) -> Option<(u32, u32)> {
    if let Some(s) = scalar_size(t) {
        return Some((s, s));
    }
    let digits = t.len() - t.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (base, n) = t.split_at(t.len() - digits);
    let n: u32 = n.parse().ok()?;
    let s = scalar_size(base)?;
    let lanes = match n {
        2 | 4 | 8 | 16 => n,
        3 => 4,
        _ => return None,
    };
    Some((s * lanes, s * lanes))
}

/// Parse the text after `@kernel`: `NAME(ARG, …)`. `col` is the column of the text.
pub fn parse_decl(text: &str, line: u32, col: u32) -> Result<(String, Vec<ArgDecl>), MetaError> {
    let err = |at: usize, msg: String| Err((line, col + text[..at].chars().count() as u32, msg));
    let Some(open) = text.find('(') else {
        return err(0, "@kernel: expected `NAME(arguments)`".into());
    };
    let name = text[..open].trim();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$'))
    {
        return err(0, format!("@kernel: `{name}` is not a kernel name"));
    }
    let Some(close) = text.rfind(')').filter(|c| *c > open) else {
        return err(open, "@kernel: missing `)`".into());
    };
    if !text[close + 1..].trim().is_empty() {
        return err(close + 1, "@kernel: text after `)`".into());
    }
    let inner = &text[open + 1..close];
    let mut args = Vec::new();
    if inner.trim().is_empty() || inner.trim() == "void" {
        return Ok((name.to_string(), args));
    }
    let mut at = open + 1;
    for part in inner.split(',') {
        let here = at;
        at += part.len() + 1;
        // `*` binds like a word of its own.
        let spaced = part.replace('*', " * ");
        let mut words: Vec<&str> = spaced.split_whitespace().collect();
        let Some(arg_name) = words.pop() else {
            return err(here, "@kernel: empty argument".into());
        };
        if arg_name == "*" || type_size(arg_name).is_some() {
            return err(
                here,
                format!("@kernel: argument `{}` has no name", part.trim()),
            );
        }
        let (mut is_const, mut space, mut ty, mut ptr) = (false, None, None, false);
        for w in words {
            match w {
                "const" => is_const = true,
                "global" | "__global" => space = Some("global"),
                "constant" | "__constant" => space = Some("constant"),
                "local" | "__local" => space = Some("local"),
                "*" if ty.is_some() && !ptr => ptr = true,
                t if ty.is_none() && type_size(t).is_some() => ty = Some(t),
                other => {
                    return err(
                        here,
                        format!("@kernel: unexpected `{other}` in `{}`", part.trim()),
                    )
                }
            }
        }
        let Some(ty) = ty else {
            return err(here, format!("@kernel: `{}` has no type", part.trim()));
        };
        let (size, align) = type_size(ty).unwrap_or((4, 4));
        let decl = if ptr {
            match space.unwrap_or("global") {
                "local" => ArgDecl {
                    name: arg_name.into(),
                    type_name: format!("{ty}*"),
                    size: 4,
                    align: 4,
                    kind: ArgKind::Local {
                        pointee_align: align,
                    },
                },
                s => ArgDecl {
                    name: arg_name.into(),
                    type_name: format!("{ty}*"),
                    size: 8,
                    align: 8,
                    kind: ArgKind::Buffer {
                        space: if s == "constant" {
                            "constant"
                        } else {
                            "global"
                        },
                        is_const,
                    },
                },
            }
        } else {
            if space.is_some() {
                return err(
                    here,
                    format!(
                        "@kernel: `{}`: an address space needs a pointer",
                        part.trim()
                    ),
                );
            }
            ArgDecl {
                name: arg_name.into(),
                type_name: ty.into(),
                size,
                align,
                kind: ArgKind::ByValue,
            }
        };
        args.push(decl);
    }
    Ok((name.to_string(), args))
}

fn s(v: &str) -> Yaml {
    Yaml::String(v.into())
}

fn i(v: u64) -> Yaml {
    Yaml::Integer(v as i64)
}

fn map(kv: Vec<(&str, Yaml)>) -> Yaml {
    let mut h = Hash::new();
    for (k, v) in kv {
        h.insert(s(k), v);
    }
    Yaml::Hash(h)
}

/// The hidden arguments clang-19 lists after the explicit ones, as (offset from their
/// 8-aligned start, size, kind), per code object version.
fn hidden(version: u32) -> &'static [(u32, u32, &'static str)] {
    const V5: &[(u32, u32, &str)] = &[
        (0, 4, "hidden_block_count_x"),
        (4, 4, "hidden_block_count_y"),
        (8, 4, "hidden_block_count_z"),
        (12, 2, "hidden_group_size_x"),
        (14, 2, "hidden_group_size_y"),
        (16, 2, "hidden_group_size_z"),
        (18, 2, "hidden_remainder_x"),
        (20, 2, "hidden_remainder_y"),
        (22, 2, "hidden_remainder_z"),
        (40, 8, "hidden_global_offset_x"),
        (48, 8, "hidden_global_offset_y"),
        (56, 8, "hidden_global_offset_z"),
        (64, 2, "hidden_grid_dims"),
        (192, 4, "hidden_private_base"),
        (196, 4, "hidden_shared_base"),
    ];
    const V4: &[(u32, u32, &str)] = &[
        (0, 8, "hidden_global_offset_x"),
        (8, 8, "hidden_global_offset_y"),
        (16, 8, "hidden_global_offset_z"),
    ];
    if version >= 5 {
        V5
    } else {
        V4
    }
}

/// The end of the explicit arguments.
pub fn explicit_size(args: &[ArgDecl]) -> u32 {
    args.iter()
        .fold(0, |end, a| end.next_multiple_of(a.align) + a.size)
}

/// One kernel's metadata map from its declaration and descriptor (`kernarg_size` is the
/// descriptor's final kernarg size).
pub fn kernel_map(name: &str, args: &[ArgDecl], b: &Built, version: u32) -> Yaml {
    let mut list = Vec::new();
    let mut end = 0u32;
    for a in args {
        let off = end.next_multiple_of(a.align);
        end = off + a.size;
        let mut kv = vec![
            (".name", s(&a.name)),
            (".offset", i(off as u64)),
            (".size", i(a.size as u64)),
            (".type_name", s(&a.type_name)),
        ];
        match &a.kind {
            ArgKind::ByValue => kv.push((".value_kind", s("by_value"))),
            ArgKind::Buffer { space, is_const } => {
                kv.push((".value_kind", s("global_buffer")));
                kv.push((".address_space", s(space)));
                if *is_const {
                    kv.push((".is_const", Yaml::Boolean(true)));
                }
            }
            ArgKind::Local { pointee_align } => {
                kv.push((".value_kind", s("dynamic_shared_pointer")));
                kv.push((".address_space", s("local")));
                kv.push((".pointee_align", i(*pointee_align as u64)));
            }
        }
        list.push(map(kv));
    }
    let base = end.next_multiple_of(8);
    for (off, size, kind) in hidden(version) {
        if base + off + size <= b.kd.kernarg_size {
            list.push(map(vec![
                (".offset", i((base + off) as u64)),
                (".size", i(*size as u64)),
                (".value_kind", s(kind)),
            ]));
        }
    }
    let mut kv = vec![
        (".name", s(name)),
        (".symbol", s(&format!("{name}.kd"))),
        (".args", Yaml::Array(list)),
        (".kernarg_segment_size", i(b.kd.kernarg_size as u64)),
        (".kernarg_segment_align", i(8)),
        (
            ".group_segment_fixed_size",
            i(b.kd.group_segment_fixed_size as u64),
        ),
        (
            ".private_segment_fixed_size",
            i(b.kd.private_segment_fixed_size as u64),
        ),
        (".wavefront_size", i(64)),
        (".max_flat_workgroup_size", i(1024)),
        (".sgpr_count", i(b.sgpr_count as u64)),
        (".vgpr_count", i(b.vgpr_count as u64)),
        (".sgpr_spill_count", i(0)),
        (".vgpr_spill_count", i(0)),
    ];
    if version >= 5 {
        kv.push((
            ".uses_dynamic_stack",
            Yaml::Boolean(b.kd.uses_dynamic_stack()),
        ));
    }
    map(kv)
}

/// The whole document.
pub fn document(target_id: &str, version: u32, kernels: Vec<Yaml>) -> Yaml {
    map(vec![
        (
            "amdhsa.version",
            Yaml::Array(vec![i(1), i(version as u64 - 3)]),
        ),
        ("amdhsa.target", s(target_id)),
        ("amdhsa.kernels", Yaml::Array(kernels)),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations() {
        let (n, a) = parse_decl(
            " vadd(global const uint *a, __global uint* c, uint n, float4 v, local float *t)",
            1,
            10,
        )
        .unwrap();
        assert_eq!(n, "vadd");
        assert_eq!(a.len(), 5);
        assert_eq!(
            a[0].kind,
            ArgKind::Buffer {
                space: "global",
                is_const: true
            }
        );
        assert_eq!((a[2].size, a[2].type_name.as_str()), (4, "uint"));
        assert_eq!((a[3].size, a[3].align), (16, 16));
        assert_eq!(a[4].kind, ArgKind::Local { pointee_align: 4 });
        // 0..8, 8..16, 16..20, 32..48, 48..52.
        assert_eq!(explicit_size(&a), 52);
        assert_eq!(parse_decl("k()", 1, 1).unwrap().1.len(), 0);
        // (declaration, column of the error, what its message says).
        for (bad, col, why) in [
            ("k", 1, "expected `NAME(arguments)`"),
            ("k(uint)", 3, "argument `uint` has no name"),
            ("k(global uint n)", 3, "an address space needs a pointer"),
            ("k(uint n", 2, "missing `)`"),
            ("k(foo x)", 3, "unexpected `foo` in `foo x`"),
            ("(uint n)", 1, "`` is not a kernel name"),
            ("k(uint n) x", 10, "text after `)`"),
        ] {
            let (l, c, msg) = parse_decl(bad, 3, 1).unwrap_err();
            assert_eq!((l, c), (3, col), "{bad}: {msg}");
            assert!(msg.contains(why), "{bad}: {msg}");
        }
        assert_eq!(parse_decl("k(uint n, bogus m)", 3, 5).unwrap_err().1, 14);
    }

    #[test]
    fn msgpack_like_llvm() {
        let y = parse_yaml("b: 1\na: [true, -2, 'x']\n", 1).unwrap();
        // Keys sorted: a, b.
        assert_eq!(
            to_msgpack(&y).unwrap(),
            [0x82, 0xa1, b'a', 0x93, 0xc3, 0xfe, 0xa1, b'x', 0xa1, b'b', 0x01]
        );
        assert_eq!(parse_yaml("a: [b\n", 10).unwrap_err().0, 11);
        // The 65th `[` is one level too deep.
        assert_eq!(
            parse_yaml(&"[".repeat(100), 1).unwrap_err(),
            (1, 65, "metadata nests deeper than 64 levels".into())
        );
        assert_eq!(
            parse_yaml("- 1\n", 1).unwrap_err(),
            (1, 1, "metadata must be one YAML map".into())
        );
        assert_eq!(
            parse_yaml("a: 1\n---\nb: 2\n", 1).unwrap_err(),
            (1, 1, "metadata must be one YAML document, found 2".into())
        );
    }
}
