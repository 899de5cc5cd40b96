//! The AMDHSA kernel descriptor (`NAME.kd`, 64 bytes, code object v3 and later): what the
//! command processor reads to start a kernel's waves — LDS and scratch sizes, the entry
//! point, the `COMPUTE_PGM_RSRC1/2` register images and which user SGPRs to set up.
//!
//! Layout and bit positions follow LLVM's AMDGPUUsage ("Kernel Descriptor", "compute_pgm_rsrc1
//! for GFX6-GFX12", "compute_pgm_rsrc2 for GFX6-GFX12", "Kernel Code Properties").

#![cfg_attr(not(test), deny(clippy::unwrap_used))]

/// Size of a kernel descriptor in bytes.
pub const KD_SIZE: usize = 64;

/// Byte offset of `kernel_code_entry_byte_offset` inside the descriptor (a relocatable
/// object carries it as an `R_AMDGPU_REL64` relocation at this offset).
pub const ENTRY_FIELD_OFFSET: u64 = 16;

/// A decoded kernel descriptor. Raw fields are kept; accessors name the bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelDescriptor {
    /// Fixed LDS bytes per workgroup (without dynamic `__local` arguments).
    pub group_segment_fixed_size: u32,
    /// Fixed scratch bytes per work-item.
    pub private_segment_fixed_size: u32,
    /// Bytes of the kernarg segment (explicit and hidden arguments).
    pub kernarg_size: u32,
    /// Byte offset from the descriptor to the first instruction (possibly negative).
    pub kernel_code_entry_byte_offset: i64,
    pub compute_pgm_rsrc3: u32,
    pub compute_pgm_rsrc1: u32,
    pub compute_pgm_rsrc2: u32,
    pub kernel_code_properties: u16,
}

/// The user SGPRs a kernel may ask for, in the order the hardware loads them (each only when
/// enabled), with their sizes in SGPRs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UserSgpr {
    /// The V# of the wave's scratch (4 SGPRs).
    PrivateSegmentBuffer,
    /// 64-bit address of the HSA kernel dispatch packet.
    DispatchPtr,
    /// 64-bit address of the AMD queue.
    QueuePtr,
    /// 64-bit address of the kernarg segment.
    KernargSegmentPtr,
    /// 64-bit dispatch id.
    DispatchId,
    /// Scratch base offset and per-lane size for FLAT scratch (GFX7/8).
    FlatScratchInit,
    /// Per-lane scratch bytes (1 SGPR).
    PrivateSegmentSize,
}

impl UserSgpr {
    /// Every user SGPR in hardware load order; bit `i` of `kernel_code_properties` enables
    /// entry `i`.
    pub const ORDER: [UserSgpr; 7] = [
        UserSgpr::PrivateSegmentBuffer,
        UserSgpr::DispatchPtr,
        UserSgpr::QueuePtr,
        UserSgpr::KernargSegmentPtr,
        UserSgpr::DispatchId,
        UserSgpr::FlatScratchInit,
        UserSgpr::PrivateSegmentSize,
    ];

    /// Its enable bit in `kernel_code_properties` (bits 0-6, in load order).
    pub fn enable_bit(self) -> u16 {
        1 << (self as u16)
    }

    /// How many SGPRs this value occupies.
    pub fn count(self) -> u32 {
        match self {
            UserSgpr::PrivateSegmentBuffer => 4,
            UserSgpr::PrivateSegmentSize => 1,
            _ => 2,
        }
    }
}

/// Why 64 bytes are not a kernel descriptor wavejit can run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KdError {
    #[error("kernel descriptor is {0} bytes, needs 64")]
    Truncated(usize),
    #[error("kernel descriptor enables {enabled} user SGPRs but USER_SGPR_COUNT is {count}")]
    UserSgprCount { enabled: u32, count: u32 },
    #[error(
        "kernel descriptor asks for wave32 (ENABLE_WAVEFRONT_SIZE32); GCN 1.0-1.2 run wave64 only"
    )]
    Wave32,
}

fn bits(v: u32, lo: u32, n: u32) -> u32 {
    (v >> lo) & ((1u32 << n) - 1)
}

fn le32(b: &[u8], at: usize) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(w)
}

