//! The fixed kernel suite of the benchmarks: each kernel's GCN assembly and
//! state file (`bench/kernels/`), how big a run is in the full and the quick suite, how
//! to set up the state a run starts from, and how its result is checked against an
//! independent Rust computation (`native` for valu, sdwa and f64; `reference` for the
//! others).

use wavejit_isa::ir::Program;
use wavejit_isa::state::{Lds, Memory, Wave};
use wavejit_isa::{Arch, Gen};

use wavejit::statefile::StateFile;

/// Every kernel in this suite is GCN 1.2 (gfx8) code.
pub const GEN: Gen = Gen::Gfx8;

/// How a kernel is launched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// One wave from its state file; `s0` holds the iteration count.
    Wave,
    /// A grid of workgroups of several waves (`lds_matmul`): the size is the matrix
    /// dimension N.
    Group,
}

/// One kernel of the suite.
#[derive(Clone, Copy, Debug)]
pub struct Kernel {
    pub name: &'static str,
    /// What it exercises, one line.
    pub what: &'static str,
    pub source: &'static str,
    /// The state file (`Shape::Wave` only).
    pub state: &'static str,
    pub shape: Shape,
    /// Run size (iterations, or N for `lds_matmul`) for the compiled engines and the
    /// native baseline: full suite, quick suite.
    pub size: (u32, u32),
    /// Run size for the interpreter: full, quick. Rates are per second, so a smaller run
    /// measures the same rate in less time.
    pub interp_size: (u32, u32),
    /// Whether `native` has a baseline for it.
    pub native: bool,
}

impl Kernel {
    pub fn size(&self, quick: bool) -> u32 {
        if quick {
            self.size.1
        } else {
            self.size.0
        }
    }

    pub fn interp_size(&self, quick: bool) -> u32 {
        if quick {
            self.interp_size.1
        } else {
            self.interp_size.0
        }
    }

    /// Assemble the kernel.
    pub fn program(&self) -> Result<Program, wavejit::Error> {
        let asm = wavejit_isa::gcn::asm::assemble(GEN, self.source)
            .map_err(|e| wavejit::Error::Usage(format!("bench/kernels/{}.s: {e}", self.name)))?;
        Ok(Program::new(Arch::Gcn(GEN), &asm.bytes))
    }

    /// The state one wave starts with, `s0` = `size` (`Shape::Wave`).
    pub fn wave_state(&self, size: u32) -> Result<WaveState, wavejit::Error> {
        let sf = StateFile::parse(self.state)
            .map_err(|e| wavejit::Error::Usage(format!("bench/kernels/{}.json: {e}", self.name)))?;
        let m = sf.build(GEN)?;
        let mut wave = m.wave;
        wave.sgpr[0] = size;
        wave.pc = 0;
        Ok(WaveState {
            wave,
            lds: m.lds,
            mem: m.mem,
        })
    }
}

/// The state of one wave's run.
pub struct WaveState {
    pub wave: Box<Wave>,
    pub lds: Lds,
    pub mem: Memory,
}

/// A `Shape::Wave` kernel of `bench/kernels/`: `NAME.s` and `NAME.json`, its run sizes
/// (full, quick) for the compiled engines and for the interpreter, whether `native` has a
/// baseline, and what it exercises.
macro_rules! wave_kernel {
    ($name:literal, $size:expr, $interp:expr, $native:expr, $what:literal) => {
        Kernel {
            name: $name,
            what: $what,
            source: include_str!(concat!("../kernels/", $name, ".s")),
            state: include_str!(concat!("../kernels/", $name, ".json")),
            shape: Shape::Wave,
            size: $size,
            interp_size: $interp,
            native: $native,
        }
    };
}

/// The suite.
#[rustfmt::skip]
pub const KERNELS: [Kernel; 7] = [
    wave_kernel!("valu", (100_000, 100_000), (100_000, 4_000), true,
        "32 f32/int VALU ops (fma, mad, med3, bfe, bfi, alignbit, cvt...) in a scalar loop"),
    wave_kernel!("dpp", (100_000, 50_000), (50_000, 4_000), false,
        "DPP prefix sum / reduction (row_shr, row_bcast), quad_perm max, wave_shr"),
    wave_kernel!("sdwa", (100_000, 100_000), (50_000, 4_000), true,
        "SDWA byte/word unpack, operate (sext), pack with dst_sel/dst_unused"),
    wave_kernel!("vintrp", (50_000, 20_000), (20_000, 1_500), false,
        "v_interp_p1/p2_f32 of 4 attributes x 4 channels per 64 pixels, LDS params"),
    wave_kernel!("divergent", (4_000, 2_000), (1_000, 100), false,
        "per-lane trip counts 16-79: v_cmp, s_and_saveexec_b64, s_cbranch_execz"),
    Kernel {
        name: "lds_matmul",
        what: "N x N f32 matmul, 16x16 LDS tiles, 4 waves per group, s_barrier",
        source: include_str!("../kernels/lds_matmul.s"),
        state: "",
        shape: Shape::Group,
        size: (128, 64),
        interp_size: (128, 64),
        native: false,
    },
    wave_kernel!("f64", (100_000, 50_000), (20_000, 1_500), true,
        "4 interleaved chains of v_fma_f64 (32 per iteration), NEG modifiers"),
];

/// The kernel called `name`.
pub fn kernel(name: &str) -> Option<&'static Kernel> {
    KERNELS.iter().find(|k| k.name == name)
}
