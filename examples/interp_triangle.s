// Barycentric interpolation of two attributes over two primitives with VINTRP
// (001_43f5507a70f72cb4.txt; every generation). M0 = 0x00080010: the parameters start at
// LDS byte 16, and NEWPRIMMASK bit 3 starts primitive 1 at quad 4 (lane 16). v0 = I,
// v1 = J per lane.
s_mov_b32 m0, 0x80010
v_interp_p1_f32 v2, v0, attr0.x          // P0 + I·P10
v_interp_p2_f32 v2, v1, attr0.x          //    + J·P20
v_interp_p1_f32 v3, v0, attr0.y
v_interp_p2_f32 v3, v1, attr0.y
v_interp_p1_f32 v4, v0, attr1.w
v_interp_p2_f32 v4, v1, attr1.w
v_interp_mov_f32 v5, p0, attr1.z
v_interp_mov_f32 v6, p20, attr0.x
v_interp_mov_f32 v7, p10, attr1.y
s_endpgm
