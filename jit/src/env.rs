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

fn check_vars(
    vars: impl Iterator<Item = (std::ffi::OsString, std::ffi::OsString)>,
) -> Result<(), String> {
    for (k, v) in vars {
        let Some(k) = k.to_str() else { continue };
        if !k.starts_with("WAVEJIT_JIT_") {
            continue;
        }
        match k {
            "WAVEJIT_JIT_OPT" => match v.to_str() {
                Some("speed" | "none") => {}
                _ => {
                    return Err(format!(
                        "{k}={}: expected `speed` or `none`",
                        v.to_string_lossy().chars().take(80).collect::<String>()
                    ))
                }
            },
            "WAVEJIT_JIT_REGALLOC" => match v.to_str() {
                Some("single_pass" | "backtracking") => {}
                _ => {
                    return Err(format!(
                        "{k}={}: expected `single_pass` or `backtracking`",
                        v.to_string_lossy().chars().take(80).collect::<String>()
                    ))
                }
            },
            "WAVEJIT_JIT_HOT" => {
                if v.to_str().and_then(|t| t.parse::<u32>().ok()).is_none() {
                    return Err(format!(
                        "{k}={}: expected a number of entries",
                        v.to_string_lossy().chars().take(80).collect::<String>()
                    ));
                }
            }
            "WAVEJIT_JIT_CLIF" | "WAVEJIT_JIT_DUMP" => {
                if !std::path::Path::new(&v).is_dir() {
                    return Err(format!(
                        "{k}={}: not a directory",
                        v.to_string_lossy().chars().take(200).collect::<String>()
                    ));
                }
            }
            "WAVEJIT_JIT_DEBUG" => {}
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
