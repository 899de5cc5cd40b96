// c[i] = a[i] + b[i] for i < n (unsigned, wrapping) on GCN 1.2, through FLAT.
// Build:  wavejit asm vadd_gfx8.s -o vadd_gfx8.hsaco
// The arguments are declared in a comment (llvm-mc-19 reads this file as it is):
// @kernel vadd(global const uint *a, global const uint *b, global uint *c, uint n)
	.amdgcn_target "amdgcn-amd-amdhsa--gfx803"
	.text
	.globl vadd
	.p2align 8
	.type vadd,@function
vadd:
	// User SGPRs: dispatch packet s[0:1], kernarg segment s[2:3]; workgroup id X in s4.
	s_load_dword s5, s[0:1], 0x4            // workgroup_size_x | workgroup_size_y << 16
	s_load_dwordx4 s[8:11], s[2:3], 0x0     // a, b
	s_load_dwordx2 s[12:13], s[2:3], 0x10   // c
	s_load_dword s14, s[2:3], 0x18          // n
	s_waitcnt lgkmcnt(0)
	s_and_b32 s5, s5, 0xffff
	s_mul_i32 s5, s4, s5
	v_add_u32 v0, vcc, s5, v0               // i = group * size + local id
	v_cmp_gt_u32 vcc, s14, v0
	s_and_saveexec_b64 s[6:7], vcc
	s_cbranch_execz .Ldone
	v_lshlrev_b32 v1, 2, v0
	v_mov_b32 v3, s9
	v_add_u32 v2, vcc, s8, v1
	v_addc_u32 v3, vcc, v3, 0, vcc
	v_mov_b32 v5, s11
	v_add_u32 v4, vcc, s10, v1
	v_addc_u32 v5, vcc, v5, 0, vcc
	flat_load_dword v2, v[2:3]
	flat_load_dword v4, v[4:5]
	v_mov_b32 v7, s13
	v_add_u32 v6, vcc, s12, v1
	v_addc_u32 v7, vcc, v7, 0, vcc
	s_waitcnt vmcnt(0)
	v_add_u32 v2, vcc, v2, v4
	flat_store_dword v[6:7], v2
.Ldone:
	s_endpgm
.Lvadd_end:
	.size vadd, .Lvadd_end-vadd

	.rodata
	.p2align 6
	.amdhsa_kernel vadd
		.amdhsa_user_sgpr_dispatch_ptr 1
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 28
		.amdhsa_next_free_vgpr 8
		.amdhsa_next_free_sgpr 15
		.amdhsa_reserve_flat_scratch 0
	.end_amdhsa_kernel
