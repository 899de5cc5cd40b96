//! Tokens of one assembly line, with 1-based columns. Comments (`;`, `//`, `#`) end the
//! line. Identifiers may contain `.` and `$` (`attr2.y`, `.text`, `.L16`).

/// A token and the column where it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Tok {
    pub kind: TokKind,
    pub col: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TokKind {
    Ident(String),
    /// An integer written in decimal, hex (`0x`), octal-free binary (`0b`).
    Int(i128),
    /// A number with a fraction or exponent.
    Float(f64),
    Str(String),
    /// One of `, [ ] ( ) : | - + & = * / @ { }`.
    Punct(char),
}

/// Split `line` into tokens (comments removed). Errors name the column of the bad character.
pub fn lex(line: &str) -> Result<Vec<Tok>, (u32, String)> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    let mut i = 0usize;
    while i < chars.len() {
        let c = chars[i];
        let col = i as u32 + 1;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c == ';' || c == '#' || (c == '/' && chars.get(i + 1) == Some(&'/')) {
            break;
        }
        if c == '/' && chars.get(i + 1) == Some(&'*') {
            // Block comment within the line.
            let mut j = i + 2;
            while j + 1 < chars.len() && !(chars[j] == '*' && chars[j + 1] == '/') {
                j += 1;
            }
            if j + 1 >= chars.len() {
                return Err((col, "unterminated /* comment".into()));
            }
            i = j + 2;
            continue;
        }
        if c.is_ascii_alphabetic() || c == '_' || c == '.' || c == '$' {
            // `.5` is a number, not an identifier.
            if c == '.' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit()) {
                let (t, n) = number(&chars[i..]).map_err(|m| (col, m))?;
                out.push(Tok { kind: t, col });
                i += n;
                continue;
            }
            let mut j = i;
            while j < chars.len()
                && (chars[j].is_ascii_alphanumeric() || matches!(chars[j], '_' | '.' | '$'))
            {
                j += 1;
            }
            out.push(Tok {
                kind: TokKind::Ident(chars[i..j].iter().collect()),
                col,
            });
            i = j;
            continue;
        }
        if c.is_ascii_digit() {
            let (t, n) = number(&chars[i..]).map_err(|m| (col, m))?;
            out.push(Tok { kind: t, col });
            i += n;
            continue;
        }
        if c == '"' {
            let mut j = i + 1;
            while j < chars.len() && chars[j] != '"' {
                j += 1;
            }
            if j >= chars.len() {
                return Err((col, "unterminated string".into()));
            }
            out.push(Tok {
                kind: TokKind::Str(chars[i + 1..j].iter().collect()),
                col,
            });
            i = j + 1;
            continue;
        }
        if matches!(
            c,
            ',' | '['
                | ']'
                | '('
                | ')'
                | ':'
                | '|'
                | '-'
                | '+'
                | '&'
                | '='
                | '*'
                | '/'
                | '@'
                | '{'
                | '}'
        ) {
            out.push(Tok {
                kind: TokKind::Punct(c),
                col,
            });
            i += 1;
            continue;
        }
        return Err((col, format!("unexpected character `{c}`")));
    }
    Ok(out)
}

/// A number at the start of `s`: its token and length in chars.
fn number(s: &[char]) -> Result<(TokKind, usize), String> {
    let mut j = 0;
    let lower = |k: usize| s.get(k).map(|c| c.to_ascii_lowercase());
    if s.first() == Some(&'0') && matches!(lower(1), Some('x') | Some('b')) {
        let radix = if lower(1) == Some('x') { 16 } else { 2 };
        j = 2;
        while j < s.len() && s[j].is_digit(radix) {
            j += 1;
        }
        if j == 2 {
            return Err("number has no digits".into());
        }
        let text: String = s[2..j].iter().collect();
        if j < s.len() && (s[j].is_ascii_alphanumeric() || s[j] == '_') {
            return Err(format!("bad digit `{}` in number", s[j]));
        }
        return i128::from_str_radix(&text, radix)
            .map(|v| (TokKind::Int(v), j))
            .map_err(|_| "number too large".to_string());
    }
    while j < s.len() && s[j].is_ascii_digit() {
        j += 1;
    }
    let mut is_float = false;
    if j < s.len() && s[j] == '.' && !matches!(s.get(j + 1), Some(c) if c.is_ascii_alphabetic()) {
        is_float = true;
        j += 1;
        while j < s.len() && s[j].is_ascii_digit() {
            j += 1;
        }
    }
    if j < s.len() && matches!(s[j], 'e' | 'E') {
        let mut k = j + 1;
        if k < s.len() && matches!(s[k], '+' | '-') {
            k += 1;
        }
        if k < s.len() && s[k].is_ascii_digit() {
            is_float = true;
            j = k;
            while j < s.len() && s[j].is_ascii_digit() {
                j += 1;
            }
        }
    }
    if j < s.len() && s[j] == '_' && !is_float {
        // CLRX's short buffer data formats (`8_8`, `10_11_11`) are words, not numbers.
        let mut k = j;
        while k < s.len() && (s[k].is_ascii_digit() || s[k] == '_') {
            k += 1;
        }
        if !(k < s.len() && s[k].is_ascii_alphabetic()) {
            return Ok((TokKind::Ident(s[..k].iter().collect()), k));
        }
    }
    if j < s.len() && (s[j].is_ascii_alphanumeric() || s[j] == '_') {
        return Err(format!("bad digit `{}` in number", s[j]));
    }
    let text: String = s[..j].iter().collect();
    if is_float {
        text.parse::<f64>()
            .map(|v| (TokKind::Float(v), j))
            .map_err(|_| format!("bad number `{text}`"))
    } else {
        text.parse::<i128>()
            .map(|v| (TokKind::Int(v), j))
            .map_err(|_| "number too large".to_string())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<TokKind> {
        lex(s).unwrap().into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn numbers_identifiers_and_comments() {
        assert_eq!(
            kinds("v_add_f32 v1, 0x10, -1.5 ; comment"),
            vec![
                TokKind::Ident("v_add_f32".into()),
                TokKind::Ident("v1".into()),
                TokKind::Punct(','),
                TokKind::Int(16),
                TokKind::Punct(','),
                TokKind::Punct('-'),
                TokKind::Float(1.5),
            ]
        );
        assert_eq!(
            kinds("attr2.y // x"),
            vec![TokKind::Ident("attr2.y".into())]
        );
        assert_eq!(kinds("# all comment"), vec![]);
        assert_eq!(
            kinds("0b101 .5 1e3"),
            vec![TokKind::Int(5), TokKind::Float(0.5), TokKind::Float(1000.0)]
        );
        assert_eq!(lex("v1 `").unwrap_err().0, 4);
        assert_eq!(lex("  !").unwrap_err().0, 3);
        assert_eq!(lex("0x").unwrap_err(), (1, "number has no digits".into()));
        assert_eq!(lex("12ab").unwrap_err().0, 1);
    }
}
