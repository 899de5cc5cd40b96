//! Drawing triangles with a GCN pixel shader: the work of a GPU's rasteriser and shader
//! input setup (SPI) around the engines, from a scene (`scene`) and a shader (`shader`)
//! to render targets (`target`).
//!
//! For each triangle in order, `raster` finds its 2x2 quads; quads are packed into waves
//! of 16 (64 lanes, quad q in lanes 4q..4q+3) in that order, several triangles sharing a
//! wave as primitives. For each wave:
//! * **NEWPRIMMASK** bit q-1 is set when quad q starts a new triangle
//!   (001_43f5507a70f72cb4.txt, ERRATA VINTRP 2); M0 = NEWPRIMMASK << 16 (LDS offset 0),
//!   and the same value goes to the scene's `prim_mask_sgpr` (default s2).
//! * **LDS** holds the parameters in the layout of 001: attribute-major, 12 dwords per
//!   (attribute, primitive) at dword `12 × (ATTR × NUMPRIM + PRIMID)`, P0.x P10.x P0.y
//!   P10.y P0.z P10.z P0.w P10.w P20.x P20.y P20.z P20.w, with P0 = the attribute at vertex
//!   0, P10 = v1 − v0 and P20 = v2 − v0 (f32 subtractions; with the scene's `params: f16`
//!   each dword holds the f16 of that f32, rounded to nearest even, in both halves). The
//!   LDS is exactly that big: reading another attribute is an error of the run.
//! * **VGPRs** v0..(RSRC1's count) start at 0, then the inputs of SPI_PS_INPUT_ENA
//!   (`inputs`) are written for all 64 lanes of the quads (helper pixels too); SGPRs,
//!   VCC and SCC start at 0; MODE from RSRC1 (or the scene's `mode`); **EXEC** holds the
//!   covered pixels only (lanes of helper pixels and of missing quads are off: a shader
//!   that takes derivatives turns helpers on with `s_wqm_b64`, as on the GPU).
//! * The wave runs on the chosen engine from the shader's entry to `s_endpgm`.
//! * **Exports** (`Wave::exports`) are applied in program order: an MRT export writes its
//!   enabled channels for each lane that is in the export's EXEC, is a covered pixel (a
//!   helper never writes) and, if the wave made a `vm` export, is in the EXEC of its last
//!   `vm` export (the valid mask; killed pixels write nothing), converted to the target's
//!   format (`target`). An MRTZ export writes the MRTZ output (Z, stencil, sample mask,
//!   alpha) the same way, as f32. Nothing is blended and there is no depth test (MRTZ is
//!   an output only): the last write to a pixel wins, waves in triangle order. NULL
//!   exports (a shader's way to send only DONE/VM) write nothing; POS and PARAM exports,
//!   which belong to vertex shaders and go nowhere from a pixel shader, write nothing
//!   either. Every export is counted by target kind (`DrawStats::exports`).

pub mod error;
pub mod inputs;
pub mod raster;
pub mod scene;
pub mod shader;
pub mod target;

use wavejit_isa::gcn::ExpTarget;
use wavejit_isa::ir::Program;
use wavejit_isa::state::{Lds, Memory, Wave, LANES};
use wavejit_isa::Arch;

pub use error::DrawError;
pub use scene::Scene;
pub use shader::PixelShader;
pub use target::{Format, RenderTargets};

use crate::engine::{self, Engine};
use inputs::Input;
use raster::{Quad, Setup};

/// Quads in a 64-lane wave.
pub const QUADS_PER_WAVE: usize = 16;
/// The default instruction budget of one wave.
pub const DEFAULT_MAX_INSTS: u64 = 1 << 24;

/// How to draw.
#[derive(Clone, Copy, Debug)]
pub struct DrawOptions {
    pub engine: Engine,
    /// Instruction budget of each wave.
    pub max_insts: u64,
}

impl Default for DrawOptions {
    fn default() -> DrawOptions {
        DrawOptions {
            engine: Engine::Jit,
            max_insts: DEFAULT_MAX_INSTS,
        }
    }
}

/// Executed EXP instructions of a draw, by target kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExportCounts {
    pub mrt: u64,
    pub mrtz: u64,
    pub null: u64,
    pub pos: u64,
    pub param: u64,
}

/// Counters of a draw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrawStats {
    pub triangles: usize,
    pub waves: usize,
    pub quads: usize,
    /// Covered pixels shaded (a pixel covered by two triangles counts twice).
    pub pixels: u64,
    pub insts: u64,
    pub exports: ExportCounts,
}

/// The shader's configuration, with the scene's choices where the shader has none.
struct Config {
    inputs: Vec<(Input, u8)>,
    vgprs: usize,
    mode: u32,
    prim_mask_sgpr: u8,
    attrs: usize,
}

