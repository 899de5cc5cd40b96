//! `wavejit disasm` of an AMDHSA code object (detected by its ELF magic): the target and
//! code object version as directives, each kernel's descriptor as `.amdhsa_*` directives
//! (the list and order llvm-objdump-19 prints for `.rodata`), then every function symbol of
//! the executable section with its address, one instruction per line with its address and
//! words; CLRX syntax names branch targets with labels unique in the file
//! (`.L<function>_<offset>`), LLVM syntax keeps llvm-mc's numeric operand and names the
//! target in a comment (`<symbol+offset>`).

use std::fmt::Write as _;

use object::{Object, ObjectSection, ObjectSymbol, SymbolKind};
use wavejit::isa::gcn::fmt::{branch_target, listing_with_labels, Syntax};
use wavejit::isa::Gen;
use wavejit::load::{CodeObject, KernelDescriptor};

/// A function symbol of the executable section.
struct Func {
    name: String,
    addr: u64,
    size: u64,
}

fn bit(v: u32, b: u32) -> u32 {
    (v >> b) & 1
}

fn bits(v: u32, lo: u32, n: u32) -> u32 {
    (v >> lo) & ((1 << n) - 1)
}

/// The descriptor as the `.amdhsa_kernel` block llvm-objdump-19 prints (registers it
/// cannot know, VCC/FLAT_SCRATCH/XNACK reservations, as 0), for code object `version`.
pub fn kd_directives(name: &str, kd: &KernelDescriptor, version: u32) -> String {
    let (r1, r2, p) = (
        kd.compute_pgm_rsrc1,
        kd.compute_pgm_rsrc2,
        kd.kernel_code_properties as u32,
    );
    let rows: [(&str, u64); 35] = [
        (
            "group_segment_fixed_size",
            kd.group_segment_fixed_size as u64,
        ),
        (
            "private_segment_fixed_size",
            kd.private_segment_fixed_size as u64,
        ),
        ("kernarg_size", kd.kernarg_size as u64),
        ("next_free_vgpr", kd.vgpr_count() as u64),
        ("reserve_vcc", 0),
        ("reserve_flat_scratch", 0),
        ("reserve_xnack_mask", 0),
        ("next_free_sgpr", kd.sgpr_count() as u64),
        ("float_round_mode_32", bits(r1, 12, 2) as u64),
        ("float_round_mode_16_64", bits(r1, 14, 2) as u64),
        ("float_denorm_mode_32", bits(r1, 16, 2) as u64),
        ("float_denorm_mode_16_64", bits(r1, 18, 2) as u64),
        ("dx10_clamp", bit(r1, 21) as u64),
        ("ieee_mode", bit(r1, 23) as u64),
        (
            "system_sgpr_private_segment_wavefront_offset",
            bit(r2, 0) as u64,
        ),
        ("system_sgpr_workgroup_id_x", bit(r2, 7) as u64),
        ("system_sgpr_workgroup_id_y", bit(r2, 8) as u64),
        ("system_sgpr_workgroup_id_z", bit(r2, 9) as u64),
        ("system_sgpr_workgroup_info", bit(r2, 10) as u64),
        ("system_vgpr_workitem_id", bits(r2, 11, 2) as u64),
        ("exception_fp_ieee_invalid_op", bit(r2, 24) as u64),
        ("exception_fp_denorm_src", bit(r2, 25) as u64),
        ("exception_fp_ieee_div_zero", bit(r2, 26) as u64),
        ("exception_fp_ieee_overflow", bit(r2, 27) as u64),
        ("exception_fp_ieee_underflow", bit(r2, 28) as u64),
        ("exception_fp_ieee_inexact", bit(r2, 29) as u64),
        ("exception_int_div_zero", bit(r2, 30) as u64),
        ("user_sgpr_private_segment_buffer", bit(p, 0) as u64),
        ("user_sgpr_dispatch_ptr", bit(p, 1) as u64),
        ("user_sgpr_queue_ptr", bit(p, 2) as u64),
        ("user_sgpr_kernarg_segment_ptr", bit(p, 3) as u64),
        ("user_sgpr_dispatch_id", bit(p, 4) as u64),
        ("user_sgpr_flat_scratch_init", bit(p, 5) as u64),
        ("user_sgpr_private_segment_size", bit(p, 6) as u64),
        ("uses_dynamic_stack", bit(p, 11) as u64),
    ];
    let mut s = format!(".amdhsa_kernel {name}\n");
    // USES_DYNAMIC_STACK exists from code object v5 on.
    let rows = &rows[..if version >= 5 { 35 } else { 34 }];
    for (k, v) in rows {
        let _ = writeln!(s, "\t.amdhsa_{k} {v}");
    }
    s + ".end_amdhsa_kernel\n"
}

