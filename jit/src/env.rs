//! The `WAVEJIT_JIT_*` environment variables (diagnostics and tuning), checked in one
//! place so that a front end can refuse a misspelt name or a bad value instead of
//! silently ignoring it. The library itself falls back to the defaults on a bad value.
//!
//! | variable | value | effect |
//! |---|---|---|
//! | `WAVEJIT_JIT_OPT` | `speed` (default) or `none` | Cranelift's optimisation level |
//! | `WAVEJIT_JIT_REGALLOC` | `single_pass` or `backtracking` | Cranelift's register allocator (default: by tier) |
//! | `WAVEJIT_JIT_HOT` | a number | entries of quick-tier code before it is optimised (0: no quick tier) |
//! | `WAVEJIT_JIT_CLIF` | a directory | each compiled function's CLIF is written there |
//! | `WAVEJIT_JIT_DUMP` | a directory | each compiled function's machine code is written there |
//! | `WAVEJIT_JIT_DEBUG` | anything | the dispatcher reports blocks that fail to compile |

/// The variables this crate reads.
pub const KNOWN: [&str; 6] = [
    "WAVEJIT_JIT_OPT",
    "WAVEJIT_JIT_HOT",
    "WAVEJIT_JIT_REGALLOC",
    "WAVEJIT_JIT_CLIF",
    "WAVEJIT_JIT_DUMP",
    "WAVEJIT_JIT_DEBUG",
];

/// Check every `WAVEJIT_JIT_*` variable of the environment: an unknown name, a value of
/// `WAVEJIT_JIT_OPT` other than `speed`/`none`, or a dump directory that does not exist
/// is an error naming the variable.
pub fn check() -> Result<(), String> {
    check_vars(std::env::vars_os())
}

/// The error for variable `k`'s value `v` (its first `keep` characters shown).
fn bad(k: &str, v: &std::ffi::OsStr, keep: usize, what: &str) -> String {
    let shown: String = v.to_string_lossy().chars().take(keep).collect();
    format!("{k}={shown}: {what}")
}

fn check_vars(
    vars: impl Iterator<Item = (std::ffi::OsString, std::ffi::OsString)>,
) -> Result<(), String> {
    for (k, v) in vars {
        let Some(k) = k.to_str() else { continue };
        if !k.starts_with("WAVEJIT_JIT_") {
            continue;
        }
        match k {
            "WAVEJIT_JIT_OPT" if !matches!(v.to_str(), Some("speed" | "none")) => {
                return Err(bad(k, &v, 80, "expected `speed` or `none`"));
            }
            "WAVEJIT_JIT_REGALLOC"
                if !matches!(v.to_str(), Some("single_pass" | "backtracking")) =>
            {
                return Err(bad(k, &v, 80, "expected `single_pass` or `backtracking`"));
            }
            "WAVEJIT_JIT_HOT" if v.to_str().and_then(|t| t.parse::<u32>().ok()).is_none() => {
                return Err(bad(k, &v, 80, "expected a number of entries"));
            }
            "WAVEJIT_JIT_CLIF" | "WAVEJIT_JIT_DUMP" if !std::path::Path::new(&v).is_dir() => {
                return Err(bad(k, &v, 200, "not a directory"));
            }
            _ if KNOWN.contains(&k) => {}
            _ => {
                return Err(format!(
                    "unknown variable {k} (wavejit reads {})",
                    KNOWN.join(", ")
                ))
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(v: &[(&str, &str)]) -> Result<(), String> {
        check_vars(v.iter().map(|(a, b)| (a.into(), b.into())))
    }

    /// The error `v` gives (an `Ok` is a failed test).
    fn err(v: &[(&str, &str)]) -> String {
        match vars(v) {
            Ok(()) => panic!("{v:?} was accepted"),
            Err(e) => e,
        }
    }

    #[test]
    fn values_and_names() {
        assert!(vars(&[("WAVEJIT_JIT_OPT", "none"), ("PATH", "x")]).is_ok());
        assert!(err(&[("WAVEJIT_JIT_OPT", "fast")]).contains("expected `speed` or `none`"));
        assert!(vars(&[("WAVEJIT_JIT_REGALLOC", "single_pass")]).is_ok());
        assert!(err(&[("WAVEJIT_JIT_REGALLOC", "linear")]).contains("expected `single_pass`"));
        assert!(vars(&[("WAVEJIT_JIT_HOT", "0")]).is_ok());
        assert!(err(&[("WAVEJIT_JIT_HOT", "-1")]).contains("expected a number"));
        assert!(err(&[("WAVEJIT_JIT_CLIF", "/nonexistent/dir")]).contains("not a directory"));
        assert!(err(&[("WAVEJIT_JIT_OTP", "none")]).contains("unknown variable WAVEJIT_JIT_OTP"));
    }
}
