; f16 interpolation on GCN 1.2: llvm.amdgcn.interp.p1.f16/p2.f16 (v_interp_p1ll_f16 and
; v_interp_p2_f16) read f16 parameters from the low half of each parameter dword, and the
; colour leaves as f16 pairs in one compressed export (llvm.amdgcn.exp.compr).
;   llc-19 -mtriple=amdgcn-mesa-mesa3d -mcpu=tonga -filetype=obj half.ll -o half.o
; The parameters are f16: the scene says `"params": "f16"` (see half.json). LLVM sets the
; f16 rounding mode to round toward zero (s_setreg) before interpolating.

define amdgpu_ps void @main(i32 inreg %prim_mask, <2 x float> %persp_sample, <2 x float> %persp_center) {
  %i = extractelement <2 x float> %persp_center, i32 0
  %j = extractelement <2 x float> %persp_center, i32 1
  %r.1 = call float @llvm.amdgcn.interp.p1.f16(float %i, i32 0, i32 0, i1 false, i32 %prim_mask)
  %r = call half @llvm.amdgcn.interp.p2.f16(float %r.1, float %j, i32 0, i32 0, i1 false, i32 %prim_mask)
  %g.1 = call float @llvm.amdgcn.interp.p1.f16(float %i, i32 1, i32 0, i1 false, i32 %prim_mask)
  %g = call half @llvm.amdgcn.interp.p2.f16(float %g.1, float %j, i32 1, i32 0, i1 false, i32 %prim_mask)
  %b.1 = call float @llvm.amdgcn.interp.p1.f16(float %i, i32 2, i32 0, i1 false, i32 %prim_mask)
  %b = call half @llvm.amdgcn.interp.p2.f16(float %b.1, float %j, i32 2, i32 0, i1 false, i32 %prim_mask)
  %rg.0 = insertelement <2 x half> undef, half %r, i32 0
  %rg = insertelement <2 x half> %rg.0, half %g, i32 1
  %ba.0 = insertelement <2 x half> undef, half %b, i32 0
  %ba = insertelement <2 x half> %ba.0, half 1.0, i32 1
  call void @llvm.amdgcn.exp.compr.v2f16(i32 0, i32 15, <2 x half> %rg, <2 x half> %ba, i1 true, i1 true)
  ret void
}

declare float @llvm.amdgcn.interp.p1.f16(float, i32, i32, i1, i32)
declare half @llvm.amdgcn.interp.p2.f16(float, float, i32, i32, i1, i32)
declare void @llvm.amdgcn.exp.compr.v2f16(i32, i32, <2 x half>, <2 x half>, i1, i1)
