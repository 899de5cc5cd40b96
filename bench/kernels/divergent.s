; divergent — kernel 5 of the benchmark suite: a loop whose trip count differs
; per lane. Each pass of the inner loop compares, narrows EXEC with s_and_saveexec_b64 and
; leaves through s_cbranch_execz when no lane is left; EXEC is restored after the loop.
; A scalar-counted outer loop repeats it.
;
; In:  v0 = lane id, s0 = outer repetitions (>= 1).
; Out: v1 = trip count = 16 + (lane * 37) & 63, v2 = the last inner counter (= v1),
;      v3 = an integer hash and v4 = an f32 sum accumulated over every inner iteration
;      of every repetition; EXEC all ones again.

  v_mul_u32_u24 v1, 37, v0
  v_and_b32 v1, 63, v1
  v_add_u32 v1, vcc, 16, v1           ; trip count in [16, 79]
  v_mov_b32 v3, v0
  v_mov_b32 v4, 0
outer:
  s_mov_b64 s[12:13], exec
  v_mov_b32 v2, 0                     ; k = 0
inner:
  v_cmp_lt_u32 vcc, v2, v1            ; lanes with k < trip
  s_and_saveexec_b64 s[10:11], vcc
  s_cbranch_execz inner_end
  v_add_u32 v2, vcc, 1, v2            ; k += 1
  v_xor_b32 v5, v3, v2
  v_lshlrev_b32 v6, 3, v5
  v_mad_u32_u24 v3, v5, 5, v6         ; h = u24(h ^ k) * 5 + ((h ^ k) << 3)
  v_cvt_f32_u32 v7, v2
  v_mad_f32 v4, v7, 0.5, v4           ; sum += k / 2
  s_branch inner
inner_end:
  s_mov_b64 exec, s[12:13]
  s_sub_u32 s0, s0, 1
  s_cmp_lg_u32 s0, 0
  s_cbranch_scc1 outer
  s_endpgm
