//! The disk cache of compiled units (`wavejit_jit::disk`): a second engine over the same
//! directory loads every unit instead of compiling it and runs bit for bit like the
//! interpreter; another program or other settings miss; a corrupted, truncated or
//! foreign file is ignored (compiled again, then replaced by a valid one); an engine
//! without a disk cache writes nothing.
//!
//! The program exercises everything compiled code reaches through `JitCtx` rather than
//! through constants: chaining to other units (a loop, an EXEC region), the interpreter
//! helper (`v_exp_f32`), the global-region refill (`flat_load`) and the LDS zero block.

mod common;

use std::path::{Path, PathBuf};

use common::*;
use wavejit_isa::arch::{Arch, Gen};
use wavejit_isa::ir::Program;
use wavejit_isa::state::{Lds, Wave};
use wavejit_jit::{DiskCache, Jit, JitConfig};

const SOURCE: &str = "
  v_mov_b32 v5, 0
  s_mov_b32 s0, 10
loop:
  flat_load_dword v2, v[0:1]
  ds_read_b32 v3, v4 offset:4
  s_waitcnt vmcnt(0) lgkmcnt(0)
  v_add_u32 v5, vcc, v5, v2
  v_add_u32 v5, vcc, v5, v3
  v_exp_f32 v6, v5
  s_sub_u32 s0, s0, 1
  s_cmp_lg_u32 s0, 0
  s_cbranch_scc1 loop
  v_cmp_gt_u32 vcc, 32, v7
  s_and_saveexec_b64 s[2:3], vcc
  v_add_u32 v5, vcc, 3, v5
  s_or_b64 exec, exec, s[2:3]
  flat_store_dword v[0:1], v5
  s_endpgm
";

