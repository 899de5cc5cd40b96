//! The scene of `wavejit draw`: a JSON file naming the generation, the viewport, the clear
//! colour and the triangles with their per-vertex attributes, read with serde and checked
//! before anything is drawn (every number finite, sizes bounded, every triangle with the
//! same number of attributes).
//!
//! ```json
//! {"arch": "gfx8", "width": 64, "height": 48, "clear": [0, 0, 0, 1],
//!  "triangles": [{"v": [[4, 4], [60, 10], [20, 44]],
//!                 "attrs": [[[1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1]]]}]}
//! ```
//!
//! Positions are window coordinates (pixels, y down, pixel centres at +0.5). `attrs[a][k]`
//! is attribute `a` at vertex `k`; I and J, the interpolation coordinates, are the
//! barycentric weights of vertices 1 and 2 (w = 1: perspective and linear are the same).
//! Optional keys: `spi_ps_input_ena` (required for a `.s` shader, which has no
//! configuration of its own; an ELF's wins otherwise), `prim_mask_sgpr` (the SGPR that
//! receives the primitive mask, M0's value; default 2, where LLVM's mesa3d convention puts
//! the first `inreg` argument after the two-SGPR implicit buffer pointer), `mode` (the
//! MODE register at wave start; default: the shader's SPI_SHADER_PGM_RSRC1_PS FLOAT_MODE,
//! or 0xC0 for a `.s` shader), `params` (`"f32"`, the default, or `"f16"`: each parameter
//! dword holds the f16 of the parameter, rounded to nearest even, in both halves, for the
//! f16 interpolation instructions of GCN 1.2), `formats` (per MRT, in order: `"rgba32f"`,
//! the default, `"rgba16f"`, `"rgba8_unorm"`, `"rg32f"`, `"rg16f"`, `"r32f"`, `"r16f"`,
//! `"r8_unorm"`; `target` says how each stores), `clears` (per MRT, in order: its clear
//! colour; `clear` for the others), `clear_depth` (MRTZ's Z where nothing exported,
//! default 1).

use serde::Deserialize;
use wavejit_isa::Gen;

use super::error::DrawError;
use super::target::{Format, RenderTargets};

/// The largest width or height.
pub const MAX_DIM: u32 = 8192;
/// The most pixels of a viewport: each of the eight colour targets and MRTZ holds 16
/// bytes per pixel (1.2 GiB with all nine written).
pub const MAX_PIXELS: u64 = 1 << 23;
/// The most attributes a triangle may carry (the PARAM exports of a vertex shader).
pub const MAX_ATTRS: usize = 32;
/// The most triangles of a scene.
pub const MAX_TRIANGLES: usize = 1 << 20;

/// A triangle: three positions and, per attribute, a value at each vertex.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Triangle {
    pub v: [[f64; 2]; 3],
    #[serde(default)]
    pub attrs: Vec<[[f32; 4]; 3]>,
}

/// How parameters are stored in LDS.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ParamFormat {
    /// One f32 per dword.
    #[default]
    F32,
    /// The f16 of the f32 parameter in both halves of the dword.
    F16,
}

/// A parsed and checked scene.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scene {
    #[serde(deserialize_with = "gen_name")]
    pub arch: Gen,
    pub width: u32,
    pub height: u32,
    #[serde(default)]
    pub clear: [f32; 4],
    pub triangles: Vec<Triangle>,
    #[serde(default)]
    pub spi_ps_input_ena: Option<u32>,
    #[serde(default)]
    pub prim_mask_sgpr: Option<u8>,
    #[serde(default)]
    pub mode: Option<u32>,
    #[serde(default)]
    pub params: ParamFormat,
    /// The format of MRT i (`rgba32f` past the end).
    #[serde(default)]
    pub formats: Vec<Format>,
    /// The clear colour of MRT i (`clear` past the end).
    #[serde(default)]
    pub clears: Vec<[f32; 4]>,
    #[serde(default = "one")]
    pub clear_depth: f32,
}

fn one() -> f32 {
    1.0
}

fn gen_name<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Gen, D::Error> {
    let s = String::deserialize(d)?;
    s.parse::<Gen>().map_err(serde::de::Error::custom)
}

impl Scene {
    /// Parse and check scene JSON.
    pub fn from_json(text: &str) -> Result<Scene, DrawError> {
        let s: Scene = serde_json::from_str(text).map_err(|e| DrawError::Scene {
            msg: format!("line {} column {}: {e}", e.line(), e.column()),
        })?;
        s.check()?;
        Ok(s)
    }

    /// The scene's render targets, cleared, in their formats.
    pub fn targets(&self) -> RenderTargets {
        let formats = std::array::from_fn(|i| self.formats.get(i).copied().unwrap_or_default());
        let clears = std::array::from_fn(|i| self.clears.get(i).copied().unwrap_or(self.clear));
        RenderTargets::with_formats(self.width, self.height, formats, clears, self.clear_depth)
    }

    /// The number of attributes of every triangle (0 without triangles).
    pub fn attr_count(&self) -> usize {
        self.triangles.first().map_or(0, |t| t.attrs.len())
    }

