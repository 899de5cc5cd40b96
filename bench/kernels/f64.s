; f64 — kernel 7 of the benchmark suite: four interleaved chains of v_fma_f64
; (32 per iteration, with NEG modifiers) in a scalar-counted loop.
;
; In:  v0 = lane id, s0 = iterations (>= 1), MODE = 0xF0 (round to nearest even,
;      denormals kept).
; Out: the accumulators a = v[4:5], b = v[6:7], c = v[8:9], d = v[10:11]. With
;      |x| < 1 each chain stays bounded (|acc| <= |k| / (1 - |x|)).
;
;   x = (lane - 32) / 64,  k1 = lane / 128 + 0.5,  k2 = -0.25
;   every iteration, 8 times: a = fma(a, x, k1); b = fma(-b, x, k2);
;                             c = fma(c, x, a);  d = fma(-d, x, b)

  v_cvt_f64_u32 v[2:3], v0            ; lane
  v_mov_b32 v20, 0
  v_mov_b32 v21, 0xc0400000           ; -32.0 (high word; low word 0)
  v_add_f64 v[2:3], v[2:3], v[20:21]
  v_mov_b32 v21, 0x3f900000           ; 1/64
  v_mul_f64 v[2:3], v[2:3], v[20:21]  ; x = (lane - 32) / 64, in [-0.5, 0.5)
  v_cvt_f64_u32 v[12:13], v0
  v_mov_b32 v21, 0x3f800000           ; 1/128
  v_fma_f64 v[12:13], v[12:13], v[20:21], 0.5   ; k1 = lane / 128 + 0.5
  v_mov_b32 v14, 0
  v_mov_b32 v15, 0xbfd00000           ; k2 = -0.25
  v_mov_b32 v4, 0
  v_mov_b32 v5, 0
  v_mov_b32 v6, 0
  v_mov_b32 v7, 0
  v_mov_b32 v8, 0
  v_mov_b32 v9, 0
  v_mov_b32 v10, 0
  v_mov_b32 v11, 0
loop:
.rept 8
  v_fma_f64 v[4:5], v[4:5], v[2:3], v[12:13]
  v_fma_f64 v[6:7], -v[6:7], v[2:3], v[14:15]
  v_fma_f64 v[8:9], v[8:9], v[2:3], v[4:5]
  v_fma_f64 v[10:11], -v[10:11], v[2:3], v[6:7]
.endr
  s_sub_u32 s0, s0, 1
  s_cmp_lg_u32 s0, 0
  s_cbranch_scc1 loop
  s_endpgm
