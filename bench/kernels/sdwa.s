; sdwa — kernel 3 of the benchmark suite: SDWA byte/word unpacking, operations
; on selected bytes and words (zero- and sign-extended), and packing back with
; dst_sel/dst_unused, in a scalar-counted loop.
;
; In:  v0 = lane id, s0 = iterations (>= 1).
; Out: p = v1 (four bytes), q = v2 (two words), the last iteration's temporaries v10-v24
;      and VCC (carry of the v_add_u32_sdwa).

  s_mov_b32 s6, 0x9e3779b9
  s_mov_b32 s7, 0x7feb352d
  v_mul_lo_u32 v1, s6, v0             ; p = lane * 0x9e3779b9
  v_mul_lo_u32 v2, s7, v0             ; q = lane * 0x7feb352d ^ p
  v_xor_b32 v2, v2, v1
  v_mov_b32 v22, 0
loop:
  ; unpack
  v_mov_b32_sdwa v10, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0
  v_mov_b32_sdwa v11, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1
  v_mov_b32_sdwa v12, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_2
  v_mov_b32_sdwa v13, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_3
  v_mov_b32_sdwa v14, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_0
  v_mov_b32_sdwa v15, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1
  ; operate on selected parts
  v_mul_u32_u24_sdwa v16, v1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_2 src1_sel:WORD_1
  v_max_i32_sdwa v17, sext(v1), sext(v2) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_3 src1_sel:WORD_0
  v_xor_b32_sdwa v18, v10, v2 dst_sel:WORD_1 dst_unused:UNUSED_SEXT src0_sel:BYTE_0 src1_sel:WORD_1
  v_min_u32_sdwa v19, v11, v12 dst_sel:BYTE_2 dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:BYTE_0
  v_add_u32_sdwa v20, vcc, v16, v17 dst_sel:WORD_0 dst_unused:UNUSED_SEXT src0_sel:WORD_0 src1_sel:DWORD
  v_lshlrev_b32_sdwa v21, v13, v14 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:WORD_0
  v_and_b32_sdwa v22, v21, v15 dst_sel:BYTE_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_2 src1_sel:BYTE_0
  ; pack four bytes
  v_or_b32_sdwa v23, v10, v13 dst_sel:BYTE_0 dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:BYTE_0
  v_xor_b32_sdwa v23, v16, v11 dst_sel:BYTE_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_1 src1_sel:BYTE_0
  v_mul_u32_u24_sdwa v23, v20, v12 dst_sel:BYTE_2 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0 src1_sel:BYTE_0
  v_mov_b32_sdwa v23, v17 dst_sel:BYTE_3 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0
  ; pack two words
  v_or_b32_sdwa v24, v18, v19 dst_sel:WORD_0 dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:WORD_1
  v_mov_b32_sdwa v24, v22 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0
  ; feed back, mixed with the old values so that the state does not collapse
  v_alignbit_b32 v1, v1, v1, 7
  v_xor_b32 v1, v1, v23
  v_alignbit_b32 v2, v2, v2, 13
  v_xor_b32 v2, v2, v24
  s_sub_u32 s0, s0, 1
  s_cmp_lg_u32 s0, 0
  s_cbranch_scc1 loop
  s_endpgm
