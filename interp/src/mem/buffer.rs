//! The buffer resource descriptor (V#): four SGPRs that describe a buffer for MUBUF and
//! scalar buffer loads (AMD SI/CI/GCN3 ISA manuals, "Buffer Resource").
//!
//! | bits | field |
//! |---|---|
//! | 47:0 | BASE_ADDRESS (bytes) |
//! | 61:48 | STRIDE (bytes; 0 = raw buffer) |
//! | 62 | CACHE_SWIZZLE |
//! | 63 | SWIZZLE_EN |
//! | 95:64 | NUM_RECORDS (bytes for a raw buffer, records when STRIDE ≠ 0) |
//! | 98:96, 101:99, 104:102, 107:105 | DST_SEL_X/Y/Z/W |
//! | 110:108 | NUM_FORMAT |
//! | 114:111 | DATA_FORMAT |
//! | 119 | ADD_TID_ENABLE |

/// A decoded buffer resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resource {
    pub base: u64,
    pub stride: u32,
    pub swizzle_en: bool,
    pub num_records: u32,
    pub dst_sel: [u8; 4],
    pub num_format: u8,
    pub data_format: u8,
    pub add_tid: bool,
}

impl Resource {
    pub fn decode(d: [u32; 4]) -> Resource {
        Resource {
            base: d[0] as u64 | ((d[1] & 0xffff) as u64) << 32,
            stride: (d[1] >> 16) & 0x3fff,
            swizzle_en: d[1] >> 31 != 0,
            num_records: d[2],
            dst_sel: [
                (d[3] & 7) as u8,
                ((d[3] >> 3) & 7) as u8,
                ((d[3] >> 6) & 7) as u8,
                ((d[3] >> 9) & 7) as u8,
            ],
            num_format: ((d[3] >> 12) & 7) as u8,
            data_format: ((d[3] >> 15) & 0xf) as u8,
            add_tid: (d[3] >> 23) & 1 != 0,
        }
    }

    /// Whether an access of `size` bytes at buffer offset `offset` (not counting SOFFSET)
    /// of record `index` passes the range check.
    ///
    /// Raw buffer (STRIDE = 0): the bytes must lie below NUM_RECORDS. Structured buffer:
    /// the index must be below NUM_RECORDS. (The SGPR offset is not range-checked, as the
    /// manuals say.) Callers check each dword of a multi-dword access on its own, so a
    /// load that straddles the end returns its in-range dwords and zeros.
    pub fn in_range(&self, index: u64, offset: u64, size: u64) -> bool {
        if self.stride == 0 {
            offset
                .checked_add(size)
                .is_some_and(|end| end <= self.num_records as u64)
        } else {
            index < self.num_records as u64
        }
    }
}

/// Components of 32 bits each in a buffer DATA_FORMAT whose components are all 32-bit
/// (32, 32_32, 32_32_32, 32_32_32_32), else `None`.
pub fn dword_components(data_format: u8) -> Option<usize> {
    match data_format {
        4 => Some(1),
        11 => Some(2),
        13 => Some(3),
        14 => Some(4),
        _ => None,
    }
}

/// Whether a NUM_FORMAT leaves 32-bit components as they are in memory (UINT, SINT,
/// FLOAT).
pub fn raw_num_format(num_format: u8) -> bool {
    matches!(num_format, 4 | 5 | 7)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields() {
        let r = Resource::decode([
            0x1000,
            0x8010_1234,
            77,
            (1 << 23) | (14 << 15) | (7 << 12) | 0xfac,
        ]);
        assert_eq!(r.base, 0x1234_0000_1000);
        assert_eq!(r.stride, 0x10);
        assert!(r.swizzle_en);
        assert_eq!(r.num_records, 77);
        assert_eq!(r.dst_sel, [4, 5, 6, 7]);
        assert_eq!((r.num_format, r.data_format), (7, 14));
        assert!(r.add_tid);
    }

    #[test]
    fn range() {
        let raw = Resource::decode([0, 0, 16, 0]);
        assert!(raw.in_range(0, 12, 4));
        assert!(!raw.in_range(0, 13, 4));
        assert!(!raw.in_range(0, 16, 1));
        assert!(!raw.in_range(0, u64::MAX, 4));
        let st = Resource::decode([0, 8 << 16, 3, 0]);
        assert!(st.in_range(2, 100, 4));
        assert!(!st.in_range(3, 0, 4));
    }
}
