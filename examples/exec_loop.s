// A loop whose trip count differs per lane, run under EXEC masking (every generation):
// acc = 0 + 1 + … + (n - 1) with n = v0; lanes leave the loop as they finish, and the wave
// leaves when EXEC is empty. Then an if-block for the lanes with n > 2 (v3 = 3·acc) with
// s_and_saveexec_b64 / s_cbranch_execz / s_or_b64.
  v_mov_b32 v1, 0                  // acc
  v_mov_b32 v2, 0                  // i
  s_mov_b64 s[0:1], exec           // the lanes that entered
loop:
  v_cmp_lt_u32 vcc, v2, v0         // i < n
  s_and_b64 exec, exec, vcc        // lanes that are done drop out
  s_cbranch_execz loop_end
  v_mad_u32_u24 v1, v2, 1, v1      // acc += i
  v_mad_u32_u24 v2, v2, 1, 1       // i += 1
  s_add_u32 s4, s4, 1              // iterations the wave ran
  s_branch loop
loop_end:
  s_mov_b64 exec, s[0:1]
  v_cmp_lt_u32 vcc, 2, v0          // n > 2
  s_and_saveexec_b64 s[2:3], vcc
  s_cbranch_execz if_end
  v_mul_lo_u32 v3, v1, 3
if_end:
  s_or_b64 exec, exec, s[2:3]
  s_endpgm
