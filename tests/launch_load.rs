//! Loading AMDHSA code objects: prebuilt objects in `tests/data/launch/` (built by clang-19
//! and llvm-mc-19 from the sources beside them; see that folder's README). Expected values
//! were read off `llvm-readelf-19 -h -s --notes` and `llvm-objdump-19 -s -j .rodata`, an
//! independent reader of the same files. Malformed inputs must end in errors, never panics.

use wavejit::isa::Gen;
use wavejit::load::kd::UserSgpr;
use wavejit::load::{CodeObject, LoadError};

fn data(name: &str) -> Vec<u8> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/launch")
        .join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn linked_v5_gfx803() {
    let co = CodeObject::parse(&data("vadd-gfx803.hsaco")).unwrap();
    assert_eq!(co.gen, Gen::Gfx8);
    assert_eq!(co.processor, "gfx803");
    assert_eq!(co.version, 5, "EI_ABIVERSION 3");
    assert!(!co.relocatable);
    assert_eq!(
        co.kernels.len(),
        1,
        "symtab and dynsym name the same kernel"
    );
    let k = co.kernel("vadd").unwrap();
    // .rodata at 0x880: 00000000 00000000 20010000 00000000 | 80100000 00000000 …
    //                   | 4100ac00 8c000000 09000000
    assert_eq!(k.kd.group_segment_fixed_size, 0);
    assert_eq!(k.kd.private_segment_fixed_size, 0);
    assert_eq!(k.kd.kernarg_size, 0x120);
    assert_eq!(k.kd.kernel_code_entry_byte_offset, 0x1900 - 0x880);
    assert_eq!(k.kd.compute_pgm_rsrc1, 0x00ac_0041);
    assert_eq!(k.kd.compute_pgm_rsrc2, 0x8c);
    assert_eq!(k.kd.kernel_code_properties, 0x09);
    assert_eq!(k.kd.vgpr_count(), 8);
    assert_eq!(k.kd.user_sgpr_count(), 6);
    assert_eq!(
        k.kd.user_sgprs().collect::<Vec<_>>(),
        [UserSgpr::PrivateSegmentBuffer, UserSgpr::KernargSegmentPtr]
    );
    assert!(k.kd.workgroup_id(0) && !k.kd.workgroup_id(1));
    assert_eq!(k.kd.workitem_id_vgprs(), 1);
    // .text is at 0x1900, 0x98 bytes; the kernel is its first function.
    assert_eq!(k.entry, 0);
    assert_eq!(k.code.len(), 0x98);
    // First instruction: s_load_dword s0, s[4:5], 0x2c = C0020002 0000002C.
    assert_eq!(
        &k.code[..8],
        &[0x02, 0x00, 0x02, 0xc0, 0x2c, 0x00, 0x00, 0x00]
    );
    let m = k.meta.as_ref().unwrap();
    assert_eq!(m.symbol, "vadd.kd");
    assert_eq!(m.kernarg_segment_size, 288);
    let user: Vec<_> = m
        .args
        .iter()
        .filter(|a| !a.is_hidden())
        .map(|a| (a.offset, a.size, a.value_kind.as_str()))
        .collect();
    assert_eq!(
        user,
        [
            (0, 8, "global_buffer"),
            (8, 8, "global_buffer"),
            (16, 8, "global_buffer"),
            (24, 4, "by_value")
        ]
    );
    let hidden = |kind: &str| {
        m.args
            .iter()
            .find(|a| a.value_kind == kind)
            .map(|a| (a.offset, a.size))
    };
    assert_eq!(hidden("hidden_block_count_x"), Some((32, 4)));
    assert_eq!(hidden("hidden_group_size_x"), Some((44, 2)));
    assert_eq!(hidden("hidden_remainder_z"), Some((54, 2)));
    assert_eq!(hidden("hidden_global_offset_x"), Some((72, 8)));
    assert_eq!(hidden("hidden_grid_dims"), Some((96, 2)));
    assert_eq!(
        co.metadata.as_ref().and_then(|m| m.code_object_version()),
        Some(5)
    );
}

