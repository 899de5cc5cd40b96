; Flat shading: the colour of the first vertex (P0 of attribute 0, read with
; v_interp_mov_f32 through llvm.amdgcn.interp.mov), over the whole triangle.
;   llc-19 -mtriple=amdgcn-mesa-mesa3d -mcpu=tahiti -filetype=obj flat.ll -o flat.o
; No interpolation coordinates are read; LLVM still enables one input (PERSP_SAMPLE), as
; the hardware needs one.

define amdgpu_ps void @main(i32 inreg %prim_mask) {
  %r = call float @llvm.amdgcn.interp.mov(i32 2, i32 0, i32 0, i32 %prim_mask)
  %g = call float @llvm.amdgcn.interp.mov(i32 2, i32 1, i32 0, i32 %prim_mask)
  %b = call float @llvm.amdgcn.interp.mov(i32 2, i32 2, i32 0, i32 %prim_mask)
  %a = call float @llvm.amdgcn.interp.mov(i32 2, i32 3, i32 0, i32 %prim_mask)
  call void @llvm.amdgcn.exp.f32(i32 0, i32 15, float %r, float %g, float %b, float %a, i1 true, i1 true)
  ret void
}

declare float @llvm.amdgcn.interp.mov(i32, i32, i32, i32)
declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)
