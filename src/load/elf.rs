//! Walking an AMDHSA ELF file with the `object` crate: header checks (class, machine,
//! OS ABI, code object version, EF_AMDGPU_MACH → generation), the metadata note, the
//! `NAME.kd` symbols and each kernel's entry point — by address in a linked object, by the
//! `R_AMDGPU_REL64` relocation of the descriptor's entry field in a relocatable one.
//!
//! Facts used (AMDGPUUsage, "ELF Code Object"): EM_AMDGPU = 224; EI_OSABI 64 = AMDGPU_HSA
//! (65 PAL, 66 MESA3D); EI_ABIVERSION 1/2/3/4 = code object v3/v4/v5/v6; the low byte of
//! e_flags is EF_AMDGPU_MACH.

#![cfg_attr(not(test), deny(clippy::unwrap_used))]

use std::collections::BTreeMap;
use std::sync::Arc;

use object::elf::{
    FileHeader64, Rela64, EM_AMDGPU, ET_REL, PF_X, PT_LOAD, SHF_EXECINSTR, SHT_NOTE, SHT_RELA,
};
use object::read::elf::{ElfFile64, FileHeader, Rela, SectionHeader};
use object::{
    LittleEndian, Object, ObjectSection, ObjectSymbol, RelocationFlags, RelocationTarget,
    SectionIndex, SymbolSection,
};
use wavejit_isa::Gen;

use super::code::{CodeObject, Kernel, LoadError, Segment};
use super::kd::{KernelDescriptor, ENTRY_FIELD_OFFSET, KD_SIZE};
use super::metadata::{Metadata, NOTE_OWNER, NT_AMDGPU_METADATA};

const ELFOSABI_AMDGPU_HSA: u8 = 64;
const ELFOSABI_AMDGPU_PAL: u8 = 65;
const ELFOSABI_AMDGPU_MESA3D: u8 = 66;
/// `R_AMDGPU_REL64`: S + A - P, 64 bits.
const R_AMDGPU_REL64: u32 = 5;
/// `R_AMDGPU_REL16`: ((S + A - P) - 4) / 4, 16 bits (a SOPP branch to a symbol).
const R_AMDGPU_REL16: u32 = 14;

/// EF_AMDGPU_MACH values of GCN 1.0-1.2 processors, with their names.
const MACHS: &[(u32, &str, Gen)] = &[
    (0x20, "gfx600", Gen::Gfx6),
    (0x21, "gfx601", Gen::Gfx6),
    (0x3a, "gfx602", Gen::Gfx6),
    (0x22, "gfx700", Gen::Gfx7),
    (0x23, "gfx701", Gen::Gfx7),
    (0x24, "gfx702", Gen::Gfx7),
    (0x25, "gfx703", Gen::Gfx7),
    (0x26, "gfx704", Gen::Gfx7),
    (0x3b, "gfx705", Gen::Gfx7),
    (0x28, "gfx801", Gen::Gfx8),
    (0x29, "gfx802", Gen::Gfx8),
    (0x2a, "gfx803", Gen::Gfx8),
    (0x3c, "gfx805", Gen::Gfx8),
    (0x2b, "gfx810", Gen::Gfx8),
];

/// The processor name and generation of an EF_AMDGPU_MACH value.
pub fn mach(m: u32) -> Option<(&'static str, Gen)> {
    MACHS
        .iter()
        .find(|(v, _, _)| *v == m)
        .map(|(_, n, g)| (*n, *g))
}

/// The EF_AMDGPU_MACH value, canonical name and generation of a processor name.
pub fn mach_by_name(name: &str) -> Option<(u32, &'static str, Gen)> {
    MACHS.iter().find(|(_, n, _)| *n == name).copied()
}

type Elf<'a> = ElfFile64<'a, LittleEndian>;

fn malformed(e: impl std::fmt::Display) -> LoadError {
    LoadError::Malformed(e.to_string())
}

