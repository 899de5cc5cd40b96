; dpp — kernel 2 of the benchmark suite: a wave-wide inclusive prefix sum and
; reduction with DPP (row_shr:1/2/4/8, row_bcast:15, row_bcast:31 — the gfx8 scan
; LLVM's atomic optimizer emits), a quad maximum with quad_perm and an exclusive scan
; with wave_shr:1, over a new 64-value batch every iteration of a scalar-counted loop.
;
; In:  v0 = lane id, s0 = iterations (>= 1).
; Out: v1 = the generator state, v2 = the last batch, v3 = its inclusive prefix sums
;      (lane 63: the batch total), v4 = the maximum of each quad, v5 = the exclusive
;      prefix sums; v6 = the sum over all batches of the inclusive prefix sums, v7 = the
;      sum of the quad maxima, v8 = the xor of the exclusive sums.

  s_mov_b32 s6, 0x9e3779b9
  s_mov_b32 s7, 0x5bd1e9
  v_mul_lo_u32 v1, s6, v0             ; generator state
  v_mov_b32 v6, 0
  v_mov_b32 v7, 0
  v_mov_b32 v8, 0
loop:
  v_mad_u32_u24 v1, v1, s7, v0        ; next state: u24(x) * 0x5bd1e9 + lane
  v_lshrrev_b32 v2, 8, v1             ; this batch's values (24 bits)
  v_mov_b32 v3, v2
  v_add_u32_dpp v3, vcc, v3, v3 row_shr:1 row_mask:0xf bank_mask:0xf
  v_add_u32_dpp v3, vcc, v3, v3 row_shr:2 row_mask:0xf bank_mask:0xf
  v_add_u32_dpp v3, vcc, v3, v3 row_shr:4 row_mask:0xf bank_mask:0xf
  v_add_u32_dpp v3, vcc, v3, v3 row_shr:8 row_mask:0xf bank_mask:0xf
  v_add_u32_dpp v3, vcc, v3, v3 row_bcast:15 row_mask:0xa bank_mask:0xf
  v_add_u32_dpp v3, vcc, v3, v3 row_bcast:31 row_mask:0xc bank_mask:0xf
  v_max_u32_dpp v4, v2, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
  v_max_u32_dpp v4, v4, v4 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf
  v_mov_b32_dpp v5, v3 wave_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:0
  v_add_u32 v6, vcc, v6, v3
  v_add_u32 v7, vcc, v7, v4
  v_xor_b32 v8, v8, v5
  s_sub_u32 s0, s0, 1
  s_cmp_lg_u32 s0, 0
  s_cbranch_scc1 loop
  s_endpgm
