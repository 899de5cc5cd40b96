//! Kernel profiles: the counters a GPU profiler reports, exact, from the per-instruction
//! counts the engines make (`wavejit_interp::profile`), plus the static facts of the
//! kernel descriptor and the occupancy they allow.
//!
//! Names follow rocprof's where one exists (`SQ_WAVES`, `SQ_INSTS_VALU`, `FETCH_SIZE`, …).
//! What each counts here:
//! - `SQ_WAVES`: waves launched; `SQ_INSTS`: instructions issued, all kinds;
//! - `SQ_INSTS_*`: instructions issued, by kind ([`InstClass`]): VALU (VOP1/2/C/3, SDWA,
//!   DPP and VINTRP), SALU (scalar ALU and every scalar control instruction that is not a
//!   branch: `s_waitcnt`, `s_barrier`, `s_endpgm`, …), SMEM (scalar memory), LDS (DS),
//!   VMEM_RD / VMEM_WR (MUBUF, MTBUF, MIMG, FLAT loads; stores and atomics), BRANCH
//!   (`s_branch`, `s_cbranch_*`, `s_setpc_b64`, `s_swappc_b64`), EXP;
//! - `VALU_UTILIZATION`: active lanes over 64 × VALU instructions, in percent;
//! - `FETCH_SIZE` / `WRITE_SIZE`: kilobytes (1024 bytes) requested from global memory by
//!   active lanes (vector) or by the instruction (scalar); no caches are modelled, so this
//!   is what the kernel asks for. Exact byte counts are `fetch_bytes` / `write_bytes`;
//! - `SQ_LDS_BANK_CONFLICT`: cycles lost to LDS bank conflicts
//!   (`wavejit_interp::profile::bank_conflicts` documents the model);
//! - `barriers` / `barrier_waves`: workgroup barriers released and the waves that waited.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use wavejit_interp::profile::{branch_kind, BranchKind, Profile};
use wavejit_isa::gcn::fmt::Syntax;
use wavejit_isa::gcn::{self, Enc};
use wavejit_isa::ir::{Inst, Program};
use wavejit_isa::Gen;

use crate::load::kd::KernelDescriptor;

/// What kind of instruction a counter counts it as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum InstClass {
    Valu,
    Salu,
    Smem,
    Lds,
    VmemRd,
    VmemWr,
    Branch,
    Exp,
}

impl InstClass {
    pub fn of(inst: &gcn::Inst) -> InstClass {
        if branch_kind(inst.op) != BranchKind::NotABranch {
            return InstClass::Branch;
        }
        match inst.enc {
            Enc::Vop1 | Enc::Vop2 | Enc::Vopc | Enc::Vop3 | Enc::Sdwa { .. } | Enc::Dpp { .. } => {
                InstClass::Valu
            }
            Enc::Vintrp => InstClass::Valu,
            Enc::Sop1 | Enc::Sop2 | Enc::Sopk | Enc::Sopc | Enc::Sopp => InstClass::Salu,
            Enc::Smrd | Enc::Smem => InstClass::Smem,
            Enc::Ds => InstClass::Lds,
            Enc::Exp => InstClass::Exp,
            Enc::Mubuf | Enc::Mtbuf | Enc::Mimg | Enc::Flat => {
                let m = inst.op.mnemonic();
                let reads =
                    m.contains("_load") || m.starts_with("image_sample") || m.contains("_get");
                if reads {
                    InstClass::VmemRd
                } else {
                    InstClass::VmemWr
                }
            }
        }
    }

    /// rocprof's counter for this kind.
    pub fn counter(self) -> &'static str {
        match self {
            InstClass::Valu => "SQ_INSTS_VALU",
            InstClass::Salu => "SQ_INSTS_SALU",
            InstClass::Smem => "SQ_INSTS_SMEM",
            InstClass::Lds => "SQ_INSTS_LDS",
            InstClass::VmemRd => "SQ_INSTS_VMEM_RD",
            InstClass::VmemWr => "SQ_INSTS_VMEM_WR",
            InstClass::Branch => "SQ_INSTS_BRANCH",
            InstClass::Exp => "SQ_INSTS_EXP",
        }
    }
}