/// Parse the bytes of a code object.
pub fn parse(bytes: &[u8]) -> Result<CodeObject, LoadError> {
    let ident = bytes.get(..16).ok_or(LoadError::NotElf)?;
    if &ident[..4] != b"\x7fELF" {
        return Err(LoadError::NotElf);
    }
    match (ident[4], ident[5]) {
        (2, 1) => {}
        (1, _) => {
            return Err(LoadError::UnsupportedElf(
                "32-bit ELF (AMDHSA code objects are ELF64)".into(),
            ))
        }
        (2, 2) => return Err(LoadError::UnsupportedElf("big-endian ELF".into())),
        (c, d) => return Err(malformed(format!("EI_CLASS {c} / EI_DATA {d}"))),
    }
    let file = Elf::parse(bytes).map_err(malformed)?;
    let endian = LittleEndian;
    let hdr: &FileHeader64<LittleEndian> = file.elf_header();
    let machine = hdr.e_machine(endian);
    if machine != EM_AMDGPU {
        return Err(LoadError::UnsupportedElf(format!(
            "e_machine is {machine}, not EM_AMDGPU ({EM_AMDGPU})"
        )));
    }
    let osabi = ident[7];
    match osabi {
        ELFOSABI_AMDGPU_HSA => {}
        ELFOSABI_AMDGPU_PAL => {
            return Err(LoadError::Unsupported(
                "a PAL code object (EI_OSABI 65); only AMDHSA (64) kernels can be launched".into(),
            ))
        }
        ELFOSABI_AMDGPU_MESA3D => {
            return Err(LoadError::Unsupported(
                "a Mesa3D code object (EI_OSABI 66); only AMDHSA (64) kernels can be launched"
                    .into(),
            ))
        }
        o => {
            return Err(LoadError::Unsupported(format!(
                "EI_OSABI {o}; only AMDHSA (64) code objects can be launched"
            )))
        }
    }
    let version = match ident[8] {
        v @ 1..=4 => v as u32 + 2,
        0 => {
            return Err(LoadError::Unsupported(
                "code object v2 (amd_kernel_code_t); wavejit reads v3-v6 kernel descriptors".into(),
            ))
        }
        v => {
            return Err(LoadError::Unsupported(format!(
                "EI_ABIVERSION {v} (unknown code object version)"
            )))
        }
    };
    let flags = hdr.e_flags(endian);
    let m = flags & 0xff;
    let (processor, gen) = mach(m).ok_or_else(|| {
        LoadError::Unsupported(format!(
            "EF_AMDGPU_MACH 0x{m:02x} is not a GCN 1.0-1.2 processor (gfx600-gfx810)"
        ))
    })?;
    let relocatable = hdr.e_type(endian) == ET_REL;

    let metadata = read_metadata(&file, bytes)?;
    let kernels = read_kernels(&file, relocatable, metadata.as_ref())?;
    let data_segments = if relocatable {
        Vec::new()
    } else {
        read_data_segments(&file, bytes)?
    };
    Ok(CodeObject {
        gen,
        processor,
        version,
        relocatable,
        metadata,
        kernels,
        data_segments,
    })
}

/// The non-executable `PT_LOAD` segments of a linked object.
fn read_data_segments(file: &Elf<'_>, data: &[u8]) -> Result<Vec<Segment>, LoadError> {
    use object::read::elf::ProgramHeader;
    let endian = LittleEndian;
    let mut v = Vec::new();
    for ph in file.elf_program_headers() {
        if ph.p_type(endian) != PT_LOAD || ph.p_flags(endian) & PF_X != 0 || ph.p_memsz(endian) == 0
        {
            continue;
        }
        let bytes = ph
            .data(endian, data)
            .map_err(|()| malformed("a PT_LOAD segment lies outside the file"))?;
        let (vaddr, memsz) = (ph.p_vaddr(endian), ph.p_memsz(endian));
        if (bytes.len() as u64) > memsz || vaddr.checked_add(memsz).is_none() || memsz > 1 << 30 {
            return Err(malformed(format!(
                "PT_LOAD segment at 0x{vaddr:x}: file size {} / memory size {memsz}",
                bytes.len()
            )));
        }
        v.push(Segment {
            vaddr,
            bytes: Arc::from(bytes),
            memsz,
            relative: Vec::new(),
        });
    }
    read_dynamic_relocations(file, data, &mut v)?;
    Ok(v)
}

