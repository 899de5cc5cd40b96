//! VOP_DPP's lane sharing (002_969c374e212b41fa.txt, ERRATA VOP_DPP 1-7), as pure
//! functions: which lane SRC0 is read from, and which lanes the row and bank masks enable.
//! The JIT turns the same maps into constant shuffles and masks.
//!
//! A wave is 4 rows of 16 lanes; a row is 4 banks of 4 lanes.

/// Lanes in a wave.
pub const LANES: usize = 64;

/// Whether DPP_CTRL is defined (ERRATA VOP_DPP 6 lists the reserved values).
pub fn ctrl_valid(ctrl: u16) -> bool {
    matches!(ctrl, 0x000..=0x0FF | 0x101..=0x10F | 0x111..=0x11F | 0x121..=0x12F
        | 0x130 | 0x134 | 0x138 | 0x13C | 0x140..=0x143)
}

/// The lane whose SRC0 `lane` reads under `ctrl`, or `None` when that lane is out of
/// range (or `ctrl` is reserved). EXEC is not considered here (see `lane_reads`).
///
/// * `quad_perm:[p0,p1,p2,p3]` (0x00-0xFF): lane reads `(lane & ~3) + p[lane & 3]`,
///   `p[i] = (ctrl >> 2i) & 3`.
/// * `row_shl:n` (0x101-0x10F): lane + n within the row; `row_shr:n` (0x111-0x11F):
///   lane − n within the row; out of range past the row's ends.
/// * `row_ror:n` (0x121-0x12F): `(lane − n) mod 16` within the row.
/// * `wave_shl:1` (0x130) lane + 1, `wave_rol:1` (0x134) (lane + 1) & 63, `wave_shr:1`
///   (0x138) lane − 1, `wave_ror:1` (0x13C) (lane − 1) & 63 (ERRATA VOP_DPP 5).
/// * `row_mirror` (0x140) `15 − (lane & 15)` within the row; `row_half_mirror` (0x141)
///   `7 − (lane & 7)` within the half row.
/// * `row_bcast:15` (0x142): rows 1-3 read lane 15 of the row before; row 0 reads itself.
///   `row_bcast:31` (0x143): lanes 32-63 read lane 31; lanes 0-31 read themselves
///   (ERRATA VOP_DPP 3 and 4).
pub fn src_lane(ctrl: u16, lane: usize) -> Option<usize> {
    if lane >= LANES {
        return None;
    }
    let row = lane & !15;
    let slid = lane & 15;
    match ctrl {
        0x000..=0x0FF => {
            let p = (ctrl as usize >> (2 * (lane & 3))) & 3;
            Some((lane & !3) + p)
        }
        0x101..=0x10F => {
            let n = (ctrl & 15) as usize;
            (slid + n <= 15).then_some(row + slid + n)
        }
        0x111..=0x11F => {
            let n = (ctrl & 15) as usize;
            (slid >= n).then(|| row + slid - n)
        }
        0x121..=0x12F => {
            let n = (ctrl & 15) as usize;
            Some(row + ((16 + slid - n) & 15))
        }
        0x130 => (lane + 1 < LANES).then_some(lane + 1),
        0x134 => Some((lane + 1) & 63),
        0x138 => lane.checked_sub(1),
        0x13C => Some((lane + 63) & 63),
        0x140 => Some(row + (slid ^ 15)),
        0x141 => Some((lane & !7) + ((lane & 7) ^ 7)),
        0x142 => Some(if lane < 16 {
            lane
        } else {
            ((lane - 16) & !15) + 15
        }),
        0x143 => Some(if lane < 32 { lane } else { 31 }),
        _ => None,
    }
}

/// Whether `lane` is in an enabled row (`row_mask` bit `lane / 16`) and an enabled bank
/// (`bank_mask` bit `(lane / 4) % 4`). A disabled lane is not written (ERRATA VOP_DPP 2).
pub fn lane_enabled(row_mask: u8, bank_mask: u8, lane: usize) -> bool {
    row_mask >> ((lane >> 4) & 3) & 1 != 0 && bank_mask >> ((lane >> 2) & 3) & 1 != 0
}

