// Wave-wide inclusive prefix sum of v0 (f32) with DPP, and the total in s0 (GCN 1.2).
// Steps 1-3 sum each lane with its 3 predecessors in the row (row_shr:1..3 with
// bound_ctrl, so lanes without a predecessor add 0); steps 4-5 double the span inside the
// row (row_shr:4/8, the lanes that have no source masked off by bank_mask); steps 6-7 carry
// the row totals across rows (row_bcast:15 into rows 1 and 3, row_bcast:31 into rows 2
// and 3). The v_nops are the hardware's DPP hazard waits.
v_add_f32_dpp v1, v0, v0 row_shr:1 bound_ctrl:0
v_add_f32_dpp v1, v0, v1 row_shr:2 bound_ctrl:0
v_add_f32_dpp v1, v0, v1 row_shr:3 bound_ctrl:0
v_nop
v_nop
v_add_f32_dpp v1, v1, v1 row_shr:4 bank_mask:0xe
v_nop
v_nop
v_add_f32_dpp v1, v1, v1 row_shr:8 bank_mask:0xc
v_nop
v_nop
v_add_f32_dpp v1, v1, v1 row_bcast:15 row_mask:0xa
v_nop
v_nop
v_add_f32_dpp v1, v1, v1 row_bcast:31 row_mask:0xc
s_nop 1
v_readlane_b32 s0, v1, 63
s_endpgm
