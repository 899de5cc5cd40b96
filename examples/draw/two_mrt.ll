; Two render targets: MRT0 gets attribute 0 interpolated (a colour), MRT1 gets the
; interpolation coordinates themselves and the pixel position (POS_X_FLOAT, POS_Y_FLOAT)
; scaled by 1/64: (I, J, x/64, y/64). The last export carries DONE and VM.
;   llc-19 -mtriple=amdgcn-mesa-mesa3d -mcpu=bonaire -filetype=obj two_mrt.ll -o two_mrt.o

define amdgpu_ps void @main(i32 inreg %prim_mask, <2 x float> %persp_sample, <2 x float> %persp_center,
    <2 x float> %persp_centroid, <3 x float> %persp_pull, <2 x float> %linear_sample,
    <2 x float> %linear_center, <2 x float> %linear_centroid, float %line_stipple,
    float %pos_x, float %pos_y) {
  %i = extractelement <2 x float> %persp_center, i32 0
  %j = extractelement <2 x float> %persp_center, i32 1
  %r.1 = call float @llvm.amdgcn.interp.p1(float %i, i32 0, i32 0, i32 %prim_mask)
  %r = call float @llvm.amdgcn.interp.p2(float %r.1, float %j, i32 0, i32 0, i32 %prim_mask)
  %g.1 = call float @llvm.amdgcn.interp.p1(float %i, i32 1, i32 0, i32 %prim_mask)
  %g = call float @llvm.amdgcn.interp.p2(float %g.1, float %j, i32 1, i32 0, i32 %prim_mask)
  %b.1 = call float @llvm.amdgcn.interp.p1(float %i, i32 2, i32 0, i32 %prim_mask)
  %b = call float @llvm.amdgcn.interp.p2(float %b.1, float %j, i32 2, i32 0, i32 %prim_mask)
  %a.1 = call float @llvm.amdgcn.interp.p1(float %i, i32 3, i32 0, i32 %prim_mask)
  %a = call float @llvm.amdgcn.interp.p2(float %a.1, float %j, i32 3, i32 0, i32 %prim_mask)
  %x = fmul float %pos_x, 0x3F90000000000000
  %y = fmul float %pos_y, 0x3F90000000000000
  call void @llvm.amdgcn.exp.f32(i32 0, i32 15, float %r, float %g, float %b, float %a, i1 false, i1 false)
  call void @llvm.amdgcn.exp.f32(i32 1, i32 15, float %i, float %j, float %x, float %y, i1 true, i1 true)
  ret void
}

declare float @llvm.amdgcn.interp.p1(float, i32, i32, i32)
declare float @llvm.amdgcn.interp.p2(float, float, i32, i32, i32)
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
