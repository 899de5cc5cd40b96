//! Writing the code object: an ELF64 AMDGPU shared object laid out as ld.lld-19 lays out
//! `llvm-mc -filetype=obj` output linked with `-shared`, with `object`'s ELF writer.
//!
//! Layout (what `llvm-readelf-19 -a` shows for clang's and ld.lld's objects): the ELF and
//! program headers, `.note` (the metadata), `.dynsym`, `.gnu.hash`, `.hash`, `.dynstr` and
//! `.rodata` (the 64-byte kernel descriptors) in a read-only segment at address 0; `.text`
//! 256-byte aligned in an executable segment; `.dynamic` in a writable one; then `.symtab`,
//! `.shstrtab`, `.strtab` and the section headers. A new segment starts where ld.lld starts
//! it: at the next page plus the current address' offset in its page, then aligned for its
//! first section, with the file offset congruent to the address modulo the page. No
//! relocations are needed: each descriptor's entry field is the code address minus its own.

use object::elf;
use object::write::elf::{FileHeader, ProgramHeader, SectionHeader, Sym, Writer};
use object::write::StringId;
use object::Endianness;

use crate::load::metadata::{NOTE_OWNER, NT_AMDGPU_METADATA};
use crate::load::KernelDescriptor;

/// ld.lld's maximum page size for AMDGPU.
const PAGE: u64 = 0x1000;
/// ld.lld's `.text` alignment for AMDGPU code (256 bytes, the instruction cache line
/// granule of kernel entries).
const TEXT_ALIGN: u64 = 256;
const KD_ALIGN: u64 = 64;
const ELFOSABI_AMDGPU_HSA: u8 = 64;

/// What a symbol names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymKind {
    /// A function in `.text` (STT_FUNC).
    Func,
    /// A kernel descriptor in `.rodata` (STT_OBJECT), by index.
    Kd,
    /// A label in `.text` (STT_NOTYPE, local).
    Label,
}

/// One symbol. `value` is the offset in `.text`, or the descriptor's index for `Kd`.
#[derive(Clone, Debug)]
pub struct Symbol {
    pub name: String,
    pub kind: SymKind,
    pub value: u64,
    pub size: u64,
    pub global: bool,
    pub protected: bool,
}

/// Everything the object holds.
pub struct Image {
    pub e_flags: u32,
    /// Code object version (4, 5).
    pub version: u32,
    pub text: Vec<u8>,
    /// Descriptors (entry offset filled in here) and the `.text` offset of their entries.
    pub kds: Vec<(KernelDescriptor, u64)>,
    /// Locals first (labels, local functions), then globals, in the order the static
    /// symbol table lists them.
    pub symbols: Vec<Symbol>,
    /// The `NT_AMDGPU_METADATA` note's descriptor (MessagePack).
    pub metadata: Vec<u8>,
}

fn align(v: u64, a: u64) -> u64 {
    v.div_ceil(a) * a
}

/// Where a new segment starts after address `dot` / file offset `off`: ld.lld's rule.
fn next_segment(dot: u64, off: u64, sec_align: u64) -> (u64, u64) {
    let vaddr = align(align(dot, PAGE) + dot % PAGE, sec_align);
    let off = off + (vaddr.wrapping_sub(off)) % PAGE;
    (vaddr, off)
}

/// The bytes of the `.note` section.
fn note(desc: &[u8]) -> Vec<u8> {
    let mut n = Vec::new();
    let name_len = NOTE_OWNER.len() as u32 + 1;
    n.extend(name_len.to_le_bytes());
    n.extend((desc.len() as u32).to_le_bytes());
    n.extend(NT_AMDGPU_METADATA.to_le_bytes());
    n.extend(NOTE_OWNER);
    n.push(0);
    n.resize(align(n.len() as u64, 4) as usize, 0);
    n.extend(desc);
    n.resize(align(n.len() as u64, 4) as usize, 0);
    n
}

/// ld.lld's GNU hash sizing: max(n/4, 1) buckets and NextPowerOf2((n-1)/8) bloom words.
fn gnu_hash_shape(hashed: u32) -> (u32, u32) {
    let buckets = (hashed / 4).max(1);
    let q = hashed.saturating_sub(1) / 8;
    // LLVM's NextPowerOf2 is the next power of two strictly above q.
    let bloom = (q + 1).next_power_of_two();
    (bloom, buckets)
}