/// Whole-dispatch (or whole-kernel) counters.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    #[serde(rename = "SQ_WAVES")]
    pub waves: u64,
    #[serde(rename = "SQ_INSTS")]
    pub insts: u64,
    #[serde(rename = "SQ_INSTS_VALU")]
    pub valu: u64,
    #[serde(rename = "SQ_INSTS_SALU")]
    pub salu: u64,
    #[serde(rename = "SQ_INSTS_SMEM")]
    pub smem: u64,
    #[serde(rename = "SQ_INSTS_LDS")]
    pub lds: u64,
    #[serde(rename = "SQ_INSTS_VMEM_RD")]
    pub vmem_rd: u64,
    #[serde(rename = "SQ_INSTS_VMEM_WR")]
    pub vmem_wr: u64,
    #[serde(rename = "SQ_INSTS_BRANCH")]
    pub branch: u64,
    #[serde(rename = "SQ_INSTS_EXP")]
    pub exp: u64,
    /// Active lanes summed over VALU instructions.
    pub valu_active_lanes: u64,
    /// `valu_active_lanes` / (64 × `SQ_INSTS_VALU`), percent (0 when no VALU ran).
    #[serde(rename = "VALU_UTILIZATION")]
    pub valu_utilization: f64,
    pub fetch_bytes: u64,
    pub write_bytes: u64,
    /// `fetch_bytes` in kilobytes of 1024 bytes, as rocprof reports it.
    #[serde(rename = "FETCH_SIZE")]
    pub fetch_size: f64,
    #[serde(rename = "WRITE_SIZE")]
    pub write_size: f64,
    #[serde(rename = "SQ_LDS_BANK_CONFLICT")]
    pub lds_bank_conflicts: u64,
    pub barriers: u64,
    pub barrier_waves: u64,
    pub branches_taken: u64,
    pub branches_not_taken: u64,
}

impl Totals {
    fn add_inst(&mut self, r: &InstRow) {
        self.insts += r.execs;
        let n = r.execs;
        match r.class {
            InstClass::Valu => {
                self.valu += n;
                self.valu_active_lanes += r.active_lanes;
            }
            InstClass::Salu => self.salu += n,
            InstClass::Smem => self.smem += n,
            InstClass::Lds => self.lds += n,
            InstClass::VmemRd => self.vmem_rd += n,
            InstClass::VmemWr => self.vmem_wr += n,
            InstClass::Branch => self.branch += n,
            InstClass::Exp => self.exp += n,
        }
        self.fetch_bytes += r.fetch_bytes;
        self.write_bytes += r.write_bytes;
        self.lds_bank_conflicts += r.bank_conflicts;
        self.branches_taken += r.taken;
        self.branches_not_taken += r.not_taken;
    }

    /// Add `o` (another kernel or launch).
    pub fn add(&mut self, o: &Totals) {
        self.waves += o.waves;
        self.insts += o.insts;
        self.valu += o.valu;
        self.salu += o.salu;
        self.smem += o.smem;
        self.lds += o.lds;
        self.vmem_rd += o.vmem_rd;
        self.vmem_wr += o.vmem_wr;
        self.branch += o.branch;
        self.exp += o.exp;
        self.valu_active_lanes += o.valu_active_lanes;
        self.fetch_bytes += o.fetch_bytes;
        self.write_bytes += o.write_bytes;
        self.lds_bank_conflicts += o.lds_bank_conflicts;
        self.barriers += o.barriers;
        self.barrier_waves += o.barrier_waves;
        self.branches_taken += o.branches_taken;
        self.branches_not_taken += o.branches_not_taken;
        self.finish();
    }

