//! The full-screen draw benchmark: one triangle covering every pixel of a 1920x1080
//! viewport, shaded by the gradient pixel shader (three attribute channels interpolated
//! with `v_interp_p1/p2_f32`, one export), on the JIT and on the interpreter in the same
//! run. The shader is the text llc-19 makes of `examples/draw/gradient.ll` for tonga, so
//! the benchmark needs no LLVM.

use std::time::Instant;

use wavejit::draw::{self, DrawOptions, DrawStats, PixelShader, Scene};
use wavejit::Engine;

/// `examples/draw/gradient.ll` compiled by llc-19 for tonga (SPI_PS_INPUT_ENA 2:
/// PERSP_CENTER in v0-v1).
pub const GRADIENT_GFX8: &str = "s_mov_b32 m0, s2
v_interp_p1_f32 v2, v0, attr0.x
v_interp_p1_f32 v3, v0, attr0.y
v_interp_p1_f32 v0, v0, attr0.z
v_interp_p2_f32 v2, v1, attr0.x
v_interp_p2_f32 v3, v1, attr0.y
v_interp_p2_f32 v0, v1, attr0.z
v_mov_b32 v1, 1.0
exp mrt0 v2, v3, v0, v1 done vm
s_endpgm
";

/// The scene: a triangle twice the viewport's size in each direction, so that it covers
/// every pixel, with a colour per vertex.
pub fn scene(width: u32, height: u32) -> Scene {
    let (w, h) = (width as f64, height as f64);
    Scene::from_json(&format!(
        r#"{{"arch": "gfx8", "width": {width}, "height": {height}, "spi_ps_input_ena": 2,
            "triangles": [{{"v": [[0, 0], [{}, 0], [0, {}]],
            "attrs": [[[1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1]]]}}]}}"#,
        2.0 * w,
        2.0 * h
    ))
    .expect("the benchmark scene is valid")
}

/// One timed draw.
#[derive(Clone, Copy, Debug)]
pub struct Timed {
    pub engine: Engine,
    pub seconds: f64,
    pub stats: DrawStats,
}

/// Draw the full-screen triangle on `engine` once (after one untimed draw that warms the
/// code cache) and time it.
pub fn measure(engine: Engine, width: u32, height: u32) -> Result<Timed, wavejit::Error> {
    let s = scene(width, height);
    let code = wavejit::isa::gcn::asm::assemble(s.arch, GRADIENT_GFX8)?.bytes;
    // llc-19's configuration of the shader: SPI_SHADER_PGM_RSRC1_PS 704 (4 VGPRs,
    // FLOAT_MODE 0), SPI_PS_INPUT_ENA 2.
    let shader = PixelShader {
        gen: Some(s.arch),
        code,
        entry: 0,
        input_ena: Some(2),
        input_addr: Some(2),
        rsrc1: Some(704),
    };
    let opts = DrawOptions {
        engine,
        ..DrawOptions::default()
    };
    if engine != Engine::Interp {
        draw::draw(&s, &shader, opts)?;
    }
    let t = Instant::now();
    let (_, stats) = draw::draw(&s, &shader, opts)?;
    Ok(Timed {
        engine,
        seconds: t.elapsed().as_secs_f64(),
        stats,
    })
}
