//! An `.amdhsa_kernel NAME` … `.end_amdhsa_kernel` block → the kernel descriptor, with the
//! defaults, checks and register granulation of LLVM's assembler for GCN 1.0-1.2
//! (AMDGPUUsage, "Kernel Descriptor" and "AMDHSA Kernel Assembler Directives").
//!
//! The descriptor starts as LLVM's default (FLOAT_DENORM_MODE_16_64 = 3, DX10_CLAMP and
//! IEEE_MODE on, workgroup id X enabled); each directive sets its bits. The SGPR count that
//! is granulated adds what the wave needs beyond `.amdhsa_next_free_sgpr`: 2 for VCC, 4 for
//! FLAT_SCRATCH before GCN 1.2 (6 on GCN 1.2, which also counts XNACK's 4 when on or "any"), and
//! processors with the SGPR init bug (gfx802, gfx805) always get 96. Directives of later
//! generations are rejected by name.

use wavejit_isa::Gen;

use super::target::Target;
use crate::load::kd::UserSgpr;
use crate::load::KernelDescriptor;

/// One `.amdhsa_*` line of a block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// The name without `.amdhsa_`.
    pub name: String,
    pub value: i128,
    pub line: u32,
    /// Column of the directive and of its value.
    pub col: u32,
    pub value_col: u32,
}

/// The descriptor (entry offset still 0) and the register counts the metadata reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Built {
    pub kd: KernelDescriptor,
    /// `.amdhsa_next_free_vgpr`.
    pub vgpr_count: u32,
    /// `.amdhsa_next_free_sgpr` plus the reserved VCC/FLAT_SCRATCH/XNACK SGPRs.
    pub sgpr_count: u32,
    /// Whether `.amdhsa_kernarg_size` was given.
    pub kernarg_size_given: bool,
}

/// A positioned error: (line, column, message).
pub type FieldError = (u32, u32, String);

/// Where a directive's value goes.
#[derive(Clone, Copy)]
enum Dest {
    Group,
    Private,
    Kernarg,
    UserSgprCount,
    /// kernel_code_properties bit.
    Prop(u32),
    /// COMPUTE_PGM_RSRC1 field (low bit, width).
    Rsrc1(u32, u32),
    /// COMPUTE_PGM_RSRC2 field (low bit, width).
    Rsrc2(u32, u32),
    NextFreeVgpr,
    NextFreeSgpr,
    ReserveVcc,
    ReserveFlatScratch,
    ReserveXnack,
}

/// The directives of GCN 1.0-1.2 and what they set: (name, destination, value bits).
const FIELDS: &[(&str, Dest, u32)] = &[
    ("group_segment_fixed_size", Dest::Group, 32),
    ("private_segment_fixed_size", Dest::Private, 32),
    ("kernarg_size", Dest::Kernarg, 32),
    ("user_sgpr_count", Dest::UserSgprCount, 5),
    ("user_sgpr_private_segment_buffer", Dest::Prop(0), 1),
    ("user_sgpr_dispatch_ptr", Dest::Prop(1), 1),
    ("user_sgpr_queue_ptr", Dest::Prop(2), 1),
    ("user_sgpr_kernarg_segment_ptr", Dest::Prop(3), 1),
    ("user_sgpr_dispatch_id", Dest::Prop(4), 1),
    ("user_sgpr_flat_scratch_init", Dest::Prop(5), 1),
    ("user_sgpr_private_segment_size", Dest::Prop(6), 1),
    ("uses_dynamic_stack", Dest::Prop(11), 1),
    (
        "system_sgpr_private_segment_wavefront_offset",
        Dest::Rsrc2(0, 1),
        1,
    ),
    ("system_sgpr_workgroup_id_x", Dest::Rsrc2(7, 1), 1),
    ("system_sgpr_workgroup_id_y", Dest::Rsrc2(8, 1), 1),
    ("system_sgpr_workgroup_id_z", Dest::Rsrc2(9, 1), 1),
    ("system_sgpr_workgroup_info", Dest::Rsrc2(10, 1), 1),
    ("system_vgpr_workitem_id", Dest::Rsrc2(11, 2), 2),
    ("next_free_vgpr", Dest::NextFreeVgpr, 32),
    ("next_free_sgpr", Dest::NextFreeSgpr, 32),
    ("reserve_vcc", Dest::ReserveVcc, 1),
    ("reserve_flat_scratch", Dest::ReserveFlatScratch, 1),
    ("reserve_xnack_mask", Dest::ReserveXnack, 1),
    ("float_round_mode_32", Dest::Rsrc1(12, 2), 2),
    ("float_round_mode_16_64", Dest::Rsrc1(14, 2), 2),
    ("float_denorm_mode_32", Dest::Rsrc1(16, 2), 2),
    ("float_denorm_mode_16_64", Dest::Rsrc1(18, 2), 2),
    ("dx10_clamp", Dest::Rsrc1(21, 1), 1),
    ("ieee_mode", Dest::Rsrc1(23, 1), 1),
    ("exception_fp_ieee_invalid_op", Dest::Rsrc2(24, 1), 1),
    ("exception_fp_denorm_src", Dest::Rsrc2(25, 1), 1),
    ("exception_fp_ieee_div_zero", Dest::Rsrc2(26, 1), 1),
    ("exception_fp_ieee_overflow", Dest::Rsrc2(27, 1), 1),
    ("exception_fp_ieee_underflow", Dest::Rsrc2(28, 1), 1),
    ("exception_fp_ieee_inexact", Dest::Rsrc2(29, 1), 1),
    ("exception_int_div_zero", Dest::Rsrc2(30, 1), 1),
];

