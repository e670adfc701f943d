//! The 64-byte kernel descriptor (`NAME.kd`) the command processor reads to launch a kernel:
//! segment sizes, the entry point, and the COMPUTE_PGM_RSRC1/2/3 register values that say
//! which SGPRs and VGPRs are set up at wave start and which float mode the wave runs in.
//!
//! Layout (byte offsets): 0 group segment size, 4 private segment size, 8 kernarg size,
//! 16 entry byte offset (i64, from the descriptor), 44 RSRC3, 48 RSRC1, 52 RSRC2,
//! 56 kernel code properties (u16), 58 kernarg preload (u16). Facts from LLVM's AMDGPUUsage.

/// Size of a kernel descriptor.
pub const DESCRIPTOR_SIZE: usize = 64;

/// The user SGPRs a descriptor can enable, in the order the hardware loads them, with the
/// number of SGPRs each takes and its kernel-code-properties bit.
pub const USER_SGPRS: [(UserSgpr, u32, u32); 7] = [
    (UserSgpr::PrivateSegmentBuffer, 4, 0),
    (UserSgpr::DispatchPtr, 2, 1),
    (UserSgpr::QueuePtr, 2, 2),
    (UserSgpr::KernargSegmentPtr, 2, 3),
    (UserSgpr::DispatchId, 2, 4),
    (UserSgpr::FlatScratchInit, 2, 5),
    (UserSgpr::PrivateSegmentSize, 1, 6),
];

/// One user-SGPR input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UserSgpr {
    PrivateSegmentBuffer,
    DispatchPtr,
    QueuePtr,
    KernargSegmentPtr,
    DispatchId,
    FlatScratchInit,
    PrivateSegmentSize,
}

impl UserSgpr {
    pub fn name(self) -> &'static str {
        match self {
            UserSgpr::PrivateSegmentBuffer => "private_segment_buffer",
            UserSgpr::DispatchPtr => "dispatch_ptr",
            UserSgpr::QueuePtr => "queue_ptr",
            UserSgpr::KernargSegmentPtr => "kernarg_segment_ptr",
            UserSgpr::DispatchId => "dispatch_id",
            UserSgpr::FlatScratchInit => "flat_scratch_init",
            UserSgpr::PrivateSegmentSize => "private_segment_size",
        }
    }
}

/// A named bit field of a register value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: &'static str,
    pub lo: u32,
    pub width: u32,
}

const fn f(name: &'static str, lo: u32, width: u32) -> Field {
    Field { name, lo, width }
}

impl Field {
    pub fn get(&self, value: u32) -> u32 {
        (value >> self.lo) & (((1u64 << self.width) - 1) as u32)
    }
}

/// COMPUTE_PGM_RSRC1 fields (GFX9 to GFX12; bits 21 and 23 are DX10 clamp and IEEE mode up
/// to GFX11 and other controls on GFX12).
pub const RSRC1_FIELDS: &[Field] = &[
    f("GRANULATED_WORKITEM_VGPR_COUNT", 0, 6),
    f("GRANULATED_WAVEFRONT_SGPR_COUNT", 6, 4),
    f("PRIORITY", 10, 2),
    f("FLOAT_ROUND_MODE_32", 12, 2),
    f("FLOAT_ROUND_MODE_16_64", 14, 2),
    f("FLOAT_DENORM_MODE_32", 16, 2),
    f("FLOAT_DENORM_MODE_16_64", 18, 2),
    f("PRIV", 20, 1),
    f("ENABLE_DX10_CLAMP", 21, 1),
    f("DEBUG_MODE", 22, 1),
    f("ENABLE_IEEE_MODE", 23, 1),
    f("BULKY", 24, 1),
    f("CDBG_USER", 25, 1),
    f("FP16_OVFL", 26, 1),
    f("WGP_MODE", 29, 1),
    f("MEM_ORDERED", 30, 1),
    f("FWD_PROGRESS", 31, 1),
];

