//! Render targets: up to eight colour targets (MRT0-7), each in its scene format
//! (`Format`, default RGBA f32) and made on the first export to it, filled with its clear
//! colour; and the MRTZ output (depth, stencil, sample mask, alpha as exported, f32).
//!
//! A target keeps each pixel as the f32 values its format can hold: a written value (and
//! the clear colour) is converted to the format and back, so that what `pixel` returns is
//! what the format stores. Conversions: f32 as is; f16 rounded to nearest even (NaN stays
//! NaN); 8-bit UNORM with NaN as 0, clamped to [0, 1], times 255, rounded to nearest
//! (ties away from zero). Channels a format lacks read as 0 (G, B) and 1 (A), as a
//! texture fetch would return them, and exported values for them are dropped.
//!
//! Files: `mrtN.png` (8-bit RGBA: each channel as 8-bit UNORM, as above) and, on
//! request, `mrtN.<f32|f16|u8>` (the format's own bytes: W x H x channels, little-endian,
//! row-major from the top row) and `mrtz.f32` (W x H x 4 f32: Z, stencil, sample mask,
//! alpha of the MRTZ export, unwritten pixels = (clear_depth, 0, 0, 0)).

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::error::DrawError;

/// The storage format of a colour target.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum Format {
    #[default]
    #[serde(rename = "rgba32f")]
    Rgba32f,
    #[serde(rename = "rgba16f")]
    Rgba16f,
    #[serde(rename = "rgba8_unorm")]
    Rgba8Unorm,
    #[serde(rename = "rg32f")]
    Rg32f,
    #[serde(rename = "rg16f")]
    Rg16f,
    #[serde(rename = "r32f")]
    R32f,
    #[serde(rename = "r16f")]
    R16f,
    #[serde(rename = "r8_unorm")]
    R8Unorm,
}

/// How a format stores one channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Channel {
    F32,
    F16,
    Unorm8,
}

impl Format {
    /// The channels stored (R, RG or RGBA).
    pub fn channels(self) -> usize {
        match self {
            Format::Rgba32f | Format::Rgba16f | Format::Rgba8Unorm => 4,
            Format::Rg32f | Format::Rg16f => 2,
            Format::R32f | Format::R16f | Format::R8Unorm => 1,
        }
    }

    fn channel(self) -> Channel {
        match self {
            Format::Rgba32f | Format::Rg32f | Format::R32f => Channel::F32,
            Format::Rgba16f | Format::Rg16f | Format::R16f => Channel::F16,
            Format::Rgba8Unorm | Format::R8Unorm => Channel::Unorm8,
        }
    }

    /// The extension of the raw file (the channel type).
    pub fn raw_extension(self) -> &'static str {
        match self.channel() {
            Channel::F32 => "f32",
            Channel::F16 => "f16",
            Channel::Unorm8 => "u8",
        }
    }

    /// `x` as channel `c` of this format holds it (f32 again).
    pub fn store(self, c: usize, x: f32) -> f32 {
        if c >= self.channels() {
            return if c == 3 { 1.0 } else { 0.0 };
        }
        match self.channel() {
            Channel::F32 => x,
            Channel::F16 => half::f16::from_f32(x).to_f32(),
            Channel::Unorm8 => unorm8(x) as f32 / 255.0,
        }
    }

    /// The bytes of a stored channel value.
    fn put_bytes(self, x: f32, out: &mut Vec<u8>) {
        match self.channel() {
            Channel::F32 => out.extend_from_slice(&x.to_le_bytes()),
            Channel::F16 => out.extend_from_slice(&half::f16::from_f32(x).to_bits().to_le_bytes()),
            Channel::Unorm8 => out.push(unorm8(x)),
        }
    }
}

/// The render targets of one draw.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderTargets {
    pub width: u32,
    pub height: u32,
    /// The format of each MRT.
    pub formats: [Format; 8],
    /// The clear colour of each MRT (as its format holds it).
    pub clears: [[f32; 4]; 8],
    /// MRT i's pixels (row-major), `None` while nothing exported to it.
    pub mrt: [Option<Vec<[f32; 4]>>; 8],
    /// MRTZ's Z at pixels nothing exported to.
    pub clear_depth: f32,
    /// The MRTZ export's four channels per pixel, `None` while nothing exported to it.
    pub mrtz: Option<Vec<[f32; 4]>>,
}

impl RenderTargets {
    /// RGBA f32 targets cleared to `clear`, MRTZ cleared to Z = 1.
    pub fn new(width: u32, height: u32, clear: [f32; 4]) -> RenderTargets {
        RenderTargets::with_formats(width, height, [Format::Rgba32f; 8], [clear; 8], 1.0)
    }