fn config(scene: &Scene, shader: &PixelShader) -> Result<Config, DrawError> {
    if let Some(g) = shader.gen {
        if g != scene.arch {
            return Err(DrawError::Shader(format!(
                "compiled for {g}, the scene is {}",
                scene.arch
            )));
        }
    }
    let ena = shader
        .input_ena
        .or(scene.spi_ps_input_ena)
        .ok_or_else(|| DrawError::Scene {
            msg: "the shader has no configuration: give spi_ps_input_ena".into(),
        })?;
    Ok(Config {
        inputs: inputs::layout(ena)?,
        vgprs: shader.vgprs(),
        mode: scene
            .mode
            .or(shader.mode())
            .unwrap_or(wavejit_isa::state::MODE_DEFAULT),
        prim_mask_sgpr: scene.prim_mask_sgpr.unwrap_or(2),
        attrs: scene.attr_count(),
    })
}

/// A wave being filled: its quads (with their triangles) and primitives.
#[derive(Default)]
struct Packed {
    quads: Vec<(usize, Quad)>,
    /// The triangle of each primitive.
    prims: Vec<usize>,
    mask: u32,
}

impl Packed {
    fn push(&mut self, tri: usize, q: Quad) {
        if self.prims.last() != Some(&tri) {
            if !self.quads.is_empty() {
                self.mask |= 1 << (self.quads.len() - 1);
            }
            self.prims.push(tri);
        }
        self.quads.push((tri, q));
    }
}

/// Draw `scene` with `shader`.
pub fn draw(
    scene: &Scene,
    shader: &PixelShader,
    opts: DrawOptions,
) -> Result<(RenderTargets, DrawStats), DrawError> {
    let cfg = config(scene, shader)?;
    let prog = Program::new(Arch::Gcn(scene.arch), &shader.code);
    let mut d = Drawer {
        scene,
        cfg,
        prog,
        entry: shader.entry,
        opts,
        setups: scene.triangles.iter().map(Setup::new).collect(),
        targets: scene.targets(),
        stats: DrawStats {
            triangles: scene.triangles.len(),
            ..DrawStats::default()
        },
        wave: Wave::new(scene.arch),
        lds: Lds::new(0),
        mem: Memory::new(),
    };
    let mut packed = Packed::default();
    for tri in 0..scene.triangles.len() {
        let Some(setup) = d.setups[tri] else {
            continue;
        };
        let mut err = None;
        setup.quads(scene.width, scene.height, |q| {
            if err.is_some() {
                return;
            }
            packed.push(tri, q);
            if packed.quads.len() == QUADS_PER_WAVE {
                err = d.run(&std::mem::take(&mut packed)).err();
            }
        });
        if let Some(e) = err {
            return Err(e);
        }
    }
    if !packed.quads.is_empty() {
        d.run(&packed)?;
    }
    Ok((d.targets, d.stats))
}

struct Drawer<'a> {
    scene: &'a Scene,
    cfg: Config,
    prog: Program,
    entry: u32,
    opts: DrawOptions,
    setups: Vec<Option<Setup>>,
    targets: RenderTargets,
    stats: DrawStats,
    wave: Box<Wave>,
    lds: Lds,
    mem: Memory,
}

