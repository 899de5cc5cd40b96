; A gradient: each colour channel interpolated with v_interp_p1/p2 (llvm.amdgcn.interp.p1
; and .p2) from attribute 0 at the pixel centre (PERSP_CENTER), alpha 1.
;   llc-19 -mtriple=amdgcn-mesa-mesa3d -mcpu=tonga -filetype=obj gradient.ll -o gradient.o
; The arguments follow the hardware's input order (SPI_PS_INPUT_ENA bits): the primitive
; mask in the first SGPR argument, then PERSP_SAMPLE (unused) and PERSP_CENTER.

define amdgpu_ps void @main(i32 inreg %prim_mask, <2 x float> %persp_sample, <2 x float> %persp_center) {
  %i = extractelement <2 x float> %persp_center, i32 0
  %j = extractelement <2 x float> %persp_center, i32 1
  %r.1 = call float @llvm.amdgcn.interp.p1(float %i, i32 0, i32 0, i32 %prim_mask)
  %r = call float @llvm.amdgcn.interp.p2(float %r.1, float %j, i32 0, i32 0, i32 %prim_mask)
  %g.1 = call float @llvm.amdgcn.interp.p1(float %i, i32 1, i32 0, i32 %prim_mask)
  %g = call float @llvm.amdgcn.interp.p2(float %g.1, float %j, i32 1, i32 0, i32 %prim_mask)
  %b.1 = call float @llvm.amdgcn.interp.p1(float %i, i32 2, i32 0, i32 %prim_mask)
  %b = call float @llvm.amdgcn.interp.p2(float %b.1, float %j, i32 2, i32 0, i32 %prim_mask)
  call void @llvm.amdgcn.exp.f32(i32 0, i32 15, float %r, float %g, float %b, float 1.0, i1 true, i1 true)
  ret void
}

declare float @llvm.amdgcn.interp.p1(float, i32, i32, i32)
declare float @llvm.amdgcn.interp.p2(float, float, i32, i32, i32)
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
