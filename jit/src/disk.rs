//! The disk cache of compiled units: one file per (program, compiler settings) holding
//! the machine code of every unit compiled for that program, so that another process
//! running the same kernel loads its blocks instead of compiling them again.
//!
//! What makes this safe: compiled code holds no address of this process (everything it
//! needs it reads from `JitCtx`), so its bytes depend only on the program, the unit's
//! specialisation (`Spec`) and the compiler — and the file's name and header say all of
//! these: the build's source fingerprint (`build.rs`: every source of the decoder, the
//! interpreter and the lowering, and the locked dependency versions), the package
//! version, Cranelift's flags and the host CPU features it detected, the `JitConfig`, the
//! layout of the structures compiled code addresses, the architecture and the program's
//! bytes. The header is stored whole and compared byte for byte (not only its hash); the
//! file ends with a SHA-256 of its contents. A file that is truncated, corrupted, written
//! by another build or for other settings is ignored (and replaced by the next save):
//! it never runs. Files are written to a temporary name and renamed (atomic on POSIX),
//! and the directory is trimmed to its size bound, oldest files first.
//!
//! Location: `WAVEJIT_CACHE_DIR`, else `$XDG_CACHE_HOME/wavejit`, else
//! `~/.cache/wavejit`; `WAVEJIT_CACHE=off` turns it off (`DiskCache::from_env`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use sha2::{Digest, Sha256};
use wavejit_isa::arch::Arch;

use crate::backend::{Artifact, LibReloc};

/// What a unit is specialised on: the code cache's key within a program, and part of a
/// stored unit's (`gcn::Spec` is this type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    pub pc: u32,
    pub mode: u32,
    /// EXEC is all ones at entry (no lane masking until EXEC changes).
    pub exec_all: bool,
    /// At most this many instructions (0: to the end of the basic block). The diff
    /// engine compiles prefixes of a block to find the instruction that went wrong.
    pub max_len: u32,
}

/// Environment variable: `off` (or `0`, `false`, `no`) disables the disk cache.
pub const ENV_CACHE: &str = "WAVEJIT_CACHE";
/// Environment variable: the cache directory.
pub const ENV_CACHE_DIR: &str = "WAVEJIT_CACHE_DIR";
/// Default bound on the directory's size.
pub const DEFAULT_MAX_BYTES: u64 = 256 << 20;

const MAGIC: &[u8; 8] = b"WJITUNIT";
const FORMAT: u32 = 1;
const EXT: &str = "wjc";

/// Where compiled units are kept between processes, and how much room they may take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiskCache {
    pub dir: PathBuf,
    pub max_bytes: u64,
}

impl DiskCache {
    /// A cache in `dir` (created when first written) bounded by `DEFAULT_MAX_BYTES`.
    pub fn new(dir: impl Into<PathBuf>) -> DiskCache {
        DiskCache {
            dir: dir.into(),
            max_bytes: DEFAULT_MAX_BYTES,
        }
    }

    /// The cache the environment asks for: none with `WAVEJIT_CACHE=off`, else in
    /// `WAVEJIT_CACHE_DIR` or the default directory (none without a home directory).
    pub fn from_env() -> Option<DiskCache> {
        if let Ok(v) = std::env::var(ENV_CACHE) {
            if matches!(
                v.trim().to_ascii_lowercase().as_str(),
                "off" | "0" | "false" | "no"
            ) {
                return None;
            }
        }
        if let Some(d) = std::env::var_os(ENV_CACHE_DIR).filter(|d| !d.is_empty()) {
            return Some(DiskCache::new(d));
        }
        default_dir().map(DiskCache::new)
    }

    fn path(&self, header: &[u8]) -> PathBuf {
        let h = Sha256::digest(header);
        let name: String = h.iter().take(16).map(|b| format!("{b:02x}")).collect();
        self.dir.join(format!("{name}.{EXT}"))
    }

    /// The units stored for `header` (see `header`).
    pub(crate) fn load(&self, header: &[u8]) -> Loaded {
        let path = self.path(header);
        let meta = match std::fs::metadata(&path) {
            Ok(m) => m,
            Err(_) => return Loaded::Missing,
        };
        if meta.len() > self.max_bytes {
            return Loaded::Rejected("larger than the cache's bound".into());
        }
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => return Loaded::Rejected(e.to_string()),
        };
        match decode(&bytes, header) {
            Ok(units) => {
                // Recently used files are the last to be trimmed.
                if let Ok(f) = std::fs::File::options().append(true).open(&path) {
                    let _ = f.set_modified(std::time::SystemTime::now());
                }
                Loaded::Units(units)
            }
            Err(why) => Loaded::Rejected(why),
        }
    }

    /// Store `units` for `header`, replacing what was there, then trim the directory.
    pub(crate) fn store(&self, header: &[u8], units: &[StoredUnit]) -> std::io::Result<()> {
        std::fs::create_dir_all(&self.dir)?;
        let path = self.path(header);
        let bytes = encode(header, units);
        static SEQ: AtomicU64 = AtomicU64::new(0);
        let tmp = self.dir.join(format!(
            ".tmp-{}-{}",
            std::process::id(),
            SEQ.fetch_add(1, Ordering::Relaxed)
        ));
        let r = (|| {
            let mut f = std::fs::File::create(&tmp)?;
            f.write_all(&bytes)?;
            f.sync_data()?;
            std::fs::rename(&tmp, &path)
        })();
        if r.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        r?;
        self.trim();
        Ok(())
    }

    /// Remove the least recently used files until the directory fits `max_bytes`.
    fn trim(&self) {
        let Ok(rd) = std::fs::read_dir(&self.dir) else {
            return;
        };
        let mut files: Vec<(std::time::SystemTime, u64, PathBuf)> = rd
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == EXT))
            .filter_map(|e| {
                let m = e.metadata().ok()?;
                Some((m.modified().ok()?, m.len(), e.path()))
            })
            .collect();
        let mut total: u64 = files.iter().map(|f| f.1).sum();
        files.sort();
        for (_, len, p) in files {
            if total <= self.max_bytes {
                break;
            }
            if std::fs::remove_file(&p).is_ok() {
                total = total.saturating_sub(len);
            }
        }
    }
}

