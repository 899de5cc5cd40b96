; valu — kernel 1 of the benchmark suite: a block of 32 VALU instructions
; (f32 add/mul/fma/mad/min/max/med3/cvt, integer xor/shifts/add/bfe/bfi/alignbit/mul/
; mad_u24/min/max/med3) in a scalar-counted loop.
;
; In:  v0 = lane id, s0 = iterations (>= 1), MODE = 0xF0 (round to nearest even,
;      denormals kept: the semantics of host IEEE arithmetic).
; Out: x = v1, y = v2 (f32), a = v3, b = v4 (u32), the last iteration's temporaries
;      v5-v28 and VCC (carry of the last v_add_u32).
; The values stay finite: x is clamped to [-4, 4] by v_med3_f32, y is in [-2, 3).

  s_mov_b32 s6, 0x9e3779b9
  s_mov_b32 s7, 0x85ebca6b
  v_cvt_f32_u32 v1, v0                ; x = 2 - lane/16
  v_mul_f32 v1, 0x3d800000, v1
  v_sub_f32 v1, 2.0, v1
  v_mad_f32 v2, v1, -0.5, 1.0         ; y = 1 - x/2
  v_mul_lo_u32 v3, s6, v0             ; a = lane * 0x9e3779b9
  v_mul_lo_u32 v4, s7, v0             ; b = lane * 0x85ebca6b ^ a
  v_xor_b32 v4, v4, v3
loop:
  v_mul_f32 v5, 0.5, v1               ;  1 t = x/2
  v_add_f32 v6, v5, v2                ;  2 u = t + y
  v_fma_f32 v7, v6, v5, v1            ;  3 w = fma(u, t, x)
  v_mad_f32 v8, v7, 0.5, v2           ;  4 m = w/2 + y (unfused)
  v_min_f32 v9, 4.0, v8               ;  5
  v_max_f32 v9, -4.0, v9              ;  6 c = clamp(m, -4, 4)
  v_med3_f32 v10, v9, v7, v6          ;  7
  v_sub_f32 v10, v10, v5              ;  8
  v_med3_f32 v1, v10, -4.0, 4.0       ;  9 x' = clamp(med3(c, w, u) - t, -4, 4)
  v_xor_b32 v11, v3, v4               ; 10 h = a ^ b
  v_lshlrev_b32 v12, 5, v11           ; 11
  v_lshrrev_b32 v13, 3, v3            ; 12
  v_add_u32 v14, vcc, v12, v13        ; 13 s = (h << 5) + (a >> 3)
  v_bfe_u32 v15, v14, 7, 13           ; 14 f = s[19:7]
  v_bfi_b32 v16, v11, v14, v4         ; 15 g = (h & s) | (~h & b)
  v_alignbit_b32 v17, v16, v15, 11    ; 16 k = ({g, f} >> 11)[31:0]
  v_mul_lo_u32 v18, v17, v13          ; 17
  v_mad_u32_u24 v19, v17, v15, v4     ; 18
  v_ashrrev_i32 v20, 2, v18           ; 19
  v_min_u32 v21, v19, v20             ; 20
  v_max_i32 v22, v19, v20             ; 21
  v_med3_i32 v23, v21, v22, v11       ; 22
  v_xor_b32 v3, v23, v17              ; 23 a'
  v_cvt_f32_u32 v24, v15              ; 24 f < 2^13: exact
  v_mul_f32 v24, 0x39800000, v24      ; 25 f / 4096
  v_add_f32 v2, v24, v9               ; 26
  v_mul_f32 v2, 0.5, v2               ; 27 y' = (f/4096 + c) / 2
  v_cvt_i32_f32 v25, v1               ; 28 trunc(x')
  v_xor_b32 v26, v25, v16             ; 29
  v_lshrrev_b32 v27, 1, v26           ; 30
  v_add_u32 v4, vcc, v27, v19         ; 31 b'
  v_cvt_f32_i32 v28, v25              ; 32
  s_sub_u32 s0, s0, 1
  s_cmp_lg_u32 s0, 0
  s_cbranch_scc1 loop
  s_endpgm
