//! `wavejit draw`: rasterise a scene's triangles and run a pixel shader on them
//! (`wavejit::draw`), writing each render target the shader exported to.
//!
//! `wavejit draw SCENE.json SHADER --out DIR [--raw] [--engine jit|tiered|threaded|interp|diff]
//! [--max-insts N]`
//!
//! SHADER is an object file of `llc-19 -mtriple=amdgcn-mesa-mesa3d -mcpu=… -filetype=obj`
//! (its `.AMDGPU.config` gives SPI_PS_INPUT_ENA), assembly text (`.s`: the scene gives
//! `spi_ps_input_ena`) or raw code. The output is `DIR/mrtN.png` per render target
//! written and, with `--raw`, `DIR/mrtN.f32` (W x H x 4 little-endian f32, row-major from
//! the top row, unwritten pixels = the clear colour; another extension and channel count
//! for a target the scene gives another format) and `DIR/mrtz.f32` when the shader
//! exported MRTZ (W x H x 4 f32: Z, stencil, sample mask, alpha). A summary goes to
//! standard error, with the exports by target (POS and PARAM go nowhere from a pixel
//! shader; they are counted, not written).

use std::path::PathBuf;
use std::process::ExitCode;

use wavejit::draw::{self, DrawOptions, PixelShader, Scene};
use wavejit::{read_file_limited, Engine};

use super::CmdResult;

/// Largest scene file read.
const MAX_SCENE_BYTES: u64 = 256 << 20;

#[derive(clap::Args)]
pub struct Args {
    /// The scene (JSON).
    scene: PathBuf,
    /// The pixel shader: ELF object, `.s` text or raw code.
    shader: PathBuf,
    /// Directory for mrtN.png (and mrtN.f32).
    #[arg(long)]
    out: PathBuf,
    /// Also write each render target's raw bytes (mrtN.f32 for RGBA f32) and mrtz.f32.
    #[arg(long)]
    raw: bool,
    /// Execution engine: jit, tiered, threaded, interp or diff.
    #[arg(long, default_value = "jit")]
    engine: String,
    /// Instruction budget of each wave.
    #[arg(long, default_value_t = draw::DEFAULT_MAX_INSTS)]
    max_insts: u64,
}

pub fn run(a: Args) -> CmdResult {
    let engine: Engine = a.engine.parse()?;
    let text = read_file_limited(&a.scene, MAX_SCENE_BYTES)?;
    let text =
        String::from_utf8(text).map_err(|e| format!("{}: not UTF-8: {e}", a.scene.display()))?;
    let scene = Scene::from_json(&text).map_err(|e| format!("{}: {e}", a.scene.display()))?;
    let shader = PixelShader::from_file(&a.shader, scene.arch)?;
    let opts = DrawOptions {
        engine,
        max_insts: a.max_insts,
    };
    let start = std::time::Instant::now();
    let (targets, st) = draw::draw(&scene, &shader, opts)?;
    let secs = start.elapsed().as_secs_f64();
    let files = targets.save(&a.out, a.raw)?;
    eprintln!(
        "drew {} triangles on {}: {} waves, {} quads, {} pixels, {} instructions in {secs:.3} s",
        st.triangles, engine, st.waves, st.quads, st.pixels, st.insts
    );
    let x = st.exports;
    eprintln!(
        "exports: {} mrt, {} mrtz, {} null, {} pos, {} param",
        x.mrt, x.mrtz, x.null, x.pos, x.param
    );
    if x.pos + x.param > 0 {
        eprintln!("note: POS and PARAM exports go nowhere from a pixel shader: nothing written");
    }
    for f in &files {
        println!("{}", f.display());
    }
    Ok(ExitCode::SUCCESS)
}