/// `$XDG_CACHE_HOME/wavejit`, else `$HOME/.cache/wavejit`.
pub fn default_dir() -> Option<PathBuf> {
    if let Some(x) = std::env::var_os("XDG_CACHE_HOME").filter(|x| !x.is_empty()) {
        let p = PathBuf::from(x);
        if p.is_absolute() {
            return Some(p.join("wavejit"));
        }
    }
    let home = std::env::var_os("HOME").filter(|h| !h.is_empty())?;
    Some(Path::new(&home).join(".cache").join("wavejit"))
}

/// What a load found.
#[derive(Debug)]
pub(crate) enum Loaded {
    Missing,
    Rejected(String),
    Units(Vec<StoredUnit>),
}

/// One compiled unit as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct StoredUnit {
    pub spec: Spec,
    pub insts: u32,
    pub helpers: u32,
    pub clif_insts: u32,
    pub art: Artifact,
}

/// Everything a stored unit's code depends on besides its `Spec`: `settings` (the
/// back end's flags and host features, the JIT configuration, the layout of what compiled
/// code addresses: the caller's), this build, the architecture and the program's bytes.
pub(crate) fn header(settings: &str, arch: Arch, code: &[u8]) -> Vec<u8> {
    header_of_build(BUILD, settings, arch, code)
}

/// This build: the package version and the fingerprint of its sources (`build.rs`).
const BUILD: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " source ",
    env!("WAVEJIT_SOURCE_FINGERPRINT")
);

fn header_of_build(build: &str, settings: &str, arch: Arch, code: &[u8]) -> Vec<u8> {
    let mut h = Vec::with_capacity(code.len() + settings.len() + 256);
    let text = format!(
        "wavejit {build}\n{settings}\narch {arch:?}\ncode {}\n",
        code.len()
    );
    h.extend_from_slice(text.as_bytes());
    h.extend_from_slice(code);
    h
}

fn put32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn encode(header: &[u8], units: &[StoredUnit]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    put32(&mut out, FORMAT);
    put32(&mut out, header.len() as u32);
    out.extend_from_slice(header);
    put32(&mut out, units.len() as u32);
    for u in units {
        put32(&mut out, u.spec.pc);
        put32(&mut out, u.spec.mode);
        put32(&mut out, u.spec.exec_all as u32);
        put32(&mut out, u.spec.max_len);
        put32(&mut out, u.insts);
        put32(&mut out, u.helpers);
        put32(&mut out, u.clif_insts);
        put32(&mut out, u.art.align);
        put32(&mut out, u.art.bytes.len() as u32);
        out.extend_from_slice(&u.art.bytes);
        put32(&mut out, u.art.relocs.len() as u32);
        for r in &u.art.relocs {
            put32(&mut out, r.offset);
            out.extend_from_slice(&r.addend.to_le_bytes());
            put32(&mut out, r.libcall.len() as u32);
            out.extend_from_slice(r.libcall.as_bytes());
        }
    }
    let sum = Sha256::digest(&out);
    out.extend_from_slice(&sum);
    out
}

/// A cursor over a stored file; every read is bounds-checked.
struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.b.len());
        let end = end.ok_or_else(|| format!("truncated at byte {}", self.at))?;
        let s = &self.b[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u32(&mut self) -> Result<u32, String> {
        let s = self.take(4)?;
        Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    }

    fn i64(&mut self) -> Result<i64, String> {
        let s = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(s);
        Ok(i64::from_le_bytes(a))
    }

    /// A count of items of at least `min` bytes each that must fit what is left.
    fn count(&mut self, min: usize) -> Result<usize, String> {
        let n = self.u32()? as usize;
        if n.saturating_mul(min) > self.b.len() - self.at {
            return Err(format!(
                "count {n} at byte {} exceeds the file",
                self.at - 4
            ));
        }
        Ok(n)
    }
}