/// COMPUTE_PGM_RSRC2 fields.
pub const RSRC2_FIELDS: &[Field] = &[
    f("ENABLE_PRIVATE_SEGMENT", 0, 1),
    f("USER_SGPR_COUNT", 1, 5),
    f("ENABLE_TRAP_HANDLER", 6, 1),
    f("ENABLE_SGPR_WORKGROUP_ID_X", 7, 1),
    f("ENABLE_SGPR_WORKGROUP_ID_Y", 8, 1),
    f("ENABLE_SGPR_WORKGROUP_ID_Z", 9, 1),
    f("ENABLE_SGPR_WORKGROUP_INFO", 10, 1),
    f("ENABLE_VGPR_WORKITEM_ID", 11, 2),
    f("ENABLE_EXCEPTION_ADDRESS_WATCH", 13, 1),
    f("ENABLE_EXCEPTION_MEMORY", 14, 1),
    f("GRANULATED_LDS_SIZE", 15, 9),
    f("ENABLE_EXCEPTION_IEEE_754_FP_INVALID_OPERATION", 24, 1),
    f("ENABLE_EXCEPTION_FP_DENORMAL_SOURCE", 25, 1),
    f("ENABLE_EXCEPTION_IEEE_754_FP_DIVISION_BY_ZERO", 26, 1),
    f("ENABLE_EXCEPTION_IEEE_754_FP_OVERFLOW", 27, 1),
    f("ENABLE_EXCEPTION_IEEE_754_FP_UNDERFLOW", 28, 1),
    f("ENABLE_EXCEPTION_IEEE_754_FP_INEXACT", 29, 1),
    f("ENABLE_EXCEPTION_INT_DIVIDE_BY_ZERO", 30, 1),
];

/// COMPUTE_PGM_RSRC3 fields on CDNA 2-4 (GFX90A, GFX94x, GFX950).
pub const RSRC3_FIELDS_CDNA: &[Field] = &[f("ACCUM_OFFSET", 0, 6), f("TG_SPLIT", 16, 1)];
/// COMPUTE_PGM_RSRC3 fields on RDNA (GFX10-GFX12) and GFX12.5.
pub const RSRC3_FIELDS_RDNA: &[Field] = &[
    f("SHARED_VGPR_COUNT", 0, 4),
    f("INST_PREF_SIZE", 4, 8),
    f("TRAP_ON_START", 12, 1),
    f("TRAP_ON_END", 13, 1),
    f("IMAGE_OP", 31, 1),
];

/// Kernel code properties (u16 at byte 56) beyond the user-SGPR enables (bits 0-6).
const WAVEFRONT_SIZE32_BIT: u32 = 10;
const USES_DYNAMIC_STACK_BIT: u32 = 11;

/// A decoded kernel descriptor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelDescriptor {
    pub group_segment_fixed_size: u32,
    pub private_segment_fixed_size: u32,
    pub kernarg_size: u32,
    /// From the descriptor's address to the kernel's first instruction (0 in a relocatable
    /// object, where a relocation fills it).
    pub entry_byte_offset: i64,
    pub rsrc1: u32,
    pub rsrc2: u32,
    pub rsrc3: u32,
    pub code_properties: u16,
    pub kernarg_preload: u16,
}