/// Serialise the image.
pub fn write(img: &Image) -> Result<Vec<u8>, String> {
    let note = note(&img.metadata);
    let n_kd = img.kds.len() as u64;
    let text_len = img.text.len() as u64;
    let mut buf = Vec::new();
    let mut w = Writer::new(Endianness::Little, true, &mut buf);

    // Symbol names and which go into .dynsym: global symbols (ld.lld exports every global
    // of a shared object), ordered by GNU hash bucket as ld.lld orders them.
    let mut dyn_syms: Vec<&Symbol> = img.symbols.iter().filter(|s| s.global).collect();
    let (bloom, buckets) = gnu_hash_shape(dyn_syms.len() as u32);
    dyn_syms.sort_by_key(|s| elf::gnu_hash(s.name.as_bytes()) % buckets);
    let str_ids: Vec<StringId> = img
        .symbols
        .iter()
        .map(|s| w.add_string(s.name.as_bytes()))
        .collect();
    let dyn_dynamic = w.add_string(b"_DYNAMIC");
    let dynstr_ids: Vec<StringId> = dyn_syms
        .iter()
        .map(|s| w.add_dynamic_string(s.name.as_bytes()))
        .collect();

    // Section indices, in ld.lld's order.
    w.reserve_null_section_index();
    let note_name = w.add_section_name(b".note");
    w.reserve_section_index();
    w.reserve_dynsym_section_index();
    w.reserve_gnu_hash_section_index();
    w.reserve_hash_section_index();
    w.reserve_dynstr_section_index();
    let rodata_name = w.add_section_name(b".rodata");
    let rodata_idx = w.reserve_section_index();
    let text_name = w.add_section_name(b".text");
    let text_idx = w.reserve_section_index();
    let dynamic_idx = w.reserve_dynamic_section_index();
    w.reserve_symtab_section_index();
    w.reserve_shstrtab_section_index();
    w.reserve_strtab_section_index();

    // Symbol indices.
    w.reserve_null_symbol_index();
    for s in &img.symbols {
        let sec = if s.kind == SymKind::Kd {
            rodata_idx
        } else {
            text_idx
        };
        w.reserve_symbol_index(Some(sec));
    }
    w.reserve_symbol_index(Some(dynamic_idx));
    w.reserve_null_dynamic_symbol_index();
    for _ in &dyn_syms {
        w.reserve_dynamic_symbol_index();
    }

    // File layout.
    const PHDRS: u32 = 8;
    w.reserve_file_header();
    w.reserve_program_headers(PHDRS);
    let note_off = w.reserve(note.len(), 4) as u64;
    let dynsym_off = w.reserve_dynsym() as u64;
    let n_dyn = dyn_syms.len() as u32;
    let gnu_hash_off = w.reserve_gnu_hash(bloom, buckets, n_dyn) as u64;
    let hash_off = w.reserve_hash(n_dyn + 1, n_dyn + 1) as u64;
    let dynstr_off = w.reserve_dynstr() as u64;
    let rodata_off = w.reserve(64 * n_kd as usize, KD_ALIGN as usize) as u64;
    let ro_end = rodata_off + 64 * n_kd;
    let (text_addr, text_off) = next_segment(ro_end, ro_end, TEXT_ALIGN);
    w.reserve_until(text_off as usize);
    w.reserve(text_len as usize, 1);
    let dynamic_entries = 7;
    let (dyn_addr, dyn_off) = next_segment(text_addr + text_len, text_off + text_len, 8);
    w.reserve_until(dyn_off as usize);
    w.reserve_dynamic(dynamic_entries);
    let dyn_len = dynamic_entries as u64 * 16;
    w.reserve_symtab();
    w.reserve_shstrtab();
    w.reserve_strtab();
    w.reserve_section_headers();

    // Addresses: the first segment maps the file from 0.
    let rodata_addr = rodata_off;
    let kd_bytes: Vec<u8> = img
        .kds
        .iter()
        .enumerate()
        .flat_map(|(i, (kd, entry))| {
            let mut kd = *kd;
            let at = rodata_addr + 64 * i as u64;
            kd.kernel_code_entry_byte_offset = (text_addr + entry) as i64 - at as i64;
            kd.to_bytes()
        })
        .collect();
    let sym_value = |s: &Symbol| match s.kind {
        SymKind::Kd => rodata_addr + 64 * s.value,
        _ => text_addr + s.value,
    };
    let sym_info = |s: &Symbol| {
        let bind = if s.global {
            elf::STB_GLOBAL
        } else {
            elf::STB_LOCAL
        };
        let ty = match s.kind {
            SymKind::Func => elf::STT_FUNC,
            SymKind::Kd => elf::STT_OBJECT,
            SymKind::Label => elf::STT_NOTYPE,
        };
        (bind << 4) | ty
    };
    let other = |s: &Symbol| {
        if s.protected {
            elf::STV_PROTECTED
        } else {
            elf::STV_DEFAULT
        }
    };

    w.write_file_header(&FileHeader {
        os_abi: ELFOSABI_AMDGPU_HSA,
        abi_version: (img.version - 2) as u8,
        e_type: elf::ET_DYN,
        e_machine: elf::EM_AMDGPU,
        e_entry: 0,
        e_flags: img.e_flags,
    })
    .map_err(|e| e.to_string())?;
    w.write_align_program_headers();
    let ph = |p_type, p_flags, off: u64, addr: u64, size: u64, p_align| ProgramHeader {
        p_type,
        p_flags,
        p_offset: off,
        p_vaddr: addr,
        p_paddr: addr,
        p_filesz: size,
        p_memsz: size,
        p_align,
    };
    let phdr_len = PHDRS as u64 * 56;
    for p in [
        ph(elf::PT_PHDR, elf::PF_R, 64, 64, phdr_len, 8),
        ph(elf::PT_LOAD, elf::PF_R, 0, 0, ro_end, PAGE),
        ph(
            elf::PT_LOAD,
            elf::PF_R | elf::PF_X,
            text_off,
            text_addr,
            text_len,
            PAGE,
        ),
        ph(
            elf::PT_LOAD,
            elf::PF_R | elf::PF_W,
            dyn_off,
            dyn_addr,
            dyn_len,
            PAGE,
        ),
        ph(
            elf::PT_DYNAMIC,
            elf::PF_R | elf::PF_W,
            dyn_off,
            dyn_addr,
            dyn_len,
            8,
        ),
        ph(elf::PT_GNU_RELRO, elf::PF_R, dyn_off, dyn_addr, dyn_len, 1),
        ph(elf::PT_GNU_STACK, elf::PF_R | elf::PF_W, 0, 0, 0, 0),
        ph(
            elf::PT_NOTE,
            elf::PF_R,
            note_off,
            note_off,
            note.len() as u64,
            4,
        ),
    ] {
        w.write_program_header(&p);
    }
    w.write_align(4);
    w.write(&note);
    // A symbol's entry, the same in .dynsym and .symtab: kernel descriptors in .rodata,
    // code in .text.
    let entry = |s: &Symbol, id: StringId| Sym {
        name: Some(id),
        section: Some(if s.kind == SymKind::Kd {
            rodata_idx
        } else {
            text_idx
        }),
        st_info: sym_info(s),
        st_other: other(s),
        st_shndx: 0,
        st_value: sym_value(s),
        st_size: s.size,
    };
    w.write_null_dynamic_symbol();
    for (s, id) in dyn_syms.iter().zip(&dynstr_ids) {
        w.write_dynamic_symbol(&entry(s, *id));
    }
    let hashes: Vec<u32> = dyn_syms
        .iter()
        .map(|s| elf::gnu_hash(s.name.as_bytes()))
        .collect();
    w.write_gnu_hash(1, 26, bloom, buckets, n_dyn, |i| hashes[i as usize]);
    let sysv: Vec<u32> = dyn_syms
        .iter()
        .map(|s| elf::hash(s.name.as_bytes()))
        .collect();
    w.write_hash(n_dyn + 1, n_dyn + 1, |i| {
        i.checked_sub(1).map(|i| sysv[i as usize])
    });
    w.write_dynstr();
    w.write_align(KD_ALIGN as usize);
    w.write(&kd_bytes);
    w.pad_until(text_off as usize);
    w.write(&img.text);
    w.pad_until(dyn_off as usize);
    w.write_dynamic(elf::DT_SYMTAB, dynsym_off);
    w.write_dynamic(elf::DT_SYMENT, 24);
    w.write_dynamic(elf::DT_STRTAB, dynstr_off);
    let strsz = w.dynstr_len() as u64;
    w.write_dynamic(elf::DT_STRSZ, strsz);
    w.write_dynamic(elf::DT_GNU_HASH, gnu_hash_off);
    w.write_dynamic(elf::DT_HASH, hash_off);
    w.write_dynamic(elf::DT_NULL, 0);

    // .symtab: null, locals, _DYNAMIC (local, hidden), globals.
    w.write_null_symbol();
    let locals = img.symbols.iter().filter(|s| !s.global).count() as u32 + 2;
    let write_sym = |w: &mut Writer, s: &Symbol, id: StringId| w.write_symbol(&entry(s, id));
    for (s, id) in img.symbols.iter().zip(&str_ids).filter(|(s, _)| !s.global) {
        write_sym(&mut w, s, *id);
    }
    w.write_symbol(&Sym {
        name: Some(dyn_dynamic),
        section: Some(dynamic_idx),
        st_info: elf::STB_LOCAL << 4 | elf::STT_NOTYPE,
        st_other: elf::STV_HIDDEN,
        st_shndx: 0,
        st_value: dyn_addr,
        st_size: 0,
    });
    for (s, id) in img.symbols.iter().zip(&str_ids).filter(|(s, _)| s.global) {
        write_sym(&mut w, s, *id);
    }
    w.write_shstrtab();
    w.write_strtab();

    w.write_null_section_header();
    w.write_section_header(&SectionHeader {
        name: Some(note_name),
        sh_type: elf::SHT_NOTE,
        sh_flags: elf::SHF_ALLOC as u64,
        sh_addr: note_off,
        sh_offset: note_off,
        sh_size: note.len() as u64,
        sh_link: 0,
        sh_info: 0,
        sh_addralign: 4,
        sh_entsize: 0,
    });
    w.write_dynsym_section_header(dynsym_off, 1);
    w.write_gnu_hash_section_header(gnu_hash_off);
    w.write_hash_section_header(hash_off);
    w.write_dynstr_section_header(dynstr_off);
    w.write_section_header(&SectionHeader {
        name: Some(rodata_name),
        sh_type: elf::SHT_PROGBITS,
        sh_flags: elf::SHF_ALLOC as u64,
        sh_addr: rodata_addr,
        sh_offset: rodata_off,
        sh_size: 64 * n_kd,
        sh_link: 0,
        sh_info: 0,
        sh_addralign: KD_ALIGN,
        sh_entsize: 0,
    });
    w.write_section_header(&SectionHeader {
        name: Some(text_name),
        sh_type: elf::SHT_PROGBITS,
        sh_flags: (elf::SHF_ALLOC | elf::SHF_EXECINSTR) as u64,
        sh_addr: text_addr,
        sh_offset: text_off,
        sh_size: text_len,
        sh_link: 0,
        sh_info: 0,
        sh_addralign: TEXT_ALIGN,
        sh_entsize: 0,
    });
    w.write_dynamic_section_header(dyn_addr);
    w.write_symtab_section_header(locals);
    w.write_shstrtab_section_header();
    w.write_strtab_section_header();
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segment_rule_matches_lld() {
        // ld.lld-19 on clang's vadd.cl (gfx803): read-only data ends at 0x8c4, .text
        // (0x98 bytes) at address 0x1900 / offset 0x900, .dynamic at 0x2998 / 0x998.
        assert_eq!(next_segment(0x8c4, 0x8c4, 256), (0x1900, 0x900));
        assert_eq!(next_segment(0x1998, 0x998, 8), (0x2998, 0x998));
        assert_eq!(gnu_hash_shape(2), (1, 1));
        assert_eq!(gnu_hash_shape(9), (2, 2));
    }

    #[test]
    fn note_layout() {
        let n = note(&[1, 2, 3]);
        assert_eq!(&n[..12], &[7, 0, 0, 0, 3, 0, 0, 0, 32, 0, 0, 0]);
        assert_eq!(&n[12..20], b"AMDGPU\0\0");
        assert_eq!(n.len(), 24);
    }
}
