// VOP3-only operations (003_5ccf112c12817a33.txt): fused vs unfused multiply-add, bit-field
// extracts with constant and per-lane fields, medians and maxima, a 24-bit multiply-add,
// and source modifiers with an output modifier (GCN 1.2).
v_fma_f32 v3, v0, v1, v2                 // fused: one rounding
v_mad_f32 v4, v0, v1, v2                 // unfused: the product is rounded first
v_bfe_u32 v5, v6, 8, 12                  // bits 8-19
v_bfe_i32 v7, v6, v8, v9                 // per-lane offset v8 & 31, width v9 & 31
v_med3_i32 v10, v6, v8, v9
v_med3_f32 v11, v0, v1, v2
v_mad_u32_u24 v12, v6, v8, v9
v_fma_f32 v13, -v0, |v1|, v2 mul:2       // NEG, ABS, then OMOD ×2
v_max3_u32 v14, v6, v8, v9
s_endpgm