    /// Recompute the derived figures.
    fn finish(&mut self) {
        self.valu_utilization = if self.valu == 0 {
            0.0
        } else {
            100.0 * self.valu_active_lanes as f64 / (64.0 * self.valu as f64)
        };
        self.fetch_size = self.fetch_bytes as f64 / 1024.0;
        self.write_size = self.write_bytes as f64 / 1024.0;
    }
}

/// One instruction's counts: the hot-spot view.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InstRow {
    /// Byte offset from the kernel's entry.
    pub pc: u32,
    /// Disassembly (LLVM syntax).
    pub text: String,
    pub class: InstClass,
    pub execs: u64,
    /// Active lanes summed over the executions.
    pub active_lanes: u64,
    pub fetch_bytes: u64,
    pub write_bytes: u64,
    pub bank_conflicts: u64,
    /// Branches only: executions that continued at the target / at the next instruction.
    pub taken: u64,
    pub not_taken: u64,
}

/// Occupancy: waves per SIMD each resource allows, and the least of them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Occupancy {
    pub by_vgprs: u32,
    pub by_sgprs: u32,
    pub by_lds: u32,
    pub waves_per_simd: u32,
    /// Which resource sets `waves_per_simd` ("vgprs", "sgprs", "lds", or "none": the
    /// hardware's maximum of 10).
    pub limited_by: String,
}

/// Waves per SIMD on GCN 1.0-1.2, at most.
pub const MAX_WAVES_PER_SIMD: u32 = 10;
/// VGPRs per lane of one SIMD, shared by its waves, allocated in blocks of 4.
pub const VGPRS_PER_SIMD: u32 = 256;
pub const VGPR_ALLOC_GRANULE: u32 = 4;
/// LDS of one compute unit (shared by its 4 SIMDs' workgroups).
pub const LDS_PER_CU: u32 = 64 * 1024;
pub const SIMDS_PER_CU: u32 = 4;
/// Workgroups one compute unit holds at most.
pub const MAX_GROUPS_PER_CU: u32 = 16;

/// SGPRs of one SIMD and their allocation block: 512 in blocks of 8 on GCN 1.0/1.1, 800 in
/// blocks of 16 on GCN 1.2 (LLVM's AMDGPU back end, `getTotalNumSGPRs` and
/// `getSGPRAllocGranule`).
pub fn sgprs_per_simd(gen: Gen) -> (u32, u32) {
    match gen {
        Gen::Gfx6 | Gen::Gfx7 => (512, 8),
        Gen::Gfx8 => (800, 16),
    }
}

/// The occupancy a kernel using `vgprs` VGPRs, `sgprs` SGPRs and `lds` bytes of LDS per
/// workgroup of `waves_per_group` waves allows on `gen` (LLVM's occupancy rules:
/// registers rounded up to their allocation block; LDS: the workgroups that fit in a CU,
/// at most 16, times their waves, spread over 4 SIMDs).
pub fn occupancy(gen: Gen, vgprs: u32, sgprs: u32, lds: u32, waves_per_group: u32) -> Occupancy {
    let by_vgprs = (VGPRS_PER_SIMD / vgprs.max(1).next_multiple_of(VGPR_ALLOC_GRANULE))
        .clamp(1, MAX_WAVES_PER_SIMD);
    let (total, granule) = sgprs_per_simd(gen);
    let by_sgprs = (total / sgprs.max(1).next_multiple_of(granule)).clamp(1, MAX_WAVES_PER_SIMD);
    let by_lds = match LDS_PER_CU.checked_div(lds) {
        None => MAX_WAVES_PER_SIMD,
        Some(groups) => {
            let groups = groups.min(MAX_GROUPS_PER_CU);
            (groups * waves_per_group.max(1) / SIMDS_PER_CU).clamp(1, MAX_WAVES_PER_SIMD)
        }
    };
    let waves = by_vgprs.min(by_sgprs).min(by_lds);
    let limited_by = if waves == MAX_WAVES_PER_SIMD {
        "none"
    } else if waves == by_vgprs {
        "vgprs"
    } else if waves == by_sgprs {
        "sgprs"
    } else {
        "lds"
    };
    Occupancy {
        by_vgprs,
        by_sgprs,
        by_lds,
        waves_per_simd: waves,
        limited_by: limited_by.into(),
    }
}