/// `src_lane` of every lane under `ctrl`, as a table (`u8::MAX`: out of range): built
/// once for every DPP_CTRL value from `src_lane` itself, so that a DPP instruction looks
/// its lanes up instead of working each out.
pub fn src_lanes(ctrl: u16) -> &'static [u8; LANES] {
    static MAPS: std::sync::OnceLock<Vec<[u8; LANES]>> = std::sync::OnceLock::new();
    const NONE: [u8; LANES] = [u8::MAX; LANES];
    let maps = MAPS.get_or_init(|| {
        (0..=0x143u16)
            .map(|c| std::array::from_fn(|l| src_lane(c, l).map_or(u8::MAX, |s| s as u8)))
            .collect()
    });
    maps.get(ctrl as usize).unwrap_or(&NONE)
}

/// `lane_enabled` of every lane as a lane mask: the enabled banks' four lanes in a row
/// of 16, repeated in the enabled rows.
pub fn enabled_lanes(row_mask: u8, bank_mask: u8) -> u64 {
    let row = (0..4)
        .filter(|b| bank_mask >> b & 1 != 0)
        .fold(0u64, |m, b| m | 0xF << (4 * b));
    (0..4)
        .filter(|r| row_mask >> r & 1 != 0)
        .fold(0u64, |m, r| m | row << (16 * r))
}

/// What SRC0 of `lane` is under DPP: `Some(Some(l))` read lane `l`, `Some(None)` read 0
/// (BOUND_CTRL set and the source lane invalid), `None` the lane is not written (source
/// invalid without BOUND_CTRL). A source lane is invalid when out of range or when its
/// EXEC bit is 0 (ERRATA VOP_DPP 1).
pub fn lane_reads(ctrl: u16, bound_ctrl: bool, exec: u64, lane: usize) -> Option<Option<usize>> {
    match src_lane(ctrl, lane) {
        Some(l) if exec >> l & 1 != 0 => Some(Some(l)),
        _ if bound_ctrl => Some(None),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_few_hand_examples() {
        // quad_perm:[2,3,0,1] = 0b01_00_11_10 = 0x4E: lane 5 (quad lane 1) reads 4 + 3.
        assert_eq!(src_lane(0x4E, 5), Some(7));
        assert_eq!(src_lane(0x4E, 6), Some(4));
        assert_eq!(src_lane(0x101, 15), None);
        assert_eq!(src_lane(0x111, 16), None);
        assert_eq!(src_lane(0x121, 16), Some(31));
        assert_eq!(src_lane(0x142, 17), Some(15));
        assert_eq!(src_lane(0x142, 63), Some(47));
        assert_eq!(src_lane(0x143, 63), Some(31));
        assert_eq!(src_lane(0x100, 3), None);
        assert!(!ctrl_valid(0x100) && ctrl_valid(0x143) && !ctrl_valid(0x144));
        assert!(lane_enabled(0b1000, 0b0001, 48) && !lane_enabled(0b1000, 0b0001, 52));
    }

    #[test]
    fn tables_match_the_functions() {
        for ctrl in 0..0x200u16 {
            let t = src_lanes(ctrl);
            for (lane, &got) in t.iter().enumerate() {
                let want = src_lane(ctrl, lane).map_or(u8::MAX, |l| l as u8);
                assert_eq!(got, want, "ctrl {ctrl:#x} lane {lane}");
            }
        }
        // Rows 1 and 3, banks 0 and 2: lanes 16-19, 24-27, 48-51, 56-59.
        assert_eq!(enabled_lanes(0b1010, 0b0101), 0x0F0F_0000_0F0F_0000);
        assert_eq!(enabled_lanes(0xF, 0xF), u64::MAX);
        for row_mask in 0..16u8 {
            for bank_mask in 0..16u8 {
                let m = enabled_lanes(row_mask, bank_mask);
                for lane in 0..LANES {
                    assert_eq!(m >> lane & 1 != 0, lane_enabled(row_mask, bank_mask, lane));
                }
            }
        }
    }
}
