// A kernel that never ends (a branch to itself), for the instruction-budget test; and one
// whose second wave never reaches the barrier its first wave waits at.
.amdgcn_target "amdgcn-amd-amdhsa--gfx803"
.text
.globl spin
.p2align 8
.type spin,@function
spin:
  s_branch spin
  s_endpgm

.globl half_barrier
.p2align 8
.type half_barrier,@function
half_barrier:
  // v0 = work-item id: lanes 64..127 (wave 1) spin, wave 0 waits at the barrier.
  v_cmp_gt_u32 vcc, 64, v0
  s_cbranch_vccz 2
  s_barrier
  s_endpgm
  s_branch -1
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel spin
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 1
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel half_barrier
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 1
.end_amdhsa_kernel