impl Drawer<'_> {
    /// Set up, run and resolve one wave.
    fn run(&mut self, p: &Packed) -> Result<(), DrawError> {
        self.setup_wave(p);
        self.setup_lds(p);
        let index = self.stats.waves;
        self.stats.waves += 1;
        self.stats.quads += p.quads.len();
        let eng = engine::shared(self.opts.engine);
        let st = engine::run_to_end(
            eng,
            &self.prog,
            &mut self.wave,
            &mut self.lds,
            &self.mem,
            self.opts.max_insts,
        )
        .map_err(|source| {
            let (tri, q) = p.quads[0];
            DrawError::Run {
                wave: index,
                triangle: tri,
                x: q.x,
                y: q.y,
                source: Box::new(source),
            }
        })?;
        self.stats.insts += st.insts;
        self.resolve(p);
        Ok(())
    }

    fn setup_wave(&mut self, p: &Packed) {
        let w = &mut *self.wave;
        for r in w.vgpr.iter_mut().take(self.cfg.vgprs) {
            *r = [0; LANES];
        }
        w.sgpr = [0; wavejit_isa::state::NUM_SREG_SLOTS];
        w.vcc = 0;
        w.scc = 0;
        w.mode = self.cfg.mode;
        w.pc = self.entry;
        w.exports.clear();
        w.m0 = p.mask << 16;
        w.sgpr[self.cfg.prim_mask_sgpr as usize] = w.m0;
        let mut exec = 0u64;
        for (qi, (tri, q)) in p.quads.iter().enumerate() {
            exec |= (q.covered as u64) << (4 * qi);
            let front = self.setups[*tri].is_some_and(|s| s.front_facing());
            for l in 0..4 {
                let lane = 4 * qi + l;
                let (px, py) = (q.x + (l as u32 & 1), q.y + (l as u32 >> 1));
                for &(input, v) in &self.cfg.inputs {
                    let v = v as usize;
                    let f = |x: f32| x.to_bits();
                    match input {
                        Input::Ij => {
                            w.vgpr[v][lane] = f(q.ij[l][0]);
                            w.vgpr[v + 1][lane] = f(q.ij[l][1]);
                        }
                        Input::PosX => w.vgpr[v][lane] = f(px as f32 + 0.5),
                        Input::PosY => w.vgpr[v][lane] = f(py as f32 + 0.5),
                        Input::PosZ => w.vgpr[v][lane] = 0,
                        Input::PosW => w.vgpr[v][lane] = f(1.0),
                        Input::FrontFace => w.vgpr[v][lane] = f(if front { 1.0 } else { -1.0 }),
                        Input::SampleCoverage => w.vgpr[v][lane] = (q.covered >> l & 1) as u32,
                    }
                }
            }
        }
        // Lanes of missing quads keep zero inputs (they are never in EXEC).
        for lane in 4 * p.quads.len()..LANES {
            for &(input, v) in &self.cfg.inputs {
                let n = if input == Input::Ij { 2 } else { 1 };
                for r in 0..n {
                    w.vgpr[v as usize + r][lane] = 0;
                }
            }
        }
        w.exec = exec;
    }

    fn setup_lds(&mut self, p: &Packed) {
        let nprim = p.prims.len();
        let f16_params = self.scene.params == scene::ParamFormat::F16;
        let bytes = &mut self.lds.bytes;
        bytes.clear();
        bytes.resize(48 * self.cfg.attrs * nprim, 0);
        for a in 0..self.cfg.attrs {
            for (pi, &tri) in p.prims.iter().enumerate() {
                let at = &self.scene.triangles[tri].attrs[a];
                let base = 48 * (a * nprim + pi);
                let mut put = |dw: usize, v: f32| {
                    let word = match f16_params {
                        false => v.to_bits(),
                        true => {
                            let h = half::f16::from_f32(v).to_bits() as u32;
                            h | h << 16
                        }
                    };
                    bytes[base + 4 * dw..base + 4 * dw + 4].copy_from_slice(&word.to_le_bytes())
                };
                let [v0, v1, v2] = at;
                for (c, &p0) in v0.iter().enumerate() {
                    put(2 * c, p0);
                    put(2 * c + 1, v1[c] - p0);
                    put(8 + c, v2[c] - p0);
                }
            }
        }
    }

    /// Write the wave's MRT exports to the render targets.
    fn resolve(&mut self, p: &Packed) {
        let mut covered = 0u64;
        for (qi, (_, q)) in p.quads.iter().enumerate() {
            covered |= (q.covered as u64) << (4 * qi);
        }
        self.stats.pixels += covered.count_ones() as u64;
        let valid = self
            .wave
            .exports
            .iter()
            .rev()
            .find(|e| e.vm)
            .map_or(u64::MAX, |e| e.exec);
        let (w, h) = (self.scene.width, self.scene.height);
        for e in &self.wave.exports {
            let n = &mut self.stats.exports;
            let mrt = match e.target() {
                Some(ExpTarget::Mrt(i)) => {
                    n.mrt += 1;
                    Some(i as usize)
                }
                Some(ExpTarget::Mrtz) => {
                    n.mrtz += 1;
                    None
                }
                Some(ExpTarget::Null) => {
                    n.null += 1;
                    continue;
                }
                Some(ExpTarget::Pos(_)) => {
                    n.pos += 1;
                    continue;
                }
                Some(ExpTarget::Param(_)) => {
                    n.param += 1;
                    continue;
                }
                None => continue,
            };
            let lanes = e.exec & covered & valid;
            if lanes == 0 {
                continue;
            }
            for (qi, (_, q)) in p.quads.iter().enumerate() {
                for l in 0..4 {
                    let lane = 4 * qi + l;
                    if lanes >> lane & 1 == 0 {
                        continue;
                    }
                    let (px, py) = (q.x + (l as u32 & 1), q.y + (l as u32 >> 1));
                    if px >= w || py >= h {
                        continue;
                    }
                    let at = py as usize * w as usize + px as usize;
                    for c in 0..4 {
                        if let Some(v) = e.channel_f32(c, lane) {
                            match mrt {
                                Some(i) => self.targets.write(i, at, c, v),
                                None => self.targets.write_z(at, c, v),
                            }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quad(x: u32) -> Quad {
        Quad {
            x,
            y: 0,
            covered: 15,
            ij: [[0.0; 2]; 4],
        }
    }

    #[test]
    fn packing_marks_new_primitives_as_the_spec_example() {
        // 001's example NEWPRIMMASK 0b1010011: primitives start at quads 0, 1, 2, 5 and 7.
        let mut p = Packed::default();
        let tri_of_quad = [0, 1, 2, 2, 2, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4];
        for (qi, &t) in tri_of_quad.iter().enumerate() {
            p.push(t, quad(2 * qi as u32));
        }
        assert_eq!(p.mask, 0b101_0011);
        assert_eq!(p.prims, vec![0, 1, 2, 3, 4]);
    }
}
