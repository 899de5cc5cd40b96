//! Render targets: up to eight RGBA f32 images (MRT0-7), each made on the first export
//! to it and filled with the clear colour, written as PNG (8-bit RGBA: each channel
//! clamped to [0, 1], NaN as 0, times 255, rounded to nearest) and as raw floats
//! (`W x H x 4` little-endian f32, row-major from the top row).

use std::path::{Path, PathBuf};

use super::DrawError;

/// The render targets of one draw.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderTargets {
    pub width: u32,
    pub height: u32,
    pub clear: [f32; 4],
    /// MRT i's pixels (row-major), `None` while nothing exported to it.
    pub mrt: [Option<Vec<[f32; 4]>>; 8],
}

impl RenderTargets {
    pub fn new(width: u32, height: u32, clear: [f32; 4]) -> RenderTargets {
        RenderTargets {
            width,
            height,
            clear,
            mrt: Default::default(),
        }
    }

    /// MRT `i`'s pixels, made (cleared) on first use.
    pub fn target_mut(&mut self, i: usize) -> &mut Vec<[f32; 4]> {
        let n = self.width as usize * self.height as usize;
        let clear = self.clear;
        self.mrt[i & 7].get_or_insert_with(|| vec![clear; n])
    }

    /// Pixel (x, y) of MRT `i`: the clear colour where nothing was written.
    pub fn pixel(&self, i: usize, x: u32, y: u32) -> [f32; 4] {
        let at = y as usize * self.width as usize + x as usize;
        self.mrt[i & 7]
            .as_ref()
            .and_then(|t| t.get(at).copied())
            .unwrap_or(self.clear)
    }

    /// MRT `i` as raw little-endian f32s.
    pub fn raw_bytes(&self, i: usize) -> Option<Vec<u8>> {
        let t = self.mrt[i & 7].as_ref()?;
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

    /// Write `DIR/mrtN.png` for every target written (and `DIR/mrtN.f32` with `raw`);
    /// returns the files written.
    pub fn save(&self, dir: &Path, raw: bool) -> Result<Vec<PathBuf>, DrawError> {
        let io = |p: &Path, e: std::io::Error| DrawError::Output(format!("{}: {e}", p.display()));
        std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
        let mut files = Vec::new();
        for i in 0..8 {
            if let Some(png) = self.png_bytes(i)? {
                let p = dir.join(format!("mrt{i}.png"));
                std::fs::write(&p, png).map_err(|e| io(&p, e))?;
                files.push(p);
            }
            if raw {
                if let Some(b) = self.raw_bytes(i) {
                    let p = dir.join(format!("mrt{i}.f32"));
                    std::fs::write(&p, b).map_err(|e| io(&p, e))?;
                    files.push(p);
                }
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
        t.target_mut(0)[3] = [1.0, 2.0, 3.0, 4.0];
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
}