/// What the kernel descriptor says the kernel uses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StaticFacts {
    pub vgprs: u32,
    pub sgprs: u32,
    /// Bytes of LDS per workgroup (fixed + dynamic).
    pub lds_bytes: u32,
    pub scratch_per_workitem: u32,
    pub waves_per_group: u32,
    pub occupancy: Occupancy,
}

impl StaticFacts {
    pub fn of(gen: Gen, kd: &KernelDescriptor, lds_bytes: u32, waves_per_group: u32) -> Self {
        let (vgprs, sgprs) = (kd.vgpr_count(), kd.sgpr_count());
        StaticFacts {
            vgprs,
            sgprs,
            lds_bytes,
            scratch_per_workitem: kd.private_segment_fixed_size,
            waves_per_group,
            occupancy: occupancy(gen, vgprs, sgprs, lds_bytes, waves_per_group),
        }
    }
}

/// One kernel's profile (all its launches added together).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KernelProfile {
    pub kernel: String,
    pub arch: String,
    pub engine: String,
    pub launches: u64,
    pub totals: Totals,
    #[serde(rename = "static")]
    pub static_facts: Option<StaticFacts>,
    pub insts: Vec<InstRow>,
}

/// What the engines' counts and a run's own figures make into a [`KernelProfile`].
pub struct Run<'a> {
    pub kernel: &'a str,
    pub gen: Gen,
    pub engine: &'a str,
    pub prog: &'a Program,
    pub counts: &'a Profile,
    pub waves: u64,
    pub barriers: u64,
    pub barrier_waves: u64,
    pub static_facts: Option<StaticFacts>,
}

impl KernelProfile {
    /// The `n`-th instruction row whose text starts with `prefix`.
    pub fn find(&self, prefix: &str, n: usize) -> Option<&InstRow> {
        self.insts
            .iter()
            .filter(|r| r.text.starts_with(prefix))
            .nth(n)
    }

    pub fn build(r: Run<'_>) -> KernelProfile {
        let mut totals = Totals {
            waves: r.waves,
            barriers: r.barriers,
            barrier_waves: r.barrier_waves,
            ..Totals::default()
        };
        let mut insts = Vec::new();
        for (i, slot) in r.prog.slots.iter().enumerate() {
            let Ok(Inst::Gcn(g)) = &slot.inst else {
                continue;
            };
            let c = r.counts.insts.get(i).copied().unwrap_or_default();
            let traffic = wavejit_interp::mem::traffic(g);
            let per = |bytes: u32| -> u64 {
                match traffic {
                    Some(t) if t.per_lane => bytes as u64 * c.lanes,
                    Some(_) => bytes as u64 * c.execs,
                    None => 0,
                }
            };
            let (fetch, write) = traffic.map_or((0, 0), |t| (per(t.read), per(t.write)));
            let (taken, not_taken) = match branch_kind(g.op) {
                BranchKind::NotABranch => (0, 0),
                BranchKind::Always => (c.execs, 0),
                BranchKind::Conditional => (c.taken, c.execs - c.taken.min(c.execs)),
            };
            let row = InstRow {
                pc: slot.pc,
                text: gcn::fmt::format(r.gen, g, slot.pc, Syntax::Llvm),
                class: InstClass::of(g),
                execs: c.execs,
                active_lanes: c.lanes,
                fetch_bytes: fetch,
                write_bytes: write,
                bank_conflicts: c.bank_conflicts,
                taken,
                not_taken,
            };
            totals.add_inst(&row);
            insts.push(row);
        }
        totals.finish();
        KernelProfile {
            kernel: r.kernel.to_string(),
            arch: format!("{:?}", r.gen).to_lowercase(),
            engine: r.engine.to_string(),
            launches: 1,
            totals,
            static_facts: r.static_facts,
            insts,
        }
    }