fn decode(file: &[u8], header: &[u8]) -> Result<Vec<StoredUnit>, String> {
    if file.len() < MAGIC.len() + 32 {
        return Err("too short".into());
    }
    let (body, sum) = file.split_at(file.len() - 32);
    if Sha256::digest(body).as_slice() != sum {
        return Err("checksum mismatch (corrupted)".into());
    }
    let mut r = Reader { b: body, at: 0 };
    if r.take(8)? != MAGIC {
        return Err("not a wavejit unit file".into());
    }
    if r.u32()? != FORMAT {
        return Err("another format version".into());
    }
    let hl = r.count(1)?;
    if r.take(hl)? != header {
        return Err("written by another build, for other settings or another program".into());
    }
    let n = r.count(40)?;
    let mut units = Vec::with_capacity(n);
    for _ in 0..n {
        let spec = Spec {
            pc: r.u32()?,
            mode: r.u32()?,
            exec_all: match r.u32()? {
                0 => false,
                1 => true,
                v => return Err(format!("bad EXEC flag {v}")),
            },
            max_len: r.u32()?,
        };
        let (insts, helpers, clif_insts, align) = (r.u32()?, r.u32()?, r.u32()?, r.u32()?);
        let nb = r.count(1)?;
        let bytes = r.take(nb)?.to_vec();
        let nr = r.count(16)?;
        let mut relocs = Vec::with_capacity(nr);
        for _ in 0..nr {
            let offset = r.u32()?;
            let addend = r.i64()?;
            let ln = r.count(1)?;
            let name = std::str::from_utf8(r.take(ln)?)
                .map_err(|_| "bad routine name".to_string())?
                .to_string();
            relocs.push(LibReloc {
                offset,
                libcall: name,
                addend,
            });
        }
        units.push(StoredUnit {
            spec,
            insts,
            helpers,
            clif_insts,
            art: Artifact {
                align,
                bytes,
                relocs,
            },
        });
    }
    if r.at != body.len() {
        return Err("trailing bytes".into());
    }
    Ok(units)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(pc: u32) -> StoredUnit {
        StoredUnit {
            spec: Spec {
                pc,
                mode: 0x3c0,
                exec_all: pc.is_multiple_of(8),
                max_len: 0,
            },
            insts: 3,
            helpers: 1,
            clif_insts: 40,
            art: Artifact {
                align: 16,
                bytes: vec![0x90; 24 + pc as usize],
                relocs: vec![LibReloc {
                    offset: 4,
                    libcall: "FmaF32".into(),
                    addend: -2,
                }],
            },
        }
    }

    #[test]
    fn round_trip_and_every_corruption_refused() {
        let h = header(
            "flags",
            Arch::Gcn(wavejit_isa::arch::Gen::Gfx8),
            &[1, 2, 3, 4],
        );
        let units = vec![unit(0), unit(4), unit(12)];
        let f = encode(&h, &units);
        assert_eq!(decode(&f, &h), Ok(units));
        // Every single flipped bit and every truncation is refused.
        for i in 0..f.len() {
            let mut g = f.clone();
            g[i] ^= 0x10;
            let sum = Err("checksum mismatch (corrupted)".to_string());
            assert_eq!(decode(&g, &h), sum, "bit flip at {i}");
            let cut = decode(&f[..i], &h);
            // Shorter than the magic and the checksum, or a checksum over other bytes.
            let short = i < MAGIC.len() + 32;
            assert_eq!(
                cut,
                if short { Err("too short".into()) } else { sum },
                "truncated to {i}"
            );
        }
        // Another program, setting or build: refused.
        let other = header(
            "flags",
            Arch::Gcn(wavejit_isa::arch::Gen::Gfx8),
            &[1, 2, 3, 5],
        );
        let another =
            Err("written by another build, for other settings or another program".to_string());
        assert_eq!(decode(&f, &other), another);
        let other = header(
            "flags2",
            Arch::Gcn(wavejit_isa::arch::Gen::Gfx8),
            &[1, 2, 3, 4],
        );
        assert_eq!(decode(&f, &other), another);
    }

    #[test]
    fn a_file_of_another_build_is_refused_by_load() {
        let gen = Arch::Gcn(wavejit_isa::arch::Gen::Gfx7);
        let d = std::env::temp_dir().join(format!("wavejit-disk-stale-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        let cache = DiskCache::new(&d);
        let now = header("flags", gen, &[9; 8]);
        // Another build's file under this build's name (what a name collision or a
        // hand-copied file would look like): complete, checksummed, and refused.
        let stale = header_of_build("0.0.9 source 00", "flags", gen, &[9; 8]);
        std::fs::create_dir_all(&d).expect("temp dir");
        std::fs::write(cache.path(&now), encode(&stale, &[unit(0)])).expect("write");
        assert!(matches!(cache.load(&now), Loaded::Rejected(_)));
        // Its own name is another file: a newer build never even opens it.
        assert_ne!(cache.path(&now), cache.path(&stale));
        cache.store(&now, &[unit(4)]).expect("store");
        assert!(matches!(cache.load(&now), Loaded::Units(u) if u == vec![unit(4)]));
        let _ = std::fs::remove_dir_all(&d);
    }
}
