// A sum per workgroup of 256 in local memory: a tree of halving steps, a barrier after
// each; out[group] = the sum of its 256 inputs (wrapping).
#include "wavejit.h"

#define GROUP 256

__kernel void reduce(__global const uint *in, __global uint *out) {
  __local uint part[GROUP];
  uint l = get_local_id(0);
  part[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = GROUP / 2; s > 0; s >>= 1) {
    if (l < s)
      part[l] += part[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    out[get_group_id(0)] = part[0];
}
