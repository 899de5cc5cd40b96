// c[i] = a[i] + b[i] for i < n (unsigned, wrapping) on GCN 1.0, which has no FLAT: MUBUF
// with 64-bit addresses (addr64) and a buffer resource of base 0.
// @kernel vadd(global const uint *a, global const uint *b, global uint *c, uint n)
	.amdgcn_target "amdgcn-amd-amdhsa--gfx600"
	.text
	.globl vadd
	.p2align 8
	.type vadd,@function
vadd:
	// SMRD offsets count dwords before GCN 1.2.
	s_load_dword s5, s[0:1], 0x1            // workgroup_size_x | workgroup_size_y << 16
	s_load_dwordx4 s[8:11], s[2:3], 0x0     // a, b
	s_load_dwordx2 s[12:13], s[2:3], 0x4    // c
	s_load_dword s14, s[2:3], 0x6           // n
	s_waitcnt lgkmcnt(0)
	s_and_b32 s5, s5, 0xffff
	s_mul_i32 s5, s4, s5
	v_add_i32 v0, vcc, s5, v0
	v_cmp_gt_u32 vcc, s14, v0
	s_and_saveexec_b64 s[6:7], vcc
	s_cbranch_execz .Ldone
	v_lshlrev_b32 v2, 2, v0
	v_mov_b32 v3, 0                         // v[2:3]: the byte offset, 64-bit
	s_mov_b32 s18, 0
	s_mov_b32 s19, 0x100f000                // DATA_FORMAT 32
	s_mov_b64 s[16:17], s[8:9]
	s_mov_b64 s[20:21], s[10:11]
	s_mov_b64 s[22:23], s[18:19]
	s_mov_b64 s[24:25], s[12:13]
	s_mov_b64 s[26:27], s[18:19]
	buffer_load_dword v4, v[2:3], s[16:19], 0 addr64
	buffer_load_dword v5, v[2:3], s[20:23], 0 addr64
	s_waitcnt vmcnt(0)
	v_add_i32 v4, vcc, v4, v5
	buffer_store_dword v4, v[2:3], s[24:27], 0 addr64
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
		.amdhsa_next_free_vgpr 6
		.amdhsa_next_free_sgpr 28
	.end_amdhsa_kernel