#[test]
fn linked_v4_and_older_generations() {
    let co = CodeObject::parse(&data("vadd-gfx803-v4.hsaco")).unwrap();
    assert_eq!(co.version, 4);
    let k = co.kernel("vadd.kd").unwrap();
    assert_eq!(k.kd.kernarg_size, 28);
    assert_eq!(k.kd.kernel_code_entry_byte_offset, 0x1600 - 0x580);
    assert_eq!(
        k.kd.kernel_code_properties, 0x0b,
        "+ dispatch ptr: v4 reads the group size from the packet"
    );
    assert_eq!(k.kd.user_sgpr_count(), 8);
    assert!(k.meta.as_ref().unwrap().args.iter().all(|a| !a.is_hidden()));

    for (file, gen, proc_name, text_len) in [
        ("vadd-gfx600.hsaco", Gen::Gfx6, "gfx600", 0x7c),
        ("vadd-gfx700.hsaco", Gen::Gfx7, "gfx700", 0x88),
    ] {
        let co = CodeObject::parse(&data(file)).unwrap();
        assert_eq!((co.gen, co.processor), (gen, proc_name));
        assert_eq!(co.kernel("vadd").unwrap().code.len(), text_len, "{file}");
    }
}

#[test]
fn two_kernels_linked_and_relocatable() {
    // Linked for gfx700: fill at 0x1e00 (kd 0xd40), twice at 0x1f00 (kd 0xd80); .text
    // starts with fill.
    let co = CodeObject::parse(&data("two-gfx700.hsaco")).unwrap();
    let names: Vec<_> = co.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["fill", "twice"]);
    assert_eq!(co.kernel("fill").unwrap().entry, 0);
    assert_eq!(co.kernel("twice").unwrap().entry, 0x100);

    // Relocatable (`clang -c`): the descriptors' entry fields are R_AMDGPU_REL64 against
    // fill + 0x10 and twice + 0x10; fill is at .text+0, twice at .text+0x100.
    let co = CodeObject::parse(&data("two-gfx803.o")).unwrap();
    assert!(co.relocatable);
    assert!(co.data_segments.is_empty());
    let fill = co.kernel("fill").unwrap();
    let twice = co.kernel("twice").unwrap();
    assert_eq!((fill.entry, twice.entry), (0, 0x100));
    assert_eq!(
        fill.kd.kernel_code_entry_byte_offset, 0,
        "the field is 0 until linked"
    );
    assert_eq!(twice.code.len(), 0x164);
    assert_eq!(fill.code_relocations, 0);
    assert_eq!(
        twice
            .meta
            .as_ref()
            .unwrap()
            .args
            .iter()
            .filter(|a| !a.is_hidden())
            .count(),
        2
    );
}

#[test]
fn llvm_mc_object_without_metadata() {
    let co = CodeObject::parse(&data("wave_ids.o")).unwrap();
    assert!(co.metadata.is_none());
    let k = co.kernel("wave_ids").unwrap();
    assert!(k.meta.is_none());
    // .rodata: 00000000 00000000 10000000 … | 4000ac00 88000000 0a000000
    assert_eq!(k.kd.kernarg_size, 16);
    assert_eq!(k.kd.compute_pgm_rsrc2, 0x88);
    assert_eq!(k.kd.kernel_code_properties, 0x0a);
    assert_eq!(
        k.kd.user_sgprs().collect::<Vec<_>>(),
        [UserSgpr::DispatchPtr, UserSgpr::KernargSegmentPtr]
    );
    assert_eq!(k.entry, 0);
    assert_eq!(k.code.len(), 0x44, "13 instructions, two of them 8 bytes");
}

