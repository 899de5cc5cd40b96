//! What a wave exported: one `Export` per executed EXP instruction, in program order, kept
//! in the wave (`Wave::exports`) so that both engines produce them alike and `diff`
//! compares them. A pixel-shader driver (the facade's `draw`) reads them after the run.

use crate::arch::LANES;
use crate::gcn::ExpTarget;

/// The most exports one wave may make; one more is an error of the run (a hostile
/// program looping over EXP must not exhaust the host's memory). A real pixel shader
/// makes at most one per target: 8 colour targets and MRTZ.
pub const MAX_EXPORTS: usize = 256;

/// One executed EXP instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Export {
    /// TGT (a valid target: 0-9, 12-15 or 32-63).
    pub tgt: u8,
    /// EN: channels written (bit c = channel c).
    pub en: u8,
    /// The sources hold f16 pairs (channel c is half c % 2 of `data[c / 2]`).
    pub compr: bool,
    pub done: bool,
    pub vm: bool,
    /// EXEC at the export: the lanes that export.
    pub exec: u64,
    /// The source dwords per lane: `data[c][lane]` is the VGPR channel c reads (with COMPR,
    /// `data[0]` and `data[1]` hold the pairs and `data[2..4]` are 0). Lanes outside
    /// `exec` and sources without an enabled channel hold 0.
    pub data: [[u32; LANES]; 4],
}

impl Export {
    pub fn target(&self) -> Option<ExpTarget> {
        ExpTarget::from_tgt(self.tgt)
    }

    /// Channel `c` (0-3) of `lane` as f32 bits, `None` when the lane did not export or the
    /// channel is not enabled. A compressed channel's f16 is widened exactly.
    pub fn channel_f32(&self, c: usize, lane: usize) -> Option<f32> {
        if c >= 4 || lane >= LANES || self.exec >> lane & 1 == 0 || self.en >> c & 1 == 0 {
            return None;
        }
        if self.compr {
            let d = self.data[c / 2][lane];
            let h = if c.is_multiple_of(2) {
                d & 0xFFFF
            } else {
                d >> 16
            };
            Some(half::f16::from_bits(h as u16).to_f32())
        } else {
            Some(f32::from_bits(self.data[c][lane]))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compressed_channels_widen_each_half() {
        let mut e = Export {
            tgt: 0,
            en: 0b1011,
            compr: true,
            done: true,
            vm: false,
            exec: 0b10,
            data: [[0; LANES]; 4],
        };
        // f16 1.0 = 0x3c00, -2.0 = 0xc000, 0.5 = 0x3800, 65504 = 0x7bff.
        e.data[0][1] = 0xc000_3c00;
        e.data[1][1] = 0x7bff_3800;
        assert_eq!(e.channel_f32(0, 1), Some(1.0));
        assert_eq!(e.channel_f32(1, 1), Some(-2.0));
        assert_eq!(e.channel_f32(2, 1), None, "EN bit 2 is clear");
        assert_eq!(e.channel_f32(3, 1), Some(65504.0));
        assert_eq!(e.channel_f32(0, 0), None, "lane 0 is outside EXEC");
    }
}
