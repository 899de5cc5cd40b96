// Two kernels for GCN 1.1 in one code object, with their metadata written out as an
// `.amdgpu_metadata` block (code object v4) instead of `@kernel` declarations.
//   reverse: out[64g + l] = in[64g + 63 - l], through LDS and a barrier (workgroups of 64)
//   scale:   out[i] = in[i] * k
	.amdgcn_target "amdgcn-amd-amdhsa--gfx700"
	.amdhsa_code_object_version 4
	.text
	.globl reverse
	.p2align 8
	.type reverse,@function
reverse:
	// User SGPRs: kernarg segment s[0:1]; workgroup id X in s2.
	s_load_dwordx4 s[4:7], s[0:1], 0x0      // in, out
	s_mov_b32 m0, -1                        // LDS accesses are checked against M0
	s_lshl_b32 s8, s2, 6
	v_add_i32 v1, vcc, s8, v0
	v_lshlrev_b32 v1, 2, v1                 // byte offset of the work-item's element
	s_waitcnt lgkmcnt(0)
	v_mov_b32 v3, s5
	v_add_i32 v2, vcc, s4, v1
	v_addc_u32 v3, vcc, v3, 0, vcc
	flat_load_dword v4, v[2:3]
	v_lshlrev_b32 v5, 2, v0                 // LDS address: local id * 4
	s_waitcnt vmcnt(0) lgkmcnt(0)
	ds_write_b32 v5, v4
	s_waitcnt lgkmcnt(0)
	s_barrier
	v_sub_i32 v6, vcc, 63, v0
	v_lshlrev_b32 v6, 2, v6
	ds_read_b32 v7, v6
	v_mov_b32 v3, s7
	v_add_i32 v2, vcc, s6, v1
	v_addc_u32 v3, vcc, v3, 0, vcc
	s_waitcnt lgkmcnt(0)
	flat_store_dword v[2:3], v7
	s_endpgm
.Lreverse_end:
	.size reverse, .Lreverse_end-reverse

	.globl scale
	.p2align 8
	.type scale,@function
scale:
	s_load_dwordx4 s[4:7], s[0:1], 0x0      // in, out
	s_load_dword s8, s[0:1], 0x4            // k (SMRD offsets count dwords on GCN 1.1)
	s_lshl_b32 s9, s2, 6
	v_add_i32 v1, vcc, s9, v0
	v_lshlrev_b32 v1, 2, v1
	s_waitcnt lgkmcnt(0)
	v_mov_b32 v3, s5
	v_add_i32 v2, vcc, s4, v1
	v_addc_u32 v3, vcc, v3, 0, vcc
	flat_load_dword v4, v[2:3]
	v_mov_b32 v3, s7
	v_add_i32 v2, vcc, s6, v1
	v_addc_u32 v3, vcc, v3, 0, vcc
	s_waitcnt vmcnt(0)
	v_mul_lo_u32 v4, v4, s8
	flat_store_dword v[2:3], v4
	s_endpgm
.Lscale_end:
	.size scale, .Lscale_end-scale

	.rodata
	.p2align 6
	.amdhsa_kernel reverse
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 16
		.amdhsa_group_segment_fixed_size 256
		.amdhsa_next_free_vgpr 8
		.amdhsa_next_free_sgpr 9
		.amdhsa_reserve_flat_scratch 0
	.end_amdhsa_kernel
	.p2align 6
	.amdhsa_kernel scale
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 20
		.amdhsa_next_free_vgpr 5
		.amdhsa_next_free_sgpr 10
	.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx700
amdhsa.kernels:
  - .name: reverse
    .symbol: reverse.kd
    .kernarg_segment_size: 16
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 256
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 11
    .vgpr_count: 8
    .max_flat_workgroup_size: 64
    .args:
      - { .name: in, .type_name: 'uint*', .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global, .is_const: true }
      - { .name: out, .type_name: 'uint*', .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
  - .name: scale
    .symbol: scale.kd
    .kernarg_segment_size: 20
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 14
    .vgpr_count: 5
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: in, .type_name: 'uint*', .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global, .is_const: true }
      - { .name: out, .type_name: 'uint*', .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: k, .type_name: uint, .offset: 16, .size: 4, .value_kind: by_value }
...
.end_amdgpu_metadata