/// `R_AMDGPU_RELATIVE64`, a dynamic relocation of a linked object: the load base plus the
/// addend.
const R_AMDGPU_RELATIVE64: u32 = 13;

/// Record the relocations of the linked object's `SHT_RELA` sections that fall in a data
/// segment. Only `R_AMDGPU_RELATIVE64` is understood there (what ld.lld emits for pointers
/// between an object's own data, as no symbol is preemptible in a code object); any other
/// type in a data segment would leave a wrong pointer, so it is refused.
fn read_dynamic_relocations(
    file: &Elf<'_>,
    data: &[u8],
    segs: &mut [Segment],
) -> Result<(), LoadError> {
    let endian = LittleEndian;
    for sh in file.elf_section_table().iter() {
        if sh.sh_type(endian) != SHT_RELA {
            continue;
        }
        let relas: &[Rela64<LittleEndian>] = sh
            .data_as_array(endian, data)
            .map_err(|_| malformed("a relocation section lies outside the file"))?;
        for r in relas {
            let off = r.r_offset(endian);
            let Some(seg) = segs
                .iter_mut()
                .find(|g| off >= g.vaddr && off - g.vaddr < g.memsz)
            else {
                continue;
            };
            let ty = r.r_type(endian, false);
            if ty != R_AMDGPU_RELATIVE64 {
                return Err(LoadError::Unsupported(format!(
                    "dynamic relocation type {ty} at 0x{off:x} in the object's data (only R_AMDGPU_RELATIVE64 is applied)"
                )));
            }
            let at = off - seg.vaddr;
            if at.checked_add(8).is_none_or(|e| e > seg.memsz) || seg.relative.len() >= 1 << 20 {
                return Err(malformed(format!(
                    "relocation at 0x{off:x} runs past its segment"
                )));
            }
            seg.relative.push((at, r.r_addend(endian) as u64));
        }
    }
    Ok(())
}

/// The first AMDGPU metadata note of the note sections (or, if the file has no section
/// headers, of its PT_NOTE segments).
fn read_metadata(file: &Elf<'_>, data: &[u8]) -> Result<Option<Metadata>, LoadError> {
    let endian = LittleEndian;
    for sh in file.elf_section_table().iter() {
        if sh.sh_type(endian) != SHT_NOTE {
            continue;
        }
        let Some(mut notes) = sh.notes(endian, data).map_err(malformed)? else {
            continue;
        };
        while let Some(note) = notes.next().map_err(malformed)? {
            if note.name() == NOTE_OWNER && note.n_type(endian) == NT_AMDGPU_METADATA {
                return Ok(Some(Metadata::parse(note.desc())?));
            }
        }
    }
    if file.elf_section_table().is_empty() {
        use object::read::elf::ProgramHeader;
        for ph in file.elf_program_headers() {
            let Some(mut notes) = ph.notes(endian, data).map_err(malformed)? else {
                continue;
            };
            while let Some(note) = notes.next().map_err(malformed)? {
                if note.name() == NOTE_OWNER && note.n_type(endian) == NT_AMDGPU_METADATA {
                    return Ok(Some(Metadata::parse(note.desc())?));
                }
            }
        }
    }
    Ok(None)
}

/// A symbol reduced to what kernel lookup needs.
#[derive(Clone, Copy)]
struct Sym {
    section: SectionIndex,
    /// Address (linked) or offset in its section (relocatable).
    address: u64,
    index: object::SymbolIndex,
}

