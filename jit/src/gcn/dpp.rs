//! VOP_DPP as constants (002_969c374e212b41fa.txt, ERRATA "VOP_DPP"): the source lane of
//! every lane for a DPP_CTRL value, and from it the byte shuffles that gather one 4-lane
//! chunk from at most two source chunks, plus the constant lane masks of BOUND_CTRL,
//! ROW_MASK and BANK_MASK. Pure functions: the lowering turns them into Cranelift
//! `shuffle`s and `bitselect`s, the tests check them against the pseudo-code by hand.

/// The lane `lane` reads for `ctrl`, or `None` when that is out of range (ERRATA DPP 3-5).
pub fn src_lane(ctrl: u16, lane: usize) -> Option<usize> {
    let l = lane as i32;
    let row = l & !15;
    let s: i32 = match ctrl {
        0x000..=0x0ff => {
            let sel = (ctrl >> (2 * (l & 3))) & 3;
            (l & !3) + sel as i32
        }
        0x101..=0x10f => {
            let n = (ctrl & 15) as i32;
            if (l & 15) + n <= 15 {
                l + n
            } else {
                return None;
            }
        }
        0x111..=0x11f => {
            let n = (ctrl & 15) as i32;
            if (l & 15) >= n {
                l - n
            } else {
                return None;
            }
        }
        0x121..=0x12f => {
            let n = (ctrl & 15) as i32;
            row + (((l & 15) - n) & 15)
        }
        0x130 => {
            if l == 63 {
                return None;
            }
            l + 1
        }
        0x134 => (l + 1) & 63,
        0x138 => {
            if l == 0 {
                return None;
            }
            l - 1
        }
        0x13c => (l - 1) & 63,
        0x140 => row + ((l & 15) ^ 15),
        0x141 => (l & !7) + ((l & 7) ^ 7),
        0x142 => {
            if l < 16 {
                l
            } else {
                ((l - 16) & !15) + 15
            }
        }
        0x143 => {
            if l < 32 {
                l
            } else {
                31
            }
        }
        _ => return None,
    };
    Some(s as usize)
}

/// Whether row `lane / 16` and bank `(lane / 4) % 4` are enabled (a lane outside them is
/// never written).
pub fn lane_enabled(row_mask: u8, bank_mask: u8, lane: usize) -> bool {
    row_mask & (1 << (lane >> 4)) != 0 && bank_mask & (1 << ((lane >> 2) & 3)) != 0
}

/// How to gather chunk `c` (lanes 4c..4c+3) of a DPP source: from source chunks `a` and
/// `b`, with a byte shuffle mask over their concatenation (bytes 0-15 = `a`, 16-31 = `b`).
/// Lanes with no valid source read byte 0 of `a` and are marked in `valid`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gather {
    pub a: usize,
    pub b: usize,
    pub mask: [u8; 16],
    /// Per lane: whether its source lane is in range.
    pub valid: [bool; 4],
}

/// The gather of chunk `c` for `ctrl`. Every DPP_CTRL reads at most two distinct source
/// chunks per destination chunk (shifts cross at most one chunk boundary, broadcasts read
/// one lane), which this function relies on and returns `None` if ever violated.
pub fn gather(ctrl: u16, c: usize) -> Option<Gather> {
    let mut chunks: Vec<usize> = Vec::new();
    let mut srcs = [None; 4];
    for (i, s) in srcs.iter_mut().enumerate() {
        *s = src_lane(ctrl, 4 * c + i);
        if let Some(l) = *s {
            if !chunks.contains(&(l / 4)) {
                chunks.push(l / 4);
            }
        }
    }
    if chunks.len() > 2 {
        return None;
    }
    let a = chunks.first().copied().unwrap_or(c);
    let b = chunks.get(1).copied().unwrap_or(a);
    let mut mask = [0u8; 16];
    let mut valid = [false; 4];
    for i in 0..4 {
        let (base, lane) = match srcs[i] {
            Some(l) if l / 4 == a => (0u8, (l % 4) as u8),
            Some(l) => (16u8, (l % 4) as u8),
            None => (0, 0),
        };
        valid[i] = srcs[i].is_some();
        for k in 0..4u8 {
            mask[4 * i + k as usize] = base + 4 * lane + k;
        }
    }
    Some(Gather { a, b, mask, valid })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_maps_from_the_pseudo_code() {
        // quad_perm:[2,3,0,1] = 0b01_00_11_10 = 0x4e: lane 5 (quad 1, pos 1) reads 4 + 3.
        assert_eq!(src_lane(0x4e, 5), Some(7));
        assert_eq!(src_lane(0x4e, 6), Some(4));
        // row_shl:5: lane 10 reads 15, lane 11 is out of range.
        assert_eq!(src_lane(0x105, 10), Some(15));
        assert_eq!(src_lane(0x105, 11), None);
        // row_shr:7: lane 23 (row 1, slot 7) reads 16; lane 22 out.
        assert_eq!(src_lane(0x117, 23), Some(16));
        assert_eq!(src_lane(0x117, 22), None);
        // row_ror:8: lane 33 (row 2, slot 1) reads slot 9 = 41.
        assert_eq!(src_lane(0x128, 33), Some(41));
        // wave_shl reads lane+1, wave_shr lane-1; rol/ror wrap.
        assert_eq!(src_lane(0x130, 63), None);
        assert_eq!(src_lane(0x138, 0), None);
        assert_eq!(src_lane(0x134, 63), Some(0));
        assert_eq!(src_lane(0x13c, 0), Some(63));
        // Mirrors.
        assert_eq!(src_lane(0x140, 17), Some(30));
        assert_eq!(src_lane(0x141, 9), Some(14));
        // Broadcasts (ERRATA DPP 3, 4).
        assert_eq!(src_lane(0x142, 15), Some(15));
        assert_eq!(src_lane(0x142, 16), Some(15));
        assert_eq!(src_lane(0x142, 47), Some(31));
        assert_eq!(src_lane(0x143, 63), Some(31));
        assert_eq!(src_lane(0x143, 31), Some(31));
    }

    #[test]
    fn every_control_gathers_from_two_chunks_at_most() {
        let ctrls = (0u16..0x100)
            .chain(0x101..0x110)
            .chain(0x111..0x120)
            .chain(0x121..0x130);
        for ctrl in ctrls.chain([0x130, 0x134, 0x138, 0x13c, 0x140, 0x141, 0x142, 0x143]) {
            for c in 0..16 {
                let g = gather(ctrl, c).expect("two chunks");
                for i in 0..4 {
                    let want = src_lane(ctrl, 4 * c + i);
                    assert_eq!(g.valid[i], want.is_some());
                    if let Some(l) = want {
                        let byte = g.mask[4 * i] as usize;
                        let chunk = if byte < 16 { g.a } else { g.b };
                        assert_eq!(
                            chunk * 4 + (byte % 16) / 4,
                            l,
                            "ctrl {ctrl:#x} lane {}",
                            4 * c + i
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn row_and_bank_masks() {
        assert!(lane_enabled(0b0001, 0b0001, 0));
        assert!(!lane_enabled(0b0001, 0b0001, 4));
        assert!(!lane_enabled(0b1110, 0b1111, 15));
        assert!(lane_enabled(0b1000, 0b1000, 63));
    }
}
