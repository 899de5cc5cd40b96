; lds_matmul — kernel 6 of the benchmark suite: C = A x B for N x N f32
; matrices (N a multiple of 16), tiled through LDS: a workgroup of 16 x 16 work-items
; (four waves) computes one 16 x 16 tile of C; for each of the N/16 tiles along k it
; loads one element of A and one of B per work-item (flat_load_dword), stores them in LDS
; (ds_write_b32), meets the other waves at s_barrier, and accumulates 16 products read
; back with ds_read2_b32 (v_mac_f32), then meets them again before the next tile.
;
; Dispatch (AMDHSA): kernarg pointer in s[0:1] (A: u64, B: u64, C: u64, N: u32),
; workgroup id X in s2 and Y in s3, work-item id X in v0 and Y in v1, MODE 0xF0.
; LDS: As[16][16] at byte 0, Bs[16][16] at byte 1024.

  s_load_dwordx4 s[4:7], s[0:1], 0x0      ; A, B
  s_load_dwordx2 s[8:9], s[0:1], 0x10     ; C
  s_load_dword s10, s[0:1], 0x18          ; N
  s_waitcnt lgkmcnt(0)
  s_lshl_b32 s11, s2, 4                   ; first column of the tile
  s_lshl_b32 s12, s3, 4                   ; first row of the tile
  v_add_u32 v2, vcc, s11, v0              ; col
  v_add_u32 v3, vcc, s12, v1              ; row
  v_mul_lo_u32 v4, v3, s10
  v_add_u32 v4, vcc, v4, v0               ; A index: row * N + tx (+ 16 per tile)
  v_mul_lo_u32 v5, v1, s10
  v_add_u32 v5, vcc, v5, v2               ; B index: ty * N + col (+ 16 N per tile)
  v_lshlrev_b32 v6, 6, v1                 ; As row: ty * 64
  v_lshlrev_b32 v7, 2, v0
  v_add_u32 v8, vcc, v6, v7               ; this work-item's LDS slot: (ty * 16 + tx) * 4
  v_add_u32 v7, vcc, 0x400, v7            ; Bs column: 1024 + tx * 4
  v_mov_b32 v9, 0                         ; acc
  s_lshr_b32 s13, s10, 4                  ; tiles along k
  s_lshl_b32 s14, s10, 4                  ; 16 N
tile:
  v_lshlrev_b32 v10, 2, v4
  v_add_u32 v10, vcc, s4, v10
  v_mov_b32 v11, s5
  v_addc_u32 v11, vcc, 0, v11, vcc
  flat_load_dword v12, v[10:11]           ; A[row][t * 16 + tx]
  v_lshlrev_b32 v13, 2, v5
  v_add_u32 v13, vcc, s6, v13
  v_mov_b32 v14, s7
  v_addc_u32 v14, vcc, 0, v14, vcc
  flat_load_dword v15, v[13:14]           ; B[t * 16 + ty][col]
  s_waitcnt vmcnt(0) lgkmcnt(0)
  ds_write_b32 v8, v12
  ds_write_b32 v8, v15 offset:1024
  s_waitcnt lgkmcnt(0)
  s_barrier
  ds_read2_b32 v[16:17], v6 offset0:0 offset1:1        ; As[ty][0], As[ty][1]
  ds_read2_b32 v[18:19], v6 offset0:2 offset1:3
  ds_read2_b32 v[20:21], v7 offset0:0 offset1:16     ; Bs[0][tx], Bs[1][tx]
  ds_read2_b32 v[22:23], v7 offset0:32 offset1:48
  s_waitcnt lgkmcnt(0)
  v_mac_f32 v9, v16, v20
  v_mac_f32 v9, v17, v21
  v_mac_f32 v9, v18, v22
  v_mac_f32 v9, v19, v23
  ds_read2_b32 v[16:17], v6 offset0:4 offset1:5        ; As[ty][4], As[ty][5]
  ds_read2_b32 v[18:19], v6 offset0:6 offset1:7
  ds_read2_b32 v[20:21], v7 offset0:64 offset1:80     ; Bs[4][tx], Bs[5][tx]
  ds_read2_b32 v[22:23], v7 offset0:96 offset1:112
  s_waitcnt lgkmcnt(0)
  v_mac_f32 v9, v16, v20
  v_mac_f32 v9, v17, v21
  v_mac_f32 v9, v18, v22
  v_mac_f32 v9, v19, v23
  ds_read2_b32 v[16:17], v6 offset0:8 offset1:9        ; As[ty][8], As[ty][9]
  ds_read2_b32 v[18:19], v6 offset0:10 offset1:11
  ds_read2_b32 v[20:21], v7 offset0:128 offset1:144     ; Bs[8][tx], Bs[9][tx]
  ds_read2_b32 v[22:23], v7 offset0:160 offset1:176
  s_waitcnt lgkmcnt(0)
  v_mac_f32 v9, v16, v20
  v_mac_f32 v9, v17, v21
  v_mac_f32 v9, v18, v22
  v_mac_f32 v9, v19, v23
  ds_read2_b32 v[16:17], v6 offset0:12 offset1:13        ; As[ty][12], As[ty][13]
  ds_read2_b32 v[18:19], v6 offset0:14 offset1:15
  ds_read2_b32 v[20:21], v7 offset0:192 offset1:208     ; Bs[12][tx], Bs[13][tx]
  ds_read2_b32 v[22:23], v7 offset0:224 offset1:240
  s_waitcnt lgkmcnt(0)
  v_mac_f32 v9, v16, v20
  v_mac_f32 v9, v17, v21
  v_mac_f32 v9, v18, v22
  v_mac_f32 v9, v19, v23
  s_barrier
  v_add_u32 v4, vcc, 16, v4
  v_add_u32 v5, vcc, s14, v5
  s_sub_u32 s13, s13, 1
  s_cmp_lg_u32 s13, 0
  s_cbranch_scc1 tile
  v_mul_lo_u32 v10, v3, s10
  v_add_u32 v10, vcc, v10, v2
  v_lshlrev_b32 v10, 2, v10
  v_add_u32 v10, vcc, s8, v10
  v_mov_b32 v11, s9
  v_addc_u32 v11, vcc, 0, v11, vcc
  flat_store_dword v[10:11], v9           ; C[row][col]
  s_endpgm
