//! `draw` against a reference rasteriser written here from the rules alone: every pixel of
//! the viewport is tested (no bounding box, no quads) with the top-left fill rule at its
//! centre, its barycentric weights are divided in f64 and rounded once to f32, and the
//! example shader's colour is computed with the GCN interpolation formula
//! `(P0 + I × P10) + J × P20` (two unfused f32 multiply-adds, f32 denormals flushed as
//! MODE 0 says) — or its f16 variant. Colours must agree bit for bit on every engine and
//! generation.
//!
//! The examples (`examples/draw/*.ll`) are compiled with llc-19 at test time; without it
//! the tests that need it skip with a note, unless `WAVEJIT_REQUIRE_ORACLES` is set.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use wavejit::draw::{self, DrawOptions, PixelShader, RenderTargets, Scene};
use wavejit::isa::Gen;
use wavejit::Engine;

const ENGINES: [Engine; 3] = [Engine::Interp, Engine::Jit, Engine::Diff];
const GENS: [(Gen, &str); 3] = [
    (Gen::Gfx6, "tahiti"),
    (Gen::Gfx7, "bonaire"),
    (Gen::Gfx8, "tonga"),
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn have_llc() -> bool {
    static HAVE: OnceLock<bool> = OnceLock::new();
    *HAVE.get_or_init(|| {
        let ok = Command::new("llc-19")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        assert!(
            ok || std::env::var_os("WAVEJIT_REQUIRE_ORACLES").is_none(),
            "llc-19 is not installed but WAVEJIT_REQUIRE_ORACLES is set"
        );
        if !ok {
            eprintln!("NOTE: llc-19 not found: skipping the pixel-shader examples (apt-get install -y llvm-19)");
        }
        ok
    })
}

/// Compile `examples/draw/<name>.ll` for `cpu`; `None` without llc-19.
fn compile(name: &str, cpu: &str) -> Option<PixelShader> {
    if !have_llc() {
        return None;
    }
    let dir = std::env::temp_dir().join(format!("wavejit-draw-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out = dir.join(format!("{name}-{cpu}.o"));
    let src = root().join("examples/draw").join(format!("{name}.ll"));
    let st = Command::new("llc-19")
        .args([
            "-mtriple=amdgcn-mesa-mesa3d",
            &format!("-mcpu={cpu}"),
            "-filetype=obj",
        ])
        .arg(&src)
        .arg("-o")
        .arg(&out)
        .status()
        .expect("llc-19 runs");
    assert!(st.success(), "llc-19 failed on {}", src.display());
    Some(
        PixelShader::from_file(&out, GENS.iter().find(|g| g.1 == cpu).expect("cpu").0)
            .expect("loads"),
    )
}

fn scene(name: &str, gen: Gen) -> Scene {
    let p = root().join("examples/draw").join(format!("{name}.json"));
    let mut s = Scene::from_json(&std::fs::read_to_string(&p).expect("scene")).expect("parses");
    s.arch = gen;
    s
}

// ---- the reference ------------------------------------------------------------------------

/// Twice the signed area of (a, b, p), in f64.
fn cross(a: [f64; 2], b: [f64; 2], p: [f64; 2]) -> f64 {
    (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
}

/// What the reference knows of a covered pixel.
struct Frag {
    x: u32,
    y: u32,
    i: f32,
    j: f32,
}

/// Every pixel of the viewport covered by triangle `v`, by the top-left rule at pixel
/// centres: the triangle is first put in clockwise screen order (y down) by swapping two
/// vertices if needed; then an edge a→b owns the centres on it when it goes up (a left
/// edge) or goes right horizontally (a top edge).
fn fragments(v: [[f64; 2]; 3], w: u32, h: u32) -> Vec<Frag> {
    let area = cross(v[0], v[1], v[2]);
    if area == 0.0 {
        return vec![];
    }
    let cw = if area > 0.0 { v } else { [v[0], v[2], v[1]] };
    let edges = [(cw[0], cw[1]), (cw[1], cw[2]), (cw[2], cw[0])];
    let mut out = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let p = [x as f64 + 0.5, y as f64 + 0.5];
            let inside = edges.iter().all(|&(a, b)| {
                let e = cross(a, b, p);
                let owns = b[1] < a[1] || (b[1] == a[1] && b[0] > a[0]);
                e > 0.0 || (e == 0.0 && owns)
            });
            if inside {
                out.push(Frag {
                    x,
                    y,
                    i: (cross(v[2], v[0], p) / area) as f32,
                    j: (cross(v[0], v[1], p) / area) as f32,
                });
            }
        }
    }
    out
}

/// f32 with denormals flushed to a signed zero.
fn ftz(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

/// `a + b × c`, rounded after the multiply and after the add, denormals flushed.
fn mad(a: f32, b: f32, c: f32) -> f32 {
    ftz(ftz(a) + ftz(ftz(b) * ftz(c)))
}

/// The interpolated value of channel `c` of attribute `at` (P10 and P20 as f32
/// differences).
fn interp(at: &[[f32; 4]; 3], c: usize, i: f32, j: f32) -> f32 {
    let p0 = at[0][c];
    let p10 = at[1][c] - at[0][c];
    let p20 = at[2][c] - at[0][c];
    mad(mad(p0, i, p10), j, p20)
}

/// f32 → f16 rounding toward zero (the shader sets MODE's f16 rounding so), f16 denormals
/// flushed (MODE 0), widened back to f32.
fn f16_rtz(x: f32) -> f32 {
    let min_normal = 2f32.powi(-14);
    if x.abs() < min_normal {
        return 0.0f32.copysign(x);
    }
    if x.abs() > 65504.0 {
        return 65504f32.copysign(x);
    }
    // Keep 10 fraction bits: clear the low 13 of the f32's 23.
    f32::from_bits(x.to_bits() & !0x1fff)
}

/// The f16 interpolation of GCN 1.2 as the example uses it: f16 parameters (the f32
/// differences rounded to nearest even) widened, two f32 multiply-adds, rounded to f16.
fn interp_f16(at: &[[f32; 4]; 3], c: usize, i: f32, j: f32) -> f32 {
    let h = |x: f32| ftz(half::f16::from_f32(x).to_f32());
    let p0 = h(at[0][c]);
    let p10 = h(at[1][c] - at[0][c]);
    let p20 = h(at[2][c] - at[0][c]);
    f16_rtz(mad(mad(p0, i, p10), j, p20))
}

/// The reference image of `mrt` for a shader computing `colour(triangle, fragment)`.
fn reference(s: &Scene, colour: impl Fn(usize, &Frag) -> [f32; 4]) -> Vec<[f32; 4]> {
    let mut img = vec![s.clear; (s.width * s.height) as usize];
    for (t, tri) in s.triangles.iter().enumerate() {
        for f in fragments(tri.v, s.width, s.height) {
            img[(f.y * s.width + f.x) as usize] = colour(t, &f);
        }
    }
    img
}

fn same_bits(got: &RenderTargets, mrt: usize, want: &[[f32; 4]], what: &str) {
    let t = got.mrt[mrt]
        .as_ref()
        .unwrap_or_else(|| panic!("{what}: mrt{mrt} not written"));
    assert_eq!(t.len(), want.len());
    for (k, (g, w)) in t.iter().zip(want).enumerate() {
        let gb = g.map(f32::to_bits);
        let wb = w.map(f32::to_bits);
        assert_eq!(
            gb,
            wb,
            "{what}: mrt{mrt} pixel ({}, {}): {g:?} vs reference {w:?}",
            k as u32 % got.width,
            k as u32 / got.width
        );
    }
}

fn run(s: &Scene, sh: &PixelShader, engine: Engine) -> RenderTargets {
    let opts = DrawOptions {
        engine,
        ..DrawOptions::default()
    };
    draw::draw(s, sh, opts)
        .unwrap_or_else(|e| panic!("{engine}: {e}"))
        .0
}

// ---- the examples --------------------------------------------------------------------------

#[test]
fn gradient_matches_the_reference_everywhere() {
    for (gen, cpu) in GENS {
        let Some(sh) = compile("gradient", cpu) else {
            return;
        };
        let s = scene("gradient", gen);
        let want = reference(&s, |t, f| {
            let at = &s.triangles[t].attrs[0];
            [
                interp(at, 0, f.i, f.j),
                interp(at, 1, f.i, f.j),
                interp(at, 2, f.i, f.j),
                1.0,
            ]
        });
        assert!(
            want.iter().any(|p| *p != s.clear),
            "the triangle covers pixels"
        );
        for e in ENGINES {
            same_bits(&run(&s, &sh, e), 0, &want, &format!("gradient {gen} {e}"));
        }
    }
}

#[test]
fn flat_shading_takes_vertex_0_everywhere() {
    for (gen, cpu) in GENS {
        let Some(sh) = compile("flat", cpu) else {
            return;
        };
        let s = scene("flat", gen);
        let want = reference(&s, |t, _| s.triangles[t].attrs[0][0]);
        for e in ENGINES {
            same_bits(&run(&s, &sh, e), 0, &want, &format!("flat {gen} {e}"));
        }
    }
}

#[test]
fn two_render_targets_get_colour_and_coordinates() {
    for (gen, cpu) in GENS {
        let Some(sh) = compile("two_mrt", cpu) else {
            return;
        };
        let s = scene("two_mrt", gen);
        let colour = reference(&s, |t, f| {
            let at = &s.triangles[t].attrs[0];
            [0, 1, 2, 3].map(|c| interp(at, c, f.i, f.j))
        });
        // x/64 and y/64 of the pixel centre: exact (a power of two).
        let coords = reference(&s, |_, f| {
            [
                f.i,
                f.j,
                (f.x as f32 + 0.5) / 64.0,
                (f.y as f32 + 0.5) / 64.0,
            ]
        });
        for e in ENGINES {
            let got = run(&s, &sh, e);
            let what = format!("two_mrt {gen} {e}");
            same_bits(&got, 0, &colour, &what);
            same_bits(&got, 1, &coords, &what);
            assert!(
                got.mrt[2..].iter().all(Option::is_none),
                "{what}: only two targets"
            );
        }
    }
}

#[test]
fn f16_interpolation_on_gfx8_with_a_compressed_export() {
    let Some(sh) = compile("half", "tonga") else {
        return;
    };
    let s = scene("half", Gen::Gfx8);
    let want = reference(&s, |t, f| {
        let at = &s.triangles[t].attrs[0];
        [
            interp_f16(at, 0, f.i, f.j),
            interp_f16(at, 1, f.i, f.j),
            interp_f16(at, 2, f.i, f.j),
            1.0,
        ]
    });
    for e in ENGINES {
        same_bits(&run(&s, &sh, e), 0, &want, &format!("half {e}"));
    }
}

// ---- hand-written shaders (no llc needed) ------------------------------------------------------

fn text_shader(gen: Gen, text: &str) -> PixelShader {
    let dir = std::env::temp_dir().join(format!("wavejit-draw-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut h = std::collections::hash_map::DefaultHasher::new();
    std::hash::Hash::hash(&(gen.to_string(), text), &mut h);
    let p: &Path = &dir.join(format!("s{:016x}.s", std::hash::Hasher::finish(&h)));
    std::fs::write(p, text).expect("write");
    PixelShader::from_file(p, gen).expect("assembles")
}

const TWO_TRIANGLES: &str = r#"{"arch": "gfx8", "width": 20, "height": 12, "clear": [0.5, 0.5, 0.5, 0.5],
    "spi_ps_input_ena": 4864,
    "triangles": [{"v": [[0, 0], [20, 0], [0, 12]]}, {"v": [[20, 12], [0, 12], [20, 0]]},
                  {"v": [[1, 1], [2, 2], [3, 3]]}]}"#;

#[test]
fn positions_and_front_face_reach_the_shader() {
    // SPI_PS_INPUT_ENA 4864 = POS_X (bit 8) | POS_Y (9) | FRONT_FACE (12): v0 = x + 0.5,
    // v1 = y + 0.5, v2 = ±1.0. The first triangle is clockwise on the screen (front), the
    // second too; the third has no area and draws nothing.
    let text = "v_mov_b32 v3, 1.0\nexp mrt0 v0, v1, v2, v3 done vm\ns_endpgm\n";
    for gen in [Gen::Gfx6, Gen::Gfx8] {
        let mut s = Scene::from_json(TWO_TRIANGLES).expect("scene");
        s.arch = gen;
        let sh = text_shader(gen, text);
        let want = reference(&s, |t, f| {
            let v = s.triangles[t].v;
            let front = cross(v[0], v[1], v[2]) > 0.0;
            [
                f.x as f32 + 0.5,
                f.y as f32 + 0.5,
                if front { 1.0 } else { -1.0 },
                1.0,
            ]
        });
        assert!(
            want.iter().all(|p| p[3] == 1.0),
            "the two triangles tile the viewport"
        );
        for e in ENGINES {
            same_bits(&run(&s, &sh, e), 0, &want, &format!("positions {gen} {e}"));
        }
        // Wound the other way, the same pixels are back-facing.
        let mut back = s.clone();
        for t in &mut back.triangles {
            t.v.swap(1, 2);
        }
        let got = run(&back, &sh, Engine::Interp);
        assert_eq!(got.pixel(0, 3, 4), [3.5, 4.5, -1.0, 1.0]);
    }
}

#[test]
fn killed_pixels_write_nothing_even_from_earlier_exports() {
    // MRT0 is exported with every pixel live; then pixels with x + 0.5 < 10 are killed
    // (v_cmpx) and the valid mask goes out with the last, VM, export. Killed pixels keep
    // the clear colour in MRT0 although they were in EXEC at its export.
    let text = "v_mov_b32 v3, 1.0\n\
                exp mrt0 v0, v1, v2, v3\n\
                v_cmpx_lt_f32 vcc, 0x41200000, v0\n\
                exp null off, off, off, off done vm\n\
                s_endpgm\n";
    let s = Scene::from_json(TWO_TRIANGLES).expect("scene");
    let sh = text_shader(Gen::Gfx8, text);
    for e in ENGINES {
        let got = run(&s, &sh, e);
        for y in 0..12 {
            for x in 0..20 {
                let p = got.pixel(0, x, y);
                if (x as f32 + 0.5) > 10.0 {
                    assert_eq!(p[0], x as f32 + 0.5, "{e} ({x}, {y}) live");
                } else {
                    assert_eq!(p, [0.5; 4], "{e} ({x}, {y}) killed");
                }
            }
        }
    }
}

#[test]
fn helper_pixels_run_for_derivatives_but_do_not_write() {
    // s_wqm_b64 turns on the helper lanes of each quad; DPP quad_perm:[1,1,3,3] gives each
    // lane the x of its quad's right column: x_right - x = ddx, 1.0 on the left column and
    // 0.0 on the right, whatever the coverage. EXEC is put back before the export.
    let text = "s_mov_b64 s[4:5], exec\n\
                s_wqm_b64 exec, exec\n\
                v_mov_b32_dpp v4, v0 quad_perm:[1,1,3,3] row_mask:0xf bank_mask:0xf\n\
                v_sub_f32 v4, v4, v0\n\
                s_mov_b64 exec, s[4:5]\n\
                v_mov_b32 v3, 1.0\n\
                exp mrt0 v4, v1, v2, v3 done vm\n\
                s_endpgm\n";
    // A thin triangle: many quads have one or two covered pixels.
    let scene = r#"{"arch": "gfx8", "width": 16, "height": 16, "clear": [9, 9, 9, 9],
        "spi_ps_input_ena": 4864, "triangles": [{"v": [[0.3, 0.2], [15.7, 9.1], [1.1, 2.9]]}]}"#;
    let s = Scene::from_json(scene).expect("scene");
    let sh = text_shader(Gen::Gfx8, text);
    let covered = fragments(s.triangles[0].v, 16, 16);
    assert!(
        covered.iter().any(|f| f.x % 2 == 1),
        "a right-column pixel is covered"
    );
    for e in ENGINES {
        let got = run(&s, &sh, e);
        for y in 0..16 {
            for x in 0..16 {
                let p = got.pixel(0, x, y);
                if covered.iter().any(|f| f.x == x && f.y == y) {
                    let ddx = if x % 2 == 0 { 1.0 } else { 0.0 };
                    assert_eq!(p[0], ddx, "{e} ({x}, {y})");
                } else {
                    assert_eq!(p, [9.0; 4], "{e} ({x}, {y}) is not covered");
                }
            }
        }
    }
}

#[test]
fn hostile_shaders_fail_with_a_positioned_error() {
    let s = Scene::from_json(TWO_TRIANGLES).expect("scene");
    // Reading attribute 3 of a scene without attributes: outside the LDS.
    let sh = text_shader(
        Gen::Gfx8,
        "s_mov_b32 m0, s2\nv_interp_mov_f32 v5, p0, attr3.x\ns_endpgm\n",
    );
    for e in ENGINES {
        let err = draw::draw(
            &s,
            &sh,
            DrawOptions {
                engine: e,
                ..DrawOptions::default()
            },
        )
        .expect_err("out of LDS")
        .to_string();
        assert!(err.contains("wave 0") && err.contains("lds"), "{e}: {err}");
    }
    // An endless loop stops at the budget.
    let sh = text_shader(Gen::Gfx8, "s_branch -1\n");
    let opts = DrawOptions {
        engine: Engine::Jit,
        max_insts: 1000,
    };
    let err = draw::draw(&s, &sh, opts).expect_err("loops").to_string();
    assert!(err.contains("instruction limit of 1000"), "{err}");
    // A shader for another generation.
    if let Some(sh) = compile("flat", "tahiti") {
        let err = draw::draw(&s, &sh, DrawOptions::default())
            .expect_err("gfx6 object")
            .to_string();
        assert!(err.contains("compiled for gfx6"), "{err}");
    }
}

// ---- render-target formats and MRTZ ---------------------------------------------------------

/// A gradient in a hand-written shader: attribute 0 interpolated (PERSP_CENTER: I in v0,
/// J in v1), exported to MRT0-2 (formats from the scene) and, X only, to MRTZ; then POS,
/// PARAM and NULL exports that write nothing.
const FORMATS_SHADER: &str = "s_mov_b32 m0, s2\n\
    v_interp_p1_f32 v2, v0, attr0.x\n\
    v_interp_p2_f32 v2, v1, attr0.x\n\
    v_interp_p1_f32 v3, v0, attr0.y\n\
    v_interp_p2_f32 v3, v1, attr0.y\n\
    v_interp_p1_f32 v4, v0, attr0.z\n\
    v_interp_p2_f32 v4, v1, attr0.z\n\
    v_interp_p1_f32 v5, v0, attr0.w\n\
    v_interp_p2_f32 v5, v1, attr0.w\n\
    exp mrt0 v2, v3, v4, v5\n\
    exp mrt1 v2, v3, v4, v5\n\
    exp mrt2 v2, v3, v4, v5\n\
    exp mrtz v2, off, off, off\n\
    exp pos0 v2, v3, v4, v5\n\
    exp param7 v2, off, off, off\n\
    exp null off, off, off, off done vm\n\
    s_endpgm\n";

/// Channel values beyond [0, 1] (clamped by UNORM) and beyond f16's precision.
const FORMATS_SCENE: &str = r#"{"arch": "gfx8", "width": 24, "height": 16, "clear": [0, 0, 0, 0],
    "spi_ps_input_ena": 2,
    "formats": ["rgba8_unorm", "rgba16f", "r32f"],
    "clears": [[0.5, 0.25, 2, -1], [0.1, 1, -2, 65504], [7.5, 8, 9, 10]],
    "clear_depth": 0.75,
    "triangles": [{"v": [[1, 1], [23, 3], [4, 15.5]],
                   "attrs": [[[1.5, -0.25, 0.3, 1], [0, 1, 0.7, 1], [0.2, 0.5, 2, 0.123456]]]},
                  {"v": [[23, 15], [6, 15], [23, 5]],
                   "attrs": [[[0.01, 0.99, 0.5, 0.5], [1, 1, 1, 1], [-3, 1000.3, 3.3, 0]]]}]}"#;

/// The reference's own conversions: 8-bit UNORM (NaN → 0, clamp, × 255, nearest with
/// ties away from zero, / 255) and f16 (the `half` crate's nearest-even rounding).
fn unorm(x: f32) -> f32 {
    let x = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
    (x * 255.0).round() / 255.0
}

fn f16(x: f32) -> f32 {
    half::f16::from_f32(x).to_f32()
}

#[test]
fn render_target_formats_hold_the_reference_converted() {
    for gen in [Gen::Gfx6, Gen::Gfx7, Gen::Gfx8] {
        let mut s = Scene::from_json(FORMATS_SCENE).expect("scene");
        s.arch = gen;
        let sh = text_shader(gen, FORMATS_SHADER);
        let colour = |t: usize, f: &Frag| -> [f32; 4] {
            let at = &s.triangles[t].attrs[0];
            [0, 1, 2, 3].map(|c| interp(at, c, f.i, f.j))
        };
        // Each target's clear colour converted, then the covered pixels' colours.
        let image = |clear: [f32; 4], conv: &dyn Fn([f32; 4]) -> [f32; 4]| {
            let mut img = vec![conv(clear); (s.width * s.height) as usize];
            for (t, tri) in s.triangles.iter().enumerate() {
                for f in fragments(tri.v, s.width, s.height) {
                    img[(f.y * s.width + f.x) as usize] = conv(colour(t, &f));
                }
            }
            img
        };
        let rgba8 = image([0.5, 0.25, 2.0, -1.0], &|p| p.map(unorm));
        let rgba16 = image([0.1, 1.0, -2.0, 65504.0], &|p| p.map(f16));
        let r32 = image([7.5, 8.0, 9.0, 10.0], &|p| [p[0], 0.0, 0.0, 1.0]);
        let depth = image([0.75, 0.0, 0.0, 0.0], &|p| [p[0], 0.0, 0.0, 0.0]);
        // Hand-worked clears: 0.5 → 128/255, 0.25 → 64/255 (63.75 rounds up), 2 → 1, -1 → 0.
        assert_eq!(rgba8[0], [128.0 / 255.0, 64.0 / 255.0, 1.0, 0.0]);
        assert!(
            rgba8.iter().any(|p| p[0] == 1.0 && p != &rgba8[0]),
            "clamped"
        );
        for e in ENGINES {
            let opts = DrawOptions {
                engine: e,
                ..DrawOptions::default()
            };
            let (got, st) = draw::draw(&s, &sh, opts).unwrap_or_else(|x| panic!("{e}: {x}"));
            let what = format!("formats {gen} {e}");
            same_bits(&got, 0, &rgba8, &what);
            same_bits(&got, 1, &rgba16, &what);
            same_bits(&got, 2, &r32, &what);
            let z = got.mrtz.as_ref().expect("MRTZ written");
            for (k, (g, w)) in z.iter().zip(&depth).enumerate() {
                assert_eq!(
                    g.map(f32::to_bits),
                    w.map(f32::to_bits),
                    "{what}: mrtz pixel {k}"
                );
            }
            // One export of each kind per wave; MRT3-7 never written.
            let n = st.waves as u64;
            let x = st.exports;
            assert_eq!((x.mrt, x.mrtz, x.pos, x.param, x.null), (3 * n, n, n, n, n));
            assert!(got.mrt[3..].iter().all(Option::is_none), "{what}");
            // The raw bytes are the formats' own: 4 bytes, 4 halves, 1 f32 per pixel.
            let px = (s.width * s.height) as usize;
            assert_eq!(got.raw_bytes(0).expect("mrt0").len(), 4 * px);
            assert_eq!(got.raw_bytes(1).expect("mrt1").len(), 8 * px);
            assert_eq!(got.raw_bytes(2).expect("mrt2").len(), 4 * px);
            // Pixel (0, 0) is outside both triangles: the clears' bytes.
            assert_eq!(&got.raw_bytes(0).expect("mrt0")[..4], &[128, 64, 255, 0]);
            assert_eq!(
                &got.raw_bytes(1).expect("mrt1")[..8],
                &[0x66, 0x2e, 0x00, 0x3c, 0x00, 0xc0, 0xff, 0x7b]
            );
            assert_eq!(
                &got.raw_depth_bytes().expect("mrtz")[..4],
                &0.75f32.to_le_bytes()
            );
        }
    }
}
