// A hand-written AMDHSA kernel for llvm-mc (no metadata note): out[id] = id * 3 + k,
// id = workgroup_id_x * 64 + workitem_id_x. Kernarg: out (u64 pointer) at 0, k (u32) at 8.
.amdgcn_target "amdgcn-amd-amdhsa--gfx803"
.text
.globl wave_ids
.p2align 8
.type wave_ids,@function
wave_ids:
  // s[0:1] dispatch packet, s[2:3] kernarg segment, s4 workgroup id X.
  s_load_dwordx2 s[6:7], s[2:3], 0x0
  s_load_dword s5, s[2:3], 0x8
  s_lshl_b32 s4, s4, 6
  v_add_u32 v0, vcc, s4, v0
  v_mul_u32_u24 v1, 3, v0
  s_waitcnt lgkmcnt(0)
  v_add_u32 v1, vcc, s5, v1
  v_lshlrev_b32 v2, 2, v0
  v_mov_b32 v3, s7
  v_add_u32 v2, vcc, s6, v2
  v_addc_u32 v3, vcc, v3, 0, vcc
  flat_store_dword v[2:3], v1
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel wave_ids
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_user_sgpr_dispatch_ptr 1
  .amdhsa_kernarg_size 16
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_next_free_vgpr 4
  .amdhsa_next_free_sgpr 8
  .amdhsa_reserve_vcc 1
  .amdhsa_reserve_flat_scratch 0
.end_amdhsa_kernel