    /// Add another launch of the same kernel (same code): counts per instruction summed.
    pub fn absorb(&mut self, o: &KernelProfile) {
        self.launches += o.launches;
        let waves = self.totals.waves + o.totals.waves;
        let (b, bw) = (
            self.totals.barriers + o.totals.barriers,
            self.totals.barrier_waves + o.totals.barrier_waves,
        );
        let mut by_pc: BTreeMap<u32, InstRow> = self.insts.drain(..).map(|r| (r.pc, r)).collect();
        for r in &o.insts {
            by_pc
                .entry(r.pc)
                .and_modify(|m| {
                    m.execs += r.execs;
                    m.active_lanes += r.active_lanes;
                    m.fetch_bytes += r.fetch_bytes;
                    m.write_bytes += r.write_bytes;
                    m.bank_conflicts += r.bank_conflicts;
                    m.taken += r.taken;
                    m.not_taken += r.not_taken;
                })
                .or_insert_with(|| r.clone());
        }
        self.insts = by_pc.into_values().collect();
        let mut t = Totals {
            waves,
            barriers: b,
            barrier_waves: bw,
            ..Totals::default()
        };
        for r in &self.insts {
            t.add_inst(r);
        }
        t.finish();
        self.totals = t;
    }
}

/// A profile file: the whole dispatch (every launch) and each kernel.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProfileFile {
    pub format: String,
    pub dispatch: Totals,
    pub kernels: Vec<KernelProfile>,
}

/// The `format` of the files this version writes.
pub const FORMAT: &str = "wavejit-profile-1";

impl ProfileFile {
    /// Collect launches: one entry per kernel name, launches of the same kernel added.
    pub fn from_launches<'a>(launches: impl IntoIterator<Item = &'a KernelProfile>) -> Self {
        let mut kernels: Vec<KernelProfile> = Vec::new();
        for k in launches {
            match kernels.iter_mut().find(|e| e.kernel == k.kernel) {
                Some(e) => e.absorb(k),
                None => kernels.push(k.clone()),
            }
        }
        let mut dispatch = Totals::default();
        for k in &kernels {
            dispatch.add(&k.totals);
        }
        ProfileFile {
            format: FORMAT.into(),
            dispatch,
            kernels,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }

    pub fn from_json(text: &str) -> Result<ProfileFile, String> {
        let f: ProfileFile =
            serde_json::from_str(text).map_err(|e| format!("not a wavejit profile: {e}"))?;
        if f.format != FORMAT {
            return Err(format!(
                "profile format `{}`, this wavejit reads `{FORMAT}`",
                f.format
            ));
        }
        Ok(f)
    }
}

/// Run one wave of `prog` to `s_endpgm` on `engine`, counting profile events (a barrier
/// with one wave releases at once). Returns the instructions run and the counts.
pub fn profile_wave(
    engine: crate::Engine,
    prog: &Program,
    wave: &mut wavejit_isa::state::Wave,
    lds: &mut wavejit_isa::state::Lds,
    mem: &wavejit_isa::state::Memory,
    max_insts: u64,
) -> Result<(u64, Profile, u64), crate::engine::WaveError> {
    let exec = crate::engine::for_engine(engine);
    let mut prof = Profile::for_program(prog);
    let (insts, barriers) = profile_wave_on(&*exec, prog, wave, lds, mem, max_insts, &mut prof)?;
    Ok((insts, prof, barriers))
}

