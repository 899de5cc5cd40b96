// Hand-written AMDHSA kernels for llvm-mc + ld.lld (no metadata note: arguments packed in
// order) that read and use code addresses. A helper function is placed before the
// kernels, as clang places `noinline` functions.
//
// getpc(out): out[0..1] = the value of s_getpc_b64 (the address of `after_getpc`), then
//   s_setpc_b64 to `landing` (skipping an s_endpgm), a call to `helper` through
//   s_swappc_b64; out[2..3] = the return address (the address of `after_call`),
//   out[4] = 5 (set by the helper).
// jump(out, target): s_setpc_b64 to `target`; at `jump_landing`, out[0] = 9.
.amdgcn_target "amdgcn-amd-amdhsa--gfx803"
.text
.p2align 2
helper:
  v_mov_b32 v4, 5
  s_setpc_b64 s[30:31]

.globl getpc
.p2align 8
.type getpc,@function
getpc:
  // s[0:1] kernarg segment.
  s_load_dwordx2 s[6:7], s[0:1], 0x0
  v_mov_b32 v4, 0
  s_getpc_b64 s[2:3]
after_getpc:
  s_add_u32 s4, s2, landing-after_getpc
  s_addc_u32 s5, s3, 0
  s_setpc_b64 s[4:5]
  s_endpgm
landing:
  s_sub_u32 s8, s2, after_getpc-helper
  s_subb_u32 s9, s3, 0
  s_swappc_b64 s[30:31], s[8:9]
after_call:
  v_mov_b32 v0, s2
  v_mov_b32 v1, s3
  v_mov_b32 v2, s30
  v_mov_b32 v3, s31
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v6, s6
  v_mov_b32 v7, s7
  flat_store_dwordx4 v[6:7], v[0:3]
  s_add_u32 s6, s6, 16
  s_addc_u32 s7, s7, 0
  v_mov_b32 v6, s6
  v_mov_b32 v7, s7
  flat_store_dword v[6:7], v4
  s_endpgm

.globl jump
.p2align 8
.type jump,@function
jump:
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_setpc_b64 s[6:7]
  s_endpgm
jump_landing:
  v_mov_b32 v0, s4
  v_mov_b32 v1, s5
  v_mov_b32 v2, 9
  flat_store_dword v[0:1], v2
  s_endpgm

.rodata
.p2align 6
.amdhsa_kernel getpc
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 8
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 32
  .amdhsa_reserve_vcc 0
  .amdhsa_reserve_flat_scratch 0
.end_amdhsa_kernel
.p2align 6
.amdhsa_kernel jump
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size 16
  .amdhsa_next_free_vgpr 4
  .amdhsa_next_free_sgpr 8
  .amdhsa_reserve_vcc 0
  .amdhsa_reserve_flat_scratch 0
.end_amdhsa_kernel
