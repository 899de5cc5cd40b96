//! What went wrong in a draw.

use crate::engine::WaveError;

/// What went wrong in a draw.
#[derive(Debug, thiserror::Error)]
pub enum DrawError {
    #[error("scene: {msg}")]
    Scene { msg: String },
    #[error("shader: {0}")]
    Shader(String),
    /// A shader or scene feature `draw` does not model.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// The run of a wave failed.
    #[error("wave {wave} (triangle {triangle} at pixel ({x}, {y})): {source}")]
    Run {
        wave: usize,
        triangle: usize,
        x: u32,
        y: u32,
        source: Box<WaveError>,
    },
    #[error("output: {0}")]
    Output(String),
}