    /// Targets in `formats`, cleared to `clears` (converted to each format).
    pub fn with_formats(
        width: u32,
        height: u32,
        formats: [Format; 8],
        clears: [[f32; 4]; 8],
        clear_depth: f32,
    ) -> RenderTargets {
        let clears = std::array::from_fn(|i| {
            let f = formats[i];
            std::array::from_fn(|c| f.store(c, clears[i][c]))
        });
        RenderTargets {
            width,
            height,
            formats,
            clears,
            mrt: Default::default(),
            clear_depth,
            mrtz: None,
        }
    }

    fn pixels(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// Write channel `c` of pixel `at` of MRT `i` (made, cleared, on first use); a channel
    /// the format lacks is dropped.
    pub fn write(&mut self, i: usize, at: usize, c: usize, x: f32) {
        let (n, f, clear) = (self.pixels(), self.formats[i & 7], self.clears[i & 7]);
        if c >= f.channels() {
            return;
        }
        let t = self.mrt[i & 7].get_or_insert_with(|| vec![clear; n]);
        if let Some(p) = t.get_mut(at) {
            p[c & 3] = f.store(c, x);
        }
    }

    /// Write channel `c` of pixel `at` of MRTZ.
    pub fn write_z(&mut self, at: usize, c: usize, x: f32) {
        let (n, z) = (self.pixels(), self.clear_depth);
        let t = self.mrtz.get_or_insert_with(|| vec![[z, 0.0, 0.0, 0.0]; n]);
        if let Some(p) = t.get_mut(at) {
            p[c & 3] = x;
        }
    }

    /// Pixel (x, y) of MRT `i`: the clear colour where nothing was written.
    pub fn pixel(&self, i: usize, x: u32, y: u32) -> [f32; 4] {
        let at = y as usize * self.width as usize + x as usize;
        self.mrt[i & 7]
            .as_ref()
            .and_then(|t| t.get(at).copied())
            .unwrap_or(self.clears[i & 7])
    }

    /// MRTZ at (x, y): (Z, stencil, sample mask, alpha), `None` without an MRTZ export.
    pub fn depth(&self, x: u32, y: u32) -> Option<[f32; 4]> {
        let at = y as usize * self.width as usize + x as usize;
        self.mrtz.as_ref().and_then(|t| t.get(at).copied())
    }

    /// MRT `i` in its format's own bytes.
    pub fn raw_bytes(&self, i: usize) -> Option<Vec<u8>> {
        let t = self.mrt[i & 7].as_ref()?;
        let f = self.formats[i & 7];
        let mut out = Vec::with_capacity(t.len() * 16);
        for p in t {
            for &x in &p[..f.channels()] {
                f.put_bytes(x, &mut out);
            }
        }
        Some(out)
    }

    /// MRTZ as raw little-endian f32s (four per pixel).
    pub fn raw_depth_bytes(&self) -> Option<Vec<u8>> {
        let t = self.mrtz.as_ref()?;
        Some(t.iter().flatten().flat_map(|f| f.to_le_bytes()).collect())
    }

    /// MRT `i` as a PNG file's bytes.
    pub fn png_bytes(&self, i: usize) -> Result<Option<Vec<u8>>, DrawError> {
        let Some(t) = self.mrt[i & 7].as_ref() else {
            return Ok(None);
        };
        let pixels: Vec<u8> = t.iter().flatten().map(|&c| unorm8(c)).collect();
        let mut out = Vec::new();
        let mut enc = png::Encoder::new(&mut out, self.width, self.height);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let png_err = |e: png::EncodingError| DrawError::Output(format!("PNG: {e}"));
        let mut w = enc.write_header().map_err(png_err)?;
        w.write_image_data(&pixels).map_err(png_err)?;
        w.finish().map_err(png_err)?;
        Ok(Some(out))
    }

    /// Write `DIR/mrtN.png` for every target written (and, with `raw`, `DIR/mrtN.<ext>`
    /// and `DIR/mrtz.f32`); returns the files written.
    pub fn save(&self, dir: &Path, raw: bool) -> Result<Vec<PathBuf>, DrawError> {
        let io = |p: &Path, e: std::io::Error| DrawError::Output(format!("{}: {e}", p.display()));
        std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
        let mut files = Vec::new();
        let mut put = |name: String, bytes: Vec<u8>| -> Result<(), DrawError> {
            let p = dir.join(name);
            std::fs::write(&p, bytes).map_err(|e| io(&p, e))?;
            files.push(p);
            Ok(())
        };
        for i in 0..8 {
            if let Some(png) = self.png_bytes(i)? {
                put(format!("mrt{i}.png"), png)?;
            }
            if raw {
                if let Some(b) = self.raw_bytes(i) {
                    put(format!("mrt{i}.{}", self.formats[i].raw_extension()), b)?;
                }
            }
        }
        if raw {
            if let Some(b) = self.raw_depth_bytes() {
                put("mrtz.f32".into(), b)?;
            }
        }
        Ok(files)
    }
}

/// A float channel as an 8-bit UNORM value.
pub fn unorm8(c: f32) -> u8 {
    if c.is_nan() {
        return 0;
    }
    (c.clamp(0.0, 1.0) * 255.0).round() as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unorm_conversion_clamps_and_rounds() {
        assert_eq!(unorm8(0.0), 0);
        assert_eq!(unorm8(1.0), 255);
        assert_eq!(unorm8(2.0), 255);
        assert_eq!(unorm8(-1.0), 0);
        assert_eq!(unorm8(f32::NAN), 0);
        // 0.5 × 255 = 127.5 rounds away from zero to 128; 0.2 × 255 = 51.
        assert_eq!(unorm8(0.5), 128);
        assert_eq!(unorm8(0.2), 51);
    }

    #[test]
    fn targets_start_cleared_and_raw_is_row_major_f32() {
        let mut t = RenderTargets::new(2, 2, [0.25, 0.0, 0.0, 1.0]);
        assert!(t.raw_bytes(0).is_none());
        for (c, x) in [1.0, 2.0, 3.0, 4.0].into_iter().enumerate() {
            t.write(0, 3, c, x);
        }
        let raw = t.raw_bytes(0).expect("made");
        assert_eq!(raw.len(), 2 * 2 * 16);
        assert_eq!(&raw[0..4], &0.25f32.to_le_bytes());
        assert_eq!(
            &raw[48..52],
            &1.0f32.to_le_bytes(),
            "pixel (1,1) is the 4th"
        );
        assert_eq!(t.pixel(0, 1, 1), [1.0, 2.0, 3.0, 4.0]);
        let png = t.png_bytes(0).expect("encodes").expect("made");
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    }

    #[test]
    fn formats_store_and_clear_as_hand_worked() {
        let mut formats = [Format::Rgba32f; 8];
        formats[1] = Format::Rgba8Unorm;
        formats[2] = Format::Rgba16f;
        formats[3] = Format::R32f;
        let mut clears = [[0.0; 4]; 8];
        // UNORM8: 0.5 × 255 = 127.5 → 128; 0.25 × 255 = 63.75 → 64; 1.0 → 255; 0 → 0.
        clears[1] = [0.5, 0.25, 1.0, 0.0];
        // f16: 0.1 is 0x2e66 (1.6 × 2^-4 rounded to 10 bits: 0x266 / 1024 + 1).
        clears[2] = [0.1, 1.0, -2.0, 65504.0];
        clears[3] = [7.5, 8.0, 9.0, 10.0];
        let mut t = RenderTargets::with_formats(1, 2, formats, clears, 1.0);
        assert_eq!(t.clears[1], [128.0 / 255.0, 64.0 / 255.0, 1.0, 0.0]);
        assert_eq!(t.clears[3], [7.5, 0.0, 0.0, 1.0], "R only: G, B = 0, A = 1");
        for i in 1..4 {
            t.write(i, 1, 0, 0.75);
            t.write(i, 1, 3, 70000.0);
        }
        // Pixel 0 keeps the clear colour in the format's bytes.
        let u8s = t.raw_bytes(1).expect("written");
        assert_eq!(
            u8s,
            vec![128, 64, 255, 0, 191, 64, 255, 255],
            "0.75 × 255 = 191.25"
        );
        let f16s = t.raw_bytes(2).expect("written");
        let h: Vec<u16> = f16s
            .chunks(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .collect();
        // 0.75 = 0x3a00; 70000 rounds past 65504 to +inf (0x7c00); G and B keep the clear.
        assert_eq!(
            h,
            vec![0x2e66, 0x3c00, 0xc000, 0x7bff, 0x3a00, 0x3c00, 0xc000, 0x7c00]
        );
        let r = t.raw_bytes(3).expect("written");
        assert_eq!(r.len(), 8, "one f32 per pixel");
        assert_eq!(&r[4..8], &0.75f32.to_le_bytes());
        assert_eq!(t.pixel(3, 0, 1), [0.75, 0.0, 0.0, 1.0], "A is dropped");
        assert_eq!(Format::R8Unorm.raw_extension(), "u8");
    }

    #[test]
    fn depth_starts_at_the_clear_depth() {
        let mut t = RenderTargets::new(2, 1, [0.0; 4]);
        assert!(t.raw_depth_bytes().is_none());
        t.write_z(1, 0, 0.25);
        assert_eq!(t.depth(0, 0), Some([1.0, 0.0, 0.0, 0.0]));
        assert_eq!(t.depth(1, 0), Some([0.25, 0.0, 0.0, 0.0]));
        let raw = t.raw_depth_bytes().expect("written");
        assert_eq!(raw.len(), 2 * 16);
        assert_eq!(&raw[16..20], &0.25f32.to_le_bytes());
    }
}