impl KernelDescriptor {
    /// Decode the first 64 bytes of `bytes`.
    pub fn parse(bytes: &[u8]) -> Result<KernelDescriptor, KdError> {
        let b = bytes
            .get(..KD_SIZE)
            .ok_or(KdError::Truncated(bytes.len()))?;
        let mut e = [0u8; 8];
        e.copy_from_slice(&b[16..24]);
        let kd = KernelDescriptor {
            group_segment_fixed_size: le32(b, 0),
            private_segment_fixed_size: le32(b, 4),
            kernarg_size: le32(b, 8),
            kernel_code_entry_byte_offset: i64::from_le_bytes(e),
            compute_pgm_rsrc3: le32(b, 44),
            compute_pgm_rsrc1: le32(b, 48),
            compute_pgm_rsrc2: le32(b, 52),
            kernel_code_properties: u16::from_le_bytes([b[56], b[57]]),
        };
        kd.validate()?;
        Ok(kd)
    }

    /// The 64 bytes of the descriptor (reserved fields zero), the inverse of [`Self::parse`].
    pub fn to_bytes(&self) -> [u8; KD_SIZE] {
        let mut b = [0u8; KD_SIZE];
        b[0..4].copy_from_slice(&self.group_segment_fixed_size.to_le_bytes());
        b[4..8].copy_from_slice(&self.private_segment_fixed_size.to_le_bytes());
        b[8..12].copy_from_slice(&self.kernarg_size.to_le_bytes());
        b[16..24].copy_from_slice(&self.kernel_code_entry_byte_offset.to_le_bytes());
        b[44..48].copy_from_slice(&self.compute_pgm_rsrc3.to_le_bytes());
        b[48..52].copy_from_slice(&self.compute_pgm_rsrc1.to_le_bytes());
        b[52..56].copy_from_slice(&self.compute_pgm_rsrc2.to_le_bytes());
        b[56..58].copy_from_slice(&self.kernel_code_properties.to_le_bytes());
        b
    }

    fn validate(&self) -> Result<(), KdError> {
        if self.kernel_code_properties & (1 << 10) != 0 {
            return Err(KdError::Wave32);
        }
        let enabled = self.user_sgpr_enabled_count();
        let count = self.user_sgpr_count();
        if enabled > count {
            return Err(KdError::UserSgprCount { enabled, count });
        }
        Ok(())
    }

    /// Is user SGPR `u` requested (kernel_code_properties bits 0-6)?
    pub fn enables(&self, u: UserSgpr) -> bool {
        self.kernel_code_properties & u.enable_bit() != 0
    }