/// Directives LLVM knows for later generations only, with the generation they need.
const LATER: &[(&str, &str)] = &[
    ("fp16_overflow", "gfx9+"),
    ("accum_offset", "gfx90a"),
    ("tg_split", "gfx90a"),
    ("user_sgpr_kernarg_preload_length", "gfx90a"),
    ("user_sgpr_kernarg_preload_offset", "gfx90a"),
    (
        "enable_private_segment",
        "architected flat scratch (gfx940+)",
    ),
    ("wavefront_size32", "gfx10+"),
    ("workgroup_processor_mode", "gfx10+"),
    ("memory_ordered", "gfx10+"),
    ("forward_progress", "gfx10+"),
    ("shared_vgpr_count", "gfx10+"),
    ("inst_pref_size", "gfx11+"),
    ("round_robin_scheduling", "gfx12+"),
];

/// SGPRs a wave may address (LLVM's `getAddressableNumSGPRs`: 104 on GCN 1.0/1.1, 102 on
/// GCN 1.2, 96 on chips with the SGPR init bug).
fn addressable_sgprs(gen: Gen, init_bug: bool) -> u32 {
    match (gen, init_bug) {
        (_, true) => 96,
        (Gen::Gfx8, false) => 102,
        _ => 104,
    }
}

/// Processors with the SGPR init bug, which must declare 96 SGPRs.
const SGPR_INIT_BUG: &[&str] = &["gfx802", "gfx805"];