fn read_kernels(
    file: &Elf<'_>,
    relocatable: bool,
    metadata: Option<&Metadata>,
) -> Result<Vec<Kernel>, LoadError> {
    // Every defined symbol by name, from .symtab and .dynsym (linked objects have both;
    // a stripped one only .dynsym).
    let mut syms: BTreeMap<String, Sym> = BTreeMap::new();
    for s in file.symbols().chain(file.dynamic_symbols()) {
        let SymbolSection::Section(section) = s.section() else {
            continue;
        };
        let Ok(name) = s.name() else { continue };
        syms.entry(name.to_string()).or_insert(Sym {
            section,
            address: s.address(),
            index: s.index(),
        });
    }
    let mut kernels = Vec::new();
    let mut code_cache: BTreeMap<usize, (Arc<[u8]>, usize)> = BTreeMap::new();
    for (sym_name, sym) in &syms {
        let Some(name) = sym_name.strip_suffix(".kd") else {
            continue;
        };
        let fail = |msg: String| LoadError::Kernel {
            kernel: name.to_string(),
            msg,
        };
        let kd_sec = file
            .section_by_index(sym.section)
            .map_err(|e| fail(e.to_string()))?;
        let kd_off = if relocatable {
            sym.address
        } else {
            sym.address.wrapping_sub(kd_sec.address())
        };
        let sec_data = kd_sec
            .data()
            .map_err(|e| fail(format!("descriptor section: {e}")))?;
        let kd_bytes = usize::try_from(kd_off)
            .ok()
            .and_then(|o| sec_data.get(o..o.checked_add(KD_SIZE)?))
            .ok_or_else(|| {
                fail(format!(
                    "descriptor at 0x{:x} is outside its section",
                    sym.address
                ))
            })?;
        let kd = KernelDescriptor::parse(kd_bytes).map_err(|e| fail(e.to_string()))?;

        let (code_sec, entry_off) = if relocatable {
            relocatable_entry(file, sym, kd_off, name, &syms).map_err(fail)?
        } else {
            linked_entry(file, sym.address, &kd).map_err(fail)?
        };
        let entry_vaddr = if relocatable {
            None
        } else {
            let sec = file
                .section_by_index(code_sec)
                .map_err(|e| fail(e.to_string()))?;
            sec.address().checked_add(entry_off)
        };
        let (code, code_relocations) = match code_cache.get(&code_sec.0) {
            Some(c) => c.clone(),
            None => {
                let sec = file
                    .section_by_index(code_sec)
                    .map_err(|e| fail(e.to_string()))?;
                let data = sec.data().map_err(|e| fail(format!("code section: {e}")))?;
                let mut bytes = data.to_vec();
                let unresolved = if relocatable {
                    apply_code_relocations(file, &sec, &mut bytes)
                } else {
                    0
                };
                let c: (Arc<[u8]>, usize) = (Arc::from(bytes), unresolved);
                code_cache.insert(code_sec.0, c.clone());
                c
            }
        };
        let entry = u32::try_from(entry_off)
            .ok()
            .filter(|e| (*e as usize) < code.len() && e % 4 == 0)
            .ok_or_else(|| fail(format!("entry offset 0x{entry_off:x} is not an instruction of its {}-byte code section", code.len())))?;
        let meta = metadata.and_then(|m| {
            m.kernels
                .iter()
                .find(|k| k.symbol == *sym_name)
                .or_else(|| m.kernel(name))
                .cloned()
        });
        kernels.push(Kernel {
            name: name.to_string(),
            kd,
            meta,
            code,
            entry,
            code_relocations,
            entry_vaddr,
        });
    }
    Ok(kernels)
}

