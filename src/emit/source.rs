//! The first pass over a code-object source: it takes out the lines that describe the
//! object rather than code — `.amdgcn_target`, `.amdhsa_code_object_version`, section
//! switches, `.globl`/`.protected`/`.type`/`.size`, `.amdhsa_kernel` blocks, the
//! `.amdgpu_metadata` block and `@kernel` declarations in comments — and hands the rest,
//! with those lines blanked so line numbers stay, to the instruction assembler.
//!
//! Code lives in `.text` only; the other section a source may switch to is `.rodata`, where
//! kernel descriptors go (`.p2align` up to 64 is accepted there, since every descriptor is
//! 64-byte aligned). Anything else is an error at its line and column.

use super::kdesc::Field;

/// A positioned error: (line, column, message).
pub type SrcError = (u32, u32, String);

/// A symbol attribute directive's target: (name, line, column).
pub type Named = (String, u32, u32);

/// One `.amdhsa_kernel` block.
#[derive(Clone, Debug, Default)]
pub struct KernelBlock {
    pub name: String,
    pub line: u32,
    pub col: u32,
    pub fields: Vec<Field>,
}

/// `.size NAME, EXPR`: a number or `LABEL-NAME`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SizeExpr {
    Number(u64),
    /// `END-START`.
    Diff(String, String),
}

/// What the first pass found.
#[derive(Clone, Debug, Default)]
pub struct Source {
    /// The source with every line this pass consumed blanked.
    pub code: String,
    /// `.amdgcn_target`: (id, line, column of the string).
    pub target: Option<(String, u32, u32)>,
    /// `.amdhsa_code_object_version`: (version, line, column of the value).
    pub version: Option<(i128, u32, u32)>,
    pub kernels: Vec<KernelBlock>,
    /// `.amdgpu_metadata` block: (YAML text, line of the directive).
    pub metadata: Option<(String, u32)>,
    pub globals: Vec<Named>,
    pub protected: Vec<Named>,
    pub functions: Vec<Named>,
    pub sizes: Vec<(Named, SizeExpr)>,
    /// `@kernel` declarations: (text after `@kernel`, line, column of it).
    pub decls: Vec<(String, u32, u32)>,
}

/// Largest `.amdgpu_metadata` block (keeps the YAML parser's nesting shallow).
pub const MAX_METADATA_BYTES: usize = 64 << 10;