fn le32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn le16(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

impl KernelDescriptor {
    /// Reads the 64 bytes of a descriptor.
    pub fn parse(bytes: &[u8]) -> Result<KernelDescriptor, String> {
        if bytes.len() < DESCRIPTOR_SIZE {
            return Err(format!(
                "a kernel descriptor is {DESCRIPTOR_SIZE} bytes, only {} present",
                bytes.len()
            ));
        }
        let mut entry = [0u8; 8];
        entry.copy_from_slice(&bytes[16..24]);
        Ok(KernelDescriptor {
            group_segment_fixed_size: le32(bytes, 0),
            private_segment_fixed_size: le32(bytes, 4),
            kernarg_size: le32(bytes, 8),
            entry_byte_offset: i64::from_le_bytes(entry),
            rsrc3: le32(bytes, 44),
            rsrc1: le32(bytes, 48),
            rsrc2: le32(bytes, 52),
            code_properties: le16(bytes, 56),
            kernarg_preload: le16(bytes, 58),
        })
    }

    fn rsrc2_field(&self, name: &str) -> u32 {
        RSRC2_FIELDS
            .iter()
            .find(|f| f.name == name)
            .map_or(0, |f| f.get(self.rsrc2))
    }

    fn rsrc1_field(&self, name: &str) -> u32 {
        RSRC1_FIELDS
            .iter()
            .find(|f| f.name == name)
            .map_or(0, |f| f.get(self.rsrc1))
    }

    /// The user SGPR inputs enabled, in load order, each with its first SGPR and count.
    pub fn user_sgprs(&self) -> Vec<(UserSgpr, u32, u32)> {
        let mut next = 0;
        let mut out = Vec::new();
        for (input, count, bit) in USER_SGPRS {
            if self.code_properties >> bit & 1 == 1 {
                out.push((input, next, count));
                next += count;
            }
        }
        out
    }

    /// SGPRs of kernel arguments preloaded after the user SGPR inputs (GFX90A+ feature).
    pub fn kernarg_preload_sgprs(&self) -> u32 {
        (self.kernarg_preload & 0x7f) as u32
    }

    /// Dwords into the kernarg segment where the preloaded arguments start.
    pub fn kernarg_preload_offset(&self) -> u32 {
        (self.kernarg_preload >> 7) as u32
    }

    /// USER_SGPR_COUNT of RSRC2: where the system SGPRs start.
    pub fn user_sgpr_count(&self) -> u32 {
        self.rsrc2_field("USER_SGPR_COUNT")
    }

    /// Which workgroup-id SGPRs (x, y, z) follow the user SGPRs.
    pub fn workgroup_id_sgprs(&self) -> [bool; 3] {
        [
            self.rsrc2_field("ENABLE_SGPR_WORKGROUP_ID_X") == 1,
            self.rsrc2_field("ENABLE_SGPR_WORKGROUP_ID_Y") == 1,
            self.rsrc2_field("ENABLE_SGPR_WORKGROUP_ID_Z") == 1,
        ]
    }

    pub fn workgroup_info_sgpr(&self) -> bool {
        self.rsrc2_field("ENABLE_SGPR_WORKGROUP_INFO") == 1
    }

    /// RSRC2's ENABLE_PRIVATE_SEGMENT: scratch (a wave offset SGPR after the others).
    pub fn private_segment(&self) -> bool {
        self.rsrc2_field("ENABLE_PRIVATE_SEGMENT") == 1
    }

    /// Work-item id dimensions in VGPRs: 1 (x), 2 (x, y) or 3 (x, y, z).
    pub fn workitem_id_dims(&self) -> u32 {
        self.rsrc2_field("ENABLE_VGPR_WORKITEM_ID").min(2) + 1
    }

    /// Wave32 (set on RDNA unless compiled for wave64).
    pub fn wavefront_size32(&self) -> bool {
        self.code_properties >> WAVEFRONT_SIZE32_BIT & 1 == 1
    }

    pub fn uses_dynamic_stack(&self) -> bool {
        self.code_properties >> USES_DYNAMIC_STACK_BIT & 1 == 1
    }

    /// The MODE register value RSRC1 asks for: round modes in bits 3:0, denormal modes in
    /// bits 7:4, DX10 clamp bit 8 and IEEE bit 9 (those two only up to GFX11: on GFX12 the
    /// RSRC1 bits mean other things and `gfx12` keeps both set, as the emulator's default).
    pub fn mode_bits(&self, gfx12: bool) -> u32 {
        let round = self.rsrc1_field("FLOAT_ROUND_MODE_32")
            | self.rsrc1_field("FLOAT_ROUND_MODE_16_64") << 2;
        let denorm = self.rsrc1_field("FLOAT_DENORM_MODE_32")
            | self.rsrc1_field("FLOAT_DENORM_MODE_16_64") << 2;
        let (dx10, ieee) = if gfx12 {
            (1, 1)
        } else {
            (
                self.rsrc1_field("ENABLE_DX10_CLAMP"),
                self.rsrc1_field("ENABLE_IEEE_MODE"),
            )
        };
        round | denorm << 4 | dx10 << 8 | ieee << 9
    }

    /// RSRC3's fields for the generation.
    pub fn rsrc3_fields(generation: &str) -> &'static [Field] {
        let traits = crate::tables::Traits::named(generation);
        if traits.gfx90a {
            RSRC3_FIELDS_CDNA
        } else if traits.gfx == 9 {
            // gfx908 has no COMPUTE_PGM_RSRC3.
            &[]
        } else {
            RSRC3_FIELDS_RDNA
        }
    }
}

