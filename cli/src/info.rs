//! `wavejit info CODE_OBJECT [--json]`: what an AMDHSA code object holds — target, code
//! object version, and per kernel its arguments (from the metadata note), its register,
//! LDS and scratch use (from the kernel descriptor) and the occupancy they allow per SIMD
//! (`wavejit::profile::occupancy`, whose rules the README documents).

use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::{json, Value};
use wavejit::load::{CodeObject, Kernel};
use wavejit::profile::occupancy;

use super::asm::stdout_done;
use super::CmdResult;

/// Waves of a workgroup the occupancy line assumes when the metadata names no
/// maximum: a 256-lane group.
const DEFAULT_GROUP_WAVES: u32 = 4;

#[derive(clap::Args)]
pub struct Args {
    /// The code object (ELF), as clang or `llvm-mc -filetype=obj` writes it.
    file: PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// The waves of the largest workgroup the kernel allows (64 lanes a wave).
fn group_waves(k: &Kernel) -> u32 {
    k.meta
        .as_ref()
        .map(|m| m.max_flat_workgroup_size)
        .filter(|&n| n > 0)
        .map_or(DEFAULT_GROUP_WAVES, |n| n.div_ceil(64))
}

fn kernel_json(co: &CodeObject, k: &Kernel) -> Value {
    let kd = &k.kd;
    let occ = occupancy(
        co.gen,
        kd.vgpr_count(),
        kd.sgpr_count(),
        kd.group_segment_fixed_size,
        group_waves(k),
    );
    let args: Vec<Value> = k
        .meta
        .as_ref()
        .map(|m| {
            m.args
                .iter()
                .map(|a| {
                    json!({
                        "name": a.name,
                        "type": a.type_name,
                        "size": a.size,
                        "offset": a.offset,
                        "value_kind": a.value_kind,
                        "address_space": a.address_space,
                        "hidden": a.is_hidden(),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    json!({
        "name": k.name,
        "entry": k.entry_vaddr.unwrap_or(k.entry as u64),
        "code_bytes": k.code.len(),
        "vgprs": kd.vgpr_count(),
        "sgprs": kd.sgpr_count(),
        "lds_bytes": kd.group_segment_fixed_size,
        "scratch_bytes_per_item": kd.private_segment_fixed_size,
        "kernarg_bytes": kd.kernarg_size,
        "wavefront_size": k.meta.as_ref().map_or(64, |m| m.wavefront_size.max(64)),
        "max_workgroup_size": k.meta.as_ref().map(|m| m.max_flat_workgroup_size),
        "occupancy": {
            "waves_per_simd": occ.waves_per_simd,
            "by_vgprs": occ.by_vgprs,
            "by_sgprs": occ.by_sgprs,
            "by_lds": occ.by_lds,
            "limited_by": occ.limited_by,
            "group_waves_assumed": group_waves(k),
        },
        "args": args,
    })
}

/// The whole object as JSON (what `--json` prints).
pub fn object_json(co: &CodeObject) -> Value {
    json!({
        "target": format!("amdgcn-amd-amdhsa--{}", co.processor),
        "processor": co.processor,
        "generation": co.gen.to_string(),
        "code_object_version": co.version,
        "relocatable": co.relocatable,
        "kernels": co.kernels.iter().map(|k| kernel_json(co, k)).collect::<Vec<_>>(),
    })
}

fn text(v: &Value) -> String {
    let mut s = format!(
        "target {} ({}), code object v{}{}\n",
        v["target"].as_str().unwrap_or("?"),
        v["generation"].as_str().unwrap_or("?"),
        v["code_object_version"],
        if v["relocatable"].as_bool() == Some(true) {
            ", relocatable"
        } else {
            ""
        }
    );
    for k in v["kernels"].as_array().into_iter().flatten() {
        let o = &k["occupancy"];
        s += &format!(
            "kernel {}: entry 0x{:x}, {} VGPRs, {} SGPRs, LDS {} B, scratch {} B/item, kernarg {} B, wave{}\n",
            k["name"].as_str().unwrap_or("?"),
            k["entry"].as_u64().unwrap_or(0),
            k["vgprs"],
            k["sgprs"],
            k["lds_bytes"],
            k["scratch_bytes_per_item"],
            k["kernarg_bytes"],
            k["wavefront_size"],
        );
        s += &format!(
            "  occupancy: {} waves/SIMD (by VGPRs {}, SGPRs {}, LDS {} with {}-wave groups; limited by {})\n",
            o["waves_per_simd"],
            o["by_vgprs"],
            o["by_sgprs"],
            o["by_lds"],
            o["group_waves_assumed"],
            o["limited_by"].as_str().unwrap_or("?"),
        );
        for (i, a) in k["args"].as_array().into_iter().flatten().enumerate() {
            s += &format!(
                "  arg {i}: {} {} (offset {}, {} bytes, {}{}{})\n",
                a["type"].as_str().unwrap_or("-"),
                a["name"].as_str().unwrap_or("-"),
                a["offset"],
                a["size"],
                a["value_kind"].as_str().unwrap_or("?"),
                a["address_space"]
                    .as_str()
                    .map(|s| format!(", {s}"))
                    .unwrap_or_default(),
                if a["hidden"].as_bool() == Some(true) {
                    ", hidden"
                } else {
                    ""
                },
            );
        }
    }
    s
}

pub fn run(a: Args) -> CmdResult {
    let co = CodeObject::from_file(&a.file).map_err(|e| e.to_string())?;
    let v = object_json(&co);
    let out = if a.json {
        serde_json::to_string_pretty(&v)? + "\n"
    } else {
        text(&v)
    };
    stdout_done(std::io::Write::write_all(
        &mut std::io::stdout().lock(),
        out.as_bytes(),
    ))?;
    Ok(ExitCode::SUCCESS)
}
