; vintrp — kernel 4 of the benchmark suite: barycentric interpolation of four
; attributes (x, y, z, w each) with v_interp_p1_f32/v_interp_p2_f32, plus a flat
; attribute with v_interp_mov_f32, for a new batch of 64 pixels every iteration of a
; scalar-counted loop. The parameters live in LDS at M0 = 0 (one primitive); the state
; file holds them.
;
; In:  v0 = lane id, s0 = iterations (>= 1), s4 = di, s5 = dj (f32 steps of the
;      barycentrics per batch), MODE = 0xF0, LDS = 4 attributes x 12 dwords.
; Out: v1 = i, v2 = j of the last batch; v10-v25 = the sums over all batches of the
;      16 interpolated channels; v26 = attribute 0's P0.x (flat).

  s_mov_b32 m0, 0
  v_and_b32 v2, 7, v0                 ; i = (lane & 7) / 8, j = (lane >> 3) / 8
  v_cvt_f32_u32 v1, v2
  v_mul_f32 v1, 0.125, v1
  v_lshrrev_b32 v2, 3, v0
  v_cvt_f32_u32 v2, v2
  v_mul_f32 v2, 0.125, v2
  v_mov_b32 v10, 0
  v_mov_b32 v11, 0
  v_mov_b32 v12, 0
  v_mov_b32 v13, 0
  v_mov_b32 v14, 0
  v_mov_b32 v15, 0
  v_mov_b32 v16, 0
  v_mov_b32 v17, 0
  v_mov_b32 v18, 0
  v_mov_b32 v19, 0
  v_mov_b32 v20, 0
  v_mov_b32 v21, 0
  v_mov_b32 v22, 0
  v_mov_b32 v23, 0
  v_mov_b32 v24, 0
  v_mov_b32 v25, 0
loop:
  v_add_f32 v1, s4, v1                ; next batch of pixels
  v_add_f32 v2, s5, v2
  v_interp_p1_f32 v30, v1, attr0.x
  v_interp_p2_f32 v30, v2, attr0.x
  v_interp_p1_f32 v31, v1, attr0.y
  v_interp_p2_f32 v31, v2, attr0.y
  v_interp_p1_f32 v32, v1, attr0.z
  v_interp_p2_f32 v32, v2, attr0.z
  v_interp_p1_f32 v33, v1, attr0.w
  v_interp_p2_f32 v33, v2, attr0.w
  v_interp_p1_f32 v34, v1, attr1.x
  v_interp_p2_f32 v34, v2, attr1.x
  v_interp_p1_f32 v35, v1, attr1.y
  v_interp_p2_f32 v35, v2, attr1.y
  v_interp_p1_f32 v36, v1, attr1.z
  v_interp_p2_f32 v36, v2, attr1.z
  v_interp_p1_f32 v37, v1, attr1.w
  v_interp_p2_f32 v37, v2, attr1.w
  v_interp_p1_f32 v38, v1, attr2.x
  v_interp_p2_f32 v38, v2, attr2.x
  v_interp_p1_f32 v39, v1, attr2.y
  v_interp_p2_f32 v39, v2, attr2.y
  v_interp_p1_f32 v40, v1, attr2.z
  v_interp_p2_f32 v40, v2, attr2.z
  v_interp_p1_f32 v41, v1, attr2.w
  v_interp_p2_f32 v41, v2, attr2.w
  v_interp_p1_f32 v42, v1, attr3.x
  v_interp_p2_f32 v42, v2, attr3.x
  v_interp_p1_f32 v43, v1, attr3.y
  v_interp_p2_f32 v43, v2, attr3.y
  v_interp_p1_f32 v44, v1, attr3.z
  v_interp_p2_f32 v44, v2, attr3.z
  v_interp_p1_f32 v45, v1, attr3.w
  v_interp_p2_f32 v45, v2, attr3.w
  v_interp_mov_f32 v26, p0, attr0.x
  v_add_f32 v10, v10, v30
  v_add_f32 v11, v11, v31
  v_add_f32 v12, v12, v32
  v_add_f32 v13, v13, v33
  v_add_f32 v14, v14, v34
  v_add_f32 v15, v15, v35
  v_add_f32 v16, v16, v36
  v_add_f32 v17, v17, v37
  v_add_f32 v18, v18, v38
  v_add_f32 v19, v19, v39
  v_add_f32 v20, v20, v40
  v_add_f32 v21, v21, v41
  v_add_f32 v22, v22, v42
  v_add_f32 v23, v23, v43
  v_add_f32 v24, v24, v44
  v_add_f32 v25, v25, v45
  s_sub_u32 s0, s0, 1
  s_cmp_lg_u32 s0, 0
  s_cbranch_scc1 loop
  s_endpgm