    /// The enabled user SGPRs in load order.
    pub fn user_sgprs(&self) -> impl Iterator<Item = UserSgpr> + '_ {
        UserSgpr::ORDER.into_iter().filter(|u| self.enables(*u))
    }

    /// Total SGPRs of the enabled user values.
    pub fn user_sgpr_enabled_count(&self) -> u32 {
        self.user_sgprs().map(UserSgpr::count).sum()
    }

    /// USES_DYNAMIC_STACK (kernel_code_properties bit 11): the kernel's scratch need is
    /// more than `private_segment_fixed_size` (recursion, dynamic allocas).
    pub fn uses_dynamic_stack(&self) -> bool {
        self.kernel_code_properties & (1 << 11) != 0
    }

    /// COMPUTE_PGM_RSRC2.USER_SGPR_COUNT: the first system SGPR follows this many.
    pub fn user_sgpr_count(&self) -> u32 {
        bits(self.compute_pgm_rsrc2, 1, 5)
    }

    /// COMPUTE_PGM_RSRC2.SCRATCH_EN (ENABLE_PRIVATE_SEGMENT): scratch is set up and the
    /// private segment wave byte offset SGPR is loaded.
    pub fn private_segment(&self) -> bool {
        self.compute_pgm_rsrc2 & 1 != 0
    }

    /// ENABLE_SGPR_WORKGROUP_ID_X/Y/Z (rsrc2 bits 7, 8, 9).
    pub fn workgroup_id(&self, dim: usize) -> bool {
        dim < 3 && self.compute_pgm_rsrc2 & (1 << (7 + dim)) != 0
    }

    /// ENABLE_SGPR_WORKGROUP_INFO (rsrc2 bit 10).
    pub fn workgroup_info(&self) -> bool {
        self.compute_pgm_rsrc2 & (1 << 10) != 0
    }

    /// ENABLE_VGPR_WORKITEM_ID (rsrc2 bits 11-12): 0 = X in v0, 1 = X,Y in v0,v1,
    /// 2 (or 3) = X,Y,Z in v0,v1,v2. Returns how many of v0-v2 are loaded.
    pub fn workitem_id_vgprs(&self) -> u32 {
        bits(self.compute_pgm_rsrc2, 11, 2).min(2) + 1
    }

    /// GRANULATED_LDS_SIZE (rsrc2 bits 15-23); the CP takes LDS from the dispatch packet, so
    /// this is informational.
    pub fn granulated_lds_size(&self) -> u32 {
        bits(self.compute_pgm_rsrc2, 15, 9)
    }

    /// VGPRs per lane the kernel was given: (GRANULATED_WORKITEM_VGPR_COUNT + 1) * 4.
    pub fn vgpr_count(&self) -> u32 {
        (bits(self.compute_pgm_rsrc1, 0, 6) + 1) * 4
    }

    /// SGPRs the wave was given (GCN 1.0-1.2 granule of 8; includes VCC and FLAT_SCRATCH).
    pub fn sgpr_count(&self) -> u32 {
        (bits(self.compute_pgm_rsrc1, 6, 4) + 1) * 8
    }

    /// The MODE register image the wave starts with: FP_ROUND (bits 0-3) and FP_DENORM
    /// (bits 4-7) from rsrc1 bits 12-19, DX10_CLAMP (bit 8) from rsrc1 bit 21, IEEE (bit 9)
    /// from rsrc1 bit 23.
    pub fn initial_mode(&self) -> u32 {
        let r = self.compute_pgm_rsrc1;
        bits(r, 12, 8) | bits(r, 21, 1) << 8 | bits(r, 23, 1) << 9
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kd_bytes(rsrc1: u32, rsrc2: u32, props: u16) -> Vec<u8> {
        let mut b = vec![0u8; 64];
        b[0..4].copy_from_slice(&256u32.to_le_bytes());
        b[4..8].copy_from_slice(&16u32.to_le_bytes());
        b[8..12].copy_from_slice(&288u32.to_le_bytes());
        b[16..24].copy_from_slice(&(-0x1080i64).to_le_bytes());
        b[48..52].copy_from_slice(&rsrc1.to_le_bytes());
        b[52..56].copy_from_slice(&rsrc2.to_le_bytes());
        b[56..58].copy_from_slice(&props.to_le_bytes());
        b
    }

    #[test]
    fn fields_and_bits() {
        // rsrc1: 2 VGPR granules (=> 12 VGPRs), 1 SGPR granule (=> 16 SGPRs), denorm f64 = 3,
        // DX10_CLAMP and IEEE on. rsrc2: scratch, 6 user SGPRs, wg id x and z, info, XYZ ids.
        let rsrc1 = 2 | 1 << 6 | 3 << 18 | 1 << 21 | 1 << 23;
        let rsrc2 = 1 | 6 << 1 | 1 << 7 | 1 << 9 | 1 << 10 | 2 << 11;
        let bytes = kd_bytes(rsrc1, rsrc2, 0b1001);
        let kd = KernelDescriptor::parse(&bytes).unwrap();
        assert_eq!(kd.to_bytes().as_slice(), bytes.as_slice());
        assert_eq!(kd.group_segment_fixed_size, 256);
        assert_eq!(kd.private_segment_fixed_size, 16);
        assert_eq!(kd.kernarg_size, 288);
        assert_eq!(kd.kernel_code_entry_byte_offset, -0x1080);
        assert_eq!(kd.vgpr_count(), 12);
        assert_eq!(kd.sgpr_count(), 16);
        assert_eq!(kd.initial_mode(), 0xC0 | 0x100 | 0x200);
        assert!(kd.private_segment());
        assert_eq!(kd.user_sgpr_count(), 6);
        assert_eq!(
            kd.user_sgprs().collect::<Vec<_>>(),
            [UserSgpr::PrivateSegmentBuffer, UserSgpr::KernargSegmentPtr]
        );
        assert_eq!(kd.user_sgpr_enabled_count(), 6);
        assert!(kd.workgroup_id(0) && !kd.workgroup_id(1) && kd.workgroup_id(2));
        assert!(!kd.workgroup_id(3));
        assert!(kd.workgroup_info());
        assert_eq!(kd.workitem_id_vgprs(), 3);
    }

    #[test]
    fn malformed() {
        assert_eq!(
            KernelDescriptor::parse(&[0; 63]),
            Err(KdError::Truncated(63))
        );
        // dispatch ptr + kernarg ptr = 4 SGPRs, but USER_SGPR_COUNT says 2.
        let b = kd_bytes(0, 2 << 1, 0b1010);
        assert_eq!(
            KernelDescriptor::parse(&b),
            Err(KdError::UserSgprCount {
                enabled: 4,
                count: 2
            })
        );
        let b = kd_bytes(0, 0, 1 << 10);
        assert_eq!(KernelDescriptor::parse(&b), Err(KdError::Wave32));
    }
}
