// Unpacking and repacking bytes and words with SDWA (GCN 1.2): v0 holds four packed bytes
// per lane.
v_mov_b32_sdwa v1, v0 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0        // byte 0
v_mov_b32_sdwa v2, v0 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1        // byte 1
v_mov_b32_sdwa v3, v0 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_2        // byte 2
v_mov_b32_sdwa v4, v0 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_3        // byte 3
v_mov_b32_sdwa v5, sext(v0) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_3  // byte 3 as i8
v_cvt_f32_u32_sdwa v6, v0 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1    // high word as f32
// Byte swap: one byte per instruction, the others preserved.
v_mov_b32_sdwa v7, v0 dst_sel:BYTE_0 dst_unused:UNUSED_PAD src0_sel:BYTE_3
v_mov_b32_sdwa v7, v0 dst_sel:BYTE_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_2
v_mov_b32_sdwa v7, v0 dst_sel:BYTE_2 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_1
v_mov_b32_sdwa v7, v0 dst_sel:BYTE_3 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0
// (high word ^ byte 0) in the low word, sign-extended into the high word.
v_xor_b32_sdwa v8, v0, v0 dst_sel:WORD_0 dst_unused:UNUSED_SEXT src0_sel:WORD_1 src1_sel:BYTE_0
// A 32-bit float result placed in the high word: its low 16 bits land in bits 16-31.
v_add_f32_sdwa v9, v6, v6 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD
s_endpgm