/// `profile_wave` on an engine the caller keeps (its code cache stays warm across calls):
/// runs the wave to `s_endpgm`, adding its counts to `prof`; returns the wave-instructions
/// executed and the barriers passed.
pub fn profile_wave_on(
    exec: &dyn crate::engine::WaveEngine,
    prog: &Program,
    wave: &mut wavejit_isa::state::Wave,
    lds: &mut wavejit_isa::state::Lds,
    mem: &wavejit_isa::state::Memory,
    max_insts: u64,
    prof: &mut Profile,
) -> Result<(u64, u64), crate::engine::WaveError> {
    let (mut insts, mut barriers) = (0u64, 0u64);
    let limit = |pc| {
        crate::engine::WaveError::Exec(wavejit_interp::ExecError {
            pc,
            kind: wavejit_interp::ExecErrorKind::InstLimit(max_insts),
        })
    };
    loop {
        let left = max_insts.saturating_sub(insts);
        let (step, n) = exec.run_profiled(prog, wave, lds, mem, left, prof)?;
        insts += n.max(1);
        match step {
            wavejit_interp::Step::End => return Ok((insts, barriers)),
            wavejit_interp::Step::Barrier => barriers += 1,
            wavejit_interp::Step::Continue => return Err(limit(wave.pc)),
        }
        if insts >= max_insts {
            return Err(limit(wave.pc));
        }
    }
}

/// Share of the hottest instruction at or above which a line is marked hot.
pub const HOT_SHARE: f64 = 0.5;

/// The annotated disassembly of each kernel: per instruction its share of executions,
/// lane utilisation, bytes and conflicts; lines at least half as hot as the hottest marked
/// `>>`.
pub fn report_text(f: &ProfileFile) -> String {
    let mut s = String::new();
    let t = &f.dispatch;
    let _ = writeln!(
        s,
        "dispatch: {} waves, {} instructions (VALU {}, SALU {}, SMEM {}, LDS {}, VMEM rd {} wr {}, branch {}), VALU utilisation {:.1}%, fetched {} B, written {} B, LDS bank conflicts {}, barriers {} ({} waves waited)",
        t.waves, t.insts, t.valu, t.salu, t.smem, t.lds, t.vmem_rd, t.vmem_wr, t.branch,
        t.valu_utilization, t.fetch_bytes, t.write_bytes, t.lds_bank_conflicts, t.barriers,
        t.barrier_waves
    );
    for k in &f.kernels {
        let _ = writeln!(
            s,
            "\nkernel {} ({}, {} engine, {} launch{}): {} instructions, VALU utilisation {:.1}%",
            k.kernel,
            k.arch,
            k.engine,
            k.launches,
            if k.launches == 1 { "" } else { "es" },
            k.totals.insts,
            k.totals.valu_utilization
        );
        if let Some(st) = &k.static_facts {
            let _ = writeln!(
                s,
                "  {} VGPRs, {} SGPRs, {} B LDS per group, {} B scratch per item, {} waves per group: {} waves/SIMD (VGPRs {}, SGPRs {}, LDS {}; limited by {})",
                st.vgprs, st.sgprs, st.lds_bytes, st.scratch_per_workitem, st.waves_per_group,
                st.occupancy.waves_per_simd, st.occupancy.by_vgprs, st.occupancy.by_sgprs,
                st.occupancy.by_lds, st.occupancy.limited_by
            );
        }
        let total = k.totals.insts.max(1) as f64;
        let hottest = k.insts.iter().map(|r| r.execs).max().unwrap_or(0).max(1) as f64;
        let _ = writeln!(
            s,
            "     {:>8}  {:>6}  {:>6}  {:>10}  {:>6}  {:>9}  instruction",
            "pc", "execs%", "lanes%", "bytes", "confl", "taken"
        );
        for r in &k.insts {
            let hot = r.execs as f64 >= HOT_SHARE * hottest && r.execs > 0;
            let lanes = if r.execs == 0 {
                "-".to_string()
            } else {
                format!(
                    "{:.1}",
                    100.0 * r.active_lanes as f64 / (64.0 * r.execs as f64)
                )
            };
            let taken = if r.class == InstClass::Branch {
                format!("{}/{}", r.taken, r.not_taken)
            } else {
                String::new()
            };
            let _ = writeln!(
                s,
                "{} {:>8x}  {:>6.2}  {:>6}  {:>10}  {:>6}  {:>9}  {}",
                if hot { ">>" } else { "  " },
                r.pc,
                100.0 * r.execs as f64 / total,
                lanes,
                r.fetch_bytes + r.write_bytes,
                r.bank_conflicts,
                taken,
                r.text
            );
        }
    }
    s
}