fn prog(source: &str) -> Program {
    let a = wavejit_isa::gcn::asm::assemble(Gen::Gfx8, source).expect("assembles");
    Program::new(Arch::Gcn(Gen::Gfx8), &a.bytes)
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wavejit-disk-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn files(d: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(d)
        .map(|r| r.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

fn engine(d: &Path) -> Jit {
    Jit::with_disk_cache(JitConfig::default(), Some(DiskCache::new(d)))
}

/// Run the program on `jit` and the interpreter (compared bit for bit), and check the
/// stored sums by hand: memory word `lane` holds 7 × lane, LDS dword `k` holds k, so
/// after ten rounds v5 = 10 × (7 × lane + lane + 1), plus 3 in lanes below 32.
fn run(jit: &Jit, p: &Program, what: &str) {
    let mut w = Wave::new(Gen::Gfx8);
    for l in 0..64 {
        let a = 0x10000u64 + 4 * l as u64;
        w.vgpr[0][l] = a as u32;
        w.vgpr[1][l] = (a >> 32) as u32;
        w.vgpr[4][l] = 4 * l as u32;
        w.vgpr[7][l] = l as u32;
    }
    let mut lds = Lds::new(512);
    for k in 0..128u32 {
        lds.bytes[4 * k as usize..][..4].copy_from_slice(&k.to_le_bytes());
    }
    let mem = MemInit {
        regions: vec![(
            0x10000,
            (0..64u32).flat_map(|i| (7 * i).to_le_bytes()).collect(),
        )],
    };
    let out = check_with(jit, p, &w, &lds, &mem, 10_000, what);
    let words = &out.mem[0].1;
    for l in 0..64u32 {
        let want = 10 * (8 * l + 1) + if l < 32 { 3 } else { 0 };
        let got = u32::from_le_bytes(words[4 * l as usize..][..4].try_into().unwrap());
        assert_eq!(got, want, "{what}: lane {l}");
    }
}

#[test]
fn second_engine_loads_every_unit_and_compiles_nothing() {
    let d = dir("hit");
    let p = prog(SOURCE);
    let first = engine(&d);
    run(&first, &p, "cold");
    first.save_disk_cache();
    let s1 = first.stats();
    assert!(s1.blocks >= 3, "{s1:?}");
    assert_eq!((s1.disk_units, s1.disk_written), (0, 1), "{s1:?}");
    assert_eq!(files(&d).len(), 1);

    let second = engine(&d);
    run(&second, &p, "warm");
    let s2 = second.stats();
    assert_eq!(s2.blocks, 0, "warm engine compiled: {s2:?}");
    assert_eq!(s2.disk_units, s1.blocks, "{s2:?}");
    assert_eq!(s2.disk_rejected, 0);
    // Nothing new: nothing rewritten.
    second.save_disk_cache();
    assert_eq!(second.stats().disk_written, 0);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn another_program_or_other_settings_miss() {
    let d = dir("miss");
    let first = engine(&d);
    run(&first, &prog(SOURCE), "first");
    first.save_disk_cache();

    // One different instruction (the same arithmetic, another encoding of 0).
    let other = prog(&SOURCE.replace("v_mov_b32 v5, 0", "v_mov_b32 v5, s100"));
    let second = engine(&d);
    run(&second, &other, "other program");
    let s = second.stats();
    assert!(s.blocks > 0 && s.disk_units == 0, "{s:?}");

    // Other settings: instruction-by-instruction emission.
    let op_major = Jit::with_disk_cache(
        JitConfig {
            chunk_major: false,
            ..JitConfig::default()
        },
        Some(DiskCache::new(&d)),
    );
    run(&op_major, &prog(SOURCE), "other settings");
    let s = op_major.stats();
    assert!(s.blocks > 0 && s.disk_units == 0, "{s:?}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn corrupted_truncated_or_foreign_files_never_run() {
    let d = dir("corrupt");
    let p = prog(SOURCE);
    let first = engine(&d);
    run(&first, &p, "cold");
    first.save_disk_cache();
    let blocks = first.stats().blocks;
    let f = files(&d).pop().expect("a file");
    let good = std::fs::read(&f).unwrap();

    let mut damaged: Vec<(String, Vec<u8>)> = Vec::new();
    // A flipped bit in the machine code area (past the header), in the middle and at
    // the end (the checksum).
    for at in [good.len() / 2, good.len() - 40, good.len() - 1] {
        let mut b = good.clone();
        b[at] ^= 0x04;
        damaged.push((format!("bit flip at {at}"), b));
    }
    damaged.push(("truncated".into(), good[..good.len() - 100].to_vec()));
    damaged.push(("empty".into(), Vec::new()));
    damaged.push(("garbage".into(), vec![0xcc; 4096]));
    // A valid file of another program under this program's name (a stale or
    // colliding entry): complete and checksummed, but its header differs.
    {
        let dd = dir("corrupt-other");
        let e = engine(&dd);
        run(
            &e,
            &prog(&SOURCE.replace("v_mov_b32 v5, 0", "v_mov_b32 v5, s100")),
            "other",
        );
        e.save_disk_cache();
        let other = std::fs::read(files(&dd).pop().unwrap()).unwrap();
        damaged.push(("another program's file".into(), other));
        let _ = std::fs::remove_dir_all(&dd);
    }
    for (what, bytes) in damaged {
        std::fs::write(&f, &bytes).unwrap();
        let e = engine(&d);
        run(&e, &p, &what);
        let s = e.stats();
        assert_eq!(s.disk_rejected, 1, "{what}: {s:?}");
        assert_eq!((s.disk_units, s.blocks), (0, blocks), "{what}: {s:?}");
        // The next save replaces it with a valid file that the next engine loads.
        e.save_disk_cache();
        let again = engine(&d);
        run(&again, &p, &format!("{what}, rebuilt"));
        let s = again.stats();
        assert_eq!(
            (s.disk_units, s.blocks, s.disk_rejected),
            (blocks, 0, 0),
            "{what}: {s:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn without_a_disk_cache_nothing_is_written_and_size_bound_holds() {
    let p = prog(SOURCE);
    let plain = Jit::new(JitConfig::default());
    run(&plain, &p, "no cache");
    plain.save_disk_cache();
    assert!(plain.disk_cache().is_none());
    assert_eq!(plain.stats().disk_written, 0);

    // A bound smaller than one file: the file is written and trimmed at once, and the
    // next engine compiles again.
    let d = dir("bound");
    let tiny = DiskCache {
        dir: d.clone(),
        max_bytes: 64,
    };
    let e = Jit::with_disk_cache(JitConfig::default(), Some(tiny.clone()));
    run(&e, &p, "tiny");
    e.save_disk_cache();
    assert!(files(&d)
        .iter()
        .all(|f| f.extension().is_none_or(|x| x != "wjc")));
    let e2 = Jit::with_disk_cache(JitConfig::default(), Some(tiny));
    run(&e2, &p, "tiny again");
    assert_eq!(e2.stats().disk_units, 0);
    let _ = std::fs::remove_dir_all(&d);
}

/// Stored code must not hold an address of the process that compiled it: the lowering
/// takes host addresses (helpers, tables) from `JitCtx`, which `ctx.rs` and
/// `engine::context` fill; no other file turns a function or static into an address.
#[test]
fn no_host_address_is_built_into_compiled_code() {
    fn walk(d: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    let mut bad = Vec::new();
    for f in files {
        if f.ends_with("ctx.rs") || f.ends_with("engine.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        for (i, line) in text.lines().enumerate() {
            let l = line.trim_start();
            if l.starts_with("//") {
                continue;
            }
            if l.contains("as *const ()") || l.contains(".as_ptr() as usize") {
                bad.push(format!("{}:{}: {l}", f.display(), i + 1));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "host addresses built into code:\n{}",
        bad.join("\n")
    );
}
