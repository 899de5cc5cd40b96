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
//! | 116:115 | ELEMENT_SIZE (2, 4, 8, 16 bytes) — swizzled buffers |
//! | 118:117 | INDEX_STRIDE (8, 16, 32, 64) — swizzled buffers |
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
    /// Swizzle element size in bytes (2, 4, 8, 16).
    pub element_size: u32,
    /// Swizzle index stride (8, 16, 32, 64).
    pub index_stride: u32,
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
            element_size: 2 << ((d[3] >> 19) & 3),
            index_stride: 8 << ((d[3] >> 21) & 3),
            add_tid: (d[3] >> 23) & 1 != 0,
        }
    }

    /// Byte offset from BASE (before SOFFSET) of the byte at buffer `offset` of record
    /// `index` (GCN3 manual, "Buffer Addressing"):
    /// - linear: `index × STRIDE + offset`;
    /// - swizzled (SWIZZLE_EN): records are interleaved in groups of INDEX_STRIDE, ELEMENT_SIZE
    ///   bytes at a time: `(index / IS × STRIDE + offset / ES × ES) × IS + index % IS × ES +
    ///   offset % ES`.
    pub fn buffer_offset(&self, index: u64, offset: u64) -> u64 {
        if !self.swizzle_en {
            return index.wrapping_mul(self.stride as u64).wrapping_add(offset);
        }
        let (is, es) = (self.index_stride as u64, self.element_size as u64);
        let msb = (index / is)
            .wrapping_mul(self.stride as u64)
            .wrapping_add(offset / es * es);
        msb.wrapping_mul(is)
            .wrapping_add(index % is * es)
            .wrapping_add(offset % es)
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
        assert_eq!((r.element_size, r.index_stride), (2, 8));
        assert!(r.add_tid);
        let r = Resource::decode([0, 0, 0, (1 << 19) | (3 << 21)]);
        assert_eq!((r.element_size, r.index_stride), (4, 64));
    }

    #[test]
    fn swizzled_offsets() {
        // Scratch layout: ES 4, IS 64, stride 0: dword k of lane t is at (k × 64 + t) × 4.
        let r = Resource::decode([0, 1 << 31, u32::MAX, (1 << 19) | (3 << 21) | (1 << 23)]);
        assert_eq!(r.buffer_offset(5, 0), 20);
        assert_eq!(r.buffer_offset(5, 4), 256 + 20);
        assert_eq!(r.buffer_offset(5, 9), 2 * 256 + 20 + 1);
        assert_eq!(r.buffer_offset(63, 4), 256 + 252);
        // ES 16, IS 8, stride 32: index 9 = group 1, lane 1; offset 20 = element 1, byte 4.
        // (1 × 32 + 16) × 8 + 1 × 16 + 4 = 404.
        let r = Resource::decode([0, (1 << 31) | (32 << 16), u32::MAX, 3 << 19]);
        assert_eq!(r.buffer_offset(9, 20), 404);
        // Linear: index × stride + offset.
        let r = Resource::decode([0, 32 << 16, u32::MAX, 0]);
        assert_eq!(r.buffer_offset(9, 20), 9 * 32 + 20);
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