/// Executable sections: (address, bytes).
type Sections = Vec<(u64, Vec<u8>)>;

/// The function symbols of the executable sections, by address, and those sections'
/// (address, bytes).
fn functions(bytes: &[u8]) -> Result<(Vec<Func>, Sections), String> {
    let file = object::File::parse(bytes).map_err(|e| format!("malformed ELF: {e}"))?;
    let mut secs = Vec::new();
    for s in file.sections() {
        if s.kind() == object::SectionKind::Text {
            let data = s.data().map_err(|e| format!("malformed ELF: {e}"))?;
            secs.push((s.address(), data.to_vec()));
        }
    }
    let mut funcs: Vec<Func> = file
        .symbols()
        .filter(|s| s.kind() == SymbolKind::Text && s.size() > 0)
        .filter_map(|s| {
            Some(Func {
                name: s.name().ok()?.to_string(),
                addr: s.address(),
                size: s.size(),
            })
        })
        .collect();
    funcs.sort_by_key(|f| (f.addr, f.name.clone()));
    funcs.dedup_by_key(|f| f.addr);
    Ok((funcs, secs))
}

/// The whole listing of a code object; `gen` overrides the object's own generation.
/// Returns the text and whether any word did not decode.
pub fn disasm_object(
    bytes: &[u8],
    gen: Option<Gen>,
    syntax: Syntax,
) -> Result<(String, bool), String> {
    let co = CodeObject::parse(bytes).map_err(|e| e.to_string())?;
    let gen = gen.unwrap_or(co.gen);
    let (funcs, secs) = functions(bytes)?;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "\t.amdgcn_target \"amdgcn-amd-amdhsa--{}\"",
        co.processor
    );
    let _ = writeln!(s, "\t.amdhsa_code_object_version {}", co.version);
    let mut bad = false;
    // CLRX labels are `.L<function>_<offset>`: each function lists from offset 0, so the
    // function's name (or `f<index>` for names a label cannot spell) keeps them apart.
    let mut bases: Vec<String> = Vec::new();
    for (i, f) in funcs.iter().enumerate() {
        let spellable = !f.name.is_empty()
            && f.name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$'));
        let mut base = if spellable {
            f.name.clone()
        } else {
            format!("f{i}")
        };
        while bases.contains(&base) {
            base = format!("{base}_{i}");
        }
        bases.push(base);
    }
    for (f, prefix) in funcs.iter().zip(&bases) {
        let Some((base, data)) = secs.iter().find(|(a, d)| {
            // Symbol values come from the file: hostile ones must not wrap.
            let end = f.addr.checked_add(f.size);
            f.addr >= *a && end.is_some_and(|e| e <= a.saturating_add(d.len() as u64))
        }) else {
            let _ = writeln!(s, "// {}: outside the executable sections", f.name);
            continue;
        };
        let off = (f.addr - base) as usize;
        let code = &data[off..off + f.size as usize];
        let kernel = co.kernels.iter().any(|k| k.name == f.name);
        let _ = writeln!(
            s,
            "\n// {} {} at 0x{:x}, {} bytes",
            if kernel { "kernel" } else { "function" },
            f.name,
            f.addr,
            f.size
        );
        let _ = writeln!(s, "{}:", f.name);
        let label = |pc: u32| format!(".L{prefix}_{pc}");
        for l in listing_with_labels(gen, code, syntax, &label) {
            bad |= l.text.starts_with(".long");
            let at = f.addr + l.pc as u64;
            let words: Vec<String> = l.words.iter().map(|w| format!("{w:08X}")).collect();
            let mut text = l.text.clone();
            if syntax == Syntax::Llvm {
                let rest = code.get(l.pc as usize..).unwrap_or(&[]);
                if let Ok((inst, _)) = wavejit::isa::gcn::decode(gen, rest, l.pc) {
                    if let Some(t) = branch_target(&inst, l.pc) {
                        let target = f.addr + t as u64;
                        let name = funcs
                            .iter()
                            .rev()
                            .find(|g| g.addr <= target)
                            .map_or_else(String::new, |g| {
                                format!(" <{}+0x{:x}>", g.name, target - g.addr)
                            });
                        let _ = write!(text, " // target 0x{target:x}{name}");
                    }
                }
            }
            let _ = writeln!(s, "\t{text:<50} // {at:012X}: {}", words.join(" "));
        }
    }
    for k in &co.kernels {
        let _ = write!(s, "\n{}", kd_directives(&k.name, &k.kd, co.version));
    }
    Ok((s, bad))
}