/// Text of a float round mode field value.
pub fn round_mode_name(v: u32) -> &'static str {
    match v {
        0 => "nearest-even",
        1 => "plus-infinity",
        2 => "minus-infinity",
        _ => "toward-zero",
    }
}

/// Text of a float denormal mode field value.
pub fn denorm_mode_name(v: u32) -> &'static str {
    match v {
        0 => "flush-in-and-out",
        1 => "flush-out",
        2 => "flush-in",
        _ => "keep",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn descriptor(rsrc1: u32, rsrc2: u32, props: u16) -> Vec<u8> {
        let mut b = vec![0u8; 64];
        b[0..4].copy_from_slice(&256u32.to_le_bytes());
        b[8..12].copy_from_slice(&28u32.to_le_bytes());
        b[16..24].copy_from_slice(&(-0x100i64).to_le_bytes());
        b[48..52].copy_from_slice(&rsrc1.to_le_bytes());
        b[52..56].copy_from_slice(&rsrc2.to_le_bytes());
        b[56..58].copy_from_slice(&props.to_le_bytes());
        b
    }

    #[test]
    fn fields_and_inputs_in_load_order() {
        // Dispatch ptr and kernarg ptr enabled; 4 user SGPRs; workgroup id x and y; v0-v1.
        let rsrc2 = 4 << 1 | 1 << 7 | 1 << 8 | 1 << 11;
        let d = KernelDescriptor::parse(&descriptor(0x00AF_0000, rsrc2, 0b1010 | 1 << 10)).unwrap();
        assert_eq!(d.group_segment_fixed_size, 256);
        assert_eq!(d.kernarg_size, 28);
        assert_eq!(d.entry_byte_offset, -0x100);
        assert_eq!(
            d.user_sgprs(),
            vec![
                (UserSgpr::DispatchPtr, 0, 2),
                (UserSgpr::KernargSegmentPtr, 2, 2)
            ]
        );
        assert_eq!(d.user_sgpr_count(), 4);
        assert_eq!(d.workgroup_id_sgprs(), [true, true, false]);
        assert_eq!(d.workitem_id_dims(), 2);
        assert!(d.wavefront_size32());
        // 0x00AF0000: denorm 32 = 3, denorm 16/64 = 3, DX10 clamp on, IEEE on.
        assert_eq!(d.mode_bits(false), 0xF0 | 1 << 8 | 1 << 9);
        assert_eq!(d.mode_bits(true), 0xF0 | 1 << 8 | 1 << 9);
        let flush = KernelDescriptor::parse(&descriptor(0x3 << 18, 0, 0)).unwrap();
        assert_eq!(flush.mode_bits(false), 0xC0);
    }

    #[test]
    fn short_descriptor_is_an_error() {
        let e = KernelDescriptor::parse(&[0u8; 40]).unwrap_err();
        assert!(e.contains("64 bytes") && e.contains("40"), "{e}");
    }
}