/// Where the comment of a line starts (`;`, `//`, `#`), outside double quotes.
fn comment_start(line: &str) -> Option<usize> {
    let b = line.as_bytes();
    let mut quoted = false;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => quoted = !quoted,
            b';' | b'#' if !quoted => return Some(i),
            b'/' if !quoted && b.get(i + 1) == Some(&b'/') => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

/// 1-based column of byte offset `at` in `line`.
fn col_of(line: &str, at: usize) -> u32 {
    line[..at].chars().count() as u32 + 1
}

/// The words of a directive line after its name: split at commas and white space, each
/// with its column.
fn words(line: &str, from: usize) -> Vec<(&str, u32)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line[from..].char_indices() {
        let i = i + from;
        if c == ',' || c.is_whitespace() {
            if let Some(s) = start.take() {
                out.push((&line[s..i], col_of(line, s)));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((&line[s..], col_of(line, s)));
    }
    out
}

/// An integer as llvm-mc writes them: decimal, `0x` hex, `0b` binary, `0o`/leading-zero
/// octal, optionally negative.
pub fn parse_int(s: &str) -> Option<i128> {
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let lower = s.to_ascii_lowercase();
    let v = if let Some(h) = lower.strip_prefix("0x") {
        i128::from_str_radix(h, 16).ok()?
    } else if let Some(b) = lower.strip_prefix("0b") {
        i128::from_str_radix(b, 2).ok()?
    } else if let Some(o) = lower.strip_prefix("0o") {
        i128::from_str_radix(o, 8).ok()?
    } else if lower.len() > 1 && lower.starts_with('0') {
        i128::from_str_radix(&lower[1..], 8).ok()?
    } else if !lower.is_empty() && lower.bytes().all(|c| c.is_ascii_digit()) {
        lower.parse().ok()?
    } else {
        return None;
    };
    Some(if neg { -v } else { v })
}

fn is_symbol(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$'))
        && !s.starts_with(|c: char| c.is_ascii_digit())
}

/// The section a line is in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    Text,
    Rodata,
}

/// Split `text` into what the object needs and the code for the assembler.
pub fn scan(text: &str) -> Result<Source, SrcError> {
    let mut out = Source::default();
    let mut code = String::with_capacity(text.len());
    let mut section = Section::Text;
    let mut kernel: Option<KernelBlock> = None;
    let mut meta: Option<(String, u32)> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i as u32 + 1;
        // Inside `.amdgpu_metadata`: YAML, taken verbatim up to the closing directive.
        if let Some((yaml, _)) = &mut meta {
            if raw.trim() == ".end_amdgpu_metadata" {
                out.metadata = meta.take();
            } else {
                yaml.push_str(raw);
                yaml.push('\n');
                if yaml.len() > MAX_METADATA_BYTES {
                    return Err((
                        line,
                        1,
                        format!(".amdgpu_metadata is larger than {MAX_METADATA_BYTES} bytes"),
                    ));
                }
            }
            code.push('\n');
            continue;
        }
        let body_end = comment_start(raw).unwrap_or(raw.len());
        // `@kernel` declarations live in whole-line comments, so llvm-mc ignores them.
        if raw[..body_end].trim().is_empty() && body_end < raw.len() {
            let c = raw[body_end..].trim_start_matches([';', '/', '#']);
            let t = c.trim_start();
            if let Some(d) = t.strip_prefix("@kernel") {
                let at = raw.len() - d.len();
                out.decls.push((d.to_string(), line, col_of(raw, at)));
            }
        }
        let body = &raw[..body_end];
        let trimmed = body.trim_start();
        let lead = body.len() - trimmed.len();
        let head_len = trimmed
            .find(|c: char| c.is_whitespace())
            .unwrap_or(trimmed.len());
        let head = &trimmed[..head_len];
        let hcol = col_of(raw, lead);
        let args_from = lead + head_len;
        let args = words(body, args_from);
        let directive = head.starts_with('.') && !head.ends_with(':');
        if let Some(k) = &mut kernel {
            code.push('\n');
            if head.is_empty() {
                continue;
            }
            if head == ".end_amdhsa_kernel" {
                out.kernels.extend(kernel.take());
                continue;
            }
            let Some(name) = head.strip_prefix(".amdhsa_") else {
                return Err((line, hcol, format!("expected an .amdhsa_ directive or .end_amdhsa_kernel in the block of `{}`, found `{head}`", k.name)));
            };
            let [(v, vcol)] = args[..] else {
                return Err((line, hcol, format!("{head} takes one value")));
            };
            let value = parse_int(v).ok_or_else(|| {
                (
                    line,
                    vcol,
                    format!("{head}: expected an integer, found `{v}` (expressions and symbols are not supported)"),
                )
            })?;
            k.fields.push(Field {
                name: name.to_string(),
                value,
                line,
                col: hcol,
                value_col: vcol,
            });
            continue;
        }
        if !directive {
            if section != Section::Text && !head.is_empty() {
                return Err((line, hcol, "code and labels belong in .text (kernel descriptors are the only contents of .rodata)".into()));
            }
            code.push_str(raw);
            code.push('\n');
            continue;
        }
        let lower = head.to_ascii_lowercase();
        let one = |what: &str| -> Result<(String, u32), SrcError> {
            match args[..] {
                [(a, c)] if is_symbol(a) => Ok((a.to_string(), c)),
                [(a, c)] => Err((line, c, format!("{head}: `{a}` is not a {what}"))),
                _ => Err((line, hcol, format!("{head} takes one {what}"))),
            }
        };
        match lower.as_str() {
            ".amdgcn_target" => {
                let s = body[args_from..].trim();
                let c = col_of(raw, body.len() - body[args_from..].trim_start().len());
                let id = s
                    .strip_prefix('"')
                    .and_then(|s| s.strip_suffix('"'))
                    .ok_or((
                        line,
                        c,
                        ".amdgcn_target takes a quoted target id".to_string(),
                    ))?;
                if out.target.is_some() {
                    return Err((line, hcol, ".amdgcn_target given twice".into()));
                }
                out.target = Some((id.to_string(), line, c));
            }
            ".amdhsa_code_object_version" => {
                let [(v, c)] = args[..] else {
                    return Err((
                        line,
                        hcol,
                        ".amdhsa_code_object_version takes one number".into(),
                    ));
                };
                let n = parse_int(v).ok_or((line, c, format!("expected a number, found `{v}`")))?;
                out.version = Some((n, line, c));
            }
            ".text" | ".rodata" => {
                if let Some((_, c)) = args.first() {
                    return Err((line, *c, format!("{head} takes no operands")));
                }
                section = if lower == ".text" {
                    Section::Text
                } else {
                    Section::Rodata
                };
            }
            ".section" => {
                let Some((name, c)) = args.first() else {
                    return Err((line, hcol, ".section needs a name".into()));
                };
                section = match name.trim_matches('"') {
                    ".text" => Section::Text,
                    ".rodata" => Section::Rodata,
                    other => {
                        return Err((
                            line,
                            *c,
                            format!("section `{other}` is not supported (only .text and .rodata)"),
                        ))
                    }
                };
            }
            ".globl" | ".global" => {
                let (n, c) = one("symbol")?;
                out.globals.push((n, line, c));
            }
            ".protected" => {
                let (n, c) = one("symbol")?;
                out.protected.push((n, line, c));
            }
            ".type" => {
                let [(n, c), (kind, kc)] = args[..] else {
                    return Err((line, hcol, ".type takes a symbol and @function".into()));
                };
                match kind {
                    "@function" | "%function" | "STT_FUNC" => {}
                    _ => {
                        return Err((
                            line,
                            kc,
                            format!(".type `{kind}`: only functions (@function) are supported"),
                        ))
                    }
                }
                if !is_symbol(n) {
                    return Err((line, c, format!(".type: `{n}` is not a symbol")));
                }
                out.functions.push((n.to_string(), line, c));
            }
            ".size" => {
                let [(n, c), (e, ec)] = args[..] else {
                    return Err((line, hcol, ".size takes a symbol and a size".into()));
                };
                let expr = if let Some(v) = parse_int(e) {
                    SizeExpr::Number(
                        u64::try_from(v).map_err(|_| (line, ec, "negative size".to_string()))?,
                    )
                } else {
                    match e.split_once('-') {
                        Some((a, b)) if is_symbol(a) && is_symbol(b) => {
                            SizeExpr::Diff(a.to_string(), b.to_string())
                        }
                        _ => {
                            return Err((
                                line,
                                ec,
                                format!(".size: expected a number or END-START, found `{e}`"),
                            ))
                        }
                    }
                };
                out.sizes.push(((n.to_string(), line, c), expr));
            }
            ".p2align" | ".balign" if section == Section::Rodata => {
                let ok = match args.first().and_then(|(v, _)| parse_int(v)) {
                    Some(v) if lower == ".p2align" => (0..=6).contains(&v),
                    Some(v) => [1, 2, 4, 8, 16, 32, 64].contains(&v),
                    None => false,
                };
                if !ok {
                    return Err((line, hcol, format!("{head} in .rodata: only alignments up to 64 bytes (what kernel descriptors have) are supported")));
                }
            }
            ".amdhsa_kernel" => {
                let (n, c) = one("kernel name")?;
                kernel = Some(KernelBlock {
                    name: n,
                    line,
                    col: c,
                    fields: Vec::new(),
                });
            }
            ".amdgpu_metadata" => {
                if out.metadata.is_some() {
                    return Err((line, hcol, ".amdgpu_metadata given twice".into()));
                }
                meta = Some((String::new(), line));
            }
            ".end_amdhsa_kernel" | ".end_amdgpu_metadata" => {
                return Err((line, hcol, format!("{head} without its opening directive")))
            }
            ".hidden" | ".local" | ".weak" => {
                return Err((
                    line,
                    hcol,
                    format!("{head} is not supported (kernels are global symbols)"),
                ))
            }
            // Data and alignment directives go to the assembler, which checks them.
            _ if section == Section::Text => {
                code.push_str(raw);
                code.push('\n');
                continue;
            }
            _ => {
                return Err((
                    line,
                    hcol,
                    format!(
                    "{head} in .rodata is not supported (kernel descriptors are its only contents)"
                ),
                ))
            }
        }
        code.push('\n');
    }
    if let Some(k) = kernel {
        return Err((
            k.line,
            1,
            format!(".amdhsa_kernel {} has no .end_amdhsa_kernel", k.name),
        ));
    }
    if let Some((_, l)) = meta {
        return Err((l, 1, ".amdgpu_metadata has no .end_amdgpu_metadata".into()));
    }
    out.code = code;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_and_positions() {
        let s = scan(
            "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx803\"\n.text\n.globl k\n.type k,@function\nk:\n s_endpgm ; done\n// @kernel k(uint n)\n.rodata\n.p2align 6\n.amdhsa_kernel k\n .amdhsa_next_free_vgpr 0x4 // c\n.end_amdhsa_kernel\n",
        )
        .unwrap();
        assert_eq!(s.target.as_ref().unwrap().0, "amdgcn-amd-amdhsa--gfx803");
        assert_eq!(s.code.lines().count(), 12);
        assert_eq!(s.code.lines().nth(4), Some("k:"));
        assert_eq!(s.code.lines().next(), Some(""));
        assert_eq!(s.kernels[0].fields[0].value, 4);
        assert_eq!(s.kernels[0].fields[0].line, 11);
        assert_eq!(s.decls[0].0.trim(), "k(uint n)");
        assert_eq!(s.functions[0].0, "k");
        let e = scan(".rodata\n s_endpgm\n").unwrap_err();
        assert_eq!((e.0, e.1), (2, 2));
        let e = scan(".amdhsa_kernel k\n .amdhsa_next_free_vgpr x\n").unwrap_err();
        assert_eq!((e.0, e.1), (2, 25));
        assert_eq!(scan(".amdhsa_kernel k\n").unwrap_err().0, 1);
        assert_eq!(scan("x\n.amdgpu_metadata\n---\n").unwrap_err().0, 2);
        assert_eq!(scan(".section .data\n").unwrap_err().1, 10);
    }

    #[test]
    fn integers() {
        assert_eq!(parse_int("0x1F"), Some(31));
        assert_eq!(parse_int("017"), Some(15));
        assert_eq!(parse_int("-3"), Some(-3));
        assert_eq!(parse_int("0b101"), Some(5));
        assert_eq!(parse_int("x"), None);
        assert_eq!(parse_int(""), None);
        assert_eq!(
            parse_int("99999999999999999999999999999999999999999999"),
            None
        );
    }
}