fn esc(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// An SVG picture of each kernel: a heat strip beside the code (colour = share of the
/// hottest instruction's executions) and a bar chart of the instruction mix.
pub fn report_svg(f: &ProfileFile) -> String {
    const LINE: f64 = 14.0;
    const STRIP: f64 = 60.0;
    const CODE_X: f64 = 80.0;
    const CHART_X: f64 = 620.0;
    let mut body = String::new();
    let mut y = 20.0;
    for k in &f.kernels {
        let _ = writeln!(
            body,
            r#"<text x="10" y="{y}" font-weight="bold">{} ({}, {} instructions, VALU utilisation {:.1}%)</text>"#,
            esc(&k.kernel),
            esc(&k.arch),
            k.totals.insts,
            k.totals.valu_utilization
        );
        y += LINE * 1.5;
        let top = y;
        let hottest = k.insts.iter().map(|r| r.execs).max().unwrap_or(0).max(1) as f64;
        for r in &k.insts {
            let share = r.execs as f64 / hottest;
            // White (cold) to red (hot).
            let g = (255.0 * (1.0 - share)).round() as u8;
            let _ = writeln!(
                body,
                r##"<rect x="10" y="{:.1}" width="{STRIP}" height="{:.1}" fill="rgb(255,{g},{g})" stroke="#ccc" stroke-width="0.5"><title>{} executions</title></rect>"##,
                y - LINE + 3.0,
                LINE,
                r.execs
            );
            let _ = writeln!(
                body,
                r#"<text x="{CODE_X}" y="{y:.1}" font-family="monospace" font-size="11">{:>5x}  {}</text>"#,
                r.pc,
                esc(&r.text)
            );
            y += LINE;
        }
        // Instruction mix.
        let t = &k.totals;
        let mix = [
            ("VALU", t.valu),
            ("SALU", t.salu),
            ("SMEM", t.smem),
            ("LDS", t.lds),
            ("VMEM_RD", t.vmem_rd),
            ("VMEM_WR", t.vmem_wr),
            ("BRANCH", t.branch),
            ("EXP", t.exp),
        ];
        let most = mix.iter().map(|m| m.1).max().unwrap_or(0).max(1) as f64;
        let _ = writeln!(
            body,
            r#"<text x="{CHART_X}" y="{top:.1}" font-weight="bold">instruction mix</text>"#
        );
        for (i, (name, n)) in mix.iter().enumerate() {
            let by = top + 10.0 + i as f64 * 18.0;
            let w = 200.0 * *n as f64 / most;
            let _ = writeln!(
                body,
                r##"<text x="{CHART_X}" y="{:.1}" font-size="11">{name}</text><rect x="{:.1}" y="{:.1}" width="{w:.1}" height="12" fill="#4a7ab5"/><text x="{:.1}" y="{:.1}" font-size="11">{n}</text>"##,
                by + 10.0,
                CHART_X + 70.0,
                by,
                CHART_X + 75.0 + w,
                by + 10.0
            );
        }
        y = y.max(top + 10.0 + mix.len() as f64 * 18.0) + LINE * 2.0;
    }
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="920" height="{:.0}" font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="white"/>
{body}</svg>
"#,
        y
    )
}
