//! Value parsers shared by the subcommands' flags: ranges checked up front, so an absurd
//! value is a usage error naming the range, never a silent clamp, a panic or a hang.

/// Most host threads or fuzz jobs a flag may ask for.
pub const MAX_THREADS_FLAG: usize = wavejit::device::MAX_THREADS;

/// A whole number in `lo..=hi` (decimal), for clap flags: anything else is a usage error
/// naming the range, never a silent clamp.
fn ranged(s: &str, lo: u64, hi: u64) -> Result<u64, String> {
    let v: u64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{}` is not a whole number", elide(s)))?;
    if v < lo || v > hi {
        return Err(format!("{v} is outside {lo}..={hi}"));
    }
    Ok(v)
}

/// `--threads` / `--jobs`: 1 to `MAX_THREADS_FLAG`.
pub fn threads(s: &str) -> Result<usize, String> {
    ranged(s, 1, MAX_THREADS_FLAG as u64).map(|v| v as usize)
}

/// Longest time a `--seconds` flag may ask for (about 11.6 days).
pub const MAX_SECONDS: f64 = 1e6;

/// `--seconds`: a finite number of seconds in (0, `MAX_SECONDS`].
pub fn seconds(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{}` is not a number of seconds", elide(s)))?;
    if !(v > 0.0 && v <= MAX_SECONDS) {
        return Err(format!(
            "`{}` is not in (0, {MAX_SECONDS}] seconds",
            elide(s)
        ));
    }
    Ok(v)
}

/// Most instructions `fuzz --len` may ask per program.
pub const MAX_FUZZ_LEN: u64 = 100_000;

/// `fuzz --len`: 1 to `MAX_FUZZ_LEN`.
pub fn fuzz_len(s: &str) -> Result<usize, String> {
    ranged(s, 1, MAX_FUZZ_LEN).map(|v| v as usize)
}

/// Longest piece of a user's input quoted back in a message.
pub const QUOTE_CHARS: usize = 80;

/// `s`, cut to `QUOTE_CHARS` characters with the number of characters left out.
pub fn elide(s: &str) -> String {
    let n = s.chars().count();
    if n <= QUOTE_CHARS {
        return s.to_string();
    }
    let head: String = s.chars().take(QUOTE_CHARS).collect();
    format!("{head}… ({} more characters)", n - QUOTE_CHARS)
}

/// `--no-cache`, shared by the subcommands that compile (`run`, `launch`).
#[derive(clap::Args)]
pub struct Cache {
    /// Neither load nor store compiled code in the disk cache (also: WAVEJIT_CACHE=off;
    /// WAVEJIT_CACHE_DIR sets its directory, default $XDG_CACHE_HOME/wavejit or
    /// ~/.cache/wavejit).
    #[arg(long)]
    no_cache: bool,
}

impl Cache {
    /// The disk cache to use: none with `--no-cache`, else the environment's.
    pub fn disk(&self) -> Option<wavejit::engine::DiskCache> {
        if self.no_cache {
            None
        } else {
            wavejit::engine::DiskCache::from_env()
        }
    }
}
