//! The input VGPRs of a pixel-shader wave, as SPI_PS_INPUT_ENA asks for them: each enabled
//! input takes the next VGPRs, in the order of the register's bits (AMD's register
//! reference; LLVM's `amdgpu_ps` arguments follow it):
//!
//! | bit | input | VGPRs | value here |
//! |---|---|---|---|
//! | 0, 1, 2 | PERSP_SAMPLE, PERSP_CENTER, PERSP_CENTROID | 2 | I, J at the pixel centre |
//! | 3 | PERSP_PULL_MODEL | 3 | not supported |
//! | 4, 5, 6 | LINEAR_SAMPLE, LINEAR_CENTER, LINEAR_CENTROID | 2 | I, J at the pixel centre |
//! | 7 | LINE_STIPPLE_TEX | 1 | not supported |
//! | 8, 9 | POS_X_FLOAT, POS_Y_FLOAT | 1 each | the pixel centre, x + 0.5 and y + 0.5 |
//! | 10 | POS_Z_FLOAT | 1 | 0.0 (scenes have no depth) |
//! | 11 | POS_W_FLOAT | 1 | 1.0 (1/w with w = 1) |
//! | 12 | FRONT_FACE | 1 | +1.0 front-facing, −1.0 back-facing (a float by its sign) |
//! | 13 | ANCILLARY | 1 | not supported |
//! | 14 | SAMPLE_COVERAGE | 1 | 1 for a covered pixel, 0 for a helper (one sample) |
//! | 15 | POS_FIXED_PT | 1 | not supported |
//!
//! With one sample per pixel at its centre, the sample, centre and centroid positions of
//! a covered pixel are one point, and vertices have w = 1, so perspective and linear
//! interpolation agree: every I/J pair holds the same coordinates. A bit marked "not
//! supported", or any bit above 15, is refused before anything runs.

use super::error::DrawError;

/// One input the SPI writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// I in the first VGPR, J in the second.
    Ij,
    PosX,
    PosY,
    PosZ,
    PosW,
    FrontFace,
    SampleCoverage,
}

const NAMES: [&str; 16] = [
    "PERSP_SAMPLE",
    "PERSP_CENTER",
    "PERSP_CENTROID",
    "PERSP_PULL_MODEL",
    "LINEAR_SAMPLE",
    "LINEAR_CENTER",
    "LINEAR_CENTROID",
    "LINE_STIPPLE_TEX",
    "POS_X_FLOAT",
    "POS_Y_FLOAT",
    "POS_Z_FLOAT",
    "POS_W_FLOAT",
    "FRONT_FACE",
    "ANCILLARY",
    "SAMPLE_COVERAGE",
    "POS_FIXED_PT",
];

/// The inputs of `ena`, each with its first VGPR.
pub fn layout(ena: u32) -> Result<Vec<(Input, u8)>, DrawError> {
    if ena >> 16 != 0 {
        return Err(DrawError::Shader(format!(
            "SPI_PS_INPUT_ENA {ena:#x} has bits above 15"
        )));
    }
    let mut out = Vec::new();
    let mut next = 0u8;
    for (bit, name) in NAMES.iter().enumerate() {
        if ena >> bit & 1 == 0 {
            continue;
        }
        let input = match bit {
            0 | 1 | 2 | 4 | 5 | 6 => Input::Ij,
            8 => Input::PosX,
            9 => Input::PosY,
            10 => Input::PosZ,
            11 => Input::PosW,
            12 => Input::FrontFace,
            14 => Input::SampleCoverage,
            _ => {
                return Err(DrawError::Unsupported(format!(
                    "the pixel-shader input {name} (SPI_PS_INPUT_ENA bit {bit})"
                )))
            }
        };
        out.push((input, next));
        next += if input == Input::Ij { 2 } else { 1 };
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_take_vgprs_in_bit_order() {
        // PERSP_CENTER (bit 1), LINEAR_CENTER (bit 5), POS_X/POS_Y (8, 9), FRONT_FACE (12):
        // v0-v1, v2-v3, v4, v5, v6.
        let l = layout(1 << 1 | 1 << 5 | 1 << 8 | 1 << 9 | 1 << 12).expect("supported");
        assert_eq!(
            l,
            vec![
                (Input::Ij, 0),
                (Input::Ij, 2),
                (Input::PosX, 4),
                (Input::PosY, 5),
                (Input::FrontFace, 6),
            ]
        );
        assert_eq!(layout(0).expect("empty"), vec![]);
    }

    #[test]
    fn unsupported_inputs_are_named() {
        let e = layout(1 << 3).expect_err("pull model").to_string();
        assert!(e.contains("PERSP_PULL_MODEL"), "{e}");
        let e = layout(1 << 16).expect_err("bit 16").to_string();
        assert!(e.contains("above 15"), "{e}");
    }
}