/// Linked object: entry address = descriptor address + kernel_code_entry_byte_offset, in an
/// executable section.
fn linked_entry(
    file: &Elf<'_>,
    kd_addr: u64,
    kd: &KernelDescriptor,
) -> Result<(SectionIndex, u64), String> {
    let entry = kd_addr
        .checked_add_signed(kd.kernel_code_entry_byte_offset)
        .ok_or_else(|| {
            format!(
                "entry offset {} overflows",
                kd.kernel_code_entry_byte_offset
            )
        })?;
    for sec in file.sections() {
        let sh = sec.elf_section_header();
        if sh.sh_flags(LittleEndian) & u64::from(SHF_EXECINSTR) == 0 {
            continue;
        }
        let (a, n) = (sec.address(), sec.size());
        if entry >= a && entry - a < n {
            return Ok((sec.index(), entry - a));
        }
    }
    Err(format!(
        "entry address 0x{entry:x} is in no executable section"
    ))
}

/// Relocatable object: the descriptor's entry field is an `R_AMDGPU_REL64` relocation
/// against the kernel's symbol; entry = S + A - P with P the field's address, i.e. in the
/// target symbol's section at S + A - 16 relative to the descriptor. Without one, the
/// function symbol named like the kernel.
fn relocatable_entry(
    file: &Elf<'_>,
    kd: &Sym,
    kd_off: u64,
    name: &str,
    syms: &BTreeMap<String, Sym>,
) -> Result<(SectionIndex, u64), String> {
    let kd_sec = file
        .section_by_index(kd.section)
        .map_err(|e| e.to_string())?;
    let field = kd_off
        .checked_add(ENTRY_FIELD_OFFSET)
        .ok_or("descriptor offset overflows")?;
    for (off, r) in kd_sec.relocations() {
        if off != field {
            continue;
        }
        let RelocationFlags::Elf { r_type } = r.flags() else {
            continue;
        };
        if r_type != R_AMDGPU_REL64 {
            return Err(format!(
                "entry field relocation has type {r_type}, expected R_AMDGPU_REL64"
            ));
        }
        let RelocationTarget::Symbol(si) = r.target() else {
            return Err("entry field relocation does not name a symbol".into());
        };
        let target = file.symbol_by_index(si).map_err(|e| e.to_string())?;
        let SymbolSection::Section(sec) = target.section() else {
            return Err("entry symbol is undefined".into());
        };
        let at = target
            .address()
            .checked_add_signed(r.addend())
            .and_then(|v| v.checked_sub(ENTRY_FIELD_OFFSET))
            .ok_or("entry relocation addend out of range")?;
        return Ok((sec, at));
    }
    match syms.get(name) {
        Some(s) if s.index != kd.index => Ok((s.section, s.address)),
        _ => Err(
            "no relocation of the descriptor's entry field and no symbol with the kernel's name"
                .into(),
        ),
    }
}

/// Apply the relocations of a relocatable object's code section that need no layout: a
/// branch (`R_AMDGPU_REL16`) to a symbol of the same section. Returns how many others are
/// left (calls and data references into other sections), which make the code unrunnable.
fn apply_code_relocations(
    file: &Elf<'_>,
    sec: &object::read::elf::ElfSection64<'_, '_, LittleEndian>,
    bytes: &mut [u8],
) -> usize {
    let mut unresolved = 0;
    for (p, r) in sec.relocations() {
        let patched = (|| {
            let RelocationFlags::Elf {
                r_type: R_AMDGPU_REL16,
            } = r.flags()
            else {
                return None;
            };
            let RelocationTarget::Symbol(si) = r.target() else {
                return None;
            };
            let target = file.symbol_by_index(si).ok()?;
            if target.section() != SymbolSection::Section(sec.index()) {
                return None;
            }
            let delta = i64::try_from(target.address())
                .ok()?
                .checked_add(r.addend())?
                .checked_sub(i64::try_from(p).ok()?)?
                .checked_sub(4)?;
            if delta % 4 != 0 {
                return None;
            }
            let v = i16::try_from(delta / 4).ok()?;
            let at = usize::try_from(p).ok()?;
            bytes
                .get_mut(at..at.checked_add(2)?)?
                .copy_from_slice(&v.to_le_bytes());
            Some(())
        })();
        if patched.is_none() {
            unresolved += 1;
        }
    }
    unresolved
}
