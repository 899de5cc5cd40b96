// ds_swizzle_b32 through clang's builtin: each work-item writes three swizzles of its
// input to out[3i..3i+3]. Patterns (16-bit OFFSET): 0x041f bit masks and 0x1f, or 0,
// xor 1 (neighbours swap); 0x801b quad permute 3,2,1,0 (each quad reversed); 0x0010 bit
// masks and 0x10 (lanes 0-15 of each 32 read lane 0, 16-31 read lane 16). Launch with a
// grid that is a multiple of 64 and EXEC full.
#include "wavejit.h"

__kernel void swizzle(__global const uint *in, __global uint *out) {
  uint i = get_global_id(0);
  uint v = in[i];
  out[3 * i] = __builtin_amdgcn_ds_swizzle(v, 0x041f);
  out[3 * i + 1] = __builtin_amdgcn_ds_swizzle(v, 0x801b);
  out[3 * i + 2] = __builtin_amdgcn_ds_swizzle(v, 0x0010);
}