#[test]
fn missing_kernel_lists_the_others() {
    let co = CodeObject::parse(&data("two-gfx700.hsaco")).unwrap();
    let e = co.kernel("thrice").unwrap_err();
    assert!(matches!(e, LoadError::NoSuchKernel { .. }));
    let msg = e.to_string();
    assert!(
        msg.contains("thrice") && msg.contains("fill") && msg.contains("twice"),
        "{msg}"
    );
}

#[test]
fn wrong_formats_are_named() {
    let good = data("vadd-gfx803.hsaco");
    let err = |b: &[u8]| CodeObject::parse(b).unwrap_err().to_string();
    assert!(err(b"").contains("not an ELF"));
    assert!(err(b"#!/bin/sh\necho hi\n").contains("not an ELF"));
    // 32-bit class.
    let mut b = good.clone();
    b[4] = 1;
    assert!(err(&b).contains("32-bit"), "{}", err(&b));
    // Another machine (x86-64 = 62).
    let mut b = good.clone();
    b[18..20].copy_from_slice(&62u16.to_le_bytes());
    assert!(err(&b).contains("EM_AMDGPU"), "{}", err(&b));
    // PAL OS ABI.
    let mut b = good.clone();
    b[7] = 65;
    assert!(err(&b).contains("PAL"), "{}", err(&b));
    // Code object v2.
    let mut b = good.clone();
    b[8] = 0;
    assert!(err(&b).contains("v2"), "{}", err(&b));
    // gfx900 (EF_AMDGPU_MACH 0x2c) is GCN 5.
    let mut b = good.clone();
    b[48..52].copy_from_slice(&0x2cu32.to_le_bytes());
    assert!(err(&b).contains("0x2c"), "{}", err(&b));
    // Truncated in the section headers.
    let e = CodeObject::parse(&good[..good.len() - 100]).unwrap_err();
    assert!(matches!(e, LoadError::Malformed(_)), "{e}");
    // Corrupt the metadata note's msgpack (the note starts at file offset 0x200; its
    // descriptor after the 12-byte header and the 8-byte padded name "AMDGPU\0").
    let mut b = good.clone();
    for x in &mut b[0x214..0x230] {
        *x = 0xc1;
    }
    assert!(err(&b).contains("metadata"), "{}", err(&b));
}

/// Random corruption of every prebuilt object: always Ok or Err, never a panic.
#[test]
fn corrupted_objects_do_not_panic() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(8);
    for name in [
        "vadd-gfx803.hsaco",
        "two-gfx803.o",
        "wave_ids.o",
        "vadd-gfx600.hsaco",
    ] {
        let good = data(name);
        for _ in 0..400 {
            let mut b = good.clone();
            for _ in 0..rng.random_range(1..8) {
                let i = rng.random_range(0..b.len());
                b[i] = rng.random();
            }
            if rng.random_bool(0.1) {
                b.truncate(rng.random_range(0..b.len()));
            }
            let _ = CodeObject::parse(&b);
        }
    }
}

/// A branch to a global label in a relocatable object is an `R_AMDGPU_REL16` relocation;
/// the loader applies it (the field's value does not matter before).
#[test]
fn branch_relocation_is_applied() {
    let mut b = data("spin.o");
    // `s_branch spin` = BF82FFFF at spin (.text + 0): zero its offset field in the file.
    let at = b
        .windows(4)
        .position(|w| w == [0xff, 0xff, 0x82, 0xbf])
        .unwrap();
    b[at] = 0;
    b[at + 1] = 0;
    let co = CodeObject::parse(&b).unwrap();
    let k = co.kernel("spin").unwrap();
    assert_eq!(k.code_relocations, 0);
    // ((S + A - P) - 4) / 4 = ((0 + 0 - 0) - 4) / 4 = -1.
    assert_eq!(&k.code[..4], &[0xff, 0xff, 0x82, 0xbf]);
    assert_eq!(co.kernel("half_barrier").unwrap().entry, 0x100);
}