/// Build the descriptor of one block. `block` is the line of `.amdhsa_kernel`;
/// `version` the code object version.
pub fn build(
    target: &Target,
    version: u32,
    fields: &[Field],
    block: u32,
) -> Result<Built, FieldError> {
    let gen = target.gen;
    let mut kd = KernelDescriptor {
        group_segment_fixed_size: 0,
        private_segment_fixed_size: 0,
        kernarg_size: 0,
        kernel_code_entry_byte_offset: 0,
        compute_pgm_rsrc3: 0,
        compute_pgm_rsrc1: 3 << 18 | 1 << 21 | 1 << 23,
        compute_pgm_rsrc2: 1 << 7,
        kernel_code_properties: 0,
    };
    let (mut vgprs, mut sgprs) = (None, None);
    let (mut vcc, mut flat, mut xnack) = (true, true, target.xnack_on_or_any());
    let mut user_count = None;
    let mut kernarg_given = false;
    let mut seen: Vec<&str> = Vec::new();
    for f in fields {
        let err = |msg: String| Err((f.line, f.col, msg));
        if let Some((_, need)) = LATER.iter().find(|(n, _)| *n == f.name) {
            return err(format!(".amdhsa_{} requires {need}", f.name));
        }
        let Some(&(_, dest, width)) = FIELDS.iter().find(|(n, _, _)| *n == f.name) else {
            return err(format!("unknown directive .amdhsa_{}", f.name));
        };
        if seen.contains(&f.name.as_str()) {
            return err(format!(".amdhsa_{} given twice", f.name));
        }
        seen.push(&f.name);
        if f.value < 0 || f.value >= 1i128 << width {
            return Err((
                f.line,
                f.value_col,
                format!(
                    ".amdhsa_{}: {} is out of range 0..{}",
                    f.name,
                    f.value,
                    (1u64 << width) - 1
                ),
            ));
        }
        let v = f.value as u32;
        match dest {
            Dest::Group => kd.group_segment_fixed_size = v,
            Dest::Private => kd.private_segment_fixed_size = v,
            Dest::Kernarg => {
                kd.kernarg_size = v;
                kernarg_given = true;
            }
            Dest::UserSgprCount => user_count = Some((v, f)),
            Dest::Prop(11) if version < 5 => {
                return err(".amdhsa_uses_dynamic_stack requires code object v5".into())
            }
            Dest::Prop(b) => {
                kd.kernel_code_properties = kd.kernel_code_properties & !(1 << b) | (v as u16) << b;
            }
            Dest::Rsrc1(lo, n) => {
                let m = ((1u32 << n) - 1) << lo;
                kd.compute_pgm_rsrc1 = kd.compute_pgm_rsrc1 & !m | v << lo;
            }
            Dest::Rsrc2(lo, n) => {
                let m = ((1u32 << n) - 1) << lo;
                kd.compute_pgm_rsrc2 = kd.compute_pgm_rsrc2 & !m | v << lo;
            }
            Dest::NextFreeVgpr => vgprs = Some((v, f)),
            Dest::NextFreeSgpr => sgprs = Some((v, f)),
            Dest::ReserveVcc => vcc = v != 0,
            Dest::ReserveFlatScratch if gen == Gen::Gfx6 => {
                return err(".amdhsa_reserve_flat_scratch requires gfx7+".into())
            }
            Dest::ReserveFlatScratch => flat = v != 0,
            Dest::ReserveXnack if gen != Gen::Gfx8 => {
                return err(".amdhsa_reserve_xnack_mask requires gfx8+".into())
            }
            Dest::ReserveXnack => {
                if (v != 0) != target.xnack_on_or_any() {
                    return err(
                        ".amdhsa_reserve_xnack_mask does not match the target's XNACK setting"
                            .into(),
                    );
                }
                xnack = v != 0;
            }
        }
    }
    let Some((vgprs, vf)) = vgprs else {
        return Err((
            block,
            1,
            ".amdhsa_next_free_vgpr directive is required".into(),
        ));
    };
    let Some((sgprs, sf)) = sgprs else {
        return Err((
            block,
            1,
            ".amdhsa_next_free_sgpr directive is required".into(),
        ));
    };
    // VGPR granule of 4 (wave64), at most 64 granules.
    let vgpr_blocks = vgprs.max(1).div_ceil(4) - 1;
    if vgpr_blocks >= 64 {
        return Err((
            vf.line,
            vf.value_col,
            format!("too many VGPRs: {vgprs} (at most 256)"),
        ));
    }
    let init_bug = SGPR_INIT_BUG.contains(&target.processor);
    let max = addressable_sgprs(gen, init_bug);
    if gen == Gen::Gfx8 && !init_bug && sgprs > max {
        return Err((
            sf.line,
            sf.value_col,
            format!("too many SGPRs: {sgprs} (at most {max})"),
        ));
    }
    let extra = match gen {
        // LLVM reserves FLAT_SCRATCH before GCN 1.2 by default, GCN 1.0 included (where
        // `.amdhsa_reserve_flat_scratch` cannot turn it off).
        Gen::Gfx6 | Gen::Gfx7 if flat => 4,
        Gen::Gfx6 | Gen::Gfx7 => 2 * vcc as u32,
        Gen::Gfx8 if flat => 6,
        Gen::Gfx8 if xnack => 4,
        Gen::Gfx8 => 2 * vcc as u32,
    };
    let total = sgprs + extra;
    if (gen != Gen::Gfx8 || init_bug) && total > max {
        return Err((
            sf.line,
            sf.value_col,
            format!("too many SGPRs: {sgprs} + {extra} reserved (at most {max})"),
        ));
    }
    let granulated = if init_bug { 96 } else { total };
    let sgpr_blocks = granulated.max(1).div_ceil(8) - 1;
    kd.compute_pgm_rsrc1 |= vgpr_blocks | sgpr_blocks << 6;
    // USER_SGPR_COUNT: as given (at least what the enabled values take) or implied.
    let implied: u32 = UserSgpr::ORDER
        .iter()
        .filter(|u| kd.enables(**u))
        .map(|u| u.count())
        .sum();
    let count = match user_count {
        Some((c, f)) if c < implied => {
            return Err((
                f.line,
                f.value_col,
                format!(".amdhsa_user_sgpr_count {c} is less than the {implied} SGPRs of the enabled user values"),
            ))
        }
        Some((c, _)) => c,
        None => implied,
    };
    if count > 16 {
        return Err((
            block,
            1,
            format!("too many user SGPRs enabled: {count} (at most 16)"),
        ));
    }
    kd.compute_pgm_rsrc2 |= count << 1;
    Ok(Built {
        kd,
        vgpr_count: vgprs,
        sgpr_count: total,
        kernarg_size_given: kernarg_given,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(name: &str, value: i128) -> Field {
        Field {
            name: name.into(),
            value,
            line: 1,
            col: 1,
            value_col: 2,
        }
    }

    #[test]
    fn granulation_by_hand() {
        // gfx803: 8 VGPRs → 2 granules - 1 = 1; 15 SGPRs + 2 (VCC) = 17 → 3 granules - 1 = 2
        // (flat scratch not reserved); dispatch + kernarg pointers → 4 user SGPRs.
        let t = Target::parse("gfx803").unwrap();
        let b = build(
            &t,
            5,
            &[
                f("user_sgpr_dispatch_ptr", 1),
                f("user_sgpr_kernarg_segment_ptr", 1),
                f("kernarg_size", 28),
                f("next_free_vgpr", 8),
                f("next_free_sgpr", 15),
                f("reserve_flat_scratch", 0),
            ],
            1,
        )
        .unwrap();
        assert_eq!(b.kd.compute_pgm_rsrc1, 0x00ac_0081);
        assert_eq!(b.kd.compute_pgm_rsrc2, 0x88);
        assert_eq!(b.kd.kernel_code_properties, 0x0a);
        assert_eq!(b.kd.kernarg_size, 28);
        assert_eq!(b.sgpr_count, 17);
    }

    #[test]
    fn rejections() {
        let t = Target::parse("gfx600").unwrap();
        let base = [f("next_free_vgpr", 1), f("next_free_sgpr", 1)];
        let with = |x: Field| {
            let mut v = base.to_vec();
            v.push(x);
            build(&t, 5, &v, 1).unwrap_err().2
        };
        assert!(with(f("reserve_flat_scratch", 0)).contains("gfx7+"));
        assert!(with(f("wavefront_size32", 1)).contains("gfx10+"));
        assert!(with(f("dx10_clamp", 2)).contains("out of range"));
        assert!(with(f("next_free_vgpr", 3)).contains("twice"));
        assert!(with(f("bogus", 3)).contains("unknown"));
        assert!(with(f("user_sgpr_count", 32)).contains("out of range"));
        assert!(with(f("user_sgpr_count", 17)).contains("too many user SGPRs"));
        // gfx802 has the SGPR init bug: at most 96 SGPRs with FLAT_SCRATCH's 6 (LLVM's
        // `getAddressableNumSGPRs`), and the granulated count is always 96.
        let g802 = Target::parse("gfx802").unwrap();
        let e = build(
            &g802,
            5,
            &[f("next_free_vgpr", 1), f("next_free_sgpr", 91)],
            1,
        );
        assert!(e.unwrap_err().2.contains("too many SGPRs"));
        let b = build(
            &g802,
            5,
            &[f("next_free_vgpr", 1), f("next_free_sgpr", 90)],
            1,
        )
        .unwrap();
        assert_eq!(b.kd.compute_pgm_rsrc1 >> 6 & 0xf, 11);
        assert!(build(&t, 5, &base[..1], 9)
            .unwrap_err()
            .2
            .contains("next_free_sgpr"));
        let e = build(
            &t,
            5,
            &[f("next_free_vgpr", 257), f("next_free_sgpr", 1)],
            1,
        )
        .unwrap_err();
        assert_eq!(e.2, "too many VGPRs: 257 (at most 256)");
        let e = build(
            &t,
            5,
            &[f("next_free_vgpr", 1), f("next_free_sgpr", 103)],
            1,
        )
        .unwrap_err();
        assert!(e.2.starts_with("too many SGPRs: 103"), "{}", e.2);
    }
}