    fn check(&self) -> Result<(), DrawError> {
        let bad = |msg: String| Err(DrawError::Scene { msg });
        if self.width == 0 || self.height == 0 || self.width > MAX_DIM || self.height > MAX_DIM {
            return bad(format!(
                "the viewport is {}x{}; each side must be 1-{MAX_DIM}",
                self.width, self.height
            ));
        }
        if self.width as u64 * self.height as u64 > MAX_PIXELS {
            return bad(format!("the viewport has more than {MAX_PIXELS} pixels"));
        }
        if self.triangles.len() > MAX_TRIANGLES {
            return bad(format!("more than {MAX_TRIANGLES} triangles"));
        }
        if self.clear.iter().any(|c| !c.is_finite()) {
            return bad("the clear colour is not finite".into());
        }
        if self.formats.len() > 8 || self.clears.len() > 8 {
            return bad(format!(
                "{} formats and {} clear colours: there are 8 render targets",
                self.formats.len(),
                self.clears.len()
            ));
        }
        if let Some(i) = self
            .clears
            .iter()
            .position(|c| c.iter().any(|x| !x.is_finite()))
        {
            return bad(format!("clears[{i}] is not finite"));
        }
        if !self.clear_depth.is_finite() {
            return bad("clear_depth is not finite".into());
        }
        if self.prim_mask_sgpr.is_some_and(|s| s > 103) {
            return bad("prim_mask_sgpr must name s0-s103".into());
        }
        let n = self.attr_count();
        if n > MAX_ATTRS {
            return bad(format!("{n} attributes; at most {MAX_ATTRS}"));
        }
        for (i, t) in self.triangles.iter().enumerate() {
            if t.v
                .iter()
                .flatten()
                .any(|x| !x.is_finite() || x.abs() > 1e9)
            {
                return bad(format!(
                    "triangle {i}: a position is not finite or beyond ±1e9"
                ));
            }
            if t.attrs.len() != n {
                return bad(format!(
                    "triangle {i} has {} attributes, triangle 0 has {n}",
                    t.attrs.len()
                ));
            }
            if t.attrs.iter().flatten().flatten().any(|x| !x.is_finite()) {
                return bad(format!("triangle {i}: an attribute is not finite"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_example_parses() {
        let s = Scene::from_json(
            r#"{"arch": "gfx8", "width": 64, "height": 48, "clear": [0, 0, 0, 1],
                "triangles": [{"v": [[4, 4], [60, 10], [20, 44]],
                "attrs": [[[1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1]]]}]}"#,
        )
        .expect("parses");
        assert_eq!(s.arch, Gen::Gfx8);
        assert_eq!((s.width, s.height), (64, 48));
        assert_eq!(s.triangles[0].v[1], [60.0, 10.0]);
        assert_eq!(s.triangles[0].attrs[0][2], [0.0, 0.0, 1.0, 1.0]);
        assert_eq!(s.attr_count(), 1);
    }

    #[test]
    fn hostile_scenes_are_refused_with_their_place() {
        let cases = [
            (
                r#"{"arch": "gfx9", "width": 1, "height": 1, "triangles": []}"#,
                "gfx9",
            ),
            (
                r#"{"arch": "gfx6", "width": 0, "height": 1, "triangles": []}"#,
                "0x1",
            ),
            (
                r#"{"arch": "gfx6", "width": 9000, "height": 1, "triangles": []}"#,
                "9000x1",
            ),
            (
                r#"{"arch": "gfx6", "width": 4, "height": 4, "triangles":
                   [{"v": [[0, 0], [1, 0], [0, 1]], "attrs": [[[0,0,0,0],[0,0,0,0],[0,0,0,0]]]},
                    {"v": [[0, 0], [1, 0], [0, 1]]}]}"#,
                "triangle 1 has 0 attributes",
            ),
            (
                r#"{"arch": "gfx6", "width": 4, "height": 4, "triangles":
                   [{"v": [[0, 0], [1e300, 0], [0, 1]]}]}"#,
                "triangle 0",
            ),
            (
                r#"{"arch": "gfx6", "width": 4, "height": 4, "triangles": [], "x": 1}"#,
                "line 1",
            ),
            (r#"{"arch": "gfx6", "width": 4"#, "line 1"),
            (
                r#"{"arch": "gfx6", "width": 4, "height": 4, "triangles": [],
                   "formats": ["rgba8_unorm", "rgb9e5"]}"#,
                "rgb9e5",
            ),
            (
                r#"{"arch": "gfx6", "width": 4, "height": 4, "triangles": [],
                   "formats": ["r32f","r32f","r32f","r32f","r32f","r32f","r32f","r32f","r32f"]}"#,
                "9 formats",
            ),
            (
                r#"{"arch": "gfx6", "width": 4, "height": 4, "triangles": [],
                   "clears": [[0, 0, 0, 0], [0, 1e39, 0, 0]]}"#,
                "clears[1]",
            ),
        ];
        for (text, want) in cases {
            let e = Scene::from_json(text).expect_err(text).to_string();
            assert!(e.contains(want), "{text}: {e}");
        }
    }
}
